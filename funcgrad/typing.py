"""Type aliases for annotating code that calls funcgrad (as ``jax.typing`` does for JAX).

* ``ArrayLike``: what funcgrad accepts where it wants an array: NumPy arrays and scalars,
  Python numbers, nested lists, and funcgrad's own traced values and Tensors.
* ``Array``: what funcgrad returns, and what a transformed function is called with.  Outside
  a transform that is a NumPy array (a NumPy scalar for 0-d results); inside one it is a
  tracer, which acts as an array but is not an ``ndarray`` subclass: the alias says how the
  value behaves, as JAX's ``jax.Array`` also stands for its tracers.
* ``PyTree``: nested tuples, lists, dicts, namedtuples and ``None`` with arrays at the
  leaves, extensible by ``funcgrad.tree.register``; so any object, statically.
* ``Scalar``, ``DTypeLike``, ``Shape``, ``ArgNums``, ``Axes``, ``Axis``: the small ones.

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.typing import Array, ArrayLike
>>> def loss(w: Array) -> Array:
...     return np.sum(w ** 2)
>>> g: Array = fg.grad(loss)(np.array([1.0, 2.0]))
>>> g
array([2., 4.])
"""
from typing import Any, Sequence, TypeAlias, Union

import numpy as np
import numpy.typing as npt

__all__ = ["Array", "ArrayLike", "PyTree", "Scalar", "DTypeLike", "Shape", "ArgNums", "Axes",
           "Axis"]

Array: TypeAlias = npt.NDArray[Any]
ArrayLike: TypeAlias = npt.ArrayLike
PyTree: TypeAlias = Any
Scalar: TypeAlias = Union[bool, int, float, complex, np.number[Any], np.bool_]
DTypeLike: TypeAlias = npt.DTypeLike
Shape: TypeAlias = tuple[int, ...]
# argnums= of grad and the Jacobians: one position, or several (then a tuple of results)
ArgNums: TypeAlias = Union[int, Sequence[int]]
# in_axes=/out_axes= of vmap: an axis, None (not batched), or a pytree of those
Axes: TypeAlias = Any
# axis= of funcgrad.numpy's functions: one axis, several, or None (all of them / flattened)
Axis: TypeAlias = Union[int, Sequence[int], None]
