"""Session 23's distributions and distribution functions: the noncentral chi-square, t and
F functions of funcgrad.scipy.special (``chndtr``... and their inverses) and the
distributions of funcgrad.scipy.stats built on them (``ncx2``, ``nct``, ``ncf``,
``skellam``'s CDF), then more distributions.  Values against SciPy's, derivatives in
every argument against central differences of SciPy's values (or of an independent
root where SciPy's own inverse is loose), one table row each and a few points; one
jit, vmap and float32 check per family.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.scipy.special as fsp
import funcgrad.scipy.stats as fst

scipy_special = pytest.importorskip("scipy.special")
scipy_stats = pytest.importorskip("scipy.stats")
scipy_optimize = pytest.importorskip("scipy.optimize")


# families whose mean and var both SciPy and funcgrad integrate numerically
NUMERICAL_MOMENTS = {"johnsonsb", "powernorm", "powerlognorm", "genexpon", "genhalflogistic"}

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


# --- the special functions ---------------------------------------------------------------------

# name, arguments (broadcast: the last an array of points); the forward functions' values
FORWARD = [
    ("chndtr", (np.array([0.05, 0.8, 3.0, 9.0, 40.0]), 3.3, 1.7)),
    ("chndtr", (np.array([0.5, 30.0, 60.0, 200.0]), 0.6, 45.0)),
    ("chndtr", (np.array([0.3, 2.0, 6.0]), 2.5, 0.0)),  # (chdtr)
    ("nctdtr", (3.3, 1.2, np.array([-3.0, -0.4, 0.0, 0.8, 2.5, 12.0]))),
    ("nctdtr", (0.8, -2.2, np.array([-9.0, -1.5, 0.0, 0.5, 3.0]))),
    ("ncfdtr", (2.5, 6.3, 1.7, np.array([0.05, 0.6, 1.3, 4.0, 30.0]))),
    ("ncfdtr", (7.0, 1.5, 12.0, np.array([0.2, 2.0, 9.0, 500.0]))),
]


@pytest.mark.parametrize("name, args", FORWARD, ids=lambda v: str(v)[:12])
def test_noncentral_functions_match_scipy(name, args):
    got, want = getattr(fsp, name)(*args), getattr(scipy_special, name)(*args)
    assert _rel_close(got, want, 1e-12), (got, want)


def test_noncentral_functions_keep_scipy_domain():
    """NaN where SciPy's is (a negative x, df <= 0, nc < 0), its values at the ends."""
    args = {
        "chndtr": [(-1.0, 2.0, 1.0), (1.0, 0.0, 1.0), (1.0, 2.0, -1.0), (np.inf, 2.0, 1.0),
                   (1.0, 2.0, np.inf), (0.0, 2.0, 1.0), (1.0, 0.0, 0.0), (np.nan, 2.0, 1.0)],
        "nctdtr": [(0.0, 1.0, 1.0), (np.inf, 1.0, 1.0), (3.0, np.inf, 1.0), (3.0, 1.0, -np.inf),
                   (3.0, 1.0, np.inf), (3.0, np.nan, 1.0)],
        "ncfdtr": [(2.0, 3.0, 1.0, -1.0), (2.0, 3.0, 1.0, 0.0), (2.0, 3.0, 1.0, np.inf),
                   (0.0, 3.0, 1.0, 1.0), (2.0, 3.0, -1.0, 1.0), (2.0, np.inf, 1.0, 1.0)]}
    for name, cases in args.items():
        for a in cases:
            got, want = float(getattr(fsp, name)(*a)), float(getattr(scipy_special, name)(*a))
            assert got == want or (np.isnan(got) and np.isnan(want)), (name, a, got, want)


# every continuous argument of the forward functions, at one point each
SLOPES = [("chndtr", (2.5, 3.3, 1.7)), ("chndtr", (40.0, 3.3, 20.0)),
          ("chndtr", (2.5, 3.3, 0.0)),  # (nc = 0: one-sided, the weights' Taylor form)
          ("nctdtr", (3.3, 1.2, 0.8)), ("nctdtr", (5.3, -0.7, -1.4)),
          ("nctdtr", (3.3, 0.7, 0.0)),  # (t = 0: the Taylor series where the sides meet)
          ("ncfdtr", (2.5, 6.3, 1.7, 1.3))]


@pytest.mark.parametrize("name, point", SLOPES, ids=lambda v: str(v)[:14])
def test_noncentral_function_slopes_in_every_argument(name, point):
    ours, ref = getattr(fsp, name), getattr(scipy_special, name)
    grads = fg.grad(ours, argnums=tuple(range(len(point))))(*point)
    for i, g in enumerate(grads):
        if point[i] == 0.0 and name == "chndtr" and i == 2:  # (nc >= 0: one-sided)
            fd = (ref(*point[:2], 1e-7) - ref(*point)) / 1e-7
            assert abs(g - fd) <= 1e-6, (i, g, fd)
            continue
        fd = _central(ref, point, i, 1e-6)
        assert abs(g - fd) <= 1e-7 * max(1.0, abs(fd)), (i, g, fd)


def test_noncentral_second_derivatives():
    """The series differentiate again: in nc through the Poisson weights (at nc = 0 too),
    in t at t = 0 through its Taylor form; a second derivative in a degree of freedom is
    betainc's to refuse, with its NotImplementedError."""
    h = 1e-4

    def second(f, point, i):
        up, down = list(point), list(point)
        up[i] += h
        down[i] -= h
        return (f(*up) - 2 * f(*point) + f(*down)) / h ** 2
    d2 = fg.grad(fg.grad(fsp.chndtr, 2), 2)(2.5, 3.3, 1.7)
    assert d2 == pytest.approx(second(scipy_special.chndtr, (2.5, 3.3, 1.7), 2), rel=1e-5)
    at_zero = fg.grad(fg.grad(fsp.chndtr, 2), 2)(2.5, 3.3, 0.0)
    f = scipy_special.chndtr
    one_sided = (f(2.5, 3.3, 2 * h) - 2 * f(2.5, 3.3, h) + f(2.5, 3.3, 0.0)) / h ** 2
    assert at_zero == pytest.approx(one_sided, rel=1e-3)
    d2 = fg.grad(fg.grad(fsp.nctdtr, 2), 2)(3.5, 0.7, 0.0)
    assert d2 == pytest.approx(second(scipy_special.nctdtr, (3.5, 0.7, 0.0), 2), rel=1e-5)
    with pytest.raises(NotImplementedError):
        fg.grad(fg.grad(fsp.ncfdtr, 0), 0)(2.5, 6.3, 1.7, 1.3)


def _root(forward, position, args, near):
    """The inverse by brentq on SciPy's forward function, bracketed about ``near``
    (SciPy's CDFLIB inverses in a degree of freedom or nc stop ~1e-6 from the root)."""
    p = args[position]

    def residual(u):
        a = list(args)
        a[position] = u
        return forward(*a) - p
    lo, hi = near / 1.5, near * 1.5
    while residual(hi) * residual(lo) > 0:
        lo, hi = lo / 1.5, hi * 1.5
    return scipy_optimize.brentq(residual, lo, hi, xtol=1e-300, rtol=1e-15)


# name, the forward function, where p stands in SciPy's arguments, the point
INVERSES = [
    ("chndtrix", "chndtr", 0, (0.3, 3.3, 1.7)), ("chndtridf", "chndtr", 1, (2.5, 0.4, 1.7)),
    ("chndtrinc", "chndtr", 2, (6.5, 3.3, 0.4)), ("nctdtrit", "nctdtr", 2, (3.3, 1.2, 0.7)),
    ("nctdtridf", "nctdtr", 0, (0.2, 1.2, 0.8)), ("nctdtrinc", "nctdtr", 1, (3.3, 0.4, 0.8)),
    ("ncfdtri", "ncfdtr", 3, (2.5, 6.3, 1.7, 0.4)),
    ("ncfdtridfd", "ncfdtr", 1, (2.5, 0.45, 1.7, 1.3)),
    ("ncfdtridfn", "ncfdtr", 0, (0.5, 6.3, 1.7, 1.3)),
    ("ncfdtrinc", "ncfdtr", 2, (2.5, 6.3, 0.3, 1.3)),
]


@pytest.mark.parametrize("name, forward, position, point", INVERSES, ids=lambda v: str(v))
def test_noncentral_inverses_are_roots_with_implicit_slopes(name, forward, position, point):
    """The quantiles in x are SciPy's to the bit; the inverses in a degree of freedom or
    nc are SciPy's polished by Newton steps on the series: the root to 1e-12, where
    SciPy's is ~1e-6 from it."""
    ours, theirs = getattr(fsp, name), float(getattr(scipy_special, name)(*point))
    fwd = getattr(scipy_special, forward)
    root = _root(fwd, position, point, theirs)
    if name in ("chndtrix", "nctdtrit", "ncfdtri"):
        assert float(ours(*point)) == theirs
    else:
        assert float(ours(*point)) == pytest.approx(root, rel=1e-12)
        assert theirs == pytest.approx(root, rel=1e-4)
    grads = fg.grad(ours, argnums=tuple(range(len(point))))(*point)
    for i, g in enumerate(grads):
        fd = _central(lambda *a: _root(fwd, position, a, root), point, i, 1e-5)
        assert abs(g - fd) <= 1e-6 * max(1.0, abs(fd)), (i, g, fd)


def test_noncentral_inverse_without_a_root_has_no_slope():
    """SciPy's 1e-100 where no dfn solves ncfdtr = p: its slope is NaN, not the slope of
    some other equation; a second derivative of an inverse follows the first's."""
    assert float(fsp.ncfdtridfn(0.4, 6.3, 1.7, 1.3)) == 1e-100
    assert np.isnan(fg.grad(fsp.ncfdtridfn)(0.4, 6.3, 1.7, 1.3))
    d2 = fg.grad(fg.grad(fsp.chndtrix))(0.4, 3.3, 1.7)
    first = fg.grad(fsp.chndtrix)
    assert d2 == pytest.approx((first(0.4 + 1e-5, 3.3, 1.7) - first(0.4 - 1e-5, 3.3, 1.7))
                               / 2e-5, rel=1e-6)


def test_noncentral_inverse_at_scipys_1e100_stand_in_is_a_value_then_its_zero_slope():
    """Where SciPy's search finds no degree of freedom (its 1e100), the value is SciPy's
    (the polishing steps, whose series has no slope out there, are not taken), and the
    slope is SciPy's function's there: 0, its stand-in being constant around the point
    (they raised FloatingPointError from betainc's range check before)."""
    for name, args in (("nctdtridf", (0.5, 1.0, 0.6)), ("ncfdtridfd", (0.5, 0.6, 1.0, 0.5))):
        fn = getattr(fsp, name)
        ref = getattr(scipy_special, name)
        assert float(fn(*args)) == ref(*args) == 1e100
        up, down = list(args), list(args)
        up[0] += 1e-6
        down[0] -= 1e-6
        assert ref(*up) == ref(*down) == 1e100  # (SciPy's own slope there: 0)
        assert fg.grad(fn)(*args) == 0.0
    # (beside a root in one call: each entry as alone)
    both = fsp.nctdtridf(np.array([0.5, 0.6]), np.array([1.0, 0.5]), np.array([0.6, 1.0]))
    assert both[0] == 1e100 and both[1] == pytest.approx(1.1092453094879116, rel=1e-8)
    both = fsp.ncfdtridfd(np.array([0.5, 3.0]), np.array([0.6, 0.4]), 1.0, np.array([0.5, 2.0]))
    assert both[0] == 1e100 and both[1] == pytest.approx(0.6378619704045384, rel=1e-4)


def test_noncentral_functions_jit_vmap_float32_out():
    x = np.array([0.5, 2.0, 7.0])
    np.testing.assert_allclose(fg.jit(fsp.chndtr)(x, 3.3, 1.7),
                               scipy_special.chndtr(x, 3.3, 1.7), rtol=1e-13)
    np.testing.assert_allclose(fg.vmap(fsp.nctdtr, in_axes=(None, None, 0))(3.3, 1.2, x),
                               scipy_special.nctdtr(3.3, 1.2, x), rtol=1e-13)
    slopes = fg.vmap(fg.grad(fsp.ncfdtr, 3), in_axes=(None, None, None, 0))(2.5, 6.3, 1.7, x)
    np.testing.assert_allclose(slopes[1], fg.grad(fsp.ncfdtr, 3)(2.5, 6.3, 1.7, 2.0),
                               rtol=1e-13)
    q = np.array([0.1, 0.5])
    np.testing.assert_array_equal(fg.jit(fsp.chndtrix)(q, 3.3, 1.7),
                                  scipy_special.chndtrix(q, 3.3, 1.7))
    np.testing.assert_allclose(fg.vmap(fg.grad(fsp.chndtrix), in_axes=(0, None, None))(
        q, 3.3, 1.7)[1], fg.grad(fsp.chndtrix)(0.5, 3.3, 1.7), rtol=1e-13)
    single = [np.float32(v) for v in (2.5, 6.3, 1.7)]
    for name, args in (("chndtr", (x.astype(np.float32), *single[1:])),
                       ("nctdtr", (*single[:2], x.astype(np.float32))),
                       ("ncfdtr", (*single, x.astype(np.float32))),
                       ("chndtrix", (q.astype(np.float32), *single[1:]))):
        got = getattr(fsp, name)(*args)
        assert got.dtype == np.float32, name
        np.testing.assert_allclose(got, getattr(scipy_special, name)(*args), rtol=2e-6)
    out = np.empty(3)
    fsp.chndtr(x, 3.3, 1.7, out=out)
    np.testing.assert_allclose(out, scipy_special.chndtr(x, 3.3, 1.7), rtol=1e-13)


def test_noncentral_series_far_out():
    """Sums of positive terms keep a tiny tail's digits (SciPy's chndtr is 0 below ~1e-60
    here: ours is e**-150 (0.005 + 150 * 0.005**2 / 2 + ...), summed by hand), and the
    window past the terms' peak keeps a far upper tail that SciPy's ncx2.sf agrees with."""
    mu, y = 150.0, 0.005  # (nc = 300, x = 0.01, df = 2: the terms P(1 + j, y) Poisson(j))
    terms = [np.exp(-mu + j * np.log(mu) - scipy_special.gammaln(j + 1.0))
             * scipy_special.gammainc(1.0 + j, y) for j in range(40)]
    assert float(fsp.chndtr(0.01, 2.0, 300.0)) == pytest.approx(sum(terms), rel=1e-13)
    x = np.array([100.0, 400.0])
    assert _rel_close(fst.ncx2.sf(x, 2.5, 12.0), scipy_stats.ncx2.sf(x, 2.5, 12.0), 1e-12)
    assert float(fst.ncx2.sf(1e7, 2.5, 12.0)) == 0.0
    # nct's tail opposite to its noncentrality sums terms of both signs: where they cancel
    # to below 1e-5 of their size the value is NaN, not rounding noise (SciPy: 1.9e-14)
    assert np.isnan(fst.nct.sf(8.0, 20.0, -3.0))
    assert float(fst.nct.sf(0.3, 20.0, -3.0)) == pytest.approx(
        scipy_stats.nct.sf(0.3, 20.0, -3.0), rel=1e-12)


# --- the distributions -------------------------------------------------------------------------

LOC, SCALE = 0.3, 1.7
METHODS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")
QUANTILES = {"ppf", "isf"}

CONTINUOUS = [
    ("ncx2", (2.5, 1.3), set()),
    ("ncx2", (3.5, 0.0), set()),  # (nc = 0: chi2)
    ("nct", (3.5, 0.7), set()),  # (nc < 0: the special functions' slopes test)
    ("ncf", (2.5, 6.5, 1.3), set()),
    ("dgamma", (0.7,), set()), ("invweibull", (2.5,), set()),
    ("johnsonsb", (0.4, 1.3), set()), ("johnsonsu", (0.4, 1.3), set()),
    ("fatiguelife", (0.7,), set()), ("gibrat", (), set()), ("loglaplace", (2.5,), set()),
    ("laplace_asymmetric", (0.6,), set()),
    ("powernorm", (2.5,), set()),
    ("powerlognorm", (2.5, 0.8), set()),
    ("genexpon", (1.5, 2.0, 1.3), set()),
    ("genhalflogistic", (1.6,), set()),
    ("mielke", (2.5, 3.5), set()), ("mielke", (0.7, 1.5), set()),  # (inf moments)
    ("argus", (1.3,), set()), ("argus", (0.05,), set()),  # (E X**2's polynomial)
    ("jf_skew_t", (2.5, 1.5), set()), ("jf_skew_t", (0.8, 3.0), set()),  # (NaN var)
]


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
        got = getattr(ours, method)(arg, *shapes, loc=LOC, scale=SCALE)
        want = getattr(ref, method)(arg, *shapes, loc=LOC, scale=SCALE)
        assert _rel_close(got, want, 1e-12), (method, got, want)
    for method in ("mean", "var", "entropy"):
        if method in missing:
            with pytest.raises(NotImplementedError, match=name):
                getattr(ours, method)(*shapes)
            continue
        got, want = getattr(ours, method)(*shapes), getattr(ref, method)(*shapes)
        # (entropy: SciPy's quad of -f log f, 3e-9 off at johnsonsu(0.4, 1.3); ours is the
        # true value, see tests/test_distn_entropy.py; moments both sides integrate
        # numerically: SciPy's quad is good to ~1e-10)
        numerical = method == "entropy" or name in NUMERICAL_MOMENTS
        assert _rel_close(got, want, 1e-8 if numerical else 1e-12), (method, got, want)
        if not np.isfinite(want):
            continue
        grads = fg.grad(lambda *s: getattr(ours, method)(*s),
                        argnums=tuple(range(len(shapes))))(*map(float, shapes))
        for i, g in enumerate(grads):
            if shapes[i] == 0.0:  # (nc = 0: the edge of the domain)
                continue
            fd = _central(getattr(ref, method), shapes, i, 1e-4)
            assert abs(g - fd) <= 1e-6 * max(1.0, abs(fd)), (method, i, g, fd)
    # d/dx (or dq), d/dshapes, d/dloc, d/dscale in one reverse pass per method (nc = 0:
    # one-sided, left to the special functions' test)
    params = [float(s) for s in shapes] + [LOC, SCALE]
    argnums = tuple(i for i in range(len(params) + 1) if i == 0 or params[i - 1] != 0.0)
    for method, at in (("logpdf", xs[1]), ("cdf", xs[2]), ("sf", xs[3]), ("ppf", 0.3),
                       ("isf", 0.3)):
        def f(v, *p):
            return getattr(ours, method)(v, *p[:-2], loc=p[-2], scale=p[-1])

        def theirs(v, *p):
            return getattr(ref, method)(v, *p[:-2], loc=p[-2], scale=p[-1])
        point = [float(at)] + params
        grads = fg.grad(f, argnums=argnums)(*point)
        for i, g in zip(argnums, grads):
            fd = _central(theirs, point, i, 1e-6 * max(1.0, abs(point[i])))
            assert abs(g - fd) <= 1e-6 * max(1.0, abs(fd)), (method, i, g, fd)


def test_nct_density_at_zero_and_its_slope():
    """nct's density is its CDF's derivative: at t = 0 the Taylor form's, so the density
    and its own slope there are right (a closed form alone would have slope 0)."""
    assert float(fst.nct.logpdf(0.0, 3.5, 0.7)) == pytest.approx(
        scipy_stats.nct.logpdf(0.0, 3.5, 0.7), rel=1e-13)
    g = fg.grad(fst.nct.logpdf)(0.0, 3.5, 0.7)
    fd = _central(lambda t: scipy_stats.nct.logpdf(t, 3.5, 0.7), (0.0,), 0, 1e-6)
    assert g == pytest.approx(fd, rel=1e-7)


def test_noncentral_distributions_jit_vmap_float32_frozen():
    x = np.array([0.4, 1.5, 3.0])
    np.testing.assert_allclose(fg.jit(lambda v: fst.ncx2.logpdf(v, 2.5, 1.3))(x),
                               scipy_stats.ncx2.logpdf(x, 2.5, 1.3), rtol=1e-12)
    slopes = fg.vmap(fg.grad(lambda v: fst.nct.logpdf(v, 3.5, 0.7)))(x)
    np.testing.assert_allclose(slopes[1], fg.grad(lambda v: fst.nct.logpdf(v, 3.5, 0.7))(1.5),
                               rtol=1e-12)
    single = fst.ncf.cdf(x.astype(np.float32), 2.5, 6.5, 1.3)
    assert single.dtype == np.float32
    np.testing.assert_allclose(single, scipy_stats.ncf.cdf(x, 2.5, 6.5, 1.3), rtol=1e-6)
    frozen = fst.ncx2(2.5, 1.3, scale=2.0)
    assert float(frozen.mean()) == pytest.approx(2.0 * 3.8, rel=1e-14)
    assert float(frozen.cdf(3.0)) == pytest.approx(scipy_stats.ncx2(2.5, 1.3, scale=2.0).cdf(3.0),
                                                   rel=1e-12)


def test_noncentral_distributions_far_quantiles_and_invalid_parameters():
    for name, shapes in (("ncx2", (2.5, 1.3)), ("nct", (2.5, 1.3)), ("ncf", (2.5, 4.0, 1.3))):
        d, ref = getattr(fst, name), getattr(scipy_stats, name)
        x = float(d.isf(1e-10, *shapes))
        assert float(ref.sf(x, *shapes)) == pytest.approx(1e-10, rel=1e-9), name
    assert np.isnan(fst.ncx2.cdf(1.0, 2.0, -1.0)) and np.isnan(fst.ncx2.cdf(1.0, -2.0, 1.0))
    assert np.isnan(fst.nct.cdf(1.0, 0.0, 1.0)) and np.isnan(fst.ncf.cdf(1.0, 2.0, 3.0, -1.0))
    assert float(fst.nct.ppf(0.0, 2.0, 1.0)) == -np.inf  # (SciPy's nctdtrit says inf)
    # SciPy's moments: NaN (not inf) where they diverge
    assert np.isnan(fst.nct.mean(1.0, 0.5)) and np.isnan(fst.ncf.var(2.0, 4.0, 1.0))


def test_skellam_cdf_and_quantiles_through_ncx2():
    """skellam's CDF is SciPy's (ncx2.cdf and ncx2.sf of its parameters); the upper tail
    is its own series (SciPy's skellam.sf is 1 - cdf: compared to SciPy's ncx2.cdf of
    the same arguments instead), quantiles searched both ways from the mean."""
    mu1, mu2 = 1.3, 2.6
    k = np.arange(-8.0, 9.0)
    assert _rel_close(fst.skellam.cdf(k, mu1, mu2), scipy_stats.skellam.cdf(k, mu1, mu2), 1e-12)
    right = k[k >= 0]
    upper = scipy_stats.ncx2.cdf(2 * mu1, 2 * (right + 1), 2 * mu2)
    assert _rel_close(fst.skellam.sf(right, mu1, mu2), upper, 1e-12)
    assert _rel_close(fst.skellam.logsf(right, mu1, mu2), np.log(upper), 1e-12)
    assert _rel_close(fst.skellam.logpmf(k, mu1, mu2), scipy_stats.skellam.logpmf(k, mu1, mu2),
                      1e-12)
    q = np.array([0.0, 1e-6, 0.01, 0.3, 0.5, 0.9, 0.9999, 1.0])
    np.testing.assert_array_equal(fst.skellam.ppf(q, mu1, mu2, loc=2),
                                  scipy_stats.skellam.ppf(q, mu1, mu2, loc=2))
    np.testing.assert_array_equal(fst.skellam.isf(q, mu1, mu2),
                                  scipy_stats.skellam.isf(q, mu1, mu2))
    np.testing.assert_array_equal(fg.vmap(lambda p: fst.skellam.ppf(p, mu1, mu2))(q[1:-1]),
                                  scipy_stats.skellam.ppf(q[1:-1], mu1, mu2))
    for at in (-2.0, 1.0):
        grads = fg.grad(fst.skellam.cdf, argnums=(1, 2))(at, mu1, mu2)
        for i, g in zip((1, 2), grads):
            fd = _central(scipy_stats.skellam.cdf, (at, mu1, mu2), i, 1e-6)
            assert abs(g - fd) <= 1e-7, (at, i, g, fd)


def test_closed_forms_diverging_moments_jit_vmap_float32():
    """invweibull's mean and variance diverge for c <= 1, c <= 2: inf (SciPy's gamma(1 -
    n/c) is finite and negative there); loglaplace's likewise (SciPy's inf too).  One
    vmap, vmap(grad) and float32 check over the family (jit: the noncentral tests')."""
    assert float(fst.invweibull.mean(0.8)) == np.inf and float(fst.invweibull.var(1.5)) == np.inf
    assert float(fst.loglaplace.mean(0.8)) == np.inf and float(fst.loglaplace.var(1.5)) == np.inf
    x = np.array([-1.2, 0.4, 2.5])
    np.testing.assert_allclose(fg.vmap(lambda v: fst.dgamma.cdf(v, 1.6))(x),
                               scipy_stats.dgamma.cdf(x, 1.6), rtol=1e-13)
    slopes = fg.vmap(fg.grad(lambda v: fst.johnsonsu.logpdf(v, 0.4, 1.3)))(x)
    np.testing.assert_allclose(slopes[2], fg.grad(lambda v: fst.johnsonsu.logpdf(v, 0.4, 1.3))(
        2.5), rtol=1e-13)
    single = fst.genexpon.logpdf(x.astype(np.float32) + 2.0, 1.5, 2.0, 1.3)
    assert single.dtype == np.float32
    np.testing.assert_allclose(single, scipy_stats.genexpon.logpdf(x + 2.0, 1.5, 2.0, 1.3),
                               rtol=1e-6)


def test_kstwobign_against_its_series():
    """kstwobign's CDF, survival function and quantiles are SciPy's; its density (the
    CDF's derivative) matches the alternating series 8x sum (-1)**(k-1) k**2
    exp(-2 k**2 x**2) to rounding, where SciPy's is 6e-10 off at x = 0.89; its mean and
    variance are the closed forms (SciPy integrates: 6e-12 and 2e-10 apart)."""
    x = np.array([0.47, 0.71, 0.8947644549851195, 1.29])
    q = np.array([0.01, 0.3, 0.5, 0.9])
    for method, arg in (("cdf", x), ("sf", x), ("logcdf", x), ("ppf", q), ("isf", q)):
        assert _rel_close(getattr(fst.kstwobign, method)(arg),
                          getattr(scipy_stats.kstwobign, method)(arg), 1e-12), method
    k = np.arange(1.0, 40.0)[:, None]
    series = 8 * x * np.sum((-1) ** (k - 1) * k ** 2 * np.exp(-2 * k ** 2 * x ** 2), axis=0)
    assert _rel_close(fst.kstwobign.pdf(x), series, 1e-13)
    assert float(fst.kstwobign.mean()) == pytest.approx(scipy_stats.kstwobign.mean(), rel=1e-10)
    assert float(fst.kstwobign.var()) == pytest.approx(scipy_stats.kstwobign.var(), rel=1e-9)
    assert float(fst.kstwobign.cdf(0.2)) == pytest.approx(scipy_stats.kstwobign.cdf(0.2),
                                                          rel=1e-12)  # (the theta series)
    # (the true entropy, by mpmath: SciPy's quad is 3.4e-10 off, 0.000890322317228577)
    assert float(fst.kstwobign.entropy()) == pytest.approx(0.000890322654402673707, rel=1e-12)
    g = fg.grad(lambda v, s: fst.kstwobign.cdf(v, scale=s), argnums=(0, 1))(0.9, 1.3)
    fd = _central(lambda v, s: scipy_stats.kstwobign.cdf(v, scale=s), (0.9, 1.3), 1, 1e-6)
    assert g[1] == pytest.approx(fd, rel=1e-7)
    assert g[0] == pytest.approx(float(fst.kstwobign.pdf(0.9, scale=1.3)), rel=1e-13)


@pytest.mark.parametrize("shapes", [(20, 7, 12), (15, 9, 3), (20, 7, 0)], ids=str)
def test_nhypergeom_matches_scipy(shapes):
    """Every method at the support's ends and past them (r = 0: all the mass at 0);
    the counts are integers: a non-integer one gives NaN, as SciPy's."""
    ours, ref = fst.nhypergeom, scipy_stats.nhypergeom
    k = np.arange(-2.0, 10.0)
    for method in ("logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"):
        assert _rel_close(getattr(ours, method)(k, *shapes, loc=1),
                          getattr(ref, method)(k, *shapes, loc=1), 1e-12), method
    q = np.array([0.0, 0.05, 0.3, 0.5, 0.77, 0.98, 1.0])
    for method in ("ppf", "isf"):
        np.testing.assert_array_equal(getattr(ours, method)(q, *shapes),
                                      getattr(ref, method)(q, *shapes))
    for method in ("mean", "var", "entropy"):
        assert _rel_close(getattr(ours, method)(*shapes), getattr(ref, method)(*shapes),
                          1e-12), method
    assert np.isnan(ours.pmf(3, 20, 7.5, 12))
