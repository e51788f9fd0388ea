"""SciPy's ``array_like`` starting points in solvers that also take pytrees."""
import numpy as np

from .. import numpy as fnp

__all__ = ["numbers_as_array"]


def numbers_as_array(x):
    """``x`` as SciPy reads an array_like start (``x0``, ``y0``): a list or tuple of Python
    or NumPy numbers (nested too) becomes a float array (integers as floats), as SciPy
    makes it; anything else (an array, a dict, a list of arrays, a ragged or mixed
    structure: a pytree) is returned as it is.

    >>> numbers_as_array([1, 2.5])
    array([1. , 2.5])
    >>> numbers_as_array({"a": 1.0})
    {'a': 1.0}
    """
    if not isinstance(x, (list, tuple)) or not all(
            isinstance(leaf, (int, float, np.generic)) for leaf in _leaves(x)):
        return x
    try:
        as_array = fnp.asarray(x)
    except (TypeError, ValueError):  # (ragged, or leaves that are not numbers)
        return x
    if as_array.dtype.kind not in "biuf":
        return x
    return as_array if as_array.dtype.kind == "f" else fnp.astype(as_array, float)


def _leaves(x):
    for item in x:
        if isinstance(item, (list, tuple)):
            yield from _leaves(item)
        else:
            yield item
