"""QR with column pivoting (``scipy.linalg.qr``/``qr_multiply``, ``lax.linalg.qr``), and the
derivative of LAPACK's extra columns of a complete QR (session 26).

Values come from SciPy/NumPy; derivatives are checked against 4-point central differences
of SciPy's/NumPy's own functions, at points where the pivot order does not change within
the step (random matrices: their column norms are far from ties).
"""
import numpy as np
import pytest
import scipy.linalg as sl

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.linalg as fsl
from funcgrad import lax

RNG = np.random.default_rng(2026)
SHAPES = [(5, 3), (3, 5), (4, 4), (4, 1)]


def _draw(shape, complex_=False, dtype=np.float64):
    x = RNG.standard_normal(shape)
    if complex_:
        x = x + 1j * RNG.standard_normal(shape)
    return x.astype(np.result_type(dtype, np.complex64) if complex_ else dtype)


def _fd(f, a, t, h=1e-6):
    """4-point central difference of ``f`` at ``a`` along ``t``."""
    return (8 * (f(a + h * t) - f(a - h * t)) - (f(a + 2 * h * t) - f(a - 2 * h * t))) / (12 * h)


def _close(got, want, rtol=1e-12, atol=0.0):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol,
                               atol=atol or rtol * max(1.0, np.max(np.abs(want), initial=0.0)))


def _check_derivatives(ours, reference, a, atol=1e-8):
    """``fg.jvp`` along a random ``t`` equals the difference of ``reference``; ``fg.vjp``
    agrees through JAX's pairing ``Re sum(vjp(ct) * t) == Re sum(ct * J t)``."""
    t = _draw(a.shape, a.dtype.kind == "c")
    want = _fd(reference, a, t)
    _, tangent = fg.jvp(ours, (a,), (t,))
    _close(tangent, want, atol=atol)
    ct = _draw(want.shape, a.dtype.kind == "c")
    _, pullback = fg.vjp(ours, a)
    g, = pullback(ct)
    assert np.real(np.sum(g * t)) == pytest.approx(np.real(np.sum(ct * want)), abs=atol * 10)


# --- pivoted QR: values -----------------------------------------------------------------------

@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_pivoted_qr_values_are_scipys_in_every_mode(shape, complex_):
    a = _draw(shape, complex_)
    for mode in ("full", "economic", "r"):
        want = sl.qr(a, mode=mode, pivoting=True)
        for got in (fsl.qr(a, mode=mode, pivoting=True),                       # plain: SciPy's
                    fg.vjp(lambda x: fsl.qr(x, mode=mode, pivoting=True), a)[0]):  # traced
            assert len(got) == len(want)
            for g, w in zip(got, want):
                assert np.asarray(g).dtype == w.dtype and np.shape(g) == w.shape
                _close(g, w)
    (h, tau), r, p = fsl.qr(a, mode="raw", pivoting=True)
    (wh, wtau), wr, wp = sl.qr(a, mode="raw", pivoting=True)
    _close(h, wh), _close(tau, wtau), _close(r, wr), _close(p, wp)


def test_pivoted_qr_float32_stacks_and_empty_matrices():
    a = _draw((4, 3), dtype=np.float32)
    got = fg.vjp(lambda x: fsl.qr(x, pivoting=True), a)[0]
    for g, w in zip(got, sl.qr(a, pivoting=True)):
        assert g.dtype == w.dtype
        _close(g, w, rtol=1e-5)
    assert fg.grad(lambda x: fnp.sum(fsl.qr(x, pivoting=True)[1]))(a).dtype == np.float32
    stack = _draw((3, 5, 4))
    for got in (fsl.qr(stack, pivoting=True), fg.vjp(lambda x: fsl.qr(x, pivoting=True),
                                                     stack)[0]):
        for g, w in zip(got, sl.qr(stack, pivoting=True)):
            _close(g, w)
    for shape in ((0, 3), (3, 0)):
        for g, w in zip(fg.vjp(lambda x: fsl.qr(x, pivoting=True), np.zeros(shape))[0],
                        sl.qr(np.zeros(shape), pivoting=True)):
            assert np.shape(g) == w.shape and np.asarray(g).dtype == w.dtype
            _close(g, w)


# --- pivoted QR: derivatives ------------------------------------------------------------------

@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_pivoted_qr_derivatives_match_differences_of_scipys_qr(shape, complex_):
    a = _draw(shape, complex_)
    for mode in ("full", "economic", "r"):
        for i in range(2 if mode != "r" else 1):
            _check_derivatives(lambda x: fsl.qr(x, mode=mode, pivoting=True)[i],
                               lambda x: sl.qr(x, mode=mode, pivoting=True)[i], a)


def test_pivoted_qr_under_vmap_jit_and_second_order():
    stack = _draw((3, 5, 4))
    want = sl.qr(stack, pivoting=True)
    for got in (fg.vmap(lambda x: fsl.qr(x, pivoting=True))(stack),
                fg.jit(lambda x: fsl.qr(x, pivoting=True))(stack)):
        for g, w in zip(got, want):
            assert np.asarray(g).dtype == w.dtype
            _close(g, w)
    weights = np.arange(20.0).reshape(5, 4)
    grad = fg.grad(lambda x: fnp.sum(fsl.qr(x, pivoting=True)[0][:, :4] * weights))
    _close(fg.vmap(grad)(stack), np.stack([grad(x) for x in stack]))
    _close(fg.jit(grad)(stack[0]), grad(stack[0]))
    # second order: forward over reverse against a difference of the (checked) gradient
    a, t = stack[0], _draw((5, 4))
    _close(fg.jvp(grad, (a,), (t,))[1], _fd(grad, a, t), atol=1e-7)


def test_pivoted_qr_refuses_its_derivative_at_a_tie_of_column_norms():
    for a in (np.eye(3), np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])):
        for g, w in zip(fsl.qr(a, pivoting=True), sl.qr(a, pivoting=True)):
            _close(g, w)  # (values: SciPy's choice at the tie)
        with pytest.raises(ValueError, match="tie for a pivot.*pivoting=False"):
            fg.grad(lambda x: fnp.sum(fsl.qr(x, pivoting=True)[1]))(a)


def test_qr_raw_is_scipys_and_its_derivative_raises():
    a = _draw((5, 3))
    (h, tau), r = fsl.qr(a, mode="raw")
    (wh, wtau), wr = sl.qr(a, mode="raw")
    _close(h, wh), _close(tau, wtau), _close(r, wr)
    with pytest.raises(NotImplementedError, match="mode='raw'.*'economic'"):
        fg.grad(lambda x: fnp.sum(fsl.qr(x, mode="raw", pivoting=True)[1]))(a)


@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
def test_pivoted_qr_multiply_matches_scipy_and_differences(complex_):
    a = _draw((5, 3), complex_)
    for mode, c in (("right", _draw((2, 5))), ("left", _draw((3, 2)))):
        want = sl.qr_multiply(a, c, mode, pivoting=True)
        got = fg.vjp(lambda x: fsl.qr_multiply(x, c, mode, pivoting=True), a)[0]
        assert len(got) == 3
        for g, w in zip(got, want):
            assert np.asarray(g).dtype == w.dtype
            _close(g, w)
        _check_derivatives(lambda x: fsl.qr_multiply(x, c, mode, pivoting=True)[0],
                           lambda x: sl.qr_multiply(x, c, mode, pivoting=True)[0], a)


def test_lax_qr_with_pivoting():
    a = _draw((2, 5, 3))
    for full in (True, False):
        q, r, p = lax.linalg.qr(a, pivoting=True, full_matrices=full)
        want = sl.qr(a, pivoting=True, mode="full" if full else "economic")
        _close(q, want[0]), _close(r, want[1]), _close(p, want[2])
    _check_derivatives(lambda x: lax.linalg.qr(x, pivoting=True)[0],
                       lambda x: sl.qr(x, pivoting=True)[0], a[0])


# --- complete QR: LAPACK's extra columns ------------------------------------------------------

@pytest.mark.parametrize("complex_", [False, True], ids=["real", "complex"])
@pytest.mark.parametrize("shape", [(5, 3), (6, 2), (4, 3), (4, 1)], ids=str)
def test_complete_qr_extra_columns_follow_lapacks_householder_product(shape, complex_):
    # (before session 26: a non-rotating gauge, ~20 % off for a real 5 x 3 matrix)
    a = _draw(shape, complex_)
    n = shape[1]
    _check_derivatives(lambda x: fnp.linalg.qr(x, "complete")[0][:, n:],
                       lambda x: np.linalg.qr(x, "complete")[0][:, n:], a)
    _check_derivatives(lambda x: fsl.qr(x)[0], lambda x: sl.qr(x)[0], a)
    _check_derivatives(lambda x: fsl.qr(x, pivoting=True)[0],
                       lambda x: sl.qr(x, pivoting=True)[0], a)


def test_complete_qr_extra_columns_stacked_and_second_order():
    stack = _draw((2, 5, 2), complex_=True)
    _check_derivatives(lambda x: fnp.linalg.qr(x, "complete")[0],
                       lambda x: np.linalg.qr(x, "complete")[0], stack)
    weights = _draw((5, 3))

    def loss(x):
        return fnp.sum(fnp.abs(fnp.linalg.qr(x, "complete")[0][:, 2:] * weights) ** 2 *
                       np.arange(15.0).reshape(5, 3))
    a, t = _draw((5, 2)), _draw((5, 2))
    _close(fg.jvp(fg.grad(loss), (a,), (t,))[1], _fd(fg.grad(loss), a, t), atol=1e-7)
    _close(fg.hessian(loss)(a).reshape(10, 10) @ t.ravel(),
           _fd(fg.grad(loss), a, t).ravel(), atol=1e-7)


def test_complete_qr_refuses_where_a_householder_reflector_is_the_identity():
    # column 0 is already zero below the diagonal: LAPACK takes H_1 = I there, and any
    # perturbation of those zeros flips the sign of R[0, 0] (Q and R jump)
    a = np.array([[2.0, 1.0], [0.0, 1.0], [0.0, 3.0]])
    b = a.copy()
    b[2, 0] = 1e-9
    assert np.linalg.qr(a)[1][0, 0] == 2.0 and np.linalg.qr(b)[1][0, 0] < -1.9
    with pytest.raises(np.linalg.LinAlgError, match="Householder reflector.*nearby matrix"):
        fg.jvp(lambda x: fnp.linalg.qr(x, "complete")[0], (a,), (np.ones_like(a),))
    with pytest.raises(np.linalg.LinAlgError, match="Householder reflector"):
        fg.grad(lambda x: fnp.sum(fnp.linalg.qr(x, "complete")[0][:, 2]))(a)
