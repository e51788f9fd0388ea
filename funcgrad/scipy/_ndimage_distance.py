"""Distance transforms and label geometry of ``funcgrad.scipy.ndimage``:
``distance_transform_edt``, ``distance_transform_bf``, ``distance_transform_cdt``,
``find_objects``, ``value_indices`` and ``watershed_ift``.

Their inputs are masks and labels, whose values are used as booleans or integers: a
derivative through them is zero everywhere it exists, so they are taken as concrete
values and SciPy computes the result (imported on the first call).  What is
differentiable is the ``sampling`` of a Euclidean distance: the nearest background
point found by SciPy (its feature transform) stays, and the distance to it is computed
again from the traced spacings, ``sqrt(sum_k (sampling_k d_k)**2)``.
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["distance_transform_edt", "distance_transform_bf", "distance_transform_cdt",
           "find_objects", "value_indices", "watershed_ift"]


def _concrete(name, x, what="input"):
    return concrete_values(x, f"{name}'s {what}", f"call {name} outside jit and vmap")


def _no_outputs(name, distances, indices):
    if distances is not None or indices is not None:
        raise TypeError(f"{name}(..., distances=..., indices=...) would write into arrays, "
                        f"but funcgrad's results are new arrays: use the returned values")


def _traced(x):
    return x is not None and (isinstance(x, Tracer) or is_special(x)
                              or isinstance(x, (list, tuple))
                              and any(isinstance(v, Tracer) or is_special(v) for v in x))


def _returned(distances, indices, return_distances, return_indices):
    if return_distances and return_indices:
        return distances, indices
    return distances if return_distances else indices


def _euclidean_from_features(name, mask, sampling, indices):
    """The distance from each point to its feature (``indices``), with the traced
    ``sampling``, as SciPy's (0 at background points)."""
    spacing = fnp.astype(asarray(sampling), np.float64)
    if spacing.ndim == 0:
        spacing = fnp.broadcast_to(spacing, (mask.ndim,))
    elif spacing.shape != (mask.ndim,):
        raise RuntimeError(f"{name}: sampling must have one entry per input dimension "
                           f"({mask.ndim}), got shape {tuple(spacing.shape)}")
    grid = np.indices(mask.shape)
    steps = (indices - grid).astype(np.float64)
    scaled = steps * fnp.reshape(spacing, (-1,) + (1,) * mask.ndim)
    squared = fnp.sum(scaled * scaled, axis=0)
    # (sqrt's derivative at 0 is infinite: a background point's 0 is selected instead)
    inside = squared > 0
    return fnp.where(inside, fnp.sqrt(fnp.where(inside, squared, 1.0)), 0.0)


def distance_transform_edt(input: ArrayLike, sampling: Any = None,
                           return_distances: bool = True, return_indices: bool = False,
                           distances: None = None, indices: None = None) -> Any:
    """The Euclidean distance from each nonzero point of ``input`` to the nearest zero
    one (and, with ``return_indices``, that point's indices), as
    ``scipy.ndimage.distance_transform_edt``, whose values these are.  Differentiable
    in ``sampling`` (the spacing along each axis); ``input`` is a mask.  The
    ``distances=``/``indices=`` outputs are not supported (new arrays are returned).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.ndimage as fnd
    >>> mask = np.array([0, 1, 1, 1, 0, 1])
    >>> fnd.distance_transform_edt(mask)
    array([0., 1., 2., 1., 0., 1.])
    >>> float(fg.grad(lambda s: fnd.distance_transform_edt(mask, sampling=s).sum())(0.5))
    5.0
    """
    return _distances("distance_transform_edt", input, sampling, return_distances,
                      return_indices, distances, indices, None)


def distance_transform_bf(input: ArrayLike, metric: str = "euclidean", sampling: Any = None,
                          return_distances: bool = True, return_indices: bool = False,
                          distances: None = None, indices: None = None) -> Any:
    """``scipy.ndimage.distance_transform_bf`` (brute force): the distance from each
    nonzero point to the nearest zero one by ``metric`` ('euclidean', 'taxicab' or
    'cityblock' or 'manhattan', 'chessboard'; ``sampling`` is used by 'euclidean'
    only, as SciPy's), SciPy's values; differentiable in a Euclidean ``sampling``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.distance_transform_bf(np.array([[0, 1, 1], [1, 1, 1]]), metric="taxicab")
    array([[0, 1, 2],
           [1, 2, 3]], dtype=uint32)
    """
    return _distances("distance_transform_bf", input, sampling, return_distances,
                      return_indices, distances, indices, metric)


def _distances(name, input, sampling, return_distances, return_indices, distances,
               indices, metric):
    _no_outputs(name, distances, indices)
    if not return_distances and not return_indices:
        raise RuntimeError("at least one of return_distances/return_indices must be True")
    mask = _concrete(name, input)
    from scipy import ndimage
    scipys = ndimage.distance_transform_edt if metric is None else \
        (lambda m, **kw: ndimage.distance_transform_bf(m, metric=metric, **kw))
    euclidean = metric is None or str(metric).lower() == "euclidean"
    if not (euclidean and _traced(sampling)):
        plain = None if sampling is None else np.asarray(sampling, np.float64)
        return scipys(mask, sampling=plain, return_distances=return_distances,
                      return_indices=return_indices)
    # (the nearest background point depends on the spacing: SciPy finds it at its value)
    features = scipys(mask, sampling=np.asarray(stop_gradient(sampling), np.float64),
                      return_distances=False, return_indices=True)
    dist = _euclidean_from_features(name, np.asarray(mask), sampling, features)
    return _returned(dist, features, return_distances, return_indices)


def distance_transform_cdt(input: ArrayLike, metric: Any = "chessboard",
                           return_distances: bool = True, return_indices: bool = False,
                           distances: None = None, indices: None = None) -> Any:
    """``scipy.ndimage.distance_transform_cdt``: the chamfer (integer) distance from each
    nonzero point to the nearest zero one by ``metric`` ('chessboard', 'taxicab' or a
    structuring element), SciPy's values (integers: no derivative).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.distance_transform_cdt(np.array([0, 1, 1, 1, 1]))
    array([0, 1, 2, 3, 4], dtype=int32)
    """
    _no_outputs("distance_transform_cdt", distances, indices)
    from scipy import ndimage
    if not isinstance(metric, str):
        metric = _concrete("distance_transform_cdt", metric, "metric")
    return ndimage.distance_transform_cdt(_concrete("distance_transform_cdt", input),
                                          metric=metric, return_distances=return_distances,
                                          return_indices=return_indices)


def find_objects(input: ArrayLike, max_label: int = 0) -> list:
    """``scipy.ndimage.find_objects``: for each label ``1, 2, ...`` (up to
    ``max_label`` when given), the tuple of slices of its bounding box, or None for a
    label that does not occur; SciPy's values.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.find_objects(np.array([[0, 1, 1], [2, 0, 1]]))
    [(slice(0, 2, None), slice(1, 3, None)), (slice(1, 2, None), slice(0, 1, None))]
    """
    from scipy import ndimage
    return ndimage.find_objects(_concrete("find_objects", input), max_label=max_label)


def value_indices(arr: ArrayLike, *, ignore_value: Optional[int] = None) -> dict:
    """``scipy.ndimage.value_indices``: for each distinct value of the integer array
    ``arr`` (but ``ignore_value``), the tuple of index arrays where it occurs (as
    ``np.nonzero``); SciPy's values.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> fnd.value_indices(np.array([0, 3, 3, 1]), ignore_value=0)[3]
    (array([1, 2]),)
    """
    from scipy import ndimage
    return ndimage.value_indices(_concrete("value_indices", arr, "arr"),
                                 ignore_value=ignore_value)


def watershed_ift(input: ArrayLike, markers: ArrayLike, structure: Optional[ArrayLike] = None,
                  output: None = None) -> Array:
    """``scipy.ndimage.watershed_ift``: the watershed of the ``uint8``/``uint16`` image
    ``input`` from the integer ``markers`` by the image foresting transform, SciPy's
    labels (integers: no derivative).

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> image = np.array([[0, 0, 9, 0, 0]], np.uint8)
    >>> fnd.watershed_ift(image, np.array([[1, 0, 0, 0, 2]], np.int8))
    array([[1, 1, 2, 2, 2]], dtype=int8)
    """
    if output is not None:
        raise TypeError("watershed_ift(..., output=...) would write into an array, but "
                        "funcgrad's results are new arrays: use the returned value")
    from scipy import ndimage
    return ndimage.watershed_ift(
        _concrete("watershed_ift", input), _concrete("watershed_ift", markers, "markers"),
        structure=None if structure is None else _concrete("watershed_ift", structure,
                                                           "structure"))
