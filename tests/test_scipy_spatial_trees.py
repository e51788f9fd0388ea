"""funcgrad.scipy.spatial's KDTree/cKDTree, ConvexHull, Delaunay, Voronoi and tsearch
against SciPy: the combinatorial answers are SciPy's own; the distances, volumes, areas,
facet equations and barycentric transforms equal SciPy's values, and their derivatives
(forward and reverse) central differences of SciPy's values; values-only parts refuse
traced points rather than drop a derivative."""
import numpy as np
import pytest

ss = pytest.importorskip("scipy.spatial")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.spatial as fsp  # noqa: E402

RNG = np.random.default_rng(7)
DATA = RNG.random((25, 3))
QUERY = RNG.random((4, 3))
EPS = 1e-6


def close(got, want, rtol=1e-12, atol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def check_derivatives(ours, scipys, args, rtol=1e-6):
    """JVP along a random direction and the VJP's dot product against central
    differences of SciPy's values (small steps: the combinatorics stay fixed)."""
    directions = [RNG.standard_normal(np.shape(a)) for a in args]
    plus = scipys(*[a + EPS * d for a, d in zip(args, directions)])
    minus = scipys(*[a - EPS * d for a, d in zip(args, directions)])
    want = (np.asarray(plus) - np.asarray(minus)) / (2 * EPS)
    out, tangent = fg.jvp(ours, tuple(args), tuple(directions))
    close(out, scipys(*args), 1e-10, 1e-10)
    close(tangent, want, rtol, rtol)
    out, pullback = fg.vjp(ours, *args)
    weights = RNG.standard_normal(np.shape(out))
    close(sum(np.sum(g * d) for g, d in zip(pullback(weights), directions)),
          np.sum(weights * want), rtol, rtol)


QUERIES = [dict(k=1), dict(k=3), dict(k=[1, 3]), dict(k=2, p=1), dict(k=2, p=np.inf),
           dict(k=2, p=3), dict(k=4, distance_upper_bound=0.25), dict(k=2, eps=0.5)]


@pytest.mark.parametrize("options", QUERIES, ids=[str(q) for q in QUERIES])
def test_kdtree_query_matches_scipy(options):
    d, i = fsp.KDTree(DATA).query(QUERY, **options)
    want_d, want_i = ss.KDTree(DATA).query(QUERY, **options)
    np.testing.assert_array_equal(i, want_i)
    close(d, want_d)
    if not np.isinf(want_d).any():
        check_derivatives(lambda data, x: fsp.KDTree(data).query(x, **options)[0],
                          lambda data, x: ss.KDTree(data).query(x, **options)[0],
                          [DATA, QUERY])


def test_ckdtree_single_point_periodic_box_and_float32():
    d, i = fsp.cKDTree(DATA).query(QUERY[0])
    want_d, want_i = ss.cKDTree(DATA).query(QUERY[0])
    assert i == want_i and np.isscalar(want_d)
    close(d, want_d)
    box = fsp.KDTree(DATA, boxsize=1.0).query(QUERY + 0.5, k=2)
    want = ss.KDTree(DATA, boxsize=1.0).query((QUERY + 0.5) % 1.0, k=2)
    np.testing.assert_array_equal(box[1], want[1])
    close(box[0], want[0])
    check_derivatives(lambda x: fsp.KDTree(DATA, boxsize=1.0).query(x, k=2)[0],
                      lambda x: ss.KDTree(DATA, boxsize=1.0).query(x % 1.0, k=2)[0],
                      [QUERY + 0.5])


def test_kdtree_index_queries_are_scipys():
    ours, theirs = fsp.KDTree(DATA), ss.KDTree(DATA)
    other, their_other = fsp.KDTree(QUERY), ss.KDTree(QUERY)
    assert ours.query_ball_point(QUERY, 0.3).tolist() == theirs.query_ball_point(
        QUERY, 0.3).tolist()
    assert ours.query_pairs(0.2) == theirs.query_pairs(0.2)
    assert ours.query_ball_tree(other, 0.3) == theirs.query_ball_tree(their_other, 0.3)
    assert ours.count_neighbors(other, 0.3) == theirs.count_neighbors(their_other, 0.3)
    got = ours.sparse_distance_matrix(other, 0.4, output_type="dict")
    want = theirs.sparse_distance_matrix(their_other, 0.4, output_type="dict")
    assert got.keys() == want.keys() and got
    close([got[k] for k in want], [want[k] for k in want])
    close(ours.sparse_distance_matrix(other, 0.4).toarray(),
          theirs.sparse_distance_matrix(their_other, 0.4).toarray())
    keys = sorted(want)

    def ours_of(data):
        return fg.numpy.stack(
            [fsp.KDTree(data).sparse_distance_matrix(other, 0.4, output_type="dict")[k]
             for k in keys])
    check_derivatives(ours_of, lambda data: np.array(
        [ss.KDTree(data).sparse_distance_matrix(their_other, 0.4, output_type="dict")[k]
         for k in keys]), [DATA])
    with pytest.raises(TypeError, match="output_type='dict'"):
        fg.grad(lambda data: fsp.KDTree(data).sparse_distance_matrix(other, 0.4).sum())(DATA)


HULL = {2: RNG.random((12, 2)), 3: RNG.random((14, 3))}


@pytest.mark.parametrize("ndim", [2, 3])
def test_convex_hull_matches_scipy_and_differentiates(ndim):
    points = HULL[ndim]
    ours, theirs = fsp.ConvexHull(points), ss.ConvexHull(points)
    for name in ("vertices", "simplices", "neighbors"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
    close(ours.volume, theirs.volume), close(ours.area, theirs.area)
    close(ours.equations, theirs.equations)
    close(ours.min_bound, theirs.min_bound), close(ours.max_bound, theirs.max_bound)

    def ours_of(p):
        hull = fsp.ConvexHull(p)
        return fg.numpy.concatenate([fg.numpy.stack([hull.volume, hull.area]),
                                     fg.numpy.ravel(hull.equations)])

    def theirs_of(p):
        hull = ss.ConvexHull(p)
        return np.concatenate([[hull.volume, hull.area], hull.equations.ravel()])
    check_derivatives(ours_of, theirs_of, [points], rtol=1e-5)


def test_delaunay_matches_scipy_and_its_transform_differentiates():
    points = HULL[2]
    ours, theirs = fsp.Delaunay(points), ss.Delaunay(points)
    for name in ("simplices", "neighbors", "convex_hull", "vertex_to_simplex"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
    close(ours.transform, theirs.transform, 1e-10, 1e-10)
    close(ours.equations, theirs.equations)
    xi = np.array([[0.5, 0.5], [0.3, 0.6], [2.0, 2.0]])
    np.testing.assert_array_equal(ours.find_simplex(xi), theirs.find_simplex(xi))
    np.testing.assert_array_equal(fsp.tsearch(ours, xi), ss.tsearch(theirs, xi))
    check_derivatives(lambda p: fsp.Delaunay(p).transform, lambda p: ss.Delaunay(p).transform,
                      [points], rtol=1e-5)
    with pytest.raises(TypeError, match="stop_gradient"):
        fg.grad(lambda p: fsp.Delaunay(p).equations.sum())(points)


def test_voronoi_values_and_incremental_hull():
    points = HULL[2]
    ours, theirs = fsp.Voronoi(points), ss.Voronoi(points)
    close(ours.vertices, theirs.vertices)
    np.testing.assert_array_equal(ours.ridge_points, theirs.ridge_points)
    assert ours.regions == theirs.regions and ours.ridge_vertices == theirs.ridge_vertices
    # (its vertices differentiate since session 24: tests/test_scipy_spatial_qhull_more.py)
    np.testing.assert_array_equal(fg.grad(lambda p: fsp.Voronoi(p).points.sum())(points),
                                  np.ones_like(points))
    hull = fsp.ConvexHull(points[:6], incremental=True)
    hull.add_points(points[6:])
    close(hull.volume, ss.ConvexHull(points).volume)
    with pytest.raises(RuntimeError, match="incremental"):
        fsp.ConvexHull(points).add_points(points)
    with pytest.raises(ValueError, match="2-d"):
        fsp.ConvexHull(points[0])
