"""``vectorized_filter`` of :mod:`funcgrad.scipy.ndimage` (SciPy 1.16's).

The input, its filtered axes moved last and extended as ``mode`` says (``np.pad``'s modes,
by SciPy's mapping), is cut into every window (one slice per window offset, stacked: the
sliding-window view SciPy hands the function, as a new array) and the function is called
once on all of them with ``axis=`` naming the window axes (with a ``footprint``, the
samples under it on one last axis, ``axis=-1``).  Written with ``funcgrad.numpy``, so the
result is differentiable in ``input`` (and ``cval``) as far as ``function`` is.
``batch_memory`` only bounds SciPy's memory: accepted and checked, the windows are made at
once here.
"""
import operator
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["vectorized_filter"]

_MODES = {"reflect": "symmetric", "mirror": "reflect", "nearest": "edge", "wrap": "wrap",
          "constant": "constant", "grid-mirror": "reflect", "grid-constant": "constant",
          "grid-wrap": "wrap", "valid": "valid"}


def _integers(name: str, value: Any, n: int) -> tuple:
    values = (value,) * n if np.ndim(value) == 0 else tuple(value)
    try:
        return tuple(operator.index(v) for v in values)
    except TypeError:
        raise ValueError(f"All elements of `{name}` must be integers.") from None


def vectorized_filter(input: ArrayLike, function: Callable[..., Any], *,
                      size: Union[None, int, Sequence[int]] = None,
                      footprint: Optional[ArrayLike] = None, output: None = None,
                      mode: str = "reflect", cval: Optional[ArrayLike] = None,
                      origin: Union[None, int, Sequence[int]] = None,
                      axes: Union[None, int, Sequence[int]] = None,
                      batch_memory: int = 2**30) -> Array:
    """``function(windows, axis=...)`` over every neighbourhood at once, as
    ``scipy.ndimage.vectorized_filter``: ``windows`` holds each point's ``size`` box (its
    axes last, named by ``axis``) or, with ``footprint``, the samples under it on one last
    axis (``axis=-1``); ``function`` reduces them (``np.mean``, ``np.median``...).
    Differentiable in ``input`` as far as ``function`` is (written with NumPy's or
    ``funcgrad.numpy``'s functions).  ``output=`` is not supported (the result is a new
    array); ``batch_memory`` is accepted (the windows are made at once).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> x = np.array([1.0, 4.0, 2.0, 8.0])
    >>> fnd.vectorized_filter(x, np.mean, size=2)
    array([1. , 2.5, 3. , 5. ])
    >>> fg.grad(lambda x: fnd.vectorized_filter(x, np.sum, size=3).sum())(x)
    array([3., 3., 3., 3.])
    """
    if output is not None:
        raise TypeError("vectorized_filter(..., output=...) would write into an array, but "
                        "funcgrad's results are new arrays: use the returned value")
    if not callable(function):
        raise ValueError("`function` must be a callable.")
    if size is None and footprint is None:
        raise ValueError("Either `size` or `footprint` must be provided.")
    if size is not None and footprint is not None:
        raise ValueError("Either `size` or `footprint` may be provided, not both.")
    x = asarray(input)
    if axes is None:
        axes = tuple(range(-x.ndim, 0))
    chosen: tuple = (axes,) if isinstance(axes, int) or np.ndim(axes) == 0 else \
        tuple(axes)
    n = len(chosen)
    if n > x.ndim:
        raise ValueError("The length of `axes` may not exceed the dimensionality of "
                         "`input` (`input.ndim`).")
    if footprint is not None:
        if isinstance(footprint, Tracer):
            raise TypeError("vectorized_filter: footprint must be a concrete array (it "
                            "chooses the samples), not a traced one")
        footprint = np.asarray(footprint, dtype=bool)
        window: tuple = footprint.shape
    else:
        window = _integers("size", size, n)
        if not all(s > 0 for s in window):
            raise ValueError("All elements of `size` must be positive integers.")
    if len(window) != n:
        raise ValueError("`axes` must be compatible with the dimensionality of the window "
                         "specified by `size` or `footprint`.")
    origin = (0,) * n if origin is None else _integers("origin", origin, n)
    if len(origin) != n:
        raise ValueError("`origin` must be an integer or tuple of integers with length "
                         "equal to the number of axes.")
    if mode not in _MODES:
        raise ValueError(f"`mode` must be one of {set(_MODES)}.")
    pad_mode = _MODES[mode]
    if pad_mode == "valid" and any(origin):
        raise ValueError("`mode='valid'` is incompatible with use of `origin`.")
    if cval is None:
        cval = 0.0
    elif pad_mode != "constant":
        raise ValueError("Use of `cval` is compatible only with `mode='constant'`.")
    if not (np.ndim(batch_memory) == 0 and np.asarray(batch_memory).dtype.kind in "iuf"
            and batch_memory > 0):
        raise ValueError("`batch_memory` must be positive number.")
    if x.size == 0:
        return x
    if x.ndim == 0 and window == ():
        return asarray(function(x) if footprint is None else function(x[footprint]))
    working = tuple(range(-n, 0))
    x = fnp.moveaxis(x, chosen, working)
    if pad_mode != "valid":
        borders = tuple((s // 2 + o, (s - 1) // 2 - o) for s, o in zip(window, origin))
        extra = {"constant_values": cval} if pad_mode == "constant" else {}
        x = fnp.pad(x, ((0, 0),) * (x.ndim - n) + borders, mode=pad_mode, **extra)
    lengths = [x.shape[x.ndim - n + k] - window[k] + 1 for k in range(n)]
    if any(length < 1 for length in lengths):
        raise ValueError("vectorized_filter: with mode='valid' the window must fit in the "
                         "input along each axis")
    offsets = [o for o in np.ndindex(*window) if footprint is None or footprint[o]]
    lead = (slice(None),) * (x.ndim - n)
    windows = fnp.stack([x[lead + tuple(slice(o, o + length) for o, length
                                        in zip(offset, lengths))] for offset in offsets],
                        axis=-1)
    if footprint is None:
        windows = fnp.reshape(windows, windows.shape[:-1] + window)
        result = function(windows, axis=working)
    else:
        result = function(windows, axis=-1)
    return fnp.moveaxis(asarray(result), working, chosen)
