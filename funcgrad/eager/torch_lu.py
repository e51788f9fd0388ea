"""PyTorch's LU functions on Tensors (``fg.linalg.lu``, ``lu_factor``, ``lu_factor_ex``,
``lu_solve``): SciPy's factorization per matrix, PyTorch's 1-based int32 pivots and named
tuples; re-exported by :mod:`funcgrad.eager.torch_linalg`.

>>> import funcgrad as fg
>>> P, L, U = fg.linalg.lu(fg.tensor([[1.0, 2.0], [3.0, 4.0]]))
>>> P.tolist(), U[0].tolist()
([[0.0, 1.0], [1.0, 0.0]], [3.0, 4.0])
"""
from collections import namedtuple
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..scipy import linalg as _scipy_linalg
from ._torch_linalg_args import _as_tensor, _info, _square, _tensor
from .tensor import Tensor

__all__ = ["lu", "lu_factor", "lu_factor_ex", "lu_solve"]

# PyTorch's named tuples (torch.return_types.linalg_lu*), by their fields
LUResult = namedtuple("LUResult", "P L U")
LUFactorResult = namedtuple("LUFactorResult", "LU pivots")
LUFactorExResult = namedtuple("LUFactorExResult", "LU pivots info")


def _per_matrix(A: Any, compute: Any) -> Any:
    """``compute`` of each matrix of the batch ``A``, its results stacked."""
    if A.ndim == 2:
        return compute(A)
    parts = [_per_matrix(A[i], compute) for i in range(A.shape[0])]
    return tuple(fnp.stack([p[k] for p in parts]) for k in range(len(parts[0])))


def lu(A: Any, *, pivot: bool = True) -> Any:
    """``(P, L, U)`` with ``A = P @ L @ U``: ``P`` a permutation matrix, ``L`` unit lower
    triangular, ``U`` upper triangular (partial pivoting).

    >>> import funcgrad as fg
    >>> P, L, U = fg.linalg.lu(fg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> (P @ L @ U).tolist()
    [[1.0, 2.0], [3.0, 4.0]]
    """
    A = _tensor("lu", A)
    if not pivot:
        raise RuntimeError("linalg.lu: LU without pivoting is not implemented on the CPU")

    def one(M):
        P, L, U = _scipy_linalg.lu(M)
        return Tensor(np.asarray(P, M.dtype)), L, U
    return LUResult(*_per_matrix(A, one))


def lu_factor(A: Any, *, pivot: bool = True) -> Any:
    """``(LU, pivots)``: ``L`` (below the diagonal, its unit diagonal left out) and ``U``
    in one matrix, and PyTorch's 1-based row interchanges (int32).

    >>> import funcgrad as fg
    >>> fg.linalg.lu_factor(fg.tensor([[1.0, 2.0], [3.0, 4.0]])).pivots
    tensor([2, 2], dtype=int32)
    """
    A = _square("lu_factor", A)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the "
                           "CPU")

    def one(M):
        LU, pivots = _scipy_linalg.lu_factor(M)
        return LU, Tensor(np.asarray(pivots, np.int32) + 1)
    return LUFactorResult(*_per_matrix(A, one))


def lu_factor_ex(A: Any, *, pivot: bool = True, check_errors: bool = False) -> Any:
    """``(LU, pivots, info)``: :func:`lu_factor` and zeros.

    >>> import funcgrad as fg
    >>> fg.linalg.lu_factor_ex(fg.eye(2)).info
    tensor(0, dtype=int32)
    """
    LU, pivots = lu_factor(A, pivot=pivot)
    return LUFactorExResult(LU, pivots, _info(A))


def lu_solve(LU: Any, pivots: Any, B: Any, *, left: bool = True, adjoint: bool = False) -> Any:
    """``X`` with ``A @ X = B`` (``left=False``: ``X @ A = B``; ``adjoint``: ``A.mH`` in
    place of ``A``), ``A`` given by :func:`lu_factor`'s ``(LU, pivots)``.

    >>> import funcgrad as fg
    >>> A = fg.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> LU, pivots = fg.linalg.lu_factor(A)
    >>> fg.linalg.lu_solve(LU, pivots, fg.tensor([[5.0], [11.0]]))
    tensor([[1.],
            [2.]])
    """
    LU, B = _square("lu_solve", LU), _as_tensor(B)
    if B.ndim < 2:
        raise RuntimeError("linalg.lu_solve: Expected B to have at least 2 dimensions")
    if not left:  # X A = B  <=>  A^H X^H = B^H
        return lu_solve(LU, pivots, B.mH, adjoint=not adjoint).mH
    zero_based = np.asarray(pivots.detach() if isinstance(pivots, Tensor) else pivots) - 1

    def one(M, p, b):
        return _scipy_linalg.lu_solve((M, p), b, trans=2 if adjoint else 0)
    if LU.ndim == 2:
        return one(LU, zero_based, B)
    return fnp.stack([lu_solve(LU[i], Tensor(zero_based[i] + 1), B[i], adjoint=adjoint)
                      for i in range(LU.shape[0])])
