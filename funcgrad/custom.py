"""User-defined derivatives: ``custom_jvp``, ``custom_vjp``, ``Function``, ``checkpoint``.

All four become one primitive, ``custom_call``, whose parameter ``rule`` holds
the user's functions on flat lists of arrays:

* ``fun(*xs) -> outs``                      the value;
* ``jvp(primals, tangents) -> (outs, tangent_outs)``    forward mode (optional);
* ``fwd(*xs) -> (outs, residuals)`` and ``bwd(residuals, cotangents) -> cts``
  reverse mode (optional).

When only a JVP is given (``custom_jvp``), reverse mode transposes it: the
user's JVP is linear in the tangents, so its VJP is the VJP of ``t ->
jvp(x, t)`` (computed by funcgrad's own reverse mode at backward time).  When
only a VJP is given (``custom_vjp``), forward mode raises a clear error, as
in JAX.  Rules run under whatever interpreter is current, so they compose with
every transform and differentiate again if written with funcgrad operations.
"""
import contextlib
import functools
import inspect

import numpy as np

from . import tree
from .core import (EscapedTracerError, Interpreter, Primitive, ShapedArray, Tracer, _state,
                   aval_of)
from .numpy._convert import asarray

__all__ = ["custom_jvp", "custom_vjp", "Function", "FunctionCtx", "checkpoint"]


class CustomRule:
    """The user's functions for one call site, on flat lists of arrays.

    With ``guard=True`` each runs under a :class:`_Guard`, which stops it from using
    a traced value it captured instead of receiving (see there).
    """

    def __init__(self, name, fun, jvp=None, fwd=None, bwd=None, n_out=None, guard=True):
        wrap = (lambda fn: _guarded(fn, name)) if guard else (lambda fn: fn)
        self.name = name
        self.fun = wrap(fun)
        self.jvp = wrap(jvp)
        self.fwd = wrap(fwd)
        self.bwd = wrap(bwd)
        self.n_out = n_out

    def __repr__(self):
        return self.name


class _CapturedTracer(EscapedTracerError):
    """A custom rule used a traced value it captured instead of receiving."""


class _Guard(Interpreter):
    """Current while a user's rule function runs.

    The rule runs below the transform that called it (its parent interpreter and
    those under it: the *chain*).  A tracer of a transform that is still active but
    not in that chain can only have been captured from the enclosing scope (or
    smuggled in through a nondiff/non-array argument); handed on, it would reach an
    interpreter that does not own it and be mistaken for a constant -- an error at
    best, a silently wrong value under vmap.  The guard raises
    :class:`_CapturedTracer` instead, which ``checkpoint`` answers by making the
    captured values explicit inputs.
    """

    __slots__ = ("chain", "name")
    transform = "a custom rule"

    def __init__(self, name):
        super().__init__()
        chain = set()
        interp = self.parent
        while interp is not None:
            chain.add(id(interp))
            interp = interp.parent
        self.chain = chain
        self.name = name

    def process(self, prim, args, params):
        chain = self.chain
        for a in args:
            if isinstance(a, Tracer) and id(a._trace) not in chain and a._trace.active:
                raise _CapturedTracer(
                    f"{self.name} used a value traced by an enclosing {a._trace.transform} "
                    f"(interpreter #{a._trace.tag}) that it was not given as an argument: a "
                    f"variable captured from the enclosing function, or a traced value passed "
                    f"in a nondiff_argnums / non-array argument. Custom rules (custom_jvp, "
                    f"custom_vjp, Function) run outside the transforms that called them, so "
                    f"such a value is out of reach there. Pass it as a regular (array) "
                    f"argument, or fg.stop_gradient it if no derivative should flow through "
                    f"it. (fg.checkpoint handles captured values by itself.)")
        return self.parent.process(prim, args, params)


def _guarded(fn, name):
    if fn is None:
        return None

    def run(*args):
        with _Guard(name):
            return fn(*args)
    return run


def _zeros_for(values):
    return [np.zeros(getattr(v, "shape", ()), getattr(v, "dtype", np.float64)) for v in values]


def _is_float(x):
    return np.dtype(getattr(x, "dtype", np.float64)).kind == "f"


def _fit_tangents(outs, touts, name, fill=False):
    """Tangent outputs of a user JVP rule, checked against the primal outputs.

    A tangent must have its output's shape: one that broadcasts to it is broadcast (a
    scalar tangent for an array output), anything else raises ValueError naming the
    rule.  Float tangents take their output's dtype; outputs that are not floating
    point have no tangent (None).  ``None`` (a zero tangent) stays None, or becomes
    zeros with ``fill=True``.
    """
    from .primitives.structural import broadcast_to, convert_element_type
    touts = list(touts)
    if len(touts) != len(outs):
        raise ValueError(f"the JVP rule of {name} returned {len(touts)} tangent outputs for "
                         f"{len(outs)} outputs; give one tangent per output")
    fitted = []
    for k, (o, t) in enumerate(zip(outs, touts)):
        shape, dtype = tuple(getattr(o, "shape", ())), np.dtype(getattr(o, "dtype", np.float64))
        if t is None or dtype.kind != "f":
            fitted.append(np.zeros(shape, dtype) if fill and dtype.kind == "f" else None)
            continue
        t = _as_operand(t)
        if tuple(t.shape) != shape:
            try:
                ok = np.broadcast_shapes(tuple(t.shape), shape) == shape
            except ValueError:
                ok = False
            if not ok:
                raise ValueError(f"the JVP rule of {name} returned a tangent of shape "
                                 f"{tuple(t.shape)} for output {k}, which has shape {shape}; "
                                 f"each tangent must have its output's shape")
            t = broadcast_to(t, shape)
        if t.dtype != dtype:
            t = convert_element_type(t, dtype)
        fitted.append(t)
    return fitted


def _vjp_of(fn, xs, cts):
    """Cotangents for the flat inputs ``xs`` of ``fn`` (flat list in, flat list out), by
    funcgrad's reverse mode.  Only floating-point inputs are differentiated (None for
    the others: integer indices, masks), so they never reach ``vjp``'s float check."""
    from .api import vjp as _api_vjp
    pos = [i for i, x in enumerate(xs) if _is_float(x)]
    grads = [None] * len(xs)
    if not pos:
        return grads

    def at(*ds):
        full = list(xs)
        for i, d in zip(pos, ds):
            full[i] = d
        return list(fn(*full))

    _, pullback = _api_vjp(at, *[xs[i] for i in pos])
    for i, g in zip(pos, pullback(list(cts))):
        grads[i] = g
    return grads


def _jvp_of(fn, primals, tangents):
    """``(outs, tangent_outs)`` of ``fn`` by funcgrad's forward mode, perturbing only the
    floating-point inputs."""
    from .api import jvp as _api_jvp
    pos = [i for i, x in enumerate(primals) if _is_float(x)]
    if not pos:
        outs = list(fn(*primals))
        return outs, [None] * len(outs)

    def at(*ds):
        full = list(primals)
        for i, d in zip(pos, ds):
            full[i] = d
        return list(fn(*full))

    return _api_jvp(at, tuple(primals[i] for i in pos), tuple(tangents[i] for i in pos))


_CUSTOM_NOTE = "_funcgrad_custom_rule_note"


@contextlib.contextmanager
def _rule_errors(name, args=()):
    """Explain an EscapedTracerError raised while a custom rule runs.

    Custom rules run below the transforms that called them, so a traced value the
    rule uses without receiving it as an argument (a variable captured from the
    enclosing function, a non-array or nondiff_argnums argument holding traced values)
    cannot be seen there and reaches the root as an "escaped" tracer.
    """
    try:
        yield
    except EscapedTracerError as e:
        if isinstance(e, _CapturedTracer) or getattr(e, _CUSTOM_NOTE, False) or any(
                isinstance(a, Tracer) and not a._trace.active and not a._trace.outlives
                for a in args):
            raise  # already explained, or a genuinely escaped argument
        err = EscapedTracerError(
            f"{e}\n\nThis happened while running the custom rule of {name}. Custom rules "
            f"(custom_jvp, custom_vjp, Function) run outside the transforms that called them, "
            f"so a traced value they use without receiving it as a differentiable argument -- "
            f"a variable captured from the enclosing function, or a traced value passed in a "
            f"nondiff_argnums / non-array argument -- is out of reach there. Pass such values "
            f"as regular (array) arguments, or fg.stop_gradient them if no derivative should "
            f"flow through them. (fg.checkpoint handles captured values by itself.)")
        setattr(err, _CUSTOM_NOTE, True)
        raise err from None


def _impl(*xs, rule):
    return list(rule.fun(*xs))


def _abstract_eval(*avals, rule):
    from .interpreters.graph import trace_to_graph
    graph = trace_to_graph(lambda *ts: list(rule.fun(*ts)),
                           [a if isinstance(a, ShapedArray) else aval_of(a) for a in avals])
    return [v.aval if hasattr(v, "aval") else aval_of(v) for v in graph.outvars]


def _jvp(primals, tangents, *, rule):
    if rule.jvp is None:
        raise TypeError(
            f"cannot apply forward-mode differentiation (jvp, jacfwd, hessian, forward_ad) to "
            f"{rule.name}: it defines a custom VJP (reverse mode) only. Give it a JVP rule too "
            f"(.defjvp, or a `jvp` staticmethod on a Function), or use reverse mode (grad, "
            f"vjp, jacrev).")
    tangents = [t if t is not None else np.zeros(getattr(p, "shape", ()), p.dtype)
                for p, t in zip(primals, tangents)]
    with _rule_errors(rule.name, primals):
        outs, touts = rule.jvp(list(primals), tangents)
    outs = list(outs)
    return outs, _fit_tangents(outs, touts, rule.name)


def _reverse_fwd(vals, params):
    rule = params["rule"]
    with _rule_errors(rule.name, vals):
        if rule.fwd is None:  # a custom JVP: the primals are all the VJP needs
            return list(rule.fun(*vals)), None
        outs, residuals = rule.fwd(*vals)
    return list(outs), residuals


def _vjp(needs, cts, outs, *xs, rule, residuals=None):
    cts = [c if c is not None else np.zeros(getattr(o, "shape", ()), o.dtype)
           for c, o in zip(cts, outs)]
    with _rule_errors(rule.name, xs):
        if rule.bwd is not None:
            if residuals is None and rule.fwd is not None:
                # Reached without the reverse interpreter's fwd (e.g. eager tape): recompute.
                _, residuals = rule.fwd(*xs)
            grads = list(rule.bwd(residuals, cts))
        else:
            # A custom JVP is linear in the tangents: its VJP is the VJP of that linear map
            # (taken at zero tangents; non-float inputs get zero tangents of their own dtype).
            def tangent_map(*ts):
                return _fit_tangents(outs, rule.jvp(list(xs), list(ts))[1], rule.name,
                                     fill=True)
            grads = _vjp_of(tangent_map, _zeros_for(xs), cts)
    return [g if need else None for g, need in zip(grads, needs)]


class _OpaqueResiduals(Exception):
    """Residuals that are not arrays (a Function's ctx, Python numbers): not batchable."""


def _batch(args, dims, *, rule):
    from .api import vmap
    from .primitives.structural import moveaxis, reduce_sum
    in_axes = tuple(dims)

    def fun(*xs):
        return list(rule.fun(*xs))

    def jvp(p, t):
        def per_example(pp, tt):
            outs, touts = rule.jvp(list(pp), list(tt))
            outs = list(outs)
            return outs, _fit_tangents(outs, touts, rule.name, fill=True)
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
    outs = custom_call_p.bind(*args, rule=batched)
    return outs, [0] * len(outs)


custom_call_p = Primitive("custom_call", _impl, abstract_eval=_abstract_eval, jvp=_jvp,
                          vjp=_vjp, batch=_batch, multiple_results=True)
custom_call_p.reverse_fwd = _reverse_fwd


def _call(rule, leaves, out_tree_holder):
    outs = custom_call_p.bind(*leaves, rule=rule)
    return tree.unflatten(out_tree_holder[0], outs)


def _split_nondiff(args, nondiff_argnums):
    static = {i: args[i] for i in nondiff_argnums}
    dynamic = [a for i, a in enumerate(args) if i not in static]
    return static, dynamic


def _merge(static, dynamic, n):
    it = iter(dynamic)
    return [static[i] if i in static else next(it) for i in range(n)]


def _as_operand(x):
    return x if isinstance(x, Tracer) else asarray(x)


class _CustomBase:
    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)

    def _flatten(self, args):
        static, dynamic = _split_nondiff(args, self.nondiff_argnums)
        leaves, in_tree = tree.flatten(dynamic)
        leaves = [_as_operand(x) for x in leaves]
        return static, leaves, in_tree

    def _flat_fun(self, static, in_tree, n, out_tree_holder):
        def fun(*leaves):
            out = self.fun(*_merge(static, tree.unflatten(in_tree, list(leaves)), n))
            out_leaves, out_tree = tree.flatten(out)
            if not out_tree_holder:
                out_tree_holder.append(out_tree)
            return out_leaves
        return fun


class custom_jvp(_CustomBase):
    """A function with a user-defined JVP rule (decorator, as ``jax.custom_jvp``).

    The rule takes ``(primals, tangents)`` tuples and returns ``(out, tangent_out)``.
    Reverse mode uses the same rule (it is linear in the tangents), so one rule
    serves grad, jvp, vmap and higher orders.  ``nondiff_argnums`` are passed to
    the rule first, as plain values.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> @fg.custom_jvp
    ... def log1pexp(x):
    ...     return fnp.log1p(fnp.exp(x))
    >>> @log1pexp.defjvp
    ... def log1pexp_jvp(primals, tangents):
    ...     x, = primals
    ...     t, = tangents
    ...     return log1pexp(x), t / (1.0 + fnp.exp(-x))   # stable at large x
    >>> float(fg.grad(log1pexp)(100.0))
    1.0
    """

    jvp_rule = None

    def defjvp(self, jvp_rule):
        """Set the JVP rule ``jvp_rule(*nondiff, primals, tangents) -> (out, tangent_out)``."""
        self.jvp_rule = jvp_rule
        return jvp_rule

    def __call__(self, *args):
        if self.jvp_rule is None:
            raise TypeError(f"{self.__name__} is a custom_jvp function without a rule: "
                            f"define one with @{self.__name__}.defjvp")
        static, leaves, in_tree = self._flatten(args)
        holder = []
        fun = self._flat_fun(static, in_tree, len(args), holder)
        nondiff = [static[i] for i in self.nondiff_argnums]

        def jvp(primals, tangents):
            p = tuple(tree.unflatten(in_tree, list(primals)))
            t = tuple(tree.unflatten(in_tree, list(tangents)))
            out, tout = self.jvp_rule(*nondiff, p, t)
            out_leaves, out_tree = tree.flatten(out)
            if not holder:
                holder.append(out_tree)
            tout_leaves, tout_tree = tree.flatten(tout)
            if tout_tree != out_tree:
                raise ValueError(f"the JVP rule of {self.__name__} returned tangents with "
                                 f"structure {tout_tree} for outputs with structure {out_tree}")
            return out_leaves, tout_leaves

        rule = CustomRule(f"custom_jvp({self.__name__})", fun, jvp=jvp)
        if not holder:
            fun_out = None  # the out tree is learnt at the first evaluation
        outs = custom_call_p.bind(*leaves, rule=rule)
        return tree.unflatten(holder[0], outs) if holder else fun_out


class custom_vjp(_CustomBase):
    """A function with a user-defined VJP (decorator, as ``jax.custom_vjp``).

    ``f.defvjp(fwd, bwd)``: ``fwd(*args) -> (out, residuals)``;
    ``bwd(*nondiff, residuals, cotangent) -> tuple with one cotangent per
    (differentiable) argument`` (``None`` for zero).  Forward mode (``jvp``,
    ``jacfwd``, ``hessian``) raises an error unless a JVP is also given with
    ``f.defjvp(rule)``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> @fg.custom_vjp
    ... def clip_gradient(x):
    ...     return x
    >>> clip_gradient.defvjp(lambda x: (x, None),
    ...                      lambda res, g: (fnp.clip(g, -1.0, 1.0),))
    >>> float(fg.grad(lambda x: 10.0 * clip_gradient(x))(2.0))
    1.0
    """

    fwd = bwd = jvp_rule = None

    def defvjp(self, fwd, bwd):
        self.fwd, self.bwd = fwd, bwd

    def defjvp(self, jvp_rule):
        self.jvp_rule = jvp_rule
        return jvp_rule

    def __call__(self, *args):
        if self.fwd is None:
            raise TypeError(f"{self.__name__} is a custom_vjp function without rules: "
                            f"define them with {self.__name__}.defvjp(fwd, bwd)")
        n = len(args)
        static, leaves, in_tree = self._flatten(args)
        holder = []
        fun = self._flat_fun(static, in_tree, n, holder)
        nondiff = [static[i] for i in self.nondiff_argnums]
        name = self.__name__

        def fwd(*xs):
            out, residuals = self.fwd(*_merge(static, tree.unflatten(in_tree, list(xs)), n))
            out_leaves, out_tree = tree.flatten(out)
            if not holder:
                holder.append(out_tree)
            return out_leaves, residuals

        def bwd(residuals, cts):
            ct = tree.unflatten(holder[0], list(cts))
            grads = self.bwd(*nondiff, residuals, ct)
            if not isinstance(grads, (tuple, list)):
                raise TypeError(f"the bwd rule of {name} must return a tuple with one "
                                f"cotangent per differentiable argument; got "
                                f"{type(grads).__name__}")
            dynamic = [a for i, a in enumerate(range(n)) if i not in static]
            if len(grads) != len(dynamic):
                raise ValueError(f"the bwd rule of {name} returned {len(grads)} cotangents "
                                 f"for {len(dynamic)} differentiable arguments")
            flat = []
            for g, sub in zip(grads, tree.unflatten(in_tree, leaves)):
                sub_leaves, sub_tree = tree.flatten(sub)
                if g is None:
                    flat += [None] * len(sub_leaves)
                    continue
                g_leaves, g_tree = tree.flatten(g)
                if g_tree != sub_tree:
                    raise ValueError(f"the bwd rule of {name} returned a cotangent with "
                                     f"structure {g_tree} for an argument of structure "
                                     f"{sub_tree}")
                flat += g_leaves
            return [np.zeros(x.shape, x.dtype) if g is None else _fit_shape(g, x, name)
                    for g, x in zip(flat, leaves)]

        jvp = None
        if self.jvp_rule is not None:
            def jvp(primals, tangents):
                p = tuple(tree.unflatten(in_tree, list(primals)))
                t = tuple(tree.unflatten(in_tree, list(tangents)))
                out, tout = self.jvp_rule(*nondiff, p, t)
                out_leaves, out_tree = tree.flatten(out)
                if not holder:  # jvp may be the first (only) evaluation: learn the tree
                    holder.append(out_tree)
                tout_leaves, tout_tree = tree.flatten(tout)
                if tout_tree != out_tree:
                    raise ValueError(f"the JVP rule of {name} returned tangents with "
                                     f"structure {tout_tree} for outputs with structure "
                                     f"{out_tree}")
                return out_leaves, tout_leaves

        rule = CustomRule(f"custom_vjp({name})", fun, jvp=jvp, fwd=fwd, bwd=bwd)
        outs = custom_call_p.bind(*leaves, rule=rule)
        return tree.unflatten(holder[0], outs)


def _fit_shape(g, x, name):
    g = g if isinstance(g, Tracer) else asarray(g)
    if tuple(g.shape) != tuple(x.shape):
        try:
            fits = np.broadcast_shapes(tuple(g.shape), tuple(x.shape)) == tuple(x.shape)
        except ValueError:  # not broadcastable at all
            fits = False
        if fits:
            from .primitives.structural import broadcast_to
            return broadcast_to(g, tuple(x.shape))
        raise ValueError(f"the backward of {name} returned a gradient of shape "
                         f"{tuple(g.shape)} for an input of shape {tuple(x.shape)}")
    return g


# --- torch.autograd.Function -------------------------------------------------------------

class FunctionCtx:
    """The ``ctx`` of a :class:`Function`: saves values for ``backward``."""

    def __init__(self, needs_input_grad):
        self.needs_input_grad = needs_input_grad
        self._saved = None
        self.non_differentiable = ()

    def save_for_backward(self, *values):
        """Keep ``values`` for ``backward`` (read them back as ``ctx.saved_tensors``)."""
        self._saved = values

    @property
    def saved_tensors(self):
        if self._saved is None:
            return ()
        return self._saved

    def mark_non_differentiable(self, *outputs):
        """Declare outputs that have no gradient (their cotangents are ignored)."""
        self.non_differentiable = tuple(id(o) for o in outputs)


class Function:
    """Custom operations in PyTorch's ``torch.autograd.Function`` style.

    Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``
    (one gradient per output; return one per input, ``None`` for none), and
    optionally ``jvp(ctx, *tangents)`` for forward mode.  Use it through
    ``MyFn.apply(*args)`` — never by calling ``forward`` directly, which would
    bypass the rules.  It works under every transform and on the eager Tensor.

    >>> import numpy as np, funcgrad as fg
    >>> class Exp(fg.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         result = np.exp(x)
    ...         ctx.save_for_backward(result)
    ...         return result
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         result, = ctx.saved_tensors
    ...         return grad_output * result
    >>> float(fg.grad(Exp.apply)(0.0))
    1.0
    """

    @staticmethod
    def forward(ctx, *args):  # pragma: no cover - user defined
        raise NotImplementedError("a Function subclass must define forward(ctx, *args)")

    @staticmethod
    def backward(ctx, *grads):  # pragma: no cover - user defined
        raise NotImplementedError("a Function subclass must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args):
        name = cls.__name__
        array_pos = [i for i, a in enumerate(args) if _is_array_like(a)]
        leaves = [_as_operand(args[i]) for i in array_pos]
        # As in PyTorch: True for the floating-point inputs a derivative is being taken
        # with respect to (traced values, Tensors that require grad; conservatively any
        # traced one), False for the rest and for everything under no_grad.
        grad_on = _state.grad_enabled
        needs = tuple(grad_on and i in array_pos and _differentiable(args[i]) and
                      _tracked(args[i]) for i in range(len(args)))
        holder = {}

        def full_args(xs):
            full = list(args)
            for i, x in zip(array_pos, xs):
                full[i] = x
            return full

        def run_forward(xs):
            ctx = FunctionCtx(needs)
            out = cls.forward(ctx, *full_args(xs))
            single = not isinstance(out, tuple)
            outs = [out] if single else list(out)
            holder.setdefault("single", single)
            holder.setdefault("n_out", len(outs))
            # which outputs mark_non_differentiable named (by identity, before conversion)
            ctx._nondiff = [id(o) in ctx.non_differentiable for o in outs]
            return ctx, [_as_operand(o) for o in outs]

        def fun(*xs):
            return run_forward(xs)[1]

        def fwd(*xs):
            ctx, outs = run_forward(xs)
            return outs, ctx

        def bwd(ctx, cts):
            cts = [c if not nd else np.zeros_like(c) for c, nd in
                   zip(cts, getattr(ctx, "_nondiff", [False] * len(cts)))]
            grads = cls.backward(ctx, *cts)
            grads = list(grads) if isinstance(grads, (tuple, list)) else [grads]
            if len(grads) != len(args):
                expected = ", ".join(
                    f"{tuple(leaves[array_pos.index(i)].shape)}" if i in array_pos
                    else f"None (a {type(a).__name__})" for i, a in enumerate(args))
                raise ValueError(
                    f"function {name}.backward returned {len(grads)} gradient"
                    f"{'s' * (len(grads) != 1)}, but forward took {len(args)} input"
                    f"{'s' * (len(args) != 1)}: expected {len(args)}, one per input, with "
                    f"shapes {expected} (None for inputs without a gradient)")
            out = []
            for i, x in zip(array_pos, leaves):
                g = grads[i]
                if g is None:
                    out.append(np.zeros(x.shape, x.dtype))
                    continue
                g = g if isinstance(g, Tracer) else asarray(g)
                if tuple(g.shape) != tuple(x.shape):
                    raise ValueError(
                        f"function {name}.backward returned a gradient of shape "
                        f"{tuple(g.shape)} for input {i}, expected shape {tuple(x.shape)} "
                        f"(the shape of that input)")
                out.append(g)
            return out

        jvp = None
        if "jvp" in cls.__dict__ or any("jvp" in c.__dict__ for c in cls.__mro__[1:-2]
                                        if c is not Function):
            def jvp(primals, tangents):
                ctx, outs = run_forward(primals)
                full_t = [None] * len(args)
                for i, t in zip(array_pos, tangents):
                    full_t[i] = t
                touts = cls.jvp(ctx, *full_t)
                touts = list(touts) if isinstance(touts, (tuple, list)) else [touts]
                if len(touts) == len(outs):  # non-differentiable outputs have no tangent
                    touts = [None if nd else t for t, nd in zip(touts, ctx._nondiff)]
                return outs, touts

        rule = CustomRule(f"{name}.apply", fun, jvp=jvp, fwd=fwd, bwd=bwd)
        outs = custom_call_p.bind(*leaves, rule=rule)
        return outs[0] if holder.get("single", len(outs) == 1) else tuple(outs)


def _is_array_like(a):
    return isinstance(a, (Tracer, np.ndarray, np.generic, float)) and not isinstance(a, bool) or \
        type(a).__name__ == "Tensor"


def _tracked(a):
    return isinstance(a, Tracer) or bool(getattr(a, "requires_grad", False))


def _differentiable(a):
    dtype = getattr(a, "dtype", None)
    return dtype is None or np.dtype(dtype).kind == "f" if not isinstance(a, float) else True


# --- checkpoint ----------------------------------------------------------------------------

def checkpoint(fun):
    """Rematerialisation: ``checkpoint(f)`` computes the same values and derivatives
    as ``f`` but keeps only its inputs for the reverse pass, recomputing the rest
    during the backward pass (less memory, one more forward of ``f``).

    ``f`` may take integer arguments (indices: not differentiated) and may use traced
    values it captures from the enclosing function (e.g. weights): those are found
    and made extra inputs of the checkpointed call, so derivatives reach them too.

    >>> import numpy as np, funcgrad as fg
    >>> block = fg.checkpoint(lambda x: np.sin(np.sin(x)))
    >>> float(fg.grad(block)(0.0))
    1.0
    """
    name = getattr(fun, "__name__", "f")

    @functools.wraps(fun)
    def remat(*args):
        leaves, in_tree = tree.flatten(args)
        leaves = [_as_operand(x) for x in leaves]
        holder = []

        def flat(*xs):
            out = fun(*tree.unflatten(in_tree, list(xs)))
            out_leaves, out_tree = tree.flatten(out)
            if not holder:
                holder.append(out_tree)
            return [_as_operand(o) for o in out_leaves]

        try:
            outs = custom_call_p.bind(*leaves, rule=_remat_rule(name, flat))
        except EscapedTracerError:
            # The rules run below the calling transform: a traced value that ``fun``
            # captures (rather than receives) is out of reach there.  Find such values
            # and pass them as extra inputs (closure conversion), then try again.
            captured = _captured_tracers(flat, leaves)
            if not captured:
                raise
            n = len(leaves)

            def converted(*xs):
                with _Substitute({id(t): c for t, c in zip(captured, xs[n:])}):
                    return flat(*xs[:n])

            outs = custom_call_p.bind(*leaves, *captured,
                                      rule=_remat_rule(name, converted, guard=False))
        return tree.unflatten(holder[0], outs)

    return remat


def _remat_rule(name, flat, guard=True):
    def jvp(primals, tangents):
        return _jvp_of(flat, primals, tangents)

    def fwd(*xs):
        return flat(*xs), xs  # keep only the inputs

    def bwd(xs, cts):
        return _vjp_of(flat, xs, cts)  # recompute the forward pass, then pull back

    return CustomRule(f"checkpoint({name})", flat, jvp=jvp, fwd=fwd, bwd=bwd, guard=guard)


class _CaptureProbe(Interpreter):
    """Runs a function once, on top of the current interpreter, to find the traced
    values it uses that it neither received as inputs nor computed: the values it
    captured from its enclosing scope.  Tracers of finished transforms are left out
    (they are genuine escapes, reported as such)."""

    __slots__ = ("known", "keep", "found")
    transform = "checkpoint (finding captured traced values)"

    def __init__(self, inputs):
        super().__init__()
        self.keep = list(inputs)  # keeps every id in `known` alive, hence unique
        self.known = {id(x) for x in inputs}
        self.found = {}

    def process(self, prim, args, params):
        for a in args:
            if isinstance(a, Tracer) and id(a) not in self.known and a._trace.active:
                self.found.setdefault(id(a), a)
        out = self.parent.process(prim, args, params)
        for o in (out if prim.multiple_results else (out,)):
            self.known.add(id(o))
            self.keep.append(o)
        return out


def _captured_tracers(flat, leaves):
    from .modes import no_grad
    probe = _CaptureProbe(leaves)
    with no_grad(), probe:  # nothing of the probe run is recorded
        flat(*leaves)
    return list(probe.found.values())


class _Substitute(Interpreter):
    """While current, replaces the captured tracers (by identity) in every operation's
    arguments with the values this call received for them, then hands the operation
    on: ``fun`` runs unchanged, its captured values become ordinary inputs."""

    __slots__ = ("mapping",)
    transform = "checkpoint (captured values as inputs)"

    def __init__(self, mapping):
        super().__init__()
        self.mapping = mapping

    def process(self, prim, args, params):
        get = self.mapping.get
        args = tuple(get(id(a), a) if isinstance(a, Tracer) else a for a in args)
        return self.parent.process(prim, args, params)


_ = inspect  # (kept for signature helpers later)
