"""funcgrad.scipy.interpolate's 1-d interpolators against SciPy's: ``interp1d`` (every
kind, fill and axis), ``CubicSpline`` (every boundary condition and extrapolation, its
derivatives, antiderivatives and integrals), ``PchipInterpolator``,
``Akima1DInterpolator`` (both methods), ``CubicHermiteSpline``, ``PPoly``,
``make_interp_spline`` (degrees 0-3) and ``BSpline``; their
derivatives in the query points, ``y`` and ``x`` by finite differences and the
dot-product test; ``vmap``, ``jit``, float32; and SciPy's errors."""
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from helpers import (assert_close, check_dot_product, check_float32,  # noqa: E402
                     check_jvp_fd, check_second_order, check_vmap)

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.interpolate as fi  # noqa: E402

si = pytest.importorskip("scipy.interpolate")

KINDS = ["linear", "nearest", "nearest-up", "previous", "next", "zero", "slinear",
         "quadratic", "cubic"]
SMOOTH_KINDS = ["linear", "slinear", "quadratic", "cubic"]
BCS = ["not-a-knot", "clamped", "natural", "values"]


def _bc(bc, trailing):
    """``bc``, with 'values' a pair of given first and second end derivatives."""
    if bc != "values":
        return bc
    return ((1, np.full(trailing, 0.5)), (2, np.linspace(-1.0, 1.0, int(np.prod(trailing)))
                                          .reshape(trailing)))


def _data(n=8, trailing=(), seed=0):
    rng = np.random.default_rng(seed)
    x = np.cumsum(rng.uniform(0.4, 1.2, n))
    y = rng.normal(size=(n,) + trailing)
    return x, y


def _queries(x, count=23, seed=1, outside=True):
    """Queries across the data, away from the knots and their midpoints (where the
    piecewise kinds switch)."""
    rng = np.random.default_rng(seed)
    low, high = (x[0] - 1.0, x[-1] + 1.0) if outside else (x[0], x[-1])
    q = rng.uniform(low, high, count)
    marks = np.concatenate([x, (x[1:] + x[:-1]) / 2])
    near = np.min(np.abs(q[:, None] - marks[None, :]), axis=1) < 0.02
    return q[~near]


def _close(got, want, rtol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    assert_close(got, want, rtol, rtol, equal_nan=True, scale=max(1.0, np.nanmax(
        np.abs(want), initial=0.0)))


# --- values against SciPy ---------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fill", ["extrapolate", "nan", "pair"])
def test_interp1d_matches_scipy_for_every_kind_and_fill(kind, fill):
    x, y = _data(9, (2, 3))
    y = np.moveaxis(y, 0, 1)  # (2, 9, 3): interpolate along axis 1
    fill_value = {"extrapolate": "extrapolate", "nan": np.nan,
                  "pair": (np.array([-7.0, -8.0, -9.0]), 5.0)}[fill]
    rng = np.random.default_rng(3)
    order = rng.permutation(9)  # (unsorted x: sorted, as SciPy's assume_sorted=False)
    q = np.array([[x[0] - 1.5, x[0], x[2], (x[3] + x[4]) / 2], [x[-1], x[-1] + 0.5,
                                                                 x[4] + 0.1, x[1] - 0.05]])
    for axis in (1, -2):
        want = si.interp1d(x[order], y[:, order], kind=kind, axis=axis, bounds_error=False,
                           fill_value=fill_value)(q)
        got = fi.interp1d(x[order], y[:, order], kind=kind, axis=axis, bounds_error=False,
                          fill_value=fill_value)(q)
        _close(got, want)
    for axis in (0, -1):  # (the axis first and last, and a scalar query)
        yy = np.moveaxis(y, 1, axis)
        want = si.interp1d(x, yy, kind=kind, axis=axis, bounds_error=False,
                           fill_value=fill_value)(x[3] + 0.3)
        _close(fi.interp1d(x, yy, kind=kind, axis=axis, bounds_error=False,
                           fill_value=fill_value)(x[3] + 0.3), want)


@pytest.mark.parametrize("kind", KINDS)
def test_interp1d_defaults_match_scipy_inside_the_range(kind):
    x, y = _data(7)
    q = np.linspace(x[0], x[-1], 31)
    _close(fi.interp1d(x, y, kind=kind)(q), si.interp1d(x, y, kind=kind)(q))
    assert fi.interp1d(x, y, kind=kind).bounds_error


@pytest.mark.parametrize("bc", BCS)
@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_cubic_spline_matches_scipy(bc, n):
    x, y = _data(n, (2,))
    y = y.T  # (2, n): along axis 1
    q = np.linspace(x[0] - 1.0, x[-1] + 1.0, 29).reshape(29, 1)
    want = si.CubicSpline(x, y, axis=1, bc_type=_bc(bc, (2,)))
    got = fi.CubicSpline(x, y, axis=1, bc_type=_bc(bc, (2,)))
    _close(got.c, want.c)
    _close(got.x, want.x)
    for nu in range(5):
        _close(got(q, nu), want(q, nu), 1e-11)
    for extrapolate in (False, "periodic"):
        _close(got(q, extrapolate=extrapolate), want(q, extrapolate=extrapolate), 1e-11)
    for nu in (1, 2):
        _close(got.derivative(nu)(q), want.derivative(nu)(q), 1e-11)
        _close(got.antiderivative(nu)(q), want.antiderivative(nu)(q), 1e-11)
        _close(got.antiderivative(nu).c, want.antiderivative(nu).c, 1e-11)
    for a, b in [(x[0], x[-1]), (x[-1] + 0.7, x[0] - 0.3), (x[1] + 0.1, x[1] + 0.2)]:
        _close(got.integrate(a, b), want.integrate(a, b), 1e-11)
        _close(got.integrate(a, b, extrapolate=False), want.integrate(a, b, extrapolate=False))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 8])
def test_periodic_cubic_spline_matches_scipy(n):
    x, y = _data(n, (3,), seed=n)
    y[-1] = y[0]
    q = np.linspace(x[0] - 3.0, x[-1] + 4.0, 37)
    want = si.CubicSpline(x, y, bc_type="periodic")
    got = fi.CubicSpline(x, y, bc_type="periodic")
    assert got.extrapolate == "periodic"
    for nu in range(3):
        _close(got(q, nu), want(q, nu), 1e-11)
    for a, b in [(x[0] - 2.5, x[-1] + 9.1), (x[-1] + 0.5, x[0] - 4.0), (x[1], x[1] + 0.3),
                 (x[-1] - 0.1, x[-1] + 0.2)]:
        _close(got.integrate(a, b), want.integrate(a, b), 1e-11)
    _close(got.antiderivative()(q), want.antiderivative()(q), 1e-11)


@pytest.mark.parametrize("n", [2, 3, 9])
def test_pchip_and_akima_match_scipy(n):
    x, y = _data(n, (2,), seed=5)
    if n > 3:  # (flat stretches and a sign change: the branches of the slopes)
        y[1:4, 0] = 1.0
        y[2, 1] = y[1, 1] + 2.0
    q = np.linspace(x[0] - 0.5, x[-1] + 0.5, 41)
    _close(fi.PchipInterpolator(x, y)(q), si.PchipInterpolator(x, y)(q))
    _close(fi.PchipInterpolator(x, y.T, axis=1)(q, 1), si.PchipInterpolator(x, y.T, axis=1)(q, 1))
    for method in ("akima", "makima"):
        for extrapolate in (None, True):
            want = si.Akima1DInterpolator(x, y, method=method, extrapolate=extrapolate)(q)
            _close(fi.Akima1DInterpolator(x, y, method=method, extrapolate=extrapolate)(q), want)
    _close(fi.pchip_interpolate(x, y, q), si.pchip_interpolate(x, y, q))
    for got, want in zip(fi.pchip_interpolate(x, y, q, der=[0, 2]),
                         si.pchip_interpolate(x, y, q, der=[0, 2])):
        _close(got, want)


def test_hermite_spline_and_ppoly_match_scipy():
    x, y = _data(6, (2,))
    dydx = np.cos(y)
    q = np.linspace(x[0] - 0.5, x[-1] + 0.5, 17)
    _close(fi.CubicHermiteSpline(x, y, dydx)(q), si.CubicHermiteSpline(x, y, dydx)(q))
    c = np.random.default_rng(2).normal(size=(3, 2, 5, 4))  # (axis=1: c is (2, k+1, m, 4))
    c = np.moveaxis(c, 0, 1)
    bp = np.cumsum(np.ones(6))
    got, want = fi.PPoly(c, bp, axis=1), si.PPoly(c, bp, axis=1)
    _close(got(q[:, None]), want(q[:, None]))
    _close(got.integrate(0.5, 4.5), want.integrate(0.5, 4.5))
    _close(got.derivative(2)(q), want.derivative(2)(q))


@pytest.mark.parametrize("k", [0, 1, 2, 3])
@pytest.mark.parametrize("n", [4, 5, 9])
def test_make_interp_spline_matches_scipy(k, n):
    x, y = _data(n, (2,), seed=n + k)
    q = np.linspace(x[0] - 1.0, x[-1] + 1.0, 31)
    want, got = si.make_interp_spline(x, y, k=k), fi.make_interp_spline(x, y, k=k)
    _close(got.t, want.t)
    _close(got.c, want.c)
    assert got.k == want.k
    for nu in range(k + 2):
        _close(got(q, nu), want(q, nu), 1e-11)
    _close(got(q, extrapolate=False), want(q, extrapolate=False))
    _close(got.derivative(min(k, 2))(q), want.derivative(min(k, 2))(q), 1e-11)
    along = fi.make_interp_spline(x, y.T, k=k, axis=1)
    _close(along(q[:, None]), si.make_interp_spline(x, y.T, k=k, axis=1)(q[:, None]))
    t, c = np.asarray(want.t), np.asarray(want.c)  # (a BSpline made from knots, coefficients)
    _close(fi.BSpline(t, c, k)(q, 1), si.BSpline(t, c, k)(q, 1), 1e-11)


# --- derivatives ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
def test_interp1d_derivatives_in_queries_y_and_x(kind):
    x, y = _data(8, (2,))
    q = _queries(x)

    if kind in ("previous", "next"):  # (their extrapolation is NaN on one side)
        q = _queries(x, outside=False)

    def f(q, y, x):
        return fi.interp1d(x, y, kind=kind, axis=0, fill_value="extrapolate")(q)

    check_jvp_fd(f, [q, y, x])
    check_dot_product(f, [q, y, x])
    if kind not in SMOOTH_KINDS:  # (piecewise constant: nothing moves but the picked y)
        grads = fg.grad(lambda q, x: np.sum(f(q, y, x)), argnums=(0, 1))(q, x)
        assert not np.any(grads[0]) and not np.any(grads[1])


@pytest.mark.parametrize("bc", BCS + ["periodic"])
def test_cubic_spline_derivatives_in_queries_y_x_and_boundary_values(bc):
    x, y = _data(7, (3,))
    if bc == "periodic":
        y[-1] = y[0]
    q = _queries(x, outside=bc != "periodic")

    def f(q, y, x):
        s = fi.CubicSpline(x, y, bc_type=_bc(bc, (3,)))
        return s(q), s(q, 1), s.integrate(x[1] - 0.3, q[0])

    if bc == "periodic":  # (y + eps v must stay periodic: SciPy's check)
        check_jvp_fd(lambda q, x: f(q, y, x), [q, x])
    else:
        check_jvp_fd(f, [q, y, x])
    check_dot_product(f, [q, y, x])
    if bc == "periodic":  # (a tangent that keeps y[0] == y[-1]: the periodic spline's)
        v = np.random.default_rng(4).normal(size=y.shape)
        v[-1] = v[0]
        eps = 1e-6
        _, tangent = fg.jvp(lambda y: fi.CubicSpline(x, y, bc_type=bc)(q), (y,), (v,))
        fd = (si.CubicSpline(x, y + eps * v, bc_type=bc)(q)
              - si.CubicSpline(x, y - eps * v, bc_type=bc)(q)) / (2 * eps)
        _close(tangent, fd, 1e-6)


def test_cubic_spline_boundary_values_and_second_order():
    x, y = _data(6)
    q = _queries(x)

    def f(q, y, start, end):
        return fi.CubicSpline(x, y, bc_type=((1, start), (2, end)))(q)

    args = [q, y, np.array(0.3), np.array(-1.1)]
    check_jvp_fd(f, args)
    check_dot_product(f, args)
    check_second_order(lambda q, y: fi.CubicSpline(x, y)(q) ** 2, [q, y])


@pytest.mark.parametrize("make", [
    lambda x, y: fi.PchipInterpolator(x, y),
    lambda x, y: fi.Akima1DInterpolator(x, y, extrapolate=True),
    lambda x, y: fi.Akima1DInterpolator(x, y, method="makima"),
    lambda x, y: fi.CubicHermiteSpline(x, y, np.sin(np.arange(y.size)).reshape(y.shape)),
], ids=["pchip", "akima", "makima", "hermite"])
def test_local_cubics_derivatives_in_queries_y_and_x(make):
    x, y = _data(9, (2,), seed=7)
    q = _queries(x, outside=False)

    def f(q, y, x):
        return make(x, y)(q)

    check_jvp_fd(f, [q, y, x])
    check_dot_product(f, [q, y, x])


@pytest.mark.parametrize("k", [1, 2, 3])
def test_make_interp_spline_derivatives_in_queries_y_and_x(k):
    x, y = _data(7, (2,), seed=k)
    q = _queries(x)

    def f(q, y, x):
        spline = fi.make_interp_spline(x, y, k=k)
        return spline(q), spline(q, 1)

    check_jvp_fd(f, [q, y, x])
    check_dot_product(f, [q, y, x])


def test_pchip_derivative_is_finite_where_a_slope_is_clamped_to_zero():
    x = np.arange(5.0)
    y = np.array([0.0, 1.0, 1.0, 3.0, 2.0])  # (a flat secant and a sign change)
    g = fg.grad(lambda y: np.sum(fi.PchipInterpolator(x, y)(np.array([0.5, 1.5, 3.2]))))(y)
    assert np.all(np.isfinite(g))


# --- transforms -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["linear", "nearest", "quadratic", "cubic"])
def test_interp1d_vmaps_over_queries_and_data(kind):
    x, y = _data(6)
    qs = np.stack([_queries(x, 5, seed=s)[:4] for s in range(3)])

    def f(q, y):
        return fi.interp1d(x, y, kind=kind, bounds_error=False, fill_value=-2.0)(q)

    check_vmap(f, [qs, y], (0, None))
    check_vmap(f, [qs[0], np.stack([y, 2 * y, y ** 2])], (None, 0))


def test_cubic_spline_vmaps_over_queries():
    x, y = _data(6, (2,))
    qs = np.stack([_queries(x, 5, seed=s)[:4] for s in range(3)])
    check_vmap(lambda q, y: fi.CubicSpline(x, y, bc_type="natural")(q), [qs, y], (0, None))


@pytest.mark.parametrize("kind", ["linear", "previous", "quadratic", "cubic"])
def test_jit_of_a_call_equals_the_eager_call(kind):
    x, y = _data(7, (2,))
    q = _queries(x)

    def f(q, y, x):
        return fi.interp1d(x, y, kind=kind, axis=0, fill_value="extrapolate")(q)

    jitted = fg.jit(f)
    _close(jitted(q, y, x), f(q, y, x))
    _close(jitted(q + 0.01, 2 * y, x), f(q + 0.01, 2 * y, x))
    bspline = fg.jit(lambda q, y, x: fi.make_interp_spline(x, y, k=3)(q))
    _close(bspline(q, y, x), si.make_interp_spline(x, y, k=3)(q))
    spline = fg.jit(lambda q, y, x: fi.CubicSpline(x, y, bc_type="clamped")(q, 1))
    _close(spline(q, y, x), si.CubicSpline(x, y, bc_type="clamped")(q, 1))
    _close(fg.jit(fg.grad(lambda y: np.sum(fi.CubicSpline(x, y)(q))))(y),
           fg.grad(lambda y: np.sum(fi.CubicSpline(x, y)(q)))(y))


def test_jit_with_knots_that_do_not_increase_gives_nan_not_a_wrong_spline():
    x, y = _data(5)
    bad = x[[0, 2, 1, 3, 4]]
    out = fg.jit(lambda x: fi.CubicSpline(x, y)(x[:1] + 0.1))(bad)
    assert np.all(np.isnan(out))
    for kind in ("linear", "nearest", "quadratic"):
        call = fg.jit(lambda x: fi.interp1d(x, y, kind=kind, assume_sorted=True,
                                            bounds_error=False)(x[:1] + 0.1))
        assert np.all(np.isnan(call(bad))), kind
        assert np.all(np.isfinite(call(x))), kind


@pytest.mark.parametrize("make", [
    lambda q, y, x: fi.interp1d(x, y, kind="linear", fill_value="extrapolate")(q),
    lambda q, y, x: fi.interp1d(x, y, kind="quadratic", fill_value="extrapolate")(q),
    lambda q, y, x: fi.CubicSpline(x, y)(q),
    lambda q, y, x: fi.CubicSpline(x, y, bc_type="periodic")(q),
    lambda q, y, x: fi.PchipInterpolator(x, y)(q),
    lambda q, y, x: fi.Akima1DInterpolator(x, y, extrapolate=True)(q),
    lambda q, y, x: fi.make_interp_spline(x, y)(q, 1),
], ids=["linear", "quadratic", "cubic", "periodic", "pchip", "akima", "bspline"])
def test_float32_stays_float32(make):
    x, y = _data(7)
    y[-1] = y[0]
    check_float32(make, [_queries(x, outside=False), y, x])


# --- errors -----------------------------------------------------------------------------------

def test_errors_match_scipys_types():
    x, y = _data(5)
    unsorted = x[[0, 2, 1, 3, 4]]
    for kind in ("linear", "cubic"):
        with pytest.raises(ValueError, match="assume_sorted=False"):
            fi.interp1d(unsorted, y, kind=kind, assume_sorted=True)
    with pytest.raises(ValueError, match="strictly increasing"):
        si.interp1d(unsorted, y, kind="cubic", assume_sorted=True)
    for q, side in ((x[0] - 0.1, "below"), (x[-1] + 0.1, "above")):
        with pytest.raises(ValueError, match=side):
            si.interp1d(x, y)(q)
        with pytest.raises(ValueError, match=f"{side} the interpolation range"):
            fi.interp1d(x, y)(np.array([x[1], q]))
    with pytest.raises(ValueError, match="Cannot extrapolate and raise"):
        fi.interp1d(x, y, bounds_error=True, fill_value="extrapolate")
    with pytest.raises(NotImplementedError):
        fi.interp1d(x, y, kind="spline")
    with pytest.raises(ValueError, match="at least 4 entries"):
        fi.interp1d(x[:3], y[:3], kind="cubic")
    with pytest.raises(ValueError, match="strictly increasing"):
        fi.CubicSpline(unsorted, y)
    with pytest.raises(ValueError, match="finite"):
        fi.CubicSpline(x, np.where(y > 0, np.inf, y))
    y_open = y.copy()
    y_open[-1] = y[0] + 1.0
    with pytest.raises(ValueError, match="identical"):
        fi.CubicSpline(x, y_open, bc_type="periodic")
    with pytest.raises(ValueError, match="cannot be used with other"):
        fi.CubicSpline(x, y, bc_type=("periodic", "natural"))
    with pytest.raises(ValueError, match="order must be 1 or 2"):
        fi.CubicSpline(x, y, bc_type=((3, 0.0), "natural"))
    with pytest.raises(NotImplementedError):
        fi.Akima1DInterpolator(x, y, method="steffen")
    with pytest.raises(ValueError, match="strictly increasing"):
        fi.make_interp_spline(unsorted, y)
    with pytest.raises(ValueError, match="First and last points does not match"):
        fi.make_interp_spline(x, y_open, bc_type="periodic")  # (SciPy's ValueError)
    with pytest.raises(ValueError, match="real values"):
        fi.PchipInterpolator(x, y + 1j)


def test_bounds_check_under_jit_names_the_fix():
    x, y = _data(5)
    with pytest.raises(fg.ConcretizationError, match="bounds_error=False"):
        fg.jit(lambda q: fi.interp1d(x, y)(q))(np.array([x[1]]))
    out = fg.jit(lambda q: fi.interp1d(x, y, bounds_error=False)(q))(np.array([x[0] - 1]))
    assert np.isnan(out[0])


def test_complex_y_cubic_spline_matches_scipy():
    x, y = _data(6)
    yc = y + 1j * np.cos(y)
    q = np.linspace(x[0], x[-1], 11)
    got = fi.CubicSpline(x, yc, bc_type="natural")(q)
    want = si.CubicSpline(x, yc, bc_type="natural")(q)
    assert got.dtype == np.complex128
    _close(got.real, want.real)
    _close(got.imag, want.imag)
