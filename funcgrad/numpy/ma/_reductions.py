"""Reductions, sorting and statistics of :mod:`funcgrad.numpy.ma`, ignoring masked entries.

Each works as NumPy's method of the same name: the masked entries are filled with the
value that leaves the reduction unchanged (0 for sums, 1 for products, the dtype's largest
value for ``min``), so their cotangent is zero; a result entry is masked where all of its
inputs were, and a fully masked scalar result is ``masked``.
"""
from typing import Any

import numpy as _np

from ...core import Tracer
from .. import reductions as _r
from .. import statistics as _s
from ..constructors import astype
from ..indexing import argsort as _argsort, sort as _sort, take_along_axis
from ..searching import where
from .._shapes import expand_dims, ravel, reshape, squeeze, transpose
from .. import ufuncs as _u
from ._core import (MaskedArray, _full_mask, getdata, getmask, masked, mask_or,
                    nomask)
from ._ufuncs import _wrap, sqrt, subtract, true_divide
from ...typing import Array


def _as_masked(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def _mask_all(m, axis, keepdims):
    if m is nomask:
        return nomask
    if isinstance(m, Tracer):
        return _r.all(m, axis=axis, keepdims=keepdims)
    return _np.all(m, axis=axis, keepdims=keepdims)


def _reduced(result, newmask, like=None):
    """NumPy's result of a masked reduction: ``masked`` for a fully masked scalar."""
    if _np.ndim(result) == 0:
        if newmask is not nomask and not isinstance(newmask, Tracer) and bool(newmask):
            return masked
        if newmask is nomask or not isinstance(newmask, Tracer):
            return result[()] if isinstance(result, _np.ndarray) else result
    return _wrap(result, newmask)


def sum(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
        keepdims: bool = False) -> Any:
    """``np.ma.sum``: the sum of the unmasked entries.

    >>> from funcgrad.numpy import ma
    >>> ma.sum(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [1, 1]]), axis=0)
    masked_array(data=[1.0, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """
    a = _as_masked(a)
    newmask = _mask_all(a._mask, axis, keepdims)
    return _reduced(_r.sum(a.filled(0), axis=axis, dtype=dtype, keepdims=keepdims), newmask)


def prod(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
         keepdims: bool = False) -> Any:
    """``np.ma.prod``: the product of the unmasked entries.

    >>> from funcgrad.numpy import ma
    >>> ma.prod(ma.masked_array([2.0, 3.0, 4.0], mask=[0, 1, 0]))
    np.float64(8.0)
    """
    a = _as_masked(a)
    newmask = _mask_all(a._mask, axis, keepdims)
    return _reduced(_r.prod(a.filled(1), axis=axis, dtype=dtype, keepdims=keepdims), newmask)


product = prod


def _running(op, a, neutral, axis, dtype):
    """A running sum or product: masked entries filled with ``neutral`` and staying
    masked (the whole array flattened where ``axis`` is None, its mask too)."""
    a = _as_masked(a)
    data = op(a.filled(neutral), axis=axis, dtype=dtype)
    m = a._mask if a._mask is nomask or axis is not None else \
        (ravel(a._mask) if isinstance(a._mask, Tracer) else a._mask.ravel())
    return _wrap(data, m)


def cumsum(a: Any, axis: Any = None, dtype: Any = None, out: None = None) -> Any:
    """``np.ma.cumsum``: running sums, masked entries adding nothing (and staying masked).

    >>> from funcgrad.numpy import ma
    >>> ma.cumsum(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])).filled(0.0)
    array([1., 0., 4.])
    """
    return _running(_r.cumsum, a, 0, axis, dtype)


def cumprod(a: Any, axis: Any = None, dtype: Any = None, out: None = None) -> Any:
    """``np.ma.cumprod``: running products, masked entries multiplying by one.

    >>> from funcgrad.numpy import ma
    >>> ma.cumprod(ma.masked_array([2.0, 5.0, 3.0], mask=[0, 1, 0])).filled(0.0)
    array([2., 0., 6.])
    """
    return _running(_r.cumprod, a, 1, axis, dtype)


def mean(a: Any, axis: Any = None, dtype: Any = None, out: None = None,
         keepdims: bool = False) -> Any:
    """``np.ma.mean``: the mean of the unmasked entries (NumPy's dtypes: a masked
    float32 array's mean is float64, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> ma.mean(ma.masked_array([1.0, 2.0, 6.0], mask=[0, 1, 0]))
    np.float64(3.5)
    """
    a = _as_masked(a)
    if a._mask is nomask:
        return _reduced(_r.mean(a._data, axis=axis, dtype=dtype, keepdims=keepdims), nomask)
    dsum = sum(a, axis, dtype, keepdims=keepdims)
    cnt = a.count(axis, keepdims=keepdims)
    if _np.ndim(cnt) == 0 and not isinstance(cnt, Tracer) and cnt == 0:
        return masked
    if dsum is masked:
        return masked
    return true_divide(_u.multiply(getdata(dsum), 1.0) if _np.ndim(getdata(dsum)) == 0 else
                       _wrap(_u.multiply(getdata(dsum), 1.0), getmask(dsum)), cnt)


def var(a: Any, axis: Any = None, dtype: Any = None, out: None = None, ddof: int = 0,
        keepdims: bool = False) -> Any:
    """``np.ma.var``: the variance of the unmasked entries (``ddof`` as NumPy's; masked
    where fewer than ``ddof + 1`` entries are left).

    >>> from funcgrad.numpy import ma
    >>> ma.var(ma.masked_array([1.0, 9.0, 3.0], mask=[0, 1, 0]))
    np.float64(1.0)
    """
    a = _as_masked(a)
    if a._mask is nomask:
        return _reduced(_r.var(a._data, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims),
                        nomask)
    cnt = _u.subtract(a.count(axis, keepdims=keepdims), ddof)
    centre = mean(a, axis, dtype, keepdims=True)
    danom = _u.subtract(a.filled(0), getdata(centre))
    if _np.iscomplexobj(danom):
        danom = _u.square(_u.absolute(danom))
    else:
        danom = _u.multiply(danom, danom)
    total = sum(_wrap(danom, a._mask), axis, keepdims=keepdims)
    dvar = true_divide(total if total is not masked else MaskedArray(0.0, mask=True), cnt)
    if _np.ndim(getdata(dvar)) and dvar is not masked:
        dvar._mask = mask_or(_mask_all(a._mask, axis, keepdims), _u.less_equal(cnt, 0))
    return dvar


def std(a: Any, axis: Any = None, dtype: Any = None, out: None = None, ddof: int = 0,
        keepdims: bool = False) -> Any:
    """``np.ma.std``: the standard deviation of the unmasked entries.

    >>> from funcgrad.numpy import ma
    >>> ma.std(ma.masked_array([1.0, 9.0, 3.0], mask=[0, 1, 0]))
    np.float64(1.0)
    """
    dvar = var(a, axis, dtype, ddof=ddof, keepdims=keepdims)
    return dvar if dvar is masked else sqrt(dvar)


def all(a: Any, axis: Any = None, out: None = None, keepdims: bool = False) -> Any:
    """``np.ma.all``: whether every unmasked entry is true (masked entries count as true).

    >>> from funcgrad.numpy import ma
    >>> bool(ma.all(ma.masked_array([1.0, 0.0], mask=[0, 1])))
    True
    """
    a = _as_masked(a)
    newmask = _mask_all(a._mask, axis, keepdims)
    return _reduced(_r.all(a.filled(True), axis=axis, keepdims=keepdims), newmask)


def any(a: Any, axis: Any = None, out: None = None, keepdims: bool = False) -> Any:
    """``np.ma.any``: whether some unmasked entry is true (masked entries count as false).

    >>> from funcgrad.numpy import ma
    >>> bool(ma.any(ma.masked_array([0.0, 1.0], mask=[0, 1])))
    False
    """
    a = _as_masked(a)
    newmask = _mask_all(a._mask, axis, keepdims)
    return _reduced(_r.any(a.filled(False), axis=axis, keepdims=keepdims), newmask)


def _extreme_fill(a, largest):
    probe = _np.empty(0, a.dtype)
    return _np.ma.minimum_fill_value(probe) if largest else _np.ma.maximum_fill_value(probe)


def _extreme(a, axis, fill_value, keepdims, fn, largest):
    a = _as_masked(a)
    newmask = _mask_all(a._mask, axis, keepdims)
    if fill_value is None:
        fill_value = _extreme_fill(a, largest)
    result = fn(a.filled(fill_value), axis=axis, keepdims=keepdims)
    if _np.ndim(result) and newmask is not nomask:  # NumPy's data there: the fill value
        default = _np.asarray(_np.ma.default_fill_value(_np.empty(0, result.dtype)))
        result = where(newmask, default.astype(result.dtype), result)
    return _reduced(result, newmask)


def min(a: Any, axis: Any = None, out: None = None, fill_value: Any = None,
        keepdims: bool = False) -> Any:
    """``np.ma.min``: the smallest unmasked entry.

    >>> from funcgrad.numpy import ma
    >>> ma.min(ma.masked_array([1.0, -9.0, 3.0], mask=[0, 1, 0]))
    np.float64(1.0)
    """
    return _extreme(a, axis, fill_value, keepdims, _r.min, True)


def max(a: Any, axis: Any = None, out: None = None, fill_value: Any = None,
        keepdims: bool = False) -> Any:
    """``np.ma.max``: the largest unmasked entry.

    >>> from funcgrad.numpy import ma
    >>> ma.max(ma.masked_array([1.0, 9.0, 3.0], mask=[0, 1, 0]))
    np.float64(3.0)
    """
    return _extreme(a, axis, fill_value, keepdims, _r.max, False)


def ptp(a: Any, axis: Any = None, out: None = None, fill_value: Any = None,
        keepdims: bool = False) -> Any:
    """``np.ma.ptp``: the largest minus the smallest unmasked entry.

    >>> from funcgrad.numpy import ma
    >>> ma.ptp(ma.masked_array([1.0, 9.0, 3.0], mask=[0, 1, 0]))
    np.float64(2.0)
    """
    hi = max(a, axis, fill_value=fill_value, keepdims=keepdims)
    lo = min(a, axis, fill_value=fill_value, keepdims=keepdims)
    if hi is masked:
        return masked
    spread = _u.subtract(getdata(hi), getdata(lo))
    m = getmask(hi)
    if m is not nomask:  # NumPy subtracts in place, which leaves masked entries as they were
        spread = where(m, getdata(hi), spread)
    return _reduced(spread, m)


def argmin(a: Any, axis: Any = None, fill_value: Any = None, out: None = None, *,
           keepdims: bool = False) -> Any:
    """``np.ma.argmin``: the index of the smallest unmasked entry.

    >>> from funcgrad.numpy import ma
    >>> int(ma.argmin(ma.masked_array([1.0, -9.0, 3.0], mask=[0, 1, 0])))
    0
    """
    a = _as_masked(a)
    fill = _extreme_fill(a, True) if fill_value is None else fill_value
    return _r.argmin(a.filled(fill), axis=axis, keepdims=keepdims)


def argmax(a: Any, axis: Any = None, fill_value: Any = None, out: None = None, *,
           keepdims: bool = False) -> Any:
    """``np.ma.argmax``: the index of the largest unmasked entry.

    >>> from funcgrad.numpy import ma
    >>> int(ma.argmax(ma.masked_array([1.0, 9.0, 3.0], mask=[0, 1, 0])))
    2
    """
    a = _as_masked(a)
    fill = _extreme_fill(a, False) if fill_value is None else fill_value
    return _r.argmax(a.filled(fill), axis=axis, keepdims=keepdims)


def argsort(a: Any, axis: Any = -1, kind: Any = None, order: None = None,
            endwith: bool = True, fill_value: Any = None, *, stable: Any = None) -> Array:
    """``np.ma.argsort``: the indices that sort ``a``, masked entries last (first with
    ``endwith=False``).

    >>> from funcgrad.numpy import ma
    >>> ma.argsort(ma.masked_array([3.0, 1.0, 2.0], mask=[0, 0, 1]))
    array([1, 0, 2])
    """
    a = _as_masked(a)
    if axis is None:
        a, axis = a.ravel(), 0
    if fill_value is None:
        fill_value = _extreme_fill(a, endwith)
    return _argsort(a.filled(fill_value), axis=axis)


def sort(a: Any, axis: Any = -1, kind: Any = None, order: None = None,
         endwith: bool = True, fill_value: Any = None, *, stable: Any = None) -> MaskedArray:
    """``np.ma.sort``: ``a`` sorted along ``axis``, masked entries last (first with
    ``endwith=False``); each entry's derivative follows it.

    >>> from funcgrad.numpy import ma
    >>> ma.sort(ma.masked_array([3.0, 1.0, 2.0], mask=[0, 0, 1]))
    masked_array(data=[1.0, 3.0, --],
                 mask=[False, False,  True],
           fill_value=1e+20)
    """
    a = _as_masked(a)
    if axis is None:
        a, axis = a.ravel(), 0
    if a._mask is nomask:
        return a._same_mask(_sort(a._data, axis=axis), nomask)
    order_ = argsort(a, axis, endwith=endwith, fill_value=fill_value)
    m = a._mask
    m = take_along_axis(m, order_, axis=axis) if isinstance(m, Tracer) or isinstance(
        order_, Tracer) else _np.take_along_axis(m, order_, axis=axis)
    return a._same_mask(take_along_axis(a._data, order_, axis=axis), m)


def anom(a: Any, axis: Any = None, dtype: Any = None) -> Any:
    """``np.ma.anom``: the anomalies, each entry minus the mean along ``axis``.

    >>> from funcgrad.numpy import ma
    >>> ma.anom(ma.masked_array([1.0, 9.0, 3.0], mask=[0, 1, 0])).filled(0.0)
    array([-1.,  0.,  1.])
    """
    a = _as_masked(a)
    m = mean(a, axis, dtype)
    if m is masked:
        return m
    if axis is None:
        return subtract(a, m)
    return subtract(a, expand_dims(getdata(m), axis))


anomalies = anom


def average(a: Any, axis: Any = None, weights: Any = None, returned: bool = False, *,
            keepdims: bool = False) -> Any:
    """``np.ma.average``: the (weighted) mean of the unmasked entries, differentiable in
    the data and the weights; ``returned=True`` also gives the sum of the weights.

    >>> from funcgrad.numpy import ma
    >>> ma.average(ma.masked_array([1.0, 9.0, 3.0], mask=[0, 1, 0]), weights=[1.0, 1.0, 3.0])
    np.float64(2.5)
    """
    a = _as_masked(a)
    if axis is not None:
        axis = _axes(axis, a.ndim)
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        cnt = a.count(axis, keepdims=keepdims)
        scl = _np.asarray(cnt).astype(_np.result_type(getdata(avg))) \
            if not isinstance(cnt, Tracer) else astype(cnt, _np.result_type(getdata(avg)))
    else:
        wgt = MaskedArray(weights)._data
        kind_int = _np.issubdtype(a.dtype, _np.integer) or a.dtype == bool
        result_dtype = _np.result_type(a.dtype, wgt.dtype, "f8") if kind_int else \
            _np.result_type(a.dtype, wgt.dtype)
        if a.shape != wgt.shape:
            if axis is None:
                raise TypeError("Axis must be specified when shapes of a and weights "
                                "differ.")
            if wgt.shape != tuple(a.shape[ax] for ax in axis):
                raise ValueError("Shape of weights must be consistent with shape of a "
                                 "along specified axis.")
            wgt = transpose(wgt, tuple(_np.argsort(axis)))
            wgt = reshape(wgt, tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
        m = a._mask
        if m is not nomask:
            wgt = where(_full_mask(m, a.shape), _np.zeros((), wgt.dtype),
                        _u.multiply(wgt, _np.ones(a.shape, wgt.dtype)))
            wgt = _wrap(wgt, _full_mask(m, a.shape))
        scl = sum(wgt, axis=axis, dtype=result_dtype, keepdims=keepdims)
        prod_ = _wrap(_u.multiply(astype(a.filled(0), result_dtype),
                                   astype(getdata(wgt), result_dtype)),
                      m if m is nomask else _full_mask(m, a.shape))
        avg = true_divide(sum(prod_, axis, keepdims=keepdims), scl)
    if returned:
        if _np.shape(scl) != _np.shape(getdata(avg)) and avg is not masked:
            scl = _np.broadcast_to(scl, _np.shape(getdata(avg))).copy() \
                if not isinstance(scl, (Tracer, MaskedArray)) else scl
        return avg, scl
    return avg


def _axes(axis, ndim):
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(ax % ndim if -ndim <= ax < ndim else _bad_axis(ax, ndim) for ax in axes)


def _bad_axis(ax, ndim):
    raise _np.exceptions.AxisError(ax, ndim)


def median(a: Any, axis: Any = None, out: None = None, overwrite_input: bool = False,
           keepdims: bool = False) -> Any:
    """``np.ma.median``: the median of the unmasked entries (the mean of the middle two
    for an even count), differentiable in the data.

    >>> from funcgrad.numpy import ma
    >>> ma.median(ma.masked_array([1.0, 9.0, 3.0, 2.0], mask=[0, 1, 0, 0]))
    np.float64(2.0)
    """
    a = _as_masked(a)
    if a._mask is nomask:
        result = _s.median(a._data, axis=axis, keepdims=keepdims)
        return result if _np.ndim(result) == 0 else _wrap(result, nomask)
    if axis is None:
        flat = a.ravel()
        result = median(flat, 0)
        if keepdims and result is not masked:
            return _wrap(_u.multiply(getdata(result), _np.ones((1,) * a.ndim,
                                                                 _np.result_type(result))),
                         nomask)
        return result
    axis = _axes(axis, a.ndim)[0]
    ordered = sort(a, axis)
    counts = ordered.count(axis, keepdims=True)
    if isinstance(counts, Tracer):
        raise TypeError("funcgrad.numpy.ma.median needs the mask's values (the count of "
                        "unmasked entries): build the mask outside vmap/jit")
    half = counts // 2
    low = _np.where(counts % 2 == 1, half, half - 1)
    empty = counts == 0
    low, half = _np.where(empty, 0, low), _np.where(empty, 0, half)
    data = ordered._data
    pair = _u.add(take_along_axis(data, low, axis=axis), take_along_axis(data, half, axis=axis))
    if _np.issubdtype(_np.result_type(data), _np.inexact):
        mid = _u.divide(pair, _np.asarray(2.0, _np.result_type(data)))
        # a NaN among the unmasked entries makes the median NaN, as NumPy's
        nan_in = _r.any(_u.logical_and(_u.isnan(data),
                                       _u.logical_not(_full_mask(ordered._mask, data.shape))),
                        axis=axis, keepdims=True)
        mid = where(nan_in, _np.asarray(_np.nan, _np.result_type(mid)), mid)
    else:
        mid = _u.divide(pair, 2.0)
    mid = where(empty, _np.zeros((), _np.result_type(mid)), mid)  # (NumPy's data there)
    emask = empty if keepdims else _np.squeeze(empty, axis)
    if not keepdims:
        mid = squeeze(mid, axis)
    if _np.ndim(mid) == 0:
        return masked if bool(emask) else (mid[()] if isinstance(mid, _np.ndarray) else mid)
    return _wrap(mid, emask if emask.any() else _np.zeros(emask.shape, bool))

