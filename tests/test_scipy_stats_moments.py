"""``stats``, ``moment`` and ``expect`` of funcgrad.scipy.stats' univariate distributions:
the values of every family against SciPy's (one parameter point each, SciPy's test points),
the infinite and undefined moments as SciPy's (with NaN derivatives), derivatives in the
shape parameters, ``loc`` and ``scale`` against central differences of SciPy's methods for
families of every kind (closed forms, the generic quadrature and sum, moving supports), and
``expect`` with a user function, bounds and ``conditional``, frozen too.
"""
import math
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.stats as fst
from funcgrad.scipy._distn import DISTRIBUTIONS, rv_discrete

scipy_stats = pytest.importorskip("scipy.stats")
from scipy.stats._distr_params import distcont, distdiscrete  # noqa: E402

POINTS = {}
for _name, _shapes in distcont + distdiscrete:
    POINTS.setdefault(_name, tuple(_shapes))
# (chi(78): SciPy's closed-form kurtosis cancels to 1e-6 there; poisson_binom: a vector)
POINTS.update({"chi": (3.5,), "poisson_binom": ([0.2, 0.5, 0.7],)})

# SciPy's stats(moments='mvsk') at POINTS where SciPy integrates numerically for seconds
# (recorded from SciPy 1.17), and the tolerance each needs: SciPy's quadrature of a kinked
# density (ksone, kstwo) or its cancelling moments (exponpow, johnsonsb) is the looser one
RECORDED = {
    "argus": [0.6187026683551837, 0.05215651254197856, -0.4203979023038257, -0.693893395619499],
    "kappa4": [0.5772156649133174, 1.6449340668314645, 1.1395470990568295, 2.4000000015376184],
    "ksone": [0.019651600275908548, 0.00010726410731619194, 0.6308391605089192,
              0.24380409372365586],
    "kstwo": [0.2591931174132461, 0.006375656177627545, 0.8163737679319614, 0.6994950420382109],
    "kstwobign": [0.8687311606312806, 0.06777320397409947, 0.8604261360712967,
                  0.8816189728572761],
    "powerlognorm": [0.810935038061184, 0.0873939451413348, 0.9800148177842568,
                     1.7355689968543837],
    "recipinvgauss": [2.5871940660171444, 3.587194065907351, 1.8783313855752013,
                      5.580364203211708],
    "vonmises": [0.0, 0.2988042418170117, 0.0, 0.690571532585758],
    "vonmises_line": [0.0, 0.2988042418170127, 0.0, 0.6905715325855919],
}
RTOL = {"ksone": 2e-4, "kstwo": 1e-4, "exponpow": 1e-5, "johnsonsb": 1e-6, "kappa4": 1e-8,
        # SciPy's own figures are the approximate ones here: Wallenius' from BiasedUrn's
        # approximation (the sum over SciPy's own pmf agrees with ours to 1e-12), the
        # studentized range's from a double quadrature (a 1e-13 quad of SciPy's pdf is
        # nearer ours)
        "nchypergeom_wallenius": 5e-5, "studentized_range": 1e-6}


def _close(got, want, rtol, atol=1e-12):
    got, want = np.asarray(got, float), np.asarray(want, float)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(invalid="ignore"):
        return bool(np.all(same | (np.abs(got - want) <= rtol * np.abs(want) + atol)))


def test_stats_of_every_family_match_scipy():
    assert len(DISTRIBUTIONS) >= 125
    bad = []
    for name in sorted(DISTRIBUTIONS):
        ours = DISTRIBUTIONS[name]
        shapes = POINTS[name]
        got = ours.stats(*shapes, moments="mvsk")
        if name in RECORDED:
            want = RECORDED[name]
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = getattr(scipy_stats, name).stats(*shapes, moments="mvsk")
        if not _close(got, want, RTOL.get(name, 1e-7), atol=1e-9):
            bad.append((name, np.asarray(got, float), np.asarray(want, float)))
    assert not bad, bad


@pytest.mark.parametrize("name, shapes", [
    ("t", (2.5,)), ("t", (1.5,)), ("t", (0.8,)), ("pareto", (2.5,)), ("lomax", (1.5,)),
    ("invgamma", (3.5,)), ("f", (3.0, 7.0)), ("cauchy", ()), ("halfcauchy", ()), ("levy", ()),
    ("genextreme", (-0.4,)), ("genpareto", (0.3,)), ("burr", (3.5, 2.0)), ("fisk", (2.5,)),
    ("burr12", (2.0, 1.7)), ("kappa3", (2.5,)), ("nct", (3.5, 0.5)), ("ncf", (3.0, 7.0, 0.5)),
    ("loglaplace", (2.5,)), ("crystalball", (2.0, 2.5)), ("mielke", (2.0, 2.5)),
    ("betaprime", (2.0, 2.5)), ("dpareto_lognorm", (0.2, 0.6, 2.5, 1.5)),
    ("jf_skew_t", (1.7, 3.0)), ("rel_breitwigner", (0.8,)), ("tukeylambda", (-0.3,)),
    ("yulesimon", (2.5,)), ("zipf", (3.5,)), ("betanbinom", (3.0, 2.5, 2.0)),
], ids=lambda v: str(v))
def test_moments_that_do_not_exist_are_scipys_inf_or_nan(name, shapes):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(scipy_stats, name).stats(*shapes, moments="mvsk")
    got = getattr(fst, name).stats(*shapes, moments="mvsk")
    assert _close(got, want, 1e-7), (got, want)
    assert not all(np.isfinite(want))


def test_derivative_of_a_moment_that_does_not_exist_is_nan():
    with np.errstate(invalid="ignore"):
        assert math.isnan(fg.grad(lambda df: fst.t.stats(df, moments="k"))(3.0))
        assert math.isnan(fg.grad(lambda b: fst.pareto.stats(b, moments="v"))(1.5))
        assert math.isnan(fg.grad(lambda s: fst.cauchy.stats(scale=s, moments="m"))(2.0))
        assert math.isnan(fg.grad(lambda c: fst.lomax.moment(3, c, loc=0.5))(2.5))
    # (and a finite one next to it is untouched)
    assert np.isfinite(fg.grad(lambda df: fst.t.stats(df, moments="k"))(5.0))


# families of every kind: closed forms (beta, t, pareto, triang, laplace_asymmetric, nbinom,
# betanbinom; burr12's and lognorm's raw moments), the family's mean and variance with the
# quadrature's skew and kurtosis (skewnorm, weibull_min), a support that moves
# (genextreme, truncexpon), and the discrete sums (betabinom, skellam)
DERIVATIVES = [("skewnorm", (2.5,)), ("beta", (2.3, 1.7)), ("t", (6.5,)), ("pareto", (5.5,)),
               ("weibull_min", (1.7,)), ("genextreme", (-0.15,)), ("truncexpon", (2.5,)),
               ("burr12", (2.5, 3.0)), ("triang", (0.3,)), ("laplace_asymmetric", (0.7,)),
               ("lognorm", (0.6,)), ("betabinom", (8, 2.3, 0.63)), ("nbinom", (4.5, 0.4)),
               ("skellam", (2.5, 1.5)), ("betanbinom", (5, 9.3, 1.5))]


def _params(name, shapes):
    discrete = isinstance(getattr(fst, name), rv_discrete)
    params = list(shapes) + ([0.3] if discrete else [0.3, 1.7])
    fixed = {"betanbinom": 1, "betabinom": 1}.get(name, 0)  # (an integer count is not differentiated)

    def split(p):
        kw = {"loc": p[len(shapes)]}
        if not discrete:
            kw["scale"] = p[len(shapes) + 1]
        return p[:len(shapes)], kw
    return params, range(fixed, len(params)), split


def _central(f, point, i, h):
    up, down = list(point), list(point)
    up[i] += h
    down[i] -= h
    return (f(up) - f(down)) / (2 * h)


@pytest.mark.parametrize("name, shapes", DERIVATIVES, ids=[d[0] for d in DERIVATIVES])
def test_stats_and_moment_derivatives_match_central_differences_of_scipy(name, shapes):
    ours, ref = getattr(fst, name), getattr(scipy_stats, name)
    params, free, split = _params(name, shapes)
    for letter in "mvsk":
        def f(p):
            s, kw = split(p)
            return float(ref.stats(*s, moments=letter, **kw))
        for i in free:
            def g(x, i=i):
                p = list(params)
                p[i] = x
                s, kw = split(p)
                return ours.stats(*s, moments=letter, **kw)
            got = float(fg.grad(g)(float(params[i])))
            want = _central(f, params, i, 1e-5 * max(1.0, abs(params[i])))
            assert abs(got - want) <= 1e-6 * max(abs(want), 1e-2), (letter, i, got, want)
    i = free[0]

    def moment(x, order=3):
        p = list(params)
        p[i] = x
        s, kw = split(p)
        return ours.moment(order, *s, **kw)
    got = float(fg.grad(moment)(float(params[i])))
    want = _central(lambda p: float(ref.moment(3, *split(p)[0], **split(p)[1])), params, i,
                    1e-5 * max(1.0, abs(params[i])))
    assert abs(got - want) <= 1e-6 * max(abs(want), 1e-2), (got, want)


@pytest.mark.parametrize("name, shapes", [("norm", ()), ("gamma", (2.5,)), ("t", (7.5,)),
                                          ("weibull_min", (1.7,)), ("triang", (0.3,)),
                                          ("poisson", (3.5,)), ("binom", (8, 0.35)),
                                          ("pareto", (4.5,)), ("halfcauchy", ())])
def test_moment_matches_scipy_with_loc_and_scale(name, shapes):
    ours, ref = getattr(fst, name), getattr(scipy_stats, name)
    discrete = isinstance(ours, rv_discrete)
    for kw in ({}, {"loc": 0.3} if discrete else {"loc": 0.3, "scale": 1.7}):
        for order in range(6):
            if name in ("pareto", "halfcauchy") and order == 5:
                # (diverges: SciPy's quadrature returns an arbitrary number, -9 or 1e28)
                assert ours.moment(order, *shapes, **kw) == math.inf
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = ref.moment(order, *shapes, **kw)
            got = ours.moment(order, *shapes, **kw)
            assert _close(got, want, 1e-7), (order, kw, got, want)


def test_stats_conventions_and_errors():
    one = fst.gamma.stats(2.0, moments="v")
    assert np.shape(one) == () and float(one) == 2.0
    assert len(fst.gamma.stats(2.0)) == 2 and len(fst.gamma.stats(2.0, moments="sk")) == 2
    # (array parameters broadcast, the quadrature's included)
    a = np.array([1.5, 2.5, 4.0])
    assert _close(fst.gamma.stats(a, moments="k", scale=np.array([[1.0], [2.0]])),
                  scipy_stats.gamma.stats(a, moments="k", scale=np.array([[1.0], [2.0]])), 1e-9)
    assert _close(fst.weibull_min.stats(a, moments="s"), scipy_stats.weibull_min.stats(
        a, moments="s"), 1e-9)
    # (invalid parameters: NaN, as SciPy's)
    assert math.isnan(fst.gamma.stats(-1.0, moments="m"))
    with pytest.raises(ValueError, match="mvsk"):
        fst.norm.stats(moments="x")
    with pytest.raises(ValueError, match="integer"):
        fst.norm.moment(1.5)
    with pytest.raises(ValueError, match="positive"):
        fst.norm.moment(-1)


def test_frozen_stats_and_moment():
    frozen = fst.gamma(2.5, loc=0.3, scale=1.7)
    want = scipy_stats.gamma(2.5, loc=0.3, scale=1.7)
    assert _close(frozen.stats(moments="mvsk"), want.stats(moments="mvsk"), 1e-9)
    assert _close(frozen.moment(3), want.moment(3), 1e-9)
    assert _close(fst.poisson(3.5, loc=2).moment(2), scipy_stats.poisson(3.5, loc=2).moment(2),
                  1e-12)


def square(x):
    return x * x


def step(x):  # (Python control flow: called one point at a time, as SciPy calls it)
    return 1.0 if x > 1.0 else 0.0


@pytest.mark.parametrize("name, shapes, kw", [
    ("norm", (), {}), ("gamma", (2.5,), {"lb": 0.5, "ub": 3.0}),
    ("gamma", (2.5,), {"lb": 0.5, "conditional": True}),
    ("beta", (0.6, 1.7), {"ub": 0.5, "conditional": True}),
    ("t", (5.5,), {"lb": -1.0}), ("expon", (), {"func": step}),
])
def test_continuous_expect_matches_scipy(name, shapes, kw):
    kw = dict(kw)
    func = kw.pop("func", square)
    ours, ref = getattr(fst, name), getattr(scipy_stats, name)
    got = ours.expect(func, shapes, loc=0.3, scale=1.7, **kw)
    want = ref.expect(func, shapes, loc=0.3, scale=1.7, **kw)
    assert _close(got, want, 1e-7), (got, want)  # (both quadratures to epsrel 1.49e-8)


def test_continuous_expect_derivatives_match_central_differences_of_scipy():
    def ours(a, loc, scale, lb):
        return fst.gamma.expect(square, (a,), loc=loc, scale=scale, lb=lb, conditional=True)

    def theirs(p):
        return scipy_stats.gamma.expect(square, (p[0],), loc=p[1], scale=p[2], lb=p[3],
                                        conditional=True)
    point = [2.5, 0.3, 1.7, 2.0]
    grads = fg.grad(ours, argnums=(0, 1, 2, 3))(*point)
    for i, got in enumerate(grads):
        want = _central(theirs, point, i, 1e-4)
        assert abs(float(got) - want) <= 1e-6 * max(abs(want), 1.0), (i, got, want)


@pytest.mark.parametrize("name, shapes, kw", [
    ("poisson", (3.5,), {}), ("poisson", (3.5,), {"lb": 2, "ub": 6, "conditional": True}),
    ("binom", (8, 0.35), {"lb": 3}), ("geom", (0.2,), {"conditional": True, "lb": 4}),
    ("nbinom", (4.5, 0.4), {"maxcount": 40, "chunksize": 8}),
])
def test_discrete_expect_matches_scipy(name, shapes, kw):
    ours, ref = getattr(fst, name), getattr(scipy_stats, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ref.expect(square, shapes, loc=1, **kw)
        got = ours.expect(square, shapes, loc=1, **kw)
    assert _close(got, want, 1e-12), (got, want)


def test_discrete_expect_derivative_and_frozen_expect():
    def ours(mu):
        return fst.poisson.expect(square, (mu,), loc=1, lb=3, conditional=True)
    want = _central(lambda p: scipy_stats.poisson.expect(square, (p[0],), loc=1, lb=3,
                                                         conditional=True), [3.5], 0, 1e-5)
    assert abs(float(fg.grad(ours)(3.5)) - want) <= 1e-7 * abs(want)
    assert _close(fst.norm(0.3, 1.7).expect(square, lb=0.0),
                  scipy_stats.norm(0.3, 1.7).expect(square, lb=0.0), 1e-9)
    assert _close(fst.poisson(3.5, loc=1).expect(square, ub=5),
                  scipy_stats.poisson(3.5, loc=1).expect(square, ub=5), 1e-12)
    with pytest.raises(TypeError, match="maxcount"):
        fst.poisson.expect(square, (3.5,), epsabs=1e-3)
