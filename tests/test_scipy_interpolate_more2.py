"""``funcgrad.scipy.interpolate``, the rest: SciPy 1.15's ``make_splrep``,
``make_splprep`` and ``generate_knots``; ``NdBSpline`` and ``NdPPoly``; the bivariate
splines of scattered data and on the sphere; the removed ``interp2d``.  Values against
SciPy's; derivatives (``fg.jvp`` along a random direction) against central differences
of SciPy's own results; float32 and the errors."""

import warnings

import numpy as np
import pytest
import scipy.interpolate as si

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.interpolate as fi
from helpers import assert_close, check_float32, check_vmap

RNG = np.random.default_rng(20261205)


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


def assert_close_complex(actual, expected, rtol, what=""):
    """``assert_close`` of the real and the imaginary parts (it compares real arrays)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert np.iscomplexobj(actual) == np.iscomplexobj(expected), what
    scale = max(1.0, float(np.max(np.abs(expected), initial=0.0)))
    for part in (np.real, np.imag):
        assert_close(part(actual), part(expected), rtol, what=what, scale=scale)


# --- make_splrep, make_splprep, generate_knots ----------------------------------------------

X = np.linspace(0.0, 3.0, 25)
Y = np.sin(2 * X) + 0.1 * RNG.standard_normal(25)
W = 1.0 + 0.1 * RNG.random(25)
QUERY = np.linspace(-0.2, 3.1, 7)
ANGLE = np.linspace(0.0, np.pi, 12)
CURVE = np.array([np.cos(ANGLE), np.sin(ANGLE)]) + 0.01 * RNG.standard_normal((2, 12))
U = np.linspace(0.0, 1.0, 12) ** 1.1
TK = np.array([0.0] * 4 + [1.0, 2.0] + [3.0] * 4)


def _ours_splrep(**kw):
    return lambda x, y, w: fi.make_splrep(x, y, w=w, **kw)(QUERY)


def _scipys_splrep(**kw):
    return lambda x, y, w: si.make_splrep(x, y, w=w, **kw)(QUERY)


def _ours_splprep(**kw):
    return lambda p, w: fi.make_splprep(p, w=w, **kw)[0](QUERY / 3)


def _scipys_splprep(**kw):
    return lambda p, w: si.make_splprep(p, w=w, **kw)[0](QUERY / 3)


# (s picks the branch: 0.05 and 0.2 iterate on p with interior knots, 5.0 stops at the
# polynomial, 1e-3 ends on the interpolating knots (k=2: at midpoints); the derivatives
# follow SciPy's p)
SMOOTHING = {
    "splrep-s0.2": (_ours_splrep(s=0.2), _scipys_splrep(s=0.2), (X, Y, W)),
    "splrep-s0.05-k2": (_ours_splrep(s=0.05, k=2), _scipys_splrep(s=0.05, k=2), (X, Y, W)),
    "splrep-s1e-3-k2-all-knots": (_ours_splrep(s=1e-3, k=2), _scipys_splrep(s=1e-3, k=2),
                                  (X, Y, W)),
    "splrep-s5-poly": (_ours_splrep(s=5.0), _scipys_splrep(s=5.0), (X, Y, W)),
    "splrep-xb-xe": (lambda x, y, w: fi.make_splrep(x, y, w=w, s=0.3, xb=-0.5, xe=3.5)(QUERY),
                     lambda x, y, w: si.make_splrep(x, y, w=w, s=0.3, xb=-0.5, xe=3.5)(QUERY),
                     (X, Y, W)),
    "splrep-given-t": (lambda y, w: fi.make_splrep(X, y, w=w, s=0.2, t=TK)(QUERY),
                       lambda y, w: si.make_splrep(X, y, w=w, s=0.2, t=TK)(QUERY), (Y, W)),
    "splprep-s0.001": (_ours_splprep(s=0.001), _scipys_splprep(s=0.001), (CURVE, np.ones(12))),
    "splprep-s0.01-u": (lambda p, w: fi.make_splprep(p, w=w, u=U, s=0.01)[0](QUERY / 3),
                        lambda p, w: si.make_splprep(p, w=w, u=U, s=0.01)[0](QUERY / 3),
                        (CURVE, 1 + 0.1 * np.arange(12.0))),
}


@pytest.mark.parametrize("name", SMOOTHING)
def test_smoothing_splines_are_scipys_and_differentiate_as_scipys(name):
    ours, scipys, args = SMOOTHING[name]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (none of these stops short of fp = s)
        jvp_matches_scipy(ours, scipys, args, rtol=1e-6)


def test_smoothing_spline_knots_coefficients_and_interpolation_are_scipys():
    got, want = fi.make_splrep(X, Y, s=0.05), si.make_splrep(X, Y, s=0.05)
    assert got.k == want.k and len(want.t) > 8
    assert_close(got.t, want.t, 0.0, what="knots")
    assert_close(got.c, want.c, 1e-12, what="coefficients")
    spl, u = fi.make_splprep(list(CURVE), s=0.001)
    ref, uref = si.make_splprep(list(CURVE), s=0.001)
    assert_close(u, uref, 1e-14, what="u")
    assert spl.c.shape == ref.c.shape and spl(u).shape == ref(uref).shape == (2, 12)
    assert_close(spl.c, ref.c, 1e-12, what="curve coefficients")
    # s=0: the interpolating spline, differentiable in x
    jvp_matches_scipy(lambda x, y: fi.make_splrep(x, y)(QUERY),
                      lambda x, y: si.make_splrep(x, y)(QUERY), (X, Y))


def test_generate_knots_are_scipys_and_move_with_the_sites():
    for s, k in ((0.01, 3), (1e-6, 2), (0.0, 3)):
        got = list(fi.generate_knots(X, Y, s=s, k=k))
        want = list(si.generate_knots(X, Y, s=s, k=k))
        assert len(got) == len(want)
        for g, w_ in zip(got, want):
            assert_close(g, w_, 0.0, what=f"knots s={s}")
    jvp_matches_scipy(lambda x: list(fi.generate_knots(x, Y, s=0.05))[-1],
                      lambda x: list(si.generate_knots(x, Y, s=0.05))[-1], (X,))


def test_smoothing_spline_float32():
    spl = fi.make_splrep(X.astype(np.float32), Y.astype(np.float32), s=0.2)
    assert spl.c.dtype == spl.t.dtype == np.float32
    assert_close(spl(QUERY), si.make_splrep(X, Y, s=0.2)(QUERY), 1e-5, what="float32")
    g = fg.grad(lambda y: fi.make_splrep(X.astype(np.float32), y, s=0.2)(1.0))(
        Y.astype(np.float32))
    assert g.dtype == np.float32


def test_smoothing_spline_errors():
    with pytest.raises(ValueError, match="interpolation only"):
        fi.make_splrep(X, Y, w=W)
    with pytest.raises(NotImplementedError, match="periodic"):
        fi.make_splrep(X, Y, s=0.1, bc_type="periodic")
    with pytest.raises(ValueError, match="ordered"):
        fi.make_splrep(X[::-1], Y, s=0.1)
    with pytest.raises(ValueError, match="non-negative"):
        fi.make_splrep(X, Y, s=0.1, w=-W)
    with pytest.raises(fg.ConcretizationError, match="vmap or jit"):
        fg.vmap(lambda y: fi.make_splrep(X, y, s=0.1)(1.0))(np.stack([Y, Y]))
    with pytest.warns(RuntimeWarning, match="maximal number of iterations|theoretically"):
        fi.make_splrep(X, Y, s=1e-9, t=TK)


# --- NdBSpline, NdPPoly -------------------------------------------------------------------

TX = np.array([0.0] * 4 + [0.7, 1.5, 2.2] + [3.0] * 4)
TY = np.array([-1.0] * 3 + [0.2] + [1.0] * 3)
CND = RNG.standard_normal((7, 4, 2))
XI = np.c_[RNG.uniform(-0.2, 3.2, 6), RNG.uniform(-1.1, 1.1, 6)]
XI[0], XI[1] = [3.0, 1.0], [0.7, 0.2]  # (the far corner; a knot in each dimension)
PX = (np.array([0.0, 1.0, 2.5]), np.array([-1.0, 0.0, 0.5, 2.0]))
CPP = RNG.standard_normal((3, 2, 2, 3, 2))
PTS = np.c_[RNG.uniform(-0.5, 3.0, 5), RNG.uniform(-1.5, 2.5, 5)]
PTS[0], PTS[1] = [2.5, 2.0], [1.0, 0.5]
# (for the derivatives, no point on an interior knot: a query's derivative there is one
# side's, where central differences straddle the kink)
XS, PS = np.delete(XI, 1, axis=0), np.delete(PTS, 1, axis=0)


NDSPLINES = {
    "ndbspline": (lambda c, xi: fi.NdBSpline((TX, TY), c, (3, 2))(xi),
                  lambda c, xi: si.NdBSpline((TX, TY), c, (3, 2))(xi), (CND, XS)),
    "ndbspline-nu": (lambda c, xi: fi.NdBSpline((TX, TY), c, (3, 2))(xi, nu=[1, 2]),
                     lambda c, xi: si.NdBSpline((TX, TY), c, (3, 2))(xi, nu=[1, 2]),
                     (CND, XS)),
    "ndbspline-knots": (  # (the interior knots move)
        lambda inner: fi.NdBSpline((fnp.concatenate([TX[:4], inner, TX[7:]]), TY), CND,
                                   (3, 2))(XS[1:]),
        lambda inner: si.NdBSpline((np.r_[TX[:4], inner, TX[7:]], TY), CND, (3, 2))(XS[1:]),
        (TX[4:7],)),
    "ndbspline-derivative": (
        lambda c: fi.NdBSpline((TX, TY), c, (3, 2)).derivative([2, 1]).c,
        lambda c: si.NdBSpline((TX, TY), c, (3, 2)).derivative([2, 1]).c, (CND,)),
    "design_matrix": (lambda xi: fi.NdBSpline.design_matrix(xi, (TX, TY), (3, 2)),
                      lambda xi: si.NdBSpline.design_matrix(xi, (TX, TY), (3, 2)).toarray(),
                      (XS,)),  # (with XS[0] on the far corner, SciPy's CSR shape, which
    # ends at its last nonzero column, is the whole)
    "ndppoly": (lambda c, x: fi.NdPPoly(c, PX)(x), lambda c, x: si.NdPPoly(c, PX)(x),
                (CPP, PS)),
    "ndppoly-nu": (lambda c, x: fi.NdPPoly(c, PX)(x, nu=[1, 1]),
                   lambda c, x: si.NdPPoly(c, PX)(x, nu=[1, 1]), (CPP, PS)),
    "ndppoly-breaks": (lambda b: fi.NdPPoly(CPP, (b, PX[1]))(PS[1:]),
                       lambda b: si.NdPPoly(CPP, (b, PX[1]))(PS[1:]), (PX[0],)),
    "ndppoly-antiderivative": (lambda c, x: fi.NdPPoly(c, PX).antiderivative([1, 2])(x),
                               lambda c, x: si.NdPPoly(c, PX).antiderivative([1, 2])(x),
                               (CPP, PS)),
    "ndppoly-integrate_1d": (
        lambda c, a: fi.NdPPoly(c, PX).integrate_1d(a[0], a[1], 1)(PS[:, :1]),
        lambda c, a: si.NdPPoly(c, PX).integrate_1d(a[0], a[1], 1)(PS[:, :1]),
        (CPP, np.array([0.2, 2.1]))),
    "ndppoly-integrate": (
        lambda c, a: fi.NdPPoly(c, PX).integrate([(a[0], a[1]), (a[2], a[3])]),
        lambda c, a: si.NdPPoly(c, PX).integrate([(a[0], a[1]), (a[2], a[3])]),
        (CPP, np.array([0.2, 2.1, -0.5, 1.7]))),
}


@pytest.mark.parametrize("name", NDSPLINES)
def test_nd_splines_are_scipys_and_differentiate_as_scipys(name):
    ours, scipys, args = NDSPLINES[name]
    jvp_matches_scipy(ours, scipys, args, rtol=1e-6, value_rtol=1e-12)


def test_nd_splines_on_knots_extrapolate_false_and_degree_past_derivative():
    for ours, scipys in ((fi.NdBSpline((TX, TY), CND, (3, 2)),
                          si.NdBSpline((TX, TY), CND, (3, 2))),
                         (fi.NdPPoly(CPP, PX), si.NdPPoly(CPP, PX))):
        assert_close(ours(XI, nu=[1, 1]), scipys(XI, nu=[1, 1]), 1e-12, what="on the knots")
        got, want = ours(XI * 1.1, extrapolate=False), scipys(XI * 1.1, extrapolate=False)
        assert np.array_equal(np.isnan(got), np.isnan(want)) and np.isnan(want).any()
        assert_close(got, want, 1e-12, equal_nan=True, what="extrapolate=False")
    past = fi.NdBSpline((TX, TY), CND, (3, 2)).derivative([4, 0])
    want = si.NdBSpline((TX, TY), CND, (3, 2)).derivative([4, 0])
    assert past.k == (0, 2) and past.c.shape == want.c.shape and not np.any(past(XI))
    t3 = np.array([0.0, 0.0, 1.0, 2.0, 2.0])  # (3-d, one point of shape (3,))
    c3 = RNG.standard_normal((3, 3, 3))
    assert_close(fi.NdBSpline((t3,) * 3, c3, 1)(np.array([0.3, 1.2, 1.9])),
                 si.NdBSpline((t3,) * 3, c3, 1)([0.3, 1.2, 1.9]), 1e-14, what="3-d")


def test_nd_splines_vmap_and_float32():
    check_vmap(lambda c, xi: fi.NdBSpline((TX, TY), c, (3, 2))(xi), [np.stack([CND, -CND]), XI],
               (0, None))
    check_vmap(lambda c, x: fi.NdPPoly(c, PX)(x), [CPP, np.stack([PTS, PTS[::-1]])], (None, 0))
    check_float32(lambda c, xi, tx, ty: fi.NdBSpline((tx, ty), c, (3, 2))(xi),
                  [CND, XI, TX, TY], rtol=1e-5)
    check_float32(lambda c, x, b0, b1: fi.NdPPoly(c, (b0, b1))(x), [CPP, PTS, *PX], rtol=1e-5)


def test_nd_spline_errors_and_interp2d():
    with pytest.raises(ValueError, match="tuple"):
        fi.NdBSpline([TX, TY], CND, 3)
    with pytest.raises(ValueError, match="inconsistent"):
        fi.NdBSpline((TX, TY), CND[:5], (3, 2))
    with pytest.raises(ValueError, match="Shapes"):
        fi.NdBSpline((TX, TY), CND, (3, 2))(np.ones((2, 3)))
    with pytest.raises(ValueError, match="invalid number of derivative orders"):
        fi.NdPPoly(CPP, PX)(PTS, nu=[1])
    with pytest.raises(ValueError, match="cannot be negative"):
        fi.NdPPoly(CPP, PX)(PTS, nu=[-1, 0])
    with pytest.raises(ValueError, match="number of intervals"):
        fi.NdPPoly(CPP[:, :, :1], PX)
    with pytest.raises(NotImplementedError, match="RectBivariateSpline"):
        fi.interp2d(X[:4], X[:4], np.ones((4, 4)))


# --- bivariate splines of scattered data, and on the sphere --------------------------------

BX, BY = RNG.uniform(0.0, 1.0, 60), RNG.uniform(0.0, 2.0, 60)
BZ = np.sin(3 * BX) * np.cos(2 * BY) + 0.01 * RNG.standard_normal(60)
BW = 1.0 + 0.1 * RNG.random(60)
# (the box given: SciPy 1.17's surfit_lsq puts the left ends of the default box away from
# min(x), min(y) (e.g. -0.06 for tx=[0.3, 0.6], whatever the data), where its docs and
# funcgrad put them at the data's extent; the spline on the data is the same either way)
BOX = [float(BX.min()), float(BX.max()), float(BY.min()), float(BY.max())]
KX, KY = np.array([0.3, 0.6]), np.array([0.5, 1.0, 1.5])
QX, QY = np.linspace(0.05, 0.95, 4), np.linspace(0.1, 1.9, 5)


def _lsq(mod):
    return lambda z, w, x, tx: mod.LSQBivariateSpline(x, BY, z, tx, KY, w=w, bbox=BOX)


BIVARIATE = {
    "lsq-grid": (lambda *a: _lsq(fi)(*a)(QX, QY), lambda *a: _lsq(si)(*a)(QX, QY)),
    "lsq-ev-dx-dy": (lambda *a: _lsq(fi)(*a).ev(QX, QY[:4], dx=1, dy=2),
                     lambda *a: _lsq(si)(*a).ev(QX, QY[:4], dx=1, dy=2)),
    "lsq-integral": (lambda *a: _lsq(fi)(*a).integral(0.1, 0.8, 0.2, 1.7),
                     lambda *a: _lsq(si)(*a).integral(0.1, 0.8, 0.2, 1.7)),
    "lsq-coeffs-residual": (
        lambda *a: fnp.concatenate([_lsq(fi)(*a).get_coeffs(),
                                    fnp.reshape(_lsq(fi)(*a).get_residual(), (1,))]),
        lambda *a: np.r_[_lsq(si)(*a).get_coeffs(), _lsq(si)(*a).get_residual()]),
    "lsq-partial_derivative": (lambda *a: _lsq(fi)(*a).partial_derivative(1, 1)(QX, QY),
                               lambda *a: _lsq(si)(*a).partial_derivative(1, 1)(QX, QY)),
}


@pytest.mark.parametrize("name", BIVARIATE)
def test_lsq_bivariate_spline_is_scipys_and_differentiates_as_scipys(name):
    ours, scipys = BIVARIATE[name]
    # (the sites move by 1e-6 at most: x stays inside the box)
    jvp_matches_scipy(ours, scipys, (BZ, BW, np.clip(BX, BOX[0] + 1e-4, BOX[1] - 1e-4), KX),
                      rtol=1e-6, value_rtol=1e-10)


FITTED = {  # (FITPACK's searches: SciPy's knots and coefficients, our evaluation)
    "smooth": (lambda mod: mod.SmoothBivariateSpline(BX, BY, BZ, w=BW, s=0.05), QX, QY),
    "smooth-sphere": (lambda mod: mod.SmoothSphereBivariateSpline(
        BX * 3.0 + 0.05, BY * 3.1, np.cos(BX * 3.0), s=0.5), np.linspace(0, np.pi, 4),
        np.linspace(0, 2 * np.pi, 5)),
    "lsq-sphere": (lambda mod: mod.LSQSphereBivariateSpline(
        BX * 3.0 + 0.05, BY * 3.1, np.cos(BX * 3.0), [1.0, 2.0], [2.0, 4.0]),
        np.linspace(0, np.pi, 4), np.linspace(0, 2 * np.pi, 5)),
    "rect-sphere-poles": (lambda mod: mod.RectSphereBivariateSpline(
        np.linspace(0.3, 2.8, 6), np.linspace(0.2, 6.0, 7),
        np.cos(np.linspace(0.3, 2.8, 6))[:, None] + np.sin(np.linspace(0.2, 6.0, 7)) / 5,
        pole_continuity=True, pole_values=(1.0, -1.0)), np.linspace(0, np.pi, 4),
        np.linspace(-1.0, 8.0, 5)),
}


@pytest.mark.parametrize("name", FITTED)
def test_fitted_bivariate_splines_are_scipys_and_differentiable_in_the_points(name):
    make, qa, qb = FITTED[name]
    ours, scipys = make(fi), make(si)
    for a, b in zip(ours.get_knots(), scipys.get_knots()):
        assert_close(a, b, 0.0, what="knots")
    assert_close(ours.get_residual(), scipys.get_residual(), 0.0, what="fp")
    for order in ((0, 0), (1, 1), (0, 2)):
        assert_close(ours(qa, qb, *order), scipys(qa, qb, *order), 1e-12, atol=1e-13,
                     what=f"derivative {order}")
    jvp_matches_scipy(lambda a, b: ours.ev(a, b), lambda a, b: scipys.ev(a, b),
                      (qa[1:3], qb[1:3]), rtol=1e-6, value_rtol=1e-12)


def test_bivariate_float32_vmap_and_errors():
    check_float32(lambda z, x, y: fi.LSQBivariateSpline(x, y, z, KX, KY, bbox=BOX)(QX, QY),
                  [BZ, BX, BY], rtol=1e-4)
    check_vmap(lambda z: fi.LSQBivariateSpline(BX, BY, z, KX, KY).ev(QX, QY[:4]),
               [np.stack([BZ, BZ ** 2])], (0,))
    with pytest.raises(TypeError, match="plain numbers"):
        fg.grad(lambda z: fi.SmoothBivariateSpline(BX, BY, z, s=0.1).ev(0.5, 0.5))(BZ)
    with pytest.raises(ValueError, match="rank deficient"):
        fi.LSQBivariateSpline(BX, BY, BZ, np.linspace(0.1, 0.9, 12), KY)
    with pytest.raises(ValueError, match="same length"):
        fi.LSQBivariateSpline(BX, BY[:-1], BZ, KX, KY)
    with pytest.raises(ValueError, match="theta out of bounds"):
        FITTED["lsq-sphere"][0](fi)(np.array([4.0]), np.array([1.0]))
    with pytest.raises(AttributeError, match="integral"):
        FITTED["lsq-sphere"][0](fi).integral(0, 1, 0, 1)


# --- FloaterHormannInterpolator, AAA --------------------------------------------------------

FHX = np.linspace(-5.0, 5.0, 15)
FHY = 1.0 / (1.0 + FHX ** 2)
FHZ = np.array([-6.0, -4.7, -1.3, 0.2, 2.9, 5.5])
AX = np.linspace(-1.0, 1.0, 50)
AY = np.exp(AX) / (AX - 2.0)
AZ = np.linspace(-0.9, 0.8, 5)

RATIONAL = {
    "floater-hormann": (lambda x, y, z: fi.FloaterHormannInterpolator(x, y)(z),
                        lambda x, y, z: si.FloaterHormannInterpolator(x, y)(z),
                        (FHX, FHY, FHZ), 1e-6),
    "floater-hormann-d1-2d": (
        lambda x, y, z: fi.FloaterHormannInterpolator(x, y, d=1, axis=1)(z),
        lambda x, y, z: si.FloaterHormannInterpolator(x, y, d=1, axis=1)(z),
        (FHX, np.stack([FHY, np.sin(FHX)]), FHZ[:, None]), 1e-6),
    "floater-hormann-weights": (lambda x: fi.FloaterHormannInterpolator(x, FHY).weights,
                                lambda x: si.FloaterHormannInterpolator(x, FHY).weights,
                                (FHX,), 1e-6),
    # (rtol=1e-4 stops AAA at 4 support points, a choice that perturbations of 1e-8 keep;
    # tighter fits of this smooth data are re-chosen by much smaller ones)
    "aaa": (lambda x, y, z: fi.AAA(x, y, rtol=1e-4)(z),
            lambda x, y, z: si.AAA(x, y, rtol=1e-4)(z), (AX, AY, AZ), 1e-8),
    "aaa-weights": (lambda y: fi.AAA(AX, y, rtol=1e-4).weights,
                    lambda y: si.AAA(AX, y, rtol=1e-4).weights, (AY,), 1e-8),
}


@pytest.mark.parametrize("name", RATIONAL)
def test_rational_interpolants_are_scipys_and_differentiate_as_scipys(name):
    ours, scipys, args, eps = RATIONAL[name]
    jvp_matches_scipy(ours, scipys, args, rtol=1e-5, eps=eps, value_rtol=1e-10)


def test_rational_on_support_points_poles_residues_roots_and_clean_up():
    # (on a point: the value, and the interpolant's derivatives, to second order)
    ref = si.FloaterHormannInterpolator(FHX, FHY)
    r = fi.FloaterHormannInterpolator(FHX, FHY)
    h = 1e-4
    assert_close(r(FHX[4]), FHY[4], 1e-15, what="value on a point")
    assert_close(fg.grad(r)(FHX[4]), (ref(FHX[4] + 1e-7) - ref(FHX[4] - 1e-7)) / 2e-7,
                 1e-6, what="slope on a point")
    assert_close(fg.grad(fg.grad(r))(FHX[4]),
                 (ref(FHX[4] + h) - 2 * ref(FHX[4]) + ref(FHX[4] - h)) / h ** 2, 1e-5,
                 what="curvature on a point")
    ours, scipys = fi.AAA(AX, AY), si.AAA(AX, AY)
    assert_close(ours.support_points, scipys.support_points, 0.0, what="support points")
    assert_close(ours.weights, scipys.weights, 1e-12, what="weights")
    assert_close(ours.errors, scipys.errors, 0.0, what="errors")
    for method in ("poles", "residues", "roots"):
        got, want = getattr(ours, method)(), getattr(scipys, method)()
        assert_close_complex(np.sort_complex(got), np.sort_complex(want), 1e-8, what=method)
    # complex data (the tangent of z / 2 on the unit circle)
    z = np.exp(1j * np.linspace(0.0, 2 * np.pi, 40, endpoint=False))
    ours, scipys = fi.AAA(z, np.tan(z / 2)), si.AAA(z, np.tan(z / 2))
    assert_close_complex(ours.weights, scipys.weights, 1e-12, what="complex weights")
    assert_close_complex(ours(0.8 * z[:5]), scipys(0.8 * z[:5]), 1e-12, what="complex")


@pytest.mark.soak
def test_aaa_clean_up_removes_scipys_froissart_doublets():
    # complex data, and clean_up removing Froissart doublets (SciPy's example: with
    # rtol=0 the fit stagnates, its smallest singular values are many and tiny, so the
    # weights are not unique and only the approximation is compared)
    z = np.exp(2j * np.pi * np.linspace(0.0, 1.0, 1000))
    f = np.log(2 + z ** 4) / (1 - 16 * z ** 4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        ours = fi.AAA(z, f, rtol=0, max_terms=50, clean_up=False)
        scipys = si.AAA(z, f, rtol=0, max_terms=50, clean_up=False)
        assert ours.clean_up() == scipys.clean_up() > 0
    assert_close_complex(ours.support_points, scipys.support_points, 0.0,
                         what="cleaned points")
    assert_close_complex(ours(0.9 * z[:7]), scipys(0.9 * z[:7]), 1e-10,
                         what="cleaned values")


def test_rational_float32_vmap_and_errors():
    check_float32(lambda x, y, z: fi.FloaterHormannInterpolator(x, y)(z), [FHX, FHY, FHZ],
                  rtol=1e-4)
    check_vmap(lambda y, z: fi.FloaterHormannInterpolator(FHX, y)(z),
               [np.stack([FHY, FHY ** 2]), FHZ], (0, None))
    with pytest.raises(ValueError, match="0 <= d < n"):
        fi.FloaterHormannInterpolator(FHX, FHY, d=15)
    with pytest.raises(ValueError, match="max_terms"):
        fi.AAA(AX, AY, max_terms=0)
    with pytest.raises(fg.ConcretizationError, match="vmap or jit"):
        fg.vmap(lambda y: fi.AAA(AX, y)(0.5))(np.stack([AY, AY]))
    with pytest.raises(TypeError, match="poles"):
        fg.grad(lambda y: fnp.sum(fnp.real(fi.AAA(AX, y).poles())))(AY)
