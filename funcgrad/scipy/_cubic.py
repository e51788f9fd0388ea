"""Cubic interpolants of 1-d data (``scipy.interpolate``'s ``CubicHermiteSpline``,
``CubicSpline``, ``PchipInterpolator``, ``Akima1DInterpolator``): each finds a slope at
every knot, and the cubic Hermite pieces through the values and slopes make a
:class:`~._ppoly.PPoly`.

``CubicSpline``'s slopes solve SciPy's tridiagonal system (one ``tridiagonal_solve``
for every column of ``y``: its rules give the exact derivative in ``x`` and ``y``, no
per-element unrolling; the periodic system, cyclic, is condensed to a tridiagonal one
and one rank-one correction, as SciPy's).  PCHIP's and Akima's slopes are elementwise
formulas with branches (a slope is set to 0, or clipped, where neighbouring secants
change sign or stall); there they are smooth on each side, and a derivative taken
exactly on a switch is one side's.

Every array keeps its dtype (float32 stays float32, where SciPy computes in float64);
``y`` may be complex for ``CubicHermiteSpline`` and ``CubicSpline``.  SciPy's checks
(``x`` strictly increasing and finite, ``y`` finite) raise ``ValueError`` on known
values; under ``jit`` or ``vmap`` over ``x``, an ``x`` that does not increase makes the
result NaN instead.
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..primitives.tridiagonal import tridiagonal_solve
from ..typing import ArrayLike
from ._ppoly import PPoly, Extrapolate

__all__ = ["CubicHermiteSpline", "CubicSpline", "PchipInterpolator", "pchip_interpolate",
           "Akima1DInterpolator"]


def _prepare(name, x, y, axis, real_only=False):
    """``x`` (1-d, floating), its steps, ``y`` with ``axis`` moved to the front, the axis
    (non-negative), in the common dtype of ``x`` and ``y``."""
    x, y = asarray(x), asarray(y)
    if x.dtype.kind == "c":
        raise ValueError(f"{name}: `x` must contain real values.")
    if real_only and y.dtype.kind == "c":
        raise ValueError(f"{name} only works with real values for `y`; pass np.real(y) "
                         f"for its real part")
    if y.ndim == 0:
        raise ValueError(f"{name}: `y` must have at least one dimension")
    dtype = np.result_type(x.dtype, y.dtype, np.float32)
    x = fnp.astype(x, np.empty(0, dtype).real.dtype) if x.dtype != dtype else x
    y = fnp.astype(y, dtype) if y.dtype != dtype else y
    axis = int(axis) % y.ndim
    if x.ndim != 1:
        raise ValueError(f"{name}: `x` must be 1-dimensional.")
    if x.shape[0] < 2:
        raise ValueError(f"{name}: `x` must contain at least 2 elements.")
    if x.shape[0] != y.shape[axis]:
        raise ValueError(f"{name}: the length of `y` along `axis`={axis} doesn't match the "
                         f"length of `x` ({y.shape[axis]} and {x.shape[0]})")
    dx = fnp.diff(x)
    if is_concrete(x):
        known = concrete_values(x, "", "")
        if not np.all(np.isfinite(known)):
            raise ValueError(f"{name}: `x` must contain only finite values.")
        if np.any(np.diff(known) <= 0):
            raise ValueError(f"{name}: `x` must be strictly increasing sequence.")
    else:  # (no value to check: a bad x shows as NaN, never as a wrong spline)
        dx = fnp.where(fnp.all(dx > 0), dx, fnp.astype(fnp.asarray(np.nan), dx.dtype))
    if is_concrete(y) and not np.all(np.isfinite(concrete_values(y, "", ""))):
        raise ValueError(f"{name}: `y` must contain only finite values.")
    return x, dx, fnp.moveaxis(y, axis, 0), axis


def _columns(v, n):
    """``v`` (``(n, ...)``) as ``(n, k)``, one column per trailing element."""
    return fnp.reshape(v, (n, -1))


def _hermite_coefficients(dx, y, slopes):
    """The power-basis coefficients ``(4, n - 1, ...)`` of the cubic Hermite pieces with
    values ``y`` and slopes ``slopes`` (both ``(n, ...)``) at the knots."""
    step = fnp.reshape(dx, (-1,) + (1,) * (y.ndim - 1))
    secant = fnp.diff(y, axis=0) / step
    curvature = (slopes[:-1] + slopes[1:] - 2 * secant) / step
    return fnp.stack([curvature / step, (secant - slopes[:-1]) / step - curvature,
                      slopes[:-1], y[:-1]])


class CubicHermiteSpline(PPoly):
    """The piecewise cubic with values ``y`` and first derivatives ``dydx`` at the knots
    ``x`` (``scipy.interpolate.CubicHermiteSpline``); a :class:`PPoly`, differentiable
    in ``x``, ``y``, ``dydx`` and the query points.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> h = fi.CubicHermiteSpline(np.array([0.0, 1.0]), np.array([0.0, 1.0]),
    ...                           np.array([0.0, 0.0]))
    >>> h(np.array([0.5, 1.0]))
    array([0.5, 1. ])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, dydx: ArrayLike, axis: int = 0,
                 extrapolate: Extrapolate = None) -> None:
        dydx = asarray(dydx)
        if tuple(dydx.shape) != tuple(asarray(y).shape):
            raise ValueError("CubicHermiteSpline: the shapes of `y` and `dydx` must be "
                             "identical.")
        x, dx, y, axis = _prepare("CubicHermiteSpline", x, y, axis)
        if is_concrete(dydx) and not np.all(np.isfinite(concrete_values(dydx, "", ""))):
            raise ValueError("CubicHermiteSpline: `dydx` must contain only finite values.")
        dydx = fnp.moveaxis(fnp.astype(dydx, np.result_type(dydx.dtype, y.dtype)), axis, 0)
        self._finish(x, dx, y, dydx, axis, extrapolate)

    def _finish(self, x, dx, y, slopes, axis, extrapolate):
        self._setup(_hermite_coefficients(dx, y, fnp.astype(slopes, y.dtype)), x,
                    extrapolate, axis)


def _boundary_conditions(bc_type, y, trailing):
    """SciPy's ``bc_type``, as two entries each ``'not-a-knot'``, ``'periodic'`` or
    ``(order, value)`` with the value flattened to the columns of ``y``."""
    if isinstance(bc_type, str):
        if bc_type == "periodic" and is_concrete(y):
            ends = concrete_values(y, "", "")
            if not np.allclose(ends[0], ends[-1], rtol=1e-15, atol=1e-15):
                raise ValueError("CubicSpline: the first and last `y` point along the axis "
                                 "must be identical (within machine precision) when "
                                 "bc_type='periodic'.")
        bc_type = (bc_type, bc_type)
    else:
        if len(bc_type) != 2:
            raise ValueError("CubicSpline: `bc_type` must contain 2 elements to specify "
                             "start and end conditions.")
        if "periodic" in [bc for bc in bc_type if isinstance(bc, str)]:
            raise ValueError("CubicSpline: 'periodic' `bc_type` is defined for both curve "
                             "ends and cannot be used with other boundary conditions.")
    conditions = []
    for bc in bc_type:
        if isinstance(bc, str):
            if bc in ("not-a-knot", "periodic"):
                conditions.append(bc)
                continue
            if bc not in ("clamped", "natural"):
                raise ValueError(f"CubicSpline: bc_type={bc!r} is not allowed; give "
                                 f"'not-a-knot', 'clamped', 'natural', 'periodic' or "
                                 f"(order, value)")
            order = 1 if bc == "clamped" else 2
            value = np.zeros(trailing, y.dtype)
        else:
            try:
                order, value = bc
            except (TypeError, ValueError):
                raise ValueError("CubicSpline: a specified derivative value must be given "
                                 "in the form (order, value).") from None
            if order not in (1, 2):
                raise ValueError("CubicSpline: the specified derivative order must be 1 "
                                 "or 2.")
            value = asarray(value)
            if tuple(value.shape) != trailing:
                raise ValueError(f"CubicSpline: `deriv_value` shape {tuple(value.shape)} is "
                                 f"not the expected one {trailing} (y's shape without "
                                 f"the axis).")
            value = fnp.astype(value, np.result_type(value.dtype, y.dtype))
        conditions.append((order, fnp.reshape(fnp.asarray(value), (-1,))))
    return conditions


def _solve(dl, d, du, rhs):
    """``tridiagonal_solve`` with the diagonals in the dtype of ``rhs`` (complex ``y``)."""
    dl, d, du = (v if v.dtype == rhs.dtype else fnp.astype(v, rhs.dtype) for v in (dl, d, du))
    return tridiagonal_solve(dl, d, du, rhs)


def _spline_slopes(x, dx, y, conditions):
    """The knot slopes of SciPy's cubic spline through ``y`` (``(n, k)``)."""
    n = x.shape[0]
    step = dx[:, None]
    secant = fnp.diff(y, axis=0) / step
    start, end = conditions
    zero, one = fnp.zeros_like(dx[:1]), fnp.ones_like(dx[:1])
    if n == 2:  # (one piece: not-a-knot or periodic means the straight line)
        start = (1, secant[0]) if isinstance(start, str) else start
        end = (1, secant[0]) if isinstance(end, str) else end
    if n == 3 and start == "not-a-knot" and end == "not-a-knot":  # (the parabola)
        dl = fnp.concatenate([zero, dx[1:2], one])
        d = fnp.concatenate([one, 2 * (dx[0:1] + dx[1:2]), one])
        du = fnp.concatenate([one, dx[0:1], zero])
        rhs = fnp.stack([2 * secant[0], 3 * (dx[0] * secant[1] + dx[1] * secant[0]),
                         2 * secant[1]])
        return _solve(dl, d, du, rhs)
    if n == 3 and start == "periodic":
        mean = fnp.sum(secant / step, axis=0) / fnp.sum(1 / step, axis=0)
        return fnp.broadcast_to(mean, (3,) + tuple(mean.shape))
    if isinstance(start, str) and start == "periodic":
        return _periodic_slopes(dx, secant)
    inner_rhs = 3 * (step[1:] * secant[:-1] + step[:-1] * secant[1:])
    if isinstance(start, str):  # not-a-knot: the third derivative continuous at x[1]
        span = x[2:3] - x[0:1]
        d0, du0 = dx[1:2], span
        b0 = ((dx[0] + 2 * span) * dx[1] * secant[0] + dx[0] ** 2 * secant[1]) / span
    elif start[0] == 1:
        d0, du0, b0 = one, zero, start[1]
    else:
        d0, du0 = 2 * dx[0:1], dx[0:1]
        b0 = -0.5 * start[1] * dx[0] ** 2 + 3 * (y[1] - y[0])
    last = n - 2  # (the last step)
    if isinstance(end, str):
        span = x[n - 1:n] - x[n - 3:n - 2]
        dn, dln = dx[last - 1:last], span
        bn = (dx[last] ** 2 * secant[last - 1]
              + (2 * span + dx[last]) * dx[last - 1] * secant[last]) / span
    elif end[0] == 1:
        dn, dln, bn = one, zero, end[1]
    else:
        dn, dln = 2 * dx[last:last + 1], dx[last:last + 1]
        bn = 0.5 * end[1] * dx[last] ** 2 + 3 * (y[n - 1] - y[n - 2])
    dl = fnp.concatenate([zero, dx[1:], dln])
    d = fnp.concatenate([d0, 2 * (dx[:-1] + dx[1:]), dn])
    du = fnp.concatenate([du0, dx[:-1], zero])
    rhs = fnp.concatenate([fnp.astype(b0, y.dtype)[None], inner_rhs,
                           fnp.astype(bn, y.dtype)[None]])
    return _solve(dl, d, du, rhs)


def _periodic_slopes(dx, secant):
    """The slopes of the periodic spline (``n >= 4`` knots): the cyclic system of the
    ``n - 1`` distinct slopes, less its last row and column, is tridiagonal; solving it
    for the right-hand side and for the last column's coupling gives the last slope
    from the last row, and the rest from it (the condensed system SciPy solves)."""
    n = dx.shape[0] + 1
    size = n - 2
    k = secant.shape[1]
    step_before = fnp.concatenate([dx[n - 2:], dx[:n - 2]])
    secant_before = fnp.concatenate([secant[n - 2:], secant[:n - 2]])
    rhs = 3 * (dx[:, None] * secant_before + step_before[:, None] * secant)
    zero = fnp.zeros_like(dx[:1])
    dl = fnp.concatenate([zero, dx[1:size]])
    d = 2 * (step_before[:size] + dx[:size])
    du = fnp.concatenate([dx[n - 2:], dx[0:size - 2], zero])
    coupling = (fnp.concatenate([-dx[0:1], fnp.zeros_like(dx[:size - 1])])
                + fnp.concatenate([fnp.zeros_like(dx[:size - 1]), -dx[n - 4:n - 3]]))
    both = _solve(dl, d, du, fnp.concatenate(
        [rhs[:size], fnp.astype(coupling, rhs.dtype)[:, None]], axis=1))
    s1, s2 = both[:, :k], both[:, k]
    s_last = ((rhs[size] - dx[n - 3] * s1[0] - dx[n - 2] * s1[size - 1])
              / (2 * (dx[n - 2] + dx[n - 3]) + dx[n - 3] * s2[0] + dx[n - 2] * s2[size - 1]))
    head = s1 + s_last[None] * s2[:, None]
    return fnp.concatenate([head, s_last[None], head[:1]])


class CubicSpline(CubicHermiteSpline):
    """The cubic spline through ``(x, y)`` (``scipy.interpolate.CubicSpline``), twice
    continuously differentiable, with SciPy's ``bc_type``: ``'not-a-knot'`` (default),
    ``'clamped'``, ``'natural'``, ``'periodic'`` or a pair of ``(order, value)`` (first
    or second derivative at each end); ``extrapolate`` ``True``, ``False`` or
    ``'periodic'`` (default ``'periodic'`` for the periodic condition, else ``True``).

    Differentiable in ``y``, ``x``, the boundary values and the query points: the slopes
    solve one tridiagonal system, and its rules give their exact derivatives.  With
    ``bc_type='periodic'``, ``y[0]`` and ``y[-1]`` are used as SciPy's formulas use them,
    so a derivative in ``y`` that keeps them equal is the periodic spline's.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> s = fi.CubicSpline(x, x ** 3)
    >>> s(np.array([1.5, 2.5]))
    array([ 3.375, 15.625])
    >>> fg.grad(lambda y: fi.CubicSpline(x, y)(1.5))(x ** 3)
    array([-0.0625,  0.5625,  0.5625, -0.0625])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, axis: int = 0,
                 bc_type: Any = "not-a-knot", extrapolate: Extrapolate = None) -> None:
        x, dx, y, axis = _prepare("CubicSpline", x, y, axis)
        n, trailing = x.shape[0], tuple(y.shape[1:])
        conditions = _boundary_conditions(bc_type, y, trailing)
        if extrapolate is None:
            extrapolate = "periodic" if conditions[0] == "periodic" else True
        columns = _columns(y, n)
        if columns.shape[1] == 0:
            slopes = fnp.zeros_like(y)
        else:
            slopes = _spline_slopes(x, dx, columns, conditions)
            slopes = fnp.reshape(slopes, (n,) + trailing)
        self._finish(x, dx, y, slopes, axis, extrapolate)


def _pchip_end(h0, h1, m0, m1):
    """PCHIP's one-sided three-point end slope, kept shape-preserving (Moler's
    ``pchiptx``): zero where it points against the first secant, at most three times it
    where the secants change sign."""
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    wrong_way = fnp.sign(d) != fnp.sign(m0)
    overshoot = fnp.logical_and(fnp.sign(m0) != fnp.sign(m1), fnp.abs(d) > 3 * fnp.abs(m0))
    return fnp.where(wrong_way, 0 * d, fnp.where(overshoot, 3 * m0, d))


def _pchip_slopes(dx, y):
    """PCHIP's knot slopes (Fritsch-Carlson; Fritsch-Butland's weighted harmonic mean of
    the neighbouring secants, 0 where they differ in sign or one is 0)."""
    n = y.shape[0]
    h = fnp.reshape(dx, (-1,) + (1,) * (y.ndim - 1))
    m = fnp.diff(y, axis=0) / h
    if n == 2:
        return fnp.concatenate([m, m])
    flat = (fnp.sign(m[1:]) != fnp.sign(m[:-1])) | (m[1:] == 0) | (m[:-1] == 0)
    w1, w2 = 2 * h[1:] + h[:-1], h[1:] + 2 * h[:-1]
    # (double where: the untaken 1/m must not make a NaN derivative)
    left, right = fnp.where(flat, 1.0, m[:-1]), fnp.where(flat, 1.0, m[1:])
    mean = (w1 + w2) / (w1 / left + w2 / right)
    inner = fnp.where(flat, 0 * mean, mean)
    first = _pchip_end(h[0], h[1], m[0], m[1])
    last = _pchip_end(h[n - 2], h[n - 3], m[n - 2], m[n - 3])
    return fnp.concatenate([first[None], inner, last[None]])


class PchipInterpolator(CubicHermiteSpline):
    """The shape-preserving piecewise cubic through ``(x, y)``
    (``scipy.interpolate.PchipInterpolator``: monotone where the data are, no overshoot);
    real ``y`` only.  Differentiable in ``x``, ``y`` and the query points; where a knot
    slope switches branch (neighbouring secants changing sign or zero) the derivative
    is one side's.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> p = fi.PchipInterpolator(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 1.0]))
    >>> p(np.array([0.5, 1.5]))
    array([0.6875, 1.    ])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, axis: int = 0,
                 extrapolate: Extrapolate = None) -> None:
        x, dx, y, axis = _prepare("PchipInterpolator", x, y, axis, real_only=True)
        self._finish(x, dx, y, _pchip_slopes(dx, y), axis, extrapolate)


def pchip_interpolate(xi: ArrayLike, yi: ArrayLike, x: ArrayLike, der: Any = 0,
                      axis: int = 0) -> Any:
    """``PchipInterpolator(xi, yi, axis=axis)`` evaluated at ``x``, or its ``der``-th
    derivative (a list of them for a list of orders), as
    ``scipy.interpolate.pchip_interpolate``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> fi.pchip_interpolate(np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 4.0]),
    ...                      np.array([1.0]), der=1)
    array([1.5])
    """
    p = PchipInterpolator(xi, yi, axis=axis)
    if np.ndim(der) == 0:
        return p(x) if der == 0 else p.derivative(int(der))(x)
    return [p.derivative(int(nu))(x) for nu in der]


def _akima_slopes(dx, y, method):
    """Akima's knot slopes (``method='makima'``: the modified weights, which also count
    the secants' mean, so a run of equal secants is not over-weighted)."""
    n = y.shape[0]
    h = fnp.reshape(dx, (-1,) + (1,) * (y.ndim - 1))
    inner = fnp.diff(y, axis=0) / h
    if n == 2:
        return fnp.concatenate([inner, inner])
    # two secants extrapolated linearly past each end
    m1 = 2 * inner[0] - inner[1]
    m0 = 2 * m1 - inner[0]
    mn = 2 * inner[n - 2] - inner[n - 3]
    mn1 = 2 * mn - inner[n - 2]
    m = fnp.concatenate([m0[None], m1[None], inner, mn[None], mn1[None]])
    fallback = 0.5 * (m[3:] + m[:-3])  # (where both weights vanish)
    dm = fnp.abs(fnp.diff(m, axis=0))
    f1, f2 = dm[2:], dm[:-2]
    if method == "makima":
        pm = fnp.abs(m[1:] + m[:-1])
        f1, f2 = f1 + 0.5 * pm[2:], f2 + 0.5 * pm[:-2]
    total = f1 + f2
    defined = total > 1e-9 * fnp.max(total)
    safe = fnp.where(defined, total, 1.0)
    weighted = m[1:n + 1] + (f2 / safe) * (m[2:n + 2] - m[1:n + 1])
    return fnp.where(defined, weighted, fallback)


class Akima1DInterpolator(CubicHermiteSpline):
    """Akima's piecewise cubic through ``(x, y)`` (``scipy.interpolate.Akima1DInterpolator``,
    with SciPy 1.13's ``method='akima'|'makima'``): knot slopes from the neighbouring
    secants, weighted by how much they vary; real ``y`` only, and no extrapolation by
    default (NaN outside, as SciPy's).  Differentiable in ``x``, ``y`` and the query
    points; the weights use ``|secant differences|``, so where two of them meet or vanish
    the derivative is one side's.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.arange(5.0)
    >>> fi.Akima1DInterpolator(x, x ** 2)(np.array([1.5, 9.0]))
    array([2.25,  nan])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, axis: int = 0, *, method: str = "akima",
                 extrapolate: Optional[bool] = None) -> None:
        if method not in ("akima", "makima"):
            raise NotImplementedError(f"Akima1DInterpolator: `method`={method!r} is "
                                      f"unsupported; give 'akima' or 'makima'")
        x, dx, y, axis = _prepare("Akima1DInterpolator", x, y, axis, real_only=True)
        extrapolate = False if extrapolate is None else extrapolate
        self._finish(x, dx, y, _akima_slopes(dx, y, method), axis, extrapolate)

    def extend(self, c: ArrayLike, x: ArrayLike, right: bool = True) -> None:
        """Not available, as in SciPy: Akima's slopes near the end would change.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> a = fi.Akima1DInterpolator(np.arange(5.0), np.arange(5.0))
        >>> a.extend(np.ones((4, 1)), np.array([5.0]))
        Traceback (most recent call last):
        NotImplementedError: Extending a 1-D Akima interpolator is not yet implemented
        """
        raise NotImplementedError("Extending a 1-D Akima interpolator is not yet implemented")

    @classmethod
    def from_spline(cls, tck: Any, extrapolate: Any = None) -> Any:
        """Not available, as in SciPy: a spline is not an Akima interpolant
        (``PPoly.from_spline`` converts one).

        >>> import funcgrad.scipy.interpolate as fi
        >>> fi.Akima1DInterpolator.from_spline(None)
        Traceback (most recent call last):
        NotImplementedError: This method does not make sense for an Akima interpolator; use PPoly.from_spline
        """
        raise NotImplementedError("This method does not make sense for an Akima "
                                  "interpolator; use PPoly.from_spline")

    @classmethod
    def from_bernstein_basis(cls, bp: Any, extrapolate: Any = None) -> Any:
        """Not available, as in SciPy (``PPoly.from_bernstein_basis`` converts a BPoly).

        >>> import funcgrad.scipy.interpolate as fi
        >>> fi.Akima1DInterpolator.from_bernstein_basis(None)
        Traceback (most recent call last):
        NotImplementedError: This method does not make sense for an Akima interpolator; use PPoly.from_bernstein_basis
        """
        raise NotImplementedError("This method does not make sense for an Akima "
                                  "interpolator; use PPoly.from_bernstein_basis")
