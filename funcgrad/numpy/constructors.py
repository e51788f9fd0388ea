"""Making arrays: from data, like another array, or by conversion.

NumPy's own constructors (``zeros``, ``ones``, ``eye``...) are re-exported as they are:
they build constants, which carry no derivative.  ``full`` and ``full_like`` take a traced
fill value (the result carries its derivative); ``arange``, ``linspace``, ``logspace`` and
``geomspace`` take traced bounds (see :mod:`funcgrad.numpy.ranges`).
"""
import sys
from typing import Any, Sequence

import numpy as _np
from numpy import empty, eye, identity, ones, zeros  # noqa: F401

from ..core import Tracer
from ..primitives import structural as _st
from . import _convert
from ._convert import asarray, operand
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["zeros", "ones", "empty", "full", "eye", "identity", "array", "asarray",
           "zeros_like", "ones_like", "full_like", "empty_like", "copy", "astype",
           "stop_gradient"]


def _traced(x):
    return isinstance(x, (Tracer,) + _convert._extra_array_types) or (
        isinstance(x, (list, tuple)) and any(_traced(e) for e in x))


def _filled(fill_value, shape, dtype):
    """A traced ``fill_value`` broadcast to ``shape`` (its derivative sums over it)."""
    fill = asarray(fill_value)
    if dtype is not None and fill.dtype != _np.dtype(dtype):
        fill = _st.convert_element_type(fill, dtype)
    shape = (int(shape),) if isinstance(shape, (int, _np.integer)) else tuple(shape)
    if fill.shape != shape:
        try:
            _np.broadcast_shapes(fill.shape, shape)
        except ValueError:
            raise ValueError(f"full: could not broadcast the fill value of shape {fill.shape} "
                             f"to shape {shape}") from None
        fill = _st.broadcast_to(fill, shape)
    return fill


def full(shape: int | Sequence[int], fill_value: ArrayLike, dtype: DTypeLike | None = None,
         order: str = "C", *, device: Any = None, like: Any = None) -> Array:
    """``np.full(shape, fill_value, dtype=None, order='C', *, device=None, like=None)``:
    ``fill_value`` repeated to ``shape``; a traced ``fill_value`` keeps its derivative
    (summed over the copies).

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.full((2,), 1.5)
    array([1.5, 1.5])
    >>> float(fg.grad(lambda g: fnp.sum(fnp.full((3,), g)))(2.0))
    3.0
    """
    if _traced(fill_value):
        return _filled(fill_value, shape, dtype)
    return _np.full(shape, fill_value, dtype, order)


def array(object: ArrayLike, dtype: DTypeLike | None = None, copy: bool = True) -> Array:  # noqa: A002 - NumPy's name
    """Like ``np.array``; a list holding traced values is stacked into one.

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fg.grad(lambda x: fnp.sum(fnp.array([x, 2.0 * x])))(1.0))
    3.0
    """
    out = asarray(object, dtype)
    if copy and isinstance(out, _np.ndarray) and out is object:
        out = out.copy()
    return out


def _on_device_of(a, value):
    """``value`` (a NumPy constant) moved to ``a``'s device when ``a`` is a GPU array."""
    gpu = sys.modules.get("funcgrad.gpu")  # only loaded when GPU arrays exist
    if gpu is not None and isinstance(a, gpu.GpuArray):
        return gpu.device_put(value, a.device)
    return value


def zeros_like(a: ArrayLike, dtype: DTypeLike | None = None,
               shape: int | Sequence[int] | None = None) -> Array:
    """Zeros with ``a``'s shape and dtype (a constant, even when ``a`` is traced), on
    ``a``'s device.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.zeros_like(np.ones((2, 1), np.float32))
    array([[0.],
           [0.]], dtype=float32)
    """
    a = asarray(a)
    return _on_device_of(a, _np.zeros(a.shape if shape is None else shape, dtype or a.dtype))


def ones_like(a: ArrayLike, dtype: DTypeLike | None = None,
              shape: int | Sequence[int] | None = None) -> Array:
    """Ones with ``a``'s shape and dtype (a constant, even when ``a`` is traced), on
    ``a``'s device.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.ones_like(np.zeros(3), dtype=int)
    array([1, 1, 1])
    """
    a = asarray(a)
    return _on_device_of(a, _np.ones(a.shape if shape is None else shape, dtype or a.dtype))


def full_like(a: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None, order: str = "K",
              subok: bool = True, shape: int | Sequence[int] | None = None, *,
              device: Any = None) -> Array:
    """``np.full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None, *,
    device=None)``: ``fill_value`` with ``a``'s shape and dtype, on ``a``'s device; a
    constant unless ``fill_value`` is traced (then it keeps its derivative).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.full_like(np.zeros(2), 7.5)
    array([7.5, 7.5])
    >>> float(fg.grad(lambda g: fnp.sum(fnp.full_like(np.zeros(3), g)))(2.0))
    3.0
    """
    a = asarray(a)
    if _traced(fill_value):
        return _filled(fill_value, a.shape if shape is None else shape, dtype or a.dtype)
    return _on_device_of(a, _np.full(a.shape if shape is None else shape, fill_value,
                                     dtype or a.dtype))


# Traced arrays are immutable, so an "uninitialised" array is never written into: zeros
# serve, and keep results reproducible.
empty_like = zeros_like


def copy(a: ArrayLike) -> Array:
    """A copy (traced values are immutable, so they are returned as they are).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.ones(2)
    >>> fnp.copy(x) is x
    False
    """
    a = asarray(a)
    return a.copy() if isinstance(a, _np.ndarray) else a


def astype(x: ArrayLike, dtype: DTypeLike) -> Array:
    """Cast; casting to an integer or bool type drops the derivative.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.astype(x, np.float32) * 2.0))(np.ones(2))
    array([2., 2.])
    """
    return _st.convert_element_type(asarray(x), dtype)


def stop_gradient(x: ArrayLike) -> Array:
    """``x``, treated as a constant by every derivative.

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fg.grad(lambda x: x * fnp.stop_gradient(x))(3.0))
    3.0
    """
    return _st.stop_gradient(operand(x))
