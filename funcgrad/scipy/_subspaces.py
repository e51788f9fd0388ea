"""Rank-revealing results of ``funcgrad.scipy.linalg``, through the SVD: ``orth``,
``null_space``, ``lstsq``, ``subspace_angles``.

The rank is SciPy's (singular values above ``rcond * largest``; ``lstsq``: LAPACK's
``gelsd`` cutoff) and decides the shape of ``orth``'s and ``null_space``'s results, so it
is read from the values: under ``vmap``/``jit`` these raise, naming the fix.  Their
derivatives are the SVD's (:mod:`funcgrad.primitives.decompositions`): each basis vector
is determined up to its sign (phase), and where singular values tie only the subspace is
(the rule's gauge keeps the basis from turning inside it, so ``Q @ Q^H`` has the exact
derivative).  Where the rank can change under a perturbation (a rank-deficient matrix:
a singular value that is 0, or below the cutoff, instead of the full ``min(M, N)``), the
subspaces jump and have no derivative: differentiating ``orth``/``null_space`` there
raises.  ``lstsq``'s ``x = pinv(a) @ b`` keeps the pseudo-inverse's derivative (exact
along perturbations that keep the rank).
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..primitives import decompositions as _dec
from ..primitives import pinv as _pinv
from ..primitives import linalg as _la
from ..typing import Array, ArrayLike
from ._linalg_tools import as_float, is_plain, no_derivative, over_batch

__all__ = ["orth", "null_space", "lstsq", "subspace_angles"]

_RANK_JUMPS = ("{name}: the matrix is rank-deficient (rank {rank} of {full}), so a "
               "perturbation changes its rank and the subspace jumps: it has no derivative "
               "there. Differentiate at a matrix of full rank, or pass rcond to cut the "
               "small singular values explicitly (the result then has no derivative either)")


def _rank(name, s, rcond, dims):
    """SciPy's numerical rank: singular values above ``rcond * largest`` (``rcond``
    defaulting to ``eps * max(M, N)``), from the values."""
    values = concrete_values(s, f"{name}'s rank (the shape of its result)",
                             f"Call {name} outside vmap/jit.")
    if rcond is None:
        rcond = np.finfo(values.dtype).eps * max(dims)
    return int(np.sum(values > np.max(values, initial=0.0) * rcond))


@over_batch(("A", 2))
def orth(A: ArrayLike, rcond: Optional[float] = None) -> Array:
    """An orthonormal basis of the range of ``A``: its left singular vectors of the
    singular values above ``rcond * largest`` (``scipy.linalg.orth``; ``rcond`` defaults
    to ``eps * max(M, N)``).  Derivatives where ``A`` has full rank (see the module
    docstring); stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> q = fsl.orth(np.array([[1.0, 1.0], [1.0, 1.0], [0.0, 0.0]]))
    >>> np.round(np.abs(q), 6)
    array([[0.707107],
           [0.707107],
           [0.      ]])
    """
    a = as_float(A)
    if a.ndim != 2:
        raise ValueError(f"orth: expected a 2-d array, got shape {a.shape}")
    u, s, _ = fnp.linalg.svd(a, full_matrices=False)
    num = _rank("orth", s, rcond, a.shape)
    q = u[:, :num]
    if num < min(a.shape):
        q = no_derivative(q, _RANK_JUMPS.format(name="orth", rank=num, full=min(a.shape)))
    return q


@over_batch(("A", 2))
def null_space(A: ArrayLike, rcond: Optional[float] = None, *, overwrite_a: bool = False,
               check_finite: bool = True, lapack_driver: str = "gesdd") -> Array:
    """An orthonormal basis of the null space of ``A`` (``A @ Q == 0``): its right singular
    vectors beyond the rank (``scipy.linalg.null_space``; the rank as :func:`orth`'s).
    Derivatives where ``A`` has full row rank (the null space's dimension ``N - M`` then
    stays), see the module docstring; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> q = fsl.null_space(np.array([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    >>> np.round(np.abs(q), 6)
    array([[0.707107],
           [0.707107],
           [0.      ]])
    """
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f"null_space: lapack_driver must be 'gesdd' or 'gesvd', got "
                         f"{lapack_driver!r}")
    if is_plain(A) and lapack_driver == "gesvd":  # (a basis of LAPACK's other routine)
        import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
        return scipy.linalg.null_space(A, rcond, lapack_driver=lapack_driver)
    a = as_float(A)
    if a.ndim != 2:
        raise ValueError(f"null_space: expected a 2-d array, got shape {a.shape}")
    m, n = a.shape
    _, s, vh = fnp.linalg.svd(a, full_matrices=True)
    num = _rank("null_space", s, rcond, a.shape)
    q = fnp.conj(fnp.swapaxes(vh[num:, :], 0, 1))
    if num < min(m, n):
        q = no_derivative(q, _RANK_JUMPS.format(name="null_space", rank=num, full=min(m, n)))
    return q


@over_batch(("a", 2), ("b", "1|2"))
def lstsq(a: ArrayLike, b: ArrayLike, cond: Optional[float] = None, overwrite_a: bool = False,
          overwrite_b: bool = False, check_finite: bool = True,
          lapack_driver: Optional[str] = None) -> tuple[Array, Array, Any, Optional[Array]]:
    """``(x, residues, rank, s)``: the minimum-norm least-squares solution of ``a @ x = b``
    (``scipy.linalg.lstsq``): singular values at most ``cond * largest`` count as zero
    (``cond`` defaults to eps); ``residues`` the squared norms of ``b - a @ x`` (per
    column) where ``M > N`` and ``rank == N``, else empty; ``s`` the singular values
    (``None`` for ``lapack_driver='gelsy'``, as SciPy).  ``x = pinv(a) @ b`` and the
    residues are differentiable (see the module docstring); stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> a, b = np.array([[1.0, 0.0], [1.0, 1.0], [1.0, 2.0]]), np.array([1.0, 2.0, 4.0])
    >>> x, res, rank, s = fsl.lstsq(a, b)
    >>> np.round(x, 6), round(float(res), 6), rank
    (array([0.833333, 1.5     ]), 0.166667, 2)
    """
    driver = "gelsd" if lapack_driver is None else lapack_driver
    if driver not in ("gelsd", "gelsy", "gelss"):
        raise ValueError(f"lstsq: LAPACK driver {driver!r} is not found; use 'gelsd', "
                         f"'gelsy' or 'gelss'")
    a, b = as_float(a), as_float(b)
    if a.ndim != 2:
        raise ValueError(f"lstsq: a should be 2-d, got shape {a.shape}")
    m, n = a.shape
    if b.ndim == 0 or b.shape[0] != m:
        raise ValueError(f"lstsq: shape mismatch: a and b should have the same number of "
                         f"rows ({m} != {b.shape[0] if b.ndim else '()'})")
    dtype = np.result_type(a.dtype, b.dtype)
    if m == 0 or n == 0:  # (SciPy's answers, without LAPACK)
        x = fnp.zeros((n,) + b.shape[1:], dtype)
        residues = fnp.sum(fnp.abs(b) ** 2, axis=0) if n == 0 else np.empty((0,))
        return x, residues, 0, np.empty((0,))
    a, b = fnp.astype(a, dtype), fnp.astype(b, dtype)
    rcond = np.finfo(dtype).eps if cond is None or cond < 0 else cond
    s = _dec.svdvals(a)
    rank = _rank("lstsq", s, rcond, a.shape)
    x = _la.matmul(_pinv.pinv(a, float(rcond)), b)
    if driver == "gelsy":
        return x, np.array([], dtype), rank, None
    if m > n and rank == n:
        residues = fnp.sum(fnp.abs(b - _la.matmul(a, x)) ** 2, axis=0)
    else:
        residues = np.array([], dtype)
    return x, residues, rank, s


@over_batch(("A", 2), ("B", 2))
def subspace_angles(A: ArrayLike, B: ArrayLike) -> Array:
    """The principal angles between the column spaces of ``A`` and ``B``, largest first
    (``scipy.linalg.subspace_angles``: cosines from the SVD of ``QA^H QB``, sines for the
    small angles, as Knyazev and Argentati).  Differentiable where both have full column
    rank (except at angles 0 and pi/2, kinks as ``abs``'s); stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> a, b = np.array([[1.0], [0.0]]), np.array([[1.0], [1.0]])
    >>> np.round(np.rad2deg(fsl.subspace_angles(a, b)), 12)
    array([45.])
    """
    a, b = as_float(A), as_float(B)
    if a.ndim != 2:
        raise ValueError(f"subspace_angles: expected a 2-d array, got shape {a.shape}")
    if b.ndim != 2:
        raise ValueError(f"subspace_angles: expected a 2-d array, got shape {b.shape}")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"subspace_angles: A and B must have the same number of rows, got "
                         f"{a.shape[0]} and {b.shape[0]}")
    qa, qb = orth(a), orth(b)
    cross = fnp.conj(fnp.swapaxes(qa, 0, 1)) @ qb
    sigma = fnp.linalg.svd(cross, compute_uv=False)
    if qa.shape[1] >= qb.shape[1]:
        rest = qb - qa @ cross
    else:
        rest = qa - qb @ fnp.conj(fnp.swapaxes(cross, 0, 1))
    # SciPy's choice per position (its mask pairs sigma with the reversed cosines); each
    # branch sees only the entries it gives, so the other's infinite slope at +-1 (arcsin,
    # arccos) cannot turn a zero cotangent into NaN
    mask = sigma ** 2 >= 0.5
    sines = fnp.clip(fnp.linalg.svd(rest, compute_uv=False), -1.0, 1.0)
    cosines = fnp.clip(sigma[::-1], -1.0, 1.0)
    return fnp.where(mask, fnp.arcsin(fnp.where(mask, sines, 0.0)),
                     fnp.arccos(fnp.where(mask, 0.0, cosines)))
