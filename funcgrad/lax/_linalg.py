"""``jax.lax``'s products: ``dot_general`` (contracting and batch dimensions), ``dot`` and
``batch_matmul``, as ``funcgrad.numpy.einsum`` (differentiable in both operands; BLAS
underneath).  ``precision`` is accepted and ignored (funcgrad computes in the operands'
own precision), whether a :class:`Precision`, a :class:`DotAlgorithm` or a
:class:`DotAlgorithmPreset`; ``preferred_element_type`` is the dtype the product is computed and
returned in.  The result's axes are JAX's: batch axes, then the free axes of ``lhs``,
then those of ``rhs``.
"""
import dataclasses
import enum
import string
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from ._common import NUMBER, accept, array, static_ints
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["dot_general", "dot", "batch_matmul", "scaled_dot", "Precision", "PrecisionLike", "DotAlgorithm",
           "DotAlgorithmPreset", "DotDimensionNumbers"]


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


class DotAlgorithmPreset(enum.Enum):
    """JAX's named algorithms for products (input, input, accumulation types): accepted
    as ``precision`` and ignored, as :class:`Precision`.

    >>> from funcgrad import lax
    >>> lax.DotAlgorithmPreset.F64_F64_F64.name
    'F64_F64_F64'
    """
    DEFAULT = enum.auto()
    ANY_F8_ANY_F8_F32 = enum.auto()
    ANY_F8_ANY_F8_F32_FAST_ACCUM = enum.auto()
    ANY_F8_ANY_F8_ANY = enum.auto()
    ANY_F8_ANY_F8_ANY_FAST_ACCUM = enum.auto()
    F16_F16_F16 = enum.auto()
    F16_F16_F32 = enum.auto()
    BF16_BF16_BF16 = enum.auto()
    BF16_BF16_F32 = enum.auto()
    BF16_BF16_F32_X3 = enum.auto()
    BF16_BF16_F32_X6 = enum.auto()
    BF16_BF16_F32_X9 = enum.auto()
    TF32_TF32_F32 = enum.auto()
    TF32_TF32_F32_X3 = enum.auto()
    F32_F32_F32 = enum.auto()
    F64_F64_F64 = enum.auto()


@dataclasses.dataclass(frozen=True)
class DotAlgorithm:
    """JAX's explicit algorithm for a product (the types it rounds the inputs to and
    accumulates in): accepted as ``precision`` and ignored, as :class:`Precision`.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> algorithm = lax.DotAlgorithm(np.float32, np.float32, np.float32)
    >>> float(lax.dot(np.ones(2), np.ones(2), precision=algorithm))
    2.0
    """
    lhs_precision_type: Any
    rhs_precision_type: Any
    accumulation_type: Any
    lhs_component_count: int = 1
    rhs_component_count: int = 1
    num_primitive_operations: int = 1
    allow_imprecise_accumulation: bool = False


# JAX's type names for the arguments: ((lhs_contracting, rhs_contracting), (lhs_batch,
# rhs_batch)), and what ``precision`` takes
DotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]],
                            tuple[Sequence[int], Sequence[int]]]
PrecisionLike = (None | str | Precision | tuple[str, str] | tuple[Precision, Precision]
                 | DotAlgorithm | DotAlgorithmPreset)


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
                preferred_element_type: DTypeLike | None = None, *,
                out_sharding: Any = None) -> Array:
    """The general tensor product: sum over the contracting axes pairs, matched along the
    batch axes pairs (``dimension_numbers = ((lhs_contracting, rhs_contracting),
    (lhs_batch, rhs_batch))``).  The result's axes: batch, then ``lhs``'s free axes, then
    ``rhs``'s.  ``out_sharding`` is accepted and unused (funcgrad computes on one device).

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
        dimension_numbers: Any = None, out_sharding: Any = None) -> Array:
    """The vector-vector, matrix-vector or matrix-matrix product (operands of rank 1 or 2;
    with ``dimension_numbers``, :func:`dot_general`).  ``out_sharding`` is accepted and
    unused (funcgrad computes on one device).

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


def _scale_to(name, x, scale, contracting):
    """``scale`` repeated along the contracting axes up to ``x``'s shape (each scale entry
    covers a block of ``x``'s size over its size there); other axes must match."""
    scale = accept(name, array(scale), NUMBER)
    if scale.ndim != x.ndim:
        raise TypeError(f"{name}: a scale needs its operand's rank, got shapes {scale.shape} "
                        f"and {x.shape}")
    for axis, (n, m) in enumerate(zip(x.shape, scale.shape)):
        if axis in contracting:
            if m == 0 or n % m:
                raise TypeError(f"{name}: the operand's contracting size {n} must be a "
                                f"multiple of its scale's ({m})")
            if n != m:
                scale = fnp.repeat(scale, n // m, axis=axis)
        elif n != m:
            raise TypeError(f"{name}: non-contracting axis {axis} has size {n} in the operand "
                            f"and {m} in its scale; they must be equal")
    return scale


def scaled_dot(lhs: ArrayLike, rhs: ArrayLike, *, lhs_scale: ArrayLike | None = None,
               rhs_scale: ArrayLike | None = None, dimension_numbers: Any = None,
               preferred_element_type: DTypeLike | None = None) -> Array:
    """``(lhs * lhs_scale) @ (rhs * rhs_scale)`` by :func:`dot_general`, each scale entry
    multiplying a block of consecutive entries along the contracting axes (block-scaled
    low-precision formats).  The default ``dimension_numbers`` is a (batched) matrix
    product.  The result's dtype is ``preferred_element_type``; JAX's default, bfloat16,
    is not a funcgrad dtype, so funcgrad's default is float32.  Differentiable (JAX's is
    not).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.scaled_dot(np.ones((1, 4)), np.ones((4, 1)), lhs_scale=np.array([[1.0, 2.0]]),
    ...                rhs_scale=np.ones((1, 1)))
    array([[6.]], dtype=float32)
    """
    lhs, rhs = accept("scaled_dot", array(lhs), NUMBER), accept("scaled_dot", array(rhs),
                                                               NUMBER)
    if dimension_numbers is None:
        if lhs.ndim < 2:
            raise TypeError("scaled_dot does not support 0-rank and 1-rank operands.")
        n = lhs.ndim
        batch = tuple(range(n - 2))
        dimension_numbers = (((n - 1,), (n - 2,)), (batch, batch))
    (lc, rc), _ = dimension_numbers
    dtype = np.dtype(np.float32 if preferred_element_type is None else preferred_element_type)
    if lhs_scale is not None:
        lhs = lhs * _scale_to("scaled_dot", lhs, lhs_scale, static_ints(lc, "contracting"))
    if rhs_scale is not None:
        rhs = rhs * _scale_to("scaled_dot", rhs, rhs_scale, static_ints(rc, "contracting"))
    return dot_general(lhs, rhs, dimension_numbers, preferred_element_type=dtype)
