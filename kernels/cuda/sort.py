"""Stable argsort of rows (NumPy's order: NaN last): one thread per row, a bottom-up
merge sort of indices, ping-ponging between the output and a workspace."""
import numpy as np
from numba import cuda

from ._config import SIM, THREADS, blocks_for

CACHE = not SIM


@cuda.jit(device=True, inline=True)
def _less(a, b):
    return a < b or (b != b and a == a)


@cuda.jit(device=True, inline=True)
def _merge(src, dst, base, lo, mid, hi, x, row, sk):
    i = lo
    j = mid
    t = lo
    while t < hi:
        if i < mid and (j >= hi or not _less(x[row + src[base + j] * sk],
                                             x[row + src[base + i] * sk])):
            dst[base + t] = src[base + i]
            i += 1
        else:
            dst[base + t] = src[base + j]
            j += 1
        t += 1


@cuda.jit(cache=CACHE)
def argsort_kernel(x, xoff, sm, sk, M, N, out, tmp):
    m = cuda.grid(1)
    step = cuda.gridsize(1)
    while m < M:
        base = m * N
        row = xoff + m * sm
        for k in range(N):
            out[base + k] = k
        width = 1
        in_out = True
        while width < N:
            lo = 0
            while lo < N:
                mid = min(lo + width, N)
                hi = min(lo + 2 * width, N)
                if in_out:
                    _merge(out, tmp, base, lo, mid, hi, x, row, sk)
                else:
                    _merge(tmp, out, base, lo, mid, hi, x, row, sk)
                lo += 2 * width
            in_out = not in_out
            width *= 2
        if not in_out:
            for k in range(N):
                out[base + k] = tmp[base + k]
        m += step


def argsort_rows(x, xoff, M, N, sm, sk):
    out = cuda.device_array(M * N, np.int64)
    if M * N:
        tmp = cuda.device_array(M * N, np.int64)
        argsort_kernel[blocks_for(M), THREADS](x, xoff, sm, sk, M, N, out, tmp)
    return out
