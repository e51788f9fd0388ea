"""Gather (``x[index]``) and scatter (``out[index] = u`` / ``+= u``) with integer arrays.

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


ATOMIC_ADD_DTYPES = ("int32", "int64", "uint32", "uint64", "float32", "float64")


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
    """Write (``mode="set"``) or add (``"add"``) ``u`` (strided over the region) into ``out``.

    ``repeats``: whether two region elements may hit one output element (index arrays
    present); then adding needs atomics.  With repeats, ``set`` keeps one of the
    written values, unspecified which (as in JAX on GPU).
    """
    n = 1
    for d in rshape:
        n *= d
    if n == 0:
        return out
    args = (out, base, n, rshape, coef, istr, idx, isrc, idim, err, u, uoff, ustr)
    if mode == "set":
        scatter_set_kernel[blocks_for(n), THREADS](*args)
    elif not repeats:
        scatter_add_kernel[blocks_for(n), THREADS](*args)
    elif np.dtype(out.dtype).name in ATOMIC_ADD_DTYPES:
        scatter_atomic_add_kernel[blocks_for(n), THREADS](*args)
    else:
        scatter_add_kernel[1, 1](*args)  # one thread: in order, no atomics needed
    return out
