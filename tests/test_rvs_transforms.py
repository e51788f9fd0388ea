"""``rvs`` of the univariate distributions under ``jit`` and ``vmap``
(funcgrad/scipy/_distn_rvs_traced.py): SciPy's draws made when the traced code runs, and
the eager pathwise derivative.

Expected values: SciPy's own draws from a random state in the same place (a copy, or the
same seed), stacked over the examples for ``vmap``; derivatives equal to the eager ones
(whose agreement with SciPy's ppf is tests/test_scipy_stats_draws.py's), and to closed
forms where the draw is a monotone map of one variate (``weibull_min``: x = scale E**(1/c)).
"""
import warnings

import numpy as np
import pytest
import scipy.stats as ss
from scipy.stats._distr_params import distcont, distdiscrete

import funcgrad as fg
import funcgrad.scipy.stats as fst
from funcgrad.errors import ConcretizationError
from funcgrad.scipy._distn import rv_continuous, rv_discrete

FAMILIES = sorted(n for n in dir(fst) if isinstance(getattr(fst, n), rv_continuous))
PARAMS = {}
for _name, _params in distcont + distdiscrete:  # (SciPy's own test points, first of each)
    PARAMS.setdefault(_name, tuple(_params))


def _pair(seed):
    return np.random.default_rng(seed), np.random.default_rng(seed)


# --- values: SciPy's draws ------------------------------------------------------------------

def test_jit_draws_are_scipys_and_fresh_at_every_call_from_a_shared_random_state():
    rng, ref = _pair(5)
    draw = fg.jit(lambda s: fst.norm.rvs(0.5, s, size=3, random_state=rng))
    for _ in range(3):  # (each call consumes the state as SciPy's call does)
        assert np.array_equal(draw(2.0), ss.norm.rvs(0.5, 2.0, size=3, random_state=ref))
    assert rng.random() == ref.random()
    seeded = fg.jit(lambda s: fst.norm.rvs(1.0, s, size=4, random_state=0))
    expected = ss.norm.rvs(1.0, 2.0, size=4, random_state=0)
    assert np.array_equal(seeded(2.0), expected) and np.array_equal(seeded(2.0), expected)
    scalar = fg.jit(lambda s: fst.expon.rvs(scale=s, random_state=3))(2.0)
    assert scalar.shape == () and float(scalar) == ss.expon.rvs(scale=2.0, random_state=3)


def test_jit_draws_of_a_discrete_family_are_scipys_integers():
    x = fg.jit(lambda n, p: fst.binom.rvs(n, p, size=4, random_state=1))(10, 0.3)
    y = ss.binom.rvs(10, 0.3, size=4, random_state=1)
    assert np.array_equal(x, y) and x.dtype == y.dtype


def test_vmap_draws_equal_scipys_drawn_example_by_example():
    rng, ref = _pair(9)
    a = np.array([1.5, 2.5, 3.5])
    x = fg.vmap(lambda a: fst.gamma.rvs(a, loc=1.0, size=(2, 2), random_state=rng))(a)
    y = np.stack([ss.gamma.rvs(v, loc=1.0, size=(2, 2), random_state=ref) for v in a])
    assert np.array_equal(x, y) and rng.random() == ref.random()
    p = np.array([0.2, 0.7])
    k = fg.vmap(lambda p: fst.binom.rvs(5, p, size=3, random_state=4))(p)
    assert np.array_equal(k, np.stack([ss.binom.rvs(5, v, size=3, random_state=4) for v in p]))


def test_frozen_distribution_draws_under_jit():
    frozen_draw = fg.jit(lambda s: fst.gamma(2.5, scale=s).rvs(size=3, random_state=7))
    assert np.array_equal(frozen_draw(2.0), ss.gamma(2.5, scale=2.0).rvs(size=3, random_state=7))


def _vmapped_equals_scipys(names):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for name in names:
            ours, theirs = getattr(fst, name), getattr(ss, name)
            discrete = isinstance(ours, rv_discrete)
            locs = np.array([1, 2]) if discrete else np.array([0.5, 1.5])
            where = {} if discrete else {"scale": 2.0}
            x = fg.vmap(lambda loc: ours.rvs(*PARAMS[name], loc=loc, size=(2, 3),
                                             random_state=11, **where))(locs)
            y = np.stack([theirs.rvs(*PARAMS[name], loc=loc, size=(2, 3), random_state=11,
                                     **where) for loc in locs])
            assert np.array_equal(x, y) and x.dtype == y.dtype, name


def test_vmap_draws_equal_scipys_for_samplers_of_every_kind():
    # inversion, rejection, several variates, circular wrap, trials on p's last axis, counts
    _vmapped_equals_scipys(["norm", "gamma", "t", "vonmises", "truncnorm", "norminvgauss",
                            "binom", "poisson_binom", "hypergeom"])


@pytest.mark.soak
def test_vmap_draws_equal_scipys_for_every_family():
    _vmapped_equals_scipys(FAMILIES)


# --- derivatives: the eager ones ------------------------------------------------------------

# (each mode a fresh Numba compile of the family's cdf: half a minute for weibull_min, a
# minute or more for gamma, truncnorm and vonmises; the quick suite compiles one mode once,
# below)
CASES = [("weibull_min", (1.5,)), ("gamma", (2.5,)), ("truncnorm", (-0.5, 1.5)),
         ("vonmises", (1.5,))]


@pytest.mark.soak
@pytest.mark.parametrize("name, shape", CASES)
def test_derivatives_through_jit_equal_the_eager_ones(name, shape):
    dist = getattr(fst, name)

    def f(rng):
        def draws(theta):  # theta: the last shape parameter, loc and scale
            return dist.rvs(*shape[:-1], theta[0], loc=theta[1], scale=theta[2], size=4,
                            random_state=rng)
        return draws
    theta = np.array([shape[-1], 0.3, 1.7])
    for transform in (fg.jacfwd, fg.jacrev):
        rng, ref = _pair(3)
        eager = transform(f(ref))(theta)
        ours = transform(fg.jit(f(rng)))(theta)
        # (compiled arithmetic, rounded in another order)
        np.testing.assert_allclose(ours, eager, rtol=1e-10, atol=1e-14)
        assert rng.random() == ref.random()  # (one draw per call: values and slope agree)
    rng, ref = _pair(3)
    value, slope = fg.value_and_grad(fg.jit(lambda t: f(rng)(t).sum()))(theta)
    expected = getattr(ss, name).rvs(*shape[:-1], theta[0], loc=theta[1], scale=theta[2],
                                     size=4, random_state=ref)
    np.testing.assert_allclose(value, expected.sum(), rtol=1e-15)
    rng, ref = _pair(3)
    np.testing.assert_allclose(slope, fg.grad(lambda t: f(ref)(t).sum())(theta), rtol=1e-10)
    np.testing.assert_allclose(fg.jit(fg.grad(lambda t: f(rng)(t).sum()))(theta), slope,
                               rtol=1e-10)


def test_jit_draws_keep_scipys_values_while_carrying_a_derivative():
    rng, ref = _pair(2)
    x, dx = fg.jvp(fg.jit(lambda c: fst.weibull_min.rvs(c, scale=1.7, size=5,
                                                        random_state=rng)), (2.5,), (1.0,))
    assert np.array_equal(x, ss.weibull_min.rvs(2.5, scale=1.7, size=5, random_state=ref))


def test_derivatives_through_vmap_equal_the_eager_ones():
    a = np.array([1.5, 2.5])

    def draws(a):
        return fst.gamma.rvs(a, scale=2.0, size=3, random_state=8)
    eager = np.stack([fg.jacfwd(draws)(v) for v in a])
    np.testing.assert_allclose(fg.vmap(fg.jacfwd(draws))(a), eager, rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(fg.jacrev(draws))(a), eager, rtol=1e-12)
    # grad of a vmapped draw: the batch's values carry the derivative
    np.testing.assert_allclose(fg.grad(lambda a: fg.vmap(draws)(a).sum())(a),
                               eager.sum(axis=1), rtol=1e-12)


def test_weibull_draws_under_jit_have_the_closed_form_first_derivatives():
    # x = scale * E**(1/c): dx/dc = -log(x / scale) x / c, dx/dscale = x / scale (and
    # d2x/dc2 = log(x / scale)**2 x / c**2 + 2 log(x / scale) x / c**2, in the soak suite)
    c, scale = 1.5, 1.3
    x = ss.weibull_min.rvs(c, scale=scale, size=3, random_state=3)
    log_e = np.log(x / scale)
    draws = fg.jit(lambda c, s: fst.weibull_min.rvs(c, scale=s, size=3, random_state=3))
    slope_c, slope_scale = fg.jacrev(draws, argnums=(0, 1))(c, scale)
    np.testing.assert_allclose(slope_c, -log_e * x / c, rtol=1e-10)
    np.testing.assert_allclose(slope_scale, x / scale, rtol=1e-12)


@pytest.mark.soak
def test_weibull_draws_under_jit_have_the_closed_form_second_derivative():
    c, scale = 1.5, 1.3
    x = ss.weibull_min.rvs(c, scale=scale, size=3, random_state=3)
    log_e = np.log(x / scale)
    draws = fg.jit(lambda c: fst.weibull_min.rvs(c, scale=scale, size=3, random_state=3))
    second = fg.jacfwd(fg.jacrev(draws))(c)
    np.testing.assert_allclose(second, (log_e ** 2 + 2 * log_e) * x / c ** 2, rtol=1e-9)


# --- what raises ----------------------------------------------------------------------------

def test_a_family_whose_cdf_cannot_be_traced_draws_but_refuses_a_shape_derivative():
    def draws(a, s):
        return fst.norminvgauss.rvs(a, 0.5, scale=s, size=2, random_state=3)
    jitted = fg.jit(draws)
    expected = ss.norminvgauss.rvs(1.0, 0.5, scale=2.0, size=2, random_state=3)
    assert np.array_equal(jitted(1.0, 2.0), expected)
    np.testing.assert_allclose(fg.jacfwd(jitted, argnums=1)(1.0, 2.0), expected / 2.0,
                               rtol=1e-12)
    for transformed in (fg.jacfwd(jitted), fg.jacrev(jitted),
                        lambda a, s: fg.vmap(fg.jacfwd(draws))(np.array([a]), np.array([s]))):
        with pytest.raises(NotImplementedError, match="norminvgauss.cdf cannot run so"):
            transformed(1.0, 2.0)


def test_scale_zero_under_jit_raises_since_the_draws_hold_their_derivatives_terms():
    draws = fg.jit(lambda s: fst.norm.rvs(scale=s, size=2, random_state=0))
    with pytest.raises(ValueError, match="scale = 0"):
        draws(0.0)


def test_invalid_parameters_under_jit_raise_scipys_domain_error():
    with pytest.raises(ValueError):
        fg.jit(lambda s: fst.gamma.rvs(2.0, scale=s, size=2, random_state=0))(-1.0)


def test_histogram_with_traced_heights_names_the_fix():
    edges = np.array([0.0, 1.0, 2.0])
    draws = fg.jit(lambda h: fst.rv_histogram((h, edges)).rvs(size=2, random_state=0))
    with pytest.raises(ConcretizationError, match="Build the distribution outside"):
        draws(np.array([1.0, 2.0]))
    hist = fst.rv_histogram((np.array([1.0, 2.0]), edges))
    moved = fg.jit(lambda loc: hist.rvs(loc=loc, size=2, random_state=0))(1.0)
    assert np.array_equal(moved, ss.rv_histogram((np.array([1.0, 2.0]), edges)).rvs(
        loc=1.0, size=2, random_state=0))
