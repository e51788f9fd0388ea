"""funcgrad.scipy.stats' resampling, descriptive and transformation functions against
SciPy's: every field of every result on small random data, with the same ``rng`` seeds
(the resamples are SciPy's draws); derivatives in the data against central differences of
SciPy's own values; float32 in, float32 out; the statistic mapped with vmap where it is
not vectorized; errors that name the fix."""
import warnings

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402
from funcgrad.errors import ConcretizationError  # noqa: E402

RNG = np.random.default_rng(23)
X = RNG.normal(size=9)
Y = RNG.normal(size=(2, 7)) + 0.5
Z = RNG.normal(size=(2, 9))


def _diff(a, b, axis):
    return np.mean(a, axis=axis) - np.mean(b, axis=axis)


def _cov(a, b, axis):
    return np.mean((a - np.mean(a, axis=axis, keepdims=True))
                   * (b - np.mean(b, axis=axis, keepdims=True)), axis=axis)


def _spread(a):  # (not vectorized: mapped with vmap)
    return np.stack([np.std(a), np.max(a) - np.min(a)])


def _fields(result, names):
    return [np.asarray(getattr(result, n)) for n in names]


def _same(ours, theirs, names, rtol=1e-12):
    for name, a, b in zip(names, _fields(ours, names), _fields(theirs, names)):
        assert a.shape == b.shape, (name, a.shape, b.shape)
        np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-14, err_msg=name)


BOOT = ["bootstrap_distribution", "standard_error"]
TEST = ["statistic", "pvalue", "null_distribution"]

# name, call taking the module, the fields compared
RESAMPLING = [
    ("bootstrap_bca", lambda m: m.bootstrap((X,), np.std, n_resamples=30, rng=1), BOOT),
    ("bootstrap_basic_less", lambda m: m.bootstrap(
        (X, Y), _diff, n_resamples=40, method="basic", alternative="less", axis=-1, batch=15,
        rng=2), BOOT),
    ("bootstrap_percentile_paired", lambda m: m.bootstrap(
        (X, Z), _cov, paired=True, n_resamples=30, method="percentile", axis=-1,
        confidence_level=0.8, rng=3), BOOT),
    ("bootstrap_bca_vmapped", lambda m: m.bootstrap(
        (Z,), _spread, n_resamples=25, axis=1, vectorized=False, rng=4), BOOT),
    ("permutation_exact", lambda m: m.permutation_test((X[:4], Y[0, :3]), _diff), TEST),
    ("permutation_random", lambda m: m.permutation_test(
        (X, Y), _diff, n_resamples=30, axis=-1, alternative="greater", batch=7, rng=5), TEST),
    ("permutation_three", lambda m: m.permutation_test(
        (X[:3], X[3:5], X[5:]), lambda a, b, c: np.mean(a) - np.mean(c), vectorized=False,
        alternative="less"), TEST),
    ("pairings_exact", lambda m: m.permutation_test(
        (X[:4], Z[0, :4]), _cov, permutation_type="pairings"), TEST),
    ("pairings_random", lambda m: m.permutation_test(
        (X, Z), _cov, permutation_type="pairings", n_resamples=20, axis=-1, batch=6,
        rng=6), TEST),
    ("samples_exact", lambda m: m.permutation_test(
        (X[:5], Z[1, :5]), _diff, permutation_type="samples"), TEST),
    ("samples_one_random", lambda m: m.permutation_test(
        (X,), np.mean, permutation_type="samples", vectorized=False, n_resamples=20,
        rng=7), TEST),
    ("monte_carlo", lambda m: m.monte_carlo_test(
        Z, np.random.default_rng(8).normal, np.mean, n_resamples=30, axis=1, batch=11), TEST),
    ("monte_carlo_two", lambda m: m.monte_carlo_test(
        (X, Y[0]), (np.random.default_rng(9).normal, np.random.default_rng(10).normal),
        lambda a, b: np.mean(a) - np.mean(b), n_resamples=20, alternative="greater"), TEST),
]


@pytest.mark.parametrize("name,call,fields", RESAMPLING, ids=[c[0] for c in RESAMPLING])
def test_resampling_matches_scipy_for_the_same_rng(name, call, fields):
    ours, theirs = call(fst), call(scipy_stats)
    _same(ours, theirs, fields)
    if hasattr(theirs, "confidence_interval"):
        _same(ours.confidence_interval, theirs.confidence_interval, ["low", "high"])


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_bootstrap_bounds_differentiate_in_the_data(method):
    def bounds(module, x):
        ci = module.bootstrap((x,), np.std, n_resamples=50, method=method,
                              rng=11).confidence_interval
        return fnp.stack([ci.low, ci.high]) if module is fst else np.array(ci)
    jac = fg.jacobian(lambda x: bounds(fst, x))(X)
    h = 1e-6
    central = np.stack([(bounds(scipy_stats, X + h * e) - bounds(scipy_stats, X - h * e))
                        / (2 * h) for e in np.eye(X.size)], axis=-1)
    assert np.abs(central).max() > 0.1  # (the bounds do move with the data)
    np.testing.assert_allclose(jac, central, atol=1e-7)


def test_permutation_null_distribution_differentiates_in_the_data():
    def total(module, y):
        res = module.permutation_test((X, y), _cov, permutation_type="pairings",
                                      n_resamples=15, rng=12)
        return res.statistic + (res.null_distribution ** 2).sum()
    g = fg.grad(lambda y: total(fst, y))(Z[0])
    h = 1e-6
    central = [(total(scipy_stats, Z[0] + h * e) - total(scipy_stats, Z[0] - h * e)) / (2 * h)
               for e in np.eye(Z.shape[1])]
    np.testing.assert_allclose(g, central, atol=1e-7)
    # (the p-value is a count: its derivative is 0)
    dp = fg.grad(lambda y: fst.permutation_test((X, y), _cov, permutation_type="pairings",
                                                n_resamples=15, rng=12).pvalue)(Z[0])
    assert np.all(dp == 0)


def test_float32_stays_float32():
    x32 = X.astype(np.float32)
    res = fst.bootstrap((x32,), np.mean, n_resamples=20, rng=0)
    assert res.confidence_interval.low.dtype == np.float32
    assert res.bootstrap_distribution.dtype == res.standard_error.dtype == np.float32
    perm = fst.permutation_test((x32[:4], x32[4:]), _diff)
    assert perm.statistic.dtype == perm.pvalue.dtype == np.float32


def test_resampling_errors_name_the_fix():
    with pytest.raises(ValueError, match="2 or more observations"):
        fst.bootstrap((np.array([1.0]),), np.mean)
    with pytest.raises(ValueError, match="method must be"):
        fst.bootstrap((X,), np.mean, method="student")
    with pytest.raises(ValueError, match="at least two samples"):
        fst.permutation_test((X,), np.mean)
    with pytest.raises(ValueError, match="same number of observations"):
        fst.permutation_test((X, Y[0]), _cov, permutation_type="pairings")
    with pytest.raises(ValueError, match="len\\(rvs\\) must equal"):
        fst.monte_carlo_test((X,), (np.random.default_rng().normal,) * 2, np.mean)
    # a statistic that leaves funcgrad for NumPy under vmap says what to use instead
    with pytest.raises(TypeError, match="funcgrad.numpy functions"):
        fst.bootstrap((X,), lambda a: np.array([np.mean(a)]), n_resamples=5, rng=0)
    with pytest.raises(ConcretizationError, match="outside jit and vmap"):
        fg.vmap(lambda x: fst.bootstrap((x,), np.mean, n_resamples=5,
                                        rng=0).standard_error)(Z)


def test_scipy_method_classes_are_reexported():
    assert fst.PermutationMethod is scipy_stats.PermutationMethod
    assert fst.BootstrapMethod is scipy_stats.BootstrapMethod
    assert fst.MonteCarloMethod is scipy_stats.MonteCarloMethod


# --- ecdf, binned statistics, frequency histograms ----------------------------------------------

TIED = np.round(RNG.normal(size=12), 1)
U = RNG.uniform(size=15)
V = RNG.normal(size=(2, 15))


def _censored():
    return scipy_stats.CensoredData(uncensored=TIED[:7], right=TIED[7:])


@pytest.mark.parametrize("sample", [lambda: TIED, _censored], ids=["uncensored", "right"])
def test_ecdf_matches_scipy(sample):
    ours, theirs = fst.ecdf(sample()), scipy_stats.ecdf(sample())
    at = np.array([-np.inf, np.nan, 0.0, TIED[3], 9.0])
    for kind in ("cdf", "sf"):
        a, b = getattr(ours, kind), getattr(theirs, kind)
        _same(a, b, ["quantiles", "probabilities"])
        np.testing.assert_array_equal(a.evaluate(at), b.evaluate(at))
        for method in ("linear", "log-log"):
            with warnings.catch_warnings(record=True) as ours_said:
                warnings.simplefilter("always")
                ci = a.confidence_interval(0.9, method=method)
            with warnings.catch_warnings(record=True) as scipy_said:
                warnings.simplefilter("always")
                expected = b.confidence_interval(0.9, method=method)
            # (log-log is undefined where the SF is 1 or 0: both warn there)
            assert len(ours_said) == len(scipy_said)
            for bound in ("low", "high"):
                np.testing.assert_allclose(getattr(ci, bound).probabilities,
                                           getattr(expected, bound).probabilities,
                                           rtol=1e-13, atol=1e-15)


def test_ecdf_quantiles_move_with_the_data_and_evaluate_is_flat():
    x = np.array([1.0, 3.0, 2.0, 3.5])
    assert np.array_equal(fg.grad(lambda x: fst.ecdf(x).cdf.quantiles[1])(x), [0, 0, 1, 0])
    assert float(fg.grad(lambda t: fst.ecdf(x).sf.evaluate(t))(2.5)) == 0.0
    with pytest.raises(ValueError, match="NaN"):
        fst.ecdf(np.array([1.0, np.nan]))


def _square_sum(a):
    return np.sum(a ** 2)


# (statistic, the call on the module; each field compared)
BINNED = [
    (st, call) for st in ("mean", "median", "count", "sum", "std", "min", "max", np.mean,
                          _square_sum)
    for call in (
        lambda m, st: m.binned_statistic(U, V, st, bins=4),
        lambda m, st: m.binned_statistic(U, V[0], st, bins=[0.0, 0.3, 0.5, 1.0]),
        lambda m, st: m.binned_statistic_2d(U, V[1], V[0], st, bins=[2, 3],
                                            expand_binnumbers=True),
        lambda m, st: m.binned_statistic_dd(np.c_[U, V[1]], V, st, bins=2,
                                            range=[(0, 1), (-1, 1)]))]


@pytest.mark.parametrize("statistic,call", BINNED)
def test_binned_statistics_match_scipy(statistic, call):
    ours, theirs = call(fst, statistic), call(scipy_stats, statistic)
    for a, b in zip(ours, theirs):
        for a_i, b_i in (zip(a, b) if isinstance(b, list) else [(a, b)]):
            a_i, b_i = np.asarray(a_i), np.asarray(b_i)
            assert a_i.shape == b_i.shape and a_i.dtype == b_i.dtype
            np.testing.assert_allclose(a_i, b_i, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("statistic", ["mean", "std", "median", "max", _square_sum])
def test_binned_statistic_differentiates_in_values(statistic):
    def stat(module, v):
        return module.binned_statistic(U, v, statistic, bins=3).statistic
    jac = fg.jacobian(lambda v: stat(fst, v))(V[0])
    h = 1e-6
    central = np.stack([(stat(scipy_stats, V[0] + h * e) - stat(scipy_stats, V[0] - h * e))
                        / (2 * h) for e in np.eye(U.size)], axis=-1)
    np.testing.assert_allclose(jac, central, atol=1e-8)


@pytest.mark.parametrize("call", [
    lambda m, x, w: m.binned_statistic(x, w, "sum", bins=3).bin_edges,
    lambda m, x, w: np.stack([m.cumfreq(x, 5, weights=w)[i] for i in (1, 2)]),
    lambda m, x, w: m.relfreq(V[1], 5, weights=w).frequency], ids=["edges", "limits",
                                                                   "weights"])
def test_edges_limits_and_weighted_counts_differentiate(call):
    for which in ("x", "w"):
        def f(module, z):
            return np.asarray(call(module, z, U) if which == "x" else call(module, U, z))
        jac = fg.jacobian(lambda z: fnp.asarray(
            call(fst, z, U) if which == "x" else call(fst, U, z)))(U)
        h = 1e-6
        central = np.stack([(f(scipy_stats, U + h * e) - f(scipy_stats, U - h * e)) / (2 * h)
                            for e in np.eye(U.size)], axis=-1)
        np.testing.assert_allclose(jac, central, atol=1e-8)


def test_histograms_match_scipy():
    for ours, theirs in [(fst.cumfreq(V[0], 6), scipy_stats.cumfreq(V[0], 6)),
                         (fst.relfreq(V, 4, defaultreallimits=(-1, 1), weights=V.ravel() + 2),
                          scipy_stats.relfreq(V, 4, defaultreallimits=(-1, 1), weights=V.ravel() + 2))]:
        for a, b in zip(ours, theirs):
            np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-13)


def test_binned_errors_name_the_fix():
    with pytest.raises(ValueError, match="invalid statistic"):
        fst.binned_statistic(U, V[0], "mode")
    with pytest.raises(ValueError, match="one entry per point"):
        fst.binned_statistic(U, V[0, :4])
    with pytest.raises(ValueError, match="weights must have the shape of a flattened"):
        fst.cumfreq(V, weights=U)
    with pytest.raises(ValueError, match="non-finite"):
        fst.binned_statistic(np.append(U, np.inf), np.append(V[0], 1.0))


# --- power transformations ----------------------------------------------------------------------

POS = RNG.lognormal(size=12)
POS2 = RNG.lognormal(size=(5, 3))
REAL = RNG.normal(size=12) * 3.0
H = 1e-6


@pytest.mark.parametrize("lmb", [0.0, 0.6, -1.3, 2.5, 7.0])
def test_llf_match_scipy(lmb):
    for ours, theirs in [
            (fst.boxcox_llf(lmb, POS), scipy_stats.boxcox_llf(lmb, POS)),
            (fst.boxcox_llf(lmb, POS2, axis=1, keepdims=True),
             scipy_stats.boxcox_llf(lmb, POS2, axis=1, keepdims=True)),
            (fst.yeojohnson_llf(lmb, REAL), scipy_stats.yeojohnson_llf(lmb, REAL)),
            (fst.yeojohnson(REAL, lmb), scipy_stats.yeojohnson(REAL, lmb)),
            (fst.boxcox(POS, lmb), scipy_stats.boxcox(POS, lmb))]:
        assert np.shape(ours) == np.shape(theirs)
        np.testing.assert_allclose(ours, theirs, rtol=1e-12)


@pytest.mark.parametrize("lmb", [0.0, 0.7, 2.0])
def test_llf_differentiate_in_lambda_and_data(lmb):
    for ours, theirs in [(fst.boxcox_llf, scipy_stats.boxcox_llf),
                         (fst.yeojohnson_llf, scipy_stats.yeojohnson_llf)]:
        data = POS if ours is fst.boxcox_llf else REAL
        # (SciPy's boxcox_llf loses digits just off lmb = 0: a wider step, O(h**2) off)
        wide = lmb == 0 and ours is fst.boxcox_llf
        h = 1e-3 if wide else H
        central = (theirs(lmb + h, data) - theirs(lmb - h, data)) / (2 * h)
        np.testing.assert_allclose(fg.grad(ours)(lmb, data), central,
                                   rtol=1e-5 if wide else 1e-6)
        central = [(theirs(lmb, data + H * e) - theirs(lmb, data - H * e)) / (2 * H)
                   for e in np.eye(data.size)]
        np.testing.assert_allclose(fg.grad(ours, 1)(lmb, data), central, rtol=1e-6,
                                   atol=1e-8)


def test_boxcox_llf_second_derivative_at_zero_is_smooth():
    # d2/dlmb2 at 0 from the closed form: -N/2 d2/dl2 log var((x**l - 1)/l) at l = 0, where
    # (x**l - 1)/l = L + l L**2/2 + l**2 L**3/6 + ... with L = log x
    L = np.log(POS)
    c = L - L.mean()
    c2, c3 = (L ** 2 / 2) - (L ** 2 / 2).mean(), (L ** 3 / 6) - (L ** 3 / 6).mean()
    v0, v1, v2 = np.mean(c * c), 2 * np.mean(c * c2), np.mean(c2 * c2) + 2 * np.mean(c * c3)
    expected = -L.size / 2 * (2 * v2 / v0 - (v1 / v0) ** 2)
    np.testing.assert_allclose(fg.grad(fg.grad(fst.boxcox_llf))(0.0, POS), expected,
                               rtol=1e-9)


def _argmax_slope(llf, lmb, data, h=1e-4):
    """The implicit function theorem's slope of the maximizer of ``llf(lmb, data)`` in the
    data, ``-d2llf/dlmb dx / d2llf/dlmb2``, from central differences of SciPy's values
    (the maximizer itself is only found to about sqrt(eps): its differences are noise)."""
    second = (llf(lmb + h, data) - 2 * llf(lmb, data) + llf(lmb - h, data)) / h ** 2
    mixed = np.array([(llf(lmb + h, data + h * e) - llf(lmb - h, data + h * e)
                       - llf(lmb + h, data - h * e) + llf(lmb - h, data - h * e)) / (4 * h * h)
                      for e in np.eye(data.size)])
    return -mixed / second


@pytest.mark.parametrize("method", ["mle", "pearsonr", "all"])
def test_boxcox_normmax_matches_scipy_and_differentiates(method):
    ours = fst.boxcox_normmax(POS, method=method)
    np.testing.assert_allclose(ours, scipy_stats.boxcox_normmax(POS, method=method),
                               rtol=1e-6)
    if method == "mle":
        jac = fg.grad(lambda x: fst.boxcox_normmax(x, method="mle"))(POS)
        np.testing.assert_allclose(jac, _argmax_slope(scipy_stats.boxcox_llf, ours, POS),
                                   rtol=1e-5, atol=1e-7)


def test_boxcox_fit_interval_and_yeojohnson_fit():
    y, lmax, (low, high) = fst.boxcox(POS, alpha=0.1)
    y2, lmax2, (low2, high2) = scipy_stats.boxcox(POS, alpha=0.1)
    np.testing.assert_allclose([lmax, low, high], [lmax2, low2, high2], rtol=1e-6)
    np.testing.assert_allclose(y, y2, rtol=1e-6)
    # each end solves llf(end, x) = llf(lmax, x) - c, where d llf / d lmb is 0 at lmax: its
    # slope is -(d llf/dx at the end - d llf/dx at lmax) / (d llf/d lmb at the end)
    jac = fg.jacobian(lambda x: fnp.stack(fst.boxcox(x, alpha=0.1)[2]))(POS)
    llf = scipy_stats.boxcox_llf

    def d_data(lm):
        return np.array([(llf(lm, POS + H * e) - llf(lm, POS - H * e)) / (2 * H)
                         for e in np.eye(POS.size)])
    for row, end in zip(jac, (low2, high2)):
        d_lmb = (llf(end + H, POS) - llf(end - H, POS)) / (2 * H)
        np.testing.assert_allclose(row, -(d_data(end) - d_data(lmax2)) / d_lmb, rtol=1e-5,
                                   atol=1e-7)
    np.testing.assert_allclose(fst.yeojohnson_normmax(REAL),
                               scipy_stats.yeojohnson_normmax(REAL), rtol=1e-6)
    yj, lam = fst.yeojohnson(REAL)
    np.testing.assert_allclose(lam, scipy_stats.yeojohnson(REAL)[1], rtol=1e-6)
    np.testing.assert_allclose(fg.grad(fst.yeojohnson_normmax)(REAL),
                               _argmax_slope(scipy_stats.yeojohnson_llf, lam, REAL),
                               rtol=1e-5, atol=1e-7)


def test_boxcox_normmax_limits_lambda_as_scipy():
    years = np.array([2003.0, 1950.0, 1997.0, 2000.0, 2009.0])
    with pytest.warns(UserWarning, match="constrained optimum"):
        ours = fst.boxcox_normmax(years, method="mle")
    with pytest.warns(UserWarning):
        theirs = scipy_stats.boxcox_normmax(years, method="mle")
    np.testing.assert_allclose(ours, theirs, rtol=1e-10)


def test_transforms_keep_float32_and_say_what_is_wrong():
    assert fst.boxcox_llf(0.5, POS.astype(np.float32)).dtype == np.float32
    assert fst.yeojohnson(REAL.astype(np.float32), 0.5).dtype == np.float32
    assert fst.yeojohnson_llf(0.5, REAL.astype(np.float32)).dtype == np.float32
    with pytest.raises(ValueError, match="must be positive"):
        fst.boxcox(REAL)
    with pytest.raises(ValueError, match="must not be constant"):
        fst.boxcox(np.ones(4))
    with pytest.raises(ValueError, match="lmb must be a scalar"):
        fst.boxcox_llf(np.array([0.1, 0.2]), POS)
    with pytest.raises(ValueError, match="method must be"):
        fst.boxcox_normmax(POS, method="lsq")


# --- circular statistics, k-statistics, expectiles ----------------------------------------------

ANG = RNG.uniform(0.0, 7.0, size=(6, 3))
VEC = RNG.normal(size=(5, 3))
W = RNG.uniform(size=9)
DIRECTION = ["mean_direction", "mean_resultant_length"]

DESCRIPTIVE = [
    ("circmean", lambda m: m.circmean(ANG)),
    ("circmean_axis", lambda m: m.circmean(ANG, high=5.0, low=-1.0, axis=1, keepdims=True)),
    ("circvar", lambda m: m.circvar(ANG, axis=0)),
    ("circstd", lambda m: m.circstd(ANG, high=5.0, low=-1.0, axis=1)),
    ("circstd_normalize", lambda m: m.circstd(ANG, axis=0, normalize=True)),
    ("directional_stats", lambda m: _fields(m.directional_stats(VEC), DIRECTION)),
    ("directional_stats_axis", lambda m: _fields(
        m.directional_stats(VEC.T, axis=1, normalize=False), DIRECTION)),
    ("kstat", lambda m: [m.kstat(ANG, n) for n in (1, 2, 3, 4)]),
    ("kstat_axis", lambda m: m.kstat(ANG, 3, axis=0, keepdims=True)),
    ("kstatvar", lambda m: [m.kstatvar(ANG, 1), m.kstatvar(ANG, 2, axis=0)]),
    ("expectile", lambda m: [m.expectile(X, a) for a in (0.0, 0.1, 0.5, 0.8, 1.0)]),
    ("expectile_ties_weights", lambda m: [m.expectile(np.round(X), 0.3, weights=W),
                                          m.expectile(X, 0.9, weights=W)]),
]


@pytest.mark.parametrize("name,call", DESCRIPTIVE, ids=[c[0] for c in DESCRIPTIVE])
def test_descriptive_statistics_match_scipy(name, call):
    ours, theirs = call(fst), call(scipy_stats)
    for a, b in zip(ours if isinstance(ours, (list, tuple)) else [ours],
                    theirs if isinstance(theirs, (list, tuple)) else [theirs]):
        assert np.shape(a) == np.shape(b)
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("name", ["circmean", "circvar", "circstd", "kstat", "expectile"])
def test_descriptive_statistics_differentiate(name):
    def value(module, x):
        if name == "expectile":
            return module.expectile(x, 0.8, weights=W)
        return getattr(module, name)(x)
    g = fg.grad(lambda x: value(fst, x))(X)
    central = [(value(scipy_stats, X + H * e) - value(scipy_stats, X - H * e)) / (2 * H)
               for e in np.eye(X.size)]
    np.testing.assert_allclose(g, central, rtol=1e-6, atol=1e-9)


def test_expectile_differentiates_in_level_and_weights():
    slope = fg.grad(lambda a: fst.expectile(X, a, weights=W))(0.3)
    central = (scipy_stats.expectile(X, 0.3 + H, weights=W)
               - scipy_stats.expectile(X, 0.3 - H, weights=W)) / (2 * H)
    np.testing.assert_allclose(slope, central, rtol=1e-6)
    g = fg.grad(lambda w: fst.expectile(X, 0.3, weights=w))(W)
    central = [(scipy_stats.expectile(X, 0.3, weights=W + H * e)
                - scipy_stats.expectile(X, 0.3, weights=W - H * e)) / (2 * H)
               for e in np.eye(W.size)]
    np.testing.assert_allclose(g, central, rtol=1e-6, atol=1e-9)


def test_circstd_of_one_repeated_angle_has_a_finite_slope():
    assert np.array_equal(fg.grad(fst.circstd)(np.full(3, 0.5)), np.zeros(3))
    assert fst.circmean(ANG.astype(np.float32)).dtype == np.float32
    assert fst.kstat(ANG.astype(np.float32)).dtype == np.float32
    with pytest.raises(ValueError, match="1 <= n <= 4"):
        fst.kstat(X, 5)
    with pytest.raises(ValueError, match="at least 2-d"):
        fst.directional_stats(X)


# --- quantile ----------------------------------------------------------------------------------

QX = RNG.normal(size=(3, 7))
QN = np.where(np.arange(21).reshape(3, 7) == 2, np.nan, QX)        # one NaN in row 0
QN_EMPTY = np.where(np.arange(21).reshape(3, 7) >= 14, np.nan, QN)  # and row 2 all NaN
QP = np.array([0.0, 0.05, 0.3, 0.5, 0.77, 0.99, 1.0])
QUANTILE_METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                    "interpolated_inverted_cdf", "hazen", "weibull", "linear",
                    "median_unbiased", "normal_unbiased", "harrell-davis"]
QUANTILE_CALLS = [
    ((QX[0], QP), {}),
    ((QX, QP[:3, None]), dict(axis=-1)),
    ((QX, 0.3), dict(axis=1)),
    ((QX, [[0.2, 0.9]]), dict(axis=-1)),
    ((QX, 0.4), dict(axis=None)),
    ((QX, [0.4, 0.6]), dict(axis=None, keepdims=True)),
    ((QN, [[0.3], [0.6], [0.5]]), dict(axis=1, nan_policy="omit")),
    ((QN_EMPTY, 0.3), dict(axis=1)),
    ((QX.T, QP[None, :3]), dict(axis=0)),
    ((QX[0], np.array([-0.1, np.nan, 0.5])), {}),
]


@pytest.mark.parametrize("method", QUANTILE_METHODS)
def test_quantile_matches_scipy(method):
    for args, kwargs in QUANTILE_CALLS:
        ours = fst.quantile(*args, method=method, **kwargs)
        theirs = scipy_stats.quantile(*args, method=method, **kwargs)
        assert np.shape(ours) == np.shape(theirs), kwargs
        np.testing.assert_allclose(ours, theirs, rtol=1e-13, atol=1e-15, err_msg=str(kwargs))


@pytest.mark.parametrize("method", ["linear", "hazen", "harrell-davis", "inverted_cdf"])
def test_quantile_differentiates_in_x_and_p(method):
    def q(module, x, p):
        return module.quantile(x, p, method=method)
    g = fg.grad(lambda x: q(fst, x, 0.3))(QX[0])
    central = [(q(scipy_stats, QX[0] + H * e, 0.3) - q(scipy_stats, QX[0] - H * e, 0.3))
               / (2 * H) for e in np.eye(QX.shape[1])]
    np.testing.assert_allclose(g, central, atol=1e-8)
    slope = fg.grad(lambda p: q(fst, QX[0], p))(0.3)  # (0 for the step method)
    np.testing.assert_allclose(slope, (q(scipy_stats, QX[0], 0.3 + H)
                                       - q(scipy_stats, QX[0], 0.3 - H)) / (2 * H), atol=1e-7)


def test_quantile_keeps_float32_and_names_its_errors():
    assert fst.quantile(QX.astype(np.float32), np.float32(0.3)).dtype == np.float32
    with pytest.raises(ValueError, match="keepdims may be False only"):
        fst.quantile(QX[0], [0.1, 0.5], keepdims=False)
    with pytest.raises(ValueError, match="method must be one of"):
        fst.quantile(QX[0], 0.5, method="nearest")
    with pytest.raises(ValueError, match="broadcast except along axis"):
        fst.quantile(QX, QP[:, None], axis=-1)


# --- L-moments, differential entropy, energy distance, O'Brien's transform ----------------------

SAMPLE = RNG.normal(size=(9, 3))
WIDE = RNG.normal(size=(40, 2))
UW, VW = RNG.uniform(size=9), RNG.uniform(size=7)

ORDER_STATISTICS = [
    ("lmoment", lambda m: m.lmoment(SAMPLE)),
    ("lmoment_order", lambda m: [m.lmoment(SAMPLE, 2), m.lmoment(SAMPLE, [1, 3],
                                                                   standardize=False)]),
    ("lmoment_axis", lambda m: m.lmoment(SAMPLE, [2, 4], axis=1)),
    ("lmoment_keepdims", lambda m: [m.lmoment(SAMPLE, keepdims=True),
                                    m.lmoment(SAMPLE, 3, axis=None, keepdims=True)]),
    ("lmoment_short", lambda m: m.lmoment(np.arange(3.0))),
    ("differential_entropy", lambda m: [
        m.differential_entropy(WIDE, method=k) for k in ("vasicek", "van es", "ebrahimi",
                                                         "correa", "auto")]),
    ("differential_entropy_options", lambda m: [
        m.differential_entropy(WIDE.T, window_length=3, base=2.0, axis=1, keepdims=True),
        m.differential_entropy(SAMPLE[:, 0])]),
    ("energy_distance", lambda m: [m.energy_distance(X, Y[0]),
                                   m.energy_distance(X, Y[0], UW, VW),
                                   m.energy_distance(X, X)]),
    ("obrientransform", lambda m: m.obrientransform(SAMPLE[:, 0], SAMPLE[:, 1])),
]


@pytest.mark.parametrize("name,call", ORDER_STATISTICS, ids=[c[0] for c in ORDER_STATISTICS])
def test_order_statistics_match_scipy(name, call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (the NaN L-moments of 3 values)
        ours, theirs = call(fst), call(scipy_stats)
    for a, b in zip(ours if isinstance(ours, list) else [ours],
                    theirs if isinstance(theirs, list) else [theirs]):
        assert np.shape(a) == np.shape(b)
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name,call,at", [
    ("lmoment", lambda m, x: m.lmoment(x, [1, 2, 3, 4]).sum(), X),
    ("correa", lambda m, x: m.differential_entropy(x, method="correa"), WIDE[:12, 0]),
    ("ebrahimi", lambda m, x: m.differential_entropy(x, method="ebrahimi"), WIDE[:12, 0]),
    ("energy_values", lambda m, x: m.energy_distance(x, Y[0], UW, VW), X),
    ("energy_weights", lambda m, w: m.energy_distance(X, Y[0], w, VW), UW),
    ("obrientransform", lambda m, x: (m.obrientransform(x) ** 2).sum(), X)])
def test_order_statistics_differentiate(name, call, at):
    g = fg.grad(lambda x: call(fst, x))(at)
    central = [(call(scipy_stats, at + H * e) - call(scipy_stats, at - H * e)) / (2 * H)
               for e in np.eye(at.size)]
    np.testing.assert_allclose(g, central, rtol=1e-6, atol=1e-8)


def test_energy_distance_of_identical_samples_has_a_finite_slope():
    assert np.array_equal(fg.grad(lambda u: fst.energy_distance(u, X))(X), np.zeros(X.size))
    with pytest.raises(ValueError, match="non-negative"):
        fst.energy_distance(X, X, -UW, UW)
    with pytest.raises(ValueError, match="less than half the sample size"):
        fst.differential_entropy(X, window_length=5)


# --- probability plots, Bayesian estimates -----------------------------------------------------

BIG = RNG.normal(size=1200)


@pytest.mark.parametrize("kwargs", [{}, dict(dist="gamma", sparams=(2.5,)),
                                    dict(dist="t", sparams=4.0, fit=False),
                                    dict(dist="tukeylambda", sparams=0.3)])
def test_probplot_matches_scipy(kwargs):
    ours, theirs = fst.probplot(X, **kwargs), scipy_stats.probplot(X, **kwargs)
    pairs = [(ours, theirs)] if not kwargs.get("fit", True) else list(zip(ours, theirs))
    for a, b in pairs:
        np.testing.assert_allclose(np.asarray([np.asarray(v, float) for v in a]),
                                   np.asarray(b, float), rtol=1e-12, atol=1e-14)


def test_probplot_differentiates_in_data_and_shape():
    def slope(module, x, s):
        return module.probplot(x, dist="gamma", sparams=(s,))[1][0]
    g = fg.grad(lambda x: slope(fst, x, 2.5))(X)
    central = [(slope(scipy_stats, X + H * e, 2.5) - slope(scipy_stats, X - H * e, 2.5))
               / (2 * H) for e in np.eye(X.size)]
    np.testing.assert_allclose(g, central, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(fg.grad(lambda s: slope(fst, X, s))(2.5),
                               (slope(scipy_stats, X, 2.5 + H)
                                - slope(scipy_stats, X, 2.5 - H)) / (2 * H), rtol=1e-6)


def test_ppcc_max_matches_scipy_and_differentiates():
    shape = fst.ppcc_max(X)
    np.testing.assert_allclose(shape, scipy_stats.ppcc_max(X), rtol=1e-5)
    medians = fst.probplot(X, fit=False)[0]  # (normal quantiles of Filliben's medians)
    uniform = scipy_stats.norm.cdf(medians)

    def crookedness(lam, x):
        osm = scipy_stats.tukeylambda.ppf(uniform, lam)
        return 1 - scipy_stats.pearsonr(osm, np.sort(x))[0]
    np.testing.assert_allclose(fg.grad(fst.ppcc_max)(X),
                               _argmax_slope(lambda lm, x: -crookedness(lm, x), shape, X),
                               rtol=1e-4, atol=1e-7)


@pytest.mark.parametrize("data", [X, BIG], ids=["small", "normal_approximation"])
def test_bayes_mvs_and_mvsdist_match_scipy(data):
    for ours, theirs in zip(fst.bayes_mvs(data, 0.8), scipy_stats.bayes_mvs(data, 0.8)):
        assert type(ours).__name__ == type(theirs).__name__
        np.testing.assert_allclose(ours.statistic, theirs.statistic, rtol=1e-12)
        np.testing.assert_allclose(ours.minmax, theirs.minmax, rtol=1e-12)
    for ours, theirs in zip(fst.mvsdist(data), scipy_stats.mvsdist(data)):
        np.testing.assert_allclose([ours.mean(), ours.std(), ours.cdf(0.9)],
                                   [theirs.mean(), theirs.std(), theirs.cdf(0.9)],
                                   rtol=1e-12, atol=1e-15)
    if data is BIG:
        return

    def upper(module, x):
        return module.bayes_mvs(x, 0.8)[2].minmax[1]
    g = fg.grad(lambda x: upper(fst, x))(X)
    central = [(upper(scipy_stats, X + H * e) - upper(scipy_stats, X - H * e)) / (2 * H)
               for e in np.eye(X.size)]
    np.testing.assert_allclose(g, central, rtol=1e-6, atol=1e-9)


# --- fit ----------------------------------------------------------------------------------------

def _seeded(fun, **kwargs):
    from scipy.optimize import differential_evolution
    return differential_evolution(fun, rng=1, **kwargs)


def test_fit_matches_scipy_and_its_normal_mle_moves_as_the_closed_form():
    bounds = {"loc": (-10, 10), "scale": (0.01, 10)}
    ours = fst.fit(fst.norm, X, bounds, optimizer=_seeded)
    theirs = scipy_stats.fit(scipy_stats.norm, X, bounds, optimizer=_seeded)
    np.testing.assert_array_equal(ours.params, theirs.params)
    assert ours.success and float(ours.nllf()) == pytest.approx(theirs.nllf(), rel=1e-12)
    jac = fg.jacobian(lambda x: fnp.stack(list(fst.fit(fst.norm, x, bounds,
                                                       optimizer=_seeded).params)))(X)
    # the normal MLE: the mean (slope 1/n) and the ddof=0 standard deviation
    np.testing.assert_allclose(jac[0], np.full(X.size, 1 / X.size), atol=1e-6)
    np.testing.assert_allclose(jac[1], (X - X.mean()) / (X.size * X.std()), atol=1e-6)


def test_fit_shape_parameter_differentiates_and_fixed_ones_do_not_move():
    data = np.abs(X) + 0.2
    ours = fst.fit(fst.gamma, data, {"a": (0.1, 10)}, optimizer=_seeded)
    theirs = scipy_stats.fit(scipy_stats.gamma, data, {"a": (0.1, 10)}, optimizer=_seeded)
    np.testing.assert_array_equal(ours.params, theirs.params)
    jac = fg.jacobian(lambda x: fnp.stack(list(fst.fit(fst.gamma, x, {"a": (0.1, 10)},
                                                       optimizer=_seeded).params)))(data)
    expected = _argmax_slope(lambda a, x: np.sum(scipy_stats.gamma.logpdf(x, a)),
                             theirs.params.a, data)
    np.testing.assert_allclose(jac[0], expected, rtol=1e-5, atol=1e-7)
    assert np.all(jac[1:] == 0)  # (loc and scale fixed at 0 and 1 by SciPy's defaults)
    with pytest.raises(NotImplementedError, match="method='mle'"):
        fg.grad(lambda x: fst.fit(fst.gamma, x, {"a": (0.1, 10)}, method="mse",
                                  optimizer=_seeded).params.a)(data)


# --- goodness_of_fit ----------------------------------------------------------------------------

GAMMA_DATA = np.abs(X[:6]) + 0.2


GOF_CASES = [("norm", X[:6], None), ("norm", X[:6], {"loc": 0.0}),
             ("gamma", GAMMA_DATA, {"loc": 0.0})]


def _gof(module, family, x, known, statistic):
    return module.goodness_of_fit(getattr(module, family), x, known_params=known,
                                  statistic=statistic, n_mc_samples=3, rng=0)


@pytest.mark.parametrize("family,data,known", GOF_CASES,
                         ids=["norm", "norm_known_loc", "gamma_known_loc"])
def test_goodness_of_fit_matches_scipy(family, data, known):
    for statistic in ("ad", "ks", "cvm", "filliben"):
        ours = _gof(fst, family, data, known, statistic)
        theirs = _gof(scipy_stats, family, data, known, statistic)
        for field in ("statistic", "pvalue", "null_distribution"):
            np.testing.assert_allclose(getattr(ours, field), getattr(theirs, field),
                                       rtol=1e-12, err_msg=statistic)
        np.testing.assert_allclose(ours.fit_result.params, theirs.fit_result.params,
                                   rtol=1e-12)


@pytest.mark.parametrize("family,data,known,statistic", [
    GOF_CASES[0] + ("ad",), GOF_CASES[1] + ("cvm",), GOF_CASES[2] + ("ks",),
    GOF_CASES[0] + ("filliben",)], ids=["norm-ad", "norm_known_loc-cvm", "gamma-ks",
                                        "norm-filliben"])
def test_goodness_of_fit_statistic_differentiates(family, data, known, statistic):
    value, g = fg.value_and_grad(
        lambda x: _gof(fst, family, x, known, statistic).statistic)(data)
    np.testing.assert_allclose(value, _gof(scipy_stats, family, data, known,
                                           statistic).statistic, rtol=1e-12)
    central = [(_gof(scipy_stats, family, data + H * e, known, statistic).statistic
                - _gof(scipy_stats, family, data - H * e, known, statistic).statistic) / (2 * H)
               for e in np.eye(data.size)]
    np.testing.assert_allclose(g, central, rtol=1e-6, atol=1e-8)


def test_goodness_of_fit_refuses_a_derivative_at_a_loose_fit():
    # (SciPy fits gamma's three parameters with fmin, to about 1e-4: no stationary point)
    with pytest.raises(NotImplementedError, match="not a stationary point"):
        fg.grad(lambda x: fst.goodness_of_fit(fst.gamma, x, n_mc_samples=1,
                                              rng=0).statistic)(GAMMA_DATA)


def test_the_smooth_statistics_map_with_vmap():
    # (one check per family whose values decide nothing: the circular and k-statistics,
    # the power transforms' likelihoods, the L-moments)
    rows = np.abs(SAMPLE.T) + 0.1
    for f in (fst.circmean, fst.circstd, lambda r: fst.kstat(r, 3),
              lambda r: fst.boxcox_llf(0.3, r), lambda r: fst.yeojohnson_llf(1.4, r),
              lambda r: fst.lmoment(r, 2)):
        np.testing.assert_allclose(fg.vmap(f)(rows), np.stack([f(r) for r in rows]),
                                   rtol=1e-12)
