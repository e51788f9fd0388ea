"""Joining, selecting, products and row/column helpers of :mod:`funcgrad.numpy.ma`
(NumPy's ``np.ma`` and ``np.ma.extras`` names), with data that may be traced."""
from typing import Any, Callable

import numpy as _np

from ...core import Tracer
from .. import manipulation as _m
from .. import products as _p
from .. import reductions as _r
from .. import ufuncs as _u
from .._convert import stack as _stack
from ..constructors import astype
from ..indexing import take
from ..searching import where as _where
from .._shapes import moveaxis
from ._core import (MaskedArray, _concrete_mask, _full_mask, _known, filled, getdata,
                    getmask, getmaskarray, make_mask, mask_or, masked, nomask)
from ._ufuncs import _wrap, greater, less
from ...typing import Array


def _masks(arrays):
    return [getmaskarray(a) for a in arrays]


def concatenate(arrays: Any, axis: int = 0) -> MaskedArray:
    """``np.ma.concatenate``: the arrays joined along ``axis``, masks and all.

    >>> from funcgrad.numpy import ma
    >>> ma.concatenate([ma.masked_array([1.0], mask=[1]), [2.0]]).mask
    array([ True, False])
    """
    data = _m.concatenate([getdata(a) for a in arrays], axis=axis)
    if all(getmask(a) is nomask for a in arrays):
        return _wrap(data, nomask)
    ms = _masks(arrays)
    dm = _m.concatenate(ms, axis=axis) if any(isinstance(x, Tracer) for x in ms) else \
        _np.concatenate(ms, axis=axis)
    return _wrap(data, make_mask(dm))


def stack(arrays: Any, axis: int = 0) -> MaskedArray:
    """``np.ma.stack``: the arrays stacked along a new axis, masks and all.

    >>> from funcgrad.numpy import ma
    >>> ma.stack([ma.masked_array([1.0], mask=[1]), [2.0]]).mask
    array([[ True],
           [False]])
    """
    data = _stack([getdata(a) for a in arrays], axis=axis)
    ms = _masks(arrays)
    dm = _stack(ms, axis=axis) if any(isinstance(x, Tracer) for x in ms) else \
        _np.stack(ms, axis=axis)
    return MaskedArray(data, mask=make_mask(dm))


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """``np.ma.where``: entries of ``x`` where ``condition``, of ``y`` elsewhere, masked
    where the chosen entry is or the condition is (``ma.masked`` as a branch masks it).

    >>> from funcgrad.numpy import ma
    >>> ma.where([True, False], ma.masked_array([1.0, 2.0], mask=[0, 1]), 5.0)
    masked_array(data=[1., 5.],
                 mask=False,
           fill_value=1e+20)
    """
    if x is None and y is None:
        return _np.nonzero(_np.asarray(filled(condition, False)))
    if x is None or y is None:
        raise ValueError("Must provide both 'x' and 'y' or neither.")
    cf = filled(condition, False)
    cm = getmaskarray(condition)
    if x is masked and y is not masked:
        xd, yd = _np.zeros((), _np.result_type(getdata(y))), getdata(y)
        xm, ym = _np.ones((), bool), getmaskarray(y)
    elif y is masked and x is not masked:
        xd, yd = getdata(x), _np.zeros((), _np.result_type(getdata(x)))
        xm, ym = getmaskarray(x), _np.ones((), bool)
    else:
        xd, yd, xm, ym = getdata(x), getdata(y), getmaskarray(x), getmaskarray(y)
    data = _where(cf, xd, yd)
    mask = _where(cm, True, _where(cf, xm, ym))
    mask = _full_mask(make_mask(mask), _np.shape(data))
    return MaskedArray(data, mask=make_mask(mask))


def maximum(a: Any, b: Any) -> Any:
    """``np.ma.maximum``: the larger of ``a`` and ``b`` entry by entry, masked where
    either is (the data there: ``b``'s, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> ma.maximum(ma.masked_array([1.0, 5.0], mask=[0, 1]), [2.0, 2.0])
    masked_array(data=[2.0, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """
    return where(greater(a, b), a, b)


def minimum(a: Any, b: Any) -> Any:
    """``np.ma.minimum``: the smaller of ``a`` and ``b`` entry by entry, masked where
    either is.

    >>> from funcgrad.numpy import ma
    >>> ma.minimum(ma.masked_array([1.0, 5.0], mask=[0, 1]), [2.0, 2.0]).filled(0.0)
    array([1., 0.])
    """
    return where(less(a, b), a, b)


def clip(a: Any, a_min: Any = None, a_max: Any = None, out: None = None,
         **kwargs: Any) -> MaskedArray:
    """``np.ma.clip``: the data clipped to ``[a_min, a_max]``, the mask kept.

    >>> from funcgrad.numpy import ma
    >>> ma.clip(ma.masked_array([0.5, 3.0], mask=[0, 1]), 0.0, 1.0).filled(-1.0)
    array([ 0.5, -1. ])
    """
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    return a._same_mask(_u.clip(a._data, getdata(a_min) if a_min is not None else None,
                                getdata(a_max) if a_max is not None else None), a._mask)


def dot(a: Any, b: Any, strict: bool = False, out: None = None) -> MaskedArray:
    """``np.ma.dot``: the product of the data with masked entries as zeros; an entry of
    the result is masked where every term of its sum had a masked factor (with
    ``strict=True``, rows and columns holding a masked entry are masked first).

    >>> from funcgrad.numpy import ma
    >>> float(ma.dot(ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0, 4.0]))
    3.0
    """
    if strict and (_np.ndim(getdata(a)) == 2 or _np.ndim(getdata(b)) == 2):
        a, b = (mask_rowcols(a, 0) if _np.ndim(getdata(a)) == 2 else a,
                mask_rowcols(b, 1) if _np.ndim(getdata(b)) == 2 else b)
    am, bm = _known(getmaskarray(a)), _known(getmaskarray(b))
    d = _p.dot(filled(a, 0), filled(b, 0))
    if isinstance(am, Tracer) or isinstance(bm, Tracer):
        m = _u.logical_not(astype(_p.dot(astype(_u.logical_not(am), int),
                                         astype(_u.logical_not(bm), int)), bool))
    else:
        m = ~_np.dot(~am, ~bm)
    return MaskedArray(d, mask=m)


def allequal(a: Any, b: Any, fill_value: bool = True) -> bool:
    """``np.ma.allequal``: whether the unmasked entries are equal (masked ones count as
    equal when ``fill_value``, else any masked entry makes it False).

    >>> from funcgrad.numpy import ma
    >>> bool(ma.allequal(ma.masked_array([1.0, 2.0], mask=[0, 1]), [1.0, 5.0]))
    True
    """
    m = mask_or(getmask(a), getmask(b))
    x, y = _known(getdata(a)), _known(getdata(b))
    if m is nomask:
        return _np.bool_(_np.all(_np.equal(x, y)))
    if not fill_value:
        return False
    return _np.bool_(_np.all(_np.where(_concrete_mask(m, "allequal"), True, _np.equal(x, y))))


def allclose(a: Any, b: Any, masked_equal: bool = True, rtol: float = 1e-05,
             atol: float = 1e-08) -> bool:
    """``np.ma.allclose``: whether the unmasked entries are close (``|a - b| <= atol +
    rtol |b|``, infinities equal only to themselves); masked entries count as close
    when ``masked_equal``.

    >>> from funcgrad.numpy import ma
    >>> bool(ma.allclose(ma.masked_array([1.0, 2.0], mask=[0, 1]), [1.0 + 1e-9, 7.0]))
    True
    """
    x = _np.ma.MaskedArray(_known(getdata(a)), mask=_known(getmask(a)))
    y = _np.ma.MaskedArray(_known(getdata(b)), mask=_known(getmask(b)))
    return _np.ma.allclose(x, y, masked_equal=masked_equal, rtol=rtol, atol=atol)


def _row_col_mask(a, axis, what):
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    if a.ndim != 2:
        raise NotImplementedError(f"{what} works for 2D arrays only.")
    return a, _concrete_mask(_full_mask(a._mask, a.shape), what)


def mask_rowcols(a: Any, axis: Any = None) -> MaskedArray:
    """``np.ma.mask_rowcols``: a 2-d array with every row (``axis=0``), column
    (``axis=1``) or both (``None``) that holds a masked entry masked whole.

    >>> from funcgrad.numpy import ma
    >>> ma.mask_rowcols(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]])).mask
    array([[ True,  True],
           [False,  True]])
    """
    a, m = _row_col_mask(a, axis, "mask_rowcols")
    if not m.any():
        return a
    rows, cols = m.any(axis=1), m.any(axis=0)
    new = m.copy()
    if not axis:
        new |= rows[:, None]
    if axis in (None, 1, -1):
        new |= cols[None, :]
    return a._same_mask(a._data, new)


def mask_rows(a: Any, axis: Any = None) -> MaskedArray:
    """``np.ma.mask_rows``: every row of a 2-d array that holds a masked entry masked.

    >>> from funcgrad.numpy import ma
    >>> ma.mask_rows(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]])).mask
    array([[ True,  True],
           [False, False]])
    """
    return mask_rowcols(a, 0)


def mask_cols(a: Any, axis: Any = None) -> MaskedArray:
    """``np.ma.mask_cols``: every column of a 2-d array that holds a masked entry masked.

    >>> from funcgrad.numpy import ma
    >>> ma.mask_cols(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]])).mask
    array([[False,  True],
           [False,  True]])
    """
    return mask_rowcols(a, 1)


def compress_rowcols(x: Any, axis: Any = None) -> Array:
    """``np.ma.compress_rowcols``: the data of a 2-d array without the rows (``axis=0``),
    columns (``axis=1``) or both (``None``) that hold a masked entry.

    >>> from funcgrad.numpy import ma
    >>> ma.compress_rowcols(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]]))
    array([[3.]])
    """
    a, m = _row_col_mask(x, axis, "compress_rowcols")
    data = a._data
    if axis in (None, 0, -2):
        data = take(data, _np.flatnonzero(~m.any(axis=1)), axis=0)
    if axis in (None, 1, -1):
        data = take(data, _np.flatnonzero(~m.any(axis=0)), axis=1)
    return data


def compress_rows(a: Any) -> Array:
    """``np.ma.compress_rows``: the data of a 2-d array without its rows that hold a
    masked entry.

    >>> from funcgrad.numpy import ma
    >>> ma.compress_rows(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]]))
    array([[3., 4.]])
    """
    return compress_rowcols(a, 0)


def compress_cols(a: Any) -> Array:
    """``np.ma.compress_cols``: the data of a 2-d array without its columns that hold a
    masked entry.

    >>> from funcgrad.numpy import ma
    >>> ma.compress_cols(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]]))
    array([[1.],
           [3.]])
    """
    return compress_rowcols(a, 1)


def _index_model(a, what):
    """A NumPy masked array of ``a``'s shape and mask, for answers that are indices."""
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    m = a._mask if a._mask is nomask else _concrete_mask(a._mask, what)
    return _np.ma.MaskedArray(_np.zeros(a.shape), mask=m)


def notmasked_edges(a: Any, axis: Any = None) -> Any:
    """``np.ma.notmasked_edges``: the indices of the first and last unmasked entries
    (along ``axis``: index tuples, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> ma.notmasked_edges(ma.masked_array([1.0, 2.0, 3.0], mask=[1, 0, 0]))
    array([1, 2])
    """
    return _np.ma.notmasked_edges(_index_model(a, "notmasked_edges"), axis)


def flatnotmasked_edges(a: Any) -> Any:
    """``np.ma.flatnotmasked_edges``: the flat indices of the first and last unmasked
    entries (``None`` if all are masked).

    >>> from funcgrad.numpy import ma
    >>> ma.flatnotmasked_edges(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 0, 1]))
    array([0, 1])
    """
    return _np.ma.flatnotmasked_edges(_index_model(a, "flatnotmasked_edges"))


def apply_along_axis(func1d: Callable, axis: int, arr: Any, *args: Any,
                     **kwargs: Any) -> MaskedArray:
    """``np.ma.apply_along_axis``: ``func1d`` applied to each 1-d masked slice along
    ``axis``; the results (masked or not) are gathered into one masked array.

    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[1, 1], [0, 1]])
    >>> ma.apply_along_axis(lambda r: r.sum(), 1, x)
    masked_array(data=[--, 3.0],
                 mask=[ True, False],
           fill_value=1e+20)
    """
    arr = arr if isinstance(arr, MaskedArray) else MaskedArray(arr)
    axis = axis % arr.ndim if -arr.ndim <= axis < arr.ndim else \
        _np.exceptions.AxisError(axis, arr.ndim)
    if isinstance(axis, Exception):
        raise axis
    moved = arr._map(moveaxis, axis, -1)
    outer = moved.shape[:-1]
    results = []
    for index in _np.ndindex(*outer):
        results.append(func1d(moved[index] if index else moved, *args, **kwargs))
    datas, masks = [], []
    for r in results:
        if r is masked:
            datas.append(None)
            masks.append(True)
        else:
            datas.append(getdata(r))
            masks.append(getmaskarray(r))
    like = next((d for d in datas if d is not None), None)
    if like is None:
        raise ValueError("apply_along_axis: every slice gave ma.masked, so the result's "
                         "shape and dtype are unknown")
    zero = _np.zeros(_np.shape(like), _np.result_type(like))
    datas = [zero if d is None else d for d in datas]
    masks = [_np.ones(_np.shape(like), bool) if m is True else m for m in masks]
    data = _stack(datas)
    data = data.reshape(outer + data.shape[1:])
    mask = _stack(masks) if any(isinstance(x, Tracer) for x in masks) else _np.stack(masks)
    mask = mask.reshape(outer + mask.shape[1:])
    if _np.ndim(like):  # the slices' own axes take the place of the one consumed
        data = moveaxis(data, tuple(range(len(outer), data.ndim)),
                        tuple(range(axis, axis + _np.ndim(like))))
        mask = _np.moveaxis(mask, tuple(range(len(outer), mask.ndim)),
                            tuple(range(axis, axis + _np.ndim(like)))) \
            if not isinstance(mask, Tracer) else moveaxis(
                mask, tuple(range(len(outer), mask.ndim)),
                tuple(range(axis, axis + _np.ndim(like))))
    return MaskedArray(data, mask=make_mask(mask))


def masked_all(shape: Any, dtype: Any = float) -> MaskedArray:
    """``np.ma.masked_all``: an array of ``shape`` with every entry masked.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_all((2,)).mask
    array([ True,  True])
    """
    return MaskedArray(_np.zeros(shape, dtype), mask=_np.ones(shape, bool))


def isMaskedArray(x: Any) -> bool:
    """``np.ma.isMaskedArray``: whether ``x`` is a masked array (funcgrad's or NumPy's).

    >>> from funcgrad.numpy import ma
    >>> ma.isMaskedArray(ma.masked_array([1.0])), ma.isMaskedArray([1.0])
    (True, False)
    """
    return isinstance(x, (MaskedArray, _np.ma.MaskedArray))


isMA = isarray = isMaskedArray


def asarray(a: Any, dtype: Any = None, order: Any = None) -> MaskedArray:
    """``np.ma.asarray``: ``a`` as a masked array (its mask kept), data traced or not.

    >>> from funcgrad.numpy import ma
    >>> ma.asarray([1.0, 2.0]).mask is ma.nomask
    True
    """
    return MaskedArray(a, dtype=dtype)


asanyarray = asarray


def zeros(shape: Any, dtype: Any = float) -> MaskedArray:
    """``np.ma.zeros``: an array of zeros, nothing masked.

    >>> from funcgrad.numpy import ma
    >>> ma.zeros(2).filled()
    array([0., 0.])
    """
    return MaskedArray(_np.zeros(shape, dtype))


def ones(shape: Any, dtype: Any = float) -> MaskedArray:
    """``np.ma.ones``: an array of ones, nothing masked.

    >>> from funcgrad.numpy import ma
    >>> ma.ones(2).filled()
    array([1., 1.])
    """
    return MaskedArray(_np.ones(shape, dtype))


def round_(a: Any, decimals: int = 0, out: None = None) -> Any:
    """``np.ma.round``: the data rounded to ``decimals`` (under the mask too), the mask
    kept.

    >>> from funcgrad.numpy import ma
    >>> ma.round(ma.masked_array([1.26, 2.5], mask=[0, 1]), 1).filled(0.0)
    array([1.3, 0. ])
    """
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    data = _u.round(a._data, decimals)
    if _np.ndim(data) == 0:
        return masked if a._mask is not nomask and bool(_known(a._mask)) else data
    return a._same_mask(data, a._mask)


round = around = round_


def count_masked(arr: Any, axis: Any = None) -> Any:
    """``np.ma.count_masked``: the number of masked entries (along ``axis``).

    >>> from funcgrad.numpy import ma
    >>> int(ma.count_masked(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 1])))
    2
    """
    m = getmaskarray(arr)
    if isinstance(m, Tracer):
        return _r.sum(astype(m, _np.intp), axis=axis)
    return _np.sum(m, axis=axis)


def _probe(obj):
    return _np.empty(0, _np.result_type(getdata(obj)))


def default_fill_value(obj: Any) -> Any:
    """``np.ma.default_fill_value``: NumPy's fill value for ``obj``'s dtype.

    >>> from funcgrad.numpy import ma
    >>> float(ma.default_fill_value(ma.masked_array([1.0])))
    1e+20
    """
    return _np.ma.default_fill_value(_probe(obj))


def minimum_fill_value(obj: Any) -> Any:
    """``np.ma.minimum_fill_value``: the fill that ``min`` ignores (the dtype's largest).

    >>> from funcgrad.numpy import ma
    >>> float(ma.minimum_fill_value(ma.masked_array([1.0])))
    inf
    """
    return _np.ma.minimum_fill_value(_probe(obj))


def maximum_fill_value(obj: Any) -> Any:
    """``np.ma.maximum_fill_value``: the fill that ``max`` ignores (the dtype's smallest).

    >>> from funcgrad.numpy import ma
    >>> float(ma.maximum_fill_value(ma.masked_array([1.0])))
    -inf
    """
    return _np.ma.maximum_fill_value(_probe(obj))
