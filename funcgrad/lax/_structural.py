"""``jax.lax``'s structural operations: choosing (``select``, ``select_n``), static slicing,
padding, joining, reshaping, transposing, broadcasting, reversing, and the constructors
(``iota``, ``full``...).  Dynamic slicing (traced start indices) is in :mod:`._dynamic`.

All are compositions of ``funcgrad.numpy`` functions (indexing, ``.at[].set``,
``broadcast_to``...), so each differentiates, batches and compiles as those do.  Shapes,
axes and sizes are static Python ints, as in JAX; a negative padding crops.
"""
import builtins
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ._common import (ANY, accept, array, arrays, canonical_axis, same_dtypes, static_int,
                      static_ints)
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["select", "select_n", "slice", "slice_in_dim", "index_in_dim", "pad",
           "concatenate", "reshape", "transpose", "broadcast", "broadcast_in_dim", "squeeze",
           "expand_dims", "rev", "iota", "broadcasted_iota", "full", "full_like", "collapse"]

# (lax's names shadow Python's slice and this package's array helper in this module)
_slice = builtins.slice
_array = array


# --- choosing ---------------------------------------------------------------------------------

def _cases(name, cases):
    cases = same_dtypes(name, arrays(cases))
    shapes = {c.shape for c in cases}
    if len(shapes) > 1:
        raise TypeError(f"{name} cases must have the same shapes, got "
                        f"{[c.shape for c in cases]}; broadcast them first")
    return cases


def _predicate(name, which, shape, kinds):
    which = array(which)
    if which.dtype.kind not in kinds:
        raise TypeError(f"{name}: the predicate/index must be "
                        f"{'boolean' if kinds == 'b' else 'boolean or integer'}, got "
                        f"{which.dtype}")
    if which.ndim and which.shape != shape:
        raise TypeError(f"{name}: the predicate/index must be a scalar or have the cases' "
                        f"shape {shape}, got {which.shape}")
    return which


def select(pred: ArrayLike, on_true: ArrayLike, on_false: ArrayLike) -> Array:
    """``on_true`` where ``pred`` else ``on_false`` (same shapes and dtypes; ``pred`` a
    boolean scalar or of their shape).  The untaken side gets a zero derivative.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.select(np.array([True, False]), np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    array([1., 4.])
    """
    on_true, on_false = _cases("select", (on_true, on_false))
    pred = _predicate("select", pred, on_true.shape, "b")
    return fnp.where(pred, on_true, on_false)


def select_n(which: ArrayLike, *cases: ArrayLike) -> Array:
    """``cases[which]`` elementwise: ``which`` boolean (two cases) or integer, a scalar or
    of the cases' shape (an index out of range picks the last case).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.select_n(np.array([0, 2, 1]), np.zeros(3), np.ones(3), np.full(3, 2.0))
    array([0., 2., 1.])
    """
    if not cases:
        raise ValueError("select_n needs at least one case")
    cases = _cases("select_n", cases)
    which = _predicate("select_n", which, cases[0].shape, "biu")
    if which.dtype.kind == "b":
        if len(cases) != 2:
            raise TypeError(f"select_n: a boolean selector picks between two cases, got "
                            f"{len(cases)}; use an integer selector")
        return fnp.where(which, cases[1], cases[0])
    out = cases[-1]
    for k in range(len(cases) - 2, -1, -1):
        out = fnp.where(fnp.equal(which, k), cases[k], out)
    return out


# --- static slicing ---------------------------------------------------------------------------

def slice(operand: ArrayLike, start_indices: Sequence[int], limit_indices: Sequence[int],
          strides: Sequence[int] | None = None) -> Array:  # noqa: A001 - JAX's name
    """``operand[start:limit:stride, ...]`` per axis (in bounds, non-negative, as JAX).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.slice(np.arange(10.0), [1], [8], [3])
    array([1., 4., 7.])
    """
    x = array(operand)
    starts = static_ints(start_indices, "slice: start_indices")
    limits = static_ints(limit_indices, "slice: limit_indices")
    steps = (1,) * x.ndim if strides is None else static_ints(strides, "slice: strides")
    if not len(starts) == len(limits) == len(steps) == x.ndim:
        raise TypeError(f"slice: start_indices, limit_indices and strides need one entry per "
                        f"axis of the operand (rank {x.ndim})")
    for n, a, b, s in zip(x.shape, starts, limits, steps):
        if not 0 <= a <= b <= n or s < 1:
            raise TypeError(f"slice: start {a}, limit {b}, stride {s} do not fit an axis of "
                            f"size {n} (0 <= start <= limit <= size, stride >= 1)")
    return x[tuple(_slice(a, b, s) for a, b, s in zip(starts, limits, steps))]


def _in_dim(name, x, index, axis, allow_none=False):
    n = x.shape[axis]
    if index is None and allow_none:
        return None
    i = static_int(index, f"{name}: the index")
    return i + n if i < 0 else i


def slice_in_dim(operand: ArrayLike, start_index: int | None, limit_index: int | None,
                 stride: int = 1, axis: int = 0) -> Array:
    """:func:`slice` along one ``axis`` (negative indices count from the end; ``None``
    means the start or the end).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.slice_in_dim(np.arange(10.0), -3, None)
    array([7., 8., 9.])
    """
    x = array(operand)
    axis = canonical_axis(axis, x.ndim)
    n = x.shape[axis]
    start = _in_dim("slice_in_dim", x, start_index, axis, True)
    limit = _in_dim("slice_in_dim", x, limit_index, axis, True)
    starts, limits, strides = [0] * x.ndim, list(x.shape), [1] * x.ndim
    starts[axis] = 0 if start is None else start
    limits[axis] = n if limit is None else limit
    strides[axis] = static_int(stride, "slice_in_dim: stride")
    return slice(x, starts, limits, strides)


def index_in_dim(operand: ArrayLike, index: int, axis: int = 0, keepdims: bool = True) -> Array:
    """Entry ``index`` along ``axis`` (negative counts from the end), keeping the axis with
    size 1 unless ``keepdims=False``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.index_in_dim(np.arange(6.0).reshape(3, 2), -1, 0, keepdims=False)
    array([4., 5.])
    """
    x = array(operand)
    axis = canonical_axis(axis, x.ndim)
    i = _in_dim("index_in_dim", x, index, axis)
    if not 0 <= i < x.shape[axis]:
        raise IndexError(f"index_in_dim: index {index} is out of bounds for an axis of size "
                         f"{x.shape[axis]}")
    out = slice_in_dim(x, i, i + 1, 1, axis)
    return out if keepdims else fnp.squeeze(out, axis)


@internal  # its fill is a constant that may move to the operand's device
def pad(operand: ArrayLike, padding_value: ArrayLike,
        padding_config: Sequence[Sequence[int]]) -> Array:
    """``operand`` padded per axis by ``(low, high, interior)``: ``low``/``high`` entries of
    ``padding_value`` before and after (negative: that many removed), ``interior`` between
    neighbours.  The derivative reaches ``padding_value`` from every padded entry.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.pad(np.array([1.0, 2.0, 3.0]), 0.0, [(1, 2, 1)])
    array([0., 1., 0., 2., 0., 3., 0., 0.])
    >>> lax.pad(np.array([1.0, 2.0, 3.0]), 0.0, [(-1, -1, 1)])
    array([0., 2., 0.])
    """
    x, value = same_dtypes("pad", arrays((operand, padding_value)))
    if value.ndim:
        raise TypeError(f"pad: padding_value must be a scalar, got shape {value.shape}")
    config = [static_ints(c, "pad: padding_config") for c in padding_config]
    if len(config) != x.ndim or any(len(c) != 3 for c in config):
        raise ValueError(f"pad: padding_config needs one (low, high, interior) per axis of "
                         f"the operand (rank {x.ndim}), got {padding_config!r}")
    shape, sources, targets = [], [], []
    for n, (low, high, interior) in zip(x.shape, config):
        if interior < 0:
            raise ValueError(f"pad: interior padding must be >= 0, got {interior}")
        step = interior + 1
        size = low + (n + (n - 1) * interior if n else 0) + high
        if size < 0:
            raise ValueError(f"pad: an axis of size {n} padded by {(low, high, interior)} "
                             f"would have size {size}; the result's sizes must be >= 0")
        # entry i lands at low + i * step: keep those inside [0, size)
        first = max(0, -(-(-low) // step))
        stop = min(n, (size - low - 1) // step + 1) if size - low > 0 else 0
        shape.append(size)
        sources.append(_slice(first, max(first, stop)))
        targets.append(_slice(low + first * step, low + (stop - 1) * step + 1, step))
    out = fnp.full_like(x, value, shape=tuple(shape))
    if any(t.start >= t.stop for t in targets) or any(s.start >= s.stop for s in sources):
        return out
    return fnp.at(out)[tuple(targets)].set(x[tuple(sources)])


# --- joining and reshaping --------------------------------------------------------------------

def concatenate(operands: Sequence[ArrayLike], dimension: int) -> Array:
    """The operands joined along ``dimension`` (same dtypes; other sizes equal).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.concatenate([np.zeros(2), np.ones(1)], 0)
    array([0., 0., 1.])
    """
    xs = same_dtypes("concatenate", arrays(operands), "concatenate")
    if not xs:
        raise ValueError("concatenate needs at least one operand")
    return fnp.concatenate(xs, axis=canonical_axis(dimension, xs[0].ndim, "dimension"))


def reshape(operand: ArrayLike, new_sizes: Sequence[int],
            dimensions: Sequence[int] | None = None, *, out_sharding: Any = None) -> Array:
    """``operand`` in the shape ``new_sizes`` (row-major), after transposing it by
    ``dimensions`` when given.  ``out_sharding`` is accepted and unused (funcgrad computes
    on one device).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reshape(np.arange(6.0).reshape(2, 3), (3, 2), (1, 0))
    array([[0., 3.],
           [1., 4.],
           [2., 5.]])
    """
    x = array(operand)
    sizes = static_ints(new_sizes, "reshape: new_sizes")
    if dimensions is not None:
        x = transpose(x, dimensions)
    if int(np.prod(sizes, dtype=np.int64)) != x.size or any(s < 0 for s in sizes):
        raise TypeError(f"reshape: cannot reshape an array of shape {x.shape} to {sizes} "
                        f"(the sizes must multiply to {x.size})")
    return fnp.reshape(x, sizes)


def transpose(operand: ArrayLike, permutation: Sequence[int]) -> Array:
    """The axes of ``operand`` permuted: axis ``i`` of the result is ``permutation[i]``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.transpose(np.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    x = array(operand)
    perm = static_ints(permutation, "transpose: permutation")
    if sorted(perm) != list(range(x.ndim)):
        raise TypeError(f"transpose: permutation {perm} is not a permutation of the axes of "
                        f"a rank-{x.ndim} operand")
    return fnp.transpose(x, perm)


def broadcast(operand: ArrayLike, sizes: Sequence[int], *, out_sharding: Any = None) -> Array:
    """``operand`` repeated along new leading axes of ``sizes``.  ``out_sharding`` is
    accepted and unused (funcgrad computes on one device).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.broadcast(np.array([1.0, 2.0]), (2,))
    array([[1., 2.],
           [1., 2.]])
    """
    x = array(operand)
    return fnp.broadcast_to(x, static_ints(sizes, "broadcast: sizes") + tuple(x.shape))


def broadcast_in_dim(operand: ArrayLike, shape: Sequence[int],
                     broadcast_dimensions: Sequence[int], *,
                     out_sharding: Any = None) -> Array:
    """``operand`` broadcast to ``shape``, its axis ``i`` becoming axis
    ``broadcast_dimensions[i]`` of the result (of size 1 or the same size).
    ``out_sharding`` is accepted and unused (funcgrad computes on one device).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.broadcast_in_dim(np.array([1.0, 2.0]), (2, 3), (0,))
    array([[1., 1., 1.],
           [2., 2., 2.]])
    """
    x = array(operand)
    shape = static_ints(shape, "broadcast_in_dim: shape")
    dims = static_ints(broadcast_dimensions, "broadcast_in_dim: broadcast_dimensions")
    if len(dims) != x.ndim or len(set(dims)) != len(dims) or any(
            not 0 <= d < len(shape) for d in dims):
        raise TypeError(f"broadcast_in_dim: broadcast_dimensions {dims} must name a distinct "
                        f"axis of the result (rank {len(shape)}) for each axis of the operand "
                        f"(rank {x.ndim})")
    for n, d in zip(x.shape, dims):
        if n not in (1, shape[d]):
            raise TypeError(f"broadcast_in_dim: operand axis of size {n} cannot become axis "
                            f"{d} of size {shape[d]} (it must have size 1 or {shape[d]})")
    order = sorted(range(x.ndim), key=lambda i: dims[i])
    x = fnp.transpose(x, order) if order != list(range(x.ndim)) else x
    ones = [1] * len(shape)
    for i in order:
        ones[dims[i]] = x.shape[order.index(i)]
    return fnp.broadcast_to(fnp.reshape(x, tuple(ones)), shape)


def squeeze(array: ArrayLike, dimensions: Sequence[int]) -> Array:  # noqa: A002 - JAX's name
    """``array`` without the listed axes, each of size 1.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.squeeze(np.ones((1, 2, 1)), (-1,)).shape
    (1, 2)
    """
    x = _array(array)
    dims = sorted({canonical_axis(d, x.ndim, "squeeze: dimension") for d in dimensions})
    if any(x.shape[d] != 1 for d in dims):
        raise ValueError(f"squeeze: cannot remove axes {dims} of shape {x.shape}: each must "
                         f"have size 1")
    return fnp.reshape(x, tuple(n for i, n in enumerate(x.shape) if i not in dims))


def expand_dims(array: ArrayLike, dimensions: Sequence[int]) -> Array:  # noqa: A002 - JAX's name
    """``array`` with new axes of size 1 at ``dimensions`` (positions in the result).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.expand_dims(np.ones((2, 3)), (0, -1)).shape
    (1, 2, 3, 1)
    """
    x = _array(array)
    rank = x.ndim + len(dimensions)
    dims = {canonical_axis(d, rank, "expand_dims: dimension") for d in dimensions}
    if len(dims) != len(dimensions):
        raise ValueError(f"expand_dims: repeated dimensions {tuple(dimensions)}")
    sizes = iter(x.shape)
    return fnp.reshape(x, tuple(1 if i in dims else next(sizes) for i in range(rank)))


def rev(operand: ArrayLike, dimensions: Sequence[int]) -> Array:
    """``operand`` reversed along ``dimensions``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.rev(np.arange(3.0), (0,))
    array([2., 1., 0.])
    """
    x = _array(operand)
    dims = tuple(sorted({canonical_axis(d, x.ndim, "rev: dimension") for d in dimensions}))
    return fnp.flip(x, dims) if dims else x


def collapse(operand: ArrayLike, start_dimension: int, stop_dimension: int | None = None) -> Array:
    """``operand`` with axes ``start_dimension`` up to (not including) ``stop_dimension``
    merged into one (row-major).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.collapse(np.zeros((2, 3, 4)), 1).shape
    (2, 12)
    """
    x = _array(operand)
    lo = canonical_axis(start_dimension, x.ndim, "collapse: start_dimension")
    hi = x.ndim if stop_dimension is None else static_int(stop_dimension,
                                                          "collapse: stop_dimension")
    hi = hi + x.ndim if hi < 0 else hi
    if not lo <= hi <= x.ndim:
        raise ValueError(f"collapse: dimensions [{start_dimension}, {stop_dimension}) are not "
                         f"a range of the axes of shape {x.shape}")
    merged = int(np.prod(x.shape[lo:hi], dtype=np.int64))
    return fnp.reshape(x, tuple(x.shape[:lo]) + (merged,) + tuple(x.shape[hi:]))


# --- constructors -----------------------------------------------------------------------------

def iota(dtype: DTypeLike, size: int) -> Array:
    """``0, 1, ..., size - 1`` as ``dtype``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.iota(np.int32, 3)
    array([0, 1, 2], dtype=int32)
    """
    return np.arange(static_int(size, "iota: size"), dtype=np.dtype(dtype))


def broadcasted_iota(dtype: DTypeLike, shape: Sequence[int], dimension: int, *,
                     out_sharding: Any = None) -> Array:
    """An array of ``shape`` whose entries count along axis ``dimension``.
    ``out_sharding`` is accepted and unused (funcgrad computes on one device).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.broadcasted_iota(np.int32, (2, 3), 1)
    array([[0, 1, 2],
           [0, 1, 2]], dtype=int32)
    """
    shape = static_ints(shape, "broadcasted_iota: shape")
    axis = canonical_axis(dimension, len(shape), "broadcasted_iota: dimension")
    line = np.arange(shape[axis], dtype=np.dtype(dtype))
    return np.broadcast_to(line.reshape([-1 if i == axis else 1 for i in range(len(shape))]),
                           shape).copy()


def full(shape: Sequence[int], fill_value: ArrayLike, dtype: DTypeLike | None = None, *,
         sharding: Any = None) -> Array:
    """An array of ``shape`` filled with the scalar ``fill_value`` (converted to ``dtype``
    as :func:`convert_element_type` does; a traced one keeps its derivative).
    ``sharding`` is accepted and unused (funcgrad computes on one device).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.full((2,), 1.5), lax.full((2,), 3.7, np.int32)
    (array([1.5, 1.5]), array([3, 3], dtype=int32))
    """
    from ._arith import convert_element_type
    value = accept("full", _array(fill_value), ANY)
    if value.ndim:
        raise TypeError(f"full: fill_value must be a scalar, got shape {value.shape}")
    if dtype is not None:
        value = convert_element_type(value, dtype)
    return fnp.full(static_ints(shape, "full: shape"), value)


def full_like(x: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None,
              shape: Sequence[int] | None = None, sharding: Any = None) -> Array:
    """:func:`full` with ``x``'s shape and dtype unless ``shape``/``dtype`` are given
    (``sharding``: unused, as :func:`full`'s).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.full_like(np.ones(2, np.int32), 3.7)
    array([3, 3], dtype=int32)
    """
    x = _array(x)
    return full(x.shape if shape is None else shape, fill_value,
                x.dtype if dtype is None else dtype)
