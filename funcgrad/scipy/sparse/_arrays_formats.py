"""The public sparse classes: ``coo``/``csr``/``csc`` as arrays (``sparray``) and matrices
(``spmatrix``), and the tests ``issparse``/``isspmatrix*``."""
from typing import Any

from ._arrays_core import _spbase, register_class
from ._methods_matrix import MatrixMethods

__all__ = ["sparray", "spmatrix", "coo_array", "csr_array", "csc_array", "coo_matrix",
           "csr_matrix", "csc_matrix", "issparse", "isspmatrix", "isspmatrix_coo",
           "isspmatrix_csr", "isspmatrix_csc", "isspmatrix_dia", "isspmatrix_dok",
           "isspmatrix_lil", "isspmatrix_bsr"]

_DOC = """A sparse {what} in {name} format (``scipy.sparse.{cls}``), whose stored values
    ``data`` may be traced (differentiated, batched, jitted) while the index structure
    stays concrete.  Built as SciPy's: ``{cls}(D)`` from a dense 2-d array (its nonzeros),
    ``{cls}(S)`` from a sparse array (funcgrad's or SciPy's), ``{cls}((M, N))`` empty,
    ``{cls}((data, (row, col)), shape=None)`` from coordinates{extra}.  It is a pytree
    whose leaf is ``data``: ``fg.grad`` with respect to it returns a sparse array of the
    same structure.  Products (``@``, ``dot``) with dense and sparse operands are a gather
    and a segment sum, never densified.{matrix}

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.{cls}(np.array([[2.0, 0.0], [1.0, 3.0]]))
    >>> A @ np.array([1.0, 2.0])
    array([2., 7.])
    >>> g = fg.grad(lambda A: (A @ np.array([1.0, 2.0])).sum())(A)
    >>> type(g).__name__, g.toarray()
    ('{cls}', array([[1., 0.],
           [1., 2.]]))
    """


class sparray:
    """The base of funcgrad's sparse arrays (``scipy.sparse.sparray``): ``isinstance(A,
    sparray)`` tells a sparse array from a sparse matrix.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> isinstance(fsparse.csr_array(np.eye(2)), fsparse.sparray)
    True
    """


class spmatrix(MatrixMethods):
    """The base of funcgrad's sparse matrices (``scipy.sparse.spmatrix``): as the arrays,
    but ``*`` and ``**`` are the matrix product and power, and reductions along an axis
    are 2-d (SciPy's are ``np.matrix``; funcgrad's ndarrays).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.csr_matrix(np.array([[1.0, 1.0], [0.0, 1.0]]))
    >>> (A * A).toarray(), A.sum(axis=0)
    (array([[1., 2.],
           [0., 1.]]), array([[1., 2.]]))
    """


def _class(fmt, base, name, what):
    extra = ", or ``(data, indices, indptr)``" if fmt != "coo" else ""
    matrix = ("  As a matrix, ``*`` is the matrix product." if base is spmatrix else "")
    cls = type(f"{fmt}_{what}", (_spbase, base), {
        "format": fmt, "_family": what, "__module__": __name__,
        "__doc__": _DOC.format(what=what, name=name, cls=f"{fmt}_{what}", extra=extra,
                               matrix=matrix)})
    return register_class(cls)


coo_array = _class("coo", sparray, "COOrdinate", "array")
csr_array = _class("csr", sparray, "Compressed Sparse Row", "array")
csc_array = _class("csc", sparray, "Compressed Sparse Column", "array")
coo_matrix = _class("coo", spmatrix, "COOrdinate", "matrix")
csr_matrix = _class("csr", spmatrix, "Compressed Sparse Row", "matrix")
csc_matrix = _class("csc", spmatrix, "Compressed Sparse Column", "matrix")

ARRAYS = {"coo": coo_array, "csr": csr_array, "csc": csc_array}
MATRICES = {"coo": coo_matrix, "csr": csr_matrix, "csc": csc_matrix}


def kind(obj: Any, fmt: str) -> type:
    """The class of format ``fmt`` in ``obj``'s family (arrays or matrices)."""
    return (MATRICES if isinstance(obj, spmatrix) else ARRAYS)[fmt]


def issparse(x: Any) -> bool:
    """Is ``x`` a sparse array or matrix (funcgrad's or SciPy's)?

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.issparse(fsparse.csr_array(np.eye(2))), fsparse.issparse(np.eye(2))
    (True, False)
    """
    if getattr(type(x), "_funcgrad_sparse", False):
        return True
    return type(x).__module__.startswith("scipy.sparse") and hasattr(x, "tocoo")


def isspmatrix(x: Any) -> bool:
    """Is ``x`` a sparse matrix (funcgrad's ``*_matrix`` or SciPy's ``spmatrix``), not a
    sparse array?

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.isspmatrix(fsparse.csr_matrix(np.eye(2))), fsparse.isspmatrix(
    ...     fsparse.csr_array(np.eye(2)))
    (True, False)
    """
    if getattr(type(x), "_funcgrad_sparse", False):
        return isinstance(x, spmatrix)
    return issparse(x) and type(x).__name__.endswith("_matrix")


def _isspmatrix_format(fmt):
    def test(x: Any) -> bool:
        return isspmatrix(x) and x.format == fmt
    test.__name__ = test.__qualname__ = f"isspmatrix_{fmt}"
    test.__module__ = __name__
    test.__doc__ = (f"Is ``x`` a sparse matrix in {fmt.upper()} format?\n\n    >>> import "
                    f"numpy as np, funcgrad.scipy.sparse as fsparse\n    >>> fsparse."
                    f"isspmatrix_{fmt}(fsparse.{fmt}_matrix(np.eye(2)))\n    True\n    ")
    return test


isspmatrix_coo = _isspmatrix_format("coo")
isspmatrix_csr = _isspmatrix_format("csr")
isspmatrix_csc = _isspmatrix_format("csc")
isspmatrix_dia = _isspmatrix_format("dia")
isspmatrix_dok = _isspmatrix_format("dok")
isspmatrix_lil = _isspmatrix_format("lil")
isspmatrix_bsr = _isspmatrix_format("bsr")
