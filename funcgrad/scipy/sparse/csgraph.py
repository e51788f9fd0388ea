"""``funcgrad.scipy.sparse.csgraph``: SciPy's graph routines, differentiable in the
edge weights.

A graph is an ``(N, N)`` array of weights, where 0, inf and NaN mean no edge (SciPy's
dense convention; a SciPy sparse matrix is densified, losing its explicit zeros).  SciPy
finds the paths and trees, on the weights' values; the distances and trees returned
are then computed again from the traced weights, so they differentiate exactly with
respect to every weight on a chosen path or tree (and not at all with respect to the
others), wherever that choice does not change.  Where SciPy returns a sparse matrix (a
tree), funcgrad returns the dense array (funcgrad has no sparse types).  Results that
are integers (components, orders, matchings, flows of integer capacities) are SciPy's,
computed on the weights' values.  Since the paths depend on the weights' values, these
run outside ``jit`` and ``vmap`` (a clear error names it).

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.scipy.sparse import csgraph
>>> w = np.array([[0.0, 1.0, 4.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
>>> csgraph.shortest_path(w)[0, 2]
np.float64(3.0)
>>> fg.grad(lambda w: csgraph.shortest_path(w)[0, 2])(w)   # the path 0 -> 1 -> 2
array([[0., 1., 0.],
       [0., 0., 1.],
       [0., 0., 0.]])
"""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import concrete_values
from ...typing import Array, ArrayLike
from ._csgraph_weights import edge_weights, graph_values, path_lengths, tree_from_positions

__all__ = ["shortest_path", "floyd_warshall", "dijkstra", "bellman_ford", "johnson", "yen",
           "construct_dist_matrix", "minimum_spanning_tree", "breadth_first_tree",
           "depth_first_tree", "reconstruct_path", "laplacian", "connected_components",
           "breadth_first_order", "depth_first_order", "reverse_cuthill_mckee",
           "structural_rank", "maximum_flow", "maximum_bipartite_matching",
           "min_weight_full_bipartite_matching"]
_SCIPY_NAMES = ("csgraph_from_dense", "csgraph_masked_from_dense", "csgraph_from_masked",
                "csgraph_to_dense", "csgraph_to_masked", "NegativeCycleError")
__all__ += list(_SCIPY_NAMES)  # (SciPy's conversions and error class: __getattr__ loads them)


def _scipy():
    import scipy.sparse.csgraph as sc
    return sc


def __getattr__(name):
    # (SciPy's conversions and its error class, imported when first asked for: a module
    # attribute SciPy's import would otherwise fix at funcgrad.scipy's import)
    if name in _SCIPY_NAMES:
        return getattr(_scipy(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _traced(graph):
    return type(graph) is not np.ndarray


def _searched(name, csgraph, directed, unweighted, return_predecessors, search, **kw):
    """SciPy's ``search`` run on the weights' values; the distances summed again from
    the traced weights along the predecessors it found."""
    graph, values = graph_values(name, csgraph)
    dist, pred, *rest = search(values, directed=directed, return_predecessors=True,
                               unweighted=unweighted, **kw)
    if _traced(graph) and not unweighted:
        dist = path_lengths(edge_weights(graph, values, directed), pred, dist)
    if return_predecessors:
        return (dist, pred, *rest)
    return dist


def shortest_path(csgraph: ArrayLike, method: str = "auto", directed: bool = True,
                  return_predecessors: bool = False, unweighted: bool = False,
                  overwrite: bool = False, indices: Any = None) -> Any:
    """The shortest distances between nodes (``scipy.sparse.csgraph.shortest_path``),
    differentiable in the weights: each distance is the sum of its path's weights.

    ``dist`` (and ``predecessors`` with ``return_predecessors``); ``overwrite`` is
    accepted and ignored (the graph is never written to).

    >>> import numpy as np
    >>> w = np.array([[0.0, 1.0, 4.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
    >>> shortest_path(w, directed=False)
    array([[0., 1., 3.],
           [1., 0., 2.],
           [3., 2., 0.]])
    """
    return _searched("shortest_path", csgraph, directed, unweighted, return_predecessors,
                     _scipy().shortest_path, method=method, indices=indices)


def floyd_warshall(csgraph: ArrayLike, directed: bool = True,
                   return_predecessors: bool = False, unweighted: bool = False,
                   overwrite: bool = False) -> Any:
    """All-pairs shortest distances by Floyd-Warshall
    (``scipy.sparse.csgraph.floyd_warshall``), differentiable in the weights.

    >>> import numpy as np
    >>> floyd_warshall(np.array([[0.0, 2.0], [1.0, 0.0]]))
    array([[0., 2.],
           [1., 0.]])
    """
    return _searched("floyd_warshall", csgraph, directed, unweighted, return_predecessors,
                     _scipy().floyd_warshall)


def dijkstra(csgraph: ArrayLike, directed: bool = True, indices: Any = None,
             return_predecessors: bool = False, unweighted: bool = False,
             limit: float = np.inf, min_only: bool = False) -> Any:
    """Shortest distances from ``indices`` by Dijkstra's algorithm
    (``scipy.sparse.csgraph.dijkstra``; non-negative weights), differentiable in the
    weights.  With ``min_only``: the distance from the nearest source, and with
    ``return_predecessors`` also the predecessors and each node's source.

    >>> import numpy as np
    >>> w = np.array([[0.0, 1.0, 4.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
    >>> dijkstra(w, indices=0)
    array([0., 1., 3.])
    """
    return _searched("dijkstra", csgraph, directed, unweighted, return_predecessors,
                     _scipy().dijkstra, indices=indices, limit=limit, min_only=min_only)


def bellman_ford(csgraph: ArrayLike, directed: bool = True, indices: Any = None,
                 return_predecessors: bool = False, unweighted: bool = False) -> Any:
    """Shortest distances by Bellman-Ford (``scipy.sparse.csgraph.bellman_ford``;
    negative weights allowed, a negative cycle raises SciPy's ``NegativeCycleError``),
    differentiable in the weights.

    >>> import numpy as np
    >>> bellman_ford(np.array([[0.0, 3.0], [-1.0, 0.0]]), indices=0)
    array([0., 3.])
    """
    return _searched("bellman_ford", csgraph, directed, unweighted, return_predecessors,
                     _scipy().bellman_ford, indices=indices)


def johnson(csgraph: ArrayLike, directed: bool = True, indices: Any = None,
            return_predecessors: bool = False, unweighted: bool = False) -> Any:
    """Shortest distances by Johnson's algorithm (``scipy.sparse.csgraph.johnson``),
    differentiable in the weights.

    >>> import numpy as np
    >>> johnson(np.array([[0.0, 3.0], [-1.0, 0.0]]))
    array([[ 0.,  3.],
           [-1.,  0.]])
    """
    return _searched("johnson", csgraph, directed, unweighted, return_predecessors,
                     _scipy().johnson, indices=indices)


def yen(csgraph: ArrayLike, source: int, sink: int, K: int, *, directed: bool = True,
        return_predecessors: bool = False, unweighted: bool = False) -> Any:
    """The ``K`` shortest loopless paths from ``source`` to ``sink`` (Yen's algorithm,
    ``scipy.sparse.csgraph.yen``): their lengths, differentiable in the weights (and
    each path's predecessors with ``return_predecessors``).

    >>> import numpy as np
    >>> w = np.array([[0.0, 1.0, 4.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
    >>> yen(w, 0, 2, 2)
    array([3., 4.])
    """
    graph, values = graph_values("yen", csgraph)
    dist, pred = _scipy().yen(values, source, sink, K, directed=directed,
                              return_predecessors=True, unweighted=unweighted)
    if _traced(graph) and not unweighted and len(dist):
        rows = np.zeros(pred.shape)
        rows[:, sink] = dist
        dist = path_lengths(edge_weights(graph, values, directed), pred, rows)[:, sink]
    return (dist, pred) if return_predecessors else dist


def construct_dist_matrix(graph: ArrayLike, predecessors: ArrayLike, directed: bool = True,
                          null_value: float = np.inf) -> Array:
    """The length of each path that ``predecessors`` describes
    (``scipy.sparse.csgraph.construct_dist_matrix``), summed from ``graph``'s traced
    weights; ``null_value`` where there is no path.

    >>> import numpy as np
    >>> w = np.array([[0.0, 1.0, 4.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
    >>> construct_dist_matrix(w, [[-9999, 0, 1], [-9999, -9999, 1], [-9999, -9999, -9999]])
    array([[ 0.,  1.,  3.],
           [inf,  0.,  2.],
           [inf, inf,  0.]])
    """
    traced, values = graph_values("construct_dist_matrix", graph)
    pred = np.asarray(predecessors, dtype=np.int32)
    dist = _scipy().construct_dist_matrix(values, pred, directed=directed,
                                          null_value=null_value)
    if not _traced(traced):
        return dist
    return path_lengths(edge_weights(traced, values, directed), pred, dist)


def minimum_spanning_tree(csgraph: ArrayLike, overwrite: bool = False) -> Array:
    """A minimum spanning tree (forest) of the undirected graph
    (``scipy.sparse.csgraph.minimum_spanning_tree``), dense: SciPy's edges, each with its
    traced weight (so the tree's total weight differentiates in them).

    >>> import numpy as np
    >>> minimum_spanning_tree(np.array([[0.0, 1.0, 3.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]))
    array([[0., 1., 0.],
           [0., 0., 2.],
           [0., 0., 0.]])
    """
    graph, values = graph_values("minimum_spanning_tree", csgraph)
    tree = _scipy().minimum_spanning_tree(values)
    return tree_from_positions(edge_weights(graph, values, True), tree)


def breadth_first_tree(csgraph: ArrayLike, i_start: int, directed: bool = True) -> Array:
    """The breadth-first search tree from ``i_start``
    (``scipy.sparse.csgraph.breadth_first_tree``), dense, with the traced weights.

    >>> import numpy as np
    >>> breadth_first_tree(np.array([[0.0, 1.0, 3.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]), 0)
    array([[0., 1., 3.],
           [0., 0., 0.],
           [0., 0., 0.]])
    """
    graph, values = graph_values("breadth_first_tree", csgraph)
    tree = _scipy().breadth_first_tree(values, i_start, directed=directed)
    return tree_from_positions(edge_weights(graph, values, directed), tree)


def depth_first_tree(csgraph: ArrayLike, i_start: int, directed: bool = True) -> Array:
    """The depth-first search tree from ``i_start``
    (``scipy.sparse.csgraph.depth_first_tree``), dense, with the traced weights.

    >>> import numpy as np
    >>> depth_first_tree(np.array([[0.0, 1.0, 3.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]), 0)
    array([[0., 1., 0.],
           [0., 0., 2.],
           [0., 0., 0.]])
    """
    graph, values = graph_values("depth_first_tree", csgraph)
    tree = _scipy().depth_first_tree(values, i_start, directed=directed)
    return tree_from_positions(edge_weights(graph, values, directed), tree)


def reconstruct_path(csgraph: ArrayLike, predecessors: ArrayLike,
                     directed: bool = True) -> Array:
    """The tree that a row of predecessors describes
    (``scipy.sparse.csgraph.reconstruct_path``), dense, with the traced weights.

    >>> import numpy as np
    >>> w = np.array([[0.0, 1.0, 4.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]])
    >>> reconstruct_path(w, [-9999, 0, 1])
    array([[0., 1., 0.],
           [0., 0., 2.],
           [0., 0., 0.]])
    """
    graph, values = graph_values("reconstruct_path", csgraph)
    tree = _scipy().reconstruct_path(values, np.asarray(predecessors, dtype=np.int32),
                                     directed=directed)
    return tree_from_positions(edge_weights(graph, values, directed), tree)


def laplacian(csgraph: ArrayLike, normed: bool = False, return_diag: bool = False,
              use_out_degree: bool = False, *, copy: bool = True, form: str = "array",
              dtype: Any = None, symmetrized: bool = False) -> Any:
    """The graph Laplacian ``D - A`` (``scipy.sparse.csgraph.laplacian``; with
    ``normed``, ``I - D^-1/2 A D^-1/2``), a smooth function of the weights: SciPy's
    values, differentiable.  ``form="array"`` (dense), ``"function"`` (``v -> L v``) or
    ``"lo"`` (a :class:`funcgrad.scipy.sparse.linalg.LinearOperator`); ``copy`` is
    accepted and ignored (nothing is written in place).

    >>> import numpy as np
    >>> laplacian(np.array([[0.0, 1.0], [1.0, 0.0]]))
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    if hasattr(csgraph, "toarray") and hasattr(csgraph, "tocsr"):
        csgraph = csgraph.toarray()
    m = fnp.asarray(csgraph)
    if m.ndim != 2 or m.shape[0] != m.shape[1]:
        raise ValueError("laplacian: csgraph must be a square matrix or array; got shape "
                         f"{m.shape}")
    if form not in ("array", "function", "lo"):
        raise ValueError(f"laplacian: form must be 'array', 'function' or 'lo'; got {form!r}")
    if normed and m.dtype.kind in "iu":
        m = m.astype(np.float64)
    out_dtype = m.dtype if dtype is None else np.dtype(dtype)
    if symmetrized:
        m = m + fnp.conj(m.T)
    off = ~np.eye(m.shape[0], dtype=bool)
    m = fnp.where(off, m, fnp.zeros((), m.dtype))
    w = m.sum(axis=1 if use_out_degree else 0)
    if normed:
        isolated = concrete_values(w, "laplacian(normed=True)'s degrees",
                                   "call laplacian outside jit and vmap") == 0
        w = fnp.where(isolated, 1, fnp.sqrt(fnp.where(isolated, 1, w)))
        lap = fnp.where(off, -(m / w / w[:, None]), (1 - isolated).astype(m.dtype))
    else:
        lap = fnp.where(off, -m, fnp.diag(w))
    lap, w = lap.astype(out_dtype), w.astype(out_dtype)
    if form == "function":
        result: Any = lambda v: lap @ v  # noqa: E731
    elif form == "lo":
        from .linalg import aslinearoperator
        result = aslinearoperator(lap)
    else:
        result = lap
    return (result, w) if return_diag else result


def _values(name, csgraph):
    return graph_values(name, csgraph)[1]


def _sparse(values):
    from scipy.sparse import csr_matrix
    return csr_matrix(values)


def connected_components(csgraph: ArrayLike, directed: bool = True, connection: str = "weak",
                         return_labels: bool = True) -> Any:
    """``(n_components, labels)`` (``scipy.sparse.csgraph.connected_components``),
    SciPy's, computed on the weights' values (integers: no derivative).

    >>> import numpy as np
    >>> connected_components(np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]))
    (2, array([0, 0, 1], dtype=int32))
    """
    return _scipy().connected_components(_values("connected_components", csgraph),
                                         directed=directed, connection=connection,
                                         return_labels=return_labels)


def breadth_first_order(csgraph: ArrayLike, i_start: int, directed: bool = True,
                        return_predecessors: bool = True) -> Any:
    """The nodes in breadth-first order from ``i_start`` (and their predecessors)
    (``scipy.sparse.csgraph.breadth_first_order``): SciPy's, on the weights' values.

    >>> import numpy as np
    >>> breadth_first_order(np.array([[0.0, 1.0], [0.0, 0.0]]), 0, return_predecessors=False)
    array([0, 1], dtype=int32)
    """
    return _scipy().breadth_first_order(_values("breadth_first_order", csgraph), i_start,
                                        directed=directed,
                                        return_predecessors=return_predecessors)


def depth_first_order(csgraph: ArrayLike, i_start: int, directed: bool = True,
                      return_predecessors: bool = True) -> Any:
    """The nodes in depth-first order from ``i_start`` (and their predecessors)
    (``scipy.sparse.csgraph.depth_first_order``): SciPy's, on the weights' values.

    >>> import numpy as np
    >>> depth_first_order(np.array([[0.0, 1.0], [0.0, 0.0]]), 0, return_predecessors=False)
    array([0, 1], dtype=int32)
    """
    return _scipy().depth_first_order(_values("depth_first_order", csgraph), i_start,
                                      directed=directed,
                                      return_predecessors=return_predecessors)


def reverse_cuthill_mckee(graph: ArrayLike, symmetric_mode: bool = False) -> Array:
    """The reverse Cuthill-McKee ordering of the graph's nodes
    (``scipy.sparse.csgraph.reverse_cuthill_mckee``): SciPy's, on its values.

    >>> import numpy as np
    >>> reverse_cuthill_mckee(np.array([[1.0, 1.0], [1.0, 1.0]]), symmetric_mode=True)
    array([1, 0], dtype=int32)
    """
    return _scipy().reverse_cuthill_mckee(_sparse(_values("reverse_cuthill_mckee", graph)),
                                          symmetric_mode=symmetric_mode)


def structural_rank(graph: ArrayLike) -> int:
    """The structural rank of the matrix's sparsity pattern
    (``scipy.sparse.csgraph.structural_rank``): SciPy's, on its values.

    >>> import numpy as np
    >>> structural_rank(np.array([[1.0, 0.0], [1.0, 0.0]]))
    np.int64(1)
    """
    return _scipy().structural_rank(_sparse(_values("structural_rank", graph)))


def maximum_flow(csgraph: ArrayLike, source: int, sink: int, *, method: str = "dinic") -> Any:
    """The maximum flow from ``source`` to ``sink`` (``scipy.sparse.csgraph.maximum_flow``;
    integer capacities, so no derivative): SciPy's result, on the capacities' values.

    >>> import numpy as np
    >>> maximum_flow(np.array([[0, 3, 1], [0, 0, 2], [0, 0, 0]], np.int32), 0, 2).flow_value
    np.int64(3)
    """
    return _scipy().maximum_flow(_sparse(_values("maximum_flow", csgraph)), source, sink,
                                 method=method)


def maximum_bipartite_matching(graph: ArrayLike, perm_type: str = "row") -> Array:
    """A maximum matching of the bipartite graph
    (``scipy.sparse.csgraph.maximum_bipartite_matching``): SciPy's, on its values.

    >>> import numpy as np
    >>> maximum_bipartite_matching(np.array([[0.0, 1.0], [1.0, 0.0]]))
    array([1, 0], dtype=int32)
    """
    return _scipy().maximum_bipartite_matching(
        _sparse(_values("maximum_bipartite_matching", graph)), perm_type=perm_type)


def min_weight_full_bipartite_matching(biadjacency: ArrayLike,
                                       maximize: bool = False) -> Any:
    """``(row_ind, col_ind)`` of a minimum-weight full matching
    (``scipy.sparse.csgraph.min_weight_full_bipartite_matching``): SciPy's, on the
    weights' values (the matched weights ``w[row_ind, col_ind]`` differentiate).

    >>> import numpy as np
    >>> min_weight_full_bipartite_matching(np.array([[1.0, 2.0], [2.0, 5.0]]))
    (array([0, 1]), array([1, 0], dtype=int32))
    """
    return _scipy().min_weight_full_bipartite_matching(
        _sparse(_values("min_weight_full_bipartite_matching", biadjacency)),
        maximize=maximize)
