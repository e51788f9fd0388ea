"""``DiscreteDistribution`` and ``Binomial`` of the new infrastructure: masses on the
integers (``pmf`` 0 between them), quantiles that are integers (no derivative); differentiable in the
continuous parameters (``Binomial``'s ``p``), through funcgrad's ``binom``."""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..typing import Array, ArrayLike
from . import special as sp
from ._distn import DISTRIBUTIONS
from ._statsinfra_core import UnivariateDistribution, _scalar
from ._statsinfra_policies import parameter

__all__ = ["DiscreteDistribution", "Binomial"]

_INF = math.inf


class DiscreteDistribution(UnivariateDistribution):
    """The base class of SciPy's discrete families (``Binomial``): ``pmf`` and
    ``logpmf`` from ``_pmf_formula``/``_logpmf_formula``, the rest as for continuous
    families (two-argument CDFs aside, which SciPy does not give either).

    >>> import funcgrad.scipy.stats as fst
    >>> X = fst.Binomial(n=10, p=0.3)
    >>> float(X.pmf(2.5)), float(X.icdf(0.5))
    (0.0, 3.0)
    """

    _discrete = True

    def _logpmf_dispatch(self, x, /, **params):
        if self._formula("logpmf"):
            return self._logpmf_formula(x, **params)
        if self._formula("pmf"):
            return fnp.log(self._pmf_formula(x, **params))
        self._need("logpmf", "logpmf", "pmf")

    def _pmf_dispatch(self, x, /, **params):
        if self._formula("pmf"):
            return self._pmf_formula(x, **params)
        if self._formula("logpmf"):
            return fnp.exp(self._logpmf_formula(x, **params))
        self._need("pmf", "logpmf", "pmf")

    def pmf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The probability mass at ``x`` (0 off the integers of the support).

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Binomial(n=2, p=0.5).pmf(1.0)), 12)
        0.5
        """
        return _scalar(self._masked("pmf", x))

    def logpmf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The logarithm of :meth:`pmf`.

        >>> import math, funcgrad.scipy.stats as fst
        >>> round(float(fst.Binomial(n=2, p=0.5).logpmf(1.0)), 12) == round(math.log(0.5), 12)
        True
        """
        return _scalar(self._masked("logpmf", x))

    def pdf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """SciPy's density of a discrete distribution: ``inf`` where there is mass (a
        point mass), else 0.

        >>> import funcgrad.scipy.stats as fst
        >>> fst.Binomial(n=2, p=0.5).pdf([0.5, 1.0])
        array([ 0., inf])
        """
        return _scalar(self._point_masses(x, 0.0))

    def logpdf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The logarithm of :meth:`pdf` (``inf`` or ``-inf``).

        >>> import funcgrad.scipy.stats as fst
        >>> fst.Binomial(n=2, p=0.5).logpdf([0.5, 1.0])
        array([-inf,  inf])
        """
        return _scalar(self._point_masses(x, -_INF))

    def _point_masses(self, x, elsewhere):
        pmf = self._masked("pmf", x)
        return fnp.where(fnp.greater(pmf, 0), _INF,
                         fnp.where(fnp.isnan(pmf), math.nan, elsewhere))

    def _two_unsupported(self, y):
        if y is not None:
            raise NotImplementedError("Two argument cdf functions are currently only "
                                      "supported for continuous distributions.")

    def cdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
            method: Any = None) -> Array:
        """The probability of ``X <= x`` (one argument only, as SciPy's).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Binomial(n=2, p=0.5).cdf(1.0))
        0.75
        """
        self._two_unsupported(y)
        return super().cdf(x)

    def logcdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
               method: Any = None) -> Array:
        """The logarithm of :meth:`cdf`.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Binomial(n=2, p=0.5).logcdf(5.0))
        0.0
        """
        self._two_unsupported(y)
        return super().logcdf(x)

    def ccdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
             method: Any = None) -> Array:
        """The probability of ``X > x``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Binomial(n=2, p=0.5).ccdf(1.0))
        0.25
        """
        self._two_unsupported(y)
        return super().ccdf(x)

    def logccdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
                method: Any = None) -> Array:
        """The logarithm of :meth:`ccdf`.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Binomial(n=2, p=0.5).logccdf(-1.0))
        0.0
        """
        self._two_unsupported(y)
        return super().logccdf(x)


def _no_arithmetic(self: Any, *args: Any) -> Any:
    raise NotImplementedError("Transformations are currently only supported for continuous "
                              "RVs.")


for _name in ("add", "radd", "sub", "rsub", "mul", "rmul", "truediv", "rtruediv", "pow",
              "rpow", "neg", "abs"):  # (SciPy's message for X + 1 of a discrete X)
    setattr(DiscreteDistribution, f"__{_name}__", _no_arithmetic)
del _name


class Binomial(DiscreteDistribution):
    """The number of successes in ``n`` trials of success probability ``p``;
    differentiable in ``p`` (``n`` counts: an integer, without derivative).

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> round(float(fg.grad(lambda p: fst.Binomial(n=10, p=p).mean())(0.3)), 12)
    10.0
    """

    _parameterizations = [{"n": (0.0, _INF), "p": (0.0, 1.0)}]
    _variable = {"endpoints": (0.0, "n"), "inclusive": (True, True)}
    n = parameter("n", "The number of trials.")
    p = parameter("p", "The probability of success in each trial.")

    def __init__(self, *, n: Any, p: Any, **kwargs: Any) -> None:
        super().__init__(n=n, p=p, **kwargs)

    def _parameter_validity(self, n, p, **params):
        return fnp.equal(n, fnp.floor(n))

    def _logpmf_formula(self, x, *, n, p, **params):
        with np.errstate(divide="ignore"):  # (binom's stand-in p = 1 where n, p are NaN)
            return DISTRIBUTIONS["binom"].logpmf(x, n, p)

    # (SciPy's Binomial takes its CDF between the integers from the incomplete beta
    # function too, as its _binom_cdf: not a step there)
    def _cdf_formula(self, x, *, n, p, **params):
        return sp.betainc(n - x, x + 1, 1 - p)

    def _ccdf_formula(self, x, *, n, p, **params):
        return sp.betainc(x + 1, n - x, p)

    def _icdf_formula(self, q, *, n, p, **params):
        return DISTRIBUTIONS["binom"].ppf(q, n, p)

    def _iccdf_formula(self, q, *, n, p, **params):
        return DISTRIBUTIONS["binom"].isf(q, n, p)

    def _mode_formula(self, *, n, p, **params):
        mode = fnp.floor((n + 1) * p)
        return fnp.where(fnp.equal(p, 1.0), mode - 1, mode)

    def _moment_raw_formula(self, order, *, n, p, **params):
        return {1: n * p, 2: n * p * (1 - p + n * p)}.get(order)

    def _moment_central_formula(self, order, *, n, p, **params):
        q = 1 - p
        return {1: fnp.zeros_like(n), 2: n * p * q, 3: n * p * q * (1 - 2 * p),
                4: n * p * q * (1 + (3 * n - 6) * p * q)}.get(order)

    def _entropy_formula(self, *, n, p, **params):
        # the sum over the support (SciPy's too); n counts, so its values are known
        top = int(np.nanmax(concrete_values(n, "Binomial.entropy", "Call it outside vmap "
                                            "and jit."), initial=0))
        k = np.arange(top + 1, dtype=float).reshape((-1,) + (1,) * len(self._shape))
        logpmf = self._masked("logpmf", k)
        mass = fnp.isfinite(logpmf)  # (double where: no 0 * -inf in the derivative)
        logpmf = fnp.where(mass, logpmf, 0.0)
        return -fnp.sum(fnp.where(mass, fnp.exp(logpmf) * logpmf, 0.0), axis=0)
