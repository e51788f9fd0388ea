"""mean/var/std of the stats families that had none (through their moments), the quantiles
of vonmises, betanbinom's tails and quantiles, dgamma's slopes at z = 0 and q = 1/2, and the
kink-split moments of ksone/kstwo and the fast studentized_range moments.

Expected values are SciPy 1.17's (recorded below where SciPy's own take seconds: the
``SCIPY`` table holds ``stats(..., moments="mv")`` at the arguments and the central
differences, step ``1e-4 max(1, |p|)``, of SciPy's ``stats`` in each real parameter), or
closed forms, or mpmath; the ksone/kstwo references are ``scipy.integrate.quad`` of
SciPy's own survival functions split at every kink (SciPy's ``stats`` there are off by
up to 2e-5, its unsplit quadrature of the kinked density).
"""
import math
import warnings

import numpy as np
import pytest
import scipy.stats as ss

import funcgrad as fg
import funcgrad.scipy.stats as fst

INF, NAN = math.inf, math.nan

# name -> (shapes + loc (+ scale), SciPy's (mean, var), [(d mean, d var) per real parameter])
SCIPY = {
    'crystalball': ((2.0, 3.0, 0.3, 1.7), (0.15345020169843898, INF),
        [(0.38775454336080484, NAN), (0.10612228889183191, -INF), (0.9999999999998899, NAN), (-0.08620576370684872, NAN)]),
    'exponpow': ((2.697119160358469, 0.3, 1.7), (1.6025796213454953, 0.1705217023701844),
        [(0.10189256967779087, -0.07839978006440045), (0.9999999999998899, 0.0), (0.7662233066742159, 0.20061376749438156)]),
    'exponweib': ((2.8923945291034436, 1.9505288745913174, 0.3, 1.7), (2.4884810664572927, 0.5236441430200014),
        [(0.21131354239655706, -0.046666217091460314), (-0.34456202268528313, -0.689175283290115), (0.9999999999998899, 0.0), (1.2873418037978264, 0.616051932965133)]),
    'genexpon': ((9.13259764654189, 16.23195660059063, 3.2819552690843983, 0.3, 1.7), (0.4391986410622689, 0.013724049832089314),
        [(-0.009735385765119745, -0.0014619213039788904), (-0.0016870611510263489, -0.0004929537705379459), (-0.006979064319377641, -0.0018572332604573918), (0.9999999999998899, 0.0), (0.08188155356623467, 0.01614594097892681)]),
    'genhalflogistic': ((0.7727472780992932, 0.3, 1.7), (1.500160159664418, 0.36008721199989835),
        [(-0.7888722863080844, -0.7934739773049482), (0.9999999999998899, 0.0), (0.705976564508535, 0.4236320141177239)]),
    'gompertz': ((0.9474371307510525, 0.3, 1.7), (1.351320489969149, 0.5380098838690148),
        [(-0.7429938231851008, -0.5672648926752233), (0.9999999999998899, 0.0), (0.6184238176292994, 0.6329528045516805)]),
    'johnsonsb': ((4.317267509914106, 3.1837781130785063, 0.3, 1.7), (0.6561852519376148, 0.007689869349876929),
        [(-0.08701410498577757, -0.002676133427439183), (0.11316107407267544, -0.0012653373260556424), (0.9999999999998899, 0.0), (0.20952073643407282, 0.00904690511750208)]),
    'kappa4': ((0.5, 0.1, 0.3, 1.7), (1.5249793392925646, 2.6440448164619874),
        [(0.7103738041402963, -1.6763455155888174), (-1.3313620248389668, -7.548369254071208), (0.9999999999998899, 0.0), (0.7205760819368614, 3.11064096054375)]),
    'kappa3': ((3.5, 0.3, 1.7), (1.8356277991990633, 1.934413111403139),
        [(-0.2282658644300487, -1.5421074116564857), (0.9999999999998899, 0.0), (0.9033104701173995, 2.275780131062966)]),
    'powerlognorm': ((2.1413923530064087, 0.44639540782048337, 0.3, 1.7), (1.678589564704013, 0.2525685014584576),
        [(-0.22874447686040839, -0.15340074857151326), (-0.45146293150000183, 1.0103972048211562), (0.9999999999998899, 0.0), (0.8109350380608121, 0.29713941348067957)]),
    'powernorm': ((4.445365225459078, 0.3, 1.7), (-1.5588443537950034, 1.3582919903992556),
        [(-0.22921163829775257, -0.12908878681323874), (0.9999999999998899, 0.0), (-1.0934378551740633, 1.5979905769403222)]),
    'vonmises': ((3.99390425810714, 0.3, 1.7), (0.29999999999999977, 0.8635442588511637),
        [(-1.389896893962266e-13, -0.27356273069200115), (0.9999999999998899, 0.0), (0.0, 1.0159344221778313)]),
    'vonmises_line': ((3.99390425810714, 0.3, 1.7), (0.30000000000000027, 0.8635442588511667),
        [(-1.389896893962266e-13, -0.2735627306924181), (0.9999999999998899, 0.0), (0.0, 1.0159344221781577)]),
    'wrapcauchy': ((0.031071279018614728, 0.3, 1.7), (5.640707511102648, 9.869732184826205),
        [(0.0, 11.743401011923282), (0.9999999999976694, 0.0), (3.1415926535902243, 11.611449629204715)]),
    'nchypergeom_wallenius': ((140, 80, 60, 0.5, 0.3), (26.94903874100567, 8.208241761190717),
        [(21.672253617559534, 1.8308135162392603), (0.9999999999976694, 0.0)]),
}

COUNTS = {"nchypergeom_wallenius": 3}  # (leading integer counts: no derivative)


@pytest.mark.parametrize("name", sorted(SCIPY))
def test_mean_var_std_are_scipys(name):
    args, (m, v), _ = SCIPY[name]
    d = getattr(fst, name)
    np.testing.assert_allclose([d.mean(*args), d.var(*args)], [m, v], rtol=2e-8, atol=1e-12)
    np.testing.assert_allclose(d.std(*args), math.sqrt(v), rtol=2e-8)
    frozen = d(*args)
    np.testing.assert_allclose([frozen.mean(), frozen.var(), frozen.std()],
                               [m, v, math.sqrt(v)], rtol=2e-8, atol=1e-12)


@pytest.mark.parametrize("name", sorted(SCIPY))
def test_mean_var_derivatives_match_central_differences_of_scipy(name):
    args, _, grads = SCIPY[name]
    d = getattr(fst, name)
    first = COUNTS.get(name, 0)
    for i, expected in zip(range(first, len(args)), grads):
        for method, want in zip((d.mean, d.var), expected):
            def f(p, method=method, i=i):
                return method(*args[:i], p, *args[i + 1:])
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                got = float(fg.grad(f)(float(args[i])))
            if not math.isfinite(want):  # (a variance that diverges: no derivative)
                assert math.isnan(got), (name, i, got)
                continue
            # (nchypergeom_wallenius: its masses' slopes in odds, tanh-sinh's, are good to
            # ~1e-6 in the tails, 3e-5 on the variance after its cancellation)
            rtol = 5e-5 if name == "nchypergeom_wallenius" else 2e-5
            np.testing.assert_allclose(got, want, rtol=rtol, atol=2e-8, err_msg=f"{name} {i}")


def test_mean_var_without_a_finite_moment_are_scipys():
    assert np.isnan([fst.landau.mean(), fst.landau.var(0.3, 2.0)]).all()
    assert (fst.levy_stable.mean(1.8, -0.5, 0.3, 2.0), fst.levy_stable.var(1.8, -0.5)) == (
        0.3, INF)
    assert np.isnan([fst.kappa3.mean(1.0), fst.kappa4.var(-0.1, 0.1)]).all()


# quad of SciPy's sf split at every kink, and SciPy's own stats (its unsplit quadrature)
KS = {("ksone", 10): ((0.183010784, 0.010406693473038676),
                      (0.1830107839248933, 0.010406693552479349)),
      ("kstwo", 10): ((0.259193114905, 0.006375655442845372),
                      (0.2591931174132461, 0.006375656177627545))}


@pytest.mark.parametrize("name, n", sorted(KS))
def test_kolmogorov_smirnov_moments_split_at_the_kinks(name, n):
    (m, v), scipys = KS[(name, n)]
    d = getattr(fst, name)
    np.testing.assert_allclose([d.mean(n), d.var(n)], [m, v], rtol=1e-13)
    np.testing.assert_allclose(d.stats(n, moments="mv"), scipys, rtol=2e-7)
    np.testing.assert_allclose(fg.grad(lambda s: d.std(n, 0.3, s))(2.0), math.sqrt(v),
                               rtol=1e-13)
    np.testing.assert_allclose(fg.grad(lambda loc: d(n, loc, 2.0).mean())(0.3), 1.0)
    with pytest.raises(ValueError, match="integer count"):
        fg.grad(lambda k: d.mean(k))(float(n))


def test_ksone_moments_at_scipys_test_point_and_array_n():
    # quad of SciPy's smirnov split at every kink (52 s): mean, var, skew, kurtosis
    want = (0.019651606463089052, 0.00010726382793217954, 0.6308480257268902,
            0.2437972624143927)
    np.testing.assert_allclose(fst.ksone.stats(1000, moments="mvsk"), want, rtol=1e-12)
    means = fst.ksone.mean([3.0, 10.0, 2.5])
    np.testing.assert_allclose(means[1], KS[("ksone", 10)][0][0], rtol=1e-13)
    assert np.isnan(means[2])  # (n not an integer: invalid, as SciPy's)


def test_studentized_range_moments():
    # SciPy's (its triple integral, 9 s)
    np.testing.assert_allclose(fst.studentized_range.stats(3.0, 10.0),
                               (1.8342745127993187, 1.2029203695478272), rtol=1e-10)
    # k = 2: R = sqrt(2)|Z|, E[R**j] = 2**j Gamma((j+1)/2) / sqrt(pi), times E[(V/df)**-j/2]
    df = 7.0
    for j in (1, 2, 3):
        closed = 2.0 ** j * math.gamma((j + 1) / 2) / math.sqrt(math.pi) * (df / 2) ** (
            j / 2) * math.gamma((df - j) / 2) / math.gamma(df / 2)
        np.testing.assert_allclose(fst.studentized_range.moment(j, 2.0, df), closed,
                                   rtol=1e-12)
    assert fst.studentized_range.var(3.0, 1.5) == INF  # (df <= 2: E[Q**2] diverges)
    # central differences (h = 1e-4) of SciPy's mean and var(..., 0.3, 1.7)
    np.testing.assert_allclose(fg.grad(lambda k: fst.studentized_range.mean(k, 10.0))(3.0),
                               0.47644853709671864, rtol=1e-7)
    np.testing.assert_allclose(fg.grad(lambda d: fst.studentized_range.mean(3.0, d))(10.0),
                               -0.015817629723802185, rtol=1e-7)
    np.testing.assert_allclose(fg.grad(lambda k: fst.studentized_range.var(
        k, 10.0, 0.3, 1.7))(3.0), 0.3340988015976265, rtol=1e-6)


def _central(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


@pytest.mark.parametrize("kappa", [3.99390425810714, 0.0, 0.7, 60.0])
def test_vonmises_quantiles_are_scipys(kappa):
    q = np.array([0.0, 1e-9, 0.01, 0.3, 0.5, 0.8, 1.0, 1.3])
    for method in ("ppf", "isf"):
        np.testing.assert_allclose(getattr(fst.vonmises, method)(q, kappa, 0.2, 1.3),
                                   getattr(ss.vonmises, method)(q, kappa, 0.2, 1.3),
                                   rtol=1e-9, atol=5e-9)  # (SciPy's isf: ppf(1 - q))
    assert fst.vonmises.median(kappa, 1.0, 2.0) == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(fst.vonmises(kappa).interval(0.4),
                               ss.vonmises(kappa).interval(0.4), rtol=1e-9, atol=1e-12)


def test_vonmises_quantile_derivatives_match_central_differences_of_scipy():
    args = (2.0, 0.2, 1.3)
    for method in ("ppf", "isf"):
        ours, theirs = getattr(fst.vonmises, method), getattr(ss.vonmises, method)
        for i in range(3):
            def f(p, i=i):
                return ours(0.3, *args[:i], p, *args[i + 1:])

            def g(p, i=i):
                return theirs(0.3, *args[:i], p, *args[i + 1:])
            np.testing.assert_allclose(fg.grad(f)(args[i]), _central(g, args[i]), rtol=1e-6)
        np.testing.assert_allclose(fg.grad(lambda q: ours(q, *args))(0.8),
                                   _central(lambda q: theirs(q, *args), 0.8), rtol=1e-6)


BNB = [(5, 9.3, 1.0), (1, 2.5, 3.0), (3, 0.7, 2.0), (40, 3.0, 0.5)]


@pytest.mark.parametrize("shapes", BNB)
def test_betanbinom_tails_and_quantiles_are_scipys(shapes):
    k = np.array([-1.0, 0.0, 1.0, 2.5, 10.0, 50.0, INF])
    with np.errstate(divide="ignore"):
        # (logsf looser: SciPy's sf is 1 - cdf, good to 1e-16 absolutely, not relatively)
        for method, rtol in (("cdf", 1e-10), ("sf", 1e-10), ("logcdf", 1e-10), ("logsf", 1e-7)):
            np.testing.assert_allclose(getattr(fst.betanbinom, method)(k, *shapes, loc=0.0),
                                       getattr(ss.betanbinom, method)(k, *shapes),
                                       rtol=rtol, atol=1e-14)
    q = np.array([0.0, 0.01, 0.3, 0.5, 0.9, 0.999, 1.0])
    for method in ("ppf", "isf"):
        np.testing.assert_array_equal(getattr(fst.betanbinom, method)(q, *shapes),
                                      getattr(ss.betanbinom, method)(q, *shapes))
    assert fst.betanbinom.median(*shapes) == ss.betanbinom.median(*shapes)
    assert fst.betanbinom(*shapes).interval(0.5) == ss.betanbinom(*shapes).interval(0.5)


def test_betanbinom_far_tail_keeps_its_accuracy():
    # mpmath (60 digits): 1 - the sum of the masses 0..k; for n = 1 (a geometric count
    # with p ~ beta(a, b)) E[(1 - p)**(k + 1)] = B(a, b + k + 1) / B(a, b).  SciPy's 1 - cdf
    # gives 0 and 0 for the first and last
    for (k, *shapes), want in (((400, 5, 9.3, 1.0), 2.8467781838094508e-16),
                               ((5000, 3, 0.7, 2.0), 0.0091196386619392811),
                               ((10 ** 6, 1, 2.5, 3.0), 2.617107810963136e-14)):
        # (1e-9: SciPy's betaln(2.5, 1e6) itself is 9e-10 off, in both)
        np.testing.assert_allclose(fst.betanbinom.sf(k, *shapes), want, rtol=1e-9)


def test_betanbinom_derivatives_match_central_differences_of_scipy():
    base = [5, 2.3, 1.7]
    for i in (1, 2):
        for method, k in (("cdf", 7), ("sf", 3), ("logcdf", 20)):
            def f(p, i=i, method=method, k=k):
                return getattr(fst.betanbinom, method)(k, *base[:i], p, *base[i + 1:])

            def g(p, i=i, method=method, k=k):
                return getattr(ss.betanbinom, method)(k, *base[:i], p, *base[i + 1:])
            np.testing.assert_allclose(fg.grad(f)(base[i]), _central(g, base[i]), rtol=1e-6)
    np.testing.assert_allclose(fg.grad(lambda b: fst.betanbinom(5, 2.3, b).sf(7))(1.7),
                               -_central(lambda b: ss.betanbinom.cdf(7, 5, 2.3, b), 1.7),
                               rtol=1e-6)


def test_dgamma_slopes_at_its_centre():
    # the pdf at z = 0 is 0 for every a > 1, the median loc for every a: slopes 0
    assert fg.grad(lambda a: fst.dgamma.pdf(0.3, a, 0.3, 1.7))(1.1) == 0.0
    for f in (lambda a: fst.dgamma.ppf(0.5, a, 0.3, 1.7),
              lambda a: fst.dgamma.isf(0.5, a, 0.3, 1.7),
              lambda a: fst.dgamma.median(a, 0.3, 1.7),
              lambda a: fst.dgamma(a, 0.3, 1.7).median()):
        assert fg.grad(f)(1.1) == 0.0 and fg.jvp(f, (2.5,), (1.0,))[1] == 0.0
    # the slope in q there is 1/pdf(0): 2 scale at a = 1
    assert fg.grad(lambda q: fst.dgamma.ppf(q, 1.0, 0.3, 1.7))(0.5) == pytest.approx(3.4)
    x, q = np.array([-2.0, 0.0, 1e-300, 0.5]), np.array([0.0, 0.1, 0.5, 0.7, 1.0])
    for a in (0.7, 1.0, 1.1, 2.5):
        with np.errstate(divide="ignore"):
            np.testing.assert_allclose(fst.dgamma.logpdf(x, a), ss.dgamma.logpdf(x, a),
                                       rtol=1e-13)
        np.testing.assert_allclose(fst.dgamma.ppf(q, a), ss.dgamma.ppf(q, a), rtol=1e-13)
    # elsewhere the slopes are unchanged: central differences of SciPy's
    np.testing.assert_allclose(fg.grad(lambda a: fst.dgamma.ppf(0.7, a, 0.3, 1.7))(1.3),
                               _central(lambda a: ss.dgamma.ppf(0.7, a, 0.3, 1.7), 1.3),
                               rtol=1e-6)
    np.testing.assert_allclose(fg.grad(lambda a: fst.dgamma.pdf(-0.7, a, 0.3, 1.7))(1.3),
                               _central(lambda a: ss.dgamma.pdf(-0.7, a, 0.3, 1.7), 1.3),
                               rtol=1e-6)
