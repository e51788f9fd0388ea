"""``while_loop``: a loop with a traced condition.  The ``while_loop`` primitive holds the
condition and the body as graphs; reverse mode needs the number of steps, so it runs the
loop on concrete values and differentiates it as a scan over the steps it took."""
from typing import Any, Callable
import numpy as np

from .. import tree
from ..core import ConcretizationError, Primitive, ShapedArray, concrete
from ..interpreters.graph import Graph, eval_graph
from ..jit.derive import (as_root, batch_graph, batch_key, derived, fit, holds_graphs,
                          is_float, jvp_graph, zeros)
from ..devices import register_gpu
from ..jit.passes import closure_convert
from ..jit.trace import trace_flat
from ._graphs import (aval, batch_axis_first, batch_size, carry_fixed_point,
                      cast_constant_outputs, check_carry, flatten_operands, operand,
                      plain_array, promoting_weak_carry, reorder, split_tangents,
                      tangent_groups, trace_pytree, with_extra_inputs, with_tangents)
from ._scan import scan_vjp
from ..typing import PyTree

__all__ = ["while_loop", "while_loop_p"]


def _while_impl(*args, cond, body, cond_nconsts, body_nconsts):
    cc = args[:cond_nconsts]
    bc = args[cond_nconsts:cond_nconsts + body_nconsts]
    carry = list(args[cond_nconsts + body_nconsts:])
    while bool(as_root(eval_graph, cond, *cc, *carry)[0]):
        carry = list(as_root(eval_graph, body, *bc, *carry))
    return [plain_array(c) for c in carry]


def _while_abstract(*avals, cond, body, cond_nconsts, body_nconsts):
    return [v.aval for v in body.invars[body_nconsts:]]


def _while_jvp(primals, tangents, *, cond, body, cond_nconsts, body_nconsts):
    ncc, nbc = cond_nconsts, body_nconsts
    n = len(body.invars)
    nk = n - nbc
    b_primals, b_tangents = primals[ncc:], tangents[ncc:]
    nz = [t is not None and is_float(v.aval) for t, v in zip(b_tangents, body.invars)]
    carry_nz = carry_fixed_point(nz[nbc:], lambda c: jvp_graph(
        body, tuple(nz[:nbc] + c), tuple(c))[1])
    pattern = tuple(nz[:nbc] + carry_nz)
    groups = [(0, nbc), (nbc, n)]  # the body's consts, the carry

    def build():
        jg, _ = jvp_graph(body, pattern, tuple(carry_nz))
        jbody = reorder(jg, tangent_groups(n, pattern, groups), [range(len(jg.outvars))])
        tangent_avals = [body.invars[p].aval for p in range(nbc, n) if pattern[p]]
        return jbody, with_extra_inputs(cond, tangent_avals)

    jbody, jcond = derived(body, ("while_jvp", pattern), build)
    outs = while_loop_p.bind(*primals[:ncc],
                             *with_tangents(b_primals, b_tangents, pattern, groups),
                             cond=jcond, body=jbody, cond_nconsts=ncc,
                             body_nconsts=nbc + sum(pattern[:nbc]))
    return split_tangents(outs, carry_nz, [(0, nk)])


_WHILE_REVERSE_HELP = (
    "reverse-mode differentiation (grad, vjp) of while_loop needs its number of steps, "
    "which is only known when the loop runs on concrete values; here it is being traced "
    "(inside jit, or another abstract trace), or the condition is batched by vmap (each "
    "example may take its own number of steps). Use fori_loop with Python-int bounds or "
    "lax.scan (a fixed number of steps), take the gradient outside jit and vmap, or use "
    "forward mode (jvp, jacfwd).")


def _while_reverse_fwd(vals, params):
    """Run the loop on concrete values under the enclosing interpreter, keeping the
    carry of every step (the trajectory) for the backward pass."""
    from ..numpy import stack
    cond, body = params["cond"], params["body"]
    ncc, nbc = params["cond_nconsts"], params["body_nconsts"]
    cc, bc = vals[:ncc], vals[ncc:ncc + nbc]
    carry = list(vals[ncc + nbc:])
    steps = []
    while True:
        pred = eval_graph(cond, *cc, *carry)[0]
        try:
            go = bool(concrete(pred))
        except ConcretizationError:
            raise ConcretizationError(_WHILE_REVERSE_HELP) from None
        if not go:
            break
        steps.append(carry)
        carry = list(eval_graph(body, *bc, *carry))
    avals = [v.aval for v in body.invars[nbc:]]
    if steps:
        trajectory = [stack([s[i] for s in steps]) for i in range(len(avals))]
    else:
        trajectory = [np.zeros((0,) + a.shape, a.dtype) for a in avals]
    return carry, [len(steps)] + trajectory


def _while_vjp(needs, cts, outs, *args, cond, body, cond_nconsts, body_nconsts,
               residuals=None):
    ncc, nbc = cond_nconsts, body_nconsts
    params = dict(cond=cond, body=body, cond_nconsts=ncc, body_nconsts=nbc)
    if residuals is None:
        residuals = _while_reverse_fwd(args, params)[1]
    length, trajectory = residuals[0], residuals[1:]
    bc = list(args[ncc:ncc + nbc])
    nk = len(args) - ncc - nbc
    if _holds_while(body):
        # A loop inside the body takes its own number of steps at each step: there is no
        # one backward body to trace for a scan, so each step is pulled back on its values.
        from ..eager.tensor import Tensor  # (the tape imports lax: looked up when used)
        if any(isinstance(v, Tensor) for v in list(args) + list(trajectory)):
            raise NotImplementedError(
                "the eager Tensor cannot differentiate a while_loop whose body runs another "
                "while_loop; take the gradient with fg.grad or fg.vjp, or write the inner "
                "loop as fori_loop with Python-int bounds or lax.scan")
        grads = _stepwise_vjp(cts, bc, trajectory, length, body)
        return [None] * ncc + [g if need else None for g, need in zip(grads, needs[ncc:])]
    # The same backward as a scan over the recorded steps (no xs, no ys).
    grads = scan_vjp(tuple(needs[ncc:]), list(cts), list(outs), *bc, *args[ncc + nbc:],
                     body=body, length=length, reverse=False, num_consts=nbc,
                     num_carry=nk, residuals=trajectory)
    return [None] * ncc + list(grads)


def _holds_while(graph):
    """Whether ``graph`` runs a ``while_loop``, directly or inside another graph."""
    for eqn in graph.eqns:
        if eqn.prim is while_loop_p:
            return True
        for p in eqn.params.values():
            for g in (p if isinstance(p, (tuple, list)) else (p,)):
                if isinstance(g, Graph) and _holds_while(g):
                    return True
    return False


def _stepwise_vjp(cts, consts, trajectory, length, body):
    """Cotangents of ``(consts, initial carry)``: the body's VJP at each recorded step, last
    step first, on the step's own values (so loops inside the body run on concrete values
    too); None for integer and boolean inputs."""
    from ..api import vjp
    nbc = len(consts)
    floats = [i for i, v in enumerate(body.invars) if is_float(v.aval)]
    f_carry = [i - nbc for i in floats if i >= nbc]
    carry_avals = [v.aval for v in body.invars[nbc:]]
    carry_ct = [zeros(carry_avals[j]) if cts[j] is None else cts[j] for j in f_carry]
    const_ct = [None] * nbc
    for k in range(length - 1, -1, -1):
        vals = list(consts) + [t[k] for t in trajectory]

        def step(*xs, vals=vals):
            full = list(vals)
            for i, x in zip(floats, xs):
                full[i] = x
            outs = eval_graph(body, *full)
            return [outs[j] for j in f_carry]
        pullback = vjp(step, *[vals[i] for i in floats])[1]
        by_input = dict(zip(floats, pullback([fit(c, carry_avals[j])
                                              for c, j in zip(carry_ct, f_carry)])))
        carry_ct = [by_input[nbc + j] for j in f_carry]
        for i in floats:
            if i < nbc:
                const_ct[i] = by_input[i] if const_ct[i] is None else const_ct[i] + by_input[i]
    grads = const_ct + [None] * len(carry_avals)
    for j, c in zip(f_carry, carry_ct):
        grads[nbc + j] = c
    for i in floats:
        if i < nbc and grads[i] is None:  # a loop of no steps
            grads[i] = zeros(body.invars[i].aval)
    return grads


def _while_batch(args, dims, *, cond, body, cond_nconsts, body_nconsts):
    from ..primitives.elementwise import where
    from ..primitives.reductions import reduce_max
    from ..primitives.structural import reshape
    ncc, nbc = cond_nconsts, body_nconsts
    size = batch_size(args, dims)
    b = [d is not None for d in dims]
    nk = len(args) - ncc - nbc
    carry_b = carry_fixed_point(b[ncc + nbc:], lambda c: batch_graph(
        body, tuple(b[ncc:ncc + nbc] + c), size, tuple(c))[1])
    _, pred_b = batch_graph(cond, tuple(b[:ncc] + carry_b), size)
    if pred_b[0]:  # examples stop at different steps: all carries batched, done ones frozen
        carry_b = [True] * nk
    c_pattern = tuple(b[:ncc] + carry_b)
    b_pattern = tuple(b[ncc:ncc + nbc] + carry_b)

    def build():
        bcond, _ = batch_graph(cond, c_pattern, size)
        bbody, _ = batch_graph(body, b_pattern, size, tuple(carry_b))
        if not pred_b[0]:
            return bcond, bbody
        # cond: is any example still running; body: step the running ones only (the
        # body's constants are then the cond's followed by its own).
        c_avals = [v.aval for v in bcond.invars]
        any_cond = closure_convert(trace_flat(
            lambda *xs: [reduce_max(eval_graph(bcond, *xs)[0], (0,))], c_avals, "jit"))[0]
        avals = (c_avals[:ncc] + [v.aval for v in bbody.invars[:nbc]]
                 + [v.aval for v in bbody.invars[nbc:]])

        def step(*xs):
            cc, bcs, carry = xs[:ncc], xs[ncc:ncc + nbc], xs[ncc + nbc:]
            running = eval_graph(bcond, *cc, *carry)[0]
            new = eval_graph(bbody, *bcs, *carry)
            outs = []
            for n, c in zip(new, carry):
                keep = reshape(running, (size,) + (1,) * (len(c.shape) - 1))
                outs.append(where(keep, n, c))
            return outs

        return any_cond, closure_convert(trace_flat(step, avals, "jit"))[0]

    bcond, bbody = derived(body, batch_key("while_batch", c_pattern, b_pattern, size), build)
    moved = [batch_axis_first(a, d, size, force=i >= ncc + nbc and carry_b[i - ncc - nbc])
             for i, (a, d) in enumerate(zip(args, dims))]
    cc, bc, init = moved[:ncc], moved[ncc:ncc + nbc], moved[ncc + nbc:]
    if pred_b[0]:
        bc = cc + bc
    outs = while_loop_p.bind(*cc, *bc, *init, cond=bcond, body=bbody, cond_nconsts=ncc,
                             body_nconsts=len(bc))
    return list(outs), [0 if z else None for z in carry_b]


while_loop_p = Primitive("while_loop", _while_impl, abstract_eval=_while_abstract,
                         jvp=_while_jvp, vjp=_while_vjp, batch=_while_batch,
                         reverse_fwd=_while_reverse_fwd, multiple_results=True)
# Graph-evaluating impls dispatch each operation on its operands' device: GPU-ready as is.
register_gpu({while_loop_p: _while_impl})
holds_graphs(while_loop_p)


def while_loop(cond_fun: Callable[..., Any], body_fun: Callable[..., Any],
               init_val: PyTree) -> PyTree:
    """``while cond_fun(val): val = body_fun(val)``; returns the final ``val``.

    ``cond_fun`` returns a scalar boolean; ``body_fun`` keeps the structure, shapes and
    dtypes of ``val``.  Forward mode and ``vmap`` work everywhere; reverse mode works
    when the loop runs on concrete values (not while tracing for ``jit``).

    >>> import funcgrad as fg
    >>> float(fg.lax.while_loop(lambda x: x < 10.0, lambda x: x * 2.0, 1.0))
    16.0
    """
    raw_leaves, in_tree = flatten_operands(init_val)

    def cond_flat(*xs):
        pred = cond_fun(tree.unflatten(in_tree, list(xs)))
        pred = operand(pred)
        if pred.shape != () or pred.dtype.kind not in "biu":
            raise TypeError(f"while_loop: cond_fun must return a scalar boolean, got "
                            f"{aval(pred).str_short()}")
        if pred.dtype.kind != "b":  # an integer is true when nonzero (vmap's any-lane test
            from ..primitives.elementwise import not_equal  # and masks need booleans)
            pred = not_equal(pred, np.zeros((), pred.dtype))
        return pred

    def traced(leaves, weak):
        avals = [aval(x) for x in leaves]

        def body_flat(*xs):
            out = body_fun(tree.unflatten(in_tree, list(xs)))
            check_carry("while_loop", in_tree, avals, out, weak)
            return out

        bgraph, btracers, _ = trace_pytree(body_flat, avals, "lax.while_loop", leaves)
        return leaves, avals, bgraph, btracers

    leaves, avals, bgraph, btracers = promoting_weak_carry(raw_leaves, traced)
    cgraph, ctracers, _ = trace_pytree(cond_flat, avals, "lax.while_loop", leaves)
    bgraph = cast_constant_outputs(bgraph, avals, "while_loop")
    cgraph = cast_constant_outputs(cgraph, [ShapedArray((), np.bool_)], "while_loop")
    outs = while_loop_p.bind(*ctracers, *btracers, *leaves, cond=cgraph, body=bgraph,
                             cond_nconsts=len(ctracers), body_nconsts=len(btracers))
    return tree.unflatten(in_tree, outs)
