"""Sets: unique (and unique_counts / unique_inverse / unique_values / unique_all), isin,
intersect1d, union1d, setdiff1d, setxor1d, array_equal, array_equiv.

The values returned (``unique``'s, ``union1d``'s...) are gathered from the input, so they
keep their derivatives: each output takes the derivative of the *first* input element equal
to it.  Indices, inverses and counts are integers (no derivative).

How many unique values there are depends on the values, so without ``size=`` the input
must be concrete (``grad`` is fine; ``vmap`` and ``jit`` raise ConcretizationError).  With
``size=k`` (as in JAX) exactly ``k`` values come back -- the first ``k``, padded with
``fill_value`` (by default the smallest value) -- and everything works under ``vmap`` and
``jit``; that path compares every element with every output slot (O(n * k) work).

``isin`` compares every element with every test element (O(n * m)).
"""
import collections
from typing import Any

import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from ._convert import asarray, concrete_values, is_concrete
from .constructors import astype
from .indexing import argsort, take, where
from .manipulation import broadcast_arrays, concatenate, expand_dims, ravel, reshape
from .reductions import all as _all
from .reductions import any as _any
from .reductions import argmax, cumsum, sum
from .ufuncs import equal, isnan, logical_and, logical_not, logical_or, not_equal
from ..typing import Array, ArrayLike, Axis

__all__ = ["unique", "unique_counts", "unique_inverse", "unique_values", "unique_all", "isin",
           "intersect1d", "union1d", "setdiff1d", "setxor1d", "array_equal", "array_equiv"]

UniqueAllResult = collections.namedtuple("UniqueAllResult",
                                         ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = collections.namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = collections.namedtuple("UniqueInverseResult",
                                             ["values", "inverse_indices"])

_SIZE_FIX = ("Pass size= (as in JAX): {name}(..., size=k, fill_value=...) returns exactly k "
             "values, padded with fill_value, and works under vmap and jit.")


def _sorted_groups(flat, valid, equal_nan):
    """Sort ``flat`` (entries where ``valid`` is false last) and mark where each run of
    equal valid values starts: ``(perm, sorted values, starts mask)``."""
    n = flat.shape[0]
    perm = argsort(flat, 0)
    if valid is not None:  # stable: invalid entries to the end, value order kept
        perm = take(perm, argsort(astype(logical_not(take(valid, perm)), _np.intp), 0))
    s = take(flat, perm)
    if n == 0:
        return perm, s, astype(s, bool)
    differs = not_equal(s[1:], s[:-1])
    if equal_nan and flat.dtype.kind in "fc":
        differs = logical_and(differs, logical_not(logical_and(isnan(s[1:]), isnan(s[:-1]))))
    starts = concatenate([_np.ones(1, bool), differs])
    if valid is not None:
        starts = logical_and(starts, take(valid, perm))
    return perm, s, starts


def _unique_core(flat, valid, size, fill_value, equal_nan, name):
    """The unique valid values of the 1-d ``flat``: ``(values, first index, inverse, counts,
    in-range mask)``.  ``inverse`` is each entry's group number."""
    n = flat.shape[0]
    perm, s, starts = _sorted_groups(flat, valid, equal_nan)
    group = cumsum(astype(starts, _np.intp)) - 1  # (sorted order)
    if size is None:
        m = concrete_values(starts, f"{name} (how many values it returns)",
                            _SIZE_FIX.format(name=name))
        first = _np.flatnonzero(m)
        total = n if valid is None else int(_np.sum(concrete_values(valid, name, "")))
        ends = _np.append(first[1:], total)[:first.size]
        counts = (ends - first).astype(_np.intp)
        keep = None
    else:
        size = int(size)
        # the j-th group starts where the running group number first reaches j
        first = sum(astype(expand_dims(group, 0) < _np.arange(size + 1)[:, None], _np.intp), 1)
        if valid is not None:  # invalid entries (sorted last) do not count
            first = _minimum_int(first, sum(astype(valid, _np.intp)))
        counts = astype(first[1:] - first[:-1], _np.intp)
        first = first[:-1]
        keep = first < (n if valid is None else sum(astype(valid, _np.intp)))
        first = where(keep, first, 0) if n else first
    values = take(s, first) if n else s[:0] if size is None else \
        _np.full(size, 0 if fill_value is None else fill_value, s.dtype)
    index = take(perm, first) if n else _np.zeros(len(first) if size is None else size,
                                                  _np.intp)
    inverse = take(group, argsort(perm, 0)) if n else astype(flat, _np.intp)
    if keep is not None and n:
        fill = values[0] if fill_value is None else astype(asarray(fill_value), s.dtype)
        values = where(keep, values, fill)
        index = where(keep, index, 0)
    return values, astype(index, _np.intp), astype(inverse, _np.intp), counts


def _minimum_int(a, b):
    return where(a < b, a, b)


def unique(ar: ArrayLike, return_index: bool = False, return_inverse: bool = False,
           return_counts: bool = False, axis: Axis = None, *, equal_nan: bool = True,
           sorted: bool = True, size: Any = None,
           fill_value: ArrayLike | None = None) -> Array | tuple[Array, ...]:  # noqa: A002
    """``np.unique``: the sorted unique values, with optionally the index of each one's first
    occurrence, the inverse (``values[inverse]`` rebuilds ``ar``) and the counts.

    ``size=`` and ``fill_value=`` (JAX's) fix the number of values returned: padded with
    ``fill_value`` (default: the smallest value; indices and counts pad with 0), truncated
    if there are more -- needed under ``vmap`` and ``jit``.  ``axis=`` needs concrete values
    and no ``size=``.  ``sorted=False`` is accepted (the values come sorted anyway).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.unique(np.array([3.0, 1.0, 3.0]), return_counts=True)
    (array([1., 3.]), array([1, 2]))
    >>> fg.grad(lambda x: fnp.sum(fnp.unique(x) ** 2))(np.array([3.0, 1.0, 3.0]))
    array([6., 2., 0.])
    >>> fg.vmap(lambda x: fnp.unique(x, size=3, fill_value=-1.0))(np.array([[1.0, 1.0, 2.0]]))
    array([[ 1.,  2., -1.]])
    """
    ar = asarray(ar)
    if axis is not None:
        return _unique_axis(ar, return_index, return_inverse, return_counts, axis, equal_nan,
                            size)
    values, index, inverse, counts = _unique_core(ravel(ar), None, size, fill_value,
                                                  equal_nan, "unique")
    extra = []
    if return_index:
        extra.append(index)
    if return_inverse:
        extra.append(reshape(inverse, ar.shape))
    if return_counts:
        extra.append(counts)
    return (values, *extra) if extra else values


def _unique_axis(ar, return_index, return_inverse, return_counts, axis, equal_nan, size):
    if size is not None:
        raise NotImplementedError("unique(..., axis=..., size=...) is not supported; unique "
                                  "along an axis needs concrete values (no vmap or jit)")
    plain = concrete_values(ar, "unique(..., axis=...) (how many slices it returns)",
                            "Unique slices along an axis are not supported under vmap or jit.")
    _, index, inverse, counts = _np.unique(plain, True, True, True, axis=axis,
                                           equal_nan=equal_nan)
    out = [take(ar, index, axis)]
    for wanted, item in ((return_index, index), (return_inverse, inverse),
                         (return_counts, counts)):
        if wanted:
            out.append(item)
    return tuple(out) if len(out) > 1 else out[0]


def unique_values(x: ArrayLike, *, size: Any = None, fill_value: ArrayLike | None = None) -> Array:
    """``np.unique_values(x)``: the unique values (NaNs kept apart, as NumPy does).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.unique_values(np.array([2.0, 1.0, 2.0]))
    array([1., 2.])
    """
    return unique(x, equal_nan=False, size=size, fill_value=fill_value)


def unique_counts(x: ArrayLike, *, size: Any = None,
                  fill_value: ArrayLike | None = None) -> UniqueCountsResult:
    """``np.unique_counts(x)``: ``(values, counts)`` as a namedtuple.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.unique_counts(np.array([2.0, 1.0, 2.0])).counts
    array([1, 2])
    """
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False, size=size,
                                      fill_value=fill_value))


def unique_inverse(x: ArrayLike, *, size: Any = None,
                   fill_value: ArrayLike | None = None) -> UniqueInverseResult:
    """``np.unique_inverse(x)``: ``(values, inverse_indices)``, the inverse shaped as ``x``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.unique_inverse(np.array([2.0, 1.0, 2.0])).inverse_indices
    array([1, 0, 1])
    """
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False, size=size,
                                       fill_value=fill_value))


def unique_all(x: ArrayLike, *, size: Any = None,
               fill_value: ArrayLike | None = None) -> UniqueAllResult:
    """``np.unique_all(x)``: ``(values, indices, inverse_indices, counts)``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.unique_all(np.array([2.0, 1.0, 2.0])).indices
    array([1, 0])
    """
    return UniqueAllResult(*unique(x, True, True, True, equal_nan=False, size=size,
                                   fill_value=fill_value))


def isin(element: ArrayLike, test_elements: ArrayLike, assume_unique: bool = False,
         invert: bool = False, *, kind: Any = None) -> Array:
    """``np.isin(element, test_elements)``: whether each entry of ``element`` is among
    ``test_elements`` (a boolean array shaped as ``element``); works under ``vmap``/``jit``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.isin(np.array([1.0, 2.0, 5.0]), [2.0, 5.0])
    array([False,  True,  True])
    """
    element = asarray(element)
    tests = ravel(asarray(test_elements))
    found = _any(equal(expand_dims(element, -1), tests), axis=-1)
    return logical_not(found) if invert else found


def _set_result(flat, valid, size, fill_value, name, equal_nan=True):
    return _unique_core(flat, valid, size, fill_value, equal_nan, name)[0]


def union1d(ar1: ArrayLike, ar2: ArrayLike, *, size: Any = None,
            fill_value: ArrayLike | None = None) -> Array:
    """``np.union1d(ar1, ar2)``: the sorted unique values of both; ``size=`` as in
    :func:`unique`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.union1d(np.array([3.0, 1.0]), np.array([1.0, 2.0]))
    array([1., 2., 3.])
    """
    flat = concatenate([ravel(asarray(ar1)), ravel(asarray(ar2))])
    return _set_result(flat, None, size, fill_value, "union1d")


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: Any = None,
              fill_value: ArrayLike | None = None) -> Array:
    """``np.setdiff1d(ar1, ar2)``: the sorted unique values of ``ar1`` not in ``ar2``;
    ``size=`` as in :func:`unique`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.setdiff1d(np.array([3.0, 1.0, 2.0]), np.array([1.0]))
    array([2., 3.])
    """
    a = ravel(asarray(ar1))
    return _set_result(a, isin(a, ar2, invert=True), size, fill_value, "setdiff1d")


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, *, size: Any = None,
             fill_value: ArrayLike | None = None) -> Array:
    """``np.setxor1d(ar1, ar2)``: the sorted unique values in exactly one of the two;
    ``size=`` as in :func:`unique`.  (A NaN in both: NumPy keeps two NaNs, funcgrad none --
    NaN is never equal to NaN here.)

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.setxor1d(np.array([3.0, 1.0]), np.array([1.0, 2.0]))
    array([2., 3.])
    """
    a, b = ravel(asarray(ar1)), ravel(asarray(ar2))
    valid = concatenate([isin(a, b, invert=True), isin(b, a, invert=True)])
    return _set_result(concatenate([a, b]), valid, size, fill_value, "setxor1d",
                       equal_nan=False)


def intersect1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False,
                return_indices: bool = False, *, size: Any = None,
                fill_value: ArrayLike | None = None) -> Array | tuple[Array, Array, Array]:
    """``np.intersect1d(ar1, ar2, return_indices=False)``: the sorted unique values in both
    (gathered from ``ar1``), with optionally the index of each one's first occurrence in
    ``ar1`` and in ``ar2``; ``size=`` as in :func:`unique`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.intersect1d(np.array([3.0, 1.0, 2.0]), np.array([2.0, 3.0]), return_indices=True)
    (array([2., 3.]), array([2, 0]), array([0, 1]))
    """
    a, b = ravel(asarray(ar1)), ravel(asarray(ar2))
    values, index, _, _ = _unique_core(a, isin(a, b), size, fill_value, True, "intersect1d")
    values = astype(values, _np.result_type(a.dtype, b.dtype))  # (NumPy's concatenates)
    if not return_indices:
        return values
    if b.shape[0] == 0 or values.shape[0] == 0:
        return values, index, astype(_np.zeros(values.shape[0]), _np.intp)
    index2 = astype(argmax(equal(expand_dims(values, -1), b), axis=-1), _np.intp)
    return values, index, index2


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> bool:
    """``np.array_equal(a1, a2, equal_nan=False)``: same shape and same values (a Python
    bool for concrete inputs; a traced boolean under ``vmap``/``jit``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.array_equal(np.array([1.0, np.nan]), np.array([1.0, np.nan]), equal_nan=True)
    True
    """
    a1, a2 = asarray(a1), asarray(a2)
    if a1.shape != a2.shape:
        return False
    same = equal(a1, a2)
    if equal_nan:
        same = logical_or(same, logical_and(isnan(a1), isnan(a2)))
    return _as_bool(_all(same))


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> bool:
    """``np.array_equiv(a1, a2)``: broadcastable to one shape and equal there.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.array_equiv(np.array([1.0, 2.0]), np.array([[1.0, 2.0], [1.0, 2.0]]))
    True
    """
    a1, a2 = asarray(a1), asarray(a2)
    try:
        broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    a1, a2 = broadcast_arrays(a1, a2)
    return _as_bool(_all(equal(a1, a2)))


def _as_bool(x):
    return bool(concrete_values(x, "", "")) if is_concrete(x) else x
