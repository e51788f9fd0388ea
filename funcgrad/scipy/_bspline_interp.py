"""Interpolating B-splines: ``make_interp_spline`` with any degree, given knots ``t`` and
boundary conditions ``bc_type``, and FITPACK's interpolating ``splrep`` (``s=0``) with
``splev`` and ``splint`` on its ``(t, c, k)`` tuples.

With SciPy's default knots and not-a-knot ends up to degree 3 the conditions are one
tridiagonal solve (:func:`._bspline.interpolating_coefficients`).  Otherwise they are
SciPy's: ``n`` collocation rows ``sum_i c[i] B_i(x_j) = y_j`` between the derivative
conditions at ``x[0]`` and at ``x[-1]``, each row the B-splines (or their derivatives)
at one point, computed by de Boor's recurrence from the knots; the square system is
solved dense (``O(n^3)``, where SciPy's banded LU is ``O(n k^2)``), so the coefficients
are differentiable in ``x``, ``y``, ``t`` and the boundary values.  ``splrep`` with
``s=0`` is that interpolation with the knots FITPACK picks (not-a-knot, the ends moved
to ``xb``/``xe``); with given knots it is the least-squares spline, and with ``s > 0``
FITPACK's smoothing spline (:mod:`._bspline_fit`).  ``bc_type='periodic'`` solves for the
``n - 1`` coefficients of a periodic spline on SciPy's knots continued around the circle.
"""
import operator
import warnings
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from ..core import Tracer, internal
from ._bspline import (BSpline, basis_matrix, on_device_of, default_knots, interpolating_coefficients,
                       real_promoted)
from ._bspline_fit import _weights, design, fitpack_smoothing, least_squares, schoenberg_whitney

__all__ = ["make_interp_spline", "splrep", "splev", "splint"]


def _not_a_knot(x, k):
    """SciPy's knots for degree ``k`` without boundary conditions: the sites (odd ``k``)
    or their midpoints (even ``k``) but ``(k + 1) // 2`` (``k // 2``) at each end, the
    ends repeated ``k + 1`` times."""
    n = x.shape[0]
    drop = (k + 1) // 2 if k % 2 else k // 2
    inner = x if k % 2 else (x[1:] + x[:-1]) / 2
    inner = inner[drop:inner.shape[0] - drop]
    return fnp.concatenate([x[:1]] * (k + 1) + [inner] + [x[n - 1:]] * (k + 1))


def _periodic_knots(x, k):
    """SciPy's knots for the periodic spline of degree ``k``: the sites (odd ``k``; even
    ``k``: the interior sites moved back by half a step), continued ``k`` knots past
    each end by the steps at the other end, as if on a circle."""
    n = x.shape[0]
    if k % 2 == 0:
        step = fnp.diff(x)
        x = fnp.concatenate([x[:1], x[1:n - 1] - step[:n - 2] / 2, x[n - 1:]])
    step = fnp.diff(x)
    left, right = [x[:1]], [x[n - 1:]]
    for i in range(k):
        left.insert(0, left[0] - step[n - 2 - i % (n - 1):n - 1 - i % (n - 1)])
        right.append(right[-1] + step[i % (n - 1):i % (n - 1) + 1])
    return fnp.concatenate(left[:-1] + [x] + right[1:])


@internal  # (the 0/1 matrix follows the rows to their device)
def _wrapped(rows, wrap):
    return fnp.matmul(rows, fnp.astype(fnp.asarray(wrap), rows.dtype))


def _periodic_coefficients(x, y2d, t, k):
    """The coefficients of the periodic interpolating spline: ``n + k - 1`` of them with
    ``c[j] = c[j + n - 1]`` (the B-splines one period apart are shifts of each other),
    so ``n - 1`` unknowns fitted at ``x[:-1]`` (``y[-1]`` is ``y[0]``, as in SciPy's
    solve for ``n > k``)."""
    n = x.shape[0]
    count = n + k - 1
    wrap = np.zeros((count, n - 1))
    wrap[np.arange(count), np.arange(count) % (n - 1)] = 1.0
    rows = basis_matrix(t, k, x[:n - 1])
    system = _wrapped(rows, wrap)
    cc = fnp.linalg.solve(fnp.astype(system, y2d.dtype), y2d[:n - 1])
    return fnp.take(cc, np.arange(count) % (n - 1), axis=0)


def _conditions(spec, trailing, side):
    """``bc_type`` at one end as ``[(order, value), ...]`` (SciPy's aliases expanded)."""
    if spec is None:
        return []
    if isinstance(spec, str):
        if spec not in ("clamped", "natural"):
            raise ValueError(f"make_interp_spline: Unknown boundary condition : {spec}")
        return [(1 if spec == "clamped" else 2, np.zeros(trailing))]
    try:
        pairs = [(operator.index(order), asarray(value)) for order, value in spec]
    except TypeError as e:
        raise ValueError("make_interp_spline: Derivatives, `bc_type`, should be specified "
                         "as a pair of iterables of pairs of (order, value).") from e
    for order, value in pairs:
        if tuple(value.shape) not in (trailing, ()):
            raise ValueError(f"make_interp_spline: the {side} boundary value of order "
                             f"{order} has shape {tuple(value.shape)}; give y's trailing "
                             f"shape {trailing} or a scalar")
    return pairs


def _derivative_rows(t, k, point, conditions, count, dtype):
    """The rows ``sum_i c[i] B_i^(order)(point)`` of the conditions at one end."""
    return [fnp.reshape(basis_matrix(t, k, fnp.astype(point, dtype), order), (1, count))
            for order, _ in conditions]


def _collocation_solve(x, y2d, t, k, left, right):
    """The coefficients of the degree-``k`` spline on ``t`` through ``(x, y2d)`` with the
    derivative conditions ``left`` at ``x[0]`` and ``right`` at ``x[-1]``."""
    count = t.shape[0] - k - 1
    n = x.shape[0]
    if count - n != len(left) + len(right):
        raise ValueError(f"make_interp_spline: The number of derivatives at boundaries "
                         f"does not match: expected {count - n}, got "
                         f"{len(left)}+{len(right)}")
    real = x.dtype
    rows = (_derivative_rows(t, k, x[:1], left, count, real)
            + [basis_matrix(t, k, x)]
            + _derivative_rows(t, k, x[n - 1:], right, count, real))
    system = fnp.concatenate(rows)
    width = y2d.shape[1]
    values = [fnp.reshape(fnp.astype(fnp.broadcast_to(on_device_of(v, y2d) if not
                                                      isinstance(v, Tracer) else v,
                                                      y2d.shape[1:]), y2d.dtype),
                          (1, width)) for _, v in left + right]
    rhs = fnp.concatenate(values[:len(left)] + [y2d] + values[len(left):])
    return fnp.linalg.solve(fnp.astype(system, y2d.dtype), rhs)


def _sites(name, x, y, axis, check_finite):
    """``x`` and ``y`` checked and given a common floating type; ``y``'s ``axis`` first."""
    x, y = asarray(x), asarray(y)
    if x.dtype.kind == "c":
        raise ValueError(f"{name}: x must be real")
    if y.ndim == 0:
        raise ValueError(f"{name}: y must have at least one dimension")
    axis = int(axis) % y.ndim
    if x.ndim != 1 or x.shape[0] != y.shape[axis]:
        raise ValueError(f"{name}: shapes of x {tuple(x.shape)} and y {tuple(y.shape)} are "
                         f"incompatible along axis {axis}")
    x, y = real_promoted(x, y)
    if is_concrete(x):
        steps = np.diff(concrete_values(x, "", ""))
        if np.any(steps < 0):
            raise ValueError(f"{name}: Expect x to be a 1D strictly increasing sequence.")
        if np.any(steps == 0):
            raise ValueError(f"{name}: Expect x to not have duplicates")
    else:  # (no values to check: x out of order makes NaN, never a wrong spline)
        ordered = fnp.all(fnp.diff(x) > 0)
        x = x * fnp.where(ordered, np.ones((), x.dtype), np.full((), np.nan, x.dtype))
    if check_finite and is_concrete(y) and not np.all(np.isfinite(concrete_values(y, "", ""))):
        raise ValueError(f"{name}: array must not contain infs or NaNs")
    return x, fnp.moveaxis(y, axis, 0), axis


def _given_knots(t, x, k, real):
    t = asarray(t)
    if t.dtype.kind not in "f" or t.dtype != real:
        t = fnp.astype(t, real)
    if t.ndim != 1:
        raise ValueError("make_interp_spline: Expect t to be a 1-D sorted array_like.")
    if t.shape[0] < x.shape[0] + k + 1:
        raise ValueError(f"make_interp_spline: Got {t.shape[0]} knots, need at least "
                         f"{x.shape[0] + k + 1}.")
    if is_concrete(t):
        knots = concrete_values(t, "", "")
        if np.any(np.diff(knots) < 0):
            raise ValueError("make_interp_spline: Expect t to be a 1-D sorted array_like.")
        if is_concrete(x):
            sites = concrete_values(x, "", "")
            if sites[0] < knots[k] or sites[-1] > knots[-k if k else knots.shape[0] - 1]:
                raise ValueError(f"make_interp_spline: Out of bounds w/ x = {sites}: the "
                                 f"sites must lie in [t[k], t[-k]]")
    return t


def make_interp_spline(x: ArrayLike, y: ArrayLike, k: int = 3, t: Any = None,
                       bc_type: Any = None, axis: int = 0, check_finite: bool = True
                       ) -> BSpline:
    """The interpolating B-spline of degree ``k`` through ``(x, y)``
    (``scipy.interpolate.make_interp_spline``): knots ``t`` (default: not-a-knot, or
    with ``bc_type`` the sites with their ends repeated ``k`` times), ``bc_type`` None
    (not-a-knot), 'clamped', 'natural', or a pair ``(left, right)`` of lists of
    ``(derivative order, value)`` (or the aliases; ``k - 1`` conditions in all for the
    default knots).  Differentiable in ``x``, ``y``, ``t``, the boundary values and
    the query points.  ``bc_type='periodic'`` (``y[0] == y[-1]``; degree 2 and up)
    gives the spline whose first ``k - 1`` derivatives match at the ends, on SciPy's
    knots continued around the circle, with ``extrapolate='periodic'``; ``y[-1]`` is
    not used (it must equal ``y[0]``), so its derivative there is zero.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.arange(5.0)
    >>> fi.make_interp_spline(x, x ** 3)(np.array([0.5, 2.5]))
    array([ 0.125, 15.625])
    >>> ends = ([(1, 0.0)], [(1, 48.0)])  # (the slopes of x**3 at 0 and 4)
    >>> fi.make_interp_spline(x, x ** 3, bc_type=ends)(np.array([0.5, 2.5]))
    array([ 0.125, 15.625])
    """
    k = operator.index(k)
    if k < 0:
        raise ValueError("make_interp_spline: Expect non-negative k.")
    periodic = isinstance(bc_type, str) and bc_type == "periodic"
    if bc_type is None or periodic or bc_type == "not-a-knot":
        ends: Any = (None, None)
    elif isinstance(bc_type, str):
        ends = (bc_type, bc_type)
    else:
        try:
            ends = tuple(bc_type)
        except TypeError as e:
            raise ValueError(f"make_interp_spline: Unknown boundary condition: "
                             f"{bc_type}") from e
        if len(ends) != 2:
            raise ValueError(f"make_interp_spline: Unknown boundary condition: {bc_type}")
    x, moved, axis = _sites("make_interp_spline", x, y, axis, check_finite)
    n = x.shape[0]
    trailing = tuple(moved.shape[1:])
    if periodic and is_concrete(moved) and not np.allclose(
            concrete_values(moved[0], "", ""), concrete_values(moved[n - 1], "", ""),
            atol=1e-15):
        raise ValueError("make_interp_spline: First and last points does not match while "
                         "periodic case expected")
    plain = ends == (None, None) and t is None
    if k == 0 and not plain:
        raise ValueError("make_interp_spline: Too much info for k=0: t and bc_type can only "
                         "be None.")
    if k == 1 and t is None and not plain:
        raise ValueError("make_interp_spline: Too much info for k=1: bc_type can only be "
                         "None.")
    y2d = fnp.reshape(moved, (n, -1))
    if periodic and k >= 2:  # (SciPy's degrees 0 and 1 ignore 'periodic': so here)
        if t is not None:
            raise NotImplementedError("make_interp_spline: For periodic case t is "
                                      "constructed automatically and can not be passed "
                                      "manually")
        knots = _periodic_knots(x, k)
        c = _periodic_coefficients(x, y2d, knots, k)
        return BSpline(knots, fnp.reshape(c, (c.shape[0],) + trailing), k, "periodic", axis)
    if n < k + 1 and plain:
        raise ValueError(f"make_interp_spline: need at least {k + 1} points for degree {k}")
    if plain and k <= 3:
        knots = default_knots(x, k)
        c = interpolating_coefficients(x, knots, k, y2d)
        return BSpline(knots, fnp.reshape(c, (n,) + trailing), k, True, axis)
    if t is not None:
        knots = _given_knots(t, x, k, x.dtype)
    elif ends == (None, None):
        knots = _not_a_knot(x, k)
    else:
        knots = fnp.concatenate([x[:1]] * k + [x] + [x[n - 1:]] * k)
    left, right = (_conditions(e, trailing, side) for e, side in zip(ends, ("left", "right")))
    for conditions, side in ((left, "left"), (right, "right")):
        if not all(0 <= order <= k for order, _ in conditions):
            raise ValueError(f"make_interp_spline: Bad boundary conditions at the {side} "
                             f"end: derivative orders must be from 0 to k={k}")
    c = _collocation_solve(x, y2d, knots, k, left, right)
    return BSpline(knots, fnp.reshape(c, (c.shape[0],) + trailing), k, True, axis)


_MESSAGES = {0: "The spline has a residual sum of squares fp such that abs(fp-s)/s<=0.001",
             -1: "The spline is an interpolating spline (fp=0)"}


def splrep(x: ArrayLike, y: ArrayLike, w: Optional[ArrayLike] = None,
           xb: Optional[float] = None, xe: Optional[float] = None, k: int = 3,
           task: int = 0, s: Optional[float] = None, t: Optional[ArrayLike] = None,
           full_output: int = 0, per: int = 0, quiet: int = 1) -> Any:
    """FITPACK's spline of degree ``k`` (1 to 5) through ``(x, y)`` as ``(t, c, k)``
    (``scipy.interpolate.splrep``; ``c`` padded with ``k + 1`` zeros to ``len(t)``):

    - ``s=0`` (the default without weights): the interpolating spline on not-a-knot
      knots with the ends at ``xb``/``xe``; differentiable in ``x`` and ``y``.
    - given interior knots ``t`` (``task=-1``): the weighted least-squares spline on
      them; differentiable in ``x``, ``y``, ``w``, ``t``, ``xb`` and ``xe``.
    - ``s > 0`` (the default ``m - sqrt(2 m)`` with weights ``w``): FITPACK's smoothing
      spline.  Its knots come from FITPACK's search on the data (SciPy's own, so the
      same knots) and are constants of the derivative; the coefficients are the
      solution of the penalised least-squares system SciPy's result satisfies (the
      weighted residuals plus ``p**-2`` times the squared jumps of the ``k``-th
      derivative at the interior knots), at SciPy's knots and ``p``, differentiable in
      ``y`` and ``w`` with both held fixed.  The knots are data sites, so a traced
      ``x`` (or ``xb``/``xe``) raises ``TypeError``; under vmap/jit the search needs
      values and raises.

    ``full_output=1`` adds ``fp`` (the weighted residual sum, differentiable), ``ier``
    and its message.  ``task=1`` and periodic splines (``per=1``) raise
    ``NotImplementedError``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.arange(6.0)
    >>> tck = fi.splrep(x, x ** 2)
    >>> fi.splev(np.array([0.5, 4.5]), tck)
    array([ 0.25, 20.25])
    >>> t, c, k = fi.splrep(x, x ** 2, s=0.5)  # (a parabola: no knot needed, fitted)
    >>> t
    array([0., 0., 0., 0., 5., 5., 5., 5.])
    """
    x, y = asarray(x), asarray(y)
    m = x.shape[0] if x.ndim == 1 else -1
    if s is None:
        s = 0.0 if w is None else m - np.sqrt(2 * m)
    if per:
        raise NotImplementedError("splrep: periodic splines (per=1) are not implemented; "
                                  "make_interp_spline(x, y, bc_type='periodic') "
                                  "interpolates periodically")
    if task == 1:
        raise NotImplementedError("splrep: task=1 (continuing FITPACK's last search) is "
                                  "not implemented; pass task=0 with the new s")
    if task not in (-1, 0):
        raise ValueError("splrep: task must be -1, 0 or 1")
    k = operator.index(k)
    if not 1 <= k <= 5:
        raise ValueError(f"splrep: 1 <= k={k} <= 5 must hold")
    if y.ndim != 1:
        raise ValueError(f"splrep: y must be 1-d, got shape {tuple(y.shape)}")
    if x.ndim != 1 or x.shape[0] != y.shape[0] or x.shape[0] <= k:
        raise ValueError(f"splrep: x and y must be 1-d of the same length, more than k={k}, "
                         f"got shapes {tuple(x.shape)} and {tuple(y.shape)}")
    if task == -1 and t is None:
        raise ValueError("splrep: Knots must be given for task=-1")
    if s < 0:
        raise ValueError(f"splrep: s must be >= 0, got {s}")
    x, moved, _ = _sites("splrep", x, y, 0, True)
    n = x.shape[0]
    first = x[:1] if xb is None else fnp.reshape(fnp.astype(asarray(xb), x.dtype), (1,))
    last = x[n - 1:] if xe is None else fnp.reshape(fnp.astype(asarray(xe), x.dtype), (1,))
    weights = _weights("splrep", w, n, x.dtype)
    if t is not None:
        inner = fnp.astype(asarray(t), x.dtype)
        knots = fnp.concatenate([first] * (k + 1) + [inner] + [last] * (k + 1))
        if is_concrete(x) and is_concrete(knots):
            schoenberg_whitney("splrep", x, knots, k)
        c = least_squares(design(x, knots, k), weights, fnp.reshape(moved, (n, 1)))[:, 0]
        ier = 0
    elif s == 0:
        knots = _not_a_knot(x, k)
        if xb is not None or xe is not None:
            knots = fnp.concatenate([first] * (k + 1) + [knots[k + 1:knots.shape[0] - k - 1]]
                                    + [last] * (k + 1))
        c = _collocation_solve(x, fnp.reshape(moved, (n, 1)), knots, k, [], [])[:, 0]
        ier = -1
    else:
        knots, c, fp, ier, message = fitpack_smoothing(
            "splrep", x, fnp.reshape(moved, (n, 1)), weights, xb, xe, k, s)
        knots, c = asarray(knots), c[:, 0]
        if ier in (1, 2, 3) and not full_output:
            warnings.warn(RuntimeWarning(f"splrep: {message}"), stacklevel=2)
    tck = (knots, fnp.pad(c, (0, k + 1)), k)
    if not full_output:
        return tck
    if t is not None or s == 0:
        residual = weights * (moved - BSpline(knots, c, k)(x))
        fp = fnp.sum(residual * residual) if t is not None else fnp.zeros((), c.dtype)
        message = _MESSAGES[ier]
    return tck, fp, ier, message


def _tck(name, tck):
    if isinstance(tck, BSpline):
        if tck.c.ndim > 1:
            raise ValueError(f"{name}: a BSpline with c.ndim > 1 is not allowed here; call "
                             f"the BSpline instead")
        return tck.t, tck.c, tck.k
    try:
        t, c, k = tck
    except (TypeError, ValueError) as e:
        raise ValueError(f"{name}: tck must be a (t, c, k) tuple or a BSpline") from e
    if isinstance(c, (list, tuple)):  # (a curve from splprep: one array per coordinate)
        return asarray(t), [asarray(ci) for ci in c], operator.index(k)
    c = asarray(c)
    if c.ndim != 1:
        raise ValueError(f"{name}: c must be 1-d (or a list of 1-d arrays, one per "
                         f"coordinate of a curve), got shape {tuple(c.shape)}")
    return asarray(t), c, operator.index(k)


def splev(x: ArrayLike, tck: Any, der: int = 0, ext: int = 0) -> Any:
    """The ``der``-th derivative at ``x`` of the spline ``tck`` (``(t, c, k)`` from
    :func:`splrep`, or a 1-d :class:`BSpline`; ``scipy.interpolate.splev``); for a curve
    from :func:`splprep` (``c`` a list of arrays) a list, one array per coordinate.  Outside
    ``[t[k], t[n]]``: ``ext`` 0 extrapolates, 1 gives 0, 2 raises ``ValueError``, 3 gives
    the value at the nearer end (for ``der > 0`` it extrapolates, as SciPy's).  Differentiable in ``x``, ``t`` and ``c``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> tck = fi.splrep(np.arange(6.0), np.arange(6.0) ** 2)
    >>> fi.splev(np.array([-1.0, 2.5, 7.0]), tck, ext=3)
    array([ 0.  ,  6.25, 25.  ])
    """
    t, c, k = _tck("splev", tck)
    if isinstance(c, list):
        return [splev(x, (t, ci, k), der, ext) for ci in c]
    der = operator.index(der)
    if not 0 <= der <= k:
        raise ValueError(f"splev: 0<=der={der}<=k={k} must hold")
    if ext not in (0, 1, 2, 3):
        raise ValueError(f"splev: ext = {ext} not in (0, 1, 2, 3) ")
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    count = t.shape[0] - k - 1
    spline = BSpline(t, c[:count], k)
    low, high = t[k], t[count]
    if ext == 3 and der == 0:
        return spline(fnp.clip(x, low, high))
    values = spline(x, der)
    if ext in (0, 3):  # (FITPACK's derivatives extrapolate with ext=3, so SciPy's do)
        return values
    outside = fnp.logical_or(x < low, x > high)
    if ext == 2:
        known = concrete_values(outside, "splev(ext=2)'s check of the points", "Pass "
                                "ext=0, 1 or 3 under vmap or jit.")
        if np.any(known):
            raise ValueError("splev: X value out of bounds: ext=2 raises for points "
                             "outside [t[k], t[n]]")
        return values
    return fnp.where(outside, fnp.zeros((), values.dtype), values)


def splint(a: ArrayLike, b: ArrayLike, tck: Any, full_output: int = 0) -> Any:
    """The integral of the spline ``tck`` from ``a`` to ``b``
    (``scipy.interpolate.splint``), the spline taken as 0 outside ``[t[k], t[n]]``.
    Differentiable in ``a``, ``b``, ``t`` and ``c``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> tck = fi.splrep(np.arange(6.0), np.arange(6.0) ** 2)
    >>> round(float(fi.splint(0.0, 3.0, tck)), 12)
    9.0
    """
    if full_output:
        raise NotImplementedError("splint: full_output (FITPACK's work array) is not "
                                  "implemented; pass full_output=0")
    t, c, k = _tck("splint", tck)
    if isinstance(c, list):
        return [splint(a, b, (t, ci, k)) for ci in c]
    integral = BSpline(t, c[:t.shape[0] - k - 1], k).integrate(a, b, extrapolate=False)
    return integral[()]  # (a scalar, as SciPy's)
