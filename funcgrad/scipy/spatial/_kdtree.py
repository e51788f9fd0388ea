"""``KDTree`` and ``cKDTree``: SciPy's tree finds the neighbours, funcgrad measures them.

Which points are neighbours is combinatorial (integers, without derivative): SciPy's
``scipy.spatial.KDTree``, built on the data's values, answers it.  The distances
``query`` and ``sparse_distance_matrix`` return are then recomputed from the data and the
query points with funcgrad's operations, so they differentiate in both (the zero
subgradient at a zero distance, as :func:`minkowski_distance`'s), SciPy's values to
rounding.  Building a tree or asking one needs the values, so not under ``vmap``/``jit``.
"""
import math
from typing import Any, Optional, Tuple

import numpy as np

from ... import numpy as fnp
from ...lax import stop_gradient
from ...numpy._convert import asarray, concrete_values
from ...typing import Array, ArrayLike
from ._functions import minkowski_distance

__all__ = ["KDTree", "cKDTree"]


def plain_values(x, what):
    """``x``'s values as a NumPy array, its derivative left aside (for the combinatorial
    part of an answer, which has none)."""
    return concrete_values(stop_gradient(asarray(x)), what,
                           "call it outside vmap/jit (the neighbours depend on the values)")


class KDTree:
    """A k-d tree of the rows of ``data`` (``(n, m)``) for nearest-neighbour queries
    (``scipy.spatial.KDTree``, with its arguments).  ``query`` returns SciPy's neighbours
    and their distances, differentiable in ``data`` and the query points;
    ``query_ball_point``, ``query_ball_tree``, ``query_pairs`` and ``count_neighbors``
    return SciPy's indices and counts; ``sparse_distance_matrix`` the distances within
    ``max_distance``, differentiable with ``output_type='dict'``.  With ``boxsize`` the
    space is a periodic box and the distances wrap around it.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.spatial import KDTree
    >>> data = np.array([[0.0, 0.0], [3.0, 4.0], [1.0, 0.0]])
    >>> d, i = KDTree(data).query(np.array([2.6, 3.7]), k=2)
    >>> d, i
    (array([0.5       , 4.03112887]), array([1, 2]))
    >>> fg.grad(lambda x: KDTree(data).query(x)[0])(np.array([2.6, 3.7]))
    array([-0.8, -0.6])
    """

    def __init__(self, data: ArrayLike, leafsize: int = 10, compact_nodes: bool = True,
                 copy_data: bool = False, balanced_tree: bool = True,
                 boxsize: Any = None) -> None:
        import scipy.spatial  # (here, so that importing funcgrad never loads SciPy)
        data = asarray(data)
        if data.ndim != 2:
            raise ValueError(f"{type(self).__name__}: data must be 2-d, (n points, m "
                             f"dimensions), got shape {tuple(data.shape)}")
        if data.dtype.kind not in "fiub":
            raise TypeError(f"{type(self).__name__}: data must be real numbers, got dtype "
                            f"{data.dtype}")
        self._data = data
        self._tree = scipy.spatial.KDTree(plain_values(data, "KDTree"), leafsize=leafsize,
                                          compact_nodes=compact_nodes, copy_data=True,
                                          balanced_tree=balanced_tree, boxsize=boxsize)
        self._leafsize = leafsize
        self._boxsize = None if boxsize is None else np.broadcast_to(
            np.asarray(boxsize, float), (self.m,))

    # (SciPy's node classes, read from SciPy when asked: importing funcgrad loads no SciPy)
    @property
    def node(self) -> Any:
        """SciPy's ``KDTree.node``, the class of the nodes of :attr:`tree`."""
        import scipy.spatial
        return scipy.spatial.KDTree.node

    @property
    def leafnode(self) -> Any:
        """SciPy's ``KDTree.leafnode``, the class of the leaves of :attr:`tree`."""
        import scipy.spatial
        return scipy.spatial.KDTree.leafnode

    @property
    def innernode(self) -> Any:
        """SciPy's ``KDTree.innernode``, the class of the inner nodes of :attr:`tree`."""
        import scipy.spatial
        return scipy.spatial.KDTree.innernode

    @property
    def data(self) -> Array:
        """The points, ``(n, m)``, as given (carrying their derivative)."""
        return self._data

    @property
    def n(self) -> int:
        """The number of points."""
        return int(self._tree.n)

    @property
    def m(self) -> int:
        """The dimension of the points."""
        return int(self._tree.m)

    @property
    def leafsize(self) -> int:
        """The number of points at which the tree stops splitting."""
        return self._leafsize

    @property
    def boxsize(self) -> Any:
        """The periodic box's size per dimension, or ``None``."""
        return self._boxsize

    @property
    def maxes(self) -> Array:
        """The greatest coordinate of the points per dimension (differentiable)."""
        return fnp.max(self._data, axis=0)

    @property
    def mins(self) -> Array:
        """The least coordinate of the points per dimension (differentiable)."""
        return fnp.min(self._data, axis=0)

    @property
    def indices(self) -> Any:
        """The points' order in the tree's leaves (SciPy's)."""
        return self._tree.indices

    @property
    def size(self) -> int:
        """The number of nodes of the tree."""
        return int(self._tree.size)

    @property
    def tree(self) -> Any:
        """The root node: SciPy's node objects, built on the points' values (integers and
        bounds, without derivative; ask ``data`` for the differentiable points)."""
        return self._tree.tree

    def _distance(self, x, y, p):
        if self.boxsize is None:
            return minkowski_distance(x, y, p)
        diff = y - x  # (the nearest periodic image: a shift by whole boxes, no derivative)
        diff = diff - self.boxsize * stop_gradient(fnp.round(diff / self.boxsize))
        return minkowski_distance(fnp.zeros_like(diff), diff, p)

    def query(self, x: ArrayLike, k: Any = 1, eps: float = 0.0, p: float = 2.0,
              distance_upper_bound: float = math.inf, workers: int = 1
              ) -> Tuple[Array, Array]:
        """``(d, i)``: the ``k`` nearest neighbours of each point of ``x`` (shape ``(...,
        m)``) and their distances, nearest first (``k`` an integer, or a list of the
        ranks wanted, 1-based); ``k=1`` drops the last axis.  Neighbours beyond
        ``distance_upper_bound`` (or missing) have index ``n`` and distance ``inf``.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import KDTree
        >>> KDTree(np.array([[0.0], [1.0], [5.0]])).query(np.array([[0.9]]), k=[2])
        (array([[0.9]]), array([[0]]))
        """
        x = asarray(x)
        if x.ndim == 0 or x.shape[-1] != self.m:
            raise ValueError(f"query: x must have {self.m} coordinates in its last axis (the "
                             f"tree's dimension), got shape {tuple(x.shape)}")
        _, index = self._tree.query(plain_values(x, "KDTree.query"), k=k, eps=eps, p=p,
                                    distance_upper_bound=distance_upper_bound,
                                    workers=workers)
        squeezed = np.ndim(index) == x.ndim - 1  # (k=1: no neighbour axis)
        grid = np.asarray(index)[..., None] if squeezed else np.asarray(index)
        found = grid < self.n
        points = fnp.take(self.data, np.where(found, grid, 0), axis=0)
        data_dtype = np.result_type(self.data.dtype, x.dtype, np.float64)
        dist = self._distance(fnp.astype(x[..., None, :], data_dtype),
                              fnp.astype(points, data_dtype), p)
        dist = fnp.where(found, dist, math.inf)
        if squeezed:  # (one point, one neighbour: scalars, as SciPy's)
            dist = dist[..., 0] if x.ndim > 1 else dist[0]
        return dist, index

    def query_ball_point(self, x: ArrayLike, r: Any, p: float = 2.0, eps: float = 0.0,
                         workers: int = 1, return_sorted: Optional[bool] = None,
                         return_length: bool = False) -> Any:
        """The indices of the points within ``r`` of each point of ``x`` (SciPy's lists, or
        counts with ``return_length``); integers, without derivative.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import KDTree
        >>> KDTree(np.array([[0.0], [1.0], [5.0]])).query_ball_point([0.2], r=1.0)
        [0, 1]
        """
        return self._tree.query_ball_point(plain_values(x, "KDTree.query_ball_point"),
                                           plain_values(r, "KDTree.query_ball_point"), p=p,
                                           eps=eps, workers=workers,
                                           return_sorted=return_sorted,
                                           return_length=return_length)

    def query_ball_tree(self, other: "KDTree", r: float, p: float = 2.0,
                        eps: float = 0.0) -> Any:
        """For each point of this tree, the indices of ``other``'s points within ``r``.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import KDTree
        >>> KDTree(np.array([[0.0], [4.0]])).query_ball_tree(KDTree(np.array([[0.5]])), 1.0)
        [[0], []]
        """
        return self._tree.query_ball_tree(other._tree, r, p=p, eps=eps)

    def query_pairs(self, r: float, p: float = 2.0, eps: float = 0.0,
                    output_type: str = "set") -> Any:
        """The pairs ``(i, j)``, ``i < j``, of points within ``r`` of each other (a set, or
        an ``(k, 2)`` array with ``output_type='ndarray'``).

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import KDTree
        >>> KDTree(np.array([[0.0], [1.0], [5.0]])).query_pairs(1.5)
        {(0, 1)}
        """
        return self._tree.query_pairs(r, p=p, eps=eps, output_type=output_type)

    def count_neighbors(self, other: "KDTree", r: Any, p: float = 2.0,
                        weights: Any = None, cumulative: bool = True) -> Any:
        """The number of pairs (one point from each tree) within ``r`` (SciPy's).

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import KDTree
        >>> int(KDTree(np.array([[0.0], [4.0]])).count_neighbors(KDTree(np.array([[0.5]])), 1.0))
        1
        """
        return self._tree.count_neighbors(other._tree, r, p=p, weights=weights,
                                          cumulative=cumulative)

    def sparse_distance_matrix(self, other: "KDTree", max_distance: float, p: float = 2.0,
                               output_type: str = "dok_matrix") -> Any:
        """The distances between this tree's points and ``other``'s that are at most
        ``max_distance``: SciPy's ``output_type`` (``'dok_matrix'``, ``'coo_matrix'``,
        ``'dict'``, ``'ndarray'``).  SciPy's sparse and record types hold plain numbers, so
        with data that carries a derivative only ``'dict'`` (``{(i, j): distance}``, each
        distance differentiable) is taken.

        >>> import numpy as np
        >>> from funcgrad.scipy.spatial import KDTree
        >>> a, b = KDTree(np.array([[0.0], [4.0]])), KDTree(np.array([[0.5], [9.0]]))
        >>> a.sparse_distance_matrix(b, 1.0, output_type="dict")
        {(0, 0): np.float64(0.5)}
        """
        pairs = self._tree.sparse_distance_matrix(other._tree, max_distance, p=p,
                                                  output_type="ndarray")
        plain = all(isinstance(t.data, np.ndarray) for t in (self, other))
        if output_type != "dict":
            if not plain:
                raise TypeError(f"sparse_distance_matrix: output_type={output_type!r} holds "
                                f"plain numbers and would drop the data's derivative; use "
                                f"output_type='dict'")
            return self._tree.sparse_distance_matrix(other._tree, max_distance, p=p,
                                                     output_type=output_type)
        i, j = pairs["i"].astype(np.intp), pairs["j"].astype(np.intp)
        dist = self._distance(fnp.astype(fnp.take(self.data, i, axis=0), np.float64),
                              fnp.astype(fnp.take(other.data, j, axis=0), np.float64), p)
        return {(int(a), int(b)): dist[k] for k, (a, b) in enumerate(zip(i, j))}


class cKDTree(KDTree):
    """``scipy.spatial.cKDTree``: :class:`KDTree` under its older name (SciPy keeps both;
    the default ``leafsize`` is 16).

    >>> import numpy as np
    >>> from funcgrad.scipy.spatial import cKDTree
    >>> cKDTree(np.array([[0.0], [1.0]])).query([0.75])
    (np.float64(0.25), np.int64(1))
    """

    def __init__(self, data: ArrayLike, leafsize: int = 16, compact_nodes: bool = True,
                 copy_data: bool = False, balanced_tree: bool = True,
                 boxsize: Any = None) -> None:
        super().__init__(data, leafsize, compact_nodes, copy_data, balanced_tree, boxsize)
