"""``funcgrad.scipy`` called the way SciPy users call SciPy: the differences a side-by-side
run against SciPy found (edge values, NaN inputs, tails, truncated orders, missing
methods), each pinned against SciPy's own result, and the functions added for it
(inverses, ``erfi``, complete elliptic integrals, distribution moments) with their
derivatives against closed forms and central differences."""
import math

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402


def central(f, x, h=1e-6):
    return (float(f(x + h)) - float(f(x - h))) / (2 * h)


# --- special: values where SciPy's differed ----------------------------------------------------

def test_yn_truncates_a_non_integer_order_as_scipy():
    n = np.array([0.5, -1.5, 2.9, 3.0])
    x = np.array([1.0, 1.0, 2.0, 2.5])
    np.testing.assert_allclose(fsp.yn(n, x), scipy_special.yn(n.astype(int), x), rtol=1e-14)
    assert float(fsp.yn(0.5, 2.0)) == float(fsp.y0(2.0))
    assert fsp.yn(n.astype(np.float32), x.astype(np.float32)).dtype == np.float32


def test_gammainc_at_infinite_a_is_scipys_limit():
    x = np.array([0.0, 1.0, 1e300, np.inf])
    for f in ("gammainc", "gammaincc"):
        np.testing.assert_array_equal(getattr(fsp, f)(np.inf, x),
                                      getattr(scipy_special, f)(np.inf, x))


def test_betainc_with_a_zero_shape_is_a_point_mass_as_scipy():
    a = np.array([0.0, 0.0, 1.0, 1.0, 0.0, 2.0])
    b = np.array([1.0, 1.0, 0.0, 0.0, 0.0, 3.0])
    x = np.array([0.5, 0.0, 0.5, 1.0, 0.5, 0.4])
    got, want = fsp.betainc(a, b, x), scipy_special.betainc(a, b, x)
    np.testing.assert_array_equal(got[:5], want[:5])  # the point masses, exactly
    np.testing.assert_allclose(got[5], want[5], rtol=1e-15)  # (a generic point: to an ulp)
    # (a = 0: constant 1 for x > 0, so a zero derivative in x, not an error)
    assert float(fg.grad(fsp.betainc, 2)(0.0, 1.0, 0.5)) == 0.0


def test_pseudo_huber_of_an_infinite_residual_is_inf():
    r = np.array([np.inf, -np.inf, np.nan, 2.0])
    np.testing.assert_array_equal(fsp.pseudo_huber(1.0, r), scipy_special.pseudo_huber(1.0, r))
    assert float(fg.grad(fsp.pseudo_huber, 1)(1.5, 2.0)) == pytest.approx(1.2, rel=1e-14)


def test_rel_entr_propagates_nan():
    x = np.array([1.0, 0.0, np.nan, -1.0])
    y = np.array([np.nan, np.nan, 1.0, 2.0])
    np.testing.assert_array_equal(fsp.rel_entr(x, y), scipy_special.rel_entr(x, y))


# --- special: the added functions ----------------------------------------------------------------

ADDED = [("inv_boxcox", (np.array([0.5, 2.0, -0.3, 0.0]), np.array([0.5, 0.0, -1.2, 2.0]))),
         ("inv_boxcox1p", (np.array([0.5, 2.0, -0.3]), np.array([0.5, 0.0, -1.2]))),
         ("gammaincinv", (2.5, np.array([0.0, 0.1, 0.5, 0.9, 1.0]))),
         ("gammainccinv", (2.5, np.array([0.0, 0.1, 0.5, 0.9, 1.0]))),
         ("betaincinv", (2.0, 3.0, np.array([0.0, 0.1, 0.5, 0.9, 1.0]))),
         ("ndtri_exp", (np.array([-800.0, -1.0, -0.1, 0.0]),)),
         ("erfi", (np.array([0.0, 1.0, -2.0, 30.0]),)),
         ("ellipk", (np.array([0.0, 0.001, 0.5, -2.0, 0.9999, 1.0]),)),
         ("ellipe", (np.array([0.0, 0.001, 0.5, -2.0, 1.0]),)),
         ("ellipkm1", (np.array([1e-10, 0.5, 0.999, 1.0, 0.0]),))]


@pytest.mark.parametrize("name,args", ADDED, ids=[a[0] for a in ADDED])
def test_added_functions_are_scipys_values(name, args):
    got = getattr(fsp, name)(*args)
    want = getattr(scipy_special, name)(*args)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype


DERIVATIVES = [
    (lambda y: fsp.inv_boxcox(y, 0.3), 0.7), (lambda lm: fsp.inv_boxcox(0.7, lm), 0.3),
    (lambda lm: fsp.inv_boxcox(0.7, lm), 0.0), (lambda lm: fsp.inv_boxcox1p(0.7, lm), -0.4),
    (lambda y: fsp.gammaincinv(2.5, y), 0.3), (lambda y: fsp.gammainccinv(2.5, y), 0.3),
    (lambda y: fsp.betaincinv(2.0, 3.0, y), 0.3), (fsp.ndtri_exp, -2.0), (fsp.erfi, 0.8),
    (fsp.ellipk, 0.3), (fsp.ellipk, 0.004), (fsp.ellipk, -3.0), (fsp.ellipe, 0.3),
    (fsp.ellipe, -0.004), (fsp.ellipkm1, 0.3), (fsp.ellipkm1, 0.998), (fsp.ellipkm1, 1e-3)]


@pytest.mark.parametrize("f,x", DERIVATIVES)
def test_added_functions_derivatives_match_central_differences(f, x):
    h = 1e-6 if abs(x) > 1e-2 else 1e-7
    assert float(fg.grad(f)(x)) == pytest.approx(central(f, x, h), rel=1e-7)


def test_added_derivatives_closed_forms():
    # inverse functions: y = f(x) gives dx/dy = 1 / f'(x)
    x = float(fsp.gammaincinv(2.5, 0.3))
    density = x ** 1.5 * math.exp(-x) / math.gamma(2.5)
    assert float(fg.grad(fsp.gammaincinv, 1)(2.5, 0.3)) == pytest.approx(1 / density, rel=1e-12)
    assert float(fg.grad(fsp.ellipk)(0.0)) == math.pi / 8
    assert float(fg.grad(fsp.ellipe)(0.0)) == -math.pi / 8
    # inv_boxcox(y, 0) = exp(y): d/dlmbda there is -exp(y) y**2 / 2
    assert float(fg.grad(fsp.inv_boxcox, 1)(1.0, 0.0)) == pytest.approx(-math.e / 2, rel=1e-14)
    # the series and the closed form agree across the switch at |m| = 5e-3
    for f in (fsp.ellipk, fsp.ellipe):
        below, above = (float(fg.grad(f)(m)) for m in (0.005 - 1e-9, 0.005 + 1e-9))
        assert below == pytest.approx(above, rel=1e-8)


def test_added_inverses_differentiate_in_their_shape_parameters():
    h = 1e-6  # (SciPy's central differences: about 1e-9 relative)
    fd = (scipy_special.gammaincinv(2.5 + h, 0.3) - scipy_special.gammaincinv(2.5 - h, 0.3))
    assert float(fg.grad(fsp.gammaincinv, 0)(2.5, 0.3)) == pytest.approx(fd / (2 * h), rel=1e-8)
    fd = (scipy_special.betaincinv(2.0, 3.0 + h, 0.3) - scipy_special.betaincinv(2.0, 3.0 - h, 0.3))
    assert float(fg.grad(fsp.betaincinv, 1)(2.0, 3.0, 0.3)) == pytest.approx(fd / (2 * h), rel=1e-8)


def test_added_functions_keep_float32_and_run_under_transforms():
    m = np.array([0.1, 0.2], np.float32)
    assert fsp.ellipk(m).dtype == np.float32
    assert fg.grad(lambda v: fsp.ellipk(v).sum())(m).dtype == np.float32
    ms = np.array([0.1, 0.2])
    np.testing.assert_array_equal(fg.vmap(fsp.ellipk)(ms), scipy_special.ellipk(ms))
    np.testing.assert_array_equal(fg.jit(fsp.ellipe)(ms), scipy_special.ellipe(ms))


# --- stats ---------------------------------------------------------------------------------------

def test_distribution_methods_give_nan_for_nan_input():
    x = np.array([np.nan, 1.0])
    for dist, shapes in ((fst.expon, ()), (fst.gamma, (2.5,)), (fst.invgamma, (2.5,)),
                         (fst.truncnorm, (-1.0, 2.0))):
        for method in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"):
            got = getattr(dist, method)(x, *shapes)
            want = getattr(getattr(scipy_stats, dist.name), method)(x, *shapes)
            np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=f"{dist.name}.{method}")
    assert np.isnan(float(fst.poisson.logpmf(np.nan, 3.0)))


@pytest.mark.parametrize("name,shapes,x", [
    ("expon", (), 50.0), ("laplace", (), 50.0), ("gamma", (2.5,), 50.0),
    ("beta", (2.5, 1.5), 1e-10), ("halfnorm", (), 12.0), ("gumbel_r", (), -5.0),
    ("gumbel_l", (), 3.0)])
def test_logcdf_and_logsf_keep_the_far_tail(name, shapes, x):
    for method in ("logcdf", "logsf"):
        got = float(getattr(getattr(fst, name), method)(x, *shapes))
        want = float(getattr(getattr(scipy_stats, name), method)(x, *shapes))
        assert got == pytest.approx(want, rel=1e-9, abs=1e-300), method


def test_logcdf_derivative_in_the_far_tail_is_finite_and_right():
    # d/dx log cdf = pdf / cdf = exp(-x) / (1 - exp(-x)) for expon
    x = 40.0
    assert float(fg.grad(fst.expon.logcdf)(x)) == pytest.approx(math.exp(-x), rel=1e-12)


@pytest.mark.parametrize("name,shapes", [
    ("halfcauchy", ()), ("pareto", (2.5,)), ("lomax", (2.5,)), ("weibull_min", (1.5,)),
    ("rayleigh", ()), ("gumbel_r", ()), ("gumbel_l", ()), ("gennorm", (1.5,))])
def test_isf_and_ppf_keep_tiny_tail_probabilities(name, shapes):
    q = np.array([1e-12, 1e-5, 0.3, 0.5, 0.9])
    kw = {"loc": 0.7, "scale": 2.0}
    np.testing.assert_allclose(getattr(fst, name).isf(q, *shapes, **kw),
                               getattr(scipy_stats, name).isf(q, *shapes, **kw), rtol=1e-11)
    np.testing.assert_allclose(getattr(fst, name).ppf(q, *shapes, **kw),
                               getattr(scipy_stats, name).ppf(q, *shapes, **kw), rtol=1e-11)


def test_rayleigh_density_at_infinity_is_zero():
    assert float(fst.rayleigh.pdf(np.inf)) == 0.0
    assert float(fst.rayleigh.logpdf(np.inf)) == -np.inf


MOMENT_CASES = [("norm", ()), ("t", (3.5,)), ("t", (1.5,)), ("t", (0.8,)), ("cauchy", ()),
                ("laplace", ()), ("logistic", ()), ("expon", ()), ("gamma", (2.5,)),
                ("beta", (2.5, 1.5)), ("chi2", (3.0,)), ("uniform", ()), ("lognorm", (0.7,)),
                ("halfnorm", ()), ("halfcauchy", ()), ("weibull_min", (1.5,)),
                ("pareto", (2.5,)), ("pareto", (1.5,)), ("lomax", (3.5,)), ("rayleigh", ()),
                ("gumbel_r", ()), ("gumbel_l", ()), ("invgamma", (2.5,)),
                ("truncnorm", (-1.0, 2.0)), ("gennorm", (1.5,))]


@pytest.mark.parametrize("name,shapes", MOMENT_CASES, ids=[f"{n}{s}" for n, s in MOMENT_CASES])
def test_moments_match_scipy(name, shapes):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    kw = {"loc": 0.7, "scale": 2.0}
    for method in ("mean", "var", "std", "median"):
        np.testing.assert_allclose(getattr(ours, method)(*shapes, **kw),
                                   getattr(theirs, method)(*shapes, **kw), rtol=1e-11,
                                   err_msg=method)
    frozen = ours(*shapes, **kw)
    np.testing.assert_allclose(frozen.mean(), theirs(*shapes, **kw).mean(), rtol=1e-11)


@pytest.mark.parametrize("name,shapes", [("poisson", (3.0,)), ("bernoulli", (0.3,)),
                                         ("binom", (10, 0.3)), ("geom", (0.3,)),
                                         ("nbinom", (5, 0.4)), ("betabinom", (10, 2.0, 3.0))])
def test_discrete_moments_match_scipy(name, shapes):
    for method in ("mean", "var", "std"):
        np.testing.assert_allclose(getattr(getattr(fst, name), method)(*shapes, loc=0.7),
                                   getattr(getattr(scipy_stats, name), method)(*shapes, loc=0.7),
                                   rtol=1e-12, err_msg=method)


def test_moment_derivatives():
    # mean of gamma(a, scale=s) is a s; var of beta(a, b) has d/da = b (b - a (a+b+1)... ) : fd
    assert float(fg.grad(lambda a: fst.gamma.mean(a, scale=2.0))(2.5)) == 2.0
    assert float(fg.grad(lambda s: fst.norm.std(scale=s))(3.0)) == 1.0
    f = lambda a: fst.beta.var(a, 1.5)  # noqa: E731
    assert float(fg.grad(f)(2.5)) == pytest.approx(central(f, 2.5), rel=1e-7)
    g = lambda a: fst.truncnorm.mean(a, 2.0)  # noqa: E731
    assert float(fg.grad(g)(-1.0)) == pytest.approx(central(g, -1.0), rel=1e-7)
    # t's variance is inf for 1 < df <= 2: no NaN leaks into the derivative elsewhere
    h = lambda df: fst.t.var(df)  # noqa: E731
    assert float(fg.grad(h)(3.5)) == pytest.approx(-2.0 / 1.5 ** 2, rel=1e-12)


def test_moment_of_an_invalid_parameter_is_nan():
    assert np.isnan(float(fst.gamma.mean(-1.0)))
    assert np.isnan(float(fst.norm.var(scale=-1.0)))


def test_rel_entr_and_kl_div_are_accurate_for_nearly_equal_arguments():
    t = 2.0 ** -30  # (y = 1 + t exactly)
    assert float(fsp.rel_entr(1.0, 1.0 + t)) == pytest.approx(-math.log1p(t), rel=1e-15)
    # t - log1p(t) = t**2/2 - t**3/3 + ...: SciPy's x log(x/y) - x + y gives 0 here
    assert float(fsp.kl_div(1.0, 1.0 + t)) == pytest.approx(t * t / 2 - t ** 3 / 3, rel=1e-14)
    x, y = np.float32(1.0), np.float32(0.999)
    want = float(x) * math.log(float(x) / float(y))
    assert fsp.rel_entr(x, y).dtype == np.float32
    assert float(fsp.rel_entr(x, y)) == pytest.approx(want, rel=1e-6)
    assert float(fsp.kl_div(x, y)) == pytest.approx(want - float(x) + float(y), rel=1e-5)


def test_kl_div_edges_are_scipys():
    x = np.array([0.0, 1.0, -1.0, 1.0, 0.0, 2.0, np.nan])
    y = np.array([2.0, np.inf, 1.0, -np.inf, 0.0, 0.0, 1.0])
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(fsp.kl_div(x, y), scipy_special.kl_div(x, y))
        np.testing.assert_array_equal(fsp.rel_entr(x, y), scipy_special.rel_entr(x, y))
    # derivatives near x == y: d/dx = log(x / y), d/dy = 1 - x / y
    assert float(fg.grad(fsp.kl_div)(1.0, 1.001)) == pytest.approx(math.log(1 / 1.001), rel=1e-10)
    assert float(fg.grad(fsp.kl_div, 1)(1.0, 1.001)) == pytest.approx(1 - 1 / 1.001, rel=1e-10)


def test_distribution_methods_take_python_numbers_everywhere():
    # (every argument a Python float: the result is still an array, as SciPy's scalar)
    assert float(fst.norm.logpdf(1.3, 0.7, 2.0)) == pytest.approx(
        float(scipy_stats.norm.logpdf(1.3, 0.7, 2.0)), rel=1e-15)
    assert float(fst.norm.logpdf(1.3)) == pytest.approx(float(scipy_stats.norm.logpdf(1.3)),
                                                        rel=1e-15)
    assert float(fst.t.pdf(0.5, 3.0, 0.1, 2.0)) == pytest.approx(
        float(scipy_stats.t.pdf(0.5, 3.0, 0.1, 2.0)), rel=1e-13)


def test_frozen_multivariate_distributions_accept_scipys_seed():
    x = np.array([0.3, -0.2])
    got = fst.multivariate_normal(np.zeros(2), np.eye(2), False, 7).logpdf(x)
    want = scipy_stats.multivariate_normal(np.zeros(2), np.eye(2), False, 7).logpdf(x)
    assert float(got) == pytest.approx(float(want), rel=1e-14)
    alpha, p = np.array([1.5, 2.0, 3.0]), np.array([0.2, 0.3, 0.5])
    assert float(fst.dirichlet(alpha, seed=1).logpdf(p)) == pytest.approx(
        float(scipy_stats.dirichlet(alpha, seed=1).logpdf(p)), rel=1e-13)
    k = np.array([1.0, 2.0, 3.0])
    assert float(fst.multinomial(6, p, seed=1).logpmf(k)) == pytest.approx(
        float(scipy_stats.multinomial(6, p, seed=1).logpmf(k)), rel=1e-13)



def test_yn_derivative_in_its_integer_order_raises():
    with pytest.raises(NotImplementedError, match="with respect to v"):
        fg.grad(fsp.yn, 0)(2.0, 1.5)
    assert float(fg.grad(fsp.yn, 1)(2.0, 1.5)) == pytest.approx(
        float(scipy_special.yvp(2, 1.5)), rel=1e-13)
    # (yv's values: SciPy's yn differs from its yv in the last digit)
    np.testing.assert_allclose(fg.vmap(fsp.yn)(np.array([0.5, 2.5]), np.array([1.0, 2.0])),
                               scipy_special.yn(np.array([0, 2]), np.array([1.0, 2.0])),
                               rtol=1e-14)


@pytest.mark.parametrize("name,shapes", [
    ("t", (3.5,)), ("lognorm", (0.7,)), ("halfnorm", ()), ("halfcauchy", ()),
    ("weibull_min", (1.5,)), ("pareto", (2.5,)), ("lomax", (2.5,)), ("rayleigh", ()),
    ("gumbel_r", ()), ("gumbel_l", ()), ("invgamma", (2.5,)), ("gennorm", (1.5,))])
def test_entropies_match_scipy(name, shapes):
    got = getattr(fst, name).entropy(*shapes, scale=2.0)
    want = getattr(scipy_stats, name).entropy(*shapes, scale=2.0)
    assert float(got) == pytest.approx(float(want), rel=1e-13)
    f = lambda s: getattr(fst, name).entropy(*shapes[:-1], s) if shapes else None  # noqa: E731
    if shapes:
        assert float(fg.grad(f)(shapes[-1])) == pytest.approx(central(f, shapes[-1]), rel=1e-6)


def test_bernoulli_entropy_matches_scipy():
    assert float(fst.bernoulli.entropy(0.3)) == pytest.approx(
        float(scipy_stats.bernoulli.entropy(0.3)), rel=1e-14)
