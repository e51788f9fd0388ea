"""``ravel``: a pytree of arrays as one 1-D array, and the way back (JAX's
``ravel_pytree``)."""
from typing import Any, Callable

import numpy as np

from ..typing import PyTree
from ._nodes import flatten, unflatten

__all__ = ["ravel"]


def _leaf_dtype(leaf, index):
    dtype = getattr(leaf, "dtype", None)
    if dtype is None:
        try:
            dtype = np.asarray(leaf).dtype
        except Exception:  # (anything NumPy cannot even hold: the check below names it)
            dtype = np.dtype(object)
    dtype = np.dtype(dtype)
    if dtype.kind not in "biufc":
        raise TypeError(f"fg.tree.ravel: leaf {index} ({type(leaf).__name__}, dtype {dtype}) "
                        "is not numeric; ravel takes pytrees of numeric arrays and scalars "
                        "(keep other values out of the tree, e.g. in a closure)")
    return dtype


def ravel(pytree: PyTree) -> tuple[Any, Callable[[Any], PyTree]]:
    """Flatten a pytree of arrays into one 1-D array; return it with ``unravel``.

    Like JAX's ``ravel_pytree``: the leaves, in flattening order, are raveled and
    concatenated in their common dtype (``np.result_type`` of the leaves; float64 for an
    empty tree). ``unravel(flat)`` rebuilds the tree, each leaf with its own shape and
    dtype. Both directions are differentiable, so ``fg.grad`` of a function of
    ``unravel(flat)`` is the flat gradient: on traced leaves the NumPy calls here
    (``np.concatenate``, ``np.reshape``) reach funcgrad's through ``__array_function__``,
    so this bottom module needs nothing of the NumPy front above it.

    >>> import numpy as np, funcgrad as fg
    >>> params = {"w": np.ones((2, 2), np.float32), "b": np.zeros(1, np.float32)}
    >>> flat, unravel = fg.tree.ravel(params)
    >>> flat
    array([0., 1., 1., 1., 1.], dtype=float32)
    >>> unravel(flat * 2)["w"]
    array([[2., 2.],
           [2., 2.]], dtype=float32)
    >>> fg.grad(lambda f: np.sum(unravel(f)["w"] ** 2))(flat)
    array([0., 2., 2., 2., 2.], dtype=float32)
    """
    leaves, treedef = flatten(pytree)
    dtypes = [_leaf_dtype(leaf, i) for i, leaf in enumerate(leaves)]
    shapes = [tuple(np.shape(leaf)) for leaf in leaves]
    sizes = [int(np.prod(s, dtype=np.int64)) for s in shapes]
    flat_dtype = np.result_type(*dtypes) if dtypes else np.dtype(np.float64)
    if leaves:
        flat = np.concatenate([np.ravel(leaf).astype(flat_dtype) for leaf in leaves])
    else:
        flat = np.zeros(0, flat_dtype)
    offsets = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).tolist()
    total = offsets[-1]

    def unravel(flat_values):
        """The pytree whose ``ravel`` is ``flat_values`` (shapes and dtypes restored)."""
        shape = tuple(np.shape(flat_values))
        if shape != (total,):
            raise ValueError(f"unravel: expected a 1-D array of {total} elements (the "
                             f"raveled tree), got shape {shape}")
        dtype = np.dtype(getattr(flat_values, "dtype", None) or np.asarray(flat_values).dtype)
        if dtype != flat_dtype:
            raise TypeError(f"unravel: expected an array of dtype {flat_dtype} (the raveled "
                            f"tree's), got {dtype}; cast it first with "
                            f".astype(np.{flat_dtype.name})")
        parts = [np.reshape(flat_values[start:stop], leaf_shape).astype(leaf_dtype)
                 for start, stop, leaf_shape, leaf_dtype
                 in zip(offsets[:-1], offsets[1:], shapes, dtypes)]
        return unflatten(treedef, parts)

    return flat, unravel
