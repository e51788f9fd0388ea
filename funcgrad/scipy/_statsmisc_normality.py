"""Normality checks of :mod:`funcgrad.scipy.stats` (re-exported there), with SciPy's
signatures and results: ``shapiro``, ``boxcox_normplot``, ``yeojohnson_normplot`` and
``ppcc_plot``.

``shapiro``'s W is the squared correlation of the sorted sample with Royston's
coefficients (SciPy's own, read from its ``swilk`` once per sample size), a ratio of
quadratic forms in the order statistics: differentiable in the data (sorting only picks
which value sits where).  Its p-value is Royston's (1995) normal approximation of a
transform of ``1 - W`` (the exact arcsine law for three values), written in funcgrad, so
it is differentiable too and runs under ``vmap``/``jit``.  SciPy evaluates the same
formula with its own normal tail (AS 66), so the two p-values agree to about 1e-10
relative, the statistics to rounding.

The normplots and ``ppcc_plot`` are :func:`probplot`'s correlation coefficient over a grid
of shape parameters, differentiable in the data (and the transformed data in ``lmbda``).
"""
import functools
import math
import warnings
from collections import namedtuple
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from . import special as sp
from ._stats_summary import check_nan_policy
from ._statsresample_probplot import _distribution
from ._statsresample_quantile import values_of
from ._statsresample_transform import _order_statistic_medians, _yeojohnson

__all__ = ["shapiro", "boxcox_normplot", "yeojohnson_normplot", "ppcc_plot"]

ShapiroResult = namedtuple("ShapiroResult", ["statistic", "pvalue"])
ShapiroResult.__doc__ = """:func:`shapiro`'s result, a named tuple as SciPy's."""

# Royston (1995), AS R94: the mean and log standard deviation of the normalizing
# transform of W, polynomials in n (n <= 11) or log n (n >= 12), lowest order first
_SMALL_GAMMA = (-2.273, 0.459)
_SMALL_MEAN = (0.544, -0.39978, 0.025054, -6.714e-4)
_SMALL_LOG_SD = (1.3822, -0.77857, 0.062767, -0.0020322)
_LARGE_MEAN = (-1.5861, -0.31082, -0.083751, 0.0038915)
_LARGE_LOG_SD = (-0.4803, -0.082676, 0.0030302)


def _poly(coefficients, x):
    return sum(c * x ** i for i, c in enumerate(coefficients))


@functools.lru_cache(maxsize=64)
def _coefficients(n):
    """SciPy's Shapiro-Wilk coefficients for ``n`` values, as the full antisymmetric
    vector of unit length that multiplies the sorted sample (they depend on ``n`` only)."""
    from scipy.stats._ansari_swilk_statistics import swilk
    half = np.zeros(n // 2)
    swilk(np.linspace(-1.0, 1.0, n), half, 0)  # (fills half: the upper coefficients)
    full = np.zeros(n)
    full[:n // 2], full[n - n // 2:] = -half, half[::-1]
    return full


def _shapiro_pvalue(w, n):
    """Royston's upper tail of W for ``n`` values (an arithmetic of ``n`` known now)."""
    if n == 3:  # (exact: W of three normal values follows an arcsine law on [3/4, 1])
        return fnp.maximum(6.0 / math.pi * (fnp.arcsin(fnp.sqrt(w)) - math.pi / 3.0), 0.0)
    y = fnp.log1p(-w)
    if n <= 11:
        gamma = _poly(_SMALL_GAMMA, float(n))
        beyond = fnp.greater_equal(y, gamma)  # (AS R94's "obviously non-normal": 1e-99)
        y = -fnp.log(gamma - fnp.where(beyond, gamma - 1.0, y))
        mean, sd = _poly(_SMALL_MEAN, float(n)), math.exp(_poly(_SMALL_LOG_SD, float(n)))
        return fnp.where(beyond, 1e-99, sp.ndtr((mean - y) / sd))
    log_n = math.log(n)
    mean, sd = _poly(_LARGE_MEAN, log_n), math.exp(_poly(_LARGE_LOG_SD, log_n))
    return sp.ndtr((mean - y) / sd)


def _nan_free(name, a, nan_policy):
    """``a`` (1-d) without its NaNs for ``nan_policy='omit'``; checks the others."""
    if nan_policy == "omit":
        values = concrete_values(a, f"{name} with nan_policy='omit' (which drops the NaNs)",
                                 "use nan_policy='propagate' under vmap/jit")
        keep = np.flatnonzero(~np.isnan(values))
        return a if keep.size == a.shape[0] else a[keep]
    check_nan_policy(name, nan_policy)
    if nan_policy == "raise" and is_concrete(a) and np.isnan(concrete_values(a, name, "")).any():
        raise ValueError(f"{name}: the input contains NaN (nan_policy='raise')")
    return a


def shapiro(x: ArrayLike, *, axis: Optional[int] = None, nan_policy: str = "propagate",
            keepdims: bool = False) -> ShapiroResult:
    """The Shapiro-Wilk test that ``x`` was drawn from a normal distribution, as
    ``scipy.stats.shapiro``: ``W = (a @ x_sorted)**2 / sum((x - mean)**2)`` with Royston's
    coefficients ``a``, and Royston's p-value.  ``axis=None`` (the default) tests all of
    ``x``; an integer tests each slice along it.  Differentiable in ``x`` (W and the
    p-value), float32 kept; fewer than three values give NaN (with SciPy's warning), a
    sample without spread W = p = 1 (with SciPy's warning), as SciPy's.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([148.0, 154, 158, 160, 161, 162, 166, 170, 182, 195, 236])
    >>> res = shapiro(x)
    >>> round(float(res.statistic), 10), round(float(res.pvalue), 8)
    (0.7888146949, 0.00670381)
    >>> g = fg.grad(lambda v: shapiro(v).statistic)(x)  # how each value moves W
    """
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    elif x.dtype.kind != "f":
        raise TypeError(f"shapiro: x must hold real numbers, got dtype {x.dtype}")
    ndim = x.ndim
    if axis is None:
        x = fnp.reshape(x, (-1,))
    else:
        x = fnp.moveaxis(fnp.reshape(x, (1,)) if x.ndim == 0 else x, axis, -1)
    if nan_policy == "omit" and x.ndim > 1:
        raise NotImplementedError("shapiro: nan_policy='omit' is implemented for one "
                                  "sample (axis=None or 1-d x); test each slice alone")
    if x.ndim == 1:
        x = _nan_free("shapiro", x, nan_policy)
    else:
        check_nan_policy("shapiro", nan_policy)
    n = x.shape[-1]
    if n < 3:
        from scipy.stats._axis_nan_policy import SmallSampleWarning  # (SciPy's class)
        warnings.warn("shapiro: a sample has fewer than three values; its statistic and "
                      "p-value are NaN", SmallSampleWarning, stacklevel=2)
        nan = fnp.full(x.shape[:-1], np.nan, dtype=x.dtype)
        return ShapiroResult(_shaped(nan, ndim, axis, keepdims),
                             _shaped(nan, ndim, axis, keepdims))
    if n > 5000:
        warnings.warn(f"shapiro: for more than 5000 values the p-value may not be accurate "
                      f"(there are {n})", UserWarning, stacklevel=2)
    ordered = fnp.sort(x, axis=-1)
    centred = ordered - fnp.mean(ordered, axis=-1, keepdims=True)
    spread = fnp.sum(fnp.square(centred), axis=-1)
    flat = fnp.equal(fnp.stop_gradient(ordered[..., -1]), fnp.stop_gradient(ordered[..., 0]))
    if is_concrete(flat) and np.any(concrete_values(flat, "shapiro", "")):
        warnings.warn("shapiro: the data have zero range (all values equal): W and the "
                      "p-value are 1, as SciPy's, and tell nothing", UserWarning, stacklevel=2)
    a = _coefficients(n).astype(x.dtype)
    # (a has unit length and sums to 0: W is the squared correlation of a and the sample)
    w = fnp.square(fnp.sum(a * centred, axis=-1)) / fnp.where(flat, 1.0, spread)
    w = fnp.where(flat, 1.0, fnp.minimum(w, 1.0))
    p = fnp.where(flat, 1.0, _shapiro_pvalue(fnp.where(flat, 0.9, w), n))
    return ShapiroResult(_shaped(w, ndim, axis, keepdims), _shaped(p, ndim, axis, keepdims))


def _shaped(v, ndim, axis, keepdims):
    if keepdims:
        return fnp.reshape(v, (1,) * ndim) if axis is None else fnp.expand_dims(
            v, axis if axis >= 0 else ndim + axis)
    return v[()] if isinstance(v, np.ndarray) and v.ndim == 0 else v


def _correlations(a, b):
    """Pearson's correlation of the rows of ``a`` and ``b`` (broadcast), along the last
    axis: the ``r`` of a probability plot's least-squares line."""
    a = a - fnp.mean(a, axis=-1, keepdims=True)
    b = b - fnp.mean(b, axis=-1, keepdims=True)
    return fnp.sum(a * b, axis=-1) / fnp.sqrt(
        fnp.sum(fnp.square(a), axis=-1) * fnp.sum(fnp.square(b), axis=-1))


def _draw(plot, grid, ppcc, xlabel, title):
    """SciPy's picture: the points, axis labels and title (skipped where ``plot`` lacks
    them, as SciPy's)."""
    if plot is None:
        return
    plot.plot(values_of(grid), values_of(ppcc), "x")
    labels = (("set_title", "title", title), ("set_xlabel", "xlabel", xlabel),
              ("set_ylabel", "ylabel", "Prob Plot Corr. Coef."))
    for setter, name, text in labels:
        method = getattr(plot, setter, None) or getattr(plot, name, None)
        if method is not None:
            method(text)


def _normplot(name, transform, x, la, lb, plot, N, title):
    x = asarray(x)
    if x.size == 0:
        return x
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    if lb <= la:
        raise ValueError(f"{name}: lb has to be larger than la, got la={la}, lb={lb}")
    ordered = fnp.sort(fnp.ravel(x))
    if name == "boxcox_normplot" and np.any(values_of(ordered)[:1] <= 0):
        raise ValueError("boxcox_normplot: the data must be positive (shift them, or use "
                         "yeojohnson_normplot)")
    lmbdas = np.linspace(la, lb, num=N).astype(x.dtype)
    # (both transforms increase with x: the transformed sample stays sorted)
    z = transform(ordered[None, :], lmbdas[:, None])
    osm = sp.ndtri(_order_statistic_medians(ordered.shape[0])).astype(x.dtype)
    ppcc = _correlations(z, osm)
    _draw(plot, lmbdas, ppcc, "$\\lambda$", title)
    return lmbdas, ppcc


def boxcox_normplot(x: ArrayLike, la: float, lb: float, plot: Optional[Any] = None,
                    N: int = 80) -> Any:
    """The Box-Cox normality plot: for ``N`` values of ``lmbda`` from ``la`` to ``lb``,
    the correlation coefficient of the normal probability plot of ``boxcox(x, lmbda)``,
    as ``scipy.stats.boxcox_normplot``: ``(lmbdas, ppcc)``; ``plot`` (an object with
    ``plot``, e.g. ``matplotlib.pyplot``) draws it.  Differentiable in ``x``.

    >>> import numpy as np
    >>> lmbdas, ppcc = boxcox_normplot(np.array([0.5, 1.0, 2.0, 4.0, 9.0]), -1, 1, N=3)
    >>> lmbdas, np.round(ppcc, 6)
    (array([-1.,  0.,  1.]), array([0.93843 , 0.998756, 0.919833]))
    """
    return _normplot("boxcox_normplot", sp.boxcox, x, la, lb, plot, N,
                     "Box-Cox Normality Plot")


def yeojohnson_normplot(x: ArrayLike, la: float, lb: float, plot: Optional[Any] = None,
                        N: int = 80) -> Any:
    """The Yeo-Johnson normality plot: for ``N`` values of ``lmbda`` from ``la`` to
    ``lb``, the correlation coefficient of the normal probability plot of
    ``yeojohnson(x, lmbda)``, as ``scipy.stats.yeojohnson_normplot``: ``(lmbdas,
    ppcc)``; ``plot`` draws it.  Differentiable in ``x``.

    >>> import numpy as np
    >>> lmbdas, ppcc = yeojohnson_normplot(np.array([-2.0, 0.5, 1.0, 4.0, 9.0]), -1, 1, N=3)
    >>> np.round(ppcc, 6)
    array([0.761592, 0.898128, 0.964035])
    """
    return _normplot("yeojohnson_normplot", _yeojohnson, x, la, lb, plot, N,
                     "Yeo-Johnson Normality Plot")


def ppcc_plot(x: ArrayLike, a: float, b: float, dist: Any = "tukeylambda",
              plot: Optional[Any] = None, N: int = 80) -> Any:
    """The probability plot correlation coefficient of ``x`` against ``dist`` (a name of
    funcgrad's distributions, ``'tukeylambda'``, or an object with a ``ppf``) for ``N``
    values of its shape parameter from ``a`` to ``b``, as ``scipy.stats.ppcc_plot``:
    ``(svals, ppcc)``; ``plot`` draws it.  Differentiable in ``x``.

    >>> import numpy as np
    >>> x = np.array([-2.1, -0.9, -0.3, 0.0, 0.2, 0.7, 1.1, 2.5])
    >>> svals, ppcc = ppcc_plot(x, -1, 1, N=3)
    >>> np.round(ppcc, 6)
    array([0.994377, 0.990162, 0.966606])
    """
    if b <= a:
        raise ValueError(f"ppcc_plot: b has to be larger than a, got a={a}, b={b}")
    distribution = _distribution("ppcc_plot", dist)
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    ordered = fnp.sort(fnp.ravel(x))
    svals = np.linspace(a, b, num=N)
    osm = distribution.ppf(_order_statistic_medians(ordered.shape[0])[None, :],
                           svals[:, None])
    ppcc = _correlations(osm, ordered)
    _draw(plot, svals, ppcc, "Shape Values", f"({dist}) PPCC Plot")
    return svals, ppcc
