"""Session 24's distributions: ``pearson3`` (exact through ``skew = 0``) and the closed
forms ``recipinvgauss``, ``halfgennorm``, ``skewcauchy``, ``truncpareto``,
``truncweibull_min``, ``rdist``, ``rel_breitwigner``, ``kappa4``, ``dpareto_lognorm``,
and ``tukeylambda`` (its CDF the closed quantile function inverted).  Values against SciPy's (or an independent closed form
where SciPy's is an approximation or a numerical integral), derivatives in every argument
against central differences of SciPy's values; one table row each and a few points; one
jit, vmap and float32 check per family.
"""
import math

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.stats as fst

scipy_stats = pytest.importorskip("scipy.stats")
scipy_special = pytest.importorskip("scipy.special")
scipy_integrate = pytest.importorskip("scipy.integrate")


def _rel_close(got, want, rtol):
    got, want = np.asarray(got, float), np.asarray(want, float)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    with np.errstate(invalid="ignore"):
        return bool(np.all(same | (np.abs(got - want) <= rtol * np.abs(want))))


def _central(f, point, i, h):
    up, down = list(point), list(point)
    up[i] += h
    down[i] -= h
    return (f(*up) - f(*down)) / (2 * h)


LOC, SCALE = 0.3, 1.7
METHODS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")
QUANTILES = {"ppf", "isf"}

# name, shapes, the summaries SciPy integrates numerically (compared at 1e-8 instead of
# 1e-12: ours are closed forms) and those not offered (NotImplementedError)
CONTINUOUS = [
    ("pearson3", (0.7,), {"entropy"}, set()),
    ("pearson3", (-1.3,), {"entropy"}, set()),
    ("recipinvgauss", (0.8,), {"mean", "var", "entropy"}, set()),
    ("halfgennorm", (1.5,), {"mean", "var"}, set()),
    ("skewcauchy", (0.3,), {"entropy"}, set()),
    ("truncpareto", (1.8, 3.0), set(), set()),
    ("truncpareto", (-0.7, 2.5), set(), set()),
    ("truncweibull_min", (2.0, 0.1, 2.0), {"entropy"}, set()),
    ("truncweibull_min", (0.7, 0.0, 3.0), {"entropy"}, set()),
    ("rdist", (2.5,), {"entropy"}, set()),
    ("rdist", (0.8,), {"entropy"}, set()),
    ("rel_breitwigner", (0.8,), {"entropy"}, set()),
    ("kappa4", (0.3, 0.2), {"entropy", "mean", "var"}, set()),
    ("kappa4", (-0.4, -0.3), {"entropy", "mean", "var"}, set()),
    ("kappa4", (0.0, 0.0), {"entropy", "mean", "var"}, set()),  # (SciPy's h = k = 0 branch)
    ("dpareto_lognorm", (0.2, 0.6, 2.5, 1.5), {"entropy"}, set()),
    ("tukeylambda", (0.14,), {"entropy"}, set()),
    ("tukeylambda", (-0.3,), {"entropy"}, set()),
]


# rows whose quantiles' slopes are checked elsewhere (SciPy's kappa4.ppf is NaN for h < 0
# at k = 0: a central difference in h at 0 has no left side)
QUANTILE_SLOPES_ELSEWHERE = {("kappa4", (0.0, 0.0))}


def _integrated(ref, method):
    """``method`` (mean, var, entropy) of SciPy's distribution ``ref``: the entropies of
    pearson3 and rdist from SciPy's gamma and beta ones (shifted and scaled), else one quad
    of its density (SciPy's own generic moments integrate several times: seconds per
    call)."""
    if (ref.name, method) == ("pearson3", "entropy"):
        return lambda s: scipy_stats.gamma.entropy(4 / s ** 2) + math.log(abs(s) / 2)
    if (ref.name, method) == ("rdist", "entropy"):
        return lambda c: scipy_stats.beta.entropy(c / 2, c / 2) + math.log(2)

    def f(*shapes):
        lo, hi = ref.support(*shapes)

        def integral(g):
            return scipy_integrate.quad(g, lo, hi, epsabs=0, epsrel=1e-13, limit=200)[0]
        if method == "entropy":
            return integral(lambda x: scipy_special.entr(ref.pdf(x, *shapes)))
        mean = integral(lambda x: x * ref.pdf(x, *shapes))
        if method == "mean":
            return mean
        return integral(lambda x: (x - mean) ** 2 * ref.pdf(x, *shapes))
    return f


def _row_id(row):
    return f"{row[0]}{row[1]}"


@pytest.mark.parametrize("row", CONTINUOUS, ids=_row_id)
def test_continuous_values_and_derivatives_match_scipy(row):
    name, shapes, integrated, missing = row
    ours, ref = getattr(fst, name), getattr(scipy_stats, name)
    xs = LOC + SCALE * ref.ppf(np.array([0.02, 0.3, 0.6, 0.93]), *shapes)
    qs = np.array([0.01, 0.2, 0.5, 0.8, 0.99])
    for method in METHODS:
        arg = qs if method in QUANTILES else xs
        got = getattr(ours, method)(arg, *shapes, loc=LOC, scale=SCALE)
        want = getattr(ref, method)(arg, *shapes, loc=LOC, scale=SCALE)
        assert _rel_close(got, want, 1e-12), (method, got, want)
    for method in ("mean", "var", "entropy"):
        if method in missing:
            with pytest.raises(NotImplementedError, match=name):
                getattr(ours, method)(*shapes)
            continue
        theirs = _integrated(ref, method) if method in integrated else getattr(ref, method)
        got, want = getattr(ours, method)(*shapes), theirs(*shapes)
        assert _rel_close(got, want, 1e-9 if method in integrated else 1e-12), (method, got,
                                                                                  want)
        if not np.isfinite(want):
            continue
        # (truncweibull_min's a = 0: the edge of the domain, a constant)
        shape_argnums = tuple(i for i in range(len(shapes))
                              if not (name == "truncweibull_min" and i == 1 and shapes[1] == 0))
        grads = fg.grad(lambda *s: getattr(ours, method)(*s),
                        argnums=shape_argnums)(*map(float, shapes))
        for i, g in zip(shape_argnums, grads):
            fd = _central(theirs, shapes, i, 1e-4)
            if (name, shapes, method, i) == ("kappa4", (0.0, 0.0), "entropy", 1):
                # (h = 0 is genextreme(c = k): entropy EULER (1 - k) + 1; SciPy's quad near
                # k = 0 is 0, its support's end 1/k far out of its reach)
                fd = -np.euler_gamma
            elif (name, shapes, i) == ("kappa4", (0.0, 0.0), 1):
                # (SciPy's integrated kappa4 moments at k = +-1e-4, h = 0 are flat, slope
                # 0; kappa4 with h = 0 is genextreme with c = k: mpmath's derivatives at
                # c = 0 of (1 - G(1 + c))/c and (G(1 + 2c) - G(1 + c)**2)/c**2, G = gamma)
                fd = {"mean": -0.9890559953261576, "var": -4.303077228525715}[method]
            tol = 1e-6
            assert abs(g - fd) <= tol * max(1.0, abs(fd)), (method, i, g, fd)
    # d/dx (or dq), d/dshapes, d/dloc, d/dscale in one reverse pass per method
    params = [float(s) for s in shapes] + [LOC, SCALE]
    argnums = tuple(i for i in range(len(params) + 1)
                    if not (name == "truncweibull_min" and i == 2 and params[1] == 0.0))
    for method, at in (("logpdf", xs[1]), ("cdf", xs[2]), ("sf", xs[3]), ("ppf", 0.3),
                       ("isf", 0.3)):
        if method in QUANTILES and (name, shapes) in QUANTILE_SLOPES_ELSEWHERE:
            continue

        def f(v, *p):
            return getattr(ours, method)(v, *p[:-2], loc=p[-2], scale=p[-1])

        def theirs(v, *p):
            return getattr(ref, method)(v, *p[:-2], loc=p[-2], scale=p[-1])
        point = [float(at)] + params
        grads = fg.grad(f, argnums=argnums)(*point)
        for i, g in zip(argnums, grads):
            # (a shape at 0: kappa4's; SciPy's (1 - k x)**(1/k) loses 1e-16/k there, so
            # a wider step)
            step = 1e-4 if point[i] == 0.0 else 1e-6 * max(1.0, abs(point[i]))
            fd = _central(theirs, point, i, step)
            assert abs(g - fd) <= 1e-6 * max(1.0, abs(fd)), (method, i, g, fd)


def test_pearson3_exact_through_zero_skew():
    """Below |skew| 1.6e-5 SciPy's pearson3 is the normal distribution (off by ~skew x**3/6
    relative); ours is the gamma's own value there (its Edgeworth series): equal to SciPy's
    gamma form just above the switch, and its slope in skew at 0 is the series' first
    term, -phi(x) (x**2 - 1) / 6 for the CDF and (x**3 - 3x) / 6 for the log-density."""
    x = np.array([-2.5, -0.7, 0.4, 1.9])
    for skew in (1.7e-5, -1.7e-5):  # (SciPy's gamma form, accurate here in the centre)
        assert _rel_close(fst.pearson3.cdf(x, skew), scipy_stats.pearson3.cdf(x, skew), 1e-13)
        below = fst.pearson3.cdf(x, skew * 0.93)  # (the series: continuous across)
        assert np.all(np.abs(below - scipy_stats.pearson3.cdf(x, skew)) < 1e-6)
    # the gamma form at skew 1e-5 (SciPy's gammainc; SciPy's pearson3 gives the normal)
    beta = 2.0 / 1e-5
    want = scipy_special.gammainc(beta * beta, beta * (x + 2.0 / 1e-5))
    assert _rel_close(fst.pearson3.cdf(x, 1e-5), want, 1e-12)
    assert not _rel_close(scipy_stats.pearson3.cdf(x, 1e-5), want, 1e-7)
    phi = np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    for i, v in enumerate(x):
        assert fg.grad(fst.pearson3.cdf, argnums=1)(v, 0.0) == pytest.approx(
            -phi[i] * (v * v - 1) / 6, rel=1e-13, abs=1e-16)
        assert fg.grad(fst.pearson3.logpdf, argnums=1)(v, 0.0) == pytest.approx(
            (v ** 3 - 3 * v) / 6, rel=1e-13)
    z = scipy_stats.norm.ppf(0.8)
    assert fg.grad(fst.pearson3.ppf, argnums=1)(0.8, 0.0) == pytest.approx((z * z - 1) / 6,
                                                                          rel=1e-12)
    # second order: the series' s**2 term, -2 phi (He3/16 + He5/72)
    v = 0.4
    he3, he5 = v ** 3 - 3 * v, v ** 5 - 10 * v ** 3 + 15 * v
    want2 = -2 * math.exp(-0.5 * v * v) / math.sqrt(2 * math.pi) * (he3 / 16 + he5 / 72)
    got2 = fg.grad(fg.grad(fst.pearson3.cdf, argnums=1), argnums=1)(v, 0.0)
    assert got2 == pytest.approx(want2, rel=1e-12)
    # the entropy: the normal's at 0, the gamma's closed form (mpmath: 1.4189385331963393
    # at 1e-5, 0.6976001864836097 at 2.5; SciPy's integral 1e-9 off)
    assert float(fst.pearson3.entropy(0.0)) == pytest.approx(0.5 * math.log(2 * math.pi * math.e),
                                                            rel=1e-15)
    assert float(fst.pearson3.entropy(1e-5)) == pytest.approx(1.4189385331963393, rel=1e-14)
    assert float(fst.pearson3.entropy(2.5)) == pytest.approx(0.6976001864836097, rel=1e-14)


def test_pearson3_refuses_lossy_skew_slopes_and_keeps_the_rest():
    """Between |skew| 1.6e-5 and 0.5 the gamma form's slope in skew cancels (1e-8 off at
    0.1): NotImplementedError naming the method; x, loc, scale and logpdf still work."""
    for method in ("cdf", "sf", "ppf", "isf"):
        with pytest.raises(NotImplementedError, match=f"pearson3.{method}.*skew"):
            fg.grad(getattr(fst.pearson3, method), argnums=1)(0.3, 0.2)
    g = fg.grad(fst.pearson3.cdf)(0.3, 0.2)
    assert g == pytest.approx(scipy_stats.pearson3.pdf(0.3, 0.2), rel=1e-12)
    # (SciPy's gamma logpdf loses ~1e-13 at alpha = 100: a wide step)
    fd = _central(lambda s: scipy_stats.pearson3.logpdf(0.3, s), (0.2,), 0, 1e-4)
    assert fg.grad(fst.pearson3.logpdf, argnums=1)(0.3, 0.2) == pytest.approx(fd, rel=1e-7)
    np.testing.assert_array_equal(fst.pearson3.ppf([0.0, 1.0], 0.7), [-np.inf, np.inf])
    assert np.isnan(fst.pearson3.cdf(0.3, np.inf))


def test_family_jit_vmap_float32_frozen():
    x = np.array([0.4, 1.1, 1.7])
    np.testing.assert_allclose(fg.vmap(lambda v: fst.pearson3.cdf(v, 0.8))(x),
                               scipy_stats.pearson3.cdf(x, 0.8), rtol=1e-12)
    np.testing.assert_allclose(fg.jit(lambda v: fst.truncpareto.logpdf(v + 1.0, 1.8, 3.0))(x),
                               scipy_stats.truncpareto.logpdf(x + 1.0, 1.8, 3.0), rtol=1e-12)
    slopes = fg.vmap(fg.grad(lambda v: fst.rdist.cdf(v - 1.0, 2.5)))(x)
    np.testing.assert_allclose(slopes, scipy_stats.rdist.pdf(x - 1.0, 2.5), rtol=1e-12)
    for name, shapes in (("pearson3", (0.8,)), ("halfgennorm", (1.5,)), ("skewcauchy", (0.3,)),
                         ("truncweibull_min", (2.0, 0.1, 2.0)), ("recipinvgauss", (0.8,)),
                         ("rel_breitwigner", (0.8,)), ("kappa4", (0.3, 0.2)),
                         ("dpareto_lognorm", (0.2, 0.6, 2.5, 1.5))):
        d, ref = getattr(fst, name), getattr(scipy_stats, name)
        single = d.cdf(x.astype(np.float32), *shapes)
        assert single.dtype == np.float32, name
        np.testing.assert_allclose(single, ref.cdf(x, *shapes), rtol=1e-6)
    frozen = fst.skewcauchy(0.3, loc=1.0)
    assert float(frozen.cdf(1.0)) == pytest.approx(0.35, rel=1e-15)
    assert np.isnan(frozen.mean())


def test_closed_forms_edges_and_invalid_parameters():
    # skewcauchy's far tails: its own arctan (SciPy's 1 - cdf loses the digits)
    assert float(fst.skewcauchy.sf(1e12, 0.3)) == pytest.approx(1.3 ** 2 / math.pi / 1e12,
                                                                rel=1e-12)
    assert float(fst.skewcauchy.cdf(-1e12, 0.3)) == pytest.approx(0.7 ** 2 / math.pi / 1e12,
                                                                  rel=1e-12)
    # outside the supports and at their ends, as SciPy's
    for name, shapes, xs in (("truncpareto", (1.8, 3.0), [0.5, 1.0, 3.0, 4.0]),
                             ("truncweibull_min", (2.0, 0.1, 2.0), [0.0, 0.1, 2.0, 2.5]),
                             ("rdist", (2.5,), [-1.5, 1.5]), ("halfgennorm", (1.5,), [-1.0, 0.0]),
                             ("recipinvgauss", (0.8,), [-1.0, 0.0])):
        d, ref = getattr(fst, name), getattr(scipy_stats, name)
        for method in ("logpdf", "cdf", "sf"):
            assert _rel_close(getattr(d, method)(xs, *shapes),
                              getattr(ref, method)(xs, *shapes), 1e-12), (name, method)
    assert np.isnan(fst.skewcauchy.cdf(0.2, 1.0)) and np.isnan(fst.truncpareto.cdf(2.0, 0.0, 3.0))
    assert np.isnan(fst.truncpareto.cdf(2.0, 1.0, 1.0))
    assert np.isnan(fst.truncweibull_min.cdf(1.0, 2.0, 1.5, 1.2))
    # kappa4 at h = k = 0 (the Gumbel): the slopes of cdf = exp(-y), y = exp(-x), are
    # cdf y x**2 / 2 in k and -cdf y**2 / 2 in h (log y = -x - k x**2/2 + ...)
    x = 0.7
    y = math.exp(-x)
    assert fg.grad(fst.kappa4.cdf, argnums=(1, 2))(x, 0.0, 0.0) == pytest.approx(
        (-math.exp(-y) * y * y / 2, math.exp(-y) * y * x * x / 2), rel=1e-14)
    # kappa4's quantiles for h < 0 at k = 0 (SciPy's ppf: NaN, log(h) of a negative h):
    # the roots of SciPy's own CDF; the slope in h at 0 by the implicit function theorem
    # on SciPy's CDF
    with np.errstate(invalid="ignore"):
        assert np.isnan(scipy_stats.kappa4.ppf(0.3, -0.3, 0.0))
    x = float(fst.kappa4.ppf(0.3, -0.3, 0.0))
    assert scipy_stats.kappa4.cdf(x, -0.3, 0.0) == pytest.approx(0.3, rel=1e-14)
    x = float(fst.kappa4.ppf(0.3, 0.0, 0.0))
    fd = _central(lambda h: scipy_stats.kappa4.cdf(x, h, 0.0), (0.0,), 0, 1e-4)
    want = -fd / scipy_stats.kappa4.pdf(x, 0.0, 0.0)
    assert fg.grad(fst.kappa4.ppf, argnums=1)(0.3, 0.0, 0.0) == pytest.approx(want, rel=1e-7)
    want = fd / scipy_stats.kappa4.pdf(x, 0.0, 0.0)  # (isf(0.7) = ppf(0.3): sf = 0.7 there)
    assert fg.grad(fst.kappa4.isf, argnums=1)(0.7, 0.0, 0.0) == pytest.approx(-want, rel=1e-7)
    # dpareto_lognorm's moments: NaN for a <= n, as SciPy's
    assert np.isnan(fst.dpareto_lognorm.mean(-0.3, 1.2, 0.9, 3.0))
    assert np.isnan(fst.dpareto_lognorm.var(-0.3, 1.2, 1.5, 3.0))
    assert float(fst.dpareto_lognorm.mean(-0.3, 1.2, 1.5, 3.0)) == pytest.approx(
        scipy_stats.dpareto_lognorm.mean(-0.3, 1.2, 1.5, 3.0), rel=1e-13)
    # truncpareto's moments through b = n (SciPy's own branch there)
    for b in (1.0, 2.0):
        assert float(fst.truncpareto.mean(b, 3.0)) == pytest.approx(
            scipy_stats.truncpareto.mean(b, 3.0), rel=1e-13)


def test_tukeylambda_cdf_inverts_its_quantile_function():
    """The CDF solves Q(F) = x to the last bit (SciPy's tklmbda: 1e-13 off in the left
    tail), under vmap too; the variance is exact through lam = 0 (SciPy's Pade
    approximation below |lam| 0.075) and equals the closed form at 0.01."""
    lam = 0.14
    z = scipy_stats.tukeylambda.ppf([0.02, 0.3, 0.93], lam)
    f = np.asarray(fst.tukeylambda.cdf(z, lam))
    q = scipy_special.boxcox(f, lam) - scipy_special.boxcox1p(-f, lam)
    np.testing.assert_allclose(q, z, rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(fg.vmap(lambda v: fst.tukeylambda.cdf(v, lam))(z), f,
                               rtol=1e-13)
    assert float(fst.tukeylambda.var(0.0)) == pytest.approx(math.pi ** 2 / 3, rel=1e-15)
    r = 0.01
    direct = 2 / r ** 2 * (1 / (1 + 2 * r) - scipy_special.beta(1 + r, 1 + r))
    assert float(fst.tukeylambda.var(r)) == pytest.approx(direct, rel=1e-10)
    assert float(fst.tukeylambda.var(0.05)) == pytest.approx(scipy_stats.tukeylambda.var(0.05),
                                                             rel=1e-10)
    fd = _central(lambda v: 2 / v ** 2 * (1 / (1 + 2 * v) - scipy_special.beta(1 + v, 1 + v)),
                  (0.3,), 0, 1e-5)
    assert fg.grad(fst.tukeylambda.var)(0.3) == pytest.approx(fd, rel=1e-8)
    assert float(fst.tukeylambda.var(-0.5)) == np.inf and np.isnan(fst.tukeylambda.var(-0.7))
    # the log-density's curvature at 0 (each side its own tail, no |x| kink there)
    fd2 = (scipy_stats.tukeylambda.logpdf(1e-4, lam) - 2 * scipy_stats.tukeylambda.logpdf(0.0, lam)
           + scipy_stats.tukeylambda.logpdf(-1e-4, lam)) / 1e-8
    assert fg.grad(fg.grad(fst.tukeylambda.logpdf))(0.0, lam) == pytest.approx(fd2, rel=1e-6)
    # outside the support (lam > 0: |x| >= 1/lam)
    np.testing.assert_array_equal(fst.tukeylambda.cdf([-5.0, 5.0], 0.5), [0.0, 1.0])
    assert float(fst.tukeylambda.pdf(5.0, 0.5)) == 0.0


def test_rv_histogram_matches_scipy_and_differentiates_in_the_heights():
    """Every method against SciPy's on bins of varying widths with an empty bin (both
    readings of the heights), outside the edges too; the CDF's slopes in the heights
    against central differences of SciPy's, in x its density; jit, vmap, float32; SciPy's
    warning for varying widths without ``density``."""
    heights = np.array([2.0, 0.0, 5.0, 3.0, 1.0])
    edges = np.array([-1.0, 0.0, 0.5, 2.0, 2.5, 4.0])
    x = np.array([-2.0, -1.0, -0.3, 0.2, 0.7, 2.0, 3.9, 4.0, 5.0])
    q = np.array([0.0, 0.1, 0.3, 0.6, 0.95, 1.0])
    for density in (False, True):
        ours = fst.rv_histogram((heights, edges), density=density)
        ref = scipy_stats.rv_histogram((heights, edges), density=density)
        for method in ("pdf", "logpdf", "cdf", "sf", "logcdf", "logsf"):
            with np.errstate(divide="ignore"):  # (log 0 outside the edges, both sides)
                want = getattr(ref, method)(x, loc=0.3, scale=1.5)
                got = getattr(ours, method)(x, loc=0.3, scale=1.5)
            assert _rel_close(got, want, 1e-14), method
        for method in ("ppf", "isf"):
            np.testing.assert_allclose(getattr(ours, method)(q), getattr(ref, method)(q),
                                       rtol=1e-14, atol=1e-15)
        for method in ("mean", "var", "entropy", "median"):
            assert float(getattr(ours, method)()) == pytest.approx(getattr(ref, method)(),
                                                                   rel=1e-14), method

    def cdf(h, v):
        return fst.rv_histogram((h, edges), density=False).cdf(v)
    slopes, slope_x = fg.grad(cdf, argnums=(0, 1))(heights, 1.3)
    for i in range(5):
        step = 1e-6 * np.eye(5)[i]
        fd = (scipy_stats.rv_histogram((heights + step, edges), density=False).cdf(1.3)
              - scipy_stats.rv_histogram((heights - step, edges), density=False).cdf(1.3)) / 2e-6
        assert slopes[i] == pytest.approx(fd, rel=1e-7, abs=1e-10)
    assert slope_x == pytest.approx(
        scipy_stats.rv_histogram((heights, edges), density=False).pdf(1.3), rel=1e-14)
    g = fg.grad(lambda h: fst.rv_histogram((h, edges), density=False).ppf(0.6))(heights)
    fd = (scipy_stats.rv_histogram((heights + 1e-6 * np.eye(5)[2], edges), density=False).ppf(0.6)
          - scipy_stats.rv_histogram((heights - 1e-6 * np.eye(5)[2], edges),
                                     density=False).ppf(0.6)) / 2e-6
    assert g[2] == pytest.approx(fd, rel=1e-7)
    np.testing.assert_allclose(fg.jit(lambda h, v: cdf(h, v))(heights, x),
                               cdf(heights, x), rtol=1e-15)
    np.testing.assert_allclose(fg.vmap(lambda v: cdf(heights, v))(x), cdf(heights, x),
                               rtol=1e-15)
    single = fst.rv_histogram((heights.astype(np.float32), edges.astype(np.float32)),
                              density=False).cdf(x.astype(np.float32))
    assert single.dtype == np.float32
    with pytest.warns(RuntimeWarning, match="Bin widths are not constant"):
        fst.rv_histogram((heights, edges))
    with pytest.raises(ValueError, match="n heights and n \\+ 1 edges"):
        fst.rv_histogram((heights, edges[:-1]))


@pytest.mark.parametrize("n", [1, 5])
def test_irwinhall_matches_scipy(n):
    """Every method against SciPy's (its B-spline), at and past the support's ends; the
    slopes in x, loc and scale against central differences; n an integer count: its
    derivative raises."""
    ours, ref = fst.irwinhall, scipy_stats.irwinhall
    x = 0.3 + 1.7 * np.concatenate([ref.ppf([0.02, 0.3, 0.6, 0.93], n), [-0.1, 0.0, n, n + 1.0]])
    q = np.array([0.0, 0.01, 0.2, 0.5, 0.8, 0.99, 1.0])
    for method in METHODS:
        arg = q if method in QUANTILES else x
        with np.errstate(divide="ignore"):
            want = getattr(ref, method)(arg, n, loc=LOC, scale=SCALE)
            got = getattr(ours, method)(arg, n, loc=LOC, scale=SCALE)
        assert _rel_close(got, want, 1e-12), (method, got, want)
    assert float(ours.mean(n)) == n / 2 and float(ours.var(n)) == pytest.approx(n / 12, rel=1e-15)
    for method, at in (("logpdf", x[1]), ("cdf", x[2]), ("sf", x[3]), ("ppf", 0.3)):
        grads = fg.grad(lambda v, lo, sc: getattr(ours, method)(v, n, loc=lo, scale=sc),
                        argnums=(0, 1, 2))(float(at), LOC, SCALE)
        point = [float(at), LOC, SCALE]
        for i, g in enumerate(grads):
            fd = _central(lambda v, lo, sc: getattr(ref, method)(v, n, loc=lo, scale=sc), point, i,
                          1e-6)
            assert abs(g - fd) <= 1e-6 * max(1.0, abs(fd)), (method, i, g, fd)
    with pytest.raises(ValueError, match="integer count"):
        fg.grad(ours.cdf, argnums=1)(1.0, float(n))
    # a larger n (the recursion has no cancellation), and n broadcast
    big = np.array([1.5, 9.0, 12.5, 20.0])
    for method in ("logpdf", "cdf", "sf"):
        assert _rel_close(getattr(ours, method)(big, 25), getattr(ref, method)(big, 25), 1e-12)
    assert _rel_close(ours.cdf([1.0, 2.0], [3, n]), ref.cdf([1.0, 2.0], [3, n]), 1e-14)


@pytest.mark.parametrize("shapes", [(20, 7, 12, 2.5), (15, 9, 3, 0.3)], ids=str)
def test_nchypergeom_fisher_matches_scipy(shapes):
    """Every method against SciPy's (BiasedUrn, accurate to 1e-12) at and past the
    support's ends; the upper tail against the sum of SciPy's masses above k (SciPy's own
    logsf loses digits there); the slopes in odds against central differences; the
    integer counts' derivative raises."""
    ours, ref = fst.nchypergeom_fisher, scipy_stats.nchypergeom_fisher
    k = np.arange(-2.0, 14.0)
    for method in ("logpmf", "pmf", "cdf", "logcdf"):
        with np.errstate(divide="ignore"):
            want = getattr(ref, method)(k, *shapes, loc=1)
            got = getattr(ours, method)(k, *shapes, loc=1)
        assert _rel_close(got, want, 1e-12), (method, got, want)
    masses = ref.pmf(np.arange(0.0, 14.0), *shapes)
    upper = np.array([masses[int(max(v, -1)) + 1:].sum() for v in k - 1])
    assert _rel_close(ours.sf(k, *shapes, loc=1), upper, 1e-11)
    with np.errstate(divide="ignore"):  # (absolute near 0: log(1 - 1e-10) = -1e-10)
        np.testing.assert_allclose(ours.logsf(k, *shapes, loc=1), np.log(upper), rtol=1e-11,
                                   atol=1e-14)
    q = np.array([0.0, 0.05, 0.3, 0.5, 0.77, 0.98, 1.0])
    for method in ("ppf", "isf"):
        np.testing.assert_array_equal(getattr(ours, method)(q, *shapes),
                                      getattr(ref, method)(q, *shapes))
    for method in ("mean", "var", "entropy"):
        assert _rel_close(getattr(ours, method)(*shapes), getattr(ref, method)(*shapes),
                          1e-12), method
    odds = shapes[3]
    for method, at in (("pmf", 3.0), ("cdf", 2.0), ("sf", 2.0)):
        g = fg.grad(lambda o: getattr(ours, method)(at, *shapes[:3], o))(odds)
        fd = _central(lambda o: getattr(ref, method)(at, *shapes[:3], o), (odds,), 0, 1e-6)
        assert g == pytest.approx(fd, rel=1e-6, abs=1e-10), method
    g = fg.grad(lambda o: ours.mean(*shapes[:3], o))(odds)
    fd = _central(lambda o: ref.mean(*shapes[:3], o), (odds,), 0, 1e-5)
    assert g == pytest.approx(fd, rel=1e-7)
    with pytest.raises(ValueError, match="integer counts"):
        fg.grad(ours.pmf, argnums=1)(3.0, float(shapes[0]), *shapes[1:])


def test_poisson_binom_matches_scipy_and_differentiates_in_p():
    """Every method against SciPy's (p's last axis the trials; leading axes broadcast with
    k), the CDF's slopes in each p against central differences of SciPy's, an invalid p
    (NaN), vmap over k, float32."""
    ours, ref = fst.poisson_binom, scipy_stats.poisson_binom
    p = np.array([0.2, 0.5, 0.7, 0.05, 0.93])
    k = np.arange(-2.0, 8.0)
    for method in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"):
        with np.errstate(divide="ignore"):
            want = getattr(ref, method)(k, p, loc=1)
            got = getattr(ours, method)(k, p, loc=1)
        assert _rel_close(got, want, 1e-13), (method, got, want)
    q = np.array([0.0, 0.05, 0.3, 0.5, 0.77, 0.98, 1.0])
    for method in ("ppf", "isf"):
        np.testing.assert_array_equal(getattr(ours, method)(q, p), getattr(ref, method)(q, p))
    for method in ("mean", "var", "entropy"):
        assert float(getattr(ours, method)(p)) == pytest.approx(getattr(ref, method)(p),
                                                               rel=1e-14), method
    batch = np.array([[0.2, 0.5], [0.1, 0.9]])
    np.testing.assert_allclose(ours.pmf([[0], [1]], batch), ref.pmf([[0], [1]], batch),
                               rtol=1e-14)
    slopes = fg.grad(lambda v: ours.cdf(2.0, v))(p)
    for i in range(5):
        step = 1e-6 * np.eye(5)[i]
        fd = (ref.cdf(2, p + step) - ref.cdf(2, p - step)) / 2e-6
        assert slopes[i] == pytest.approx(fd, rel=1e-7, abs=1e-10)
    assert np.isnan(ours.pmf(1, [0.2, 1.5]))
    np.testing.assert_allclose(fg.vmap(lambda v: ours.cdf(v, p))(np.array([0.0, 2.0])),
                               ref.cdf([0, 2], p), rtol=1e-14)
    assert ours.pmf(np.float32(1), p.astype(np.float32)).dtype == np.float32
