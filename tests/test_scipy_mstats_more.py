"""The rest of funcgrad.scipy.stats.mstats against SciPy's scipy.stats.mstats: masked and
plain arrays give SciPy's own results; traced data give the differentiable twins' values
(SciPy's on the same values) and derivatives that match central differences of SciPy's;
the helpers without a twin refuse traced data by name; funcgrad masked arrays keep their
mask."""
import numpy as np
import pytest
import scipy.stats as ss
import scipy.stats.mstats as sm

import funcgrad as fg
from funcgrad.numpy import ma
from funcgrad.scipy.stats import mstats as fm

RNG = np.random.default_rng(7)
X = RNG.normal(size=9)
Y = RNG.normal(size=7) + 0.4
Z = RNG.normal(size=9)
B = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1], float)
MX = np.ma.masked_array(X, mask=[0, 0, 1, 0, 0, 0, 1, 0, 0])
MY = np.ma.masked_array(Y, mask=[1, 0, 0, 0, 0, 0, 0])
FREQ = np.array([16.0, 18.0, 16.0, 14.0, 12.0, 12.0])


def _equal(ours, theirs):
    """The same result: type (namedtuple fields and all), values, masks."""
    if isinstance(theirs, tuple):
        assert type(ours) is type(theirs) and len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            _equal(o, t)
        return
    if isinstance(theirs, dict):
        assert ours.keys() == theirs.keys()
        for k in theirs:
            _equal(ours[k], theirs[k])
        return
    assert type(ours) is type(theirs), (type(ours), type(theirs))
    mask = np.ma.getmaskarray(theirs)
    np.testing.assert_array_equal(np.ma.getmaskarray(ours), mask)
    # (data under the mask: some of SciPy's results leave it uninitialised)
    np.testing.assert_array_equal(np.where(mask, 0, np.ma.getdata(ours)),
                                  np.where(mask, 0, np.ma.getdata(theirs)))


CASES = [
    ("mode", lambda m: m.mode(np.round(MX))),
    ("mode2", lambda m: m.mode(np.round(X).reshape(3, 3), axis=1)),
    ("chisquare", lambda m: m.chisquare(FREQ, ddof=1)),
    ("ks_1samp", lambda m: m.ks_1samp(MX, ss.norm.cdf)),
    ("ks_2samp", lambda m: m.ks_2samp(MX, MY, alternative="less")),
    ("ks_twosamp", lambda m: m.ks_twosamp(MX, MY)),
    ("kstest", lambda m: m.kstest(MX, "norm")),
    ("kstest2", lambda m: m.kstest(MX, MY)),
    ("pointbiserialr", lambda m: m.pointbiserialr(B, MX)),
    ("brunnermunzel", lambda m: m.brunnermunzel(MX, MY)),
    ("friedmanchisquare", lambda m: m.friedmanchisquare(MX, Z, X + Z)),
    ("kruskalwallis", lambda m: m.kruskalwallis(MX, MY)),
    ("ttest_onesamp", lambda m: m.ttest_onesamp(MX, 0.5)),
    ("meppf", lambda m: m.meppf(MX)),
    ("trimmed_stde", lambda m: m.trimmed_stde(MX)),
    ("trimmed_mean_ci", lambda m: m.trimmed_mean_ci(MX)),
    ("median_cihs", lambda m: m.median_cihs(MX)),
    ("mjci", lambda m: m.mjci(MX)),
    ("mquantiles_cimj", lambda m: m.mquantiles_cimj(MX)),
    ("hdquantiles_sd", lambda m: m.hdquantiles_sd(MX)),
    ("compare_medians_ms", lambda m: m.compare_medians_ms(MX, Z)),
    ("rsh", lambda m: m.rsh(MX, points=[0.0, 0.5])),
    ("kendalltau_seasonal", lambda m: m.kendalltau_seasonal(np.abs(X).reshape(3, 3))),
    ("find_repeats", lambda m: m.find_repeats(np.round(MX))),
    ("count_tied_groups", lambda m: m.count_tied_groups(np.round(MX))),
    ("argstoarray", lambda m: m.argstoarray(X, Y)),
    ("msign", lambda m: m.msign(MX)),
    ("obrientransform", lambda m: m.obrientransform(X, Y)),
    ("trim", lambda m: m.trim(MX, (0.2, 0.1), relative=True)),
]


@pytest.mark.parametrize("name,f", CASES, ids=[c[0] for c in CASES])
def test_masked_and_plain_arrays_give_scipys_results(name, f):
    _equal(f(fm), f(sm))


def test_funcgrad_masked_arrays_keep_their_mask():
    # (before: SciPy read a funcgrad masked array through np.asarray -- the data alone,
    # every value counted -- silently)
    x = ma.masked_array([1.0, 4.0, 7.0], mask=[0, 0, 1])
    assert float(fm.gmean(x)) == pytest.approx(2.0, rel=1e-15)
    _equal(fm.mode(ma.masked_array(np.round(X), mask=MX.mask)), sm.mode(np.round(MX)))
    with pytest.raises(TypeError, match="compressed"):
        fg.grad(lambda d: fm.gmean(ma.masked_array(d, mask=[0, 0, 1])))(np.ones(3) * 2.0)


def _central(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


@pytest.mark.parametrize("ours,theirs,x", [
    (lambda x: fm.chisquare(x).statistic, lambda x: sm.chisquare(x).statistic, FREQ),
    (lambda x: fm.chisquare(x, ddof=1).pvalue, lambda x: sm.chisquare(x, ddof=1).pvalue,
     FREQ + np.arange(6.0)),
    (lambda x: fm.pointbiserialr(B, x).correlation,
     lambda x: sm.pointbiserialr(B, x).correlation, X),
    (lambda x: fm.pointbiserialr(B, x).pvalue, lambda x: sm.pointbiserialr(B, x).pvalue, X),
    (lambda x: fm.ks_1samp(x, fm_norm_cdf).statistic,
     lambda x: sm.ks_1samp(x, ss.norm.cdf).statistic, X),
    (lambda x: fm.kstest(x, "norm").pvalue, lambda x: sm.kstest(x, "norm").pvalue, X),
])
def test_twin_values_and_derivatives_match_scipy(ours, theirs, x):
    value, g = fg.value_and_grad(ours)(x)
    assert float(value) == pytest.approx(float(theirs(x)), rel=1e-10)
    expected = _central(lambda v: float(theirs(v)), x)
    np.testing.assert_allclose(g, expected, rtol=1e-5, atol=1e-8)
    assert np.any(g != 0.0)


def fm_norm_cdf(v):
    from funcgrad.scipy.stats import norm
    return norm.cdf(v)


def test_rank_twins_give_scipys_values_and_zero_slope():
    value, g = fg.value_and_grad(lambda x: fm.brunnermunzel(x, Y).statistic)(X)
    assert float(value) == pytest.approx(sm.brunnermunzel(X, Y).statistic, rel=1e-12)
    assert np.all(g == 0.0)
    value, g = fg.value_and_grad(lambda x: fm.ks_2samp(x, Y).statistic)(X)
    assert float(value) == sm.ks_2samp(X, Y).statistic and np.all(g == 0.0)
    with pytest.raises(NotImplementedError, match="mode: the most common value jumps"):
        fg.grad(lambda x: fm.mode(x).mode.sum())(np.round(X))
    res = fg.vjp(lambda x: fm.pointbiserialr(B, x), X)[0]
    assert type(res).__name__ == "PointbiserialrResult"


@pytest.mark.parametrize("name", ["trimmed_stde", "trimmed_mean_ci", "median_cihs", "mjci",
                                  "mquantiles_cimj", "hdquantiles_sd", "rsh", "msign",
                                  "find_repeats", "obrientransform", "trim"])
def test_helpers_without_a_twin_refuse_traced_data(name):
    with pytest.raises(TypeError, match=f"mstats.{name} has no differentiable version"):
        fg.grad(lambda x: getattr(fm, name)(x).sum())(X)
