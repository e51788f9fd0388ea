"""Piecewise polynomials in the power basis (``scipy.interpolate.PPoly``), the form the
1-d splines of :mod:`funcgrad.scipy.interpolate` are evaluated in.

``c[m, i]`` multiplies ``(x - breaks[i]) ** (k - m)`` on the piece ``[breaks[i],
breaks[i + 1])``.  A query's piece is a count of the interior breakpoints at or below it
(no derivative; a binary search on known values, comparisons under ``vmap`` and ``jit``);
the value is a Horner sum, differentiable in the query, the coefficients and the
breakpoints.  As a function of a query the result is smooth inside each piece; at a
breakpoint a derivative is the right-hand piece's (the last piece's at the right end).
"""
from math import comb
from typing import Any, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline import BSpline, count_below
from ._ppoly_roots import piecewise_solve

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
        self.extrapolate = extrapolate
        self._axis = axis

    @property
    def extrapolate(self) -> Extrapolate:
        """How points outside ``[x[0], x[-1]]`` evaluate: ``True`` (the end pieces go
        on), ``False`` (NaN) or ``'periodic'``; assignable, as SciPy's."""
        return self._extrapolate

    @extrapolate.setter
    def extrapolate(self, value: Extrapolate) -> None:
        self._extrapolate = _check_extrapolate(type(self).__name__, value)

    @property
    def axis(self) -> int:
        """The axis of the data the interpolation ran along (where a query's axes go in
        the result)."""
        return self._axis

    @axis.setter
    def axis(self, value: int) -> None:
        self._axis = int(value)

    @classmethod
    def construct_fast(cls, c: ArrayLike, x: ArrayLike, extrapolate: Extrapolate = None,
                       axis: int = 0) -> Any:
        """An instance of this class on ``c`` (already ``(k + 1, len(x) - 1, ...)``) and
        ``x`` without the constructor's checks, as SciPy's ``construct_fast``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> fi.PPoly.construct_fast(np.array([[2.0], [1.0]]), np.array([0.0, 1.0]))(0.5)
        array(2.)
        """
        out = cls.__new__(cls)
        out._setup(asarray(c), asarray(x), extrapolate, axis)
        return out

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

    def extend(self, c: ArrayLike, x: ArrayLike) -> None:
        """Add the pieces ``c`` (``(k', m, ...)``) ending at the breakpoints ``x`` (``m``
        of them) to the right of ``x[-1]`` or left of ``x[0]`` (the first new piece starts
        or ends at the old end), in place, as SciPy's; the lower degree is raised.
        Differentiable in the old and new coefficients and breakpoints.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.PPoly(np.array([[1.0], [0.0]]), np.array([0.0, 1.0]))  # t on [0, 1]
        >>> p.extend(np.array([[1.0]]), np.array([2.0]))  # then 1 on [1, 2]
        >>> p(np.array([0.5, 1.5]))
        array([0.5, 1. ])
        """
        self._c, self._x = extended(type(self).__name__, self._c, self._x, c, x,
                                    _zero_padded)

    @classmethod
    def from_spline(cls, tck: Any, extrapolate: Extrapolate = None) -> Any:
        """The piecewise polynomial, in the power basis, of a spline: a :class:`BSpline`
        (funcgrad's) or ``(t, c, k)`` as ``splrep`` returns.  One piece per knot
        interval, ``len(t) - 1`` of them; the coefficients are the spline's derivatives
        at the left knots over ``m!``, so they differentiate in ``t`` and ``c``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> fi.PPoly.from_spline((t, np.array([0.0, 3.0, 1.0]), 1)).c
        array([[ 3.,  3., -2., -2.],
               [ 0.,  0.,  3.,  1.]])
        """
        if isinstance(tck, BSpline):
            t, c, k = tck.t, tck.c, tck.k
            if extrapolate is None:
                extrapolate = tck.extrapolate
        else:
            try:
                t, c, k = tck
            except (TypeError, ValueError):
                raise TypeError(f"{cls.__name__}.from_spline: tck must be a BSpline or a "
                                f"(t, c, k) tuple, got {type(tck).__name__}") from None
            t, c, k = asarray(t), asarray(c), int(k)
        spline = BSpline(t, c, k)
        left = spline.t[:spline.t.shape[0] - 1]
        rows = []
        factorial = 1.0
        for m in range(k + 1):  # (row k - m holds the m-th derivative over m!)
            factorial *= max(m, 1)
            rows.append(spline(left, nu=m) / factorial)
        return cls.construct_fast(fnp.stack(rows[::-1]), spline.t, extrapolate)

    @classmethod
    def from_bernstein_basis(cls, bp: Any, extrapolate: Extrapolate = None) -> Any:
        """The same piecewise polynomial as the :class:`BPoly` ``bp``, in the power
        basis (SciPy's ``from_bernstein_basis``); differentiable in ``bp``'s coefficients
        and breakpoints.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> b = fi.BPoly(np.array([[0.0], [0.0], [1.0]]), np.array([0.0, 2.0]))  # (t/2)**2
        >>> fi.PPoly.from_bernstein_basis(b).c[:, 0]
        array([0.25, 0.  , 0.  ])
        """
        if not any(k.__name__ == "BPoly" for k in type(bp).__mro__):
            raise TypeError(f".from_bernstein_basis only accepts BPoly instances. Got "
                            f"{type(bp)} instead.")
        coeffs, breaks = asarray(bp.c), asarray(bp.x)
        width = fnp.reshape(fnp.diff(breaks), (-1,) + (1,) * (coeffs.ndim - 2))
        k = coeffs.shape[0] - 1
        rows: list = [None] * (k + 1)
        for a in range(k + 1):
            factor = (-1) ** a * comb(k, a) * coeffs[a]
            for step in range(a, k + 1):
                term = factor * (comb(k - a, step - a) * (-1) ** step) / width ** step
                rows[k - step] = term if rows[k - step] is None else rows[k - step] + term
        if extrapolate is None:
            extrapolate = bp.extrapolate
        return cls.construct_fast(fnp.stack(rows), breaks, extrapolate, bp.axis)

    def solve(self, y: ArrayLike = 0.0, discontinuity: bool = True,
              extrapolate: Extrapolate = None) -> Any:
        """The real ``x`` with ``p(x) = y`` (SciPy's values): a 1-d array, or an object
        array of them for each trailing element of ``c``.  An identically-``y`` piece
        gives its left end and NaN; with ``discontinuity`` a breakpoint where ``p`` jumps
        across ``y`` counts.  Differentiable in the coefficients, the breakpoints and
        ``y`` by the implicit function theorem (``dx = -(dp - dy) / p'(x)``); a double
        root (``p' = 0``) raises when differentiated.  Needs known values: not under
        ``jit``/``vmap``.

        >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
        >>> x = np.array([0.0, 1.0, 2.0])
        >>> fi.PPoly(np.array([[1.0, 1.0], [0.0, 1.0]]), x).solve(1.5)
        array([1.5])
        >>> fg.grad(lambda y: fi.PPoly(np.array([[1.0, 1.0], [0.0, 1.0]]), x).solve(y)[0])(1.5)
        np.float64(1.0)
        """
        extrapolate = self.extrapolate if extrapolate is None else extrapolate
        return piecewise_solve(f"{type(self).__name__}.solve", self._c, self._x, y,
                               discontinuity, extrapolate)

    def roots(self, discontinuity: bool = True, extrapolate: Extrapolate = None) -> Any:
        """The real zeros, ``solve(0.0, discontinuity, extrapolate)``: SciPy's values,
        differentiable in the coefficients and breakpoints (see :meth:`solve`).

        >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
        >>> import funcgrad.scipy.interpolate as fi
        >>> x = np.array([0.0, 3.0])
        >>> def root(a):  # t**2 - a on [0, 3]: the root sqrt(a), slope 1 / (2 sqrt(a))
        ...     p = fi.PPoly(fnp.stack([1.0, 0.0, -a])[:, None], x)
        ...     return p.roots(extrapolate=False)[0]
        >>> float(root(4.0)), float(fg.grad(root)(4.0))
        (2.0, 0.25)
        """
        extrapolate = self.extrapolate if extrapolate is None else extrapolate
        return piecewise_solve(f"{type(self).__name__}.roots", self._c, self._x, 0.0,
                               discontinuity, extrapolate)


def _zero_padded(c, order):
    """``c`` (power basis) as ``order`` coefficients: zeros for the missing highest powers."""
    pad = order - c.shape[0]
    if not pad:
        return c
    return fnp.concatenate([fnp.zeros((pad,) + tuple(c.shape[1:]), c.dtype), c], axis=0)


def extended(name, old_c, old_x, c, x, raised):
    """``(c, x)`` of the piecewise polynomial ``old_c`` on ``old_x`` with the pieces ``c``
    ending at the breakpoints ``x`` added on the right or the left (SciPy's ``extend``);
    ``raised(coeffs, order)`` gives ``coeffs`` as ``order`` coefficients."""
    c, x = asarray(c), asarray(x)
    if c.ndim < 2:
        raise ValueError(f"{name}.extend: invalid dimensions for c (give (k, m, ...))")
    if x.ndim != 1:
        raise ValueError(f"{name}.extend: invalid dimensions for x (give a 1-d array)")
    if x.shape[0] != c.shape[1]:
        raise ValueError(f"{name}.extend: shapes of x {tuple(x.shape)} and c "
                         f"{tuple(c.shape)} are incompatible")
    if tuple(c.shape[2:]) != tuple(old_c.shape[2:]):
        raise ValueError(f"{name}.extend: shapes of c {tuple(c.shape)} and self.c "
                         f"{tuple(old_c.shape)} are incompatible")
    if x.shape[0] == 0:
        return old_c, old_x
    fix = "Extend outside jit and vmap, where the breakpoints are known"
    new = concrete_values(x, f"{name}.extend (where the pieces go)", fix)
    old = concrete_values(old_x, f"{name}.extend (where the pieces go)", fix)
    if not np.all(np.diff(new) >= 0):
        raise ValueError(f"{name}.extend: `x` is not sorted (give ascending breakpoints, "
                         f"as self.x ascends)")
    if new[0] >= old[-1]:
        append = True
    elif new[-1] <= old[0]:
        append = False
    else:
        raise ValueError(f"{name}.extend: `x` is neither on the left or on the right from "
                         f"`self.x`.")
    dtype = np.result_type(old_c.dtype, c.dtype, np.float32)
    if x.dtype != old_x.dtype:
        x = fnp.astype(x, old_x.dtype)
    order = max(c.shape[0], old_c.shape[0])
    pieces = [raised(fnp.astype(old_c, dtype), order), raised(fnp.astype(c, dtype), order)]
    breaks = [old_x, x]
    if not append:
        pieces, breaks = pieces[::-1], breaks[::-1]
    return fnp.concatenate(pieces, axis=1), fnp.concatenate(breaks)


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
