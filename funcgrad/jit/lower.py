"""Lowering: a Graph becomes the source of a Python module of Numba kernels.

The equations are split into *segments*: runs of equations Numba can compile become one
``@njit`` function each; an equation it cannot (LAPACK routines, advanced indexing,
scatter, a reduction order NumPy would not use...) is called from Python through the
primitive's own ``impl``, so an unsupported operation costs speed, never correctness.
When every equation lowers, the whole graph is one kernel and calling it is one Numba
call.

Inside a kernel, elementwise equations (and the broadcasts and casts between them) with
the same result shape are *fused*: one loop computes them all, element by element, in
local scalars; only values needed outside the loop are written to arrays.  Large loops
use ``prange`` when ``fg.set_num_threads`` allows more than one thread (the kernel is
then compiled with ``parallel=True``).  A sum of all of a loop's result is accumulated by
that loop, leaf by leaf of NumPy's pairwise summation; other reductions call helpers in
:mod:`funcgrad.jit.runtime` that sum in NumPy's own order (pairwise along a contiguous
axis).  Either way a jitted sum has the bits of the eager one.  ``matmul`` becomes
``np.dot`` (BLAS), and ``cond``/``scan``/``while_loop`` become Python ``if``/``for``/
``while`` around their lowered bodies.

Floating-point choices: no ``fastmath`` (no
reassociation, NaN and signed-zero semantics kept); each elementwise operation computes
in its output dtype, so float32 stays float32 and every intermediate is rounded as in
the eager path; scalar constants are converted to the operation's dtype as NumPy does.
Transcendental functions come from the C library, which may differ from NumPy's SIMD
versions in the last bit (at most about 1 ulp each).
"""
import itertools
import os

import numpy as np

from ..core import REGISTRY, aval_of
from ..interpreters.graph import Eqn, Graph, Var
from ..primitives import scalar as sc
from .elementwise import KERNEL_DTYPES as _KERNEL_DTYPES
from .elementwise import Writer, computation_dtypes, is_elementwise, uses_trig, uses_vector_math
from .passes import graph_consts, optimize, subgraphs

__all__ = ["lower_graph", "Lowered"]

PARALLEL_THRESHOLD = int(os.environ.get("FUNCGRAD_JIT_PARALLEL_THRESHOLD", 1 << 16))


def _threads():
    """The thread setting of funcgrad's kernels (``fg.set_num_threads``), read when a
    signature is compiled: with one thread loops are ``range``, never ``prange`` (on a
    machine with two CPUs or fewer that is the default; a parallel loop waits for its
    slowest thread, and under load one thread descheduled made W5 10x slower)."""
    from ..kernels.cpu import _lazy
    return _lazy.config.threads


# Matrix products below this many multiply-adds run inside kernels (np.dot: Numba's BLAS,
# single-threaded at these sizes); larger ones are NumPy calls between kernels, on NumPy's
# BLAS, as in eager code: two multithreaded OpenBLAS pools in one process (NumPy's and the
# one Numba calls through SciPy) fight over the cores and can be 10-50x slower.
BLAS_IN_KERNEL_MAX = int(os.environ.get("FUNCGRAD_JIT_BLAS_IN_KERNEL_MAX", 1 << 18))
# Numba reaches BLAS through SciPy: without SciPy, np.dot inside a kernel aborts the
# process ("BLAS wrapper returned with an error"), so matrix products stay NumPy calls.
try:
    import importlib.util as _importlib_util
    _NUMBA_HAS_BLAS = _importlib_util.find_spec("scipy") is not None
except (ImportError, ValueError):  # pragma: no cover
    _NUMBA_HAS_BLAS = False
# Vectorisable exp/log/log1p/sin/cos/tanh (funcgrad.kernels.cpu.vmath) in fused loops; 0:
# the C library.
VECTOR_MATH = os.environ.get("FUNCGRAD_JIT_VECTOR_MATH", "1") != "0"
# At most this many vector-math calls per fused loop: compile time grows faster than
# linearly with the size of a loop's body (a 200-sin chain: 23 s in one loop).
MAX_FUSED_MATH = int(os.environ.get("FUNCGRAD_JIT_MAX_FUSED_MATH", 24))
# Below this many elements a loop with more vector-math calls than that uses the C library
# instead (in one loop): its compile time would outweigh any saving.
VECTOR_MATH_MIN_SIZE = 64

_SCALARS = (bool, int, float)
_F64 = np.dtype(np.float64)
_I64 = np.dtype(np.int64)
_BOOL = np.dtype(np.bool_)


def _dtype_of(x):
    return x.aval.dtype if isinstance(x, Var) else np.result_type(x)


# --- literals and casts ---------------------------------------------------------------

_literal = sc.literal


def _cast(expr, src, dst):
    if dst is None or src == dst:
        return expr
    if dst.kind == "b":
        return f"({expr} != 0)"
    return f"np.{dst.name}({expr})"


# --- which equations a kernel can compute -----------------------------------------------

def _float_dtype(d):
    return d in (np.dtype(np.float32), _F64)


def _reduce_pattern(shape, axes):
    """How NumPy orders a sum over ``axes``: "all", "trailing", "leading", "none" or None.

    Axes of length 1 do not count (NumPy's iterator drops them)."""
    dims = [(d, i in axes) for i, d in enumerate(shape) if d != 1]
    flags = [r for _, r in dims]
    if not any(flags):
        return "none"
    if all(flags):
        return "all"
    k = flags.index(True)
    if all(flags[k:]) and not any(flags[:k]):
        return "trailing"
    k = flags.index(False)
    if all(flags[:k]) and not any(flags[k:]):
        return "leading"
    return None


def _avals_ok(eqn):
    for x in list(eqn.inputs) + list(eqn.outvars):
        if isinstance(x, Var) and x.aval.dtype not in _KERNEL_DTYPES:
            return False
        if isinstance(x, np.ndarray) and x.dtype not in _KERNEL_DTYPES:
            return False
        if isinstance(x, complex):
            return False
    return True


def can_lower(eqn):
    """Can a kernel compute ``eqn`` (exactly as the primitive's impl would)?"""
    name = eqn.prim.name
    if is_elementwise(eqn):
        return True
    if not _avals_ok(eqn):
        return False
    ins = [x.aval if isinstance(x, Var) else aval_of(np.asarray(x)) for x in eqn.inputs]
    outs = [v.aval for v in eqn.outvars]
    p = eqn.params
    if name in ("reduce_sum", "reduce_max", "reduce_min"):
        x = ins[0]
        if not isinstance(eqn.inputs[0], Var):
            return False
        if any(x.shape[a] == 0 for a in p["axes"]):
            return name == "reduce_sum" and outs[0].dtype.kind in "fiu" and x.size == 0
        if name == "reduce_sum":
            if outs[0].dtype.kind not in "fiu":
                return False
            return _reduce_pattern(x.shape, p["axes"]) is not None
        return x.dtype.kind in "fiu"
    if name == "matmul":
        a, b = ins
        return (_NUMBA_HAS_BLAS and all(isinstance(x, Var) for x in eqn.inputs)
                and a.dtype == b.dtype
                and _float_dtype(a.dtype) and 1 <= a.ndim <= 2 and 1 <= b.ndim <= 2
                and 0 not in a.shape and 0 not in b.shape
                and a.size * (b.shape[-1] if b.ndim == 2 else 1) < BLAS_IN_KERNEL_MAX)
    if name in ("reshape", "transpose"):
        return isinstance(eqn.inputs[0], Var)
    if name == "gather":
        return (len(eqn.inputs) == 1 and isinstance(eqn.inputs[0], Var)
                and all(e[0] in "sin" for e in p["spec"]) and ins[0].ndim > 0)
    if name == "scatter":  # x.at[basic index].set/add/multiply: a copy and a slice update
        return (len(eqn.inputs) == 2 and isinstance(eqn.inputs[0], Var) and ins[0].ndim > 0
                and p["mode"] in _SLICE_UPDATE
                and all(e[0] in "si" for e in p["spec"])
                and (isinstance(eqn.inputs[1], Var) or ins[1].ndim == 0))
    if name == "concatenate":
        return all(isinstance(x, Var) and x.aval.ndim > 0 for x in eqn.inputs)
    if name == "split":
        return isinstance(eqn.inputs[0], Var)
    if name in ("cond", "scan", "while_loop"):
        return all(_graph_lowerable(g) for g in subgraphs(eqn)) and all(
            isinstance(x, (Var, np.generic) + _SCALARS) or type(x) is np.ndarray
            for x in eqn.inputs)
    return False


# The scatter modes a slice assignment computes, by its operator.
_SLICE_UPDATE = {"set": "=", "add": "+=", "multiply": "*="}


def _graph_lowerable(graph):
    return all(can_lower(e) for e in expand(optimize(graph)).eqns)


# --- decompositions: primitives written as other primitives --------------------------------

def _logsumexp_eqns(eqn):
    """``logsumexp`` as its impl computes it: max, shift, exp, sum, log, add."""
    x = eqn.inputs[0]
    axes, keepdims = eqn.params["axes"], eqn.params["keepdims"]
    if not isinstance(x, Var) or x.aval.dtype.kind != "f" or any(
            x.aval.shape[a] == 0 for a in axes):
        return None
    P = REGISTRY
    eqns = []

    def emit(prim, inputs, **params):
        out = P[prim].abstract_eval(*[v.aval if isinstance(v, Var) else v for v in inputs],
                                    **params)
        var = Var(out)
        eqns.append(Eqn(P[prim], list(inputs), params, [var]))
        return var

    m = emit("reduce_max", [x], axes=axes, keepdims=True)
    shift = emit("where", [emit("isfinite", [m]), m, 0])
    total = emit("reduce_sum", [emit("exp", [emit("subtract", [x, shift])])], axes=axes,
                 keepdims=True)
    out = emit("add", [emit("log", [total]), shift])
    if not keepdims:
        out = emit("reshape", [out], shape=eqn.outvars[0].aval.shape)
    eqns[-1] = Eqn(eqns[-1].prim, eqns[-1].inputs, eqns[-1].params, eqn.outvars)
    return eqns


_EXPANSIONS = {"logsumexp": _logsumexp_eqns}


def expand(graph):
    """``graph`` with decomposable primitives replaced by the primitives they are made of."""
    if not any(e.prim.name in _EXPANSIONS for e in graph.eqns):
        return graph
    eqns = []
    for eqn in graph.eqns:
        rule = _EXPANSIONS.get(eqn.prim.name)
        new = rule(eqn) if rule is not None else None
        eqns.extend(new if new is not None else [eqn])
    return Graph(graph.invars, eqns, graph.outvars)


# --- the module being written ------------------------------------------------------------

class Lowered:
    """The lowering of one graph.

    ``kernel_source`` is a module of ``@njit`` kernels (cached on disk, shared by every
    graph that lowers to the same text); ``driver_source`` defines ``run(*consts,
    *inputs)``, which computes the graph's outputs (a tuple, or the value itself when
    ``single``) by calling the kernels and ``python_calls`` (the fallbacks, by name).
    ``consts`` are the constant arrays.
    """

    def __init__(self, kernel_source, driver_source, consts, python_calls, single, out_avals,
                 kernels):
        self.kernel_source = kernel_source
        self.driver_source = driver_source
        self.consts = consts
        self.python_calls = python_calls
        self.single = single
        self.out_avals = out_avals
        self.kernels = kernels

    def as_text(self):
        """The generated source: the kernel module, then the Python driver ``run``."""
        text = self.kernel_source
        if self.driver_source != "run = kernel0\n":
            calls = "".join(f"# {name}: {fn.__name__}\n" for name, fn in
                            self.python_calls.items())
            text += ("\n" if text else "") + "# driver (plain Python)\n" + calls + \
                self.driver_source
        return text


class _Names:
    """Fresh names for one generated module, and its writer of elementwise code (which
    collects the helper functions the module defines)."""

    def __init__(self):
        self.counter = itertools.count()
        self.writer = Writer(VECTOR_MATH)

    def fresh(self, prefix="v"):
        return f"{prefix}{next(self.counter)}"


class _Function:
    """One ``@njit`` kernel being written."""

    def __init__(self, names, consts):
        self.names = names
        self.consts = consts  # id(array) -> parameter name (shared by the module)
        self.lines = []
        self.parallel = False
        self.used_consts = {}

    def emit(self, indent, text):
        self.lines.append("    " * indent + text)

    def const(self, array):
        name = self.consts[id(array)]
        self.used_consts[name] = array
        return name


def _shape_text(shape):
    return "(" + "".join(f"{d}, " for d in shape).rstrip(" ") + ")"


class _Block:
    """Lowers a list of equations into statements of a kernel.

    ``env`` maps ``id(Var)`` to the name holding its value (a Numba array, or a scalar
    for 0-d values).
    """

    def __init__(self, fn, env, indent):
        self.fn = fn
        self.env = env
        self.indent = indent

    def emit(self, text, extra=0):
        self.fn.emit(self.indent + extra, text)

    # operands -----------------------------------------------------------------------
    def operand(self, x, dtype=None):
        """Source text of a scalar operand ``x`` converted to ``dtype``."""
        if isinstance(x, Var):
            return _cast(self.env[id(x)], x.aval.dtype, dtype)
        if isinstance(x, (_SCALARS, np.generic)):
            return _literal(x, dtype if dtype is not None else np.result_type(x))
        raise AssertionError("an array operand where a scalar is needed")

    def array(self, x):
        """Source text of an array operand (a name)."""
        if isinstance(x, Var):
            shape = getattr(self, "uniform", {}).get(id(x))
            if shape is not None:  # a broadcast scalar: materialised on first use
                key = ("array", id(x))
                if key not in self.env:
                    name = self.fn.names.fresh()
                    self.emit(f"{name} = np.full({_shape_text(shape)}, {self.env[id(x)]}, "
                              f"np.{x.aval.dtype.name})")
                    self.env[key] = name
                return self.env[key]
            return self.env[id(x)]
        return self.fn.const(x)

    # the block ----------------------------------------------------------------------------
    def lower(self, eqns, outputs):
        """Emit ``eqns``; ``outputs`` are the Vars needed after the block."""
        units, uniform = _fuse(eqns)
        self.uniform = getattr(self, "uniform", {})
        self.uniform.update(uniform)
        self.outputs = {id(v) for v in outputs if isinstance(v, Var)}
        self.uses = {}
        for unit in units:
            for eqn in (unit if isinstance(unit, list) else [unit]):
                for x in eqn.inputs:
                    if isinstance(x, Var):
                        self.uses.setdefault(id(x), set()).add(id(unit))
        for unit in units:
            if isinstance(unit, list):
                self.group(unit)
            else:
                self.single(unit)
        for v in outputs:  # values leaving the block are arrays, not broadcast scalars
            if isinstance(v, Var) and id(v) in self.uniform:
                self.env[id(v)] = self.array(v)

    def group(self, eqns):
        """One fused loop for elementwise equations of one result shape (or, for 0-d
        results and scalars broadcast to a shape, plain scalar statements)."""
        names = self.fn.names
        if all(id(e.outvars[0]) in self.uniform or not e.outvars[0].aval.shape for e in eqns):
            for e in eqns:
                name = names.fresh()
                self.emit(f"{name} = {self.scalar_expr(e, self.operand, 'scalar')}")
                self.env[id(e.outvars[0])] = name
            return
        unit_id = id(eqns)
        total = None  # a sum of all of one result, accumulated by the loop (see _fuse)
        if eqns[-1].prim.name == "reduce_sum":
            total, eqns = eqns[-1], eqns[:-1]
        shape = eqns[0].outvars[0].aval.shape
        inside = {id(v) for e in eqns for v in e.outvars}
        materialize = [e.outvars[0] for e in eqns
                       if id(e.outvars[0]) in self.outputs
                       or self.uses.get(id(e.outvars[0]), set()) - {unit_id}]
        size = int(np.prod(shape))
        self.emit(f"# fused: {', '.join(e.prim.name for e in eqns)} over {_shape_text(shape)}")
        arrays = []  # array inputs from outside the loop
        for e in eqns:
            for x in e.inputs:
                is_array = (isinstance(x, Var) and id(x) not in inside and x.aval.ndim > 0
                            and id(x) not in self.uniform) or type(x) is np.ndarray
                if is_array and not any(x is a for a in arrays):
                    arrays.append(x)
        # Band constants (the shifted identities of jacfwd's basis, after slicing) are
        # computed from the loop indices instead of read from memory.
        bands = {id(a): _band(a) for a in arrays
                 if type(a) is np.ndarray and a.shape == shape and len(shape) == 2}
        bands = {k: b for k, b in bands.items() if b is not None}
        arrays = [a for a in arrays if id(a) not in bands]
        pads = any(e.prim.name == "scatter" for e in eqns)  # index arithmetic: not flat
        flat = not bands and not pads and all(
            tuple(np.shape(a) if not isinstance(a, Var) else a.aval.shape) == shape
            for a in arrays)
        separate = None
        if total is not None and not flat:  # broadcast inputs: sum the materialised array
            if not any(v is total.inputs[0] for v in materialize):
                materialize.append(total.inputs[0])
            separate, total = total, None
        parallel = size >= PARALLEL_THRESHOLD and _threads() > 1
        if parallel:
            self.fn.parallel = True
        out_names = {}
        for v in materialize:
            name = names.fresh()
            out_names[id(v)] = name
            alloc = f"({size},)" if flat else _shape_text(shape)
            self.emit(f"{name} = np.empty({alloc}, np.{v.aval.dtype.name})")
        sources = {}
        for a in arrays:
            name = self.array(a)
            if flat:
                flat_name = names.fresh("f")
                self.emit(f"{flat_name} = np.ravel({name})")
                name = flat_name
            sources[id(a)] = name
        full_shape = {id(a): tuple(a.aval.shape if isinstance(a, Var) else a.shape) == shape
                      for a in arrays}
        loop = _Loop(self, shape, flat, parallel, sources, out_names, materialize, full_shape)
        loop.bands = bands
        if total is not None:
            loop.accumulate(total)
        heavy = sum(uses_vector_math(e) for e in eqns)
        vector = VECTOR_MATH and (size >= VECTOR_MATH_MIN_SIZE or heavy <= MAX_FUSED_MATH)
        trig = sum(uses_trig(e) for e in eqns) if vector else 0
        if trig:  # arguments beyond the fast reduction's range: redo with the C library
            bad = [names.fresh("bad") for _ in range(trig)]  # (one per reduction variable)
            for b in bad:
                self.emit(f"{b} = {loop.counter_init}")
            loop.emit(eqns, "vector", bad)
            self.emit(f"if {' + '.join(b + loop.counter_total for b in bad)}:")
            loop.emit(eqns, "exact", None, extra=1)
        else:
            loop.emit(eqns, "vector" if vector else "exact", None)
        if total is not None:
            self.bind(total.outvars[0], loop.total_expr())
        for v in materialize:
            name = out_names[id(v)]
            if flat and len(shape) != 1:
                reshaped = names.fresh()
                self.emit(f"{reshaped} = {name}.reshape({_shape_text(shape)})")
                name = reshaped
            self.env[id(v)] = name
        if separate is not None:
            self.single(separate)

    def scalar_expr(self, eqn, load, mode):
        """The expression of an elementwise equation; ``mode`` is "vector" (inside a
        loop: vectorisable math), "exact" (the C library) or "scalar" (outside loops)."""
        args = [load(x, c) for x, c in zip(eqn.inputs, computation_dtypes(eqn))]
        return self.fn.names.writer.expression(eqn, args, mode)

    # single (non-fused) equations --------------------------------------------------------
    def single(self, eqn):
        getattr(self, "op_" + eqn.prim.name)(eqn)

    def bind(self, var, expr):
        name = self.fn.names.fresh()
        self.emit(f"{name} = {expr}")
        self.env[id(var)] = name
        return name

    def _value(self, x):
        """A Var's value as an array expression or a scalar name."""
        return self.array(x)

    def op_reduce_sum(self, eqn):
        self._reduce(eqn, "sum")

    def op_reduce_max(self, eqn):
        self._reduce(eqn, "max")

    def op_reduce_min(self, eqn):
        self._reduce(eqn, "min")

    def _reduce(self, eqn, kind):
        x = eqn.inputs[0]
        out = eqn.outvars[0].aval
        axes = eqn.params["axes"]
        src = self.array(x)
        shape = x.aval.shape
        if not shape:
            self.bind(eqn.outvars[0], _cast(src, x.aval.dtype, out.dtype))
            return
        if kind == "sum" and x.aval.dtype != out.dtype:
            src = f"{src}.astype(np.{out.dtype.name})"
        if any(shape[a] == 0 for a in axes):  # an empty sum
            self.bind(eqn.outvars[0], f"np.zeros({_shape_text(out.shape)}, np.{out.dtype.name})"
                      if out.shape else _literal(0, out.dtype))
            return
        kept = [i for i in range(len(shape)) if i not in axes]
        m = int(np.prod([shape[i] for i in kept]))
        r = int(np.prod([shape[i] for i in axes]))
        zero = _literal(0, out.dtype)
        contiguous = f"np.ascontiguousarray({src})"
        if kind == "sum":
            pattern = _reduce_pattern(shape, axes)
            if pattern == "none":
                expr = f"{contiguous}.reshape({_shape_text(out.shape)})" if out.shape else \
                    f"np.ravel({src})[0]"
            elif pattern == "all":
                expr = f"_rt.sum_all({src}, {zero})"
            elif pattern == "trailing":
                expr = f"_rt.sum_rows({contiguous}.reshape(({m}, {r})), {zero})"
            else:
                expr = f"_rt.sum_leading({contiguous}.reshape(({r}, {m})), {zero})"
        else:
            perm = kept + list(axes)
            moved = src if perm == list(range(len(shape))) else \
                f"np.transpose({src}, {_shape_text(perm)})"
            expr = f"_rt.{kind}_rows(np.ascontiguousarray({moved}).reshape(({m}, {r})))"
        if expr.startswith("_rt.sum_all"):  # a scalar
            self.bind(eqn.outvars[0], expr if not out.shape else
                      f"np.full({_shape_text(out.shape)}, {expr}, np.{out.dtype.name})")
        elif not out.shape:
            self.bind(eqn.outvars[0], expr if expr.endswith("[0]") else f"{expr}[0]")
        elif expr.endswith(f".reshape({_shape_text(out.shape)})"):
            self.bind(eqn.outvars[0], expr)
        else:
            self.bind(eqn.outvars[0], f"{expr}.reshape({_shape_text(out.shape)})")

    def op_matmul(self, eqn):
        # (Numba's np.dot is slow on transposed, Fortran-ordered operands: copy them.)
        a, b = (f"np.ascontiguousarray({self.array(x)})" for x in eqn.inputs)
        self.bind(eqn.outvars[0], f"np.dot({a}, {b})")

    def op_reshape(self, eqn):
        x = eqn.inputs[0]
        src = self.array(x)
        shape = eqn.params["shape"]
        out = eqn.outvars[0].aval
        if not x.aval.shape:
            self.bind(eqn.outvars[0], src if not shape else
                      f"np.full({_shape_text(shape)}, {src}, np.{out.dtype.name})")
        elif not shape:
            self.bind(eqn.outvars[0], f"np.ravel({src})[0]")
        else:
            self.bind(eqn.outvars[0],
                      f"np.ascontiguousarray({src}).reshape({_shape_text(shape)})")

    def op_transpose(self, eqn):
        src = self.array(eqn.inputs[0])
        self.bind(eqn.outvars[0], f"np.transpose({src}, {_shape_text(eqn.params['perm'])})")

    def op_gather(self, eqn):
        src = self.array(eqn.inputs[0])
        self.bind(eqn.outvars[0], f"{src}[{self._basic_index(eqn.params['spec'])}]")

    def _basic_index(self, spec):
        parts = []
        for e in spec:
            if e[0] == "s":
                start, stop, step = e[1:]
                if step < 0 and stop < 0:
                    stop = None
                parts.append(f"{start}:{'' if stop is None else stop}:{step}")
            elif e[0] == "i":
                parts.append(str(e[1]))
            else:
                parts.append("None")
        return ", ".join(parts)

    def op_scatter(self, eqn):
        operand, updates = eqn.inputs
        out = eqn.outvars[0].aval
        dtype = f"np.{out.dtype.name}"
        if id(operand) in self.uniform:  # scattering into zeros: no copy of a broadcast
            target = self.bind(eqn.outvars[0], f"np.full({_shape_text(out.shape)}, "
                                                f"{self.env[id(operand)]}, {dtype})")
        else:
            target = self.bind(eqn.outvars[0], f"{self.array(operand)}.astype({dtype})")
        if isinstance(updates, Var) and updates.aval.ndim:
            value = self.array(updates)
        else:
            value = self.operand(updates, out.dtype)
        op = _SLICE_UPDATE[eqn.params["mode"]]
        self.emit(f"{target}[{self._basic_index(eqn.params['spec'])}] {op} {value}")

    def op_concatenate(self, eqn):
        out = eqn.outvars[0].aval.dtype
        parts = []
        for x in eqn.inputs:
            src = self.array(x)
            parts.append(src if x.aval.dtype == out else f"{src}.astype(np.{out.name})")
        self.bind(eqn.outvars[0], f"np.concatenate(({', '.join(parts)},), "
                                  f"axis={eqn.params['axis']})")

    def op_split(self, eqn):
        src = self.array(eqn.inputs[0])
        axis = eqn.params["axis"]
        ndim = eqn.inputs[0].aval.ndim
        edges = (0,) + tuple(eqn.params["bounds"]) + (eqn.inputs[0].aval.shape[axis],)
        for v, lo, hi in zip(eqn.outvars, edges[:-1], edges[1:]):
            index = [":"] * ndim
            index[axis] = f"{lo}:{hi}"
            self.bind(v, f"{src}[{', '.join(index)}]")

    # control flow ------------------------------------------------------------------------
    def sub_block(self, graph, inputs, indent):
        """Lower ``graph`` applied to ``inputs`` (source texts) at ``indent``; returns
        the texts of its outputs (names or literals)."""
        graph = expand(optimize(graph))
        env = dict(self.env)
        for v, text in zip(graph.invars, inputs):
            env[id(v)] = text
        block = _Block(self.fn, env, indent)
        block.lower(graph.eqns, graph.outvars)
        outs = []
        for x in graph.outvars:
            if isinstance(x, Var):
                outs.append(env[id(x)])
            elif type(x) is np.ndarray:
                outs.append(self.fn.const(x))
            else:
                outs.append(_literal(x, np.result_type(x)))
        return outs

    def _input_texts(self, inputs):
        texts = []
        for x in inputs:
            if isinstance(x, Var):
                texts.append(self.array(x) if x.aval.ndim else self.env[id(x)])
            elif type(x) is np.ndarray:
                texts.append(self.fn.const(x))
            else:
                texts.append(_literal(x, np.result_type(x)))
        return texts

    def _typed(self, text, aval):
        """``text`` converted to exactly ``aval``'s dtype (for variables assigned on
        several paths, which Numba needs to have one type)."""
        if aval.shape:
            return text
        return f"np.{aval.dtype.name}({text})" if aval.dtype != _BOOL else f"bool({text})"

    def op_cond(self, eqn):
        index, *operands = self._input_texts(eqn.inputs)
        branches = eqn.params["branches"]
        outs = [self.fn.names.fresh() for _ in eqn.outvars]
        idx = self.fn.names.fresh("k")
        n = len(branches)
        self.emit(f"{idx} = min(max(int({index}), 0), {n - 1})")
        for k, graph in enumerate(branches):
            head = "if" if k == 0 else "elif"
            self.emit(f"{head} {idx} == {k}:" if k < n - 1 else "else:")
            results = self.sub_block(graph, operands, self.indent + 1)
            for name, text, v in zip(outs, results, eqn.outvars):
                self.emit(f"{name} = {self._typed(text, v.aval)}", 1)
            if not eqn.outvars:
                self.emit("pass", 1)
        for name, v in zip(outs, eqn.outvars):
            self.env[id(v)] = name

    def op_scan(self, eqn):
        p = eqn.params
        body, length, reverse = p["body"], p["length"], p["reverse"]
        nc, nk = p["num_consts"], p["num_carry"]
        texts = self._input_texts(eqn.inputs)
        consts, init, xs = texts[:nc], texts[nc:nc + nk], texts[nc + nk:]
        names = self.fn.names
        carry = [names.fresh("c") for _ in range(nk)]
        for name, text, v in zip(carry, init, eqn.outvars[:nk]):
            self.emit(f"{name} = {self._typed(text, v.aval)}")
        ys = []
        for v in eqn.outvars[nk:]:
            name = names.fresh("ys")
            self.emit(f"{name} = np.empty({_shape_text(v.aval.shape)}, np.{v.aval.dtype.name})")
            ys.append(name)
        k = names.fresh("k")
        rng = f"range({length} - 1, -1, -1)" if reverse else f"range({length})"
        self.emit(f"for {k} in {rng}:")
        xk = []
        for text, var in zip(xs, body.invars[nc + nk:]):
            name = names.fresh("x")
            self.emit(f"{name} = {text}[{k}]", 1)
            xk.append(name)
        results = self.sub_block(body, consts + carry + xk, self.indent + 1)
        new = [names.fresh("n") for _ in range(nk)]
        for name, text, v in zip(new, results[:nk], eqn.outvars[:nk]):
            self.emit(f"{name} = {self._typed(text, v.aval)}", 1)
        for name, text in zip(ys, results[nk:]):  # (before the carry, which they may read)
            self.emit(f"{name}[{k}] = {text}", 1)
        for name, n in zip(carry, new):
            self.emit(f"{name} = {n}", 1)
        for name, v in zip(carry + ys, eqn.outvars):
            self.env[id(v)] = name

    def op_while_loop(self, eqn):
        p = eqn.params
        cond, body = p["cond"], p["body"]
        nc, nb = p["cond_nconsts"], p["body_nconsts"]
        texts = self._input_texts(eqn.inputs)
        cconsts, bconsts, init = texts[:nc], texts[nc:nc + nb], texts[nc + nb:]
        names = self.fn.names
        carry = [names.fresh("c") for _ in init]
        for name, text, v in zip(carry, init, eqn.outvars):
            self.emit(f"{name} = {self._typed(text, v.aval)}")
        self.emit("while True:")
        pred, = self.sub_block(cond, cconsts + carry, self.indent + 1)
        self.emit(f"if not {pred}:", 1)
        self.emit("break", 2)
        results = self.sub_block(body, bconsts + carry, self.indent + 1)
        new = [names.fresh("n") for _ in carry]
        for name, text, v in zip(new, results, eqn.outvars):
            self.emit(f"{name} = {self._typed(text, v.aval)}", 1)
        for name, n in zip(carry, new):
            self.emit(f"{name} = {n}", 1)
        for name, v in zip(carry, eqn.outvars):
            self.env[id(v)] = name


class _Loop:
    """The loop nest of one fused group (emitted once, or twice with a fallback)."""

    def __init__(self, block, shape, flat, parallel, sources, out_names, materialize,
                 full_shape):
        self.full_shape = full_shape  # id(input) -> does it have the loop's shape
        self.block = block
        self.shape = shape
        self.flat = flat
        self.parallel = parallel
        self.sources = sources
        self.out_names = out_names
        self.materialize = materialize
        self.total = None
        self.bands = {}  # id(constant) -> _band(constant): computed, not loaded
        self.counter_init, self.counter_total = "0", ""

    def accumulate(self, eqn):
        """Sum all of ``eqn.inputs[0]`` (a result of the loop) as the loop runs: the loop
        walks the leaves of NumPy's pairwise summation (``runtime.leaf_plan``) in chunks,
        each leaf's terms staged in a 128-element buffer, so no array of the terms is
        written and the sum has the bits of ``np.sum``."""
        block, names = self.block, self.block.fn.names
        dtype = eqn.outvars[0].aval.dtype
        self.total = eqn
        self.zero = _literal(0, dtype)
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
            block.emit(f"{view} = {name}[{lo}:{self.hi}]", extra + 2)
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
        block, shape, names = self.block, self.shape, self.block.fn.names
        loop = "prange" if self.parallel else "range"
        # Loop bounds read from an input's shape where one has the loop's shape: LLVM
        # does not vectorise loops with a constant trip count below 16.
        full = next((name for key, name in self.sources.items()
                     if self.full_shape.get(key)), None)
        views = {**self.sources, **self.out_names}  # id(Var) -> array indexed in the loop
        all_bad = bad
        if self.total is not None:
            index = ["i"]
            depth, views = self._leaf_loops(loop, extra, bad)
        elif self.flat:
            index = ["i"]
            bound = f"{full}.shape[0]" if full else str(int(np.prod(shape)))
            block.emit(f"for i in {loop}({bound}):", extra)
            depth = extra + 1
        else:
            index = [f"i{k}" for k in range(len(shape))]
            for k, d in enumerate(shape):
                bound = f"{full}.shape[{k}]" if full else str(d)
                block.emit(f"for i{k} in {loop if k == 0 else 'range'}({bound}):", extra + k)
            depth = extra + len(shape)
        local = {}

        def load(x, dtype):
            if isinstance(x, Var) and id(x) in local:
                return _cast(local[id(x)], x.aval.dtype, dtype)
            if type(x) is np.ndarray and id(x) in self.bands:
                value, k, lo, hi = self.bands[id(x)]
                t = names.fresh("t")
                block.emit(f"{t} = {_literal(value, x.dtype)} if {index[1]} - {index[0]} == {k} "
                           f"and {lo} <= {index[0]} < {hi} else {_literal(0, x.dtype)}", depth)
                local[id(x)] = t
                return _cast(t, x.dtype, dtype)
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
                        idx = ", ".join("0" if d == 1 and shape[off + j] != 1 else index[off + j]
                                        for j, d in enumerate(xshape))
                    t = names.fresh("t")
                    block.emit(f"{t} = {views[id(x)]}[{idx}]", depth)
                    local[key] = t
                src_dtype = x.aval.dtype if isinstance(x, Var) else x.dtype
                return _cast(local[key], src_dtype, dtype)
            return block.operand(x, dtype)

        for e in eqns:
            t = names.fresh("t")
            if e.prim.name == "scatter":  # a pad (see _is_pad); never flat: indices known
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
        for v in self.materialize:
            block.emit(f"{views[id(v)]}[{ix}] = {local[id(v)]}", depth)
        if self.total is not None:
            self._close_leaf(local, extra, all_bad)


def _fuse(eqns):
    """``(units, uniform)``: units in emission order (a list of equations is one fused
    loop, an Eqn stands alone) and the *uniform* values (elementwise results of scalars
    only, i.e. a scalar broadcast to a shape: computed once, never stored as arrays).

    A fused group collects elementwise equations of one result shape; it is emitted
    (closed) as soon as something outside it needs one of its results, so its inputs are
    always computed before its loop and its results after it.
    """
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
        fusible = is_elementwise(eqn) or _is_pad(eqn, uniform)
        shape = None
        if fusible:
            shape = eqn.outvars[0].aval.shape
            if all((not x.aval.shape or id(x) in uniform) if isinstance(x, Var)
                   else type(x) is not np.ndarray for x in eqn.inputs):
                if shape:
                    uniform[id(eqn.outvars[0])] = shape
                shape = ()  # computed as a scalar
        summed = None if fusible else _summed_group(eqn, producer, open_groups)
        for x in eqn.inputs:
            if isinstance(x, Var):
                group = producer.get(id(x))
                if group is not None and group is not summed and \
                        (not fusible or group is not open_groups.get(shape)):
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
        if group is not None and heavy and weight[id(group)] >= MAX_FUSED_MATH and \
                int(np.prod(shape)) >= VECTOR_MATH_MIN_SIZE:
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


def _is_pad(eqn, uniform):
    """``full(shape, v).at[window].add(u)`` (or ``.set``): a scatter into a broadcast
    scalar through unit-step slices -- the VJP of slicing.  A fused loop computes it
    element by element (``v + u[i - start]`` inside the window, ``v`` outside) instead of
    writing the padded array."""
    if eqn.prim.name != "scatter" or len(eqn.inputs) != 2 or len(eqn.outvars) != 1:
        return False
    operand, updates = eqn.inputs
    out = eqn.outvars[0].aval
    spec = eqn.params["spec"]
    return (eqn.params["mode"] in ("add", "set") and isinstance(operand, Var)
            and id(operand) in uniform and isinstance(updates, Var)
            and out.dtype.kind == "f" and out.dtype in _KERNEL_DTYPES
            and operand.aval.dtype == out.dtype and updates.aval.dtype == out.dtype
            and len(spec) == out.ndim == updates.aval.ndim > 0
            and all(e[0] == "s" and e[3] == 1 and 0 <= e[1] <= e[2] <= d
                    for e, d in zip(spec, out.shape))
            and updates.aval.shape == tuple(e[2] - e[1] for e in spec))


LEAVES_PER_CHUNK = 64  # leaves (<= 128 terms each) per iteration of a summing loop
BAND_MIN_SIZE = 1024  # smaller constants are cheaper to read than to test for


def _band(c):
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


FUSED_SUM_MIN_SIZE = 129  # up to 128 terms NumPy's pairwise sum is one leaf: no gain


def _fusible_sum(eqn):
    """Is ``eqn`` a sum of all elements that a fused loop can accumulate, bit for bit as
    ``np.sum`` of the materialised array (same dtype, pairwise order)?"""
    if eqn.prim.name != "reduce_sum" or not isinstance(eqn.inputs[0], Var):
        return False
    x, out = eqn.inputs[0].aval, eqn.outvars[0].aval
    return (x.dtype == out.dtype and _float_dtype(x.dtype) and x.size >= FUSED_SUM_MIN_SIZE
            and _reduce_pattern(x.shape, eqn.params["axes"]) == "all")


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


# --- segments: kernels and Python calls --------------------------------------------------

def _schedule(eqns):
    """Split equations into segments ("numba", [eqns]) and ("python", eqn), running every
    kernel-able equation as early as its inputs allow so that kernels are few."""
    lowerable = [can_lower(e) for e in eqns]
    defined_by = {}
    for i, e in enumerate(eqns):
        for v in e.outvars:
            defined_by[id(v)] = i
    deps = [{defined_by[id(x)] for x in e.inputs if isinstance(x, Var) and id(x) in defined_by}
            for e in eqns]
    done = set()
    pending = list(range(len(eqns)))
    segments = []
    while pending:
        batch = []
        progress = True
        while progress:  # all kernel equations whose inputs are ready
            progress = False
            rest = []
            for i in pending:
                if lowerable[i] and deps[i] <= done:
                    batch.append(i)
                    done.add(i)
                    progress = True
                else:
                    rest.append(i)
            pending = rest
        if batch:
            segments.append(("numba", [eqns[i] for i in sorted(batch)]))
        ready = [i for i in pending if not lowerable[i] and deps[i] <= done]
        for i in ready:
            segments.append(("python", eqns[i]))
            done.add(i)
        pending = [i for i in pending if i not in done]
        if not batch and not ready and pending:  # pragma: no cover - graphs are acyclic
            raise AssertionError("cyclic graph")
    return segments


def _python_call(eqn):
    prim, params, template = eqn.prim, eqn.params, list(eqn.inputs)
    slots = [i for i, x in enumerate(template) if isinstance(x, Var)]

    def call(*values):
        args = list(template)
        for i, v in zip(slots, values):
            args[i] = v
        return prim.impl(*args, **params)

    call.__name__ = f"impl_{prim.name}"
    return call


def lower_graph(graph, name="f"):
    """Lower a graph (already optimised by :func:`passes.optimize`) to a :class:`Lowered`."""
    graph = expand(graph)
    names = _Names()
    originals = graph_consts(graph)
    const_names = {id(c): f"const{i}" for i, c in enumerate(originals)}
    # C order once, at compile time (a transposed constant would be copied by every call).
    consts = [np.ascontiguousarray(c) for c in originals]
    in_names = [f"a{i}" for i in range(len(graph.invars))]
    segments = _schedule(graph.eqns)
    out_avals = [x.aval if isinstance(x, Var) else aval_of(np.asarray(x))
                 for x in graph.outvars]
    single = len(graph.outvars) == 1

    # Which values each segment needs from before it, and leaves for after it.
    later_uses = []
    used = {id(x) for x in graph.outvars if isinstance(x, Var)}
    for kind, seg in reversed(segments):
        later_uses.append(set(used))
        for e in (seg if kind == "numba" else [seg]):
            used.update(id(x) for x in e.inputs if isinstance(x, Var))
    later_uses.reverse()

    var_names = {id(v): n for v, n in zip(graph.invars, in_names)}
    header = ["# generated by funcgrad.jit", "import math", "import numpy as np",
              "from numba import njit, prange", "from funcgrad.jit import runtime as _rt",
              "from funcgrad.kernels.cpu import leaves as _lf",
              "from funcgrad.kernels.cpu import vmath as _vm", ""]
    body = []
    driver = []
    python_calls = {}
    kernels = []
    for (kind, seg), after in zip(segments, later_uses):
        if kind == "python":
            call_name = f"_py{len(python_calls)}"
            python_calls[call_name] = _python_call(seg)
            args = ", ".join(var_names[id(x)] for x in seg.inputs if isinstance(x, Var))
            outs = []
            for v in seg.outvars:
                n = names.fresh()
                var_names[id(v)] = n
                outs.append(n)
            target = ", ".join(outs) + ("," if seg.prim.multiple_results else "")
            driver.append(f"    {target} = {call_name}({args})")
            continue
        kname = f"kernel{len(kernels)}"
        kernels.append(kname)
        fn = _Function(names, const_names)
        defined = {id(v) for e in seg for v in e.outvars}
        params = []
        for e in seg:
            for x in e.inputs:
                if isinstance(x, Var) and id(x) not in defined and id(x) in var_names and \
                        var_names[id(x)] not in params:
                    params.append(var_names[id(x)])
        if len(segments) == 1:
            params = list(in_names)  # the whole graph: the kernel is `run`
        env = {}
        prologue = []
        param_vars = {n: None for n in params}
        for v in graph.invars:
            n = var_names[id(v)]
            if n in param_vars:
                param_vars[n] = v
        for e in seg:
            for x in e.inputs:
                if isinstance(x, Var) and id(x) in var_names and var_names[id(x)] in param_vars:
                    param_vars[var_names[id(x)]] = x
        for n, v in param_vars.items():
            if v is None:
                continue
            if v.aval.ndim == 0:
                local = names.fresh("s")
                prologue.append(f"    {local} = _rt.scalar({n})")
                env[id(v)] = local
            else:
                env[id(v)] = n
        block = _Block(fn, env, 1)
        outputs = [v for e in seg for v in e.outvars if id(v) in after]
        block.lower(seg, outputs)
        if len(segments) == 1:
            results = []
            for x in graph.outvars:
                if isinstance(x, Var):
                    results.append(env[id(x)])
                elif type(x) is np.ndarray:  # a copy: the caller may write to it
                    results.append(f"{fn.const(x)}.copy()")
                else:
                    results.append(_literal(x, np.result_type(x)))
        else:
            results = [env[id(v)] for v in outputs]
        const_params = sorted(fn.used_consts, key=lambda s: int(s[len("const"):]))
        if len(segments) == 1:
            const_params = [f"const{i}" for i in range(len(consts))]
        all_params = const_params + params
        opts = 'cache=True, error_model="numpy", nogil=True'
        if fn.parallel:
            opts += ", parallel=True"
        body.append(f"@njit({opts})")
        body.append(f"def {kname}({', '.join(all_params)}):")
        body.extend(prologue)
        body.extend(fn.lines)
        if len(segments) == 1 and single:
            body.append(f"    return {results[0]}")
        else:
            body.append(f"    return ({', '.join(results)}{',' if len(results) == 1 else ''})")
        body.append("")
        if len(segments) > 1:
            outs = []
            for v in outputs:
                n = names.fresh()
                var_names[id(v)] = n
                outs.append(n)
            target = ", ".join(outs) + ("," if len(outs) == 1 else "")
            call = f"{kname}({', '.join(const_params + params)})"
            driver.append(f"    {target} = {call}" if outs else f"    {call}")
            for v in outputs:
                if v.aval.ndim == 0 and v.aval.dtype not in (_F64, _I64, _BOOL):
                    n = var_names[id(v)]
                    driver.append(f"    {n} = np.{v.aval.dtype.name}({n})")

    kernel_source = ("\n".join(header) + names.writer.helper_source() + "\n"
                     + "\n".join(body) + "\n") if kernels else ""
    if len(segments) == 1 and segments[0][0] == "numba":
        driver_source = "run = kernel0\n"
    else:
        results = []
        for x in graph.outvars:
            if isinstance(x, Var):
                results.append(var_names[id(x)])
            elif type(x) is np.ndarray:
                results.append(f"{const_names[id(x)]}.copy()")
            else:
                results.append(_literal(x, np.result_type(x)))
        head = ", ".join([f"const{i}" for i in range(len(consts))] + in_names)
        lines = [f"def run({head}):"] + driver
        if single:
            lines.append(f"    return {results[0]}")
        else:
            lines.append(f"    return ({', '.join(results)}{',' if len(results) == 1 else ''})")
        driver_source = "\n".join(lines) + "\n"
    return Lowered(kernel_source, driver_source, consts, python_calls, single, out_avals,
                   kernels)
