"""Peak finding for :mod:`funcgrad.scipy.signal` (re-exported there): ``find_peaks``,
``peak_prominences``, ``peak_widths``, ``argrelextrema``, ``argrelmax`` and
``argrelmin``, with SciPy's signatures and results.

Where the peaks are is a decision on the values: the integer positions (peaks, bases,
edges, and the samples between which a width is interpolated) are found on the
signal's values (``find_peaks``'s selection by SciPy's own routine, imported when first
called), and are constants.  The quantities measured at those positions are then
rebuilt from the signal with funcgrad operations, so they differentiate in it: the
heights ``x[peaks]``, the thresholds ``x[peaks] - x[peaks -+ 1]``, the prominences
``x[peaks] - max(x[left_bases], x[right_bases])``, and the widths, whose ends are
interpolated linearly between two samples.  Under ``jit``/``vmap`` there are no values
to decide on: these functions raise ``ConcretizationError`` there.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["argrelextrema", "argrelmax", "argrelmin", "find_peaks", "peak_prominences",
           "peak_widths"]


def _values(name, x):
    return np.asarray(concrete_values(x, f"{name} (where the peaks are)",
                                      "Find the peaks outside jit/vmap, or pass plain "
                                      "values."))


def argrelextrema(data: ArrayLike, comparator: Callable[..., Any], axis: int = 0,
                  order: int = 1, mode: str = "clip") -> tuple[np.ndarray, ...]:
    """The indices of the relative extrema of ``data`` along ``axis``: the samples for
    which ``comparator`` holds against every neighbour within ``order`` samples
    (``scipy.signal.argrelextrema``; ``mode`` 'clip' or 'wrap' at the ends).  Indices
    are integers (no derivative).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.argrelextrema(np.array([2.0, 1.0, 2.0, 3.0, 2.0, 0.0, 1.0, 0.0]), np.greater)
    (array([3, 6]),)
    """
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    values = _values("argrelextrema", asarray(data))
    length = values.shape[axis]
    locs = np.arange(length)
    keep = np.ones(values.shape, dtype=bool)
    main = values.take(locs, axis=axis, mode=mode)
    for shift in range(1, int(order) + 1):
        keep &= comparator(main, values.take(locs + shift, axis=axis, mode=mode))
        keep &= comparator(main, values.take(locs - shift, axis=axis, mode=mode))
        if not keep.any():
            break
    return np.nonzero(keep)


def argrelmax(data: ArrayLike, axis: int = 0, order: int = 1, mode: str = "clip"
              ) -> tuple[np.ndarray, ...]:
    """The indices of the relative maxima of ``data`` (``scipy.signal.argrelmax``):
    ``argrelextrema`` with ``np.greater``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.argrelmax(np.array([0.0, 2.0, 1.0, 3.0, 0.0]))
    (array([1, 3]),)
    """
    return argrelextrema(data, np.greater, axis, order, mode)


def argrelmin(data: ArrayLike, axis: int = 0, order: int = 1, mode: str = "clip"
              ) -> tuple[np.ndarray, ...]:
    """The indices of the relative minima of ``data`` (``scipy.signal.argrelmin``):
    ``argrelextrema`` with ``np.less``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.argrelmin(np.array([3.0, 2.0, 1.0, 3.0, 0.0, 4.0]))
    (array([2, 4]),)
    """
    return argrelextrema(data, np.less, axis, order, mode)


def _signal(name, x):
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError(f"`x` must be a 1-D array ({name} got shape {x.shape})")
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    return x


def _peaks(peaks, length):
    peaks = np.asarray(peaks)
    if peaks.size == 0:
        peaks = peaks.astype(np.intp)
    if peaks.ndim != 1 or peaks.dtype.kind not in "iu":
        raise ValueError("`peaks` must be a 1-D array of integers (indices into x)")
    if np.any((peaks < 0) | (peaks >= length)):
        raise ValueError(f"peak indices must lie in [0, {length - 1}], got {peaks}")
    return peaks.astype(np.intp)


def _prominences(x, peaks, left_bases, right_bases):
    """``x[peaks] - max(x[left_bases], x[right_bases])``: the higher base decides (at a
    tie both are the same value, and either derivative is the derivative)."""
    return x[peaks] - fnp.maximum(x[left_bases], x[right_bases])


def peak_prominences(x: ArrayLike, peaks: ArrayLike, wlen: Optional[float] = None
                     ) -> tuple[Array, np.ndarray, np.ndarray]:
    """``(prominences, left_bases, right_bases)`` of the ``peaks`` of ``x``
    (``scipy.signal.peak_prominences``): how far each peak stands above the higher of
    the lowest points on either side before a higher sample (within ``wlen`` samples).
    The prominences differentiate in ``x``; the bases are indices.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.peak_prominences(np.array([0.0, 3.0, 1.0, 2.0, 0.0]), [1, 3])
    (array([3., 1.]), array([0, 2]), array([4, 4]))
    """
    import scipy.signal as ss  # (here: importing funcgrad never loads SciPy)
    x = _signal("peak_prominences", x)
    values = _values("peak_prominences", x)
    peaks = _peaks(peaks, values.shape[0])
    _, left, right = ss.peak_prominences(values, peaks, wlen)
    return _prominences(x, peaks, left, right), left, right


def _crossings(values, peaks, heights, left_bases, right_bases):
    """The samples where each width's ends are found, by SciPy's walk: from the peak
    outwards while above the height, not past the bases."""
    lo, hi = np.empty(peaks.shape[0], np.intp), np.empty(peaks.shape[0], np.intp)
    for p, (peak, h) in enumerate(zip(peaks, heights)):
        i = peak
        while left_bases[p] < i and h < values[i]:
            i -= 1
        lo[p] = i
        i = peak
        while i < right_bases[p] and h < values[i]:
            i += 1
        hi[p] = i
    return lo, hi


def _widths(x, values, peaks, rel_height, prominences, left_bases, right_bases):
    heights = x[peaks] - prominences * rel_height
    lo, hi = _crossings(values, peaks, _values("peak_widths", heights), left_bases,
                        right_bases)
    below_lo = values[lo] < _values("peak_widths", heights)
    below_hi = values[hi] < _values("peak_widths", heights)
    # the interpolation only where the sample is below the height (its neighbour towards
    # the peak is then above it: the difference is not zero); elsewhere a safe 1
    nxt = np.minimum(lo + 1, values.shape[0] - 1)
    prv = np.maximum(hi - 1, 0)
    step_lo = fnp.where(below_lo, x[nxt] - x[lo], 1.0)
    step_hi = fnp.where(below_hi, x[prv] - x[hi], 1.0)
    left = lo + fnp.where(below_lo, (heights - x[lo]) / step_lo, 0.0)
    right = hi - fnp.where(below_hi, (heights - x[hi]) / step_hi, 0.0)
    return right - left, heights, left, right


def peak_widths(x: ArrayLike, peaks: ArrayLike, rel_height: float = 0.5,
                prominence_data: Optional[tuple[Any, Any, Any]] = None,
                wlen: Optional[float] = None) -> tuple[Array, Array, Array, Array]:
    """``(widths, width_heights, left_ips, right_ips)`` of the ``peaks`` of ``x``
    (``scipy.signal.peak_widths``): the width of each peak at ``rel_height`` of its
    prominence below it, its ends interpolated between samples.  All four differentiate
    in ``x`` (and in given prominences).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.peak_widths(np.array([0.0, 1.0, 2.0, 1.0, 0.0]), [2])
    (array([2.]), array([1.]), array([1.]), array([3.]))
    """
    x = _signal("peak_widths", x)
    values = _values("peak_widths", x)
    peaks = _peaks(peaks, values.shape[0])
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    if prominence_data is None:
        prominence_data = peak_prominences(x, peaks, wlen)
    prominences, left, right = prominence_data
    left, right = np.asarray(left, dtype=np.intp), np.asarray(right, dtype=np.intp)
    return _widths(x, values, peaks, rel_height, asarray(prominences), left, right)


def find_peaks(x: ArrayLike, height: Any = None, threshold: Any = None,
               distance: Optional[float] = None, prominence: Any = None, width: Any = None,
               wlen: Optional[float] = None, rel_height: float = 0.5,
               plateau_size: Any = None) -> tuple[np.ndarray, dict[str, Any]]:
    """``(peaks, properties)``: the local maxima of the 1-d ``x`` that meet the
    conditions (``scipy.signal.find_peaks``: ``height``, ``threshold``, ``distance``,
    ``prominence``, ``width``, ``plateau_size``, each a minimum or a ``(min, max)``
    pair).  The peak positions are integers; the measured properties ('peak_heights',
    'left_thresholds'/'right_thresholds', 'prominences', 'widths', 'width_heights',
    'left_ips'/'right_ips') differentiate in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> peaks, props = fss.find_peaks(np.array([0.0, 2.0, 1.0, 3.0, 0.0]), height=0)
    >>> peaks, props["peak_heights"]
    (array([1, 3]), array([2., 3.]))
    """
    import scipy.signal as ss  # (here: importing funcgrad never loads SciPy)
    x = _signal("find_peaks", x)
    values = _values("find_peaks", x)
    peaks, found = ss.find_peaks(values, height=height, threshold=threshold,
                                 distance=distance, prominence=prominence, width=width,
                                 wlen=wlen, rel_height=rel_height, plateau_size=plateau_size)
    properties: dict[str, Any] = {}
    for key, value in found.items():  # (the integer ones as SciPy's; SciPy's order)
        properties[key] = value
    if "peak_heights" in found:
        properties["peak_heights"] = x[peaks]
    if "left_thresholds" in found:
        properties["left_thresholds"] = x[peaks] - x[peaks - 1]
        properties["right_thresholds"] = x[peaks] - x[peaks + 1]
    if "prominences" in found:
        properties["prominences"] = _prominences(x, peaks, found["left_bases"],
                                                 found["right_bases"])
    if "widths" in found:
        widths, heights, left, right = _widths(
            x, values, peaks, rel_height, properties["prominences"], found["left_bases"],
            found["right_bases"])
        properties.update(widths=widths, width_heights=heights, left_ips=left,
                          right_ips=right)
    return peaks, properties
