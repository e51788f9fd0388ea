"""Changing an array's shape and axes, its elements kept in order: reshape, ravel,
transpose, move, add and drop axes, broadcast, ``atleast_*d`` (re-exported by
:mod:`~funcgrad.numpy.manipulation`, the family NumPy's manipulation routines make)."""
import math
from typing import Sequence

import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from ..errors import ShapeMismatchError
from ..primitives import structural as _st
from ._convert import asarray, normalize_axis, one_axis, reduction_axes
from ..typing import Array, ArrayLike, Axis

__all__ = ["shape", "ndim", "size", "reshape", "ravel", "transpose", "permute_dims",
           "swapaxes", "moveaxis", "expand_dims", "squeeze", "broadcast_to", "broadcast_arrays",
           "atleast_1d", "atleast_2d", "atleast_3d", "matrix_transpose"]


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
