"""``LinearOperator`` and ``aslinearoperator`` (``scipy.sparse.linalg``'s): a linear map
known by its products, composable with ``@``, ``+``, scalar ``*`` and ``**``, adjoint
``.H`` and transpose ``.T``.

The products are funcgrad operations, so an operator built on a traced matrix, or on
functions that close over traced values, differentiates in them wherever it is used
(``cg``, ``lsqr``, ``expm_multiply``...).  Unlike SciPy's, an operator given only
``matvec`` still has ``rmatvec``: the adjoint of a linear function is its transpose
(``fg.vjp``) conjugated, which funcgrad can compute.
"""
from typing import Any, Tuple

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...typing import Array, ArrayLike
from ._arrays_linalg import as_sparse
from ._krylov import densified

__all__ = ["LinearOperator", "aslinearoperator"]


def _shape(shape):
    try:
        shape = tuple(int(d) for d in shape)
    except TypeError:
        raise ValueError(f"LinearOperator: shape must be a pair (M, N) of integers, got "
                         f"{shape!r}") from None
    if len(shape) != 2 or min(shape) < 0:
        raise ValueError(f"LinearOperator: shape must be a pair (M, N) of non-negative "
                         f"integers, got {shape}")
    return shape


def _adjoint_by_transposition(matvec, n, dtype):
    """``y -> A^H y`` for the linear ``matvec``: its VJP is ``A^T``, conjugated around."""
    from ...api import vjp

    def rmatvec(y):
        y = asarray(y)
        _, pullback = vjp(matvec, fnp.zeros(n, dtype))
        return fnp.conj(pullback(fnp.conj(y))[0])
    return rmatvec


class LinearOperator:
    """A linear map of shape ``(M, N)`` known by its products, as
    ``scipy.sparse.linalg.LinearOperator``: build one from functions
    (``LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None,
    rmatmat=None)``), or subclass it and define ``_matvec`` or ``_matmat`` (and
    ``_rmatvec``/``_adjoint`` if wanted), calling ``super().__init__(dtype, shape)``.

    ``A @ x`` (or ``A.dot(x)``, ``A * x``, ``A(x)``) is ``matvec`` for a vector and
    ``matmat`` for a matrix; ``A @ B`` of two operators, ``A + B``, ``c * A``, ``-A``,
    ``A ** p`` are operators; ``A.H`` (``A.adjoint()``) and ``A.T`` too.  Without
    ``rmatvec``, ``A.H`` is the transpose of ``matvec`` (by ``fg.vjp``), conjugated.
    ``dtype=None`` is that of ``matvec`` applied to zeros, as SciPy infers it.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.sparse.linalg import LinearOperator
    >>> A = LinearOperator((2, 2), matvec=lambda v: np.stack([2 * v[0], v[0] + v[1]]))
    >>> A @ np.ones(2), A.H @ np.ones(2), (A @ A + 2 * A).matvec(np.ones(2))
    (array([2., 2.]), array([3., 1.]), array([8., 8.]))
    >>> fg.grad(lambda s: (s * A).matvec(np.ones(2)).sum())(1.0)  # (a traced scalar)
    np.float64(4.0)
    """
    ndim = 2
    __array_ufunc__ = None  # (so that array @ A and array * A come to __rmatmul__/__rmul__)

    def __new__(cls, *args: Any, **kwargs: Any) -> "LinearOperator":
        if cls is LinearOperator:  # (built from functions, as SciPy's constructor is)
            return super().__new__(_CustomLinearOperator)
        if "_matvec" not in _own(cls) and "_matmat" not in _own(cls):
            raise TypeError(f"LinearOperator subclass {cls.__name__} must define _matvec "
                            f"or _matmat")
        return super().__new__(cls)

    def __init__(self, dtype: Any, shape: Tuple[int, int]) -> None:
        self.shape = _shape(shape)
        self.dtype = None if dtype is None else np.dtype(dtype)
        if self.dtype is None:
            self.dtype = np.dtype(asarray(self.matvec(np.zeros(self.shape[1]))).dtype)

    # --- the products ---------------------------------------------------------------------
    def _matvec(self, x):
        return self._matmat(fnp.reshape(x, (-1, 1)))

    def _matmat(self, X):
        return fnp.stack([fnp.reshape(self.matvec(X[:, j]), (-1,))
                          for j in range(X.shape[1])], axis=1) if X.shape[1] else \
            fnp.zeros((self.shape[0], 0), self.dtype)

    def _rmatvec(self, x):
        if type(self)._adjoint is not LinearOperator._adjoint:
            return self.H.matvec(x)
        return _adjoint_by_transposition(
            lambda v: fnp.reshape(self.matvec(v), (-1,)), self.shape[1], self.dtype)(x)

    def _rmatmat(self, X):
        return fnp.stack([fnp.reshape(self.rmatvec(X[:, j]), (-1,))
                          for j in range(X.shape[1])], axis=1) if X.shape[1] else \
            fnp.zeros((self.shape[1], 0), self.dtype)

    def _vector(self, name, x, size):
        x = asarray(x)
        if x.shape not in ((size,), (size, 1)):
            raise ValueError(f"LinearOperator.{name}: dimension mismatch: the operator has "
                             f"shape {self.shape}, x has shape {tuple(x.shape)} (expected "
                             f"({size},) or ({size}, 1))")
        return x

    def matvec(self, x: ArrayLike) -> Array:
        """``A x`` for ``x`` of shape ``(N,)`` or ``(N, 1)`` (the result shaped alike).

        >>> import numpy as np
        >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
        >>> aslinearoperator(np.eye(2)).matvec(np.array([1.0, 2.0]))
        array([1., 2.])
        """
        x = self._vector("matvec", x, self.shape[1])
        y = self._matvec(fnp.reshape(x, (-1,)))
        return fnp.reshape(y, (self.shape[0],) if x.ndim == 1 else (self.shape[0], 1))

    def rmatvec(self, x: ArrayLike) -> Array:
        """``A^H x`` for ``x`` of shape ``(M,)`` or ``(M, 1)``.

        >>> import numpy as np
        >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
        >>> aslinearoperator(np.array([[1.0, 2.0]])).rmatvec(np.array([3.0]))
        array([3., 6.])
        """
        x = self._vector("rmatvec", x, self.shape[0])
        y = self._rmatvec(fnp.reshape(x, (-1,)))
        return fnp.reshape(y, (self.shape[1],) if x.ndim == 1 else (self.shape[1], 1))

    def _matrix(self, name, X, rows):
        X = asarray(X)
        if X.ndim != 2 or X.shape[0] != rows:
            raise ValueError(f"LinearOperator.{name}: dimension mismatch: the operator has "
                             f"shape {self.shape}, X has shape {tuple(X.shape)} (expected "
                             f"({rows}, K))")
        return X

    def matmat(self, X: ArrayLike) -> Array:
        """``A X`` for ``X`` of shape ``(N, K)``.

        >>> import numpy as np
        >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
        >>> aslinearoperator(2 * np.eye(2)).matmat(np.ones((2, 1)))
        array([[2.],
               [2.]])
        """
        return self._matmat(self._matrix("matmat", X, self.shape[1]))

    def rmatmat(self, X: ArrayLike) -> Array:
        """``A^H X`` for ``X`` of shape ``(M, K)``.

        >>> import numpy as np
        >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
        >>> aslinearoperator(np.array([[1.0, 2.0]])).rmatmat(np.ones((1, 1)))
        array([[1.],
               [2.]])
        """
        return self._rmatmat(self._matrix("rmatmat", X, self.shape[0]))

    def dot(self, x: Any) -> Any:
        """``A @ x``: an operator for an operator (or a scaled one for a scalar), ``matvec``
        for a vector, ``matmat`` for a matrix.

        >>> import numpy as np
        >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
        >>> aslinearoperator(np.eye(2)).dot(np.ones(2))
        array([1., 1.])
        """
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if np.isscalar(x) or (hasattr(x, "ndim") and x.ndim == 0):
            return _ScaledLinearOperator(self, x)
        x = asarray(densified(x))
        if x.ndim == 1:
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"LinearOperator: expected a 1-d or 2-d array or an operator, got "
                         f"shape {tuple(x.shape)}")

    def __matmul__(self, x: Any) -> Any:
        if np.isscalar(x):
            raise ValueError("LinearOperator: scalar operands are not allowed with @; use *")
        return self.dot(x)

    def __rmatmul__(self, x: Any) -> Any:
        if np.isscalar(x):
            raise ValueError("LinearOperator: scalar operands are not allowed with @; use *")
        x = asarray(densified(x))
        # x A = (A^T x^T)^T, with A^T y = conj(A^H conj(y))
        return fnp.conj(self.H.dot(fnp.conj(x.T))).T

    def __call__(self, x: Any) -> Any:
        return self * x

    def __mul__(self, x: Any) -> Any:
        return self.dot(x)

    def __rmul__(self, x: Any) -> Any:
        if np.isscalar(x) or (hasattr(x, "ndim") and x.ndim == 0):
            return _ScaledLinearOperator(self, x)
        return NotImplemented

    def __truediv__(self, x: Any) -> Any:
        if not (np.isscalar(x) or (hasattr(x, "ndim") and x.ndim == 0)):
            raise ValueError("LinearOperator: can only be divided by a scalar")
        return _ScaledLinearOperator(self, 1.0 / x)

    def __pow__(self, p: int) -> "LinearOperator":
        if not isinstance(p, (int, np.integer)) or p < 0:
            raise ValueError(f"LinearOperator: the power must be a non-negative integer, "
                             f"got {p!r}")
        if self.shape[0] != self.shape[1]:
            raise ValueError(f"LinearOperator: only a square operator has powers; this one "
                             f"has shape {self.shape}")
        return _PowerLinearOperator(self, int(p))

    def __add__(self, other: Any) -> "LinearOperator":
        if not isinstance(other, LinearOperator):
            return NotImplemented
        return _SumLinearOperator(self, other)

    def __neg__(self) -> "LinearOperator":
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, other: Any) -> "LinearOperator":
        return self + (-other)

    # --- adjoint and transpose --------------------------------------------------------------
    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)

    def adjoint(self) -> "LinearOperator":
        """The Hermitian adjoint ``A^H`` (also ``A.H``).

        >>> import numpy as np
        >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
        >>> aslinearoperator(np.array([[1.0, 2.0]])).adjoint().shape
        (2, 1)
        """
        return self._adjoint()

    def transpose(self) -> "LinearOperator":
        """The transpose ``A^T`` (also ``A.T``).

        >>> import numpy as np
        >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
        >>> aslinearoperator(np.array([[1.0, 2.0]])).T @ np.array([1.0])
        array([1., 2.])
        """
        return self._transpose()

    H = property(adjoint)
    T = property(transpose)

    def __repr__(self) -> str:
        return (f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with "
                f"dtype={self.dtype}>")


def _own(cls):
    """The attributes a subclass chain defines below ``LinearOperator``."""
    names = set()
    for klass in cls.__mro__:
        if klass is LinearOperator:
            break
        names |= set(vars(klass))
    return names


class _CustomLinearOperator(LinearOperator):
    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        self._matvec_fn, self._rmatvec_fn = matvec, rmatvec
        self._matmat_fn, self._rmatmat_fn = matmat, rmatmat
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return asarray(self._matvec_fn(x))

    def _matmat(self, X):
        if self._matmat_fn is not None:
            return asarray(self._matmat_fn(X))
        return super()._matmat(X)

    def _rmatvec(self, x):
        if self._rmatvec_fn is not None:
            return asarray(self._rmatvec_fn(x))
        return super()._rmatvec(x)

    def _rmatmat(self, X):
        if self._rmatmat_fn is not None:
            return asarray(self._rmatmat_fn(X))
        return super()._rmatmat(X)


class _MatrixLinearOperator(LinearOperator):
    def __init__(self, A):
        self.A = A
        super().__init__(A.dtype, A.shape)

    def _matmat(self, X):
        return self.A @ X

    def _matvec(self, x):
        return self.A @ x

    def _rmatvec(self, x):
        return fnp.conj(self.A).T @ x

    def _rmatmat(self, X):
        return fnp.conj(self.A).T @ X

    def _adjoint(self):
        return _MatrixLinearOperator(fnp.conj(self.A).T)

    def _transpose(self):
        return _MatrixLinearOperator(self.A.T)


def _joined(*dtypes):
    return np.result_type(*[np.dtype(d) for d in dtypes])


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        self.A = A
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))

    def _matvec(self, x):
        return self.A.rmatvec(x)

    def _rmatvec(self, x):
        return self.A.matvec(x)

    def _adjoint(self):
        return self.A


class _TransposedLinearOperator(LinearOperator):
    def __init__(self, A):
        self.A = A
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))

    def _matvec(self, x):
        return fnp.conj(self.A.rmatvec(fnp.conj(x)))

    def _rmatvec(self, x):
        return fnp.conj(self.A.matvec(fnp.conj(x)))

    def _transpose(self):
        return self.A


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape != B.shape:
            raise ValueError(f"LinearOperator: cannot add operators of shapes {A.shape} and "
                             f"{B.shape}")
        self.args = (A, B)
        super().__init__(_joined(A.dtype, B.dtype), A.shape)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _matmat(self, X):
        return self.args[0].matmat(X) + self.args[1].matmat(X)


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"LinearOperator: cannot multiply operators of shapes {A.shape} "
                             f"and {B.shape}")
        self.args = (A, B)
        super().__init__(_joined(A.dtype, B.dtype), (A.shape[0], B.shape[1]))

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _matmat(self, X):
        return self.args[0].matmat(self.args[1].matmat(X))


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        self.args = (A, alpha)
        super().__init__(_joined(A.dtype, asarray(alpha).dtype), A.shape)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return fnp.conj(self.args[1]) * self.args[0].rmatvec(x)

    def _matmat(self, X):
        return self.args[1] * self.args[0].matmat(X)


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        self.args = (A, p)
        super().__init__(A.dtype, A.shape)

    def _power(self, fn, x):
        for _ in range(self.args[1]):
            x = fn(x)
        return x

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _matmat(self, X):
        return self._power(self.args[0].matmat, X)


def aslinearoperator(A: Any) -> LinearOperator:
    """``A`` as a :class:`LinearOperator` (``scipy.sparse.linalg.aslinearoperator``): an
    operator as given; a 2-d array (NumPy's, a traced one, a list) as the operator of its
    products; a sparse array (funcgrad's or SciPy's) as that of its sparse products; an
    object with ``shape`` and ``matvec`` (and optionally ``rmatvec``, ``matmat``,
    ``dtype``) as the operator of those.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.sparse.linalg import aslinearoperator
    >>> aslinearoperator(np.array([[1.0, 2.0], [3.0, 4.0]])).H @ np.array([1.0, 0.0])
    array([1., 2.])
    >>> fg.grad(lambda a: (aslinearoperator(a) @ np.ones(2)).sum())(np.eye(2))
    array([[1., 1.],
           [1., 1.]])
    """
    if isinstance(A, LinearOperator):
        return A
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return _CustomLinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                                     matmat=getattr(A, "matmat", None),
                                     dtype=getattr(A, "dtype", None),
                                     rmatmat=getattr(A, "rmatmat", None))
    sparse = as_sparse(A)
    if sparse is not None:  # (its products, by the stored entries: never densified)
        adjoint = sparse.conj().T
        return _CustomLinearOperator(sparse.shape, lambda v: sparse @ v,
                                     rmatvec=lambda v: adjoint @ v,
                                     matmat=lambda X: sparse @ X,
                                     rmatmat=lambda X: adjoint @ X, dtype=sparse.dtype)
    if callable(A):
        raise TypeError("aslinearoperator: a function has no shape; wrap it as "
                        "LinearOperator((M, N), matvec=function)")
    matrix = asarray(densified(A))
    if matrix.ndim != 2:
        raise ValueError(f"aslinearoperator: expected a 2-d array, got shape "
                         f"{tuple(matrix.shape)}")
    if matrix.dtype.kind in "biu":
        matrix = fnp.astype(matrix, np.float64)
    if matrix.dtype.kind not in "fc":
        raise TypeError(f"aslinearoperator: expected a float or complex array, got dtype "
                        f"{matrix.dtype}")
    return _MatrixLinearOperator(matrix)
