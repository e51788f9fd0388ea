"""``jax.lax.linalg``'s factorizations and solves, with JAX's argument names and result
orders (``eigh`` gives ``(v, w)``, ``lu`` gives ``(lu, pivots, permutation)``, ``eig``
and ``schur`` give lists), on ``funcgrad.numpy.linalg`` and ``funcgrad.scipy.linalg``:
differentiable as those are, under every transform (``schur`` has no derivative, and
takes plain arrays, as ``funcgrad.scipy.linalg.schur``).  ``tridiagonal_solve`` is its
own primitive (LAPACK's ``?gtsv``, ``O(m)`` per system); the Householder functions
(``hessenberg``, ``tridiagonal``, ``householder_product``, ``ormqr``) come from
:mod:`._householder`, and ``cholesky_update``, ``symmetric_product`` and ``qdwh`` from
:mod:`._linalg_updates`.

Where JAX's XLA kernels return NaNs (``cholesky`` of a matrix that is not positive
definite), funcgrad raises NumPy's ``LinAlgError`` with the reason instead.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..primitives import tridiagonal as _tridiagonal
from ..scipy import _decomp, _qr_pivoting, _spectral
from ._common import INEXACT, INTEGER, accept, array, static_int
from ._householder import hessenberg, householder_product, ormqr, tridiagonal
from ._linalg_updates import cholesky_update, qdwh, symmetric_product
from ..typing import Array, ArrayLike

__all__ = ["cholesky", "cholesky_update", "eig", "eigh", "hessenberg", "householder_product",
           "lu", "lu_pivots_to_permutation", "ormqr", "qdwh", "qr", "schur", "svd",
           "symmetric_product", "triangular_solve", "tridiagonal", "tridiagonal_solve"]


def _matrices(name, x):
    x = accept(name, array(x), INEXACT)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2] and name in ("cholesky", "eigh"):
        raise ValueError(f"lax.linalg.{name} needs square matrices in the last two axes, "
                         f"got shape {x.shape}")
    return x


def _adjoint(x):
    x = fnp.swapaxes(x, -1, -2)
    return fnp.conj(x) if x.dtype.kind == "c" else x


def _symmetrized(x):
    # JAX's symmetrize_input: the Hermitian part, so both triangles count
    return (x + _adjoint(x)) / 2


def cholesky(x: ArrayLike, *, symmetrize_input: bool = True) -> Array:
    """The lower Cholesky factor ``L`` (``x = L @ L^H``) of Hermitian positive-definite
    matrices; with ``symmetrize_input`` (JAX's default) of ``(x + x^H) / 2``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 2.0]]))
    array([[2., 0.],
           [1., 1.]])
    """
    x = _matrices("cholesky", x)
    return fnp.linalg.cholesky(_symmetrized(x) if symmetrize_input else x)


def eigh(x: ArrayLike, *, lower: bool = True, symmetrize_input: bool = True,
         sort_eigenvalues: bool = True, subset_by_index: Any = None,
         implementation: Any = None) -> tuple[Array, Array]:
    """``(v, w)``: the eigenvectors (columns) and ascending eigenvalues of Hermitian
    matrices, in JAX's order; with ``symmetrize_input`` (JAX's default) of
    ``(x + x^H) / 2``, else of the ``lower`` (or upper) triangle.  ``subset_by_index``
    (``(start, stop)``) keeps those eigenpairs.  ``implementation`` (JAX's choice of
    algorithm) is accepted and ignored: LAPACK's, as JAX's CPU default.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> v, w = lax.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> w
    array([1., 3.])
    """
    x = _matrices("eigh", x)
    w, v = fnp.linalg.eigh(_symmetrized(x) if symmetrize_input else x,
                           UPLO="L" if lower else "U")
    if subset_by_index is not None:
        start, stop = (int(i) for i in subset_by_index)
        w, v = w[..., start:stop], v[..., start:stop]
    return v, w


def qr(x: ArrayLike, *, pivoting: bool = False, full_matrices: bool = True,
       use_magma: bool | None = None) -> tuple[Array, ...]:
    """``(q, r)`` with ``x = q @ r``: ``q`` square (``full_matrices``, JAX's default) or
    with ``min(m, n)`` columns; ``pivoting=True`` gives ``(q, r, p)`` with ``x[..., :, p]
    = q @ r`` (LAPACK's column pivoting, differentiable with ``p`` held fixed, as
    ``funcgrad.scipy.linalg.qr``'s).  ``use_magma`` (a GPU library's choice in JAX) is
    accepted and ignored.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> q, r = lax.linalg.qr(np.array([[3.0], [4.0]]))
    >>> q.shape, r.shape
    ((2, 2), (2, 1))
    """
    x = _matrices("qr", x)
    if pivoting:
        x, p = _qr_pivoting.pivot_columns(x, "lax.linalg.qr")
        q, r = fnp.linalg.qr(x, mode="complete" if full_matrices else "reduced")
        return q, r, p
    q, r = fnp.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return q, r


def svd(x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True,
        subset_by_index: Any = None, algorithm: Any = None) -> Any:
    """``(u, s, vh)`` with ``x = u @ diag(s) @ vh`` (descending ``s``), or ``s`` alone
    without ``compute_uv``; ``subset_by_index`` (``(start, stop)``) keeps those singular
    triplets.  ``algorithm`` is accepted and ignored.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.linalg.svd(np.array([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False)
    array([4., 3.])
    """
    x = _matrices("svd", x)
    cut = (slice(None) if subset_by_index is None
           else slice(*(int(i) for i in subset_by_index)))
    if not compute_uv:
        return fnp.linalg.svd(x, compute_uv=False)[..., cut]
    u, s, vh = fnp.linalg.svd(x, full_matrices=full_matrices)
    if subset_by_index is None:
        return u, s, vh
    return u[..., cut], s[..., cut], vh[..., cut, :]


def triangular_solve(a: ArrayLike, b: ArrayLike, *, left_side: bool = False,
                     lower: bool = False, transpose_a: bool = False, conjugate_a: bool = False,
                     unit_diagonal: bool = False) -> Array:
    """``x`` with ``op(a) @ x == b`` (``left_side``) or ``x @ op(a) == b`` (JAX's default),
    reading only the ``lower`` (default upper) triangle of ``a``, its diagonal taken as
    ones with ``unit_diagonal``; ``op`` transposes and/or conjugates as asked.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.linalg.triangular_solve(np.array([[2.0, 0.0], [1.0, 4.0]]),
    ...                             np.array([[2.0], [5.0]]), left_side=True, lower=True)
    array([[1.],
           [1.]])
    """
    a, b = _matrices("triangular_solve", a), accept("triangular_solve", array(b), INEXACT)
    n = a.shape[-1]
    if a.shape[-2] != n or b.ndim < 2 or b.shape[-2 if left_side else -1] != n:
        raise ValueError(f"lax.linalg.triangular_solve: a must be square and match b's "
                         f"{'rows' if left_side else 'columns'}, got shapes {a.shape} and "
                         f"{b.shape}")
    t = fnp.tril(a) if lower else fnp.triu(a)
    if unit_diagonal:
        eye = np.eye(n, dtype=bool)
        t = fnp.where(eye, fnp.ones((), a.dtype), t)
    if conjugate_a and t.dtype.kind == "c":
        t = fnp.conj(t)
    if transpose_a:
        t = fnp.swapaxes(t, -1, -2)
    dtype = np.result_type(t.dtype, b.dtype)
    t, b = fnp.astype(t, dtype), fnp.astype(b, dtype)
    if left_side:
        return fnp.linalg.solve(t, b)
    # x @ t = b  <=>  t^T @ x^T = b^T
    return fnp.swapaxes(fnp.linalg.solve(fnp.swapaxes(t, -1, -2), fnp.swapaxes(b, -1, -2)),
                        -1, -2)


def lu(x: ArrayLike) -> tuple[Array, Array, Array]:
    """``(lu, pivots, permutation)``: the LU factorization with partial pivoting of
    (stacks of) m x n matrices, as JAX: ``L`` (unit diagonal, not stored) below the
    diagonal of ``lu`` and ``U`` on and above it; row ``k`` was swapped with row
    ``pivots[k]`` (int32, ``min(m, n)`` of them); ``x[permutation] == L @ U`` (int32).
    Differentiable in ``x`` where the pivots do not tie.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lu, pivots, perm = lax.linalg.lu(np.array([[1.0, 2.0], [4.0, 4.0]]))
    >>> lu, pivots, perm
    (array([[4.  , 4.  ],
           [0.25, 1.  ]]), array([1, 1], dtype=int32), array([1, 0], dtype=int32))
    """
    x = accept("lu", array(x), INEXACT)
    if x.ndim < 2:
        raise ValueError(f"lax.linalg.lu needs matrices in the last two axes, got shape "
                         f"{x.shape}")
    factors, pivots, perm = _decomp.getrf(x)
    return factors, pivots, fnp.astype(perm, np.int32)


def lu_pivots_to_permutation(pivots: ArrayLike, permutation_size: int) -> Array:
    """The row order (int32, ``permutation_size`` long, over the last axis) that the swaps
    ``pivots`` make: starting from ``0, 1, ...``, row ``k`` swapped with row
    ``pivots[k]`` in turn (LAPACK's convention, what :func:`lu` returns).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.linalg.lu_pivots_to_permutation(np.array([2, 2, 2], np.int32), 4)
    array([2, 0, 1, 3], dtype=int32)
    """
    pivots = accept("lu_pivots_to_permutation", array(pivots), INTEGER)
    size = static_int(permutation_size, "lax.linalg.lu_pivots_to_permutation: "
                                        "permutation_size")
    if pivots.ndim < 1 or pivots.shape[-1] > size:
        raise ValueError(f"lax.linalg.lu_pivots_to_permutation: the pivots (last axis) "
                         f"must be at most permutation_size={size} long, got shape "
                         f"{pivots.shape}")
    rows = np.arange(size)
    perm = fnp.broadcast_to(fnp.astype(fnp.asarray(rows), np.int32),
                            pivots.shape[:-1] + (size,))
    for k in range(pivots.shape[-1]):
        p = pivots[..., k:k + 1]
        # swap entries k and p: where rows == k take perm[p], where rows == p take perm[k]
        at_p = fnp.take_along_axis(perm, fnp.astype(p, np.int64), -1, mode="clip")
        at_k = perm[..., k:k + 1]
        perm = fnp.where(rows == k, at_p, fnp.where(rows == p, at_k, perm))
    return perm


def eig(x: ArrayLike, *, compute_left_eigenvectors: bool = True,
        compute_right_eigenvectors: bool = True, enable_eigvec_derivs: bool = False,
        implementation: Any = None, use_magma: Any = None) -> list[Array]:
    """``[w, vl, vr]`` (JAX's order; ``vl``/``vr`` only when asked): the eigenvalues and
    unit left (``vl^H @ x = w * vl^H``) and right (``x @ vr = vr * w``) eigenvectors of
    square matrices, all complex, as JAX.  Derivatives as
    :func:`funcgrad.scipy.linalg.eig`: the eigenvalues, and functions of the vectors that
    do not depend on each vector's phase; ``enable_eigvec_derivs`` is accepted.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> w, vr = lax.linalg.eig(np.array([[2.0, 0.0], [0.0, 3.0]]),
    ...                        compute_left_eigenvectors=False)
    >>> w
    array([2.+0.j, 3.+0.j])
    """
    x = _matrices("eig", x)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"lax.linalg.eig needs square matrices in the last two axes, got "
                         f"shape {x.shape}")
    out = _spectral.eig(x, left=compute_left_eigenvectors, right=compute_right_eigenvectors)
    out = out if isinstance(out, tuple) else (out,)
    complex_dtype = np.result_type(x.dtype, np.complex64)
    return [fnp.astype(o, complex_dtype) for o in out]


def schur(x: ArrayLike, *, compute_schur_vectors: bool = True, sort_eig_vals: bool = False,
          select_callable: Any = None) -> list[Array]:
    """``[t, vs]`` (``[t]`` without ``compute_schur_vectors``), JAX's order: the Schur form
    ``x = vs @ t @ vs^H`` of (stacks of) square matrices, real (quasi-triangular ``t``)
    for real ``x``.  No derivative (as JAX's): plain arrays only, as
    :func:`funcgrad.scipy.linalg.schur`, which sorts eigenvalues (``sort=``) where this
    does not.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> t, vs = lax.linalg.schur(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> t
    array([[1., 2.],
           [0., 3.]])
    """
    if sort_eig_vals or select_callable is not None:
        raise NotImplementedError("lax.linalg.schur: sorting the eigenvalues is not "
                                  "supported here; use funcgrad.scipy.linalg.schur(x, "
                                  "sort=...)")
    x = _matrices("schur", x)
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"lax.linalg.schur needs square matrices in the last two axes, got "
                         f"shape {x.shape}")
    if x.ndim == 2:
        t, vs = _spectral.schur(x)
    else:
        parts = [_spectral.schur(x[i]) for i in np.ndindex(*x.shape[:-2])]
        t = np.stack([p[0] for p in parts]).reshape(x.shape)
        vs = np.stack([p[1] for p in parts]).reshape(x.shape)
    return [t, vs] if compute_schur_vectors else [t]


def tridiagonal_solve(dl: ArrayLike, d: ArrayLike, du: ArrayLike, b: ArrayLike, *,
                      perturb_singular: bool = False) -> Array:
    """``x`` with ``A @ x == b`` for the tridiagonal ``A`` of sub-diagonal ``dl`` (its
    first entry unused), diagonal ``d`` and super-diagonal ``du`` (its last entry unused),
    each ``(..., m)``; ``b`` is ``(..., m, n)`` with the same leading axes, as JAX.
    LAPACK's ``?gtsv`` (partial pivoting, ``O(m)`` per system and column, JAX's CPU
    routine), in the operands' common dtype.  Differentiable in all four (JAX's rules:
    ``dx = A^-1 (db - dA x)``, the transpose solved with ``A^T``).  A singular ``A``
    raises ``LinAlgError`` where JAX returns NaNs; with ``perturb_singular``, JAX's CPU
    algorithm perturbs its tiny pivots instead (a finite ``x``, JAX's bits: inverse
    iteration's ``(T - lambda I) x = b``), each solve of the rules perturbed alike.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.linalg.tridiagonal_solve(np.array([0.0, 1.0]), np.array([2.0, 2.0]),
    ...                              np.array([1.0, 0.0]), np.array([[3.0], [3.0]]))
    array([[1.],
           [1.]])
    """
    dl, d, du = (accept("tridiagonal_solve", array(v), INEXACT) for v in (dl, d, du))
    b = accept("tridiagonal_solve", array(b), INEXACT)
    m = d.shape[-1] if d.ndim else -1
    if (d.ndim < 1 or dl.shape != d.shape or du.shape != d.shape or b.ndim < 2
            or b.shape[-2] != m or b.shape[:-2] != d.shape[:-1]):
        raise ValueError(f"lax.linalg.tridiagonal_solve: dl, d and du must share a shape "
                         f"(..., m) and b must be (..., m, n), got {dl.shape}, {d.shape}, "
                         f"{du.shape} and {b.shape}")
    dtype = np.result_type(dl.dtype, d.dtype, du.dtype, b.dtype, np.float32)
    return _tridiagonal.tridiagonal_solve(*(v if v.dtype == dtype else fnp.astype(v, dtype)
                                            for v in (dl, d, du, b)),
                                          perturb_singular=bool(perturb_singular))
