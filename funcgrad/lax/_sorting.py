"""``jax.lax``'s ordering operations: ``sort`` (several operands, several keys),
``sort_key_val``, ``top_k``, ``argmax`` and ``argmin``.

A sort is a permutation: the stable ``argsort`` of the keys (the last key first, then
each more significant one, so ties keep the order the less significant keys gave), then
every operand gathered by it with ``take_along_axis``, through which the derivative of
each operand flows back to where its entries came from.  The order is JAX's: NaN after
everything, ``-0.0`` equal to ``0.0`` (ties keep their order: every sort here is
stable), complex numbers by real part, then imaginary part.
"""
from typing import Sequence

import numpy as np

from .. import numpy as fnp
from ._common import ORDERED, accept, array, arrays, canonical_axis, static_int
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["sort", "sort_key_val", "top_k", "approx_max_k", "approx_min_k", "argmax", "argmin"]


def _keys(key):
    """The real keys a key stands for (a complex key: its real, then imaginary part)."""
    if key.dtype.kind == "c":
        return [fnp.real(key), fnp.imag(key)]
    return [accept("sort", key, ORDERED)]


def _permutation(keys, axis):
    """Indices that sort lexicographically by ``keys`` (the first most significant), stably."""
    perm = None
    for key in reversed(keys):
        if perm is None:
            perm = fnp.argsort(key, axis=axis, stable=True)
        else:
            order = fnp.argsort(fnp.take_along_axis(key, perm, axis), axis=axis, stable=True)
            perm = fnp.take_along_axis(perm, order, axis)
    return perm


def sort(operand: ArrayLike | Sequence[ArrayLike], dimension: int = -1, is_stable: bool = True,
         num_keys: int = 1) -> Array | tuple[Array, ...]:
    """``operand`` sorted along ``dimension``; or, given a sequence of arrays of one shape,
    all of them permuted by the lexicographic order of the first ``num_keys`` (a tuple
    back).  Always stable (``is_stable`` is accepted for JAX's signature).  Derivatives
    follow the entries to their sorted places.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.sort(np.array([3.0, np.nan, 1.0, 2.0]))
    array([ 1.,  2.,  3., nan])
    >>> lax.sort((np.array([2, 1, 2, 1]), np.array([1.0, 2.0, 3.0, 4.0])), num_keys=1)
    (array([1, 1, 2, 2]), array([2., 4., 1., 3.]))
    """
    single = not isinstance(operand, (list, tuple))
    xs = arrays([operand] if single else operand)
    if not xs:
        raise ValueError("sort needs at least one operand")
    shapes = {x.shape for x in xs}
    if len(shapes) > 1:
        raise TypeError(f"sort: the operands must have one shape, got {[x.shape for x in xs]}")
    num_keys = static_int(num_keys, "sort: num_keys")
    if not 1 <= num_keys <= len(xs):
        raise ValueError(f"sort: num_keys={num_keys} must be between 1 and the number of "
                         f"operands ({len(xs)})")
    if not xs[0].ndim:
        raise TypeError("sort: cannot sort a 0-d array (it has no axis)")
    axis = canonical_axis(dimension, xs[0].ndim, "sort: dimension")
    perm = _permutation([k for x in xs[:num_keys] for k in _keys(x)], axis)
    out = [fnp.take_along_axis(x, perm, axis) for x in xs]
    return out[0] if single else tuple(out)


def sort_key_val(keys: ArrayLike, values: ArrayLike, dimension: int = -1,
                 is_stable: bool = True) -> tuple[Array, Array]:
    """``keys`` sorted along ``dimension``, and ``values`` permuted the same way.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.sort_key_val(np.array([3, 1, 2]), np.array([30.0, 10.0, 20.0]))
    (array([1, 2, 3]), array([10., 20., 30.]))
    """
    return sort((keys, values), dimension, is_stable, num_keys=1)


def _descending(x):
    """Keys that sort ``x`` from the largest down, NaN first (as the largest): ``x``'s
    order reversed without overflow (``~x`` for integers, ``-x`` for floats)."""
    if x.dtype.kind == "b":
        return [fnp.logical_not(x)]
    if x.dtype.kind in "iu":
        from ._bits import bitwise_not
        return [bitwise_not(x)]
    return [fnp.logical_not(fnp.isnan(x)), fnp.negative(x)]


def top_k(operand: ArrayLike, k: int, *, axis: int = -1) -> tuple[Array, Array]:
    """The ``k`` largest entries along ``axis`` (last by default), largest first, and their
    indices (int32); ties keep index order, NaN counts as the largest.  The values carry
    the derivative of the entries they are.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.top_k(np.array([1.0, 4.0, 3.0, 4.0]), 2)
    (array([4., 4.]), array([1, 3], dtype=int32))
    """
    return _k_first("top_k", operand, k, axis, _descending)


def approx_max_k(operand: ArrayLike, k: int, reduction_dimension: int = -1,
                 recall_target: float = 0.95, reduction_input_size_override: int = -1,
                 aggregate_to_topk: bool = True) -> tuple[Array, Array]:
    """JAX's approximate top ``k`` along ``reduction_dimension``: here the exact one (a
    recall of 1 meets every ``recall_target``), as :func:`top_k`.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.approx_max_k(np.array([1.0, 4.0, 3.0]), 2)
    (array([4., 3.]), array([1, 2], dtype=int32))
    """
    return top_k(operand, k, axis=reduction_dimension)


def approx_min_k(operand: ArrayLike, k: int, reduction_dimension: int = -1,
                 recall_target: float = 0.95, reduction_input_size_override: int = -1,
                 aggregate_to_topk: bool = True) -> tuple[Array, Array]:
    """The ``k`` smallest entries along ``reduction_dimension``, smallest first, and their
    indices (int32; ties in index order, NaN last): JAX's approximate search, exact here.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.approx_min_k(np.array([1.0, 4.0, 3.0]), 2)
    (array([1., 3.]), array([0, 2], dtype=int32))
    """
    return _k_first("approx_min_k", operand, k, reduction_dimension, _keys)


def _k_first(name, operand, k, axis, keys):
    """The ``k`` entries of ``operand`` first in the order of ``keys(x)`` along ``axis``, and
    their indices (int32)."""
    x = accept(name, array(operand), ORDERED)
    if not x.ndim:
        raise TypeError(f"{name}: the operand needs at least one axis")
    axis = canonical_axis(axis, x.ndim)
    k = static_int(k, f"{name}: k")
    if not 0 <= k <= x.shape[axis]:
        raise ValueError(f"{name}: k={k} must be between 0 and the axis size {x.shape[axis]}")
    first = fnp.take(_permutation(keys(x), axis), np.arange(k), axis=axis)
    return fnp.take_along_axis(x, first, axis), fnp.astype(first, np.int32)


def _arg(name, pick, operand, axis, index_dtype):
    x = accept(name, array(operand), ORDERED)
    axis = canonical_axis(axis, x.ndim)
    dtype = np.dtype(index_dtype)
    if dtype.kind not in "iu":
        raise TypeError(f"{name}: index_dtype must be an integer dtype, got {dtype}")
    if x.ndim and not x.shape[axis]:
        raise ValueError(f"{name}: the axis {axis} of shape {x.shape} is empty")
    return fnp.astype(pick(x, axis=axis), dtype)


def argmax(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    """The index of the largest entry along ``axis`` (the first one on ties; the first NaN
    if there is one), as ``index_dtype``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.argmax(np.array([[1.0, 5.0, 5.0], [7.0, 0.0, 1.0]]), 1, np.int32)
    array([1, 0], dtype=int32)
    """
    return _arg("argmax", fnp.argmax, operand, axis, index_dtype)


def argmin(operand: ArrayLike, axis: int, index_dtype: DTypeLike) -> Array:
    """The index of the smallest entry along ``axis`` (the first one on ties; the first NaN
    if there is one), as ``index_dtype``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.argmin(np.array([[1.0, 5.0, 1.0], [7.0, 0.0, 1.0]]), 1, np.int32)
    array([0, 1], dtype=int32)
    """
    return _arg("argmin", fnp.argmin, operand, axis, index_dtype)
