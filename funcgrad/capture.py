"""``make_graph``: capture a function as a readable IR (like a jaxpr)."""
import functools
from typing import Any, Callable

from . import tree
from .core import WEAK_TYPES, ShapedArray, Tracer, aval_of
from .interpreters.graph import Graph, eval_graph, trace_to_graph
from .numpy._convert import asarray

__all__ = ["make_graph"]


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


def _leaf_aval(leaf):
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

        flat = trace_to_graph(flat_fun, avals)
        graph = _CapturedGraph(flat.invars, flat.eqns, flat.outvars)
        graph.in_tree, graph.out_tree = treedef, out_tree[0]
        return graph

    return graph_of
