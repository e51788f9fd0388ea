"""curve_fit with the user's own ``jac``, as SciPy takes it: a function ``jac(xdata,
*params)`` (the model's Jacobian in the parameters, whitened by ``sigma`` as SciPy whitens
it) steers SciPy's search, so popt, pcov and the infodict equal SciPy's with the same jac;
SciPy's finite-difference strings give funcgrad's exact Jacobian; the derivative of the
fit in the data stays funcgrad's, equal to the one without a jac; and the errors."""
import numpy as np
import pytest

import funcgrad as fg

optimize = pytest.importorskip("scipy.optimize")
from funcgrad.scipy.optimize import curve_fit  # noqa: E402


def model(x, a, b, c):
    return a * np.exp(-b * x) + c


class CountedJacobian:
    """model's Jacobian in (a, b, c), written by hand; counts its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, x, a, b, c):
        self.calls += 1
        decay = np.exp(-b * x)
        return np.stack([decay, -a * x * decay, np.ones_like(x)], axis=1)


XDATA = np.linspace(0, 4, 50)
YDATA = model(XDATA, 2.5, 1.3, 0.5) + 0.05 * np.sin(7 * XDATA)
SIGMA = 0.05 + 0.02 * XDATA
COVARIANCE = np.diag(SIGMA ** 2) + 1e-4


@pytest.mark.parametrize("kwargs", [
    {"method": "lm"}, {"method": "trf"}, {"method": "dogbox"},
    {"bounds": (0, [3.0, 1.0, 0.5])},
    {"method": "lm", "sigma": SIGMA}, {"method": "trf", "sigma": SIGMA},
    {"method": "lm", "sigma": COVARIANCE}, {"method": "trf", "sigma": COVARIANCE},
    {"method": "trf", "sigma": SIGMA, "absolute_sigma": True},
], ids=["lm", "trf", "dogbox", "bounds", "lm-sigma1d", "trf-sigma1d", "lm-sigma2d",
        "trf-sigma2d", "trf-sigma1d-absolute"])
def test_callable_jac_gives_scipys_fit(kwargs):
    ours, theirs = CountedJacobian(), CountedJacobian()
    popt, pcov, info, _, _ = curve_fit(model, XDATA, YDATA, jac=ours, full_output=True,
                                       **kwargs)
    spopt, spcov, sinfo, _, _ = optimize.curve_fit(model, XDATA, YDATA, jac=theirs,
                                                   full_output=True, **kwargs)
    assert ours.calls > 0
    # the same Jacobian steers the same MINPACK / trf / dogbox iterations
    assert info["nfev"] == sinfo["nfev"]
    np.testing.assert_allclose(popt, spopt, rtol=1e-12)
    np.testing.assert_allclose(info["fvec"], sinfo["fvec"], rtol=1e-10, atol=1e-14)
    # (lm: SciPy's pcov comes from MINPACK's QR of the Jacobian at the last iterate it
    # evaluated, ours from the Jacobian at popt: equal to the optimizer's tolerance)
    np.testing.assert_allclose(pcov, spcov, rtol=1e-12 if kwargs.get("method") != "lm"
                               else 1e-4)


def test_callable_jac_is_whitened_by_sigma():
    """A scalar sigma divides the Jacobian as it divides the residuals (SciPy's own 2-D
    branch refuses a 0-d sigma with a jac: compared with the same sigma as a 1-D array)."""
    popt, pcov = curve_fit(model, XDATA, YDATA, sigma=0.1, jac=CountedJacobian(),
                           method="trf", absolute_sigma=True)
    spopt, spcov = optimize.curve_fit(model, XDATA, YDATA, sigma=np.full(50, 0.1),
                                      jac=CountedJacobian(), method="trf",
                                      absolute_sigma=True)
    np.testing.assert_allclose(popt, spopt, rtol=1e-12)
    np.testing.assert_allclose(pcov, spcov, rtol=1e-10)


@pytest.mark.parametrize("jac", ["2-point", "3-point", "cs"])
def test_string_jac_is_funcgrads_exact_jacobian(jac):
    popt, pcov = curve_fit(model, XDATA, YDATA, jac=jac, method="trf", sigma=SIGMA)
    spopt, spcov = optimize.curve_fit(model, XDATA, YDATA, jac=jac, method="trf",
                                      sigma=SIGMA)
    np.testing.assert_allclose(popt, spopt, rtol=1e-6)
    # (SciPy's pcov from its finite differences: agreement to their accuracy)
    np.testing.assert_allclose(pcov, spcov, rtol=1e-4)
    exact, _ = curve_fit(model, XDATA, YDATA, jac=CountedJacobian(), method="trf",
                         sigma=SIGMA)
    np.testing.assert_allclose(popt, exact, rtol=1e-10)


@pytest.mark.parametrize("kwargs", [{}, {"method": "trf", "sigma": COVARIANCE},
                                    {"sigma": SIGMA}])
def test_derivative_through_the_fit_is_the_one_without_jac(kwargs):
    def fit(y, x=XDATA, **jac):
        return curve_fit(model, x, y, **kwargs, **jac)

    own = CountedJacobian()
    for of in (lambda out: out[0], lambda out: out[1]):   # popt, and pcov
        with_jac = fg.jacrev(lambda y: of(fit(y, jac=own)))(YDATA)
        without = fg.jacrev(lambda y: of(fit(y)))(YDATA)
        np.testing.assert_allclose(with_jac, without, rtol=1e-7, atol=1e-12)
    assert own.calls > 0
    with_jac = fg.jacfwd(lambda x: fit(YDATA, x, jac=own)[0])(XDATA)
    without = fg.jacfwd(lambda x: fit(YDATA, x)[0])(XDATA)
    np.testing.assert_allclose(with_jac, without, rtol=1e-7, atol=1e-12)


def test_callable_jac_under_vmap_and_jit():
    own = CountedJacobian()
    ys = np.stack([YDATA, 1.1 * YDATA])
    got = fg.vmap(lambda y: curve_fit(model, XDATA, y, jac=own, sigma=SIGMA)[0])(ys)
    want = np.stack([optimize.curve_fit(model, XDATA, y, jac=CountedJacobian(),
                                        sigma=SIGMA)[0] for y in ys])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert own.calls > 0
    popt, pcov = fg.jit(lambda y: curve_fit(model, XDATA, y, jac=own, method="trf"))(YDATA)
    spopt, spcov = optimize.curve_fit(model, XDATA, YDATA, jac=CountedJacobian(),
                                      method="trf")
    np.testing.assert_allclose(popt, spopt, rtol=1e-12)
    np.testing.assert_allclose(pcov, spcov, rtol=1e-10)
    grad = fg.jit(fg.grad(lambda y: curve_fit(model, XDATA, y, jac=own)[0][1]))(YDATA)
    np.testing.assert_allclose(grad, fg.grad(lambda y: curve_fit(model, XDATA, y)[0][1])(YDATA),
                               rtol=1e-7, atol=1e-12)


def transposed(x, a, b, c):
    return CountedJacobian()(x, a, b, c).T


@pytest.mark.parametrize("method", ["lm", "trf"])
def test_jac_of_the_wrong_shape_raises(method):
    with pytest.raises(ValueError, match=r"returned shape \(3, 50\).*\(50, 3\)"):
        curve_fit(model, XDATA, YDATA, jac=transposed, method=method)
    with pytest.raises(ValueError, match=r"returned shape \(3, 50\).*\(50, 3\)"):
        fg.jit(lambda y: curve_fit(model, XDATA, y, jac=transposed, method=method))(YDATA)


def test_jac_that_is_not_scipys_raises():
    with pytest.raises(TypeError, match="method='lm' takes jac as a function"):
        curve_fit(model, XDATA, YDATA, jac="2-point")
    with pytest.raises(ValueError, match="jac=True is not one of SciPy's"):
        curve_fit(model, XDATA, YDATA, jac=True, method="trf")
