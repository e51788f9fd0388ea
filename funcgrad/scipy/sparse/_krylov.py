"""The Krylov machinery of ``funcgrad.scipy.sparse.linalg``: an operand as a map ``v -> A v``,
and each solve a ``fg.lax.custom_linear_solve`` whose iterations are a traced loop (see that
module's docstring)."""
import numpy as np

from ... import numpy as fnp
from ...lax import custom_linear_solve, while_loop
from ...numpy._convert import asarray
from ._arrays_linalg import as_sparse


def _operator(name, what, a):
    """``v -> a v`` for an array, a function or an object with ``matvec``."""
    if a is None:
        return lambda v: v
    if callable(a) and not hasattr(a, "shape"):
        return a
    sparse = as_sparse(a)
    if sparse is not None:  # (products by the stored entries: never densified)
        if sparse.shape[0] != sparse.shape[1]:
            raise ValueError(f"{name}: {what} must be square, got shape {sparse.shape}")
        return lambda v: sparse @ v
    if hasattr(a, "matvec"):
        return a.matvec
    matrix = asarray(densified(a))
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"{name}: {what} must be a square matrix, a function v -> {what} v "
                         f"or an object with a matvec method; got shape {tuple(matrix.shape)}")
    return lambda v: matrix @ v


def densified(a):
    """A sparse array (SciPy's or funcgrad's) as a dense array, for the functions that work
    on the dense matrix (at the memory cost of a dense copy; the solvers take sparse
    operands by their products instead); anything else as given."""
    if hasattr(a, "toarray") and hasattr(a, "tocsr"):
        return a.toarray()
    return a


def _dot(u, v):
    return fnp.sum(fnp.conj(u) * v) if u.dtype.kind == "c" else fnp.sum(u * v)


def _norm(v):
    return fnp.sqrt(fnp.real(_dot(v, v)))


def _safe_divide(num, den):
    """``num / den``, 0 where ``den`` is 0 (a converged or broken-down step)."""
    zero = den == 0
    return fnp.where(zero, 0.0 * num, num / fnp.where(zero, 1.0, den))


def _setup(name, a, b, x0, m, callback, maxiter):
    if callback is not None:
        raise NotImplementedError(f"{name}: callback is not supported (the iterations are a "
                                  f"traced loop); call SciPy's {name} on plain arrays to "
                                  f"watch them")
    b = asarray(b)
    if b.ndim != 1:
        raise ValueError(f"{name}: b must be 1-d, got shape {tuple(b.shape)}")
    if b.dtype.kind in "biu":
        b = fnp.astype(b, np.float64)
    matvec, precondition = _operator(name, "A", a), _operator(name, "M", m)
    x0 = fnp.zeros_like(b) if x0 is None else fnp.astype(asarray(x0), b.dtype)
    maxiter = 10 * b.shape[0] if maxiter is None else int(maxiter)
    return b, matvec, precondition, x0, maxiter


def _solve(name, iterate, a, b, x0, rtol, atol, maxiter, m, callback, symmetric):
    b, matvec, precondition, x0, maxiter = _setup(name, a, b, x0, m, callback, maxiter)

    def solve(mv, rhs):
        tol = fnp.maximum(rtol * _norm(rhs), atol)
        x, count, residual = iterate(mv, precondition, rhs, x0, tol, maxiter)
        info = fnp.where(residual <= tol, 0, count)
        return x, info

    # (the transposed solve, for reverse mode, is the same method on the transposed map;
    # its preconditioner is left out: it only changes the iterations, not the solution)
    def transpose_solve(vm, rhs):
        tol = fnp.maximum(rtol * _norm(rhs), atol)
        return iterate(vm, lambda v: v, rhs, fnp.zeros_like(rhs), tol, maxiter)[0], 0
    return custom_linear_solve(matvec, b, solve, None if symmetric else transpose_solve,
                               symmetric=symmetric, has_aux=True)


def _cg(matvec, precondition, b, x0, tol, maxiter):
    r = b - matvec(x0)
    z = precondition(r)

    def cond(state):
        _, r, _, _, _, k = state
        return fnp.logical_and(_norm(r) > tol, k < maxiter)

    def body(state):
        x, r, z, p, rz, k = state
        ap = matvec(p)
        alpha = _safe_divide(rz, _dot(p, ap))
        x, r = x + alpha * p, r - alpha * ap
        z = precondition(r)
        rz_new = _dot(r, z)
        p = z + _safe_divide(rz_new, rz) * p
        return x, r, z, p, rz_new, k + 1
    x, r, _, _, _, k = while_loop(cond, body, (x0, r, z, z, _dot(r, z), 0))
    return x, k, _norm(r)


def _bicgstab(matvec, precondition, b, x0, tol, maxiter):
    r = b - matvec(x0)
    one = fnp.ones((), b.dtype)

    def cond(state):
        _, r, *_, k = state
        return fnp.logical_and(_norm(r) > tol, k < maxiter)

    def body(state):
        x, r, r_hat, p, v, rho, alpha, omega, k = state
        rho_new = _dot(r_hat, r)
        beta = _safe_divide(rho_new, rho) * _safe_divide(alpha, omega)
        p = r + beta * (p - omega * v)
        p_hat = precondition(p)
        v = matvec(p_hat)
        alpha = _safe_divide(rho_new, _dot(r_hat, v))
        s = r - alpha * v
        s_hat = precondition(s)
        t = matvec(s_hat)
        omega = _safe_divide(_dot(t, s), _dot(t, t))
        return (x + alpha * p_hat + omega * s_hat, s - omega * t, r_hat, p, v, rho_new, alpha,
                omega, k + 1)
    zero = fnp.zeros_like(b)
    state = while_loop(cond, body, (x0, r, r, zero, zero, one, one, one, 0))
    return state[0], state[-1], _norm(state[1])


def _gmres(restart):
    def iterate(matvec, precondition, b, x0, tol, maxiter):
        n = b.shape[0]
        m = max(1, min(restart, n))

        def cycle(x):
            """One restart: Arnoldi on the preconditioned operator, a small least squares."""
            r = precondition(b - matvec(x))
            beta = _norm(r)
            basis = [_safe_divide(r, beta)]
            h = [[None] * m for _ in range(m + 1)]
            for j in range(m):  # (modified Gram-Schmidt)
                w = precondition(matvec(basis[j]))
                for i in range(j + 1):
                    h[i][j] = _dot(basis[i], w)
                    w = w - h[i][j] * basis[i]
                h[j + 1][j] = _norm(w)
                basis.append(_safe_divide(w, h[j + 1][j]))
            zero = fnp.zeros((), b.dtype)
            hess = fnp.stack([fnp.stack([zero if e is None else fnp.astype(e, b.dtype)
                                         for e in row]) for row in h])
            rhs = fnp.concatenate([fnp.reshape(fnp.astype(beta, b.dtype), (1,)),
                                   fnp.zeros(m, b.dtype)])
            y = fnp.linalg.pinv(hess) @ rhs  # (least squares; a breakdown leaves it rank-deficient)
            return x + sum(y[j] * basis[j] for j in range(m))

        def cond(state):
            _, residual, k = state
            return fnp.logical_and(residual > tol, k < maxiter)

        def body(state):
            x, _, k = state
            x = cycle(x)
            return x, _norm(b - matvec(x)), k + 1
        x, residual, k = while_loop(cond, body, (x0, _norm(b - matvec(x0)), 0))
        return x, k, residual
    return iterate
