"""The BSR format (``bsr_array``, ``bsr_matrix``): dense ``R`` by ``C`` blocks
``data[b]`` at block row ``i`` (``indptr[i] <= b < indptr[i + 1]``) and block column
``indices[b]``, SciPy's layout.  ``data`` (3-d, possibly traced) is the pytree's leaf and
the block structure static, so ``grad`` returns a ``bsr_array`` of the same blocks.  The
arithmetic goes through CSR and comes back as BSR, as SciPy's; converting to COO keeps
every block entry, zeros too (as SciPy's)."""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...tree import register
from ._arrays_base import Static, compress, expand_indptr, index_dtype, segment_sum
from ._arrays_core import CLASSES, coerce
from ._arrays_formats import sparray, spmatrix
from ._arrays_through_coo import StoredValueOps, operand
from ._methods_extrema import ExtremaReductions
from ._methods_tidy import BlockTidy, CompressedTidy
from ._arrays_ops import ZERO_PRESERVING, _coalesce

__all__ = ["bsr_array", "bsr_matrix", "to_bsr", "estimate_blocksize"]


def _count_blocks(row, col, r, c):
    return len(np.unique((row // r).astype(np.int64) * (int(col.max()) // c + 1) + col // c))


def estimate_blocksize(coo, efficiency=0.7):
    """SciPy's choice of block size for a conversion that names none: the largest of 6, 4,
    3, 2 (square) whose blocks would be filled beyond ``efficiency``, else 1."""
    row, col = _coalesce(coo.data, coo._row, coo._col)[1:]
    if not len(row):
        return (1, 1)
    m, n = coo.shape
    nnz, high = float(len(row)), (1.0 + efficiency) / 2.0

    def filled(size):
        if m % size or n % size:
            return 0.0
        return nnz / (size * size * _count_blocks(row, col, size, size))
    e22, e33 = filled(2), filled(3)
    if e22 > high and e33 > high:
        return (6, 6) if filled(6) > efficiency else (3, 3)
    if filled(4) > efficiency:
        return (4, 4)
    if e22 > efficiency:
        return (2, 2)
    return (3, 3) if e33 > efficiency else (1, 1)


def to_bsr(coo, blocksize=None):
    """A COO array as BSR of its family (duplicates summed); the blocks of each block row
    in the order their first entries come row by row, as SciPy's conversion orders them."""
    r, c = estimate_blocksize(coo) if blocksize is None else (int(blocksize[0]),
                                                              int(blocksize[1]))
    m, n = coo.shape
    if r < 1 or c < 1 or m % r or n % c:
        raise ValueError(f"bsr_array: the blocksize {(r, c)} must divide the shape {coo.shape}")
    data, row, col = _coalesce(coo.data, coo._row, coo._col)
    keys = (row // r).astype(np.int64) * (n // c) + col // c
    unique, first, which = np.unique(keys, return_index=True, return_inverse=True)
    order = np.lexsort((first, unique // (n // c)))  # (by block row, then first entry)
    slot = np.empty(len(unique), np.intp)
    slot[order] = np.arange(len(unique))
    flat = segment_sum(data, slot[which] * (r * c) + (row % r) * c + col % c,
                       len(unique) * r * c)
    blocks = unique[order]
    return CLASSES[coo._family, "bsr"]._make(
        fnp.reshape(flat, (len(unique), r, c)), (blocks % (n // c)).astype(np.intp),
        compress((blocks // (n // c)).astype(np.intp), m // r), coo.shape)


class _bsr_base(StoredValueOps, ExtremaReductions, BlockTidy, CompressedTidy):
    __array_ufunc__ = None
    _funcgrad_sparse = True
    format = "bsr"
    ndim = 2
    _family = "array"

    def __init__(self, arg1: Any, shape: Any = None, dtype: Any = None, copy: bool = False,
                 blocksize: Any = None, *, maxprint: Any = None) -> None:
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(d, (int, np.integer)) for d in arg1):
            r, c = (1, 1) if blocksize is None else blocksize
            made = to_bsr(CLASSES[self._family, "coo"]((int(arg1[0]), int(arg1[1]))), (r, c))
        elif isinstance(arg1, tuple) and len(arg1) == 3:
            made = self._from_compressed(arg1, shape, blocksize)
        else:
            other = coerce(arg1)
            if other is None:
                other = CLASSES[self._family, "coo"](arg1)
            coo = other.tocoo()
            made = to_bsr(CLASSES[self._family, "coo"]._make(coo.data, coo._row, coo._col,
                                                             coo.shape), blocksize)
        data = made.data if dtype is None else fnp.astype(made.data, np.dtype(dtype))
        self._set(data, made._indices, made._indptr, made.shape)

    def _from_compressed(self, arg1, shape, blocksize):
        data = asarray(arg1[0])
        indices, indptr = np.asarray(arg1[1]), np.asarray(arg1[2])
        if data.ndim != 3 or indices.ndim != 1 or indptr.ndim != 1 or \
                data.shape[0] != len(indices):
            raise ValueError("bsr_array: (data, indices, indptr) needs data of shape "
                             "(nblocks, R, C) and one block column index per block")
        if len(indptr) < 1 or indptr[0] != 0 or indptr[-1] != len(indices) or \
                np.any(np.diff(indptr) < 0):
            raise ValueError("bsr_array: indptr must start at 0, never decrease and end at "
                             "len(indices)")
        r, c = data.shape[1:]
        if blocksize is not None and tuple(blocksize) != (r, c):
            raise ValueError(f"bsr_array: blocksize {tuple(blocksize)} differs from the "
                             f"blocks' shape {(r, c)}")
        if shape is None:
            shape = ((len(indptr) - 1) * r, (int(indices.max()) + 1 if len(indices) else 0) * c)
        shape = (int(shape[0]), int(shape[1]))
        if shape[0] != (len(indptr) - 1) * r or shape[1] % c or \
                (len(indices) and (indices.min() < 0 or indices.max() >= shape[1] // c)):
            raise ValueError(f"bsr_array: the block structure does not fit shape {shape}")
        return type(self)._make(data, indices.astype(np.intp), indptr.astype(np.intp), shape)

    @classmethod
    def _from_coo(cls, coo, blocksize=None):
        return to_bsr(coo, blocksize)

    @classmethod
    def _make(cls, data, indices, indptr, shape):
        obj = object.__new__(cls)
        obj._set(data, indices, indptr, shape)
        return obj

    def _set(self, data, indices, indptr, shape):
        self.data, self._indices, self._indptr = data, indices, indptr
        self._shape = tuple(shape)

    @property
    def shape(self):
        """``(M, N)``."""
        return self._shape

    @property
    def dtype(self):
        """The stored values' dtype."""
        return np.dtype(self.data.dtype)

    @property
    def blocksize(self):
        """``(R, C)``."""
        return tuple(int(d) for d in self.data.shape[1:])

    @property
    def indices(self):
        """Each block's block column."""
        return self._indices.astype(index_dtype(maxval=max(self._shape)))

    @property
    def indptr(self):
        """Where each block row's blocks start in ``data``, and the end."""
        return self._indptr.astype(index_dtype(maxval=max(max(self._shape), len(self._indices))))

    @property
    def nnz(self):
        """The number of stored entries (every entry of every block)."""
        r, c = self.blocksize
        return len(self._indices) * r * c

    def tocoo(self, copy: bool = False) -> Any:
        """This array as COO: every block entry, block by block, row-major in each.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2), blocksize=(2, 2)).tocoo().data
        array([1., 0., 0., 1.])
        """
        r, c = self.blocksize
        block_row = expand_indptr(self._indptr)
        row = (block_row[:, None, None] * r + np.arange(r)[None, :, None]
               + np.zeros((1, 1, c), np.intp)).ravel()
        col = (self._indices[:, None, None] * c + np.arange(c)[None, None, :]
               + np.zeros((1, r, 1), np.intp)).ravel()
        return CLASSES[self._family, "coo"]._make(fnp.reshape(self.data, (-1,)),
                                                  row.astype(np.intp), col.astype(np.intp),
                                                  self._shape)

    def tobsr(self, blocksize: Any = None, copy: bool = False) -> Any:
        """This array with blocks of ``blocksize`` (itself when it has them already).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(4), blocksize=(2, 2)).tobsr((1, 1)).blocksize
        (1, 1)
        """
        if blocksize is None or tuple(blocksize) == self.blocksize:
            return self.copy() if copy else self
        return to_bsr(self.tocoo(), blocksize)


    def copy(self) -> Any:
        """A copy.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).copy().nnz
        2
        """
        data = self.data.copy() if isinstance(self.data, np.ndarray) else self.data
        return type(self)._make(data, self._indices.copy(), self._indptr.copy(), self._shape)

    def _like(self, data):
        return type(self)._make(data, self._indices, self._indptr, self._shape)

    def astype(self, dtype: Any, casting: str = "unsafe", copy: bool = True) -> Any:
        """The same array with values cast to ``dtype``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).astype("f").dtype
        dtype('float32')
        """
        return self._like(fnp.astype(self.data, np.dtype(dtype)))

    def transpose(self, axes: Any = None, copy: bool = False) -> Any:
        """The transpose, as BSR with the transposed blocksize.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.ones((2, 4)), blocksize=(2, 1)).T.blocksize
        (1, 2)
        """
        return to_bsr(self.tocoo().transpose(axes), self.blocksize[::-1])

    @property
    def T(self) -> Any:
        """The transpose."""
        return self.transpose()

    def __repr__(self):
        r, c = self.blocksize
        return (f"<Block Sparse Row sparse {self._family} of dtype '{self.dtype}'\n\twith "
                f"{self.nnz} stored elements (blocksize={r}x{c}) and shape {self._shape}>")

    # --- arithmetic: scalars on the blocks themselves, the rest through CSR -------------------
    def multiply(self, other: Any) -> Any:
        """The elementwise product: BSR for a scalar or a sparse operand, COO for a dense
        one (SciPy's formats).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.bsr_array(np.eye(2)).multiply(np.ones((2, 2))).format
        'coo'
        """
        if np.ndim(other) != 0 and coerce(other) is None:
            return self.tocsr().multiply(other)
        return StoredValueOps.multiply(self, other)

    def _back(self, result, blocksize=None):
        if not hasattr(result, "tocoo"):
            return result
        return to_bsr(result.tocoo(), blocksize or self.blocksize)

    def __matmul__(self, other):
        if isinstance(other, _bsr_base):
            return self._back(self.tocsr() @ other.tocsr(),
                              (self.blocksize[0], other.blocksize[1]))
        return self._back(self.tocsr() @ operand(other), (self.blocksize[0], 1))




def _unary(name):
    function = getattr(fnp, name)

    def method(self):
        return self._like(function(self.data))
    method.__name__ = name
    method.__doc__ = (f"``{name}`` of the stored blocks.\n\n        >>> import numpy as np, "
                      f"funcgrad.scipy.sparse as fsparse\n        >>> fsparse.bsr_array("
                      f"0.5 * np.eye(2)).{name}().shape\n        (2, 2)\n        ")
    return method


for _name in ZERO_PRESERVING:
    setattr(_bsr_base, _name, _unary(_name))


def _bsr_class(what, base):
    cls = type(f"bsr_{what}", (_bsr_base, base), {
        "_family": what, "__module__": __name__,
        "__doc__": f"""A sparse {what} of dense blocks (``scipy.sparse.bsr_{what}``):
    ``bsr_{what}((data, indices, indptr), shape=None)`` with ``data`` of shape ``(nblocks,
    R, C)``, or from a dense or sparse array with ``blocksize=(R, C)`` (SciPy's estimate
    when not given), or ``bsr_{what}((M, N), blocksize=...)`` empty.  ``data`` may be
    traced; ``grad`` with respect to one returns a ``bsr_{what}`` of the same blocks.
    Products and sums go through CSR and come back as BSR.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.bsr_{what}(np.array([[1.0, 2.0], [0.0, 3.0]]), blocksize=(1, 2))
    >>> A.data.shape, A @ np.ones(2)
    ((2, 1, 2), array([3., 3.]))
    >>> fg.grad(lambda A: (A @ np.array([1.0, 10.0])).sum())(A).data[:, 0]
    array([[ 1., 10.],
           [ 1., 10.]])
    """})
    CLASSES[what, "bsr"] = cls
    register(cls, lambda a: ((a.data,), Static(type(a), a._shape, a._indices, a._indptr)),
             lambda static, leaves: static.cls._make(leaves[0], static.row, static.col,
                                                     static.shape))
    return cls


bsr_array = _bsr_class("array", sparray)
bsr_matrix = _bsr_class("matrix", spmatrix)
