"""Tests of equal spread and of equal means of :mod:`funcgrad.scipy.stats` (re-exported
there) whose statistics are smooth functions of the data: ``bartlett``, ``levene`` and
``alexandergovern``, with SciPy's names, signatures and result objects.

The statistics are written in funcgrad operations and the p-values are the tails of their
null distributions in :mod:`funcgrad.scipy.special` (``chdtrc``, ``fdtrc``), so both are
differentiable in the data (``levene``'s median and trimmed centres are piecewise smooth:
their derivative is that of the middle values).  The samples may differ in length along
``axis`` and broadcast against each other elsewhere; ``axis=None`` flattens each.
``nan_policy``: ``'propagate'`` and ``'raise'``; ``'omit'`` raises ``NotImplementedError``
(drop the NaNs first).
"""
from collections import namedtuple
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from . import special as sp
from ._stats_summary import check_nan_policy
from ._statstests_summary import trim_mean

__all__ = ["bartlett", "levene", "alexandergovern"]


BartlettResult = namedtuple("BartlettResult", ["statistic", "pvalue"])
BartlettResult.__doc__ = """:func:`bartlett`'s result, a named tuple as SciPy's."""
LeveneResult = namedtuple("LeveneResult", ["statistic", "pvalue"])
LeveneResult.__doc__ = """:func:`levene`'s result, a named tuple as SciPy's."""


@dataclass
class AlexanderGovernResult:
    """:func:`alexandergovern`'s result, as SciPy's: ``.statistic`` and ``.pvalue``."""

    statistic: Any
    pvalue: Any


def _samples(name, samples, axis, nan_policy, least=2):
    """The samples as float arrays with ``axis`` last (flattened for ``axis=None``) and
    their other axes broadcast together, and the number of axes the result is shaped by."""
    check_nan_policy(name, nan_policy)
    if len(samples) < least:
        raise ValueError(f"{name}: at least {least} samples are required, got "
                         f"{len(samples)}")
    arrays = []
    for s in samples:
        a = asarray(s)
        if a.dtype.kind in "biu":
            a = fnp.astype(a, np.float64)
        elif a.dtype.kind != "f":
            raise TypeError(f"{name}: the samples must be real numbers, got dtype {a.dtype}")
        if nan_policy == "raise" and is_concrete(a) and np.isnan(
                concrete_values(a, name, "")).any():
            raise ValueError(f"{name}: the input contains NaN (nan_policy='raise')")
        arrays.append(a)
    dtype = np.result_type(*[a.dtype for a in arrays])
    arrays = [fnp.astype(a, dtype) if a.dtype != dtype else a for a in arrays]
    ndim = max(a.ndim for a in arrays)
    if axis is None:
        return [fnp.reshape(a, (-1,)) for a in arrays], ndim
    arrays = [fnp.moveaxis(fnp.reshape(a, (1,)) if a.ndim == 0 else a, axis, -1)
              for a in arrays]
    try:
        lead = np.broadcast_shapes(*[a.shape[:-1] for a in arrays])
    except ValueError:
        raise ValueError(f"{name}: the samples must broadcast against each other apart "
                         f"from axis {axis}, got shapes "
                         f"{[tuple(np.shape(s)) for s in samples]}") from None
    return [fnp.broadcast_to(a, lead + a.shape[-1:]) for a in arrays], ndim


def _out(x, ndim, axis, keepdims):
    if not keepdims:
        return x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x  # (a scalar)
    if axis is None:
        return fnp.reshape(x, (1,) * ndim)
    return fnp.expand_dims(x, axis if axis >= 0 else ndim + axis)


def bartlett(*samples: ArrayLike, axis: Optional[int] = 0, nan_policy: str = "propagate",
             keepdims: bool = False) -> BartlettResult:
    """Bartlett's test that the samples come from populations of equal variance: the
    statistic compares the log of the pooled variance with the logs of the samples' own
    (``ddof=1``), p-value by chi2 with ``k - 1`` degrees of freedom, as
    ``scipy.stats.bartlett``; differentiable in the samples.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.0, 3.0, 3.5, 4.0, 5.0])
    >>> res = bartlett(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (2.140692102857, 0.143437166923)
    >>> g = fg.grad(lambda v: bartlett(v, y).pvalue)(x)
    """
    arrays, ndim = _samples("bartlett", samples, axis, nan_policy)
    k = len(arrays)
    ns = [float(a.shape[-1]) for a in arrays]
    with np.errstate(divide="ignore", invalid="ignore"):
        variances = [fnp.var(a, axis=-1, ddof=1) for a in arrays]
        total = sum(ns)
        pooled = sum((n - 1.0) * v for n, v in zip(ns, variances)) / (total - k)
        numerator = (total - k) * fnp.log(pooled) - sum(
            (n - 1.0) * fnp.log(v) for n, v in zip(ns, variances))
        denominator = 1.0 + (sum(1.0 / (n - 1.0) for n in ns) - 1.0 / (total - k)) / (
            3.0 * (k - 1.0))
        statistic = numerator / denominator
    # (the statistic is >= 0 in exact arithmetic; SciPy clips its rounding below 0)
    statistic = fnp.maximum(statistic, 0.0)
    p = sp.chdtrc((k - 1.0) + fnp.zeros_like(statistic), statistic)
    return BartlettResult(_out(statistic, ndim, axis, keepdims), _out(p, ndim, axis, keepdims))


def levene(*samples: ArrayLike, center: str = "median", proportiontocut: float = 0.05,
           axis: Optional[int] = 0, nan_policy: str = "propagate",
           keepdims: bool = False) -> LeveneResult:
    """Levene's test that the samples come from populations of equal variance: one-way
    analysis of variance of the absolute deviations from each sample's ``center``
    ('median', the default: the Brown-Forsythe test; 'mean'; or 'trimmed', the mean
    without ``proportiontocut`` of each tail), p-value by the F distribution, as
    ``scipy.stats.levene``; differentiable in the samples (the median's and trimmed mean's
    derivatives are those of the values they keep).

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.0, 3.0, 3.5, 4.0, 5.0])
    >>> res = levene(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (2.871794871795, 0.133969032804)
    >>> g = fg.grad(lambda v: levene(v, y, center="mean").statistic)(x)
    """
    if center not in ("median", "mean", "trimmed"):
        raise ValueError(f"levene: center must be 'median', 'mean' or 'trimmed', got "
                         f"{center!r}")
    arrays, ndim = _samples("levene", samples, axis, nan_policy)
    k = len(arrays)
    ns = [float(a.shape[-1]) for a in arrays]
    if center == "median":
        centres = [fnp.median(a, axis=-1, keepdims=True) for a in arrays]
    elif center == "mean":
        centres = [fnp.mean(a, axis=-1, keepdims=True) for a in arrays]
    else:
        centres = [fnp.expand_dims(trim_mean(a, proportiontocut, axis=-1), -1)
                   for a in arrays]
    deviations = [fnp.abs(a - c) for a, c in zip(arrays, centres)]
    with np.errstate(divide="ignore", invalid="ignore"):
        means = [fnp.mean(z, axis=-1) for z in deviations]
        total = sum(ns)
        grand = sum(n * m for n, m in zip(ns, means)) / total
        between = (total - k) * sum(n * fnp.square(m - grand) for n, m in zip(ns, means))
        within = (k - 1.0) * sum(fnp.sum(fnp.square(z - fnp.expand_dims(m, -1)), axis=-1)
                                 for z, m in zip(deviations, means))
        statistic = between / within
    p = sp.fdtrc(k - 1.0, total - k, statistic)
    return LeveneResult(_out(statistic, ndim, axis, keepdims), _out(p, ndim, axis, keepdims))


def alexandergovern(*samples: ArrayLike, nan_policy: str = "propagate",
                    axis: Optional[int] = 0, keepdims: bool = False) -> AlexanderGovernResult:
    """Alexander and Govern's test of equal means without equal variances (an
    alternative to Welch's ANOVA): each sample's t statistic against the variance-weighted
    common mean, normalized and summed in squares, p-value by chi2 with ``k - 1`` degrees
    of freedom, as ``scipy.stats.alexandergovern``; differentiable in the samples.  A
    sample without spread gives NaN, as SciPy's.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.0, 3.0, 3.5, 4.0, 5.0])
    >>> res = alexandergovern(x, y + 1.0)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.402218683215, 0.525945655311)
    >>> g = fg.grad(lambda v: alexandergovern(v, y).statistic)(x)
    """
    arrays, ndim = _samples("alexandergovern", samples, axis, nan_policy)
    for a, s in zip(arrays, samples):
        if a.shape[-1] <= 1:
            raise ValueError(f"alexandergovern: each sample needs at least two values, got "
                             f"one of shape {tuple(np.shape(s))} (axis={axis})")
    ns = [float(a.shape[-1]) for a in arrays]
    means = [fnp.mean(a, axis=-1) for a in arrays]
    eps = float(np.finfo(arrays[0].dtype).eps)
    with np.errstate(divide="ignore", invalid="ignore"):
        se2 = [fnp.var(a, axis=-1, ddof=1) / n for a, n in zip(arrays, ns)]
        # (a sample without spread has no t statistic: NaN, as SciPy's)
        se2 = [fnp.where(fnp.sqrt(fnp.stop_gradient(v)) <= fnp.abs(
            eps * fnp.stop_gradient(m)), np.nan, v) for v, m in zip(se2, means)]
        inverse = [1.0 / v for v in se2]
        common = sum(w * m for w, m in zip(inverse, means)) / sum(inverse)
        statistic: Any = 0.0
        for m, v, n in zip(means, se2, ns):
            df = n - 1.0
            a = df - 0.5
            b = 48.0 * a * a
            # (z is c times a polynomial in c**2, c**2 = a log(1 + t**2 / df): its square
            # is written in c**2, so no square root of 0 spoils the derivative at t = 0)
            u = a * fnp.log1p(fnp.square(m - common) / v / df)
            g = 1.0 + (u + 3.0) / b - (((4.0 * u + 33.0) * u + 240.0) * u + 855.0) / (
                10.0 * b * b + 8.0 * b * u * u + 1000.0 * b)
            statistic = statistic + u * fnp.square(g)
    k = len(arrays)
    p = sp.chdtrc((k - 1.0) + fnp.zeros_like(statistic), statistic)
    return AlexanderGovernResult(_out(statistic, ndim, axis, keepdims),
                                 _out(p, ndim, axis, keepdims))
