"""``ContinuousDistribution`` (the base of ``Normal``, ``Uniform``... and of what
``make_distribution`` makes) with SciPy's arithmetic on random variables: ``X*2 + 1``,
``-X``, ``X/s`` are :class:`ShiftedScaledDistribution`\\ s, differentiable in ``loc`` and
``scale`` as in the parameters of ``X``."""
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete, operand
from ..typing import ArrayLike
from ._statsinfra_core import UnivariateDistribution, _Domain, _known_false, _scalar
from ._statsinfra_dispatch import log_interval, recentre

__all__ = ["ContinuousDistribution", "abs", "exp", "log"]


class ContinuousDistribution(UnivariateDistribution):
    """The base class of SciPy's continuous distribution families (``Normal``,
    ``Uniform``...): subclass it with ``_parameterizations``, ``_variable`` and
    ``_X_formula`` methods, as SciPy's own, and each public method follows.

    >>> import funcgrad.scipy.stats as fst
    >>> Y = 2.0 * fst.Uniform(a=0.0, b=1.0) + 1.0
    >>> Y.support(), float(Y.mean())
    ((np.float64(1.0), np.float64(3.0)), 2.0)
    """

    def pmf(self, x: ArrayLike, /, *, method: Any = None) -> Any:
        """The probability mass at ``x``: 0 everywhere for a continuous distribution, as
        SciPy's (broadcast with the parameters).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal(mu=1.0, sigma=2.0).pmf(1.0))
        0.0
        """
        x, _ = self._argument(x, "pmf")
        return _scalar(fnp.zeros(x.shape, x.dtype))

    def logpmf(self, x: ArrayLike, /, *, method: Any = None) -> Any:
        """The log of :meth:`pmf`: ``-inf`` everywhere, as SciPy's.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal().logpmf(0.0))
        -inf
        """
        x, _ = self._argument(x, "logpmf")
        return _scalar(fnp.full(x.shape, -math.inf, x.dtype))

    def __add__(self, loc: ArrayLike) -> "ShiftedScaledDistribution":
        return ShiftedScaledDistribution(self, loc=loc)

    def __sub__(self, loc: ArrayLike) -> "ShiftedScaledDistribution":
        return ShiftedScaledDistribution(self, loc=-fnp.asarray(operand(loc)))

    def __mul__(self, scale: ArrayLike) -> "ShiftedScaledDistribution":
        return ShiftedScaledDistribution(self, scale=scale)

    def __truediv__(self, scale: ArrayLike) -> "ShiftedScaledDistribution":
        return ShiftedScaledDistribution(self, scale=1.0 / fnp.asarray(operand(scale)))

    def __radd__(self, other: ArrayLike) -> "ShiftedScaledDistribution":
        return self.__add__(other)

    def __rsub__(self, other: ArrayLike) -> "ShiftedScaledDistribution":
        return self.__neg__().__add__(other)

    def __rmul__(self, other: ArrayLike) -> "ShiftedScaledDistribution":
        return self.__mul__(other)

    def __neg__(self) -> "ShiftedScaledDistribution":
        return self * -1.0

    def __abs__(self) -> "FoldedDistribution":
        return FoldedDistribution(self)

    def __pow__(self, other: Any) -> "MonotonicTransformedDistribution":
        if not isinstance(other, (int, float, np.integer, np.floating)) or other <= 0 \
                or other != int(other):
            raise NotImplementedError("Raising a random variable to the power of an "
                                      "argument is only implemented when the argument is a "
                                      "positive integer.")
        n = int(other)
        with np.printoptions(threshold=10):
            pattern = f"({self!r})**{other!r}"
        return MonotonicTransformedDistribution(
            abs(self) if n % 2 == 0 else self, g=lambda u: u ** n,
            h=lambda u: fnp.sign(u) * fnp.abs(u) ** (1 / n),
            dh=lambda u: fnp.abs(u) ** (1 / n - 1) / n, repr_pattern=pattern)

    def __rtruediv__(self, other: Any) -> Any:
        a, b = (concrete_values(e, "1/X", "") for e in self._support_arrays())
        if not (np.all(a >= 0) or np.all(b <= 0)):
            raise NotImplementedError("Division by a random variable is only implemented "
                                      "when the support is either non-negative or "
                                      "non-positive.")
        with np.printoptions(threshold=10):
            pattern = f"{other!r}/({self!r})"
        out = MonotonicTransformedDistribution(
            self, g=lambda u: 1 / u, h=lambda u: 1 / u, dh=lambda u: 1 / u ** 2,
            increasing=False, repr_pattern=pattern)
        return out if np.all(np.asarray(other) == 1) else out * other

    def __rpow__(self, other: Any) -> "MonotonicTransformedDistribution":
        if not isinstance(other, (int, float, np.integer, np.floating)) or other <= 0 \
                or other == 1:
            raise NotImplementedError("Raising an argument to the power of a random "
                                      "variable is only implemented when the argument is a "
                                      "positive scalar other than 1.")
        log_base = math.log(other)
        with np.printoptions(threshold=10):
            pattern = f"{other!r}**({self!r})"
        return MonotonicTransformedDistribution(
            self, g=lambda u: other ** u, h=lambda u: fnp.log(u) / log_base,
            dh=lambda u: 1 / fnp.abs(u * log_base), increasing=bool(other > 1),
            repr_pattern=pattern)


def _continuous(X, what):
    """The check every transformation makes of the distribution it transforms."""
    if not isinstance(X, UnivariateDistribution):
        raise TypeError(f"{what} transforms a distribution of funcgrad.scipy.stats "
                        f"(Normal(), make_distribution(...)...); got {type(X).__name__}")
    if X._discrete:
        raise NotImplementedError("Transformations are currently only supported for "
                                  "continuous RVs.")


def _sign_known(scale):
    """``1`` or ``-1`` where ``scale`` is concrete and of one sign, else ``None``."""
    if not is_concrete(scale):
        return None
    values = concrete_values(scale, "", "")
    if np.all(values > 0):
        return 1
    if np.all(values < 0):
        return -1
    return None


class ShiftedScaledDistribution(ContinuousDistribution):
    """``scale * X + loc``: what ``X * 2 + 1`` makes (a negative ``scale`` turns the
    distribution around: its ``cdf`` is ``X``'s ``ccdf``).

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> float(fg.grad(lambda s: (fst.Normal() * s + 1.0).logpdf(1.0))(2.0))
    -0.5
    """

    def __init__(self, X: UnivariateDistribution, /, *, loc: Any = None,
                 scale: Any = None) -> None:
        _continuous(X, "ShiftedScaledDistribution")
        self._dist = X
        self.tol = X.tol
        self.validation_policy = X.validation_policy
        self.cache_policy = X.cache_policy
        # (the one not given is made like the other: a float32 scale keeps float32)
        loc = None if loc is None else fnp.asarray(operand(loc))
        scale = fnp.ones_like(loc) if scale is None else fnp.asarray(operand(scale))
        loc = fnp.zeros_like(scale) if loc is None else loc
        for name, v in (("loc", loc), ("scale", scale)):
            if v.dtype.kind not in "fiub":
                raise TypeError(f"Parameter `{name}` must be of real dtype; got {v.dtype}.")
        try:
            self._shape = tuple(np.broadcast_shapes(X._shape, loc.shape, scale.shape))
        except ValueError:
            raise ValueError(f"The shift (shape {tuple(loc.shape)}) and scale (shape "
                             f"{tuple(scale.shape)}) cannot be broadcast with the "
                             f"distribution's parameters (shape {X._shape}).") from None
        dtype = np.result_type(X._dtype, loc.dtype, scale.dtype, np.float16)
        self._dtype = np.dtype(dtype)
        # (broadcast, as SciPy's: Y.loc and Y.scale have the parameters' shape)
        loc, scale = (fnp.broadcast_to(fnp.astype(v, dtype), self._shape)
                      for v in (loc, scale))
        self._loc, self._scale = loc, scale
        invalid = fnp.logical_or(fnp.isnan(loc), fnp.isnan(scale))
        if X._invalid is not None:
            invalid = fnp.logical_or(invalid, X._invalid)
        self._invalid = None if _known_false(invalid) else invalid
        self._support_domain = _Domain((-math.inf, math.inf),
                                       X._support_domain.inclusive[::-1]
                                       if _sign_known(scale) == -1
                                       else X._support_domain.inclusive)
        self._parameters = dict(X._parameters, loc=loc, scale=scale)
        self._original_parameters = dict(X._original_parameters, loc=loc, scale=scale)

    @property
    def loc(self) -> Any:
        return _scalar(self._loc)

    @property
    def scale(self) -> Any:
        return _scalar(self._scale)

    def __add__(self, loc: ArrayLike) -> "ShiftedScaledDistribution":
        return ShiftedScaledDistribution(self._dist, loc=self._loc + operand(loc),
                                         scale=self._scale)

    def __sub__(self, loc: ArrayLike) -> "ShiftedScaledDistribution":
        return ShiftedScaledDistribution(self._dist, loc=self._loc - operand(loc),
                                         scale=self._scale)

    def __mul__(self, scale: ArrayLike) -> "ShiftedScaledDistribution":
        scale = operand(scale)
        return ShiftedScaledDistribution(self._dist, loc=self._loc * scale,
                                         scale=self._scale * scale)

    def __truediv__(self, scale: ArrayLike) -> "ShiftedScaledDistribution":
        scale = operand(scale)
        return ShiftedScaledDistribution(self._dist, loc=self._loc / scale,
                                         scale=self._scale / scale)

    def __repr__(self) -> str:
        return self._text(repr)

    def __str__(self) -> str:
        return self._text(str)

    def _text(self, show):
        loc, scale = self.loc, self.scale
        with np.printoptions(threshold=10):
            out = f"{show(scale)}*{show(self._dist)}"
            if is_concrete(loc):
                value = concrete_values(loc, "", "")
                if value.ndim == 0 and value < 0:
                    return out + f" - {show(_scalar(-np.asarray(value)))}"
                if not np.any(value != 0):
                    return out
            return out + f" + {show(loc)}"

    # ----- the methods, from X's ---------------------------------------------------

    @staticmethod
    def _split(params):
        params = dict(params)
        return params.pop("loc"), params.pop("scale"), params

    def _either(self, scale, positive, negative):
        """``positive()`` where ``scale > 0``, ``negative()`` where it is negative."""
        sign = _sign_known(scale)
        if sign == 1:
            return positive()
        if sign == -1:
            return negative()
        return fnp.where(fnp.greater(scale, 0), positive(), negative())

    def _support(self, **params):
        loc, scale, rest = self._split(params)
        a, b = self._dist._support(**rest)
        a, b = a * scale + loc, b * scale + loc
        return self._either(scale, lambda: a, lambda: b), \
            self._either(scale, lambda: b, lambda: a)

    def _logpdf_dispatch(self, x, /, **params):
        loc, scale, rest = self._split(params)
        return self._dist._logpdf_dispatch((x - loc) / scale, **rest) - \
            fnp.log(fnp.abs(scale))

    def _pdf_dispatch(self, x, /, **params):
        loc, scale, rest = self._split(params)
        return self._dist._pdf_dispatch((x - loc) / scale, **rest) / fnp.abs(scale)

    def _turned(self, name, other, x, params):
        loc, scale, rest = self._split(params)
        z = (x - loc) / scale
        return self._either(scale, lambda: getattr(self._dist, name)(z, **rest),
                            lambda: getattr(self._dist, other)(z, **rest))

    def _cdf_dispatch(self, x, /, **params):
        return self._turned("_cdf_dispatch", "_ccdf_dispatch", x, params)

    def _ccdf_dispatch(self, x, /, **params):
        return self._turned("_ccdf_dispatch", "_cdf_dispatch", x, params)

    def _logcdf_dispatch(self, x, /, **params):
        return self._turned("_logcdf_dispatch", "_logccdf_dispatch", x, params)

    def _logccdf_dispatch(self, x, /, **params):
        return self._turned("_logccdf_dispatch", "_logcdf_dispatch", x, params)

    def _quantile(self, name, other, p, params):
        loc, scale, rest = self._split(params)
        z = self._either(scale, lambda: getattr(self._dist, name)(p, **rest),
                         lambda: getattr(self._dist, other)(p, **rest))
        return z * scale + loc

    def _icdf_dispatch(self, p, /, **params):
        return self._quantile("_icdf_dispatch", "_iccdf_dispatch", p, params)

    def _iccdf_dispatch(self, p, /, **params):
        return self._quantile("_iccdf_dispatch", "_icdf_dispatch", p, params)

    def _ilogcdf_dispatch(self, p, /, **params):
        return self._quantile("_ilogcdf_dispatch", "_ilogccdf_dispatch", p, params)

    def _ilogccdf_dispatch(self, p, /, **params):
        return self._quantile("_ilogccdf_dispatch", "_ilogcdf_dispatch", p, params)

    def _entropy_dispatch(self, **params):
        loc, scale, rest = self._split(params)
        return self._dist._entropy_dispatch(**rest) + fnp.log(fnp.abs(scale))

    def _logentropy_dispatch(self, **params):
        return fnp.log(fnp.asarray(self._entropy_dispatch(**params)) + 0j)

    def _median_dispatch(self, **params):
        loc, scale, rest = self._split(params)
        return self._dist._median_dispatch(**rest) * scale + loc

    def _mode_dispatch(self, **params):
        loc, scale, rest = self._split(params)
        return self._dist._mode_dispatch(**rest) * scale + loc

    def _moment_raw(self, order, via, **params):
        loc, scale, rest = self._split(params)
        raw = [self._dist._moment_raw(i, via, **rest) for i in range(order + 1)]
        if any(m is None for m in raw):
            return None
        # the raw moments of scale*X are those of Y about loc
        return recentre(order, [m * scale ** i if i else m for i, m in enumerate(raw)],
                        loc, 0.0)

    def _moment_central(self, order, via, **params):
        loc, scale, rest = self._split(params)
        m = self._dist._moment_central(order, via, **rest)
        return None if m is None else m * scale ** order

    def _moment_standardized(self, order, via, **params):
        loc, scale, rest = self._split(params)
        m = self._dist._moment_standardized(order, via, **rest)
        return None if m is None else (m * fnp.sign(scale) ** order if order % 2 else m)

    def _sample_dispatch(self, full_shape, *, rng, **params):
        loc, scale, rest = self._split(params)
        return self._dist._sample_dispatch(full_shape, rng=rng, **rest) * scale + loc


class _Wrapped(ContinuousDistribution):
    """A distribution made from ``X`` and parameters of its own (``extra``), which the
    methods split off before asking ``X``."""

    def _wrap(self, X, extra, inclusive=None):
        _continuous(X, type(self).__name__)
        self._dist, self._extra = X, tuple(extra)
        self.tol, self.validation_policy, self.cache_policy = \
            X.tol, X.validation_policy, X.cache_policy
        self._shape = tuple(np.broadcast_shapes(X._shape, *[
            np.shape(v) for v in extra.values()]))
        self._dtype = np.dtype(np.result_type(X._dtype, *[
            fnp.asarray(v).dtype for v in extra.values()]))
        self._invalid = X._invalid
        self._support_domain = _Domain((-math.inf, math.inf),
                                       inclusive or X._support_domain.inclusive)
        self._parameters = dict(X._parameters, **extra)
        self._original_parameters = dict(X._original_parameters)

    def _missing(self, what="this quantity", formulas=()):
        return (f"`{type(self).__name__}` has no formula for {what}: SciPy integrates it "
                f"numerically, which funcgrad does not do; use SciPy for the value without "
                f"derivatives")

    def _own(self, params):
        params = dict(params)
        return [params.pop(k) for k in self._extra], params

    def __repr__(self) -> str:
        return self._text(repr)

    def __str__(self) -> str:
        return self._text(str)


class MonotonicTransformedDistribution(_Wrapped):
    """``Y = g(X)`` for a strictly monotonic ``g`` with inverse ``h`` and ``|h'| = dh``
    (what ``exp(X)``, ``log(X)``, ``X**3``, ``1/X`` and ``2**X`` make).

    >>> import funcgrad.scipy.stats as fst
    >>> Y = fst.exp(fst.Normal())
    >>> float(Y.median()), float(Y.cdf(1.0))
    (1.0, 0.5)
    """

    def __init__(self, X: UnivariateDistribution, /, *, g: Any, h: Any, dh: Any,
                 logdh: Any = None, increasing: bool = True,
                 repr_pattern: Any = None, str_pattern: Any = None) -> None:
        self._wrap(X, {}, None if increasing else X._support_domain.inclusive[::-1])
        self._g, self._h, self._dh = g, h, dh
        self._logdh = logdh if logdh is not None else (lambda u: fnp.log(dh(u)))
        self._increasing = increasing
        self._repr_pattern = repr_pattern or f"{getattr(g, '__name__', 'g')}(***)"
        self._str_pattern = str_pattern or self._repr_pattern

    def _text(self, show):
        with np.printoptions(threshold=10):
            pattern = self._repr_pattern if show is repr else self._str_pattern
            if "***" not in pattern:
                return pattern
            return pattern.replace("***", show(self._dist))

    def _pick(self, name):
        same, other = name, name.replace("ccdf", "@").replace("cdf", "ccdf").replace(
            "@", "cdf")
        return getattr(self._dist, same if self._increasing else other)

    def _support(self, **params):
        a, b = self._dist._support(**params)
        with np.errstate(divide="ignore"):
            a, b = self._g(fnp.asarray(a)), self._g(fnp.where(fnp.equal(b, 0), -0.0, b))
        return (a, b) if self._increasing else (b, a)

    def _logpdf_dispatch(self, x, /, **params):
        return self._dist._logpdf_dispatch(self._h(x), **params) + self._logdh(x)

    def _pdf_dispatch(self, x, /, **params):
        return self._dist._pdf_dispatch(self._h(x), **params) * self._dh(x)

    def _cdf_dispatch(self, x, /, **params):
        return self._pick("_cdf_dispatch")(self._h(x), **params)

    def _ccdf_dispatch(self, x, /, **params):
        return self._pick("_ccdf_dispatch")(self._h(x), **params)

    def _logcdf_dispatch(self, x, /, **params):
        return self._pick("_logcdf_dispatch")(self._h(x), **params)

    def _logccdf_dispatch(self, x, /, **params):
        return self._pick("_logccdf_dispatch")(self._h(x), **params)

    def _icdf_dispatch(self, p, /, **params):
        return self._g(self._pick("_icdf_dispatch")(p, **params))

    def _iccdf_dispatch(self, p, /, **params):
        return self._g(self._pick("_iccdf_dispatch")(p, **params))

    def _ilogcdf_dispatch(self, p, /, **params):
        return self._g(self._pick("_ilogcdf_dispatch")(p, **params))

    def _ilogccdf_dispatch(self, p, /, **params):
        return self._g(self._pick("_ilogccdf_dispatch")(p, **params))

    def _sample_dispatch(self, full_shape, *, rng, **params):
        return self._g(self._dist._sample_dispatch(full_shape, rng=rng, **params))

    # (SciPy integrates the moments and entropy of g(X) numerically: funcgrad has no
    # formula for them, and says so: _missing)
    def _moment_raw(self, order, via, **params):
        return 1.0 if order == 0 else None

    def _moment_central(self, order, via, **params):
        return {0: 1.0, 1: 0.0}.get(order)

    def _moment_standardized(self, order, via, **params):
        return {0: 1.0, 1: 0.0, 2: 1.0}.get(order)

    def _entropy_dispatch(self, **params):
        self._need("the entropy")


class FoldedDistribution(_Wrapped):
    """``Y = |X|`` (what ``abs(X)`` makes): its density is ``X``'s at ``y`` and ``-y``.

    >>> import funcgrad.scipy.stats as fst
    >>> round(float(abs(fst.Normal()).cdf(1.0)), 6)  # (the mass of [-1, 1])
    0.682689
    """

    def __init__(self, X: UnivariateDistribution, /) -> None:
        self._wrap(X, {}, (True, X._support_domain.inclusive[1]))

    def _text(self, show):
        with np.printoptions(threshold=10):
            return f"abs({show(self._dist)})"

    def _support(self, **params):
        a, b = (fnp.asarray(e) for e in self._dist._support(**params))
        lo, hi = fnp.minimum(fnp.abs(a), fnp.abs(b)), fnp.maximum(fnp.abs(a), fnp.abs(b))
        return fnp.where((a < 0) & (b > 0), 0.0, lo), hi

    def _both(self, method, x):
        x = fnp.abs(x)
        return self._dist._masked(method, x), self._dist._masked(method, -x)

    def _logpdf_dispatch(self, x, /, **params):
        right, left = self._both("logpdf", x)
        return fnp.logaddexp(left, right)

    def _pdf_dispatch(self, x, /, **params):
        right, left = self._both("pdf", x)
        return left + right

    def _logcdf_dispatch(self, x, /, **params):
        x = fnp.abs(x)
        X = self._dist
        return log_interval(-x, x, X._masked("logcdf", -x), X._masked("logcdf", x),
                            X._masked("logccdf", -x), X._masked("logccdf", x))

    def _cdf_dispatch(self, x, /, **params):
        return fnp.exp(self._logcdf_dispatch(x, **params))

    def _logccdf_dispatch(self, x, /, **params):
        x = fnp.abs(x)
        return fnp.logaddexp(self._dist._masked("logcdf", -x),
                             self._dist._masked("logccdf", x))

    def _ccdf_dispatch(self, x, /, **params):
        x = fnp.abs(x)
        return self._dist._masked("cdf", -x) + self._dist._masked("ccdf", x)

    def _sample_dispatch(self, full_shape, *, rng, **params):
        return fnp.abs(self._dist._sample_dispatch(full_shape, rng=rng, **params))

    _moment_raw = MonotonicTransformedDistribution._moment_raw
    _moment_central = MonotonicTransformedDistribution._moment_central
    _moment_standardized = MonotonicTransformedDistribution._moment_standardized
    _entropy_dispatch = MonotonicTransformedDistribution._entropy_dispatch


def exp(X: UnivariateDistribution, /) -> MonotonicTransformedDistribution:
    """The distribution of ``exp(X)``.

    >>> import funcgrad.scipy.stats as fst
    >>> round(float(fst.exp(fst.Normal(mu=0.0, sigma=0.5)).pdf(1.0)), 6)
    0.797885
    """
    return MonotonicTransformedDistribution(X, g=fnp.exp, h=fnp.log, dh=lambda u: 1 / u,
                                            logdh=lambda u: -fnp.log(u),
                                            repr_pattern="exp(***)")


def log(X: UnivariateDistribution, /) -> MonotonicTransformedDistribution:
    """The distribution of ``log(X)``, for ``X`` of non-negative support.

    >>> import funcgrad.scipy.stats as fst
    >>> float(fst.log(fst.Uniform(a=1.0, b=3.0)).cdf(0.0))
    0.0
    """
    a, _ = (concrete_values(e, "log(X)", "") for e in X._support_arrays())
    if np.any(a < 0):
        raise NotImplementedError("The logarithm of a random variable is only implemented "
                                  "when the support is non-negative.")
    return MonotonicTransformedDistribution(X, g=fnp.log, h=fnp.exp, dh=fnp.exp,
                                            logdh=lambda u: u, repr_pattern="log(***)")


def abs(X: UnivariateDistribution, /) -> FoldedDistribution:  # noqa: A001 (SciPy's name)
    """The distribution of ``|X|``.

    >>> import funcgrad.scipy.stats as fst
    >>> fst.abs(fst.Normal()).support()
    (np.float64(0.0), np.float64(inf))
    """
    return FoldedDistribution(X)

