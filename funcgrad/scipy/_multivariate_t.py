"""``multivariate_t`` of :mod:`funcgrad.scipy.stats` (re-exported there): SciPy's
multivariate Student t distribution, ``logpdf``/``pdf`` differentiable in ``x``, ``loc``,
``shape`` and ``df``, and ``rvs`` differentiable in ``loc``, ``shape`` and ``df``."""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..primitives import incomplete as _inc
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import Array, ArrayLike
from . import special as sp
from ._distn import _multivariate_parameters, rv_frozen

__all__ = ["multivariate_t"]


def _random_state(seed):
    """A NumPy ``Generator`` from SciPy's ``seed``/``random_state`` argument."""
    if isinstance(seed, (np.random.Generator, np.random.RandomState)):
        return seed
    return np.random.default_rng(seed)


class _multivariate_t:
    """``multivariate_t.logpdf(x, loc=None, shape=1, df=1)``, ``pdf`` and
    ``rvs(loc=None, shape=1, df=1, size=1, random_state=None)``, with SciPy's conventions:
    the dimension comes from ``loc`` (else from ``shape``); the last axis of ``x`` is the
    variable (a 1-d ``x`` is one point, or ``n`` points where the dimension is 1);
    ``shape`` a positive definite matrix, a 1-d diagonal or a scalar times the identity;
    ``df = inf`` is the multivariate normal distribution; results squeezed.

    The density, ``Gamma((df + p)/2) / (Gamma(df/2) (df pi)**(p/2) |shape|**(1/2)) (1 +
    m/df)**(-(df + p)/2)`` with ``m`` the Mahalanobis distance through ``shape``'s Cholesky
    factor, differentiates in ``x``, ``loc``, ``shape`` (its symmetric part) and ``df``.
    A sample ``loc + L z / sqrt(w)`` (``z`` normal, ``w = chi2(df)/df``) differentiates in
    ``loc`` and ``shape`` by that formula and in ``df`` by implicit differentiation of
    ``w``'s gamma draw (``dg/da = -(dP/da)/(dP/dg)``, first order only).

    >>> import numpy as np, funcgrad as fg
    >>> round(float(multivariate_t.logpdf(np.zeros(2), shape=np.eye(2), df=3.0)), 12)
    -1.837877066409
    >>> g = fg.grad(lambda d: multivariate_t.logpdf(np.ones(2), shape=np.eye(2), df=d))(4.0)
    >>> multivariate_t.rvs(np.zeros(3), np.eye(3), df=5.0, size=4, random_state=0).shape
    (4, 3)
    """

    @staticmethod
    def _dimension(loc, shape):
        """``(loc, shape as a (d, d) matrix, d)``, ``loc`` zero where not given."""
        loc, shape, d = _multivariate_parameters("multivariate_t", loc, shape, "shape")
        if shape.ndim != 2:  # (the density and the draws take one matrix, as SciPy)
            raise ValueError(f"multivariate_t: shape has shape {tuple(shape.shape)} for {d} "
                             f"variables; give one ({d}, {d}) matrix, its diagonal or a scalar")
        if loc is None:
            loc = fnp.zeros(d, dtype=shape.dtype if shape.dtype.kind == "f" else np.float64)
        elif loc.ndim == 0:
            loc = fnp.reshape(loc, (1,))
        elif loc.ndim != 1:
            raise ValueError(f"multivariate_t: loc must be 1-d, got shape {tuple(loc.shape)}")
        return loc, shape, d

    @staticmethod
    def _df(df):
        if isinstance(df, (int, float)):
            if not df > 0:
                raise ValueError(f"multivariate_t: df must be positive, got {df!r}")
            return df
        df = fnp.asarray(df)
        if df.ndim:
            raise ValueError(f"multivariate_t: df must be a scalar, got shape "
                             f"{tuple(df.shape)}")
        return df

    def logpdf(self, x: ArrayLike, loc: Optional[ArrayLike] = None, shape: ArrayLike = 1,
               df: Any = 1) -> Array:
        """``log pdf(x)``; the normal log-density for ``df = inf``."""
        loc, shape, d = self._dimension(loc, shape)
        df = self._df(df)
        x = fnp.asarray(x)
        if x.ndim == 0 or (x.ndim == 1 and d == 1):
            x = fnp.reshape(x, x.shape + (1,))
        if x.shape[-1] != d:
            raise ValueError(f"multivariate_t: x's last axis has {x.shape[-1]} variables but "
                             f"loc/shape describe {d}; give x of shape (..., {d})")
        chol = fnp.linalg.cholesky(0.5 * (shape + fnp.swapaxes(shape, -1, -2)))
        z = fnp.linalg.solve(chol, fnp.reshape(x - loc, x.shape[:-1] + (d, 1)))
        maha = fnp.sum(fnp.square(z), axis=(-2, -1))
        half_log_det = fnp.sum(fnp.log(fnp.diagonal(chol)))
        if isinstance(df, (int, float)) and math.isinf(df):
            out = -0.5 * (d * math.log(2 * math.pi) + maha) - half_log_det
        else:
            out = self._t_logpdf(maha, half_log_det, df, d)
        return fnp.squeeze(out) if 1 in out.shape else out

    @staticmethod
    def _t_logpdf(maha, half_log_det, df, d):
        if isinstance(df, (int, float)):  # (Python constants: float32 stays float32)
            const = math.lgamma((df + d) * 0.5) - math.lgamma(df * 0.5) - 0.5 * d * math.log(
                df * math.pi)
            return const - half_log_det - (df + d) * 0.5 * fnp.log1p(maha / df)
        # (a traced df = inf: the normal limit, by the double where)
        infinite = fnp.isinf(df)
        safe = fnp.where(infinite, 1.0, df)
        t = (sp.gammaln((safe + d) * 0.5) - sp.gammaln(safe * 0.5)
             - 0.5 * d * fnp.log(safe * math.pi) - half_log_det
             - (safe + d) * 0.5 * fnp.log1p(maha / safe))
        return fnp.where(infinite, -0.5 * (d * math.log(2 * math.pi) + maha) - half_log_det, t)

    def pdf(self, x: ArrayLike, loc: Optional[ArrayLike] = None, shape: ArrayLike = 1,
            df: Any = 1) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(x, loc, shape, df))

    def rvs(self, loc: Optional[ArrayLike] = None, shape: ArrayLike = 1, df: Any = 1,
            size: Any = 1, random_state: Any = None) -> Array:
        """``size`` draws (each of ``loc``'s dimension; squeezed as SciPy's), from NumPy's
        generator seeded by ``random_state``; differentiable in ``loc``, ``shape`` and (to
        first order) ``df``.  The draws are not SciPy's bit for bit (its own stream)."""
        loc, shape, d = self._dimension(loc, shape)
        df = self._df(df)
        rng = _random_state(random_state)
        count = (size,) if isinstance(size, (int, np.integer)) else tuple(size)
        normal = rng.standard_normal(count + (d,))
        chol = fnp.linalg.cholesky(0.5 * (shape + fnp.swapaxes(shape, -1, -2)))
        draws = normal @ fnp.swapaxes(chol, -1, -2)
        if not (isinstance(df, (int, float)) and math.isinf(df)):
            draws = draws / fnp.sqrt(self._chi2_over_df(df, rng, count))[..., None]
        out = loc + draws
        return fnp.squeeze(out) if 1 in out.shape else out

    @staticmethod
    def _chi2_over_df(df, rng, count):
        """``chi2(df)/df = Gamma(df/2)/(df/2)`` draws, with the gamma draw's derivative in its
        shape ``a`` by implicit differentiation of ``P(a, g) = u``: ``dg/da = -(dP/da) /
        (dP/dg)`` (first order: the draw is held fixed and moved along that slope)."""
        a = df * 0.5
        a_value = float(np.asarray(_stop_gradient(a)))
        if not a_value > 0:
            raise ValueError(f"multivariate_t: df must be positive, got {2 * a_value!r}")
        g0 = rng.standard_gamma(a_value, count)
        if isinstance(a, (int, float)):
            return g0 / a
        slope = -_inc.gammainc_da(a_value, g0) / fnp.exp(
            (a_value - 1.0) * np.log(g0) - g0 - math.lgamma(a_value))
        g = g0 + (a - a_value) * _stop_gradient(slope)
        return g / a

    def __call__(self, loc: Optional[ArrayLike] = None, shape: ArrayLike = 1, df: Any = 1,
                 allow_singular: bool = False, seed: object = None) -> rv_frozen:
        """The distribution with ``loc``, ``shape`` and ``df`` fixed, as SciPy's
        ``multivariate_t(loc, shape, df)`` (``seed`` is ``rvs``'s default
        ``random_state``; ``allow_singular=True`` is not available)."""
        if allow_singular:
            raise NotImplementedError("multivariate_t: allow_singular=True is not "
                                      "implemented; give a positive definite shape")
        return _frozen_t(self, (loc, shape, df), seed)

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.multivariate_t>"


class _frozen_t(rv_frozen):
    """A frozen ``multivariate_t``: ``logpdf(x)``, ``pdf(x)``, ``rvs(size, random_state)``.

    >>> import numpy as np
    >>> multivariate_t(np.zeros(2), np.eye(2), df=4.0, seed=1).rvs(size=3).shape
    (3, 2)
    """

    def __init__(self, dist, args, seed):
        super().__init__(dist, args, {})
        self._seed = seed

    def rvs(self, size: Any = 1, random_state: Any = None) -> Array:
        return self.dist.rvs(*self.args, size=size,
                             random_state=self._seed if random_state is None else random_state)


multivariate_t = _multivariate_t()
