"""Masks made from values: ``masked_where`` and its kin, ``fix_invalid``.  The conditions
are computed on the data without their derivative (a comparison has none)."""
from typing import Any

import numpy as _np

from ...primitives.structural import stop_gradient
from ..searching import where
from .. import ufuncs as _u
from ._core import MaskedArray, getdata, getmask, make_mask, mask_or, nomask


def masked_where(condition: Any, a: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_where``: ``a`` masked where ``condition`` (and where it already was).

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> x = np.array([1.0, -2.0, 3.0])
    >>> ma.masked_where(x < 0, x).mask
    array([False,  True, False])
    """
    cond = make_mask(getdata(condition) if isinstance(condition, MaskedArray)
                     else condition, shrink=False)
    data = getdata(a)
    if _np.shape(cond) != _np.shape(data):
        raise IndexError(f"Inconsistent shape between the condition and the input "
                         f"(got {_np.shape(cond)} and {_np.shape(data)})")
    m = getmask(a)
    return MaskedArray(data, mask=cond if m is nomask else mask_or(cond, m, shrink=False),
                       fill_value=a.fill_value if isinstance(a, MaskedArray) else None)


def _values(x):
    """Data for a mask condition: comparisons carry no derivative."""
    return stop_gradient(getdata(x))


def masked_invalid(a: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_invalid``: ``a`` masked where NaN or infinite.

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> ma.masked_invalid(np.array([1.0, np.nan, np.inf])).mask
    array([False,  True,  True])
    """
    return masked_where(_u.logical_not(_u.isfinite(_values(a))), a)


def masked_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_equal``: ``x`` masked where equal to ``value`` (the fill value
    becomes ``value``, as NumPy's).

    >>> from funcgrad.numpy import ma
    >>> ma.masked_equal([1.0, 2.0], 2.0).mask
    array([False,  True])
    """
    out = masked_where(_u.equal(_values(x), value), x)
    out.fill_value = value
    return out


def masked_not_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_not_equal``: ``x`` masked where not equal to ``value``.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_not_equal([1.0, 2.0], 2.0).mask
    array([ True, False])
    """
    return masked_where(_u.not_equal(_values(x), value), x)


def masked_greater(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_greater``: ``x`` masked where greater than ``value``.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_greater([1.0, 2.0], 1.5).mask
    array([False,  True])
    """
    return masked_where(_u.greater(_values(x), value), x)


def masked_greater_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_greater_equal``: ``x`` masked where at least ``value``.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_greater_equal([1.0, 2.0], 2.0).mask
    array([False,  True])
    """
    return masked_where(_u.greater_equal(_values(x), value), x)


def masked_less(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_less``: ``x`` masked where less than ``value``.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_less([1.0, 2.0], 1.5).mask
    array([ True, False])
    """
    return masked_where(_u.less(_values(x), value), x)


def masked_less_equal(x: Any, value: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_less_equal``: ``x`` masked where at most ``value``.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_less_equal([1.0, 2.0], 1.0).mask
    array([ True, False])
    """
    return masked_where(_u.less_equal(_values(x), value), x)


def masked_inside(x: Any, v1: Any, v2: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_inside``: ``x`` masked inside ``[v1, v2]`` (either order).

    >>> from funcgrad.numpy import ma
    >>> ma.masked_inside([0.5, 1.5, 3.0], 2.0, 1.0).mask
    array([False,  True, False])
    """
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    d = _values(x)
    return masked_where(_u.logical_and(_u.greater_equal(d, lo), _u.less_equal(d, hi)), x)


def masked_outside(x: Any, v1: Any, v2: Any, copy: bool = True) -> MaskedArray:
    """``np.ma.masked_outside``: ``x`` masked outside ``[v1, v2]`` (either order).

    >>> from funcgrad.numpy import ma
    >>> ma.masked_outside([0.5, 1.5, 3.0], 1.0, 2.0).mask
    array([ True, False,  True])
    """
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    d = _values(x)
    return masked_where(_u.logical_or(_u.less(d, lo), _u.greater(d, hi)), x)


def masked_values(x: Any, value: float, rtol: float = 1e-05, atol: float = 1e-08,
                  copy: bool = True, shrink: bool = True) -> MaskedArray:
    """``np.ma.masked_values``: ``x`` masked where close to ``value`` (``isclose`` for
    floats, equality otherwise); the fill value becomes ``value``.

    >>> from funcgrad.numpy import ma
    >>> ma.masked_values([1.0, 1.1, 2.0], 1.1).mask
    array([False,  True, False])
    """
    d = _values(x)
    if _np.issubdtype(d.dtype, _np.floating):
        cond = _u.isclose(d, value, atol=atol, rtol=rtol)
    else:
        cond = _u.equal(d, value)
    out = MaskedArray(getdata(x), mask=make_mask(cond, shrink=shrink), fill_value=value)
    m = getmask(x)
    if m is not nomask:
        out._mask = mask_or(out._mask, m, shrink=shrink)
    return out


def fix_invalid(a: Any, mask: Any = nomask, copy: bool = True,
                fill_value: Any = None) -> MaskedArray:
    """``np.ma.fix_invalid``: ``a`` masked where NaN or infinite, with those entries'
    data replaced by the fill value (their cotangent is zero).

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> ma.fix_invalid(np.array([1.0, np.nan]), fill_value=0.0).data
    array([1., 0.])
    """
    out = MaskedArray(a, mask=mask)
    invalid = make_mask(_u.logical_not(_u.isfinite(_values(out))))
    if invalid is nomask:
        return out
    out._mask = mask_or(out._mask, invalid, shrink=False)
    fill = out.fill_value if fill_value is None else fill_value
    out._data = where(invalid, _np.asarray(fill).astype(out.dtype), out._data)
    return out
