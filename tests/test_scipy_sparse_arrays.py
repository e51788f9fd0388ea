"""funcgrad.scipy.sparse's arrays: SciPy's values on the same inputs, derivatives in the
stored values and the dense operands against central differences (of SciPy's values where
SciPy computes them), grad returning a sparse array of the input's structure, jit and vmap
over a sparse argument, and products that never densify."""
import io

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as sl

import funcgrad as fg
import funcgrad.scipy.sparse as fs
import funcgrad.scipy.sparse.linalg as fsl
from funcgrad.errors import ConcretizationError

RNG = np.random.default_rng(7)
DENSE = np.array([[1.5, 0.0, -2.0, 0.0],
                  [0.0, 0.0, 0.5, 3.0],
                  [4.0, -1.0, 0.0, 0.0]])
X = RNG.standard_normal(4)
XM = RNG.standard_normal((4, 2))
Y = RNG.standard_normal(3)
FORMATS = ["coo", "csr", "csc"]


def _pair(fmt, dense=DENSE):
    return getattr(fs, f"{fmt}_array")(dense), getattr(sp, f"{fmt}_array")(dense)


def _plain(x):
    return x.toarray() if hasattr(x, "toarray") else np.asarray(x)


def _central(f, data, eps=1e-6):
    """The gradient of the scalar ``f`` at ``data`` by central differences."""
    data = np.asarray(data, float)
    return np.array([(f(data + eps * e) - f(data - eps * e)) / (2 * eps)
                     for e in np.eye(data.size)])


@pytest.mark.parametrize("fmt", FORMATS)
def test_construction_matches_scipy(fmt):
    ours, theirs = _pair(fmt)
    assert repr(ours) == repr(theirs)
    np.testing.assert_array_equal(ours.data, theirs.data)
    if fmt == "coo":
        np.testing.assert_array_equal(ours.row, theirs.row)
        np.testing.assert_array_equal(ours.col, theirs.col)
    else:
        np.testing.assert_array_equal(ours.indices, theirs.indices)
        np.testing.assert_array_equal(ours.indptr, theirs.indptr)
        assert ours.indptr.dtype == theirs.indptr.dtype
    # coordinates with a duplicate (summed by CSR/CSC, as SciPy's), compressed, SciPy's own
    data, row, col = np.array([1.0, 2.0, 3.0]), np.array([2, 0, 2]), np.array([1, 1, 1])
    ours_cls, theirs_cls = getattr(fs, f"{fmt}_array"), getattr(sp, f"{fmt}_array")
    built = [(ours_cls((data, (row, col)), shape=(3, 2)),
              theirs_cls((data, (row, col)), shape=(3, 2)))]
    if fmt != "coo":
        t = sp.csr_array(DENSE) if fmt == "csr" else sp.csc_array(DENSE)
        built.append((ours_cls((t.data, t.indices, t.indptr)),
                      theirs_cls((t.data, t.indices, t.indptr))))
    built.append((getattr(fs, f"{fmt}_matrix")(sp.csr_array(DENSE)),
                  getattr(sp, f"{fmt}_matrix")(sp.csr_array(DENSE))))
    for a, b in built:
        assert a.shape == b.shape and a.nnz == b.nnz and a.format == b.format
        np.testing.assert_array_equal(a.toarray(), b.toarray())
        np.testing.assert_array_equal(a.data, b.data)


METHODS = [
    ("matvec", lambda A: A @ X), ("matmat", lambda A: A @ XM), ("vecmat", lambda A: Y @ A),
    ("dot", lambda A: A.dot(X)), ("sparse product", lambda A: A @ A.T),
    ("transpose", lambda A: A.T), ("sum", lambda A: A.sum()), ("sum0", lambda A: A.sum(0)),
    ("sum1", lambda A: A.sum(axis=1)), ("mean", lambda A: A.mean()),
    ("mean0", lambda A: A.mean(axis=0)), ("diagonal", lambda A: A.diagonal()),
    ("diagonal-1", lambda A: A.diagonal(-1)), ("trace", lambda A: A.trace(1)),
    ("multiply scalar", lambda A: A.multiply(2.5)),
    ("multiply dense", lambda A: A.multiply(np.arange(4.0))),
    ("multiply sparse", lambda A: A.multiply(A.T.T)), ("add", lambda A: A + 2 * A),
    ("sub", lambda A: A - A.T.T * 0.5), ("add dense", lambda A: A + np.ones((3, 4))),
    ("div", lambda A: A / 4.0), ("neg", lambda A: -A), ("power", lambda A: A.power(3)),
    ("**", lambda A: A ** 2), ("abs", abs), ("sin", lambda A: A.sin()),
    ("sqrt", lambda A: abs(A).sqrt()), ("expm1", lambda A: A.expm1()),
    ("nnz", lambda A: A.nnz),
    ("count_nonzero", lambda A: A.count_nonzero()), ("rows", lambda A: A[1:3]),
    ("block", lambda A: A[[0, 2], 1:4]), ("entry", lambda A: A[2, 1]),
    ("tocsr", lambda A: A.tocsr()), ("tocsc", lambda A: A.tocsc()),
    ("tocoo", lambda A: A.tocoo()), ("astype", lambda A: A.astype(np.float32)),
    ("nonzero", lambda A: np.stack(A.nonzero())),
]


@pytest.mark.parametrize("fmt", FORMATS)
def test_methods_match_scipy(fmt):
    ours, theirs = _pair(fmt)
    for name, f in METHODS:
        a, b = f(ours), f(theirs)
        assert sp.issparse(b) == fs.issparse(a), name
        if sp.issparse(b):
            assert a.format == b.format and a.dtype == b.dtype, name
        np.testing.assert_allclose(_plain(a), _plain(b), rtol=1e-12, err_msg=name)
        assert np.asarray(_plain(a)).dtype == np.asarray(_plain(b)).dtype, name


def test_matrix_spelling_products_and_reductions_are_2d():
    A, S = fs.csr_matrix(DENSE), sp.csr_matrix(DENSE)
    np.testing.assert_allclose((A * A.T).toarray(), (S * S.T).toarray())
    np.testing.assert_allclose(A.sum(axis=0), np.asarray(S.sum(axis=0)))
    assert A.sum(axis=1).shape == (3, 1)
    np.testing.assert_array_equal(A.getnnz(axis=0), S.getnnz(axis=0))
    assert fs.isspmatrix_csr(A) and not fs.isspmatrix(fs.csr_array(DENSE))
    assert isinstance(fs.csr_array(DENSE), fs.sparray) and isinstance(A, fs.spmatrix)


def test_in_place_tidying_matches_scipy():
    data, row, col = np.array([0.0, 2.0, 1.0, 3.0]), np.array([1, 0, 1, 0]), \
        np.array([0, 1, 0, 1])
    a, b = fs.coo_array((data, (row, col))), sp.coo_array((data, (row, col)))
    assert a.count_nonzero() == b.count_nonzero()
    a.sum_duplicates()
    b.sum_duplicates()
    np.testing.assert_array_equal(a.data, b.data)
    np.testing.assert_array_equal(a.row, b.row)
    c, d = fs.csr_array((data, (row, col))), sp.csr_array((data, (row, col)))
    c.data, d.data = np.array([0.0, 5.0]), np.array([0.0, 5.0])
    c.eliminate_zeros()
    d.eliminate_zeros()
    np.testing.assert_array_equal(c.indices, d.indices)
    e = fs.csr_array((np.array([1.0, 2.0]), np.array([1, 0]), np.array([0, 2])))
    assert not e.has_sorted_indices
    e.sort_indices()
    np.testing.assert_array_equal(e.data, [2.0, 1.0])


# --- derivatives -----------------------------------------------------------------------------

DERIVATIVES = [  # (name, f(A) -> scalar), each differentiated in A.data
    ("matvec", lambda A: np.sum(np.sin(A @ X))),
    ("vecmat", lambda A: np.sum((Y @ A) ** 2)),
    ("matmat", lambda A: np.sum((A @ XM) ** 2)),
    ("sparse product", lambda A: (A @ A.T).power(2).sum()),
    ("multiply", lambda A: A.multiply(A).multiply(np.arange(4.0)).sum()),
    ("sums", lambda A: np.sum(A.sum(axis=0) ** 2) + np.sum(A.mean(axis=1) ** 3)),
    ("diagonal and transpose", lambda A: np.sum(A.T.diagonal(1) ** 2)),
    ("add", lambda A: ((A + A.tocsc() * 2.0) - A / 3.0).power(2).sum()),
    ("elementwise", lambda A: A.sin().sum() + abs(A).sqrt().sum() + A.tanh().sum()),
    ("conversion and indexing", lambda A: A.tocoo().tocsr()[0:2].power(2).sum()
     + A.tocsc()[2, 0] ** 2),
    ("toarray", lambda A: np.sum(A.toarray() ** 3)),
]


@pytest.mark.parametrize("fmt", ["coo", "csr"])
def test_grad_in_the_stored_values_is_sparse_and_matches_central_differences(fmt):
    A = getattr(fs, f"{fmt}_array")(DENSE)
    for name, f in DERIVATIVES:
        g = fg.grad(f)(A)
        assert type(g) is type(A), name
        np.testing.assert_array_equal(g.tocoo().row, A.tocoo().row)
        np.testing.assert_array_equal(g.tocoo().col, A.tocoo().col)
        expected = _central(lambda d: float(f(A._like(d))), A.data)
        np.testing.assert_allclose(g.data, expected, rtol=1e-6, atol=1e-8, err_msg=name)


def test_derivatives_in_the_dense_operand_and_forward_mode():
    A = fs.csr_array(DENSE)
    f = lambda x: np.sum(np.cos(A @ x)) + np.sum((x[:3] @ A) ** 2)  # noqa: E731
    np.testing.assert_allclose(fg.grad(f)(X), _central(f, X), rtol=1e-6, atol=1e-8)
    tangent = A._like(np.arange(1.0, A.nnz + 1))
    _, t = fg.jvp(lambda A: A @ X, (A,), (tangent,))
    np.testing.assert_allclose(t, tangent.toarray() @ X)


def test_float32_is_kept():
    A = fs.csr_array(DENSE.astype(np.float32))
    x = X.astype(np.float32)
    assert A.dtype == np.float32
    for out in (A @ x, A.sum(0), A.toarray(), (A @ A.T).data, A.multiply(x).data,
                fg.grad(lambda A: np.sum(A @ x))(A).data):
        assert out.dtype == np.float32


def test_jit_and_vmap_over_a_sparse_argument():
    A = fs.csr_array(DENSE)
    np.testing.assert_allclose(fg.jit(lambda A, x: A @ x)(A, X), DENSE @ X)
    out = fg.jit(lambda A: A * 2.0)(A)
    assert type(out) is fs.csr_array and np.allclose(out.toarray(), 2 * DENSE)
    batch = fg.tree.unflatten(fg.tree.structure(A), [np.stack([A.data, 3 * A.data])])
    np.testing.assert_allclose(fg.vmap(lambda A: A @ X)(batch), [DENSE @ X, 3 * DENSE @ X])
    np.testing.assert_allclose(fg.vmap(lambda x: A @ x)(XM.T), (DENSE @ XM).T)


def test_products_never_densify():
    n = 10 ** 6  # (a dense copy would take 8 TB)
    idx = np.array([0, 5, n - 1])
    A = fs.csr_array((np.array([1.0, 2.0, 3.0]), (idx, idx[::-1])), shape=(n, n))
    x = np.zeros(n)
    x[idx] = [1.0, 1.0, 2.0]
    assert (A @ x)[[0, 5, n - 1]].tolist() == [2.0, 2.0, 3.0]
    g = fg.grad(lambda A: np.sum(A @ x))(A)
    assert g.data.tolist() == [2.0, 1.0, 1.0]
    assert (A @ A).nnz == 3


def test_clear_errors():
    A = fs.csr_array(DENSE)
    with pytest.raises(TypeError, match="eliminate_zeros"):
        fg.grad(lambda A: (A.eliminate_zeros(), A.sum())[1])(A)
    with pytest.raises(ConcretizationError, match="outside jit"):
        fg.jit(lambda d: fs.csr_array(d).sum())(DENSE)
    with pytest.raises(ValueError, match="column index 5 exceeds"):
        fs.coo_array((np.ones(1), (np.array([0]), np.array([5]))), shape=(2, 2))
    with pytest.raises(ValueError, match="indptr"):
        fs.csr_array((np.ones(1), np.array([0]), np.array([0, 2])))
    with pytest.raises(ValueError, match="dimension mismatch"):
        A @ np.ones(3)
    with pytest.raises(NotImplementedError, match="nonzero scalar"):
        A + 1.0
    with pytest.raises(NotImplementedError, match="1-d sparse"):
        A[0]


# --- constructors and files ----------------------------------------------------------------------

def test_constructors_match_scipy():
    B = np.array([[0.0, 2.0], [1.0, 0.0]])
    pairs = [
        (fs.eye(3, 4, k=1), sp.eye(3, 4, k=1)), (fs.identity(2), sp.identity(2)),
        (fs.eye_array(2, dtype=np.float32), sp.eye_array(2, dtype=np.float32)),
        (fs.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(4, 4)),
         sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(4, 4))),
        (fs.diags_array([np.arange(1.0, 4.0), np.ones(2)], offsets=[0, -1]),
         sp.diags_array([np.arange(1.0, 4.0), np.ones(2)], offsets=[0, -1])),
        (fs.spdiags(np.arange(1.0, 9.0).reshape(2, 4), [0, -1], 4, 3),
         sp.spdiags(np.arange(1.0, 9.0).reshape(2, 4), [0, -1], 4, 3)),
        (fs.kron(fs.csr_array(DENSE), B), sp.kron(sp.csr_array(DENSE), B)),
        (fs.kronsum(B, DENSE[:, :3]), sp.kronsum(B, DENSE[:, :3])),
        (fs.hstack([fs.csr_array(DENSE), B[:1].repeat(3, 0)]),
         sp.hstack([sp.csr_array(DENSE), B[:1].repeat(3, 0)])),
        (fs.vstack([fs.csr_array(DENSE), fs.csr_array(DENSE)]),
         sp.vstack([sp.csr_array(DENSE), sp.csr_array(DENSE)])),
        (fs.bmat([[B, None], [None, DENSE]]), sp.bmat([[B, None], [None, DENSE]])),
        (fs.block_array([[fs.csr_array(B), B]], format="csc"),
         sp.block_array([[sp.csr_array(B), B]], format="csc")),
        (fs.block_diag([B, DENSE]), sp.block_diag([B, DENSE])),
        (fs.tril(fs.csr_array(DENSE), k=1), sp.tril(sp.csr_array(DENSE), k=1)),
        (fs.triu(sp.csr_array(DENSE)), sp.triu(sp.csr_array(DENSE))),
        (fs.random(5, 4, density=0.4, rng=3, format="csr"),
         sp.random(5, 4, density=0.4, rng=3, format="csr")),
        (fs.random_array((3, 6), density=0.5, rng=1), sp.random_array((3, 6), density=0.5,
                                                                      rng=1)),
        (fs.rand(4, 4, density=0.3, rng=2), sp.rand(4, 4, density=0.3, rng=2)),
        (fs.permute_dims(fs.csr_array(DENSE)), sp.permute_dims(sp.csr_array(DENSE))),
        (fs.swapaxes(fs.csr_array(DENSE), 1, 0), sp.swapaxes(sp.csr_array(DENSE), 1, 0)),
    ]
    for i, (ours, theirs) in enumerate(pairs):
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype, i
        assert isinstance(ours, fs.sparray) == isinstance(theirs, sp.sparray), i
        assert ours.format == theirs.format, i
        np.testing.assert_array_equal(ours.toarray(), theirs.toarray(), err_msg=str(i))
    for ours, theirs in zip(fs.find(fs.csr_array(DENSE)), sp.find(sp.csr_array(DENSE))):
        np.testing.assert_array_equal(ours, theirs)
    assert fs.get_index_dtype(maxval=2 ** 40) is sp.get_index_dtype(maxval=2 ** 40)


def test_constructors_are_differentiable_in_their_values():
    def f(d):
        A = fs.diags_array([d[:3], d[3:5]], offsets=[0, 1])
        K = fs.kron(A, fs.csr_array(np.array([[1.0, 2.0]])))
        S = fs.block_array([[A, None], [None, fs.tril(A.T @ A)]])
        return np.sum(np.sin(K @ np.arange(6.0))) + S.power(2).sum()
    d = RNG.standard_normal(5)
    np.testing.assert_allclose(fg.grad(f)(d), _central(f, d), rtol=1e-6, atol=1e-8)


def test_npz_files_are_shared_with_scipy():
    for ours in (fs.csr_array(DENSE), fs.coo_matrix(DENSE), fs.csc_array(DENSE)):
        f = io.BytesIO()
        fs.save_npz(f, ours)
        f.seek(0)
        theirs = sp.load_npz(f)
        assert theirs.format == ours.format
        assert isinstance(theirs, sp.sparray) == isinstance(ours, fs.sparray)
        np.testing.assert_array_equal(theirs.toarray(), DENSE)
        g = io.BytesIO()
        sp.save_npz(g, theirs)
        g.seek(0)
        back = fs.load_npz(g)
        assert type(back) is type(ours)
        np.testing.assert_array_equal(back.toarray(), DENSE)


# --- linalg ----------------------------------------------------------------------------------

SYSTEM = np.diag([4.0, 5.0, 6.0, 7.0]) + np.array([[0, 1, 0, 0], [0, 0, -2, 0],
                                                     [1.5, 0, 0, 0], [0, 0.5, 0, 0]])
RHS = np.array([1.0, -2.0, 0.5, 3.0])


def test_spsolve_values_and_derivatives_against_scipy():
    A = fs.csr_array(SYSTEM)
    np.testing.assert_allclose(fsl.spsolve(A, RHS), sl.spsolve(sp.csr_array(SYSTEM), RHS))
    np.testing.assert_allclose(fsl.spsolve(sp.csc_matrix(SYSTEM), np.eye(4)),
                               np.linalg.inv(SYSTEM))
    w = np.arange(1.0, 5.0)

    def scipy_value(data, b):
        return w @ sl.spsolve(sp.csr_array((data, A.indices, A.indptr), shape=(4, 4)), b)
    g_A, g_b = fg.grad(lambda A, b: w @ fsl.spsolve(A, b), argnums=(0, 1))(A, RHS)
    assert type(g_A) is fs.csr_array and g_A.nnz == A.nnz
    np.testing.assert_allclose(g_A.data, _central(lambda d: scipy_value(d, RHS), A.data),
                               rtol=1e-6)
    np.testing.assert_allclose(g_b, _central(lambda b: scipy_value(A.data, b), RHS),
                               rtol=1e-6)
    assert fsl.spsolve(A.astype(np.float32), RHS.astype(np.float32)).dtype == np.float32
    np.testing.assert_allclose(fg.jit(fsl.spsolve)(A, RHS), np.linalg.solve(SYSTEM, RHS))
    np.testing.assert_allclose(fsl.factorized(A.tocsc())(RHS), np.linalg.solve(SYSTEM, RHS))


def test_linalg_takes_sparse_operands():
    A, S = fs.csr_array(SYSTEM), sp.csr_array(SYSTEM)
    spd = fs.csr_array(SYSTEM @ SYSTEM.T)
    x, info = fsl.cg(spd, RHS, rtol=1e-12)
    assert info == 0 and np.allclose(SYSTEM @ SYSTEM.T @ x, RHS)
    x, info = fsl.gmres(S, RHS, rtol=1e-12)
    assert info == 0 and np.allclose(SYSTEM @ x, RHS)
    g = fg.grad(lambda A: np.sum(fsl.bicgstab(A, RHS, rtol=1e-12)[0]))(A)
    expected = _central(lambda d: np.sum(sl.spsolve(sp.csr_array(
        (d, A.indices, A.indptr), shape=(4, 4)), RHS)), A.data)
    np.testing.assert_allclose(g.data, expected, rtol=1e-5)
    op = fsl.aslinearoperator(A)
    np.testing.assert_allclose(op.H @ RHS, SYSTEM.T @ RHS)
    lower = fs.tril(A, format="csr")
    np.testing.assert_allclose(fsl.spsolve_triangular(A, RHS),
                               sl.spsolve_triangular(sp.csr_array(lower.toarray()), RHS))
    np.testing.assert_allclose(
        fsl.spsolve_triangular(A, RHS, lower=False, unit_diagonal=True),
        sl.spsolve_triangular(sp.triu(S, format="csr"), RHS, lower=False, unit_diagonal=True))
    np.testing.assert_allclose(fsl.matrix_power(A, 3).toarray(),
                               sl.matrix_power(S, 3).toarray())
    assert fsl.is_sptriangular(lower) == sl.is_sptriangular(sp.csr_array(lower.toarray()))
    assert fsl.spbandwidth(A) == sl.spbandwidth(S)
    np.testing.assert_allclose(fsl.expm_multiply(A, RHS), sl.expm_multiply(S, RHS))


def test_norms_expm_multiply_and_inv_of_sparse_operands_match_scipy():
    A, S = fs.csr_array(SYSTEM - 3 * np.eye(4)), sp.csr_array(SYSTEM - 3 * np.eye(4))
    for ord in (None, "fro", 1, -1, np.inf, -np.inf):
        np.testing.assert_allclose(fsl.norm(A, ord), sl.norm(S, ord), err_msg=str(ord))
    for axis, ord in ((0, None), (1, 1), (0, np.inf), (1, 3)):
        np.testing.assert_allclose(fsl.norm(A, ord, axis), sl.norm(S, ord, axis))
    # (SciPy's onenormest is a randomized lower bound; funcgrad's is the exact 1-norm)
    assert np.isclose(fsl.onenormest(A), sl.norm(S, 1))
    np.testing.assert_allclose(fsl.expm_multiply(A, RHS), sl.expm_multiply(S, RHS),
                               rtol=1e-13)
    np.testing.assert_allclose(fsl.expm_multiply(A, RHS, start=0.5, stop=1.5, num=3),
                               sl.expm_multiply(S, RHS, start=0.5, stop=1.5, num=3),
                               rtol=1e-13)
    inverse = fsl.inv(fs.csc_array(SYSTEM))
    assert type(inverse) is fs.csc_array
    np.testing.assert_allclose(inverse.toarray(), sl.inv(sp.csc_array(SYSTEM)).toarray())

    def scipy_value(data):
        return np.sum(np.sin(sl.expm_multiply(sp.csr_array((data, A.indices, A.indptr),
                                                           shape=(4, 4)), RHS)))
    g = fg.grad(lambda A: np.sum(np.sin(fsl.expm_multiply(A, RHS))))(A)
    np.testing.assert_allclose(g.data, _central(scipy_value, A.data), rtol=1e-6)
    np.testing.assert_allclose(fg.grad(lambda A: fsl.norm(A))(A).data,
                               A.data / np.linalg.norm(A.toarray()))


def test_lobpcg_matches_scipy_and_its_eigenvalues_differentiate_at_the_pattern():
    n = 40
    A = fs.diags([np.full(n - 1, -1.0), np.arange(2.0, n + 2.0), np.full(n - 1, -1.0)],
                 [-1, 0, 1], format="csr")
    X = np.random.default_rng(0).standard_normal((n, 2))
    for largest in (True, False):
        w, v = fsl.lobpcg(A, X, largest=largest)
        expected, _ = sl.lobpcg(sp.csr_matrix(A.toarray()), X, largest=largest, tol=1e-12,
                                maxiter=2000)
        np.testing.assert_allclose(w, expected, rtol=1e-8)
    g = fg.grad(lambda A: fsl.lobpcg(A, X)[0][0])(A)
    v = fsl.lobpcg(A, X)[1][:, 0]
    coo = A.tocoo()
    np.testing.assert_allclose(g.tocoo().data, v[coo.row] * v[coo.col], atol=1e-10)
    with pytest.raises(NotImplementedError, match="constraints"):
        fsl.lobpcg(A, X, Y=X[:, :1])


def test_dia_arrays_match_scipy_and_differentiate_in_their_diagonals():
    data, offsets = np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]), [0, 1]
    A, S = fs.dia_array((data, offsets), shape=(3, 4)), sp.dia_array((data, offsets),
                                                                     shape=(3, 4))
    assert repr(A) == repr(S) and A.nnz == S.nnz
    for name, f in [("matvec", lambda A: A @ X), ("transpose", lambda A: A.T),
                    ("scale", lambda A: 2 * A), ("add", lambda A: A + A),
                    ("product", lambda A: A @ A.T), ("sin", lambda A: A.sin()),
                    ("sum", lambda A: A.sum(axis=0)), ("tocsr", lambda A: A.tocsr())]:
        a, b = f(A), f(S)
        assert type(a).__name__ == type(b).__name__, name
        np.testing.assert_allclose(_plain(a), _plain(b), err_msg=name)
    for dense in (DENSE, np.diag([1.0, 2.0, 0.0])):
        ours, theirs = fs.csr_array(dense).todia(), sp.csr_array(dense).todia()
        np.testing.assert_array_equal(ours.offsets, theirs.offsets)
        np.testing.assert_array_equal(ours.data, theirs.data)
    g = fg.grad(lambda A: np.sum(np.sin(A @ X)))(A)
    assert type(g) is fs.dia_array and g.data.shape == data.shape
    expected = _central(lambda d: np.sum(np.sin(sp.dia_array(
        (d.reshape(2, 4), offsets), shape=(3, 4)) @ X)), data.ravel())
    np.testing.assert_allclose(g.data.ravel(), expected, rtol=1e-6, atol=1e-9)
    f = io.BytesIO()
    fs.save_npz(f, A)
    f.seek(0)
    np.testing.assert_array_equal(sp.load_npz(f).toarray(), S.toarray())


def test_dok_arrays_build_entry_by_entry_as_scipy_and_keep_derivatives():
    A, S = fs.dok_array(DENSE), sp.dok_array(DENSE)
    for M in (A, S):
        M[0, 1] = 7.0
        M[1, 2] = 0.0  # (removes the entry)
    assert repr(A) == repr(S) and list(A.keys()) == list(S.keys())
    assert A[2, 3] == S[2, 3] and A.get((2, 3), -1.0) == S.get((2, 3), -1.0)
    for name, f in [("matvec", lambda A: A @ X), ("transpose", lambda A: A.T),
                    ("add", lambda A: A + A), ("scale", lambda A: 2 * A),
                    ("tocsc", lambda A: A.tocsc())]:
        a, b = f(A), f(S)
        assert type(a).__name__ == type(b).__name__, name
        np.testing.assert_allclose(_plain(a), _plain(b), err_msg=name)

    def f(x):
        B = fs.dok_array((2, 3))
        B[0, 2] = x[0] * x[1]
        B[1, 0] = np.sin(x[1])
        return np.sum((B.tocsr() @ np.arange(1.0, 4.0)) ** 2)
    x = np.array([0.5, -1.5])
    np.testing.assert_allclose(fg.grad(f)(x), _central(f, x), rtol=1e-6)
    g = fg.grad(lambda A: np.sum(A.tocsr() @ X))(A)
    assert type(g) is fs.dok_array and list(g.keys()) == list(A.keys())


def test_lil_arrays_build_row_by_row_as_scipy_and_keep_derivatives():
    A, S = fs.lil_array(DENSE), sp.lil_array(DENSE)
    assert repr(A) == repr(S) and list(A.rows) == list(S.rows)
    for M in (A, S):
        M[0, 1] = 7.0
        M[1, 2] = 0.0  # (removes the entry)
        M[2, 3] = 5.0
    assert list(A.rows) == list(S.rows) and A[0, 1] == S[0, 1] and A[1, 1] == S[1, 1]
    for name, f in [("matvec", lambda A: A @ X), ("transpose", lambda A: A.T),
                    ("scale", lambda A: A / 2), ("add", lambda A: A + A),
                    ("getrow", lambda A: A.getrow(2)), ("tocsr", lambda A: A.tocsr())]:
        a, b = f(A), f(S)
        assert type(a).__name__ == type(b).__name__, name
        np.testing.assert_allclose(_plain(a), _plain(b), err_msg=name)

    def f(x):
        B = fs.lil_array((2, 3))
        B[1, 2] = np.exp(x[0])
        B[1, 0] = x[0] * x[1]
        return np.sum((np.arange(1.0, 3.0) @ B.tocsc()) ** 2)
    x = np.array([0.3, -0.7])
    np.testing.assert_allclose(fg.grad(f)(x), _central(f, x), rtol=1e-6)
    g = fg.grad(lambda A: np.sum(A.tocsr() @ X))(A)
    assert type(g) is fs.lil_array and list(g.rows) == list(A.rows)


def test_eigsh_of_a_sparse_matrix_is_arpacks_and_differentiates_without_densifying():
    n = 30
    R = sp.random_array((n, n), density=0.15, rng=1).toarray()
    D = R + R.T + np.diag(np.arange(n, dtype=float))
    A = fs.csr_array(D)
    w, v = fsl.eigsh(A, k=3, which="LA")
    W, V = sl.eigsh(sp.csr_array(D), k=3, which="LA")
    np.testing.assert_allclose(w, W, rtol=1e-10)
    np.testing.assert_allclose(np.abs(v.T @ V), np.eye(3), atol=1e-8)
    # along a symmetric tangent: eigenvalues against central differences of SciPy's,
    # eigenvectors against central differences of funcgrad's (ARPACK's signs are random)
    T = np.random.default_rng(3).standard_normal((n, n))
    t = (T + T.T)[A.tocoo().row, A.tocoo().col]
    eps = 1e-6
    (tw, tv) = fg.jvp(lambda d: fsl.eigsh(A._like(d), k=3, which="LA"), (A.data,), (t,))[1]

    def scipy_w(d):
        return sl.eigsh(sp.csr_array((d, A.indices, A.indptr), shape=(n, n)), k=3,
                        which="LA", tol=1e-14)[0]
    np.testing.assert_allclose(tw, (scipy_w(A.data + eps * t) - scipy_w(A.data - eps * t))
                               / (2 * eps), atol=1e-6)
    plus, minus = (fsl.eigsh(A._like(A.data + s * eps * t), k=3, which="LA")[1]
                   for s in (1, -1))
    np.testing.assert_allclose(tv, (plus - minus) / (2 * eps), atol=1e-6)
    g = fg.grad(lambda A: fsl.eigsh(A, k=3, which="LA")[1][0, 2] ** 2)(A)
    assert type(g) is fs.csr_array
    np.testing.assert_allclose(g.data @ t, (plus[0, 2] ** 2 - minus[0, 2] ** 2) / (2 * eps),
                               rtol=1e-5)
    diagonal = np.full(20000, 2.0)
    diagonal[-1] = 10.0  # (an isolated top eigenvalue: ARPACK converges at once)
    big = fs.diags([-np.ones(19999), diagonal, -np.ones(19999)], [-1, 0, 1], format="csr")
    gw = fg.grad(lambda A: fsl.eigsh(A, k=1, which="LA", return_eigenvectors=False)[0])(big)
    vec = fsl.eigsh(big, k=1, which="LA")[1][:, 0]
    coo = big.tocoo()
    np.testing.assert_allclose(gw.tocoo().data, vec[coo.row] * vec[coo.col], atol=1e-10)


def test_svds_of_a_sparse_matrix_is_sparse_and_differentiable():
    R = sp.random_array((12, 9), density=0.3, rng=4)
    A = fs.csr_array(R)
    u, s, vh = fsl.svds(A, k=3)
    U, S, VH = sl.svds(R, k=3)
    np.testing.assert_allclose(s, S, rtol=1e-10)
    np.testing.assert_allclose(np.abs(u.T @ U), np.eye(3), atol=1e-8)
    np.testing.assert_allclose(np.abs(vh @ VH.T), np.eye(3), atol=1e-8)

    def scipy_value(d):
        return np.sum(np.sin(sl.svds(sp.csr_array((d, A.indices, A.indptr), shape=A.shape),
                                     k=3, return_singular_vectors=False, tol=1e-14)))
    g = fg.grad(lambda A: np.sum(np.sin(fsl.svds(A, k=3, return_singular_vectors=False))))(A)
    assert type(g) is fs.csr_array
    np.testing.assert_allclose(g.data, _central(scipy_value, A.data), rtol=1e-5, atol=1e-8)


def test_bsr_arrays_match_scipy_and_differentiate_in_their_blocks():
    D = np.array([[1.0, 2.0, 0.0, 0.0], [0.0, 3.0, 0.0, 0.0], [0.0, 0.0, 0.0, 4.0],
                  [5.0, 0.0, 0.0, 6.0]])
    A, S = fs.bsr_array(D, blocksize=(2, 2)), sp.bsr_array(D, blocksize=(2, 2))
    assert repr(A) == repr(S)
    for ours, theirs in ((A.data, S.data), (A.indices, S.indices), (A.indptr, S.indptr),
                         (A.tocoo().row, S.tocoo().row), (A.tocoo().col, S.tocoo().col)):
        np.testing.assert_array_equal(ours, theirs)
    for name, f in [("matvec", lambda A: A @ X), ("transpose", lambda A: A.T),
                    ("scale", lambda A: 2 * A), ("add", lambda A: A + A),
                    ("product", lambda A: A @ A), ("sin", lambda A: A.sin())]:
        a, b = f(A), f(S)
        assert type(a).__name__ == type(b).__name__, name
        assert getattr(a, "blocksize", None) == getattr(b, "blocksize", None), name
        np.testing.assert_allclose(_plain(a), _plain(b), err_msg=name)
    for M in (D, np.kron(np.eye(3), np.ones((2, 2))), np.kron(np.eye(2), np.ones((3, 3)))):
        assert fs.csr_array(M).tobsr().blocksize == sp.csr_array(M).tobsr().blocksize
    g = fg.grad(lambda A: np.sum(np.sin(A @ X)))(A)
    assert type(g) is fs.bsr_array and g.data.shape == A.data.shape
    # (copies: SciPy sorts a BSR array's block indices in place, data and indices alike)
    indices, indptr = np.array(A.indices), np.array(A.indptr)
    expected = _central(lambda d: np.sum(np.sin(sp.bsr_array(
        (d.reshape(A.data.shape).copy(), indices.copy(), indptr.copy()), shape=(4, 4)) @ X)),
        A.data.ravel())
    np.testing.assert_allclose(g.data.ravel(), expected, rtol=1e-6, atol=1e-9)
    f = io.BytesIO()
    sp.save_npz(f, S)
    f.seek(0)
    np.testing.assert_array_equal(fs.load_npz(f).data, S.data)
