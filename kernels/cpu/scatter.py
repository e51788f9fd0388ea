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
        arrays = np.broadcast_arrays(*arrays)
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
                        np.add.at(out, idx, u.astype(out.dtype, copy=False))
                        return out
    np.add.at(out, idx, updates)
    return out
