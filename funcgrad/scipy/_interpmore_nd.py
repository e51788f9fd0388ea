"""Interpolation of scattered data in ``ndim`` dimensions: ``NearestNDInterpolator``,
``LinearNDInterpolator`` (``scipy.interpolate``'s; ``griddata`` in :mod:`._griddata`).

What is combinatorial is SciPy's: the nearest site (SciPy's ``cKDTree`` on known values;
the least squared distance, by comparisons, under ``vmap``/``jit``), the Delaunay
triangulation of the sites and the simplex that holds each query (``scipy.spatial``'s
Qhull, on values).  What is arithmetic is written with differentiable operations: the
nearest value is a gather of ``values``; the linear interpolant is ``sum_j lambda_j
values[v_j]`` with the barycentric coordinates ``lambda`` of the query in its simplex
solved from the simplex's vertices, so it differentiates in the values, the sites (the
triangulation held fixed, as a derivative does) and the query points.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike

__all__ = ["NearestNDInterpolator", "LinearNDInterpolator"]


def _float(a):
    a = asarray(a)
    return fnp.astype(a, np.float64) if a.dtype.kind in "biu" else a


def _sites(name, points, values):
    """``points`` as ``(n, ndim)`` and ``values`` ``(n, ...)``, checked."""
    if isinstance(points, (tuple, list)) and points and np.ndim(points[0]) == 1 and \
            not isinstance(points[0], (int, float)):
        points = fnp.stack([_float(p) for p in points], axis=1)  # (one array per axis)
    points = _float(points)
    if points.ndim == 1:
        points = fnp.reshape(points, (-1, 1))
    if points.ndim != 2:
        raise ValueError(f"{name}: points must be (n, ndim), got shape "
                         f"{tuple(points.shape)}")
    values = _float(values)
    if values.ndim == 0 or values.shape[0] != points.shape[0]:
        raise ValueError(f"{name}: different number of values and points: "
                         f"{points.shape[0]} points, values of shape {tuple(values.shape)}")
    return points, values


def _queries(name, args, ndim):
    """SciPy's query forms: one array ``(..., ndim)``, or one array per coordinate
    (broadcast together)."""
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    if len(args) == 1:
        xi = _float(args[0])
        if ndim == 1 and (xi.ndim == 0 or xi.shape[-1] != 1):
            xi = xi[..., None]
    else:
        if len(args) != ndim:
            raise ValueError(f"{name}: {len(args)} coordinate arrays for {ndim}-dimensional "
                             f"data")
        parts = fnp.broadcast_arrays(*[_float(a) for a in args])
        xi = fnp.stack(parts, axis=-1)
    if xi.shape[-1] != ndim:
        raise ValueError(f"{name}: number of dimensions in xi does not match x: got "
                         f"shape {tuple(xi.shape)} for {ndim}-dimensional data")
    return xi


def _rescaled(points, rescale):
    """The sites as SciPy's combinatorial searches see them (``rescale``: centred on
    their mean, each axis divided by its extent) and that map."""
    known = np.asarray(concrete_values(points, "the sites (their triangulation or tree)",
                                       "Build the interpolator outside vmap and jit."),
                       np.float64)
    if not rescale:
        return known, np.zeros(known.shape[1]), np.ones(known.shape[1])
    offset = np.mean(known, axis=0)
    scale = np.ptp(known - offset, axis=0)
    scale[~(scale > 0)] = 1.0
    return (known - offset) / scale, offset, scale


class NearestNDInterpolator:
    """The value at the nearest data site (``scipy.interpolate.NearestNDInterpolator``):
    sites ``x`` ``(n, ndim)``, values ``y`` ``(n, ...)``; call it at ``(..., ndim)``
    points or at one array per coordinate.  Differentiable in ``y`` (the query's slope
    is 0: the interpolant is piecewise constant).  ``rescale`` rescales to the unit cube
    before the search, as SciPy's; ``tree_options`` go to SciPy's ``cKDTree``, and the
    query options ``eps``, ``p``, ``distance_upper_bound`` to its query (NaN where no
    site is that close).

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> x = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> fi.NearestNDInterpolator(x, np.array([1.0, 2.0, 3.0]))(np.array([[0.9, 0.2]]))
    array([2.])
    """

    def __init__(self, x: ArrayLike, y: ArrayLike, rescale: bool = False,
                 tree_options: Any = None) -> None:
        self.points, self.values = _sites("NearestNDInterpolator", x, y)
        self.rescale, self._tree_options = rescale, dict(tree_options or {})
        self._tree: Any = None

    def __call__(self, *args: Any, **query_options: Any) -> Array:
        """The values at the query points: ``xi.shape[:-1] + y.shape[1:]``."""
        ndim = self.points.shape[1]
        xi = _queries("NearestNDInterpolator", args, ndim)
        flat = fnp.reshape(xi, (-1, ndim))
        if is_concrete(flat) and is_concrete(self.points):
            known, offset, scale = _rescaled(self.points, self.rescale)
            if self._tree is None:
                from scipy.spatial import cKDTree  # (here: importing funcgrad never
                # loads SciPy)
                self._tree = cKDTree(known, **self._tree_options)
            queries = (np.asarray(concrete_values(flat, "", ""), np.float64) - offset) / scale
            distance, index = self._tree.query(queries, **query_options)
            found = np.isfinite(distance)
            index = np.where(found, index, 0)
        else:
            if self.rescale or query_options:
                raise NotImplementedError("NearestNDInterpolator: rescale and query "
                                          "options need known points; under vmap/jit "
                                          "pass neither")
            gaps = flat[:, None, :] - self.points[None, :, :]
            index = fnp.argmin(fnp.sum(gaps * gaps, axis=2), axis=1)
            found = None
        out = fnp.take(self.values, index, axis=0)
        if found is not None and not np.all(found):
            mask = np.reshape(~found, (-1,) + (1,) * (out.ndim - 1))
            out = fnp.where(mask, fnp.astype(fnp.asarray(np.nan), out.dtype), out)
        return fnp.reshape(out, tuple(xi.shape[:-1]) + tuple(self.values.shape[1:]))


class LinearNDInterpolator:
    """The piecewise linear interpolant on the Delaunay triangulation of the sites
    (``scipy.interpolate.LinearNDInterpolator``): ``points`` ``(n, ndim)`` (or a
    ``scipy.spatial.Delaunay``), ``values`` ``(n, ...)``; ``fill_value`` outside the
    convex hull.  The triangulation and the simplex of each query are SciPy's (on
    values: queries under ``vmap``/``jit`` raise); the interpolated values differentiate
    in ``values``, ``points`` and the queries.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> x = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> f = fi.LinearNDInterpolator(x, x[:, 0] + 2 * x[:, 1])
    >>> f(np.array([[0.25, 0.5], [2.0, 2.0]]))
    array([1.25,  nan])
    >>> fg.grad(lambda q: f(q)[0])(np.array([[0.25, 0.5], [2.0, 2.0]]))
    array([[1., 2.],
           [0., 0.]])
    """

    def __init__(self, points: Any, values: ArrayLike, fill_value: float = np.nan,
                 rescale: bool = False) -> None:
        from scipy.spatial import Delaunay  # (here: importing funcgrad never loads SciPy)
        if isinstance(points, Delaunay):
            self.tri = points
            points = points.points
            known, offset, scale = np.asarray(points), 0.0, 1.0
            if rescale:
                raise ValueError("LinearNDInterpolator: rescale is not supported with a "
                                 "given triangulation")
        self.points, self.values = _sites("LinearNDInterpolator", points, values)
        if not hasattr(self, "tri"):
            known, offset, scale = _rescaled(self.points, rescale)
            self.tri = Delaunay(known)
        self._offset, self._scale = offset, scale
        self.fill_value = fill_value

    def __call__(self, *args: Any) -> Array:
        """The values at the query points: ``xi.shape[:-1] + values.shape[1:]``."""
        ndim = self.points.shape[1]
        xi = _queries("LinearNDInterpolator", args, ndim)
        flat = fnp.reshape(xi, (-1, ndim))
        queries = np.asarray(concrete_values(
            flat, "LinearNDInterpolator's search for the simplex of each query",
            "Evaluate it outside vmap and jit."), np.float64)
        simplex = np.asarray(self.tri.find_simplex((queries - self._offset) / self._scale))
        inside = simplex >= 0
        vertices = self.tri.simplices[np.where(inside, simplex, 0)]  # (q, ndim + 1)
        corners = fnp.take(self.points, vertices, axis=0)  # (q, ndim + 1, ndim)
        last = corners[:, ndim]
        edges = fnp.transpose(corners[:, :ndim] - last[:, None, :], (0, 2, 1))
        first = fnp.linalg.solve(edges, (flat - last)[:, :, None])[:, :, 0]
        weights = fnp.concatenate([first, 1 - fnp.sum(first, axis=1, keepdims=True)], axis=1)
        values = fnp.take(self.values, vertices, axis=0)  # (q, ndim + 1, ...)
        shape = tuple(weights.shape) + (1,) * (values.ndim - 2)
        out = fnp.sum(fnp.reshape(fnp.astype(weights, values.dtype), shape) * values, axis=1)
        if not np.all(inside):
            mask = np.reshape(~inside, (-1,) + (1,) * (out.ndim - 1))
            out = fnp.where(mask, fnp.astype(fnp.asarray(self.fill_value), out.dtype), out)
        return fnp.reshape(out, tuple(xi.shape[:-1]) + tuple(self.values.shape[1:]))
