"""The DOK format (``dok_array``, ``dok_matrix``): a dictionary ``{(i, j): value}`` for
building a sparse array entry by entry (``A[i, j] = v``), then converting.  The values may
be traced (they are the pytree's leaves, the keys static), so an array built from traced
values differentiates through ``tocoo``/``tocsr``; the arithmetic goes through CSR."""
from typing import Any, Iterator

import numpy as np

from ... import numpy as fnp
from ...core import Tracer
from ...tree import register
from ._arrays_core import CLASSES, coerce
from ._arrays_formats import sparray, spmatrix
from ._arrays_through_coo import ThroughCoo

__all__ = ["dok_array", "dok_matrix"]


def _key(key, shape):
    if not (isinstance(key, tuple) and len(key) == 2 and
            all(isinstance(k, (int, np.integer)) for k in key)):
        raise IndexError("dok_array: index with a pair of integers, A[i, j] (convert with "
                         "tocsr() for slices)")
    out = []
    for k, n in zip(key, shape):
        if not -n <= k < n:
            raise IndexError(f"dok_array: index {k} is out of bounds for an axis of size {n}")
        out.append(int(k) % n)
    return tuple(out)


class _dok_base(ThroughCoo):
    __array_ufunc__ = None
    _funcgrad_sparse = True
    format = "dok"
    ndim = 2
    _family = "array"

    def __init__(self, arg1: Any, shape: Any = None, dtype: Any = None, copy: bool = False, *,
                 maxprint: Any = None) -> None:
        self._entries: dict = {}
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(d, (int, np.integer)) for d in arg1):
            self._shape = (int(arg1[0]), int(arg1[1]))
            self._dtype = np.dtype(np.float64 if dtype is None else dtype)
            return
        other = coerce(arg1)
        if other is None:
            other = CLASSES[self._family, "coo"](arg1)
        coo = other.tocoo()._summed().tocoo()
        self._shape, self._dtype = coo.shape, np.dtype(dtype or coo.dtype)
        data = coo.data if dtype is None else fnp.astype(coo.data, self._dtype)
        for n, (i, j) in enumerate(zip(coo._row.tolist(), coo._col.tolist())):
            self._entries[i, j] = data[n]

    @classmethod
    def _make(cls, entries, shape, dtype):
        obj = object.__new__(cls)
        obj._entries, obj._shape, obj._dtype = dict(entries), tuple(shape), np.dtype(dtype)
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
        return len(self._entries)

    def __len__(self):
        return len(self._entries)

    def __contains__(self, key):
        return key in self._entries

    def __iter__(self) -> Iterator:
        return iter(self._entries)

    def keys(self) -> Any:
        """The stored positions ``(i, j)``, in insertion order.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((2, 2)); A[1, 0] = 3.0; list(A.keys())
        [(1, 0)]
        """
        return self._entries.keys()

    def values(self) -> Any:
        """The stored values.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((2, 2)); A[1, 0] = 3.0; list(A.values())
        [np.float64(3.0)]
        """
        return self._entries.values()

    def items(self) -> Any:
        """The ``((i, j), value)`` pairs.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((2, 2)); A[1, 0] = 3.0; list(A.items())
        [((1, 0), np.float64(3.0))]
        """
        return self._entries.items()

    def get(self, key: Any, default: Any = 0.0) -> Any:
        """The value at ``key``, or ``default``.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array((2, 2)).get((0, 1), -1.0)
        -1.0
        """
        return self._entries.get(_key(key, self._shape), default)

    def __getitem__(self, key):
        return self._entries.get(_key(key, self._shape), self._dtype.type(0))

    def __setitem__(self, key, value):
        key = _key(key, self._shape)
        if np.ndim(value) != 0:
            raise ValueError("dok_array: assign one value per position, A[i, j] = v")
        if isinstance(value, Tracer):
            self._entries[key] = fnp.astype(value, self._dtype)
        elif value == 0:  # (as SciPy's: a zero is not stored)
            self._entries.pop(key, None)
        else:
            self._entries[key] = self._dtype.type(value)

    def __delitem__(self, key):
        del self._entries[_key(key, self._shape)]

    # --- the dictionary's own methods, as SciPy's -----------------------------------------
    def clear(self) -> None:
        """Remove every entry (the shape stays).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array(np.eye(2)); A.clear(); A.nnz, A.shape
        (0, (2, 2))
        """
        self._entries.clear()

    def pop(self, /, *args: Any) -> Any:
        """``dict.pop``: remove the entry at a key ``(i, j)`` and return its value (or the
        default given, else KeyError).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array(np.eye(2)); A.pop((1, 1)), A.pop((0, 1), -1.0), A.nnz
        (np.float64(1.0), -1.0, 1)
        """
        return self._entries.pop(*args)

    def popitem(self) -> Any:
        """``dict.popitem``: remove and return the last entry inserted, ``((i, j), value)``.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((2, 2)); A[0, 1] = 3.0; A.popitem()
        ((0, 1), np.float64(3.0))
        """
        return self._entries.popitem()

    def setdefault(self, key: Any, default: Any = None, /) -> Any:
        """``dict.setdefault``: the value at ``key``, storing ``default`` there first if
        nothing is (a default of None is refused: SciPy would store None as a value).

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((2, 2)); A.setdefault((1, 0), 5.0), A[1, 0]
        (np.float64(5.0), np.float64(5.0))
        """
        if key in self._entries:
            return self._entries[key]
        if default is None:
            raise TypeError("dok setdefault: nothing is stored at this key, and a default "
                            "of None is not a value; pass a number, A.setdefault(key, 0.0)")
        key = _key(key, self._shape)
        self._entries[key] = _stored(default, self._dtype)
        return self._entries[key]

    def update(self, val: Any) -> None:
        """Store the values of a dict, a DOK array or an iterable of ``((i, j), value)``
        pairs (zeros stored too, as SciPy's); keys out of bounds raise IndexError.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((2, 2)); A.update({(0, 0): 1.0, (1, 1): 2.0}); A.nnz
        2
        """
        pairs = val.items() if hasattr(val, "items") else val
        for key, value in pairs:
            if not (isinstance(key, tuple) and len(key) == 2 and
                    all(isinstance(k, (int, np.integer)) and 0 <= k < n
                        for k, n in zip(key, self._shape))):
                raise IndexError(f"dok update: key {key!r} is not a pair of non-negative "
                                 f"indices within the shape {self._shape}")
            if np.ndim(value) != 0:
                raise ValueError("dok update: one value per key")
            self._entries[int(key[0]), int(key[1])] = _stored(value, self._dtype)

    @classmethod
    def fromkeys(cls, iterable: Any, value: Any = 1, /) -> Any:
        """``dict.fromkeys``: a DOK array with ``value`` at each key ``(i, j)`` of
        ``iterable``, its shape just large enough, its dtype that of ``value``.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array.fromkeys([(0, 1), (2, 0)], 2.5); A.shape, A[2, 0]
        ((3, 2), np.float64(2.5))
        """
        keys = [tuple(int(i) for i in k) for k in iterable]
        if not keys:
            raise ValueError("dok fromkeys: give at least one key (the shape comes from them)")
        if any(len(k) != 2 for k in keys):
            raise NotImplementedError("dok fromkeys: funcgrad's DOK arrays are 2-d; give "
                                      "keys (i, j)")
        shape = (max(k[0] for k in keys) + 1, max(k[1] for k in keys) + 1)
        dtype = np.dtype(value.dtype) if isinstance(value, Tracer) else \
            np.dtype(type(value)) if isinstance(value, (bool, int, float, complex)) else \
            np.asarray(value).dtype
        return cls._make(dict.fromkeys(keys, _stored(value, dtype)), shape, dtype)

    def tocoo(self, copy: bool = False) -> Any:
        """This array as COO, the entries in insertion order.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((2, 2)); A[1, 0] = 3.0; A.tocoo().toarray()
        array([[0., 0.],
               [3., 0.]])
        """
        keys = list(self._entries)
        row = np.array([k[0] for k in keys], np.intp)
        col = np.array([k[1] for k in keys], np.intp)
        data = fnp.stack([fnp.astype(v, self._dtype) for v in self._entries.values()]) \
            if keys else fnp.zeros(0, self._dtype)
        return CLASSES[self._family, "coo"]._make(data, row, col, self._shape)

    def todok(self, copy: bool = False) -> Any:
        """This array (a copy with ``copy=True``).

        >>> import funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array((2, 2)).todok().format
        'dok'
        """
        return self.copy() if copy else self


    def copy(self) -> Any:
        """A copy.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> fsparse.dok_array((2, 2)).copy().shape
        (2, 2)
        """
        return type(self)._make(self._entries, self._shape, self._dtype)

    def transpose(self, axes: Any = None, copy: bool = False) -> Any:
        """The transpose, as DOK.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((1, 2)); A[0, 1] = 2.0; list(A.T.keys())
        [(1, 0)]
        """
        return type(self)._make({(j, i): v for (i, j), v in self._entries.items()},
                                self._shape[::-1], self._dtype)

    @property
    def T(self) -> Any:
        """The transpose."""
        return self.transpose()

    def __repr__(self):
        return (f"<Dictionary Of Keys sparse {self._family} of dtype '{self._dtype}'\n\twith "
                f"{self.nnz} stored elements and shape {self._shape}>")

    def __matmul__(self, other):
        return self.tocsr() @ _operand(other)

    def __rmatmul__(self, other):
        return self.tocsr().__rmatmul__(other)

    def _back(self, result):
        """A sparse result as DOK (SciPy's type for sums and scalings of DOK arrays)."""
        return type(self)(result) if hasattr(result, "tocoo") else result

    def __mul__(self, other):
        if np.ndim(other) == 0:
            return self._back(self.tocsr() * other)
        return self.tocsr() * _operand(other)

    def __rmul__(self, other):
        if np.ndim(other) == 0:
            return self._back(self.tocsr() * other)
        return self.tocsr().__rmul__(other)

    def __truediv__(self, other):
        return self._back(self.tocsr() / other)

    def __neg__(self):
        return self._back(-self.tocsr())

    def __add__(self, other):
        return self._back(self.tocsr() + _operand(other))

    __radd__ = __add__

    def __sub__(self, other):
        return self.tocsr() - _operand(other)

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None) -> Any:
        """As the CSR array's ``sum``.

        >>> import funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.dok_array((1, 2)); A[0, 1] = 2.0; A.sum()
        np.float64(2.0)
        """
        return self.tocsr().sum(axis, dtype, out)


def _stored(value, dtype):
    """A value as DOK stores it: a traced one cast (its derivative kept), else a scalar."""
    return fnp.astype(value, dtype) if isinstance(value, Tracer) else dtype.type(value)


def _operand(other):
    sparse = coerce(other)
    return sparse if sparse is not None else other


def _dok_class(what, base):
    cls = type(f"dok_{what}", (_dok_base, base), {
        "_family": what, "__module__": __name__,
        "__doc__": f"""A sparse {what} as a dictionary of keys (``scipy.sparse.dok_{what}``):
    ``dok_{what}((M, N))`` empty, or from a dense or sparse array; ``A[i, j] = v`` stores
    (a zero removes), ``A[i, j]`` reads (0 where nothing is stored).  Values may be traced
    (``A[i, j] = x[0]`` inside ``grad``): they are the pytree's leaves, and ``tocoo``/
    ``tocsr`` keep their derivatives.  Other operations go through CSR.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> def f(x):
    ...     A = fsparse.dok_{what}((2, 2)); A[0, 1] = x[0]; A[1, 0] = 2 * x[1]
    ...     return (A.tocsr() @ np.ones(2)).sum()
    >>> fg.grad(f)(np.array([1.0, 1.0]))
    array([1., 2.])
    """})
    CLASSES[what, "dok"] = cls
    register(cls, lambda a: (list(a._entries.values()),
                             (type(a), a._shape, a._dtype, tuple(a._entries))),
             lambda aux, leaves: aux[0]._make(dict(zip(aux[3], leaves)), aux[1], aux[2]))
    return cls


dok_array = _dok_class("array", sparray)
dok_matrix = _dok_class("matrix", spmatrix)
