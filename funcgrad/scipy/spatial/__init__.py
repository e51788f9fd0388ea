"""``funcgrad.scipy.spatial``: ``distance`` (``pdist``, ``cdist``, ``squareform`` and the
metrics), ``transform``'s ``Rotation`` and ``Slerp`` (as ``jax.scipy.spatial``), and
``distance_matrix``, ``minkowski_distance``, ``minkowski_distance_p``, ``procrustes`` and
``geometric_slerp``, differentiable; ``KDTree``/``cKDTree`` (SciPy's neighbours, their
distances differentiable, :mod:`._kdtree`), ``ConvexHull``, ``Delaunay``, ``Voronoi`` and
``tsearch`` (Qhull's combinatorics; volumes, areas, facet equations and barycentric
transforms differentiable, :mod:`._qhull`), ``HalfspaceIntersection`` and
``SphericalVoronoi`` (vertices and areas differentiable, :mod:`._qhull_more`), SciPy's
2-d plots, ``QhullError`` and ``Rectangle``.

>>> import numpy as np, funcgrad.scipy.spatial as fsp
>>> float(fsp.transform.Rotation.from_rotvec(np.array([0.0, 0.3, 0.4])).magnitude())
0.5
>>> fsp.distance.cdist(np.zeros((1, 2)), np.array([[3.0, 4.0]]))
array([[5.]])
"""
from typing import Any

from . import distance, transform  # noqa: F401
from ._functions import (distance_matrix, geometric_slerp, minkowski_distance,
                         minkowski_distance_p, procrustes)

__all__ = ["distance", "transform", "distance_matrix", "minkowski_distance",
           "minkowski_distance_p", "procrustes", "geometric_slerp"]

from ._kdtree import KDTree, cKDTree  # noqa: E402

__all__ += ["KDTree", "cKDTree"]

from ._qhull import ConvexHull, Delaunay, Voronoi, tsearch  # noqa: E402

__all__ += ["ConvexHull", "Delaunay", "Voronoi", "tsearch"]

from ._qhull_more import (HalfspaceIntersection, SphericalVoronoi,  # noqa: E402
                          convex_hull_plot_2d, delaunay_plot_2d, voronoi_plot_2d)


def __getattr__(name: str) -> Any:
    # SciPy's own classes, as SciPy's: Qhull's error and the KD-tree's box
    if name in ("QhullError", "Rectangle"):
        import scipy.spatial
        return getattr(scipy.spatial, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ += ["HalfspaceIntersection", "SphericalVoronoi", "convex_hull_plot_2d",
            "delaunay_plot_2d", "voronoi_plot_2d", "QhullError", "Rectangle"]
