"""``Covariance`` of :mod:`funcgrad.scipy.stats` (re-exported there): SciPy's
representations of a covariance matrix, made by ``Covariance.from_precision``,
``from_diagonal``, ``from_cholesky`` and ``from_eigendecomposition``, with ``whiten``,
``colorize``, ``log_pdet``, ``rank``, ``covariance`` and ``shape``, all differentiable in
the arrays given.  ``multivariate_normal`` takes one as ``cov`` (through its dense
``covariance``, read by ``_distn._multivariate_parameters``); a singular one (a zero
diagonal entry or eigenvalue) needs ``allow_singular=True`` there, where SciPy takes it
without.

This module imports no other of :mod:`funcgrad.scipy`'s (``_distn`` imports it).
"""
from typing import Any, Tuple

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import is_concrete
from ..typing import Array, ArrayLike

__all__ = ["Covariance"]


def _real(a, name, ndim):
    a = fnp.asarray(a)
    a = fnp.reshape(a, (1,) * (ndim - a.ndim) + a.shape) if a.ndim < ndim else a
    square = ndim == 1 or (a.ndim == 2 and a.shape[0] == a.shape[1])
    if a.ndim != ndim or not square or a.dtype.kind not in "iuf":
        what = ("a one-dimensional array" if ndim == 1
                else "a square, two-dimensional array")
        raise ValueError(f"Covariance: {name} must be {what} of real numbers; got shape "
                         f"{tuple(a.shape)} and dtype {a.dtype}")
    return a if a.dtype.kind == "f" else fnp.asarray(a, np.float64)


def _lower_solve(lower, b):
    """``lower^-1 b`` (a general solve: triangular ``lower`` gives the same numbers)."""
    return fnp.linalg.solve(lower, b)


class Covariance:
    """A covariance matrix in one of SciPy's representations (``scipy.stats.Covariance``),
    made by ``Covariance.from_precision(precision, covariance=None)``,
    ``from_diagonal(diagonal)``, ``from_cholesky(cholesky)`` or
    ``from_eigendecomposition((eigenvalues, eigenvectors))``: ``whiten(x)`` (``x`` times a
    factor ``W`` of the (pseudo-)inverse, ``W W' = cov^+``), ``colorize(x)`` (its inverse
    map, ``x A'`` with ``A A' = cov``), ``log_pdet``, ``rank``, ``covariance`` and
    ``shape``; differentiable in the arrays given.  ``multivariate_normal`` takes one as
    ``cov``.

    >>> import numpy as np, funcgrad as fg
    >>> c = Covariance.from_diagonal(np.array([1.0, 4.0]))
    >>> c.whiten(np.array([2.0, 2.0]))
    array([2., 1.])
    >>> float(c.log_pdet), int(c.rank)
    (1.3862943611198906, 2)
    >>> fg.grad(lambda d: Covariance.from_diagonal(d).log_pdet)(np.array([1.0, 4.0]))
    array([1.  , 0.25])
    """

    _shape: Tuple[int, ...]

    def __init__(self) -> None:
        raise NotImplementedError("Covariance cannot be made directly: use one of its "
                                  "factories (Covariance.from_diagonal, from_precision, "
                                  "from_cholesky, from_eigendecomposition)")

    @staticmethod
    def from_diagonal(diagonal: ArrayLike) -> "Covariance":
        """The diagonal covariance ``diag(diagonal)``; zero entries make it singular
        (the pseudo-determinant and pseudo-inverse leave them out, as SciPy's)."""
        return _CovViaDiagonal(diagonal)

    @staticmethod
    def from_precision(precision: ArrayLike, covariance: Any = None) -> "Covariance":
        """The covariance whose inverse is ``precision`` (positive definite), whitening
        with ``precision``'s Cholesky factor; ``covariance``, where given, is returned by
        ``.covariance`` instead of the inverse."""
        return _CovViaPrecision(precision, covariance)

    @staticmethod
    def from_cholesky(cholesky: ArrayLike) -> "Covariance":
        """The covariance ``L L'`` of the lower triangular factor ``L = cholesky``."""
        return _CovViaCholesky(cholesky)

    @staticmethod
    def from_eigendecomposition(eigendecomposition: Any) -> "Covariance":
        """The covariance ``V diag(w) V'`` of ``(w, V) = eigendecomposition`` (as
        ``np.linalg.eigh`` gives); zero eigenvalues make it singular."""
        return _CovViaEigendecomposition(eigendecomposition)

    def whiten(self, x: ArrayLike) -> Array:
        """``x`` (points along its last axis) in the coordinates where the covariance is
        the identity."""
        return self._whiten(fnp.asarray(x))

    def colorize(self, x: ArrayLike) -> Array:
        """The inverse of ``whiten``: white points given this covariance."""
        return self._colorize(fnp.asarray(x))

    @property
    def log_pdet(self) -> Array:
        """The log of the pseudo-determinant (the determinant where of full rank)."""
        return self._log_pdet

    @property
    def rank(self) -> Any:
        """The rank (an int)."""
        return self._rank

    @property
    def covariance(self) -> Array:
        """The covariance as a dense matrix."""
        return self._covariance()

    @property
    def shape(self) -> Tuple[int, ...]:
        """The shape of the covariance matrix."""
        return self._shape

    _log_pdet: Any
    _rank: Any

    def _whiten(self, x):
        raise NotImplementedError

    def _colorize(self, x):
        raise NotImplementedError

    def _covariance(self):
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.Covariance {type(self).__name__[1:]} {self._shape}>"


def _pseudo(values):
    """``(zero mask, log pseudo-determinant, pseudo-reciprocal square roots, rank)`` of
    positive-or-zero ``values`` (SciPy's: entries <= 0 count as zero)."""
    zero = fnp.less_equal(fnp.stop_gradient(values), 0)
    positive = fnp.where(zero, 1.0, values)
    log_pdet = fnp.sum(fnp.log(positive), axis=-1)
    reciprocal = fnp.where(zero, 0.0, 1.0 / fnp.sqrt(positive))
    rank = values.shape[-1] - fnp.sum(zero, axis=-1)
    # (an int, as SciPy's, where the values are known; traced under vmap and jit)
    return zero, log_pdet, reciprocal, int(rank) if is_concrete(rank) else rank


class _CovViaDiagonal(Covariance):
    def __init__(self, diagonal):
        diagonal = _real(diagonal, "diagonal", 1)
        self._zero, self._log_pdet, self._reciprocal, self._rank = _pseudo(diagonal)
        self._diagonal = diagonal
        self._shape = diagonal.shape * 2

    def _whiten(self, x):
        return x * self._reciprocal

    def _colorize(self, x):
        return x * fnp.sqrt(self._diagonal)

    def _covariance(self):
        return self._diagonal * np.eye(self._shape[0], dtype=self._diagonal.dtype)


class _CovViaPrecision(Covariance):
    def __init__(self, precision, covariance=None):
        precision = _real(precision, "precision", 2)
        if covariance is not None:
            covariance = _real(covariance, "covariance", 2)
            if covariance.shape != precision.shape:
                raise ValueError(f"Covariance.from_precision: precision.shape "
                                 f"{tuple(precision.shape)} must equal covariance.shape "
                                 f"{tuple(covariance.shape)}")
        self._chol = fnp.linalg.cholesky(precision)
        self._log_pdet = -2.0 * fnp.sum(fnp.log(fnp.diagonal(self._chol)))
        self._rank = precision.shape[-1]
        self._given = covariance
        self._shape = tuple(precision.shape)

    def _whiten(self, x):
        return x @ self._chol

    def _colorize(self, x):
        # x L_P^-T, from L_P' y' = x'
        flat = fnp.reshape(x, (-1, x.shape[-1]))
        return fnp.reshape(fnp.swapaxes(fnp.linalg.solve(
            fnp.swapaxes(self._chol, 0, 1), fnp.swapaxes(flat, 0, 1)), 0, 1), x.shape)

    def _covariance(self):
        if self._given is not None:
            return self._given
        inverse = _lower_solve(self._chol, np.eye(self._shape[0], dtype=self._chol.dtype))
        return fnp.swapaxes(inverse, 0, 1) @ inverse


class _CovViaCholesky(Covariance):
    def __init__(self, cholesky):
        self._factor = _real(cholesky, "cholesky", 2)
        self._log_pdet = 2.0 * fnp.sum(fnp.log(fnp.diagonal(self._factor)))
        self._rank = self._factor.shape[-1]
        self._shape = tuple(self._factor.shape)

    def _whiten(self, x):
        flat = fnp.reshape(x, (-1, x.shape[-1]))
        return fnp.reshape(fnp.swapaxes(_lower_solve(self._factor, fnp.swapaxes(flat, 0, 1)),
                                        0, 1), x.shape)

    def _colorize(self, x):
        return x @ fnp.swapaxes(self._factor, 0, 1)

    def _covariance(self):
        return self._factor @ fnp.swapaxes(self._factor, 0, 1)


class _CovViaEigendecomposition(Covariance):
    def __init__(self, eigendecomposition):
        try:
            eigenvalues, eigenvectors = eigendecomposition
        except (TypeError, ValueError) as e:
            raise ValueError("Covariance.from_eigendecomposition takes the pair "
                             "(eigenvalues, eigenvectors), as np.linalg.eigh gives") from e
        eigenvalues = _real(eigenvalues, "eigenvalues", 1)
        eigenvectors = _real(eigenvectors, "eigenvectors", 2)
        if eigenvalues.shape[0] not in (1, eigenvectors.shape[-1]):
            raise ValueError(f"Covariance.from_eigendecomposition: the shapes of "
                             f"eigenvalues {tuple(eigenvalues.shape)} and eigenvectors "
                             f"{tuple(eigenvectors.shape)} must be compatible")
        eigenvalues = fnp.broadcast_to(eigenvalues, eigenvectors.shape[-1:])
        self._zero, self._log_pdet, reciprocal, self._rank = _pseudo(eigenvalues)
        self._whitener = eigenvectors * reciprocal
        self._colorizer = eigenvectors * fnp.sqrt(eigenvalues)
        self._values, self._vectors = eigenvalues, eigenvectors
        self._shape = tuple(eigenvectors.shape)

    def _whiten(self, x):
        return x @ self._whitener

    def _colorize(self, x):
        return x @ fnp.swapaxes(self._colorizer, 0, 1)

    def _covariance(self):
        return (self._vectors * self._values) @ fnp.swapaxes(self._vectors, 0, 1)
