"""funcgrad.scipy.special's functions written with funcgrad.numpy operations (the
orthogonal polynomials' recurrence, Carlson's duplication) run on GPU arrays, with their
derivatives, and give the CPU's results."""
import warnings

import numpy as np

import funcgrad as fg
import funcgrad.scipy.special as fsp
from conftest import assert_same

warnings.filterwarnings("ignore", category=RuntimeWarning)

X = np.linspace(-0.9, 0.8, 6)


def gpu(x):
    return fg.device_put(x, "cuda")


def test_a_recurrence_and_its_derivative_on_gpu():
    def f(x):
        return fsp.eval_jacobi(4, 0.5, -0.3, x)
    assert_same(f(gpu(X)), f(X))
    assert_same(fg.elementwise_grad(f)(gpu(X)), fg.elementwise_grad(f)(X))


def test_a_duplication_on_gpu():
    y, z = X + 2.0, 3.0 - X
    got = fsp.elliprf(gpu(X + 1.0), gpu(y), gpu(z))
    assert_same(got, fsp.elliprf(X + 1.0, y, z))
    assert_same(fg.elementwise_grad(lambda x: fsp.elliprf(x, gpu(y), gpu(z)))(gpu(X + 1.0)),
                fg.elementwise_grad(lambda x: fsp.elliprf(x, y, z))(X + 1.0))


def test_an_array_of_degrees_on_gpu():
    n = np.arange(-2, 4)
    assert_same(fsp.eval_legendre(n, gpu(X)), fsp.eval_legendre(n, X))
