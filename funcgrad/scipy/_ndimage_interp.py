"""Interpolation of ``funcgrad.scipy.ndimage``: ``map_coordinates`` (spline orders 0-5),
and the transforms that make its coordinates: ``shift``, ``zoom``, ``affine_transform``,
``rotate`` and ``geometric_transform``, as SciPy's, differentiable in the input, the
coordinates (orders >= 1) and the continuous parameters (shift, matrix and offset,
angle, ``cval``).

Each coordinate is first brought into the input's range as SciPy's ``mode`` says
(``'nearest'`` clamps, ``'wrap'`` has period ``n - 1``, ``'grid-wrap'`` period ``n``,
``'mirror'`` reflects about the end samples, ``'reflect'``/``'grid-mirror'`` about the
ends' outer edges); under ``'constant'`` a point outside ``[0, n - 1]`` along any axis
is ``cval``, and ``'grid-constant'`` interpolates between the samples and ``cval``
past the ends.  Orders 0 and 1 weigh the nearest one or two samples per axis (order 0
rounds halves up; at an exact half-way point beyond the ends SciPy's choice of neighbour
varies by mode, and there it may differ); orders 2-5 weigh ``order + 1`` B-spline
coefficients per axis (:mod:`._ndimage_spline`; ``prefilter=True`` computes them from
the samples, after padding 12 samples for 'nearest' and 'grid-constant' as SciPy does).
Order 0 is a step function: its derivative in the coordinates is zero; order 1's at a
grid point is one-sided, as a kink's.  An interpolated point costs ``(order + 1)**ndim``
gathers.
"""
import builtins
import itertools
import numbers
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from . import _ndimage_spline as _spline

__all__ = ["map_coordinates", "shift", "zoom", "affine_transform", "rotate",
           "geometric_transform"]

_MODES = ("constant", "nearest", "wrap", "grid-wrap", "mirror", "reflect", "grid-mirror",
          "grid-constant")


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



_SELF_EXTENDING = ("mirror", "reflect", "grid-mirror", "grid-wrap", "nearest")
_SPLINE_PAD = 12  # (SciPy's padding before the prefilter for 'nearest' and 'grid-constant')


def _check(name, order, mode, output):
    if output is not None and not isinstance(output, (type, np.dtype, str)):
        raise TypeError(f"{name}(..., output=array) would write into an array, but "
                        f"funcgrad's results are new arrays: use the returned value")
    if not isinstance(order, numbers.Integral) or not 0 <= order <= 5:
        raise RuntimeError(f"{name}: spline order {order!r} not supported: pass an integer "
                           f"from 0 to 5")
    if mode not in _MODES:
        raise RuntimeError(f"{name}: boundary mode {mode!r} not supported: pass one of "
                           f"{_MODES}")


def _image(x, output):
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    if output is not None:
        dtype = np.dtype(output)
        x = fnp.astype(x, np.promote_types(dtype, np.complex64) if x.dtype.kind == "c"
                       and dtype.kind != "c" else dtype)
    return x


@internal  # (grids, masks and paddings follow the data to its device)
def _pad_axes(x, axes, width, how, cval):
    pads = [(0, 0)] * x.ndim
    for ax in axes:
        pads[ax] = (width, width)
    if how == "edge":
        return fnp.pad(x, pads, mode="edge")
    inside = np.pad(np.ones(x.shape, bool), pads)
    return fnp.where(inside, fnp.pad(x, pads), fnp.astype(fnp.asarray(cval), x.dtype))


@internal  # (grids, masks and paddings follow the data to its device)
def _interpolate(image, coords, order, mode, cval, prefilter, batch=0):
    """``image`` (its first ``batch`` axes carried along) at ``coords`` (one array per
    other axis, stacked on the first axis): the sum over the neighbours of each point."""
    axes = list(range(batch, image.ndim))
    shape = [image.shape[ax] for ax in axes]
    real = np.float32 if image.dtype in (np.float32, np.complex64) else np.float64
    pad = 0
    if mode == "grid-constant":  # (samples and cval, interpolated: cval padded)
        pad = _SPLINE_PAD if order > 1 else 1
        image = _pad_axes(image, axes, pad, "constant", cval)
    elif mode == "nearest" and order > 1 and prefilter:
        pad = _SPLINE_PAD
        image = _pad_axes(image, axes, pad, "edge", cval)
    if order > 1 and prefilter:
        for ax in axes:
            image = _spline.filter_axis(image, order, ax, mode)
    per_axis = []
    for d, (n, ax) in enumerate(zip(shape, axes)):
        c = coords[d]
        if mode == "grid-constant":
            u = fnp.clip(c + pad, 0.0, n + 2.0 * pad - 1)
            per_axis.append(_spline.neighbours(u, n + 2 * pad, order, "mirror") if order > 1
                            else _neighbours(u, n + 2 * pad, "nearest", order))
        elif order > 1:
            # (a spline on coefficients extended symmetrically, periodically or by the end
            # one is itself extended so: the coordinate needs no folding)
            u = (c if mode in _SELF_EXTENDING else _into_range(c, n, mode)) + pad
            per_axis.append(_spline.neighbours(u, n + 2 * pad, order,
                                               _spline.COEFFICIENT_EXTENSION[mode]))
        else:
            per_axis.append(_neighbours(c, n, mode, order))
    padded = [image.shape[ax] for ax in axes]
    flat = fnp.reshape(image, tuple(image.shape[:batch]) + (-1,))
    strides = [int(np.prod(padded[d + 1:])) for d in range(len(padded))]
    out: Any = None  # (set by the first corner)
    for corner in itertools.product(*per_axis):
        linear = builtins.sum(index * stride for (index, _), stride in zip(corner, strides))
        term = fnp.take(flat, linear, axis=batch)
        for _, weight in corner:
            if weight is not None:
                term = term * fnp.astype(weight, real)
        out = term if out is None else out + term
    if mode == "constant":
        inside = None
        for d, n in enumerate(shape):
            ok = fnp.logical_and(coords[d] >= 0, coords[d] <= n - 1)
            inside = ok if inside is None else fnp.logical_and(inside, ok)
        out = fnp.where(inside, out, fnp.astype(fnp.asarray(cval), out.dtype))
    return out


def map_coordinates(input: ArrayLike,  # noqa: A002 - SciPy's name
                    coordinates: ArrayLike, output: Any = None,
                    order: int = 3, mode: str = "constant", cval: float = 0.0,
                    prefilter: bool = True) -> Array:
    """``input`` interpolated at ``coordinates`` (one array of points per axis of
    ``input``, stacked on the first axis), as ``scipy.ndimage.map_coordinates``: a spline
    of ``order`` 0-5, ``mode`` one of 'constant', 'grid-constant', 'nearest', 'wrap',
    'grid-wrap', 'mirror', 'reflect', 'grid-mirror'; ``prefilter=False`` takes ``input``
    as spline coefficients already (:func:`spline_filter`).  Differentiable in ``input``,
    ``cval`` and (orders >= 1) ``coordinates``.  ``output`` may be a dtype.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> image = np.arange(12.0).reshape(3, 4)
    >>> fnd.map_coordinates(image, [[0.5, 2.0], [1.5, 3.0]], order=1)
    array([ 3.5, 11. ])
    >>> float(fg.grad(lambda r: fnd.map_coordinates(image, [[r], [1.0]], order=1)[0])(0.3))
    4.0
    >>> np.round(fnd.map_coordinates(np.array([0.0, 1.0, 8.0, 27.0]), [[1.5]]), 4)
    array([2.25])
    """
    _check("map_coordinates", order, mode, output)
    image = _image(asarray(input), output)
    coords = (fnp.stack([fnp.asarray(c) for c in coordinates])
              if isinstance(coordinates, (list, tuple)) else asarray(coordinates))
    if coords.dtype.kind == "c":
        raise TypeError("map_coordinates: complex coordinates are not supported")
    if image.ndim < 1 or coords.ndim < 2:
        raise RuntimeError("map_coordinates: input and output rank must be > 0 (coordinates "
                           "hold one array of points per axis, stacked on the first axis)")
    if coords.shape[0] != image.ndim:
        raise RuntimeError(f"map_coordinates: invalid shape for coordinate array: it must "
                           f"hold one array per axis of input ({image.ndim}), stacked on "
                           f"the first axis; got shape {tuple(coords.shape)}")
    if coords.dtype.kind != "f":
        coords = fnp.astype(coords, np.float64)
    return _interpolate(image, coords, int(order), mode, cval, prefilter)


def _grid(shape):
    """The output's index coordinates, float64 arrays of ``shape``."""
    return [np.broadcast_to(np.arange(n, dtype=np.float64).reshape(
        [n if d == i else 1 for d in range(len(shape))]), shape) for i, n in enumerate(shape)]


def _known(name, value, what):
    return concrete_values(value, f"{name}'s {what}", f"Pass {what} as known numbers.")


@internal  # (grids, masks and paddings follow the data to its device)
def shift(input: ArrayLike, shift: Union[float, Sequence[float], ArrayLike],
          output: Any = None, order: int = 3, mode: str = "constant", cval: float = 0.0,
          prefilter: bool = True) -> Array:
    """``input`` shifted by ``shift`` samples (one value or one per axis) and
    interpolated by a spline of ``order`` (``scipy.ndimage.shift``): ``out[i] =
    input(i - shift)``.  Differentiable in ``input``, ``cval`` and (orders >= 1)
    ``shift``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> fnd.shift(np.array([0.0, 1.0, 4.0, 9.0]), 1.0, order=1)
    array([0., 0., 1., 4.])
    >>> float(fg.grad(lambda s: fnd.shift(np.array([0.0, 1.0, 4.0, 9.0]), s, order=1)[2])(0.5))
    -3.0
    """
    _check("shift", order, mode, output)
    image = _image(asarray(input), output)
    if image.ndim < 1:
        raise RuntimeError("shift: input and output rank must be > 0")
    shifts = _per_axis_values("shift", "shift", shift, image.ndim)
    grid = _grid(image.shape)
    coords = fnp.stack([g - s for g, s in zip(grid, shifts)])
    return _interpolate(image, coords, int(order), mode, cval, prefilter)


def _per_axis_values(name, what, value, n):
    if isinstance(value, (list, tuple)) or getattr(value, "ndim", 0) >= 1:
        values = [value[i] for i in range(len(value))] if isinstance(value, (list, tuple)) \
            else [value[i] for i in range(value.shape[0])]
        if len(values) != n:
            raise RuntimeError(f"{name}: {what} has {len(values)} entries for an input of {n} "
                               f"dimensions: give one value or one per axis")
        return values
    return [value] * n


@internal  # (grids, masks and paddings follow the data to its device)
def zoom(input: ArrayLike, zoom: Union[float, Sequence[float]], output: Any = None,
         order: int = 3, mode: str = "constant", cval: float = 0.0, prefilter: bool = True,
         *, grid_mode: bool = False) -> Array:
    """``input`` resampled to ``round(shape * zoom)`` samples per axis by a spline of
    ``order`` (``scipy.ndimage.zoom``): the output's first and last samples at the
    input's (``grid_mode=True``: the pixels' outer edges aligned).  As SciPy's, ``zoom``
    decides only the output's shape (the step is recomputed from the shapes), so the
    result is differentiable in ``input`` and ``cval`` and piecewise constant in
    ``zoom``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.zoom(np.array([0.0, 2.0, 4.0]), 5 / 3, order=1)
    array([0., 1., 2., 3., 4.])
    """
    _check("zoom", order, mode, output)
    image = _image(asarray(input), output)
    if image.ndim < 1:
        raise RuntimeError("zoom: input and output rank must be > 0")
    zooms = [float(z) for z in _per_axis_values("zoom", "zoom",
                                                  _known("zoom", zoom, "zoom"), image.ndim)]
    out_shape = tuple(int(round(n * z)) for n, z in zip(image.shape, zooms))
    if all(z == 1 for z in zooms) and prefilter:
        return image
    coords = []
    for g, n_in, n_out in zip(_grid(out_shape), image.shape, out_shape):
        if grid_mode:
            step = n_in / n_out if n_out else 1.0
            coords.append((g + 0.5) * step - 0.5)
        else:
            step = (n_in - 1) / (n_out - 1) if n_out > 1 else 1.0
            coords.append(g * step)
    return _interpolate(image, np.stack(coords) if coords else np.zeros((0,) + out_shape),
                        int(order), mode, cval, prefilter)


@internal  # (grids, masks and paddings follow the data to its device)
def affine_transform(input: ArrayLike, matrix: ArrayLike, offset: Union[float, ArrayLike] = 0.0,
                     output_shape: Optional[Sequence[int]] = None, output: Any = None,
                     order: int = 3, mode: str = "constant", cval: float = 0.0,
                     prefilter: bool = True) -> Array:
    """``input`` at ``matrix @ o + offset`` for each output index ``o``
    (``scipy.ndimage.affine_transform``): ``matrix`` is square (ndim x ndim), a diagonal
    given as a vector, ndim x (ndim + 1) with the offset as its last column, or
    homogeneous (ndim + 1) x (ndim + 1).  Differentiable in ``input``, ``cval`` and
    (orders >= 1) ``matrix`` and ``offset``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.affine_transform(np.arange(4.0), [0.5], offset=1.0, order=1)
    array([1. , 1.5, 2. , 2.5])
    """
    _check("affine_transform", order, mode, output)
    image = _image(asarray(input), output)
    out_shape = tuple(image.shape if output_shape is None else output_shape)
    if image.ndim < 1 or len(out_shape) < 1:
        raise RuntimeError("affine_transform: input and output rank must be > 0")
    m = asarray(matrix)
    if m.dtype.kind not in "f":
        m = fnp.astype(m, np.float64)
    ndim = image.ndim
    if m.ndim not in (1, 2) or m.shape[0] < 1:
        raise RuntimeError("affine_transform: no proper affine matrix provided")
    if m.ndim == 2 and m.shape[1] == ndim + 1 and m.shape[0] in (ndim, ndim + 1):
        if m.shape[0] == ndim + 1:
            bottom = _known("affine_transform", m[ndim], "the matrix's bottom row")
            if not np.all(bottom == [0] * ndim + [1]):
                raise ValueError(f"affine_transform: expected a homogeneous transformation "
                                 f"matrix of shape {tuple(m.shape)} for an image of shape "
                                 f"{tuple(image.shape)}, but its bottom row is not "
                                 f"{[0] * ndim + [1]}")
        offset = m[:ndim, ndim]
        m = m[:ndim, :ndim]
    if m.shape[0] != ndim:
        raise RuntimeError("affine_transform: affine matrix has wrong number of rows")
    if m.ndim == 2 and m.shape[1] != len(out_shape):
        raise RuntimeError("affine_transform: affine matrix has wrong number of columns")
    offsets = _per_axis_values("affine_transform", "offset", offset, ndim)
    grid = _grid(out_shape)
    if m.ndim == 1:
        if len(out_shape) != ndim:
            raise RuntimeError("affine_transform: a diagonal matrix needs an output of the "
                               "input's rank")
        # (SciPy's zoom_shift: (o + offset / m) * m)
        coords = [(g + o / m[d]) * m[d] for d, (g, o) in enumerate(zip(grid, offsets))]
    else:
        coords = []
        for d in range(ndim):
            row = offsets[d] + 0.0 * m[d, 0]
            for k, g in enumerate(grid):
                row = row + g * m[d, k]
            coords.append(row)
    return _interpolate(image, fnp.stack(coords), int(order), mode, cval, prefilter)


def _cos_sin_degrees(angle):
    """``cos`` and ``sin`` of ``angle`` degrees; for a plain number exact at multiples of
    90 (as SciPy's ``cosdg``/``sindg``), else funcgrad operations (differentiable)."""
    if isinstance(angle, (numbers.Real, np.number)):
        value = float(angle)
        if value % 90.0 == 0.0:
            return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(value // 90.0) % 4]
        return np.cos(np.deg2rad(value)), np.sin(np.deg2rad(value))
    radians = fnp.deg2rad(asarray(angle))
    return fnp.cos(radians), fnp.sin(radians)


@internal  # (grids, masks and paddings follow the data to its device)
def rotate(input: ArrayLike, angle: Union[float, ArrayLike], axes: Sequence[int] = (1, 0),
           reshape: bool = True, output: Any = None, order: int = 3, mode: str = "constant",
           cval: float = 0.0, prefilter: bool = True) -> Array:
    """``input`` rotated by ``angle`` degrees in the plane of ``axes``
    (``scipy.ndimage.rotate``), about its centre; ``reshape=True`` grows the output to
    hold the whole rotated input (the shape read from the angle's value).
    Differentiable in ``input``, ``cval`` and (orders >= 1) ``angle``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.rotate(np.array([[0.0, 1.0], [2.0, 3.0]]), 90, order=1)
    array([[1., 3.],
           [0., 2.]])
    """
    _check("rotate", order, mode, output)
    image = _image(asarray(input), output)
    ndim = image.ndim
    if ndim < 2:
        raise ValueError("rotate: input array should be at least 2D")
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError("rotate: axes should contain exactly two values")
    if not all(isinstance(ax, numbers.Integral) for ax in axes):
        raise ValueError("rotate: axes should contain only integer values")
    axes = [ax + ndim if ax < 0 else ax for ax in axes]
    if not all(0 <= ax < ndim for ax in axes) or axes[0] == axes[1]:
        raise ValueError("rotate: invalid rotation plane specified")
    axes.sort()
    c, s = _cos_sin_degrees(angle)
    in_plane = np.array([image.shape[ax] for ax in axes])
    if reshape:
        fix = "Pass reshape=False: the output's shape then does not depend on the angle."
        cv = float(concrete_values(c, "rotate's output shape (reshape=True)", fix))
        sv = float(concrete_values(s, "rotate's output shape (reshape=True)", fix))
        corners = np.array([[cv, sv], [-sv, cv]]) @ [[0, 0, in_plane[0], in_plane[0]],
                                                     [0, in_plane[1], 0, in_plane[1]]]
        out_plane = (np.ptp(corners, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane
    out_centre = (out_plane - 1) / 2.0
    in_centre = (in_plane - 1) / 2.0
    # (offset = in_centre - R @ out_centre, R = [[c, s], [-s, c]])
    offset = [in_centre[0] - (c * out_centre[0] + s * out_centre[1]),
              in_centre[1] - (-s * out_centre[0] + c * out_centre[1])]
    grid = _grid(tuple(out_plane))
    coords = fnp.stack([offset[0] + c * grid[0] + s * grid[1],
                        offset[1] - s * grid[0] + c * grid[1]])
    others = [ax for ax in range(ndim) if ax not in axes]
    moved = fnp.moveaxis(image, axes, [ndim - 2, ndim - 1])  # (other axes: a batch)
    out = _interpolate(moved, coords, int(order), mode, cval, prefilter, batch=len(others))
    return fnp.moveaxis(out, [ndim - 2, ndim - 1], axes)


@internal  # (grids, masks and paddings follow the data to its device)
def geometric_transform(input: ArrayLike, mapping: Callable[..., Any],
                        output_shape: Optional[Sequence[int]] = None, output: Any = None,
                        order: int = 3, mode: str = "constant", cval: float = 0.0,
                        prefilter: bool = True, extra_arguments: Sequence[Any] = (),
                        extra_keywords: Optional[dict] = None) -> Array:
    """``input`` at ``mapping(o, *extra_arguments, **extra_keywords)`` for each output
    index tuple ``o`` (``scipy.ndimage.geometric_transform``), called once per output
    point as SciPy does (for many points, :func:`map_coordinates` with arrays of
    coordinates is faster).  Differentiable in ``input``, ``cval`` and (orders >= 1)
    what ``mapping`` computes from.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.geometric_transform(np.arange(4.0), lambda o: (o[0] - 0.5,), order=1)
    array([0. , 0.5, 1.5, 2.5])
    """
    _check("geometric_transform", order, mode, output)
    image = _image(asarray(input), output)
    out_shape = tuple(image.shape if output_shape is None else output_shape)
    if image.ndim < 1 or len(out_shape) < 1:
        raise RuntimeError("geometric_transform: input and output rank must be > 0")
    keywords = extra_keywords or {}
    points = []
    for o in np.ndindex(*out_shape):
        mapped = mapping(o, *extra_arguments, **keywords)
        if len(mapped) != image.ndim:
            raise RuntimeError(f"geometric_transform: mapping returned {len(mapped)} "
                               f"coordinates for an input of {image.ndim} dimensions")
        points.append(fnp.stack([fnp.asarray(v) for v in mapped]))
    coords = fnp.reshape(fnp.stack(points, axis=1), (image.ndim,) + out_shape)
    if coords.dtype.kind != "f":
        coords = fnp.astype(coords, np.float64)
    return _interpolate(image, coords, int(order), mode, cval, prefilter)
