"""Gather (``x[index]``) and scatter (``out[index] = u``, ``+= u``, ``*= u``, min, max).

The host turns a NumPy index into a *plan* (see ``funcgrad.gpu``): for each axis of
the indexed region, the element stride it moves in the source (``coef``) and the
stride it moves in the broadcast index arrays (``istr``); a base offset from the
slices' starts and integer indices; and, per index array ``k``, the stride of the
axis it indexes (``isrc``) and that axis' length (``idim``: negative indices wrap,
out-of-range ones set ``err[0]`` instead of reading out of bounds).  The index
arrays are stacked, broadcast, as the rows of one int64 array ``idx``.

Scatter-add uses atomics, so repeated indices accumulate; dtypes without atomic
add run the same kernel on a single thread (in order, so still exact).
"""
import numpy as np
from numba import cuda

from ._config import SIM, THREADS, blocks_for

CACHE = not SIM


@cuda.jit(device=True, inline=True)
def _offset(i, base, rshape, coef, istr, idx, isrc, idim, err):
    rem = i
    off = base
    p = 0
    for d in range(len(rshape) - 1, -1, -1):
        q = rem % rshape[d]
        rem //= rshape[d]
        off += q * coef[d]
        p += q * istr[d]
    for k in range(len(isrc)):
        v = idx[k, p]
        if v < 0:
            v += idim[k]
        if v < 0 or v >= idim[k]:
            err[0] = 1
            v = 0
        off += v * isrc[k]
    return off


@cuda.jit(device=True, inline=True)
def _strided(i, off, shape, strides):
    rem = i
    for d in range(len(shape) - 1, -1, -1):
        q = rem % shape[d]
        rem //= shape[d]
        off += q * strides[d]
    return off


@cuda.jit(cache=CACHE)
def gather_kernel(x, base, out, n, rshape, coef, istr, idx, isrc, idim, err):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        out[i] = x[_offset(i, base, rshape, coef, istr, idx, isrc, idim, err)]
        i += step


@cuda.jit(cache=CACHE)
def scatter_set_kernel(out, base, n, rshape, coef, istr, idx, isrc, idim, err, u, uoff, ustr):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        out[_offset(i, base, rshape, coef, istr, idx, isrc, idim, err)] = \
            u[_strided(i, uoff, rshape, ustr)]
        i += step


@cuda.jit(cache=CACHE)
def scatter_add_kernel(out, base, n, rshape, coef, istr, idx, isrc, idim, err, u, uoff, ustr):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        off = _offset(i, base, rshape, coef, istr, idx, isrc, idim, err)
        out[off] = out[off] + u[_strided(i, uoff, rshape, ustr)]
        i += step


@cuda.jit(cache=CACHE)
def scatter_atomic_add_kernel(out, base, n, rshape, coef, istr, idx, isrc, idim, err, u, uoff,
                              ustr):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        off = _offset(i, base, rshape, coef, istr, idx, isrc, idim, err)
        cuda.atomic.add(out, off, u[_strided(i, uoff, rshape, ustr)])
        i += step


@cuda.jit(device=True, inline=True)
def _combine(a, b, op):
    """``op`` 0: a * b; 1: np.minimum(a, b); 2: np.maximum(a, b) (NaN wins in both)."""
    if op == 0:
        return a * b
    if op == 1:
        return a if (a < b or a != a) else b
    return a if (a > b or a != a) else b


@cuda.jit(cache=CACHE)
def scatter_combine_kernel(out, base, n, rshape, coef, istr, idx, isrc, idim, err, u, uoff,
                           ustr, op):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        off = _offset(i, base, rshape, coef, istr, idx, isrc, idim, err)
        out[off] = _combine(out[off], u[_strided(i, uoff, rshape, ustr)], op)
        i += step


@cuda.jit(cache=CACHE)
def claim_kernel(winner, base, n, rshape, coef, istr, idx, isrc, idim, err):
    """Each region element claims its target; the largest (the last in NumPy's order)
    keeps it."""
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        cuda.atomic.max(winner, _offset(i, base, rshape, coef, istr, idx, isrc, idim, err), i)
        i += step


@cuda.jit(cache=CACHE)
def scatter_claimed_kernel(out, winner, base, n, rshape, coef, istr, idx, isrc, idim, err, u,
                           uoff, ustr):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        off = _offset(i, base, rshape, coef, istr, idx, isrc, idim, err)
        if winner[off] == i:
            out[off] = u[_strided(i, uoff, rshape, ustr)]
        i += step


ATOMIC_ADD_DTYPES = ("int32", "int64", "uint32", "uint64", "float32", "float64")
_COMBINE_OPS = {"multiply": 0, "min": 1, "max": 2}


def gather(x, xoff_base, rshape, coef, istr, idx, isrc, idim, err, out_dtype):
    n = 1
    for d in rshape:
        n *= d
    out = cuda.device_array(n, out_dtype)
    if n:
        gather_kernel[blocks_for(n), THREADS](x, xoff_base, out, n, rshape, coef, istr, idx,
                                              isrc, idim, err)
    return out


def scatter(out, base, rshape, coef, istr, idx, isrc, idim, err, u, uoff, ustr, mode, repeats):
    """Write (``mode="set"``), add (``"add"``) or combine (``"multiply"``, ``"min"``,
    ``"max"``) ``u`` (strided over the region) into ``out``.

    ``repeats``: whether two region elements may hit one output element (index arrays
    present).  Then ``set`` keeps the last write in NumPy's order (each element claims
    its target with an atomic max of its position, and the winners write), so that
    values and derivatives agree with the CPU; adding uses atomics; ``multiply``/``min``/
    ``max`` (and adds of dtypes without atomics) run on one thread, in order, exactly.
    """
    n = 1
    for d in rshape:
        n *= d
    if n == 0:
        return out
    args = (out, base, n, rshape, coef, istr, idx, isrc, idim, err, u, uoff, ustr)
    grid = (blocks_for(n), THREADS) if not repeats else (1, 1)
    if mode == "set" and repeats:
        winner = cuda.to_device(np.full(out.shape[0], -1, np.int64))
        plan = (base, n, rshape, coef, istr, idx, isrc, idim, err)
        claim_kernel[blocks_for(n), THREADS](winner, *plan)
        scatter_claimed_kernel[blocks_for(n), THREADS](out, winner, *plan, u, uoff, ustr)
    elif mode == "set":
        scatter_set_kernel[blocks_for(n), THREADS](*args)
    elif mode in _COMBINE_OPS:
        scatter_combine_kernel[grid](*args, _COMBINE_OPS[mode])
    elif repeats and np.dtype(out.dtype).name in ATOMIC_ADD_DTYPES:
        scatter_atomic_add_kernel[blocks_for(n), THREADS](*args)
    else:
        scatter_add_kernel[grid](*args)  # one thread where repeats lack atomics: in order
    return out
