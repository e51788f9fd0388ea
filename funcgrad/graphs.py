"""``make_graph``: capture a function as a readable IR (like a jaxpr)."""
import functools

from . import tree
from .core import ShapedArray, Tracer
from .interpreters.graph import trace_to_graph
from .numpy._convert import asarray

__all__ = ["make_graph"]


def make_graph(fun):
    """``make_graph(f)(*args)`` returns the :class:`~funcgrad.Graph` of ``f`` traced on
    arguments shaped like ``args`` (only shapes and dtypes are used).

    >>> import numpy as np, funcgrad as fg
    >>> print(fg.make_graph(lambda x: np.sin(x) * 2.0)(np.ones(3)))
    { lambda  ; a:f64[3]. let
        b:f64[3] = sin a
        c:f64[3] = multiply b 2.0
      in (c) }
    """
    @functools.wraps(fun)
    def graph_of(*args):
        leaves, treedef = tree.flatten(args)
        avals = [ShapedArray(x.shape, x.dtype) for x in
                 (leaf if isinstance(leaf, Tracer) else asarray(leaf) for leaf in leaves)]
        out_tree = []

        def flat_fun(*tracers):
            out = fun(*tree.unflatten(treedef, list(tracers)))
            out_leaves, out_tree_ = tree.flatten(out)
            out_tree.append(out_tree_)
            return out_leaves

        graph = trace_to_graph(flat_fun, avals)
        graph.in_tree, graph.out_tree = treedef, out_tree[0]
        return graph

    return graph_of
