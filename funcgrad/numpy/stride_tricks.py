"""``np.lib.stride_tricks`` on traced arrays: ``sliding_window_view`` as a gather.

NumPy builds the windows as a strided view of the same memory; a traced array has no
memory, so here each window entry is gathered by its flat index (known from the shape
alone), and the derivative is the gather's: a scatter-add of each window's cotangent back
onto the entries it overlaps.  ``as_strided`` reads arbitrary memory by byte offsets, which
has no meaning for a traced value: it raises, naming ``sliding_window_view``.
"""
import numpy as _np

from ._convert import asarray
from .indexing import take
from .manipulation import reshape
from ..typing import Array, ArrayLike

__all__ = ["sliding_window_view", "as_strided"]


def sliding_window_view(x: ArrayLike, window_shape: int | tuple, axis: int | tuple | None = None,
                        *, subok: bool = False, writeable: bool = False) -> Array:
    """``np.lib.stride_tricks.sliding_window_view(x, window_shape, axis=None)``: every
    window of ``window_shape`` sliding over ``axis`` (all axes by default), as a new array
    of shape ``(... reduced axes ..., *window_shape)``; differentiable (the derivative
    adds each window's share back onto the entries it covers).

    The result is a copy, not a view: ``writeable=True`` is refused (traced arrays are
    immutable).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.lib.stride_tricks.sliding_window_view(np.arange(4.0), 2)
    array([[0., 1.],
           [1., 2.],
           [2., 3.]])
    >>> fg.grad(lambda x: np.sum(np.lib.stride_tricks.sliding_window_view(x, 2)))(np.ones(4))
    array([1., 2., 2., 1.])
    """
    if writeable:
        raise ValueError("sliding_window_view(..., writeable=True): the windows of a traced "
                         "array are a copy, and traced arrays are immutable. Leave "
                         "writeable=False and build a changed array with x.at[i].set(v).")
    x = asarray(x)
    # NumPy's own function on the flat positions checks the arguments as NumPy does and
    # says which entry of x each window entry is (shape only: no values needed)
    positions = _np.arange(x.size, dtype=_np.intp).reshape(x.shape)
    index = _np.lib.stride_tricks.sliding_window_view(positions, window_shape, axis)
    return take(reshape(x, (-1,)), _np.ascontiguousarray(index))


def as_strided(x: ArrayLike, shape: tuple | None = None, strides: tuple | None = None,
               subok: bool = False, writeable: bool = True) -> Array:
    """``np.lib.stride_tricks.as_strided``: not available on traced arrays, which have no
    memory whose byte offsets ``strides`` could name; raises TypeError naming the rewrite.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.lib.stride_tricks.as_strided(np.arange(3.0), (2, 2), (8, 8))
    Traceback (most recent call last):
    ...
    TypeError: np.lib.stride_tricks.as_strided reads memory by byte strides...
    """
    raise TypeError(AS_STRIDED)


AS_STRIDED = ("np.lib.stride_tricks.as_strided reads memory by byte strides, which an array "
              "traced by funcgrad does not have. For sliding windows call "
              "np.lib.stride_tricks.sliding_window_view(x, window_shape, axis=...) (also "
              "funcgrad.numpy.lib.stride_tricks.sliding_window_view); for other patterns "
              "gather with an index array: fnp.take(x.ravel(), index).")
