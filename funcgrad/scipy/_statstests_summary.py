"""Summary statistics of :mod:`funcgrad.scipy.stats` (re-exported there), with SciPy's
names and signatures, written in funcgrad operations so that they are differentiable in
the data: ``describe``, ``iqr``, ``median_abs_deviation``, the trimmed statistics
(``tmean``, ``tvar``, ``tstd``, ``tsem``, ``tmin``, ``tmax``, ``trim_mean``, ``trimboth``,
``trim1``), ``sigmaclip``, ``scoreatpercentile``, ``percentileofscore``, ``pmean``,
``gstd``, ``zmap`` and ``gzscore``.

Which values a trimmed or clipped statistic keeps is decided by the values (a step
function of the data): the selection carries no derivative, the kept values do, as for
``np.median``.  ``percentileofscore`` is a count, a step function: its derivative is 0.
``nan_policy``: ``'propagate'`` and ``'raise'``; ``'omit'`` raises
``NotImplementedError`` (drop the NaNs first).
"""
import math
from collections import namedtuple
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._stats_summary import _keep, _power_mean, _prepare, kurtosis, skew

__all__ = ["describe", "iqr", "median_abs_deviation", "tmean", "tvar", "tstd", "tsem",
           "tmin", "tmax", "trim_mean", "trimboth", "trim1", "sigmaclip",
           "scoreatpercentile", "percentileofscore", "pmean", "gstd", "zmap", "gzscore"]

DescribeResult = namedtuple("DescribeResult", ["nobs", "minmax", "mean", "variance",
                                               "skewness", "kurtosis"])
DescribeResult.__doc__ = """:func:`describe`'s result, a named tuple as SciPy's."""
SigmaclipResult = namedtuple("SigmaclipResult", ["clipped", "lower", "upper"])
SigmaclipResult.__doc__ = """:func:`sigmaclip`'s result, a named tuple as SciPy's."""

# (the interquartile range of the standard normal distribution, 2 sqrt(2) erfinv(1/2),
# and its median absolute deviation, ndtri(3/4): the "normal" scales)
_NORMAL_IQR = 1.3489795003921634
_NORMAL_MAD = 0.6744897501960817


def describe(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 1, bias: bool = True,
             nan_policy: str = "propagate") -> DescribeResult:
    """Several statistics of ``a`` along ``axis``: the number of observations,
    ``(min, max)``, the mean, the variance (``ddof``), the skewness and the (Fisher)
    kurtosis (``bias``), as ``scipy.stats.describe``; differentiable.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> d = fst.describe(np.array([1.0, 2.0, 3.0, 6.0]))
    >>> d.nobs, float(d.mean), float(d.variance)
    (4, 3.0, 4.666666666666667)
    """
    a, ax = _prepare("describe", a, axis, nan_policy)
    if a.size == 0:
        raise ValueError("describe: the input must not be empty")
    return DescribeResult(a.shape[ax], (fnp.min(a, axis=ax), fnp.max(a, axis=ax)),
                          fnp.mean(a, axis=ax), fnp.var(a, axis=ax, ddof=ddof),
                          skew(a, ax, bias=bias), kurtosis(a, ax, bias=bias))


def _scale(name, scale, normal):
    if isinstance(scale, str):
        if scale.lower() != "normal":
            raise ValueError(f"{name}: scale must be a number or 'normal', got {scale!r}")
        return normal
    return scale


def iqr(x: ArrayLike, axis: Any = None, rng: Sequence[float] = (25, 75),
        scale: Union[float, str] = 1.0, nan_policy: str = "propagate",
        interpolation: str = "linear", keepdims: bool = False) -> Array:
    """The interquartile range: the difference of the ``rng`` percentiles of ``x`` along
    ``axis`` (by NumPy's ``interpolation`` method), divided by ``scale`` (``'normal'``:
    about 1.349, so that the result estimates a normal standard deviation), as
    ``scipy.stats.iqr``; differentiable in ``x`` (the slope goes to the order
    statistics the percentiles interpolate).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.stats as fst
    >>> float(fst.iqr(np.array([1.0, 2.0, 3.0, 4.0, 5.0])))
    2.0
    >>> fg.grad(fst.iqr)(np.array([1.0, 2.0, 3.0, 4.0, 5.0]))
    array([ 0., -1.,  0.,  1.,  0.])
    """
    if len(rng) != 2:
        raise TypeError(f"iqr: rng must be a pair of percentiles, got {rng!r}")
    if any(not 0 <= r <= 100 for r in rng):
        raise ValueError(f"iqr: each of rng must lie in [0, 100], got {rng!r}")
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError(f"iqr: interpolation must be 'linear', 'lower', 'higher', "
                         f"'midpoint' or 'nearest', got {interpolation!r}")
    scale = _scale("iqr", scale, _NORMAL_IQR)
    x, _ = _prepare("iqr", x, 0, nan_policy)
    low, high = sorted(rng)
    if x.size == 0:  # (NaN, as SciPy's, where NumPy's percentile raises)
        return fnp.full(np.sum(np.empty(x.shape), axis=axis, keepdims=keepdims).shape, math.nan)
    out = (fnp.percentile(x, high, axis=axis, method=interpolation, keepdims=keepdims)
           - fnp.percentile(x, low, axis=axis, method=interpolation, keepdims=keepdims))
    return out / scale


def median_abs_deviation(x: ArrayLike, axis: Optional[int] = 0,
                         center: Optional[Callable[..., Any]] = None,
                         scale: Union[float, str] = 1.0, nan_policy: str = "propagate", *,
                         keepdims: bool = False) -> Array:
    """The median absolute deviation ``median(|x - center(x)|) / scale`` along ``axis``
    (``center`` a function called as ``center(x, axis=axis, keepdims=True)``; the median by
    default; ``scale='normal'``: about 0.6745, so that the result estimates a normal
    standard deviation), as ``scipy.stats.median_abs_deviation``; differentiable.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.median_abs_deviation(np.array([1.0, 2.0, 3.0, 4.0, 10.0])))
    1.0
    """
    scale = _scale("median_abs_deviation", scale, _NORMAL_MAD)
    ndim = np.ndim(x)
    x, ax = _prepare("median_abs_deviation", x, axis, nan_policy)
    if x.size == 0:
        return fnp.full(() if axis is None else x.shape[:ax] + x.shape[ax + 1:], math.nan)
    middle = (fnp.median(x, axis=ax, keepdims=True) if center is None
              else center(x, axis=ax, keepdims=True))
    out = fnp.median(fnp.abs(x - middle), axis=ax) / scale
    return _keep(out, ndim, ax, keepdims, axis is None)


def _inside(a, limits, inclusive):
    """Where ``a`` lies within ``limits`` (``None`` on either side: unbounded)."""
    inside = fnp.ones(a.shape, dtype=bool)
    low, high = limits
    if low is not None:
        inside = fnp.logical_and(inside, (fnp.greater_equal if inclusive[0]
                                          else fnp.greater)(a, low))
    if high is not None:
        inside = fnp.logical_and(inside, (fnp.less_equal if inclusive[1]
                                          else fnp.less)(a, high))
    return inside


def _trimmed(name, a, limits, inclusive, axis, nan_policy):
    """``(a, the axis, where a is kept, how many are kept)``."""
    a, ax = _prepare(name, a, axis, nan_policy)
    if limits is None:
        limits = (None, None)
    if len(limits) != 2:
        raise ValueError(f"{name}: limits must be None or a pair (lower, upper), with None "
                         f"for no limit; got {limits!r}")
    # (a NaN is kept, so that it propagates, as SciPy's 'propagate')
    inside = fnp.logical_or(_inside(a, limits, inclusive), fnp.isnan(a))
    if a.size and isinstance(inside, np.ndarray) and not inside.any():
        raise ValueError(f"{name}: no value of the array lies within the limits {limits!r}")
    count = fnp.sum(inside, axis=ax, keepdims=True)
    return a, ax, inside, fnp.astype(count, a.dtype)


def _ratio(num, den):
    """``num / den``, NaN where ``den <= 0`` (an empty slice: SciPy's NaN), with no NaN
    in the derivative of the others (the double-where idiom)."""
    some = den > 0
    return fnp.where(some, num / fnp.where(some, den, 1.0), math.nan)


def _trimmed_mean(a, ax, inside, count):
    return _ratio(fnp.sum(fnp.where(inside, a, 0.0), axis=ax, keepdims=True), count)


def tmean(a: ArrayLike, limits: Optional[Sequence[Any]] = None,
          inclusive: Sequence[bool] = (True, True), axis: Optional[int] = None, *,
          nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """The mean of the values of ``a`` within ``limits = (lower, upper)`` (``None``: no
    limit; ``inclusive`` says whether each limit is kept), as ``scipy.stats.tmean``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.tmean(np.arange(20.0), (3, 17)))
    10.0
    """
    ndim = np.ndim(a)
    a, ax, inside, count = _trimmed("tmean", a, limits, inclusive, axis, nan_policy)
    out = fnp.squeeze(_trimmed_mean(a, ax, inside, count), axis=ax)
    return _keep(out, ndim, ax, keepdims, axis is None)


def tvar(a: ArrayLike, limits: Optional[Sequence[Any]] = None,
         inclusive: Sequence[bool] = (True, True), axis: Optional[int] = 0, ddof: int = 1,
         *, nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """The variance (``ddof``, 1 by default) of the values of ``a`` within ``limits``, as
    ``scipy.stats.tvar``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.tvar(np.arange(20.0), (3, 17)))
    20.0
    """
    ndim = np.ndim(a)
    a, ax, inside, count = _trimmed("tvar", a, limits, inclusive, axis, nan_policy)
    mean = _trimmed_mean(a, ax, inside, count)
    squares = fnp.where(inside, fnp.square(a - mean), 0.0)
    out = _ratio(fnp.sum(squares, axis=ax), fnp.squeeze(count - ddof, axis=ax))
    return _keep(out, ndim, ax, keepdims, axis is None)


def tstd(a: ArrayLike, limits: Optional[Sequence[Any]] = None,
         inclusive: Sequence[bool] = (True, True), axis: Optional[int] = 0, ddof: int = 1,
         *, nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """``sqrt(tvar(...))``, as ``scipy.stats.tstd``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> round(float(fst.tstd(np.arange(20.0), (3, 17)) ** 2), 12)
    20.0
    """
    return fnp.sqrt(tvar(a, limits, inclusive, axis, ddof, nan_policy=nan_policy,
                         keepdims=keepdims))


def tsem(a: ArrayLike, limits: Optional[Sequence[Any]] = None,
         inclusive: Sequence[bool] = (True, True), axis: Optional[int] = 0, ddof: int = 1,
         *, nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """The standard error of the trimmed mean, ``tstd / sqrt(count)``, as
    ``scipy.stats.tsem``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> round(float(fst.tsem(np.arange(20.0), (3, 17)) ** 2), 12)  # 20 / 15
    1.333333333333
    """
    ndim = np.ndim(a)
    a, ax, inside, count = _trimmed("tsem", a, limits, inclusive, axis, nan_policy)
    mean = _trimmed_mean(a, ax, inside, count)
    squares = fnp.where(inside, fnp.square(a - mean), 0.0)
    n = fnp.squeeze(count, axis=ax)
    out = fnp.sqrt(_ratio(fnp.sum(squares, axis=ax), n - ddof)) / fnp.sqrt(n)
    return _keep(out, ndim, ax, keepdims, axis is None)


def _extreme(name, a, limit, axis, inclusive, nan_policy, keepdims, lower):
    ndim = np.ndim(a)
    limits = (limit, None) if lower else (None, limit)
    a, ax, inside, count = _trimmed(name, a, limits, (inclusive, inclusive), axis,
                                    nan_policy)
    reduce = fnp.min if lower else fnp.max
    out = reduce(fnp.where(inside, a, math.inf if lower else -math.inf), axis=ax)
    out = fnp.where(fnp.squeeze(count, axis=ax) > 0, out, math.nan)
    return _keep(out, ndim, ax, keepdims, axis is None)


def tmin(a: ArrayLike, lowerlimit: Optional[float] = None, axis: Optional[int] = 0,
         inclusive: bool = True, nan_policy: str = "propagate", *,
         keepdims: bool = False) -> Array:
    """The smallest value of ``a`` at or above ``lowerlimit`` (above it with
    ``inclusive=False``), as ``scipy.stats.tmin``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.tmin(np.array([1.0, 4.0, 2.0, 3.0]), 2.0))
    2.0
    """
    return _extreme("tmin", a, lowerlimit, axis, inclusive, nan_policy, keepdims, True)


def tmax(a: ArrayLike, upperlimit: Optional[float] = None, axis: Optional[int] = 0,
         inclusive: bool = True, nan_policy: str = "propagate", *,
         keepdims: bool = False) -> Array:
    """The largest value of ``a`` at or below ``upperlimit`` (below it with
    ``inclusive=False``), as ``scipy.stats.tmax``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.tmax(np.array([1.0, 4.0, 2.0, 3.0]), 3.5))
    3.0
    """
    return _extreme("tmax", a, upperlimit, axis, inclusive, nan_policy, keepdims, False)


def _cut(name, a, proportiontocut, axis, left, right):
    """``a`` sorted along ``axis`` (``None``: flattened), without ``int(p n)`` values at
    the ends ``left``/``right`` asks for."""
    a = asarray(a)
    if a.dtype.kind in "biu":
        a = fnp.astype(a, np.float64)
    if axis is None:
        a, axis = fnp.reshape(a, (-1,)), 0
    if a.size == 0:
        return a, axis
    n = a.shape[axis]
    cut = int(proportiontocut * n)
    low, high = (cut if left else 0), (n - cut if right else n)
    if low >= high:
        raise ValueError(f"{name}: proportiontocut={proportiontocut!r} leaves no values of "
                         f"the {n} along the axis; give a smaller proportion")
    kept = fnp.take(fnp.sort(a, axis=axis), np.arange(low, high), axis=axis)
    return kept, axis


def trim_mean(a: ArrayLike, proportiontocut: float, axis: Optional[int] = 0, *,
              nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """The mean of ``a`` without the ``int(proportiontocut * n)`` smallest and largest
    values along ``axis``, as ``scipy.stats.trim_mean``; differentiable in the kept ones.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.trim_mean(np.array([1.0, 2.0, 3.0, 100.0, -50.0]), 0.2))
    2.0
    """
    ndim = np.ndim(a)
    a = _prepare("trim_mean", a, 0, nan_policy)[0]
    kept, ax = _cut("trim_mean", a, proportiontocut, axis, True, True)
    out = fnp.mean(kept, axis=ax)
    if a.size:  # (a NaN, sorted last, may be cut: it propagates, as SciPy's)
        holes = fnp.any(fnp.isnan(a), axis=ax if axis is not None else None)
        out = fnp.where(holes, math.nan, out)
    return _keep(out, ndim, ax, keepdims, axis is None)


def trimboth(a: ArrayLike, proportiontocut: float, axis: Optional[int] = 0) -> Array:
    """``a`` without the ``int(proportiontocut * n)`` smallest and largest values along
    ``axis``, as ``scipy.stats.trimboth``.  The values left come sorted (SciPy leaves
    their order unspecified).

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> fst.trimboth(np.array([5.0, 1.0, 4.0, 2.0, 3.0]), 0.2)
    array([2., 3., 4.])
    """
    return _cut("trimboth", a, proportiontocut, axis, True, True)[0]


def trim1(a: ArrayLike, proportiontocut: float, tail: str = "right",
          axis: Optional[int] = 0) -> Array:
    """``a`` without the ``int(proportiontocut * n)`` largest (``tail='right'``) or
    smallest (``'left'``) values along ``axis``, as ``scipy.stats.trim1``; the values left
    come sorted (SciPy leaves their order unspecified).

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> fst.trim1(np.array([5.0, 1.0, 4.0, 2.0, 3.0]), 0.4, tail="left")
    array([3., 4., 5.])
    """
    if tail.lower() not in ("right", "left"):
        raise ValueError(f"trim1: tail must be 'left' or 'right', got {tail!r}")
    left = tail.lower() == "left"
    return _cut("trim1", a, proportiontocut, axis, left, not left)[0]


def sigmaclip(a: ArrayLike, low: float = 4.0, high: float = 4.0) -> SigmaclipResult:
    """Iterative sigma clipping, as ``scipy.stats.sigmaclip``: the values of ``a``
    (flattened) within ``[mean - low std, mean + high std]`` of those kept so far, until
    none goes; returns the kept values and the final bounds, differentiable in ``a`` (which
    values are kept carries no derivative).  Needs concrete values (not under vmap/jit).

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> res = fst.sigmaclip(np.concatenate([np.linspace(9.5, 10.5, 31), [20.0]]), 3.0, 3.0)
    >>> res.clipped.shape, round(float(res.lower), 6), round(float(res.upper), 6)
    ((31,), 9.105573, 10.894427)
    """
    c = fnp.reshape(asarray(a), (-1,))
    if c.dtype.kind in "biu":
        c = fnp.astype(c, np.float64)
    while True:
        mean, std = fnp.mean(c), fnp.std(c)
        lower, upper = mean - std * low, mean + std * high
        kept = concrete_values(
            fnp.logical_and(c >= lower, c <= upper), "sigmaclip",
            "which values are kept decides the result's length: call it outside vmap/jit")
        if kept.all():
            return SigmaclipResult(c, lower, upper)
        c = fnp.take(c, np.nonzero(kept)[0])


def _score(sorted_, per, method, axis):
    """SciPy's percentile of the sorted ``sorted_`` ('fraction': linear interpolation
    between order statistics; 'lower'/'higher': the one below/above)."""
    if not 0 <= per <= 100:
        raise ValueError(f"scoreatpercentile: percentiles must lie in [0, 100], got {per!r}")
    where = per / 100.0 * (sorted_.shape[axis] - 1)
    if int(where) != where:
        if method == "lower":
            where = math.floor(where)
        elif method == "higher":
            where = math.ceil(where)
    i = int(where)
    low = fnp.take(sorted_, i, axis=axis)
    if i == where:
        return low
    high = fnp.take(sorted_, i + 1, axis=axis)
    return (low * (i + 1 - where) + high * (where - i)) / ((i + 1 - where) + (where - i))


def scoreatpercentile(a: ArrayLike, per: Any, limit: Sequence[float] = (),
                      interpolation_method: str = "fraction",
                      axis: Optional[int] = None) -> Array:
    """The score at percentile ``per`` (a number or a sequence) of ``a`` along ``axis``
    (``None``: flattened), only values within ``limit = (lower, upper)`` counted when
    given, as ``scipy.stats.scoreatpercentile``; differentiable in ``a``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.scoreatpercentile(np.arange(100.0), 50))
    49.5
    """
    if interpolation_method not in ("fraction", "lower", "higher"):
        raise ValueError(f"scoreatpercentile: interpolation_method must be 'fraction', "
                         f"'lower' or 'higher', got {interpolation_method!r}")
    a = asarray(a)
    if a.size == 0:
        return fnp.full(np.shape(per), math.nan)
    if limit:
        a = fnp.reshape(a, (-1,))
        inside = concrete_values(
            fnp.logical_and(a >= limit[0], a <= limit[1]), "scoreatpercentile",
            "limit= selects values, which decides the shape: call it outside vmap/jit")
        a = fnp.take(a, np.nonzero(inside)[0])
    if axis is None:
        a, axis = fnp.reshape(a, (-1,)), 0
    sorted_ = fnp.sort(a, axis=axis)
    if np.ndim(per) == 0:
        return _score(sorted_, per, interpolation_method, axis)
    return fnp.stack([_score(sorted_, p, interpolation_method, axis) for p in np.ravel(per)])


def percentileofscore(a: ArrayLike, score: ArrayLike, kind: str = "rank",
                      nan_policy: str = "propagate") -> Array:
    """The percentile rank of ``score`` among the values of ``a``, by
    ``kind``: 'rank' (ties averaged), 'weak' (``<=``), 'strict' (``<``) or 'mean', as
    ``scipy.stats.percentileofscore`` (``a`` 1-d).  A count: its derivative is 0.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.percentileofscore(np.array([1.0, 2.0, 3.0, 4.0]), 3.0))
    75.0
    """
    if kind not in ("rank", "weak", "strict", "mean"):
        raise ValueError(f"percentileofscore: kind must be 'rank', 'weak', 'strict' or "
                         f"'mean', got {kind!r}")
    if np.ndim(a) != 1:
        raise ValueError(f"percentileofscore: a must be 1-dimensional (as SciPy's), got shape "
                         f"{np.shape(a)}; pass a.ravel() for all of its values")
    a, _ = _prepare("percentileofscore", a, None, nan_policy)
    score = asarray(score)
    n = a.shape[0]
    if n == 0:
        return fnp.full(score.shape, math.nan)
    values = fnp.reshape(a, (1,) * score.ndim + (n,))
    s = fnp.expand_dims(score, -1)
    left = fnp.astype(fnp.sum(values < s, axis=-1), np.float64)
    right = fnp.astype(fnp.sum(values <= s, axis=-1), np.float64)
    if kind == "rank":
        out = (left + right + fnp.astype(left < right, np.float64)) * (50.0 / n)
    elif kind == "strict":
        out = left / n * 100.0
    elif kind == "weak":
        out = right / n * 100.0
    else:
        out = (left + right) * (50.0 / n)
    # (NaN anywhere in a, or a NaN score: NaN, as SciPy's 'propagate')
    missing = fnp.logical_or(fnp.isnan(score), fnp.any(fnp.isnan(a)))
    return fnp.where(missing, math.nan, out)


def pmean(a: ArrayLike, p: float, *, axis: Optional[int] = 0, dtype: Any = None,
          weights: Optional[ArrayLike] = None, nan_policy: str = "propagate",
          keepdims: bool = False) -> Array:
    """The power mean ``(mean(a**p))**(1/p)`` (weighted: ``sum(w a**p) / sum(w)``;
    ``p = 0``: the geometric mean), as ``scipy.stats.pmean``; differentiable in ``a`` and
    ``weights``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> float(fst.pmean(np.array([1.0, 7.0]), 2))
    5.0
    """
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise ValueError(f"pmean: p must be a real number (int or float), got {p!r}")
    if p == 0:
        return _power_mean("pmean", a, axis, dtype, weights, nan_policy, keepdims,
                           fnp.log, fnp.exp)
    return _power_mean("pmean", a, axis, dtype, weights, nan_policy, keepdims,
                       lambda v: v ** float(p), lambda m: m ** (1.0 / p))


def gstd(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 1, *, keepdims: bool = False,
         nan_policy: str = "propagate") -> Array:
    """The geometric standard deviation ``exp(std(log a, ddof))``, as
    ``scipy.stats.gstd`` (NaN where a value is not positive); differentiable.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> round(float(fst.gstd(np.array([1.0, np.e ** 2]), ddof=0)), 12)
    2.718281828459
    """
    ndim = np.ndim(a)
    a, ax = _prepare("gstd", a, axis, nan_policy)
    positive = fnp.all(a > 0, axis=ax)
    logs = fnp.log(fnp.where(a > 0, a, 1.0))
    out = fnp.where(positive, fnp.exp(fnp.std(logs, axis=ax, ddof=ddof)), math.nan)
    return _keep(out, ndim, ax, keepdims, axis is None)


def zmap(scores: ArrayLike, compare: ArrayLike, axis: Optional[int] = 0, ddof: int = 0,
         nan_policy: str = "propagate") -> Array:
    """``(scores - mean(compare)) / std(compare, ddof)``, the means and deviations along
    ``axis`` (``None``: all of ``compare``), as ``scipy.stats.zmap``; differentiable in
    both.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> fst.zmap(np.array([0.0, 2.0]), np.array([0.0, 1.0, 2.0]))
    array([-1.22474487,  1.22474487])
    """
    scores = _prepare("zmap", scores, 0, nan_policy)[0]
    compare = _prepare("zmap", compare, 0, nan_policy)[0]
    if axis is None:
        return (scores - fnp.mean(compare)) / fnp.std(compare, ddof=ddof)
    return ((scores - fnp.mean(compare, axis=axis, keepdims=True))
            / fnp.std(compare, axis=axis, ddof=ddof, keepdims=True))


def gzscore(a: ArrayLike, *, axis: Optional[int] = 0, ddof: int = 0,
            nan_policy: str = "propagate") -> Array:
    """The geometric z-score, ``zscore(log a)``, as ``scipy.stats.gzscore``.

    >>> import numpy as np, funcgrad.scipy.stats as fst
    >>> fst.gzscore(np.array([1.0, np.e, np.e ** 2]))
    array([-1.22474487,  0.        ,  1.22474487])
    """
    logs = fnp.log(_prepare("gzscore", a, 0, nan_policy)[0])
    return zmap(logs, logs, axis, ddof)
