"""``ConvexHull``, ``Delaunay``, ``Voronoi`` and ``tsearch``: Qhull (through SciPy) finds
the combinatorics, funcgrad measures them.

Which points are a hull's vertices, how a set is triangulated, which simplex holds a
point: integers, without derivative, from SciPy's Qhull on the points' values.  What
follows from the points once that is fixed is recomputed with funcgrad's operations, so it
differentiates in them: a hull's ``volume``, ``area`` and facet ``equations``, a
triangulation's barycentric ``transform``, ``min_bound``/``max_bound``.  Each is SciPy's
value to rounding; the derivative is that of a fixed combinatorial structure (exact away
from the degenerate configurations where Qhull's answer changes).  ``Voronoi``'s
vertices are its Delaunay simplices' circumcenters (differentiable; a vertex several
simplices share, cospherical points, raises when differentiated); ``Delaunay``'s lifted
``equations`` are values only.  Building one needs the points'
values, so not under ``vmap``/``jit``.
"""
import math
from typing import Any, Optional

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...lax import stop_gradient
from ...typing import Array, ArrayLike
from ._kdtree import plain_values

__all__ = ["ConvexHull", "Delaunay", "Voronoi", "tsearch"]


class _Qhull:
    _kind = ""
    # (Qhull's answers, copied from SciPy's object by _build)
    simplices: Any
    neighbors: Any
    vertices: Any
    ndim: int
    npoints: int

    def __init__(self, points, incremental, qhull_options, **options):
        points = asarray(points)
        if points.ndim != 2 or points.dtype.kind not in "fiub":
            raise ValueError(f"{self._kind}: points must be a 2-d array of real numbers "
                             f"(npoints, ndim), got shape {tuple(points.shape)} and dtype "
                             f"{points.dtype}")
        if points.dtype.kind != "f":
            points = fnp.astype(points, np.float64)
        self.points, self._incremental = points, incremental
        self._options = dict(qhull_options=qhull_options, **options)
        self._build()

    def _build(self):
        import scipy.spatial  # (here, so that importing funcgrad never loads SciPy)
        self._scipy = getattr(scipy.spatial, self._kind)(
            plain_values(self.points, self._kind), **self._options)
        self.ndim, self.npoints = self._scipy.ndim, self._scipy.npoints
        for name in ("simplices", "neighbors", "coplanar", "good", "nsimplex", "vertices",
                     "furthest_site"):
            if hasattr(self._scipy, name) and not isinstance(getattr(type(self), name, None),
                                                              property):
                setattr(self, name, getattr(self._scipy, name))

    @property
    def points(self) -> Array:
        """The input points, ``(npoints, ndim)``, as given (carrying their derivative)."""
        return self._points

    @points.setter
    def points(self, value: Array) -> None:
        self._points = value

    @property
    def min_bound(self) -> Array:
        """The least coordinate of the points along each axis (differentiable)."""
        return fnp.min(self.points, axis=0)

    @property
    def max_bound(self) -> Array:
        """The greatest coordinate of the points along each axis (differentiable)."""
        return fnp.max(self.points, axis=0)

    def add_points(self, points: ArrayLike, restart: bool = False) -> None:
        """Add points (``incremental=True`` only) and rebuild on all of them.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import ConvexHull
        >>> hull = ConvexHull(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]), incremental=True)
        >>> hull.add_points(np.array([[1.0, 1.0]]))
        >>> float(hull.volume)
        1.0
        """
        if not self._incremental:
            raise RuntimeError(f"{self._kind}: incremental mode not enabled; build it with "
                               f"incremental=True to add points")
        self.points = fnp.concatenate([self.points, fnp.astype(asarray(points),
                                                               self.points.dtype)])
        self._build()

    def close(self) -> None:
        """Finish incremental processing (nothing is held open here).

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import ConvexHull
        >>> ConvexHull(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])).close()
        """

    def _refuse_traced(self, name):
        if not isinstance(self.points, np.ndarray):
            raise TypeError(f"{self._kind}{name} has no derivative in funcgrad; take it of "
                            f"fg.stop_gradient(points) if its values are what you want")

    def _values_only(self, name):
        self._refuse_traced("." + name)
        return getattr(self._scipy, name)


def facet_measure(edges):
    """The ``k``-volume of the simplices spanned by the ``k`` rows of each ``edges``
    matrix: ``sqrt(det(E E^T)) / k!``."""
    k = edges.shape[-2]
    gram = edges @ fnp.swapaxes(edges, -1, -2)
    return fnp.sqrt(fnp.linalg.det(gram)) / math.factorial(k)


class ConvexHull(_Qhull):
    """The convex hull of ``points`` (``(npoints, ndim)``), as
    ``scipy.spatial.ConvexHull``: ``vertices``, ``simplices`` (the facets' vertex indices),
    ``neighbors``, ``coplanar`` and ``good`` from Qhull; ``volume`` (the hull's, an area in
    2-d), ``area`` (its surface, a perimeter in 2-d) and ``equations`` (each facet's unit
    outward normal and offset, ``normal @ x + offset <= 0`` inside) computed from the
    points, differentiable in them.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.spatial import ConvexHull
    >>> square = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0], [1.0, 1.0]])
    >>> hull = ConvexHull(square)
    >>> sorted(hull.vertices.tolist()), float(hull.volume), float(hull.area)
    ([0, 1, 2, 3], 4.0, 8.0)
    >>> fg.grad(lambda p: ConvexHull(p).volume)(square)[2]  # moving a corner outward
    array([1., 1.])
    """
    _kind = "ConvexHull"

    def __init__(self, points: ArrayLike, incremental: bool = False,
                 qhull_options: Optional[str] = None) -> None:
        super().__init__(points, incremental, qhull_options)

    def _facets(self):
        return fnp.take(self.points, self.simplices, axis=0)  # (nfacet, ndim, ndim)

    @property
    def vertices(self) -> Any:
        """The indices of the points on the hull (Qhull's; integers, no derivative)."""
        return self._scipy.vertices

    @property
    def volume(self) -> Array:
        """The hull's volume: the simplices from an interior point to each facet."""
        corners = self._facets()
        center = fnp.mean(fnp.take(self.points, self.vertices, axis=0), axis=0)
        cones = fnp.abs(fnp.linalg.det(corners - center)) / math.factorial(self.ndim)
        return fnp.sum(cones)

    @property
    def area(self) -> Array:
        """The hull's surface: the sum of its facets' (ndim - 1)-volumes."""
        corners = self._facets()
        return fnp.sum(facet_measure(corners[:, 1:] - corners[:, :1]))

    @property
    def equations(self) -> Array:
        """``[normal, offset]`` per facet: the unit normal (outward, as Qhull's) orthogonal
        to the facet's edges, its components the signed minors of the edge matrix."""
        return facet_equations(self._facets(), self._scipy.equations)


def facet_equations(corners, oriented):
    """``[normal, offset]`` of the hyperplane through each facet's ``ndim`` corners
    (``(nfacet, ndim, ndim)``): the unit normal orthogonal to the facet's edges, its
    components the signed minors of the edge matrix, turned as Qhull's equations
    ``oriented`` are (a sign, without derivative)."""
    edges = corners[:, 1:] - corners[:, :1]  # (nfacet, ndim - 1, ndim)
    d = corners.shape[-1]
    minors = [fnp.linalg.det(fnp.concatenate([edges[:, :, :j], edges[:, :, j + 1:]],
                                             axis=2)) * (-1.0) ** j if d > 1 else
              fnp.ones(edges.shape[0]) for j in range(d)]
    normal = fnp.stack(minors, axis=1)
    normal = normal / fnp.linalg.norm(normal, axis=1, keepdims=True)
    normal = normal * np.sign(np.sum(plain_values(normal, "ConvexHull.equations")
                                     * oriented[:, :d], axis=1))[:, None]
    offset = -fnp.sum(normal * corners[:, 0], axis=1)
    return fnp.concatenate([normal, offset[:, None]], axis=1)


class Delaunay(_Qhull):
    """The Delaunay triangulation of ``points``, as ``scipy.spatial.Delaunay``:
    ``simplices``, ``neighbors``, ``convex_hull``, ``vertex_neighbor_vertices``,
    ``vertex_to_simplex``, ``coplanar`` and ``find_simplex`` from Qhull; ``transform``, the
    affine map to barycentric coordinates (``c = T^-1 (x - r)``, ``transform[s, :ndim] =
    T^-1``, ``transform[s, ndim] = r``), computed from the points and differentiable in
    them.  ``equations`` (of the lifted paraboloid) are values only.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.spatial import Delaunay
    >>> tri = Delaunay(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]))
    >>> tri.simplices.shape, tri.find_simplex(np.array([[0.1, 0.1], [3.0, 3.0]]))[1]
    ((2, 3), np.int32(-1))
    """
    _kind = "Delaunay"

    def __init__(self, points: ArrayLike, furthest_site: bool = False,
                 incremental: bool = False, qhull_options: Optional[str] = None) -> None:
        super().__init__(points, incremental, qhull_options, furthest_site=furthest_site)

    @property
    def convex_hull(self) -> Any:
        """The hull's facets as indices of points, ``(nfacet, ndim)`` (Qhull's)."""
        return self._scipy.convex_hull

    @property
    def vertex_neighbor_vertices(self) -> Any:
        """``(indptr, indices)``: the neighbours of vertex ``k`` are
        ``indices[indptr[k]:indptr[k + 1]]`` (SciPy's)."""
        return self._scipy.vertex_neighbor_vertices

    @property
    def vertex_to_simplex(self) -> Any:
        """For each point, a simplex it is a vertex of (SciPy's)."""
        return self._scipy.vertex_to_simplex

    @property
    def paraboloid_scale(self) -> float:
        """The scale of the lifted coordinate, ``scale * |x|^2 + shift`` (Qhull's)."""
        return self._scipy.paraboloid_scale

    @property
    def paraboloid_shift(self) -> float:
        """The shift of the lifted coordinate (Qhull's)."""
        return self._scipy.paraboloid_shift

    def _lifting_constants(self, name):
        # (Qhull picks the scale and shift from the points by its own rule: with traced
        # points their derivative would be missing, so they are refused)
        self._refuse_traced("." + name + " with points that carry a derivative (Qhull's "
                            "paraboloid scale depends on them)")
        return self._scipy.paraboloid_scale, self._scipy.paraboloid_shift

    def lift_points(self, x: ArrayLike) -> Array:
        """``x`` (``(..., ndim)``) lifted onto the paraboloid, ``[x, scale * |x|^2 +
        shift]`` (SciPy's); differentiable in ``x``.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import Delaunay
        >>> tri = Delaunay(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        >>> tri.lift_points(np.array([0.0, 0.0])).shape
        (3,)
        """
        scale, shift = self._lifting_constants("lift_points")
        x = asarray(x)
        if x.dtype.kind != "f":
            x = fnp.astype(x, np.float64)
        height = scale * fnp.sum(x * x, axis=-1, keepdims=True) + shift
        return fnp.concatenate([x, fnp.astype(height, x.dtype)], axis=-1)

    def plane_distance(self, xi: ArrayLike) -> Array:
        """The signed distance of the lifted ``xi`` (``(..., ndim)``) to each simplex's
        lifted hyperplane, ``(..., nsimplex)`` (SciPy's); differentiable in ``xi``.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import Delaunay
        >>> tri = Delaunay(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        >>> tri.plane_distance(np.array([0.2, 0.2])).shape
        (1,)
        """
        lifted = self.lift_points(xi)
        equations = self._scipy.equations
        return fnp.matmul(lifted, fnp.astype(fnp.asarray(equations[:, :-1].T), lifted.dtype)) \
            + fnp.astype(fnp.asarray(equations[:, -1]), lifted.dtype)

    @property
    def transform(self) -> Array:
        """``(nsimplex, ndim + 1, ndim)``: each simplex's ``T^-1`` and its last vertex
        ``r``, where ``T``'s columns are the other vertices minus ``r``."""
        corners = fnp.take(self.points, self.simplices, axis=0)  # (nsimplex, ndim + 1, ndim)
        last = corners[:, -1]
        t = fnp.swapaxes(corners[:, :-1] - last[:, None], 1, 2)
        return fnp.concatenate([fnp.linalg.inv(t), last[:, None]], axis=1)

    @property
    def equations(self) -> Any:
        """The lifted hyperplanes (Qhull's values; no derivative)."""
        return self._values_only("equations")

    def find_simplex(self, xi: ArrayLike, bruteforce: bool = False,
                     tol: Optional[float] = None) -> Any:
        """The index of the simplex holding each point of ``xi`` (-1 outside), SciPy's.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import Delaunay
        >>> tri = Delaunay(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]))
        >>> tri.find_simplex(np.array([0.2, 0.2]))
        array(0, dtype=int32)
        """
        return self._scipy.find_simplex(plain_values(xi, "Delaunay.find_simplex"),
                                        bruteforce=bruteforce, tol=tol)


def tsearch(tri: Delaunay, xi: ArrayLike) -> Any:
    """The simplex of ``tri`` holding each point of ``xi``, -1 outside: its
    ``find_simplex`` (``scipy.spatial.tsearch``).

    >>> import numpy as np
    >>> from funcgrad.scipy.spatial import Delaunay, tsearch
    >>> tsearch(Delaunay(np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])), np.array([[2.0, 2.0]]))
    array([-1], dtype=int32)
    """
    return tri.find_simplex(xi)


class Voronoi(_Qhull):
    """The Voronoi diagram of ``points`` (``scipy.spatial.Voronoi``): ``ridge_points``,
    ``ridge_vertices``, ``ridge_dict``, ``regions``, ``point_region`` from Qhull (SciPy's),
    and ``vertices``, SciPy's values, differentiable in the points: each vertex is the
    circumcenter of the Delaunay simplex it belongs to (of the furthest-site
    triangulation with ``furthest_site``).  A vertex shared by several simplices (points
    on one circle: a grid) has no derivative, and says so when one is asked of it.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.spatial import Voronoi
    >>> vor = Voronoi(np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0], [2.0, 2.0], [1.0, 1.0]]))
    >>> len(vor.regions), vor.ridge_points.shape
    (6, (8, 2))
    >>> p = np.array([[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]])
    >>> fg.grad(lambda q: Voronoi(q).vertices[0, 0])(p)[1]  # the circumcenter (1, 1)'s x
    array([ 0.5, -0.5])
    """
    _kind = "Voronoi"

    def __init__(self, points: ArrayLike, furthest_site: bool = False,
                 incremental: bool = False, qhull_options: Optional[str] = None) -> None:
        self._furthest = furthest_site
        super().__init__(points, incremental, qhull_options, furthest_site=furthest_site)

    def _build(self):
        super()._build()
        for name in ("ridge_points", "ridge_vertices", "regions", "point_region"):
            setattr(self, name, getattr(self._scipy, name))
        self._owners = None

    @property
    def ridge_dict(self) -> Any:
        """``{(i, j): ridge vertices}`` for each ridge between the points ``i`` and ``j``
        (SciPy's)."""
        return self._scipy.ridge_dict

    @property
    def vertices(self) -> Any:
        """The Voronoi vertices, ``(nvertices, ndim)``: SciPy's values for plain points;
        for points carrying a derivative, each the circumcenter of its Delaunay simplex."""
        if isinstance(self.points, np.ndarray):
            return self._scipy.vertices
        simplices, shared = self._simplex_of_each_vertex()
        if shared:
            raise ValueError(f"Voronoi.vertices: {shared} vertices are circumcenters of "
                             f"several Delaunay simplices (cospherical points, such as a "
                             f"grid's), where a vertex has no derivative in the points; "
                             f"perturb the points or pass fg.stop_gradient(points)")
        corners = fnp.take(self.points, simplices, axis=0)  # (nvertex, ndim + 1, ndim)
        edges = corners[:, 1:] - corners[:, :1]
        rhs = 0.5 * fnp.sum(edges * edges, axis=-1)
        # (c - p0) . (p_i - p0) = |p_i - p0|^2 / 2 for each other corner p_i; the values
        # are Qhull's own, the derivative the circumcenter's
        centers = corners[:, 0] + fnp.linalg.solve(edges, rhs[..., None])[..., 0]
        return centers - stop_gradient(centers) + self._scipy.vertices

    def _simplex_of_each_vertex(self):
        """Each vertex's Delaunay simplex (matched by circumcenter, on the values) and how
        many vertices several simplices share."""
        if self._owners is None:
            import scipy.spatial
            tri = scipy.spatial.Delaunay(plain_values(self.points, "Voronoi"),
                                        furthest_site=self._furthest)
            corners = tri.points[tri.simplices]
            edges = corners[:, 1:] - corners[:, :1]
            with np.errstate(all="ignore"):
                centers = corners[:, 0] + np.linalg.solve(
                    edges, 0.5 * np.sum(edges * edges, axis=-1)[..., None])[..., 0]
            tol = 1e-9 * max(float(np.ptp(tri.points)), 1.0)
            gap, owners = scipy.spatial.cKDTree(centers).query(
                self._scipy.vertices, k=min(2, len(centers)))
            gap, owners = gap.reshape(len(owners), -1), owners.reshape(len(owners), -1)
            if np.any(gap[:, 0] > tol):
                raise ValueError("Voronoi.vertices: a vertex of Qhull's is no simplex's "
                                 "circumcenter here; pass fg.stop_gradient(points) for its "
                                 "values")
            shared = int(np.sum(gap[:, -1] <= tol)) if gap.shape[1] > 1 else 0
            self._owners = (tri.simplices[owners[:, 0]], shared)
        return self._owners
