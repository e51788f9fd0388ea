"""``xlogy`` / ``xlog1py`` derivatives where ``x == 0`` follow JAX's convention (the
functional API's): ``d/dx = log(y)`` (``log1p(y)``) also there -- ``-inf`` at ``y == 0``
(``y == -1``) -- while the values stay SciPy's 0, and ``d/dy`` is 0 there (the function
is 0 along ``x == 0``).  Expected values are NumPy's logs and SciPy's values, and central
differences where the derivative is finite."""
import numpy as np
import pytest
import scipy.special

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.scipy.special import xlog1py, xlogy
from helpers import check_dot_product, check_jvp_fd, check_second_order, check_vmap

CASES = [(xlogy, np.log, scipy.special.xlogy, 0.0), (xlog1py, np.log1p, scipy.special.xlog1py,
                                                     -1.0)]


# (an infinite derivative: funcgrad's reverse mode warns of the 0 * inf it meets on the way)
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
@pytest.mark.parametrize("f, log, ref, pole", CASES, ids=["xlogy", "xlog1py"])
def test_d_dx_at_x_zero_is_the_log_of_y_as_jax(f, log, ref, pole):
    """(PyTorch's torch.xlogy gives 0 there; JAX, and the true partial, log(y).)"""
    ys = np.array([pole, pole + 2.0, pole - 1.0, np.inf, pole + 0.5])
    xs = np.zeros_like(ys)
    with np.errstate(divide="ignore", invalid="ignore"):
        want = log(ys)  # -inf at the pole, NaN below it, +inf at +inf
    np.testing.assert_array_equal(f(xs, ys), ref(xs, ys))  # the values: SciPy's zeros
    grad_x = fg.grad(lambda x: fnp.sum(f(x, ys)))(xs)
    np.testing.assert_array_equal(grad_x, want)
    tangent = fg.jvp(lambda x: f(x, ys), (xs,), (np.ones_like(xs),))[1]
    np.testing.assert_array_equal(tangent, want)
    assert float(fg.grad(f)(0.0, pole)) == -np.inf
    # jit and vmap agree with eager
    assert float(fg.jit(fg.grad(f))(0.0, pole)) == -np.inf
    np.testing.assert_array_equal(fg.vmap(fg.grad(f))(xs, ys), want)


@pytest.mark.parametrize("f, log, ref, pole", CASES, ids=["xlogy", "xlog1py"])
def test_d_dy_at_x_zero_is_zero_and_finite_elsewhere(f, log, ref, pole):
    ys = np.array([pole, pole + 2.0, np.inf, pole + 0.5])
    np.testing.assert_array_equal(fg.grad(lambda y: fnp.sum(f(np.zeros(4), y)))(ys),
                                  np.zeros(4))
    # away from x == 0: x / y (x / (1 + y))
    x, y = np.array([1.5, -2.0]), np.array([pole + 0.5, pole + 3.0])
    np.testing.assert_allclose(fg.grad(lambda y: fnp.sum(f(x, y)))(y), x / (y - pole))


@pytest.mark.parametrize("f, log, ref, pole", CASES, ids=["xlogy", "xlog1py"])
def test_regular_points_pass_the_correctness_bar(f, log, ref, pole):
    rng = np.random.default_rng(0)
    args = (rng.normal(size=4), pole + 0.5 + rng.random(4))
    check_jvp_fd(f, args)
    check_dot_product(f, args)
    check_second_order(f, args)
    check_vmap(f, args, (0, 0))
    y32 = np.array([pole + 0.5, pole + 1.0], np.float32)
    x32 = fg.grad(lambda x: fnp.sum(f(x, y32)))(np.zeros(2, np.float32))
    assert x32.dtype == np.float32
    np.testing.assert_allclose(x32, log(y32), rtol=1e-6)


@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_a_scalar_x_broadcasts_against_y_in_the_derivative():
    # d/dx sum(xlogy(x, y)) = sum(log(y)) for a scalar x: -inf with a zero in y
    ys = np.array([0.5, 2.0, 0.0])
    assert float(fg.grad(lambda x: fnp.sum(xlogy(x, ys)))(0.0)) == -np.inf
    assert float(fg.grad(lambda x: fnp.sum(xlogy(x, ys[:2])))(0.0)) == pytest.approx(
        np.log(0.5) + np.log(2.0), rel=1e-15)
    np.testing.assert_array_equal(fg.grad(lambda y: fnp.sum(xlog1py(0.0, y)))(ys - 1.0),
                                  np.zeros(3))


# (PyTorch's d/dy at (0, 0) is 0 / 0: NaN, reported by the backward pass as such)
@pytest.mark.filterwarnings("ignore:invalid value encountered:RuntimeWarning")
def test_the_eager_tensor_keeps_pytorchs_convention():
    """``Tensor.xlogy`` follows PyTorch (as the Tensor does everywhere): d/dx at (0, 0) is
    0 there, d/dy NaN; values PyTorch's (written out)."""
    x = fg.Tensor(np.array([0.0, 0.0, 1.0]), requires_grad=True)
    y = fg.Tensor(np.array([0.0, 2.0, 0.5]), requires_grad=True)
    x.xlogy(y).sum().backward()
    np.testing.assert_array_equal(np.asarray(x.grad), [0.0, np.log(2.0), np.log(0.5)])
    np.testing.assert_array_equal(np.asarray(y.grad), [np.nan, 0.0, 2.0])
