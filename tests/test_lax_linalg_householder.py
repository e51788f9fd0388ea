"""``fg.lax.linalg``'s ``hessenberg``, ``tridiagonal``, ``householder_product``, ``ormqr``,
``cholesky_update``, ``symmetric_product``, ``qdwh`` and the ``O(m)``
``tridiagonal_solve``: JAX's signatures and output conventions, values against SciPy's
LAPACK wrappers and dense NumPy (computed independently) and against ``jax.lax.linalg``
(the ``jlax`` fixture skips without JAX), derivatives by the correctness bar where JAX
or funcgrad defines them, and a clear error where neither does."""
import numpy as np
import pytest
import scipy.linalg
from scipy.linalg import lapack

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import lax
from helpers import (check_dot_product, check_float32, check_jvp_fd, check_second_order,
                     check_vmap)

RNG = np.random.default_rng(14)
DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
TOL = {np.float32: 2e-5, np.float64: 1e-12, np.complex64: 5e-5, np.complex128: 1e-12}


def _matrix(shape, dtype=np.float64):
    x = RNG.normal(size=shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * RNG.normal(size=shape)
    return x.astype(dtype)


def _hermitian(n, dtype=np.float64, batch=()):
    x = _matrix(batch + (n, n), dtype)
    return x + np.conj(np.swapaxes(x, -1, -2))


def _close(got, want, dtype, scale=1.0):
    np.testing.assert_allclose(got, want, rtol=TOL[dtype], atol=TOL[dtype] * scale)


def _complex_jvp_fd(f, args, eps=1e-6):
    """``fg.jvp`` along a complex direction against central differences."""
    vs = [_matrix(np.shape(a), np.complex128) for a in args]
    _, t = fg.jvp(f, tuple(args), tuple(vs))
    plus = f(*[a + eps * v for a, v in zip(args, vs)])
    minus = f(*[a - eps * v for a, v in zip(args, vs)])
    np.testing.assert_allclose(t, (plus - minus) / (2 * eps), rtol=1e-5, atol=1e-6)
    # reverse mode is the transpose of forward mode under JAX's pairing Re sum(a * b)
    out, vjp_fn = fg.vjp(f, *args)
    u = _matrix(np.shape(out), np.complex128)
    back = vjp_fn(u)
    lhs = sum(np.sum(np.real(g * v)) for g, v in zip(back, vs))
    np.testing.assert_allclose(lhs, np.sum(np.real(u * t)), rtol=1e-10)


# --- hessenberg -------------------------------------------------------------------------------

def _hessenberg_q(h, taus):
    """Q of ``a = Q H Q^H`` from the packed reflectors (vector ``i`` starts at row
    ``i + 1``): the identity's first row and column around ``householder_product``."""
    n = h.shape[-1]
    q = np.eye(n, dtype=h.dtype)
    if n > 1:
        q[1:, 1:] = lax.linalg.householder_product(h[1:, :-1], taus)
    return q


@pytest.mark.parametrize("dtype", DTYPES)
def test_hessenberg_is_lapacks_gehrd_and_reconstructs_the_matrix(dtype):
    a = _matrix((5, 5), dtype)
    h, taus = lax.linalg.hessenberg(a)
    assert h.dtype == taus.dtype == dtype and taus.shape == (4,)
    gehrd = lapack.get_lapack_funcs("gehrd", (a,))
    want_h, want_taus, _ = gehrd(a)
    _close(h, want_h, dtype, 10.0)
    _close(taus, want_taus, dtype)
    upper = np.triu(h, -1)
    q = _hessenberg_q(h, taus)
    _close(q @ upper @ q.conj().T, a, dtype, 10.0)


def test_hessenberg_stacks_vmaps_and_jits():
    a = _matrix((2, 3, 4, 4))
    h, taus = lax.linalg.hessenberg(a)
    assert h.shape == a.shape and taus.shape == (2, 3, 3)
    np.testing.assert_array_equal(h[1, 2], lax.linalg.hessenberg(a[1, 2])[0])
    np.testing.assert_array_equal(fg.vmap(lambda x: lax.linalg.hessenberg(x)[1])(a[0]),
                                  taus[0])
    np.testing.assert_array_equal(fg.jit(lambda x: lax.linalg.hessenberg(x)[0])(a), h)


def test_hessenberg_and_tridiagonal_have_no_derivative_and_say_so():
    a = _hermitian(3)
    with pytest.raises(NotImplementedError, match="hessenberg has no derivative"):
        fg.grad(lambda x: fnp.sum(lax.linalg.hessenberg(x)[0]))(a)
    with pytest.raises(NotImplementedError, match="tridiagonal has no derivative"):
        fg.jvp(lambda x: lax.linalg.tridiagonal(x)[1], (a,), (a,))
    # (no derivative asked: the values pass through transforms of other arguments)
    g = fg.grad(lambda s: s * fnp.sum(lax.linalg.tridiagonal(a)[1]))(2.0)
    np.testing.assert_allclose(g, np.trace(a))


# --- tridiagonal ------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("lower", [True, False])
def test_tridiagonal_is_lapacks_sytrd_hetrd(dtype, lower):
    a = _hermitian(5, dtype)
    out, d, e, taus = lax.linalg.tridiagonal(a, lower=lower)
    real = np.dtype(dtype).type(0).real.dtype
    assert out.dtype == taus.dtype == dtype and d.dtype == e.dtype == real
    assert d.shape == (5,) and e.shape == taus.shape == (4,)
    routine = lapack.get_lapack_funcs("hetrd" if np.dtype(dtype).kind == "c" else "sytrd",
                                      (a,))
    want = routine(a, lower=int(lower))[:4]
    for got, ref in zip((out, d, e, taus), want):
        _close(got, ref, dtype, 10.0)
    # T's eigenvalues are a's
    t = np.diag(d) + np.diag(e, 1) + np.diag(e, -1)
    _close(np.linalg.eigvalsh(t), np.linalg.eigvalsh(a), dtype, 10.0)


def test_tridiagonal_reads_one_triangle_and_stacks():
    a = _hermitian(4, batch=(3,))
    junk = np.triu(RNG.normal(size=(3, 4, 4)), 1)
    got, want = lax.linalg.tridiagonal(a), lax.linalg.tridiagonal(np.tril(a) + junk)
    np.testing.assert_array_equal(np.tril(got[0]), np.tril(want[0]))  # (the rest: as given)
    for g, w in zip(got[1:], want[1:]):
        np.testing.assert_array_equal(g, w)
    d = fg.vmap(lambda x: lax.linalg.tridiagonal(x, lower=False)[1])(a)
    np.testing.assert_array_equal(d, lax.linalg.tridiagonal(a, lower=False)[1])


# --- householder_product and ormqr ------------------------------------------------------------

def _geqrf(a):
    qr, taus = lapack.get_lapack_funcs("geqrf", (a,))(a)[:2]
    return qr, taus


@pytest.mark.parametrize("dtype", DTYPES)
def test_householder_product_is_the_q_of_qr(dtype):
    a = _matrix((5, 3), dtype)
    qr, taus = _geqrf(a)
    q = lax.linalg.householder_product(qr, taus)
    assert q.shape == (5, 3) and q.dtype == dtype
    orgqr = lapack.get_lapack_funcs("ungqr" if np.dtype(dtype).kind == "c" else "orgqr", (a,))
    _close(q, orgqr(qr, taus)[0], dtype)
    _close(q @ np.triu(qr[:3]), a, dtype, 10.0)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("transpose", [False, True])
def test_ormqr_multiplies_by_q_without_forming_it(dtype, left, transpose):
    a = _matrix((5, 3), dtype)
    qr, taus = _geqrf(a)
    q_full = scipy.linalg.qr(a)[0]  # (SciPy's Q: the same reflectors, formed)
    op = q_full.conj().T if transpose else q_full
    c = _matrix((5, 2) if left else (2, 5), dtype)
    got = lax.linalg.ormqr(qr, taus, c, left=left, transpose=transpose)
    _close(got, op @ c if left else c @ op, dtype)


def test_householder_product_and_ormqr_derivatives():
    a = _matrix((4, 3))
    qr, taus = _geqrf(a)
    check_jvp_fd(lax.linalg.householder_product, (qr, taus))
    check_dot_product(lax.linalg.householder_product, (qr, taus))
    check_second_order(lax.linalg.householder_product, (qr, taus))
    check_float32(lax.linalg.householder_product, (qr, taus))
    c = _matrix((4, 2))
    f = lambda a, t, c: lax.linalg.ormqr(a, t, c, left=True, transpose=True)  # noqa: E731
    check_jvp_fd(f, (qr, taus, c))
    check_dot_product(f, (qr, taus, c))
    check_vmap(f, (np.stack([qr, qr + 0.1]), np.stack([taus, taus]), np.stack([c, -c])),
               (0, 0, 0))
    ac = _matrix((4, 3), np.complex128)
    qrc, tausc = _geqrf(ac)
    cc = _matrix((2, 4), np.complex128)
    _complex_jvp_fd(lambda a, t: lax.linalg.ormqr(a, t, cc, left=False), (qrc, tausc))


def test_householder_product_and_ormqr_stack_and_refuse_bad_shapes():
    a = _matrix((2, 5, 3))
    pairs = [_geqrf(m) for m in a]
    qr, taus = np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])
    q = lax.linalg.householder_product(qr, taus)
    np.testing.assert_allclose(q[1], lax.linalg.householder_product(qr[1], taus[1]))
    with pytest.raises(ValueError, match="m >= n"):
        lax.linalg.householder_product(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="c's rows must match"):
        lax.linalg.ormqr(qr[0], taus[0], np.ones((4, 2)))


# --- cholesky_update --------------------------------------------------------------------------

def _factor(n, batch=()):
    m = RNG.normal(size=batch + (n, n))
    a = m @ np.swapaxes(m, -1, -2) + n * np.eye(n)
    return np.swapaxes(np.linalg.cholesky(a), -1, -2), a


def test_cholesky_update_is_the_factor_of_the_updated_matrix():
    r, a = _factor(5)
    w = RNG.normal(size=5)
    r1 = lax.linalg.cholesky_update(r, w)
    np.testing.assert_allclose(r1, np.linalg.cholesky(a + np.outer(w, w)).T, atol=1e-12)
    rs, as_ = _factor(4, (3,))
    ws = RNG.normal(size=(3, 4))
    r1s = lax.linalg.cholesky_update(rs, ws)
    for i in range(3):
        np.testing.assert_allclose(r1s[i], np.linalg.cholesky(as_[i] + np.outer(ws[i], ws[i])).T,
                                   atol=1e-12)
    np.testing.assert_allclose(fg.vmap(lax.linalg.cholesky_update)(rs, ws), r1s, atol=1e-14)
    with pytest.raises(TypeError, match="floating-point"):
        lax.linalg.cholesky_update(r + 0j, w)
    with pytest.raises(ValueError, match="same size"):
        lax.linalg.cholesky_update(r, w[:3])


def test_cholesky_update_derivatives_including_zero_entries_of_w():
    r, _ = _factor(4)
    w = RNG.normal(size=4)
    w[0] = w[2] = 0.0  # rotations by (x, 0): no branch to constants that drops ds/dy
    f = lax.linalg.cholesky_update
    check_jvp_fd(f, (r, w))
    check_dot_product(f, (r, w))
    check_second_order(f, (r, w))
    check_float32(f, (r, w))


# --- symmetric_product ------------------------------------------------------------------------

def test_symmetric_product_values_and_derivatives():
    a, c = RNG.normal(size=(4, 3)), _hermitian(4)
    got = lax.linalg.symmetric_product(a, c, alpha=2.0, beta=-0.5)
    np.testing.assert_allclose(got, 2.0 * a @ a.T - 0.5 * c, rtol=1e-13)
    sym = lax.linalg.symmetric_product(a, c, symmetrize_output=True)
    np.testing.assert_array_equal(sym, sym.T)
    f = lambda a, c: lax.linalg.symmetric_product(a, c, alpha=0.5, beta=3.0)  # noqa: E731
    check_jvp_fd(f, (a, c))
    check_dot_product(f, (a, c))
    check_second_order(f, (a, c))
    check_float32(f, (a, c))
    with pytest.raises(ValueError, match="square c"):
        lax.linalg.symmetric_product(a, np.ones((3, 3)))


# --- qdwh -------------------------------------------------------------------------------------

@pytest.mark.parametrize("dtype,shape", [(np.float64, (5, 3)), (np.float32, (4, 4)),
                                         (np.complex128, (4, 2))])
def test_qdwh_is_the_polar_decomposition(dtype, shape):
    x = _matrix(shape, dtype)
    u, h, num_iters, is_converged = lax.linalg.qdwh(x)
    assert u.dtype == h.dtype == dtype and u.shape == shape and h.shape == shape[1:] * 2
    assert num_iters.dtype == np.int32 and is_converged.dtype == np.bool_ and is_converged
    want_u, want_h = scipy.linalg.polar(x.astype(np.complex128 if np.dtype(dtype).kind == "c"
                                                 else np.float64))
    _close(u, want_u, dtype, 10.0)
    _close(h, want_h, dtype, 10.0)


def test_qdwh_counts_its_steps_and_stops_at_max_iterations():
    x = RNG.normal(size=(5, 3))
    x[:, 0] *= 1e-7  # ill conditioned: more steps than 2
    _, _, num_iters, is_converged = lax.linalg.qdwh(x, max_iterations=2)
    assert int(num_iters) == 2 and not bool(is_converged)
    _, _, num_iters, is_converged = lax.linalg.qdwh(x)
    assert 2 < int(num_iters) <= 10 and bool(is_converged)
    with pytest.raises(ValueError, match="M >= N"):
        lax.linalg.qdwh(np.ones((2, 3)))


def test_qdwh_derivatives_are_the_polar_factors():
    x = RNG.normal(size=(4, 3))
    f = lambda x: lax.linalg.qdwh(x)[:2]  # noqa: E731
    check_jvp_fd(f, (x,))
    check_dot_product(f, (x,), rtol=1e-8)
    # vmap of the values and of jvp (vmap of grad is refused, as JAX refuses grad: the
    # batched loop's number of steps is not one number)
    xs, vs = np.stack([x, 2 * x + 0.1]), RNG.normal(size=(2,) + x.shape)
    for got, want in zip(fg.vmap(f)(xs), zip(*[f(xi) for xi in xs])):
        np.testing.assert_allclose(got, np.stack(want), atol=1e-13)
    jvp = lambda x, v: fg.jvp(f, (x,), (v,))[1][0]  # noqa: E731
    np.testing.assert_allclose(fg.vmap(jvp)(xs, vs), [jvp(xi, vi) for xi, vi in zip(xs, vs)],
                               atol=1e-12)
    # u = x (x^T x)^-1/2: its derivative by the SVD, computed independently
    v = RNG.normal(size=x.shape)
    _, t = fg.jvp(lambda x: lax.linalg.qdwh(x)[0], (x,), (v,))
    eps = 1e-6
    fd = (scipy.linalg.polar(x + eps * v)[0] - scipy.linalg.polar(x - eps * v)[0]) / (2 * eps)
    np.testing.assert_allclose(t, fd, atol=1e-7)


def test_qdwh_of_a_padded_matrix_is_the_true_matrixs_zero_padded(jlax):
    x = RNG.normal(size=(5, 3))
    padded = np.full((7, 4), 9.0)  # (whatever the padding holds is ignored, as JAX's mask)
    padded[:5, :3] = x
    u, h, num_iters, is_converged = lax.linalg.qdwh(padded, dynamic_shape=(5, 3))
    want_u, want_h, want_iters, want_converged = lax.linalg.qdwh(x)
    assert u.shape == (7, 4) and h.shape == (4, 4)
    np.testing.assert_array_equal(u[:5, :3], want_u)
    np.testing.assert_array_equal(h[:3, :3], want_h)
    assert not u[5:].any() and not u[:, 3:].any() and not h[3:].any() and not h[:, 3:].any()
    assert int(num_iters) == int(want_iters) and bool(is_converged) == bool(want_converged)
    theirs = jlax.linalg.qdwh(padded, dynamic_shape=(5, 3))
    for got, want in zip((u, h, num_iters, is_converged), theirs):
        np.testing.assert_allclose(got, np.asarray(want), atol=1e-13)
    # derivatives: only the true matrix counts
    g = fg.grad(lambda p: fnp.sum(lax.linalg.qdwh(p, dynamic_shape=(5, 3))[0] ** 3))(padded)
    true_g = fg.grad(lambda x: fnp.sum(lax.linalg.qdwh(x)[0] ** 3))(x)
    np.testing.assert_allclose(g[:5, :3], true_g, rtol=1e-12)
    assert not g[5:].any() and not g[:, 3:].any()
    u_full = lax.linalg.qdwh(x, dynamic_shape=(5, 3))[0]
    np.testing.assert_array_equal(u_full, want_u)
    for bad in [(3, 5), (8, 3), (5, 5), (5,)]:
        with pytest.raises(ValueError, match="dynamic_shape"):
            lax.linalg.qdwh(padded, dynamic_shape=bad)
    with pytest.raises(TypeError, match="static"):
        fg.jit(lambda p, m: lax.linalg.qdwh(p, dynamic_shape=(m, 3)))(padded, 5)


# --- tridiagonal_solve: O(m), LAPACK's gtsv --------------------------------------------------

def _system(m, batch=(), dtype=np.float64):
    dl, d, du = (_matrix(batch + (m,), dtype) for _ in range(3))
    return dl, d + 4.0, du


@pytest.mark.parametrize("dtype", DTYPES)
def test_tridiagonal_solve_is_gtsv_in_the_operands_dtype(dtype):
    dl, d, du = _system(7, (2,), dtype)
    b = _matrix((2, 7, 3), dtype)
    x = lax.linalg.tridiagonal_solve(dl, d, du, b)
    assert x.dtype == dtype
    for i in range(2):
        dense = np.diag(d[i]) + np.diag(du[i, :-1], 1) + np.diag(dl[i, 1:], -1)
        _close(dense @ x[i], b[i], dtype, 10.0)


def test_tridiagonal_solve_pivots_where_the_diagonal_is_small():
    # d[0] = 0: elimination without row interchanges would divide by zero
    dl, d, du = np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 1.0]), np.array([1.0, 3.0, 0.0])
    b = np.array([[1.0], [2.0], [3.0]])
    dense = np.diag(d) + np.diag(du[:-1], 1) + np.diag(dl[1:], -1)
    np.testing.assert_allclose(lax.linalg.tridiagonal_solve(dl, d, du, b),
                               np.linalg.solve(dense, b), rtol=1e-14)


def test_tridiagonal_solve_is_one_primitive_not_a_dense_solve():
    dl, d, du = _system(6)
    b = RNG.normal(size=(6, 2))
    f = lambda *args: fnp.sum(fnp.sin(lax.linalg.tridiagonal_solve(*args)))  # noqa: E731
    for g in (f, fg.grad(f, argnums=(0, 1, 2, 3))):
        names = {e.prim.name for e in fg.make_graph(g)(dl, d, du, b).eqns}
        assert "tridiagonal_solve" in names and not names & {"solve", "solve_lu", "inv"}
    # a long system: O(m) memory (a dense m x m matrix of 200000 rows would be 320 GB)
    m = 200_000
    dl, d, du = _system(m)
    x = lax.linalg.tridiagonal_solve(dl, d, du, np.ones((m, 1)))
    resid = d * x[:, 0] + np.r_[0.0, dl[1:] * x[:-1, 0]] + np.r_[du[:-1] * x[1:, 0], 0.0]
    np.testing.assert_allclose(resid, 1.0, atol=1e-10)


def test_tridiagonal_solve_complex_derivatives_and_batching_of_b_alone():
    dl, d, du = _system(4, dtype=np.complex128)
    b = _matrix((4, 2), np.complex128)
    _complex_jvp_fd(lax.linalg.tridiagonal_solve, (dl, d, du, b))
    # only b batched: its batch becomes extra right-hand sides of one solve
    bs = RNG.normal(size=(3, 4, 2))
    f = lambda b: lax.linalg.tridiagonal_solve(dl.real, d.real, du.real, b)  # noqa: E731
    check_vmap(f, (bs,), (0,))
    check_vmap(f, (np.moveaxis(bs, 0, 2),), (2,))


def test_tridiagonal_solve_of_a_singular_matrix_raises():
    zeros = np.zeros(3)
    with pytest.raises(np.linalg.LinAlgError, match="singular"):
        lax.linalg.tridiagonal_solve(zeros, zeros, zeros, np.ones((3, 1)))
    with pytest.raises(ValueError, match="same leading|b must be"):
        lax.linalg.tridiagonal_solve(zeros, zeros, zeros, np.ones((2, 3, 1)))


# --- against jax.lax.linalg -------------------------------------------------------------------

def test_values_equal_jax(jlax):
    jl = jlax.linalg
    a = _matrix((5, 5))
    for got, want in zip(lax.linalg.hessenberg(a), jl.hessenberg(a)):
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)
    s = _hermitian(5, np.complex128)
    for lower in (True, False):
        for got, want in zip(lax.linalg.tridiagonal(s, lower=lower),
                             jl.tridiagonal(s, lower=lower)):
            assert np.asarray(want).dtype == got.dtype
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)
    qr, taus = _geqrf(_matrix((5, 3), np.complex128))
    np.testing.assert_allclose(lax.linalg.householder_product(qr, taus),
                               jl.householder_product(qr, taus), atol=1e-13)
    c = _matrix((3, 5), np.complex128)
    np.testing.assert_allclose(lax.linalg.ormqr(qr, taus, c, left=False, transpose=True),
                               jl.ormqr(qr, taus, c, left=False, transpose=True), atol=1e-13)
    r, _ = _factor(4)
    w = RNG.normal(size=4)
    np.testing.assert_allclose(lax.linalg.cholesky_update(r, w), jl.cholesky_update(r, w),
                               atol=1e-13)
    a3 = RNG.normal(size=(5, 3))
    np.testing.assert_allclose(
        lax.linalg.symmetric_product(a3, s.real, alpha=2.0, beta=0.5, symmetrize_output=True),
        jl.symmetric_product(a3, s.real, alpha=2.0, beta=0.5, symmetrize_output=True),
        rtol=1e-13)
    for x in (RNG.normal(size=(5, 3)), _matrix((4, 4), np.complex128)):
        got, want = lax.linalg.qdwh(x), jl.qdwh(x)
        np.testing.assert_allclose(got[0], want[0], atol=1e-13)
        np.testing.assert_allclose(got[1], want[1], atol=1e-13)
        assert int(got[2]) == int(want[2]) and bool(got[3]) == bool(want[3])
    dl, d, du = _system(6, (2,))
    b = RNG.normal(size=(2, 6, 3))
    np.testing.assert_allclose(lax.linalg.tridiagonal_solve(dl, d, du, b),
                               jl.tridiagonal_solve(dl, d, du, b), rtol=1e-13)


def test_tridiagonal_solve_derivatives_equal_jax(jlax):
    import jax
    dl, d, du = _system(5)
    b = RNG.normal(size=(5, 2))
    f = lambda *args: (lax.linalg.tridiagonal_solve(*args) ** 2).sum()  # noqa: E731
    jf = lambda *args: (jlax.linalg.tridiagonal_solve(*args) ** 2).sum()  # noqa: E731
    for got, want in zip(fg.grad(f, argnums=(0, 1, 2, 3))(dl, d, du, b),
                         jax.grad(jf, argnums=(0, 1, 2, 3))(dl, d, du, b)):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14)
