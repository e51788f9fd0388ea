"""``solve`` factors its matrix once: the forward is LAPACK's ``gesv`` (NumPy's own call,
so NumPy's bits), its LU factors are kept, and the gradient's transposed solve, the
JVP's solve and every higher order reuse them (``solve_lu_p``/``lu_solve_p``); without
LAPACK's routines, ``solve`` keeps ``solve_p`` (one factorization per solve)."""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.kernels.cpu import lapack
from funcgrad.primitives import linalg as primitive_linalg
from helpers import check_dot_product, check_jvp_fd, check_second_order, check_vmap

N = primitive_linalg.LU_MIN
RNG = np.random.default_rng(7)
pytestmark = pytest.mark.skipif(not lapack.available(),
                                reason="NumPy's LAPACK routines are not reachable here")


def well(shape, dtype=np.float64, rng=RNG):
    """Well-conditioned square matrices (a stack of them) of ``dtype``."""
    a = rng.standard_normal(shape) / np.sqrt(shape[-1]) + 2.0 * np.eye(shape[-1])
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape) / np.sqrt(shape[-1])
    return a.astype(dtype)


def normal(shape, dtype=np.float64, rng=RNG):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def names(fn, *args):
    return [e.prim.name for e in fg.make_graph(fn)(*args).eqns]


SHAPES = [((N, N), (N,)), ((N, N), (N, 3)), ((N, N), (N, 1)), ((2, N, N), (2, N, 4)),
          ((N, N), (3, N, 2)), ((2, 1, N, N), (3, N, 1)), ((3, N, N), (N,))]
DTYPES = [np.float64, np.float32, np.complex128, np.complex64]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("a_shape, b_shape", SHAPES)
def test_the_solution_has_numpys_bits_eagerly_and_under_jit(a_shape, b_shape, dtype):
    a, b = well(a_shape, dtype), normal(b_shape, dtype)
    want = np.linalg.solve(a, b)
    for got in (fnp.linalg.solve(a, b), fg.jit(fnp.linalg.solve)(a, b)):
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()
    assert "solve_lu" in names(fnp.linalg.solve, a, b)


def test_mixed_dtypes_and_integers_as_numpy():
    a, b = well((N, N), np.float32), normal((N, 2))
    want = np.linalg.solve(a, b)
    got = fnp.linalg.solve(a, b)
    assert got.dtype == want.dtype == np.float64 and got.tobytes() == want.tobytes()
    ai = np.rint(well((N, N)) * 10).astype(np.int64)
    want = np.linalg.solve(ai, np.arange(N))
    got = fnp.linalg.solve(ai, np.arange(N))
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_the_gradient_factors_once():
    a, b, w = well((N, N)), normal((N, 3)), normal((N, 3))
    loss = lambda a, b: fnp.sum(w * fnp.linalg.solve(a, b))  # noqa: E731
    graph = names(fg.grad(loss, argnums=(0, 1)), a, b)
    assert graph.count("solve_lu") == 1 and graph.count("lu_solve") == 1
    assert "solve" not in graph
    jvp_graph = names(lambda a, t: fg.jvp(lambda a: loss(a, b), (a,), (t,)), a, a)
    assert jvp_graph.count("solve_lu") == 1 and "solve" not in jvp_graph


@pytest.mark.parametrize("dtype", DTYPES)
def test_gradients_equal_the_closed_form(dtype):
    # x = a^-1 b, cotangent g: g_b = a^-T g, g_a = -g_b x^T (JAX's convention: no conj)
    a, b, g = well((N, N), dtype), normal((N, 3), dtype), normal((N, 3), dtype)
    x, pullback = fg.vjp(fnp.linalg.solve, a, b)
    g_a, g_b = pullback(g)
    want_b = np.linalg.solve(a.T.astype(np.complex128 if np.iscomplexobj(a) else np.float64), g)
    want_a = -want_b @ np.asarray(x, want_b.dtype).T
    tol = 1e-4 if np.dtype(dtype).itemsize <= 8 and np.dtype(dtype) != np.float64 else 1e-12
    assert g_a.dtype == g_b.dtype == np.dtype(dtype)
    np.testing.assert_allclose(g_b, want_b, rtol=tol, atol=tol)
    np.testing.assert_allclose(g_a, want_a, rtol=tol, atol=tol)
    eager = (g_a, g_b)
    jitted = fg.jit(lambda a, b, g: fg.vjp(fnp.linalg.solve, a, b)[1](g))(a, b, g)
    assert all(e.tobytes() == j.tobytes() for e, j in zip(eager, jitted))


@pytest.mark.parametrize("a_shape, b_shape", SHAPES)
def test_derivatives_of_every_order(a_shape, b_shape):
    rng = np.random.default_rng(3)
    args = [well(a_shape, rng=rng), normal(b_shape, rng=rng)]
    check_jvp_fd(fnp.linalg.solve, args, rng)
    check_dot_product(fnp.linalg.solve, args, rng)
    check_second_order(fnp.linalg.solve, args, rng)


def test_grad_of_grad_and_gradgradcheck():
    # The matrix moves along three random directions: second derivatives through the LU
    # path in every entry of ``a``, with finite differences over 3 parameters, not N * N.
    a, b = well((N, N)), normal((N, 2))
    directions = normal((3, N, N)) / N
    loss = lambda s: fnp.sum(fnp.sin(fnp.linalg.solve(  # noqa: E731
        a + fnp.tensordot(s, directions, axes=1), b)))
    assert fg.gradgradcheck(loss, (np.array([0.1, -0.2, 0.3]),))


@pytest.mark.parametrize("in_axes", [(0, 0), (0, None), (None, 0), (2, 1)])
def test_vmap(in_axes):
    rng = np.random.default_rng(5)
    a, b = well((3, N, N), rng=rng), normal((3, N, 2), rng=rng)
    args = [a[0] if ax is None else np.moveaxis(x, 0, ax) for x, ax in zip((a, b), in_axes)]
    check_vmap(fnp.linalg.solve, args, list(in_axes), rng)


def test_a_singular_matrix_raises_numpys_error():
    a = well((N, N))
    a[:, 3] = 0.0  # (an exactly zero pivot)
    b = np.ones(N)
    with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix$"):
        np.linalg.solve(a, b)
    grad = fg.grad(lambda a, b: fnp.sum(fnp.linalg.solve(a, b)))
    for solve in (fnp.linalg.solve, fg.jit(fnp.linalg.solve), grad, fg.jit(grad)):
        with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix$"):
            solve(a, b)
    with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix$"):
        fnp.linalg.solve(np.stack([well((N, N)), a]), np.ones((2, N, 1)))


def test_the_tensor_tape():
    a, b, w = well((N, N)), normal((N, 3)), normal((N, 3))
    ta, tb = fg.Tensor(a, requires_grad=True), fg.Tensor(b, requires_grad=True)
    x = fnp.linalg.solve(ta, tb)
    (x * w).sum().backward()
    want_b = np.linalg.solve(a.T, w)
    np.testing.assert_allclose(tb.grad, want_b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ta.grad, -want_b @ np.linalg.solve(a, b).T, rtol=1e-12,
                               atol=1e-12)


def test_without_lapack_solve_keeps_one_factorization_per_solve(monkeypatch):
    a, b, w = well((N, N)), normal((N, 3)), normal((N, 3))
    loss = lambda a: fnp.sum(w * fnp.linalg.solve(a, b))  # noqa: E731
    with_lu = fg.grad(loss)(a)
    monkeypatch.setattr(lapack, "_routines", ({}, None))
    assert not lapack.available()
    graph = names(fg.grad(loss), a)
    assert graph.count("solve") == 2 and "solve_lu" not in graph
    without = fg.grad(loss)(a)
    assert fnp.linalg.solve(a, b).tobytes() == np.linalg.solve(a, b).tobytes()
    np.testing.assert_allclose(without, with_lu, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(without, -np.linalg.solve(a.T, w) @ np.linalg.solve(a, b).T,
                               rtol=1e-12, atol=1e-13)


def test_small_and_empty_systems_keep_solve_p():
    a = well((N - 1, N - 1))
    assert names(fnp.linalg.solve, a, np.ones(N - 1)) == ["solve"]
    assert names(fnp.linalg.solve, well((N, N)), np.ones((N, 0))) == ["solve"]


def test_the_probe_found_the_integer_width():
    # (NumPy's wheels link ILP64 OpenBLAS: 8-byte pivots)
    assert lapack.pivot_dtype() in (np.int32, np.int64)
    x, lu, piv = lapack.gesv(np.array([[1.0, 2.0], [4.0, 4.0]]), np.array([[3.0], [8.0]]),
                             np.float64)
    assert x.tolist() == [[1.0], [1.0]] and piv.tolist() == [2, 2]
    np.testing.assert_array_equal(lu, [[4.0, 4.0], [0.25, 1.0]])
    xt = lapack.getrs(lu, piv, np.array([[5.0], [6.0]]), True, np.float64)
    np.testing.assert_allclose(xt, np.linalg.solve([[1.0, 4.0], [2.0, 4.0]], [[5.0], [6.0]]))
