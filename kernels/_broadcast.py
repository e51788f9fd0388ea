"""``np.broadcast_shapes`` for every rank NumPy allows.

NumPy 2 makes arrays of up to 64 dimensions, and its ufuncs broadcast them, but
``np.broadcast_shapes`` (and ``np.broadcast_arrays``, which calls it) stops at 32
("this function only supports up to 32 dimensions").  funcgrad computes result shapes
with :func:`broadcast_shapes` instead, so what NumPy computes on such arrays funcgrad
computes and differentiates too.
"""
import operator
from collections.abc import Sequence

import numpy as np

__all__ = ["broadcast_shapes", "MAX_DIMS"]

MAX_DIMS = 64  # NumPy 2's NPY_MAXDIMS
_NUMPY_MAX_DIMS = 32  # what np.broadcast_shapes itself takes (NPY_MAXDIMS_LEGACY_ITERS)


def broadcast_shapes(*shapes: int | Sequence[int]) -> tuple[int, ...]:
    """The shape that ``shapes`` broadcast to, as ``np.broadcast_shapes`` (an int is a
    1-d shape), for up to 64 dimensions; NumPy's ``ValueError`` where they do not fit.

    >>> import funcgrad.numpy as fnp
    >>> fnp.broadcast_shapes((3,), (2, 1))
    (2, 3)
    >>> fnp.broadcast_shapes((1,) * 39 + (3,), (2, 1))[-3:]
    (1, 2, 3)
    """
    shapes = [(s,) if isinstance(s, (int, np.integer)) else tuple(s) for s in shapes]
    if all(len(s) <= _NUMPY_MAX_DIMS for s in shapes):
        return np.broadcast_shapes(*shapes)  # (its C loop, and its errors as they are)
    ndim = max(len(s) for s in shapes)
    if ndim > MAX_DIMS:
        raise ValueError(f"maximum supported dimension for an ndarray is currently "
                         f"{MAX_DIMS}, found {ndim}")
    out, owner = [1] * ndim, [None] * ndim
    for i, shape in enumerate(shapes):
        for axis, size in enumerate(map(operator.index, shape), ndim - len(shape)):
            if size < 0:
                raise ValueError("negative dimensions are not allowed")
            if size == 1 or size == out[axis]:
                continue
            if out[axis] != 1:
                raise ValueError(
                    f"shape mismatch: objects cannot be broadcast to a single shape.  "
                    f"Mismatch is between arg {owner[axis]} with shape "
                    f"{shapes[owner[axis]]} and arg {i} with shape {shape}.")
            out[axis], owner[axis] = size, i
    return tuple(out)
