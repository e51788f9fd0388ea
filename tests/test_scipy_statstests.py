"""funcgrad.scipy.stats' summary statistics and classical tests against SciPy's: every
field of every result (statistic, p-value, degrees of freedom, confidence intervals...)
to 1e-12 on random data, with axis=/keepdims=/alternative=; derivatives in the data
against central differences of SciPy's own values; float32 in, float32 out; one
jit/vmap check per family; the rank tests' zero derivative; errors that name the fix."""
import warnings

import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402

RNG = np.random.default_rng(22)
A = RNG.normal(size=(10, 3)) + 0.4           # samples along axis 0
B = RNG.normal(size=(13, 3)) * 2.0
C = RNG.normal(size=(10, 3))                 # paired with A
P = np.abs(A) + 0.2                          # positive data
F_OBS = RNG.uniform(5.0, 20.0, size=(6, 3))
F_EXP = F_OBS.sum(axis=0) * RNG.dirichlet(np.ones(6), size=3).T
TIES = np.round(A * 2.0)                     # tied values
HOLED = np.where(np.arange(30).reshape(10, 3) == 4, np.nan, A)  # a NaN at [1, 1]
X1 = RNG.normal(size=12)
LONG = RNG.normal(size=400)                  # (kendalltau's merge-sort count, with ties)
Y1 = 0.7 * X1 + RNG.normal(size=12)
ALTS = ["two-sided", "less", "greater"]

# name, a call taking the module (funcgrad's or SciPy's); each field of the result compared
CASES = [
    ("describe", lambda m: m.describe(A, ddof=0, bias=False)),
    ("iqr", lambda m: m.iqr(A, axis=0, rng=(10, 80), scale="normal", keepdims=True)),
    ("iqr_nearest", lambda m: m.iqr(A, interpolation="nearest")),
    ("iqr_midpoint", lambda m: m.iqr(A, axis=1, interpolation="midpoint")),
    ("iqr_empty", lambda m: m.iqr(np.zeros((0, 3)), axis=0, keepdims=True)),
    ("median_abs_deviation", lambda m: m.median_abs_deviation(A, axis=1, scale="normal")),
    ("median_abs_deviation_mean", lambda m: m.median_abs_deviation(A, center=np.mean,
                                                                    axis=None)),
    ("tmean", lambda m: m.tmean(A, (0.0, 1.5), (False, True), axis=0, keepdims=True)),
    ("tvar", lambda m: m.tvar(A, (None, 1.0), axis=1)),
    ("tstd", lambda m: m.tstd(A, (-0.5, None), axis=None, ddof=0)),
    ("tsem", lambda m: m.tsem(A, (-1.0, 2.0))),
    ("tmin", lambda m: m.tmin(A, 0.3, inclusive=False)),
    ("tmax", lambda m: m.tmax(A, 1.0, axis=1, keepdims=True)),
    ("trim_mean", lambda m: m.trim_mean(A, 0.2, axis=1)),
    ("scoreatpercentile", lambda m: m.scoreatpercentile(A, [0, 35, 100], axis=0)),
    ("scoreatpercentile_lower", lambda m: m.scoreatpercentile(A, 35, (0.0, 2.0), "lower")),
    ("scoreatpercentile_higher", lambda m: m.scoreatpercentile(A, 35, interpolation_method=
                                                                "higher")),
    ("percentileofscore", lambda m: m.percentileofscore(TIES[:, 0], [-1.0, 0.0, 0.5, 9.0])),
    ("percentileofscore_weak", lambda m: m.percentileofscore(TIES[:, 1], 1.0, kind="weak")),
    ("pmean", lambda m: m.pmean(P, -1.5, axis=1, weights=P[:, ::-1], keepdims=True)),
    ("pmean_0", lambda m: m.pmean(P, 0)),
    ("gstd", lambda m: m.gstd(P, axis=None)),
    ("zmap", lambda m: m.zmap(A[:3], A, ddof=1)),
    ("gzscore", lambda m: m.gzscore(P, axis=1)),
    ("sigmaclip", lambda m: m.sigmaclip(np.append(A.ravel(), 9.0), 2.0, 2.5)[1:]),
    ("ttest_1samp", lambda m: m.ttest_1samp(A, 0.1, alternative="less")),
    ("ttest_1samp_axis", lambda m: m.ttest_1samp(A, 0.1, axis=1, keepdims=True)),
    ("ttest_ind", lambda m: m.ttest_ind(A, B)),
    ("ttest_ind_welch", lambda m: m.ttest_ind(A, B, equal_var=False, alternative="greater")),
    ("ttest_ind_none", lambda m: m.ttest_ind(A, B, axis=None, equal_var=False)),
    ("ttest_rel", lambda m: m.ttest_rel(A, C, alternative="greater")),
    ("ttest_ind_one", lambda m: m.ttest_ind(A[:1], B)),  # (a sample of one: no variance)
    ("ttest_rel_nan", lambda m: m.ttest_rel(HOLED, C, axis=1)),  # (NaN df where a NaN is)
    ("ttest_1samp_omit", lambda m: m.ttest_1samp(HOLED, 0.2, nan_policy="omit")),
    ("ttest_ind_omit", lambda m: m.ttest_ind(HOLED, B, nan_policy="omit", equal_var=False)),
    ("ttest_rel_omit", lambda m: m.ttest_rel(HOLED, C, nan_policy="omit", axis=None)),
    ("tvar_nan", lambda m: m.tvar(HOLED, (-1.0, 1.0))),
    ("trim_mean_nan", lambda m: m.trim_mean(HOLED, 0.2)),
    ("skewtest_small", lambda m: m.skewtest(B[:7])),  # (NaN: not valid below 8 values)
    ("ttest_ind_constant", lambda m: m.ttest_ind(np.ones(5), np.full(4, 2.0), equal_var=False,
                                                 alternative="less")),  # (t = -inf, df = 1)
    ("ttest_ind_from_stats", lambda m: m.ttest_ind_from_stats(1.0, 2.0, 10, 1.5, 1.0, 7,
                                                              equal_var=False)),
    ("chisquare", lambda m: m.chisquare(F_OBS, F_EXP, ddof=1)),
    ("chisquare_uniform", lambda m: m.chisquare(F_OBS, axis=None)),
    ("power_divergence", lambda m: m.power_divergence(F_OBS, F_EXP, lambda_="log-likelihood")),
    ("power_divergence_cr", lambda m: m.power_divergence(F_OBS, lambda_="cressie-read",
                                                         axis=1, keepdims=True)),
    ("power_divergence_neyman", lambda m: m.power_divergence(F_OBS, F_EXP, lambda_=-2)),
    ("f_oneway", lambda m: m.f_oneway(A, B, C)),
    ("f_oneway_welch", lambda m: m.f_oneway(A, B, C, equal_var=False)),
    ("jarque_bera", lambda m: m.jarque_bera(B, axis=0)),
    ("skewtest", lambda m: m.skewtest(B, alternative="less")),
    ("kurtosistest", lambda m: m.kurtosistest(B, axis=None)),
    ("normaltest", lambda m: m.normaltest(B, keepdims=True)),
    ("pointbiserialr", lambda m: m.pointbiserialr(A[:, 0] > 0.4, C[:, 0])),
    ("linregress", lambda m: m.linregress(X1, Y1, "less")),
    ("linregress_axis", lambda m: m.linregress(A, C, axis=1)),
    ("theilslopes", lambda m: m.theilslopes(Y1, np.round(X1), 0.9)),
    ("theilslopes_joint", lambda m: m.theilslopes(Y1, method="joint")),
    ("siegelslopes", lambda m: m.siegelslopes(Y1, X1)),
    ("siegelslopes_separate", lambda m: m.siegelslopes(Y1, method="separate")),
    ("kendalltau_exact", lambda m: m.kendalltau(X1, Y1, alternative="greater")),
    ("kendalltau_ties", lambda m: m.kendalltau(TIES[:, 0], np.round(C[:, 0]), variant="c")),
    ("kendalltau_axis", lambda m: m.kendalltau(A, C, axis=0)),
    ("kendalltau_large", lambda m: m.kendalltau(np.round(LONG * 3.0), np.round(LONG ** 2))),
    ("mannwhitneyu_exact", lambda m: m.mannwhitneyu(A[:6], B, alternative="less")),
    ("mannwhitneyu_asymptotic", lambda m: m.mannwhitneyu(TIES, np.round(B))),
    ("wilcoxon_exact", lambda m: m.wilcoxon(A, C, alternative="greater")),
    ("wilcoxon_zsplit", lambda m: m.wilcoxon(np.round(np.append(X1, Y1) * 2.0),
                                             zero_method="zsplit", method="asymptotic",
                                             correction=True)),
    ("ks_1samp_greater", lambda m: m.ks_1samp(A, m.norm.cdf, alternative="greater")),
    ("ks_1samp_asymp", lambda m: m.ks_1samp(A, m.norm.cdf, (0.3, 1.5), method="asymp",
                                            axis=1, keepdims=True)),
    ("kstest_approx", lambda m: m.kstest(P[:, 0], "gamma", (2.0,), method="approx")),
    ("kstest_less", lambda m: m.kstest(A, "logistic", alternative="less", axis=None)),
]


def _fields(result):
    """A result's values by name: a named tuple's fields and SciPy's extra attributes."""
    if not hasattr(result, "_fields"):
        if hasattr(result, "statistic"):  # (SignificanceResult)
            return {"statistic": result.statistic, "pvalue": result.pvalue}
        return dict(enumerate(result)) if isinstance(result, tuple) else {"": result}
    fields = dict(zip(result._fields, result))
    for extra in ("df", "intercept_stderr", "zstatistic", "statistic_location",
                  "statistic_sign"):
        if hasattr(result, extra):
            fields[extra] = getattr(result, extra)
    if hasattr(result, "confidence_interval"):
        for level in (0.95, 0.6):
            low, high = result.confidence_interval(level)
            fields[f"ci{level}"] = (low, high)
    return fields


@pytest.mark.parametrize("name,call", CASES, ids=[c[0] for c in CASES])
def test_results_are_scipys(name, call):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (SciPy's warnings of small or constant samples)
        got, want = _fields(call(fst)), _fields(call(scipy_stats))
    assert got.keys() == want.keys()
    for key in want:
        if key == "minmax":
            for g, w in zip(got[key], want[key]):
                np.testing.assert_allclose(g, w, rtol=1e-12, err_msg=f"{name}.{key}")
            continue
        g, w = np.asarray(got[key], float), np.asarray(want[key], float)
        assert g.shape == w.shape, (name, key, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-15, err_msg=f"{name}.{key}")


def test_every_alternative_of_the_t_tests_is_scipys():
    for alternative in ALTS:
        for name, call in [("1samp", lambda m: m.ttest_1samp(A, -0.2, alternative=alternative)),
                           ("ind", lambda m: m.ttest_ind(A, B, alternative=alternative)),
                           ("rel", lambda m: m.ttest_rel(A, C, alternative=alternative))]:
            got, want = call(fst), call(scipy_stats)
            np.testing.assert_allclose(got.pvalue, want.pvalue, rtol=1e-12)
            np.testing.assert_allclose(got.confidence_interval(), want.confidence_interval(),
                                       rtol=1e-12)


def test_trimmed_arrays_hold_scipys_values():
    # (SciPy leaves their order unspecified; funcgrad's come sorted)
    for got, want, axis in [
            (fst.trimboth(A, 0.2), scipy_stats.trimboth(A, 0.2), 0),
            (fst.trim1(A, 0.4, "left", axis=1), scipy_stats.trim1(A, 0.4, "left", 1), 1),
            (fst.trim1(A, 0.25, axis=None), scipy_stats.trim1(A, 0.25, axis=None), 0)]:
        np.testing.assert_array_equal(got, np.sort(want, axis=axis))
    clipped = fst.sigmaclip(np.append(A.ravel(), 9.0), 2.0, 2.5).clipped
    np.testing.assert_array_equal(np.sort(clipped), np.sort(
        scipy_stats.sigmaclip(np.append(A.ravel(), 9.0), 2.0, 2.5).clipped))


def _central(f, x, h=1e-6):
    out = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e.flat[i] = h
        out.flat[i] = (f(x + e) - f(x - e)) / (2 * h)
    return out


x0, b0, c0 = A[:, 0], B[:, 1], C[:, 0]
# name, the differentiated argument, a scalar of the module and that argument
GRADIENTS = [
    ("iqr", x0, lambda m, v: m.iqr(v, rng=(20, 70))),
    ("median_abs_deviation", x0, lambda m, v: m.median_abs_deviation(v)),
    ("tvar", x0, lambda m, v: m.tvar(v, (-0.5, 1.5))),
    ("trim_mean", x0, lambda m, v: m.trim_mean(v, 0.2)),
    ("pmean", np.abs(x0) + 0.2, lambda m, v: m.pmean(v, 2.5)),
    ("gstd", np.abs(x0) + 0.2, lambda m, v: m.gstd(v)),
    ("describe.kurtosis", x0, lambda m, v: m.describe(v, bias=False).kurtosis),
    ("sigmaclip.upper", np.append(x0, 5.0), lambda m, v: m.sigmaclip(v, 2.0, 2.0).upper),
    ("scoreatpercentile", x0, lambda m, v: m.scoreatpercentile(v, 35)),
    ("ttest_1samp.pvalue", x0, lambda m, v: m.ttest_1samp(v, 0.3).pvalue),
    ("ttest_ind.statistic", x0, lambda m, v: m.ttest_ind(v, b0).statistic),
    ("ttest_ind_welch.pvalue", x0, lambda m, v: m.ttest_ind(v, b0, equal_var=False).pvalue),
    ("ttest_ind_welch.ci", b0, lambda m, v: m.ttest_ind(x0, v, equal_var=False)
     .confidence_interval().high),
    ("ttest_rel.pvalue", c0, lambda m, v: m.ttest_rel(x0, v, alternative="less").pvalue),
    ("ttest_1samp_omit.pvalue", HOLED[:, 1], lambda m, v: m.ttest_1samp(
        v, 0.1, nan_policy="omit").pvalue),
    ("chisquare.pvalue", F_OBS[:, 0], lambda m, v: m.chisquare(v).pvalue),
    ("power_divergence.pvalue", F_EXP[:, 0], lambda m, v: m.power_divergence(
        F_OBS[:, 0], v * (F_OBS[:, 0].sum() / v.sum()), lambda_=0.4).pvalue),
    ("f_oneway_welch.pvalue", x0, lambda m, v: m.f_oneway(v, b0, c0, equal_var=False).pvalue),
    ("jarque_bera.pvalue", b0, lambda m, v: m.jarque_bera(v).pvalue),
    ("normaltest.pvalue", b0, lambda m, v: m.normaltest(v).pvalue),
    ("pointbiserialr.pvalue", c0, lambda m, v: m.pointbiserialr(x0 > 0.4, v).pvalue),
    ("linregress.intercept_stderr", X1, lambda m, v: m.linregress(v, Y1).intercept_stderr),
    ("linregress.pvalue", Y1, lambda m, v: m.linregress(X1, v).pvalue),
    ("ttest_ind_one.statistic", x0[:1], lambda m, v: m.ttest_ind(v, b0).statistic),
    ("theilslopes.low_slope", Y1, lambda m, v: m.theilslopes(v, X1).low_slope),
    ("siegelslopes.intercept", X1, lambda m, v: m.siegelslopes(Y1, v, "separate").intercept),
    ("ks_1samp.pvalue", x0, lambda m, v: m.ks_1samp(v, m.norm.cdf, method="asymp").pvalue),
    ("kstest.pvalue", np.array([0.2, 1.3]), lambda m, v: m.kstest(
        x0, "norm", tuple(v), alternative="greater").pvalue),
]


@pytest.mark.parametrize("name,x,f", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_derivatives_are_central_differences_of_scipys_values(name, x, f):
    got = fg.grad(lambda v: f(fst, v))(x)
    want = _central(lambda v: float(f(scipy_stats, v)), x)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-8, err_msg=name)


def test_rank_statistics_have_zero_derivative():
    def ranked(v):
        return (fst.kendalltau(v, Y1).statistic + fst.mannwhitneyu(v, Y1).pvalue
                + fst.wilcoxon(v, Y1).statistic + fst.percentileofscore(v, 0.3))
    np.testing.assert_array_equal(fg.grad(ranked)(X1), np.zeros_like(X1))


FLOAT32 = [
    lambda m, v: m.ttest_1samp(v, 0.1), lambda m, v: m.ttest_ind(v, v[::-1] + 0.5),
    lambda m, v: m.ttest_ind(v, v * 2.0, equal_var=False), lambda m, v: m.f_oneway(v, v * 3),
    lambda m, v: m.chisquare(v + 2.0), lambda m, v: m.normaltest(v),
    lambda m, v: m.jarque_bera(v), lambda m, v: m.pointbiserialr(v > 0, v * v),
    lambda m, v: (m.iqr(v, scale="normal"),), lambda m, v: (m.tsem(v, (-1.0, 1.0)),),
    lambda m, v: (m.median_abs_deviation(v),), lambda m, v: (m.gstd(v + 3.0),),
    lambda m, v: m.mannwhitneyu(v, v[:5] + 1), lambda m, v: m.wilcoxon(v),
    lambda m, v: m.ks_1samp(v, m.norm.cdf, alternative="less"),
]


@pytest.mark.parametrize("i", range(len(FLOAT32)))
def test_float32_stays_float32(i):
    v = B[:, 2].astype(np.float32)
    got, want = FLOAT32[i](fst, v), FLOAT32[i](scipy_stats, v)
    for g, w in zip(got, want, strict=True):
        assert np.asarray(g).dtype == np.float32
        np.testing.assert_allclose(g, w, rtol=2e-5)
    if hasattr(got, "confidence_interval"):
        assert np.asarray(got.confidence_interval().low).dtype == np.float32


def test_jit_and_vmap_one_per_family():
    rows = RNG.normal(size=(4, 10))
    np.testing.assert_allclose(fg.jit(lambda v: fst.ttest_ind(v, b0, equal_var=False).pvalue)(
        x0), scipy_stats.ttest_ind(x0, b0, equal_var=False).pvalue, rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(lambda v: fst.normaltest(v).pvalue)(rows),
                               scipy_stats.normaltest(rows, axis=1).pvalue, rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(lambda v: fst.iqr(v) + fst.tvar(v, (-1.0, 1.0)))(rows),
                               scipy_stats.iqr(rows, axis=1)
                               + scipy_stats.tvar(rows, (-1.0, 1.0), axis=1), rtol=1e-12)
    np.testing.assert_allclose(fg.jit(lambda v: fst.linregress(X1, v).stderr)(Y1),
                               scipy_stats.linregress(X1, Y1).stderr, rtol=1e-12)
    with pytest.raises(fg.ConcretizationError, match="kendalltau counts orderings"):
        fg.vmap(lambda v: fst.kendalltau(v, X1[:10]).statistic)(rows)


def test_results_unpack_like_scipys():
    statistic, pvalue = fst.ttest_ind(x0, b0)
    res = fst.ttest_ind(x0, b0)
    assert (statistic, pvalue) == (res.statistic, res.pvalue) and res.df == 21
    slope, intercept, r, p, stderr = fst.linregress(X1, Y1)
    assert fst.linregress(X1, Y1).intercept_stderr > 0
    nobs, (low, high), mean, variance, skewness, kurtosis = fst.describe(x0)
    assert nobs == 10 and low < mean < high
    clipped, lower, upper = fst.sigmaclip(x0)
    assert len(fst.theilslopes(Y1)) == 4 and len(fst.f_oneway(x0, b0)) == 2


def test_bad_input_names_the_fix():
    with pytest.raises(NotImplementedError, match="permutation test"):
        fst.wilcoxon(np.array([1.0, 2.0, 2.0, 3.0, -1.0]))
    with pytest.raises(NotImplementedError, match="trim"):
        fst.ttest_ind(x0, b0, trim=0.2)
    with pytest.raises(NotImplementedError, match="nan_policy='omit'"):
        fst.skewtest(B, nan_policy="omit")
    with pytest.raises(ValueError, match="relative tolerance"):
        fst.chisquare(F_OBS, F_EXP * 1.1)
    with pytest.raises(ValueError, match="ties found"):
        fst.kendalltau(TIES[:, 0], C[:, 0], method="exact")
    with pytest.raises(ValueError, match="no value of the array lies within"):
        fst.tmin(x0, 100.0)  # (SciPy's error; a slice without values is NaN)
    with pytest.raises(ValueError, match="all x values are identical"):
        fst.linregress(np.ones(4), x0[:4])
    with pytest.raises(ValueError, match="lambda_"):
        fst.power_divergence(F_OBS, lambda_="pearsons")
    with pytest.raises(ValueError, match="leaves no values"):
        fst.trim_mean(x0, 0.5)
    with pytest.raises(ValueError, match="alternative"):
        fst.ttest_rel(x0, c0, alternative="both")
    with pytest.raises(NotImplementedError, match="only 1-d samples"):
        fst.kstest(x0[:, None], b0)
    with pytest.raises(ValueError, match="names no distribution"):
        fst.kstest(x0, "normal")
