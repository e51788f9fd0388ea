"""``jax.lax.linalg``'s Householder functions: the reductions ``hessenberg`` and
``tridiagonal`` (LAPACK's packed ``(a, taus)`` output, values only, as JAX's), and
``householder_product`` and ``ormqr``, which apply the reflectors such output holds.

``ormqr`` is written with ``funcgrad.numpy`` (one rank-1 update per reflector, ``Q``
never formed, as JAX's portable lowering), and ``householder_product`` is ``ormqr`` of
the identity's first columns: both are differentiable in every argument, under every
transform, where JAX defines no derivative for them.
"""
import numpy as np

from .. import numpy as fnp
from ..primitives import condensed
from ._common import INEXACT, accept, array
from ..typing import Array, ArrayLike

__all__ = ["hessenberg", "tridiagonal", "householder_product", "ormqr"]


def _square(name, a):
    a = accept(f"linalg.{name}", array(a), INEXACT)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"lax.linalg.{name} needs square matrices in the last two axes, "
                         f"got shape {a.shape}")
    return a if a.dtype.itemsize >= 4 else fnp.astype(a, np.float32)


def hessenberg(a: ArrayLike) -> tuple[Array, Array]:
    """``(a, taus)``: the reduction ``a = Q H Q^H`` of square matrices to upper Hessenberg
    ``H`` (LAPACK's ``?gehrd``, JAX's packed form): ``H`` on and above the first
    sub-diagonal of the returned ``a``, the Householder vectors of ``Q`` below it, and
    their ``n - 1`` scale factors ``taus``.  Stacks of matrices too.  No derivative (as
    JAX's): differentiating through it raises.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]])
    >>> h, taus = lax.linalg.hessenberg(a)
    >>> h.shape, taus.shape
    ((3, 3), (2,))
    >>> bool(np.isclose(np.trace(np.triu(h, -1)), np.trace(a)))
    True
    """
    return condensed.hessenberg(_square("hessenberg", a))


def tridiagonal(a: ArrayLike, *, lower: bool = True) -> tuple[Array, Array, Array, Array]:
    """``(a, d, e, taus)``: the reduction ``a = Q T Q^H`` of Hermitian matrices to real
    symmetric tridiagonal ``T`` (LAPACK's ``?sytrd``/``?hetrd``, JAX's packed form),
    reading only the ``lower`` (else upper) triangle.  ``d`` is ``T``'s diagonal and
    ``e`` its off-diagonal (both real); the returned ``a`` holds them and, past them, the
    Householder vectors of ``Q``, whose scale factors are ``taus``.  No derivative (as
    JAX's): differentiating through it raises.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> a = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])
    >>> _, d, e, taus = lax.linalg.tridiagonal(a)
    >>> d, e
    (array([2., 3., 4.]), array([1., 1.]))
    """
    return condensed.tridiagonal(_square("tridiagonal", a), lower=lower)


def ormqr(a: ArrayLike, taus: ArrayLike, c: ArrayLike, *, left: bool = True,
          transpose: bool = False) -> Array:
    """``Q @ c`` (``left``, JAX's default) or ``c @ Q``, with ``Q^H`` in place of ``Q``
    when ``transpose``, for the ``Q = H_0 H_1 ... H_{k-1}`` whose reflectors ``H_i = I -
    taus[i] v_i v_i^H`` are stored in ``a`` (``(..., m, n)``: ``v_i`` is column ``i``
    below the diagonal, with a unit entry at ``i``), as LAPACK's ``?geqrf`` leaves them;
    ``Q`` is never formed.  Differentiable in all three arguments.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> a = np.array([[1.0], [1.0]])       # v = (1, 1), and tau = 1: a reflection
    >>> lax.linalg.ormqr(a, np.array([1.0]), np.array([[1.0], [0.0]]))
    array([[ 0.],
           [-1.]])
    """
    a, taus, c = (accept("linalg.ormqr", array(v), INEXACT) for v in (a, taus, c))
    if a.ndim < 2 or taus.ndim < 1 or c.ndim < 2:
        raise ValueError(f"lax.linalg.ormqr: a and c must be (stacks of) matrices and taus "
                         f"(stacks of) vectors, got shapes {a.shape}, {taus.shape} and "
                         f"{c.shape}")
    m, n = a.shape[-2:]
    k = taus.shape[-1]
    if k > min(m, n) or c.shape[-2 if left else -1] != m:
        raise ValueError(f"lax.linalg.ormqr: taus (shape {taus.shape}) may hold at most "
                         f"min(m, n) factors, and c's {'rows' if left else 'columns'} must "
                         f"match a's m={m} rows; got a: {a.shape}, c: {c.shape}")
    dtype = np.result_type(a.dtype, taus.dtype, c.dtype)
    complex_ = dtype.kind == "c"
    a, taus, c = (fnp.astype(v, dtype) for v in (a, taus, c))
    # the reflectors' vectors: a's columns below the diagonal, a unit entry on it
    vectors = fnp.tril(a[..., :, :k], -1) + np.eye(m, k, dtype=dtype)
    if transpose and complex_:
        taus = fnp.conj(taus)
    # Q c and c Q^H apply H_{k-1} first; Q^H c and c Q apply H_0 first
    order = range(k - 1, -1, -1) if left != transpose else range(k)
    for i in order:
        v = vectors[..., :, i:i + 1]                   # (..., m, 1)
        v_h = fnp.swapaxes(fnp.conj(v) if complex_ else v, -1, -2)
        tau = taus[..., i:i + 1, None]
        if left:   # c - tau v (v^H c)
            c = c - tau * fnp.matmul(v, fnp.matmul(v_h, c))
        else:      # c - tau (c v) v^H
            c = c - tau * fnp.matmul(fnp.matmul(c, v), v_h)
    return c


def householder_product(a: ArrayLike, taus: ArrayLike) -> Array:
    """The first ``n`` columns of ``Q = H_0 H_1 ... H_{k-1}`` (shape ``(..., m, n)``, as
    ``a``): the orthonormal (unitary) factor of a QR factorization from the reflectors
    ``a`` and factors ``taus`` that LAPACK's ``?geqrf`` returns (LAPACK's ``?orgqr``;
    see :func:`ormqr`).  Differentiable in both arguments.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.linalg.householder_product(np.array([[1.0], [1.0]]), np.array([1.0]))
    array([[ 0.],
           [-1.]])
    """
    a = accept("linalg.householder_product", array(a), INEXACT)
    if a.ndim < 2 or a.shape[-2] < a.shape[-1]:
        raise ValueError(f"lax.linalg.householder_product needs (stacks of) m x n matrices "
                         f"with m >= n, got shape {a.shape}")
    m, n = a.shape[-2:]
    dtype = np.result_type(a.dtype, getattr(taus, "dtype", a.dtype))
    return ormqr(a, taus, np.broadcast_to(np.eye(m, n, dtype=dtype), a.shape))
