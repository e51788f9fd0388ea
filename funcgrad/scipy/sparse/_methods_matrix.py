"""What SciPy's ``spmatrix`` adds to the sparse matrices (never to the arrays): the getters
``get_shape``, ``getformat``, ``getmaxprint``, ``getnnz``, ``getrow``, ``getcol``,
``getH``, ``asfptype``, and a settable ``shape`` (``set_shape``, in place)."""
from typing import Any

import numpy as np

from ._arrays_base import position

__all__ = ["MatrixMethods"]

_MAXPRINT = 50  # (SciPy's default; funcgrad's repr prints no entries)


def _get_shape(self: Any) -> tuple:
    return self._shape


def _set_shape(self: Any, shape: Any) -> None:
    self.set_shape(shape)


class MatrixMethods:
    """The ``*_matrix`` classes' getters (SciPy's ``spmatrix`` methods).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
    >>> A.getrow(1).toarray(), A.getformat(), A.get_shape()
    (array([[2., 3.]]), 'csr', (2, 2))
    """

    # SciPy's matrices' shape may be set (an in-place reshape), the arrays' may not; each
    # matrix class takes this one ahead of its format's read-only property.
    shape = property(_get_shape, _set_shape, doc="``(M, N)``; settable, as ``set_shape``.")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "shape" not in vars(cls):
            cls.shape = MatrixMethods.shape

    def get_shape(self) -> tuple:
        """The shape ``(M, N)``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.coo_matrix(np.eye(2)).get_shape()
        (2, 2)
        """
        return tuple(self.shape)

    def set_shape(self, shape: Any) -> None:
        """Reshape in place (the entries in C order), keeping the format.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_matrix(np.array([[1.0, 2.0]])); A.set_shape((2, 1)); A.toarray()
        array([[1.],
               [2.]])
        """
        self._become(self.reshape(shape).asformat(self.format))  # type: ignore[attr-defined]

    def getformat(self) -> str:
        """The format's name (``'csr'``...).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_matrix(np.eye(2)).getformat()
        'lil'
        """
        return self.format  # type: ignore[attr-defined]

    def getmaxprint(self) -> int:
        """The number of entries SciPy's ``repr`` would print (50).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_matrix(np.eye(2)).getmaxprint()
        50
        """
        return _MAXPRINT

    def getnnz(self, axis: Any = None) -> Any:
        """The number of stored entries, in all or per row (``axis=1``) or column (0).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_matrix(np.eye(2)).getnnz(axis=0)
        array([1, 1], dtype=int32)
        """
        if axis is None:
            return self.nnz  # type: ignore[attr-defined]
        return self.tocoo().getnnz(axis)  # type: ignore[attr-defined]

    def getrow(self, i: int) -> Any:
        """Row ``i`` as a 1 by N ``csr_matrix`` (SciPy's, for every format).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.coo_matrix(np.array([[1.0, 0.0], [2.0, 3.0]])).getrow(-1).format
        'csr'
        """
        i = position(i, self.shape[0])
        return self.tocsr()[i:i + 1, :]  # type: ignore[attr-defined]

    def getcol(self, j: int) -> Any:
        """Column ``j`` as an M by 1 matrix: CSC for CSC, BSR (blocks ``(R, 1)``) for BSR,
        else CSR, as SciPy's.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csc_matrix(np.array([[1.0, 0.0], [2.0, 3.0]])).getcol(1).toarray()
        array([[0.],
               [3.]])
        """
        j = position(j, self.shape[1])
        column = self.tocsc()[:, j:j + 1]  # type: ignore[attr-defined]
        if self.format == "bsr":  # type: ignore[attr-defined]
            return column.tobsr((getattr(self, "blocksize")[0], 1))
        return column if self.format == "csc" else column.tocsr()  # type: ignore[attr-defined]

    def getH(self) -> Any:
        """The conjugate transpose.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_matrix(np.array([[1j, 2.0]])).getH().toarray()
        array([[0.-1.j],
               [2.+0.j]])
        """
        return self.conj().T  # type: ignore[attr-defined]

    def asfptype(self) -> Any:
        """This matrix with a floating-point dtype: itself when it has one, else the
        smallest of float32, float64, complex64, complex128 its values cast to safely.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_matrix(np.eye(2, dtype=np.int32)).asfptype().dtype
        dtype('float64')
        """
        dtype = np.dtype(self.dtype)  # type: ignore[attr-defined]
        if dtype.char in "fdFD":
            return self
        for candidate in "fdFD":
            if np.can_cast(dtype, candidate):
                return self.astype(candidate)  # type: ignore[attr-defined]
        raise TypeError(f"cannot upcast [{dtype.name}] to a floating point format")

    def todense(self, order: Any = None, out: Any = None) -> Any:
        """The dense array (2-d; SciPy's is an ``np.matrix``).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_matrix(np.eye(2)).todense()[1, 1]
        np.float64(1.0)
        """
        return self.toarray(order, out)  # type: ignore[attr-defined]
