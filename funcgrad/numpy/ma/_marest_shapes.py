"""Joining, differences, arrays like another and shape helpers of :mod:`funcgrad.numpy.ma`
(NumPy's ``np.ma`` and ``np.ma.extras`` names), with data that may be traced.

NumPy builds most of these by calling the plain function twice, once on the data and once
on the full mask (``np.ma.extras._fromnxfunction``); so do these, so that the masks (a
full ``False`` mask rather than ``nomask``, for instance) are NumPy's.
"""
from typing import Any

import numpy as _np

from ...core import Tracer
from .. import manipulation as _m
from .. import _shapes as _sh
from ._core import MaskedArray, _full_mask, getdata, getmask, getmaskarray, make_mask, nomask
from ._extras import _index_model, concatenate
from ._ufuncs import subtract

__all__ = ["hstack", "vstack", "row_stack", "column_stack", "dstack", "append",
           "atleast_1d", "atleast_2d", "atleast_3d", "diff", "ediff1d", "zeros_like",
           "ones_like", "empty_like", "masked_all_like", "harden_mask", "soften_mask",
           "squeeze", "expand_dims", "swapaxes", "ravel", "reshape", "transpose", "shape",
           "size", "ndim", "clump_masked", "clump_unmasked", "flatnotmasked_contiguous",
           "notmasked_contiguous"]


def _on_both(fn, arrays):
    """``fn`` (funcgrad.numpy's, NumPy's of the same name for known masks) on the arrays'
    data and on their full masks: NumPy's masked result."""
    data = fn([getdata(a) for a in arrays])
    masks = [getmaskarray(a) for a in arrays]
    traced = any(isinstance(m, Tracer) for m in masks)
    mask = fn(masks) if traced else _np.asarray(getattr(_np, fn.__name__)(masks))
    return MaskedArray(data, mask=make_mask(mask, shrink=False))


def hstack(tup: Any) -> MaskedArray:
    """``np.ma.hstack``: the arrays joined column-wise, masks and all.

    >>> from funcgrad.numpy import ma
    >>> ma.hstack([ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0]])
    masked_array(data=[1.0, --, 3.0],
                 mask=[False,  True, False],
           fill_value=1e+20)
    """
    return _on_both(_m.hstack, tup)


def vstack(tup: Any) -> MaskedArray:
    """``np.ma.vstack``: the arrays stacked row-wise, masks and all.

    >>> from funcgrad.numpy import ma
    >>> ma.vstack([ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0, 4.0]]).mask
    array([[False,  True],
           [False, False]])
    """
    return _on_both(_m.vstack, tup)


row_stack = vstack


def column_stack(tup: Any) -> MaskedArray:
    """``np.ma.column_stack``: 1-d arrays as the columns of a 2-d one, masks and all.

    >>> from funcgrad.numpy import ma
    >>> ma.column_stack([ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0, 4.0]]).mask
    array([[False, False],
           [ True, False]])
    """
    return _on_both(_m.column_stack, tup)


def dstack(tup: Any) -> MaskedArray:
    """``np.ma.dstack``: the arrays stacked along a third axis, masks and all.

    >>> from funcgrad.numpy import ma
    >>> ma.dstack([ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0, 4.0]]).shape
    (1, 2, 2)
    """
    return _on_both(_m.dstack, tup)


def append(a: Any, b: Any, axis: Any = None) -> MaskedArray:
    """``np.ma.append``: ``b`` appended to ``a`` (both flattened when ``axis`` is None).

    >>> from funcgrad.numpy import ma
    >>> ma.append(ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0]).mask
    array([False,  True, False])
    """
    if axis is None:
        a, b = ravel(a), ravel(b)
        axis = 0
    return concatenate([a, b], axis=axis)


def _each(fn, arys):
    res = []
    for x in arys:
        m = getmaskarray(x)
        m = fn(m) if isinstance(m, Tracer) else getattr(_np, fn.__name__)(m)
        res.append(MaskedArray(fn(getdata(x)), mask=make_mask(m, shrink=False)))
    return res[0] if len(res) == 1 else res


def atleast_1d(*arys: Any) -> Any:
    """``np.ma.atleast_1d``: each input with at least one axis, mask and all (a list
    when several are given).

    >>> from funcgrad.numpy import ma
    >>> ma.atleast_1d(2.0).shape
    (1,)
    """
    return _each(_sh.atleast_1d, arys)


def atleast_2d(*arys: Any) -> Any:
    """``np.ma.atleast_2d``: each input with at least two axes, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.atleast_2d(ma.masked_array([1.0, 2.0], mask=[0, 1])).mask
    array([[False,  True]])
    """
    return _each(_sh.atleast_2d, arys)


def atleast_3d(*arys: Any) -> Any:
    """``np.ma.atleast_3d``: each input with at least three axes, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.atleast_3d(ma.masked_array([1.0, 2.0], mask=[0, 1])).shape
    (1, 2, 1)
    """
    return _each(_sh.atleast_3d, arys)


def _as_masked(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _edge(v, like, axis):
    """``prepend``/``append`` of :func:`diff`: a scalar broadcast to one slice of ``like``."""
    v = _as_masked(v)
    if v.ndim == 0:
        shape = list(like.shape)
        shape[axis] = 1
        v = v._same_mask(_sh.broadcast_to(v._data, tuple(shape)),
                         v._mask if v._mask is nomask else _full_mask(v._mask, tuple(shape)))
    return v


def diff(a: Any, /, n: int = 1, axis: int = -1, prepend: Any = _np._NoValue,
         append: Any = _np._NoValue) -> Any:
    """``np.ma.diff``: the ``n``-th differences along ``axis``, masked where either term
    is (the data there: the raw difference, carrying no derivative, as NumPy's).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.numpy import ma
    >>> ma.diff(ma.masked_array([1.0, 4.0, 9.0, 16.0], mask=[0, 0, 1, 0]))
    masked_array(data=[3.0, --, --],
                 mask=[False,  True,  True],
           fill_value=1e+20)
    >>> fg.grad(lambda d: ma.diff(ma.masked_array(d, mask=[0, 0, 1, 0])).sum())(np.ones(4))
    array([-1.,  1.,  0.,  0.])
    """
    if n == 0:
        return a
    if n < 0:
        raise ValueError("order must be non-negative but got " + repr(n))
    a = _as_masked(a)
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    parts = [a]
    if prepend is not _np._NoValue:
        parts.insert(0, _edge(prepend, a, axis))
    if append is not _np._NoValue:
        parts.append(_edge(append, a, axis))
    if len(parts) > 1:
        a = concatenate(parts, axis)
    axis = _axis(axis, a.ndim)
    hi = tuple(slice(1, None) if i == axis else slice(None) for i in range(a.ndim))
    lo = tuple(slice(None, -1) if i == axis else slice(None) for i in range(a.ndim))
    for _ in range(n):
        a = _as_masked(subtract.wrapped(a[hi], a[lo]))
    return a


def _axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def ediff1d(arr: Any, to_end: Any = None, to_begin: Any = None) -> MaskedArray:
    """``np.ma.ediff1d``: the differences of the flattened array, with ``to_begin`` and
    ``to_end`` put before and after, masks and all.

    >>> from funcgrad.numpy import ma
    >>> ma.ediff1d(ma.masked_array([1.0, 4.0, 9.0], mask=[0, 0, 1]), to_end=[0.0]).mask
    array([False,  True, False])
    """
    flat = ravel(arr)
    ed = _as_masked(subtract(flat[1:], flat[:-1]))
    parts = [ed]
    if to_begin is not None:
        parts.insert(0, ravel(to_begin))
    if to_end is not None:
        parts.append(ravel(to_end))
    return hstack(parts) if len(parts) > 1 else ed


def _like(fill):
    def make(prototype, dtype=None, order="K", subok=True, shape=None):
        d = getdata(prototype)
        dtype = _np.result_type(d) if dtype is None else dtype
        data = _np.full(_np.shape(d) if shape is None else shape, fill, dtype)
        m = getmask(prototype)
        return MaskedArray(data, mask=m if shape is None else nomask)
    return make


def zeros_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
               shape: Any = None) -> MaskedArray:
    """``np.ma.zeros_like``: zeros of ``a``'s shape and dtype, with ``a``'s mask (as
    NumPy's); the result holds no derivative.

    >>> from funcgrad.numpy import ma
    >>> ma.zeros_like(ma.masked_array([1.0, 2.0], mask=[0, 1]))
    masked_array(data=[0.0, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """
    return _like(0)(a, dtype, order, subok, shape)


def ones_like(a: Any, dtype: Any = None, order: str = "K", subok: bool = True,
              shape: Any = None) -> MaskedArray:
    """``np.ma.ones_like``: ones of ``a``'s shape and dtype, with ``a``'s mask.

    >>> from funcgrad.numpy import ma
    >>> ma.ones_like(ma.masked_array([1.0, 2.0], mask=[0, 1])).filled(0.0)
    array([1., 0.])
    """
    return _like(1)(a, dtype, order, subok, shape)


def empty_like(prototype: Any, dtype: Any = None, order: str = "K", subok: bool = True,
               shape: Any = None) -> MaskedArray:
    """``np.ma.empty_like``: an array of ``prototype``'s shape, dtype and mask whose
    values are not to be relied on (zeros here).

    >>> from funcgrad.numpy import ma
    >>> ma.empty_like(ma.masked_array([1.0, 2.0], mask=[0, 1])).mask
    array([False,  True])
    """
    return _like(0)(prototype, dtype, order, subok, shape)


def masked_all_like(arr: Any) -> MaskedArray:
    """``np.ma.masked_all_like``: an array of ``arr``'s shape and dtype, every entry
    masked.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_all_like([1.0, 2.0]).mask
    array([ True,  True])
    """
    d = getdata(arr)
    return MaskedArray(_np.zeros(_np.shape(d), _np.result_type(d)),
                       mask=_np.ones(_np.shape(d), bool))


def harden_mask(a: MaskedArray) -> MaskedArray:
    """``np.ma.harden_mask``: make ``a``'s mask hard (setting an item no longer unmasks
    it) and return ``a``.

    >>> from funcgrad.numpy import ma
    >>> x = ma.harden_mask(ma.masked_array([1.0, 2.0], mask=[0, 1]))
    >>> x[1] = 5.0
    >>> x.mask
    array([False,  True])
    """
    _check_masked(a, "harden_mask")
    a._hardmask = True
    return a


def soften_mask(a: MaskedArray) -> MaskedArray:
    """``np.ma.soften_mask``: make ``a``'s mask soft again (setting an item unmasks it)
    and return ``a``.

    >>> from funcgrad.numpy import ma
    >>> x = ma.soften_mask(ma.masked_array([1.0, 2.0], mask=[0, 1], hard_mask=True))
    >>> x[1] = 5.0
    >>> x.mask
    array([False, False])
    """
    _check_masked(a, "soften_mask")
    a._hardmask = False
    return a


def _check_masked(a, what):
    if not isinstance(a, MaskedArray):
        raise TypeError(f"funcgrad.numpy.ma.{what} changes a funcgrad masked array in place "
                        f"and was given {type(a).__name__}: make one with ma.masked_array(x)")


def squeeze(a: Any, axis: Any = None) -> Any:
    """``np.ma.squeeze``: ``a`` without its length-one axes, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.squeeze(ma.masked_array([[1.0, 2.0]], mask=[[0, 1]])).mask
    array([False,  True])
    """
    return _as_masked(a)._map(_sh.squeeze, axis)


def expand_dims(a: Any, axis: Any) -> Any:
    """``np.ma.expand_dims``: ``a`` with a new length-one axis at ``axis``, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.expand_dims(ma.masked_array([1.0, 2.0], mask=[0, 1]), 0).shape
    (1, 2)
    """
    return _as_masked(a)._map(_sh.expand_dims, axis)


def swapaxes(a: Any, axis1: int, axis2: int) -> MaskedArray:
    """``np.ma.swapaxes``: ``a`` with two axes interchanged, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.swapaxes(ma.masked_array([[1.0, 2.0]], mask=[[0, 1]]), 0, 1).mask
    array([[False],
           [ True]])
    """
    return _as_masked(a)._map(_sh.swapaxes, axis1, axis2)


def ravel(a: Any, order: str = "C") -> MaskedArray:
    """``np.ma.ravel``: ``a``'s entries as a flat masked array.

    >>> from funcgrad.numpy import ma
    >>> ma.ravel(ma.masked_array([[1.0], [2.0]], mask=[[0], [1]])).mask
    array([False,  True])
    """
    return _as_masked(a).ravel(order)


def reshape(a: Any, new_shape: Any, order: str = "C") -> MaskedArray:
    """``np.ma.reshape``: ``a``'s entries in the shape ``new_shape``, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.reshape(ma.masked_array([1.0, 2.0], mask=[0, 1]), (2, 1)).shape
    (2, 1)
    """
    return _as_masked(a).reshape(new_shape, order=order)


def transpose(a: Any, axes: Any = None) -> MaskedArray:
    """``np.ma.transpose``: ``a`` with its axes reversed (or permuted by ``axes``).

    >>> from funcgrad.numpy import ma
    >>> ma.transpose(ma.masked_array([[1.0, 2.0]], mask=[[0, 1]])).shape
    (2, 1)
    """
    return _as_masked(a).transpose(axes)


def shape(obj: Any) -> tuple:
    """``np.ma.shape``: the shape of ``obj``'s data.

    >>> from funcgrad.numpy import ma
    >>> ma.shape(ma.masked_array([[1.0, 2.0]]))
    (1, 2)
    """
    return _np.shape(getdata(obj))


def size(obj: Any, axis: Any = None) -> int:
    """``np.ma.size``: the number of entries of ``obj`` (along ``axis``), masked or not.

    >>> from funcgrad.numpy import ma
    >>> ma.size(ma.masked_array([1.0, 2.0], mask=[0, 1]))
    2
    """
    d = getdata(obj)
    return d.size if axis is None else d.shape[axis]


def ndim(obj: Any) -> int:
    """``np.ma.ndim``: the number of axes of ``obj``.

    >>> from funcgrad.numpy import ma
    >>> ma.ndim(ma.masked_array([[1.0, 2.0]]))
    2
    """
    return _np.ndim(getdata(obj))


def clump_masked(a: Any) -> list:
    """``np.ma.clump_masked``: the slices of the runs of masked entries of a 1-d array
    (needs the mask's values; NumPy's slices, some of whose bounds are NumPy integers).

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> ma.clump_masked(ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[1, 1, 0, 1]))
    [slice(0, np.int64(2), None), slice(np.int64(3), 4, None)]
    """
    return _np.ma.clump_masked(_index_model(a, "clump_masked"))


def clump_unmasked(a: Any) -> list:
    """``np.ma.clump_unmasked``: the slices of the runs of unmasked entries of a 1-d
    array (needs the mask's values).

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> ma.clump_unmasked(ma.masked_array([1.0, 2.0, 3.0, 4.0], mask=[1, 0, 0, 1]))
    [slice(np.int64(1), np.int64(3), None)]
    """
    return _np.ma.clump_unmasked(_index_model(a, "clump_unmasked"))


def flatnotmasked_contiguous(a: Any) -> list:
    """``np.ma.flatnotmasked_contiguous``: the slices of the runs of unmasked entries of
    the flattened array.

    >>> from funcgrad.numpy import ma
    >>> ma.flatnotmasked_contiguous(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0]))
    [slice(0, 1, None), slice(2, 3, None)]
    """
    return _np.ma.flatnotmasked_contiguous(_index_model(a, "flatnotmasked_contiguous"))


def notmasked_contiguous(a: Any, axis: Any = None) -> list:
    """``np.ma.notmasked_contiguous``: the slices of the runs of unmasked entries
    (along ``axis``: one list per 1-d slice).

    >>> from funcgrad.numpy import ma
    >>> ma.notmasked_contiguous(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]]), 1)
    [[slice(0, 1, None)], [slice(0, 2, None)]]
    """
    return _np.ma.notmasked_contiguous(_index_model(a, "notmasked_contiguous"), axis)
