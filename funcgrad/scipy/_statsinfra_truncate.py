"""``truncate`` and ``order_statistic``.  ``truncate``: a distribution of the new infrastructure restricted to ``[lb, ub]`` and
renormalized by the mass it keeps (computed from the log CDFs of whichever tail holds the
bounds, so a far tail keeps its digits); differentiable in ``lb``, ``ub`` and the
parameters of the distribution.  ``order_statistic``: SciPy's formulas through
``betainc`` and its inverses."""
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from . import special as sp
from ..numpy._convert import operand
from ..typing import ArrayLike
from ._statsinfra_core import UnivariateDistribution, _known_false, _scalar
from ._statsinfra_dispatch import log_interval
from ._statsinfra_transform import MonotonicTransformedDistribution, _Wrapped

__all__ = ["truncate", "order_statistic"]


class TruncatedDistribution(_Wrapped):
    """``X`` given ``lb <= X <= ub`` (what ``truncate`` makes): ``X``'s density over the
    mass it keeps, differentiable in ``lb`` and ``ub`` as in ``X``'s parameters.

    >>> import funcgrad.scipy.stats as fst
    >>> float(fst.truncate(fst.Normal(), lb=0.0).cdf(0.0))
    0.0
    """

    def __init__(self, X: UnivariateDistribution, /, *, lb: ArrayLike = -math.inf,
                 ub: ArrayLike = math.inf) -> None:
        lb, ub = fnp.asarray(operand(lb)), fnp.asarray(operand(ub))
        dtype = np.result_type(X._dtype, lb.dtype, ub.dtype, np.float16)
        lb, ub = fnp.astype(lb, dtype), fnp.astype(ub, dtype)
        self._lb, self._ub = lb, ub
        self._wrap(X, {"lb": lb, "ub": ub})
        shape = self._shape  # (lb and ub broadcast to it, as SciPy's)
        lb, ub = fnp.broadcast_to(lb, shape), fnp.broadcast_to(ub, shape)
        self._lb, self._ub = lb, ub
        invalid = fnp.logical_not(fnp.less(lb, ub))
        if X._invalid is not None:
            invalid = fnp.logical_or(invalid, X._invalid)
        self._invalid = None if _known_false(invalid) else invalid
        a, b = self._support(**self._parameters)
        log_mass = log_interval(a, b, X._masked("logcdf", a), X._masked("logcdf", b),
                                X._masked("logccdf", a), X._masked("logccdf", b))
        self._parameters.update(_a=a, _b=b, _logmass=log_mass)
        self._extra = ("lb", "ub", "_a", "_b", "_logmass")

    @property
    def lb(self) -> Any:
        return _scalar(self._lb)

    @property
    def ub(self) -> Any:
        return _scalar(self._ub)

    def _text(self, show):
        with np.printoptions(threshold=10):
            return f"truncate({show(self._dist)}, lb={show(self.lb)}, ub={show(self.ub)})"

    def _support(self, **params):
        rest = {k: v for k, v in params.items()
                if k not in ("lb", "ub", "_a", "_b", "_logmass")}
        a, b = self._dist._support(**rest)
        return fnp.maximum(a, params["lb"]), fnp.minimum(b, params["ub"])

    def _logpdf_dispatch(self, x, /, **params):
        (_, _, _, _, log_mass), rest = self._own(params)
        return self._dist._logpdf_dispatch(x, **rest) - log_mass

    def _pdf_dispatch(self, x, /, **params):
        return fnp.exp(self._logpdf_dispatch(x, **params))

    def _logcdf_dispatch(self, x, /, **params):
        (_, _, a, _, log_mass), rest = self._own(params)
        X = self._dist
        return log_interval(a, x, X._masked("logcdf", a), X._masked("logcdf", x),
                            X._masked("logccdf", a), X._masked("logccdf", x)) - log_mass

    def _logccdf_dispatch(self, x, /, **params):
        (_, _, _, b, log_mass), rest = self._own(params)
        X = self._dist
        return log_interval(x, b, X._masked("logcdf", x), X._masked("logcdf", b),
                            X._masked("logccdf", x), X._masked("logccdf", b)) - log_mass

    def _cdf_dispatch(self, x, /, **params):
        return fnp.exp(self._logcdf_dispatch(x, **params))

    def _ccdf_dispatch(self, x, /, **params):
        return fnp.exp(self._logccdf_dispatch(x, **params))

    def _icdf_dispatch(self, p, /, **params):
        (_, _, a, _, log_mass), rest = self._own(params)
        return self._dist._icdf_dispatch(self._dist._masked("cdf", a) + p * fnp.exp(log_mass),
                                         **rest)

    def _iccdf_dispatch(self, p, /, **params):
        (_, _, _, b, log_mass), rest = self._own(params)
        return self._dist._iccdf_dispatch(
            self._dist._masked("ccdf", b) + p * fnp.exp(log_mass), **rest)

    def _ilogcdf_dispatch(self, logp, /, **params):
        (_, _, a, _, log_mass), rest = self._own(params)
        return self._dist._ilogcdf_dispatch(
            fnp.logaddexp(self._dist._masked("logcdf", a), logp + log_mass), **rest)

    def _ilogccdf_dispatch(self, logp, /, **params):
        (_, _, _, b, log_mass), rest = self._own(params)
        return self._dist._ilogccdf_dispatch(
            fnp.logaddexp(self._dist._masked("logccdf", b), logp + log_mass), **rest)

    _moment_raw = MonotonicTransformedDistribution._moment_raw
    _moment_central = MonotonicTransformedDistribution._moment_central
    _moment_standardized = MonotonicTransformedDistribution._moment_standardized
    _entropy_dispatch = MonotonicTransformedDistribution._entropy_dispatch


def truncate(X: UnivariateDistribution, lb: ArrayLike = -math.inf,
             ub: ArrayLike = math.inf) -> TruncatedDistribution:
    """``X`` truncated to ``[lb, ub]`` and renormalized, as SciPy's ``truncate``.

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> T = fst.truncate(fst.Uniform(a=0.0, b=4.0), lb=1.0, ub=3.0)
    >>> float(T.pdf(2.0)), float(fg.grad(lambda u: fst.truncate(fst.Normal(), 0.0, u).cdf(0.5))(1.0)) < 0
    (0.5, True)
    """
    return TruncatedDistribution(X, lb=lb, ub=ub)


class OrderStatisticDistribution(_Wrapped):
    """The ``r``-th smallest of ``n`` independent draws of ``X`` (what
    ``order_statistic`` makes): ``cdf = betainc(r, n - r + 1, X.cdf)``.

    >>> import funcgrad.scipy.stats as fst
    >>> round(float(fst.order_statistic(fst.Uniform(a=0.0, b=1.0), r=1, n=2).cdf(0.5)), 12)
    0.75
    """

    def __init__(self, X: UnivariateDistribution, /, *, r: ArrayLike, n: ArrayLike) -> None:
        r, n = fnp.asarray(operand(r)), fnp.asarray(operand(n))
        dtype = np.result_type(X._dtype, r.dtype, n.dtype, np.float16)
        self._wrap(X, {"r": fnp.astype(r, dtype), "n": fnp.astype(n, dtype)})
        r, n = (fnp.broadcast_to(self._parameters[k], self._shape) for k in ("r", "n"))
        self._r, self._n = r, n
        valid = (fnp.greater_equal(r, 1) & fnp.less_equal(r, n) & fnp.equal(r, fnp.floor(r))
                 & fnp.equal(n, fnp.floor(n)) & fnp.isfinite(n))
        invalid = fnp.logical_not(valid)
        if X._invalid is not None:
            invalid = fnp.logical_or(invalid, X._invalid)
        self._invalid = None if _known_false(invalid) else invalid
        if self._invalid is not None:  # (valid stand-ins inside: NaN comes out at the end)
            self._parameters.update(r=fnp.where(invalid, 1.0, r), n=fnp.where(invalid, 1.0, n))
            self._r, self._n = (fnp.where(invalid, np.nan, v) for v in (r, n))

    @property
    def r(self) -> Any:
        return _scalar(self._r)

    @property
    def n(self) -> Any:
        return _scalar(self._n)

    def _text(self, show):
        with np.printoptions(threshold=10):
            return f"order_statistic({show(self._dist)}, r={show(self.r)}, n={show(self.n)})"

    def _support(self, **params):
        (_, _), rest = self._own(params)
        return self._dist._support(**rest)

    def _logpdf_formula(self, x, **params):
        (r, n), rest = self._own(params)
        X = self._dist
        log_f, log_F, log_S = (X._logpdf_dispatch(x, **rest), X._logcdf_dispatch(x, **rest),
                               X._logccdf_dispatch(x, **rest))
        # (0 * log 0 is 0 here: the smallest of n has no factor F**0 at F = 0)
        lower = fnp.where(fnp.equal(r, 1), 0.0, (r - 1) * log_F)
        upper = fnp.where(fnp.equal(n, r), 0.0, (n - r) * log_S)
        return log_f + lower + upper - sp.betaln(r, n - r + 1)

    def _cdf_formula(self, x, **params):
        (r, n), rest = self._own(params)
        return sp.betainc(r, n - r + 1, self._dist._cdf_dispatch(x, **rest))

    def _ccdf_formula(self, x, **params):
        # (SciPy's betaincc(r, n - r + 1, F) loses the digits of F near 1: the same by
        # symmetry from X's ccdf keeps them, and the upper tail's logcdf with them)
        (r, n), rest = self._own(params)
        return sp.betainc(n - r + 1, r, self._dist._ccdf_dispatch(x, **rest))

    def _icdf_formula(self, p, **params):
        (r, n), rest = self._own(params)
        return self._dist._icdf_dispatch(sp.betaincinv(r, n - r + 1, p), **rest)

    def _iccdf_formula(self, p, **params):
        (r, n), rest = self._own(params)
        return self._dist._icdf_dispatch(sp.betainccinv(r, n - r + 1, p), **rest)


def order_statistic(X: UnivariateDistribution, /, *, r: ArrayLike, n: ArrayLike
                    ) -> OrderStatisticDistribution:
    """The distribution of the ``r``-th smallest of ``n`` draws of ``X``, as SciPy's
    ``order_statistic``; differentiable in ``X``'s parameters and ``x``.

    >>> import funcgrad.scipy.stats as fst
    >>> float(fst.order_statistic(fst.Normal(), r=3, n=5).median())
    0.0
    """
    return OrderStatisticDistribution(X, r=r, n=n)
