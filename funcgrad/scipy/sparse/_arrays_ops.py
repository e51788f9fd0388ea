"""The sparse arrays' operations: products, sums, elementwise arithmetic, reductions,
indexing and the in-place tidying SciPy offers.  Each is a gather by the stored
coordinates and a segment sum (see :mod:`._arrays_base`), so derivatives reach ``data``
and the dense operands and nothing is densified but by ``toarray``/``todense``."""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ._arrays_base import (canonical_order, compress, index_dtype, is_traced, position,
                           segment_sum, selection, values_of)

# SciPy's elementwise functions that keep zeros zero (f(0) = 0), applied to the stored values.
ZERO_PRESERVING = ("sin", "tan", "arcsin", "arctan", "sinh", "tanh", "arcsinh", "arctanh",
                   "rint", "sign", "expm1", "log1p", "deg2rad", "rad2deg", "floor", "ceil",
                   "trunc", "sqrt")


def _is_scalar(x):
    return np.ndim(x) == 0 and not hasattr(x, "format")


def _is_sparse(x):
    return hasattr(x, "_row") and hasattr(x, "_kind")


def _as_sparse(x):
    """A SciPy sparse matrix as funcgrad's; funcgrad's as it is; else None."""
    if _is_sparse(x):
        return x
    if getattr(type(x), "_funcgrad_sparse", False):  # (DIA)
        return x.tocoo()
    if type(x).__module__.startswith("scipy.sparse") and hasattr(x, "tocoo"):
        return _CONVERTER[0](x)
    return None


# SciPy's sparse matrix -> funcgrad's: _arrays_core's from_scipy (which imports this module)
_CONVERTER: list = [None]


def register_scipy_converter(convert: Any) -> None:
    """Let the operations take SciPy's sparse matrices, through ``convert`` (called once,
    by :mod:`._arrays_core`, which defines it)."""
    _CONVERTER[0] = convert


class SparseOps:
    """The operations of :class:`._arrays_core._spbase` (a mixin)."""
    _family = "array"  # (or "matrix": `*` and `**` are then the matrix product and power)

    # --- structure read-outs --------------------------------------------------------------
    @property
    def row(self):
        """COO's row index of each stored value."""
        self._only("row", "coo")
        return self._row.astype(index_dtype(maxval=max(self._shape)))

    @property
    def col(self):
        """COO's column index of each stored value."""
        self._only("col", "coo")
        return self._col.astype(index_dtype(maxval=max(self._shape)))

    @property
    def coords(self):
        """COO's ``(row, col)``."""
        return self.row, self.col

    @property
    def indices(self):
        """CSR's column (CSC's row) index of each stored value."""
        self._only("indices", "csr", "csc")
        minor = self._col if self.format == "csr" else self._row
        return minor.astype(index_dtype(maxval=max(max(self._shape), self.nnz)))

    @property
    def indptr(self):
        """Where each row's (CSR) or column's (CSC) values start in ``data``, and the end."""
        self._only("indptr", "csr", "csc")
        major, n = (self._row, self._shape[0]) if self.format == "csr" else \
            (self._col, self._shape[1])
        return compress(major, n).astype(index_dtype(maxval=max(max(self._shape), self.nnz)))

    @property
    def has_canonical_format(self):
        """Are the entries sorted (row-major for CSR and COO, column-major for CSC) with no
        duplicates?"""
        order, _, new = canonical_order(self._row, self._col, self.format == "csc")
        return bool(new.all() and np.array_equal(order, np.arange(self.nnz)))

    @property
    def has_sorted_indices(self):
        """Are the indices sorted within each row (CSR) or column (CSC)?"""
        order, _, _ = canonical_order(self._row, self._col, self.format == "csc")
        return bool(np.array_equal(order, np.arange(self.nnz)))

    def _only(self, name, *formats):
        if self.format not in formats:
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r} (it is "
                                 f"{' and '.join(formats).upper()}'s); convert with "
                                 f"to{formats[0]}()")

    # --- dense views ----------------------------------------------------------------------
    def toarray(self, order=None, out=None):
        """The dense array (the one operation that densifies).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.coo_array((np.array([2.0]), (np.array([0]), np.array([1])))).toarray()
        array([[0., 2.]])
        """
        if out is not None:
            raise TypeError("toarray: out= is not supported (funcgrad arrays are immutable)")
        m, n = self._shape
        flat = segment_sum(self.data, self._row * n + self._col, m * n)
        return fnp.reshape(flat, (m, n))

    def todense(self, order=None, out=None):
        """As ``toarray`` (an ndarray, also for the ``*_matrix`` classes).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.eye(2)).todense()
        array([[1., 0.],
               [0., 1.]])
        """
        return self.toarray(order, out)

    # --- products -------------------------------------------------------------------------
    def _matmul_dense(self, x):
        x = asarray(x)
        m, n = self._shape
        if x.ndim not in (1, 2) or x.shape[0] != n:
            raise ValueError(f"matmul: dimension mismatch: the sparse array has shape "
                             f"{self._shape}, the operand {tuple(x.shape)} (expected ({n},) "
                             f"or ({n}, K))")
        gathered = fnp.take(x, self._col, axis=0)
        values = self.data if x.ndim == 1 else fnp.reshape(self.data, (-1, 1))
        return segment_sum(values * gathered, self._row, m)

    def _matmul_sparse(self, other):
        if self._shape[1] != other.shape[0]:
            raise ValueError(f"matmul: dimension mismatch: shapes {self._shape} and "
                             f"{other.shape}")
        other = other.tocsr()
        starts = compress(other._row, other.shape[0])
        counts = np.diff(starts)[self._col]
        left = np.repeat(np.arange(self.nnz), counts)
        first = np.repeat(np.cumsum(counts) - counts, counts)
        right = np.repeat(starts[:-1][self._col], counts) + (np.arange(len(left)) - first)
        values = fnp.take(self.data, left) * fnp.take(other.data, right)
        product = self._kind("coo")._make(values, self._row[left], other._col[right],
                                          (self._shape[0], other.shape[1]))
        return product.asformat(self._result_format())

    def __matmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        sparse = _as_sparse(other)
        return self._matmul_sparse(sparse) if sparse is not None else \
            self._matmul_dense(other)

    def __rmatmul__(self, other):
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        x = asarray(other)
        if x.ndim == 1:
            return self.T._matmul_dense(x)
        return fnp.transpose(self.T._matmul_dense(fnp.transpose(x)))

    def dot(self, other):
        """The product ``self @ other`` (``self * other`` for a scalar); sparse for a sparse
        ``other``, dense for a dense one; differentiable in both.

        >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array(np.array([[2.0, 0.0], [1.0, 3.0]]))
        >>> A.dot(np.ones(2)), fg.grad(lambda A: A.dot(np.ones(2)).sum())(A).data
        (array([2., 4.]), array([1., 1., 1.]))
        """
        return self._scaled(other) if _is_scalar(other) else self @ other

    # --- elementwise arithmetic -----------------------------------------------------------
    def _scaled(self, c):
        return self._like(self.data * c)

    def multiply(self, other):
        """The elementwise product with a scalar, a dense array (broadcast to the shape) or
        a sparse array: sparse, with this array's pattern (the common one for sparse).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array(np.array([[2.0, 0.0], [1.0, 3.0]]))
        >>> A.multiply(np.array([10.0, 100.0])).toarray()
        array([[ 20.,   0.],
               [ 10., 300.]])
        """
        if _is_scalar(other):
            return self._scaled(other)
        sparse = _as_sparse(other)
        if sparse is not None:
            return self._multiply_sparse(sparse)
        dense = asarray(other)
        try:
            dense = fnp.broadcast_to(dense, self._shape)
        except ValueError:
            raise ValueError(f"multiply: the operand of shape {tuple(dense.shape)} does not "
                             f"broadcast to the sparse array's {self._shape}") from None
        flat = fnp.reshape(dense, (-1,))
        values = self.data * fnp.take(flat, self._row * self._shape[1] + self._col)
        return self._kind("coo")._make(values, self._row, self._col, self._shape)

    def todia(self, copy=False):
        """This array in DIA format (its diagonals; duplicates summed).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])).todia().offsets
        array([0, 1])
        """
        return self._kind("dia")._from_coo(self.tocoo())

    def todok(self, copy=False):
        """This array as a dictionary of keys (duplicates summed).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> list(fsparse.csr_array(np.array([[0.0, 2.0]])).todok().keys())
        [(0, 1)]
        """
        return self._kind("dok")(self)

    def tolil(self, copy=False):
        """This array as row lists (duplicates summed).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[0.0, 2.0]])).tolil().rows
        array([list([1])], dtype=object)
        """
        return self._kind("lil")(self)

    def tobsr(self, blocksize=None, copy=False):
        """This array in blocks of ``blocksize`` (SciPy's estimate when None).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.eye(4)).tobsr((2, 2)).data.shape
        (2, 2, 2)
        """
        return self._kind("bsr")._from_coo(self.tocoo(), blocksize)

    def _summed(self):
        """The same array as CSR with duplicates summed (canonical)."""
        coo = self.tocoo()
        return self._kind("csr")._make(*_coalesce(coo.data, coo._row, coo._col),
                                       self._shape)

    def _result_format(self):
        """The format of a sum or product of two sparse arrays (SciPy's choice)."""
        return "csc" if self.format == "csc" else "csr"

    def _multiply_sparse(self, other):
        if other.shape != self._shape:
            raise ValueError(f"multiply: shapes {self._shape} and {other.shape} differ")
        a, b = self._summed(), other._summed()
        n = max(self._shape[1], 1)
        common, ia, ib = np.intersect1d(a._row * n + a._col, b._row * n + b._col,
                                        assume_unique=True, return_indices=True)
        values = fnp.take(a.data, ia) * fnp.take(b.data, ib)
        out = self._kind("csr")._make(values, common // n, common % n, self._shape)
        return out.asformat(self._result_format())

    def __mul__(self, other):
        if _is_scalar(other):
            return self._scaled(other)
        if not self._family == "array":  # (spmatrix: * is the product)
            return self @ other
        return self.multiply(other)

    def __rmul__(self, other):
        if _is_scalar(other):
            return self._scaled(other)
        if not self._family == "array":
            return self.__rmatmul__(other)
        return self.multiply(other)

    def __truediv__(self, other):
        if not _is_scalar(other):
            raise TypeError("sparse array: division is by a scalar only; for an "
                            "elementwise quotient use A.multiply(1 / B) with a dense B")
        return self._like(self.data / other)

    def __neg__(self):
        return self._like(-self.data)

    def __pos__(self):
        return self

    def __add__(self, other):
        sparse = _as_sparse(other)
        if sparse is not None:
            if sparse.shape != self._shape:
                raise ValueError(f"inconsistent shapes: {self._shape} and {sparse.shape}")
            a, b = self.tocoo(), sparse.tocoo()
            data = fnp.concatenate([a.data, b.data])
            rows, cols = np.concatenate([a._row, b._row]), np.concatenate([a._col, b._col])
            fmt = self._result_format()
            return self._kind(fmt)._make(*_coalesce(data, rows, cols, fmt == "csc"),
                                         self._shape)
        if _is_scalar(other):
            if not is_traced(other) and other == 0:
                return self.copy()
            raise NotImplementedError("adding a nonzero scalar to a sparse array is not "
                                      "supported (it would fill every entry); use "
                                      "A.toarray() + c")
        return self.toarray() + asarray(other)

    __radd__ = __add__

    def __sub__(self, other):
        sparse = _as_sparse(other)
        return self + (-sparse if sparse is not None else -asarray(other)
                       if not _is_scalar(other) else -other)

    def __rsub__(self, other):
        return (-self) + other

    def power(self, n, dtype=None):
        """The elementwise power ``A ** n`` of the stored values (``n`` a scalar).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[2.0, 0.0], [0.0, 3.0]])).power(2).data
        array([4., 9.])
        """
        if not _is_scalar(n):
            raise NotImplementedError("power: the exponent must be a scalar")
        data = self.data if dtype is None else fnp.astype(self.data, dtype)
        return self._like(data ** n)

    def __pow__(self, n):
        if self._family == "array":
            return self.power(n)
        return matrix_power_of(self, n)

    def __abs__(self):
        return self._like(fnp.abs(self.data))

    def conjugate(self, copy=True):
        """The complex conjugate.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1j, 0]])).conjugate().data
        array([0.-1.j])
        """
        return self._like(fnp.conj(self.data))

    conj = conjugate

    def astype(self, dtype, casting="unsafe", copy=True):
        """The same array with values cast to ``dtype``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.eye(2)).astype(np.float32).dtype
        dtype('float32')
        """
        return self._like(fnp.astype(self.data, np.dtype(dtype)))

    # --- transposition --------------------------------------------------------------------
    def transpose(self, axes=None, copy=False):
        """The transpose (CSR's is CSC and back, as SciPy's), the values in the same order.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, 2.0]])).transpose().format
        'csc'
        """
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("transpose: axes must be None or (1, 0) for a 2-d sparse array")
        fmt = {"csr": "csc", "csc": "csr"}.get(self.format, self.format)
        return self._kind(fmt)._make(self.data, self._col, self._row, self._shape[::-1])

    @property
    def T(self):
        """The transpose."""
        return self.transpose()

    # --- reductions -----------------------------------------------------------------------
    def _as_matrix_result(self, vector, axis):
        if self._family == "array":
            return vector
        return fnp.reshape(vector, (1, -1) if axis == 0 else (-1, 1))

    def sum(self, axis=None, dtype=None, out=None):
        """The sum of all entries, or along ``axis`` (a 1-d array; 2-d for ``*_matrix``).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array(np.array([[1.0, 0.0], [2.0, 3.0]]))
        >>> A.sum(), A.sum(axis=0), A.sum(axis=1)
        (np.float64(6.0), array([3., 3.]), array([1., 5.]))
        """
        if out is not None:
            raise TypeError("sum: out= is not supported")
        data = self.data if dtype is None else fnp.astype(self.data, dtype)
        if axis is None:
            return fnp.sum(data)
        axis = _axis(axis)
        segments, n = (self._col, self._shape[1]) if axis == 0 else (self._row, self._shape[0])
        return self._as_matrix_result(segment_sum(data, segments, n), axis)

    def mean(self, axis=None, dtype=None, out=None):
        """The mean of all entries (the zeros counted), or along ``axis``.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, 0.0], [2.0, 3.0]])).mean(axis=1)
        array([0.5, 2.5])
        """
        total = self.sum(axis, dtype, out)
        count = self._shape[0] * self._shape[1] if axis is None else \
            self._shape[_axis(axis)]
        if dtype is None and np.dtype(total.dtype).kind in "iub":
            total = fnp.astype(total, np.float64)
        return total / count

    def diagonal(self, k=0):
        """The ``k``-th diagonal (a dense 1-d array).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])).diagonal(1)
        array([2.])
        """
        m, n = self._shape
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        on = (self._col - self._row) == k
        pos = self._row[on] if k >= 0 else self._col[on]
        return segment_sum(fnp.take(self.data, np.nonzero(on)[0]), pos, length)

    def trace(self, offset=0):
        """The sum of the ``offset``-th diagonal.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])).trace()
        np.float64(4.0)
        """
        return fnp.sum(self.diagonal(offset))

    def getnnz(self, axis=None):
        """The number of stored entries, in all or per row (``axis=1``) or column (0).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]])).getnnz(axis=1)
        array([2, 1], dtype=int32)
        """
        if axis is None:
            return self.nnz
        axis = _axis(axis)
        counts = np.bincount(self._col if axis == 0 else self._row,
                             minlength=self._shape[axis])
        return counts.astype(np.int32)

    def count_nonzero(self, axis=None):
        """The number of nonzero entries (explicit zeros left out; needs concrete values).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.coo_array((np.array([0.0, 2.0]), (np.array([0, 1]), np.array([0, 1]))))
        >>> A.nnz, A.count_nonzero()
        (2, 1)
        """
        summed = self._summed()
        nonzero = values_of(summed, "count_nonzero") != 0
        if axis is None:
            return int(nonzero.sum())
        axis = _axis(axis)
        return np.bincount((summed._col if axis == 0 else summed._row)[nonzero],
                           minlength=self._shape[axis])

    def nonzero(self):
        """``(row, col)`` of the nonzero entries (needs concrete values).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]])).nonzero()
        (array([0, 1], dtype=int32), array([1, 0], dtype=int32))
        """
        coo = self.tocoo()
        keep = np.nonzero(values_of(coo, "nonzero") != 0)[0]
        if self.format == "csc":  # (row-major, as SciPy orders CSC's)
            keep = keep[np.lexsort((coo._col[keep], coo._row[keep]))]
        return coo.row[keep], coo.col[keep]

    # --- tidying, in place as SciPy's ---------------------------------------------------------
    def eliminate_zeros(self):
        """Drop the stored zeros, in place (needs concrete values, and refuses traced ones:
        a dropped entry's derivative would be lost).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.coo_array((np.array([0.0, 2.0]), (np.array([0, 1]), np.array([0, 1]))))
        >>> A.eliminate_zeros(); A.nnz
        1
        """
        if is_traced(self.data):
            raise TypeError("eliminate_zeros: the stored values are being differentiated; "
                            "dropping the zero ones would drop their derivatives.  Call it "
                            "before the transform (on concrete values), or keep the zeros")
        keep = np.nonzero(values_of(self, "eliminate_zeros") != 0)[0]
        self._set(fnp.take(self.data, keep), self._row[keep], self._col[keep], self._shape)

    def sum_duplicates(self):
        """Sum the entries stored twice at one position and sort the indices, in place
        (differentiable: each summed value's derivative reaches all its parts).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.coo_array((np.array([1.0, 2.0]), (np.array([0, 0]), np.array([1, 1]))))
        >>> A.sum_duplicates(); A.nnz, A.data
        (1, array([3.]))
        """
        data, row, col = _coalesce(self.data, self._row, self._col, self.format == "csc")
        self._set(data, row, col, self._shape)

    def sort_indices(self):
        """Sort the indices (row-major for CSR/COO, column-major for CSC), in place.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array((np.array([1.0, 2.0]), np.array([1, 0]), np.array([0, 2])))
        >>> A.sort_indices(); A.indices
        array([0, 1], dtype=int32)
        """
        order, _, _ = canonical_order(self._row, self._col, self.format == "csc")
        self._set(fnp.take(self.data, order), self._row[order], self._col[order], self._shape)

    def sorted_indices(self):
        """A copy with sorted indices.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.csr_array((np.array([1.0, 2.0]), np.array([1, 0]), np.array([0, 2])))
        >>> A.sorted_indices().data
        array([2., 1.])
        """
        out = self.copy()
        out.sort_indices()
        return out

    # --- indexing -------------------------------------------------------------------------
    def __getitem__(self, key):
        rows, cols = key if isinstance(key, tuple) and len(key) == 2 else (key, slice(None))
        if isinstance(rows, (int, np.integer)) and isinstance(cols, (int, np.integer)):
            i, j = position(rows, self._shape[0]), position(cols, self._shape[1])
            hit = np.nonzero((self._row == i) & (self._col == j))[0]
            return fnp.sum(fnp.take(self.data, hit))
        is_array = self._family == "array"
        if is_array and (isinstance(rows, (int, np.integer)) or
                         isinstance(cols, (int, np.integer))):
            raise NotImplementedError("sparse array indexing: an integer index gives a 1-d "
                                      "sparse array in SciPy, which funcgrad does not have; "
                                      "index with a slice (A[i:i+1]) to keep two dimensions")
        new_rows = selection(rows, self._shape[0], "row")
        new_cols = selection(cols, self._shape[1], "column")
        keep = np.nonzero((new_rows[0][self._row] >= 0) & (new_cols[0][self._col] >= 0))[0]
        out = self._kind("coo")._make(fnp.take(self.data, keep), new_rows[0][self._row[keep]],
                                      new_cols[0][self._col[keep]], (new_rows[1], new_cols[1]))
        return out.asformat(self.format)


def _coalesce(data, row, col, by_column=False):
    """The entries sorted, those at one position summed."""
    order, slots, new = canonical_order(row, col, by_column)
    if new.all():
        return fnp.take(data, order), row[order], col[order]
    return segment_sum(fnp.take(data, order), slots, int(new.sum())), \
        row[order][new], col[order][new]


def _axis(axis):
    if axis not in (0, 1, -1, -2):
        raise ValueError(f"axis {axis!r} is out of bounds for a 2-d sparse array")
    return int(axis) % 2


def _unary(name):
    function = getattr(fnp, name)

    def method(self):
        return self._like(function(self.data))
    method.__name__ = name
    method.__doc__ = (f"``{name}`` of the stored values (it maps 0 to 0, so the pattern "
                      f"stays).\n\n        >>> import numpy as np, funcgrad.scipy.sparse as "
                      f"fsparse\n        >>> fsparse.csr_array(np.array([[0.5, 0.0]]))."
                      f"{name}().nnz\n        1\n        ")
    return method


for _name in ZERO_PRESERVING:
    setattr(SparseOps, _name, _unary(_name))


def matrix_power_of(a, power):
    """``a`` times itself ``power`` times, by squaring (sparse products throughout)."""
    if a.shape[0] != a.shape[1]:
        raise ValueError(f"matrix_power: the matrix must be square, got shape {a.shape}")
    if not isinstance(power, (int, np.integer)) or power < 0:
        raise ValueError(f"matrix_power: the exponent must be a non-negative integer, got "
                         f"{power!r}")
    n = a.shape[0]
    result = a._kind("csr")._make(fnp.ones(n, a.dtype), np.arange(n), np.arange(n), a.shape)
    square = a.tocsr()
    while power:
        if power & 1:
            result = result @ square
        power >>= 1
        if power:
            square = square @ square
    return result
