"""``jax.lax``'s dynamic slicing: ``dynamic_slice``, ``dynamic_update_slice`` and their
one-axis forms, whose start indices may be traced values (under ``jit``, ``vmap``).

The sizes are static; a start is first counted from the end when negative (unless
``allow_negative_indices=False``), then clamped so that the slice stays inside the
operand, as JAX does (so no index is ever out of bounds).  Static starts slice
(``x[a:b]``); traced ones gather (``fnp.at(x)[rows].get()``) and scatter
(``.set(update)``), which differentiate with respect to the operand and the update.
"""
from typing import Sequence

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ._common import array, canonical_axis, same_dtypes, static_int, static_ints
from ..typing import Array, ArrayLike

__all__ = ["dynamic_slice", "dynamic_update_slice", "dynamic_slice_in_dim",
           "dynamic_update_slice_in_dim", "dynamic_index_in_dim", "dynamic_update_index_in_dim"]


def _start_list(name, start_indices, ndim):
    """The start indices, one per axis: a sequence, or a 1-d integer array of them."""
    if isinstance(start_indices, (list, tuple)):
        starts = list(start_indices)
    else:
        arr = array(start_indices)
        if arr.ndim != 1:
            raise TypeError(f"{name}: start_indices must be a sequence of scalars or a 1-d "
                            f"array, got shape {arr.shape}")
        starts = [arr[i] for i in range(arr.shape[0])]
    if len(starts) != ndim:
        raise TypeError(f"{name}: give one start index per axis of the operand (rank {ndim}), "
                        f"got {len(starts)}")
    return starts


def _negatives(name, allow, ndim):
    if isinstance(allow, (bool, np.bool_)):
        return [bool(allow)] * ndim
    allow = [bool(a) for a in allow]
    if len(allow) != ndim:
        raise TypeError(f"{name}: allow_negative_indices needs one flag per axis ({ndim})")
    return allow


def _clamped_starts(name, shape, start_indices, sizes, allow_negative):
    """Each start counted from the end when negative (where allowed) and clamped into
    ``[0, dim - size]``: a Python int where the start is static, else a traced integer."""
    starts = _start_list(name, start_indices, len(shape))
    allow = _negatives(name, allow_negative, len(shape))
    out = []
    for start, n, size, neg in zip(starts, shape, sizes, allow):
        if not 0 <= size <= n:
            raise TypeError(f"{name}: a slice of size {size} does not fit an axis of size {n}")
        if isinstance(start, Tracer):
            if start.dtype.kind not in "iu" or start.ndim:
                raise TypeError(f"{name}: start indices must be integer scalars, got "
                                f"{start.dtype}{list(start.shape)}")
            if neg:
                start = fnp.where(fnp.less(start, 0), start + n, start)
            out.append(fnp.clip(start, 0, n - size))
            continue
        start = static_int(start, f"{name}: a start index")
        if neg and start < 0:
            start += n
        out.append(min(max(start, 0), n - size))
    return out


def _rows(starts, sizes):
    """Index arrays (an open mesh, as ``np.ix_``) of the region at ``starts`` of ``sizes``:
    they broadcast to ``sizes``, so the gathered region keeps its axes in order."""
    rank = len(sizes)
    rows = []
    for axis, (start, size) in enumerate(zip(starts, sizes)):
        line = np.arange(size).reshape([-1 if a == axis else 1 for a in range(rank)])
        rows.append(line + start if isinstance(start, int) else fnp.add(
            fnp.astype(start, np.int64), line))
    return tuple(rows)


def _static_region(starts, sizes):
    return tuple(slice(a, a + s) for a, s in zip(starts, sizes))


def dynamic_slice(operand: ArrayLike, start_indices: ArrayLike | Sequence[ArrayLike],
                  slice_sizes: Sequence[int], *,
                  allow_negative_indices: bool | Sequence[bool] = True) -> Array:
    """The block of ``operand`` of ``slice_sizes`` at ``start_indices`` (traced values
    allowed); starts are clamped so the block stays inside, as JAX.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad import lax
    >>> lax.dynamic_slice(np.arange(10.0), (8,), (4,))  # the start clamps to 6
    array([6., 7., 8., 9.])
    >>> fg.jit(lambda x, i: lax.dynamic_slice(x, (i,), (2,)))(np.arange(5.0), 1)
    array([1., 2.])
    """
    x = array(operand)
    sizes = static_ints(slice_sizes, "dynamic_slice: slice_sizes")
    if len(sizes) != x.ndim:
        raise TypeError(f"dynamic_slice: give one slice size per axis (rank {x.ndim}), got "
                        f"{sizes}")
    starts = _clamped_starts("dynamic_slice", x.shape, start_indices, sizes,
                             allow_negative_indices)
    if all(isinstance(s, int) for s in starts):
        return x[_static_region(starts, sizes)]
    return fnp.at(x)[_rows(starts, sizes)].get()


def dynamic_update_slice(operand: ArrayLike, update: ArrayLike,
                         start_indices: ArrayLike | Sequence[ArrayLike], *,
                         allow_negative_indices: bool | Sequence[bool] = True) -> Array:
    """``operand`` with the block at ``start_indices`` replaced by ``update`` (same dtype
    and rank); starts are clamped so the block stays inside, as JAX.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.dynamic_update_slice(np.zeros(5), np.ones(2), (4,))  # the start clamps to 3
    array([0., 0., 0., 1., 1.])
    """
    x, u = same_dtypes("dynamic_update_slice", [array(operand), array(update)])
    if u.ndim != x.ndim:
        raise TypeError(f"dynamic_update_slice: the update must have the operand's rank "
                        f"{x.ndim}, got shape {u.shape}")
    starts = _clamped_starts("dynamic_update_slice", x.shape, start_indices, u.shape,
                             allow_negative_indices)
    if all(isinstance(s, int) for s in starts):
        return fnp.at(x)[_static_region(starts, u.shape)].set(u)
    return fnp.at(x)[_rows(starts, u.shape)].set(u)


def _one_axis(x, axis, index):
    """Start indices that are ``index`` on ``axis`` and 0 elsewhere."""
    return [index if a == axis else 0 for a in range(x.ndim)]


def dynamic_slice_in_dim(operand: ArrayLike, start_index: ArrayLike, slice_size: int,
                         axis: int = 0, *,
                         allow_negative_indices: bool | Sequence[bool] = True) -> Array:
    """:func:`dynamic_slice` along one ``axis`` (the other axes whole).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.dynamic_slice_in_dim(np.arange(6.0).reshape(3, 2), 1, 2)
    array([[2., 3.],
           [4., 5.]])
    """
    x = array(operand)
    axis = canonical_axis(axis, x.ndim)
    sizes = list(x.shape)
    sizes[axis] = static_int(slice_size, "dynamic_slice_in_dim: slice_size")
    return dynamic_slice(x, _one_axis(x, axis, start_index), sizes,
                         allow_negative_indices=allow_negative_indices)


def dynamic_index_in_dim(operand: ArrayLike, index: ArrayLike, axis: int = 0,
                         keepdims: bool = True, *,
                         allow_negative_indices: bool | Sequence[bool] = True) -> Array:
    """Entry ``index`` (traced allowed, clamped) along ``axis``, keeping the axis with size
    1 unless ``keepdims=False``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.dynamic_index_in_dim(np.arange(6.0).reshape(3, 2), 1, 0, keepdims=False)
    array([2., 3.])
    """
    x = array(operand)
    axis = canonical_axis(axis, x.ndim)
    out = dynamic_slice_in_dim(x, index, 1, axis,
                               allow_negative_indices=allow_negative_indices)
    return out if keepdims else fnp.squeeze(out, axis)


def dynamic_update_slice_in_dim(operand: ArrayLike, update: ArrayLike, start_index: ArrayLike,
                                axis: int, *,
                                allow_negative_indices: bool | Sequence[bool] = True) -> Array:
    """:func:`dynamic_update_slice` at ``start_index`` along one ``axis``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.dynamic_update_slice_in_dim(np.zeros((3, 2)), np.ones((1, 2)), 2, 0)
    array([[0., 0.],
           [0., 0.],
           [1., 1.]])
    """
    x = array(operand)
    axis = canonical_axis(axis, x.ndim)
    return dynamic_update_slice(x, update, _one_axis(x, axis, start_index),
                                allow_negative_indices=allow_negative_indices)


def dynamic_update_index_in_dim(operand: ArrayLike, update: ArrayLike, index: ArrayLike, axis: int,
                                *, allow_negative_indices: bool | Sequence[bool] = True) -> Array:
    """``operand`` with entry ``index`` along ``axis`` replaced by ``update`` (with that
    axis of size 1, or without it).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.dynamic_update_index_in_dim(np.zeros((3, 2)), np.ones(2), 1, 0)
    array([[0., 0.],
           [1., 1.],
           [0., 0.]])
    """
    x, u = array(operand), array(update)
    axis = canonical_axis(axis, x.ndim)
    if u.ndim == x.ndim - 1:
        u = fnp.expand_dims(u, axis)
    return dynamic_update_slice_in_dim(x, u, index, axis,
                                       allow_negative_indices=allow_negative_indices)
