"""Array manipulation (shape, not values): reshape, transpose, join, split, tile, flip, roll
(``pad`` lives in :mod:`~funcgrad.numpy.padding`)."""
import builtins
import math
from typing import Any, Sequence

import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from ..errors import ShapeMismatchError
from ..primitives import indexing as _ix
from ..primitives import structural as _st
from ._convert import (asarray, joined_dtype, normalize_axis, one_axis, reduction_axes, stack,
                       write_out)
from .constructors import astype
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["shape", "ndim", "size", "reshape", "ravel", "transpose", "permute_dims",
           "swapaxes", "moveaxis", "expand_dims", "squeeze", "broadcast_to", "broadcast_arrays",
           "atleast_1d", "atleast_2d", "atleast_3d", "concatenate", "concat", "stack", "hstack",
           "vstack", "row_stack", "dstack", "column_stack", "split", "array_split", "hsplit",
           "vsplit", "dsplit", "matrix_transpose", "tile", "repeat", "flip", "fliplr", "flipud",
           "roll"]


def _ints(value):
    """A sequence of ints from one int or a sequence of them."""
    return (value,) if isinstance(value, (int, _np.integer)) else tuple(value)


def shape(a: ArrayLike) -> tuple[int, ...]:
    """The shape of ``a``.

    >>> import funcgrad.numpy as fnp
    >>> fnp.shape([[1.0, 2.0, 3.0]])
    (1, 3)
    """
    return asarray(a).shape


def ndim(a: ArrayLike) -> int:
    """The number of axes of ``a``.

    >>> import funcgrad.numpy as fnp
    >>> fnp.ndim([[1.0, 2.0, 3.0]])
    2
    """
    return len(asarray(a).shape)


def size(a: ArrayLike, axis: Axis = None) -> int:
    """The number of elements of ``a`` (along ``axis``, if given).

    >>> import funcgrad.numpy as fnp
    >>> fnp.size([[1.0, 2.0, 3.0]]), fnp.size([[1.0, 2.0, 3.0]], axis=1)
    (3, 3)
    """
    a = asarray(a)
    if axis is None:
        return a.size
    return math.prod(a.shape[i] for i in normalize_axis(axis, a.ndim))


def reshape(a: ArrayLike, newshape: int | Sequence[int] | None = None, order: str = "C",
            shape: int | Sequence[int] | None = None, *, copy: bool | None = None) -> Array:
    """Reshape (``-1`` infers one dimension), reading and writing the elements in C order
    (the last axis fastest) or ``order="F"`` (the first axis fastest).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.reshape(np.arange(6.0), (-1, 3))
    array([[0., 1., 2.],
           [3., 4., 5.]])
    >>> fnp.reshape(np.arange(6.0), (2, 3), order="F")
    array([[0., 2., 4.],
           [1., 3., 5.]])

    ``copy`` (NumPy 2.1's and JAX's keyword) matters for plain arrays only: ``True``
    returns a new array, ``False`` raises where the result cannot be a view.
    """
    out = _reshaped(a, shape if newshape is None else newshape, order)
    if isinstance(a, _np.ndarray) and isinstance(out, _np.ndarray) and a.size:
        if copy and _np.shares_memory(out, a):
            out = out.copy()
        elif copy is False and not _np.shares_memory(out, a):
            raise ValueError("reshape: unable to avoid copying the data (copy=False), as "
                             "this reshape cannot be a view of the array; pass copy=None")
    return out


def _reshaped(a, newshape, order):
    if order not in ("C", "F"):
        raise ValueError(f"reshape: order={order!r} depends on how an array is laid out in "
                         f"memory, which a traced array does not have; use order='C' or "
                         f"order='F'.")
    a = asarray(a)
    if isinstance(newshape, (int, _np.integer)):
        newshape = (newshape,)
    newshape = [int(d) for d in newshape]
    if newshape.count(-1) > 1:
        raise ValueError("reshape: can only specify one unknown dimension (-1)")
    if -1 in newshape:
        known = 1
        for d in newshape:
            if d != -1:
                known *= d
        if known == 0 or a.size % known:
            raise ShapeMismatchError(f"cannot reshape array of size {a.size} into shape "
                             f"{tuple(newshape)}")
        newshape[newshape.index(-1)] = a.size // known
    total = 1
    for d in newshape:
        total *= d
    if total != a.size:
        raise ShapeMismatchError(f"cannot reshape array of size {a.size} into shape {tuple(newshape)}")
    if order == "F":  # F order is C order of the reversed axes, on both sides
        a = _st.transpose(a, tuple(range(a.ndim))[::-1])
        out = _st.reshape(a, tuple(newshape[::-1]))
        return _st.transpose(out, tuple(range(out.ndim))[::-1])
    return _st.reshape(a, tuple(newshape))


def ravel(a: ArrayLike, order: str = "C") -> Array:
    """``a`` flattened to one axis, in C order (the last axis fastest) or ``order="F"``
    (the first axis fastest).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.ravel(np.arange(4.0).reshape(2, 2), order="F")
    array([0., 2., 1., 3.])
    """
    a = asarray(a)
    if order == "F":
        a = _st.transpose(a, tuple(range(a.ndim))[::-1])
    elif order != "C":
        raise ValueError(f"ravel: order={order!r} depends on how an array is laid out in "
                         f"memory, which a traced array does not have; use order='C' or "
                         f"order='F'.")
    return _st.reshape(a, (a.size,))


def transpose(a: ArrayLike, axes: Axis = None) -> Array:
    """Permute the axes (reverse them by default).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.transpose(np.ones((2, 3, 4)), (1, 0, 2)).shape
    (3, 2, 4)
    """
    a = asarray(a)
    if axes is None:
        axes = tuple(reversed(range(a.ndim)))
    axes = [int(ax) % a.ndim for ax in axes] if a.ndim else []
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError(f"transpose: axes {axes} are not a permutation of {a.ndim} axes")
    return _st.transpose(a, axes)


def permute_dims(a: ArrayLike, axes: Axis = None) -> Array:
    """The array API's name for :func:`transpose`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.permute_dims(np.ones((2, 3))).shape
    (3, 2)
    """
    return transpose(a, axes)


def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> Array:
    """Exchange two axes.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.swapaxes(np.ones((2, 3, 4)), 0, -1).shape
    (4, 3, 2)
    """
    a = asarray(a)
    perm = list(range(a.ndim))
    i, j = one_axis(axis1, a.ndim, "axis1"), one_axis(axis2, a.ndim, "axis2")
    perm[i], perm[j] = perm[j], perm[i]
    return _st.transpose(a, perm)


def moveaxis(a: ArrayLike, source: Axis, destination: Axis) -> Array:
    """Move axes to new positions; the others keep their order.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.moveaxis(np.ones((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    a = asarray(a)
    src, dst = [[one_axis(i, a.ndim, name) for i in _ints(axes)]  # (NumPy's order of checks)
                for axes, name in ((source, "source"), (destination, "destination"))]
    for axes, name in ((src, "source"), (dst, "destination")):
        if len(set(axes)) != len(axes):
            raise ValueError(f"repeated axis in `{name}` argument")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number "
                         "of elements")
    order = [i for i in range(a.ndim) if i not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _st.transpose(a, order)


def expand_dims(a: ArrayLike, axis: Axis) -> Array:
    """Insert axes of length 1 at the positions ``axis`` of the result.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.expand_dims(np.ones((2, 3)), (0, -1)).shape
    (1, 2, 3, 1)
    """
    a = asarray(a)
    axes = _ints(axis)
    axes = normalize_axis(axes, a.ndim + len(axes))
    shape = list(a.shape)
    for ax in axes:
        shape.insert(ax, 1)
    return _st.reshape(a, tuple(shape))


def squeeze(a: ArrayLike, axis: Axis = None) -> Array:
    """Remove axes of length 1 (all of them, or those in ``axis``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.squeeze(np.ones((1, 2, 1))).shape
    (2,)
    """
    a = asarray(a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(a.shape) if d == 1)
    else:
        axes = reduction_axes(axis, a.ndim)  # (NumPy's rule for axis 0 of a 0-d array)
        for ax in axes:
            if a.shape[ax] != 1:
                raise ValueError(f"cannot select an axis to squeeze out which has size not equal "
                                 f"to one (axis {ax} has size {a.shape[ax]})")
    return _st.reshape(a, tuple(d for i, d in enumerate(a.shape) if i not in axes))


def broadcast_to(array: ArrayLike, shape: int | Sequence[int], subok: bool = False) -> Array:
    """``array`` repeated along new or length-1 axes to ``shape`` (NumPy's rules); its
    gradient sums over the repeats.  (``subok``: NumPy's, and nothing to do here.)

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.broadcast_to(x, (3, 2))))(np.ones(2))
    array([3., 3.])
    """
    a = asarray(array)
    shape = _ints(shape)
    try:
        broadcast_shapes(a.shape, shape)
    except ValueError:
        raise ValueError(f"cannot broadcast an array of shape {a.shape} to shape {shape}") from None
    if broadcast_shapes(a.shape, shape) != shape:
        raise ValueError(f"cannot broadcast an array of shape {a.shape} to shape {shape}")
    return _st.broadcast_to(a, shape)


def broadcast_arrays(*args: ArrayLike, subok: bool = False) -> list[Array]:
    """The arguments broadcast against each other, as a list (``subok``: as
    :func:`broadcast_to`).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> [a.shape for a in fnp.broadcast_arrays(np.ones((2, 1)), np.ones(3))]
    [(2, 3), (2, 3)]
    """
    arrays = [asarray(a) for a in args]
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return [broadcast_to(a, shape) for a in arrays]


def atleast_1d(*arys: ArrayLike) -> Array | list[Array]:
    """Each argument with at least one axis (a list when there are several).

    >>> import funcgrad.numpy as fnp
    >>> fnp.atleast_1d(2.0)
    array([2.])
    """
    out = [reshape(a, (1,)) if asarray(a).ndim == 0 else asarray(a) for a in arys]
    return out[0] if len(out) == 1 else out


def atleast_2d(*arys: ArrayLike) -> Array | list[Array]:
    """Each argument with at least two axes (new ones in front).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.atleast_2d(np.ones(3)).shape
    (1, 3)
    """
    out = []
    for a in arys:
        a = asarray(a)
        out.append(reshape(a, (1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a)
    return out[0] if len(out) == 1 else out


def atleast_3d(*arys: ArrayLike) -> Array | list[Array]:
    """Each argument with at least three axes (as ``np.atleast_3d`` places them).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.atleast_3d(np.ones(3)).shape
    (1, 3, 1)
    """
    out = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = reshape(a, (1, a.shape[0], 1))
        elif a.ndim == 2:
            a = reshape(a, a.shape + (1,))
        out.append(a)
    return out[0] if len(out) == 1 else out


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


def matrix_transpose(x: ArrayLike, /) -> Array:
    """``np.matrix_transpose(x)``: swap the last two axes.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.matrix_transpose(np.zeros((4, 2, 3))).shape
    (4, 3, 2)
    """
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return swapaxes(x, -1, -2)


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
