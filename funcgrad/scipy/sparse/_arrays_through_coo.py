"""What DIA, BSR, DOK and LIL arrays share: their conversions, through each one's COO form
(``tocoo``, its own), and DIA's and BSR's arithmetic (on the stored values for a scalar,
else through CSR), as SciPy's formats without their own kernels compute."""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ._arrays_core import coerce
from ._methods_common import CommonMethods
from ._methods_extrema import ElementwiseExtrema
from ._methods_shape import ShapeMethods


class ThroughCoo(CommonMethods, ElementwiseExtrema, ShapeMethods):
    """``tocsr``, ``tocsc``, ``asformat``, ``toarray``/``todense`` by way of ``tocoo()``; a
    subclass names its ``format`` and defines ``tocoo`` and ``copy``.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2))
    >>> A.tocsr().format, A.tocsc().format, A.asformat("coo").nnz
    ('csr', 'csc', 2)
    """

    format: str

    def tocoo(self, copy: bool = False) -> Any:  # pragma: no cover - each format's own
        raise NotImplementedError

    def copy(self) -> Any:  # pragma: no cover - each format's own
        raise NotImplementedError

    def tocsr(self, copy: bool = False) -> Any:
        """This array as CSR.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array((2, 2)).tocsr().format
        'csr'
        """
        return self.tocoo().tocsr()

    def tocsc(self, copy: bool = False) -> Any:
        """This array as CSC.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array((2, 2)).tocsc().format
        'csc'
        """
        return self.tocoo().tocsc()

    def asformat(self, format: Any, copy: bool = False) -> Any:  # noqa: A002
        """This array in ``format`` (itself for its own, a copy with ``copy=True``).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).asformat("coo").format
        'coo'
        """
        if format is None or format == self.format:
            return self.copy() if copy else self
        return self.tocoo().asformat(format)

    def toarray(self, order: Any = None, out: Any = None) -> Any:
        """The dense array.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.lil_array((1, 2)); A[0, 1] = 2.0; A.toarray()
        array([[0., 2.]])
        """
        return self.tocoo().toarray(order, out)

    def todense(self, order: Any = None, out: Any = None) -> Any:
        """As ``toarray``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).todense()[1, 1]
        np.float64(1.0)
        """
        return self.toarray(order, out)


def operand(other: Any) -> Any:
    """``other`` as funcgrad's COO/CSR/CSC array when it is sparse (SciPy's or a converted
    format), else as it is."""
    sparse = coerce(other)
    return sparse if sparse is not None else other


class StoredValueOps(ThroughCoo):
    """The arithmetic DIA and BSR arrays share: scalars act on the stored values and keep
    the format (``_like(data)``); anything else goes through CSR and comes back in the
    format (``_back``).  A subclass defines ``data``, ``_like``, ``_back`` and ``__matmul__``.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2))
    >>> (2.0 * A).format, (A - A).format, (-A).format, (A + A.tocsr()).toarray()[1, 1]
    ('dia', 'dia', 'dia', np.float64(4.0))
    """

    data: Any

    def _like(self, data: Any) -> Any:  # pragma: no cover - each format's own
        raise NotImplementedError

    def _back(self, result: Any) -> Any:  # pragma: no cover - each format's own
        raise NotImplementedError

    def __rmatmul__(self, other):
        return self.tocsr().__rmatmul__(other)

    def dot(self, other: Any) -> Any:
        """As ``@`` (``*`` for a scalar).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).dot(np.ones(2))
        array([1., 1.])
        """
        return self * other if np.ndim(other) == 0 else self @ other

    def __mul__(self, other):
        if np.ndim(other) == 0 and not hasattr(other, "format"):
            return self._like(self.data * other)
        return self._back(self.tocsr() * operand(other))

    def __rmul__(self, other):
        if np.ndim(other) == 0:
            return self._like(other * self.data)
        return self.tocsr().__rmul__(other)

    def __truediv__(self, other):
        return self.tocsr() / other if np.ndim(other) else self._like(self.data / other)

    def __neg__(self):
        return self._like(-self.data)

    def __abs__(self):
        return self._like(fnp.abs(self.data))

    def __add__(self, other):
        return self._back(self.tocsr() + operand(other))

    __radd__ = __add__

    def __sub__(self, other):
        return self._back(self.tocsr() - operand(other))

    def __rsub__(self, other):
        return self._back((-self.tocsr()) + operand(other))

    def power(self, n: Any, dtype: Any = None) -> Any:
        """The elementwise power of the stored values.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2)).power(2).data
        array([[1., 4.]])
        """
        data = self.data if dtype is None else fnp.astype(self.data, dtype)
        return self._like(data ** n)

    def multiply(self, other: Any) -> Any:
        """The elementwise product, in this array's format (as SciPy's).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).multiply(3.0).toarray()[0]
        array([3., 0.])
        """
        if np.ndim(other) == 0:
            return self._like(self.data * other)
        return self._back(self.tocsr().multiply(operand(other)))

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        """As the CSR array's ``sum``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).sum(axis=0)
        array([1., 1.])
        """
        return self.tocsr().sum(axis, dtype, out)

    def diagonal(self, k: int = 0) -> Any:
        """The ``k``-th diagonal.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2)).diagonal()
        array([1., 2.])
        """
        return self.tocsr().diagonal(k)
