"""Fusion: elementwise equations of one result shape become one loop of local scalars.

:func:`fuse` groups a kernel's equations; :func:`emit_loop` writes one group's loop nest.
Inside the loop every value is a local scalar; only values needed outside it are written
to arrays.  Three things that are not elementwise equations join the loop:

* a sum of all of one of its results is accumulated by the loop, leaf by leaf of NumPy's
  pairwise summation (:meth:`Loop.accumulate`), so no array of the terms is written and
  the sum has ``np.sum``'s bits; a sum over its leading axes (a bias's gradient) is added
  up row by row as the loop makes the rows, as NumPy does (:meth:`Loop.accumulate_rows`),
  so the terms are not read back;
* band constants (the shifted identities of ``jacfwd``'s basis) are computed from the loop
  indices instead of read (:func:`band`);
* a scatter into a broadcast scalar through slices (the VJP of slicing) is computed
  element by element where it is consumed instead of written as a padded array
  (:func:`is_pad`).

Large loops use ``prange`` when ``fg.set_num_threads`` allows more than one thread.
"""
import os

import numpy as np

from ..interpreters.graph import Var
from ..kernels.cpu import _lazy
from ..primitives.indexing import scatter_p
from ..primitives.structural import reduce_sum_p
from .elementwise import KERNEL_DTYPES, is_elementwise, uses_trig, uses_vector_math
from .lowerable import is_float32_or_64, reduce_pattern
from .source import cast, literal, shape_text

__all__ = ["fuse", "emit_loop", "Loop", "is_pad", "band", "VECTOR_MATH", "MAX_FUSED_EQNS",
           "MAX_FUSED_MATH", "MAX_OUTLINED_MATH"]

PARALLEL_THRESHOLD = int(os.environ.get("FUNCGRAD_JIT_PARALLEL_THRESHOLD", 1 << 16))
# Vectorisable exp/log/log1p/sin/cos/tanh (funcgrad.kernels.cpu.vmath) in fused loops; 0:
# the C library.
VECTOR_MATH = os.environ.get("FUNCGRAD_JIT_VECTOR_MATH", "1") != "0"
# At most this many vector-math calls per fused loop: compile time grows faster than
# linearly with the size of a loop's body (a 200-sin chain: 23 s in one loop).
MAX_FUSED_MATH = int(os.environ.get("FUNCGRAD_JIT_MAX_FUSED_MATH", 24))
# The same bound in a large kernel, whose loops are functions of their own
# (funcgrad.jit.outline): there a step repeated many times is one small function called
# in a loop, and Numba's time per loop function grows faster than its size (cold compile
# of a 200-operation chain's gradient: 17 s CPU with 24, 5 s with 4; benchmarks/jit_compile.py).
MAX_OUTLINED_MATH = int(os.environ.get("FUNCGRAD_JIT_MAX_OUTLINED_MATH", 4))
# At most this many equations per fused loop: a loop's body is one function's worth of
# Numba and LLVM work, and that work grows faster than linearly with its size
# (funcgrad.jit.outline; benchmarks/jit_compile.py).
MAX_FUSED_EQNS = int(os.environ.get("FUNCGRAD_JIT_MAX_FUSED_EQNS", 128))
# Below this many elements a loop with more vector-math calls than that uses the C library
# instead (in one loop): its compile time would outweigh any saving.
VECTOR_MATH_MIN_SIZE = 64
LEAVES_PER_CHUNK = 64  # leaves (<= 128 terms each) per iteration of a summing loop
BAND_MIN_SIZE = 1024  # smaller constants are cheaper to read than to test for
PAIRWISE_LEAF = 128  # NumPy sums up to this many terms as one leaf of its pairwise sum
FUSED_SUM_MIN_SIZE = PAIRWISE_LEAF + 1  # (one leaf: fusing the sum gains nothing)
# A loop of vector maths whose last axis is shorter than this runs flat, its broadcast
# inputs copied to its shape first (see _expand_broadcasts).
NARROW = int(os.environ.get("FUNCGRAD_JIT_NARROW", 32))


def _threads():
    """The thread setting of funcgrad's kernels (``fg.set_num_threads``), read when a
    signature is compiled: with one thread loops are ``range``, never ``prange`` (on a
    machine with two CPUs or fewer that is the default; a parallel loop waits for its
    slowest thread, and under load one thread descheduled made W5 10x slower)."""
    return _lazy.config.threads


# --- which equations share a loop ----------------------------------------------------------

def fuse(eqns, max_math=None):
    """``(units, uniform)``: units in emission order (a list of equations is one fused
    loop, an Eqn stands alone) and the *uniform* values (elementwise results of scalars
    only, i.e. a scalar broadcast to a shape: computed once, never stored as arrays).

    A fused group collects elementwise equations of one result shape; it is emitted
    (closed) as soon as something outside it needs one of its results, so its inputs are
    always computed before its loop and its results after it.  A group closes at
    ``max_math`` vector-maths calls (on 64 elements or more; None: ``MAX_FUSED_MATH``).
    """
    if max_math is None:
        max_math = MAX_FUSED_MATH
    units = []
    open_groups = {}  # shape -> list of eqns
    producer = {}  # id(Var) -> the open group that computes it
    uniform = {}  # id(Var) -> shape
    weight = {}  # id(group) -> how many vector-math functions it calls

    def close(group):
        key = next(k for k, g in open_groups.items() if g is group)
        del open_groups[key]
        units.append(group)
        for e in group:
            producer.pop(id(e.outvars[0]), None)

    for eqn in eqns:
        fusible = is_elementwise(eqn) or is_pad(eqn, uniform)
        shape = None
        if fusible:
            shape = eqn.outvars[0].aval.shape
            if all((not x.aval.shape or id(x) in uniform) if isinstance(x, Var)
                   else type(x) is not np.ndarray for x in eqn.inputs):
                if shape:
                    uniform[id(eqn.outvars[0])] = shape
                shape = ()  # computed as a scalar
        summed = None if fusible else _summed_group(eqn, producer, open_groups)
        # (a pad reads its updates at shifted indices: they are an array written before
        # the loop, never a value of the loop's own iteration)
        shifted = eqn.inputs[1] if fusible and eqn.prim is scatter_p else None
        for x in eqn.inputs:
            if isinstance(x, Var):
                group = producer.get(id(x))
                if group is not None and group is not summed and (
                        not fusible or x is shifted or group is not open_groups.get(shape)):
                    close(group)
        if not fusible:
            if summed is not None:  # the sum is accumulated in the group's loop
                summed.append(eqn)
                close(summed)
                continue
            units.append(eqn)
            continue
        group = open_groups.get(shape)
        heavy = uses_vector_math(eqn) and shape != ()
        if group is not None and shape != () and (
                len(group) >= MAX_FUSED_EQNS or heavy and weight[id(group)] >= max_math
                and int(np.prod(shape)) >= VECTOR_MATH_MIN_SIZE):
            close(group)  # LLVM's time grows faster than linearly with a loop's body
            group = None
        if group is None:
            group = open_groups[shape] = []
            weight[id(group)] = 0
        group.append(eqn)
        weight[id(group)] += heavy
        producer[id(eqn.outvars[0])] = group
    for group in list(open_groups.values()):
        close(group)
    return units, uniform


def is_pad(eqn, uniform):
    """``full(shape, v).at[window].add(u)`` (or ``.set``): a scatter into a broadcast
    scalar through unit-step slices -- the VJP of slicing.  A fused loop computes it
    element by element (``v + u[i - start]`` inside the window, ``v`` outside) instead of
    writing the padded array."""
    if eqn.prim is not scatter_p or len(eqn.inputs) != 2 or len(eqn.outvars) != 1:
        return False
    operand, updates = eqn.inputs
    out = eqn.outvars[0].aval
    spec = eqn.params["spec"]
    # (updates that are a broadcast scalar too would make the pad look like one scalar,
    # which it is not: such a scatter is computed on its own)
    return (eqn.params["mode"] in ("add", "set") and isinstance(operand, Var)
            and id(operand) in uniform and isinstance(updates, Var)
            and id(updates) not in uniform
            and out.dtype.kind == "f" and out.dtype in KERNEL_DTYPES
            and operand.aval.dtype == out.dtype and updates.aval.dtype == out.dtype
            and len(spec) == out.ndim == updates.aval.ndim > 0
            and all(e[0] == "s" and e[3] == 1 and 0 <= e[1] <= e[2] <= d
                    for e, d in zip(spec, out.shape))
            and updates.aval.shape == tuple(e[2] - e[1] for e in spec))


def _fusible_sum(eqn):
    """Is ``eqn`` a sum that a fused loop can accumulate, bit for bit as ``np.sum`` of the
    materialised array (same dtype, same order)?  A sum of all elements (pairwise order),
    or over leading axes (rows added in order: see :func:`leading_sum`)."""
    if eqn.prim is not reduce_sum_p or not isinstance(eqn.inputs[0], Var):
        return False
    x, out = eqn.inputs[0].aval, eqn.outvars[0].aval
    if x.dtype != out.dtype or not is_float32_or_64(x.dtype):
        return False
    return leading_sum(eqn) or (x.size >= FUSED_SUM_MIN_SIZE
                                and reduce_pattern(x.shape, eqn.params["axes"]) == "all")


def leading_sum(eqn):
    """Is ``eqn`` a sum over the first axes of a 2-d-or-more array (none of them of length
    0 or 1, at least one axis kept)?  NumPy adds such an array row by row into the running
    result (``runtime.sum_leading``), which is the order a loop nest makes the rows in."""
    if eqn.prim is not reduce_sum_p:
        return False
    shape, axes = eqn.inputs[0].aval.shape, tuple(sorted(eqn.params["axes"]))
    return (0 < len(axes) < len(shape) and axes == tuple(range(len(axes)))
            and all(d > 1 for d in shape)
            and reduce_pattern(shape, axes) == "leading")


def _summed_group(eqn, producer, open_groups):
    """The open group whose loop can accumulate ``eqn`` (a sum of all of one of its
    results), or None."""
    if not _fusible_sum(eqn):
        return None
    x = eqn.inputs[0]
    group = producer.get(id(x))
    if group is None or group is not open_groups.get(x.aval.shape):
        return None
    return group


def band(c):
    """``(value, k, lo, hi)`` when the 2-d float constant ``c`` is ``value`` on the
    diagonal ``j - i == k`` for rows ``lo <= i < hi`` and 0 elsewhere, else None."""
    if c.dtype.kind != "f" or c.size < BAND_MIN_SIZE:
        return None
    rows, cols = np.nonzero(c)
    if rows.size == 0:
        return None if np.signbit(c).any() or np.isnan(c).any() else (0.0, 0, 0, 0)
    k = int(cols[0] - rows[0])
    value = c[rows[0], cols[0]]
    lo, hi = int(rows[0]), int(rows[-1]) + 1
    if rows.size != hi - lo or not np.isfinite(value):
        return None
    rebuilt = np.zeros_like(c)
    i = np.arange(lo, hi)
    if np.any((i + k < 0) | (i + k >= c.shape[1])):
        return None
    rebuilt[i, i + k] = value
    # bit for bit (a -0.0 or a NaN anywhere would not be rebuilt)
    return (value.item(), k, lo, hi) if rebuilt.tobytes() == np.ascontiguousarray(c).tobytes() \
        else None


# --- writing a group's loop -------------------------------------------------------------------

def emit_loop(block, eqns):
    """Write the loop of the fused group ``eqns`` (one result shape) into ``block``
    (a :class:`~funcgrad.jit.block.Block`): the arrays it writes, the loop nest (twice
    when out-of-range trig arguments need the C library, or once and a check that raises
    ``TrigRangeError``: see :func:`funcgrad.jit.lower.lower_graph`), and its results'
    names."""
    names = block.fn.names
    unit_id = id(eqns)
    total = None  # a sum of all of one result, accumulated by the loop (see fuse)
    if eqns[-1].prim is reduce_sum_p:
        total, eqns = eqns[-1], eqns[:-1]
    shape = eqns[0].outvars[0].aval.shape
    inside = {id(v) for e in eqns for v in e.outvars}
    materialize = [e.outvars[0] for e in eqns
                   if id(e.outvars[0]) in block.outputs
                   or block.uses.get(id(e.outvars[0]), set()) - {unit_id}]
    size = int(np.prod(shape))
    # (irloop reads the shape from this line: how to write the vector maths)
    block.emit(f"# fused: {', '.join(e.prim.name for e in eqns)} over {shape_text(shape)}")
    arrays = []  # array inputs from outside the loop
    for e in eqns:
        for x in e.inputs:
            is_array = (isinstance(x, Var) and id(x) not in inside and x.aval.ndim > 0
                        and id(x) not in block.uniform) or type(x) is np.ndarray
            if is_array and not any(x is a for a in arrays):
                arrays.append(x)
    # Band constants (the shifted identities of jacfwd's basis, after slicing) are
    # computed from the loop indices instead of read from memory.
    bands = {id(a): band(a) for a in arrays
             if type(a) is np.ndarray and a.shape == shape and len(shape) == 2}
    bands = {k: b for k, b in bands.items() if b is not None}
    arrays = [a for a in arrays if id(a) not in bands]
    pads = any(e.prim is scatter_p for e in eqns)  # index arithmetic: not flat
    flat = not bands and not pads and all(
        tuple(np.shape(a) if not isinstance(a, Var) else a.aval.shape) == shape
        for a in arrays)
    heavy = sum(uses_vector_math(e) for e in eqns)
    vector = VECTOR_MATH and (size >= VECTOR_MATH_MIN_SIZE or heavy <= MAX_FUSED_MATH)
    expand = (not flat and not bands and not pads and total is None and vector and heavy
              and size >= VECTOR_MATH_MIN_SIZE and len(shape) > 1 and shape[-1] < NARROW
              and not block.fn.pack
              and not any(isinstance(a, Var) and id(a) in block.fn.packed for a in arrays))
    expanded = _expand_broadcasts(block, arrays, shape) if expand else {}
    flat = flat or bool(expanded)
    parallel = size >= PARALLEL_THRESHOLD and _threads() > 1
    rowwise = total is not None and leading_sum(total)
    if rowwise:  # the row index is the loop's: a nest, not a flat loop
        flat, expanded = False, {}
    separate = None
    # (broadcast inputs make a flat loop impossible for a sum of everything; threads would
    # race on the running row sum; a second, exact-trig pass would add the rows twice)
    if total is not None and (not flat and not rowwise or rowwise and (
            parallel or any(uses_trig(e) for e in eqns))):
        if not any(v is total.inputs[0] for v in materialize):
            materialize.append(total.inputs[0])
        separate, total = total, None
        rowwise = False
    if parallel:
        block.fn.parallel = True
    out_names = {}
    rows = {}  # id(Var) -> its row in the packed array out_names / sources holds
    packs = {}  # dtype -> results written as rows of one array (Function.pack)
    # Rows of packed arrays (see outline) are stored flat: loops without index arithmetic
    # of their own (pads, bands) read and write them at the flat index of (i0, i1, ...).
    plain = not bands and not pads
    for v in materialize:
        if plain and block.fn.pack:
            packs.setdefault(v.aval.dtype.name, []).append(v)
            continue
        name = names.fresh()
        out_names[id(v)] = name
        alloc = f"({size},)" if flat else shape_text(shape)
        block.emit(f"{name} = np.empty({alloc}, np.{v.aval.dtype.name})")
    for dtype, packed in packs.items():
        name = names.fresh("pk")  # a parameter (see outline.call_loop)
        block.fn.pack_outputs.append((name, dtype, len(packed), size))
        for row, v in enumerate(packed):
            out_names[id(v)], rows[id(v)] = name, row
    sources = {}
    for a in arrays:
        if id(a) in expanded:
            sources[id(a)] = expanded[id(a)]
            continue
        packed = block.fn.packed.get(id(a)) if isinstance(a, Var) else None
        if plain and packed is not None and isinstance(packed[0], str):  # read p[row, i]
            sources[id(a)], rows[id(a)] = packed
            continue
        name = block.array(a)
        if not name.isidentifier():  # a row of a packed array: one view, before the loop
            view = names.fresh("w")
            block.emit(f"{view} = {name}")
            name = view
        if flat:
            flat_name = names.fresh("f")
            block.emit(f"{flat_name} = np.ravel({name})")
            name = flat_name
        sources[id(a)] = name
    full_shape = {id(a): id(a) in expanded or tuple(
        a.aval.shape if isinstance(a, Var) else a.shape) == shape for a in arrays}
    loop = Loop(block, shape, flat, parallel, sources, out_names, materialize, full_shape,
                bands, rows)
    if rowwise:
        loop.accumulate_rows(total)
    elif total is not None:
        loop.accumulate(total)
    trig = sum(uses_trig(e) for e in eqns) if vector else 0
    if trig:  # arguments beyond the fast reduction's range: counted
        bad = [names.fresh("bad") for _ in range(trig)]  # (one per reduction variable)
        for b in bad:
            block.emit(f"{b} = {loop.counter_init}")
        loop.emit(eqns, "vector", bad)
        block.emit(f"if {' + '.join(b + loop.counter_total for b in bad)}:")
        if names.exact_trig:  # redo the loop with the C library
            loop.emit(eqns, "exact", None, extra=1)
        else:  # the caller switches to the module written with exact_trig (.api)
            block.emit('raise _rt.TrigRangeError("sin/cos argument beyond the vector '
                       'range")', 1)
            names.trig_checked = True
    else:
        loop.emit(eqns, "vector" if vector else "exact", None)
    if rowwise:
        out = total.outvars[0]
        block.bind(out, f"{loop.row_sum}.reshape({shape_text(out.aval.shape)})")
    elif total is not None:
        out, expr = total.outvars[0], loop.total_expr()
        if out.aval.shape:  # (keepdims: the sum of everything in an array of ones' shape)
            expr = f"np.full({shape_text(out.aval.shape)}, {expr}, np.{out.aval.dtype.name})"
        block.bind(out, expr)
    for v in materialize:
        name = out_names[id(v)]
        if id(v) in rows:
            block.fn.packed[id(v)] = (name, rows[id(v)])
            name = f"{name}[{rows[id(v)]}]"
            if len(shape) != 1:
                name = f"{name}.reshape({shape_text(shape)})"
        elif flat and len(shape) != 1:
            reshaped = names.fresh()
            block.emit(f"{reshaped} = {name}.reshape({shape_text(shape)})")
            name = reshaped
        block.env[id(v)] = name
    if separate is not None:
        block.single(separate)


def _expand_broadcasts(block, arrays, shape):
    """Copy the inputs of a loop over ``shape`` that are broadcast into it to arrays of
    its whole shape (C order, flat), so that the loop can run flat: ``{id(input): name}``.

    A loop nest's innermost loop is the one LLVM vectorises; with fewer iterations than
    its vector width times its interleave (W3's softmax over 10 classes) every iteration
    runs in the scalar remainder, and a loop of vector maths is then 4x slower (exp over
    128x10: 9 us nested, 2.4 us flat).  The copies only move data."""
    names = block.fn.names
    index = [f"i{k}" for k in range(len(shape))]
    expanded = {}
    for a in arrays:
        a_shape = tuple(a.aval.shape if isinstance(a, Var) else a.shape)
        if a_shape == shape:
            continue
        dtype = a.aval.dtype if isinstance(a, Var) else a.dtype
        source = block.array(a)
        name = names.fresh("x")
        block.emit(f"{name} = np.empty({int(np.prod(shape))}, np.{dtype.name})")
        for k, d in enumerate(shape):
            block.emit(f"for {index[k]} in range({d}):", k)
        off = len(shape) - len(a_shape)
        parts = ["0" if d == 1 and shape[off + j] != 1 else index[off + j]
                 for j, d in enumerate(a_shape)]
        block.emit(f"{name}[{_flat_index(index, shape)}] = {source}[{', '.join(parts)}]",
                   len(shape))
        expanded[id(a)] = name
    return expanded


class Loop:
    """The loop nest of one fused group (emitted once, or twice with a fallback)."""

    def __init__(self, block, shape, flat, parallel, sources, out_names, materialize,
                 full_shape, bands, rows):
        self.rows = rows  # id(Var) -> row, for arrays that are rows of a packed array
        self.full_shape = full_shape  # id(input) -> does it have the loop's shape
        self.block = block
        self.shape = shape
        self.flat = flat
        self.parallel = parallel
        self.sources = sources
        self.out_names = out_names
        self.materialize = materialize
        self.total = None
        self.bands = bands  # id(constant) -> band(constant): computed, not loaded
        self.counter_init, self.counter_total = "0", ""
        self.row_sum = None  # (accumulate_rows)

    def accumulate_rows(self, eqn):
        """Sum ``eqn.inputs[0]`` (a result of the loop) over its leading axes as the loop
        runs: each row of terms is added into the running sum right after it is made,
        in the order NumPy adds them, so the terms are never read back."""
        self.total = eqn
        x = eqn.inputs[0]
        kept = x.aval.shape[len(eqn.params["axes"]):]
        self.row_sum = self.block.fn.names.fresh("rs")
        self.block.emit(f"{self.row_sum} = np.zeros({int(np.prod(kept))}, "
                        f"np.{x.aval.dtype.name})")

    def accumulate(self, eqn):
        """Sum all of ``eqn.inputs[0]`` (a result of the loop) as the loop runs: the loop
        walks the leaves of NumPy's pairwise summation (``runtime.leaf_plan``) in chunks,
        each leaf's terms staged in a 128-element buffer, so no array of the terms is
        written and the sum has the bits of ``np.sum``."""
        block, names = self.block, self.block.fn.names
        dtype = eqn.outvars[0].aval.dtype
        self.total = eqn
        self.zero = literal(0, dtype)
        self.bounds, self.merges = names.fresh("lb"), names.fresh("mg")
        self.sums, self.chunks = names.fresh("ls"), names.fresh("nc")
        self.c, self.b, self.lo, self.hi, self.buf = (
            names.fresh(p) for p in ("c", "b", "lo", "hi", "buf"))
        block.emit(f"{self.bounds}, {self.merges} = _rt.leaf_plan({int(np.prod(self.shape))})")
        block.emit(f"{self.sums} = np.empty({self.merges}.shape[0], np.{dtype.name})")
        block.emit(f"{self.chunks} = ({self.merges}.shape[0] + {LEAVES_PER_CHUNK - 1}) // "
                   f"{LEAVES_PER_CHUNK}")
        # Counters of out-of-range trig arguments: one per chunk (no race under prange),
        # counted in a scalar of the iteration (a store per term would stop vectorisation).
        self.counter_init = f"np.zeros({self.chunks}, np.int64)"
        self.counter_total = ".sum()"

    def total_expr(self):
        """The accumulated sum, once the loop has run."""
        return f"{self.zero} + _rt.combine_leaves({self.sums}, {self.merges})"

    def _leaf_loops(self, loop, extra, bad):
        """Open the chunk / leaf / term loops of :meth:`accumulate`; the term index is i."""
        block = self.block
        dtype = self.total.outvars[0].aval.dtype
        n, c, b, lo = LEAVES_PER_CHUNK, self.c, self.b, self.lo
        block.emit(f"for {c} in {loop}({self.chunks}):", extra)
        block.emit(f"{self.buf} = np.empty(128, np.{dtype.name})", extra + 1)
        for name in bad or ():
            block.emit(f"{name}_c = 0", extra + 1)
        block.emit(f"for {b} in range({c} * {n}, min({c} * {n} + {n}, "
                   f"{self.merges}.shape[0])):", extra + 1)
        block.emit(f"{lo} = {self.bounds}[{b}]", extra + 2)
        block.emit(f"{self.hi} = {self.bounds}[{b} + 1]", extra + 2)
        # Views of the leaf, indexed from 0: with an index known to be >= 0 Numba emits
        # no wraparound test, and LLVM vectorises the loop (it does not with a[lo + i]).
        views = {}
        for key, name in list(self.sources.items()) + list(self.out_names.items()):
            view = self.block.fn.names.fresh("w")
            row = f"{self.rows[key]}, " if key in self.rows else ""
            block.emit(f"{view} = {name}[{row}{lo}:{self.hi}]", extra + 2)
            views[key] = view
        block.emit(f"for i in range({self.hi} - {lo}):", extra + 2)
        return extra + 3, views

    def _pad(self, eqn, t, index, views, depth):
        operand, updates = eqn.inputs
        block = self.block
        v = block.operand(operand, eqn.outvars[0].aval.dtype)
        spec = eqn.params["spec"]
        off = len(index) - len(spec)  # (a pad is never broadcast into a larger loop)
        inside = " and ".join(f"{e[1]} <= {index[off + k]} < {e[2]}" for k, e in enumerate(spec))
        at = ", ".join(f"{index[off + k]} - {e[1]}" for k, e in enumerate(spec))
        u = f"{views[id(updates)]}[{at}]"
        block.emit(f"{t} = {v}", depth)
        block.emit(f"if {inside}:", depth)
        block.emit(f"{t} = {v} + {u}" if eqn.params["mode"] == "add" else f"{t} = {u}", depth + 1)

    def _close_leaf(self, local, extra, bad):
        block, b, lo = self.block, self.b, self.lo
        block.emit(f"{self.buf}[i] = {local[id(self.total.inputs[0])]}", extra + 3)
        block.emit(f"{self.sums}[{b}] = _rt.leaf_sum({self.buf}, {self.hi} - {lo}, "
                   f"-{self.zero})", extra + 2)
        for name in bad or ():
            block.emit(f"{name}[{self.c}] = {name}_c", extra + 1)

    def emit(self, eqns, mode, bad, extra=0):
        """Write the loop nest computing ``eqns`` in ``mode`` ("vector" or "exact");
        ``bad`` names the counters of trig arguments beyond the vector range, if any."""
        block, shape, names = self.block, self.shape, self.block.fn.names
        loop = "prange" if self.parallel else "range"
        # Loop bounds read from an input's shape where one has the loop's shape: LLVM
        # does not vectorise loops with a constant trip count below 16.
        full = next((key for key in self.sources if self.full_shape.get(key)
                     and (self.flat or key not in self.rows)), None)
        if full is not None:  # (a packed array's first axis is its rows)
            axis = 1 if full in self.rows else 0
            full = self.sources[full]
        views = {**self.sources, **self.out_names}  # id(Var) -> array indexed in the loop
        rows = {k: f"{r}, " for k, r in self.rows.items()}
        all_bad = bad
        if self.total is not None and self.row_sum is None:
            index = ["i"]
            depth, views = self._leaf_loops(loop, extra, bad)
            rows = {}  # (the leaf views are of rows already)
        elif self.flat:
            index = ["i"]
            bound = f"{full}.shape[{axis}]" if full else str(int(np.prod(shape)))
            block.emit(f"for i in {loop}({bound}):", extra)
            depth = extra + 1
        else:
            index = [f"i{k}" for k in range(len(shape))]
            for k, d in enumerate(shape):
                bound = f"{full}.shape[{axis + k}]" if full else str(d)
                block.emit(f"for i{k} in {loop if k == 0 else 'range'}({bound}):", extra + k)
            depth = extra + len(shape)
        local = {}

        def load(x, dtype):
            if isinstance(x, Var) and id(x) in local:
                return cast(local[id(x)], x.aval.dtype, dtype)
            if type(x) is np.ndarray and id(x) in self.bands:
                value, k, lo, hi = self.bands[id(x)]
                t = names.fresh("t")
                block.emit(f"{t} = {literal(value, x.dtype)} if {index[1]} - {index[0]} == {k} "
                           f"and {lo} <= {index[0]} < {hi} else {literal(0, x.dtype)}", depth)
                local[id(x)] = t
                return cast(t, x.dtype, dtype)
            if isinstance(x, Var) and id(x) in block.uniform:
                return block.operand(x, dtype)
            if (isinstance(x, Var) and x.aval.ndim > 0) or type(x) is np.ndarray:
                key = ("load", id(x))
                if key not in local:
                    xshape = x.aval.shape if isinstance(x, Var) else x.shape
                    if self.flat:
                        idx = "i"
                    else:
                        off = len(shape) - len(xshape)
                        parts = ["0" if d == 1 and shape[off + j] != 1 else index[off + j]
                                 for j, d in enumerate(xshape)]
                        idx = _flat_index(parts, xshape) if id(x) in rows else ", ".join(parts)
                    t = names.fresh("t")
                    block.emit(f"{t} = {views[id(x)]}[{rows.get(id(x), '')}{idx}]", depth)
                    local[key] = t
                src_dtype = x.aval.dtype if isinstance(x, Var) else x.dtype
                return cast(local[key], src_dtype, dtype)
            return block.operand(x, dtype)

        for e in eqns:
            t = names.fresh("t")
            if e.prim is scatter_p:  # a pad (see is_pad); never flat: indices known
                self._pad(e, t, index, views, depth)
            else:
                block.emit(f"{t} = {block.scalar_expr(e, load, mode)}", depth)
            local[id(e.outvars[0])] = t
            if bad is not None and uses_trig(e):
                arg = load(e.inputs[0], None)
                counter = bad[0] + ("_c" if self.total is not None else "")
                block.emit(f"{counter} += _vm.trig_bad({arg})", depth)
                bad = bad[1:]
        ix = "i" if self.flat else ", ".join(index)
        written = {}
        for v in self.materialize:
            at = ix if self.flat or id(v) not in rows else _flat_index(index, shape)
            written[id(v)] = f"{views[id(v)]}[{rows.get(id(v), '')}{at}]"
            block.emit(f"{written[id(v)]} = {local[id(v)]}", depth)
        if self.row_sum is not None:
            x, kept = self.total.inputs[0], len(self.total.params["axes"])
            at = f"{self.row_sum}[{_flat_index(index[kept:], shape[kept:])}]"
            if id(x) not in written:
                block.emit(f"{at} += {local[id(x)]}", depth)
            else:  # added from the row just written, in a loop of its own: a second store
                # in the loop that makes the row stops its vectorisation (W3: 9 -> 5.5 us)
                for k in range(kept, len(shape)):
                    bound = f"{full}.shape[{axis + k}]" if full else str(shape[k])
                    block.emit(f"for i{k} in range({bound}):", extra + k)
                block.emit(f"{at} += {written[id(x)]}", depth)
        elif self.total is not None:
            self._close_leaf(local, extra, all_bad)


def _flat_index(parts, shape):
    """The C-order flat index into ``shape`` of the per-axis index texts ``parts``."""
    terms = []
    for j, p in enumerate(parts):
        stride = int(np.prod(shape[j + 1:]))
        if p != "0":
            terms.append(p if stride == 1 else f"{p} * {stride}")
    return " + ".join(terms) or "0"
