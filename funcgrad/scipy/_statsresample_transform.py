"""The power transformations of :mod:`funcgrad.scipy.stats` (re-exported there), with
SciPy's signatures: ``boxcox``, ``boxcox_llf``, ``boxcox_normmax``, ``yeojohnson``,
``yeojohnson_llf`` and ``yeojohnson_normmax``.

The transforms and log-likelihoods are differentiable in the data and in ``lmbda``, to
every order, at ``lmbda = 0`` too: ``(x**l - 1) / l`` is written ``log(x) exprel(l log
x)``, smooth through 0, where SciPy switches to ``log x`` (whose derivative in ``l`` would
be 0, not ``log(x)**2 / 2``).  The optimal ``lmbda`` (``*_normmax``, ``boxcox`` and
``yeojohnson`` without ``lmbda``) is found by SciPy's optimizer and differentiated in the
data by the implicit function theorem at that optimum (:mod:`._implicit_minimum`), as is
``boxcox``'s confidence interval, the roots of the likelihood-ratio equation.
"""
import math
import warnings
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike
from . import special as sp
from ._correlation import pearsonr
from ._implicit_minimum import differentiable_minimum
from ._optlegacy_scalar import brent, fminbound
from ._scalar_roots import brentq
from ._stats_summary import _keep, _prepare
from ._statsresample_quantile import values_of

__all__ = ["boxcox", "boxcox_llf", "boxcox_normmax", "yeojohnson", "yeojohnson_llf",
           "yeojohnson_normmax"]


def _scalar_lambda(name, lmb):
    if isinstance(lmb, (int, float)):
        return lmb  # (a Python number: float32 data stay float32)
    lmb = asarray(lmb)
    if lmb.ndim:
        raise ValueError(f"{name}: lmb must be a scalar, got shape {tuple(lmb.shape)}; "
                         f"map over several with funcgrad.vmap")
    return lmb


def boxcox_llf(lmb: ArrayLike, data: ArrayLike, *, axis: Optional[int] = 0,
               keepdims: bool = False, nan_policy: str = "propagate") -> Array:
    """The Box-Cox log-likelihood ``(lmb - 1) sum(log x) - N/2 log(var(boxcox(x, lmb)))``
    along ``axis``, as ``scipy.stats.boxcox_llf``; differentiable in ``lmb`` and ``data``
    (to every order, at ``lmb = 0`` too).  The variance is taken of ``x**lmb`` scaled by
    its largest value, so that large ``|lmb log x|`` does not overflow.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([1.0, 2.0, 3.0, 7.0])
    >>> round(float(boxcox_llf(0.0, x)), 10)
    -2.3327131983
    >>> round(float(fg.grad(boxcox_llf)(0.0, x)), 6)  # (smooth through lmb = 0)
    -0.211348
    """
    name = "boxcox_llf"
    ndim = np.ndim(data)
    lmb = _scalar_lambda(name, lmb)
    data, ax = _prepare(name, data, axis, nan_policy)
    dtype = np.result_type(data.dtype, getattr(lmb, "dtype", data.dtype), np.float16)
    n = data.shape[ax]
    if n == 0:
        return _keep(fnp.full(np.sum(np.empty(data.shape), axis=ax).shape, math.nan, dtype),
                     ndim, ax, keepdims, axis is None)
    logs = fnp.log(data)
    # near lmb = 0 (|lmb log x| <= 1): log(x) exprel(lmb log x), smooth through 0; beyond,
    # x**lmb / lmb with x**lmb scaled by its largest (the double where: each side safe)
    reach = fnp.abs(lmb) * fnp.max(fnp.abs(stop_gradient(logs)), axis=ax, keepdims=True)
    near = fnp.logical_or(reach <= 1.0, fnp.isnan(reach))
    small = fnp.where(near, lmb, 0.0)
    log_var_near = fnp.log(fnp.var(logs * sp.exprel(small * logs), axis=ax, keepdims=True))
    large = fnp.where(near, 1.0, lmb)
    powers = large * logs
    top = stop_gradient(fnp.max(powers, axis=ax, keepdims=True))
    top = fnp.where(fnp.isfinite(top), top, 0.0)
    log_var_far = (fnp.log(fnp.var(fnp.exp(powers - top), axis=ax, keepdims=True))
                   + 2.0 * top - 2.0 * fnp.log(fnp.abs(large)))
    log_var = fnp.squeeze(fnp.where(near, log_var_near, log_var_far), axis=ax)
    out = (lmb - 1.0) * fnp.sum(logs, axis=ax) - n / 2.0 * log_var
    return _keep(fnp.astype(out, dtype), ndim, ax, keepdims, axis is None)


def _order_statistic_medians(n):
    """Filliben's estimates of the medians of the uniform order statistics of ``n``."""
    medians = (np.arange(1, n + 1) - 0.3175) / (n + 0.365)
    medians[-1] = 0.5 ** (1.0 / n)
    medians[0] = 1.0 - medians[-1]
    return medians


def _minimizer(name, optimizer, brack):
    """SciPy's optimizer of ``func(lmbda, *args)``: ``brent`` from ``brack`` (-2, 2 by
    default), or the user's ``optimizer(f)`` (its ``.x``), made differentiable in ``args``
    at the minimum it returns."""
    if optimizer is None:
        bracket = (-2.0, 2.0) if brack is None else brack
        return lambda func, args: brent(func, args=args, brack=bracket)
    if not callable(optimizer):
        raise ValueError(f"{name}: optimizer must be a callable")
    if brack is not None:
        raise ValueError(f"{name}: brack must be None if optimizer is given")

    def solve(func, args):
        plain = tuple(stop_gradient(a) for a in args)
        found = getattr(optimizer(lambda lmbda: func(lmbda, *plain)), "x", None)
        if found is None:
            raise ValueError(f"{name}: optimizer must return an object with the optimal "
                             f"lmbda in its attribute x (an OptimizeResult)")
        best = np.reshape(np.asarray(values_of(found), float), (1,))
        return differentiable_minimum(lambda lm, *a: func(lm, *a), best, lambda z: z[0],
                                      args, name=name)[0]
    return solve


def boxcox_normmax(x: ArrayLike, brack: Optional[tuple] = None, method: str = "pearsonr",
                   optimizer: Optional[Callable] = None, *, ymax: Any = None) -> Array:
    """The ``lmbda`` that makes ``boxcox(x, lmbda)`` most normal, as
    ``scipy.stats.boxcox_normmax``: ``'pearsonr'`` (the straightest normal probability
    plot), ``'mle'`` (the largest :func:`boxcox_llf`) or ``'all'`` (both); found with
    SciPy's optimizer (``brent`` from ``brack``, or ``optimizer``), then limited so that the
    transformed extremes stay within ``ymax`` (by default the dtype's largest / 10000).
    Differentiable in ``x`` by the implicit function theorem.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([0.5, 1.0, 2.0, 4.0, 9.0])
    >>> round(float(boxcox_normmax(x, method="mle")), 4)
    -0.0464
    >>> g = fg.grad(lambda x: boxcox_normmax(x, method="mle"))(x)
    """
    name = "boxcox_normmax"
    x = asarray(x)
    values = values_of(x)
    if not np.all(np.isfinite(values) & (values >= 0)):
        raise ValueError(f"{name}: x must contain only positive, finite, real numbers")
    if method not in ("pearsonr", "mle", "all"):
        raise ValueError(f"{name}: method must be 'pearsonr', 'mle' or 'all', got {method!r}")
    dtype = values.dtype if values.dtype.kind == "f" else np.dtype(np.float64)
    limit_says = f"overflow in {dtype}"
    if ymax is None:
        ymax = np.finfo(dtype).max / 10000  # (SciPy's margin: special.boxcox overflows early)
    elif ymax <= 0:
        raise ValueError(f"{name}: ymax must be strictly positive, got {ymax!r}")
    else:
        limit_says = "exceed specified ymax"
    solve = _minimizer(name, optimizer, brack)

    def by_pearsonr():
        scores = sp.ndtri(_order_statistic_medians(x.shape[0]))
        return solve(lambda lm, data: 1.0 - pearsonr(
            scores, fnp.sort(sp.boxcox(data, lm))).statistic, (x,))

    def by_mle():
        return solve(lambda lm, data: -boxcox_llf(lm, data), (x,))

    found = {"pearsonr": by_pearsonr, "mle": by_mle,
             "all": lambda: fnp.stack([by_pearsonr(), by_mle()])}[method]()
    if math.isinf(ymax):
        return found
    return _limited(name, x, values, found, ymax, limit_says)


def _limited(name, x, values, found, ymax, limit_says):
    """SciPy's limit on ``lmbda``: where the extreme the transform stretches most would
    exceed ``ymax``, the ``lmbda`` that maps it to ``ymax`` exactly (a Lambert W)."""
    high, low = values.max(), values.min()
    lam = values_of(found)
    at_high = fnp.max(x) + 0.0 * found
    at_low = fnp.min(x) + 0.0 * found
    if low >= 1:
        extreme, where = at_high, np.full(lam.shape, high)
    elif high <= 1:
        extreme, where = at_low, np.full(lam.shape, low)
    else:
        pick = np.asarray(sp.boxcox(high, lam) > abs(sp.boxcox(low, lam)))
        if lam.ndim:
            pick = np.full(lam.shape, pick[1])  # (SciPy's: as the 'mle' one says)
        extreme = fnp.where(pick, at_high, at_low)
        where = np.where(pick, high, low)
    over = np.abs(np.asarray(sp.boxcox(where, lam))) > ymax
    if not np.any(over):
        return found
    warnings.warn(f"{name}: the optimal lambda is {lam}, but the returned lambda is the "
                  f"constrained optimum to ensure that the maximum or the minimum of the "
                  f"transformed data does not {limit_says}", UserWarning, stacklevel=3)
    target = ymax * fnp.sign(extreme - 1.0)
    log_extreme = fnp.log(extreme)
    w = sp.lambertw(-(extreme ** (-1.0 / target)) * log_extreme / target, k=-1).real
    limited = -w / log_extreme - 1.0 / target
    return fnp.where(over, limited, found)


def _likelihood_interval(x, lmax, alpha):
    """The ``lmbda`` where the log-likelihood is ``chi2(1).ppf(1 - alpha) / 2`` below its
    maximum, on either side (SciPy's search for a bracket, then ``brentq``)."""
    level = sp.ndtri(1.0 - alpha / 2.0) ** 2 * 0.5  # (chi2 with one degree: a normal squared)
    target = boxcox_llf(lmax, x) - level

    def gap(lm, data, target):
        return boxcox_llf(lm, data) - target
    ends = []
    for step in (0.1, -0.1):
        start = float(values_of(lmax)) + 5.0 * step
        for _ in range(500):
            if not float(values_of(gap(start, x, target))) > 0.0:
                break
            start += step
        else:
            raise RuntimeError("boxcox: could not find an end of the confidence interval")
        lo, hi = (lmax, start) if step > 0 else (start, lmax)
        ends.append(brentq(gap, float(values_of(lo)), float(values_of(hi)), args=(x, target)))
    return ends[1], ends[0]


def boxcox(x: ArrayLike, lmbda: Optional[ArrayLike] = None, alpha: Optional[float] = None,
           optimizer: Optional[Callable] = None) -> Any:
    """The Box-Cox transform ``(x**lmbda - 1) / lmbda`` (``log x`` at 0), as
    ``scipy.stats.boxcox``: with ``lmbda``, the transformed array; without, ``(y,
    lmbda)`` for the ``lmbda`` of the largest log-likelihood (and with ``alpha`` its ``1
    - alpha`` confidence interval as a third item).  Differentiable in ``x`` and
    ``lmbda``; the fitted ``lmbda`` and interval by the implicit function theorem.

    >>> import numpy as np, funcgrad as fg
    >>> boxcox(np.array([1.0, np.e]), 0.0)
    array([0., 1.])
    >>> y, lmbda = boxcox(np.array([0.5, 1.0, 2.0, 4.0, 9.0]))
    >>> round(float(lmbda), 4)
    -0.0464
    """
    x = asarray(x)
    if lmbda is not None:
        return sp.boxcox(x, lmbda)
    if x.ndim != 1:
        raise ValueError(f"boxcox: the data must be 1-d to fit lmbda, got shape "
                         f"{tuple(x.shape)}")
    if x.shape[0] == 0:
        return x
    values = values_of(x)
    if np.all(values == values[0]):
        raise ValueError("boxcox: the data must not be constant")
    if np.any(values <= 0):
        raise ValueError("boxcox: the data must be positive (shift it, or use yeojohnson)")
    lmax = boxcox_normmax(x, method="mle", optimizer=optimizer)
    y = sp.boxcox(x, lmax)
    if alpha is None:
        return y, lmax
    return y, lmax, _likelihood_interval(x, lmax, alpha)


def _yeojohnson(x, lmbda):
    """``((x + 1)**l - 1) / l`` for ``x >= 0``, ``-((1 - x)**(2 - l) - 1) / (2 - l)``
    below, each as ``t exprel(l t)`` with ``t = log1p(|x|)``: smooth in ``l`` at 0 and 2."""
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    up = x >= 0
    t = fnp.log1p(fnp.abs(x))
    # (each side sees only its own points: exprel of the other side's may overflow)
    right, left = fnp.where(up, t, 0.0 * t), fnp.where(up, 0.0 * t, t)
    return fnp.where(up, right * sp.exprel(lmbda * right),
                     -left * sp.exprel((2.0 - lmbda) * left))


def yeojohnson_llf(lmb: ArrayLike, data: ArrayLike, *, axis: Optional[int] = 0,
                   nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """The Yeo-Johnson log-likelihood ``-N/2 log(var(y)) + (lmb - 1) sum(sign(x)
    log1p|x|)`` along ``axis``, as ``scipy.stats.yeojohnson_llf`` (``-inf`` where the
    variance is below the smallest normal number); differentiable in ``lmb`` and ``data``.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([-1.0, 0.5, 2.0, 6.0])
    >>> round(float(yeojohnson_llf(1.0, x)), 10)
    -3.8329258955
    >>> g = fg.grad(yeojohnson_llf)(1.0, x)
    """
    name = "yeojohnson_llf"
    ndim = np.ndim(data)
    lmb = _scalar_lambda(name, lmb)
    data, ax = _prepare(name, data, axis, nan_policy)
    y = _yeojohnson(data, lmb)
    variance = fnp.var(y, axis=ax)
    tiny = np.finfo(variance.dtype).smallest_normal
    usable = variance >= tiny
    log_variance = fnp.where(usable, fnp.log(fnp.where(usable, variance, 1.0)), -math.inf)
    out = (-data.shape[ax] / 2.0 * log_variance
           + (lmb - 1.0) * fnp.sum(fnp.sign(data) * fnp.log1p(fnp.abs(data)), axis=ax))
    return _keep(out, ndim, ax, keepdims, axis is None)


def yeojohnson_normmax(x: ArrayLike, brack: Optional[tuple] = None) -> Array:
    """The ``lmbda`` of the largest :func:`yeojohnson_llf`, as
    ``scipy.stats.yeojohnson_normmax``: SciPy's bounded search (bounds keeping the
    transform of up to 20 times the data finite) or ``brent`` from ``brack``;
    differentiable in ``x`` by the implicit function theorem.

    >>> import numpy as np
    >>> round(float(yeojohnson_normmax(np.array([-1.0, 0.5, 2.0, 6.0, 15.0]))), 4)
    0.2784
    """
    x = asarray(x)
    values = values_of(x)
    if not np.all(np.isfinite(values)):
        raise ValueError("yeojohnson_normmax: the data must be finite")
    if np.all(values == 0):
        return np.float64(1.0)

    def negative_llf(lm, data):
        llf = yeojohnson_llf(lm, data)
        return -fnp.where(fnp.isinf(llf), -math.inf, llf)  # (SciPy's: any inf rejected)
    if brack is not None:
        return brent(negative_llf, brack=brack, args=(x,))
    dtype = values.dtype if values.dtype.kind == "f" else np.dtype(np.float64)
    # (SciPy's bounds: half the exponent range, for up to 20 times the largest datum)
    reach = np.log1p(20 * np.max(np.abs(values)))
    log_eps = np.log(np.finfo(dtype).eps)
    low = (np.log(np.finfo(dtype).tiny) - log_eps) / 2 / reach
    high = (np.log(np.finfo(dtype).max) + log_eps) / 2 / reach
    if np.all(values < 0):
        low, high = 2 - high, 2 - low
    elif np.any(values < 0):
        low, high = max(2 - high, low), min(2 - low, high)
    return fminbound(negative_llf, low, high, args=(x,), xtol=1.48e-08)


def yeojohnson(x: ArrayLike, lmbda: Optional[ArrayLike] = None) -> Any:
    """The Yeo-Johnson transform (Box-Cox's of ``x + 1`` for ``x >= 0``, mirrored with
    ``2 - lmbda`` below), as ``scipy.stats.yeojohnson``: with ``lmbda``, the transformed
    array; without, ``(y, lmbda)`` for the ``lmbda`` of the largest log-likelihood.
    Differentiable in ``x`` and ``lmbda`` (to every order, at 0 and 2 too).

    >>> import numpy as np
    >>> yeojohnson(np.array([-1.0, 0.0, 3.0]), 1.0)
    array([-1.,  0.,  3.])
    """
    x = asarray(x)
    if x.size == 0:
        return x
    if x.dtype.kind == "c":
        raise ValueError("yeojohnson: the transformation is not defined for complex numbers")
    if lmbda is not None:
        return _yeojohnson(x, lmbda)
    lmax = yeojohnson_normmax(x)
    return _yeojohnson(x, lmax), lmax
