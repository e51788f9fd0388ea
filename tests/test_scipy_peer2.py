"""``funcgrad.scipy`` against SciPy, second pass: the wrong or NaN derivatives a
side-by-side run (every argument, not only the first, against central differences of
SciPy's own functions) found, each pinned against SciPy's values."""
import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402


def central(f, x, h=1e-6):
    return (float(f(x + h)) - float(f(x - h))) / (2 * h)


# --- stats: derivatives at the centre of a symmetric distribution ----------------------------

@pytest.mark.parametrize("loc, scale", [(0.0, 1.0), (1.3, 0.7)])
def test_laplace_slopes_at_loc_are_the_density_not_half_of_it(loc, scale):
    density = scipy_stats.laplace.pdf(loc, loc, scale)
    assert float(fg.grad(fst.laplace.cdf)(loc, loc, scale)) == pytest.approx(density, rel=1e-14)
    assert float(fg.grad(fst.laplace.sf)(loc, loc, scale)) == pytest.approx(-density, rel=1e-14)
    assert float(fg.grad(fst.laplace.logcdf)(loc, loc, scale)) == pytest.approx(2 * density)
    assert float(fg.grad(fst.laplace.cdf, 1)(loc, loc, scale)) == pytest.approx(-density)
    # the quantile's slope at the median is 1 / density
    assert float(fg.grad(fst.laplace.ppf)(0.5, loc, scale)) == pytest.approx(1 / density)
    assert float(fg.grad(fst.laplace.isf)(0.5, loc, scale)) == pytest.approx(-1 / density)


@pytest.mark.parametrize("df", [0.7, 1.0, 3.0, 30.0])
def test_t_cdf_slope_at_loc_is_the_density(df):
    density = scipy_stats.t.pdf(0.0, df)
    for method, sign in (("cdf", 1.0), ("sf", -1.0), ("logcdf", 2.0), ("logsf", -2.0)):
        g = fg.grad(getattr(fst.t, method))(0.0, df)
        assert float(g) == pytest.approx(sign * density, rel=1e-12), method
    assert float(fst.t.cdf(0.0, df)) == 0.5
    # d/dscale at x = loc: the CDF stays 1/2 whatever the scale
    assert float(fg.grad(lambda s: fst.t.cdf(1.0, df, loc=1.0, scale=s))(2.0)) == 0.0


@pytest.mark.parametrize("beta", [0.7, 1.0, 2.0, 5.0])
def test_gennorm_derivatives_at_loc_are_finite_and_scipys(beta):
    density = scipy_stats.gennorm.pdf(0.0, beta)
    assert float(fg.grad(fst.gennorm.cdf)(0.0, beta)) == pytest.approx(density, rel=1e-12)
    assert float(fg.grad(fst.gennorm.logcdf)(0.0, beta)) == pytest.approx(2 * density)
    assert float(fg.grad(fst.gennorm.ppf)(0.5, beta)) == pytest.approx(1 / density)
    # d logpdf / d scale at x = loc is -1/scale (|z|**beta has slope 0 there)
    g = fg.grad(lambda s: fst.gennorm.logpdf(0.3, beta, loc=0.3, scale=s))(2.0)
    assert float(g) == pytest.approx(-0.5)
    # the far tail: log(0) of the other side must not leak a NaN
    g = fg.grad(lambda x: fst.gennorm.logcdf(x, beta))(40.0)
    assert np.isfinite(float(g))


def test_cdf_derivatives_outside_the_support_are_zero_not_nan():
    cases = [(fst.gamma, scipy_stats.gamma, (0.3,), (-5.0, -0.1)),
             (fst.chi2, scipy_stats.chi2, (0.5,), (-5.0,)),
             (fst.beta, scipy_stats.beta, (0.4, 0.6), (-5.0, 7.0))]
    for dist, ref, shape, outside in cases:
        for x in outside:
            for method in ("cdf", "sf", "logsf" if x < 0 else "logcdf"):
                g = fg.grad(lambda v: getattr(dist, method)(v, *shape))(x)
                want = central(lambda v: getattr(ref, method)(v, *shape), x)
                assert float(g) == want == 0.0, (dist.name, method, x)


def test_cdf_derivatives_inside_the_support_unchanged():
    for x in (0.4, 2.5):
        g = fg.grad(lambda v: fst.gamma.cdf(v, 0.3, scale=3.0))(x)
        assert float(g) == pytest.approx(scipy_stats.gamma.pdf(x, 0.3, scale=3.0), rel=1e-12)
    g = fg.grad(lambda v: fst.beta.sf(v, 0.4, 0.6))(0.3)
    assert float(g) == pytest.approx(-scipy_stats.beta.pdf(0.3, 0.4, 0.6), rel=1e-12)


# --- special: the densities' x**0 = 1 at the ends ---------------------------------------------

def test_gammainc_slope_at_zero_for_a_one_is_one():
    assert float(fg.grad(fsp.gammainc, 1)(1.0, 0.0)) == 1.0
    assert float(fg.grad(fsp.gammaincc, 1)(1.0, 0.0)) == -1.0
    x = np.array([0.0, 0.5, 2.0])
    _, pull = fg.vjp(lambda v: fsp.gammainc(np.array([1.0, 1.0, 2.5]), v), x)
    want = scipy_stats.gamma.pdf(x, np.array([1.0, 1.0, 2.5]))
    np.testing.assert_allclose(pull(np.ones(3))[0], want, rtol=1e-13)


def test_betainc_slope_at_the_ends_with_a_unit_shape():
    # I_x(a, 1) = x**a: slope a at x = 1; I_x(1, b) = 1 - (1-x)**b: slope b at x = 0
    assert float(fg.grad(fsp.betainc, 2)(2.0, 1.0, 1.0)) == pytest.approx(2.0, rel=1e-14)
    assert float(fg.grad(fsp.betainc, 2)(1.0, 3.0, 0.0)) == pytest.approx(3.0, rel=1e-14)


def test_boxcox_slope_in_lmbda_at_zero_is_one_over_lmbda_squared():
    # boxcox(0, l) = -1/l for l > 0 (SciPy's value), so d/dl = 1/l**2
    for lmbda in (0.2, 0.5, 1.7):
        assert float(fsp.boxcox(0.0, lmbda)) == scipy_special.boxcox(0.0, lmbda)
        assert float(fg.grad(fsp.boxcox, 1)(0.0, lmbda)) == pytest.approx(lmbda ** -2.0)
        assert float(fg.grad(fsp.boxcox1p, 1)(-1.0, lmbda)) == pytest.approx(lmbda ** -2.0)
    want = central(lambda l: scipy_special.boxcox(2.0, l), 0.5)
    assert float(fg.grad(fsp.boxcox, 1)(2.0, 0.5)) == pytest.approx(want, rel=1e-8)
    # boxcox(x, 1) = x - 1: slope 1 in x also at x = 0
    assert float(fg.grad(fsp.boxcox)(0.0, 1.0)) == 1.0


def test_hyp2f1_slope_in_z_is_zero_when_the_series_is_constant():
    # a = 0 (or b = 0) with c != 0: 2F1 = 1 for every z (SciPy's values)
    for a, b, c, z in ((0.0, 2.0, 0.5, 2.0), (0.0, 0.0, 0.5, 0.5), (1.5, 0.0, 3.0, 0.9)):
        assert scipy_special.hyp2f1(a, b, c, z) == 1.0
        assert float(fg.grad(fsp.hyp2f1, 3)(a, b, c, z)) == 0.0
    want = central(lambda z: scipy_special.hyp2f1(1.0, 2.0, 3.0, z), 0.5)
    assert float(fg.grad(fsp.hyp2f1, 3)(1.0, 2.0, 3.0, 0.5)) == pytest.approx(want, rel=1e-8)


def test_riemann_zeta_below_one_is_scipys_continuation():
    x = np.concatenate([np.linspace(-3.0, 0.99, 57), [-201.0, -171.5, -40.0, -20.5, -2.0,
                                                      -1.0, 0.0, 1.0, 2.5, np.nan, np.inf]])
    np.testing.assert_allclose(fsp.zeta(x), scipy_special.zeta(x), rtol=1e-13, atol=1e-300)
    assert float(fsp.zeta(-2.0)) == float(fsp.zeta(-40.0)) == 0.0  # the trivial zeros
    assert np.isnan(float(fsp.zeta(-np.inf)))
    assert fsp.zeta(np.float32([-3.7, 0.5])).dtype == np.float32
    # Hurwitz's q is untouched: NaN below 1, as SciPy's
    assert np.isnan(float(fsp.zeta(0.5, 2.0))) and np.isnan(scipy_special.zeta(0.5, 2.0))


def test_logsumexp_of_an_empty_axis_is_minus_inf_as_scipy():
    for a, kw in ((np.zeros(0), {}), (np.zeros((2, 0)), dict(axis=1)),
                  (np.zeros((0, 3)), dict(axis=0, keepdims=True))):
        np.testing.assert_array_equal(fsp.logsumexp(a, **kw), scipy_special.logsumexp(a, **kw))


def test_pseudo_huber_at_nan_and_infinite_delta_is_scipys():
    delta = np.array([np.inf, np.inf, np.nan, np.nan, -1.0, 0.0, 2.0])
    r = np.array([2.0, 0.0, 0.0, 1.0, 0.0, 3.0, 0.5])
    for dtype in (np.float64, np.float32):
        got = fsp.pseudo_huber(delta.astype(dtype), r.astype(dtype))
        want = scipy_special.pseudo_huber(delta.astype(dtype), r.astype(dtype))
        np.testing.assert_allclose(got, want, rtol=1e-6 if dtype == np.float32 else 1e-15)
        assert got.dtype == want.dtype


# --- special: SciPy's distribution functions and binom (added) ---------------------------------

_G = [-1.0, 0.0, 0.3, 1.0, 2.7, 12.0, np.inf, np.nan]
_P = [-0.1, 0.0, 0.3, 1.0, 1.2, np.nan]
_CDTR = {"chdtr": [_G, _G], "chdtrc": [_G, _G], "gdtr": [_G, _G, _G], "gdtrc": [_G, _G, _G],
         "pdtr": [_G, _G], "pdtrc": [_G, _G], "bdtr": [_G, [0.0, 1.0, 5.0, 12.0, np.nan], _P],
         "bdtrc": [_G, [0.0, 1.0, 5.0, 12.0, np.nan], _P], "nbdtr": [_G, [0.3, 1.0, 5.0], _P],
         "nbdtrc": [_G, [0.0, 1.0, 5.0], _P],
         "stdtr": [[-1.0, 0.0, 0.5, 3.0, np.inf, np.nan], [-40.0, -0.5, 0.0, 2.0, np.inf, np.nan]],
         "fdtr": [[-1.0, 0.5, 2.0], [0.5, 9.0], [-1.0, 0.0, 0.3, 4.0, np.inf, np.nan]],
         "fdtrc": [[-1.0, 0.5, 2.0], [0.5, 9.0], [-1.0, 0.0, 0.3, 4.0, np.inf, np.nan]],
         "binom": [[-3.0, -3.5, -0.5, 0.0, 1e-9, 2.0, 5.5, 30.0, 1e11, np.inf],
                   [-2.0, -1.5, 0.0, 0.5, 2.0, 3.0, 19.0, 25.5, 60.0, 1e3]]}


@pytest.mark.parametrize("name", sorted(_CDTR))
def test_distribution_functions_are_scipys_values(name):
    import itertools
    args = [np.array(c) for c in zip(*itertools.product(*_CDTR[name]))]
    with np.errstate(all="ignore"):
        want = getattr(scipy_special, name)(*args)
        got = getattr(fsp, name)(*args)
        np.testing.assert_allclose(got, want, rtol=1e-11, atol=0)
        got32 = getattr(fsp, name)(*[a.astype(np.float32) for a in args])
    assert got32.dtype == np.float32


@pytest.mark.parametrize("name, args, argnum", [
    ("chdtr", (3.0, 2.5), 1), ("gdtrc", (0.7, 2.0, 1.5), 2), ("pdtr", (3.0, 2.2), 1),
    ("bdtr", (2.0, 7.0, 0.3), 2), ("nbdtrc", (2.0, 5.0, 0.4), 2), ("stdtr", (2.5, 0.7), 1),
    ("stdtr", (2.5, 0.0), 1), ("fdtr", (3.0, 5.0, 1.2), 2), ("binom", (5.5, 2.5), 0),
    ("binom", (5.5, 2.5), 1), ("binom", (5.5, 2.0), 1), ("binom", (7.0, 3.0), 0),
    # (SciPy's product for n choose n - k: the slope in n is still that of n choose k)
    ("binom", (5.0, 3.0), 0), ("binom", (7.0, 7.0), 0), ("binom", (0.0, 1.0), 0),
    ("binom", (30.0, 25.0), 1)])
def test_distribution_function_derivatives_against_scipy(name, args, argnum):
    g = fg.grad(getattr(fsp, name), argnum)(*args)

    def ref(v):
        shifted = list(args)
        shifted[argnum] = v
        return getattr(scipy_special, name)(*shifted)
    assert float(g) == pytest.approx(central(ref, args[argnum]), rel=1e-7, abs=1e-10)


def test_distribution_functions_of_python_numbers():
    for name, args in (("binom", (5.0, 2.0)), ("binom", (5.5, 2.5)), ("bdtr", (2.0, 5.0, 0.3)),
                       ("stdtr", (3.0, 0.5)), ("fdtr", (2.0, 3.0, 1.5)), ("pdtr", (2.0, 1.5))):
        assert float(getattr(fsp, name)(*args)) == pytest.approx(
            getattr(scipy_special, name)(*args), rel=1e-13)


def test_counts_are_steps_and_shapes_in_a_primitive_say_so():
    # k of pdtr is floored: derivative 0, not the primitive's missing one
    assert float(fg.grad(fsp.pdtr)(2.5, 1.0)) == 0.0
    # v enters gammainc's a: its derivative there (against SciPy's differences)
    h = 1e-6
    fd = (scipy_special.chdtr(3.0 + h, 2.5) - scipy_special.chdtr(3.0 - h, 2.5)) / (2 * h)
    assert float(fg.grad(fsp.chdtr)(3.0, 2.5)) == pytest.approx(fd, rel=1e-8)


# --- stats: summary functions (added) ---------------------------------------------------------

_RNG = np.random.default_rng(17)
_A = _RNG.uniform(0.2, 3.0, (5, 6))
_PK, _QK, _W = (_RNG.uniform(0.1, 1.0, (5, 6)) for _ in range(3))
_SUMMARY = [("entropy", (_PK,), {}), ("entropy", (_PK, _QK), dict(axis=1, base=2)),
            ("entropy", (_PK,), dict(axis=None)), ("entropy", (_PK,), dict(keepdims=True)),
            ("zscore", (_A,), dict(axis=1, ddof=1)), ("zscore", (_A,), dict(axis=None)),
            ("gmean", (_A,), dict(weights=_W)), ("gmean", (_A,), dict(axis=None)),
            ("hmean", (_A,), dict(axis=1, weights=_W)), ("moment", (_A,), dict(order=3)),
            ("moment", (_A,), dict(order=2, center=0.5, axis=None)),
            ("moment", (_A,), dict(order=0)), ("skew", (_A,), dict(bias=False)),
            ("skew", (_A,), dict(axis=1, keepdims=True)), ("kurtosis", (_A,), {}),
            ("kurtosis", (_A,), dict(fisher=False, bias=False, axis=None)),
            ("variation", (_A,), dict(ddof=1, axis=1))]


@pytest.mark.parametrize("name, args, kw", _SUMMARY)
def test_summary_functions_are_scipys_and_differentiate(name, args, kw):
    want = getattr(scipy_stats, name)(*args, **kw)
    got = getattr(fst, name)(*args, **kw)
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    w = np.linspace(-1.0, 1.0, np.size(want)).reshape(np.shape(want))
    g = fg.grad(lambda x: fg.numpy.sum(getattr(fst, name)(x, *args[1:], **kw) * w))(args[0])
    e = np.zeros_like(args[0])
    e[1, 2] = 1e-6
    up, down = (np.sum(getattr(scipy_stats, name)(args[0] + s * e, *args[1:], **kw) * w)
                for s in (1.0, -1.0))
    assert g[1, 2] == pytest.approx((up - down) / 2e-6, rel=1e-6, abs=1e-9)


def test_summary_functions_edges_as_scipy():
    with np.errstate(all="ignore"):
        for name in ("skew", "kurtosis"):  # a constant sample: NaN
            assert np.isnan(float(getattr(fst, name)(np.ones(5))))
            assert np.isnan(getattr(scipy_stats, name)(np.ones(5)))
    assert float(fst.entropy(np.array([0.0, 1.0]))) == 0.0
    assert float(fst.entropy(np.array([0.5, 0.5]), np.array([1.0, 0.0]))) == np.inf
    assert fst.zscore(_A.astype(np.float32)).dtype == np.float32
    with pytest.raises(NotImplementedError, match="nan_policy='omit'"):
        fst.skew(_A, nan_policy="omit")


# --- linalg: eigh's SciPy keywords -----------------------------------------------------------

def test_eigh_subset_by_value_and_generalized_types_are_scipys():
    scipy_linalg = pytest.importorskip("scipy.linalg")
    import funcgrad.scipy.linalg as fsl
    rng = np.random.default_rng(3)
    a = rng.standard_normal((5, 5))
    a = a + a.T
    b = rng.standard_normal((5, 5))
    b = b @ b.T + 5 * np.eye(5)
    for kw, with_b in ((dict(subset_by_value=(-1.0, 2.0)), False),
                       (dict(subset_by_value=(100.0, 200.0)), False), (dict(type=2), True),
                       (dict(type=3, lower=False), True),
                       (dict(type=3, subset_by_value=(0.0, np.inf)), True)):
        w, v = fsl.eigh(a, b if with_b else None, **kw)
        want_w, want_v = scipy_linalg.eigh(a, b if with_b else None, **kw)
        np.testing.assert_allclose(w, want_w, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(np.abs(v), np.abs(want_v), atol=1e-10)  # (up to sign)
    e = np.zeros_like(a)
    e[1, 0] = 1e-6
    for kw in (dict(b=b, type=2), dict(subset_by_value=(-1.0, 2.0))):
        g = fg.grad(lambda m: fg.numpy.sum(fsl.eigvalsh(m, **kw) ** 2))(a)
        up, down = (np.sum(scipy_linalg.eigvalsh(a + s * e, **kw) ** 2) for s in (1, -1))
        assert g[1, 0] == pytest.approx((up - down) / 2e-6, rel=1e-6)
    with pytest.raises(fg.ConcretizationError, match="subset_by_index"):
        fg.vmap(lambda m: fsl.eigvalsh(m, subset_by_value=(0.0, 1.0)))(np.stack([a, a]))
