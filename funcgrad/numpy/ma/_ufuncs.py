"""The ufuncs of :mod:`funcgrad.numpy.ma`: NumPy's masks, NumPy's values, and derivatives
that never see a masked entry.

As NumPy's: a unary result is masked where its input is; a domained one (``log``,
``sqrt``, ``arcsin``...) also where the input is outside the domain or the result is not
finite; a binary result where either input is; ``divide`` and its kin also where the
divisor is tiny next to the dividend or the result is not finite.  Masked entries hold
the (first) input's data, as NumPy's do.  Each operation sees a harmless value (one) at
masked entries -- the double-where idiom -- so a masked ``log(0)`` or ``0 / 0`` gives a
zero cotangent, never a NaN.
"""
from typing import Any

import numpy as _np

from ...core import Tracer
from ...primitives.structural import stop_gradient
from ..constructors import astype
from ..searching import where
from .. import ufuncs as _u
from ..floatfuncs import fmod as _fmod
from ._core import (MaskedArray, _full_mask, _known, asdata, getmask, make_mask, mask_or,
                    masked, nomask, safe)

_TINY = _np.finfo(float).tiny
# (inputs of the docstring examples where the usual ones are out of domain or type)
_EXAMPLES = {"arccosh": "[1.5, 2.0]", "bitwise_and": "[4, 2]", "bitwise_or": "[4, 2]",
             "bitwise_xor": "[4, 2]", "logical_not": "[True, False]"}


__all__ = ["exp", "conjugate", "sin", "cos", "arctan", "arcsinh", "sinh", "cosh", "tanh", "abs",
           "fabs", "negative", "floor", "ceil", "logical_not", "sqrt", "log", "log2",
           "log10", "tan", "arcsin", "arccos", "arccosh", "arctanh", "add", "subtract",
           "multiply", "arctan2", "hypot", "equal", "not_equal", "less", "less_equal",
           "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
           "bitwise_and", "bitwise_or", "bitwise_xor", "divide", "floor_divide",
           "remainder", "fmod", "power"]


def _dtype(x):
    return _np.result_type(x) if not isinstance(x, (int, float, complex)) else \
        _np.result_type(type(x))


def _fill_of(*args):
    for a in args:
        if isinstance(a, MaskedArray):
            return a._fill_value
        if isinstance(a, _np.ma.MaskedArray):
            return a._fill_value
    return None


def _wrap(data, mask, fill_value=None):
    """A result as NumPy's: a scalar (or ``masked``) when 0-d, else a MaskedArray."""
    if _np.ndim(data) == 0 and not isinstance(mask, Tracer):
        if mask is not nomask and bool(mask):
            return masked
        return data[()] if isinstance(data, _np.ndarray) else data  # (NumPy's scalar)
    out = MaskedArray.__new__(MaskedArray)
    out._data, out._hardmask = data, False
    out._mask = mask if mask is nomask else _full_mask(mask, _np.shape(data))
    out._fill_value = None
    if fill_value is not None:
        try:
            out.fill_value = fill_value
        except (TypeError, ValueError):
            pass  # (a fill value the result's dtype cannot hold: the default, as NumPy)
    return out


def _invalid(result):
    return _u.logical_not(_u.isfinite(stop_gradient(result)))


def _any(m):
    m = _known(m)
    return True if isinstance(m, Tracer) else bool(m.any())


class _Unary:
    def __init__(self, fn, domain=None, safe_value=1, wrap_fill=0.0, name=None):
        self.fn, self.domain, self.safe_value = fn, domain, safe_value
        self.wrap_fill = wrap_fill
        self.__name__ = name = name or fn.__name__
        example = _EXAMPLES.get(name, "[0.5, 2.0]")
        self.__doc__ = (f"``np.ma.{name}``: NumPy's ``{name}`` on the unmasked "
                        f"entries{'; masked also outside its domain' if domain else ''}.\n\n"
                        f"    >>> from funcgrad.numpy import ma\n"
                        f"    >>> ma.{name}(ma.masked_array({example}, "
                        f"mask=[0, 1])).mask\n    array([False,  True])\n")

    def __call__(self, a, *args, **kwargs):
        with _np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return self._call(a, *args, **kwargs)

    def _call(self, a, *args, **kwargs):
        d = asdata(a)
        m = getmask(a)
        if self.domain is None:
            return _wrap(self._keep(d, m, self.fn(safe(d, m, self.safe_value), *args,
                                                      **kwargs)), m, _fill_of(a))
        pre = mask_or(m, self.domain(stop_gradient(d)), shrink=False)
        result = self.fn(safe(d, pre, self.safe_value), *args, **kwargs)
        bad = _invalid(result)
        full = mask_or(pre, bad, shrink=False)
        if _any(_u.logical_and(bad, _u.logical_not(pre))):
            result = self.fn(safe(d, full, self.safe_value), *args, **kwargs)
        return _wrap(self._keep(d, full, result), full, _fill_of(a))

    @staticmethod
    def _keep(d, m, result):
        """NumPy's data at masked entries: the input's (carrying no derivative)."""
        if m is nomask or not _np.can_cast(_dtype(d), result.dtype, "unsafe"):
            return result
        return where(m, stop_gradient(astype(d, result.dtype)), result)

    def wrapped(self, a, **kwargs):
        """NumPy's ufunc called on a masked array (``np.log(x)``, ``-x``): the raw
        result under the mask, and the ufunc's fill value outside its domain."""
        d, m = asdata(a), getmask(a)
        bad = nomask
        if self.domain is not None:  # (masked inputs count as outside, as NumPy's)
            bad = mask_or(self.domain(stop_gradient(d)), m, shrink=False)
        return _raw(self.fn, (d,), m, bad, self.safe_value, self.wrap_fill, kwargs,
                    _fill_of(a))


def _pair(da, db):
    """The operands, a Python number made an array of the dtype NumPy's weak promotion
    gives it (so that ``x * 2`` stays float32, and the number can be replaced at masked
    entries without changing the result's dtype)."""
    if isinstance(db, (int, float, complex)) and not isinstance(da, (int, float, complex)):
        db = _np.asarray(db, _np.result_type(_np.result_type(da).type(0), db))
    elif isinstance(da, (int, float, complex)) and not isinstance(db, (int, float, complex)):
        da = _np.asarray(da, _np.result_type(da, _np.result_type(db).type(0)))
    return da, db


def _raw(fn, datas, m, bad, safe_value, fill, kwargs, fill_value):
    with _np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _raw_values(fn, datas, m, bad, safe_value, fill, kwargs, fill_value)


def _raw_values(fn, datas, m, bad, safe_value, fill, kwargs, fill_value):
    hidden = mask_or(m, bad, shrink=False) if bad is not nomask else m
    result = fn(*[safe(x, hidden, safe_value) for x in datas], **kwargs)
    if m is not nomask and _any(m):
        result = where(m, stop_gradient(fn(*datas, **kwargs)), result)
    if bad is not nomask and _any(bad):
        result = where(bad, _np.asarray(fill).astype(result.dtype), result)
        m = mask_or(m, bad)
    return _wrap(result, m, fill_value)


class _Binary:
    def __init__(self, fn, domain=None):
        self.fn, self.domain = fn, domain
        self.__name__ = fn.__name__
        example = _EXAMPLES.get(fn.__name__, "[4.0, 2.0]")
        self.__doc__ = (f"``np.ma.{fn.__name__}``: NumPy's ``{fn.__name__}``, masked where "
                        f"either input is{' or outside its domain' if domain else ''}.\n\n"
                        f"    >>> from funcgrad.numpy import ma\n"
                        f"    >>> ma.{fn.__name__}(ma.masked_array({example}, mask=[0, 1]), "
                        f"{example}).mask\n    array([False,  True])\n")

    def __call__(self, a, b, *args, **kwargs):
        with _np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return self._call(a, b, *args, **kwargs)

    def _call(self, a, b, *args, **kwargs):
        da, db = _pair(asdata(a), asdata(b))
        ma_, mb = getmask(a), getmask(b)
        if ma_ is nomask and mb is nomask and self.domain is None:
            return _wrap(self.fn(da, db, *args, **kwargs), nomask, _fill_of(a, b))
        pre = mask_or(ma_, mb, shrink=False)
        if self.domain is not None:
            pre = mask_or(pre, self.domain(stop_gradient(da), stop_gradient(db)), shrink=False)
        result = self.fn(safe(da, pre, 1), safe(db, pre, 1), *args, **kwargs)
        m = pre
        if self.domain is not None:
            bad = _invalid(result)
            m = mask_or(pre, bad, shrink=False)
            if _any(_u.logical_and(bad, _u.logical_not(pre))):
                result = self.fn(safe(da, m, 1), safe(db, m, 1), *args, **kwargs)
            # NumPy's: zero at masked entries, plus the dividend where it casts safely
            keep = _np.can_cast(_dtype(da), result.dtype, "safe")
            filler = astype(da, result.dtype) if keep else _np.zeros((), result.dtype)
        else:
            filler = astype(da, result.dtype) \
                if _np.can_cast(_dtype(da), result.dtype, "unsafe") else None
        if filler is not None and _any(m):
            result = where(m, stop_gradient(filler), result)
        return _wrap(result, m, _fill_of(a, b))

    def wrapped(self, a, b, **kwargs):
        """NumPy's ufunc called on a masked array (``np.add(x, y)``, ``x % y``): the raw
        result under the mask, one where the divisor is too small."""
        da, db = _pair(asdata(a), asdata(b))
        m = mask_or(getmask(a), getmask(b))
        bad = nomask if self.domain is None else make_mask(
            self.domain(stop_gradient(da), stop_gradient(db)))
        return _raw(self.fn, (da, db), m, bad, 1, 1, kwargs, _fill_of(a, b))


def _domain_greater(v):
    return lambda x: _u.less_equal(x, v)


def _domain_greater_equal(v):
    return lambda x: _u.less(x, v)


def _domain_interval(a, b):
    return lambda x: _u.logical_or(_u.greater(x, b), _u.less(x, a))


def _domain_tan(x):
    return _u.less(_u.absolute(_u.cos(x)), 1e-35)


def _domain_divide(a, b):
    return _u.greater_equal(_u.multiply(_u.absolute(a), _TINY), _u.absolute(b))


exp = _Unary(_u.exp)
conjugate = _Unary(_u.conjugate, name="conjugate")
sin = _Unary(_u.sin)
cos = _Unary(_u.cos)
arctan = _Unary(_u.arctan)
arcsinh = _Unary(_u.arcsinh)
sinh = _Unary(_u.sinh)
cosh = _Unary(_u.cosh)
tanh = _Unary(_u.tanh)
abs = absolute = _Unary(_u.absolute)
fabs = _Unary(_u.fabs)
negative = _Unary(_u.negative)
floor = _Unary(_u.floor)
ceil = _Unary(_u.ceil)
logical_not = _Unary(_u.logical_not)
sqrt = _Unary(_u.sqrt, _domain_greater_equal(0.0))
log = _Unary(_u.log, _domain_greater(0.0), wrap_fill=1.0)
log2 = _Unary(_u.log2, _domain_greater(0.0), wrap_fill=1.0)
log10 = _Unary(_u.log10, _domain_greater(0.0), wrap_fill=1.0)
tan = _Unary(_u.tan, _domain_tan, safe_value=0)
arcsin = _Unary(_u.arcsin, _domain_interval(-1.0, 1.0), safe_value=0)
arccos = _Unary(_u.arccos, _domain_interval(-1.0, 1.0), safe_value=0)
arccosh = _Unary(_u.arccosh, _domain_greater_equal(1.0), safe_value=2, wrap_fill=1.0)
arctanh = _Unary(_u.arctanh, _domain_interval(-1.0 + 1e-15, 1.0 - 1e-15), safe_value=0)

add = _Binary(_u.add)
subtract = _Binary(_u.subtract)
multiply = _Binary(_u.multiply)
arctan2 = _Binary(_u.arctan2)
hypot = _Binary(_u.hypot)
equal = _Binary(_u.equal)
not_equal = _Binary(_u.not_equal)
less = _Binary(_u.less)
less_equal = _Binary(_u.less_equal)
greater = _Binary(_u.greater)
greater_equal = _Binary(_u.greater_equal)
logical_and = _Binary(_u.logical_and)
logical_or = _Binary(_u.logical_or)
logical_xor = _Binary(_u.logical_xor)
bitwise_and = _Binary(_u.bitwise_and)
bitwise_or = _Binary(_u.bitwise_or)
bitwise_xor = _Binary(_u.bitwise_xor)
divide = true_divide = _Binary(_u.divide, _domain_divide)
floor_divide = _Binary(_u.floor_divide, _domain_divide)
remainder = mod = _Binary(_u.remainder, _domain_divide)
fmod = _Binary(_fmod, _domain_divide)


def power(a: Any, b: Any, third: Any = None) -> Any:
    """``np.ma.power``: ``a ** b``, masked where either is and where the result is not
    finite (those entries then hold the fill value, as NumPy's).

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> ma.power(ma.masked_array([4.0, -1.0]), 0.5).mask
    array([False,  True])
    """
    if third is not None:
        raise _np.ma.MaskError("3-argument power not supported.")
    with _np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return _power(a, b)


def _power(a, b):
    fa, fb = _pair(asdata(a), asdata(b))
    m = mask_or(getmask(a), getmask(b))
    result = _u.power(safe(fa, m, 1), safe(fb, m, 1))
    if m is not nomask:
        result = where(m, astype(fa, result.dtype), result)
    invalid = make_mask(_invalid(result))
    fill = _fill_of(a)
    if m is nomask and invalid is nomask:
        return _wrap(result, nomask, fill)
    if _np.ndim(result) == 0 and not isinstance(m, Tracer):
        return masked
    full = mask_or(m, invalid, shrink=False)
    if invalid is not nomask:
        result = _u.power(safe(fa, full, 1), safe(fb, full, 1))
        out = _wrap(result, full, fill)
        fill_at = _np.asarray(out.fill_value).astype(result.dtype)
        result = where(invalid, fill_at, where(full, astype(fa, result.dtype), result))
        out._data = result
        return out
    return _wrap(result, full, fill)


def _comparison(a, b, compare):
    """NumPy's comparison operators: the raw comparison under the mask, except that
    ``==`` and ``!=`` count two masked entries equal and one masked entry unequal."""
    m = mask_or(getmask(a), getmask(b))
    check = compare(asdata(a), asdata(b))
    if m is not nomask and compare in (_u.equal, _u.not_equal):
        ma_, mb = getmask(a), getmask(b)
        check = where(m, compare(_np.False_ if ma_ is nomask else ma_,
                                 _np.False_ if mb is nomask else mb), check)
    return _wrap(check, m)


# NumPy's MaskedArray defines these operators with np.ma's functions; the others (%, &,
# |, ^, unary -, abs) are ndarray's, through the ufunc's wrapped path
OPERATORS = {"add": add, "sub": subtract, "mul": multiply, "truediv": true_divide,
             "floordiv": floor_divide, "pow": power,
             "mod": remainder.wrapped, "and": bitwise_and.wrapped, "or": bitwise_or.wrapped,
             "xor": bitwise_xor.wrapped}
COMPARISONS = {"lt": _u.less, "le": _u.less_equal, "gt": _u.greater,
               "ge": _u.greater_equal, "eq": _u.equal, "ne": _u.not_equal}
UNARY_OPERATORS = {"neg": negative.wrapped, "abs": absolute.wrapped,
                   "invert": _Unary(_u.invert).wrapped}
