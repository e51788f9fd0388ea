"""``scan``: a loop carrying state and stacking per-step outputs.  The ``scan`` primitive
holds the loop body as a graph ``(consts, carry, x) -> (carry, y)``; reverse mode keeps
the carry of every step (the trajectory) and runs a backward scan over it."""
from typing import Any, Callable
import numpy as np

from .. import tree
from ..core import Primitive, ShapedArray, _special_classes
from ..interpreters.graph import Graph, eval_graph, without_effects
from ..jit.derive import (as_root, batch_graph, batch_key, derived, fit, holds_graphs,
                          is_float, jvp_graph, out_aval, vjp_joint, zeros)
from ..devices import register_gpu
from ..jit.passes import closure_convert
from ..jit.trace import trace_flat
from ._graphs import (aval, batch_axis_first, batch_size, carry_fixed_point,
                      cast_constant_outputs, check_carry, flatten_operands, operand,
                      plain_array, promoting_weak_carry, reorder, split_tangents,
                      tangent_groups, trace_pytree, with_tangents)
from ..typing import PyTree

__all__ = ["scan", "scan_p", "scan_vjp"]


def _scan_impl(*args, body, length, reverse, num_consts, num_carry):
    return as_root(_scan_eval, args, body, length, reverse, num_consts, num_carry)


def _scan_eval(args, body, length, reverse, num_consts, num_carry):
    from ..numpy import stack
    consts, carry = list(args[:num_consts]), list(args[num_consts:num_consts + num_carry])
    xs = args[num_consts + num_carry:]
    y_avals = [out_aval(v) for v in body.outvars[num_carry:]]
    steps = range(length - 1, -1, -1) if reverse else range(length)
    ys = [[None] * length for _ in y_avals]
    for k in steps:
        outs = eval_graph(body, *consts, *carry, *[x[k] for x in xs])
        carry = list(outs[:num_carry])
        for y, o in zip(ys, outs[num_carry:]):
            y[k] = o
    carry = [plain_array(c) for c in carry]
    if not length:
        return carry + [np.zeros((0,) + a.shape, a.dtype) for a in y_avals]
    return carry + [plain_array(stack(y)) for y in ys]


def _scan_abstract(*avals, body, length, reverse, num_consts, num_carry):
    outs = [out_aval(v) for v in body.outvars]
    return outs[:num_carry] + [ShapedArray((length,) + a.shape, a.dtype)
                               for a in outs[num_carry:]]


def _scan_jvp(primals, tangents, *, body, length, reverse, num_consts, num_carry):
    nc, nk = num_consts, num_carry
    n, m = len(body.invars), len(body.outvars)
    ny = m - nk
    nz = [t is not None and is_float(v.aval) for t, v in zip(tangents, body.invars)]
    carry_nz = carry_fixed_point(nz[nc:nc + nk], lambda c: jvp_graph(
        body, tuple(nz[:nc] + c + nz[nc + nk:]), tuple(c) + (False,) * ny)[1][:nk])
    pattern = tuple(nz[:nc] + carry_nz + nz[nc + nk:])
    in_groups = [(0, nc), (nc, nc + nk), (nc + nk, n)]  # consts, carry, xs
    out_groups = [(0, nk), (nk, m)]  # carry, ys

    def build():
        jg, out_nz = jvp_graph(body, pattern, tuple(carry_nz) + (False,) * ny)
        return reorder(jg, tangent_groups(n, pattern, in_groups),
                       tangent_groups(m, out_nz, out_groups)), out_nz

    jbody, out_nz = derived(body, ("scan_jvp", pattern), build)
    outs = scan_p.bind(*with_tangents(primals, tangents, pattern, in_groups), body=jbody,
                       length=length, reverse=reverse, num_consts=nc + sum(pattern[:nc]),
                       num_carry=nk + sum(carry_nz))
    return split_tangents(outs, out_nz, out_groups)


def _trajectory_body(body, num_consts, num_carry):
    """The body that also outputs the carry it received (stacked: the trajectory)."""
    carry_in = body.invars[num_consts:num_consts + num_carry]
    return Graph(list(body.invars), body.eqns, list(body.outvars) + list(carry_in))


def _scan_reverse_fwd(vals, params):
    body, nk = params["body"], params["num_carry"]
    tbody = derived(body, ("scan_traj",), lambda: _trajectory_body(body, params["num_consts"],
                                                                   nk))
    outs = scan_p.bind(*vals, **dict(params, body=tbody))
    n = len(body.outvars)
    return list(outs[:n]), list(outs[n:])
def _scan_backward_body(body, nc, nk):
    """One backward step: ``(consts, const_ct_acc, carry_ct, carry_k, x_k, y_ct_k) ->
    (const_ct_acc + d consts, carry_ct before the step, x_ct_k)``, float parts only."""
    joint, float_in, float_out = vjp_joint(body, with_outputs=False)
    joint = without_effects(joint)  # (the forward pass printed, once per step)
    n_in = len(body.invars)
    f_consts = [i for i in float_in if i < nc]
    f_carry = [i for i in float_in if nc <= i < nc + nk]
    f_xs = [i for i in float_in if i >= nc + nk]
    fo_carry = [i for i in float_out if i < nk]
    fo_ys = [i for i in float_out if i >= nk]
    # Inputs of the backward body, grouped as scan wants them.
    consts_avals = [v.aval for v in body.invars[:nc]]
    acc_avals = [body.invars[i].aval for i in f_consts]
    ct_avals = [out_aval(body.outvars[i]) for i in fo_carry]
    traj_avals = [v.aval for v in body.invars[nc:nc + nk]]
    x_avals = [v.aval for v in body.invars[nc + nk:]]
    y_ct_avals = [out_aval(body.outvars[i]) for i in fo_ys]
    avals = consts_avals + acc_avals + ct_avals + traj_avals + x_avals + y_ct_avals
    sizes = [len(consts_avals), len(acc_avals), len(ct_avals), len(traj_avals), len(x_avals),
             len(y_ct_avals)]

    def step(*xs):
        parts, k = [], 0
        for s in sizes:
            parts.append(list(xs[k:k + s]))
            k += s
        consts, acc, carry_ct, carry, x, y_ct = parts
        ct_by_out = dict(zip(fo_carry, carry_ct))
        ct_by_out.update(zip(fo_ys, y_ct))
        in_cts = eval_graph(joint, *consts, *carry, *x, *[ct_by_out[i] for i in float_out])
        by_in = dict(zip(float_in, in_cts))
        new_acc = [a + by_in[i] for a, i in zip(acc, f_consts)]
        new_ct = [fit(by_in[i], body.invars[i].aval) for i in f_carry]
        return new_acc + new_ct + [by_in[i] for i in f_xs]

    graph = closure_convert(trace_flat(step, avals, "jit"))[0]
    return graph, sizes, (f_consts, f_carry, f_xs, fo_carry, fo_ys), n_in


def scan_vjp(needs, cts, outs, *args, body, length, reverse, num_consts, num_carry,
              residuals=None):
    nc, nk = num_consts, num_carry
    if residuals is None or any(type(a) in _special_classes for a in args):
        # Reached without the reverse interpreter's forward, or on the eager Tensor's graph
        # (create_graph=True): the trajectory is computed again from the arguments, so that
        # its dependence on them (on the initial carry, the constants) is recorded; the
        # forward's, plain arrays, would drop it and the second derivative with it.
        residuals = _scan_reverse_fwd(args, dict(body=body, length=length, reverse=reverse,
                                                 num_consts=nc, num_carry=nk))[1]
    bbody, sizes, (f_consts, f_carry, f_xs, fo_carry, fo_ys), _ = derived(
        body, ("scan_vjp",), lambda: _scan_backward_body(body, nc, nk))
    consts, xs = list(args[:nc]), list(args[nc + nk:])
    out_avals = _scan_abstract(body=body, length=length, reverse=reverse, num_consts=nc,
                               num_carry=nk)
    acc0 = [zeros(body.invars[i].aval) for i in f_consts]
    ct0 = [zeros(out_avals[i]) if cts[i] is None else cts[i] for i in fo_carry]
    y_cts = [zeros(out_avals[i]) if cts[i] is None else cts[i] for i in fo_ys]
    outs = scan_p.bind(*consts, *acc0, *ct0, *residuals, *xs, *y_cts, body=bbody,
                       length=length, reverse=not reverse, num_consts=sizes[0],
                       num_carry=sizes[1] + sizes[2])
    acc, carry_ct, x_cts = (outs[:sizes[1]], outs[sizes[1]:sizes[1] + sizes[2]],
                            outs[sizes[1] + sizes[2]:])
    result = [None] * len(args)
    for i, c in zip(f_consts, acc):
        result[i] = c
    for i, c in zip(f_carry, carry_ct):
        result[i] = c
    for i, c in zip(f_xs, x_cts):
        result[i] = c
    return [r if need else None for r, need in zip(result, needs)]


def _scan_batch(args, dims, *, body, length, reverse, num_consts, num_carry):
    from ..primitives.structural import moveaxis
    nc, nk = num_consts, num_carry
    size = batch_size(args, dims)
    b = [d is not None for d in dims]
    ny = len(body.outvars) - nk
    carry_b = carry_fixed_point(b[nc:nc + nk], lambda c: batch_graph(
        body, tuple(b[:nc] + c + b[nc + nk:]), size, tuple(c) + (False,) * ny)[1][:nk])
    pattern = tuple(b[:nc] + carry_b + b[nc + nk:])
    bbody, out_b = derived(body, batch_key("scan_batch", pattern, size), lambda: batch_graph(
        body, pattern, size, tuple(carry_b) + (False,) * ny))
    new_args = []
    for i, (a, d) in enumerate(zip(args, dims)):
        if i >= nc + nk and d is not None:  # the scanned axis stays first, the batch second
            new_args.append(moveaxis(a, d, 1))
        else:  # consts, and carries (batched when the loop makes them so)
            new_args.append(batch_axis_first(a, d, size, force=nc <= i < nc + nk and pattern[i]))
    outs = scan_p.bind(*new_args, body=bbody, length=length, reverse=reverse, num_consts=nc,
                       num_carry=nk)
    out_dims = [0 if z else None for z in out_b[:nk]] + [1 if z else None for z in out_b[nk:]]
    return list(outs), out_dims


scan_p = Primitive("scan", _scan_impl, abstract_eval=_scan_abstract, jvp=_scan_jvp,
                   vjp=scan_vjp, batch=_scan_batch, reverse_fwd=_scan_reverse_fwd,
                   multiple_results=True)
# Graph-evaluating impls dispatch each operation on its operands' device: GPU-ready as is.
register_gpu({scan_p: _scan_impl})
holds_graphs(scan_p)


def scan(f: Callable[..., Any], init: PyTree, xs: PyTree | None = None, length: int | None = None,
         reverse: bool = False, unroll: int | bool = 1) -> tuple[PyTree, PyTree]:
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs``; returns the final
    carry and the stacked ``y``s (as ``jax.lax.scan``).

    ``xs`` is a pytree of arrays (or None, with ``length`` given); ``reverse=True`` runs
    from the last element to the first.  The carry keeps its structure, shapes and dtypes.
    ``unroll`` (JAX's hint to XLA) is accepted and changes nothing: ``fg.jit`` lowers the
    loop its own way, with the same results.

    >>> import numpy as np, funcgrad as fg
    >>> total, partial = fg.lax.scan(lambda c, x: (c + x, c + x), 0.0, np.arange(4.0))
    >>> float(total), partial
    (6.0, array([0., 1., 3., 6.]))
    """
    if not isinstance(unroll, (bool, int)) or isinstance(unroll, int) and unroll < 0:
        raise ValueError(f"scan: unroll={unroll!r} must be a non-negative int or a bool")
    raw_init, init_tree = flatten_operands(init)
    x_leaves, x_tree = flatten_operands(xs)
    x_leaves = [operand(x) for x in x_leaves]
    lengths = {int(x.shape[0]) for x in x_leaves if x.ndim}
    if any(x.ndim == 0 for x in x_leaves):
        raise ValueError("scan: every leaf of xs needs a leading axis to scan over")
    if length is not None:
        lengths.add(int(length))
    if len(lengths) != 1:
        raise ValueError(f"scan: the leading axes of xs and length= disagree: {sorted(lengths)}"
                         if lengths else "scan: give xs or length=")
    length = lengths.pop()
    x_avals = [ShapedArray(x.shape[1:], x.dtype) for x in x_leaves]
    nk = len(raw_init)

    def traced(init_leaves, weak):
        init_avals = [aval(x) for x in init_leaves]
        y_tree = []

        def body(*vals):
            carry = tree.unflatten(init_tree, list(vals[:nk]))
            x = tree.unflatten(x_tree, list(vals[nk:])) if xs is not None else None
            out = f(carry, x)
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError("scan: the function must return a pair (carry, y)")
            new_carry, y = out
            c_leaves = check_carry("scan", init_tree, init_avals, new_carry, weak)
            y_leaves, yt = tree.flatten(y)
            y_tree.append(yt)
            return c_leaves + y_leaves

        graph, tracers, _ = trace_pytree(lambda *v: body(*v), init_avals + x_avals, "lax.scan",
                                         list(init_leaves) + list(x_leaves))
        return init_leaves, graph, tracers, y_tree[0]

    init_leaves, graph, tracers, y_tree = promoting_weak_carry(raw_init, traced)
    carry_avals = [out_aval(v) for v in graph.outvars[:nk]]
    graph = cast_constant_outputs(graph, carry_avals, "scan")
    outs = scan_p.bind(*tracers, *init_leaves, *x_leaves, body=graph, length=length,
                       reverse=bool(reverse), num_consts=len(tracers), num_carry=nk)
    return tree.unflatten(init_tree, outs[:nk]), tree.unflatten(y_tree, outs[nk:])


