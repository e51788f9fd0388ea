"""``funcgrad.scipy.ndimage``: the separable filters ``gaussian_filter``,
``gaussian_filter1d``, ``uniform_filter`` and ``uniform_filter1d``
(:mod:`._ndimage_filters`); correlation, convolution and the derivative filters
(:mod:`._ndimage_correlate`); the order-statistic filters and grey morphology
(:mod:`._ndimage_rank`); the Fourier-domain filters (:mod:`._ndimage_fourier`); measurements on labelled
regions (:mod:`._ndimage_measure`); and ``map_coordinates`` with SciPy's modes, nearest-neighbour
(``order=0``) and linear (``order=1``) interpolation, differentiable in the input and,
for ``order=1``, in the coordinates (the spline orders 2-5 raise, naming ``order=1``; so
does JAX's).

Each coordinate is first brought into the input's range as SciPy's ``mode`` says
(``'nearest'`` clamps, ``'wrap'`` has period ``n - 1``, ``'grid-wrap'`` period ``n``,
``'mirror'`` reflects about the end samples, ``'reflect'``/``'grid-mirror'`` about the
ends' outer edges), then the ``2**ndim`` neighbours are gathered and weighted; under
``'constant'`` a point outside ``[0, n - 1]`` along any axis is ``cval``.  Order 0 rounds
halves up (at an exact half-way point beyond the ends SciPy's choice of neighbour varies
by mode; there it may differ).  Its derivative in the coordinates is zero (a step function); the
derivative of order 1 at a grid point is one-sided, as a kink's.
"""
import builtins  # (sum is SciPy's ndimage.sum here)
import itertools
import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._ndimage_filters import (gaussian_filter, gaussian_filter1d,  # noqa: F401
                               uniform_filter, uniform_filter1d)
from ._ndimage_correlate import (convolve, convolve1d, correlate, correlate1d,  # noqa: F401
                                 gaussian_gradient_magnitude, gaussian_laplace,
                                 generic_gradient_magnitude, generic_laplace, laplace,
                                 prewitt, sobel)
from ._ndimage_fourier import (fourier_ellipsoid, fourier_gaussian,  # noqa: F401
                               fourier_shift, fourier_uniform)
from ._ndimage_measure import (center_of_mass, extrema, histogram, maximum,  # noqa: F401
                               maximum_position, mean, median, minimum, minimum_position,
                               standard_deviation, sum, sum_labels, variance)
from ._ndimage_rank import (black_tophat, grey_closing, grey_dilation,  # noqa: F401
                            grey_erosion, grey_opening, maximum_filter, maximum_filter1d,
                            median_filter, minimum_filter, minimum_filter1d,
                            morphological_gradient, morphological_laplace,
                            percentile_filter, rank_filter, white_tophat)

__all__ = ["map_coordinates", "gaussian_filter", "gaussian_filter1d", "uniform_filter",
           "uniform_filter1d",
           "correlate1d", "convolve1d", "correlate", "convolve", "sobel", "prewitt",
           "laplace", "generic_laplace", "generic_gradient_magnitude", "gaussian_laplace",
           "gaussian_gradient_magnitude",
           "minimum_filter1d", "maximum_filter1d", "minimum_filter", "maximum_filter",
           "rank_filter", "median_filter", "percentile_filter", "grey_erosion",
           "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
           "morphological_laplace", "white_tophat", "black_tophat",
           "fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift",
           "sum_labels", "sum", "mean", "variance", "standard_deviation", "minimum",
           "maximum", "median", "center_of_mass", "extrema", "minimum_position",
           "maximum_position", "histogram"]

_MODES = ("constant", "nearest", "wrap", "grid-wrap", "mirror", "reflect", "grid-mirror")


def _into_range(c, n, mode):
    """``c`` mapped into the input's range along an axis of length ``n``."""
    if mode in ("nearest", "constant") or n == 1:
        return fnp.clip(c, 0.0, n - 1.0)
    if mode == "wrap":
        # period n - 1, where the ends overlap: SciPy takes the last sample for a multiple
        # of the period below the range (and n - 1 itself), the first above it
        p = n - 1.0
        above = c - p * fnp.floor(c / p)
        below = c - p * fnp.ceil(c / p) + p
        return fnp.where(c < 0, below, fnp.where(c <= p, c, above))
    if mode == "grid-wrap":
        return c - n * fnp.floor(c / n)
    if mode == "mirror":  # period 2(n - 1), about 0 and n - 1
        period = 2.0 * (n - 1)
        u = c - period * fnp.floor(c / period)
        return fnp.where(u > n - 1.0, period - u, u)
    period = 2.0 * n  # reflect: about -1/2 and n - 1/2
    u = c + 0.5 - period * fnp.floor((c + 0.5) / period)
    return fnp.clip(fnp.where(u > n, period - u, u) - 0.5, 0.0, n - 1.0)


def _neighbours(c, n, mode, order):
    """``[(index, weight)]`` along one axis (weights ``None`` for nearest-neighbour)."""
    if order == 0 and mode == "grid-wrap":  # (rounded, then wrapped: period n)
        return [(fnp.astype(fnp.floor(c + 0.5), np.int64) % n, None)]
    u = _into_range(c, n, mode)
    if order == 0:
        index = fnp.clip(fnp.floor(u + 0.5), 0.0, n - 1.0)
        return [(fnp.astype(index, np.int64), None)]
    low = fnp.floor(u)
    w = u - low
    low_i = fnp.astype(low, np.int64)
    high_i = (low_i + 1) % n if mode == "grid-wrap" else fnp.minimum(low_i + 1, n - 1)
    return [(fnp.minimum(low_i, n - 1), 1.0 - w), (high_i, w)]


def map_coordinates(input: ArrayLike,  # noqa: A002 - SciPy's name
                    coordinates: ArrayLike, output: None = None,
                    order: int = 3, mode: str = "constant", cval: float = 0.0,
                    prefilter: bool = True) -> Array:
    """``input`` interpolated at ``coordinates`` (one array of points per axis of
    ``input``, stacked on the first axis), as ``scipy.ndimage.map_coordinates`` with
    ``order`` 0 or 1 and ``mode`` one of ``'constant'``, ``'nearest'``, ``'wrap'``,
    ``'grid-wrap'``, ``'mirror'``, ``'reflect'``, ``'grid-mirror'``.  Differentiable in
    ``input`` and (``order=1``) in ``coordinates``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> image = np.arange(12.0).reshape(3, 4)
    >>> fnd.map_coordinates(image, [[0.5, 2.0], [1.5, 3.0]], order=1)
    array([ 3.5, 11. ])
    >>> float(fg.grad(lambda r: fnd.map_coordinates(image, [[r], [1.0]], order=1)[0])(0.3))
    4.0
    """
    if output is not None:
        raise TypeError("map_coordinates(..., output=...) would write into an array, but "
                        "funcgrad's results are new arrays: use the returned value")
    if order not in (0, 1):
        raise NotImplementedError(f"map_coordinates: order={order!r} (a spline) is not "
                                  f"implemented; pass order=1 (linear) or order=0 (nearest)")
    if mode not in _MODES:
        raise NotImplementedError(f"map_coordinates: mode={mode!r} is not implemented; pass "
                                  f"one of {_MODES}")
    image = asarray(input)
    coords = (fnp.stack([fnp.asarray(c) for c in coordinates])
              if isinstance(coordinates, (list, tuple)) else asarray(coordinates))
    if coords.ndim == 0 or coords.shape[0] != image.ndim:
        raise ValueError(f"map_coordinates: coordinates must hold one array per axis of "
                         f"input ({image.ndim}), stacked on the first axis; got shape "
                         f"{tuple(coords.shape)}")
    if image.dtype.kind in "biu":
        image = fnp.astype(image, np.float64)
    real = np.float32 if image.dtype in (np.float32, np.complex64) else np.float64
    if coords.dtype.kind != "f":
        coords = fnp.astype(coords, real)
    flat = fnp.reshape(image, (-1,))
    strides = [int(np.prod(image.shape[d + 1:])) for d in range(image.ndim)]
    per_axis = [_neighbours(coords[d], image.shape[d], mode, order) for d in range(image.ndim)]
    out: Array = None  # type: ignore[assignment]  # (set by the first corner)
    for corner in itertools.product(*per_axis):
        linear = builtins.sum(index * stride for (index, _), stride in zip(corner, strides))
        term = fnp.take(flat, linear)
        for _, weight in corner:
            if weight is not None:
                term = term * fnp.astype(weight, real)
        out = term if out is None else out + term
    if mode == "constant":
        inside = None
        for d in range(image.ndim):
            ok = fnp.logical_and(coords[d] >= 0, coords[d] <= image.shape[d] - 1)
            inside = ok if inside is None else fnp.logical_and(inside, ok)
        out = fnp.where(inside, out, fnp.astype(fnp.asarray(cval), out.dtype))
    return out
