"""NumPy's pairwise summation in Numba: the same bits as ``np.sum`` along a contiguous axis.

Used by the logsumexp kernel (``_loops``) and by the code ``fg.jit`` generates (through
:mod:`funcgrad.jit.runtime`), which fuses a sum with the loop producing its terms and
folds the leaves in NumPy's order.  Imported only when one of them is built.
"""
import numpy as np
from numba import njit

from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

_OPTS = dict(cache=True, error_model="numpy", nogil=True)


# (inlined into each caller at Numba's IR level: cached callers are linked as machine
# code, so a plain call stays a call, and per row of a 10-column array the call cost
# five times the sum: 5.6 us against 1.0 for 128 rows)
@njit(inline="always", **_OPTS)
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
    """One leaf of :func:`pairwise` over ``buf[:n]``: NumPy's sum for ``n <= 128``; for
    larger ``n`` the same eight interleaved partial sums, in a different order from NumPy's."""
    return _pairwise_leaf(buf, 0, n, zero)


@njit(**_OPTS)
def sum_rows_leaf(a, zero):
    """``np.sum(a, axis=-1)`` of a C-ordered 2-d array of rows of at most 128 terms (one
    leaf each), each row's sum added to the reduction's initial value ``zero``."""
    m, r = a.shape
    out = np.empty(m, a.dtype)
    for i in range(m):
        out[i] = zero + _pairwise_leaf(a[i], 0, r, -zero)
    return out


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
