"""``wishart`` and ``invwishart`` of :mod:`funcgrad.scipy.stats` (re-exported there),
with SciPy's signatures and layouts: the matrices of ``x`` along its first two axes and
the points along the last (``x`` of shape ``(p, p)`` or ``(p, p, n)``), results squeezed.

The densities differentiate in ``x``, ``df`` and ``scale`` (both matrices read through
their Cholesky factors, as SciPy reads them: the lower triangle's values, the symmetric
part's derivative).  ``rvs`` gives SciPy's draws for the same ``random_state`` (its
Bartlett decomposition: ``L A A' L'`` for the Wishart, ``L A^-1 A^-T L'`` for the
inverse, ``L`` the Cholesky factor of ``scale``, ``A`` lower triangular with normal
entries below the diagonal and chi draws on it), differentiable in ``scale`` through
``L`` and, to first order, in ``df`` through the chi-square draws (each held at its
quantile: ``dc/dk = -(dP/dk)/(dP/dc)``).
"""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike
from . import special as sp
from ._statsmv_common import random_state as _random_state
from ._statsmv_common import (chi2_draws, concrete_scalar, float_dtype, frozen,
                              lower_symmetric, size_shape, squeeze)

__all__ = ["wishart", "invwishart"]

_LOG_2 = math.log(2.0)


def _parameters(dist, df, scale):
    """SciPy's ``_process_parameters``: ``(dim, df, its value, scale as a matrix)``."""
    scale = fnp.asarray(1.0 if scale is None else scale)
    scale = fnp.asarray(scale, float_dtype(scale))
    if scale.ndim == 0:
        scale = fnp.reshape(scale, (1, 1))
    elif scale.ndim == 1:
        scale = scale * np.eye(scale.shape[0], dtype=scale.dtype)
    elif scale.ndim > 2 or scale.shape[0] != scale.shape[1]:
        raise ValueError(f"{dist}: scale must be a square matrix (or its diagonal, or a "
                         f"scalar); got shape {tuple(scale.shape)}")
    dim = scale.shape[0]
    if df is None:
        df = dim
    df_value = concrete_scalar(df, dist, "df")
    if not df_value > dim - 1:
        raise ValueError(f"{dist}: df must be greater than the dimension of scale minus 1 "
                         f"({dim - 1}); got {df_value}")
    return dim, df, df_value, scale


def _quantiles(dist, x, dim, dtype):
    """SciPy's ``_process_quantiles``, then the points moved to the first axis:
    ``(n, dim, dim)``."""
    x = fnp.asarray(x)
    x = fnp.asarray(x, float_dtype(x) if x.dtype.kind == "f" else dtype)
    if x.ndim == 0:
        x = x * np.eye(dim, dtype=x.dtype)[:, :, None]
    elif x.ndim == 1:
        x = (fnp.reshape(x, (1, 1, -1)) if dim == 1
             else (x * np.eye(x.shape[0], dtype=x.dtype))[:, :, None])
    elif x.ndim == 2:
        x = fnp.reshape(x, x.shape + (1,))
    elif x.ndim > 3:
        raise ValueError(f"{dist}: x must be a ({dim}, {dim}) matrix or ({dim}, {dim}, n) "
                         f"matrices; got {x.ndim} dimensions")
    if x.shape[:2] != (dim, dim):
        raise ValueError(f"{dist}: x's matrices are {tuple(x.shape[:2])} but scale is "
                         f"({dim}, {dim}); give x of shape ({dim}, {dim}) or ({dim}, {dim}, n)")
    return fnp.moveaxis(x, -1, 0)


def _cholesky_logdet(m):
    """``(L, log det m)``, ``L`` the lower Cholesky factor of ``m`` as SciPy reads it."""
    chol = fnp.linalg.cholesky(lower_symmetric(m))
    return chol, 2.0 * fnp.sum(fnp.log(fnp.diagonal(chol, axis1=-2, axis2=-1)), axis=-1)


def _df_term(value, df, dtype):
    """A term of ``df`` alone in the float type of the matrices where ``df`` is a Python
    number (a 0-d float64 array would promote float32 to float64)."""
    return fnp.asarray(value, dtype) if isinstance(df, (int, float)) else value


def _frobenius2(m):
    return fnp.sum(fnp.square(m), axis=(-2, -1))


def _bartlett(rng, shape, dim, df, df_value, dtype, wishart_order):
    """The lower triangular ``A`` of SciPy's draws, its chi draws moving with ``df``.
    The two distributions draw in different orders (SciPy's ``_standard_rvs`` and
    ``_inv_standard_rvs``); both are followed exactly."""
    n = int(np.prod(shape))
    rows, cols = np.tril_indices(dim, k=-1)
    below = np.zeros(shape + (dim, dim), dtype)
    if wishart_order:
        below[..., rows, cols] = rng.normal(size=n * len(rows)).reshape(shape + (len(rows),))
        chis = fnp.stack([chi2_draws(rng, df - i, df_value - i, n, dtype)
                          for i in range(dim)])
        diagonal = fnp.transpose(fnp.reshape(fnp.sqrt(chis), (dim,) + shape[::-1]))
    else:
        below[..., rows, cols] = rng.normal(size=shape + (len(rows),))
        ks = np.arange(dim)
        diagonal = fnp.sqrt(chi2_draws(rng, df - dim + 1.0 + ks, df_value - dim + 1.0 + ks,
                                       shape + (dim,), dtype))
    return below + diagonal[..., None] * np.eye(dim, dtype=dtype)


class _family:
    """What ``wishart`` and ``invwishart`` share: ``pdf``, freezing, the name."""

    name = ""

    def logpdf(self, x: ArrayLike, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """``log pdf(x)``."""
        raise NotImplementedError  # (each distribution's own)

    def pdf(self, x: ArrayLike, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(x, df, scale))

    def __call__(self, df: Any = None, scale: Optional[ArrayLike] = None,
                 seed: Any = None) -> frozen:
        """The distribution with ``df`` and ``scale`` fixed, as SciPy's
        ``<name>(df, scale, seed)``."""
        _parameters(self.name, df, scale)
        return frozen(self, (df, scale), seed)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.{self.name}>"


class _wishart(_family):
    """``wishart.logpdf(x, df, scale)``, ``pdf``, ``rvs(df, scale, size=1,
    random_state=None)``, ``mean``, ``mode``, ``var`` and ``entropy``, as SciPy's
    ``scipy.stats.wishart`` (``x`` of shape ``(p, p)`` or ``(p, p, n)``: the points along
    the last axis), differentiable in ``x``, ``df`` and ``scale``; see
    :mod:`funcgrad.scipy._statsmv_wishart` for the draws.

    >>> import numpy as np, funcgrad as fg
    >>> round(float(wishart.logpdf(np.eye(2), df=3.0, scale=np.eye(2))), 10)
    -3.531024247
    >>> fg.grad(lambda s: wishart.logpdf(np.eye(2), 3.0, s))(np.eye(2))
    array([[-1.,  0.],
           [ 0., -1.]])
    >>> wishart.rvs(4.0, np.eye(3), size=5, random_state=0).shape
    (5, 3, 3)
    """

    name = "wishart"

    def logpdf(self, x: ArrayLike, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """``log pdf(x)``: ``(df - p - 1)/2 log|x| - tr(scale^-1 x)/2 - df p/2 log 2 -
        df/2 log|scale| - log Gamma_p(df/2)``."""
        dim, df, _, scale = _parameters(self.name, df, scale)
        x = _quantiles(self.name, x, dim, scale.dtype)
        chol, log_det_scale = _cholesky_logdet(scale)
        chol_x, log_det_x = _cholesky_logdet(x)
        # tr(scale^-1 x) = ||L^-1 L_x||_F^2
        trace = _frobenius2(fnp.linalg.solve(fnp.broadcast_to(chol, chol_x.shape), chol_x))
        out = (0.5 * (df - dim - 1) * log_det_x - 0.5 * trace
               - (0.5 * df * dim * _LOG_2 + 0.5 * df * log_det_scale
                  + _df_term(sp.multigammaln(0.5 * df, dim), df, x.dtype)))
        return squeeze(out)

    def mean(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """``df * scale``."""
        _, df, _, scale = _parameters(self.name, df, scale)
        return squeeze(df * scale)

    def mode(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Optional[Array]:
        """``(df - p - 1) scale``, or ``None`` where ``df < p + 1`` (SciPy's)."""
        dim, df, df_value, scale = _parameters(self.name, df, scale)
        return squeeze((df - dim - 1) * scale) if df_value >= dim + 1 else None

    def var(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """The variance of each entry, ``df (scale_ij^2 + scale_ii scale_jj)``."""
        _, df, _, scale = _parameters(self.name, df, scale)
        diag = fnp.diagonal(scale)
        return squeeze(df * (fnp.square(scale) + diag[:, None] * diag[None, :]))

    def entropy(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """The differential entropy (SciPy's formula)."""
        dim, df, _, scale = _parameters(self.name, df, scale)
        log_det_scale = _cholesky_logdet(scale)[1]
        psi = sum(sp.digamma(0.5 * (df - i)) for i in range(dim))
        df_terms = sp.multigammaln(0.5 * df, dim) - 0.5 * (df - dim - 1) * psi
        return (0.5 * (dim + 1) * log_det_scale + 0.5 * dim * (dim + 1) * _LOG_2
                + _df_term(df_terms, df, scale.dtype) + 0.5 * df * dim)

    def rvs(self, df: Any = None, scale: Optional[ArrayLike] = None, size: Any = 1,
            random_state: Any = None) -> Array:
        """Draws of shape ``size + (p, p)`` (squeezed), SciPy's for the same
        ``random_state``: ``L A A' L'``."""
        shape = size_shape(size)
        dim, df, df_value, scale = _parameters(self.name, df, scale)
        chol = fnp.linalg.cholesky(lower_symmetric(scale))
        a = _bartlett(_random_state(random_state), shape, dim, df, df_value, scale.dtype, True)
        factor = chol @ a
        return squeeze(factor @ fnp.swapaxes(factor, -1, -2))


class _invwishart(_family):
    """``invwishart.logpdf(x, df, scale)``, ``pdf``, ``rvs``, ``mean``, ``mode``, ``var``
    and ``entropy``, as SciPy's ``scipy.stats.invwishart`` (the distribution of
    ``S^-1`` for ``S ~ wishart(df, scale^-1)``), differentiable in ``x``, ``df`` and
    ``scale``; see :mod:`funcgrad.scipy._statsmv_wishart` for the draws.

    >>> import numpy as np, funcgrad as fg
    >>> round(float(invwishart.logpdf(np.eye(2), df=4.0, scale=np.eye(2))), 10)
    -4.2241714275
    >>> round(float(fg.grad(lambda d: invwishart.logpdf(np.eye(2), d, np.eye(2)))(4.0)), 10)
    -0.9227843351
    """

    name = "invwishart"

    def logpdf(self, x: ArrayLike, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """``log pdf(x)``: ``df/2 log|scale| - tr(scale x^-1)/2 - df p/2 log 2 -
        (df + p + 1)/2 log|x| - log Gamma_p(df/2)``."""
        dim, df, _, scale = _parameters(self.name, df, scale)
        x = _quantiles(self.name, x, dim, scale.dtype)
        chol, log_det_scale = _cholesky_logdet(scale)
        chol_x, log_det_x = _cholesky_logdet(x)
        # tr(scale x^-1) = ||L_x^-1 L||_F^2
        trace = _frobenius2(fnp.linalg.solve(chol_x, fnp.broadcast_to(chol, chol_x.shape)))
        out = (0.5 * df * log_det_scale - 0.5 * trace
               - (0.5 * df * dim * _LOG_2 + 0.5 * (df + dim + 1) * log_det_x)
               - _df_term(sp.multigammaln(0.5 * df, dim), df, x.dtype))
        return squeeze(out)

    def mean(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Optional[Array]:
        """``scale / (df - p - 1)``, or ``None`` where ``df <= p + 1`` (SciPy's)."""
        dim, df, df_value, scale = _parameters(self.name, df, scale)
        return squeeze(scale / (df - dim - 1)) if df_value > dim + 1 else None

    def mode(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """``scale / (df + p + 1)``."""
        dim, df, _, scale = _parameters(self.name, df, scale)
        return squeeze(scale / (df + dim + 1))

    def var(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Optional[Array]:
        """The variance of each entry, or ``None`` where ``df <= p + 3`` (SciPy's)."""
        dim, df, df_value, scale = _parameters(self.name, df, scale)
        if not df_value > dim + 3:
            return None
        diag = fnp.diagonal(scale)
        var = (df - dim + 1) * fnp.square(scale) + (df - dim - 1) * (diag[:, None]
                                                                     * diag[None, :])
        return squeeze(var / ((df - dim) * (df - dim - 1) ** 2 * (df - dim - 3)))

    def entropy(self, df: Any = None, scale: Optional[ArrayLike] = None) -> Array:
        """The differential entropy (SciPy's formula)."""
        dim, df, _, scale = _parameters(self.name, df, scale)
        log_det_scale = _cholesky_logdet(scale)[1]
        psi = sum(sp.digamma(0.5 * (df - dim + i)) for i in range(1, dim + 1))
        df_terms = sp.multigammaln(0.5 * df, dim) - 0.5 * (df + dim + 1) * psi
        return (_df_term(df_terms, df, scale.dtype) + 0.5 * dim * df
                + 0.5 * (dim + 1) * (log_det_scale - _LOG_2))

    def rvs(self, df: Any = None, scale: Optional[ArrayLike] = None, size: Any = 1,
            random_state: Any = None) -> Array:
        """Draws of shape ``size + (p, p)`` (squeezed), SciPy's for the same
        ``random_state``: ``L A^-1 A^-T L'``."""
        shape = size_shape(size)
        dim, df, df_value, scale = _parameters(self.name, df, scale)
        chol = fnp.linalg.cholesky(lower_symmetric(scale))
        a = _bartlett(_random_state(random_state), shape, dim, df, df_value, scale.dtype, False)
        # L A^-1, from A' X' = L'
        factor = fnp.swapaxes(fnp.linalg.solve(
            fnp.swapaxes(a, -1, -2), fnp.broadcast_to(chol.T, a.shape)), -1, -2)
        return squeeze(factor @ fnp.swapaxes(factor, -1, -2))


wishart = _wishart()
invwishart = _invwishart()
