"""The CPU kernels of an elementwise primitive, generated from its declaration
(:mod:`._elementwise`): its forward pass (the scalar definition compiled on arrays, or
NumPy's ufunc with a generated float64 loop) and its fused first-order VJP rules (each
linear rule captured on scalars and compiled into one pass), and ``build_kernels``, which
makes them all ahead of time (``fg.warmup``).

>>> import numpy as np
>>> from funcgrad.primitives import elementwise as ew
>>> rule = ew.sin_p.elementwise.fused_rule(0, np.dtype(np.float64))
>>> rule.reads  # what sin's rule g * cos(x) reads of (g, x, out)
(0, 1)
"""
from operator import itemgetter

import numpy as np

from ..kernels import cpu
from ..kernels.cpu import leaves as cpu_leaves
from ..kernels.cpu.generated import scalar_kernel
from . import scalar as sc
from .structural import broadcast_to_p, convert_element_type_p, reshape_p

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)


class FusedRule:
    """A generated first-order kernel: ``kernel`` (a name for :func:`funcgrad.kernels.cpu.apply`)
    reads ``reads``, positions in ``(g, *args, out)``."""

    __slots__ = ("reads", "kernel", "small", "pick")

    def __init__(self, reads, kernel):
        self.reads, self.kernel = reads, kernel
        self.small = None  # the kernel's ufunc for small arrays, once used
        # the operands, in order, out of (g, *args, out): a tuple even for one of them
        self.pick = itemgetter(*reads) if len(reads) > 1 else lambda e, k=reads[0]: (e[k],)


def _used_inputs(graph):
    """Positions of the graph's inputs that its equations or outputs read."""
    ids = {id(v): k for k, v in enumerate(graph.invars)}
    used = {ids[id(x)] for eqn in graph.eqns for x in eqn.inputs if id(x) in ids}
    used |= {ids[id(v)] for v in graph.outvars if id(v) in ids}
    return used


# --- generating kernels -------------------------------------------------------------------------

def _cpu_emitter(vector, checked_ok):
    """Writes scalar code for the CPU: ``V.<leaf>`` (vectorised, :mod:`vmath`) where
    ``vector`` and one exists (sin/cos only where ``checked_ok``), else ``F.<leaf>``."""
    def leaf(name, dtype):
        fast = (vector and name in cpu_leaves.VECTOR and np.dtype(dtype).kind == "f"
                and (checked_ok or name not in cpu_leaves.CHECKED))
        return f"V.{name}" if fast else f"F.{name}"
    return sc.Emitter(leaf, sc.literal, sc.cast)


def _graph_leaves(graph):
    """Every leaf the equations of a captured graph call, and the inputs of the ones that
    hold only in a range (sin, cos)."""
    names, checked = set(), set()
    for eqn in graph.eqns:
        decl = eqn.prim.elementwise
        if decl is None:
            continue
        used = sc.leaves_of(sc.body_for(decl.scalar, sc.eqn_compute(eqn)[1]))
        names |= used
        if used & cpu_leaves.CHECKED:
            checked.add(id(eqn.inputs[0]))
    return names, checked


def kernel_for_graph(graph, dtype, display=None):
    """``(kernel name, reads)``: the generated CPU kernel computing a captured graph of
    elementwise equations, reading only the inputs it uses; None where a loop would be
    slower than NumPy's passes (a leaf NumPy vectorises and Numba does not)."""
    for eqn in graph.eqns:
        decl = eqn.prim.elementwise
        if (decl is None and eqn.prim not in _SCALAR_IDENTITY) or any(
                v.aval.shape for v in eqn.outvars) or any(
                not hasattr(x, "aval") and np.ndim(x) for x in eqn.inputs):
            return None
        if decl is not None and sc.body_for(decl.scalar, sc.eqn_compute(eqn)[1]) is None:
            return None
    leaves, checked = _graph_leaves(graph)
    if leaves - cpu_leaves.VECTOR - cpu_leaves.INLINE:
        return None
    reads = sorted(_used_inputs(graph))
    params = {id(graph.invars[k]): f"x{j}" for j, k in enumerate(reads)}
    args = [params.get(id(v), "None") for v in graph.invars]
    inputs = {id(graph.invars[k]) for k in reads}
    checked_arg = None
    if len(checked) == 1 and checked <= inputs:
        checked_arg = reads.index(next(k for k in reads if id(graph.invars[k]) in checked))
    vector_lines, result = _cpu_emitter(True, checked_arg is not None).graph(graph, args, dtype)
    vector_lines.append(f"r = {result}")
    exact_lines = None
    if checked_arg is not None:
        exact_lines, result = _cpu_emitter(False, False).graph(graph, args, dtype)
        exact_lines.append(f"r = {result}")
    name = scalar_kernel(vector_lines, len(reads), exact_lines, checked_arg or 0, display)
    return name, tuple(reads)


# structural primitives that are the identity (or a cast) on one element: a rule's fit
_SCALAR_IDENTITY = frozenset({broadcast_to_p, convert_element_type_p, reshape_p})


def _build_fused(decl, i, dtype):
    lin = decl.lins[i]
    if lin is None:
        return None
    try:
        graph = sc.capture(lin, len(decl.lins) + 2, dtype)
    except NotImplementedError:  # a derivative that raises when asked for (zeta's in x)
        return None
    except TypeError:  # a rule that calls a primitive on integer arguments (sph_harm_y's
        return None    # orders), which a capture with every argument a float cannot run
    if len(graph.eqns) < 2 or len(graph.outvars) != 1:
        decl.fusable[i] = False
        return None
    built = kernel_for_graph(graph, dtype, f"the derivative of {decl.prim.name}")
    if built is None:
        return None
    name, reads = built
    return FusedRule(reads, name)


def _build_fused_sum(decl, dtype):
    """The generated kernel of ``acc + lin(g, x, out)`` for a unary primitive: its
    cotangent added into the one its argument has so far, in one pass (a value read twice,
    ``sin(y) * 0.5 + y * 0.9``, sums two cotangents: the sum's own pass and its array
    saved).  The same arithmetic as the rule's kernel followed by the sum, so the same
    bits (the kernels contract no product into a fused multiply-add).  ``reads`` are
    positions in ``(acc, g, x, out)``; None where a loop would be slower than NumPy's
    passes (see kernel_for_graph) or the rule cannot be captured."""
    lin = decl.lins[0]
    if len(decl.lins) != 1 or lin is None:
        return None

    def summed(acc, g, x, out):
        return acc + lin(g, x, out)
    try:
        graph = sc.capture(summed, 4, dtype)
    except (NotImplementedError, TypeError):  # (as _build_fused)
        return None
    built = kernel_for_graph(graph, dtype, f"the derivative of {decl.prim.name}, summed")
    if built is None:
        return None
    name, reads = built
    return FusedRule(reads, name)


# --- the eager CPU computation ------------------------------------------------------------------

def _cpu_impl(decl):
    if decl.vector_forward:
        return _vector_forward(decl)
    if decl.cpu_kernel is not None:
        return decl.cpu_kernel
    return _generated_forward(decl)


def _forward_kernel(decl, dtype):
    """The generated kernel of the primitive itself (its scalar definition on arrays)."""
    prim = decl.prim
    graph = sc.capture(lambda *xs: prim.bind(*xs), _arity(decl), dtype)
    built = kernel_for_graph(graph, dtype, prim.name)
    if built is None:  # a C-library leaf: still one loop, on the exact leaves
        lines, result = _cpu_emitter(False, False).graph(graph, [f"x{k}" for k in range(
            _arity(decl))], dtype)
        return scalar_kernel(lines + [f"r = {result}"], _arity(decl), display=prim.name)
    return built[0]


def _arity(decl):
    return len(decl.lins)


def _generated_forward(decl):
    """A NumPy ufunc generated from the scalar definition: its float64 loop built on the
    first call, its float32 loop too on the first call NumPy would send to it (the
    incomplete gamma function's each took ~4 s to compile, cold).  NumPy casts other
    dtypes to one of them."""
    both = []  # (once the float32 loop is built)

    def impl(*args):
        if both:
            return decl._forward(*args)
        if _float32_loop(args):
            both.append(True)
            dtypes = (_F32, _F64)
        elif decl._forward is not None:
            return decl._forward(*args)
        else:
            dtypes = (_F64,)
        decl._forward = cpu.float_ufunc({dt: _forward_kernel(decl, dt) for dt in dtypes},
                                        decl.prim.name)
        return decl._forward(*args)
    return impl


def _float32_loop(args):
    """Would NumPy pick a float32 loop (of float32 and float64 ones) for ``args``: some
    argument has a dtype and each one's casts safely to float32, and a Python float
    (weak: it follows the arrays) meets a float array, not only integers (then float64)?
    NumPy takes a Python bool as a bool."""
    typed = floats = weak_float = False
    for a in args:
        dtype = np.dtype(bool) if type(a) is bool else getattr(a, "dtype", None)
        if dtype is None:
            weak_float = weak_float or isinstance(a, float)
        elif not np.can_cast(dtype, _F32):
            return False
        else:
            typed, floats = True, floats or dtype.kind == "f"
    return typed and (floats or not weak_float)


def _vector_forward(decl):
    """The primitive's impl becomes, on the first array, NumPy's ufunc with its float64
    loop generated on :mod:`vmath` (every other dtype keeps NumPy's loop): no Python runs
    between the primitive and NumPy's dispatch.  With more than one thread allowed, a
    wrapper that sends large arrays to the multithreaded loop instead; a change of the
    thread setting re-chooses on the next call."""
    prim, numpy_ufunc = decl.prim, decl.cpu_kernel
    generated = []  # the kernel's name, generated once: calls come here until it has loaded

    def first_call(x, *args, **params):
        if getattr(x, "size", 0) < cpu.config.ufunc_min:
            return numpy_ufunc(x, *args, **params)
        if not generated:
            generated.append(_forward_kernel(decl, _F64))
        kernel = generated[0]
        impl = cpu.vector_forward(kernel, numpy_ufunc)
        if impl is None:  # loading in the background: the kernel's NumPy twin meanwhile
            return cpu.forward_twin(kernel, numpy_ufunc, x, *args, **params)
        prim.impl = impl
        return impl(x, *args, **params)
    cpu.on_thread_change(lambda: setattr(prim, "impl", first_call))
    return first_call


def build_kernels(dtypes=("float64", "float32"), progress=None):
    """Generate every elementwise primitive's kernels now (``fg.warmup``): its fused rules
    for each float dtype, and its forward kernel where it has one.  ``progress(done,
    total)`` after each primitive."""
    from ..core import REGISTRY
    prims = list(REGISTRY.values())
    for done, prim in enumerate(prims):
        if progress is not None:
            progress(done, len(prims))
        decl = prim.elementwise
        if decl is None:
            continue
        for dt in map(np.dtype, dtypes):
            if dt in (_F32, _F64) and prim.differentiable:
                for i in range(len(decl.lins)):
                    decl.fused_rule(i, dt)
        if decl.vector_forward or decl.cpu_kernel is None:
            with np.errstate(all="ignore"):
                for dt in map(np.dtype, dtypes):  # (zeta, betainc: 2 and 3 inputs)
                    prim.impl(*[np.ones(2, dt)] * len(decl.lins))
    if progress is not None:
        progress(len(prims), len(prims))
