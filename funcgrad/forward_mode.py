"""The forward-mode transforms users call: jvp and linearize.

Like the reverse-mode ones (:mod:`funcgrad.api`), each flattens the primals into leaves
(a Tensor one leaf, on its graph), runs the user's function on dual numbers and hands
the outputs and their tangents back with the structure of what the function returned.
"""
from typing import Any, Callable, Literal, overload

import numpy as np

from . import tree
from .api import _plain
from .arguments import (_check_device, _flatten_inputs, _same_precision, _split_aux, _strip,
                        _substitute, in_type_of, on_device_of)
from .core import WEAK_TYPES, Tracer, aval_of, internal, is_special, user_code
from .errors import ArgumentMismatchError
from .dtypes import float0, float0_zeros as _float0_zeros, is_integer as _integer
from .interpreters.forward import JVPInterpreter, JVPTracer
from .interpreters.graph import Graph, GraphInterpreter, GraphTracer, eval_graph
from .numpy._convert import asarray
from .primitives import structural as st
from .typing import PyTree

__all__ = ["jvp", "linearize"]


def _check_tangent(p, t, i, kind, transform="jvp", strict=False):
    """The tangent ``t`` of primal leaf ``i``, checked against it; None for an integer or
    boolean primal (``kind`` "int"), whose only tangent is ``float0`` zeros (JAX's).

    With ``strict`` (the public :func:`jvp`, :func:`linearize`'s function), a tangent
    that states a dtype (an array, a NumPy scalar, a traced value) must state its array
    primal's, as JAX asks: a float32 tangent for a float64 primal is more likely a
    mistake than a wish.  Python numbers stay weakly typed and take the primal's dtype,
    and funcgrad's own callers (rules handing tangents on) keep the cast."""
    if kind == "int":
        dtype = getattr(t, "dtype", None)
        if dtype != float0:
            raise TypeError(f"{transform}: primal {i} is an integer or boolean "
                            f"({getattr(p, 'dtype', type(p).__name__)}), which has no "
                            f"tangent space, but its tangent has dtype "
                            f"{dtype or type(t).__name__}. Pass "
                            f"np.zeros(x.shape, fg.dtypes.float0) as its tangent (JAX's "
                            f"float0), or make the primal a float to move it.")
        if tuple(np.shape(t)) != tuple(np.shape(p)):
            raise ValueError(f"{transform}: tangent {i} has shape {tuple(np.shape(t))} but "
                             f"its primal has shape {tuple(np.shape(p))}; each tangent must "
                             f"have its primal's shape")
        return None
    if getattr(t, "dtype", None) == float0:
        raise TypeError(f"{transform}: tangent {i} has dtype float0, the tangent of integer "
                        f"and boolean primals only, but its primal is a float "
                        f"({np.asarray(p).dtype if type(p) in WEAK_TYPES else p.dtype}). "
                        f"Pass a float tangent (zeros to hold it fixed).")
    weak = type(p) in WEAK_TYPES
    stated = isinstance(t, (np.ndarray, np.generic, Tracer))
    if weak:  # (a Python number: weakly typed, see _as_input; its tangent is one too)
        p = np.asarray(p)
    t = t if isinstance(t, Tracer) else asarray(t)
    _check_device(t, p, f"{transform}: tangent {i}", "primal")
    if tuple(t.shape) != tuple(p.shape):
        raise ValueError(f"{transform}: tangent {i} has shape {tuple(t.shape)} but its primal "
                         f"has shape {tuple(p.shape)}; each tangent must have its primal's "
                         f"shape")
    if t.dtype != p.dtype:
        if t.dtype.kind == "c" and p.dtype.kind != "c":
            raise TypeError(f"{transform}: tangent {i} is complex ({t.dtype}) but its primal "
                            f"is real ({p.dtype}): a real input can only move along the real "
                            f"line. Pass a real tangent, or make the primal complex.")
        if strict and not weak and stated and not _same_precision(t.dtype, p.dtype):
            # (JAX: TypeError from jvp, ValueError from linearize's function)
            raise ArgumentMismatchError(
                f"{transform}: tangent {i} has dtype {t.dtype} but its primal has dtype "
                f"{p.dtype}; each tangent must have its primal's dtype (as in JAX). Cast "
                f"it: t.astype(x.dtype)")
        if t.dtype.kind not in "fiubc":
            raise TypeError(f"{transform}: tangent {i} has dtype {t.dtype}; use {p.dtype}")
        t = st.convert_element_type(t, p.dtype)
    if weak and not isinstance(t, Tracer):
        t = t.item()
    return t


def _flatten_pair(primals, tangents, transform, strict=False):
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(f"{transform}: primals and tangents must be tuples (or lists) with one "
                        f"entry per argument, e.g. {transform}(f, (x,), (v,))")
    if len(primals) != len(tangents):
        raise ArgumentMismatchError(f"{transform}: {len(primals)} primals but {len(tangents)} "
                                    f"tangents")
    p_leaves, kinds, treedefs = _flatten_inputs(tuple(primals), tuple(range(len(primals))),
                                                transform, allow_int=True)
    t_leaves, t_tree = tree.flatten(tuple(tangents), is_special)
    p_tree = tree.flatten(tuple(primals), is_special)[1]
    if t_tree != p_tree:
        raise ArgumentMismatchError(f"{transform}: tangents have structure {t_tree}, "
                                    f"primals {p_tree}")
    t_leaves = [_check_tangent(p, t, i, k, transform, strict)
                for i, (p, t, k) in enumerate(zip(p_leaves, t_leaves, kinds))]
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

    Each tangent has its primal's shape and dtype, as JAX asks (a float32 tangent of a
    float64 primal raises ``funcgrad.errors.ArgumentMismatchError``; a Python number
    takes its primal's dtype).  An integer or boolean primal is not moved: its tangent is
    ``np.zeros(x.shape, fg.dtypes.float0)`` (JAX's, see :data:`funcgrad.dtypes.float0`),
    and so is the output tangent of an integer or boolean output.

    >>> import numpy as np, funcgrad as fg
    >>> fg.jvp(np.sin, (0.0,), (2.0,))
    (np.float64(0.0), np.float64(2.0))
    >>> n, no_tangent = np.array([1, 2]), np.zeros(2, fg.dtypes.float0)
    >>> (y, m), (ty, tm) = fg.jvp(lambda x, n: (x * n, n + 1), (1.5, n), (1.0, no_tangent))
    >>> ty, tm.dtype == fg.dtypes.float0
    (array([1., 2.]), True)
    """
    return _jvp(fun, primals, tangents, has_aux, "jvp", strict=True)


def _jvp(fun, primals, tangents, has_aux, transform, defer=False, strict=False):
    """:func:`jvp`; ``defer=True`` computes the tangent of an operation a reverse-mode
    child records only when something reads it (forward-over-reverse: see
    :mod:`funcgrad.interpreters.forward`); ``strict`` refuses a tangent of another
    dtype than its primal's (see :func:`_check_tangent`)."""
    p_leaves, t_leaves, kinds, treedefs = _flatten_pair(primals, tangents, transform, strict)
    interp = JVPInterpreter(defer=defer)
    with interp:
        duals = [p if k == "int" else JVPTracer(interp, p, t)
                 for p, t, k in zip(p_leaves, t_leaves, kinds)]
        args = _substitute(primals, range(len(primals)), treedefs, duals)
        with user_code():
            result = fun(*args)
    out, aux = _split_aux(result, has_aux, transform)
    # A Tensor output is one leaf (core.is_special): as the pytree of its value it came
    # back rebuilt from that value, off the graph of the Tensors it was computed from.
    out_leaves, out_tree = tree.flatten(out, is_special)
    outs, touts = [], []
    for o in out_leaves:
        primal, tangent = _output_pair(o, interp)
        outs.append(primal)
        touts.append(tangent)
    result = (tree.unflatten(out_tree, outs), tree.unflatten(out_tree, touts))
    return result + (_strip(aux, interp),) if has_aux else result


def _output_pair(o, interp):
    """An output leaf ``o`` of a function run under ``interp`` as what :func:`jvp`
    returns for it: ``(primal, tangent)``, plain values (float0 zeros for an integer
    output, zeros for one no input moves)."""
    if _integer(o):
        return (_plain(o.primal if type(o) is JVPTracer and o._trace is interp else o),
                _float0_zeros(o))
    if type(o) is JVPTracer and o._trace is interp:
        return _plain(o.primal), _tangent_like(o.primal, _plain(o.tangent))
    o = o if isinstance(o, Tracer) else asarray(o)
    return _plain(o), _plain(_zeros_tangent(o))


def _zeros_tangent(o):
    """The tangent of a float output ``o`` that no input moves: zeros of its shape, as a
    Tensor for a Tensor (torch.func's), on its device."""
    zeros = on_device_of(o, np.zeros(o.shape, o.dtype))
    return zeros if isinstance(o, (np.ndarray, Tracer)) else _tangent_like(o, zeros)


def _tangent_like(primal, tangent):
    """``tangent`` as a Tensor where its ``primal`` is one and it is a plain array (a
    primal Tensor moved along a plain tangent, or a Tensor plus a plain array): torch.func
    gives a Tensor output a Tensor tangent."""
    return in_type_of(primal, tangent)


@overload
def linearize(fun: Callable[..., Any], *primals: PyTree, has_aux: Literal[False] = False
              ) -> tuple[PyTree, Callable[..., PyTree]]: ...
@overload
def linearize(fun: Callable[..., Any], *primals: PyTree, has_aux: Literal[True]
              ) -> tuple[PyTree, Callable[..., PyTree], Any]: ...
def linearize(fun: Callable[..., Any], *primals: PyTree, has_aux: bool = False
              ) -> tuple[Any, ...]:
    """``(fun(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` applies the Jacobian at
    ``primals`` without re-running ``fun`` (only the linear part was recorded).  Integer
    and boolean primals and outputs have ``float0`` tangents, as in :func:`jvp`.
    ``has_aux=True``: ``fun`` returns ``(output, aux)`` and the result is
    ``(output, jvp_fn, aux)``, as JAX's.

    >>> import numpy as np, funcgrad as fg
    >>> y, f_jvp = fg.linearize(np.exp, 0.0)
    >>> float(f_jvp(3.0))
    3.0
    >>> y, f_jvp, aux = fg.linearize(lambda x: (np.sin(x), {"x": x}), 0.0, has_aux=True)
    >>> float(f_jvp(2.0)), aux
    (2.0, {'x': 0.0})
    """
    p_leaves, kinds, treedefs = _flatten_inputs(primals, tuple(range(len(primals))),
                                                "linearize", allow_int=True)
    moved = [p for p, k in zip(p_leaves, kinds) if k != "int"]
    graph_interp = GraphInterpreter()
    with graph_interp:
        t_in = [graph_interp.new_input(aval_of(p)) for p in moved]
        jvp_interp = JVPInterpreter()
        with jvp_interp:
            ts = iter(t_in)
            duals = [p if k == "int" else JVPTracer(jvp_interp, p, next(ts))
                     for p, k in zip(p_leaves, kinds)]
            with user_code():
                result = fun(*_substitute(primals, range(len(primals)), treedefs, duals))
    out, aux = _split_aux(result, has_aux, "linearize")
    aux_leaves, aux_tree = tree.flatten(_strip(aux, jvp_interp), is_special)
    out_leaves, out_tree = tree.flatten(out, is_special)  # (a Tensor one leaf: see jvp)
    # each output's tangent: "traced" (from the graph), "zero" (no input moves it) or
    # "int" (float0: an integer or boolean output has no tangent space)
    outs, touts, out_kinds = [], [], []
    for o in out_leaves:
        if type(o) is JVPTracer and o._trace is jvp_interp:
            outs.append(o.primal)
            t = o.tangent
            touts.append(t.graph_var if type(t) is GraphTracer and t._trace is graph_interp else t)
            out_kinds.append("int" if _integer(o) else "traced")
        else:
            o = asarray(o) if not isinstance(o, Tracer) else o
            outs.append(o)
            touts.append(np.zeros(o.shape, o.dtype))
            out_kinds.append("int" if _integer(o) else "zero")
    graph = Graph([t.graph_var for t in t_in], graph_interp.eqns, touts)
    # A primitive whose JVP computes primals and tangents in one bind (scan, cond,
    # while_loop, jit) records its primal outputs in the graph too; they do not depend
    # on the tangents, so the graph at zero tangents gives them.
    # (so does an aux computed from such outputs)
    n_out = len(outs)
    values = outs + aux_leaves
    staged = [i for i, o in enumerate(values)
              if type(o) is GraphTracer and o._trace is graph_interp]
    if staged:
        primal_graph = Graph(graph.invars, graph.eqns, [values[i].graph_var for i in staged])
        zero = [np.zeros(p.shape, p.dtype) for p in moved]
        for i, v in zip(staged, eval_graph(primal_graph, *zero)):
            values[i] = v
    outs, aux = values[:n_out], tree.unflatten(aux_tree, values[n_out:])

    def jvp_fn(*tangents):
        # A Tensor tangent is one leaf: as the pytree of its value it was read off its
        # graph, and the product lost its derivative with respect to the tangent.
        t_leaves, t_tree = tree.flatten(tuple(tangents), is_special)
        if len(t_leaves) != len(p_leaves):
            raise ArgumentMismatchError(f"linearize's jvp_fn takes {len(p_leaves)} tangent "
                                        f"leaves, got {len(t_leaves)}")
        t_leaves = [_check_tangent(p, t, i, k, "linearize's jvp_fn", strict=True)
                    for i, (p, t, k) in enumerate(zip(p_leaves, t_leaves, kinds))]
        # (the graph's arrays are funcgrad's own constants, such as grad's seed of ones,
        # which a device copies: the user's data met the primals when f ran, and a GPU
        # array mixed with it was refused there)
        products = internal(eval_graph)(graph, *[t for t, k in zip(t_leaves, kinds)
                                                 if k != "int"])
        touts = [_float0_zeros(o) if k == "int" else _zeros_tangent(o) if k == "zero"
                 else _tangent_like(o, _plain(t)) for o, t, k in zip(outs, products, out_kinds)]
        return tree.unflatten(out_tree, touts)

    jvp_fn.graph = graph  # type: ignore[attr-defined]
    result = tree.unflatten(out_tree, [_plain(o) for o in outs]), jvp_fn
    return result + (aux,) if has_aux else result
