"""The ``custom_call`` primitive: every custom rule (``custom_jvp``, ``custom_vjp``,
``Function``, ``checkpoint``) binds it, with the user's functions in its parameter
``rule`` (a :class:`CustomRule`), and its own rules run those functions under whatever
interpreter is current.
"""
import numpy as np

from ..kernels._broadcast import broadcast_shapes
from .. import tree
from ..core import (WEAK_TYPES, Primitive, ShapedArray, Tracer, _special_classes, _state,
                    aval_of, is_special, run_under, stands_for_tensor)
from ..errors import ArgumentMismatchError, ForwardModeUndefinedError
from ..devices import register_gpu
from ..numpy._convert import asarray
from ._eager import eager_tensor_type, present, unwrap_output
from ._guard import StagedCaptures, explain_rule_errors, guarded

__all__ = ["CustomRule", "CallSite", "custom_call_p", "as_operand", "with_entries",
           "fit_shape", "fit_tangents", "jvp_of", "vjp_of"]


class CustomRule:
    """The user's functions for one call site, on flat lists of arrays:

    * ``fun(*xs) -> outs``                                   the value;
    * ``jvp(primals, tangents) -> (outs, tangent_outs)``     forward mode (optional);
    * ``fwd(*xs) -> (outs, residuals)`` and ``bwd(residuals, cotangents) -> cts``
      reverse mode (optional).

    With ``guard=True`` each runs guarded against traced values it captured instead of
    receiving (see :mod:`funcgrad.custom._guard`).  ``node_class``: the class of the node
    the eager tape records for the call (a :class:`~funcgrad.Function`'s ``MyExpBackward``),
    None for the tape's plain node.
    """

    node_class = None
    # Its functions were written for eager Tensors (a Function applied to Tensors):
    # wherever they run on plain arrays or are traced, their inputs stand for Tensors, so
    # that PyTorch's methods mean the same under every transform as eagerly.
    tensors = False

    def __init__(self, name, fun, jvp=None, fwd=None, bwd=None, guard=True,
                 strict_tangents=False):
        wrap = (lambda fn: guarded(fn, name)) if guard else (lambda fn: fn)
        self.name = name
        # custom_jvp's rules (JAX's contract): a tangent that states a dtype must state
        # its output's; see fit_tangents.
        self.strict_tangents = strict_tangents
        self.fun = wrap(fun)
        self.jvp = wrap(jvp)
        self.fwd = wrap(fwd)
        self.bwd = wrap(bwd)

    def __repr__(self):
        return self.name


# --- what the rules hand back, checked --------------------------------------------------------

def as_operand(x):
    """A leaf as ``custom_call`` takes it: tracers and the values the root interpreter
    hands to a handler (eager Tensors, whose tape then records the call, GPU arrays) as
    they are, anything else as an array."""
    if isinstance(x, Tracer) or type(x) in _special_classes:
        return x
    return asarray(x)


def with_entries(values, positions, entries):
    """A list of ``values`` with ``entries`` at ``positions``."""
    full = list(values)
    for i, x in zip(positions, entries):
        full[i] = x
    return full


def _zeros_like(x):
    return np.zeros(getattr(x, "shape", ()), getattr(x, "dtype", np.float64))


def _is_inexact(x):
    """Floating-point or complex: the values that carry derivatives."""
    return np.dtype(getattr(x, "dtype", np.float64)).kind in "fc"


def fit_shape(value, shape, mismatch):
    """``value`` as an operand of ``shape``, broadcast if it broadcasts to it; otherwise
    ValueError with the message ``mismatch(value_shape)``."""
    from ..primitives.structural import broadcast_to
    value = as_operand(value)
    if tuple(value.shape) == shape:
        return value
    try:
        fits = broadcast_shapes(tuple(value.shape), shape) == shape
    except ValueError:  # not broadcastable at all
        fits = False
    if not fits:
        raise ArgumentMismatchError(mismatch(tuple(value.shape)))
    return broadcast_to(value, shape)


def fit_tangents(outs, touts, name, fill=False, strict=False):
    """Tangent outputs of a user JVP rule, checked against the primal outputs.

    A tangent must have its output's shape: one that broadcasts to it is broadcast (a
    scalar tangent for an array output), anything else raises ValueError naming the
    rule.  Float and complex tangents take their output's dtype; outputs that are
    neither have no tangent (None).  A complex tangent for a real output raises
    TypeError (casting it would drop its imaginary part silently).  ``None`` (a zero
    tangent) stays None, or becomes zeros with ``fill=True``.
    """
    from ..primitives.structural import convert_element_type
    touts = list(touts)
    if len(touts) != len(outs):
        raise ValueError(f"the JVP rule of {name} returned {len(touts)} tangent outputs for "
                         f"{len(outs)} outputs; give one tangent per output")
    fitted = []
    for k, (o, t) in enumerate(zip(outs, touts)):
        shape, dtype = tuple(getattr(o, "shape", ())), np.dtype(getattr(o, "dtype", np.float64))
        if t is None or dtype.kind not in "fc":
            fitted.append(np.zeros(shape, dtype) if fill and dtype.kind in "fc" else None)
            continue
        if dtype.kind == "f" and np.dtype(getattr(t, "dtype", np.float64)).kind == "c":
            raise TypeError(f"the JVP rule of {name} returned a complex tangent for output "
                            f"{k}, which is real ({dtype}); the tangent of a real output is "
                            f"real (take np.real of it where the maths says so, or make the "
                            f"output complex)")
        if strict and type(t) not in WEAK_TYPES and hasattr(t, "dtype") \
                and not _same_precision(np.dtype(t.dtype), dtype):
            raise TypeError(f"the JVP rule of {name} returned a tangent of dtype {t.dtype} for "
                            f"output {k}, which has dtype {dtype}; each tangent must have its "
                            f"output's dtype (as in JAX). Cast it in the rule: "
                            f"t.astype(out.dtype)")
        t = fit_shape(t, shape, lambda got: (
            f"the JVP rule of {name} returned a tangent of shape {got} for output {k}, "
            f"which has shape {shape}; each tangent must have its output's shape"))
        if t.dtype != dtype:
            t = convert_element_type(t, dtype)
        fitted.append(t)
    return fitted


def _same_precision(given, wanted):
    """The same dtype in any byte order, or a real dtype of a complex one's precision (a
    real direction in the complex plane, as funcgrad's jvp takes)."""
    given, wanted = given.newbyteorder("="), wanted.newbyteorder("=")
    return given == wanted or (wanted.kind == "c" and given.kind == "f"
                               and given.itemsize * 2 == wanted.itemsize)


# --- derivatives of a rule's functions by funcgrad's own transforms ---------------------------

def _of_float_inputs(fn, xs):
    """The positions of the floating-point and complex entries of ``xs``, and ``fn`` as a
    function of those entries only (the others -- integer indices, masks -- are held
    fixed, so they never reach the transforms' float checks)."""
    pos = [i for i, x in enumerate(xs) if _is_inexact(x)]
    return pos, lambda *ds: list(fn(*with_entries(xs, pos, ds)))


def vjp_of(fn, xs, cts):
    """Cotangents for the flat inputs ``xs`` of ``fn`` (flat list in, flat list out), by
    funcgrad's reverse mode; None for inputs that are neither floating point nor complex."""
    from ..api import vjp
    pos, at = _of_float_inputs(fn, xs)
    grads = [None] * len(xs)
    if not pos:
        return grads
    _, pullback = vjp(at, *[xs[i] for i in pos])
    for i, g in zip(pos, pullback(list(cts))):
        grads[i] = g
    return grads


def jvp_of(fn, primals, tangents):
    """``(outs, tangent_outs)`` of ``fn`` by funcgrad's forward mode, perturbing only the
    floating-point and complex inputs."""
    from ..forward_mode import _jvp
    pos, at = _of_float_inputs(fn, primals)
    if not pos:
        outs = list(fn(*primals))
        return outs, [None] * len(outs)
    return _jvp(at, tuple(primals[i] for i in pos), tuple(tangents[i] for i in pos), False,
                "jvp")


# --- the primitive ----------------------------------------------------------------------------

def _impl(*xs, rule):
    if rule.tensors:
        return [unwrap_output(o) for o in rule.fun(*[present(x) for x in xs])]
    return list(rule.fun(*xs))


def _abstract_eval(*avals, rule):
    from ..interpreters.graph import trace_to_graph

    def traced(*ts):
        # the rule runs again later, on other values: captured tracers are refused here
        with StagedCaptures(_state.interpreter, rule.name) as staged:
            outs = list(rule.fun(*ts))
        staged.check()
        return outs
    graph = trace_to_graph(traced, [a if isinstance(a, ShapedArray) else aval_of(a)
                                    for a in avals], _all_if(rule.tensors, avals))
    return [v.aval if hasattr(v, "aval") else aval_of(v) for v in graph.outvars]


def _all_if(tensors, inputs):
    """The positions of every input when the rule's inputs stand for Tensors, else none."""
    return range(len(inputs)) if tensors else ()


def _jvp(primals, tangents, *, rule):
    if rule.jvp is None:
        raise ForwardModeUndefinedError(
            f"cannot apply forward-mode differentiation (jvp, jacfwd, hessian, forward_ad) to "
            f"{rule.name}: it defines a custom VJP (reverse mode) only. Give it a JVP rule too "
            f"(.defjvp, or a `jvp` staticmethod on a Function), or use reverse mode (grad, "
            f"vjp, jacrev).")
    tangents = [t if t is not None else _zeros_like(p) for p, t in zip(primals, tangents)]
    with explain_rule_errors(rule.name, primals):
        outs, touts = rule.jvp(list(primals), tangents)
    outs = list(outs)
    return outs, fit_tangents(outs, touts, rule.name, strict=rule.strict_tangents)


def _reverse_fwd(vals, params):
    rule = params["rule"]
    with explain_rule_errors(rule.name, vals):
        if rule.fwd is not None:
            outs, residuals = rule.fwd(*vals)
        elif rule.jvp is not None:
            outs, residuals = _linearize(rule, vals)
        else:
            return list(rule.fun(*vals)), None
    return list(outs), residuals


def _linearize(rule, vals):
    """The outputs of a custom JVP rule at ``vals`` and, as the residual, the graph of its
    tangent part: one call of the rule serves the forward and the backward pass, as in
    JAX (the user's function itself is not run, unless the rule calls it)."""
    from ..interpreters.graph import GraphTracer, trace_to_graph
    primal = []

    def tangent_part(*ts):
        outs, touts = rule.jvp(list(vals), list(ts))
        primal.extend(outs)
        return fit_tangents(primal, touts, rule.name, fill=True,
                             strict=rule.strict_tangents)
    graph = trace_to_graph(tangent_part, [aval_of(v) for v in vals],
                           _all_if(rule.tensors, vals))
    if any(isinstance(o, GraphTracer) and o._trace.eqns is graph.eqns for o in primal):
        primal = _primal_outputs_of(graph, primal, rule)
    return primal, graph


def _primal_outputs_of(graph, primal, rule):
    """The rule's outputs, captured in ``graph`` because an equation also reading the
    tangents made them (a jitted rule is one call of primals and tangents together): its
    graph run at zero tangents, when, looking into such calls, the outputs do not depend
    on the tangents."""
    from ..interpreters.graph import Graph, GraphTracer, Var
    outs = [o.graph_var if isinstance(o, GraphTracer) and o._trace.eqns is graph.eqns else o
            for o in primal]
    reached = _reached_from(graph, {id(v) for v in graph.invars})
    if any(isinstance(o, Var) and id(o) in reached for o in outs):
        raise TypeError(f"the JVP rule of {rule.name} returned outputs that depend on the "
                        f"tangents; the outputs must be computed from the primals only")
    part = Graph(list(graph.invars), graph.eqns, outs)
    return list(part(*[np.zeros(v.aval.shape, v.aval.dtype) for v in graph.invars]))


def _reached_from(graph, sources):
    """The ids of the variables of ``graph`` computed from those of ``sources``, through a
    call's own graph (``jit``'s) where an equation holds one, else through every input."""
    from ..interpreters.graph import Graph, Var
    reached = set(sources)
    for eqn in graph.eqns:
        hit = [isinstance(x, Var) and id(x) in reached for x in eqn.inputs]
        if not any(hit):
            continue
        inner = eqn.params.get("graph")
        if (isinstance(inner, Graph) and len(inner.invars) == len(eqn.inputs)
                and len(inner.outvars) == len(eqn.outvars)):
            inside = _reached_from(inner, {id(v) for v, h in zip(inner.invars, hit) if h})
            flags = [isinstance(o, Var) and id(o) in inside for o in inner.outvars]
        else:
            flags = [True] * len(eqn.outvars)
        reached.update(id(v) for v, f in zip(eqn.outvars, flags) if f)
    return reached


def _vjp(needs, cts, outs, *xs, rule, residuals=None):
    if not getattr(rule, "raw_cotangents", False):  # (a Function's bwd takes None)
        cts = [c if c is not None else _zeros_like(o) for c, o in zip(cts, outs)]
        if rule.fwd is not None and any(type(x) in _special_classes for x in xs):
            # On the eager Tensor's graph (create_graph=True): fwd's residuals computed
            # again from the inputs, so that the second derivative through them is recorded.
            residuals = None
        elif rule.bwd is None and _on_tensor_graph(xs):
            # The tangent graph _linearize captured from the inputs' values holds the
            # coefficients of the JVP (cos(x) for sin) as constants: transposing it would
            # give the right first derivative with no dependence on x, so a create_graph
            # pass would drop the second derivative silently.  Run the rule again on the
            # Tensors instead, so its own operations are recorded on their graph.
            residuals = None
    with explain_rule_errors(rule.name, xs):
        if rule.bwd is not None:
            if residuals is None and rule.fwd is not None:
                # Reached without the reverse interpreter's fwd (e.g. eager tape): recompute.
                _, residuals = rule.fwd(*xs)
            # (a Function's bwd also takes the inputs: Tensors on a create_graph pass)
            grads = list(rule.bwd(residuals, cts, xs) if getattr(rule, "raw_cotangents", False)
                         else rule.bwd(residuals, cts))
        else:
            # A custom JVP is linear in the tangents: its VJP is the VJP of that linear map
            # (taken at zero tangents; non-float inputs get zero tangents of their own dtype),
            # the graph _linearize captured, or the rule run again where none was captured.
            def tangent_map(*ts):
                if residuals is not None:
                    return residuals(*ts)
                return fit_tangents(outs, rule.jvp(list(xs), list(ts))[1], rule.name,
                                    fill=True, strict=rule.strict_tangents)
            grads = vjp_of(tangent_map, [_zeros_like(x) for x in xs], cts)
    return [g if need else None for g, need in zip(grads, needs)]


def _on_tensor_graph(xs):
    """Whether the rule runs on a create_graph pass of the eager Tensor: its inputs are
    then Tensors attached to their graph (the Tensor type looked up, as it sits above)."""
    Tensor = eager_tensor_type()
    return Tensor is not None and any(isinstance(x, Tensor) for x in xs)


class _OpaqueResiduals(Exception):
    """Residuals that are not arrays (a Function's ctx, Python numbers): not batchable."""


def _batch(args, dims, *, rule):
    from ..batched import vmap
    from ..primitives.structural import moveaxis, reduce_sum
    in_axes = tuple(dims)

    def fun(*xs):
        return list(rule.fun(*xs))

    def jvp(p, t):
        def per_example(pp, tt):
            outs, touts = rule.jvp(list(pp), list(tt))
            outs = list(outs)
            return outs, fit_tangents(outs, touts, rule.name, fill=True,
                                      strict=rule.strict_tangents)
        return vmap(per_example, in_axes=(list(in_axes), list(in_axes)))(list(p), list(t))

    def fwd(*xs):
        treedefs = []

        def per_example(*ys):
            outs, res = rule.fwd(*ys)
            leaves, treedef = tree.flatten(res)
            if not all(isinstance(r, (Tracer, np.ndarray, np.generic)) for r in leaves):
                raise _OpaqueResiduals
            treedefs.append(treedef)
            return list(outs), leaves

        try:
            outs, res_leaves = vmap(per_example, in_axes=in_axes)(*xs)
        except _OpaqueResiduals:
            # Residuals vmap cannot stack: keep the inputs, recompute per example in bwd.
            return vmap(fun, in_axes=in_axes)(*xs), (None, list(xs))
        return outs, (treedefs[0], res_leaves)

    def bwd(res, cts):
        treedef, leaves = res
        if treedef is None:
            grads = vmap(lambda ys, cs: list(rule.bwd(rule.fwd(*ys)[1], cs)),
                         in_axes=(list(in_axes), 0))(leaves, list(cts))
        else:
            grads = vmap(lambda ls, cs: list(rule.bwd(tree.unflatten(treedef, ls), cs)))(
                leaves, list(cts))
        # vmap puts each cotangent's batch axis first: move it to where its argument has
        # it, and sum it away for arguments that are not batched (shared by all examples).
        fitted = []
        for g, d in zip(grads, dims):
            if g is None or d == 0:
                fitted.append(g)
            elif d is None:
                fitted.append(reduce_sum(g, (0,)))
            else:
                fitted.append(moveaxis(g, 0, d))
        return fitted

    batched = CustomRule(f"vmap({rule.name})", vmap(fun, in_axes=in_axes),
                         jvp=None if rule.jvp is None else jvp,
                         fwd=None if rule.fwd is None else fwd,
                         bwd=None if rule.bwd is None else bwd, guard=False)
    batched.tensors = rule.tensors
    outs = custom_call_p.bind(*args, rule=batched)
    return outs, [0] * len(outs)


def _reads(needs, *, rule, residuals=None, **params):
    """``Primitive.vjp_reads``: on the eager Tensor, what a Function's ctx saved (PyTorch
    version-checks and frees those alone); else every input."""
    flags = getattr(residuals, "saved_flags", None)
    return (None, False) if flags is None else flags


custom_call_p = Primitive("custom_call", _impl, abstract_eval=_abstract_eval, jvp=_jvp,
                          vjp=_vjp, batch=_batch, reverse_fwd=_reverse_fwd,
                          multiple_results=True, vjp_reads=_reads)
# It runs the user's rule on its operands: on GPU arrays as on NumPy's.
register_gpu({custom_call_p: lambda *xs, **params: custom_call_p.impl(*xs, **params)})


# --- binding it -------------------------------------------------------------------------------

def flatten_arguments(args):
    """``tree.flatten`` of a custom function's arguments, where an eager Tensor stays one
    leaf (not the pytree node of its value): ``custom_call`` then reaches the Tensor's
    handler, and the tape records the call."""
    return tree.flatten(args, is_leaf=is_special)


class CallSite:
    """One call of a custom function: its arguments split into the nondiff ones
    (``static``, by position) and the flat leaves of the others, and the output tree,
    learnt from whichever of the user's functions the transforms run first."""

    def __init__(self, name, args, nondiff_argnums=()):
        self.name = name
        self.n = len(args)
        self.static = {i: args[i] for i in nondiff_argnums}
        self.nondiff = [self.static[i] for i in nondiff_argnums]
        leaves, self.in_tree = flatten_arguments(
            [a for i, a in enumerate(args) if i not in self.static])
        self.leaves = [as_operand(x) for x in leaves]
        self.out_tree = []
        # Called on Tensors (or a transform's values of them): the user's functions see
        # Tensors wherever they run, plain arrays at the root included, so that PyTorch's
        # methods in them mean the same eagerly and under every transform
        self.tensors = any(stands_for_tensor(x) for x in self.leaves)

    def shown(self, xs):
        """The leaves ``xs`` as the user's functions take them: Tensors for plain arrays
        when the call was on Tensors."""
        return [present(x) for x in xs] if self.tensors else list(xs)

    @staticmethod
    def plain(out, shown, xs):
        """A rule's results ``out`` as arrays again where ``xs`` were arrays ``shown`` as
        Tensors (lists and tuples of them)."""
        if all(y is x for y, x in zip(shown, xs)):
            return out
        return _unwrapped(out)

    def dynamic(self, xs):
        """The differentiable arguments, rebuilt from the flat leaves ``xs``."""
        return tree.unflatten(self.in_tree, list(xs))

    def args(self, xs):
        """All the arguments, in order, with the differentiable ones from ``xs``."""
        it = iter(self.dynamic(xs))
        return [self.static[i] if i in self.static else next(it) for i in range(self.n)]

    def record(self, out):
        """``(leaves, tree)`` of the output pytree ``out``; the first tree is kept."""
        leaves, out_tree = flatten_arguments(out)
        if not self.out_tree:
            self.out_tree.append(out_tree)
        return leaves, out_tree

    def flat_fun(self, fun):
        def flat(*xs):
            ys = self.shown(xs)
            return self.plain(self.record(fun(*self.args(ys)))[0], ys, xs)
        return flat

    def flat_jvp(self, jvp_rule):
        """``jvp_rule(*nondiff, primals, tangents)`` on flat lists of leaves."""
        def jvp(primals, tangents):
            xs = list(primals) + list(tangents)
            ys = self.shown(xs)
            out, tout = jvp_rule(*self.nondiff, tuple(self.dynamic(ys[:len(primals)])),
                                 tuple(self.dynamic(ys[len(primals):])))
            out_leaves, out_tree = self.record(out)
            tout_leaves, tout_tree = flatten_arguments(tout)
            if tout_tree != out_tree:
                raise ValueError(f"the JVP rule of {self.name} returned tangents with "
                                 f"structure {tout_tree} for outputs with structure {out_tree}")
            return self.plain((out_leaves, tout_leaves), ys, xs)
        return jvp

    def bind(self, rule, *extra):
        """``custom_call`` of ``rule`` on the leaves (then ``extra`` inputs), as a pytree."""
        operands = (*self.leaves, *extra)
        rule.tensors = rule.tensors or self.tensors
        below = _below_untouched_differentiation(operands)
        if below is None:
            outs = custom_call_p.bind(*operands, rule=rule)
        else:
            outs = run_under(below, custom_call_p.bind, *operands, rule=rule)
        return tree.unflatten(self.out_tree[0], outs)


def _unwrapped(out):
    """``out`` (lists and tuples of a rule's results) with Tensors as their arrays (those
    that require grad kept: a create_graph pass records through them)."""
    if isinstance(out, (list, tuple)):
        return type(out)(_unwrapped(o) for o in out)
    return unwrap_output(out, keep_tracked=True)


def _below_untouched_differentiation(operands):
    """The interpreter below the current differentiating ones (grad's, jvp's) that none of
    ``operands`` is a tracer of, or None where the current one has an operand.

    Such an interpreter passes the call on to its parent; run with it still current, the
    rule's functions would have its tracers that they captured recorded on it, so the
    function would be differentiated through, the custom rule bypassed and the derivative
    silently not the rule's.  Run below it, the rule's guard refuses those captures
    (CapturedTracerError), as JAX refuses differentiating a custom_vjp with respect to a
    closed-over value."""
    from ..interpreters.forward import JVPInterpreter
    from ..interpreters.reverse import ReverseInterpreter
    interp = current = _state.interpreter
    owners = {id(x._trace) for x in operands if isinstance(x, Tracer)}
    while isinstance(interp, (ReverseInterpreter, JVPInterpreter)) and id(interp) not in owners:
        interp = interp.parent
    return None if interp is current else interp
