"""``funcgrad.scipy.stats``: SciPy's distributions, differentiable in ``x``, the shape
parameters, ``loc`` and ``scale``.

Each distribution is an object with SciPy's methods and signatures
(``norm.logpdf(x, loc=0, scale=1)``, ``gamma.cdf(x, a, loc=0, scale=1)``,
``poisson.logpmf(k, mu, loc=0)``...), written with :mod:`funcgrad.scipy.special` and
:mod:`funcgrad.numpy`, so every derivative comes from the primitives' rules.  Where a
method goes through ``gammainc``/``betainc`` (``gamma.cdf``, ``t.cdf``, ``f.sf``...) its
derivative in the shape parameters is theirs (:mod:`funcgrad.primitives.incomplete`, shapes
up to 1e6); the counts of the discrete ones (``binom.cdf``'s ``n``...) are integers.
Calling a distribution freezes its parameters, as SciPy's (``norm(0.0, 2.0).logpdf(x)``).
The machinery is in :mod:`._distn`; ``lognorm``, ``weibull_min``, ``pareto``, ``ksone``... in
:mod:`._continuous_more`; ``truncnorm``, ``gennorm``, ``vonmises``, ``wrapcauchy``,
``betabinom`` and ``multinomial`` in :mod:`._distn_more`; ``sem``, ``rankdata`` and
``mode`` in :mod:`._stats_functions`; ``pearsonr`` and ``spearmanr`` in
:mod:`._correlation`; ``multivariate_t`` in :mod:`._multivariate_t`; ``entropy``,
``zscore``, ``gmean``, ``hmean``, ``moment``, ``skew``, ``kurtosis`` and ``variation``
(differentiable) in :mod:`._stats_summary`; ``gaussian_kde`` in :mod:`._kde`.

>>> import numpy as np, funcgrad as fg
>>> float(fg.grad(lambda m: norm.logpdf(1.0, loc=m))(0.0))
1.0
"""
import math
from typing import Any, Optional

import numpy as np

from ... import numpy as fnp
from ...primitives.structural import stop_gradient as _stop_gradient
from .. import _ppf
from .. import special as sp
from .. import _continuous_more as _more
from .._continuous_more import (f, gumbel_l, gumbel_r, halfcauchy, halfnorm,  # noqa: F401
                               invgamma, ksone, lognorm, lomax, pareto, rayleigh,
                               weibull_min)
from .. import _distn_more as _more2
from .._distn_more import gamma_cdf, gamma_isf, gamma_logpdf, gamma_ppf, gamma_sf
from .._distn_more import (betabinom, gennorm, multinomial, truncnorm, vonmises,  # noqa: F401
                          wrapcauchy)
from .._kde import gaussian_kde  # noqa: F401
from .._correlation import pearsonr, spearmanr  # noqa: F401
from .._multivariate_t import multivariate_t  # noqa: F401
from .. import _moments
from .. import _stats_functions as _functions
from .._stats_functions import ModeResult, mode, rankdata, sem  # noqa: F401
from .. import _stats_summary as _summary
from .._distn import (_all, _multivariate_parameters, _support, rv_continuous, rv_discrete,
                     rv_frozen)
from ...typing import Array, ArrayLike
from .. import (_statstests_ks, _statstests_ranks, _statstests_regress, _statstests_summary,
               _statstests_tests)
from .._statstests_summary import (describe, gstd, gzscore, iqr,  # noqa: F401
                                  median_abs_deviation, percentileofscore, pmean,
                                  scoreatpercentile, sigmaclip, tmax, tmean, tmin, trim1,
                                  trim_mean, trimboth, tsem, tstd, tvar, zmap)
from .._statstests_tests import (chisquare, f_oneway, jarque_bera, kurtosistest,  # noqa: F401
                                normaltest, pointbiserialr, power_divergence, skewtest,
                                ttest_1samp, ttest_ind, ttest_ind_from_stats, ttest_rel)
from .._statstests_regress import linregress, siegelslopes, theilslopes  # noqa: F401
from .._statstests_ranks import kendalltau, mannwhitneyu, wilcoxon  # noqa: F401
from .._statstests_ks import ks_1samp, ks_2samp, kstest  # noqa: F401
from .._kstwo import kstwo  # noqa: F401

__all__ = ["norm", "t", "cauchy", "laplace", "logistic", "expon", "gamma", "beta", "chi2",
           "uniform", "multivariate_normal", "dirichlet", "poisson", "bernoulli", "binom",
           "geom", "nbinom"] + _more.__all__ + _more2.__all__ + _functions.__all__ + [
    "gaussian_kde", "multivariate_t", "pearsonr", "spearmanr"] + _summary.__all__ + (
    _statstests_summary.__all__ + _statstests_tests.__all__ + _statstests_regress.__all__
    + _statstests_ranks.__all__ + _statstests_ks.__all__ + ["kstwo"])

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
_INF = math.inf


def _with_df(t_branch, normal_branch):
    """``df = inf`` is the normal distribution, as SciPy's: ``normal_branch`` there,
    ``t_branch`` with a finite ``df`` elsewhere (the double-where idiom: no NaN in it).
    A Python ``df`` picks its branch alone (and keeps float32 float32)."""
    def either(z, df):
        if isinstance(df, (int, float)):
            return normal_branch(z) if math.isinf(df) else t_branch(z, df)
        infinite = fnp.isinf(df)
        return fnp.where(infinite, normal_branch(z), t_branch(z, fnp.where(infinite, 1.0, df)))
    return either


def _t_cdf_finite(z, df):
    # (at z = 0, x = 1 where betainc's slope (1 - x)**-1/2 is inf and dx/dz is 0: the
    # chain rule gave NaN; there the value is 1/2 and the slope the density at 0)
    zero = fnp.equal(z, 0)
    s = fnp.where(zero, 1.0, z)
    x = df / (df + s * s)
    tail = sp.betainc(df * 0.5, 0.5, x) * 0.5
    away = fnp.where(fnp.greater(s, 0), 1.0 - tail, tail)
    density_at_0 = fnp.exp(_t_logpdf(0.0 * z, df))
    return fnp.where(zero, 0.5 + density_at_0 * z, away)


_t_cdf = _with_df(_t_cdf_finite, sp.ndtr)
_t_logpdf = _with_df(lambda z, df: (
    sp.gammaln((df + 1.0) * 0.5) - sp.gammaln(df * 0.5) - 0.5 * fnp.log(df * math.pi)
    - (df + 1.0) * 0.5 * fnp.log1p(z * z / df)), lambda z: z * z * -0.5 - _LOG_SQRT_2PI)


def _cauchy_ppf(q):
    """``tan(pi (q - 1/2))``, as ``-1 / tan(pi q)`` and ``1 / tan(pi (1 - q))`` in the tails
    (``1 - q`` exact there): full relative accuracy, and -inf/inf at 0/1."""
    low, high = fnp.less(q, 0.25), fnp.greater(q, 0.75)
    tails = fnp.where(low, -1.0 / fnp.tan(math.pi * fnp.where(low, q, 0.5 - q * 0.0)),
                      1.0 / fnp.tan(math.pi * fnp.where(high, 1.0 - q, 0.5 + q * 0.0)))
    middle = fnp.tan(math.pi * (fnp.where(fnp.logical_or(low, high), 0.5, q) - 0.5))
    return fnp.where(fnp.logical_or(low, high), tails, middle)


def _beta_logpdf(z, a, b):
    inside = _unit(z)  # (0 and 1 included, as SciPy's: finite or inf there for a or b <= 1)
    s = fnp.where(inside, z, 0.5)
    return _support(inside, sp.xlogy(a - 1.0, s) + sp.xlog1py(b - 1.0, -s) - sp.betaln(a, b))


def _laplace_cdf(z):
    # (each branch sees its own side through ``where``, not ``minimum``/``maximum``: those
    # split the slope at the tie z = 0, which halved the density there)
    left = fnp.less(z, 0)
    return fnp.where(left, 0.5 * fnp.exp(fnp.where(left, z, 0.0)),
                     1.0 - 0.5 * fnp.exp(-fnp.where(left, 0.0, z)))


def _laplace_ppf(q):
    low = fnp.less(q, 0.5)
    return fnp.where(low, fnp.log(2.0 * fnp.where(low, q, 0.5)),
                     -fnp.log(2.0 - 2.0 * fnp.where(low, 0.5, q)))


def _beta_cdf(z, a, b, shift=0.0):
    """``betainc(a, b, shift + z)`` on the support, 0 below it and 1 above (``shift=1``
    with ``-z`` is the survival function).  The double-where idiom: betainc's slope in x
    is inf at 0 and 1 for a or b < 1, and inf * 0 from a clip made the derivative NaN
    outside the support."""
    u = shift + z
    inside = _unit(u)
    return fnp.where(inside, sp.betainc(a, b, fnp.where(inside, u, 0.5)),
                     fnp.where(fnp.greater(u, 1), 1.0, 0.0))


def _expon_logpdf(z):
    return _support(fnp.greater_equal(z, 0), -z)


def _unit(z):
    return fnp.logical_and(fnp.greater_equal(z, 0), fnp.less_equal(z, 1))


norm = rv_continuous(
    "norm", _logpdf=lambda z: z * z * -0.5 - _LOG_SQRT_2PI, _cdf=sp.ndtr, _logcdf=sp.log_ndtr,
    _sf=lambda z: sp.ndtr(-z), _logsf=lambda z: sp.log_ndtr(-z), _ppf=sp.ndtri)
norm.__doc__ = """The normal distribution (``loc`` = mean, ``scale`` = standard deviation).

>>> float(norm.cdf(0.0)), float(norm.ppf(0.5, loc=3.0))
(0.5, 3.0)
"""

t = rv_continuous(
    "t", shapes=("df",),
    _logpdf=_t_logpdf, _cdf=_t_cdf, _sf=lambda z, df: _t_cdf(-z, df))
def _cauchy_logpdf(z):
    """``-log1p(z**2) - log(pi)``, as ``-2 log|z| - log1p(1/z**2)`` beyond ``|z| = 1e8``
    (where ``z**2`` would overflow first: SciPy's -1382 at 1e300, not -inf)."""
    far = fnp.greater(fnp.abs(z), 1e8)
    w, n = fnp.where(far, z, 1e9), fnp.where(far, 0.0, z)
    inv = 1.0 / w
    return fnp.where(far, -2.0 * fnp.log(fnp.abs(w)) - fnp.log1p(inv * inv),
                     -fnp.log1p(n * n)) - math.log(math.pi)


def _cauchy_sf(z):
    """``1/2 - arctan(z)/pi``, as ``arctan(1/z)/pi`` for ``z > 1``, where the difference
    would cancel (0 at 1e300; SciPy's logsf keeps the tail)."""
    right = fnp.greater(z, 1.0)
    r = fnp.where(right, z, 2.0)
    return fnp.where(right, fnp.arctan(1.0 / r) / math.pi,
                     0.5 - fnp.arctan(fnp.where(right, 0.0, z)) / math.pi)


cauchy = rv_continuous(
    "cauchy", _logpdf=_cauchy_logpdf, _cdf=lambda z: _cauchy_sf(-z), _sf=_cauchy_sf,
    _ppf=_cauchy_ppf)
laplace = rv_continuous(
    "laplace", _logpdf=lambda z: -fnp.abs(z) - math.log(2.0), _cdf=_laplace_cdf,
    _sf=lambda z: _laplace_cdf(-z),
    _ppf=_laplace_ppf)
logistic = rv_continuous(
    "logistic", _logpdf=lambda z: sp.log_expit(z) + sp.log_expit(-z), _cdf=sp.expit,
    _logcdf=sp.log_expit, _sf=lambda z: sp.expit(-z), _logsf=lambda z: sp.log_expit(-z),
    _ppf=sp.logit)
expon = rv_continuous(
    "expon", _logpdf=_expon_logpdf,
    _cdf=lambda z: -fnp.expm1(-fnp.maximum(z, 0.0)),
    _sf=lambda z: fnp.exp(-fnp.maximum(z, 0.0)), _logsf=lambda z: -fnp.maximum(z, 0.0),
    _ppf=lambda q: -fnp.log1p(-q))
gamma = rv_continuous(
    "gamma", shapes=("a",), _logpdf=gamma_logpdf, _cdf=gamma_cdf, _ppf=gamma_ppf,
    _sf=gamma_sf, _isf=gamma_isf)
beta = rv_continuous(
    "beta", shapes=("a", "b"), _logpdf=_beta_logpdf,
    _cdf=lambda z, a, b: _beta_cdf(z, a, b), _sf=lambda z, a, b: _beta_cdf(-z, b, a, 1.0))
chi2 = rv_continuous(
    "chi2", shapes=("df",),
    _logpdf=lambda z, df: gamma_logpdf(z * 0.5, df * 0.5) - math.log(2.0),
    _cdf=lambda z, df: gamma_cdf(z * 0.5, df * 0.5),
    _sf=lambda z, df: gamma_sf(z * 0.5, df * 0.5))
uniform = rv_continuous(
    "uniform", _logpdf=lambda z: _support(_unit(z), z * 0.0),
    _cdf=lambda z: fnp.clip(z, 0.0, 1.0), _sf=lambda z: 1.0 - fnp.clip(z, 0.0, 1.0),
    _ppf=lambda q: q * 1.0)
# (the quantiles of these four invert their CDFs numerically: see _ppf)
t._ppf = _with_df(_ppf.t_ppf(t._cdf, t._logpdf), sp.ndtri)
beta._ppf = _ppf.beta_ppf(beta._cdf, beta._logpdf)
chi2._ppf = _ppf.chi2_ppf(chi2._cdf, chi2._logpdf)
chi2._isf = _ppf.chi2_isf(chi2._sf, chi2._logpdf)
# (the symmetric ones' upper tail from their lower: no 1 - q rounding, as SciPy's _isf)
for _d in (norm, cauchy, logistic, laplace, t):
    _d._isf = (lambda ppf: lambda q, *shape: -ppf(q, *shape))(_d._ppf)
expon._isf = lambda q: -fnp.log(q)
# entropies in closed form (of the standardized distributions; entropy adds log(scale))
norm._entropy = lambda: 0.5 * math.log(2 * math.pi * math.e)
expon._entropy = lambda: 1.0
uniform._entropy = lambda: 0.0
laplace._entropy = lambda: 1.0 + math.log(2.0)
logistic._entropy = lambda: 2.0
cauchy._entropy = lambda: math.log(4 * math.pi)
gamma._entropy = lambda a: a + sp.gammaln(a) + (1.0 - a) * sp.digamma(a)
chi2._entropy = lambda df: (math.log(2.0) + gamma._entropy(df * 0.5))
beta._entropy = lambda a, b: (sp.betaln(a, b) - (a - 1.0) * sp.digamma(a)
                              - (b - 1.0) * sp.digamma(b) + (a + b - 2.0) * sp.digamma(a + b))
beta._isf = lambda q, a, b: 1.0 - beta._ppf(q, b, a)   # (X ~ beta(a, b): 1 - X ~ beta(b, a))
for _d in (t, cauchy, laplace, logistic, expon, gamma, beta, chi2, uniform):
    _params = ", ".join(["2.5"] * len(_d.shapes) + ["scale=s"])
    _d.__doc__ = f"""SciPy's ``{_d.name}`` distribution (parameters: {", ".join(
        _d.shapes + ("loc", "scale"))}).

>>> import funcgrad as fg
>>> g = fg.grad(lambda s: {_d.name}.logpdf(0.5, {_params}))(1.5)  # d/dscale
"""
del _d, _params


def _integer(k):
    return fnp.equal(k, fnp.floor(k))


def _binom_logpmf(k, n, p):
    inside = fnp.logical_and(_integer(k), fnp.logical_and(fnp.greater_equal(k, 0),
                                                          fnp.less_equal(k, n)))
    s = fnp.where(inside, k, 0.0)
    return _support(inside, sp.gammaln(n + 1.0) - sp.gammaln(s + 1.0) - sp.gammaln(n - s + 1.0)
                    + sp.xlogy(s, p) + sp.xlog1py(n - s, -p))


def _counts(k):
    inside = fnp.logical_and(_integer(k), fnp.greater_equal(k, 0))
    return inside, fnp.where(inside, k, 0.0)


def _poisson_logpmf(k, mu):
    inside, s = _counts(k)
    return _support(inside, sp.xlogy(s, mu) - mu - sp.gammaln(s + 1.0))


def _nbinom_logpmf(k, n, p):
    inside, s = _counts(k)
    return _support(inside, sp.gammaln(n + s) - sp.gammaln(s + 1.0) - sp.gammaln(n)
                    + sp.xlogy(n, p) + sp.xlog1py(s, -p))


def _geom_logpmf(k, p):
    inside = fnp.logical_and(_integer(k), fnp.greater_equal(k, 1))
    s = fnp.where(inside, k, 1.0)
    return _support(inside, sp.xlog1py(s - 1.0, -p) + fnp.log(p))


def _count_cdf(k, cdf_inside):
    """``cdf_inside(floor(k))`` for ``k >= 0``, 0 below."""
    inside = fnp.greater_equal(k, 0)
    return fnp.where(inside, cdf_inside(fnp.floor(fnp.where(inside, k, 0.0))), 0.0)


def _binom_sf(k, n, p):
    c = fnp.floor(fnp.clip(k, 0.0, n - 1.0))
    return fnp.where(fnp.less(k, 0), 1.0, fnp.where(fnp.greater_equal(k, n), 0.0,
                                                    sp.betainc(c + 1.0, n - c, p)))


def _poisson_entropy(mu):
    """``-sum p log p`` over a window of counts around ``mu`` (40 standard deviations
    wide) for ``mu <= 1000`` (relative error below 1e-12: ``log p`` is a difference of
    terms near ``mu log mu``); beyond, the asymptotic series ``log(2 pi e mu) / 2 - 1/(12
    mu) - 1/(24 mu^2) - 19/(360 mu^3)``, whose next term is below 1e-13 there (SciPy's own
    sum loses accuracy past a few thousand)."""
    positive = fnp.greater(mu, 0)
    near = fnp.logical_and(positive, fnp.less_equal(mu, 1000.0))
    m = fnp.where(near, mu, 1.0)
    start = fnp.maximum(fnp.floor(_stop_gradient(m)) - 1300.0, 0.0)
    k = fnp.expand_dims(start, -1) + np.arange(2601.0)  # (the window: constant counts)
    mm = fnp.expand_dims(m, -1)
    log_p = sp.xlogy(k, mm) - mm - sp.gammaln(k + 1.0)
    series = -fnp.sum(fnp.exp(log_p) * log_p, axis=-1)
    big = fnp.where(near, 2000.0, fnp.where(positive, mu, 2000.0))
    asymptotic = (0.5 * fnp.log(2 * math.pi * math.e * big) - 1.0 / (12.0 * big)
                  - 1.0 / (24.0 * big ** 2) - 19.0 / (360.0 * big ** 3))
    return fnp.where(near, series, fnp.where(positive, asymptotic, 0.0 * mu))


poisson = rv_discrete(
    "poisson", shapes=("mu",), _logpmf=_poisson_logpmf,
    _valid=lambda mu: fnp.greater_equal(mu, 0),
    _cdf=lambda k, mu: _count_cdf(k, lambda c: sp.gammaincc(c + 1.0, mu)),
    # (the upper tail directly, not 1 - cdf: isf far in it needs its digits)
    _sf=lambda k, mu: fnp.where(fnp.less(k, 0), 1.0, sp.gammainc(
        fnp.floor(fnp.maximum(k, 0.0)) + 1.0, mu)),
    _entropy=_poisson_entropy)
bernoulli = rv_discrete(
    "bernoulli", shapes=("p",),
    _valid=lambda p: _all(fnp.greater_equal(p, 0), fnp.less_equal(p, 1)),
    _logpmf=lambda k, p: _binom_logpmf(k, 1.0, p),
    _cdf=lambda k, p: fnp.where(fnp.less(k, 0), 0.0, fnp.where(fnp.less(k, 1), 1.0 - p, 1.0)),
    _sf=lambda k, p: fnp.where(fnp.less(k, 0), 1.0, fnp.where(fnp.less(k, 1), p, 0.0)))
binom = rv_discrete(
    "binom", shapes=("n", "p"), _logpmf=_binom_logpmf,
    _valid=lambda n, p: _all(fnp.greater_equal(n, 0), _integer(n), fnp.greater_equal(p, 0),
                             fnp.less_equal(p, 1)),
    _cdf=lambda k, n, p: fnp.where(fnp.greater_equal(k, n), 1.0, _count_cdf(
        k, lambda c: sp.betainc(n - c, c + 1.0, 1.0 - p))),
    _sf=lambda k, n, p: _binom_sf(k, n, p))
geom = rv_discrete(
    "geom", shapes=("p",), _logpmf=_geom_logpmf,
    _valid=lambda p: _all(fnp.greater(p, 0), fnp.less_equal(p, 1)),
    _cdf=lambda k, p: fnp.where(fnp.less(k, 1), 0.0, -fnp.expm1(
        fnp.floor(fnp.maximum(k, 1.0)) * fnp.log1p(-p))),
    _sf=lambda k, p: fnp.where(fnp.less(k, 1), 1.0, fnp.exp(
        fnp.floor(fnp.maximum(k, 1.0)) * fnp.log1p(-p))))
nbinom = rv_discrete(
    "nbinom", shapes=("n", "p"), _logpmf=_nbinom_logpmf,
    _valid=lambda n, p: _all(fnp.greater(n, 0), fnp.greater(p, 0), fnp.less_equal(p, 1)),
    # (k = inf: the whole mass, where betainc(n, inf, p) is NaN)
    _cdf=lambda k, n, p: fnp.where(fnp.isposinf(k), 1.0, _count_cdf(
        fnp.where(fnp.isposinf(k), 0.0, k), lambda c: sp.betainc(n, c + 1.0, p))),
    _sf=lambda k, n, p: fnp.where(fnp.less(k, 0), 1.0, fnp.where(fnp.isposinf(k), 0.0, _count_cdf(
        fnp.where(fnp.isposinf(k), 0.0, k), lambda c: sp.betainc(c + 1.0, n, 1.0 - p)))))
# (the supports the quantiles search: see _discrete_quantiles)
for _d, _bounds in ((bernoulli, lambda p: (0.0, 1.0)), (binom, lambda n, p: (0.0, n))):
    _d._bounds, _d._bounded = _bounds, True
geom._bounds = lambda p: (1.0, _INF)
for _d in (poisson, bernoulli, binom, geom, nbinom):
    _params = {"binom": "5, p", "nbinom": "3.0, p"}.get(_d.name, "p")  # (p: the last shape)
    _d.__doc__ = f"""SciPy's ``{_d.name}`` distribution (parameters: {', '.join(
        _d.shapes + ('loc',))}): ``logpmf``, ``pmf``, ``cdf``, ``sf``, ``ppf``, ``isf``.

>>> import funcgrad as fg
>>> g = fg.grad(lambda p: {_d.name}.logpmf(1.0, {_params}))(0.4)
"""
del _d, _params, _bounds


from .._mvn import dirichlet, multivariate_normal  # noqa: E402,F401

# (the means, variances and more entropies, from their tables: see _moments)
for _name, (_mean, _var) in _moments.MOMENTS.items():
    globals()[_name]._mean, globals()[_name]._var = _mean, _var
for _name, _entropy in _moments.ENTROPIES.items():
    globals()[_name]._entropy = _entropy
del _name, _mean, _var, _entropy


# (imported last: multivariate_normal's entropy method is a different function)
from .._stats_summary import (entropy, gmean, hmean, kurtosis, moment, skew,  # noqa: E402,F401
                             variation, zscore)

# (more distributions, each declared in its own module: see their docstrings)
from .._statsdists_closed import (anglit, arcsine, bradford, cosine, dweibull,  # noqa: E402,F401
                                 genextreme, genpareto, hypsecant, powerlaw, semicircular,
                                 trapezoid, triang)
from .._statsdists_tails import (alpha, burr, burr12, crystalball, exponpow,  # noqa: E402,F401
                                exponweib, fisk, foldcauchy, genlogistic, gompertz,
                                halflogistic, kappa3, levy, levy_l, loguniform, moyal,
                                reciprocal, truncexpon, weibull_max)
from .._statsdists_special import (betaprime, chi, erlang, exponnorm, foldnorm,  # noqa: E402,F401
                                  gengamma, invgauss, loggamma, maxwell, nakagami, rice,
                                  skewnorm, wald)
from .._statsdists_discrete import (betanbinom, boltzmann, dlaplace, hypergeom,  # noqa: E402,F401
                                   logser, planck, randint, skellam, yulesimon, zipf, zipfian)
from .. import (_statsdists_closed, _statsdists_discrete, _statsdists_special,  # noqa: E402
               _statsdists_tails)
__all__ += (_statsdists_closed.__all__ + _statsdists_tails.__all__ + _statsdists_special.__all__
            + _statsdists_discrete.__all__)
from . import qmc  # noqa: E402,F401  (SciPy's scipy.stats.qmc)

# (hypothesis tests: equal spread, ranks and counts, p-values; see their modules)
from .._statshyp_spread import alexandergovern, bartlett, levene  # noqa: E402,F401
from .._statshyp_ranks import (ansari, brunnermunzel, bws_test,  # noqa: E402,F401
                               chatterjeexi, cramervonmises_2samp, fligner,
                               friedmanchisquare, kruskal, median_test, mood,
                               page_trend_test)
from .._statshyp_pvalues import combine_pvalues, false_discovery_control  # noqa: E402,F401
from .._statshyp_pvalues import __getattr__ as _warning_classes  # noqa: E402
from .._statshyp_counts import (anderson_ksamp, barnard_exact, binomtest,  # noqa: E402,F401
                                boschloo_exact, dunnett, fisher_exact, logrank,
                                multiscale_graphcorr, poisson_means_test, quantile_test)
from .. import (_statshyp_counts, _statshyp_pvalues, _statshyp_ranks,  # noqa: E402
                _statshyp_spread)
__all__ += (_statshyp_spread.__all__ + _statshyp_ranks.__all__ + _statshyp_pvalues.__all__
            + _statshyp_pvalues.SCIPY_CLASSES + _statshyp_counts.__all__)
from . import contingency  # noqa: E402
from .contingency import chi2_contingency  # noqa: E402,F401
__all__ += ["chi2_contingency", "contingency"]
from .._statshyp_fit import anderson, cramervonmises, epps_singleton_2samp  # noqa: E402,F401
from .. import _statshyp_fit  # noqa: E402
__all__ += _statshyp_fit.__all__

# (session 23: the noncentral distributions and more, each module's docstring says how)
from .._statsdists2_noncentral import ncf, nct, ncx2  # noqa: E402,F401
from .._statsdists2_closed import (dgamma, fatiguelife, genexpon,  # noqa: E402,F401
                                   genhalflogistic, gibrat, invweibull, johnsonsb, johnsonsu,
                                   laplace_asymmetric, loglaplace, powerlognorm, powernorm)
from .._statsdists2_more import argus, jf_skew_t, kstwobign, mielke  # noqa: E402,F401
from .._statsdists2_discrete import nhypergeom  # noqa: E402,F401
from .. import (_statsdists2_closed, _statsdists2_discrete, _statsdists2_more,  # noqa: E402
                _statsdists2_noncentral)
__all__ += (_statsdists2_noncentral.__all__ + _statsdists2_closed.__all__
            + _statsdists2_more.__all__ + _statsdists2_discrete.__all__)

# (resampling, descriptive and transformation functions: see their modules)
from .._statsresample_bootstrap import bootstrap  # noqa: E402,F401
from .._statsresample_tests import monte_carlo_test, permutation_test  # noqa: E402,F401
from .._statsresample_tests import SCIPY_CLASSES as _SCIPY_CLASSES  # noqa: E402
from .._statsresample_tests import __getattr__ as _resample_classes  # noqa: E402
from .._statsresample_ecdf import ecdf  # noqa: E402,F401
from .._statsresample_binned import (binned_statistic, binned_statistic_2d,  # noqa: E402,F401
                                     binned_statistic_dd, cumfreq, relfreq)
from .._statsresample_transform import (boxcox, boxcox_llf, boxcox_normmax,  # noqa: E402,F401
                                        yeojohnson, yeojohnson_llf, yeojohnson_normmax)
from .._statsresample_descriptive import (circmean, circstd, circvar,  # noqa: E402,F401
                                          directional_stats, expectile, kstat, kstatvar)
from .._statsresample_quantile import quantile  # noqa: E402,F401
from .._statsresample_moments import (differential_entropy, energy_distance,  # noqa: E402,F401
                                      lmoment, obrientransform, wasserstein_distance)
from .._statshyp_ranks import ranksums, tiecorrect  # noqa: E402,F401
from .._statsresample_probplot import bayes_mvs, mvsdist, ppcc_max, probplot  # noqa: E402,F401
from .._statsresample_fit import fit  # noqa: E402,F401
from .._statsresample_gof import goodness_of_fit  # noqa: E402,F401
__all__ += ["bootstrap", "permutation_test", "monte_carlo_test"] + list(_SCIPY_CLASSES)
__all__ += ["ecdf", "binned_statistic", "binned_statistic_2d", "binned_statistic_dd",
            "cumfreq", "relfreq", "boxcox", "boxcox_llf", "boxcox_normmax", "yeojohnson",
            "yeojohnson_llf", "yeojohnson_normmax", "circmean", "circvar", "circstd",
            "directional_stats", "kstat", "kstatvar", "expectile", "quantile", "lmoment",
            "differential_entropy", "energy_distance", "obrientransform", "probplot",
            "ppcc_max", "mvsdist", "bayes_mvs", "fit", "goodness_of_fit",
            "wasserstein_distance"]
# (SciPy 1.15+'s distribution infrastructure: Normal(mu=...), make_distribution...)
from .._statsinfra_transform import ContinuousDistribution  # noqa: E402,F401
from .._statsinfra_families import Logistic, Normal, Uniform  # noqa: E402,F401
from .._statsinfra_make import make_distribution  # noqa: E402,F401
from .._statsinfra_transform import abs, exp, log  # noqa: E402,F401,A001
from .._statsinfra_truncate import order_statistic, truncate  # noqa: E402,F401
from .._statsinfra_mixture import Mixture  # noqa: E402,F401
from .._statsinfra_discrete import Binomial, DiscreteDistribution  # noqa: E402,F401
__all__ += ["ContinuousDistribution", "Normal", "Uniform", "Logistic", "make_distribution",
            "truncate", "abs", "exp", "log", "Mixture", "order_statistic",
            "DiscreteDistribution", "Binomial"]

# (session 24: multivariate distributions, see the _statsmv_* modules)
from .._statsmv_wishart import invwishart, wishart  # noqa: E402,F401
from .._statsmv_matrix import matrix_normal, matrix_t  # noqa: E402,F401
from .._statsmv_discrete import (dirichlet_multinomial,  # noqa: E402,F401
                                  multivariate_hypergeom, random_table)
from .._statsmv_nig import normal_inverse_gamma  # noqa: E402,F401
from .._statsmv_directional import uniform_direction, vonmises_fisher  # noqa: E402,F401
from .._statsmv_groups import (ortho_group, random_correlation,  # noqa: E402,F401
                               special_ortho_group, unitary_group)
from .._statsmv_covariance import Covariance  # noqa: E402,F401
__all__ += ["wishart", "invwishart", "matrix_normal", "matrix_t", "multivariate_hypergeom",
            "dirichlet_multinomial", "normal_inverse_gamma", "vonmises_fisher",
            "uniform_direction", "ortho_group", "special_ortho_group", "unitary_group",
            "random_correlation", "Covariance", "random_table"]

# (session 24: more distributions, each module's docstring says how)
from .._statsdists3_pearson import pearson3  # noqa: E402,F401
from .._statsdists3_closed import (halfgennorm, rdist, recipinvgauss,  # noqa: E402,F401
                                   skewcauchy, truncpareto, truncweibull_min)
from .._statsdists3_more import dpareto_lognorm, kappa4, rel_breitwigner  # noqa: E402,F401
from .._statsdists3_tukey import tukeylambda  # noqa: E402,F401
from .._statsdists3_histogram import rv_histogram  # noqa: E402,F401
from .._statsdists3_irwinhall import irwinhall  # noqa: E402,F401
from .._statsdists3_discrete import nchypergeom_fisher, poisson_binom  # noqa: E402,F401
from .. import (_statsdists3_closed, _statsdists3_discrete,  # noqa: E402
                _statsdists3_histogram, _statsdists3_irwinhall, _statsdists3_more,
                _statsdists3_pearson, _statsdists3_tukey)
__all__ += (_statsdists3_pearson.__all__ + _statsdists3_closed.__all__
            + _statsdists3_more.__all__ + _statsdists3_tukey.__all__
            + _statsdists3_histogram.__all__ + _statsdists3_irwinhall.__all__
            + _statsdists3_discrete.__all__)
from .._statsdists4_bessel import geninvgauss, norminvgauss  # noqa: E402,F401
from .. import _statsdists4_bessel  # noqa: E402
from .._statsdists4_vonmises import vonmises_line  # noqa: E402,F401
from .. import _statsdists4_vonmises  # noqa: E402
__all__ += _statsdists4_bessel.__all__ + _statsdists4_vonmises.__all__


def __getattr__(name: str) -> Any:
    # SciPy's warning classes and resampling methods, loaded with SciPy on first use
    if name in _statshyp_pvalues.SCIPY_CLASSES:
        return _warning_classes(name)
    return _resample_classes(name)

# (session 24: normality, Tukey's HSD, ordinal association, optimal transport)
from .._statsmisc_normality import shapiro  # noqa: E402,F401
from .._statsmisc_tukey import tukey_hsd  # noqa: E402,F401
from .._statsmisc_ordinal import somersd, weightedtau  # noqa: E402,F401
from .._statsmisc_transport import wasserstein_distance_nd  # noqa: E402,F401
__all__ += ["shapiro", "tukey_hsd", "somersd", "weightedtau", "wasserstein_distance_nd"]
from .._statsmisc_normality import (boxcox_normplot, ppcc_plot,  # noqa: E402,F401
                                    yeojohnson_normplot)
from .._statsmisc_sobol import sobol_indices  # noqa: E402,F401
from .._statsmisc_power import power  # noqa: E402,F401
__all__ += ["sobol_indices", "power", "boxcox_normplot", "yeojohnson_normplot", "ppcc_plot"]
from . import mstats  # noqa: E402  (SciPy's scipy.stats.mstats)
__all__ += ["mstats"]

# (session 25: the remaining distributions and spearmanrho, see the _statsrest_* modules)
from .._statsrest_gausshyper import gausshyper  # noqa: E402,F401
from .._statsrest_genhyperbolic import genhyperbolic  # noqa: E402,F401
from .._statsrest_scipyvalued import landau, levy_stable, studentized_range  # noqa: E402,F401
from .._statsrest_wallenius import nchypergeom_wallenius  # noqa: E402,F401
from .._statsrest_spearmanrho import spearmanrho  # noqa: E402,F401
__all__ += ["gausshyper", "genhyperbolic", "landau", "levy_stable", "studentized_range",
            "nchypergeom_wallenius", "spearmanrho"]

# (session 25: distribution fitting, censored data)
from .._distn_censored import CensoredData  # noqa: E402,F401
__all__ += ["CensoredData"]
