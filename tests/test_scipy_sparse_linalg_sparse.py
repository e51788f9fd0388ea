"""funcgrad.scipy.sparse.linalg on sparse arrays without densifying (session 24, branch
sparserest): splu/spilu (SciPy's SuperLU wrapped, solve differentiable), against
scipy.sparse.linalg; derivatives against central differences of SciPy's values."""
import numpy as np
import pytest

sl = pytest.importorskip("scipy.sparse.linalg")
import scipy.sparse as sp  # noqa: E402

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.sparse as fsparse  # noqa: E402
import funcgrad.scipy.sparse.linalg as fsl  # noqa: E402
from funcgrad.errors import ConcretizationError  # noqa: E402
from funcgrad.scipy.sparse._arrays_ops import SparseOps  # noqa: E402

RNG = np.random.default_rng(24)
N = 6
S = (sp.random(N, N, density=0.4, random_state=1, format="csc")
     + 3.0 * sp.eye(N, format="csc")).tocsc()
S.sort_indices()
EPS = 1e-6


def csc(data, like=S):
    """funcgrad's CSC array with ``like``'s structure and the values ``data``."""
    return fsparse.csc_array((data, like.indices, like.indptr), shape=like.shape)


def scipy_csc(data, like=S):
    return sp.csc_array((data, like.indices, like.indptr), shape=like.shape)


def check_derivatives(ours, scipys, args, rtol=1e-6):
    """``ours``' JVP along a random direction against central differences of ``scipys``,
    and its VJP by the dot-product test."""
    directions = [RNG.standard_normal(np.shape(a)) for a in args]
    plus = scipys(*[a + EPS * d for a, d in zip(args, directions)])
    minus = scipys(*[a - EPS * d for a, d in zip(args, directions)])
    want = (plus - minus) / (2 * EPS)
    scale = max(1.0, np.abs(want).max())
    _, tangent = fg.jvp(ours, tuple(args), tuple(directions))
    np.testing.assert_allclose(tangent, want, rtol=rtol, atol=rtol * scale)
    out, pullback = fg.vjp(ours, *args)
    weights = RNG.standard_normal(np.shape(out))
    got = sum(np.sum(g * d) for g, d in zip(pullback(weights), directions))
    np.testing.assert_allclose(got, np.sum(weights * want), rtol=rtol, atol=rtol * scale)


@pytest.fixture
def no_densifying(monkeypatch):
    """Makes densifying one of funcgrad's sparse arrays an error (the old routes did)."""
    def refuse(self, *args, **kwargs):
        raise AssertionError("densified a sparse array")
    monkeypatch.setattr(SparseOps, "toarray", refuse)
    monkeypatch.setattr(SparseOps, "todense", refuse)


# --- splu / spilu --------------------------------------------------------------------------

@pytest.mark.parametrize("trans", ["N", "T"])
def test_splu_is_scipys_and_its_solve_differentiates_in_data_and_rhs(trans):
    lu, want = fsl.splu(csc(S.data)), sl.splu(S)
    assert isinstance(lu, fsl.SuperLU) and lu.shape == want.shape and lu.nnz == want.nnz
    np.testing.assert_array_equal(lu.perm_r, want.perm_r)
    np.testing.assert_array_equal(lu.perm_c, want.perm_c)
    assert lu.L.format == "csc" and lu.U.format == "csc"
    np.testing.assert_array_equal(lu.L.toarray(), want.L.toarray())
    np.testing.assert_array_equal(lu.U.toarray(), want.U.toarray())
    b = RNG.standard_normal((N, 2))
    np.testing.assert_allclose(lu.solve(b, trans=trans), want.solve(b, trans=trans),
                               rtol=1e-13, atol=1e-13)
    check_derivatives(lambda d, b: fsl.splu(csc(d)).solve(b, trans=trans),
                      lambda d, b: sl.splu(scipy_csc(d)).solve(b, trans=trans),
                      [S.data, b[:, 0]])


def test_splu_complex_hermitian_solve_float32_jit_and_vmap():
    C = (S + 1j * sp.random(N, N, density=0.3, random_state=2, format="csc")).tocsc()
    C.sort_indices()
    b = RNG.standard_normal(N) + 0j
    np.testing.assert_allclose(fsl.splu(C).solve(b, trans="H"), sl.splu(C).solve(b, trans="H"),
                               rtol=1e-13, atol=1e-13)
    # (complex data: a real-linear JVP along a complex direction, against central differences)
    d = RNG.standard_normal(C.nnz) + 1j * RNG.standard_normal(C.nnz)
    _, tangent = fg.jvp(lambda x: fsl.splu(csc(x, C)).solve(b, trans="H"), (C.data,), (d,))
    want = (sl.splu(scipy_csc(C.data + EPS * d, C)).solve(b, trans="H")
            - sl.splu(scipy_csc(C.data - EPS * d, C)).solve(b, trans="H")) / (2 * EPS)
    np.testing.assert_allclose(tangent, want, rtol=1e-6, atol=1e-6)
    lu32 = fsl.splu(csc(S.data.astype(np.float32)))
    x32 = lu32.solve(np.ones(N, np.float32))
    assert x32.dtype == np.float32
    np.testing.assert_allclose(x32, sl.splu(S.astype(np.float32)).solve(np.ones(N, np.float32)),
                               rtol=1e-6)
    lu, B = fsl.splu(S), RNG.standard_normal((3, N))
    np.testing.assert_allclose(fg.jit(lu.solve)(B[0]), sl.splu(S).solve(B[0]), rtol=1e-13)
    np.testing.assert_allclose(fg.vmap(lu.solve)(B), sl.splu(S).solve(B.T).T, rtol=1e-13)


def test_spilu_is_scipys_preconditioner_differentiable_in_rhs():
    ilu, want = fsl.spilu(csc(S.data), drop_tol=0.1), sl.spilu(S, drop_tol=0.1)
    assert ilu.nnz == want.nnz
    np.testing.assert_array_equal(ilu.perm_r, want.perm_r)
    np.testing.assert_array_equal(ilu.L.toarray(), want.L.toarray())
    b = RNG.standard_normal(N)
    np.testing.assert_allclose(ilu.solve(b), want.solve(b), rtol=1e-13, atol=1e-13)
    # the solve is linear in b: its Jacobian is SciPy's M^-1 (both modes)
    inverse = want.solve(np.eye(N))
    np.testing.assert_allclose(fg.jacrev(ilu.solve)(b), inverse, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(fg.jacfwd(lambda b: ilu.solve(b, trans="T"))(b), inverse.T,
                               rtol=1e-12, atol=1e-12)
    # a preconditioner for gmres, A's values without derivative
    x, info = fsl.gmres(csc(S.data), b, M=fsl.LinearOperator((N, N), ilu.solve), rtol=1e-12)
    assert info == 0
    np.testing.assert_allclose(x, sl.spsolve(S, b), rtol=1e-9, atol=1e-9)


def test_splu_and_spilu_errors_name_the_problem():
    b = np.ones(N)
    with pytest.raises(NotImplementedError, match="dropping rules"):
        fg.grad(lambda d: fsl.spilu(csc(d)).solve(b)[0])(S.data)
    with pytest.raises(NotImplementedError, match="without derivatives"):
        fg.grad(lambda d: fsl.splu(csc(d)).L.data.sum())(S.data)
    with pytest.raises(ConcretizationError, match="spsolve"):
        fg.jit(lambda d: fsl.splu(csc(d)).solve(b))(S.data)
    with pytest.raises(TypeError, match="cannot be cast safely"):
        fsl.splu(csc(S.data.astype(np.float32))).solve(b)
    with pytest.raises(ValueError, match="square"):
        fsl.splu(fsparse.csc_array(np.ones((2, 3))))
    with pytest.raises(ValueError, match=r"shape \(6,\)"):
        fsl.splu(S).solve(np.ones(4))
    with pytest.raises(ValueError, match="trans"):
        fsl.splu(S).solve(b, trans="X")
    with pytest.raises(RuntimeError, match="singular"):  # (SciPy's own error)
        fsl.splu(fsparse.csc_array(np.ones((2, 2))))


# --- eigsh with M, sigma and 'BE' ----------------------------------------------------------

NE = 30
STIFF = sp.diags([np.arange(1.0, NE + 1), -0.3 * np.ones(NE - 1), -0.3 * np.ones(NE - 1)],
                 [0, -1, 1], format="csr")
MASS = sp.diags([2.0 + np.linspace(0.0, 1.0, NE), 0.2 * np.ones(NE - 1),
                 0.2 * np.ones(NE - 1)], [0, -1, 1], format="csr")
START = np.random.default_rng(5).standard_normal(NE)


def csr(data, like):
    return fsparse.csr_array((data, like.indices, like.indptr), shape=like.shape)


def symmetric_direction(like):
    d = sp.csr_array((RNG.standard_normal(like.nnz), like.indices, like.indptr), like.shape)
    d = ((d + d.T) * 0.5).tocsr()
    d.sort_indices()
    return d.data


@pytest.mark.parametrize("options", [{"sigma": 2.2}, {"which": "BE"},
                                     {"mass": True, "which": "LA"},
                                     {"mass": True, "sigma": 0.5}])
def test_sparse_eigsh_with_mass_shift_invert_and_both_ends(options, no_densifying):
    options = dict(options)
    mass = options.pop("mass", False)

    def ours(a, m):
        return fsl.eigsh(csr(a, STIFF), k=2, M=csr(m, MASS) if mass else None, v0=START,
                         **options)

    def scipys(a, m):
        return sl.eigsh(sp.csr_array((a, STIFF.indices, STIFF.indptr), STIFF.shape), k=2,
                        M=sp.csr_array((m, MASS.indices, MASS.indptr), MASS.shape)
                        if mass else None, v0=START, **options)
    args = (STIFF.data, MASS.data)
    (w, v), (want_w, want_v) = ours(*args), scipys(*args)
    np.testing.assert_allclose(w, want_w, rtol=1e-12)
    np.testing.assert_allclose(v, want_v, rtol=1e-9, atol=1e-9)  # (signs: the same start)
    directions = (symmetric_direction(STIFF), 0.1 * symmetric_direction(MASS))
    (wp, vp), (wm, vm) = (scipys(*[x + s * EPS * d for x, d in zip(args, directions)])
                          for s in (1, -1))
    _, (dw, dv) = fg.jvp(ours, args, directions)
    np.testing.assert_allclose(dw, (wp - wm) / (2 * EPS), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(dv, (vp - vm) / (2 * EPS), rtol=1e-5, atol=1e-6)
    grads = fg.grad(lambda a, m: ours(a, m)[0][1], argnums=(0, 1))(*args)
    np.testing.assert_allclose(sum(np.sum(g * d) for g, d in zip(grads, directions)),
                               (wp - wm)[1] / (2 * EPS), rtol=1e-6)
    w32 = ours(STIFF.data.astype(np.float32), MASS.data.astype(np.float32))[0]
    assert w32.dtype == np.float32
    np.testing.assert_allclose(w32, want_w, rtol=1e-5)


@pytest.mark.parametrize("shape", [(12, 8), (8, 12)])
def test_sparse_svds_smallest(shape, no_densifying):
    X = (sp.random(*shape, density=0.4, random_state=3, format="csr")
         + sp.eye(*shape, format="csr")).tocsr()
    X.sort_indices()

    def ours(x):
        return fsl.svds(csr(x, X), k=3, which="SM")

    def scipys(x):
        return sl.svds(sp.csr_array((x, X.indices, X.indptr), X.shape), k=3, which="SM",
                       rng=0)
    (u, s, vh), (want_u, want_s, want_vh) = ours(X.data), scipys(X.data)
    np.testing.assert_allclose(s, want_s, rtol=1e-12)
    np.testing.assert_allclose((u * s) @ vh, (want_u * want_s) @ want_vh, atol=1e-12)
    np.testing.assert_allclose(u.T @ u, np.eye(3), atol=1e-12)
    # the singular values, and the projector u u^T (free of the vectors' signs)
    d = RNG.standard_normal(X.nnz)
    for pick in (lambda r: r[1], lambda r: r[0] @ r[0].T):
        want = (pick(scipys(X.data + EPS * d)) - pick(scipys(X.data - EPS * d))) / (2 * EPS)
        _, tangent = fg.jvp(lambda x: pick(ours(x)), (X.data,), (d,))
        np.testing.assert_allclose(tangent, want, rtol=1e-6, atol=1e-6)
    grad = fg.grad(lambda x: ours(x)[1][0])(X.data)
    np.testing.assert_allclose(np.sum(grad * d), (scipys(X.data + EPS * d)[1][0]
                               - scipys(X.data - EPS * d)[1][0]) / (2 * EPS), rtol=1e-6)


# --- eigs ----------------------------------------------------------------------------------

NG = 20
REAL_SPECTRUM = (sp.random(NG, NG, density=0.25, random_state=4, format="csr")
                 + sp.diags(np.arange(1.0, NG + 1))).tocsr()
COMPLEX_PAIRS = (sp.random(NG, NG, density=0.3, random_state=7, format="csr")
                 - sp.random(NG, NG, density=0.2, random_state=8, format="csr")).tocsr()
for _m in (REAL_SPECTRUM, COMPLEX_PAIRS):
    _m.sort_indices()


@pytest.mark.parametrize("matrix, options", [(REAL_SPECTRUM, {"which": "LR"}),
                                             (REAL_SPECTRUM, {"sigma": 3.1}),
                                             (COMPLEX_PAIRS, {"which": "LM"})])
def test_sparse_eigs_values_vectors_and_derivatives(matrix, options, no_densifying):
    start = np.random.default_rng(6).standard_normal(NG)

    def ours(x):
        return fsl.eigs(csr(x, matrix), k=3, v0=start, **options)

    def scipys(x):
        return sl.eigs(sp.csr_array((x, matrix.indices, matrix.indptr), matrix.shape), k=3,
                       v0=start, **options)
    (w, v), (want_w, want_v) = ours(matrix.data), scipys(matrix.data)
    np.testing.assert_allclose(w, want_w, rtol=1e-12)
    np.testing.assert_allclose(v, want_v, rtol=1e-9, atol=1e-9)
    d = RNG.standard_normal(matrix.nnz)
    (wp, vp), (wm, vm) = scipys(matrix.data + EPS * d), scipys(matrix.data - EPS * d)
    _, (dw, dv) = fg.jvp(ours, (matrix.data,), (d,))
    np.testing.assert_allclose(dw, (wp - wm) / (2 * EPS), rtol=1e-6, atol=1e-7)
    if not np.iscomplex(w).any():  # (real vectors: SciPy's derivative)
        np.testing.assert_allclose(dv, (vp - vm) / (2 * EPS), rtol=1e-5, atol=1e-6)
    # the phase-free |v|^2, and reverse mode on the imaginary part of an eigenvalue
    _, d_abs = fg.jvp(lambda x: np.abs(ours(x)[1]) ** 2, (matrix.data,), (d,))
    np.testing.assert_allclose(d_abs, (np.abs(vp) ** 2 - np.abs(vm) ** 2) / (2 * EPS),
                               rtol=1e-5, atol=1e-6)
    grad = fg.grad(lambda x: np.imag(ours(x)[0][0]) + np.real(ours(x)[0][1]))(matrix.data)
    np.testing.assert_allclose(np.sum(grad * d), np.imag(wp - wm)[0] / (2 * EPS)
                               + np.real(wp - wm)[1] / (2 * EPS), rtol=1e-6, atol=1e-7)


def test_sparse_eigs_second_derivative_and_complex_data():
    data = COMPLEX_PAIRS.data
    d = RNG.standard_normal(data.size)

    def first(x):
        return np.real(fsl.eigs(csr(x, COMPLEX_PAIRS), k=2)[0][0])
    hessian_d = fg.jvp(fg.grad(first), (data,), (d,))[1]
    g = fg.grad(first)
    np.testing.assert_allclose(hessian_d, (g(data + EPS * d) - g(data - EPS * d)) / (2 * EPS),
                               rtol=1e-5, atol=1e-6)
    C = (COMPLEX_PAIRS + 1j * sp.random(NG, NG, density=0.1, random_state=9)).tocsr()
    C.sort_indices()
    start = np.random.default_rng(6).standard_normal(NG).astype(complex)
    dc = RNG.standard_normal(C.nnz) * (1 + 0.5j)

    def scipys(x):
        return sl.eigs(sp.csr_array((x, C.indices, C.indptr), C.shape), k=2, v0=start)[0]
    w, dw = fg.jvp(lambda x: fsl.eigs(csr(x, C), k=2, v0=start)[0], (C.data,), (dc,))
    np.testing.assert_allclose(w, scipys(C.data), rtol=1e-12)
    np.testing.assert_allclose(dw, (scipys(C.data + EPS * dc) - scipys(C.data - EPS * dc))
                               / (2 * EPS), rtol=1e-6, atol=1e-7)


# --- expm ----------------------------------------------------------------------------------

def test_sparse_expm_values_and_frechet_derivative(no_densifying):
    X = (3.0 * sp.random(12, 12, density=0.15, random_state=3, format="csr")).tocsr()
    X.sort_indices()

    def scipys(x):
        return sl.expm(sp.csc_array(sp.csr_array((x, X.indices, X.indptr), X.shape)))

    out, want = fsl.expm(csr(X.data, X)), scipys(X.data)
    assert out.format == "csr" and isinstance(out, fsparse.csr_array)
    assert fsl.expm(fsparse.csc_matrix(X)).format == "csc"
    np.testing.assert_allclose(fsparse.csr_array(out).tocoo().data,
                               want.tocsr()[out.tocoo().row, out.tocoo().col], rtol=1e-14)
    assert out.nnz >= want.nnz
    # (every entry of SciPy's result is stored: the sums agree)
    np.testing.assert_allclose(out.sum(), want.sum(), rtol=1e-13)
    d = RNG.standard_normal(X.nnz)
    rows, cols = out.tocoo().row, out.tocoo().col

    def at_pattern(x):
        return np.asarray(scipys(x).tocsr()[rows, cols]).ravel()
    want_tangent = (at_pattern(X.data + EPS * d) - at_pattern(X.data - EPS * d)) / (2 * EPS)
    _, tangent = fg.jvp(lambda x: fsl.expm(csr(x, X)).data, (X.data,), (d,))
    np.testing.assert_allclose(tangent, want_tangent, rtol=1e-6, atol=1e-7)
    weights = RNG.standard_normal(out.nnz)
    grad = fg.grad(lambda x: np.sum(fsl.expm(csr(x, X)).data * weights))(X.data)
    np.testing.assert_allclose(np.sum(grad * d), np.sum(weights * want_tangent), rtol=1e-6)
    entry = fg.grad(lambda x: fsl.expm(csr(x, X)).data[3])
    _, second = fg.jvp(entry, (X.data,), (d,))
    np.testing.assert_allclose(second, (entry(X.data + EPS * d) - entry(X.data - EPS * d))
                               / (2 * EPS), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fg.jit(lambda x: fsl.expm(csr(x, X)).data)(X.data), out.data,
                               rtol=1e-14)


def test_sparse_expm_derivative_refused_above_its_work_limit(monkeypatch):
    import funcgrad.scipy.sparse._sparserest_expm as module
    monkeypatch.setattr(module, "_WORK_LIMIT", 10.0)
    with pytest.raises(NotImplementedError, match="dense route"):
        fg.grad(lambda x: fsl.expm(csr(x, S)).data.sum())(S.data)
    fsl.expm(csr(S.data, S))  # (the value is not limited)


# --- LaplacianNd ---------------------------------------------------------------------------

@pytest.mark.parametrize("boundary", ["neumann", "dirichlet", "periodic"])
def test_laplaciannd_is_scipys_as_a_differentiable_operator(boundary):
    ours = fsl.LaplacianNd((3, 4), boundary_conditions=boundary, dtype=np.float64)
    want = sl.LaplacianNd((3, 4), boundary_conditions=boundary, dtype=np.float64)
    assert ours.shape == (12, 12) and ours.dtype == want.dtype
    assert ours.grid_shape == (3, 4) and ours.boundary_conditions == boundary
    np.testing.assert_array_equal(ours.toarray(), want.toarray())
    np.testing.assert_array_equal(ours.tosparse().toarray(), want.tosparse().toarray())
    np.testing.assert_array_equal(ours.eigenvalues(), want.eigenvalues())
    np.testing.assert_array_equal(ours.eigenvalues(4), want.eigenvalues(4))
    np.testing.assert_array_equal(ours.eigenvectors(3), want.eigenvectors(3))
    x = RNG.standard_normal(12)
    np.testing.assert_allclose(ours @ x, want @ x, rtol=1e-14)
    np.testing.assert_allclose(ours.H @ x, want.H @ x, rtol=1e-14)
    np.testing.assert_allclose(fg.grad(lambda x: x @ (ours @ x))(x), 2 * (want @ x),
                               rtol=1e-13)
    assert fsl.LaplacianNd((2, 2)).toarray().dtype == np.int8
    with pytest.raises(ValueError):  # (SciPy's own check)
        fsl.LaplacianNd((2, 2), boundary_conditions="robin")
