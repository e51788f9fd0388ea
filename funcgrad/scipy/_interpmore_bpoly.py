"""Piecewise polynomials in the Bernstein basis (``scipy.interpolate.BPoly``).

On the piece ``[x[i], x[i + 1]]`` the value is ``sum_a c[a, i] binom(k, a) s**a (1 -
s)**(k - a)`` with ``s = (t - x[i]) / (x[i + 1] - x[i])``.  Derivatives, antiderivatives
and the construction from derivatives at the breakpoints (Hermite data) are SciPy's
formulas on the coefficients, written with array operations: everything differentiates
in the coefficients, the breakpoints, the derivative data and the query points.
"""
from math import comb, factorial
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._ppoly import PPoly, _check_extrapolate, evaluate_pieces, extended

__all__ = ["BPoly"]


def _rising(a, q):
    """``a (a + 1) ... (a + q - 1)`` (Pochhammer's symbol)."""
    return factorial(a + q - 1) // factorial(a - 1) if q else 1


def _broadcast(row, ndim):
    return fnp.reshape(row, (1,) + tuple(row.shape) + (1,) * (ndim - 2))


class BPoly:
    """A piecewise polynomial in the Bernstein basis (``scipy.interpolate.BPoly``): ``c``
    of shape ``(k + 1, len(x) - 1, ...)`` (the two lead axes at ``axis`` and ``axis + 1``
    with ``axis``), ``x`` ascending breakpoints, ``extrapolate`` ``True`` (the end
    pieces go on), ``False`` (NaN outside) or ``'periodic'``.  Differentiable in ``c``,
    ``x`` and the query points.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> b = fi.BPoly(np.array([[1.0], [2.0], [3.0]]), np.array([0.0, 1.0]))
    >>> b(np.array([0.0, 0.5, 1.0]))  # (1 - s)**2 + 4 s (1 - s) + 3 s**2
    array([1., 2., 3.])
    """

    def __init__(self, c: ArrayLike, x: ArrayLike, extrapolate: Any = None,
                 axis: int = 0) -> None:
        c, x = asarray(c), asarray(x)
        if c.dtype.kind in "biu":
            c = fnp.astype(c, np.float64)
        if x.dtype.kind in "biu":
            x = fnp.astype(x, np.float64)
        if x.ndim != 1 or x.shape[0] < 2:
            raise ValueError(f"BPoly: x must be 1-d with at least 2 breakpoints, got shape "
                             f"{tuple(x.shape)}")
        if c.ndim < 2:
            raise ValueError("BPoly: c must have at least 2 dimensions, (k + 1, len(x) - 1)")
        if not 0 <= axis < c.ndim - 1:
            raise ValueError(f"BPoly: axis={axis} must be between 0 and {c.ndim - 2}")
        if axis:
            c = fnp.moveaxis(c, (axis, axis + 1), (0, 1))
        if c.shape[1] != x.shape[0] - 1:
            raise ValueError(f"BPoly: c has {c.shape[1]} pieces but x has {x.shape[0]} "
                             f"breakpoints; give len(x) - 1 pieces")
        if is_concrete(x) and not np.all(np.diff(concrete_values(x, "", "")) >= 0):
            raise ValueError("BPoly: x must be non-decreasing (descending breakpoints are "
                             "not supported; reverse x and the pieces)")
        self._c, self._x = c, x
        self.extrapolate = extrapolate
        self.axis = axis

    @property
    def extrapolate(self) -> Any:
        """How points outside ``[x[0], x[-1]]`` evaluate: ``True`` (the end pieces go
        on), ``False`` (NaN) or ``'periodic'``; assignable, as SciPy's."""
        return self._extrapolate

    @extrapolate.setter
    def extrapolate(self, value: Any) -> None:
        self._extrapolate = _check_extrapolate("BPoly", value)

    @property
    def axis(self) -> int:
        """The axis of ``c`` the pieces ran along (where a query's axes go in the
        result)."""
        return self._axis

    @axis.setter
    def axis(self, value: int) -> None:
        self._axis = int(value)

    def extend(self, c: ArrayLike, x: ArrayLike) -> None:
        """Add the Bernstein pieces ``c`` (``(k', m, ...)``) ending at the breakpoints
        ``x`` to the right of ``x[-1]`` or left of ``x[0]``, in place, as SciPy's: the
        lower degree is raised to the higher.  Differentiable in everything.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> b = fi.BPoly(np.array([[0.0], [1.0]]), np.array([0.0, 1.0]))  # t on [0, 1]
        >>> b.extend(np.array([[1.0], [1.0], [3.0]]), np.array([2.0]))
        >>> b(np.array([0.5, 1.5, 2.0]))
        array([0.5, 1.5, 3. ])
        """
        self._c, self._x = extended("BPoly", self._c, self._x, c, x,
                                    lambda coeffs, order: _raise_degree(
                                        coeffs, order - coeffs.shape[0]))

    @classmethod
    def construct_fast(cls, c: ArrayLike, x: ArrayLike, extrapolate: Any = None,
                       axis: int = 0) -> "BPoly":
        """A ``BPoly`` of ``c`` already stored ``(k + 1, m, ...)``, unchecked (SciPy's).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> fi.BPoly.construct_fast(np.ones((1, 1)), np.array([0.0, 1.0]))(0.5)
        array(1.)
        """
        out = cls.__new__(cls)
        out._c, out._x = asarray(c), asarray(x)
        out.extrapolate = extrapolate
        out.axis = axis
        return out

    @property
    def c(self) -> Array:
        """The Bernstein coefficients, ``(k + 1, len(x) - 1, ...)``."""
        return self._c

    @property
    def x(self) -> Array:
        """The breakpoints."""
        return self._x

    def __call__(self, x: ArrayLike, nu: int = 0, extrapolate: Any = None) -> Array:
        """The ``nu``-th derivative at the points ``x``: shape ``x.shape`` inserted at
        ``axis`` in the trailing shape of ``c``."""
        nu = int(nu)
        if nu < 0:
            raise ValueError(f"BPoly: the derivative order nu must be non-negative, got "
                             f"{nu}; use .antiderivative(-nu)")
        poly = self.derivative(nu) if nu else self
        extrapolate = (self.extrapolate if extrapolate is None
                       else _check_extrapolate("BPoly", extrapolate))
        breaks, c = poly._x, poly._c
        k = c.shape[0] - 1

        def bernstein(piece, t):
            low = fnp.take(breaks, piece)
            s = (t - low) / (fnp.take(breaks, piece + 1) - low)
            local = fnp.take(c, piece, axis=1)  # (k + 1, q, ...)
            s = fnp.astype(fnp.reshape(s, s.shape + (1,) * (c.ndim - 2)), c.dtype)
            out: Any = None
            for a in range(k + 1):
                term = local[a] * comb(k, a) * s ** a * (1 - s) ** (k - a)
                out = term if out is None else out + term
            return out
        return evaluate_pieces(breaks, c, self.axis, x, extrapolate, bernstein)

    def derivative(self, nu: int = 1) -> "BPoly":
        """The ``nu``-th derivative, a ``BPoly`` of degree ``k - nu`` (``k (c[a + 1] -
        c[a]) / (x[i + 1] - x[i])``, repeated); ``nu < 0`` is the antiderivative.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> b = fi.BPoly(np.array([[1.0], [2.0], [3.0]]), np.array([0.0, 1.0]))
        >>> b.derivative()(np.array([0.0, 1.0]))
        array([2., 2.])
        """
        nu = int(nu)
        if nu < 0:
            return self.antiderivative(-nu)
        c = self._c
        for _ in range(nu):
            k = c.shape[0] - 1
            if k == 0:
                c = fnp.zeros_like(c)
                continue
            width = fnp.astype(_broadcast(fnp.diff(self._x), c.ndim), c.dtype)
            c = k * fnp.diff(c, axis=0) / width
        return BPoly.construct_fast(c, self._x, self.extrapolate, self.axis)

    def antiderivative(self, nu: int = 1) -> "BPoly":
        """The ``nu``-th antiderivative: zero at ``x[0]`` and continuous, a ``BPoly`` of
        degree ``k + nu`` (``'periodic'`` becomes ``False``, as SciPy's).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> b = fi.BPoly(np.array([[2.0, 2.0]]), np.array([0.0, 1.0, 2.0]))  # f = 2
        >>> b.antiderivative()(np.array([0.5, 2.0]))
        array([1., 4.])
        """
        nu = int(nu)
        if nu <= 0:
            return self.derivative(-nu)
        c = self._c
        for _ in range(nu):
            k = c.shape[0]
            width = fnp.astype(_broadcast(fnp.diff(self._x), c.ndim), c.dtype)
            c = fnp.concatenate([fnp.zeros_like(c[:1]), fnp.cumsum(c, axis=0) / k]) * width
            # (each piece starts where the one before ended: its last coefficient)
            ends = fnp.cumsum(c[k], axis=0)
            start = fnp.concatenate([fnp.zeros_like(ends[:1]), ends[:-1]])
            c = c + start[None]
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return BPoly.construct_fast(c, self._x, extrapolate, self.axis)

    def integrate(self, a: ArrayLike, b: ArrayLike, extrapolate: Any = None) -> Array:
        """The integral from ``a`` to ``b`` (NaN outside with ``extrapolate=False``);
        ``'periodic'`` raises ``NotImplementedError``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> b = fi.BPoly(np.array([[1.0], [2.0], [3.0]]), np.array([0.0, 1.0]))
        >>> b.integrate(0.0, 1.0)  # (the mean of the coefficients times the width)
        array(2.)
        """
        extrapolate = (self.extrapolate if extrapolate is None
                       else _check_extrapolate("BPoly", extrapolate))
        if extrapolate == "periodic":
            raise NotImplementedError("BPoly.integrate: extrapolate='periodic' is not "
                                      "implemented; integrate whole periods and the rest "
                                      "with extrapolate=True")
        whole = self.antiderivative()
        ends = fnp.stack([asarray(a), asarray(b)])
        if ends.dtype.kind in "biu":
            ends = fnp.astype(ends, np.float64)
        values = BPoly.construct_fast(whole._c, whole._x, extrapolate, 0)(ends)
        return fnp.asarray(values[1] - values[0])

    @classmethod
    def from_power_basis(cls, pp: PPoly, extrapolate: Any = None) -> "BPoly":
        """The same piecewise polynomial as the :class:`PPoly` ``pp``, in the Bernstein
        basis (``BPoly.from_power_basis``).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> pp = fi.PPoly(np.array([[1.0], [0.0], [0.0]]), np.array([0.0, 1.0]))  # t**2
        >>> fi.BPoly.from_power_basis(pp).c[:, 0]
        array([0., 0., 1.])
        """
        c_pp = pp.c
        width = _broadcast(fnp.diff(pp.x), c_pp.ndim)[0]
        k = c_pp.shape[0] - 1
        rows: list = [None] * (k + 1)
        for a in range(k + 1):
            factor = c_pp[a] / comb(k, k - a) * fnp.astype(width ** (k - a), c_pp.dtype)
            for j in range(k - a, k + 1):
                term = factor * comb(j, k - a)
                rows[j] = term if rows[j] is None else rows[j] + term
        extrapolate = pp.extrapolate if extrapolate is None else extrapolate
        return cls.construct_fast(fnp.stack(rows), pp.x, extrapolate, pp.axis)

    @classmethod
    def from_derivatives(cls, xi: ArrayLike, yi: Sequence[ArrayLike],
                         orders: Any = None, extrapolate: Any = None) -> "BPoly":
        """The piecewise polynomial with the given values and derivatives at the
        breakpoints (``BPoly.from_derivatives``): ``yi[i]`` is ``[f(x_i), f'(x_i),
        ...]`` (as many as given, or as ``orders`` asks); each piece has the least
        degree that matches both ends.  Differentiable in ``xi`` and ``yi``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> b = fi.BPoly.from_derivatives(np.array([0.0, 1.0]), [[0.0, 1.0], [1.0, 1.0]])
        >>> b(np.array([0.25, 0.5]))  # (f = x: value and slope 1 at both ends)
        array([0.25, 0.5 ])
        """
        xi = asarray(xi)
        if xi.dtype.kind in "biu":
            xi = fnp.astype(xi, np.float64)
        if xi.shape[0] != len(yi):
            raise ValueError("BPoly.from_derivatives: xi and yi need to have the same "
                             "length")
        if is_concrete(xi) and np.any(np.diff(concrete_values(xi, "", "")) <= 0):
            raise ValueError("BPoly.from_derivatives: x coordinates are not in increasing "
                             "order")
        ys = []
        for y in yi:
            y = asarray(y)
            if y.ndim == 0:
                raise ValueError("BPoly.from_derivatives: Using a 1-D array for y? Please "
                                 ".reshape(-1, 1).")
            ys.append(fnp.astype(y, np.float64) if y.dtype.kind in "biu" else y)
        m = xi.shape[0] - 1
        k = max(ys[i].shape[0] + ys[i + 1].shape[0] for i in range(m))
        if orders is None:
            orders = [None] * m
        else:
            if isinstance(orders, (int, np.integer)):
                orders = [orders] * m
            k = max(k, max(orders))
            if any(o <= 0 for o in orders):
                raise ValueError("BPoly.from_derivatives: Orders must be positive.")
        pieces = []
        for i in range(m):
            y1, y2 = ys[i], ys[i + 1]
            if orders[i] is None:
                n1, n2 = y1.shape[0], y2.shape[0]
            else:  # (SciPy's split of the order between the two ends, as SciPy does it)
                n = orders[i] + 1
                n1 = min(n // 2, y1.shape[0])
                n2 = min(n - n1, y2.shape[0])
                n1 = min(n - n2, y2.shape[0])
                if n1 + n2 != n:
                    raise ValueError(f"BPoly.from_derivatives: Point {i} has "
                                     f"{y1.shape[0]} derivatives, point {i + 1} has "
                                     f"{y2.shape[0]} derivatives, but order {orders[i]} "
                                     f"requested")
                if not (n1 <= y1.shape[0] and n2 <= y2.shape[0]):
                    raise ValueError("BPoly.from_derivatives: `order` input incompatible "
                                     "with length y1 or y2.")
            b = _from_end_derivatives(xi[i], xi[i + 1], y1[:n1], y2[:n2])
            if b.shape[0] < k:
                b = _raise_degree(b, k - b.shape[0])
            pieces.append(b)
        return cls(fnp.stack(pieces, axis=1), xi, extrapolate)


def _from_end_derivatives(xa, xb, ya, yb):
    """The Bernstein coefficients of the polynomial of degree ``len(ya) + len(yb) - 1``
    on ``[xa, xb]`` with the derivatives ``ya`` at ``xa`` and ``yb`` at ``xb``."""
    if tuple(ya.shape[1:]) != tuple(yb.shape[1:]):
        raise ValueError("BPoly.from_derivatives: Shapes of ya and yb are not "
                         "compatible.")
    dtype = np.result_type(ya.dtype, yb.dtype, np.float64)
    ya, yb = fnp.astype(ya, dtype), fnp.astype(yb, dtype)
    width = fnp.astype(xb - xa, dtype)
    na, nb = ya.shape[0], yb.shape[0]
    n = na + nb
    c = [None] * n
    for q in range(na):  # (the q-th derivative at xa fixes c[q] given c[:q])
        value = ya[q] / _rising(n - q, q) * width ** q
        for j in range(q):
            value = value - (-1) ** (j + q) * comb(q, j) * c[j]
        c[q] = value
    for q in range(nb):  # (and at xb, c[n - 1 - q] given the ones after it)
        value = yb[q] / _rising(n - q, q) * (-1) ** q * width ** q
        for j in range(q):
            value = value - (-1) ** (j + 1) * comb(q, j + 1) * c[n - q + j]
        c[n - 1 - q] = value
    return fnp.stack(c)


def _raise_degree(c, d):
    """The same polynomial's Bernstein coefficients ``d`` degrees higher."""
    k = c.shape[0] - 1
    out = [None] * (k + d + 1)
    for a in range(k + 1):
        f = c[a] * comb(k, a)
        for j in range(d + 1):
            term = f * comb(d, j) / comb(k + d, a + j)
            out[a + j] = term if out[a + j] is None else out[a + j] + term
    return fnp.stack([fnp.zeros_like(c[0]) if v is None else v for v in out])

