"""Descriptive statistics of :mod:`funcgrad.scipy.stats` (re-exported there), with SciPy's
signatures, differentiable in the data: the circular ``circmean``, ``circvar``, ``circstd``
and ``directional_stats``, the k-statistics ``kstat`` and ``kstatvar``, and ``expectile``.

``circstd`` at a sample of one repeated angle (``R = 1``, where ``sqrt(-2 log R)`` has an
infinite slope from one side) gives the derivative 0, a subgradient of that kink, as
``abs`` does at 0.  ``nan_policy``: ``'propagate'`` and ``'raise'``; ``'omit'`` raises
``NotImplementedError`` (drop the NaNs first).
"""
import math
from dataclasses import dataclass
from typing import Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._stats_summary import _keep, _prepare
from ._statsresample_quantile import values_of

__all__ = ["circmean", "circvar", "circstd", "directional_stats", "kstat", "kstatvar",
           "expectile"]

@dataclass
class DirectionalStats:
    """:func:`directional_stats`'s result, as SciPy's (a dataclass, not a tuple):
    ``mean_direction`` and ``mean_resultant_length``.

    >>> import numpy as np
    >>> directional_stats(np.array([[2.0, 0.0], [3.0, 0.0]])).mean_direction
    array([1., 0.])
    """
    mean_direction: Array
    mean_resultant_length: Array


def _angles(name, samples, high, low, axis, nan_policy):
    """``(sin, cos of the samples as angles on [low, high), the axis, the period)``."""
    samples, ax = _prepare(name, samples, axis, nan_policy)
    period = high - low
    scaled = samples * (2.0 * math.pi / period)
    return fnp.sin(scaled), fnp.cos(scaled), ax, period


def _resultant(name, samples, high, low, axis, nan_policy):
    """The mean resultant length ``R`` (at most 1: rounding can put it above)."""
    sin, cos, ax, period = _angles(name, samples, high, low, axis, nan_policy)
    length = fnp.sqrt(fnp.mean(sin, axis=ax) ** 2 + fnp.mean(cos, axis=ax) ** 2)
    return fnp.minimum(length, 1.0), ax, period


def circmean(samples: ArrayLike, high: float = 2 * math.pi, low: float = 0,
             axis: Optional[int] = None, nan_policy: str = "propagate", *,
             keepdims: bool = False) -> Array:
    """The circular mean of angles in ``[low, high)`` (the direction of the sum of their
    unit vectors), as ``scipy.stats.circmean``; differentiable.

    >>> import numpy as np, funcgrad as fg
    >>> round(float(circmean(np.array([0.1, 2 * np.pi - 0.1]))), 12)
    0.0
    >>> fg.grad(circmean)(np.array([0.2, 0.4]))
    array([0.5, 0.5])
    """
    ndim = np.ndim(samples)
    sin, cos, ax, period = _angles("circmean", samples, high, low, axis, nan_policy)
    if sin.size == 0:
        return _keep(fnp.mean(sin, axis=ax), ndim, ax, keepdims, axis is None)
    angle = fnp.arctan2(fnp.sum(sin, axis=ax), fnp.sum(cos, axis=ax))
    out = fnp.mod(angle * (period / (2.0 * math.pi)) - low, period) + low
    return _keep(out, ndim, ax, keepdims, axis is None)


def circvar(samples: ArrayLike, high: float = 2 * math.pi, low: float = 0,
            axis: Optional[int] = None, nan_policy: str = "propagate", *,
            keepdims: bool = False) -> Array:
    """The circular variance ``1 - R`` (``R`` the mean resultant length: 0 for one
    repeated angle, up to 1), as ``scipy.stats.circvar``; differentiable.

    >>> import numpy as np
    >>> round(float(circvar(np.array([0.0, np.pi]))), 12)
    1.0
    """
    ndim = np.ndim(samples)
    length, ax, _ = _resultant("circvar", samples, high, low, axis, nan_policy)
    return _keep(1.0 - length, ndim, ax, keepdims, axis is None)


def circstd(samples: ArrayLike, high: float = 2 * math.pi, low: float = 0,
            axis: Optional[int] = None, nan_policy: str = "propagate", *,
            normalize: bool = False, keepdims: bool = False) -> Array:
    """The circular standard deviation ``sqrt(-2 log R)``, in the units of the period
    (``normalize=True``: in radians), as ``scipy.stats.circstd``; differentiable.

    >>> import numpy as np
    >>> round(float(circstd(np.array([0.1, 0.2, 0.3]))), 10)
    0.0816837209
    """
    ndim = np.ndim(samples)
    length, ax, period = _resultant("circstd", samples, high, low, axis, nan_policy)
    spread = length < 1.0  # (at R = 1 the square root's slope is inf: the double where)
    out = fnp.where(spread, fnp.sqrt(-2.0 * fnp.log(fnp.where(spread, length, 0.5))),
                    0.0 * length)
    if not normalize:
        out = out * (period / (2.0 * math.pi))
    return _keep(out, ndim, ax, keepdims, axis is None)


def directional_stats(samples: ArrayLike, *, axis: int = 0,
                      normalize: bool = True) -> DirectionalStats:
    """The mean direction (a unit vector) and mean resultant length of vectors along the
    last axis of ``samples``, the observations along ``axis``, as
    ``scipy.stats.directional_stats`` (``normalize``: make each a unit vector first);
    differentiable.

    >>> import numpy as np
    >>> res = directional_stats(np.array([[1.0, 0.0], [0.0, 1.0]]))
    >>> res.mean_direction, round(float(res.mean_resultant_length), 12)
    (array([0.70710678, 0.70710678]), 0.707106781187)
    """
    samples = asarray(samples)
    if samples.ndim < 2:
        raise ValueError(f"directional_stats: samples must be at least 2-d (observations "
                         f"and the vectors' components), got shape {tuple(samples.shape)}")
    samples = fnp.moveaxis(samples, axis, 0)
    if normalize:
        samples = samples / fnp.linalg.norm(samples, axis=-1, keepdims=True)
    mean = fnp.mean(samples, axis=0)
    length = fnp.linalg.norm(mean, axis=-1, keepdims=True)
    return DirectionalStats(mean / length, fnp.squeeze(length, axis=-1))


def _power_sums(name, data, n, axis, nan_policy):
    data, ax = _prepare(name, data, axis, nan_policy)
    count = float(data.shape[ax])
    return count, [None] + [fnp.sum(data ** k, axis=ax) for k in range(1, n + 1)], ax


def kstat(data: ArrayLike, n: int = 2, *, axis: Optional[int] = None,
          nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """The ``n``-th k-statistic (``1 <= n <= 4``), the unbiased estimator of the ``n``-th
    cumulant, from the power sums of ``data``, as ``scipy.stats.kstat``; differentiable.

    >>> import numpy as np
    >>> float(kstat(np.array([1.0, 2.0, 3.0, 6.0])))
    4.666666666666667
    """
    if n > 4 or n < 1:
        raise ValueError(f"kstat: k-statistics are available for 1 <= n <= 4, got {n}")
    n = int(n)
    ndim = np.ndim(data)
    N, S, ax = _power_sums("kstat", data, n, axis, nan_policy)
    if n == 1:
        out = S[1] / N
    elif n == 2:
        out = (N * S[2] - S[1] ** 2) / (N * (N - 1.0))
    elif n == 3:
        out = (2 * S[1] ** 3 - 3 * N * S[1] * S[2] + N * N * S[3]) / (N * (N - 1.0) * (N - 2.0))
    else:
        out = ((-6 * S[1] ** 4 + 12 * N * S[1] ** 2 * S[2] - 3 * N * (N - 1.0) * S[2] ** 2
                - 4 * N * (N + 1) * S[1] * S[3] + N * N * (N + 1) * S[4])
               / (N * (N - 1.0) * (N - 2.0) * (N - 3.0)))
    return _keep(out, ndim, ax, keepdims, axis is None)


def kstatvar(data: ArrayLike, n: int = 2, *, axis: Optional[int] = None,
             nan_policy: str = "propagate", keepdims: bool = False) -> Array:
    """An unbiased estimate of the variance of the ``n``-th k-statistic (``n`` 1 or 2), as
    ``scipy.stats.kstatvar``; differentiable.

    >>> import numpy as np
    >>> round(float(kstatvar(np.array([1.0, 2.0, 3.0, 6.0]), n=1)), 12)
    1.166666666667
    """
    if n not in (1, 2):
        raise ValueError(f"kstatvar: n must be 1 or 2, got {n}")
    N = float(np.size(data) if axis is None else np.shape(data)[axis])
    k2 = kstat(data, 2, axis=axis, nan_policy=nan_policy, keepdims=keepdims)
    if n == 1:
        return k2 / N
    k4 = kstat(data, 4, axis=axis, nan_policy=nan_policy, keepdims=keepdims)
    return (2 * N * k2 ** 2 + (N - 1) * k4) / (N * (N + 1))


def expectile(a: ArrayLike, alpha: float = 0.5, *,
              weights: Optional[ArrayLike] = None) -> Array:
    """The ``alpha`` expectile of ``a`` (of all of it: the ``t`` where the weighted sum of
    ``|1[a <= t] - alpha| (t - a)`` vanishes; the mean at 1/2), as
    ``scipy.stats.expectile``.  The equation is linear in ``t`` between data values: ``t``
    is a weighted mean of ``a`` with weights ``1 - alpha`` below it and ``alpha`` above,
    found exactly and differentiable in ``a``, ``alpha`` and ``weights``.

    >>> import numpy as np, funcgrad as fg
    >>> a = np.array([1.0, 4.0, 2.0, -1.0])
    >>> round(float(expectile(a, alpha=0.8)), 12)
    2.571428571429
    >>> fg.grad(lambda alpha: expectile(a, alpha))(0.5)
    np.float64(3.0)
    """
    level = float(values_of(alpha))
    if not 0 <= level <= 1:
        raise ValueError(f"expectile: the level alpha must lie in [0, 1], got {alpha!r}")
    a = fnp.ravel(asarray(a))
    w = (fnp.ones(a.shape, a.dtype if a.dtype.kind == "f" else np.float64) if weights is None
         else fnp.ravel(fnp.broadcast_to(asarray(weights), np.shape(asarray(a)))))
    if a.shape[0] == 0:
        raise ValueError("expectile: a must not be empty")
    values, weight = values_of(a).astype(float), values_of(w).astype(float)
    if level in (0.0, 1.0):  # (the smallest or largest datum: a weight of 0 elsewhere)
        return (fnp.min if level == 0 else fnp.max)(a)
    # each split k (the k smallest at or below t): t_k, consistent if it lies in its gap
    order = np.argsort(values, kind="stable")
    x, u = values[order], weight[order]
    low_w, low_wx = np.concatenate([[0], np.cumsum(u)]), np.concatenate([[0], np.cumsum(u * x)])
    t = (((1 - level) * low_wx + level * (low_wx[-1] - low_wx))
         / ((1 - level) * low_w + level * (low_w[-1] - low_w)))
    below = np.concatenate([[-np.inf], x])
    above = np.concatenate([x, [np.inf]])
    # (exactly one split fits; rounding may leave it a hair outside its gap)
    k = int(np.argmin(np.maximum(below - t, 0.0) + np.maximum(t - above, 0.0)))
    split = x[k - 1] if k > 0 else -np.inf
    low = values <= split
    share = fnp.where(low, 1.0 - alpha, alpha) * w
    return fnp.sum(share * a) / fnp.sum(share)
