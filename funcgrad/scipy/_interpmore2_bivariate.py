"""The bivariate splines of scattered data and on the sphere: ``BivariateSpline`` (the
base of the evaluation methods), ``LSQBivariateSpline``, ``SmoothBivariateSpline``,
``SmoothSphereBivariateSpline``, ``LSQSphereBivariateSpline`` and
``RectSphereBivariateSpline`` (``scipy.interpolate``'s).

Evaluation is :mod:`._interpmore_bivariate`'s tensor-product spline (de Boor's
recurrence along each axis, points clamped to the rectangle as FITPACK's): differentiable
in the query points, the knots and the coefficients.

``LSQBivariateSpline`` on given interior knots is one weighted QR least-squares solve,
so its coefficients are differentiable in ``z``, ``w``, ``x``, ``y``, the knots and the
box.  The smoothing fits (``SmoothBivariateSpline``, the three sphere splines) are
FITPACK's: a search for knots and a smoothing factor, and on the sphere coefficients
constrained at the poles and periodic in ``phi``.  Their knots and coefficients are
SciPy's values; data that carry a derivative raise ``TypeError`` (no derivative of the
fit is given rather than a wrong one), while the fitted spline is differentiable in the
query points.
"""
import operator
from typing import Any, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline_fit import least_squares
from ._interpmore_bivariate import _clamped_basis, _TensorSpline

__all__ = ["BivariateSpline", "LSQBivariateSpline", "SmoothBivariateSpline",
           "SphereBivariateSpline", "SmoothSphereBivariateSpline",
           "LSQSphereBivariateSpline", "RectSphereBivariateSpline"]


def _float(a):
    a = asarray(a)
    return fnp.astype(a, np.float64) if a.dtype.kind in "biu" else a


class BivariateSpline(_TensorSpline):
    """The evaluation methods of a bivariate spline on the rectangle ``[xb, xe] x [yb,
    ye]`` (``scipy.interpolate.BivariateSpline``, the base of the fitted splines):
    ``__call__`` (on a grid, or at points with ``grid=False``; ``dx``, ``dy``), ``ev``,
    ``integral``, ``partial_derivative``, ``get_knots``, ``get_coeffs``,
    ``get_residual``.  ``BivariateSpline._from_tck((tx, ty, c, kx, ky))`` makes one from
    knots and coefficients; differentiable in the points, the knots and ``c``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> t = np.array([0.0, 0.0, 1.0, 1.0])  # (degree 1: bilinear on the unit square)
    >>> spl = fi.BivariateSpline._from_tck((t, t, np.array([0.0, 1.0, 2.0, 3.0]), 1, 1))
    >>> spl.ev(np.array([0.5, 1.0]), np.array([0.25, 1.0]))
    array([1.25, 3.  ])
    >>> spl.integral(0.0, 1.0, 0.0, 1.0)
    array(1.5)
    """

    @classmethod
    def _from_tck(cls, tck: Any) -> Any:
        """The spline with knots ``tx``, ``ty``, coefficients ``c`` (``y``'s index
        fastest) and degrees ``kx``, ``ky`` (``tck``, five entries)."""
        if len(tck) != 5:
            raise ValueError("tck should be a 5 element tuple of tx, ty, c, kx, ky")
        tx, ty, c, kx, ky = tck
        tx, ty, c = _float(tx), _float(ty), _float(c)
        kx, ky = operator.index(kx), operator.index(ky)
        shape = (tx.shape[0] - kx - 1, ty.shape[0] - ky - 1)
        self = cls.__new__(cls)
        _TensorSpline.__init__(self, tx, ty, fnp.reshape(c[:shape[0] * shape[1]], shape),
                               kx, ky)
        return self


def _validated(x, y, z, w, kx, ky, eps):
    """SciPy's checks of the scattered data (``BivariateSpline._validate_input``)."""
    x, y, z = (fnp.reshape(_float(v), (-1,)) for v in (x, y, z))
    if not x.shape[0] == y.shape[0] == z.shape[0]:
        raise ValueError("x, y, and z should have a same length")
    if w is not None:
        w = fnp.reshape(_float(w), (-1,))
        if w.shape[0] != x.shape[0]:
            raise ValueError("x, y, z, and w should have a same length")
        if is_concrete(w) and not np.all(concrete_values(w, "", "") >= 0):
            raise ValueError("w should be positive")
    if eps is not None and not 0.0 < eps < 1.0:
        raise ValueError("eps should be between (0, 1)")
    if not x.shape[0] >= (kx + 1) * (ky + 1):
        raise ValueError("The length of x, y and z should be at least (kx+1) * (ky+1)")
    return x, y, z, w


def _box(bbox):
    bbox = list(bbox)
    if len(bbox) != 4:
        raise ValueError("bbox shape should be (4,)")
    return bbox


def _end(value, data, pick):
    return fnp.reshape(_float(pick(data) if value is None else value), (1,))


class LSQBivariateSpline(BivariateSpline):
    """The weighted least-squares bivariate spline on given knots
    (``scipy.interpolate.LSQBivariateSpline``): scattered ``z(x, y)``, the interior
    knots ``tx`` and ``ty``, the ends at ``bbox`` (default the data's extent), degrees
    ``kx``, ``ky``.  Its coefficients minimise ``sum((w (z - s(x, y)))**2)``, one QR
    solve: differentiable in ``z``, ``w``, ``x``, ``y``, ``tx``, ``ty`` and the box (a
    rank-deficient system, where SciPy returns FITPACK's minimal-norm solution with a
    warning, raises).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> g = np.linspace(0.0, 1.0, 5)
    >>> x, y = np.repeat(g, 5), np.tile(g, 5)
    >>> spl = fi.LSQBivariateSpline(x, y, 1 + x + 2 * y, [0.5], [0.5], kx=1, ky=1)
    >>> np.round(spl.ev(np.array([0.3]), np.array([0.6])), 12)  # (the plane exactly)
    array([2.5])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, z: ArrayLike, tx: ArrayLike,
                 ty: ArrayLike, w: Optional[ArrayLike] = None,
                 bbox: Sequence[Any] = [None] * 4, kx: int = 3, ky: int = 3,
                 eps: Optional[float] = None) -> None:
        kx, ky = operator.index(kx), operator.index(ky)
        x, y, z, w = _validated(x, y, z, w, kx, ky, eps)
        xb, xe, yb, ye = _box(bbox)
        m = x.shape[0]
        dtype = np.result_type(x.dtype, y.dtype, z.dtype)
        inner_x = fnp.astype(fnp.reshape(_float(tx), (-1,)), dtype)
        inner_y = fnp.astype(fnp.reshape(_float(ty), (-1,)), dtype)
        knots_x = fnp.concatenate([fnp.astype(_end(xb, x, fnp.min), dtype)] * (kx + 1)
                                  + [inner_x]
                                  + [fnp.astype(_end(xe, x, fnp.max), dtype)] * (kx + 1))
        knots_y = fnp.concatenate([fnp.astype(_end(yb, y, fnp.min), dtype)] * (ky + 1)
                                  + [inner_y]
                                  + [fnp.astype(_end(ye, y, fnp.max), dtype)] * (ky + 1))
        count_x, count_y = knots_x.shape[0] - kx - 1, knots_y.shape[0] - ky - 1
        for label, knots, data in (("x", knots_x, x), ("y", knots_y, y)):
            if is_concrete(knots) and is_concrete(data):
                t, v = concrete_values(knots, "", ""), concrete_values(data, "", "")
                if np.any(np.diff(t) < 0) or v.min() < t[0] or v.max() > t[-1]:
                    raise ValueError(f"LSQBivariateSpline: the {label} knots must be "
                                     f"ascending inside the box, and the data inside it")
        bx = _clamped_basis(knots_x, kx, fnp.astype(x, dtype), 0)
        by = _clamped_basis(knots_y, ky, fnp.astype(y, dtype), 0)
        rows = fnp.reshape(bx[:, :, None] * by[:, None, :], (m, count_x * count_y))
        weights = fnp.ones((m,), dtype) if w is None else fnp.astype(w, dtype)
        if is_concrete(rows) and is_concrete(weights):
            weighted = concrete_values(rows, "", "") * concrete_values(weights, "", "")[:, None]
            rank = np.linalg.matrix_rank(weighted)
            if rank < count_x * count_y:
                raise ValueError(f"LSQBivariateSpline: the least-squares system is rank "
                                 f"deficient ({count_x * count_y - rank} of "
                                 f"{count_x * count_y} coefficients are not determined "
                                 f"by the data); give fewer knots or more data between "
                                 f"them")
        z = fnp.astype(z, dtype)
        c = least_squares(rows, weights, fnp.reshape(z, (m, 1)))[:, 0]
        residual = weights * (z - fnp.matmul(rows, c))
        super().__init__(knots_x, knots_y, fnp.reshape(c, (count_x, count_y)), kx, ky,
                         fnp.sum(residual * residual))


def _plain_data(name, **values):
    """The data as plain NumPy arrays, refusing any that carries a derivative."""
    plain = {}
    for label, value in values.items():
        if value is None:
            plain[label] = None
            continue
        if isinstance(value, Tracer):
            raise TypeError(f"{name}: {label} carries a derivative (or is traced by "
                            f"vmap/jit), but FITPACK's smoothing fit chooses its knots "
                            f"and smoothing factor by a search on the values, and no "
                            f"derivative of that fit is given; pass {label} as plain "
                            f"numbers (the fitted spline is differentiable in the query "
                            f"points)")
        plain[label] = np.asarray(concrete_values(asarray(value), "", ""), np.float64)
    return plain


def _from_scipy(self, fit):
    tx, ty = fit.get_knots()
    kx, ky = fit.degrees
    c = np.asarray(fit.get_coeffs())[:(len(tx) - kx - 1) * (len(ty) - ky - 1)]
    _TensorSpline.__init__(self, asarray(tx), asarray(ty),
                           asarray(c.reshape(len(tx) - kx - 1, len(ty) - ky - 1)), kx, ky,
                           asarray(fit.get_residual()))


class SmoothBivariateSpline(BivariateSpline):
    """FITPACK's smoothing bivariate spline of scattered ``z(x, y)``
    (``scipy.interpolate.SmoothBivariateSpline``): ``sum((w (z - s(x, y)))**2) <= s``
    (default ``s = len(w)``), knots and smoothing chosen by FITPACK.  The knots and
    coefficients are SciPy's; the data must be plain numbers (no derivative of the
    search is given: ``TypeError``), the spline is differentiable in the query points.
    For a fit differentiable in ``z``, refit with :class:`LSQBivariateSpline` on its
    interior knots (the least-squares spline, without the smoothing).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> g = np.linspace(0.0, 1.0, 6)
    >>> x, y = np.repeat(g, 6), np.tile(g, 6)
    >>> spl = fi.SmoothBivariateSpline(x, y, x * y, kx=1, ky=1, s=0.01)
    >>> np.round(spl.ev(np.array([0.5]), np.array([0.4])), 12)  # (x y is bilinear)
    array([0.2])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, z: ArrayLike,
                 w: Optional[ArrayLike] = None, bbox: Sequence[Any] = [None] * 4,
                 kx: int = 3, ky: int = 3, s: Optional[float] = None,
                 eps: float = 1e-16) -> None:
        kx, ky = operator.index(kx), operator.index(ky)
        x, y, z, w = _validated(x, y, z, w, kx, ky, eps)
        data = _plain_data("SmoothBivariateSpline", x=x, y=y, z=z, w=w)
        from scipy.interpolate import SmoothBivariateSpline as Scipy  # (here: importing
        # funcgrad never loads SciPy)
        fit = Scipy(data["x"], data["y"], data["z"], data["w"], bbox=_box(bbox), kx=kx,
                    ky=ky, s=s, eps=eps)
        _from_scipy(self, fit)


class SphereBivariateSpline(BivariateSpline):
    """The evaluation methods of a bicubic spline on the sphere, in colatitude
    ``theta`` (``[0, pi]``) and longitude ``phi`` (``scipy.interpolate``'s base of the
    sphere splines): ``__call__(theta, phi, dtheta=0, dphi=0, grid=True)`` and ``ev``;
    differentiable in the query points.  No ``integral`` (as SciPy's).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> theta, phi = np.linspace(0.3, 2.8, 6), np.linspace(0.2, 6.0, 7)
    >>> r = np.cos(theta)[:, None] + 0 * phi  # (a function of theta only)
    >>> spl = fi.RectSphereBivariateSpline(theta, phi, r)
    >>> np.round(spl.ev(np.array([1.0]), np.array([3.0])), 3)
    array([0.54])
    """

    def __call__(self, theta: ArrayLike, phi: ArrayLike, dtheta: int = 0,
                 dphi: int = 0, grid: bool = True) -> Array:
        """The spline (or its ``(dtheta, dphi)`` partial derivative) on the grid
        ``theta`` by ``phi`` or at points (``grid=False``)."""
        theta = _float(theta)
        if is_concrete(theta) and theta.size:
            values = concrete_values(theta, "", "")
            if values.min() < 0.0 or values.max() > np.pi:
                raise ValueError("requested theta out of bounds.")
        return super().__call__(theta, phi, dtheta, dphi, grid)

    def ev(self, theta: ArrayLike, phi: ArrayLike, dtheta: int = 0,
           dphi: int = 0) -> Array:
        """The spline at the points ``(theta[i], phi[i])``."""
        return self(theta, phi, dtheta, dphi, grid=False)

    @property
    def integral(self) -> Any:
        """Absent, as SciPy's (``AttributeError``)."""
        raise AttributeError(f"'{type(self).__name__}' object has no attribute 'integral'")


class _PhiBounded(SphereBivariateSpline):
    def __call__(self, theta: ArrayLike, phi: ArrayLike, dtheta: int = 0,
                 dphi: int = 0, grid: bool = True) -> Array:
        """The spline (or its ``(dtheta, dphi)`` partial derivative) on the grid
        ``theta`` by ``phi`` or at points (``grid=False``); ``phi`` in ``[0, 2 pi]``."""
        phi = _float(phi)
        if is_concrete(phi) and phi.size:
            values = concrete_values(phi, "", "")
            if values.min() < 0.0 or values.max() > 2.0 * np.pi:
                raise ValueError("requested phi out of bounds.")
        return super().__call__(theta, phi, dtheta, dphi, grid)


class SmoothSphereBivariateSpline(_PhiBounded):
    """FITPACK's smoothing bicubic spline of scattered data ``r(theta, phi)`` on the
    sphere (``scipy.interpolate.SmoothSphereBivariateSpline``).  Knots and coefficients
    are SciPy's (data as plain numbers: ``TypeError`` otherwise); differentiable in the
    query points.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> theta = np.repeat(np.linspace(0.2, 2.9, 8), 8)
    >>> phi = np.tile(np.linspace(0.1, 6.1, 8), 8)
    >>> spl = fi.SmoothSphereBivariateSpline(theta, phi, np.cos(theta), s=0.01)
    >>> np.round(spl.ev(np.array([1.0]), np.array([2.0])), 1)  # (cos 1 = 0.54)
    array([0.5])
    """

    def __init__(self, theta: ArrayLike, phi: ArrayLike, r: ArrayLike,
                 w: Optional[ArrayLike] = None, s: float = 0.0, eps: float = 1e-16) -> None:
        data = _plain_data("SmoothSphereBivariateSpline", theta=theta, phi=phi, r=r, w=w)
        from scipy.interpolate import SmoothSphereBivariateSpline as Scipy
        fit = Scipy(data["theta"], data["phi"], data["r"], data["w"], s=s, eps=eps)
        _from_scipy(self, fit)


class LSQSphereBivariateSpline(_PhiBounded):
    """FITPACK's least-squares bicubic spline of scattered data ``r(theta, phi)`` on
    the sphere on given interior knots ``tt``, ``tp``
    (``scipy.interpolate.LSQSphereBivariateSpline``).  Its coefficients are constrained
    at the poles and periodic in ``phi`` (FITPACK's parametrisation); here they are
    SciPy's (data as plain numbers: ``TypeError`` otherwise), the spline
    differentiable in the query points.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> theta = np.repeat(np.linspace(0.2, 2.9, 8), 8)
    >>> phi = np.tile(np.linspace(0.1, 6.1, 8), 8)
    >>> spl = fi.LSQSphereBivariateSpline(theta, phi, np.cos(theta), [1.0, 2.0], [3.0])
    >>> np.round(spl.ev(np.array([1.0]), np.array([2.0])), 2)
    array([0.54])
    """

    def __init__(self, theta: ArrayLike, phi: ArrayLike, r: ArrayLike, tt: ArrayLike,
                 tp: ArrayLike, w: Optional[ArrayLike] = None, eps: float = 1e-16) -> None:
        data = _plain_data("LSQSphereBivariateSpline", theta=theta, phi=phi, r=r, tt=tt,
                           tp=tp, w=w)
        from scipy.interpolate import LSQSphereBivariateSpline as Scipy
        fit = Scipy(data["theta"], data["phi"], data["r"], data["tt"], data["tp"],
                    data["w"], eps=eps)
        _from_scipy(self, fit)


class RectSphereBivariateSpline(SphereBivariateSpline):
    """FITPACK's bicubic spline through (``s=0``) or near values on a rectangular mesh
    on the sphere (``scipy.interpolate.RectSphereBivariateSpline``): colatitudes ``u``
    in ``(0, pi)``, longitudes ``v``, ``r`` of shape ``(len(u), len(v))``, and SciPy's
    pole options.  Knots and coefficients are SciPy's (data as plain numbers:
    ``TypeError`` otherwise); differentiable in the query points.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> u, v = np.linspace(0.3, 2.8, 6), np.linspace(0.2, 6.0, 7)
    >>> spl = fi.RectSphereBivariateSpline(u, v, np.cos(u)[:, None] + 0 * v)
    >>> np.round(spl(np.array([1.0]), np.array([3.0])), 3)
    array([[0.54]])
    """

    def __init__(self, u: ArrayLike, v: ArrayLike, r: ArrayLike, s: float = 0.0,
                 pole_continuity: Any = False, pole_values: Any = None,
                 pole_exact: Any = False, pole_flat: Any = False) -> None:
        data = _plain_data("RectSphereBivariateSpline", u=u, v=v, r=r)
        from scipy.interpolate import RectSphereBivariateSpline as Scipy
        fit = Scipy(data["u"], data["v"], data["r"], s=s, pole_continuity=pole_continuity,
                    pole_values=pole_values, pole_exact=pole_exact, pole_flat=pole_flat)
        _from_scipy(self, fit)
        self.v0 = fit.v0
