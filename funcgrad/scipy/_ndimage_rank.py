"""Order-statistic filters of ``funcgrad.scipy.ndimage``: ``minimum_filter(1d)``,
``maximum_filter(1d)``, ``rank_filter``, ``median_filter``, ``percentile_filter`` and the
grey-scale morphology built on them (``grey_erosion``, ``grey_dilation``,
``grey_opening``, ``grey_closing``, ``morphological_gradient``, ``morphological_laplace``,
``white_tophat``, ``black_tophat``).

The input is padded once as ``mode`` says, the footprint's samples of each window are
stacked on a last axis, and one of them is selected by index (``argmin``/``argmax``, or
a stable ``argsort``): the derivative of an output goes to exactly the one input sample
(or ``cval``, or ``structure`` entry) selected, as PyTorch's ``max_pool``.  Ties: a
minimum or maximum takes the first of the tied samples in the footprint's row-major
order (the lowest offset); a rank takes the sample at that place in the stable sort of
the window (equal values in footprint order).  Where samples tie the function is not
differentiable and this is the one-sided choice; elsewhere it is exact.

SciPy's argument conventions are kept: with ``axes``, ``size`` and ``origin`` follow the
axes given, while a ``footprint``/``structure`` has its dimensions in increasing order
of axis.  Integer inputs give float64 results (SciPy's keep the integer type).
"""
import numbers
import warnings
from typing import Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._ndimage_correlate import _one_axis, _origin_ok, _pad
from ._ndimage_filters import _axes, _check_mode, _per_axis

__all__ = ["minimum_filter1d", "maximum_filter1d", "minimum_filter", "maximum_filter",
           "rank_filter", "median_filter", "percentile_filter", "grey_erosion",
           "grey_dilation", "grey_opening", "grey_closing", "morphological_gradient",
           "morphological_laplace", "white_tophat", "black_tophat"]

Sizes = Union[None, int, Sequence[int]]
Axes = Union[None, int, Sequence[int]]
Modes = Union[str, Sequence[str]]


def _real_input(name, input, output):
    if output is not None:
        raise TypeError(f"{name}(..., output=...) would write into an array, but funcgrad's "
                        f"results are new arrays: use the returned value")
    x = asarray(input)
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: complex input is not supported (an order statistic needs "
                        f"ordered values): filter the real and imaginary parts apart")
    if x.dtype.kind != "f":
        x = fnp.astype(x, np.float64)
    return x


@internal  # (masks, offsets and structures follow the data to its device)
def _windows(x, footprint, origins, mode, cval):
    """The footprint's samples around each point, stacked on a new last axis (in the
    footprint's row-major order), and the footprint's offsets."""
    pads = [(f // 2 + o, f - 1 - (f // 2 + o)) for f, o in zip(footprint.shape, origins)]
    padded = _pad(x, pads, mode, cval)
    offsets = np.argwhere(footprint)
    return fnp.stack([padded[tuple(slice(k, k + n) for k, n in zip(offset, x.shape))]
                      for offset in offsets], axis=-1), offsets


def _pick(stacked, index):
    return fnp.take_along_axis(stacked, fnp.expand_dims(index, -1), axis=-1)[..., 0]


def _extreme(stacked, minimum):
    return _pick(stacked, fnp.argmin(stacked, axis=-1) if minimum
                 else fnp.argmax(stacked, axis=-1))


def _min_or_max_1d(name, input, size, axis, output, mode, cval, origin, minimum):
    _check_mode(name, mode)
    x = _real_input(name, input, output)
    if not isinstance(size, numbers.Integral) or size < 1:
        raise RuntimeError(f"{name}: incorrect filter size {size!r}: it must be a positive "
                           f"integer")
    axis = _one_axis(name, axis, x.ndim)
    origin = _origin_ok(name, origin, int(size))
    if x.size == 0 or size == 1:
        return x
    shape = [1] * x.ndim
    shape[axis] = int(size)
    origins = [0] * x.ndim
    origins[axis] = origin
    stacked, _ = _windows(x, np.ones(shape, bool), origins, mode, cval)
    return _extreme(stacked, minimum)


def minimum_filter1d(input: ArrayLike, size: int, axis: int = -1, output: None = None,
                     mode: str = "reflect", cval: float = 0.0, origin: int = 0) -> Array:
    """The minimum over windows of ``size`` samples along ``axis``
    (``scipy.ndimage.minimum_filter1d``), the ends extended as ``mode`` says.
    Differentiable in ``input`` and ``cval``: the derivative goes to the selected sample
    (the first of tied ones).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> fnd.minimum_filter1d(np.array([2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0]), 3)
    array([2., 0., 0., 0., 1., 1., 0., 0.])
    >>> fg.grad(lambda x: fnd.minimum_filter1d(x, 3)[1])(np.array([2.0, 8.0, 0.0]))
    array([0., 0., 1.])
    """
    return _min_or_max_1d("minimum_filter1d", input, size, axis, output, mode, cval,
                          origin, True)


def maximum_filter1d(input: ArrayLike, size: int, axis: int = -1, output: None = None,
                     mode: str = "reflect", cval: float = 0.0, origin: int = 0) -> Array:
    """The maximum over windows of ``size`` samples along ``axis``
    (``scipy.ndimage.maximum_filter1d``); see :func:`minimum_filter1d`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.maximum_filter1d(np.array([2.0, 8.0, 0.0, 4.0, 1.0, 9.0, 9.0, 0.0]), 3)
    array([8., 8., 8., 4., 9., 9., 9., 9.])
    """
    return _min_or_max_1d("maximum_filter1d", input, size, axis, output, mode, cval,
                          origin, False)


def _footprint_on_all_axes(name, footprint, chosen, ndim, what="footprint"):
    """SciPy's ``_expand_footprint``: size-1 dimensions inserted for the axes not
    filtered (the footprint's own dimensions are the chosen axes in increasing order)."""
    if len(chosen) < ndim:
        if footprint.ndim != len(chosen):
            raise RuntimeError(f"{name}: {what} has {footprint.ndim} dimensions but there are "
                               f"{len(chosen)} axes to filter")
        missing = tuple(ax for ax in range(ndim) if ax not in chosen)
        footprint = (np.expand_dims(footprint, missing) if isinstance(footprint, np.ndarray)
                     else fnp.expand_dims(footprint, missing))
    if footprint.ndim != ndim or 0 in footprint.shape:
        raise RuntimeError(f"{name}: {what} of shape {tuple(footprint.shape)} does not fit "
                           f"an input of {ndim} dimensions: give one non-empty dimension "
                           f"per axis filtered")
    return footprint


def _origins_on_all_axes(name, origin, chosen, ndim):
    origins = _per_axis(name, "origin", origin, len(chosen))
    full = [0] * ndim
    for o, ax in zip(origins, chosen):
        full[ax] = o
    return full


@internal  # (masks, offsets and structures follow the data to its device)
def _min_or_max(name, input, size, footprint, structure, output, mode, cval, origin,
                minimum, axes):
    """SciPy's ``_min_or_max_filter``: separable 1-d passes for a box, else one pass
    over the footprint (``structure`` subtracted for a minimum, added for a maximum)."""
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    x = _real_input(name, input, output)
    chosen = _axes(name, axes, x.ndim)
    separable = structure is None and footprint is None
    if structure is None and footprint is not None:
        footprint = np.asarray(footprint, dtype=bool)
        if not footprint.any():
            raise ValueError(f"{name}: an all-zero footprint is not supported")
        if footprint.all():
            size, footprint, separable = footprint.shape, None, True
    if separable:
        if size is None:
            raise RuntimeError(f"{name}: no footprint provided: give size= or footprint=")
        sizes = _per_axis(name, "size", size, len(chosen))
        origins = _per_axis(name, "origin", origin, len(chosen))
        modes = _per_axis(name, "mode", mode, len(chosen))
        for ax, s, o, m in zip(chosen, sizes, origins, modes):
            if s > 1:
                x = _min_or_max_1d(name, x, int(s), ax, None, m, cval, o, minimum)
        return x
    if not isinstance(mode, str):
        raise RuntimeError(f"{name}: a sequence of modes is not supported for non-separable "
                           f"footprints (or a structure): give one mode")
    _check_mode(name, mode)
    if structure is not None:
        structure = asarray(structure)
        if structure.dtype.kind not in "f":
            structure = fnp.astype(structure, np.float64)
        structure = fnp.astype(structure, x.dtype)
        footprint = (np.ones(structure.shape, bool) if footprint is None
                     else np.asarray(footprint, dtype=bool))
        if tuple(structure.shape) != footprint.shape:
            raise RuntimeError(f"{name}: structure of shape {tuple(structure.shape)} and "
                               f"footprint of shape {footprint.shape} differ")
        structure = _footprint_on_all_axes(name, structure, chosen, x.ndim, "structure")
    footprint = _footprint_on_all_axes(name, footprint, chosen, x.ndim)
    origins = _origins_on_all_axes(name, origin, chosen, x.ndim)
    for o, f in zip(origins, footprint.shape):
        _origin_ok(name, o, f)
    if x.size == 0:
        return x
    stacked, offsets = _windows(x, footprint, origins, mode, cval)
    if structure is not None:
        along = fnp.stack([structure[tuple(k)] for k in offsets])
        stacked = stacked - along if minimum else stacked + along
    return _extreme(stacked, minimum)


def minimum_filter(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                   output: None = None, mode: Modes = "reflect", cval: float = 0.0,
                   origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """The minimum over a ``size`` box or a boolean ``footprint`` around each point
    (``scipy.ndimage.minimum_filter``), over ``axes`` (default all).  Differentiable in
    ``input`` and ``cval``: the derivative goes to the selected sample (the first of tied
    ones in the footprint's order).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.minimum_filter(np.array([[3.0, 1, 4], [1, 5, 9], [2, 6, 5]]), 2)
    array([[3., 1., 1.],
           [1., 1., 1.],
           [1., 1., 5.]])
    """
    return _min_or_max("minimum_filter", input, size, footprint, None, output, mode, cval,
                       origin, True, axes)


def maximum_filter(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                   output: None = None, mode: Modes = "reflect", cval: float = 0.0,
                   origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """The maximum over a ``size`` box or a boolean ``footprint`` around each point
    (``scipy.ndimage.maximum_filter``); see :func:`minimum_filter`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.maximum_filter(np.array([[3.0, 1, 4], [1, 5, 9], [2, 6, 5]]), 2)
    array([[3., 3., 4.],
           [3., 5., 9.],
           [2., 6., 9.]])
    """
    return _min_or_max("maximum_filter", input, size, footprint, None, output, mode, cval,
                       origin, False, axes)


def _rank(name, input, rank, size, footprint, output, mode, cval, origin, operation, axes):
    """SciPy's ``_rank_filter``: the rank found from the footprint's size, then the
    minimum or maximum filter at the ends, a stable sort of each window between."""
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    x = _real_input(name, input, output)
    chosen = _axes(name, axes, x.ndim)
    if footprint is None:
        if size is None:
            raise RuntimeError(f"{name}: no footprint or filter size provided: give size= "
                               f"or footprint=")
        footprint = np.ones([int(s) for s in _per_axis(name, "size", size, len(chosen))],
                            bool)
    else:
        footprint = np.asarray(footprint, dtype=bool)
    footprint = _footprint_on_all_axes(name, footprint, chosen, x.ndim)
    origins = _origins_on_all_axes(name, origin, chosen, x.ndim)
    for o, f in zip(origins, footprint.shape):
        _origin_ok(name, o, f)
    filter_size = int(footprint.sum())
    if operation == "median":
        rank = filter_size // 2
    elif operation == "percentile":
        percentile = float(rank) + (100.0 if rank < 0 else 0.0)
        if not 0.0 <= percentile <= 100.0:
            raise RuntimeError(f"{name}: invalid percentile {rank!r}: it must lie in "
                               f"[-100, 100]")
        rank = (filter_size - 1 if percentile == 100.0
                else int(float(filter_size) * percentile / 100.0))
    if not isinstance(rank, numbers.Integral):
        raise TypeError(f"{name}: rank must be an integer, got {rank!r}")
    rank = int(rank) + (filter_size if rank < 0 else 0)
    if not 0 <= rank < filter_size:
        raise RuntimeError(f"{name}: rank not within filter footprint size "
                           f"({filter_size} samples)")
    if rank in (0, filter_size - 1):
        if not isinstance(mode, str) and len(chosen) < x.ndim:
            mode = _modes_on_all_axes(name, mode, chosen, x.ndim)
        return _min_or_max(name, x, None, footprint, None, None, mode, cval, origins,
                           rank == 0, None)
    if not isinstance(mode, str):
        raise RuntimeError(f"{name}: a sequence of modes is not supported by non-separable "
                           f"rank filters: give one mode")
    _check_mode(name, mode)
    if x.size == 0:
        return x
    stacked, _ = _windows(x, footprint, origins, mode, cval)
    order = fnp.argsort(stacked, axis=-1)
    return _pick(stacked, order[..., rank])


def _modes_on_all_axes(name, mode, chosen, ndim):
    modes = _per_axis(name, "mode", mode, len(chosen))
    full = ["constant"] * ndim
    for m, ax in zip(modes, chosen):
        full[ax] = m
    return full


def rank_filter(input: ArrayLike, rank: int, size: Sizes = None,
                footprint: Optional[ArrayLike] = None, output: None = None,
                mode: Modes = "reflect", cval: float = 0.0,
                origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """The ``rank``-th smallest sample (negative: from the largest) of a ``size`` box or a
    boolean ``footprint`` around each point (``scipy.ndimage.rank_filter``).
    Differentiable in ``input`` and ``cval``: the derivative goes to the selected sample
    (ties: the one at that place of the stable sort, equal values in footprint order).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.rank_filter(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]), 1, size=3)
    array([3., 3., 1., 4., 5., 5., 2.])
    """
    return _rank("rank_filter", input, rank, size, footprint, output, mode, cval, origin,
                 "rank", axes)


def median_filter(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                  output: None = None, mode: Modes = "reflect", cval: float = 0.0,
                  origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """The median of a ``size`` box or a boolean ``footprint`` around each point
    (``scipy.ndimage.median_filter``): for an even number of samples, the upper of the
    two middle ones (rank ``n // 2``), as SciPy's.  Differentiable as :func:`rank_filter`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.median_filter(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]), size=3)
    array([3., 3., 1., 4., 5., 5., 2.])
    """
    return _rank("median_filter", input, 0, size, footprint, output, mode, cval, origin,
                 "median", axes)


def percentile_filter(input: ArrayLike, percentile: float, size: Sizes = None,
                      footprint: Optional[ArrayLike] = None, output: None = None,
                      mode: Modes = "reflect", cval: float = 0.0,
                      origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """The sample at ``percentile`` (in [-100, 100]; negative counts from 100) of a
    ``size`` box or a boolean ``footprint`` around each point
    (``scipy.ndimage.percentile_filter``): rank ``int(n * percentile / 100)``, no
    interpolation, as SciPy's.  Differentiable as :func:`rank_filter`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.percentile_filter(np.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]), 20, size=5)
    array([1., 1., 1., 1., 2., 2., 2.])
    """
    return _rank("percentile_filter", input, percentile, size, footprint, output, mode,
                 cval, origin, "percentile", axes)


def grey_erosion(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                 structure: Optional[ArrayLike] = None, output: None = None,
                 mode: Modes = "reflect", cval: float = 0.0,
                 origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """Grey-scale erosion (``scipy.ndimage.grey_erosion``): the minimum of ``input -
    structure`` over the footprint (``size`` box, ``footprint``, or ``structure``'s
    shape).  Differentiable in ``input``, ``cval`` and ``structure``, the derivative going
    to the selected sample as :func:`minimum_filter`'s.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.grey_erosion(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), structure=[0.0, 1.0, 0.0])
    array([1., 0., 1., 0., 1.])
    """
    if size is None and footprint is None and structure is None:
        raise ValueError("grey_erosion: size, footprint, or structure must be specified")
    return _min_or_max("grey_erosion", input, size, footprint, structure, output, mode,
                       cval, origin, True, axes)


def grey_dilation(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                  structure: Optional[ArrayLike] = None, output: None = None,
                  mode: Modes = "reflect", cval: float = 0.0,
                  origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """Grey-scale dilation (``scipy.ndimage.grey_dilation``): the maximum of ``input +
    structure`` over the reflected footprint.  Differentiable as :func:`grey_erosion`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.grey_dilation(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), structure=[0.0, 1.0, 0.0])
    array([4., 4., 5., 5., 6.])
    """
    if size is None and footprint is None and structure is None:
        raise ValueError("grey_dilation: size, footprint, or structure must be specified")
    ndim = asarray(input).ndim
    if structure is not None:
        structure = asarray(structure)
        structure = structure[(slice(None, None, -1),) * structure.ndim]
    if footprint is not None:
        footprint = np.asarray(footprint)
        footprint = footprint[(slice(None, None, -1),) * footprint.ndim]
    chosen = _axes("grey_dilation", axes, ndim)
    origins = _per_axis("grey_dilation", "origin", origin, len(chosen))
    for i in range(len(origins)):
        if footprint is not None:
            extent = footprint.shape[i]
        elif structure is not None:
            extent = structure.shape[i]
        else:
            extent = _per_axis("grey_dilation", "size", size, len(chosen))[i]
        origins[i] = -origins[i] - (0 if extent & 1 else 1)
    return _min_or_max("grey_dilation", input, size, footprint, structure, output, mode,
                       cval, origins, False, axes)


def grey_opening(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                 structure: Optional[ArrayLike] = None, output: None = None,
                 mode: Modes = "reflect", cval: float = 0.0,
                 origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """Grey-scale opening (``scipy.ndimage.grey_opening``): :func:`grey_erosion`, then
    :func:`grey_dilation`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.grey_opening(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), size=2)
    array([3., 1., 1., 1., 1.])
    """
    eroded = grey_erosion(input, size, footprint, structure, output, mode, cval, origin,
                          axes=axes)
    return grey_dilation(eroded, size, footprint, structure, None, mode, cval, origin,
                         axes=axes)


def grey_closing(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                 structure: Optional[ArrayLike] = None, output: None = None,
                 mode: Modes = "reflect", cval: float = 0.0,
                 origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """Grey-scale closing (``scipy.ndimage.grey_closing``): :func:`grey_dilation`, then
    :func:`grey_erosion`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.grey_closing(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), size=2)
    array([3., 3., 4., 4., 5.])
    """
    dilated = grey_dilation(input, size, footprint, structure, output, mode, cval, origin,
                            axes=axes)
    return grey_erosion(dilated, size, footprint, structure, None, mode, cval, origin,
                        axes=axes)


def morphological_gradient(input: ArrayLike, size: Sizes = None,
                           footprint: Optional[ArrayLike] = None,
                           structure: Optional[ArrayLike] = None, output: None = None,
                           mode: Modes = "reflect", cval: float = 0.0,
                           origin: Union[int, Sequence[int]] = 0, *,
                           axes: Axes = None) -> Array:
    """:func:`grey_dilation` minus :func:`grey_erosion`
    (``scipy.ndimage.morphological_gradient``).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.morphological_gradient(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), size=3)
    array([2., 3., 3., 4., 4.])
    """
    args = (size, footprint, structure, output, mode, cval, origin)
    return grey_dilation(input, *args, axes=axes) - grey_erosion(input, *args, axes=axes)


def morphological_laplace(input: ArrayLike, size: Sizes = None,
                          footprint: Optional[ArrayLike] = None,
                          structure: Optional[ArrayLike] = None, output: None = None,
                          mode: Modes = "reflect", cval: float = 0.0,
                          origin: Union[int, Sequence[int]] = 0, *,
                          axes: Axes = None) -> Array:
    """:func:`grey_dilation` plus :func:`grey_erosion` minus twice the input
    (``scipy.ndimage.morphological_laplace``).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.morphological_laplace(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), size=3)
    array([-2.,  3., -3.,  4., -4.])
    """
    x = _real_input("morphological_laplace", input, output)
    args = (size, footprint, structure, None, mode, cval, origin)
    return grey_dilation(x, *args, axes=axes) + grey_erosion(x, *args, axes=axes) - 2 * x


def white_tophat(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                 structure: Optional[ArrayLike] = None, output: None = None,
                 mode: Modes = "reflect", cval: float = 0.0,
                 origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """The input minus its :func:`grey_opening` (``scipy.ndimage.white_tophat``).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.white_tophat(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), size=2)
    array([0., 0., 3., 0., 4.])
    """
    x = _real_input("white_tophat", input, output)
    return x - grey_opening(x, size, footprint, structure, None, mode, cval, origin,
                            axes=axes)


def black_tophat(input: ArrayLike, size: Sizes = None, footprint: Optional[ArrayLike] = None,
                 structure: Optional[ArrayLike] = None, output: None = None,
                 mode: Modes = "reflect", cval: float = 0.0,
                 origin: Union[int, Sequence[int]] = 0, *, axes: Axes = None) -> Array:
    """The :func:`grey_closing` of the input minus the input
    (``scipy.ndimage.black_tophat``).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.black_tophat(np.array([3.0, 1.0, 4.0, 1.0, 5.0]), size=2)
    array([0., 2., 0., 3., 0.])
    """
    x = _real_input("black_tophat", input, output)
    return grey_closing(x, size, footprint, structure, None, mode, cval, origin,
                        axes=axes) - x
