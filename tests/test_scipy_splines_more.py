"""``funcgrad.scipy.interpolate``: periodic ``make_interp_spline`` (and ``BSpline``'s
periodic extrapolation); least-squares splines (``make_lsq_spline``,
``LSQUnivariateSpline``, ``splrep`` with knots); FITPACK's smoothing spline (``splrep``
with ``s > 0``, ``UnivariateSpline``); the GCV smoothing spline
(``make_smoothing_spline``); parametric curves (``splprep`` with ``splev``/``splint``).
Values against SciPy's; derivatives against central differences of SciPy's own results
where SciPy's output is smooth in the input, and against the penalised least-squares
system SciPy's coefficients satisfy where the knots and ``p`` come from a search;
``vmap``, ``jit``, float32; the errors."""

import numpy as np
import pytest
import scipy.interpolate as si

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.interpolate as fi
from helpers import assert_close, check_dot_product, check_float32, check_vmap

RNG = np.random.default_rng(20261204)
X = np.sort(RNG.uniform(0.0, 10.0, 40))
Y = np.sin(X) + 0.2 * RNG.normal(size=40)
W = RNG.uniform(0.5, 2.0, 40)
Q = np.linspace(-1.0, 11.0, 25)


def jvp_matches_scipy(f, reference, args, rtol=1e-6, eps=1e-6, rng=RNG):
    """``fg.jvp(f)`` along a random direction equals central differences of
    ``reference`` (SciPy's own computation), and ``f``'s value equals ``reference``'s."""
    args = [np.asarray(a, np.float64) for a in args]
    vs = [rng.normal(size=a.shape) for a in args]
    value, tangent = fg.jvp(f, tuple(args), tuple(vs))
    assert_close(value, reference(*args), 1e-11, what="value")
    fd = (np.asarray(reference(*[a + eps * v for a, v in zip(args, vs)]))
          - np.asarray(reference(*[a - eps * v for a, v in zip(args, vs)]))) / (2 * eps)
    assert_close(tangent, fd, rtol, what="jvp vs central differences of SciPy's")


# --- periodic interpolation ---------------------------------------------------------------

def _periodic_data(n, columns=2):
    x = np.sort(RNG.uniform(0.0, 5.0, n))
    y = RNG.normal(size=(n, columns))
    y[-1] = y[0]
    return x, y


@pytest.mark.parametrize("k", range(7))
def test_periodic_make_interp_spline_is_scipys(k):
    for n in (2, 3, 4, 5, 8, 13):
        x, y = _periodic_data(n)
        try:
            want = si.make_interp_spline(x, y, k=k, bc_type="periodic")
        except Exception:  # (SciPy has no periodic spline of this degree on n points)
            continue
        got = fi.make_interp_spline(x, y, k=k, bc_type="periodic")
        assert got.extrapolate == want.extrapolate, (k, n)
        assert_close(got.t, want.t, 1e-15, what=f"k={k} n={n}: knots")
        assert_close(got.c, want.c, 1e-11, what=f"k={k} n={n}: coefficients")
        far = np.linspace(-7.0, 12.0, 41)  # (several periods either side)
        for nu in range(min(k, 2) + 1):  # (derivatives: rounding times the knot spacing)
            assert_close(got(far, nu), want(far, nu), 1e-12 if nu == 0 else 1e-11,
                         what=f"k={k} n={n} nu={nu}")
        for lo, hi in [(-3.3, 11.1), (0.2, 0.7), (4.0, -2.0)] if k else []:
            # (k=0 is SciPy's non-periodic step function, whose integral SciPy gets wrong
            # past x[-1]: make_interp_spline([1, 3], [2, 2], k=0).integrate(1, 3) is 0)
            assert_close(got.integrate(lo, hi), want.integrate(lo, hi), 1e-12,
                         what=f"k={k} n={n}: integral over [{lo}, {hi}]")
        anti_got, anti_want = got.antiderivative(), want.antiderivative()
        assert anti_got.extrapolate == anti_want.extrapolate  # (False: not periodic)
        if k:
            assert_close(anti_got(x), anti_want(x), 1e-12)


def test_step_spline_integral_past_its_repeated_end_knot():
    # (t = [1, 3, 3]: the antiderivative has three knots at 3, and its last piece is the
    # one that ends there; SciPy's own integral is 0 here)
    spline = fi.make_interp_spline(np.array([1.0, 3.0]), np.array([2.0, 2.0]), k=0)
    assert_close(spline.integrate(1.0, 3.0), 4.0, 1e-15)
    assert_close(spline.integrate(2.0, 4.0), 4.0, 1e-15)
    assert_close(spline.integrate(1.0, 2.0), si.make_interp_spline(
        np.array([1.0, 3.0]), np.array([2.0, 2.0]), k=0).integrate(1.0, 2.0), 1e-15)


def test_periodic_bspline_of_scipys_docstring_example():
    # (SciPy's make_interp_spline docstring: a degree-5 periodic spline along axis 1)
    phi = np.linspace(0, 2 * np.pi, 30)
    x, y = np.cos(phi), np.sin(phi)
    want = si.make_interp_spline(phi, np.c_[x, y], k=5, bc_type="periodic", axis=0)
    got = fi.make_interp_spline(phi, np.c_[x, y], k=5, bc_type="periodic", axis=0)
    q = np.linspace(-1.0, 8.0, 50)
    assert_close(got(q), want(q), 1e-13)
    assert_close(got(q, 1), want(q, 1), 1e-12)


def test_periodic_derivatives_in_data_sites_and_queries():
    _, y = _periodic_data(9, 1)
    y = y[:, 0]
    x = np.linspace(0.0, 5.0, 9) + RNG.uniform(-0.1, 0.1, 9)  # (well-spaced: SciPy's
    # differences are then accurate)
    q = np.linspace(-4.0, 9.0, 13)

    def keep_periodic(v):  # (a tangent that keeps y[0] == y[-1], as SciPy's check needs)
        v = np.array(v)
        v[-1] = v[0]
        return v

    for k in (2, 3, 4, 5):
        def f(y0, x, q):
            return fi.make_interp_spline(x, fnp.concatenate([y0, y0[:1]]), k=k,
                                         bc_type="periodic")(q)

        def reference(y0, x, q):
            return si.make_interp_spline(x, np.r_[y0, y0[:1]], k=k, bc_type="periodic")(q)
        jvp_matches_scipy(f, reference, [y[:-1], x, q], rtol=1e-6)
        check_dot_product(f, [y[:-1], x, q], RNG)
    # y[-1] must equal y[0] and is not read: no derivative there
    g = fg.grad(lambda y: fnp.sum(fi.make_interp_spline(x, y, bc_type="periodic")(q)))(y)
    assert float(g[-1]) == 0.0
    tangent = keep_periodic(RNG.normal(size=9))
    _, t = fg.jvp(lambda y: fi.make_interp_spline(x, y, bc_type="periodic")(q), (y,),
                  (tangent,))
    eps = 1e-6
    fd = (si.make_interp_spline(x, y + eps * tangent, bc_type="periodic")(q)
          - si.make_interp_spline(x, y - eps * tangent, bc_type="periodic")(q)) / (2 * eps)
    assert_close(t, fd, 1e-6)


def test_periodic_under_vmap_jit_and_float32():
    x, _ = _periodic_data(9)
    ys = RNG.normal(size=(3, 9))
    ys[:, -1] = ys[:, 0]
    q = np.linspace(-2.0, 7.0, 11)

    def f(y):
        return fi.make_interp_spline(x, y, k=3, bc_type="periodic")(q)
    check_vmap(f, [ys], [0])
    assert_close(fg.jit(f)(ys[0]),
                 si.make_interp_spline(x, ys[0], bc_type="periodic")(q), 1e-12)
    check_float32(lambda y, x: fi.make_interp_spline(x, y, k=3, bc_type="periodic")(
        np.float32(q)), [ys[0], x], graph=False)


def test_periodic_errors():
    x, y = _periodic_data(8)
    with pytest.raises(ValueError, match="First and last points does not match"):
        fi.make_interp_spline(x, y + np.arange(8)[:, None], bc_type="periodic")
    with pytest.raises(NotImplementedError, match="t is constructed automatically"):
        fi.make_interp_spline(x, y, bc_type="periodic", t=np.r_[[x[0]] * 3, x, [x[-1]] * 3])
    with pytest.raises(ValueError, match="extrapolate must be True, False or 'periodic'"):
        fi.BSpline(np.r_[0.0, 0, 1, 2, 2], np.ones(3), 1, extrapolate="wrap")


# --- least-squares splines -----------------------------------------------------------------

def _knots(k, inner=(2.0, 4.0, 5.5, 7.0)):
    return np.r_[[X[0]] * (k + 1), inner, [X[-1]] * (k + 1)]


@pytest.mark.parametrize("k", range(1, 6))
def test_make_lsq_spline_is_scipys(k):
    t = _knots(k)
    y2 = np.c_[Y, np.cos(X)]
    for w in (None, W):
        for method in ("qr", "norm-eq"):
            got = fi.make_lsq_spline(X, y2, t, k, w, method=method)
            want = si.make_lsq_spline(X, y2, t, k, w, method=method)
            assert_close(got.c, want.c, 1e-12, what=f"k={k} {method}")
            assert_close(got(Q), want(Q), 1e-12)
    got = fi.make_lsq_spline(X, y2.T, t, k, W, axis=1)
    assert_close(got(Q[:, None]), si.make_lsq_spline(X, y2.T, t, k, W, axis=1)(Q[:, None]),
                 1e-12)


def test_make_lsq_spline_derivatives_match_scipys_differences():
    # (well-spaced sites inside [0, 10]: a random step keeps them in order and inside)
    x = np.linspace(0.5, 9.5, 40) + RNG.uniform(-0.02, 0.02, 40)
    inner = np.array([2.0, 4.0, 5.5, 7.0])

    def f(x, y, w, inner):
        knots = fnp.concatenate([np.zeros(4), inner, np.full(4, 10.0)])
        return fi.make_lsq_spline(x, y, knots, 3, w)(Q[2:22:3])

    def reference(x, y, w, inner):
        return si.make_lsq_spline(x, y, np.r_[[0.0] * 4, inner, [10.0] * 4], 3, w)(
            Q[2:22:3])
    args = [x, Y, W, inner]
    jvp_matches_scipy(f, reference, args)
    check_dot_product(f, args, RNG)


def test_lsq_splines_under_vmap_jit_and_float32():
    t = _knots(3)
    ys = RNG.normal(size=(3, 40))
    check_vmap(lambda y, w: fi.make_lsq_spline(X, y, t, 3, w)(Q), [ys, np.stack([W] * 3)],
               [0, 0])
    assert_close(fg.jit(lambda y: fi.make_lsq_spline(X, y, t)(Q))(Y),
                 si.make_lsq_spline(X, Y, t)(Q), 1e-12)
    check_float32(lambda y: fi.make_lsq_spline(X.astype(np.float32), y,
                                               t.astype(np.float32))(Q.astype(np.float32)),
                  [Y], graph=False)


def test_splrep_with_knots_is_scipys_least_squares_spline():
    inner = np.array([2.0, 4.0, 6.0])
    for k in (1, 2, 3, 5):
        for w, xb, xe in [(None, None, None), (W, -1.0, 11.0)]:
            want, fp, ier, _ = si.splrep(X, Y, w, xb, xe, k, t=inner, full_output=1)
            (t, c, kk), fp_got, ier_got, _ = fi.splrep(X, Y, w, xb, xe, k, t=inner,
                                                        full_output=1)
            assert kk == k and ier_got == ier
            assert_close(t, want[0], 0.0)
            assert_close(c, want[1], 1e-12)
            assert_close(fp_got, fp, 1e-12)

    def f(y, w, inner):
        return fi.splev(Q[3:20:2], fi.splrep(X, y, w, t=inner))

    def reference(y, w, inner):
        return si.splev(Q[3:20:2], si.splrep(X, y, w, t=inner))
    jvp_matches_scipy(f, reference, [Y, W, inner])


# --- FITPACK's smoothing spline ------------------------------------------------------------

def _penalised_tangent(x, y, w, t, k, c, tangent_y, tangent_w):
    """The tangent of the coefficients of the penalised system ``(A'W'WA + lam B'B) c =
    A'W'Wy`` at SciPy's knots, ``lam`` read off SciPy's own ``c`` (independent of
    funcgrad's code: the jumps of the k-th derivative are computed here by differences
    of SciPy's BSpline)."""
    count = t.shape[0] - k - 1
    c = c[:count]
    a = si.BSpline.design_matrix(x, t, k).toarray()
    mids = (t[k:count] + t[k + 1:count + 1]) / 2
    pieces = si.BSpline(t, np.eye(count), k)(mids, k)  # (the k-th derivative, per piece)
    jumps = pieces[1:] - pieces[:-1]
    gap = a.T @ (w ** 2 * (y - a @ c))
    bent = jumps.T @ (jumps @ c)
    lam = float(gap @ bent) / float(bent @ bent)
    assert lam > 0
    normal = a.T @ (w[:, None] ** 2 * a) + lam * jumps.T @ jumps
    rhs_tangent = a.T @ (w ** 2 * tangent_y + 2 * w * tangent_w * (y - a @ c))
    return np.linalg.solve(normal, rhs_tangent)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_smoothing_splrep_is_scipys(k):
    rng = np.random.default_rng(k)
    for trial in range(6):
        m = int(rng.integers(10, 60))
        x = np.sort(rng.uniform(0.0, 10.0, m))
        y = np.sin(x) + 0.3 * rng.normal(size=m)
        w = rng.uniform(0.5, 2.0, m) if trial % 2 else None
        s = float(rng.uniform(0.02, 0.2)) * m
        want, fp, ier, _ = si.splrep(x, y, w, k=k, s=s, full_output=1)
        (t, c, kk), fp_got, ier_got, _ = fi.splrep(x, y, w, k=k, s=s, full_output=1)
        assert ier_got == ier and kk == k
        assert_close(t, want[0], 0.0, what=f"k={k} trial {trial}: knots")
        assert_close(c, want[1], 1e-12, what=f"k={k} trial {trial}: coefficients")
        assert_close(fp_got, fp, 1e-12, what=f"k={k} trial {trial}: fp")
        assert_close(fi.splev(Q, (t, c, k)), si.splev(Q, want), 1e-12)
    # the default smoothing with weights, and the ends moved
    for kwargs in [dict(w=W), dict(s=2.0, xb=-1.0, xe=11.0)]:
        want = si.splrep(X, Y, k=k, **kwargs)
        got = fi.splrep(X, Y, k=k, **kwargs)
        assert_close(got[0], want[0], 0.0)
        assert_close(got[1], want[1], 1e-11, what=str(kwargs))


def test_smoothing_splrep_derivative_is_scipys_with_p_moving_with_the_data():
    """FITPACK's p follows the data (fp(p) = s): the derivative is that of SciPy's result,
    central differences of SciPy's own splrep, not the penalised system's at a p held
    fixed (which is a few % off: it was once taken)."""
    for k, s, w in [(3, 2.0, None), (3, 3.0, W), (2, 1.5, W), (5, 1.5, None)]:
        weights = np.ones(40) if w is None else w
        t, c, _ = si.splrep(X, Y, w, k=k, s=s)
        while t.shape[0] < 2 * k + 4:  # (at least two interior knots: a penalty to fit)
            s /= 2
            t, c, _ = si.splrep(X, Y, w, k=k, s=s)
        jvp_matches_scipy(lambda y, w: fi.splev(Q, fi.splrep(X, y, w, k=k, s=s)),
                          lambda y, w: si.splev(Q, si.splrep(X, y, w, k=k, s=s)),
                          [Y, weights], rtol=1e-5)
        vy = RNG.normal(size=40)
        fixed = _penalised_tangent(X, Y, weights, t, k, c, vy, np.zeros(40))
        _, (_, tangent, _) = fg.jvp(lambda y: fi.splrep(X, y, weights, k=k, s=s), (Y,), (vy,))
        assert np.abs(np.asarray(tangent)[:fixed.shape[0]] - fixed).max() > 1e-6 * np.abs(
            fixed).max()  # (p held fixed is another derivative)
    # past the largest residual sum the fit is the least-squares polynomial (no interior
    # knots, no p): its derivative is SciPy's own by differences
    jvp_matches_scipy(lambda y, w: fi.splev(Q, fi.splrep(X, y, w, s=1e3)),
                      lambda y, w: si.splev(Q, si.splrep(X, y, w, s=1e3)), [Y, W])
    check_dot_product(lambda y, w: fi.splev(Q, fi.splrep(X, y, w, s=2.0)), [Y, W], RNG)


def test_univariate_splines_are_scipys():
    for kwargs in [dict(), dict(s=1.0), dict(w=W, k=2), dict(s=0), dict(k=4, s=0),
                   dict(bbox=[-1.0, 11.0], s=2.0, ext=3), dict(s=1e3, ext="zeros")]:
        want = si.UnivariateSpline(X, Y, **kwargs)
        got = fi.UnivariateSpline(X, Y, **kwargs)
        what = str(kwargs)
        # (an interpolant of noisy data extrapolated past close sites magnifies rounding
        # without bound: its queries stay inside the data)
        q = Q if kwargs.get("s") != 0 else Q[(Q >= X[0]) & (Q <= X[-1])]
        assert_close(got.get_knots(), want.get_knots(), 0.0, what=what)
        assert_close(got.get_coeffs(), want.get_coeffs(), 1e-12, what=what)
        assert_close(got.get_residual(), want.get_residual(), 1e-12, what=what)
        for nu in range(3):  # (Q reaches past the data: extrapolation magnifies)
            assert_close(got(q, nu), want(q, nu), 1e-11, what=f"{what} nu={nu}")
        for ext in (0, 1, 3):
            assert_close(got(q, ext=ext), want(q, ext=ext), 1e-11, what=f"{what} ext={ext}")
        assert_close(got.integral(1.0, 7.5), want.integral(1.0, 7.5), 1e-12)
        assert_close(got.derivatives(2.5), want.derivatives(2.5), 1e-12)
        assert_close(got.derivative()(q), want.derivative()(q), 1e-11)
        assert_close(got.antiderivative(2)(q), want.antiderivative(2)(q), 1e-11)
        if got._k == 3 and kwargs.get("s") != 0:  # (interpolating noise: a double root
            # can split or not a rounding apart)
            assert_close(got.roots(), want.roots(), 1e-12)
    got, want = fi.InterpolatedUnivariateSpline(X, Y, k=5), si.InterpolatedUnivariateSpline(
        X, Y, k=5)
    assert_close(got(Q), want(Q), 1e-11)
    inner = [2.0, 4.5, 7.0]
    got, want = fi.LSQUnivariateSpline(X, Y, inner, W), si.LSQUnivariateSpline(X, Y, inner, W)
    assert_close(got(Q), want(Q), 1e-12)
    assert_close(got.get_residual(), want.get_residual(), 1e-12)


def test_univariate_spline_derivatives():
    # the least-squares and interpolating splines: SciPy's own, by differences
    jvp_matches_scipy(lambda y, w, t: fi.LSQUnivariateSpline(X, y, t, w)(Q),
                      lambda y, w, t: si.LSQUnivariateSpline(X, y, t, w)(Q),
                      [Y, W, np.array([2.0, 4.5, 7.0])])
    spaced = np.linspace(0.0, 10.0, 40) + RNG.uniform(-0.05, 0.05, 40)  # (well-spaced
    # sites: random ones can sit close enough to make SciPy's differences inaccurate)
    jvp_matches_scipy(lambda x, y: fi.InterpolatedUnivariateSpline(x, y)(Q[2:20]),
                      lambda x, y: si.InterpolatedUnivariateSpline(x, y)(Q[2:20]),
                      [spaced, Y])
    # the smoothing spline: SciPy's, p moving with the data, as splrep's
    jvp_matches_scipy(lambda y, w: fi.UnivariateSpline(X, y, w, s=3.0)(Q),
                      lambda y, w: si.UnivariateSpline(X, y, w, s=3.0)(Q), [Y, W], rtol=1e-5)


def test_smoothing_searches_refuse_traced_sites_and_batches():
    with pytest.raises(TypeError, match="x carries a derivative"):
        fg.grad(lambda x: fnp.sum(fi.splrep(x, Y, s=2.0)[1]))(X)
    with pytest.raises(TypeError, match="x carries a derivative"):
        fg.grad(lambda x: fnp.sum(fi.UnivariateSpline(x, Y)(Q)))(X)
    with pytest.raises(fg.ConcretizationError, match="knot search"):
        fg.vmap(lambda y: fi.splrep(X, y, s=2.0)[1])(np.stack([Y, Y]))
    with pytest.raises(NotImplementedError, match="per=1"):
        fi.splrep(X, Y, per=1)
    with pytest.raises(NotImplementedError, match="task=1"):
        fi.splrep(X, Y, s=1.0, task=1)
    with pytest.raises(ValueError, match="Schoenberg-Whitney"):
        gap = (X[20] + X[21]) / 2 + np.linspace(-1, 1, 8) * (X[21] - X[20]) / 4
        fi.make_lsq_spline(X, Y, np.r_[[X[0]] * 4, gap, [X[-1]] * 4])
    with pytest.raises(ValueError, match="Unknown extrapolation mode"):
        fi.UnivariateSpline(X, Y, ext="wrap")


# --- the GCV smoothing spline --------------------------------------------------------------

def test_make_smoothing_spline_is_scipys():
    # (SciPy's docstring example: noisy sin, GCV's lam)
    rng = np.random.default_rng(0)
    x = np.linspace(-3, 3, 50)
    y = np.exp(-x ** 2) + 0.1 * rng.standard_normal(50)
    q = np.linspace(-3.5, 3.5, 31)
    assert_close(fi.make_smoothing_spline(x, y)(q), si.make_smoothing_spline(x, y)(q), 1e-12)
    for lam in (0.0, 0.01, 3.0):
        got, want = fi.make_smoothing_spline(x, y, lam=lam), si.make_smoothing_spline(
            x, y, lam=lam)
        assert_close(got.t, want.t, 0.0)
        assert_close(got.c, want.c, 1e-12, what=f"lam={lam}")
    y2 = np.c_[y, np.cos(x) + 0.05 * rng.standard_normal(50)]
    w = rng.uniform(0.5, 2.0, 50)
    assert_close(fi.make_smoothing_spline(x, y2, w)(q), si.make_smoothing_spline(x, y2, w)(q),
                 1e-12)
    assert_close(fi.make_smoothing_spline(x, y2.T, axis=1, lam=0.2)(q),
                 si.make_smoothing_spline(x, y2.T, axis=1, lam=0.2)(q), 1e-12)


def test_make_smoothing_spline_derivatives_at_fixed_lam():
    x = np.linspace(0.0, 5.0, 15) + RNG.uniform(-0.05, 0.05, 15)  # (well-spaced sites:
    # near-coincident ones make the system ill-conditioned, SciPy's banded solve too)
    y = np.cos(x) + 0.1 * RNG.normal(size=15)
    w = RNG.uniform(0.5, 2.0, 15)
    q = np.linspace(-0.5, 5.5, 9)

    def f(x, y, w, lam):
        return fi.make_smoothing_spline(x, y, w, lam)(q)

    def reference(x, y, w, lam):
        return si.make_smoothing_spline(x, y, w, float(lam))(q)
    args = [x, y, w, np.array(0.05)]
    jvp_matches_scipy(f, reference, args)
    check_dot_product(f, args, RNG)
    # lam=None: SciPy's GCV choice of lam moves with the data, so no derivative is given
    with pytest.raises(TypeError, match="lam=None"):
        fg.jvp(lambda y: fi.make_smoothing_spline(x, y, w)(q), (y,), (RNG.normal(size=15),))
    check_vmap(lambda y: f(x, y, w, 0.05), [RNG.normal(size=(3, 15))], [0])
    assert_close(fg.jit(lambda y: f(x, y, w, 0.05))(y), reference(x, y, w, 0.05), 1e-12)
    with pytest.raises(fg.ConcretizationError, match="GCV"):
        fg.vmap(lambda y: fi.make_smoothing_spline(x, y)(q))(RNG.normal(size=(2, 15)))
    with pytest.raises(ValueError, match="at least 5"):
        fi.make_smoothing_spline(x[:4], y[:4])
    with pytest.raises(ValueError, match="non-negative"):
        fi.make_smoothing_spline(x, y, lam=-1.0)


# --- parametric curves ---------------------------------------------------------------------

ANGLE = np.sort(RNG.uniform(0.0, 6.0, 25))
CURVE = [np.cos(ANGLE) + 0.05 * RNG.normal(size=25), np.sin(ANGLE), 0.3 * ANGLE]


@pytest.mark.parametrize("kwargs", [
    dict(s=0), dict(s=0, k=5), dict(), dict(s=0.05, w=W[:25]),
    dict(s=0, u=ANGLE, ub=-1.0, ue=7.0), dict(s=0.01, u=ANGLE),
    dict(t=np.r_[[0.0] * 4, 0.3, 0.6, [1.0] * 4], task=-1), dict(s=0.05, u=ANGLE, k=2)],
    ids=["interp", "interp-k5", "default-s", "weights", "u-ub-ue", "u-smooth", "lsq",
         "k2"])
def test_splprep_is_scipys(kwargs):
    (want, u_want), fp, ier, _ = si.splprep(CURVE, full_output=1, **kwargs)
    (got, u_got), fp_got, ier_got, _ = fi.splprep(CURVE, full_output=1, **kwargs)
    assert ier_got == ier and got[2] == want[2]
    assert_close(u_got, u_want, 1e-15)
    assert_close(got[0], want[0], 0.0)
    assert len(got[1]) == 3
    # (ub, ue far outside the data make the interpolation ill-conditioned: 1e-10 there)
    tol = 1e-10 if "ub" in kwargs else 1e-12
    for a, b in zip(got[1], want[1]):
        assert_close(a, b, tol)
    assert_close(fp_got, fp, 1e-12, atol=1e-14)
    q = np.linspace(0.0, 1.0, 11)
    for der in (0, 1):
        for a, b in zip(fi.splev(q, got, der), si.splev(q, want, der)):
            assert_close(a, b, 1e-11 if tol < 1e-11 else tol)
    for a, b in zip(fi.splint(0.1, 0.8, got), si.splint(0.1, 0.8, want)):
        assert_close(a, b, 1e-12)


def test_splprep_derivatives():
    q = np.linspace(0.05, 0.95, 7)

    def f(a, b, c):  # (s=0: u, the knots and the coefficients all move with the points)
        tck, u = fi.splprep([a, b, c], s=0)
        return fnp.stack(fi.splev(q, tck))

    def reference(a, b, c):
        tck, u = si.splprep([a, b, c], s=0)
        return np.stack(si.splev(q, tck))
    jvp_matches_scipy(f, reference, CURVE)
    check_dot_product(f, CURVE, RNG)
    knots = np.r_[[0.0] * 4, 0.3, 0.6, [1.0] * 4]

    def g(a, b, c, w):
        tck, u = fi.splprep([a, b, c], w, u=ANGLE / 6, t=knots, task=-1)
        return fnp.stack(fi.splev(q, tck))

    def reference_g(a, b, c, w):
        tck, u = si.splprep([a, b, c], w, u=ANGLE / 6, t=knots, task=-1)
        return np.stack(si.splev(q, tck))
    jvp_matches_scipy(g, reference_g, CURVE + [W[:25]])
    check_vmap(lambda a: fnp.stack(fi.splev(q, fi.splprep([a, CURVE[1]], s=0)[0])),
               [np.stack([CURVE[0], CURVE[2]])], [0])
    # s > 0 with u given: SciPy's, p moving with the points
    jvp_matches_scipy(lambda a: fnp.stack(fi.splev(q, fi.splprep([a] + CURVE[1:], u=ANGLE,
                                                                 s=0.05)[0])),
                      lambda a: np.stack(si.splev(q, si.splprep([a] + CURVE[1:], u=ANGLE,
                                                                s=0.05)[0])),
                      [CURVE[0]], rtol=1e-5)