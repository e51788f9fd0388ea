"""``fg.linalg``, ``fg.special`` and ``fg.fft``: PyTorch's ``torch.linalg``,
``torch.special`` and ``torch.fft`` on Tensors, with PyTorch's signatures, Tensors out
and gradients.  Values are worked out by hand, gradients checked against finite
differences (``fg.gradcheck``); the last tests, where torch is installed, run the same
calls through torch and compare values and gradients."""
import numpy as np
import pytest

import funcgrad as fg

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 3))
SPD = A @ A.T + 3 * np.eye(3)
B = RNG.standard_normal((3, 2))
WIDE = RNG.standard_normal((4, 6))
P = RNG.uniform(0.1, 0.9, 5)


def _t(a, requires_grad=False):
    return fg.tensor(a, dtype=fg.float64, requires_grad=requires_grad)


# --- values PyTorch documents, by hand ---------------------------------------------------------

def test_linalg_norm_picks_vector_or_matrix_norms_as_pytorch():
    M = _t([[1.0, 2.0], [2.0, 1.0]])
    assert float(fg.linalg.norm(M)) == pytest.approx(np.sqrt(10))       # flattened 2-norm
    assert float(fg.linalg.norm(M, ord=2)) == pytest.approx(3.0)         # spectral (2-D, ord)
    assert float(fg.linalg.norm(M, ord="nuc")) == pytest.approx(4.0)     # |3| + |-1|
    assert fg.linalg.norm(M, dim=1).tolist() == pytest.approx([np.sqrt(5)] * 2)
    assert fg.linalg.norm(M, 1, dim=(0, 1), keepdim=True).shape == (1, 1)
    with pytest.raises(RuntimeError, match="must be 1D or 2D"):
        fg.linalg.norm(fg.ones(2, 2, 2), ord=2)
    assert float(fg.linalg.vector_norm(_t([3.0, -4.0]), ord=float("inf"))) == 4.0
    assert float(fg.linalg.vector_norm(_t([3.0, 0.0, -4.0]), ord=0)) == 2.0
    assert float(fg.linalg.matrix_norm(_t([[1.0, -2.0], [3.0, 4.0]]), ord=1)) == 6.0


def test_linalg_results_are_named_tuples_with_pytorch_fields():
    M = _t([[0.0, 2.0], [1.0, 0.0]])
    sign, logabsdet = fg.linalg.slogdet(M)
    assert float(sign) == -1.0 and float(logabsdet) == pytest.approx(np.log(2))
    assert fg.linalg.eigh(_t([[2.0, 1.0], [1.0, 2.0]])).eigenvalues.tolist() == \
        pytest.approx([1.0, 3.0])
    assert fg.linalg.svd(_t([[3.0, 0.0], [0.0, -2.0]])).S.tolist() == pytest.approx([3, 2])
    Q, R = fg.linalg.qr(_t(WIDE.T))
    np.testing.assert_allclose(np.asarray(Q @ R), WIDE.T, atol=1e-12)
    assert fg.linalg.inv_ex(M).info.tolist() == 0
    assert fg.linalg.cholesky_ex(_t(SPD)).L.shape == (3, 3)


def test_linalg_solve_vector_and_left_false():
    M = _t([[2.0, 0.0], [0.0, 4.0]])
    assert fg.linalg.solve(M, _t([2.0, 2.0])).tolist() == [1.0, 0.5]  # a vector right side
    assert fg.linalg.solve(M, _t([[2.0, 4.0]]), left=False).tolist() == [[1.0, 1.0]]  # X @ M
    # a batch of vectors: B.shape == A.shape[:-1]
    Ms = fg.stack([M, 2 * M])
    assert fg.linalg.solve(Ms, _t([[2.0, 2.0], [2.0, 2.0]])).tolist() == [[1, 0.5], [0.5, 0.25]]


def test_linalg_solve_triangular_reads_one_triangle():
    M = _t([[2.0, 7.0], [1.0, 4.0]], requires_grad=True)
    X = fg.linalg.solve_triangular(M, _t([[2.0], [6.0]]), upper=False)
    assert X.tolist() == [[1.0], [1.25]]  # 2x = 2; x + 4y = 6
    X.sum().backward()
    assert M.grad[0, 1].item() == 0.0  # the upper element is never read
    unit = fg.linalg.solve_triangular(M, _t([[2.0], [6.0]]), upper=True, unitriangular=True)
    assert unit.tolist() == [[2.0 - 7.0 * 6.0], [6.0]]


def test_linalg_eigh_gradient_is_pytorch_symmetric_one():
    # d(sum of eigenvalues) = d(trace): the identity, whichever triangle is read
    # (NumPy's and JAX's eigh put the off-diagonal gradient on the read triangle only)
    M = _t([[2.0, 5.0], [1.0, 3.0]], requires_grad=True)
    fg.linalg.eigh(M).eigenvalues.sum().backward()
    np.testing.assert_allclose(np.asarray(M.grad), np.eye(2), atol=1e-12)
    # the value reads the lower triangle: [[2, 1], [1, 3]]
    assert fg.linalg.eigvalsh(M.detach()).tolist() == \
        pytest.approx(list(np.linalg.eigvalsh([[2.0, 1.0], [1.0, 3.0]])))
    assert fg.linalg.eigvalsh(M.detach(), UPLO="U").tolist() == \
        pytest.approx(list(np.linalg.eigvalsh([[2.0, 5.0], [5.0, 3.0]])))


def test_linalg_small_functions():
    assert fg.linalg.matrix_rank(_t([[1.0, 2.0], [2.0, 4.0]])).tolist() == 1
    assert fg.linalg.vander(_t([2.0, 3.0]), N=3).tolist() == [[1, 2, 4], [1, 3, 9]]
    assert fg.linalg.cross(_t([1.0, 0.0, 0.0]), _t([0.0, 1.0, 0.0])).tolist() == [0, 0, 1]
    assert fg.linalg.vecdot(_t([[1.0, 2.0]]), _t([3.0, 4.0])).tolist() == [11.0]
    assert fg.linalg.multi_dot([_t([1.0, 2.0]), fg.eye(2, dtype=fg.float64),
                                _t([3.0, 4.0])]).tolist() == 11.0
    assert fg.linalg.diagonal(_t([[1.0, 2.0], [3.0, 4.0]]), offset=1).tolist() == [2.0]
    assert float(fg.linalg.cond(_t([[2.0, 0.0], [0.0, 0.5]]))) == pytest.approx(4.0)
    with pytest.raises(TypeError, match="must be Tensor"):
        fg.linalg.det([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(RuntimeError, match="square"):
        fg.linalg.inv(fg.ones(2, 3))


def test_linalg_lu_family():
    close = np.testing.assert_allclose
    M = _t([[1.0, 2.0], [3.0, 4.0]])
    P, L, U = fg.linalg.lu(M)
    # the pivot swaps the rows: [3, 4] first, then [1, 2] - (1/3)[3, 4] = [0, 2/3]
    assert P.tolist() == [[0, 1], [1, 0]]
    close(np.asarray(L), [[1, 0], [1 / 3, 1]], rtol=1e-15)
    close(np.asarray(U), [[3, 4], [0, 2 / 3]], rtol=1e-15)
    LU, pivots = fg.linalg.lu_factor(M)
    assert pivots.tolist() == [2, 2] and pivots.dtype == fg.int32  # 1-based, as LAPACK's
    close(np.asarray(fg.linalg.lu_solve(LU, pivots, _t([[5.0], [11.0]]))), [[1], [2]])
    # adjoint: M^T x = [7, 10] has x = [1, 2]; left=False: x M = [7, 10] has x = [1, 2]
    close(np.asarray(fg.linalg.lu_solve(LU, pivots, _t([[7.0], [10.0]]), adjoint=True)),
          [[1], [2]])
    close(np.asarray(fg.linalg.lu_solve(LU, pivots, _t([[7.0, 10.0]]), left=False)), [[1, 2]])
    assert fg.linalg.lu_factor(fg.stack([M, M])).pivots.shape == (2, 2)


def test_special_names_and_signatures():
    x = _t([0.5, 2.0])
    np.testing.assert_allclose(np.asarray(fg.special.expit(x)), 1 / (1 + np.exp([-0.5, -2])))
    assert fg.special.logsumexp(_t([0.0, 0.0]), 0).item() == pytest.approx(np.log(2))
    assert fg.special.softmax(_t([0.0, 0.0]), 0).tolist() == [0.5, 0.5]
    assert fg.special.logit(_t([0.5, 0.1]), eps=0.2).tolist() == pytest.approx([0.0, np.log(0.25)])
    assert fg.special.polygamma(1, _t([1.0])).tolist() == pytest.approx([np.pi ** 2 / 6])
    assert fg.special.zeta(_t([2.0]), _t([1.0])).tolist() == pytest.approx([np.pi ** 2 / 6])
    assert fg.special.spherical_bessel_j0(_t([0.0, np.pi])).tolist() == pytest.approx([1, 0])
    assert fg.special.psi(_t([1.0])).tolist() == pytest.approx([-0.5772156649015329])
    # an integer Tensor is first made one of the default dtype, as PyTorch does
    assert fg.special.expit(fg.tensor([0, 1])).dtype == fg.float32


def test_special_xlog1py_keeps_pytorch_gradient_at_zero():
    x = _t([0.0, 0.0, 2.0, 3.0], requires_grad=True)
    y = _t([1.0, -2.0, 0.5, 1e-10], requires_grad=True)
    out = fg.special.xlog1py(x, y)
    # 0 where x == 0 (even at y = -2, where log1p is NaN); log1p's digits near y = 0
    assert out.tolist() == pytest.approx([0.0, 0.0, 2 * np.log1p(0.5), 3e-10], rel=1e-15)
    out.sum().backward()
    # d/dx = log1p(y), except 0 where x == 0 and y <= -1; d/dy = x / (1 + y)
    assert x.grad.tolist() == pytest.approx([np.log(2), 0.0, np.log1p(0.5), np.log1p(1e-10)])
    assert y.grad.tolist() == pytest.approx([0.0, 0.0, 2 / 1.5, 3 / (1 + 1e-10)])


def test_fft_signatures_and_dtypes():
    x = fg.tensor([1.0, 2.0, 3.0, 4.0])  # float32
    out = fg.fft.fft(x)
    assert out.dtype == fg.complex64
    assert out.tolist() == [10, -2 + 2j, -2, -2 - 2j]
    assert fg.fft.rfft(x, n=2).tolist() == [3, -1]
    assert fg.fft.fft(x, norm="ortho").tolist() == pytest.approx([5, -1 + 1j, -1, -1 - 1j])
    M = fg.ones(2, 3)
    assert fg.fft.fft2(M).tolist() == [[6, 0, 0], [0, 0, 0]]
    assert fg.fft.fftn(M, s=(4,)).shape == (2, 4)  # s alone: the last len(s) dimensions
    assert fg.fft.fftn(M, dim=0).tolist() == [[2, 2, 2], [0, 0, 0]]
    assert fg.fft.fftfreq(4).tolist() == [0.0, 0.25, -0.5, -0.25]
    assert fg.fft.fftfreq(4).dtype == fg.float32
    assert fg.fft.fftshift(fg.fft.fftfreq(4)).tolist() == [-0.5, -0.25, 0.0, 0.25]
    assert fg.fft.fft(fg.tensor([1, 2])).dtype == fg.complex64  # integers: default dtype
    with pytest.raises(ValueError, match="normalization"):
        fg.fft.fft(x, norm="bad")


def test_fft_hermitian_transforms_invert_each_other():
    x = _t(RNG.standard_normal((4, 6)))
    np.testing.assert_allclose(np.asarray(fg.fft.hfftn(fg.fft.ihfftn(x), s=(4, 6))),
                               np.asarray(x), atol=1e-12)
    np.testing.assert_allclose(np.asarray(fg.fft.hfft2(fg.fft.ihfft2(x), s=(4, 6))),
                               np.asarray(x), atol=1e-12)


# --- gradients against finite differences ----------------------------------------------------

GRADIENTS = {
    "norm": (lambda a: fg.linalg.norm(a, 3, dim=1), [A]),
    "matrix_norm_nuc": (lambda a: fg.linalg.matrix_norm(a, "nuc"), [A]),
    "det": (fg.linalg.det, [A]),
    "slogdet": (lambda a: fg.linalg.slogdet(a).logabsdet, [A]),
    "inv": (fg.linalg.inv, [A]),
    "pinv": (fg.linalg.pinv, [WIDE]),
    "pinv_rtol": (lambda a: fg.linalg.pinv(a, rtol=0.3), [WIDE]),
    "solve": (fg.linalg.solve, [A, B]),
    "solve_left_false": (lambda a, b: fg.linalg.solve(a, b, left=False), [A, B.T]),
    "solve_triangular": (lambda a, b: fg.linalg.solve_triangular(a, b, upper=True),
                         [A + 3 * np.eye(3), B]),
    "cholesky": (lambda a: fg.linalg.cholesky((a + a.mT) / 2), [SPD]),
    "qr_R": (lambda a: fg.linalg.qr(a).R, [WIDE.T]),
    "svdvals": (fg.linalg.svdvals, [WIDE]),
    "matrix_power": (lambda a: fg.linalg.matrix_power(a, -2), [A]),
    "matrix_exp": (fg.linalg.matrix_exp, [A]),
    "lstsq": (lambda a, b: fg.linalg.lstsq(a, b).solution, [WIDE.T, RNG.standard_normal((6, 2))]),
    "vander": (lambda a: fg.linalg.vander(a, N=3), [P]),
    "lu_U": (lambda a: fg.linalg.lu(a).U, [A]),
    "lu_factor": (lambda a: fg.linalg.lu_factor(a).LU, [A]),
    "lu_solve": (lambda a, b: fg.linalg.lu_solve(*fg.linalg.lu_factor(a), b, adjoint=True),
                 [A, B]),
    "xlogy": (fg.special.xlogy, [P, P + 1]),
    "xlog1py": (fg.special.xlog1py, [P, P]),
    "erfcx": (fg.special.erfcx, [P]),
    "log_ndtr": (fg.special.log_ndtr, [P]),
    "multigammaln": (lambda a: fg.special.multigammaln(a + 3, 3), [P]),
    "logsumexp": (lambda a: fg.special.logsumexp(a, 1), [A]),
    "fft_ortho_n": (lambda a: fg.fft.fft(a, n=8, norm="ortho"), [P]),
    "rfft2": (lambda a: fg.fft.rfft2(a, s=(4, 4), dim=(1, 0)), [WIDE]),
    "irfftn": (lambda a: fg.fft.irfftn(a * (1 - 0.3j), norm="forward"), [WIDE]),
    "hfft2": (lambda a: fg.fft.hfft2(a * (1 + 0.5j)), [WIDE]),
    "ihfftn": (fg.fft.ihfftn, [WIDE]),
}


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_agree_with_finite_differences(name):
    f, arrays = GRADIENTS[name]
    inputs = tuple(_t(a, requires_grad=True) for a in arrays)
    assert fg.gradcheck(f, inputs)


# --- side by side with PyTorch -----------------------------------------------------------------

SIDE_BY_SIDE = {
    "linalg.norm": (lambda T, a: T.linalg.norm(a), [A]),
    "linalg.norm_ord2": (lambda T, a: T.linalg.norm(a, ord=2), [A]),
    "linalg.matrix_norm_batched": (lambda T, a: T.linalg.matrix_norm(a.reshape(1, 3, 3), -2),
                                   [A]),
    "linalg.vector_norm": (lambda T, a: T.linalg.vector_norm(a, 0.5, dim=(0, 1)), [A]),
    "linalg.eigh": (lambda T, a: T.linalg.eigh(a).eigenvectors ** 2, [SPD]),
    "linalg.eigh_U": (lambda T, a: T.linalg.eigh(a, UPLO="U").eigenvalues, [SPD]),
    "linalg.eigvalsh": (lambda T, a: T.linalg.eigvalsh(a), [SPD]),
    "linalg.pinv_hermitian": (lambda T, a: T.linalg.pinv(a, hermitian=True), [SPD]),
    "linalg.svd": (lambda T, a: (lambda r: r.U[:, :1] * r.Vh[:1, :])(
        T.linalg.svd(a, full_matrices=False)), [WIDE]),
    "linalg.solve_batch_vector": (lambda T, a, b: T.linalg.solve(a, b),
                                  [np.stack([A, SPD]), RNG.standard_normal((2, 3))]),
    "linalg.solve_triangular_unit": (lambda T, a, b: T.linalg.solve_triangular(
        a, b, upper=False, left=False, unitriangular=True), [A, B.T]),
    "linalg.cholesky_upper": (lambda T, a: T.linalg.cholesky(a, upper=True), [SPD]),
    "linalg.qr": (lambda T, a: T.linalg.qr(a).R, [WIDE.T]),
    "linalg.lu_factor": (lambda T, a: T.linalg.lu_factor(a).LU, [A]),
    "linalg.lu_solve": (lambda T, a, b: T.linalg.lu_solve(*T.linalg.lu_factor(a), b,
                                                           left=False), [A, B.T]),
    "special.xlog1py": (lambda T, a, b: T.special.xlog1py(a, b),
                        [np.array([0.0, 0, 1, 2, 0]), np.array([-1.0, 1, 2, 0.5, -2])]),
    "special.logit_eps": (lambda T, a: T.special.logit(a, eps=0.2), [P]),
    "special.log_softmax": (lambda T, a: T.special.log_softmax(a, -1), [A]),
    "special.i1e": (lambda T, a: T.special.i1e(a), [P]),
    "special.ndtri": (lambda T, a: T.special.ndtri(a), [P]),
    "fft.ihfft": (lambda T, a: T.fft.ihfft(a, n=8, norm="ortho"), [P]),
    "fft.hfftn": (lambda T, a: T.fft.hfftn(a * (1 - 0.3j), s=(4, 5), norm="forward"), [WIDE]),
    "fft.ihfft2": (lambda T, a: T.fft.ihfft2(a, s=(4, 4), dim=(1, 0)), [WIDE]),
    "fft.ifftshift": (lambda T, a: T.fft.ifftshift(a, dim=1), [WIDE]),
}


def _real_loss(out, T):
    w = T.tensor(np.cos(np.arange(out.numel())).reshape(tuple(out.shape)))
    if out.is_complex():
        return (out.real * w).sum() + (out.imag * w * 0.5).sum()
    return (out * w).sum()


@pytest.mark.parametrize("name", sorted(SIDE_BY_SIDE))
def test_side_by_side_with_torch(name):
    torch = pytest.importorskip("torch")
    f, arrays = SIDE_BY_SIDE[name]
    got = []
    for T in (fg, torch):
        inputs = [T.tensor(a, dtype=T.float64, requires_grad=True) for a in arrays]
        out = f(T, *inputs)
        grads = T.autograd.grad(_real_loss(out, T), inputs)
        got.append([np.asarray(out.detach().resolve_conj().numpy() if T is torch
                               else out.detach())] +
                   [np.asarray(g.detach().numpy() if T is torch else g) for g in grads])
    for ours, theirs in zip(*got):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-9)
