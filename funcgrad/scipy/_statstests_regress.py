"""Line fits of :mod:`funcgrad.scipy.stats` (re-exported there), with SciPy's names,
signatures and results: ``linregress`` (least squares, with the t test of the slope),
``theilslopes`` (Theil-Sen: the median of the pairwise slopes) and ``siegelslopes``
(Siegel's repeated medians).

``linregress`` is written in funcgrad operations: every output is differentiable in ``x``
and ``y``.  The median-based fits are differentiable too, piecewise: their slopes are one
pairwise slope (or the mean of two), so the derivative goes to the points that slope
joins; which pair that is, like which values a median picks, carries no derivative.
Which pairs count (``x`` values apart) is decided from ``x``'s values.
"""
import math
from collections import namedtuple
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from . import special as sp
from ._correlation import _check_alternative, _t_tails
from ._stats_summary import _keep, _prepare
from ._sigrest_axis_nan import along_axis

__all__ = ["linregress", "theilslopes", "siegelslopes"]

TheilslopesResult = namedtuple("TheilslopesResult", ["slope", "intercept", "low_slope",
                                                     "high_slope"])
TheilslopesResult.__doc__ = """:func:`theilslopes`'s result, a named tuple as SciPy's."""
SiegelslopesResult = namedtuple("SiegelslopesResult", ["slope", "intercept"])
SiegelslopesResult.__doc__ = """:func:`siegelslopes`'s result, a named tuple as SciPy's."""


class LinregressResult(namedtuple("LinregressResult", ["slope", "intercept", "rvalue",
                                                       "pvalue", "stderr"])):
    """:func:`linregress`'s result, as SciPy's: the five values ``slope, intercept, rvalue,
    pvalue, stderr`` (a tuple of five), and ``.intercept_stderr``.

    >>> import numpy as np
    >>> res = linregress(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 5.0]))
    >>> slope, intercept, r, p, se = res
    >>> float(slope), float(intercept), float(res.intercept_stderr)
    (2.0, 1.0, 0.0)
    """

    intercept_stderr: Any

    def __new__(cls, slope: Any, intercept: Any, rvalue: Any, pvalue: Any, stderr: Any,
                intercept_stderr: Any = None) -> "LinregressResult":
        self = super().__new__(cls, slope, intercept, rvalue, pvalue, stderr)
        self.intercept_stderr = intercept_stderr
        return self


def linregress(x: ArrayLike, y: ArrayLike, alternative: str = "two-sided", *,
               axis: Optional[int] = 0, nan_policy: str = "propagate",
               keepdims: bool = False) -> LinregressResult:
    """The least-squares line of ``y`` on ``x`` along ``axis``: slope, intercept,
    correlation coefficient, the p-value of the t test of a zero slope (``n - 2`` degrees
    of freedom), and the standard errors of the slope and intercept, as
    ``scipy.stats.linregress``; every output is differentiable in ``x`` and ``y``.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([0.0, 1.0, 2.0, 3.0]), np.array([1.0, 2.0, 2.0, 4.0])
    >>> res = linregress(x, y)
    >>> round(float(res.slope), 12), round(float(res.intercept), 12)
    (0.9, 0.9)
    >>> fg.grad(lambda v: linregress(x, v).slope)(y)  # (x - mean x) / sum (x - mean x)**2
    array([-0.3, -0.1,  0.1,  0.3])
    """
    _check_alternative("linregress", alternative)
    ndim = max(np.ndim(x), np.ndim(y))
    x, ax = _prepare("linregress", x, axis, nan_policy)
    y, _ = _prepare("linregress", y, axis, nan_policy)
    if x.size == 0 or y.size == 0:
        raise ValueError("linregress: the inputs must not be empty")
    if x.ndim == 0 or y.ndim == 0 or x.shape[ax] != y.shape[ax]:
        raise ValueError(f"linregress: x and y must have the same length along the axis, got "
                         f"shapes {tuple(x.shape)} and {tuple(y.shape)}")
    n = x.shape[ax]
    if n > 1 and is_concrete(x):
        values = concrete_values(x, "linregress", "")
        if np.any(np.ptp(values, axis=ax) == 0):
            raise ValueError("linregress: cannot fit a line when all x values are "
                             "identical; give x values that differ")
    xmean = fnp.mean(x, axis=ax, keepdims=True)
    ymean = fnp.mean(y, axis=ax, keepdims=True)
    xc, yc = x - xmean, y - ymean
    ssxm = fnp.mean(xc * xc, axis=ax)
    ssym = fnp.mean(yc * yc, axis=ax)
    ssxym = fnp.mean(xc * yc, axis=ax)
    xmean, ymean = fnp.squeeze(xmean, axis=ax), fnp.squeeze(ymean, axis=ax)
    # (a constant y: r is undefined, NaN, as SciPy's; the double-where keeps the NaN out
    # of the derivatives elsewhere)
    flat = fnp.logical_or(ssxm == 0, ssym == 0)
    r = ssxym / fnp.sqrt(fnp.where(flat, 1.0, ssxm * ssym))
    r = fnp.where(flat, fnp.where(ssxym == 0, math.nan, 0.0), fnp.clip(r, -1.0, 1.0))
    slope = ssxym / ssxm
    intercept = ymean - slope * xmean
    if n == 2:
        first, second = fnp.take(y, 0, axis=ax), fnp.take(y, 1, axis=ax)
        zero = fnp.zeros_like(r)  # (not 0 * r: NaN for a constant y)
        p = fnp.where(first == second, 1.0, 0.0) + zero
        stderr = intercept_stderr = zero
    else:
        df = n - 2.0
        tiny = 1e-20
        t = r * fnp.sqrt(df / ((1.0 - r + tiny) * (1.0 + r + tiny)))
        p = _t_tails(t, df + fnp.zeros_like(t), alternative)
        stderr = fnp.sqrt((1.0 - r * r) * ssym / ssxm / df)
        intercept_stderr = stderr * fnp.sqrt(ssxm + xmean * xmean)
    outs = [_keep(v, ndim, ax, keepdims, axis is None)
            for v in (slope, intercept, r, p, stderr, intercept_stderr)]
    return LinregressResult(*outs)


def _line(name, y, x):
    """``(y, x)`` as 1-d float arrays of the same length (``x``: 0, 1, ... by default)."""
    y = fnp.reshape(asarray(y), (-1,))
    if y.dtype.kind in "biu":
        y = fnp.astype(y, np.float64)
    if x is None:
        x = np.arange(y.shape[0], dtype=y.dtype)
    else:
        x = fnp.reshape(asarray(x), (-1,))
        if x.dtype.kind in "biu":
            x = fnp.astype(x, y.dtype)
        if x.shape[0] != y.shape[0]:
            raise ValueError(f"{name}: x and y must have the same length, got {x.shape[0]} "
                             f"and {y.shape[0]}")
    if y.shape[0] < 2:
        raise ValueError(f"{name}: x and y must have length at least 2")
    return y, x, concrete_values(x, name, "which pairs of points count is decided by x's "
                                          "values: call it outside vmap/jit over x")


def _repeats(values):
    """The sizes of the groups of equal values (those of at least two)."""
    _, counts = np.unique(values, return_counts=True)
    return counts[counts > 1]


def _theilslopes_1d(y: ArrayLike, x: Optional[ArrayLike] = None, alpha: float = 0.95,
                method: str = "separate") -> TheilslopesResult:
    """``theilslopes`` of 1-d samples."""
    if method not in ("joint", "separate"):
        raise ValueError(f"theilslopes: method must be 'joint' or 'separate', got {method!r}")
    y, x, xv = _line("theilslopes", y, x)
    first, second = np.nonzero(xv[:, None] - xv[None, :] > 0)  # (the pairs, by x's values)
    slopes = fnp.sort((fnp.take(y, first) - fnp.take(y, second))
                      / (fnp.take(x, first) - fnp.take(x, second)))
    if first.size == 0:
        raise ValueError("theilslopes: all x values are identical: no pair of points has a "
                         "slope")
    slope = fnp.median(slopes)
    if method == "joint":
        intercept = fnp.median(y - slope * x)
    else:
        intercept = fnp.median(y) - slope * fnp.median(x)
    alpha = 1.0 - alpha if alpha > 0.5 else alpha
    z = float(sp.ndtri(alpha / 2.0))
    pairs, n = first.size, y.shape[0]
    yv = concrete_values(y, "theilslopes", "the confidence interval counts y's ties: call "
                                           "it outside vmap/jit")
    sigma = math.sqrt((n * (n - 1) * (2 * n + 5)
                       - sum(k * (k - 1) * (2 * k + 5) for k in _repeats(xv))
                       - sum(k * (k - 1) * (2 * k + 5) for k in _repeats(yv))) / 18.0)
    upper = min(int(np.round((pairs - z * sigma) / 2.0)), pairs - 1)
    lower = max(int(np.round((pairs + z * sigma) / 2.0)) - 1, 0)
    return TheilslopesResult(slope, intercept, slopes[lower], slopes[upper])


def theilslopes(y: ArrayLike, x: Optional[ArrayLike] = None, alpha: float = 0.95,
                method: str = "separate", *,
                axis: Optional[int] = None, nan_policy: str = "propagate",
                keepdims: bool = False) -> TheilslopesResult:
    """The Theil-Sen line: the median of the slopes of every pair of points (with
    different ``x``), the intercept (``'separate'``: ``median(y) - slope median(x)``;
    ``'joint'``: ``median(y - slope x)``) and the ``alpha`` confidence interval of the
    slope (Sen's), as ``scipy.stats.theilslopes``; differentiable in ``y`` and ``x``
    (the slope is the median pair's).
    ``axis`` (None: the samples raveled), ``nan_policy`` ('propagate', 'omit' or
    'raise') and ``keepdims``: SciPy's, one statistic per slice along ``axis``.

    >>> import numpy as np
    >>> res = theilslopes(np.array([1.0, 2.0, 3.0, 10.0]))
    >>> float(res.slope), float(res.intercept), float(res.low_slope), float(res.high_slope)
    (2.0, -0.5, 1.0, 7.0)
    """
    return along_axis("theilslopes", lambda y, x: _theilslopes_1d(y, x, alpha, method),
                      (y, x,), axis, nan_policy, keepdims, True)


def _siegelslopes_1d(y: ArrayLike, x: Optional[ArrayLike] = None,
                 method: str = "hierarchical") -> SiegelslopesResult:
    """``siegelslopes`` of 1-d samples."""
    if method not in ("hierarchical", "separate"):
        raise ValueError(f"siegelslopes: method must be 'hierarchical' or 'separate', got "
                         f"{method!r}")
    y, x, xv = _line("siegelslopes", y, x)
    slopes, intercepts = [], []
    for j in range(y.shape[0]):
        others = np.nonzero(xv - xv[j])[0]
        if others.size == 0:
            raise ValueError("siegelslopes: all x values are identical: no pair of points "
                             "has a slope")
        dx = x[j] - fnp.take(x, others)
        slopes.append(fnp.median((y[j] - fnp.take(y, others)) / dx))
        if method == "separate":
            z = fnp.take(y, others) * x[j] - y[j] * fnp.take(x, others)
            intercepts.append(fnp.median(z / dx))
    slope = fnp.median(fnp.stack(slopes))
    if method == "separate":
        return SiegelslopesResult(slope, fnp.median(fnp.stack(intercepts)))
    return SiegelslopesResult(slope, fnp.median(y - slope * x))


def siegelslopes(y: ArrayLike, x: Optional[ArrayLike] = None,
                 method: str = "hierarchical", *,
                 axis: Optional[int] = None, nan_policy: str = "propagate",
                 keepdims: bool = False) -> SiegelslopesResult:
    """Siegel's repeated-medians line: the median over the points of the median slope
    from each point to the others (with different ``x``); the intercept
    ``median(y - slope x)`` (``'hierarchical'``) or the median over the points of the
    median intercepts (``'separate'``), as ``scipy.stats.siegelslopes``; differentiable
    in ``y`` and ``x``.
    ``axis`` (None: the samples raveled), ``nan_policy`` ('propagate', 'omit' or
    'raise') and ``keepdims``: SciPy's, one statistic per slice along ``axis``.

    >>> import numpy as np
    >>> res = siegelslopes(np.array([1.0, 2.0, 3.0, 10.0]))
    >>> float(res.slope), float(res.intercept)
    (1.0, 1.0)
    """
    return along_axis("siegelslopes", lambda y, x: _siegelslopes_1d(y, x, method),
                      (y, x,), axis, nan_policy, keepdims, True)
