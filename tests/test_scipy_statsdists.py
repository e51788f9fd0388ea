"""The distributions of funcgrad.scipy.stats added after the first sets (``chi``,
``genextreme``, ``burr12``, ``zipf``, ...): every method each one offers against SciPy's
values, its derivatives in ``x``, the shape parameters, ``loc`` and ``scale`` against
central differences of SciPy's values, and the methods it does not offer raise
NotImplementedError.  One table row per distribution, a few points each; one jit, vmap
and float32 check over a handful of them.
"""
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.stats as fst

scipy_stats = pytest.importorskip("scipy.stats")

LOC, SCALE = 0.3, 1.7
METHODS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")
SUMMARIES = ("mean", "var", "entropy")
CDF = {"cdf", "logcdf", "sf", "logsf", "ppf", "isf"}  # (all missing where the CDF is)
QUANTILES = {"ppf", "isf"}

# name, shape parameters, the methods funcgrad does not offer (SciPy's are numerical
# integrals or root searches, or need a special function funcgrad lacks)
CONTINUOUS = [
    ("genextreme", (0.2,), set()), ("genextreme", (-0.3,), set()),
    ("genextreme", (0.0,), set()),  # (the Gumbel limit: differentiable through c = 0)
    ("genpareto", (0.3,), set()), ("genpareto", (-0.2,), set()), ("genpareto", (0.0,), set()),
    ("triang", (0.45,), set()), ("trapezoid", (0.2, 0.7), set()), ("weibull_max", (1.7,), set()),
    ("truncexpon", (2.5,), set()), ("dweibull", (1.6,), set()), ("fisk", (3.5,), set()),
    ("burr", (4.5, 1.5), set()), ("burr12", (2.5, 3.0), set()),
    ("levy", (), set()), ("levy_l", (), set()), ("loguniform", (0.5, 4.0), set()),
    ("reciprocal", (0.5, 4.0), set()), ("powerlaw", (1.7,), set()), ("arcsine", (), set()),
    ("anglit", (), set()), ("bradford", (1.3,), set()), ("cosine", (), set()),
    ("semicircular", (), set()), ("halflogistic", (), set()), ("hypsecant", (), set()),
    ("gompertz", (0.8,), set()), ("genlogistic", (1.8,), set()),
    ("exponweib", (2.2, 1.3), set()), ("exponpow", (1.6,), set()),
    ("moyal", (), set()), ("kappa3", (1.4,), set()),
    ("alpha", (1.5,), set()), ("crystalball", (1.5, 2.5), set()),
    ("foldcauchy", (0.7,), set()),
    ("chi", (3.5,), set()), ("maxwell", (), set()), ("nakagami", (1.3,), set()),
    ("erlang", (3,), set()), ("gengamma", (1.5, 1.7), set()), ("gengamma", (3.5, -1.3), set()),
    ("loggamma", (1.6,), set()), ("betaprime", (2.5, 3.5), set()),
    ("invgauss", (0.6,), set()), ("wald", (), set()),
    ("exponnorm", (1.3,), set()),
    ("skewnorm", (2.5,), set()), ("skewnorm", (-1.5,), set()),
    ("foldnorm", (0.9,), set()), ("rice", (1.2,), set()),
]


# families whose mean and var both SciPy and funcgrad integrate numerically
NUMERICAL_MOMENTS = {"gompertz", "exponweib", "exponpow", "kappa3", "crystalball"}

def _rel_close(got, want, rtol):
    got, want = np.asarray(got, float), np.asarray(want, float)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(invalid="ignore"):  # (inf - inf where both are inf: same already)
        return bool(np.all(same | (np.abs(got - want) <= rtol * np.abs(want))))


def _row_id(row):
    return f"{row[0]}{row[1]}"


@pytest.mark.parametrize("row", CONTINUOUS, ids=_row_id)
def test_continuous_values_and_derivatives_match_scipy(row):
    name, shapes, missing = row
    ours, ref = getattr(fst, name), getattr(scipy_stats, name)
    xs = LOC + SCALE * ref.ppf(np.array([0.02, 0.3, 0.6, 0.93]), *shapes)
    qs = np.array([0.01, 0.2, 0.5, 0.8, 0.99])
    for method in METHODS:
        arg = qs if method in QUANTILES else xs
        if method in missing:
            with pytest.raises(NotImplementedError, match=name):
                getattr(ours, method)(arg, *shapes, loc=LOC, scale=SCALE)
            continue
        got = getattr(ours, method)(arg, *shapes, loc=LOC, scale=SCALE)
        want = getattr(ref, method)(arg, *shapes, loc=LOC, scale=SCALE)
        assert _rel_close(got, want, 1e-12), (method, got, want)
    for method in SUMMARIES:
        if method in missing:
            with pytest.raises(NotImplementedError, match=name):
                getattr(ours, method)(*shapes, loc=LOC, scale=SCALE)
            continue
        got = getattr(ours, method)(*shapes, loc=LOC, scale=SCALE)
        want = getattr(ref, method)(*shapes, loc=LOC, scale=SCALE)
        # (SciPy's moments and entropies are other closed forms of the same values; the
        # moments both sides integrate numerically, SciPy's quad good to ~1e-10)
        numerical = method != "entropy" and name in NUMERICAL_MOMENTS
        assert _rel_close(got, want, 1e-8 if numerical else 1e-10), (method, got, want)
        # (its slopes in the shapes, one reverse pass; SciPy's genextreme moments lose
        # digits by c = 0: those are checked against their Taylor series below)
        # (crystalball's entropy: SciPy's quad does not cut at the kink -beta, its values
        # move by 3e-9 with beta: the slope is checked in tests/test_distn_entropy.py)
        if (name, method) == ("crystalball", "entropy"):
            continue
        if shapes and np.isfinite(want) and (name, shapes) != ("genextreme", (0.0,)):
            grads = fg.grad(lambda *s: getattr(ours, method)(*s), argnums=tuple(
                range(len(shapes))))(*map(float, shapes))
            for i, g in enumerate(grads):
                up, down = list(shapes), list(shapes)
                up[i], down[i] = up[i] + 1e-4, down[i] - 1e-4
                fd = (getattr(ref, method)(*up) - getattr(ref, method)(*down)) / 2e-4
                assert abs(g - fd) <= 1e-5 * max(1.0, abs(fd)), (method, i, g, fd)

    # d/dx (or dq), d/dshapes, d/dloc, d/dscale in one reverse pass per method
    params = [float(s) for s in shapes] + [LOC, SCALE]
    for method, at in (("logpdf", xs[1]), ("cdf", xs[2]), ("ppf", 0.3)):
        if method in missing:
            continue

        def f(v, *p):
            return getattr(ours, method)(v, *p[:-2], loc=p[-2], scale=p[-1])
        grads = fg.grad(f, argnums=tuple(range(len(params) + 1)))(float(at), *params)
        point = [float(at)] + params
        for i, g in enumerate(grads):
            h = 1e-6 * max(1.0, abs(point[i]))
            up, down = list(point), list(point)
            up[i] += h
            down[i] -= h

            def theirs(p):
                return getattr(ref, method)(p[0], *p[1:-2], loc=p[-2], scale=p[-1])
            fd = (theirs(up) - theirs(down)) / (2 * h)
            assert abs(g - fd) <= 1e-6 * max(1.0, abs(fd)), (method, i, g, fd)


DISCRETE = [
    ("randint", (-2, 5), set()), ("hypergeom", (20, 7, 12), set()),
    ("zipf", (2.7,), set()), ("zipfian", (1.3, 9), set()),
    ("zipfian", (0.6, 9), set()), ("logser", (0.6,), set()),
    ("boltzmann", (0.7, 8), set()), ("planck", (0.6,), set()), ("dlaplace", (0.8,), set()),
    ("yulesimon", (2.6,), set()),
    ("yulesimon", (1.5,), set()),  # (infinite variance: the quantiles' own bound)
    ("betanbinom", (5.0, 3.5, 2.0), set()),
    # (skellam, whose CDF came in session 23: tests/test_scipy_stats_dists2.py)
]
DISCRETE = [(n, s, set(m)) for n, s, m in DISCRETE]


@pytest.mark.parametrize("row", DISCRETE, ids=_row_id)
def test_discrete_values_and_derivatives_match_scipy(row):
    name, shapes, missing = row
    ours, ref = getattr(fst, name), getattr(scipy_stats, name)
    loc = 2.0
    ks = loc + np.array([-3.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 7.0, 11.0])
    qs = np.array([0.0, 0.05, 0.3, 0.5, 0.77, 0.98, 1.0])
    for method in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf"):
        arg = qs if method in QUANTILES else ks
        if method in missing:
            with pytest.raises(NotImplementedError, match=name):
                getattr(ours, method)(arg, *shapes, loc=loc)
            continue
        got = getattr(ours, method)(arg, *shapes, loc=loc)
        want = getattr(ref, method)(arg, *shapes, loc=loc)
        assert _rel_close(got, want, 1e-12), (method, got, want)
    for method in SUMMARIES:
        if method in missing:
            with pytest.raises(NotImplementedError, match=name):
                getattr(ours, method)(*shapes, loc=loc)
            continue
        got, want = getattr(ours, method)(*shapes, loc=loc), getattr(ref, method)(*shapes, loc=loc)
        if method == "entropy" and name in ("zipf", "yulesimon", "betanbinom"):
            # (masses falling as a power of k: SciPy's sum stops short, 7e-4 off at
            # yulesimon(1.5); the true values are checked in tests/test_distn_entropy.py)
            continue
        assert _rel_close(got, want, 1e-10), (method, got, want)
    real = [i for i, s in enumerate(shapes) if float(s) != int(s)]
    for method in ("logpmf", "cdf"):
        if method in missing or not real or name == "zipf":
            continue
        grads = fg.grad(lambda *p: getattr(ours, method)(loc + 2.0, *p, loc=loc),
                        argnums=tuple(real))(*[float(s) for s in shapes])
        for i, g in zip(real, grads):
            up, down = list(shapes), list(shapes)
            up[i] += 1e-6
            down[i] -= 1e-6
            fd = (getattr(ref, method)(loc + 2.0, *up, loc=loc)
                  - getattr(ref, method)(loc + 2.0, *down, loc=loc)) / 2e-6
            assert abs(g - fd) <= 1e-6 * max(1.0, abs(fd)), (method, i, g, fd)


def test_zipf_differentiates_in_its_exponent():
    """zeta's derivative in its exponent (tests/test_zeta_derivative.py has more)."""
    h = 1e-6
    fd = (scipy_stats.zipf.logpmf(3, 2.5 + h) - scipy_stats.zipf.logpmf(3, 2.5 - h)) / (2 * h)
    assert fg.grad(lambda a: fst.zipf.logpmf(3.0, a))(2.5) == pytest.approx(fd, rel=1e-8)


@pytest.mark.parametrize("name, shapes", [("genextreme", (math.inf,)), ("triang", (1.5,)),
                                          ("loguniform", (2.0, 1.0)), ("zipfian", (1.0, 2.5))])
def test_invalid_parameters_give_nan(name, shapes):
    method = "logpmf" if name == "zipfian" else "logpdf"
    assert np.isnan(getattr(getattr(fst, name), method)(0.5, *shapes))


FEW = [("genextreme", (0.2,)), ("chi", (3.5,)), ("skewnorm", (2.5,)), ("burr12", (2.5, 3.0)),
       ("triang", (0.6,))]


@pytest.mark.parametrize("name, shapes", FEW)
def test_jit_vmap_and_float32(name, shapes):
    d = getattr(fst, name)
    x = np.array([0.35, 0.5, 0.75])
    want = d.logpdf(x, *shapes, scale=1.5)
    np.testing.assert_allclose(fg.jit(lambda v: d.logpdf(v, *shapes, scale=1.5))(x), want,
                               rtol=1e-12)
    np.testing.assert_allclose(fg.vmap(lambda v: d.cdf(v, *shapes, scale=1.5))(x),
                               d.cdf(x, *shapes, scale=1.5), rtol=1e-12)
    slopes = fg.vmap(fg.grad(lambda v: d.logpdf(v, *shapes, scale=1.5)))(x)
    np.testing.assert_allclose(slopes[1], fg.grad(lambda v: d.logpdf(v, *shapes, scale=1.5))(0.5),
                               rtol=1e-12)
    single = d.logpdf(x.astype(np.float32), *shapes, scale=1.5)
    assert single.dtype == np.float32
    np.testing.assert_allclose(single, want, rtol=1e-5)


def test_discrete_quantiles_traced():
    """The quantiles' searches (the bounded one, the heavy tail's and dlaplace's closed
    form) run traced (vmap: a fixed count of steps) as they do on plain arrays."""
    q = np.array([0.05, 0.5, 0.98])
    for name, shapes in (("boltzmann", (0.7, 8)), ("zipf", (2.7,)), ("dlaplace", (0.8,))):
        d = getattr(fst, name)
        np.testing.assert_array_equal(fg.vmap(lambda p: d.ppf(p, *shapes))(q),
                                      getattr(scipy_stats, name).ppf(q, *shapes))


def test_frozen_distributions_and_reciprocal_is_loguniform():
    frozen = fst.genpareto(0.3, loc=1.0, scale=2.0)
    assert float(frozen.mean()) == pytest.approx(scipy_stats.genpareto(0.3, 1.0, 2.0).mean(),
                                                 rel=1e-12)
    g = fg.grad(lambda c: fst.genpareto(c, scale=2.0).logpdf(1.0))(0.3)
    h = 1e-6
    fd = (scipy_stats.genpareto.logpdf(1.0, 0.3 + h, scale=2.0)
          - scipy_stats.genpareto.logpdf(1.0, 0.3 - h, scale=2.0)) / (2 * h)
    assert g == pytest.approx(fd, rel=1e-7)
    x = np.array([0.6, 1.5, 3.9])
    np.testing.assert_array_equal(fst.reciprocal.cdf(x, 0.5, 4.0), fst.loguniform.cdf(x, 0.5, 4.0))


def test_numeric_quantiles_keep_the_far_tails():
    """The inverted CDFs solve on the smaller tail: foldcauchy's isf(1e-10) satisfies its
    closed-form survival function to rounding (SciPy's, through 1 - q, is off by 1e-6)."""
    x = float(fst.foldcauchy.isf(1e-10, 0.7))
    sf = (math.atan2(1.0, x - 0.7) + math.atan2(1.0, x + 0.7)) / math.pi
    assert sf == pytest.approx(1e-10, rel=1e-13)
    # skewnorm's lower tail: Phi(x) - 2 T(x, a) at q = 1e-10, against SciPy's own CDF
    q = float(scipy_stats.skewnorm.cdf(float(fst.skewnorm.ppf(1e-10, 2.5)), 2.5))
    assert q == pytest.approx(1e-10, rel=1e-9)


@pytest.mark.parametrize("name, method, x, shapes", [
    ("genextreme", "cdf", -1e300, (0.2,)), ("hypsecant", "cdf", 1e300, ()),
    ("gompertz", "sf", 1e300, (0.8,)), ("moyal", "cdf", -1e300, ()),
    ("exponpow", "cdf", 1e300, (1.6,)), ("dweibull", "sf", -1e300, (1.6,)),
    ("weibull_max", "sf", -1e300, (1.7,)), ("semicircular", "cdf", 1.0, ()),
    ("powerlaw", "sf", 0.0, (1.7,)), ("chi", "cdf", 1e200, (3.5,))])
def test_no_nan_slopes_at_the_ends_and_far_out(name, method, x, shapes):
    """Where a distribution function is flat (0 or 1 to the last bit, or at the end of
    the support where the density is 0), its slopes are 0, not the NaN of an overflowed
    power or exp times 0."""
    d = getattr(fst, name)
    want = float(getattr(getattr(scipy_stats, name), method)(x, *shapes))
    assert float(getattr(d, method)(x, *shapes)) == want
    slopes = fg.grad(lambda v, *s: getattr(d, method)(v, *s),
                     argnums=tuple(range(1 + len(shapes))))(x, *map(float, shapes))
    assert all(float(g) == 0.0 for g in slopes), slopes


def test_far_tails_without_overflow():
    """log1p(x**c) as logaddexp(0, c log x): burr12's log tail far out is -d c log x
    (SciPy's overflows to -inf), with its slope; kappa3's cdf is 1 far out (SciPy's
    x (a + x**a)**(-1/a) overflows to 0)."""
    assert float(fst.burr12.logsf(1e300, 2.5, 3.0)) == pytest.approx(-3.0 * 2.5 * math.log(1e300),
                                                                      rel=1e-14)
    assert float(fg.grad(lambda c: fst.burr12.logsf(1e300, c, 3.0))(2.5)) == pytest.approx(
        -3.0 * math.log(1e300), rel=1e-14)
    assert float(fst.anglit.sf(math.pi / 4)) == 0.0  # (not cos(pi/2)**2 = 4e-33)
    assert float(fst.kappa3.cdf(1e300, 1.4)) == 1.0
    assert float(fg.grad(lambda a: fst.kappa3.cdf(1e300, a))(1.4)) == 0.0


@pytest.mark.parametrize("row", [r for r in CONTINUOUS + DISCRETE if r[1]], ids=_row_id)
def test_parameters_valid_where_scipy_takes_them(row):
    """Shapes of -1 (invalid for most, valid for genextreme's and skewnorm's): NaN exactly
    where SciPy's is, and SciPy's value elsewhere."""
    name, shapes, _ = row
    method = "logpmf" if (name, shapes, _) in DISCRETE else "logpdf"
    bad = (-1.0,) * len(shapes)
    got = float(getattr(getattr(fst, name), method)(1.0, *bad))
    want = float(getattr(getattr(scipy_stats, name), method)(1.0, *bad))
    assert got == want or (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want)


def test_genextreme_moments_keep_their_digits_near_c_0():
    """Through gammaln(1 + c)'s Taylor series, not differences of gammaln near 1: by
    c = 1e-6 the mean and variance are their Taylor polynomials to rounding (SciPy's
    variance is 1e-4 off there)."""
    euler, zeta3 = 0.5772156649015329, 1.2020569031595942
    for c in (1e-6, -1e-6, 1e-8):
        var = math.pi ** 2 / 6 - c * (2 * euler * math.pi ** 2 / 6 + 2 * zeta3)
        mean = euler - (euler ** 2 / 2 + math.pi ** 2 / 12) * c
        assert float(fst.genextreme.var(c)) == pytest.approx(var, rel=1e-11)
        assert float(fst.genextreme.mean(c)) == pytest.approx(mean, rel=1e-11)
    assert float(fg.grad(fst.genextreme.var)(0.0)) == pytest.approx(
        -(2 * euler * math.pi ** 2 / 6 + 2 * zeta3), rel=1e-12)
    assert float(fg.grad(fst.genextreme.mean)(0.0)) == pytest.approx(
        -(euler ** 2 / 2 + math.pi ** 2 / 12), rel=1e-12)


def test_rice_series_at_b_0_and_far_out():
    """Marcum's Q series: at b = 0 rice is rayleigh (only the k = 0 term), and each tail
    is summed on its own side (the upper one at x = 8, 9e-11, to SciPy's cdf digits)."""
    x = np.array([0.3, 1.0, 2.5, 6.0])
    np.testing.assert_allclose(fst.rice.cdf(x, 0.0), scipy_stats.rayleigh.cdf(x), rtol=1e-13)
    np.testing.assert_allclose(fst.rice.sf(x, 0.0), scipy_stats.rayleigh.sf(x), rtol=1e-13)
    # (SciPy's rice.sf is 1 - cdf there: compare with its lower tail's complement in logs)
    upper = float(fst.rice.sf(8.0, 1.2))
    assert upper == pytest.approx(-math.expm1(math.log(scipy_stats.rice.cdf(8.0, 1.2))), rel=1e-4)
    assert float(fg.grad(lambda b: fst.rice.cdf(1.5, b))(0.0)) == 0.0  # (even in b)
    # far from b the smaller tail is 0 to the last bit, with slope 0 (no series there)
    assert float(fst.rice.cdf(1e300, 1.2)) == 1.0
    assert float(fg.grad(lambda b: fst.rice.sf(1e300, b))(1.2)) == 0.0
    with pytest.raises(ValueError, match="use norm"):  # (b x = 1e12: 1e7 terms)
        fst.rice.cdf(1e6, 1e6)
