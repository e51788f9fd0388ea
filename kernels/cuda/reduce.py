"""Reductions along axes: sum, prod, max, min, argmax, argmin, and logsumexp's sum.

The reduced axes are viewed as one axis of length ``K`` with element stride ``sk``
and the kept axes as ``M`` rows with stride ``sm`` (a copy is made first only when
the axes cannot be walked that way).  Two kernels:

``tree``    one block per row (grid-stride over rows): each thread folds a strided
            slice of the row, then the block combines its partials by a tree in
            shared memory.  With ``shuffle=True`` the last 32 partials are combined
            with warp shuffles instead (real GPUs only: the simulator has no warp
            intrinsics, so the shared-memory twin is the one it tests).
``thread``  one thread per row, for short rows or when the reduced axis is the
            outer one (consecutive threads then read consecutive columns).

Long rows are cut into ``parts`` that separate blocks reduce (pass one), and the
partials are reduced again (pass two), so one long row still fills the GPU.
"""
import functools
import math

import numpy as np
from numba import cuda

from . import _codegen
from ._config import REDUCE_THREADS, SIM, THREADS, blocks_for, max_blocks, multiprocessors
from .elementwise import compute_dtype

COMBINE = {   # NaN propagates through max and min, as in NumPy
    "sum": "{a} + {b}",
    "prod": "{a} * {b}",
    "max": "{a} if ({a} != {a} or {a} > {b}) else {b}",
    "min": "{a} if ({a} != {a} or {a} < {b}) else {b}",
}

# argmax/argmin: does (vb, ib) beat (va, ia)?  NaN wins (NumPy returns the first NaN);
# ties go to the smaller index; ib < 0 marks an empty partial.
_BEATS = {
    "argmax": "vb > va",
    "argmin": "vb < va",
}


def acc_dtype(out_dtype):
    """What a reduction accumulates in: booleans as uint8 (any/all by max/min), float16
    in float32."""
    out_dtype = np.dtype(out_dtype)
    if out_dtype.kind == "b":
        return np.dtype(np.uint8)
    return compute_dtype(out_dtype)


def identity(op, dtype):
    dtype = np.dtype(dtype)
    if op in ("sum", "lse"):
        return 0
    if op == "prod":
        return 1
    if dtype.kind == "f":
        return -math.inf if op in ("max", "argmax") else math.inf
    info = np.iinfo(dtype)
    return info.min if op in ("max", "argmax") else info.max


def _const(dtype, value):
    if isinstance(value, float) and math.isinf(value):
        return f"np.{dtype.name}({'-' if value < 0 else ''}math.inf)"
    return f"np.{dtype.name}({value})"


def _read(acc, pre):
    read = f"np.{acc.name}(x[base + k * sk])"
    if pre == "exp_shift":
        return [f"v = {read}", f"v = F.exp(v - np.{acc.name}(sh[m]))"]
    return [f"v = {read}"]


def _combine_lines(op, indent, target, a, b):
    expr = COMBINE["sum" if op == "lse" else op].format(a=a, b=b)
    return [f"{indent}{target} = {expr}"]


def _tree_source(op, acc, threads, pre, shuffle):
    ident = _const(acc, identity(op, acc))
    lines = [
        "@cuda.jit(cache=CACHE)",
        "def kernel(x, xoff, sm, sk, K, M, parts, out, sh):",
        f"    red = cuda.shared.array({threads}, np.{acc.name})",
        "    tid = cuda.threadIdx.x",
        "    chunk = (K + parts - 1) // parts",
        "    w = cuda.blockIdx.x",
        "    while w < M * parts:",
        "        m = w // parts",
        "        lo = (w % parts) * chunk",
        "        hi = min(K, lo + chunk)",
        "        base = xoff + m * sm",
        f"        acc = {ident}",
        "        k = lo + tid",
        "        while k < hi:",
    ]
    lines += ["            " + line for line in _read(acc, pre)]
    lines += _combine_lines(op, "            ", "acc", "acc", "v")
    lines += [f"            k += {threads}",
              "        red[tid] = acc",
              "        cuda.syncthreads()",
              f"        s = {threads // 2}",
              f"        while s >= {32 if shuffle else 1}:",
              "            if tid < s:"]
    lines += _combine_lines(op, "                ", "red[tid]", "red[tid]", "red[tid + s]")
    lines += ["            cuda.syncthreads()",
              "            s //= 2"]
    if shuffle:
        lines += ["        if tid < 32:",
                  "            v = red[tid]",
                  "            off = 16",
                  "            while off >= 1:",
                  "                b = cuda.shfl_down_sync(0xffffffff, v, off)"]
        lines += _combine_lines(op, "                ", "v", "v", "b")
        lines += ["                off //= 2",
                  "            if tid == 0:",
                  "                out[w] = v"]
    else:
        lines += ["        if tid == 0:",
                  "            out[w] = red[0]"]
    lines += ["        cuda.syncthreads()",
              "        w += cuda.gridDim.x"]
    return "\n".join(lines) + "\n"


def _thread_source(op, acc, pre):
    ident = _const(acc, identity(op, acc))
    lines = [
        "@cuda.jit(cache=CACHE)",
        "def kernel(x, xoff, sm, sk, K, M, parts, out, sh):",
        "    j = cuda.grid(1)",
        "    step = cuda.gridsize(1)",
        "    chunk = (K + parts - 1) // parts",
        "    while j < M * parts:",
        "        p = j // M",
        "        m = j % M",
        "        lo = p * chunk",
        "        hi = min(K, lo + chunk)",
        "        base = xoff + m * sm",
        f"        acc = {ident}",
        "        for k in range(lo, hi):",
    ]
    lines += ["            " + line for line in _read(acc, pre)]
    lines += _combine_lines(op, "            ", "acc", "acc", "v")
    lines += ["        out[p * M + m] = acc",
              "        j += step"]
    return "\n".join(lines) + "\n"


def _arg_source(op, acc, threads):
    ident = _const(acc, identity(op, acc))
    beats = _BEATS[op]
    return f"""
@cuda.jit(device=True, inline=True)
def beats(va, ia, vb, ib):
    if ib < 0:
        return False
    if ia < 0:
        return True
    if va != va or vb != vb:
        if va != va and vb != vb:
            return ib < ia
        return vb != vb
    if {beats}:
        return True
    return vb == va and ib < ia


@cuda.jit(cache=CACHE)
def kernel(x, xoff, sm, sk, K, M, out):
    rv = cuda.shared.array({threads}, np.{acc.name})
    ri = cuda.shared.array({threads}, np.int64)
    tid = cuda.threadIdx.x
    w = cuda.blockIdx.x
    while w < M:
        base = xoff + w * sm
        av = {ident}
        ai = -1
        k = tid
        while k < K:
            v = np.{acc.name}(x[base + k * sk])
            if beats(av, ai, v, k):
                av = v
                ai = k
            k += {threads}
        rv[tid] = av
        ri[tid] = ai
        cuda.syncthreads()
        s = {threads // 2}
        while s >= 1:
            if tid < s:
                if beats(rv[tid], ri[tid], rv[tid + s], ri[tid + s]):
                    rv[tid] = rv[tid + s]
                    ri[tid] = ri[tid + s]
            cuda.syncthreads()
            s //= 2
        if tid == 0:
            out[w] = ri[0]
        cuda.syncthreads()
        w += cuda.gridDim.x
"""


SHUFFLE_DTYPES = ("int32", "int64", "float32", "float64")


def use_shuffle(acc):
    return (not SIM) and REDUCE_THREADS >= 64 and np.dtype(acc).name in SHUFFLE_DTYPES


@functools.lru_cache(maxsize=None)
def tree_kernel(op, acc, pre=None, shuffle=False, threads=REDUCE_THREADS):
    return _codegen.build(_tree_source(op, np.dtype(acc), threads, pre, shuffle))


@functools.lru_cache(maxsize=None)
def thread_kernel(op, acc, pre=None):
    return _codegen.build(_thread_source(op, np.dtype(acc), pre))


@functools.lru_cache(maxsize=None)
def arg_kernel(op, acc, threads=REDUCE_THREADS):
    return _codegen.build(_arg_source(op, np.dtype(acc), threads))


_DUMMY = {}


def _dummy_shift():
    d = _DUMMY.get("sh")
    if d is None:
        d = _DUMMY["sh"] = cuda.device_array(1, np.float64)
    return d


def _target_blocks():
    return 2 if SIM else 4 * multiprocessors()


def rows(op, x, xoff, M, K, sm, sk, out_dtype, shift=None, shuffle=None):
    """Reduce ``M`` rows of ``K`` elements (row ``m``, element ``k`` at
    ``xoff + m*sm + k*sk`` of the 1-d device array ``x``) to a new (M,) device array.

    ``op`` is sum, prod, max, min or ``lse`` (sum of ``exp(x - shift[m])``).
    """
    out_dtype = np.dtype(out_dtype)
    out = cuda.device_array(M, out_dtype)
    if M == 0:
        return out
    acc = acc_dtype(out_dtype)
    pre = "exp_shift" if op == "lse" else None
    sh = shift if shift is not None else _dummy_shift()
    if shuffle is None:
        shuffle = use_shuffle(acc)
    if K == 0:
        fill = thread_kernel(op, acc)
        fill[blocks_for(M), THREADS](x, 0, 0, 0, 0, M, 1, out, sh)
        return out
    if K > 32 and sk == 1:
        # one block per row; long rows are also split over several blocks
        parts = max(1, min(-(-_target_blocks() // M), K // (REDUCE_THREADS * (2 if SIM else 8))))
        kernel = tree_kernel(op, acc, pre, shuffle)
        if parts == 1:
            kernel[min(M, max_blocks()), REDUCE_THREADS](x, xoff, sm, sk, K, M, 1, out, sh)
            return out
        partial = cuda.device_array(M * parts, acc)
        kernel[min(M * parts, max_blocks()), REDUCE_THREADS](
            x, xoff, sm, sk, K, M, parts, partial, sh)
        return rows("sum" if op == "lse" else op, partial, 0, M, parts, parts, 1, out_dtype,
                    shuffle=shuffle)
    # one thread per row (short rows, or rows whose elements are far apart)
    target_threads = 2 * THREADS if SIM else THREADS * 8 * multiprocessors()
    parts = max(1, min(-(-target_threads // M), K // 64))
    kernel = thread_kernel(op, acc, pre)
    if parts == 1:
        kernel[blocks_for(M), THREADS](x, xoff, sm, sk, K, M, 1, out, sh)
        return out
    partial = cuda.device_array(M * parts, acc)     # laid out (parts, M)
    kernel[blocks_for(M * parts), THREADS](x, xoff, sm, sk, K, M, parts, partial, sh)
    return rows("sum" if op == "lse" else op, partial, 0, M, parts, 1, M, out_dtype,
                shuffle=shuffle)


def argrows(op, x, xoff, M, K, sm, sk):
    """Index of the max (``argmax``) or min (``argmin``) of each of ``M`` rows, as int64."""
    out = cuda.device_array(M, np.int64)
    if M == 0:
        return out
    acc = acc_dtype(x.dtype)
    kernel = arg_kernel(op, acc)
    kernel[min(M, max_blocks()), REDUCE_THREADS](x, xoff, sm, sk, K, M, out)
    return out

