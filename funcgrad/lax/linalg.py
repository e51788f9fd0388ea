"""``jax.lax.linalg``'s most used factorizations and the triangular solve, with JAX's
argument names and result orders (``eigh`` gives ``(v, w)``), on ``funcgrad.numpy.linalg``:
differentiable as those are, under every transform.

Where JAX's XLA kernels return NaNs (``cholesky`` of a matrix that is not positive
definite), funcgrad raises NumPy's ``LinAlgError`` with the reason instead.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ._common import INEXACT, accept, array
from ..typing import Array, ArrayLike

__all__ = ["cholesky", "eigh", "qr", "svd", "triangular_solve"]


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
         sort_eigenvalues: bool = True, subset_by_index: Any = None) -> tuple[Array, Array]:
    """``(v, w)``: the eigenvectors (columns) and ascending eigenvalues of Hermitian
    matrices, in JAX's order; with ``symmetrize_input`` (JAX's default) of
    ``(x + x^H) / 2``, else of the ``lower`` (or upper) triangle.  ``subset_by_index``
    (``(start, stop)``) keeps those eigenpairs.

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


def qr(x: ArrayLike, *, pivoting: bool = False, full_matrices: bool = True
       ) -> tuple[Array, Array]:
    """``(q, r)`` with ``x = q @ r``: ``q`` square (``full_matrices``, JAX's default) or
    with ``min(m, n)`` columns.  Column pivoting is not supported.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> q, r = lax.linalg.qr(np.array([[3.0], [4.0]]))
    >>> q.shape, r.shape
    ((2, 2), (2, 1))
    """
    if pivoting:
        raise NotImplementedError("lax.linalg.qr: pivoting=True is not supported; use "
                                  "pivoting=False")
    x = _matrices("qr", x)
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
