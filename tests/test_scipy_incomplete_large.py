"""The regularized incomplete gamma and beta functions at large shapes: Temme's uniform
expansion for ``P``/``Q`` near ``x = a``, the prefactors written about the mean, and no
sum or fraction that stops short of convergence and still returns a number (session 18:
``gammainc(2e6, 2e6)`` was 0.49989 after 5000 terms of a series that needed 12000)."""
import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")
mp = pytest.importorskip("mpmath")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
from funcgrad.primitives import incomplete  # noqa: E402


def lower_gamma_mpmath(a, x, dps=40):
    """P(a, x) by its power series in mpmath, summed until the terms fall below the
    working precision (mpmath's own gammainc stops on its term limit at these shapes)."""
    with mp.workdps(dps):
        a, x = mp.mpf(a), mp.mpf(x)
        term = 1 / a
        total = term
        n = 0
        while abs(term) > abs(total) * mp.mpf(10) ** (5 - dps):
            n += 1
            term = term * x / (a + n)
            total += term
        return mp.exp(a * mp.log(x) - x - mp.loggamma(a)) * total


def test_gammainc_at_two_million_is_no_longer_a_truncated_series():
    # main gave 0.49989 (5000 terms of a series that needs about 12000)
    want = float(lower_gamma_mpmath(2e6, 2e6))
    assert abs(float(fsp.gammainc(2e6, 2e6)) - want) <= 1e-14 * want
    assert abs(float(fsp.gammaincc(2e6, 2e6)) - (1 - want)) <= 1e-14


@pytest.mark.parametrize("a, ratio", [
    (1e6, 0.99), (1e6, 0.999), (1e6, 1.0), (1e6, 1.001), (3e5, 1.002),
    (1e7, 0.9995), (1e7, 1.0), (1e8, 0.999), (1e8, 1.0), (25.0, 0.72), (25.0, 1.28)])
def test_gammainc_near_the_mean_of_a_large_shape_matches_mpmath(a, ratio):
    x = a * ratio
    p = lower_gamma_mpmath(a, x)
    with mp.workdps(40):
        q = 1 - p
    assert abs(float(fsp.gammainc(a, x)) - float(p)) <= 2e-13 * float(p)
    assert abs(float(fsp.gammaincc(a, x)) - float(q)) <= 2e-13 * float(q)


RATIOS = [1e-3, 0.1, 0.5, 0.69, 0.71, 0.8, 0.9, 0.99, 0.999, 1.0, 1.001, 1.01, 1.1, 1.29,
          1.31, 1.5, 2.0, 10.0]


def test_gammainc_grid_matches_scipy():
    # shapes 1e-3 .. 1e5 (beyond, SciPy's own value is off: 15% at gammainc(1e8, 0.999e8)
    # by mpmath, tested above), x/a across both sides of every region's border
    a, ratio = np.meshgrid(np.geomspace(1e-3, 1e5, 33), RATIOS)
    x = a * ratio
    for ours, theirs in ((fsp.gammainc, scipy_special.gammainc),
                         (fsp.gammaincc, scipy_special.gammaincc)):
        got, want = np.asarray(ours(a, x)), theirs(a, x)
        # a tail value exp(-E) carries about 1e-16 E of rounding in either library
        # (SciPy's is the larger: see the mpmath test of the tails below)
        rtol = 1e-12 * np.maximum(1.0, -np.log(np.maximum(want, 1e-300)) / 30)
        assert np.all(np.abs(got - want) <= rtol * want + 1e-300), (ours, got, want)


@pytest.mark.parametrize("a, ratio", [(1778.2794100389228, 1.5), (5623.413251903491, 1.5),
                                      (1778.2794100389228, 2.0), (300.0, 0.6)])
def test_gammaincc_far_tails_match_mpmath(a, ratio):
    x = a * ratio
    with mp.workdps(40):
        want = float(mp.gammainc(mp.mpf(a), mp.mpf(x), mp.inf, regularized=True))
        want_p = float(mp.gammainc(mp.mpf(a), 0, mp.mpf(x), regularized=True))
    assert abs(float(fsp.gammaincc(a, x)) - want) <= 1e-12 * want
    assert abs(float(fsp.gammainc(a, x)) - want_p) <= 1e-12 * want_p


def test_gammainc_far_tails_of_large_shapes_are_the_limits():
    a = np.array([1e6, 1e7, 1e8, 1e8])
    x = a * np.array([0.5, 1.5, 0.7, 1.4])
    np.testing.assert_allclose(fsp.gammainc(a, x), scipy_special.gammainc(a, x),
                               rtol=1e-12, atol=1e-300)
    np.testing.assert_allclose(fsp.gammaincc(a, x), scipy_special.gammaincc(a, x),
                               rtol=1e-12, atol=1e-300)


def test_gammainc_float32_stays_float32_at_a_large_shape():
    a = np.float32(2e6)
    got = fsp.gammainc(a, a)
    assert got.dtype == np.float32
    assert abs(float(got) - 0.5000940315975192) < 1e-6


def test_gammainc_under_jit_and_vmap_uses_the_same_expansion():
    a = np.array([2e6, 1e7, 30.0])
    x = a * np.array([1.0, 0.9995, 1.1])
    want = np.asarray(fsp.gammainc(a, x))
    np.testing.assert_allclose(fg.jit(fsp.gammainc)(a, x), want, rtol=1e-15)
    np.testing.assert_allclose(fg.vmap(fsp.gammaincc)(a, x), 1 - want, rtol=1e-13)
    assert abs(want[0] - float(lower_gamma_mpmath(2e6, 2e6))) < 1e-14


def test_a_nan_in_the_domain_raises_naming_the_region():
    # the kernels give NaN for a sum that did not converge; the eager call says where
    with pytest.raises(FloatingPointError, match="Temme's uniform expansion"):
        incomplete._value_or_raise(np.array([np.nan]), "gammainc(a, x)", 2e6, 2e6)
    with pytest.raises(FloatingPointError, match=r"the series \(x < a \+ 1\)"):
        incomplete._value_or_raise(np.array([np.nan]), "gammainc(a, x)", 5.0, 1.0)
    with pytest.raises(FloatingPointError, match="continued fraction"):
        incomplete._value_or_raise(np.array([np.nan]), "betainc(a, b, x)", 1.0, 2.0, 0.5)
    # outside the domain NaN is the answer, as SciPy's
    assert np.isnan(fsp.gammainc(-1.0, 2.0))
    assert np.isnan(fsp.betainc(1.0, 2.0, 1.5))


def test_gammainc_derivative_in_a_agrees_with_the_new_values():
    # central differences of the values (relative step) against gammainc_da, where the
    # old series was truncated (a > 3e5) and below
    for a in (3e4, 5e5, 1e6):
        for ratio in (0.999, 1.0, 1.002):
            x = a * ratio
            h = 1e-6 * a
            diff = (float(fsp.gammainc(a + h, x)) - float(fsp.gammainc(a - h, x))) / (2 * h)
            got = float(fg.grad(fsp.gammainc)(a, x))
            assert abs(got - diff) <= 1e-6 * abs(diff), (a, ratio, got, diff)


def test_betainc_symmetric_large_shapes_are_one_half():
    # I_{1/2}(a, a) = 1/2 exactly; main gave 0.5 + 4.7e-10 at a = 1e6 (the lgamma
    # prefactor's cancellation), 0.5 + 1.2e-7 at 1e8
    for a, tol in ((1e4, 1e-14), (1e6, 1e-12), (1e8, 5e-11)):
        assert abs(float(fsp.betainc(a, a, 0.5)) - 0.5) <= tol, a


def test_betainc_grid_matches_scipy():
    shapes = [1e-3, 0.5, 3.0, 30.0, 1e3, 1e5]
    for a in shapes:
        for b in shapes:
            # a continued fraction on the side of a shape 1e4 times the other rounds to
            # 5e-12 (Numerical Recipes' choice of side; see the report)
            rtol = 1e-11 if max(a, b) / min(a, b) >= 1e4 else 1e-12
            mean = a / (a + b)
            sd = np.sqrt(a * b / (a + b) ** 2 / (a + b + 1))
            x = mean + sd * np.array([-8, -3, -1, 0, 0.5, 1, 3, 8])
            x = x[(x > 0) & (x < 1)]
            np.testing.assert_allclose(fsp.betainc(a, b, x), scipy_special.betainc(a, b, x),
                                       rtol=rtol, atol=1e-300, err_msg=f"{a}, {b}")


def test_betainc_large_shapes_match_scipy():
    # main: up to 4e-5 relative (lgamma(a + b) - lgamma(a) - ... cancelled); the continued
    # fraction's own rounding leaves up to 4e-9 when one shape is 1e8 and the other small
    for a, b, tol in ((1e6, 1e6, 1e-12), (1e6, 1e4, 1e-11), (1e7, 1e8, 1e-11),
                      (1e8, 2.0, 1e-8), (1e7, 1e-3, 1e-11)):
        mean = a / (a + b)
        sd = np.sqrt(a * b / (a + b) ** 2 / (a + b + 1))
        x = mean + sd * np.array([-3, -1, 0, 1, 3])
        x = x[(x > 0) & (x < 1)]
        np.testing.assert_allclose(fsp.betainc(a, b, x), scipy_special.betainc(a, b, x),
                                   rtol=tol, atol=1e-300, err_msg=f"{a}, {b}")


def test_betainc_with_one_shape_negligible_beside_the_other():
    # (the mean rounds to 0 or 1: the prefactor takes it as exactly 0 or 1 and corrects)
    a = np.array([1e5, 1e-12, 3.0, 1e8])
    b = np.array([1e-12, 1e5, 1e6, 1e-5])
    x = np.array([0.5, 1e-6, 2e-6, 1 - 1e-9])
    # (the last: the continued fraction's rounding at a/b = 1e13, as in the test above)
    got, want = np.asarray(fsp.betainc(a, b, x)), scipy_special.betainc(a, b, x)
    rtol = np.array([1e-12, 1e-12, 1e-12, 1e-10])
    assert np.all(np.abs(got - want) <= rtol * want + 1e-300), (got, want)


def test_float32_values_converge_everywhere():
    # float32's continued fractions end within two ulps of 1, not float64's tolerance
    a, ratio = np.meshgrid(np.geomspace(1e-3, 1e7, 41), RATIOS)
    a32, x32 = a.astype(np.float32), (a * ratio).astype(np.float32)
    for ours, theirs in ((fsp.gammainc, scipy_special.gammainc),
                         (fsp.gammaincc, scipy_special.gammaincc)):
        got = ours(a32, x32)
        assert got.dtype == np.float32 and not np.isnan(got).any()
        want = theirs(a32.astype(np.float64), x32.astype(np.float64))
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-30)
    shapes = np.array([1e-3, 0.5, 3.0, 30.0, 1e3, 1e5], np.float32)
    a, b, x = np.meshgrid(shapes, shapes, np.linspace(0.01, 0.99, 15).astype(np.float32))
    got = fsp.betainc(a, b, x)
    assert got.dtype == np.float32 and not np.isnan(got).any()
    want = scipy_special.betainc(*(v.astype(np.float64) for v in (a, b, x)))
    np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-30)
