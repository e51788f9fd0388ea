"""Tensor-product splines and piecewise polynomials in ``N`` dimensions
(``scipy.interpolate.NdBSpline`` and ``NdPPoly``).

A value is a sum over the ``prod(k_d + 1)`` coefficients alive at the query: along each
dimension the query's knot interval (or piece) is a count of the knots below it (no
derivative), and its weights are the 1-d B-splines (de Boor's recurrence, as
:class:`BSpline`) or the powers ``(x_d - x_d[i])**m``; the coefficients are gathered by
their flat index.  So both are differentiable in the coefficients, the query points and
the knots (breakpoints), and work under ``vmap`` and ``jit``.
"""
import itertools
import operator
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline import BSpline, basis, knot_interval
from ._ppoly import PPoly, piece_index

__all__ = ["NdBSpline", "NdPPoly"]


def _float(a: Any) -> Array:
    a = asarray(a)
    return fnp.astype(a, np.float64) if a.dtype.kind in "biu" else a


def _points(name, xi, ndim):
    """``xi`` as ``(npts, ndim)`` and the batch shape ``xi.shape[:-1]``."""
    xi = _float(xi)
    if xi.ndim == 0 or xi.shape[-1] != ndim:
        raise ValueError(f"{name}: Shapes: xi.shape={tuple(xi.shape)} and ndim={ndim}; "
                         f"give points of shape (..., {ndim})")
    return fnp.reshape(xi, (-1, ndim)), tuple(xi.shape[:-1])


def _gather_sum(c, counts, parts, npts):
    """``sum over the alive corners of c[i_0 + r_0, ...] * prod_d weight_d[r_d]``:
    ``parts[d]`` is ``(first, weights)``, the first alive index along ``d`` per point and
    the list of that dimension's weights (``(npts,)`` each); ``c`` is ``(*counts, ...)``."""
    ndim = len(counts)
    flat = fnp.reshape(c, (int(np.prod(counts)), -1))
    strides = [int(np.prod(counts[d + 1:])) for d in range(ndim)]
    out: Any = None
    for corner in itertools.product(*(range(len(w)) for _, w in parts)):
        index = sum((first + r) * stride for (first, _), r, stride
                    in zip(parts, corner, strides))
        weight = None
        for (_, w), r in zip(parts, corner):
            weight = w[r] if weight is None else weight * w[r]
        term = fnp.take(flat, index, axis=0) * fnp.astype(weight, flat.dtype)[:, None]
        out = term if out is None else out + term
    return fnp.reshape(out, (npts,) + tuple(c.shape[ndim:]))


def _outside_to_nan(out, xi, lows, highs):
    outside = None
    for d, (low, high) in enumerate(zip(lows, highs)):
        here = fnp.logical_or(xi[:, d] < low, xi[:, d] > high)
        outside = here if outside is None else fnp.logical_or(outside, here)
    mask = fnp.reshape(outside, outside.shape + (1,) * (out.ndim - 1))
    return fnp.where(mask, fnp.astype(fnp.asarray(np.nan), out.dtype), out)


def _orders(name, nu, ndim, what="derivative orders"):
    nu = np.zeros(ndim, np.int64) if nu is None else np.asarray(nu, dtype=np.int64)
    if nu.ndim != 1 or nu.shape[0] != ndim:
        raise ValueError(f"{name}: invalid number of {what} nu = {nu.tolist()} for "
                         f"ndim = {ndim}; give one order per dimension")
    return nu


class NdBSpline:
    """A tensor-product spline (``scipy.interpolate.NdBSpline``): the sum over the
    multi-indices ``i`` of ``c[i] * prod_d B(x_d; i_d, t_d)``, ``t`` a tuple of ``N`` knot
    vectors,
    ``c`` of shape ``(n_1, ..., n_N, ...)`` (``n_d = len(t_d) - k_d - 1``), ``k`` one
    degree or one per dimension.  Calling it at ``xi`` (``(..., N)``) evaluates (``nu``:
    partial derivative orders); :meth:`derivative` and :meth:`design_matrix` as SciPy's.
    Differentiable in ``c``, ``t`` and ``xi``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])  # (degree 1: bilinear on a 3 x 3 grid)
    >>> c = np.add.outer(np.arange(3.0), 10 * np.arange(3.0))
    >>> spl = fi.NdBSpline((t, t), c, 1)
    >>> spl(np.array([[0.5, 1.5], [2.0, 0.0]]))
    array([15.5,  2. ])
    >>> fg.grad(lambda x: spl(x))(np.array([0.5, 1.5]))
    array([ 1., 10.])
    """

    def __init__(self, t: Sequence[ArrayLike], c: ArrayLike, k: Any, *,
                 extrapolate: Optional[bool] = None) -> None:
        self._t, self._k = _knots_and_degrees("NdBSpline", t, k)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        c = _float(c)
        ndim = len(self._t)
        if c.ndim < ndim:
            raise ValueError(f"NdBSpline: Coefficients must be at least {ndim}-dimensional.")
        for d in range(ndim):
            n = self._t[d].shape[0] - self._k[d] - 1
            if c.shape[d] != n:
                raise ValueError(f"NdBSpline: Knots, coefficients and degree in dimension "
                                 f"{d} are inconsistent: got {c.shape[d]} coefficients "
                                 f"for {self._t[d].shape[0]} knots, need at least {n} "
                                 f"for k={self._k[d]}.")
        self._c = c

    @property
    def t(self) -> Tuple[Array, ...]:
        """The knot vectors, one per dimension."""
        return self._t

    @property
    def k(self) -> Tuple[int, ...]:
        """The degrees, one per dimension."""
        return self._k

    @property
    def c(self) -> Array:
        """The coefficients ``(n_1, ..., n_N, ...)``."""
        return self._c

    def __call__(self, xi: ArrayLike, *, nu: Any = None,
                 extrapolate: Optional[bool] = None) -> Array:
        """The spline (or its partial derivative of orders ``nu``, one per dimension) at
        the points ``xi`` (``(..., N)``): shape ``xi.shape[:-1] + c.shape[N:]``; NaN
        outside the base box with ``extrapolate=False``."""
        ndim = len(self._t)
        nu = _orders("NdBSpline", nu, ndim)
        if np.any(nu < 0):
            raise ValueError(f"NdBSpline: derivatives must be positive, got nu = "
                             f"{nu.tolist()}")
        spline = self.derivative(nu) if np.any(nu) else self
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        flat, batch = _points("NdBSpline", xi, ndim)
        counts, parts, lows, highs = [], [], [], []
        for d, (t, k) in enumerate(zip(spline._t, spline._k)):
            count = t.shape[0] - k - 1
            x = fnp.astype(flat[:, d], t.dtype) if flat.dtype != t.dtype else flat[:, d]
            interval = knot_interval(t, k, count, x)
            parts.append((interval - k, basis(t, k, x, interval)))
            counts.append(count)
            lows.append(t[k])
            highs.append(t[count])
        out = _gather_sum(spline._c, counts, parts, flat.shape[0])
        if not extrapolate:
            out = _outside_to_nan(out, flat, lows, highs)
        return fnp.reshape(out, batch + tuple(spline._c.shape[ndim:]))

    def derivative(self, nu: Any) -> "NdBSpline":
        """The partial derivative of orders ``nu`` (one per dimension), an
        ``NdBSpline`` of degrees ``k - nu`` (a derivative past a degree is zero, of
        degree 0 on the same knots, as SciPy's).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> c = np.add.outer(np.arange(3.0), 10 * np.arange(3.0))
        >>> fi.NdBSpline((t, t), c, 1).derivative([0, 1])(np.array([0.5, 0.5]))
        array(10.)
        """
        ndim = len(self._t)
        nu = _orders("NdBSpline", nu, ndim)
        if np.any(nu < 0):
            raise ValueError(f"NdBSpline: derivative orders must be positive, got nu = "
                             f"{nu.tolist()}")
        t, k, c = list(self._t), list(self._k), self._c
        for axis, n in enumerate(nu.tolist()):
            if n == 0:
                continue
            moved = fnp.moveaxis(c, axis, 0)
            trailing = tuple(moved.shape[1:])
            if k[axis] >= n:
                along = BSpline(t[axis], fnp.reshape(moved, (moved.shape[0], -1)),
                                k[axis]).derivative(n)
                new_c = along.c[:along.t.shape[0] - along.k - 1]
                t[axis] = along.t
            else:  # (zero, of degree 0 on the same knots)
                size = int(np.prod(trailing))
                new_c = fnp.zeros((t[axis].shape[0] - 1, size), c.dtype)
            c = fnp.moveaxis(fnp.reshape(new_c, (new_c.shape[0],) + trailing), 0, axis)
            k[axis] = max(k[axis] - n, 0)
        return NdBSpline(tuple(t), c, tuple(k), extrapolate=self.extrapolate)

    @classmethod
    def design_matrix(cls, xvals: ArrayLike, t: Sequence[ArrayLike], k: Any,
                      extrapolate: bool = True) -> Array:
        """The B-spline products at the points ``xvals`` (``(npts, N)``): row ``j``
        holds every product ``prod_d B(x_d; i_d)`` at point ``j``, the coefficients'
        order flattened (C order), ``(npts, prod(n_d))``.  A dense array (funcgrad has
        no sparse arrays; SciPy's is a CSR array, whose ``toarray()`` this equals), so
        differentiable in ``xvals`` and ``t``.  Points outside the box take the end
        pieces, as SciPy's.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 1.0])
        >>> fi.NdBSpline.design_matrix(np.array([[0.25, 0.5]]), (t, t), 1)
        array([[0.375, 0.375, 0.125, 0.125]])
        """
        knots, degrees = _knots_and_degrees("NdBSpline.design_matrix", t, k)
        xvals = _float(xvals)
        if xvals.ndim != 2 or xvals.shape[1] != len(knots):
            raise ValueError(f"NdBSpline.design_matrix: Data and knots are inconsistent: "
                             f"len(t) = {len(knots)} for xvals of shape "
                             f"{tuple(xvals.shape)}; give (npts, {len(knots)})")
        counts = tuple(v.shape[0] - kd - 1 for v, kd in zip(knots, degrees))
        size = int(np.prod(counts))
        dtype = np.result_type(xvals.dtype, *(v.dtype for v in knots))
        identity = fnp.reshape(fnp.eye(size, dtype=dtype), counts + (size,))
        return cls(knots, identity, degrees)(xvals)


def _knots_and_degrees(name, t, k):
    if not isinstance(t, tuple):
        raise ValueError(f"{name}: Expect `t` to be a tuple of array-likes. Got {t} "
                         f"instead.")
    ndim = len(t)
    degrees = tuple(operator.index(v) for v in k) if np.ndim(k) else (operator.index(k),) * ndim
    if len(degrees) != ndim:
        raise ValueError(f"{name}: len(t) = {ndim} != len(k) = {len(degrees)}.")
    knots = []
    for d, (td, kd) in enumerate(zip(t, degrees)):
        td = _float(td)
        if kd < 0:
            raise ValueError(f"{name}: Spline degree in dimension {d} cannot be negative.")
        if td.ndim != 1:
            raise ValueError(f"{name}: Knot vector in dimension {d} must be "
                             f"one-dimensional.")
        n = td.shape[0] - kd - 1
        if n < kd + 1:
            raise ValueError(f"{name}: Need at least {2 * kd + 2} knots for degree {kd} "
                             f"in dimension {d}.")
        if is_concrete(td):
            values = concrete_values(td, "", "")
            if np.any(np.diff(values) < 0):
                raise ValueError(f"{name}: Knots in dimension {d} must be in a "
                                 f"non-decreasing order.")
            if len(np.unique(values[kd:n + 1])) < 2:
                raise ValueError(f"{name}: Need at least two internal knots in "
                                 f"dimension {d}.")
            if not np.all(np.isfinite(values)):
                raise ValueError(f"{name}: Knots in dimension {d} should not have nans "
                                 f"or infs.")
        knots.append(td)
    return tuple(knots), degrees


class NdPPoly:
    """A piecewise tensor-product polynomial (``scipy.interpolate.NdPPoly``): on the box
    ``[x_0[i_0], x_0[i_0 + 1]) x ...`` the value is ``sum c[k_0 - 1 - m_0, ..., i_0,
    ...] (x'_0 - x_0[i_0])**m_0 ...``; ``c`` of shape ``(k_0, ..., k_n, m_0, ..., m_n,
    ...)``, ``x`` a tuple of ascending breakpoint arrays.  ``__call__`` (``nu``),
    :meth:`derivative`, :meth:`antiderivative`, :meth:`integrate_1d` and
    :meth:`integrate` as SciPy's; differentiable in ``c``, ``x`` and the points.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> c = np.zeros((2, 2, 1, 1)); c[0, 0, 0, 0] = 1.0  # (one piece: x * y)
    >>> p = fi.NdPPoly(c, (np.array([0.0, 2.0]), np.array([0.0, 3.0])))
    >>> p(np.array([[1.0, 2.0], [2.0, 3.0]]))
    array([2., 6.])
    >>> p.integrate([(0.0, 2.0), (0.0, 3.0)])
    array(9.)
    """

    def __init__(self, c: ArrayLike, x: Sequence[ArrayLike],
                 extrapolate: Optional[bool] = None) -> None:
        self.x = tuple(_float(v) for v in x)
        c = _float(c)
        self.extrapolate = True if extrapolate is None else bool(extrapolate)
        ndim = len(self.x)
        if any(v.ndim != 1 for v in self.x):
            raise ValueError("NdPPoly: x arrays must all be 1-dimensional")
        if any(v.shape[0] < 2 for v in self.x):
            raise ValueError("NdPPoly: x arrays must all contain at least 2 points")
        if c.ndim < 2 * ndim:
            raise ValueError("NdPPoly: c must have at least 2*len(x) dimensions")
        if any(is_concrete(v) and np.any(np.diff(concrete_values(v, "", "")) < 0)
               for v in self.x):
            raise ValueError("NdPPoly: x-coordinates are not in increasing order")
        if any(a != b.shape[0] - 1 for a, b in zip(c.shape[ndim:2 * ndim], self.x)):
            raise ValueError("NdPPoly: x and c do not agree on the number of intervals")
        self.c = c

    @classmethod
    def construct_fast(cls, c: ArrayLike, x: Sequence[ArrayLike],
                       extrapolate: Optional[bool] = None) -> "NdPPoly":
        """The piecewise polynomial without the checks (as SciPy's).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.NdPPoly.construct_fast(np.ones((1, 1)), (np.array([0.0, 1.0]),))
        >>> p(np.array([[0.5]]))
        array([1.])
        """
        self = object.__new__(cls)
        self.c, self.x = asarray(c), tuple(asarray(v) for v in x)
        self.extrapolate = True if extrapolate is None else extrapolate
        return self

    def __call__(self, x: ArrayLike, nu: Any = None,
                 extrapolate: Optional[bool] = None) -> Array:
        """The polynomial (or its partial derivative of orders ``nu``) at the points
        ``x`` (``(..., ndim)``): shape ``x.shape[:-1] + c.shape[2 ndim:]``; NaN outside
        the breakpoints with ``extrapolate=False``."""
        ndim = len(self.x)
        nu = _orders("NdPPoly", nu, ndim)
        if np.any(nu < 0):
            raise ValueError(f"NdPPoly: Order of derivative cannot be negative, got nu = "
                             f"{nu.tolist()}; use antiderivative")
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        flat, batch = _points("NdPPoly", x, ndim)
        poly = self.derivative(nu) if np.any(nu) else self
        orders = tuple(poly.c.shape[:ndim])
        pieces = tuple(poly.c.shape[ndim:2 * ndim])
        # (the order axes and the piece axes interleaved: one gather per corner)
        c = fnp.transpose(poly.c, [a for d in range(ndim) for a in (ndim + d, d)]
                          + list(range(2 * ndim, poly.c.ndim)))
        c = fnp.reshape(c, tuple(p * o for p, o in zip(pieces, orders)) + c.shape[2 * ndim:])
        parts = []
        for d, breaks in enumerate(poly.x):
            xd = fnp.astype(flat[:, d], breaks.dtype) if flat.dtype != breaks.dtype else flat[:, d]
            piece = piece_index(breaks, xd)
            offset = xd - fnp.take(breaks, piece)
            k = orders[d]
            powers = [fnp.ones_like(offset)]
            for _ in range(k - 1):
                powers.append(powers[-1] * offset)
            parts.append((piece * k, powers[::-1]))  # (c[0] the highest power)
        out = _gather_sum(c, [p * o for p, o in zip(pieces, orders)], parts, flat.shape[0])
        if not extrapolate:
            out = _outside_to_nan(out, flat, [b[0] for b in poly.x],
                                  [b[b.shape[0] - 1] for b in poly.x])
        return fnp.reshape(out, batch + tuple(poly.c.shape[2 * ndim:]))

    def _along(self, axis):
        """The 1-d piecewise polynomial along ``axis``: ``PPoly`` with the other
        dimensions as trailing axes (and the permutation that put them there)."""
        ndim = len(self.x)
        order = [axis, ndim + axis] + [a for a in range(self.c.ndim)
                                        if a not in (axis, ndim + axis)]
        return PPoly(fnp.transpose(self.c, order), self.x[axis], self.extrapolate), order

    def _rebuilt(self, ppoly, order, x):
        c = fnp.transpose(ppoly.c, list(np.argsort(order)))
        return NdPPoly.construct_fast(c, x, self.extrapolate)

    def derivative(self, nu: Any) -> "NdPPoly":
        """The partial derivative of orders ``nu`` (one per dimension; a negative order
        integrates), piecewise as SciPy's.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> c = np.zeros((2, 2, 1, 1)); c[0, 0, 0, 0] = 1.0  # x * y
        >>> p = fi.NdPPoly(c, (np.array([0.0, 2.0]), np.array([0.0, 3.0])))
        >>> p.derivative([1, 0])(np.array([[1.0, 2.0]]))  # y
        array([2.])
        """
        poly = self
        for axis, n in enumerate(_orders("NdPPoly", nu, len(self.x)).tolist()):
            if n:
                ppoly, order = poly._along(axis)
                ppoly = ppoly.derivative(n) if n > 0 else ppoly.antiderivative(-n)
                poly = poly._rebuilt(ppoly, order, poly.x)
        return poly

    def antiderivative(self, nu: Any) -> "NdPPoly":
        """The antiderivative of orders ``nu`` (one per dimension), zero at the first
        breakpoints and continuous across the pieces, as SciPy's.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> c = np.ones((1, 1, 1, 1))  # (the constant 1)
        >>> p = fi.NdPPoly(c, (np.array([0.0, 2.0]), np.array([0.0, 3.0])))
        >>> p.antiderivative([1, 1])(np.array([[2.0, 3.0]]))  # x * y
        array([6.])
        """
        return self.derivative([-n for n in _orders("NdPPoly", nu, len(self.x)).tolist()])

    def integrate_1d(self, a: ArrayLike, b: ArrayLike, axis: int,
                     extrapolate: Optional[bool] = None) -> Any:
        """The integral from ``a`` to ``b`` along dimension ``axis``: an ``NdPPoly`` in
        the other dimensions (an array for a 1-d polynomial).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> c = np.zeros((2, 2, 1, 1)); c[0, 0, 0, 0] = 1.0  # x * y
        >>> p = fi.NdPPoly(c, (np.array([0.0, 2.0]), np.array([0.0, 3.0])))
        >>> p.integrate_1d(0.0, 2.0, axis=0)(np.array([[3.0]]))  # 2 y
        array([6.])
        """
        ndim = len(self.x)
        axis = int(axis) % ndim
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        ppoly, order = self._along(axis)
        out = ppoly.integrate(a, b, extrapolate=extrapolate)
        if ndim == 1:
            return out
        return NdPPoly.construct_fast(out, self.x[:axis] + self.x[axis + 1:], extrapolate)

    def integrate(self, ranges: Sequence[Any], extrapolate: Optional[bool] = None) -> Array:
        """The integral over the box ``ranges``, one ``(a, b)`` pair per dimension.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> p = fi.NdPPoly(np.ones((1, 1, 1, 1)), (np.array([0.0, 2.0]), np.array([0.0, 3.0])))
        >>> p.integrate([(0.0, 1.0), (0.0, 3.0)])
        array(3.)
        """
        ndim = len(self.x)
        if not hasattr(ranges, "__len__") or len(ranges) != ndim:
            raise ValueError("NdPPoly: Range not a sequence of correct length")
        extrapolate = self.extrapolate if extrapolate is None else bool(extrapolate)
        out: Any = self
        for a, b in reversed(list(ranges)):
            out = out.integrate_1d(a, b, len(out.x) - 1, extrapolate)
        return fnp.asarray(out)
