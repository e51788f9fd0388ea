"""The rest of ``scipy.linalg``'s decompositions in ``funcgrad.scipy.linalg``.

* Differentiable: ``qr_multiply`` (``Q @ c`` or ``c @ Q`` with ``Q`` from :func:`qr`,
  whose derivative it has) and ``clarkson_woodruff_transform`` (``S @ A`` for SciPy's
  random sketching matrix ``S``, which does not depend on ``A``: linear in ``A``).
* Values only: ``qz``, ``ordqz``, ``cossin``, ``rsf2csf`` (Schur-type decompositions, as
  ``schur``: their factors are not unique and their real forms jump where eigenvalues
  meet; neither JAX nor PyTorch defines their derivatives), and ``qr_update``,
  ``qr_insert``, ``qr_delete`` (SciPy's Givens updates of a given factorization, whose
  complement columns are LAPACK's choice).  On plain arrays they return SciPy's own
  result; traced inputs raise, naming the differentiable route.
"""
from typing import Any, Literal, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from . import _qr_pivoting
from ._linalg_tools import as_float, is_plain, over_batch

__all__ = ["qr_multiply", "clarkson_woodruff_transform", "qz", "ordqz", "cossin", "rsf2csf",
           "qr_update", "qr_insert", "qr_delete"]


@over_batch(("a", 2), ("c", "1|2"))
def qr_multiply(a: ArrayLike, c: ArrayLike, mode: Literal["right", "left"] = "right",
                pivoting: bool = False, conjugate: bool = False, overwrite_a: bool = False,
                overwrite_c: bool = False) -> tuple[Array, ...]:
    """``(c @ Q, R)`` (``mode='right'``) or ``(Q @ c, R)`` (``'left'``) with ``a = Q @
    R`` the economic QR factorization (``scipy.linalg.qr_multiply``); ``conjugate`` uses
    ``conj(Q)``; ``pivoting=True`` factors ``a[:, P]`` and appends ``P`` (SciPy's).
    Differentiable as :func:`qr`; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> cq, r = fsl.qr_multiply(np.array([[3.0, 0.0], [4.0, 1.0]]), np.eye(2))
    >>> np.round(cq @ r, 12)  # c @ Q @ R with c = I
    array([[3., 0.],
           [4., 1.]])
    """
    if mode not in ("left", "right"):
        raise ValueError(f"qr_multiply: mode can only be 'left' or 'right', not {mode!r}")
    a, c = as_float(a), as_float(c)
    a = fnp.reshape(a, (1, -1)) if a.ndim < 2 else a
    if pivoting:  # (a[:, P] = Q @ R: see funcgrad.scipy._qr_pivoting)
        a, p = _qr_pivoting.pivot_columns(a, "qr_multiply")
    m, n = a.shape
    k = min(m, n)
    one_dim = c.ndim < 2
    if one_dim:
        c = fnp.reshape(c, (-1, 1) if mode == "left" else (1, -1))
    if mode == "left" and c.shape[0] != k:
        raise ValueError(f"qr_multiply: shapes {a.shape} and {c.shape} are not compatible "
                         f"for Q @ c (c needs {k} rows)")
    if mode == "right" and c.shape[1] != m:
        raise ValueError(f"qr_multiply: shapes {c.shape} and {a.shape} are not compatible "
                         f"for c @ Q (c needs {m} columns)")
    q, r = fnp.linalg.qr(a, mode="reduced")
    if conjugate:
        q = fnp.conj(q)
    dtype = np.result_type(q.dtype, c.dtype)
    q, c = fnp.astype(q, dtype), fnp.astype(c, dtype)
    out = q @ c if mode == "left" else c @ q
    out = fnp.ravel(out) if one_dim else out
    return (out, r, p) if pivoting else (out, r)


def clarkson_woodruff_transform(input_matrix: ArrayLike, sketch_size: int, rng: Any = None,
                                *, seed: Any = None) -> Array:
    """``S @ input_matrix`` with SciPy's Clarkson-Woodruff sketching matrix ``S``
    (``sketch_size`` rows, one random ``+-1`` per column), as
    ``scipy.linalg.clarkson_woodruff_transform`` (same ``rng``, same ``S``); linear in the
    input, so differentiable; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> s = fsl.clarkson_woodruff_transform(np.eye(3), 2, rng=0)  # S itself
    >>> np.abs(s).sum(axis=0)  # one +-1 per column
    array([1., 1., 1.])
    """
    import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
    a = asarray(input_matrix)
    if a.ndim < 2:
        raise ValueError(f"clarkson_woodruff_transform: expected a matrix (or a stack), got "
                         f"shape {a.shape}")
    extra = {} if seed is None else {"seed": seed}
    sketch = scipy.linalg.clarkson_woodruff_transform(np.eye(a.shape[-2]), sketch_size,
                                                      rng=rng, **extra)
    return fnp.astype(sketch, np.result_type(a.dtype, sketch.dtype)) @ a


# --- values only ---------------------------------------------------------------------------------

def _scipy_values(name, arrays, fix):
    if not is_plain(*arrays):
        raise NotImplementedError(
            f"{name}: funcgrad has no derivative of it (see funcgrad.scipy._decomp_rest); call "
            f"it on plain arrays, outside grad/jvp/vmap/jit. {fix}")
    import scipy.linalg
    return getattr(scipy.linalg, name)


_SCHUR_FIX = ("For differentiable spectral quantities use eig/eigvals (or eigh for "
              "Hermitian matrices); for orthonormal bases, qr or polar.")
_UPDATE_FIX = "Differentiate qr of the updated matrix instead (qr(a + u v^T) and so on)."


def qz(A: ArrayLike, B: ArrayLike, output: Literal["real", "complex"] = "real",
       lwork: Optional[int] = None, sort: Any = None, overwrite_a: bool = False,
       overwrite_b: bool = False, check_finite: bool = True) -> tuple[Any, ...]:
    """The QZ (generalized Schur) decomposition ``(AA, BB, Q, Z)`` of a pencil
    (``scipy.linalg.qz``), SciPy's values; traced inputs raise (no derivative).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> aa, bb, q, z = fsl.qz(np.diag([1.0, 2.0]), np.eye(2))
    >>> np.round(np.abs(np.diag(aa) / np.diag(bb)), 12)
    array([1., 2.])
    """
    fn = _scipy_values("qz", (A, B), _SCHUR_FIX)
    return fn(A, B, output=output, lwork=lwork, sort=sort)


def ordqz(A: ArrayLike, B: ArrayLike, sort: Any = "lhp",
          output: Literal["real", "complex"] = "real", overwrite_a: bool = False,
          overwrite_b: bool = False, check_finite: bool = True) -> tuple[Any, ...]:
    """The reordered QZ decomposition ``(AA, BB, alpha, beta, Q, Z)`` (``scipy.linalg.ordqz``),
    SciPy's values; traced inputs raise (no derivative).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> out = fsl.ordqz(np.diag([1.0, -2.0]), np.eye(2), sort="lhp")
    >>> np.round((out[2] / out[3]).real, 12)  # the left half-plane first
    array([-2.,  1.])
    """
    fn = _scipy_values("ordqz", (A, B), _SCHUR_FIX)
    return fn(A, B, sort=sort, output=output)


def cossin(X: Any, p: Optional[int] = None, q: Optional[int] = None, separate: bool = False,
           swap_sign: bool = False, compute_u: bool = True, compute_vh: bool = True
           ) -> tuple[Any, ...]:
    """The cosine-sine decomposition of a unitary matrix (``scipy.linalg.cossin``), SciPy's
    values; traced inputs raise (no derivative).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> u, cs, vdh = fsl.cossin(np.eye(4), p=2, q=2)
    >>> np.round(u @ cs @ vdh, 12)
    array([[1., 0., 0., 0.],
           [0., 1., 0., 0.],
           [0., 0., 1., 0.],
           [0., 0., 0., 1.]])
    """
    blocks = X if isinstance(X, (list, tuple)) else (X,)
    fn = _scipy_values("cossin", blocks, "Use svd or polar for a differentiable factorization.")
    return fn(X, p=p, q=q, separate=separate, swap_sign=swap_sign, compute_u=compute_u,
              compute_vh=compute_vh)


def rsf2csf(T: ArrayLike, Z: ArrayLike, check_finite: bool = True) -> tuple[Any, Any]:
    """The complex Schur form ``(T, Z)`` from a real one (``scipy.linalg.rsf2csf``), SciPy's
    values; traced inputs raise (no derivative, as ``schur``'s).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> t, z = fsl.rsf2csf(np.array([[1.0, 2.0], [0.0, 3.0]]), np.eye(2))
    >>> t.real
    array([[1., 2.],
           [0., 3.]])
    """
    fn = _scipy_values("rsf2csf", (T, Z), _SCHUR_FIX)
    return fn(T, Z)


def qr_update(Q: ArrayLike, R: ArrayLike, u: ArrayLike, v: ArrayLike,
              overwrite_qruv: bool = False, check_finite: bool = True) -> tuple[Any, Any]:
    """The QR factorization of ``Q @ R + u @ v^T`` from that of ``Q @ R`` (rank-k update,
    ``scipy.linalg.qr_update``), SciPy's values; traced inputs raise.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> q, r = fsl.qr_update(np.eye(2), np.eye(2), np.array([1.0, 0.0]), np.array([1.0, 0.0]))
    >>> np.round(q @ r, 12)
    array([[2., 0.],
           [0., 1.]])
    """
    fn = _scipy_values("qr_update", (Q, R, u, v), _UPDATE_FIX)
    return fn(Q, R, u, v)


def qr_insert(Q: ArrayLike, R: ArrayLike, u: ArrayLike, k: int,
              which: Literal["row", "col"] = "row", rcond: Optional[float] = None,
              overwrite_qru: bool = False, check_finite: bool = True) -> tuple[Any, Any]:
    """The QR factorization of ``Q @ R`` with rows or columns ``u`` inserted before ``k``
    (``scipy.linalg.qr_insert``), SciPy's values; traced inputs raise.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> q, r = fsl.qr_insert(np.eye(2), np.eye(2), np.array([1.0, 1.0]), 2)
    >>> np.round(q @ r, 12)
    array([[1., 0.],
           [0., 1.],
           [1., 1.]])
    """
    fn = _scipy_values("qr_insert", (Q, R, u), _UPDATE_FIX)
    return fn(Q, R, u, k, which=which, rcond=rcond)


def qr_delete(Q: ArrayLike, R: ArrayLike, k: int, p: int = 1,
              which: Literal["row", "col"] = "row", overwrite_qr: bool = False,
              check_finite: bool = True) -> tuple[Any, Any]:
    """The QR factorization of ``Q @ R`` with ``p`` rows or columns deleted from ``k``
    (``scipy.linalg.qr_delete``), SciPy's values; traced inputs raise.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> q, r = fsl.qr_delete(np.eye(3), np.eye(3), 0)
    >>> np.round(np.abs(q @ r), 12)
    array([[0., 1., 0.],
           [0., 0., 1.]])
    """
    fn = _scipy_values("qr_delete", (Q, R), _UPDATE_FIX)
    return fn(Q, R, k, p=p, which=which)
