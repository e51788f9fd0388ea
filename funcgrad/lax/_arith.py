"""``jax.lax``'s arithmetic, rounding, comparisons, complex parts and dtype conversion.

Each operation is composed of ``funcgrad.numpy`` functions, so it differentiates (and
batches, and compiles) as they do.  Where lax's semantics differ from NumPy's they are
JAX's: integer ``div`` truncates toward zero and ``rem`` takes the dividend's sign (C's
rules; ``x / 0`` is -1 and ``x % 0`` is ``x``, XLA's values), ``round`` rounds half away
from zero by default, and a float converted to an integer saturates (NaN gives 0).
Operands are not promoted (see :mod:`._common`).
"""
import enum

import numpy as np

from .. import numpy as fnp
from ..primitives.structural import stop_gradient
from ._common import (ANY, FLOAT, INEXACT, NUMBER, ORDERED, accept, array, arrays,
                      same_dtypes, same_shapes, static_int)
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["add", "sub", "mul", "div", "rem", "neg", "abs", "sign", "floor", "ceil", "round",
           "RoundingMethod", "integer_pow", "pow", "square", "reciprocal", "max", "min",
           "clamp", "real", "imag", "conj", "complex", "eq", "ne", "lt", "le", "gt", "ge",
           "convert_element_type"]


def binary(name, x, y, kinds, twin=None):
    """``x`` and ``y`` as arrays of one dtype of ``kinds`` and agreeing shapes."""
    x, y = same_dtypes(name, arrays((x, y)), twin)
    accept(name, x, kinds)
    same_shapes(name, [x, y])
    return x, y


def _const(value, dtype):
    return np.asarray(value, dtype)


# --- the four operations ---------------------------------------------------------------------

def add(x: ArrayLike, y: ArrayLike) -> Array:
    """``x + y`` (same dtypes; no promotion).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.add(np.array([1.0, 2.0]), 0.5)
    array([1.5, 2.5])
    """
    return fnp.add(*binary("add", x, y, NUMBER, "add"))


def sub(x: ArrayLike, y: ArrayLike) -> Array:
    """``x - y`` (same dtypes; no promotion).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.sub(np.array([1.0, 2.0]), 0.5)
    array([0.5, 1.5])
    """
    return fnp.subtract(*binary("sub", x, y, NUMBER, "subtract"))


def mul(x: ArrayLike, y: ArrayLike, *, out_dtype: DTypeLike | None = None) -> Array:
    """``x * y`` (same dtypes; no promotion); with ``out_dtype``, of the operands cast to
    it first (JAX's CPU computes it so).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.mul(np.array([1.0, 2.0]), 3.0)
    array([3., 6.])
    >>> lax.mul(np.array([100], np.int8), np.array([3], np.int8), out_dtype=np.int32)
    array([300], dtype=int32)
    """
    x, y = binary("mul", x, y, NUMBER, "multiply")
    if out_dtype is not None:
        x, y = (fnp.astype(v, np.dtype(out_dtype)) for v in (x, y))
    return fnp.multiply(x, y)


def _truncated_quotient(x, y):
    """C's integer quotient (toward zero) of ``y != 0``, from NumPy's floor division.
    ``x / -1`` is ``-x`` (wrapping at the minimum, as XLA), never a floor division, whose
    overflow there differs between NumPy and compiled code."""
    if x.dtype.kind == "u":
        return fnp.floor_divide(x, y)
    minus_one = fnp.equal(y, -1)
    safe = fnp.where(minus_one, _const(1, y.dtype), y)
    q = fnp.floor_divide(x, safe)
    inexact = fnp.not_equal(fnp.subtract(x, fnp.multiply(q, safe)), 0)
    signs_differ = fnp.not_equal(fnp.less(x, 0), fnp.less(safe, 0))
    q = fnp.where(fnp.logical_and(inexact, signs_differ), q + _const(1, x.dtype), q)
    return fnp.where(minus_one, fnp.negative(x), q)


def div(x: ArrayLike, y: ArrayLike) -> Array:
    """``x / y``; for integers C's division, truncating toward zero (``-7 / 2`` is -3, and
    ``x / 0`` is -1, XLA's value).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.div(np.array([7, -7, 7]), np.array([2, 2, 0]))
    array([ 3, -3, -1])
    >>> lax.div(np.array([1.0, 3.0]), 2.0)
    array([0.5, 1.5])
    """
    x, y = binary("div", x, y, NUMBER, "divide")
    if x.dtype.kind in "fc":
        return fnp.divide(x, y)
    zero = fnp.equal(y, 0)
    q = _truncated_quotient(x, fnp.where(zero, _const(1, y.dtype), y))
    return fnp.where(zero, _const(-1, x.dtype) if x.dtype.kind == "i"
                     else _const(np.iinfo(x.dtype).max, x.dtype), q)


def rem(x: ArrayLike, y: ArrayLike) -> Array:
    """The remainder of :func:`div`, with the sign of ``x`` (C's ``fmod``; ``x % 0`` is
    ``x`` for integers).  Derivative 1 in ``x`` and ``-trunc(x / y)`` in ``y``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.rem(np.array([7, -7, 7, -7]), np.array([2, 2, -2, -2]))
    array([ 1, -1,  1, -1])
    >>> lax.rem(np.array([7.5, -7.5]), 2.0)
    array([ 1.5, -1.5])
    """
    x, y = binary("rem", x, y, ("iuf", "integer or floating-point"), "fmod")
    if x.dtype.kind == "f":
        return fnp.fmod(x, y)
    zero = fnp.equal(y, 0)
    safe = fnp.where(zero, _const(1, y.dtype), y)
    r = fnp.subtract(x, fnp.multiply(_truncated_quotient(x, safe), safe))
    return fnp.where(zero, x, r)


# --- one operand ------------------------------------------------------------------------------

def neg(x: ArrayLike) -> Array:
    """``-x`` (unsigned integers wrap around).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.neg(np.array([1.0, -2.0]))
    array([-1.,  2.])
    """
    return fnp.negative(accept("neg", array(x), NUMBER))


def abs(x: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """``|x|``; a complex ``x`` gives its real modulus.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.abs(np.array([-1.5, 3 + 4j]))
    array([1.5, 5. ])
    """
    return fnp.abs(accept("abs", array(x), ("ifc", "signed integer, floating-point or "
                                                    "complex")))


def sign(x: ArrayLike) -> Array:
    """-1, 0 or 1 by the sign of ``x`` (``x / |x|`` for complex ``x``, 0 at 0); derivative 0.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.sign(np.array([-2.0, 0.0, 3.0]))
    array([-1.,  0.,  1.])
    """
    return fnp.sign(accept("sign", array(x), NUMBER))


def floor(x: ArrayLike) -> Array:
    """The largest integer not above ``x`` (floating-point only); derivative 0.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.floor(np.array([-1.5, 1.5]))
    array([-2.,  1.])
    """
    return fnp.floor(accept("floor", array(x), FLOAT))


def ceil(x: ArrayLike) -> Array:
    """The smallest integer not below ``x`` (floating-point only); derivative 0.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.ceil(np.array([-1.5, 1.5]))
    array([-1.,  2.])
    """
    return fnp.ceil(accept("ceil", array(x), FLOAT))


class RoundingMethod(enum.IntEnum):
    """How :func:`round` breaks ties (JAX's enum; the plain ints 0 and 1 work too).

    >>> from funcgrad import lax
    >>> int(lax.RoundingMethod.TO_NEAREST_EVEN)
    1
    """
    AWAY_FROM_ZERO = 0
    TO_NEAREST_EVEN = 1


def round(x: ArrayLike,  # noqa: A001 - JAX's name
          rounding_method: int = RoundingMethod.AWAY_FROM_ZERO) -> Array:
    """``x`` rounded to an integer, halves away from zero (JAX's default) or to even
    (``RoundingMethod.TO_NEAREST_EVEN``, NumPy's ``rint``); derivative 0.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.round(np.array([0.5, 1.5, 2.5, -2.5]))
    array([ 1.,  2.,  3., -3.])
    >>> lax.round(np.array([0.5, 1.5, 2.5, -2.5]), lax.RoundingMethod.TO_NEAREST_EVEN)
    array([ 0.,  2.,  2., -2.])
    """
    x = accept("round", array(x), FLOAT)
    method = RoundingMethod(static_int(rounding_method, "round: rounding_method"))
    if method == RoundingMethod.TO_NEAREST_EVEN:
        return fnp.rint(x)
    whole = fnp.trunc(x)
    # x - trunc(x) is exact, so the tie test is too (floor(|x| + 0.5) is not: it rounds
    # 0.49999999999999994 up)
    half_or_more = fnp.greater_equal(fnp.abs(fnp.subtract(x, whole)), _const(0.5, x.dtype))
    return fnp.where(half_or_more, fnp.add(whole, fnp.sign(x)), whole)


def integer_pow(x: ArrayLike, y: int) -> Array:
    """``x ** y`` for a Python int ``y`` (negative ``y`` for inexact ``x`` only).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.integer_pow(np.array([2.0, 3.0]), -2)
    array([0.25      , 0.11111111])
    """
    x = accept("integer_pow", array(x), NUMBER)
    y = static_int(y, "integer_pow: the exponent y")
    if y < 0 and x.dtype.kind in "iu":
        raise TypeError(f"Integers cannot be raised to negative powers, got "
                        f"integer_pow({x.dtype}, {y}); convert x to a float dtype first")
    return fnp.power(x, y)


def pow(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """``x ** y`` for inexact ``x``; ``y`` of ``x``'s dtype, or of an integer dtype.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.pow(np.array([4.0, 9.0]), 0.5)
    array([2., 3.])
    >>> lax.pow(np.array([2.0, 3.0]), np.array([3, 2]))
    array([8., 9.])
    """
    x, y = arrays((x, y))
    accept("pow", x, INEXACT, 0)
    if y.dtype.kind in "iu":
        y = fnp.astype(y, x.dtype)  # (an integer exponent carries no derivative)
    else:
        same_dtypes("pow", [x, y], "power")
    same_shapes("pow", [x, y])
    return fnp.power(x, y)


def square(x: ArrayLike) -> Array:
    """``x * x``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.square(np.array([-2.0, 3.0]))
    array([4., 9.])
    """
    return fnp.square(accept("square", array(x), NUMBER))


def reciprocal(x: ArrayLike) -> Array:
    """``1 / x`` (inexact ``x``).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reciprocal(np.array([2.0, -4.0]))
    array([ 0.5 , -0.25])
    """
    return fnp.reciprocal(accept("reciprocal", array(x), INEXACT))


# --- extrema ----------------------------------------------------------------------------------

def max(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """The larger of ``x`` and ``y``, NaN if either is NaN; on ties each gets half the
    derivative (as JAX).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.max(np.array([1.0, 5.0]), np.array([3.0, 2.0]))
    array([3., 5.])
    """
    return fnp.maximum(*binary("max", x, y, ORDERED, "maximum"))


def min(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """The smaller of ``x`` and ``y``, NaN if either is NaN; on ties each gets half the
    derivative (as JAX).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.min(np.array([1.0, 5.0]), np.array([3.0, 2.0]))
    array([1., 2.])
    """
    return fnp.minimum(*binary("min", x, y, ORDERED, "minimum"))


def clamp(min: ArrayLike, x: ArrayLike, max: ArrayLike) -> Array:  # noqa: A002 - JAX's names
    """``x`` limited to ``[min, max]`` (``min`` and ``max``: 0-d or of ``x``'s shape).
    The derivative goes to whichever of the three the value is: to ``x`` strictly
    inside, to a bound where ``x`` is beyond it (or to ``max`` when ``min > max``), and
    to none at a tie, as JAX.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad import lax
    >>> lax.clamp(0.0, np.array([-1.0, 0.5, 2.0]), 1.0)
    array([0. , 0.5, 1. ])
    >>> fg.grad(lambda x: fg.numpy.sum(lax.clamp(0.0, x, 1.0)))(np.array([-1.0, 0.5, 2.0]))
    array([0., 1., 0.])
    """
    lo, x, hi = same_dtypes("clamp", arrays((min, x, max)), "clip")
    accept("clamp", x, ORDERED)
    for bound, what in ((lo, "min"), (hi, "max")):
        if bound.ndim and bound.shape != x.shape:
            raise TypeError(f"clamp requires {what}.shape == operand.shape or {what}.shape == "
                            f"(), got {what}.shape={bound.shape}, operand.shape={x.shape}")
    value = stop_gradient(fnp.minimum(fnp.maximum(x, lo), hi))
    inside = fnp.logical_and(fnp.greater(x, lo), fnp.less(x, hi))
    below = fnp.logical_and(fnp.less(x, lo), fnp.less(lo, hi))
    above = fnp.logical_or(fnp.greater(x, hi), fnp.greater(lo, hi))
    # each branch is the value where it is taken: only the derivative's route differs
    out = fnp.where(above, hi, value)
    out = fnp.where(below, lo, out)
    return fnp.where(inside, x, out)


# --- complex numbers --------------------------------------------------------------------------

def real(x: ArrayLike) -> Array:
    """The real part of a complex ``x``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.real(np.array([1 + 2j]))
    array([1.])
    """
    return fnp.real(accept("real", array(x), ("c", "complex")))


def imag(x: ArrayLike) -> Array:
    """The imaginary part of a complex ``x``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.imag(np.array([1 + 2j]))
    array([2.])
    """
    return fnp.imag(accept("imag", array(x), ("c", "complex")))


def conj(x: ArrayLike) -> Array:
    """The complex conjugate; a real ``x`` gives a complex result (as JAX).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.conj(np.array([1 + 2j])), lax.conj(np.array([1.0]))
    (array([1.-2.j]), array([1.-0.j]))
    """
    x = accept("conj", array(x), INEXACT)
    if x.dtype.kind == "f":
        x = fnp.astype(x, np.result_type(x.dtype, np.complex64))
    return fnp.conj(x)


def complex(x: ArrayLike, y: ArrayLike) -> Array:  # noqa: A001 - JAX's name
    """``x + 1j * y`` from real ``x`` and ``y`` of one dtype (float32 gives complex64).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.complex(np.array([1.0]), np.array([2.0]))
    array([1.+2.j])
    """
    x, y = binary("complex", x, y, FLOAT)
    dtype = np.result_type(x.dtype, np.complex64)
    return fnp.add(fnp.astype(x, dtype), fnp.multiply(fnp.astype(y, dtype), 1j))


# --- comparisons ------------------------------------------------------------------------------

def _comparison(name, compare, kinds, symbol, example):
    def op(x: ArrayLike, y: ArrayLike) -> Array:
        return compare(*binary(name, x, y, kinds, compare.__name__))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"""Elementwise ``x {symbol} y`` (a boolean array; same dtypes).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.{name}(np.array([1.0, 2.0, 3.0]), 2.0)
    array([{example}])
    """
    return op


eq = _comparison("eq", fnp.equal, ANY, "==", "False,  True, False")
ne = _comparison("ne", fnp.not_equal, ANY, "!=", " True, False,  True")
lt = _comparison("lt", fnp.less, ORDERED, "<", " True, False, False")
le = _comparison("le", fnp.less_equal, ORDERED, "<=", " True,  True, False")
gt = _comparison("gt", fnp.greater, ORDERED, ">", "False, False,  True")
ge = _comparison("ge", fnp.greater_equal, ORDERED, ">=", "False,  True,  True")


# --- conversion -------------------------------------------------------------------------------

def _float_to_integer(x, dtype):
    """XLA's conversion: toward zero, saturating at the integer type's bounds; NaN is 0."""
    info = np.iinfo(dtype)
    whole = fnp.trunc(x)
    # the largest float of x's dtype not above the integer maximum (2**63 - 1 is not a
    # float64): values beyond it saturate after the cast
    top = np.asarray(info.max, x.dtype)
    if int(top) > info.max:  # (compared as Python ints: exact)
        top = np.nextafter(top, np.asarray(0, x.dtype))
    inside = fnp.clip(whole, np.asarray(info.min, x.dtype), top)
    inside = fnp.where(fnp.isnan(x), _const(0, x.dtype), inside)
    out = fnp.astype(inside, dtype)
    return fnp.where(fnp.greater(whole, top), _const(info.max, dtype), out)


def convert_element_type(operand: ArrayLike, new_dtype: DTypeLike) -> Array:
    """``operand`` as ``new_dtype``, by JAX's rules: a float becomes an integer toward zero,
    saturating at the type's bounds (NaN gives 0); a complex number becomes real by its real
    part; anything becomes a boolean by being nonzero.  Derivatives pass between inexact
    dtypes; an integer or boolean result has none.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.convert_element_type(np.array([1.7, -1.7, 300.0, np.nan]), np.int8)
    array([  1,  -1, 127,   0], dtype=int8)
    """
    x = accept("convert_element_type", array(operand), ANY)
    dtype = np.dtype(new_dtype)
    if dtype.kind not in "biufc":
        raise TypeError(f"convert_element_type: cannot convert to {dtype}; lax converts "
                        f"between boolean and numeric dtypes")
    if x.dtype == dtype:
        return x
    if x.dtype.kind == "c" and dtype.kind != "c":
        x = fnp.real(x)
    if x.dtype.kind == "f" and dtype.kind in "iu":
        return _float_to_integer(x, dtype)
    return fnp.astype(x, dtype)
