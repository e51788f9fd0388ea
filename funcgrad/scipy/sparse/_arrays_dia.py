"""The DIA format (``dia_array``, ``dia_matrix``): ``data[d, j]`` is the entry at
``(j - offsets[d], j)``, SciPy's layout.  ``data`` (2-d, possibly traced) is the pytree's
leaf and ``offsets`` static, so ``grad`` returns a ``dia_array`` of the same offsets.  The
arithmetic goes through COO/CSR and comes back as DIA where SciPy's does; converting to
COO keeps every in-band entry, zeros too (SciPy drops stored zeros there; funcgrad keeps
them so that their derivatives are not lost)."""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...tree import register
from ._arrays_base import Static, segment_sum
from ._arrays_core import CLASSES, coerce
from ._arrays_formats import sparray, spmatrix
from ._arrays_through_coo import StoredValueOps, operand
from ._arrays_ops import ZERO_PRESERVING, _coalesce

__all__ = ["dia_array", "dia_matrix", "to_dia"]


def to_dia(coo):
    """A COO array as DIA of its family (duplicates summed)."""
    data, row, col = _coalesce(coo.data, coo._row, coo._col)
    offsets, which = np.unique(col - row, return_inverse=True)
    width = int(col.max()) + 1 if len(col) else 0
    flat = segment_sum(data, which * width + col, len(offsets) * width)
    return CLASSES[coo._family, "dia"]._make(fnp.reshape(flat, (len(offsets), width)),
                                             offsets, coo.shape)


class _dia_base(StoredValueOps):
    __array_ufunc__ = None
    _funcgrad_sparse = True
    format = "dia"
    ndim = 2
    _family = "array"

    def __init__(self, arg1: Any, shape: Any = None, dtype: Any = None, copy: bool = False, *,
                 maxprint: Any = None) -> None:
        data: Any
        offsets: Any
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(d, (int, np.integer)) for d in arg1):
            data, offsets, shape = fnp.zeros((0, 0)), np.zeros(0, np.intp), tuple(arg1)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            data, offsets = fnp.atleast_2d(asarray(arg1[0])), np.atleast_1d(arg1[1])
            if shape is None:
                raise ValueError("dia_array: (data, offsets) needs shape=")
            if offsets.ndim != 1 or (offsets.size and offsets.dtype.kind not in "iu"):
                raise TypeError("dia_array: offsets must be a 1-d array of integers")
            if data.ndim != 2 or data.shape[0] != len(offsets):
                raise ValueError(f"dia_array: data must be 2-d with one row per offset "
                                 f"({len(offsets)}), got shape {tuple(data.shape)}")
            if len(np.unique(offsets)) != len(offsets):
                raise ValueError("dia_array: offsets must be unique")
            offsets = offsets.astype(np.intp)
        else:
            other = coerce(arg1)
            if other is None:
                other = CLASSES[self._family, "coo"](arg1)
            coo = other.tocoo()
            made = to_dia(CLASSES[self._family, "coo"]._make(coo.data, coo._row, coo._col,
                                                             coo.shape))
            data, offsets, shape = made.data, made.offsets, made.shape
        if dtype is not None:
            data = fnp.astype(data, np.dtype(dtype))
        self.data, self.offsets, self._shape = data, offsets, tuple(int(d) for d in shape)

    @classmethod
    def _from_coo(cls, coo):
        return to_dia(coo)

    @classmethod
    def _make(cls, data, offsets, shape):
        obj = object.__new__(cls)
        obj.data, obj.offsets, obj._shape = data, offsets, tuple(shape)
        return obj

    @property
    def shape(self):
        """``(M, N)``."""
        return self._shape

    @property
    def dtype(self):
        """The stored values' dtype."""
        return np.dtype(self.data.dtype)

    def _positions(self):
        """``(flat index into data, row, col)`` of each in-band entry, row-major."""
        m, n = self._shape
        width = self.data.shape[1]
        flats, rows, cols = [], [], []
        for d, k in enumerate(self.offsets):
            j = np.arange(max(0, k), min(n, m + k, width))
            flats.append(d * width + j)
            rows.append(j - k)
            cols.append(j)
        empty = np.zeros(0, np.intp)
        flat, row, col = (np.concatenate(x) if x else empty for x in (flats, rows, cols))
        order = np.lexsort((col, row))
        return flat[order], row[order], col[order]

    @property
    def nnz(self):
        """The number of in-band entries (stored zeros included, as SciPy's)."""
        return len(self._positions()[0])

    def tocoo(self, copy: bool = False) -> Any:
        """This array as COO (row-major; every in-band entry, zeros too).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2)).tocoo().data
        array([1., 2.])
        """
        flat, row, col = self._positions()
        values = fnp.take(fnp.reshape(self.data, (-1,)), flat)
        return CLASSES[self._family, "coo"]._make(values, row, col, self._shape)

    def todia(self, copy: bool = False) -> Any:
        """This array (a copy with ``copy=True``).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2)).todia().offsets
        array([0])
        """
        return self.copy() if copy else self

    def copy(self) -> Any:
        """A copy.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2)).copy().nnz
        2
        """
        data = self.data.copy() if isinstance(self.data, np.ndarray) else self.data
        return type(self)._make(data, self.offsets.copy(), self._shape)

    def _like(self, data):
        return type(self)._make(data, self.offsets, self._shape)

    def astype(self, dtype: Any, casting: str = "unsafe", copy: bool = True) -> Any:
        """The same array with values cast to ``dtype``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [0]), shape=(2, 2)).astype("f").dtype
        dtype('float32')
        """
        return self._like(fnp.astype(self.data, np.dtype(dtype)))

    def transpose(self, axes: Any = None, copy: bool = False) -> Any:
        """The transpose, as DIA.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.dia_array((np.array([[1.0, 2.0]]), [1]), shape=(2, 2)).T.offsets
        array([-1])
        """
        return to_dia(self.tocoo().transpose(axes))

    @property
    def T(self) -> Any:
        """The transpose."""
        return self.transpose()

    def __repr__(self):
        return (f"<DIAgonal sparse {self._family} of dtype '{self.dtype}'\n\twith {self.nnz} "
                f"stored elements ({len(self.offsets)} diagonals) and shape {self._shape}>")

    # --- arithmetic: scalars on the diagonals themselves, the rest through CSR -----------------
    def _back(self, result):
        return to_dia(result.tocoo()) if hasattr(result, "tocoo") else result

    def __matmul__(self, other):
        return self._back(self.tocsr() @ operand(other))




def _unary(name):
    function = getattr(fnp, name)

    def method(self):
        return self._like(function(self.data))
    method.__name__ = name
    method.__doc__ = (f"``{name}`` of the stored diagonals.\n\n        >>> import numpy as "
                      f"np, funcgrad.scipy.sparse as fsparse\n        >>> fsparse.dia_array(("
                      f"np.array([[0.5]]), [0]), shape=(1, 1)).{name}().shape\n        (1, 1)"
                      f"\n        ")
    return method


for _name in ZERO_PRESERVING:
    setattr(_dia_base, _name, _unary(_name))



def _dia_class(what, base):
    cls = type(f"dia_{what}", (_dia_base, base), {
        "_family": what, "__module__": __name__,
        "__doc__": f"""A sparse {what} in DIAgonal format (``scipy.sparse.dia_{what}``):
    ``dia_{what}((data, offsets), shape=(M, N))`` puts ``data[d, j]`` at ``(j -
    offsets[d], j)``; also built from a dense or sparse array (its diagonals) or as
    ``dia_{what}((M, N))``.  ``data`` may be traced; ``grad`` with respect to one returns a
    ``dia_{what}`` of the same offsets.  Products and sums go through CSR.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.dia_{what}((np.array([[1.0, 2.0], [3.0, 4.0]]), [0, 1]), shape=(2, 2))
    >>> A.toarray()
    array([[1., 4.],
           [0., 2.]])
    >>> fg.grad(lambda A: (A @ np.array([1.0, 10.0])).sum())(A).data
    array([[ 1., 10.],
           [ 0., 10.]])
    """})
    CLASSES[what, "dia"] = cls
    register(cls, lambda a: ((a.data,), Static(type(a), a._shape, a.offsets,
                                               np.zeros(0, np.intp))),
             lambda static, leaves: static.cls._make(leaves[0], static.row, static.shape))
    return cls


dia_array = _dia_class("array", sparray)
dia_matrix = _dia_class("matrix", spmatrix)
