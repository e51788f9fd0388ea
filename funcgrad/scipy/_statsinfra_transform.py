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
from ._statsinfra_dispatch import recentre

__all__ = ["ContinuousDistribution"]


class ContinuousDistribution(UnivariateDistribution):
    """The base class of SciPy's continuous distribution families (``Normal``,
    ``Uniform``...): subclass it with ``_parameterizations``, ``_variable`` and
    ``_X_formula`` methods, as SciPy's own, and each public method follows.

    >>> import funcgrad.scipy.stats as fst
    >>> Y = 2.0 * fst.Uniform(a=0.0, b=1.0) + 1.0
    >>> Y.support(), float(Y.mean())
    ((np.float64(1.0), np.float64(3.0)), 2.0)
    """

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

    def _unsupported(self, what):
        raise NotImplementedError(f"{what} of a random variable is not implemented in "
                                  f"funcgrad.scipy.stats yet (SciPy's transformed "
                                  f"distributions); use scipy.stats for values without "
                                  f"derivatives")

    def __abs__(self) -> Any:
        self._unsupported("abs")

    def __pow__(self, other: Any) -> Any:
        self._unsupported("A power")

    def __rpow__(self, other: Any) -> Any:
        self._unsupported("A power")

    def __rtruediv__(self, other: Any) -> Any:
        self._unsupported("Division by a random variable (the reciprocal)")


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
        if not isinstance(X, UnivariateDistribution):
            raise TypeError(f"ShiftedScaledDistribution shifts and scales a distribution "
                            f"of funcgrad.scipy.stats (Normal(), make_distribution(...)...); "
                            f"got {type(X).__name__}")
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

    def _logpdf_dispatch(self, x, **params):
        loc, scale, rest = self._split(params)
        return self._dist._logpdf_dispatch((x - loc) / scale, **rest) - \
            fnp.log(fnp.abs(scale))

    def _pdf_dispatch(self, x, **params):
        loc, scale, rest = self._split(params)
        return self._dist._pdf_dispatch((x - loc) / scale, **rest) / fnp.abs(scale)

    def _turned(self, name, other, x, params):
        loc, scale, rest = self._split(params)
        z = (x - loc) / scale
        return self._either(scale, lambda: getattr(self._dist, name)(z, **rest),
                            lambda: getattr(self._dist, other)(z, **rest))

    def _cdf_dispatch(self, x, **params):
        return self._turned("_cdf_dispatch", "_ccdf_dispatch", x, params)

    def _ccdf_dispatch(self, x, **params):
        return self._turned("_ccdf_dispatch", "_cdf_dispatch", x, params)

    def _logcdf_dispatch(self, x, **params):
        return self._turned("_logcdf_dispatch", "_logccdf_dispatch", x, params)

    def _logccdf_dispatch(self, x, **params):
        return self._turned("_logccdf_dispatch", "_logcdf_dispatch", x, params)

    def _quantile(self, name, other, p, params):
        loc, scale, rest = self._split(params)
        z = self._either(scale, lambda: getattr(self._dist, name)(p, **rest),
                         lambda: getattr(self._dist, other)(p, **rest))
        return z * scale + loc

    def _icdf_dispatch(self, p, **params):
        return self._quantile("_icdf_dispatch", "_iccdf_dispatch", p, params)

    def _iccdf_dispatch(self, p, **params):
        return self._quantile("_iccdf_dispatch", "_icdf_dispatch", p, params)

    def _ilogcdf_dispatch(self, p, **params):
        return self._quantile("_ilogcdf_dispatch", "_ilogccdf_dispatch", p, params)

    def _ilogccdf_dispatch(self, p, **params):
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
