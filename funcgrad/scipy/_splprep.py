"""FITPACK's parametric curves: ``splprep`` fits one spline per coordinate of the points
``x[:, j]`` against a common parameter ``u`` (default: the cumulative chord length,
scaled to ``[0, 1]``), on common knots; ``splev``/``splint`` evaluate the resulting
``[t, [c_0, c_1, ...], k]`` coordinate by coordinate.

With ``s=0`` the curve interpolates: the knots are the not-a-knot knots on ``u`` (as
:func:`splrep`'s), so ``u``, the knots and the coefficients are all smooth functions of
the points, and the curve is differentiable in ``x`` (and a given ``u``).  Given knots
``t`` with ``task=-1`` give the least-squares curve, differentiable in ``x``, ``w``, ``u``
and ``t``.  With ``s > 0`` the knots are FITPACK's search on the values (SciPy's own) and
constants of the derivative, and the coefficients the penalised least-squares solution
at them and at FITPACK's ``p`` (:mod:`._bspline_fit`): differentiable in ``x`` and
``w``, with ``u`` given as plain numbers (the knots sit at values of ``u``, so a ``u``
that moves with the points would move them).
"""
import operator
import warnings
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from ._bspline_fit import _weights, design, fitpack_smoothing, least_squares, schoenberg_whitney
from ._bspline_interp import _MESSAGES, _collocation_solve, _not_a_knot

__all__ = ["splprep"]


def _chord_parameter(points):
    """The cumulative distance between consecutive points, scaled to end at 1."""
    steps = fnp.sqrt(fnp.sum(fnp.diff(points, axis=0) ** 2, axis=1))
    total = fnp.concatenate([fnp.zeros_like(steps[:1]), fnp.cumsum(steps)])
    return total / total[total.shape[0] - 1]


def splprep(x: Any, w: Optional[ArrayLike] = None, u: Optional[ArrayLike] = None,
            ub: Optional[float] = None, ue: Optional[float] = None, k: int = 3,
            task: int = 0, s: Optional[float] = None, t: Optional[ArrayLike] = None,
            full_output: int = 0, nest: Optional[int] = None, per: int = 0,
            quiet: int = 1) -> Any:
    """The B-spline representation of an N-d curve (``scipy.interpolate.splprep``):
    ``x`` is ``idim`` arrays of ``m`` coordinates (``1 <= idim <= 10``); returns
    ``([t, c, k], u)`` with ``c`` a list of one coefficient array per coordinate (with
    ``full_output``, that pair, ``fp``, ``ier`` and its message).  ``s`` defaults to ``m - sqrt(2 m)`` (as SciPy's; ``s=0``
    interpolates); ``u`` defaults to the normalised chord length, with ``ub``/``ue`` the
    parameter's ends (used only with ``u``, as SciPy's).  Derivatives: in ``x`` (through ``u`` too) for ``s=0`` and given
    knots; for ``s > 0`` at FITPACK's knots and ``p``, with ``u`` passed as plain
    numbers (see the module docstring).  Periodic curves (``per=1``) and ``task=1``
    raise ``NotImplementedError``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> angle = np.linspace(0.0, np.pi / 2, 7)
    >>> tck, u = fi.splprep([np.cos(angle), np.sin(angle)], s=0)
    >>> [np.round(v, 6) for v in fi.splev(np.array([0.0, 1.0]), tck)]
    [array([1., 0.]), array([0., 1.])]
    """
    if per:
        raise NotImplementedError("splprep: periodic curves (per=1) are not implemented")
    if task == 1:
        raise NotImplementedError("splprep: task=1 (continuing FITPACK's last search) is "
                                  "not implemented; pass task=0 with the new s")
    if task not in (-1, 0):
        raise ValueError("splprep: task must be -1, 0 or 1")
    k = operator.index(k)
    if not 1 <= k <= 5:
        raise ValueError(f"splprep: 1 <= k= {k} <=5 must hold")
    rows = [asarray(row) for row in x] if isinstance(x, (list, tuple)) else None
    points = fnp.stack(rows, axis=1) if rows is not None else fnp.transpose(asarray(x))
    if points.ndim != 2:
        raise ValueError(f"splprep: x must be idim arrays of m coordinates, got shape "
                         f"{tuple(fnp.transpose(points).shape)}")
    if points.dtype.kind in "biu" or points.dtype != np.float64:
        points = fnp.astype(points, np.float64)
    m, idim = points.shape
    if not 0 < idim < 11:
        raise ValueError(f"splprep: 0 < idim < 11 must hold, got idim={idim}")
    if m <= k:
        raise ValueError(f"splprep: m > k must hold (m={m} points, k={k})")
    if s is None:
        s = m - np.sqrt(2 * m)
    if s < 0:
        raise ValueError(f"splprep: s must be >= 0, got {s}")
    if t is None and task == -1:
        raise ValueError("splprep: Knots must be given for task=-1")
    if nest is not None and s > 0 and task == 0:
        raise NotImplementedError("splprep: nest (FITPACK's room for knots) is not "
                                  "implemented; leave it None")
    weights = _weights("splprep", w, m, np.float64)
    if u is None:
        u = _chord_parameter(points)
        first, last = fnp.zeros_like(u[:1]), fnp.ones_like(u[:1])
        if is_concrete(u) and not np.all(np.diff(concrete_values(u, "", "")) > 0):
            raise ValueError("splprep: two consecutive points coincide, so the chord-length "
                             "parameter does not increase; pass u or drop the repeat")
    else:
        u = fnp.astype(asarray(u), np.float64)
        if u.ndim != 1 or u.shape[0] != m:
            raise ValueError(f"splprep: Mismatch of input dimensions: u has shape "
                             f"{tuple(u.shape)}, the points {m}")
        first, last = u[:1], u[m - 1:]
        if ub is not None:  # (without u, FITPACK's parameter runs from 0 to 1: as SciPy's,
            # ub and ue count only with u)
            first = fnp.reshape(fnp.astype(asarray(ub), np.float64), (1,))
        if ue is not None:
            last = fnp.reshape(fnp.astype(asarray(ue), np.float64), (1,))
    if task == -1 and t is not None:  # (as SciPy's: t counts only for task=-1)
        knots = fnp.astype(asarray(t), np.float64)
        if knots.shape[0] < 2 * k + 2:
            raise ValueError("splprep: There must be at least 2*k+2 knots for task=-1")
        if is_concrete(u) and is_concrete(knots):
            schoenberg_whitney("splprep", u, knots, k)
        c = least_squares(design(u, knots, k), weights, points)
        ier = 0
    elif s == 0:
        knots = _not_a_knot(u, k)
        knots = fnp.concatenate([first] * (k + 1) + [knots[k + 1:knots.shape[0] - k - 1]]
                                + [last] * (k + 1))
        c = _collocation_solve(u, points, knots, k, [], [])
        ier = -1
    else:
        if isinstance(u, Tracer):
            raise TypeError("splprep: with s > 0, u carries a derivative (the default u is "
                            "the points' chord length), but FITPACK places the knots at "
                            "values of u by a search, so they would move with it; pass u "
                            "as plain numbers (e.g. fg.stop_gradient of the chord length) "
                            "for derivatives in the points at fixed u")
        knots, c, fp, ier, message = fitpack_smoothing(
            "splprep", u, points, weights, first[0], last[0], k, s, search="splprep")
        knots = asarray(knots)
        if ier in (1, 2, 3) and not full_output:
            warnings.warn(RuntimeWarning(f"splprep: {message}"), stacklevel=2)
    tck = [knots, [c[:, j] for j in range(idim)], k]
    if not full_output:
        return tck, u
    if task == -1 or s == 0:
        residual = weights[:, None] * (points - fnp.matmul(design(u, knots, k), c))
        fp = fnp.sum(residual * residual) if task == -1 else fnp.zeros((), c.dtype)
        message = _MESSAGES[ier]
    return (tck, u), fp, ier, message
