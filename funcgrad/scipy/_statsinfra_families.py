"""SciPy's distribution families of the new infrastructure: ``Normal`` (and
``StandardNormal``, what ``Normal()`` makes), ``Uniform`` and ``Logistic``, with SciPy's
formulas (so SciPy's values to a few ulp) written with differentiable operations, and
SciPy's samplers drawn as ``loc + scale * (standard draw)`` (the same numbers for the same
``rng``; differentiable in the parameters)."""
import math
from fractions import Fraction
from typing import Any

import numpy as np

from .. import numpy as fnp
from . import special as sp
from ._statsinfra_policies import parameter
from ._statsinfra_transform import ContinuousDistribution

__all__ = ["Normal", "Uniform", "Logistic"]

_INF = math.inf
_LOG_2PI_HALF = math.log(2 * math.pi) / 2
_ONE_OVER_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


def _odd_double_factorial(n):
    """``(n - 1)!!`` for even ``n``: the even moments of the standard normal."""
    out = 1
    for k in range(n - 1, 0, -2):
        out *= k
    return out


def _bernoulli(n):
    """The Bernoulli number ``B_n`` (Akiyama-Tanigawa), exact."""
    a = [Fraction(0)] * (n + 1)
    for m in range(n + 1):
        a[m] = Fraction(1, m + 1)
        for j in range(m, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
    return a[0]


class Normal(ContinuousDistribution):
    """The normal distribution with mean ``mu`` and standard deviation ``sigma``
    (``Normal()`` is the standard one), differentiable in ``mu``, ``sigma`` and ``x``.

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> X = fst.Normal(mu=1.0, sigma=2.0)
    >>> float(X.cdf(1.0)), float(fg.grad(lambda s: fst.Normal(mu=0.0, sigma=s).entropy())(2.0))
    (0.5, 0.5)
    """

    _parameterizations = [{"mu": (-_INF, _INF), "sigma": (0.0, _INF)}]
    _variable = (-_INF, _INF)
    mu = parameter("mu", "The mean.")
    sigma = parameter("sigma", "The standard deviation.")

    def __new__(cls, mu: Any = None, sigma: Any = None, **kwargs: Any) -> "Normal":
        if cls is Normal and mu is None and sigma is None:
            return super().__new__(StandardNormal)
        return super().__new__(cls)

    def __init__(self, *, mu: Any = 0.0, sigma: Any = 1.0, **kwargs: Any) -> None:
        super().__init__(mu=mu, sigma=sigma, **kwargs)

    def _logpdf_formula(self, x, *, mu, sigma, **kwargs):
        return StandardNormal._logpdf_formula(self, (x - mu) / sigma) - fnp.log(sigma)

    def _pdf_formula(self, x, *, mu, sigma, **kwargs):
        return StandardNormal._pdf_formula(self, (x - mu) / sigma) / sigma

    def _logcdf_formula(self, x, *, mu, sigma, **kwargs):
        return sp.log_ndtr((x - mu) / sigma)

    def _cdf_formula(self, x, *, mu, sigma, **kwargs):
        return sp.ndtr((x - mu) / sigma)

    def _logccdf_formula(self, x, *, mu, sigma, **kwargs):
        return sp.log_ndtr(-((x - mu) / sigma))

    def _ccdf_formula(self, x, *, mu, sigma, **kwargs):
        return sp.ndtr(-((x - mu) / sigma))

    def _icdf_formula(self, p, *, mu, sigma, **kwargs):
        return sp.ndtri(p) * sigma + mu

    def _ilogcdf_formula(self, logp, *, mu, sigma, **kwargs):
        return sp.ndtri_exp(logp) * sigma + mu

    def _iccdf_formula(self, p, *, mu, sigma, **kwargs):
        return -sp.ndtri(p) * sigma + mu

    def _ilogccdf_formula(self, logp, *, mu, sigma, **kwargs):
        return -sp.ndtri_exp(logp) * sigma + mu

    def _entropy_formula(self, *, mu, sigma, **kwargs):
        return (1 + math.log(2 * math.pi)) / 2 + fnp.log(fnp.abs(sigma))

    def _median_formula(self, *, mu, sigma, **kwargs):
        return mu

    def _mode_formula(self, *, mu, sigma, **kwargs):
        return mu

    def _moment_raw_formula(self, order, *, mu, sigma, **kwargs):
        return {0: fnp.ones_like(mu), 1: mu}.get(order)

    def _moment_central_formula(self, order, *, mu, sigma, **kwargs):
        if order == 0:
            return fnp.ones_like(mu)
        if order % 2:
            return fnp.zeros_like(mu)
        return sigma ** order * _odd_double_factorial(order)

    def _sample_formula(self, full_shape, *, rng, mu, sigma, **kwargs):
        # numpy's normal(loc, scale) is loc + scale * standard_normal(), draw by draw
        return mu + sigma * rng.standard_normal(size=full_shape)


class StandardNormal(Normal):
    """The standard normal distribution, what ``Normal()`` makes.

    >>> import funcgrad.scipy.stats as fst
    >>> fst.Normal()
    StandardNormal()
    """

    _parameterizations = []
    mu = np.float64(0.0)
    sigma = np.float64(1.0)

    def __init__(self, **kwargs: Any) -> None:
        ContinuousDistribution.__init__(self, **kwargs)

    def _logpdf_formula(self, x, **kwargs):
        return -(_LOG_2PI_HALF + x ** 2 / 2)

    def _pdf_formula(self, x, **kwargs):
        return _ONE_OVER_SQRT_2PI * fnp.exp(-x ** 2 / 2)

    def _logcdf_formula(self, x, **kwargs):
        return sp.log_ndtr(x)

    def _cdf_formula(self, x, **kwargs):
        return sp.ndtr(x)

    def _logccdf_formula(self, x, **kwargs):
        return sp.log_ndtr(-x)

    def _ccdf_formula(self, x, **kwargs):
        return sp.ndtr(-x)

    def _icdf_formula(self, p, **kwargs):
        return sp.ndtri(p)

    def _ilogcdf_formula(self, logp, **kwargs):
        return sp.ndtri_exp(logp)

    def _iccdf_formula(self, p, **kwargs):
        return -sp.ndtri(p)

    def _ilogccdf_formula(self, logp, **kwargs):
        return -sp.ndtri_exp(logp)

    def _entropy_formula(self, **kwargs):
        return (1 + math.log(2 * math.pi)) / 2

    def _median_formula(self, **kwargs):
        return 0.0

    def _mode_formula(self, **kwargs):
        return 0.0

    def _moment_raw_formula(self, order, **kwargs):
        return {0: 1.0, 1: 0.0, 2: 1.0, 3: 0.0, 4: 3.0, 5: 0.0}.get(order)

    _moment_central_formula = _moment_raw_formula
    _moment_standardized_formula = _moment_raw_formula

    def _sample_formula(self, full_shape, *, rng, **kwargs):
        return rng.normal(size=full_shape)


class Logistic(ContinuousDistribution):
    """The standard logistic distribution (shift and scale it: ``Logistic()*s + m``).

    >>> import funcgrad.scipy.stats as fst
    >>> float(fst.Logistic().cdf(0.0)), float(fst.Logistic().variance())
    (0.5, 3.2898681336964524)
    """

    _parameterizations = ()
    _variable = (-_INF, _INF)
    _scale = math.pi / math.sqrt(3)

    def _logpdf_formula(self, x, **kwargs):
        y = -fnp.abs(x)
        return y - 2 * fnp.log1p(fnp.exp(y))

    def _pdf_formula(self, x, **kwargs):
        return (0.5 / fnp.cosh(x / 2)) ** 2  # sech(x/2)**2 / 4

    def _logcdf_formula(self, x, **kwargs):
        return sp.log_expit(x)

    def _cdf_formula(self, x, **kwargs):
        return sp.expit(x)

    def _logccdf_formula(self, x, **kwargs):
        return sp.log_expit(-x)

    def _ccdf_formula(self, x, **kwargs):
        return sp.expit(-x)

    def _icdf_formula(self, p, **kwargs):
        return sp.logit(p)

    def _iccdf_formula(self, p, **kwargs):
        return -sp.logit(p)

    def _entropy_formula(self, **kwargs):
        return 2.0

    def _median_formula(self, **kwargs):
        return 0.0

    def _mode_formula(self, **kwargs):
        return 0.0

    def _moment_raw_formula(self, order, **kwargs):
        n = int(order)
        if n % 2:
            return 0.0
        return math.pi ** n * abs((2 ** n - 2) * float(_bernoulli(n)))

    _moment_central_formula = _moment_raw_formula

    def _moment_standardized_formula(self, order, **kwargs):
        return self._moment_raw_formula(order) / self._scale ** order

    def _sample_formula(self, full_shape, *, rng, **kwargs):
        return rng.logistic(size=full_shape)


class Uniform(ContinuousDistribution):
    """The uniform distribution on ``[a, b]``, differentiable in ``a``, ``b`` and ``x``.

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> float(fg.grad(lambda b: fst.Uniform(a=0.0, b=b).cdf(1.0))(4.0))
    -0.0625
    """

    _parameterizations = [{"a": (-_INF, _INF), "b": ("a", _INF)}]
    _variable = {"endpoints": ("a", "b"), "inclusive": (True, True)}
    a = parameter("a", "The left end of the support.")
    b = parameter("b", "The right end of the support.")
    ab = parameter("ab", "The width of the support, ``b - a``.")

    def __init__(self, *, a: Any = None, b: Any = None, **kwargs: Any) -> None:
        super().__init__(a=a, b=b, **kwargs)

    def _process_parameters(self, a=None, b=None, ab=None, **kwargs):
        return dict(kwargs, a=a, b=b, ab=b - a)

    def _logpdf_formula(self, x, *, ab, **kwargs):
        return fnp.where(fnp.isnan(x), math.nan, -fnp.log(ab))

    def _pdf_formula(self, x, *, ab, **kwargs):
        return fnp.where(fnp.isnan(x), math.nan, 1 / ab)

    def _logcdf_formula(self, x, *, a, ab, **kwargs):
        return fnp.log(x - a) - fnp.log(ab)

    def _cdf_formula(self, x, *, a, ab, **kwargs):
        return (x - a) / ab

    def _logccdf_formula(self, x, *, b, ab, **kwargs):
        return fnp.log(b - x) - fnp.log(ab)

    def _ccdf_formula(self, x, *, b, ab, **kwargs):
        return (b - x) / ab

    def _icdf_formula(self, p, *, a, ab, **kwargs):
        return a + ab * p

    def _iccdf_formula(self, p, *, b, ab, **kwargs):
        return b - ab * p

    def _entropy_formula(self, *, ab, **kwargs):
        return fnp.log(ab)

    def _mode_formula(self, *, a, ab, **kwargs):
        return a + 0.5 * ab

    _median_formula = _mode_formula

    def _moment_raw_formula(self, order, *, a, b, ab, **kwargs):
        return (b ** (order + 1) - a ** (order + 1)) / ((order + 1) * ab)

    def _moment_central_formula(self, order, *, ab, **kwargs):
        return ab ** 2 / 12 if order == 2 else None

    def _sample_formula(self, full_shape, *, rng, a, ab, **kwargs):
        # numpy's uniform(a, b) is a + (b - a) * random(), draw by draw
        return a + ab * rng.random(size=full_shape)
