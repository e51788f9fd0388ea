"""Helpers that the generated kernels call (all ``@njit``, compiled on first use).

They reproduce NumPy's own algorithms where the order of floating-point operations
decides the last bits: :func:`pairwise` is NumPy's pairwise summation, which
``np.sum`` uses along a contiguous axis, so a jitted sum equals the eager one bit for
bit.  Everything here is pure and cacheable (``cache=True``).
"""

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic, overload

# NumPy's pairwise summation lives with the CPU kernels, which use it too; the generated
# kernels call it through this module.
from funcgrad.kernels.cpu._pairwise import (  # noqa: F401
    combine_leaves, leaf_plan, leaf_sum, pairwise, sum_rows_leaf)

# What a loop written without the C library's pass raises when it needs it (see .api).
from ..core import TrigRangeError  # noqa: E402,F401
from funcgrad.kernels import _numba_stamp  # noqa: E402

_numba_stamp.install(__file__)  # (its cached functions inline the kernels' code)

_OPTS = dict(cache=True, error_model="numpy", nogil=True)


@intrinsic
def fma(typingctx, a, b, c):
    """``a * b + c`` rounded once (``llvm.fma``), for floats of one type: the complex
    product of NumPy's FMA loops (:mod:`funcgrad.jit.complexloop`)."""
    if not (isinstance(a, types.Float) and a == b == c):
        return None

    def codegen(context, builder, signature, args):
        t = args[0].type
        f = builder.module.declare_intrinsic("llvm.fma", [t], ir.FunctionType(t, [t, t, t]))
        return builder.call(f, args)
    return a(a, b, c), codegen


def scalar(x):
    """The value of a 0-d array or a scalar (a kernel's 0-d parameters go through this)."""
    return x[()] if isinstance(x, np.ndarray) else x


@overload(scalar, jit_options=dict(error_model="numpy"))
def _scalar_overload(x):
    if isinstance(x, types.Array):
        return lambda x: x[()]
    return lambda x: x


@njit(**_OPTS)
def sum_all(a, zero):
    """``np.sum(a)`` of a C-ordered array: NumPy's pairwise sum of all elements, added to
    the reduction's initial value ``zero`` (+0.0 of the accumulation dtype)."""
    flat = np.ravel(a)
    return zero + pairwise(flat, 0, flat.shape[0], -zero)


@njit(**_OPTS)
def sum_all_leaf(a, zero):
    """:func:`sum_all` of at most 128 elements, one leaf of the pairwise sum (its bits),
    without the plan and folding of longer sums: half as much to compile."""
    flat = np.ravel(a)
    return zero + leaf_sum(flat, flat.shape[0], -zero)


@njit(**_OPTS)
def same_words(x, y):
    """Do two 1-d arrays of unsigned words hold the same bits?  ``jit`` asks this on every
    call of each array a compiled function reads without being passed it: an OR of XORs
    (which vectorises, unlike a comparison with an early exit per element), checked once
    per block so that a changed array is found without reading all of it.  Each block is
    read through views indexed from 0: with ``x[start + i]`` Numba tests for negative
    indices and LLVM does not vectorise (12x slower: 74 us for a 200x200 float64)."""
    acc = x.dtype.type(0)
    n = x.shape[0]
    for start in range(0, n, 8192):
        xs = x[start:start + 8192]
        ys = y[start:start + 8192]
        for i in range(xs.shape[0]):
            acc |= xs[i] ^ ys[i]
        if acc:
            return False
    return True


@njit(**_OPTS)
def sum_rows(a, zero):
    """Row sums of a 2-d array, each a pairwise sum (``np.sum(a, axis=-1)``)."""
    m, r = a.shape
    out = np.empty(m, a.dtype)
    for i in range(m):
        row = a[i]
        out[i] = zero + pairwise(row, 0, r, -zero)
    return out


@njit(**_OPTS)
def sum_leading(a, zero):
    """Column sums of a 2-d array accumulated row after row, in order
    (``np.sum(a, axis=0)``: NumPy adds each row into the running result)."""
    r, m = a.shape
    out = np.empty(m, a.dtype)
    for j in range(m):
        out[j] = zero
    for i in range(r):
        for j in range(m):
            out[j] += a[i, j]
    return out


@njit(**_OPTS)
def _extreme_rows(a, largest):
    """Row maxima (``largest``) or minima of a 2-d array; NaN if a row holds one, as
    ``np.max``/``np.min``."""
    m, r = a.shape
    out = np.empty(m, a.dtype)
    for i in range(m):
        best = a[i, 0]
        for j in range(1, r):
            v = a[i, j]
            keep = best >= v if largest else best <= v
            if not keep and best == best:  # v beyond best, or v NaN
                best = v
        out[i] = best
    return out


@njit(**_OPTS)
def max_rows(a):
    """Row maxima of a 2-d array (NaN if a row holds one, as ``np.max``)."""
    return _extreme_rows(a, True)


@njit(**_OPTS)
def min_rows(a):
    """Row minima of a 2-d array (NaN if a row holds one, as ``np.min``)."""
    return _extreme_rows(a, False)


def warm(dtypes, progress=None):
    """Compile (or load) these helpers for the arguments generated kernels give them:
    C-ordered float arrays of ``dtypes``.  A kernel that calls one then links the cached
    machine code instead of compiling it (W3's first jit compile on an empty cache spent
    about 7 s of 14 here).  ``progress(done, total)`` after each dtype."""
    for done, dt in enumerate(dtypes, 1):
        dt = np.dtype(dt)
        zero = dt.type(0)
        vector, matrix = np.ones(3, dt), np.ones((2, 3), dt)
        sum_all(vector, zero)
        sum_all(matrix, zero)
        sum_all_leaf(vector, zero)
        sum_all_leaf(matrix, zero)
        sum_rows(matrix, zero)
        sum_rows_leaf(matrix, zero)
        sum_leading(matrix, zero)
        max_rows(matrix)
        min_rows(matrix)
        if progress is not None:
            progress(done, len(dtypes))
