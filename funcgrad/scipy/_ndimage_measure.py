"""Measurements on labelled regions, ``funcgrad.scipy.ndimage``'s ``sum_labels``
(``sum``), ``mean``, ``variance``, ``standard_deviation``, ``minimum``, ``maximum``,
``median``, ``center_of_mass``, ``extrema``, ``minimum_position``, ``maximum_position``
and ``histogram`` (and ``label``, connected regions), with SciPy's ``labels``/``index`` rules: no ``labels``, the whole
input; no ``index``, the elements whose label is positive; a scalar ``index``, one
region (a scalar result); an array of them, one result per entry (0, or NaN for a mean,
for a label that does not occur).

The labels (and ``index``) are integers that choose regions, so they must be known
values; the input is differentiable.  Sums go through ``bincount``; minima, maxima and
medians through one stable sort by (label, value), each region's order statistic then
a known place in it: the derivative goes to the sample selected.  Ties: a region's
minimum is its first tied sample in flat order, its maximum the first for one region
and the last for an ``index`` array (as SciPy's; SciPy's tied positions for an
``index`` array follow NumPy's unstable sort and may differ).  A median of an even
count averages the two middle samples.  Positions and histograms are integer values,
read from the input's values (not under ``jit``/``vmap``).
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum",
           "maximum", "median", "center_of_mass", "extrema", "minimum_position",
           "maximum_position", "histogram", "label"]


class _Regions:
    """Which elements each result gathers.  ``single``: one region, the flat indices
    ``members``; else the regions are the distinct labels ``unique`` (elements mapped to
    them by ``inverse``, ``counts`` each) and result ``i`` reads region ``where[i]``
    when ``found[i]``."""

    def __init__(self, name, shape, labels, index):
        self.single = True
        n = int(np.prod(shape))
        if labels is None:
            self.members = np.arange(n)
            return
        labels = np.asarray(concrete_values(labels, f"{name}'s labels",
                                            "Pass labels as a NumPy array."))
        try:
            labels = np.broadcast_to(labels, shape).ravel()
        except ValueError:
            raise ValueError(f"{name}: labels of shape {labels.shape} do not broadcast to "
                             f"the input's shape {shape}") from None
        if index is None:
            self.members = np.flatnonzero(labels > 0)
            return
        index = np.asarray(concrete_values(index, f"{name}'s index",
                                           "Pass index as a NumPy array or list."))
        if index.ndim == 0:
            self.members = np.flatnonzero(labels == index)
            return
        self.single = False
        self.unique, self.inverse = np.unique(labels, return_inverse=True)
        self.inverse = self.inverse.ravel()
        self.counts = np.bincount(self.inverse, minlength=len(self.unique))
        where = np.clip(np.searchsorted(self.unique, index), 0, max(len(self.unique) - 1, 0))
        self.found = (self.unique[where] == index) if len(self.unique) else np.zeros(
            index.shape, bool)
        self.where = where
        self.labels = labels

    def per_region(self, values):
        """``values`` (one per region) at each index entry, 0 where not found."""
        picked = fnp.take(values, self.where)
        return fnp.where(self.found, picked, fnp.zeros_like(picked))

    def sums(self, flat):
        return fnp.bincount(self.inverse, weights=flat, minlength=len(self.unique))


def _input(name, input):
    x = asarray(input)
    if x.dtype.kind not in "biufc":
        raise TypeError(f"{name}: input must be numeric, got dtype {x.dtype}")
    return x


def _flat(x):
    return fnp.reshape(x, (-1,))


@internal  # (label maps and grids follow the data to its device)
def _stats(name, input, labels, index, centered):
    """(count, sum[, sum of |x - mean|^2]) as SciPy's ``_stats``."""
    x = _input(name, input)
    regions = _Regions(name, x.shape, labels, index)
    flat = _flat(x)
    if regions.single:
        vals = fnp.take(flat, regions.members)
        count, total = vals.shape[0], fnp.sum(vals)
        if not centered:
            return count, total
        dev = vals - fnp.mean(vals) if count else vals
        return count, total, fnp.sum(_abs2(dev))
    if flat.dtype.kind == "b":
        flat = fnp.astype(flat, np.float64)
    sums = regions.sums(flat)
    counts = np.where(regions.found, regions.counts[regions.where], 0)
    if not centered:
        return counts, regions.per_region(sums)
    means = sums / np.maximum(regions.counts, 1)
    dev = flat - fnp.take(means, regions.inverse)
    return counts, regions.per_region(sums), regions.per_region(regions.sums(_abs2(dev)))


def _abs2(z):
    return fnp.real(z * fnp.conj(z)) if z.dtype.kind == "c" else z * z


def sum_labels(input: ArrayLike, labels: Optional[ArrayLike] = None,
               index: Optional[ArrayLike] = None) -> Array:
    """The sum of the input over each labelled region (``scipy.ndimage.sum_labels``; see
    the module for ``labels``/``index``).  Differentiable in ``input``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.sum_labels(np.array([1.0, 2.0, 3.0, 4.0]), [0, 1, 1, 2], index=[1, 2])
    array([5., 4.])
    """
    return _stats("sum_labels", input, labels, index, False)[1]


def sum(input: ArrayLike, labels: Optional[ArrayLike] = None,  # noqa: A001 - SciPy's name
        index: Optional[ArrayLike] = None) -> Array:
    """:func:`sum_labels` under its older name (``scipy.ndimage.sum``).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> float(fnd.sum(np.array([1.0, 2.0, 3.0]), [1, 0, 1]))
    4.0
    """
    return _stats("sum", input, labels, index, False)[1]


@internal  # (the counts follow the data to its device)
def mean(input: ArrayLike, labels: Optional[ArrayLike] = None,
         index: Optional[ArrayLike] = None) -> Array:
    """The mean of each labelled region (``scipy.ndimage.mean``): NaN for a region with
    no elements, as SciPy's.  Differentiable in ``input``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.mean(np.array([1.0, 2.0, 3.0, 4.0]), [0, 1, 1, 2], index=[1, 2])
    array([2.5, 4. ])
    """
    count, total = _stats("mean", input, labels, index, False)
    return total / np.asarray(count, np.float64)


@internal  # (the counts follow the data to its device)
def variance(input: ArrayLike, labels: Optional[ArrayLike] = None,
             index: Optional[ArrayLike] = None) -> Array:
    """The (population) variance of each labelled region (``scipy.ndimage.variance``).
    Differentiable in ``input``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.variance(np.array([1.0, 2.0, 4.0, 4.0]), [0, 1, 1, 2], index=[1, 2])
    array([1., 0.])
    """
    count, _, centered = _stats("variance", input, labels, index, True)
    return centered / np.asarray(count, np.float64)


def standard_deviation(input: ArrayLike, labels: Optional[ArrayLike] = None,
                       index: Optional[ArrayLike] = None) -> Array:
    """The square root of :func:`variance` (``scipy.ndimage.standard_deviation``).  Where
    a region is constant its derivative is taken as 0 (PyTorch's ``std`` gives NaN;
    the one-sided limit of a norm is 0 here, as :func:`gaussian_gradient_magnitude`).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.standard_deviation(np.array([1.0, 3.0, 4.0, 4.0]), [0, 1, 1, 2], index=[1, 2])
    array([0.5, 0. ])
    """
    var = variance(input, labels, index)
    positive = var > 0
    # (0 stays 0 and a missing label's NaN stays NaN, with no infinite slope at 0)
    return fnp.where(positive, fnp.sqrt(fnp.where(positive, var, 1.0)), var * 0.0)


@internal  # (label maps and grids follow the data to its device)
def _order_statistics(name, input, labels, index, what):
    """Each region's ``what`` ('min', 'max' or 'median') of the input."""
    x = _input(name, input)
    regions = _Regions(name, x.shape, labels, index)
    flat = _flat(x)
    if flat.dtype.kind == "c":
        raise TypeError(f"{name}: complex input has no order; pass its real part or "
                        f"absolute value")
    if regions.single:
        vals = fnp.take(flat, regions.members)
        if vals.shape[0] == 0:
            if what == "median":  # (NumPy's median of nothing)
                return np.result_type(flat.dtype, np.float16).type(np.nan)
            raise ValueError(f"{name}: the region is empty (no element has that label)")
        if what == "min":
            return fnp.take(vals, fnp.argmin(vals))
        if what == "max":
            return fnp.take(vals, fnp.argmax(vals))
        ordered = fnp.sort(vals)
        c = vals.shape[0]
        return _midpoint(ordered, (c - 1) // 2, c // 2)
    # sorted by (label, value), stably: region r is the run starts[r] ... ends[r]
    ordered = fnp.take(flat, fnp.lexsort((flat, regions.inverse)))
    counts = regions.counts
    starts = np.cumsum(counts) - counts
    where = regions.where
    if what == "min":
        return regions.per_region(fnp.take(ordered, starts))
    if what == "max":
        return regions.per_region(fnp.take(ordered, starts + counts - 1))
    low = np.where(regions.found, starts[where] + (counts[where] - 1) // 2, 0)
    high = np.where(regions.found, starts[where] + counts[where] // 2, 0)
    # (SciPy's median of a missing label is its sorted input's first value, kept here)
    return _midpoint(ordered, low, high)


def _midpoint(ordered, low, high):
    a, b = fnp.take(ordered, low), fnp.take(ordered, high)
    if a.dtype.kind in "biu":
        a, b = fnp.astype(a, np.float64), fnp.astype(b, np.float64)
    return (a + b) / 2.0


def minimum(input: ArrayLike, labels: Optional[ArrayLike] = None,
            index: Optional[ArrayLike] = None) -> Array:
    """The minimum of each labelled region (``scipy.ndimage.minimum``): 0 for a label
    that does not occur.  Differentiable in ``input``: the derivative goes to the
    selected element (ties: the first in flat order).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.minimum(np.array([5.0, 2.0, 3.0, 4.0]), [0, 1, 1, 2], index=[1, 2, 3])
    array([2., 4., 0.])
    """
    return _order_statistics("minimum", input, labels, index, "min")


def maximum(input: ArrayLike, labels: Optional[ArrayLike] = None,
            index: Optional[ArrayLike] = None) -> Array:
    """The maximum of each labelled region (``scipy.ndimage.maximum``); see
    :func:`minimum` (ties: the first in flat order for one region, the last for an
    ``index`` array, as SciPy's).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.maximum(np.array([5.0, 2.0, 3.0, 4.0]), [0, 1, 1, 2], index=[1, 2])
    array([3., 4.])
    """
    return _order_statistics("maximum", input, labels, index, "max")


def median(input: ArrayLike, labels: Optional[ArrayLike] = None,
           index: Optional[ArrayLike] = None) -> Array:
    """The median of each labelled region (``scipy.ndimage.median``): the mean of the two
    middle elements for an even count.  Differentiable in ``input`` (the derivative
    goes to the middle element, or half to each of the two).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.median(np.array([5.0, 2.0, 3.0, 4.0, 9.0]), [1, 1, 1, 2, 2], index=[1, 2])
    array([3. , 6.5])
    """
    return _order_statistics("median", input, labels, index, "median")


@internal  # (label maps and grids follow the data to its device)
def center_of_mass(input: ArrayLike, labels: Optional[ArrayLike] = None,
                   index: Optional[ArrayLike] = None) -> Any:
    """The centre of mass of each labelled region (``scipy.ndimage.center_of_mass``): a
    tuple of one coordinate per axis, or a list of them for an ``index`` array.
    Differentiable in ``input``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> a = np.array([[0.0, 0.0], [1.0, 3.0]])
    >>> [float(c) for c in fnd.center_of_mass(a)]
    [1.0, 0.75]
    """
    x = _input("center_of_mass", input)
    total = sum_labels(x, labels, index)
    results = []
    for d in range(x.ndim):
        shape = [1] * x.ndim
        shape[d] = x.shape[d]
        grid = np.arange(x.shape[d], dtype=np.float64).reshape(shape)
        results.append(sum_labels(x * grid, labels, index) / total)
    if not results or np.ndim(results[0]) == 0:
        return tuple(results)
    per_point = fnp.transpose(fnp.stack(results))  # (SciPy's layout: np.array(results).T)
    return [tuple(per_point[i][j] for j in range(per_point.shape[1]))
            for i in range(per_point.shape[0])]


def _positions(name, input, labels, index, want_min, want_max):
    """Flat positions of each region's extremes, read from the input's values."""
    values = concrete_values(_input(name, input), f"{name} (integer positions)",
                             "Compute positions outside jit/vmap.")
    regions = _Regions(name, values.shape, labels, index)
    flat = values.ravel()
    out = []
    if regions.single:
        vals = flat[regions.members]
        if vals.size == 0:
            raise ValueError(f"{name}: the region is empty (no element has that label)")
        if want_min:
            out.append(int(regions.members[np.argmin(vals)]))
        if want_max:
            out.append(int(regions.members[np.argmax(vals)]))
        return out
    order = np.lexsort((flat, regions.inverse))
    counts = regions.counts
    starts = np.cumsum(counts) - counts
    for wanted, at in ((want_min, starts), (want_max, starts + counts - 1)):
        if wanted:
            out.append(np.where(regions.found, order[at][regions.where], 0))
    return out


def _unravel(flat, shape):
    if np.ndim(flat) == 0:
        return tuple(int(i) for i in np.unravel_index(int(flat), shape))
    return [tuple(int(i) for i in np.unravel_index(int(f), shape)) for f in np.ravel(flat)]


def minimum_position(input: ArrayLike, labels: Optional[ArrayLike] = None,
                     index: Optional[ArrayLike] = None) -> Any:
    """The position (a tuple of indices) of each labelled region's minimum
    (``scipy.ndimage.minimum_position``); a list of them for an ``index`` array.
    Integer values, not differentiable.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.minimum_position(np.array([[4.0, 1.0], [0.5, 3.0]]))
    (1, 0)
    """
    x = asarray(input)
    return _unravel(_positions("minimum_position", x, labels, index, True, False)[0], x.shape)


def maximum_position(input: ArrayLike, labels: Optional[ArrayLike] = None,
                     index: Optional[ArrayLike] = None) -> Any:
    """The position of each labelled region's maximum
    (``scipy.ndimage.maximum_position``); see :func:`minimum_position`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.maximum_position(np.array([[4.0, 1.0], [0.5, 3.0]]), [[1, 2], [2, 2]], [1, 2])
    [(0, 0), (1, 1)]
    """
    x = asarray(input)
    return _unravel(_positions("maximum_position", x, labels, index, False, True)[0], x.shape)


def extrema(input: ArrayLike, labels: Optional[ArrayLike] = None,
            index: Optional[ArrayLike] = None) -> Any:
    """``(minimums, maximums, minimum positions, maximum positions)`` of each labelled
    region (``scipy.ndimage.extrema``).  The minimums and maximums are differentiable as
    :func:`minimum`'s and :func:`maximum`'s.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> lo, hi, at_lo, at_hi = fnd.extrema(np.array([[4.0, 1.0], [0.5, 3.0]]))
    >>> float(lo), float(hi), at_lo, at_hi
    (0.5, 4.0, (1, 0), (0, 0))
    """
    x = asarray(input)
    at_min, at_max = _positions("extrema", x, labels, index, True, True)
    return (minimum(x, labels, index), maximum(x, labels, index), _unravel(at_min, x.shape),
            _unravel(at_max, x.shape))


def histogram(input: ArrayLike, min: float, max: float,  # noqa: A002 - SciPy's names
              bins: int, labels: Optional[ArrayLike] = None,
              index: Optional[ArrayLike] = None) -> Any:
    """The histogram (counts in ``bins`` equal bins over ``[min, max]``) of each labelled
    region (``scipy.ndimage.histogram``): an integer array, or an object array of them
    (None for a label that does not occur) for an ``index`` array; None for a scalar
    ``index`` that does not occur.  Integer values, not differentiable.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.histogram(np.array([0.1, 0.4, 0.45, 0.9]), 0.0, 1.0, 4)
    array([1, 2, 0, 1])
    """
    values = concrete_values(_input("histogram", input), "histogram (integer counts)",
                             "Compute histograms outside jit/vmap.")
    edges = np.linspace(min, max, bins + 1)
    regions = _Regions("histogram", values.shape, labels, index)
    flat = values.ravel()
    if regions.single:
        if index is not None and np.ndim(index) == 0 and not regions.members.size:
            return None  # (a scalar label that does not occur, as SciPy's)
        return np.histogram(flat[regions.members], edges)[0]
    index = np.asarray(concrete_values(index, "histogram's index", ""))
    out = np.empty(index.shape, object)
    for i, (found, where) in enumerate(zip(regions.found.ravel(), regions.where.ravel())):
        # (a label that does not occur gets None, as SciPy's labeled_comprehension)
        out.flat[i] = np.histogram(flat[regions.inverse == where], edges)[0] if found else None
    return out



def _shifted(labels, offset):
    """``labels`` moved by ``offset`` (each axis -1, 0 or 1), zeros shifted in."""
    padded = np.pad(labels, 1)
    return padded[tuple(slice(1 + o, 1 + o + n) for o, n in zip(offset, labels.shape))]


def label(input: ArrayLike, structure: Optional[ArrayLike] = None,
          output: Any = None) -> Any:
    """The connected regions of ``input``'s nonzero elements, numbered 1, 2, ... in the
    order a raster scan meets them (``scipy.ndimage.label``): ``(labels,
    number of regions)``, labels int32 unless ``output`` names a dtype.  Neighbours are
    those ``structure`` (a centrosymmetric 3 x ... x 3 array) marks; by default those
    sharing a face.  Integer values, not differentiable (read from the input's values).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> labels, count = fnd.label(np.array([[1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 1, 1]]))
    >>> labels, count
    (array([[1, 1, 0, 0],
           [0, 0, 0, 2],
           [3, 0, 2, 2]], dtype=int32), 3)
    """
    values = np.asarray(concrete_values(asarray(input), "label (integer labels)",
                                        "Label outside jit/vmap."))
    if values.dtype.kind == "c":
        raise TypeError("label: complex input is not supported")
    if output is not None and not isinstance(output, (type, np.dtype, str)):
        raise TypeError("label(..., output=array) would write into an array, but funcgrad's "
                        "results are new arrays: pass a dtype (or nothing) and use the "
                        "returned labels")
    dtype = np.dtype(np.int32 if output is None else output)
    shape = values.shape
    foreground = values.reshape(shape if values.ndim else (1,)) != 0
    ndim = foreground.ndim
    if structure is None:
        structure = np.zeros((3,) * ndim, bool)
        for axis in range(ndim):
            index = [1] * ndim
            for side in (0, 2):
                index[axis] = side
                structure[tuple(index)] = True
    else:
        structure = np.asarray(structure, bool)
        if structure.ndim != ndim:
            raise RuntimeError(f"label: structure and input must have equal rank (got "
                               f"{structure.ndim} and {ndim})")
        if any(s != 3 for s in structure.shape):
            raise ValueError("label: structure dimensions must be equal to 3")
        if not np.array_equal(structure, structure[(slice(None, None, -1),) * ndim]):
            raise ValueError("label: structure must be centrosymmetric (equal to itself "
                             "reversed along every axis)")
    offsets = [tuple(int(o) - 1 for o in at) for at in np.argwhere(structure)
               if any(o != 1 for o in at)]
    size = foreground.size
    # every element starts as its own region (its flat index + 1); regions take the
    # smallest label among their neighbours, and labels jump to their label's label,
    # until nothing changes: each region ends labelled by its first element
    labels = np.where(foreground, np.arange(1, size + 1).reshape(foreground.shape), 0)
    big = size + 1
    while True:
        smallest = labels
        for offset in offsets:
            neighbour = _shifted(labels, offset)
            smallest = np.minimum(smallest, np.where(neighbour > 0, neighbour, big))
        updated = np.where(foreground, smallest, 0)
        flat = np.concatenate([[0], updated.ravel()])
        while True:  # (pointer jumping)
            jumped = flat[flat]
            if np.array_equal(jumped, flat):
                break
            flat = jumped
        updated = flat[1:].reshape(labels.shape)
        if np.array_equal(updated, labels):
            break
        labels = updated
    firsts = np.unique(labels[labels > 0])
    numbered = np.where(labels > 0, np.searchsorted(firsts, labels) + 1, 0)
    if dtype.kind in "iu" and len(firsts) > np.iinfo(dtype).max:
        raise RuntimeError(f"label: {len(firsts)} regions do not fit the output type {dtype}")
    return numbered.reshape(shape).astype(dtype), int(len(firsts))
