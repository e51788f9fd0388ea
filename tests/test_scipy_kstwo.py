"""kstwo (the two-sided Kolmogorov-Smirnov statistic's distribution), the exact two-sided
p-value of ks_1samp/kstest (SciPy's default) and ks_2samp, against SciPy."""
import numpy as np
import pytest
import scipy.stats as st

import funcgrad as fg
import funcgrad.scipy.stats as fst

RNG = np.random.default_rng(5)
X = RNG.normal(size=30)
Y = RNG.normal(0.3, 1.0, size=25)


def test_kstwo_is_scipys_and_differentiates_once():
    d = np.array([0.023, 0.137, 0.313, 0.571, 0.917])  # (not on the kinks at j / 2n)
    for n in (3, 10, 80):
        for method in ("cdf", "sf", "pdf", "logpdf"):
            np.testing.assert_allclose(getattr(fst.kstwo, method)(d, n),
                                       getattr(st.kstwo, method)(d, n), rtol=1e-13)
        q = np.array([0.05, 0.5, 0.95])
        np.testing.assert_allclose(fst.kstwo.ppf(q, n), st.kstwo.ppf(q, n), rtol=1e-13)
        np.testing.assert_allclose(fst.kstwo.isf(q, n), st.kstwo.isf(q, n), rtol=1e-13)
        h = 1e-6
        np.testing.assert_allclose([fg.grad(lambda z: fst.kstwo.sf(z, n))(z) for z in d],
                                   # (of the smaller side: no cancellation)
                                   np.where(st.kstwo.cdf(d, n) < 0.5,
                                            st.kstwo.cdf(d - h, n) - st.kstwo.cdf(d + h, n),
                                            st.kstwo.sf(d + h, n) - st.kstwo.sf(d - h, n))
                                   / (2 * h), rtol=1e-6)
        np.testing.assert_allclose(fg.grad(lambda p: fst.kstwo.ppf(p, n))(0.3),
                                   (st.kstwo.ppf(0.3 + h, n) - st.kstwo.ppf(0.3 - h, n))
                                   / (2 * h), rtol=1e-6)
    assert fst.kstwo.cdf(np.float32(0.3), 10).dtype == np.float32
    with pytest.raises(NotImplementedError, match="derivative of the density"):
        fg.grad(fg.grad(lambda z: fst.kstwo.cdf(z, 10)))(0.3)
    with pytest.raises(fg.ConcretizationError, match="kstwo.sf"):  # (SciPy's values)
        fg.vmap(lambda z: fst.kstwo.sf(z, 10))(d)


def test_ks_1samp_default_is_scipys_exact_p_value_and_differentiates():
    for alternative in ("two-sided", "greater", "less"):
        ours = fst.kstest(X, "norm", alternative=alternative)
        scipys = st.kstest(X, "norm", alternative=alternative)
        np.testing.assert_allclose([ours.statistic, ours.pvalue],
                                   [scipys.statistic, scipys.pvalue], rtol=1e-13)
    h = 1e-6

    def scipys_p(m):
        return st.ks_1samp(X, lambda v: st.norm.cdf(v, loc=m)).pvalue

    got = fg.grad(lambda m: fst.ks_1samp(X, lambda v: fst.norm.cdf(v, loc=m)).pvalue)(0.1)
    np.testing.assert_allclose(got, (scipys_p(0.1 + h) - scipys_p(0.1 - h)) / (2 * h),
                               rtol=1e-6)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("method", ["auto", "exact", "asymp"])
def test_ks_2samp_is_scipys(alternative, method):
    ours = fst.ks_2samp(X, Y, alternative=alternative, method=method)
    scipys = st.ks_2samp(X, Y, alternative=alternative, method=method)
    assert ours.statistic == scipys.statistic and ours.pvalue == scipys.pvalue
    assert ours.statistic_location == scipys.statistic_location
    assert ours.statistic_sign == scipys.statistic_sign
    two = fst.kstest(X, Y, alternative=alternative, method=method)
    assert (two.statistic, two.pvalue) == (scipys.statistic, scipys.pvalue)


def test_ks_2samp_location_moves_with_its_data_value():
    res = st.ks_2samp(X, Y)
    where = np.flatnonzero(X == res.statistic_location)
    grad = fg.grad(lambda x: fst.ks_2samp(x, Y).statistic_location)(X)
    np.testing.assert_array_equal(grad, np.isin(np.arange(X.size), where).astype(float))
    # the statistic and p-value are step functions: zero derivative
    assert float(fg.grad(lambda x: fst.ks_2samp(x, Y).pvalue)(X).sum()) == 0.0
