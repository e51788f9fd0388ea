"""``funcgrad.scipy.interpolate``'s breadth: FITPACK's ``splder``, ``splantider``,
``insert``, ``spalde``, ``sproot``; the polynomial interpolators
(``BarycentricInterpolator``, ``KroghInterpolator``, ``lagrange``, ``pade``,
``approximate_taylor_polynomial``).  Values against SciPy's; derivatives against central
differences of SciPy's own results; one ``vmap``/``jit`` and float32 check per family;
the errors."""

import numpy as np
import pytest
import scipy.interpolate as si

import funcgrad as fg
import funcgrad.scipy.interpolate as fi
from helpers import assert_close, check_float32, check_vmap

RNG = np.random.default_rng(20261205)
X = np.linspace(0.0, 10.0, 12)
TCK = si.splrep(X, np.sin(X))
T, C, K = TCK
COUNT = len(T) - K - 1


def jvp_matches_scipy(f, reference, args, rtol=1e-6, eps=1e-6, value_rtol=1e-11):
    """``fg.jvp(f)`` along a random direction equals central differences of
    ``reference`` (SciPy's own computation), and ``f``'s value equals ``reference``'s."""
    args = [np.asarray(a, np.float64) for a in args]
    vs = [RNG.normal(size=a.shape) for a in args]
    value, tangent = fg.jvp(f, tuple(args), tuple(vs))
    assert_close(value, reference(*args), value_rtol, what="value")
    fd = (np.asarray(reference(*[a + eps * v for a, v in zip(args, vs)]))
          - np.asarray(reference(*[a - eps * v for a, v in zip(args, vs)]))) / (2 * eps)
    assert_close(tangent, fd, rtol, what="jvp vs central differences of SciPy's")


# --- FITPACK's operations on (t, c, k) ------------------------------------------------------

def _used(tck):
    """The knots, the coefficients that matter (FITPACK's padding is not specified for
    insert: SciPy leaves it uninitialised) and the degree."""
    t, c, k = tck
    return np.asarray(t), np.asarray(c)[:len(t) - k - 1], k


FITPACK_OPS = {
    "splder1": (lambda tck: fi.splder(tck), lambda tck: si.splder(tck)),
    "splder2": (lambda tck: fi.splder(tck, 2), lambda tck: si.splder(tck, 2)),
    "splder-1": (lambda tck: fi.splder(tck, -1), lambda tck: si.splder(tck, -1)),
    "splantider2": (lambda tck: fi.splantider(tck, 2), lambda tck: si.splantider(tck, 2)),
    "insert": (lambda tck: fi.insert(3.3, tck), lambda tck: si.insert(3.3, tck)),
    "insert-m2": (lambda tck: fi.insert(3.3, tck, m=2), lambda tck: si.insert(3.3, tck, m=2)),
    "insert-at-knot": (lambda tck: fi.insert(X[4], tck), lambda tck: si.insert(X[4], tck)),
    "insert-right-end": (lambda tck: fi.insert(10.0, tck), lambda tck: si.insert(10.0, tck)),
}


@pytest.mark.parametrize("name", FITPACK_OPS)
def test_fitpack_operations_are_scipys(name):
    ours, scipys = FITPACK_OPS[name]
    got, want = ours(TCK), scipys(TCK)
    assert got[2] == want[2]
    assert_close(got[0], want[0], 1e-15, what=f"{name}: knots")
    if name.startswith("insert"):
        got, want = _used(got), _used(want)
    assert_close(got[1], want[1], 1e-13, what=f"{name}: coefficients")
    # (and the BSpline form gives a BSpline of the same spline)
    spline = ours(fi.BSpline(T, C[:COUNT], K))
    assert isinstance(spline, fi.BSpline)
    q = np.linspace(0.5, 9.5, 7)
    assert_close(spline(q), si.splev(q, want), 1e-12, what=f"{name}: as a BSpline")


def test_spalde_is_scipys():
    for x in (3.3, 0.0, 10.0, X[5]):
        assert_close(fi.spalde(x, TCK), si.spalde(x, TCK), 1e-13, what=f"spalde at {x}")
    got, want = fi.spalde([3.3, 7.1], TCK), si.spalde([3.3, 7.1], TCK)
    assert isinstance(got, list) and len(got) == 2
    assert_close(np.array(got), np.array(want), 1e-13)


def test_sproot_is_scipys():
    assert_close(fi.sproot(TCK), si.sproot(TCK), 1e-15)
    assert_close(fi.sproot(fi.BSpline(T, C[:COUNT], K)), si.sproot(TCK), 1e-15)
    positive = (T, C + 5.0, K)
    assert fi.sproot(positive).shape == (0,)


# each: (funcgrad's, SciPy's) as functions of the differentiated arrays, and those arrays
FITPACK_DERIVATIVES = {
    "splder": (lambda t, c: fi.splder((t, c, 3), 2)[1],
               lambda t, c: si.splder((t, c, 3), 2)[1], (T, C)),
    "splantider": (lambda t, c: fi.splantider((t, c, 3))[1],
                   lambda t, c: si.splantider((t, c, 3))[1], (T, C)),
    "insert": (lambda x, c: fi.insert(x, (T, c, 3), m=2)[1][:COUNT + 2],
               lambda x, c: si.insert(float(x), (T, c, 3), m=2)[1][:COUNT + 2],
               (np.array(3.3), C)),
    "insert-knots": (lambda t: fi.insert(3.3, (t, C, 3))[1][:COUNT + 1],
                     lambda t: si.insert(3.3, (t, C, 3))[1][:COUNT + 1], (T,)),
    "spalde": (lambda x, c: fi.spalde(x, (T, c, 3)),
               lambda x, c: si.spalde(float(x), (T, c, 3)), (np.array(6.2), C)),
    # (FITPACK wants the end knots repeated: only the interior ones move)
    "sproot": (lambda inner, c: fi.sproot((fg.numpy.concatenate([T[:4], inner, T[-4:]]), c, 3)),
               lambda inner, c: si.sproot((np.r_[T[:4], inner, T[-4:]], c, 3)),
               (T[4:-4], C + 0.1)),  # (+0.1: no root at the end, where one could go)
}


@pytest.mark.parametrize("name", FITPACK_DERIVATIVES)
def test_fitpack_derivatives_match_scipy(name):
    ours, scipys, args = FITPACK_DERIVATIVES[name]
    jvp_matches_scipy(ours, scipys, args)


def test_sproot_second_derivative_by_the_implicit_function_theorem():
    # r(a) solves s(r; C + a V) = 0, so r'' = -(2 s_ar r' + s_rr r'^2) / s_r (s is
    # linear in a): the nested derivative of the implicit rule, against SciPy's roots
    direction = RNG.normal(size=C.shape)

    def root(a):
        return fi.sproot((T, C + 0.1 + a * direction, 3))[0]

    def scipys(a):
        return si.sproot((T, C + 0.1 + a * direction, 3))[0]

    eps = 1e-4
    second = fg.grad(fg.grad(root))(0.0)
    fd = (scipys(eps) - 2 * scipys(0.0) + scipys(-eps)) / eps ** 2
    assert_close(second, fd, 1e-5, scale=abs(fd))


def test_insert_runs_under_vmap():
    xs = np.array([1.3, 4.4, 9.9])
    check_vmap(lambda x, c: fi.insert(x, (T, c, 3))[1], (xs, np.tile(C, (3, 1))), (0, 0))


@pytest.mark.parametrize("call, error, words", [
    (lambda: fi.sproot(si.splrep(X, np.sin(X), k=2)), ValueError, "cubic"),
    (lambda: fi.insert(11.0, TCK), ValueError, "must lie in"),
    (lambda: fi.insert(3.0, TCK, per=1), NotImplementedError, "per=0"),
    (lambda: fi.spalde(-1.0, TCK), TypeError, "t(k)<=x"),
    (lambda: fi.spalde(1.0, fi.BSpline(T, C[:COUNT], K)), TypeError, "BSpline"),
    (lambda: fi.splder(TCK, 4), ValueError, "must be <= order"),
    (lambda: fi.splder((np.r_[0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2.0], np.ones(12), 3), 1),
     ValueError, "not differentiable"),
    (lambda: fg.jit(lambda c: fi.sproot((T, c, 3)))(C), Exception, "sproot"),
])
def test_fitpack_operation_errors(call, error, words):
    with pytest.raises(error, match=None) as info:
        call()
    assert words in str(info.value)


# --- polynomial interpolation ---------------------------------------------------------------

XI = np.sort(RNG.uniform(0.0, 3.0, 6))
YI = RNG.normal(size=(6, 2))
Q = np.array([0.1, XI[2], 1.7, 3.5])
HERMITE = np.array([0.0, 0.0, 1.0, 2.0, 2.0, 2.5])  # (value and slope at 0 and 2)
AN = RNG.normal(size=6)

POLYNOMIALS = {
    "barycentric": (lambda xi, yi, x: fi.BarycentricInterpolator(xi, yi)(x),
                    lambda xi, yi, x: si.BarycentricInterpolator(xi, yi)(x), (XI, YI, Q)),
    "barycentric-weights": (lambda w, x: fi.BarycentricInterpolator(XI, YI, wi=w)(x),
                            lambda w, x: si.BarycentricInterpolator(XI, YI, wi=w)(x),
                            (RNG.uniform(1.0, 2.0, 6), Q)),
    "barycentric-axis": (lambda yi, x: fi.barycentric_interpolate(XI, yi, x, axis=1),
                         lambda yi, x: si.barycentric_interpolate(XI, yi, x, axis=1),
                         (YI.T, Q)),
    "krogh": (lambda yi, x: fi.KroghInterpolator(HERMITE, yi)(x),
              lambda yi, x: si.KroghInterpolator(HERMITE, yi)(x), (YI[:, 0], Q)),
    "krogh-nodes": (lambda xi, x: fi.krogh_interpolate(xi, YI, x),
                    lambda xi, x: si.krogh_interpolate(xi, YI, x), (XI, Q)),
    "krogh-derivatives": (lambda xi, yi, x: fi.KroghInterpolator(xi, yi).derivatives(x, 4),
                          lambda xi, yi, x: si.KroghInterpolator(xi, yi).derivatives(x, 4),
                          (XI, YI, Q)),
    "krogh-der-list": (lambda yi, x: fi.krogh_interpolate(HERMITE, yi, x, der=[0, 2]),
                       lambda yi, x: si.krogh_interpolate(HERMITE, yi, x, der=[0, 2]),
                       (YI[:, 1], Q)),
    "lagrange": (lambda x, w: fi.lagrange(x, w).coeffs,
                 lambda x, w: si.lagrange(x, w).coeffs, (XI, YI[:, 0])),
    "pade": (lambda an: fi.pade(an, 2)[0].coeffs, lambda an: si.pade(an, 2)[0].coeffs, (AN,)),
    "pade-q": (lambda an: fi.pade(an, 2, 2)[1].coeffs,
               lambda an: si.pade(an, 2, 2)[1].coeffs, (AN,)),
    "taylor": (lambda x, s: fi.approximate_taylor_polynomial(np.sin, x, 3, s).coeffs,
               lambda x, s: si.approximate_taylor_polynomial(np.sin, x, 3, s).coeffs,
               (np.array(0.3), np.array(0.5))),
}


@pytest.mark.parametrize("name", POLYNOMIALS)
def test_polynomial_interpolation_matches_scipy(name):
    ours, scipys, args = POLYNOMIALS[name]
    jvp_matches_scipy(ours, scipys, args, rtol=1e-5, value_rtol=1e-11)


def test_barycentric_slope_at_a_node_is_the_polynomials():
    # (the barycentric quotient is 0/0 there: the product form takes over)
    p = si.BarycentricInterpolator(XI, YI[:, 0])
    eps = 1e-6
    slope = fg.grad(lambda x: fi.BarycentricInterpolator(XI, YI[:, 0])(x))(XI[2])
    assert_close(slope, (p(XI[2] + eps) - p(XI[2] - eps)) / (2 * eps), 1e-7)
    assert_close(fi.BarycentricInterpolator(XI, YI)(XI), YI, 1e-15)


def test_polynomial_interpolators_vmap_and_float32():
    check_vmap(lambda yi, x: fi.BarycentricInterpolator(XI, yi)(x),
               (RNG.normal(size=(3, 6)), RNG.uniform(0, 3, (3, 4))), (0, 0))
    check_vmap(lambda yi: fi.KroghInterpolator(HERMITE, yi).derivatives(Q),
               (RNG.normal(size=(3, 6)),), (0,))
    check_float32(lambda xi, yi, x: fi.BarycentricInterpolator(xi, yi)(x), (XI, YI, Q))
    check_float32(lambda yi, x: fi.KroghInterpolator(HERMITE.astype(np.float32), yi)(x), (YI, Q))


@pytest.mark.parametrize("call, error, words", [
    (lambda: fi.KroghInterpolator([0.0, 1.0, 0.0], [1.0, 2.0, 3.0]), ValueError,
     "consecutive"),
    (lambda: fi.BarycentricInterpolator([0.0, 1.0, 1.0], [1.0, 2.0, 3.0]), ValueError,
     "distinct"),
    (lambda: fi.BarycentricInterpolator([0.0, 1.0], [1.0, 2.0, 3.0]), ValueError,
     "same length"),
    (lambda: fi.barycentric_interpolate(XI, YI, Q, der=1), NotImplementedError, "fg.grad"),
    (lambda: fi.pade(AN, 6), ValueError, "smaller than len(an)-1"),
    (lambda: fi.pade(AN, 3, 3), ValueError, "smaller than len(an)"),
    (lambda: fi.lagrange(XI, YI), ValueError, "1-d"),
])
def test_polynomial_errors(call, error, words):
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)


# --- BPoly -----------------------------------------------------------------------------------

BREAKS = np.array([0.0, 1.0, 2.5, 3.0])
BC = RNG.normal(size=(4, 3, 2))
BQ = np.linspace(-0.45, 3.4, 9)  # (no query on a breakpoint, where differences jump)
HERMITE_DATA = RNG.normal(size=(4, 2))  # (value and slope at each breakpoint)

BPOLYS = {
    "call": (lambda c, x, q: fi.BPoly(c, x)(q), lambda c, x, q: si.BPoly(c, x)(q),
             (BC, BREAKS, BQ)),
    "call-nu2-axis": (lambda c, q: fi.BPoly(c, BREAKS, axis=1)(q, 2),
                      lambda c, q: si.BPoly(c, BREAKS, axis=1)(q, 2),
                      (BC.transpose(2, 0, 1), BQ)),
    "periodic": (lambda c: fi.BPoly(c, BREAKS, extrapolate="periodic")(BQ),
                 lambda c: si.BPoly(c, BREAKS, extrapolate="periodic")(BQ), (BC,)),
    "antiderivative": (lambda c, x: fi.BPoly(c, x).antiderivative(2).c,
                       lambda c, x: si.BPoly(c, x).antiderivative(2).c, (BC, BREAKS)),
    "integrate": (lambda c, x, a: fi.BPoly(c, x).integrate(a, 2.7),
                  lambda c, x, a: si.BPoly(c, x).integrate(a, 2.7),
                  (BC, BREAKS, np.array(-0.3))),
    "from_power_basis": (lambda c, x: fi.BPoly.from_power_basis(fi.PPoly(c, x)).c,
                         lambda c, x: si.BPoly.from_power_basis(si.PPoly(c, x)).c,
                         (BC, BREAKS)),
    "from_derivatives": (lambda x, y: fi.BPoly.from_derivatives(x, y)(BQ),
                         lambda x, y: si.BPoly.from_derivatives(x, y)(BQ),
                         (BREAKS, HERMITE_DATA)),
    "from_derivatives-orders": (lambda y: fi.BPoly.from_derivatives(BREAKS, y, orders=2)(BQ),
                                lambda y: si.BPoly.from_derivatives(BREAKS, y, orders=2)(BQ),
                                (HERMITE_DATA,)),
}


@pytest.mark.parametrize("name", BPOLYS)
def test_bpoly_matches_scipy(name):
    ours, scipys, args = BPOLYS[name]
    jvp_matches_scipy(ours, scipys, args, rtol=1e-6, value_rtol=1e-13)


def test_bpoly_ragged_derivative_data_and_float32_and_vmap():
    ragged = [[1.0, 2.0, 1.0], [0.5, 1.0], [3.0, -1.0, 2.0], [0.0]]
    assert_close(fi.BPoly.from_derivatives(BREAKS, ragged)(BQ),
                 si.BPoly.from_derivatives(BREAKS, ragged)(BQ), 1e-13)
    check_float32(lambda c, q: fi.BPoly(c, BREAKS.astype(np.float32))(q), (BC, BQ))
    check_vmap(lambda c: fi.BPoly(c, BREAKS)(BQ, 1), (RNG.normal(size=(3, 4, 3)),), (0,))


@pytest.mark.parametrize("call, error, words", [
    (lambda: fi.BPoly(BC, BREAKS[:3]), ValueError, "pieces"),
    (lambda: fi.BPoly(BC, BREAKS[::-1]), ValueError, "non-decreasing"),
    (lambda: fi.BPoly.from_derivatives(BREAKS, [[1.0, 2.0], [0.5], [3.0], [0.0]], orders=2),
     ValueError, "order 2 requested"),
    (lambda: fi.BPoly.from_derivatives(BREAKS, [1.0, 2.0, 3.0, 4.0]), ValueError, "reshape"),
    (lambda: fi.BPoly(BC, BREAKS, extrapolate="periodic").integrate(0.0, 5.0),
     NotImplementedError, "periodic"),
])
def test_bpoly_errors(call, error, words):
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)


# --- RBFInterpolator --------------------------------------------------------------------------

SITES = RNG.uniform(0.0, 1.0, (12, 2))
DATA = np.sin(3 * SITES[:, 0]) + SITES[:, 1] ** 2
QUERIES = np.vstack([RNG.uniform(0.0, 1.0, (4, 2)), SITES[:1]])  # (one on a site)
KERNELS = ["thin_plate_spline", "linear", "cubic", "quintic", "multiquadric",
           "inverse_multiquadric", "inverse_quadratic", "gaussian"]


@pytest.mark.parametrize("kernel", KERNELS)
def test_rbf_interpolator_matches_scipy(kernel):
    # values, sites, queries and epsilon together, against SciPy's own solve; the
    # queries keep off the sites here (the linear kernel is a cone there)
    smoothing = 0.01 if kernel == "gaussian" else 0.0  # (well conditioned differences)

    def ours(y, d, x, eps):
        return fi.RBFInterpolator(y, d, kernel=kernel, epsilon=eps, smoothing=smoothing)(x)

    def scipys(y, d, x, eps):
        return si.RBFInterpolator(y, d, kernel=kernel, epsilon=float(eps),
                                  smoothing=smoothing)(x)

    jvp_matches_scipy(ours, scipys, (SITES, DATA, QUERIES[:4], np.array(1.7)), rtol=1e-5,
                      value_rtol=1e-9)
    assert_close(ours(SITES, DATA, QUERIES, 1.7), scipys(SITES, DATA, QUERIES, 1.7), 1e-9)


def test_rbf_options_match_scipy():
    d2 = np.c_[DATA, 2 * DATA]
    weights = RNG.uniform(0.0, 0.1, 12)
    for options in [dict(degree=-1, kernel="gaussian", epsilon=2.0),
                    dict(degree=2), dict(smoothing=weights, kernel="cubic"),
                    dict(kernel="multiquadric", epsilon=0.5, degree=1)]:
        assert_close(fi.RBFInterpolator(SITES, d2, **options)(QUERIES),
                     si.RBFInterpolator(SITES, d2, **options)(QUERIES), 1e-9,
                     what=str(options))
    jvp_matches_scipy(lambda s: fi.RBFInterpolator(SITES, d2, smoothing=s)(QUERIES),
                      lambda s: si.RBFInterpolator(SITES, d2, smoothing=s)(QUERIES),
                      (weights,), rtol=1e-6, value_rtol=1e-9)
    # the gradient in the query at a data site (the kernels smooth there, by r**2)
    f = fi.RBFInterpolator(SITES, DATA, kernel="cubic")
    g = si.RBFInterpolator(SITES, DATA, kernel="cubic")
    eps, x = 1e-6, SITES[3]
    fd = [(g((x + eps * e)[None]) - g((x - eps * e)[None]))[0] / (2 * eps) for e in np.eye(2)]
    assert_close(fg.grad(lambda q: f(q[None])[0])(x), np.array(fd), 1e-6)


def test_rbf_vmap_and_float32():
    check_vmap(lambda d, x: fi.RBFInterpolator(SITES, d)(x),
               (RNG.normal(size=(3, 12)), RNG.uniform(0, 1, (3, 4, 2))), (0, 0), rtol=1e-9)
    check_float32(lambda y, d, x: fi.RBFInterpolator(y, d, kernel="gaussian", epsilon=2.0)(x),
                  (SITES, DATA, QUERIES), rtol=5e-3)


@pytest.mark.parametrize("call, error, words", [
    (lambda: fi.RBFInterpolator(SITES, DATA, kernel="gaussian"), ValueError, "epsilon"),
    (lambda: fi.RBFInterpolator(SITES, DATA, kernel="spam"), ValueError, "kernel"),
    (lambda: fi.RBFInterpolator(SITES[:2], DATA[:2], degree=1), ValueError, "At least 3"),
    (lambda: fi.RBFInterpolator(SITES, DATA[:5]), ValueError, "length 12"),
    (lambda: fi.RBFInterpolator(SITES, DATA, neighbors=5), NotImplementedError, "neighbors"),
    (lambda: fi.RBFInterpolator(SITES, DATA)(QUERIES[:, :1]), ValueError, "length 2"),
])
def test_rbf_errors(call, error, words):
    with pytest.raises(error) as info:
        call()
    assert words in str(info.value)


# --- scattered data: NearestNDInterpolator, LinearNDInterpolator, griddata -----------------

SCATTER = RNG.uniform(0.0, 1.0, (20, 2))
SCATTER_VALUES = np.c_[np.sin(4 * SCATTER[:, 0]), SCATTER[:, 1]]
GRID_QUERIES = RNG.uniform(-0.1, 1.1, (3, 4, 2))  # (some outside the hull)
LINE = np.linspace(0.0, 1.0, 9) + RNG.uniform(-0.02, 0.02, 9)  # (no two sites close:
# differences of a spline through close sites need a smaller step than the others)
SITES3 = RNG.uniform(0.0, 1.0, (10, 3))
INSIDE3 = RNG.dirichlet(np.ones(10), 4) @ SITES3  # (in the hull: convex combinations)
INSIDE = RNG.dirichlet(np.ones(20), 5) @ SCATTER

SCATTERED = {
    "linear": (lambda p, v, x: fi.griddata(p, v, x), lambda p, v, x: si.griddata(p, v, x),
               (SCATTER, SCATTER_VALUES, GRID_QUERIES)),
    "linear-rescale": (lambda v, x: fi.LinearNDInterpolator(SCATTER, v, 0.0, True)(x),
                       lambda v, x: si.LinearNDInterpolator(SCATTER, v, 0.0, True)(x),
                       (SCATTER_VALUES[:, 0], GRID_QUERIES)),
    "linear-3d": (lambda p, v, x: fi.griddata(p, v, x), lambda p, v, x: si.griddata(p, v, x),
                  (SITES3, RNG.normal(size=10), INSIDE3)),
    "nearest": (lambda v, x: fi.griddata(SCATTER, v, x, method="nearest"),
                lambda v, x: si.griddata(SCATTER, v, x, method="nearest"),
                (SCATTER_VALUES, GRID_QUERIES)),
    "nearest-coordinates": (lambda v, x: fi.NearestNDInterpolator(SCATTER, v)(x[..., 0],
                                                                              x[..., 1]),
                            lambda v, x: si.NearestNDInterpolator(SCATTER, v)(x[..., 0],
                                                                              x[..., 1]),
                            (SCATTER_VALUES[:, 1], GRID_QUERIES)),
    "1d-cubic": (lambda p, v: fi.griddata(p, v, np.linspace(0.1, 0.9, 5), method="cubic"),
                 lambda p, v: si.griddata(p, v, np.linspace(0.1, 0.9, 5), method="cubic"),
                 (LINE, np.sin(3 * LINE))),
}


@pytest.mark.parametrize("name", SCATTERED)
def test_scattered_interpolation_matches_scipy(name):
    ours, scipys, args = SCATTERED[name]
    value = ours(*args)
    want = scipys(*args)
    assert np.array_equal(np.isnan(value), np.isnan(want))
    nan_free = [np.nan_to_num(a) for a in args]
    jvp_matches_scipy(lambda *a: fg.numpy.nan_to_num(ours(*a)),
                      lambda *a: np.nan_to_num(scipys(*a)), nan_free, rtol=1e-6,
                      value_rtol=1e-13)


def test_scattered_vmap_float32_and_errors():
    check_vmap(lambda v: fi.LinearNDInterpolator(SCATTER, v)(INSIDE),
               (RNG.normal(size=(3, 20)),), (0,))
    check_vmap(lambda v, x: fi.NearestNDInterpolator(SCATTER, v)(x),
               (RNG.normal(size=(3, 20)), RNG.uniform(0, 1, (3, 5, 2))), (0, 0))
    points32, queries32 = SCATTER.astype(np.float32), INSIDE.astype(np.float32)
    check_float32(lambda v: fi.LinearNDInterpolator(points32, v)(queries32), (SCATTER_VALUES,))
    import scipy.interpolate as si
    np.testing.assert_array_equal(  # (2-d 'cubic': CloughTocher2DInterpolator)
        fi.griddata(SCATTER, SCATTER_VALUES, GRID_QUERIES, method="cubic"),
        si.griddata(SCATTER, SCATTER_VALUES, GRID_QUERIES, method="cubic"))
    with pytest.raises(ValueError, match="Unknown interpolation method"):
        fi.griddata(SCATTER, SCATTER_VALUES, GRID_QUERIES, method="quadratic")
    with pytest.raises(ValueError, match="different number of values"):
        fi.LinearNDInterpolator(SCATTER, SCATTER_VALUES[:4])
    with pytest.raises(Exception, match="simplex"):
        fg.jit(lambda x: fi.LinearNDInterpolator(SCATTER, SCATTER_VALUES)(x))(GRID_QUERIES)


# --- tensor-product splines: RectBivariateSpline, bisplrep, bisplev ---------------------------

GX = np.sort(RNG.uniform(0.0, 1.0, 8))
GY = np.sort(RNG.uniform(0.0, 2.0, 7))
GZ = np.sin(3 * GX[:, None]) * np.cos(GY[None, :]) + 0.1 * RNG.normal(size=(8, 7))
QX, QY = np.array([-0.1, 0.2, 0.45, 0.8, 1.1]), np.array([-0.1, 0.6, 1.3, 2.1])
SX, SY = RNG.uniform(0.0, 1.0, 80), RNG.uniform(0.0, 1.0, 80)
SZ, SW = np.sin(3 * SX) + SY ** 2, RNG.uniform(0.5, 2.0, 80)
KNOTS = np.r_[[0.0] * 4, 0.5, [1.0] * 4]
SCIPY_TCK = si.bisplrep(SX, SY, SZ, s=0.1)
BOX = [-0.1, 1.2, -0.5, 2.5]

BIVARIATE = {
    "grid": (lambda x, y, z, qx, qy: fi.RectBivariateSpline(x, y, z)(qx, qy),
             lambda x, y, z, qx, qy: si.RectBivariateSpline(x, y, z)(qx, qy),
             (GX, GY, GZ, QX, QY)),
    "ev-dx-dy": (lambda z, px, py: fi.RectBivariateSpline(GX, GY, z).ev(px, py, dx=1, dy=1),
                 lambda z, px, py: si.RectBivariateSpline(GX, GY, z).ev(px, py, dx=1, dy=1),
                 (GZ, QX[1:], QY)),
    "degrees-bbox": (lambda x, z: fi.RectBivariateSpline(x, GY, z, BOX, kx=2, ky=4)(QX, QY),
                     lambda x, z: si.RectBivariateSpline(x, GY, z, BOX, kx=2, ky=4)(QX, QY),
                     (GX, GZ)),
    "integral": (lambda z, a: fi.RectBivariateSpline(GX, GY, z).integral(a, 0.7, 0.3, 3.0),
                 lambda z, a: si.RectBivariateSpline(GX, GY, z).integral(a, 0.7, 0.3, 3.0),
                 (GZ, np.array(0.1))),
    "partial_derivative": (
        lambda z: fi.RectBivariateSpline(GX, GY, z).partial_derivative(1, 2)(QX, QY),
        lambda z: si.RectBivariateSpline(GX, GY, z).partial_derivative(1, 2)(QX, QY), (GZ,)),
    "bisplev": (lambda c, x: fi.bisplev(x, QY[1:3], [*SCIPY_TCK[:2], c, 3, 3], dx=1),
                lambda c, x: si.bisplev(x, QY[1:3], [*SCIPY_TCK[:2], c, 3, 3], dx=1),
                (SCIPY_TCK[2], np.array([0.13, 0.37, 0.61, 0.88]))),  # (off the knots)
    "bisplrep-knots": (lambda x, y, z, w: fi.bisplrep(x, y, z, w, task=-1, tx=KNOTS,
                                                      ty=KNOTS)[2],
                       lambda x, y, z, w: si.bisplrep(x, y, z, w, task=-1, tx=KNOTS,
                                                      ty=KNOTS)[2][:25],
                       (SX, SY, SZ, SW)),
}


@pytest.mark.parametrize("name", BIVARIATE)
def test_bivariate_splines_match_scipy(name):
    ours, scipys, args = BIVARIATE[name]
    jvp_matches_scipy(ours, scipys, args, rtol=1e-6, value_rtol=1e-11)


def test_bivariate_fits_by_fitpacks_search_are_scipys():
    ours, theirs = fi.RectBivariateSpline(GX, GY, GZ, s=0.5), \
        si.RectBivariateSpline(GX, GY, GZ, s=0.5)
    assert_close(ours(QX, QY), theirs(QX, QY), 1e-14)
    assert_close(ours.get_residual(), theirs.get_residual(), 1e-14)
    tck = fi.bisplrep(SX, SY, SZ, s=0.1)
    for got, want in zip(tck, SCIPY_TCK):
        assert_close(got, want, 0.0)
    assert_close(fi.bisplev(0.3, 0.4, SCIPY_TCK), si.bisplev(0.3, 0.4, SCIPY_TCK), 1e-14)
    assert fi.bisplev([0.3, 0.4], 0.4, SCIPY_TCK).shape == (2, 1)  # (SciPy's squeezing)
    assert fi.bisplev(0.3, [0.4, 0.5], SCIPY_TCK).shape == (2,)
    # the search has no derivative: asking for one raises and says what to do
    with pytest.raises(TypeError, match="task=-1"):
        fg.grad(lambda z: fi.bisplrep(SX, SY, z, s=0.1)[2][0])(SZ)
    with pytest.raises(TypeError, match="s=0"):
        fg.grad(lambda z: fi.RectBivariateSpline(GX, GY, z, s=0.5)(0.3, 0.4)[0, 0])(GZ)


def test_bivariate_vmap_float32_and_errors():
    check_vmap(lambda c: fi.bisplev(QX[1:4], QY[1:3], [*SCIPY_TCK[:2], c, 3, 3]),
               (RNG.normal(size=(3, len(SCIPY_TCK[2]))),), (0,))
    check_float32(lambda z, px, py: fi.RectBivariateSpline(
        GX.astype(np.float32), GY.astype(np.float32), z).ev(px, py), (GZ, QX, QY[:1]))
    with pytest.raises(ValueError, match="strictly increasing"):
        fi.RectBivariateSpline(GX, GY, GZ)(QX[::-1], QY)
    with pytest.raises(ValueError, match="dx = 3 < kx = 3"):
        fi.bisplev(0.3, 0.4, SCIPY_TCK, dx=3)
    with pytest.raises(ValueError, match="x dimension of z"):
        fi.RectBivariateSpline(GX, GY, GZ.T)
