"""The GPU decompositions (svd, svdvals, eigh, eigvalsh, qr, pinv) equal the CPU primitives,
and derivatives through them on GPU arrays equal the CPU's; eig is refused clearly.

Singular and eigen vectors are unique only up to sign (Jacobi's signs need not be
LAPACK's), so vectors are compared by sign-invariant quantities: their entries' magnitudes
(the spectra drawn here are simple), reconstructions and orthonormality.  QR follows
LAPACK's Householder convention, so Q and R are compared as they are."""
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.gpu import IMPLS, GpuArray
from funcgrad.primitives import decompositions as dec
from funcgrad.primitives import pinv as pinvs  # (the coverage check finds pinvs.pinv_p)
from funcgrad.primitives import reductions as red  # (and red.cumprod_p)
from funcgrad.primitives import eig as eig_prim

warnings.filterwarnings("ignore", category=RuntimeWarning)

FLOATS = [np.float64, np.float32]


def gpu(x):
    return fg.device_put(x, "cuda")


def tol(dtype):
    return {"rtol": 2e-4, "atol": 2e-4} if dtype == np.float32 else {"rtol": 1e-10,
                                                                      "atol": 1e-10}


def host(got, want_dtype):
    """The GPU result on the host, having checked it is a GPU array of ``want_dtype``."""
    assert isinstance(got, GpuArray), type(got)
    out = np.asarray(got)
    assert out.dtype == want_dtype, (out.dtype, want_dtype)
    return out


def swap(x):
    return np.swapaxes(x, -1, -2)


def assert_orthonormal_columns(q, dtype):
    k = q.shape[-1]
    np.testing.assert_allclose(swap(q) @ q, np.broadcast_to(np.eye(k), q.shape[:-2] + (k, k)),
                               **tol(dtype))


def random(shape, dtype, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


# --- eigh, eigvalsh ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3), (1, 1)])
def test_eigh_equals_cpu_reading_one_triangle(shape, lower, dtype):
    a = random(shape, dtype, seed=len(shape) + lower)  # not symmetric: one triangle is read
    w_cpu, v_cpu = dec.eigh_p.impl(a, lower=lower)
    w, v = (host(x, dtype) for x in IMPLS[dec.eigh_p](gpu(a), lower=lower))
    np.testing.assert_allclose(w, w_cpu, **tol(dtype))
    assert np.all(np.diff(w, axis=-1) >= 0)  # ascending
    np.testing.assert_allclose(np.abs(v), np.abs(v_cpu), **tol(dtype))
    sym = dec._read_triangle(a, lower)
    np.testing.assert_allclose((v * w[..., None, :]) @ swap(v), sym, **tol(dtype))
    assert_orthonormal_columns(v, dtype)
    w_only = host(IMPLS[dec.eigvalsh_p](gpu(a), lower=lower), dtype)
    np.testing.assert_allclose(w_only, dec.eigvalsh_p.impl(a, lower=lower), **tol(dtype))


def test_eigh_of_repeated_and_zero_eigenvalues():
    a = np.stack([np.zeros((3, 3)), np.eye(3) * 2.0, np.diag([1.0, -1.0, 1.0])])
    w, v = (np.asarray(x) for x in IMPLS[dec.eigh_p](gpu(a), lower=True))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), atol=1e-14)
    np.testing.assert_allclose((v * w[..., None, :]) @ swap(v), a, atol=1e-14)
    assert_orthonormal_columns(v, np.float64)


# --- svd, svdvals ----------------------------------------------------------------------

SVD_SHAPES = [(4, 2), (2, 4), (3, 3), (2, 4, 2), (2, 2, 3)]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("full_matrices", [True, False])
@pytest.mark.parametrize("shape", SVD_SHAPES)
def test_svd_equals_cpu(shape, full_matrices, dtype):
    a = random(shape, dtype, seed=sum(shape))
    u_cpu, s_cpu, vh_cpu = dec.svd_p.impl(a, full_matrices=full_matrices)
    u, s, vh = (host(x, dtype) for x in IMPLS[dec.svd_p](gpu(a), full_matrices=full_matrices))
    assert (u.shape, s.shape, vh.shape) == (u_cpu.shape, s_cpu.shape, vh_cpu.shape)
    np.testing.assert_allclose(s, s_cpu, **tol(dtype))
    k = s.shape[-1]
    # the first k singular vectors (simple spectrum: unique up to sign); the rest of a full
    # U or V is any orthonormal basis of the complement
    np.testing.assert_allclose(np.abs(u[..., :k]), np.abs(u_cpu[..., :k]), **tol(dtype))
    np.testing.assert_allclose(np.abs(vh[..., :k, :]), np.abs(vh_cpu[..., :k, :]), **tol(dtype))
    np.testing.assert_allclose((u[..., :k] * s[..., None, :]) @ vh[..., :k, :], a, **tol(dtype))
    assert_orthonormal_columns(u, dtype)
    assert_orthonormal_columns(swap(vh), dtype)
    s_only = host(IMPLS[dec.svdvals_p](gpu(a)), dtype)
    np.testing.assert_allclose(s_only, dec.svdvals_p.impl(a), **tol(dtype))


@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_of_rank_deficient_matrices_completes_an_orthonormal_basis(full_matrices):
    x, y = np.array([1.0, -2.0, 0.5, 1.0]), np.array([3.0, 1.0, -1.0])
    a = np.stack([np.outer(x, y), np.zeros((4, 3))])
    u, s, vh = (np.asarray(t) for t in IMPLS[dec.svd_p](gpu(a), full_matrices=full_matrices))
    np.testing.assert_allclose(s, np.linalg.svd(a, compute_uv=False), atol=1e-13)
    assert u.shape == (2, 4, 4 if full_matrices else 3)
    assert_orthonormal_columns(u, np.float64)
    assert_orthonormal_columns(swap(vh), np.float64)
    np.testing.assert_allclose((u[..., :3] * s[..., None, :]) @ vh, a, atol=1e-13)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (2, 0, 0), (0, 2, 2)])
def test_empty_matrices_give_numpys_shapes_and_identity_blocks(shape):
    a = np.zeros(shape)
    for prim, params in [(dec.svd_p, {"full_matrices": True}),
                         (dec.svd_p, {"full_matrices": False}), (dec.svdvals_p, {}),
                         (dec.qr_p, {"complete": True}), (dec.qr_p, {"complete": False}),
                         (pinvs.pinv_p, {"rcond": 1e-15, "hermitian": False})]:
        want = prim.impl(a, **params)
        got = IMPLS[prim](gpu(a), **params)
        for g, w in zip(*((got, want) if isinstance(want, tuple) else ([got], [want]))):
            np.testing.assert_array_equal(host(g, np.float64), w)


# --- qr --------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("complete", [True, False])
@pytest.mark.parametrize("shape", [(4, 2), (2, 4), (3, 3), (2, 4, 2)])
def test_qr_equals_cpu_with_lapacks_signs(shape, complete, dtype):
    a = random(shape, dtype, seed=7 + sum(shape))
    q_cpu, r_cpu = dec.qr_p.impl(a, complete=complete)
    q, r = (host(x, dtype) for x in IMPLS[dec.qr_p](gpu(a), complete=complete))
    np.testing.assert_allclose(q, q_cpu, **tol(dtype))
    np.testing.assert_allclose(r, r_cpu, **tol(dtype))


def test_qr_keeps_the_sign_where_no_reflection_is_needed():
    # columns already zero below the diagonal: LAPACK reflects nothing, R keeps -1 and -5
    a = np.array([[-1.0, 2.0, 3.0], [0.0, -5.0, 6.0]])
    q, r = (np.asarray(x) for x in IMPLS[dec.qr_p](gpu(a), complete=False))
    q_cpu, r_cpu = np.linalg.qr(a)
    np.testing.assert_allclose(q, q_cpu, atol=1e-15)
    np.testing.assert_allclose(r, r_cpu, atol=1e-15)
    assert r[0, 0] == -1.0 and r[1, 1] == -5.0


# --- pinv ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(4, 2), (2, 3), (2, 3, 3)])
def test_pinv_equals_cpu(shape, dtype):
    a = random(shape, dtype, seed=3)
    want = pinvs.pinv_p.impl(a, rcond=1e-15, hermitian=False)
    got = host(IMPLS[pinvs.pinv_p](gpu(a), rcond=1e-15, hermitian=False), dtype)
    np.testing.assert_allclose(got, want, **tol(dtype))


def test_pinv_drops_singular_values_below_the_cutoff():
    rank1 = np.outer([1.0, 2.0, -1.0], [0.5, 1.0, 2.0])
    noisy = np.diag([4.0, 1.0, 1e-3])
    for a, rcond in [(rank1, 1e-15), (noisy, 1e-15), (noisy, 1e-2)]:
        want = np.linalg.pinv(a, rcond=rcond)
        got = np.asarray(IMPLS[pinvs.pinv_p](gpu(a), rcond=rcond, hermitian=False))
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-10)
    sym = np.array([[2.0, 1.0], [1.0, -3.0]])
    np.testing.assert_allclose(np.asarray(fnp.linalg.pinv(gpu(sym), hermitian=True)),
                               np.linalg.pinv(sym, hermitian=True), rtol=1e-10, atol=1e-12)


# --- eig -------------------------------------------------------------------------------

def test_eig_on_a_gpu_array_raises_naming_the_host_copy():
    a = gpu(np.array([[0.0, 1.0], [-1.0, 0.0]]))
    with pytest.raises(TypeError, match="device_get"):
        fnp.linalg.eig(a)
    with pytest.raises(TypeError, match="eigh"):
        fnp.linalg.eigvals(a)
    with pytest.raises(TypeError, match="no GPU kernel"):
        IMPLS[eig_prim.eig_p](gpu(np.eye(2)), complex_out=False)  # even for real spectra


# --- through the numpy front and transforms ------------------------------------------------------

A = random((2, 3, 3), np.float64, seed=11)
C = random((2, 3, 3), np.float64, seed=12)  # weights of sign-invariant functions


def eigh_loss(a, c):
    w, v = fnp.linalg.eigh(a)
    return fnp.sum(w ** 3) + fnp.sum(c * v ** 2) + fnp.sum(fnp.linalg.eigvalsh(a, UPLO="U"))


def svd_loss(a, c):
    u, s, vh = fnp.linalg.svd(a[..., :2], full_matrices=False)
    return (fnp.sum(s ** 2 * fnp.sum(c[..., :2] * u ** 2, axis=-2))
            + fnp.sum(fnp.linalg.svd(a, compute_uv=False)) + fnp.sum(c[..., :2, :2] * vh ** 2))


def qr_pinv_loss(a, c):
    q, r = fnp.linalg.qr(a)
    return fnp.sum(c * q) + fnp.sum(r[..., 0, :] ** 2) + fnp.sum(c * fnp.linalg.pinv(a))


@pytest.mark.parametrize("loss", [eigh_loss, svd_loss, qr_pinv_loss])
def test_grad_on_gpu_equals_cpu(loss):
    got = fg.grad(loss)(gpu(A), gpu(C))
    want = fg.grad(loss)(A, C)
    np.testing.assert_allclose(host(got, np.float64), want, rtol=1e-9, atol=1e-10)


def test_grad_float32_and_jvp_on_gpu_equal_cpu():
    a32, c32 = A.astype(np.float32), C.astype(np.float32)
    got = fg.grad(eigh_loss)(gpu(a32), gpu(c32))
    np.testing.assert_allclose(host(got, np.float32), fg.grad(eigh_loss)(a32, c32),
                               rtol=1e-3, atol=1e-3)
    f = lambda a: fnp.linalg.svd(a, compute_uv=False)  # noqa: E731
    primal, tangent = fg.jvp(f, (gpu(A),), (gpu(C),))
    primal_cpu, tangent_cpu = fg.jvp(f, (A,), (C,))
    np.testing.assert_allclose(np.asarray(primal), primal_cpu, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(tangent), tangent_cpu, rtol=1e-9, atol=1e-10)


def test_vmap_of_eigvalsh_on_gpu_equals_cpu():
    f = fg.vmap(lambda a: fnp.linalg.eigvalsh(a @ a.T))
    np.testing.assert_allclose(np.asarray(f(gpu(A))), f(A), rtol=1e-10, atol=1e-10)


# --- primitives run on a host copy (funcgrad.gpu.host) ----------------------------------------

def test_host_copy_primitives_equal_the_cpu_and_return_gpu_arrays():
    """tridiag.tridiagonal_solve_p, condensed.hessenberg_p and condensed.tridiagonal_p: the
    CPU's values, back on the device; derivatives of tridiagonal_solve too."""
    from funcgrad import lax
    from funcgrad.primitives import condensed, tridiagonal as tridiag
    rng = np.random.default_rng(3)
    dl, du = rng.standard_normal((2, 2, 5))
    d = rng.standard_normal((2, 5)) + 4.0
    b = rng.standard_normal((2, 5, 3))
    args = (dl, d, du, b)
    got = IMPLS[tridiag.tridiagonal_solve_p](*map(gpu, args))
    np.testing.assert_array_equal(host(got, np.float64), tridiag.tridiagonal_solve_p.impl(*args))
    f = lambda *xs: fnp.sum(fnp.sin(lax.linalg.tridiagonal_solve(*xs)))  # noqa: E731
    grads = fg.grad(f, argnums=(0, 1, 2, 3))
    for g_gpu, g_cpu in zip(grads(*map(gpu, args)), grads(*args)):
        np.testing.assert_allclose(host(g_gpu, np.float64), g_cpu, rtol=1e-12)
    a = rng.standard_normal((2, 4, 4))
    for prim, params in [(condensed.hessenberg_p, {}), (condensed.tridiagonal_p,
                                                        {"lower": True})]:
        want = prim.impl(a + np.swapaxes(a, -1, -2), **params)
        got = IMPLS[prim](gpu(a + np.swapaxes(a, -1, -2)), **params)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(host(g, w.dtype), w)


def test_cumprod_on_gpu_is_numpys_sequential_product_overflow_included():
    # a parallel scan would give (1e200 * 1e200) * (1e-200 * 1e-200) = inf * 0 = NaN last
    x = np.array([[1e200, 1e200, 1e-200, 1e-200], [2.0, 0.0, 3.0, -1.5]])
    np.testing.assert_array_equal(host(fnp.cumprod(gpu(x), axis=1), np.float64),
                                  np.cumprod(x, axis=1))
    np.testing.assert_array_equal(host(IMPLS[red.cumprod_p](gpu(x), axis=1), np.float64),
                                  np.cumprod(x, axis=1))  # (the table's entry itself)
    f = fg.grad(lambda a: fnp.sum(fnp.sin(fnp.cumprod(a, axis=1))))
    np.testing.assert_allclose(host(f(gpu(x[1:])), np.float64), f(x[1:]), rtol=1e-12)
