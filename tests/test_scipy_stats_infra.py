"""SciPy 1.15+'s distribution infrastructure (``Normal(mu=..., sigma=...)``, ``X*2 + 1``,
``make_distribution``...): SciPy's values, derivatives against central differences of
SciPy's values, float32 kept, SciPy's draws for the same ``rng``."""
import functools
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.stats as fst

ss = pytest.importorskip("scipy.stats")
if not hasattr(ss, "make_distribution"):
    pytest.skip("SciPy 1.15+ has the new distribution infrastructure", allow_module_level=True)

X_METHODS = ["logpdf", "pdf", "cdf", "logcdf", "ccdf", "logccdf"]
P_METHODS = ["icdf", "iccdf"]
LOGP_METHODS = ["ilogcdf", "ilogccdf"]
PROPERTIES = ["mean", "median", "mode", "variance", "standard_deviation", "skewness",
              "kurtosis", "entropy", "logentropy"]

# (name, family keywords, points x inside and outside the support)
FAMILIES = [
    ("Normal", dict(mu=np.array([0.5, -1.0]), sigma=np.array([2.0, 0.7])),
     np.array([-9.0, -1.3, 0.2, 1.1])),
    ("Normal", {}, np.array([-40.0, -1.3, 0.2, 9.0])),
    ("Uniform", dict(a=np.array([0.5, -1.0]), b=np.array([2.0, 0.7])),
     np.array([-1.3, 0.2, 0.6, 1.1, 3.0])),
    ("Logistic", {}, np.array([-30.0, -1.3, 0.2, 1.1])),
]


def _pair(name, kw):
    return getattr(fst, name)(**kw), getattr(ss, name)(**kw)


@pytest.mark.parametrize("name, kw, x", FAMILIES)
def test_every_method_gives_scipys_value(name, kw, x):
    X, Y = _pair(name, kw)
    x = x[:, None] if kw else x
    p = np.array([0.0, 1e-12, 0.1, 0.5, 0.93, 1.0])
    p = p[:, None] if kw else p
    assert repr(X) == repr(Y) and str(X) == str(Y)
    for m in X_METHODS:
        np.testing.assert_allclose(getattr(X, m)(x), getattr(Y, m)(x), rtol=1e-13, err_msg=m)
    for m in P_METHODS:
        np.testing.assert_allclose(getattr(X, m)(p), getattr(Y, m)(p), rtol=1e-13, err_msg=m)
    with np.errstate(divide="ignore"):
        logp = np.log(p)
    for m in LOGP_METHODS:  # (SciPy inverts Logistic's numerically: to its tolerance)
        np.testing.assert_allclose(getattr(X, m)(logp), getattr(Y, m)(logp), rtol=1e-9,
                                   err_msg=m)
    # (SciPy's Logistic takes its Bernoulli numbers from a float recurrence, 1e-12 off:
    # funcgrad's are exact, checked against the closed forms in the last test)
    rtol = 1e-11 if name == "Logistic" else 1e-13
    for m in PROPERTIES:
        np.testing.assert_allclose(getattr(X, m)(), getattr(Y, m)(), rtol=rtol, atol=1e-15,
                                   err_msg=m)
    np.testing.assert_equal(X.support(), Y.support())
    np.testing.assert_allclose(X.kurtosis(convention="excess"),
                               Y.kurtosis(convention="excess"), atol=1e-14)
    for order in range(6):
        for kind in ("raw", "central", "standardized"):
            np.testing.assert_allclose(X.moment(order, kind), Y.moment(order, kind),
                                       rtol=rtol, atol=1e-14, err_msg=f"{kind} {order}")
    lo, hi = x, x[::-1] + 0.25  # (both orders: a negative mass where swapped)
    for m in ("cdf", "ccdf", "logccdf"):
        np.testing.assert_allclose(getattr(X, m)(lo, hi), getattr(Y, m)(lo, hi), rtol=1e-12,
                                   err_msg=m)
    ours, scipys = X.logcdf(lo, hi), Y.logcdf(lo, hi)
    assert ours.dtype == scipys.dtype  # (complex: pi*1j where swapped)
    np.testing.assert_allclose(np.exp(ours), np.exp(scipys), rtol=1e-12)


@pytest.mark.parametrize("name, kw, x", FAMILIES[::2])
def test_shifted_and_scaled_give_scipys_values(name, kw, x):
    X, Y = _pair(name, kw)
    x = x[:, None] if kw else x
    p = np.array([0.1, 0.5, 0.93])
    p = p[:, None] if kw else p
    for ours, scipys in ((X * 2 + 1, Y * 2 + 1), (-X / 3 - 1, -Y / 3 - 1),
                         (1.5 - 0.5 * X, 1.5 - 0.5 * Y)):
        assert repr(ours) == repr(scipys)
        for m in X_METHODS:
            np.testing.assert_allclose(getattr(ours, m)(x), getattr(scipys, m)(x), rtol=1e-13,
                                       err_msg=m)
        for m in P_METHODS:
            np.testing.assert_allclose(getattr(ours, m)(p), getattr(scipys, m)(p), rtol=1e-13)
        for m in ("mean", "median", "variance", "skewness", "kurtosis", "entropy"):
            np.testing.assert_allclose(getattr(ours, m)(), getattr(scipys, m)(), rtol=1e-12,
                                       atol=1e-14, err_msg=m)
        np.testing.assert_allclose(ours.moment(3, "raw"), scipys.moment(3, "raw"), rtol=1e-12)
        np.testing.assert_equal(ours.support(), scipys.support())


def _central(f, v, h=1e-6):
    return (f(v + h) - f(v - h)) / (2 * h)


# (family from one parameter t, SciPy's twin, the point and t)
GRADIENT_CASES = [
    ("Normal sigma", lambda t: fst.Normal(mu=0.4, sigma=t), lambda t: ss.Normal(mu=0.4, sigma=t),
     0.3, 1.3),
    ("Normal mu", lambda t: fst.Normal(mu=t, sigma=0.8), lambda t: ss.Normal(mu=t, sigma=0.8),
     0.3, -0.2),
    ("Uniform b", lambda t: fst.Uniform(a=-0.5, b=t), lambda t: ss.Uniform(a=-0.5, b=t),
     0.3, 1.7),
    ("Logistic scale", lambda t: fst.Logistic() * t - 1.0, lambda t: ss.Logistic() * t - 1.0,
     0.3, 1.3),
]


@pytest.mark.parametrize("label, ours, scipys, x, t", GRADIENT_CASES)
def test_derivatives_match_central_differences_of_scipy(label, ours, scipys, x, t):
    for m, arg in [(m, x) for m in X_METHODS] + [(m, 0.3) for m in P_METHODS] + [
            (m, -0.7) for m in LOGP_METHODS]:
        dt = fg.grad(lambda t: getattr(ours(t), m)(arg))(t)
        np.testing.assert_allclose(dt, _central(lambda t: getattr(scipys(t), m)(arg), t),
                                   rtol=1e-6, err_msg=m)
        dx = fg.grad(lambda a: getattr(ours(t), m)(a))(arg)
        np.testing.assert_allclose(dx, _central(lambda a: getattr(scipys(t), m)(a), arg),
                                   rtol=1e-6, err_msg=m)
    for m in ("mean", "median", "variance", "standard_deviation", "entropy"):
        dt = fg.grad(lambda t: getattr(ours(t), m)())(t)
        np.testing.assert_allclose(dt, _central(lambda t: getattr(scipys(t), m)(), t),
                                   rtol=1e-6, atol=1e-8, err_msg=m)


def test_draws_are_scipys_and_differentiable_in_the_parameters():
    for ours, scipys in [(fst.Normal(mu=[0.5, -1.0], sigma=[2.0, 0.7]),
                          ss.Normal(mu=[0.5, -1.0], sigma=[2.0, 0.7])),
                         (fst.Uniform(a=-1.0, b=2.0), ss.Uniform(a=-1.0, b=2.0)),
                         (fst.Normal(), ss.Normal()), (fst.Logistic(), ss.Logistic())]:
        np.testing.assert_array_equal(ours.sample((3,), rng=7), scipys.sample((3,), rng=7))
    shifted = fst.Logistic() * 2.0 + 1.0
    np.testing.assert_allclose(shifted.sample(4, rng=3), (ss.Logistic() * 2.0 + 1.0).sample(
        4, rng=3), rtol=1e-15)
    assert shifted.sample(rng=1).shape == ()
    total = lambda s: fnp.sum(fst.Normal(mu=0.4, sigma=s).sample(5, rng=3))  # noqa: E731
    np.testing.assert_allclose(fg.grad(total)(1.3), _central(
        lambda s: ss.Normal(mu=0.4, sigma=s).sample(5, rng=3).sum(), 1.3), rtol=1e-7)
    total = lambda b: fnp.sum(fst.Uniform(a=0.0, b=b).sample(5, rng=3))  # noqa: E731
    np.testing.assert_allclose(fg.grad(total)(1.3), _central(
        lambda b: ss.Uniform(a=0.0, b=b).sample(5, rng=3).sum(), 1.3), rtol=1e-7)


def test_float32_stays_float32():
    X = fst.Normal(mu=np.float32(0.4), sigma=np.float32(1.3))
    x32 = np.float32(0.3)
    for m in X_METHODS + P_METHODS:
        assert getattr(X, m)(x32).dtype == np.float32, m
    assert X.mean().dtype == X.entropy().dtype == X.sample(2, rng=1).dtype == np.float32
    assert X.logentropy().dtype == np.complex64
    assert (X * np.float32(2.0)).logpdf(x32).dtype == np.float32
    assert (X * 2.0).logpdf(x32).dtype == ss.Normal(mu=x32, sigma=x32).__mul__(2.0).logpdf(
        x32).dtype == np.float64  # (a Python scale is float64, as SciPy's)
    assert X.logpdf(0.3).dtype == np.float64  # (as SciPy: the argument widens)
    g = fg.grad(lambda s: fst.Normal(mu=np.float32(0.0), sigma=s).logcdf(x32))(np.float32(1.3))
    assert g.dtype == np.float32


def test_invalid_parameters_give_nan_and_outside_the_support_constants():
    X, Y = _pair("Normal", dict(mu=[0.0, 1.0], sigma=[-1.0, 1.0]))
    np.testing.assert_equal(X.logpdf(0.3), Y.logpdf(0.3))
    np.testing.assert_equal(X.mean(), Y.mean())
    np.testing.assert_equal(X.support(), Y.support())
    X, Y = _pair("Uniform", dict(a=[0.0, 1.0], b=[2.0, 0.5]))
    np.testing.assert_equal(X.cdf([[3.0], [-1.0]]), Y.cdf([[3.0], [-1.0]]))
    # beyond the support the value is a constant: no derivative, and no NaN in it
    for m in X_METHODS:
        for x in (-1.0, 3.0):
            assert fg.grad(lambda b: getattr(fst.Uniform(a=0.5, b=b), m)(x))(2.2) == 0.0
            assert fg.grad(lambda x: getattr(fst.Uniform(a=0.5, b=2.2), m)(x))(x) == 0.0


def test_one_jit_and_vmap_check():
    f = lambda mu: fst.Normal(mu=mu, sigma=2.0).logcdf(1.0)  # noqa: E731
    mus = np.array([0.0, 1.0, 2.0])
    np.testing.assert_allclose(fg.vmap(f)(mus), ss.Normal(mu=mus, sigma=2.0).logcdf(1.0),
                               rtol=1e-14)
    np.testing.assert_allclose(fg.jit(fg.grad(f))(1.0), fg.grad(f)(1.0), rtol=1e-14)
    g = lambda b: fst.Uniform(a=0.0, b=b).cdf(np.array([0.5, 3.0]))  # noqa: E731
    np.testing.assert_allclose(fg.jit(g)(2.0), [0.25, 1.0])
    np.testing.assert_allclose(fg.vmap(g)(np.array([1.0, 2.0])), [[0.5, 1.0], [0.25, 1.0]])


def test_bad_input_says_what_and_how():
    with pytest.raises(ValueError, match="do not match a supported parameterization"):
        fst.Normal(mu=1.0, scale=2.0)
    with pytest.raises(ValueError, match="does not accept parameters"):
        fst.Logistic(mu=1.0)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        fst.Normal(mu=[1.0, 2.0], sigma=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="cannot be broadcast"):
        fst.Normal(mu=[1.0, 2.0]).pdf([1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="must be a finite, positive integer"):
        fst.Normal().moment(1.5)
    with pytest.raises(ValueError, match="must be one of"):
        fst.Normal().moment(2, kind="centered")
    with pytest.raises(ValueError, match="must be one of"):
        fst.Normal().kurtosis(convention="fisher")

    class Triangle(fst.ContinuousDistribution):  # (a density and nothing else)
        _variable = (0.0, 1.0)

        def _pdf_formula(self, x, **params):
            return 2 * x

    assert math.isclose(float(Triangle().logpdf(0.5)), 0.0, abs_tol=1e-15)
    for method, formula in [(lambda X: X.cdf(0.5), "_cdf_formula"),
                            (lambda X: X.icdf(0.5), "_icdf_formula"),
                            (lambda X: X.mean(), "_moment_raw_formula"),
                            (lambda X: X.mode(), "_mode_formula")]:
        with pytest.raises(NotImplementedError, match=formula):
            method(Triangle())
    assert fst.Normal(mu=2.0, sigma=3.0).mu == 2.0 and fst.Uniform(a=1.0, b=3.0).ab == 2.0
    assert math.isclose(float(fst.Logistic().variance()), math.pi ** 2 / 3, rel_tol=1e-15)
    assert math.isclose(float(fst.Logistic().kurtosis()), 4.2, rel_tol=1e-15)  # (21/5)


# ----- make_distribution ------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _scipy_made(name):
    """SciPy's make_distribution of its ``name`` (made once: SciPy writes its docstring)."""
    return ss.make_distribution(getattr(ss, name))


@pytest.mark.parametrize("name, kw", [("gamma", dict(a=np.array([2.5, 0.7]))), ("norm", {}),
                                      ("genpareto", dict(c=-0.3))])
def test_make_distribution_of_classic_distributions_gives_scipys_values(name, kw):
    Y = _scipy_made(name)(**kw)
    x = np.array([-0.5, 0.3, 0.9, 2.0, 4.0])[:, None]
    p = np.array([0.1, 0.5, 0.9])[:, None]
    for source in (getattr(fst, name), getattr(ss, name)):  # (SciPy's: funcgrad's twin)
        X = fst.make_distribution(source)(**kw)
        assert repr(X) == repr(Y)
    for m in X_METHODS:
        np.testing.assert_allclose(getattr(X, m)(x), getattr(Y, m)(x), rtol=1e-10, err_msg=m)
    for m in P_METHODS:
        np.testing.assert_allclose(getattr(X, m)(p), getattr(Y, m)(p), rtol=1e-9, err_msg=m)
    for m in ("mean", "variance", "median", "entropy"):
        np.testing.assert_allclose(getattr(X, m)(), getattr(Y, m)(), rtol=1e-9, err_msg=m)
    np.testing.assert_equal(X.support(), Y.support())
    np.testing.assert_allclose(X.sample((2, 3), rng=4), Y.sample((2, 3), rng=4), rtol=1e-12)
    with pytest.raises(NotImplementedError, match="_moment_standardized_formula"):
        X.skewness()  # (SciPy takes it from _stats: funcgrad's classics have no formula)


def test_make_distribution_is_differentiable_in_the_shapes_and_draws_implicitly():
    Gamma, G = fst.make_distribution(fst.gamma), _scipy_made("gamma")
    for m, arg in [("logpdf", 0.7), ("cdf", 0.7), ("logccdf", 0.7), ("icdf", 0.3)]:
        np.testing.assert_allclose(
            fg.grad(lambda a: getattr(Gamma(a=a), m)(arg))(2.5),
            _central(lambda a: getattr(G(a=a), m)(arg), 2.5), rtol=1e-6, err_msg=m)
    np.testing.assert_allclose(fg.grad(lambda a: Gamma(a=a).entropy())(2.5),
                               _central(lambda a: G(a=a).entropy(), 2.5), rtol=1e-6)
    # SciPy's gamma draws by its own sampler: the derivative of each draw x is the inverse
    # CDF's at x's uniform, -(dcdf/da) / pdf (the implicit reparameterization gradient)
    x = G(a=2.5).sample(3, rng=5)
    expected = -_central(lambda a: ss.gamma.cdf(x, a), 2.5) / ss.gamma.pdf(x, 2.5)
    np.testing.assert_allclose(fg.jacobian(lambda a: Gamma(a=a).sample(3, rng=5))(2.5),
                               expected, rtol=1e-6)
    with pytest.raises(NotImplementedError, match="support of genpareto"):
        fg.grad(lambda c: fst.make_distribution(fst.genpareto)(c=c).support()[1])(-0.3)
    with pytest.raises(ValueError, match="__make_distribution_version__"):
        fst.make_distribution(object())


class _RateExponential:
    """SciPy 1.16's make_distribution protocol, with two parameterizations."""
    __make_distribution_version__ = "1.16.0"
    parameters = ({"rate": (0, np.inf)}, {"scale": {"endpoints": (0, np.inf)}})
    support = {"endpoints": (0, np.inf), "inclusive": (True, False)}

    def process_parameters(self, rate=None, scale=None):
        return dict(rate=1 / scale if rate is None else rate,
                    scale=1 / rate if scale is None else scale)

    def pdf(self, x, rate, scale):
        return rate * np.exp(-rate * x)

    def cdf(self, x, rate, scale):
        return -np.expm1(-rate * x)

    def icdf(self, p, rate, scale):
        return -np.log1p(-p) * scale

    def moment(self, order, kind, rate, scale):
        return scale ** order * math.factorial(int(order)) if kind == "raw" else None


def test_make_distribution_follows_scipys_protocol():
    Ours = fst.make_distribution(_RateExponential())
    Scipys = ss.make_distribution(_RateExponential())
    x, p = np.array([-1.0, 0.0, 0.4, 3.0]), np.array([0.0, 0.2, 0.9])
    for kw in (dict(rate=2.0), dict(scale=0.5)):
        X, Y = Ours(**kw), Scipys(**kw)
        assert repr(X) == repr(Y)
        for m in X_METHODS:
            np.testing.assert_allclose(getattr(X, m)(x), getattr(Y, m)(x), rtol=1e-12,
                                       err_msg=m)
        for m in P_METHODS:
            np.testing.assert_allclose(getattr(X, m)(p), getattr(Y, m)(p), rtol=1e-12)
        for m in ("mean", "variance", "skewness", "median"):
            np.testing.assert_allclose(getattr(X, m)(), getattr(Y, m)(), rtol=1e-12)
        np.testing.assert_allclose(X.sample(3, rng=2), Y.sample(3, rng=2), rtol=1e-12)
    np.testing.assert_allclose(fg.grad(lambda s: Ours(scale=s).logpdf(0.4))(0.5), 1 / 0.5 ** 2
                               * 0.4 - 1 / 0.5, rtol=1e-14)


class _DensityAndCdf:
    """The protocol with a density and a CDF alone: the inverse is searched for."""
    __make_distribution_version__ = "1.16.0"
    parameters = {"rate": (0, np.inf)}
    support = (0, np.inf)

    def pdf(self, x, rate):
        return rate * np.exp(-rate * x)

    def cdf(self, x, rate):
        return -np.expm1(-rate * x)


def test_inverse_without_a_formula_is_searched_for_and_differentiated_implicitly():
    Ours = fst.make_distribution(_DensityAndCdf())
    p = np.array([1e-300, 1e-10, 0.2, 0.5, 0.9])
    exact = -np.log1p(-p) / 2.0  # (SciPy's search finds these too, in seconds: not run)
    np.testing.assert_allclose(Ours(rate=2.0).icdf(p), exact, rtol=1e-14)
    # SciPy's draws: its uniforms through the inverse CDF
    uniforms = np.random.default_rng(1).random(4)
    np.testing.assert_allclose(Ours(rate=2.0).sample(4, rng=1), -np.log1p(-uniforms) / 2.0,
                               rtol=1e-14)
    icdf = lambda r: Ours(rate=r).icdf(0.3)  # noqa: E731  (-log(0.7) / r)
    np.testing.assert_allclose(fg.grad(icdf)(2.0), math.log1p(-0.3) / 4.0, rtol=1e-13)
    np.testing.assert_allclose(fg.grad(fg.grad(icdf))(2.0), -math.log1p(-0.3) / 4.0,
                               rtol=1e-12)
    np.testing.assert_allclose(fg.grad(lambda q: Ours(rate=2.0).iccdf(q))(0.3),
                               -1 / (2.0 * 0.3), rtol=1e-12)


# ----- transformed distributions ----------------------------------------------------

def _transformed(stats):
    X = stats.Normal(mu=[1.0, -0.5], sigma=[2.0, 0.8])
    U = stats.Uniform(a=1.0, b=3.0)
    return [stats.truncate(X, lb=0.5), stats.truncate(X, -1.0, 2.0), stats.exp(X), abs(X),
            X ** 3, X ** 2, 0.5 ** X, stats.log(U), 3 / U, stats.exp(X) * 2 + 1,
            stats.truncate(X * 2, 0.5)]


def test_transformed_distributions_give_scipys_values_and_draws():
    x = np.array([-3.0, -0.2, 0.3, 0.7, 2.5, 9.0])[:, None]
    p = np.array([0.0, 0.1, 0.5, 0.9, 1.0])[:, None]
    for ours, scipys in zip(_transformed(fst), _transformed(ss)):
        assert repr(ours) == repr(scipys)
        xs, ps = (x, p) if ours._shape else (x[:, 0], p[:, 0])
        with np.errstate(invalid="ignore", divide="ignore"):  # (SciPy's own warnings)
            for m in X_METHODS:
                np.testing.assert_allclose(getattr(ours, m)(xs), getattr(scipys, m)(xs),
                                           rtol=1e-9, atol=1e-300, err_msg=f"{ours!r} {m}")
            for m in P_METHODS:
                np.testing.assert_allclose(getattr(ours, m)(ps), getattr(scipys, m)(ps),
                                           rtol=1e-8, err_msg=f"{ours!r} {m}")
            np.testing.assert_allclose(ours.median(), scipys.median(), rtol=1e-8)
            np.testing.assert_equal(ours.support(), scipys.support())
            np.testing.assert_allclose(ours.sample(3, rng=1), scipys.sample(3, rng=1),
                                       rtol=1e-9)


def test_transformed_distributions_are_differentiable():
    cases = [(lambda t, s: s.truncate(s.Normal(), t).logpdf(1.0), 0.5),
             (lambda t, s: s.truncate(s.Normal(mu=0.3, sigma=t), -1.0, 1.0).icdf(0.6), 0.7),
             (lambda t, s: s.exp(s.Normal(mu=0.0, sigma=t)).cdf(2.0), 0.7),
             (lambda t, s: abs(s.Normal(mu=0.3, sigma=t)).icdf(0.6), 0.7),
             (lambda t, s: (s.Uniform(a=1.0, b=t) ** 3).logccdf(2.0), 3.0)]
    for f, t in cases:
        with np.errstate(invalid="ignore"):
            expected = _central(lambda t: f(t, ss), t)
        np.testing.assert_allclose(fg.grad(lambda t: f(t, fst))(t), expected, rtol=1e-6)
    with pytest.raises(NotImplementedError, match="SciPy integrates"):
        fst.exp(fst.Normal()).mean()
    with pytest.raises(NotImplementedError, match="non-negative"):
        fst.log(fst.Normal())
    with pytest.raises(NotImplementedError, match="positive integer"):
        fst.Normal() ** 0.5


# ----- Mixture ------------------------------------------------------------------------

def _mixture(stats, w=0.3, sigma=0.8):
    return stats.Mixture([stats.Normal(mu=-1.0, sigma=sigma), stats.Uniform(a=0.0, b=2.0),
                          stats.Logistic() * 0.5 + 1.0], weights=[w, 0.5, 0.5 - w])


def test_mixture_gives_scipys_values_and_draws():
    ours, scipys = _mixture(fst), _mixture(ss)
    assert repr(ours) == repr(scipys)
    x, p = np.array([-3.0, -0.5, 0.5, 1.5, 4.0]), np.array([0.01, 0.3, 0.5, 0.9])
    for m in X_METHODS:
        np.testing.assert_allclose(getattr(ours, m)(x), getattr(scipys, m)(x), rtol=1e-12,
                                   err_msg=m)
    for m in P_METHODS:  # (both search: to SciPy's tolerance)
        np.testing.assert_allclose(getattr(ours, m)(p), getattr(scipys, m)(p), rtol=1e-9)
    for m in LOGP_METHODS:
        np.testing.assert_allclose(getattr(ours, m)(np.log(p)), getattr(scipys, m)(np.log(p)),
                                   rtol=1e-9)
    np.testing.assert_allclose(ours.cdf(x[:-1], x[1:]), scipys.cdf(x[:-1], x[1:]), rtol=1e-12)
    for m in ("mean", "variance", "standard_deviation", "skewness", "kurtosis", "median"):
        np.testing.assert_allclose(getattr(ours, m)(), getattr(scipys, m)(), rtol=1e-9,
                                   err_msg=m)
    np.testing.assert_equal(ours.support(), scipys.support())
    np.testing.assert_allclose(ours.sample((2, 3), rng=4), scipys.sample((2, 3), rng=4),
                               rtol=1e-12)
    with pytest.raises(NotImplementedError, match="SciPy integrates"):
        ours.entropy()
    with pytest.raises(ValueError, match="sum to 1"):
        fst.Mixture([fst.Normal(), fst.Normal()], weights=[0.5, 0.6])


def test_mixture_is_differentiable_in_weights_and_components():
    for f, t in [(lambda w, s: _mixture(s, w).cdf(0.5), 0.3),
                 (lambda w, s: _mixture(s, w).logpdf(-0.5), 0.3),
                 (lambda w, s: _mixture(s, w).variance(), 0.3),
                 (lambda sig, s: _mixture(s, sigma=sig).icdf(0.3), 0.8),
                 (lambda sig, s: _mixture(s, sigma=sig).sample(5, rng=2).sum(), 0.8)]:
        np.testing.assert_allclose(fg.grad(lambda t: f(t, fst))(t),
                                   _central(lambda t: f(t, ss), t), rtol=1e-6)


def test_order_statistic_gives_scipys_values_and_derivatives():
    def make(stats, sigma=1.3, **kw):
        return stats.order_statistic(stats.Normal(mu=0.2, sigma=sigma), **kw)
    x = np.array([-3.0, -0.5, 0.5, 1.5, 4.0])[:, None]
    p = np.array([0.0, 0.01, 0.3, 0.9, 1.0])[:, None]
    for kw in (dict(r=1, n=1), dict(r=np.array([1.0, 3.0, 5.0, 6.0]), n=5)):
        ours, scipys = make(fst, **kw), make(ss, **kw)
        assert repr(ours) == repr(scipys)
        for m in X_METHODS:  # (SciPy's log(cdf), log(ccdf) lose the far tails: below)
            ours_m, scipys_m = getattr(ours, m)(x), getattr(scipys, m)(x)
            if m in ("logcdf", "logccdf"):
                ours_m, scipys_m = np.exp(ours_m), np.exp(scipys_m)
            np.testing.assert_allclose(ours_m, scipys_m, rtol=1e-11, err_msg=m)
        for m in P_METHODS:
            np.testing.assert_allclose(getattr(ours, m)(p), getattr(scipys, m)(p), rtol=1e-11)
        np.testing.assert_allclose(ours.median(), scipys.median(), rtol=1e-11)
        np.testing.assert_allclose(ours.sample(3, rng=1), scipys.sample(3, rng=1), rtol=1e-11)
    # P(min of 5 > 4) = ccdf(4)**5: log(1 - it) to the last digits
    tail = ss.Normal(mu=0.2, sigma=1.3).ccdf(4.0) ** 5
    np.testing.assert_allclose(make(fst, r=1, n=5).logcdf(4.0), np.log1p(-tail), rtol=1e-13)
    tail = ss.Normal(mu=0.2, sigma=1.3).cdf(-3.0) ** 5  # (P(max of 5 <= -3))
    np.testing.assert_allclose(make(fst, r=5, n=5).logccdf(-3.0), np.log1p(-tail), rtol=1e-13)
    for m, arg in (("logpdf", 0.5), ("cdf", 0.5), ("icdf", 0.3)):
        np.testing.assert_allclose(
            fg.grad(lambda s: getattr(make(fst, s, r=2, n=5), m)(arg))(1.3),
            _central(lambda s: getattr(make(ss, s, r=2, n=5), m)(arg), 1.3), rtol=1e-6)


@pytest.mark.soak  # (importing matplotlib takes seconds: out of the quick run)
def test_plot_draws_each_distribution_of_a_batch():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    ax = fst.Normal(mu=[0.0, 1.0], sigma=[1.0, 2.0]).plot()
    lines = ax.get_lines()
    assert len(lines) == 2
    for line, (mu, sigma) in zip(lines, [(0.0, 1.0), (1.0, 2.0)]):
        x, y = line.get_data()
        np.testing.assert_allclose(y, ss.Normal(mu=mu, sigma=sigma).pdf(x), rtol=1e-13)
    x, _ = fst.Normal().plot(y="cdf", t=(-2.0, 2.0)).get_lines()[-1].get_data()
    assert (x[0], x[-1]) == (-2.0, 2.0)


# ----- Binomial (a DiscreteDistribution) ------------------------------------------------

def test_binomial_gives_scipys_values_draws_and_derivatives():
    x = np.array([-1.0, 0.0, 2.5, 3.0, 5.0, 11.0, 21.0])[:, None]
    p = np.array([0.0, 0.1, 0.5, 0.9999, 1.0])[:, None]
    for kw in (dict(n=np.array([5.0, 20.0, 2.5]), p=np.array([0.9, 0.02, 0.5])),
               dict(n=10.0, p=0.3)):
        ours, scipys = fst.Binomial(**kw), ss.Binomial(**kw)
        assert repr(ours) == repr(scipys)
        xs, ps = (x, p) if ours._shape else (x[:, 0], p[:, 0])
        with np.errstate(divide="ignore"):
            for m in ["pmf", "logpmf", "pdf", "logpdf"] + X_METHODS[2:]:
                np.testing.assert_allclose(getattr(ours, m)(xs), getattr(scipys, m)(xs),
                                           rtol=1e-11, err_msg=m)
        for m in P_METHODS:
            np.testing.assert_array_equal(getattr(ours, m)(ps), getattr(scipys, m)(ps))
        for m in ("mean", "variance", "skewness", "kurtosis", "mode", "median", "entropy"):
            np.testing.assert_allclose(getattr(ours, m)(), getattr(scipys, m)(), rtol=1e-10,
                                       err_msg=m)
        np.testing.assert_allclose(ours.moment(4, "raw"), scipys.moment(4, "raw"), rtol=1e-12)
        np.testing.assert_array_equal(ours.sample(4, rng=3), scipys.sample(4, rng=3))
        np.testing.assert_equal(ours.support(), scipys.support())
    for m in ("logpmf", "cdf", "logccdf"):
        np.testing.assert_allclose(
            fg.grad(lambda q: getattr(fst.Binomial(n=10, p=q), m)(4.0))(0.3),
            _central(lambda q: getattr(ss.Binomial(n=10, p=q), m)(4.0), 0.3), rtol=1e-6,
            atol=1e-9, err_msg=m)
    np.testing.assert_allclose(fg.grad(lambda q: fst.Binomial(n=10, p=q).entropy())(0.3),
                               _central(lambda q: ss.Binomial(n=10, p=q).entropy(), 0.3),
                               rtol=1e-6)
    X = fst.Binomial(n=10, p=0.3)
    for refused in (lambda: X.cdf(1.0, 3.0), lambda: X * 2 + 1, lambda: abs(X),
                    lambda: fst.truncate(X, 1.0, 5.0), lambda: fst.exp(X),
                    lambda: fst.order_statistic(X, r=1, n=2)):
        with pytest.raises(NotImplementedError, match="continuous"):
            refused()


def test_a_family_written_against_scipys_private_classes_subclasses_ours():
    infra = pytest.importorskip("scipy.stats._distribution_infrastructure")

    def family(base):
        class MyExponential(base):
            _rate_param = infra._RealParameter(
                "rate", domain=infra._RealInterval(endpoints=(0, np.inf)))
            _parameterizations = [infra._Parameterization(_rate_param)]
            _variable = infra._RealParameter("x", domain=infra._RealInterval(
                endpoints=(0, np.inf), inclusive=(True, False)))

            def _logpdf_formula(self, x, *, rate, **kwargs):
                return np.log(rate) - rate * x

            def _cdf_formula(self, x, *, rate, **kwargs):
                return -np.expm1(-rate * x)

            def _icdf_formula(self, p, *, rate, **kwargs):
                return -np.log1p(-p) / rate

            def _moment_raw_formula(self, order, *, rate, **kwargs):
                return {1: 1 / rate, 2: 2 / rate ** 2}.get(int(order))
        return MyExponential

    Ours, Scipys = family(fst.ContinuousDistribution), family(infra.ContinuousDistribution)
    ours, scipys = Ours(rate=2.0), Scipys(rate=2.0)
    assert repr(ours) == repr(scipys)
    x, p = np.array([-1.0, 0.0, 0.3, 2.0]), np.array([0.0, 0.3, 0.9])
    for m in X_METHODS:
        np.testing.assert_allclose(getattr(ours, m)(x), getattr(scipys, m)(x), rtol=1e-13)
    for m in ("icdf", "iccdf"):
        np.testing.assert_allclose(getattr(ours, m)(p), getattr(scipys, m)(p), rtol=1e-13)
    np.testing.assert_allclose([ours.mean(), ours.variance()], [0.5, 0.25], rtol=1e-15)
    np.testing.assert_allclose(ours.sample(3, rng=1), scipys.sample(3, rng=1), rtol=1e-13)
    assert fg.grad(lambda r: Ours(rate=r).logpdf(0.3))(2.0) == pytest.approx(0.5 - 0.3)
