"""funcgrad.scipy.differentiate against scipy.differentiate: the same fields and shapes,
derivatives exact where SciPy's are estimates (so equal to its within its error), the
results differentiable, float32 kept, SciPy's option checks."""
import numpy as np
import pytest

sd = pytest.importorskip("scipy.differentiate")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.differentiate as fsd  # noqa: E402


@pytest.mark.parametrize("f, x, args", [
    (np.exp, np.array([0.0, 1.0, -2.0]), ()),
    (lambda x, a: np.sin(a * x), np.linspace(0.0, 1.0, 3), (np.array([[1.0], [2.0]]),)),
    (lambda x: np.log1p(x) / (1 + x ** 2), np.array([0.5, 3.0]), ())])
def test_derivative_is_scipys_exactly(f, x, args):
    want = sd.derivative(f, x, args=args)
    got = fsd.derivative(f, x, args=args)
    assert set(got) >= {"df", "error", "nit", "nfev", "status", "success", "x"}
    assert got.df.shape == want.df.shape == got.status.shape == got.nfev.shape
    np.testing.assert_allclose(got.df, want.df, rtol=1e-9, atol=1e-11)
    assert np.all(got.success) and np.all(got.status == 0)
    assert np.all(got.error == 0) and np.all(got.nit == 0) and np.all(got.nfev == 1)


def test_jacobian_and_hessian_are_scipys():
    def vec(x):  # (2,) -> (3,), vectorized over trailing axes
        return fnp.stack([x[0] * x[1], fnp.sin(x[0]), fnp.exp(x[1])])

    def vec_np(x):
        return np.stack([x[0] * x[1], np.sin(x[0]), np.exp(x[1])])

    for x in (np.array([1.0, 2.0]), np.array([[1.0, 0.5, 3.0], [2.0, -1.0, 0.0]])):
        want = sd.jacobian(vec_np, x)
        got = fsd.jacobian(vec, x)
        assert got.df.shape == want.df.shape == got.status.shape
        np.testing.assert_allclose(got.df, want.df, rtol=1e-9, atol=1e-11)

    def scal(x):
        return x[0] ** 2 * x[1] + fnp.cos(x[1])

    for x in (np.array([1.0, 2.0]), np.array([[1.0, 3.0], [2.0, 4.0]])):
        want = sd.hessian(lambda v: v[0] ** 2 * v[1] + np.cos(v[1]), x)
        got = fsd.hessian(scal, x)
        assert got.ddf.shape == want.ddf.shape == got.status.shape
        np.testing.assert_allclose(got.ddf, want.ddf, rtol=1e-7, atol=1e-9)
        assert np.all(got.success) and np.all(got.error == 0)


def test_results_are_differentiable_and_keep_float32():
    # d/da [d/dx sin(a x)] at x = 1: cos(a) - a sin(a)
    a = 2.0
    got = fg.grad(lambda a: fsd.derivative(lambda x: np.sin(a * x), 1.0).df)(a)
    assert float(got) == pytest.approx(np.cos(a) - a * np.sin(a), rel=1e-12)
    res = fsd.derivative(np.exp, np.array([0.0, 1.0], np.float32))
    assert res.df.dtype == np.float32
    assert fsd.jacobian(lambda x: x * x, np.ones(2, np.float32)).df.dtype == np.float32


def test_nonfinite_status_and_option_checks():
    with np.errstate(divide="ignore"):  # (sqrt's slope at 0 is infinite)
        res = fsd.derivative(np.sqrt, np.array([0.0, 1.0]))
    np.testing.assert_array_equal(res.status, [-3, 0])
    np.testing.assert_array_equal(res.success, [False, True])
    with pytest.raises(ValueError, match="order"):
        fsd.derivative(np.exp, 1.0, order=0)
    with pytest.raises(ValueError, match="tolerances"):
        fsd.derivative(np.exp, 1.0, tolerances={"eps": 1e-3})
    with pytest.raises(ValueError, match="initial_step"):
        fsd.jacobian(np.exp, np.ones(2), initial_step=-1.0)
    with pytest.raises(NotImplementedError, match="callback"):
        fsd.derivative(np.exp, 1.0, callback=print)
    with pytest.raises(ValueError, match="scalar"):
        fsd.hessian(lambda x: x, np.ones(2))
    with pytest.raises(ValueError, match="elementwise"):
        fsd.derivative(lambda x: np.sum(x), np.ones(3))
