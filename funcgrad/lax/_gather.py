"""``jax.lax``'s general gather and scatter: ``gather``, ``scatter``, ``scatter_add``,
``scatter_sub``, ``scatter_mul``, ``scatter_min``, ``scatter_max``, with XLA's
dimension numbers (:class:`GatherDimensionNumbers`, :class:`ScatterDimensionNumbers`)
and out-of-bounds modes (:class:`GatherScatterMode`).

Both are written as one advanced index of the operand: for every operand axis, an integer
array (broadcast to the result's, or the updates', shape) holding the position each
element reads or writes -- the window's start taken from the index array (or the batch
position, for batching axes) plus the element's offset inside the window.  The gather is
then ``x.at[index].get()`` and the scatters are ``x.at[index].set/add/multiply/min/max``,
funcgrad's differentiable indexing primitives: the derivatives (JVP, VJP, second order),
batching and ``jit`` come from theirs, with respect to the operand and the updates.

Out-of-bounds windows follow XLA, as JAX on the CPU does: by default (``None``,
``'promise_in_bounds'``) a gather clamps each window's start so that the window fits,
and a scatter skips a window that does not fit whole; ``'clip'`` clamps both;
``'fill'`` gathers ``fill_value`` (NaN, an integer dtype's extreme, True) for a window
that does not fit, and ``'drop'`` (the same mode) skips it.  Start indices are never
counted from the end: ``-1`` is out of bounds.
"""
import enum
from typing import Any, Callable, NamedTuple, Sequence

import numpy as np

from .. import numpy as fnp
from ._common import accept, all_concrete, array, same_dtypes, static_ints, values, INTEGER
from ..numpy.indexing import _default_fill  # (one out-of-bounds fill rule, JAX's)
from ..typing import Array, ArrayLike

__all__ = ["GatherDimensionNumbers", "ScatterDimensionNumbers", "GatherScatterMode", "gather",
           "scatter", "scatter_add", "scatter_sub", "scatter_mul", "scatter_min",
           "scatter_max", "scatter_apply"]


class GatherScatterMode(enum.Enum):
    """What ``gather`` and the scatters do with a window that does not fit in the operand
    (JAX's names): ``CLIP`` moves it inside, ``FILL_OR_DROP`` gathers a fill value and
    skips the update, ``PROMISE_IN_BOUNDS`` does what XLA does (a gather clamps, a scatter
    skips).  ``GatherScatterMode.from_any`` reads ``'clip'``, ``'fill'``, ``'drop'``,
    ``'promise_in_bounds'`` and ``None``.

    >>> from funcgrad import lax
    >>> lax.GatherScatterMode.from_any("drop")
    <GatherScatterMode.FILL_OR_DROP: 2>
    """
    CLIP = 1
    FILL_OR_DROP = 2
    PROMISE_IN_BOUNDS = 3

    @staticmethod
    def from_any(s: "str | GatherScatterMode | None") -> "GatherScatterMode":
        """The mode named by ``s`` (``None`` is ``FILL_OR_DROP``, as JAX's ``from_any``;
        ``gather`` and the scatters read a missing mode as ``PROMISE_IN_BOUNDS``).

        >>> from funcgrad import lax
        >>> lax.GatherScatterMode.from_any("clip")
        <GatherScatterMode.CLIP: 1>
        """
        if isinstance(s, GatherScatterMode):
            return s
        if s == "clip":
            return GatherScatterMode.CLIP
        if s is None or s in ("fill", "drop"):
            return GatherScatterMode.FILL_OR_DROP
        if s == "promise_in_bounds":
            return GatherScatterMode.PROMISE_IN_BOUNDS
        raise ValueError(f"unknown gather/scatter mode {s!r}: use 'clip', 'fill', 'drop', "
                         f"'promise_in_bounds' or a lax.GatherScatterMode")


class GatherDimensionNumbers(NamedTuple):
    """How :func:`gather` reads its operand (XLA's and JAX's fields).

    ``offset_dims``: the result's axes that run along a window (the window's axes that
    are not collapsed, in operand order); ``collapsed_slice_dims``: operand axes whose
    window has size 1 and no axis in the result; ``start_index_map``: for each entry of
    the last axis of ``start_indices``, the operand axis it starts; and
    ``operand_batching_dims`` / ``start_indices_batching_dims``: axes of the operand
    paired, in order, with axes of ``start_indices`` that index the same batch.

    >>> from funcgrad import lax
    >>> lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(),
    ...                            start_index_map=(0,)).operand_batching_dims
    ()
    """
    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    start_indices_batching_dims: tuple[int, ...] = ()


class ScatterDimensionNumbers(NamedTuple):
    """How the scatters write into their operand (XLA's and JAX's fields).

    ``update_window_dims``: the axes of ``updates`` that run along a window;
    ``inserted_window_dims``: operand axes whose window has size 1 and no axis in
    ``updates``; ``scatter_dims_to_operand_dims``: for each entry of the last axis of
    ``scatter_indices``, the operand axis it starts; and ``operand_batching_dims`` /
    ``scatter_indices_batching_dims``: paired batch axes.

    >>> from funcgrad import lax
    >>> lax.ScatterDimensionNumbers((), (0,), (0,)).update_window_dims
    ()
    """
    update_window_dims: tuple[int, ...]
    inserted_window_dims: tuple[int, ...]
    scatter_dims_to_operand_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...] = ()
    scatter_indices_batching_dims: tuple[int, ...] = ()


def _indices(name, indices, index_map, batching):
    """The index array (integer, last axis one entry per mapped operand axis)."""
    indices = accept(name, array(indices), INTEGER)
    if indices.ndim == 0 or indices.shape[-1] != len(index_map):
        raise TypeError(f"lax.{name}: the last axis of the indices holds one start per "
                        f"operand axis in the index map {tuple(index_map)}, so it must have "
                        f"length {len(index_map)}; got indices of shape {indices.shape}")
    for d in batching:
        if not 0 <= d < indices.ndim - 1:
            raise TypeError(f"lax.{name}: index batching axis {d} is not an axis of the "
                            f"indices' batch shape {indices.shape[:-1]}")
    return indices


def _check_axes(name, what, axes, rank):
    if len(set(axes)) != len(axes) or any(not 0 <= a < rank for a in axes):
        raise TypeError(f"lax.{name}: {what} {tuple(axes)} must be distinct axes in "
                        f"[0, {rank})")


def _positions(operand_shape, indices, index_map, operand_batching, index_batching, window,
               window_axes, out_rank, clamp, drop_axis=None):
    """For each operand axis, the integer array of the positions the result (or the
    updates) reads (writes), broadcastable to a shape of rank ``out_rank`` whose batch
    axes (those not in ``window_axes``) are the indices' batch axes; and, unless
    ``clamp``, whether each window fits (a batch-shaped boolean array, None if all do).

    ``window[d]`` is the window's size along operand axis ``d``; the operand axes whose
    window runs along an axis of the result, in order, are the ones of ``window_axes``.
    Starts are clamped so that every position is inside the operand, except that with a
    ``drop_axis`` a window that does not fit starts just past the end of that axis (in a
    padding the scatter cuts off: its elements stay apart from each other and from the
    operand's, so a product's derivative still sees distinct positions).
    """
    batch_shape = indices.shape[:-1]
    fits = None
    if not clamp:
        for d, n in enumerate(operand_shape):
            if d in index_map:
                start = indices[..., index_map.index(d)]
                ok = fnp.logical_and(start >= 0, start <= n - window[d])
                fits = ok if fits is None else fnp.logical_and(fits, ok)
    positions = []
    running = iter(window_axes)
    for d, n in enumerate(operand_shape):
        if d in index_map:
            start = fnp.clip(indices[..., index_map.index(d)], 0, max(n - window[d], 0))
            if d == drop_axis and fits is not None:
                start = fnp.where(fits, start, n)
        elif d in operand_batching:
            axis = index_batching[operand_batching.index(d)]
            start = np.arange(batch_shape[axis]).reshape(
                [-1 if a == axis else 1 for a in range(len(batch_shape))])
        else:
            start = np.zeros((1,) * len(batch_shape), np.int64)
        start = fnp.expand_dims(fnp.astype(start, np.int64), tuple(window_axes))
        if d in window.free_axes:
            at = next(running)
            offset = np.arange(window[d]).reshape([-1 if a == at else 1
                                                   for a in range(out_rank)])
            start = start + offset
        positions.append(start)
    return positions, fits


class _Window(tuple):
    """Window sizes per operand axis, knowing which axes run along the result's."""
    free_axes: tuple[int, ...]

    def __new__(cls, sizes, free_axes):
        self = super().__new__(cls, sizes)
        self.free_axes = tuple(free_axes)
        return self


def gather(operand: ArrayLike, start_indices: ArrayLike,
           dimension_numbers: GatherDimensionNumbers, slice_sizes: Sequence[int], *,
           unique_indices: bool = False, indices_are_sorted: bool = False,
           mode: "str | GatherScatterMode | None" = None, fill_value: Any = None) -> Array:
    """XLA's gather, as ``jax.lax.gather``: windows of ``slice_sizes`` of ``operand``,
    one per start in ``start_indices`` (its last axis holds a start per axis of
    ``dimension_numbers.start_index_map``), laid out as ``dimension_numbers`` says.
    Differentiable with respect to ``operand``; the hints ``unique_indices`` and
    ``indices_are_sorted`` change nothing.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad import lax
    >>> x = np.arange(10.0)
    >>> dn = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(),
    ...                                 start_index_map=(0,))
    >>> lax.gather(x, np.array([[0], [9]]), dn, (2,))  # the last window clamps to 8
    array([[0., 1.],
           [8., 9.]])
    >>> lax.gather(x, np.array([[9]]), dn, (2,), mode="fill")
    array([[nan, nan]])
    >>> fg.grad(lambda x: lax.gather(x, np.array([[1], [2]]), dn, (2,)).sum())(x)[:4]
    array([0., 1., 2., 1.])
    """
    x = array(operand)
    dn = GatherDimensionNumbers(*dimension_numbers)
    sizes = static_ints(slice_sizes, "lax.gather: slice_sizes")
    index_map = list(static_ints(dn.start_index_map, "start_index_map"))
    collapsed = static_ints(dn.collapsed_slice_dims, "collapsed_slice_dims")
    op_batch = list(static_ints(dn.operand_batching_dims, "operand_batching_dims"))
    idx_batch = list(static_ints(dn.start_indices_batching_dims, "start_indices_batching_dims"))
    offset_dims = static_ints(dn.offset_dims, "offset_dims")
    indices = _indices("gather", start_indices, index_map, idx_batch)
    if len(sizes) != x.ndim:
        raise TypeError(f"lax.gather: give one slice size per operand axis (rank {x.ndim}), "
                        f"got {sizes}")
    for d, s in enumerate(sizes):
        if not 0 <= s <= x.shape[d]:
            raise TypeError(f"lax.gather: slice size {s} does not fit operand axis {d} of "
                            f"size {x.shape[d]}")
    for what, axes in [("start_index_map", index_map), ("collapsed_slice_dims", collapsed),
                       ("operand_batching_dims", op_batch)]:
        _check_axes("gather", what, axes, x.ndim)
    if len(op_batch) != len(idx_batch):
        raise TypeError("lax.gather: operand_batching_dims and start_indices_batching_dims "
                        "pair up axes: give them the same length")
    for d in list(collapsed) + op_batch:
        if sizes[d] != 1:
            raise TypeError(f"lax.gather: a collapsed or batching operand axis ({d}) needs "
                            f"slice size 1, got {sizes[d]}")
    free = [d for d in range(x.ndim) if d not in collapsed and d not in op_batch]
    out_rank = indices.ndim - 1 + len(free)
    if len(offset_dims) != len(free) or list(offset_dims) != sorted(offset_dims) or any(
            not 0 <= a < out_rank for a in offset_dims):
        raise TypeError(f"lax.gather: offset_dims {offset_dims} must be {len(free)} sorted "
                        f"axes of the result (rank {out_rank}), one per operand axis that is "
                        f"neither collapsed nor batching")
    how = GatherScatterMode.from_any(mode) if mode is not None else \
        GatherScatterMode.PROMISE_IN_BOUNDS
    filling = how is GatherScatterMode.FILL_OR_DROP
    positions, fits = _positions(x.shape, indices, index_map, op_batch, idx_batch,
                                 _Window(sizes, free), offset_dims, out_rank,
                                 clamp=not filling)
    out_shape = _out_shape(indices.shape[:-1], offset_dims, [sizes[d] for d in free])
    if x.ndim == 0:
        return fnp.broadcast_to(x, out_shape)
    positions[0] = positions[0] + np.zeros(out_shape, np.int64)  # every result element
    out = fnp.at(x)[tuple(positions)].get()
    if fits is not None:
        fill = _default_fill(x.dtype) if fill_value is None else fill_value
        out = fnp.where(fnp.expand_dims(fits, tuple(offset_dims)), out,
                        fnp.astype(fnp.asarray(fill), x.dtype))
    return out


def _out_shape(batch_shape, window_axes, window_sizes):
    """Batch axes in order, with the window's axes at ``window_axes``."""
    shape, batch, window = [], iter(batch_shape), iter(window_sizes)
    for a in range(len(batch_shape) + len(window_axes)):
        shape.append(next(window) if a in window_axes else next(batch))
    return tuple(shape)


def _scatter(name, how, operand, scatter_indices, updates, dimension_numbers, mode):
    x, u = same_dtypes(name, [array(operand), array(updates)])
    dn = ScatterDimensionNumbers(*dimension_numbers)
    index_map = list(static_ints(dn.scatter_dims_to_operand_dims,
                                 "scatter_dims_to_operand_dims"))
    inserted = static_ints(dn.inserted_window_dims, "inserted_window_dims")
    op_batch = list(static_ints(dn.operand_batching_dims, "operand_batching_dims"))
    idx_batch = list(static_ints(dn.scatter_indices_batching_dims,
                                 "scatter_indices_batching_dims"))
    window_axes = static_ints(dn.update_window_dims, "update_window_dims")
    indices = _indices(name, scatter_indices, index_map, idx_batch)
    for what, axes in [("scatter_dims_to_operand_dims", index_map),
                       ("inserted_window_dims", inserted), ("operand_batching_dims", op_batch)]:
        _check_axes(name, what, axes, x.ndim)
    if len(op_batch) != len(idx_batch):
        raise TypeError(f"lax.{name}: operand_batching_dims and scatter_indices_batching_dims "
                        f"pair up axes: give them the same length")
    free = [d for d in range(x.ndim) if d not in inserted and d not in op_batch]
    batch_shape = indices.shape[:-1]
    if (len(window_axes) != len(free) or list(window_axes) != sorted(window_axes)
            or u.ndim != len(batch_shape) + len(free)
            or any(not 0 <= a < u.ndim for a in window_axes)):
        raise TypeError(f"lax.{name}: updates of shape {u.shape} need {len(batch_shape)} "
                        f"batch axes (the indices' {batch_shape}) and {len(free)} sorted "
                        f"window axes update_window_dims (got {window_axes}), one per "
                        f"operand axis neither inserted nor batching")
    sizes = [1] * x.ndim
    for d, a in zip(free, window_axes):
        sizes[d] = u.shape[a]
        if sizes[d] > x.shape[d]:
            raise TypeError(f"lax.{name}: an update window of size {sizes[d]} does not fit "
                            f"operand axis {d} of size {x.shape[d]}")
    want = _out_shape(batch_shape, window_axes, [sizes[d] for d in free])
    if tuple(u.shape) != want:
        raise TypeError(f"lax.{name}: updates must have shape {want} (batch axes from the "
                        f"indices, window axes within the operand), got {u.shape}")
    clamp = mode is not None and GatherScatterMode.from_any(mode) is GatherScatterMode.CLIP
    if x.ndim == 0:
        raise TypeError(f"lax.{name}: the operand must have at least one axis")
    drop_axis = index_map[0] if index_map and not clamp else None
    positions, fits = _positions(x.shape, indices, index_map, op_batch, idx_batch,
                                 _Window(sizes, free), window_axes, u.ndim, clamp=clamp,
                                 drop_axis=drop_axis)
    positions[0] = positions[0] + np.zeros(u.shape, np.int64)  # every update element
    if fits is None:
        return getattr(fnp.at(x)[tuple(positions)], how)(u)
    # a window that does not fit is skipped whole (XLA's rule): it lands in a padding
    # past the end of drop_axis, cut off after
    pad = [(0, sizes[drop_axis] if d == drop_axis else 0) for d in range(x.ndim)]
    out = getattr(fnp.at(fnp.pad(x, pad))[tuple(positions)], how)(u)
    return out[tuple(slice(0, n) for n in x.shape)]


_SCATTER_DOC = """``jax.lax.{name}``: ``operand`` with ``updates`` {what} the windows that
    ``scatter_indices`` start (laid out as ``dimension_numbers`` says).  Differentiable
    with respect to ``operand`` and ``updates``; a window that does not fit is skipped
    (``mode='clip'`` moves it inside).  {repeats}

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
    ...                                  scatter_dims_to_operand_dims=(0,))
    >>> rows, updates = np.array([[0], [0], [2], [5]]), np.array([3.0, 4.0, 5.0, 6.0])
    >>> lax.{name}(np.full(3, 2.0), rows, updates, dn)  # (row 5 is out of bounds)
    {example}
    """


def scatter(operand: ArrayLike, scatter_indices: ArrayLike, updates: ArrayLike,
            dimension_numbers: ScatterDimensionNumbers, *, indices_are_sorted: bool = False,
            unique_indices: bool = False,
            mode: "str | GatherScatterMode | None" = None) -> Array:
    return _scatter("scatter", "set", operand, scatter_indices, updates, dimension_numbers,
                    mode)


def scatter_add(operand: ArrayLike, scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *,
                indices_are_sorted: bool = False, unique_indices: bool = False,
                mode: "str | GatherScatterMode | None" = None) -> Array:
    return _scatter("scatter_add", "add", operand, scatter_indices, updates,
                    dimension_numbers, mode)


def scatter_sub(operand: ArrayLike, scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *,
                indices_are_sorted: bool = False, unique_indices: bool = False,
                mode: "str | GatherScatterMode | None" = None) -> Array:
    return _scatter("scatter_sub", "add", operand, scatter_indices, fnp.negative(updates),
                    dimension_numbers, mode)


def scatter_mul(operand: ArrayLike, scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *,
                indices_are_sorted: bool = False, unique_indices: bool = False,
                mode: "str | GatherScatterMode | None" = None) -> Array:
    return _scatter("scatter_mul", "multiply", operand, scatter_indices, updates,
                    dimension_numbers, mode)


def scatter_min(operand: ArrayLike, scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *,
                indices_are_sorted: bool = False, unique_indices: bool = False,
                mode: "str | GatherScatterMode | None" = None) -> Array:
    return _scatter("scatter_min", "min", operand, scatter_indices, updates,
                    dimension_numbers, mode)


def scatter_max(operand: ArrayLike, scatter_indices: ArrayLike, updates: ArrayLike,
                dimension_numbers: ScatterDimensionNumbers, *,
                indices_are_sorted: bool = False, unique_indices: bool = False,
                mode: "str | GatherScatterMode | None" = None) -> Array:
    return _scatter("scatter_max", "max", operand, scatter_indices, updates,
                    dimension_numbers, mode)


for _fn, _what, _repeats, _example in [
        (scatter, "written into", "Where windows overlap, one of the writes wins (XLA leaves "
         "which unspecified).", "array([4., 2., 5.])"),
        (scatter_add, "added to", "Overlapping windows all add.", "array([9., 2., 7.])"),
        (scatter_sub, "subtracted from", "Overlapping windows all subtract.",
         "array([-5.,  2., -3.])"),
        (scatter_mul, "multiplying", "Overlapping windows all multiply.",
         "array([24.,  2., 10.])"),
        (scatter_min, "taking the minimum with", "Overlapping windows all count.",
         "array([2., 2., 2.])"),
        (scatter_max, "taking the maximum with", "Overlapping windows all count.",
         "array([4., 2., 5.])")]:
    _fn.__doc__ = _SCATTER_DOC.format(name=_fn.__name__, what=_what, repeats=_repeats,
                                      example=_example)


def scatter_apply(operand: ArrayLike, scatter_indices: ArrayLike,
                  func: Callable[[Array], Array], dimension_numbers: ScatterDimensionNumbers,
                  *, update_shape: Sequence[int] = (), indices_are_sorted: bool = False,
                  unique_indices: bool = False,
                  mode: "str | GatherScatterMode | None" = None) -> Array:
    """``operand`` with ``func`` applied to the entries of the windows that
    ``scatter_indices`` start (``update_shape`` is the shape the updates of a
    :func:`scatter` with these indices would have), once per window covering an entry: an entry two windows cover gets
    ``func(func(x))``.  ``func`` works elementwise (JAX's applies it to one entry at a
    time).  Differentiable through ``func`` (JAX's is not).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> dn = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
    ...                                  scatter_dims_to_operand_dims=(0,))
    >>> rows = np.array([[0], [0], [3]])
    >>> lax.scatter_apply(np.full(4, 2.0), rows, lambda x: x * x, dn, update_shape=(3,))
    array([16.,  2.,  2.,  4.])
    """
    x = array(operand)
    ones = np.ones(static_ints(update_shape, "scatter_apply: update_shape"), np.int32)
    counts = scatter_add(np.zeros(x.shape, np.int32), scatter_indices, ones,
                         dimension_numbers, mode=mode)

    def apply_where_counted(k, out):
        return fnp.where(fnp.greater(counts, k), func(out), out)
    if unique_indices or all_concrete([counts]):
        times = 1 if unique_indices else int(np.max(values(counts), initial=0))
        for k in range(times):
            x = apply_where_counted(np.int32(k), x)
        return x
    from ._while import while_loop
    most = fnp.max(counts, initial=0)
    _, out = while_loop(lambda carry: fnp.less(carry[0], most),
                        lambda carry: (carry[0] + np.int32(1),
                                       apply_where_counted(carry[0], carry[1])),
                        (np.int32(0), x))
    return out
