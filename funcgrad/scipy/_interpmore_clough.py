"""``CloughTocher2DInterpolator``: the piecewise cubic, C1, curvature-minimizing
interpolant of scattered 2-d data (``scipy.interpolate``'s; ``griddata``'s 'cubic').

SciPy triangulates the sites, estimates the gradient at each site (a Gauss-Seidel
minimization of the interpolant's curvature along the edges) and evaluates, in the
triangle holding each query, a cubic Bezier patch split three ways at the centroid.
Here SciPy builds its own interpolator on the values (so the triangulation and the
estimated gradients are SciPy's numbers), and the patch is evaluated with
differentiable operations in the same order as SciPy's, so the values are SciPy's and
differentiate in the query points.  In the data values they differentiate too: the
estimated gradients are the solution of a linear system in the values (the curvature's
minimum), and their derivative is that system's, solved exactly.  SciPy stops its
iteration at a tolerance (``tol``), so its gradients are that close to the minimum this
derivative belongs to.  The sites themselves are not differentiated (an error says so).
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import concrete_values
from ..typing import Array, ArrayLike
from ._interpmore_nd import _queries, _sites

__all__ = ["CloughTocher2DInterpolator"]


def _curvature_system(tri):
    """The minimum of the curvature functional as a linear system ``A G = B f`` in the
    sites' gradients ``G`` (``(2 n,)``, x and y of each site) and values ``f``: per edge
    ``E = p_j - p_i`` of length ``L``, ``sum_j (4 E E^T G_i + 2 E E^T G_j) / L^3 =
    -sum_j 6 (f_i - f_j) E / L^3`` (SciPy's local 2x2 problems, all at once)."""
    indptr, indices = tri.vertex_neighbor_vertices
    n = tri.npoints
    i = np.repeat(np.arange(n), np.diff(indptr))
    j = np.asarray(indices)
    e = tri.points[j] - tri.points[i]
    w = 1.0 / np.sqrt((e ** 2).sum(axis=1)) ** 3
    outer = e[:, :, None] * e[:, None, :] * w[:, None, None]  # (edges, 2, 2)
    a = np.zeros((n, 2, n, 2))
    np.add.at(a, (i, slice(None), i), 4 * outer)
    np.add.at(a, (i, slice(None), j), 2 * outer)
    b = np.zeros((n, 2, n))
    np.add.at(b, (i, slice(None), i), -6 * e * w[:, None])
    np.add.at(b, (i, slice(None), j), 6 * e * w[:, None])
    return a.reshape(2 * n, 2 * n), b.reshape(2 * n, n)


def _neighbour_directions(tri):
    """SciPy's affine-invariant cross-edge directions ``g`` for every triangle
    ``(ntri, 3)``: from the centroid of the neighbour across each edge, in this
    triangle's barycentric coordinates; -1/2 where there is no neighbour."""
    simplices, neighbors, t = tri.simplices, tri.neighbors, tri.transform
    centroid = tri.points[simplices].sum(axis=1) / 3  # (SciPy's: a sum over 3, then / 3)
    g = np.full(simplices.shape, -0.5)
    for k, (a, b) in enumerate(((2, 1), (0, 2), (1, 0))):
        has = neighbors[:, k] != -1
        y = centroid[neighbors[has, k]]
        tr = t[has]
        d = y - tr[:, 2, :]
        c01 = (0 + tr[:, 0, 0] * d[:, 0]) + tr[:, 0, 1] * d[:, 1], \
            (0 + tr[:, 1, 0] * d[:, 0]) + tr[:, 1, 1] * d[:, 1]
        c = np.stack([c01[0], c01[1], (1 - c01[0]) - c01[1]], axis=1)
        g[has, k] = (2 * c[:, a] + c[:, b] - 1) / (2 - 3 * c[:, a] - 3 * c[:, b])
    return g


def _patch(b, f, df, e, g):
    """The Clough-Tocher patch at barycentric ``b`` ``(q, 3)``, vertex values ``f``
    ``(q, 3, k)`` and gradients ``df`` ``(q, 3, k, 2)``, edges ``e`` ``(q, 3, 2)``
    (1->2, 2->3, 3->1) and directions ``g`` ``(q, 3)``: SciPy's formulas, term by term."""
    def along(v, edge, sign):
        d = df[:, v, :, 0] * e[:, edge, None, 0] + df[:, v, :, 1] * e[:, edge, None, 1]
        return d if sign > 0 else -d
    f1, f2, f3 = f[:, 0], f[:, 1], f[:, 2]
    df12, df21 = along(0, 0, 1), along(1, 0, -1)
    df23, df32 = along(1, 1, 1), along(2, 1, -1)
    df31, df13 = along(2, 2, 1), along(0, 2, -1)
    c3000, c0300, c0030 = f1, f2, f3
    c2100, c2010 = (df12 + 3 * c3000) / 3, (df13 + 3 * c3000) / 3
    c1200, c0210 = (df21 + 3 * c0300) / 3, (df23 + 3 * c0300) / 3
    c1020, c0120 = (df31 + 3 * c0030) / 3, (df32 + 3 * c0030) / 3
    c2001 = (c2100 + c2010 + c3000) / 3
    c0201 = (c1200 + c0300 + c0210) / 3
    c0021 = (c1020 + c0120 + c0030) / 3
    g0, g1, g2 = g[:, 0, None], g[:, 1, None], g[:, 2, None]
    c0111 = (g0 * (-c0300 + 3 * c0210 - 3 * c0120 + c0030)
             + (-c0300 + 2 * c0210 - c0120 + c0021 + c0201)) / 2
    c1011 = (g1 * (-c0030 + 3 * c1020 - 3 * c2010 + c3000)
             + (-c0030 + 2 * c1020 - c2010 + c2001 + c0021)) / 2
    c1101 = (g2 * (-c3000 + 3 * c2100 - 3 * c1200 + c0300)
             + (-c3000 + 2 * c2100 - c1200 + c2001 + c0201)) / 2
    c1002 = (c1101 + c1011 + c2001) / 3
    c0102 = (c1101 + c0111 + c0201) / 3
    c0012 = (c1011 + c0111 + c0021) / 3
    c0003 = (c1002 + c0102 + c0012) / 3
    low = fnp.minimum(fnp.minimum(b[:, 0], b[:, 1]), b[:, 2])
    b1, b2, b3 = (b[:, k, None] - low[:, None] for k in range(3))
    b4 = 3 * low[:, None]
    return (b1 ** 3 * c3000 + 3 * b1 ** 2 * b2 * c2100 + 3 * b1 ** 2 * b3 * c2010
            + 3 * b1 ** 2 * b4 * c2001 + 3 * b1 * b2 ** 2 * c1200
            + 6 * b1 * b2 * b4 * c1101 + 3 * b1 * b3 ** 2 * c1020 + 6 * b1 * b3 * b4 * c1011
            + 3 * b1 * b4 ** 2 * c1002 + b2 ** 3 * c0300 + 3 * b2 ** 2 * b3 * c0210
            + 3 * b2 ** 2 * b4 * c0201 + 3 * b2 * b3 ** 2 * c0120 + 6 * b2 * b3 * b4 * c0111
            + 3 * b2 * b4 ** 2 * c0102 + b3 ** 3 * c0030 + 3 * b3 ** 2 * b4 * c0021
            + 3 * b3 * b4 ** 2 * c0012 + b4 ** 3 * c0003)


def _traced(x):
    return isinstance(x, Tracer) or is_special(x)


class CloughTocher2DInterpolator:
    """The piecewise cubic, C1, curvature-minimizing interpolant of 2-d scattered data
    (``scipy.interpolate.CloughTocher2DInterpolator``): ``points`` ``(n, 2)``,
    ``values`` ``(n, ...)``; ``fill_value`` outside the convex hull; ``tol``, ``maxiter``
    of SciPy's gradient estimation; ``rescale`` as SciPy's.  Differentiable in
    ``values`` and the query points (not in ``points``).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> p = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.4, 0.6]])
    >>> f = fi.CloughTocher2DInterpolator(p, p[:, 0] ** 2 + p[:, 1])
    >>> f(np.array([[0.5, 0.5]]))
    array([0.76389942])
    >>> fg.grad(lambda q: f(q)[0])(np.array([[0.5, 0.5]])).round(3)
    array([[1.087, 0.913]])
    """

    def __init__(self, points: Any, values: ArrayLike, fill_value: float = np.nan,
                 tol: float = 1e-6, maxiter: int = 400, rescale: bool = False) -> None:
        from scipy.interpolate import CloughTocher2DInterpolator as Scipy
        points, values = _sites("CloughTocher2DInterpolator", points, values)
        if _traced(points):
            raise NotImplementedError(
                "CloughTocher2DInterpolator is differentiable in values and in the query "
                "points, not in the sites (SciPy's gradient estimation depends on them "
                "through its triangulation): pass the points as a constant, e.g. "
                "fg.lax.stop_gradient(points)")
        if points.shape[1] != 2:
            raise ValueError(f"CloughTocher2DInterpolator: the points must be 2-d, (n, 2); "
                             f"got shape {tuple(points.shape)}")
        known = np.asarray(concrete_values(points, "the sites", "outside jit"), np.float64)
        data = concrete_values(values, "CloughTocher2DInterpolator's gradient estimation",
                               "Build the interpolator outside vmap and jit.")
        self._scipy = Scipy(known, data, fill_value=fill_value, tol=tol, maxiter=maxiter,
                            rescale=rescale)
        self.tri, self.fill_value = self._scipy.tri, fill_value
        self.points, self._shape = points, tuple(values.shape[1:])
        flat = fnp.reshape(values, (values.shape[0], -1))
        self.values = flat
        grad = self._scipy.grad  # (n, k, 2), SciPy's estimate
        if _traced(values):
            a, b = _curvature_system(self.tri)
            moved = fnp.real(flat - stop_gradient(flat)) if flat.dtype.kind == "c" \
                else flat - stop_gradient(flat)
            change = fnp.linalg.solve(a, b @ moved)  # (2 n, k): zero, with its derivative
            if flat.dtype.kind == "c":
                imag = fnp.imag(flat - stop_gradient(flat))
                change = change + 1j * fnp.linalg.solve(a, b @ imag)
            change = fnp.transpose(fnp.reshape(change, (-1, 2, flat.shape[1])), (0, 2, 1))
            grad = grad + change
        self.grad = grad
        self._edges = self._directions = None

    def __call__(self, *args: Any) -> Array:
        """The values at the query points: ``xi.shape[:-1] + values.shape[1:]``."""
        xi = _queries("CloughTocher2DInterpolator", args, 2)
        flat = fnp.reshape(xi, (-1, 2))
        sc = self._scipy
        if getattr(sc, "offset", None) is not None:
            flat = (flat - sc.offset) / sc.scale
        queries = np.asarray(concrete_values(
            flat, "CloughTocher2DInterpolator's search for the triangle of each query",
            "Evaluate it outside vmap and jit."), np.float64)
        simplex = np.asarray(self.tri.find_simplex(queries))
        inside = simplex >= 0
        s = np.where(inside, simplex, 0)
        if self._edges is None:
            corners = self.tri.points[self.tri.simplices]
            self._edges = corners[:, [1, 2, 0]] - corners
            self._directions = _neighbour_directions(self.tri)
        t = self.tri.transform[s]
        d = flat - t[:, 2, :]
        b0 = (0 + t[:, 0, 0] * d[:, 0]) + t[:, 0, 1] * d[:, 1]
        b1 = (0 + t[:, 1, 0] * d[:, 0]) + t[:, 1, 1] * d[:, 1]
        b = fnp.stack([b0, b1, (1 - b0) - b1], axis=1)
        vertices = self.tri.simplices[s]
        f = fnp.take(self.values, vertices, axis=0)
        df = fnp.take(self.grad, vertices, axis=0)
        out = _patch(b, f, df,
                     self._edges[s], self._directions[s])
        if not np.all(inside):
            mask = ~inside[:, None]
            out = fnp.where(mask, fnp.astype(fnp.asarray(self.fill_value), out.dtype), out)
        return fnp.reshape(out, tuple(xi.shape[:-1]) + self._shape)
