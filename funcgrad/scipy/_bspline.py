"""B-splines (``scipy.interpolate.BSpline``) and the coefficients of the interpolating
spline of degree 0 to 3 with SciPy's default knots (``make_interp_spline``, in
:mod:`._bspline_interp`, uses them).

A value is ``sum_i c[i] B_i(x)``, the ``k + 1`` B-splines alive on the query's knot
interval computed by de Boor's recurrence from the knots: differentiable in the query,
the coefficients and the knots.  The knot interval is a count of the knots at or below
the query (a binary search on known values; comparisons under ``vmap`` and ``jit``).

The interpolation conditions ``sum_i c[i] B_i(x_j) = y_j`` are tridiagonal for SciPy's
default knots up to degree 2; for degree 3 (not-a-knot) the second and next-to-last rows
reach one column further, and one elimination step with their neighbour rows makes the
system tridiagonal, so every degree is one ``tridiagonal_solve`` whose rules give the
exact derivatives in ``x`` and ``y``.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..primitives.tridiagonal import tridiagonal_solve
from ..typing import Array, ArrayLike
from ._bspline_power import cubic_power_to_bspline

__all__ = ["BSpline"]


def count_below(edges, xq, strict):
    """How many of ``edges`` lie below each query (``strict``) or at or below it: NumPy's
    ``searchsorted`` with side 'left' or 'right'."""
    if edges.shape[0] == 0:
        return np.zeros(xq.shape, np.int64)
    if is_concrete(edges) and is_concrete(xq):  # (known values: a binary search, not a
        # len(xq) x len(edges) table; the counts carry no derivative either way)
        return np.searchsorted(concrete_values(edges, "", ""), concrete_values(xq, "", ""),
                               side="left" if strict else "right").astype(np.int64)
    below = edges[None, :] < xq[:, None] if strict else edges[None, :] <= xq[:, None]
    return fnp.sum(fnp.astype(below, np.int64), axis=1)


def real_promoted(x, y):
    """``(x, y)`` in one precision, as SciPy's interpolators compute: integer ``y`` as
    float64, ``x`` the real type of ``x`` and ``y`` together (float32 at the least), ``y``
    that type or its complex twin."""
    if y.dtype.kind in "biu":
        y = fnp.astype(y, np.float64)
    real = np.result_type(x.dtype, np.empty(0, y.dtype).real.dtype, np.float32)
    x = fnp.astype(x, real) if x.dtype != real else x
    return x, fnp.astype(y, np.result_type(y.dtype, real))


def default_knots(x, order):
    """``make_interp_spline``'s knots for degree ``order`` (0 to 3) through the sites
    ``x``: the sites (degree 0 and 1); the midpoints but the outermost two (degree 2);
    the sites but the second and next-to-last, not-a-knot (degree 3); the ends repeated
    to ``order + 1``."""
    n = x.shape[0]
    first, last = x[:1], x[n - 1:]
    if order == 0:
        return fnp.concatenate([x, last])
    if order == 1:
        return fnp.concatenate([first, x, last])
    inner = ((x[1:] + x[:-1]) / 2)[1:-1] if order == 2 else x[2:n - 2]
    return fnp.concatenate([first] * (order + 1) + [inner] + [last] * (order + 1))


def basis(knots, order, xq, interval):
    """The ``order + 1`` B-splines that do not vanish on the knot interval ``interval``
    (``knots[interval] <= xq < knots[interval + 1]``), at ``xq``: de Boor's recurrence,
    lowest index first."""
    values = [fnp.ones_like(xq)]
    for j in range(1, order + 1):
        carried = fnp.zeros_like(xq)
        for r in range(j):
            right = fnp.take(knots, interval + r + 1) - xq
            left = xq - fnp.take(knots, interval + r + 1 - j)
            share = values[r] / (right + left)
            values[r] = carried + right * share
            carried = left * share
        values.append(carried)
    return values


def knot_interval(knots, order, count, xq):
    """The knot interval of each query, clipped to the spline's pieces (the end pieces
    extend outward, as SciPy's ``BSpline`` extrapolates).  The last piece is the one
    that ends at ``knots[count]`` (with more than ``order + 1`` equal end knots, as an
    antiderivative's, ``count - 1`` would be an empty interval, which de Boor's
    recurrence divides by; degree 0 divides by nothing and keeps SciPy's last piece)."""
    if order == 0:
        return fnp.clip(count_below(knots, xq, strict=False) - 1, 0, count - 1)
    last = count_below(knots, knots[count:count + 1], strict=True) - 1
    return fnp.clip(count_below(knots, xq, strict=False) - 1, order, last)


def interpolating_coefficients(x, knots, order, y):
    """The coefficients with ``sum_i c[i] B_i(x_j) = y_j`` (``y`` is ``(n, k)``) for
    ``default_knots(x, order)``: ``y`` itself for degree 0 and 1, else a tridiagonal
    solve (see the module docstring)."""
    if order < 2:
        return y
    n = x.shape[0]
    one, zero = fnp.ones_like(x[:1]), fnp.zeros_like(x[:1])
    if order == 2:  # (x[i] lies in knot interval i + 1; rows i - 1, i, i + 1)
        b = basis(knots, 2, x[1:n - 1], fnp.arange(2, n))
        dl, d, du, rhs = b[0], b[1], b[2], y
    elif n == 4:  # (one cubic through four points: a dense 4 x 4 system)
        rows = basis(knots, 3, x, np.full(4, 3))
        a = fnp.stack(rows, axis=1)
        return fnp.linalg.solve(fnp.astype(a, y.dtype), y)
    else:
        # x[j] for 2 <= j <= n - 3 is the knot j + 2: B_{j+2} vanishes there, so row j
        # has columns j - 1 .. j + 1; rows 1 and n - 2 have four entries each
        b = basis(knots, 3, x[1:n - 1], fnp.concatenate([np.array([3]),
                                                            np.arange(4, n),
                                                            np.array([n - 1])]))
        dl, d, du = b[0], b[1], b[2]
        # row 1 (columns 0..3) less row 2 (columns 1..3) times the ratio that clears col 3
        ratio = b[3][0] / du[1]
        d = fnp.concatenate([d[:1] - ratio * dl[1:2], d[1:]])
        du = fnp.concatenate([du[:1] - ratio * d[1:2], du[1:]])
        # row n - 2 (columns n - 4 .. n - 1) less row n - 3 times the ratio that clears
        # column n - 4
        last = n - 3
        ratio_end = dl[last] / dl[last - 1]
        dl = fnp.concatenate([dl[:last], b[1][last:] - ratio_end * d[last - 1:last]])
        d = fnp.concatenate([d[:last], b[2][last:] - ratio_end * du[last - 1:last]])
        du = fnp.concatenate([du[:last], b[3][last:]])
        rhs = fnp.concatenate([y[1:2] - fnp.astype(ratio, y.dtype) * y[2:3], y[2:n - 2],
                               y[n - 2:n - 1] - fnp.astype(ratio_end, y.dtype) * y[n - 3:n - 2]])
        rhs = fnp.concatenate([y[:1], rhs, y[n - 1:]])
        dl, d, du = (fnp.concatenate([zero, v, zero]) for v in (dl, d, du))
        d = fnp.concatenate([one, d[1:n - 1], one])
        return tridiagonal_solve(*(fnp.astype(v, y.dtype) for v in (dl, d, du)), rhs)
    dl, d, du = (fnp.concatenate([zero, v, zero]) for v in (dl, d, du))
    d = fnp.concatenate([one, d[1:n - 1], one])
    return tridiagonal_solve(*(fnp.astype(v, y.dtype) for v in (dl, d, du)), rhs)


def _extrapolation(extrapolate):
    if isinstance(extrapolate, str):
        if extrapolate != "periodic":
            raise ValueError(f"BSpline: extrapolate must be True, False or 'periodic', got "
                             f"{extrapolate!r}")
        return extrapolate
    return bool(extrapolate)


def _periodic_integral(spline, a, b):
    """The integral from ``a`` to ``b`` of the spline repeated with period ``t[n] -
    t[k]``: whole periods, then the rest from ``a`` mapped into the base interval,
    wrapping past its end onto its start."""
    t, k = spline.t, spline.k
    first, last = t[k], t[spline.c.shape[0]]
    period = last - first
    low, high = fnp.minimum(a, b), fnp.maximum(a, b)
    periods = fnp.floor((high - low) / period)
    rest = (high - low) - periods * period
    start = first + fnp.mod(low - first, period)
    stop = start + rest
    whole = spline.antiderivative()
    points = fnp.stack([first, last, start, fnp.minimum(stop, last),
                        first + fnp.maximum(stop - last, fnp.zeros_like(stop))])
    f = BSpline(whole.t, whole.c, whole.k, True, 0)(points)
    total = periods * (f[1] - f[0]) + (f[3] - f[2]) + (f[4] - f[0])
    sign = fnp.where(b < a, -fnp.ones_like(a), fnp.ones_like(a))
    return fnp.asarray(sign * total)


@internal  # (the identity coefficients follow the knots and the sites to their device)
def basis_matrix(t, k, x, nu=0):
    """The B-splines on the knots ``t`` (or their ``nu``-th derivatives) at the points
    ``x``: ``(len(x), len(t) - k - 1)``, in ``x``'s precision."""
    count = t.shape[0] - k - 1
    return BSpline(t, np.eye(count, dtype=x.dtype), k)(x, nu)


@internal  # (constants on the host, e.g. knots from SciPy's search, join the data's device)
def on_device_of(constant, like):
    """``constant`` (plain numbers) as an array on the device of the array ``like``."""
    return fnp.asarray(constant) + fnp.zeros_like(fnp.reshape(like, (-1,))[:1])


class BSpline:
    """A spline in the B-spline basis (``scipy.interpolate.BSpline``): ``sum_i c[i] *
    B_{i,k}(x)`` on the knots ``t`` (non-decreasing, ``len(c) >= len(t) - k - 1``;
    ``c`` may have trailing axes, and ``axis`` says where ``x``'s axes go in the result).
    ``extrapolate``: the end pieces go on (``True``), NaN outside ``[t[k], t[n]]``
    (``False``), or the spline repeats with period ``t[n] - t[k]`` (``'periodic'``).
    Differentiable in the query points, ``c`` and ``t``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])  # degree 1: the broken line through c
    >>> fi.BSpline(t, np.array([0.0, 3.0, 1.0]), 1)(np.array([0.5, 1.5]))
    array([1.5, 2. ])
    """

    def __init__(self, t: ArrayLike, c: ArrayLike, k: int, extrapolate: Any = True,
                 axis: int = 0) -> None:
        t, c, k = asarray(t), asarray(c), int(k)
        if c.dtype.kind in "biu":
            c = fnp.astype(c, np.float64)
        if t.dtype.kind in "biu":
            t = fnp.astype(t, np.float64)
        if k < 0:
            raise ValueError(f"BSpline: spline order cannot be negative, got k={k}")
        if t.ndim != 1:
            raise ValueError("BSpline: the knot vector t must be one-dimensional")
        if c.ndim < 1:
            raise ValueError("BSpline: the coefficients c must be at least 1-d")
        n = t.shape[0] - k - 1
        if n < k + 1:
            raise ValueError(f"BSpline: need at least {2 * k + 2} knots for degree {k}")
        if c.shape[0] < n:
            raise ValueError(f"BSpline: knots, coefficients and degree are inconsistent: "
                             f"{t.shape[0]} knots of degree {k} need {n} coefficients, "
                             f"got {c.shape[0]}")
        extrapolate = _extrapolation(extrapolate)
        if is_concrete(t) and np.any(np.diff(concrete_values(t, "", "")) < 0):
            raise ValueError("BSpline: knots must be in a non-decreasing order.")
        if not 0 <= axis < c.ndim:
            raise ValueError(f"BSpline: axis={axis} must be between 0 and {c.ndim - 1}")
        self.t, self.c, self.k = t, c[:n], k
        self.extrapolate, self.axis = extrapolate, axis

    @property
    def t(self) -> Array:
        """The knots (non-decreasing); assignable, as SciPy's."""
        return self._t

    @t.setter
    def t(self, value: ArrayLike) -> None:
        self._t = asarray(value)

    @property
    def c(self) -> Array:
        """The B-spline coefficients, ``(len(t) - k - 1, ...)``; assignable, as SciPy's."""
        return self._c

    @c.setter
    def c(self, value: ArrayLike) -> None:
        self._c = asarray(value)

    @property
    def tck(self) -> Any:
        """``(t, c, k)``, as ``splrep`` gives them (read-only).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> fi.BSpline(np.array([0.0, 0.0, 1.0, 1.0]), np.array([2.0, 3.0]), 1).tck[1]
        array([2., 3.])
        """
        return self.t, self.c, self.k

    @classmethod
    def construct_fast(cls, t: ArrayLike, c: ArrayLike, k: int, extrapolate: Any = True,
                       axis: int = 0) -> "BSpline":
        """A spline on ``t``, ``c`` and ``k`` without the constructor's checks (SciPy's
        ``construct_fast``); ``c`` is cut to ``len(t) - k - 1``, as the constructor cuts
        it.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 1.0])
        >>> fi.BSpline.construct_fast(t, np.array([2.0, 3.0]), 1)(0.5)
        array(2.5)
        """
        out = cls.__new__(cls)
        out.t, out.c, out.k = t, c, int(k)
        out.c = out.c[:out.t.shape[0] - out.k - 1]
        out.extrapolate, out.axis = extrapolate, axis
        return out

    @classmethod
    def basis_element(cls, t: ArrayLike, extrapolate: Any = True) -> "BSpline":
        """The single B-spline ``B(x | t[0], ..., t[k + 1])`` of degree ``k = len(t) -
        2`` (SciPy's ``basis_element``: the knots padded by ``k`` at each end, the one
        coefficient ``1``); differentiable in the knots ``t``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> b = fi.BSpline.basis_element(np.array([0.0, 1.0, 2.0]))  # the hat on [0, 2]
        >>> b(np.array([0.5, 1.0, 1.5]))
        array([0.5, 1. , 0.5])
        """
        t = asarray(t)
        if t.dtype.kind in "biu":
            t = fnp.astype(t, np.float64)
        k = t.shape[0] - 2
        if k < 0:
            raise ValueError(f"BSpline.basis_element: give at least 2 knots, got {t.shape[0]}")
        one = fnp.ones_like(t[:1])
        t = fnp.concatenate([t[:1] - one] * k + [t] + [t[t.shape[0] - 1:] + one] * k)
        c = np.zeros(t.shape[0], t.dtype)
        c[k] = 1.0
        return cls.construct_fast(t, on_device_of(c, t), k, extrapolate)

    @classmethod
    def design_matrix(cls, x: ArrayLike, t: ArrayLike, k: int,
                      extrapolate: Any = False) -> Any:
        """The B-splines on the knots ``t`` at the points ``x`` as a sparse CSR array
        ``(len(x), len(t) - k - 1)`` (funcgrad's ``csr_array``; SciPy's
        ``design_matrix``): row ``i`` holds the ``k + 1`` B-splines alive at ``x[i]``.
        Its stored values differentiate in ``x`` and ``t``; where they sit needs known
        ``x`` (not under ``jit``/``vmap``).  Out-of-bounds ``x`` raises unless
        ``extrapolate``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> fi.BSpline.design_matrix(np.array([0.5, 1.5]), t, 1).toarray()
        array([[0.5, 0.5, 0. ],
               [0. , 0.5, 0.5]])
        """
        from .sparse._arrays_formats import csr_array
        x, t, k = asarray(x), asarray(t), int(k)
        if x.dtype.kind in "biu":
            x = fnp.astype(x, np.float64)
        if t.dtype.kind in "biu":
            t = fnp.astype(t, np.float64)
        if extrapolate != "periodic":
            extrapolate = bool(extrapolate)
        if k < 0:
            raise ValueError("BSpline.design_matrix: spline order cannot be negative.")
        fix = "Build the design matrix outside jit and vmap, where x and t are known"
        knots = concrete_values(t, "BSpline.design_matrix (its sparsity pattern)", fix)
        if t.ndim != 1 or np.any(knots[1:] < knots[:-1]):
            raise ValueError(f"BSpline.design_matrix: expect t to be a 1-D sorted "
                             f"array_like, but got t={knots}.")
        if knots.shape[0] < 2 * k + 2:
            raise ValueError(f"BSpline.design_matrix: length t is not enough for k={k}.")
        n = knots.shape[0] - k - 1
        x = fnp.reshape(x, (-1,))
        if extrapolate == "periodic":
            x = t[k] + fnp.mod(x - t[k], t[n] - t[k])
        points = concrete_values(x, "BSpline.design_matrix (its sparsity pattern)", fix)
        if not extrapolate and points.size and (points.min() < knots[k]
                                                or points.max() > knots[n]):
            raise ValueError(f"BSpline.design_matrix: out of bounds w/ x = {points}; "
                             f"pass extrapolate=True to extend the end pieces")
        interval = knot_interval(t, k, n, x)
        data = fnp.stack(basis(t, k, x, interval), axis=1)  # (len(x), k + 1)
        offsets = np.asarray(interval) - k
        indices = (offsets[:, None] + np.arange(k + 1)).astype(np.int32).ravel()
        indptr = np.arange(0, (points.shape[0] + 1) * (k + 1), k + 1, dtype=np.int32)
        return csr_array((fnp.reshape(data, (-1,)), indices, indptr),
                         shape=(points.shape[0], n))

    @classmethod
    def from_power_basis(cls, pp: Any, bc_type: str = "not-a-knot") -> "BSpline":
        """The same cubic as the :class:`CubicSpline` ``pp``, in the B-spline basis on
        SciPy's knots for ``bc_type`` ('not-a-knot', 'natural', 'clamped' or
        'periodic'); differentiable in ``pp``'s coefficients and breakpoints.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> x = np.arange(5.0)
        >>> b = fi.BSpline.from_power_basis(fi.CubicSpline(x, x ** 3))
        >>> b(np.array([0.5, 2.5]))
        array([ 0.125, 15.625])
        """
        if not any(k.__name__ == "CubicSpline" for k in type(pp).__mro__):
            raise NotImplementedError(f"Only CubicSpline objects are accepted for now. Got "
                                      f"{type(pp)} instead.")
        t, c = cubic_power_to_bspline(pp.x, pp.c, bc_type)
        return cls.construct_fast(t, c, pp.c.shape[0] - 1, pp.extrapolate, pp.axis)

    def insert_knot(self, x: ArrayLike, m: int = 1) -> "BSpline":
        """The same spline with the knot ``x`` inserted ``m`` times (Boehm's algorithm,
        as SciPy's ``insert_knot``, periodic splines included): differentiable in the
        coefficients, the knots and ``x``.  Where it goes needs a known ``x``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 2.0, 2.0])  # degree 1: the line from 0 to 4
        >>> s = fi.BSpline(t, np.array([0.0, 4.0]), 1).insert_knot(1.0)
        >>> s.t, s.c
        (array([0., 0., 1., 2., 2.]), array([0., 2., 4.]))
        """
        fix = "Insert knots outside jit and vmap, where the position is known"
        where = float(concrete_values(asarray(x), "BSpline.insert_knot", fix))
        knots = concrete_values(self.t, "BSpline.insert_knot", fix)
        k = self.k
        if where < knots[k] or where > knots[-k - 1]:
            raise ValueError(f"Cannot insert a knot at {where}.")
        if m <= 0:
            raise ValueError(f"`m` must be positive, got m = {m}.")
        t, c = self.t, self.c
        xv = fnp.astype(asarray(x), t.dtype)
        for _ in range(int(m)):
            t, c = _insert_one(xv, where, t, c, k, self.extrapolate == "periodic")
        return self.construct_fast(t, c, k, self.extrapolate, self.axis)

    def __call__(self, x: ArrayLike, nu: int = 0, extrapolate: Any = None) -> Array:
        """The ``nu``-th derivative at the points ``x``: shape ``x.shape`` inserted at
        ``axis`` in the trailing shape of ``c``."""
        nu = int(nu)
        if nu < 0:  # (as SciPy's)
            raise NotImplementedError(f"BSpline: cannot evaluate derivative order nu={nu}; "
                                      f"evaluate .antiderivative({-nu}) instead")
        spline = self.derivative(nu) if nu else self
        extrapolate = self.extrapolate if extrapolate is None else _extrapolation(extrapolate)
        xq = asarray(x)
        if xq.dtype.kind in "biu":
            xq = fnp.astype(xq, np.float64)
        shape = tuple(xq.shape)
        flat = fnp.reshape(xq, (-1,))
        t, c, k = spline.t, spline.c, spline.k
        count = c.shape[0]
        if extrapolate == "periodic":  # (x mapped into the base interval, as SciPy's)
            flat = t[k] + fnp.mod(flat - t[k], t[count] - t[k])
            extrapolate = False
        interval = knot_interval(t, k, count, flat)
        trailing = tuple(c.shape[1:])
        extra = (1,) * len(trailing)
        out: Any = None
        for r, b in enumerate(basis(t, k, flat, interval)):
            term = fnp.take(c, interval - k + r, axis=0)
            term = term * fnp.reshape(fnp.astype(b, term.dtype), flat.shape + extra)
            out = term if out is None else out + term
        if not extrapolate:
            outside = fnp.logical_or(flat < t[k], flat > t[count])
            outside = fnp.reshape(outside, outside.shape + extra)
            out = fnp.where(outside, fnp.astype(fnp.asarray(np.nan), out.dtype), out)
        out = fnp.reshape(out, shape + trailing)
        if self.axis:
            order = list(range(out.ndim))
            m, a = len(shape), self.axis
            out = fnp.transpose(out, order[m:m + a] + order[:m] + order[m + a:])
        return out

    def derivative(self, nu: int = 1) -> "BSpline":
        """The ``nu``-th derivative, a spline of degree ``k - nu`` on ``t[nu:-nu]``
        (``c'[i] = k (c[i + 1] - c[i]) / (t[i + k + 1] - t[i + 1])``, repeated).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> fi.BSpline(t, np.array([0.0, 3.0, 1.0]), 1).derivative()(np.array([0.5, 1.5]))
        array([ 3., -2.])
        """
        t, c, k = self.t, self.c, self.k
        for _ in range(int(nu)):
            if k == 0:  # (a step function's derivative is 0 between the knots)
                c = fnp.zeros_like(c)
                break
            n = c.shape[0]
            width = t[k + 1:n + k] - t[1:n]
            width = fnp.reshape(width, width.shape + (1,) * (c.ndim - 1))
            c = k * (c[1:] - c[:-1]) / width
            t, k = t[1:t.shape[0] - 1], k - 1
        return BSpline(t, c, k, self.extrapolate, self.axis)

    def antiderivative(self, nu: int = 1) -> "BSpline":
        """The ``nu``-th antiderivative, zero at ``t[0]``: a spline of degree ``k + nu``,
        one knot more at each end (``C[i + 1] = C[i] + c[i] (t[i + k + 1] - t[i]) /
        (k + 1)``, ``C[0] = 0``, repeated; the inverse of :meth:`derivative`).

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> fi.BSpline(t, np.array([0.0, 3.0, 1.0]), 1).antiderivative()(np.array([1.0, 2.0]))
        array([1.5, 3.5])
        """
        t, c, k = self.t, self.c, self.k
        for _ in range(int(nu)):
            n = c.shape[0]
            width = t[k + 1:n + k + 1] - t[:n]
            width = fnp.reshape(width, width.shape + (1,) * (c.ndim - 1))
            steps = fnp.astype(width / (k + 1), c.dtype) * c
            c = fnp.concatenate([fnp.zeros_like(c[:1]), fnp.cumsum(steps, axis=0)])
            t, k = fnp.concatenate([t[:1], t, t[t.shape[0] - 1:]]), k + 1
        # (an antiderivative of a periodic spline need not be periodic: False, as SciPy's)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return BSpline(t, c, k, extrapolate, self.axis)

    def integrate(self, a: ArrayLike, b: ArrayLike, extrapolate: Any = None) -> Array:
        """The integral from ``a`` to ``b`` (negative if ``b < a``): shape ``c``'s
        trailing shape.  With ``extrapolate=False`` only the part inside ``[t[k],
        t[n]]`` counts; with ``'periodic'`` the spline repeats with period ``t[n] -
        t[k]``.  Differentiable in ``a``, ``b``, ``c`` and ``t``.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> t = np.array([0.0, 0.0, 1.0, 2.0, 2.0])
        >>> fi.BSpline(t, np.array([0.0, 3.0, 1.0]), 1).integrate(0.0, 2.0)
        array(3.5)
        """
        extrapolate = self.extrapolate if extrapolate is None else _extrapolation(extrapolate)
        ends = fnp.stack([asarray(a), asarray(b)])
        if ends.dtype.kind in "biu" or all(isinstance(v, (int, float)) for v in (a, b)):
            ends = fnp.astype(ends, self.t.dtype)  # (plain numbers keep float32 float32)
        if extrapolate == "periodic":
            return _periodic_integral(self, ends[0], ends[1])
        if not extrapolate:  # (outside the base interval the spline is not there)
            ends = fnp.clip(ends, self.t[self.k], self.t[self.c.shape[0]])
        whole = self.antiderivative()
        values = BSpline(whole.t, whole.c, whole.k, True, 0)(ends)
        return fnp.asarray(values[1] - values[0])  # (an array, 0-d too, as SciPy's)


def _insert_one(x, where, t, c, k, periodic):
    """Knots and coefficients with one more knot at ``x`` (value ``where``): the new
    coefficients mix neighbours with the weights ``(x - t[i]) / (t[i + k] - t[i])`` on
    the ``k`` B-splines alive at ``x`` (Boehm; Dierckx's ``insert`` for the periodic
    case)."""
    knots = concrete_values(t, "", "")
    n = knots.shape[0] - k - 1
    interval = int(np.clip(np.searchsorted(knots, where, side="right") - 1, k, n - 1))
    if knots[interval] == knots[interval + k + 1]:  # (a knot of multiplicity > k + 1)
        interval -= 1
    if periodic and 2 * k >= interval + 1 >= knots.shape[0] - 2 * k:
        raise ValueError("BSpline.insert_knot: not enough internal knots: a periodic "
                         "spline needs k interior knots on one side of x")
    tt = fnp.concatenate([t[:interval + 1], fnp.reshape(x, (1,)), t[interval + 1:]])
    mixed = []
    for i in range(interval - k + 1, interval + 1):
        fac = fnp.astype((x - tt[i]) / (tt[i + k + 1] - tt[i]), c.dtype)
        mixed.append(fac * c[i] + (1.0 - fac) * c[i - 1])
    parts = [c[:interval - k + 1]] + ([fnp.stack(mixed)] if mixed else []) + [c[interval:]]
    cc = fnp.concatenate(parts)
    if periodic:
        size = tt.shape[0]
        nk, n2k = size - k - 1, size - 2 * k - 1
        period = tt[nk] - tt[k]
        if interval >= nk - k:  # (the left boundary knots and coefficients follow)
            tt = fnp.concatenate([tt[nk - k:nk] - period, tt[k:]])
            cc = fnp.concatenate([cc[n2k:n2k + k], cc[k:]])
        if interval <= 2 * k - 1:  # (the right ones)
            tt = fnp.concatenate([tt[:size - k], tt[k + 1:2 * k + 1] + period])
            cc = fnp.concatenate([cc[:n2k], cc[:k], cc[n2k + k:]])
    return tt, cc
