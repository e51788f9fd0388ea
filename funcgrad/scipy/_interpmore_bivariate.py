"""Tensor-product splines on rectangles: ``RectBivariateSpline``, ``bisplrep`` and
``bisplev`` (``scipy.interpolate``'s, FITPACK's tuples ``[tx, ty, c, kx, ky]``).

A value is ``Bx(x) C By(y)^T``: the B-splines along each axis (de Boor's recurrence,
differentiable in the knots and the points) around the coefficient matrix ``C``.  As
FITPACK's, the points are clamped to the spline's rectangle (the values and the
derivatives there are the edge's), and an integral counts the part inside it.

The interpolating spline on a grid (``s=0``) separates: its coefficients are
``Ax^-1 Z Ay^-T`` with ``Ax``/``Ay`` the B-splines at the grid lines on not-a-knot knots
(FITPACK's for ``s=0``), two dense solves differentiable in the grid, the values and the
box.  With ``s > 0`` FITPACK searches knots and a smoothing factor on the values: the
fit is SciPy's, and an input that carries a derivative raises.  ``bisplrep`` with given
knots (``tx``, ``ty``, ``task=-1``) is the weighted least-squares spline on them, one QR
solve differentiable in the data and the knots.
"""
import operator
from typing import Any, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline import BSpline, basis_matrix
from ._bspline_fit import least_squares
from ._bspline_interp import _not_a_knot

__all__ = ["RectBivariateSpline", "bisplrep", "bisplev"]


def _float(a):
    a = asarray(a)
    return fnp.astype(a, np.float64) if a.dtype.kind in "biu" else a


def _refuse_derivatives(name, fix, **values):
    for label, value in values.items():
        if isinstance(value, Tracer):
            raise TypeError(f"{name}: {label} carries a derivative (or is traced by "
                            f"vmap/jit), but FITPACK's smoothing fit chooses its knots by "
                            f"a search on the values; {fix}")


def _ascending(name, label, v):
    if is_concrete(v) and v.shape[0] > 1 and np.any(np.diff(concrete_values(v, "", "")) < 0):
        raise ValueError(f"{name}: {label} must be strictly increasing when `grid` is True")


def _clamped_basis(t, k, points, nu):
    """The B-splines (their ``nu``-th derivatives) at ``points`` clamped to ``[t[k],
    t[n]]``, as FITPACK's evaluation: ``(len(points), n)``."""
    count = t.shape[0] - k - 1
    points = fnp.clip(points, t[k], t[count])
    return basis_matrix(t, k, fnp.astype(points, t.dtype), nu)


class _TensorSpline:
    """A tensor-product spline ``sum_ab c[a, b] Bx_a(x) By_b(y)`` (the evaluation side of
    SciPy's ``BivariateSpline``)."""

    def __init__(self, tx, ty, c, kx, ky, fp=None):
        self.tx, self.ty, self.c, self.degrees = tx, ty, c, (kx, ky)
        self.fp = fp

    def __call__(self, x: ArrayLike, y: ArrayLike, dx: int = 0, dy: int = 0,
                 grid: bool = True) -> Array:
        """The spline (or its ``(dx, dy)`` partial derivative) on the grid ``x`` by
        ``y`` (``grid=True``: both ascending, ``(len(x), len(y))``), or at the points
        ``(x[i], y[i])`` (``grid=False``: their broadcast shape)."""
        kx, ky = self.degrees
        dx, dy = operator.index(dx), operator.index(dy)
        if not (0 <= dx < kx and 0 <= dy < ky) and (dx or dy):
            raise ValueError(f"RectBivariateSpline: order of derivative must be less than "
                             f"the degree: dx={dx} (kx={kx}), dy={dy} (ky={ky})")
        x, y = _float(x), _float(y)
        if grid:
            x, y = fnp.reshape(x, (-1,)), fnp.reshape(y, (-1,))
            _ascending("RectBivariateSpline", "x", x)
            _ascending("RectBivariateSpline", "y", y)
            bx = _clamped_basis(self.tx, kx, x, dx)
            by = _clamped_basis(self.ty, ky, y, dy)
            return fnp.matmul(fnp.matmul(bx, self.c), fnp.transpose(by))
        x, y = fnp.broadcast_arrays(x, y)
        shape = tuple(x.shape)
        bx = _clamped_basis(self.tx, kx, fnp.reshape(x, (-1,)), dx)
        by = _clamped_basis(self.ty, ky, fnp.reshape(y, (-1,)), dy)
        return fnp.reshape(fnp.sum(fnp.matmul(bx, self.c) * by, axis=1), shape)

    def ev(self, xi: ArrayLike, yi: ArrayLike, dx: int = 0, dy: int = 0) -> Array:
        """The spline at the points ``(xi[i], yi[i])``: ``self(xi, yi, dx, dy,
        grid=False)``."""
        return self(xi, yi, dx, dy, grid=False)

    def integral(self, xa: ArrayLike, xb: ArrayLike, ya: ArrayLike, yb: ArrayLike) -> Array:
        """The integral over ``[xa, xb] x [ya, yb]`` (the part inside the spline's
        rectangle)."""
        kx, ky = self.degrees
        ix = self._basis_integrals(self.tx, kx, xa, xb)
        iy = self._basis_integrals(self.ty, ky, ya, yb)
        return fnp.asarray(fnp.sum(ix[:, None] * self.c * iy[None, :]))

    @staticmethod
    def _basis_integrals(t, k, a, b):
        count = t.shape[0] - k - 1
        identity = fnp.astype(fnp.asarray(np.eye(count)), t.dtype) + 0 * t[:1]
        return BSpline(t, identity, k).integrate(a, b, extrapolate=False)

    def partial_derivative(self, dx: int, dy: int) -> "_TensorSpline":
        """The ``(dx, dy)`` partial derivative as a spline of degrees ``(kx - dx, ky -
        dy)``."""
        kx, ky = self.degrees
        if not (0 <= dx <= kx and 0 <= dy <= ky):
            raise ValueError(f"RectBivariateSpline: order of derivative must be less than "
                             f"the degree: dx={dx} (kx={kx}), dy={dy} (ky={ky})")
        along_x = BSpline(self.tx, self.c, kx).derivative(dx)
        along_y = BSpline(self.ty, fnp.transpose(along_x.c), ky).derivative(dy)
        return _TensorSpline(along_x.t, along_y.t, fnp.transpose(along_y.c), along_x.k,
                             along_y.k)

    def get_knots(self) -> Any:
        """``(tx, ty)``."""
        return self.tx, self.ty

    def get_coeffs(self) -> Array:
        """The coefficients, flattened with ``y``'s index fastest (FITPACK's order)."""
        return fnp.reshape(self.c, (-1,))

    def get_residual(self) -> Any:
        """The weighted sum of squared residuals of the fit (0 when it interpolates)."""
        return self.fp


class RectBivariateSpline(_TensorSpline):
    """The bivariate spline through (``s=0``) or near (``s > 0``) values on a
    rectangular grid (``scipy.interpolate.RectBivariateSpline``): ``x`` and ``y``
    strictly ascending, ``z`` ``(len(x), len(y))``, degrees ``kx``, ``ky``, ``bbox``
    ``[xb, xe, yb, ye]`` (default the grid's ends).  Calling it at ``(x, y)`` evaluates
    on the grid (``grid=True``) or at points; ``dx``, ``dy`` the partial derivatives;
    ``ev``, ``integral``, ``partial_derivative``, ``get_knots``, ``get_coeffs``.  With
    ``s=0`` differentiable in ``x``, ``y``, ``z``, the box and the query points; with
    ``s > 0`` (FITPACK's search, at most ``maxit`` iterations, as SciPy's) in the query
    points only.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x, y = np.linspace(0.0, 1.0, 5), np.linspace(0.0, 2.0, 6)
    >>> f = fi.RectBivariateSpline(x, y, np.add.outer(x ** 2, y ** 3))  # (both cubics)
    >>> f(np.array([0.5]), np.array([1.5, 2.0]))
    array([[3.625, 8.25 ]])
    >>> f.ev(0.5, 1.5, dy=1)  # 3 y**2
    array(6.75)
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, z: ArrayLike,
                 bbox: Sequence[Any] = [None] * 4, kx: int = 3, ky: int = 3,
                 s: float = 0, maxit: int = 20) -> None:
        x, y, z = _float(x), _float(y), _float(z)
        kx, ky = operator.index(kx), operator.index(ky)
        if x.ndim != 1 or y.ndim != 1 or tuple(z.shape) != (x.shape[0], y.shape[0]):
            raise ValueError(f"RectBivariateSpline: x dimension of z must have same number "
                             f"of elements as x, and y's as y: x {tuple(x.shape)}, y "
                             f"{tuple(y.shape)}, z {tuple(z.shape)}")
        for label, v in (("x", x), ("y", y)):
            if is_concrete(v) and not np.all(np.diff(concrete_values(v, "", "")) > 0):
                raise ValueError(f"RectBivariateSpline: {label} must be strictly increasing")
        if not (1 <= kx <= 5 and 1 <= ky <= 5):
            raise ValueError(f"RectBivariateSpline: degrees must be 1 to 5, got kx={kx}, "
                             f"ky={ky}")
        if x.shape[0] <= kx or y.shape[0] <= ky:
            raise ValueError(f"RectBivariateSpline: need more than kx={kx} (ky={ky}) grid "
                             f"lines along x (y); got {x.shape[0]} and {y.shape[0]}")
        bbox = list(bbox)
        if len(bbox) != 4:
            raise ValueError(f"RectBivariateSpline: bbox shape should be (4,), got "
                             f"{len(bbox)} entries")
        if s < 0:
            raise ValueError(f"RectBivariateSpline: s should be s >= 0, got {s}")
        if s == 0:
            tx = self._knots(x, kx, bbox[0], bbox[1])
            ty = self._knots(y, ky, bbox[2], bbox[3])
            dtype = np.result_type(x.dtype, y.dtype, z.dtype)
            ax = fnp.astype(basis_matrix(tx, kx, x), dtype)
            ay = fnp.astype(basis_matrix(ty, ky, y), dtype)
            c = fnp.linalg.solve(ax, fnp.astype(z, dtype))
            c = fnp.transpose(fnp.linalg.solve(ay, fnp.transpose(c)))
            super().__init__(tx, ty, c, kx, ky, fnp.zeros((), dtype))
            return
        _refuse_derivatives("RectBivariateSpline", "pass s=0 (the interpolating spline, "
                            "differentiable in the data)", x=x, y=y, z=z)
        from scipy.interpolate import RectBivariateSpline as ScipyRect  # (here: importing
        # funcgrad never loads SciPy)
        fit = ScipyRect(*(concrete_values(v, "", "") for v in (x, y, z)), bbox=bbox,
                        kx=kx, ky=ky, s=s, maxit=maxit)
        tx, ty = fit.get_knots()
        c = fit.get_coeffs().reshape(tx.shape[0] - kx - 1, ty.shape[0] - ky - 1)
        super().__init__(asarray(tx), asarray(ty), asarray(c), kx, ky,
                         asarray(fit.get_residual()))

    @staticmethod
    def _knots(v, k, low, high):
        knots = _not_a_knot(v, k)
        if low is None and high is None:
            return knots
        n = knots.shape[0]
        first = v[:1] if low is None else fnp.reshape(fnp.astype(asarray(low), v.dtype), (1,))
        last = (v[v.shape[0] - 1:] if high is None
                else fnp.reshape(fnp.astype(asarray(high), v.dtype), (1,)))
        return fnp.concatenate([first] * (k + 1) + [knots[k + 1:n - k - 1]]
                               + [last] * (k + 1))


def _tck(name, tck):
    try:
        tx, ty, c, kx, ky = tck
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name}: tck must be the list [tx, ty, c, kx, ky]") from e
    tx, ty, c = _float(tx), _float(ty), _float(c)
    kx, ky = operator.index(kx), operator.index(ky)
    shape = (tx.shape[0] - kx - 1, ty.shape[0] - ky - 1)
    if c.ndim != 1 or c.shape[0] < shape[0] * shape[1]:
        raise ValueError(f"{name}: c must be 1-d with (len(tx) - kx - 1) * (len(ty) - ky - "
                         f"1) = {shape[0] * shape[1]} coefficients, got shape "
                         f"{tuple(c.shape)}")
    return _TensorSpline(tx, ty, fnp.reshape(c[:shape[0] * shape[1]], shape), kx, ky)


def _with_ends(t, k, low, high):
    """The knots ``t`` with ``k + 1`` ends at ``min(low)`` and ``max(high)``."""
    n = t.shape[0]
    first = fnp.reshape(fnp.astype(fnp.min(_float(low)), t.dtype), (1,))
    last = fnp.reshape(fnp.astype(fnp.max(_float(high)), t.dtype), (1,))
    return fnp.concatenate([first] * (k + 1) + [t[k + 1:n - k - 1]] + [last] * (k + 1))


def bisplev(x: ArrayLike, y: ArrayLike, tck: Any, dx: int = 0, dy: int = 0) -> Any:
    """The bivariate spline ``tck = [tx, ty, c, kx, ky]`` (from :func:`bisplrep`) or its
    ``(dx, dy)`` partial derivative on the grid of the ascending ``x`` and ``y``
    (``scipy.interpolate.bisplev``): ``(len(x), len(y))``, with SciPy's squeezing (a
    row for one ``x``, a scalar for one point).  Points outside the spline's rectangle
    take its edge's values.  Differentiable in ``x``, ``y``, the knots and ``c``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])  # (degree 1: bilinear on the unit square)
    >>> tck = [t, t, np.array([0.0, 1.0, 2.0, 3.0]), 1, 1]
    >>> fi.bisplev(np.array([0.5]), np.array([0.25, 0.75]), tck)
    array([1.25, 1.75])
    """
    spline = _tck("bisplev", tck)
    kx, ky = spline.degrees
    if not (0 <= dx < kx and 0 <= dy < ky) and (dx or dy):
        raise ValueError(f"bisplev: 0 <= dx = {dx} < kx = {kx} and 0 <= dy = {dy} < ky = "
                         f"{ky} must hold")
    x, y = fnp.reshape(_float(x), (-1,)), fnp.reshape(_float(y), (-1,))
    for label, v in (("x", x), ("y", y)):
        if is_concrete(v) and v.shape[0] > 1 and np.any(
                np.diff(concrete_values(v, "", "")) < 0):
            raise ValueError(f"bisplev: Invalid input data: {label} must be ascending")
    z = spline(x, y, dx, dy)
    if z.shape[0] > 1:
        return z
    if z.shape[1] > 1:
        return z[0]
    return z[0, 0]


def bisplrep(x: ArrayLike, y: ArrayLike, z: ArrayLike, w: Optional[ArrayLike] = None,
             xb: Any = None, xe: Any = None, yb: Any = None, ye: Any = None, kx: int = 3,
             ky: int = 3, task: int = 0, s: Optional[float] = None, eps: float = 1e-16,
             tx: Optional[ArrayLike] = None, ty: Optional[ArrayLike] = None,
             full_output: int = 0, nxest: Optional[int] = None,
             nyest: Optional[int] = None, quiet: int = 1) -> Any:
    """The bivariate B-spline fitted to scattered ``z(x, y)``
    (``scipy.interpolate.bisplrep``) as ``[tx, ty, c, kx, ky]``.  With the knot vectors
    ``tx`` and ``ty`` given (``task=-1``; as FITPACK, their interior knots are kept and
    their ends moved to ``xb``, ``xe``, ``yb``, ``ye``, by default the data's extent) it
    is the weighted least-squares spline on them, differentiable in ``x``, ``y``, ``z``, ``w`` and the knots (the
    knots must leave no B-spline without data).  Otherwise FITPACK's smoothing fit
    (SciPy's own search for knots and smoothing factor: its values; an input carrying a
    derivative raises ``TypeError``: fit once, then refit with its knots for
    derivatives).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> g = np.linspace(0.0, 1.0, 6)
    >>> x, y = np.repeat(g, 6), np.tile(g, 6)
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])
    >>> tck = fi.bisplrep(x, y, 1 + x + 2 * y, kx=1, ky=1, task=-1, tx=t, ty=t)
    >>> np.round(tck[2], 12)  # (the plane exactly: its values at the corners)
    array([1., 3., 2., 4.])
    """
    x, y, z = (fnp.reshape(_float(v), (-1,)) for v in (x, y, z))
    m = x.shape[0]
    if y.shape[0] != m or z.shape[0] != m:
        raise ValueError(f"bisplrep: len(x)==len(y)==len(z) must hold, got {m}, "
                         f"{y.shape[0]}, {z.shape[0]}")
    kx, ky = operator.index(kx), operator.index(ky)
    if task == -1:
        if tx is None or ty is None:
            raise ValueError("bisplrep: Knots_x and knots_y must be given for task=-1")
        if full_output:
            raise NotImplementedError("bisplrep: full_output with given knots is not "
                                      "implemented; compute the residual from bisplev")
        # (FITPACK keeps the interior knots and puts the ends at xb/xe, yb/ye: by
        # default the data's extent)
        knots_x = _with_ends(_float(tx), kx, x if xb is None else xb, x if xe is None else xe)
        knots_y = _with_ends(_float(ty), ky, y if yb is None else yb, y if ye is None else ye)
        count_x, count_y = knots_x.shape[0] - kx - 1, knots_y.shape[0] - ky - 1
        if m < count_x * count_y:
            raise ValueError(f"bisplrep: {m} points cannot determine "
                             f"{count_x * count_y} coefficients; give fewer knots")
        bx = _clamped_basis(knots_x, kx, x, 0)
        by = _clamped_basis(knots_y, ky, y, 0)
        rows = fnp.reshape(bx[:, :, None] * by[:, None, :], (m, count_x * count_y))
        weights = fnp.ones((m,), x.dtype) if w is None else fnp.astype(_float(w), x.dtype)
        dtype = np.result_type(rows.dtype, z.dtype)
        c = least_squares(fnp.astype(rows, dtype), fnp.astype(weights, dtype),
                          fnp.reshape(fnp.astype(z, dtype), (m, 1)))[:, 0]
        return [knots_x, knots_y, c, kx, ky]
    _refuse_derivatives("bisplrep", "fit once, then pass its knots (tx=tck[0], "
                        "ty=tck[1], task=-1) for a fit differentiable in the data",
                        x=x, y=y, z=z, w=w)
    from scipy.interpolate import bisplrep as scipy_bisplrep  # (here: importing funcgrad
    # never loads SciPy)
    plain = [None if v is None else concrete_values(asarray(v), "", "")
             for v in (x, y, z, w)]
    out = scipy_bisplrep(*plain, xb=xb, xe=xe, yb=yb, ye=ye, kx=kx, ky=ky, task=task, s=s,
                         eps=eps, tx=tx, ty=ty, full_output=full_output, nxest=nxest,
                         nyest=nyest, quiet=quiet)
    return out
