"""Classical tests of :mod:`funcgrad.scipy.stats` (re-exported there), with SciPy's names,
signatures and result objects: the t tests (``ttest_1samp``, ``ttest_ind`` with Welch's
``equal_var=False``, ``ttest_rel``, ``ttest_ind_from_stats``), ``chisquare`` and
``power_divergence``, ``f_oneway`` (Welch's too), ``jarque_bera``, ``skewtest``,
``kurtosistest``, ``normaltest`` and ``pointbiserialr``.

Statistics and p-values are written in funcgrad operations and the p-values are the
tails of the null distributions in :mod:`funcgrad.scipy.special` (``stdtr``, ``chdtrc``,
``fdtrc``, ``ndtr``), so both are differentiable in the data (and in a degree of freedom
that depends on it, as Welch's).  ``nan_policy``: ``'propagate'`` and ``'raise'``, and
``'omit'`` for the t tests (each slice's own count, through ``nanmean``/``nanvar``);
elsewhere ``'omit'`` raises ``NotImplementedError`` (drop the NaNs first).
"""
import math
from collections import namedtuple
from typing import Any, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from . import special as sp
from ._correlation import ConfidenceInterval, SignificanceResult, _check_alternative
from ._correlation import _t_tails, pearsonr
from ._stats_summary import _keep, _prepare, kurtosis, skew

__all__ = ["ttest_1samp", "ttest_ind", "ttest_rel", "ttest_ind_from_stats", "chisquare",
           "power_divergence", "f_oneway", "jarque_bera", "skewtest", "kurtosistest",
           "normaltest", "pointbiserialr"]

Ttest_indResult = namedtuple("Ttest_indResult", ["statistic", "pvalue"])
Power_divergenceResult = namedtuple("Power_divergenceResult", ["statistic", "pvalue"])
F_onewayResult = namedtuple("F_onewayResult", ["statistic", "pvalue"])
SkewtestResult = namedtuple("SkewtestResult", ["statistic", "pvalue"])
KurtosistestResult = namedtuple("KurtosistestResult", ["statistic", "pvalue"])
NormaltestResult = namedtuple("NormaltestResult", ["statistic", "pvalue"])
for _result in (Ttest_indResult, Power_divergenceResult, F_onewayResult, SkewtestResult,
                KurtosistestResult, NormaltestResult):
    _result.__doc__ = f"""``{_result.__name__}(statistic, pvalue)``, a named tuple as SciPy's."""
del _result


class TtestResult(namedtuple("TtestResult", ["statistic", "pvalue"])):
    """A t test's result, as SciPy's: ``statistic, pvalue = result``, ``.df`` (the degrees
    of freedom) and ``.confidence_interval(confidence_level=0.95)`` of the estimated mean
    (or difference of means), all differentiable in the data.

    >>> import numpy as np
    >>> res = ttest_1samp(np.array([1.0, 2.0, 3.0, 4.0]), 0.0)
    >>> int(res.df), round(float(res.statistic), 12)
    (3, 3.872983346207)
    >>> low, high = res.confidence_interval()
    >>> bool(low < 2.5 < high)
    True
    """

    df: Any
    _estimate: Any
    _standard_error: Any
    _alternative: str

    def __new__(cls, statistic: Any, pvalue: Any, df: Any = None, *, estimate: Any = None,
                standard_error: Any = None, alternative: str = "two-sided") -> "TtestResult":
        self = super().__new__(cls, statistic, pvalue)
        self.df = df
        self._estimate, self._standard_error = estimate, standard_error
        self._alternative = alternative
        return self

    def confidence_interval(self, confidence_level: float = 0.95) -> ConfidenceInterval:
        """The interval of the mean (difference) at ``confidence_level``: ``estimate +
        standard error * t quantiles`` (one-sided for ``alternative='less'``/``'greater'``,
        as SciPy's)."""
        if not 0 <= confidence_level <= 1:
            raise ValueError(f"confidence_interval: confidence_level must lie in [0, 1], got "
                             f"{confidence_level!r}")
        se, estimate = self._standard_error, self._estimate
        df = fnp.astype(self.df, se.dtype)  # (an integer df: float32 stays float32)
        if self._alternative == "less":
            low, high = fnp.full_like(se, -math.inf), sp.stdtrit(df, confidence_level)
        elif self._alternative == "greater":
            low, high = sp.stdtrit(df, 1.0 - confidence_level), fnp.full_like(se, math.inf)
        else:
            tail = (1.0 - confidence_level) / 2.0
            low, high = sp.stdtrit(df, tail), sp.stdtrit(df, 1.0 - tail)
        return ConfidenceInterval(low * se + estimate, high * se + estimate)

    def __repr__(self) -> str:
        return (f"TtestResult(statistic={self.statistic!r}, pvalue={self.pvalue!r}, "
                f"df={self.df!r})")


def _norm_tails(z, alternative):
    """The standard normal distribution's tails at ``z`` (SciPy's ``_get_pvalue``)."""
    if alternative == "less":
        return sp.ndtr(z)
    if alternative == "greater":
        return sp.ndtr(-z)
    return 2.0 * sp.ndtr(-fnp.abs(z))


def _sample(name, a, axis, nan_policy):
    """``a`` as a float array, its axis, and its length along it."""
    a, ax = _prepare(name, a, axis, nan_policy)
    if a.ndim == 0:
        a = fnp.reshape(a, (1,))
    return a, ax, a.shape[ax]


def _policy(nan_policy):
    """``(the policy the inputs are checked by, whether NaNs are left out)``: the t tests
    take 'omit' (each slice's own count, through nanmean/nanvar)."""
    return ("propagate", True) if nan_policy == "omit" else (nan_policy, False)


def _mean_var(a, ax, n, omit):
    """``(mean, variance (ddof 1), count)`` along ``ax``, without the NaNs if ``omit``."""
    if not omit:
        return fnp.mean(a, axis=ax), fnp.var(a, axis=ax, ddof=1), n
    count = fnp.astype(fnp.sum(fnp.logical_not(fnp.isnan(a)), axis=ax), a.dtype)
    return fnp.nanmean(a, axis=ax), fnp.nanvar(a, axis=ax, ddof=1), count


def _holes(a, ax):
    """Where a slice along ``ax`` holds a NaN."""
    return fnp.any(fnp.isnan(a), axis=ax)


def _out(x, ndim, axis, keepdims):
    return _keep(x, ndim, axis, keepdims, False) if axis is not None else (
        fnp.reshape(x, (1,) * ndim) if keepdims else x)


def _ttest(d, denom, df, alternative, estimate, ndim, axis, keepdims, missing):
    """The result; ``missing``: where a sample held NaN (the df is NaN there too, as
    SciPy's)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        t = d / denom
    if isinstance(missing, np.ndarray) and missing.any():
        df = fnp.where(missing, math.nan, float(df) if isinstance(df, int) else df)
    # (df, the estimate and its error take the statistic's shape, as SciPy's; not 0 * t,
    # NaN where t is infinite)
    zero = fnp.zeros_like(t)
    p = _t_tails(t, df + zero, alternative)

    def out(v):
        return _out(v + zero, ndim, axis, keepdims)
    # (a sample's n - 1 is an integer, as SciPy's; Welch's is not)
    dfs = (_out(np.full(np.shape(t), df), ndim, axis, keepdims) if isinstance(df, int)
           else out(df))
    return TtestResult(out(t), out(p), dfs, estimate=out(estimate),
                       standard_error=out(denom), alternative=alternative)


def ttest_1samp(a: ArrayLike, popmean: ArrayLike, axis: Optional[int] = 0,
                nan_policy: str = "propagate", alternative: str = "two-sided", *,
                keepdims: bool = False) -> TtestResult:
    """The one-sample t test of the mean of ``a`` along ``axis`` against ``popmean`` (a
    number, or an array of length 1 along ``axis``), as ``scipy.stats.ttest_1samp``;
    differentiable in ``a`` and ``popmean``.  ``nan_policy='omit'`` leaves each slice's
    NaNs out (its own count and degrees of freedom).

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([1.0, 2.0, 3.0, 4.0])
    >>> round(float(ttest_1samp(x, 1.0).pvalue), 12)
    0.102728078858
    >>> g = fg.grad(lambda v: ttest_1samp(v, 1.0).statistic)(x)
    """
    _check_alternative("ttest_1samp", alternative)
    ndim = np.ndim(a)
    policy, omit = _policy(nan_policy)
    a, ax, n = _sample("ttest_1samp", a, axis, policy)
    if not isinstance(popmean, (int, float)):  # (a Python number keeps float32 float32)
        popmean = asarray(popmean)
        if axis is not None and popmean.ndim == a.ndim and popmean.ndim:
            if popmean.shape[ax] != 1:
                raise ValueError("ttest_1samp: an array popmean must have length 1 along "
                                 "axis (and broadcast with a elsewhere), got shape "
                                 f"{popmean.shape}")
            popmean = fnp.squeeze(popmean, axis=ax)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean, var, n = _mean_var(a, ax, n, omit)
        denom = fnp.sqrt(var / n)
    return _ttest(mean - popmean, denom, n - 1, alternative, mean, ndim,
                  axis, keepdims, None if omit else _holes(a, ax))


def _pooled(mean1, v1, n1, mean2, v2, n2, equal_var):
    """``(mean difference, its standard error, degrees of freedom)`` of two samples:
    pooled variance, or Welch's (Welch-Satterthwaite degrees of freedom, 1 where both
    variances are 0, as SciPy's)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        if equal_var:
            # (a sample of one adds nothing to the pooled variance, as SciPy's)
            v1 = fnp.where(asarray(n1) == 1, 0.0, v1)
            v2 = fnp.where(asarray(n2) == 1, 0.0, v2)
            df = n1 + n2 - 2.0
            pooled = ((n1 - 1.0) * v1 + (n2 - 1.0) * v2) / df
            return mean1 - mean2, fnp.sqrt(pooled * (1.0 / n1 + 1.0 / n2)), df
        vn1, vn2 = v1 / n1, v2 / n2
        df = fnp.square(vn1 + vn2) / (fnp.square(vn1) / (n1 - 1.0)
                                      + fnp.square(vn2) / (n2 - 1.0))
        return mean1 - mean2, fnp.sqrt(vn1 + vn2), fnp.where(fnp.isnan(df), 1.0, df)


def ttest_ind(a: ArrayLike, b: ArrayLike, *, axis: Optional[int] = 0, equal_var: bool = True,
              nan_policy: str = "propagate", alternative: str = "two-sided",
              trim: float = 0, method: Optional[object] = None,
              keepdims: bool = False) -> TtestResult:
    """The t test of equal means of two independent samples along ``axis``, with pooled
    variance (``equal_var=True``) or Welch's (``equal_var=False``), as
    ``scipy.stats.ttest_ind``; differentiable in ``a`` and ``b``.  ``trim`` (Yuen's
    trimmed test) and ``method`` (permutation, Monte Carlo) are not available.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 3.0, 4.0]), np.array([3.0, 5.0, 6.0])
    >>> round(float(ttest_ind(x, y).statistic), 12)
    -2.040235666867
    >>> g = fg.grad(lambda v: ttest_ind(v, y, equal_var=False).pvalue)(x)
    """
    if trim != 0:
        raise NotImplementedError("ttest_ind: trim (Yuen's trimmed t test) is not "
                                  "implemented; use trim=0")
    if method is not None:
        raise NotImplementedError("ttest_ind: method must be None (the t distribution); "
                                  "SciPy's PermutationMethod and MonteCarloMethod are not "
                                  "available")
    _check_alternative("ttest_ind", alternative)
    ndim = max(np.ndim(a), np.ndim(b))
    policy, omit = _policy(nan_policy)
    a, ax, n1 = _sample("ttest_ind", a, axis, policy)
    b, _, n2 = _sample("ttest_ind", b, axis, policy)
    with np.errstate(divide="ignore", invalid="ignore"):
        if omit:
            (mean1, v1, n1), (mean2, v2, n2) = _mean_var(a, ax, n1, True), _mean_var(
                b, ax, n2, True)
        else:
            # (the pooled test leaves a sample of one out of the variance: not computed,
            # so its 0/0 derivative stays out of the gradient)
            mean1, mean2 = fnp.mean(a, axis=ax), fnp.mean(b, axis=ax)
            v1, v2 = (fnp.zeros_like(m) if n == 1 and equal_var
                      else fnp.var(s, axis=ax, ddof=1)
                      for s, m, n in ((a, mean1, n1), (b, mean2, n2)))
    d, denom, df = _pooled(mean1, v1, n1, mean2, v2, n2, equal_var)
    return _ttest(d, denom, df, alternative, d, ndim, axis, keepdims,
                  None if omit else fnp.logical_or(_holes(a, ax), _holes(b, ax)))


def ttest_rel(a: ArrayLike, b: ArrayLike, axis: Optional[int] = 0,
              nan_policy: str = "propagate", alternative: str = "two-sided", *,
              keepdims: bool = False) -> TtestResult:
    """The paired t test (the one-sample test of ``a - b`` against 0), as
    ``scipy.stats.ttest_rel``; differentiable in ``a`` and ``b``.

    >>> import numpy as np
    >>> res = ttest_rel(np.array([1.0, 2.0, 4.0]), np.array([0.0, 2.0, 2.0]))
    >>> int(res.df), round(float(res.statistic), 12)
    (2, 1.732050807569)
    """
    _check_alternative("ttest_rel", alternative)
    ndim = max(np.ndim(a), np.ndim(b))
    policy, omit = _policy(nan_policy)
    a, b = _prepare("ttest_rel", a, 0, policy)[0], _prepare("ttest_rel", b, 0, policy)[0]
    if axis is not None and a.shape[axis] != b.shape[axis]:
        raise ValueError(f"ttest_rel: a and b must have the same length along axis {axis} "
                         f"(paired samples), got {a.shape[axis]} and {b.shape[axis]}")
    if axis is None and a.size != b.size:
        raise ValueError(f"ttest_rel: a and b must have as many values (paired samples), "
                         f"got {a.size} and {b.size}")
    d, ax, n = _sample("ttest_rel", a - b, axis, policy)  # (a NaN in either drops the pair)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean, var, n = _mean_var(d, ax, n, omit)
        denom = fnp.sqrt(var / n)
    return _ttest(mean, denom, n - 1, alternative, mean, ndim, axis,
                  keepdims, None if omit else _holes(d, ax))


def ttest_ind_from_stats(mean1: ArrayLike, std1: ArrayLike, nobs1: ArrayLike,
                         mean2: ArrayLike, std2: ArrayLike, nobs2: ArrayLike,
                         equal_var: bool = True,
                         alternative: str = "two-sided") -> Ttest_indResult:
    """:func:`ttest_ind` from each sample's mean, standard deviation (``ddof=1``) and
    size, as ``scipy.stats.ttest_ind_from_stats``; differentiable in the means and
    deviations.

    >>> r = ttest_ind_from_stats(2.5, 1.2909944487358056, 4, 14 / 3, 1.5275252316519468, 3)
    >>> round(float(r.statistic), 12)
    -2.040235666867
    """
    _check_alternative("ttest_ind_from_stats", alternative)
    mean1, mean2 = asarray(mean1), asarray(mean2)
    std1, std2 = asarray(std1), asarray(std2)
    d, denom, df = _pooled(mean1, fnp.square(std1), nobs1, mean2, fnp.square(std2), nobs2,
                           equal_var)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = d / denom
    return Ttest_indResult(t, _t_tails(t, df, alternative))


_LAMBDAS = {"pearson": 1.0, "log-likelihood": 0.0, "freeman-tukey": -0.5,
            "mod-log-likelihood": -1.0, "neyman": -2.0, "cressie-read": 2.0 / 3.0}


def power_divergence(f_obs: ArrayLike, f_exp: Optional[ArrayLike] = None, ddof: int = 0,
                     axis: Optional[int] = 0, lambda_: Union[str, float, None] = None, *,
                     nan_policy: str = "propagate",
                     keepdims: bool = False) -> Power_divergenceResult:
    """Cressie and Read's power divergence test of observed frequencies ``f_obs`` against
    expected ones ``f_exp`` (uniform by default) along ``axis``, with exponent ``lambda_``
    (a number, or one of SciPy's names: 'pearson' (1, the default), 'log-likelihood' (0),
    'freeman-tukey', 'mod-log-likelihood', 'neyman', 'cressie-read'); p-value by the chi2
    distribution with ``k - 1 - ddof`` degrees of freedom, as
    ``scipy.stats.power_divergence``.  Differentiable in both frequencies.

    >>> import numpy as np
    >>> r = power_divergence(np.array([16.0, 18, 16, 14, 12, 12]), lambda_="log-likelihood")
    >>> round(float(r.statistic), 12)
    2.006573162633
    """
    if lambda_ is None:
        lambda_ = 1.0
    elif isinstance(lambda_, str):
        if lambda_ not in _LAMBDAS:
            raise ValueError(f"power_divergence: lambda_ must be a number or one of "
                             f"{sorted(_LAMBDAS)}, got {lambda_!r}")
        lambda_ = _LAMBDAS[lambda_]
    return _divergence("power_divergence", f_obs, f_exp, ddof, axis, float(lambda_),
                       nan_policy, keepdims)


def _divergence(name, f_obs, f_exp, ddof, axis, lam, nan_policy, keepdims):
    ndim = np.ndim(f_obs)
    f_obs, ax, k = _sample(name, f_obs, axis, nan_policy)
    if f_exp is None:
        f_exp = fnp.mean(f_obs, axis=ax, keepdims=True)
    else:
        f_exp = _prepare(name, f_exp, 0, nan_policy)[0]
        if axis is None:
            f_exp = fnp.reshape(f_exp, (-1,))
        f_obs, f_exp = fnp.broadcast_arrays(f_obs, f_exp)
        if is_concrete(f_obs) and is_concrete(f_exp):
            # (SciPy's check: the frequencies must describe the same total)
            total_obs = np.sum(concrete_values(f_obs, name, ""), axis=ax)
            total_exp = np.sum(concrete_values(f_exp, name, ""), axis=ax)
            with np.errstate(divide="ignore", invalid="ignore"):
                off = np.abs(total_obs - total_exp) / np.minimum(total_obs, total_exp)
            if np.any(off > 1.4901161193847656e-08):
                raise ValueError(f"{name}: the sums of f_obs and f_exp must agree to a "
                                 f"relative tolerance of 1.49e-08 along the axis, got "
                                 f"{total_obs} and {total_exp}; rescale f_exp")
    with np.errstate(divide="ignore", invalid="ignore"):
        if lam == 1.0:
            terms = fnp.square(f_obs - f_exp) / f_exp
        elif lam == 0.0:
            terms = 2.0 * sp.xlogy(f_obs, f_obs / f_exp)
        elif lam == -1.0:
            terms = 2.0 * sp.xlogy(f_exp, f_exp / f_obs)
        else:
            terms = (f_obs * ((f_obs / f_exp) ** lam - 1.0)) * (2.0 / (lam * (lam + 1.0)))
    statistic = fnp.sum(terms, axis=ax)
    return _chi2_result(statistic, k, ddof, ndim, axis, keepdims)


def _chi2_result(statistic, k, ddof, ndim, axis, keepdims):
    p = sp.chdtrc((k - 1.0 - ddof) + fnp.zeros_like(statistic), statistic)
    return Power_divergenceResult(_out(statistic, ndim, axis, keepdims),
                                  _out(p, ndim, axis, keepdims))


def chisquare(f_obs: ArrayLike, f_exp: Optional[ArrayLike] = None, ddof: int = 0,
              axis: Optional[int] = 0, *, sum_check: bool = True,
              nan_policy: str = "propagate",
              keepdims: bool = False) -> Power_divergenceResult:
    """Pearson's chi-squared test of observed frequencies ``f_obs`` against expected ones
    (uniform by default), as ``scipy.stats.chisquare`` (``sum_check=False`` skips the
    check that both describe the same total); differentiable in both.

    >>> import numpy as np
    >>> r = chisquare(np.array([16.0, 18, 16, 14, 12, 12]))
    >>> round(float(r.statistic), 12), round(float(r.pvalue), 12)
    (2.0, 0.849145036085)
    """
    if not sum_check and f_exp is not None:
        ndim = np.ndim(f_obs)
        f_obs, ax, k = _sample("chisquare", f_obs, axis, nan_policy)
        f_exp = _prepare("chisquare", f_exp, 0, nan_policy)[0]
        f_exp = fnp.reshape(f_exp, (-1,)) if axis is None else f_exp
        statistic = fnp.sum(fnp.square(f_obs - f_exp) / f_exp, axis=ax)
        return _chi2_result(statistic, k, ddof, ndim, axis, keepdims)
    return _divergence("chisquare", f_obs, f_exp, ddof, axis, 1.0, nan_policy, keepdims)


def f_oneway(*samples: ArrayLike, axis: Optional[int] = 0, equal_var: bool = True,
             nan_policy: str = "propagate", keepdims: bool = False) -> F_onewayResult:
    """One-way analysis of variance of two or more ``samples`` along ``axis``: the F
    statistic and its p-value by the F distribution (``equal_var=False``: Welch's test for
    unequal variances), as ``scipy.stats.f_oneway``; differentiable in the samples.

    >>> import numpy as np
    >>> r = f_oneway(np.array([1.0, 2.0, 3.0]), np.array([2.0, 4.0, 6.0]))
    >>> round(float(r.statistic), 12), round(float(r.pvalue), 12)
    (2.4, 0.196261178149)
    """
    if len(samples) < 2:
        raise TypeError(f"f_oneway: at least two samples are required, got {len(samples)}")
    ndim = max(np.ndim(s) for s in samples)
    prepared = [_sample("f_oneway", s, axis, nan_policy) for s in samples]
    ax = prepared[0][1]
    k = float(len(samples))
    ns = [float(n) for _, _, n in prepared]
    means = [fnp.mean(s, axis=ax) for s, _, _ in prepared]
    dfd: Any  # (a count, or Welch's array)
    with np.errstate(divide="ignore", invalid="ignore"):
        if equal_var:
            total = sum(ns)
            grand = sum(m * n for m, n in zip(means, ns)) / total
            between = sum(n * fnp.square(m - grand) for m, n in zip(means, ns))
            within = sum(fnp.sum(fnp.square(s - fnp.expand_dims(m, ax)), axis=ax)
                         for (s, _, _), m in zip(prepared, means))
            dfn, dfd = k - 1.0, total - k
            f = (between / dfn) / (within / dfd)
        else:
            weights = [n / fnp.var(s, axis=ax, ddof=1) for (s, _, n) in prepared]
            sw = sum(weights)
            mean_w = sum(w * m for w, m in zip(weights, means)) / sw
            spread = sum(w * fnp.square(m - mean_w) for w, m in zip(weights, means)) / (k - 1.0)
            tmp = sum(fnp.square(1.0 - w / sw) / (n - 1.0) for w, n in zip(weights, ns))
            f = spread / (1.0 + 2.0 * (k - 2.0) / (k * k - 1.0) * tmp)
            dfn, dfd = k - 1.0, (k * k - 1.0) / (3.0 * tmp)
    p = sp.fdtrc(dfn, dfd, f)
    return F_onewayResult(_out(f, ndim, axis, keepdims), _out(p, ndim, axis, keepdims))


def jarque_bera(x: ArrayLike, *, axis: Optional[int] = None, nan_policy: str = "propagate",
                keepdims: bool = False) -> SignificanceResult:
    """The Jarque-Bera test of normality, ``n/6 (S**2 + K**2/4)`` of the sample skewness
    ``S`` and excess kurtosis ``K`` along ``axis`` (all of ``x`` by default), p-value by
    chi2 with 2 degrees of freedom, as ``scipy.stats.jarque_bera``; differentiable.

    >>> import numpy as np
    >>> r = jarque_bera(np.array([1.0, 2.0, 3.0, 4.0, 10.0]))
    >>> round(float(r.statistic), 12)
    1.089363333333
    """
    ndim = np.ndim(x)
    x, ax, n = _sample("jarque_bera", x, axis, nan_policy)
    if n == 0:
        raise ValueError("jarque_bera: at least one observation is required")
    s, k = skew(x, ax), kurtosis(x, ax)
    statistic = n / 6.0 * (fnp.square(s) + fnp.square(k) / 4.0)
    p = sp.chdtrc(2.0, statistic)
    return SignificanceResult(_out(statistic, ndim, axis, keepdims),
                              _out(p, ndim, axis, keepdims))


def _skew_z(a, ax, n):
    """D'Agostino's normal approximation of the sample skewness's null distribution (NaN
    for fewer than 8 observations, where it is not valid: SciPy's NaN)."""
    if n < 8:
        return skew(a, ax) * math.nan
    y = skew(a, ax) * math.sqrt((n + 1.0) * (n + 3.0) / (6.0 * (n - 2.0)))
    beta2 = (3.0 * (n * n + 27.0 * n - 70.0) * (n + 1.0) * (n + 3.0)
             / ((n - 2.0) * (n + 5.0) * (n + 7.0) * (n + 9.0)))
    w2 = -1.0 + math.sqrt(2.0 * (beta2 - 1.0))
    delta = 1.0 / math.sqrt(0.5 * math.log(w2))
    alpha = math.sqrt(2.0 / (w2 - 1.0))
    y = fnp.where(y == 0, 1.0, y)  # (as SciPy's)
    return delta * fnp.log(y / alpha + fnp.sqrt(fnp.square(y / alpha) + 1.0))


def _kurtosis_z(a, ax, n):
    """Anscombe and Glynn's normal approximation of the sample kurtosis's null
    distribution (NaN for fewer than 5 observations: SciPy's NaN)."""
    if n < 5:
        return kurtosis(a, ax) * math.nan
    b2 = kurtosis(a, ax, fisher=False)
    expected = 3.0 * (n - 1.0) / (n + 1.0)
    var = 24.0 * n * (n - 2.0) * (n - 3.0) / ((n + 1.0) ** 2 * (n + 3.0) * (n + 5.0))
    x = (b2 - expected) / math.sqrt(var)
    root_beta1 = (6.0 * (n * n - 5.0 * n + 2.0) / ((n + 7.0) * (n + 9.0))
                  * math.sqrt(6.0 * (n + 3.0) * (n + 5.0) / (n * (n - 2.0) * (n - 3.0))))
    big_a = 6.0 + 8.0 / root_beta1 * (2.0 / root_beta1 + math.sqrt(1.0 + 4.0 / root_beta1 ** 2))
    term1 = 1.0 - 2.0 / (9.0 * big_a)
    denom = 1.0 + x * math.sqrt(2.0 / (big_a - 4.0))
    zero = denom == 0
    safe = fnp.where(zero, 1.0, denom)
    term2 = fnp.where(zero, math.nan, fnp.sign(safe) * fnp.cbrt(
        (1.0 - 2.0 / big_a) / fnp.abs(safe)))
    return (term1 - term2) / math.sqrt(2.0 / (9.0 * big_a))


def skewtest(a: ArrayLike, axis: Optional[int] = 0, nan_policy: str = "propagate",
             alternative: str = "two-sided", *, keepdims: bool = False) -> SkewtestResult:
    """D'Agostino's test that the skewness of ``a`` along ``axis`` is that of a normal
    distribution (NaN for fewer than 8 observations), as ``scipy.stats.skewtest``; differentiable.

    >>> import numpy as np
    >>> r = skewtest(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 20.0]))
    >>> round(float(r.statistic), 9)
    2.873567807
    """
    _check_alternative("skewtest", alternative)
    ndim = np.ndim(a)
    a, ax, n = _sample("skewtest", a, axis, nan_policy)
    z = _skew_z(a, ax, n)
    return SkewtestResult(_out(z, ndim, axis, keepdims),
                          _out(_norm_tails(z, alternative), ndim, axis, keepdims))


def kurtosistest(a: ArrayLike, axis: Optional[int] = 0, nan_policy: str = "propagate",
                 alternative: str = "two-sided", *,
                 keepdims: bool = False) -> KurtosistestResult:
    """Anscombe and Glynn's test that the kurtosis of ``a`` along ``axis`` is that of a
    normal distribution (NaN for fewer than 5 observations), as ``scipy.stats.kurtosistest``;
    differentiable.

    >>> import numpy as np
    >>> r = kurtosistest(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 20.0]))
    >>> round(float(r.statistic), 9)
    2.587689729
    """
    _check_alternative("kurtosistest", alternative)
    ndim = np.ndim(a)
    a, ax, n = _sample("kurtosistest", a, axis, nan_policy)
    z = _kurtosis_z(a, ax, n)
    return KurtosistestResult(_out(z, ndim, axis, keepdims),
                              _out(_norm_tails(z, alternative), ndim, axis, keepdims))


def normaltest(a: ArrayLike, axis: Optional[int] = 0, nan_policy: str = "propagate", *,
               keepdims: bool = False) -> NormaltestResult:
    """D'Agostino and Pearson's omnibus test of normality, the sum of the squares of
    :func:`skewtest`'s and :func:`kurtosistest`'s statistics, p-value by chi2 with 2 degrees
    of freedom, as ``scipy.stats.normaltest``; differentiable.

    >>> import numpy as np
    >>> r = normaltest(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 20.0]))
    >>> round(float(r.statistic), 9)
    14.953530076
    """
    ndim = np.ndim(a)
    a, ax, n = _sample("normaltest", a, axis, nan_policy)
    statistic = fnp.square(_skew_z(a, ax, n)) + fnp.square(_kurtosis_z(a, ax, n))
    return NormaltestResult(_out(statistic, ndim, axis, keepdims),
                            _out(sp.chdtrc(2.0, statistic), ndim, axis, keepdims))


def pointbiserialr(x: ArrayLike, y: ArrayLike, *, axis: Optional[int] = 0,
                   nan_policy: str = "propagate",
                   keepdims: bool = False) -> SignificanceResult:
    """The point-biserial correlation of a binary ``x`` and a continuous ``y`` (Pearson's
    coefficient, with its p-value), as ``scipy.stats.pointbiserialr``; differentiable in
    ``y``.

    >>> import numpy as np
    >>> r = pointbiserialr(np.array([0, 0, 1, 1, 1]), np.array([1.0, 2.0, 3.0, 3.5, 4.0]))
    >>> round(float(r.statistic), 12)
    0.909717652295
    """
    ndim = max(np.ndim(x), np.ndim(y))
    binary = asarray(x).dtype.kind in "biu"
    x, _ = _prepare("pointbiserialr", x, 0, nan_policy)
    y, _ = _prepare("pointbiserialr", y, 0, nan_policy)
    if binary:
        x = fnp.astype(x, y.dtype)  # (the binary variable takes the data's precision)
    res = pearsonr(x, y, axis=axis)
    return SignificanceResult(_out(res.statistic, ndim, axis, keepdims),
                              _out(res.pvalue, ndim, axis, keepdims))
