"""``funcgrad.numpy.linalg``: values equal NumPy's, derivatives equal finite differences
(on functions that do not depend on LAPACK's sign choices), and the degenerate points
(equal singular values or eigenvalues, rank deficiency) behave as the docstrings say.

The per-primitive property checks (hypothesis shapes, vmap, float32, second order) are
lines of ``tests/test_primitives.py``; this module covers every public function and the
cases a table line cannot state.
"""

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from helpers import (assert_close, check_dot_product, check_float32, check_jvp_fd,
                     check_second_order, check_vmap, leaves)

RNG = np.random.default_rng(7)


def _orthogonal(n, rng=RNG):
    q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    return q


def with_singular_values(m, n, s, rng=RNG):
    k = min(m, n)
    return (_orthogonal(m, rng)[:, :k] * np.asarray(s, float)) @ _orthogonal(n, rng)[:k]


def symmetric_with(w, rng=RNG):
    q = _orthogonal(len(w), rng)
    return (q * np.asarray(w, float)) @ q.T


TALL = with_singular_values(4, 3, [2.5, 1.5, 0.7])
WIDE = with_singular_values(2, 4, [2.0, 0.8])
STACK = np.stack([with_singular_values(3, 3, [2.0, 1.2, 0.5]) for _ in range(2)])
SYM = symmetric_with([-1.0, 0.5, 2.0])
WELL = np.eye(3) * 2.0 + RNG.uniform(-0.4, 0.4, (3, 3))


def sign_free_svd(a, full_matrices=False):
    """svd's outputs through functions of them that do not depend on LAPACK's signs, nor
    (``full_matrices=True``) on the basis it picks for the columns past min(M, N)."""
    u, s, vh = fnp.linalg.svd(a, full_matrices=full_matrices)
    k = s.shape[-1]
    u1, vh1, u2, vh2 = u[..., :k], vh[..., :k, :], u[..., k:], vh[..., k:, :]
    return (u1 * u1[..., :1, :], s, vh1 * vh1[..., :, :1], u1 @ (s[..., :, None] * vh1),
            u2 @ fnp.swapaxes(u2, -1, -2), fnp.swapaxes(vh2, -1, -2) @ vh2)


def sign_free_eigh(a):
    w, v = fnp.linalg.eigh(a)
    return w, v * v[..., :1, :]


# --- values equal NumPy's ------------------------------------------------------------------

VALUE_CASES = [
    ("svd", lambda m, a: m.linalg.svd(a), [TALL, WIDE, STACK]),
    ("svd_full", lambda m, a: m.linalg.svd(a, full_matrices=True), [TALL, WIDE]),
    ("svd_values", lambda m, a: m.linalg.svd(a, compute_uv=False), [TALL, STACK]),
    ("svd_hermitian", lambda m, a: m.linalg.svd(a, hermitian=True), [SYM]),
    ("svd_hermitian_values", lambda m, a: m.linalg.svd(a, False, False, True), [SYM]),
    ("svdvals", lambda m, a: m.linalg.svdvals(a), [TALL, STACK]),
    ("eigh", lambda m, a: m.linalg.eigh(a), [SYM, STACK]),
    ("eigh_upper", lambda m, a: m.linalg.eigh(a, UPLO="U"), [WELL]),
    ("eigvalsh", lambda m, a: m.linalg.eigvalsh(a, "U"), [WELL, STACK]),
    ("eig", lambda m, a: m.linalg.eig(a), [WELL, STACK]),
    ("eigvals", lambda m, a: m.linalg.eigvals(a), [WELL]),
    ("qr", lambda m, a: m.linalg.qr(a), [TALL, WIDE, STACK]),
    ("qr_complete", lambda m, a: m.linalg.qr(a, mode="complete"), [TALL, WIDE]),
    ("qr_r", lambda m, a: m.linalg.qr(a, mode="r"), [TALL]),
    ("pinv", lambda m, a: m.linalg.pinv(a), [TALL, WIDE, STACK]),
    ("pinv_rtol", lambda m, a: m.linalg.pinv(a, rtol=None), [TALL]),
    ("pinv_hermitian", lambda m, a: m.linalg.pinv(a, hermitian=True), [SYM]),
    ("lstsq", lambda m, a: m.linalg.lstsq(a, np.arange(4.0)), [TALL]),
    ("lstsq_matrix_rhs", lambda m, a: m.linalg.lstsq(a, np.ones((2, 3))), [WIDE]),
    ("matrix_rank", lambda m, a: m.linalg.matrix_rank(a), [TALL, STACK,
                                                           np.outer([1.0, 2], [3.0, 4])]),
    ("matrix_rank_tol", lambda m, a: m.linalg.matrix_rank(a, tol=1.0), [TALL]),
    ("cond", lambda m, a: m.linalg.cond(a), [TALL, STACK]),
    ("cond_p", lambda m, a: [m.linalg.cond(a, p) for p in (-2, 1, -1, np.inf, "fro", "nuc")],
     [WELL]),
    ("norm_singular", lambda m, a: [m.linalg.norm(a, p) for p in (2, -2, "nuc")], [TALL]),
    ("norm_singular_axes", lambda m, a: m.linalg.norm(a, 2, axis=(2, 0), keepdims=True),
     [STACK]),
    ("matrix_norm", lambda m, a: [m.linalg.matrix_norm(a, ord=o) for o in ("fro", 2, 1)],
     [STACK]),
    ("vector_norm", lambda m, a: [m.linalg.vector_norm(a), m.linalg.vector_norm(
        a, axis=(0, 2), keepdims=True, ord=3), m.linalg.vector_norm(a, axis=1, ord=1)],
     [STACK]),
    ("matrix_power", lambda m, a: [m.linalg.matrix_power(a, k) for k in (0, 1, 2, 3, 5, -2)],
     [WELL, STACK]),
    ("multi_dot", lambda m, a: [m.linalg.multi_dot([a, a.T, a]), m.linalg.multi_dot(
        [a[:, 0], a, a.T, a[:, 1]]), m.linalg.multi_dot([a, a.T]), m.linalg.multi_dot(
        [a.T, a, a.T, a[:, 2]])], [TALL]),
    ("tensorsolve", lambda m, a: [m.linalg.tensorsolve(a.reshape(3, 3, 3, 3), a[:3, :3]),
                                  m.linalg.tensorsolve(a.reshape(9, 3, 3), a[0])],
     [np.kron(WELL, WELL)]),
    ("tensorsolve_axes", lambda m, a: m.linalg.tensorsolve(a, a[0, 0], axes=(1,)),
     [RNG.standard_normal((3, 3, 3, 3))]),
    ("tensorinv", lambda m, a: m.linalg.tensorinv(a.reshape(9, 3, 3), ind=1),
     [np.kron(WELL, WELL)]),
    ("cross", lambda m, a: m.linalg.cross(a, a[::-1]), [TALL[:, :3]]),
    ("outer", lambda m, a: m.linalg.outer(a[0], a[1]), [TALL]),
    ("trace", lambda m, a: m.linalg.trace(a, offset=1), [STACK]),
    ("diagonal", lambda m, a: m.linalg.diagonal(a, offset=-1), [STACK]),
    ("matmul", lambda m, a: m.linalg.matmul(a, a), [STACK]),
    ("tensordot", lambda m, a: m.linalg.tensordot(a, a, axes=1), [WELL]),
    ("vecdot", lambda m, a: m.linalg.vecdot(a, a[0], axis=-1), [STACK]),
    # NumPy conjugates the first vector (audit: funcgrad did not)
    ("vecdot_complex", lambda m, a: [m.linalg.vecdot(a + 1j * a[::-1], a - 2j), m.vecdot(
        a - 1j, a + 1j), m.vecmat(a[0, 0] + 1j, a - 3j)], [STACK]),
    # the (row, column) order of axis matters for 1, -1, inf, -inf (audit: it was sorted)
    ("norm_matrix_axes_order", lambda m, a: [m.linalg.norm(a, o, axis=ax, keepdims=k)
                                             for o in (1, -1, np.inf, -np.inf)
                                             for ax in ((2, 0), (-1, -2), (0, 2))
                                             for k in (False, True)], [STACK]),
    ("norm_keepdims_all", lambda m, a: [m.linalg.norm(a, keepdims=True),
                                        m.linalg.norm(a[0], keepdims=True)], [STACK]),
    # complex residuals are sum(|r|^2), real (audit: they were sum(r^2), complex)
    ("lstsq_complex", lambda m, a: m.linalg.lstsq(a + 1j * a[::-1], np.arange(4.0) + 1j)[:3],
     [TALL]),
    ("lstsq_complex_rank_deficient", lambda m, a: m.linalg.lstsq(a + 1j, np.ones(4))[1],
     [np.outer(np.arange(1.0, 5.0), [1.0, 2.0, 3.0])]),
    ("matrix_transpose", lambda m, a: m.linalg.matrix_transpose(a), [STACK]),
]


@pytest.mark.parametrize("name,f,inputs", VALUE_CASES, ids=[c[0] for c in VALUE_CASES])
def test_values_equal_numpy(name, f, inputs):
    for a in inputs:
        got, want = leaves(f(fnp, a)), leaves(f(np, a))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype, (name, g.shape, w.shape)
            np.testing.assert_allclose(g, w, rtol=1e-12, atol=1e-12, err_msg=name)


# --- derivatives: finite differences, dot-product test --------------------------------------

DERIVATIVE_CASES = [
    ("svd", sign_free_svd, [TALL]),
    ("svd_wide", sign_free_svd, [WIDE]),
    ("svd_full", lambda a: sign_free_svd(a, True), [TALL, WIDE]),
    ("svd_hermitian", lambda a: (lambda u, s, vh: (u * u[:1], s, vh * vh[:, :1]))(
        *fnp.linalg.svd(a, hermitian=True)), [SYM]),
    ("svdvals", fnp.linalg.svdvals, [STACK]),
    ("eigh", sign_free_eigh, [SYM]),
    ("eigh_upper_reads_one_triangle", lambda a: fnp.linalg.eigh(a, "U")[0], [WELL]),
    ("eigvalsh", fnp.linalg.eigvalsh, [STACK]),
    ("eig", lambda a: (lambda w, v: (w, v * v[:1]))(*fnp.linalg.eig(a)),
     [(np.eye(3) + 0.3 * RNG.standard_normal((3, 3))) @ np.diag([1.0, -0.5, 2.0])
      @ np.linalg.inv(np.eye(3) + 0.3 * RNG.standard_normal((3, 3)))]),
    ("qr", fnp.linalg.qr, [TALL, WIDE]),
    ("qr_r", lambda a: fnp.linalg.qr(a, "r"), [STACK]),
    ("pinv", fnp.linalg.pinv, [TALL, WIDE]),
    ("pinv_hermitian", lambda a: fnp.linalg.pinv(a, hermitian=True), [SYM]),
    ("lstsq", lambda a: fnp.linalg.lstsq(a, np.arange(4.0))[:2], [TALL]),
    ("cond", lambda a: [fnp.linalg.cond(a), fnp.linalg.cond(a, 1)], [WELL]),
    ("norm_2_nuc", lambda a: [fnp.linalg.norm(a, 2), fnp.linalg.norm(a, -2),
                              fnp.linalg.norm(a, "nuc")], [TALL]),
    ("matrix_norm", lambda a: fnp.linalg.matrix_norm(a, ord=2, keepdims=True), [STACK]),
    ("vector_norm", lambda a: fnp.linalg.vector_norm(a, axis=(0, 2), ord=3), [STACK]),
    ("matrix_power", lambda a: [fnp.linalg.matrix_power(a, k) for k in (3, 6, -3)], [WELL]),
    ("multi_dot", lambda a: fnp.linalg.multi_dot([a[:, 0], a, a.T, a]), [TALL]),
    ("tensorsolve", lambda a: fnp.linalg.tensorsolve(a.reshape(3, 3, 3, 3), a[:3, :3]),
     [np.kron(WELL, WELL)]),
    ("tensorinv", lambda a: fnp.linalg.tensorinv(a.reshape(3, 3, 9)), [np.kron(WELL, WELL)]),
    ("det_inv_slogdet", lambda a: [fnp.linalg.det(a), fnp.linalg.inv(a),
                                   fnp.linalg.slogdet(a)[1]], [WELL]),
    ("array_api_names", lambda a: [fnp.linalg.trace(a), fnp.linalg.diagonal(a, offset=1),
                                   fnp.linalg.cross(a, a[::-1]), fnp.linalg.outer(a[0], a[1]),
                                   fnp.linalg.vecdot(a, a[1]), fnp.linalg.matrix_transpose(a),
                                   fnp.linalg.matmul(a, a), fnp.linalg.tensordot(a, a, axes=1)],
     [WELL]),
    ("norm_matrix_axes_order", lambda a: [fnp.linalg.norm(a, o, axis=(2, 0))
                                          for o in (1, -1, np.inf, -np.inf)], [STACK]),
]


@pytest.mark.parametrize("name,f,inputs", DERIVATIVE_CASES, ids=[c[0] for c in DERIVATIVE_CASES])
def test_derivatives_match_finite_differences(name, f, inputs):
    rng = np.random.default_rng(3)
    for a in inputs:
        check_jvp_fd(f, [a], rng)
        check_dot_product(f, [a], rng)


@pytest.mark.parametrize("name,f,a", [
    ("svd", sign_free_svd, TALL), ("eigh", sign_free_eigh, SYM), ("qr", fnp.linalg.qr, WIDE),
    ("pinv", fnp.linalg.pinv, TALL), ("norm_nuc", lambda a: fnp.linalg.norm(a, "nuc"), TALL),
])
def test_second_order(name, f, a):
    check_second_order(f, [a], np.random.default_rng(4))


@pytest.mark.parametrize("name,f,a", [
    ("svd", lambda a: sign_free_svd(a, True), np.stack([TALL, TALL[::-1]])),
    ("eigh", sign_free_eigh, np.stack([SYM, SYM * 2.0])),
    ("qr_complete", lambda a: fnp.linalg.qr(a, "complete")[1], np.stack([TALL, 2 * TALL])),
    ("pinv", fnp.linalg.pinv, np.stack([WIDE, -WIDE])),
    ("cond", fnp.linalg.cond, STACK),
    ("matrix_power", lambda a: fnp.linalg.matrix_power(a, -3), STACK),
])
def test_vmap_equals_a_loop(name, f, a):
    check_vmap(f, [a], [0], np.random.default_rng(5))


@pytest.mark.parametrize("name,f,a", [
    ("svd", sign_free_svd, TALL), ("eigh", sign_free_eigh, SYM), ("qr", fnp.linalg.qr, TALL),
    ("pinv", fnp.linalg.pinv, WIDE), ("norm_2", lambda a: fnp.linalg.norm(a, 2), TALL),
])
def test_float32_stays_float32(name, f, a):
    check_float32(f, [a], np.random.default_rng(6))


def test_jit_of_grad_equals_grad():
    def f(a):
        u, s, vh = fnp.linalg.svd(a, full_matrices=False)
        w, v = fnp.linalg.eigh(a.T @ a)
        q, r = fnp.linalg.qr(a)
        return fnp.sum(u ** 2 * s) + fnp.sum(v ** 2 * w) + fnp.sum(r ** 2) + \
            fnp.sum(fnp.linalg.pinv(a))
    np.testing.assert_allclose(fg.jit(fg.grad(f))(TALL), fg.grad(f)(TALL), rtol=1e-10)


def test_plain_numpy_code_differentiates_through_numpy_linalg():
    def f(m, a):
        u, s, vh = m.linalg.svd(a, full_matrices=False)
        return m.sum(s) + m.linalg.norm(a, 2) + m.sum(m.linalg.pinv(a) ** 2) + \
            m.sum(m.linalg.qr(a).R ** 2) + m.sum(m.linalg.eigvalsh(a.T @ a))
    check_jvp_fd(lambda a: f(np, a), [TALL])
    np.testing.assert_allclose(fg.grad(lambda a: f(np, a))(TALL),
                               fg.grad(lambda a: f(fnp, a))(TALL), rtol=1e-12)


def test_eigh_with_jaxs_symmetrize_input_reads_the_hermitian_part():
    rng = np.random.default_rng(1)
    m = rng.standard_normal((4, 4))
    sym = (m + m.T) / 2
    np.testing.assert_allclose(fnp.linalg.eigh(m, symmetrize_input=True).eigenvalues,
                               np.linalg.eigvalsh(sym), rtol=1e-12)
    np.testing.assert_allclose(fnp.linalg.eigvalsh(m, symmetrize_input=True),
                               np.linalg.eigvalsh(sym), rtol=1e-12)
    c = m + 1j * rng.standard_normal((4, 4))
    np.testing.assert_allclose(fnp.linalg.eigvalsh(c, symmetrize_input=True),
                               np.linalg.eigvalsh((c + c.conj().T) / 2), rtol=1e-12)
    # d(sum w^2)/dm = d(trace(sym^2))/dm = 2 sym: symmetric, both triangles count
    g = fg.grad(lambda a: fnp.sum(fnp.linalg.eigvalsh(a, symmetrize_input=True) ** 2))(m)
    np.testing.assert_allclose(g, 2 * sym, rtol=1e-10)
    np.testing.assert_allclose(fnp.linalg.eigvalsh(m), np.linalg.eigvalsh(m), rtol=1e-12)


# --- degenerate points ----------------------------------------------------------------------

def test_eigh_repeated_eigenvalues_give_finite_exact_invariant_derivatives():
    a = symmetric_with([1.0, 1.0, 3.0])

    def cluster_projector(a):  # the projector onto the repeated eigenvalue's subspace
        w, v = fnp.linalg.eigh(a)
        return v[:, :2] @ v[:, :2].T

    check_jvp_fd(cluster_projector, [a])
    check_jvp_fd(lambda a: fnp.sum(fnp.linalg.eigvalsh(a)[:2]), [a])
    # eigenvectors themselves are not differentiable here: finite, not NaN
    g = fg.grad(lambda a: fnp.sum(fnp.linalg.eigh(a)[1] ** 3))(a)
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(fg.grad(lambda a: fnp.sum(fnp.linalg.eigvalsh(a)))(np.eye(3)),
                               np.eye(3))


def test_svd_repeated_singular_values_give_finite_exact_invariant_derivatives():
    q = _orthogonal(3)  # all singular values 1
    np.testing.assert_allclose(fg.grad(lambda a: fnp.linalg.norm(a, "nuc"))(q), q, atol=1e-12)
    a = with_singular_values(4, 3, [3.0, 1.0, 1.0])
    check_jvp_fd(lambda a: (lambda u: u[:, 1:] @ u[:, 1:].T)(fnp.linalg.svd(a)[0]), [a])
    check_jvp_fd(lambda a: fnp.sum(fnp.linalg.svd(a, compute_uv=False) ** 2), [q])
    assert np.all(np.isfinite(fg.grad(lambda a: fnp.sum(fnp.linalg.svd(a)[2] ** 3))(a)))


def test_svd_rank_deficient():
    a = with_singular_values(4, 3, [2.0, 1.0, 0.0])
    b = with_singular_values(3, 3, [2.0, 0.0, 0.0])
    np.testing.assert_allclose(fg.grad(lambda a: fnp.sum(fnp.linalg.svdvals(a) ** 2))(a),
                               2 * a, atol=1e-12)
    for m in (a, b):  # vectors of the zero group are not determined: finite values
        g = fg.grad(lambda m: fnp.sum(sign_free_svd(m)[0] * RNG.standard_normal(m.shape)))(m)
        assert np.all(np.isfinite(g))
    # the top singular pair is still determined, and differentiable
    check_jvp_fd(lambda m: (lambda u: u[:, 0] * u[0, 0])(fnp.linalg.svd(m)[0]), [b])


def test_pinv_rank_deficient_differentiates_along_rank_preserving_perturbations():
    left, right = RNG.standard_normal((4, 2)), RNG.standard_normal((2, 3))
    check_jvp_fd(lambda l, r: fnp.linalg.pinv(l @ r), [left, right])
    check_dot_product(lambda l, r: fnp.linalg.pinv(l @ r), [left, right])


def test_pinv_second_derivative_of_an_ill_conditioned_full_rank_matrix_equals_inv():
    # pinv(x.T @ x) is inv(x.T @ x) near x: the second derivatives are the inverse's,
    #   d2 inv(A)[E, F] = Ai E Ai F Ai + Ai F Ai E Ai - Ai d2A Ai.  Golub and Pereyra's
    # terms with I - a p and I - p a are 0 only to rounding there; differentiated, they
    # were 7e-2 off at cond(x.T @ x) = 2e4
    rng = np.random.default_rng(3)
    u, v = (np.linalg.qr(rng.standard_normal((5, 5)))[0] for _ in range(2))
    x = (u * [1.0, 0.5, 0.2, 0.05, 0.007]) @ v.T
    e, f = rng.standard_normal((2, 5, 5))
    ai = np.linalg.inv(x.T @ x)
    e1, f1, ef = e.T @ x + x.T @ e, f.T @ x + x.T @ f, e.T @ f + f.T @ e
    want = ai @ e1 @ ai @ f1 @ ai + ai @ f1 @ ai @ e1 @ ai - ai @ ef @ ai
    first = lambda x: fg.jvp(lambda x: fnp.linalg.pinv(x.T @ x), (x,), (e,))[1]
    np.testing.assert_allclose(fg.jvp(first, (x,), (f,))[1], want, rtol=0,
                               atol=1e-9 * np.abs(want).max())
    pullback = lambda x: fg.vjp(lambda x: fnp.linalg.pinv(x.T @ x), x)[1](e)[0]
    # <d/dx <e, pinv(x.T x)>, f>: the same second derivative, paired with e
    got = np.sum(fg.jvp(pullback, (x,), (f,))[1] * f)
    e_pair = lambda d1, d2: np.sum(e * (ai @ d1 @ ai @ d2 @ ai + ai @ d2 @ ai @ d1 @ ai))
    pair = e_pair(f1, f1) - np.sum(e * (ai @ (2 * f.T @ f) @ ai))
    np.testing.assert_allclose(got, pair, rtol=1e-9)
    # first order: -Ai e1 Ai, without the rounding of those terms (eps cond^2, 1e-9 here)
    np.testing.assert_allclose(fg.jvp(lambda x: fnp.linalg.pinv(x.T @ x), (x,), (e,))[1],
                               -ai @ e1 @ ai, rtol=0, atol=1e-11 * np.abs(ai @ e1 @ ai).max())


def _complex_with_singular_values(m, n, s, rng=RNG):
    def unitary(k):
        return np.linalg.qr(rng.standard_normal((k, k)) + 1j * rng.standard_normal((k, k)))[0]
    return (unitary(m)[:, :min(m, n)] * np.asarray(s)) @ unitary(n)[:min(m, n)]


def _pinv_parts(rcond):
    """pinv's real and imaginary parts (the checkers take real outputs)."""
    def f(a):
        p = fnp.linalg.pinv(a, rcond=rcond)
        return fnp.stack([fnp.real(p), fnp.imag(p)])
    return f


TRUNCATED = [  # singular values on both sides of the cutoff rcond=0.06 * largest
    with_singular_values(5, 4, [3.0, 1.5, 0.2, 0.05]),
    _complex_with_singular_values(3, 5, [2.0, 0.5, 0.04]),
    np.stack([with_singular_values(4, 4, [2.0, 1.0, 0.3, 0.01]),
              with_singular_values(4, 4, [1.0, 0.9, 0.5, 0.02])]),
    with_singular_values(4, 3, [2.0, 2.0, 0.05]),  # a repeated kept value
    with_singular_values(4, 4, [2.0, 0.1, 0.05, 0.0]),  # and an exact zero
]


def test_pinv_cutoff_dropping_nonzero_singular_values_differentiates_the_truncation():
    # the derivative of V diag(1/s kept, 0 dropped) U^H, not Golub & Pereyra's (exact only
    # when what is dropped is 0): the off-diagonal entries, by central differences
    a = np.diag([3.0, 1e-3])
    g = fg.grad(lambda a: fnp.sum(fnp.linalg.pinv(a, rcond=0.01)))(a)
    np.testing.assert_allclose(g, [[-1 / 9, 0.11114816], [0.11114816, 0.0]], rtol=1e-7)
    for a in TRUNCATED:
        # (a complex matrix by its real and imaginary parts: the checkers pair real numbers)
        f = lambda re, im: _pinv_parts(0.06)(re + 1j * im if np.iscomplexobj(a) else re)
        check_jvp_fd(f, [a.real, a.imag])
        check_dot_product(f, [a.real, a.imag])


@pytest.mark.parametrize("a", [TRUNCATED[0], TRUNCATED[4]], ids=["tall", "rank-deficient"])
def test_pinv_cutoff_dropping_nonzero_singular_values_has_second_derivatives(a):
    check_second_order(lambda a: fnp.linalg.pinv(a, rcond=0.06), [a])


_REPEATED_ACROSS_THE_CUTOFF = [  # (matrix, rcond=0.25 * largest drops the small values)
    with_singular_values(4, 3, [3.0, 3.0, 0.5]),  # a repeated kept value
    with_singular_values(3, 5, [3.0, 0.5, 0.5]),  # a repeated dropped one
    with_singular_values(4, 4, [3.0, 3.0, 0.5, 0.5]),  # both
    with_singular_values(5, 5, [2.0, 2.0, 2.0, 0.3, 0.0]),  # three kept, a zero dropped
    _complex_with_singular_values(4, 4, [3.0, 3.0, 0.5, 0.3]),
]


@pytest.mark.parametrize("a", _REPEATED_ACROSS_THE_CUTOFF,
                         ids=["kept", "dropped", "both", "three-and-zero", "complex"])
def test_pinv_second_derivative_at_repeated_singular_values_equals_differences(a):
    """At singular values repeated on one side of a cutoff that drops nonzero ones, the
    derivative of pinv's derivative is the central difference of it (svd's rule splits a
    repeated group by the diagonal of its block only: the truncation weights moved wrong,
    by a few percent, until the rest of the block was added)."""
    rng = np.random.default_rng(7)
    draw = lambda: rng.standard_normal(a.shape) + (
        1j * rng.standard_normal(a.shape) if np.iscomplexobj(a) else 0)
    w, d1, d2 = draw().T, draw(), draw()
    f = lambda x: fnp.real(fnp.sum(w * fnp.linalg.pinv(x, rcond=0.25)))
    first = lambda x: fg.jvp(f, (x,), (d1,))[1]
    h = 1e-5
    want = (first(a + h * d2) - first(a - h * d2)) / (2 * h)
    np.testing.assert_allclose(fg.jvp(first, (a,), (d2,))[1], want, rtol=1e-7)
    if not np.iscomplexobj(a):  # (fwd-over-rev, the Hessian's route)
        hessian = fg.hessian(f)(a)
        np.testing.assert_allclose(np.einsum("ij,ijkl,kl->", d1, hessian, d2), want,
                                   rtol=1e-7)


def test_pinv_truncated_derivative_is_the_same_under_jit_and_vmap():
    stack = TRUNCATED[2]
    loss = lambda a: fnp.sum(fnp.linalg.pinv(a, rcond=0.06) ** 3)
    eager = np.stack([fg.grad(loss)(a) for a in stack])
    np.testing.assert_allclose(fg.jit(fg.grad(loss), wait=True)(stack[0]), eager[0],
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(fg.vmap(fg.grad(loss))(stack), eager, rtol=1e-10, atol=1e-12)


def test_cutoffs_of_lstsq_and_scipy_pinv_differentiate_the_truncation():
    import funcgrad.scipy.linalg as fsl
    a, b = TRUNCATED[0], RNG.standard_normal(5)
    check_jvp_fd(lambda a: fnp.linalg.lstsq(a, b, rcond=0.06)[0], [a])
    check_jvp_fd(lambda a: fsl.lstsq(a, b, cond=0.06)[0], [a])
    check_jvp_fd(lambda a: fsl.pinv(a, rtol=0.06), [a])
    check_jvp_fd(lambda a: fsl.pinv(a, atol=0.1), [a])


def test_qr_rank_deficient_derivative_refuses_clearly():
    a = np.array([[1.0, 2.0, 0.0], [2.0, 4.0, 1.0], [3.0, 6.0, 1.0]])  # column 1 = 2 * column 0
    q, r = fnp.linalg.qr(a)
    np.testing.assert_allclose(q @ r, a, atol=1e-12)
    with pytest.raises(np.linalg.LinAlgError, match="linearly dependent"):
        fg.grad(lambda a: fnp.sum(fnp.linalg.qr(a)[1]))(a)
    with pytest.raises(np.linalg.LinAlgError, match="linearly dependent"):
        fg.jvp(lambda a: fnp.linalg.qr(a)[0], (a,), (np.ones((3, 3)),))


ROTATING = np.array([[1.0, -2.0, 0.3], [3.0, 0.5, -0.2], [0.1, 0.4, -1.0]])  # w: a +-bi, c


def eig_phase_free(a):
    """eig's outputs through real functions that do not depend on each vector's phase."""
    w, v = fnp.linalg.eig(a)
    return fnp.real(w), fnp.imag(w), fnp.abs(v), fnp.real(v[:, :1] * fnp.conj(v[1:2, :1]))


def test_eig_of_a_real_matrix_with_complex_eigenvalues():
    assert np.iscomplexobj(np.linalg.eigvals(ROTATING))
    w, v = fnp.linalg.eig(ROTATING)  # plain arrays: NumPy's complex result
    np.testing.assert_allclose(w, np.linalg.eig(ROTATING)[0])
    # sum(Im(w)^2) of [[a, b], [c, d]] with complex eigenvalues is -(a - d)^2 / 2 - 2 b c
    a = np.array([[1.0, -2.0], [3.0, 0.5]])
    g = fg.grad(lambda a: fnp.sum(fnp.linalg.eigvals(a).imag ** 2))(a)
    np.testing.assert_allclose(g, [[-0.5, -6.0], [4.0, 0.5]], atol=1e-12)
    assert g.dtype == np.float64
    g32 = fg.grad(lambda a: fnp.sum(fnp.abs(fnp.linalg.eigvals(a)) ** 2))(a.astype(np.float32))
    assert g32.dtype == np.float32
    rng = np.random.default_rng(3)
    check_jvp_fd(eig_phase_free, [ROTATING], rng)
    check_dot_product(eig_phase_free, [ROTATING], rng)
    check_second_order(lambda a: fnp.abs(fnp.linalg.eigvals(a)), [ROTATING], rng)


def test_eig_under_vmap_takes_real_matrices_to_have_real_eigenvalues():
    stack = np.stack([ROTATING, ROTATING.T * 2.0])
    with pytest.raises(NotImplementedError, match=r"a.astype\(complex\)"):
        fg.vmap(fnp.linalg.eigvals)(stack)
    with pytest.raises(NotImplementedError, match="complex eigenvalues"):
        fg.jit(fnp.linalg.eigvals)(ROTATING)
    f = lambda a: fnp.abs(fnp.linalg.eig(a.astype(complex))[1])  # noqa: E731
    check_vmap(f, [stack], [0], np.random.default_rng(5))
    np.testing.assert_allclose(fg.jit(f)(ROTATING), np.abs(np.linalg.eig(ROTATING)[1]),
                               rtol=1e-12)


# --- errors name the problem --------------------------------------------------------------

@pytest.mark.parametrize("call,error,match", [
    (lambda: fnp.linalg.svd(np.ones(3)), np.linalg.LinAlgError, "two-dimensional"),
    (lambda: fnp.linalg.eigh(np.ones((2, 3))), np.linalg.LinAlgError, "square"),
    (lambda: fnp.linalg.eigh(np.eye(2), UPLO="X"), ValueError, "UPLO"),
    (lambda: fnp.linalg.qr(np.eye(2), mode="full"), ValueError, "mode"),
    (lambda: fnp.linalg.qr(np.eye(2), mode="raw"), NotImplementedError, "reduced"),
    (lambda: fnp.linalg.matrix_power(np.eye(2), 1.5), TypeError, "integer"),
    (lambda: fnp.linalg.multi_dot([np.eye(2)]), ValueError, "two arrays"),
    (lambda: fnp.linalg.pinv(np.eye(2), rcond=0.1, rtol=0.1), ValueError, "both"),
    (lambda: fnp.linalg.outer(np.eye(2), np.ones(2)), ValueError, "one-dimensional"),
    (lambda: fnp.linalg.cross(np.ones(2), np.ones(2)), ValueError, "3-dimensional"),
    (lambda: fnp.linalg.norm(np.eye(2), 3), ValueError, "invalid norm order"),
    (lambda: fnp.linalg.tensorinv(np.ones((2, 3)), ind=1), np.linalg.LinAlgError, "square"),
])
def test_errors_name_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()



def test_norm_takes_matrix_axes_in_the_order_given_and_numpy_dtypes_and_shapes():
    m = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.0]])  # column sums 4, 2, 1.5; rows 3.5, 4
    for ord_, want in ((1, 4.0), (-1, 1.5), (np.inf, 4.0), (-np.inf, 3.5)):
        assert fnp.linalg.norm(m, ord_) == want
        # axis=(1, 0): the rows of m are the columns: the norm of m.T
        transposed = {1: 4.0, -1: 3.5, np.inf: 4.0, -np.inf: 1.5}[ord_]
        assert fnp.linalg.norm(m, ord_, axis=(1, 0)) == transposed
        assert fnp.linalg.norm(m[None], ord_, axis=(-1, 1), keepdims=True).shape == (1, 1, 1)
    grad = fg.grad(lambda a: fnp.linalg.norm(a, -1, axis=(1, 0)))(m)  # min row sum: row 0
    np.testing.assert_array_equal(grad, [[1.0, -1.0, 1.0], [0.0, 0.0, 0.0]])
    for ord_ in (None, 0, 1, 2, np.inf):
        assert fnp.linalg.norm(np.arange(4), ord_).dtype == np.float64
    assert fnp.linalg.norm(np.array([1j, 0.0, 2.0]), 0) == 2.0
    assert fnp.linalg.norm(np.array([1j, 0.0, 2.0]), 0).dtype == np.float64
    assert fnp.linalg.norm(np.ones((2, 3, 4)), keepdims=True).shape == (1, 1, 1)
    assert fnp.linalg.norm(np.zeros(0), np.inf) == 0.0


def test_cholesky_upper_of_a_complex_hermitian_matrix_is_l_conjugate_transposed():
    # (audit: upper=True gave L^T, not L^H, so U^H U was not the matrix; scipy.linalg's
    # cholesky, upper by default, inherited it)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    a = x @ x.conj().T + np.eye(3)
    want = np.linalg.cholesky(a, upper=True)
    np.testing.assert_allclose(fnp.linalg.cholesky(a, upper=True), want, rtol=1e-13)
    np.testing.assert_allclose(fg.vjp(lambda a: fnp.linalg.cholesky(a, upper=True), a)[0], want,
                               rtol=1e-13)
    import funcgrad.scipy.linalg as fsl
    np.testing.assert_allclose(fsl.cholesky(a), want, rtol=1e-13)

    def upper_factor(re, im):  # (of Hermitian matrices only: the rule's own domain)
        return fnp.abs(fnp.linalg.cholesky((re + re.T) / 2 + 0.5j * (im - im.T), upper=True))

    check_jvp_fd(upper_factor, [a.real, a.imag], rng)


def test_lstsq_under_jit_and_vmap_equals_numpy_and_keeps_the_residuals():
    """lstsq under jit and vmap (it raised ConcretizationError on int(rank)): NumPy's
    solution, rank and singular values; for a tall full-rank system its residuals too, and
    for a rank-deficient one the residual norms where NumPy gives none (as JAX)."""
    b = np.arange(4.0)
    f = lambda a, b: fnp.linalg.lstsq(a, b)  # noqa: E731
    for a in (TALL, WIDE.T):  # (4 x 3 and 4 x 2, full rank)
        want = np.linalg.lstsq(a, b)
        # (make_graph traces as jit does; one shape is compiled, below)
        got = fg.make_graph(f)(a, b)(a, b)
        for g, w in zip(got, want):
            assert np.shape(g) == np.shape(w)
            assert_close(g, w, 1e-10)
        assert got[2].dtype == np.int32
        batched = fg.vmap(f)(np.stack([a, 2 * a]), np.stack([b, b]))
        assert_close(batched[0], np.stack([want[0], want[0] / 2]), 1e-10)
        np.testing.assert_array_equal(batched[2], [want[2]] * 2)
    deficient = np.c_[TALL[:, :2], TALL[:, :1]]
    x, residuals, rank, _ = fg.jit(f)(deficient, b)
    assert rank == 2 and np.linalg.lstsq(deficient, b)[1].shape == (0,)
    assert_close(residuals, [np.sum((deficient @ x - b) ** 2)], 1e-10)


@pytest.mark.parametrize("b_dtype", [np.int64, np.float64, np.complex128])
def test_lstsq_of_float32_a_and_a_wider_b_solves_in_numpys_common_dtype(b_dtype):
    """NumPy solves in the common dtype: float32 a with float64 b gives float64 singular
    values too (they were float32: computed from a alone)."""
    a = TALL.astype(np.float32)
    b = (np.arange(4) + (1j if b_dtype is np.complex128 else 0)).astype(b_dtype)
    want = np.linalg.lstsq(a, b)
    for got in (fnp.linalg.lstsq(a, b), fg.make_graph(fnp.linalg.lstsq)(a, b)(a, b)):
        for g, w in zip(got, want):
            assert g.dtype == w.dtype
            assert_close(g, w, 1e-5)
