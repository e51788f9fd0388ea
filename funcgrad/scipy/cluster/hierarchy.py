"""``funcgrad.scipy.cluster.hierarchy``: SciPy's hierarchical clustering, with the merge
heights differentiable in the data.

SciPy's ``linkage`` decides the merge order on the values; funcgrad replays those merges
with the traced distances (each method's Lance-Williams update), so the heights ``Z[:, 2]``
-- and the cophenetic distances, inconsistency statistics and subtree maxima computed
from them -- differentiate with respect to the observations or the condensed distances
wherever the order does not change.  What is combinatorial (flat clusters, leaf orders,
trees, validity checks, dendrograms) is SciPy's own, computed on the values.  These run
outside ``jit`` and ``vmap`` (the order depends on the values).

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.scipy.cluster import hierarchy
>>> x = np.array([[0.0], [1.0], [3.0]])
>>> hierarchy.linkage(x, "single")
array([[0., 1., 1., 2.],
       [2., 3., 2., 3.]])
>>> fg.grad(lambda x: hierarchy.linkage(x, "single")[:, 2].sum())(x)
array([[-1.],
       [ 0.],
       [ 1.]])
"""
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...core import Tracer, is_special
from ...numpy._convert import asarray, concrete_values
from ...typing import Array, ArrayLike
from ._linkage import descendant_links, pair_links, replay_heights, with_heights

__all__ = ["linkage", "single", "complete", "average", "weighted", "centroid", "median",
           "ward", "cophenet", "inconsistent", "maxdists", "maxinconsts", "maxRstat",
           "optimal_leaf_ordering", "from_mlab_linkage", "to_mlab_linkage"]
_SCIPY_NAMES = ("fcluster", "fclusterdata", "leaders", "leaves_list", "to_tree", "cut_tree",
                "is_valid_linkage", "is_valid_im", "num_obs_linkage", "correspond",
                "is_monotonic", "is_isomorphic", "dendrogram", "set_link_color_palette",
                "ClusterNode", "ClusterWarning", "DisjointSet")
__all__ += list(_SCIPY_NAMES)  # (SciPy's, on concrete linkages: __getattr__ wraps them)


def _scipy():
    import scipy.cluster.hierarchy as h
    return h


def _traced(x):
    return isinstance(x, Tracer) or is_special(x)


def _values(name, x):
    return concrete_values(x, f"{name}'s input", f"call {name} outside jit and vmap (the "
                           f"clustering depends on the values)")


def __getattr__(name: str) -> Any:
    # SciPy's functions of a linkage's structure, called with concrete arrays (a traced
    # linkage's values), and its classes
    if name not in _SCIPY_NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    target = getattr(_scipy(), name)
    if isinstance(target, type) or name == "set_link_color_palette":
        return target

    def call(*args, **kwargs):
        args = [_values(name, a) if _traced(a) else a for a in args]
        kwargs = {k: _values(name, v) if _traced(v) else v for k, v in kwargs.items()}
        return target(*args, **kwargs)
    call.__name__ = name
    call.__doc__ = (f"SciPy's ``scipy.cluster.hierarchy.{name}``, on the values of traced "
                    f"arguments (its result does not depend on them smoothly).")
    return call


def _distances(name, y, metric):
    """The condensed distances of ``y`` (condensed already, or observations ``(n, d)``)
    and their values."""
    y = asarray(y)
    if y.dtype.kind not in "fc":
        y = fnp.astype(y, np.float64)
    if y.ndim == 2:
        from ..spatial.distance import pdist
        y = pdist(y, metric)
    elif y.ndim != 1:
        raise ValueError(f"{name}: y must be 1-d (condensed distances) or 2-d "
                         f"(observations); got {y.ndim}-d")
    return y, np.asarray(_values(name, y), dtype=np.float64)


def linkage(y: ArrayLike, method: str = "single", metric: str = "euclidean",
            optimal_ordering: bool = False) -> Array:
    """Hierarchical (agglomerative) clustering (``scipy.cluster.hierarchy.linkage``):
    ``Z`` ``(n - 1, 4)`` as SciPy's, its heights differentiable in ``y`` (condensed
    distances, or observations whose ``metric`` distances are taken).

    >>> import numpy as np
    >>> linkage(np.array([1.0, 4.0, 2.0]), "complete")   # condensed: d01, d02, d12
    array([[0., 1., 1., 2.],
           [2., 3., 4., 3.]])
    """
    if method not in ("single", "complete", "average", "weighted", "centroid", "median",
                      "ward"):
        raise ValueError(f"linkage: invalid method {method!r}")
    obs = asarray(y)
    traced = _traced(obs)
    if method in ("centroid", "median", "ward") and obs.ndim == 2 and metric != "euclidean":
        raise ValueError(f"linkage: method {method!r} requires the distance metric to be "
                         f"Euclidean")
    condensed, values = _distances("linkage", obs, metric)
    links = _scipy().linkage(values, method=method, optimal_ordering=optimal_ordering)
    if not traced:
        return links
    from ..spatial.distance import squareform
    return with_heights(links, replay_heights(squareform(condensed), links, method))


def _method(name):
    def shortcut(y: ArrayLike) -> Array:
        return linkage(y, method=name)
    shortcut.__name__ = name
    shortcut.__doc__ = (f"``linkage(y, method={name!r})`` (``scipy.cluster.hierarchy."
                        f"{name}``): differentiable heights.\n\n"
                        f"    >>> import numpy as np\n"
                        f"    >>> {name}(np.array([1.0, 4.0, 2.0])).shape\n"
                        f"    (2, 4)\n")
    return shortcut


single, complete, average = _method("single"), _method("complete"), _method("average")
weighted, centroid, median = _method("weighted"), _method("centroid"), _method("median")
ward = _method("ward")


def _links(name, Z):  # noqa: N803 (SciPy's names)
    z = asarray(Z)
    values = np.asarray(_values(name, z), dtype=np.float64)
    if values.ndim != 2 or values.shape[1] != 4:
        raise ValueError(f"{name}: Z must be a linkage matrix, (n - 1, 4); got shape "
                         f"{values.shape}")
    return z, values


def cophenet(Z: ArrayLike, Y: Any = None) -> Any:  # noqa: N803
    """The cophenetic distances (the height of the link first joining each pair,
    condensed) of ``Z`` (``scipy.cluster.hierarchy.cophenet``); with ``Y``, also
    the cophenetic correlation coefficient ``(c, d)``.  Differentiable in the heights
    and in ``Y``.

    >>> import numpy as np
    >>> cophenet(np.array([[0.0, 1.0, 1.0, 2.0], [2.0, 3.0, 4.0, 3.0]]))
    array([1., 4., 4.])
    """
    z, links = _links("cophenet", Z)
    d = fnp.take(z[:, 2], pair_links(links))
    if Y is None:
        return d
    y = asarray(Y)
    y = y - fnp.mean(y)
    c = d - fnp.mean(d)
    return fnp.sum(c * y) / fnp.sqrt(fnp.sum(c * c) * fnp.sum(y * y)), d


def inconsistent(Z: ArrayLike, d: int = 2) -> Array:  # noqa: N803
    """The inconsistency statistics of each link (``scipy.cluster.hierarchy.inconsistent``):
    over the link and the links up to ``d`` levels below it, the heights' mean,
    standard deviation (``ddof=1``; 0 for one link), count and the link's
    ``(height - mean) / std`` (0 where std is 0); differentiable in the heights.

    >>> import numpy as np
    >>> inconsistent(np.array([[0.0, 1.0, 1.0, 2.0], [2.0, 3.0, 4.0, 3.0]]))
    array([[1.        , 0.        , 1.        , 0.        ],
           [2.5       , 2.12132034, 2.        , 0.70710678]])
    """
    z, links = _links("inconsistent", Z)
    mask = descendant_links(links, d)
    count = mask.sum(axis=1).astype(np.float64)
    heights = z[:, 2]
    mean = fnp.sum(fnp.where(mask, heights[None, :], 0.0), axis=1) / count
    dev = fnp.where(mask, heights[None, :] - mean[:, None], 0.0)
    several = count > 1
    var = fnp.sum(dev * dev, axis=1) / np.where(several, count - 1, 1.0)
    positive = np.asarray(_values("inconsistent", var)) > 0
    std = fnp.where(positive, fnp.sqrt(fnp.where(positive, var, 1.0)), 0.0)
    coefficient = fnp.where(positive, (heights - mean) / fnp.where(positive, std, 1.0), 0.0)
    return fnp.stack([mean, std, count, coefficient], axis=1)


def _subtree_max(links, column):
    mask = descendant_links(links)
    return fnp.max(fnp.where(mask, column[None, :], -np.inf), axis=1)


def maxdists(Z: ArrayLike) -> Array:  # noqa: N803
    """The largest height in each link's subtree (``scipy.cluster.hierarchy.maxdists``),
    differentiable in the heights.

    >>> import numpy as np
    >>> maxdists(np.array([[0.0, 1.0, 3.0, 2.0], [2.0, 3.0, 2.0, 3.0]]))
    array([3., 3.])
    """
    z, links = _links("maxdists", Z)
    return _subtree_max(links, z[:, 2])


def maxRstat(Z: ArrayLike, R: ArrayLike, i: int) -> Array:  # noqa: N802,N803
    """The largest ``R[:, i]`` in each link's subtree (``scipy.cluster.hierarchy.maxRstat``),
    differentiable in ``R``.

    >>> import numpy as np
    >>> z = np.array([[0.0, 1.0, 1.0, 2.0], [2.0, 3.0, 4.0, 3.0]])
    >>> maxRstat(z, inconsistent(z), 0)
    array([1. , 2.5])
    """
    z, links = _links("maxRstat", Z)
    if i not in (0, 1, 2, 3):
        raise ValueError(f"maxRstat: i must be 0, 1, 2 or 3 (a column of R); got {i}")
    return _subtree_max(links, asarray(R)[:, i])


def maxinconsts(Z: ArrayLike, R: ArrayLike) -> Array:  # noqa: N803
    """The largest inconsistency coefficient in each link's subtree
    (``scipy.cluster.hierarchy.maxinconsts``), differentiable in ``R``.

    >>> import numpy as np
    >>> z = np.array([[0.0, 1.0, 1.0, 2.0], [2.0, 3.0, 4.0, 3.0]])
    >>> maxinconsts(z, inconsistent(z))
    array([0.        , 0.70710678])
    """
    z, links = _links("maxinconsts", Z)
    return _subtree_max(links, asarray(R)[:, 3])


def optimal_leaf_ordering(Z: ArrayLike, y: ArrayLike, metric: str = "euclidean") -> Array:  # noqa: N803
    """``Z`` with its children swapped for the optimal leaf order
    (``scipy.cluster.hierarchy.optimal_leaf_ordering``); the heights are ``Z``'s own
    (and keep their derivatives).

    >>> import numpy as np
    >>> z = np.array([[0.0, 1.0, 1.0, 2.0], [2.0, 3.0, 4.0, 3.0]])
    >>> optimal_leaf_ordering(z, np.array([1.0, 4.0, 2.0]))
    array([[1., 0., 1., 2.],
           [2., 3., 4., 3.]])
    """
    z, links = _links("optimal_leaf_ordering", Z)
    _, values = _distances("optimal_leaf_ordering", y, metric)
    ordered = _scipy().optimal_leaf_ordering(links, values)
    return ordered if not _traced(z) else with_heights(ordered, z[:, 2])


def from_mlab_linkage(Z: ArrayLike) -> Array:  # noqa: N803
    """A MATLAB linkage (1-based ids, no counts) as SciPy's
    (``scipy.cluster.hierarchy.from_mlab_linkage``), its heights kept traced.

    >>> import numpy as np
    >>> from_mlab_linkage(np.array([[1.0, 2.0, 1.0], [3.0, 4.0, 4.0]]))
    array([[0., 1., 1., 2.],
           [2., 3., 4., 3.]])
    """
    z = asarray(Z)
    out = _scipy().from_mlab_linkage(np.asarray(_values("from_mlab_linkage", z), np.float64))
    return out if not _traced(z) else with_heights(out, z[:, 2])


def to_mlab_linkage(Z: ArrayLike) -> Array:  # noqa: N803
    """SciPy's linkage as MATLAB's (1-based ids, no counts)
    (``scipy.cluster.hierarchy.to_mlab_linkage``), its heights kept traced.

    >>> import numpy as np
    >>> to_mlab_linkage(np.array([[0.0, 1.0, 1.0, 2.0], [2.0, 3.0, 4.0, 3.0]]))
    array([[1., 2., 1.],
           [3., 4., 4.]])
    """
    z, links = _links("to_mlab_linkage", Z)
    out = _scipy().to_mlab_linkage(links)
    if not _traced(z):
        return out
    return fnp.stack([out[:, 0], out[:, 1], z[:, 2]], axis=1)
