"""The LIL format (``lil_array``, ``lil_matrix``): per row, the sorted column indices
(``rows[i]``) and their values (``data[i]``), Python lists as SciPy's, for building a
sparse array row by row.  The values may be traced (they are the pytree's leaves, the
column lists static), so an array built inside ``grad`` differentiates through
``tocoo``/``tocsr``; the arithmetic goes through CSR."""
import bisect
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...core import Tracer
from ...numpy._convert import asarray
from ...tree import register
from ._arrays_base import position
from ._arrays_core import CLASSES, coerce
from ._arrays_formats import sparray, spmatrix
from ._arrays_through_coo import ThroughCoo

__all__ = ["lil_array", "lil_matrix"]


def _lists(n):
    out = np.empty(n, object)
    for i in range(n):
        out[i] = []
    return out


class _lil_base(ThroughCoo):
    __array_ufunc__ = None
    _funcgrad_sparse = True
    format = "lil"
    ndim = 2
    _family = "array"

    def __init__(self, arg1: Any, shape: Any = None, dtype: Any = None, copy: bool = False, *,
                 maxprint: Any = None) -> None:
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(d, (int, np.integer)) for d in arg1):
            self._shape = (int(arg1[0]), int(arg1[1]))
            self._dtype = np.dtype(np.float64 if dtype is None else dtype)
            self.rows, self.data = _lists(self._shape[0]), _lists(self._shape[0])
            return
        other = coerce(arg1)
        if other is None:
            other = CLASSES[self._family, "coo"](arg1)
        csr = other.tocoo()._summed()
        self._shape, self._dtype = csr.shape, np.dtype(dtype or csr.dtype)
        values = fnp.astype(csr.data, self._dtype)
        values = values.tolist() if isinstance(values, np.ndarray) else \
            [values[p] for p in range(csr.nnz)]
        self.rows, self.data = _lists(self._shape[0]), _lists(self._shape[0])
        starts = np.searchsorted(csr._row, np.arange(self._shape[0] + 1))
        for i in range(self._shape[0]):
            self.rows[i] = csr._col[starts[i]:starts[i + 1]].tolist()
            self.data[i] = values[starts[i]:starts[i + 1]]

    @classmethod
    def _make(cls, rows, data, shape, dtype):
        obj = object.__new__(cls)
        obj._shape, obj._dtype = tuple(shape), np.dtype(dtype)
        obj.rows, obj.data = _lists(obj._shape[0]), _lists(obj._shape[0])
        for i in range(obj._shape[0]):
            obj.rows[i], obj.data[i] = list(rows[i]), list(data[i])
        return obj

    @property
    def shape(self):
        """``(M, N)``."""
        return self._shape

    @property
    def dtype(self):
        """The values' dtype."""
        return self._dtype

    @property
    def nnz(self):
        """The number of stored entries."""
        return sum(len(r) for r in self.rows)

    def _find(self, key):
        if not (isinstance(key, tuple) and len(key) == 2 and
                all(isinstance(k, (int, np.integer)) for k in key)):
            raise IndexError("lil_array: index with a pair of integers, A[i, j] (convert with "
                             "tocsr() for slices)")
        i, j = position(key[0], self._shape[0]), position(key[1], self._shape[1])
        return i, j, bisect.bisect_left(self.rows[i], j)

    def __getitem__(self, key):
        i, j, k = self._find(key)
        if k < len(self.rows[i]) and self.rows[i][k] == j:
            value = self.data[i][k]
            return value if isinstance(value, Tracer) else self._dtype.type(value)
        return self._dtype.type(0)

    def __setitem__(self, key, value):
        if np.ndim(value) != 0:
            raise ValueError("lil_array: assign one value per position, A[i, j] = v")
        i, j, k = self._find(key)
        present = k < len(self.rows[i]) and self.rows[i][k] == j
        if not isinstance(value, Tracer) and value == 0:  # (as SciPy's: zeros not stored)
            if present:
                del self.rows[i][k], self.data[i][k]
            return
        value = fnp.astype(value, self._dtype) if isinstance(value, Tracer) else \
            self._dtype.type(value)
        if present:
            self.data[i][k] = value
        else:
            self.rows[i].insert(k, j)
            self.data[i].insert(k, value)

    def tocoo(self, copy: bool = False) -> Any:
        """This array as COO (row-major).

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.lil_array((2, 2)); A[1, 0] = 3.0; A.tocoo().toarray()
        array([[0., 0.],
               [3., 0.]])
        """
        counts = [len(r) for r in self.rows]
        row = np.repeat(np.arange(self._shape[0]), counts)
        col = np.array([c for r in self.rows for c in r], np.intp)
        values = [v for d in self.data for v in d]
        if any(isinstance(v, Tracer) for v in values):
            data = fnp.stack([fnp.astype(asarray(v), self._dtype) for v in values])
        else:
            data = np.array(values, self._dtype)
        return CLASSES[self._family, "coo"]._make(data, row, col, self._shape)

    def tolil(self, copy: bool = False) -> Any:
        """This array (a copy with ``copy=True``).

        >>> import funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array((2, 2)).tolil().format
        'lil'
        """
        return self.copy() if copy else self


    def copy(self) -> Any:
        """A copy (new lists).

        >>> import funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array((2, 2)).copy().shape
        (2, 2)
        """
        return type(self)._make(self.rows, self.data, self._shape, self._dtype)

    def getrow(self, i: int) -> Any:
        """Row ``i`` as a 1 by N LIL array (a ``csr_matrix`` for a ``lil_matrix``, as
        SciPy's).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.eye(2)).getrow(1).toarray()
        array([[0., 1.]])
        """
        i = position(i, self._shape[0])
        if self._family == "matrix":
            return self.tocsr()[i:i + 1, :]
        return type(self)._make([self.rows[i]], [self.data[i]], (1, self._shape[1]),
                                self._dtype)

    def getrowview(self, i: int) -> Any:
        """Row ``i`` as a 1 by N LIL array that shares its lists with this one: assigning
        into either changes both, as SciPy's view.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.lil_array(np.eye(2)); A.getrowview(0)[0, 1] = 5.0; A.toarray()[0]
        array([1., 5.])
        """
        i = position(i, self._shape[0])
        view = type(self)._make([[]], [[]], (1, self._shape[1]), self._dtype)
        view.rows[0], view.data[0] = self.rows[i], self.data[i]
        return view

    def transpose(self, axes: Any = None, copy: bool = False) -> Any:
        """The transpose, as LIL.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.array([[0.0, 2.0]])).T.rows
        array([list([]), list([0])], dtype=object)
        """
        return type(self)(self.tocoo().transpose(axes))

    @property
    def T(self) -> Any:
        """The transpose."""
        return self.transpose()

    def __repr__(self):
        return (f"<List of Lists sparse {self._family} of dtype '{self._dtype}'\n\twith "
                f"{self.nnz} stored elements and shape {self._shape}>")

    def _back(self, result):
        return type(self)(result) if hasattr(result, "tocoo") else result

    def __matmul__(self, other):
        return self.tocsr() @ _operand(other)

    def __rmatmul__(self, other):
        return self.tocsr().__rmatmul__(other)

    def __mul__(self, other):
        if np.ndim(other) == 0:  # (scalings stay LIL, as SciPy's)
            return self._back(self.tocsr() * other)
        return self.tocsr() * _operand(other)

    def __rmul__(self, other):
        if np.ndim(other) == 0:
            return self._back(self.tocsr() * other)
        return self.tocsr().__rmul__(other)

    def __truediv__(self, other):
        return self._back(self.tocsr() / other)

    def __neg__(self):
        return -self.tocsr()

    def __add__(self, other):
        return self.tocsr() + _operand(other)

    __radd__ = __add__

    def __sub__(self, other):
        return self.tocsr() - _operand(other)

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        """As the CSR array's ``sum``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.lil_array(np.eye(2)).sum(axis=1)
        array([1., 1.])
        """
        return self.tocsr().sum(axis, dtype, out)


def _operand(other):
    sparse = coerce(other)
    return sparse if sparse is not None else other


def _flatten(a):
    leaves = [v for d in a.data for v in d]
    return leaves, (type(a), a._shape, a._dtype, tuple(tuple(r) for r in a.rows))


def _unflatten(aux, leaves):
    cls, shape, dtype, rows = aux
    data, at = [], 0
    for r in rows:
        data.append(list(leaves[at:at + len(r)]))
        at += len(r)
    return cls._make(rows, data, shape, dtype)


def _lil_class(what, base):
    cls = type(f"lil_{what}", (_lil_base, base), {
        "_family": what, "__module__": __name__,
        "__doc__": f"""A sparse {what} as row lists (``scipy.sparse.lil_{what}``): ``rows[i]``
    the sorted column indices of row ``i``, ``data[i]`` their values; ``lil_{what}((M, N))``
    empty, or from a dense or sparse array; ``A[i, j] = v`` stores (a zero removes).  Values
    may be traced (``A[i, j] = x[0]`` inside ``grad``): they are the pytree's leaves, and
    ``tocoo``/``tocsr`` keep their derivatives.  Other operations go through CSR.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> def f(x):
    ...     A = fsparse.lil_{what}((2, 2)); A[0, 1] = x[0]; A[1, 0] = 2 * x[1]
    ...     return (A.tocsr() @ np.ones(2)).sum()
    >>> fg.grad(f)(np.array([1.0, 1.0]))
    array([1., 2.])
    """})
    CLASSES[what, "lil"] = cls
    register(cls, _flatten, _unflatten)
    return cls


lil_array = _lil_class("array", sparray)
lil_matrix = _lil_class("matrix", spmatrix)
