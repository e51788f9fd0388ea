"""``vonmises_fisher`` and ``uniform_direction`` of :mod:`funcgrad.scipy.stats`
(re-exported there), with SciPy's signatures, checks and draws.

The von Mises-Fisher density ``C_d(kappa) exp(kappa mu.x)`` on the unit sphere of
dimension ``d`` has the log normalizer ``(d/2 - 1) log kappa - d/2 log(2 pi) - log
ive(d/2 - 1, kappa) - kappa`` (the exponentially scaled Bessel function of
:mod:`funcgrad.scipy.special`, with its derivative in ``kappa``), so ``logpdf``, ``pdf``
and ``entropy`` differentiate in ``x``, ``mu`` and ``kappa``.  ``fit`` differentiates in
the data: the mean direction directly, ``kappa`` (the root of ``A_d(kappa) = r``, ``A_d =
ive(d/2, .) / ive(d/2 - 1, .)``) by the implicit function theorem through
:func:`funcgrad.scipy.optimize.brentq`.

The draws are SciPy's for the same ``random_state``, rotated to ``mu`` by SciPy's
rotation (the Householder reflection LAPACK's QR of ``[mu, 0...]`` gives, written out so
that it differentiates in ``mu``).  In three dimensions SciPy draws the cosine to ``mu``
by inversion, so the draws differentiate in ``kappa`` too; in two (NumPy's von Mises
sampler) and in four or more (Wood's rejection sampler), the accepted proposals are not a
smooth function of ``kappa`` and a derivative in it raises ``NotImplementedError``.
"""
import math
from typing import Any, Optional, Tuple

import numpy as np

from .. import numpy as fnp
from ..custom import custom_jvp
from ..typing import Array, ArrayLike
from . import special as sp
from ._scalar_roots import brentq
from ._statsmv_common import concrete_scalar, frozen, known
from ._statsmv_common import random_state as _random_state

__all__ = ["vonmises_fisher", "uniform_direction"]

_LOG_2PI = math.log(2.0 * math.pi)


def _unit_rows(name, x, what):
    values = known(x)  # (under vmap and jit the check is left out)
    if values is not None and not np.allclose(np.linalg.norm(values, axis=-1), 1.0):
        raise ValueError(f"vonmises_fisher: {name} must be {what} of norm 1 along the last "
                         f"axis (divide by np.linalg.norm({name}, axis=-1, keepdims=True))")


def _log_norm(dim, kappa):
    half = 0.5 * dim
    return (0.5 * (dim - 2) * fnp.log(kappa) - half * _LOG_2PI
            - fnp.log(sp.ive(half - 1.0, kappa)) - kappa)


def _mean_resultant(dim, kappa):
    """``A_d(kappa) = I_{d/2}(kappa) / I_{d/2-1}(kappa)``."""
    return sp.ive(0.5 * dim, kappa) / sp.ive(0.5 * dim - 1.0, kappa)


def _householder(mu):
    """``rotsign * Q`` of SciPy's ``_rotate_samples``: ``Q`` from NumPy's (LAPACK's) QR of
    the matrix whose first column is ``mu`` and the rest 0 -- one Householder reflector,
    ``I - tau v v'`` with ``v = (1, mu[1:] / (mu[0] - beta))``, ``beta = -sign(mu[0])
    |mu|`` (``+`` at 0, LAPACK's), ``tau = (beta - mu[0]) / beta``; ``rotsign`` is ``1``
    where ``Q e1 = mu`` and ``-1`` elsewhere."""
    dim = mu.shape[0]
    first = float(np.asarray(fnp.stop_gradient(mu[0])))
    tail = np.asarray(fnp.stop_gradient(mu[1:]))
    eye = np.eye(dim, dtype=mu.dtype)
    if not np.any(tail):  # (LAPACK's tau = 0: Q = I, and Q e1 = mu only for mu = e1)
        sign = 1.0 if first > 0 else -1.0
        return sign * eye + 0.0 * mu[:, None]
    sign = -1.0 if first >= 0 else 1.0
    beta = sign * fnp.linalg.norm(mu)
    v = fnp.concatenate([fnp.ones(1, mu.dtype), mu[1:] / (mu[0] - beta)])
    tau = (beta - mu[0]) / beta
    # Q e1 = mu / beta: the sign of beta makes the rotation take e1 to mu
    return sign * (eye - tau * v[:, None] * v[None, :])


@custom_jvp
def _kappa_without_derivative(kappa, dim):
    return kappa


@_kappa_without_derivative.defjvp
def _kappa_without_derivative_jvp(primals, tangents):
    dim = primals[1]
    sampler = ("NumPy's von Mises sampler" if int(dim) == 2
               else "SciPy's rejection sampler (Wood's)")
    raise NotImplementedError(
        f"vonmises_fisher.rvs: in dimension {int(dim)} the draws come from {sampler}, whose "
        f"accepted proposals are not a smooth function of kappa: no derivative in kappa "
        f"(the draws differentiate in mu; in dimension 3 in kappa too)")


class _vonmises_fisher:
    """``vonmises_fisher.logpdf(x, mu=None, kappa=1)``, ``pdf``, ``entropy(mu=None,
    kappa=1)``, ``rvs(mu=None, kappa=1, size=1, random_state=None)`` and ``fit(x)``, as
    SciPy's (``mu`` a unit vector, its length the dimension; ``x`` unit vectors along the
    last axis); differentiable in ``x``, ``mu`` and ``kappa`` (see
    :mod:`funcgrad.scipy._statsmv_directional` for the draws and ``fit``).

    >>> import numpy as np, funcgrad as fg
    >>> mu = np.array([0.0, 0.0, 1.0])
    >>> round(float(vonmises_fisher.logpdf(mu, mu, 2.0)), 10)
    -1.126244439
    >>> round(float(fg.grad(lambda k: vonmises_fisher.entropy(mu, k))(2.0)), 10)
    -0.3479563403
    >>> vonmises_fisher.rvs(mu, 2.0, size=4, random_state=0).shape
    (4, 3)
    """

    name = "vonmises_fisher"

    @staticmethod
    def _parameters(mu, kappa):
        mu = fnp.asarray(mu)
        if mu.dtype.kind != "f":
            mu = fnp.asarray(mu, np.float64)
        if mu.ndim != 1 or mu.shape[0] < 2:
            raise ValueError(f"vonmises_fisher: mu must be a 1-d unit vector with at least "
                             f"two entries; got shape {tuple(mu.shape)}")
        _unit_rows("mu", mu, "a unit vector")
        value = known(kappa)
        if value is None:  # (under vmap and jit: NaN where kappa <= 0)
            return mu.shape[0], mu, fnp.where(fnp.greater(kappa, 0), kappa, np.nan)
        if value.ndim:
            raise ValueError(f"vonmises_fisher: kappa must be a positive scalar, got shape "
                             f"{value.shape}")
        if value < 0:
            raise ValueError(f"vonmises_fisher: kappa must be a positive scalar, got {value}")
        if value == 0:
            raise ValueError("vonmises_fisher: kappa = 0 is the uniform distribution on the "
                             "sphere; use uniform_direction instead")
        return mu.shape[0], mu, kappa

    def logpdf(self, x: ArrayLike, mu: Optional[ArrayLike] = None,
               kappa: Any = 1) -> Array:
        """``log C_d(kappa) + kappa mu.x``."""
        dim, mu, kappa = self._parameters(mu, kappa)
        x = fnp.asarray(x)
        if x.ndim == 0 or x.shape[-1] != dim:
            raise ValueError(f"vonmises_fisher: x's last axis must have {dim} entries (mu's "
                             f"dimension); got shape {tuple(x.shape)}")
        _unit_rows("x", x, "unit vectors")
        return _log_norm(dim, kappa) + kappa * fnp.sum(x * mu, axis=-1)

    def pdf(self, x: ArrayLike, mu: Optional[ArrayLike] = None, kappa: Any = 1) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(x, mu, kappa))

    def entropy(self, mu: Optional[ArrayLike] = None, kappa: Any = 1) -> Array:
        """``-log C_d(kappa) - kappa A_d(kappa)``."""
        dim, _, kappa = self._parameters(mu, kappa)
        return -_log_norm(dim, kappa) - kappa * _mean_resultant(dim, kappa)

    def rvs(self, mu: Optional[ArrayLike] = None, kappa: Any = 1, size: Any = 1,
            random_state: Any = None) -> Array:
        """Draws of shape ``size + (d,)`` (``(d,)`` for ``size=None``), SciPy's for the
        same ``random_state``."""
        dim, mu, kappa = self._parameters(mu, kappa)
        rng = _random_state(random_state)
        value = concrete_scalar(kappa, "vonmises_fisher", "kappa")
        if dim == 2:
            angle = fnp.arctan2(mu[1], mu[0])
            # (NumPy's sampler gives the offset from the mean angle, wrapped to [-pi, pi))
            offset = rng.vonmises(float(np.asarray(fnp.stop_gradient(angle))), value,
                                  size=size) - np.asarray(fnp.stop_gradient(angle))
            offset = offset + 0.0 * _kappa_without_derivative(kappa, dim)
            turned = angle + offset
            return fnp.stack([fnp.cos(turned), fnp.sin(turned)], axis=-1)
        if dim == 3:
            count = 1 if size is None else size
            u = rng.random(count)
            cosine = 1.0 + fnp.log(u + (1.0 - u) * fnp.exp(-2.0 * kappa)) / kappa
            circle = _uniform_directions(2, count, rng)
            sine = fnp.sqrt(1.0 - fnp.square(cosine))
            samples = fnp.stack([cosine, sine * circle[..., 0], sine * circle[..., 1]],
                                axis=-1)
            if size is None:
                samples = fnp.squeeze(samples)
        else:
            samples = _wood(dim, value, size, rng)
            samples = samples + 0.0 * _kappa_without_derivative(kappa, dim)
        return fnp.asarray(samples, mu.dtype) @ fnp.swapaxes(_householder(mu), 0, 1)

    def fit(self, x: ArrayLike) -> Tuple[Array, Array]:
        """``(mu, kappa)`` by maximum likelihood, as SciPy's: the mean direction, and the
        root of ``A_d(kappa) = r`` (``r`` the mean resultant length) in ``[1e-8, 1e9]``."""
        x = fnp.asarray(x)
        if x.ndim != 2:
            raise ValueError(f"vonmises_fisher.fit: x must be 2-d (points along the first "
                             f"axis); got shape {tuple(x.shape)}")
        _unit_rows("x", x, "unit vectors")
        dim = x.shape[-1]
        resultant = fnp.mean(x, axis=0)
        r = fnp.linalg.norm(resultant)
        kappa = brentq(lambda k: _mean_resultant(dim, k) - r, 1e-8, 1e9)
        return resultant / r, kappa

    def __call__(self, mu: Optional[ArrayLike] = None, kappa: Any = 1,
                 seed: Any = None) -> frozen:
        """The distribution with ``mu`` and ``kappa`` fixed, as SciPy's
        ``vonmises_fisher(mu, kappa, seed)``."""
        self._parameters(mu, kappa)
        return frozen(self, (mu, kappa), seed)

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.vonmises_fisher>"


def _uniform_directions(dim, size, rng):
    """SciPy's ``_sample_uniform_direction``: normalized normal draws."""
    samples = rng.standard_normal(np.append(size, dim).astype(int))
    return samples / np.linalg.norm(samples, axis=-1, keepdims=True)


def _wood(dim, kappa, size, rng):
    """SciPy's rejection sampler (Wood, 1994) about ``e1``, on plain values."""
    m = dim - 1
    shape = None if size is None else ((size,) if np.ndim(size) == 0 else tuple(size))
    count = 1 if shape is None else math.prod(shape)
    envelope = (-2 * kappa + np.sqrt(4 * kappa ** 2.0 + m ** 2)) / m
    if envelope == 0:
        envelope = m / 4 * kappa ** -1.0 - m ** 3 / 64 * kappa ** -3.0
    node = (1.0 - envelope) / (1.0 + envelope)
    correction = kappa * node + m * (np.log(4) + np.log(envelope) - 2 * np.log1p(envelope))
    accepted, cosine = 0, np.zeros(count)
    while accepted < count:
        beta = rng.beta(m / 2, m / 2, size=count - accepted)
        proposal = (1 - (1 + envelope) * beta) / (1 - (1 - envelope) * beta)
        uniform = rng.random(count - accepted)
        keep = (kappa * proposal + m * np.log((1 + envelope - proposal + proposal * envelope)
                                              / (1 + envelope)) - correction) > np.log(uniform)
        cosine[accepted:accepted + keep.sum()] = proposal[keep]
        accepted += keep.sum()
    rest = np.sqrt(1 - cosine ** 2)[:, None] * _uniform_directions(m, accepted, rng)
    samples = np.concatenate([cosine[:, None], rest], axis=1)
    return np.squeeze(samples) if shape is None else samples.reshape(shape + (dim,))


class _uniform_direction:
    """``uniform_direction.rvs(dim, size=None, random_state=None)``, as SciPy's: points
    drawn uniformly on the unit sphere in ``dim`` dimensions (SciPy's draws for the same
    ``random_state``).  There are no parameters to differentiate.

    >>> uniform_direction.rvs(3, size=2, random_state=0).shape
    (2, 3)
    """

    @staticmethod
    def _dim(dim):
        if (dim is None or not np.isscalar(dim) or isinstance(dim, bool) or dim < 1
                or dim != int(dim)):
            raise ValueError(f"uniform_direction: dim must be an integer greater than 0, "
                             f"got {dim!r}")
        return int(dim)

    def rvs(self, dim: int, size: Any = None, random_state: Any = None) -> Array:
        """Draws of shape ``size + (dim,)``."""
        size = np.atleast_1d(np.array([], dtype=int) if size is None else size)
        return _uniform_directions(self._dim(dim), size, _random_state(random_state))

    def __call__(self, dim: Optional[int] = None, seed: Any = None) -> "_frozen_direction":
        """The distribution with ``dim`` fixed, as SciPy's ``uniform_direction(dim,
        seed)``."""
        return _frozen_direction(self, self._dim(dim), seed)

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.uniform_direction>"


class _frozen_direction(frozen):
    """A frozen ``uniform_direction``: ``rvs(size=None, random_state=None)``.

    >>> uniform_direction(2, seed=1).rvs().shape
    (2,)
    """

    def __init__(self, dist: Any, dim: int, seed: Any = None) -> None:
        super().__init__(dist, (dim,), seed)

    def rvs(self, size: Any = None, random_state: Any = None) -> Array:
        return super().rvs(size, random_state)


vonmises_fisher = _vonmises_fisher()
uniform_direction = _uniform_direction()
