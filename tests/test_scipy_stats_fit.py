"""The univariate distributions' ``fit``, ``nnlf`` and ``fit_loc_scale``, and
``CensoredData``, against SciPy's: values equal to SciPy's (its own fit, on the values);
derivatives in the data and in fixed parameters against central differences of SciPy's own
functions (a tight optimizer where SciPy's default ``fmin`` stops at 1e-4); the derivative
refused where SciPy's answer is no stationary point; discrete distributions without
``fit``, as SciPy's."""
import numpy as np
import pytest

scipy_stats = pytest.importorskip("scipy.stats")
import scipy.optimize  # noqa: E402

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.stats as fst  # noqa: E402
from funcgrad.errors import ConcretizationError  # noqa: E402

X = np.array([-3.1, -0.4, 0.2, 0.5, 0.9, 1.3, 1.6, 2.2, 5.8, 1.0])  # (heavy-tailed: t)
Y = np.array([0.7, 1.1, 1.9, 2.4, 0.3, 3.6, 1.4, 2.8])             # (positive)
B = np.array([0.12, 0.35, 0.41, 0.58, 0.23, 0.77, 0.49, 0.31])      # (in (0, 1))
RNG = np.random.default_rng(5)


def _tight(func, x0, args=(), disp=0):
    """SciPy's fmin, restarted, to about 1e-9 (its default stops near 1e-4)."""
    for _ in range(3):
        x0 = scipy.optimize.fmin(func, x0, args=args, disp=0, xtol=1e-11, ftol=1e-13,
                                 maxiter=20000, maxfun=20000)
    return x0


def _directional(ours, theirs, x, h, rtol, atol=1e-9):
    """``ours`` (funcgrad's, a tuple) differentiated along a random direction of ``x`` by
    jvp, against central differences of ``theirs`` (SciPy's); and vjp agreeing with jvp."""
    v = RNG.normal(size=np.shape(x))
    stacked = lambda x: fnp.stack([fnp.asarray(p, dtype=float) for p in ours(x)])  # noqa
    value, tangent = fg.jvp(stacked, (x,), (v,))
    np.testing.assert_allclose(value, np.asarray(theirs(x), float), rtol=1e-12, atol=1e-12)
    fd = (np.asarray(theirs(x + h * v), float) - np.asarray(theirs(x - h * v), float)) / (2 * h)
    np.testing.assert_allclose(tangent, fd, rtol=rtol, atol=atol + rtol * np.abs(fd).max())
    u = RNG.normal(size=np.shape(tangent))
    _, pullback = fg.vjp(stacked, x)
    np.testing.assert_allclose(np.dot(pullback(u)[0], v), np.dot(u, tangent), rtol=1e-9)


# --- nnlf ---------------------------------------------------------------------------------------

NNLF_CASES = [("norm", (0.5, 1.7), X), ("t", (4.0, 0.3, 1.2), X), ("gamma", (2.5, 0.1, 0.8), Y),
              ("beta", (2.0, 3.0, 0.0, 1.0), B), ("expon", (0.2, 1.5), Y),
              ("weibull_min", (1.4, 0.0, 1.8), Y)]


@pytest.mark.parametrize("name, theta, x", NNLF_CASES)
def test_nnlf_matches_scipy_and_differentiates_in_theta_and_x(name, theta, x):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    np.testing.assert_allclose(ours.nnlf(theta, x), theirs.nnlf(theta, x), rtol=1e-12)
    h = 1e-6
    for i in range(len(theta)):
        step = np.zeros(len(theta))
        step[i] = h
        fd = (theirs.nnlf(np.add(theta, step), x) - theirs.nnlf(np.subtract(theta, step), x))
        got = fg.grad(lambda th: ours.nnlf(th, x))(np.asarray(theta))[i]
        np.testing.assert_allclose(got, fd / (2 * h), rtol=1e-6, atol=1e-7)
    v = RNG.normal(size=x.shape)
    _, tangent = fg.jvp(lambda x: ours.nnlf(theta, x), (x,), (v,))
    fd = (theirs.nnlf(theta, x + h * v) - theirs.nnlf(theta, x - h * v)) / (2 * h)
    np.testing.assert_allclose(tangent, fd, rtol=1e-6)


def test_nnlf_is_inf_where_scipys_is_and_keeps_its_axis():
    cases = [(fst.norm, (0.0, -1.0), [1.0]), (fst.norm, (0.0, 1.0), [np.nan]),
             (fst.expon, (0.0, 1.0), [-1e-9, 1.0]), (fst.gamma, (-1.0, 0.0, 1.0), [1.0]),
             (fst.beta, (2.0, 3.0, 0.0, 1.0), [0.5, 1.2])]
    for dist, theta, x in cases:
        assert dist.nnlf(theta, np.asarray(x)) == np.inf
        assert getattr(scipy_stats, dist.name).nnlf(theta, np.asarray(x)) == np.inf
    assert float(fst.expon.nnlf((0.0, 1.0), np.array([0.0, 1.0]))) == 1.0  # (closed support)
    x2 = np.stack([X, X[::-1] + 1.0], axis=1)
    np.testing.assert_allclose(fst.norm.nnlf((0.5, 2.0), x2),
                               scipy_stats.norm.nnlf((0.5, 2.0), x2), rtol=1e-12)
    with pytest.raises(TypeError, match="sequence"):
        fst.norm.nnlf((0.0, 1.0), 1.0)
    with pytest.raises(ValueError, match="2 parameters"):
        fst.norm.nnlf((0.0, 1.0, 2.0), X)
    # under jit SciPy's tests on values are unavailable: invalid parameters still give inf
    jitted = fg.jit(fst.norm.nnlf)
    np.testing.assert_allclose(jitted(np.array([0.5, 1.7]), X),
                               scipy_stats.norm.nnlf((0.5, 1.7), X), rtol=1e-12)
    assert float(jitted(np.array([0.5, -1.0]), X)) == np.inf


def test_discrete_distributions_have_nnlf_but_no_fit_as_scipys():
    k = np.array([0, 2, 3, 1, 5])
    for name, theta in [("poisson", (2.5, 0.0)), ("binom", (8, 0.3, 0.0))]:
        ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
        np.testing.assert_allclose(ours.nnlf(theta, k), theirs.nnlf(theta, k), rtol=1e-12)
        for attr in ("fit", "fit_loc_scale"):
            assert hasattr(ours, attr) == hasattr(theirs, attr) is False
    assert fst.poisson.nnlf((2.5, 0.0), np.array([-1, 2])) == np.inf
    h = 1e-6
    fd = (scipy_stats.poisson.nnlf((2.5 + h, 0.0), k)
          - scipy_stats.poisson.nnlf((2.5 - h, 0.0), k)) / (2 * h)
    got = fg.grad(lambda mu: fst.poisson.nnlf((mu, 0.0), k))(2.5)
    np.testing.assert_allclose(got, fd, rtol=1e-6)
    with pytest.raises(AttributeError, match="discrete"):
        fst.poisson.fit(k)


# --- fit_loc_scale ------------------------------------------------------------------------------

@pytest.mark.parametrize("name, shapes", [("norm", ()), ("gamma", (2.5,)), ("t", (5.0,)),
                                          ("expon", ()), ("gamma", (-1.0,))])
def test_fit_loc_scale_matches_scipy_and_differentiates(name, shapes):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    np.testing.assert_allclose(ours.fit_loc_scale(X, *shapes), theirs.fit_loc_scale(X, *shapes),
                               rtol=1e-12)
    _directional(lambda x: ours.fit_loc_scale(x, *shapes),
                 lambda x: theirs.fit_loc_scale(x, *shapes), X, 1e-6, 1e-6)


# --- fit: values --------------------------------------------------------------------------------

FIT_VALUES = [("norm", Y, (), {}), ("norm", Y, (), {"floc": 1.0}), ("expon", Y, (), {}),
              ("uniform", Y, (), {"fscale": 4.0}), ("laplace", X, (), {}),
              ("gamma", Y, (), {"floc": 0.0}), ("gamma", Y, (1.5,), {"loc": 0.1, "scale": 1.0}),
              ("gamma", Y, (), {"fa": 2.0, "floc": 0.0}), ("beta", B, (), {"f0": 2.0,
                                                                       "fix_b": 3.0}),
              ("lognorm", Y, (), {"floc": 0.0}), ("t", X, (), {"optimizer": _tight}),
              ("norm", Y, (), {"method": "MM"}), ("gamma", Y, (), {"method": "mm",
                                                                     "floc": 0.0})]


@pytest.mark.parametrize("name, data, args, kwds", FIT_VALUES)
def test_fit_gives_scipys_values(name, data, args, kwds):
    ours = getattr(fst, name).fit(data, *args, **kwds)
    assert ours == getattr(scipy_stats, name).fit(data, *args, **kwds)


# --- fit: derivatives ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, data, kwds", [
    ("norm", Y, {}), ("norm", Y, {"fscale": 2.0}), ("expon", Y, {}), ("expon", Y, {"floc": 0.1}),
    ("uniform", Y, {}), ("uniform", Y, {"floc": 0.0}), ("uniform", Y, {"fscale": 4.0}),
    ("laplace", X[:9], {})])
def test_explicit_fits_differentiate_as_scipys_formulas(name, data, kwds):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    _directional(lambda x: ours.fit(x, **kwds), lambda x: theirs.fit(x, **kwds), data, 1e-7,
                 1e-6)


@pytest.mark.parametrize("name, data, kwds, h, rtol", [
    ("gamma", Y, {"floc": 0.0}, 1e-6, 1e-6),          # (SciPy solves a root: exact)
    ("lognorm", Y, {"floc": 0.0}, 1e-6, 1e-6),
    ("beta", B, {"floc": 0.0, "fscale": 1.0}, 1e-6, 1e-5),
    ("weibull_min", Y, {"floc": 0.0, "optimizer": _tight}, 1e-3, 1e-3),
    ("t", X, {"optimizer": _tight}, 1e-3, 1e-3)])
def test_maximum_likelihood_fits_differentiate_by_the_implicit_function_theorem(
        name, data, kwds, h, rtol):
    ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
    _directional(lambda x: ours.fit(x, **kwds), lambda x: theirs.fit(x, **kwds), data, h, rtol)


def test_fit_differentiates_in_a_traced_fixed_parameter():
    h = 1e-6
    for name, key, value, data in [("gamma", "floc", 0.1, Y), ("gamma", "fa", 2.0, Y),
                                   ("expon", "floc", 0.1, Y), ("norm", "fscale", 1.5, Y)]:
        theirs = lambda v: np.asarray(getattr(scipy_stats, name).fit(  # noqa: E731
            data, **{key: v, **({"floc": 0.0} if key == "fa" else {})}), float)
        got = fg.jacfwd(lambda v: fnp.stack([fnp.asarray(p, dtype=float) for p in getattr(
            fst, name).fit(data, **{key: v, **({"floc": 0.0} if key == "fa" else {})})]))(value)
        fd = (theirs(value + h) - theirs(value - h)) / (2 * h)
        np.testing.assert_allclose(got, fd, rtol=1e-6, atol=1e-8)


def test_method_of_moments_fits_differentiate():
    for name, data, kwds in [("norm", Y, {}), ("gamma", Y, {"floc": 0.0})]:
        ours, theirs = getattr(fst, name), getattr(scipy_stats, name)
        kwds = dict(kwds, method="MM", optimizer=_tight)
        _directional(lambda x: ours.fit(x, **kwds), lambda x: theirs.fit(x, **kwds), data,
                     1e-3, 1e-3)
    # three free parameters need the third moment, not written: values yes, derivative no
    assert fst.gamma.fit(Y, method="MM") == scipy_stats.gamma.fit(Y, method="MM")
    with pytest.raises(NotImplementedError, match="moments beyond the second"):
        fg.grad(lambda x: fst.gamma.fit(x, method="MM")[0])(Y)


def test_fit_refuses_a_derivative_where_scipys_answer_is_not_stationary():
    # SciPy's default fmin stops near 1e-4: no stationary point to 1e-6
    with pytest.raises(NotImplementedError, match="not a stationary point.*optimizer="):
        fg.grad(lambda x: fst.t.fit(x)[0])(X)
    # lomax's MLE here is the exponential limit: c and scale run off to infinity together
    with pytest.raises(NotImplementedError, match="no isolated minimum"):
        fg.grad(lambda x: fst.lomax.fit(x, floc=0.0)[0])(Y)
    # halfnorm's loc is the data's minimum: a value on the edge of the support
    assert fst.halfnorm.fit(Y) == scipy_stats.halfnorm.fit(Y)
    with pytest.raises(NotImplementedError, match="edge of the distribution's support"):
        fg.grad(lambda x: fst.halfnorm.fit(x)[1])(Y)
    with pytest.raises(ConcretizationError, match="outside jit and vmap"):
        fg.jit(lambda x: fst.norm.fit(x)[0])(Y)
    # plain data: no derivative wanted, no check (SciPy's values, whatever its tolerance)
    assert fst.t.fit(X) == scipy_stats.t.fit(X)


# --- censored data ------------------------------------------------------------------------------

def _censored(module, x):
    """Right-censored at 2.5, one interval and one left-censored value, from ``x``."""
    cd = module.CensoredData
    return cd(uncensored=x[:5], right=x[5:7], left=x[7:8], interval=[[1.0, 2.0], [0.5, 0.9]])


def test_censored_data_matches_scipys():
    builds = [lambda m: m.CensoredData(uncensored=[1.0, 2.5], right=[4.0],
                                       interval=[[2.0, 3.0], [1.0, 1.0], [-np.inf, 2.0],
                                                 [3.0, np.inf]]),
              lambda m: m.CensoredData.right_censored([1.0, 2.0, 3.0], [0, 1, 0]),
              lambda m: m.CensoredData.left_censored([1.0, 2.0, 3.0], [1, 0, 0]),
              lambda m: m.CensoredData.interval_censored([1.0, 2.0, -np.inf], [1.5, 2.0, 0.5]),
              lambda m: m.CensoredData(), lambda m: m.CensoredData([1, 2]) - 1.5,
              lambda m: m.CensoredData([1.0], interval=[[1.0, 2.0]]) / 2]
    for build in builds:
        ours, theirs = build(fst), build(scipy_stats)
        assert (repr(ours), str(ours), len(ours), ours.num_censored()) == (
            repr(theirs), str(theirs), len(theirs), theirs.num_censored())
    for bad in [lambda m: m.CensoredData([np.nan]), lambda m: m.CensoredData(interval=[[2, 1]]),
                lambda m: m.CensoredData.right_censored([1.0, 2.0], [1]),
                lambda m: m.CensoredData(interval=[[-np.inf, np.inf]])]:
        with pytest.raises(ValueError):
            bad(scipy_stats)
        with pytest.raises(ValueError):
            bad(fst)


def test_censored_nnlf_is_scipys_censored_likelihood_and_differentiates():
    theta = (1.4, 0.0, 1.8)
    theirs = lambda th, x: scipy_stats.weibull_min._penalized_nnlf(  # noqa: E731
        th, _censored(scipy_stats, x))
    np.testing.assert_allclose(fst.weibull_min.nnlf(theta, _censored(fst, Y)),
                               theirs(theta, Y), rtol=1e-12)
    _directional(lambda x: (fst.weibull_min.nnlf(theta, _censored(fst, x)),),
                 lambda x: (theirs(theta, x),), Y, 1e-6, 1e-6)
    got = fg.grad(lambda th: fst.weibull_min.nnlf(th, _censored(fst, Y)))(np.asarray(theta))
    for i, h in enumerate(np.eye(3) * 1e-6):
        fd = (theirs(np.add(theta, h), Y) - theirs(np.subtract(theta, h), Y)) / 2e-6
        np.testing.assert_allclose(got[i], fd, rtol=1e-6, atol=1e-7)


def test_censored_fit_gives_scipys_values_and_differentiates():
    # (SciPy's generic fit: a censored likelihood of every kind of value; values checked
    # to 1e-12 in _directional)
    kwds = {"optimizer": _tight}
    _directional(lambda x: fst.norm.fit(_censored(fst, x), **kwds),
                 lambda x: scipy_stats.norm.fit(_censored(scipy_stats, x), **kwds),
                 Y, 1e-3, 1e-3)
    # no censored value: SciPy's fit of the array (norm's explicit formula)
    whole = lambda m, x: m.CensoredData(uncensored=x)  # noqa: E731
    _directional(lambda x: fst.norm.fit(whole(fst, x)),
                 lambda x: scipy_stats.norm.fit(whole(scipy_stats, x)), Y, 1e-7, 1e-6)
    with pytest.raises(ValueError, match="MLE"):
        fst.norm.fit(_censored(fst, Y), method="MM")
