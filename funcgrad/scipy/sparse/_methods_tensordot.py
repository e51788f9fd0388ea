"""COO's ``tensordot``: ``np.tensordot`` of the sparse array with a dense or sparse operand,
by the sparse products (a contraction of one axis is ``A @ B`` or ``A.T @ B``, of both a
gather of the operand at the stored positions), never densifying ``A`` unless no axis is
contracted (then the result is dense and as large anyway); differentiable in ``A.data``
and a dense operand."""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ._arrays_ops import _as_sparse

__all__ = ["TensorDot"]


def _axes(axes, other_ndim):
    """``(self's axes, other's axes)`` as ``np.tensordot`` reads ``axes``."""
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if not 1 <= n <= min(2, other_ndim):  # (SciPy's bounds)
            raise ValueError("axes integer is out of bounds for input arrays")
        return list(range(2 - n, 2)), list(range(n))
    try:
        mine, theirs = axes
    except (TypeError, ValueError):
        raise ValueError("tensordot: axes must be an int or a pair of axis sequences") \
            from None
    mine = [mine] if isinstance(mine, (int, np.integer)) else list(mine)
    theirs = [theirs] if isinstance(theirs, (int, np.integer)) else list(theirs)
    if len(mine) != len(theirs):
        raise ValueError("tensordot: the two axis sequences differ in length")
    for a, n in [(a, 2) for a in mine] + [(b, other_ndim) for b in theirs]:
        if not -n <= a < n:
            raise ValueError(f"tensordot: axis {a} is out of bounds for {n} dimensions")
    mine, theirs = [int(a) % 2 for a in mine], [int(b) % other_ndim for b in theirs]
    if len(set(mine)) != len(mine) or len(set(theirs)) != len(theirs):
        raise ValueError("tensordot: repeated axis")
    return mine, theirs


class TensorDot:
    """``tensordot`` (COO's, as SciPy's).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.coo_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
    >>> A.tensordot(np.ones((2, 3)), axes=1)
    array([[1., 1., 1.],
           [2., 2., 2.]])
    """

    format: str
    shape: Any

    def tensordot(self, other: Any, axes: Any = 2) -> Any:
        """``np.tensordot(A, other, axes)``: dense for a dense ``other`` (a scalar when
        every axis is contracted), a COO array for a sparse one.

        >>> import numpy as np, funcgrad.scipy.sparse as fsparse
        >>> A = fsparse.coo_array(np.array([[1.0, 0.0], [0.0, 2.0]]))
        >>> A.tensordot(np.array([[1.0, 2.0], [3.0, 4.0]]))
        np.float64(9.0)
        """
        if self.format != "coo":
            raise AttributeError(f"{type(self).__name__} has no attribute 'tensordot' (it "
                                 f"is COO's); convert with tocoo()")
        sparse = _as_sparse(other)
        other_shape = tuple(sparse.shape) if sparse is not None else tuple(np.shape(other))
        mine, theirs = _axes(axes, len(other_shape))
        if any(self.shape[a] != other_shape[b] for a, b in zip(mine, theirs)):
            raise ValueError("sizes of the corresponding axes must match")
        coo = self.tocoo()  # type: ignore[attr-defined]
        if sparse is not None:
            return _sparse_tensordot(coo, sparse, mine, theirs)
        x = asarray(other)
        if not mine:
            return fnp.tensordot(coo.toarray(), x, axes=0)
        if len(mine) == 1:
            left = coo if mine[0] == 1 else coo.T
            moved = fnp.moveaxis(x, theirs[0], 0)
            flat = fnp.reshape(moved, (moved.shape[0], -1))
            out = left @ flat
            return fnp.reshape(out, (left.shape[0],) + tuple(moved.shape[1:]))
        # both axes: sum over the stored (i, j) of A[i, j] * x[..i..j..]
        first, second = theirs[mine.index(0)], theirs[mine.index(1)]
        moved = fnp.moveaxis(x, (first, second), (0, 1))
        gathered = moved[coo._row, coo._col]
        out = fnp.tensordot(coo.data, gathered, axes=1)
        return out[()] if out.ndim == 0 else out  # (a scalar, as SciPy's)


def _sparse_tensordot(coo, other, mine, theirs):
    if len(mine) == 2:
        aligned = other if theirs[mine.index(0)] == 0 else other.T  # (A[i, j] with it)
        return coo.multiply(aligned).sum()
    if len(mine) == 0:
        raise NotImplementedError("tensordot of two sparse arrays with no axis contracted "
                                  "is a 4-d sparse array in SciPy, which funcgrad does not "
                                  "have (its sparse arrays are 2-d)")
    left = coo if mine[0] == 1 else coo.T
    right = other if theirs[0] == 0 else other.T
    return (left @ right).tocoo()
