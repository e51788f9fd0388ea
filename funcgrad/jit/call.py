"""Compiled graphs and the ``jit_call`` primitive.

:class:`Executable` is a graph optimised, lowered to Numba kernels
(:mod:`funcgrad.jit.lower`) and loaded (:mod:`funcgrad.jit.cache`).  ``jit_call`` is the
primitive a jitted function binds when it meets another transform's tracers (or an eager
Tensor); its parameter is the traced graph, and its rules apply the transform to the
graph's equations (:mod:`funcgrad.jit.derive`), each result itself a graph that is
compiled in turn.
"""
import functools
import warnings

import numpy as np

from .. import tree
from ..core import ConcretizationError, Primitive, TrigRangeError, _special_classes, aval_of
from ..devices import register_gpu
from ..dtypes import float0
from ..interpreters.graph import Graph, Var, eval_graph, muted_effects, without_effects
from .bounds import range_check
from .derive import (as_root, batch_graph, batch_key, derived, holds_graphs, is_float,
                     jvp_graph, out_aval, vjp_joint, vjp_split, zeros)
from .passes import dce, optimize, register_call

__all__ = ["Executable", "compile_graph", "jit_call_p"]

# --- compiled graphs ---------------------------------------------------------------------

class Executable:
    """A compiled graph: ``executable(*inputs)`` returns the list of its outputs."""

    def __init__(self, graph):
        # The compiler's modules load with the first compile (on the background compiler's
        # thread by default), not with the first call, which only traces and evaluates.
        from .cache import make_runner
        from .lower import lower_graph
        self.graph = optimize(graph)
        # Numba has no type for float0 (the derivative of an integer, which stores nothing):
        # such outputs are made here, and the kernels compute the others
        self.float0_shapes = [(i, tuple(out_aval(x).shape))
                              for i, x in enumerate(self.graph.outvars)
                              if out_aval(x).dtype == float0]
        computed = self.graph
        if self.float0_shapes:
            held = {i for i, _ in self.float0_shapes}
            computed = Graph(self.graph.invars, self.graph.eqns,
                             [x for i, x in enumerate(self.graph.outvars) if i not in held])
        self.computed = computed
        self.lowered = lower_graph(computed)
        self.run = make_runner(self.lowered)
        self.consts = tuple(self.lowered.consts)
        self.single = self.lowered.single and not self.float0_shapes
        self.scalars = [(i, a.dtype.type) for i, a in enumerate(self.lowered.out_avals)
                        if not a.shape]
        self.range_check = range_check(self.graph)
        self._compiled = False

    def __call__(self, *inputs):
        if self.range_check is not None:  # Python ints a kernel would wrap: NumPy raises
            self.range_check(inputs)
        return self._run(inputs)

    def compile_on(self, inputs):
        """Compile the kernels by running them once on ``inputs`` (Numba types them from
        their arguments), whatever their values: a Python int out of its range only wraps
        here, and the calls that pass it raise.  (Not a call of the function: the
        debug prints in it stay silent.)"""
        with muted_effects():
            self._run(inputs)

    def _run(self, inputs):
        if not self._compiled:  # the first call compiles: Numba's advice is noise here
            _quiet_numba_advice()
        try:
            out = self.run(*self.consts, *inputs)
        except TrigRangeError:
            if not self.lowered.trig_checked:  # pragma: no cover - never raised there
                raise
            self._with_exact_trig()
            out = self.run(*self.consts, *inputs)
        self._compiled = True
        outs = [out] if self.lowered.single else list(out)
        for i, to_dtype in self.scalars:
            outs[i] = to_dtype(outs[i])
        for i, shape in self.float0_shapes:
            outs.insert(i, np.zeros(shape, float0))
        return outs

    def _with_exact_trig(self):
        """Switch, for good, to the module whose loops redo sin/cos arguments beyond the
        vector maths' range with the C library (a loop without that pass raised
        :class:`TrigRangeError`).  Generated kernels write only arrays they allocate, so
        the call that raised can run again."""
        from .cache import make_runner
        from .lower import lower_graph
        lowered = lower_graph(self.computed, exact_trig=True)
        self.run, self.lowered, self._compiled = make_runner(lowered), lowered, False

    def fast_entry(self, out_tree):
        """The leanest callable from inputs to the function's (pytree) result."""
        run, consts = self.run, self.consts
        if (self.single and not self.scalars and self.range_check is None
                and out_tree.node is None):  # (single: no float0 output to add either)
            return functools.partial(run, *consts) if consts else run
        if self.range_check is None:  # (no argument to check: straight to the kernels)
            run_inputs = self._run
            build = _builder(out_tree)
            if build is not None:
                return lambda *inputs: build(run_inputs(inputs))
            return lambda *inputs: tree.unflatten(out_tree, run_inputs(inputs))
        call = self.__call__
        return lambda *inputs: tree.unflatten(out_tree, call(*inputs))


def _builder(out_tree):
    """A function rebuilding a result of structure ``out_tree`` from its list of leaves,
    written out for trees of tuples, lists and dicts with str or int keys (W3's ``(loss,
    {"W1": ..., ...})``: 0.4 us instead of 4 through :func:`funcgrad.tree.unflatten`);
    None for other trees."""
    count = [0]

    def text(t):
        if t.node is None:
            count[0] += 1
            return f"o[{count[0] - 1}]"
        parts = [text(c) for c in t.children()]
        if t.node is tuple:
            return f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"
        if t.node is list:
            return f"[{', '.join(parts)}]"
        if t.node is dict and all(type(k) in (str, int) for k in t.aux):
            return "{" + ", ".join(f"{k!r}: {p}" for k, p in zip(t.aux, parts)) + "}"
        raise LookupError
    try:
        body = text(out_tree)
    except LookupError:
        return None
    return eval(f"lambda o: {body}", {})  # (the text holds only indices and keys' reprs)


def _quiet_numba_advice():
    """Silence Numba's performance advice (array layouts, ``parallel=True`` with nothing
    to parallelise) about generated code, once per process: a filter rather than
    ``catch_warnings``, which is not thread-safe and compilation may run on a thread."""
    global _quieted
    if not _quieted:
        from numba.core.errors import NumbaPerformanceWarning
        warnings.filterwarnings("ignore", category=NumbaPerformanceWarning)
        _quieted = True


_quieted = False


def compile_graph(graph):
    """The :class:`Executable` of ``graph`` (cached on the graph object)."""
    exe = graph.__dict__.get("_jit_executable")
    if exe is None:
        exe = graph._jit_executable = Executable(graph)
    return exe


# --- the jit_call primitive ------------------------------------------------------------------

def _jit_impl(*args, graph, name):
    return compile_graph(graph)(*args)


def _jit_abstract_eval(*avals, graph, name):
    return [v.aval if isinstance(v, Var) else aval_of(np.asarray(v)) for v in graph.outvars]


def _jit_jvp(primals, tangents, *, graph, name):
    nonzero = tuple(t is not None and is_float(v.aval) for t, v in zip(tangents, graph.invars))
    jgraph, out_nonzero = derived(graph, ("jvp", nonzero), lambda: jvp_graph(graph, nonzero))
    args = list(primals) + [t for t, z in zip(tangents, nonzero) if z]
    outs = jit_call_p.bind(*args, graph=jgraph, name=f"jvp({name})")
    n = len(graph.outvars)
    rest = iter(outs[n:])
    return list(outs[:n]), [next(rest) if z else None for z in out_nonzero]


def _vjp_graphs(graph):
    """Forward ``inputs -> (outputs, residuals)`` and backward ``(residuals, output
    cotangents) -> input cotangents`` graphs, or None when the graph cannot be
    differentiated abstractly (a ``while_loop``'s trip count is only known when it runs)."""
    try:
        joint, float_in, float_out = vjp_joint(graph)
    except ConcretizationError:
        return None
    fwd, bwd = vjp_split(joint, len(graph.invars), len(graph.outvars))
    return fwd, bwd, float_in, float_out


def _jit_reverse_fwd(vals, params):
    graph, name = params["graph"], params["name"]
    split = derived(graph, ("vjp",), lambda: _vjp_graphs(graph))
    if split is None:  # differentiate the equations one by one at backward time
        return list(jit_call_p.bind(*vals, graph=graph, name=name)), None
    outs = jit_call_p.bind(*vals, graph=split[0], name=f"fwd({name})")
    n = len(graph.outvars)
    return list(outs[:n]), list(outs[n:])


def _jit_vjp(needs, cts, outs, *args, graph, name, residuals=None):
    split = derived(graph, ("vjp",), lambda: _vjp_graphs(graph))
    if split is None:
        from ..api import vjp as _vjp_api
        cts = [zeros(out_aval(v)) if c is None else c for c, v in zip(cts, graph.outvars)]
        # (the forward again, its prints already made)
        _, pullback = _vjp_api(lambda *xs: eval_graph(without_effects(graph), *xs), *args)
        grads = pullback(cts)
        return [g if need and is_float(v.aval) else None
                for g, need, v in zip(grads, needs, graph.invars)]
    fwd, bwd, float_in, float_out = split
    if residuals is None or any(type(a) in _special_classes for a in args):
        # Reached without the reverse interpreter's forward, or on the eager Tensor's graph
        # (create_graph=True): the residuals are computed again from the arguments, so
        # that their dependence on them is recorded (the forward's would drop it).
        residuals = _jit_reverse_fwd(args, {"graph": graph, "name": name})[1]
    ct_args = [zeros(out_aval(graph.outvars[i])) if cts[i] is None else cts[i]
               for i in float_out]
    wanted = tuple(i for i in float_in if needs[i])
    if len(wanted) < len(float_in):
        # Only the cotangents asked for: grad(jit(loss))(w, data) must not build the
        # data's (as large as the data) to throw it away.
        bwd = derived(graph, ("vjp_bwd", wanted), lambda: dce(Graph(
            list(bwd.invars), list(bwd.eqns),
            [o for i, o in zip(float_in, bwd.outvars) if needs[i]])))
    in_cts = jit_call_p.bind(*residuals, *ct_args, graph=bwd, name=f"bwd({name})")
    result = [None] * len(args)
    for i, c in zip(wanted, in_cts):
        result[i] = c
    return result


def _jit_batch(args, dims, *, graph, name):
    from ..primitives.structural import moveaxis
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    batched = tuple(d is not None for d in dims)
    moved = [moveaxis(a, d, 0) if d is not None else a for a, d in zip(args, dims)]
    bgraph, out_batched = derived(graph, batch_key("batch", batched, size),
                                  lambda: batch_graph(graph, batched, size))
    outs = jit_call_p.bind(*moved, graph=bgraph, name=f"vmap({name})")
    return list(outs), [0 if b else None for b in out_batched]


jit_call_p = Primitive("jit_call", _jit_impl, abstract_eval=_jit_abstract_eval, jvp=_jit_jvp,
                       vjp=_jit_vjp, batch=_jit_batch, reverse_fwd=_jit_reverse_fwd,
                       multiple_results=True)
register_call(jit_call_p, lambda eqn: eqn.params["graph"])  # (inlined where it is nested)
holds_graphs(jit_call_p)


def _jit_eval_impl(*args, graph, name):
    """Any device: the graph's equations one by one (the compiled kernels are CPU code)."""
    return as_root(eval_graph, graph, *args)


register_gpu({jit_call_p: _jit_eval_impl})
