"""Batched matrix product, tiled in shared memory.

Each block computes a ``TILE x TILE`` tile of one output matrix: it walks the
shared dimension a tile at a time, staging a tile of ``a`` and one of ``b`` in
shared memory, so each input element is read from global memory once per tile
instead of once per product.  Operands are strided (a transposed view needs no
copy); batch axes broadcast through per-operand batch strides (0 where an operand
is broadcast).  The grid's third axis walks the batch (grid-stride).
"""
import functools

import numpy as np
from numba import cuda

from . import _codegen
from ._config import TILE, max_blocks
from .elementwise import compute_dtype


def _acc(out_dtype):
    """Booleans are summed as int64 (the product is "any pair true"); float16 in float32."""
    out_dtype = np.dtype(out_dtype)
    return np.dtype(np.int64) if out_dtype.kind == "b" else compute_dtype(out_dtype)


def _source(acc, tile, bool_out):
    store = "acc != 0" if bool_out else "acc"
    return f"""
@cuda.jit(cache=CACHE)
def kernel(a, aoff, sam, sak, b, boff, sbk, sbn, out, M, N, K, nbatch, bshape, sab, sbb):
    ta = cuda.shared.array(({tile}, {tile}), np.{acc.name})
    tb = cuda.shared.array(({tile}, {tile}), np.{acc.name})
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    row = cuda.blockIdx.y * {tile} + ty
    col = cuda.blockIdx.x * {tile} + tx
    z = cuda.blockIdx.z
    while z < nbatch:
        rem = z
        ao = aoff
        bo = boff
        for d in range(len(bshape) - 1, -1, -1):
            q = rem % bshape[d]
            rem //= bshape[d]
            ao += q * sab[d]
            bo += q * sbb[d]
        acc = np.{acc.name}(0)
        for t in range((K + {tile - 1}) // {tile}):
            ka = t * {tile} + tx
            if row < M and ka < K:
                ta[ty, tx] = np.{acc.name}(a[ao + row * sam + ka * sak])
            else:
                ta[ty, tx] = np.{acc.name}(0)
            kb = t * {tile} + ty
            if kb < K and col < N:
                tb[ty, tx] = np.{acc.name}(b[bo + kb * sbk + col * sbn])
            else:
                tb[ty, tx] = np.{acc.name}(0)
            cuda.syncthreads()
            for j in range({tile}):
                acc += ta[ty, j] * tb[j, tx]
            cuda.syncthreads()
        if row < M and col < N:
            out[z * M * N + row * N + col] = {store}
        z += cuda.gridDim.z
"""


@functools.lru_cache(maxsize=None)
def _kernel(acc, tile, bool_out):
    return _codegen.build(_source(acc, tile, bool_out))


def matmul(a, aoff, a_strides, b, boff, b_strides, batch_shape, a_batch, b_batch, M, N, K,
           out_dtype):
    """``out[z, i, j] = sum_k a[z, i, k] b[z, k, j]`` for every batch index ``z``.

    ``a_strides = (row, col)`` and ``b_strides = (row, col)`` are element strides of one
    matrix; ``a_batch``/``b_batch`` are strides over ``batch_shape`` (0 to broadcast).
    Returns a new contiguous device array of ``prod(batch_shape) * M * N`` elements.
    """
    out_dtype = np.dtype(out_dtype)
    nbatch = 1
    for d in batch_shape:
        nbatch *= d
    out = cuda.device_array(nbatch * M * N, out_dtype)
    if nbatch * M * N == 0:
        return out
    if not batch_shape:
        batch_shape, a_batch, b_batch = (1,), (0,), (0,)
    kernel = _kernel(_acc(out_dtype), TILE, out_dtype.kind == "b")
    grid = (-(-N // TILE), -(-M // TILE), min(nbatch, 65535, max_blocks()))
    kernel[grid, (TILE, TILE)](a, aoff, a_strides[0], a_strides[1], b, boff, b_strides[0],
                               b_strides[1], out, M, N, K, nbatch, tuple(batch_shape),
                               tuple(a_batch), tuple(b_batch))
    return out
