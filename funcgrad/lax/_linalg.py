"""``jax.lax``'s products: ``dot_general`` (contracting and batch dimensions), ``dot`` and
``batch_matmul``, as ``funcgrad.numpy.einsum`` (differentiable in both operands; BLAS
underneath).  ``precision`` is accepted and ignored (funcgrad computes in the operands'
own precision); ``preferred_element_type`` is the dtype the product is computed and
returned in.  The result's axes are JAX's: batch axes, then the free axes of ``lhs``,
then those of ``rhs``.
"""
import enum
import string
from typing import Any

import numpy as np

from .. import numpy as fnp
from ._common import NUMBER, accept, array, static_ints
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["dot_general", "dot", "batch_matmul", "Precision"]


class Precision(enum.Enum):
    """JAX's precision hints for products (accepted, and ignored: funcgrad multiplies in
    the operands' own precision).

    >>> from funcgrad import lax
    >>> lax.Precision.HIGHEST.name
    'HIGHEST'
    """
    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2


def _dimension_numbers(lhs, rhs, dimension_numbers):
    try:
        (lc, rc), (lb, rb) = dimension_numbers
    except (TypeError, ValueError):
        raise TypeError(f"dot_general: dimension_numbers must be ((lhs_contracting, "
                        f"rhs_contracting), (lhs_batch, rhs_batch)), got "
                        f"{dimension_numbers!r}") from None
    what = "dot_general: dimension_numbers"
    lc, rc, lb, rb = (static_ints(d, what) for d in (lc, rc, lb, rb))
    for dims, x, side in ((lc + lb, lhs, "lhs"), (rc + rb, rhs, "rhs")):
        if len(set(dims)) != len(dims) or any(not 0 <= d < x.ndim for d in dims):
            raise TypeError(f"dot_general: the {side} contracting and batch dimensions "
                            f"{dims} must be distinct axes of its shape {x.shape}")
    if len(lc) != len(rc) or len(lb) != len(rb):
        raise TypeError(f"dot_general: lhs and rhs need as many contracting ({lc}, {rc}) and "
                        f"batch ({lb}, {rb}) dimensions as each other")
    for a, b, kind in [(a, b, "contracting") for a, b in zip(lc, rc)] + [
            (a, b, "batch") for a, b in zip(lb, rb)]:
        if lhs.shape[a] != rhs.shape[b]:
            raise TypeError(f"dot_general: {kind} dimensions of different sizes: lhs axis {a} "
                            f"({lhs.shape[a]}) and rhs axis {b} ({rhs.shape[b]})")
    return lc, rc, lb, rb


def dot_general(lhs: ArrayLike, rhs: ArrayLike, dimension_numbers: Any, precision: Any = None,
                preferred_element_type: DTypeLike | None = None) -> Array:
    """The general tensor product: sum over the contracting axes pairs, matched along the
    batch axes pairs (``dimension_numbers = ((lhs_contracting, rhs_contracting),
    (lhs_batch, rhs_batch))``).  The result's axes: batch, then ``lhs``'s free axes, then
    ``rhs``'s.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> a, b = np.ones((5, 2, 3)), np.ones((5, 3, 4))
    >>> lax.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))).shape
    (5, 2, 4)
    """
    lhs, rhs = accept("dot_general", array(lhs), NUMBER), accept("dot_general", array(rhs),
                                                                 NUMBER)
    lc, rc, lb, rb = _dimension_numbers(lhs, rhs, dimension_numbers)
    dtype = (np.result_type(lhs.dtype, rhs.dtype) if preferred_element_type is None
             else np.dtype(preferred_element_type))
    lhs, rhs = (x if x.dtype == dtype else fnp.astype(x, dtype) for x in (lhs, rhs))
    letters = iter(string.ascii_letters)
    left = [next(letters) for _ in range(lhs.ndim)]
    right = [None] * rhs.ndim
    for a, b in zip(lc + lb, rc + rb):
        right[b] = left[a]
    right = [c if c is not None else next(letters) for c in right]
    out = ([left[a] for a in lb] + [c for i, c in enumerate(left) if i not in lc + lb]
           + [c for i, c in enumerate(right) if i not in rc + rb])
    spec = f"{''.join(left)},{''.join(right)}->{''.join(out)}"
    result = fnp.einsum(spec, lhs, rhs)
    return result if result.dtype == dtype else fnp.astype(result, dtype)


def dot(lhs: ArrayLike, rhs: ArrayLike, precision: Any = None,
        preferred_element_type: DTypeLike | None = None, *,
        dimension_numbers: Any = None) -> Array:
    """The vector-vector, matrix-vector or matrix-matrix product (operands of rank 1 or 2;
    with ``dimension_numbers``, :func:`dot_general`).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.dot(np.array([[1.0, 2.0]]), np.array([3.0, 4.0]))
    array([11.])
    """
    lhs, rhs = array(lhs), array(rhs)
    if dimension_numbers is None:
        if lhs.ndim not in (1, 2) or rhs.ndim not in (1, 2):
            raise ValueError(f"lax.dot: dimension_numbers must be given for products other "
                             f"than vector-vector, matrix-vector or matrix-matrix; got shapes "
                             f"{lhs.shape} and {rhs.shape} (use lax.dot_general)")
        dimension_numbers = (((lhs.ndim - 1,), (0,)), ((), ()))
    return dot_general(lhs, rhs, dimension_numbers, precision, preferred_element_type)


def batch_matmul(lhs: ArrayLike, rhs: ArrayLike, precision: Any = None) -> Array:
    """Matrix products over matching leading batch axes: ``(..., m, k) @ (..., k, n)``
    (same rank, at least 2, equal batch sizes; no broadcasting).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.batch_matmul(np.ones((2, 3, 5)), np.ones((2, 5, 4))).shape
    (2, 3, 4)
    """
    lhs, rhs = array(lhs), array(rhs)
    if lhs.ndim != rhs.ndim or lhs.ndim < 2 or lhs.shape[:-2] != rhs.shape[:-2]:
        raise ValueError(f"batch_matmul: the operands need the same rank (at least 2) and the "
                         f"same batch sizes, got shapes {lhs.shape} and {rhs.shape}")
    batch = tuple(range(lhs.ndim - 2))
    return dot_general(lhs, rhs, (((lhs.ndim - 1,), (rhs.ndim - 2,)), (batch, batch)),
                       precision)
