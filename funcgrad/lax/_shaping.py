"""``jax.lax``'s smaller shape operations: ``split``, ``stack``, ``unstack``, ``tile``,
``broadcast_to_rank``, ``broadcast_like``, ``index_take``, and the shape and dtype
helpers (``broadcast_shapes``, ``shape_as_value``, ``dtype``, ``empty``, ``stage``).

The operations are compositions of ``funcgrad.numpy`` functions and :func:`gather`, so
they differentiate, batch and compile as those do.  Shapes, axes and sizes are static
Python ints, as in JAX.
"""
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from ._common import array, arrays, canonical_axis, same_dtypes, static_int, static_ints
from ._structural import broadcast, concatenate, expand_dims, slice_in_dim
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["broadcast_shapes", "broadcast_to_rank", "broadcast_like", "split", "stack",
           "unstack", "tile", "index_take", "empty", "dtype", "shape_as_value", "stage"]


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """The shape NumPy's broadcasting gives arrays of ``shapes`` (a ValueError if they do
    not broadcast).

    >>> from funcgrad import lax
    >>> lax.broadcast_shapes((3, 1), (1, 4), (5, 1, 1))
    (5, 3, 4)
    """
    sizes = [static_ints(s, "broadcast_shapes: a shape") for s in shapes]
    rank = max((len(s) for s in sizes), default=0)
    out = []
    for axis in range(rank):
        column = {s[axis - rank + len(s)] for s in sizes if axis - rank + len(s) >= 0}
        column.discard(1)
        if len(column) > 1:
            raise ValueError(f"Incompatible shapes for broadcasting: shapes="
                             f"{[tuple(s) for s in sizes]}")
        out.append(column.pop() if column else 1)
    return tuple(out)


def broadcast_to_rank(x: ArrayLike, rank: int) -> Array:
    """``x`` with leading axes of size 1 added to give it rank ``rank`` (unchanged if it
    has that rank).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.broadcast_to_rank(np.ones(3), 3).shape
    (1, 1, 3)
    """
    x = array(x)
    rank = static_int(rank, "broadcast_to_rank: rank")
    if rank < x.ndim:
        raise ValueError(f"broadcast_to_rank: cannot lower the rank of an array of shape "
                         f"{x.shape} to {rank}; use lax.squeeze or lax.reshape")
    return x if rank == x.ndim else broadcast(x, (1,) * (rank - x.ndim))


def broadcast_like(arr: ArrayLike, like_arr: ArrayLike) -> Array:
    """``arr`` broadcast (NumPy's rules) to the shape of ``like_arr``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.broadcast_like(np.array([1, 2, 3]), np.zeros((2, 3)))
    array([[1, 2, 3],
           [1, 2, 3]])
    """
    return fnp.broadcast_to(array(arr), tuple(np.shape(like_arr)))


def split(operand: ArrayLike, sizes: Sequence[int], axis: int = 0) -> list[Array]:
    """``operand`` cut along ``axis`` into consecutive pieces of ``sizes`` (which must add
    up to the axis's size).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.split(np.arange(5.0), [2, 3])
    [array([0., 1.]), array([2., 3., 4.])]
    """
    x = array(operand)
    axis = canonical_axis(axis, x.ndim)
    sizes = static_ints(sizes, "split: sizes")
    if any(s < 0 for s in sizes) or sum(sizes) != x.shape[axis]:
        raise ValueError(f"split: sizes {list(sizes)} must be non-negative and add up to the "
                         f"size of axis {axis} of shape {x.shape} ({x.shape[axis]})")
    starts = np.cumsum((0,) + sizes)
    return [slice_in_dim(x, int(a), int(b), 1, axis) for a, b in zip(starts, starts[1:])]


def stack(operands: Sequence[ArrayLike], axis: int = 0) -> Array:
    """The operands (one shape, one dtype) joined along a new axis ``axis``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.stack([np.array([1, 2]), np.array([3, 4])], axis=1)
    array([[1, 3],
           [2, 4]])
    """
    xs = same_dtypes("stack", arrays(operands), "stack")
    if not xs:
        raise ValueError("stack needs at least one operand")
    if len({x.shape for x in xs}) > 1:
        raise TypeError(f"stack: the operands must have one shape, got "
                        f"{[x.shape for x in xs]}")
    axis = canonical_axis(axis, xs[0].ndim + 1)
    return concatenate([expand_dims(x, (axis,)) for x in xs], axis)


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, that axis removed: the inverse of
    :func:`stack`.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.unstack(np.array([[1, 2], [3, 4]]), axis=1)
    (array([1, 3]), array([2, 4]))
    """
    x = array(x)
    axis = canonical_axis(axis, x.ndim)
    return tuple(fnp.squeeze(slice_in_dim(x, i, i + 1, 1, axis), axis)
                 for i in range(x.shape[axis]))


def tile(operand: ArrayLike, reps: Sequence[int]) -> Array:
    """``operand`` repeated ``reps[i]`` times along each axis ``i`` (one entry per axis,
    as JAX's lax; ``funcgrad.numpy.tile`` also takes fewer or more).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.tile(np.array([[1], [2]]), (1, 3))
    array([[1, 1, 1],
           [2, 2, 2]])
    """
    x = array(operand)
    reps = static_ints(reps, "tile: reps")
    if len(reps) != x.ndim or any(r < 0 for r in reps):
        raise TypeError(f"tile: reps must hold one non-negative count per axis of the "
                        f"operand, got len(reps)={len(reps)} and x.ndim={x.ndim}")
    return fnp.tile(x, reps)


def index_take(src: ArrayLike, idxs: Sequence[ArrayLike], axes: Sequence[int]) -> Array:
    """``src[idxs[0], idxs[1], ...]`` with ``idxs[k]`` indexing axis ``axes[k]`` (one
    integer array each, of one shape; negative indices count from the end, and all
    indices wrap around, as JAX's); the other axes follow, whole.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.index_take(np.arange(12.0).reshape(3, 4), [np.array([0, 2]), np.array([1, -1])],
    ...                (0, 1))
    array([ 1., 11.])
    """
    from ._gather import GatherDimensionNumbers, gather
    x = array(src)
    axes = static_ints(axes, "index_take: axes")
    idxs = arrays(idxs)
    if len(idxs) != len(axes) or not idxs:
        raise TypeError(f"index_take: give one index array per axis in axes ({len(axes)}), "
                        f"got {len(idxs)}")
    if any(i.dtype.kind not in "iu" for i in idxs) or len({i.shape for i in idxs}) > 1:
        raise TypeError(f"index_take: the index arrays must be integers of one shape, got "
                        f"{[(i.dtype, i.shape) for i in idxs]}")
    indices = fnp.concatenate([fnp.expand_dims(i, 1) for i in idxs], 1)
    sizes = np.array([x.shape[a] for a in axes], indices.dtype)
    indices = fnp.remainder(indices, sizes)
    slice_sizes = [1 if d in axes else n for d, n in enumerate(x.shape)]
    dnums = GatherDimensionNumbers(offset_dims=tuple(range(1, x.ndim - len(axes) + 1)),
                                   collapsed_slice_dims=axes, start_index_map=axes)
    return gather(x, indices, dnums, slice_sizes)


def empty(shape: int | Sequence[int], dtype: DTypeLike, *, out_sharding: Any = None) -> Array:
    """An array of ``shape`` and ``dtype`` whose values are not to be relied on (JAX's are
    backend-dependent; funcgrad's are zeros, as JAX's on the CPU).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.empty((2, 3), np.float32).shape
    (2, 3)
    """
    shape = ((static_int(shape, "empty: shape"),) if np.ndim(shape) == 0
             else static_ints(shape, "empty: shape"))
    return np.zeros(shape, np.dtype(dtype))


def dtype(x: Any) -> np.dtype:
    """The dtype of a value or type (Python scalars and their types take funcgrad's
    defaults, float64, int64, complex128, bool; arrays keep theirs).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.dtype(1.0), lax.dtype(int), lax.dtype(np.ones(2, np.float32)), lax.dtype("int8")
    (dtype('float64'), dtype('int64'), dtype('float32'), dtype('int8'))
    """
    if x is None:
        raise ValueError(f"Invalid argument to dtype: {x}.")
    defaults = {bool: np.bool_, int: np.int64, float: np.float64, complex: np.complex128}
    if isinstance(x, type) and x in defaults:
        out = np.dtype(defaults[x])
    elif type(x) in defaults:
        out = np.dtype(defaults[type(x)])
    elif isinstance(getattr(x, "dtype", None), np.dtype):
        out = x.dtype
    else:
        try:
            out = np.dtype(x) if isinstance(x, (type, str, np.dtype)) else np.result_type(x)
        except TypeError as error:
            raise TypeError(f"Cannot determine dtype of {x}") from error
    if out.kind not in "biufc":
        raise TypeError(f"Value '{x}' with dtype {out} is not a valid funcgrad array type: "
                        f"only arrays of boolean and numeric types are supported.")
    return out


def shape_as_value(shape: Sequence[int]) -> np.ndarray:
    """``shape`` as a 1-d integer array (int32, or int64 for a size beyond int32), as
    JAX's.

    >>> from funcgrad import lax
    >>> lax.shape_as_value((2, 3))
    array([2, 3], dtype=int32)
    """
    sizes = static_ints(shape, "shape_as_value: shape")
    small = all(s <= np.iinfo(np.int32).max for s in sizes)
    return np.asarray(sizes, np.int32 if small else np.int64).reshape(len(sizes))


def stage(x: ArrayLike, /) -> Array:
    """``x`` as an array (JAX's lifts a value into the active trace; a funcgrad transform
    takes a constant as it comes, so this is the identity on values).

    >>> from funcgrad import lax
    >>> lax.stage(2.0)
    array(2.)
    """
    return array(x)
