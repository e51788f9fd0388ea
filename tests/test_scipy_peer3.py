"""``funcgrad.scipy`` against SciPy, third pass: the gaps a side-by-side run found (session
17) -- the incomplete gamma and beta functions' derivatives in their shapes, complex
arguments of the gamma and error function families, and ``multivariate_t``, ``pearsonr``,
``spearmanr`` and ``f`` in ``funcgrad.scipy.stats``."""
import math

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402
from funcgrad.primitives import incomplete  # noqa: E402

RNG = np.random.default_rng(18)


def central(f, s, h=1e-6):
    """Central difference of a plain (SciPy) function: about 1e-9 relative."""
    return (f(s + h) - f(s - h)) / (2 * h)


# --- the incomplete gamma and beta functions in their shapes -------------------------------

# (a, x, dP/da): mpmath at 80 digits, central differences of step 1e-25 of P -- or of -Q
# where x > a, so that the far upper tail keeps its digits
GAMMA_DA = [
    (0.001, 1e-05, -10.818398299086339),
    (0.001, 0.5, -0.56035940010800309),
    (0.05, 2.0, -0.056690986497682773),
    (0.5, 1e-10, -0.00026023065019619645),
    (0.5, 0.3, -0.77057035137535192),
    (1.0, 2.0, -0.22082542621185951),
    (2.5, 0.1, -0.0030252729366812101),
    (2.5, 3.0, -0.22754855127826082),
    (3.0, 40.0, -9.9743303000892817e-15),
    (30.0, 29.0, -0.073028839783155224),
    (30.0, 31.5, -0.068731615626289698),
    (200.0, 150.0, -1.7319071092704678e-5),
    (200.0, 260.0, -1.3284959110062084e-5),
    (10000.0, 10050.0, -0.0035133682625234497),
    (10000.0, 9800.0, -0.00053081913130245155),
    (1000000.0, 1000001.0, -0.00039894191470472712),
]
# (a, b, x, dI/da, dI/db): mpmath at 120 (250 for b = 424) digits, the same way (the upper
# tail's complement beyond the mean)
BETA_DA_DB = [
    (0.5, 0.5, 0.3, -0.64281148115728385, 0.46874458391550545),
    (0.001, 2.0, 0.4, -0.31655032126110228, 0.00028909843005974175),
    (2.0, 0.001, 0.999, -0.0006399405736308377, 5.8749330361725666),
    (2.5, 3.5, 0.2, -0.14022027225971644, 0.060273914306636544),
    (2.5, 3.5, 0.8, -0.018016421146876588, 0.028242302042365157),
    (0.3, 8.0, 0.05, -0.75412973701263437, 0.02225684686480429),
    (40.0, 60.0, 0.35, -0.030601390035681629, 0.018321239196398434),
    (40.0, 60.0, 0.45, -0.027801706569232844, 0.02050628216879012),
    (500.0, 20.0, 0.97, -0.0019278575580991224, 0.055106662208253364),
    (0.8, 424.0, 0.005, -0.16880034218779306, 0.00044234258641042087),
    (0.8, 424.0, 0.05, -6.737187712080339e-10, 8.5818901841444606e-12),
    (10000.0, 20000.0, 0.333, -0.0032346792212093233, 0.001616113346962912),
]


def test_gammainc_derivative_in_a_matches_mpmath():
    a, x, want = map(np.array, zip(*GAMMA_DA))
    got = incomplete.gammainc_da(a, x)
    # (1e-10 is the bar up to a = 1e4 (1e-11 seen); at 1e6 the prefactor's rounding)
    np.testing.assert_allclose(got[a <= 1e4], want[a <= 1e4], rtol=1e-10)
    np.testing.assert_allclose(got, want, rtol=5e-10)
    # the same through grad, of P and of Q = 1 - P, point by point
    for ai, xi, w in GAMMA_DA[:8]:
        assert float(fg.grad(fsp.gammainc)(ai, xi)) == pytest.approx(w, rel=1e-11)
        assert float(fg.grad(fsp.gammaincc)(ai, xi)) == pytest.approx(-w, rel=1e-11)


def test_betainc_derivatives_in_a_and_b_match_mpmath():
    a, b, x, want_a, want_b = map(np.array, zip(*BETA_DA_DB))
    np.testing.assert_allclose(incomplete.betainc_da(a, b, x), want_a, rtol=1e-10)
    np.testing.assert_allclose(incomplete.betainc_db(a, b, x), want_b, rtol=1e-10)
    grads = fg.grad(lambda s, t: fnp.sum(fsp.betainc(s, t, x)), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(grads[0], want_a, rtol=1e-10)
    np.testing.assert_allclose(grads[1], want_b, rtol=1e-10)
    # betaincc = 1 - betainc: the negated derivatives
    gc = fg.grad(lambda s, t: fnp.sum(fsp.betaincc(s, t, x)), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(gc[0], -want_a, rtol=1e-10)
    np.testing.assert_allclose(gc[1], -want_b, rtol=1e-10)


def test_shape_derivatives_agree_with_scipy_differences_at_random_points():
    # (SciPy differenced in its smaller tail, P or Q = 1 - P, so that the difference does
    # not cancel near 1; its noise is then about 1e-16 / 1e-6 absolute)
    a = 10 ** RNG.uniform(-1, 2, 30)
    x = a * 10 ** RNG.uniform(-0.7, 0.5, 30)
    lower = scipy_special.gammainc(a, x) < 0.5
    want = np.where(lower, central(lambda s: scipy_special.gammainc(s, x), a),
                    -central(lambda s: scipy_special.gammaincc(s, x), a))
    np.testing.assert_allclose(fg.elementwise_grad(fsp.gammainc)(a, x), want, rtol=1e-6,
                               atol=1e-10)
    b = 10 ** RNG.uniform(-1, 2, 30)
    u = RNG.uniform(0.02, 0.98, 30)
    lower = scipy_special.betainc(a, b, u) < 0.5
    for argnum in (0, 1):
        def theirs(s, f):
            return f(*[s if i == argnum else v for i, v in enumerate((a, b))], u)
        want = np.where(lower, central(lambda s: theirs(s, scipy_special.betainc), (a, b)[argnum]),
                        -central(lambda s: theirs(s, scipy_special.betaincc), (a, b)[argnum]))
        np.testing.assert_allclose(fg.elementwise_grad(fsp.betainc, argnum)(a, b, u), want,
                                   rtol=1e-6, atol=1e-10)


def test_betaincc_matches_scipy_where_one_minus_betainc_cancels():
    a, b = np.array([2.0, 0.5, 30.0, 3.0]), np.array([3.0, 0.5, 20.0, 1e-3])
    x = np.array([1 - 1e-12, 0.3, 0.999, 0.2])
    np.testing.assert_allclose(fsp.betaincc(a, b, x), scipy_special.betaincc(a, b, x),
                               rtol=1e-13)
    assert fsp.betaincc(np.float32(2.0), np.float32(3.0), np.float32(0.4)).dtype == np.float32


def test_inverses_differentiate_in_their_shapes():
    for f, theirs, args in ((fsp.gammaincinv, scipy_special.gammaincinv, (2.5, 0.3)),
                            (fsp.gammainccinv, scipy_special.gammainccinv, (2.5, 0.3)),
                            (fsp.gammaincinv, scipy_special.gammaincinv, (0.2, 0.9))):
        want = central(lambda s: theirs(s, args[1]), args[0])
        assert float(fg.grad(f)(*args)) == pytest.approx(want, rel=1e-7)
    for argnum in (0, 1):
        def theirs_b(s):
            return scipy_special.betaincinv(*[s if i == argnum else v
                                              for i, v in enumerate((2.0, 3.0))], 0.3)
        want = central(theirs_b, (2.0, 3.0)[argnum])
        assert float(fg.grad(fsp.betaincinv, argnum)(2.0, 3.0, 0.3)) == pytest.approx(
            want, rel=1e-7)


SHAPE_CASES = [  # (name, funcgrad, SciPy, shape value): each differentiated in the shape
    ("gamma.cdf", lambda a: fst.gamma.cdf(2.0, a), lambda a: scipy_stats.gamma.cdf(2.0, a), 1.7),
    ("gamma.sf", lambda a: fst.gamma.sf(2.0, a, scale=1.5),
     lambda a: scipy_stats.gamma.sf(2.0, a, scale=1.5), 1.7),
    ("gamma.logcdf", lambda a: fst.gamma.logcdf(0.2, a),
     lambda a: scipy_stats.gamma.logcdf(0.2, a), 3.5),
    ("gamma.ppf", lambda a: fst.gamma.ppf(0.3, a), lambda a: scipy_stats.gamma.ppf(0.3, a), 1.7),
    ("gamma.isf", lambda a: fst.gamma.isf(0.05, a), lambda a: scipy_stats.gamma.isf(0.05, a),
     4.0),
    ("chi2.cdf", lambda d: fst.chi2.cdf(2.0, d), lambda d: scipy_stats.chi2.cdf(2.0, d), 3.3),
    ("chi2.isf", lambda d: fst.chi2.isf(0.2, d), lambda d: scipy_stats.chi2.isf(0.2, d), 3.3),
    ("beta.cdf a", lambda a: fst.beta.cdf(0.3, a, 2.5),
     lambda a: scipy_stats.beta.cdf(0.3, a, 2.5), 1.5),
    ("beta.sf b", lambda b: fst.beta.sf(0.3, 1.5, b), lambda b: scipy_stats.beta.sf(0.3, 1.5, b),
     2.5),
    ("beta.ppf b", lambda b: fst.beta.ppf(0.3, 1.5, b),
     lambda b: scipy_stats.beta.ppf(0.3, 1.5, b), 2.5),
    ("t.cdf", lambda d: fst.t.cdf(-1.2, d), lambda d: scipy_stats.t.cdf(-1.2, d), 4.5),
    ("t.sf", lambda d: fst.t.sf(2.7, d), lambda d: scipy_stats.t.sf(2.7, d), 4.5),
    ("t.ppf", lambda d: fst.t.ppf(0.8, d), lambda d: scipy_stats.t.ppf(0.8, d), 4.5),
    ("invgamma.cdf", lambda a: fst.invgamma.cdf(1.0, a),
     lambda a: scipy_stats.invgamma.cdf(1.0, a), 1.3),
    ("nbinom.cdf n", lambda n: fst.nbinom.cdf(3.0, n, 0.4),
     lambda n: scipy_stats.nbinom.cdf(3, n, 0.4), 2.5),
    ("nbinom.sf n", lambda n: fst.nbinom.sf(3.0, n, 0.4),
     lambda n: scipy_stats.nbinom.sf(3, n, 0.4), 2.5),
    ("poisson.sf mu", lambda m: fst.poisson.sf(4.0, m), lambda m: scipy_stats.poisson.sf(4, m),
     2.2),
    ("chdtr", lambda v: fsp.chdtr(v, 2.5), lambda v: scipy_special.chdtr(v, 2.5), 3.0),
    ("chdtrc", lambda v: fsp.chdtrc(v, 2.5), lambda v: scipy_special.chdtrc(v, 2.5), 3.0),
    ("gdtr b", lambda v: fsp.gdtr(1.5, v, 2.0), lambda v: scipy_special.gdtr(1.5, v, 2.0), 2.2),
    ("stdtr", lambda v: fsp.stdtr(v, 0.5), lambda v: scipy_special.stdtr(v, 0.5), 3.0),
    ("fdtr dfn", lambda v: fsp.fdtr(v, 3.0, 1.5), lambda v: scipy_special.fdtr(v, 3.0, 1.5),
     2.0),
    ("fdtrc dfd", lambda v: fsp.fdtrc(2.0, v, 1.5), lambda v: scipy_special.fdtrc(2.0, v, 1.5),
     3.0),
]


@pytest.mark.parametrize("name,ours,theirs,s", SHAPE_CASES, ids=[c[0] for c in SHAPE_CASES])
def test_distributions_differentiate_in_their_shapes(name, ours, theirs, s):
    # (SciPy's t.sf/stdtr/fdtr differences carry ~1e-8 of their own rounding)
    assert float(fg.grad(ours)(s)) == pytest.approx(central(theirs, s), rel=1e-6)
    _, tangent = fg.jvp(ours, (s,), (1.0,))
    assert float(tangent) == pytest.approx(float(fg.grad(ours)(s)), rel=1e-12)


def test_discrete_counts_are_steps_as_in_scipy():
    # SciPy floors k and truncates n (bdtr(2, 5.5, p) == bdtr(2, 5, p)): the derivative in
    # them is 0 wherever it exists
    assert scipy_special.bdtr(2, 5.5, 0.3) == scipy_special.bdtr(2, 5, 0.3)
    for f, args in ((fsp.pdtr, (2.5, 1.5)), (fsp.pdtrc, (2.5, 1.5)), (fsp.bdtr, (2.0, 5.5, 0.3)),
                    (fsp.bdtrc, (2.0, 5.5, 0.3)), (fsp.nbdtr, (2.0, 5.5, 0.3)),
                    (fsp.nbdtrc, (2.0, 5.5, 0.3))):
        grads = fg.grad(f, argnums=tuple(range(len(args))))(*args)
        assert float(grads[0]) == 0.0
        if len(args) == 3:
            assert float(grads[1]) == 0.0
        h = 1e-6  # ... and the continuous argument's against SciPy
        theirs = getattr(scipy_special, f.__name__)
        fd = (theirs(*args[:-1], args[-1] + h) - theirs(*args[:-1], args[-1] - h)) / (2 * h)
        assert float(grads[-1]) == pytest.approx(fd, rel=1e-7)


def test_shape_derivatives_second_order_in_x_and_the_limit_in_the_shapes():
    # d/dx dP/da = d/da of the density x**(a-1) e**-x / Gamma(a): both orders of
    # differentiation, every mode, against SciPy's density differenced in a
    a, x = 2.5, 1.7
    want = central(lambda s: scipy_stats.gamma.pdf(x, s), a)
    for first, second in ((0, 1), (1, 0)):
        for outer, inner in ((fg.grad, fg.grad), (fg.jacfwd, fg.jacrev), (fg.jacrev, fg.jacfwd)):
            mixed = outer(inner(fsp.gammainc, first), second)(a, x)
            assert float(mixed) == pytest.approx(want, rel=1e-7)
    for argnum, s in ((0, 2.5), (1, 3.5)):
        def pdf_of(t):
            shapes = [2.5, 3.5]
            shapes[argnum] = t
            return scipy_stats.beta.pdf(0.3, *shapes)
        got = fg.grad(fg.grad(fsp.betainc, 2), argnum)(2.5, 3.5, 0.3)
        assert float(got) == pytest.approx(central(pdf_of, s), rel=1e-7)
    # the second derivative in a shape is not implemented: it says so, never a wrong number
    with pytest.raises(NotImplementedError, match="second derivative with respect to the "
                                                  "shape"):
        fg.grad(fg.grad(fsp.gammainc))(a, x)
    with pytest.raises(NotImplementedError, match="second derivative"):
        fg.hessian(lambda s: fsp.betainc(s, 2.0, 0.3))(1.5)


def test_shape_derivatives_under_vmap_jit_and_float32():
    a = np.array([0.3, 2.5, 40.0, 7.0])
    x = np.array([0.1, 3.0, 35.0, 9.0])
    loop = np.array([float(fg.grad(fsp.gammainc)(ai, xi)) for ai, xi in zip(a, x)])
    np.testing.assert_allclose(fg.vmap(fg.grad(fsp.gammainc))(a, x), loop, rtol=1e-14)
    np.testing.assert_allclose(fg.jit(fg.elementwise_grad(fsp.gammainc))(a, x), loop,
                               rtol=1e-12)
    b, u = np.array([1.5, 0.7, 30.0, 2.0]), np.array([0.2, 0.9, 0.6, 0.5])
    loop = np.array([float(fg.grad(fsp.betainc, 1)(ai, bi, ui)) for ai, bi, ui in zip(a, b, u)])
    np.testing.assert_allclose(fg.vmap(fg.grad(fsp.betainc, 1))(a, b, u), loop, rtol=1e-14)
    # float32 in, float32 out, within float32's accuracy of float64's
    g32 = fg.elementwise_grad(fsp.gammainc)(a.astype(np.float32), x.astype(np.float32))
    assert g32.dtype == np.float32
    np.testing.assert_allclose(g32, fg.elementwise_grad(fsp.gammainc)(a, x), rtol=2e-4)
    g32 = fg.elementwise_grad(fsp.betainc)(*(v.astype(np.float32) for v in (a, b, u)))
    assert g32.dtype == np.float32
    np.testing.assert_allclose(g32, fg.elementwise_grad(fsp.betainc)(a, b, u), rtol=2e-4)


def test_shape_derivatives_outside_their_accurate_range_raise():
    # beyond shapes of 1e8 the beta function's fraction derivative rounds past 1e-9
    # (the gamma function's, by Temme's expansion, has no such bound: see
    # test_scipy_incomplete_large.py)
    with pytest.raises(FloatingPointError, match=r"shapes must lie in \(0, 1e\+08\]"):
        fg.grad(fsp.betainc, 1)(3.0, 2e8, 0.5)
    with pytest.raises(FloatingPointError, match="betainc"):
        fg.grad(fsp.betainc)(5e8, 3.0, 0.9)
    # outside the domain the derivative is NaN, as the value is, without an error
    assert math.isnan(float(fg.grad(fsp.gammainc)(-1.0, 2.0)))


# --- complex arguments ---------------------------------------------------------------------

Z = np.array([1.5 + 0.5j, -0.7 + 2.0j, -3.3 - 0.2j, 12.0 + 40.0j, 0.2 - 0.01j, 2.0 - 7.0j])
HOLOMORPHIC = ["gamma", "rgamma", "loggamma", "digamma", "psi", "log_ndtr", "ndtr", "erf",
               "erfc", "erfcx", "erfi", "dawsn", "wofz"]


@pytest.mark.parametrize("name", HOLOMORPHIC)
def test_complex_values_and_holomorphic_derivatives_match_scipy(name):
    ours, theirs = getattr(fsp, name), getattr(scipy_special, name)
    np.testing.assert_allclose(ours(Z), theirs(Z), rtol=1e-13)
    # the complex derivative: the same difference quotient along 1 and along i
    got = np.array([complex(fg.grad(ours, holomorphic=True)(z)) for z in Z])
    h = 1e-6
    with np.errstate(all="ignore"):
        along_real = (theirs(Z + h) - theirs(Z - h)) / (2 * h)
        along_imag = (theirs(Z + 1j * h) - theirs(Z - 1j * h)) / (2j * h)
    # (the differences' own noise: rounding of the values over 2h)
    noise = 1e-9 * np.maximum(1.0, np.abs(theirs(Z)))
    finite = np.isfinite(theirs(Z)) & np.isfinite(along_real)
    assert finite.sum() >= 4
    for fd in (along_real, along_imag):
        assert np.all(np.abs(got - fd)[finite] <= 1e-7 * np.abs(fd)[finite] + noise[finite])


def test_complex_digamma_has_a_second_derivative_and_keeps_complex64():
    # psi''(z) against differences of the first (trigamma by reflection, recurrence, series)
    def trigamma(z):
        return complex(fg.grad(fsp.digamma, holomorphic=True)(z))
    for z in (1.5 + 0.5j, -2.3 + 0.4j, 30.0 - 2.0j):
        h = 1e-5
        want = (trigamma(z + h) - trigamma(z - h)) / (2 * h)
        got = complex(fg.grad(fg.grad(fsp.digamma, holomorphic=True), holomorphic=True)(z))
        assert abs(got - want) <= 1e-6 * abs(want)
    assert complex(fg.grad(fsp.digamma, holomorphic=True)(1 + 0j)) == pytest.approx(
        math.pi ** 2 / 6, rel=1e-15)
    # rgamma at the poles of gamma: (-1)**n n!, not 0 * inf
    for n in (0, 1, 2, 5):
        got = complex(fg.grad(fsp.rgamma, holomorphic=True)(complex(-n)))
        assert got == pytest.approx((-1) ** n * math.factorial(n), rel=1e-14)
    z64 = Z[:3].astype(np.complex64)
    for name in ("gamma", "digamma", "log_ndtr", "erf"):
        out = getattr(fsp, name)(z64)
        assert out.dtype == getattr(scipy_special, name)(z64).dtype, name


@pytest.mark.parametrize("name,hint", [("erfinv", "real"), ("erfcinv", "real"),
                                       ("ndtri", "real"), ("gammaln", "loggamma")])
def test_complex_arguments_scipy_rejects_raise_a_clear_type_error(name, hint):
    with pytest.raises(TypeError):
        getattr(scipy_special, name)(Z)
    with pytest.raises(TypeError, match=rf"{name}: complex input \(dtype complex128\) is not "
                                        rf"supported.*{hint}"):
        getattr(fsp, name)(Z)


# SciPy's poch, beta, expit, i0 and their kin have real loops only (session 19 checked each
# ufunc's types): ours say so, and name the complex counterpart where there is one, instead
# of NumPy's "ufunc 'floor' not supported for the input types" from inside a kernel
REAL_ONLY = [("poch", 2, r"gamma\(z \+ m\) \* rgamma\(z\)"),
             ("beta", 2, "loggamma"), ("betaln", 2, "loggamma"),
             ("expit", 1, "exp"), ("log_expit", 1, "log1p"), ("i0", 1, r"iv\(0, z\)"),
             ("i0e", 1, r"ive\(0, z\)"), ("i1", 1, r"iv\(1, z\)"), ("i1e", 1, r"ive\(1, z\)"),
             ("gammasgn", 1, "phase"), ("ndtri_exp", 1, "real"), ("owens_t", 2, "real"),
             ("boxcox", 2, "real"), ("boxcox1p", 2, "real")]


@pytest.mark.parametrize("name,nargs,hint", REAL_ONLY)
def test_functions_scipy_defines_for_real_arguments_only_reject_complex_clearly(name, nargs,
                                                                             hint):
    ours, theirs = getattr(fsp, name), getattr(scipy_special, name)
    with pytest.raises(TypeError):
        theirs(*[Z] * nargs)
    message = rf"{name}: complex input \(dtype complex128\) is not supported.*{hint}"
    with pytest.raises(TypeError, match=message):
        ours(*[Z] * nargs)
    # one complex argument among real ones, complex64, and a complex tracer under grad
    with pytest.raises(TypeError, match=rf"{name}: complex input"):
        ours(*[0.7] * (nargs - 1), Z.astype(np.complex64))
    with pytest.raises(TypeError, match=rf"{name}: complex input"):
        fg.grad(lambda z: ours(*[z] * nargs), holomorphic=True)(1.5 + 0.5j)
    # real arguments keep SciPy's values
    x = np.array([0.3, 1.7, 2.5]) * (-1 if name == "ndtri_exp" else 1)  # (log-probabilities)
    want = theirs(*[x] * nargs)
    assert np.isfinite(want).all()
    np.testing.assert_allclose(ours(*[x] * nargs), want, rtol=1e-13)


# --- stats: f, multivariate_t, pearsonr, spearmanr -------------------------------------------

F_SHAPES = [(3.0, 5.0), (0.7, 12.0), (30.0, 2.5), (1.0, 1.0)]


@pytest.mark.parametrize("dfn,dfd", F_SHAPES)
def test_f_matches_scipy_and_differentiates_in_its_shapes(dfn, dfd):
    assert "f" in fst.__all__
    x = np.array([-1.0, 0.0, 0.3, 1.0, 2.5, 40.0])
    with np.errstate(all="ignore"):
        for method in ("logpdf", "pdf", "cdf", "sf", "logcdf", "logsf"):
            np.testing.assert_allclose(getattr(fst.f, method)(x, dfn, dfd),
                                       getattr(scipy_stats.f, method)(x, dfn, dfd), rtol=1e-13,
                                       err_msg=method)
    q = np.array([1e-10, 0.01, 0.3, 0.5, 0.8, 1 - 1e-9])
    np.testing.assert_allclose(fst.f.ppf(q, dfn, dfd), scipy_stats.f.ppf(q, dfn, dfd),
                               rtol=1e-13)
    # (SciPy's isf takes 1 - q: its far upper tail loses digits; ours inverts sf itself,
    # checked by SciPy's sf, or by its cdf where 1 - q is the small tail)
    x = np.asarray(fst.f.isf(q, dfn, dfd))
    np.testing.assert_allclose(scipy_stats.f.sf(x[q <= 0.5], dfn, dfd), q[q <= 0.5],
                               rtol=1e-12)
    np.testing.assert_allclose(scipy_stats.f.cdf(x[q > 0.5], dfn, dfd), 1 - q[q > 0.5],
                               rtol=1e-9)
    for method in ("mean", "var", "entropy"):
        assert float(getattr(fst.f, method)(dfn, dfd)) == pytest.approx(
            getattr(scipy_stats.f, method)(dfn, dfd), rel=1e-13), method
    # every argument of cdf, sf and ppf against SciPy's differences
    for method, at in (("cdf", 1.3), ("sf", 1.3), ("ppf", 0.3), ("logpdf", 1.3)):
        ours, theirs = getattr(fst.f, method), getattr(scipy_stats.f, method)
        grads = fg.grad(ours, argnums=(0, 1, 2))(at, dfn, dfd)
        for i, g in enumerate(grads):
            def shifted(s):
                args = [at, dfn, dfd]
                args[i] = s
                return theirs(*args)
            # (the differences' noise: 1e-16 of the value over 1e-6)
            assert float(g) == pytest.approx(central(shifted, [at, dfn, dfd][i]), rel=1e-6,
                                             abs=1e-8), (method, i)


def _t_inputs():
    rng = np.random.default_rng(2)
    a = rng.normal(size=(3, 3))
    return rng.normal(size=(5, 3)), rng.normal(size=3), a @ a.T + np.eye(3)


@pytest.mark.parametrize("df", [1.0, 3.5, 40.0, np.inf])
def test_multivariate_t_logpdf_matches_scipy(df):
    x, loc, shape = _t_inputs()
    np.testing.assert_allclose(fst.multivariate_t.logpdf(x, loc, shape, df),
                               scipy_stats.multivariate_t.logpdf(x, loc, shape, df), rtol=1e-13)
    # (SciPy's own pdf fails at df = inf: compared as exp(logpdf))
    np.testing.assert_allclose(fst.multivariate_t.pdf(x, loc, shape, df),
                               np.exp(scipy_stats.multivariate_t.logpdf(x, loc, shape, df)),
                               rtol=1e-13)
    # SciPy's conventions: a scalar or 1-d x of one variable, a scalar shape, a frozen one
    assert float(fst.multivariate_t.logpdf(0.5, df=3.0)) == pytest.approx(
        scipy_stats.multivariate_t.logpdf(0.5, df=3.0), rel=1e-14)
    np.testing.assert_allclose(
        fst.multivariate_t.logpdf(np.array([0.5, 1.0]), shape=2.0, df=3.0),
        scipy_stats.multivariate_t.logpdf(np.array([0.5, 1.0]), shape=2.0, df=3.0), rtol=1e-14)
    frozen = fst.multivariate_t(loc, shape, df=df)
    np.testing.assert_allclose(frozen.logpdf(x), fst.multivariate_t.logpdf(x, loc, shape, df),
                               rtol=1e-15)


def test_multivariate_t_differentiates_in_x_loc_shape_and_df():
    x, loc, shape = _t_inputs()

    def theirs(point=x[0], mean=loc, matrix=shape, df=3.5):
        return scipy_stats.multivariate_t.logpdf(point, mean, matrix, df)
    grads = fg.grad(fst.multivariate_t.logpdf, argnums=(0, 1, 2, 3))(x[0], loc, shape, 3.5)
    for k in range(3):
        e = np.eye(3)[k]
        assert float(grads[0][k]) == pytest.approx(central(lambda s: theirs(point=x[0] + s * e),
                                                           0.0), rel=1e-7)
        assert float(grads[1][k]) == pytest.approx(central(lambda s: theirs(mean=loc + s * e),
                                                           0.0), rel=1e-7)
    # shape: along symmetric directions (SciPy reads a symmetric matrix)
    for i, j in ((0, 0), (0, 1), (1, 2)):
        sym = np.zeros((3, 3))
        sym[i, j] = sym[j, i] = 1.0
        assert float(np.sum(grads[2] * sym)) == pytest.approx(
            central(lambda s: theirs(matrix=shape + s * sym), 0.0), rel=1e-7)
    assert float(grads[3]) == pytest.approx(central(lambda s: theirs(df=s), 3.5), rel=1e-7)
    # second order, vmap and float32
    h = fg.hessian(lambda d: fst.multivariate_t.logpdf(x[0], loc, shape, d))(3.5)
    want = central(lambda s: float(fg.grad(lambda d: fst.multivariate_t.logpdf(
        x[0], loc, shape, d))(s)), 3.5, 1e-5)
    assert float(h) == pytest.approx(want, rel=1e-6)
    np.testing.assert_allclose(
        fg.vmap(lambda p: fst.multivariate_t.logpdf(p, loc, shape, 3.5))(x),
        scipy_stats.multivariate_t.logpdf(x, loc, shape, 3.5), rtol=1e-13)
    out32 = fst.multivariate_t.logpdf(*(v.astype(np.float32) for v in (x, loc, shape)), 3.5)
    assert out32.dtype == np.float32


def test_multivariate_t_rvs_moments_and_their_derivatives():
    _, loc, shape = _t_inputs()
    draws = np.asarray(fst.multivariate_t.rvs(loc, shape, df=5.0, size=40000, random_state=0))
    assert draws.shape == (40000, 3)
    # mean loc, covariance shape df/(df - 2), within the sampling error
    np.testing.assert_allclose(draws.mean(0), loc, atol=0.05)
    np.testing.assert_allclose(np.cov(draws.T), shape * 5.0 / 3.0, rtol=0.08, atol=0.08)
    # each draw is loc + L z / sqrt(g / a), a = df/2: in loc and shape by that formula, in df
    # with the gamma draw's level P(a, g) held fixed (its derivative, SciPy's inverse differenced)
    size = 6
    rng = np.random.default_rng(7)
    z, g = rng.standard_normal((size, 1)), rng.standard_gamma(2.5, (size,))
    level = scipy_special.gammainc(2.5, g)

    def theirs(df):
        return z[:, 0] * np.sqrt(df / 2 / scipy_special.gammaincinv(df / 2, level))
    got = fg.jacfwd(lambda d: fst.multivariate_t.rvs(0.0, 1.0, df=d, size=size,
                                                     random_state=7))(5.0)
    np.testing.assert_allclose(got, central(theirs, 5.0), rtol=1e-6)
    np.testing.assert_allclose(fst.multivariate_t.rvs(0.0, 1.0, df=5.0, size=size,
                                                      random_state=7), theirs(5.0), rtol=1e-12)
    jl = fg.jacfwd(lambda m: fst.multivariate_t.rvs(m, shape, df=5.0, size=2,
                                                    random_state=1))(loc)
    np.testing.assert_allclose(jl, np.broadcast_to(np.eye(3), (2, 3, 3)), rtol=1e-15)


def test_pearsonr_matches_scipy_and_differentiates():
    rng = np.random.default_rng(1)
    x = rng.normal(size=12)
    y = 0.5 * x + rng.normal(size=12)
    for alternative in ("two-sided", "less", "greater"):
        ours = fst.pearsonr(x, y, alternative=alternative)
        theirs = scipy_stats.pearsonr(x, y, alternative=alternative)
        assert float(ours.statistic) == pytest.approx(theirs.statistic, rel=1e-14)
        assert float(ours.pvalue) == pytest.approx(theirs.pvalue, rel=1e-12)
        np.testing.assert_allclose(ours.confidence_interval(0.9),
                                   theirs.confidence_interval(0.9), rtol=1e-13)
    r, p = fst.pearsonr(x, y)  # (unpacks as SciPy's)
    assert float(r) == pytest.approx(scipy_stats.pearsonr(x, y)[0], rel=1e-14)
    data = rng.normal(size=(2, 10, 4))
    for axis in (0, 1):
        ours, theirs = fst.pearsonr(*data, axis=axis), scipy_stats.pearsonr(*data, axis=axis)
        np.testing.assert_allclose(ours.statistic, theirs.statistic, rtol=1e-13, atol=1e-15)
        np.testing.assert_allclose(ours.pvalue, theirs.pvalue, rtol=1e-12)
    # statistic and p-value against SciPy's differences, in every component of x
    for field in ("statistic", "pvalue"):
        got = fg.grad(lambda v: getattr(fst.pearsonr(v, y), field))(x)
        want = [central(lambda s: getattr(scipy_stats.pearsonr(x + s * e, y), field), 0.0)
                for e in np.eye(12)]
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9)
    # SciPy's edge cases: a constant input has no coefficient, two points have p = 1
    assert np.isnan(float(fst.pearsonr(np.ones(5), y[:5]).statistic))
    assert float(fst.pearsonr(x[:2], y[:2]).pvalue) == 1.0
    with pytest.raises(ValueError, match="at least 2"):
        fst.pearsonr(x[:1], y[:1])


def test_spearmanr_matches_scipy_and_its_derivative_is_zero():
    rng = np.random.default_rng(3)
    x = rng.normal(size=15)
    y = x + rng.normal(size=15)
    for alternative in ("two-sided", "less", "greater"):
        ours = fst.spearmanr(x, y, alternative=alternative)
        theirs = scipy_stats.spearmanr(x, y, alternative=alternative)
        assert float(ours.statistic) == pytest.approx(theirs.statistic, rel=1e-14)
        assert float(ours.pvalue) == pytest.approx(theirs.pvalue, rel=1e-12)
    table = rng.normal(size=(15, 4))
    table[3, 1] = table[5, 1]  # (a tie: averaged ranks)
    for args, kw in (((table,), {}), ((table[:, :2], table[:, 2:]), {}), ((table.T,),
                                                                          {"axis": 1})):
        ours, theirs = fst.spearmanr(*args, **kw), scipy_stats.spearmanr(*args, **kw)
        np.testing.assert_allclose(ours.statistic, theirs.statistic, rtol=1e-13)
        # (the diagonal's p-values are 0 or rounding of 1 - rho there: below 1e-90 both)
        np.testing.assert_allclose(ours.pvalue, theirs.pvalue, rtol=1e-11, atol=1e-90)
    # a step function of the data: zero derivative (documented), not an error
    np.testing.assert_array_equal(fg.grad(lambda v: fst.spearmanr(v, y).statistic)(x),
                                  np.zeros(15))
    assert "almost everywhere" in fst.spearmanr.__doc__
