"""``funcgrad.scipy.interpolate``, the rest: SciPy 1.15's ``make_splrep``,
``make_splprep`` and ``generate_knots``; ``NdBSpline`` and ``NdPPoly``; the removed
``interp2d``.  Values against
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
        lambda inner: fi.NdBSpline((fnp.concatenate([TX[:4], inner, TX[7:]]), TY), CND, (3, 2))(XS[1:]),
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
    for ours, scipys in ((fi.NdBSpline((TX, TY), CND, (3, 2)), si.NdBSpline((TX, TY), CND, (3, 2))),
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
