"""Regression tests of the session-25 derivative audit of funcgrad.scipy.stats' univariate
families: integer counts and a discrete outcome have no derivative (SciPy's values are NaN
between whole counts, its pmf 0 between whole outcomes), so asking for one raises; the
derivatives in the continuous parameters are unchanged (central differences of SciPy's)."""
import numpy as np
import pytest
import scipy.stats as ss

import funcgrad as fg
import funcgrad.scipy.stats as fst


def _fd(f, x, h=1e-4):
    return (8 * (f(x + h) - f(x - h)) - (f(x + 2 * h) - f(x - 2 * h))) / (12 * h)


@pytest.mark.parametrize("name,method,args,i", [
    ("binom", "pmf", (3.0, 5.0, 0.4), 1),
    ("binom", "cdf", (3.0, 5.0, 0.4), 1),
    ("betabinom", "logpmf", (3.0, 5.0, 2.0, 3.0), 1),
    ("betanbinom", "pmf", (3.0, 5.0, 2.0, 3.0), 1),
    ("boltzmann", "pmf", (3.0, 1.4, 19.0), 2),
    ("hypergeom", "pmf", (3.0, 20.0, 7.0, 12.0), 1),
    ("hypergeom", "sf", (3.0, 20.0, 7.0, 12.0), 3),
    ("nhypergeom", "pmf", (3.0, 20.0, 7.0, 12.0), 2),
    ("randint", "pmf", (3.0, 1.0, 7.0), 1),
    ("zipfian", "cdf", (3.0, 1.2, 10.0), 2),
    ("binom", "mean", (5.0, 0.4), 0),
])
def test_integer_counts_refuse_a_derivative(name, method, args, i):
    # SciPy's value is NaN off the integers: no derivative to agree with
    shifted = list(args)
    shifted[i] += 0.5
    assert np.isnan(getattr(getattr(ss, name), method)(*shifted))

    def f(c):
        a = list(args)
        a[i] = c
        return getattr(getattr(fst, name), method)(*a)
    assert np.isfinite(float(f(args[i])))  # the value itself is fine
    with pytest.raises(ValueError, match="integer count"):
        fg.grad(f)(args[i])
    with pytest.raises(ValueError, match="integer count"):
        fg.jacfwd(f)(args[i])


@pytest.mark.parametrize("name,shape", [("binom", (5.0, 0.4)), ("poisson", (2.0,)),
                                        ("nbinom", (5.0, 0.4)), ("betanbinom", (5.0, 2.0, 3.0))])
@pytest.mark.parametrize("method", ["pmf", "logpmf"])
def test_pmf_refuses_a_derivative_in_k_and_loc(name, method, shape):
    dist = getattr(fst, name)
    # SciPy's pmf is 0 just off a whole k: it jumps there (no derivative)
    assert getattr(getattr(ss, name), "pmf")(3.0 + 1e-9, *shape) == 0.0
    with pytest.raises(ValueError, match="outcome k"):
        fg.grad(lambda k: getattr(dist, method)(k, *shape))(3.0)
    with pytest.raises(ValueError, match="outcome k"):
        fg.grad(lambda loc: getattr(dist, method)(3.0, *shape, loc=loc))(0.0)


@pytest.mark.parametrize("name,method,args,i", [
    ("binom", "pmf", (3.0, 5.0, 0.4), 2),
    ("binom", "logcdf", (3.0, 5.0, 0.4), 2),
    ("betabinom", "logpmf", (3.0, 5.0, 2.0, 3.0), 2),
    ("hypergeom", "pmf", (3.0, 20.0, 7.0, 12.0), 0),   # k fixed: M, n, N plain
    ("poisson", "pmf", (3.0, 2.0), 1),
    ("boltzmann", "cdf", (3.0, 1.4, 19.0), 1),
    ("zipfian", "pmf", (3.0, 1.2, 10.0), 1),
    ("betanbinom", "logpmf", (3.0, 5.0, 2.0, 3.0), 3),
])
def test_continuous_parameters_keep_their_derivative(name, method, args, i):
    if i == 0:  # (nothing continuous to differentiate: the value only)
        got = getattr(getattr(fst, name), method)(*args)
        np.testing.assert_allclose(got, getattr(getattr(ss, name), method)(*args), rtol=1e-12)
        return

    def ref(c):
        a = list(args)
        a[i] = c
        return getattr(getattr(ss, name), method)(*a)

    def ours(c):
        a = list(args)
        a[i] = c
        return getattr(getattr(fst, name), method)(*a)
    np.testing.assert_allclose(float(ours(args[i])), ref(args[i]), rtol=1e-12)
    np.testing.assert_allclose(float(fg.grad(ours)(args[i])), _fd(ref, args[i]), rtol=1e-7)


def test_discrete_cdf_in_k_stays_a_step():
    # the cdf is constant between whole k: derivative 0 (as ppf's), values as SciPy's
    g = fg.grad(lambda k: fst.binom.cdf(k, 5, 0.4))(3.5)
    assert float(g) == 0.0
    np.testing.assert_allclose(fst.binom.cdf(3.5, 5, 0.4), ss.binom.cdf(3.5, 5, 0.4))


def test_transforms_over_the_continuous_parameters_still_work():
    p = np.array([0.2, 0.4])
    np.testing.assert_allclose(fg.vmap(lambda q: fst.binom.pmf(3.0, 5.0, q))(p),
                               ss.binom.pmf(3, 5, p), rtol=1e-12)
    np.testing.assert_allclose(float(fg.jit(lambda q: fst.binom.pmf(3.0, 5.0, q))(0.4)),
                               ss.binom.pmf(3, 5, 0.4), rtol=1e-12)
    h = fg.grad(fg.grad(lambda q: fst.binom.logpmf(3.0, 5.0, q)))(0.4)
    np.testing.assert_allclose(float(h), -3 / 0.4**2 - 2 / 0.6**2, rtol=1e-10)
