"""funcgrad.scipy.linalg, .signal and .integrate against SciPy: values (float64, 1e-12
relative), derivatives against central differences, vmap, jit, second order, odeint
against scipy.integrate.odeint and closed forms, and errors that name the fix."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")
ss = pytest.importorskip("scipy.signal")
si = pytest.importorskip("scipy.integrate")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.integrate as fsi  # noqa: E402
import funcgrad.scipy.linalg as fsl  # noqa: E402
import funcgrad.scipy.signal as fss  # noqa: E402
from helpers import (check_dot_product, check_float32, check_jvp_fd,  # noqa: E402
                     check_second_order, check_vmap)

RNG = np.random.default_rng(21)
A = RNG.standard_normal((4, 4))
TRI = A + 4 * np.eye(4)
SPD = A @ A.T + np.eye(4)
B = RNG.standard_normal((4, 3))


def close(got, want, rtol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    # relative to the largest entry: entries near 0 carry the others' rounding
    np.testing.assert_allclose(got, want, rtol=0, atol=rtol * max(np.max(np.abs(want)), 1e-300))


# --- linalg values -------------------------------------------------------------------------

@pytest.mark.parametrize("lower", [False, True])
@pytest.mark.parametrize("trans", [0, "T", 2])
@pytest.mark.parametrize("unit", [False, True])
def test_solve_triangular_matches_scipy(lower, trans, unit):
    for b in (B, B[:, 0]):
        kw = dict(trans=trans, lower=lower, unit_diagonal=unit)
        close(fsl.solve_triangular(TRI, b, **kw), sl.solve_triangular(TRI, b, **kw))


@pytest.mark.parametrize("lower", [False, True])
def test_cho_factor_and_cho_solve_match_scipy(lower):
    c, low = fsl.cho_factor(SPD, lower=lower)
    cs, lows = sl.cho_factor(SPD, lower=lower)
    close(c, cs)
    assert low == lows
    close(fsl.cho_solve((c, low), B), sl.cho_solve((cs, lows), B))


@pytest.mark.parametrize("lower", [False, True])
def test_cholesky_and_cho_factor_read_only_scipys_triangle(lower):
    # (audit: the upper factor, SciPy's default, was taken from the lower triangle, so a
    # matrix given by its upper triangle alone got another matrix's factor)
    messy = SPD + np.triu(RNG.standard_normal((4, 4)), 1) - np.tril(RNG.standard_normal((4, 4)), -1)
    h = SPD + 1j * (A - A.T)
    for a in (messy, h + np.triu(np.full((4, 4), 0.2j), 1), h + np.tril(np.full((4, 4), 0.3), -1)):
        close(fsl.cholesky(a, lower=lower), sl.cholesky(a, lower=lower))
        c, low = fsl.cho_factor(a, lower=lower)
        close(c, sl.cho_factor(a, lower=lower)[0])
        close(fsl.cho_solve((c, low), B), sl.cho_solve(sl.cho_factor(a, lower=lower), B))
    # the derivative along a direction in the triangle read (mirrored: a Hermitian one)
    def read(t):
        part = np.triu(t) if not lower else np.tril(t)
        return part + part.T - np.diag(np.diag(t))
    v = read(RNG.standard_normal((4, 4)))
    _, tangent = fg.jvp(lambda x: fsl.cholesky(x, lower=lower), (messy,), (v,))
    h_step = 1e-6
    fd = (sl.cholesky(messy + h_step * v, lower=lower)
          - sl.cholesky(messy - h_step * v, lower=lower)) / (2 * h_step)
    close(tangent, fd, 1e-7)


def test_lu_factor_lu_solve_and_lu_match_scipy():
    lu, piv = fsl.lu_factor(A)
    lus, pivs = sl.lu_factor(A)
    close(lu, lus)
    np.testing.assert_array_equal(piv, pivs)
    c = RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))
    close(fsl.lu_factor(c)[0], sl.lu_factor(c)[0])
    for trans in (0, 1, 2):
        close(fsl.lu_solve((lu, piv), B, trans=trans), sl.lu_solve((lus, pivs), B, trans=trans))
    for shape in [(4, 4), (5, 3), (3, 5)]:
        m = RNG.standard_normal(shape)
        for kw in ({}, {"permute_l": True}, {"p_indices": True}):
            for got, want in zip(fsl.lu(m, **kw), sl.lu(m, **kw)):
                close(got, want)


@pytest.mark.parametrize("scale", [1e-3, 0.1, 1.0, 5.0, 30.0])
def test_expm_matches_scipy(scale):
    m = RNG.standard_normal((4, 4)) * scale / 4
    close(fsl.expm(m), sl.expm(m), 1e-12 if scale < 5 else 1e-11)
    close(fg.jit(fsl.expm)(m), sl.expm(m), 1e-12 if scale < 5 else 1e-11)
    stack = np.stack([m, m.T])
    close(fsl.expm(stack), sl.expm(stack), 1e-12 if scale < 5 else 1e-11)


def test_sqrtm_solve_sylvester_block_diag_match_scipy():
    close(fsl.sqrtm(SPD), sl.sqrtm(SPD))
    c = np.eye(4) + 0.3 * A
    close(fsl.sqrtm(c @ c), sl.sqrtm(c @ c))
    q, b = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 3))
    close(fsl.solve_sylvester(A, b, q), sl.solve_sylvester(A, b, q))
    close(fsl.block_diag(A, B[:, 0], 2.0, B), sl.block_diag(A, B[:, 0], 2.0, B))
    assert fsl.block_diag().shape == sl.block_diag().shape


def test_eigh_reads_one_triangle_of_a_and_b_and_differentiates_in_it():
    # SciPy reads only the `lower` (default) or upper triangle of a and of b; the derivative
    # in the other one is zero.  (audit: with b, the Cholesky factor read b's lower triangle
    # whatever `lower` said, and its derivative was spread over both)
    a = RNG.standard_normal((3, 3))
    other = np.array([[2.0, 0.5, -0.3], [0.5, 3.0, 0.2], [-0.3, 0.2, 2.5]])
    b = np.tril(SPD[:3, :3]) + np.triu(other, 1)  # (either triangle positive definite)
    c = np.array([0.3, -1.1, 0.7])
    h = 1e-6
    for lower in (True, False):
        for bmat in (None, b):
            close(fsl.eigh(a, bmat, lower=lower)[0], sl.eigh(a, bmat, lower=lower)[0], 1e-11)

            def by_scipy(m, which):
                args = (m, bmat) if which == 0 else (a, m)
                return float(c @ sl.eigh(*args, lower=lower, eigvals_only=True))
            for which, x in ((0, a), (1, b)) if bmat is not None else ((0, a),):
                want = np.zeros((3, 3))
                for i in range(3):
                    for j in range(3):
                        e = np.zeros((3, 3))
                        e[i, j] = h
                        want[i, j] = (by_scipy(x + e, which) - by_scipy(x - e, which)) / (2 * h)
                got = fg.grad(lambda m: fnp.sum(c * fsl.eigh(
                    *((m, bmat) if which == 0 else (a, m)), lower=lower, eigvals_only=True)))(x)
                np.testing.assert_allclose(got, want, atol=1e-7)
                unread = np.triu(got, 1) if lower else np.tril(got, -1)
                assert not np.any(unread), (lower, which)


def test_scipy_signatures_of_the_decompositions():
    close(fsl.cholesky(SPD), sl.cholesky(SPD))  # upper by default, as SciPy
    close(fsl.cholesky(SPD, lower=True), sl.cholesky(SPD, lower=True))
    close(fsl.eigh(SPD, eigvals_only=True), sl.eigh(SPD, eigvals_only=True))
    bmat = SPD + np.eye(4)
    w, v = fsl.eigh(SPD, bmat)
    ws, vs = sl.eigh(SPD, bmat)
    close(w, ws)
    close(np.abs(v), np.abs(vs), 1e-11)
    close(fsl.eigh(SPD, lower=False, subset_by_index=(1, 2))[0],
          sl.eigh(SPD, lower=False, subset_by_index=(1, 2))[0])
    q, r = fsl.qr(B)
    assert q.shape == (4, 4) and r.shape == (4, 3)
    close(np.abs(r), np.abs(sl.qr(B)[1]))
    close(np.abs(fsl.qr(B, mode="economic")[1]), np.abs(sl.qr(B, mode="economic")[1]))
    close(fsl.svd(B, compute_uv=False), sl.svd(B, compute_uv=False))
    assert [x.shape for x in fsl.svd(B)] == [x.shape for x in sl.svd(B)]
    close(fsl.pinv(B), sl.pinv(B))
    assert int(fsl.pinv(B, return_rank=True)[1]) == sl.pinv(B, return_rank=True)[1]
    close(fsl.inv(A), sl.inv(A))
    close(fsl.det(A), sl.det(A))
    close(fsl.norm(A, 2), sl.norm(A, 2))
    for assume in (None, "sym", "pos", "lower triangular"):
        close(fsl.solve(SPD, B, assume_a=assume, lower=True),
              sl.solve(SPD, B, assume_a=assume, lower=True))
    close(fsl.solve(A, B, transposed=True), sl.solve(A, B, transposed=True))


@pytest.mark.parametrize("assume", ["diagonal", "tridiagonal"])
def test_solve_with_a_banded_assume_a_reads_only_the_band(assume):
    # (audit: the full matrix was solved, ignoring what assume_a says SciPy reads)
    for transposed in (False, True):
        kw = dict(assume_a=assume, transposed=transposed)
        close(fsl.solve(TRI, B, **kw), sl.solve(TRI, B, **kw))
    band = 0 if assume == "diagonal" else 1
    grad = fg.grad(lambda a: fnp.sum(fsl.solve(a, B, assume_a=assume)))(TRI)
    outside = np.abs(np.subtract.outer(np.arange(4), np.arange(4))) > band
    assert np.all(grad[outside] == 0) and np.all(grad[~outside] != 0)


JORDAN = np.array([[4.0, 1.0, 0.0], [0.0, 4.0, 1.0], [0.0, 0.0, 4.0]])
JORDAN_ROOT = np.array([[2.0, 0.25, -1 / 64], [0.0, 2.0, 0.25], [0.0, 0.0, 2.0]])  # by hand


def test_sqrtm_of_defective_and_nearly_defective_matrices():
    # (audit: V sqrt(D) V^-1 gave [[2, 0], [0, 2]] for [[4, 1], [0, 4]], whose square is off
    # by 1, and lost accuracy as the eigenvectors became nearly parallel)
    jordan, want = JORDAN, JORDAN_ROOT
    close(fsl.sqrtm(jordan), want, 1e-15)
    close(traced(fsl.sqrtm, jordan), want, 1e-15)
    close(fg.vmap(fsl.sqrtm)(np.stack([jordan, SPD[:3, :3]])),
          np.stack([want, sl.sqrtm(SPD[:3, :3])]), 1e-13)
    near = np.array([[1.0, 1.0], [0.0, 1.0 + 1e-10]])
    root = np.asarray(fsl.sqrtm(near))
    close(root @ root, near, 1e-15)
    check_jvp_fd(fsl.sqrtm, [jordan], RNG)
    with pytest.raises(ValueError, match="singular and"):
        fsl.sqrtm(np.array([[0.0, 1.0], [0.0, 0.0]]))
    close(fsl.sqrtm(np.ones((2, 2))), np.ones((2, 2)) / np.sqrt(2.0))  # singular, diagonalizable


# One fg.jit of the Schur-based root: a minute of Numba compiles on a quiet machine, past
# pytest's 300 s limit on a loaded one; make soak runs it.
@pytest.mark.soak
def test_sqrtm_of_a_defective_matrix_compiles_to_the_same_root():
    close(fg.jit(fsl.sqrtm)(JORDAN), JORDAN_ROOT, 1e-15)


def test_sqrtm_under_vmap_and_jit_refuses_a_real_matrix_without_a_real_root():
    # (the iteration used under vmap/jit ran on and returned a real "root" off by 1e3 for
    # [[1, 2], [2, -1]], eigenvalues +-sqrt(5), whose principal root is complex)
    a = np.array([[1.0, 2.0], [2.0, -1.0]])
    message = "no real principal square root"
    with pytest.raises(ValueError, match=message):
        fg.jit(fsl.sqrtm)(a)  # (the evaluation while it compiles: raising queues none)
    with pytest.raises(ValueError, match=message):
        fg.vmap(fsl.sqrtm)(np.stack([JORDAN[:2, :2], a]))
    with pytest.raises(ValueError, match=message):
        fg.jit(fg.grad(lambda m: fnp.sum(fsl.sqrtm(m))))(a)
    root = fsl.sqrtm(a)  # eagerly: the complex root, as SciPy's
    close(root, sl.sqrtm(a), 1e-12)
    close(root @ root, a, 1e-12)


def test_lu_result_types_are_scipys():
    c = A + 1j * A.T
    for m in (A, c, A.astype(np.float32)):
        for kw in ({}, {"permute_l": True}, {"p_indices": True}):
            for got, want in zip(fsl.lu(m, **kw), sl.lu(m, **kw)):
                assert np.asarray(got).dtype == want.dtype, (m.dtype, kw)
                close(got, want, 1e-12 if m.dtype != np.float32 else 1e-5)


# --- linalg derivatives ----------------------------------------------------------------------

LINALG_GRADS = [
    (lambda a, b: fsl.solve_triangular(a + 4 * np.eye(4), b, lower=True), [A, B]),
    (lambda a, b: fsl.solve_triangular(a + 4 * np.eye(4), b, trans=1, unit_diagonal=True),
     [A, B]),
    (lambda a, b: fsl.cho_solve(fsl.cho_factor(a @ a.T + np.eye(4)), b), [A, B]),
    (lambda a, b: fsl.lu_solve(fsl.lu_factor(a), b), [A, B]),
    (lambda a: fsl.lu(a)[1:], [A]),
    (lambda a: fsl.expm(a), [A]),
    (lambda a: fsl.expm(3 * a), [A]),
    (lambda a: fsl.sqrtm(a @ a.T + np.eye(4)), [A]),
    (lambda a, q: fsl.solve_sylvester(a, a.T + 3 * np.eye(4), q), [A, B @ B.T]),
    (lambda a, b: fsl.block_diag(a, b, 1.0), [A, B]),
    (lambda a: fsl.eigh(a @ a.T, a @ a.T + np.eye(4), eigvals_only=True), [A]),
]


@pytest.mark.parametrize("f,args", LINALG_GRADS, ids=range(len(LINALG_GRADS)))
def test_linalg_derivatives_match_central_differences(f, args):
    check_jvp_fd(f, args, RNG)


def test_expm_vjp_is_the_frechet_derivative_at_the_transpose():
    # <G, L(A, E)> = <L(A^T, G), E>; L(A, E) is the top right block of expm([[A, E], [0, A]])
    g, e = RNG.standard_normal((4, 4)), RNG.standard_normal((4, 4))
    big = np.block([[A.T, g], [np.zeros((4, 4)), A.T]])
    want = sl.expm(big)[:4, 4:]
    got = fg.vjp(fsl.expm, A)[1](g)[0]
    close(got, want, 1e-11)
    close(fg.jvp(fsl.expm, (A,), (e,))[1], sl.expm(np.block([[A, e], [0 * e, A]]))[:4, 4:],
          1e-11)


@pytest.mark.parametrize("f,args", [LINALG_GRADS[0], LINALG_GRADS[5], LINALG_GRADS[7]],
                         ids=["solve_triangular", "expm", "sqrtm"])
def test_linalg_second_order(f, args):
    check_second_order(f, args, RNG)


def test_linalg_vmap():
    stack = np.stack([A, A.T, 0.5 * A])
    for f in (lambda a: fsl.solve_triangular(a + 4 * np.eye(4), B, lower=True),
              lambda a: fsl.lu_solve(fsl.lu_factor(a), B), fsl.expm,
              lambda a: fsl.cho_solve(fsl.cho_factor(a @ a.T + np.eye(4)), B)):
        close(fg.vmap(f)(stack), np.stack([f(a) for a in stack]), 1e-12)
    g = fg.grad(lambda a: fnp.sum(fsl.lu(a)[2] ** 2))
    close(fg.vmap(g)(stack), np.stack([g(a) for a in stack]), 1e-12)


def test_linalg_errors_name_the_fix():
    with pytest.raises(ValueError, match="b needs 4 rows"):
        fsl.solve_triangular(A, np.ones(3))
    with pytest.raises(ValueError, match="trans must be"):
        fsl.solve_triangular(A, B, trans="X")
    with pytest.raises(TypeError, match=r"pair \(lu, piv\)"):
        fsl.lu_solve(A, B)
    with pytest.raises(NotImplementedError, match="mode='raw'.*use mode='full'"):
        fg.grad(lambda a: fnp.sum(fsl.qr(a, mode="raw")[1]))(A)  # (session 26: pivoting works)
    with pytest.raises(ValueError, match="square"):
        fsl.expm(B)


# --- eig, schur, pinvh, logm, funm ----------------------------------------------------------

ROT = np.array([[1.0, -2.0, 0.3], [3.0, 0.5, -0.2], [0.1, 0.4, 2.0]])  # w: a +-bi, c > 0
NEG = np.array([[-2.0, 1.0, 0.0], [0.5, 1.0, 0.2], [0.0, 0.3, 3.0]])  # a negative w
CPLX = (RNG.standard_normal((3, 3)) + 1j * RNG.standard_normal((3, 3))) + 3 * np.eye(3)
BMAT = 2 * np.eye(3) + 0.3 * RNG.standard_normal((3, 3))


def traced(f, *args):
    """``f``'s value on traced inputs (the differentiable route, not SciPy's own)."""
    return fg.vjp(f, *args)[0]


def same(got, want, rtol=1e-12):
    for g, w in zip(got if isinstance(got, tuple) else (got,),
                    want if isinstance(want, tuple) else (want,)):
        assert np.asarray(g).dtype == w.dtype, (np.asarray(g).dtype, w.dtype)
        close(g, w, rtol)


@pytest.mark.parametrize("kw", [{}, {"left": True}, {"left": True, "right": False},
                                {"right": False}, {"homogeneous_eigvals": True}])
def test_eig_matches_scipy_order_phases_and_types(kw):
    for a in (ROT, SPD[:3, :3], CPLX):
        same(traced(lambda a: fsl.eig(a, **kw), a), sl.eig(a, **kw))
    # (SciPy 1.17 leaves vl unnormalized past its first column for b, left=True,
    # right=False: its loop runs over vr's dummy shape; funcgrad's are unit vectors)
    if not kw.get("homogeneous_eigvals") and kw != {"left": True, "right": False}:
        same(traced(lambda a, b: fsl.eig(a, b, **kw), ROT, BMAT), sl.eig(ROT, BMAT, **kw))
    same(fsl.eig(ROT, **kw), sl.eig(ROT, **kw))  # plain arrays: SciPy's own
    w = traced(lambda a: fsl.eig(a, right=False), ROT.astype(np.float32))
    assert w.dtype == np.complex64


def eig_phase_free(a, b=None):
    """Real functions of eig's outputs that do not depend on each vector's phase: the
    eigenvalues, |vl|, |vr| and the spectral projector vr_i vl_i^H / (vl_i^H vr_i)."""
    w, vl, vr = fsl.eig(a, b, left=True)
    proj = vr[:, :1] * fnp.conj(vl[:, :1]).T / (fnp.conj(vl[:, 0]) @ vr[:, 0])
    return fnp.real(w), fnp.imag(w), fnp.abs(vl), fnp.abs(vr), fnp.real(proj), fnp.imag(proj)


@pytest.mark.parametrize("f,args", [(eig_phase_free, [ROT]), (eig_phase_free, [ROT, BMAT]),
                                    (lambda a: eig_phase_free(a.astype(complex) + 1j * a.T),
                                     [ROT])], ids=["left_right", "generalized", "complex"])
def test_eig_derivatives(f, args):
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)


def test_eig_second_order_vmap_and_what_vmap_refuses():
    check_second_order(lambda a: fnp.abs(fsl.eig(a, right=False)), [ROT], RNG)
    stack = np.stack([CPLX, CPLX.T, 2 * CPLX])
    f = lambda a: fnp.abs(fsl.eig(a)[1]) + fnp.real(fsl.eig(a)[0])[None, :]  # noqa: E731
    close(fg.vmap(f)(stack), np.stack([f(a) for a in stack]))
    g = fg.grad(lambda a: fnp.sum(f(a) * BMAT))
    close(fg.vmap(g)(stack), np.stack([g(a) for a in stack]))
    with pytest.raises(NotImplementedError, match="left=True"):
        fg.vmap(lambda a: fsl.eig(a, left=True)[1])(stack)
    with pytest.raises(NotImplementedError, match=r"homogeneous_eigvals=False"):
        fg.grad(lambda a: fnp.sum(fnp.abs(fsl.eig(a, BMAT, homogeneous_eigvals=True)[0])))(ROT)


def test_schur_values_and_a_clear_error_for_derivatives():
    for output in ("real", "complex"):
        same(fsl.schur(ROT, output=output), sl.schur(ROT, output=output), 0.0)
    with pytest.raises(NotImplementedError, match="no derivative of the Schur"):
        fg.grad(lambda a: fnp.sum(fsl.schur(a)[0]))(ROT)
    with pytest.raises(ValueError, match="output must be"):
        fsl.schur(ROT, output="x")


PSD4 = B @ B.T  # (4, 4), rank 3


def test_pinvh_matches_scipy():
    herm = CPLX @ CPLX.conj().T
    for a in (SPD, PSD4, herm, NEG + NEG.T):
        same(traced(fsl.pinvh, a), sl.pinvh(a))
    same(traced(lambda a: fsl.pinvh(a, lower=False, atol=0.5), PSD4),
         sl.pinvh(PSD4, lower=False, atol=0.5))
    assert int(fsl.pinvh(PSD4, return_rank=True)[1]) == sl.pinvh(PSD4, return_rank=True)[1] == 3
    with pytest.raises(ValueError, match="positive"):
        fsl.pinvh(SPD, rtol=-1.0)


@pytest.mark.parametrize("f,args", [
    (fsl.pinvh, [SPD]),
    (lambda b: fsl.pinvh(b @ b.T), [B]),  # rank 3 throughout: the rank-preserving derivative
    (lambda m: fnp.real(fsl.pinvh(m @ fnp.conj(m).T * (1 + 0j))), [B]),
], ids=["full_rank", "rank_deficient", "through_complex"])
def test_pinvh_derivatives(f, args):
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)


def test_pinvh_second_order_vmap_float32():
    check_second_order(lambda b: fsl.pinvh(b @ b.T), [B], RNG)
    check_vmap(fsl.pinvh, [np.stack([SPD, PSD4, 2 * SPD])], [0], RNG)
    check_float32(fsl.pinvh, [SPD], RNG, graph=False)


def frechet_logm(a, e):
    """L(A, E): the top right block of logm([[A, E], [0, A]]) (SciPy's values)."""
    n = a.shape[0]
    return sl.logm(np.block([[a, e], [np.zeros_like(a), a]]))[:n, n:]


def test_logm_matches_scipy_and_its_derivative_is_the_frechet_derivative():
    for a in (SPD, ROT, NEG, CPLX, np.array([[1.0, 3.0], [1.0, 4.0]])):
        same(traced(fsl.logm, a), sl.logm(a), 1e-11)  # NEG: complex, as SciPy's
        e = RNG.standard_normal(a.shape)
        close(fg.jvp(fsl.logm, (a,), (e,))[1], frechet_logm(a, e), 1e-10)
    g = RNG.standard_normal((3, 3))  # <G, L(A, E)> = <L(A^T, G), E> for real A
    close(fg.vjp(fsl.logm, ROT)[1](g)[0], frechet_logm(ROT.T, g), 1e-10)
    same(fsl.logm(ROT), sl.logm(ROT))  # plain arrays: SciPy's own
    f, err = fsl.logm(ROT, disp=False)
    assert 0 <= err < 1e-12


def test_logm_derivatives_second_order_vmap_and_types():
    check_jvp_fd(fsl.logm, [ROT], RNG)
    check_dot_product(fsl.logm, [ROT], RNG)
    check_jvp_fd(lambda a: fnp.abs(fsl.logm(a)), [NEG], RNG)
    check_second_order(fsl.logm, [ROT], RNG)
    stack = np.stack([CPLX, CPLX.T, CPLX + 1.0])
    close(fg.vmap(fsl.logm)(stack), np.stack([sl.logm(c) for c in stack]), 1e-11)
    assert traced(fsl.logm, ROT.astype(np.float32)).dtype == np.float32
    assert traced(fsl.logm, CPLX.astype(np.complex64)).dtype == np.complex64


def test_logm_and_funm_errors_name_the_fix():
    with pytest.raises(NotImplementedError, match=r"a.astype\(complex\)"):
        fg.vmap(fsl.logm)(np.stack([ROT, ROT]))
    with pytest.raises(ValueError, match="defective"):
        fg.grad(lambda a: fnp.sum(fsl.logm(a)))(np.array([[1.0, 1.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="singular"):
        fg.grad(lambda a: fnp.sum(fsl.logm(a)))(np.array([[1.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(ValueError, match="square"):
        fg.grad(lambda a: fnp.sum(fsl.logm(a)))(B)
    with pytest.raises(TypeError, match="func must be a function"):
        fsl.funm(ROT, 3.0)


def test_funm_matches_scipy_and_expm():
    for func in (np.sin, np.exp, lambda w: w ** 3):
        same(traced(lambda a: fsl.funm(a, func), ROT), sl.funm(ROT, func), 1e-11)
    same(traced(lambda a: fsl.funm(a, np.sqrt), CPLX), sl.funm(CPLX, np.sqrt), 1e-11)
    e = RNG.standard_normal((3, 3))
    close(fg.jvp(lambda a: fsl.funm(a, np.exp), (ROT,), (e,))[1],
          fg.jvp(fsl.expm, (ROT,), (e,))[1], 1e-10)
    check_jvp_fd(lambda a: fsl.funm(a, np.sin), [ROT], RNG)
    check_dot_product(lambda a: fsl.funm(a, np.sin), [ROT], RNG)
    f, err = traced(lambda a: fsl.funm(a, np.sin, disp=False), ROT)
    assert 0 < float(err) < 1e-13


# --- more of scipy.linalg: matrix trigonometry, expm_frechet, Lyapunov, structured matrices,
# eigvals, lstsq ------------------------------------------------------------------------------

SMALL = A[:3, :3] * 0.5
COMPLEX = SMALL + 0.3j * RNG.standard_normal((3, 3))
E = RNG.standard_normal((3, 3))
C, R = RNG.standard_normal(4), RNG.standard_normal(3)

MORE_VALUES = [
    ("cosm", (SMALL,)), ("cosm", (COMPLEX,)), ("sinm", (SMALL,)), ("sinm", (COMPLEX,)),
    ("tanm", (SMALL,)), ("tanm", (COMPLEX,)), ("coshm", (SMALL,)), ("coshm", (COMPLEX,)),
    ("sinhm", (SMALL,)), ("tanhm", (COMPLEX,)), ("expm_frechet", (SMALL, E)),
    ("solve_continuous_lyapunov", (SMALL - 2 * np.eye(3), SPD[:3, :3])),
    ("solve_continuous_lyapunov", (COMPLEX - 2 * np.eye(3), SPD[:3, :3])),
    ("solve_lyapunov", (SMALL - 2 * np.eye(3), E)),
    ("solve_discrete_lyapunov", (SMALL, SPD[:3, :3])), ("solve_discrete_lyapunov", (COMPLEX, E)),
    ("toeplitz", (C, R)), ("toeplitz", (C,)), ("toeplitz", (C + 1j,)), ("hankel", (C, R)),
    ("hankel", (C,)), ("circulant", (C,)), ("khatri_rao", (SMALL, E)), ("eigvals", (SMALL,)),
    ("eigvals", (SMALL, SPD[:3, :3])),
]


@pytest.mark.parametrize("name,args", MORE_VALUES, ids=[f"{v[0]}{i}" for i, v in
                                                        enumerate(MORE_VALUES)])
def test_more_linalg_matches_scipy(name, args):
    got, want = getattr(fsl, name)(*args), getattr(sl, name)(*args)
    for g, w in zip(*((got, want) if isinstance(want, tuple) else ((got,), (want,)))):
        assert np.asarray(g).dtype == w.dtype, (np.asarray(g).dtype, w.dtype)
        close(g, w)


def test_toeplitz_and_circulant_take_batches_as_scipy():
    cs, rs = RNG.standard_normal((2, 4)), RNG.standard_normal((2, 3))
    close(fsl.toeplitz(cs, rs), np.stack([sl.toeplitz(c, r) for c, r in zip(cs, rs)]))
    close(fsl.circulant(cs), np.stack([sl.circulant(c) for c in cs]))
    with pytest.warns(FutureWarning):  # (SciPy 1.17 ravels them, and warns)
        got = fsl.hankel(cs)
    with pytest.warns(FutureWarning):
        close(got, sl.hankel(cs))


@pytest.mark.parametrize("b", [B[:, 0], B[:, :2]], ids=["1-d", "2-d"])
def test_lstsq_matches_scipy(b):
    tall = RNG.standard_normal((4, 3))
    for a, rhs in ((tall, b), (tall.T, b[:3])):
        got, want = fsl.lstsq(a, rhs), sl.lstsq(a, rhs)
        for g, w in zip(got[:2] + got[3:], want[:2] + want[3:]):
            assert np.shape(g) == np.shape(w)
            if np.size(w):  # (residues: empty for an underdetermined system)
                close(g, w)
        assert got[2] == want[2]
    check_jvp_fd(lambda m, v: fsl.lstsq(m, v)[0], [tall, b], RNG)
    check_jvp_fd(lambda m, v: fsl.lstsq(m, v)[1], [tall, b], RNG)


MORE_DERIVATIVES = [
    (fsl.cosm, (SMALL,)), (fsl.sinm, (SMALL,)), (fsl.tanm, (SMALL,)), (fsl.coshm, (SMALL,)),
    (fsl.sinhm, (SMALL,)), (fsl.tanhm, (SMALL,)),
    (lambda a, e: fsl.expm_frechet(a, e, compute_expm=False), (SMALL, E)),
    (fsl.solve_continuous_lyapunov, (SMALL - 2 * np.eye(3), E)),
    (fsl.solve_discrete_lyapunov, (SMALL, E)), (fsl.toeplitz, (C, R)), (fsl.hankel, (C, R)),
    (fsl.circulant, (C,)), (fsl.khatri_rao, (SMALL, E)),
    (lambda a: fnp.abs(fsl.eigvals(a + a.T)), (SMALL,)),
]


@pytest.mark.parametrize("f,args", MORE_DERIVATIVES, ids=range(len(MORE_DERIVATIVES)))
def test_more_linalg_derivatives_match_central_differences(f, args):
    check_jvp_fd(f, list(args), RNG)


def test_expm_frechet_is_the_derivative_of_expm_and_differentiates_again():
    t = 1e-6
    fd = (sl.expm(SMALL + t * E) - sl.expm(SMALL - t * E)) / (2 * t)
    close(fsl.expm_frechet(SMALL, E)[1], fd, 1e-8)
    check_second_order(lambda a: fsl.expm_frechet(a, E, compute_expm=False), [SMALL], RNG)


# --- signal ------------------------------------------------------------------------------------

SHAPES = [((7,), (3,)), ((3,), (7,)), ((4,), (4,)), ((5, 6), (2, 3)), ((2, 3), (5, 6)),
          ((5, 4), (5, 2)), ((4, 5, 3), (2, 2, 2))]


@pytest.mark.parametrize("s1,s2", SHAPES, ids=[str(s) for s in SHAPES])
def test_signal_matches_scipy(s1, s2):
    a, b = RNG.standard_normal(s1), RNG.standard_normal(s2)
    for mode in ("full", "same", "valid"):
        for name in ("convolve", "correlate", "fftconvolve"):
            try:
                want = getattr(ss, name)(a, b, mode)
            except ValueError:
                with pytest.raises(ValueError, match="at least as large"):
                    getattr(fss, name)(a, b, mode)
                continue
            close(getattr(fss, name)(a, b, mode), want)
    close(fss.convolve(a, b, method="fft"), ss.convolve(a, b, method="fft"))


def test_signal_complex_axes_and_derivatives():
    a = RNG.standard_normal(5) + 1j * RNG.standard_normal(5)
    b = RNG.standard_normal(3) + 1j * RNG.standard_normal(3)
    for mode in ("full", "same", "valid"):
        close(fss.correlate(a, b, mode), ss.correlate(a, b, mode))
        close(fss.correlate(b, a, mode), ss.correlate(b, a, mode))
        close(fss.fftconvolve(a, b, mode), ss.fftconvolve(a, b, mode))
    x, k = RNG.standard_normal((3, 6)), RNG.standard_normal((1, 4))
    close(fss.fftconvolve(x, k, axes=1), ss.fftconvolve(x, k, axes=1))
    x, k = RNG.standard_normal((5, 4)), RNG.standard_normal((2, 3))
    for f in (lambda x, k: fss.convolve(x, k, "same"), lambda x, k: fss.correlate(x, k),
              lambda x, k: fss.fftconvolve(x, k, "valid")):
        check_jvp_fd(f, [x, k], RNG)
    check_second_order(lambda x, k: fss.correlate(x, k, "same"), [x, k], RNG)
    xs = RNG.standard_normal((3, 5, 4))
    close(fg.vmap(lambda x: fss.convolve(x, k, "same"))(xs),
          np.stack([ss.convolve(x, k, "same") for x in xs]))
    with pytest.raises(ValueError, match="mode must be one of"):
        fss.convolve(x, k, "middle")


# --- integrate -----------------------------------------------------------------------------------

def test_trapezoid_matches_scipy():
    y, x = RNG.standard_normal((3, 5)), np.sort(RNG.uniform(0, 2, 5))
    close(fsi.trapezoid(y, x), si.trapezoid(y, x))
    close(fsi.trapezoid(y, dx=0.3, axis=0), si.trapezoid(y, dx=0.3, axis=0))


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_simpson_and_cumulative_trapezoid_match_scipy(n):
    y = RNG.standard_normal((3, n))
    x1, x2 = np.sort(RNG.uniform(0, 2, n)), np.sort(RNG.uniform(0, 2, (3, n)), axis=1)
    for kw in ({}, {"dx": 0.3}, {"x": x1}, {"x": x2}):
        close(fsi.simpson(y, **kw), si.simpson(y, **kw))
        kw_t = {k: v.T if np.ndim(v) == 2 else v for k, v in kw.items()}
        close(fsi.simpson(y.T, axis=0, **kw_t), si.simpson(y.T, axis=0, **kw_t))
        for initial in (None, 0) if n > 1 else (0,):  # (n = 1, None: empty, as SciPy)
            close(fsi.cumulative_trapezoid(y, initial=initial, **kw),
                  si.cumulative_trapezoid(y, initial=initial, **kw))
            close(fsi.cumulative_trapezoid(y.T, axis=0, initial=initial, **kw_t),
                  si.cumulative_trapezoid(y.T, axis=0, initial=initial, **kw_t))
    if n >= 3:
        check_jvp_fd(lambda a, b: fsi.simpson(a, x=b), [y[0], x1], RNG)
        check_jvp_fd(lambda a, b: fsi.cumulative_trapezoid(a, x=b), [y[0], x1], RNG)
    repeated = np.array([0.0, 0.0, 1.0, 2.5, 2.5, 4.0])[:max(n, 1)]  # SciPy's 0 / 0 -> 0
    close(fsi.simpson(y[0, :len(repeated)], x=repeated), si.simpson(y[0, :len(repeated)],
                                                                   x=repeated))
    assert np.asarray(fsi.simpson(y.astype(np.float32))).dtype == np.float32
    with pytest.raises(ValueError, match="initial must be None or 0"):
        fsi.cumulative_trapezoid(y, initial=1.0)


def _decay(y, t, a):
    return -a * y


def test_odeint_matches_scipy_and_closed_form():
    ts = np.linspace(0.0, 2.0, 5)
    ys = fsi.odeint(_decay, np.array([1.0, 2.0]), ts, 0.7)
    np.testing.assert_allclose(ys, np.exp(-0.7 * ts)[:, None] * [1.0, 2.0], rtol=1e-7)

    def pend(y, t, b, c):
        return fnp.stack([y[1], -b * y[1] - c * fnp.sin(y[0])])

    ts = np.linspace(0.0, 3.0, 7)
    got = fsi.odeint(pend, np.array([np.pi - 0.1, 0.0]), ts, 0.25, 5.0)
    want = si.odeint(lambda y, t, b, c: [y[1], -b * y[1] - c * np.sin(y[0])],
                     [np.pi - 0.1, 0.0], ts, args=(0.25, 5.0), rtol=1e-11, atol=1e-11)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)


def test_odeint_takes_scipys_args_and_tfirst_keywords():
    ts = np.linspace(0.0, 1.5, 4)
    want = si.odeint(lambda y, t, a, b: -a * y + b, [1.0, 2.0], ts, args=(0.7, 0.1),
                     rtol=1e-11, atol=1e-11)
    got = fsi.odeint(lambda y, t, a, b: -a * y + b, np.array([1.0, 2.0]), ts,
                     args=(0.7, 0.1))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    got = fsi.odeint(lambda t, y, a, b: -a * y + b, np.array([1.0, 2.0]), ts,
                     args=(0.7, 0.1), tfirst=True)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)
    # d/da of y(t) = e^{-a t} y0 (b = 0), by the adjoint, through args=
    g = fg.grad(lambda a: fsi.odeint(_decay, 1.0, ts, args=(a,))[-1])(0.7)
    np.testing.assert_allclose(g, -ts[-1] * np.exp(-0.7 * ts[-1]), rtol=1e-6)
    with pytest.raises(TypeError, match="one way"):
        fsi.odeint(_decay, 1.0, ts, 0.7, args=(0.7,))
    # y0 as SciPy's array_like: a list of numbers reaches func as an array (it was handed
    # the list: -a * y raised TypeError), integers as floats
    got = fsi.odeint(lambda y, t, a, b: -a * y + b, [1, 2], ts, args=(0.7, 0.1))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_odeint_gradient_by_the_adjoint():
    ts = np.linspace(0.0, 2.0, 3)

    def loss(y0, t, a):
        return fnp.sum(fsi.odeint(_decay, y0, t, a)[1:] ** 2)

    y0, a = np.array([1.0, 2.0]), 0.7
    g_y0, g_t, g_a = fg.grad(loss, argnums=(0, 1, 2))(y0, ts, a)
    # closed form: sum_i |y0|^2 exp(-2 a t_i)
    s = np.sum(y0 ** 2)
    np.testing.assert_allclose(g_y0, 2 * y0 * np.sum(np.exp(-2 * a * ts[1:])), rtol=1e-6)
    np.testing.assert_allclose(g_a, -2 * s * np.sum(ts[1:] * np.exp(-2 * a * ts[1:])),
                               rtol=1e-6)
    want_t = -2 * a * s * np.exp(-2 * a * ts)
    want_t[0] = -want_t[1:].sum()  # moving t0 moves the whole trajectory
    np.testing.assert_allclose(g_t, want_t, rtol=1e-6, atol=1e-8)
    # and against central differences of the solver itself
    eps = 1e-5
    fd = (loss(y0, ts, a + eps) - loss(y0, ts, a - eps)) / (2 * eps)
    np.testing.assert_allclose(g_a, fd, rtol=1e-5)
    # the backward pass is differentiable again: d2/dk2 exp(-k) = exp(-k)
    h = fg.grad(fg.grad(lambda k: fsi.odeint(_decay, 1.0, np.array([0.0, 1.0]), k)[1]))(0.5)
    np.testing.assert_allclose(h, np.exp(-0.5), rtol=1e-6)


def test_odeint_records_on_eager_tensors():
    # y' = -y^2: y(T) = y0 / (1 + T y0), dy/dy0 = 1 / (1 + T y0)^2; and y' = -a y:
    # y(T) = y0 exp(-a T), dy/da = -T y(T).  The Tensor's derivative was dropped silently.
    y0 = fg.Tensor(np.array([0.3, 0.5]), requires_grad=True)
    a = fg.Tensor(np.array([0.3, 0.5]), requires_grad=True)
    ts = np.array([0.0, 0.5])
    end = fsi.odeint(lambda y, t: -y * y, y0, ts)[-1]
    decay = fsi.odeint(lambda y, t, k: -k * y, np.array([1.0, 2.0]), ts, a)[-1]
    assert end.requires_grad and decay.requires_grad
    np.sum(end + decay).backward()
    np.testing.assert_allclose(y0.grad.numpy(), 1 / (1 + 0.5 * np.array([0.3, 0.5])) ** 2,
                               rtol=1e-6)
    np.testing.assert_allclose(a.grad.numpy(), -0.5 * np.array([1.0, 2.0]) * np.exp(
        -0.5 * np.array([0.3, 0.5])), rtol=1e-6)


def test_odeint_second_order_in_y0_t_and_args_matches_the_closed_form():
    # HIPS autograd's peer test checks the VJP of odeint's VJP against central differences
    # of the solver at its default tolerance, whose own error (about 6e-6 there) is the
    # larger one: here the reference is the closed form of y' = -a y + b, so the adjoint of
    # the adjoint (rev-over-rev, in y0, every time, a and b) is held to 1e-6
    w = np.array([[0.3, -1.2], [0.8, 0.5], [-0.4, 1.1]])

    def closed(x):
        y0, ts, a, b = x[:2], x[2:5], x[5], x[6]
        decay = np.exp(-a * (ts - ts[0]))[:, None]
        return np.sum(w * (b / a + (y0 - b / a) * decay))

    def loss(x):
        ys = fsi.odeint(lambda y, t, a, b: -a * y + b, x[:2], x[2:5], x[5], x[6])
        return fnp.sum(w * ys)

    x = np.array([1.0, -2.0, 0.1, 0.4, 0.9, 0.7, 0.3])
    h, n = 1e-4, x.size
    e = np.eye(n) * h
    want = np.array([[(closed(x + e[i] + e[j]) - closed(x + e[i] - e[j])
                       - closed(x - e[i] + e[j]) + closed(x - e[i] - e[j])) / (4 * h * h)
                      for j in range(n)] for i in range(n)])
    close(fg.jacrev(fg.grad(loss))(x), want, rtol=1e-6)


def test_odeint_vmap_pytrees_and_errors():
    ts = np.array([0.0, 1.0])
    ks = np.array([0.5, 1.0])
    np.testing.assert_allclose(fg.vmap(lambda k: fsi.odeint(_decay, 1.0, ts, k)[1])(ks),
                               np.exp(-ks), rtol=1e-7)
    g = fg.vmap(fg.grad(lambda k: fsi.odeint(_decay, 1.0, ts, k)[1]))(ks)
    np.testing.assert_allclose(g, -np.exp(-ks), rtol=1e-6)
    out = fsi.odeint(lambda y, t: {"u": -y["u"], "v": y["u"]},
                     {"u": np.ones(2), "v": np.zeros(2)}, ts)
    np.testing.assert_allclose(out["u"][1], np.exp(-1.0) * np.ones(2), rtol=1e-7)
    np.testing.assert_allclose(out["v"][1], (1 - np.exp(-1.0)) * np.ones(2), rtol=1e-7)
    with pytest.raises(ValueError, match="1-d array of times"):
        fsi.odeint(_decay, 1.0, np.ones((2, 2)), 1.0)
    with pytest.raises(TypeError, match="must be callable"):
        fsi.odeint(1.0, 1.0, ts)


@pytest.mark.parametrize("lower", [False, True])
def test_cho_factor_of_a_complex_hermitian_matrix_solves_as_scipys(lower):
    rng = np.random.default_rng(3)
    w = rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))
    h = w @ w.conj().T + np.eye(3)
    b = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    c, low = fsl.cho_factor(h, lower=lower)
    ref, _ = sl.cho_factor(h, lower=lower)
    keep = np.tril if lower else np.triu
    np.testing.assert_allclose(keep(c), keep(ref), atol=1e-13)  # the factor, L or L^H
    np.testing.assert_allclose(fsl.cho_solve((c, low), b), np.linalg.solve(h, b), rtol=1e-12)


def test_logm_of_a_real_matrix_with_a_negative_eigenvalue_takes_scipys_branch():
    # (audit: the eigenvalues came from the complex routine, which left -1.16 - 1e-17j, and
    # log took the other side of the cut: the imaginary part was -pi where SciPy's is +pi)
    a = np.array([[-0.5, 0.3, -0.3], [1.6, 1.3, 0.6], [-2.2, 0.1, 0.7]])
    same(traced(fsl.logm, a), sl.logm(a), 1e-12)
    same(traced(lambda a: fsl.funm(a, np.sqrt), a), sl.funm(a, np.sqrt), 1e-12)
    check_jvp_fd(lambda a: fnp.imag(fsl.logm(a)), [a], RNG)


def test_logm_and_funm_derivatives_at_repeated_eigenvalues_are_frechet_derivatives():
    # (audit: through eig's derivative, which leaves out the rotation inside a repeated
    # eigenvalue's eigenspace, the jvp of logm at 2 I along an off-diagonal E was 0, not E/2)
    e = RNG.standard_normal((3, 3))
    for a in (2 * np.eye(3), np.diag([2.0, 2.0, 5.0]), SPD[:3, :3] @ np.diag([1.0, 1.0, 3.0])
              @ np.linalg.inv(SPD[:3, :3])):
        close(fg.jvp(fsl.logm, (a,), (e,))[1], frechet_logm(a, e), 1e-9)
        block = np.block([[a, e], [np.zeros_like(a), a]])
        close(fg.jvp(lambda x: fsl.funm(x, np.exp), (a,), (e,))[1], sl.expm(block)[:3, 3:],
              1e-9)
    g = RNG.standard_normal((3, 3))
    close(fg.vjp(fsl.logm, 2 * np.eye(3))[1](g)[0], g / 2, 1e-12)


def test_funm_of_a_func_that_captured_a_traced_value():
    # a plain matrix: the captured value's derivative flows through func (SciPy's funm, which
    # cannot carry it, is not called: it crashed on the traced values)
    g = fg.grad(lambda x: fnp.sum(fnp.real(fsl.funm(ROT, lambda w: w * x))))(2.0)
    close(g, np.sum(ROT), 1e-12)
    # a traced matrix too (it was refused: the derivative rule saw func of the eigenvalues
    # alone; the captured value is now a parameter of the rule): funm(x A, w -> w x) = x^2 A
    g = fg.grad(lambda x: fnp.sum(fnp.real(fsl.funm(ROT * x, lambda w: w * x))))(2.0)
    close(g, 4.0 * np.sum(ROT), 1e-12)
