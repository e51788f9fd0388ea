"""SciPy's ``tukeylambda(lam)`` distribution (re-exported by :mod:`funcgrad.scipy.stats`),
defined by its quantile function ``Q(p) = (p**lam - (1 - p)**lam) / lam`` (the logistic's
``logit p`` at ``lam = 0``: ``boxcox(p, lam) - boxcox1p(-p, lam)``, as SciPy's).

The CDF is ``Q``'s inverse: SciPy's ``tklmbda`` solves it numerically, here a safeguarded
Newton iteration in ``log p`` on the lower tail (the upper one by symmetry, ``1 - F(-x)``
evaluated as its own tail), differentiable by the implicit function theorem on
``Q(F(x)) = x`` (:func:`._ppf.quantile`): in ``x`` by ``1/Q'(p)``, in ``lam`` by
``-(dQ/dlam)/Q'(p)``.  The density is ``1 / Q'(F(x)) = 1 / (F**(lam-1) + S**(lam-1))``
with both tails solved (no ``1 - F`` in the far right).  The variance is
``2 (1/(1 + 2 lam) - B(lam + 1, lam + 1)) / lam**2`` written with ``D = log B + log(1 +
2 lam) = 2 gammaln(1 + lam) - gammaln(1 + 2 lam)``, ``D / lam**2`` from its Taylor series
(``zeta`` values) for ``|lam| < 0.075``: exact and smooth through ``lam = 0``, where SciPy
uses a [4/4] Pade approximation (3e-10 off; tested against the closed form).  The entropy
is SciPy's integral of the log of the quantile's slope over ``(0, 1)``, by tanh-sinh
(:mod:`._distn_entropy`), differentiable in ``lam``.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete
from . import special as sp
from ._distn import rv_continuous
from ._ppf import quantile
from ._statsdists_closed import document

__all__ = ["tukeylambda"]


def _quantile(p, lam):
    return sp.boxcox(p, lam) - sp.boxcox1p(-p, lam)


def _log_slope(p, lam):
    """``log Q'(p) = log(p**(lam-1) + (1 - p)**(lam-1))``."""
    return fnp.logaddexp((lam - 1.0) * fnp.log(p), (lam - 1.0) * fnp.log1p(-p))


_STEPS, _TRACED_STEPS = 200, 60  # (bounds: Newton converges in a handful of steps)


def _lower_tail_values(x, lam):
    """``p`` with ``Q(p) = x`` for ``x <= 0``: Newton in ``t = log p`` on ``[-745, log
    1/2]``, a bisection step wherever Newton leaves the bracket (on plain arrays until the
    steps are below rounding, traced a fixed number); 0 below the support (``x <= -1/lam``,
    ``lam > 0``)."""
    lo = -745.0 + 0.0 * (x + lam)
    hi = math.log(0.5) + 0.0 * lo
    t = fnp.clip(-fnp.logaddexp(0.0, -x), lo, hi)  # (the logistic's: exact at lam = 0)
    traced = not (is_concrete(x) and is_concrete(lam))
    with np.errstate(all="ignore"):
        for _ in range(_TRACED_STEPS if traced else _STEPS):
            p = fnp.exp(t)
            g = _quantile(p, lam) - x
            lo = fnp.where(fnp.less_equal(g, 0), t, lo)
            hi = fnp.where(fnp.greater_equal(g, 0), t, hi)
            step = t - g / (p ** lam + p * (1.0 - p) ** (lam - 1.0))  # (dQ/dt)
            inside = fnp.logical_and(fnp.greater(step, lo), fnp.less(step, hi))
            new = fnp.where(inside, step, 0.5 * (lo + hi))
            if not traced and bool(np.all(concrete_values(
                    fnp.logical_or(fnp.less_equal(fnp.abs(new - t), 1e-15 * fnp.abs(t)),
                                   fnp.less_equal(hi - lo, 1e-15 * fnp.abs(t))), "", ""))):
                t = new
                break
            t = new
        p = fnp.exp(t)
    positive = fnp.greater(lam, 0)
    below = fnp.logical_and(positive, fnp.less_equal(x, -1.0 / fnp.where(positive, lam, 1.0)))
    return fnp.where(below, 0.0, fnp.where(fnp.equal(x, 0), 0.5, p))


def _lower_tail(x, lam):
    """The CDF at ``x <= 0``, differentiable through ``Q(F) = x``."""
    return quantile("tukeylambda.cdf", _lower_tail_values, _quantile, _log_slope, x, [lam],
                    ["lam"])


def _tail(upper):
    def f(z, lam):
        left = fnp.less_equal(z, 0)
        near = _lower_tail(fnp.where(left, z, 0.0), lam)
        far = _lower_tail(fnp.where(left, 0.0, -z), lam)
        if upper:  # (sf(z) = cdf(-z))
            return fnp.where(left, 1.0 - near, far)
        return fnp.where(left, near, 1.0 - far)
    return f


def _logpdf(z, lam):
    left = fnp.less_equal(z, 0)
    # (the smaller tail from its own solve, the other 1 - it; no |z|, whose kink would
    # drop the second derivative at 0)
    near = _lower_tail(fnp.where(left, z, 0.0), lam)
    far = _lower_tail(fnp.where(left, 0.0, -z), lam)
    lower_p, upper_p = fnp.where(left, near, 1.0 - far), fnp.where(left, 1.0 - near, far)
    inside = fnp.logical_or(fnp.less_equal(lam, 0),
                            fnp.less(fnp.abs(z) * fnp.where(fnp.greater(lam, 0), lam, 1.0), 1))
    lp = fnp.where(inside, lower_p, 0.5)
    up = fnp.where(inside, upper_p, 0.5)
    value = -fnp.logaddexp((lam - 1.0) * fnp.log(lp), (lam - 1.0) * fnp.log(up))
    return fnp.where(inside, value, -math.inf)


# D(lam) / lam**2 = sum_{k>=2} (-1)**k zeta(k) (2 - 2**k) / k lam**(k-2)
_D_SERIES = [-1.6449340668482264, 2.4041138063191885, -3.7881313179889835, 6.22156653086022,
             -10.512544973839308, 18.150286992874612, -31.87945605928473, 56.780475593477995,
             -102.301645578063, 186.0919190803662, -341.2506231957703, 630.0773094089744,
             -1170.2145262106094, 2184.466816943389, -4095.9375942242555, 7710.058882793788,
             -14563.500037382837, 27594.0526552217, -52428.75001498929, 99864.33334285778,
             -190650.13636970092, 364722.0434821298, -699050.6250024727, 1342177.240001583]


def _var(lam):
    small = fnp.less(fnp.abs(lam), 0.075)
    s = fnp.where(small, lam, 0.0)
    series = 0.0 * s
    for c in reversed(_D_SERIES):
        series = series * s + c
    r = fnp.where(small, 1.0, lam)
    valid = fnp.greater(lam, -0.5)
    r = fnp.where(valid, r, 1.0)
    direct = (2.0 * sp.gammaln(1.0 + r) - sp.gammaln(1.0 + 2.0 * r)) / (r * r)
    d_over = fnp.where(small, series, direct)  # D / lam**2
    lam_v = fnp.where(valid, lam, 0.0)
    d = d_over * lam_v * lam_v
    value = -2.0 * d_over * sp.exprel(d) / (1.0 + 2.0 * lam_v)
    # (lam < -1/2: undefined, NaN; -1/2: inf, as SciPy's)
    return fnp.where(valid, value, fnp.where(fnp.equal(lam, -0.5), math.inf, math.nan))


def _ppf(q, lam):
    return _quantile(q, lam)


tukeylambda = rv_continuous(
    "tukeylambda", shapes=("lam",), _valid=lambda lam: fnp.isfinite(lam),
    _logpdf=_logpdf, _cdf=_tail(False), _sf=_tail(True),
    _ppf=_ppf, _isf=lambda q, lam: -_quantile(q, lam),
    _mean=lambda lam: 0.0 * lam, _var=_var)

document(globals(), {"tukeylambda": ((0.3,), 0.5)})
