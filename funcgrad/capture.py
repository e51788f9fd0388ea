"""``make_graph``: capture a function as a readable IR (like a jaxpr); ``make_jaxpr``, the
same under JAX's name and signature."""
import functools
from typing import Any, Callable, Sequence

from . import tree
from .core import WEAK_TYPES, ShapedArray, Tracer, aval_of, stands_for_tensor
from .interpreters.graph import Graph, eval_graph, trace_to_graph
from .jit.signature import ShapeDtypeStruct
from .numpy._convert import asarray

__all__ = ["make_graph", "make_jaxpr"]


class _CapturedGraph(Graph):
    """A Graph that remembers the argument and result structure of the traced function:
    calling it takes arguments shaped like the original ones and returns the function's
    result structure (a single output is returned as itself, not as a one-item list)."""

    def __call__(self, *args):
        leaves, treedef = tree.flatten(args)
        if treedef != self.in_tree:
            raise TypeError(f"this graph was captured for arguments of structure "
                            f"{self.in_tree}, but was called with {treedef}")
        return tree.unflatten(self.out_tree, eval_graph(self, *leaves))


def tensor_positions(args):
    """The positions, among ``tree.flatten(args)``'s leaves, of the eager Tensors' values
    (a Tensor is a node whose one leaf is its value): traced as Tensors, they keep the
    Tensor's methods in the graph, as the function runs on them eagerly."""
    positions, k = [], 0
    for x in tree.leaves(args, is_leaf=stands_for_tensor):
        n = len(tree.leaves(x)) if stands_for_tensor(x) else 1
        if stands_for_tensor(x):
            positions.extend(range(k, k + n))
        k += n
    return positions


def _leaf_aval(leaf):
    if type(leaf) is ShapeDtypeStruct:  # (a shape and dtype standing for an array)
        return leaf.aval
    if type(leaf) in WEAK_TYPES:  # a Python number stays weakly typed, as jit traces it
        return aval_of(leaf)
    x = leaf if isinstance(leaf, Tracer) else asarray(leaf)
    return ShapedArray(x.shape, x.dtype)


def make_graph(fun: Callable[..., Any]) -> Callable[..., Graph]:
    """``make_graph(f)(*args)`` returns the :class:`~funcgrad.Graph` of ``f`` traced on
    arguments shaped like ``args`` (only shapes and dtypes are used).  Calling the graph
    evaluates it: ``make_graph(f)(x)(y)`` equals ``f(y)``.

    >>> import numpy as np, funcgrad as fg
    >>> graph = fg.make_graph(lambda x: np.sin(x) * 2.0)(np.ones(3))
    >>> print(graph)
    { lambda  ; a:f64[3]. let
        b:f64[3] = sin a
        c:f64[3] = multiply b 2.0
      in (c) }
    >>> graph(np.zeros(3))
    array([0., 0., 0.])
    """
    @functools.wraps(fun)
    def graph_of(*args):
        leaves, treedef = tree.flatten(args)
        avals = [_leaf_aval(leaf) for leaf in leaves]
        out_tree = []

        def flat_fun(*tracers):
            out = fun(*tree.unflatten(treedef, list(tracers)))
            out_leaves, out_tree_ = tree.flatten(out)
            out_tree.append(out_tree_)
            return out_leaves

        flat = trace_to_graph(flat_fun, avals, tensor_positions(args))
        graph = _CapturedGraph(flat.invars, flat.eqns, flat.outvars)
        graph.in_tree, graph.out_tree = treedef, out_tree[0]
        return graph

    return graph_of


def make_jaxpr(fun: Callable[..., Any], static_argnums: int | Sequence[int] = (),
               axis_env: Sequence[tuple[Any, int]] | None = None, return_shape: bool = False
               ) -> Callable[..., Any]:
    """JAX's ``jax.make_jaxpr`` on :func:`make_graph`: ``make_jaxpr(f)(*args)`` is the
    :class:`~funcgrad.Graph` of ``f`` (printed like a jaxpr); arguments may be arrays or
    :class:`~funcgrad.ShapeDtypeStruct`.  ``static_argnums``: arguments passed to ``f``
    as they are (Python values, left out of the graph's inputs; the graph is called with
    the others, and with keyword arguments as ``graph(list_of_args, dict_of_keywords)``).
    ``return_shape=True``:
    ``(graph, shapes)``, the output's structure with a ``ShapeDtypeStruct`` per leaf.
    ``axis_env`` (names of mapped axes for collectives) is refused: funcgrad's named axes
    exist only inside ``fg.vmap(..., axis_name=...)``; trace the ``vmap`` instead.

    >>> import numpy as np, funcgrad as fg
    >>> graph, shape = fg.make_jaxpr(lambda x, n: x ** n, static_argnums=1,
    ...                              return_shape=True)(fg.ShapeDtypeStruct((2,), np.float32), 3)
    >>> print(graph)
    { lambda  ; a:f32[2]. let
        b:f32[2] = power a 3
      in (b) }
    >>> shape
    ShapeDtypeStruct(shape=(2,), dtype=float32)
    """
    if axis_env:
        raise NotImplementedError(
            "make_jaxpr: axis_env names mapped axes for collectives outside of a vmap; in "
            "funcgrad named axes exist only inside fg.vmap(f, axis_name=...): trace "
            "fg.make_jaxpr(fg.vmap(f, axis_name=...)) instead")
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)

    @functools.wraps(fun)
    def jaxpr_of(*args, **kwargs):
        positions = {i % len(args) for i in static if -len(args) <= i < len(args)}
        if len(positions) != len(static):
            raise ValueError(f"make_jaxpr: static_argnums={static_argnums!r} does not fit a "
                             f"call with {len(args)} positional arguments")
        traced = [a for i, a in enumerate(args) if i not in positions]

        def dynamic(*values, **named):
            it = iter(values)
            return fun(*[args[i] if i in positions else next(it) for i in range(len(args))],
                       **named)

        if kwargs:  # (the graph then takes them as its second argument, a dict)
            graph = make_graph(functools.partial(_call_with_keywords, dynamic))(traced, kwargs)
        else:
            graph = make_graph(dynamic)(*traced)
        if not return_shape:
            return graph
        shapes = tree.unflatten(graph.out_tree, [
            ShapeDtypeStruct(v.aval.shape, v.aval.dtype) if hasattr(v, "aval") else
            ShapeDtypeStruct(getattr(v, "shape", ()), aval_of(v).dtype) for v in graph.outvars])
        return graph, shapes

    return jaxpr_of


def _call_with_keywords(fun, args, kwargs):
    return fun(*args, **kwargs)
