"""Searching: searchsorted, digitize, partition, argpartition, lexsort, flatnonzero,
``nonzero``/``argwhere`` (and ``where`` of a condition alone) with a static ``size=``, and flat and multi-dimensional indices
(unravel_index, ravel_multi_index).

Everything here is composed of comparisons, sums and the sort, so it works under ``grad``,
``vmap`` and ``jit``.  ``searchsorted`` compares every query with every sorted entry
(O(len(a) * len(v)) work and memory, no binary search): fine for bins and knots, not for
millions of entries.  Indices are integers (no derivative); ``partition`` returns values
that keep their derivatives.

Where a result's *length* depends on the values (``flatnonzero``, ``nonzero``,
``argwhere``), pass ``size=`` (and optionally ``fill_value=``), as in JAX, to use them under
``vmap`` or ``jit``: the first ``size`` hits are returned, padded with ``fill_value``.
"""
from typing import Any
import numpy as _np

from ..primitives import elementwise as _ew
from ._convert import asarray, concrete_values, is_concrete, one_axis
from .constructors import astype
from .indexing import argsort, sort, take, take_along_axis, where as _select
from .indexing import argwhere as _argwhere
from .indexing import nonzero as _nonzero
from .manipulation import expand_dims, ravel, reshape, stack
from .reductions import cumsum, sum
from ._ufunc_wrappers import binds
from .ufuncs import (clip, floor_divide, isnan, less, logical_and, logical_not,
                     logical_or, mod, not_equal)
from ..typing import Array, ArrayLike, Axis

__all__ = ["searchsorted", "digitize", "partition", "argpartition", "lexsort", "flatnonzero",
           "nonzero", "argwhere", "where", "unravel_index", "ravel_multi_index"]


def _nan_last_less(x, y):
    """``x < y`` with NaN sorting after every number (NumPy's sort order)."""
    return logical_or(less(x, y), logical_and(isnan(y), logical_not(isnan(x))))


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left",
                 sorter: ArrayLike | None = None) -> Array:
    """``np.searchsorted(a, v, side='left', sorter=None)``: where ``v``'s entries would go
    in the sorted 1-d ``a`` to keep it sorted (NaNs sort last, as in NumPy).

    The indices are integers (no derivative); works under ``vmap`` and ``jit``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.searchsorted(np.array([1.0, 2.0, 3.0]), np.array([2.0, 0.5, 9.0]), side="right")
    array([2, 0, 3])
    """
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError(f"searchsorted: `a` must be 1-d, got shape {a.shape}; search each "
                         f"row with fg.vmap(fnp.searchsorted)")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if sorter is not None:
        a = take(a, asarray(sorter))
    v = asarray(v)
    ve = expand_dims(v, -1)
    if side == "left":  # how many entries are smaller
        below = _nan_last_less(a, ve)
    else:  # how many entries are not larger
        below = logical_not(_nan_last_less(ve, a))
    return astype(sum(astype(below, _np.intp), axis=-1), _np.intp)


def digitize(x: ArrayLike, bins: ArrayLike, right: bool = False) -> Array:
    """``np.digitize(x, bins, right=False)``: the index of the bin each ``x`` falls in, for
    increasing or decreasing ``bins``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.digitize(np.array([0.2, 1.5, 3.0]), np.array([0.0, 1.0, 2.0]))
    array([1, 2, 3])
    """
    bins = asarray(bins)
    if bins.ndim != 1:
        raise ValueError("digitize: bins must be 1-dimensional")
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("digitize: x may not be complex")
    side = "left" if right else "right"  # (NumPy's: the same side both ways)
    increasing = searchsorted(bins, x, side=side)
    decreasing = bins.shape[0] - searchsorted(bins[::-1], x, side=side)
    if is_concrete(bins):
        b = concrete_values(bins, "digitize", "")
        d = _np.diff(b)
        if not (_np.all(d >= 0) or _np.all(d <= 0)):
            raise ValueError("digitize: bins must be monotonically increasing or decreasing")
        return increasing if _np.all(d >= 0) else decreasing
    if bins.shape[0] < 2:
        return increasing
    return _select(bins[-1] >= bins[0], increasing, decreasing)


def _check_kth(kth, shape, axis, what):
    """NumPy's checks of ``kth`` (positions along ``axis`` of an array of ``shape``), in
    its order and with its error kinds: booleans, non-integers, more than 1-d, and then
    (for an array with elements: NumPy checks no position of an empty one) the bounds."""
    ks = _np.asarray(kth)
    if ks.dtype == _np.bool_:
        raise ValueError(f"{what}: Booleans unacceptable as partition index (NumPy's rule); "
                         f"pass the positions as integers, e.g. np.flatnonzero(mask)")
    if ks.dtype.kind not in "iu":
        raise TypeError(f"{what}: Partition index must be integer, not {ks.dtype} "
                        f"({kth!r}); pass an int or a sequence of ints")
    if ks.ndim > 1:
        raise ValueError(f"{what}: kth must be an integer or a 1-d sequence of integers, not "
                         f"an array of shape {ks.shape}")
    n = shape[axis]
    if 0 in shape:
        return
    for k in ks.ravel().tolist():
        if not -n <= k < n:
            raise ValueError(f"{what}: kth(={k}) out of bounds ({n}): the positions along "
                             f"axis {axis} run from 0 to {n - 1} (or from {-n} to -1)")


def partition(a: ArrayLike, kth: ArrayLike, axis: Axis = -1, kind: str = "introselect",
              order: Any = None) -> Array:
    """``np.partition(a, kth, axis=-1)``: a copy with the ``kth`` element(s) in their sorted
    places, smaller ones before, larger ones after.

    funcgrad returns the fully sorted array: a valid partition for every ``kth`` (NumPy
    leaves the order *within* each part unspecified; here it is the sorted one).  Values keep
    their derivatives, as in :func:`sort`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.partition(np.array([3.0, 1.0, 2.0, 0.5]), 1)[1]
    np.float64(1.0)
    """
    return sort(*_partitioned("partition", a, kth, axis, order))


def argpartition(a: ArrayLike, kth: ArrayLike, axis: Axis = -1, kind: str = "introselect",
                 order: Any = None) -> Array:
    """``np.argpartition(a, kth, axis=-1)``: indices that partition ``a`` around ``kth``;
    funcgrad's are the (stable) sorting indices, a valid partition for every ``kth``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.argpartition(np.array([3.0, 1.0, 2.0]), 0)[0]
    np.int64(1)
    """
    return argsort(*_partitioned("argpartition", a, kth, axis, order))


def _partitioned(name, a, kth, axis, order):
    """``(a, axis)`` of a partition call, checked (``axis=None``: the flattened array)."""
    if order is not None:
        raise TypeError(f"{name}: order= (structured arrays) is not supported")
    a = asarray(a)
    # (NumPy's argpartition ravels a 0-d array, as argsort; its partition refuses one)
    if axis is None or (a.ndim == 0 and name == "argpartition"):
        a, axis = ravel(a), (0 if axis is None else axis)
    axis = one_axis(axis, a.ndim)
    _check_kth(kth, a.shape, axis, name)
    return a, axis


def lexsort(keys: ArrayLike, axis: Axis = -1) -> Array:
    """``np.lexsort(keys, axis=-1)``: indices sorting by several keys, the *last* key
    primary (stable, so earlier keys break its ties).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.lexsort((np.array([3.0, 1.0, 2.0]), np.array([1.0, 0.0, 1.0])))
    array([1, 2, 0])
    """
    if isinstance(keys, (tuple, list)):
        keys = [asarray(k) for k in keys]
    else:
        keys = asarray(keys)
        keys = [keys[i] for i in range(keys.shape[0])]
    if not keys:
        raise TypeError("lexsort: need at least one key")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("lexsort: all keys need to be the same shape")
    if not shape:  # (a 1-d array is a sequence of 0-d keys: NumPy sorts one element)
        if axis not in (0, -1):
            raise _np.exceptions.AxisError(f"lexsort: axis {axis} is out of bounds for 0-d "
                                           f"keys; to sort by one 1-d key k, pass (k,)")
        return _np.intp(0)
    axis = one_axis(axis, len(shape))
    perm = argsort(keys[0], axis)
    for key in keys[1:]:
        perm = take_along_axis(perm, argsort(take_along_axis(key, perm, axis), axis), axis)
    return perm


def _fill(value, default, dtype):
    return _np.asarray(default if value is None else value, dtype)


def _first_true(mask, size, what):
    """Flat positions of the first ``size`` true entries of the 1-d ``mask`` (``len(mask)``
    past the last hit), or all of them when ``size`` is None (concrete only)."""
    n = mask.shape[0]
    if size is None:
        m = concrete_values(mask, what, f"Pass size= (the number of results to keep, as in "
                                        f"JAX): {what.split(' ')[0]}(..., size=k, "
                                        f"fill_value=...) pads or truncates to k.")
        return _np.flatnonzero(m), None
    size = int(size)
    if is_concrete(mask):
        m = concrete_values(mask, what, "")
        hits = _np.flatnonzero(m)[:size]
        pos = _np.concatenate([hits, _np.full(size - hits.size, n, _np.intp)])
        return pos, pos < n
    rank = cumsum(astype(mask, _np.intp))  # hits up to and including each entry
    # the j-th hit sits where the running count first reaches j + 1
    pos = sum(astype(expand_dims(rank, 0) <= _np.arange(size)[:, None], _np.intp), axis=1)
    return astype(pos, _np.intp), pos < n


def nonzero(a: ArrayLike, *, size: Any = None,
            fill_value: ArrayLike | None = None) -> tuple[Array, ...]:
    """``np.nonzero(a)``: the indices of non-zero entries, one array per axis.

    With ``size=`` (as in JAX) exactly ``size`` hits are returned, padded with
    ``fill_value`` (0 by default; one per axis as a tuple), which works under ``vmap`` and
    ``jit``; without it the values must be concrete.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.nonzero(np.array([0.0, 2.0, 0.0, 3.0]), size=3, fill_value=-1)
    (array([ 1,  3, -1]),)
    """
    if size is None:
        a = asarray(a)
        concrete_values(a, "nonzero (the number of indices)",
                        "Pass size= (as in JAX): fnp.nonzero(a, size=k, fill_value=...).")
        return _nonzero(a)
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("nonzero of a 0-d array is not defined (as in NumPy); call "
                         "fnp.atleast_1d first")
    pos, valid = _first_true(not_equal(ravel(a), 0), size, "nonzero")
    fills = fill_value if isinstance(fill_value, tuple) else (fill_value,) * a.ndim
    if len(fills) != a.ndim:
        raise ValueError(f"nonzero: fill_value has {len(fills)} entries for {a.ndim} axes")
    out, rest = [], pos
    for d in range(a.ndim - 1, -1, -1):
        coord = rest % a.shape[d] if a.shape[d] else rest
        rest = rest // a.shape[d] if a.shape[d] else rest
        out.append(_select(valid, coord, _fill(fills[d], 0, _np.intp)))
    return tuple(astype(c, _np.intp) for c in reversed(out))


@binds(_ew.where_p)
def where(condition: ArrayLike, x: ArrayLike | None = None, y: ArrayLike | None = None, *,
          size: Any = None, fill_value: Any = None) -> Any:
    """``np.where``: elementwise select (both branches get exact-zero cotangents where
    not taken; a NaN from inside the untaken branch still propagates, ``0 * nan``: guard
    that branch's input too, the double-where idiom), or, with ``condition`` alone, its
    :func:`nonzero` indices, where JAX's ``size=`` and ``fill_value=`` make them usable
    under ``vmap`` and ``jit``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.where(np.array([0.0, 2.0, 0.0, 3.0]) > 0, size=3, fill_value=-1)
    (array([ 1,  3, -1]),)
    """
    if size is None and fill_value is None:
        return _select(condition, x, y)
    if x is not None or y is not None:
        raise ValueError("where: size= and fill_value= go with where(condition) alone (the "
                         "indices); where(condition, x, y) selects elementwise")
    return nonzero(condition, size=size, fill_value=fill_value)


def argwhere(a: ArrayLike, *, size: Any = None, fill_value: ArrayLike | None = None) -> Array:
    """``np.argwhere(a)``: the indices of non-zero entries, one row each; ``size=`` and
    ``fill_value=`` as in :func:`nonzero`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.argwhere(np.array([[0.0, 1.0], [2.0, 0.0]]), size=3)
    array([[0, 1],
           [1, 0],
           [0, 0]])
    """
    if size is None:
        a = asarray(a)
        concrete_values(a, "argwhere (the number of rows)",
                        "Pass size= (as in JAX): fnp.argwhere(a, size=k, fill_value=...).")
        return _argwhere(a)
    a = asarray(a)
    if a.ndim == 0:
        a = reshape(a, (1,))
        return reshape(stack(nonzero(a, size=size, fill_value=fill_value), -1), (size, 0))
    return stack(nonzero(a, size=size, fill_value=fill_value), -1)


def flatnonzero(a: ArrayLike, *, size: Any = None, fill_value: ArrayLike | None = None) -> Array:
    """``np.flatnonzero(a)``: indices of the non-zero entries of the flattened ``a``;
    ``size=`` and ``fill_value=`` as in :func:`nonzero`.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.flatnonzero(np.array([[0.0, 1.0], [2.0, 0.0]]))
    array([1, 2])
    """
    return nonzero(ravel(asarray(a)), size=size, fill_value=fill_value)[0]



def _dims(shape):
    dims = tuple(int(d) for d in (shape if _np.iterable(shape) else (shape,)))
    return dims, int(_np.prod(dims, dtype=_np.int64))


def _int_indices(indices, name):
    indices = asarray(indices)
    if indices.dtype.kind not in "iu":
        raise TypeError(f"{name}: only int indices permitted (got {indices.dtype}); convert "
                        f"with .astype(int)")
    return astype(indices, _np.intp)


def unravel_index(indices: ArrayLike, shape: Any, order: str = "C") -> tuple[Array, ...]:
    """``np.unravel_index(indices, shape, order='C')``: the coordinates in an array of
    ``shape`` of the flat ``indices`` (integers: no derivative), also of traced indices.

    Out-of-bounds indices raise ValueError, as NumPy, where their values are known; under
    ``vmap``/``jit`` they are not, and are clipped into bounds, as JAX does.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.unravel_index(np.array([1, 7]), (2, 4))
    (array([0, 1]), array([1, 3]))
    >>> float(fg.jit(lambda x: x[np.unravel_index(np.argmax(x), x.shape)])(np.eye(2) * 3))
    3.0
    """
    indices = _int_indices(indices, "unravel_index")
    dims, size = _dims(shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    if is_concrete(indices):
        values = concrete_values(indices, "", "")
        bad = values[(values < 0) | (values >= size)]
        if bad.size:
            raise ValueError(f"index {int(bad.flat[0])} is out of bounds for array with size "
                             f"{size}")
    elif size:
        indices = clip(indices, 0, size - 1)
    coordinates = [None] * len(dims)
    for k in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        coordinates[k] = mod(indices, dims[k]) if dims[k] else indices
        indices = floor_divide(indices, dims[k]) if dims[k] else indices
    return tuple(coordinates)


def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise",
                      order: str = "C") -> Array:
    """``np.ravel_multi_index(multi_index, dims, mode='raise', order='C')``: the flat
    indices of the coordinates ``multi_index`` in an array of shape ``dims`` (integers: no
    derivative), also of traced coordinates.  ``mode`` per axis: 'raise', 'wrap' or 'clip';
    'raise' checks the values where they are known (under ``vmap``/``jit`` they are
    clipped, as JAX does).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.ravel_multi_index((np.array([1, 0]), np.array([2, 3])), (2, 4))
    array([6, 3])
    """
    dims, _ = _dims(dims)
    coordinates = [_int_indices(c, "ravel_multi_index") for c in multi_index]
    if len(coordinates) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    flat, stride = None, 1
    for k in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        c, d = coordinates[k], dims[k]
        if modes[k] == "wrap":
            c = mod(c, d)
        elif modes[k] == "clip":
            c = clip(c, 0, d - 1)
        elif modes[k] != "raise":
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got "
                             f"{modes[k]!r})")
        elif is_concrete(c):
            values = concrete_values(c, "", "")
            if _np.any((values < 0) | (values >= d)):
                raise ValueError("invalid entry in coordinates array")
        else:
            c = clip(c, 0, d - 1)
        term = c * stride if stride != 1 else c
        flat = term if flat is None else flat + term
        stride *= d
    return flat
