"""The means, variances and entropies of :mod:`funcgrad.scipy.stats`' distributions,
standardized (``loc = 0``, ``scale = 1``), as functions of their shape parameters: the
tables behind ``mean``, ``var``, ``std`` and ``entropy`` (:class:`._distn.rv_continuous`).
Where a moment does not exist the value is SciPy's: ``inf`` for a divergent one, ``nan``
for an undefined one."""
import math

from .. import numpy as fnp
from . import special as sp

__all__ = ["MOMENTS", "ENTROPIES"]

_EULER = 0.5772156649015329  # (Euler's constant: the mean of gumbel_r)


def _above(s, bound, f, otherwise):
    """``f(s)`` where ``s > bound``, ``otherwise`` elsewhere (the double-where idiom:
    ``f`` sees a safe ``s``, so its poles at the bound put no NaN in a derivative)."""
    if isinstance(s, (int, float)):  # (a Python shape: one branch, float32 kept)
        return f(s) if s > bound else otherwise
    inside = fnp.greater(s, bound)
    return fnp.where(inside, f(fnp.where(inside, s, bound + 1.0)), otherwise)


def _normal_at_infinity(f, limit):
    """``f(df)``, but the normal distribution's ``limit`` at ``df = inf``, as SciPy's ``t``
    (``f`` sees a stand-in there: ``inf / inf`` is NaN)."""
    def g(df):
        if isinstance(df, (int, float)):
            return limit if math.isinf(df) else f(df)
        infinite = fnp.isinf(df)
        return fnp.where(infinite, limit, f(fnp.where(infinite, 3.0, df)))
    return g


def _t_var(df):
    # (the constant inf, not inf * d, whose slope times a zero cotangent would be NaN)
    return _above(df, 2.0, _normal_at_infinity(lambda d: d / (d - 2.0), 1.0),
                  _above(df, 1.0, lambda d: math.inf, math.nan))


def _beta_var(a, b):
    s = a + b
    return a * b / (s * s * (s + 1.0))


def _truncnorm_moments(a, b):
    """Mean and variance of the standard normal truncated to ``[a, b]``:
    ``(phi(a) - phi(b)) / Z`` and ``1 + (a phi(a) - b phi(b)) / Z - mean**2``."""
    def phi(z):  # (0 at +-inf, where a phi(a) is taken as 0 too)
        finite = fnp.isfinite(z)
        safe = fnp.where(finite, z, 0.0)
        return (fnp.where(finite, fnp.exp(-safe * safe * 0.5) / math.sqrt(2 * math.pi), 0.0),
                safe)
    (pa, sa), (pb, sb) = phi(a), phi(b)
    mass = sp.ndtr(b) - sp.ndtr(a)
    mean = (pa - pb) / mass
    return mean, 1.0 + (sa * pa - sb * pb) / mass - mean * mean


def _gennorm_var(beta):
    return fnp.exp(sp.gammaln(3.0 / beta) - sp.gammaln(1.0 / beta))


def _weibull_min_moments(c):
    m1 = fnp.exp(sp.gammaln(1.0 + 1.0 / c))
    return m1, fnp.exp(sp.gammaln(1.0 + 2.0 / c)) - m1 * m1


# name: (mean, variance) of the standardized distribution, functions of the shapes
MOMENTS = {
    "norm": (lambda: 0.0, lambda: 1.0),
    "t": (lambda df: _above(df, 1.0, _normal_at_infinity(lambda d: d * 0.0, 0.0), math.inf),
          _t_var),
    "cauchy": (lambda: math.nan, lambda: math.nan),
    "laplace": (lambda: 0.0, lambda: 2.0),
    "logistic": (lambda: 0.0, lambda: math.pi ** 2 / 3.0),
    "expon": (lambda: 1.0, lambda: 1.0),
    "gamma": (lambda a: a * 1.0, lambda a: a * 1.0),
    "beta": (lambda a, b: a / (a + b), _beta_var),
    "chi2": (lambda df: df * 1.0, lambda df: df * 2.0),
    "uniform": (lambda: 0.5, lambda: 1.0 / 12.0),
    "lognorm": (lambda s: fnp.exp(s * s * 0.5), lambda s: fnp.expm1(s * s) * fnp.exp(s * s)),
    "halfnorm": (lambda: math.sqrt(2.0 / math.pi), lambda: 1.0 - 2.0 / math.pi),
    "halfcauchy": (lambda: math.inf, lambda: math.inf),
    "weibull_min": (lambda c: _weibull_min_moments(c)[0],
                    lambda c: _weibull_min_moments(c)[1]),
    "pareto": (lambda b: _above(b, 1.0, lambda s: s / (s - 1.0), math.inf),
               lambda b: _above(b, 2.0, lambda s: s / ((s - 1.0) ** 2 * (s - 2.0)), math.inf)),
    "lomax": (lambda c: _above(c, 1.0, lambda s: 1.0 / (s - 1.0), math.inf),
              lambda c: _above(c, 2.0, lambda s: s / ((s - 1.0) ** 2 * (s - 2.0)), math.inf)),
    "rayleigh": (lambda: math.sqrt(math.pi / 2.0), lambda: (4.0 - math.pi) / 2.0),
    "gumbel_r": (lambda: _EULER, lambda: math.pi ** 2 / 6.0),
    "gumbel_l": (lambda: -_EULER, lambda: math.pi ** 2 / 6.0),
    "f": (lambda dfn, dfd: _above(dfd, 2.0, lambda s: s / (s - 2.0), math.inf) + dfn * 0.0,
          lambda dfn, dfd: _above(dfd, 4.0, lambda s: 2.0 * s * s * (dfn + s - 2.0) / (
              dfn * (s - 2.0) ** 2 * (s - 4.0)), math.inf)),
    "invgamma": (lambda a: _above(a, 1.0, lambda s: 1.0 / (s - 1.0), math.inf),
                 lambda a: _above(a, 2.0, lambda s: 1.0 / ((s - 1.0) ** 2 * (s - 2.0)),
                                  math.inf)),
    "truncnorm": (lambda a, b: _truncnorm_moments(a, b)[0],
                  lambda a, b: _truncnorm_moments(a, b)[1]),
    "gennorm": (lambda beta: beta * 0.0, _gennorm_var),
    # discrete (loc shifts the mean only)
    "poisson": (lambda mu: mu * 1.0, lambda mu: mu * 1.0),
    "bernoulli": (lambda p: p * 1.0, lambda p: p * (1.0 - p)),
    "binom": (lambda n, p: n * p, lambda n, p: n * p * (1.0 - p)),
    "geom": (lambda p: 1.0 / p, lambda p: (1.0 - p) / (p * p)),
    "nbinom": (lambda n, p: n * (1.0 - p) / p, lambda n, p: n * (1.0 - p) / (p * p)),
    "betabinom": (lambda n, a, b: n * a / (a + b),
                  lambda n, a, b: n * a * b * (a + b + n) / ((a + b) ** 2 * (a + b + 1.0))),
}


def _t_entropy_finite(df):
    half = (df + 1.0) * 0.5
    return (half * (sp.digamma(half) - sp.digamma(df * 0.5)) + 0.5 * fnp.log(df)
            + sp.betaln(df * 0.5, 0.5))


_t_entropy = _normal_at_infinity(_t_entropy_finite, 0.5 * math.log(2 * math.pi * math.e))


# name: the differential (or Shannon) entropy of the standardized distribution, in nats
# (entropy adds log(scale)); those not here have their own in stats
ENTROPIES = {
    "t": _t_entropy,
    "lognorm": lambda s: 0.5 + 0.5 * math.log(2 * math.pi) + fnp.log(s),
    "halfnorm": lambda: 0.5 * math.log(math.pi / 2.0) + 0.5,
    "halfcauchy": lambda: math.log(2 * math.pi),
    "weibull_min": lambda c: _EULER * (1.0 - 1.0 / c) - fnp.log(c) + 1.0,
    "pareto": lambda b: 1.0 + 1.0 / b - fnp.log(b),
    "lomax": lambda c: 1.0 + 1.0 / c - fnp.log(c),
    "rayleigh": lambda: 1.0 + _EULER * 0.5 - 0.5 * math.log(2.0),
    "gumbel_r": lambda: _EULER + 1.0,
    "gumbel_l": lambda: _EULER + 1.0,
    "invgamma": lambda a: a - (a + 1.0) * sp.digamma(a) + sp.gammaln(a),
    "f": lambda dfn, dfd: (sp.betaln(dfn * 0.5, dfd * 0.5) + fnp.log(dfd / dfn)
                           + (1.0 - dfn * 0.5) * sp.digamma(dfn * 0.5)
                           - (1.0 + dfd * 0.5) * sp.digamma(dfd * 0.5)
                           + (dfn + dfd) * 0.5 * sp.digamma((dfn + dfd) * 0.5)),
    "gennorm": lambda beta: 1.0 / beta - fnp.log(beta) + math.log(2.0) + sp.gammaln(1.0 / beta),
    "bernoulli": lambda p: sp.entr(p) + sp.entr(1.0 - p),
}
