"""The sparse arrays' common body: every format keeps its stored values ``data`` (a
funcgrad array, possibly traced) beside a concrete index structure, the COO coordinates
``(row, col)`` of each stored value in storage order; CSR keeps them ordered by row, CSC by
column.  Every operation is then a gather from ``data`` and the operand by those coordinates
and a scatter-add (a segment sum) into the result: differentiable in ``data`` and the dense
operands through funcgrad's own rules, and never densified unless asked (``toarray``).

A sparse array is a pytree whose only leaf is ``data``; the structure is static (the
treedef's auxiliary data, compared by value), so ``grad`` returns a sparse array of the same
structure, as JAX's ``BCOO`` does, and ``jit``/``vmap`` take them as arguments.
"""
import numpy as np

from ... import numpy as fnp
from ...core import Tracer, concrete
from ...errors import ConcretizationError
from ...numpy._convert import asarray


def segment_sum(values, segments, n):
    """``out[s] = sum of values[i] with segments[i] == s`` for ``s < n``, along axis 0."""
    values = asarray(values)
    zeros = fnp.zeros((n,) + tuple(values.shape[1:]), values.dtype)
    return fnp.at(zeros)[segments].add(values)


def index_dtype(*arrays, maxval=None):
    """SciPy's choice of index dtype: int32 while every value fits, else int64."""
    big = 0 if maxval is None else int(maxval)
    for a in arrays:
        a = np.asarray(a)
        if a.size:
            big = max(big, int(np.abs(a).max()))
    return np.dtype(np.int32) if big <= np.iinfo(np.int32).max else np.dtype(np.int64)


def expand_indptr(indptr):
    """The compressed axis' index of each stored value (CSR's row, CSC's column)."""
    indptr = np.asarray(indptr)
    return np.repeat(np.arange(len(indptr) - 1, dtype=np.intp), np.diff(indptr))


def compress(major, n):
    """``indptr`` for values whose major-axis indices ``major`` are sorted."""
    indptr = np.zeros(n + 1, dtype=np.intp)
    np.cumsum(np.bincount(major, minlength=n), out=indptr[1:])
    return indptr


def canonical_order(row, col, by_column=False):
    """The permutation sorting the coordinates by row then column (by column then row for
    ``by_column``), and, after it, each value's slot among the distinct positions."""
    major, minor = (col, row) if by_column else (row, col)
    order = np.lexsort((minor, major))
    major, minor = major[order], minor[order]
    new = np.ones(len(order), bool)
    new[1:] = (major[1:] != major[:-1]) | (minor[1:] != minor[:-1])
    slots = np.cumsum(new) - 1
    return order, slots, new


def values_of(sparse, what):
    """The concrete stored values, for what depends on them (the pattern of nonzeros)."""
    try:
        return np.asarray(concrete(sparse.data))
    except ConcretizationError:
        raise ConcretizationError(
            f"{what} depends on the values of the stored entries, which are abstract under "
            f"jit; call it outside jit (or on a sparse array whose data is concrete)") from None


def is_traced(x):
    return isinstance(x, Tracer)


class Static:
    """The static half of a sparse array in a treedef: class, shape and coordinates,
    compared and hashed by value (``jit`` caches on it)."""
    __slots__ = ("cls", "shape", "row", "col", "_key")

    def __init__(self, cls, shape, row, col):
        self.cls, self.shape, self.row, self.col = cls, shape, row, col
        self._key = (cls, shape, row.tobytes(), col.tobytes())

    def __eq__(self, other):
        return isinstance(other, Static) and self._key == other._key

    def __hash__(self):
        return hash(self._key)

    def __repr__(self):
        return f"{self.cls.__name__}(shape={self.shape}, nnz={len(self.row)})"


def position(i, n):
    if not -n <= i < n:
        raise IndexError(f"index {i} is out of bounds for an axis of size {n}")
    return int(i) % n


def selection(key, n, what):
    """``(new index of each old index or -1, new size)`` for an int, slice or index list."""
    if isinstance(key, slice):
        chosen = np.arange(n)[key]
    elif isinstance(key, (int, np.integer)):
        chosen = np.array([position(key, n)])
    else:
        chosen = np.asarray(key)
        if chosen.ndim != 1 or (chosen.size and chosen.dtype.kind not in "iu"):
            raise IndexError(f"sparse array indexing: the {what} index must be an integer, a "
                             f"slice or a 1-d list of integers")
        if chosen.size and (chosen.min() < -n or chosen.max() >= n):
            raise IndexError(f"sparse array indexing: a {what} index is out of bounds "
                             f"(size {n})")
        chosen = chosen % n if n else chosen
    if len(np.unique(chosen)) != len(chosen):
        raise NotImplementedError(f"sparse array indexing: repeated {what} indices are not "
                                  f"supported")
    new = np.full(n, -1, np.intp)
    new[chosen] = np.arange(len(chosen))
    return new, len(chosen)
