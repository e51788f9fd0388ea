"""FITPACK's 1-d spline objects: ``UnivariateSpline`` (smoothing, ``s``),
``InterpolatedUnivariateSpline`` (``s=0``) and ``LSQUnivariateSpline`` (given interior
knots), each a ``(t, c, k)`` from :func:`._bspline_interp.splrep` with SciPy's methods
on top (evaluation with ``ext``, knots, coefficients, residual, integral, derivatives).
Their derivatives are ``splrep``'s: the smoothing spline's in ``y`` and ``w`` at
FITPACK's knots and ``p``; the other two's in ``x``, ``y``, ``w`` (and the knots)."""
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._bspline import BSpline
from ._bspline_fit import _weights, fitpack_smoothing
from ._bspline_interp import splev, splint, splrep

__all__ = ["UnivariateSpline", "InterpolatedUnivariateSpline", "LSQUnivariateSpline"]

_EXT = {0: 0, "extrapolate": 0, 1: 1, "zeros": 1, 2: 2, "raise": 2, 3: 3, "const": 3}


def _ext(name, ext):
    try:
        return _EXT[ext]
    except (KeyError, TypeError) as e:
        raise ValueError(f"{name}: Unknown extrapolation mode {ext!r}; use 0/'extrapolate', "
                         f"1/'zeros', 2/'raise' or 3/'const'") from e


def _checked(name, x, y, w, bbox, k, s, ext, check_finite):
    """SciPy's ``validate_input``: 1-d ``x``, ``y``, ``w`` of one length, ``x``
    increasing (strictly for ``s=0``), ``1 <= k <= 5``, ``s >= 0``."""
    x, y = asarray(x), asarray(y)
    if x.ndim != 1 or y.ndim != 1 or x.shape[0] != y.shape[0]:
        raise ValueError(f"{name}: x and y should have a same length (1-d arrays), got "
                         f"shapes {tuple(x.shape)} and {tuple(y.shape)}")
    if w is not None and (asarray(w).ndim != 1 or asarray(w).shape[0] != x.shape[0]):
        raise ValueError(f"{name}: x, y, and w should have a same length")
    if check_finite:
        for v in (x, y) + (() if w is None else (asarray(w),)):
            if is_concrete(v) and not np.all(np.isfinite(concrete_values(v, "", ""))):
                raise ValueError(f"{name}: x and y array must not contain NaNs or infs.")
    if is_concrete(x):
        steps = np.diff(concrete_values(x, "", ""))
        if s == 0 and np.any(steps <= 0):
            raise ValueError(f"{name}: x must be strictly increasing if s = 0")
        if np.any(steps < 0):
            raise ValueError(f"{name}: x must be increasing if s > 0")
    bbox = list(bbox)
    if len(bbox) != 2:
        raise ValueError(f"{name}: bbox shape should be (2,)")
    if not 1 <= k <= 5:
        raise ValueError(f"{name}: k should be 1 <= k <= 5")
    if s is not None and s < 0:
        raise ValueError(f"{name}: s should be s >= 0.0")
    return x, y, bbox, _ext(name, ext)


class UnivariateSpline:
    """A smoothing spline of degree ``k`` through ``(x, y)``
    (``scipy.interpolate.UnivariateSpline``): FITPACK's smoothing spline with ``s``
    (default ``len(x)``; ``s=0`` interpolates), weights ``w``, ends ``bbox``; ``ext``
    0/'extrapolate', 1/'zeros', 2/'raise', 3/'const' outside them.  The knots are
    FITPACK's search on the values and constants of the derivative; the coefficients are
    differentiable in ``y`` and ``w`` (the solution of the penalised least-squares
    system at those knots and FITPACK's ``p``: see :func:`splrep`).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0.0, 4.0, 9)
    >>> spl = fi.UnivariateSpline(x, x ** 2, s=0.1)  # (a parabola: fitted exactly)
    >>> spl(np.array([1.5, 2.5]))
    array([2.25, 6.25])
    >>> spl.get_knots()
    array([0., 4.])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, w: Optional[ArrayLike] = None,
                 bbox: Sequence[Any] = (None, None), k: int = 3, s: Optional[float] = None,
                 ext: Any = 0, check_finite: bool = False) -> None:
        name = type(self).__name__
        x, y, bbox, self.ext = _checked(name, x, y, w, bbox, k, s, ext, check_finite)
        if s is None:
            s = float(x.shape[0])
        if s == 0:
            self._fit(splrep(x, y, None, bbox[0], bbox[1], k, s=0, full_output=1))
            return
        weights = _weights(name, w, x.shape[0], np.float64)
        t, c, fp, ier, message = fitpack_smoothing(name, x, fnp.reshape(y, (-1, 1)),
                                                   weights, bbox[0], bbox[1], k, s,
                                                   search="UnivariateSpline")
        if ier > 0:
            warnings.warn(message, stacklevel=2)
        self._fit(((asarray(t), fnp.pad(c[:, 0], (0, k + 1)), k), fp, ier, message))

    def _fit(self, fitted):
        (t, c, k), fp, ier, message = fitted
        self._t, self._c, self._k, self._fp = t, c, k, fp
        self._spline = BSpline(t, c, k)

    @classmethod
    def _from_tck(cls, t, c, k, ext):
        self = cls.__new__(cls)
        self._t, self._c, self._k, self._fp, self.ext = t, c, k, None, ext
        self._spline = BSpline(t, c, k)
        return self

    def __call__(self, x: ArrayLike, nu: int = 0, ext: Any = None) -> Array:
        """The ``nu``-th derivative at ``x`` (``ext`` as in the constructor)."""
        ext = self.ext if ext is None else _ext(type(self).__name__, ext)
        return splev(x, (self._t, self._c, self._k), nu, ext)

    def get_knots(self) -> Array:
        """The knots from ``t[k]`` to ``t[n - k - 1]`` (the interior knots and the ends)."""
        n = self._t.shape[0]
        return self._t[self._k:n - self._k]

    def get_coeffs(self) -> Array:
        """The B-spline coefficients (``len(t) - k - 1`` of them)."""
        return self._c[:self._t.shape[0] - self._k - 1]

    def get_residual(self) -> Array:
        """``sum((w * (y - spl(x)))**2)``, the weighted residual sum of the fit."""
        if self._fp is None:
            raise ValueError(f"{type(self).__name__}: a derivative or antiderivative has "
                             f"no residual")
        return self._fp

    def integral(self, a: ArrayLike, b: ArrayLike) -> Array:
        """The integral from ``a`` to ``b`` (0 outside the knots' span, as SciPy's)."""
        return splint(a, b, (self._t, self._c, self._k))

    def derivatives(self, x: ArrayLike) -> Array:
        """The value and the ``k`` derivatives at the point ``x``: shape ``(k + 1,)``."""
        x = asarray(x)
        if x.ndim != 0:
            raise ValueError(f"{type(self).__name__}.derivatives: x must be one point")
        return fnp.stack([self._spline(x, nu) for nu in range(self._k + 1)])

    def derivative(self, n: int = 1) -> "UnivariateSpline":
        """The ``n``-th derivative, a spline of degree ``k - n`` (``n <= k``)."""
        if not 0 <= n <= self._k:
            raise ValueError(f"{type(self).__name__}: order of derivative must be <= k "
                             f"= {self._k}")
        return self._wrap(self._spline.derivative(n))

    def antiderivative(self, n: int = 1) -> "UnivariateSpline":
        """The ``n``-th antiderivative, zero at ``t[k]``: degree ``k + n``."""
        return self._wrap(self._spline.antiderivative(n))

    def _wrap(self, spline):
        t, c, k = spline.t, spline.c, spline.k
        return UnivariateSpline._from_tck(t, fnp.pad(c, (0, t.shape[0] - c.shape[0])), k,
                                          self.ext)

    def roots(self) -> Array:
        """The zeros of a cubic spline (FITPACK's ``sproot``), as plain values: a zero
        moves with the data, and this gives no derivative of it (a coefficient that
        carries one raises)."""
        if self._k != 3:
            raise NotImplementedError(f"{type(self).__name__}.roots: finding roots "
                                      f"unsupported for non-cubic splines")
        if isinstance(self._c, Tracer) or isinstance(self._t, Tracer):
            raise TypeError(f"{type(self).__name__}.roots: the spline carries a derivative, "
                            f"but the roots are computed by FITPACK without one")
        from scipy.interpolate import sproot
        fix = "Call roots() outside vmap/jit."
        return sproot((concrete_values(self._t, "roots", fix),
                       concrete_values(self._c, "roots", fix), 3))

    def set_smoothing_factor(self, s: float) -> None:
        """Not implemented: FITPACK continues its last knot search from saved state."""
        raise NotImplementedError(f"{type(self).__name__}.set_smoothing_factor is not "
                                  f"implemented; build a new UnivariateSpline with s")


    @staticmethod
    def validate_input(x: ArrayLike, y: ArrayLike, w: Optional[ArrayLike], bbox: Any,
                       k: int, s: Optional[float], ext: Any, check_finite: bool) -> Any:
        """SciPy's checks of the constructor's arguments: ``(x, y, w, bbox, ext)`` with
        ``ext`` as its number, or ``ValueError`` naming what is wrong.

        >>> import numpy as np, funcgrad.scipy.interpolate as fi
        >>> fi.UnivariateSpline.validate_input(np.arange(4.0), np.ones(4), None,
        ...                                    [None, None], 3, None, "zeros", False)[4]
        1
        """
        name = "UnivariateSpline.validate_input"
        x, y, bbox_list, ext_code = _checked(name, x, y, w, bbox, k, s, ext, check_finite)
        return x, y, None if w is None else asarray(w), np.asarray(bbox_list), ext_code


class InterpolatedUnivariateSpline(UnivariateSpline):
    """The interpolating spline of degree ``k``, FITPACK's ``s=0``
    (``scipy.interpolate.InterpolatedUnivariateSpline``): differentiable in ``x`` and
    ``y``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.arange(6.0)
    >>> fi.InterpolatedUnivariateSpline(x, x ** 3)(np.array([0.5, 4.5]))
    array([ 0.125, 91.125])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, w: Optional[ArrayLike] = None,
                 bbox: Sequence[Any] = (None, None), k: int = 3, ext: Any = 0,
                 check_finite: bool = False) -> None:
        name = type(self).__name__
        x, y, bbox, self.ext = _checked(name, x, y, w, bbox, k, 0, ext, check_finite)
        self._fit(splrep(x, y, None, bbox[0], bbox[1], k, s=0, full_output=1))


class LSQUnivariateSpline(UnivariateSpline):
    """The weighted least-squares spline of degree ``k`` on the interior knots ``t``
    (``scipy.interpolate.LSQUnivariateSpline``): differentiable in ``x``, ``y``, ``w``
    and ``t``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0.0, 4.0, 9)
    >>> spl = fi.LSQUnivariateSpline(x, x ** 3, [2.0])  # (a cubic: fitted exactly)
    >>> spl(np.array([1.0, 3.0]))
    array([ 1., 27.])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, t: ArrayLike,
                 w: Optional[ArrayLike] = None, bbox: Sequence[Any] = (None, None),
                 k: int = 3, ext: Any = 0, check_finite: bool = False) -> None:
        name = type(self).__name__
        x, y, bbox, self.ext = _checked(name, x, y, w, bbox, k, None, ext, check_finite)
        t = asarray(t)
        if is_concrete(t) and np.any(np.diff(concrete_values(t, "", "")) <= 0):
            raise ValueError(f"{name}: Interior knots t must satisfy Schoenberg-Whitney "
                             f"conditions")
        self._fit(splrep(x, y, w, bbox[0], bbox[1], k, t=t, full_output=1))
