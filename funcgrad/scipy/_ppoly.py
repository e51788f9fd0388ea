"""Piecewise polynomials in the power basis (``scipy.interpolate.PPoly``), the form the
1-d splines of :mod:`funcgrad.scipy.interpolate` are evaluated in.

``c[m, i]`` multiplies ``(x - breaks[i]) ** (k - m)`` on the piece ``[breaks[i],
breaks[i + 1])``.  A query's piece is a count of the interior breakpoints at or below it
(no derivative; a binary search on known values, comparisons under ``vmap`` and ``jit``);
the value is a Horner sum, differentiable in the query, the coefficients and the
breakpoints.  As a function of a query the result is smooth inside each piece; at a
breakpoint a derivative is the right-hand piece's (the last piece's at the right end).
"""
from typing import Any, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline import count_below

__all__ = ["PPoly"]

Extrapolate = Union[bool, str, None]


def piece_index(breaks: Array, xq: Array) -> Array:
    """For each query in ``xq`` (1-d), the piece it falls in, ``0 .. len(breaks) - 2``
    (queries left of the first piece go to it, those right of the last to the last)."""
    return count_below(breaks[1:-1], xq, strict=False)


def _falling(power, nu):
    """``power * (power - 1) * ... * (power - nu + 1)``: what ``d^nu/dx^nu`` brings down
    from ``x ** power``."""
    out = 1
    for j in range(nu):
        out *= power - j
    return out


def horner(c: Array, offset: Array, nu: int = 0) -> Array:
    """``sum_m c[m] * d^nu/dt^nu t ** (k - m)`` at ``t = offset``; ``c`` is ``(k + 1, q,
    ...)`` (one polynomial per query) and ``offset`` ``(q,)``."""
    order = c.shape[0] - 1
    t = fnp.reshape(offset, offset.shape + (1,) * (c.ndim - 2))
    result: Any = None
    for m in range(order + 1 - nu):
        term = c[m] * _falling(order - m, nu) if nu else c[m]
        result = term if result is None else result * t + term
    if result is None:  # (nu above the degree)
        return fnp.zeros_like(c[0])
    return result


def _check_extrapolate(name, extrapolate):
    if extrapolate is None:
        return True
    if isinstance(extrapolate, str):
        if extrapolate != "periodic":
            raise ValueError(f"{name}: extrapolate must be True, False or 'periodic', got "
                             f"{extrapolate!r}")
        return extrapolate
    return bool(extrapolate)


def evaluate_pieces(breaks, c, axis, x, extrapolate, local):
    """A piecewise polynomial (``c`` stored ``(k + 1, pieces, ...)`` on ``breaks``) at the
    points ``x``: ``local(piece, t)`` evaluates the pieces ``piece`` at the flat points
    ``t`` (``(q, ...)``); this maps ``t`` into the period, puts NaN outside without
    ``extrapolate``, and gives ``x``'s shape at ``axis`` of the trailing shape, as SciPy's
    ``PPoly`` and ``BPoly`` do."""
    xq = asarray(x)
    if xq.dtype.kind in "biu":
        xq = fnp.astype(xq, np.float64)
    shape = tuple(xq.shape)
    flat = fnp.reshape(xq, (-1,))
    first, last = breaks[0], breaks[breaks.shape[0] - 1]
    if extrapolate == "periodic":
        flat = first + fnp.mod(flat - first, last - first)
        extrapolate = False
    out = local(piece_index(breaks, flat), flat)
    trailing = tuple(c.shape[2:])
    if not extrapolate:
        outside = fnp.logical_or(flat < first, flat > last)
        outside = fnp.reshape(outside, outside.shape + (1,) * len(trailing))
        out = fnp.where(outside, fnp.astype(fnp.asarray(np.nan), out.dtype), out)
    out = fnp.reshape(out, shape + trailing)
    if axis:  # (x's axes go where the interpolation axis was, as SciPy's)
        order = list(range(out.ndim))
        k = len(shape)
        out = fnp.transpose(out, order[k:k + axis] + order[:k] + order[k + axis:])
    return out


class PPoly:
    """A piecewise polynomial in the power basis (``scipy.interpolate.PPoly``): on
    ``[x[i], x[i + 1]]`` it is ``sum_m c[m, i, ...] * (t - x[i]) ** (k - m)``.  ``c`` has
    shape ``(k + 1, len(x) - 1, ...)`` (with ``axis``, the two lead axes sit at ``axis``
    and ``axis + 1``); ``x`` ascends.  ``extrapolate``: ``True`` (the end pieces go on),
    ``False`` (NaN outside) or ``'periodic'``.  Differentiable in ``c``, ``x`` and the
    query points.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> p = fi.PPoly(np.array([[1.0, 2.0], [0.0, 1.0]]), np.array([0.0, 1.0, 3.0]))
    >>> p(np.array([0.5, 2.0]))
    array([0.5, 3. ])
    >>> fg.grad(lambda t: p(t))(2.0)
    np.float64(2.0)
    """

    def __init__(self, c: ArrayLike, x: ArrayLike, extrapolate: Extrapolate = None,
                 axis: int = 0) -> None:
        c, x = asarray(c), asarray(x)
        if c.dtype.kind in "biu":
            c = fnp.astype(c, np.float64)
        if x.dtype.kind in "biu":
            x = fnp.astype(x, np.float64)
        if x.ndim != 1 or x.shape[0] < 2:
            raise ValueError(f"PPoly: x must be 1-d with at least 2 breakpoints, got shape "
                             f"{tuple(x.shape)}")
        if c.ndim < 2:
            raise ValueError("PPoly: c must have at least 2 dimensions, (k + 1, len(x) - 1)")
        if not 0 <= axis < c.ndim - 1:
            raise ValueError(f"PPoly: axis={axis} must be between 0 and {c.ndim - 2}")
        if axis:  # (the order and piece axes to the front, as SciPy stores them)
            c = fnp.moveaxis(c, (axis, axis + 1), (0, 1))
        if c.shape[1] != x.shape[0] - 1:
            raise ValueError(f"PPoly: c has {c.shape[1]} pieces but x has {x.shape[0]} "
                             f"breakpoints; give len(x) - 1 pieces")
        if is_concrete(x) and not np.all(np.diff(concrete_values(x, "", "")) >= 0):
            raise ValueError("PPoly: x must be non-decreasing (descending breakpoints are "
                             "not supported; reverse x and the pieces)")
        self._setup(c, x, extrapolate, axis)

    def _setup(self, c, x, extrapolate, axis):
        self._c, self._x = c, x
        self.extrapolate = _check_extrapolate(type(self).__name__, extrapolate)
        self.axis = axis

    @classmethod
    def _from_parts(cls, c, x, extrapolate, axis):
        """A ``PPoly`` of ``c`` already stored ``(k + 1, m, ...)``, unchecked."""
        out = PPoly.__new__(PPoly)
        out._setup(c, x, extrapolate, axis)
        return out

    @property
    def c(self) -> Array:
        """The coefficients, ``(k + 1, len(x) - 1, ...)`` (the highest power first)."""
        return self._c

    @property
    def x(self) -> Array:
        """The breakpoints."""
        return self._x

    def __call__(self, x: ArrayLike, nu: int = 0, extrapolate: Extrapolate = None) -> Array:
        """The ``nu``-th derivative at the points ``x``: shape ``x.shape`` inserted at
        ``axis`` in the trailing shape of ``c``."""
        nu = int(nu)
        if nu < 0:
            raise ValueError(f"{type(self).__name__}: the derivative order nu must be "
                             f"non-negative, got {nu}; use .antiderivative(-nu)")
        extrapolate = (self.extrapolate if extrapolate is None
                       else _check_extrapolate(type(self).__name__, extrapolate))
        breaks, c = self._x, self._c

        def power_basis(piece, t):
            return horner(fnp.take(c, piece, axis=1), t - fnp.take(breaks, piece), nu)
        return evaluate_pieces(breaks, c, self.axis, x, extrapolate, power_basis)

    def derivative(self, nu: int = 1) -> "PPoly":
        """The ``nu``-th derivative as a ``PPoly`` (an antiderivative for ``nu < 0``).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.PPoly(np.array([[1.0], [0.0], [0.0]]), np.array([0.0, 2.0]))
        >>> p.derivative()(np.array([1.0, 2.0]))
        array([2., 4.])
        """
        nu = int(nu)
        if nu < 0:
            return self.antiderivative(-nu)
        c = self._c
        order = c.shape[0] - 1
        if nu > order:
            c = fnp.zeros_like(c[:1])
        elif nu:
            factor = np.array([_falling(order - m, nu) for m in range(order + 1 - nu)])
            c = c[:order + 1 - nu] * fnp.astype(
                fnp.asarray(factor.reshape((-1,) + (1,) * (c.ndim - 1))), c.dtype)
        return PPoly._from_parts(c, self._x, self.extrapolate, self.axis)

    def antiderivative(self, nu: int = 1) -> "PPoly":
        """The ``nu``-th antiderivative as a ``PPoly``: zero at ``x[0]``, with its lower
        derivatives, and continuous.  ``extrapolate='periodic'`` becomes ``False`` (an
        antiderivative of a periodic function need not be periodic), as SciPy's.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.PPoly(np.array([[2.0, 2.0]]), np.array([0.0, 1.0, 2.0]))  # f = 2
        >>> p.antiderivative()(np.array([0.5, 2.0]))
        array([1., 4.])
        """
        nu = int(nu)
        if nu <= 0:
            return self.derivative(-nu)
        c = self._c
        for _ in range(nu):
            c = _integrate_once(c, self._x)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return PPoly._from_parts(c, self._x, extrapolate, self.axis)

    def integrate(self, a: ArrayLike, b: ArrayLike, extrapolate: Extrapolate = None
                  ) -> Array:
        """The definite integral from ``a`` to ``b`` (negative when ``b < a``); shape the
        trailing shape of ``c``.  Outside ``[x[0], x[-1]]`` it extrapolates as
        ``extrapolate`` says (NaN for ``False``).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.PPoly(np.array([[1.0, 1.0], [0.0, 1.0]]), np.array([0.0, 1.0, 2.0]))
        >>> p.integrate(0.0, 2.0)  # t on [0, 1], then 1 + (t - 1)
        np.float64(2.0)
        """
        extrapolate = (self.extrapolate if extrapolate is None
                       else _check_extrapolate(type(self).__name__, extrapolate))
        primitive = PPoly._from_parts(_integrate_once(self._c, self._x), self._x, True, 0)
        a, b = asarray(a), asarray(b)
        dtype = np.result_type(a.dtype, b.dtype, self._c.dtype, np.float32)
        a, b = fnp.astype(a, dtype), fnp.astype(b, dtype)
        if extrapolate != "periodic":
            ends = fnp.stack([a, b])
            values = primitive(ends, extrapolate=extrapolate)
            return values[1] - values[0]
        breaks = self._x
        first, last = breaks[0], breaks[breaks.shape[0] - 1]
        period = last - first
        low, high = fnp.minimum(a, b), fnp.maximum(a, b)
        sign = fnp.where(b < a, -np.ones((), dtype), np.ones((), dtype))
        periods = fnp.floor((high - low) / period)
        rest = (high - low) - periods * period
        start = first + fnp.mod(low - first, period)
        stop = start + rest
        # the rest wraps past the end when stop > last: [start, last] then [first, ...]
        points = fnp.stack([first, last, start, fnp.minimum(stop, last),
                            first + fnp.maximum(stop - last, 0.0)])
        f = primitive(points)
        whole = f[1] - f[0]
        total = periods * whole + (f[3] - f[2]) + (f[4] - f[0])
        return sign * total


def _integrate_once(c, breaks):
    """The coefficients of the antiderivative that is zero at ``breaks[0]`` and
    continuous: each piece's new constant is the sum of the integrals over the pieces
    before it."""
    order = c.shape[0] - 1
    divisors = np.arange(order + 1, 0, -1, dtype=np.float64)
    scaled = c / fnp.astype(fnp.asarray(divisors.reshape((-1,) + (1,) * (c.ndim - 1))),
                            c.dtype)
    higher = fnp.concatenate([scaled, fnp.zeros_like(c[:1])], axis=0)
    across = horner(higher, fnp.diff(breaks))  # (each piece's integral over itself)
    constants = fnp.concatenate([fnp.zeros_like(across[:1]),
                                 fnp.cumsum(across[:-1], axis=0)], axis=0)
    return fnp.concatenate([scaled, constants[None]], axis=0)
