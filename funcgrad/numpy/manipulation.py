"""Array manipulation (shape, not values): join, split, tile, flip, roll here; reshape,
transpose and the other changes of shape and axes in :mod:`~funcgrad.numpy._shapes`,
re-exported (``pad`` lives in :mod:`~funcgrad.numpy.padding`)."""
import builtins
import math
from typing import Any, Sequence

import numpy as _np

from ..errors import ShapeMismatchError
from ..primitives import indexing as _ix
from ..primitives import structural as _st
from ._convert import asarray, joined_dtype, normalize_axis, one_axis, stack, write_out
from ._shapes import (_ints, atleast_1d, atleast_2d, atleast_3d, broadcast_arrays, broadcast_to,
                      expand_dims, matrix_transpose, moveaxis, ndim, permute_dims, ravel,
                      reshape, shape, size, squeeze, swapaxes, transpose)
from .constructors import astype
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["shape", "ndim", "size", "reshape", "ravel", "transpose", "permute_dims",
           "swapaxes", "moveaxis", "expand_dims", "squeeze", "broadcast_to", "broadcast_arrays",
           "atleast_1d", "atleast_2d", "atleast_3d", "concatenate", "concat", "stack", "hstack",
           "vstack", "row_stack", "dstack", "column_stack", "split", "array_split", "hsplit",
           "vsplit", "dsplit", "matrix_transpose", "tile", "repeat", "flip", "fliplr", "flipud",
           "roll"]


def concatenate(arrays: Sequence[ArrayLike], axis: Axis = 0, out: Any = None,
                dtype: DTypeLike | None = None, casting: str = "same_kind") -> Array:
    """Join arrays along ``axis`` (``None``: flatten them first), in ``dtype`` (cast under
    ``casting``) when given.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.concatenate([np.zeros(2), np.ones(1)])
    array([0., 0., 1.])
    """
    if out is not None:
        return write_out("concatenate", out, concatenate(arrays, axis, None, dtype, casting),
                         casting)
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays, axis = [ravel(a) for a in arrays], 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    axis = one_axis(axis, nd)
    first = arrays[0].shape
    for i, a in enumerate(arrays):
        if a.ndim != nd or builtins.any(d != f for k, (d, f) in enumerate(zip(a.shape, first))
                                        if k != axis):
            raise ShapeMismatchError(f"concatenate: all the input array dimensions except for the "
                             f"concatenation axis must match exactly, but array 0 has shape "
                             f"{arrays[0].shape} and array {i} has shape {a.shape}")
    dt = joined_dtype([a.dtype for a in arrays], dtype, casting)
    arrays = [astype(a, dt) if a.dtype != dt else a for a in arrays]
    return _st.concatenate(arrays, axis)


concat = concatenate


def hstack(tup: Sequence[ArrayLike], *, dtype: DTypeLike | None = None,
           casting: str = "same_kind") -> Array:
    """Join along the second axis (the first for 1-d arrays); ``dtype`` and ``casting`` as
    in :func:`concatenate`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.hstack([np.zeros((2, 1)), np.ones((2, 2))]).shape
    (2, 3)
    """
    arrays = [atleast_1d(a) for a in tup]  # (an empty sequence: concatenate's clear error)
    return concatenate(arrays, 0 if arrays and arrays[0].ndim == 1 else 1, dtype=dtype,
                       casting=casting)


def vstack(tup: Sequence[ArrayLike], *, dtype: DTypeLike | None = None,
           casting: str = "same_kind") -> Array:
    """Join along the first axis, 1-d arrays as rows; ``dtype`` and ``casting`` as in
    :func:`concatenate`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.vstack([np.zeros(3), np.ones(3)]).shape
    (2, 3)
    """
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype, casting=casting)


row_stack = vstack


def dstack(tup: Sequence[ArrayLike]) -> Array:
    """Join along the third axis.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.dstack([np.zeros((2, 2)), np.ones((2, 2))]).shape
    (2, 2, 2)
    """
    return concatenate([atleast_3d(a) for a in tup], 2)


def column_stack(tup: Sequence[ArrayLike]) -> Array:
    """Join 1-d arrays as the columns of a 2-d one (2-d arrays join as they are).

    As in NumPy, ``tup`` is any sequence, an array included (its rows are the pieces: a
    1-d array gives one row), and 0-d pieces count as one-element columns.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.column_stack([np.zeros(3), np.ones(3)]).shape
    (3, 2)
    >>> fnp.column_stack(np.array([0.3, 0.7])).shape
    (1, 2)
    """
    pieces = [asarray(a) for a in tup]
    pieces = [reshape(a, (a.size, 1)) if a.ndim < 2 else a for a in pieces]
    return concatenate(pieces, 1)


def split(ary: ArrayLike, indices_or_sections: int | Sequence[int], axis: Axis = 0) -> list[Array]:
    """Split into equal sections or at the given indices (see ``np.split``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.split(np.arange(5.0), [2])
    [array([0., 1.]), array([2., 3., 4.])]
    """
    a = asarray(ary)
    axis = one_axis(axis, a.ndim)
    if _is_count(indices_or_sections):
        n, sections = a.shape[axis], indices_or_sections
        if sections == 0:  # (NumPy's n % 0)
            raise ZeroDivisionError("split: 0 sections; pass a positive number of sections "
                                    "or a list of indices")
        if n % sections:
            raise ValueError(f"array split does not result in an equal division: {n} "
                             f"elements along axis {axis} into {sections} sections; "
                             f"np.array_split allows unequal ones")
        return array_split(a, sections, axis)
    return _split_at(a, indices_or_sections, axis)


def _is_count(indices_or_sections):
    """A number of sections (NumPy: anything without a length), not split points?"""
    try:
        len(indices_or_sections)
    except TypeError:
        return True
    return False


def _split_at(a, indices, axis):
    n = a.shape[axis]
    bounds = [builtins.min(builtins.max(int(b) if b >= 0 else n + int(b), 0), n)
              for b in indices]
    if bounds != sorted(bounds):  # NumPy allows this; rare, done by slicing
        edges = [0] + bounds + [n]
        return [a[(slice(None),) * axis + (slice(lo, hi),)] for lo, hi in zip(edges, edges[1:])]
    return _st.split(a, bounds, axis)


def array_split(ary: ArrayLike, indices_or_sections: int | Sequence[int],
                axis: Axis = 0) -> list[Array]:
    """Like :func:`split`, but ``n`` sections need not divide the axis evenly.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> [len(p) for p in fnp.array_split(np.arange(5.0), 2)]
    [3, 2]
    """
    a = asarray(ary)
    axis = one_axis(axis, a.ndim)
    if not _is_count(indices_or_sections):
        return _split_at(a, indices_or_sections, axis)
    n, k = a.shape[axis], int(indices_or_sections)
    if k <= 0:
        raise ValueError(f"number sections must be larger than 0. (array_split got "
                         f"{indices_or_sections!r}: pass a positive number of sections or a "
                         f"list of indices)")
    sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
    return _split_at(a, list(_np.cumsum(sizes)[:-1]), axis)


def hsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int]) -> list[Array]:
    """:func:`split` along the second axis (the first for 1-d arrays).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> [p.shape for p in fnp.hsplit(np.ones((2, 4)), 2)]
    [(2, 2), (2, 2)]
    """
    a = asarray(ary)
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int]) -> list[Array]:
    """:func:`split` along the first axis.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> [p.shape for p in fnp.vsplit(np.ones((4, 2)), 2)]
    [(2, 2), (2, 2)]
    """
    return split(ary, indices_or_sections, 0)


def dsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int]) -> list[Array]:
    """``np.dsplit``: split along the third axis.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> [p.shape for p in fnp.dsplit(np.zeros((1, 2, 4)), 2)]
    [(1, 2, 2), (1, 2, 2)]
    """
    a = asarray(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, 2)


def tile(A: ArrayLike, reps: ArrayLike) -> Array:
    """Repeat the whole array ``reps`` times along each axis.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.tile(np.array([1.0, 2.0]), 2)
    array([1., 2., 1., 2.])
    """
    a = asarray(A)
    reps = _ints(reps)
    if any(r < 0 for r in reps):  # (else a broadcast to a negative length, named as such)
        raise ValueError(f"tile: reps must be non-negative (NumPy: negative dimensions are "
                         f"not allowed), got {reps}")
    nd = builtins.max(a.ndim, len(reps))
    reps = (1,) * (nd - len(reps)) + reps
    a = reshape(a, (1,) * (nd - a.ndim) + a.shape)
    for axis, r in enumerate(reps):
        if r != 1:
            a = _copies(a, axis, r, whole=True)
    return a


def _copies(a, axis, r, whole):
    """``r`` copies along ``axis`` of the whole axis (``whole``: np.tile) or of each element
    (np.repeat), broadcast in a 4-d view (before, axis, copies, after): any rank up to
    NumPy's 64 works, where a view with an axis of copies per axis would pass 64."""
    d = a.shape[axis]
    before, after = math.prod(a.shape[:axis]), math.prod(a.shape[axis + 1:])
    view, copies = ((before, 1, d, after), (before, r, d, after)) if whole else \
        ((before, d, 1, after), (before, d, r, after))
    return reshape(broadcast_to(reshape(a, view), copies),
                   a.shape[:axis] + (d * r,) + a.shape[axis + 1:])


def repeat(a: ArrayLike, repeats: ArrayLike, axis: Axis = None) -> Array:
    """Repeat each element ``repeats`` times along ``axis`` (flattened if None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.repeat(np.array([1.0, 2.0]), [1, 2])
    array([1., 2., 2.])
    """
    a = asarray(a)
    if axis is None or a.ndim == 0:  # (NumPy ravels a 0-d a: its axis 0 or -1 is the one)
        a, axis = ravel(a), 0 if axis is None else one_axis(axis, 1)
    axis = one_axis(axis, a.ndim)
    if isinstance(repeats, (int, _np.integer)):
        r = int(repeats)
        if r < 0:
            raise ValueError(f"repeat: repeats may not contain negative values, got {r}")
        return _copies(a, axis, r, whole=False)
    idx = _np.repeat(_np.arange(a.shape[axis]), _np.asarray(repeats))
    return _ix.index(a, (slice(None),) * axis + (idx,))


def flip(m: ArrayLike, axis: Axis = None) -> Array:
    """Reverse the order of elements along ``axis`` (all axes by default).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.flip(np.array([[1.0, 2.0], [3.0, 4.0]]), 1)
    array([[2., 1.],
           [4., 3.]])
    """
    m = asarray(m)
    axes = normalize_axis(axis, m.ndim)
    return m[tuple(slice(None, None, -1) if i in axes else slice(None) for i in range(m.ndim))]


def fliplr(m: ArrayLike) -> Array:
    """Reverse the columns (axis 1).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fliplr(np.array([[1.0, 2.0]]))
    array([[2., 1.]])
    """
    return flip(m, 1)


def flipud(m: ArrayLike) -> Array:
    """Reverse the rows (axis 0).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.flipud(np.array([1.0, 2.0]))
    array([2., 1.])
    """
    return flip(m, 0)


def roll(a: ArrayLike, shift: int | Sequence[int], axis: Axis = None) -> Array:
    """Shift elements cyclically along ``axis`` (the flattened array when None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.roll(np.array([1.0, 2.0, 3.0]), 1)
    array([3., 1., 2.])
    """
    a = asarray(a)
    shifts = _np.asarray(shift)
    if shifts.dtype.kind not in "iu":  # NumPy would truncate sums of floats; say so instead
        raise TypeError(f"roll: shift must be an integer or integers, got {shift!r} "
                        f"(dtype {shifts.dtype}); round it first, e.g. int(round(shift))")
    if axis is None:
        return reshape(roll(ravel(a), shift, 0), a.shape)
    try:  # as NumPy: shift and axis broadcast together, shifts of one axis add up
        pairs = _np.broadcast(shifts, _np.asarray(axis))
    except ValueError:
        raise ValueError(f"roll: shift {shift!r} and axis {axis!r} have different lengths; "
                         f"give one shift per axis, or one for all") from None
    if pairs.ndim > 1:
        raise ValueError("roll: 'shift' and 'axis' should be scalars or 1D sequences")
    total = {}
    for s, ax in pairs:
        ax = one_axis(int(ax), a.ndim)
        total[ax] = total.get(ax, 0) + int(s)
    for ax, s in total.items():
        n = a.shape[ax]
        if n == 0:
            continue
        s = int(s) % n
        if s:
            pre = (slice(None),) * ax
            a = concatenate([a[pre + (slice(n - s, None),)], a[pre + (slice(0, n - s),)]], ax)
    return a
