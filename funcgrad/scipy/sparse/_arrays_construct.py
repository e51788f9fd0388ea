"""``scipy.sparse``'s constructors on funcgrad's sparse arrays: ``eye``, ``diags``,
``kron``, the stacks and block matrices, ``tril``/``triu``, ``find``; each is differentiable
in the values it is given (diagonals, blocks' data), the index structure being built with
NumPy.  The default formats are SciPy's (DIA for ``eye`` and ``diags``, BSR or COO for
``kron``, COO for the stacks unless every block is CSR or CSC)."""
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...typing import Array, ArrayLike
from ._arrays_bsr import to_bsr
from ._arrays_core import coerce
from ._arrays_formats import ARRAYS, MATRICES, issparse, sparray, spmatrix
from ._arrays_ops import matrix_power_of

__all__ = ["eye", "eye_array", "identity", "diags", "diags_array", "spdiags", "kron",
           "kronsum", "hstack", "vstack", "bmat", "block_array", "block_diag", "tril",
           "triu", "find", "swapaxes", "permute_dims"]


def _sparse(x):
    """Any operand as funcgrad's sparse array (a dense one by its nonzeros)."""
    sparse = coerce(x)
    return sparse if sparse is not None else ARRAYS["coo"](x)


def _family(*xs):
    """Arrays if any operand is a sparse array (funcgrad's or SciPy's), else matrices."""
    arrays = any(isinstance(x, sparray) or (issparse(x) and not isinstance(x, spmatrix)
                                            and type(x).__name__.endswith("_array"))
                 for x in xs)
    return ARRAYS if arrays else MATRICES


def _coo(family, data, row, col, shape, format, dtype=None):  # noqa: A002
    data = asarray(data)
    if dtype is not None:
        data = fnp.astype(data, np.dtype(dtype))
    out = family["coo"]._make(data, np.asarray(row, np.intp), np.asarray(col, np.intp),
                              tuple(int(d) for d in shape))
    return out.asformat(format)


def _diagonal_positions(k, shape):
    m, n = shape
    length = max(0, min(m + min(k, 0), n - max(k, 0)))
    row = np.arange(length) + max(0, -k)
    return row, row + k


def eye_array(m: int, n: Optional[int] = None, *, k: int = 0, dtype: Any = float,
              format: Optional[str] = None) -> Any:  # noqa: A002
    """A sparse array with ones on the ``k``-th diagonal (``scipy.sparse.eye_array``; DIA
    by default).

    >>> import funcgrad.scipy.sparse as fsparse
    >>> fsparse.eye_array(2, 3, k=1).toarray()
    array([[0., 1., 0.],
           [0., 0., 1.]])
    """
    shape = (int(m), int(m if n is None else n))
    row, col = _diagonal_positions(int(k), shape)
    return _coo(ARRAYS, np.ones(len(row), dtype), row, col, shape, format or "dia")


def eye(m: int, n: Optional[int] = None, k: int = 0, dtype: Any = float,
        format: Optional[str] = None) -> Any:  # noqa: A002
    """As :func:`eye_array`, a sparse matrix (``scipy.sparse.eye``).

    >>> import funcgrad.scipy.sparse as fsparse
    >>> type(fsparse.eye(2)).__name__
    'dia_matrix'
    """
    return MATRICES["coo"](eye_array(m, n, k=k, dtype=dtype, format="coo")).asformat(
        format or "dia")


def identity(n: int, dtype: Any = "d", format: Optional[str] = None) -> Any:  # noqa: A002
    """The ``n`` by ``n`` identity as a sparse matrix (``scipy.sparse.identity``).

    >>> import funcgrad.scipy.sparse as fsparse
    >>> fsparse.identity(2).toarray()
    array([[1., 0.],
           [0., 1.]])
    """
    return eye(n, n, dtype=dtype, format=format)


def diags_array(diagonals: Any, /, *, offsets: Any = 0, shape: Optional[Tuple[int, int]] = None,
                format: Optional[str] = None, dtype: Any = None) -> Any:  # noqa: A002
    """A sparse array from its diagonals (``scipy.sparse.diags_array``): ``diagonals[i]``
    on the ``offsets[i]``-th diagonal, a length-1 diagonal broadcast along it; square by
    default.  Differentiable in the diagonals (the zeros among them stay stored).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> fsparse.diags_array([np.array([1.0, 2.0]), np.array([3.0])], offsets=[0, 1]).toarray()
    array([[1., 3.],
           [0., 2.]])
    >>> fg.grad(lambda d: (fsparse.diags_array(d) @ np.ones(2)).sum())(np.array([1.0, 2.0]))
    array([1., 1.])
    """
    scalar_offset = np.ndim(offsets) == 0
    if scalar_offset and (np.ndim(diagonals) == 1 or
                          (hasattr(diagonals, "ndim") and diagonals.ndim == 1)):
        diagonals = [diagonals]
    offsets = [int(k) for k in np.atleast_1d(offsets)]
    diagonals = [fnp.atleast_1d(asarray(d)) for d in diagonals]
    if len(offsets) != len(diagonals):
        raise ValueError(f"diags_array: {len(diagonals)} diagonals but {len(offsets)} offsets")
    if len(set(offsets)) != len(offsets):
        raise ValueError("diags_array: repeated diagonal offsets")
    if shape is None:
        m = int(diagonals[0].shape[0]) + abs(offsets[0]) if diagonals else 0
        shape = (m, m)
    shape = (int(shape[0]), int(shape[1]))
    values, rows, cols = [], [], []
    for i, (d, k) in enumerate(zip(diagonals, offsets)):
        row, col = _diagonal_positions(k, shape)
        if d.ndim != 1 or d.shape[0] not in (1, len(row)):
            raise ValueError(f"diags_array: diagonal {i} has length {d.shape[0]}, but the "
                             f"{k}-th diagonal of shape {shape} has {len(row)} entries")
        values.append(fnp.broadcast_to(d, (len(row),)) if d.shape[0] != len(row) else d)
        rows.append(row)
        cols.append(col)
    data = fnp.concatenate(values) if values else fnp.zeros(0)
    empty = np.zeros(0, np.intp)
    return _coo(ARRAYS, data, np.concatenate(rows) if rows else empty,
                np.concatenate(cols) if cols else empty, shape, format or "dia", dtype)


def diags(diagonals: Any, offsets: Any = 0, shape: Optional[Tuple[int, int]] = None,
          format: Optional[str] = None, dtype: Any = None) -> Any:  # noqa: A002
    """As :func:`diags_array`, a sparse matrix (``scipy.sparse.diags``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(3, 3)).toarray()
    array([[-2.,  1.,  0.],
           [ 1., -2.,  1.],
           [ 0.,  1., -2.]])
    """
    if np.ndim(offsets) == 0 and np.ndim(diagonals) == 0:
        raise ValueError("diags: a scalar diagonal needs shape=")
    if np.ndim(offsets) == 1 and all(np.ndim(d) == 0 for d in diagonals):
        diagonals = [np.atleast_1d(d) for d in diagonals]
    out = diags_array(diagonals, offsets=offsets, shape=shape, format="coo", dtype=dtype)
    return MATRICES["coo"]._make(out.data, out._row, out._col, out.shape).asformat(
        format or "dia")


def spdiags(data: ArrayLike, diags: Any, m: Any = None, n: Optional[int] = None,
            format: Optional[str] = None) -> Any:  # noqa: A002
    """A sparse matrix from the rows of ``data`` (``scipy.sparse.spdiags``): ``data[i,
    j]`` goes to position ``(j - diags[i], j)``, column-aligned as SciPy's (DIA).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.spdiags(np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), [0, 1], 3, 3).toarray()
    array([[1., 5., 0.],
           [0., 2., 6.],
           [0., 0., 3.]])
    """
    data = fnp.atleast_2d(asarray(data))
    offsets = [int(k) for k in np.atleast_1d(diags)]
    if m is None:
        m = n = data.shape[1]
    elif n is None:
        m, n = m
    shape = (int(m), int(n))
    values, rows, cols = [], [], []
    for i, k in enumerate(offsets):
        col = np.arange(max(0, k), min(shape[1], shape[0] + k, data.shape[1]))
        values.append(fnp.take(data[i], col))
        rows.append(col - k)
        cols.append(col)
    return _coo(MATRICES, fnp.concatenate(values), np.concatenate(rows), np.concatenate(cols),
                shape, format or "dia")


def kron(A: Any, B: Any, format: Optional[str] = None) -> Any:  # noqa: A002
    """The Kronecker product (``scipy.sparse.kron``), differentiable in both factors'
    values; by default BSR with ``B``'s shape as blocks when ``B`` is at least half full,
    else COO, as SciPy's.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.kron(fsparse.eye_array(2), np.array([[1.0, 2.0]])).toarray()
    array([[1., 2., 0., 0.],
           [0., 0., 1., 2.]])
    """
    family = _family(A, B)
    a, b = _sparse(A).tocoo(), _sparse(B).tocoo()
    (ma, na), (mb, nb) = a.shape, b.shape
    data = fnp.reshape(fnp.reshape(a.data, (-1, 1)) * fnp.reshape(b.data, (1, -1)), (-1,))
    row = (a._row[:, None] * mb + b._row[None, :]).ravel()
    col = (a._col[:, None] * nb + b._col[None, :]).ravel()
    product = _coo(family, data, row, col, (ma * mb, na * nb), "coo")
    if format is None and 2 * b.nnz >= mb * nb and mb * nb:  # (B fairly dense: SciPy's BSR)
        return to_bsr(product, (mb, nb))
    return product.asformat(format or "coo")


def kronsum(A: Any, B: Any, format: Optional[str] = None) -> Any:  # noqa: A002
    """The Kronecker sum ``kron(I_n, A) + kron(B, I_m)`` of the square ``A`` (m by m) and
    ``B`` (n by n) (``scipy.sparse.kronsum``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.kronsum(np.array([[1.0]]), np.array([[0.0, 2.0], [3.0, 0.0]])).toarray()
    array([[1., 2.],
           [3., 1.]])
    """
    family = _family(A, B)
    a, b = family["coo"](_sparse(A)), family["coo"](_sparse(B))
    if a.shape[0] != a.shape[1] or b.shape[0] != b.shape[1]:
        raise ValueError(f"kronsum: A and B must be square, got {a.shape} and {b.shape}")
    left = kron(family["coo"](eye_array(b.shape[0])), a, "coo")
    right = kron(b, family["coo"](eye_array(a.shape[0])), "coo")
    return (left + right).asformat(format or "csr")


def block_array(blocks: Any, *, format: Optional[str] = None, dtype: Any = None) -> Any:  # noqa: A002
    """A sparse array from a 2-d grid of blocks, ``None`` for a zero block
    (``scipy.sparse.block_array``; COO by default); differentiable in the blocks' values.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.block_array([[np.eye(1), None], [None, 2 * np.eye(1)]]).toarray()
    array([[1., 0.],
           [0., 2.]])
    """
    return _blocks("block_array", blocks, format, dtype, ARRAYS)


def bmat(blocks: Any, format: Optional[str] = None, dtype: Any = None) -> Any:  # noqa: A002
    """As :func:`block_array`; a sparse matrix unless a block is a sparse array
    (``scipy.sparse.bmat``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.bmat([[np.eye(1), np.ones((1, 1))]]).toarray()
    array([[1., 1.]])
    """
    flat = [b for row in blocks for b in row]
    return _blocks("bmat", blocks, format, dtype, _family(*flat))


def _blocks(name, blocks, format, dtype, family):  # noqa: A002
    grid = [list(row) for row in blocks]
    if not grid or any(len(row) != len(grid[0]) for row in grid):
        raise ValueError(f"{name}: blocks must be a non-empty 2-d grid (a list of equal-"
                         f"length lists)")
    parts = [[None if b is None else _sparse(b) for b in row] for row in grid]
    heights, widths = [None] * len(parts), [None] * len(parts[0])
    for i, row in enumerate(parts):
        for j, b in enumerate(row):
            if b is None:
                continue
            for sizes, index, size, what in ((heights, i, b.shape[0], "row"),
                                              (widths, j, b.shape[1], "column")):
                if sizes[index] is not None and sizes[index] != size:
                    raise ValueError(f"{name}: blocks[{i}][{j}] has {size} {what}s, its "
                                     f"block {what} {sizes[index]}")
                sizes[index] = size
    for sizes, what in ((heights, "row"), (widths, "column")):
        if None in sizes:
            raise ValueError(f"{name}: block {what} {sizes.index(None)} is all None, so its "
                             f"size is unknown")
    row_at, col_at = np.cumsum([0] + heights), np.cumsum([0] + widths)
    values, rows, cols, formats = [], [], [], set()
    for i, row in enumerate(parts):
        for j, b in enumerate(row):
            if b is not None:
                formats.add(b.format)
                coo = b.tocoo()
                values.append(coo.data)
                rows.append(coo._row + row_at[i])
                cols.append(coo._col + col_at[j])
    if format is None:
        format = "coo"  # noqa: A001
        if len(formats) == 1 and formats <= {"csr", "csc"} and min(len(grid), len(grid[0])) == 1:
            format = formats.pop()  # noqa: A001
    data = fnp.concatenate(values) if values else fnp.zeros(0)
    empty = np.zeros(0, np.intp)
    return _coo(family, data, np.concatenate(rows) if rows else empty,
                np.concatenate(cols) if cols else empty, (row_at[-1], col_at[-1]), format,
                dtype)


def hstack(blocks: Sequence[Any], format: Optional[str] = None, dtype: Any = None) -> Any:  # noqa: A002
    """The blocks side by side (``scipy.sparse.hstack``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.hstack([fsparse.csr_array(np.eye(2)), np.ones((2, 1))]).shape
    (2, 3)
    """
    blocks = list(blocks)
    return _blocks("hstack", [blocks], format, dtype, _family(*blocks))


def vstack(blocks: Sequence[Any], format: Optional[str] = None, dtype: Any = None) -> Any:  # noqa: A002
    """The blocks one above another (``scipy.sparse.vstack``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.vstack([fsparse.csr_array(np.eye(2)), np.ones((1, 2))]).toarray()
    array([[1., 0.],
           [0., 1.],
           [1., 1.]])
    """
    blocks = list(blocks)
    return _blocks("vstack", [[b] for b in blocks], format, dtype, _family(*blocks))


def block_diag(mats: Sequence[Any], format: Optional[str] = None, dtype: Any = None) -> Any:  # noqa: A002
    """The matrices along the diagonal, zeros elsewhere (``scipy.sparse.block_diag``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.block_diag([np.array([[1.0]]), np.array([[2.0, 3.0]])]).toarray()
    array([[1., 0., 0.],
           [0., 2., 3.]])
    """
    mats = list(mats)
    grid = [[m if i == j else None for j in range(len(mats))] for i, m in enumerate(mats)]
    out = _blocks("block_diag", grid, "coo", dtype, _family(*mats))
    return out.asformat(format)


def _triangle(A, k, format, keep):  # noqa: A002
    a = _sparse(A).tocoo()
    chosen = np.nonzero(keep(a._col - a._row, int(k)))[0]
    family = _family(A)
    return _coo(family, fnp.take(a.data, chosen), a._row[chosen], a._col[chosen], a.shape,
                format or "coo")


def tril(A: Any, k: int = 0, format: Optional[str] = None) -> Any:  # noqa: A002
    """The entries on and below the ``k``-th diagonal (``scipy.sparse.tril``; COO).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.tril(fsparse.csr_array(np.ones((2, 2)))).toarray()
    array([[1., 0.],
           [1., 1.]])
    """
    return _triangle(A, k, format, lambda d, k: d <= k)


def triu(A: Any, k: int = 0, format: Optional[str] = None) -> Any:  # noqa: A002
    """The entries on and above the ``k``-th diagonal (``scipy.sparse.triu``; COO).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.triu(fsparse.csr_array(np.ones((2, 2))), k=1).toarray()
    array([[0., 1.],
           [0., 0.]])
    """
    return _triangle(A, k, format, lambda d, k: d >= k)


def find(A: Any) -> Tuple[np.ndarray, np.ndarray, Array]:
    """``(row, col, values)`` of the nonzero entries, duplicates summed, row-major
    (``scipy.sparse.find``); the values differentiable.

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.find(fsparse.csr_array(np.array([[0.0, 2.0], [3.0, 0.0]])))
    (array([0, 1], dtype=int32), array([1, 0], dtype=int32), array([2., 3.]))
    """
    from ._arrays_base import values_of
    a = _sparse(A)._summed()
    keep = np.nonzero(values_of(a, "find") != 0)[0]
    coo = a.tocoo()
    return coo.row[keep], coo.col[keep], fnp.take(coo.data, keep)


def permute_dims(A: Any, axes: Optional[Sequence[int]] = None, copy: bool = False) -> Any:
    """``A`` with its axes permuted: for a 2-d sparse array, the transpose (as COO) or
    itself (``scipy.sparse.permute_dims``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.permute_dims(fsparse.csr_array(np.ones((1, 2)))).shape
    (2, 1)
    """
    a = _sparse(A)
    if axes is None or [int(x) % 2 for x in axes] == [1, 0]:
        return a.tocoo().transpose(copy=copy)  # (COO, as SciPy's)
    if [int(x) % 2 for x in axes] == [0, 1]:
        return a.copy() if copy else a
    raise ValueError(f"permute_dims: axes must be a permutation of (0, 1), got {axes!r}")


def swapaxes(A: Any, axis1: int, axis2: int) -> Any:
    """``A`` with axes ``axis1`` and ``axis2`` exchanged (``scipy.sparse.swapaxes``).

    >>> import numpy as np, funcgrad.scipy.sparse as fsparse
    >>> fsparse.swapaxes(fsparse.csr_array(np.ones((1, 2))), 0, 1).shape
    (2, 1)
    """
    for axis in (axis1, axis2):
        if axis not in (0, 1, -1, -2):
            raise ValueError(f"swapaxes: axis {axis} is out of bounds for a 2-d sparse array")
    a = _sparse(A)
    return a.copy() if axis1 % 2 == axis2 % 2 else a.tocoo().transpose()


def matrix_power_sparse(A, power):
    """``A`` (any sparse or dense operand) to the integer ``power``, sparse."""
    return matrix_power_of(_sparse(A), power)
