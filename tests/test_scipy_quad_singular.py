"""quad's QUADPACK QAGS (Wynn's epsilon extrapolation): integrable endpoint singularities
to machine precision, and SciPy's weight functions, against SciPy and closed forms, with
their derivatives."""
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


WEIGHTS = [("alg", (-0.5, 0.3)), ("alg-loga", (-0.5, 0.3)), ("alg-logb", (0.2, -0.7)),
           ("alg-log", (0.0, 0.0)), ("cos", 7.0), ("sin", 20.0), ("cauchy", 0.3),
           ("cauchy", 0.5)]


@pytest.mark.parametrize("weight, wvar", WEIGHTS)
def test_quad_weights_match_scipys(weight, wvar):
    got, err = fsi.quad(lambda x: np.exp(x) + x * x, 0.0, 1.0, weight=weight, wvar=wvar)
    want = si.quad(lambda x: np.exp(x) + x * x, 0.0, 1.0, weight=weight, wvar=wvar)[0]
    # (QAGS on the folded integrand against SciPy's QAWS/QAWO/QAWC moments: within the
    # default tolerance 1.49e-8, mostly to rounding)
    assert abs(got - want) <= 1.49e-8 * abs(want) and abs(got - want) <= err + 1e-14


@pytest.mark.parametrize("weight, wvar, which", [
    ("alg", (-0.5, 0.3), "wvar"), ("alg-loga", (-0.5, 0.3), "b"), ("cos", 7.0, "wvar"),
    ("cauchy", 0.3, "wvar")])
def test_quad_weight_derivatives_match_central_differences(weight, wvar, which):
    def ours(p):
        w = (p, wvar[1]) if weight.startswith("alg") and which == "wvar" else \
            wvar if which == "b" else p
        return fsi.quad(lambda x: np.exp(x), 0.0, p if which == "b" else 1.0,
                        weight=weight, wvar=w)[0]

    def scipys(p):
        w = (p, wvar[1]) if weight.startswith("alg") and which == "wvar" else \
            wvar if which == "b" else p
        return si.quad(np.exp, 0.0, p if which == "b" else 1.0, weight=weight, wvar=w,
                       epsabs=1e-13, epsrel=1e-13)[0]

    p = 1.0 if which == "b" else wvar[0] if weight.startswith("alg") else wvar
    h = 1e-6
    with warnings.catch_warnings():
        warnings.simplefilter("error", fsi.IntegrationWarning)  # (none, d/da included)
        got = fg.grad(ours)(p)
    np.testing.assert_allclose(got, (scipys(p + h) - scipys(p - h)) / (2 * h), rtol=1e-7)


def test_quad_weight_errors_name_the_problem():
    f = np.exp
    with pytest.raises(ValueError, match="not a recognized weighting function"):
        fsi.quad(f, 0.0, 1.0, weight="exp", wvar=1.0)
    with pytest.raises(NotImplementedError, match="infinite interval"):
        fsi.quad(f, 0.0, np.inf, weight="cos", wvar=1.0)
    with pytest.raises(ValueError, match="Cannot integrate with this weight"):
        fsi.quad(f, 0.0, np.inf, weight="alg", wvar=(0.0, 0.0))
    with pytest.raises(ValueError, match="alpha, beta > -1"):
        fsi.quad(f, 0.0, 1.0, weight="alg", wvar=(-1.0, 0.0))
    with pytest.raises(ValueError, match="strictly inside"):
        fsi.quad(f, 0.0, 1.0, weight="cauchy", wvar=1.0)
    with pytest.raises(ValueError, match="break points cannot be given with a weight"):
        fsi.quad(f, 0.0, 1.0, weight="cos", wvar=1.0, points=[0.5])
