"""Scatter-add for integer-array indexing (the VJP of gather): ``out[idx] += updates``
with repeated indices accumulating, like ``np.add.at``.

``np.add.at`` is fast for a 1-d operand with one index array (NumPy >= 1.25 has a fast
path) but slow otherwise: ~60 ms to add 1e5 rows of 64 into a (1e4, 64) table, where a
Numba loop takes a few ms.  ``index_add`` takes the Numba loop when the index is one or
more integer arrays on the leading axes followed only by full slices (``x[i]``,
``x[i, j]``, ``x[i, :]``: embedding lookups, point gathers) and the operand is a
C-contiguous float array; every other index goes to ``np.add.at``.

Bounds are checked here, in Python, before the loop runs (with NumPy's message), and
negative indices are wrapped, so the loop can never touch memory outside ``out``.
Gather itself (``x[idx]``) stays NumPy's fancy indexing: it is a copy at memory speed.
"""
import numpy as np

from .._broadcast import broadcast_shapes
from . import _lazy
from ._lazy import F32, F64, config


def _full_slice(k, n):
    return type(k) is slice and k.indices(n) == (0, n, 1)


def _plan(out, idx):
    """(flat row per update, update shape, row length), or None for np.add.at."""
    if type(idx) is not tuple:
        idx = (idx,)
    arrays = []
    for k in idx:
        if isinstance(k, np.integer):
            k = np.asarray(k)
        if type(k) is np.ndarray and k.dtype.kind in "iu":
            arrays.append(k)
        else:
            break
    count = len(arrays)
    if count == 0 or count > out.ndim:
        return None
    for pos, k in enumerate(idx[count:], start=count):
        if pos >= out.ndim or not _full_slice(k, out.shape[pos]):
            return None
    try:
        shape = broadcast_shapes(*[a.shape for a in arrays])
        arrays = [np.broadcast_to(a, shape) for a in arrays]
    except ValueError:
        return None  # np.add.at raises NumPy's own shape error
    flat = None
    for axis, a in enumerate(arrays):
        n = out.shape[axis]
        if a.size:
            lo, hi = int(a.min()), int(a.max())
            if lo < -n or hi >= n:
                bad = lo if lo < -n else hi
                raise IndexError(f"index {bad} is out of bounds for axis {axis} with size {n}")
        a = a.astype(np.int64).reshape(-1)  # a copy: wrapped below without touching the index
        np.add(a, n, out=a, where=a < 0)
        flat = a if flat is None else flat * n + a
    tail = out.shape[count:]
    width = 1
    for d in tail:
        width *= d
    return flat, arrays[0].shape + tail, width


# NumPy's ufunc.at crashes the interpreter (a segmentation fault, NumPy 2.4) where its
# indexing result has more than 32 dimensions; NumPy arrays may have 64.
_AT_MAX_DIMS = 32


def ufunc_at(ufunc, out, idx, updates=None):
    """``ufunc.at(out, idx, updates)`` (in place), also where ``out[idx]`` has more than 32
    dimensions: there on the flat positions that ``idx`` picks."""
    index = idx if type(idx) is tuple else (idx,)
    deepest = max([np.ndim(k) for k in index if isinstance(k, np.ndarray)], default=0)
    if out.ndim + deepest <= _AT_MAX_DIMS:
        return ufunc.at(out, idx) if updates is None else ufunc.at(out, idx, updates)
    positions = np.arange(out.size).reshape(out.shape)[idx]  # NumPy's index checks
    flat = out.reshape(-1)  # (a view where out is contiguous, else a copy written back)
    if updates is None:
        ufunc.at(flat, positions.reshape(-1))
    else:
        try:
            updates = np.broadcast_to(updates, positions.shape)
        except ValueError:
            raise ValueError(f"shape mismatch: value array of shape {np.shape(updates)} "
                             f"could not be broadcast to indexing result of shape "
                             f"{positions.shape}") from None
        ufunc.at(flat, positions.reshape(-1), updates.reshape(-1))
    if not np.shares_memory(flat, out):
        out[...] = flat.reshape(out.shape)
    return None


def index_add(out, idx, updates):
    """``np.add.at(out, idx, updates)``, in place; returns ``out``."""
    if (type(out) is np.ndarray and (out.dtype is F64 or out.dtype is F32)
            and out.flags.c_contiguous and out.flags.writeable and out.size):
        u = np.asarray(updates)
        if u.dtype.kind in "fiub" and np.can_cast(u.dtype, out.dtype, "same_kind"):
            plan = _plan(out, idx)
            if plan is not None:
                rows, shape, width = plan
                if rows.size * width >= config.numba_min:
                    try:
                        u = np.broadcast_to(u, shape)
                    except ValueError:
                        u = None  # np.add.at raises NumPy's own shape error
                    # None while Numba loads: np.add.at adds in the same order
                    loops = None if u is None else _lazy.loops("scatter_add_rows", wait=False)
                    if loops is not None:
                        u = np.ascontiguousarray(u, dtype=out.dtype).reshape(rows.size, width)
                        loops.scatter_add_rows(out.reshape(-1, width), rows, u)
                        return out
                    if u is not None:  # the loop's order and its cast of the updates
                        ufunc_at(np.add, out, idx, u.astype(out.dtype, copy=False))
                        return out
    ufunc_at(np.add, out, idx, updates)
    return out
