"""The entropies of the univariate distributions that state none of their own
(funcgrad/scipy/_distn_entropy.py): values against SciPy's (or, where SciPy's integral or sum
stops short, against the true value from mpmath or a closed form), derivatives against
central differences of SciPy's entropy, and the errors where no value or derivative is
offered."""
import math
import warnings

import numpy as np
import pytest
import scipy.integrate as scipy_integrate
import scipy.special as scipy_special
import scipy.stats as scipy_stats

import funcgrad as fg
import funcgrad.scipy.stats as fst
from funcgrad import ConcretizationError


def _theirs(name, shapes, scale=1.0):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        family = getattr(scipy_stats, name)
        if hasattr(family, "pmf"):  # (discrete: no scale)
            return float(family.entropy(*shapes))
        return float(family.entropy(*shapes, scale=scale))


def _central(name, shapes, i, h=1e-4):
    """SciPy's entropy's slope in shape ``i`` (fourth order: SciPy's quad is ~1e-11 noisy)."""
    def at(d):
        s = list(shapes)
        s[i] = s[i] + d
        return _theirs(name, s)
    return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h)


# a representative subset: closed forms, the generic rule (bounded, half-line and
# whole-line supports, heavy tails, moving ends), and the discrete sums
CONTINUOUS = [
    ("alpha", (3.57,)), ("burr12", (10.0, 4.0)), ("exponnorm", (1.5,)),
    ("foldcauchy", (4.7,)), ("genexpon", (9.1, 16.2, 3.3)), ("johnsonsb", (4.3, 3.2)),
    ("kappa4", (-0.1, 0.1)), ("mielke", (10.4, 4.6)), ("powernorm", (4.4,)),
    ("skewnorm", (4.0,)), ("truncnorm", (-1.1, 2.7)), ("truncweibull_min", (2.5, 0.25, 1.75)),
    ("tukeylambda", (3.13,)), ("wrapcauchy", (0.3,)), ("fatiguelife", (0.7,)),
]
DISCRETE = [
    ("binom", (5, 0.4)), ("geom", (0.5,)), ("nbinom", (5, 0.5)), ("logser", (0.6,)),
    ("skellam", (15.0, 8.0)), ("betabinom", (5, 2.3, 0.63)), ("yulesimon", (11.0,)),
]


@pytest.mark.parametrize("name,shapes", CONTINUOUS, ids=lambda v: str(v))
def test_continuous_entropy_and_its_slopes_match_scipy(name, shapes):
    ours = fst.__dict__[name]
    got = ours.entropy(*shapes, loc=0.3, scale=1.7)
    assert float(got) == pytest.approx(_theirs(name, shapes, 1.7), rel=1e-10, abs=1e-12)
    grads = fg.grad(lambda *p: ours.entropy(*p[:-1], loc=0.3, scale=p[-1]),
                    argnums=tuple(range(len(shapes) + 1)))(*map(float, shapes), 1.7)
    for i, g in enumerate(grads[:-1]):
        assert float(g) == pytest.approx(_central(name, shapes, i), rel=1e-6, abs=1e-7), i
    assert float(grads[-1]) == pytest.approx(1 / 1.7, rel=1e-14)  # (+ log(scale))
    # frozen: the same value and slopes
    frozen = fg.grad(lambda s: ours(*shapes[:-1], s, loc=0.3, scale=1.7).entropy())(
        float(shapes[-1]))
    assert float(frozen) == pytest.approx(float(grads[-2]), rel=1e-12)


@pytest.mark.parametrize("name,shapes", DISCRETE, ids=lambda v: str(v))
def test_discrete_entropy_and_its_slopes_match_scipy(name, shapes):
    ours = fst.__dict__[name]
    assert float(ours.entropy(*shapes, loc=2)) == pytest.approx(_theirs_discrete(name, shapes),
                                                                 rel=1e-11)
    real = [i for i, s in enumerate(shapes) if float(s) != int(s) or name in ("geom",)]
    grads = fg.grad(lambda *p: ours.entropy(*p), argnums=tuple(real))(*map(float, shapes))
    for i, g in zip(real, grads):
        assert float(g) == pytest.approx(_central(name, shapes, i, 1e-5), rel=1e-6), i
    assert float(ours(*shapes).entropy()) == pytest.approx(float(ours.entropy(*shapes)),
                                                           rel=1e-15)


def _theirs_discrete(name, shapes):
    return float(getattr(scipy_stats, name).entropy(*shapes, loc=2))


def test_entropies_where_scipy_stops_short_are_the_true_values():
    # kstwobign: mpmath's quad of -f log f with f = 8x sum (-1)**(k-1) k**2 exp(-2 k**2 x**2)
    # (SciPy: 0.0008903223172285771)
    assert float(fst.kstwobign.entropy()) == pytest.approx(0.000890322654402673707, rel=1e-11)
    # zipf: log zeta(a) - a zeta'(a) / zeta(a) (mpmath); SciPy's sum: 0.85895...
    assert float(fst.zipf.entropy(2.7)) == pytest.approx(0.859027219943247164, rel=1e-13)
    # betanbinom: mpmath's nsum of -p log p (SciPy: 1.0548415827077582)
    assert float(fst.betanbinom.entropy(5, 9.3, 1.0)) == pytest.approx(
        1.05484158293054610, rel=1e-13)
    # crystalball: mpmath's quad cut at the kink -beta (SciPy: 1.502838180880596)
    assert float(fst.crystalball.entropy(2.0, 3.0)) == pytest.approx(1.50283818090978466,
                                                                     rel=1e-12)
    # truncnorm with an infinite end, or far in a tail: SciPy's closed form is NaN there
    assert float(fst.truncnorm.entropy(-np.inf, np.inf)) == pytest.approx(
        0.5 * math.log(2 * math.pi * math.e), rel=1e-14)
    want = scipy_integrate.quad(lambda x: scipy_special.entr(scipy_stats.truncnorm.pdf(
        x, -np.inf, 1.0)), -40, 1.0, epsabs=1e-14, points=[0.0])[0]
    assert float(fst.truncnorm.entropy(-np.inf, 1.0)) == pytest.approx(want, rel=1e-12)
    assert math.isfinite(float(fst.truncnorm.entropy(30.0, 31.0)))
    # geom at p = 1: all the mass at 1 (SciPy: NaN)
    assert float(fst.geom.entropy(1.0)) == 0.0


def test_power_tailed_sums_reach_their_limit():
    """yulesimon(1.5): the sum to 5e7 terms plus the same tail estimate (numpy) agrees."""
    a = 1.5
    total, k = 0.0, None
    for start in range(1, 5_000_001, 1_000_000):
        k = np.arange(start, start + 1_000_000, dtype=float)
        lp = math.log(a) + scipy_special.betaln(k, a + 1)
        total += float(np.sum(-np.exp(lp) * lp))
    last = k[-1]
    lp_last = math.log(a) + scipy_special.betaln(last, a + 1)
    half = math.floor(last / 2)
    s = (math.log(a) + scipy_special.betaln(half, a + 1) - lp_last) / math.log(last / half)
    log_c, log_l = lp_last + s * math.log(last), math.log(last + 0.5)
    total += math.exp(log_c + (1 - s) * log_l) / (s - 1) * (s * log_l + s / (s - 1) - log_c)
    assert float(fst.yulesimon.entropy(a)) == pytest.approx(total, rel=1e-11)


def test_kinked_densities_are_integrated_piece_by_piece():
    """crystalball's slope in beta against a central difference of SciPy's integral cut at
    -beta; irwinhall(3) against SciPy's integral cut at the integers."""
    def cut(beta, m):
        f = lambda x: scipy_special.entr(scipy_stats.crystalball.pdf(x, beta, m))  # noqa
        kw = dict(epsabs=1e-14, epsrel=1e-13, limit=200)
        return (scipy_integrate.quad(f, -np.inf, -beta, **kw)[0]
                + scipy_integrate.quad(f, -beta, 0.0, **kw)[0]
                + scipy_integrate.quad(f, 0.0, np.inf, **kw)[0])
    h = 1e-4
    fd = (cut(1.5 + h, 2.5) - cut(1.5 - h, 2.5)) / (2 * h)
    assert float(fg.grad(fst.crystalball.entropy)(1.5, 2.5)) == pytest.approx(fd, rel=1e-6)
    assert float(fst.crystalball.entropy(1.5, 2.5)) == pytest.approx(cut(1.5, 2.5), rel=1e-10)
    want = sum(scipy_integrate.quad(lambda x: scipy_special.entr(scipy_stats.irwinhall.pdf(
        x, 3)), j, j + 1, epsabs=1e-14)[0] for j in range(3))
    assert float(fst.irwinhall.entropy(3)) == pytest.approx(want, rel=1e-11)


def test_kolmogorov_smirnov_families_use_scipys_integral_cut_at_the_kinks():
    def cut(n):
        ends = [0.5 / n] + [j / (2 * n) for j in range(2, 2 * n)] + [1.0]
        return sum(scipy_integrate.quad(lambda x: scipy_special.entr(
            scipy_stats.kstwo.pdf(x, n)), lo, hi, epsabs=1e-13, epsrel=1e-12)[0]
            for lo, hi in zip(ends[:-1], ends[1:]))
    assert float(fst.kstwo.entropy(3)) == pytest.approx(cut(3), rel=1e-12)
    assert float(fst.ksone.entropy(3, scale=2.0)) == pytest.approx(
        _theirs("ksone", (3,), 2.0), rel=1e-10)
    assert float(fg.grad(lambda s: fst.kstwo.entropy(3, scale=s))(2.0)) == 0.5
    with pytest.raises(ValueError, match="kstwo.entropy.*n"):
        fg.grad(fst.kstwo.entropy)(3.0)


def test_landau_and_a_family_of_scipys_values():
    assert float(fst.landau.entropy(scale=2.0)) == pytest.approx(_theirs("landau", (), 2.0),
                                                                 rel=1e-15)
    with pytest.raises(NotImplementedError, match="studentized_range.entropy.*k"):
        fg.grad(lambda k: fst.studentized_range.entropy(k, 10.0))(3.0)


def test_what_raises_says_why():
    with pytest.raises(NotImplementedError, match="levy_stable.entropy.*SciPy"):
        fst.levy_stable.entropy(1.8, -0.5)
    with pytest.raises(ValueError, match="binom.*count n"):
        fg.grad(lambda n: fst.binom.entropy(n, 0.3))(5.0)
    with pytest.raises(ConcretizationError, match="alpha.entropy.*outside jit and vmap"):
        fg.vmap(fst.alpha.entropy)(np.array([3.5, 2.0]))


def test_arrays_nan_and_float32():
    shapes = np.array([3.5, 2.0, -1.0])
    np.testing.assert_allclose(fst.alpha.entropy(shapes), scipy_stats.alpha.entropy(shapes),
                               rtol=1e-9)  # (SciPy's quad: 5e-11 off at alpha(2))
    assert np.isnan(fst.skewnorm.entropy(1.0, scale=-1.0))
    assert fst.wrapcauchy.entropy(np.float32(0.5)).dtype == np.float32
    assert fst.exponnorm.entropy(np.float32(1.5)).dtype == np.float32
    np.testing.assert_allclose(fst.nbinom.entropy(np.array([2.0, 5.0]), 0.4),
                               scipy_stats.nbinom.entropy(np.array([2.0, 5.0]), 0.4),
                               rtol=1e-12)


@pytest.mark.soak
def test_every_family_at_scipys_example_parameters():
    """Every family of the task at SciPy's own example parameters: values within 1e-8 of
    SciPy's (except where SciPy's stops short: the true values above), slopes within 1e-5 of
    SciPy's central differences."""
    from scipy.stats._distr_params import distcont, distdiscrete
    names = {"argus", "burr", "dpareto_lognorm", "exponpow", "exponweib", "gausshyper",
             "genhyperbolic", "geninvgauss", "jf_skew_t", "johnsonsu", "kappa3", "ksone",
             "ncf", "nct", "ncx2", "powerlognorm", "recipinvgauss", "rel_breitwigner", "rice",
             "nchypergeom_wallenius"}
    for name, shapes in distcont + distdiscrete:
        if name not in names:
            continue
        ours = getattr(fst, name)
        assert float(ours.entropy(*shapes)) == pytest.approx(_theirs(name, shapes), rel=1e-8,
                                                             abs=1e-10), name
