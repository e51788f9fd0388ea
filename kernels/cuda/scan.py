"""Cumulative sums along rows: ``M`` rows of ``N`` elements (row ``m``, element ``k``
at ``xoff + m*sm + k*sk``) into a new contiguous (M, N) array.

Short rows: one thread per row, a running sum.  Long rows: one block per row, in
chunks of the block's width; each chunk is scanned in shared memory (Hillis-Steele:
log2(width) steps of ``v[t] += v[t - step]``) and offset by the running total of
the chunks before it.
"""
import functools

import numpy as np
from numba import cuda

from . import _codegen
from ._config import SCAN_THREADS, THREADS, blocks_for, max_blocks
from .elementwise import compute_dtype


def _serial_source(acc):
    return f"""
@cuda.jit(cache=CACHE)
def kernel(x, xoff, sm, sk, M, N, out):
    m = cuda.grid(1)
    step = cuda.gridsize(1)
    while m < M:
        acc = np.{acc.name}(0)
        for k in range(N):
            acc += np.{acc.name}(x[xoff + m * sm + k * sk])
            out[m * N + k] = acc
        m += step
"""


def _block_source(acc, threads):
    return f"""
@cuda.jit(cache=CACHE)
def kernel(x, xoff, sm, sk, M, N, out):
    buf = cuda.shared.array({threads}, np.{acc.name})
    tid = cuda.threadIdx.x
    m = cuda.blockIdx.x
    while m < M:
        carry = np.{acc.name}(0)
        start = 0
        while start < N:
            k = start + tid
            v = np.{acc.name}(0)
            if k < N:
                v = np.{acc.name}(x[xoff + m * sm + k * sk])
            buf[tid] = v
            cuda.syncthreads()
            step = 1
            while step < {threads}:
                add = np.{acc.name}(0)
                if tid >= step:
                    add = buf[tid - step]
                cuda.syncthreads()
                buf[tid] += add
                cuda.syncthreads()
                step *= 2
            if k < N:
                out[m * N + k] = buf[tid] + carry
            carry += buf[{threads - 1}]
            cuda.syncthreads()
            start += {threads}
        m += cuda.gridDim.x
"""


@functools.lru_cache(maxsize=None)
def _kernel(kind, acc):
    if kind == "serial":
        return _codegen.build(_serial_source(acc))
    return _codegen.build(_block_source(acc, SCAN_THREADS))


def cumsum_rows(x, xoff, M, N, sm, sk, out_dtype):
    out = cuda.device_array(M * N, np.dtype(out_dtype))
    if M * N == 0:
        return out
    acc = compute_dtype(out_dtype)
    if N <= 64:
        kernel = _kernel("serial", acc)
        kernel[blocks_for(M), THREADS](x, xoff, sm, sk, M, N, out)
    else:
        kernel = _kernel("block", acc)
        kernel[min(M, max_blocks()), SCAN_THREADS](x, xoff, sm, sk, M, N, out)
    return out
