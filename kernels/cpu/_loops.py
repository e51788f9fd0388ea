"""Numba loops (imported only when a kernel is first built): the parallel elementwise
driver, scatter-add, and the reduction sweeps.

Every loop here trusts its caller (``kernels/cpu/*.py``) to have checked shapes, dtypes,
contiguity and index bounds in Python: the loops themselves do no bounds checking.
"""
import os

import numba
import numpy as np
from llvmlite import ir
from numba import njit, prange
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload, register_jitable

from ._fpstatus import MASK
from ._pairwise import leaf_sum
from .vmath import exp as exp_v
from .vmath import trig_bad
from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

# Contraction into FMA only, in the reduction sweeps: every other IEEE rule (NaN, inf,
# signed zero) is kept.  (Elementwise kernels contract nothing: they give the bits of the
# NumPy expression they replace.)
CONTRACT = {"contract"}

# --- threads ------------------------------------------------------------------------------

_threads_ready = False


def prepare_threads():
    """Pick a thread-safe threading layer before the first parallel launch, if we may."""
    global _threads_ready
    if _threads_ready:
        return
    if "NUMBA_THREADING_LAYER" not in os.environ and numba.config.THREADING_LAYER == "default":
        # tbb or OpenMP can be entered from several Python threads at once; the fallback
        # (workqueue) cannot, which funcgrad's own parallel lock guards against anyway.
        numba.config.THREADING_LAYER = "threadsafe"
        try:
            _touch()
        except (ValueError, ImportError):
            numba.config.THREADING_LAYER = "default"
    _touch()
    _threads_ready = True


@njit(parallel=True, cache=True)
def _touch_loop(a):
    for i in prange(a.size):
        a[i] += 1.0


def _touch():
    _touch_loop(np.zeros(4))


def max_threads():
    return numba.config.NUMBA_NUM_THREADS


def set_threads(n):
    n = min(n, numba.config.NUMBA_NUM_THREADS)
    if numba.get_num_threads() != n:
        numba.set_num_threads(n)


# --- flat elementwise driver ---------------------------------------------------------------

def _at(v, i):  # pragma: no cover - replaced by the overload below inside compiled code
    return v[i] if isinstance(v, np.ndarray) else v


@overload(_at, inline="always")
def _at_overload(v, i):
    """``v[i]`` for an array, ``v`` for a scalar: chosen when the loop is compiled, so one
    loop serves every mix of flat arrays and broadcast scalars, and stays vectorisable."""
    if isinstance(v, types.Array):
        return lambda v, i: v[i]
    return lambda v, i: v


def _c_status(name):
    """An intrinsic calling C's ``name`` (``feclearexcept``/``fetestexcept``) on the flags
    of :data:`._fpstatus.MASK`: declared to LLVM by name, so a cached loop still loads."""
    @intrinsic
    def call(typingctx):
        def codegen(context, builder, signature, args):
            i32 = ir.IntType(32)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i32, [i32]),
                                                name)
            return builder.call(fn, [ir.Constant(i32, MASK)])
        return types.int32(), codegen
    return call


fp_clear = _c_status("feclearexcept")  # (in a loop: fp_clear(), the loop, then fp_read())
fp_read = _c_status("fetestexcept")


def _part(v, lo, hi):  # pragma: no cover - replaced by the overload below
    return v[lo:hi] if isinstance(v, np.ndarray) else v


@overload(_part, inline="always")
def _part_overload(v, lo, hi):
    """``v[lo:hi]`` for an array, ``v`` for a scalar: one chunk of a flat loop's inputs."""
    if isinstance(v, types.Array):
        return lambda v, lo, hi: v[lo:hi]
    return lambda v, lo, hi: v


_jitable = {}


def flat_map(fn, nin, parallel, checked=None):
    """A loop applying scalar ``fn`` over flat C-contiguous arrays and scalars.

    ``loop(a, [b, [c, [d, [e,]]]] out)``: each input is a 1-d C-contiguous array of
    ``out.size`` elements or a scalar (a value broadcast to every element); the caller
    checked this.  It returns ``(bad, flags)``: the floating-point status flags the
    loop raised (:mod:`._fpstatus`, for the caller to report as NumPy would) and, with
    ``checked`` (an input position), how many of that input's values are beyond the range
    of the vectorised sin/cos (an integer sum, which stays vectorised), so the caller can
    recompute those with the C library without a second sweep to find them (else 0).
    Compiled per argument types on first call, cached on disk; ``parallel=True`` runs
    the serial loop on chunks across Numba's threads (each thread's flags are its own).
    """
    # The closures hold plain Python functions (pickled by reference), not dispatchers
    # (pickled with a per-process id), so the on-disk cache hits next time.
    kernel = _jitable.get(fn)
    if kernel is None:
        kernel = _jitable[fn] = register_jitable(fn)
    serial = _serial_loop(kernel, nin, checked)
    loop = _chunked(serial, nin) if parallel else serial
    loop.__qualname__ = (f"flat_map.{fn.__module__}.{fn.__name__}."
                         f"{'parallel' if parallel else 'serial'}"
                         f"{'.checked' if checked is not None else ''}")
    # error_model="numpy": x / 0 gives inf/nan as in NumPy (Python's model raises, and its
    # check would keep the loop from being vectorised).
    return njit(parallel=parallel, cache=True, nogil=True, error_model="numpy")(loop)


def _serial_loop(kernel, nin, checked):
    """The plain Python function of the serial flat loop (see :func:`flat_map`)."""
    c = checked
    if checked is not None:
        if nin == 1:
            def loop(a, out):
                fp_clear()
                bad = 0
                for i in range(out.size):
                    v = _at(a, i)
                    out[i] = kernel(v)
                    bad += trig_bad(v)
                return bad, fp_read()
        elif nin == 2:
            def loop(a, b, out):
                fp_clear()
                bad = 0
                for i in range(out.size):
                    vs = (_at(a, i), _at(b, i))
                    out[i] = kernel(vs[0], vs[1])
                    bad += trig_bad(vs[c])
                return bad, fp_read()
        elif nin == 3:  # (a rule summed into a cotangent: acc + g * cos(x))
            def loop(a, b, d, out):
                fp_clear()
                bad = 0
                for i in range(out.size):
                    vs = (_at(a, i), _at(b, i), _at(d, i))
                    out[i] = kernel(vs[0], vs[1], vs[2])
                    bad += trig_bad(vs[c])
                return bad, fp_read()
        elif nin == 4:
            def loop(a, b, d, e, out):
                fp_clear()
                bad = 0
                for i in range(out.size):
                    vs = (_at(a, i), _at(b, i), _at(d, i), _at(e, i))
                    out[i] = kernel(vs[0], vs[1], vs[2], vs[3])
                    bad += trig_bad(vs[c])
                return bad, fp_read()
        else:  # pragma: no cover - no such kernel
            raise ValueError(f"no checked flat driver for {nin} inputs")
    elif nin == 1:
        def loop(a, out):
            fp_clear()
            for i in range(out.size):
                out[i] = kernel(_at(a, i))
            return 0, fp_read()
    elif nin == 2:
        def loop(a, b, out):
            fp_clear()
            for i in range(out.size):
                out[i] = kernel(_at(a, i), _at(b, i))
            return 0, fp_read()
    elif nin == 3:
        def loop(a, b, c, out):
            fp_clear()
            for i in range(out.size):
                out[i] = kernel(_at(a, i), _at(b, i), _at(c, i))
            return 0, fp_read()
    elif nin == 4:
        def loop(a, b, c, d, out):
            fp_clear()
            for i in range(out.size):
                out[i] = kernel(_at(a, i), _at(b, i), _at(c, i), _at(d, i))
            return 0, fp_read()
    elif nin == 5:
        def loop(a, b, c, d, e, out):
            fp_clear()
            for i in range(out.size):
                out[i] = kernel(_at(a, i), _at(b, i), _at(c, i), _at(d, i), _at(e, i))
            return 0, fp_read()
    else:  # pragma: no cover - no such kernel
        raise ValueError(f"no flat driver for {nin} inputs")
    return loop


@register_jitable
def _chunks(n):
    """How many chunks a parallel flat loop of ``n`` elements is cut into: at least 16Ki
    elements each, at most 64 (not read from the thread count: a loop that asks Numba
    for it cannot be cached)."""
    return max(1, min(64, n // 16384))


@register_jitable
def _totals(bads, flags):
    bad, status = 0, 0
    for k in range(bads.size):
        bad += bads[k]
        status |= flags[k]
    return bad, status


def _chunked(serial, nin):
    """The parallel flat loop: ``serial`` (a jitable loop) on chunks, in Numba's threads."""
    step = register_jitable(serial)
    if nin == 1:
        def loop(a, out):
            m = _chunks(out.size)
            bads, flags = np.zeros(m, np.int64), np.zeros(m, np.int32)
            for k in prange(m):
                lo, hi = k * out.size // m, (k + 1) * out.size // m
                bads[k], flags[k] = step(_part(a, lo, hi), out[lo:hi])
            return _totals(bads, flags)
    elif nin == 2:
        def loop(a, b, out):
            m = _chunks(out.size)
            bads, flags = np.zeros(m, np.int64), np.zeros(m, np.int32)
            for k in prange(m):
                lo, hi = k * out.size // m, (k + 1) * out.size // m
                bads[k], flags[k] = step(_part(a, lo, hi), _part(b, lo, hi), out[lo:hi])
            return _totals(bads, flags)
    elif nin == 3:
        def loop(a, b, c, out):
            m = _chunks(out.size)
            bads, flags = np.zeros(m, np.int64), np.zeros(m, np.int32)
            for k in prange(m):
                lo, hi = k * out.size // m, (k + 1) * out.size // m
                bads[k], flags[k] = step(_part(a, lo, hi), _part(b, lo, hi),
                                         _part(c, lo, hi), out[lo:hi])
            return _totals(bads, flags)
    elif nin == 4:
        def loop(a, b, c, d, out):
            m = _chunks(out.size)
            bads, flags = np.zeros(m, np.int64), np.zeros(m, np.int32)
            for k in prange(m):
                lo, hi = k * out.size // m, (k + 1) * out.size // m
                bads[k], flags[k] = step(_part(a, lo, hi), _part(b, lo, hi),
                                         _part(c, lo, hi), _part(d, lo, hi), out[lo:hi])
            return _totals(bads, flags)
    elif nin == 5:
        def loop(a, b, c, d, e, out):
            m = _chunks(out.size)
            bads, flags = np.zeros(m, np.int64), np.zeros(m, np.int32)
            for k in prange(m):
                lo, hi = k * out.size // m, (k + 1) * out.size // m
                bads[k], flags[k] = step(_part(a, lo, hi), _part(b, lo, hi),
                                         _part(c, lo, hi), _part(d, lo, hi),
                                         _part(e, lo, hi), out[lo:hi])
            return _totals(bads, flags)
    else:  # pragma: no cover - no such kernel
        raise ValueError(f"no flat driver for {nin} inputs")
    return loop


# --- scatter-add ----------------------------------------------------------------------------

@njit(cache=True, nogil=True, error_model="numpy")
def scatter_add_rows(out, rows, updates):
    """``out[rows[i], :] += updates[i, :]`` for 2-d C-contiguous ``out``/``updates``.

    ``rows`` already wrapped into [0, out.shape[0]) by the caller; repeated rows add up.
    """
    width = out.shape[1]
    for i in range(rows.size):
        r = rows[i]
        for j in range(width):
            out[r, j] += updates[i, j]


# --- reductions over the last axis of a 2-d array ---------------------------------------------

@register_jitable(inline="always")
def _max_lanes(row, n):
    """max(row[:n]) ignoring NaN (-inf if none): eight independent running maxima, so the
    compares pipeline instead of waiting on one another."""
    m0 = m1 = m2 = m3 = m4 = m5 = m6 = m7 = -np.inf
    j = 0
    while j + 8 <= n:
        v0, v1, v2, v3 = row[j], row[j + 1], row[j + 2], row[j + 3]
        v4, v5, v6, v7 = row[j + 4], row[j + 5], row[j + 6], row[j + 7]
        m0, m1 = (v0 if v0 > m0 else m0), (v1 if v1 > m1 else m1)
        m2, m3 = (v2 if v2 > m2 else m2), (v3 if v3 > m3 else m3)
        m4, m5 = (v4 if v4 > m4 else m4), (v5 if v5 > m5 else m5)
        m6, m7 = (v6 if v6 > m6 else m6), (v7 if v7 > m7 else m7)
        j += 8
    m = max(max(max(m0, m1), max(m2, m3)), max(max(m4, m5), max(m6, m7)))
    while j < n:
        v = row[j]
        m = v if v > m else m
        j += 1
    return m


@njit(cache=True, nogil=True, fastmath=CONTRACT, error_model="numpy")
def logsumexp_rows(x, out):
    """``out[i] = log(sum(exp(x[i, :])))`` in two sweeps per row (max; then the shifted
    exp into a row buffer, a vectorised loop, and its sum in eight lanes, in float64).

    A NaN is skipped by the max and makes the sum NaN; an inf or all -inf shifts by 0.
    """
    rows, n = x.shape
    buf = np.empty(n)
    for i in range(rows):
        row = x[i]
        m = _max_lanes(row, n)
        shift = m if abs(m) < np.inf else 0.0
        for j in range(n):
            buf[j] = exp_v(row[j] - shift)
        # One leaf of NumPy's pairwise sum at any length: eight independent partial sums,
        # as accurate as the full recursion for these positive terms, and faster.
        out[i] = np.log(leaf_sum(buf, n, -0.0)) + shift


@njit(cache=True, nogil=True, error_model="numpy")
def softmax_scale_rows(g, x, out):
    """``out[i, :] = g[i] * softmax(x[i, :])``, the logsumexp VJP, as its rule computes it:
    ``e = exp(x - max)`` (the max 0 where not finite), then ``g * e / sum(e)``; the sum is
    one leaf of NumPy's pairwise summation, as ``np.sum`` of a row."""
    rows, n = x.shape
    for i in range(rows):
        row = x[i]
        m = _max_lanes(row, n)
        shift = m if abs(m) < np.inf else 0.0
        dst = out[i]
        for j in range(n):
            dst[j] = exp_v(row[j] - shift)
        s = leaf_sum(dst, n, -0.0)
        gi = g[i]
        for j in range(n):
            dst[j] = gi * dst[j] / s


@njit(cache=True, nogil=True, error_model="numpy")
def extremum_weights_rows(g, x, ext, out):
    """The max/min VJP: ``g[i]`` split evenly among the entries equal to ``ext[i]``."""
    rows, n = x.shape
    for i in range(rows):
        e = ext[i]
        count = 0
        for j in range(n):
            if x[i, j] == e:
                count += 1
        if count == 0:  # a NaN extremum: the rule's 0/0 makes the whole slice NaN
            for j in range(n):
                out[i, j] = np.nan
            continue
        share = g[i] / count
        for j in range(n):
            out[i, j] = share if x[i, j] == e else 0.0


# --- row-wise elementwise driver (2-d strided or row-broadcast operands) ------------------------

def _row(v, i):  # pragma: no cover - replaced by the overload below inside compiled code
    return v[i] if isinstance(v, np.ndarray) and v.ndim == 2 else v


@overload(_row, inline="always")
def _row_overload(v, i):
    """Row ``i`` of a 2-d operand; a 1-d operand (one row broadcast to every row) or a
    scalar as it is."""
    if isinstance(v, types.Array) and v.ndim == 2:
        return lambda v, i: v[i]
    return lambda v, i: v


def rows_map(fn):
    """A loop applying binary scalar ``fn`` row by row: ``loop(a, b, out)`` with ``out``
    2-d C-contiguous of shape (m, k) and each of ``a``/``b`` a 2-d (m, k) array (any
    strides), a 1-d (k,) array (broadcast to every row) or a scalar; the caller checked
    this.  NumPy's iterator runs such layouts (a sliced batch of tangents, a batch times
    one unbatched vector) 1.5-2x slower than contiguous arrays of the same size."""
    kernel = _jitable.get(fn)
    if kernel is None:
        kernel = _jitable[fn] = register_jitable(fn)

    def loop(a, b, out):
        m, k = out.shape
        for i in range(m):
            ai = _row(a, i)
            bi = _row(b, i)
            oi = out[i]
            for j in range(k):
                oi[j] = kernel(_at(ai, j), _at(bi, j))
    loop.__qualname__ = f"rows_map.{fn.__name__}"
    return njit(cache=True, nogil=True, error_model="numpy")(loop)


def add_s(a, b):
    return a + b


def subtract_s(a, b):
    return a - b


def multiply_s(a, b):
    return a * b


@njit(cache=True, nogil=True, error_model="numpy")
def add_window_rows(x, u, out, r0, c0):
    """``out = x.copy(); out[r0:r0+p, c0:c0+q] += u`` in one pass over ``x`` (2-d, ``u`` of
    shape (p, q) inside ``x``'s bounds; the caller checked this)."""
    m = x.shape[0]
    p, q = u.shape
    for i in range(m):
        out[i, :] = x[i, :]
        if r0 <= i < r0 + p:
            ui = u[i - r0]
            oi = out[i, c0:c0 + q]
            xi = x[i, c0:c0 + q]
            for j in range(q):
                oi[j] = xi[j] + ui[j]
