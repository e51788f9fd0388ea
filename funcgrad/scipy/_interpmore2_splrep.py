"""SciPy 1.15's FITPACK-free smoothing splines: ``generate_knots``, ``make_splrep`` and
``make_splprep``.

The knots are SciPy's: its search adds knots at data sites where the residuals of the
least-squares spline are largest, a choice that is piecewise constant in the data.  They
are taken from SciPy and then written as the sites (or the ends ``xb``/``xe``) they were
placed at, so they move with the sites as SciPy's would.

On those knots the spline minimises the jumps of its ``k``-th derivative subject to a
residual sum ``fp(p) = s``: ``p`` is found by FITPACK's rational iteration, each step
the penalised least-squares solve ``|| [A; B / p] c - [y; 0] ||`` (``A`` the weighted
B-splines at the sites, ``B`` FITPACK's scaled jumps).  The iteration is replayed here
with funcgrad operations, its branches decided on the values exactly as SciPy's: ``p``
(and so the coefficients) is then the same function of the data as SciPy's, and its
derivatives are those of SciPy's result, not those of a ``p`` held fixed (which would be
wrong: scaling ``y`` changes ``fp`` and so ``p``).  Under ``vmap``/``jit`` the knots and
the branches need values, and it raises.
"""
import operator
import warnings
from typing import Any, Iterator, Optional, Tuple

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values
from ..numpy._conversions import carried_derivative
from ..typing import Array, ArrayLike
from ._bspline import BSpline
from ._smoothing_iteration import _smoothing_fit, _value
from ._bspline_interp import _not_a_knot, _periodic_knots, make_interp_spline

__all__ = ["generate_knots", "make_splrep", "make_splprep"]

_FIX = "Call it outside vmap/jit: SciPy's knots depend on the values of the data."


def _values(name, v):
    return np.asarray(concrete_values(v, f"{name}'s knot search", _FIX), np.float64)


def _carries(*values):
    return any(isinstance(v, Tracer) and carried_derivative(v) is not None for v in values)


def _bc(bc_type):
    if bc_type is None:
        return "not-a-knot"
    if bc_type not in ("not-a-knot", "periodic"):
        raise ValueError(f"Only 'not-a-knot' and 'periodic' boundary conditions are "
                         f"recognised, found {bc_type}")
    return bc_type


def _no_periodic(name):
    raise NotImplementedError(f"{name}: bc_type='periodic' with s > 0 is not implemented; "
                              f"pass s=0 (the periodic interpolating spline) or leave "
                              f"bc_type=None")


def _float64(v):
    v = asarray(v)
    return fnp.astype(v, np.float64) if v.dtype != np.float64 else v


def _end(value, default):
    return default if value is None else fnp.reshape(_float64(value), (1,))


def _knots_at_sites(name, knots, x, xb, xe, k):
    """SciPy's knots (plain numbers) written as the sites and ends they sit at: the
    ends ``xb``/``xe`` (``k + 1`` each), interior knots at sites, or (the interpolating
    spline's knots) ``_not_a_knot(x, k)``."""
    sites = _values(name, x)
    m = sites.shape[0]
    if knots.shape[0] == m + k + 1 and np.array_equal(
            knots, _values(name, _not_a_knot(asarray(sites), k))):
        return _not_a_knot(x, k)
    inner = knots[k + 1:knots.shape[0] - k - 1]
    index = np.clip(np.searchsorted(sites, inner), 0, m - 1)
    if not np.array_equal(sites[index], inner):
        if _carries(x, xb, xe):  # (not where it could move with the data: say so)
            raise TypeError(f"{name}: a knot of SciPy's does not sit at a data site, so "
                            f"its derivative in x is not known; pass x as plain numbers")
        return asarray(knots)
    return fnp.concatenate([xb] * (k + 1) + [fnp.take(x, index)] + [xe] * (k + 1))


def _validated(name, x, y2d, w, k, s):
    """SciPy's checks of ``_validate_inputs`` (plain values)."""
    sites = _values(name, x)
    if w is not None:
        weights = _values(name, w)
        if weights.ndim != 1:
            raise ValueError(f"{name}: w.ndim = {weights.ndim} not implemented yet.")
        if (weights < 0).any():
            raise ValueError(f"{name}: Weights must be non-negative")
        if weights.sum() == 0:
            raise ValueError(f"{name}: All weights are zero.")
        if weights.shape[0] != sites.shape[0]:
            raise ValueError(f"{name}: Weights is incompatible: w.shape = "
                             f"{weights.shape} != {sites.shape}.")
    if sites.shape[0] != y2d.shape[0]:
        raise ValueError(f"{name}: Data is incompatible: x.shape = {sites.shape} and "
                         f"y.shape = {tuple(y2d.shape)}.")
    if sites.ndim != 1 or (sites[1:] < sites[:-1]).any():
        raise ValueError(f"{name}: Expect `x` to be an ordered 1D sequence.")
    if s < 0:
        raise ValueError(f"{name}: `s` must be non-negative. Got s = {s}")


def _weights(w, m):
    return fnp.ones((m,), np.float64) if w is None else _float64(w)


def generate_knots(x: ArrayLike, y: ArrayLike, *, w: Optional[ArrayLike] = None,
                   xb: Optional[float] = None, xe: Optional[float] = None, k: int = 3,
                   s: float = 0, nest: Optional[int] = None,
                   bc_type: Optional[str] = None) -> Iterator[Array]:
    """Knot vectors of more and more knots, until the least-squares spline on them has
    a residual sum at most ``s`` (``scipy.interpolate.generate_knots``, a generator).
    The knots are SciPy's: chosen on the values of ``y`` and ``w`` (the choice is
    piecewise constant in them, so it has no derivative there), placed at data sites
    and ends, so each knot vector is differentiable in ``x`` (and ``xb``, ``xe``).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0.0, 1.0, 9)
    >>> [len(t) for t in fi.generate_knots(x, np.sin(6 * x), s=0.01)]
    [8, 9, 11]
    """
    name = "generate_knots"
    periodic = _bc(bc_type) == "periodic"
    k = operator.index(k)
    x = _float64(x)
    if s == 0:
        if nest is not None or w is not None:
            raise ValueError(f"{name}: s == 0 is interpolation only")
        yield _periodic_knots(x, k) if periodic and k > 1 else _not_a_knot(x, k)
        return
    if periodic:
        _no_periodic(name)
    y = _float64(y)
    _validated(name, x, y if y.ndim == 2 else fnp.reshape(y, (-1, 1)), w, k, s)
    from scipy.interpolate import generate_knots as scipy_generate_knots  # (here:
    # importing funcgrad never loads SciPy)
    xb_, xe_ = _end(xb, x[:1]), _end(xe, x[x.shape[0] - 1:])
    for knots in scipy_generate_knots(
            _values(name, x), _values(name, y), w=None if w is None else _values(name, w),
            xb=None if xb is None else _value(asarray(xb)),
            xe=None if xe is None else _value(asarray(xe)), k=k, s=s, nest=nest):
        yield _knots_at_sites(name, np.asarray(knots, np.float64), x, xb_, xe_, k)


def _smoothing_spline(name, x, y2d, w, xb, xe, k, s, t, nest, scipy_fit):
    """The knots and coefficients ``(t, c)`` of the smoothing spline through ``(x,
    y2d)``; ``scipy_fit`` runs SciPy's own routine on plain values (its checks, its
    knots)."""
    _validated(name, x, y2d, w, k, s)
    m = x.shape[0]
    xb_, xe_ = _end(xb, x[:1]), _end(xe, x[m - 1:])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (the replay warns, naming the caller's line)
        reference = scipy_fit()
    if t is None:
        knots = _knots_at_sites(name, np.asarray(reference.t, np.float64), x, xb_, xe_, k)
    else:
        knots = _float64(t)
    c = _smoothing_fit(x, y2d, _weights(w, m), knots, k, float(s), xb_, xe_)
    return knots, c


def make_splrep(x: ArrayLike, y: ArrayLike, *, w: Optional[ArrayLike] = None,
                xb: Optional[float] = None, xe: Optional[float] = None, k: int = 3,
                s: float = 0, t: Optional[ArrayLike] = None, nest: Optional[int] = None,
                bc_type: Optional[str] = None) -> BSpline:
    """The smoothing spline of degree ``k`` with ``sum((w * (g(x) - y))**2) <= s`` and
    the least jumps of its ``k``-th derivative (``scipy.interpolate.make_splrep``, SciPy
    1.15's FITPACK-free ``splrep``); ``s=0`` interpolates (``make_interp_spline``).
    The knots are SciPy's (or ``t``); their placement is held fixed, as it is piecewise
    constant in the data, but they sit at data sites and move with them.  The
    coefficients are differentiable in ``y``, ``w``, ``x``, ``xb``/``xe`` and ``t``,
    FITPACK's smoothing parameter ``p`` following the data as in SciPy's iteration.
    float32 data give a float32 spline (computed in float64, as SciPy's).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0.0, 1.0, 9)
    >>> spl = fi.make_splrep(x, np.sin(6 * x), s=0.01)
    >>> np.round(spl(np.array([0.25, 0.5])), 6)
    array([0.988139, 0.139672])
    >>> g = fg.grad(lambda y: fi.make_splrep(x, y, s=0.01)(0.5))(np.sin(6 * x))
    >>> g.shape
    (9,)
    """
    name = "make_splrep"
    periodic = _bc(bc_type) == "periodic"
    if s == 0:
        if t is not None or w is not None or nest is not None:
            raise ValueError(f"{name}: s==0 is for interpolation only")
        return make_interp_spline(x, y, k=k, bc_type=bc_type)
    if periodic:
        _no_periodic(name)
    k = operator.index(k)
    x, y = asarray(x), asarray(y)
    dtype = np.float32 if np.result_type(x.dtype, y.dtype) == np.float32 else np.float64
    x, y = _float64(x), _float64(y)
    if y.ndim != 1:
        raise ValueError(f"{name}: y.ndim = {y.ndim} != 1 not supported with "
                         f"parametric = False.")
    if nest is not None and t is not None:
        raise ValueError(f"{name}: Either supply `t` or `nest`.")
    from scipy.interpolate import make_splrep as scipy_make_splrep  # (here: importing
    # funcgrad never loads SciPy)

    def scipy_fit():
        return scipy_make_splrep(
            _values(name, x), _values(name, y), w=None if w is None else _values(name, w),
            xb=None if xb is None else _value(asarray(xb)),
            xe=None if xe is None else _value(asarray(xe)), k=k, s=s,
            t=None if t is None else _values(name, asarray(t)), nest=nest)

    knots, c = _smoothing_spline(name, x, fnp.reshape(y, (-1, 1)), w, xb, xe, k, s, t,
                                 nest, scipy_fit)
    return BSpline(fnp.astype(knots, dtype), fnp.astype(c[:, 0], dtype), k)


def _chord_length(points):
    steps = fnp.sqrt(fnp.sum(fnp.diff(points, axis=0) ** 2, axis=1))
    total = fnp.concatenate([fnp.zeros_like(steps[:1]), fnp.cumsum(steps)])
    return total / total[total.shape[0] - 1]


def make_splprep(x: Any, *, w: Optional[ArrayLike] = None, u: Optional[ArrayLike] = None,
                 ub: Optional[float] = None, ue: Optional[float] = None, k: int = 3,
                 s: float = 0, t: Optional[ArrayLike] = None, nest: Optional[int] = None,
                 bc_type: Optional[str] = None) -> Tuple[BSpline, Array]:
    """The smoothing parametric spline curve through ``ndim`` coordinate arrays ``x``
    (``(ndim, m)``, or a list of them) (``scipy.interpolate.make_splprep``): ``(spl,
    u)``, ``spl(u)`` of shape ``(ndim, len(u))``, ``u`` by default the normalised chord
    length.  ``s=0`` interpolates.  As :func:`make_splrep`, the knots are SciPy's
    (placement held fixed, at values of ``u``, moving with them) and the coefficients
    are differentiable in the points (through ``u`` too), ``w`` and ``t``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> angle = np.linspace(0.0, np.pi, 12)
    >>> spl, u = fi.make_splprep([np.cos(angle), np.sin(angle)], s=0.001)
    >>> spl(u).shape
    (2, 12)
    >>> np.round(spl(np.array([0.0, 1.0])), 2)
    array([[ 1.  , -1.  ],
           [-0.01, -0.01]])
    """
    name = "make_splprep"
    periodic = _bc(bc_type) == "periodic"
    rows = [asarray(row) for row in x] if isinstance(x, (list, tuple)) else None
    points = fnp.stack(rows, axis=1) if rows is not None else fnp.transpose(asarray(x))
    dtype = np.float32 if points.dtype == np.float32 else np.float64
    points = _float64(points)
    if points.ndim != 2:
        raise ValueError(f"{name}: x must be ndim arrays of m coordinates, got shape "
                         f"{tuple(fnp.transpose(points).shape)}")
    u = _chord_length(points) if u is None else _float64(u)
    k = operator.index(k)
    if s == 0:
        if t is not None or w is not None or nest is not None:
            raise ValueError(f"{name}: s==0 is for interpolation only")
        spl = make_interp_spline(u, fnp.transpose(points), k=k, axis=1)
        return BSpline(fnp.astype(spl.t, dtype), fnp.astype(spl.c, dtype), k, True,
                       1), fnp.astype(u, dtype)
    if periodic:
        _no_periodic(name)
    from scipy.interpolate import make_splprep as scipy_make_splprep  # (here: importing
    # funcgrad never loads SciPy)

    def scipy_fit():
        return scipy_make_splprep(
            list(_values(name, points).T), w=None if w is None else _values(name, w),
            u=_values(name, u), ub=None if ub is None else _value(asarray(ub)),
            ue=None if ue is None else _value(asarray(ue)), k=k, s=s,
            t=None if t is None else _values(name, asarray(t)), nest=nest)[0]

    knots, c = _smoothing_spline(name, u, points, w, ub, ue, k, s, t, nest, scipy_fit)
    return BSpline(fnp.astype(knots, dtype), fnp.astype(c, dtype), k, True,
                   1), fnp.astype(u, dtype)
