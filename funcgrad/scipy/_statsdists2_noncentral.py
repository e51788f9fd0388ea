"""The noncentral distributions of :mod:`funcgrad.scipy.stats` (re-exported there):
``ncx2`` (chi-square), ``nct`` (Student's t) and ``ncf`` (Fisher's F).

Their distribution functions are :mod:`._special_noncentral`'s Poisson-mixture series
(both tails summed directly); ``ncx2``'s and ``ncf``'s densities are the same mixtures
of central densities, summed in logs; ``nct``'s is its CDF's derivative in ``t`` (the
series differentiated term by term: no difference of two CDFs, and differentiable
again).  The quantiles are SciPy's (``chndtrix``, ``nctdtrit``, ``ncfdtri``, the values
of SciPy's own ``ppf``), the upper quantiles (``isf``) the series' survival function
inverted numerically (:mod:`._statsdists_quantiles`); both differentiate by the
implicit function theorem.  Every method differentiates in ``x``, the shapes, ``loc``
and ``scale`` (the second derivative in a degree of freedom is ``gammainc``'s or
``betainc``'s to refuse).  The entropies (numerical integrals in SciPy) are not offered.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete
from ..primitives.structural import stop_gradient
from . import special as sp
from ._distn import _positive, _support, rv_continuous
from ._special_noncentral import _broadcast, _weights, _window, ncf_tail, nct_tail, ncx2_tail
from ._statsdists_closed import document
from ._statsdists_quantiles import numeric_quantiles

__all__ = ["ncx2", "nct", "ncf"]

_LOG_2 = math.log(2.0)


def _log_mixture(name, mu, low_peak, high_peak, log_term):
    """``log sum_j Poisson(j; mu) exp(log_term(j))`` over the series' window: in logs
    (shifted by the largest term) for ``mu > 0``; at ``mu = 0`` by the weights' Taylor
    form, whose derivatives in ``mu`` are right there."""
    j, unreached = _window(name, mu, low_peak, high_peak)
    m = mu[..., None]
    positive = fnp.greater(m, 0)
    mp, zero = fnp.where(positive, m, 1.0), fnp.where(positive, 0.0, m)
    logs = j * fnp.log(mp) - mp - sp.gammaln(j + 1.0) + log_term(j)
    shift = stop_gradient(fnp.max(logs, axis=-1, keepdims=True))
    shift = fnp.where(fnp.isfinite(shift), shift, 0.0)
    in_logs = fnp.log(fnp.sum(fnp.exp(logs - shift), axis=-1)) + shift[..., 0]
    at_zero = fnp.log(fnp.sum(_weights(zero, j) * fnp.exp(log_term(j)), axis=-1))
    total = fnp.where(positive[..., 0], in_logs, at_zero)
    return total if unreached is None else fnp.where(unreached, math.nan, total)


# --- ncx2(df, nc) -------------------------------------------------------------------------------

_BESSEL_BEYOND = 4000.0  # (where the series' terms peak past this index)


def _ncx2_bessel(u, df, nc):
    """``log pdf`` by the Bessel form ``exp(-(x + nc)/2) (x/nc)**(df/4 - 1/2)
    I_{df/2-1}(sqrt(nc x)) / 2``, for ``x`` so far out that the series would need more
    than ``_BESSEL_BEYOND`` terms (``ive`` has no derivative in its order: there the
    derivative in ``df`` raises NotImplementedError)."""
    root = fnp.sqrt(nc * u)
    return (-0.5 * (u + nc) + (0.25 * df - 0.5) * fnp.log(u / nc) - _LOG_2
            + fnp.log(sp.ive(0.5 * df - 1.0, root)) + root)


def _ncx2_logpdf(z, df, nc):
    inside, u = _positive(z)
    u, df, nc = _broadcast(u, df, nc)
    a = df * 0.5
    peak = 0.5 * (fnp.sqrt(a * a + 2.0 * nc * u) - a)
    bessel = None
    if is_concrete(peak) and np.any(concrete_values(peak, "", "") > _BESSEL_BEYOND):
        far_out = peak > _BESSEL_BEYOND
        bessel = _ncx2_bessel(fnp.where(far_out, u, 1.0), df, fnp.where(far_out, nc, 1.0))
        u = fnp.where(far_out, 1.0, u)
    y = u * 0.5

    def far(m):  # (as chndtr's: the terms peak near j (a + j) = mu y far out)
        return 0.5 * (fnp.sqrt(a * a + 4.0 * m * y) - a)

    def log_term(j):  # the chi-square density with df + 2j degrees of freedom
        s = a[..., None] + j
        return (s - 1.0) * fnp.log(y[..., None]) - y[..., None] - sp.gammaln(s) - _LOG_2
    value = _log_mixture("ncx2", nc * 0.5, far, far, log_term)
    if bessel is not None:
        value = fnp.where(far_out, bessel, value)
    return _support(inside, value)


def _ncx2_tail(upper):
    def f(z, df, nc):
        inside, u = _positive(z)
        return fnp.where(inside, ncx2_tail(u, df, nc, upper), 1.0 if upper else 0.0)
    return f


ncx2 = rv_continuous(
    "ncx2", shapes=("df", "nc"),
    _valid=lambda df, nc: fnp.logical_and(fnp.logical_and(fnp.greater(df, 0),
                                                          fnp.isfinite(df)),
                                          fnp.logical_and(fnp.greater_equal(nc, 0),
                                                          fnp.isfinite(nc))),
    _logpdf=_ncx2_logpdf, _cdf=_ncx2_tail(False), _sf=_ncx2_tail(True),
    _ppf=lambda q, df, nc: sp.chndtrix(q, df, nc),
    _mean=lambda df, nc: df + nc, _var=lambda df, nc: 2.0 * (df + 2.0 * nc))


# --- nct(df, nc) --------------------------------------------------------------------------------

def _nct_logpdf(z, df, nc):
    # (at t = 0 the CDF is its Taylor series, so the slope and its derivatives hold there)
    from ..forward_mode import _jvp
    z, df, nc = _broadcast(z, df, nc)
    density = _jvp(lambda s: nct_tail(s, df, nc, False), (z,), (fnp.ones_like(z),), False,
                   "jvp")[1]
    return fnp.log(density)


def _nct_mean(df, nc):
    finite = fnp.greater(df, 1)
    d = fnp.where(finite, df, 3.0)
    value = nc * fnp.sqrt(0.5 * d) * fnp.exp(sp.gammaln(0.5 * (d - 1.0)) - sp.gammaln(0.5 * d))
    return fnp.where(finite, value, math.nan)  # (SciPy's: NaN, not inf, for df <= 1)


def _nct_var(df, nc):
    finite = fnp.greater(df, 2)
    d = fnp.where(finite, df, 3.0)
    value = d * (1.0 + nc * nc) / (d - 2.0) - _nct_mean(d, nc) ** 2
    return fnp.where(finite, value, math.nan)


def _nct_ppf(q, df, nc):
    # (SciPy's nctdtrit gives inf at q = 0: the support's ends here, as SciPy's nct.ppf)
    value = sp.nctdtrit(df, nc, fnp.where(fnp.logical_and(q > 0, q < 1), q, 0.5))
    return fnp.where(q == 0, -math.inf, fnp.where(q == 1, math.inf, value))


nct = rv_continuous(
    "nct", shapes=("df", "nc"),
    _valid=lambda df, nc: fnp.logical_and(fnp.greater(df, 0), fnp.isfinite(nc)),
    _logpdf=_nct_logpdf, _cdf=lambda z, df, nc: nct_tail(z, df, nc, False),
    _sf=lambda z, df, nc: nct_tail(z, df, nc, True), _ppf=_nct_ppf,
    _mean=_nct_mean, _var=_nct_var)


# --- ncf(dfn, dfd, nc) --------------------------------------------------------------------------

def _ncf_logpdf(z, dfn, dfd, nc):
    inside, u = _positive(z)
    u, dfn, dfd, nc = _broadcast(u, dfn, dfd, nc)
    a, b = dfn * 0.5, dfd * 0.5
    w = dfn * u / dfd
    x = w / (1.0 + w)

    def far(m):  # (as ncfdtr's)
        return fnp.minimum(fnp.sqrt(m * (a + b)), m + dfn * u + 10.0)

    def near(m):
        return m * x

    def log_term(j):  # (dfn/dfd) times the beta-prime density of w, shapes (a + j, b)
        s, bb, ww = a[..., None] + j, b[..., None], w[..., None]
        return (fnp.log(dfn / dfd)[..., None] + (s - 1.0) * fnp.log(ww)
                - (s + bb) * fnp.log1p(ww) - sp.betaln(s, bb))
    return _support(inside, _log_mixture("ncf", nc * 0.5, near, far, log_term))


def _ncf_tail(upper):
    def f(z, dfn, dfd, nc):
        inside, u = _positive(z)
        return fnp.where(inside, ncf_tail(u, dfn, dfd, nc, upper), 1.0 if upper else 0.0)
    return f


def _ncf_mean(dfn, dfd, nc):
    finite = fnp.greater(dfd, 2)
    d = fnp.where(finite, dfd, 3.0)
    return fnp.where(finite, d * (dfn + nc) / (dfn * (d - 2.0)), math.nan)


def _ncf_var(dfn, dfd, nc):
    finite = fnp.greater(dfd, 4)
    d = fnp.where(finite, dfd, 5.0)
    value = (2.0 * (d / dfn) ** 2 * ((dfn + nc) ** 2 + (dfn + 2.0 * nc) * (d - 2.0))
             / ((d - 2.0) ** 2 * (d - 4.0)))
    return fnp.where(finite, value, math.nan)


ncf = rv_continuous(
    "ncf", shapes=("dfn", "dfd", "nc"),
    _valid=lambda dfn, dfd, nc: fnp.logical_and(
        fnp.logical_and(fnp.greater(dfn, 0), fnp.greater(dfd, 0)),
        fnp.logical_and(fnp.greater_equal(nc, 0), fnp.isfinite(nc))),
    _logpdf=_ncf_logpdf, _cdf=_ncf_tail(False), _sf=_ncf_tail(True),
    _ppf=lambda q, dfn, dfd, nc: sp.ncfdtri(dfn, dfd, nc, q),
    _mean=_ncf_mean, _var=_ncf_var)

for _d, _kind in ((ncx2, "positive"), (nct, "line"), (ncf, "positive")):
    _d._isf = numeric_quantiles(_d, _kind)[1]
del _d, _kind

document(globals(), {"ncx2": ((2.5, 1.3), 0.5), "nct": ((3.5, 0.7), 0.5),
                     "ncf": ((2.5, 6.5, 1.3), 0.5)})
