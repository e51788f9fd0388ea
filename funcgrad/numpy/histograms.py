"""Multi-dimensional histograms: histogramdd and histogram2d, built as
:func:`funcgrad.numpy.histogram` is: the counts are step functions of the data (no
derivative), the edges derived from the data range are differentiable in it, weights
and ``density=True`` carry their derivatives.
"""
from typing import Any
import numpy as _np

from ._convert import asarray, operand
from .constructors import astype
from .indexing import where
from .manipulation import atleast_2d, concatenate, reshape, stack, transpose
from .reductions import sum
from .statistics import _weak, histogram_bin_edges
from .ufuncs import divide, greater, greater_equal, less, less_equal, logical_and, multiply, subtract
from ..typing import Array, ArrayLike

__all__ = ["histogramdd", "histogram2d"]


def _sample(sample):
    """NumPy's reading: an (N, D) array, or a sequence of D 1-d arrays (its columns)."""
    if isinstance(sample, (list, tuple)):
        return transpose(atleast_2d(stack([asarray(s) for s in sample])))
    s = asarray(sample)
    return s if s.ndim == 2 else transpose(atleast_2d(s))


def _edges(column, bins, rng, i):
    if _np.ndim(bins) == 0:
        if int(bins) != bins or bins < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        edges = histogram_bin_edges(column, int(bins), rng)
        # NumPy's linspace(smin, smax): the data's float type, float64 from a given range
        lo_hi = ((column.dtype,) if rng is None
                 else (_weak(operand(rng[0])), _weak(operand(rng[1]))))
        return astype(edges, _np.result_type(*lo_hi, 1.0))
    if _np.ndim(bins) != 1:
        raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
    try:
        return histogram_bin_edges(column, bins)
    except ValueError as e:
        raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array") from e


def _membership(column, edges):
    """(N, bins) booleans: ``edges[j] <= x < edges[j+1]``, the last bin closed."""
    n = edges.shape[0] - 1
    x = reshape(column, (column.shape[0], 1))
    lower = greater_equal(x, reshape(edges[:n], (1, n)))
    upper = concatenate([less(x, reshape(edges[1:n], (1, n - 1))),
                         less_equal(x, reshape(edges[n:], (1, 1)))], 1)
    return logical_and(lower, upper)


def histogramdd(sample: ArrayLike, bins: ArrayLike = 10, range: Any = None,
                density: bool | None = None,
                weights: ArrayLike | None = None) -> tuple[Array, list[Array]]:  # noqa: A002
    """``np.histogramdd(sample, bins=10, range=None, density=None, weights=None)``:
    ``(hist, edges)`` of D-dimensional data, ``sample`` an (N, D) array or D 1-d arrays.

    The counts (float64, as NumPy) are not differentiable; ``weights`` are, and edges from
    the data range are (so ``density=True`` is, through the bin volumes).  Works under
    ``vmap``/``jit``: each point is tested against every bin (memory N times the number
    of bins).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> h, edges = fnp.histogramdd(np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.2]]), bins=2)
    >>> h
    array([[1., 0.],
           [1., 1.]])
    """
    s = _sample(sample)
    n, d = s.shape
    if _np.ndim(bins) == 0:
        bins = d * [bins]
    elif len(bins) != d:
        raise ValueError("The dimension of bins must be equal to the dimension of the "
                         "sample x.")
    if range is None:
        range = (None,) * d  # noqa: A001
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    w = None
    if weights is not None:
        w = astype(asarray(weights), _np.float64)
        if w.shape != (n,):
            raise ValueError(f"histogramdd: weights must have shape ({n},), got {w.shape}")
    edges = [_edges(s[:, i], bins[i], range[i], i) for i in _np.arange(d)]
    sizes = tuple(e.shape[0] - 1 for e in edges)
    joint = None  # (N, product of the bin counts so far)
    for i in _np.arange(d):
        column = s[:, i]
        dtype = _np.result_type(column.dtype, edges[i].dtype)
        m = astype(_membership(astype(column, dtype), astype(edges[i], dtype)), _np.float64)
        joint = m if joint is None else reshape(
            multiply(reshape(joint, (n, joint.shape[1], 1)), reshape(m, (n, 1, m.shape[1]))),
            (n, joint.shape[1] * m.shape[1]))
    if w is not None:
        joint = multiply(joint, reshape(w, (n, 1)))
    hist = reshape(sum(joint, 0), sizes)
    if density:
        total = sum(hist)
        for i in _np.arange(d):
            shape = [1] * d
            shape[i] = sizes[i]
            hist = divide(hist, reshape(subtract(edges[i][1:], edges[i][:-1]), tuple(shape)))
        hist = divide(hist, total)
    return hist, edges


def histogram2d(x: ArrayLike, y: ArrayLike, bins: ArrayLike = 10, range: Any = None,
                density: bool | None = None,
                weights: ArrayLike | None = None) -> tuple[Array, Array, Array]:  # noqa: A002
    """``np.histogram2d(x, y, bins=10, range=None, density=None, weights=None)``:
    ``(hist, xedges, yedges)``, as :func:`histogramdd` of the points ``(x, y)``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.histogram2d(np.array([0.0, 1.0, 1.0]), np.array([0.0, 1.0, 0.2]), bins=2)[0]
    array([[1., 0.],
           [1., 1.]])
    """
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
