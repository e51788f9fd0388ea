"""The sparse array classes' construction, structure and format conversions (the
operations are in :mod:`._arrays_ops`; the layout shared by every format is described in
:mod:`._arrays_base`)."""
import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...tree import register
from ._arrays_base import Static, canonical_order, expand_indptr, segment_sum, values_of
from ._arrays_ops import SparseOps, register_scipy_converter
from ._methods_common import RealImag
from ._methods_extrema import ElementwiseExtrema, ExtremaReductions
from ._methods_shape import ShapeMethods
from ._methods_tensordot import TensorDot
from ._methods_tidy import CompressedTidy

_NAMES = {"coo": "COOrdinate", "csr": "Compressed Sparse Row",
          "csc": "Compressed Sparse Column"}


def _is_scipy_sparse(x):
    return type(x).__module__.startswith("scipy.sparse") and hasattr(x, "tocoo")


def _check_shape(shape):
    try:
        shape = tuple(int(d) for d in shape)
    except TypeError:
        raise TypeError(f"sparse array: shape must be a pair (M, N) of integers, got "
                        f"{shape!r}") from None
    if len(shape) != 2:
        raise ValueError(f"sparse array: funcgrad's sparse arrays are 2-d; shape {shape} has "
                         f"{len(shape)} dimensions")
    if min(shape) < 0:
        raise ValueError(f"sparse array: negative dimensions are not allowed: {shape}")
    return shape


def _indices(name, a):
    a = np.asarray(a)
    if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
        raise TypeError(f"sparse array: {name} must be a 1-d array of integers, got "
                        f"{a.dtype} of shape {a.shape}")
    return a.astype(np.intp)


def _data(data, n):
    data = asarray(data)
    if data.ndim != 1 or data.shape[0] != n:
        raise ValueError(f"sparse array: data must be a 1-d array of one value per stored "
                         f"entry ({n}), got shape {tuple(data.shape)}")
    return data


def _in_bounds(row, col, shape):
    for name, idx, size in (("row", row, shape[0]), ("column", col, shape[1])):
        if idx.size and idx.min() < 0:
            raise ValueError(f"sparse array: negative {name} index found")
        if idx.size and idx.max() >= size:
            raise ValueError(f"sparse array: {name} index {idx.max()} exceeds the matrix "
                             f"dimension {size} (shape {shape})")


class _spbase(SparseOps, ExtremaReductions, ElementwiseExtrema, ShapeMethods, RealImag,
              CompressedTidy, TensorDot):
    """What every funcgrad sparse array holds: ``data`` (the stored values, possibly
    traced) and concrete coordinates in storage order."""
    __array_ufunc__ = None
    _funcgrad_sparse = True  # (NumPy operands hand `x @ A`, `x * A` to A's reflected methods)
    ndim = 2
    format = ""

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None):
        data, row, col, shape, summed = self._parse(arg1, shape)
        if dtype is not None:
            data = fnp.astype(data, np.dtype(dtype))
        if copy and isinstance(data, np.ndarray):
            data = data.copy()
        self._set(*self._arrange(data, row, col, shape, summed))

    # --- construction -------------------------------------------------------------------
    @classmethod
    def _make(cls, data, row, col, shape):
        """An instance from parts already in this format's order (no checks)."""
        obj = object.__new__(cls)
        obj._set(data, row, col, shape)
        return obj

    def _set(self, data, row, col, shape):
        self.data, self._row, self._col, self._shape = data, row, col, tuple(shape)

    def _parse(self, arg1, shape):
        """``(data, row, col, shape, summed)`` from what SciPy's constructors accept;
        ``summed`` when the coordinates come from COO (to be summed for CSR/CSC)."""
        other = coerce(arg1)
        if other is not None:
            other = other.asformat(self.format)
            if shape is not None and _check_shape(shape) != other.shape:
                raise ValueError(f"sparse array: shape {tuple(shape)} differs from the "
                                 f"given array's {other.shape}")
            return other.data, other._row, other._col, other.shape, False
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(d, (int, np.integer)) for d in arg1):
            shape = _check_shape(arg1)
            return fnp.zeros(0, np.float64), np.zeros(0, np.intp), np.zeros(0, np.intp), \
                shape, False
        if isinstance(arg1, tuple) and len(arg1) == 2 and isinstance(arg1[1], (tuple, list)) \
                and len(arg1[1]) == 2:
            row, col = _indices("row", arg1[1][0]), _indices("col", arg1[1][1])
            if len(row) != len(col):
                raise ValueError(f"sparse array: row and col differ in length ({len(row)} "
                                 f"and {len(col)})")
            data = _data(arg1[0], len(row))
            if shape is None:
                if not len(row):
                    raise ValueError("sparse array: cannot infer the shape of an empty "
                                     "(data, (row, col)); pass shape=")
                shape = (int(row.max()) + 1, int(col.max()) + 1)
            shape = _check_shape(shape)
            _in_bounds(row, col, shape)
            return data, row, col, shape, True
        if isinstance(arg1, tuple) and len(arg1) == 3:
            return self._parse_compressed(arg1, shape)
        if isinstance(arg1, tuple):
            raise TypeError(f"sparse array: a tuple argument is (M, N), (data, (row, col)) "
                            f"or (data, indices, indptr); got a tuple of {len(arg1)}")
        return self._parse_dense(arg1, shape)

    def _parse_compressed(self, arg1, shape):
        if self.format not in ("csr", "csc"):
            raise TypeError(f"{type(self).__name__}: (data, indices, indptr) builds CSR or "
                            f"CSC arrays; pass (data, (row, col)) here")
        indices, indptr = _indices("indices", arg1[1]), _indices("indptr", arg1[2])
        data = _data(arg1[0], len(indices))
        if len(indptr) < 1 or indptr[0] != 0 or indptr[-1] != len(indices) \
                or np.any(np.diff(indptr) < 0):
            raise ValueError(f"sparse array: indptr must start at 0, never decrease and end "
                             f"at len(indices) = {len(indices)}")
        major = expand_indptr(indptr)
        if shape is None:
            minor = int(indices.max()) + 1 if len(indices) else 0
            shape = (len(indptr) - 1, minor) if self.format == "csr" else \
                (minor, len(indptr) - 1)
        shape = _check_shape(shape)
        if len(indptr) - 1 != shape[0 if self.format == "csr" else 1]:
            raise ValueError(f"sparse array: indptr has {len(indptr)} entries, which does "
                             f"not fit shape {shape} (one more than the number of "
                             f"{'rows' if self.format == 'csr' else 'columns'})")
        row, col = (major, indices) if self.format == "csr" else (indices, major)
        _in_bounds(row, col, shape)
        return data, row, col, shape, False

    def _parse_dense(self, arg1, shape):
        dense = asarray(arg1)
        if dense.ndim != 2:
            raise ValueError(f"{type(self).__name__}: expected a 2-d array (funcgrad's "
                             f"sparse arrays are 2-d), got shape {tuple(dense.shape)}")
        if dense.dtype == object:
            raise TypeError(f"{type(self).__name__}: object arrays are not supported")
        pattern = values_of(_Dense(dense), f"{type(self).__name__}(dense array)")
        if self.format == "csc":
            col, row = np.nonzero(pattern.T)
        else:
            row, col = np.nonzero(pattern)
        row, col = row.astype(np.intp), col.astype(np.intp)
        flat = fnp.reshape(dense, (-1,))
        data = flat[row * dense.shape[1] + col]
        if shape is not None and _check_shape(shape) != tuple(dense.shape):
            raise ValueError(f"sparse array: shape {tuple(shape)} differs from the dense "
                             f"array's {tuple(dense.shape)}")
        return data, row, col, tuple(dense.shape), False

    def _arrange(self, data, row, col, shape, summed):
        """The parts in this format's order; COO input to CSR/CSC is summed, as SciPy's."""
        if self.format == "coo":
            return data, row, col, shape
        by_column = self.format == "csc"
        if summed:
            order, slots, new = canonical_order(row, col, by_column)
            if not new.all():
                data = segment_sum(fnp.take(data, order), slots, int(new.sum()))
                return data, row[order][new], col[order][new], shape
        else:  # (already grouped by the compressed axis when built in this format)
            order = np.argsort(col if by_column else row, kind="stable")
        if np.array_equal(order, np.arange(len(order))):
            return data, row, col, shape
        return fnp.take(data, order), row[order], col[order], shape

    # --- structure ----------------------------------------------------------------------
    @property
    def shape(self):
        """``(M, N)``."""
        return self._shape

    @property
    def dtype(self):
        """The stored values' dtype."""
        return np.dtype(self.data.dtype)

    @property
    def nnz(self):
        """The number of stored entries (explicit zeros and duplicates included)."""
        return int(self._row.shape[0])

    @property
    def size(self):
        """As ``nnz`` (SciPy's meaning of ``size`` for sparse arrays)."""
        return self.nnz

    def _kind(self, fmt):
        return CLASSES[self._family, fmt]

    def _like(self, data, fmt=None):
        """The same structure with other values."""
        return self._kind(fmt or self.format)._make(data, self._row, self._col, self._shape)

    def asformat(self, format, copy=False):  # noqa: A002
        """This array in ``format`` (``'coo'``, ``'csr'``, ``'csc'``, ``'dia'``, ``'dok'``,
        ``'lil'``, ``'bsr'``, or None for itself).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.eye(2)).asformat("coo").format
        'coo'
        """
        if format is None or format == self.format:
            return self.copy() if copy else self
        method = getattr(self, "to" + str(format), None)
        if method is None or format not in (*_NAMES, "dia", "dok", "lil", "bsr"):
            raise ValueError(f"asformat: unknown or unsupported format {format!r}; funcgrad "
                             f"has {sorted((*_NAMES, 'dia', 'dok', 'lil', 'bsr'))}")
        return method()

    def tocoo(self, copy=False):
        """This array as COO, its entries in the same order.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]])).tocoo().row
        array([0, 1], dtype=int32)
        """
        if self.format == "coo":
            return self.copy() if copy else self
        return self._like(self.data, "coo")

    def _compressed(self, fmt, copy):
        if self.format == fmt:
            return self.copy() if copy else self
        target = self._kind(fmt)
        obj = object.__new__(target)
        obj._set(*obj._arrange(self.data, self._row, self._col, self._shape,
                               self.format == "coo"))
        return obj

    def tocsr(self, copy=False):
        """This array as CSR (COO's duplicate entries summed, as SciPy's).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.coo_array((np.array([1.0, 2.0]), (np.array([1, 1]), np.array([0, 0]))))
        >>> A.tocsr().toarray()
        array([[0.],
               [3.]])
        """
        return self._compressed("csr", copy)

    def tocsc(self, copy=False):
        """This array as CSC.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]])).tocsc().data
        array([3., 2.])
        """
        return self._compressed("csc", copy)

    def copy(self):
        """A copy (the structure and values).

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> fsparse.csr_array(np.eye(2)).copy().nnz
        2
        """
        data = self.data.copy() if isinstance(self.data, np.ndarray) else self.data
        return type(self)._make(data, self._row.copy(), self._col.copy(), self._shape)

    def __repr__(self):
        return (f"<{_NAMES.get(self.format, self.format)} sparse {self._family} of dtype "
                f"'{self.dtype}'\n\twith {self.nnz} stored elements and shape {self.shape}>")

    __str__ = __repr__

    def __len__(self):
        raise TypeError("len() of a sparse array is ambiguous: use A.nnz or A.shape[0]")

    def __bool__(self):
        if self._shape == (1, 1):
            return bool(self.nnz and self.toarray()[0, 0] != 0)
        raise ValueError("The truth value of a sparse array with more than one element is "
                         "ambiguous; use a.nnz, a.count_nonzero() or a.toarray().any()")


class _Dense:
    """A dense array in the role of a sparse one's data, for :func:`values_of`."""
    __slots__ = ("data",)

    def __init__(self, data):
        self.data = data


def from_scipy(matrix):
    """A SciPy sparse matrix or array as funcgrad's, in its format where funcgrad has it
    (else CSR); the values are copied, nothing is densified."""
    family = "array" if type(matrix).__name__.endswith("_array") else "matrix"
    fmt = matrix.format if matrix.format in _NAMES else "csr"
    source = matrix.asformat(fmt)
    cls = CLASSES[family, fmt]
    data = np.array(source.data)
    if fmt == "coo":
        return cls._make(data, np.asarray(source.row, np.intp), np.asarray(source.col, np.intp),
                         source.shape)
    major = expand_indptr(source.indptr)
    minor = np.asarray(source.indices, np.intp)
    row, col = (major, minor) if fmt == "csr" else (minor, major)
    return cls._make(data, row, col, tuple(source.shape))


register_scipy_converter(from_scipy)


def coerce(x):
    """``x`` as a COO, CSR or CSC array if it is sparse (funcgrad's own as it is, its DIA
    as COO, SciPy's converted), else None."""
    if isinstance(x, _spbase):
        return x
    if getattr(type(x), "_funcgrad_sparse", False):
        return x.tocoo()
    if _is_scipy_sparse(x):
        return from_scipy(x)
    return None

# (family, format) -> class, filled in by ._arrays_formats as it makes them
CLASSES: dict = {}


def register_class(cls):
    """Make ``cls`` known by its family and format, and a pytree."""
    CLASSES[cls._family, cls.format] = cls
    register(cls, lambda s: ((s.data,), Static(type(s), s._shape, s._row, s._col)),
             lambda static, leaves: static.cls._make(leaves[0], static.row, static.col,
                                                     static.shape))
    return cls

