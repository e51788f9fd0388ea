"""``funcgrad.scipy.interpolate``: the 1-d interpolators ``interp1d``, ``CubicSpline``,
``PchipInterpolator`` (``pchip_interpolate``), ``Akima1DInterpolator``,
``CubicHermiteSpline`` and their ``PPoly`` form, ``BSpline``, ``make_interp_spline``
(any degree, given knots and boundary conditions, periodic) and FITPACK's ``splrep``
(interpolating, least-squares, smoothing) with ``splev`` and ``splint`` (in
:mod:`._interp1d`, :mod:`._cubic`, :mod:`._ppoly`, :mod:`._bspline` and
:mod:`._bspline_interp`); the fitted splines ``make_lsq_spline`` and
``make_smoothing_spline`` (:mod:`._bspline_fit`), ``UnivariateSpline``,
``InterpolatedUnivariateSpline`` and ``LSQUnivariateSpline`` (:mod:`._univariate`) and
the parametric curves of ``splprep`` (:mod:`._splprep`); and
``RegularGridInterpolator`` and ``interpn`` with ``method`` 'linear' or 'nearest' (as
``jax.scipy.interpolate``; 'slinear' too),
differentiable in the values, the query points and the grid coordinates.

Each query coordinate's cell is found by comparison with the grid (a count of the grid
points below it: no derivative, and no known values needed, so ``vmap``/``jit`` work),
and the ``2**d`` corners are gathered and weighted by ``(x - g_i) / (g_{i+1} - g_i)``.
Points outside the grid raise (``bounds_error=True``, SciPy's default; on known values
only), take ``fill_value``, or with ``fill_value=None`` are extrapolated from the edge
cells, as SciPy's.  'slinear' (the spline of degree 1) is the same interpolant as
'linear'; the higher spline methods ('cubic', 'quintic', 'pchip') raise
``NotImplementedError`` naming the supported ones.
"""
import itertools
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline import BSpline
from ._bspline_fit import make_lsq_spline, make_smoothing_spline
from ._bspline_interp import make_interp_spline, splev, splint, splrep
from ._cubic import (Akima1DInterpolator, CubicHermiteSpline, CubicSpline, PchipInterpolator,
                     pchip_interpolate)
from ._interp1d import interp1d
from ._ppoly import PPoly
from ._splprep import splprep
from ._univariate import InterpolatedUnivariateSpline, LSQUnivariateSpline, UnivariateSpline

__all__ = ["RegularGridInterpolator", "interpn", "interp1d", "CubicSpline",
           "CubicHermiteSpline", "PchipInterpolator", "pchip_interpolate",
           "Akima1DInterpolator", "PPoly", "BSpline", "make_interp_spline", "splrep", "splev",
           "splint", "make_lsq_spline", "make_smoothing_spline", "UnivariateSpline",
           "InterpolatedUnivariateSpline", "LSQUnivariateSpline", "splprep"]

_METHODS = ("linear", "nearest", "slinear")


def _method(name, method):
    if method not in _METHODS:
        raise NotImplementedError(f"{name}: method={method!r} is not implemented; pass "
                                  f"method='linear' (or 'slinear', the same) or 'nearest'")
    return "linear" if method == "slinear" else method


class RegularGridInterpolator:
    """Interpolation on a rectilinear grid (``scipy.interpolate.RegularGridInterpolator``):
    ``points`` one strictly increasing (or decreasing) 1-d array per dimension, ``values``
    of shape ``(len(points[0]), ..., len(points[d-1]), ...)`` (trailing axes are carried
    along); calling it at ``xi`` (``(..., d)``) interpolates.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> grid = (np.array([0.0, 1.0, 2.0]), np.array([0.0, 10.0]))
    >>> values = np.array([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
    >>> f = fi.RegularGridInterpolator(grid, values)
    >>> f(np.array([[0.5, 5.0], [2.0, 10.0]]))
    array([1.5, 5. ])
    >>> fg.grad(lambda x: fi.RegularGridInterpolator(grid, values)(x)[0])(np.array([0.5, 5.0]))
    array([2. , 0.1])
    """

    def __init__(self, points: Sequence[ArrayLike], values: ArrayLike, method: str = "linear",
                 bounds_error: bool = True, fill_value: Optional[float] = np.nan, *,
                 solver: Any = None, solver_args: Any = None) -> None:
        _method("RegularGridInterpolator", method)  # (checked now, kept as named)
        self.method = method
        self.bounds_error, self.fill_value = bounds_error, fill_value
        values = asarray(values)
        if values.dtype.kind in "biu":
            values = fnp.astype(values, np.float64)
        grid = []
        for d, p in enumerate(points):
            p = asarray(p)
            if p.ndim != 1 or p.shape[0] != values.shape[d]:
                raise ValueError(f"RegularGridInterpolator: there are {values.shape[d]} "
                                 f"values along dimension {d} but points[{d}] has shape "
                                 f"{tuple(p.shape)}; give a 1-d array of that length")
            if is_concrete(p):
                steps = np.diff(np.asarray(concrete_values(p, "", ""), dtype=np.float64))
                if not (np.all(steps > 0) or np.all(steps < 0)):
                    raise ValueError(f"RegularGridInterpolator: points[{d}] must be strictly "
                                     f"ascending or descending")
                if steps.size and steps[0] < 0:  # (descending: flipped, as SciPy)
                    p, values = fnp.flip(p), fnp.flip(values, axis=d)
            grid.append(p)
        if len(grid) > values.ndim:
            raise ValueError(f"RegularGridInterpolator: {len(grid)} point arrays for values "
                             f"of {values.ndim} dimensions")
        self._grid: Tuple[Array, ...] = tuple(grid)
        self._values = values

    @property
    def grid(self) -> Tuple[Array, ...]:
        """The points of each dimension (ascending), as given (read-only, as SciPy's)."""
        return self._grid

    @property
    def values(self) -> Array:
        """The data on the grid (read-only, as SciPy's; build a new interpolator for new
        values)."""
        return self._values

    def __call__(self, xi: ArrayLike, method: Optional[str] = None, *, nu: Any = None
                 ) -> Array:
        """The interpolated values at ``xi`` (``(..., d)``; the result has shape
        ``xi.shape[:-1] + values.shape[d:]``)."""
        if nu is not None:
            raise NotImplementedError("RegularGridInterpolator: derivatives by nu are for "
                                      "the spline methods; differentiate with fg.grad")
        method = _method("RegularGridInterpolator", method or self.method)
        d = len(self.grid)
        xi = asarray(xi)
        if xi.dtype.kind in "biu":
            xi = fnp.astype(xi, np.float64)
        if xi.ndim <= 1:  # (a flat array holds whole points, as SciPy's: (-1, d))
            xi = fnp.reshape(xi, (-1, d))
        if xi.shape[-1] != d:
            raise ValueError(f"RegularGridInterpolator: the query points have shape "
                             f"{tuple(xi.shape)}, but the grid has {d} dimensions; give "
                             f"shape (..., {d})")
        batch = xi.shape[:-1]
        flat_xi = fnp.reshape(xi, (-1, d))
        outside: Array = np.zeros(flat_xi.shape[0], bool)
        corners_per_axis = []
        for axis, g in enumerate(self.grid):
            x = flat_xi[:, axis]
            n = g.shape[0]
            out = fnp.logical_or(x < g[0], x > g[n - 1])
            outside = fnp.logical_or(outside, out)
            if n == 1:
                corners_per_axis.append([(np.zeros(x.shape, np.int64), None)])
                continue
            # the cell: how many interior grid points lie at or below x (0 .. n - 2)
            cell = fnp.sum(fnp.astype(x[:, None] >= g[None, 1:n - 1], np.int64), axis=1)
            low, high = fnp.take(g, cell), fnp.take(g, cell + 1)
            t = (x - low) / (high - low)
            if method == "nearest":  # (a tie goes to the lower point, as SciPy's)
                corners_per_axis.append([(fnp.where(t <= 0.5, cell, cell + 1), None)])
            else:
                corners_per_axis.append([(cell, 1.0 - t), (cell + 1, t)])
        if self.bounds_error and is_concrete(outside) and bool(np.any(concrete_values(
                outside, "", ""))):
            raise ValueError("RegularGridInterpolator: a query point lies outside the grid; "
                             "pass bounds_error=False (with fill_value, or fill_value=None "
                             "to extrapolate)")
        result: Array = None  # type: ignore[assignment]  # (set by the first corner)
        trailing = self.values.ndim - d
        sizes = [g.shape[0] for g in self.grid]
        flat_values = fnp.reshape(self.values, (-1,) + self.values.shape[d:])
        strides = [int(np.prod(sizes[k + 1:])) for k in range(d)]
        for corner in itertools.product(*corners_per_axis):
            linear = sum(index * stride for (index, _), stride in zip(corner, strides))
            term = fnp.take(flat_values, linear, axis=0)
            for _, weight in corner:
                if weight is not None:
                    term = term * fnp.reshape(weight, weight.shape + (1,) * trailing)
            result = term if result is None else result + term
        if self.fill_value is not None and not self.bounds_error:
            mask = fnp.reshape(outside, outside.shape + (1,) * trailing)
            result = fnp.where(mask, fnp.astype(fnp.asarray(self.fill_value), result.dtype),
                               result)
        return fnp.reshape(result, batch + self.values.shape[d:])


def interpn(points: Sequence[ArrayLike], values: ArrayLike, xi: ArrayLike,
            method: str = "linear", bounds_error: bool = True,
            fill_value: Optional[float] = np.nan) -> Array:
    """``RegularGridInterpolator(points, values, method, bounds_error, fill_value)(xi)``
    (``scipy.interpolate.interpn``).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> fi.interpn((np.array([0.0, 1.0]),), np.array([1.0, 3.0]), np.array([0.25]))
    array([1.5])
    """
    return RegularGridInterpolator(points, values, method, bounds_error, fill_value)(xi)

from ._interpmore_fitpack import insert, spalde, splantider, splder, sproot  # noqa: E402

__all__ += ["splder", "splantider", "sproot", "insert", "spalde"]
from ._interpmore_poly import (BarycentricInterpolator, KroghInterpolator,  # noqa: E402
                               approximate_taylor_polynomial, barycentric_interpolate,
                               krogh_interpolate, lagrange, pade)

__all__ += ["BarycentricInterpolator", "barycentric_interpolate", "KroghInterpolator",
            "krogh_interpolate", "lagrange", "pade", "approximate_taylor_polynomial"]
from ._interpmore_bpoly import BPoly  # noqa: E402

__all__ += ["BPoly"]
from ._interpmore_rbf import RBFInterpolator  # noqa: E402

__all__ += ["RBFInterpolator"]
from ._interpmore_nd import LinearNDInterpolator, NearestNDInterpolator  # noqa: E402
from ._griddata import griddata  # noqa: E402

__all__ += ["NearestNDInterpolator", "LinearNDInterpolator", "griddata"]
from ._interpmore_bivariate import RectBivariateSpline, bisplev, bisplrep  # noqa: E402

__all__ += ["RectBivariateSpline", "bisplrep", "bisplev"]
from ._interpmore_clough import CloughTocher2DInterpolator  # noqa: E402

__all__ += ["CloughTocher2DInterpolator"]
from ._rbf_legacy import Rbf  # noqa: E402

__all__ += ["Rbf"]
from ._interpmore2_splrep import generate_knots, make_splprep, make_splrep  # noqa: E402

__all__ += ["make_splrep", "make_splprep", "generate_knots"]
from ._interpmore2_nd import NdBSpline, NdPPoly  # noqa: E402
from ._interpmore2_removed import interp2d  # noqa: E402

__all__ += ["NdBSpline", "NdPPoly", "interp2d"]
from ._interpmore2_bivariate import (BivariateSpline, LSQBivariateSpline,  # noqa: E402
                                     LSQSphereBivariateSpline, RectSphereBivariateSpline,
                                     SmoothBivariateSpline, SmoothSphereBivariateSpline,
                                     SphereBivariateSpline)

__all__ += ["BivariateSpline", "LSQBivariateSpline", "SmoothBivariateSpline",
            "SphereBivariateSpline", "SmoothSphereBivariateSpline",
            "LSQSphereBivariateSpline", "RectSphereBivariateSpline"]
from ._interpmore2_rational import AAA, FloaterHormannInterpolator  # noqa: E402

__all__ += ["AAA", "FloaterHormannInterpolator"]
