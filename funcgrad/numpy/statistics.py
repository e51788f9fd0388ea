"""Statistics: average, median, quantiles and percentiles, ptp, cov, corrcoef, counting and
histograms.

Order statistics (median, quantiles) are differentiated through the sort: each output
takes the derivative of the sorted element(s) it reads, as JAX does.  Where values tie, the
sort is stable (of equal values, the earlier in the input takes the lower rank), and the
derivative goes to the element the sort puts at the rank read: ``median([1., 1., 5.])``
reads rank 1, so its derivative is ``[0, 1, 0]`` -- one valid subgradient; NumPy's value is
the same whichever tied element is read.
"""
import builtins
from typing import Any

import numpy as _np

from ._convert import (asarray, concrete_values, is_concrete, normalize_axis, operand,
                       scalar_results, write_out)
from .constructors import astype
from .ranges import linspace
from ._order_statistics import _float, median_along, quantile_along
from .indexing import at, take_along_axis, where
from .manipulation import broadcast_to, concatenate, ravel, reshape, squeeze, transpose
from .products import dot
from .reductions import max, min, sum
from .ufuncs import (add, clip, conj, divide, equal, greater, greater_equal, imag, multiply,
                     not_equal, real, sqrt, subtract)
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["average", "median", "quantile", "percentile", "ptp", "cov", "corrcoef", "bincount",
           "count_nonzero", "histogram", "histogram_bin_edges"]



def average(a: ArrayLike, axis: Axis = None, weights: ArrayLike | None = None,
            returned: bool = False, *, keepdims: bool = False) -> Array | tuple[Array, Array]:
    """``np.average(a, axis=None, weights=None, returned=False, *, keepdims=False)``: the
    mean, weighted by ``weights`` (differentiable in both); ``returned=True`` also gives the
    sum of the weights.

    A zero sum of weights raises ZeroDivisionError (as NumPy) when the weights are
    concrete; under ``vmap``/``jit`` that slice is NaN or inf instead.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.average(np.array([1.0, 2.0, 4.0]), weights=np.array([1.0, 1.0, 2.0])))
    2.75
    >>> fg.grad(lambda w: fnp.average(np.array([1.0, 3.0]), weights=w))(np.array([1.0, 1.0]))
    array([-0.5,  0.5])
    """
    a = asarray(a)
    axes = normalize_axis(axis, a.ndim, "axis")
    if weights is None:
        a = _float(a)
        n = 1
        for ax in axes:
            n *= a.shape[ax]
        avg = sum(a, axes, keepdims=keepdims) / float(n) if n else \
            sum(a, axes, keepdims=keepdims) * _np.nan
        scale = _np.asarray(float(n), avg.dtype)
    else:
        w = asarray(weights)
        dtype = _np.result_type(a.dtype, w.dtype, *(["f8"] if a.dtype.kind in "biu" else []))
        if w.shape != a.shape:
            if axis is None:
                raise TypeError("average: axis must be specified when shapes of a and weights "
                                "differ")
            if w.ndim != len(axes) or w.shape != tuple(a.shape[ax] for ax in axes):
                raise ValueError("average: shape of weights must be consistent with shape of "
                                 "a along specified axis")
            shape = [1] * a.ndim
            for k, ax in enumerate(axes):
                shape[ax] = w.shape[k]
            w = broadcast_to(reshape(w, tuple(shape)), a.shape)
        a, w = astype(a, dtype), astype(w, dtype)
        scale = sum(w, axes, keepdims=keepdims)
        if is_concrete(scale) and _np.any(concrete_values(scale, "", "") == 0.0):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = sum(multiply(a, w), axes, keepdims=keepdims) / scale
    if returned:
        return avg, broadcast_to(astype(scale, avg.dtype), _np.shape(avg))
    return avg


# --- order statistics --------------------------------------------------------------------------

@scalar_results
def quantile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: Any = None,
             overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
             weights: ArrayLike | None = None, interpolation: Any = None) -> Array:
    """``np.quantile(a, q, axis=None, out=None, overwrite_input=False, method='linear',
    keepdims=False, *, weights=None, interpolation=None)``: the ``q``-th quantiles
    (``0 <= q <= 1``), differentiable in ``a`` and, for the interpolating methods, in ``q``.

    Methods: NumPy's thirteen: 'linear' (the default), 'lower', 'higher', 'nearest',
    'midpoint', 'hazen', 'weibull', 'median_unbiased', 'normal_unbiased',
    'interpolated_inverted_cdf', and the step functions of ``q`` 'inverted_cdf',
    'averaged_inverted_cdf' and 'closest_observation'.  ``weights`` (with
    method='inverted_cdf', as NumPy) weigh the elements; their derivative is zero, as that
    of ``q`` in the step methods.  The derivative flows through the sort to the one or two
    order statistics each quantile reads (ties: see :mod:`funcgrad.numpy.statistics`).  A
    slice holding NaN gives NaN, as NumPy.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> x = np.array([4.0, 1.0, 3.0, 2.0])
    >>> float(fnp.quantile(x, 0.5)), fnp.quantile(x, [0.0, 1.0])
    (2.5, array([1., 4.]))
    >>> fg.grad(lambda x: fnp.quantile(x, 0.25))(x)
    array([0.  , 0.25, 0.  , 0.75])
    >>> float(fnp.quantile(x, 0.5, weights=np.array([1.0, 1.0, 1.0, 5.0]),
    ...                    method="inverted_cdf"))
    2.0
    """
    if out is not None:
        return write_out("quantile", out, quantile(a, q, axis, None, overwrite_input,
                         method, keepdims, weights=weights, interpolation=interpolation),
                         "same_kind")
    return quantile_along("quantile", a, q, axis, interpolation or method, keepdims, False,
                          weights=weights)


@scalar_results
def percentile(a: ArrayLike, q: ArrayLike, axis: Axis = None, out: Any = None,
               overwrite_input: bool = False, method: str = "linear", keepdims: bool = False, *,
               weights: ArrayLike | None = None, interpolation: Any = None) -> Array:
    """``np.percentile(a, q, axis=None, out=None, overwrite_input=False, method='linear',
    keepdims=False, *, weights=None, interpolation=None)``: :func:`quantile` with ``q`` in
    percent (``0 <= q <= 100``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.percentile(np.array([1.0, 2.0, 3.0, 4.0]), 50))
    2.5
    """
    if out is not None:
        return write_out("percentile", out, percentile(a, q, axis, None, overwrite_input,
                         method, keepdims, weights=weights, interpolation=interpolation),
                         "same_kind")
    return quantile_along("percentile", a, q, axis, interpolation or method, keepdims, False,
                          scale=100.0, weights=weights)


@scalar_results
def median(a: ArrayLike, axis: Axis = None, out: Any = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Array:
    """``np.median(a, axis=None, out=None, overwrite_input=False, keepdims=False)``: the
    middle value (the mean of the middle two for an even count); NaN where a slice holds
    NaN or is empty.

    Differentiated through the sort, like :func:`quantile`: the derivative goes to the
    middle element (half each to the middle two); for ties see
    :mod:`funcgrad.numpy.statistics`.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.median(np.array([3.0, 1.0, 2.0, 10.0])))
    2.5
    >>> fg.grad(fnp.median)(np.array([3.0, 1.0, 2.0, 10.0]))
    array([0.5, 0. , 0.5, 0. ])
    """
    if out is not None:
        return write_out("median", out, median(a, axis, None, overwrite_input, keepdims),
                         "unsafe")
    return median_along(a, axis, keepdims, False)


# --- spread, covariance ------------------------------------------------------------------------

def ptp(a: ArrayLike, axis: Axis = None, out: Any = None, keepdims: bool = False) -> Array:
    """``np.ptp(a, axis=None, out=None, keepdims=False)``: the range ``max - min``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.ptp)(np.array([2.0, 5.0, 1.0]))
    array([ 0.,  1., -1.])
    """
    if out is not None:
        return write_out("ptp", out, ptp(a, axis, None, keepdims), "same_kind")
    return subtract(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


def _rows(m, rowvar, dtype):
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    m = astype(m, dtype)
    m = reshape(m, (1,) * (2 - m.ndim) + m.shape) if m.ndim < 2 else m
    return transpose(m) if not rowvar and m.shape[0] != 1 else m


def cov(m: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, bias: bool = False,
        ddof: Any = None, fweights: ArrayLike | None = None, aweights: ArrayLike | None = None, *,
        dtype: DTypeLike | None = None) -> Array:
    """``np.cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None,
    aweights=None, *, dtype=None)``: the covariance matrix of the variables in the rows of
    ``m`` (and ``y``), with NumPy's weights and normalisation; float64 unless ``dtype``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.cov(np.array([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    if dtype is None:
        dtype = _np.result_type(asarray(m).dtype, _np.float64) if y is None else \
            _np.result_type(asarray(m).dtype, asarray(y).dtype, _np.float64)
    elif _np.dtype(dtype).kind in "biu":  # (NumPy subtracts the float mean in dtype: refused)
        raise TypeError(f"cov: dtype={_np.dtype(dtype)} cannot hold the deviations from the "
                        f"mean (NumPy refuses it too); pass a float dtype")
    x = _rows(m, rowvar, dtype)
    if x.shape[0] == 0:
        return _np.array([], dtype).reshape(0, 0)
    if y is not None:
        x = concatenate([x, _rows(y, rowvar, dtype)], 0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        fw = concrete_values(asarray(fweights), "cov's fweights", "Pass concrete frequencies.")
        if not _np.all(fw == _np.around(fw)):
            raise TypeError("fweights must be integer")
        if fw.ndim > 1 or fw.shape[0] != x.shape[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if _np.any(fw < 0):
            raise ValueError("fweights cannot be negative")
        w = _np.asarray(fw, _np.float64)
    if aweights is not None:
        aw = asarray(aweights)
        if aw.ndim > 1 or aw.shape[0] != x.shape[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        if is_concrete(aw) and _np.any(concrete_values(aw, "", "") < 0):
            raise ValueError("aweights cannot be negative")
        w = aw if w is None else multiply(w, aw)
    avg, w_sum = average(x, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = float(builtins.max(x.shape[1] - ddof, 0))
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * sum(multiply(w, aw)) / w_sum
    x = subtract(x, reshape(avg, (avg.shape[0], 1)))
    x_t = transpose(x if w is None else multiply(x, w))
    if x_t.dtype.kind == "c":  # X @ (X w)^H, as NumPy
        x_t = conj(x_t)
    if isinstance(fact, float):  # a Python number: float32 stays float32, as NumPy
        return squeeze(multiply(dot(x, x_t), 1.0 / fact if fact else _np.inf))
    return squeeze(multiply(dot(x, x_t), divide(1.0, fact)))


def corrcoef(x: ArrayLike, y: ArrayLike | None = None, rowvar: bool = True, *,
             dtype: DTypeLike | None = None) -> Array:
    """``np.corrcoef(x, y=None, rowvar=True, *, dtype=None)``: Pearson correlation
    coefficients (the covariance normalised by the standard deviations, clipped to
    ``[-1, 1]`` as NumPy does).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.corrcoef(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 7.0])).round(4)
    array([[1.    , 0.9934],
           [0.9934, 1.    ]])
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return divide(c, c)
    n = c.shape[0]
    stddev = sqrt(real(take_along_axis(c, _np.arange(n).reshape(n, 1), 1)))  # the diagonal
    c = divide(divide(c, stddev), reshape(stddev, (1, n)))
    if c.dtype.kind == "c":  # the real and imaginary parts clipped apart, as NumPy
        return add(clip(real(c), -1.0, 1.0), multiply(clip(imag(c), -1.0, 1.0), 1j))
    return clip(c, -1.0, 1.0)


# --- counting ------------------------------------------------------------------------------------

def count_nonzero(a: ArrayLike, axis: Axis = None, *, keepdims: bool = False) -> Array:
    """``np.count_nonzero(a, axis=None, *, keepdims=False)``: how many entries are not zero
    (an integer; not differentiable).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> int(fnp.count_nonzero(np.array([[0.0, 1.0], [2.0, 3.0]])))
    3
    """
    return sum(astype(not_equal(asarray(a), 0), _np.intp), axis, keepdims=keepdims)


def bincount(x: ArrayLike, weights: ArrayLike | None = None, minlength: int = 0, *,
             length: int | None = None) -> Array:
    """``np.bincount(x, /, weights=None, minlength=0)``: how often each non-negative
    integer occurs in ``x`` (or the sum of ``weights`` there: differentiable in
    ``weights``, float64 as NumPy).

    The length of the result is ``max(x) + 1``: ``x`` must be concrete (under ``vmap`` or
    ``jit`` it raises ConcretizationError; pass the indices as a constant).  JAX's
    ``length=`` fixes it instead, so ``x`` may be traced; then, as in JAX, values from
    ``length`` up are not counted and negative ones count in the first bin.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.bincount(np.array([0, 2, 2]))
    array([1, 0, 2])
    >>> fg.grad(lambda w: fnp.bincount(np.array([0, 2, 2]), w)[2])(np.ones(3))
    array([0., 1., 1.])
    """
    if length is not None:
        return _bincount_of_length(x, weights, length)
    xs = concrete_values(asarray(x), "bincount (its length is max(x) + 1)",
                         "Pass x as a constant, or count with fnp.sum(x[:, None] == "
                         "np.arange(n), axis=0) for a known n.")
    if xs.ndim != 1:
        raise ValueError(f"bincount: x must be 1-d, got shape {xs.shape}")
    if xs.dtype.kind not in "iu" and not (xs.size == 0 and xs.dtype.kind == "f"):
        raise TypeError(f"bincount: x must be non-negative integers, got dtype {xs.dtype}; "
                        f"cast with x.astype(int)")
    if xs.size and xs.min() < 0:
        raise ValueError("bincount: x must be non-negative (the first argument has a "
                         "negative value)")
    if minlength < 0:
        raise ValueError("minlength must be non-negative")
    length = builtins.max(int(xs.max()) + 1 if xs.size else 0, int(minlength))
    if weights is None:
        return _np.bincount(xs.astype(_np.intp), minlength=length)
    w = astype(asarray(weights), _np.float64)
    if w.shape != xs.shape:
        raise ValueError("bincount: the weights and list don't have the same length.")
    return at(_np.zeros(length))[xs.astype(_np.intp)].add(w)


def _bincount_of_length(x, weights, length):
    x = asarray(x)
    if x.dtype.kind == "b":
        x = astype(x, _np.intp)
    if x.ndim != 1 or x.dtype.kind not in "iu":
        raise TypeError(f"bincount: x must be a 1-d array of integers, got "
                        f"{x.dtype}{list(x.shape)}; cast with x.astype(int)")
    if not isinstance(length, (int, _np.integer)) or length < 0:
        raise TypeError(f"bincount: length must be a non-negative int (a static value), got "
                        f"{length!r}")
    bins = where(x < 0, 0, x)  # JAX's rule: negative values fall in the first bin
    if weights is None:
        return at(_np.zeros(int(length), _np.intp))[bins].add(1, mode="drop")
    w = astype(asarray(weights), _np.float64)
    if w.shape != x.shape:
        raise ValueError("bincount: the weights and list don't have the same length.")
    return at(_np.zeros(int(length)))[bins].add(w, mode="drop")


def _weak(v):
    """``v`` for ``np.result_type``: Python numbers stay weakly typed."""
    return v if isinstance(v, (int, float)) else asarray(v).dtype


def _edges_from_range(a, bins, range):  # noqa: A002 - NumPy's name
    if range is not None:
        lo, hi = operand(range[0]), operand(range[1])
        if is_concrete(lo) and is_concrete(hi):
            lo_v, hi_v = (float(concrete_values(v, "", "")) for v in (lo, hi))
            if lo_v > hi_v:
                raise ValueError("max must be larger than min in range parameter.")
            if not (_np.isfinite(lo_v) and _np.isfinite(hi_v)):
                raise ValueError(f"supplied range of [{lo_v}, {hi_v}] is not finite")
    elif a.size == 0:
        lo, hi = 0.0, 1.0
    else:
        lo, hi = min(a), max(a)
        if is_concrete(a):
            lo_v, hi_v = float(concrete_values(lo, "", "")), float(concrete_values(hi, "", ""))
            if not (_np.isfinite(lo_v) and _np.isfinite(hi_v)):
                raise ValueError(f"autodetected range of [{lo_v}, {hi_v}] is not finite")
    dtype = _np.result_type(_weak(lo), _weak(hi), a.dtype)
    if dtype.kind in "biu":
        dtype = _np.dtype(_np.float64)
    same = equal(lo, hi)
    lo = where(same, subtract(lo, 0.5), lo)
    hi = where(same, add(hi, 0.5), hi)
    return linspace(lo, hi, bins + 1, endpoint=True, dtype=dtype)


def _real_data(name, a):
    """``a``, refused when complex: NumPy bins complex data by comparing real parts, then
    imaginary parts, with a ComplexWarning, which no derivative or traced edge follows."""
    if a.dtype.kind == "c":
        raise TypeError(f"{name}: complex values have no order to bin by (got {a.dtype}); "
                        f"bin np.real(a), np.abs(a) or np.angle(a) instead")
    return a


def histogram_bin_edges(a: ArrayLike, bins: ArrayLike = 10,
                        range: tuple[float, float] | None = None,
                        weights: ArrayLike | None = None) -> Array:  # noqa: A002 - NumPy's name
    """``np.histogram_bin_edges(a, bins=10, range=None, weights=None)``: the bin edges
    :func:`histogram` uses.  With a number of bins, they span ``range`` (default: the
    data's min and max) and are differentiable in it; given as an array, they are
    returned as they are; named estimators ('auto', 'fd'...) need concrete data.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.histogram_bin_edges(np.array([0.0, 1.0, 4.0]), bins=4)
    array([0., 1., 2., 3., 4.])
    >>> fg.grad(lambda x: fnp.histogram_bin_edges(x, bins=4)[1])(np.array([0.0, 1.0, 4.0]))
    array([0.75, 0.  , 0.25])
    """
    a = _real_data("histogram_bin_edges", asarray(a))
    if weights is not None and asarray(weights).shape != a.shape:
        raise ValueError("weights should have the same shape as a.")
    a = ravel(a)
    if isinstance(bins, str):
        if weights is not None:
            raise TypeError(f"histogram: bins={bins!r} (automated estimation of the number "
                            f"of bins) is not supported for weighted data, as in NumPy; give "
                            f"the number of bins or the edges")
        values = concrete_values(a, f"histogram bins={bins!r} (an estimator reading the data)",
                                 "Give the number of bins instead, with range=.")
        rng = None if range is None else tuple(float(concrete_values(operand(r), "", ""))
                                               for r in range)
        n = len(_np.histogram_bin_edges(values, bins, rng)) - 1
        return _edges_from_range(a, n, range)
    if _np.ndim(bins) == 1:
        edges = asarray(bins)
        if is_concrete(edges) and _np.any(_np.diff(concrete_values(edges, "", "")) < 0):
            raise ValueError("bins must increase monotonically, when an array")
        return edges
    if _np.ndim(bins) != 0 or int(bins) != bins or bins < 1:
        raise ValueError("`bins` must be positive, when an integer")
    return _edges_from_range(a, int(bins), range)


def histogram(a: ArrayLike, bins: ArrayLike = 10, range: tuple[float, float] | None = None,
              density: bool | None = None,
              weights: ArrayLike | None = None) -> tuple[Array, Array]:  # noqa: A002 - NumPy's name
    """``np.histogram(a, bins=10, range=None, density=None, weights=None)``: ``(hist,
    bin_edges)``.  The counts are integers and not differentiable (a count is a step
    function of the data); with ``weights`` the sums of weights are differentiable in the
    weights, and ``density=True`` in the edges too.

    Works under ``vmap``/``jit`` with a number of bins (each value is compared with every
    edge), not with named estimators ('auto'...).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.histogram(np.array([0.0, 0.5, 1.0, 4.0]), bins=4)
    (array([2, 1, 0, 1]), array([0., 1., 2., 3., 4.]))
    """
    a = _real_data("histogram", asarray(a))
    edges = histogram_bin_edges(a, bins, range, weights)
    w = None if weights is None else ravel(asarray(weights))
    a = ravel(a)
    n_edges = edges.shape[0]
    # Entry i falls in bin j when edges[j] <= a[i] < edges[j + 1], the last bin closed:
    # cumulative counts of "a >= edge" differenced.
    column = reshape(a, (a.shape[0], 1))
    inner = builtins.max(n_edges - 1, 0)  # (no edges, as bins=[]: no bins, as NumPy)
    above = concatenate([greater_equal(column, reshape(edges[:inner], (1, inner))),
                         greater(column, reshape(edges[inner:], (1, n_edges - inner)))], 1)
    if w is None:
        cum = sum(astype(above, _np.intp), 0)
    else:
        cum = sum(where(above, reshape(w, (w.shape[0], 1)), _np.zeros((), w.dtype)), 0)
    hist = subtract(cum[:inner], cum[1:])
    if density:
        widths = subtract(edges[1:], edges[:-1])
        return divide(divide(hist, widths), sum(hist)), edges
    return hist, edges
