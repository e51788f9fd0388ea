"""HalfspaceIntersection and SphericalVoronoi: SciPy's values, derivatives against
central differences of SciPy's own results; SciPy's plots and classes."""
import numpy as np
import pytest

scipy_spatial = pytest.importorskip("scipy.spatial")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.spatial as fsp  # noqa: E402

RNG = np.random.default_rng(11)


def _fd(f, x, h=1e-6):
    steps = np.eye(x.size).reshape((-1,) + x.shape) * h
    return np.array([(f(x + e) - f(x - e)) / (2 * h) for e in steps]).reshape(x.shape)


def _polytope(n=12):
    normals = RNG.normal(size=(n, 3))
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    return np.c_[normals, -RNG.uniform(1.0, 2.0, n)]


def test_halfspace_intersection_is_scipys_and_its_vertices_differentiate():
    hs, inside = _polytope(), np.array([0.1, -0.1, 0.05])
    ours, theirs = fsp.HalfspaceIntersection(hs, inside), scipy_spatial.HalfspaceIntersection(hs, inside)
    for name in ("intersections", "dual_points", "dual_equations", "dual_volume", "dual_area"):
        np.testing.assert_allclose(getattr(ours, name), getattr(theirs, name), rtol=0, atol=1e-13)
    assert ours.dual_facets == theirs.dual_facets and ours.ndim == 3 and ours.nineq == 12
    f = lambda h: fnp.sum(fsp.HalfspaceIntersection(h, inside).intersections ** 2)
    g = fg.grad(f)(hs)
    np.testing.assert_allclose(g, _fd(lambda h: np.sum(scipy_spatial.HalfspaceIntersection(
        h, inside).intersections ** 2), hs), atol=1e-6)
    # (the interior point only locates the dual: the vertices do not move with it)
    np.testing.assert_array_equal(fg.grad(lambda p: fnp.sum(
        fsp.HalfspaceIntersection(hs, p).intersections))(inside), np.zeros(3))
    g = fg.grad(lambda h: fsp.HalfspaceIntersection(h, inside).dual_volume)(hs)
    np.testing.assert_allclose(g, _fd(lambda h: scipy_spatial.HalfspaceIntersection(
        h, inside).dual_volume, hs), atol=1e-6)
    with pytest.raises(RuntimeError, match="incremental"):
        ours.add_halfspaces(hs[:1])


@pytest.mark.parametrize("dim", [2, 3])
def test_spherical_voronoi_is_scipys_and_differentiates(dim):
    p = RNG.normal(size=(20, dim))
    p /= np.linalg.norm(p, axis=1, keepdims=True)
    center = np.arange(1.0, dim + 1.0)
    ours = fsp.SphericalVoronoi(2.0 * p + center, 2.0, center)
    theirs = scipy_spatial.SphericalVoronoi(2.0 * p + center, 2.0, center)
    np.testing.assert_allclose(ours.vertices, theirs.vertices, rtol=0, atol=1e-13)
    assert ours.regions == theirs.regions
    np.testing.assert_allclose(ours.calculate_areas(), theirs.calculate_areas(), atol=1e-12)
    if dim == 3:
        ours.sort_vertices_of_regions()
        theirs.sort_vertices_of_regions()
        assert ours.regions == theirs.regions
    weights = np.arange(20.0)

    def theirs_f(x):
        x = x / np.linalg.norm(x, axis=1, keepdims=True)
        sv = scipy_spatial.SphericalVoronoi(x)
        return float(np.sum(sv.calculate_areas() * weights) + np.sum(sv.vertices[:, 0]))

    def ours_f(x):
        sv = fsp.SphericalVoronoi(x / fnp.linalg.norm(x, axis=1, keepdims=True))
        return fnp.sum(sv.calculate_areas() * weights) + fnp.sum(sv.vertices[:, 0])
    np.testing.assert_allclose(fg.grad(ours_f)(p), _fd(theirs_f, p), atol=1e-6)
    with pytest.raises(ValueError, match="Radius inconsistent"):
        fsp.SphericalVoronoi(p, 2.0)


def test_plots_and_scipys_classes():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    pts = np.array([[0.0, 0], [2, 0], [0, 2], [2, 2], [1, 1]])
    for plot, diagram in ((fsp.convex_hull_plot_2d, fsp.ConvexHull(pts)),
                          (fsp.delaunay_plot_2d, fsp.Delaunay(pts)),
                          (fsp.voronoi_plot_2d, fsp.Voronoi(pts))):
        fig = plot(diagram)
        assert len(fig.axes[0].lines) + len(fig.axes[0].collections) > 0
    assert fsp.QhullError is scipy_spatial.QhullError and fsp.Rectangle is scipy_spatial.Rectangle
    with pytest.raises(fsp.QhullError):
        fsp.ConvexHull(np.zeros((4, 2)))


@pytest.mark.parametrize("furthest", [False, True])
def test_voronoi_vertices_are_scipys_and_differentiate_as_circumcenters(furthest):
    """Voronoi's vertices (values only before): SciPy's values, the gradient central
    differences of SciPy's; cospherical points (a grid) raise when differentiated."""
    p = RNG.normal(size=(20, 2))
    ours = lambda q: fnp.sum(fsp.Voronoi(q, furthest_site=furthest).vertices ** 2)
    theirs = lambda q: float(np.sum(scipy_spatial.Voronoi(q, furthest_site=furthest).vertices ** 2))
    g = fg.grad(ours)(p)  # (far vertices of thin triangles: differences to the largest)
    np.testing.assert_allclose(g, _fd(theirs, p, 1e-7), rtol=0, atol=1e-7 * np.abs(g).max())
    value = fg.jvp(lambda q: fsp.Voronoi(q).vertices, (p,), (np.ones_like(p),))[0]
    np.testing.assert_array_equal(value, scipy_spatial.Voronoi(p).vertices)
    grid = np.stack(np.meshgrid(np.arange(3.0), np.arange(3.0)), -1).reshape(-1, 2)
    np.testing.assert_array_equal(fsp.Voronoi(grid).vertices, scipy_spatial.Voronoi(grid).vertices)
    with pytest.raises(ValueError, match="several Delaunay simplices"):
        fg.grad(lambda q: fnp.sum(fsp.Voronoi(q).vertices))(grid)
