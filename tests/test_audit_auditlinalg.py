"""Regressions of the session-25 derivative audit of numpy.linalg / scipy.linalg / fft:
Cholesky reads one triangle (and the diagonal's real part), as NumPy's and SciPy's, so
its derivative in the other triangle is zero; scipy.linalg.solve with assume_a='her' or
'pos' ignores the imaginary part of the diagonal, as LAPACK's Hermitian solvers.  Values
come from NumPy/SciPy, derivatives from central differences of their functions."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.linalg as fsl  # noqa: E402

RNG = np.random.default_rng(2525)


def _spd(cplx):
    a = RNG.standard_normal((3, 3)) + (1j * RNG.standard_normal((3, 3)) if cplx else 0)
    m = a @ a.conj().T + 3 * np.eye(3)
    # the triangle the function does not read holds other numbers, and (complex) the
    # diagonal an imaginary part that LAPACK ignores
    noise = RNG.standard_normal((3, 3)) + (1j * RNG.standard_normal((3, 3)) if cplx else 0)
    return m + np.triu(noise, 1) + np.tril(noise, -1) * 0.5 + (
        1j * np.diag(RNG.standard_normal(3)) if cplx else 0)


def _rand(shape, cplx):
    return RNG.standard_normal(shape) + (1j * RNG.standard_normal(shape) if cplx else 0)


def _fd(f, x, t, h=1e-6):
    """A 4-point central difference of the reference ``f`` along ``t``."""
    return (8 * (f(x + h * t) - f(x - h * t)) - (f(x + 2 * h * t) - f(x - 2 * h * t))) / (12 * h)


def _agree(ours, theirs, x, cplx, tol=1e-7):
    assert np.allclose(ours(x), theirs(x), rtol=1e-12, atol=1e-12)
    t = _rand(x.shape, cplx)
    _, jt = fg.jvp(ours, (x,), (t,))
    want = _fd(theirs, x, t)
    np.testing.assert_allclose(jt, want, rtol=0, atol=tol * np.max(np.abs(want)))
    # the reverse mode: JAX's pairing Re sum(a * b)
    out, pull = fg.vjp(ours, x)
    g = _rand(np.shape(out), np.iscomplexobj(out))
    (gx,) = pull(g)
    assert np.isclose(np.real(np.sum(gx * t)), np.real(np.sum(g * want)), rtol=1e-6)


@pytest.mark.parametrize("cplx", [False, True])
@pytest.mark.parametrize("upper", [False, True])
def test_numpy_cholesky_reads_one_triangle_value_and_derivative(cplx, upper):
    # (the value with upper=True was read from the lower triangle, and both derivatives
    # spread over the triangle NumPy never reads)
    a = _spd(cplx)
    _agree(lambda m: fnp.linalg.cholesky(m, upper=upper),
           lambda m: np.linalg.cholesky(m, upper=upper), a, cplx)


def test_numpy_cholesky_stacked_and_gradient_zero_in_the_unread_triangle():
    a = np.stack([_spd(False), _spd(False)])
    _agree(fnp.linalg.cholesky, np.linalg.cholesky, a, False)
    g = fg.grad(lambda m: fnp.sum(fnp.linalg.cholesky(m)))(a[0])
    assert np.all(np.triu(g, 1) == 0)
    g = fg.grad(lambda m: fnp.sum(fnp.linalg.cholesky(m, upper=True)))(a[0])
    assert np.all(np.tril(g, -1) == 0)


@pytest.mark.parametrize("cplx", [False, True])
@pytest.mark.parametrize("lower", [False, True])
def test_scipy_cholesky_and_cho_factor_read_one_triangle(cplx, lower):
    a = _spd(cplx)
    _agree(lambda m: fsl.cholesky(m, lower=lower), lambda m: sl.cholesky(m, lower=lower),
           a, cplx)
    _agree(lambda m: fsl.cho_factor(m, lower=lower)[0],
           lambda m: sl.cho_factor(m, lower=lower)[0], a, cplx)
    b = _rand((3, 2), cplx)
    _agree(lambda m: fsl.cho_solve(fsl.cho_factor(m, lower=lower), b),
           lambda m: sl.cho_solve(sl.cho_factor(m, lower=lower), b), a, cplx)


@pytest.mark.parametrize("assume_a", ["her", "pos"])
@pytest.mark.parametrize("lower", [False, True])
def test_scipy_solve_hermitian_ignores_the_imaginary_diagonal(assume_a, lower):
    # (the value was wrong where the diagonal had an imaginary part, and the derivative
    # counted that part)
    a, b = _spd(True), _rand((3, 2), True)
    assert np.abs(np.imag(np.diag(a))).min() > 0
    _agree(lambda m: fsl.solve(m, b, assume_a=assume_a, lower=lower),
           lambda m: sl.solve(m, b, assume_a=assume_a, lower=lower), a, True)


def test_tensor_cholesky_keeps_pytorchs_hermitian_derivative():
    # funcgrad.Tensor follows PyTorch: a tangent counts through its Hermitian part
    a = _spd(False)
    x = fg.tensor(a, requires_grad=True)
    fg.linalg.cholesky(x).sum().backward()
    g = np.asarray(x.grad)
    np.testing.assert_allclose(g, g.T, rtol=1e-12, atol=1e-14)
