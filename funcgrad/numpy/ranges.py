"""Evenly spaced values: arange, linspace, logspace, geomspace, with traced bounds.

Given plain numbers they are NumPy's own functions.  Given traced bounds, the values are
computed from them with NumPy's formulas, so they carry the bounds' derivatives; the
*number* of values must still be known (``num``, or for ``arange`` the concrete bounds).
"""
from typing import Any
import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from .constructors import _traced, astype
from ._convert import asarray, concrete_values, one_axis, operand
from .manipulation import broadcast_to, concatenate, moveaxis, reshape
from .indexing import where
from .ufuncs import add, divide, equal, floor, log10, multiply, power, sign, subtract
from ..typing import Array, ArrayLike, Axis, DTypeLike

__all__ = ["arange", "linspace", "logspace", "geomspace"]


def arange(start: ArrayLike | None = None, stop: ArrayLike | None = None,
           step: ArrayLike | None = None, dtype: DTypeLike | None = None, *, device: Any = None,
           like: Any = None) -> Array:
    """``np.arange([start,] stop[, step,], dtype=None, *, device=None, like=None)``: values
    from ``start`` by ``step`` up to ``stop`` (excluded).  Traced ``start`` and ``step``
    carry their derivatives (value ``i`` is ``start + i * step``); the length needs
    concrete bounds (under ``vmap``/``jit`` a traced bound raises ConcretizationError).

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.arange(1.0, 2.0, 0.25)
    array([1.  , 1.25, 1.5 , 1.75])
    >>> float(fg.grad(lambda s: fnp.sum(fnp.arange(s, 3.0)))(0.5))
    3.0
    """
    if not any(_traced(v) for v in (start, stop, step)):
        args = [v for v in (start, stop, step) if v is not None]
        if stop is None and step is not None:
            args = [0, start, step] if start is not None else args
        return _np.arange(*args, dtype=dtype)
    if stop is None:
        start, stop = 0, start
    step = 1 if step is None else step
    values = [concrete_values(operand(v), "arange (its length)",
                              "Use fnp.linspace(start, stop, num) with a fixed num instead.")
              for v in (start, stop, step)]
    plain = _np.arange(*values, dtype=dtype)
    i = _np.arange(plain.shape[0], dtype=plain.dtype if plain.dtype.kind == "f" else None)
    start, step = operand(start), operand(step)
    delta = subtract(add(start, step), start)  # NumPy fills start + i * (first gap)
    out = add(start, multiply(i, delta))
    return astype(out, plain.dtype)


def linspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
             retstep: bool = False, dtype: DTypeLike | None = None, axis: Axis = 0, *,
             device: Any = None) -> Array | tuple[Array, Array]:
    """``np.linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0,
    *, device=None)``: ``num`` evenly spaced values from ``start`` to ``stop``,
    differentiable in both (array bounds give one column of values each, along ``axis``).

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.linspace(0.0, 1.0, 5)
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    >>> float(fg.grad(lambda b: fnp.linspace(0.0, b, 5)[1])(2.0))
    0.25
    """
    if not (_traced(start) or _traced(stop)):
        return _np.linspace(start, stop, num, endpoint, retstep, dtype, axis)
    num = int(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    dt = _np.result_type(*[v if isinstance(v, (int, float)) else asarray(v).dtype
                           for v in (start, stop)], 1.0)
    start, stop = asarray(start), asarray(stop)
    dt = dt if dt.kind in "fc" else _np.dtype(_np.float64)
    start, stop = astype(start, dt), astype(stop, dt)
    div = (num - 1) if endpoint else num
    delta = subtract(stop, start)
    bshape = broadcast_shapes(start.shape, stop.shape)
    y = reshape(_np.arange(0, num, dtype=dt), (-1,) + (1,) * len(bshape))
    if div > 0:
        step = divide(delta, float(div))
        y = where(equal(step, 0), multiply(divide(y, float(div)), delta), multiply(y, step))
    else:
        step = _np.nan
        y = multiply(y, delta)
    y = add(y, start)
    if endpoint and num > 1:
        y = concatenate([y[:-1], reshape(broadcast_to(stop, bshape), (1,) + bshape)], 0)
    if axis != 0:
        y = moveaxis(y, 0, one_axis(axis, y.ndim))
    if dtype is not None:
        if _np.dtype(dtype).kind in "iu":
            y = floor(y)
        y = astype(y, dtype)
    return (y, step) if retstep else y


def logspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
             base: ArrayLike = 10.0, dtype: DTypeLike | None = None, axis: Axis = 0) -> Array:
    """``np.logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0)``:
    ``base ** linspace(start, stop)``, differentiable in ``start``, ``stop`` and ``base``.

    >>> import funcgrad.numpy as fnp
    >>> fnp.logspace(0.0, 2.0, 3)
    array([  1.,  10., 100.])
    """
    if not (_traced(start) or _traced(stop) or _traced(base)):
        return _np.logspace(start, stop, num, endpoint, base, dtype, axis)
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    if not isinstance(base, (int, float)):  # (a Python number stays weak: float32 in, out)
        base = asarray(base)
        if base.ndim:
            base = moveaxis(reshape(base, (1,) + base.shape), 0, one_axis(axis, y.ndim))
    out = power(base, y)
    return out if dtype is None else astype(out, dtype)


def geomspace(start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
              dtype: DTypeLike | None = None, axis: Axis = 0) -> Array:
    """``np.geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0)``: a
    geometric progression from ``start`` to ``stop`` (same sign, not zero), differentiable
    in both; real values only.

    >>> import funcgrad.numpy as fnp
    >>> fnp.geomspace(1.0, 1000.0, 4)
    array([   1.,   10.,  100., 1000.])
    """
    if not (_traced(start) or _traced(stop)):
        return _np.geomspace(start, stop, num, endpoint, dtype, axis)
    start, stop = asarray(start), asarray(stop)
    # (NumPy promotes with a 0-d float64 array, its default dtype: float32 bounds give
    # float64, unlike linspace and logspace)
    dt = _np.result_type(start.dtype, stop.dtype, float(num), _np.float64)
    if dt.kind == "c":
        raise NotImplementedError("geomspace: complex bounds are not supported on traced "
                                  "values")
    for v in (start, stop):
        try:
            zero = _np.any(concrete_values(v, "", "") == 0)
        except TypeError:  # (not concrete: no check, as under jit)
            zero = False
        if zero:
            raise ValueError("Geometric sequence cannot include zero")
    start, stop = astype(start, dt), astype(stop, dt)
    out_sign = sign(start)
    start = divide(start, out_sign)
    stop = divide(stop, out_sign)
    result = logspace(log10(start), log10(stop), num=num, endpoint=endpoint, base=10.0)
    num = int(num)
    if num > 0:  # the ends exactly, as NumPy sets them
        bshape = result.shape[1:]
        parts = [reshape(broadcast_to(start, bshape), (1,) + bshape)]
        if num > 1:
            middle = result[1:-1] if endpoint else result[1:]
            parts.append(middle)
            if endpoint:
                parts.append(reshape(broadcast_to(stop, bshape), (1,) + bshape))
        result = concatenate(parts, 0)
    result = multiply(out_sign, result)
    if axis != 0:
        result = moveaxis(result, 0, one_axis(axis, result.ndim))
    return result if dtype is None else astype(result, dtype)
