"""Building and rearranging arrays: append, insert, delete, block, kron, rot90, rollaxis,
resize, select, piecewise, choose, compress, extract, diagflat, matvec, vecmat, vecdot;
and NumPy's own index builders (tri, tril_indices, triu_indices, diag_indices), re-exported.

Where the *positions* are given by a mask or by indices (``compress``, ``extract``,
``delete``, ``insert``), they must be concrete: the shape of the result depends on them,
so under ``vmap``/``jit`` a traced mask raises ConcretizationError.  The values moved
keep their derivatives.
"""
import builtins
from typing import Any, Callable, Sequence

import numpy as _np
from numpy import diag_indices, tri, tril_indices, triu_indices  # noqa: F401

from ..kernels._broadcast import broadcast_shapes
from . import _ufunc_methods
from ._convert import asarray, concrete_values, is_concrete, one_axis, write_out
from ._ufunc_keywords import gufunc_keywords
from .constructors import _traced, astype, zeros_like
from .indexing import at, diag, take, take_along_axis, where
from .manipulation import (broadcast_arrays, broadcast_to, concatenate, expand_dims, flip,
                           moveaxis, ravel, reshape, stack, transpose)
from .products import matmul
from .reductions import any as _any
from .reductions import sum
from ._ufunc_wrappers import stands_for
from .ufuncs import clip, conjugate, logical_and, logical_not, mod, multiply
from ..typing import Array, ArrayLike, Axis

__all__ = ["append", "insert", "delete", "block", "kron", "rot90", "rollaxis", "resize",
           "select", "piecewise", "choose", "compress", "extract", "tri", "tril_indices",
           "triu_indices", "diag_indices", "diagflat", "matvec", "vecmat", "vecdot"]


def _mask_values(mask, what):
    return concrete_values(mask, what, "Select with fnp.where(mask, x, fill) instead, which "
                                       "keeps the shape.")


def append(arr: ArrayLike, values: ArrayLike, axis: Axis = None) -> Array:
    """``np.append(arr, values, axis=None)``: ``values`` attached at the end (both
    flattened when ``axis`` is None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.append(np.array([1.0, 2.0]), [[3.0], [4.0]])
    array([1., 2., 3., 4.])
    """
    arr = asarray(arr)
    if axis is None:
        return concatenate([ravel(arr), ravel(asarray(values))], 0)
    return concatenate([arr, asarray(values)], axis)


def insert(arr: ArrayLike, obj: ArrayLike | slice, values: ArrayLike, axis: Axis = None) -> Array:
    """``np.insert(arr, obj, values, axis=None)``: ``values`` inserted before the indices
    ``obj`` (concrete) along ``axis`` (the flattened array when None); differentiable in
    ``arr`` and ``values`` (cast to ``arr``'s dtype, as NumPy).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.insert(np.array([1.0, 2.0, 3.0]), 1, 9.0)
    array([1., 9., 2., 3.])
    >>> fnp.insert(np.array([1.0, 2.0, 3.0]), [0, 2], [7.0, 8.0])
    array([7., 1., 2., 8., 3.])
    """
    arr = asarray(arr)
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = one_axis(axis, arr.ndim)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        indices = _np.arange(*obj.indices(n), dtype=_np.intp)
    else:
        indices = _np.array(concrete_values(asarray(obj), "insert's positions", "Pass them "
                                                          "as constants."))
        if indices.dtype == bool:
            raise IndexError("insert: boolean arrays are not allowed as indices; use "
                             "np.flatnonzero(mask) to turn a mask into indices")
    values = asarray(values)
    if values.dtype != arr.dtype:
        values = astype(values, arr.dtype)
    if indices.ndim == 0:
        index = int(indices)
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with size {n}")
        index = index + n if index < 0 else index
        values = reshape(values, (1,) * (arr.ndim - values.ndim) + values.shape)
        values = moveaxis(values, 0, axis)
        shape = arr.shape[:axis] + (values.shape[axis],) + arr.shape[axis + 1:]
        values = broadcast_to(values, shape)
        pre = (slice(None),) * axis
        return concatenate([arr[pre + (slice(None, index),)], values,
                            arr[pre + (slice(index, None),)]], axis)
    indices = indices.astype(_np.intp)
    if _np.any((indices < -n) | (indices > n)):
        raise IndexError(f"index out of bounds for axis {axis} with size {n}")
    indices = _np.where(indices < 0, indices + n, indices)
    numnew = indices.shape[0]
    order = indices.argsort(kind="mergesort")
    indices[order] += _np.arange(numnew)
    source = _np.empty(n + numnew, _np.intp)  # each new position: where its value comes from
    old = _np.ones(n + numnew, bool)
    old[indices] = False
    source[old] = _np.arange(n)
    source[indices] = n + _np.arange(numnew)
    shape = arr.shape[:axis] + (numnew,) + arr.shape[axis + 1:]
    values = reshape(values, (1,) * builtins.max(arr.ndim - values.ndim, 0) + values.shape)
    values = broadcast_to(values, broadcast_shapes(values.shape, shape))
    return take(concatenate([arr, values], axis), source, axis)


def delete(arr: ArrayLike, obj: ArrayLike | slice, axis: Axis = None) -> Array:
    """``np.delete(arr, obj, axis=None)``: ``arr`` without the entries at ``obj`` (indices,
    a slice or a boolean mask; concrete) along ``axis`` (flattened when None).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.delete(np.array([1.0, 2.0, 3.0, 4.0]), [0, 2])
    array([2., 4.])
    """
    arr = asarray(arr)
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = one_axis(axis, arr.ndim)
    if not isinstance(obj, slice):
        obj = _mask_values(asarray(obj), "delete (its result's length)")
    keep = _np.delete(_np.arange(arr.shape[axis]), obj)
    return take(arr, keep, axis)


def _block_depth(arrays, where_="arrays"):
    if isinstance(arrays, tuple):
        raise TypeError(f"{where_} is a tuple. Only lists can be used to arrange blocks, and "
                        f"np.block does not allow implicit conversion from tuple to ndarray.")
    if isinstance(arrays, list):
        if not arrays:
            raise ValueError(f"List at {where_} cannot be empty")
        depths = [_block_depth(a, f"{where_}[{i}]") for i, a in enumerate(arrays)]
        if len({d for d, _ in depths}) != 1:
            raise ValueError(f"List depths are mismatched inside {where_}: each nesting level "
                             f"must hold only lists or only arrays")
        return depths[0][0] + 1, builtins.max(nd for _, nd in depths)
    return 0, asarray(arrays).ndim


def block(arrays: Sequence[ArrayLike]) -> Array:
    """``np.block(arrays)``: assemble an array from nested lists of blocks (the innermost
    lists join along the last axis, the next along the one before...).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.block([[np.eye(2), np.zeros((2, 1))], [np.ones((1, 2)), np.full((1, 1), 5.0)]])
    array([[1., 0., 0.],
           [0., 1., 0.],
           [1., 1., 5.]])
    """
    depth, max_ndim = _block_depth(arrays)
    ndim = builtins.max(depth, max_ndim)

    def assemble(a, level):
        if level < depth:
            return concatenate([assemble(x, level + 1) for x in a], axis=-(depth - level))
        a = asarray(a)
        return reshape(a, (1,) * (ndim - a.ndim) + a.shape)
    return assemble(arrays, 0)


def kron(a: ArrayLike, b: ArrayLike) -> Array:
    """``np.kron(a, b)``: the Kronecker product, blocks ``a[i, j] * b``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.kron(np.array([1.0, 10.0]), np.array([1.0, 2.0, 3.0]))
    array([ 1.,  2.,  3., 10., 20., 30.])
    """
    b = asarray(b)
    a = asarray(a)
    if a.ndim < b.ndim:
        a = reshape(a, (1,) * (b.ndim - a.ndim) + a.shape)
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    nd = builtins.max(a.ndim, b.ndim)
    b = reshape(b, (1,) * (nd - b.ndim) + b.shape)
    shape = tuple(x * y for x, y in zip(a.shape, b.shape))
    a2 = expand_dims(a, tuple(range(1, 2 * nd, 2)))
    b2 = expand_dims(b, tuple(range(0, 2 * nd, 2)))
    return reshape(multiply(a2, b2), shape)


def rot90(m: ArrayLike, k: int = 1, axes: Axis = (0, 1)) -> Array:
    """``np.rot90(m, k=1, axes=(0, 1))``: rotate by 90 degrees ``k`` times, from the first
    axis towards the second.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.rot90(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([[2., 4.],
           [1., 3.]])
    """
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = asarray(m)
    if axes[0] == axes[1] or builtins.abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not all(-m.ndim <= ax < m.ndim for ax in axes):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return transpose(flip(m, axes[1]), perm)
    return flip(transpose(m, perm), axes[1])


def rollaxis(a: ArrayLike, axis: Axis, start: ArrayLike = 0) -> Array:
    """``np.rollaxis(a, axis, start=0)``: move ``axis`` to before ``start`` (prefer
    ``moveaxis``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.rollaxis(np.ones((3, 4, 5)), 2).shape
    (5, 3, 4)
    """
    a = asarray(a)
    n = a.ndim
    axis = one_axis(axis, n)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise _np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but "
                                       f"{start} was passed in")
    if axis < start:
        start -= 1
    if axis == start:
        return a
    perm = list(range(n))
    perm.remove(axis)
    perm.insert(start, axis)
    return transpose(a, perm)


def resize(a: ArrayLike, new_shape: int | Sequence[int]) -> Array:
    """``np.resize(a, new_shape)``: ``a`` flattened, repeated as often as needed, cut to
    ``new_shape``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.resize(np.array([1.0, 2.0, 3.0]), (2, 4))
    array([[1., 2., 3., 1.],
           [2., 3., 1., 2.]])
    """
    shape = (int(new_shape),) if isinstance(new_shape, (int, _np.integer)) else \
        tuple(int(d) for d in new_shape)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    a = ravel(asarray(a))
    size = int(_np.prod(shape, dtype=_np.int64))
    if a.shape[0] == 0 or size == 0:
        return _np.zeros(shape, a.dtype)
    repeats = -(-size // a.shape[0])
    return reshape(concatenate([a] * repeats)[:size], shape)


def _proxy(x):
    """A stand-in with ``x``'s dtype and number of axes, for ``np.result_type``."""
    return _np.zeros((1,) * x.ndim, x.dtype) if not isinstance(x, _np.ndarray) else x


def select(condlist: Sequence[ArrayLike], choicelist: Sequence[ArrayLike],
           default: ArrayLike = 0) -> Array:
    """``np.select(condlist, choicelist, default=0)``: from the first choice whose
    condition holds, else ``default``; differentiable in the choices and ``default``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.array([-2.0, 0.5, 3.0])
    >>> fnp.select([x < 0, x > 1], [-x, x ** 2], default=0.0)
    array([2., 0., 9.])
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    # (NumPy 2 keeps Python numbers weakly typed here: float32 choices stay float32)
    weak = [c if type(c) in (int, float, complex) else _proxy(asarray(c))
            for c in list(choicelist) + [default]]
    dtype = _np.result_type(*weak)
    choices = [asarray(c) for c in choicelist]
    default = asarray(default)
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != bool:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    result = astype(default, dtype)
    for cond, choice in zip(conds[::-1], choices[::-1]):
        result = where(cond, astype(choice, dtype), result)
    shape = broadcast_shapes(*[c.shape for c in conds + choices + [default]])
    return broadcast_to(result, shape) if result.shape != shape else result


def _one_each(condlist):
    if _np.isscalar(condlist) or _traced(condlist) and asarray(condlist).ndim == 0:
        return [reshape(asarray(condlist), (1,))]
    return [reshape(asarray(c), (1,)) for c in condlist]


def _is_sequence(c):
    return isinstance(c, (list, _np.ndarray)) or (_traced(c) and asarray(c).ndim > 0)


def piecewise(x: ArrayLike, condlist: Sequence[ArrayLike],
              funclist: Sequence[Callable[..., Any] | ArrayLike], *args: ArrayLike,
              **kw: Any) -> Array:
    """``np.piecewise(x, condlist, funclist, *args, **kw)``: ``funclist[i](x)`` where
    ``condlist[i]`` holds (a constant for a non-callable entry; one extra function for
    "otherwise"), zero elsewhere; the dtype is ``x``'s.

    With concrete conditions each function sees only its own entries, as in NumPy (so a
    branch never computes on values it does not own).  Under ``vmap``/``jit`` each
    function sees all of ``x`` and the results are selected with ``where``: guard
    branches that would give NaN outside their domain (the double-where idiom).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> f = lambda x: fnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v ** 2])
    >>> f(np.array([-2.0, 3.0])), fg.grad(lambda x: fnp.sum(f(x)))(np.array([-2.0, 3.0]))
    (array([2., 9.]), array([-1.,  6.]))
    """
    x = asarray(x)
    if x.ndim == 0:  # (as a one-element array, then back)
        return reshape(piecewise(reshape(x, (1,)), _one_each(condlist), funclist, *args,
                                 **kw), ())
    if _np.isscalar(condlist) or (not _is_sequence(condlist[0]) and x.ndim != 0):
        condlist = [condlist]  # (NumPy's rule for "one condition")
    conds = [broadcast_to(asarray(c), x.shape) if asarray(c).shape != x.shape else asarray(c)
             for c in condlist]
    conds = [astype(c, bool) for c in conds]
    n = len(conds)
    if n == len(funclist) - 1:
        taken = _any(stack(conds), axis=0) if conds else _np.zeros(x.shape, bool)
        conds.append(logical_not(taken))
    elif n != len(funclist):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros_like(x)
    concrete = all(is_concrete(c) for c in conds)
    for cond, func in zip(conds, funclist):
        if concrete:
            idx = _np.nonzero(concrete_values(cond, "", ""))
            if not callable(func):
                y = at(y)[idx].set(astype(asarray(func), x.dtype))
            elif idx[0].size:
                y = at(y)[idx].set(astype(asarray(func(x[idx], *args, **kw)), x.dtype))
        else:
            value = func(x, *args, **kw) if callable(func) else func
            y = where(cond, astype(asarray(value), x.dtype), y)
    return y


def choose(a: ArrayLike, choices: ArrayLike, out: Any = None, mode: str = "raise") -> Array:
    """``np.choose(a, choices, out=None, mode='raise')``: ``choices[a[i]][i]``
    (broadcast together); differentiable in the choices.  ``mode``: 'raise' (checked when
    ``a`` is concrete), 'wrap' or 'clip'.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.choose(np.array([0, 1, 0]), [np.array([1.0, 2.0, 3.0]), np.array([9.0, 8.0, 7.0])])
    array([1., 8., 3.])
    """
    if out is not None:
        return write_out("choose", out, choose(a, choices, None, mode), "unsafe")
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    a = asarray(a)
    if a.dtype.kind not in "iub":
        raise TypeError(f"choose: the index array must be integers, got {a.dtype}")
    choices = [asarray(c) for c in choices]
    n = len(choices)
    if mode == "raise" and is_concrete(a):
        values = concrete_values(a, "", "")
        if values.size and (values.min() < 0 or values.max() >= n):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        a = mod(a, n)
    elif mode == "clip":
        a = clip(a, 0, n - 1)
    dtype = _np.result_type(*[_proxy(c) for c in choices])
    arrays = broadcast_arrays(a, *[astype(c, dtype) for c in choices])
    stacked = stack(arrays[1:])
    index = reshape(astype(arrays[0], _np.intp), (1,) + arrays[0].shape)
    return reshape(take_along_axis(stacked, index, 0), arrays[0].shape)


def compress(condition: ArrayLike, a: ArrayLike, axis: Axis = None, out: Any = None) -> Array:
    """``np.compress(condition, a, axis=None, out=None)``: the slices of ``a`` along
    ``axis`` where ``condition`` (concrete) is true.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.compress([False, True, True], np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), 0)
    array([[3., 4.],
           [5., 6.]])
    """
    if out is not None:
        return write_out("compress", out, compress(condition, a, axis), "unsafe")
    a = asarray(a)
    if axis is None or a.ndim == 0:  # (NumPy ravels a 0-d a: its axis 0 or -1 is the one)
        a, axis = ravel(a), 0 if axis is None else one_axis(axis, 1)
    axis = one_axis(axis, a.ndim)
    mask = _mask_values(asarray(condition), "compress (its result's length)")
    if mask.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return take(a, _np.compress(mask, _np.arange(a.shape[axis])), axis)


def extract(condition: ArrayLike, arr: ArrayLike) -> Array:
    """``np.extract(condition, arr)``: the entries of ``arr`` where ``condition``
    (concrete) is non-zero, flattened.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.array([[1.0, -2.0], [3.0, -4.0]])
    >>> fnp.extract(x > 0, x)
    array([1., 3.])
    """
    mask = _mask_values(asarray(condition), "extract (its result's length)")
    return take(ravel(asarray(arr)), _np.nonzero(_np.ravel(mask))[0])


def diagflat(v: ArrayLike, k: int = 0) -> Array:
    """``np.diagflat(v, k=0)``: a matrix with the flattened ``v`` on its ``k``-th diagonal.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.diagflat(np.array([[1.0, 2.0]]))
    array([[1., 0.],
           [0., 2.]])
    """
    return diag(ravel(asarray(v)), k)


@stands_for(_np.matvec)
def matvec(x1: ArrayLike, x2: ArrayLike, /, *, axes: Any = None, out: Any = None,
           dtype: Any = None, casting: str = "same_kind", order: str = "K", subok: bool = True,
           signature: Any = None, axis: Any = _np._NoValue, keepdims: bool = False) -> Array:
    """``np.matvec(x1, x2, /, *, axes=None)``: matrix-vector products over stacks,
    ``x1 @ x2`` with ``x1`` (..., m, n) and ``x2`` (..., n) (or the core axes ``axes``
    names, as NumPy's generalized ufuncs).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.matvec(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 1.0]))
    array([3., 7.])
    """
    if axis is not _np._NoValue or keepdims:  # (NumPy's TypeError, in its words: its
        _np.matvec(_np.empty((1, 1)), _np.empty(1), **_given(axis=axis, keepdims=keepdims))  # two core shapes differ)
    if out is not None or dtype is not None or signature is not None or casting != "same_kind":
        return gufunc_keywords(_np.matvec, lambda a, b: matvec(a, b, axes=axes), x1, x2, out,
                                dtype, casting, order, subok, signature)
    if axes is not None:
        return _ufunc_methods.with_core_axes(_np.matvec, matvec, (x1, x2), axes=axes)
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim < 2 or x2.ndim < 1:
        raise ValueError("matvec: x1 needs at least 2 axes and x2 at least 1")
    return matmul(x1, expand_dims(x2, -1))[..., 0]


@stands_for(_np.vecmat)
def vecmat(x1: ArrayLike, x2: ArrayLike, /, *, axes: Any = None, out: Any = None,
           dtype: Any = None, casting: str = "same_kind", order: str = "K", subok: bool = True,
           signature: Any = None, axis: Any = _np._NoValue, keepdims: bool = False) -> Array:
    """``np.vecmat(x1, x2, /, *, axes=None)``: vector-matrix products over stacks, with
    ``x1`` (..., n) and ``x2`` (..., n, m); ``x1`` is conjugated when complex, as NumPy's.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.vecmat(np.array([1.0, 1.0]), np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([4., 6.])
    """
    if axis is not _np._NoValue or keepdims:  # (NumPy's TypeError, in its words: its
        _np.vecmat(_np.empty(1), _np.empty((1, 1)), **_given(axis=axis, keepdims=keepdims))  # two core shapes differ)
    if out is not None or dtype is not None or signature is not None or casting != "same_kind":
        return gufunc_keywords(_np.vecmat, lambda a, b: vecmat(a, b, axes=axes), x1, x2, out,
                                dtype, casting, order, subok, signature)
    if axes is not None:
        return _ufunc_methods.with_core_axes(_np.vecmat, vecmat, (x1, x2), axes=axes)
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim < 1 or x2.ndim < 2:
        raise ValueError("vecmat: x1 needs at least 1 axis and x2 at least 2")
    if x1.dtype.kind == "c":  # NumPy conjugates the vector
        x1 = conjugate(x1)
    return matmul(expand_dims(x1, -2), x2)[..., 0, :]


@stands_for(_np.vecdot)
def vecdot(x1: ArrayLike, x2: ArrayLike, /, *, axis: Axis = -1, axes: Any = None,
           keepdims: bool = False, out: Any = None, dtype: Any = None,
           casting: str = "same_kind", order: str = "K", subok: bool = True,
           signature: Any = None) -> Array:
    """``np.vecdot(x1, x2, /, *, axis=-1, axes=None, keepdims=False)``: dot products of
    vectors along ``axis``, broadcasting the other axes; ``x1`` is conjugated when complex,
    as NumPy's.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.vecdot(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([1.0, 1.0]))
    array([3., 7.])
    """
    if out is not None or dtype is not None or signature is not None or casting != "same_kind":
        return gufunc_keywords(_np.vecdot, lambda a, b: vecdot(a, b, axis=axis, axes=axes,
                                                                keepdims=keepdims),
                                x1, x2, out, dtype, casting, order, subok, signature)
    if axes is not None or keepdims:
        return _ufunc_methods.with_core_axes(_np.vecdot, vecdot, (x1, x2), axes=axes,
                                             axis=None if axes is not None else axis,
                                             keepdims=keepdims)
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim < 1 or x2.ndim < 1:
        raise ValueError("vecdot: both inputs need at least one axis")
    if x1.shape[axis] != x2.shape[axis]:
        raise ValueError(f"vecdot: the vectors have different lengths along axis {axis} "
                         f"({x1.shape[axis]} and {x2.shape[axis]})")
    if x1.dtype.kind == "c":  # NumPy's vecdot is sum(conj(x1) * x2)
        x1 = conjugate(x1)
    if x1.dtype == x2.dtype == _np.bool_:  # (NumPy's: any of the ands, a boolean)
        return _any(logical_and(x1, x2), axis=axis)
    return sum(multiply(x1, x2), axis=axis)


def _given(**keywords):
    """The ``keywords`` given a value (not NumPy's marker of none, nor a false keepdims)."""
    return {k: v for k, v in keywords.items() if v is not _np._NoValue and v is not False}
