"""``fg.lax``: control flow on traced values, as differentiable primitives.

Inside ``jit`` a Python ``if`` or ``while`` on a traced value cannot run (the value is
not known while tracing); these functions express value-dependent control flow as
primitives whose branches and bodies are traced into graphs:

* :func:`cond` / :func:`switch` — pick a branch by a (traced) predicate or index;
* :func:`fori_loop` — a counted loop; with Python-int bounds it is a :func:`scan`;
* :func:`while_loop` — a loop with a traced condition;
* :func:`scan` — a loop carrying state and stacking per-step outputs.

They also work eagerly and under every transform: each primitive has all its rules
(``impl``, ``abstract_eval``, ``jvp``, ``vjp``, ``batch``), built from its graphs by
:mod:`funcgrad.jit.derive`.  Reverse mode of ``scan``/``fori_loop`` saves the carry of
every step and runs the steps backwards; reverse mode of ``while_loop`` needs the
number of steps, so it works when the loop runs on concrete values (``grad`` outside
``jit``) and raises a clear error while tracing for ``jit`` (use ``fori_loop`` or
``scan`` there).

Eagerly (outside ``jit``) branches and bodies are evaluated operation by operation;
wrap the caller in ``fg.jit`` to compile them into one loop.

>>> import numpy as np, funcgrad as fg
>>> fg.lax.fori_loop(0, 3, lambda i, x: x * 2.0, 1.0)
array(8.)
>>> fg.jit(lambda x: fg.lax.cond(x > 0, np.sin, np.cos, x))(0.0)
array(1.)
"""
import numbers

import numpy as np

from . import tree
from .core import ConcretizationError, Primitive, ShapedArray, Tracer, _state, concrete
from .interpreters.graph import Graph, Var, eval_graph
from .jit.derive import (as_root, batch_graph, derived, fit, is_float, jvp_graph, out_aval,
                         register_device_impls, vjp_joint, zeros)
from .jit.passes import closure_convert
from .jit.trace import trace_flat
from .numpy._convert import asarray

__all__ = ["cond", "switch", "fori_loop", "while_loop", "scan", "cond_p", "scan_p",
           "while_loop_p"]


def _process(prim, args, params):
    return _state.interpreter.process(prim, args, params)


def _operand(x):
    return x if isinstance(x, Tracer) else asarray(x)


def _aval(x):
    return ShapedArray(x.shape, x.dtype)


def _describe(avals):
    return "(" + ", ".join(a.str_short() for a in avals) + ")"


def _trace(fun, avals, what):
    """Trace ``fun`` on ``avals`` into a graph with closed-over tracers made inputs:
    ``(graph, tracers, out_tree)``; ``fun`` returns a pytree."""
    out_trees = []

    def flat(*xs):
        out = fun(*xs)
        leaves, out_tree = tree.flatten(out)
        out_trees.append(out_tree)
        return [o if isinstance(o, Tracer) else asarray(o) for o in leaves]

    graph = trace_flat(flat, avals, what)
    graph, tracers = closure_convert(graph)
    return graph, tracers, out_trees[0]


def _merge_closures(graphs_and_tracers):
    """Give several graphs the same leading closure inputs: the union of the tracers they
    closed over.  Returns ``(graphs, tracers)``."""
    union, index = [], {}
    for _, tracers in graphs_and_tracers:
        for t in tracers:
            if id(t) not in index:
                index[id(t)] = len(union)
                union.append(t)
    graphs = []
    for graph, tracers in graphs_and_tracers:
        own = {id(t): v for t, v in zip(tracers, graph.invars[:len(tracers)])}
        lead = [own.get(id(t)) or Var(ShapedArray(t.shape, t.dtype)) for t in union]
        graphs.append(Graph(lead + list(graph.invars[len(tracers):]), graph.eqns,
                            graph.outvars))
    return graphs, union


def _with_outputs(graph, outvars):
    return Graph(list(graph.invars), graph.eqns, list(outvars))


def _cast_constant_outputs(graph, avals, what):
    """Outputs that are constants take the abstract value ``avals`` expects."""
    outs = []
    for i, (x, aval) in enumerate(zip(graph.outvars, avals)):
        if not isinstance(x, Var) and out_aval(x) != aval:
            c = np.asarray(x)
            try:
                np.broadcast_to(c, aval.shape)
            except ValueError:
                raise TypeError(f"{what}: output {i} is a constant of shape {c.shape}, which "
                                f"does not fit {aval.str_short()}") from None
            x = np.broadcast_to(c.astype(aval.dtype), aval.shape).copy()
        outs.append(x)
    return _with_outputs(graph, outs + list(graph.outvars[len(avals):]))


# --- cond / switch ------------------------------------------------------------------------

def _cond_impl(index, *operands, branches):
    k = min(max(int(index), 0), len(branches) - 1)
    return as_root(eval_graph, branches[k], *operands)


def _cond_abstract(index, *operands, branches):
    return [out_aval(x) for x in branches[0].outvars]


def _cond_jvp(primals, tangents, *, branches):
    index, operands = primals[0], primals[1:]
    graph0 = branches[0]
    nonzero = tuple(t is not None and is_float(v.aval)
                    for t, v in zip(tangents[1:], graph0.invars))

    def build():
        out_nz = tuple(any(jvp_graph(g, nonzero)[1][i] for g in branches)
                       for i in range(len(graph0.outvars)))
        return [jvp_graph(g, nonzero, out_nz)[0] for g in branches], out_nz

    jbranches, out_nz = derived(graph0, ("cond_jvp", nonzero), build)
    args = list(operands) + [t for t, z in zip(tangents[1:], nonzero) if z]
    outs = _process(cond_p, [index] + args, {"branches": tuple(jbranches)})
    n = len(graph0.outvars)
    rest = iter(outs[n:])
    return list(outs[:n]), [next(rest) if z else None for z in out_nz]


def _cond_vjp(needs, cts, outs, index, *operands, branches):
    graph0 = branches[0]

    def build():
        joints = [vjp_joint(g, with_outputs=False) for g in branches]
        return [j[0] for j in joints], joints[0][1], joints[0][2]

    jbranches, float_in, float_out = derived(graph0, ("cond_vjp",), build)
    ct_args = [zeros(out_aval(graph0.outvars[i])) if cts[i] is None else cts[i]
               for i in float_out]
    in_cts = _process(cond_p, [index] + list(operands) + ct_args,
                      {"branches": tuple(jbranches)})
    result = [None] * (1 + len(operands))
    for i, c in zip(float_in, in_cts):
        if needs[1 + i]:
            result[1 + i] = c
    return result


def _cond_batch(args, dims, *, branches):
    from .primitives.elementwise import clip, equal, where
    from .primitives.structural import moveaxis, reshape
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    index, operands = args[0], list(args[1:])
    moved = [moveaxis(a, d, 0) if d is not None else a for a, d in zip(operands, dims[1:])]
    batched = tuple(d is not None for d in dims[1:])
    graph0 = branches[0]
    n_out = len(graph0.outvars)
    force = (True,) * n_out
    bbranches = derived(graph0, ("cond_batch", batched, size),
                        lambda: [batch_graph(g, batched, size, force)[0] for g in branches])
    if dims[0] is None:  # one branch for the whole batch
        outs = _process(cond_p, [index] + moved, {"branches": tuple(bbranches)})
        return list(outs), [0] * n_out
    # A batched predicate: every branch runs, then each example picks its result.
    index = moveaxis(index, dims[0], 0)
    index = clip(index, 0, len(branches) - 1)
    results = [eval_graph(g, *moved) for g in bbranches]
    outs = list(results[0])
    for k in range(1, len(branches)):
        for i in range(n_out):
            aval = out_aval(bbranches[k].outvars[i])
            pick = reshape(equal(index, k), (size,) + (1,) * (len(aval.shape) - 1))
            outs[i] = where(pick, results[k][i], outs[i])
    return outs, [0] * n_out


cond_p = Primitive("cond", _cond_impl, abstract_eval=_cond_abstract, jvp=_cond_jvp,
                   vjp=_cond_vjp, batch=_cond_batch, multiple_results=True)


def switch(index, branches, *operands):
    """``branches[index](*operands)``, with ``index`` clamped to ``[0, len(branches) - 1]``.

    All branches must return the same structure, shapes and dtypes.

    >>> import funcgrad as fg
    >>> float(fg.lax.switch(1, [lambda x: x, lambda x: 2 * x, lambda x: 3 * x], 1.0))
    2.0
    """
    return _switch(index, branches, operands, [f"branch {k}" for k in range(len(branches))],
                   "switch")


def _switch(index, branches, operands, names, what):
    branches = list(branches)
    if not branches:
        raise ValueError(f"{what} needs at least one branch")
    leaves, in_tree = tree.flatten(operands)
    leaves = [_operand(x) for x in leaves]
    avals = [_aval(x) for x in leaves]
    traced = []
    out_tree = None
    for k, fn in enumerate(branches):
        graph, tracers, tree_k = _trace(
            lambda *xs, fn=fn: fn(*tree.unflatten(in_tree, list(xs))), avals, "lax.cond")
        if out_tree is None:
            out_tree = tree_k
        elif tree_k != out_tree:
            raise TypeError(f"{what}: {names[k]} returns structure {tree_k} but {names[0]} "
                            f"returns {out_tree}; all branches must return the same structure")
        traced.append((graph, tracers))
    # The traced outputs fix each output's abstract value; constants are converted to it.
    out_avals = []
    for i in range(len(traced[0][0].outvars)):
        traced_k = [k for k, (g, _) in enumerate(traced) if isinstance(g.outvars[i], Var)]
        ref = traced_k[0] if traced_k else 0
        aval = out_aval(traced[ref][0].outvars[i])
        for k in traced_k:
            x = traced[k][0].outvars[i]
            if x.aval != aval:
                raise TypeError(
                    f"{what}: {names[k]} returns {x.aval.str_short()} for output {i} but "
                    f"{names[ref]} returns {aval.str_short()}; branches must agree in shape "
                    f"and dtype (cast with .astype, or broadcast, in the branch)")
        out_avals.append(aval)
    traced = [(_cast_constant_outputs(g, out_avals, what), t) for g, t in traced]
    graphs, tracers = _merge_closures(traced)
    index = _operand(index)
    if index.shape != ():
        raise TypeError(f"{what}: the predicate/index must be a scalar, got shape "
                        f"{index.shape}. Use fg.numpy.where for elementwise choices, or vmap.")
    if index.dtype.kind == "f":
        raise TypeError(f"{what}: the index must be an integer or boolean, got "
                        f"{index.dtype}")
    from .primitives.structural import convert_element_type
    if index.dtype != np.dtype(np.int32):
        index = convert_element_type(index, np.int32)
    outs = _process(cond_p, [index] + list(tracers) + leaves, {"branches": tuple(graphs)})
    return tree.unflatten(out_tree, outs)


def cond(pred, true_fun, false_fun, *operands):
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, with a traced
    scalar predicate.  Both branches must return the same structure, shapes and dtypes;
    derivatives flow through the branch taken.

    >>> import numpy as np, funcgrad as fg
    >>> f = lambda x: fg.lax.cond(x > 0, lambda y: y * y, lambda y: -y, x)
    >>> float(fg.grad(f)(3.0)), float(fg.jit(fg.grad(f))(-3.0))
    (6.0, -1.0)
    """
    pred = _operand(pred)
    if pred.shape != ():
        raise TypeError(f"cond: the predicate must be a scalar, got shape {pred.shape}. Use "
                        f"fg.numpy.where for elementwise choices, or vmap over cond.")
    return _switch(pred, [false_fun, true_fun], operands, ["false_fun", "true_fun"], "cond")


# --- scan ----------------------------------------------------------------------------------

def _scan_impl(*args, body, length, reverse, num_consts, num_carry):
    return as_root(_scan_eval, args, body, length, reverse, num_consts, num_carry)


def _scan_eval(args, body, length, reverse, num_consts, num_carry):
    from .numpy import stack
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
    carry = [_plain_array(c) for c in carry]
    if not length:
        return carry + [np.zeros((0,) + a.shape, a.dtype) for a in y_avals]
    return carry + [_plain_array(stack(y)) for y in ys]


def _plain_array(x):
    return np.asarray(x) if isinstance(x, (np.generic, float, int, bool)) else x


def _scan_abstract(*avals, body, length, reverse, num_consts, num_carry):
    outs = [out_aval(v) for v in body.outvars]
    return outs[:num_carry] + [ShapedArray((length,) + a.shape, a.dtype)
                               for a in outs[num_carry:]]


def _reorder(graph, groups_in, groups_out):
    """``graph`` with inputs and outputs regrouped: ``groups_*`` list index ranges."""
    invars = [graph.invars[i] for g in groups_in for i in g]
    outvars = [graph.outvars[i] for g in groups_out for i in g]
    return Graph(invars, graph.eqns, outvars)


def _scan_jvp(primals, tangents, *, body, length, reverse, num_consts, num_carry):
    nc, nk = num_consts, num_carry
    nx = len(primals) - nc - nk
    ny = len(body.outvars) - nk
    nz = [t is not None and is_float(v.aval) for t, v in zip(tangents, body.invars)]
    carry_nz = nz[nc:nc + nk]
    for _ in range(nk + 1):  # a carry tangent is nonzero if it can become nonzero
        pattern = tuple(nz[:nc] + carry_nz + nz[nc + nk:])
        _, out_nz = jvp_graph(body, pattern, tuple(carry_nz) + (False,) * ny)
        new = [a or b for a, b in zip(carry_nz, out_nz[:nk])]
        if new == carry_nz:
            break
        carry_nz = new
    pattern = tuple(nz[:nc] + carry_nz + nz[nc + nk:])

    def build():
        jg, out_nz = jvp_graph(body, pattern, tuple(carry_nz) + (False,) * ny)
        n = len(body.invars)
        t_pos = [i for i, z in enumerate(pattern) if z]  # tangent inputs, by body position
        t_index = {p: n + j for j, p in enumerate(t_pos)}
        group = lambda lo, hi: [i for i in range(lo, hi)] + [t_index[p] for p in t_pos
                                                             if lo <= p < hi]
        ins = [group(0, nc), group(nc, nc + nk), group(nc + nk, nc + nk + nx)]
        m = len(body.outvars)
        o_pos = [i for i, z in enumerate(out_nz) if z]
        o_index = {p: m + j for j, p in enumerate(o_pos)}
        outs_c = list(range(nk)) + [o_index[p] for p in o_pos if p < nk]
        outs_y = list(range(nk, m)) + [o_index[p] for p in o_pos if p >= nk]
        return _reorder(jg, ins, [outs_c, outs_y]), out_nz

    jbody, out_nz = derived(body, ("scan_jvp", pattern), build)
    args, tans = list(primals), list(tangents)
    carry_t = [t if t is not None else zeros(_aval(p))
               for t, p in zip(tans[nc:nc + nk], args[nc:nc + nk])]

    def pick(lo, hi, values):
        return [v for v, z in zip(values, pattern[lo:hi]) if z]

    new_args = (args[:nc] + pick(0, nc, tans[:nc]) + args[nc:nc + nk]
                + pick(nc, nc + nk, carry_t) + args[nc + nk:] + pick(nc + nk, nc + nk + nx,
                                                                     tans[nc + nk:]))
    n_ct = sum(pattern[:nc])
    n_kt = sum(carry_nz)
    outs = _process(scan_p, new_args, dict(body=jbody, length=length, reverse=reverse,
                                           num_consts=nc + n_ct, num_carry=nk + n_kt))
    carry_out, carry_tout = outs[:nk], iter(outs[nk:nk + n_kt])
    ys = outs[nk + n_kt:nk + n_kt + ny]
    y_touts = iter(outs[nk + n_kt + ny:])
    t_carry = [next(carry_tout) if z else None for z in carry_nz]
    t_ys = [next(y_touts) if z else None for z in out_nz[nk:]]
    return list(carry_out) + list(ys), t_carry + t_ys


def _trajectory_body(body, num_consts, num_carry):
    """The body that also outputs the carry it received (stacked: the trajectory)."""
    carry_in = body.invars[num_consts:num_consts + num_carry]
    return Graph(list(body.invars), body.eqns, list(body.outvars) + list(carry_in))


def _scan_reverse_fwd(vals, params):
    body, nk = params["body"], params["num_carry"]
    tbody = derived(body, ("scan_traj",), lambda: _trajectory_body(body, params["num_consts"],
                                                                   nk))
    outs = _process(scan_p, list(vals), dict(params, body=tbody))
    n = len(body.outvars)
    return list(outs[:n]), list(outs[n:])


def _scan_backward_body(body, nc, nk):
    """One backward step: ``(consts, const_ct_acc, carry_ct, carry_k, x_k, y_ct_k) ->
    (const_ct_acc + d consts, carry_ct before the step, x_ct_k)``, float parts only."""
    joint, float_in, float_out = vjp_joint(body, with_outputs=False)
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


def _scan_vjp(needs, cts, outs, *args, body, length, reverse, num_consts, num_carry,
              residuals=None):
    nc, nk = num_consts, num_carry
    if residuals is None:
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
    outs = _process(scan_p, consts + acc0 + ct0 + list(residuals) + xs + y_cts,
                    dict(body=bbody, length=length, reverse=not reverse,
                         num_consts=sizes[0], num_carry=sizes[1] + sizes[2]))
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
    from .primitives.structural import broadcast_to, moveaxis, reshape
    nc, nk = num_consts, num_carry
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    b = [d is not None for d in dims]
    carry_b = b[nc:nc + nk]
    ny = len(body.outvars) - nk
    for _ in range(nk + 1):
        _, out_b = batch_graph(body, tuple(b[:nc] + carry_b + b[nc + nk:]), size,
                               tuple(carry_b) + (False,) * ny)
        new = [x or y for x, y in zip(carry_b, out_b[:nk])]
        if new == carry_b:
            break
        carry_b = new
    pattern = tuple(b[:nc] + carry_b + b[nc + nk:])
    bbody, out_b = derived(body, ("scan_batch", pattern, size), lambda: batch_graph(
        body, pattern, size, tuple(carry_b) + (False,) * ny))
    new_args = []
    for i, (a, d) in enumerate(zip(args, dims)):
        if nc <= i < nc + nk:
            if d is not None:
                a = moveaxis(a, d, 0)
            elif pattern[i]:
                a = broadcast_to(reshape(a, (1,) + tuple(a.shape)), (size,) + tuple(a.shape))
        elif i >= nc + nk:
            if d is not None:  # the scanned axis stays first, the batch axis second
                a = moveaxis(a, d, 1)
        elif d is not None:
            a = moveaxis(a, d, 0)
        new_args.append(a)
    outs = _process(scan_p, new_args, dict(body=bbody, length=length, reverse=reverse,
                                           num_consts=nc, num_carry=nk))
    out_dims = [0 if z else None for z in out_b[:nk]] + [1 if z else None for z in out_b[nk:]]
    return list(outs), out_dims


scan_p = Primitive("scan", _scan_impl, abstract_eval=_scan_abstract, jvp=_scan_jvp,
                   vjp=_scan_vjp, batch=_scan_batch, multiple_results=True)
scan_p.reverse_fwd = _scan_reverse_fwd


def _check_carry(what, init_tree, init_avals, out_tree, out_avals):
    if out_tree != init_tree:
        raise TypeError(f"{what}: the body returns a carry of structure {out_tree}, but the "
                        f"initial value has structure {init_tree}; they must be the same")
    for i, (a, b) in enumerate(zip(init_avals, out_avals)):
        if a != b:
            raise TypeError(
                f"{what}: the body returns {b.str_short()} for carry leaf {i}, but the "
                f"initial value is {a.str_short()}; the carry must keep its shape and dtype "
                f"(give the initial value the right dtype, e.g. np.float32(0), or cast in the "
                f"body with .astype)")


def scan(f, init, xs=None, length=None, reverse=False):
    """Loop ``carry, y = f(carry, x)`` over the leading axis of ``xs``; returns the final
    carry and the stacked ``y``s (as ``jax.lax.scan``).

    ``xs`` is a pytree of arrays (or None, with ``length`` given); ``reverse=True`` runs
    from the last element to the first.  The carry keeps its structure, shapes and dtypes.

    >>> import numpy as np, funcgrad as fg
    >>> total, partial = fg.lax.scan(lambda c, x: (c + x, c + x), 0.0, np.arange(4.0))
    >>> float(total), partial
    (6.0, array([0., 1., 3., 6.]))
    """
    init_leaves, init_tree = tree.flatten(init)
    init_leaves = [_operand(x) for x in init_leaves]
    x_leaves, x_tree = tree.flatten(xs)
    x_leaves = [_operand(x) for x in x_leaves]
    lengths = {int(x.shape[0]) for x in x_leaves if x.ndim}
    if any(x.ndim == 0 for x in x_leaves):
        raise ValueError("scan: every leaf of xs needs a leading axis to scan over")
    if length is not None:
        lengths.add(int(length))
    if len(lengths) != 1:
        raise ValueError(f"scan: the leading axes of xs and length= disagree: {sorted(lengths)}"
                         if lengths else "scan: give xs or length=")
    length = lengths.pop()
    init_avals = [_aval(x) for x in init_leaves]
    x_avals = [ShapedArray(x.shape[1:], x.dtype) for x in x_leaves]
    nk = len(init_leaves)
    y_tree = []

    def body(*vals):
        carry = tree.unflatten(init_tree, list(vals[:nk]))
        x = tree.unflatten(x_tree, list(vals[nk:])) if xs is not None else None
        out = f(carry, x)
        if not (isinstance(out, (tuple, list)) and len(out) == 2):
            raise TypeError("scan: the function must return a pair (carry, y)")
        new_carry, y = out
        c_leaves, c_tree = tree.flatten(new_carry)
        _check_carry("scan", init_tree, init_avals, c_tree,
                     [_aval(_operand(c)) for c in c_leaves])
        y_leaves, yt = tree.flatten(y)
        y_tree.append(yt)
        return c_leaves + y_leaves

    graph, tracers, _ = _trace(lambda *v: body(*v), init_avals + x_avals, "lax.scan")
    carry_avals = [out_aval(v) for v in graph.outvars[:nk]]
    graph = _cast_constant_outputs(graph, carry_avals, "scan")
    outs = _process(scan_p, list(tracers) + init_leaves + x_leaves,
                    dict(body=graph, length=length, reverse=bool(reverse),
                         num_consts=len(tracers), num_carry=nk))
    return tree.unflatten(init_tree, outs[:nk]), tree.unflatten(y_tree[0], outs[nk:])


# --- while_loop -------------------------------------------------------------------------------

def _while_impl(*args, cond, body, cond_nconsts, body_nconsts):
    cc = args[:cond_nconsts]
    bc = args[cond_nconsts:cond_nconsts + body_nconsts]
    carry = list(args[cond_nconsts + body_nconsts:])
    while bool(as_root(eval_graph, cond, *cc, *carry)[0]):
        carry = list(as_root(eval_graph, body, *bc, *carry))
    return [_plain_array(c) for c in carry]


def _while_abstract(*avals, cond, body, cond_nconsts, body_nconsts):
    return [v.aval for v in body.invars[body_nconsts:]]


def _with_extra_inputs(graph, extra_avals):
    """``graph`` taking (and ignoring) extra trailing inputs."""
    return Graph(list(graph.invars) + [Var(a) for a in extra_avals], graph.eqns,
                 graph.outvars)


def _while_jvp(primals, tangents, *, cond, body, cond_nconsts, body_nconsts):
    ncc, nbc = cond_nconsts, body_nconsts
    nk = len(primals) - ncc - nbc
    b_tangents = tangents[ncc:]
    nz = [t is not None and is_float(v.aval) for t, v in zip(b_tangents, body.invars)]
    carry_nz = nz[nbc:]
    for _ in range(nk + 1):
        _, out_nz = jvp_graph(body, tuple(nz[:nbc] + carry_nz), tuple(carry_nz))
        new = [a or b for a, b in zip(carry_nz, out_nz)]
        if new == carry_nz:
            break
        carry_nz = new
    pattern = tuple(nz[:nbc] + carry_nz)

    def build():
        jg, _ = jvp_graph(body, pattern, tuple(carry_nz))
        n = len(body.invars)
        t_pos = [i for i, z in enumerate(pattern) if z]
        t_index = {p: n + j for j, p in enumerate(t_pos)}
        ins = [list(range(nbc)) + [t_index[p] for p in t_pos if p < nbc],
               list(range(nbc, n)) + [t_index[p] for p in t_pos if p >= nbc]]
        jbody = _reorder(jg, ins, [list(range(len(jg.outvars)))])
        tangent_avals = [body.invars[p].aval for p in t_pos if p >= nbc]
        return jbody, _with_extra_inputs(cond, tangent_avals)

    jbody, jcond = derived(body, ("while_jvp", pattern), build)
    cc, bc = list(primals[:ncc]), list(primals[ncc:ncc + nbc])
    init = list(primals[ncc + nbc:])
    bct = [t for t, z in zip(b_tangents[:nbc], pattern[:nbc]) if z]
    init_t = [t if t is not None else zeros(_aval(p))
              for t, p, z in zip(b_tangents[nbc:], init, carry_nz) if z]
    outs = _process(while_loop_p, cc + bc + bct + init + init_t,
                    dict(cond=jcond, body=jbody, cond_nconsts=ncc,
                         body_nconsts=nbc + len(bct)))
    rest = iter(outs[nk:])
    return list(outs[:nk]), [next(rest) if z else None for z in carry_nz]


_WHILE_REVERSE_HELP = (
    "reverse-mode differentiation (grad, vjp) of while_loop needs its number of steps, "
    "which is only known when the loop runs on concrete values; here it is being traced "
    "(inside jit, or another abstract trace). Use fori_loop with Python-int bounds or "
    "lax.scan (a fixed number of steps), take the gradient outside jit, or use forward "
    "mode (jvp, jacfwd).")


def _while_reverse_fwd(vals, params):
    """Run the loop on concrete values under the enclosing interpreter, keeping the
    carry of every step (the trajectory) for the backward pass."""
    from .numpy import stack
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
    # The same backward as a scan over the recorded steps (no xs, no ys).
    bc = list(args[ncc:ncc + nbc])
    nk = len(args) - ncc - nbc
    grads = _scan_vjp(tuple(needs[ncc:]), list(cts), list(outs), *bc, *args[ncc + nbc:],
                      body=body, length=length, reverse=False, num_consts=nbc,
                      num_carry=nk, residuals=trajectory)
    return [None] * ncc + list(grads)


def _while_batch(args, dims, *, cond, body, cond_nconsts, body_nconsts):
    from .primitives.elementwise import where
    from .primitives.reductions import reduce_max
    from .primitives.structural import broadcast_to, moveaxis, reshape
    ncc, nbc = cond_nconsts, body_nconsts
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    b = [d is not None for d in dims]
    nk = len(args) - ncc - nbc
    carry_b = b[ncc + nbc:]
    for _ in range(nk + 1):
        _, out_b = batch_graph(body, tuple(b[ncc:ncc + nbc] + carry_b), size, tuple(carry_b))
        new = [x or y for x, y in zip(carry_b, out_b)]
        if new == carry_b:
            break
        carry_b = new
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

    bcond, bbody = derived(body, ("while_batch", c_pattern, b_pattern, size), build)
    moved = []
    for i, (a, d) in enumerate(zip(args, dims)):
        if d is not None:
            a = moveaxis(a, d, 0)
        elif i >= ncc + nbc and carry_b[i - ncc - nbc]:
            a = broadcast_to(reshape(a, (1,) + tuple(a.shape)), (size,) + tuple(a.shape))
        moved.append(a)
    cc, bc, init = moved[:ncc], moved[ncc:ncc + nbc], moved[ncc + nbc:]
    if pred_b[0]:
        bc = cc + bc
    outs = _process(while_loop_p, cc + bc + init,
                    dict(cond=bcond, body=bbody, cond_nconsts=ncc, body_nconsts=len(bc)))
    return list(outs), [0 if z else None for z in carry_b]


while_loop_p = Primitive("while_loop", _while_impl, abstract_eval=_while_abstract,
                         jvp=_while_jvp, vjp=_while_vjp, batch=_while_batch,
                         multiple_results=True)
while_loop_p.reverse_fwd = _while_reverse_fwd


def while_loop(cond_fun, body_fun, init_val):
    """``while cond_fun(val): val = body_fun(val)``; returns the final ``val``.

    ``cond_fun`` returns a scalar boolean; ``body_fun`` keeps the structure, shapes and
    dtypes of ``val``.  Forward mode and ``vmap`` work everywhere; reverse mode works
    when the loop runs on concrete values (not while tracing for ``jit``).

    >>> import funcgrad as fg
    >>> float(fg.lax.while_loop(lambda x: x < 10.0, lambda x: x * 2.0, 1.0))
    16.0
    """
    leaves, in_tree = tree.flatten(init_val)
    leaves = [_operand(x) for x in leaves]
    avals = [_aval(x) for x in leaves]

    def cond_flat(*xs):
        pred = cond_fun(tree.unflatten(in_tree, list(xs)))
        pred = _operand(pred)
        if pred.shape != () or pred.dtype.kind not in "bi":
            raise TypeError(f"while_loop: cond_fun must return a scalar boolean, got "
                            f"{_aval(pred).str_short()}")
        return pred

    def body_flat(*xs):
        out = body_fun(tree.unflatten(in_tree, list(xs)))
        out_leaves, out_tree = tree.flatten(out)
        _check_carry("while_loop", in_tree, avals, out_tree,
                     [_aval(_operand(o)) for o in out_leaves])
        return out

    cgraph, ctracers, _ = _trace(cond_flat, avals, "lax.while_loop")
    bgraph, btracers, _ = _trace(body_flat, avals, "lax.while_loop")
    bgraph = _cast_constant_outputs(bgraph, avals, "while_loop")
    cgraph = _cast_constant_outputs(cgraph, [ShapedArray((), np.bool_)], "while_loop")
    outs = _process(while_loop_p, list(ctracers) + list(btracers) + leaves,
                    dict(cond=cgraph, body=bgraph, cond_nconsts=len(ctracers),
                         body_nconsts=len(btracers)))
    return tree.unflatten(in_tree, outs)


# --- fori_loop -------------------------------------------------------------------------------

def _static_int(x):
    if isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu":
        return int(x)
    return None


def fori_loop(lower, upper, body_fun, init_val):
    """``for i in range(lower, upper): val = body_fun(i, val)``; returns ``val``.

    With Python-int bounds this is a :func:`scan` (every transform, reverse mode
    included, inside and outside ``jit``); with traced bounds a :func:`while_loop`.  The
    index ``i`` is an int64 scalar (like any int64 array it promotes float32 to float64:
    cast it, ``i.astype(x.dtype)``, when mixing).

    >>> import numpy as np, funcgrad as fg
    >>> float(fg.grad(lambda x: fg.lax.fori_loop(0, 3, lambda i, v: v * x, 1.0))(2.0))
    12.0
    """
    lo, hi = _static_int(lower), _static_int(upper)
    init_leaves, init_tree = tree.flatten(init_val)
    init_avals = [_aval(_operand(x)) for x in init_leaves]

    def checked_body(i, val):
        out = body_fun(i, val)
        out_leaves, out_tree = tree.flatten(out)
        _check_carry("fori_loop", init_tree, init_avals, out_tree,
                     [_aval(_operand(o)) for o in out_leaves])
        return out

    if lo is not None and hi is not None:
        def step(carry, _):
            i, val = carry
            return (i + 1, checked_body(i, val)), None
        (_, val), _ = scan(step, (np.int64(lo), init_val), None, length=max(hi - lo, 0))
        return val

    def cond_fun(carry):
        return carry[0] < carry[1]

    def body(carry):
        i, stop, val = carry
        return i + 1, stop, checked_body(i, val)

    from .primitives.structural import convert_element_type
    lower = convert_element_type(_operand(lower), np.int64)
    upper = convert_element_type(_operand(upper), np.int64)
    return while_loop(cond_fun, body, (lower, upper, init_val))[2]


# Graph-evaluating impls dispatch each operation on its operands' device: GPU-ready as is.
register_device_impls({cond_p: _cond_impl, scan_p: _scan_impl, while_loop_p: _while_impl})
