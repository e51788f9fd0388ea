"""quad's QUADPACK QAGS (Wynn's epsilon extrapolation): integrable endpoint singularities
to machine precision, against SciPy and closed forms, with their derivatives."""
import math
import warnings

import numpy as np
import pytest

si = pytest.importorskip("scipy.integrate")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.integrate as fsi  # noqa: E402

CASES = [  # (integrand, a, b, exact)
    (lambda x: 1 / math.sqrt(x), 0.0, 1.0, 2.0),
    (lambda x: math.log(x), 0.0, 1.0, -1.0),
    (lambda x: math.log(x) / math.sqrt(x), 0.0, 1.0, -4.0),
    (lambda x: x ** -0.9, 0.0, 1.0, 10.0),
    (lambda x: math.log(1 - x), 0.0, 1.0, -1.0),  # (at the upper end)
    (lambda x: math.sin(30 * x), 0.0, 2.0, (1 - math.cos(60)) / 30),
    (lambda x: abs(x - 0.3), 0.0, 1.0, 0.29),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_quad_reaches_endpoint_singularities_as_scipy(case):
    f, a, b, exact = CASES[case]
    value, abserr = fsi.quad(f, a, b)
    want, want_err = si.quad(f, a, b)
    # (bisection alone stops at ~1e-8 relative on 1/sqrt(x): the extrapolation is needed)
    assert abs(value - exact) <= 1e-12 * abs(exact)
    assert abs(value - want) <= 1e-12 * abs(exact)
    assert abs(value - exact) <= abserr <= max(10 * want_err, 1e-14)


def test_quad_singular_integrals_with_infinite_range_and_break_points():
    value, abserr = fsi.quad(lambda x: np.exp(-x) / np.sqrt(x), 0.0, np.inf)
    np.testing.assert_allclose(value, np.sqrt(np.pi), rtol=1e-12)
    assert abserr < 1e-9
    value, _ = fsi.quad(lambda x: abs(x - 0.3) ** -0.5, 0.0, 1.0, points=[0.3])
    np.testing.assert_allclose(value, 2 * (np.sqrt(0.3) + np.sqrt(0.7)), rtol=1e-12)
    value, _ = fsi.quad(lambda x: math.log(x), 1.0, 0.0)  # (reversed limits)
    assert value == pytest.approx(1.0, rel=1e-14)


def test_quad_derivatives_through_a_singular_integrand():
    def integral(p):  # the integral of x^p over [0, 1] is 1 / (p + 1)
        return fsi.quad(lambda x, p: x ** p, 0.0, 1.0, (p,))[0]

    np.testing.assert_allclose(fg.grad(integral)(-0.5), -4.0, rtol=1e-12)
    np.testing.assert_allclose(fg.grad(fg.grad(integral))(-0.5), 16.0, rtol=1e-11)

    def log_scaled(s):  # the integral of log(s x) over [0, 1] is log(s) - 1
        return fsi.quad(lambda x: np.log(s * x), 0.0, 1.0)[0]

    np.testing.assert_allclose(fg.grad(log_scaled)(2.0), 0.5, rtol=1e-12)


def test_quad_warns_on_a_divergent_integral_as_scipy():
    with pytest.warns(fsi.IntegrationWarning, match="subdivisions"):
        value, abserr = fsi.quad(lambda x: 1 / x, 0.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", si.IntegrationWarning)
        want = si.quad(lambda x: 1 / x, 0.0, 1.0)
    np.testing.assert_allclose((value, abserr), want, rtol=1e-12)
