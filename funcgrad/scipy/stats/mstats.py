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
from ...typing import ArrayLike
from .. import _statsmisc_masked as _twin
from .._stats_functions import sem as _sem
from .._stats_summary import (gmean as _gmean, hmean as _hmean, kurtosis as _kurtosis,
                              moment as _moment, skew as _skew, variation as _variation,
                              zscore as _zscore)
from .._statsmisc_masked import scipy_mstats as _scipy, traced as _traced
from .._statsmisc_mstats_tests import (f_oneway, kendalltau, kruskal,  # noqa: F401
                                       kurtosistest, linregress, mannwhitneyu, normaltest,
                                       pearsonr, plotting_positions, rankdata,
                                       siegelslopes, skewtest, spearmanr, theilslopes,
                                       ttest_1samp, ttest_ind, ttest_rel)
from .._statstests_summary import (describe as _describe, tmax as _tmax, tmean as _tmean,
                                   tmin as _tmin, tsem as _tsem, tvar as _tvar)
from .._statstests_summary import zmap as _zmap
from .._marest_mstats import (argstoarray, brunnermunzel, chisquare,  # noqa: F401
                              compare_medians_ms, count_tied_groups, find_repeats,
                              friedmanchisquare, hdquantiles_sd, kendalltau_seasonal,
                              kruskalwallis, ks_1samp, ks_2samp, ks_twosamp, kstest,
                              median_cihs, meppf, mjci, mode, mquantiles_cimj, msign,
                              obrientransform, pointbiserialr, rsh, trim, trimmed_mean_ci,
                              trimmed_stde, ttest_onesamp)

__all__ = ["gmean", "hmean", "describe", "skew", "kurtosis", "moment", "variation", "sem",
           "zscore", "tmean", "tvar", "tmin", "tmax", "tsem", "pearsonr", "linregress",
           "ttest_1samp", "ttest_ind", "ttest_rel", "trimmed_mean", "trimmed_var",
           "trimmed_std", "winsorize", "mquantiles", "hdquantiles", "hdmedian",
           "idealfourths", "sen_seasonal_slopes", "rankdata", "spearmanr", "kendalltau",
           "zmap", "f_oneway", "skewtest", "kurtosistest", "normaltest", "kruskal",
           "mannwhitneyu", "theilslopes", "siegelslopes", "scoreatpercentile",
           "plotting_positions", "trimr", "trima", "trimboth", "trimtail",
           # the rest of SciPy's mstats (session 24, marest)
           "mode", "chisquare", "ks_1samp", "ks_2samp", "ks_twosamp", "kstest",
           "pointbiserialr", "brunnermunzel", "friedmanchisquare", "kruskalwallis",
           "ttest_onesamp", "meppf", "trimmed_stde", "trimmed_mean_ci", "median_cihs", "mjci",
           "mquantiles_cimj", "hdquantiles_sd", "compare_medians_ms", "rsh",
           "kendalltau_seasonal", "find_repeats", "count_tied_groups", "argstoarray",
           "msign", "obrientransform", "trim"]


def gmean(a: ArrayLike, axis: Optional[int] = 0, dtype: Any = None,
          weights: Optional[ArrayLike] = None, *, nan_policy: str = "propagate",
          keepdims: bool = False) -> Any:
    """The geometric mean of the unmasked values, as ``scipy.stats.mstats.gmean``
    (``nan_policy`` and ``keepdims`` as SciPy's).

    >>> import numpy as np
    >>> float(gmean(np.ma.masked_array([1.0, 4.0, 7.0], mask=[0, 0, 1])))
    2.0
    """
    if _traced(a, weights):
        return _gmean(a, axis=axis, dtype=dtype, weights=weights, nan_policy=nan_policy,
                      keepdims=keepdims)
    return _scipy("gmean", a, axis=axis, dtype=dtype, weights=weights, nan_policy=nan_policy,
                  keepdims=keepdims)


def hmean(a: ArrayLike, axis: Optional[int] = 0, dtype: Any = None, *,
          weights: Optional[ArrayLike] = None, nan_policy: str = "propagate",
          keepdims: bool = False) -> Any:
    """The harmonic mean of the unmasked values, as ``scipy.stats.mstats.hmean``
    (``nan_policy`` and ``keepdims`` as SciPy's).

    >>> import numpy as np
    >>> float(hmean(np.ma.masked_array([1.0, 2.0, 4.0, 9.0], mask=[0, 1, 0, 1])))
    1.6
    """
    if _traced(a, weights):
        return _hmean(a, axis=axis, dtype=dtype, weights=weights, nan_policy=nan_policy,
                      keepdims=keepdims)
    return _scipy("hmean", a, axis=axis, dtype=dtype, weights=weights, nan_policy=nan_policy,
                  keepdims=keepdims)


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


def zscore(a: ArrayLike, axis: Optional[int] = 0, ddof: int = 0,
           nan_policy: str = "propagate") -> Any:
    """Each value's distance from the mean of the unmasked values in standard deviations,
    as ``scipy.stats.mstats.zscore`` (``nan_policy`` as SciPy's).

    >>> import numpy as np
    >>> zscore(np.ma.masked_array([1.0, 3.0, 70.0], mask=[0, 0, 1]))
    masked_array(data=[-1.0, 1.0, --],
                 mask=[False, False,  True],
           fill_value=1e+20)
    """
    if _traced(a):
        return _zscore(a, axis=axis, ddof=ddof, nan_policy=nan_policy)
    return _scipy("zscore", a, axis, ddof, nan_policy)


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


def zmap(scores: ArrayLike, compare: ArrayLike, axis: Optional[int] = 0,
         ddof: int = 0, nan_policy: str = "propagate") -> Any:
    """``scores``' distances from the mean of ``compare``'s unmasked values in its
    standard deviations, as ``scipy.stats.mstats.zmap`` (``nan_policy`` as SciPy's).

    >>> import numpy as np
    >>> zmap(np.array([2.0, 4.0]), np.ma.masked_array([1.0, 3.0, 70.0], mask=[0, 0, 1]))
    masked_array(data=[0.0, 2.0],
                 mask=[False, False],
           fill_value=1e+20)
    """
    if _traced(scores, compare):
        return _zmap(scores, compare, axis=axis, ddof=ddof, nan_policy=nan_policy)
    return _scipy("zmap", scores, compare, axis=axis, ddof=ddof, nan_policy=nan_policy)


def scoreatpercentile(data: ArrayLike, per: float, limit: Any = (), alphap: float = 0.4,
                      betap: float = 0.4) -> Any:
    """The ``per``-th percentile of the unmasked values by :func:`mquantiles`'s rule (along
    the first axis), as ``scipy.stats.mstats.scoreatpercentile``.

    >>> import numpy as np
    >>> float(scoreatpercentile(np.array([6.0, 47, 49, 15, 42, 41, 7, 39, 43, 40, 36]), 50))
    40.0
    """
    if not _traced(data):
        return _scipy("scoreatpercentile", data, per, limit, alphap, betap)
    if not 0 <= per <= 100:
        raise ValueError(f"The percentile should be between 0. and 100. ! (got {per})")
    return fnp.squeeze(mquantiles(data, prob=[per / 100.0], alphap=alphap, betap=betap,
                                  limit=limit, axis=0))


def _masks_only(name, a):
    if _traced(a):
        raise TypeError(f"mstats.{name}: the result is the data with values masked, and "
                        f"traced data cannot carry a mask; use mstats.trimmed_mean / "
                        f"trimmed_var, or funcgrad.scipy.stats.trimboth (which drops them)")


def trimr(a: ArrayLike, limits: Any = None, inclusive: Any = (True, True),
          axis: Optional[int] = None) -> Any:
    """The data with the proportions ``limits`` of the smallest and largest unmasked
    values masked, as ``scipy.stats.mstats.trimr`` (a masked array: values only).

    >>> import numpy as np
    >>> trimr(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), (0.2, 0.2)).count()
    np.int64(3)
    """
    _masks_only("trimr", a)
    return _scipy("trimr", a, limits, inclusive, axis)


def trima(a: ArrayLike, limits: Any = None, inclusive: Any = (True, True)) -> Any:
    """The data with the values outside ``limits`` masked, as
    ``scipy.stats.mstats.trima`` (a masked array: values only).

    >>> import numpy as np
    >>> trima(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), (2.0, 10.0)).count()
    np.int64(3)
    """
    _masks_only("trima", a)
    return _scipy("trima", a, limits, inclusive)


def trimboth(data: ArrayLike, proportiontocut: float = 0.2, inclusive: Any = (True, True),
             axis: Optional[int] = None) -> Any:
    """The data with the proportion ``proportiontocut`` masked at each end, as
    ``scipy.stats.mstats.trimboth`` (a masked array: values only).

    >>> import numpy as np
    >>> trimboth(np.array([1.0, 2.0, 3.0, 4.0, 100.0])).count()
    np.int64(3)
    """
    _masks_only("trimboth", data)
    return _scipy("trimboth", data, proportiontocut, inclusive, axis)


def trimtail(data: ArrayLike, proportiontocut: float = 0.2, tail: str = "left",
             inclusive: Any = (True, True), axis: Optional[int] = None) -> Any:
    """The data with the proportion ``proportiontocut`` masked at one ``tail``, as
    ``scipy.stats.mstats.trimtail`` (a masked array: values only).

    >>> import numpy as np
    >>> trimtail(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), tail="right").count()
    np.int64(4)
    """
    _masks_only("trimtail", data)
    return _scipy("trimtail", data, proportiontocut, tail, inclusive, axis)
