"""The order statistics behind NumPy's median, quantile and percentile (and their nan*
forms): rows sorted, then one or two order statistics read per quantile, by each of NumPy's
methods (Hyndman and Fan's nine, and the four older ones), and NumPy 2's ``weights=`` for
``method='inverted_cdf'``.

The derivative flows through the sort to the element(s) read; the indices read are
piecewise constant in ``q`` and in the weights, so those get a zero derivative (the step
methods and the weighted quantile are step functions of ``q``).  Ties: see
:mod:`funcgrad.numpy.statistics`.
"""
import numpy as _np

from ._convert import asarray, concrete_values, is_concrete, normalize_axis
from .constructors import astype
from .indexing import argsort, sort, take_along_axis, where
from .manipulation import broadcast_to, moveaxis, ravel, reshape, transpose
from .reductions import any as _any
from .reductions import cumsum, sum
from .ufuncs import (add, ceil, clip, divide, equal, floor, greater_equal, isfinite, isnan,
                     less, logical_and, logical_not, logical_or, maximum, minimum, mod,
                     multiply, rint, subtract)


def _float(a):
    return astype(a, _np.float64) if a.dtype.kind in "biu" else a


def _to_last(a, axis):
    """``a`` with the ``axis`` axes merged into one last axis, the batch shape, and the
    shape ``keepdims`` gives."""
    if axis is None:
        return ravel(a), (), (1,) * a.ndim
    axes = normalize_axis(axis, a.ndim)
    keep = [i for i in range(a.ndim) if i not in axes]
    batch = tuple(a.shape[i] for i in keep)
    n = 1
    for ax in axes:
        n *= a.shape[ax]
    kept = tuple(1 if i in axes else d for i, d in enumerate(a.shape))
    return reshape(transpose(a, keep + list(axes)), batch + (n,)), batch, kept


def _gather_last(values, idx):
    """``values[..., idx[..., k]]``: ``idx`` (int, shape ``(K,)`` or ``batch + (K,)``)."""
    idx = broadcast_to(idx, values.shape[:-1] + idx.shape[-1:])
    return take_along_axis(values, idx, -1)


def _lerp(lo, hi, t, dtype):
    """NumPy's formula, exact at both ends (``t = 0`` gives lo, ``t = 1`` gives hi); ``t``
    and ``1 - t`` are rounded to ``dtype`` after they are computed, as NumPy does."""
    d = subtract(hi, lo)
    return where(greater_equal(t, 0.5), subtract(hi, multiply(d, astype(subtract(1.0, t), dtype))),
                 add(lo, multiply(d, astype(t, dtype))))


# (alpha, beta) of the continuous methods (Hyndman and Fan), as NumPy names them.
_CONTINUOUS = {"linear": (1.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
               "median_unbiased": (1 / 3.0, 1 / 3.0), "normal_unbiased": (3 / 8.0, 3 / 8.0),
               "interpolated_inverted_cdf": (0.0, 1.0)}
_DISCRETE = {"lower": floor, "higher": ceil, "nearest": rint}
# Hyndman and Fan's step methods, which pick one element (closest_observation: the even
# order statistic where n q lands half-way), and the one averaging two at the steps.
_STEPS = ("inverted_cdf", "closest_observation")
_PICKING = tuple(_DISCRETE) + _STEPS  # (integers stay integers, as NumPy)
METHODS = (sorted(_CONTINUOUS) + sorted(_DISCRETE) + ["midpoint"] + list(_STEPS)
           + ["averaged_inverted_cdf"])


def _quantiles_sorted(sorted_, n, q, method, dtype):
    """The ``q`` (flat, shape ``(K,)``) quantiles of each row of ``sorted_`` (NaNs last),
    whose first ``n`` entries are the values (``n`` an int, or an int array of the batch
    shape): shape ``batch + (K,)``; the interpolation weights have ``dtype`` (NumPy's
    rounding)."""
    n = n if isinstance(n, int) else reshape(n, n.shape + (1,))
    last = maximum(subtract(n, 1), 0)
    if method in _STEPS or method == "averaged_inverted_cdf":
        return _step_quantiles(sorted_, n, last, q, method, dtype)
    if method in _CONTINUOUS:
        alpha, beta = _CONTINUOUS[method]
        if method == "linear":
            virtual = multiply(subtract(n, 1), q)
        else:
            virtual = add(multiply(n, q), add(alpha, multiply(q, 1.0 - alpha - beta))) - 1.0
    else:
        virtual = multiply(subtract(n, 1), q)
    if method in _DISCRETE:
        idx = clip(astype(_DISCRETE[method](virtual), _np.intp), 0, last)
        return _gather_last(sorted_, idx)
    below = floor(virtual)
    lo = _gather_last(sorted_, clip(astype(below, _np.intp), 0, last))
    hi = _gather_last(sorted_, clip(astype(below, _np.intp) + 1, 0, last))
    if method == "midpoint":
        gamma = where(equal(virtual, below), 0.0, 0.5)
    else:
        gamma = subtract(virtual, below)
    return _lerp(lo, hi, gamma, dtype)

def _step_quantiles(sorted_, n, last, q, method, dtype):
    """The step methods, as NumPy computes them: the virtual index ``n q - 1`` (half an
    index less for closest_observation), and the element just above it, or the one at it
    where it is whole (closest_observation: where it is also odd); averaged_inverted_cdf
    takes the mean of the two around a whole index."""
    virtual = subtract(multiply(n, q), 1.0)
    if method == "closest_observation":
        virtual = subtract(virtual, 0.5)
    below = floor(virtual)
    whole = equal(virtual, below)
    if method == "averaged_inverted_cdf":
        lo = _gather_last(sorted_, clip(astype(below, _np.intp), 0, last))
        hi = _gather_last(sorted_, clip(astype(below, _np.intp) + 1, 0, last))
        return _lerp(lo, hi, where(whole, 0.5, 1.0), dtype)
    if method == "closest_observation":
        whole = logical_and(whole, equal(mod(below, 2.0), 1.0))
    picked = where(whole, below, add(below, 1.0))
    return _gather_last(sorted_, clip(astype(picked, _np.intp), 0, last))


def _weighted_rows(name, a, weights, axis):
    """``weights`` laid out as ``a``'s rows (NumPy's rules: ``a``'s shape, or the shape of
    the axes reduced), checked non-negative where their values are known."""
    w = asarray(weights)
    if w.dtype.kind not in "biuf":
        raise TypeError(f"{name}: weights must be real numbers, got dtype {w.dtype}")
    if w.shape != a.shape:
        if axis is None:
            raise TypeError(f"{name}: Axis must be specified when shapes of a and weights "
                            f"differ (or give weights the shape of a)")
        axes = normalize_axis(axis, a.ndim)
        if w.shape != tuple(a.shape[ax] for ax in axes):
            raise ValueError(f"{name}: Shape of weights must be consistent with shape of a "
                             f"along specified axis: expected {tuple(a.shape[ax] for ax in axes)}"
                             f", got {w.shape}")
        w = transpose(w, _np.argsort(axes)) if w.ndim > 1 else w
        w = broadcast_to(reshape(w, tuple(d if k in axes else 1 for k, d in enumerate(a.shape))),
                         a.shape)
    if is_concrete(w) and _np.any(concrete_values(w, name, "") < 0):
        raise ValueError(f"{name}: Weights must be non-negative.")
    return _to_last(w, axis)[0]


def _weighted_quantiles(name, sorted_, w_sorted, n, q, q_dtype):
    """NumPy's weighted inverted_cdf: in each row, the first sorted element whose share of
    the total weight, counted from the smallest, reaches ``q`` (shape ``batch + (K,)``),
    and where the weights cannot be normalised (a sum of zero, inf or NaN)."""
    cdf = cumsum(astype(w_sorted, _np.float64), axis=-1)
    total = cdf[..., -1:]
    unusable = logical_not(logical_and(isfinite(total), greater_equal(total, 0.0)))
    unusable = logical_or(unusable, equal(total, 0.0))
    cdf = divide(cdf, total)
    if q_dtype.kind == "f":  # (NumPy compares in q's precision)
        cdf = astype(cdf, q_dtype)
        q = astype(q, q_dtype)
    # elements of zero weight before the first weighted one never reach q = 0
    cdf = where(equal(cdf, 0.0), -1.0, cdf)
    # searchsorted(cdf, q, side="left") of each row: how many entries lie below q
    below = sum(less(reshape(cdf, cdf.shape[:-1] + (1,) + cdf.shape[-1:]),
                     reshape(q, q.shape + (1,))), -1)
    idx = minimum(below, n - 1)
    return _gather_last(sorted_, idx), reshape(unusable, unusable.shape[:-1])


def quantile_along(name, a, q, axis, method, keepdims, skip_nan, scale=1.0, weights=None):
    """Quantiles as NumPy's (nan)quantile and (nan)percentile compute them (``q`` divided
    by ``scale``), weighted by ``weights`` if given."""
    if method not in METHODS:
        raise ValueError(f"{name}: {method!r} is not a valid method; use one of {METHODS}")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"{name}: Only method 'inverted_cdf' supports weights. Got: "
                         f"{method}. Pass method='inverted_cdf' with weights=")
    a = asarray(a)
    if a.dtype.kind == "c":  # NumPy's refusal: complex numbers have no order to rank by
        raise TypeError(f"{name}: a must be an array of real numbers (got {a.dtype}); take "
                        f"np.real(a) or np.abs(a) first")
    if a.dtype == _np.bool_ and method not in _PICKING:
        raise TypeError(f"{name}: method={method!r} subtracts booleans, which NumPy refuses; "
                        f"convert with a.astype(float) or use 'lower', 'higher' or 'nearest'")
    picked = a.dtype  # the discrete methods pick elements: integers stay integers, as NumPy
    a = _float(a)
    q_in = q
    q = asarray(q)
    if q.dtype.kind not in "biuf":
        raise TypeError(f"{name}: q must be real numbers, got dtype {q.dtype}")
    weak = isinstance(q_in, (int, float)) and not isinstance(q_in, bool)
    dtype = picked if method in _PICKING else \
        _np.result_type(a.dtype, q_in if weak else q.dtype)  # (NumPy's)
    q_dtype = q.dtype if scale == 1.0 else _np.true_divide(_np.zeros((), q.dtype), scale).dtype
    if scale != 1.0:
        q = divide(q, a.dtype.type(scale))
    if is_concrete(q):
        qv = concrete_values(q, name, "")
        if not _np.all((qv >= 0) & (qv <= 1)):
            what = "Percentiles must be in the range [0, 100]" if scale != 1.0 else \
                "Quantiles must be in the range [0, 1]"
            raise ValueError(f"{name}: {what}")
    rows, batch, kept = _to_last(a, axis)
    if rows.shape[-1] == 0:
        raise IndexError(f"{name} of an empty array (or along an axis of length 0) is "
                         f"undefined, as in NumPy; check the input's size first")
    missing = isnan(rows)
    if skip_nan:
        n = sum(logical_not(missing), -1)
        empty = equal(n, 0)
    else:
        n = rows.shape[-1]
        empty = _any(missing, -1)
    flat_q = astype(ravel(q), _np.float64)
    if weights is None:
        sorted_ = sort(rows, axis=-1)  # NaNs sort last
        out = _quantiles_sorted(sorted_, n, flat_q, method, dtype)
    else:
        w_rows = _weighted_rows(name, a, weights, axis)
        if skip_nan:  # (a NaN and its weight leave the slice, as in NumPy)
            w_rows = where(missing, _np.zeros((), w_rows.dtype), w_rows)
        order = argsort(rows, axis=-1)
        out, unusable = _weighted_quantiles(
            name, take_along_axis(rows, order, -1), take_along_axis(w_rows, order, -1),
            n if isinstance(n, int) else reshape(n, n.shape + (1,)), flat_q, q_dtype)
        if is_concrete(unusable) and _np.any(concrete_values(
                logical_and(unusable, logical_not(empty)), name, "")):
            raise ValueError(f"{name}: Weights included NaN, inf or were all zero; give "
                             f"each slice a finite, positive total weight")
        empty = logical_or(empty, unusable)  # (NaN there under jit and vmap)
    if dtype.kind in "fc":  # (integer rows hold no NaN)
        out = astype(out, dtype) if out.dtype != dtype else out
        out = where(reshape(empty, empty.shape + (1,)), _np.asarray(_np.nan, dtype), out)
    else:
        out = astype(out, dtype)
    out = moveaxis(out, -1, 0)
    return reshape(out, q.shape + (kept if keepdims else batch))


def median_along(a, axis, keepdims, skip_nan):
    """NumPy's median (or nanmedian): the middle element, or the mean of the middle two."""
    a = _float(asarray(a))
    rows, batch, kept = _to_last(a, axis)
    shape = kept if keepdims else batch
    if rows.shape[-1] == 0:
        return _np.full(shape, _np.nan, a.dtype)
    sorted_ = sort(rows, axis=-1)
    missing = isnan(rows)
    if skip_nan:
        n = reshape(sum(logical_not(missing), -1), batch + (1,))
        empty = equal(n, 0)
        last = maximum(n - 1, 0)
        lo = _gather_last(sorted_, clip(astype(floor(divide(n - 1, 2)), _np.intp), 0, last))
        hi = _gather_last(sorted_, clip(astype(floor(divide(n, 2)), _np.intp), 0, last))
    else:
        n = rows.shape[-1]
        empty = reshape(_any(missing, -1), batch + (1,))
        lo = _gather_last(sorted_, _np.array([(n - 1) // 2]))
        hi = _gather_last(sorted_, _np.array([n // 2]))
    mid = divide(add(lo, hi), a.dtype.type(2))
    return reshape(where(empty, _np.asarray(_np.nan, a.dtype), mid), shape)

