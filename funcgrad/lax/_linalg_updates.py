"""``jax.lax.linalg``'s ``cholesky_update`` (a rank-1 update of a Cholesky factor by
Givens rotations), ``symmetric_product`` (``alpha a a^T + beta c``) and ``qdwh`` (the
polar decomposition by the QR-based dynamically weighted Halley iteration), each
written with ``funcgrad.numpy`` and ``lax.linalg``'s factorizations in JAX's steps:
JAX's values, and derivatives by construction under every transform (JAX defines none
for the first two, and only forward mode for ``qdwh``, whose loop funcgrad's
``while_loop`` also differentiates in reverse mode).
"""

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from .. import numpy as fnp
from ._common import FLOAT, INEXACT, accept, array, static_int, static_ints
from ._while import while_loop
from ..typing import Array, ArrayLike

__all__ = ["cholesky_update", "symmetric_product", "qdwh"]


# --- cholesky_update --------------------------------------------------------------------------

def _rotation(x, y):
    """``(c, s)`` of the Givens rotation taking ``(x, y)`` to ``(r, 0)``, ``r > 0`` for
    ``x > 0`` (LAPACK's drotg as JAX writes it: scaled by ``max(|x|, |y|)`` against
    overflow).  At ``x = y = 0`` the identity: the guard keeps that branch's division
    finite, so its zero cotangent stays zero (the double-``where`` idiom).  ``y = 0`` is
    not special-cased: at ``x > 0`` the formula gives ``(1, 0)`` there too, with the
    right derivative (``ds/dy = -1/x``, which a branch to constants would drop)."""
    scale = fnp.maximum(fnp.abs(x), fnp.abs(y))
    zero = scale == 0
    scale = fnp.where(zero, fnp.ones_like(scale), scale)
    x, y = x / scale, y / scale
    inv_r = 1 / fnp.sqrt(x * x + y * y)
    return fnp.where(zero, fnp.ones_like(x), x * inv_r), fnp.where(zero, fnp.zeros_like(y),
                                                                   -y * inv_r)


def cholesky_update(r_matrix: ArrayLike, w_vector: ArrayLike) -> Array:
    """The upper Cholesky factor ``R'`` of ``R^T R + w w^T``, given the upper factor
    ``r_matrix`` (``R``, positive diagonal) of ``R^T R`` and ``w_vector``: ``n`` Givens
    rotations, ``O(n^2)`` work (JAX's algorithm).  Real matrices, as JAX's; leading axes
    are a batch.  Differentiable in both (JAX defines no derivative).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> r = np.array([[2.0, 1.0], [0.0, 1.0]])
    >>> r1 = lax.linalg.cholesky_update(r, np.array([1.0, 2.0]))
    >>> bool(np.allclose(r1.T @ r1, r.T @ r + np.outer([1.0, 2.0], [1.0, 2.0])))
    True
    """
    r = accept("linalg.cholesky_update", array(r_matrix), FLOAT)
    w = accept("linalg.cholesky_update", array(w_vector), FLOAT)
    n = r.shape[-1] if r.ndim else -1
    if r.ndim < 2 or r.shape[-2] != n or w.ndim < 1 or w.shape[-1] != n:
        raise ValueError(f"lax.linalg.cholesky_update takes a square matrix and a vector "
                         f"of the same size, got shapes {r.shape} and {w.shape}")
    dtype = np.result_type(r.dtype, w.dtype)
    r, w = fnp.astype(r, dtype), fnp.astype(w, dtype)
    batch = broadcast_shapes(r.shape[:-2], w.shape[:-1])
    r, w = fnp.broadcast_to(r, batch + (n, n)), fnp.broadcast_to(w, batch + (n,))
    rows = []
    # rotation k mixes row k of R with w and zeroes w[k]: row k is final after it
    for k in range(n):
        c, s = _rotation(r[..., k, k], w[..., k])
        c, s, row = c[..., None], s[..., None], r[..., k, :]
        rows.append(c * row - s * w)
        w = c * w + s * row
    return fnp.stack(rows, axis=-2) if rows else r


# --- symmetric_product ------------------------------------------------------------------------

def symmetric_product(a_matrix: ArrayLike, c_matrix: ArrayLike, *, alpha: float = 1.0,
                      beta: float = 0.0, symmetrize_output: bool = False) -> Array:
    """``alpha * a @ a^T + beta * c`` for ``a`` of shape ``(..., m, n)`` and symmetric
    ``c`` of shape ``(..., m, m)`` (real, as JAX's).  As JAX, only the lower triangle is
    promised; ``symmetrize_output`` mirrors it onto the upper one.  Differentiable (JAX
    defines no derivative).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.linalg.symmetric_product(np.array([[1.0, 2.0], [3.0, 4.0]]), np.eye(2),
    ...                              alpha=1.0, beta=2.0)
    array([[ 7., 11.],
           [11., 27.]])
    """
    a = accept("linalg.symmetric_product", array(a_matrix), FLOAT)
    c = accept("linalg.symmetric_product", array(c_matrix), FLOAT)
    if (a.ndim < 2 or c.ndim < 2 or c.shape[-1] != c.shape[-2]
            or c.shape[-1] != a.shape[-2]):
        raise ValueError(f"lax.linalg.symmetric_product expects a matrix a of shape (m, n) "
                         f"and a square c of shape (m, m), got shapes {a.shape} and "
                         f"{c.shape}")
    out = alpha * fnp.matmul(a, fnp.swapaxes(a, -1, -2)) + beta * c
    if symmetrize_output:
        out = fnp.tril(out) + fnp.swapaxes(fnp.tril(out, -1), -1, -2)
    return out


# --- qdwh -------------------------------------------------------------------------------------

_CHOLESKY_CUTOFF = 100  # (JAX's: above it a step is taken by QR, below by Cholesky)


def _schedule(eps, max_iterations):
    """JAX's weights ``(a, b, c)`` per step, while the lower bound ``l`` of the smallest
    singular value (of the scaled matrix) has not reached 1: ``(qr_steps, cholesky_steps)``
    of parameters, each ``(a - e) / sqrt(c), sqrt(c), e`` (QR) or ``a - e, c, e``
    (Cholesky), ``e = b / c``; Python floats, as JAX's."""
    qr, chol = [], []
    tol_l = 10.0 * eps / 2.0
    l, k = eps, 0
    while l + tol_l < 1 and k < max_iterations:
        k += 1
        l2 = l * l
        dd = (4 * (1 / l2 - 1) / l2) ** (1 / 3)
        sqd = (1.0 + dd) ** (1 / 2)
        a = sqd + (2 - dd + 2 * (2 - l2) / (l2 * sqd)) ** (1 / 2)
        b = (a - 1) ** 2 / 4
        c = a + b - 1
        l = l * (a + b * l2) / (1 + c * l2)
        e = b / c
        if c > _CHOLESKY_CUTOFF:
            qr.append(((a - e) / c ** (1 / 2), c ** (1 / 2), e))
        else:
            chol.append((a - e, c, e))
    return qr, chol


def _adjoint(x):
    x = fnp.swapaxes(x, -1, -2)
    return fnp.conj(x) if x.dtype.kind == "c" else x


def _qr_step(u, params, dtype):
    a_minus_e_by_sqrt_c, sqrt_c, e = (np.asarray(p, dtype) for p in params)
    m, n = u.shape
    q, _ = fnp.linalg.qr(fnp.concatenate([sqrt_c * u, np.eye(n, dtype=dtype)]))
    return e * u + a_minus_e_by_sqrt_c * fnp.matmul(q[:m], _adjoint(q[m:]))


def _cholesky_step(u, params, dtype):
    # u (c u^H u + I)^-1 by the Cholesky factor y of c u^H u + I: y^-H (y^-1 u^H), adjoint
    a_minus_e, c, e = (np.asarray(p, dtype) for p in params)
    n = u.shape[-1]
    y = fnp.linalg.cholesky(c * fnp.matmul(_adjoint(u), u) + np.eye(n, dtype=dtype))
    z = _adjoint(fnp.linalg.solve(_adjoint(y), fnp.linalg.solve(y, _adjoint(u))))
    return e * u + a_minus_e * z


def qdwh(x: ArrayLike, *, is_hermitian: bool = False, max_iterations: int | None = None,
         eps: float | None = None, dynamic_shape: tuple[int, int] | None = None
         ) -> tuple[Array, Array, Array, Array]:
    """``(u, h, num_iters, is_converged)``: the polar decomposition ``x = u @ h`` of a
    full-rank ``M x N`` matrix (``M >= N``; ``u`` with orthonormal columns, ``h``
    Hermitian positive semi-definite) by JAX's QR-based dynamically weighted Halley
    iteration: the same steps and stopping rule (``|u_k - u_{k-1}| < (5 eps)^(1/3)``,
    at most ``max_iterations``, default 10), the number of steps taken (int32) and
    whether it converged (bool).  ``is_hermitian`` is accepted and unused, as JAX's.
    ``dynamic_shape=(m, n)``: ``x`` is an ``m x n`` matrix padded to its shape; the
    results are that matrix's, zero-padded (static ints here: under ``jit`` pass them as
    static arguments).  Differentiable in ``x`` (JAX: forward mode only).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> u, h, num_iters, is_converged = lax.linalg.qdwh(np.array([[0.0, 2.0], [3.0, 0.0]]))
    >>> np.round(u, 6) + 0.0, np.round(h, 6), bool(is_converged)
    (array([[0., 1.],
           [1., 0.]]), array([[3., 0.],
           [0., 2.]]), True)
    """
    x = accept("linalg.qdwh", array(x), INEXACT)
    if x.ndim != 2 or x.shape[0] < x.shape[1]:
        raise ValueError(f"lax.linalg.qdwh needs one M x N matrix with M >= N, got shape "
                         f"{x.shape} (use funcgrad.vmap for a stack of them)")
    max_iterations = 10 if max_iterations is None else static_int(
        max_iterations, "lax.linalg.qdwh: max_iterations")
    if dynamic_shape is not None:
        true_shape = static_ints(dynamic_shape, "lax.linalg.qdwh: dynamic_shape")
        m, n = true_shape if len(true_shape) == 2 else (0, 0)
        if not 1 <= n <= m <= x.shape[0] or n > x.shape[1]:
            raise ValueError(f"lax.linalg.qdwh: dynamic_shape (the true shape of the padded "
                             f"matrix) must fit in its shape {x.shape} with m >= n, got "
                             f"{true_shape}")
        if (m, n) != x.shape:
            # JAX masks the padding to zeros and iterates on the padded matrix, whose
            # results are the true matrix's, zero-padded: the same, computed on the slice
            (big_m, big_n), x = x.shape, x[:m, :n]
            u, h, num_iters, is_converged = qdwh(x, max_iterations=max_iterations, eps=eps)
            return (fnp.pad(u, ((0, big_m - m), (0, big_n - n))),
                    fnp.pad(h, ((0, big_n - n), (0, big_n - n))), num_iters, is_converged)
    if x.dtype.itemsize < 4:
        x = fnp.astype(x, np.float32)
    dtype = x.dtype
    eps = float(np.finfo(dtype).eps) if eps is None else float(eps)
    one_norm, inf_norm = fnp.linalg.norm(x, ord=1), fnp.linalg.norm(x, ord=np.inf)
    zero = one_norm == 0
    # (a zero matrix is scaled by 1: the guard keeps the other branch's division finite)
    alpha_inverse = fnp.where(zero, 1, 1 / fnp.sqrt(fnp.where(zero, 1, one_norm))
                              / fnp.sqrt(fnp.where(zero, 1, inf_norm)))
    u = x * fnp.astype(alpha_inverse, dtype)
    tol_norm = float(np.cbrt(10.0 * eps / 2.0))
    qr_steps, chol_steps = _schedule(eps, max_iterations)
    for params in qr_steps:
        u = _qr_step(u, params, dtype)
    not_converged = fnp.asarray(True)
    for params in chol_steps:
        u_prev, u = u, _cholesky_step(u, params, dtype)
        not_converged = fnp.linalg.norm(u - u_prev) > tol_norm

    halley = (3 - 1 / 3, 3, 1 / 3)  # (a, b, c) -> (3, 1, 3) as l -> 1: Halley's method

    def keep_going(state):
        k, _, not_converged = state
        return fnp.logical_and(not_converged, k < max_iterations)

    def step(state):
        k, u, _ = state
        u_next = _cholesky_step(u, halley, dtype)
        return k + 1, u_next, fnp.linalg.norm(u_next - u) > tol_norm

    start = np.int32(len(qr_steps) + len(chol_steps))
    num_iters, u, not_converged = while_loop(keep_going, step, (start, u, not_converged))
    # a Newton-Schulz step for accuracy, then h = u^H x made exactly Hermitian
    u = 1.5 * u - 0.5 * fnp.matmul(u, fnp.matmul(_adjoint(u), u))
    h = fnp.matmul(_adjoint(u), x)
    h = (h + _adjoint(h)) / 2
    return u, h, fnp.astype(num_iters, np.int32), fnp.logical_not(not_converged)
