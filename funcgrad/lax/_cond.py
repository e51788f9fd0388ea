"""``cond`` and ``switch``: pick a branch by a traced predicate or index.  The ``cond``
primitive holds one graph per branch."""
from typing import Any, Callable, Sequence
import numpy as np

from .. import tree
from ..core import Primitive
from ..interpreters.graph import Var, eval_graph, without_effects
from ..jit.derive import (as_root, batch_graph, batch_key, derived, holds_graphs, is_float,
                          jvp_graph, out_aval, vjp_joint, zeros)
from ..devices import register_gpu
from ._graphs import (aval, batch_axis_first, batch_size, cast_constant_outputs,
                      flatten_operands, merge_closures, operand as _operand, trace_pytree)
from ..typing import ArrayLike, PyTree

__all__ = ["cond", "switch", "cond_p"]


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
    outs = cond_p.bind(index, *args, branches=tuple(jbranches))
    n = len(graph0.outvars)
    rest = iter(outs[n:])
    return list(outs[:n]), [next(rest) if z else None for z in out_nz]


def _cond_vjp(needs, cts, outs, index, *operands, branches):
    graph0 = branches[0]

    def build():
        joints = [vjp_joint(g, with_outputs=False) for g in branches]
        # (the branch runs again for its derivative: its prints happened in the forward)
        return [without_effects(j[0]) for j in joints], joints[0][1], joints[0][2]

    jbranches, float_in, float_out = derived(graph0, ("cond_vjp",), build)
    ct_args = [zeros(out_aval(graph0.outvars[i])) if cts[i] is None else cts[i]
               for i in float_out]
    in_cts = cond_p.bind(index, *operands, *ct_args, branches=tuple(jbranches))
    result = [None] * (1 + len(operands))
    for i, c in zip(float_in, in_cts):
        if needs[1 + i]:
            result[1 + i] = c
    return result


def _cond_batch(args, dims, *, branches):
    from ..primitives.elementwise import clip, equal, where
    from ..primitives.structural import moveaxis, reshape
    size = batch_size(args, dims)
    index, operands = args[0], list(args[1:])
    moved = [batch_axis_first(a, d, size) for a, d in zip(operands, dims[1:])]
    batched = tuple(d is not None for d in dims[1:])
    graph0 = branches[0]
    n_out = len(graph0.outvars)
    force = (True,) * n_out
    bbranches = derived(graph0, batch_key("cond_batch", batched, size),
                        lambda: [batch_graph(g, batched, size, force)[0] for g in branches])
    if dims[0] is None:  # one branch for the whole batch
        outs = cond_p.bind(index, *moved, branches=tuple(bbranches))
        return list(outs), [0] * n_out
    # A batched predicate: every branch runs, then each example picks its result.
    index = moveaxis(index, dims[0], 0)
    index = clip(index, 0, len(branches) - 1)
    results = [eval_graph(g, *moved) for g in bbranches]
    outs = list(results[0])
    for k in range(1, len(branches)):
        for i in range(n_out):
            out = out_aval(bbranches[k].outvars[i])
            pick = reshape(equal(index, k), (size,) + (1,) * (len(out.shape) - 1))
            outs[i] = where(pick, results[k][i], outs[i])
    return outs, [0] * n_out


cond_p = Primitive("cond", _cond_impl, abstract_eval=_cond_abstract, jvp=_cond_jvp,
                   vjp=_cond_vjp, batch=_cond_batch, multiple_results=True)
# Graph-evaluating impls dispatch each operation on its operands' device: GPU-ready as is.
register_gpu({cond_p: _cond_impl})
holds_graphs(cond_p)


_NO_OPERAND = object()  # cond's operand= keyword left out (None is an operand, a pytree)


def _one_operand(operands, operand, call):
    """The operands, JAX's ``operand=`` keyword (one pytree) standing for them."""
    if operand is _NO_OPERAND:
        return operands
    if operands:
        name = call.partition("(")[0]
        raise TypeError(f"{name}: pass the operands either positionally or as the one "
                        f"operand= keyword, not both ({call}, x, y) or "
                        f"{call}, operand=(x, y)))")
    return (operand,)


def switch(index: ArrayLike, branches: Sequence[Callable[..., Any]], *operands: PyTree,
           operand: PyTree = _NO_OPERAND) -> PyTree:
    """``branches[index](*operands)``, with ``index`` clamped to ``[0, len(branches) - 1]``.

    All branches must return the same structure, shapes and dtypes.  JAX's older
    spelling of one operand as a keyword, ``switch(i, branches, operand=x)``, is
    ``switch(i, branches, x)``.

    >>> import funcgrad as fg
    >>> float(fg.lax.switch(1, [lambda x: x, lambda x: 2 * x, lambda x: 3 * x], 1.0))
    2.0
    """
    operands = _one_operand(operands, operand, "switch(i, branches")
    return _switch(index, branches, operands, [f"branch {k}" for k in range(len(branches))],
                   "switch")


def cond(pred: ArrayLike, true_fun: Callable[..., Any], false_fun: Callable[..., Any],
         *operands: PyTree, operand: PyTree = _NO_OPERAND) -> PyTree:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``, with a traced
    scalar predicate (a number counts as true when nonzero, as in Python and JAX).  Both branches must return the same structure, shapes and dtypes;
    derivatives flow through the branch taken.  JAX's older spelling of one operand as a
    keyword, ``cond(pred, t, f, operand=x)``, is ``cond(pred, t, f, x)``.

    >>> import numpy as np, funcgrad as fg
    >>> f = lambda x: fg.lax.cond(x > 0, lambda y: y * y, lambda y: -y, x)
    >>> float(fg.grad(f)(3.0)), float(fg.jit(fg.grad(f))(-3.0))
    (6.0, -1.0)
    """
    operands = _one_operand(operands, operand, "cond(pred, t, f")
    pred = _operand(pred)
    if pred.shape != ():
        raise TypeError(f"cond: the predicate must be a scalar, got shape {pred.shape}. Use "
                        f"fg.numpy.where for elementwise choices, or vmap over cond.")
    if pred.dtype.kind in "iuf":  # truthiness, as JAX: -5 and 2**32 are True, 0.0 False
        from ..primitives.elementwise import not_equal
        pred = not_equal(pred, np.zeros((), pred.dtype))
    elif pred.dtype.kind != "b":
        raise TypeError(f"cond: the predicate must be a boolean or a number, got {pred.dtype}")
    return _switch(pred, [false_fun, true_fun], operands, ["false_fun", "true_fun"], "cond")


def _switch(index, branches, operands, names, what):
    branches = list(branches)
    if not branches:
        raise ValueError(f"{what} needs at least one branch")
    leaves, in_tree = flatten_operands(operands)
    leaves = [_operand(x) for x in leaves]
    avals = [aval(x) for x in leaves]
    traced = []
    out_tree = None
    for k, fn in enumerate(branches):
        graph, tracers, tree_k = trace_pytree(
            lambda *xs, fn=fn: fn(*tree.unflatten(in_tree, list(xs))), avals, "lax.cond",
            leaves)
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
        out = out_aval(traced[ref][0].outvars[i])
        for k in traced_k:
            x = traced[k][0].outvars[i]
            if x.aval != out:
                raise TypeError(
                    f"{what}: {names[k]} returns {x.aval.str_short()} for output {i} but "
                    f"{names[ref]} returns {out.str_short()}; branches must agree in shape "
                    f"and dtype (cast with .astype, or broadcast, in the branch)")
        out_avals.append(out)
    traced = [(cast_constant_outputs(g, out_avals, what), t) for g, t in traced]
    graphs, tracers = merge_closures(traced)
    index = _operand(index)
    if index.shape != ():
        raise TypeError(f"{what}: the predicate/index must be a scalar, got shape "
                        f"{index.shape}. Use fg.numpy.where for elementwise choices, or vmap.")
    if index.dtype.kind == "f":
        raise TypeError(f"{what}: the index must be an integer or boolean, got "
                        f"{index.dtype}")
    from ..primitives.structural import convert_element_type
    if index.dtype != np.dtype(np.int32):
        index = convert_element_type(index, np.int32)
    outs = cond_p.bind(index, *tracers, *leaves, branches=tuple(graphs))
    return tree.unflatten(out_tree, outs)
