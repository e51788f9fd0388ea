"""QR with column pivoting (``scipy.linalg.qr``/``qr_multiply``, ``lax.linalg.qr``), and the
derivative of LAPACK's extra columns of a complete QR (session 26), and every mode's refusal
where one of LAPACK's Householder reflectors is the identity (Q and R jump there).

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


# --- where LAPACK's Q and R jump: the branch's derivative, the complete QR's refusal ------------------------

def _numpy_jumps(a, h=1e-9):
    """Does a small perturbation of ``a`` (of its own dtype: imaginary parts too for a
    complex one) flip the sign of a diagonal entry of NumPy's R?  The reference the
    derivative's refusal must agree with."""
    def signs(x):
        return np.sign(np.real(np.diagonal(np.linalg.qr(x)[1], axis1=-2, axis2=-1)))
    rng = np.random.default_rng(7)
    nudge = rng.standard_normal(a.shape)
    if a.dtype.kind == "c":
        nudge = nudge + 1j * rng.standard_normal(a.shape)
    a64 = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    return bool(np.any(signs(a64) != signs(a64 + h * nudge)))


_TRI = np.array([[2.0, 1.0, -1.0], [0.0, 3.0, 2.0], [0.0, 0.0, -4.0]])
_IDENTITY_REFLECTOR = {  # LAPACK's H_i = I at some column that is not the harmless last one
    "tall": np.array([[2.0, 1.0], [0.0, 1.0], [0.0, 3.0]]),
    "square upper triangular": _TRI,
    "square, only the first column": np.array([[2.0, 1.0, 5.0], [0.0, 3.0, 2.0],
                                               [0.0, 7.0, -4.0]]),
    "square, the second column after the first's reflection": np.array(
        [[1.0, 2.0, 3.0], [1.0, 5.0, 1.0], [0.0, 0.0, 2.0]]),
    "wide": np.array([[2.0, 1.0, 3.0], [0.0, 1.0, 5.0]]),
    "column M x 1": np.array([[2.0], [0.0], [0.0]]),
    "float32": _TRI.astype(np.float32),
    "complex, real diagonal entry": np.array([[2.0, 1 + 1j], [0.0, 1j], [0.0, 3.0]]),
    "complex64 upper triangular": (_TRI + 1j * np.triu(_TRI, 1)).astype(np.complex64),
    # a complex matrix's last reflector (of a 1-vector) makes R's last entry real: the
    # identity where that entry is already real, which a perturbation of it turns
    "complex square with real values": np.array([[1.0, 2.0], [3.0, 4.0]], complex),
    "complex wide with real values": np.array([[1.0, 2.0, 0.5], [3.0, 4.0, 1.5]], complex),
    "complex 1 x 1 real": np.array([[2.0 + 0j]]),
    "stack with one triangular matrix": np.stack([_draw((3, 3)), _TRI]),
}
_NO_JUMP = {  # no identity reflector, or only a real square/wide matrix's last one
    "tall": _draw((5, 3)), "square": _draw((4, 4)), "wide": _draw((3, 5)),
    "float32": _draw((4, 3), dtype=np.float32), "complex": _draw((4, 4), True),
    "complex wide": _draw((2, 3), True), "complex64": _draw((3, 4), True, np.float32),
    "stack": _draw((2, 3, 3)), "complex stack": _draw((2, 4, 2), True),
    "1 x 1": np.array([[2.0]]), "1 x N": np.array([[2.0, 1.0, 3.0]]),
    "M x 1": np.array([[2.0], [1.0], [0.0]]),
    # a complex column zero below a complex diagonal entry: LAPACK's reflector is not the
    # identity (it turns that entry real), and it is smooth there
    "complex M x 1, zero below a complex entry": np.array([[2.0 + 1j], [0.0], [0.0]]),
    "upper triangular but the last column (real)": np.array(
        [[1.0, 2.0, 3.0], [1.0, 5.0, 1.0], [2.0, 0.0, 2.0]]),
}
_ROUTES = {  # every way to the reduced QR's rule, with a real-valued summary to differentiate
    "reduced": lambda x: fnp.linalg.qr(x)[0].real.sum() + fnp.linalg.qr(x)[1].real.sum(),
    "r": lambda x: fnp.sum(fnp.linalg.qr(x, mode="r").real),
    "scipy economic": lambda x: fnp.sum(fsl.qr(x, mode="economic")[1].real),
    "scipy r": lambda x: fnp.sum(fsl.qr(x, mode="r")[0].real),
    "lax reduced": lambda x: fnp.sum(lax.linalg.qr(x, full_matrices=False)[0].real),
    "complete": lambda x: fnp.sum(fnp.linalg.qr(x, "complete")[0].real),
}


@pytest.mark.parametrize("name", list(_IDENTITY_REFLECTOR))
def test_where_a_householder_reflector_is_the_identity_q_and_r_get_the_branchs_derivative(name):
    """Where LAPACK's reflector is the identity Q and R jump (NumPy's R flips a sign under a
    perturbation); the rules give the branch's derivative (those signs held fixed), which
    is the difference quotient along perturbations that keep the column's zeros below the
    diagonal (and a complex diagonal entry real): the derivative is that of Q and R on that
    branch, finite on every route; only the complete QR's extra columns refuse."""
    a = _IDENTITY_REFLECTOR[name]
    assert _numpy_jumps(a)  # (NumPy's R flips a sign nearby)
    for route, f in _ROUTES.items():
        tall = a.shape[-2] > a.shape[-1]
        if route == "complete" and tall:
            with pytest.raises(np.linalg.LinAlgError,
                               match="extra columns.*Householder reflector.*nearby matrix"):
                fg.grad(f)(a)
            continue
        assert np.all(np.isfinite(fg.grad(f)(a))), route
    if a.dtype in (np.float64,) and a.ndim == 2:
        # along an upper-triangular tangent the zeros stay (every reflector the same)
        t = np.triu(_draw(a.shape))
        for mode in (0, 1):
            _close(fg.jvp(lambda x: fnp.linalg.qr(x)[mode], (a,), (t,))[1],
                   _fd(lambda x: np.linalg.qr(x)[mode], a, t), atol=1e-8)


@pytest.mark.parametrize("a", [_TRI, np.array([[2.0, 1.0], [0.0, 1.0], [0.0, 3.0]]),
                               np.array([[0.0, 1.0], [1.0, 1.0]]),
                               np.array([[0.0, 1.0, 2.0], [1.0, 3.0, 1.0], [2.0, 1.0, 1.0]])],
                         ids=["triangular", "tall triangular", "zero corner", "zero corner 3x3"])
def test_functions_of_q_and_r_the_sign_flips_leave_alone_differentiate_truly_where_qr_jumps(a):
    """A least-squares solution through QR (``solve(r, q.T @ b)``) and the projector
    ``q @ q.T`` do not see the signs that jump (a flip of Q's column and R's row cancels):
    smooth there, and the branch's derivative is theirs (against central differences of
    NumPy's own).  funcgrad's spline fits solve this way at banded matrices."""
    b = np.linspace(1.0, 2.0, a.shape[0])

    def lsq(x, qr=np.linalg.qr, solve=np.linalg.solve):
        q, r = qr(x)
        return solve(r, q.T @ b)

    def projector(x, qr=np.linalg.qr):
        q = qr(x)[0]
        return q @ q.T

    t = _draw(a.shape)
    for f in (lsq, projector):
        ours = (lambda x: lsq(x, fnp.linalg.qr, fnp.linalg.solve)) if f is lsq else \
            (lambda x: projector(x, fnp.linalg.qr))
        _close(fg.jvp(ours, (a,), (t,))[1], _fd(f, a, t), atol=1e-8)
        g = fg.grad(lambda x: fnp.sum(ours(x) * np.arange(ours(x).size).reshape(ours(x).shape)))(a)
        want = np.sum(_fd(f, a, t) * np.arange(f(a).size).reshape(f(a).shape))
        assert np.sum(g * t) == pytest.approx(want, abs=1e-7)


def test_where_a_zero_diagonal_entry_decides_the_sign_r_gets_the_side_numpy_takes():
    """At [[0, 1], [1, 1]] LAPACK's R[0, 0] is -1 (its sign the opposite of +0.0's) and +1 at
    a[0, 0] = -1e-9: the derivative is the branch's, the one-sided difference from above."""
    a = np.array([[0.0, 1.0], [1.0, 1.0]])
    nudged = a.copy()
    nudged[0, 0] = -1e-9
    assert np.linalg.qr(a)[1][0, 0] < 0 < np.linalg.qr(nudged)[1][0, 0]
    t = np.array([[1.0, 0.5], [-0.25, 2.0]])
    h = 1e-7
    for mode in (0, 1):
        one_sided = (np.linalg.qr(a + h * abs(t))[mode] - np.linalg.qr(a)[mode]) / h
        got = fg.jvp(lambda x: fnp.linalg.qr(x)[mode], (a,), (abs(t),))[1]
        np.testing.assert_allclose(got, one_sided, atol=1e-6)


@pytest.mark.parametrize("name", list(_NO_JUMP))
def test_qr_derivatives_where_no_reflector_jumps_match_differences(name):
    a = _NO_JUMP[name]
    assert not _numpy_jumps(a)
    for route, f in _ROUTES.items():
        if not (route == "complete" and a.dtype == np.complex64):
            assert fg.grad(f)(a).dtype == a.dtype, route
    if a.dtype in (np.float64, np.complex128):
        for mode in (0, 1):
            _check_derivatives(lambda x: fnp.linalg.qr(x)[mode], lambda x: np.linalg.qr(x)[mode],
                               a, atol=1e-7)


def test_qr_at_identity_reflectors_values_never_raise_and_vmap_jit_do_not_check():
    # the refusal needs the values; under vmap and jit they are not known while tracing,
    # and the derivative is the branch's with R's signs held fixed (documented)
    stack = np.stack([_TRI, 2 * _TRI])
    want = np.linalg.qr(stack)
    for got in (fnp.linalg.qr(stack), fg.vmap(fnp.linalg.qr)(stack), fg.jit(fnp.linalg.qr)(stack),
                fg.vjp(fnp.linalg.qr, stack)[0]):  # (vjp's values: the rule is not run yet)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
    summed = fg.grad(lambda x: fnp.sum(fnp.linalg.qr(x)[1]))
    assert np.all(np.isfinite(fg.vmap(summed)(stack)))
    assert np.all(np.isfinite(fg.jit(summed)(_TRI)))


@pytest.mark.parametrize("dtype, k", [(np.float32, 40), (np.float64, 70)])
def test_qr_refusal_is_exact_where_a_determinant_of_q_would_miss_it(dtype, k):
    # nearly upper triangular (every tau near 2) with one exactly zero subdiagonal entry: that
    # reflector is the identity, but det(I - Q11^H) = prod tau_i computed from the rounded Q
    # came out far above 1 here (the rounding times 2^k); LAPACK's tau reads exactly 0
    rng = np.random.default_rng(3)
    a = np.triu(rng.standard_normal((k, k))) + np.diag(1e-3 * rng.standard_normal(k - 1), -1)
    a[k // 2 + 1, k // 2] = 0.0
    a = a.astype(dtype)
    q = np.linalg.qr(a)[0]
    assert abs(np.linalg.det(np.eye(k - 1) - q[:k - 1, :k - 1].T.astype(np.float64))) > 1.0
    assert _numpy_jumps(a)
    tall = np.concatenate([a, np.zeros((2, k), dtype)])  # (complete mode: its old check missed)
    with pytest.raises(np.linalg.LinAlgError, match="Householder reflector is the identity"):
        fg.grad(lambda x: fnp.sum(fnp.linalg.qr(x, "complete")[0]))(tall)
