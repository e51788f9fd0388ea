"""Covariance, correlation, products, convolution, polynomial fits and diagonals of
:mod:`funcgrad.numpy.ma` (NumPy's ``np.ma`` names), with data that may be traced.

As everywhere in the package, a masked entry's data never reach a derivative: they are
replaced by zero before the arithmetic, and the data a result shows under its mask (NumPy's
raw values) carry no derivative.
"""
from typing import Any

import numpy as _np

from ...core import Tracer
from ...primitives.structural import stop_gradient
from .. import polynomial as _poly
from .. import products as _p
from .. import signal as _sig
from .. import ufuncs as _u
from ..constructors import astype
from ..reductions import sum as _r_sum
from .._shapes import ravel
from ..indexing import diag as _diag, diagonal as _diagonal
from ..searching import where
from ._core import (MaskedArray, _concrete_mask, _known, filled, getdata, getmask,
                    getmaskarray, make_mask, mask_or, masked, nomask, safe)
from ._extras import concatenate, mask_rows
from ._marest_shapes import squeeze
from ._reductions import mean
from ._ufuncs import _wrap, sqrt, true_divide
from ...typing import Array

__all__ = ["cov", "corrcoef", "outer", "outerproduct", "inner", "innerproduct", "convolve",
           "correlate", "vander", "polyfit", "diag", "diagonal", "trace"]


def _not(m):
    return _u.logical_not(m) if isinstance(m, Tracer) else ~m


def _or(a, b):
    return _u.logical_or(a, b) if isinstance(a, Tracer) or isinstance(b, Tracer) else a | b


def _quotient(num, den, bad):
    """``num / den`` (NumPy's raw value where ``bad``, carrying no derivative there: the
    divisor is replaced by one before the division that derivatives see)."""
    good = num / safe(den, bad, 1)
    if bad is nomask or (not isinstance(bad, Tracer) and not bad.any()):
        return good
    with _np.errstate(divide="ignore", invalid="ignore"):
        raw = stop_gradient(num) / den
    return where(bad, stop_gradient(raw), good)


def _covhelper(x, y, rowvar, allow_masked):
    x = MaskedArray(x, dtype=float, ndmin=2)
    xmask = getmaskarray(x)
    if not allow_masked and _np.any(_known(xmask)):
        raise ValueError("Cannot process masked data.")
    if x.shape[0] == 1:
        rowvar = True
    rowvar = int(bool(rowvar))
    axis = 1 - rowvar
    tup = (slice(None), None) if rowvar else (None, slice(None))
    if y is not None:
        y = MaskedArray(y, dtype=float, ndmin=2)
        ymask = getmaskarray(y)
        if not allow_masked and _np.any(_known(ymask)):
            raise ValueError("Cannot process masked data.")
        if y.shape == x.shape:  # NumPy's common mask: x[i, j] masked masks y[i, j] too
            common = _or(xmask, ymask)
            xmask = ymask = common
            x = x._same_mask(x._data, make_mask(common, shrink=False))
            y = y._same_mask(y._data, make_mask(common, shrink=False))
        x = concatenate((x, y), axis)
        xmask = getmaskarray(x)
    notmask = astype(_not(xmask), _np.float32)  # (NumPy's counts: exact in float32)
    x = x - mean(x, axis=rowvar)[tup]
    return x, notmask, rowvar


def cov(x: Any, y: Any = None, rowvar: bool = True, bias: bool = False,
        allow_masked: bool = True, ddof: Any = None) -> Any:
    """``np.ma.cov``: the covariance matrix of the rows (``rowvar``) or columns of ``x``
    (and ``y``), each pair over the observations unmasked in both; masked where fewer than
    ``ddof + 1`` remain.  Differentiable in the data; masked entries get zero cotangent.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([[1.0, 2.0, 4.0], [0.0, 1.0, 5.0]], mask=[[0, 0, 1], [0, 0, 0]])
    >>> ma.cov(x)
    masked_array(
      data=[[0.5, 0.5],
            [0.5, 7.0]],
      mask=[[False, False],
            [False, False]],
      fill_value=1e+20)
    >>> fg.grad(lambda d: ma.cov(ma.masked_array(d, mask=[0, 0, 1]))[()])(np.array([1.0, 2.0, 4.0]))
    array([-1.,  1.,  0.])
    """
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be an integer")
    if ddof is None:
        ddof = 0 if bias else 1
    x, notmask, rowvar = _covhelper(x, y, rowvar, allow_masked)
    xf = filled(x, 0)
    if not rowvar:
        notmask, xf = notmask.T, xf.T
    fact = _p.dot(notmask, notmask.T) - ddof
    bad = _known(fact <= 0)
    data = _quotient(_p.dot(xf, _u.conjugate(xf).T), fact, make_mask(bad, shrink=False))
    return squeeze(MaskedArray(data, mask=bad))


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, bias: Any = _np._NoValue,
             allow_masked: bool = True, ddof: Any = _np._NoValue) -> Any:
    """``np.ma.corrcoef``: the correlation matrix of the rows (``rowvar``) or columns of
    ``x`` (and ``y``), from :func:`cov` (``bias`` and ``ddof`` have no effect, as
    NumPy's); ``ma.masked`` for a single variable.

    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([[1.0, 2.0, 4.0], [0.0, 1.0, 5.0]], mask=[[0, 0, 1], [0, 0, 0]])
    >>> ma.corrcoef(x).filled(0.0).round(4)
    array([[1.    , 0.2673],
           [0.2673, 1.    ]])
    """
    corr = cov(x, y, rowvar, allow_masked=allow_masked)
    if _np.ndim(getdata(corr)) < 2:
        return masked
    std = sqrt(diagonal(corr))
    return true_divide(corr, _outer_masked(std, std))


def _outer_masked(a, b):
    """``np.ma.multiply.outer``: data multiplied, masks joined (not zero-filled)."""
    da, db = getdata(a), getdata(b)
    ma_, mb = getmask(a), getmask(b)
    d = _p.outer(safe(da, ma_, 1), safe(db, mb, 1))
    if ma_ is nomask and mb is nomask:
        return _wrap(d, nomask)
    ma_, mb = getmaskarray(a), getmaskarray(b)
    m = _u.logical_or(ma_[:, None], mb[None, :]) if isinstance(ma_, Tracer) or \
        isinstance(mb, Tracer) else _np.logical_or.outer(ma_, mb)
    return MaskedArray(d, mask=m)


def outer(a: Any, b: Any) -> MaskedArray:
    """``np.ma.outer``: the outer product of the flattened arrays, masked entries as
    zeros; masked where either factor is.

    >>> from funcgrad.numpy import ma
    >>> ma.outer(ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0, 4.0])
    masked_array(
      data=[[3.0, 4.0],
            [--, --]],
      mask=[[False, False],
            [ True,  True]],
      fill_value=1e+20)
    """
    d = _p.outer(ravel(filled(a, 0)), ravel(filled(b, 0)))
    if getmask(a) is nomask and getmask(b) is nomask:
        return MaskedArray(d)
    ma_, mb = ravel(getmaskarray(a)), ravel(getmaskarray(b))
    if isinstance(ma_, Tracer) or isinstance(mb, Tracer):
        m = _u.logical_or(ma_[:, None], mb[None, :])
    else:
        m = _np.logical_or.outer(ma_, mb)
    return MaskedArray(d, mask=make_mask(m))


outerproduct = outer


def inner(a: Any, b: Any) -> Any:
    """``np.ma.inner``: the inner product with masked entries as zeros (a plain value
    for 1-d inputs, an unmasked array otherwise, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> float(ma.inner(ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0, 4.0]))
    3.0
    """
    fa, fb = filled(a, 0), filled(b, 0)
    if _np.ndim(fa) == 0:
        fa = fa.reshape(1)
    if _np.ndim(fb) == 0:
        fb = fb.reshape(1)
    d = _p.inner(fa, fb)
    return d[()] if _np.ndim(d) == 0 and isinstance(d, _np.ndarray) else \
        d if _np.ndim(d) == 0 else MaskedArray(d)


innerproduct = inner


def _bool_conv(f, x, y, mode):
    """``f`` of two boolean arrays as NumPy's (true where any product term is)."""
    if isinstance(x, Tracer) or isinstance(y, Tracer):
        return f(astype(x, float), astype(y, float), mode=mode) > 0.5
    return getattr(_np, f.__name__)(x, y, mode=mode)


def _conv(f, a, v, mode, propagate_mask):
    am, vm = getmaskarray(a), getmaskarray(v)
    if propagate_mask:  # masked where any term had a masked factor
        mask = _or(_bool_conv(f, am, _np.ones(_np.shape(vm), bool), mode),
                   _bool_conv(f, _np.ones(_np.shape(am), bool), vm, mode))
    else:  # masked where no term had two unmasked factors
        mask = _not(_bool_conv(f, _not(am), _not(vm), mode))
    data = f(filled(a, 0), filled(v, 0), mode=mode)
    if propagate_mask:  # NumPy's data: the raw data's, under the mask without derivative
        raw = f(stop_gradient(getdata(a)), stop_gradient(getdata(v)), mode=mode)
        data = where(mask, raw, data)
    else:
        data = where(mask, stop_gradient(data), data)
    return MaskedArray(data, mask=make_mask(mask, shrink=False))


def correlate(a: Any, v: Any, mode: str = "valid", propagate_mask: bool = True) -> MaskedArray:
    """``np.ma.correlate``: the cross-correlation of two 1-d arrays, masked where any
    term had a masked entry (``propagate_mask``) or where no term had two unmasked ones.

    >>> from funcgrad.numpy import ma
    >>> ma.correlate(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 0, 1]), [1.0, 1.0])
    masked_array(data=[3.0, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """
    return _conv(_sig.correlate, a, v, mode, propagate_mask)


def convolve(a: Any, v: Any, mode: str = "full", propagate_mask: bool = True) -> MaskedArray:
    """``np.ma.convolve``: the discrete convolution of two 1-d arrays, masked as
    :func:`correlate`.

    >>> from funcgrad.numpy import ma
    >>> ma.convolve(ma.masked_array([1.0, 2.0, 3.0], mask=[0, 0, 1]), [1.0, 1.0],
    ...             propagate_mask=False).filled(0.0)
    array([1., 3., 2., 0.])
    """
    return _conv(_sig.convolve, a, v, mode, propagate_mask)


def vander(x: Any, n: Any = None) -> Array:
    """``np.ma.vander``: the Vandermonde matrix of ``x``, with the rows of masked entries
    zero (a plain array, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> ma.vander(ma.masked_array([2.0, 3.0], mask=[0, 1]))
    array([[2., 1.],
           [0., 0.]])
    """
    d, m = getdata(x), getmask(x)
    v = _poly.vander(safe(d, m, 0), n)
    if m is nomask:
        return v
    return where(m[:, None], _np.zeros((), v.dtype), v)


def polyfit(x: Any, y: Any, deg: int, rcond: Any = None, full: bool = False, w: Any = None,
            cov: Any = False) -> Any:
    """``np.ma.polyfit``: the least-squares polynomial fit over the points where none of
    ``x``, ``y`` (a row of 2-d ``y``) and ``w`` is masked (needs the masks' values);
    differentiable in the unmasked data.

    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([0.0, 1.0, 2.0, 3.0], mask=[0, 0, 0, 1])
    >>> ma.polyfit(x, [1.0, 3.0, 5.0, 100.0], 1).round(6)
    array([2., 1.])
    """
    y_nd = _np.ndim(getdata(y))
    m = getmask(x)
    if y_nd == 1:
        m = mask_or(m, getmask(y))
    elif y_nd == 2:
        my = getmask(mask_rows(y))
        if my is not nomask:
            m = mask_or(m, my[:, 0])
    else:
        raise TypeError("Expected a 1D or 2D array for y!")
    if w is not None:
        m = mask_or(m, getmask(w))
    xd, yd = getdata(x), getdata(y)
    wd = None if w is None else getdata(w)
    if m is not nomask:
        keep = _np.flatnonzero(~_concrete_mask(m, "polyfit"))
        xd, yd = xd[keep], yd[keep]
        wd = None if wd is None else wd[keep]
    return _poly.polyfit(xd, yd, deg, rcond, full, wd, cov)


def diag(v: Any, k: int = 0) -> MaskedArray:
    """``np.ma.diag``: the diagonal of a 2-d array, or a 2-d array with ``v`` on its
    diagonal, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.diag(ma.masked_array([1.0, 2.0], mask=[0, 1])).mask
    array([[False, False],
           [False,  True]])
    """
    d = _diag(getdata(v), k)
    m = getmask(v)
    if m is nomask:
        return MaskedArray(d)
    return MaskedArray(d, mask=_diag(m, k) if isinstance(m, Tracer) else _np.diag(m, k))


def diagonal(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1) -> MaskedArray:
    """``np.ma.diagonal``: the diagonal entries, mask and all.

    >>> from funcgrad.numpy import ma
    >>> ma.diagonal(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 0], [0, 1]])).mask
    array([False,  True])
    """
    a = a if isinstance(a, MaskedArray) else MaskedArray(a)
    return a._map(_diagonal, offset, axis1, axis2)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None,
          out: None = None) -> Any:
    """``np.ma.trace``: the sum of the unmasked diagonal entries (zero when all are
    masked, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> float(ma.trace(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 0], [0, 1]])))
    1.0
    """
    d = diagonal(a, offset, axis1, axis2)
    if d._mask is nomask:
        return _p.trace(getdata(a), offset, axis1, axis2, dtype)
    if dtype is not None:
        d = d._same_mask(astype(d._data, dtype), d._mask)
    return _r_sum(filled(d, 0), axis=-1)
