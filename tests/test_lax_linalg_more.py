"""``fg.lax.linalg``'s ``lu``, ``lu_pivots_to_permutation``, ``eig``, ``schur`` and
``tridiagonal_solve``: JAX's signatures and result conventions, values against SciPy
(computed independently), derivatives by the correctness bar where they have one."""
import numpy as np
import pytest
import scipy.linalg

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import lax
from helpers import (check_dot_product, check_float32, check_jvp_fd, check_second_order,
                     check_vmap)

RNG = np.random.default_rng(11)


def _unpack(lu, m, n):
    k = min(m, n)
    low = np.tril(lu[:, :k], -1) + np.eye(m, k)
    return low, np.triu(lu[:k, :])


# --- lu -------------------------------------------------------------------------------------

def test_lu_equals_lapack_getrf_for_square_matrices():
    a = RNG.normal(size=(5, 5))
    lu, pivots, perm = lax.linalg.lu(a)
    want_lu, want_piv = scipy.linalg.lu_factor(a)
    np.testing.assert_allclose(lu, want_lu, rtol=1e-12, atol=1e-14)
    assert pivots.dtype == perm.dtype == np.int32
    np.testing.assert_array_equal(pivots, want_piv)
    p, _, _ = scipy.linalg.lu(a, p_indices=True)  # a == L[p] @ U
    np.testing.assert_array_equal(perm, np.argsort(p))


@pytest.mark.parametrize("shape", [(4, 3), (3, 5), (2, 4, 4), (3, 2, 3)])
def test_lu_of_rectangular_and_stacked_matrices_reconstructs_them(shape):
    a = RNG.normal(size=shape)
    lu, pivots, perm = lax.linalg.lu(a)
    m, n = shape[-2:]
    assert lu.shape == shape and pivots.shape == shape[:-2] + (min(m, n),)
    assert perm.shape == shape[:-2] + (m,)
    for i in np.ndindex(*shape[:-2]):
        low, up = _unpack(lu[i], m, n)
        np.testing.assert_allclose(a[i][perm[i]], low @ up, atol=1e-12)
        np.testing.assert_array_equal(perm[i], lax.linalg.lu_pivots_to_permutation(
            pivots[i], m))
        assert np.all(np.abs(np.tril(lu[i], -1)) <= 1 + 1e-12)  # partial pivoting


def test_lu_derivatives():
    a = RNG.normal(size=(4, 4)) + 3 * np.eye(4)  # pivots far apart: no ties nearby
    f = lambda x: lax.linalg.lu(x)[0]  # noqa: E731
    check_jvp_fd(f, (a,))
    check_dot_product(f, (a,))
    check_second_order(f, (a,))
    check_float32(f, (a,))
    check_vmap(f, (np.stack([a, a.T + 1.0]),), (0,))


def test_lu_pivots_to_permutation_applies_the_swaps_in_turn():
    def by_hand(piv, size):
        perm = list(range(size))
        for k, p in enumerate(piv):
            perm[k], perm[p] = perm[p], perm[k]
        return perm
    for piv, size in [([2, 2, 2], 4), ([0, 1, 2], 3), ([3, 3, 3, 3], 4), ([], 2)]:
        got = lax.linalg.lu_pivots_to_permutation(np.array(piv, np.int32), size)
        assert got.dtype == np.int32
        np.testing.assert_array_equal(got, by_hand(piv, size))
    stacked = np.array([[1, 2], [2, 2]], np.int32)
    np.testing.assert_array_equal(lax.linalg.lu_pivots_to_permutation(stacked, 3),
                                  [by_hand([1, 2], 3), by_hand([2, 2], 3)])
    traced = fg.jit(lambda p: lax.linalg.lu_pivots_to_permutation(p, 3))(stacked)
    np.testing.assert_array_equal(traced, [by_hand([1, 2], 3), by_hand([2, 2], 3)])
    with pytest.raises(ValueError, match="at most permutation_size=2"):
        lax.linalg.lu_pivots_to_permutation(np.array([0, 1, 2], np.int32), 2)
    with pytest.raises(TypeError, match="integer"):
        lax.linalg.lu_pivots_to_permutation(np.array([0.0]), 2)


# --- eig --------------------------------------------------------------------------------------

def test_eig_returns_jaxs_list_of_complex_values_and_vectors():
    a = RNG.normal(size=(4, 4))
    w, vl, vr = lax.linalg.eig(a)
    assert w.dtype == vl.dtype == vr.dtype == np.complex128
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(scipy.linalg.eigvals(a)),
                               rtol=1e-12)
    np.testing.assert_allclose(a @ vr, vr * w, atol=1e-12)
    np.testing.assert_allclose(vl.conj().T @ a, w[:, None] * vl.conj().T, atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(vr, axis=0), 1.0)
    only_w = lax.linalg.eig(a, compute_left_eigenvectors=False,
                            compute_right_eigenvectors=False)
    assert isinstance(only_w, list) and len(only_w) == 1
    w32 = lax.linalg.eig(a.astype(np.float32), compute_left_eigenvectors=False)[0]
    assert w32.dtype == np.complex64


def test_eig_eigenvalues_differentiate():
    # a symmetric-ish matrix with distinct real eigenvalues: their derivative is
    # dw_i = vl_i^H da vr_i / (vl_i^H vr_i)
    a = np.diag([1.0, 2.5, 4.0]) + 0.1 * RNG.normal(size=(3, 3))
    f = lambda x: fnp.real(lax.linalg.eig(x, compute_left_eigenvectors=False,  # noqa: E731
                                          compute_right_eigenvectors=False)[0])
    check_jvp_fd(f, (a,))
    check_dot_product(f, (a,))


# --- schur ------------------------------------------------------------------------------------

def test_schur_equals_scipys_and_stacks():
    a = RNG.normal(size=(4, 4))
    t, vs = lax.linalg.schur(a)
    want_t, want_vs = scipy.linalg.schur(a)
    np.testing.assert_allclose(t, want_t, atol=1e-12)
    np.testing.assert_allclose(vs, want_vs, atol=1e-12)
    stack = np.stack([a, a.T])
    (ts,) = lax.linalg.schur(stack, compute_schur_vectors=False)
    np.testing.assert_allclose(ts[1], scipy.linalg.schur(a.T)[0], atol=1e-12)


def test_schur_has_no_derivative_and_says_so():
    with pytest.raises(NotImplementedError, match="no derivative of the Schur"):
        fg.grad(lambda x: lax.linalg.schur(x)[0].sum())(np.eye(2))
    with pytest.raises(NotImplementedError, match="sort="):
        lax.linalg.schur(np.eye(2), sort_eig_vals=True)


# --- tridiagonal_solve ------------------------------------------------------------------------

def _tridiagonal(m, batch=()):
    dl = RNG.normal(size=batch + (m,))
    du = RNG.normal(size=batch + (m,))
    d = RNG.normal(size=batch + (m,)) + 4.0
    dl[..., 0] = 0.0
    du[..., -1] = 0.0
    return dl, d, du


def test_tridiagonal_solve_equals_scipys_banded_solve():
    dl, d, du = _tridiagonal(6)
    b = RNG.normal(size=(6, 3))
    ab = np.stack([np.r_[0.0, du[:-1]], d, np.r_[dl[1:], 0.0]])  # SciPy's banded storage
    np.testing.assert_allclose(lax.linalg.tridiagonal_solve(dl, d, du, b),
                               scipy.linalg.solve_banded((1, 1), ab, b), rtol=1e-12)
    # the unused corners are ignored
    dl2, du2 = dl.copy(), du.copy()
    dl2[0], du2[-1] = 7.0, -9.0
    np.testing.assert_allclose(lax.linalg.tridiagonal_solve(dl2, d, du2, b),
                               lax.linalg.tridiagonal_solve(dl, d, du, b), rtol=1e-14)


def test_tridiagonal_solve_derivatives_in_all_four():
    dl, d, du = _tridiagonal(5)
    args = (dl, d, du, RNG.normal(size=(5, 2)))
    f = lax.linalg.tridiagonal_solve
    check_jvp_fd(f, args)
    check_dot_product(f, args)
    check_second_order(f, args)
    check_float32(f, args)
    dls, ds, dus = _tridiagonal(4, (3,))
    check_vmap(f, (dls, ds, dus, RNG.normal(size=(3, 4, 2))), (0, 0, 0, 0))


def test_tridiagonal_solve_misuse_is_a_clear_error():
    dl, d, du = _tridiagonal(3)
    with pytest.raises(ValueError, match=r"b must be \(\.\.\., m, n\)"):
        lax.linalg.tridiagonal_solve(dl, d, du, np.ones(3))
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        lax.linalg.tridiagonal_solve(np.zeros(3), np.zeros(3), np.zeros(3), np.ones((3, 1)))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.complex64])
def test_tridiagonal_solve_perturb_singular_has_jaxs_bits(dtype, jlax):
    """Inverse iteration: ``(T - lambda I) x = b`` at an eigenvalue of ``T`` has a finite,
    huge solution along the eigenvector; an exactly singular (zero) matrix too."""
    dl, d, du = _tridiagonal(7, (2,))
    du[:, :-1] = dl[:, 1:]  # (symmetric: real eigenvalues)
    b = RNG.normal(size=(2, 7, 3))
    for i in range(2):
        t = np.diag(d[i]) + np.diag(dl[i, 1:], -1) + np.diag(du[i, :-1], 1)
        d[i] -= np.linalg.eigvalsh(t).max()
    cases = [(dl, d, du, b), (np.zeros(4), np.zeros(4), np.zeros(4), np.ones((4, 1))),
             (dl[0, :1], d[0, :1] * 0.0, du[0, :1], b[0, :1])]
    for args in cases:
        args = [np.asarray(v).astype(dtype) for v in args]
        got = lax.linalg.tridiagonal_solve(*args, perturb_singular=True)
        want = np.asarray(jlax.linalg.tridiagonal_solve(*args, perturb_singular=True))
        assert got.dtype == want.dtype and np.all(np.isfinite(got))
        assert got.tobytes() == want.tobytes()
    # the eigenvector, as inverse iteration finds it: (T - lambda I) x is tiny beside x
    x = lax.linalg.tridiagonal_solve(dl, d, du, b, perturb_singular=True)[..., 0]
    t0 = np.diag(d[0]) + np.diag(dl[0, 1:], -1) + np.diag(du[0, :-1], 1)
    assert np.linalg.norm(t0 @ x[0]) < 1e-6 * np.linalg.norm(x[0])
    # a regular system: the pivoted solution (to rounding: its pivots are chosen as
    # LAPACK's ?lagtf does, not ?gtsv)
    dl, d, du = _tridiagonal(6)
    b = RNG.normal(size=(6, 2))
    perturbed = lax.linalg.tridiagonal_solve(dl, d, du, b, perturb_singular=True)
    np.testing.assert_allclose(perturbed, lax.linalg.tridiagonal_solve(dl, d, du, b),
                               rtol=1e-13)


def test_tridiagonal_solve_perturb_singular_differentiates_as_jaxs(jlax):
    dl, d, du = _tridiagonal(5)
    b = RNG.normal(size=(5, 2))
    f = lambda *a: lax.linalg.tridiagonal_solve(*a, perturb_singular=True)  # noqa: E731
    args = (dl, d, du, b)
    check_jvp_fd(f, args)
    check_dot_product(f, args)
    dls, ds, dus = _tridiagonal(4, (3,))
    check_vmap(f, (dls, ds, dus, RNG.normal(size=(3, 4, 2))), (0, 0, 0, 0))
    np.testing.assert_allclose(fg.jit(f)(*args), f(*args), rtol=1e-15)
    # at a singular matrix: JAX's rules, each solve perturbed alike
    du[:-1] = dl[1:]  # (symmetric: a real eigenvalue to shift by)
    t = np.diag(d) + np.diag(dl[1:], -1) + np.diag(du[:-1], 1)
    args = (dl, d - np.linalg.eigvalsh(t).max(), du, b)
    tangents = tuple(RNG.normal(size=v.shape) for v in args)
    jf = lambda *a: jlax.linalg.tridiagonal_solve(*a, perturb_singular=True)  # noqa: E731
    import jax
    _, want = jax.jvp(jf, args, tangents)
    _, got = fg.jvp(f, args, tangents)
    np.testing.assert_allclose(got, np.asarray(want), rtol=1e-9)
