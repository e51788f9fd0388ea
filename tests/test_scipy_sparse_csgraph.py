"""funcgrad.scipy.sparse.csgraph: SciPy's values, and derivatives in the edge weights
against central differences of SciPy's own results."""
import numpy as np
import pytest
import scipy.sparse.csgraph as sc
from scipy.sparse import csr_matrix

import funcgrad as fg
from funcgrad.scipy.sparse import csgraph


def _graph(n=6, seed=0, density=0.5, negative=False):
    rng = np.random.default_rng(seed)
    w = rng.uniform(0.5, 2.0, (n, n)) * (rng.uniform(size=(n, n)) < density)
    np.fill_diagonal(w, 0)
    if negative:  # (no negative cycle: a DAG's edges may be negative)
        w = np.triu(w) - 0.3 * np.triu(w != 0)
    return w


def _check_derivative(f_fg, f_scipy, w, seed=1, eps=1e-6, atol=1e-7):
    """The VJP of ``f_fg`` equals the central difference of SciPy's ``f_scipy`` along the
    edges' directions (only edges move: a non-edge is not a weight)."""
    rng = np.random.default_rng(seed)
    out, pullback = fg.vjp(f_fg, w)
    want = np.asarray(f_scipy(w))
    finite = np.isfinite(want)
    np.testing.assert_allclose(np.asarray(out)[finite], want[finite], rtol=1e-12, atol=1e-12)
    assert np.array_equal(np.isfinite(np.asarray(out)), finite)
    cot = np.where(finite, rng.standard_normal(want.shape), 0.0)
    (g,) = pullback(cot)
    direction = rng.standard_normal(w.shape) * (w != 0)
    fd = (np.nan_to_num(f_scipy(w + eps * direction), posinf=0.0)
          - np.nan_to_num(f_scipy(w - eps * direction), posinf=0.0)) / (2 * eps)
    np.testing.assert_allclose(np.sum(np.asarray(g) * direction), np.sum(cot * fd),
                               rtol=1e-6, atol=atol)
    return g


@pytest.mark.parametrize("directed", [True, False])
@pytest.mark.parametrize("name,kwargs", [
    ("shortest_path", {}), ("shortest_path", {"indices": [1, 3]}),
    ("floyd_warshall", {}), ("dijkstra", {"indices": 2}),
    ("dijkstra", {"indices": [0, 4], "min_only": True}),
    ("dijkstra", {"limit": 2.5}), ("bellman_ford", {}), ("johnson", {"indices": [0]})])
def test_shortest_distances_are_scipys_and_differentiate_along_the_paths(name, kwargs,
                                                                         directed):
    w = _graph(seed=3)
    ours, theirs = getattr(csgraph, name), getattr(sc, name)
    _check_derivative(lambda w: ours(w, directed=directed, **kwargs),
                      lambda w: theirs(w, directed=directed, **kwargs), w)
    d, p = ours(w, directed=directed, return_predecessors=True, **kwargs)[:2]
    d_ref, p_ref = theirs(w, directed=directed, return_predecessors=True, **kwargs)[:2]
    np.testing.assert_array_equal(d, d_ref)  # (not traced: SciPy's own)
    np.testing.assert_array_equal(p, p_ref)


def test_negative_weights_and_the_gradient_is_each_paths_edge_count():
    w = _graph(n=5, seed=4, density=0.9, negative=True)
    g = _check_derivative(lambda w: csgraph.bellman_ford(w), lambda w: sc.bellman_ford(w), w)
    # (every derivative of a sum of path weights counts how many paths use the edge)
    _, pullback = fg.vjp(lambda w: csgraph.johnson(w), w)
    (count,) = pullback(np.where(np.isfinite(sc.johnson(w)), 1.0, 0.0))
    assert np.allclose(count, np.round(count)) and count.min() >= 0
    assert g.shape == w.shape


def test_yen_and_construct_dist_matrix_and_unweighted():
    w = _graph(n=6, seed=5, density=0.7)
    _check_derivative(lambda w: csgraph.yen(w, 0, 5, 3), lambda w: sc.yen(w, 0, 5, 3), w)
    _, pred = sc.shortest_path(w, return_predecessors=True)
    _check_derivative(lambda w: csgraph.construct_dist_matrix(w, pred),
                      lambda w: sc.construct_dist_matrix(w, pred), w)
    # hop counts: a constant of the weights
    g = fg.grad(lambda w: csgraph.shortest_path(w, unweighted=True)[0, 5])(w)
    assert np.all(np.asarray(g) == 0)


@pytest.mark.parametrize("name,args", [
    ("minimum_spanning_tree", ()), ("breadth_first_tree", (0,)), ("depth_first_tree", (1,)),
    ("breadth_first_tree", (2, False)), ("reconstruct_path", ("pred",))])
def test_trees_are_scipys_dense_with_the_traced_weights(name, args):
    w = _graph(n=6, seed=6, density=0.6)
    w[1, 0], w[0, 1] = 0.7, 1.9  # (undirected: the smaller direction is the edge)
    if args == ("pred",):
        args = (sc.shortest_path(w, directed=False, return_predecessors=True)[1][0], False)
    want = getattr(sc, name)(w, *args).toarray()
    out, pullback = fg.vjp(lambda w: getattr(csgraph, name)(w, *args), w)
    np.testing.assert_array_equal(np.asarray(out), want)
    (g,) = pullback(np.ones_like(want))
    fd = np.zeros_like(w)
    for i, j in zip(*np.nonzero(w)):
        e = np.zeros_like(w)
        e[i, j] = 1e-6
        fd[i, j] = (getattr(sc, name)(w + e, *args).toarray().sum()
                    - getattr(sc, name)(w - e, *args).toarray().sum()) / 2e-6
    np.testing.assert_allclose(np.asarray(g), fd, atol=1e-8)


@pytest.mark.parametrize("kw", [{}, {"normed": True}, {"use_out_degree": True},
                                {"normed": True, "symmetrized": True},
                                {"return_diag": True, "normed": True}])
def test_laplacian_is_scipys_bit_for_bit_and_differentiates(kw):
    w = _graph(n=5, seed=7)
    w[3, :] = 0
    w[:, 3] = 0  # (an isolated node: normed gives it 1 on the diagonal)
    for dtype in (np.float64, np.float32):
        got, want = csgraph.laplacian(w.astype(dtype), **kw), sc.laplacian(w.astype(dtype), **kw)
        for a, b in zip(got, want) if kw.get("return_diag") else [(got, want)]:
            assert np.asarray(a).dtype == b.dtype
            np.testing.assert_array_equal(np.asarray(a), b)
    lap_only = {k: v for k, v in kw.items() if k != "return_diag"}
    rng = np.random.default_rng(8)
    cot = rng.standard_normal((5, 5))
    g = fg.grad(lambda w: (csgraph.laplacian(w, **lap_only) * cot).sum())(w)
    direction = rng.standard_normal(w.shape) * (w != 0)
    fd = ((sc.laplacian(w + 1e-6 * direction, **lap_only)
           - sc.laplacian(w - 1e-6 * direction, **lap_only)) * cot).sum() / 2e-6
    np.testing.assert_allclose(np.sum(np.asarray(g) * direction), fd, rtol=1e-6)


def test_laplacian_forms_and_sparse_input():
    w = _graph(n=4, seed=9)
    v = np.arange(4.0)
    lap = sc.laplacian(w)
    np.testing.assert_allclose(csgraph.laplacian(w, form="function")(v), lap @ v)
    np.testing.assert_allclose(csgraph.laplacian(w, form="lo").matvec(v), lap @ v)
    np.testing.assert_array_equal(csgraph.laplacian(csr_matrix(w)), lap)
    with pytest.raises(ValueError, match="square"):
        csgraph.laplacian(np.ones((2, 3)))


def test_integer_results_are_scipys_on_the_values():
    w = _graph(n=6, seed=10, density=0.3)
    n, labels = csgraph.connected_components(w, directed=True, connection="strong")
    n_ref, labels_ref = sc.connected_components(w, directed=True, connection="strong")
    assert n == n_ref and np.array_equal(labels, labels_ref)
    for name in ("breadth_first_order", "depth_first_order"):
        for a, b in zip(getattr(csgraph, name)(w, 0), getattr(sc, name)(w, 0)):
            np.testing.assert_array_equal(a, b)
    s = csr_matrix(w)
    np.testing.assert_array_equal(csgraph.reverse_cuthill_mckee(w), sc.reverse_cuthill_mckee(s))
    assert csgraph.structural_rank(w) == sc.structural_rank(s)
    np.testing.assert_array_equal(csgraph.maximum_bipartite_matching(w),
                                  sc.maximum_bipartite_matching(s))
    cap = (w * 3).astype(np.int32)
    assert csgraph.maximum_flow(cap, 0, 5).flow_value == sc.maximum_flow(csr_matrix(cap), 0,
                                                                          5).flow_value
    full = _graph(n=4, seed=11, density=1.1) + np.eye(4)
    for a, b in zip(csgraph.min_weight_full_bipartite_matching(full),
                    sc.min_weight_full_bipartite_matching(csr_matrix(full))):
        np.testing.assert_array_equal(a, b)
    assert csgraph.NegativeCycleError is sc.NegativeCycleError
    assert csgraph.csgraph_from_dense is sc.csgraph_from_dense


def test_paths_need_values_and_a_square_graph():
    w = _graph(n=4, seed=12)
    with pytest.raises(fg.ConcretizationError, match="outside jit"):
        fg.jit(lambda w: csgraph.shortest_path(w))(w)
    with pytest.raises(ValueError, match="square"):
        csgraph.dijkstra(np.ones((3, 4)))
    with pytest.raises(sc.NegativeCycleError):
        csgraph.bellman_ford(np.array([[0.0, -1.0], [-1.0, 0.0]]))
