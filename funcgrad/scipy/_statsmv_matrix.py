"""``matrix_normal`` and ``matrix_t`` of :mod:`funcgrad.scipy.stats` (re-exported there),
with SciPy's signatures: the matrices of ``X`` along its last two axes, results squeezed.

Both read their two covariance (spread) matrices through Cholesky factors ``L_r``,
``L_c`` (the lower triangle's values, the symmetric part's derivative), so the densities
differentiate in ``X``, ``mean``, both matrices and ``df``.  Their draws are SciPy's for
the same ``random_state`` (SciPy's order of normal draws; ``matrix_t`` mixes over an
inverse Wishart draw, :mod:`._statsmv_wishart`'s), ``mean + L_r Z L_c'``, differentiable
in ``mean`` and both matrices, and ``matrix_t``'s in ``df`` to first order.
"""
import math
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike
from . import special as sp
from ._statsmv_common import concrete_scalar, float_dtype, frozen, lower_symmetric, squeeze
from ._statsmv_common import random_state as _random_state
from ._statsmv_wishart import invwishart

__all__ = ["matrix_normal", "matrix_t"]

_LOG_2PI = math.log(2.0 * math.pi)


def _square(dist, matrix, name, size):
    """``matrix`` (a scalar times the identity of ``size``, a diagonal, or a square
    matrix) as a square matrix."""
    matrix = fnp.asarray(matrix)
    matrix = fnp.asarray(matrix, float_dtype(matrix))
    if matrix.ndim == 0:
        return matrix * np.eye(size, dtype=matrix.dtype)
    if matrix.ndim == 1:
        return matrix * np.eye(matrix.shape[0], dtype=matrix.dtype)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1] or not matrix.shape[0]:
        raise ValueError(f"{dist}: {name} must be a scalar, a diagonal or a square matrix; "
                         f"got shape {tuple(matrix.shape)}")
    return matrix


def _parameters(dist, mean, rows, cols, names):
    """SciPy's ``_process_parameters``: ``(dims, mean, row matrix, column matrix)``."""
    shape = None
    if mean is not None:
        mean = fnp.asarray(mean)
        if mean.ndim != 2 or 0 in mean.shape:
            raise ValueError(f"{dist}: mean must be a non-empty 2-d array; got shape "
                             f"{tuple(mean.shape)}")
        shape = mean.shape
    rows = _square(dist, rows, names[0], 1 if shape is None else shape[0])
    cols = _square(dist, cols, names[1], 1 if shape is None else shape[1])
    dims = (rows.shape[0], cols.shape[0])
    if shape is not None and shape != dims:
        raise ValueError(f"{dist}: mean has shape {shape} but {names[0]} and {names[1]} "
                         f"describe {dims} matrices")
    dtype = float_dtype(rows, cols, *(() if mean is None else (mean,)))
    mean = fnp.zeros(dims, dtype) if mean is None else fnp.asarray(mean, dtype)
    return dims, mean, rows, cols


def _quantiles(dist, x, dims):
    x = fnp.asarray(x)
    if x.ndim < 2 or x.shape[-2:] != dims:
        raise ValueError(f"{dist}: X's matrices must be {dims} (the last two axes); got "
                         f"shape {tuple(x.shape)}")
    return x


def _cholesky_logdet(m):
    chol = fnp.linalg.cholesky(lower_symmetric(m))
    return chol, 2.0 * fnp.sum(fnp.log(fnp.diagonal(chol)))


def _whitened(x, mean, row_chol, col_chol):
    """``L_r^-1 (X - mean) L_c^-T`` for each matrix of ``X``."""
    centred = x - mean
    left = fnp.linalg.solve(fnp.broadcast_to(row_chol, centred.shape[:-1] + row_chol.shape[-1:]),
                            centred)
    right = fnp.linalg.solve(
        fnp.broadcast_to(col_chol, left.shape[:-2] + col_chol.shape),
        fnp.swapaxes(left, -1, -2))
    return fnp.swapaxes(right, -1, -2)


def _normal_draws(rng, dims, size):
    """SciPy's standard normal draws, in its order (``(p, size, n)``, transposed)."""
    return rng.standard_normal(size=(dims[1], size, dims[0])).transpose(1, 2, 0)


def _count(size):
    if isinstance(size, (bool, np.bool_)) or not isinstance(size, (int, np.integer)):
        raise ValueError(f"size must be an integer (a number of matrices), got {size!r}")
    return int(size)


class _matrix_normal:
    """``matrix_normal.logpdf(X, mean=None, rowcov=1, colcov=1)``, ``pdf``,
    ``rvs(mean=None, rowcov=1, colcov=1, size=1, random_state=None)`` and
    ``entropy(rowcov=1, colcov=1)``, as SciPy's: ``vec(X)`` normal with covariance
    ``colcov (x) rowcov``.  Differentiable in ``X``, ``mean``, ``rowcov`` and ``colcov``
    (see :mod:`funcgrad.scipy._statsmv_matrix`).

    >>> import numpy as np, funcgrad as fg
    >>> round(float(matrix_normal.logpdf(np.zeros((2, 3)), np.zeros((2, 3)))), 10)
    -5.5136311992
    >>> fg.grad(lambda m: matrix_normal.logpdf(np.ones((1, 2)), m))(np.zeros((1, 2)))
    array([[1., 1.]])
    >>> matrix_normal.rvs(np.zeros((2, 3)), size=4, random_state=0).shape
    (4, 2, 3)
    """

    name = "matrix_normal"
    _names = ("rowcov", "colcov")

    def logpdf(self, X: ArrayLike, mean: Optional[ArrayLike] = None, rowcov: ArrayLike = 1,
               colcov: ArrayLike = 1) -> Array:
        """``log pdf(X) = -(n p log(2 pi) + p log|rowcov| + n log|colcov| + ||L_r^-1 (X -
        mean) L_c^-T||^2) / 2``."""
        dims, mean, rowcov, colcov = _parameters(self.name, mean, rowcov, colcov,
                                                 self._names)
        x = _quantiles(self.name, X, dims)
        row_chol, row_logdet = _cholesky_logdet(rowcov)
        col_chol, col_logdet = _cholesky_logdet(colcov)
        maha = fnp.sum(fnp.square(_whitened(x, mean, row_chol, col_chol)), axis=(-2, -1))
        n, p = dims
        return squeeze(-0.5 * (n * p * _LOG_2PI + p * row_logdet + n * col_logdet + maha))

    def pdf(self, X: ArrayLike, mean: Optional[ArrayLike] = None, rowcov: ArrayLike = 1,
            colcov: ArrayLike = 1) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(X, mean, rowcov, colcov))

    def rvs(self, mean: Optional[ArrayLike] = None, rowcov: ArrayLike = 1,
            colcov: ArrayLike = 1, size: int = 1, random_state: Any = None) -> Array:
        """``size`` draws ``mean + L_r Z L_c'`` (one of ``mean``'s shape for ``size=1``,
        as SciPy's), SciPy's for the same ``random_state``."""
        size = _count(size)
        dims, mean, rowcov, colcov = _parameters(self.name, mean, rowcov, colcov,
                                                 self._names)
        z = _normal_draws(_random_state(random_state), dims, size).astype(mean.dtype)
        row_chol = fnp.linalg.cholesky(lower_symmetric(rowcov))
        col_chol = fnp.linalg.cholesky(lower_symmetric(colcov))
        out = mean + row_chol @ z @ fnp.swapaxes(col_chol, -1, -2)
        return fnp.reshape(out, dims) if size == 1 else out

    def entropy(self, rowcov: ArrayLike = 1, colcov: ArrayLike = 1) -> Array:
        """``(n p (1 + log(2 pi)) + p log|rowcov| + n log|colcov|) / 2``."""
        dims, _, rowcov, colcov = _parameters(self.name, None, rowcov, colcov, self._names)
        n, p = dims
        return 0.5 * (n * p * (1.0 + _LOG_2PI) + p * _cholesky_logdet(rowcov)[1]
                      + n * _cholesky_logdet(colcov)[1])

    def __call__(self, mean: Optional[ArrayLike] = None, rowcov: ArrayLike = 1,
                 colcov: ArrayLike = 1, seed: Any = None) -> frozen:
        """The distribution with its parameters fixed, as SciPy's
        ``matrix_normal(mean, rowcov, colcov, seed)``."""
        _parameters(self.name, mean, rowcov, colcov, self._names)
        return _frozen_matrix(self, (mean, rowcov, colcov), seed)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.{self.name}>"


class _frozen_matrix(frozen):
    """A frozen ``matrix_normal`` or ``matrix_t``: ``entropy()`` takes the two matrices
    alone (SciPy's signature), the rest as :class:`frozen`.

    >>> import numpy as np
    >>> round(float(matrix_normal(np.zeros((2, 2))).entropy()), 10)
    5.6757541328
    """

    def entropy(self) -> Array:
        # (the matrices sized by the frozen mean, as SciPy's frozen object sizes them)
        mean, rows, cols = self.args[:3]
        rows, cols = _parameters(self.dist.name, mean, rows, cols, self.dist._names)[2:]
        return self.dist.entropy(rows, cols)


class _matrix_t:
    """``matrix_t.logpdf(X, mean=None, row_spread=1, col_spread=1, df=1)``, ``pdf`` and
    ``rvs(mean=None, row_spread=1, col_spread=1, df=1, size=1, random_state=None)``, as
    SciPy's: the matrix normal with ``row_spread`` mixed over an inverse Wishart.  The
    density differentiates in ``X``, ``mean``, both spreads and ``df``; the draws in
    ``mean`` and both spreads, and in ``df`` to first order (see
    :mod:`funcgrad.scipy._statsmv_matrix`).

    >>> import numpy as np, funcgrad as fg
    >>> M = np.arange(6.0).reshape(3, 2)
    >>> round(float(matrix_t.logpdf(M + 0.1, M, np.diag([1.0, 2.0, 3.0]),
    ...                             0.3 * np.eye(2), df=3.0)), 10)
    -0.002715656
    >>> matrix_t.rvs(M, size=2, random_state=0).shape
    (2, 3, 2)
    """

    name = "matrix_t"
    _names = ("row_spread", "col_spread")

    def logpdf(self, X: ArrayLike, mean: Optional[ArrayLike] = None,
               row_spread: ArrayLike = 1, col_spread: ArrayLike = 1, df: Any = 1) -> Array:
        """``log pdf(X)``: ``log Gamma_n((df + m + n - 1)/2) - log Gamma_n((df + n - 1)/2)
        - m n/2 log pi - n/2 log|row_spread| - m/2 log|col_spread| - (df + m + n - 1)/2
        log|I + B'B|``, ``B = L_r^-1 (X - mean) L_c^-T``."""
        dims, mean, rows, cols = _parameters(self.name, mean, row_spread, col_spread,
                                             self._names)
        df = self._df(df)
        x = _quantiles(self.name, X, dims)
        row_chol, row_logdet = _cholesky_logdet(rows)
        col_chol, col_logdet = _cholesky_logdet(cols)
        b = _whitened(x, mean, row_chol, col_chol)
        m, n = dims
        inner = np.eye(n, dtype=b.dtype) + fnp.swapaxes(b, -1, -2) @ b
        logdet = 2.0 * fnp.sum(fnp.log(fnp.diagonal(fnp.linalg.cholesky(inner), axis1=-2,
                                                    axis2=-1)), axis=-1)
        const = (sp.multigammaln((df + m + n - 1) / 2.0, n)
                 - sp.multigammaln((df + n - 1) / 2.0, n))
        if isinstance(df, (int, float)):
            const = fnp.asarray(const, b.dtype)
        out = (const - 0.5 * m * n * math.log(math.pi) - 0.5 * n * row_logdet
               - 0.5 * m * col_logdet - 0.5 * (df + m + n - 1) * logdet)
        return squeeze(out)

    def pdf(self, X: ArrayLike, mean: Optional[ArrayLike] = None,
            row_spread: ArrayLike = 1, col_spread: ArrayLike = 1, df: Any = 1) -> Array:
        """``exp(logpdf)``."""
        return fnp.exp(self.logpdf(X, mean, row_spread, col_spread, df))

    def rvs(self, mean: Optional[ArrayLike] = None, row_spread: ArrayLike = 1,
            col_spread: ArrayLike = 1, df: Any = 1, size: int = 1,
            random_state: Any = None) -> Array:
        """``size`` draws (one of ``mean``'s shape for ``size=1``), SciPy's for the same
        ``random_state``: ``mean + L_r Z L_c'`` with the smaller side's factor that of an
        inverse Wishart draw (``df + d - 1`` degrees of freedom, the spread its scale)."""
        size = _count(size)
        dims, mean, rows, cols = _parameters(self.name, mean, row_spread, col_spread,
                                             self._names)
        df = self._df(df)
        rng = _random_state(random_state)
        z = _normal_draws(rng, dims, size).astype(mean.dtype)
        mixed, fixed = (rows, cols) if dims[0] <= dims[1] else (cols, rows)
        draws = invwishart.rvs(df + mixed.shape[0] - 1, mixed, size, rng)
        mixed_chol = fnp.linalg.cholesky(fnp.reshape(draws, (size,) + mixed.shape))
        fixed_chol = fnp.linalg.cholesky(lower_symmetric(fixed))
        row_chol, col_chol = ((mixed_chol, fixed_chol) if dims[0] <= dims[1]
                              else (fixed_chol, mixed_chol))
        out = mean + row_chol @ z @ fnp.swapaxes(col_chol, -1, -2)
        return fnp.reshape(out, dims) if size == 1 else out

    @staticmethod
    def _df(df):
        value = concrete_scalar(1 if df is None else df, "matrix_t", "df")
        if not value > 0:
            raise ValueError(f"matrix_t: df must be positive, got {value}")
        return 1 if df is None else df

    def __call__(self, mean: Optional[ArrayLike] = None, row_spread: ArrayLike = 1,
                 col_spread: ArrayLike = 1, df: Any = None, seed: Any = None) -> frozen:
        """The distribution with its parameters fixed, as SciPy's
        ``matrix_t(mean, row_spread, col_spread, df, seed)``."""
        _parameters(self.name, mean, row_spread, col_spread, self._names)
        return _frozen_matrix(self, (mean, row_spread, col_spread, self._df(df)), seed)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.{self.name}>"


matrix_normal = _matrix_normal()
matrix_t = _matrix_t()
