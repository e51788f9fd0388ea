"""Helpers that the generated kernels call (all ``@njit``, compiled on first use).

They reproduce NumPy's own algorithms where the order of floating-point operations
decides the last bits: :func:`pairwise` is NumPy's pairwise summation, which
``np.sum`` uses along a contiguous axis, so a jitted sum equals the eager one bit for
bit.  Everything here is pure and cacheable (``cache=True``).
"""
import math

import numpy as np
from numba import njit, types
from numba.extending import overload

_OPTS = dict(cache=True, error_model="numpy", nogil=True)
# Scalar helpers the kernels call per element.  Not inlined by Numba (each select would be
# a basic block, and long chains overflow Numba's SSA pass); LLVM inlines them.
_SMALL = dict(cache=True, error_model="numpy")


def scalar(x):
    """The value of a 0-d array or a scalar (a kernel's 0-d parameters go through this)."""
    return x[()] if isinstance(x, np.ndarray) else x


@overload(scalar, jit_options=dict(error_model="numpy"))
def _scalar_overload(x):
    if isinstance(x, types.Array):
        return lambda x: x[()]
    return lambda x: x


@njit(**_OPTS)
def _pairwise_leaf(a, start, n, zero):
    if n < 8:
        res = zero
        for i in range(start, start + n):
            res += a[i]
        return res
    r0 = a[start]
    r1 = a[start + 1]
    r2 = a[start + 2]
    r3 = a[start + 3]
    r4 = a[start + 4]
    r5 = a[start + 5]
    r6 = a[start + 6]
    r7 = a[start + 7]
    stop = start + n - n % 8
    i = start + 8
    while i < stop:
        r0 += a[i]
        r1 += a[i + 1]
        r2 += a[i + 2]
        r3 += a[i + 3]
        r4 += a[i + 4]
        r5 += a[i + 5]
        r6 += a[i + 6]
        r7 += a[i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < start + n:
        res += a[i]
        i += 1
    return res


@njit(**_OPTS)
def pairwise(a, start, n, zero):
    """NumPy's pairwise sum of ``a[start:start + n]`` (``a`` one-dimensional).

    Below 8 terms a plain loop; up to 128, eight interleaved accumulators combined as
    ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7)) and the tail added in order; above,
    the halves (split at a multiple of 8) summed recursively -- here leaf by leaf
    (:func:`leaf_plan`), folded in the recursion's order (Numba's cache cannot hold
    recursive code).  ``zero`` is ``-0.0`` of the accumulation dtype (NumPy starts from
    -0.0 so that a sum of -0.0 stays -0.0).
    """
    if n <= 128:
        return _pairwise_leaf(a, start, n, zero)
    bounds, merges = leaf_plan(n)
    sums = np.empty(merges.shape[0], a.dtype)
    for k in range(sums.shape[0]):
        sums[k] = _pairwise_leaf(a, start + bounds[k], bounds[k + 1] - bounds[k], zero)
    return combine_leaves(sums, merges)


@njit(**_OPTS)
def leaf_sum(buf, n, zero):
    """NumPy's pairwise sum of ``buf[:n]``, ``n <= 128``: one leaf of :func:`pairwise`."""
    return _pairwise_leaf(buf, 0, n, zero)


@njit(**_OPTS)
def leaf_plan(n):
    """The leaves of :func:`pairwise` over ``n`` terms, in order: ``(bounds, merges)``.

    Leaf ``k`` sums terms ``bounds[k]:bounds[k + 1]`` (at most 128); after it, the last
    ``merges[k] + 1`` partial sums on a stack are folded pairwise (left + right), as the
    recursion would.  A kernel that fuses a sum with the loop producing its terms
    computes the leaves (in parallel, in any order) and :func:`combine_leaves` folds them:
    the same bits as ``np.sum`` of the materialised array.
    """
    bounds = np.empty(n // 64 + 2, np.int64)
    merges = np.zeros(n // 64 + 1, np.int64)
    starts = np.empty(64, np.int64)
    sizes = np.empty(64, np.int64)
    stages = np.zeros(64, np.int64)
    starts[0] = 0
    sizes[0] = n
    sp = 1
    leaves = 0
    while sp > 0:
        s = starts[sp - 1]
        m = sizes[sp - 1]
        if m <= 128:
            bounds[leaves] = s
            leaves += 1
            sp -= 1
            continue
        half = m // 2
        half -= half % 8
        stage = stages[sp - 1]
        if stage == 0:
            stages[sp - 1] = 1
            starts[sp], sizes[sp], stages[sp] = s, half, 0
            sp += 1
        elif stage == 1:
            stages[sp - 1] = 2
            starts[sp], sizes[sp], stages[sp] = s + half, m - half, 0
            sp += 1
        else:
            merges[leaves - 1] += 1
            sp -= 1
    bounds[leaves] = n
    return bounds[:leaves + 1], merges[:leaves]


@njit(**_OPTS)
def combine_leaves(sums, merges):
    """Fold the leaf sums of :func:`leaf_plan` in :func:`pairwise`'s order."""
    stack = np.empty(64, sums.dtype)
    sp = 0
    for k in range(sums.shape[0]):
        stack[sp] = sums[k]
        sp += 1
        for _ in range(merges[k]):
            stack[sp - 2] = stack[sp - 2] + stack[sp - 1]
            sp -= 1
    return stack[0]


@njit(**_OPTS)
def sum_all(a, zero):
    """``np.sum(a)`` of a C-ordered array: NumPy's pairwise sum of all elements, added to
    the reduction's initial value ``zero`` (+0.0 of the accumulation dtype)."""
    flat = np.ravel(a)
    return zero + pairwise(flat, 0, flat.shape[0], -zero)


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


@njit(**_SMALL)
def mod(a, b):
    """NumPy's floating-point ``mod``: the result takes the divisor's sign, and a zero
    result is +0.0 or -0.0 as the divisor (``np.mod(0.0, -1.0) == -0.0``)."""
    if b == 0:
        return np.fmod(a, b)
    m = np.fmod(a, b)
    if m != 0:
        if (b < 0) != (m < 0):
            m += b
    else:
        m = math.copysign(0.0, b)
    return m


@njit(**_SMALL)
def imod(a, b):
    """NumPy's integer ``mod``: the divisor's sign, and 0 for a zero divisor."""
    if b == 0:
        return a - a
    return a % b


@njit(**_SMALL)
def sign(a):
    """NumPy's ``sign``: -1, 0 or 1 (``sign(-0.0) == 0.0``), NaN for NaN."""
    if a > 0:
        return 1.0
    if a < 0:
        return -1.0
    if a != a:
        return a
    return 0.0


# NaN-propagating maximum/minimum; on ties the second operand, as NumPy's SIMD loops.
@njit(**_SMALL)
def maximum(a, b):
    return a if (a > b or a != a) else b


@njit(**_SMALL)
def minimum(a, b):
    return a if (a < b or a != a) else b


# NaN-ignoring fmax/fmin.
@njit(**_SMALL)
def fmax(a, b):
    return a if (a > b or b != b) else b


@njit(**_SMALL)
def fmin(a, b):
    return a if (a < b or b != b) else b


@njit(**_SMALL)
def clip(x, lo, hi):
    """NumPy's ``clip``: ``minimum(maximum(x, lo), hi)`` (NaN propagates)."""
    return minimum(maximum(x, lo), hi)


@njit(**_SMALL)
def select(c, a, b):
    return a if c else b


@njit(**_SMALL)
def isign(a):
    return (a > 0) - (a < 0)
