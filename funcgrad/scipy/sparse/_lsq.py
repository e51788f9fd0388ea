"""``lsqr`` and ``lsmr``: damped least squares ``min ||A x - b||^2 + damp^2 ||x||^2`` with
SciPy's signatures and result tuples, differentiated implicitly.

LSQR and LSMR are Golub-Kahan bidiagonalisations, mathematically conjugate gradients on
the normal equations ``(A^H A + damp^2 I) x = A^H b`` (CGLS) and MINRES on them; funcgrad
runs CG on those equations (or, for a wide ``A``, on ``(A A^H + damp^2 I) y = b`` with
``x = A^H y``, the same solution, minimum-norm without damping as LSQR's) inside ``fg.lax.custom_linear_solve``,
so the derivative is that of the exact solution -- in ``b``, in ``A`` (an array or what a
``LinearOperator``'s functions close over) and in ``damp`` -- never of the iterations.
The derivative in ``A`` assumes it has full rank (or ``damp > 0``): the least-squares
solution of a rank-deficient system is not differentiable.  The stopping test is the
normal equations' relative residual against ``min(atol, btol)``, so ``x`` agrees with
SciPy's to the tolerances and ``itn`` counts CG steps.  The norms in the tuple are those
of the returned ``x``; ``anorm``/``norma`` and ``acond``/``conda``, which SciPy estimates
along the iterations, are here the exact Frobenius norm of ``[A; damp I]`` and its
condition number ``||Abar||_F ||Abar^+||_F`` (computed from ``A``'s dense matrix, ``n``
products for an operator).
"""
from typing import Any, Optional, Tuple

import numpy as np

from ... import numpy as fnp
from ...lax import custom_linear_solve
from ...numpy._convert import asarray
from ...typing import ArrayLike
from ._krylov import _cg, _norm
from ._linop import aslinearoperator

__all__ = ["lsqr", "lsmr"]


def _cg_solve(normal, rhs, tol_rel, iter_lim):
    """``(y, itn)``: ``normal y = rhs`` for a Hermitian positive (semi)definite
    ``normal``, by CG inside ``custom_linear_solve``."""
    def solve(matvec, r):
        y, count, _ = _cg(matvec, lambda v: v, r, fnp.zeros_like(r), tol_rel * _norm(r),
                          iter_lim)
        return y, count
    return custom_linear_solve(normal, rhs, solve, symmetric=True, has_aux=True)


def _least_squares(name, A, b, damp, atol, btol, iter_lim, x0, calc_var):
    op = aslinearoperator(A)
    m, n = op.shape
    b = asarray(b)
    if b.shape not in ((m,), (m, 1)):
        raise ValueError(f"{name}: b must have shape ({m},) to match A's shape {op.shape}, "
                         f"got {tuple(b.shape)}")
    b = fnp.reshape(b, (m,))
    dtype = np.result_type(op.dtype, b.dtype, np.float64 if b.dtype.kind in "biu"
                           else b.dtype)
    b = fnp.astype(b, dtype)
    x0 = fnp.zeros(n, dtype) if x0 is None else fnp.astype(fnp.reshape(asarray(x0), (n,)),
                                                          dtype)
    iter_lim = int(iter_lim)
    tol = min(float(atol), float(btol))
    damped = not (isinstance(damp, (int, float)) and damp == 0)
    r0 = b - op.matvec(x0)
    if m < n:  # (the same correction, (A^H A + damp^2)^-1 A^H = A^H (A A^H + damp^2)^-1,
        # through the smaller system, nonsingular without damping: the minimum-norm one)
        y, itn = _cg_solve(lambda v: op.matvec(op.rmatvec(v)) + (damp * damp) * v, r0, tol,
                           iter_lim)
        x = x0 + op.rmatvec(y)
    else:
        dx, itn = _cg_solve(lambda v: op.rmatvec(op.matvec(v)) + (damp * damp) * v,
                            op.rmatvec(r0), tol, iter_lim)
        x = x0 + dx
    r = b - op.matvec(x)
    r1norm, xnorm = _norm(r), _norm(x)
    r2norm = fnp.sqrt(r1norm * r1norm + (damp * damp) * xnorm * xnorm)
    arnorm = _norm(op.rmatvec(r) - (damp * damp) * x)
    dense = op.matmat(fnp.eye(n, dtype=dtype))
    abar = fnp.concatenate([dense, damp * fnp.eye(n, dtype=dtype)]) if damped else dense
    sigma = fnp.linalg.svd(abar, compute_uv=False)
    positive = sigma > sigma[0] * max(m, n) * np.finfo(fnp.real(sigma).dtype).eps
    anorm = fnp.sqrt(fnp.sum(sigma * sigma))
    inv_norm = fnp.sqrt(fnp.sum(fnp.where(positive, 1.0 / fnp.where(positive, sigma, 1.0)
                                          ** 2, 0.0)))
    acond = anorm * inv_norm
    bnorm = _norm(b)
    # (SciPy's two tests: a solution of A x = b, or of the normal equations)
    solves = r1norm <= btol * bnorm + atol * anorm * xnorm
    least = arnorm <= atol * anorm * r2norm
    istop = fnp.where(bnorm == 0, 0, fnp.where(solves, 1, fnp.where(
        fnp.logical_or(least, itn < iter_lim), 2, 7)))
    if calc_var:
        normal = fnp.conj(dense).T @ dense + (damp * damp) * fnp.eye(n, dtype=dtype)
        var = fnp.real(fnp.diagonal(fnp.linalg.pinv(normal, hermitian=True)))
    else:
        var = fnp.zeros(n, fnp.real(x).dtype)
    return x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var


def lsqr(A: Any, b: ArrayLike, damp: float = 0.0, atol: float = 1e-06, btol: float = 1e-06,
         conlim: float = 100000000.0, iter_lim: Optional[int] = None, show: bool = False,
         calc_var: bool = False, x0: Optional[ArrayLike] = None) -> Tuple[Any, ...]:
    """``(x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var)``: the damped
    least-squares solution of ``A x = b`` (``scipy.sparse.linalg.lsqr``), ``A`` of shape
    ``(m, n)`` (an array, a SciPy sparse matrix -- densified -- or a ``LinearOperator``);
    differentiable in ``b``, ``A`` and ``damp``.  ``r1norm = ||b - A x||``, ``r2norm``
    with ``damp^2 ||x||^2`` added under the root, ``arnorm = ||A^H r - damp^2 x||``,
    ``var`` the diagonal of ``(A^H A + damp^2 I)^-1`` when ``calc_var`` (else zeros),
    ``istop`` 0 (``b = 0``), 1 (a solution of ``A x = b``), 2 (a least-squares solution)
    or 7 (``iter_lim``, default ``2 n``, reached).  ``conlim`` and ``show`` are accepted
    and do nothing; see the module's notes on ``anorm``, ``acond`` and ``itn``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse.linalg as fsl
    >>> a = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> out = fsl.lsqr(a, np.array([1.0, 2.0, 2.0]), atol=1e-12, btol=1e-12)
    >>> np.round(out[0], 6), int(out[1]), round(float(out[3]), 6)
    (array([1.166667, 0.5     ]), 2, 0.408248)
    >>> g = fg.grad(lambda b: fsl.lsqr(a, b, atol=1e-12, btol=1e-12)[0][1])(np.ones(3))
    >>> np.round(g, 6)  # the second row of pinv(a)
    array([-0.5,  0. ,  0.5])
    """
    n = aslinearoperator(A).shape[1]
    return _least_squares("lsqr", A, b, damp, atol, btol, 2 * n if iter_lim is None
                          else iter_lim, x0, calc_var)


def lsmr(A: Any, b: ArrayLike, damp: float = 0.0, atol: float = 1e-06, btol: float = 1e-06,
         conlim: float = 100000000.0, maxiter: Optional[int] = None, show: bool = False,
         x0: Optional[ArrayLike] = None) -> Tuple[Any, ...]:
    """``(x, istop, itn, normr, normar, norma, conda, normx)``: the damped least-squares
    solution of ``A x = b`` (``scipy.sparse.linalg.lsmr``), as :func:`lsqr` computes it
    (``normr`` is its ``r2norm``, ``normar`` its ``arnorm``); differentiable in ``b``,
    ``A`` and ``damp``.  ``maxiter`` defaults to ``2 n``, not SciPy's ``min(m, n)``: CG
    on the normal equations may need a few steps more than LSMR in floating point.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> a = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]])
    >>> x, istop, itn, normr = fsl.lsmr(a, np.array([1.0, 2.0, 2.0]), atol=1e-12,
    ...                                 btol=1e-12)[:4]
    >>> np.round(x, 6), round(float(normr), 6)
    (array([1.166667, 0.5     ]), 0.408248)
    """
    n = aslinearoperator(A).shape[1]
    out = _least_squares("lsmr", A, b, damp, atol, btol, 2 * n if maxiter is None
                         else maxiter, x0, False)
    x, istop, itn, _, r2norm, anorm, acond, arnorm, xnorm, _ = out
    return x, istop, itn, r2norm, arnorm, anorm, acond, xnorm
