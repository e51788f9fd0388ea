"""Binned statistics and frequency histograms of :mod:`funcgrad.scipy.stats`
(re-exported there), with SciPy's signatures and results: ``binned_statistic``,
``binned_statistic_2d``, ``binned_statistic_dd``, ``cumfreq`` and ``relfreq``.

Which bin an observation falls in is a step function of the sample: the bin numbers and
counts are SciPy's (computed on the values) and carry no derivative.  The statistic of
each bin is differentiable in ``values`` ('mean', 'sum', 'std', 'median', 'min', 'max'
through the values they pick, a callable through its own operations); the default edges
(``linspace`` between the sample's extremes) and ``cumfreq``/``relfreq``'s lower limit
and bin size move with the sample; their counts with ``weights`` are differentiable in
the weights.
"""
import builtins
import math
import warnings
from collections import namedtuple
from typing import Any, Callable, Dict, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..primitives.structural import stop_gradient
from ..typing import ArrayLike
from ._statsresample_quantile import values_of

__all__ = ["binned_statistic", "binned_statistic_2d", "binned_statistic_dd", "cumfreq",
           "relfreq"]

BinnedStatisticResult = namedtuple("BinnedStatisticResult",
                                   ["statistic", "bin_edges", "binnumber"])
BinnedStatisticResult.__doc__ = """:func:`binned_statistic`'s result, as SciPy's."""
BinnedStatistic2dResult = namedtuple("BinnedStatistic2dResult",
                                     ["statistic", "x_edge", "y_edge", "binnumber"])
BinnedStatistic2dResult.__doc__ = """:func:`binned_statistic_2d`'s result, as SciPy's."""
BinnedStatisticddResult = namedtuple("BinnedStatisticddResult",
                                     ["statistic", "bin_edges", "binnumber"])
BinnedStatisticddResult.__doc__ = """:func:`binned_statistic_dd`'s result, as SciPy's."""
CumfreqResult = namedtuple("CumfreqResult", ["cumcount", "lowerlimit", "binsize",
                                             "extrapoints"])
CumfreqResult.__doc__ = """:func:`cumfreq`'s result, as SciPy's."""
RelfreqResult = namedtuple("RelfreqResult", ["frequency", "lowerlimit", "binsize",
                                             "extrapoints"])
RelfreqResult.__doc__ = """:func:`relfreq`'s result, as SciPy's."""

_STATISTICS = ("mean", "median", "count", "sum", "std", "min", "max")
_NUMPY_STATISTICS: Dict[Any, str] = {np.mean: "mean", np.std: "std", np.sum: "sum", np.median: "median",
                     np.min: "min", np.max: "max"}


def _with_slope(value, moving):
    """``value`` (computed as SciPy computes it) carrying ``moving``'s derivative."""
    if not isinstance(moving, np.ndarray) and not np.isscalar(moving):
        return value + (moving - stop_gradient(moving))
    return value


def _edges(name, sample, bins, range_):
    """``(bins per axis with the two outlier bins, edges per axis)``, as SciPy's."""
    points, ndim = sample.shape
    values = values_of(sample)
    if range_ is None:
        low, high = values.min(axis=0).astype(float), values.max(axis=0).astype(float)
        low_moving, high_moving = fnp.min(sample, axis=0), fnp.max(sample, axis=0)
    else:
        if len(range_) != ndim:
            raise ValueError(f"{name}: range given for {len(range_)} dimensions; {ndim} "
                             f"required")
        for i, (a, b) in enumerate(range_):
            if b < a:
                raise ValueError(f"{name}: in range (dimension {i + 1}), start must be <= "
                                 f"stop")
        low, high = (np.array([float(r[k]) for r in range_]) for k in (0, 1))
        low_moving = high_moving = None
    flat = low == high  # (a point: a unit interval around it)
    low, high = np.where(flat, low - 0.5, low), np.where(flat, high + 0.5, high)
    dtype = sample.dtype if sample.dtype.kind == "f" else np.dtype(np.float64)
    counts, edges = [], []
    for i in builtins.range(ndim):
        if np.ndim(bins[i]) == 0:
            k = int(bins[i])
            grid = np.linspace(low[i], high[i], k + 1, dtype=dtype)
            if low_moving is not None:
                moving = fnp.astype(low_moving[i] + (high_moving[i] - low_moving[i])
                                    * np.linspace(0.0, 1.0, k + 1), dtype)
                grid = _with_slope(grid, moving)
        else:
            grid = np.asarray(bins[i], dtype)
        counts.append(grid.shape[0] + 1)
        edges.append(grid)
    return np.asarray(counts), edges


def _bin_numbers(name, values, counts, edges):
    """The flat bin number of each point (SciPy's rule: ``digitize``, with points on the
    last edge, to 6 digits past the finest bin width, counted in the last bin)."""
    per_axis = []
    for i, grid in enumerate(edges):
        grid = values_of(grid)
        column = values[:, i]
        index = np.digitize(column, grid)
        finest = np.diff(grid).min()
        if finest == 0:
            raise ValueError(f"{name}: the smallest edge difference is numerically 0")
        digits = int(-np.log10(finest)) + 6
        on_last = (column >= grid[-1]) & (np.around(column, digits)
                                          == np.around(grid[-1], digits))
        per_axis.append(index - on_last)
    return np.ravel_multi_index(per_axis, counts)


def _per_bin(rows, numbers, total, statistic):
    """The statistic of each bin (``total`` of them, outlier bins included) of each row
    of ``rows`` (shape ``(V, N)``): shape ``(V, total)``, float64 as SciPy's."""
    count = np.bincount(numbers, minlength=total).astype(float)
    has = count > 0
    safe_count = np.where(has, count, 1.0)
    if statistic == "count":
        return np.broadcast_to(count, (rows.shape[0], total))
    rows = fnp.astype(rows, np.result_type(rows.dtype, np.float64))
    out = []
    for v in builtins.range(rows.shape[0]):
        row = rows[v]
        sums = fnp.bincount(numbers, row, minlength=total)
        if statistic == "sum":
            out.append(sums)
        elif statistic == "mean":
            out.append(fnp.where(has, sums / safe_count, math.nan))
        elif statistic == "std":
            delta = row - fnp.take(sums / safe_count, numbers)
            var = fnp.bincount(numbers, delta * delta, minlength=total) / safe_count
            # (a bin of equal values: std 0, where sqrt's slope is inf; the double where)
            spread = fnp.where(var > 0, fnp.sqrt(fnp.where(var > 0, var, 1.0)), 0.0)
            out.append(fnp.where(has, spread, math.nan))
        else:
            out.append(_picked(row, numbers, total, statistic, has))
    return fnp.stack(out)


def _picked(row, numbers, total, statistic, has):
    """The median, min or max of each bin: the values it picks, moved to their bins."""
    values = values_of(row)
    if statistic == "median":
        order = np.lexsort((values, numbers))
        bins_sorted = numbers[order]
        present, first, sizes = np.unique(bins_sorted, return_index=True, return_counts=True)
        middle = first + (sizes - 1) / 2.0
        picked = 0.5 * (fnp.take(row, order[np.floor(middle).astype(int)])
                        + fnp.take(row, order[np.ceil(middle).astype(int)]))
    else:
        order = np.argsort(values, kind="stable")
        order = order[::-1] if statistic == "max" else order
        present, first = np.unique(numbers[order], return_index=True)
        picked = fnp.take(row, order[first])
    return fnp.where(has, fnp.bincount(present, picked, minlength=total), math.nan)


def _callable_per_bin(rows, numbers, total, statistic):
    """``statistic`` of each bin's values (a funcgrad array), its value on an empty list
    (NaN if it raises) in the empty bins, as SciPy's."""
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            empty = float(np.asarray(statistic([])))
        except Exception:  # (SciPy's rule: whatever it raises, the empty bins are NaN)
            empty = math.nan
    present = np.unique(numbers)
    out = []
    for v in builtins.range(rows.shape[0]):
        stats = [asarray(statistic(fnp.take(rows[v], np.flatnonzero(numbers == b))))
                 for b in present]
        if any(s.dtype.kind == "c" for s in stats):
            raise TypeError("binned_statistic: a callable statistic returning complex "
                            "numbers is not supported here; bin the real and imaginary "
                            "parts separately")
        filled = fnp.bincount(present, fnp.astype(fnp.stack(stats), np.float64),
                              minlength=total)
        out.append(fnp.where(np.isin(np.arange(total), present), filled, empty))
    return fnp.stack(out)


def binned_statistic_dd(sample: Any, values: ArrayLike,
                        statistic: Union[str, Callable[..., Any]] = "mean",
                        bins: Any = 10, range: Optional[Sequence] = None,  # noqa: A002
                        expand_binnumbers: bool = False,
                        binned_statistic_result: Optional[Any] = None
                        ) -> BinnedStatisticddResult:
    """A statistic of ``values`` in each bin of a ``D``-dimensional grid over ``sample``
    (``N`` points, shape ``(N, D)`` or a sequence of ``D`` coordinate arrays), as
    ``scipy.stats.binned_statistic_dd``: ``statistic`` one of 'mean', 'median', 'count',
    'sum', 'std', 'min', 'max' or a function of a 1-d array; empty bins are NaN (0 for
    'count' and 'sum').  Differentiable in ``values``, and the default edges in
    ``sample``.

    >>> import numpy as np, funcgrad as fg
    >>> pts = np.array([[0.1, 0.1], [0.2, 0.9], [0.8, 0.8]])
    >>> res = binned_statistic_dd(pts, np.array([1.0, 2.0, 3.0]), "sum", bins=2)
    >>> res.statistic
    array([[1., 2.],
           [0., 3.]])
    >>> fg.grad(lambda v: binned_statistic_dd(pts, v, "sum", bins=2).statistic[0, 1])(
    ...     np.ones(3))
    array([0., 1., 0.])
    """
    name = "binned_statistic_dd"
    if isinstance(statistic, str) or statistic in _NUMPY_STATISTICS:
        statistic = _NUMPY_STATISTICS.get(statistic, statistic)
        if statistic not in _STATISTICS:
            raise ValueError(f"{name}: invalid statistic {statistic!r}; use one of "
                             f"{_STATISTICS} or a function of a 1-d array")
    elif not callable(statistic):
        raise ValueError(f"{name}: invalid statistic {statistic!r}")
    if isinstance(sample, (list, tuple)):
        sample = fnp.stack([asarray(s) for s in sample], axis=-1)
    sample = asarray(sample)
    if sample.ndim == 1:
        sample = fnp.reshape(sample, (-1, 1))
    if sample.ndim != 2:
        raise ValueError(f"{name}: sample must be (N, D) or a sequence of D 1-d arrays, got "
                         f"shape {tuple(sample.shape)}")
    points, ndim = sample.shape
    coordinates = values_of(sample)
    if np.ndim(bins) == 0 and not np.all(np.isfinite(coordinates)):
        raise ValueError(f"{name}: the sample contains non-finite values; give explicit "
                         f"bin edges or drop them")
    values = asarray(np.zeros(points) if values is None and statistic == "count" else values)
    input_shape = tuple(values.shape)
    rows = fnp.reshape(values, (-1, values.shape[-1])) if values.ndim else values
    if values.ndim < 2:
        rows = fnp.reshape(values, (1, -1))
    if statistic != "count" and rows.shape[1] != points:
        raise ValueError(f"{name}: values must have one entry per point along their last "
                         f"axis ({points}), got shape {input_shape}")
    if np.ndim(bins) == 0:
        bins = [bins] * ndim
    elif len(bins) != ndim:
        raise ValueError(f"{name}: bins must have one entry per dimension ({ndim}), got "
                         f"{len(bins)}")
    if binned_statistic_result is None:
        counts, edges = _edges(name, sample, bins, range)
        numbers = _bin_numbers(name, coordinates, counts, edges)
    else:
        edges = binned_statistic_result.bin_edges
        counts = np.array([len(e) + 1 for e in edges])
        numbers = np.asarray(binned_statistic_result.binnumber)
    total = int(np.prod(counts))
    if callable(statistic):
        result = _callable_per_bin(rows, numbers, total, statistic)
    else:
        result = _per_bin(rows, numbers, total, statistic)
    result = fnp.reshape(result, (rows.shape[0],) + tuple(counts))
    result = result[(slice(None),) + (slice(1, -1),) * ndim]  # (the outlier bins dropped)
    result = fnp.reshape(result, input_shape[:-1] + tuple(counts - 2))
    if expand_binnumbers and ndim > 1:
        numbers = np.asarray(np.unravel_index(numbers, counts))
    return BinnedStatisticddResult(result, edges, numbers)


def binned_statistic(x: ArrayLike, values: ArrayLike,
                     statistic: Union[str, Callable[..., Any]] = "mean", bins: Any = 10,
                     range: Optional[Sequence] = None) -> BinnedStatisticResult:  # noqa: A002
    """A statistic of ``values`` in each bin of ``x``, as ``scipy.stats.binned_statistic``
    (see :func:`binned_statistic_dd`): ``(statistic, bin_edges, binnumber)``, the bin
    numbers counting from 1 (0 and ``len(bin_edges)`` are outside).

    >>> import numpy as np
    >>> res = binned_statistic(np.array([1.0, 2.0, 3.0, 4.0]), np.array([2.0, 4.0, 6.0, 1.0]),
    ...                        "max", bins=2)
    >>> res.statistic, res.binnumber
    (array([4., 6.]), array([1, 1, 2, 2]))
    """
    if np.ndim(bins) != 0:
        bins = [np.asarray(bins, float)]
    if range is not None and len(range) == 2:
        range = [range]
    statistic, edges, numbers = binned_statistic_dd([x], values, statistic, bins, range)
    return BinnedStatisticResult(statistic, edges[0], numbers)


def binned_statistic_2d(x: ArrayLike, y: ArrayLike, values: ArrayLike,
                        statistic: Union[str, Callable[..., Any]] = "mean", bins: Any = 10,
                        range: Optional[Sequence] = None,  # noqa: A002
                        expand_binnumbers: bool = False) -> BinnedStatistic2dResult:
    """A statistic of ``values`` in each cell of a grid over ``(x, y)``, as
    ``scipy.stats.binned_statistic_2d`` (see :func:`binned_statistic_dd`).

    >>> import numpy as np
    >>> res = binned_statistic_2d(np.array([0.0, 1.0, 1.0]), np.array([0.0, 0.0, 1.0]),
    ...                           None, "count", bins=2)
    >>> res.statistic
    array([[1., 0.],
           [1., 1.]])
    """
    if np.ndim(bins) != 0 and len(bins) not in (1, 2):
        bins = [np.asarray(bins, float)] * 2
    statistic, edges, numbers = binned_statistic_dd([x, y], values, statistic, bins, range,
                                                    expand_binnumbers=expand_binnumbers)
    return BinnedStatistic2dResult(statistic, edges[0], edges[1], numbers)


def _histogram(name, a, numbins, limits, weights):
    """SciPy's histogram with limits ``s`` past the extremes (half a bin's share)."""
    a = fnp.ravel(asarray(a))
    values = values_of(a)
    if limits is None:
        if a.shape[0] == 0:
            low = high = None
            limits = (0, 1)
        else:
            low, high = fnp.min(a), fnp.max(a)
            s = (high - low) / (2.0 * (numbins - 1.0))
            low, high = low - s, high + s
            limits = (float(values_of(low)), float(values_of(high)))
    else:
        low = high = None
    edges = np.histogram_bin_edges(values, bins=numbins, range=limits)
    index = np.searchsorted(edges, values, side="right") - 1
    index = np.where(values == edges[-1], numbins - 1, index)  # (the last bin is closed)
    inside = (values >= edges[0]) & (values <= edges[-1])
    w = None if weights is None else asarray(weights)
    if w is not None and w.shape != a.shape:  # (a is flattened, the weights are not)
        raise ValueError(f"{name}: weights must have the shape of a flattened, "
                         f"{tuple(a.shape)}, got {tuple(w.shape)}")
    if w is None:
        hist = np.bincount(index[inside], minlength=numbins).astype(float)
    else:
        hist = fnp.astype(fnp.bincount(index[inside], fnp.take(w, np.flatnonzero(inside)),
                                       minlength=numbins), np.float64)
    lower, size = limits[0], edges[1] - edges[0]
    if low is not None:
        lower = _with_slope(np.float64(lower), low)
        size = _with_slope(np.float64(size), (high - low) / numbins)
    extra = int(np.count_nonzero((values < limits[0]) | (values > limits[1])))
    return hist, lower, size, extra


def cumfreq(a: ArrayLike, numbins: int = 10, defaultreallimits: Optional[tuple] = None,
            weights: Optional[ArrayLike] = None) -> CumfreqResult:
    """A cumulative frequency histogram of ``a`` (flattened), as ``scipy.stats.cumfreq``:
    ``(cumcount, lowerlimit, binsize, extrapoints)``; by default the bins reach half a bin
    past the extremes.  ``lowerlimit`` and ``binsize`` are differentiable in ``a``, the
    counts with ``weights`` in the weights.

    >>> import numpy as np
    >>> cumfreq(np.array([1.0, 2.0, 2.0, 4.0]), numbins=4)
    CumfreqResult(cumcount=array([1., 3., 3., 4.]), lowerlimit=np.float64(0.5), binsize=np.float64(1.0), extrapoints=0)
    """
    hist, lower, size, extra = _histogram("cumfreq", a, numbins, defaultreallimits, weights)
    return CumfreqResult(fnp.cumsum(hist, axis=0), lower, size, extra)


def relfreq(a: ArrayLike, numbins: int = 10, defaultreallimits: Optional[tuple] = None,
            weights: Optional[ArrayLike] = None) -> RelfreqResult:
    """A relative frequency histogram of ``a`` (each bin's count over the length of
    ``a``'s first axis), as ``scipy.stats.relfreq`` (see :func:`cumfreq`).

    >>> import numpy as np
    >>> relfreq(np.array([1.0, 2.0, 2.0, 4.0]), numbins=4).frequency
    array([0.25, 0.5 , 0.  , 0.25])
    """
    first = asarray(a).shape[0] if np.ndim(a) else 1
    hist, lower, size, extra = _histogram("relfreq", a, numbins, defaultreallimits, weights)
    return RelfreqResult(hist / first, lower, size, extra)
