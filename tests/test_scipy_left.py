"""``funcgrad.scipy`` side by side with SciPy, session 15: the differences session 14's
peer run left (``gammaincc`` for a tiny ``a``, ``rgamma`` and ``beta`` at the poles of
Gamma, the discrete distributions' ``ppf``/``isf``, ``out=`` on the special functions)
and the functions added for it (``lambertw``, ``struve``, ``modstruve``, the spherical
Bessel functions), each against SciPy's own values and derivatives against central
differences of SciPy's functions."""
import math
import warnings

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def central(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


def same(got, want):
    """Equal values to the last digits (NaN where NaN, inf where inf) and zeros of the same
    sign."""
    got, want = np.asarray(got), np.asarray(want)
    np.testing.assert_allclose(got, want, rtol=1e-15)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))


# --- gammaincc for a tiny a --------------------------------------------------------------------

def test_gammaincc_keeps_its_digits_as_a_goes_to_zero():
    a = np.array([1e-10, 1e-5, 1e-3, 0.05, 0.19])
    tiny = np.array([1e-300, 1e-100, 1e-20])
    for x in (1e-5, 0.1, 0.5, 0.9):
        # (SciPy's own error is up to ~1e-14 here, 2e-14 at a = 1e-300: see mpmath)
        np.testing.assert_allclose(fsp.gammaincc(a, x), scipy_special.gammaincc(a, x),
                                   rtol=1e-13)
        # Q(a, x) = a E1(x) (1 + O(a)) as a -> 0: the old 1 - P gave 0 or a negative
        # number here (-5e-14 at a = 1e-300, x = 1e-5)
        np.testing.assert_allclose(fsp.gammaincc(tiny, x), tiny * scipy_special.exp1(x),
                                   rtol=1e-14)
    assert float(fg.grad(fsp.gammaincc, 1)(1e-10, 0.5)) == pytest.approx(
        central(lambda t: scipy_special.gammaincc(1e-10, t), 0.5), rel=1e-7)


# --- rgamma and beta at the poles of Gamma ------------------------------------------------------

def test_rgamma_at_far_poles_and_infinities_is_scipys():
    x = np.array([-170.5, -171.0, -171.5, -200.0, -1e20, -1e300, -np.inf, np.nan, np.inf,
                  -0.0, 0.0, -3.0, -2.5, 0.3, 4.0])
    same(fsp.rgamma(x), scipy_special.rgamma(x))
    # the derivative at -n is (-1)**n n!, which overflows past n = 170
    assert float(fg.grad(fsp.rgamma)(-200.0)) == math.inf
    assert float(fg.grad(fsp.rgamma)(-171.0)) == -math.inf
    assert float(fg.grad(fsp.rgamma)(-3.0)) == -6.0
    # at -0.0 the value's sign is SciPy's and the derivatives are 1/Gamma's: 1, 2 gamma
    assert float(fg.grad(fsp.rgamma)(-0.0)) == 1.0
    assert float(fg.grad(fg.grad(fsp.rgamma))(-0.0)) == pytest.approx(2 * 0.5772156649015329)


def test_rgamma_and_beta_gradients_off_the_poles_raise_no_warning():
    # the far-pole branch's infinite slope met the zero cotangent of the branch not taken
    # (0 * inf): every grad of rgamma and beta warned of an invalid value, an error under
    # warnings-as-errors, though the gradient was right
    x = np.array([0.3, 1.3, -0.7, 2.5])
    want = -scipy_special.digamma(x) * scipy_special.rgamma(x)
    a, b = np.array([1.5, 2.3]), np.array([1.7, 1.4])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(fg.elementwise_grad(fsp.rgamma)(x), want, rtol=1e-12)
        fg.grad(fg.grad(fsp.rgamma))(0.3)
        got = fg.grad(lambda a: np.sum(fsp.beta(a, b)))(a)
    beta_ab = scipy_special.beta(a, b)
    np.testing.assert_allclose(got, beta_ab * (scipy_special.digamma(a)
                                               - scipy_special.digamma(a + b)), rtol=1e-12)


def test_beta_at_the_poles_is_scipys_with_signs():
    vals = np.array([-np.inf, -1e10, -3.0, -2.5, -2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0,
                     3.0, 4.5, np.inf, np.nan])
    a, b = np.meshgrid(vals, vals)
    got, want = fsp.beta(a, b), scipy_special.beta(a, b)
    np.testing.assert_allclose(got, want, rtol=1e-14)
    finite = np.isfinite(want) | np.isinf(want)
    np.testing.assert_array_equal(np.signbit(got[finite]), np.signbit(want[finite]))
    assert fsp.beta(a.astype(np.float32), b.astype(np.float32)).dtype == np.float32


@pytest.mark.parametrize("a,b", [(0.0, 1.0), (-1.0, 2.0), (1.0, -1.0), (2.0, -3.0),
                                 (-1.0, -1.0)])
def test_beta_has_no_derivative_at_a_pole(a, b):
    # (the values there are limits along one direction: no derivative, so NaN, not 0)
    for argnum in (0, 1):
        assert math.isnan(float(fg.grad(fsp.beta, argnum)(a, b)))
        assert math.isnan(float(fg.grad(fg.grad(fsp.beta, argnum), argnum)(a, b)))
    # away from the poles the derivative is unchanged: d/da B = B (psi(a) - psi(a + b))
    want = scipy_special.beta(2.0, 3.0) * (scipy_special.digamma(2.0)
                                           - scipy_special.digamma(5.0))
    assert float(fg.grad(fsp.beta)(2.0, 3.0)) == pytest.approx(want, rel=1e-14)


# --- discrete distributions: ppf and isf ---------------------------------------------------------

_Q = np.concatenate([np.random.default_rng(0).uniform(size=100),
                     [0.0, 1.0, 1e-12, 1 - 1e-12, 0.5, -0.1, 1.1, np.nan]])
DISCRETE = [("poisson", (3.5,)), ("poisson", (0.0,)), ("poisson", (1000.0,)),
            ("poisson", (-1.0,)), ("binom", (10, 0.3)), ("binom", (7, 1.0)),
            ("binom", (2.5, 0.3)), ("geom", (0.3,)), ("geom", (1e-4,)), ("geom", (0.0,)),
            ("nbinom", (5, 0.4)), ("nbinom", (0.5, 0.9)), ("bernoulli", (0.3,)),
            ("bernoulli", (1.5,)), ("betabinom", (10, 2.0, 3.0)),
            ("betabinom", (10, -1.0, 2.0))]


@pytest.mark.parametrize("name,args", DISCRETE, ids=[f"{d[0]}{d[1]}" for d in DISCRETE])
@pytest.mark.parametrize("method", ["ppf", "isf"])
def test_discrete_quantiles_are_scipys(name, args, method):
    for loc in (0.0, 2.0):
        got = getattr(getattr(fst, name), method)(_Q, *args, loc=loc)
        want = getattr(getattr(scipy_stats, name), method)(_Q, *args, loc=loc)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype == np.float64


def test_discrete_quantiles_where_scipy_loses_the_tail():
    # SciPy's isf is ppf(1 - q): 1 - 1e-300 rounds to 1 (poisson: NaN, geom: inf); the
    # least k with sf(k) <= q, checked on SciPy's sf
    k = float(fst.poisson.isf(1e-300, 3.5))
    assert scipy_stats.poisson.sf(k, 3.5) <= 1e-300 < scipy_stats.poisson.sf(k - 1, 3.5)
    assert float(fst.geom.isf(1e-300, 0.3)) == math.ceil(300 * math.log(10) / -math.log(0.7))
    # geom(p = 1) is 1 with certainty (SciPy's ppf gives 0, outside the support)
    assert float(fst.geom.ppf(0.5, 1.0)) == 1.0


def test_discrete_quantiles_trace_and_have_zero_derivative():
    q = np.array([0.1, 0.5, 0.99])
    want = scipy_stats.poisson.ppf(q, 3.5)
    np.testing.assert_array_equal(fg.jit(lambda q: fst.poisson.ppf(q, 3.5))(q), want)
    np.testing.assert_array_equal(fg.vmap(lambda q: fst.binom.isf(q, 10, 0.3))(q),
                                  scipy_stats.binom.isf(q, 10, 0.3))
    assert float(fg.grad(lambda m: fst.poisson.ppf(0.5, m))(3.5)) == 0.0


def test_betabinom_cdf_and_sf_are_scipys_and_differentiable():
    k = np.array([[-1.0], [0.0], [2.5], [4.0], [10.0], [12.0]])
    n = np.array([5, 10])
    for m in ("cdf", "sf"):
        np.testing.assert_allclose(getattr(fst.betabinom, m)(k, n, 2.0, 3.0),
                                   getattr(scipy_stats.betabinom, m)(k, n, 2.0, 3.0),
                                   rtol=1e-13, atol=1e-16)
    got = float(fg.grad(lambda a: fst.betabinom.cdf(3.0, 10, a, 3.0))(2.0))
    assert got == pytest.approx(central(lambda a: scipy_stats.betabinom.cdf(3.0, 10, a, 3.0),
                                        2.0), rel=1e-7)


def test_poisson_sf_tail_and_nbinom_at_infinity_are_scipys():
    k = np.array([0.0, 5.0, 28.0, 100.0, 200.0])
    np.testing.assert_allclose(fst.poisson.sf(k, 3.5), scipy_stats.poisson.sf(k, 3.5),
                               rtol=1e-12)
    assert float(fst.nbinom.cdf(np.inf, 5, 0.4)) == 1.0
    assert float(fst.nbinom.sf(np.inf, 5, 0.4)) == 0.0


# --- out= --------------------------------------------------------------------------------------

def test_out_writes_plain_arrays_as_scipys_ufuncs():
    x = np.array([1.0, 2.0, 3.0])
    out = np.zeros(3)
    assert fsp.gammaln(x, out=out) is out
    np.testing.assert_array_equal(out, scipy_special.gammaln(x))
    out32 = np.zeros(3, np.float32)  # (same_kind casting, as a ufunc's out)
    fsp.erf(x, out=out32)
    np.testing.assert_array_equal(out32, scipy_special.erf(x, out=np.zeros(3, np.float32)))
    wide = np.zeros((2, 3))  # (the result broadcast to out's shape)
    fsp.expit(x, out=wide)
    np.testing.assert_array_equal(wide, scipy_special.expit(x, out=np.zeros((2, 3))))
    s, c = np.zeros(3), np.zeros(3)
    pair = fsp.sici(x, out=(s, c))
    assert pair[0] is s and pair[1] is c
    np.testing.assert_array_equal(c, scipy_special.sici(x)[1])
    out0 = np.zeros(())
    fsp.zeta(2.0, out=out0)
    assert float(out0) == float(fsp.zeta(2.0)) == pytest.approx(math.pi ** 2 / 6, rel=1e-15)
    assert fsp.psi is fsp.digamma


def test_out_refuses_traced_values_and_bad_outs():
    with pytest.raises(TypeError, match="use the returned value"):
        fg.grad(lambda x: fsp.gammaln(x, out=np.zeros(())))(2.0)
    with pytest.raises(TypeError, match="same_kind"):
        fsp.erf(np.ones(3), out=np.zeros(3, int))
    # (SciPy's ufuncs' own errors, in NumPy's words)
    with pytest.raises(TypeError, match="return arrays must be of ArrayType"):
        fsp.erf(np.ones(3), out=[0.0, 0.0, 0.0])
    with pytest.raises(TypeError, match="'out' must be a tuple of arrays"):
        fsp.sici(np.ones(3), out=np.zeros(3))
    with pytest.raises(ValueError, match="one entry per ufunc output"):
        fsp.sici(np.ones(3), out=(np.zeros(3),))


# --- lambertw, struve, modstruve, spherical Bessel functions ---------------------------------------

def test_lambertw_is_scipys_with_its_derivative():
    z = np.array([0.0, 0.3, 1.0, np.e, 10.0, -0.2, -1 / np.e, np.inf, np.nan, -1.0])
    for k in (0, -1, 1):
        got, want = fsp.lambertw(z, k), scipy_special.lambertw(z, k)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype == np.complex128
    assert complex(fsp.lambertw(1.0, tol=1e-3)) == complex(scipy_special.lambertw(1.0, tol=1e-3))
    for x in (0.0, 0.3, 5.0):
        got = float(fg.grad(lambda z: fsp.lambertw(z).real)(x))
        assert got == pytest.approx(central(lambda t: scipy_special.lambertw(t).real, x),
                                    rel=1e-7)
    z0 = 1.0 + 1.0j
    got = complex(fg.grad(fsp.lambertw, holomorphic=True)(z0))
    assert got == pytest.approx(central(scipy_special.lambertw, z0), rel=1e-7)
    with pytest.raises(NotImplementedError, match="k"):
        fg.grad(lambda k: fsp.lambertw(1.0, k).real)(0.0)


@pytest.mark.parametrize("name", ["struve", "modstruve"])
def test_struve_functions_are_scipys_with_derivatives(name):
    f, ref = getattr(fsp, name), getattr(scipy_special, name)
    v, x = np.meshgrid([0.0, 1.0, 0.5, 2.5, -1.5, 3.0], [0.0, 0.5, 2.0, 10.0, -1.0, 30.0])
    np.testing.assert_array_equal(f(v, x), ref(v, x))
    assert f(np.float32(1.0), np.float32(1.0)).dtype == ref(np.float32(1.0), np.float32(1.0)).dtype
    for vv, xx in [(0.0, 1.0), (1.0, 2.0), (0.5, 0.7), (2.5, 3.0), (-1.5, 2.0), (3.0, 12.0)]:
        d1 = float(fg.grad(f, 1)(vv, xx))
        assert d1 == pytest.approx(central(lambda t: ref(vv, t), xx), rel=1e-7)
        d2 = float(fg.grad(fg.grad(f, 1), 1)(vv, xx))
        assert d2 == pytest.approx(central(lambda t: central(lambda s: ref(vv, s), t, 1e-4),
                                           xx, 1e-4), rel=1e-5, abs=1e-7)
    # at 0: H_0'(0) = L_0'(0) = 2/pi
    assert float(fg.grad(f, 1)(0.0, 0.0)) == pytest.approx(2 / math.pi, rel=1e-15)
    with pytest.raises(NotImplementedError, match="respect to v"):
        fg.grad(f)(1.0, 2.0)


@pytest.mark.parametrize("name", ["spherical_jn", "spherical_yn", "spherical_in",
                                  "spherical_kn"])
def test_spherical_bessel_functions_are_scipys_with_derivatives(name):
    f, ref = getattr(fsp, name), getattr(scipy_special, name)
    n, z = np.meshgrid([0, 1, 2, 5], [0.0, 0.5, 2.0, 20.0, -1.0])
    for derivative in (False, True):
        got, want = f(n, z, derivative), ref(n, z, derivative)
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype
    assert complex(f(1, 1.0 + 1.0j)) == complex(ref(1, 1.0 + 1.0j))
    for nn in (0, 1, 3):
        for zz in (0.5, 2.0):
            # the first derivative is SciPy's derivative=True value
            assert float(fg.grad(f, 1)(nn, zz)) == float(ref(nn, zz, True))
            d2 = float(fg.grad(fg.grad(f, 1), 1)(nn, zz))
            assert d2 == pytest.approx(central(lambda t: ref(nn, t, True), zz), rel=1e-6)
            assert float(fg.grad(lambda t: f(nn, t, derivative=True))(zz)) == d2
    with pytest.raises(NotImplementedError, match="respect to n"):
        fg.grad(f)(1.0, 2.0)


def test_plain_scipy_struve_and_lambertw_reach_funcgrads_on_traced_values():
    # (struve is a SciPy ufunc; lambertw a Python function around the private _lambertw)
    x = np.array([0.5, 1.0, 2.0])
    got = fg.grad(lambda v: np.sum(scipy_special.struve(1.0, v)))(x)
    np.testing.assert_allclose(got, [central(lambda t: scipy_special.struve(1.0, t), v)
                                     for v in x], rtol=1e-7)
    got = fg.grad(lambda v: np.sum(scipy_special.lambertw(v).real))(x)
    w = scipy_special.lambertw(x).real
    np.testing.assert_allclose(got, w / (x * (1 + w)), rtol=1e-14)


# --- the sweep's findings -------------------------------------------------------------------------

def test_beta_and_betaln_with_one_argument_far_larger_are_scipys():
    # (gammaln(a) - gammaln(a + b) cancelled to 0: betaln(1e300, 1) was 0, beta 1)
    a = np.array([1e300, 1e300, 1e7, 1e8, 700.0, 200.5, -200.5, 1e300])
    b = np.array([1.0, 0.5, -0.5, 3.0, -0.5, -100.25, 50.0, -0.5])
    for f in ("beta", "betaln"):
        np.testing.assert_allclose(getattr(fsp, f)(a, b), getattr(scipy_special, f)(a, b),
                                   rtol=1e-12)
        np.testing.assert_allclose(getattr(fsp, f)(b, a), getattr(scipy_special, f)(b, a),
                                   rtol=1e-12)
    for t in (0.5, 3.0):
        got = float(fg.grad(fsp.betaln, 1)(1e7, t))
        assert got == pytest.approx(central(lambda s: scipy_special.betaln(1e7, s), t),
                                    rel=1e-6)
    assert float(fg.grad(fsp.beta, 1)(700.0, -0.5)) == pytest.approx(
        central(lambda s: scipy_special.beta(700.0, s), -0.5), rel=1e-6)
    # betaln at the poles: SciPy's log|beta| (inf, or log of the finite limit), no derivative
    pa, pb = np.array([0.0, -1.0, 1.0, 2.0]), np.array([1.0, 2.0, -1.0, -3.0])
    np.testing.assert_array_equal(fsp.betaln(pa, pb), scipy_special.betaln(pa, pb))
    assert math.isnan(float(fg.grad(fsp.betaln)(1.0, -1.0)))


def test_rel_entr_past_the_float_range_is_scipys():
    x = np.array([1e300, 1e-300, 1.0, 1e-310])
    y = np.array([1e-300, 1e300, 2.0, 1.0])
    np.testing.assert_allclose(fsp.rel_entr(x, y), scipy_special.rel_entr(x, y), rtol=1e-14)
    # kl_div = rel_entr - x + y >= 0 (SciPy's own gives inf and -inf here)
    np.testing.assert_allclose(fsp.kl_div(x[:2], y[:2]),
                               scipy_special.rel_entr(x[:2], y[:2]) - x[:2] + y[:2],
                               rtol=1e-14)


def test_betainc_with_an_infinite_shape_is_scipys_point_mass():
    ab = np.array([np.inf, 0.5, 2.0, 0.0])
    a, b, x = np.meshgrid(ab, ab, np.array([0.0, 1e-10, 0.5, 1.0]))
    inf = np.isinf(a) | np.isinf(b)
    got, want = fsp.betainc(a, b, x), scipy_special.betainc(a, b, x)
    np.testing.assert_array_equal(got[inf], want[inf])
    np.testing.assert_allclose(got, want, rtol=1e-14)
    np.testing.assert_array_equal(fg.jit(fsp.betainc)(a, b, x)[inf], want[inf])


def test_t_moments_at_infinite_df_are_the_normals():
    for m in ("mean", "var", "std", "entropy"):
        got = getattr(fst.t, m)(np.array([np.inf, 3.0, 1.5, 0.5]), loc=0.5, scale=2.0)
        want = getattr(scipy_stats.t, m)(np.array([np.inf, 3.0, 1.5, 0.5]), loc=0.5, scale=2.0)
        np.testing.assert_allclose(got, want, rtol=1e-14)
        assert float(getattr(fst.t, m)(np.inf)) == pytest.approx(
            float(getattr(scipy_stats.norm, m)()), rel=1e-14)


def test_cauchy_far_tails_are_scipys():
    x = np.array([-np.inf, -1e300, -1e9, -3.0, 0.0, 0.5, 2.0, 1e9, 1e300, np.inf, np.nan])
    for m in ("logpdf", "pdf", "cdf", "sf", "logcdf", "logsf"):
        np.testing.assert_allclose(getattr(fst.cauchy, m)(x, loc=0.5, scale=2.0),
                                   getattr(scipy_stats.cauchy, m)(x, loc=0.5, scale=2.0),
                                   rtol=1e-14)
    for z in (-3.0, 0.3, 2.0, 50.0):
        for m in ("logpdf", "sf"):
            ref = getattr(scipy_stats.cauchy, m)
            assert float(fg.grad(getattr(fst.cauchy, m))(z)) == pytest.approx(
                central(ref, z), rel=1e-7)
