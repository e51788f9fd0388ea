"""Binary morphology of ``funcgrad.scipy.ndimage``: ``binary_erosion``,
``binary_dilation``, ``binary_opening``, ``binary_closing``, ``binary_propagation``,
``binary_fill_holes``, ``binary_hit_or_miss``, and the structuring-element helpers
``generate_binary_structure`` and ``iterate_structure``.

One pass pads the boolean image with ``border_value``, stacks the samples at the
structuring element's offsets on a last axis (the grey morphology's windows) and takes
``all`` (erosion) or ``any`` (dilation); where ``mask`` is false a pass keeps its input.
``iterations=n`` repeats the pass; ``iterations < 1`` repeats it until nothing changes,
as a ``fg.lax.while_loop`` so that ``jit`` and ``vmap`` apply; that needs the
structure's centre (at the origin) set, which makes the passes monotone (erosion never
sets a point, dilation never clears one) and so ends within ``input.size`` passes.
Without it the passes can cycle for ever (SciPy's loop then never returns): a
``ValueError`` says so.  SciPy follows changed
points from a coordinate list instead when the structure's centre is set
(``brute_force=False``); the fixed point and every iterate are the same, so
``brute_force`` is accepted and changes nothing.

The results are boolean, so they carry no derivative: a mask made here and multiplied
into a float function is a constant to ``grad``, as a comparison is.  The structures
decide which samples are read, so they (and ``border_value``) must be known when the
function runs: NumPy arrays, not traced values.  The input and the mask may be traced.
An origin that puts the structure's centre outside it raises ``ValueError`` (SciPy
reads out of bounds there).
"""
import operator
from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._ndimage_correlate import _origin_ok
from ._ndimage_filters import _axes, _per_axis
from ._ndimage_rank import _footprint_on_all_axes, _origins_on_all_axes, _windows

__all__ = ["generate_binary_structure", "iterate_structure", "binary_erosion",
           "binary_dilation", "binary_opening", "binary_closing", "binary_propagation",
           "binary_fill_holes", "binary_hit_or_miss"]

Axes = Union[None, int, Sequence[int]]
Origins = Union[int, Sequence[int]]


def generate_binary_structure(rank: int, connectivity: int) -> np.ndarray:
    """The boolean structure of ``rank`` dimensions of extent 3 whose elements lie
    within ``connectivity`` unit steps of the centre
    (``scipy.ndimage.generate_binary_structure``): 1 gives the cross, ``rank`` the full
    box; a connectivity below 1 counts as 1, a rank below 1 gives ``array(True)``.

    >>> import funcgrad.scipy.ndimage as fnd
    >>> fnd.generate_binary_structure(2, 1).astype(int)
    array([[0, 1, 0],
           [1, 1, 1],
           [0, 1, 0]])
    """
    if rank < 1:
        return np.array(True, dtype=bool)
    steps = np.abs(np.indices((3,) * int(rank)) - 1).sum(axis=0)
    return steps <= max(connectivity, 1)


def iterate_structure(structure: ArrayLike, iterations: int,
                      origin: Optional[Origins] = None
                      ) -> Union[np.ndarray, Tuple[np.ndarray, list]]:
    """``structure`` dilated by itself ``iterations - 1`` times
    (``scipy.ndimage.iterate_structure``): the structure whose one pass does what
    ``iterations`` passes of ``structure`` do.  With ``origin``, also the origin scaled
    by ``iterations``.

    >>> import funcgrad.scipy.ndimage as fnd
    >>> fnd.iterate_structure(fnd.generate_binary_structure(2, 1), 2).astype(int)
    array([[0, 0, 1, 0, 0],
           [0, 1, 1, 1, 0],
           [1, 1, 1, 1, 1],
           [0, 1, 1, 1, 0],
           [0, 0, 1, 0, 0]])
    """
    structure = _static("iterate_structure", "structure", structure)
    if iterations < 2:
        return structure.copy()
    more = iterations - 1
    grown = np.zeros([s + more * (s - 1) for s in structure.shape], np.bool_)
    grown[tuple(slice(more * (s // 2), more * (s // 2) + s) for s in structure.shape)] = (
        structure != 0)
    grown = np.asarray(binary_dilation(grown, structure, iterations=more))
    if origin is None:
        return grown
    origins = _per_axis("iterate_structure", "origin", origin, structure.ndim)
    return grown, [iterations * o for o in origins]


def _static(name, what, value):
    """A structure (or flag) as a NumPy array: it decides which samples are read."""
    return np.asarray(concrete_values(
        asarray(value), f"{name}: {what}",
        f"Pass {what} as a NumPy array (or a Python value), not a traced one."))


def _bool_input(name, input):
    x = asarray(input)
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: complex input is not supported: pass a real or boolean "
                        f"array (nonzero counts as set)")
    if x.dtype.kind not in "biuf":
        raise TypeError(f"{name}: input of dtype {x.dtype} is not supported: pass a real or "
                        f"boolean array (nonzero counts as set)")
    return x if x.dtype.kind == "b" else fnp.not_equal(x, np.zeros((), x.dtype))


@internal  # (the all-set or all-clear result of an empty structure follows x's device)
def _one_pass(x, structure, origins, border, dilate, mask):
    """SciPy's ``NI_BinaryErosion``: erosion, all samples at the structure's offsets set;
    dilation (``invert``), any of them set; samples outside the image are ``border``."""
    if x.size == 0:
        return x
    if not structure.any():  # (an empty AND is true, an empty OR false)
        out = fnp.full_like(x, not dilate)
    elif x.ndim == 0:  # (the one offset is the point itself)
        out = x
    else:
        stacked, _ = _windows(x, structure, origins, "constant", border)
        out = fnp.any(stacked, axis=-1) if dilate else fnp.all(stacked, axis=-1)
    return out if mask is None else fnp.where(mask, out, x)


def _until_stable(step, x, first):
    from ..lax import while_loop  # (funcgrad.lax imports the scipy fronts' helpers)

    def changed(pair):
        before, now = pair
        return fnp.any(fnp.not_equal(before, now))

    return while_loop(changed, lambda pair: (pair[1], step(pair[1])), (x, first))[1]


def _deliver(name, result, output):
    """SciPy's results are boolean whatever dtype ``output`` names; an array ``output``
    receives them (cast to its dtype) and is returned."""
    if output is None:
        return result
    if isinstance(output, np.ndarray):
        if output.dtype.kind == "c":
            raise TypeError(f"{name}: complex output arrays are not supported")
        if output.shape != tuple(result.shape):
            raise RuntimeError(f"{name}: output has shape {output.shape}, the result "
                               f"{tuple(result.shape)}")
        if not is_concrete(result):
            raise TypeError(f"{name}(..., output=array) cannot write a result that is traced "
                            f"(under jit or vmap): leave output=None and use the returned "
                            f"value")
        output[...] = concrete_values(result, name, "")
        return output
    try:
        np.dtype(output)
    except TypeError:
        raise TypeError(f"{name}: output must be None, a dtype or a NumPy array, got "
                        f"{output!r}") from None
    return result


def _binary_erosion(name, input, structure, iterations, mask, output, border_value,
                    origin, dilate, axes):
    """SciPy's ``_binary_erosion`` (``dilate`` is its ``invert``): the structure and
    origin as given, reflected beforehand by :func:`binary_dilation`."""
    try:
        iterations = operator.index(iterations)
    except TypeError:
        raise TypeError(f"{name}: iterations must be an integer, got {iterations!r}") from None
    x = _bool_input(name, input)
    chosen = _axes(name, axes, x.ndim)
    structure = (generate_binary_structure(len(chosen), 1) if structure is None
                 else _static(name, "structure", structure).astype(bool))
    if structure.size < 1:
        raise RuntimeError(f"{name}: structure must not be empty")
    structure = _footprint_on_all_axes(name, structure, chosen, x.ndim, "structure")
    origins = _origins_on_all_axes(name, origin, chosen, x.ndim)
    for o, s in zip(origins, structure.shape):
        _origin_ok(name, o, s)
    border = bool(_static(name, "border_value", border_value))
    if mask is not None:
        mask = asarray(mask)
        if tuple(mask.shape) != tuple(x.shape):
            raise RuntimeError(f"{name}: mask of shape {tuple(mask.shape)} and input of shape "
                               f"{tuple(x.shape)} differ: they must have equal sizes")
        mask = _bool_input(name, mask)

    def step(image):
        return _one_pass(image, structure, origins, border, dilate, mask)

    if iterations < 1 and not structure[tuple(s // 2 + o for s, o in
                                               zip(structure.shape, origins))]:
        raise ValueError(
            f"{name}: iterations < 1 (until nothing changes) needs a structure whose "
            f"centre (shifted by origin) is set: without it a pass is not monotone and "
            f"the passes can cycle for ever (SciPy's loop then never returns). Give a "
            f"positive iterations count, or set the structure's centre")
    result = step(x)
    if iterations < 1:
        result = _until_stable(step, x, result)
    for _ in range(iterations - 1):
        result = step(result)
    return _deliver(name, result, output)


def binary_erosion(input: ArrayLike, structure: Optional[ArrayLike] = None,
                   iterations: int = 1, mask: Optional[ArrayLike] = None,
                   output: Any = None, border_value: Union[int, bool] = 0,
                   origin: Origins = 0, brute_force: bool = False, *,
                   axes: Axes = None) -> Array:
    """Binary erosion (``scipy.ndimage.binary_erosion``): a point stays set when every
    point under ``structure`` (default the cross of
    :func:`generate_binary_structure`) placed at it, shifted by ``origin``, is set;
    outside the image counts as ``border_value``.  ``iterations`` passes (below 1: until
    nothing changes); where ``mask`` is false the input is kept.  The result is boolean
    (``output``: a dtype is ignored as SciPy's is, an array is filled and returned);
    ``brute_force`` changes nothing here.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.binary_erosion(np.array([0, 1, 1, 1, 0, 1, 1])).astype(int)
    array([0, 0, 1, 0, 0, 0, 0])
    """
    return _binary_erosion("binary_erosion", input, structure, iterations, mask, output,
                           border_value, origin, False, axes)


def _reflected(name, ndim, structure, origin, axes):
    """SciPy's ``binary_dilation`` set-up: the structure reversed on every axis, and each
    origin mirrored (moved by one more for an even extent)."""
    chosen = _axes(name, axes, ndim)
    structure = (generate_binary_structure(len(chosen), 1) if structure is None
                 else _static(name, "structure", structure))
    if structure.ndim != len(chosen):
        raise RuntimeError(f"{name}: structure has {structure.ndim} dimensions but there are "
                           f"{len(chosen)} axes to filter")
    origins = _per_axis(name, "origin", origin, len(chosen))
    mirrored = [-_origin_ok(name, o, s) - (0 if s & 1 else 1)
                for o, s in zip(origins, structure.shape)]
    return structure[(slice(None, None, -1),) * structure.ndim], mirrored


def binary_dilation(input: ArrayLike, structure: Optional[ArrayLike] = None,
                    iterations: int = 1, mask: Optional[ArrayLike] = None,
                    output: Any = None, border_value: Union[int, bool] = 0,
                    origin: Origins = 0, brute_force: bool = False, *,
                    axes: Axes = None) -> Array:
    """Binary dilation (``scipy.ndimage.binary_dilation``): a point is set when any
    point under the reflected ``structure`` placed at it is set (outside the image:
    ``border_value``).  Parameters as :func:`binary_erosion`.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.binary_dilation(np.array([0, 0, 1, 0, 0, 0, 1])).astype(int)
    array([0, 1, 1, 1, 0, 1, 1])
    """
    x = asarray(input)
    structure, origins = _reflected("binary_dilation", x.ndim, structure, origin, axes)
    return _binary_erosion("binary_dilation", x, structure, iterations, mask, output,
                           border_value, origins, True, axes)


def binary_opening(input: ArrayLike, structure: Optional[ArrayLike] = None,
                   iterations: int = 1, output: Any = None, origin: Origins = 0,
                   mask: Optional[ArrayLike] = None, border_value: Union[int, bool] = 0,
                   brute_force: bool = False, *, axes: Axes = None) -> Array:
    """Binary opening (``scipy.ndimage.binary_opening``): ``iterations`` erosions, then
    as many dilations, with the same structure, mask, border and origin: removes
    what the structure does not fit in.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.binary_opening(np.array([1, 1, 1, 0, 1, 0, 1, 1]), [1, 1, 1]).astype(int)
    array([1, 1, 1, 0, 0, 0, 0, 0])
    """
    eroded = binary_erosion(input, structure, iterations, mask, None, border_value, origin,
                            brute_force, axes=axes)
    return binary_dilation(eroded, structure, iterations, mask, output, border_value,
                           origin, brute_force, axes=axes)


def binary_closing(input: ArrayLike, structure: Optional[ArrayLike] = None,
                   iterations: int = 1, output: Any = None, origin: Origins = 0,
                   mask: Optional[ArrayLike] = None, border_value: Union[int, bool] = 0,
                   brute_force: bool = False, *, axes: Axes = None) -> Array:
    """Binary closing (``scipy.ndimage.binary_closing``): ``iterations`` dilations, then
    as many erosions: fills gaps the structure does not fit in.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.binary_closing(np.array([0, 1, 1, 0, 1, 0, 0, 0, 1, 0]), [1, 1, 1]).astype(int)
    array([0, 1, 1, 1, 1, 0, 0, 0, 1, 0])
    """
    dilated = binary_dilation(input, structure, iterations, mask, None, border_value,
                              origin, brute_force, axes=axes)
    return binary_erosion(dilated, structure, iterations, mask, output, border_value,
                          origin, brute_force, axes=axes)


def binary_propagation(input: ArrayLike, structure: Optional[ArrayLike] = None,
                       mask: Optional[ArrayLike] = None, output: Any = None,
                       border_value: Union[int, bool] = 0, origin: Origins = 0, *,
                       axes: Axes = None) -> Array:
    """Dilation of ``input`` inside ``mask`` repeated until nothing changes
    (``scipy.ndimage.binary_propagation``): the parts of ``mask`` connected (by
    ``structure``) to a set point of ``input``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.binary_propagation(np.array([0, 1, 0, 0, 0, 0]),
    ...                        mask=np.array([1, 1, 1, 0, 1, 1])).astype(int)
    array([1, 1, 1, 0, 0, 0])
    """
    return binary_dilation(input, structure, -1, mask, output, border_value, origin,
                           axes=axes)


def binary_fill_holes(input: ArrayLike, structure: Optional[ArrayLike] = None,
                      output: Any = None, origin: Origins = 0, *,
                      axes: Axes = None) -> Array:
    """The input with its holes set (``scipy.ndimage.binary_fill_holes``): the clear
    points not connected (by ``structure``) to the image's border.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.binary_fill_holes(np.array([[1, 1, 1], [1, 0, 1], [1, 1, 1]])).astype(int)
    array([[1, 1, 1],
           [1, 1, 1],
           [1, 1, 1]])
    """
    outside = fnp.logical_not(_bool_input("binary_fill_holes", input))
    reached = binary_dilation(fnp.zeros_like(outside), structure, -1, outside, None, 1,
                              origin, axes=axes)
    return _deliver("binary_fill_holes", fnp.logical_not(reached), output)


def binary_hit_or_miss(input: ArrayLike, structure1: Optional[ArrayLike] = None,
                       structure2: Optional[ArrayLike] = None, output: Any = None,
                       origin1: Origins = 0, origin2: Optional[Origins] = None, *,
                       axes: Axes = None) -> Array:
    """Hit-or-miss transform (``scipy.ndimage.binary_hit_or_miss``): the points where
    every point under ``structure1`` (at ``origin1``) is set and every point under
    ``structure2`` (default: the complement of ``structure1``; at ``origin2``, default
    ``origin1``) is clear, outside the image counting as clear.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.binary_hit_or_miss(np.array([0, 1, 0, 1, 1, 0]), [0, 1, 0], [1, 0, 1]
    ...                        ).astype(int)
    array([0, 1, 0, 0, 0, 0])
    """
    name = "binary_hit_or_miss"
    x = _bool_input(name, input)
    num_axes = len(_axes(name, axes, x.ndim))
    structure1 = (generate_binary_structure(num_axes, 1) if structure1 is None
                  else _static(name, "structure1", structure1))
    if structure2 is None:
        structure2 = np.logical_not(structure1)
    origin1 = _per_axis(name, "origin1", origin1, num_axes)
    origin2 = origin1 if origin2 is None else _per_axis(name, "origin2", origin2, num_axes)
    hits = _binary_erosion(name, x, structure1, 1, None, None, 0, origin1, False, axes)
    touches = _binary_erosion(name, x, structure2, 1, None, None, 0, origin2, True, axes)
    return _deliver(name, fnp.logical_and(hits, fnp.logical_not(touches)), output)

