"""The conversions DIA, BSR, DOK and LIL arrays share: each computes through its COO form
(``tocoo``, its own), as SciPy's formats without their own kernels do."""
from typing import Any


class ThroughCoo:
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
