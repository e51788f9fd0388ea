"""funcgrad.scipy.stats' shapiro, tukey_hsd, somersd, weightedtau and
wasserstein_distance_nd against SciPy's: the values of every field, derivatives against
central differences of SciPy's own values where the statistic is smooth, zero derivatives
of the rank statistics, float32 kept, one vmap/jit check per family, and errors (rather
than a one-sided derivative) where the value has a kink."""
import warnings

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")
# (SciPy's notice for 11 values, the same in both calls compared)
pytestmark = pytest.mark.filterwarnings("ignore:kurtosistest only valid:UserWarning")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402

RNG = np.random.default_rng(24)
SKEWED = RNG.standard_normal(13) ** 3
GRID = RNG.standard_normal((3, 8))
A, B, C = RNG.normal(size=5), RNG.normal(size=6) + 1.0, RNG.normal(size=4) * 2.0
U, V = RNG.standard_normal((4, 2)), RNG.standard_normal((5, 2))
WU, WV = RNG.uniform(0.2, 1.0, 4), RNG.uniform(0.2, 1.0, 5)
TUKEY_Q = scipy_stats.studentized_range.ppf(0.95, 2, A.size + B.size - 2)
RANKS_X = np.array([12.0, 2.0, 1.0, 12.0, 2.0, 5.0])
RANKS_Y = np.array([1.0, 4.0, 7.0, 1.0, 0.0, 3.0])


def _fields(res):
    names = [n for n in ("statistic", "pvalue", "table") if hasattr(res, n)]
    return {n: np.asarray(getattr(res, n), dtype=np.float64) for n in names} if names else {
        "value": np.asarray(res, dtype=np.float64)}


# name, a call taking the module (funcgrad's or SciPy's), relative tolerance
CASES = [
    # (SciPy evaluates Royston's normal tail with AS 66: p-values agree to ~1e-10)
    ("shapiro_n3", lambda m: m.shapiro(SKEWED[:3]), 1e-9),
    ("shapiro_small", lambda m: m.shapiro(SKEWED[:7]), 1e-9),
    ("shapiro_large", lambda m: m.shapiro(SKEWED), 1e-9),
    ("shapiro_axis", lambda m: m.shapiro(GRID, axis=1, keepdims=True), 1e-9),
    ("shapiro_omit", lambda m: m.shapiro(np.r_[SKEWED[:6], np.nan], nan_policy="omit"), 1e-9),
    ("tukey_hsd", lambda m: m.tukey_hsd(A, B, C), 1e-12),
    ("tukey_hsd_welch", lambda m: m.tukey_hsd(A, B, C, equal_var=False), 1e-12),
    ("somersd", lambda m: m.somersd(RANKS_X, RANKS_Y, alternative="greater"), 1e-12),
    ("somersd_table", lambda m: m.somersd(np.array([[3, 1, 2], [1, 4, 0]])), 1e-12),
    ("weightedtau", lambda m: m.weightedtau(RANKS_X, RANKS_Y), 1e-12),
    ("weightedtau_options", lambda m: m.weightedtau(
        RANKS_X, RANKS_Y, rank=None, weigher=lambda r: 1.0 / (r + 2.0), additive=False),
     1e-12),
    ("wasserstein_nd", lambda m: m.wasserstein_distance_nd(U, V), 1e-12),
    ("wasserstein_nd_weights", lambda m: m.wasserstein_distance_nd(U, V, WU, WV), 1e-12),
    ("wasserstein_nd_1d", lambda m: m.wasserstein_distance_nd(U[:, 0], V[:, 0], WU), 1e-12),
]


@pytest.mark.parametrize("name, call, rtol", CASES, ids=[c[0] for c in CASES])
def test_values_match_scipy(name, call, rtol):
    ours, theirs = _fields(call(fst)), _fields(call(scipy_stats))
    assert ours.keys() == theirs.keys()
    for field in theirs:
        np.testing.assert_allclose(ours[field], theirs[field], rtol=rtol, atol=1e-300,
                                   err_msg=f"{name}.{field}")


def test_tukey_hsd_confidence_interval_and_text_match_scipy():
    # (SciPy's studentized range quantile takes a good part of a second: few of them)
    assert str(fst.tukey_hsd(B, A)) == str(scipy_stats.tukey_hsd(B, A))
    # Welch's: each interval's half-width is the quantile at that pair's degrees of freedom
    # (samples of one size: two distinct degrees of freedom, two quantiles)
    ours, theirs = fst.tukey_hsd(A[:4], C, equal_var=False), scipy_stats.tukey_hsd(
        A[:4], C, equal_var=False)
    half = ours.confidence_interval(0.9).high[0, 1] - ours.statistic[0, 1]
    expected = scipy_stats.studentized_range.ppf(0.9, 2, theirs._df[0, 1]) * (
        theirs._stand_err[0, 1])
    np.testing.assert_allclose(half, expected, rtol=1e-12)


def _central(f, x, h=1e-6):
    """Central differences of the scalar function ``f`` (SciPy's values) at ``x``."""
    out = np.zeros(x.size)
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = h
        out[i] = (f(x + e.reshape(x.shape)) - f(x - e.reshape(x.shape))) / (2 * h)
    return out.reshape(x.shape)


# name, funcgrad's scalar function of x, SciPy's, the point
SMOOTH = [
    ("shapiro_w_n3", lambda x: fst.shapiro(x).statistic,
     lambda x: scipy_stats.shapiro(x).statistic, SKEWED[:3]),
    ("shapiro_p_small", lambda x: fst.shapiro(x).pvalue,
     lambda x: scipy_stats.shapiro(x).pvalue, SKEWED[:7]),
    ("shapiro_p_large", lambda x: fst.shapiro(x).pvalue,
     lambda x: scipy_stats.shapiro(x).pvalue, SKEWED),
    ("tukey_p", lambda x: fst.tukey_hsd(x, C).pvalue[0, 1],
     lambda x: scipy_stats.tukey_hsd(x, C).pvalue[0, 1], A),
    # (the quantile is a constant with equal_var: SciPy's once, times its standard error)
    ("tukey_ci", lambda x: fst.tukey_hsd(B, x).confidence_interval().high[0, 1],
     lambda x: (lambda r: r.statistic[0, 1] + TUKEY_Q * r._stand_err[0, 1])(
         scipy_stats.tukey_hsd(B, x)), A),
    ("wasserstein_nd_u", lambda x: fst.wasserstein_distance_nd(x, V, WU, WV),
     lambda x: scipy_stats.wasserstein_distance_nd(x, V, WU, WV), U),
    ("wasserstein_nd_weights", lambda w: fst.wasserstein_distance_nd(U, V, WU, w),
     lambda w: scipy_stats.wasserstein_distance_nd(U, V, WU, w), WV),
]


@pytest.mark.parametrize("name, ours, theirs, x", SMOOTH, ids=[c[0] for c in SMOOTH])
def test_derivatives_match_central_differences_of_scipy(name, ours, theirs, x):
    g = fg.grad(ours)(x)
    expected = _central(theirs, x)
    assert np.max(np.abs(expected)) > 1e-3  # (a derivative that can tell)
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-7 * np.max(np.abs(expected)))


def test_tukey_hsd_welch_statistic_differentiates_and_its_pvalue_refuses():
    g = fg.grad(lambda x: fst.tukey_hsd(x, B, C, equal_var=False).statistic[0, 2])(A)
    np.testing.assert_allclose(g, np.full(A.size, 1.0 / A.size))
    with pytest.raises(TypeError, match="equal_var=True"):
        fg.grad(lambda x: fst.tukey_hsd(x, B, C, equal_var=False).pvalue[0, 2])(A)
    with pytest.raises(NotImplementedError, match="differentiate the p-value once"):
        first = fg.grad(lambda x: fst.tukey_hsd(x, B, C).pvalue[0, 1])
        fg.grad(lambda x: first(x)[0])(A)


def test_rank_statistics_have_zero_derivative_and_refuse_what_is_not_a_ranking():
    for f in (lambda v: fst.somersd(v, RANKS_Y).statistic,
              lambda v: fst.weightedtau(v, RANKS_Y).statistic):
        np.testing.assert_array_equal(fg.grad(f)(RANKS_X + 0.25), np.zeros(RANKS_X.size))
    with pytest.raises(TypeError, match="contingency table"):
        fg.grad(lambda t: fst.somersd(t).statistic)(np.array([[3.0, 1.0], [1.0, 4.0]]))
    with pytest.raises(TypeError, match="weigher"):
        fg.grad(lambda p: fst.weightedtau(RANKS_X, RANKS_Y,
                                          weigher=lambda r: 1.0 / (r + 1.0) ** p).statistic)(2.0)
    with pytest.raises(fg.errors.ConcretizationError, match="outside vmap/jit"):
        fg.vmap(lambda v: fst.somersd(v, RANKS_Y).statistic)(np.stack([RANKS_X] * 2))


def test_wasserstein_nd_raises_where_the_distance_has_a_kink():
    with pytest.raises(ValueError, match="degenerate"):  # (equal weights: an assignment)
        fg.grad(lambda w: fst.wasserstein_distance_nd(U, V[:4], w, np.ones(4)))(np.ones(4))
    square_u = np.array([[0.0, 0.0], [1.0, 1.0]])
    square_v = np.array([[1.0, 0.0], [0.0, 1.0]])  # (two assignments cost the same)
    with pytest.raises(ValueError, match="not unique"):
        fg.grad(fst.wasserstein_distance_nd)(square_u, square_v)
    with pytest.raises(ValueError, match="coincide"):
        fg.grad(fst.wasserstein_distance_nd)(U, np.r_[U[:1], V])
    # (the values themselves are fine there)
    assert float(fst.wasserstein_distance_nd(square_u, square_v)) == pytest.approx(1.0)


def test_shapiro_float32_vmap_jit_and_edge_cases():
    res = fst.shapiro(GRID.astype(np.float32), axis=1)
    assert res.statistic.dtype == np.float32 and res.pvalue.dtype == np.float32
    expected = scipy_stats.shapiro(GRID, axis=1)
    np.testing.assert_allclose(res.pvalue, expected.pvalue, rtol=1e-4)
    np.testing.assert_allclose(fg.vmap(lambda x: fst.shapiro(x).pvalue)(GRID),
                               expected.pvalue, rtol=1e-9)
    np.testing.assert_allclose(fg.jit(lambda x: fst.shapiro(x).statistic)(GRID[0]),
                               expected.statistic[0], rtol=1e-12)
    with pytest.warns(UserWarning, match="zero range"):
        flat = fst.shapiro(np.ones(5))
    assert (float(flat.statistic), float(flat.pvalue)) == (1.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert np.isnan(fst.shapiro(np.array([1.0, 2.0])).statistic)
    with pytest.raises(ValueError, match="NaN"):
        fst.shapiro(np.array([1.0, np.nan, 2.0, 3.0]), nan_policy="raise")


def test_float32_kept_by_tukey_and_wasserstein_nd():
    f32 = [a.astype(np.float32) for a in (A, B, C)]
    res = fst.tukey_hsd(*f32)
    assert {res.statistic.dtype, res.pvalue.dtype,
            res.confidence_interval().low.dtype} == {np.dtype(np.float32)}
    d = fst.wasserstein_distance_nd(U.astype(np.float32), V.astype(np.float32))
    assert d.dtype == np.float32
    assert float(d) == pytest.approx(scipy_stats.wasserstein_distance_nd(U, V), rel=1e-6)


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="at least two samples"):
        fst.tukey_hsd(A)
    with pytest.raises(ValueError, match="one-dimensional"):
        fst.tukey_hsd(A, GRID)
    with pytest.raises(ValueError, match="at least two values"):
        fst.tukey_hsd(A, B[:1])
    with pytest.raises(ValueError, match="as many coordinates"):
        fst.wasserstein_distance_nd(U, V[:, :1])
    with pytest.raises(ValueError, match="one number per point"):
        fst.wasserstein_distance_nd(U, V, WU[:3])


# ---- normality plots, Sobol indices, simulated power ----

POSITIVE = RNG.lognormal(size=10)


@pytest.mark.parametrize("name, args", [
    ("boxcox_normplot", (POSITIVE, -2, 2)),
    ("yeojohnson_normplot", (SKEWED, -1, 3)),
    ("ppcc_plot", (SKEWED, -0.5, 1.5)),
    ("ppcc_plot", (POSITIVE, 0.5, 3.0, "weibull_min")),
])
def test_normplots_match_scipy_and_differentiate(name, args):
    ours, theirs = getattr(fst, name)(*args, N=6), getattr(scipy_stats, name)(*args, N=6)
    np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-15)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)
    x, rest = args[0], args[1:]
    g = fg.grad(lambda v: getattr(fst, name)(v, *rest, N=6)[1][2])(x)
    expected = _central(lambda v: getattr(scipy_stats, name)(v, *rest, N=6)[1][2], x)
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-8)


def test_normplot_float32_drawing_and_errors():
    lmbdas, ppcc = fst.boxcox_normplot(POSITIVE.astype(np.float32), -1, 1, N=4)
    assert ppcc.dtype == np.float32

    class Recorder:
        def __init__(self):
            self.calls = []

        def __getattr__(self, name):
            return lambda *a, **k: self.calls.append(name)
    drawn = Recorder()
    fst.yeojohnson_normplot(SKEWED, -1, 1, plot=drawn, N=4)
    assert drawn.calls == ["plot", "set_title", "set_xlabel", "set_ylabel"]
    with pytest.raises(ValueError, match="positive"):
        fst.boxcox_normplot(SKEWED, -1, 1)
    with pytest.raises(ValueError, match="larger"):
        fst.ppcc_plot(SKEWED, 1, -1)


ISHIGAMI_DISTS = [scipy_stats.uniform(loc=-np.pi, scale=2 * np.pi)] * 3


def _ishigami(a):
    return lambda x: np.sin(x[0]) + a * np.sin(x[1]) ** 2 + 0.1 * x[2] ** 4 * np.sin(x[0])


def test_sobol_indices_match_scipy_and_differentiate_in_parameters():
    ours_dists = [fst.uniform(loc=-np.pi, scale=2 * np.pi)] * 3
    ours = fst.sobol_indices(func=_ishigami(7.0), n=64, dists=ours_dists, rng=3)
    theirs = scipy_stats.sobol_indices(func=_ishigami(7.0), n=64, dists=ISHIGAMI_DISTS, rng=3)
    np.testing.assert_allclose(ours.first_order, theirs.first_order, rtol=1e-12)
    np.testing.assert_allclose(ours.total_order, theirs.total_order, rtol=1e-12)
    # in the function's parameter, and in a funcgrad distribution's
    g = fg.grad(lambda a: fst.sobol_indices(func=_ishigami(a), n=64, dists=ours_dists,
                                            rng=3).first_order[1])(7.0)
    expected = _central(lambda a: scipy_stats.sobol_indices(
        func=_ishigami(a[0]), n=64, dists=ISHIGAMI_DISTS, rng=3).first_order[1],
        np.array([7.0]), h=1e-5)
    np.testing.assert_allclose(g, expected[0], rtol=1e-6)

    def total(scale, module):
        dists = [module.uniform(loc=-np.pi, scale=scale)] + [
            module.uniform(loc=-np.pi, scale=2 * np.pi)] * 2
        return module.sobol_indices(func=_ishigami(7.0), n=64, dists=dists,
                                    rng=3).total_order[0]
    g = fg.grad(lambda s: total(s, fst))(2 * np.pi)
    expected = _central(lambda s: total(s[0], scipy_stats), np.array([2 * np.pi]))
    np.testing.assert_allclose(g, expected[0], rtol=1e-6)


def test_sobol_indices_dict_outputs_multi_output_and_bootstrap():
    two = [scipy_stats.uniform()] * 2
    both = lambda x: np.stack([x[0] + x[1] ** 2, x[0] * x[1]])  # noqa: E731
    ours = fst.sobol_indices(func=both, n=32, dists=two, rng=5)
    theirs = scipy_stats.sobol_indices(func=both, n=32, dists=two, rng=5)
    np.testing.assert_allclose(ours.total_order, theirs.total_order, rtol=1e-12)
    outputs = {k: getattr(theirs, "_" + k) + 1.0 for k in ("f_A", "f_B", "f_AB")}
    np.testing.assert_allclose(fst.sobol_indices(func=outputs, n=32).first_order,
                               theirs.first_order, rtol=1e-12)
    interval = ours.bootstrap(n_resamples=30).first_order.confidence_interval
    assert interval.low.shape == ours.first_order.shape
    with pytest.raises(ValueError, match="power of 2"):
        fst.sobol_indices(func=both, n=30, dists=two)


def test_power_matches_scipy_for_the_same_generators():
    def draws(seed):
        rng = np.random.default_rng(seed)
        return (lambda size: rng.normal(size=size),
                lambda size, loc: rng.normal(loc=loc, size=size))
    options = dict(significance=np.array([0.01, 0.05]), n_resamples=150, batch=64,
                   kwargs={"loc": np.array([0.0, 0.8])[:, None]})
    ours = fst.power(fst.ttest_ind, draws(7), (np.array([8, 16]), 12), **options)
    theirs = scipy_stats.power(scipy_stats.ttest_ind, draws(7), (np.array([8, 16]), 12),
                               **options)
    np.testing.assert_array_equal(ours.power, theirs.power)
    np.testing.assert_allclose(ours.pvalues, theirs.pvalues, rtol=1e-10)


def test_power_pvalues_differentiate_through_the_test_and_traced_kwargs_raise():
    def summed(mu):
        rng = np.random.default_rng(9)
        res = fst.power(lambda x, axis: fst.ttest_1samp(x, mu, axis=axis),
                        lambda size: rng.normal(0.3, size=size), 12, n_resamples=16)
        return fg.numpy.sum(res.pvalues)
    sample = np.random.default_rng(9).normal(0.3, size=(16, 12))
    expected = _central(lambda m: np.sum(scipy_stats.ttest_1samp(sample, m[0], axis=-1).pvalue),
                        np.array([0.1]))
    np.testing.assert_allclose(fg.grad(summed)(0.1), expected[0], rtol=1e-6)
    with pytest.raises(TypeError, match="kwargs"):
        fg.grad(lambda loc: fst.power(fst.ttest_1samp, lambda size, loc: np.zeros(size), 5,
                                      kwargs={"loc": loc}).power)(np.array(1.0))


# ---- mstats: SciPy's on masked/plain arrays, funcgrad's twins on traced data ----

from funcgrad.scipy.stats import mstats  # noqa: E402

scipy_mstats = scipy_stats.mstats
DATA = RNG.standard_normal(11) * 2.0 + 1.0
TABLE = RNG.uniform(1.0, 3.0, size=(6, 3))
MASKED = np.ma.masked_array(DATA, mask=np.arange(11) % 4 == 3)

# name, call taking (module, x): each twin's value on traced x must be SciPy's on x
TWINS = [
    ("gmean", lambda m, x: m.gmean(x + 10.0)),
    ("hmean", lambda m, x: m.hmean(x + 10.0)),
    ("describe", lambda m, x: m.describe(x, ddof=1).variance),
    ("skew", lambda m, x: m.skew(x)),
    ("kurtosis", lambda m, x: m.kurtosis(x, fisher=False)),
    ("moment", lambda m, x: m.moment(x, 3)),
    ("variation", lambda m, x: m.variation(x + 10.0)),
    ("sem", lambda m, x: m.sem(x)),
    ("zscore", lambda m, x: m.zscore(x)),
    ("tmean", lambda m, x: m.tmean(x, (-1.0, 3.0))),
    ("tvar", lambda m, x: m.tvar(x, (-1.0, 3.0))),
    ("tmin", lambda m, x: m.tmin(x, 0.0)),
    ("tsem", lambda m, x: m.tsem(x)),
    ("pearsonr", lambda m, x: m.pearsonr(x, DATA[::-1] ** 2).pvalue),
    ("linregress", lambda m, x: m.linregress(x, DATA[::-1] ** 2).slope),
    ("linregress_pair", lambda m, x: m.linregress(np.stack([DATA[::-1] ** 2, x], 1)).slope),
    ("ttest_1samp", lambda m, x: m.ttest_1samp(x, 0.5).pvalue),
    ("zmap", lambda m, x: m.zmap(x, DATA[::-1] ** 2)),
    ("f_oneway", lambda m, x: m.f_oneway(x, DATA[:5] + 1.0).pvalue),
    ("normaltest", lambda m, x: m.normaltest(x).pvalue),
    ("theilslopes", lambda m, x: m.theilslopes(x, DATA[::-1] ** 2).intercept),
    ("siegelslopes", lambda m, x: m.siegelslopes(x).slope),
    ("scoreatpercentile", lambda m, x: m.scoreatpercentile(x, 30)),
    ("trimmed_mean", lambda m, x: m.trimmed_mean(x, limits=(0.1, 0.25))),
    ("trimmed_mean_abs", lambda m, x: m.trimmed_mean(x, limits=(-1.0, 3.0), relative=False)),
    ("trimmed_mean_exclusive", lambda m, x: m.trimmed_mean(x, (0.15, 0.15), (0, 1))),
    ("trimmed_var", lambda m, x: m.trimmed_var(x, limits=(0.2, 0.1), ddof=1)),
    ("trimmed_std", lambda m, x: m.trimmed_std(x)),
    ("winsorize", lambda m, x: m.winsorize(x, limits=(0.2, 0.1))),
    ("winsorize_axis", lambda m, x: m.winsorize(x.reshape(1, 11) * 1.0, (0.1, 0.2), axis=1)),
    ("mquantiles", lambda m, x: m.mquantiles(x, prob=[0.1, 0.5, 0.9], alphap=0.5, betap=0.5)),
    ("hdquantiles", lambda m, x: m.hdquantiles(x, prob=[0.0, 0.3, 0.8], var=True)),
    ("hdmedian", lambda m, x: m.hdmedian(x)),
    ("idealfourths", lambda m, x: m.idealfourths(x)),
]
TABLE_TWINS = [
    ("mquantiles_axis0", lambda m, t: m.mquantiles(t, axis=0)),
    ("hdquantiles_axis1", lambda m, t: m.hdquantiles(t, axis=1, var=True)),
    ("idealfourths_axis0", lambda m, t: m.idealfourths(t, axis=0)),
    ("trimmed_mean_axis0", lambda m, t: m.trimmed_mean(t, (0.2, 0.2), axis=0)),
    ("sen_seasonal_slopes", lambda m, t: m.sen_seasonal_slopes(t).intra_slope),
]


def _traced_value(f, x):
    """``f``'s value computed on traced ``x`` (funcgrad's twin), by a forward pass."""
    return fg.jvp(f, (x,), (np.zeros_like(x),))[0]


@pytest.mark.parametrize("name, call", TWINS + TABLE_TWINS,
                         ids=[c[0] for c in TWINS + TABLE_TWINS])
def test_mstats_twins_match_scipy(name, call):
    x = TABLE if name in dict(TABLE_TWINS) else DATA
    ours = _traced_value(lambda v: call(mstats, v), x)
    theirs = call(scipy_mstats, x)
    assert not isinstance(ours, np.ma.MaskedArray)
    # (where SciPy masks an invalid value, the twin's plain array holds NaN)
    np.testing.assert_allclose(np.asarray(ours), np.ma.filled(np.ma.asarray(
        theirs, dtype=np.float64), np.nan), rtol=1e-12, atol=1e-14, err_msg=name)


@pytest.mark.parametrize("name", ["gmean", "trimmed_mean", "winsorize", "mquantiles",
                                  "hdmedian", "idealfourths", "sen_seasonal_slopes"])
def test_mstats_derivatives_match_central_differences(name):
    call = dict(TWINS + TABLE_TWINS)[name]
    x = TABLE if name in dict(TABLE_TWINS) else DATA
    weights = np.linspace(0.5, 1.5, np.size(call(scipy_mstats, x)))
    g = fg.grad(lambda v: fg.numpy.sum(fg.numpy.ravel(call(mstats, v)) * weights))(x)
    expected = _central(lambda v: np.sum(np.ravel(np.ma.getdata(call(scipy_mstats, v)))
                                         * weights), x)
    assert np.max(np.abs(expected)) > 1e-3
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-8)


def test_mstats_masked_arrays_are_scipys():
    for name in ("gmean", "describe", "trimmed_mean", "winsorize", "mquantiles", "rankdata",
                 "plotting_positions", "trimboth"):
        ours = getattr(mstats, name)(np.abs(MASKED) if name == "gmean" else MASKED)
        theirs = getattr(scipy_mstats, name)(np.abs(MASKED) if name == "gmean" else MASKED)
        assert type(ours) is type(theirs)
    winsorized = mstats.winsorize(MASKED, limits=(0.2, 0.2))
    expected = scipy_mstats.winsorize(MASKED, limits=(0.2, 0.2))
    np.testing.assert_array_equal(winsorized.mask, expected.mask)
    np.testing.assert_array_equal(winsorized.data, expected.data)
    np.testing.assert_array_equal(mstats.rankdata(MASKED), scipy_mstats.rankdata(MASKED))
    assert float(mstats.kendalltau(MASKED, DATA).statistic) == pytest.approx(
        scipy_mstats.kendalltau(MASKED, DATA).statistic, rel=1e-12)


def test_mstats_rank_functions_zero_derivative_and_twin_errors():
    for rank_test in (lambda v: mstats.spearmanr(v, DATA[::-1]).statistic,
                      lambda v: mstats.kruskal(v, DATA[:5] + 1.0).pvalue):
        np.testing.assert_array_equal(fg.grad(rank_test)(DATA), np.zeros(DATA.size))
    with pytest.raises(TypeError, match="cannot carry a mask"):
        fg.grad(lambda v: mstats.trimboth(v).sum())(DATA)
    with pytest.raises(TypeError, match="inplace"):
        fg.grad(lambda v: fg.numpy.sum(mstats.winsorize(v, (0.1, 0.1), inplace=True)))(DATA)
    with pytest.raises(TypeError, match="limit"):
        fg.grad(lambda v: fg.numpy.sum(mstats.mquantiles(v, limit=(0, 1))))(DATA)
    with pytest.raises(ValueError, match="between 0. and 1."):
        fg.grad(lambda v: mstats.trimmed_mean(v, limits=(1.5, 0.1)))(DATA)
    assert fst.mstats is mstats
