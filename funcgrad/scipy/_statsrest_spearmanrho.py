"""``spearmanrho`` (re-exported by :mod:`funcgrad.scipy.stats`): SciPy 1.17's Spearman
correlation test, Pearson's test of the ranks, with standard broadcasting, ``axis``,
``nan_policy``, ``keepdims`` and ``method`` (SciPy's permutation and Monte Carlo tests).

Its values are SciPy's (imported on the first call; concrete values only, so not under
``jit`` or ``vmap``).  The ranks are a step function of the data, so the statistic and
the p-value have derivative zero almost everywhere (none where two values tie): as
:func:`funcgrad.scipy.stats.spearmanr` (:mod:`._correlation`), differentiating them gives
that zero, on purpose (the ranks are constants); for a differentiable surrogate,
correlate soft ranks with :func:`funcgrad.scipy.stats.pearsonr`.
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..lax import stop_gradient
from ..numpy._convert import concrete_values
from ..typing import ArrayLike
from ._correlation import SignificanceResult

__all__ = ["spearmanrho"]


def spearmanrho(x: ArrayLike, y: ArrayLike, /, *, alternative: str = "two-sided",
                method: Optional[Any] = None, axis: Optional[int] = 0,
                nan_policy: str = "propagate", keepdims: bool = False) -> SignificanceResult:
    """Spearman's rank correlation coefficient of ``x`` and ``y`` along ``axis`` and the
    p-value of no correlation, SciPy 1.17's ``scipy.stats.spearmanrho`` (its signature,
    values and result); the derivative in the data is zero (the ranks are step
    functions of it), as ``spearmanr``'s.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 3.0, 4.0, 5.0]), np.array([5.0, 6.0, 7.0, 8.0, 7.0])
    >>> res = spearmanrho(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (0.820782681668, 0.088587005314)
    >>> fg.grad(lambda v: spearmanrho(v, y).statistic)(x)
    array([0., 0., 0., 0., 0.])
    """
    from scipy import stats
    what = "spearmanrho (SciPy's values)"
    fix = "call it outside jit and vmap"
    # (the data's derivative is dropped on purpose: the ranks are constants a.e.)
    xs = concrete_values(stop_gradient(fnp.asarray(x)), what, fix)
    ys = concrete_values(stop_gradient(fnp.asarray(y)), what, fix)
    res = stats.spearmanrho(xs, ys, alternative=alternative, method=method, axis=axis,
                            nan_policy=nan_policy, keepdims=keepdims)
    statistic, pvalue = (fnp.asarray(np.asarray(v)) for v in (res.statistic, res.pvalue))
    return SignificanceResult(statistic, pvalue)
