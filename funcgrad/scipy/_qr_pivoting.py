"""``scipy.linalg.qr`` in every mode, with and without column pivoting.

Column pivoting (LAPACK's ``geqp3``) picks, at step ``j``, the remaining column whose part
from row ``j`` down has the largest norm, and factors ``a[:, P] = Q @ R``.  ``P`` is
piecewise constant in ``a``: it changes only where two of those norms tie.  So ``P`` is
taken from SciPy's own result on the values (ties broken as SciPy breaks them), and ``Q``,
``R`` are the QR factorization of ``a[:, P]`` with funcgrad's differentiable ``qr``:
LAPACK's Householder conventions, so SciPy's values to rounding, and the derivative with
``P`` held fixed, which is the derivative of SciPy's function wherever ``P`` does not
change under a small perturbation.

Where it does (a tie: ``|R[j, j]|`` equal to the norm of some later column's part from
row ``j`` down, within rounding; e.g. the identity), SciPy's function jumps and has no
derivative: differentiating there raises, naming the problem.  Under ``vmap``/``jit`` the
values are not known while tracing, so ``P`` comes from a callback (SciPy at run time)
and ties cannot be checked.

``mode='raw'`` (LAPACK's reflectors and ``tau``) gives SciPy's own result on plain
arrays; its derivative is not implemented and raises, naming the differentiable modes.
"""
from typing import Any, Union

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..numpy import linalg as _nla
from ..numpy._convert import concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._linalg_tools import as_float, is_plain, no_derivative

__all__ = ["qr", "pivot_columns"]

_MODES = ("full", "economic", "r", "raw")


def _scipy_pivots(values: np.ndarray) -> np.ndarray:
    """SciPy's ``P`` (int32) for each matrix of a stack of plain values."""
    import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
    batch, n = values.shape[:-2], values.shape[-1]
    out = np.empty(batch + (n,), np.int32)
    for index in np.ndindex(*batch):
        out[index] = scipy.linalg.qr(values[index], mode="r", pivoting=True,
                                     check_finite=False)[1]
    return out


def _tie(r: np.ndarray) -> bool:
    """Whether some step's pivot column ties (within rounding) with a later column: the
    norm of ``R[j:, l]`` is column ``l``'s norm from row ``j`` down when step ``j`` chose."""
    m, n = r.shape
    tol = 16 * max(m, n) * np.finfo(r.dtype).eps * np.max(np.abs(r))
    for j in range(min(m, n)):
        later = np.linalg.norm(r[j:, j + 1:], axis=0)
        if later.size and abs(r[j, j]) - np.max(later) <= tol:
            return True
    return False


def pivot_columns(a: Array, name: str) -> tuple[Array, Any]:
    """``(a[..., :, P], P)`` with ``P`` LAPACK ``geqp3``'s column order for each matrix of
    ``a`` (SciPy's, on its values); differentiable in ``a`` with ``P`` held fixed, and
    refusing (when the values are known) where a tie in the column norms lets ``P`` jump.

    >>> import numpy as np
    >>> ap, p = pivot_columns(np.array([[1.0, 3.0], [0.0, 4.0]]), "qr")
    >>> p
    array([1, 0], dtype=int32)
    """
    n = a.shape[-1]
    if a.size == 0:
        return a, np.broadcast_to(np.arange(n, dtype=np.int32), a.shape[:-2] + (n,)).copy()
    if is_concrete(a):
        import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
        values = concrete_values(a, f"{name}'s column pivoting", "")
        factored = [scipy.linalg.qr(v, mode="r", pivoting=True, check_finite=False)
                    for v in values.reshape((-1,) + values.shape[-2:])]
        p = np.stack([order for _, order in factored]).reshape(a.shape[:-2] + (n,))
        if not is_plain(a) and any(_tie(r) for r, _ in factored):
            a = no_derivative(a, (
                f"{name}: with pivoting=True the derivative does not exist here: two columns "
                f"tie for a pivot (equal norms, up to rounding), so LAPACK's column order "
                f"changes under a small perturbation and the factors jump. Differentiate at "
                f"a nearby matrix, or use pivoting=False."))
    else:  # (under vmap/jit: SciPy's choice at run time, as a constant)
        p = pure_callback(_scipy_pivots, np.zeros(a.shape[:-2] + (n,), np.int32),
                          fnp.stop_gradient(a), vmap_method="broadcast_all")
    index = fnp.broadcast_to(fnp.expand_dims(p, -2), a.shape)
    return fnp.take_along_axis(a, index, axis=-1), p


def _no_raw_derivative(a: ArrayLike) -> None:
    if not is_plain(a):
        raise NotImplementedError(
            "qr: mode='raw' (LAPACK's Householder reflectors and tau) is not differentiable "
            "in funcgrad; use mode='full', 'economic' or 'r' (Q and R are)")


def qr(a: ArrayLike, mode: str = "full", pivoting: bool = False, check_finite: bool = True
       ) -> Union[Array, tuple[Any, ...]]:
    """``scipy.linalg.qr``'s results, ``(Q, R)``, ``(R,)`` or ``((h, tau), R)``, with
    ``P`` appended when ``pivoting`` (see the module docstring).

    >>> import numpy as np
    >>> q, r, p = qr(np.array([[1.0, 3.0], [0.0, 4.0]]), pivoting=True)
    >>> np.round(r, 6), p
    (array([[-5. , -0.6],
           [ 0. , -0.8]]), array([1, 0], dtype=int32))
    """
    if mode not in _MODES:
        raise ValueError(f"qr: mode must be 'full', 'economic', 'r' or 'raw', got {mode!r}")
    if mode == "raw" or (pivoting and is_plain(a)):
        _no_raw_derivative(a)
        import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
        return scipy.linalg.qr(a, mode=mode, pivoting=pivoting, check_finite=check_finite)
    a = as_float(a)
    if check_finite and is_concrete(a) and not np.all(np.isfinite(concrete_values(a, "", ""))):
        raise ValueError("array must not contain infs or NaNs")
    extra: tuple[Any, ...] = ()
    if pivoting:
        if a.ndim < 2:
            raise ValueError(f"qr: expected a matrix (or a stack of them), got shape {a.shape}")
        a, p = pivot_columns(a, "qr")
        extra = (p,)
    if mode == "r":  # (SciPy's R here has M rows: R1 over zeros, without Q's extra columns)
        r = _nla.qr(a, mode="r")
        m, n = a.shape[-2:]
        if m > r.shape[-2]:
            r = fnp.concatenate([r, fnp.zeros(r.shape[:-2] + (m - r.shape[-2], n), r.dtype)],
                                axis=-2)
        return (r,) + extra
    q, r = _nla.qr(a, mode="complete" if mode == "full" else "reduced")
    return (q, r) + extra
