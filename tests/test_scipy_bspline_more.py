"""``funcgrad.scipy.interpolate``: ``make_interp_spline`` with any degree, given knots and
boundary conditions; ``BSpline.antiderivative`` and ``integrate``; FITPACK's
interpolating ``splrep`` with ``splev`` and ``splint``.  Values, knots and coefficients
against SciPy's; derivatives in the sites, the data, the knots, the boundary values, the
queries and the integration limits by finite differences and the dot-product test;
``vmap``, ``jit``, float32; the errors."""
import numpy as np
import pytest
import scipy.interpolate as si

import funcgrad as fg
import funcgrad.scipy.interpolate as fi
from helpers import (assert_close, check_dot_product, check_float32, check_jvp_fd,
                     check_vmap)

RNG = np.random.default_rng(20261204)
X = np.sort(RNG.uniform(0.0, 5.0, 10))
Y = RNG.normal(size=(10, 2))
Q = np.linspace(-0.5, 5.5, 23)  # (past both ends: the end pieces extrapolate)

BCS = [None, "not-a-knot", "clamped", "natural",
       ([(1, np.array([0.3, -1.0]))], [(2, np.array([-0.2, 0.5]))]),
       ([(1, np.array([1.0, 2.0])), (2, np.zeros(2))], [(1, np.zeros(2))]),
       ([(2, np.array([1.0, 0.0]))], None)]


def _same_spline(got, want, what):
    assert got.k == want.k, what
    assert_close(got.t, want.t, 1e-14, what=f"{what}: knots")
    assert_close(got.c, want.c, 1e-11, what=f"{what}: coefficients")
    for nu in range(min(got.k, 2) + 1):
        assert_close(got(Q, nu), want(Q, nu), 1e-11, what=f"{what}: derivative {nu}")


@pytest.mark.parametrize("k", range(7))
def test_make_interp_spline_with_boundary_conditions_is_scipys(k):
    for bc in BCS:
        try:
            want = si.make_interp_spline(X, Y, k=k, bc_type=bc)
        except ValueError as e:  # (the wrong number of conditions for this degree)
            with pytest.raises(ValueError, match=str(e).split(":")[0][:20]):
                fi.make_interp_spline(X, Y, k=k, bc_type=bc)
            continue
        _same_spline(fi.make_interp_spline(X, Y, k=k, bc_type=bc), want, f"k={k} bc={bc}")


@pytest.mark.parametrize("k", range(1, 6))
def test_make_interp_spline_with_given_knots_is_scipys(k):
    t = si.make_interp_spline(X, Y[:, 0], k=k).t.copy()
    inner = slice(k + 1, t.shape[0] - k - 1)
    t[inner] += 0.05 * np.sin(np.arange(t[inner].shape[0]))  # (moved, still in order)
    _same_spline(fi.make_interp_spline(X, Y, k=k, t=t), si.make_interp_spline(X, Y, k=k, t=t),
                 f"k={k} given t")
    clamped = np.r_[[X[0]] * k, X, [X[-1]] * k]  # (k - 1 conditions short: give them)
    if k > 1:
        bc = tuple([(j, np.full(2, 0.1 * j)) for j in range(1, m + 1)] or None
                   for m in ((k - 1) // 2, k // 2))
        _same_spline(fi.make_interp_spline(X, Y, k=k, t=clamped, bc_type=bc),
                     si.make_interp_spline(X, Y, k=k, t=clamped, bc_type=bc), f"k={k} bc+t")


def test_a_scalar_boundary_value_applies_to_every_column():
    got = fi.make_interp_spline(X, Y, bc_type=([(1, 0.5)], [(2, 0.0)]))
    want = si.make_interp_spline(X, Y, bc_type=([(1, np.full(2, 0.5))], [(2, np.zeros(2))]))
    _same_spline(got, want, "scalar boundary value")


def test_make_interp_spline_along_another_axis_and_default_path_unchanged():
    got = fi.make_interp_spline(X, Y.T, k=5, bc_type=None, axis=1)
    want = si.make_interp_spline(X, Y.T, k=5, axis=1)
    assert_close(got(Q[:, None]), want(Q[:, None]), 1e-11)
    _same_spline(fi.make_interp_spline(X, Y, k=3), si.make_interp_spline(X, Y, k=3), "k=3")


@pytest.mark.parametrize("bc", ["clamped", "natural", None])
def test_make_interp_spline_derivatives_in_sites_data_and_queries(bc):
    def f(q, y, x, bc=bc):
        return fi.make_interp_spline(x, y, k=3 if bc else 4, bc_type=bc)(q)
    args = [Q[2:20:3], Y[:, 0], X]
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)


def test_make_interp_spline_derivatives_in_knots_and_boundary_values():
    # (distinct knots, so that a step in every knot keeps them in order)
    # (and the sites strictly inside [t[3], t[-3]])
    t = np.r_[X[0] - np.array([0.4, 0.3, 0.2, 0.1]), X[1:-1],
              X[-1] + np.array([0.1, 0.2, 0.3, 0.4])]

    def f(t, left, right):
        spline = fi.make_interp_spline(X, Y[:, 0], k=3, t=t,
                                       bc_type=([(1, left)], [(1, right)]))
        return spline(Q[2:20:3])
    args = [t, np.array(0.4), np.array(-0.7)]
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)


def test_make_interp_spline_under_vmap_jit_and_float32():
    ys = RNG.normal(size=(3, 10))

    def f(y):
        return fi.make_interp_spline(X, y, k=3, bc_type="natural")(Q)
    check_vmap(f, [ys], [0])
    assert_close(fg.jit(f)(ys[0]), si.make_interp_spline(X, ys[0], bc_type="natural")(Q),
                 1e-11)
    check_float32(lambda y: fi.make_interp_spline(X.astype(np.float32), y, k=3,
                                                  bc_type="clamped")(Q.astype(np.float32)),
                  [ys[0].astype(np.float32)])


@pytest.mark.parametrize("k", range(5))
def test_antiderivative_and_integrate_are_scipys(k):
    t = np.sort(RNG.uniform(0.0, 5.0, 12))
    t = np.r_[[t[0]] * k, t, [t[-1]] * k]
    c = RNG.normal(size=(t.shape[0] - k - 1, 2))
    got, want = fi.BSpline(t, c, k), si.BSpline(t, c, k)
    for nu in (1, 2):
        a, b = got.antiderivative(nu), want.antiderivative(nu)
        assert a.k == b.k
        assert_close(a.t, b.t, 0.0)
        assert_close(a.c, b.c[:a.c.shape[0]], 1e-14)
        assert_close(a(Q), b(Q), 1e-12)
        assert_close(a.derivative(nu)(Q), got(Q), 1e-11)  # (the inverse of derivative)
    for extrapolate in (True, False):
        for lo, hi in [(0.5, 3.0), (-1.0, 7.0), (4.0, 1.0)]:
            assert_close(got.integrate(lo, hi, extrapolate=extrapolate),
                         want.integrate(lo, hi, extrapolate=extrapolate), 1e-12,
                         what=f"k={k} [{lo}, {hi}] extrapolate={extrapolate}")
    for lo, hi in [(0.5, 3.0), (6.0, 8.0)]:
        # (wholly past the end without extrapolation: 0, as SciPy's 1-d path (FITPACK's
        # splint) says; its path for c.ndim > 1 gives NaN there)
        assert_close(fi.BSpline(t, c[:, 0], k).integrate(lo, hi, extrapolate=False),
                     si.BSpline(t, c[:, 0], k).integrate(lo, hi, extrapolate=False), 1e-12)
    assert_close(got.integrate(6.0, 8.0, extrapolate=False), np.zeros(2), 0.0)


def test_integrate_derivatives_in_limits_coefficients_and_knots():
    k = 3
    t = np.r_[-0.3, -0.2, -0.1, np.linspace(0.0, 5.0, 8), 5.1, 5.2, 5.3]  # (distinct)
    c = RNG.normal(size=t.shape[0] - k - 1)
    for extrapolate in (True, False):
        def f(a, b, c, t, extrapolate=extrapolate):
            return fi.BSpline(t, c, k).integrate(a, b, extrapolate=extrapolate)
        args = [np.array(0.7), np.array(4.1), c, t]
        check_jvp_fd(f, args, RNG)
        check_dot_product(f, args, RNG)
    # (d/db of the integral is the spline at b; outside the base interval with
    # extrapolate=False, nothing)
    g = fg.grad(lambda b: fi.BSpline(t, c, k).integrate(0.5, b))(2.0)
    assert_close(g, si.BSpline(t, c, k)(2.0), 1e-12)
    assert float(fg.grad(lambda b: fi.BSpline(t, c, k).integrate(0.5, b, False))(6.0)) == 0.0
    assert_close(fg.jit(lambda a, b: fi.BSpline(t, c, k).integrate(a, b))(0.5, 2.0),
                 si.BSpline(t, c, k).integrate(0.5, 2.0), 1e-12)


@pytest.mark.parametrize("k", range(1, 6))
def test_splrep_splev_splint_are_scipys(k):
    y = Y[:, 0]
    for xb, xe in [(None, None), (-1.0, 6.0)]:
        got, want = fi.splrep(X, y, k=k, xb=xb, xe=xe), si.splrep(X, y, k=k, xb=xb, xe=xe)
        assert got[2] == want[2]
        assert_close(got[0], want[0], 0.0)
        assert_close(got[1], want[1], 1e-11)
        for der in range(k + 1):
            for ext in (0, 1, 3):
                assert_close(fi.splev(Q, got, der, ext), si.splev(Q, want, der, ext), 1e-11,
                             what=f"k={k} der={der} ext={ext}")
        for lo, hi in [(0.5, 3.0), (-1.0, 7.0), (4.0, 1.0)]:
            assert_close(fi.splint(lo, hi, got), si.splint(lo, hi, want), 1e-12)
    assert_close(fi.splev(Q[3:20], got, ext=2), si.splev(Q[3:20], want, ext=2), 1e-11)
    assert_close(fi.splev(2.5, fi.BSpline(*want)), si.splev(2.5, want), 1e-12)


def test_splrep_and_splev_derivatives_vmap_jit():
    def f(q, y, x):
        return fi.splev(q, fi.splrep(x, y, k=3), 1)
    args = [Q[2:20:3], Y[:, 0], X]
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)
    check_vmap(lambda y: fi.splev(Q, fi.splrep(X, y)), [RNG.normal(size=(3, 10))], [0])
    tck = si.splrep(X, Y[:, 0])
    assert_close(fg.jit(lambda q: fi.splev(q, tck, 0, 1))(Q), si.splev(Q, tck, 0, 1), 1e-11)
    check_jvp_fd(lambda a, b, c: fi.splint(a, b, (tck[0], c, 3)),
                 [np.array(0.5), np.array(3.5), tck[1]], RNG)


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="does not match: expected 2, got 1\\+0"):
        fi.make_interp_spline(X, Y, bc_type=([(1, 0.0)], None))
    with pytest.raises(ValueError, match="Unknown boundary condition"):
        fi.make_interp_spline(X, Y, bc_type="free")
    with pytest.raises(ValueError, match="pairs of \\(order, value\\)"):
        fi.make_interp_spline(X, Y, bc_type=(1, 2))
    with pytest.raises(ValueError, match="Bad boundary conditions"):
        fi.make_interp_spline(X, Y, k=3, bc_type=([(4, 0.0)], [(1, 0.0)]))
    with pytest.raises(ValueError, match="Too much info for k=0"):
        fi.make_interp_spline(X, Y, k=0, bc_type="clamped")
    with pytest.raises(ValueError, match="Too much info for k=1"):
        fi.make_interp_spline(X, Y, k=1, bc_type="clamped")
    with pytest.raises(ValueError, match="need at least 14"):
        fi.make_interp_spline(X, Y, t=np.linspace(0, 5, 10))
    with pytest.raises(ValueError, match="sorted"):
        fi.make_interp_spline(X, Y, k=1, t=np.r_[X[0], X[::-1], X[-1]])
    with pytest.raises(ValueError, match="Out of bounds"):
        fi.make_interp_spline(X, Y, k=1, t=np.r_[X[0] + 0.1, X[0] + 0.1, X[1:], X[-1]])
    with pytest.raises(ValueError, match="boundary value of order 1 has shape"):
        fi.make_interp_spline(X, Y, bc_type=([(1, np.zeros(3))], [(1, 0.0)]))
    with pytest.raises(ValueError, match="First and last points does not match"):
        fi.make_interp_spline(X, Y, bc_type="periodic")
    with pytest.raises(NotImplementedError, match="per=1"):
        fi.splrep(X, Y[:, 0], per=1)
    with pytest.raises(ValueError, match="1 <= k=6 <= 5"):
        fi.splrep(X, Y[:, 0], k=6)
    tck = fi.splrep(X, Y[:, 0])
    with pytest.raises(ValueError, match="out of bounds"):
        fi.splev(np.array([7.0]), tck, ext=2)
    with pytest.raises(ValueError, match="0<=der=4<=k=3"):
        fi.splev(1.0, tck, 4)
    with pytest.raises(ValueError, match="c must be 1-d"):
        fi.splev(1.0, (tck[0], np.stack([tck[1], tck[1]]), 3))
    with pytest.raises(NotImplementedError, match="antiderivative\\(1\\)"):
        fi.BSpline(*si.splrep(X, Y[:, 0]))(1.0, -1)
