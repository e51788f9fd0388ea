"""The special functions added in session 22: Gauss quadrature rules (``roots_*``), the
Bessel derivatives and Hankel functions, small elementary functions and SciPy's integer
functions.  Values against SciPy (float64, and float32 where SciPy keeps it), derivatives
against central differences of SciPy's values, one jit/vmap check per family, and the
errors that say what has no derivative.  (The property table of tests/test_primitives.py
checks the new primitives' rules: dot products, second order, vmap, float32.)"""
import math

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402


def central(f, x, h):
    return (f(x + h) - f(x - h)) / (2 * h)


def slope(name, args, i):
    """Elementwise derivative of ``fsp.<name>(*args)`` in argument ``i``."""
    def f(*a):
        return fnp.sum(getattr(fsp, name)(*a))
    return fg.grad(f, i)(*args)


# --- Gauss quadrature ------------------------------------------------------------------------

# name, parameters (after n)
ROOTS = [("roots_legendre", ()), ("roots_chebyt", ()), ("roots_chebyu", ()),
         ("roots_chebyc", ()), ("roots_chebys", ()), ("roots_laguerre", ()),
         ("roots_hermite", ()), ("roots_hermitenorm", ()), ("roots_sh_legendre", ()),
         ("roots_sh_chebyt", ()), ("roots_sh_chebyu", ()), ("roots_jacobi", (0.3, -0.6)),
         ("roots_genlaguerre", (0.7,)), ("roots_gegenbauer", (0.8,)),
         ("roots_sh_jacobi", (2.5, 1.3))]
ALIASES = {"p_roots": "roots_legendre", "t_roots": "roots_chebyt", "u_roots": "roots_chebyu",
           "c_roots": "roots_chebyc", "s_roots": "roots_chebys", "j_roots": "roots_jacobi",
           "l_roots": "roots_laguerre", "la_roots": "roots_genlaguerre",
           "h_roots": "roots_hermite", "he_roots": "roots_hermitenorm",
           "cg_roots": "roots_gegenbauer", "ps_roots": "roots_sh_legendre",
           "ts_roots": "roots_sh_chebyt", "us_roots": "roots_sh_chebyu",
           "js_roots": "roots_sh_jacobi"}


@pytest.mark.parametrize("name, params", ROOTS, ids=[r[0] for r in ROOTS])
def test_roots_are_scipys_with_mu(name, params):
    for n in (1, 5):
        got = getattr(fsp, name)(n, *params, mu=True)
        want = getattr(scipy_special, name)(n, *params, mu=True)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(g, w)
        assert len(getattr(fsp, name)(n, *params)) == 2
    for alias, name in ALIASES.items():
        assert getattr(fsp, alias) is getattr(fsp, name)


# the families with continuous parameters: (name, parameters, which one varies)
TRACED = [("roots_jacobi", (0.3, -0.6), 0), ("roots_jacobi", (0.3, -0.6), 1),
          ("roots_jacobi", (-0.6, -0.7), 1), ("roots_genlaguerre", (0.7,), 0),
          ("roots_gegenbauer", (0.8,), 0), ("roots_sh_jacobi", (2.5, 1.3), 0),
          ("roots_sh_jacobi", (2.5, 1.3), 1)]


def _stacked(name, n, params, module):
    x, w, mu = getattr(module, name)(n, *params, mu=True)
    return (fnp if module is fsp else np).concatenate([x, w, (fnp if module is fsp else np)
                                                       .reshape(mu, (1,))])


@pytest.mark.parametrize("name, params, i", TRACED,
                         ids=[f"{t[0]}-{t[2]}-{t[1]}" for t in TRACED])
def test_roots_differentiate_in_their_parameters(name, params, i):
    """Golub-Welsch on traced parameters: SciPy's values to rounding, and the Jacobian of
    nodes, weights and mu against central differences of SciPy's."""
    n = 6

    def with_param(p, module):
        return _stacked(name, n, params[:i] + (p,) + params[i + 1:], module)
    got = fg.jacfwd(lambda p: with_param(p, fsp))(params[i])
    want = central(lambda p: with_param(p, scipy_special), params[i], 1e-6)
    np.testing.assert_allclose(got, want, rtol=2e-6, atol=1e-8)
    # (the values of the traced route itself)
    value, _ = fg.jvp(lambda p: with_param(p, fsp), (params[i],), (1.0,))
    np.testing.assert_allclose(value, with_param(params[i], scipy_special), rtol=1e-13,
                               atol=1e-15)


def test_roots_jit_vmap_and_second_derivative():
    a = np.array([0.1, 0.5, 2.0])
    got = fg.vmap(lambda p: fsp.roots_genlaguerre(4, p)[1])(a)
    want = np.stack([scipy_special.roots_genlaguerre(4, p)[1] for p in a])
    np.testing.assert_allclose(got, want, rtol=1e-13)
    x, w, mu = fg.jit(lambda p, q: fsp.roots_jacobi(5, p, q, mu=True))(0.3, 1.2)
    xs, ws, mus = scipy_special.roots_jacobi(5, 0.3, 1.2, mu=True)
    np.testing.assert_allclose(x, xs, atol=1e-14)
    np.testing.assert_allclose(w, ws, rtol=1e-13)
    # the quadrature of x**2 in alpha, twice: against central differences of the first
    def moment(p):
        x, w = fsp.roots_jacobi(4, p, 0.5)
        return fnp.sum(w * x * x)
    second = fg.grad(fg.grad(moment))(0.3)
    first = lambda p: float(fg.grad(moment)(p))  # noqa: E731
    assert math.isclose(float(second), central(first, 0.3, 1e-5), rel_tol=1e-6)


def test_roots_reject_bad_arguments():
    with pytest.raises(ValueError, match="n must be a positive integer"):
        fsp.roots_legendre(0)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        fsp.roots_jacobi(2.5, 0.0, 0.0)
    with pytest.raises(ValueError, match="alpha and beta must be greater than -1"):
        fg.grad(lambda a: fsp.roots_jacobi(3, a, 0.0)[0].sum())(-1.5)
    with pytest.raises(TypeError, match="n is an integer"):
        fg.grad(lambda n: fsp.roots_legendre(n)[0].sum())(3.0)


# --- Bessel functions --------------------------------------------------------------------------

Z = np.array([0.4, 1.3, 3.7, 9.0])


@pytest.mark.parametrize("name", ["jvp", "yvp", "ivp", "kvp", "h1vp", "h2vp"])
def test_bessel_derivatives_are_scipys_and_differentiate_again(name):
    for n in (0, 1, 3):
        got = getattr(fsp, name)(1.3, Z, n)
        np.testing.assert_allclose(got, getattr(scipy_special, name)(1.3, Z, n), rtol=1e-14)
    if name in ("h1vp", "h2vp"):  # (complex: holomorphic in z)
        z = 0.7 + 0.4j
        got = complex(fg.grad(lambda t: getattr(fsp, name)(1.3, t, 2), holomorphic=True)(z))
        want = getattr(scipy_special, name)(1.3, z, 3)
        assert abs(got - want) < 1e-12 * abs(want)
        return
    got = fg.vmap(fg.grad(lambda t: getattr(fsp, name)(1.3, t, 2)))(Z)
    np.testing.assert_allclose(got, central(lambda t: getattr(scipy_special, name)(
        1.3, t, 2), Z, 1e-6), rtol=1e-7)


@pytest.mark.parametrize("name", ["jve", "yve", "hankel1", "hankel1e", "hankel2", "hankel2e"])
def test_scaled_and_hankel_functions_are_scipys(name):
    for z in (Z, Z.astype(np.float32), Z * (1 + 0.5j)):
        v = np.asarray(1.3, z.real.dtype)
        got, want = getattr(fsp, name)(v, z), getattr(scipy_special, name)(v, z)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    if name in ("jve", "yve"):
        got = slope(name, (1.3, Z), 1)
        want = central(lambda t: getattr(scipy_special, name)(1.3, t), Z, 1e-6)
    else:
        got = fg.vmap(fg.grad(lambda t: getattr(fsp, name)(1.3, t), holomorphic=True))(
            Z * (1 + 0.5j))
        want = central(lambda t: getattr(scipy_special, name)(1.3, t), Z * (1 + 0.5j), 1e-6)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9)


def test_bessel_family_under_jit_and_errors():
    f = fg.jit(lambda z: fsp.kvp(0.5, z, 2) + fsp.jve(0.5, z))
    np.testing.assert_allclose(f(Z), scipy_special.kvp(0.5, Z, 2) + scipy_special.jve(0.5, Z),
                               rtol=1e-14)
    with pytest.raises(ValueError, match="non-negative integer"):
        fsp.jvp(1.0, 2.0, -1)
    with pytest.raises(NotImplementedError, match="with respect to v"):
        fg.grad(lambda v: fsp.hankel1e(v, 2.0).real)(0.5)
    with pytest.raises(NotImplementedError, match="not holomorphic"):
        fg.grad(lambda z: fnp.real(fsp.jve(0.5, z)))(1.0 + 1j)


# --- elementary functions ----------------------------------------------------------------------

X = np.array([-30.0, 10.0, 44.0, 100.0, 181.0])
P = np.array([0.3, 1.0, 2.5, 0.7])
Q = np.array([1.5, -0.5, 0.8, 2.0])
# name, SciPy's arguments (float64), the arguments differentiated, central differences' step
ELEMENTARY = [
    ("sindg", (X,), (0,), 1e-5), ("cosdg", (X,), (0,), 1e-5), ("tandg", (X,), (0,), 1e-5),
    ("cotdg", (X,), (0,), 1e-5), ("powm1", (P, Q), (0, 1), 1e-6),
    ("radian", (P, Q, X[:4]), (0, 1, 2), 1e-3),
    ("voigt_profile", (np.array([0.3, 1.0, -2.0, 1.0]), P, np.array([0.2, 0.0, 1.0, 0.5])),
     (0, 1, 2), 1e-6),
    ("hyperu", (P, Q, np.array([0.4, 3.0, 1.0, 2.0])), (2,), 1e-6),
    ("wrightomega", (np.array([-2.0, 0.0, 1.0, 5.0]),), (0,), 1e-6),
    # (|lmbda| >= 1e-4: below, SciPy's values are the logistic's, flat in lmbda)
    ("tklmbda", (np.array([-3.0, 0.4, 2.0, 1.0]), np.array([0.01, -0.3, 0.14, 0.9])), (0, 1),
     1e-6),
    ("zetac", (np.array([-3.5, 0.5, 1.5, 2.0, 50.0, 110.0]),), (), None),
    ("round", (np.array([-1.5, 0.5, 2.5, 2.6]),), (), None),
]


@pytest.mark.parametrize("name, args, wrt, h", ELEMENTARY, ids=[e[0] for e in ELEMENTARY])
def test_elementary_values_and_derivatives(name, args, wrt, h):
    ours, scipys = getattr(fsp, name), getattr(scipy_special, name)
    want = scipys(*args)
    np.testing.assert_allclose(ours(*args), want, rtol=4e-15, atol=1e-300)
    small = tuple(a.astype(np.float32) for a in args)
    got32 = ours(*small)
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32, scipys(*small), rtol=1e-6)
    for i in wrt:
        got = slope(name, args, i)
        fd = central(lambda t: scipys(*args[:i], t, *args[i + 1:]), args[i], h)
        np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-9)


def test_zetac_keeps_its_digits_where_scipys_flushes_to_zero():
    # (SciPy's zetac is 0 beyond x ~ 127; the sum is 2**-x to rounding there)
    assert float(fsp.zetac(150.0)) == 2.0 ** -150
    assert float(fsp.zetac(np.float32(120.0))) == np.float32(2.0 ** -120)
    h = 1e-6  # (differentiable in x: central differences of SciPy's zetac)
    fd = (scipy_special.zetac(3.0 + h) - scipy_special.zetac(3.0 - h)) / (2 * h)
    assert fg.grad(fsp.zetac)(3.0) == pytest.approx(fd, rel=1e-8)


def test_tklmbda_derivative_in_lmbda_at_zero_is_the_tukey_lambda_one():
    """At lmbda = 0 (the logistic), d/dlmbda F = -((log F)**2 - (log(1-F))**2) / 2 * F(1-F):
    SciPy's values are the logistic's for |lmbda| < 1e-4, so no difference quotient of
    theirs could say it."""
    x = np.array([-3.0, 0.0, 1.2])
    f = 1 / (1 + np.exp(-x))
    want = -(np.log(f) ** 2 - np.log1p(-f) ** 2) / 2 * f * (1 - f)
    np.testing.assert_allclose(slope("tklmbda", (x, np.zeros(3)), 1), want, rtol=1e-12,
                               atol=1e-15)


@pytest.mark.parametrize("name, index", [("shichi", i) for i in range(2)]
                         + [("ellipj", i) for i in range(4)])
def test_several_outputs_values_and_derivatives(name, index):
    args = (np.array([0.2, 0.5, -2.0, 4.0]),) if name == "shichi" else (
        np.array([0.3, -1.0, 2.5, 0.0]), np.array([0.0, 0.5, 0.9, 0.3]))
    want = getattr(scipy_special, name)(*args)[index]
    np.testing.assert_array_equal(getattr(fsp, name)(*args)[index], want)
    small = tuple(a.astype(np.float32) for a in args)
    np.testing.assert_array_equal(getattr(fsp, name)(*small)[index],
                                  getattr(scipy_special, name)(*small)[index])
    got = fg.grad(lambda u: fnp.sum(getattr(fsp, name)(u, *args[1:])[index]))(args[0])
    fd = central(lambda u: getattr(scipy_special, name)(u, *args[1:])[index], args[0], 1e-6)
    np.testing.assert_allclose(got, fd, rtol=1e-7, atol=1e-9)


def test_ellipj_derivatives_in_m_at_every_order():
    """d am/dm = (sn cn - dn (u - D(am|m))) / (2(1 - m)) against central differences of
    SciPy's values (several periods of am included), its series below |u| = 0.01 against
    the closed form's value at m = 0, -(u - sin u cos u)/4, and the second derivative
    against central differences of the first."""
    u = np.array([0.3, -1.0, 2.5, 7.3, 20.0])
    m = np.array([0.05, 0.5, 0.9, 0.7, 0.6])
    for i in range(4):
        got = fg.grad(lambda t: fnp.sum(fsp.ellipj(u, t)[i]))(m)
        fd = central(lambda t: scipy_special.ellipj(u, t)[i], m, 1e-6)
        np.testing.assert_allclose(got, fd, rtol=1e-7, atol=1e-10)
    small = np.array([0.003, -0.009, 0.5])
    got = fg.grad(lambda t: fnp.sum(fsp.ellipj(small, t)[3]))(np.zeros(3))
    wide = small.astype(np.longdouble)  # (u - sin u cos u cancels: ~eps/u**2 in float64)
    want = (-(wide - np.sin(wide) * np.cos(wide)) / 4).astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    # m = 1 (sn = tanh): forward mode in u alone sees a zero tangent of m, and no 0 * inf;
    # the m-derivative is the closed form's limit
    assert float(fg.jacfwd(lambda t: fsp.ellipj(t, 1.0)[0])(0.5)) == pytest.approx(
        1 / math.cosh(0.5) ** 2, rel=1e-14)
    assert float(fg.grad(lambda t: fsp.ellipj(1.3, t)[3])(1.0)) == pytest.approx(
        -(math.sinh(1.3) - 1.3 / math.cosh(1.3)) / 4, rel=1e-14)
    assert float(fg.grad(lambda t: fsp.ellipj(1.3, t)[3])(1 - 1e-6)) == pytest.approx(
        float(fg.grad(lambda t: fsp.ellipj(1.3, t)[3])(1.0)), rel=1e-7)
    first = lambda t: float(fg.grad(lambda s: fsp.ellipj(1.3, s)[0])(t))  # noqa: E731
    assert math.isclose(float(fg.grad(fg.grad(lambda s: fsp.ellipj(1.3, s)[0]))(0.4)),
                        central(first, 0.4, 1e-5), rel_tol=1e-7)
    # at m = 1 the second derivative in m is not known: NaN in both modes (it was the
    # limit's 0, and reverse-over-reverse a wrong number), not a wrong value; u's stay
    for second in (fg.grad(fg.grad(lambda s: fsp.ellipj(1.3, s)[0])),
                   fg.jacfwd(fg.jacfwd(lambda s: fsp.ellipj(1.3, s)[0]))):
        assert math.isnan(float(second(1.0)))
    assert float(fg.grad(fg.grad(lambda t: fsp.ellipj(t, 1.0)[0]))(0.5)) == pytest.approx(
        -2 * math.tanh(0.5) / math.cosh(0.5) ** 2, rel=1e-12)


def test_diric_values_and_derivative_through_its_limit():
    x = np.array([0.0, 0.3, 2 * np.pi, 4 * np.pi - 3e-8, 5.0, -2 * np.pi + 1e-9])
    for n in (1, 3, 4):
        np.testing.assert_allclose(fsp.diric(x, n), scipy_special.diric(x, n), rtol=1e-14)
        got = fg.grad(lambda t: fnp.sum(fsp.diric(t, n)))(x)
        # (the slope sin(n x/2)/(n sin(x/2)) has at x = 2 pi k: 0)
        far = np.abs(np.sin(x / 2)) > 1e-3
        fd = central(lambda t: scipy_special.diric(t, n), x, 1e-6)
        np.testing.assert_allclose(got[far], fd[far], rtol=1e-7)
        np.testing.assert_allclose(got[~far], 0.0, atol=1e-6 * n * n)
    x32 = np.array([0.5, 1.0, 0.0], np.float32)
    assert fsp.diric(x32, 3).dtype == np.float32  # (SciPy's is float64 here)
    np.testing.assert_allclose(fsp.diric(x32, 3), scipy_special.diric(x32, 3), rtol=1e-6)
    np.testing.assert_array_equal(np.isnan(fsp.diric(x[:3], np.array([2.0, 2.5, -1.0]))),
                                  [False, True, True])
    with pytest.raises(ValueError, match="positive integer"):
        fsp.diric(x, 2.5)


def test_elementary_family_under_jit_and_vmap_and_errors():
    x = np.array([0.5, 1.5, -1.0])
    f = fg.jit(lambda x: fsp.voigt_profile(x, 0.7, 0.4) + fsp.sindg(x * 30.0)
               + fsp.ellipj(x, 0.3)[3] + fsp.diric(x, 3))
    want = (scipy_special.voigt_profile(x, 0.7, 0.4) + scipy_special.sindg(x * 30.0)
            + scipy_special.ellipj(x, 0.3)[3] + scipy_special.diric(x, 3))
    np.testing.assert_allclose(f(x), want, rtol=1e-14)
    got = fg.vmap(fg.grad(lambda s: fsp.voigt_profile(1.0, s, 0.5)))(x + 1.0)
    np.testing.assert_allclose(got, central(lambda s: scipy_special.voigt_profile(1.0, s, 0.5),
                                            x + 1.0, 1e-6), rtol=1e-7)
    with pytest.raises(NotImplementedError, match="with respect to a"):
        fg.grad(lambda a: fsp.hyperu(a, 1.0, 1.0))(0.5)
    with pytest.raises(TypeError, match="n is a positive integer"):
        fg.vmap(lambda n: fsp.diric(0.3, n))(np.array([1.0, 2.0]))
    with pytest.raises(TypeError, match="real"):
        fsp.sindg(1j)


# --- integer functions -------------------------------------------------------------------------

@pytest.mark.parametrize("name, args", [("factorial2", (np.array([3, 6, 7]),)),
                                        ("factorialk", (np.array([7, 10]), 3)),
                                        ("perm", (np.array([5, 7]), np.array([2, 3]))),
                                        ("stirling2", (np.array([4, 6]), np.array([2, 3]))),
                                        ("euler", (6,))])
def test_integer_functions_are_scipys(name, args):
    np.testing.assert_array_equal(getattr(fsp, name)(*args), getattr(scipy_special, name)(*args))
    if name != "euler":
        scalar = tuple(int(np.ravel(a)[0]) for a in args)
        assert getattr(fsp, name)(*scalar, exact=True) == getattr(scipy_special, name)(
            *scalar, exact=True)
    with pytest.raises(TypeError, match="no derivative"):
        fg.grad(lambda v: getattr(fsp, name)(v, *args[1:]))(5.0)


def test_zeta_underflows_to_zero_not_nan():
    # (q**-s underflowing made the series' tests 0/0 and its tail inf * 0: NaN in float32
    # from s ~ 150, in float64 from s ~ 1080)
    for dtype, s in ((np.float32, [100.0, 150.0, 200.0]), (np.float64, [900.0, 1100.0])):
        x = np.array(s, dtype)
        np.testing.assert_array_equal(fsp.zeta(x, dtype(2.0)),
                                      scipy_special.zeta(x, dtype(2.0)))
