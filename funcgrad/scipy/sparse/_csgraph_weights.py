"""Edge weights along the paths and trees SciPy's graph routines find.

A shortest path, a spanning tree, a traversal tree: which edges they use is decided by
comparing weights (SciPy finds them, on the graph's values), and once chosen the result
is a sum or a copy of those edges' weights, so its derivative with respect to the weights
is exact wherever the choice does not change (a tie between two paths or trees is where
the derivative jumps, as it does for ``min``).  The functions here take the choice
SciPy made (predecessor arrays, a tree's positions) and compute the result again from
the traced weights.
"""
import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values

__all__ = ["graph_values", "edge_weights", "path_lengths", "tree_from_positions"]


def graph_values(name, csgraph):
    """``(traced, values)``: the graph as a funcgrad array and its concrete values (a
    SciPy sparse matrix: densified, concrete; its explicit zeros are lost, as any
    zero of a dense graph is no edge)."""
    if hasattr(csgraph, "toarray") and hasattr(csgraph, "tocsr"):
        csgraph = csgraph.toarray()
    graph = asarray(csgraph)
    if graph.ndim != 2 or graph.shape[0] != graph.shape[1]:
        raise ValueError(f"{name}: the graph must be a square (N, N) matrix; got shape "
                         f"{graph.shape}")
    values = concrete_values(graph, f"{name}'s graph",
                             f"call {name} outside jit and vmap (the paths it finds depend "
                             f"on the weights' values)")
    return graph, values


def edge_weights(graph, values, directed):
    """The weight of each edge ``i -> j`` as the routines read a dense graph: 0, inf and
    NaN are no edge (weight inf here); undirected, the smaller of ``[i, j]`` and
    ``[j, i]``, as SciPy's searches and the trees they return read it."""
    absent = (values == 0) | ~np.isfinite(values)
    # (float64, as SciPy's routines compute and return whatever the graph's dtype)
    w = fnp.where(absent, np.inf, graph.astype(np.float64))
    return w if directed else fnp.minimum(w, w.T)


def path_lengths(weights, predecessors, reference):
    """The length of each path that ``predecessors`` (SciPy's: ``[r, j]`` is the node
    before ``j`` on row ``r``'s path, -9999 at a root or an unreachable node) describes,
    summed from ``weights`` by pointer jumping (each round doubles the length of path
    folded into each entry: ``log2(N)`` gathers).  ``reference`` (SciPy's distances)
    gives the entries that are not a path sum (inf where unreachable, 0 at the root).
    The sums agree with SciPy's to rounding: they add the same weights in another
    order."""
    pred = np.atleast_2d(np.asarray(predecessors))
    rows, n = pred.shape
    cols = np.broadcast_to(np.arange(n), pred.shape)
    has = pred >= 0
    anc = np.where(has, pred, cols)
    # (w[pred[r, j], j]: the weight of the last edge into j)
    length = fnp.where(has, weights[anc, cols], 0.0)
    while True:
        further = np.take_along_axis(anc, anc, axis=1)
        if np.array_equal(further, anc):
            break
        length = length + fnp.take_along_axis(length, anc, axis=1)
        anc = further
    ref = np.atleast_2d(np.asarray(reference))
    out = fnp.where(has, length, ref.astype(length.dtype))
    return out.reshape(np.shape(reference))


def tree_from_positions(weights, tree_values):
    """A dense tree with SciPy's edges (the nonzero entries of ``tree_values``, SciPy's
    sparse tree), each holding its traced weight from ``weights`` (:func:`edge_weights`:
    read undirected, the smaller of the two directions, as SciPy's trees hold)."""
    tree = tree_values.toarray() if hasattr(tree_values, "toarray") else tree_values
    return fnp.where(np.asarray(tree) != 0, weights, 0.0)
