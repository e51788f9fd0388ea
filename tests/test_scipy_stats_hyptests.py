"""funcgrad.scipy.stats' hypothesis tests of equal spread, of ranks and counts, and the
functions of p-values, against SciPy's: every field of every result, with axis=/keepdims=
and the methods' options; derivatives in the data against central differences of SciPy's
own values where the statistic is smooth; the rank tests' zero derivative; float32 kept;
one jit/vmap check per family; errors that name the fix."""
import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")
# (SciPy's own notices, on its interpolated table and on anderson without a method: the
# same in both calls compared)
pytestmark = [pytest.mark.filterwarnings("ignore:p-value capped:UserWarning"),
              pytest.mark.filterwarnings("ignore:As of SciPy 1.17:FutureWarning")]

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402

RNG = np.random.default_rng(23)
A = RNG.normal(size=(9, 3)) + 0.4            # samples along axis 0
B = RNG.normal(size=(12, 3)) * 2.0
C = RNG.normal(size=(7, 1)) - 0.3            # broadcasts against A and B off the axis
X, Y, Z = A[:, 0], B[:, 1], C[:, 0]
TIES = np.round(A * 2.0)
PS = RNG.uniform(0.001, 0.9, size=(6, 2))


def _fields(res):
    """The numbers a result holds, by field name (named tuples, dataclasses, bunches)."""
    names = [n for n in ("statistic", "pvalue", "median", "table", "critical_values")
             if hasattr(res, n)]
    return {n: np.asarray(getattr(res, n), dtype=np.float64) for n in names} if names else {
        "value": np.asarray(res, dtype=np.float64)}


# name, a call taking the module (funcgrad's or SciPy's); each field compared to 1e-12
CASES = [
    ("bartlett", lambda m: m.bartlett(X, Y, Z)),
    ("bartlett_axis", lambda m: m.bartlett(A, B, C, axis=0, keepdims=True)),
    ("bartlett_none", lambda m: m.bartlett(A, B, axis=None)),
    ("levene", lambda m: m.levene(X, Y, Z)),
    ("levene_mean", lambda m: m.levene(A.T, B.T, axis=1, center="mean")),
    ("levene_trimmed", lambda m: m.levene(A, B, C, center="trimmed", proportiontocut=0.2)),
    ("alexandergovern", lambda m: m.alexandergovern(X, Y, Z)),
    ("alexandergovern_axis", lambda m: m.alexandergovern(A, B, keepdims=True)),
    ("combine_fisher", lambda m: m.combine_pvalues(PS)),
    ("combine_pearson", lambda m: m.combine_pvalues(PS, method="pearson", axis=None)),
    ("combine_mg", lambda m: m.combine_pvalues(PS.T, method="mudholkar_george", axis=1)),
    ("combine_tippett", lambda m: m.combine_pvalues(PS, method="tippett", keepdims=True)),
    ("combine_stouffer", lambda m: m.combine_pvalues(PS, method="stouffer",
                                                     weights=PS[::-1] + 0.5)),
    ("fdr_bh", lambda m: m.false_discovery_control(PS[:, 0])),
    ("fdr_by", lambda m: m.false_discovery_control(PS, axis=0, method="by")),
    ("fdr_none", lambda m: m.false_discovery_control(PS, axis=None)),
    ("fligner", lambda m: m.fligner(A, B, C, keepdims=True)),
    ("kruskal", lambda m: m.kruskal(TIES[:, 0], TIES[:, 1], TIES[:, 2])),
    ("friedmanchisquare", lambda m: m.friedmanchisquare(A[:, 0], A[:, 1], A[:, 2])),
    ("brunnermunzel", lambda m: m.brunnermunzel(X, Y, alternative="less")),
    ("ansari", lambda m: m.ansari(X, Y)),
    ("mood", lambda m: m.mood(TIES[:, 0], Y, alternative="greater")),
    ("median_test", lambda m: m.median_test(X, Y, Z, ties="above")),
    ("cramervonmises_2samp", lambda m: m.cramervonmises_2samp(X, Z)),
    ("page_trend_test", lambda m: m.page_trend_test(A)),
    ("bws_test", lambda m: m.bws_test(X[:5], Z[:5])),
    ("chatterjeexi", lambda m: m.chatterjeexi(X, A[:, 1], y_continuous=True)),
    ("binomtest", lambda m: m.binomtest(7, 20, 0.2, alternative="greater")),
    ("fisher_exact", lambda m: m.fisher_exact([[6, 2], [1, 4]], alternative="less")),
    ("barnard_exact", lambda m: m.barnard_exact([[7, 12], [8, 3]], pooled=False, n=8)),
    ("boschloo_exact", lambda m: m.boschloo_exact([[7, 12], [8, 3]], n=8)),
    ("poisson_means_test", lambda m: m.poisson_means_test(2, 50.0, 9, 60.0, diff=0.01)),
    ("quantile_test", lambda m: m.quantile_test(X, q=0.3, p=0.4)),
    ("anderson_ksamp", lambda m: m.anderson_ksamp([X, Y, TIES[:, 0]], variant="right")),
    ("logrank", lambda m: m.logrank(np.abs(X), np.abs(Y), alternative="less")),
    ("dunnett", lambda m: m.dunnett(X, Z, control=Y, rng=5)),
    ("cramervonmises", lambda m: m.cramervonmises(X, m.norm.cdf, (0.3, 1.2))),
    ("cramervonmises_axis", lambda m: m.cramervonmises(A.T * 3, m.norm.cdf, axis=1)),
    ("cramervonmises_name", lambda m: m.cramervonmises(Y, "laplace", keepdims=True)),
    ("anderson", lambda m: m.anderson(Y)),
    ("anderson_norm", lambda m: m.anderson(np.append(X, 3.5), method="interpolate")),
    ("anderson_expon", lambda m: m.anderson(np.abs(Y), "expon", method="interpolate")),
    ("anderson_logistic", lambda m: m.anderson(Y, "logistic", method="interpolate")),
    ("epps_singleton_2samp", lambda m: m.epps_singleton_2samp(X, Y, t=(0.5, 1.0, 1.5))),
    ("epps_singleton_2samp_axis", lambda m: m.epps_singleton_2samp(A, B, keepdims=True)),
]


@pytest.mark.parametrize("name, call", CASES, ids=[c[0] for c in CASES])
def test_values_match_scipy(name, call):
    ours, theirs = _fields(call(fst)), _fields(call(scipy_stats))
    assert ours.keys() == theirs.keys()
    for field in theirs:
        assert ours[field].shape == theirs[field].shape, field
        np.testing.assert_allclose(ours[field], theirs[field], rtol=1e-12, atol=1e-15,
                                   err_msg=field)


def _central(f, x, h=1e-6):
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(x.size)])


# name, a function of the first sample returning a number, in the module m
SMOOTH = [
    ("bartlett", lambda m, v: m.bartlett(v, Y, Z).pvalue),
    ("levene_median", lambda m, v: m.levene(v, Y, Z).pvalue),
    ("levene_trimmed", lambda m, v: m.levene(v, Y, center="trimmed",
                                             proportiontocut=0.2).statistic),
    ("alexandergovern", lambda m, v: m.alexandergovern(v, Y, Z).pvalue),
    ("combine_fisher", lambda m, v: m.combine_pvalues(np.abs(v) / 4).pvalue),
    ("combine_pearson", lambda m, v: m.combine_pvalues(np.abs(v) / 4, "pearson").pvalue),
    ("combine_mg", lambda m, v: m.combine_pvalues(np.abs(v) / 4, "mudholkar_george").pvalue),
    ("combine_tippett", lambda m, v: m.combine_pvalues(np.abs(v) / 4, "tippett").pvalue),
    ("combine_stouffer", lambda m, v: m.combine_pvalues(
        np.abs(v) / 4, "stouffer", weights=np.abs(v) + 1.0).pvalue),
    ("fdr", lambda m, v: m.false_discovery_control(np.abs(v) / 4) @ np.arange(1.0, 10.0)),
    ("cramervonmises", lambda m, v: m.cramervonmises(v, m.norm.cdf, (0.3, 1.2)).pvalue),
    ("anderson_norm", lambda m, v: m.anderson(np.append(v, 4.7), method="interpolate").pvalue),
    ("anderson_expon", lambda m, v: m.anderson(np.abs(v), "expon").statistic),
    ("epps_singleton_2samp", lambda m, v: m.epps_singleton_2samp(v, Y).pvalue),
]


@pytest.mark.parametrize("name, f", SMOOTH, ids=[c[0] for c in SMOOTH])
def test_derivatives_match_central_differences_of_scipy(name, f):
    g = fg.grad(lambda v: f(fst, v))(X)
    np.testing.assert_allclose(g, _central(lambda v: float(f(scipy_stats, v)), X),
                               rtol=1e-5, atol=1e-8)
    assert np.any(g != 0)


def test_alexandergovern_derivative_where_a_sample_sits_on_the_common_mean():
    """A t statistic of 0 (its sample's mean on the weighted mean): the normalizing
    transformation's square root of 0 would give NaN; the slope there is finite."""
    x, y = np.array([1.0, 2.0, 4.0, 7.0]), np.array([2.0, 3.0, 3.5, 4.0, 5.0])
    g = fg.grad(lambda v: fst.alexandergovern(v, y).statistic)(x)
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, _central(
        lambda v: scipy_stats.alexandergovern(v, y).statistic, x), atol=1e-7)


def test_float32_stays_float32():
    a, b = A.astype(np.float32), B.astype(np.float32)
    for res in (fst.bartlett(a, b), fst.levene(a, b), fst.alexandergovern(a, b),
                fst.combine_pvalues(PS.astype(np.float32), method="stouffer")):
        assert res.statistic.dtype == res.pvalue.dtype == np.float32
    assert fst.false_discovery_control(PS.astype(np.float32)).dtype == np.float32
    for res in (fst.cramervonmises(X.astype(np.float32), fst.norm.cdf),
                fst.epps_singleton_2samp(a, b),
                fst.anderson(X.astype(np.float32), method="interpolate")):
        assert res.statistic.dtype == res.pvalue.dtype == np.float32
    np.testing.assert_allclose(fst.bartlett(a, b).pvalue, scipy_stats.bartlett(A, B).pvalue,
                               rtol=1e-4)


def test_spread_tests_under_vmap_and_jit():
    batch = np.stack([A, A[::-1] * 1.5, A + 2.0])
    p = fg.vmap(lambda a: fst.levene(a, B, center="mean").pvalue)(batch)
    np.testing.assert_allclose(p, [scipy_stats.levene(a, B, center="mean").pvalue
                                   for a in batch], rtol=1e-12)
    s = fg.jit(lambda a: fst.bartlett(a, B).statistic)(A)
    np.testing.assert_allclose(s, scipy_stats.bartlett(A, B).statistic, rtol=1e-12)


def test_rank_tests_have_zero_derivative():
    for f in (lambda v: fst.kruskal(v, Y).statistic, lambda v: fst.fligner(v, Y).pvalue,
              lambda v: fst.mood(v, Y).statistic, lambda v: fst.ansari(v, Y).pvalue,
              lambda v: fst.brunnermunzel(v, Y).statistic,
              lambda v: fst.anderson_ksamp([v, Y], variant="midrank").statistic,
              lambda v: fst.logrank(np.abs(v), np.abs(Y)).statistic,
              lambda v: fst.quantile_test(X, q=v[0]).pvalue):
        np.testing.assert_array_equal(fg.grad(f)(X), np.zeros_like(X))


def test_count_tests_refuse_a_derivative_they_cannot_give():
    for call, arg in ((lambda v: fst.binomtest(3, 10, v).pvalue, "p"),
                      (lambda v: fst.quantile_test(v, q=0.0).pvalue, "x"),
                      (lambda v: fst.dunnett(v, Y, control=Z, rng=1).pvalue[0], "samples"),
                      (lambda v: fst.fisher_exact(v.reshape(2, 2)).pvalue, "table")):
        x = np.array([6.0, 2.0, 1.0, 4.0]) if arg == "table" else (
            0.3 if arg == "p" else X)
        with pytest.raises(TypeError, match=f"no derivative in {arg} .*stop_gradient"):
            fg.grad(call)(x)
    # (the fix the message names: a value without a derivative is accepted)
    assert fg.grad(lambda v: v * fst.binomtest(3, 10, fg.stop_gradient(v)).pvalue)(0.3) > 0


def test_goodness_of_fit_without_a_derivative_raises():
    with pytest.raises(TypeError, match=r"pass funcgrad's \(funcgrad.scipy.stats.norm.cdf"):
        fg.grad(lambda v: fst.cramervonmises(v, "norm").pvalue)(X)
    with pytest.raises(TypeError, match="no derivative in x .*'logistic' is fitted by SciPy"):
        fg.grad(lambda v: fst.anderson(v, "logistic", method="interpolate").statistic)(X)

    def fitted_scale(v):
        return fst.anderson(v).fit_result.params.scale
    with pytest.raises(TypeError, match="fit_result holds SciPy's fitted values"):
        fg.grad(fitted_scale)(X)


def test_rank_tests_need_values_under_jit():
    with pytest.raises(fg.ConcretizationError, match="kruskal .*outside vmap/jit"):
        fg.jit(lambda v: fst.kruskal(v, Y).statistic)(X)


def test_scipy_warning_classes_are_scipys():
    for name in ("ConstantInputWarning", "NearConstantInputWarning", "DegenerateDataWarning",
                 "FitError"):
        assert getattr(fst, name) is getattr(scipy_stats, name)
        assert name in fst.__all__
    with pytest.raises(AttributeError, match="no attribute 'NoSuchWarning'"):
        fst.NoSuchWarning


def test_errors_name_the_problem():
    with pytest.raises(ValueError, match="center must be"):
        fst.levene(X, Y, center="mode")
    with pytest.raises(NotImplementedError, match="drop the NaNs first"):
        fst.bartlett(X, Y, nan_policy="omit")
    with pytest.raises(ValueError, match="at least 2 samples"):
        fst.bartlett(X)
    with pytest.raises(ValueError, match="at least two values"):
        fst.alexandergovern(X, Y[:1])
    with pytest.raises(ValueError, match="contains NaN"):
        fst.levene(np.append(X, np.nan), Y, nan_policy="raise")
    with pytest.raises(ValueError, match="between 0 and 1"):
        fst.false_discovery_control(np.array([0.2, 1.5]))
    with pytest.raises(ValueError, match="method must be one of"):
        fst.combine_pvalues(PS, method="edgington")


# --- contingency tables ----------------------------------------------------------------------

T23 = np.array([[12.0, 7.0, 20.0], [18.0, 21.0, 9.0]])
T22 = np.array([[12.0, 7.5], [18.0, 21.0]])
T222 = np.array([[[5.0, 8.0], [9.0, 3.0]], [[4.0, 6.0], [7.0, 11.0]]])


def _contingency(m):
    return m.contingency if hasattr(m, "contingency") else m


TABLE_CASES = [
    ("expected_freq", lambda m: _contingency(m).expected_freq(T222)),
    ("margins", lambda m: np.concatenate([a.ravel() for a in _contingency(m).margins(T23)])),
    ("chi2_contingency", lambda m: m.chi2_contingency(T23)),
    ("chi2_contingency_yates", lambda m: m.chi2_contingency(T22)),
    ("chi2_contingency_3d", lambda m: _contingency(m).chi2_contingency(T222, False)),
    ("chi2_contingency_lambda", lambda m: m.chi2_contingency(T22, lambda_="log-likelihood")),
    ("chi2_contingency_1d", lambda m: m.chi2_contingency(T23[0])),
    ("crosstab", lambda m: _contingency(m).crosstab(TIES[:, 0], TIES[:, 1]).count),
    ("association", lambda m: _contingency(m).association(T23.astype(int), "tschuprow")),
    ("relative_risk", lambda m: _contingency(m).relative_risk(27, 122, 44, 487)
     .confidence_interval(0.9)),
    ("odds_ratio", lambda m: _contingency(m).odds_ratio(T22.astype(int)[::-1]).statistic),
]


@pytest.mark.parametrize("name, call", TABLE_CASES, ids=[c[0] for c in TABLE_CASES])
def test_contingency_values_match_scipy(name, call):
    ours, theirs = call(fst), call(scipy_stats)
    if hasattr(theirs, "dof"):
        assert ours.dof == theirs.dof
        np.testing.assert_allclose(ours.expected_freq, theirs.expected_freq, rtol=1e-14)
    ours, theirs = _fields(ours), _fields(theirs)
    for field in theirs:
        np.testing.assert_allclose(ours[field], theirs[field], rtol=1e-12, err_msg=field)


@pytest.mark.parametrize("table", [T23, T22], ids=["2x3", "2x2_yates"])
def test_chi2_contingency_derivative_matches_central_differences(table):
    g = fg.grad(lambda t: fst.chi2_contingency(t).pvalue)(table)
    fd = _central(lambda t: scipy_stats.chi2_contingency(t.reshape(table.shape)).pvalue,
                  table.ravel()).reshape(table.shape)
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-9)


def test_contingency_float32_and_module():
    import funcgrad.scipy.stats.contingency as public
    assert public is fst.contingency and "contingency" in fst.__all__
    assert public.chi2_contingency is fst.chi2_contingency
    res = fst.chi2_contingency(T23.astype(np.float32))
    assert res.statistic.dtype == res.expected_freq.dtype == np.float32
    with pytest.raises(ValueError, match=r"zero element at \(0, 1\)"):
        fst.chi2_contingency(np.array([[1.0, 0.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="nonnegative"):
        fst.chi2_contingency(-T22)
    with pytest.raises(TypeError, match="no derivative in table .*stop_gradient"):
        fg.grad(lambda t: public.odds_ratio(t).statistic)(T22)


def test_pvalue_and_table_functions_under_vmap_and_jit():
    tables = np.stack([T23, T23[::-1] * 2.0, T23 + 5.0])
    s = fg.vmap(lambda t: fst.chi2_contingency(t).statistic)(tables)
    np.testing.assert_allclose(s, [scipy_stats.chi2_contingency(t).statistic for t in tables],
                               rtol=1e-12)
    p = fg.jit(lambda q: fst.combine_pvalues(q, method="stouffer").pvalue)(PS)
    np.testing.assert_allclose(p, scipy_stats.combine_pvalues(PS, method="stouffer").pvalue,
                               rtol=1e-12)
