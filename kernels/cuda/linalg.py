"""Dense factorizations of stacks of small matrices, one block per matrix.

``lu_factor``  LU with partial pivoting in place (LAPACK getrf's convention: ``piv[k]``
               is the row swapped with row ``k`` at step ``k``); ``info[b] = k + 1`` at the
               first zero pivot, whose elimination step is skipped (as getrf does).
``lu_solve``   forward and back substitution, one thread per right-hand-side column.
``lu_det``     product of U's diagonal times the permutation's sign, and the
               (sign, log|det|) pair, one thread per matrix.
``cholesky``   lower factor in place, column by column; ``info[b] = j + 1`` at the first
               non-positive pivot.

All inputs are contiguous (B, n, n) / (B, n, r) float buffers the host made for them.
"""
import numpy as np
from numba import cuda

from . import _scalar as F
from ._config import LINALG_THREADS, SIM, THREADS, blocks_for, max_blocks

CACHE = not SIM


@cuda.jit(cache=CACHE)
def lu_factor_kernel(a, n, B, piv, info, sign):
    shared = cuda.shared.array(1, np.int64)
    tid = cuda.threadIdx.x
    nt = cuda.blockDim.x
    b = cuda.blockIdx.x
    while b < B:
        base = b * n * n
        if tid == 0:
            info[b] = 0
            sign[b] = 1
        cuda.syncthreads()
        for k in range(n):
            if tid == 0:
                p = k
                best = abs(a[base + k * n + k])
                for i in range(k + 1, n):
                    v = abs(a[base + i * n + k])
                    if v > best:
                        best = v
                        p = i
                piv[b * n + k] = p
                shared[0] = p
                if best == 0 and info[b] == 0:
                    info[b] = k + 1
                if p != k:
                    sign[b] = -sign[b]
            cuda.syncthreads()
            p = shared[0]
            if p != k:
                j = tid
                while j < n:
                    t = a[base + k * n + j]
                    a[base + k * n + j] = a[base + p * n + j]
                    a[base + p * n + j] = t
                    j += nt
            cuda.syncthreads()
            pivot = a[base + k * n + k]
            if pivot != 0:
                i = k + 1 + tid
                while i < n:
                    a[base + i * n + k] = a[base + i * n + k] / pivot
                    i += nt
            cuda.syncthreads()
            if pivot != 0:
                w = n - k - 1
                t = tid
                while t < w * w:
                    i = k + 1 + t // w
                    j = k + 1 + t % w
                    a[base + i * n + j] = a[base + i * n + j] - a[base + i * n + k] * \
                        a[base + k * n + j]
                    t += nt
            cuda.syncthreads()
        b += cuda.gridDim.x


@cuda.jit(cache=CACHE)
def lu_solve_kernel(lu, piv, x, n, r, B):
    tid = cuda.threadIdx.x
    nt = cuda.blockDim.x
    b = cuda.blockIdx.x
    while b < B:
        xb = b * n * r
        ab = b * n * n
        c = tid
        while c < r:
            for k in range(n):
                p = piv[b * n + k]
                if p != k:
                    t = x[xb + k * r + c]
                    x[xb + k * r + c] = x[xb + p * r + c]
                    x[xb + p * r + c] = t
            for i in range(n):
                s = x[xb + i * r + c]
                for j in range(i):
                    s -= lu[ab + i * n + j] * x[xb + j * r + c]
                x[xb + i * r + c] = s
            for i in range(n - 1, -1, -1):
                s = x[xb + i * r + c]
                for j in range(i + 1, n):
                    s -= lu[ab + i * n + j] * x[xb + j * r + c]
                x[xb + i * r + c] = s / lu[ab + i * n + i]
            c += nt
        b += cuda.gridDim.x


@cuda.jit(cache=CACHE)
def lu_det_kernel(lu, sign, n, B, det, sgn, logdet):
    b = cuda.grid(1)
    step = cuda.gridsize(1)
    while b < B:
        d = lu[b * n * n] * 0 + sign[b]
        s = lu[b * n * n] * 0 + sign[b]
        acc = lu[b * n * n] * 0
        for i in range(n):
            u = lu[b * n * n + i * n + i]
            d = d * u
            if u < 0:
                s = -s
                acc += F.log(-u)
            elif u > 0:
                acc += F.log(u)
            else:
                s = s * 0
                acc += F.log(u)  # log(0) = -inf; NaN stays NaN
        det[b] = d
        sgn[b] = s
        logdet[b] = acc
        b += step


@cuda.jit(cache=CACHE)
def cholesky_kernel(a, n, B, info):
    tid = cuda.threadIdx.x
    nt = cuda.blockDim.x
    b = cuda.blockIdx.x
    while b < B:
        base = b * n * n
        if tid == 0:
            info[b] = 0
        cuda.syncthreads()
        for j in range(n):
            if tid == 0:
                s = a[base + j * n + j]
                for k in range(j):
                    s -= a[base + j * n + k] * a[base + j * n + k]
                if not s > 0 and info[b] == 0:
                    info[b] = j + 1
                a[base + j * n + j] = F.sqrt(s)
            cuda.syncthreads()
            i = j + 1 + tid
            while i < n:
                s = a[base + i * n + j]
                for k in range(j):
                    s -= a[base + i * n + k] * a[base + j * n + k]
                a[base + i * n + j] = s / a[base + j * n + j]
                i += nt
            cuda.syncthreads()
        t = tid
        while t < n * n:
            if t % n > t // n:
                a[base + t] = 0
            t += nt
        cuda.syncthreads()
        b += cuda.gridDim.x


def lu_factor(a, n, B):
    """Factor the contiguous (B, n, n) device array ``a`` in place; returns (piv, info, sign)."""
    piv = cuda.device_array(max(B * n, 1), np.int64)
    info = cuda.device_array(max(B, 1), np.int32)
    sign = cuda.device_array(max(B, 1), np.int32)
    if B and n:
        lu_factor_kernel[min(B, max_blocks()), LINALG_THREADS](a, n, B, piv, info, sign)
    elif B:
        _fill_ok(info, sign, B)
    return piv, info, sign


def _fill_ok(info, sign, B):
    info.copy_to_device(np.zeros(info.shape[0], np.int32))
    sign.copy_to_device(np.ones(sign.shape[0], np.int32))


def lu_solve(lu, piv, x, n, r, B):
    """Solve in place: ``x`` (B, n, r) becomes ``A^-1 x`` from ``lu_factor``'s output."""
    if B and n and r:
        lu_solve_kernel[min(B, max_blocks()), LINALG_THREADS](lu, piv, x, n, r, B)
    return x


def lu_det(lu, sign, n, B, dtype):
    det = cuda.device_array(B, dtype)
    sgn = cuda.device_array(B, dtype)
    logdet = cuda.device_array(B, dtype)
    if B:
        lu_det_kernel[blocks_for(B), THREADS](lu, sign, n, B, det, sgn, logdet)
    return det, sgn, logdet


def cholesky(a, n, B):
    """Lower Cholesky factors in place over the contiguous (B, n, n) array; returns info."""
    info = cuda.device_array(max(B, 1), np.int32)
    if B and n:
        cholesky_kernel[min(B, max_blocks()), LINALG_THREADS](a, n, B, info)
    elif B:
        info.copy_to_device(np.zeros(info.shape[0], np.int32))
    return info
