"""Triangular solves and the LU and Cholesky factorizations of ``funcgrad.scipy.linalg``,
composed of differentiable funcgrad operations (no new primitives).

* ``solve_triangular`` masks ``a`` to its triangle (and unit diagonal) and calls the
  general ``solve`` primitive: the same values to rounding, and derivatives (of any
  order, under ``vmap`` and ``jit``) that reach only the entries SciPy reads.  It costs
  an LU of the triangular matrix instead of a back substitution (documented choice: no
  triangular-solve primitive, so no new CPU/GPU kernels).
* ``lu``/``lu_factor`` run Gaussian elimination with partial pivoting (LAPACK's ``getf2``
  order: the first largest ``|a[i, k]|``, ``|re| + |im|`` if complex, is the pivot) one
  column at a time; the pivot row is picked with ``argmax`` and moved with a gather, so it
  works on traced values too.

Stacks of matrices (leading dimensions) are taken as SciPy 1.17 takes them: broadcast,
one factorization or solve per matrix (:func:`._linalg_tools.over_batch`).
"""
from typing import Union

import numpy as np

from .. import numpy as fnp
from ..primitives import linalg as _la
from ..typing import Array, ArrayLike
from ._linalg_tools import as_float, over_batch

__all__ = ["solve_triangular", "cho_factor", "cho_solve", "lu_factor", "lu_solve", "lu"]

_TRANS = {0: 0, "N": 0, 1: 1, "T": 1, 2: 2, "C": 2}



def _square(name, a):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name}: expected a square matrix, got shape {a.shape}; pass an "
                         f"(n, n) array (or a stack of them, (..., n, n))")


def _check_rhs(name, a, b):
    rows = b.shape[0]
    if b.ndim == 0 or rows != a.shape[-1]:
        raise ValueError(f"{name}: shapes of a {a.shape} and b {b.shape} are incompatible: "
                         f"b needs {a.shape[-1]} rows")


def _trans(name, trans):
    if trans not in _TRANS:
        raise ValueError(f"{name}: trans must be 0/'N', 1/'T' or 2/'C', got {trans!r}")
    return _TRANS[trans]


def _triangle(a, lower, unit_diagonal=False):
    t = fnp.tril(a) if lower else fnp.triu(a)
    if unit_diagonal:
        eye = np.eye(a.shape[-2], a.shape[-1], dtype=bool)
        t = fnp.where(eye, fnp.ones((), a.dtype), t)
    return t


def _apply_trans(a, trans):
    if trans == 0:
        return a
    a = fnp.swapaxes(a, -1, -2)
    return fnp.conj(a) if trans == 2 else a


@over_batch(("a", 2), ("b", "1|2"))
def solve_triangular(a: ArrayLike, b: ArrayLike, trans: Union[int, str] = 0, lower: bool = False,
                     unit_diagonal: bool = False, overwrite_b: bool = False,
                     check_finite: bool = True) -> Array:
    """``x`` with ``a @ x == b`` for triangular ``a`` (``scipy.linalg.solve_triangular``):
    only the ``lower`` (default upper) triangle of ``a`` is read, its diagonal taken as
    ones with ``unit_diagonal``; ``trans`` 0/'N', 1/'T' (``a.T @ x == b``), 2/'C' (``a^H``).

    Differentiable in ``a`` (its triangle only) and ``b``; it is ``solve`` on the masked
    matrix (see the module docstring).  ``overwrite_b``/``check_finite`` are accepted and
    ignored.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_triangular(np.array([[2.0, 9.0], [1.0, 4.0]]), np.array([2.0, 4.0]),
    ...                      lower=True)
    array([1.  , 0.75])
    """
    a, b = as_float(a), as_float(b)
    _square("solve_triangular", a)
    _check_rhs("solve_triangular", a, b)
    t = _apply_trans(_triangle(a, lower, unit_diagonal), _trans("solve_triangular", trans))
    dtype = np.result_type(t.dtype, b.dtype)
    return _la.solve(fnp.astype(t, dtype), fnp.astype(b, dtype))


# --- Cholesky -------------------------------------------------------------------------

def cho_factor(a: ArrayLike, lower: bool = False, overwrite_a: bool = False,
               check_finite: bool = True) -> tuple[Array, bool]:
    """``(c, lower)``: the Cholesky factor of a Hermitian positive-definite ``a`` in the
    ``lower`` (default upper) triangle of ``c``, for :func:`cho_solve`
    (``scipy.linalg.cho_factor``).  As SciPy's, the other triangle of ``c`` holds ``a``'s
    entries there (not zeros); :func:`cho_solve` never reads them.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> c, low = fsl.cho_factor(np.array([[4.0, 2.0], [2.0, 2.0]]))
    >>> c, low
    (array([[2., 1.],
           [2., 1.]]), False)
    """
    a = as_float(a)
    _square("cho_factor", a)
    # (numpy.linalg.cholesky reads the one triangle that SciPy's reads, so that the other
    # one gets no derivative)
    if lower:
        return fnp.tril(fnp.linalg.cholesky(a)) + fnp.triu(a, 1), True
    return fnp.triu(fnp.linalg.cholesky(a, upper=True)) + fnp.tril(a, -1), False


def cho_solve(c_and_lower: tuple[ArrayLike, bool], b: ArrayLike, overwrite_b: bool = False,
              check_finite: bool = True) -> Array:
    """``x`` with ``a @ x == b`` from ``cho_factor(a)`` (``scipy.linalg.cho_solve``):
    two triangular solves, differentiable in the factor and in ``b``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> a = np.array([[4.0, 2.0], [2.0, 2.0]])
    >>> fsl.cho_solve(fsl.cho_factor(a), np.array([2.0, 2.0]))
    array([0., 1.])
    """
    try:
        c, lower = c_and_lower
    except (TypeError, ValueError):
        raise TypeError("cho_solve: the first argument must be the pair (c, lower) that "
                        "cho_factor returns") from None
    return _cho_solve(c, b, lower)


@over_batch(("c", 2), ("b", "1|2"))
def _cho_solve(c, b, lower):
    c, b = as_float(c), as_float(b)
    _square("cho_solve", c)
    _check_rhs("cho_solve", c, b)
    if lower:
        y = solve_triangular(c, b, lower=True)
        return solve_triangular(c, y, trans=2, lower=True)
    y = solve_triangular(c, b, trans=2, lower=False)
    return solve_triangular(c, y, lower=False)


# --- LU ---------------------------------------------------------------------------------

def _eliminate(a):
    """Gaussian elimination with partial pivoting of an (m, n) matrix: ``(lu, piv,
    perm)`` with LAPACK's ``piv`` (row ``k`` was swapped with row ``piv[k]``) and the
    row order ``perm`` (``a[perm] == L @ U``)."""
    m, n = a.shape
    rows = np.arange(m)
    perm = fnp.asarray(rows)
    pivots = []
    for k in range(min(m, n)):
        col = a[k:, k]  # LAPACK's i?amax: |re| + |im| for complex numbers
        size = (fnp.abs(fnp.real(col)) + fnp.abs(fnp.imag(col)) if a.dtype.kind == "c"
                else fnp.abs(col))
        p = fnp.argmax(size) + k
        pivots.append(p)
        swap = fnp.where(rows == k, p, fnp.where(rows == p, k, rows))
        a = fnp.take(a, swap, axis=0)
        perm = fnp.take(perm, swap)
        if k + 1 == m:
            break
        pivot = a[k, k]
        col = a[k + 1:, k] * fnp.where(pivot == 0, 1.0, 1.0 / fnp.where(pivot == 0, 1.0,
                                                                          pivot))
        rest = a[k + 1:, k + 1:] - col[:, None] * a[k, k + 1:][None, :]
        below = fnp.concatenate([a[k + 1:, :k], col[:, None], rest], axis=1)
        a = fnp.concatenate([a[:k + 1], below], axis=0)
    piv = fnp.stack(pivots) if pivots else fnp.asarray(np.zeros(0, np.int64))
    return a, fnp.astype(piv, np.int32), perm


@over_batch(("a", 2))
def getrf(a: ArrayLike) -> tuple[Array, Array, Array]:
    """``(lu, piv, perm)`` of an (m, n) matrix (or a stack), as LAPACK's ``getrf``: ``L``
    (unit diagonal, not stored) below the diagonal of ``lu``, ``U`` on and above it; row
    ``k`` was swapped with row ``piv[k]``; ``a[perm] == L @ U`` (for
    ``funcgrad.lax.linalg.lu``, which returns these three).

    >>> import numpy as np
    >>> getrf(np.array([[1.0, 2.0], [4.0, 4.0]]))[1:]
    (array([1, 1], dtype=int32), array([1, 0]))
    """
    return _eliminate(as_float(a))


@over_batch(("a", 2))
def lu_factor(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True
              ) -> tuple[Array, Array]:
    """``(lu, piv)``: the pivoted LU factorization of a square ``a`` as LAPACK's ``getrf``
    (``scipy.linalg.lu_factor``): ``L`` (unit diagonal, not stored) below the diagonal of
    ``lu``, ``U`` on and above it; row ``i`` was interchanged with row ``piv[i]``.
    Differentiable in ``a`` where the pivots do not tie.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> lu, piv = fsl.lu_factor(np.array([[1.0, 2.0], [4.0, 4.0]]))
    >>> lu, piv
    (array([[4.  , 4.  ],
           [0.25, 1.  ]]), array([1, 1], dtype=int32))
    """
    a = as_float(a)
    _square("lu_factor", a)
    lu_, piv, _ = _eliminate(a)
    return lu_, piv


def _unit_lower(lu_):
    return _triangle(lu_, True, unit_diagonal=True)


def lu_solve(lu_and_piv: tuple[ArrayLike, ArrayLike], b: ArrayLike, trans: int = 0,
             overwrite_b: bool = False, check_finite: bool = True) -> Array:
    """``x`` with ``a @ x == b`` (``trans`` 1/'T': ``a.T``, 2/'C': ``a^H``) from
    ``lu_factor(a)`` (``scipy.linalg.lu_solve``); differentiable in ``lu`` and ``b``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> a = np.array([[1.0, 2.0], [4.0, 4.0]])
    >>> fsl.lu_solve(fsl.lu_factor(a), np.array([3.0, 8.0]))
    array([1., 1.])
    """
    try:
        lu_, piv = lu_and_piv
    except (TypeError, ValueError):
        raise TypeError("lu_solve: the first argument must be the pair (lu, piv) that "
                        "lu_factor returns") from None
    return _lu_solve(lu_, piv, b, trans)


@over_batch(("lu_", 2), ("piv", 1), ("b", "1|2"))
def _lu_solve(lu_, piv, b, trans):
    lu_, b = as_float(lu_), as_float(b)
    _square("lu_solve", lu_)
    _check_rhs("lu_solve", lu_, b)
    trans = _trans("lu_solve", trans)
    n = lu_.shape[-1]
    perm = fnp.asarray(np.arange(n))
    rows = np.arange(n)
    for k in range(n):  # the row order from LAPACK's interchanges
        p = piv[k]
        perm = fnp.take(perm, fnp.where(rows == k, p, fnp.where(rows == p, k, rows)))
    if trans == 0:
        y = solve_triangular(lu_, fnp.take(b, perm, axis=0), lower=True, unit_diagonal=True)
        return solve_triangular(lu_, y)
    # a = P L U, a^T = U^T L^T P^T: x = P L^-T U^-T b
    y = solve_triangular(lu_, b, trans=trans)
    z = solve_triangular(lu_, y, trans=trans, lower=True, unit_diagonal=True)
    inverse = fnp.argsort(perm)
    return fnp.take(z, inverse, axis=0)


@over_batch(("a", 2))
def lu(a: ArrayLike, permute_l: bool = False, overwrite_a: bool = False,
       check_finite: bool = True, p_indices: bool = False
       ) -> Union[tuple[Array, Array], tuple[Array, Array, Array]]:
    """``P, L, U`` with ``a == P @ L @ U`` for an (m, n) ``a`` (``scipy.linalg.lu``):
    ``L`` (m, k) unit lower triangular, ``U`` (k, n) upper, ``k = min(m, n)``;
    ``permute_l=True`` returns ``(P @ L, U)``; ``p_indices=True`` returns ``P`` as the row
    indices ``p`` with ``a == L[p] @ U`` (as SciPy).
    Differentiable in ``a`` where the pivots do not tie.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> p, l, u = fsl.lu(np.array([[1.0, 2.0], [4.0, 4.0]]))
    >>> p, l, u
    (array([[0., 1.],
           [1., 0.]]), array([[1.  , 0.  ],
           [0.25, 1.  ]]), array([[4., 4.],
           [0., 1.]]))
    """
    a = as_float(a)
    if a.ndim != 2:
        raise ValueError(f"lu: expected an (m, n) matrix or a stack of them, got shape "
                         f"{a.shape}")
    m, n = a.shape
    k = min(m, n)
    lu_, _, perm = _eliminate(a)
    low = _unit_lower(lu_[:, :k])
    up = fnp.triu(lu_[:k, :])
    inverse = fnp.argsort(perm)  # a[perm] == L @ U, so a == (L @ U)[inverse]
    if permute_l:
        return fnp.take(low, inverse, axis=0), up
    if p_indices:
        return fnp.astype(inverse, np.int32), low, up  # (SciPy's index type)
    real = np.finfo(a.dtype).dtype  # (SciPy's P is real for complex a too)
    pmat = fnp.astype(fnp.asarray(np.arange(m))[:, None] == perm[None, :], real)
    return pmat, low, up
