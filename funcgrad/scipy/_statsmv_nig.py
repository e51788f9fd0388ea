"""``normal_inverse_gamma`` of :mod:`funcgrad.scipy.stats` (re-exported there), SciPy's
joint distribution of ``(x, s2)``: ``s2 ~ invgamma(a, scale=b)`` and ``x | s2 ~ normal(mu,
s2 / lmbda)``, elementwise and broadcast, NaN for bad shapes and ``-inf`` (density 0) for
``s2 <= 0``.

Everything differentiates in every argument.  The draws are SciPy's for the same
``random_state``: SciPy draws ``s2`` by inversion, ``b / gammainccinv(a, u)`` for uniform
``u``, so with :func:`funcgrad.scipy.special.gammainccinv` the draw is an exact function of
``a`` and ``b`` (and ``x = mu + sqrt(s2 / lmbda) z`` of the rest).
"""
import math
from typing import Any, Optional, Tuple

import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike
from . import special as sp
from ._statsmv_common import random_state as _random_state

__all__ = ["normal_inverse_gamma"]

_LOG_2PI = math.log(2.0 * math.pi)


def _arrays(*args):
    """The arguments as arrays of one float type (float32 kept, integers as float64)."""
    dtype = np.result_type(1.0, *[a if isinstance(a, (int, float)) else fnp.asarray(a).dtype
                                  for a in args])  # (Python numbers are weak, as NumPy's)
    return [fnp.asarray(a, dtype) for a in args]


def _valid(lmbda, a, b):
    return fnp.logical_and(fnp.logical_and(fnp.greater(lmbda, 0), fnp.greater(a, 0)),
                           fnp.greater(b, 0))


class _normal_inverse_gamma:
    """``normal_inverse_gamma.logpdf(x, s2, mu=0, lmbda=1, a=1, b=1)``, ``pdf``,
    ``mean(mu=0, lmbda=1, a=1, b=1)`` and ``var`` (each the pair for ``x`` and ``s2``), and
    ``rvs(mu=0, lmbda=1, a=1, b=1, size=None, random_state=None)`` (the pair ``(x, s2)``),
    as SciPy's; differentiable in every argument (see
    :mod:`funcgrad.scipy._statsmv_nig`).

    >>> import funcgrad as fg
    >>> round(float(normal_inverse_gamma.logpdf(0.5, 1.5, 0.0, 2.0, 3.0, 1.0)), 10)
    -3.9234384433
    >>> mean_x, mean_s2 = normal_inverse_gamma.mean(1.0, 2.0, 3.0, 4.0)
    >>> float(mean_s2)
    2.0
    >>> def s2(b):  # one draw of s2, a multiple of b
    ...     return normal_inverse_gamma.rvs(b=b, a=3.0, random_state=0)[1]
    >>> bool(abs(fg.grad(s2)(2.0) - s2(2.0) / 2.0) < 1e-15)
    True
    """

    def logpdf(self, x: ArrayLike, s2: ArrayLike, mu: ArrayLike = 0, lmbda: ArrayLike = 1,
               a: ArrayLike = 1, b: ArrayLike = 1) -> Array:
        """``(log lmbda - log(2 pi s2))/2 + a log b - log Gamma(a) - (a + 1) log s2 -
        (2 b + lmbda (x - mu)^2) / (2 s2)``."""
        x, s2, mu, lmbda, a, b = _arrays(x, s2, mu, lmbda, a, b)
        valid = _valid(lmbda, a, b)
        positive = fnp.greater(s2, 0)
        s2_, lmbda_ = fnp.where(positive, s2, 1.0), fnp.where(valid, lmbda, 1.0)
        a_, b_ = fnp.where(valid, a, 1.0), fnp.where(valid, b, 1.0)
        out = (0.5 * (fnp.log(lmbda_) - _LOG_2PI - fnp.log(s2_)) + a_ * fnp.log(b_)
               - sp.gammaln(a_) - (a_ + 1.0) * fnp.log(s2_)
               - (2.0 * b_ + lmbda_ * fnp.square(x - mu)) / (2.0 * s2_))
        return fnp.where(valid, fnp.where(positive, out, -np.inf), np.nan)

    def pdf(self, x: ArrayLike, s2: ArrayLike, mu: ArrayLike = 0, lmbda: ArrayLike = 1,
            a: ArrayLike = 1, b: ArrayLike = 1) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(x, s2, mu, lmbda, a, b))

    def mean(self, mu: ArrayLike = 0, lmbda: ArrayLike = 1, a: ArrayLike = 1,
             b: ArrayLike = 1) -> Tuple[Array, Array]:
        """``(mu, b / (a - 1))``, NaN unless ``a > 1``."""
        mu, lmbda, a, b = _arrays(mu, lmbda, a, b)
        ok = fnp.logical_and(_valid(lmbda, a, b), fnp.greater(a, 1))
        shape = np.broadcast_shapes(mu.shape, lmbda.shape, a.shape, b.shape)
        a_ = fnp.where(ok, a, 2.0)
        return (fnp.where(ok, fnp.broadcast_to(mu, shape), np.nan),
                fnp.where(ok, b / (a_ - 1.0), np.nan))

    def var(self, mu: ArrayLike = 0, lmbda: ArrayLike = 1, a: ArrayLike = 1,
            b: ArrayLike = 1) -> Tuple[Array, Array]:
        """``(b / ((a - 1) lmbda), b^2 / ((a - 1)^2 (a - 2)))``, NaN unless ``a > 1``
        (``a > 2`` for the second)."""
        mu, lmbda, a, b = _arrays(mu, lmbda, a, b)
        valid = _valid(lmbda, a, b)
        ok_x = fnp.logical_and(valid, fnp.greater(a, 1))
        ok_s2 = fnp.logical_and(valid, fnp.greater(a, 2))
        a_x, a_s2 = fnp.where(ok_x, a, 2.0), fnp.where(ok_s2, a, 3.0)
        lmbda_ = fnp.where(ok_x, lmbda, 1.0)
        var_x = fnp.where(ok_x, b / ((a_x - 1.0) * lmbda_), np.nan)
        var_s2 = fnp.where(ok_s2, fnp.square(b) / (fnp.square(a_s2 - 1.0) * (a_s2 - 2.0)),
                           np.nan)
        shape = np.broadcast_shapes(mu.shape, var_x.shape)
        return fnp.broadcast_to(var_x, shape), fnp.broadcast_to(var_s2, shape)

    def rvs(self, mu: ArrayLike = 0, lmbda: ArrayLike = 1, a: ArrayLike = 1,
            b: ArrayLike = 1, size: Any = None,
            random_state: Any = None) -> Tuple[Array, Array]:
        """Draws ``(x, s2)``, SciPy's for the same ``random_state``: ``s2 = b /
        gammainccinv(a, u)``, ``x = mu + sqrt(s2 / lmbda) z``."""
        mu, lmbda, a, b = _arrays(mu, lmbda, a, b)
        rng = _random_state(random_state)
        # (SciPy's frozen invgamma and norm: size None is the parameters' shape)
        shape = np.broadcast_shapes(a.shape, b.shape) if size is None else size
        u = rng.uniform(size=shape)
        s2 = b / sp.gammainccinv(a, fnp.asarray(u, a.dtype))
        scale = fnp.sqrt(s2 / lmbda)
        shape = np.broadcast_shapes(mu.shape, scale.shape) if size is None else size
        z = np.asarray(rng.standard_normal(size=shape), a.dtype)
        return mu + scale * z, s2

    def __call__(self, mu: ArrayLike = 0, lmbda: ArrayLike = 1, a: ArrayLike = 1,
                 b: ArrayLike = 1, seed: Any = None) -> "_frozen_nig":
        """The distribution with its shapes fixed, as SciPy's
        ``normal_inverse_gamma(mu, lmbda, a, b, seed)``."""
        return _frozen_nig(self, (mu, lmbda, a, b), seed)

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.normal_inverse_gamma>"


class _frozen_nig:
    """A frozen ``normal_inverse_gamma``: ``logpdf(x, s2)``, ``pdf(x, s2)``, ``mean()``,
    ``var()``, ``rvs(size=None, random_state=None)``.

    >>> d = normal_inverse_gamma(0.0, 1.0, 3.0, 2.0)
    >>> float(d.mean()[1])
    1.0
    """

    def __init__(self, dist: Any, shapes: tuple, seed: Any = None) -> None:
        self.dist, self.shapes = dist, shapes
        self._random_state = _random_state(seed)

    def logpdf(self, x: ArrayLike, s2: ArrayLike) -> Array:
        return self.dist.logpdf(x, s2, *self.shapes)

    def pdf(self, x: ArrayLike, s2: ArrayLike) -> Array:
        return self.dist.pdf(x, s2, *self.shapes)

    def mean(self) -> Tuple[Array, Array]:
        return self.dist.mean(*self.shapes)

    def var(self) -> Tuple[Array, Array]:
        return self.dist.var(*self.shapes)

    def rvs(self, size: Any = None, random_state: Optional[Any] = None) -> Tuple[Array, Array]:
        rng = self._random_state if random_state is None else random_state
        return self.dist.rvs(*self.shapes, size=size, random_state=rng)


normal_inverse_gamma = _normal_inverse_gamma()
