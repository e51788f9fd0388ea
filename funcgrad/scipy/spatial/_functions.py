"""``scipy.spatial``'s functions outside its submodules: ``distance_matrix``,
``minkowski_distance``, ``minkowski_distance_p``, ``procrustes`` and ``geometric_slerp``,
differentiable (the zero subgradient at a zero distance, as :mod:`.distance`)."""
import math
import warnings

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete
from ...typing import Array, ArrayLike
from . import _rows

__all__ = ["distance_matrix", "minkowski_distance", "minkowski_distance_p", "procrustes",
           "geometric_slerp"]


def _float64(x):
    return fnp.astype(asarray(x), np.float64)


def _order(name, p):
    if not isinstance(p, (int, float, np.integer, np.floating)) or not p > 0:
        raise ValueError(f"{name}: p must be a number > 0 (np.inf for the maximum), got {p!r}")
    return float(p)


def minkowski_distance_p(x: ArrayLike, y: ArrayLike, p: float = 2.0) -> Array:
    """``sum(|x - y|^p)`` over the last axis, broadcasting (``max |x - y|`` for
    ``p = inf``) (``scipy.spatial.minkowski_distance_p``); float64.

    >>> import funcgrad.scipy.spatial as fsp
    >>> fsp.minkowski_distance_p([[0.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 1.0]])
    array([2., 1.])
    """
    p = _order("minkowski_distance_p", p)
    d = fnp.abs(_float64(y) - _float64(x))
    if p == math.inf:
        return fnp.max(d, axis=-1)
    return fnp.sum(d if p == 1 else _rows.power0(d, p), axis=-1)


def minkowski_distance(x: ArrayLike, y: ArrayLike, p: float = 2.0) -> Array:
    """The ``p``-norm distance between ``x`` and ``y`` over the last axis, broadcasting
    (``scipy.spatial.minkowski_distance``); gradient zero at a zero distance.

    >>> import funcgrad.scipy.spatial as fsp
    >>> fsp.minkowski_distance([[0.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 1.0]])
    array([1.41421356, 1.        ])
    """
    p = _order("minkowski_distance", p)
    s = minkowski_distance_p(x, y, p)
    return s if p in (1.0, math.inf) else _rows.power0(s, 1.0 / p)


def distance_matrix(x: ArrayLike, y: ArrayLike, p: float = 2.0, threshold: int = 1000000
                    ) -> Array:
    """The ``(m, n)`` matrix of :func:`minkowski_distance` between the rows of ``x`` and of
    ``y`` (``scipy.spatial.distance_matrix``); above ``threshold`` entries of ``m n k`` the
    rows are taken one at a time, as SciPy's, to bound memory.

    >>> import funcgrad.scipy.spatial as fsp
    >>> fsp.distance_matrix([[0.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]])
    array([[1.        , 1.41421356],
           [1.41421356, 1.        ]])
    """
    x, y = asarray(x), asarray(y)
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(f"distance_matrix: x and y must be 2-d (one point per row), got "
                         f"shapes {x.shape} and {y.shape}")
    (m, k), (n, kk) = x.shape, y.shape
    if k != kk:
        raise ValueError(f"distance_matrix: x contains {k}-dimensional vectors but y "
                         f"contains {kk}-dimensional vectors")
    if m * n * k <= threshold:
        return minkowski_distance(x[:, None, :], y[None, :, :], p)
    if m < n:
        return fnp.stack([minkowski_distance(x[i], y, p) for i in range(m)])
    return fnp.stack([minkowski_distance(x, y[j], p) for j in range(n)], axis=1)


def procrustes(data1: ArrayLike, data2: ArrayLike) -> tuple[Array, Array, Array]:
    """``(mtx1, mtx2, disparity)``: both point sets centred and scaled to unit Frobenius
    norm, ``data2``'s rotated and scaled onto ``data1``'s, and the sum of squared
    differences left (``scipy.spatial.procrustes``).  Differentiable through
    ``orthogonal_procrustes`` (where ``mtx1^T mtx2`` has distinct nonzero singular values).

    >>> import numpy as np, funcgrad.scipy.spatial as fsp
    >>> a = np.array([[1.0, 3.0], [1.0, 2.0], [1.0, 1.0], [2.0, 1.0]])
    >>> b = np.array([[4.0, -2.0], [4.0, -4.0], [4.0, -6.0], [2.0, -6.0]])
    >>> round(float(fsp.procrustes(a, b)[2]), 12)
    0.0
    """
    from ..linalg import orthogonal_procrustes
    mtx1, mtx2 = _float64(data1), _float64(data2)
    if mtx1.ndim != 2 or mtx2.ndim != 2:
        raise ValueError("procrustes: input matrices must be two-dimensional")
    if mtx1.shape != mtx2.shape:
        raise ValueError(f"procrustes: input matrices must be of the same shape, got "
                         f"{mtx1.shape} and {mtx2.shape}")
    if mtx1.size == 0:
        raise ValueError("procrustes: input matrices must be >0 rows and >0 cols")
    mtx1 = mtx1 - fnp.mean(mtx1, axis=0)
    mtx2 = mtx2 - fnp.mean(mtx2, axis=0)
    norm1, norm2 = fnp.linalg.norm(mtx1), fnp.linalg.norm(mtx2)
    if (is_concrete(norm1) and is_concrete(norm2)
            and (concrete_values(norm1, "", "") == 0 or concrete_values(norm2, "", "") == 0)):
        raise ValueError("procrustes: input matrices must contain >1 unique points")
    mtx1, mtx2 = mtx1 / norm1, mtx2 / norm2
    rotation, scale = orthogonal_procrustes(mtx1, mtx2)
    mtx2 = (mtx2 @ rotation.T) * scale
    return mtx1, mtx2, fnp.sum((mtx1 - mtx2) ** 2)


def geometric_slerp(start: ArrayLike, end: ArrayLike, t: ArrayLike, tol: float = 1e-7
                    ) -> Array:
    """Points on the great circle of the unit n-sphere from ``start`` (``t = 0``) to
    ``end`` (``t = 1``) (``scipy.spatial.geometric_slerp``); a 1-d ``t`` gives one row per
    value.  Differentiable in ``start``, ``end`` and ``t`` away from ``start == end`` (where
    SciPy's answer, ``start`` repeated, is returned) and antipodes (which warn).

    >>> import numpy as np, funcgrad.scipy.spatial as fsp
    >>> fsp.geometric_slerp(np.array([1.0, 0.0]), np.array([0.0, 1.0]), 0.5)
    array([0.70710678, 0.70710678])
    """
    start, end, t = _float64(start), _float64(end), asarray(t)
    if t.ndim > 1:
        raise ValueError("geometric_slerp: the interpolation parameter t must be one "
                         "dimensional")
    if start.ndim != 1 or end.ndim != 1:
        raise ValueError("geometric_slerp: start and end coordinates must be one-dimensional")
    if start.shape != end.shape:
        raise ValueError("geometric_slerp: the dimensions of start and end must match")
    if start.shape[0] < 2:
        raise ValueError("geometric_slerp: start and end must be in at least two-dimensional "
                         "space")
    if not isinstance(tol, float):
        raise ValueError("geometric_slerp: tol must be a float")
    if is_concrete(start) and is_concrete(end):
        s0, e0 = concrete_values(start, "", ""), concrete_values(end, "", "")
        if np.array_equal(s0, e0):
            return fnp.broadcast_to(start, (t.size, start.shape[0]))
        for point in (s0, e0):
            if not np.isclose(np.linalg.norm(point), 1.0, rtol=1e-9, atol=0):
                raise ValueError("geometric_slerp: start and end are not on a unit n-sphere")
        if np.isclose(np.linalg.norm(s0 - e0), 2.0, rtol=0, atol=abs(tol)):
            warnings.warn("start and end are antipodes using the specified tolerance; this "
                          "may cause ambiguous slerp paths", stacklevel=2)
    t = _float64(t)
    if t.size == 0:
        empty = np.zeros((0, int(start.shape[0])))
        return empty
    # the plane of start and end: start and the unit part of end orthogonal to it
    c = fnp.sum(start * end)
    normal = end - c * start
    s = _rows.sqrt0(fnp.sum(normal * normal))
    normal = normal / fnp.where(s > 0, s, 1.0)
    angle = fnp.arctan2(s, c) * fnp.reshape(t, (-1, 1))
    out = start * fnp.cos(angle) + normal * fnp.sin(angle)
    return fnp.reshape(out, (-1,)) if t.ndim == 0 else out
