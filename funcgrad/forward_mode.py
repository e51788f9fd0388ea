"""The forward-mode transforms users call: jvp and linearize.

Like the reverse-mode ones (:mod:`funcgrad.api`), each flattens the primals into leaves
(a Tensor one leaf, on its graph), runs the user's function on dual numbers and hands
the outputs and their tangents back with the structure of what the function returned.
"""
from typing import Any, Callable, Literal, overload

import numpy as np

from . import tree
from .api import (_check_device, _flatten_inputs, _plain, _split_aux, _strip, _substitute,
                  on_device_of)
from .core import WEAK_TYPES, Tracer, _special_classes, aval_of, is_special, user_code
from .interpreters.forward import JVPInterpreter, JVPTracer
from .interpreters.graph import Graph, GraphInterpreter, GraphTracer, eval_graph
from .numpy._convert import asarray
from .primitives import structural as st
from .typing import PyTree

__all__ = ["jvp", "linearize"]


def _check_tangent(p, t, i):
    weak = type(p) in WEAK_TYPES
    if weak:  # (a Python number: weakly typed, see _as_input; its tangent is one too)
        p = np.asarray(p)
    t = t if isinstance(t, Tracer) else asarray(t)
    _check_device(t, p, f"jvp: tangent {i}", "primal")
    if tuple(t.shape) != tuple(p.shape):
        raise ValueError(f"jvp: tangent {i} has shape {tuple(t.shape)} but its primal has shape "
                         f"{tuple(p.shape)}; each tangent must have its primal's shape")
    if t.dtype != p.dtype:
        if t.dtype.kind == "c" and p.dtype.kind != "c":
            raise TypeError(f"jvp: tangent {i} is complex ({t.dtype}) but its primal is real "
                            f"({p.dtype}): a real input can only move along the real line. "
                            f"Pass a real tangent, or make the primal complex.")
        if t.dtype.kind not in "fiubc":
            raise TypeError(f"jvp: tangent {i} has dtype {t.dtype}; use {p.dtype}")
        t = st.convert_element_type(t, p.dtype)
    if weak and not isinstance(t, Tracer):
        t = t.item()
    return t


def _flatten_pair(primals, tangents, transform):
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(f"{transform}: primals and tangents must be tuples (or lists) with one "
                        f"entry per argument, e.g. {transform}(f, (x,), (v,))")
    if len(primals) != len(tangents):
        raise ValueError(f"{transform}: {len(primals)} primals but {len(tangents)} tangents")
    p_leaves, kinds, treedefs = _flatten_inputs(tuple(primals), tuple(range(len(primals))),
                                                transform)
    t_leaves, t_tree = tree.flatten(tuple(tangents), is_special)
    p_tree = tree.flatten(tuple(primals), is_special)[1]
    if t_tree != p_tree:
        raise ValueError(f"{transform}: tangents have structure {t_tree}, primals {p_tree}")
    t_leaves = [_check_tangent(p, t, i) for i, (p, t) in enumerate(zip(p_leaves, t_leaves))]
    return p_leaves, t_leaves, kinds, treedefs


@overload
def jvp(fun: Callable[..., Any], primals: tuple[Any, ...] | list[Any],
        tangents: tuple[Any, ...] | list[Any], has_aux: Literal[False] = False
        ) -> tuple[PyTree, PyTree]: ...
@overload
def jvp(fun: Callable[..., Any], primals: tuple[Any, ...] | list[Any],
        tangents: tuple[Any, ...] | list[Any], has_aux: Literal[True]
        ) -> tuple[PyTree, PyTree, Any]: ...
def jvp(fun: Callable[..., Any], primals: tuple[Any, ...] | list[Any],
        tangents: tuple[Any, ...] | list[Any], has_aux: bool = False) -> tuple[Any, ...]:
    """``(fun(*primals), J @ tangents)`` by forward mode, in one pass.

    >>> import numpy as np, funcgrad as fg
    >>> fg.jvp(np.sin, (0.0,), (2.0,))
    (np.float64(0.0), np.float64(2.0))
    """
    p_leaves, t_leaves, kinds, treedefs = _flatten_pair(primals, tangents, "jvp")
    interp = JVPInterpreter()
    with interp:
        duals = [JVPTracer(interp, p, t) for p, t in zip(p_leaves, t_leaves)]
        args = _substitute(primals, range(len(primals)), treedefs, duals)
        with user_code():
            result = fun(*args)
    out, aux = _split_aux(result, has_aux, "jvp")
    # A Tensor output is one leaf (core.is_special): as the pytree of its value it came
    # back rebuilt from that value, off the graph of the Tensors it was computed from.
    out_leaves, out_tree = tree.flatten(out, is_special)
    outs, touts = [], []
    for o in out_leaves:
        if type(o) is JVPTracer and o._trace is interp:
            outs.append(_plain(o.primal))
            touts.append(_tangent_like(o.primal, _plain(o.tangent)))
        else:
            o = o if isinstance(o, Tracer) else asarray(o)
            outs.append(_plain(o))
            touts.append(_plain(_zeros_tangent(o)))
    result = (tree.unflatten(out_tree, outs), tree.unflatten(out_tree, touts))
    return result + (_strip(aux, interp),) if has_aux else result


def _zeros_tangent(o):
    """The tangent of an output ``o`` that no input moves: zeros of its shape, as a
    Tensor for a Tensor (torch.func's), on its device."""
    dtype = o.dtype if o.dtype.kind in "fc" else (
        np.float64 if isinstance(o, Tracer) else o.dtype)
    zeros = on_device_of(o, np.zeros(o.shape, dtype))
    return zeros if isinstance(o, (np.ndarray, Tracer)) else _tangent_like(o, zeros)


def _tangent_like(primal, tangent):
    """``tangent`` as a Tensor where its ``primal`` is one and it is a plain array (a
    primal Tensor moved along a plain tangent, or a Tensor plus a plain array): torch.func
    gives a Tensor output a Tensor tangent."""
    if type(primal) in _special_classes and not isinstance(primal, Tracer) and isinstance(
            tangent, (np.ndarray, np.generic)):
        node = tree.flatten(primal)[1]  # a Tensor's pytree node around its value
        if node.node is not None:
            return tree.unflatten(node, [np.asarray(tangent)])
    return tangent


def linearize(fun: Callable[..., Any], *primals: PyTree
              ) -> tuple[PyTree, Callable[..., PyTree]]:
    """``(fun(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` applies the Jacobian at
    ``primals`` without re-running ``fun`` (only the linear part was recorded).

    >>> import numpy as np, funcgrad as fg
    >>> y, f_jvp = fg.linearize(np.exp, 0.0)
    >>> float(f_jvp(3.0))
    3.0
    """
    p_leaves, kinds, treedefs = _flatten_inputs(primals, tuple(range(len(primals))), "linearize")
    graph_interp = GraphInterpreter()
    with graph_interp:
        t_in = [graph_interp.new_input(aval_of(p)) for p in p_leaves]
        jvp_interp = JVPInterpreter()
        with jvp_interp:
            duals = [JVPTracer(jvp_interp, p, t) for p, t in zip(p_leaves, t_in)]
            with user_code():
                out = fun(*_substitute(primals, range(len(primals)), treedefs, duals))
    out_leaves, out_tree = tree.flatten(out, is_special)  # (a Tensor one leaf: see jvp)
    outs, touts, constant = [], [], []
    for o in out_leaves:
        if type(o) is JVPTracer and o._trace is jvp_interp:
            outs.append(o.primal)
            t = o.tangent
            touts.append(t.var if type(t) is GraphTracer and t._trace is graph_interp else t)
            constant.append(False)
        else:
            o = asarray(o) if not isinstance(o, Tracer) else o
            outs.append(o)
            touts.append(np.zeros(o.shape, o.dtype))
            constant.append(True)
    graph = Graph([t.var for t in t_in], graph_interp.eqns, touts)
    # A primitive whose JVP computes primals and tangents in one bind (scan, cond,
    # while_loop, jit) records its primal outputs in the graph too; they do not depend
    # on the tangents, so the graph at zero tangents gives them.
    staged = [i for i, o in enumerate(outs)
              if type(o) is GraphTracer and o._trace is graph_interp]
    if staged:
        primal_graph = Graph(graph.invars, graph.eqns, [outs[i].var for i in staged])
        zero = [np.zeros(p.shape, p.dtype) for p in p_leaves]
        for i, v in zip(staged, eval_graph(primal_graph, *zero)):
            outs[i] = v

    def jvp_fn(*tangents):
        # A Tensor tangent is one leaf: as the pytree of its value it was read off its
        # graph, and the product lost its derivative with respect to the tangent.
        t_leaves, t_tree = tree.flatten(tuple(tangents), is_special)
        if len(t_leaves) != len(p_leaves):
            raise ValueError(f"linearize's jvp_fn takes {len(p_leaves)} tangent leaves, "
                             f"got {len(t_leaves)}")
        t_leaves = [_check_tangent(p, t, i) for i, (p, t) in enumerate(zip(p_leaves, t_leaves))]
        touts = [_zeros_tangent(o) if c else _tangent_like(o, t) for o, t, c in
                 zip(outs, eval_graph(graph, *t_leaves), constant)]
        return tree.unflatten(out_tree, [_plain(v) for v in touts])

    jvp_fn.graph = graph  # type: ignore[attr-defined]
    return tree.unflatten(out_tree, [_plain(o) for o in outs]), jvp_fn
