"""The methods and attributes of funcgrad.scipy's classes that SciPy's have: values are
SciPy's, derivatives match central differences of SciPy's own results, and where there
is no derivative it raises."""

import numpy as np
import pytest
import scipy.integrate as sint
import scipy.interpolate as si
import scipy.spatial as ss
import scipy.stats as st

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.integrate as fint
import funcgrad.scipy.interpolate as fi
import funcgrad.scipy.spatial as fs
import funcgrad.scipy.stats as ft
from funcgrad.errors import ConcretizationError


def central(f, x, eps=1e-6):
    """The Jacobian of SciPy's ``f`` at ``x`` by central differences: ``out.shape +
    x.shape``."""
    x = np.asarray(x, dtype=float)
    columns = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e.flat[i] = eps
        columns.append((np.asarray(f(x + e)) - np.asarray(f(x - e))) / (2 * eps))
    out = np.stack(columns, axis=-1)
    return out.reshape(np.shape(f(x)) + x.shape)


X = np.linspace(0.0, 3.0, 7)
Y = np.sin(2 * X) + 0.1


# --- PPoly and its subclasses: roots and solve ---------------------------------------

def test_roots_are_scipys_and_differentiate_in_the_data_and_the_breakpoints():
    np.testing.assert_allclose(fi.CubicSpline(X, Y).roots(), si.CubicSpline(X, Y).roots(),
                               rtol=1e-13)
    jac_y = fg.jacobian(lambda y: fi.CubicSpline(X, y).roots())(Y)
    np.testing.assert_allclose(jac_y, central(lambda y: si.CubicSpline(X, y).roots(), Y),
                               atol=1e-7)
    jac_x = fg.jacfwd(lambda x: fi.CubicSpline(x, Y).roots())(X)
    np.testing.assert_allclose(jac_x, central(lambda x: si.CubicSpline(x, Y).roots(), X),
                               atol=1e-7)


def test_solve_differentiates_in_y_and_to_second_order():
    value = fg.grad(lambda v: fi.CubicSpline(X, Y).solve(v)[1])(0.3)
    np.testing.assert_allclose(value, central(lambda v: si.CubicSpline(X, Y).solve(v)[1],
                                              0.3), rtol=1e-7)
    hess = fg.hessian(lambda y: fi.CubicSpline(X, y).roots()[1])(Y)

    def scipy_grad(y):
        return central(lambda z: si.CubicSpline(X, z).roots()[1], y, 1e-4)
    np.testing.assert_allclose(hess, central(scipy_grad, Y, 1e-4), atol=1e-5)


def test_roots_of_a_ppoly_with_trailing_axes_are_an_object_array_as_scipys():
    c = np.random.default_rng(0).standard_normal((4, 3, 2))
    ours, theirs = fi.PPoly(c, np.arange(4.0)).roots(), si.PPoly(c, np.arange(4.0)).roots()
    assert ours.dtype == object and ours.shape == theirs.shape == (2,)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b, rtol=1e-13)
    jac = fg.jacobian(lambda cc: fi.PPoly(cc, np.arange(4.0)).roots()[1])(c)
    np.testing.assert_allclose(
        jac, central(lambda cc: si.PPoly(cc, np.arange(4.0)).roots()[1], c), atol=1e-7)


def test_a_root_where_the_polynomial_jumps_moves_with_its_breakpoint():
    c, x = np.array([[1.0, -1.0]]), np.array([0.0, 1.0, 2.0])
    np.testing.assert_array_equal(fi.PPoly(c, x).roots(), si.PPoly(c, x).roots())
    jac = fg.jacobian(lambda b: fi.PPoly(c, b).roots())(x)
    np.testing.assert_allclose(jac, central(lambda b: si.PPoly(c, b).roots(), x))
    assert fi.PPoly(c, x).roots(discontinuity=False).shape == (0,)


def test_a_double_root_or_a_zero_piece_raises_when_differentiated():
    double = np.array([[1.0], [-2.0], [1.0]])  # (t - 1)**2
    x = np.array([0.0, 3.0])
    np.testing.assert_array_equal(fi.PPoly(double, x).roots(), si.PPoly(double, x).roots())
    with pytest.raises(ValueError, match="not simple"):
        fg.grad(lambda c: fi.PPoly(c, x).roots()[0])(double)
    zero = np.array([[0.0, 1.0], [0.0, -1.0]])
    x2 = np.array([0.0, 1.0, 2.0])
    np.testing.assert_array_equal(fi.PPoly(zero, x2).roots(), si.PPoly(zero, x2).roots())
    with pytest.raises(ValueError, match="not simple"):
        fg.grad(lambda b: fi.PPoly(zero, b).roots()[2])(x2)


def test_roots_under_jit_say_the_values_are_needed_and_complex_is_refused():
    c = np.array([[1.0], [0.0], [-1.0]])
    with pytest.raises(ConcretizationError, match="outside jit"):
        fg.jit(lambda cc: fi.PPoly(cc, np.array([0.0, 2.0])).roots())(c)
    with pytest.raises(ValueError, match="real-valued"):
        fi.PPoly(c + 0j, np.array([0.0, 2.0])).roots()


# --- PPoly: construction and extension -----------------------------------------------

def test_from_spline_is_scipys_and_differentiates_in_the_coefficients():
    t, c, k = si.splrep(X, Y)
    np.testing.assert_allclose(fi.PPoly.from_spline((t, c, k)).c,
                               si.PPoly.from_spline((t, c, k)).c, atol=1e-12)
    b = fi.make_interp_spline(X, Y)
    assert np.allclose(fi.PPoly.from_spline(b).c, si.PPoly.from_spline(
        si.make_interp_spline(X, Y)).c, atol=1e-12)
    assert type(fi.CubicSpline.from_spline(b)) is fi.CubicSpline
    n = len(t) - k - 1
    jac = fg.jacobian(lambda cc: fi.PPoly.from_spline((t, cc, k)).c)(c[:n])
    np.testing.assert_allclose(
        jac, central(lambda cc: si.PPoly.from_spline((t, np.r_[cc, c[n:]], k)).c, c[:n]),
        atol=1e-7)
    with pytest.raises(NotImplementedError):
        fi.Akima1DInterpolator.from_spline((t, c, k))


def test_from_bernstein_basis_is_scipys_and_differentiates():
    c = np.random.default_rng(1).standard_normal((4, 3))
    x = np.array([0.0, 0.5, 2.0, 3.0])
    np.testing.assert_allclose(fi.PPoly.from_bernstein_basis(fi.BPoly(c, x)).c,
                               si.PPoly.from_bernstein_basis(si.BPoly(c, x)).c, rtol=1e-12)
    jac = fg.jacobian(lambda b: fi.PPoly.from_bernstein_basis(fi.BPoly(c, b)).c)(x)
    np.testing.assert_allclose(
        jac, central(lambda b: si.PPoly.from_bernstein_basis(si.BPoly(c, b)).c, x),
        atol=1e-6)
    with pytest.raises(TypeError, match="BPoly"):
        fi.PPoly.from_bernstein_basis(fi.PPoly(c, x))


@pytest.mark.parametrize("cls_name", ["PPoly", "BPoly"])
def test_extend_right_and_left_is_scipys_and_differentiable(cls_name):
    ours_cls, theirs_cls = getattr(fi, cls_name), getattr(si, cls_name)
    c = np.array([[1.0, 2.0], [0.5, -1.0]])
    x = np.array([0.0, 1.0, 2.0])
    more = np.array([[1.0], [2.0], [-1.0]])
    # (prepending a piece of another degree trips over SciPy's own slicing: same degree)
    for added, new_x in ((more, np.array([3.0])), (more[1:], np.array([-1.0]))):
        ours, theirs = ours_cls(c, x), theirs_cls(c, x)
        ours.extend(added, new_x)
        theirs.extend(added, new_x)
        np.testing.assert_allclose(ours.c, theirs.c, rtol=1e-14)
        np.testing.assert_allclose(ours.x, theirs.x)
        q = np.linspace(-1, 3, 9)
        np.testing.assert_allclose(ours(q), theirs(q), rtol=1e-13)

    def ours_value(m):
        p = ours_cls(c, x)
        p.extend(m, np.array([3.0]))
        return p(np.array([2.5]))

    def theirs_value(m):
        p = theirs_cls(c, x)
        p.extend(m, np.array([3.0]))
        return p(np.array([2.5]))
    np.testing.assert_allclose(fg.jacobian(ours_value)(more), central(theirs_value, more),
                               atol=1e-8)
    with pytest.raises(ValueError, match="neither on the left or on the right"):
        ours_cls(c, x).extend(more, np.array([1.5]))


def test_akima_cannot_extend_as_in_scipy_and_attributes_are_there():
    a = fi.Akima1DInterpolator(X, Y)
    with pytest.raises(NotImplementedError):
        a.extend(np.ones((4, 1)), np.array([5.0]))
    s = fi.CubicSpline(X, Y, axis=0)
    assert s.axis == 0 and s.extrapolate is True
    s.extrapolate = False
    assert np.isnan(s(4.0))
    with pytest.raises(ValueError):
        s.extrapolate = "sideways"
    p = fi.PPoly.construct_fast(np.array([[2.0], [1.0]]), np.array([0.0, 1.0]))
    assert type(p) is fi.PPoly and p.extrapolate is True
    for name in ("PPoly", "CubicSpline", "PchipInterpolator", "Akima1DInterpolator",
                 "CubicHermiteSpline", "BPoly"):
        missing = ({n for n in dir(getattr(si, name)) if n[0] != "_"}
                   - {n for n in dir(getattr(fi, name)) if n[0] != "_"})
        assert not missing, (name, missing)


# --- BSpline ------------------------------------------------------------------------

def test_bspline_knots_and_coefficients_are_properties_and_tck_is_scipys():
    t, c, k = si.splrep(X, Y)
    ours = fi.BSpline(t, c, k)
    np.testing.assert_array_equal(ours.tck[0], t)
    assert ours.tck[2] == k
    np.testing.assert_array_equal(ours.tck[1], c[:len(t) - k - 1])
    fast = fi.BSpline.construct_fast(t, c, k)
    np.testing.assert_allclose(fast(X), si.BSpline.construct_fast(t, c, k)(X), rtol=1e-13)


def test_basis_element_is_scipys_and_differentiates_in_the_knots():
    knots = np.array([0.0, 1.0, 1.5, 3.0])
    q = np.linspace(-0.5, 3.5, 9)
    np.testing.assert_allclose(fi.BSpline.basis_element(knots)(q),
                               si.BSpline.basis_element(knots)(q), atol=1e-15)
    np.testing.assert_allclose(fi.BSpline.basis_element(knots, False)(q),
                               si.BSpline.basis_element(knots, False)(q), atol=1e-15)
    q = np.array([0.5, 1.2, 2.0])
    jac = fg.jacobian(lambda kn: fi.BSpline.basis_element(kn)(q))(knots)
    np.testing.assert_allclose(jac, central(lambda kn: si.BSpline.basis_element(kn)(q), knots),
                               atol=1e-7)


@pytest.mark.parametrize("extrapolate", [False, True, "periodic"])
def test_design_matrix_is_scipys_sparse_pattern_and_differentiates(extrapolate):
    t = np.array([0.0, 0.0, 0.0, 0.0, 1.0, 2.5, 3.0, 3.0, 3.0, 3.0])
    x = np.array([0.0, 0.3, 1.0, 2.9, 3.0]) if extrapolate is False else \
        np.array([-0.5, 0.3, 1.0, 2.9, 3.4])
    ours = fi.BSpline.design_matrix(x, t, 3, extrapolate)
    theirs = si.BSpline.design_matrix(x, t, 3, extrapolate)
    np.testing.assert_allclose(ours.toarray(), theirs.toarray(), atol=1e-14)
    np.testing.assert_array_equal(ours.indices, theirs.indices)
    np.testing.assert_array_equal(ours.indptr, theirs.indptr)
    assert ours.shape == theirs.shape
    if extrapolate is not False:
        return
    inner = np.array([0.3, 1.2, 2.0])
    jac = fg.jacobian(lambda xx: fi.BSpline.design_matrix(xx, t, 3).toarray())(inner)
    np.testing.assert_allclose(
        jac, central(lambda xx: si.BSpline.design_matrix(xx, t, 3).toarray(), inner),
        atol=1e-7)
    with pytest.raises(ValueError, match="out of bounds"):
        fi.BSpline.design_matrix(np.array([3.5]), t, 3)


@pytest.mark.parametrize("periodic", [False, True])
def test_insert_knot_is_scipys_and_differentiates_in_c_t_and_x(periodic):
    if periodic:
        spline = si.make_interp_spline(X, np.r_[Y[:-1], Y[0]], bc_type="periodic")
    else:
        spline = si.make_interp_spline(X, Y)
    t, c, k = spline.t, spline.c, spline.k
    extrapolate = "periodic" if periodic else True
    for where, m in ((1.2, 1), (0.5, 2), (float(X[3]), 1)):
        ours = fi.BSpline(t, c, k, extrapolate).insert_knot(where, m)
        theirs = si.BSpline(t, c, k, extrapolate).insert_knot(where, m)
        np.testing.assert_allclose(ours.t, theirs.t)
        np.testing.assert_allclose(ours.c, theirs.c, rtol=1e-12, atol=1e-14)
    jac = fg.jacobian(lambda cc: fi.BSpline(t, cc, k, extrapolate).insert_knot(1.2).c)(c)
    np.testing.assert_allclose(
        jac, central(lambda cc: si.BSpline(t, cc, k, extrapolate).insert_knot(1.2).c, c),
        atol=1e-8)
    grad_x = fg.jacobian(lambda w: fi.BSpline(t, c, k, extrapolate).insert_knot(w).c)(1.2)
    np.testing.assert_allclose(
        grad_x, central(lambda w: si.BSpline(t, c, k, extrapolate).insert_knot(w).c, 1.2),
        atol=1e-7)
    with pytest.raises(ValueError, match="Cannot insert"):
        fi.BSpline(t, c, k).insert_knot(9.0)


@pytest.mark.parametrize("bc_type", ["not-a-knot", "natural", "clamped", "periodic"])
def test_from_power_basis_is_scipys_and_differentiates(bc_type):
    y = np.r_[Y[:-1], Y[0]] if bc_type == "periodic" else Y
    spline_bc = "not-a-knot" if bc_type == "not-a-knot" else bc_type
    ours = fi.BSpline.from_power_basis(fi.CubicSpline(X, y, bc_type=spline_bc), bc_type)
    theirs = si.BSpline.from_power_basis(si.CubicSpline(X, y, bc_type=spline_bc), bc_type)
    np.testing.assert_allclose(ours.t, theirs.t, atol=1e-14)
    np.testing.assert_allclose(ours.c, theirs.c, atol=1e-12)
    jac = fg.jacobian(lambda x: fi.BSpline.from_power_basis(
        fi.CubicSpline(x, y, bc_type=spline_bc), bc_type).c)(X)
    np.testing.assert_allclose(jac, central(lambda x: si.BSpline.from_power_basis(
        si.CubicSpline(x, y, bc_type=spline_bc), bc_type).c, X), atol=1e-6)
    with pytest.raises(NotImplementedError, match="CubicSpline"):
        fi.BSpline.from_power_basis(fi.PchipInterpolator(X, Y))


def test_bspline_has_every_public_name_of_scipys():
    missing = ({n for n in dir(si.BSpline) if n[0] != "_"}
               - {n for n in dir(fi.BSpline) if n[0] != "_"})
    assert not missing


# --- integrate: the Runge-Kutta tableaux --------------------------------------------

@pytest.mark.parametrize("name", ["RK23", "RK45", "DOP853"])
def test_runge_kutta_classes_carry_scipys_tableaux(name):
    ours, theirs = getattr(fint, name), getattr(sint, name)
    names = ["A", "B", "C", "E", "P", "order", "error_estimator_order", "n_stages",
             "E3", "E5", "A_EXTRA", "C_EXTRA", "D"]
    for attribute in names:
        if not hasattr(theirs, attribute):
            continue
        expected = getattr(theirs, attribute)
        if expected is NotImplemented:
            assert getattr(ours, attribute) is NotImplemented
        else:
            np.testing.assert_allclose(getattr(ours, attribute), expected, rtol=1e-15)
    assert not ({n for n in dir(theirs) if n[0] != "_"} - {n for n in dir(ours) if n[0] != "_"})


# --- the polynomial interpolators, interp1d, RegularGridInterpolator, UnivariateSpline --

def test_barycentric_derivatives_are_scipys_and_differentiate():
    xi = np.cos(np.linspace(0, np.pi, 6))
    yi = np.stack([np.exp(xi), np.sin(3 * xi)], axis=1)
    q = np.array([-0.3, 0.2, 0.9])
    ours = fi.BarycentricInterpolator(xi, yi)
    theirs = si.BarycentricInterpolator(xi, yi)
    np.testing.assert_allclose(ours.derivatives(q), theirs.derivatives(q), rtol=1e-9,
                               atol=1e-9)
    np.testing.assert_allclose(ours.derivatives(q, 3), theirs.derivatives(q, 3), rtol=1e-10)
    np.testing.assert_allclose(ours.derivative(q, 2), theirs.derivative(q, 2), rtol=1e-10)
    # (axis 1: the result's layout is SciPy's)
    np.testing.assert_allclose(fi.BarycentricInterpolator(xi, yi.T, axis=1).derivatives(q, 2),
                               si.BarycentricInterpolator(xi, yi.T, axis=1).derivatives(q, 2),
                               rtol=1e-10)
    jac = fg.jacobian(lambda y: fi.BarycentricInterpolator(xi, y).derivative(q))(yi[:, 0])
    np.testing.assert_allclose(
        jac, central(lambda y: si.BarycentricInterpolator(xi, y).derivative(q), yi[:, 0]),
        atol=1e-7)
    assert (ours.dtype, ours.n, ours.r) == (theirs.dtype, theirs.n, theirs.r)


def test_barycentric_add_xi_and_set_yi_are_scipys():
    xi, yi = np.array([0.0, 1.0, 3.0]), np.array([1.0, 2.0, 0.5])
    ours, theirs = fi.BarycentricInterpolator(xi, yi), si.BarycentricInterpolator(xi, yi)
    ours.add_xi(np.array([2.0, 4.0]), np.array([1.5, -1.0]))
    theirs.add_xi(np.array([2.0, 4.0]), np.array([1.5, -1.0]))
    q = np.linspace(-0.5, 4.5, 7)
    np.testing.assert_allclose(ours.wi, theirs.wi, rtol=1e-13)
    np.testing.assert_allclose(ours(q), theirs(q), rtol=1e-12)
    ours.set_yi(np.arange(5.0) ** 2)
    theirs.set_yi(np.arange(5.0) ** 2)
    np.testing.assert_allclose(ours(q), theirs(q), rtol=1e-12)

    def ours_value(v):
        p = fi.BarycentricInterpolator(xi, yi)
        p.add_xi(np.array([2.0]), v)
        return p(q)

    def theirs_value(v):
        p = si.BarycentricInterpolator(xi, yi)
        p.add_xi(np.array([2.0]), v)
        return p(q)
    np.testing.assert_allclose(fg.jacobian(ours_value)(np.array([1.5])),
                               central(theirs_value, np.array([1.5])), atol=1e-8)
    with pytest.raises(ValueError, match="No update to yi"):
        fi.BarycentricInterpolator(xi, yi).add_xi(np.array([5.0]))


def test_interp1d_fill_value_is_assignable_as_scipys():
    x, y = np.arange(4.0), np.array([0.0, 1.0, 4.0, 9.0])
    q = np.array([-1.0, 1.5, 5.0])
    ours, theirs = (m.interp1d(x, y, bounds_error=False) for m in (fi, si))
    for value in ((-1.0, 7.0), 2.5):
        ours.fill_value = value
        theirs.fill_value = value
        np.testing.assert_allclose(ours(q), theirs(q))
        assert ours.fill_value == theirs.fill_value
    # (SciPy's linear interp1d keeps np.interp's clamping when 'extrapolate' is assigned
    # after construction; ours extrapolates, as one built with fill_value='extrapolate')
    ours.fill_value = "extrapolate"
    np.testing.assert_allclose(ours(q), si.interp1d(x, y, fill_value="extrapolate")(q))
    with pytest.raises(ValueError, match="extrapolate and raise"):
        fi.interp1d(x, y).fill_value = "extrapolate"
    assert fi.interp1d(x, y).dtype == np.float64


def test_grid_values_and_validate_input_are_there():
    grid = (np.arange(3.0), np.arange(4.0))
    values = np.arange(12.0).reshape(3, 4)
    ours = fi.RegularGridInterpolator(grid, values)
    theirs = si.RegularGridInterpolator(grid, values)
    for a, b in zip(ours.grid, theirs.grid):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ours.values, theirs.values)
    x = np.array([0.0, 1.0, 2.0, 3.5])
    args = (x, np.ones(4), None, [None, None], 3, None, "const", True)
    for a, b in zip(fi.UnivariateSpline.validate_input(*args),
                    si.UnivariateSpline.validate_input(*args)):
        np.testing.assert_array_equal(a, b)
    bad = (x[::-1], np.ones(4), None, [None, None], 3, 0.0, 0, True)
    with pytest.raises(ValueError, match="strictly increasing"):
        fi.InterpolatedUnivariateSpline.validate_input(*bad)


@pytest.mark.parametrize("name", [
    "PPoly", "CubicSpline", "PchipInterpolator", "Akima1DInterpolator",
    "CubicHermiteSpline", "BPoly", "BSpline", "BarycentricInterpolator",
    "KroghInterpolator", "interp1d", "RegularGridInterpolator", "UnivariateSpline",
    "InterpolatedUnivariateSpline", "LSQUnivariateSpline"])
def test_interpolate_classes_have_every_public_name_of_scipys(name):
    missing = ({n for n in dir(getattr(si, name)) if n[0] != "_"}
               - {n for n in dir(getattr(fi, name)) if n[0] != "_"})
    assert not missing


# --- spatial -------------------------------------------------------------------------

POINTS = np.random.default_rng(3).random((12, 2))


def test_kdtree_attributes_are_scipys_and_the_bounds_differentiate():
    ours, theirs = fs.KDTree(POINTS, leafsize=3), ss.KDTree(POINTS, leafsize=3)
    for name in ("n", "m", "leafsize", "size", "maxes", "mins", "indices"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
    assert isinstance(ours.tree, ours.innernode) and ours.tree.children == theirs.tree.children
    assert ours.leafnode is ss.KDTree.leafnode and ours.boxsize is None
    jac = fg.jacobian(lambda p: fs.KDTree(p).maxes)(POINTS)
    np.testing.assert_allclose(jac, central(lambda p: ss.KDTree(p).maxes, POINTS), atol=1e-8)
    box = fs.cKDTree(POINTS, boxsize=2.0)
    np.testing.assert_array_equal(box.boxsize, [2.0, 2.0])
    for cls in ("KDTree", "cKDTree"):
        missing = ({n for n in dir(getattr(ss, cls)) if n[0] != "_"}
                   - {n for n in dir(getattr(fs, cls)) if n[0] != "_"})
        assert not missing


def test_delaunay_lift_points_and_plane_distance_are_scipys_and_differentiate_in_x():
    ours, theirs = fs.Delaunay(POINTS), ss.Delaunay(POINTS)
    x = np.array([[0.3, 0.4], [0.7, 0.2]])
    np.testing.assert_allclose(ours.lift_points(x), theirs.lift_points(x), rtol=1e-14)
    np.testing.assert_allclose(ours.plane_distance(x), theirs.plane_distance(x), rtol=1e-12,
                               atol=1e-15)
    np.testing.assert_allclose(fg.jacobian(ours.plane_distance)(x[0]),
                               central(theirs.plane_distance, x[0]), atol=1e-8)
    for name in ("convex_hull", "vertex_to_simplex", "paraboloid_scale", "paraboloid_shift"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
    for a, b in zip(ours.vertex_neighbor_vertices, theirs.vertex_neighbor_vertices):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match="stop_gradient"):
        fg.grad(lambda p: fs.Delaunay(p).plane_distance(x[0])[0])(POINTS)


def test_qhull_points_vertices_ridge_dict_halfspaces_are_there():
    hull = fs.ConvexHull(POINTS)
    np.testing.assert_array_equal(hull.vertices, ss.ConvexHull(POINTS).vertices)
    assert fg.grad(lambda p: fnp.sum(fs.ConvexHull(p).points))(POINTS).shape == POINTS.shape
    assert fs.Voronoi(POINTS).ridge_dict == ss.Voronoi(POINTS).ridge_dict
    hs = np.array([[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [1.0, 1.0, -2.0]])
    ours = fs.HalfspaceIntersection(hs, np.array([0.5, 0.5]))
    theirs = ss.HalfspaceIntersection(hs, np.array([0.5, 0.5]))
    np.testing.assert_array_equal(ours.dual_vertices, theirs.dual_vertices)
    np.testing.assert_array_equal(ours.halfspaces, theirs.halfspaces)
    for cls in ("Delaunay", "ConvexHull", "Voronoi", "HalfspaceIntersection"):
        missing = ({n for n in dir(getattr(ss, cls)) if n[0] != "_"}
                   - {n for n in dir(getattr(fs, cls)) if n[0] != "_"})
        assert not missing


# --- stats: gaussian_kde and the new distribution objects ----------------------------

KDE_DATA = np.array([[0.0, 1.0, 3.0, 2.0, 0.5], [1.0, 0.0, 2.0, 5.0, 1.5]])


def test_kde_marginal_neff_inv_cov_and_integrate_box_are_scipys():
    weights = np.array([1.0, 2.0, 1.0, 3.0, 1.0])
    ours = ft.gaussian_kde(KDE_DATA, weights=weights)
    theirs = st.gaussian_kde(KDE_DATA, weights=weights)
    np.testing.assert_allclose(ours.neff, theirs.neff, rtol=1e-14)
    np.testing.assert_allclose(ours.inv_cov, theirs.inv_cov, rtol=1e-12)
    np.testing.assert_allclose(ours.covariance_factor(), theirs.covariance_factor(),
                               rtol=1e-14)
    q = np.array([0.3, 1.7, 4.0])
    np.testing.assert_allclose(ours.marginal(-1)(q), theirs.marginal(-1)(q), rtol=1e-12)
    one = ft.gaussian_kde(KDE_DATA[0], weights=weights)
    np.testing.assert_allclose(one.integrate_box(0.5, 2.0),
                               st.gaussian_kde(KDE_DATA[0], weights=weights).integrate_box(
                                   0.5, 2.0), rtol=1e-6)
    grad = fg.grad(lambda d: ft.gaussian_kde(d, weights=weights).integrate_box(0.5, 2.0))(
        KDE_DATA[0])
    np.testing.assert_allclose(grad, central(lambda d: st.gaussian_kde(
        d, weights=weights).integrate_box_1d(0.5, 2.0), KDE_DATA[0]), atol=1e-8)
    box = ours.integrate_box(np.array([0.0, 0.0]), np.array([2.0, 3.0]), 2000,
                             rng=np.random.default_rng(0))
    np.testing.assert_allclose(box, theirs.integrate_box(
        np.array([0.0, 0.0]), np.array([2.0, 3.0]), 2000, rng=np.random.default_rng(0)),
        rtol=1e-12)
    with pytest.raises(NotImplementedError, match="randomized"):
        fg.grad(lambda d: ft.gaussian_kde(d).integrate_box(np.zeros(2), np.ones(2)))(KDE_DATA)
    with pytest.raises(ValueError, match="unique"):
        ours.marginal([0, -2])
    missing = ({n for n in dir(st.gaussian_kde) if n[0] != "_"}
               - {n for n in dir(ft.gaussian_kde) if n[0] != "_"})
    assert not missing


def test_distribution_parameters_policies_and_pmf_are_scipys():
    pairs = [(ft.Normal(mu=1.0, sigma=2.0), st.Normal(mu=1.0, sigma=2.0), ("mu", "sigma")),
             (ft.Uniform(a=0.0, b=2.0), st.Uniform(a=0.0, b=2.0), ("a", "b", "ab")),
             (ft.Binomial(n=5, p=0.3), st.Binomial(n=5, p=0.3), ("n", "p")),
             (ft.Logistic(), st.Logistic(), ())]
    x = np.array([-1.0, 0.0, 1.0, 2.5])
    for ours, theirs, names in pairs:
        for name in names:
            assert getattr(ours, name) == getattr(theirs, name)
        np.testing.assert_allclose(ours.pmf(x), theirs.pmf(x), rtol=1e-14)
        np.testing.assert_allclose(ours.logpmf(x), theirs.logpmf(x), rtol=1e-14)
        ours.reset_cache()
        ours.tol = 1e-3
        assert ours.tol == 1e-3 and ours.cache_policy is None
        ours.cache_policy, ours.validation_policy = "no_cache", "skip_all"
        with pytest.raises(ValueError, match="positive float"):
            ours.tol = -1.0
        with pytest.raises(ValueError, match="cache_policy"):
            ours.cache_policy = "always"
    mix = [ft.Normal(), ft.Uniform(a=0.0, b=1.0)]
    theirs_mix = [st.Normal(), st.Uniform(a=0.0, b=1.0)]
    np.testing.assert_array_equal(ft.Mixture(mix).pmf(x), st.Mixture(theirs_mix).pmf(x))
    np.testing.assert_array_equal(ft.Mixture(mix).logpmf(x), st.Mixture(theirs_mix).logpmf(x))
    assert fg.grad(lambda s: ft.Normal(mu=0.0, sigma=s).sigma * 2.0)(3.0) == 2.0
    for name in ("Normal", "Uniform", "Binomial", "Logistic", "Mixture"):
        missing = ({n for n in dir(getattr(st, name)) if n[0] != "_"}
                   - {n for n in dir(getattr(ft, name)) if n[0] != "_"})
        assert not missing


# --- sparse.linalg.SuperLU -----------------------------------------------------------

def test_superlu_attributes_are_scipys_and_a_traced_factor_is_refused():
    import scipy.linalg as sla
    import scipy.sparse as sp
    import scipy.sparse.linalg as spl

    import funcgrad.scipy.sparse as fsp
    import funcgrad.scipy.sparse.linalg as fspl
    a = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
    ours, theirs = fspl.splu(fsp.csc_array(a)), spl.splu(sp.csc_array(a))
    for name in ("perm_r", "perm_c", "nnz", "shape"):
        np.testing.assert_array_equal(getattr(ours, name), getattr(theirs, name))
    np.testing.assert_allclose(ours.U.toarray(), theirs.U.toarray(), rtol=1e-14)
    with pytest.raises(NotImplementedError, match="stop_gradient"):
        fg.grad(lambda d: fspl.splu(fsp.csc_array(d)).L.toarray().sum())(a)
    # (the dense factorization's U differentiates: against SciPy's own LU)
    jac = fg.jacobian(lambda m: fspl.splu(m).U)(a)
    np.testing.assert_allclose(jac, central(lambda m: sla.lu(m)[2], a), atol=1e-8)
    assert not ({n for n in dir(spl.SuperLU) if n[0] != "_"}
                - {n for n in dir(fspl.SuperLU) if n[0] != "_"})
