"""``scipy.interpolate.interp1d``: SciPy's callable 1-d interpolator, every ``kind``.

'linear', 'nearest', 'nearest-up', 'previous' and 'next' pick or blend the data next to
each query, found by counting the data below it (SciPy's ``searchsorted`` sides: a
binary search on known values, comparisons under ``vmap`` and ``jit``); 'zero', 'slinear' and 'quadratic' are SciPy's
interpolating B-splines of degree 0, 1 and 2 (``make_interp_spline``'s knots; degree
2's collocation system is tridiagonal and solved by ``tridiagonal_solve``); 'cubic' is
the not-a-knot cubic spline, :class:`~._cubic.CubicSpline` (the same function as
SciPy's degree-3 B-spline).
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline import (basis, count_below, default_knots, interpolating_coefficients,
                       knot_interval, real_promoted)
from ._cubic import CubicSpline

__all__ = ["interp1d"]

_SPLINE_ORDERS = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}
_PICKS = ("linear", "nearest", "nearest-up", "previous", "next")


def _fill_shape(fill, trailing, what):
    fill = asarray(fill)
    try:
        np.broadcast_shapes(tuple(fill.shape), trailing)
        if len(fill.shape) > len(trailing):
            raise ValueError
    except ValueError:
        raise ValueError(f"interp1d: {what} (shape {tuple(fill.shape)}) must broadcast up "
                         f"to shape {trailing}, the shape of y without the axis") from None
    return fill


class interp1d:  # noqa: N801  (SciPy's name)
    """Interpolate 1-d data (``scipy.interpolate.interp1d``): ``interp1d(x, y, kind)``
    is a function of the query points.  ``kind`` one of 'linear', 'nearest',
    'nearest-up', 'previous', 'next', 'zero', 'slinear', 'quadratic', 'cubic' (or a
    spline order 0-3); ``y`` interpolated along ``axis``; points outside ``[x[0],
    x[-1]]`` raise (``bounds_error``, SciPy's default unless ``fill_value='extrapolate'``)
    or take ``fill_value`` (one value, or ``(below, above)``), or the end pieces go on
    with ``fill_value='extrapolate'``.

    Differentiable in the query points, ``y`` and ``x``.  As a function of the query
    points and of ``x``, 'linear' and the splines are smooth between knots (at a knot, a
    derivative is one side's); 'nearest', 'previous', 'next' and 'zero' are piecewise
    constant, so their derivative in the query points and ``x`` is 0 (the jumps have
    none).  Unlike SciPy, float32 data stay float32.  Under ``jit`` or ``vmap`` the
    bounds cannot be checked: pass ``bounds_error=False`` there.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> f = fi.interp1d(np.array([0.0, 1.0, 2.0]), np.array([0.0, 2.0, 3.0]))
    >>> f(np.array([0.5, 1.5]))
    array([1. , 2.5])
    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> fg.grad(lambda t: fi.interp1d(x, x ** 2, kind='cubic')(t))(1.5)  # (d/dt t**2)
    np.float64(3.0)
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, kind: Any = "linear", axis: int = -1,
                 copy: bool = True, bounds_error: Any = None, fill_value: Any = np.nan,
                 assume_sorted: bool = False) -> None:
        order = None
        if isinstance(kind, str) and kind in _SPLINE_ORDERS:
            order = _SPLINE_ORDERS[kind]
        elif isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
            order = int(kind)
            if not 0 <= order <= 3:
                raise NotImplementedError(f"interp1d: spline order {order} is not "
                                          f"implemented; give an order from 0 to 3")
        elif kind not in _PICKS:
            raise NotImplementedError(f"interp1d: kind={kind!r} is unsupported; give one of "
                                      f"{_PICKS + tuple(_SPLINE_ORDERS)} or an order 0-3")
        x, y = asarray(x), asarray(y)
        if x.ndim != 1:
            raise ValueError("interp1d: the x array must have exactly one dimension.")
        if y.ndim == 0:
            raise ValueError("interp1d: the y array must have at least one dimension.")
        if x.dtype.kind == "c":
            raise ValueError("interp1d: x must be real")
        axis = int(axis) % y.ndim
        if x.shape[0] != y.shape[axis]:
            raise ValueError(f"interp1d: x and y arrays must be equal in length along "
                             f"interpolation axis ({x.shape[0]} and {y.shape[axis]})")
        x, y = real_promoted(x, y)
        if not assume_sorted:
            if is_concrete(x):
                order_of_x = np.argsort(concrete_values(x, "", ""), kind="mergesort")
                if np.any(order_of_x != np.arange(order_of_x.size)):
                    x, y = fnp.take(x, order_of_x), fnp.take(y, order_of_x, axis=axis)
            else:
                order_of_x = fnp.argsort(x, stable=True)
                x, y = fnp.take(x, order_of_x), fnp.take(y, order_of_x, axis=axis)
        minimum = 1 if order is None else order + 1
        if x.shape[0] < minimum:
            raise ValueError(f"interp1d: x and y arrays must have at least {minimum} "
                             f"entries")
        self._nan_out, self._poison = False, None
        if is_concrete(x):
            known = concrete_values(x, "", "")
            steps = np.diff(known)
            if order is not None and np.any(steps == 0):
                raise ValueError("interp1d: Expect x to not have duplicates")
            if np.any(steps < 0):
                raise ValueError("interp1d: Expect x to be a 1D strictly increasing "
                                 "sequence (x is not sorted: pass assume_sorted=False)")
            # SciPy: NaNs in the data make every spline value of degree > 1 NaN
            self._nan_out = bool(order is not None and order > 1 and (
                np.isnan(known).any() or (is_concrete(y) and np.isnan(
                    concrete_values(y, "", "")).any())))
        else:  # (no values to check: x out of order shows as NaN, never as wrong values)
            steps = fnp.diff(x)
            ordered = fnp.all(steps > 0) if order is not None else fnp.all(steps >= 0)
            self._poison = fnp.where(ordered, np.ones((), x.dtype),
                                     np.full((), np.nan, x.dtype))
        self.x, self.y, self.axis = x, y, axis
        self._kind, self._order = kind, order
        self.copy = copy
        self._moved = fnp.moveaxis(y, axis, 0)
        self._trailing = tuple(self._moved.shape[1:])
        self._setup_spline()
        self._setup_fill(bounds_error, fill_value)

    def _setup_spline(self):
        order, x, n = self._order, self.x, self.x.shape[0]
        if order is None:
            return
        data = self._moved
        if self._nan_out:  # (SciPy's stand-ins: the spline is built, its values are NaN)
            x = fnp.astype(fnp.linspace(fnp.nanmin(x), fnp.nanmax(x), n), x.dtype)
            data = fnp.ones_like(data)
        self._x_spline = x
        if order == 3:
            self._cubic = CubicSpline(x, data, axis=0)
            return
        self._knots = default_knots(x, order)
        self._coefficients = interpolating_coefficients(x, self._knots, order,
                                                   fnp.reshape(data, (n, -1)))

    @property
    def fill_value(self) -> Any:
        """The value outside the data (``'extrapolate'``, a value, or a ``(below,
        above)`` pair) as given; assignable, as SciPy's (``'extrapolate'`` then needs
        ``bounds_error=False``).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> f = fi.interp1d(np.arange(3.0), np.arange(3.0), bounds_error=False)
        >>> f.fill_value = (-1.0, 9.0)
        >>> f(np.array([-1.0, 5.0]))
        array([-1.,  9.])
        """
        return self._fill_value

    @fill_value.setter
    def fill_value(self, value: Any) -> None:
        self._setup_fill(self.bounds_error, value)

    @property
    def dtype(self) -> np.dtype:
        """The dtype of the values (and so of the results)."""
        return np.dtype(self.y.dtype)

    def _setup_fill(self, bounds_error, fill_value):
        kind = self._kind
        self._fill_value = fill_value
        extrapolate = isinstance(fill_value, str) and fill_value == "extrapolate"
        if extrapolate:
            if bounds_error:
                raise ValueError("interp1d: Cannot extrapolate and raise at the same time.")
            bounds_error = False
            if kind in ("previous", "next"):  # (one side has nothing to go on: NaN)
                end = fnp.take(self._moved, self.x.shape[0] - 1 if kind == "previous" else 0,
                               axis=0)
                nan = fnp.full(self._trailing, np.nan, dtype=self.y.dtype)
                fill_value = (nan, end) if kind == "previous" else (end, nan)
                extrapolate = False
        if bounds_error is None:
            bounds_error = True
        self.bounds_error = bool(bounds_error)
        self._extrapolate = extrapolate
        if not extrapolate:
            if isinstance(fill_value, tuple) and len(fill_value) == 2:
                below, above = fill_value
                self._below = _fill_shape(below, self._trailing, "fill_value (below)")
                self._above = _fill_shape(above, self._trailing, "fill_value (above)")
            else:
                self._below = self._above = _fill_shape(fill_value, self._trailing,
                                                        "fill_value")

    def __call__(self, x: ArrayLike) -> Array:
        """The interpolated values at the points ``x``: shape ``y.shape[:axis] + x.shape
        + y.shape[axis + 1:]``."""
        xq = asarray(x)
        if xq.dtype.kind in "biu":
            xq = fnp.astype(xq, np.float64)
        shape = tuple(xq.shape)
        flat = fnp.reshape(xq, (-1,))
        out = self._evaluate(flat)
        if not self._extrapolate:
            out = self._fill(flat, out)
        out = fnp.reshape(out, shape + self._trailing)
        if self.axis:
            order = list(range(out.ndim))
            k, a = len(shape), self.axis
            out = fnp.transpose(out, order[k:k + a] + order[:k] + order[k + a:])
        return out

    def _evaluate(self, xq):
        """``(len(xq), *trailing)`` values, extrapolated past the ends."""
        x, n, kind, data = self.x, self.x.shape[0], self._kind, self._moved
        if self._order == 3:
            out = self._cubic(xq)
        elif self._order is not None:
            interval = knot_interval(self._knots, self._order,
                                         self._coefficients.shape[0], xq)
            out = None
            for r, b in enumerate(basis(self._knots, self._order, xq, interval)):
                term = fnp.take(self._coefficients, interval - self._order + r, axis=0)
                term = term * fnp.astype(b, term.dtype)[:, None]
                out = term if out is None else out + term
            out = fnp.reshape(out, xq.shape + self._trailing)
        elif kind == "linear":
            high = fnp.clip(count_below(x, xq, strict=True), 1, n - 1)
            x_low, x_high = fnp.take(x, high - 1), fnp.take(x, high)
            y_low, y_high = fnp.take(data, high - 1, axis=0), fnp.take(data, high, axis=0)
            extra = (1,) * len(self._trailing)
            slope = (y_high - y_low) / fnp.reshape(x_high - x_low, xq.shape + extra)
            out = slope * fnp.reshape(fnp.astype(xq - x_low, slope.dtype),
                                      xq.shape + extra) + y_low
        else:
            if kind in ("nearest", "nearest-up"):
                halves = x / 2
                index = fnp.clip(count_below(halves[1:] + halves[:-1], xq,
                                        strict=kind == "nearest"), 0, n - 1)
            elif kind == "previous":
                index = fnp.clip(count_below(fnp.nextafter(x, -np.inf), xq, strict=True),
                                 1, n) - 1
            else:
                index = fnp.clip(count_below(fnp.nextafter(x, np.inf), xq, strict=False),
                                 0, n - 1)
            out = fnp.take(data, index, axis=0)
        if self._nan_out:
            out = out * np.nan
        if self._poison is not None:
            out = out * self._poison
        return out

    def _fill(self, xq, out):
        first, last = self.x[0], self.x[self.x.shape[0] - 1]
        below, above = xq < first, xq > last
        if self.bounds_error:
            fix = ("pass bounds_error=False (with a fill_value, or fill_value="
                   "'extrapolate') to call interp1d under jit or vmap")
            low = concrete_values(below, "interp1d's bounds check", fix)
            high = concrete_values(above, "interp1d's bounds check", fix)
            values = concrete_values(xq, "interp1d's bounds check", fix)
            ends = concrete_values(fnp.stack([first, last]), "interp1d's bounds check", fix)
            if np.any(low):
                raise ValueError(f"interp1d: A value ({values[np.argmax(low)]}) in x_new is "
                                 f"below the interpolation range's minimum value ({ends[0]})."
                                 f" Pass bounds_error=False with a fill_value, or "
                                 f"fill_value='extrapolate'")
            if np.any(high):
                raise ValueError(f"interp1d: A value ({values[np.argmax(high)]}) in x_new is "
                                 f"above the interpolation range's maximum value "
                                 f"({ends[1]}). Pass bounds_error=False with a fill_value, "
                                 f"or fill_value='extrapolate'")
            return out
        extra = (1,) * len(self._trailing)
        below = fnp.reshape(below, xq.shape + extra)
        above = fnp.reshape(above, xq.shape + extra)
        out = fnp.where(below, fnp.astype(self._below, out.dtype), out)
        return fnp.where(above, fnp.astype(self._above, out.dtype), out)
