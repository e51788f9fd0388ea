"""The rest of scipy.linalg (SciPy 1.17) in funcgrad.scipy.linalg, and SciPy 1.17's stacks
of matrices: values against scipy.linalg (float64 to 1e-12 relative to the largest entry,
dtypes as SciPy's), derivatives against central differences and the dot-product test, and
errors that name the fix where a derivative does not exist."""
import warnings

import numpy as np
import pytest

sl = pytest.importorskip("scipy.linalg")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.linalg as fsl  # noqa: E402
from helpers import check_dot_product, check_jvp_fd, check_second_order  # noqa: E402

RNG = np.random.default_rng(117)
STACK = RNG.standard_normal((3, 4, 4))
SPD_STACK = STACK @ np.swapaxes(STACK, -1, -2) + np.eye(4)
RHS = RNG.standard_normal((3, 4, 2))
A = RNG.standard_normal((4, 4))
SPD = A @ A.T + np.eye(4)
WIDE = RNG.standard_normal((3, 5))
TALL = RNG.standard_normal((5, 3))
CPLX = RNG.standard_normal((4, 4)) + 1j * RNG.standard_normal((4, 4))


def close(got, want, rtol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=0, atol=rtol * max(np.max(np.abs(want),
                                                                          initial=0), 1e-300))


def same(got, want, rtol=1e-12):
    """Equal values and dtypes, output by output (tuples and single arrays)."""
    got = got if isinstance(got, (tuple, list)) else (got,)
    want = want if isinstance(want, (tuple, list)) else (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert np.asarray(g).dtype == w.dtype, (np.asarray(g).dtype, w.dtype)
        close(g, w, rtol)


def traced(f, *args):
    """``f``'s value on traced inputs (the differentiable route, not SciPy's own)."""
    return fg.vjp(f, *args)[0]


def gram(x):
    return x @ fnp.swapaxes(x, -1, -2) + np.eye(x.shape[-1])


# --- stacks (..., n, n), as SciPy 1.17 takes them ---------------------------------------------

STACKED = {
    "solve_triangular": lambda m, x: m.solve_triangular(x + 4 * np.eye(4), RHS, lower=True),
    "solve_triangular_vector": lambda m, x: m.solve_triangular(x + 4 * np.eye(4),
                                                               RHS[0, :, 0], trans=1),
    "cho_solve": lambda m, x: m.cho_solve(m.cho_factor(gram(x)), RHS),
    "lu_factor": lambda m, x: m.lu_factor(x)[0],
    "lu_solve": lambda m, x: m.lu_solve(m.lu_factor(x), RHS, trans=1),
    "lu": lambda m, x: m.lu(x)[1:],
    "lu_p_indices": lambda m, x: m.lu(x[:, :, :3], p_indices=True)[1:],
    "eigh_generalized": lambda m, x: m.eigh(SPD, gram(x), eigvals_only=True),
    "eig": lambda m, x: abs(m.eig(x, right=False)),
    "sqrtm": lambda m, x: m.sqrtm(gram(x)),
    "logm": lambda m, x: m.logm(gram(x)),
    "funm": lambda m, x: m.funm(gram(x), np.sin),
    "solve_sylvester": lambda m, x: m.solve_sylvester(x, SPD, STACK[0]),
    "pinv_atol": lambda m, x: m.pinv(x, atol=0.5),
    "block_diag": lambda m, x: m.block_diag(x, x[:1, :2], 3.0),
    "qr_multiply": lambda m, x: m.qr_multiply(x, RHS[0].T)[0],
}


@pytest.mark.parametrize("name", sorted(STACKED))
def test_stacks_match_scipy_and_differentiate(name):
    f = STACKED[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (SciPy's sqrtm/logm accuracy notes)
        want = f(sl, STACK)
    same(f(fsl, STACK), want, 1e-11)
    same(traced(lambda x: f(fsl, x), STACK), want, 1e-11)
    # (pinv's cutoff drops nonzero singular values here, where its derivative is not the
    # pseudo-inverse's rule: the values show the cutoff is per matrix)
    if name not in ("lu_factor", "lu_p_indices", "pinv_atol"):
        check_jvp_fd(lambda x: f(fsl, x), [STACK], RNG)


def test_stacks_broadcast_and_refuse_empty_batches():
    # (a batch of a against one right-hand side, a batch of rhs against one matrix)
    close(fsl.solve_triangular(STACK, RHS[0]), sl.solve_triangular(STACK, RHS[0]))
    close(fsl.solve_triangular(STACK[0], RHS), sl.solve_triangular(STACK[0], RHS))
    lu, piv = fsl.lu_factor(STACK)
    assert piv.shape == (3, 4) and piv.dtype == np.int32
    with pytest.raises(ValueError, match="zero-size batches"):
        fsl.lu_factor(np.zeros((0, 3, 3)))
    with pytest.raises(ValueError, match="square"):
        fsl.sqrtm(np.ones((2, 3, 4)))
    g = fg.vmap(fg.grad(lambda x: fnp.sum(fsl.lu(x)[2])))(STACK)
    close(g, np.stack([fg.grad(lambda x: fnp.sum(fsl.lu(x)[2]))(x) for x in STACK]))


# --- special matrices -------------------------------------------------------------------------

VEC, VEC3 = RNG.standard_normal(5), RNG.standard_normal(3)
MAT23 = RNG.standard_normal((2, 3))
SPECIAL = [
    ("toeplitz", (VEC,), {}), ("toeplitz", (VEC, VEC3), {}), ("toeplitz", (VEC + 1j * VEC,), {}),
    ("toeplitz", (MAT23, RNG.standard_normal((2, 4))), {}), ("toeplitz", (3.0,), {}),
    ("toeplitz", (VEC.astype(np.float32),), {}), ("circulant", (VEC,), {}),
    ("circulant", (RNG.standard_normal((2, 3, 4)),), {}), ("circulant", ([1, 2, 3],), {}),
    ("hankel", (VEC,), {}), ("hankel", (VEC, VEC3), {}), ("hankel", ([1, 2], [3, 4, 5]), {}),
    ("leslie", (RNG.standard_normal(4), VEC3), {}), ("leslie", (MAT23, [0.5, 0.2]), {}),
    ("leslie", ([1, 2], [1]), {}), ("leslie", (np.float32([1, 2]), np.float32([0.5])), {}),
    ("companion", (VEC,), {}), ("companion", (MAT23,), {}), ("companion", ([1, 2, 3],), {}),
    ("companion", (np.float32([1, 2, 3]),), {}), ("fiedler", (VEC,), {}),
    ("fiedler", ([1, 2, 3],), {}), ("fiedler", (MAT23,), {}), ("fiedler", ([],), {}),
    ("fiedler", ([5.0],), {}), ("fiedler_companion", (RNG.standard_normal((2, 7)),), {}),
    ("fiedler_companion", ([1, 2],), {}), ("fiedler_companion", ([1],), {}),
    ("convolution_matrix", (MAT23, 4), {}), ("convolution_matrix", ([1, 2, 3], 4, "same"), {}),
    ("convolution_matrix", (np.float32([1, 2, 3]), 2), {}),
    ("khatri_rao", (MAT23, RNG.standard_normal((4, 3))), {}),
    ("khatri_rao", (RNG.standard_normal((2, 2, 3)), RNG.standard_normal((4, 3))), {}),
    ("khatri_rao", (np.ones((2, 0)), np.ones((3, 0))), {}),
    ("khatri_rao", ([[1, 2]], [[3, 4]]), {}),
    ("diagsvd", ([1.0, 2.0], 2, 3), {}), ("diagsvd", ([1.0, 2.0], 3, 2), {}),
    ("diagsvd", (MAT23, 3, 4), {}), ("hadamard", (8,), {}), ("hadamard", (4,), {"dtype": float}),
    ("helmert", (5,), {}), ("helmert", (5,), {"full": True}), ("hilbert", (6,), {}),
    ("hilbert", (0,), {}), ("invhilbert", (6,), {}), ("invhilbert", (6,), {"exact": True}),
    ("invhilbert", (16,), {"exact": True}), ("dft", (5,), {}), ("dft", (4,), {"scale": "sqrtn"}),
    ("dft", (3,), {"scale": "n"}),
] + [(name, (n, kind), {"exact": exact}) for name in ("pascal", "invpascal")
     for kind in ("symmetric", "lower", "upper") for n in (0, 5, 36) for exact in (True, False)]


@pytest.mark.parametrize("name,args,kw", SPECIAL, ids=[s[0] for s in SPECIAL])
def test_special_matrices_match_scipy(name, args, kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        want, got = getattr(sl, name)(*args, **kw), getattr(fsl, name)(*args, **kw)
    if want.dtype == object:
        assert got.dtype == object and np.array_equal(got, want)
    else:
        same(got, want, 1e-13)


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
def test_convolution_matrix_matches_scipy_and_convolves(mode):
    for n in (1, 2, 3, 5, 7):
        m = fsl.convolution_matrix(VEC, n, mode)
        same(m, sl.convolution_matrix(VEC, n, mode))
        v = RNG.standard_normal(n)
        close(m @ v, np.convolve(VEC, v, mode))
    for n in range(9):  # every branch of the pentadiagonal pattern
        c = RNG.standard_normal(n)
        same(fsl.fiedler_companion(c), sl.fiedler_companion(c))


SPECIAL_GRADS = [
    (lambda c, r: fsl.toeplitz(c, r), [VEC, VEC3]),
    (lambda c: fsl.toeplitz(c[None, :] * np.array([[1.0], [2.0]])), [VEC]),
    (lambda c: fsl.circulant(c), [VEC]),
    (lambda c, r: fsl.hankel(c, r), [VEC, VEC3]),
    (lambda f, s: fsl.leslie(f, s), [RNG.standard_normal(4), VEC3]),
    (lambda a: fsl.companion(a), [VEC]),
    (lambda a: fsl.fiedler(a), [VEC]),
    (lambda a: fsl.fiedler_companion(a), [RNG.standard_normal(7)]),
    (lambda a: fsl.convolution_matrix(a, 4, "same"), [VEC]),
    (lambda a, b: fsl.khatri_rao(a, b), [MAT23, RNG.standard_normal((4, 3))]),
    (lambda s: fsl.diagsvd(s, 3, 4), [VEC3]),
]


@pytest.mark.parametrize("f,args", SPECIAL_GRADS, ids=range(len(SPECIAL_GRADS)))
def test_special_matrices_differentiate(f, args):
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)


def test_special_matrices_errors_and_warnings():
    with pytest.warns(FutureWarning, match="ravel"):
        fsl.hankel(MAT23)
    with pytest.raises(ValueError, match="must not be zero"):
        fsl.companion([0.0, 1.0])
    with pytest.raises(ValueError, match="one shorter"):
        fsl.leslie([1.0, 2.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="power of 2"):
        fsl.hadamard(3)
    with pytest.raises(ValueError, match="M .* or N"):
        fsl.diagsvd([1.0, 2.0], 3, 3)
    with pytest.raises(ValueError, match="mode must be"):
        fsl.convolution_matrix(VEC, 2, "middle")


# --- matrix functions -------------------------------------------------------------------------

SMALL = 0.6 * A  # (norm ~2: expm's approximant agrees with SciPy's to rounding)
SMALL_C = 0.4 * CPLX
TRIG = ["cosm", "sinm", "tanm", "coshm", "sinhm", "tanhm"]


@pytest.mark.parametrize("name", TRIG)
def test_trigonometric_matrix_functions_match_scipy(name):
    f, ref = getattr(fsl, name), getattr(sl, name)
    for x in (SMALL, SMALL_C, 0.5 * STACK, [[0, 1], [-1, 0]]):
        same(f(x), ref(x))
    for x in (SMALL.astype(np.float32), SMALL_C.astype(np.complex64)):
        same(f(x), ref(x), 1e-5)
    same(traced(f, SMALL), ref(SMALL))
    check_jvp_fd(f, [SMALL], RNG)
    check_dot_product(f, [SMALL], RNG)
    check_jvp_fd(lambda x: fnp.real(f(x * (1 + 0.5j))), [SMALL], RNG)


def test_trigonometric_identities_and_second_order():
    c, s = fsl.cosm(SMALL), fsl.sinm(SMALL)
    close(c @ c + s @ s, np.eye(4), 1e-13)
    check_second_order(fsl.cosm, [SMALL], RNG)
    close(fg.vmap(fsl.sinhm)(STACK), sl.sinhm(STACK))


def frechet(f, a, e):
    """L(A, E): the top right block of f([[A, E], [0, A]]) (SciPy's values)."""
    n = a.shape[0]
    return f(np.block([[a, e], [np.zeros_like(a), a]]))[:n, n:]


HAS_NEG = np.array([[-0.5, 0.3, -0.3], [1.6, 1.3, 0.6], [-2.2, 0.1, 0.7]])  # w: -1.16, 1.3+-0.1i
ROT = np.array([[1.0, -2.0, 0.3], [3.0, 0.5, -0.2], [0.1, 0.4, 2.0]])  # w: a +- bi, c > 0


def test_signm_matches_scipy_and_its_derivative_is_the_frechet_derivative():
    for x in (HAS_NEG, ROT - np.eye(3), CPLX, STACK):
        same(traced(fsl.signm, x), sl.signm(x), 1e-11)
        same(fsl.signm(x), sl.signm(x))
    e = RNG.standard_normal((3, 3))
    close(fg.jvp(fsl.signm, (HAS_NEG,), (e,))[1], frechet(sl.signm, HAS_NEG, e), 1e-10)
    check_jvp_fd(fsl.signm, [HAS_NEG], RNG)
    check_dot_product(fsl.signm, [HAS_NEG], RNG)
    s, err = traced(lambda x: fsl.signm(x, disp=False), HAS_NEG)
    assert 0 <= err < 1e-12
    with pytest.raises(ValueError, match="imaginary axis"):
        fg.grad(lambda x: fnp.sum(fsl.signm(x)))(np.array([[0.0, 1.0], [-1.0, 0.0]]))


@pytest.mark.parametrize("t", [0.5, -0.3, 1.7, 2, -1])
def test_fractional_matrix_power_matches_scipy(t):
    for x in (HAS_NEG, ROT, SPD, CPLX, STACK):  # real, complex and stacks; SciPy's dtypes
        same(traced(lambda x: fsl.fractional_matrix_power(x, t), x),
             sl.fractional_matrix_power(x, t), 1e-11)
    same(fsl.fractional_matrix_power(SPD, t), sl.fractional_matrix_power(SPD, t))


def test_fractional_matrix_power_derivatives():
    e = RNG.standard_normal((4, 4))
    power = lambda x: sl.fractional_matrix_power(x, 0.3)  # noqa: E731
    close(fg.jvp(lambda x: fsl.fractional_matrix_power(x, 0.3), (SPD,), (e,))[1],
          frechet(power, SPD, e), 1e-9)
    check_jvp_fd(lambda x: fsl.fractional_matrix_power(x, 0.3), [SPD], RNG)
    check_jvp_fd(lambda x: fnp.imag(fsl.fractional_matrix_power(x, 0.3)), [HAS_NEG], RNG)
    # in t: d/dt A^t = A^t log(A)
    got = fg.grad(lambda t: fnp.sum(fsl.fractional_matrix_power(SPD, t)))(0.7)
    close(got, np.sum(sl.fractional_matrix_power(SPD, 0.7) @ sl.logm(SPD)), 1e-11)
    check_second_order(lambda x: fsl.fractional_matrix_power(x, 0.5), [SPD], RNG)
    with pytest.raises(ValueError, match="singular"):
        fg.grad(lambda x: fnp.sum(fsl.fractional_matrix_power(x, 0.5)))(np.diag([1.0, 0.0]))
    with pytest.raises(fg.ConcretizationError, match=r"a.astype\(complex\)"):
        fg.vmap(lambda x: fsl.fractional_matrix_power(x, 0.5))(SPD_STACK)


def test_expm_frechet_and_expm_cond_match_scipy():
    e = RNG.standard_normal((4, 4))
    for x in (SMALL, 5 * SMALL, SMALL_C):
        same(fsl.expm_frechet(x, e), sl.expm_frechet(x, e), 1e-11)
        same(fsl.expm_frechet(x, e, method="blockEnlarge", compute_expm=False),
             sl.expm_frechet(x, e, compute_expm=False), 1e-11)
        close(fsl.expm_cond(x), sl.expm_cond(x), 1e-11)
    same(fsl.expm_frechet(0.5 * STACK, e), sl.expm_frechet(0.5 * STACK, e), 1e-11)
    close(fsl.expm_cond(0.5 * STACK), sl.expm_cond(0.5 * STACK), 1e-11)
    check_jvp_fd(lambda x, e: fsl.expm_frechet(x, e, compute_expm=False), [SMALL, e], RNG)
    check_dot_product(lambda x, e: fsl.expm_frechet(x, e), [SMALL, e], RNG)
    check_jvp_fd(fsl.expm_cond, [SMALL], RNG)
    with pytest.raises(ValueError, match="unknown method"):
        fsl.expm_frechet(SMALL, e, method="x")


# --- eigvals, polar, orthogonal_procrustes, rq, hessenberg, cdf2rdf ---------------------------

BMAT = 2 * np.eye(4) + 0.3 * RNG.standard_normal((4, 4))
CTALL = RNG.standard_normal((5, 3)) + 1j * RNG.standard_normal((5, 3))
SHAPES = {"square": A, "tall": TALL, "wide": WIDE, "complex": CPLX, "complex_tall": CTALL,
          "stack": STACK}


def test_eigvals_matches_scipy():
    for x in (A, CPLX, STACK):
        same(traced(fsl.eigvals, x), sl.eigvals(x))
    same(traced(lambda a: fsl.eigvals(a, BMAT), A), sl.eigvals(A, BMAT))
    same(traced(lambda a: fsl.eigvals(a, homogeneous_eigvals=True), A),
         sl.eigvals(A, homogeneous_eigvals=True))
    check_jvp_fd(lambda a: fnp.abs(fsl.eigvals(a)), [A], RNG)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_polar_rq_and_hessenberg_match_scipy(shape):
    x = SHAPES[shape]
    for side in ("right", "left"):
        same(traced(lambda x: fsl.polar(x, side), x), sl.polar(x, side))
    for mode in ("full", "economic", "r"):
        same(traced(lambda x: fsl.rq(x, mode=mode), x), sl.rq(x, mode=mode))
    if x.shape[-1] == x.shape[-2]:
        same(traced(lambda x: fsl.hessenberg(x, calc_q=True), x),
             sl.hessenberg(x, calc_q=True))
        same(traced(lambda x: fsl.orthogonal_procrustes(x, BMAT), x),
             sl.orthogonal_procrustes(x, BMAT))
    for x32 in (A.astype(np.float32), CPLX.astype(np.complex64)):
        same(fsl.polar(x32), sl.polar(x32), 1e-5)
        same(fsl.rq(x32), sl.rq(x32), 1e-5)
        same(fsl.hessenberg(x32, calc_q=True), sl.hessenberg(x32, calc_q=True), 1e-5)


def test_small_and_empty_cases_are_scipys():
    two = np.array([[1, 2], [3, 4]])
    same(fsl.hessenberg(two, calc_q=True), sl.hessenberg(two, calc_q=True))
    h6 = RNG.standard_normal((6, 6))
    same(fsl.hessenberg(h6, calc_q=True), sl.hessenberg(h6, calc_q=True))
    for mode in ("full", "economic"):
        assert [x.shape for x in fsl.rq(np.zeros((0, 3)), mode=mode)] == \
            [x.shape for x in sl.rq(np.zeros((0, 3)), mode=mode)]


POLAR_CASES = [(TALL, "right"), (TALL, "left"), (WIDE, "right"), (WIDE, "left"), (A, "right"),
               (CTALL, "right"), (CTALL, "left")]


@pytest.mark.parametrize("x,side", POLAR_CASES, ids=[f"{x.shape}{x.dtype.kind}-{s}"
                                                     for x, s in POLAR_CASES])
def test_polar_derivatives(x, side):
    if x.dtype.kind == "c":  # real and imaginary parts of both factors
        def f(re, im):
            u, p = fsl.polar(re + 1j * im, side)
            return fnp.real(u), fnp.imag(u), fnp.real(p), fnp.imag(p)
        args = [x.real, x.imag]
    else:
        f, args = (lambda a: fsl.polar(a, side)), [x]
    check_jvp_fd(f, args, RNG)
    check_dot_product(f, args, RNG)


def test_polar_is_differentiable_where_singular_values_tie():
    # (through the SVD's derivative the unitary factor would not move at all here: its rule
    # drops the rotation within equal singular values; the polar factor is unique)
    ortho = np.linalg.qr(A)[0]
    for x in (np.eye(3), 2 * ortho, np.diag([3.0, 3.0, 1.0])):
        check_jvp_fd(lambda a: fsl.polar(a), [x], RNG)
    e = RNG.standard_normal((3, 3))
    close(fg.jvp(lambda a: fsl.polar(a)[0], (np.eye(3),), (e,))[1], (e - e.T) / 2, 1e-14)
    check_second_order(lambda a: fsl.polar(a)[0], [A], RNG)
    with pytest.raises(ValueError, match="rank-deficient"):
        fg.grad(lambda a: fnp.sum(fsl.polar(a)[0]))(np.diag([1.0, 0.0]))
    check_jvp_fd(lambda a, b: fsl.orthogonal_procrustes(a, b), [A, BMAT], RNG)


@pytest.mark.parametrize("x", [A, TALL, WIDE], ids=["square", "tall", "wide"])
def test_rq_and_hessenberg_derivatives(x):
    for mode in ("economic", "r") if x.shape != (4, 4) else ("full", "r"):
        check_jvp_fd(lambda a: fsl.rq(a, mode=mode), [x], RNG)
    if x.shape == (4, 4):
        f = lambda a: fsl.hessenberg(a, calc_q=True)  # noqa: E731
        check_jvp_fd(f, [x], RNG)
        check_dot_product(f, [x], RNG)
        check_jvp_fd(lambda re, im: fnp.abs(fsl.hessenberg(re + 1j * im)), [x, x[::-1]], RNG)


def test_hessenberg_of_a_reduced_column_has_no_derivative():
    tridiagonal = np.diag([1.0, 2.0, 3.0, 4.0]) + np.diag([1.0, 1.0, 1.0], 1) + np.diag(
        [1.0, 1.0, 1.0], -1)
    close(fsl.hessenberg(tridiagonal), sl.hessenberg(tridiagonal))
    with pytest.raises(ValueError, match="already reduced"):
        fg.grad(lambda a: fnp.sum(fsl.hessenberg(a)))(tridiagonal)


def test_cdf2rdf_matches_scipy_and_differentiates():
    w, v = sl.eig(np.array([[1.0, -2.0, 0.3, 0.1], [3.0, 0.5, -0.2, 0.0],
                            [0.1, 0.4, 2.0, 1.0], [0.0, 0.2, -1.5, 1.0]]))
    assert np.sum(w.imag != 0) == 4
    same(fsl.cdf2rdf(w, v), sl.cdf2rdf(w, v))
    ws, vs = sl.eig(STACK)
    same(fsl.cdf2rdf(ws, vs), sl.cdf2rdf(ws, vs))
    check_jvp_fd(lambda wr, wi, vr, vi: fsl.cdf2rdf(wr + 1j * wi, vr + 1j * vi),
                 [w.real, w.imag, v.real, v.imag], RNG)
    with pytest.raises(ValueError, match="conjugate"):
        fsl.cdf2rdf(np.array([1.0, 1j]), np.eye(2))


# --- orth, null_space, lstsq, subspace_angles -------------------------------------------------

RANK2 = TALL[:, :2] @ RNG.standard_normal((2, 3))  # (5, 3), rank 2
SUBSPACE_INPUTS = {"tall": TALL, "wide": WIDE, "rank2": RANK2, "complex": CPLX, "stack": STACK,
                   "ones": np.ones((3, 3))}


@pytest.mark.parametrize("name", sorted(SUBSPACE_INPUTS))
def test_orth_null_space_lstsq_match_scipy(name):
    x = SUBSPACE_INPUTS[name]
    same(fsl.orth(x), sl.orth(x))
    same(fsl.null_space(x), sl.null_space(x))
    same(fsl.null_space(x, lapack_driver="gesvd"), sl.null_space(x, lapack_driver="gesvd"))
    if x.ndim == 2:  # (a stack whose ranks differ cannot stack, SciPy's neither)
        same(fsl.orth(x, rcond=0.3), sl.orth(x, rcond=0.3))
    for b in (RNG.standard_normal(x.shape[-2]), RNG.standard_normal(x.shape[-2:-1] + (2,))):
        for driver in ("gelsd", "gelss"):
            got, want = fsl.lstsq(x, b, lapack_driver=driver), sl.lstsq(x, b,
                                                                         lapack_driver=driver)
            same(got[:2] + got[3:], want[:2] + want[3:], 1e-11)
            assert np.array_equal(got[2], want[2])
        x_got, res, rank, s = fsl.lstsq(x, b, lapack_driver="gelsy")
        close(x_got, sl.lstsq(x, b, lapack_driver="gelsy")[0], 1e-11)
        assert s is None and res.shape == x.shape[:-2] + (0,)
    if x.ndim == 2 and name not in ("rank2", "ones"):
        y = RNG.standard_normal((x.shape[0], 2))
        same(traced(lambda x: fsl.subspace_angles(x, y), x), sl.subspace_angles(x, y))
        same(traced(fsl.orth, x), sl.orth(x))
        same(traced(fsl.null_space, x), sl.null_space(x))


def test_lstsq_edge_cases_are_scipys():
    for a, b in ((np.zeros((0, 3)), np.zeros(0)), (np.zeros((3, 0)), np.ones(3)),
                 (TALL.astype(np.float32), np.ones(5, np.float32))):
        got, want = fsl.lstsq(a, b), sl.lstsq(a, b)
        same((got[0], got[1], got[3]), (want[0], want[1], want[3]), 1e-5)
        assert got[2] == want[2]
    with pytest.raises(ValueError, match="same number of rows"):
        fsl.lstsq(TALL, np.ones(4))
    with pytest.raises(ValueError, match="driver"):
        fsl.lstsq(TALL, np.ones(5), lapack_driver="gelsx")


def projector(q):
    return q @ fnp.conj(fnp.swapaxes(q, -1, -2))


def test_subspace_derivatives():
    check_jvp_fd(fsl.orth, [TALL], RNG)  # distinct singular values: each column (up to sign)
    check_jvp_fd(lambda a: projector(fsl.orth(a)), [TALL], RNG)
    check_jvp_fd(fsl.null_space, [WIDE[:, :4]], RNG)  # a (4,)-vector: its own derivative
    check_jvp_fd(lambda a: projector(fsl.null_space(a)), [WIDE], RNG)  # dimension 2
    check_dot_product(lambda a: projector(fsl.null_space(a)), [WIDE], RNG)
    y = RNG.standard_normal((5, 2))
    check_jvp_fd(lambda a, b: fsl.subspace_angles(a, b), [TALL, y], RNG)
    check_jvp_fd(lambda a, b: fsl.lstsq(a, b)[:2], [TALL, RNG.standard_normal((5, 2))], RNG)
    check_jvp_fd(lambda a, b: fsl.lstsq(a, b)[0], [WIDE, RNG.standard_normal(3)], RNG)
    check_dot_product(lambda a, b: fsl.lstsq(a, b)[:2], [TALL, RNG.standard_normal(5)], RNG)


def test_rank_deficient_subspaces_have_no_derivative():
    for f in (fsl.orth, fsl.null_space, lambda a: fsl.subspace_angles(a, TALL)):
        with pytest.raises(ValueError, match="rank-deficient"):
            fg.grad(lambda a: fnp.sum(fnp.abs(f(a))))(RANK2)
    # (a full-rank square matrix: empty null space, nothing to differentiate)
    assert fg.grad(lambda a: fnp.sum(fsl.null_space(a)) + fnp.sum(a))(A).shape == (4, 4)
    with pytest.raises(fg.ConcretizationError, match="outside vmap/jit"):
        fg.vmap(fsl.orth)(STACK)


# --- Lyapunov and Riccati equations -----------------------------------------------------------

STABLE = A - 3 * np.eye(4)
SYM = SPD - 2 * np.eye(4)


def test_lyapunov_equations_match_scipy():
    for a, q in ((STABLE, SYM), (STABLE + 1j * A.T, SYM), (STACK - 3 * np.eye(4), SYM),
                 (STABLE.astype(np.float32), SYM.astype(np.float32))):
        rtol = 1e-5 if a.dtype == np.float32 else 1e-12
        same(fsl.solve_continuous_lyapunov(a, q), sl.solve_continuous_lyapunov(a, q), rtol)
        for method in (None, "direct", "bilinear"):
            same(fsl.solve_discrete_lyapunov(a / 4, q, method),
                 sl.solve_discrete_lyapunov(a / 4, q, method), rtol)
    big = RNG.standard_normal((11, 11)) / 5  # (n >= 10: SciPy's bilinear by default)
    same(fsl.solve_discrete_lyapunov(big, np.eye(11)), sl.solve_discrete_lyapunov(big, np.eye(11)))
    assert fsl.solve_lyapunov is fsl.solve_continuous_lyapunov
    with pytest.raises(ValueError, match="unknown solver"):
        fsl.solve_discrete_lyapunov(STABLE, SYM, "schur")


@pytest.mark.parametrize("f", [fsl.solve_continuous_lyapunov,
                               lambda a, q: fsl.solve_discrete_lyapunov(a / 4, q),
                               lambda a, q: fsl.solve_discrete_lyapunov(a / 4, q, "bilinear")],
                         ids=["continuous", "discrete", "bilinear"])
def test_lyapunov_derivatives(f):
    check_jvp_fd(f, [STABLE, SYM], RNG)
    check_dot_product(f, [STABLE, SYM], RNG)


ARE_B = RNG.standard_normal((3, 2))
ARE_ARGS = [RNG.standard_normal((3, 3)), ARE_B, np.eye(3), np.eye(2),
            np.eye(3) + 0.1 * RNG.standard_normal((3, 3)), 0.1 * RNG.standard_normal((3, 2))]
ARE_KW = [{}, {"e": 4}, {"s": 5}, {"e": 4, "s": 5}]


@pytest.mark.parametrize("kind", ["continuous", "discrete"])
@pytest.mark.parametrize("kw", ARE_KW, ids=["plain", "e", "s", "e_s"])
def test_riccati_equations_match_scipy_and_differentiate(kind, kw):
    f, ref = getattr(fsl, f"solve_{kind}_are"), getattr(sl, f"solve_{kind}_are")

    def call(solver, a, b, q, r, e, s):  # Q and R Hermitian, as SciPy requires
        q, r = q @ q.T + np.eye(3), r @ r.T + np.eye(2)
        return solver(a, b, q, r, **{k: (e, s)[i - 4] for k, i in kw.items()})

    same(traced(lambda *x: call(f, *x), *ARE_ARGS), call(ref, *ARE_ARGS), 1e-11)
    check_jvp_fd(lambda *x: call(f, *x), ARE_ARGS, RNG)
    check_dot_product(lambda *x: call(f, *x), ARE_ARGS, RNG)


def test_riccati_second_order_complex_and_hermitian_gradients():
    args = ARE_ARGS[:4]
    check_second_order(lambda a: fsl.solve_continuous_are(a, *args[1:]), [args[0]], RNG)
    g = fg.grad(lambda q: fnp.sum(fsl.solve_discrete_are(args[0], args[1], q, args[3])
                                  * SPD[:3, :3]))(np.eye(3))
    close(g, g.T, 1e-14)  # (a skew part of Q moves nothing: SciPy takes Q Hermitian)
    c = args[0] + 0.5j * RNG.standard_normal((3, 3))
    same(traced(lambda a: fsl.solve_continuous_are(a, *args[1:]), c),
         sl.solve_continuous_are(c, *args[1:]), 1e-11)
    check_jvp_fd(lambda re, im: fnp.real(fsl.solve_discrete_are(re + 1j * im, *args[1:])),
                 [c.real, c.imag], RNG)
    with pytest.raises(fg.ConcretizationError, match="outside vmap/jit"):
        fg.vmap(lambda a: fsl.solve_continuous_are(a, *args[1:]))(np.stack([args[0]] * 2))


# --- ldl, matrix_balance, and the structure predicates ----------------------------------------

INDEF = np.array([[0.1, 2.0, 0.3, 0.5], [2.0, 0.2, 1.0, -0.4], [0.3, 1.0, 3.0, 0.7],
                  [0.5, -0.4, 0.7, -0.1]])  # lower: a 2 x 2 block; upper: a permutation
HERM = INDEF + 0.3j * (np.triu(A, 1) - np.triu(A, 1).T)


@pytest.mark.parametrize("lower", [True, False])
def test_ldl_matches_scipy(lower):
    for a, hermitian in ((INDEF, True), (A, True), (HERM, True), (HERM, False),
                         (CPLX, False), (STACK, True)):
        got = traced(lambda a: fsl.ldl(a, lower=lower, hermitian=hermitian), a)
        want = sl.ldl(a, lower=lower, hermitian=hermitian)
        same(got, want)
        close(got[0] @ got[1] @ np.swapaxes(got[0].conj() if hermitian else got[0], -1, -2),
              sl.ldl(a, lower=lower, hermitian=hermitian)[0] @ want[1]
              @ np.swapaxes(want[0].conj() if hermitian else want[0], -1, -2))
    assert np.any(sl.ldl(INDEF)[1][1, 0] != 0)  # (the 2 x 2 block is exercised)


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.filterwarnings("ignore:scipy.linalg.ldl")  # (perturbed diagonals turn complex)
def test_ldl_derivatives(lower):
    f = lambda a: fsl.ldl(a, lower=lower)[:2]  # noqa: E731
    check_jvp_fd(f, [INDEF], RNG)
    check_dot_product(f, [INDEF], RNG)
    g = lambda re, im: [fnp.real(x) for x in fsl.ldl(re + 1j * im, lower=lower)[:2]]  # noqa: E731
    check_jvp_fd(g, [HERM.real, HERM.imag], RNG)
    # only the triangle LAPACK reads has a gradient
    grad = fg.grad(lambda a: fnp.sum(fsl.ldl(a, lower=lower)[1]))(INDEF)
    assert np.all((np.triu(grad, 1) if lower else np.tril(grad, -1)) == 0)
    with pytest.raises(fg.ConcretizationError, match="outside vmap/jit"):
        fg.vmap(lambda a: fsl.ldl(a, lower=lower)[1])(STACK)


def test_matrix_balance_matches_scipy_and_differentiates():
    skewed = RNG.standard_normal((4, 4)) * np.logspace(-3, 3, 4)
    for a in (skewed, np.array([[1, 2, 0], [9, 1, 0.01], [1, 2, 10 * np.pi]]), np.triu(A),
              STACK * np.logspace(-2, 2, 4)):
        for kw in ({}, {"permute": False}, {"scale": False}):
            same(traced(lambda a: fsl.matrix_balance(a, **kw), a), sl.matrix_balance(a, **kw))
        same(traced(lambda a: fsl.matrix_balance(a, separate=True), a)[0],
             sl.matrix_balance(a, separate=True)[0])
        if a.ndim == 2:  # (a stack of them stacks (scaling, perm) into one array, as SciPy)
            got = fsl.matrix_balance(a, separate=True)[1]
            same(tuple(got), tuple(sl.matrix_balance(a, separate=True)[1]))
    check_jvp_fd(lambda a: fsl.matrix_balance(a)[0], [skewed], RNG)
    check_dot_product(lambda a: fsl.matrix_balance(a)[0], [skewed], RNG)


def test_bandwidth_and_symmetry_predicates_match_scipy():
    sym = SPD + 0.0
    for a in (np.triu(A), np.tril(A, -1), np.ones((3, 5)), np.zeros((3, 3)), A, STACK,
              np.diag([1.0, 2.0]) + np.diag([3.0], 1)):
        assert np.array_equal(fsl.bandwidth(a), sl.bandwidth(a))
    cases = [sym, A, CPLX + CPLX.T, CPLX + CPLX.conj().T, np.array([[1.0, np.nan], [np.nan, 2.0]]),
             np.array([[1j]]), sym + 1e-10 * np.triu(A), np.stack([sym, A])]
    for a in cases:
        for kw in ({}, {"atol": 1e-8}, {"rtol": 1e-8}):
            assert np.array_equal(fsl.issymmetric(a, **kw), sl.issymmetric(a, **kw)), (a, kw)
            assert np.array_equal(fsl.ishermitian(a, **kw), sl.ishermitian(a, **kw)), (a, kw)
    assert fg.grad(lambda a: fnp.sum(a) * fsl.issymmetric(a))(sym).shape == (4, 4)
    with pytest.raises(ValueError, match="square"):
        fsl.issymmetric(np.ones((2, 3)))
    with pytest.raises(fg.ConcretizationError, match="outside vmap/jit"):
        fg.vmap(lambda a: fnp.sum(a) * fsl.bandwidth(a)[0])(STACK)


# --- banded, tridiagonal, Toeplitz and circulant systems --------------------------------------

BAND = RNG.standard_normal((4, 6))  # (l, u) with l + u + 1 = 4
HBAND = np.vstack([RNG.standard_normal((2, 6)), 6 + np.abs(RNG.standard_normal((1, 6)))])
HBAND_C = HBAND + 1j * np.vstack([RNG.standard_normal((2, 6)), np.zeros((1, 6))])
RHS6 = RNG.standard_normal((6, 2))
DIAG, OFF = RNG.standard_normal(6), RNG.standard_normal(5)
TC, TR = np.r_[5.0, RNG.standard_normal(5)], np.r_[5.0, RNG.standard_normal(5)]


def banded(lu):
    ab = BAND.copy()
    ab[lu[1]] += 5  # (diagonally dominant)
    return ab


@pytest.mark.parametrize("lu", [(2, 1), (1, 2), (0, 3), (3, 0)])
def test_solve_banded_matches_scipy_and_differentiates(lu):
    ab = banded(lu)
    for b in (RHS6, RHS6[:, 0]):
        same(traced(lambda ab: fsl.solve_banded(lu, ab, b), ab), sl.solve_banded(lu, ab, b))
    same(fsl.solve_banded(lu, np.stack([ab, 2 * ab]), RHS6),
         sl.solve_banded(lu, np.stack([ab, 2 * ab]), RHS6))
    check_jvp_fd(lambda ab, b: fsl.solve_banded(lu, ab, b), [ab, RHS6], RNG)
    # only the stored band is read: the corners of ab have no gradient
    grad = fg.grad(lambda ab: fnp.sum(fsl.solve_banded(lu, ab, RHS6)))(ab)
    corners = [(k, j) for k in range(4) for j in range(6) if not 0 <= j + k - lu[1] < 6]
    assert all(grad[k, j] == 0 for k, j in corners)


@pytest.mark.parametrize("lower", [False, True])
def test_hermitian_banded_solves_and_factors_match_scipy(lower):
    for ab in (HBAND, HBAND_C):
        ab = ab[::-1].copy() if lower else ab
        same(traced(lambda ab: fsl.solveh_banded(ab, RHS6, lower=lower), ab),
             sl.solveh_banded(ab, RHS6, lower=lower))
        same(traced(lambda ab: fsl.cholesky_banded(ab, lower=lower), ab),
             sl.cholesky_banded(ab, lower=lower))
        cb = sl.cholesky_banded(ab, lower=lower)
        same(traced(lambda cb: fsl.cho_solve_banded((cb, lower), RHS6), cb),
             sl.cho_solve_banded((cb, lower), RHS6))
        for kw in ({}, {"select": "i", "select_range": (1, 3)},
                   {"select": "v", "select_range": (5.0, 8.0)}):
            same(traced(lambda ab: fsl.eig_banded(ab, lower=lower, **kw), ab),
                 sl.eig_banded(ab, lower=lower, **kw))
            same(fsl.eigvals_banded(ab, lower=lower, **kw),
                 sl.eigvals_banded(ab, lower=lower, **kw))
    ab = HBAND[::-1].copy() if lower else HBAND
    check_jvp_fd(lambda ab, b: fsl.solveh_banded(ab, b, lower=lower), [ab, RHS6], RNG)
    check_jvp_fd(lambda ab: fsl.cholesky_banded(ab, lower=lower), [ab], RNG)
    check_jvp_fd(lambda cb, b: fsl.cho_solve_banded((cb, lower), b),
                 [sl.cholesky_banded(ab, lower=lower), RHS6], RNG)
    check_jvp_fd(lambda ab: fsl.eig_banded(ab, lower=lower, select="i", select_range=(1, 3)),
                 [ab], RNG)


def test_tridiagonal_eigenproblems_match_scipy():
    for kw in ({}, {"select": "i", "select_range": (1, 3)},
               {"select": "v", "select_range": (-0.5, 1.0)}, {"lapack_driver": "stemr"}):
        same(traced(lambda d: fsl.eigh_tridiagonal(d, OFF, **kw), DIAG),
             sl.eigh_tridiagonal(DIAG, OFF, **kw))
        same(fsl.eigvalsh_tridiagonal(DIAG, OFF, **kw), sl.eigvalsh_tridiagonal(DIAG, OFF, **kw))
    check_jvp_fd(lambda d, e: fsl.eigh_tridiagonal(d, e), [DIAG, OFF], RNG)
    check_dot_product(lambda d, e: fsl.eigh_tridiagonal(d, e)[0], [DIAG, OFF], RNG)
    with pytest.raises(TypeError, match="only real"):
        fsl.eigh_tridiagonal(DIAG + 0j, OFF)
    with pytest.raises(ValueError, match="select_range"):
        fsl.eigh_tridiagonal(DIAG, OFF, select="i", select_range=(3, 1))


def test_toeplitz_and_circulant_systems_match_scipy_and_differentiate():
    for cr in (TC, (TC, TR), TC + 1j * TR):
        for b in (RHS6, RHS6[:, 0]):
            same(fsl.solve_toeplitz(cr, b), sl.solve_toeplitz(cr, b))
            same(fsl.matmul_toeplitz(cr, b), sl.matmul_toeplitz(cr, b))
    same(fsl.matmul_toeplitz((TC, TR[:4]), RHS6[:4]), sl.matmul_toeplitz((TC, TR[:4]), RHS6[:4]))
    same(fsl.solve_toeplitz(np.float32(TC), RHS6), sl.solve_toeplitz(np.float32(TC), RHS6))
    for b, kw in ((RHS6[:, 0], {}), (RHS6, {}), (RHS6.T, {"baxis": 1, "outaxis": -1})):
        for c in (TC, np.stack([TC, TC[::-1]])) if kw else (TC,):
            same(fsl.solve_circulant(c, b, **kw), sl.solve_circulant(c, b, **kw))
    ones = np.ones(4)
    same(fsl.solve_circulant(ones, np.arange(4.0), singular="lstsq"),
         sl.solve_circulant(ones, np.arange(4.0), singular="lstsq"))
    with pytest.raises(np.linalg.LinAlgError, match="near singular"):
        fsl.solve_circulant(ones, np.arange(4.0))
    check_jvp_fd(lambda c, r, b: fsl.solve_toeplitz((c, r), b), [TC, TR, RHS6], RNG)
    check_jvp_fd(lambda c, b: fsl.matmul_toeplitz(c, b), [TC, RHS6], RNG)
    check_jvp_fd(lambda c, b: fsl.solve_circulant(c, b), [TC, RHS6], RNG)
    check_dot_product(lambda c, b: fsl.solve_circulant(c, b), [TC, RHS6], RNG)


# --- qr_multiply, clarkson_woodruff_transform, and the values-only rest -----------------------

@pytest.mark.parametrize("x", [TALL, WIDE, A, CPLX], ids=["tall", "wide", "square", "complex"])
def test_qr_multiply_matches_scipy_and_differentiates(x):
    m, n = x.shape
    k = min(m, n)
    for mode, c in (("right", RNG.standard_normal((2, m))), ("left", RNG.standard_normal((k, 2))),
                    ("right", RNG.standard_normal(m)), ("left", RNG.standard_normal(k))):
        for conjugate in (False, True):
            same(traced(lambda x: fsl.qr_multiply(x, c, mode, conjugate=conjugate), x),
                 sl.qr_multiply(x, c, mode, conjugate=conjugate))
    if x.dtype.kind == "f":
        c = RNG.standard_normal((2, m))
        check_jvp_fd(lambda x, c: fsl.qr_multiply(x, c), [x, c], RNG)


def test_clarkson_woodruff_transform_is_scipys_sketch_and_linear():
    same(fsl.clarkson_woodruff_transform(TALL, 3, rng=7),
         sl.clarkson_woodruff_transform(TALL, 3, rng=7))
    same(fsl.clarkson_woodruff_transform(STACK, 2, rng=1),
         sl.clarkson_woodruff_transform(STACK, 2, rng=1))
    check_jvp_fd(lambda a: fsl.clarkson_woodruff_transform(a, 3, rng=7), [TALL], RNG)


def test_values_only_decompositions_are_scipys_and_refuse_derivatives():
    b = SPD + np.eye(4)
    for name, args, kw in (("qz", (A, b), {}), ("qz", (A, b), {"output": "complex"}),
                           ("ordqz", (A, b), {"sort": "iuc"}), ("rsf2csf", sl.schur(A), {}),
                           ("cossin", (sl.qr(A)[0],), {"p": 2, "q": 2}),
                           ("qr_update", sl.qr(A) + (TALL[:4, 0], TALL[:4, 1]), {}),
                           ("qr_insert", sl.qr(A) + (np.arange(4.0), 1), {}),
                           ("qr_delete", sl.qr(A) + (1,), {"which": "col"})):
        got, want = getattr(fsl, name)(*args, **kw), getattr(sl, name)(*args, **kw)
        for g, w in zip(got, want):
            same(g, w, 0.0)
    with pytest.raises(NotImplementedError, match="no derivative.*eigvals"):
        fg.grad(lambda a: fnp.sum(fnp.abs(fsl.qz(a, b)[0])))(A)
    with pytest.raises(NotImplementedError, match=r"qr of the updated matrix"):
        fg.grad(lambda u: fnp.sum(fsl.qr_update(*sl.qr(A), u, TALL[:4, 1])[1]))(TALL[:4, 0])
    assert issubclass(fsl.LinAlgWarning, RuntimeWarning)


def test_eigen_matrix_functions_at_repeated_eigenvalues():
    # (the Frechet derivative there has an f' part inside the repeated eigenspace)
    a, e = np.diag([1.0, 1.0, -2.0]), RNG.standard_normal((3, 3))
    close(fg.jvp(fsl.signm, (a,), (e,))[1], frechet(sl.signm, a, e), 1e-10)
    spd2 = np.diag([2.0, 2.0, 3.0])
    power = lambda x: sl.fractional_matrix_power(x, 0.3)  # noqa: E731
    close(fg.jvp(lambda x: fsl.fractional_matrix_power(x, 0.3), (spd2,), (e,))[1],
          frechet(power, spd2, e), 1e-10)


def test_sqrtm_gives_scipys_complex_roots():
    # (SciPy 1.17: complex for a negative eigenvalue and for complex input; funcgrad raised)
    for x in (HAS_NEG, CPLX, -np.eye(2), HAS_NEG.astype(np.float32), CPLX.astype(np.complex64)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = sl.sqrtm(x)
        rtol = 1e-12 if want.dtype == np.complex128 else 1e-5
        same(fsl.sqrtm(x), want, rtol)
        same(traced(fsl.sqrtm, x), want, rtol)
    check_jvp_fd(lambda x: fnp.imag(fsl.sqrtm(x)), [HAS_NEG], RNG)
    check_jvp_fd(lambda re, im: fnp.real(fsl.sqrtm(re + 1j * im)), [CPLX.real, CPLX.imag], RNG)
    e = RNG.standard_normal((2, 2))  # at -I: X dX + dX X = E with X = iI, dX = E / 2i
    close(fg.jvp(fsl.sqrtm, (-np.eye(2),), (e,))[1], e / 2j, 1e-13)
    same(fsl.sqrtm(np.stack([HAS_NEG, SPD[:3, :3]])),
         np.stack([sl.sqrtm(HAS_NEG), sl.sqrtm(SPD[:3, :3])]))


@pytest.mark.parametrize("lower", [True, False])
def test_pinvh_derivative_at_repeated_kept_eigenvalues(lower):
    # eigenvalues (2, 2, 0.05) with atol=0.1: the repeated kept pair made the derivative
    # through eigh's rule wrong (-0.266 where SciPy's differences give -0.1006)
    rng = np.random.default_rng(1)
    q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    a = q @ np.diag([2.0, 2.0, 0.05]) @ q.T
    d, w = rng.standard_normal((3, 3)), np.arange(9.0).reshape(3, 3)
    fd = (np.sum(sl.pinvh(a + 1e-6 * d, atol=0.1, lower=lower) * w)
          - np.sum(sl.pinvh(a - 1e-6 * d, atol=0.1, lower=lower) * w)) / 2e-6
    got = fg.jvp(lambda m: np.sum(fsl.pinvh(m, atol=0.1, lower=lower) * w), (a,), (d,))[1]
    np.testing.assert_allclose(got, fd, rtol=1e-7)
    g = fg.grad(lambda m: np.sum(fsl.pinvh(m, atol=0.1, lower=lower) * w))(a)
    np.testing.assert_allclose(np.sum(g * d), fd, rtol=1e-7)


# --- inv(assume_a=, lower=) (SciPy 1.17) -----------------------------------------------------

@pytest.mark.parametrize("kind, lower", [
    (None, False), ("gen", False), ("sym", True), ("sym", False), ("pos", True),
    ("pos", False), ("upper triangular", False), ("lower triangular", False)])
def test_inv_reads_only_what_assume_a_says_as_scipy(kind, lower):
    a = A + 4.0 * np.eye(4) if kind not in ("pos",) else SPD
    close(fsl.inv(a, assume_a=kind, lower=lower), sl.inv(a, assume_a=kind, lower=lower))
    close(fsl.inv(STACK + 4.0 * np.eye(4), assume_a=kind, lower=lower),
          sl.inv(STACK + 4.0 * np.eye(4), assume_a=kind, lower=lower))
    f = lambda m: fsl.inv(m, assume_a=kind, lower=lower)  # noqa: E731
    check_jvp_fd(f, (a,))
    check_dot_product(f, (a,))
    g = fg.grad(lambda m: fnp.sum(f(m) * np.arange(16.0).reshape(4, 4)))(a)
    unread = {"sym": np.triu(np.ones((4, 4)), 1) if lower else np.tril(np.ones((4, 4)), -1),
              "upper triangular": np.tril(np.ones((4, 4)), -1),
              "lower triangular": np.triu(np.ones((4, 4)), 1)}
    unread["pos"] = unread["sym"]
    if kind in unread:  # entries the solver never reads get no derivative
        assert np.all(g[unread[kind] == 1] == 0.0)


def test_inv_hermitian_and_diagonal_and_bad_assume_a():
    h = CPLX @ CPLX.conj().T + 4.0 * np.eye(4)
    close(fsl.inv(h, assume_a="her", lower=True), sl.inv(h, assume_a="her", lower=True))
    d = A + 4.0 * np.eye(4)
    # only the diagonal is read: the inverse of diag(d)
    close(fsl.inv(d, assume_a="diagonal"), np.diag(1.0 / np.diag(d)))
    assert fsl.inv(np.eye(2, dtype=np.float32), assume_a="sym").dtype == np.float32
    with pytest.raises(ValueError, match="inv: assume_a must be one of"):
        fsl.inv(d, assume_a="triangular")
