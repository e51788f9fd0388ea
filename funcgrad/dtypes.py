"""Dtypes of JAX's that NumPy lacks (JAX's ``jax.dtypes``): ``float0``.

>>> import numpy as np, funcgrad as fg
>>> fg.dtypes.float0 == np.dtype([("float0", np.void, 0)])
True
"""
import numbers
from typing import Any

import numpy as np

__all__ = ["float0", "is_integer", "float0_zeros"]

float0 = np.dtype([("float0", np.void, 0)])
"""The dtype of the derivative with respect to an integer or boolean input (JAX's
``jax.dtypes.float0``, the same NumPy dtype).  Such an input has no tangent space, so
``grad(f, allow_int=True)`` and ``vjp`` give ``np.zeros(x.shape, float0)`` for it: an
array that stores nothing and refuses arithmetic (``params - lr * g`` must skip such
leaves, as with JAX), rather than zeros that could pass for a derivative."""


def is_integer(leaf: object) -> bool:
    """Is ``leaf`` (a number, an array, a traced value) of integer or boolean type?

    >>> is_integer(3), is_integer(np.arange(2)), is_integer(2.0)
    (True, True, False)
    """
    if isinstance(leaf, (bool, np.bool_, numbers.Integral)):
        return True
    dtype = getattr(leaf, "dtype", None)
    return dtype is not None and np.dtype(dtype).kind in "biu"


def float0_zeros(leaf: Any) -> np.ndarray:
    """The derivative with respect to an integer input: :data:`float0` zeros of its shape.

    >>> float0_zeros(np.arange(3)).shape
    (3,)
    """
    shape = getattr(leaf, "shape", None)
    return np.zeros(np.shape(leaf) if shape is None else tuple(shape), float0)
