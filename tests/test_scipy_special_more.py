"""The special functions whose values are SciPy's own ufuncs
(:mod:`funcgrad.primitives.special_scipy`) and SciPy's integer functions: values and
dtypes bit for bit, derivatives against their closed forms at known points (the property
table of tests/test_primitives.py checks them against central differences, dot products,
second order, vmap and float32), errors that name the fix."""
import math

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
from helpers import check_second_order  # noqa: E402

RNG = np.random.default_rng(7)
EDGES = np.array([0.0, -0.0, 1.0, -1.0, -2.0, 1e-300, 30.0, -30.0, 800.0, np.inf, -np.inf,
                  np.nan])
X = np.concatenate([RNG.uniform(-10, 10, 200), EDGES])
Y = RNG.permutation(X)
Z = RNG.permutation(X)
W = RNG.permutation(X)

# name, SciPy's arguments
CALLS = [(name, (X,)) for name in ("erfcx", "dawsn", "exp1", "expi", "spence", "loggamma",
                                   "gammasgn", "sici", "fresnel")] + [
    ("expn", (RNG.integers(-1, 6, X.size), X)), ("expn", (np.floor(Y), X)),
    ("poch", (X, Y)), ("boxcox", (X, Y)), ("boxcox1p", (X, Y)), ("owens_t", (X, Y)),
    # (moderate parameters: SciPy takes minutes on some of the edges for these two)
    ("jv", (np.round(Y), X)), ("jv", (Y / 3, np.abs(X))),
    ("yv", (np.round(Y), X)), ("yv", (Y / 3, np.abs(X))), ("iv", (np.round(Y), X)),
    ("iv", (Y / 3, np.abs(X))), ("ive", (Y / 3, X)), ("kv", (Y / 3, X)), ("kve", (Y / 3, X)),
    ("k0", (X,)), ("k1", (X,)), ("k0e", (X,)), ("k1e", (X,)),
    ("kn", (np.abs(np.round(Y / 2)).astype(int), X)), ("kn", (np.trunc(Y / 2), X)),
    ("hyp0f1", (np.abs(Y[:200]) + 0.5, X[:200])),
    ("hyp1f1", (X[:200], Y[:200] - 10, Z[:200])),
    ("hyp2f1", (X[:200] / 3, Y[:200] / 3, np.abs(Z[:200]), W[:200] / 10)),
]


@pytest.mark.parametrize("name,args", CALLS, ids=[f"{c[0]}{i}" for i, c in enumerate(CALLS)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_values_and_dtypes_are_scipys_bit_for_bit(name, args, dtype):
    args = [a.astype(dtype) if a.dtype.kind == "f" else a for a in args]
    with np.errstate(all="ignore"):
        got, want = getattr(fsp, name)(*args), getattr(scipy_special, name)(*args)
    got, want = (got, want) if isinstance(want, tuple) else ((got,), (want,))
    for g, w in zip(got, want, strict=True):
        assert np.asarray(g).dtype == w.dtype
        np.testing.assert_array_equal(g, w)
    # and on scalars, under jit (which calls SciPy for these) and through SciPy's own ufunc
    with np.errstate(all="ignore"):
        one = [a[3] for a in args]
        np.testing.assert_array_equal(fg.jit(getattr(fsp, name))(*one),
                                      getattr(scipy_special, name)(*one))


def _boxcox_dl_series(x, lm, terms=40):
    """d/dl boxcox(x, l) = sum over k >= 2 of (k - 1) l**(k-2) log(x)**k / k!."""
    L = math.log(x)
    return math.fsum((k - 1) * lm ** (k - 2) * L ** k / math.factorial(k) for k in range(2, terms))


@pytest.mark.parametrize("lm", [0.0, 1e-12, -1e-8, 1e-4, 0.0099, 0.0101, -0.3, 0.7, 2.0])
@pytest.mark.parametrize("x", [0.3, 1.0, 2.0, 3.5])
def test_boxcox_derivative_in_lmbda_near_zero(x, lm):
    """The closed form cancels as ``l log x -> 0``: its Taylor series takes over there."""
    close = dict(rtol=3e-14, atol=1e-300)
    np.testing.assert_allclose(fg.grad(fsp.boxcox, 1)(x, lm), _boxcox_dl_series(x, lm), **close)
    np.testing.assert_allclose(fg.grad(fsp.boxcox1p, 1)(x - 1.0, lm), _boxcox_dl_series(x, lm),
                               **close)
    np.testing.assert_allclose(fg.grad(fsp.boxcox, 0)(x, lm), x ** (lm - 1.0), rtol=1e-14)


def test_known_derivatives():
    e = math.e
    assert fg.grad(fsp.erfcx)(0.0) == -2 / math.sqrt(math.pi)
    assert fg.grad(fsp.dawsn)(0.0) == 1.0
    assert fg.grad(fsp.exp1)(1.0) == -1 / e
    assert fg.grad(fsp.expi)(1.0) == e
    np.testing.assert_allclose(fg.grad(lambda x: fsp.expn(0, x))(1.0), -2 / e, rtol=1e-15)
    np.testing.assert_allclose(fg.grad(lambda x: fsp.expn(3, x))(1.5),
                               -scipy_special.expn(2, 1.5), rtol=1e-15)
    assert fg.grad(fsp.spence)(1.0) == -1.0  # (the limit of log(z)/(1 - z))
    np.testing.assert_allclose(fg.grad(fsp.spence)(0.5), math.log(0.5) / 0.5, rtol=1e-15)
    assert fg.grad(lambda x: fsp.sici(x)[0])(0.0) == 1.0
    np.testing.assert_allclose(fg.grad(lambda x: fsp.sici(x)[1])(2.0), math.cos(2) / 2, 1e-15)
    assert fg.grad(lambda z: fsp.fresnel(z)[0])(1.0) == 1.0  # sin(pi/2)
    np.testing.assert_allclose(fg.grad(lambda z: fsp.fresnel(z)[1])(1.0), 0.0, atol=1e-16)
    np.testing.assert_allclose(fg.grad(fsp.loggamma)(3.5), scipy_special.digamma(3.5), 1e-15)
    # poch(z, m) = z (z + 1) for m = 2: derivative 2z + 1 in z
    np.testing.assert_allclose(fg.grad(fsp.poch)(1.5, 2.0), 4.0, rtol=1e-14)
    # T(h, 1) = Phi(h)(1 - Phi(h))/2: derivative phi(h)(1 - 2 Phi(h))/2
    h = 0.7
    phi, Phi = math.exp(-h * h / 2) / math.sqrt(2 * math.pi), 0.5 * math.erfc(-h / math.sqrt(2))
    np.testing.assert_allclose(fg.grad(fsp.owens_t)(h, 1.0), phi * (1 - 2 * Phi) / 2, 1e-14)
    np.testing.assert_allclose(fg.grad(fsp.owens_t, 1)(h, 1.0),
                               math.exp(-h * h) / (4 * math.pi), rtol=1e-14)
    # 1F1(1; 1; z) = e**z; 2F1(1, 1; 2; z) = -log(1 - z)/z
    np.testing.assert_allclose(fg.grad(fsp.hyp1f1, 2)(1.0, 1.0, 0.8), math.exp(0.8), 1e-14)
    z = 0.4
    np.testing.assert_allclose(fg.grad(fsp.hyp2f1, 3)(1.0, 1.0, 2.0, z),
                               1 / (z * (1 - z)) + math.log1p(-z) / z ** 2, rtol=1e-13)


def test_erfcx_and_dawsn_derivatives_keep_their_accuracy_far_out():
    # (audit: 2x erfcx(x) - 2/sqrt(pi) and 1 - 2x dawsn(x) cancel: 2.4e-8 relative error at
    # x = 1e4, and 0 instead of -5.6e-17 at x = 1e8)
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 50

    def dawson(t):
        return mpmath.sqrt(mpmath.pi) / 2 * mpmath.exp(-t * t) * mpmath.erfi(t)
    for x in (-1e4, -15.5, 5.0, 14.9, 15.1, 22.0, 100.0, 1e4, 1e8):
        want = float(mpmath.diff(dawson, mpmath.mpf(x)))
        np.testing.assert_allclose(fg.grad(fsp.dawsn)(x), want, rtol=1e-13)
        if x > 0:
            want = float(mpmath.diff(lambda t: mpmath.exp(t * t) * mpmath.erfc(t),
                                     mpmath.mpf(x)))
            np.testing.assert_allclose(fg.grad(fsp.erfcx)(x), want, rtol=1e-13)
    check_second_order(fsp.erfcx, [np.array([3.0, 40.0])])
    check_second_order(fsp.dawsn, [np.array([-40.0, 3.0, 40.0])])


def test_scaled_bessel_derivatives_keep_their_accuracy_far_out():
    # (audit: i0e' = i1e - i0e, k0e' = k0e - k1e... cancel: 1e-8 relative error at 1e8,
    # 3e-4 at 1e12; now the asymptotic series' derivative from max(1e3, 10 mu))
    mpmath = pytest.importorskip("mpmath")
    mpmath.mp.dps = 60

    def exact(fun, x):
        return float(mpmath.diff(fun, mpmath.mpf(x)))
    for x in (0.5, 50.0, 999.0, 1001.0, 1e8, 1e12):
        for name, value in (("i0e", lambda t: mpmath.besseli(0, t) * mpmath.exp(-t)),
                            ("i1e", lambda t: mpmath.besseli(1, t) * mpmath.exp(-t)),
                            ("k0e", lambda t: mpmath.besselk(0, t) * mpmath.exp(t)),
                            ("k1e", lambda t: mpmath.besselk(1, t) * mpmath.exp(t))):
            np.testing.assert_allclose(fg.grad(getattr(fsp, name))(x), exact(value, x),
                                       rtol=1e-13)
        for v in (2.5, 40.0):  # (order 40 takes the series from 64000: 1e-13 before)
            np.testing.assert_allclose(
                fg.grad(lambda z: fsp.ive(v, z))(x),
                exact(lambda t: mpmath.besseli(v, t) * mpmath.exp(-t), x), rtol=5e-13)
            np.testing.assert_allclose(
                fg.grad(lambda z: fsp.kve(v, z))(x),
                exact(lambda t: mpmath.besselk(v, t) * mpmath.exp(t), x), rtol=5e-13)
    # the symmetric ones on the left: i0e' odd, i1e' even
    np.testing.assert_allclose(fg.grad(fsp.i0e)(-1e8), -fg.grad(fsp.i0e)(1e8), rtol=1e-15)
    np.testing.assert_allclose(fg.grad(fsp.i1e)(-1e8), fg.grad(fsp.i1e)(1e8), rtol=1e-15)
    check_second_order(fsp.k1e, [np.array([3.0, 2e3])])


def test_wofz_complex_values_and_holomorphic_derivative():
    z = (RNG.uniform(-4, 4, 50) + 1j * RNG.uniform(-4, 4, 50))
    for v in (z, z.astype(np.complex64), z.real, z.real.astype(np.float32)):
        got, want = fsp.wofz(v), scipy_special.wofz(v)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    dw = fg.vmap(fg.grad(fsp.wofz, holomorphic=True))(z)
    np.testing.assert_allclose(dw, 2j / math.sqrt(math.pi) - 2 * z * scipy_special.wofz(z),
                               rtol=1e-14)
    h = 1e-6
    fd = (scipy_special.wofz(z + h) - scipy_special.wofz(z - h)) / (2 * h)
    np.testing.assert_allclose(dw, fd, rtol=1e-8)
    assert fg.grad(fsp.wofz, holomorphic=True)(np.complex64(0.5 + 0.5j)).dtype == np.complex64


def test_erf_and_erfc_of_complex_arguments_are_scipys_and_holomorphic():
    z = np.array([0.3 + 0.2j, -1.5 + 0.7j, 2.0 + 3.0j, 1e-9j, -4.0 - 0.5j])
    for ours, theirs, sign in ((fsp.erf, scipy_special.erf, 1.0),
                               (fsp.erfc, scipy_special.erfc, -1.0)):
        np.testing.assert_array_equal(ours(z), theirs(z))
        assert ours(z.astype(np.complex64)).dtype == theirs(z.astype(np.complex64)).dtype
        np.testing.assert_allclose(fg.vmap(fg.grad(ours, holomorphic=True))(z),
                                   sign * 2.0 / math.sqrt(math.pi) * np.exp(-z ** 2), rtol=1e-14)
    # a real function of z through plain SciPy: JAX's convention, d/dx - i d/dy
    f = lambda v: abs(scipy_special.erf(v)) ** 2
    h, v = 1e-6, 0.3 + 0.2j
    fd = (f(v + h) - f(v - h)) / (2 * h) - 1j * (f(v + 1j * h) - f(v - 1j * h)) / (2 * h)
    np.testing.assert_allclose(fg.grad(lambda v: np.abs(scipy_special.erf(v)) ** 2)(v), fd,
                               rtol=1e-8)


@pytest.mark.parametrize("n,m", [(0, 0), (2, 0), (3, 1), (3, -2), (3, 3), (4, -4), (2, 3)])
def test_sph_harm_y_values_and_derivatives_in_both_angles(n, m):
    theta, phi = RNG.uniform(0.1, 3.0, 6), RNG.uniform(-3.0, 3.0, 6)
    got = fsp.sph_harm_y(n, m, theta, phi)
    want = scipy_special.sph_harm_y(n, m, theta, phi)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    y = scipy_special.sph_harm_y
    h = 1e-6
    for part, np_part in ((fnp.real, np.real), (fnp.imag, np.imag)):
        dt, dp = fg.vmap(fg.grad(lambda t, p: part(fsp.sph_harm_y(n, m, t, p)), argnums=(0, 1)))(
            theta, phi)
        np.testing.assert_allclose(dt, np_part(y(n, m, theta + h, phi) - y(n, m, theta - h, phi))
                                   / (2 * h), atol=1e-8)
        np.testing.assert_allclose(dp, np_part(y(n, m, theta, phi + h) - y(n, m, theta, phi - h))
                                   / (2 * h), atol=1e-8)


def test_sph_harm_y_errors_name_the_fix():
    with pytest.raises(NotImplementedError, match="diff_n=1.*fg.grad"):
        fsp.sph_harm_y(2, 1, 0.5, 0.5, diff_n=1)
    with pytest.raises(Exception, match=r"call funcgrad\.scipy\.special"):
        fg.grad(lambda t: np.real(scipy_special.sph_harm_y(3, 1, t, 0.2)))(0.5)


def test_bessel_jn_stacks_jv_as_jax():
    z = RNG.uniform(-8, 8, (2, 3))
    out = fsp.bessel_jn(z, v=4)
    np.testing.assert_array_equal(out, [scipy_special.jv(k, z) for k in range(5)])
    d = fg.vmap(fg.jacfwd(lambda t: fsp.bessel_jn(t, v=3)))(z.ravel())
    np.testing.assert_allclose(d, np.stack([scipy_special.jvp(k, z.ravel()) for k in range(4)], 1),
                               rtol=1e-13, atol=1e-15)
    assert fsp.bessel_jn(z.astype(np.float32), v=1).dtype == np.float32
    with pytest.raises(ValueError, match="non-negative int"):
        fsp.bessel_jn(z, v=1.5)


def test_bessel_derivatives_are_the_recurrences():
    # closed forms of half-integer order: K_1/2(z) = sqrt(pi/2z) e**-z,
    # I_1/2(z) = sqrt(2/(pi z)) sinh(z), Y_1/2(z) = -sqrt(2/(pi z)) cos(z)
    z = np.array([0.3, 1.0, 2.5, 7.0])
    c = np.sqrt(2 / (np.pi * z))
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(fsp.kv(0.5, v)))(z),
                               -np.sqrt(np.pi / (2 * z)) * np.exp(-z) * (1 + 0.5 / z), 1e-13)
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(fsp.iv(0.5, v)))(z),
                               c * (np.cosh(z) - np.sinh(z) / (2 * z)), 1e-13)
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(fsp.yv(0.5, v)))(z),
                               c * (np.sin(z) + np.cos(z) / (2 * z)), 1e-13)
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(fsp.kve(0.5, v)))(z),
                               -0.5 * np.sqrt(np.pi / 2) * z ** -1.5, 1e-13)
    # ive = iv exp(-|z|) on both sides of 0 (iv of an integer order is defined there)
    w = np.array([-2.0, -0.5, 0.5, 2.0])
    np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(fsp.ive(1.0, v)))(w),
                               scipy_special.ivp(1.0, w) * np.exp(-np.abs(w))
                               - np.sign(w) * scipy_special.ive(1.0, w), 1e-13)
    for f, fp in ((fsp.k0, lambda v: -scipy_special.k1(v)),
                  (fsp.k1, lambda v: scipy_special.kvp(1, v)),
                  (fsp.k0e, lambda v: (scipy_special.kvp(0, v) + scipy_special.k0(v)) * np.exp(v)),
                  (fsp.k1e, lambda v: (scipy_special.kvp(1, v) + scipy_special.k1(v)) * np.exp(v))):
        np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(f(v)))(z), fp(z), 1e-13)
    check_second_order(lambda v: fnp.sum(fsp.kv(1.5, v) * fsp.k1e(v)), [z], RNG)


def test_plain_scipy_bessel_ufuncs_differentiate():
    z = np.array([0.3, 1.0, 2.5])
    np.testing.assert_allclose(
        fg.grad(lambda v: np.sum(scipy_special.kv(2.5, v) + scipy_special.k0(v)))(z),
        scipy_special.kvp(2.5, z) - scipy_special.k1(z), 1e-13)


def test_integer_order_bessels_are_scipys_with_the_recurrence_derivatives():
    x = np.array([0.3, 1.0, 2.5, 7.0, 12.0])
    for ours, theirs, n, derivative in (
            (fsp.j0, scipy_special.j0, 0, scipy_special.jvp),
            (fsp.j1, scipy_special.j1, 1, scipy_special.jvp),
            (fsp.y0, scipy_special.y0, 0, scipy_special.yvp),
            (fsp.y1, scipy_special.y1, 1, scipy_special.yvp),
            (lambda v: fsp.jn(3, v), lambda v: scipy_special.jn(3, v), 3, scipy_special.jvp),
            (lambda v: fsp.yn(2, v), lambda v: scipy_special.yn(2, v), 2, scipy_special.yvp)):
        np.testing.assert_allclose(ours(x), theirs(x), rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(fg.grad(lambda v: fnp.sum(ours(v)))(x), derivative(n, x),
                                   rtol=1e-13, atol=1e-15)
        assert ours(x.astype(np.float32)).dtype == np.float32
    # plain SciPy's ufuncs on traced values reach them
    np.testing.assert_allclose(
        fg.grad(lambda v: np.sum(scipy_special.j0(v) + scipy_special.y1(v)))(x),
        -scipy_special.j1(x) + scipy_special.yvp(1, x), rtol=1e-13)
    check_second_order(lambda v: fnp.sum(fsp.j1(v) * fsp.y0(v)), [x], RNG)


def test_rgamma_is_entire_with_the_right_derivatives_at_gammas_poles():
    x = np.array([-3.0, -2.0, -1.0, 0.0, 0.3, 0.7, 3.0, -1.5, -2.7, 40.0, 200.0])
    np.testing.assert_allclose(fsp.rgamma(x), scipy_special.rgamma(x), rtol=1e-14, atol=0)
    poles = x <= 0
    poles &= x == np.round(x)
    n = -x[poles]
    d = fg.grad(lambda v: fnp.sum(fsp.rgamma(v)))(x)
    # at -n, 1/Gamma(x) = (-1)**n n! (x + n) + O((x + n)**2); elsewhere -digamma / Gamma
    np.testing.assert_allclose(d[poles], (-1.0) ** n * scipy_special.factorial(n), rtol=1e-14)
    away = x[~poles]
    np.testing.assert_allclose(d[~poles], -scipy_special.digamma(away) * scipy_special.rgamma(away),
                               rtol=1e-12, atol=1e-300)
    check_second_order(lambda v: fnp.sum(fsp.rgamma(v)), [np.array([-2.0, -1.0, 0.0, 0.5, 2.5])],
                       RNG)
    np.testing.assert_array_equal(fg.grad(lambda v: np.sum(scipy_special.rgamma(v)))(x), d)
    assert fsp.rgamma(np.float32(2.5)).dtype == np.float32


def test_ive_of_a_complex_argument_has_no_derivative():
    z = np.array([1.0 + 0.5j])
    with pytest.raises(NotImplementedError, match="not holomorphic"):
        fg.grad(lambda v: fnp.sum(fsp.ive(1.0, v)), holomorphic=True)(z)


def test_gammasgn_has_a_zero_derivative():
    x = np.array([-2.5, -1.5, 0.5, 3.0])
    np.testing.assert_array_equal(fg.grad(lambda v: fnp.sum(v * fsp.gammasgn(v)))(x),
                                  scipy_special.gammasgn(x))


@pytest.mark.parametrize("f", [
    fsp.erfcx, fsp.dawsn, fsp.exp1, fsp.spence, lambda x: fsp.sici(x)[1],
    lambda x: fsp.boxcox(x, x - 1.2), lambda x: fsp.poch(x, 1.0 - x / 4),
    lambda x: fsp.owens_t(x - 1.0, x), lambda x: fsp.hyp2f1(0.5, 1.5, 2.5, x / 4),
], ids=["erfcx", "dawsn", "exp1", "spence", "ci", "boxcox", "poch", "owens_t", "hyp2f1"])
def test_second_order(f):
    check_second_order(lambda v: fnp.sum(f(v)), [RNG.uniform(0.3, 2.5, 4)], RNG)


def test_plain_scipy_ufuncs_vmap_jit_and_float32():
    x = RNG.uniform(0.3, 2.5, 5)

    def f(v):  # plain SciPy: its ufuncs reach funcgrad.scipy.special on traced values
        si, ci = scipy_special.sici(v)
        return np.sum(scipy_special.erfcx(v) * ci + scipy_special.boxcox(v, 0.3) + si
                      + scipy_special.hyp1f1(0.5, 1.5, v))

    def g(v):
        si, ci = fsp.sici(v)
        return fnp.sum(fsp.erfcx(v) * ci + fsp.boxcox(v, 0.3) + si + fsp.hyp1f1(0.5, 1.5, v))

    np.testing.assert_array_equal(fg.grad(f)(x), fg.grad(g)(x))
    np.testing.assert_allclose(fg.jit(fg.grad(g))(x), fg.grad(g)(x), rtol=1e-15)
    xs = RNG.uniform(0.3, 2.5, (3, 5))
    np.testing.assert_allclose(fg.vmap(fg.grad(g))(xs), [fg.grad(g)(r) for r in xs], rtol=1e-15)
    x32 = x.astype(np.float32)
    assert fg.grad(g)(x32).dtype == np.float32
    assert fsp.exp1(x32).dtype == fsp.owens_t(x32, 0.5).dtype == np.float32


def test_integer_functions_are_scipys():
    n = np.array([0, 3, 5, -1])
    np.testing.assert_array_equal(fsp.factorial(n), scipy_special.factorial(n))
    assert fsp.factorial(20, exact=True) == math.factorial(20)
    assert fsp.comb(10, 3, exact=True) == 120
    assert fsp.comb(10, 3, exact=True, repetition=True) == math.comb(12, 3)
    k = np.arange(6.0)
    np.testing.assert_array_equal(fsp.comb(k, 2.0), scipy_special.comb(k, 2.0))
    np.testing.assert_array_equal(fsp.bernoulli(6), scipy_special.bernoulli(6))


@pytest.mark.parametrize("f,fix", [
    (lambda x: fsp.factorial(x), r"gamma\(n \+ 1\)"),
    (lambda x: fsp.comb(x, 2.0), "gammaln"),
    (lambda x: fsp.comb(5.0, x), "gammaln"),
])
def test_integer_functions_of_traced_values_name_the_fix(f, fix):
    with pytest.raises(TypeError, match=f"has no derivative.*{fix}"):
        fg.grad(f)(3.0)
    with pytest.raises(TypeError, match="plain numbers or NumPy arrays"):
        fg.vmap(f)(np.arange(3.0))


def test_kn_is_kv_of_the_truncated_order_differentiable_in_x():
    x = np.linspace(0.5, 4.0, 6)
    np.testing.assert_allclose(fg.elementwise_grad(lambda x: fsp.kn(2, x))(x),
                               -(scipy_special.kv(1, x) + scipy_special.kv(3, x)) / 2,
                               rtol=1e-13)
    assert float(fg.grad(fsp.kn)(2.5, 1.0)) == 0.0  # (the truncated order: a step)
    x32 = x.astype(np.float32)
    for n in (3, np.int64(2), np.float32(2.5), 2.5, np.arange(6)):
        assert fsp.kn(n, x32).dtype == scipy_special.kn(n, x32).dtype, n


def test_hyp0f1_derivative_is_the_shifted_function():
    z = np.linspace(-4.0, 4.0, 9)
    np.testing.assert_allclose(fg.elementwise_grad(lambda z: fsp.hyp0f1(1.5, z))(z),
                               scipy_special.hyp0f1(2.5, z) / 1.5, rtol=1e-14)
    with pytest.raises(NotImplementedError, match="with respect to v"):
        fg.grad(fsp.hyp0f1)(1.5, 0.3)


def test_kolmogorov_and_its_inverse():
    y = np.array([0.0, 0.1, 0.3, 0.55, 0.6, 0.65, 1.0, 2.0, 5.0, np.inf, -1.0, np.nan])
    for dtype in (np.float64, np.float32):
        got, want = fsp.kolmogorov(y.astype(dtype)), scipy_special.kolmogorov(y.astype(dtype))
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    p = np.array([0.0, 1e-10, 0.5, 0.99, 1.0, 1.5, -0.1])
    np.testing.assert_array_equal(fsp.kolmogi(p), scipy_special.kolmogi(p))
    # the slope against central differences of SciPy, on both sides of its forms' switch
    h = 1e-6
    for v in (0.35, 0.59, 0.6, 0.61, 1.3, 2.5):
        want = (scipy_special.kolmogorov(v + h) - scipy_special.kolmogorov(v - h)) / (2 * h)
        assert abs(fg.grad(fsp.kolmogorov)(v) - want) < 1e-8, v
    for q in (0.1, 0.5, 0.9):
        want = (scipy_special.kolmogi(q + h) - scipy_special.kolmogi(q - h)) / (2 * h)
        assert abs(fg.grad(fsp.kolmogi)(q) - want) < 1e-7 * abs(want), q
    check_second_order(fsp.kolmogorov, [np.array([0.4, 0.8, 1.7])])
