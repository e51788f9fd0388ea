"""What SciPy's sparse formats compute the same way everywhere, written once: ``real`` and
``imag`` (every format), and, for the formats that keep their own storage (DIA, BSR, DOK,
LIL), the methods that go through COO or CSR and come back in SciPy's result format:
``conj``, ``count_nonzero``, ``nonzero``, ``mean``, ``trace``, ``size``, ``diagonal``,
``dot``, ``multiply``, ``power``, ``astype`` and the conversions ``todia``, ``todok``,
``tolil``, ``tobsr``.  The stored values pass through funcgrad's operations, so the
derivatives reach them."""
from typing import Any

import numpy as np

from ... import numpy as fnp

__all__ = ["RealImag", "CommonMethods"]


class RealImag:
    """``real`` and ``imag``: the stored values' parts, in this format (CSR for DOK and
    LIL, as SciPy's).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_array(np.array([[1 + 2j, 0]]))
    >>> A.real.data, A.imag.data
    (array([1.]), array([2.]))
    """

    format: str

    def _mapped(self, function: Any) -> Any:
        """This array with ``function`` of its stored values, in its format."""
        like = getattr(self, "_like", None)
        if like is not None:
            return like(function(self.data))  # type: ignore[attr-defined]
        coo = self.tocoo()  # type: ignore[attr-defined]
        return self._back(coo._like(function(coo.data)))  # type: ignore[attr-defined]

    @property
    def real(self) -> Any:
        """The real part (a sparse array of the same pattern)."""
        if self.format in ("dok", "lil"):
            return self.tocsr().real  # type: ignore[attr-defined]
        return self._mapped(fnp.real)

    @property
    def imag(self) -> Any:
        """The imaginary part (a sparse array of the same pattern)."""
        if self.format in ("dok", "lil"):
            return self.tocsr().imag  # type: ignore[attr-defined]
        return self._mapped(fnp.imag)


class CommonMethods(RealImag):
    """The methods DIA, BSR, DOK and LIL arrays share with CSR: each by way of the COO or
    CSR form, the result in SciPy's format.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.dok_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> A.trace(), A.mean(axis=0), A.count_nonzero(), A.power(2).format
    (np.float64(3.0), array([0.5, 1. ]), 2, 'csr')
    """

    @property
    def size(self) -> int:
        """As ``nnz`` (SciPy's meaning of ``size`` for sparse arrays)."""
        return int(self.nnz)  # type: ignore[attr-defined]

    def conjugate(self, copy: bool = True) -> Any:
        """The complex conjugate, in this format (CSR for complex DOK and LIL, as SciPy's).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1j, 2.0]]), [0]), shape=(2, 2)).conj().data
        array([[0.-1.j, 2.-0.j]])
        """
        if self.format in ("dok", "lil") and np.dtype(self.dtype).kind == "c":  # type: ignore
            return self.tocsr().conjugate()  # type: ignore[attr-defined]
        return self._mapped(fnp.conj)

    conj = conjugate

    def astype(self, dtype: Any, casting: str = "unsafe", copy: bool = True) -> Any:
        """The same array with values cast to ``dtype``, in this format.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.eye(2)).astype(np.float32).dtype
        dtype('float32')
        """
        return self._mapped(lambda data: fnp.astype(data, np.dtype(dtype)))

    def count_nonzero(self, axis: Any = None) -> Any:
        """The number of nonzero entries (stored zeros left out), in all or per line.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2), blocksize=(2, 2)).count_nonzero()
        2
        """
        return self.tocoo().count_nonzero(axis)  # type: ignore[attr-defined]

    def nonzero(self) -> Any:
        """``(row, col)`` of the nonzero entries, row by row.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.array([[0.0, 2.0]])).nonzero()
        (array([0], dtype=int32), array([1], dtype=int32))
        """
        return self.tocoo().nonzero()  # type: ignore[attr-defined]

    def mean(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        """The mean of all entries (the zeros counted), or along ``axis``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2)).mean()
        np.float64(0.75)
        """
        return self.tocsr().mean(axis, dtype, out)  # type: ignore[attr-defined]

    def trace(self, offset: int = 0) -> Any:
        """The sum of the ``offset``-th diagonal.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).trace()
        np.float64(2.0)
        """
        return self.tocsr().trace(offset)  # type: ignore[attr-defined]

    def diagonal(self, k: int = 0) -> Any:
        """The ``k``-th diagonal (a dense 1-d array).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array(np.array([[1.0, 2.0], [0.0, 3.0]])).diagonal()
        array([1., 3.])
        """
        return self.tocsr().diagonal(k)  # type: ignore[attr-defined]

    def dot(self, other: Any) -> Any:
        """The product ``self @ other`` (``self * other`` for a scalar).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.eye(2)).dot(np.array([1.0, 2.0]))
        array([1., 2.])
        """
        if np.ndim(other) == 0 and not hasattr(other, "format"):
            return self * other
        return self @ other

    def multiply(self, other: Any) -> Any:
        """The elementwise product: with a scalar in this format, else as CSR's (a COO
        result for a dense operand, CSR for a sparse one).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array(np.eye(2)).multiply(np.array([2.0, 3.0])).format
        'coo'
        """
        if np.ndim(other) == 0 and not hasattr(other, "format"):
            return self * other
        return self.tocsr().multiply(other)  # type: ignore[attr-defined]

    def power(self, n: Any, dtype: Any = None) -> Any:
        """The elementwise power of the stored values, as CSR (SciPy's result for DOK and
        LIL).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.array([[2.0, 0.0]])).power(3).toarray()
        array([[8., 0.]])
        """
        return self.tocsr().power(n, dtype)  # type: ignore[attr-defined]

    def todia(self, copy: bool = False) -> Any:
        """This array in DIA format.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.eye(2)).todia().offsets
        array([0])
        """
        return self.tocoo().todia()  # type: ignore[attr-defined]

    def todok(self, copy: bool = False) -> Any:
        """This array as a dictionary of keys.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.eye(2)).todok().nnz
        2
        """
        return self.tocoo().todok()  # type: ignore[attr-defined]

    def tolil(self, copy: bool = False) -> Any:
        """This array as row lists.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array(np.eye(2)).tolil().rows
        array([list([0]), list([1])], dtype=object)
        """
        return self.tocoo().tolil()  # type: ignore[attr-defined]

    def tobsr(self, blocksize: Any = None, copy: bool = False) -> Any:
        """This array in blocks of ``blocksize`` (SciPy's estimate when None).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array(np.eye(2)).tobsr((2, 2)).blocksize
        (2, 2)
        """
        return self.tocoo().tobsr(blocksize)  # type: ignore[attr-defined]
