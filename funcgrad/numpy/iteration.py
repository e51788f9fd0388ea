"""Walking an array element by element (``ndenumerate``; NumPy's ``ndindex`` is
re-exported), and NumPy's question ``isscalar``.

>>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
>>> fg.grad(lambda x: sum(v * i for (i, j), v in fnp.ndenumerate(x)))(np.ones((2, 2)))
array([[0., 0.],
       [1., 1.]])
"""
from typing import Any, Iterator

import numpy as _np

from ..core import Tracer


__all__ = ["ndenumerate", "isscalar"]


def _traced(x):
    # (only tracers: the eager Tensor and GPU arrays meet NumPy's own function, which their
    # __array_function__ handles as for any NumPy function)
    return isinstance(x, Tracer)


def ndenumerate(arr: Any) -> Iterator[tuple[tuple[int, ...], Any]]:
    """``np.ndenumerate(arr)``: ``(index, element)`` pairs in C order.  A traced array
    yields traced elements (``arr[index]``), which keep their derivatives; a plain one
    yields NumPy's pairs.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> [(i, float(v)) for i, v in fnp.ndenumerate(np.array([[1.5], [2.5]]))]
    [((0, 0), 1.5), ((1, 0), 2.5)]
    """
    if not _traced(arr):
        return iter(_np.ndenumerate(arr))
    return ((index, arr[index]) for index in _np.ndindex(*arr.shape))


def isscalar(element: Any) -> bool:
    """``np.isscalar(element)``: NumPy's answer for plain values (Python and NumPy
    scalars are, 0-d arrays are not); a traced 0-d array is a scalar, as in ``jax.numpy``:
    it stands for the number the transform was given, and the answer must not change when
    ``f(1.5)`` is differentiated or compiled.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.isscalar(1.5), fnp.isscalar(np.array(1.5)), fnp.isscalar([1.5])
    (True, False, False)
    >>> float(fg.grad(lambda x: x * fnp.isscalar(x))(1.5))
    1.0
    """
    if _traced(element):
        return element.ndim == 0
    return bool(_np.isscalar(element))
