"""Elementwise functions: NumPy's ufuncs, each on one line binding its primitive.

A function made by :func:`~funcgrad.numpy._ufunc_wrappers.unary` or ``binary`` knows the
primitive it binds (``fn.primitive``) and the NumPy ufuncs it stands for
(``fn.numpy_ufuncs``).
``__array_ufunc__`` dispatches through a table built from those, keyed by the ufunc
object, and a test checks that every elementwise primitive has a function here.
Composites (``sinc``, ``heaviside``...) that NumPy offers as ufuncs declare theirs
with :func:`stands_for`.
"""
import math
from typing import Any

import numpy as _np

from ..core import _state
from ..primitives import elementwise as _ew
from ._convert import asarray, operand, scalar_results, write_out
from ._ufunc_keywords import call_with_keywords
from ._ufunc_wrappers import binary as _binary, binds, stands_for, ufunc_dtype, unary as _unary
from .constructors import astype
from ..typing import Array, ArrayLike

__all__ = [
    "negative", "abs", "absolute", "fabs", "sign", "exp", "exp2", "expm1", "log", "log2",
    "log10", "log1p", "sqrt", "cbrt", "square", "reciprocal", "sin", "cos", "tan", "arcsin",
    "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "asin", "acos",
    "atan", "asinh", "acosh", "atanh", "floor", "ceil", "rint", "trunc", "fix", "logical_not",
    "isnan", "isinf", "isfinite",
    "add", "subtract", "multiply", "divide", "true_divide", "power", "pow", "maximum",
    "minimum", "fmax", "fmin", "arctan2", "atan2", "hypot", "logaddexp", "logaddexp2", "mod",
    "remainder", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
    "logical_and", "logical_or", "logical_xor",
    "positive", "float_power", "floor_divide", "round", "around", "deg2rad", "rad2deg",
    "radians", "degrees", "real", "imag", "conj", "conjugate", "sinc", "heaviside", "clip", "isclose",
    "bitwise_and", "bitwise_or", "bitwise_xor", "invert", "bitwise_not", "bitwise_invert",
    "left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift", "gcd", "lcm",
    "bitwise_count",
]

_EMPTY: dict = {}

# --- unary -----------------------------------------------------------------------------------

negative = _unary(_ew.negative_p, _np.negative)
abs = _unary(_ew.abs_p, _np.absolute)  # noqa: A001 - NumPy's name
_sign_of_real = _unary(_ew.sign_p, _np.sign)


@binds(_ew.sign_p)
@stands_for(_np.sign)
def sign(x: ArrayLike) -> Array:
    """The sign: -1, 0 or 1 (derivative zero) for real ``x``; ``x / |x|`` (0 at 0) for
    complex ``x``, as NumPy 2, whose derivative is not zero (the phase moves with ``x``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.sign(np.array([-2.0, 0.0, 3.0])), fnp.sign(np.array([3 + 4j, 0j]))
    (array([-1.,  0.,  1.]), array([0.6+0.8j, 0. +0.j ]))
    """
    x = operand(x)
    if getattr(x, "dtype", None) is None or x.dtype.kind != "c":
        return _sign_of_real(x)
    # z / |z| by differentiable primitives; the guarded denominator keeps the untaken
    # branch finite at 0, so a zero cotangent there gives a zero gradient, not NaN
    magnitude = _ew.abs(x)
    zero = _ew.equal(magnitude, 0)
    return _ew.where(zero, _np.zeros((), x.dtype),
                     _ew.divide(x, _ew.where(zero, _np.ones((), magnitude.dtype), magnitude)))
exp = _unary(_ew.exp_p, _np.exp)
exp2 = _unary(_ew.exp2_p, _np.exp2)
expm1 = _unary(_ew.expm1_p, _np.expm1)
log = _unary(_ew.log_p, _np.log)
log2 = _unary(_ew.log2_p, _np.log2)
log10 = _unary(_ew.log10_p, _np.log10)
log1p = _unary(_ew.log1p_p, _np.log1p)
sqrt = _unary(_ew.sqrt_p, _np.sqrt)
cbrt = _unary(_ew.cbrt_p, _np.cbrt)
square = _unary(_ew.square_p, _np.square)
reciprocal = _unary(_ew.reciprocal_p, _np.reciprocal)
sin = _unary(_ew.sin_p, _np.sin)
cos = _unary(_ew.cos_p, _np.cos)
tan = _unary(_ew.tan_p, _np.tan)
arcsin = _unary(_ew.arcsin_p, _np.arcsin)
arccos = _unary(_ew.arccos_p, _np.arccos)
arctan = _unary(_ew.arctan_p, _np.arctan)
sinh = _unary(_ew.sinh_p, _np.sinh)
cosh = _unary(_ew.cosh_p, _np.cosh)
tanh = _unary(_ew.tanh_p, _np.tanh)
arcsinh = _unary(_ew.arcsinh_p, _np.arcsinh)
arccosh = _unary(_ew.arccosh_p, _np.arccosh, example="np.array([1.25, 1.5, 2.0])")
arctanh = _unary(_ew.arctanh_p, _np.arctanh)
floor = _unary(_ew.floor_p, _np.floor)
ceil = _unary(_ew.ceil_p, _np.ceil)
rint = _unary(_ew.rint_p, _np.rint)
trunc = _unary(_ew.trunc_p, _np.trunc)
logical_not = _unary(_ew.logical_not_p, _np.logical_not)
isnan = _unary(_ew.isnan_p, _np.isnan)
isinf = _unary(_ew.isinf_p, _np.isinf)
isfinite = _unary(_ew.isfinite_p, _np.isfinite)

# NumPy's other names for the same functions (the array API's among them).
absolute = abs


@stands_for(_np.fabs)
def fabs(x: ArrayLike) -> Array:
    """Elementwise ``np.fabs``: the absolute value as a float (integers give floats, as
    NumPy's, whose loops are float-only; complex numbers are refused).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fabs(np.array([-2, 3]))
    array([2., 3.])
    """
    x = operand(x)
    dtype = ufunc_dtype(_np.fabs, x)
    return abs(x if getattr(x, "dtype", dtype) == dtype or not hasattr(x, "dtype")
               else astype(x, dtype))
fix = trunc
asin, acos, atan, asinh, acosh, atanh = arcsin, arccos, arctan, arcsinh, arccosh, arctanh

# --- binary ----------------------------------------------------------------------------------

add = _binary(_ew.add_p, _np.add)
subtract = _binary(_ew.subtract_p, _np.subtract)
multiply = _binary(_ew.multiply_p, _np.multiply)
divide = _binary(_ew.divide_p, _np.divide, _np.true_divide)
power = _binary(_ew.power_p, _np.power)
maximum = _binary(_ew.maximum_p, _np.maximum)
minimum = _binary(_ew.minimum_p, _np.minimum)
fmax = _binary(_ew.fmax_p, _np.fmax)
fmin = _binary(_ew.fmin_p, _np.fmin)
arctan2 = _binary(_ew.arctan2_p, _np.arctan2)
hypot = _binary(_ew.hypot_p, _np.hypot)
logaddexp = _binary(_ew.logaddexp_p, _np.logaddexp)
logaddexp2 = _binary(_ew.logaddexp2_p, _np.logaddexp2)
mod = _binary(_ew.mod_p, _np.remainder)
equal = _binary(_ew.equal_p, _np.equal)
not_equal = _binary(_ew.not_equal_p, _np.not_equal)
less = _binary(_ew.less_p, _np.less)
less_equal = _binary(_ew.less_equal_p, _np.less_equal)
greater = _binary(_ew.greater_p, _np.greater)
greater_equal = _binary(_ew.greater_equal_p, _np.greater_equal)
logical_and = _binary(_ew.logical_and_p, _np.logical_and)
logical_or = _binary(_ew.logical_or_p, _np.logical_or)
logical_xor = _binary(_ew.logical_xor_p, _np.logical_xor)

# bits and integers (integer or boolean operands: a mask combined with &, ~mask)
_INTEGERS = ("np.array([12, 10, 7])", "np.array([10, 3, 2])")
bitwise_and = _binary(_ew.bitwise_and_p, _np.bitwise_and, examples=_INTEGERS)
bitwise_or = _binary(_ew.bitwise_or_p, _np.bitwise_or, examples=_INTEGERS)
bitwise_xor = _binary(_ew.bitwise_xor_p, _np.bitwise_xor, examples=_INTEGERS)
left_shift = _binary(_ew.left_shift_p, _np.left_shift, examples=_INTEGERS)
right_shift = _binary(_ew.right_shift_p, _np.right_shift, examples=_INTEGERS)
gcd = _binary(_ew.gcd_p, _np.gcd, examples=_INTEGERS)
lcm = _binary(_ew.lcm_p, _np.lcm, examples=_INTEGERS)
invert = _unary(_ew.invert_p, _np.invert, example=_INTEGERS[0])
bitwise_not = bitwise_invert = invert  # (np.bitwise_not and np.bitwise_invert are np.invert)
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift

true_divide = divide
remainder = mod
atan2 = arctan2
pow = power  # noqa: A001 - NumPy's name


# --- composites --------------------------------------------------------------------------------

@stands_for(_np.bitwise_count)
def bitwise_count(x: ArrayLike) -> Array:
    """The number of 1 bits in ``|x|`` (uint8), for integer and boolean arrays.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.bitwise_count(np.array([0, 7, -8, 255]))
    array([0, 3, 1, 8], dtype=uint8)
    """
    x = asarray(x)
    if x.dtype.kind not in "biu":
        raise TypeError(f"bitwise_count takes integer or boolean arrays (it counts their "
                        f"bits: no derivative), not {x.dtype}; cast first (x.astype(np.int64))")
    if x.dtype.kind == "u":
        u = astype(x, _np.uint64)
    else:  # |x| in 64 bits; |int64 min| wraps to itself, whose uint64 has the right one bit
        u = astype(abs(astype(x, _np.int64)), _np.uint64)
    # Sums of bits in ever wider fields (Hacker's Delight, 5-1): pairs, nibbles, bytes,
    # then the bytes added up without a multiplication (which NumPy would warn overflows).
    u = u - bitwise_and(right_shift(u, 1), 0x5555555555555555)
    u = add(bitwise_and(u, 0x3333333333333333), bitwise_and(right_shift(u, 2), 0x3333333333333333))
    u = bitwise_and(add(u, right_shift(u, 4)), 0x0F0F0F0F0F0F0F0F)
    for width in (8, 16, 32):
        u = add(u, right_shift(u, width))
    return astype(bitwise_and(u, 0x7F), _np.uint8)


@stands_for(_np.positive)
def positive(x: ArrayLike) -> Array:
    """``+x``: ``x`` itself.

    >>> import funcgrad.numpy as fnp
    >>> fnp.positive(-2.0)
    -2.0
    """
    return operand(x)


@stands_for(_np.float_power)
def float_power(x1: ArrayLike, x2: ArrayLike) -> Array:
    """``x1 ** x2`` computed in float64, or complex128 for complex operands (as NumPy's
    float_power).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.float_power(np.array([2, 3]), 2)
    array([4., 9.])
    """
    x1, x2 = asarray(x1), asarray(x2)
    # complex operands keep their imaginary parts: NumPy computes in complex128 then
    dtype = _np.complex128 if "c" in (x1.dtype.kind, x2.dtype.kind) else _np.float64
    return power(astype(x1, dtype), astype(x2, dtype))


floor_divide = _binary(_ew.floor_divide_p, _np.floor_divide)


def round(a: ArrayLike, decimals: int = 0,  # noqa: A001 - NumPy's name
          out: Any = None) -> Array:
    """Round to ``decimals`` places (half to even); derivative zero.  ``out=`` writes into
    a plain array, as NumPy's (a float result into a float or complex array).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.round(np.array([0.5, 1.5, 2.5])), fnp.round(np.array([0.123, 0.456]), 2)
    (array([0., 2., 2.]), array([0.12, 0.46]))
    >>> fnp.round(np.array([1250, 1351]), -2)
    array([1200, 1400])
    """
    if out is not None:
        return write_out("round", out, round(a, decimals))
    a = operand(a)
    kind = a.dtype.kind if hasattr(a, "dtype") else _np.result_type(a).kind
    if kind in "iu":  # integers stay integers, as NumPy: exact for decimals >= 0
        a = asarray(a)
        if decimals >= 0:
            return astype(a, a.dtype)
        return astype(round(astype(a, _np.float64), decimals), a.dtype)
    if decimals == 0:
        return rint(a)
    if decimals < 0:  # NumPy's formula (dividing by 10 ** -decimals: exact powers of ten)
        scale = 10.0 ** -decimals
        return rint(a / scale) * scale
    scale = 10.0 ** decimals
    return rint(a * scale) / scale


around = round


@stands_for(_np.deg2rad, _np.radians)
def deg2rad(x: ArrayLike) -> Array:
    """Degrees to radians.

    >>> import funcgrad.numpy as fnp
    >>> float(fnp.deg2rad(180.0))
    3.141592653589793
    """
    return _scaled(_np.deg2rad, x, math.pi, 180.0)


@stands_for(_np.rad2deg, _np.degrees)
def rad2deg(x: ArrayLike) -> Array:
    """Radians to degrees.

    >>> import math, funcgrad.numpy as fnp
    >>> float(fnp.rad2deg(math.pi))
    180.0
    """
    return _scaled(_np.rad2deg, x, 180.0, math.pi)


def _scaled(ufunc, x, numerator, denominator):
    """``x * (numerator / denominator)`` with the bits of NumPy's float-only loop of
    ``ufunc``: booleans and integers cast first (bool and int8 to float16), a float32
    factor divided in float32 (``180.0f / NPY_PIf``: 1 ulp from float64's, rounded)."""
    x = operand(x)
    dtype = getattr(x, "dtype", None)
    if isinstance(x, complex) or dtype is not None and dtype.kind == "c":
        raise TypeError(f"ufunc '{ufunc.__name__}' not supported for complex input, as in "
                        f"NumPy (an angle is real); apply it to fnp.angle(z) or the parts")
    if isinstance(x, bool) or dtype is not None and dtype.kind in "biu":
        x = astype(asarray(x), ufunc_dtype(ufunc, x))
        dtype = x.dtype
    if dtype == _np.float32:
        return multiply(x, float(_np.float32(numerator) / _np.float32(denominator)))
    if dtype == _np.float16:  # (NumPy's half loops compute in float32, then round)
        return astype(_scaled(ufunc, astype(x, _np.float32), numerator, denominator),
                      _np.float16)
    return multiply(x, numerator / denominator)


radians, degrees = deg2rad, rad2deg


@binds(_ew.real_p)
def real(val: ArrayLike) -> Array:
    """The real part (a real array; ``val`` itself, copied, when it is real).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.real(np.array([1 + 2j, 3 - 4j]))
    array([1., 3.])
    >>> complex(fg.grad(lambda z: fnp.real(z * z))(1 + 2j))  # d/dx - i d/dy of x**2 - y**2
    (2+4j)
    """
    return _state.interpreter.process(_ew.real_p, (operand(val),), _EMPTY)


@binds(_ew.imag_p)
def imag(val: ArrayLike) -> Array:
    """The imaginary part (a real array; zeros when ``val`` is real).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.imag(np.array([1 + 2j, 3 - 4j]))
    array([ 2., -4.])
    """
    return _state.interpreter.process(_ew.imag_p, (operand(val),), _EMPTY)


@stands_for(_np.conjugate)
def conj(x: ArrayLike) -> Array:
    """The complex conjugate (``x`` itself, copied, when it is real).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.conj(np.array([1 + 2j, 3.0]))
    array([1.-2.j, 3.-0.j])
    """
    return _state.interpreter.process(_ew.conj_p, (operand(x),), _EMPTY)


conj.primitive = _ew.conj_p


def abs_square(x):
    """``|x| ** 2``: ``x * x`` for real ``x``, ``real(x * conj(x))`` for complex (the
    squared magnitude variances and norms are made of).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.ufuncs.abs_square(np.array([3 + 4j, 2.0]))
    array([25.,  4.])
    """
    x = operand(x)
    if getattr(x, "dtype", None) is not None and x.dtype.kind == "c":
        return real(multiply(x, conj(x)))
    return square(x)  # (stands_for marks the ufunc; this the primitive)
conjugate = conj


@scalar_results  # (NumPy's 0-d result is a scalar: this one's steps make 0-d arrays)
def sinc(x: ArrayLike) -> Array:
    """``sin(pi x) / (pi x)``, 1 at 0 (the division is guarded, so grads stay finite).

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.sinc(0.0)), float(fg.grad(fnp.sinc)(0.0))
    (1.0, 0.0)
    """
    x = operand(x)
    zero = equal(x, 0)
    safe = _ew.where(zero, 1.0, x) * math.pi
    # At 0 the Maclaurin polynomial, so that derivatives there are right (sinc''(0) =
    # -pi^2/3, ...: exact up to the 13th); evaluated at 0 elsewhere, so it stays finite.
    y = _ew.where(zero, x, 0.0) * math.pi
    y2 = y * y
    series = 1.0 + y2 * (-1 / 6 + y2 * (1 / 120 + y2 * (-1 / 5040 + y2 * (
        1 / 362880 + y2 * (-1 / 39916800 + y2 * (1 / 6227020800))))))
    return _ew.where(zero, series, sin(safe) / safe)


@stands_for(_np.heaviside)
def heaviside(x1: ArrayLike, x2: ArrayLike) -> Array:
    """The step function: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1 where ``x1 > 0``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.heaviside(np.array([-1.0, 0.0, 2.0]), 0.5)
    array([0. , 0.5, 1. ])
    """
    x1, x2 = operand(x1), operand(x2)
    if any(_np.result_type(getattr(v, "dtype", v)).kind == "c" for v in (x1, x2)):
        raise TypeError("heaviside: complex values are not supported, as in NumPy (no order "
                        "to step at); apply it to np.real(x1)")
    dtype = ufunc_dtype(_np.heaviside, x1, x2)  # (float-only loops: integers give floats)
    step = _ew.where(less(x1, 0), 0.0, _ew.where(equal(x1, 0), x2, 1.0))
    return step if step.dtype == dtype else step.astype(dtype)


@binds(_ew.clip_p)
def clip(a: ArrayLike, a_min: ArrayLike | None = None, a_max: ArrayLike | None = None,
         out: Any = None, **kwargs: Any) -> Array:
    """Clip to ``[a_min, a_max]`` (or NumPy 2.1's ``min=``, ``max=``); outside the interval
    the derivative is 0.  NumPy's ufunc keywords (``out=``, ``where=``, ``dtype=``,
    ``casting=``...) are taken as ``np.clip`` takes them.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.clip(x, 0.0, 1.0)))(np.array([-1.0, 0.5, 2.0]))
    array([0., 1., 0.])
    >>> fnp.clip(np.array([-1.0, 0.5, 2.0]), 0.0, 1.0, out=np.zeros(3, np.float32))
    array([0. , 0.5, 1. ], dtype=float32)
    """
    if "min" in kwargs or "max" in kwargs:  # (NumPy's checks and words)
        if a_min is not None and a_max is not None:
            raise ValueError("Passing `min` or `max` keyword argument when `a_min` and "
                             "`a_max` are provided is forbidden.")
        if a_min is not None or a_max is not None:
            raise TypeError(f"clip() missing 1 required positional argument: "
                            f"'{'a_max' if a_max is None else 'a_min'}' (or pass min= and "
                            f"max= alone)")
        a_min, a_max = kwargs.pop("min", None), kwargs.pop("max", None)
    if out is not None or kwargs:
        return _clip_with_keywords(a, a_min, a_max, out, kwargs)
    if a_min is None and a_max is None:  # (NumPy >= 2.1: a copy; traced values are immutable)
        a = operand(a)
        return a.copy() if isinstance(a, _np.ndarray) else a
    return _ew.clip(operand(a), -_np.inf if a_min is None else operand(a_min),
                    _np.inf if a_max is None else operand(a_max))


def _clip_with_keywords(a, a_min, a_max, out, kwargs):
    """``np.clip``'s ufunc call, whose loop and checks follow the bounds given: ``clip``,
    or ``minimum``/``maximum``/``positive`` when a bound is None (as NumPy's ``_clip``)."""
    if a_min is None and a_max is None:
        return call_with_keywords(_np.positive, positive, (a,), out, **kwargs)
    if a_min is None:
        return call_with_keywords(_np.minimum, lambda x, hi: _ew.clip(x, -_np.inf, hi),
                                  (a, a_max), out, **kwargs)
    if a_max is None:
        return call_with_keywords(_np.maximum, lambda x, lo: _ew.clip(x, lo, _np.inf),
                                  (a, a_min), out, **kwargs)
    return call_with_keywords(_np._core.umath.clip, _ew.clip, (a, a_min, a_max), out, **kwargs)


def isclose(a: ArrayLike, b: ArrayLike, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Array:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (as ``np.isclose``); not differentiable.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.isclose(np.array([1.0, np.nan]), np.array([1.0 + 1e-9, np.nan]), equal_nan=True)
    array([ True,  True])
    """
    a, b = operand(a), operand(b)
    # b inexact, as NumPy's (no boolean subtraction, no abs(int64 min)); a follows
    dtype = getattr(b, "dtype", None)
    if dtype is not None and dtype.kind in "biu":
        b = astype(b, _np.result_type(dtype, 1.0))
    elif isinstance(b, int):
        b = float(b)
    close = less_equal(abs(a - b), atol + rtol * abs(b))
    if equal_nan:
        close = logical_or(close, logical_and(isnan(a), isnan(b)))
    return close
