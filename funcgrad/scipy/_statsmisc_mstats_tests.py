"""The tests, correlations and regressions of :mod:`funcgrad.scipy.stats.mstats`
(re-exported there; see its notes): masked and plain arrays go to SciPy's
``scipy.stats.mstats``; traced data to funcgrad's differentiable twins
(``pearsonr``, ``linregress``, the t tests, ``f_oneway``, the normality tests, the
Theil-Sen and Siegel lines) or, for the rank statistics, to SciPy on the values (zero
derivative).
"""
from typing import Any, Optional

from .. import numpy as fnp
from ..typing import ArrayLike
from ._correlation import pearsonr as _pearsonr
from ._statshyp_ranks import _plain
from ._statsmisc_masked import scipy_mstats as _scipy, traced as _traced
from ._statstests_regress import linregress as _linregress
from ._statstests_regress import siegelslopes as _siegelslopes
from ._statstests_regress import theilslopes as _theilslopes
from ._statstests_tests import (f_oneway as _f_oneway, kurtosistest as _kurtosistest,
                                normaltest as _normaltest, skewtest as _skewtest,
                                ttest_1samp as _ttest_1samp, ttest_ind as _ttest_ind,
                                ttest_rel as _ttest_rel)

__all__ = ["pearsonr", "linregress", "ttest_1samp", "ttest_ind", "ttest_rel", "rankdata",
           "spearmanr", "kendalltau", "f_oneway", "skewtest", "kurtosistest", "normaltest",
           "kruskal", "mannwhitneyu", "theilslopes", "siegelslopes", "plotting_positions"]


def pearsonr(x: ArrayLike, y: ArrayLike) -> Any:
    """Pearson's correlation of the pairs where neither value is masked, and its p-value,
    as ``scipy.stats.mstats.pearsonr``.

    >>> import numpy as np
    >>> x = np.ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[0, 0, 0, 1])
    >>> round(float(pearsonr(x, np.array([1.0, 3.0, 2.0, 9.0])).statistic), 12)
    0.5
    """
    return _pearsonr(x, y) if _traced(x, y) else _scipy("pearsonr", x, y)


def linregress(x: ArrayLike, y: Optional[ArrayLike] = None) -> Any:
    """The least-squares line through the pairs where neither value is masked, as
    ``scipy.stats.mstats.linregress``.

    >>> import numpy as np
    >>> x = np.ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[0, 0, 0, 1])
    >>> float(linregress(x, np.array([1.0, 3.0, 5.0, 0.0])).slope)
    2.0
    """
    if not _traced(x, y):
        return _scipy("linregress", x, y)
    if y is None:  # (SciPy's: the two variables as the rows, or columns, of x)
        pair = fnp.asarray(x)
        if pair.ndim != 2 or 2 not in pair.shape:
            raise ValueError(f"mstats.linregress: with y None, x must have two rows or two "
                             f"columns, got shape {tuple(pair.shape)}")
        x, y = (pair[0], pair[1]) if pair.shape[0] == 2 else (pair[:, 0], pair[:, 1])
    return _linregress(x, y)


def ttest_1samp(a: ArrayLike, popmean: ArrayLike, axis: Optional[int] = 0,
                alternative: str = "two-sided") -> Any:
    """Student's t test that the unmasked values' mean is ``popmean``, as
    ``scipy.stats.mstats.ttest_1samp``.

    >>> import numpy as np
    >>> float(ttest_1samp(np.ma.masked_array([1.0, 3.0, 9.0], mask=[0, 0, 1]), 0.0).statistic)
    2.0
    """
    if _traced(a, popmean):
        return _ttest_1samp(a, popmean, axis=axis, alternative=alternative)
    return _scipy("ttest_1samp", a, popmean, axis=axis, alternative=alternative)


def ttest_ind(a: ArrayLike, b: ArrayLike, axis: Optional[int] = 0, equal_var: bool = True,
              alternative: str = "two-sided") -> Any:
    """Student's (or Welch's) t test of two independent samples' unmasked values, as
    ``scipy.stats.mstats.ttest_ind``.

    >>> import numpy as np
    >>> res = ttest_ind(np.ma.masked_array([1.0, 3.0, 9.0], mask=[0, 0, 1]), [2.0, 4.0])
    >>> round(float(res.statistic), 12)
    -0.707106781187
    """
    if _traced(a, b):
        return _ttest_ind(a, b, axis=axis, equal_var=equal_var, alternative=alternative)
    return _scipy("ttest_ind", a, b, axis=axis, equal_var=equal_var, alternative=alternative)


def ttest_rel(a: ArrayLike, b: ArrayLike, axis: Optional[int] = 0,
              alternative: str = "two-sided") -> Any:
    """Student's t test of paired samples (pairs where neither is masked), as
    ``scipy.stats.mstats.ttest_rel``.

    >>> import numpy as np
    >>> res = ttest_rel(np.ma.masked_array([1.0, 3.0, 5.0, 0.0], mask=[0, 0, 0, 1]),
    ...                 np.array([0.0, 1.0, 2.0, 7.0]))
    >>> round(float(res.statistic), 12)
    3.464101615138
    """
    if _traced(a, b):
        return _ttest_rel(a, b, axis=axis, alternative=alternative)
    return _scipy("ttest_rel", a, b, axis=axis, alternative=alternative)


def rankdata(data: ArrayLike, axis: Optional[int] = None, use_missing: bool = False) -> Any:
    """The ranks of the unmasked values (masked ones rank 0, or the average rank with
    ``use_missing``), as ``scipy.stats.mstats.rankdata``.  A step function: SciPy's
    values on the data's values (zero derivative).

    >>> import numpy as np
    >>> rankdata(np.ma.masked_array([3.0, 1.0, 2.0, 9.0], mask=[0, 0, 0, 1]))
    array([3., 1., 2., 0.])
    """
    return _scipy("rankdata", _plain(data, "mstats.rankdata"), axis, use_missing)


def spearmanr(x: ArrayLike, y: Optional[ArrayLike] = None, use_ties: bool = True,
              axis: Optional[int] = None, nan_policy: str = "propagate",
              alternative: str = "two-sided") -> Any:
    """Spearman's rank correlation of the pairs where neither value is masked, as
    ``scipy.stats.mstats.spearmanr``.  A function of ranks: SciPy's values (zero
    derivative).

    >>> import numpy as np
    >>> x = np.ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[0, 0, 0, 1])
    >>> float(spearmanr(x, np.array([1.0, 3.0, 2.0, 0.0])).statistic)
    0.5
    """
    return _scipy("spearmanr", _plain(x, "mstats.spearmanr"), _plain(y, "mstats.spearmanr"),
                  use_ties, axis, nan_policy, alternative)


def kendalltau(x: ArrayLike, y: ArrayLike, use_ties: bool = True, use_missing: bool = False,
               method: str = "auto", alternative: str = "two-sided") -> Any:
    """Kendall's tau of the pairs where neither value is masked, as
    ``scipy.stats.mstats.kendalltau``.  A function of ranks: SciPy's values (zero
    derivative).

    >>> import numpy as np
    >>> x = np.ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[0, 0, 0, 1])
    >>> round(float(kendalltau(x, np.array([1.0, 3.0, 2.0, 0.0])).statistic), 12)
    0.333333333333
    """
    return _scipy("kendalltau", _plain(x, "mstats.kendalltau"),
                  _plain(y, "mstats.kendalltau"), use_ties, use_missing, method, alternative)


def f_oneway(*args: ArrayLike) -> Any:
    """One-way analysis of variance of the samples' unmasked values, as
    ``scipy.stats.mstats.f_oneway``.

    >>> import numpy as np
    >>> res = f_oneway(np.array([1.0, 2.0, 3.0]), np.ma.masked_array([3.0, 4.0, 5.0, 0.0],
    ...                                                               mask=[0, 0, 0, 1]))
    >>> float(res.statistic)
    6.0
    """
    return _f_oneway(*args) if _traced(*args) else _scipy("f_oneway", *args)


def skewtest(a: ArrayLike, axis: Optional[int] = 0, alternative: str = "two-sided") -> Any:
    """D'Agostino's test that the unmasked values' skewness is that of a normal
    distribution, as ``scipy.stats.mstats.skewtest``.

    >>> import numpy as np
    >>> res = skewtest(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 30.0]))
    >>> round(float(res.statistic), 6)
    3.287057
    """
    if _traced(a):
        return _skewtest(a, axis=axis, alternative=alternative)
    return _scipy("skewtest", a, axis, alternative)


def kurtosistest(a: ArrayLike, axis: Optional[int] = 0, alternative: str = "two-sided") -> Any:
    """Anscombe and Glynn's test that the unmasked values' kurtosis is that of a normal
    distribution, as ``scipy.stats.mstats.kurtosistest``.

    >>> import numpy as np
    >>> res = kurtosistest(np.arange(20.0) ** 2)
    >>> round(float(res.statistic), 6)
    -0.747186
    """
    if _traced(a):
        return _kurtosistest(a, axis=axis, alternative=alternative)
    return _scipy("kurtosistest", a, axis, alternative)


def normaltest(a: ArrayLike, axis: Optional[int] = 0) -> Any:
    """D'Agostino and Pearson's test of normality of the unmasked values (skewness and
    kurtosis together), as ``scipy.stats.mstats.normaltest``.

    >>> import numpy as np
    >>> res = normaltest(np.arange(20.0) ** 2)
    >>> round(float(res.statistic), 6)
    2.596514
    """
    return _normaltest(a, axis=axis) if _traced(a) else _scipy("normaltest", a, axis)


def kruskal(*args: ArrayLike) -> Any:
    """The Kruskal-Wallis H test of the samples' unmasked values, as
    ``scipy.stats.mstats.kruskal``.  A function of ranks: SciPy's values (zero
    derivative).

    >>> import numpy as np
    >>> res = kruskal(np.array([1.0, 3.0, 5.0]), np.array([2.0, 4.0, 6.0, 8.0]))
    >>> round(float(res.statistic), 6)
    1.125
    """
    return _scipy("kruskal", *[_plain(a, "mstats.kruskal") for a in args])


def mannwhitneyu(x: ArrayLike, y: ArrayLike, use_continuity: bool = True) -> Any:
    """The Mann-Whitney U test of two samples' unmasked values (normal approximation),
    as ``scipy.stats.mstats.mannwhitneyu``.  A function of ranks: SciPy's values (zero
    derivative).

    >>> import numpy as np
    >>> res = mannwhitneyu(np.array([1.0, 3.0, 5.0]), np.array([2.0, 4.0, 6.0, 8.0]))
    >>> float(res.statistic)
    3.0
    """
    return _scipy("mannwhitneyu", _plain(x, "mstats.mannwhitneyu"),
                  _plain(y, "mstats.mannwhitneyu"), use_continuity)


def theilslopes(y: ArrayLike, x: Optional[ArrayLike] = None, alpha: float = 0.95,
                method: str = "separate") -> Any:
    """The Theil-Sen line (the median of the pairwise slopes) through the pairs where
    neither value is masked, with its confidence interval, as
    ``scipy.stats.mstats.theilslopes``.

    >>> import numpy as np
    >>> y = np.ma.masked_array([1.0, 2.0, 3.5, 4.0, 99.0], mask=[0, 0, 0, 0, 1])
    >>> float(theilslopes(y).slope)
    1.0
    """
    if _traced(y, x):
        return _theilslopes(fnp.ravel(y), None if x is None else fnp.ravel(x), alpha, method)
    return _scipy("theilslopes", y, x, alpha, method)


def siegelslopes(y: ArrayLike, x: Optional[ArrayLike] = None,
                 method: str = "hierarchical") -> Any:
    """Siegel's repeated-medians line through the pairs where neither value is masked, as
    ``scipy.stats.mstats.siegelslopes``.

    >>> import numpy as np
    >>> y = np.ma.masked_array([1.0, 2.0, 3.5, 4.0, 99.0], mask=[0, 0, 0, 0, 1])
    >>> float(siegelslopes(y).slope)
    1.0
    """
    if _traced(y, x):
        return _siegelslopes(fnp.ravel(y), None if x is None else fnp.ravel(x), method)
    return _scipy("siegelslopes", y, x, method)


def plotting_positions(data: ArrayLike, alpha: float = 0.4, beta: float = 0.4) -> Any:
    """The plotting positions ``(rank - alpha) / (n + 1 - alpha - beta)`` of the unmasked
    values, as ``scipy.stats.mstats.plotting_positions``.  Functions of the ranks: SciPy's
    values (zero derivative).

    >>> import numpy as np
    >>> np.round(plotting_positions(np.array([3.0, 1.0, 2.0])), 4).tolist()
    [0.8125, 0.1875, 0.5]
    """
    return _scipy("plotting_positions", _plain(data, "mstats.plotting_positions"), alpha, beta)
