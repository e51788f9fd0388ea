"""``HalfspaceIntersection`` and ``SphericalVoronoi`` (Qhull's combinatorics through
SciPy, measured by funcgrad: differentiable in the inputs), the 2-d plotting helpers,
``QhullError`` and ``Rectangle`` (SciPy's).

A halfspace intersection's vertex is where ``ndim`` of the bounding hyperplanes meet
(which ones: SciPy's dual facets), so it is the solution of their ``ndim`` equations: it
differentiates in the halfspaces, and not in the interior point (which only locates the
dual).  A spherical Voronoi vertex is the outward unit normal of a facet of the points'
convex hull, scaled by the radius and moved to the center (SciPy's construction); region
areas are sums of spherical triangles' solid angles (3-d) or arcs (2-d).
"""
import math
from typing import Any, Optional

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete
from ...typing import Array, ArrayLike
from ._kdtree import plain_values
from ._qhull import ConvexHull, facet_equations, facet_measure

__all__ = ["HalfspaceIntersection", "SphericalVoronoi", "convex_hull_plot_2d",
           "delaunay_plot_2d", "voronoi_plot_2d"]


def _float(x):
    x = asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind != "f" else x


class HalfspaceIntersection:
    """The intersection of halfspaces ``A x + b <= 0`` (rows ``[A, b]`` of
    ``halfspaces``) around ``interior_point``, as ``scipy.spatial.HalfspaceIntersection``:
    ``intersections`` (the vertices, differentiable in the halfspaces), ``dual_facets``,
    ``dual_vertices`` (Qhull's), ``dual_points``, ``dual_equations``, ``dual_volume``,
    ``dual_area`` (differentiable).

    >>> import numpy as np, funcgrad as fg
    >>> hs = np.array([[-1.0, 0.0, 0.0], [0.0, -1.0, 0.0], [1.0, 1.0, -2.0]])  # a triangle
    >>> hi = HalfspaceIntersection(hs, np.array([0.5, 0.5]))
    >>> np.round(hi.intersections, 12) + 0.0
    array([[0., 2.],
           [0., 0.],
           [2., 0.]])
    >>> fg.grad(lambda h: HalfspaceIntersection(h, np.array([0.5, 0.5])).intersections[2, 0])(
    ...     hs)[2]  # x = -b / a along the x axis
    array([-2.,  0., -1.])
    """

    def __init__(self, halfspaces: ArrayLike, interior_point: ArrayLike,
                 incremental: bool = False, qhull_options: Optional[str] = None) -> None:
        self.halfspaces = _float(halfspaces)
        self.interior_point = _float(interior_point)
        if self.halfspaces.ndim != 2 or self.halfspaces.shape[1] < 2:
            raise ValueError(f"HalfspaceIntersection: halfspaces must be a 2-d array "
                             f"(nineq, ndim + 1), got shape {tuple(self.halfspaces.shape)}")
        self._incremental, self._qhull_options = incremental, qhull_options
        self._build()

    def _build(self):
        import scipy.spatial  # (here, so that importing funcgrad never loads SciPy)
        self._scipy = scipy.spatial.HalfspaceIntersection(
            plain_values(self.halfspaces, "HalfspaceIntersection"),
            plain_values(self.interior_point, "HalfspaceIntersection"),
            qhull_options=self._qhull_options)
        self.ndim, self.nineq = self._scipy.ndim, self._scipy.nineq
        self.dual_facets = self._scipy.dual_facets
        lengths = {len(f) for f in self.dual_facets}
        # (a facet of more than ndim halfspaces, a degenerate vertex, is measured through
        # its first ndim; they meet at that vertex too)
        self._facets = np.array([f[:self.ndim] for f in self.dual_facets], dtype=np.intp) \
            if min(lengths) >= self.ndim else None

    @property
    def halfspaces(self) -> Array:
        """The halfspaces ``[A, b]`` (``A x + b <= 0``), as given (carrying their
        derivative)."""
        return self._halfspaces

    @halfspaces.setter
    def halfspaces(self, value: Array) -> None:
        self._halfspaces = value

    @property
    def dual_vertices(self) -> Any:
        """The indices of the halfspaces whose dual points are vertices of the dual hull
        (Qhull's; integers)."""
        return self._scipy.dual_vertices

    def add_halfspaces(self, halfspaces: ArrayLike, restart: bool = False) -> None:
        """Add halfspaces (``incremental=True`` only) and rebuild on all of them.

        >>> import numpy as np
        >>> hi = HalfspaceIntersection(np.array([[-1.0, 0, 0], [0, -1.0, 0], [1.0, 1, -2]]),
        ...                            np.array([0.2, 0.2]), incremental=True)
        >>> hi.add_halfspaces(np.array([[1.0, 0.0, -1.0]]))
        >>> len(hi.intersections)
        4
        """
        if not self._incremental:
            raise RuntimeError("HalfspaceIntersection: incremental mode not enabled; build "
                               "it with incremental=True to add halfspaces")
        self.halfspaces = fnp.concatenate([self.halfspaces, _float(halfspaces)])
        self._build()

    def close(self) -> None:
        """Finish incremental processing (nothing is held open here).

        >>> import numpy as np
        >>> HalfspaceIntersection(np.array([[-1.0, 0, 0], [0, -1.0, 0], [1.0, 1, -2]]),
        ...                       np.array([0.2, 0.2])).close()
        """

    def _corners(self, what):
        if self._facets is None:
            raise ValueError(f"HalfspaceIntersection.{what}: a dual facet has fewer than "
                             f"ndim halfspaces (a degenerate input)")
        return self._facets

    @property
    def intersections(self) -> Array:
        """The vertices: each solves the ``ndim`` equations ``A x + b = 0`` of its dual
        facet's halfspaces."""
        facets = self._corners("intersections")
        a = fnp.take(self.halfspaces[:, :-1], facets, axis=0)  # (nvertex, ndim, ndim)
        b = fnp.take(self.halfspaces[:, -1], facets, axis=0)
        return fnp.linalg.solve(a, -b[..., None])[..., 0]

    @property
    def dual_points(self) -> Array:
        """Each halfspace's normal divided by its distance term at the interior point:
        ``A_i / -(b_i + A_i . interior_point)``."""
        a, b = self.halfspaces[:, :-1], self.halfspaces[:, -1]
        return a / -(b + fnp.sum(a * self.interior_point, axis=1))[:, None]

    @property
    def dual_equations(self) -> Array:
        """``[normal, offset]`` of each facet of the dual points' hull (Qhull's
        orientation)."""
        corners = fnp.take(self.dual_points, self._corners("dual_equations"), axis=0)
        return facet_equations(corners, self._scipy.dual_equations)

    @property
    def dual_volume(self) -> Array:
        """The volume of the dual points' hull."""
        corners = fnp.take(self.dual_points, self._corners("dual_volume"), axis=0)
        center = fnp.mean(fnp.take(self.dual_points, self.dual_vertices, axis=0), axis=0)
        return fnp.sum(fnp.abs(fnp.linalg.det(corners - center))) / math.factorial(self.ndim)

    @property
    def dual_area(self) -> Array:
        """The surface of the dual points' hull."""
        corners = fnp.take(self.dual_points, self._corners("dual_area"), axis=0)
        return fnp.sum(facet_measure(corners[:, 1:] - corners[:, :1]))

    @property
    def min_bound(self) -> Array:
        """The least coordinate of the dual points along each axis."""
        return fnp.min(self.dual_points, axis=0)

    @property
    def max_bound(self) -> Array:
        """The greatest coordinate of the dual points along each axis."""
        return fnp.max(self.dual_points, axis=0)


def _solid_angles(r):
    """The solid angles of spherical triangles with unit corner vectors ``r``
    (``(n, 3, 3)``): ``|2 atan2(det r, 1 + r0.r1 + r1.r2 + r2.r0)|``."""
    dots = (fnp.sum(r[:, 0] * r[:, 1], axis=1) + fnp.sum(r[:, 1] * r[:, 2], axis=1)
            + fnp.sum(r[:, 2] * r[:, 0], axis=1))
    return fnp.abs(2.0 * fnp.arctan2(fnp.linalg.det(r), 1.0 + dots))


class SphericalVoronoi:
    """The Voronoi diagram of ``points`` on a sphere (``radius``, ``center``), as
    ``scipy.spatial.SphericalVoronoi``: ``vertices`` (differentiable in the points, the
    radius and the center), ``regions`` (SciPy's), ``sort_vertices_of_regions()``,
    ``calculate_areas()`` (differentiable).

    >>> import numpy as np
    >>> octahedron = np.vstack([np.eye(3), -np.eye(3)])
    >>> sv = SphericalVoronoi(octahedron)
    >>> np.round(np.sort(np.abs(sv.vertices), axis=0)[0] * np.sqrt(3), 12)
    array([1., 1., 1.])
    >>> np.round(sv.calculate_areas() / np.pi, 12)  # each a sixth of 4 pi
    array([0.66666667, 0.66666667, 0.66666667, 0.66666667, 0.66666667,
           0.66666667])
    """

    def __init__(self, points: ArrayLike, radius: Any = 1, center: Optional[ArrayLike] = None,
                 threshold: float = 1e-06) -> None:
        import scipy.spatial  # (here, so that importing funcgrad never loads SciPy)
        if radius is None:
            raise ValueError("`radius` is `None`. Please provide a floating point number "
                             "(i.e. `radius=1`).")
        self.points = _float(points)
        self._dim = self.points.shape[1]
        self.radius = radius if not is_concrete(radius) else float(
            np.asarray(concrete_values(radius, "SphericalVoronoi", "")))
        self.center = np.zeros(self._dim) if center is None else _float(center)
        # (SciPy's checks, on the values)
        scipy.spatial.SphericalVoronoi(
            plain_values(self.points, "SphericalVoronoi"),
            float(plain_values(asarray(radius), "SphericalVoronoi")),
            None if center is None else plain_values(self.center, "SphericalVoronoi"),
            threshold)
        hull = ConvexHull(self.points)
        self._simplices = hull.simplices
        self.vertices = self.radius * hull.equations[:, :-1] + self.center
        simplex = np.repeat(np.arange(len(self._simplices)), self._dim)
        point = self._simplices.ravel()
        order = np.argsort(point, kind="mergesort")
        groups = simplex[order].astype(np.intp)
        bounds = np.cumsum(np.bincount(point + 1))
        self.regions = [list(groups[bounds[i]:bounds[i + 1]]) for i in range(len(bounds) - 1)]

    def sort_vertices_of_regions(self) -> None:
        """Order each region's vertices counterclockwise (3-d only), SciPy's.

        >>> import numpy as np
        >>> sv = SphericalVoronoi(np.vstack([np.eye(3), -np.eye(3)]))
        >>> sv.sort_vertices_of_regions()
        >>> len(sv.regions[0])
        4
        """
        if self._dim != 3:
            raise TypeError("Only supported for three-dimensional point sets")
        from scipy.spatial import _voronoi
        _voronoi.sort_vertices_of_regions(self._simplices, self.regions)

    def calculate_areas(self) -> Array:
        """The area of each region (its arc length on a circle in 2-d), differentiable."""
        if self._dim == 2:
            arcs = fnp.take(self.points, self._simplices, axis=0) - self.center
            d = fnp.sum((arcs[:, 1] - arcs[:, 0]) ** 2, axis=1)
            theta = fnp.arccos(1.0 - d / (2.0 * self.radius ** 2))
            outside = plain_values(fnp.sum(arcs[:, 0] * (self.vertices - self.center), axis=1),
                                   "SphericalVoronoi.calculate_areas") < 0
            return fnp.where(outside, 2.0 * math.pi * self.radius - self.radius * theta,
                             self.radius * theta)
        if self._dim != 3:
            raise TypeError("Only supported for 2D and 3D point sets")
        self.sort_vertices_of_regions()
        sizes = [len(region) for region in self.regions]
        owner = np.repeat(np.arange(len(sizes)), sizes)
        first = np.array([r for region in self.regions for r in region], dtype=np.intp)
        second = np.concatenate([np.roll(np.array(region, dtype=np.intp), 1)
                                 for region in self.regions])
        p = (self.points - self.center) / self.radius
        v = (self.vertices - self.center) / self.radius
        triangles = fnp.stack([fnp.take(p, owner, axis=0), fnp.take(v, first, axis=0),
                               fnp.take(v, second, axis=0)], axis=1)
        # (each region's sum: differences of the running sum at the regions' ends, SciPy's)
        total = fnp.cumsum(_solid_angles(triangles))[np.cumsum(sizes) - 1]
        return fnp.concatenate([total[:1], total[1:] - total[:-1]]) * self.radius ** 2


def _plot(name, diagram, ax):
    import scipy.spatial
    return getattr(scipy.spatial, name)(getattr(diagram, "_scipy", diagram), ax=ax)


def convex_hull_plot_2d(hull: Any, ax: Any = None) -> Any:
    """Plot a 2-d :class:`ConvexHull` with matplotlib (SciPy's drawing of its values).

    >>> import numpy as np, matplotlib
    >>> matplotlib.use("Agg")
    >>> from funcgrad.scipy.spatial import ConvexHull
    >>> fig = convex_hull_plot_2d(ConvexHull(np.array([[0.0, 0], [1, 0], [0, 1]])))
    """
    return _plot("convex_hull_plot_2d", hull, ax)


def delaunay_plot_2d(tri: Any, ax: Any = None) -> Any:
    """Plot a 2-d :class:`Delaunay` triangulation with matplotlib (SciPy's drawing).

    >>> import numpy as np, matplotlib
    >>> matplotlib.use("Agg")
    >>> from funcgrad.scipy.spatial import Delaunay
    >>> fig = delaunay_plot_2d(Delaunay(np.array([[0.0, 0], [1, 0], [0, 1], [1, 1]])))
    """
    return _plot("delaunay_plot_2d", tri, ax)


def voronoi_plot_2d(vor: Any, ax: Any = None, **kw: Any) -> Any:
    """Plot a 2-d :class:`Voronoi` diagram with matplotlib (SciPy's drawing; its keyword
    arguments: ``show_points``, ``show_vertices``, ``line_colors``...).

    >>> import numpy as np, matplotlib
    >>> matplotlib.use("Agg")
    >>> from funcgrad.scipy.spatial import Voronoi
    >>> fig = voronoi_plot_2d(Voronoi(np.array([[0.0, 0], [2, 0], [0, 2], [2, 2], [1, 1]])))
    """
    import scipy.spatial
    return scipy.spatial.voronoi_plot_2d(getattr(vor, "_scipy", vor), ax=ax, **kw)
