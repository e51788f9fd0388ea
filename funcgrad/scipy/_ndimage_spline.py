"""B-spline interpolation for ``funcgrad.scipy.ndimage``: ``spline_filter1d`` and
``spline_filter`` (the prefilter that turns samples into B-spline coefficients), and the
per-axis neighbours and weights that ``map_coordinates`` sums for spline orders 2-5.

The coefficients ``c`` of an order-``p`` spline through samples ``x`` solve
``sum_k b(k) c[i + k] = x[i]`` (``b``: the centred B-spline sampled at the integers),
with ``c`` extended past the ends as the samples are: whole-sample symmetric ('mirror',
and SciPy uses it for 'constant', 'grid-constant' and 'wrap'), half-sample symmetric
('reflect', 'grid-mirror', 'nearest'), or periodic ('grid-wrap').  The half-sample
symmetric start here is the exact one, so the spline passes through the samples: SciPy
1.17's sums in place and its last term reads the partial sum (fixed upstream, scipy PR
24615), which moves its coefficients by up to ~1e-4 on lines under ~17 samples; there
the two differ, by design.  SciPy runs recursive
filters, one causal and one anticausal pass per pole; that linear map is built here once
per axis length as a matrix (from the identity's columns) and applied by a product, so
it is differentiable and equal to SciPy's to rounding, at ``n**2`` per line of length
``n``.
"""
import functools
import math
import numbers
import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["spline_filter1d", "spline_filter"]

# how the samples extend past the ends for the prefilter, per mode (SciPy's)
SPLINE_EXTENSION = {"mirror": "mirror", "constant": "mirror", "grid-constant": "mirror",
                    "wrap": "mirror", "reflect": "reflect", "grid-mirror": "reflect",
                    "nearest": "reflect", "grid-wrap": "periodic"}
# and how the coefficients extend when interpolated ('nearest': the end coefficient)
COEFFICIENT_EXTENSION = dict(SPLINE_EXTENSION, nearest="edge")


def bspline(x, order):
    """The centred cardinal B-spline of ``order`` at ``x`` (funcgrad operations): the
    truncated-power sum ``sum_k (-1)^k C(p+1, k) (x + (p+1)/2 - k)_+^p / p!``."""
    total = 0.0
    for k in range(order + 2):
        shifted = x + (order + 1) / 2.0 - k
        power = fnp.where(shifted > 0, fnp.where(shifted > 0, shifted, 0.0) ** order, 0.0)
        total = total + (-1) ** k * math.comb(order + 1, k) * power
    return total / math.factorial(order)


def _bspline_numpy(x, order):
    x = np.asarray(x, np.float64)
    return sum((-1) ** k * math.comb(order + 1, k) * np.maximum(x + (order + 1) / 2.0 - k, 0.0)
               ** order for k in range(order + 2)) / math.factorial(order)


def extend_index(i, n, extension):
    """Integer indices ``i`` (NumPy or funcgrad) folded into ``[0, n)``."""
    if n == 1:
        return i * 0
    if extension == "edge":
        return fnp.clip(i, 0, n - 1)
    if extension == "periodic":
        return i % n
    if extension == "mirror":  # period 2n - 2, about 0 and n - 1
        j = i % (2 * n - 2)
        return fnp.where(j >= n, 2 * n - 2 - j, j)
    j = i % (2 * n)  # reflect: period 2n, about -1/2 and n - 1/2
    return fnp.where(j >= n, 2 * n - 1 - j, j)


# the poles of the B-spline prefilters, as roots of their sampled B-splines
_POLES = {2: [math.sqrt(8.0) - 3.0], 3: [math.sqrt(3.0) - 2.0],
          4: [math.sqrt(664.0 - math.sqrt(438976.0)) + math.sqrt(304.0) - 19.0,
              math.sqrt(664.0 + math.sqrt(438976.0)) - math.sqrt(304.0) - 19.0],
          5: [math.sqrt(67.5 - math.sqrt(4436.25)) + math.sqrt(26.25) - 6.5,
              math.sqrt(67.5 + math.sqrt(4436.25)) - math.sqrt(26.25) - 6.5]}


def _first_causal(c, z, extension):
    """The causal pass's first value, from the samples' extension (the columns of ``c``
    are independent signals)."""
    n = c.shape[0]
    powers = z ** np.arange(n, dtype=np.float64)
    if extension == "periodic":  # c0 + sum z^i c[n - i], the geometric tail closed
        return (c[0] + powers[1:] @ c[:0:-1]) / (1.0 - z ** n)
    if extension == "mirror":  # about the end samples: period 2n - 2
        zn1 = z ** (n - 1)
        tail = c[0] + zn1 * c[n - 1] + powers[1:n - 1] @ (c[1:n - 1] + zn1 * c[n - 2:0:-1])
        return tail / (1.0 - zn1 * zn1)
    zn = z ** n  # reflect: about the ends' outer edges, period 2n (SciPy's start)
    tail = c[0] + zn * c[n - 1] + powers[1:] @ (c[1:] + zn * c[n - 2::-1])
    return c[0] + tail * z / (1.0 - zn * zn)


def _last_anticausal(c, z, extension):
    n = c.shape[0]
    if extension == "periodic":
        powers = z ** np.arange(1, n, dtype=np.float64)
        return (c[n - 1] + powers @ c[:n - 1]) * z / (z ** n - 1.0)
    if extension == "mirror":
        return (z * c[n - 2] + c[n - 1]) * z / (z * z - 1.0)
    return c[n - 1] * z / (z - 1.0)


@functools.lru_cache(maxsize=64)
def _prefilter_matrix(n, order, extension):
    """SciPy's prefilter as a matrix: its gain and, per pole, a causal and an
    anticausal first-order recursion (started from the signal's extension), run on the
    columns of the identity; coefficients = this @ samples."""
    c = np.eye(n)
    gain = 1.0
    for z in _POLES[order]:
        gain *= (1.0 - z) * (1.0 - 1.0 / z)
    c *= gain
    for z in _POLES[order]:
        c[0] = _first_causal(c, z, extension)
        for i in range(1, n):
            c[i] += z * c[i - 1]
        c[n - 1] = _last_anticausal(c, z, extension)
        for i in range(n - 2, -1, -1):
            c[i] = z * (c[i + 1] - c[i])
    c.setflags(write=False)
    return c


def _check_order(name, order, low):
    if not isinstance(order, numbers.Integral) or not low <= order <= 5:
        raise RuntimeError(f"{name}: spline order {order!r} not supported: pass an integer "
                           f"from {low} to 5")
    return int(order)


def _output_dtype(name, x, output):
    if output is None:
        output = np.float64
    if not isinstance(output, (type, np.dtype, str)):
        raise TypeError(f"{name}(..., output=array) would write into an array, but "
                        f"funcgrad's results are new arrays: pass a dtype (or nothing) and "
                        f"use the returned value")
    dtype = np.dtype(output)
    if x.dtype.kind == "c" and dtype.kind != "c":
        dtype = np.promote_types(dtype, np.complex64)
    return dtype


@internal  # (its matrices and index folds follow the data to its device)
def filter_axis(x, order, axis, mode):
    """``x``'s B-spline coefficients along ``axis`` (a float or complex funcgrad array)."""
    n = x.shape[axis]
    if order < 2 or n <= 1:
        return x
    matrix = _prefilter_matrix(n, order, SPLINE_EXTENSION[mode])
    moved = fnp.moveaxis(x, axis, -1)
    out = fnp.matmul(moved, fnp.astype(np.ascontiguousarray(matrix.T), _real(x.dtype)))
    return fnp.moveaxis(out, -1, axis)


def _real(dtype):
    return np.float32 if dtype in (np.float32, np.complex64) else np.float64


def _check_mode(name, mode):
    if mode not in SPLINE_EXTENSION:
        raise RuntimeError(f"{name}: boundary mode {mode!r} not supported: pass one of "
                           f"{tuple(SPLINE_EXTENSION)}")


def spline_filter1d(input: ArrayLike, order: int = 3, axis: int = -1,
                    output: DTypeLike = np.float64, mode: str = "mirror") -> Array:
    """The B-spline coefficients of ``order`` (0-5) along ``axis``
    (``scipy.ndimage.spline_filter1d``): what ``map_coordinates(..., prefilter=False)``
    interpolates to pass through the samples; orders 0 and 1 return the input.  The
    result has dtype ``output`` (float64 by default; complex inputs stay complex).
    Differentiable in ``input``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> np.round(fnd.spline_filter1d(np.array([0.0, 0.0, 6.0, 0.0, 0.0])), 4)
    array([ 1.5, -3. , 10.5, -3. ,  1.5])
    """
    order = _check_order("spline_filter1d", order, 0)
    _check_mode("spline_filter1d", mode)
    x = asarray(input)
    dtype = _output_dtype("spline_filter1d", x, output)
    x = fnp.astype(x, dtype)
    if x.ndim == 0:
        return x
    if not isinstance(axis, numbers.Integral) or not -x.ndim <= axis < x.ndim:
        raise ValueError(f"spline_filter1d: axis {axis!r} is out of range for an input of "
                         f"{x.ndim} dimensions")
    return filter_axis(x, order, int(axis) % x.ndim, mode)


def spline_filter(input: ArrayLike, order: int = 3, output: DTypeLike = np.float64,
                  mode: str = "mirror") -> Array:
    """The multidimensional B-spline coefficients of ``order`` (2-5)
    (``scipy.ndimage.spline_filter``): :func:`spline_filter1d` along every axis.
    Differentiable in ``input``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> np.round(fnd.spline_filter(np.eye(3)), 4)
    array([[ 4.125, -3.   ,  1.875],
           [-3.   ,  4.5  , -3.   ],
           [ 1.875, -3.   ,  4.125]])
    """
    order = _check_order("spline_filter", order, 2)
    _check_mode("spline_filter", mode)
    x = asarray(input)
    x = fnp.astype(x, _output_dtype("spline_filter", x, output))
    for axis in range(x.ndim):
        x = filter_axis(x, order, axis, mode)
    return x


@internal  # (its matrices and index folds follow the data to its device)
def neighbours(u, n, order, extension):
    """``[(index, weight)]`` of the ``order + 1`` coefficients around ``u`` (in ``[0, n)``
    or past it), indices folded as ``extension`` says."""
    if order & 1:
        start = fnp.floor(u) - order // 2
    else:
        start = fnp.floor(u + 0.5) - order // 2
    start_i = fnp.astype(start, np.int64)
    out = []
    for step in range(order + 1):
        weight = bspline(u - (start + step), order)
        out.append((extend_index(start_i + step, n, extension), weight))
    return out

