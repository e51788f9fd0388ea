"""Derived graphs: a transform applied to a graph's equations, traced into a new graph.

The rules of every primitive that holds graphs (``jit_call``, ``cond``, ``scan``,
``while_loop``) work the same way: run the graph with
:func:`~funcgrad.interpreters.graph.eval_graph` under the transform (forward mode,
reverse mode, batching) inside an abstract trace, and bind the primitive again on the
graph that comes out.  Nothing is special-cased, so the derivative of a graph is exactly
the derivative of its equations, and the new graph can be compiled, transformed again,
or nested.
"""
import numpy as np

from ..core import ROOT, ShapedArray, aval_of, run_under
from ..interpreters.batching import (NAMED_AXIS_RULES, BatchInterpreter, BatchTracer,
                                     batching_axis_name, graph_batch_rule)
from ..interpreters.forward import JVPInterpreter, JVPTracer
from ..interpreters.graph import Graph, Var, eval_graph
from ..interpreters.reverse import ReverseInterpreter, ReverseTracer, backward_pass
from .passes import closure_convert, dce
from .trace import trace_flat

__all__ = ["out_aval", "is_float", "fit", "zeros", "jvp_graph", "vjp_joint", "vjp_split",
           "batch_graph", "batch_key", "holds_graphs", "derived", "as_root"]


def as_root(fn, *args):
    """``fn(*args)`` with the root as the current interpreter.  An ``impl`` may be called
    while a transform is still current (reverse mode calls kernels directly); an impl that
    evaluates a graph on concrete values wants its operations computed, not offered to
    that transform again."""
    return run_under(ROOT, fn, *args)


def out_aval(x):
    """The abstract value of a graph output (a Var or a constant)."""
    return x.aval if isinstance(x, Var) else aval_of(np.asarray(x))


def is_float(aval):
    """Whether ``aval`` carries derivatives: float or complex (not int or bool)."""
    return aval.dtype.kind in "fc"


def zeros(aval):
    return np.zeros(aval.shape, aval.dtype)


def fit(value, aval):
    """``value`` with exactly ``aval``'s shape and dtype (for tangents and cotangents)."""
    from ..primitives.structural import broadcast_to, convert_element_type
    if getattr(value, "dtype", None) != aval.dtype:
        value = convert_element_type(value, aval.dtype)
    if tuple(getattr(value, "shape", ())) != aval.shape:
        value = broadcast_to(value, aval.shape)
    return value


def derived(graph, key, build):
    """``build()``, memoised on ``graph`` under ``key`` (derived graphs are reused)."""
    cache = graph.__dict__.setdefault("_derived_graphs", {})
    if key not in cache:
        cache[key] = build()
    return cache[key]


def _closed(graph):
    closed, tracers = closure_convert(graph)
    if tracers:  # pragma: no cover - derived graphs only see their own inputs
        raise AssertionError("a derived graph captured a tracer of another transform")
    return closed


def jvp_graph(graph, nonzero, instantiate=None):
    """Forward mode of ``graph``: ``(primals, tangents of the nonzero inputs) ->
    (outputs, tangents of the nonzero outputs)``.  ``instantiate[i]`` forces output
    ``i`` to have a tangent (zeros when it has none).  Returns ``(graph, out_nonzero)``."""
    n = len(graph.invars)
    avals = [v.aval for v in graph.invars] + [v.aval for v, z in zip(graph.invars, nonzero)
                                              if z]
    instantiate = instantiate or (False,) * len(graph.outvars)
    out_nonzero = []

    def fun(*xs):
        primals, tangents = xs[:n], iter(xs[n:])
        interp = JVPInterpreter()
        with interp:
            duals = [JVPTracer(interp, p, next(tangents)) if z else p
                     for p, z in zip(primals, nonzero)]
            outs = eval_graph(graph, *duals)
        values, touts = [], []
        for o, v, force in zip(outs, graph.outvars, instantiate):
            aval = out_aval(v)
            if type(o) is JVPTracer and o._trace is interp:
                values.append(o.primal)
                touts.append(fit(o.tangent, aval))
                out_nonzero.append(True)
            else:
                values.append(o)
                if force:
                    touts.append(zeros(aval))
                out_nonzero.append(bool(force))
        return values + touts

    return _closed(trace_flat(fun, avals, "jit")), tuple(out_nonzero)


def vjp_joint(graph, with_outputs=True):
    """Reverse mode of ``graph`` as one graph: ``(inputs, cotangents of the float
    outputs) -> ([outputs,] cotangents of the float inputs)``, the forward recomputed
    inside.  Returns ``(graph, float_in, float_out)`` (positions of float inputs/outputs)."""
    n = len(graph.invars)
    float_in = tuple(i for i, v in enumerate(graph.invars) if is_float(v.aval))
    float_out = tuple(i for i, v in enumerate(graph.outvars) if is_float(out_aval(v)))
    avals = [v.aval for v in graph.invars] + [out_aval(graph.outvars[i]) for i in float_out]

    def joint(*xs):
        args, cts = list(xs[:n]), xs[n:]
        interp = ReverseInterpreter()
        with interp:
            for i in float_in:
                args[i] = interp.new_input(args[i])
            outs = eval_graph(graph, *args)
        values = [o.value if type(o) is ReverseTracer and o._trace is interp else o
                  for o in outs]
        seeds = [(outs[i], ct) for i, ct in zip(float_out, cts)
                 if type(outs[i]) is ReverseTracer and outs[i]._trace is interp]
        in_cts = backward_pass(interp.tape, seeds, [args[i] for i in float_in])
        in_cts = [zeros(graph.invars[i].aval) if c is None else fit(c, graph.invars[i].aval)
                  for i, c in zip(float_in, in_cts)]
        return (values if with_outputs else []) + in_cts

    return _closed(trace_flat(joint, avals, "jit")), float_in, float_out


def vjp_split(joint, n_in, n_out):
    """Partial evaluation of a joint graph (from :func:`vjp_joint`): equations that do not
    depend on a cotangent form the forward ``inputs -> (outputs, residuals)``, the others
    the backward ``(residuals, cotangents) -> input cotangents``."""
    ct_vars = joint.invars[n_in:]
    unknown = {id(v) for v in ct_vars}
    fwd_eqns, bwd_eqns = [], []
    for eqn in joint.eqns:
        if any(isinstance(x, Var) and id(x) in unknown for x in eqn.inputs):
            bwd_eqns.append(eqn)
            unknown.update(id(v) for v in eqn.outvars)
        else:
            fwd_eqns.append(eqn)
    residuals, seen = [], set()

    def residual(x):
        if isinstance(x, Var) and id(x) not in unknown and id(x) not in seen:
            seen.add(id(x))
            residuals.append(x)

    for eqn in bwd_eqns:
        for x in eqn.inputs:
            residual(x)
    for x in joint.outvars[n_out:]:
        residual(x)
    fwd = dce(Graph(joint.invars[:n_in], fwd_eqns, list(joint.outvars[:n_out]) + residuals))
    bwd = dce(Graph(residuals + list(ct_vars), bwd_eqns, list(joint.outvars[n_out:])))
    return fwd, bwd


def holds_graphs(prim):
    """Declare ``prim`` a primitive holding graphs that its batch rule batches with
    :func:`batch_graph`: the rule then runs knowing the vmap axis's name, so the
    collectives inside the graphs (``psum(x, "i")`` in a ``scan`` body) reduce over it."""
    NAMED_AXIS_RULES[prim] = graph_batch_rule(prim.batch)


def batch_key(*key):
    """A key for :func:`derived` of a graph batched by :func:`batch_graph`: the same
    graph batched along a named axis and along another differ where it holds collectives."""
    return key + (batching_axis_name(),)


def batch_graph(graph, batched, size, instantiate=None):
    """Batching of ``graph``: inputs flagged in ``batched`` carry a leading batch axis of
    ``size``; outputs come out batched along axis 0 or unbatched (``instantiate[i]``
    forces output ``i`` to be batched).  The axis is the named one of the vmap whose rule
    runs (see :func:`holds_graphs`).  Returns ``(graph, out_batched)``."""
    avals = [ShapedArray((size,) + v.aval.shape, v.aval.dtype) if b else v.aval
             for v, b in zip(graph.invars, batched)]
    instantiate = instantiate or (False,) * len(graph.outvars)
    out_batched = []
    axis_name = batching_axis_name()

    def fun(*xs):
        from ..primitives.structural import broadcast_to, moveaxis, reshape
        interp = BatchInterpreter(size, axis_name=axis_name)
        with interp:
            tracers = [BatchTracer(interp, x, 0) if b else x for x, b in zip(xs, batched)]
            outs = eval_graph(graph, *tracers)
        results = []
        for o, v, force in zip(outs, graph.outvars, instantiate):
            if type(o) is BatchTracer and o._trace is interp:
                # (in the graph's dtype: a batched weakly typed input, a tangent of a
                # Python float under vmap, is an array and promotes strongly)
                results.append(fit(moveaxis(o.value, o.batch_dim, 0),
                                   ShapedArray((size,) + out_aval(v).shape, out_aval(v).dtype)))
                out_batched.append(True)
            elif force:
                aval = out_aval(v)
                o = fit(o, aval)
                results.append(broadcast_to(reshape(o, (1,) + aval.shape), (size,) + aval.shape))
                out_batched.append(True)
            else:
                results.append(o)
                out_batched.append(False)
        return results

    return _closed(trace_flat(fun, avals, "jit")), tuple(out_batched)
