"""Factorizations of ``funcgrad.scipy.linalg`` whose pivoting LAPACK decides from the
values: ``ldl`` (Bunch-Kaufman) and ``matrix_balance`` (``gebal``).

Both take the discrete choices (the symmetric permutation and the 1 x 1 / 2 x 2 blocks of
``ldl``; the permutation and the power-of-2 scaling of ``matrix_balance``) from SciPy's
result on the values, then compute the rest with funcgrad operations:

* ``ldl``: with the permutation ``perm`` and the blocks fixed, ``A[perm][:, perm] = L D
  L^H`` (``L`` unit triangular, ``D`` block diagonal) is unique; block elimination gives
  it, SciPy's values to rounding, and its derivative, which exists where the pivot
  choices do not change under a perturbation (Bunch-Kaufman's comparisons are strict).
* ``matrix_balance``: ``B = T^-1 A T`` with ``T`` a permutation times a diagonal of powers
  of 2, which is piecewise constant: ``dB = T^-1 dA T`` (exact: the products by powers of
  2 round nothing).

They need SciPy and known values (not ``vmap``/``jit``), and say so.
"""
from typing import Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..primitives import linalg as _la
from ..typing import Array, ArrayLike
from ._linalg_tools import as_float, is_plain, over_batch

__all__ = ["ldl", "matrix_balance"]


def _h(x, hermitian=True):
    x = fnp.swapaxes(x, -1, -2)
    return fnp.conj(x) if hermitian else x


def _read_triangle(a, lower, hermitian):
    """The symmetric (Hermitian) matrix LAPACK's ``sytrf`` (``hetrf``) reads from the
    ``lower`` or upper triangle of ``a`` (``hetrf`` ignores the diagonal's imaginary part)."""
    strict = fnp.tril(a, -1) if lower else fnp.triu(a, 1)
    diag = fnp.diagonal(a)
    if hermitian and a.dtype.kind == "c":
        diag = fnp.astype(fnp.real(diag), a.dtype)
    return strict + _h(strict, hermitian) + diag[:, None] * np.eye(a.shape[0], dtype=a.dtype)


def _blocks(d, lower):
    """The sizes (1 or 2) of ``D``'s diagonal blocks, from SciPy's ``d``."""
    n, sizes, i = d.shape[0], [], 0
    while i < n:
        two = i + 1 < n and (d[i + 1, i] != 0 or d[i, i + 1] != 0)
        sizes.append(2 if two else 1)
        i += sizes[-1]
    return sizes


def _block_ldl(s, sizes, hermitian):
    """``(L, D)`` with ``s == L D L^H`` (``L^T`` unless ``hermitian``), ``L`` unit lower
    triangular, ``D`` block diagonal with the given block sizes (no pivoting)."""
    n = s.shape[0]
    columns, blocks, work, start = [], [], s, 0
    for size in sizes:
        pivot = work[:size, :size]
        pivot = 0.5 * (pivot + _h(pivot, hermitian))  # (exactly Hermitian, as LAPACK's)
        below = work[size:, :size]
        factor = _h(_la.solve(_h(pivot, hermitian), _h(below, hermitian)), hermitian)
        work = work[size:, size:] - factor @ _h(below, hermitian)
        columns.append(fnp.concatenate([fnp.zeros((start, size), s.dtype),
                                        fnp.astype(np.eye(size), s.dtype), factor], axis=0))
        blocks.append(pivot)
        start += size
    low = fnp.concatenate(columns, axis=1)
    d = fnp.concatenate([fnp.concatenate([fnp.zeros((size, left), s.dtype), block,
                                          fnp.zeros((size, n - left - size), s.dtype)], axis=1)
                         for size, block, left in zip(sizes, blocks,
                                                      np.cumsum([0] + sizes[:-1]))], axis=0)
    return low, d


@over_batch(("A", 2))
def ldl(A: ArrayLike, lower: bool = True, hermitian: bool = True, overwrite_a: bool = False,
        check_finite: bool = True) -> tuple[Array, Array, Array]:
    """``(lu, d, perm)``: the Bunch-Kaufman factorization ``A = lu @ d @ lu^H`` (``lu^T``
    with ``hermitian=False``) of a symmetric or Hermitian ``A`` read from its ``lower``
    (default) or upper triangle, ``d`` block diagonal (1 x 1 and 2 x 2 blocks) and
    ``lu[perm]`` unit triangular (``scipy.linalg.ldl``).  SciPy's values; differentiable
    where the pivoting does not change (see the module docstring); stacks too.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> a = np.array([[4.0, 2.0], [2.0, 3.0]])
    >>> lu, d, perm = fsl.ldl(a)
    >>> lu, d
    (array([[1. , 0. ],
           [0.5, 1. ]]), array([[4., 0.],
           [0., 2.]]))
    >>> fg.grad(lambda a: fsl.ldl(a)[1][1, 1])(a)  # d11 = a11 - a10^2 / a00
    array([[ 0.25,  0.  ],
           [-1.  ,  1.  ]])
    """
    a = as_float(A)
    a = fnp.reshape(a, (1, 1)) if a.ndim < 2 else a
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"ldl: the input array should be square, got shape {a.shape}")
    import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
    if is_plain(A) or a.shape[0] == 0:
        return scipy.linalg.ldl(A, lower=lower, hermitian=hermitian)
    values = concrete_values(a, "ldl's pivoting", "Call ldl outside vmap/jit.")
    _, d_values, perm = scipy.linalg.ldl(values, lower=lower, hermitian=hermitian)
    hermitian = hermitian and a.dtype.kind == "c"
    s = _read_triangle(a, lower, hermitian)
    s = fnp.take(fnp.take(s, perm, axis=0), perm, axis=1)
    sizes = _blocks(d_values, lower)
    if lower:
        low, d = _block_ldl(s, sizes, hermitian)
    else:  # U D U^H of s is L D' L^H of s reversed, with the blocks reversed
        low, d = _block_ldl(s[::-1, ::-1], sizes[::-1], hermitian)
        low, d = low[::-1, ::-1], d[::-1, ::-1]
    return fnp.take(low, np.argsort(perm), axis=0), d, perm


@over_batch(("A", 2))
def matrix_balance(A: ArrayLike, permute: bool = True, scale: bool = True,
                   separate: bool = False, overwrite_a: bool = False
                   ) -> tuple[Array, Union[Array, tuple[Array, Array]]]:
    """``(B, T)`` with ``B = T^-1 @ A @ T`` balanced (rows and columns of similar norms)
    and ``T`` a permutation times a diagonal of powers of 2, by LAPACK's ``gebal``
    (``scipy.linalg.matrix_balance``); ``separate=True`` gives ``(B, (scaling, perm))``.
    SciPy's values; ``B`` is differentiable (``T`` is piecewise constant); stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> b, t = fsl.matrix_balance(np.array([[1.0, 100.0], [0.01, 1.0]]))
    >>> b, t
    (array([[1.    , 1.5625],
           [0.64  , 1.    ]]), array([[16.  ,  0.  ],
           [ 0.  ,  0.25]]))
    """
    import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
    if is_plain(A):
        return scipy.linalg.matrix_balance(A, permute=permute, scale=scale, separate=separate)
    a = as_float(A)
    a = fnp.reshape(a, (1, 1)) if a.ndim < 2 else a
    values = concrete_values(a, "matrix_balance's scaling", "Call it outside vmap/jit.")
    _, t = scipy.linalg.matrix_balance(values, permute=permute, scale=scale)
    b = np.linalg.inv(t) @ a @ t  # (exact: a permutation and powers of 2)
    if separate:
        return b, scipy.linalg.matrix_balance(values, permute=permute, scale=scale,
                                              separate=True)[1]
    return b, t
