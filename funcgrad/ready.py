"""``block_until_ready`` (JAX's): wait for the values of a pytree to be computed."""
import sys
from typing import TypeVar

from . import tree
from .core import is_special

__all__ = ["block_until_ready"]

_T = TypeVar("_T")


def block_until_ready(x: _T) -> _T:
    """Wait until every array in the pytree ``x`` holds its value, and return ``x``.

    NumPy results are computed before they are returned, so only GPU arrays wait (for
    the kernels queued on the device); ``fg.jit`` compiles in the background but
    returns finished values meanwhile.  Useful for timing code written for JAX.

    >>> import numpy as np, funcgrad as fg
    >>> fg.block_until_ready({"w": np.ones(2)})
    {'w': array([1., 1.])}
    """
    gpu = sys.modules.get("funcgrad.gpu")  # (no GPU array exists before it is loaded)
    if gpu is not None and any(isinstance(leaf, gpu.GpuArray)
                               for leaf in tree.leaves(x, is_special)):
        sys.modules["funcgrad.gpu.array"].backend().cuda.synchronize()
    return x
