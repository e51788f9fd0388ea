"""Session 25's remaining SciPy 1.17 stats names (``gausshyper``, ``genhyperbolic``,
``landau``, ``levy_stable``, ``nchypergeom_wallenius``, ``studentized_range``,
``spearmanrho``) and ``kve``'s derivative in its order: values against SciPy's,
derivatives against central differences of SciPy's own functions, and the derivatives
that are not available raising."""
import math
import warnings

import numpy as np
import pytest
import scipy.special as ss_special
import scipy.stats as ss

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.special as fsp
import funcgrad.scipy.stats as fst
from funcgrad.errors import ConcretizationError


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (SciPy's integration and overflow warnings)
        yield


def _central(f, args, i, h=1e-5, points=5):
    """The five-point (or three-point) central difference of ``f`` in argument ``i``."""
    def at(d):
        a = list(args)
        a[i] = a[i] + d
        return np.asarray(f(*a), dtype=float)
    if points == 3:
        return (at(h) - at(-h)) / (2 * h)
    return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h)


# --- kve's derivative in its order -----------------------------------------------------------

def test_kve_order_derivative_matches_central_differences_of_scipy():
    v, x = np.meshgrid(np.linspace(-30.0, 30.0, 13), np.logspace(-3, 3, 13))
    got = fg.elementwise_grad(lambda s: fsp.kve(s, x))(v)
    want = _central(ss_special.kve, [v, x], 0, 1e-4)
    # (the differences are good to ~1e-10 relative here; at v = 0 the slope is 0 exactly)
    moved = v != 0
    np.testing.assert_allclose(got[moved], want[moved], rtol=2e-9)
    np.testing.assert_array_equal(got[~moved], 0.0)
    # at v = 1/2: dK_v/dv = sqrt(pi/(2x)) E1(2x) e**x, so kve's is that times e**x
    xs = np.array([0.01, 0.3, 2.0, 40.0, 300.0])
    np.testing.assert_allclose(fg.elementwise_grad(lambda s: fsp.kve(s, xs))(np.full(5, 0.5)),
                               np.sqrt(np.pi / (2 * xs)) * ss_special.exp1(2 * xs)
                               * np.exp(2 * xs), rtol=1e-12)
    assert float(fg.grad(fsp.kve)(0.0, 1.3)) == 0.0  # (even in v)


def test_kve_order_derivative_second_order_jit_vmap_float32_and_complex():
    v, x, h = 2.3, 1.7, 1e-3
    d2v = (ss_special.kve(v + h, x) - 2 * ss_special.kve(v, x) + ss_special.kve(v - h, x)) / h**2
    np.testing.assert_allclose(fg.grad(fg.grad(fsp.kve, 0), 0)(v, x), d2v, rtol=1e-6)
    dvdx = _central(lambda s: _central(ss_special.kve, [s, x], 1, 1e-4), [v], 0, 1e-4)
    np.testing.assert_allclose(fg.grad(fg.grad(fsp.kve, 0), 1)(v, x), dvdx, rtol=1e-7)
    np.testing.assert_allclose(fg.grad(fg.grad(fsp.kve, 1), 0)(v, x), dvdx, rtol=1e-7)
    want = _central(ss_special.kve, [v, x], 0)
    np.testing.assert_allclose(fg.jit(fg.grad(fsp.kve))(v, x), want, rtol=1e-9)
    np.testing.assert_allclose(fg.vmap(fg.grad(fsp.kve), (0, None))(np.array([v, -v]), x),
                               [want, -want], rtol=1e-9)
    g32 = fg.grad(fsp.kve)(np.float32(v), np.float32(x))
    assert g32.dtype == np.float32 and abs(float(g32) / want - 1) < 1e-5
    with pytest.raises(NotImplementedError, match="respect to v .*real z"):
        fg.grad(lambda s: fnp.real(fsp.kve(s, 1.0 + 1.0j)))(0.5)


# --- genhyperbolic ---------------------------------------------------------------------------

GH = [(1.5, 2.0, 0.7), (-1.2, 1.0, 0.5), (0.0, 0.8, -0.3)]


@pytest.mark.parametrize("shapes", GH)
def test_genhyperbolic_values(shapes):
    x = np.array([-3.0, -0.5, 0.5, 2.0, 8.0])
    full = shapes + (0.3, 1.4)
    np.testing.assert_allclose(fst.genhyperbolic.logpdf(x, *full),
                               ss.genhyperbolic.logpdf(x, *full), rtol=1e-13)
    for m in ("cdf", "sf"):
        np.testing.assert_allclose(getattr(fst.genhyperbolic, m)(x, *full),
                                   getattr(ss.genhyperbolic, m)(x, *full), rtol=1e-11)
    for m in ("mean", "var"):
        np.testing.assert_allclose(getattr(fst.genhyperbolic, m)(*full),
                                   getattr(ss.genhyperbolic, m)(*full), rtol=1e-13)
    np.testing.assert_allclose(fst.genhyperbolic.ppf(0.3, *full),
                               ss.genhyperbolic.ppf(0.3, *full), rtol=1e-9)


def test_genhyperbolic_derivatives_in_every_argument_order_included():
    args = (0.5, 1.5, 2.0, 0.7, 0.3, 1.4)
    got = fg.grad(fst.genhyperbolic.logpdf, tuple(range(6)))(*args)
    for i in range(6):
        np.testing.assert_allclose(got[i], _central(ss.genhyperbolic.logpdf, args, i), rtol=1e-7)
    # (x and b: the CDF's slope in p integrates kve's order slope at every node, ~1 s;
    # geninvgauss' in tests/test_scipy_stats_dists4.py takes the same path)
    for i in (0, 3):
        np.testing.assert_allclose(fg.grad(fst.genhyperbolic.cdf, i)(*args),
                                   _central(ss.genhyperbolic.cdf, args, i), rtol=1e-7)
    np.testing.assert_allclose(fg.grad(fst.genhyperbolic.mean)(1.5, 2.0, 0.7),
                               _central(ss.genhyperbolic.mean, [1.5, 2.0, 0.7], 0), rtol=1e-7)
    assert math.isnan(float(fst.genhyperbolic.logpdf(0.5, 1.5, 1.0, 1.0)))  # |b| = a, p >= 0


# --- gausshyper ------------------------------------------------------------------------------

GAUSSHYPER = [(1.5, 2.5, 0.7, 0.3), (0.6, 0.8, -1.5, 2.0), (3.0, 1.2, 2.0, -0.6)]


@pytest.mark.parametrize("shapes", GAUSSHYPER)
def test_gausshyper_values(shapes):
    x = np.array([0.05, 0.4, 0.9])
    np.testing.assert_allclose(fst.gausshyper.logpdf(x, *shapes),
                               ss.gausshyper.logpdf(x, *shapes), rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(fst.gausshyper.cdf(x, *shapes), ss.gausshyper.cdf(x, *shapes),
                               rtol=1e-12)
    np.testing.assert_allclose(fst.gausshyper.sf(x, *shapes), ss.gausshyper.sf(x, *shapes),
                               rtol=1e-10)  # (SciPy's sf is 1 - cdf)
    for m in ("mean", "var"):
        np.testing.assert_allclose(getattr(fst.gausshyper, m)(*shapes),
                                   getattr(ss.gausshyper, m)(*shapes), rtol=1e-13)
    outside = np.array([-0.5, 1.5])
    np.testing.assert_array_equal(fst.gausshyper.cdf(outside, *shapes), [0.0, 1.0])
    assert np.all(np.isneginf(fst.gausshyper.logpdf(outside, *shapes)))


def test_gausshyper_derivatives_in_every_argument():
    args = (0.4, 1.5, 2.5, 0.7, 0.3)
    got = fg.grad(fst.gausshyper.logpdf, tuple(range(5)))(*args)
    for i in range(5):
        np.testing.assert_allclose(got[i], _central(ss.gausshyper.logpdf, args, i), rtol=1e-8)
    for i in (0, 1, 4):  # x, a, z
        np.testing.assert_allclose(fg.grad(fst.gausshyper.cdf, i)(*args),
                                   _central(ss.gausshyper.cdf, args, i), rtol=1e-7)
    h = 1e-4
    d2 = (ss.gausshyper.logpdf(0.4, 1.5 + h, 2.5, 0.7, 0.3) - 2 * ss.gausshyper.logpdf(*args)
          + ss.gausshyper.logpdf(0.4, 1.5 - h, 2.5, 0.7, 0.3)) / h**2
    np.testing.assert_allclose(fg.grad(fg.grad(fst.gausshyper.logpdf, 1), 1)(*args), d2,
                               rtol=1e-6)
    np.testing.assert_allclose(fg.grad(fst.gausshyper.mean, 2)(*args[1:]),
                               _central(ss.gausshyper.mean, args[1:], 2), rtol=1e-7)
    # (the closed form's z-derivative: hyp2f1's rule, also under jit)
    np.testing.assert_allclose(fg.jit(fg.grad(fst.gausshyper.logpdf, 4))(*args),
                               _central(ss.gausshyper.logpdf, args, 4), rtol=1e-8)
    with pytest.raises(NotImplementedError, match="hyp2f1.*respect to b"):
        fg.jit(fg.grad(fst.gausshyper.logpdf, 1))(*args)  # (no quadrature under jit)
    with pytest.raises(TypeError, match="gausshyper.cdf.*jit or vmap"):
        fg.jit(fst.gausshyper.cdf)(*args)


# --- landau, levy_stable, studentized_range: SciPy's values ----------------------------------

SCIPY_VALUED = [("landau", (), np.array([-0.5, 0.7, 2.5])),
                ("levy_stable", (1.5, 0.3), np.array([-0.5, 0.7, 2.5])),
                ("levy_stable", (1.0, 0.5), np.array([-0.5, 0.7, 2.5])),
                ("studentized_range", (3.0, 10.0), np.array([0.5, 2.0, 4.0]))]


@pytest.mark.parametrize("name, shapes, x", SCIPY_VALUED)
def test_scipy_valued_distributions_values_and_slopes(name, shapes, x):
    ours, theirs = getattr(fst, name), getattr(ss, name)
    full = shapes + (0.2, 2.0)
    # (studentized_range's SciPy values cost ~30 ms a call, its quantiles more: fewer)
    slow = name == "studentized_range"
    for m in ("pdf", "cdf") if slow else ("pdf", "logpdf", "cdf", "sf"):
        np.testing.assert_allclose(getattr(ours, m)(x, *full), getattr(theirs, m)(x, *full),
                                   rtol=1e-15)
    for m in ("ppf",) if slow else ("ppf", "isf"):
        np.testing.assert_allclose(getattr(ours, m)(0.3, *full), getattr(theirs, m)(0.3, *full),
                                   rtol=1e-15)
    args = (0.7,) + full
    for i in (0, len(shapes) + 2) if slow else (0, len(shapes) + 1, len(shapes) + 2):
        for m in ("cdf",) if slow else ("cdf", "sf"):
            np.testing.assert_allclose(fg.grad(getattr(ours, m), i)(*args),
                                       _central(getattr(theirs, m), args, i, 1e-5, 3),
                                       rtol=1e-7)
    np.testing.assert_allclose(fg.grad(ours.ppf)(0.3, *full),
                               _central(theirs.ppf, (0.3,) + full, 0, 1e-5, 3), rtol=1e-6)


def test_scipy_valued_distributions_raise_where_no_derivative_is_available():
    with pytest.raises(NotImplementedError, match="derivative of the density"):
        fg.grad(fst.landau.logpdf)(0.3)
    with pytest.raises(NotImplementedError, match="derivative of the density"):
        fg.grad(fg.grad(fst.studentized_range.cdf))(2.0, 3.0, 10.0)
    with pytest.raises(NotImplementedError, match="levy_stable.*alpha.*stop_gradient"):
        fg.grad(fst.levy_stable.cdf, 1)(0.5, 1.5, 0.3)
    with pytest.raises(NotImplementedError, match="levy_stable.*beta"):
        fg.grad(fst.levy_stable.sf, 2)(0.5, 1.5, 0.3)
    with pytest.raises(NotImplementedError, match="studentized_range.*df"):
        fg.grad(fst.studentized_range.cdf, 2)(2.0, 3.0, 10.0)
    with pytest.raises(ConcretizationError, match="landau.cdf .*outside jit and vmap"):
        fg.jit(fst.landau.cdf)(0.3)
    # (stop_gradient on the shape: the point's derivative is given)
    g = fg.grad(lambda x, k: fst.studentized_range.cdf(x, fg.stop_gradient(k), 10.0))(2.0, 3.0)
    assert float(g) == float(fst.studentized_range.pdf(2.0, 3.0, 10.0))


def test_levy_stable_parameterization_and_invalid_parameters():
    theirs = type(ss.levy_stable)(name="levy_stable")
    theirs.parameterization = "S0"
    fst.levy_stable.parameterization = "S0"
    try:
        args = (0.7, 1.0, 0.5, 0.2, 2.0)
        np.testing.assert_allclose(fst.levy_stable.cdf(*args), theirs.cdf(*args), rtol=1e-15)
        np.testing.assert_allclose(fst.levy_stable.pdf(*args), theirs.pdf(*args), rtol=1e-15)
    finally:
        fst.levy_stable.parameterization = "S1"
    assert ss.levy_stable.parameterization == "S1"  # (SciPy's own is left alone)
    assert math.isnan(float(fst.levy_stable.cdf(0.5, 2.5, 0.3)))
    assert math.isnan(float(fst.studentized_range.cdf(0.5, 1.0, 3.0)))
    frozen = fst.landau(0.2, 2.0)
    assert float(frozen.cdf(0.7)) == float(ss.landau.cdf(0.7, 0.2, 2.0))


# --- nchypergeom_wallenius -------------------------------------------------------------------

WALLENIUS = [(20, 8, 6, 2.5), (30, 12, 15, 0.3), (50, 20, 25, 5.0)]


@pytest.mark.parametrize("shapes", WALLENIUS)
def test_wallenius_values_and_slopes_in_odds(shapes):
    ours, theirs = fst.nchypergeom_wallenius, ss.nchypergeom_wallenius
    k = np.arange(-1.0, 12.0)
    # (masses under 1e-3 are the true ones, SciPy's only to its absolute 1e-12 (BiasedUrn's
    # accuracy): tests/test_wallenius_accuracy.py checks them against mpmath)
    np.testing.assert_allclose(ours.pmf(k, *shapes), theirs.pmf(k, *shapes), rtol=1e-14,
                               atol=1e-12)
    np.testing.assert_array_equal(ours.cdf(k, *shapes), theirs.cdf(k, *shapes))
    np.testing.assert_array_equal(ours.ppf([0.1, 0.5, 0.9], *shapes),
                                  theirs.ppf([0.1, 0.5, 0.9], *shapes))
    kk = np.array([1.0, 3.0, 5.0]) + shapes[2] // 4
    got = fg.elementwise_grad(lambda o: ours.logpmf(kk, *shapes[:3], o))(np.full(3, shapes[3]))
    np.testing.assert_allclose(got, _central(lambda o: theirs.logpmf(kk, *shapes[:3], o),
                                             [shapes[3]], 0), rtol=1e-7)
    for m in ("cdf", "sf"):
        np.testing.assert_allclose(
            fg.grad(getattr(ours, m), 4)(kk[1], *shapes),
            _central(getattr(theirs, m), (kk[1],) + shapes, 4), rtol=1e-7, atol=1e-12)


def test_wallenius_second_derivative_and_integer_counts():
    a = (3, 20, 8, 6, 2.5)
    h = 1e-4
    d2 = (ss.nchypergeom_wallenius.logpmf(3, 20, 8, 6, 2.5 + h)
          - 2 * ss.nchypergeom_wallenius.logpmf(*a)
          + ss.nchypergeom_wallenius.logpmf(3, 20, 8, 6, 2.5 - h)) / h**2
    np.testing.assert_allclose(fg.grad(fg.grad(fst.nchypergeom_wallenius.logpmf, 4), 4)(*a),
                               d2, rtol=1e-5)
    with pytest.raises(ValueError, match="integer counts"):
        fg.grad(fst.nchypergeom_wallenius.logpmf, 2)(3, 20.0, 8.0, 6, 2.5)
    # all drawn: the mass is 1 whatever the odds
    assert float(fst.nchypergeom_wallenius.pmf(4, 10, 4, 10, 1.7)) == 1.0
    assert float(fg.grad(fst.nchypergeom_wallenius.logpmf, 4)(4, 10, 4, 10, 1.7)) == 0.0


# --- spearmanrho -----------------------------------------------------------------------------

def test_spearmanrho_values_options_and_zero_derivative():
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((2, 3, 12))
    for kw in ({}, {"axis": -1}, {"axis": None}, {"alternative": "less", "axis": 1},
               {"keepdims": True, "axis": -1}):
        ours, theirs = fst.spearmanrho(x, y, **kw), ss.spearmanrho(x, y, **kw)
        np.testing.assert_array_equal(ours.statistic, theirs.statistic)
        np.testing.assert_array_equal(ours.pvalue, theirs.pvalue)
    # broadcasting, NaN policies, SciPy's permutation test
    ours = fst.spearmanrho(x[:, None, :], x[None, :, :], axis=-1)
    np.testing.assert_array_equal(ours.statistic,
                                  ss.spearmanrho(x[:, None, :], x[None, :, :], axis=-1).statistic)
    xn = x[0].copy()
    xn[2] = np.nan
    for policy in ("propagate", "omit"):
        np.testing.assert_array_equal(fst.spearmanrho(xn, y[0], nan_policy=policy).statistic,
                                      ss.spearmanrho(xn, y[0], nan_policy=policy).statistic)
    with pytest.raises(ValueError):
        fst.spearmanrho(xn, y[0], nan_policy="raise")
    method = ss.PermutationMethod(n_resamples=99, rng=1)
    assert float(fst.spearmanrho(x[0], y[0], method=method).pvalue) == float(
        ss.spearmanrho(x[0], y[0], method=ss.PermutationMethod(n_resamples=99, rng=1)).pvalue)
    statistic, pvalue = fst.spearmanrho(x[0], y[0])
    np.testing.assert_array_equal(fg.grad(lambda v: fst.spearmanrho(v, y[0]).statistic)(x[0]),
                                  np.zeros(12))
