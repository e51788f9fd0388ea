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

from ..kernels._broadcast import broadcast_shapes
from ..core import Tracer, innermost_value
from ..primitives import structural as _st
from . import _convert
from ._convert import asarray as _operand_array, operand
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["zeros", "ones", "empty", "full", "eye", "identity", "array", "asarray",
           "asanyarray", "ascontiguousarray", "asfortranarray",
           "zeros_like", "ones_like", "full_like", "empty_like", "copy", "astype",
           "stop_gradient"]


def _traced(x):
    return isinstance(x, (Tracer,) + _convert._extra_array_types) or (
        isinstance(x, (list, tuple)) and any(_traced(e) for e in x))


def _filled(fill_value, shape, dtype):
    """A traced ``fill_value`` broadcast to ``shape`` (its derivative sums over it)."""
    fill = _operand_array(fill_value)
    if dtype is not None and fill.dtype != _np.dtype(dtype):
        fill = _st.convert_element_type(fill, dtype)
    shape = (int(shape),) if isinstance(shape, (int, _np.integer)) else tuple(shape)
    if fill.shape != shape:
        try:
            broadcast_shapes(fill.shape, shape)
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


def array(object: ArrayLike, dtype: DTypeLike | None = None,  # noqa: A002 - NumPy's name
          *, copy: bool = True, order: str | None = "K", subok: bool = False, ndmin: int = 0,
          ndmax: int = 0, like: Any = None, device: Any = None) -> Array:
    """``np.array(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0,
    ndmax=0, like=None)`` (JAX's keywords too); a list holding traced values is stacked
    into one.  ``ndmin`` prepends axes of length 1 up to that many dimensions; ``order``
    lays out a plain array (a traced one has no layout to choose).  ``ndmax`` bounds the
    dimensions read from nested lists (fewer than the nesting would make NumPy's object
    arrays, which funcgrad does not take); ``subok`` and ``like`` change nothing here
    (funcgrad keeps no ndarray subclasses, and takes plain and traced values alike).

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fg.grad(lambda x: fnp.sum(fnp.array([x, 2.0 * x])))(1.0))
    3.0
    >>> fnp.array([1.0, 2.0], ndmin=3).shape
    (1, 1, 2)
    """
    _check_order(order, "array")
    if copy is False:
        _no_copy_possible(object, dtype, order)
    out = _operand_array(object, dtype)
    if ndmax and out.ndim > ndmax:
        raise TypeError(f"array: ndmax={ndmax} is below the {out.ndim} dimensions of the "
                        f"nested input, which would make a NumPy object array; funcgrad "
                        f"takes numeric arrays only (drop ndmax, or pass ndmax >= {out.ndim})")
    if isinstance(out, _np.ndarray):
        if copy and out is object:
            out = _np.array(out, order=order or "K", copy=True)
        elif order in ("C", "F"):
            out = _np.asarray(out, order=order)  # copies only to change the layout
    if out.ndim < ndmin:
        out = _st.reshape(out, (1,) * (ndmin - out.ndim) + out.shape)
    return out


def _no_copy_possible(a, dtype, order):
    """NumPy 2's ``copy=False``: a ValueError where the array cannot be made without a copy
    (a change of dtype or layout; a list, tuple or number, which has no array to share)."""
    if isinstance(a, _np.ndarray):
        if not _needs_copy(a, dtype, order):
            return
    elif hasattr(a, "dtype") and hasattr(a, "shape") and not isinstance(a, _np.generic):
        return  # (a traced value, a Tensor: immutable, whether it is copied cannot be seen)
    raise ValueError("unable to avoid a copy while making the array as requested "
                     "(copy=False): a list, tuple or number, or a change of dtype or memory "
                     "order, needs one. Pass copy=None to allow a copy when needed.")


def _check_order(order, what):
    if order not in (None, "K", "A", "C", "F"):
        raise ValueError(f"{what}: order must be one of 'K', 'A', 'C', 'F' or None, got "
                         f"{order!r}")


def asarray(a: ArrayLike, dtype: DTypeLike | None = None, order: str | None = None, *,
            copy: bool | None = None, device: Any = None, like: Any = None) -> Array:
    """``asarray(a, dtype=None, order=None, *, copy=None)``, the signature of NumPy 2,
    JAX and the array API: ``a`` as an array (traced values pass through, converted to
    ``dtype`` if given).  For a NumPy array, ``copy=True`` always copies and
    ``copy=False`` raises ``ValueError`` where a copy cannot be avoided, as NumPy's; traced
    values are immutable, so whether they are copied cannot be seen.  (NumPy's ``like=``
    changes nothing: funcgrad's functions take plain and traced values alike.)

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.asarray([[1, 2]], dtype=float)
    array([[1., 2.]])
    >>> x = np.ones(2)
    >>> fnp.asarray(x) is x, fnp.asarray(x, copy=True) is x
    (True, False)
    """
    _check_order(order, "asarray")
    if copy is False:
        _no_copy_possible(a, dtype, order)
    out = _operand_array(a, dtype)
    if isinstance(out, _np.ndarray):
        if copy and (out is a or out.base is a):
            out = _np.array(out, order=order or "K", copy=True)
        elif order in ("C", "F"):
            out = _np.asarray(out, order=order)  # copies only to change the layout
    return out


def asanyarray(a: ArrayLike, dtype: DTypeLike | None = None, order: str | None = None, *,
               device: Any = None, copy: bool | None = None, like: Any = None) -> Array:
    """``np.asanyarray``: :func:`asarray` (funcgrad keeps no ndarray subclasses apart).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fg.grad(lambda x: fnp.sum(fnp.asanyarray(x) * 3.0))(2.0))
    3.0
    """
    return asarray(a, dtype, order, copy=copy, device=device)


def ascontiguousarray(a: ArrayLike, dtype: DTypeLike | None = None, *, like: Any = None) -> Array:
    """``np.ascontiguousarray``: ``a`` laid out in C order, at least 1-d; a traced value
    keeps its derivative (its memory layout cannot be seen).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.ascontiguousarray(np.ones((2, 3)).T).flags.c_contiguous
    True
    >>> fg.grad(lambda x: fnp.sum(fnp.ascontiguousarray(x) ** 2))(np.array([1.0, 2.0]))
    array([2., 4.])
    """
    out = asarray(a, dtype, "C")
    return out if _np.ndim(out) else _st.reshape(out, (1,))


def asfortranarray(a: ArrayLike, dtype: DTypeLike | None = None, *, like: Any = None) -> Array:
    """``np.asfortranarray``: ``a`` laid out in Fortran order, at least 1-d; a traced
    value keeps its derivative (its memory layout cannot be seen).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.asfortranarray(np.ones((2, 3))).flags.f_contiguous
    True
    """
    out = asarray(a, dtype, "F")
    return out if _np.ndim(out) else _st.reshape(out, (1,))


def _needs_copy(a, dtype, order):
    """Would making ``a`` an array of ``dtype`` laid out in ``order`` copy it?
    (NumPy 2's ``copy=False`` question, answered for NumPy 1.26 too.)"""
    return (dtype is not None and _np.dtype(dtype) != a.dtype
            or order == "C" and not a.flags.c_contiguous
            or order == "F" and not a.flags.f_contiguous)


def _on_device_of(a, value):
    """``value`` (a NumPy constant) moved to ``a``'s device when ``a`` is a GPU array (or a
    transform's value of one)."""
    gpu = sys.modules.get("funcgrad.gpu")  # only loaded when GPU arrays exist
    if gpu is None:
        return value
    a = innermost_value(a)
    if isinstance(a, gpu.GpuArray):
        return gpu.device_put(value, a.device)
    return value


def _like_layout(a, order, shape):
    """``(order, shape)`` of a ``*_like`` call: NumPy's third positional is ``order``,
    JAX's is ``shape`` (a tuple or an int, never a string), so either call reads right."""
    if order is not None and not isinstance(order, str):
        order, shape = "K", order
    _check_order(order, "zeros_like/ones_like/empty_like/full_like")
    # (NumPy's 'K' and 'A' keep a Fortran-ordered prototype's layout; 'C' and 'F' say it)
    fortran = order == "F" or (order in ("K", "A") and isinstance(a, _np.ndarray)
                               and a.flags.f_contiguous and not a.flags.c_contiguous)
    return "F" if fortran else "C", shape


def zeros_like(a: ArrayLike, dtype: DTypeLike | None = None, order: str = "K",
               subok: bool = True, shape: int | Sequence[int] | None = None, *,
               device: Any = None) -> Array:
    """``np.zeros_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None)``:
    zeros with ``a``'s shape and dtype (a constant, even when ``a`` is traced), on ``a``'s
    device.  A shape in ``order``'s place is read as JAX's ``zeros_like(a, dtype, shape)``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.zeros_like(np.ones((2, 1), np.float32))
    array([[0.],
           [0.]], dtype=float32)
    >>> fnp.zeros_like(np.ones(2), int, "F", True, (2, 2)).flags.f_contiguous
    True
    """
    order, shape = _like_layout(a, order, shape)
    a = _operand_array(a)
    return _on_device_of(a, _np.zeros(a.shape if shape is None else shape, dtype or a.dtype,
                                      order))


def ones_like(a: ArrayLike, dtype: DTypeLike | None = None, order: str = "K",
              subok: bool = True, shape: int | Sequence[int] | None = None, *,
              device: Any = None) -> Array:
    """``np.ones_like(a, dtype=None, order='K', subok=True, shape=None, *, device=None)``:
    ones with ``a``'s shape and dtype (a constant, even when ``a`` is traced), on ``a``'s
    device (a shape in ``order``'s place: JAX's ``ones_like(a, dtype, shape)``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.ones_like(np.zeros(3), dtype=int)
    array([1, 1, 1])
    """
    order, shape = _like_layout(a, order, shape)
    a = _operand_array(a)
    return _on_device_of(a, _np.ones(a.shape if shape is None else shape, dtype or a.dtype,
                                     order))


def full_like(a: ArrayLike, fill_value: ArrayLike, dtype: DTypeLike | None = None, order: str = "K",
              subok: bool = True, shape: int | Sequence[int] | None = None, *,
              device: Any = None) -> Array:
    """``np.full_like(a, fill_value, dtype=None, order='K', subok=True, shape=None, *,
    device=None)``: ``fill_value`` with ``a``'s shape and dtype, on ``a``'s device; a
    constant unless ``fill_value`` is traced (then it keeps its derivative).  A shape in
    ``order``'s place is read as JAX's ``full_like(a, fill_value, dtype, shape)``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.full_like(np.zeros(2), 7.5)
    array([7.5, 7.5])
    >>> float(fg.grad(lambda g: fnp.sum(fnp.full_like(np.zeros(3), g)))(2.0))
    3.0
    """
    order, shape = _like_layout(a, order, shape)
    a = _operand_array(a)
    if _traced(fill_value):
        return _filled(fill_value, a.shape if shape is None else shape, dtype or a.dtype)
    return _on_device_of(a, _np.full(a.shape if shape is None else shape, fill_value,
                                     dtype or a.dtype, order))


def empty_like(prototype: ArrayLike, dtype: DTypeLike | None = None, order: str = "K",
               subok: bool = True, shape: int | Sequence[int] | None = None, *,
               device: Any = None) -> Array:
    """``np.empty_like(prototype, dtype=None, order='K', subok=True, shape=None)``: traced
    arrays are immutable, so an "uninitialised" array is never written into; zeros serve,
    and keep results reproducible (a shape in ``order``'s place: JAX's signature).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.empty_like(np.ones((1, 2), np.float32))
    array([[0., 0.]], dtype=float32)
    """
    return zeros_like(prototype, dtype, order, subok, shape)


def copy(a: ArrayLike, order: str | None = "K", subok: bool = False) -> Array:
    """``np.copy(a, order='K')``: a copy (traced values are immutable, so they are returned
    as they are; ``order`` lays out a plain array).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.ones(2)
    >>> fnp.copy(x) is x
    False
    """
    _check_order(order, "copy")
    a = _operand_array(a)
    return _np.array(a, order=order, copy=True) if isinstance(a, _np.ndarray) else a


def astype(x: ArrayLike, dtype: DTypeLike, /, *, copy: bool = False,
           device: Any = None) -> Array:
    """``astype(x, dtype, /, *, copy=False)`` (JAX's and the array API's); casting to an
    integer or bool type drops the derivative.  ``copy=True`` returns a new plain array
    even when ``dtype`` is ``x``'s (traced values are immutable: copies cannot be seen).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.astype(x, np.float32) * 2.0))(np.ones(2))
    array([2., 2.])
    """
    if isinstance(x, (list, tuple)):  # (NumPy's astype takes arrays, as the array API's)
        raise TypeError(f"Input should be a NumPy array or scalar. It is a {type(x)} instead: "
                        f"pass np.asarray(x, dtype) for a list")
    out = _st.convert_element_type(_operand_array(x), dtype)
    if copy and out is x:
        out = out.copy()
    if type(out) is _np.ndarray and isinstance(x, _np.generic):  # (a scalar's: a scalar)
        return out[()]
    return out


def stop_gradient(x: ArrayLike) -> Array:
    """``x``, treated as a constant by every derivative.

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fg.grad(lambda x: x * fnp.stop_gradient(x))(3.0))
    3.0
    """
    return _st.stop_gradient(operand(x))
