"""``smirnov`` and ``smirnovi`` (the one-sided Kolmogorov-Smirnov survival function and
its inverse): SciPy's values and dtypes bit for bit, their derivatives in ``d`` and ``p``
against central differences of SciPy's values (and SciPy's private ``_smirnovp``, the
negative density), of every order, under every transform; none in ``n``.  The property
table of tests/test_primitives.py has a line for each primitive too."""
import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
from funcgrad.primitives.smirnov import smirnov_derivative  # noqa: E402
from helpers import check_second_order  # noqa: E402

# (SciPy's private _smirnovp: ksone.pdf's own; funcgrad's ksone needs its twins _smirnovc
# and _smirnovci, so a SciPy without them should fail here, not skip)
from scipy.special import _ufuncs  # noqa: E402

N = np.array([1, 2, 3, 5, 10, 50, 1000])
D = np.array([0.0, 1e-300, 0.01, 0.1, 0.25, 1 / 3, 0.5, 0.7, 0.99, 1.0, -0.0, -0.1, 1.1,
              2.0, np.inf, -np.inf, np.nan])
P = np.array([0.0, 1e-300, 1e-10, 0.01, 0.3, 0.5, 0.9, 1.0, -0.1, 1.5, np.nan])


def _grid(n, x):
    return np.meshgrid(n, x, indexing="ij")


@pytest.mark.filterwarnings("ignore:floating point number truncated:RuntimeWarning")
@pytest.mark.parametrize("name,second", [("smirnov", D), ("smirnovi", P)])
def test_values_and_dtypes_are_scipys_bit_for_bit(name, second):
    ns = np.concatenate([N, [0, -1]])
    n, x = _grid(ns, second)
    with np.errstate(all="ignore"):
        for args in [(n, x), (n.astype(float), x), (n.astype(float) + 0.5, x),
                     (n.astype(np.float32), x.astype(np.float32)), (5, x.astype(np.float32)),
                     (np.nan, x)]:
            got, want = getattr(fsp, name)(*args), getattr(scipy_special, name)(*args)
            assert np.asarray(got).dtype == want.dtype, args
            np.testing.assert_array_equal(got, want)
        # on scalars under jit (which calls SciPy for these)
        np.testing.assert_array_equal(fg.jit(getattr(fsp, name))(7, second[4]),
                                      getattr(scipy_special, name)(7, second[4]))


def _away_from_kinks(n, d, h=1e-6):
    """Points of (0, 1) farther than ``2 h d`` (past a central difference's steps) from
    every ``j/n``, where the terms of smirnov's sum enter (and its slope jumps)."""
    frac = n * d - np.floor(n * d)
    return (d > 1e-3) & (d < 1 - 1e-3) & (np.minimum(frac, 1 - frac) / n > 2 * h * d)


def test_slope_is_central_differences_of_scipys_values():
    rng = np.random.default_rng(3)
    for n in (1, 2, 3, 5, 10, 50, 1000, 100000):
        m = 8 if n > 1000 else 40  # (each point of n = 10**5 sums 10**5 terms)
        d = np.concatenate([rng.uniform(0, 1, m), rng.uniform(0, 3 / np.sqrt(n), m)])
        d = d[_away_from_kinks(n, d)]
        h = 1e-6 * d
        want = (scipy_special.smirnov(n, d + h) - scipy_special.smirnov(n, d - h)) / (2 * h)
        got = fg.vmap(fg.grad(fsp.smirnov, 1), (None, 0))(n, d)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8 * np.abs(want).max(),
                                   err_msg=f"n={n}")


def test_slope_is_scipys_density_to_rounding():
    # SciPy's private _smirnovp (-pdf of ksone), where it is not 0 by underflow (n <= ~10**4),
    # kinks included (at d = j/n, j < n - 1, the slope is continuous), and d = 0 (the
    # one-sided slope), but not d = 1/n: there the slope jumps by n C(n, n-1) d / n = 1
    # and the slope here is the right-hand one, SciPy's (for n = 2, 3, 4) their mean
    n, d = _grid(N, np.concatenate([np.linspace(0, 1, 41), [0.2, 1 / 3, 0.1, 0.02]]))
    n, d = n[n * d != 1], d[n * d != 1]
    got = fg.vmap(fg.grad(lambda n, d: fsp.smirnov(n, d), 1))(n, d)
    np.testing.assert_allclose(got, _ufuncs._smirnovp(n, d), rtol=1e-9, atol=1e-300)
    # at d = 1/n: the limit from the right
    for n in (2, 3, 5, 8):
        right = _ufuncs._smirnovp(n, 1 / n + 1e-12)
        np.testing.assert_allclose(fg.grad(fsp.smirnov, 1)(n, 1 / n), right, rtol=1e-9)


def test_higher_derivatives_are_differences_of_the_lower():
    # order k + 1 against central differences of order k (k = 0: SciPy's own values)
    for n in (2, 3, 7, 40):
        d = np.linspace(0.013, 0.987, 23)
        d = d[_away_from_kinks(n, d, 1e-4)]
        h = 1e-6
        for k in range(4):
            lower = scipy_special.smirnov if k == 0 else (
                lambda n, x, k=k: np.asarray(smirnov_derivative(n, x, k)))
            want = (lower(n, d + h) - lower(n, d - h)) / (2 * h)
            got = smirnov_derivative(n, d, k + 1)
            scale = np.abs(want).max()
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6 * scale,
                                       err_msg=f"n={n}, k={k}")
            # and the same through the transforms: grad of grad ... of smirnov
            f = fsp.smirnov
            for _ in range(k + 1):
                f = fg.elementwise_grad(f, 1)
            np.testing.assert_allclose(f(n, d), got, rtol=1e-12, atol=1e-12 * scale)


def test_inverse_slope_is_central_differences_of_scipys_inverse():
    for n in (1, 2, 5, 30, 1000):
        p = np.linspace(0.02, 0.98, 25)
        d = scipy_special.smirnovi(n, p)
        p = p[_away_from_kinks(n, d, 1e-5)]
        h = 1e-7
        want = (scipy_special.smirnovi(n, p + h) - scipy_special.smirnovi(n, p - h)) / (2 * h)
        got = fg.vmap(fg.grad(fsp.smirnovi, 1), (None, 0))(n, p)
        np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"n={n}")
        # and the inverse function theorem, exactly as written: one over smirnov's slope
        np.testing.assert_allclose(got * fg.vmap(fg.grad(fsp.smirnov, 1), (None, 0))(
            n, scipy_special.smirnovi(n, p)), 1.0, rtol=1e-12)


def test_second_order_in_every_combination():
    check_second_order(lambda d: fsp.smirnov(7, d), [np.array([0.05, 0.31, 0.66])])
    check_second_order(lambda p: fsp.smirnovi(7, p), [np.array([0.1, 0.5, 0.85])])
    # second derivative of the inverse: -s''/s'**3 at the result
    d = scipy_special.smirnovi(6, 0.4)
    s1, s2 = smirnov_derivative(6, d, 1), smirnov_derivative(6, d, 2)
    np.testing.assert_allclose(fg.grad(fg.grad(fsp.smirnovi, 1), 1)(6, 0.4), -s2 / s1 ** 3,
                               rtol=1e-12)


def test_transforms_agree():
    n = np.array([1.0, 4.0, 9.0, 25.0])
    d = np.array([0.3, 0.12, 0.45, 0.05])
    slope = np.array([float(fg.grad(fsp.smirnov, 1)(a, b)) for a, b in zip(n, d)])
    np.testing.assert_array_equal(fg.vmap(fg.grad(fsp.smirnov, 1))(n, d), slope)
    np.testing.assert_allclose(fg.jit(fg.vmap(fg.grad(fsp.smirnov, 1)))(n, d), slope,
                               rtol=1e-14)
    out, tangent = fg.jvp(lambda x: fsp.smirnov(n, x), (d,), (np.ones(4),))
    np.testing.assert_array_equal(out, scipy_special.smirnov(n, d))
    np.testing.assert_allclose(tangent, slope, rtol=1e-14)
    np.testing.assert_allclose(fg.jacrev(lambda x: fsp.smirnov(n, x))(d), np.diag(slope),
                               rtol=1e-14)
    p = scipy_special.smirnov(n, d)
    np.testing.assert_allclose(fg.jit(fg.grad(lambda q: fsp.smirnovi(n, q).sum()))(p),
                               1 / slope, rtol=1e-10)
    # SciPy's own ufuncs on traced values reach these
    np.testing.assert_allclose(fg.grad(lambda x: scipy_special.smirnov(4, x))(0.12), slope[1],
                               rtol=1e-14)


def test_float32_stays_float32_where_scipy_keeps_it():
    d32 = np.array([0.1, 0.3, 0.6], np.float32)
    for n in (np.float32(5), 5):  # (a Python int n: SciPy's "ld->d" loop, float64 values)
        assert fsp.smirnov(n, d32).dtype == scipy_special.smirnov(n, d32).dtype
        g = fg.grad(lambda x: fsp.smirnov(n, x).sum())(d32)
        assert g.dtype == np.float32
        np.testing.assert_allclose(g, _ufuncs._smirnovp(5, d32.astype(float)), rtol=1e-5)
        p32 = np.array([0.2, 0.5, 0.8], np.float32)
        g = fg.grad(lambda q: fsp.smirnovi(n, q).sum())(p32)
        assert g.dtype == np.float32
        want = 1 / _ufuncs._smirnovp(5, scipy_special.smirnovi(5, p32.astype(float)))
        np.testing.assert_allclose(g, want, rtol=1e-5)
    # for large n too (computed in float64: in float32 the terms' log-gammas, ~n log n,
    # would leave the slope 10% wrong at n = 1000, d = 0), first and second order
    d32 = np.array([0.0, 0.01, 0.03, 0.06], np.float32)
    slope = fg.elementwise_grad(fsp.smirnov, 1)
    for f in (slope, fg.elementwise_grad(slope, 1)):
        got, want = f(np.float32(1000), d32), f(1000.0, d32.astype(np.float64))
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=1e-6)


def test_outside_the_domain_the_derivative_is_nan_as_the_value():
    d = np.array([-0.5, 1.5, np.nan, np.inf])
    assert np.isnan(fg.vmap(fg.grad(fsp.smirnov, 1), (None, 0))(5, d)).all()
    assert np.isnan(fg.vmap(fg.grad(fsp.smirnov, 1))(np.array([0.0, -3.0, np.nan]),
                                                     np.full(3, 0.4))).all()
    # at the ends of [0, 1], the one-sided slopes (SciPy's density there: -1 at d = 0
    # for every n, by Abel's identity, here a sum that cancels ~n-fold; 0 at d = 1 for n > 1)
    for n in (1, 2, 5, 40):
        np.testing.assert_allclose(
            fg.vmap(fg.grad(fsp.smirnov, 1), (None, 0))(n, np.array([0.0, 1.0])),
            _ufuncs._smirnovp(n, np.array([0.0, 1.0])), rtol=1e-12, atol=0)


@pytest.mark.parametrize("name", ["smirnov", "smirnovi"])
def test_no_derivative_in_n_names_it(name):
    f = getattr(fsp, name)
    with pytest.raises(NotImplementedError, match=rf"{name}\(n, .*respect to n"):
        fg.grad(f, 0)(5.0, 0.3)
    with pytest.raises(NotImplementedError, match="respect to n"):
        fg.jvp(lambda n: f(n, 0.3), (5.0,), (1.0,))
    # n held constant: fine
    assert np.isfinite(fg.grad(lambda x: f(fg.stop_gradient(5.0), x))(0.3))


def test_complex_input_names_the_fix():
    with pytest.raises(TypeError, match="smirnov: complex input .*real array"):
        fsp.smirnov(5, 0.3 + 0j)
    with pytest.raises(TypeError, match="smirnovi: complex input"):
        fsp.smirnovi(5, np.array([0.3j]))


# --- scipy.stats.ksone: D+_n, whose sf is smirnov -----------------------------------------------

scipy_stats = pytest.importorskip("scipy.stats")
fst = pytest.importorskip("funcgrad.scipy.stats")


@pytest.mark.parametrize("n", [1, 2, 5, 40])
def test_ksone_is_scipys(n):
    x = np.array([-0.5, 0.0, 0.02, 0.1, 0.3, 0.55, 0.9, 1.0, 1.5, np.nan])
    q = np.array([0.0, 1e-6, 0.1, 0.5, 0.97, 1.0, -0.1, 1.2, np.nan])
    with np.errstate(all="ignore"):
        for method, arg in [("pdf", x), ("logpdf", x), ("cdf", x), ("logcdf", x), ("sf", x),
                            ("logsf", x), ("ppf", q), ("isf", q)]:
            for kw in ({}, {"loc": 0.1, "scale": 2.0}):
                got = getattr(fst.ksone, method)(arg, n, **kw)
                want = getattr(scipy_stats.ksone, method)(arg, n, **kw)
                # (atol: the density's sum cancels ~n-fold at x = 0, where it is 1)
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13,
                                           err_msg=f"{method}{kw}")
        # n not a positive integer: NaN, as SciPy
        for bad in (0.0, 2.5, -1.0):
            assert np.isnan(fst.ksone.cdf(0.3, bad)) and np.isnan(scipy_stats.ksone.cdf(0.3, bad))


def test_ksone_derivatives():
    n, x = 7, np.array([0.05, 0.2, 0.37, 0.6])
    pdf = scipy_stats.ksone.pdf(x, n)
    np.testing.assert_allclose(fg.elementwise_grad(lambda v: fst.ksone.cdf(v, n))(x), pdf,
                               rtol=1e-12)
    np.testing.assert_allclose(fg.elementwise_grad(lambda v: fst.ksone.sf(v, n))(x), -pdf,
                               rtol=1e-12)
    h = 1e-6
    want = (scipy_stats.ksone.logpdf(x + h, n) - scipy_stats.ksone.logpdf(x - h, n)) / (2 * h)
    np.testing.assert_allclose(fg.elementwise_grad(lambda v: fst.ksone.logpdf(v, n))(x), want,
                               rtol=1e-6)
    q = np.array([0.05, 0.3, 0.8])
    for method, sign in (("ppf", 1.0), ("isf", -1.0)):
        at = getattr(scipy_stats.ksone, method)(q, n)
        np.testing.assert_allclose(
            fg.elementwise_grad(lambda p: getattr(fst.ksone, method)(p, n))(q),
            sign / scipy_stats.ksone.pdf(at, n), rtol=1e-10)
    # in loc and scale, through z = (x - loc) / scale; second order
    check_second_order(lambda loc, scale: fst.ksone.logpdf(0.4, n, loc=loc, scale=scale),
                       [np.array(0.05), np.array(1.2)])
    with pytest.raises(NotImplementedError, match="respect to n"):
        fg.grad(lambda m: fst.ksone.cdf(0.3, m))(5.0)
    # outside the support and where the density is 0 (x = 1, n > 1): -inf, zero slope
    for v in (-0.2, 1.0, 1.3):
        assert fst.ksone.logpdf(v, n) == -np.inf
        assert fg.grad(lambda v: fst.ksone.logpdf(v, n) + fst.ksone.cdf(v, n))(v) == 0.0
