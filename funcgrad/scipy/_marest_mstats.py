"""The rest of :mod:`funcgrad.scipy.stats.mstats` (re-exported there): ``mode``, the
Kolmogorov-Smirnov tests, ``chisquare``, ``pointbiserialr``, ``brunnermunzel``,
``friedmanchisquare``, SciPy's aliases, and the confidence-interval and tie helpers.

As in the rest of the module: NumPy masked arrays, funcgrad masked arrays whose values are
known, and plain arrays go to SciPy's own ``scipy.stats.mstats`` (its values, masked
results and result objects).  Traced data (plain arrays) go to the differentiable twin in
:mod:`funcgrad.scipy.stats` where there is one, with SciPy's result object; the helpers
without a twin raise for traced data rather than drop its derivative.
"""
from typing import Any, Optional

from ..typing import ArrayLike
from ._stats_functions import mode as _mode
from ._statshyp_ranks import brunnermunzel as _brunnermunzel
from ._statshyp_ranks import friedmanchisquare as _friedmanchisquare
from ._statstests_ks import ks_1samp as _ks_1samp, ks_2samp as _ks_2samp, kstest as _kstest
from ._statstests_tests import chisquare as _chisquare, pointbiserialr as _pointbiserialr
from ._statsmisc_masked import scipy_mstats as _scipy, traced as _traced
from ._statsmisc_mstats_tests import kruskal, plotting_positions, ttest_1samp

__all__ = ["mode", "chisquare", "ks_1samp", "ks_2samp", "ks_twosamp", "kstest",
           "pointbiserialr", "brunnermunzel", "friedmanchisquare", "kruskalwallis",
           "ttest_onesamp", "meppf", "trimmed_stde", "trimmed_mean_ci", "median_cihs", "mjci",
           "mquantiles_cimj", "hdquantiles_sd", "compare_medians_ms", "rsh",
           "kendalltau_seasonal", "find_repeats", "count_tied_groups", "argstoarray",
           "msign", "obrientransform", "trim"]

kruskalwallis = kruskal
ttest_onesamp = ttest_1samp
meppf = plotting_positions


def _values_only(name, *args):
    if _traced(*args):
        raise TypeError(f"funcgrad.scipy.stats.mstats.{name} has no differentiable version: "
                        f"its derivative is not given, so it takes values only; call it "
                        f"outside the transform (or on fg.stop_gradient(x) to drop the "
                        f"derivative on purpose)")


def mode(a: ArrayLike, axis: Optional[int] = 0) -> Any:
    """The most common unmasked value along ``axis`` and its count (the smallest such
    value on ties), as ``scipy.stats.mstats.mode`` (the reduced axis kept, counts as
    floats).  The mode jumps where ties form or break: traced data raise, as
    funcgrad.scipy.stats.mode does.

    >>> import numpy as np
    >>> res = mode(np.ma.masked_array([1.0, 2.0, 2.0, 3.0, 3.0, 3.0], mask=[0, 0, 0, 1, 1, 0]))
    >>> res.mode, res.count
    (array([2.]), array([2.]))
    """
    if _traced(a):
        return _mode(a, axis=axis, keepdims=True)  # (raises, naming the reason)
    return _scipy("mode", a, axis)


def chisquare(f_obs: ArrayLike, f_exp: Optional[ArrayLike] = None, ddof: Any = 0,
              axis: Optional[int] = 0, **kwargs: Any) -> Any:
    """Pearson's chi-squared test of the observed frequencies ``f_obs`` against
    ``f_exp``, as ``scipy.stats.mstats.chisquare`` (SciPy's ``scipy.stats.chisquare``);
    differentiable in the frequencies.

    >>> import numpy as np
    >>> float(chisquare(np.array([16.0, 18.0, 16.0, 14.0, 12.0, 12.0])).statistic)
    2.0
    """
    if _traced(f_obs, f_exp):
        return _chisquare(f_obs, f_exp, ddof, axis, **kwargs)
    return _scipy("chisquare", f_obs, f_exp, ddof, axis, **kwargs)


def ks_1samp(x: ArrayLike, cdf: Any, args: Any = (), alternative: str = "two-sided",
             method: str = "auto") -> Any:
    """The one-sample Kolmogorov-Smirnov test of the unmasked values against ``cdf``, as
    ``scipy.stats.mstats.ks_1samp``; on traced data funcgrad's ``ks_1samp`` (statistic
    and p-value; SciPy's ``statistic_location``/``statistic_sign`` are on values only).

    >>> import numpy as np
    >>> round(float(ks_1samp(np.array([0.1, 0.4, 0.7]), lambda v: v).statistic), 12)
    0.3
    """
    if _traced(x, args):
        return _ks_1samp(x, cdf, args, alternative=alternative, method=method)
    return _scipy("ks_1samp", x, cdf, args, alternative, method)


def ks_2samp(data1: ArrayLike, data2: ArrayLike, alternative: str = "two-sided",
             method: str = "auto") -> Any:
    """The two-sample Kolmogorov-Smirnov test of the unmasked values, as
    ``scipy.stats.mstats.ks_2samp`` (a step function of the data: zero derivative).

    >>> import numpy as np
    >>> float(ks_2samp(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])).statistic)
    1.0
    """
    if _traced(data1, data2):
        return _ks_2samp(data1, data2, alternative=alternative, method=method)
    return _scipy("ks_2samp", data1, data2, alternative, method)


ks_twosamp = ks_2samp


def kstest(data1: ArrayLike, data2: Any, args: Any = (), alternative: str = "two-sided",
           method: str = "auto") -> Any:
    """The Kolmogorov-Smirnov test of the unmasked values against a distribution (a name
    or a cdf) or a second sample, as ``scipy.stats.mstats.kstest``.

    >>> import numpy as np
    >>> float(kstest(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])).statistic)
    1.0
    """
    if _traced(data1, data2, args):
        return _kstest(data1, data2, args, alternative=alternative, method=method)
    return _scipy("kstest", data1, data2, args, alternative, method)


def pointbiserialr(x: ArrayLike, y: ArrayLike) -> Any:
    """The point-biserial correlation of a binary ``x`` with ``y`` over the pairs where
    neither is masked, as ``scipy.stats.mstats.pointbiserialr`` (its
    ``PointbiserialrResult(correlation, pvalue)``); differentiable in ``y``.

    >>> import numpy as np
    >>> res = pointbiserialr(np.array([0.0, 0.0, 1.0, 1.0]), np.array([1.0, 2.0, 3.0, 5.0]))
    >>> round(float(res.correlation), 12)
    0.845154254729
    """
    if _traced(x, y):
        from scipy.stats._mstats_basic import PointbiserialrResult
        res = _pointbiserialr(x, y)
        return PointbiserialrResult(res.statistic, res.pvalue)
    return _scipy("pointbiserialr", x, y)


def brunnermunzel(x: ArrayLike, y: ArrayLike, alternative: str = "two-sided",
                  distribution: str = "t") -> Any:
    """The Brunner-Munzel test of the unmasked values, as
    ``scipy.stats.mstats.brunnermunzel`` (a function of ranks: zero derivative).

    >>> import numpy as np
    >>> round(float(brunnermunzel(np.array([1.0, 2.0, 4.0]), np.array([3.0, 5.0, 6.0])).statistic), 12)
    2.474873734153
    """
    if _traced(x, y):
        return _brunnermunzel(x, y, alternative=alternative, distribution=distribution)
    return _scipy("brunnermunzel", x, y, alternative, distribution)


def friedmanchisquare(*args: ArrayLike) -> Any:
    """Friedman's test of repeated measurements (rows with a masked value dropped), as
    ``scipy.stats.mstats.friedmanchisquare`` (a function of ranks: zero derivative).

    >>> import numpy as np
    >>> res = friedmanchisquare(np.array([1.0, 2.0, 3.0]), np.array([2.0, 3.0, 4.0]),
    ...                         np.array([3.0, 4.0, 5.0]))
    >>> float(res.statistic)
    6.0
    """
    if _traced(*args):
        return _friedmanchisquare(*args)
    return _scipy("friedmanchisquare", *args)


def trimmed_stde(a: ArrayLike, limits: Any = (0.1, 0.1), inclusive: Any = (1, 1),
                 axis: Optional[int] = None) -> Any:
    """The standard error of the trimmed mean, as ``scipy.stats.mstats.trimmed_stde``
    (values only).

    >>> import numpy as np
    >>> round(float(trimmed_stde(np.arange(10.0))), 12)
    1.074483079852
    """
    _values_only("trimmed_stde", a)
    return _scipy("trimmed_stde", a, limits, inclusive, axis)


def trimmed_mean_ci(data: ArrayLike, limits: Any = (0.2, 0.2),
                    inclusive: Any = (True, True), alpha: float = 0.05,
                    axis: Optional[int] = None) -> Any:
    """The confidence interval of the trimmed mean, as
    ``scipy.stats.mstats.trimmed_mean_ci`` (values only).

    >>> import numpy as np
    >>> trimmed_mean_ci(np.arange(10.0)).round(6)
    array([1.555894, 7.444106])
    """
    _values_only("trimmed_mean_ci", data)
    return _scipy("trimmed_mean_ci", data, limits, inclusive, alpha, axis)


def median_cihs(data: ArrayLike, alpha: float = 0.05, axis: Optional[int] = None) -> Any:
    """The Hettmansperger-Sheather confidence interval of the median, as
    ``scipy.stats.mstats.median_cihs`` (values only).

    >>> import numpy as np
    >>> [round(float(v), 6) for v in median_cihs(np.arange(10.0))]
    [1.657658, 7.342342]
    """
    _values_only("median_cihs", data)
    return _scipy("median_cihs", data, alpha, axis)


def mjci(data: ArrayLike, prob: Any = (0.25, 0.5, 0.75), axis: Optional[int] = None) -> Any:
    """The Maritz-Jarrett standard errors of the quantiles ``prob``, as
    ``scipy.stats.mstats.mjci`` (values only).

    >>> import numpy as np
    >>> mjci(np.arange(10.0)).round(6)
    array([1.342802, 1.597679, 1.342802])
    """
    _values_only("mjci", data)
    return _scipy("mjci", data, prob, axis)


def mquantiles_cimj(data: ArrayLike, prob: Any = (0.25, 0.5, 0.75), alpha: float = 0.05,
                    axis: Optional[int] = None) -> Any:
    """The Maritz-Jarrett confidence intervals of the quantiles ``prob``, as
    ``scipy.stats.mstats.mquantiles_cimj`` (values only).

    >>> import numpy as np
    >>> lo, hi = mquantiles_cimj(np.arange(10.0), prob=[0.5])
    >>> lo.round(6), hi.round(6)
    (array([1.368607]), array([7.631393]))
    """
    _values_only("mquantiles_cimj", data)
    return _scipy("mquantiles_cimj", data, prob, alpha, axis)


def hdquantiles_sd(data: ArrayLike, prob: Any = (0.25, 0.5, 0.75),
                   axis: Optional[int] = None) -> Any:
    """The standard errors of the Harrell-Davis quantiles, as
    ``scipy.stats.mstats.hdquantiles_sd`` (values only).

    >>> import numpy as np
    >>> hdquantiles_sd(np.arange(10.0), prob=[0.5]).round(6)
    masked_array(data=[1.246589],
                 mask=False,
           fill_value=1e+20)
    """
    _values_only("hdquantiles_sd", data)
    return _scipy("hdquantiles_sd", data, prob, axis)


def compare_medians_ms(group_1: ArrayLike, group_2: ArrayLike,
                       axis: Optional[int] = None) -> Any:
    """The McKean-Schrader p-value that two medians are equal, as
    ``scipy.stats.mstats.compare_medians_ms`` (values only).

    >>> import numpy as np
    >>> round(float(compare_medians_ms(np.arange(10.0), np.arange(10.0) + 5.0)), 6)
    0.021497
    """
    _values_only("compare_medians_ms", group_1, group_2)
    return _scipy("compare_medians_ms", group_1, group_2, axis)


def rsh(data: ArrayLike, points: Any = None) -> Any:
    """Rosenblatt's shifted-histogram density estimate at ``points``, as
    ``scipy.stats.mstats.rsh`` (values only).

    >>> import numpy as np
    >>> [round(float(v), 6) for v in rsh(np.arange(10.0), points=[4.5])]
    [0.102251]
    """
    _values_only("rsh", data, points)
    return _scipy("rsh", data, points)


def kendalltau_seasonal(x: ArrayLike) -> Any:
    """Kendall's tau for seasonal data (a dict of SciPy's results), as
    ``scipy.stats.mstats.kendalltau_seasonal`` (values only).

    >>> import numpy as np
    >>> round(float(kendalltau_seasonal(np.arange(12.0).reshape(4, 3))['global tau (alt)']), 6)
    1.0
    """
    _values_only("kendalltau_seasonal", x)
    return _scipy("kendalltau_seasonal", x)


def find_repeats(arr: ArrayLike) -> Any:
    """The repeated unmasked values and their counts, as
    ``scipy.stats.mstats.find_repeats`` (values only).

    >>> import numpy as np
    >>> find_repeats(np.array([1.0, 2.0, 2.0, 3.0, 3.0, 3.0]))
    (array([2., 3.]), array([2, 3]))
    """
    _values_only("find_repeats", arr)
    return _scipy("find_repeats", arr)


def count_tied_groups(x: ArrayLike, use_missing: bool = False) -> Any:
    """How many groups of each size of tied values there are, as
    ``scipy.stats.mstats.count_tied_groups`` (a dict; values only).

    >>> import numpy as np
    >>> {int(k): v for k, v in count_tied_groups(np.array([1.0, 2.0, 2.0, 3.0, 3.0, 3.0])).items()}
    {2: 1, 3: 1}
    """
    _values_only("count_tied_groups", x)
    return _scipy("count_tied_groups", x, use_missing)


def argstoarray(*args: ArrayLike) -> Any:
    """The sequences as the rows of one 2-d masked array, short rows masked at the end,
    as ``scipy.stats.mstats.argstoarray`` (values only).

    >>> import numpy as np
    >>> argstoarray([1.0, 2.0], [3.0]).mask
    array([[False, False],
           [False,  True]])
    """
    _values_only("argstoarray", *args)
    return _scipy("argstoarray", *args)


def msign(x: ArrayLike) -> Any:
    """The sign of each entry, masked ones kept masked, as ``scipy.stats.mstats.msign``
    (values only).

    >>> import numpy as np
    >>> msign(np.array([-2.0, 0.0, 3.0]))
    array([-1.,  0.,  1.])
    """
    _values_only("msign", x)
    return _scipy("msign", x)


def obrientransform(*args: ArrayLike) -> Any:
    """O'Brien's transform of the samples (the columns of a 2-d masked array), as
    ``scipy.stats.mstats.obrientransform`` (values only; funcgrad.scipy.stats's
    ``obrientransform`` is differentiable on plain arrays).

    >>> import numpy as np
    >>> obrientransform([1.0, 2.0, 4.0], [1.0, 3.0, 5.0])[:, 1]
    masked_array(data=[ 7., -2.,  7.],
                 mask=False,
           fill_value=1e+20)
    """
    _values_only("obrientransform", *args)
    return _scipy("obrientransform", *args)


def trim(a: ArrayLike, limits: Any = None, inclusive: Any = (True, True),
         relative: bool = False, axis: Optional[int] = None) -> Any:
    """The data with values outside ``limits`` (proportions when ``relative``) masked,
    as ``scipy.stats.mstats.trim`` (a masked array: values only).

    >>> import numpy as np
    >>> trim(np.array([1.0, 2.0, 3.0, 4.0, 100.0]), (2.0, 10.0)).count()
    np.int64(3)
    """
    _values_only("trim", a)
    return _scipy("trim", a, limits, inclusive, relative, axis)
