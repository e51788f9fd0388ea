"""funcgrad.scipy.sparse.linalg beyond cg/gmres/bicgstab, against SciPy: LinearOperator's
algebra, the Krylov solvers bicg, cgs, tfqmr, minres, qmr, gcrotmk and lgmres, the
least-squares lsqr and lsmr (their result tuples), and the dense-underneath
expm_multiply, expm, inv, norm, spsolve, factorized, splu, onenormest, eigsh, eigs and svds.
Derivatives (forward and reverse) against central differences of SciPy's own values; one
vmap, jit and float32 check for the solvers; the errors."""
import warnings

import numpy as np
import pytest

ssl = pytest.importorskip("scipy.sparse.linalg")
import scipy.sparse as sparse  # noqa: E402

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.sparse.linalg as fsl  # noqa: E402

RNG = np.random.default_rng(22)
N = 5
A = RNG.standard_normal((N, N)) + N * np.eye(N)        # nonsymmetric, well conditioned
S = A + A.T                                            # symmetric positive definite
INDEF = S - 10.0 * np.eye(N)                           # symmetric indefinite
B = RNG.standard_normal(N)
EPS = 1e-6


def close(got, want, rtol=1e-9, atol=1e-9):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol)


def central(f, args, directions):
    """Central differences of ``f`` (SciPy's values) along ``directions``."""
    plus = f(*[a + EPS * d for a, d in zip(args, directions)])
    minus = f(*[a - EPS * d for a, d in zip(args, directions)])
    return (np.asarray(plus) - np.asarray(minus)) / (2 * EPS)


def check_derivatives(ours, scipys, args, rtol=1e-6):
    """``ours``' JVP along a random direction, and its VJP by the dot-product test, against
    central differences of ``scipys``."""
    args = [np.asarray(a, float) for a in args]
    directions = [RNG.standard_normal(a.shape) for a in args]
    want = central(scipys, args, directions)
    _, tangent = fg.jvp(ours, tuple(args), tuple(directions))
    close(tangent, want, rtol, rtol * max(1.0, np.abs(want).max()))
    out, pullback = fg.vjp(ours, *args)
    weights = RNG.standard_normal(np.shape(out))
    grads = pullback(weights)
    close(sum(np.sum(g * d) for g, d in zip(grads, directions)), np.sum(weights * want), rtol,
          rtol * max(1.0, np.abs(want).max()))


# --- the square Krylov solvers ---------------------------------------------------------------

SOLVERS = [("bicg", A, {}), ("cgs", A, {}), ("tfqmr", A, {}), ("minres", INDEF, {}),
           ("qmr", A, {}), ("gcrotmk", A, {"m": 3}), ("lgmres", A, {"inner_m": 3})]


@pytest.mark.parametrize("name,matrix,options", SOLVERS, ids=[s[0] for s in SOLVERS])
def test_solver_solution_and_derivatives_match_scipy(name, matrix, options):
    ours, theirs = getattr(fsl, name), getattr(ssl, name)
    x, info = ours(matrix, B, rtol=1e-12, **options)
    want, their_info = theirs(matrix, B, rtol=1e-12, **options)
    assert int(info) == 0 == their_info
    close(x, want, 1e-9)

    def scipy_solution(a, b):
        return theirs(a, b, rtol=1e-14, **options)[0]
    if name == "minres":  # (a symmetric direction: minres reads A as symmetric)
        check_derivatives(lambda a, b: ours((a + a.T) / 2, b, rtol=1e-13)[0],
                          lambda a, b: scipy_solution((a + a.T) / 2, b), [matrix, B])
    else:
        check_derivatives(lambda a, b: ours(a, b, rtol=1e-13, **options)[0], scipy_solution,
                          [matrix, B])


@pytest.mark.parametrize("name", ["bicg", "cgs", "tfqmr"])
def test_solvers_with_a_preconditioner_and_complex_values(name):
    jacobi = np.diag(1 / np.diag(A))
    close(getattr(fsl, name)(A, B, rtol=1e-12, M=jacobi)[0], np.linalg.solve(A, B), 1e-9)
    ac = A + 1j * RNG.standard_normal((N, N))
    bc = B + 0.5j
    close(getattr(fsl, name)(ac, bc, rtol=1e-12)[0], np.linalg.solve(ac, bc), 1e-9)


def test_minres_shift_and_qmr_preconditioners():
    close(fsl.minres(S, B, shift=1.5, rtol=1e-12)[0],
          ssl.minres(S, B, shift=1.5, rtol=1e-12)[0], 1e-8)
    close(fsl.qmr(A, B, rtol=1e-12, M1=np.diag(1 / np.diag(A)), M2=np.eye(N))[0],
          np.linalg.solve(A, B), 1e-9)


def test_solver_differentiates_what_an_operator_closes_over():
    """A LinearOperator built from functions of a parameter: the solution's derivative in
    it, against central differences of SciPy's solve with SciPy's LinearOperator."""
    def make(lib, s):
        return lib.LinearOperator((N, N), matvec=lambda v: A @ v + s * v[::-1],
                                  rmatvec=lambda v: A.T @ v + s * v[::-1])

    def ours(s):
        return fsl.bicg(make(fsl, s), B, rtol=1e-13)[0]

    def theirs(s):
        return ssl.bicg(make(ssl, s), B, rtol=1e-14)[0]
    check_derivatives(ours, theirs, [0.7])


def test_solvers_under_vmap_jit_and_float32():
    bs = np.stack([B, 2 * B - 1])
    close(fg.vmap(lambda b: fsl.tfqmr(A, b, rtol=1e-12)[0])(bs),
          np.linalg.solve(A, bs.T).T, 1e-9)
    close(fg.jit(lambda a, b: fsl.bicg(a, b, rtol=1e-12)[0])(A, B), np.linalg.solve(A, B),
          1e-9)
    x, _ = fsl.cgs(A.astype(np.float32), B.astype(np.float32), rtol=1e-5)
    assert x.dtype == np.float32
    close(x, np.linalg.solve(A, B), 1e-4, 1e-4)


# --- LinearOperator ----------------------------------------------------------------------------

WIDE = RNG.standard_normal((3, N))
ALGEBRA = {
    "matvec": lambda L, a, w: L(a).matvec(B),
    "matvec (N,1)": lambda L, a, w: L(a).matvec(B[:, None]),
    "rmatvec": lambda L, a, w: L(w).rmatvec(B[:3]),
    "matmat": lambda L, a, w: L(w).matmat(a[:, :2]),
    "rmatmat": lambda L, a, w: L(w).rmatmat(a[:3, :2]),
    "@ vector": lambda L, a, w: L(a) @ B,
    "H @": lambda L, a, w: L(w).H @ B[:3],
    "T @": lambda L, a, w: L(w).T.matmat(a[:3]),
    "product": lambda L, a, w: (L(w) @ L(a)).matvec(B),
    "sum and scale": lambda L, a, w: (L(a) + L(a.T) * 2.0 - L(a)).matvec(B),
    "power": lambda L, a, w: (L(a) ** 3).matvec(B),
    "adjoint of product": lambda L, a, w: (L(w) @ L(a)).H.matvec(B[:3]),
    "dot matrix": lambda L, a, w: L(a).dot(a),
}


@pytest.mark.parametrize("expr", list(ALGEBRA))
def test_linear_operator_algebra_matches_scipy(expr):
    got = ALGEBRA[expr](fsl.aslinearoperator, A, WIDE)
    want = ALGEBRA[expr](ssl.aslinearoperator, A, WIDE)
    close(got, want, 1e-12)


def test_linear_operator_from_functions_subclass_and_sparse_input():
    ours = fsl.LinearOperator((3, N), matvec=lambda v: WIDE @ v)
    assert ours.shape == (3, N) and ours.dtype == np.float64
    close(ours.rmatvec(B[:3]), WIDE.T @ B[:3], 1e-12)  # (SciPy's would need rmatvec given)
    close(ours.H.matmat(np.eye(3)), WIDE.T, 1e-12)

    class Diagonal(fsl.LinearOperator):
        def __init__(self, d):
            self.d = d
            super().__init__(d.dtype, (d.size, d.size))

        def _matvec(self, x):
            return self.d * x
    close(Diagonal(B).matmat(np.eye(N)), np.diag(B), 1e-15)
    close(fsl.aslinearoperator(sparse.csr_matrix(A)) @ B, A @ B, 1e-12)
    close(fg.grad(lambda s: (fsl.aslinearoperator(A) * s).matvec(B).sum())(2.0),
          (A @ B).sum(), 1e-12)


# --- lsqr and lsmr ---------------------------------------------------------------------------

LEAST = [((7, 4), 0.0), ((7, 4), 0.5), ((3, 5), 0.0), ((3, 5), 0.3)]


@pytest.mark.parametrize("shape,damp", LEAST, ids=[f"{s}-{d}" for s, d in LEAST])
def test_lsqr_and_lsmr_match_scipy(shape, damp):
    a, b = RNG.standard_normal(shape), RNG.standard_normal(shape[0])
    got = fsl.lsqr(a, b, damp=damp, atol=1e-12, btol=1e-12)
    want = ssl.lsqr(a, b, damp=damp, atol=1e-12, btol=1e-12)
    # x, istop, r1norm, r2norm, arnorm, xnorm; anorm where SciPy's estimate has run its
    # course (a tall A), acond never (SciPy's is an estimate)
    for i in (0, 1, 3, 4, 7, 8) + ((5,) if shape[0] > shape[1] else ()):
        close(got[i], want[i], 1e-8, 1e-8)
    got_m = fsl.lsmr(a, b, damp=damp, atol=1e-12, btol=1e-12)
    want_m = ssl.lsmr(a, b, damp=damp, atol=1e-12, btol=1e-12)
    for i in (0, 3, 4, 7):  # x, normr, normar, normx
        close(got_m[i], want_m[i], 1e-8, 1e-8)
    if shape[0] > shape[1] or damp:  # (var is exact here: (A^T A + damp^2 I)^-1's diagonal)
        var = fsl.lsqr(a, b, damp=damp, calc_var=True, atol=1e-12, btol=1e-12)[9]
        close(var, np.diag(np.linalg.inv(a.T @ a + damp ** 2 * np.eye(shape[1]))), 1e-8)

    def theirs(a, b, d):
        return ssl.lsqr(a, b, damp=float(d), atol=1e-15, btol=1e-15, iter_lim=100)[0]
    check_derivatives(lambda a, b, d: fsl.lsqr(a, b, damp=d, atol=1e-13, btol=1e-13)[0],
                      theirs, [a, b, damp], rtol=1e-5)


# --- dense underneath ----------------------------------------------------------------------------

H = S - 8.0 * np.eye(N)                   # symmetric with eigenvalues of both signs
UPPER = np.diag(np.arange(1.0, N + 1)) + np.triu(RNG.standard_normal((N, N)), 1)
TALL = RNG.standard_normal((6, 4))


@pytest.mark.parametrize("which", ["LM", "SM", "LA", "SA", "BE"])
def test_eigsh_matches_scipy(which):
    close(fsl.eigsh(H, k=3, which=which)[0], ssl.eigsh(H, k=3, which=which)[0], 1e-10)
    w, v = fsl.eigsh(fsl.aslinearoperator(H), k=2, which=which)
    close(H @ v, v * w, 1e-10)


@pytest.mark.parametrize("which", ["LM", "SM", "LR", "SR"])
def test_eigs_matches_scipy(which):
    close(np.sort_complex(fsl.eigs(UPPER, k=2, which=which)[0]),
          np.sort_complex(ssl.eigs(UPPER, k=2, which=which)[0]), 1e-10)


def test_shift_invert_and_generalized_eigenproblems():
    close(fsl.eigsh(H, k=2, sigma=0.5)[0], ssl.eigsh(H, k=2, sigma=0.5)[0], 1e-10)
    m = S + np.eye(N)
    close(fsl.eigsh(H, k=2, M=m)[0], ssl.eigsh(H, k=2, M=m)[0], 1e-10)
    close(np.sort_complex(fsl.eigs(UPPER, k=2, sigma=2.2)[0]),
          np.sort_complex(ssl.eigs(UPPER, k=2, sigma=2.2)[0]), 1e-10)


@pytest.mark.parametrize("which", ["LM", "SM"])
def test_svds_matches_scipy(which):
    u, s, vh = fsl.svds(TALL, k=2, which=which)
    want_u, want_s, want_vh = ssl.svds(TALL, k=2, which=which)
    close(s, want_s, 1e-10)
    close(np.abs(u), np.abs(want_u), 1e-8)
    close(np.abs(vh), np.abs(want_vh), 1e-8)
    assert fsl.svds(TALL, k=2, return_singular_vectors="u")[2] is None


DERIVATIVES = {
    "eigsh": (lambda a: fsl.eigsh((a + a.T) / 2, k=2, which="LA")[0],
              lambda a: ssl.eigsh((a + a.T) / 2, k=2, which="LA")[0], H),
    "svds": (lambda a: fsl.svds(a, k=2, return_singular_vectors=False),
             lambda a: ssl.svds(a, k=2, return_singular_vectors=False), TALL),
    "expm_multiply": (lambda a: fsl.expm_multiply(a / 4, B),
                      lambda a: ssl.expm_multiply(a / 4, B), A),
    "expm_multiply interval": (
        lambda a: fsl.expm_multiply(a / 4, B, start=0.1, stop=0.5, num=3, endpoint=False),
        lambda a: ssl.expm_multiply(a / 4, B, start=0.1, stop=0.5, num=3, endpoint=False), A),
    "expm": (lambda a: fsl.expm(a / 4),
             lambda a: ssl.expm(sparse.csc_matrix(a / 4)).toarray(), A),
    "inv": (fsl.inv, lambda a: ssl.inv(sparse.csc_matrix(a)).toarray(), A),
    "spsolve": (lambda a: fsl.spsolve(a, B), lambda a: ssl.spsolve(sparse.csc_matrix(a), B),
                A),
    "factorized": (lambda a: fsl.factorized(a)(B),
                   lambda a: ssl.factorized(sparse.csc_matrix(a))(B), A),
    "norm": (lambda a: fsl.norm(a, 1), lambda a: ssl.norm(sparse.csr_matrix(a), 1), A),
    "onenormest": (fsl.onenormest, ssl.onenormest, A),
}


@pytest.mark.parametrize("name", list(DERIVATIVES))
def test_dense_functions_values_and_derivatives_match_scipy(name):
    ours, theirs, matrix = DERIVATIVES[name]
    close(ours(matrix), theirs(matrix), 1e-8)
    check_derivatives(ours, theirs, [matrix], rtol=1e-5)


def test_splu_norms_and_inputs():
    lu = fsl.splu(A)
    want = ssl.splu(sparse.csc_matrix(A), permc_spec="NATURAL")
    close(lu.perm_r, want.perm_r, 0)
    close(lu.L, want.L.toarray(), 1e-12)
    close(lu.U, want.U.toarray(), 1e-12)
    for trans in "NTH":
        close(lu.solve(B, trans=trans), want.solve(B, trans=trans), 1e-12)
    for ord_ in [None, "fro", np.inf, -np.inf, -1]:
        close(fsl.norm(A, ord_), ssl.norm(sparse.csr_matrix(A), ord_), 1e-12)
    close(fsl.norm(A, 3, axis=0), ssl.norm(sparse.csr_matrix(A), 3, axis=0), 1e-12)
    est, v, w = fsl.onenormest(A, compute_v=True, compute_w=True)
    want_est, want_v, want_w = ssl.onenormest(A, compute_v=True, compute_w=True)
    close(est, want_est, 1e-12), close(v, want_v, 0), close(w, want_w, 1e-12)
    close(fsl.spsolve(sparse.csc_matrix(A), B), np.linalg.solve(A, B), 1e-12)


def test_errors_name_the_problem():
    with pytest.raises(NotImplementedError, match="callback"):
        fsl.bicg(A, B, callback=print)
    with pytest.raises(NotImplementedError, match="CU"):
        fsl.gcrotmk(A, B, CU=[])
    with pytest.raises(NotImplementedError, match="outer_v"):
        fsl.lgmres(A, B, outer_v=[])
    with pytest.raises(ValueError, match="square matrix"):
        fsl.cgs(WIDE, B)
    with pytest.raises(ValueError, match="b must have shape"):
        fsl.lsqr(WIDE, B)
    with pytest.raises(ValueError, match="dimension mismatch"):
        fsl.aslinearoperator(WIDE).matvec(B[:3])
    with pytest.raises(ValueError, match="which"):
        fsl.eigsh(H, k=2, which="LR")
    with pytest.raises(NotImplementedError, match="buckling"):
        fsl.eigsh(H, k=2, sigma=1.0, mode="buckling")
    with pytest.raises(ValueError, match="0 < k < min"):
        fsl.svds(TALL, k=4)
    with pytest.raises(TypeError, match="no shape"):
        fsl.aslinearoperator(lambda v: v)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        close(fsl.eigsh(H, k=N)[0], np.linalg.eigvalsh(H), 1e-10)
    assert any("k >= N" in str(w.message) for w in caught)


def test_a_traced_scalar_times_an_operator_is_the_operators_rmul():
    # (the operator opts out of NumPy's operators, __array_ufunc__ = None: the tracer's
    # operator returns NotImplemented, as an ndarray's does, and Python calls __rmul__)
    A = np.array([[2.0, 1.0], [0.0, 3.0]])
    v = np.array([1.0, -1.0])
    op = fsl.aslinearoperator(A)
    for scale in (lambda s: s * op, lambda s: op * s):
        got = fg.grad(lambda s: fg.numpy.sum(scale(s).matvec(v)))(2.0)
        np.testing.assert_allclose(got, np.sum(A @ v))
