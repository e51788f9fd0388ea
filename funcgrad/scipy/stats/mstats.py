"""``funcgrad.scipy.stats.mstats``: SciPy's statistics of masked arrays.

NumPy masked arrays (``np.ma.MaskedArray``) and plain arrays are computed by SciPy's own
``scipy.stats.mstats`` (loaded on the first call), on the unmasked values, with SciPy's
results: masked arrays where SciPy returns them.  A masked array cannot hold values that
carry a derivative, so traced data come as plain arrays (every value counts); there each
function computes with its differentiable twin in funcgrad (:mod:`funcgrad.scipy.stats`'s
``gmean``, ``describe``, ``pearsonr``... and the trimmed, winsorized and quantile
statistics of :mod:`.._statsmisc_masked`), with the same values, returning plain arrays.
``rankdata``, ``spearmanr`` and ``kendalltau`` are functions of ranks: SciPy's values on
the data's values, zero derivative.

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.scipy.stats import mstats
>>> x = np.ma.masked_array([1.0, 2.0, 4.0, 100.0], mask=[0, 0, 0, 1])
>>> float(mstats.gmean(x))
2.0
>>> g = fg.grad(lambda v: mstats.trimmed_mean(v, limits=(0.2, 0.2)))(np.arange(10.0))
"""
from typing import Any, Optional, Sequence

import numpy as np

from ... import numpy as fnp
from ...core import Tracer
from ...typing import ArrayLike
from .. import _statsmisc_masked as _twin
from .._correlation import pearsonr as _pearsonr
from .._stats_functions import sem as _sem
from .._stats_summary import (gmean as _gmean, hmean as _hmean, kurtosis as _kurtosis,
                              moment as _moment, skew as _skew, variation as _variation,
                              zscore as _zscore)
from .._statshyp_ranks import _plain
from .._statstests_regress import linregress as _linregress
from .._statstests_summary import (describe as _describe, tmax as _tmax, tmean as _tmean,
                                   tmin as _tmin, tsem as _tsem, tvar as _tvar)
from .._statstests_tests import ttest_1samp as _ttest_1samp, ttest_ind as _ttest_ind
from .._statstests_tests import (f_oneway as _f_oneway, kurtosistest as _kurtosistest,
                                 normaltest as _normaltest, skewtest as _skewtest,
                                 ttest_rel as _ttest_rel)
from .._statstests_summary import zmap as _zmap

__all__ = ["gmean", "hmean", "describe", "skew", "kurtosis", "moment", "variation", "sem",
           "zscore", "tmean", "tvar", "tmin", "tmax", "tsem", "pearsonr", "linregress",
           "ttest_1samp", "ttest_ind", "ttest_rel", "trimmed_mean", "trimmed_var",
           "trimmed_std", "winsorize", "mquantiles", "hdquantiles", "hdmedian",
           "idealfourths", "sen_seasonal_slopes", "rankdata", "spearmanr", "kendalltau",
           "zmap", "f_oneway", "skewtest", "kurtosistest", "normaltest", "kruskal",
           "mannwhitneyu"]


def _traced(*values):
    return any(isinstance(v, Tracer) or (isinstance(v, (list, tuple)) and _traced(*v))
               for v in values)


def _scipy(name, *args, **kwargs):
    from scipy.stats import mstats
    return getattr(mstats, name)(*args, **kwargs)


def gmean(a: ArrayLike, axis: Optional[int] = 0, dtype: Any = None,
          weights: Optional[ArrayLike] = None) -> Any:
    """The geometric mean of the unmasked values, as ``scipy.stats.mstats.gmean``.

    >>> import numpy as np
    >>> float(gmean(np.ma.masked_array([1.0, 4.0, 7.0], mask=[0, 0, 1])))
    2.0
    """
    if _traced(a, weights):
        return _gmean(a, axis=axis, dtype=dtype, weights=weights)
    return _scipy("gmean", a, axis=axis, dtype=dtype, weights=weights)


def hmean(a: ArrayLike, axis: Optional[int] = 0, dtype: Any = None, *,
          weights: Optional[ArrayLike] = None) -> Any:
    """The harmonic mean of the unmasked values, as ``scipy.stats.mstats.hmean``.

    >>> import numpy as np
    >>> float(hmean(np.ma.masked_array([1.0, 2.0, 4.0, 9.0], mask=[0, 1, 0, 1])))
    1.6
    """
    if _traced(a, weights):
        return _hmean(a, axis=axis, dtype=dtype, weights=weights)
    return _scipy("hmean", a, axis=axis, dtype=dtype, weights=weights)


def describe(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 0, bias: bool = True) -> Any:
    """Count, extremes, mean, variance (``ddof``), skewness and kurtosis of the unmasked
    values, as ``scipy.stats.mstats.describe`` (note its ``ddof=0``).

    >>> import numpy as np
    >>> res = describe(np.ma.masked_array([1.0, 2.0, 3.0, 99.0], mask=[0, 0, 0, 1]))
    >>> int(res.nobs), float(res.mean), float(res.variance)
    (3, 2.0, 0.6666666666666666)
    """
    if _traced(a):
        return _describe(a, axis=axis, ddof=ddof, bias=bias)
    return _scipy("describe", a, axis=axis, ddof=ddof, bias=bias)


def skew(a: ArrayLike, axis: Optional[int] = 0, bias: bool = True) -> Any:
    """The skewness of the unmasked values, as ``scipy.stats.mstats.skew``.

    >>> import numpy as np
    >>> round(float(skew(np.ma.masked_array([1.0, 2.0, 5.0, 0.0], mask=[0, 0, 0, 1]))), 6)
    0.528005
    """
    return _skew(a, axis=axis, bias=bias) if _traced(a) else _scipy("skew", a, axis, bias)


def kurtosis(a: ArrayLike, axis: Optional[int] = 0, fisher: bool = True,
             bias: bool = True) -> Any:
    """The kurtosis of the unmasked values, as ``scipy.stats.mstats.kurtosis``.

    >>> import numpy as np
    >>> float(kurtosis(np.ma.masked_array([1.0, 2.0, 3.0, 4.0, 9.0], mask=[0, 0, 0, 0, 1])))
    -1.36
    """
    if _traced(a):
        return _kurtosis(a, axis=axis, fisher=fisher, bias=bias)
    return _scipy("kurtosis", a, axis=axis, fisher=fisher, bias=bias)


def moment(a: ArrayLike, moment: int = 1, axis: Optional[int] = 0) -> Any:
    """The ``moment``-th central moment of the unmasked values, as
    ``scipy.stats.mstats.moment``.

    >>> import numpy as np
    >>> float(moment(np.ma.masked_array([1.0, 2.0, 3.0, 50.0], mask=[0, 0, 0, 1]), 2))
    0.6666666666666666
    """
    if _traced(a):
        return _moment(a, order=moment, axis=axis)
    return _scipy("moment", a, moment=moment, axis=axis)


def variation(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 0) -> Any:
    """The coefficient of variation of the unmasked values, as
    ``scipy.stats.mstats.variation``.

    >>> import numpy as np
    >>> float(variation(np.ma.masked_array([1.0, 3.0, 7.0], mask=[0, 0, 1])))
    0.5
    """
    if _traced(a):
        return _variation(a, axis=axis, ddof=ddof)
    return _scipy("variation", a, axis=axis, ddof=ddof)


def sem(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 1) -> Any:
    """The standard error of the mean of the unmasked values, as
    ``scipy.stats.mstats.sem``.

    >>> import numpy as np
    >>> float(sem(np.ma.masked_array([1.0, 3.0, 70.0], mask=[0, 0, 1])))
    1.0
    """
    return _sem(a, axis=axis, ddof=ddof) if _traced(a) else _scipy("sem", a, axis, ddof)


def zscore(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 0) -> Any:
    """Each value's distance from the mean of the unmasked values in standard deviations,
    as ``scipy.stats.mstats.zscore``.

    >>> import numpy as np
    >>> zscore(np.ma.masked_array([1.0, 3.0, 70.0], mask=[0, 0, 1]))
    masked_array(data=[-1.0, 1.0, --],
                 mask=[False, False,  True],
           fill_value=1e+20)
    """
    return _zscore(a, axis=axis, ddof=ddof) if _traced(a) else _scipy("zscore", a, axis, ddof)


def tmean(a: ArrayLike, limits: Optional[Sequence[Any]] = None,
          inclusive: Sequence[bool] = (True, True), axis: Optional[int] = None) -> Any:
    """The mean of the unmasked values within ``limits``, as ``scipy.stats.mstats.tmean``.

    >>> import numpy as np
    >>> float(tmean(np.ma.masked_array([1.0, 2.0, 3.0, 50.0], mask=[0, 0, 0, 1]), (0, 2)))
    1.5
    """
    if _traced(a):
        return _tmean(a, limits, inclusive, axis)
    return _scipy("tmean", a, limits, inclusive, axis)


def tvar(a: ArrayLike, limits: Optional[Sequence[Any]] = None,
         inclusive: Sequence[bool] = (True, True), axis: Optional[int] = 0,
         ddof: int = 1) -> Any:
    """The variance of the unmasked values within ``limits``, as
    ``scipy.stats.mstats.tvar``.

    >>> import numpy as np
    >>> float(tvar(np.ma.masked_array([1.0, 2.0, 3.0, 50.0], mask=[0, 0, 0, 1])))
    1.0
    """
    if _traced(a):
        return _tvar(a, limits, inclusive, axis, ddof)
    return _scipy("tvar", a, limits, inclusive, axis, ddof)


def tmin(a: ArrayLike, lowerlimit: Optional[float] = None, axis: Optional[int] = 0,
         inclusive: bool = True) -> Any:
    """The smallest unmasked value at or above ``lowerlimit``, as
    ``scipy.stats.mstats.tmin``.

    >>> import numpy as np
    >>> float(tmin(np.ma.masked_array([1.0, 2.0, 3.0], mask=[1, 0, 0])))
    2.0
    """
    if _traced(a):
        return _tmin(a, lowerlimit, axis, inclusive)
    return _scipy("tmin", a, lowerlimit, axis, inclusive)


def tmax(a: ArrayLike, upperlimit: Optional[float] = None, axis: Optional[int] = 0,
         inclusive: bool = True) -> Any:
    """The largest unmasked value at or below ``upperlimit``, as
    ``scipy.stats.mstats.tmax``.

    >>> import numpy as np
    >>> float(tmax(np.ma.masked_array([1.0, 2.0, 3.0], mask=[0, 0, 1])))
    2.0
    """
    if _traced(a):
        return _tmax(a, upperlimit, axis, inclusive)
    return _scipy("tmax", a, upperlimit, axis, inclusive)


def tsem(a: ArrayLike, limits: Optional[Sequence[Any]] = None,
         inclusive: Sequence[bool] = (True, True), axis: Optional[int] = 0,
         ddof: int = 1) -> Any:
    """The standard error of the mean of the unmasked values within ``limits``, as
    ``scipy.stats.mstats.tsem``.

    >>> import numpy as np
    >>> float(tsem(np.ma.masked_array([1.0, 3.0, 50.0], mask=[0, 0, 1])))
    1.0
    """
    if _traced(a):
        return _tsem(a, limits, inclusive, axis, ddof)
    return _scipy("tsem", a, limits, inclusive, axis, ddof)


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


def trimmed_mean(a: ArrayLike, limits: Any = (0.1, 0.1), inclusive: Any = (1, 1),
                 relative: bool = True, axis: Optional[int] = None) -> Any:
    """The mean after trimming the proportions ``limits`` of the sorted unmasked values
    from each end (``relative=False``: the values outside ``limits``), as
    ``scipy.stats.mstats.trimmed_mean``.

    >>> import numpy as np
    >>> float(trimmed_mean(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), limits=(0.2, 0.2)))
    3.0
    """
    if _traced(a):
        return _twin.trimmed_moments(a, limits, inclusive, relative, axis, 0)[0]
    return _scipy("trimmed_mean", a, limits, inclusive, relative, axis)


def trimmed_var(a: ArrayLike, limits: Any = (0.1, 0.1), inclusive: Any = (1, 1),
                relative: bool = True, axis: Optional[int] = None, ddof: int = 0) -> Any:
    """The variance of the trimmed unmasked values (see :func:`trimmed_mean`), as
    ``scipy.stats.mstats.trimmed_var``.

    >>> import numpy as np
    >>> float(trimmed_var(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), limits=(0.2, 0.2)))
    0.6666666666666666
    """
    if _traced(a):
        return _twin.trimmed_moments(a, limits, inclusive, relative, axis, ddof)[1]
    return _scipy("trimmed_var", a, limits, inclusive, relative, axis, ddof)


def trimmed_std(a: ArrayLike, limits: Any = (0.1, 0.1), inclusive: Any = (1, 1),
                relative: bool = True, axis: Optional[int] = None, ddof: int = 0) -> Any:
    """The standard deviation of the trimmed unmasked values, as
    ``scipy.stats.mstats.trimmed_std``.

    >>> import numpy as np
    >>> float(trimmed_std(np.array([1.0, 2.0, 3.0, 100.0]), limits=(0.0, 0.25), ddof=1))
    1.0
    """
    if _traced(a):
        return fnp.sqrt(_twin.trimmed_moments(a, limits, inclusive, relative, axis, ddof)[1])
    return _scipy("trimmed_std", a, limits, inclusive, relative, axis, ddof)


def winsorize(a: ArrayLike, limits: Any = None, inclusive: Any = (True, True),
              inplace: bool = False, axis: Optional[int] = None,
              nan_policy: str = "propagate") -> Any:
    """The data with the proportions ``limits`` of the smallest and largest values
    replaced by the nearest value kept, as ``scipy.stats.mstats.winsorize`` (a masked
    array; traced data: a plain array, differentiable, ``inplace`` refused).

    >>> import numpy as np
    >>> winsorize(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), limits=(0.2, 0.2))
    masked_array(data=[2., 2., 3., 4., 4.],
                 mask=False,
           fill_value=1e+20)
    """
    if not _traced(a):
        return _scipy("winsorize", a, limits, inclusive, inplace, axis, nan_policy)
    if inplace:
        raise TypeError("mstats.winsorize: inplace=True cannot write into traced data "
                        "(funcgrad arrays are immutable); use the returned array")
    out = _twin.winsorized(a, limits, inclusive, axis)
    return fnp.reshape(out, np.shape(a)) if axis is None else fnp.moveaxis(out, -1, axis)


def _quantile_axis(result, axis, ndim, extra):
    """Where ``ma.apply_along_axis`` would put the ``extra`` quantile axes of a result
    computed with them last: in place of ``axis``."""
    if axis is None or ndim == 1:
        return result
    axis = axis % ndim
    lead = list(range(result.ndim - extra))
    order = lead[:axis] + list(range(result.ndim - extra, result.ndim)) + lead[axis:]
    return fnp.transpose(result, order)


def mquantiles(a: ArrayLike, prob: Any = (0.25, 0.5, 0.75), alphap: float = 0.4,
               betap: float = 0.4, axis: Optional[int] = None, limit: Any = ()) -> Any:
    """Hyndman and Fan's sample quantiles at ``prob`` with plotting positions ``(alphap,
    betap)`` (0.4, 0.4: approximately median-unbiased), as
    ``scipy.stats.mstats.mquantiles``.

    >>> import numpy as np
    >>> mquantiles(np.array([6.0, 47, 49, 15, 42, 41, 7, 39, 43, 40, 36]))
    array([19.2, 40. , 42.8])
    """
    if not _traced(a):
        return _scipy("mquantiles", a, prob, alphap, betap, axis, limit)
    if limit:
        raise TypeError("mstats.mquantiles: limit= masks values and traced data cannot "
                        "carry a mask; drop the values outside the limits first")
    out = _twin.mquantiles(a, prob, alphap, betap, axis)
    return _quantile_axis(out, axis, np.ndim(a), 1)


def hdquantiles(data: ArrayLike, prob: Any = (0.25, 0.5, 0.75), axis: Optional[int] = None,
                var: bool = False) -> Any:
    """Harrell and Davis's quantiles (beta-weighted sums of the order statistics) at
    ``prob``, with their variances as a second row for ``var=True``, as
    ``scipy.stats.mstats.hdquantiles``.

    >>> import numpy as np
    >>> np.round(hdquantiles(np.array([1.0, 2.0, 3.0, 4.0, 10.0]), prob=[0.5]), 6)
    masked_array(data=[3.2896],
                 mask=False,
           fill_value=1e+20)
    """
    if not _traced(data):
        return _scipy("hdquantiles", data, prob, axis, var)
    whole = axis is None or np.ndim(data) == 1
    out = _twin.hdquantiles(data, prob, None if whole else axis, var)
    return _quantile_axis(out, None if whole else axis, np.ndim(data), 2 if var else 1)


def hdmedian(data: ArrayLike, axis: Optional[int] = -1, var: bool = False) -> Any:
    """Harrell and Davis's median (and its variance with ``var``), as
    ``scipy.stats.mstats.hdmedian``.

    >>> import numpy as np
    >>> round(float(hdmedian(np.array([1.0, 2.0, 3.0, 4.0, 10.0]))), 6)
    3.2896
    """
    if not _traced(data):
        return _scipy("hdmedian", data, axis, var)
    return fnp.squeeze(hdquantiles(data, [0.5], axis=axis, var=var))


def idealfourths(data: ArrayLike, axis: Optional[int] = None) -> Any:
    """The ideal fourths (interpolated lower and upper quartiles), as
    ``scipy.stats.mstats.idealfourths``.

    >>> import numpy as np
    >>> np.round(idealfourths(np.arange(12.0)), 6).tolist()
    [2.416667, 8.583333]
    """
    if not _traced(data):
        return _scipy("idealfourths", data, axis)
    out = _twin.idealfourths(data, axis)
    return _quantile_axis(out, axis, np.ndim(data), 1)


def sen_seasonal_slopes(x: ArrayLike) -> Any:
    """Sen's seasonal slopes of ``x`` (years in rows, seasons in columns): each season's
    median slope and the median of all the slopes, as
    ``scipy.stats.mstats.sen_seasonal_slopes``.

    >>> import numpy as np
    >>> res = sen_seasonal_slopes(np.array([[1.0, 2.0], [2.0, 5.0], [4.0, 6.0]]))
    >>> np.asarray(res.intra_slope).tolist(), float(res.inter_slope)
    ([1.5, 2.0], 1.75)
    """
    if not _traced(x):
        return _scipy("sen_seasonal_slopes", x)
    from scipy.stats._mstats_basic import SenSeasonalSlopesResult
    return SenSeasonalSlopesResult(*_twin.seasonal_slopes(x))


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


def zmap(scores: ArrayLike, compare: ArrayLike, axis: Optional[int] = 0,
         ddof: int = 0) -> Any:
    """``scores``' distances from the mean of ``compare``'s unmasked values in its
    standard deviations, as ``scipy.stats.mstats.zmap``.

    >>> import numpy as np
    >>> zmap(np.array([2.0, 4.0]), np.ma.masked_array([1.0, 3.0, 70.0], mask=[0, 0, 1]))
    masked_array(data=[0.0, 2.0],
                 mask=[False, False],
           fill_value=1e+20)
    """
    if _traced(scores, compare):
        return _zmap(scores, compare, axis=axis, ddof=ddof)
    return _scipy("zmap", scores, compare, axis=axis, ddof=ddof)


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
