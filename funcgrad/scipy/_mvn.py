"""``multivariate_normal`` and ``dirichlet`` of :mod:`funcgrad.scipy.stats`."""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from . import special as sp
from ._distn import _multivariate_parameters, rv_frozen
from ._statsmv_covariance import Covariance
from ..numpy._convert import concrete_values
from ..typing import Array, ArrayLike

__all__ = ["multivariate_normal", "dirichlet"]


def _plain_rank(cov: Any) -> int:
    return int(np.asarray(concrete_values(cov.rank, "multivariate_normal",
                                          "give a Covariance of known rank")))


class _multivariate_normal:
    """``multivariate_normal.logpdf(x, mean=None, cov=1, allow_singular=False)``, ``pdf``
    and ``entropy(mean=None, cov=1)``, with SciPy's conventions: the dimension comes from
    ``mean`` (else from ``cov``, else 1); the last axis of ``x`` is the variable (a 1-d
    ``x`` is one point, or ``n`` points where the dimension is 1); ``cov`` a matrix, a 1-d
    diagonal or a scalar times the identity; and the result is squeezed (size-1 axes
    dropped).  Differentiable in ``x``, ``mean`` and ``cov`` (through its Cholesky factor;
    with ``allow_singular=True``, through its pseudo-inverse and pseudo-determinant, whose
    derivatives hold where the rank is locally constant).  A ``mean`` with leading axes
    broadcasts against ``x`` (beyond SciPy).

    >>> import numpy as np
    >>> round(float(multivariate_normal.logpdf(np.zeros(2), cov=np.eye(2))), 6)
    -1.837877
    >>> multivariate_normal.logpdf(np.array([0.0, 1.0, 2.0])).shape  # three 1-d points
    (3,)
    >>> float(multivariate_normal.pdf(np.ones(2), cov=np.diag([1.0, 0.0]),
    ...                               allow_singular=True))  # off the support
    0.0
    """

    def _parameters(self, x, mean, cov):
        """``(x - mean, cov as a (..., d, d) matrix, d)``."""
        x = fnp.asarray(x)
        mean, cov, d = _multivariate_parameters("multivariate_normal", mean, cov, "cov")
        if x.ndim == 0 or (x.ndim == 1 and d == 1):  # (SciPy's _process_quantiles)
            x = fnp.reshape(x, x.shape + (1,))
        if x.shape[-1] != d:
            raise ValueError(f"multivariate_normal: x's last axis has {x.shape[-1]} "
                             f"variables but mean/cov describe {d}; give x of shape (..., {d})")
        if mean is not None:
            x = x - (mean if mean.ndim else fnp.reshape(mean, (1,)))
        return x, cov, d

    @staticmethod
    def _symmetric(cov):
        """``cov`` as SciPy reads it (its lower triangle), with the derivative of the
        Cholesky route (the symmetric part of a perturbation), so that a gradient in
        ``cov`` does not depend on ``allow_singular``."""
        frozen = fnp.stop_gradient(cov)
        lower = fnp.tril(frozen) + fnp.swapaxes(fnp.tril(frozen, -1), -1, -2)
        moving = 0.5 * (cov + fnp.swapaxes(cov, -1, -2))
        return lower + (moving - fnp.stop_gradient(moving))

    @staticmethod
    def _pseudo(cov):
        """``(kept eigenvalues mask, their count, log pseudo-determinant, cutoff, cond)``
        of a symmetric ``cov``, with SciPy's cutoff (``cond`` = 1e6 eps, 1e3 eps for
        float32, times the largest eigenvalue)."""
        w = fnp.linalg.eigvalsh(cov)
        cond = (1e3 if w.dtype == np.float32 else 1e6) * np.finfo(w.dtype).eps
        eps = cond * fnp.max(fnp.abs(fnp.stop_gradient(w)), axis=-1, keepdims=True)
        keep = fnp.stop_gradient(w) > eps
        log_pdet = fnp.sum(fnp.where(keep, fnp.log(fnp.where(keep, w, 1.0)), 0.0), axis=-1)
        return keep, fnp.sum(keep, axis=-1), log_pdet, eps, cond

    def logpdf(self, x: ArrayLike, mean: Optional[ArrayLike] = None, cov: ArrayLike = 1,
               allow_singular: bool = False) -> Array:
        """``log pdf(x)``; ``allow_singular=True`` takes a singular ``cov`` (the density on
        the subspace it spans, ``-inf`` off it), as SciPy, as does a singular
        :class:`Covariance` (SciPy's objects carry their own rank)."""
        if isinstance(cov, Covariance) and _plain_rank(cov) < cov.shape[-1]:
            allow_singular = True
        x, cov, d = self._parameters(x, mean, cov)
        if allow_singular:
            return self._singular_logpdf(x, cov, d)
        chol = fnp.linalg.cholesky(cov)
        # ||L^{-1} (x - mean)||^2, solving with L for each point
        z = fnp.linalg.solve(chol, fnp.reshape(x, x.shape[:-1] + (d, 1)))
        maha = fnp.sum(fnp.square(z), axis=(-2, -1))
        log_det = 2.0 * fnp.sum(fnp.log(fnp.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)
        out = -0.5 * (d * math.log(2 * math.pi) + log_det + maha)
        return fnp.squeeze(out) if 1 in out.shape else out  # (SciPy's _squeeze_output)

    def _singular_logpdf(self, x, cov, d):
        from ._spectral import pinvh
        cov = self._symmetric(cov)
        keep, rank, log_pdet, eps, cond = self._pseudo(cov)
        maha = fnp.sum((x @ pinvh(cov, atol=0.0, rtol=cond)) * x, axis=-1)
        out = -0.5 * (rank * math.log(2 * math.pi) + log_pdet + maha)
        # off the subspace cov spans the density is 0 (SciPy's support test, on values)
        u = fnp.linalg.eigh(fnp.stop_gradient(cov))[1]
        off = fnp.linalg.norm(fnp.stop_gradient(x) @ fnp.where(keep[..., None, :], 0.0, u),
                              axis=-1)
        out = fnp.where(off < 1e3 * eps[..., 0], out, -math.inf)
        return fnp.squeeze(out) if 1 in out.shape else out

    def pdf(self, x: ArrayLike, mean: Optional[ArrayLike] = None, cov: ArrayLike = 1,
            allow_singular: bool = False) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(x, mean, cov, allow_singular))

    def entropy(self, mean: Optional[ArrayLike] = None, cov: ArrayLike = 1,
                allow_singular: bool = False) -> Array:
        """The differential entropy ``(rank (log 2 pi + 1) + log pdet cov) / 2`` (SciPy's:
        a singular ``cov`` counts its rank and pseudo-determinant, whatever
        ``allow_singular`` says, which a frozen distribution passes on).

        >>> import numpy as np, funcgrad as fg
        >>> round(float(multivariate_normal.entropy(cov=np.eye(2))), 6)
        2.837877
        >>> fg.grad(lambda c: multivariate_normal.entropy(cov=c))(2.0 * np.eye(2))
        array([[0.25, 0.  ],
               [0.  , 0.25]])
        """
        cov = _multivariate_parameters("multivariate_normal", mean, cov, "cov")[1]
        _, rank, log_pdet, _, _ = self._pseudo(self._symmetric(cov))
        return 0.5 * (rank * (math.log(2 * math.pi) + 1.0) + log_pdet)

    def __call__(self, mean: Optional[ArrayLike] = None, cov: ArrayLike = 1,
                 allow_singular: bool = False, seed: object = None) -> rv_frozen:
        """The distribution with ``mean`` and ``cov`` fixed, as SciPy's
        ``multivariate_normal(mean, cov)`` (``seed``, for SciPy's sampling, is accepted
        and unused: there is no ``rvs`` here)."""
        kwds = {"allow_singular": True} if allow_singular else {}
        return rv_frozen(self, (mean, cov), kwds)

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.multivariate_normal>"


multivariate_normal = _multivariate_normal()


class _dirichlet:
    """``dirichlet.logpdf(x, alpha)`` and ``pdf``, as SciPy: the components of ``x`` along
    its first axis (``x`` of shape ``(k,)`` or ``(k, n)``), differentiable in both.

    >>> import numpy as np
    >>> round(float(dirichlet.logpdf(np.array([0.2, 0.8]), np.array([1.0, 1.0]))), 12)
    0.0
    """

    def logpdf(self, x: ArrayLike, alpha: ArrayLike) -> Array:
        x, alpha = fnp.asarray(x), fnp.asarray(alpha)
        if alpha.ndim != 1 or x.shape[0] != alpha.shape[0]:
            raise ValueError(f"dirichlet: alpha must be 1-d with one entry per component "
                             f"(x's first axis, {x.shape[0] if x.ndim else 0}); got shape "
                             f"{tuple(alpha.shape)}")
        a = fnp.reshape(alpha, alpha.shape + (1,) * (x.ndim - 1))
        norm_const = fnp.sum(sp.gammaln(alpha)) - sp.gammaln(fnp.sum(alpha))
        return fnp.sum(sp.xlogy(a - 1.0, x), axis=0) - norm_const

    def pdf(self, x: ArrayLike, alpha: ArrayLike) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(x, alpha))

    def __call__(self, alpha: ArrayLike, seed: object = None) -> rv_frozen:
        """The distribution with ``alpha`` fixed, as SciPy's ``dirichlet(alpha)``
        (``seed`` accepted and unused, as in ``multivariate_normal``)."""
        return rv_frozen(self, (alpha,), {})

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.dirichlet>"


dirichlet = _dirichlet()
