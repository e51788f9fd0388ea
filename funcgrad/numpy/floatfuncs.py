"""Floating-point functions: copysign, fmod, divmod, modf, frexp, ldexp, nextafter,
spacing, signbit, nan_to_num, isneginf, isposinf, and the Bessel function i0.

Composed of the elementwise primitives, so each is differentiable where NumPy's result is
a smooth function of its float inputs (``fmod`` and ``modf`` have derivative 1 in ``x``;
``frexp``'s mantissa ``x / 2**e``; ``nextafter`` moves ``x`` by a piecewise-constant
step), and integer or boolean results carry no derivative.  Boolean results are computed
by NumPy itself whenever the values are concrete.
"""
import sys
from typing import Any

import numpy as _np

from ..core import concrete
from ..primitives.special import i0e as _i0e
from ._convert import (asarray, concrete_values, is_concrete, operand, scalar_results,
                       write_out)
from .constructors import astype, stop_gradient
from .indexing import where
from ._ufunc_wrappers import stands_for, ufunc_dtype
from .ufuncs import (abs, add, divide, equal, exp2, floor, floor_divide, greater, greater_equal,
                     exp, isfinite, isinf, isnan, less, log2, logical_and, logical_not, logical_or,
                     mod, multiply, negative, not_equal, subtract, trunc)
from ..typing import Array, ArrayLike

__all__ = ["copysign", "fmod", "divmod", "modf", "frexp", "ldexp", "nextafter", "spacing",
           "signbit", "nan_to_num", "isneginf", "isposinf", "i0"]


def _float_operand(x, ufunc=None):
    """``x`` in the float dtype of ``ufunc``'s loop (float-only loops: bool and int8 give
    float16, int16 float32, as NumPy's), float64 without one."""
    x = operand(x)
    dtype = _np.result_type(x) if not hasattr(x, "dtype") else x.dtype
    if _np.dtype(dtype).kind not in "biu":
        return x if hasattr(x, "dtype") else asarray(x)  # (a Python float: float64)
    return astype(x, _np.float64 if ufunc is None else ufunc_dtype(ufunc, x))


def _real_operands(name, *xs):
    """``xs`` as operands, refused when complex, as NumPy refuses them: these functions read
    a float's order, sign bit or exponent, which a complex number does not have."""
    xs = tuple(operand(x) for x in xs)
    if any(_kind(x) == "c" for x in xs):
        raise TypeError(f"{name}: complex values are not supported, as in NumPy (no order, "
                        f"sign bit or exponent to read); apply it to np.real(x) and np.imag(x)")
    return xs


def _common(x1, x2):
    """NumPy's result dtype of a binary ufunc (Python numbers weakly typed)."""
    return _np.result_type(*[x if isinstance(x, (int, float)) else x.dtype for x in (x1, x2)])


def _kind(x):
    return (x.dtype if hasattr(x, "dtype") else _np.result_type(x)).kind


def _on_gpu(x):
    """Whether ``x``'s value is a GPU array: NumPy's answer would be a host array, which
    cannot meet it in the operations that follow, so the primitives compute it there."""
    gpu = sys.modules.get("funcgrad.gpu")  # (only loaded once GPU arrays exist)
    return gpu is not None and isinstance(concrete(x), gpu.GpuArray)


def _const(value, like):
    return _np.asarray(value, getattr(like, "dtype", _np.float64))


@stands_for(_np.signbit)
def signbit(x: ArrayLike) -> Array:
    """Elementwise ``np.signbit``: whether the sign bit is set (-0.0 included); boolean.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.signbit(np.array([-1.0, -0.0, 0.0, 2.0]))
    array([ True,  True, False, False])
    """
    x, = _real_operands("signbit", x)
    if is_concrete(x) and not _on_gpu(x):
        return _np.signbit(concrete_values(x, "", ""))
    # (-0.0 is the zero whose reciprocal is -inf; a NaN's sign bit is not visible here)
    zero = equal(x, 0)
    negative_zero = logical_and(zero, less(divide(1.0, where(zero, x, 1.0)), 0))
    return logical_or(less(x, 0), negative_zero)


@stands_for(_np.copysign)
@scalar_results  # (NumPy's 0-d result is a scalar: this one's steps make 0-d arrays)
def copysign(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Elementwise ``np.copysign``: the magnitude of ``x1`` with the sign of ``x2``
    (derivative ``±1`` in ``x1``, 0 in ``x2``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.copysign(np.array([1.0, -2.0, 3.0]), np.array([-1.0, 1.0, -0.0]))
    array([-1.,  2., -3.])
    """
    x1, x2 = _real_operands("copysign", x1, x2)
    magnitude = abs(astype(x1, ufunc_dtype(_np.copysign, x1, x2)))  # (int8: float16)
    x2 = _float_operand(x2)
    return where(signbit(x2), negative(magnitude), magnitude)


@stands_for(_np.fmod)
@scalar_results  # (NumPy's 0-d result is a scalar: this one's steps make 0-d arrays)
def fmod(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Elementwise ``np.fmod``: the C remainder, with the sign of ``x1`` (``remainder``
    has the sign of ``x2``).  Derivative 1 in ``x1``, ``-trunc(x1 / x2)`` in ``x2``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fmod(np.array([-3.0, 3.0]), 2.0)
    array([-1.,  1.])
    """
    x1, x2 = _real_operands("fmod", x1, x2)
    r = mod(x1, x2)
    differs = logical_and(not_equal(r, 0), not_equal(signbit(r), signbit(x1)))
    r = where(differs, subtract(r, x2), r)
    # fmod(x, ±inf) is x, and fmod(±0, y) is ±0 (signed zeros kept)
    keep = logical_or(logical_and(isinf(x2), isfinite(x1)),
                      logical_and(equal(x1, 0), logical_and(not_equal(x2, 0), logical_not(
                          isnan(x2)))))
    return where(keep, x1, r)


@stands_for(_np.divmod)
def divmod(x1: ArrayLike, x2: ArrayLike) -> tuple[Array, Array]:  # noqa: A001 - NumPy's name
    """Elementwise ``np.divmod``: ``(floor_divide(x1, x2), remainder(x1, x2))``, the
    quotient computed as NumPy's ``npy_divmod`` does (exact at infinities and zeros); the
    quotient has derivative 0, the remainder 1 in ``x1`` and ``-quotient`` in ``x2``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.divmod(np.array([7.0, -7.0]), 2.0)
    (array([ 3., -4.]), array([1., 1.]))
    """
    x1, x2 = _real_operands("divmod", x1, x2)
    if _kind(x1) in "biu" and _kind(x2) in "biu":
        return floor_divide(x1, x2), mod(x1, x2)
    r = mod(x1, x2)
    c_mod = fmod(x1, x2)
    div = divide(subtract(x1, c_mod), x2)
    adjust = logical_and(not_equal(c_mod, 0), not_equal(less(x2, 0), less(c_mod, 0)))
    div = where(adjust, subtract(div, 1.0), div)
    whole = floor(div)
    whole = where(greater(subtract(div, whole), 0.5), add(whole, 1.0), whole)
    whole = where(equal(div, 0), copysign(_const(0.0, whole), divide(x1, x2)), whole)
    return where(equal(x2, 0), divide(x1, x2), whole), r


@stands_for(_np.modf)
def modf(x: ArrayLike) -> tuple[Array, Array]:
    """Elementwise ``np.modf``: ``(fractional part, integral part)``, both with the sign of
    ``x``; the fractional part has derivative 1.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.modf(np.array([2.5, -1.25]))
    (array([ 0.5 , -0.25]), array([ 2., -1.]))
    """
    x = _float_operand(_real_operands("modf", x)[0], _np.modf)
    whole = trunc(x)
    infinite = isinf(x)
    frac = subtract(x, where(infinite, _const(0.0, x), whole))
    # (with x's sign: modf(-2.0) is (-0.0, -2.0); the derivative stays 1)
    return copysign(where(infinite, _const(0.0, x), frac), x), whole


def _mantissa_bits(dtype):
    """The significand's bits and the exponent of the smallest subnormal (53, -1074 for
    float64)."""
    info = _np.finfo(dtype)
    return info.nmant + 1, info.minexp - info.nmant


def _exponent(x):
    """``e`` with ``|x| = m * 2**e``, ``0.5 <= m < 1`` (float, exact; 0 for 0, inf, NaN)."""
    ax = abs(x)
    finite = logical_and(greater(ax, 0), isfinite(ax))
    safe = where(finite, ax, _const(1.0, ax))
    e = add(floor(log2(safe)), 1.0)
    m = _scale(safe, negative(e))  # (log2 may miss by one near 2**k)
    e = where(greater_equal(m, 1.0), add(e, 1.0), where(less(m, 0.5), subtract(e, 1.0), e))
    return where(finite, e, _const(0.0, e))


def _scale(x, e):
    """``x * 2.0 ** e`` for integer-valued ``e``, exact: two factors, each in range."""
    half = floor(multiply(e, 0.5))
    return multiply(multiply(x, astype(exp2(half), x.dtype)),
                    astype(exp2(subtract(e, half)), x.dtype))


@stands_for(_np.frexp)
def frexp(x: ArrayLike) -> tuple[Array, Array]:
    """Elementwise ``np.frexp``: ``(mantissa, exponent)`` with ``x = mantissa *
    2**exponent`` and ``0.5 <= |mantissa| < 1`` (exponent int32, no derivative; the
    mantissa's derivative is ``2**-exponent``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.frexp(np.array([8.0, 0.75, 0.0]))
    (array([0.5 , 0.75, 0.  ]), array([4, 0, 0], dtype=int32))
    """
    x = _float_operand(_real_operands("frexp", x)[0], _np.frexp)
    e = _exponent(x)
    return _scale(x, negative(e)), astype(e, _np.int32)


@stands_for(_np.ldexp)
def ldexp(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Elementwise ``np.ldexp``: ``x1 * 2**x2`` for integer ``x2`` (derivative ``2**x2``
    in ``x1``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.ldexp(np.array([0.5, 3.0]), np.array([4, -1]))
    array([8. , 1.5])
    """
    x1, x2 = _float_operand(_real_operands("ldexp", x1)[0], _np.spacing), operand(x2)
    # (ldexp's loop is x1's float-only one: spacing's)
    if _kind(x2) not in "iub":
        raise TypeError("ldexp: the exponents x2 must be integers; round them first, e.g. "
                        "np.rint(x2).astype(int)")
    return _scale(x1, astype(asarray(x2), _np.float64))


def _ulp_away(ax):
    """The gap from ``|x|`` to the next float away from zero (the smallest subnormal at 0)."""
    bits, lowest = _mantissa_bits(ax.dtype)
    e = _exponent(ax)
    lowest = float(lowest)  # below it (and at 0): the subnormals' constant gap
    exponent = where(logical_or(less(subtract(e, bits), lowest), equal(ax, 0)),
                     _const(lowest, e), subtract(e, bits))
    return _scale(_const(1.0, ax), exponent)


@stands_for(_np.spacing)
def spacing(x: ArrayLike) -> Array:
    """Elementwise ``np.spacing``: the distance from ``x`` to the next float away from
    zero, with ``x``'s sign (piecewise constant: derivative 0).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> bool(fnp.spacing(1.0) == np.finfo(float).eps)
    True
    """
    x = _float_operand(asarray(*_real_operands("spacing", x)), _np.spacing)
    gap = _ulp_away(abs(x))
    out = where(less(x, 0), negative(gap), gap)  # (-0.0 too has the positive gap, as NumPy)
    return where(logical_or(isinf(x), isnan(x)), _const(_np.nan, x), out)


@stands_for(_np.nextafter)
def nextafter(x1: ArrayLike, x2: ArrayLike) -> Array:
    """Elementwise ``np.nextafter``: the next float after ``x1`` towards ``x2``.  Its
    derivative is 1 in ``x1`` and 0 in ``x2`` everywhere (it moves ``x1`` by at most one
    ulp), also at ``x1 == 0`` and ``x1 == x2``, where the value's formula changes but not
    its slope (0 at an infinite ``x1``).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> bool(fnp.nextafter(1.0, 2.0) == 1.0 + np.finfo(float).eps)
    True
    >>> float(fg.grad(lambda x: fnp.nextafter(x, 2.0))(0.0))
    1.0
    """
    x1, x2 = _real_operands("nextafter", x1, x2)
    x1, x2 = operand(x1), operand(x2)
    dtype = ufunc_dtype(_np.nextafter, x1, x2)  # (a Python number weak: float32 stays)
    x1 = astype(x1, dtype)
    x2 = x2 if isinstance(x2, (int, float)) else astype(x2, dtype)
    value = _next_float(stop_gradient(x1), stop_gradient(x2) if hasattr(x2, "dtype") else x2)
    # The slope: minus stop_gradient(x1) - x1, an exact +0.0 (subtracted, not added: a -0.0
    # result keeps its sign); an infinite x1 is replaced by 0 first (inf - inf is NaN).
    finite = where(isfinite(x1), x1, _const(0.0, x1))
    return subtract(value, subtract(stop_gradient(finite), finite))


def _next_float(x1, x2):
    """``np.nextafter``'s value, from the bits' arithmetic (``x1`` has the result dtype)."""
    ax = abs(x1)
    away = _ulp_away(ax)
    # Towards zero from a power of two the gap halves (not below the subnormals' gap).
    bits, lowest = _mantissa_bits(x1.dtype)
    e = _exponent(ax)
    power_of_two = equal(_scale(ax, negative(e)), 0.5)
    toward = where(logical_and(power_of_two, greater(subtract(e, bits), float(lowest))),
                   multiply(away, 0.5), away)
    smallest = _scale(_const(1.0, ax), _const(float(lowest), ax))
    up = greater(x2, x1)
    negative_x = signbit(x1)
    step = where(where(up, logical_not(negative_x), negative_x), away, toward)
    moved = where(up, add(x1, step), subtract(x1, step))
    # (from the smallest subnormal towards zero: the zero of x1's sign, as C's nextafter)
    moved = where(equal(moved, 0), where(negative_x, _const(-0.0, ax), _const(0.0, ax)), moved)
    moved = where(equal(x1, 0), where(up, smallest, negative(smallest)), moved)
    largest = _const(_np.finfo(ax.dtype).max, ax)
    moved = where(isinf(x1), where(negative_x, negative(largest), largest), moved)
    out = where(equal(x1, x2), astype(x2, x1.dtype) if hasattr(x2, "dtype") else x2, moved)
    return where(logical_or(isnan(x1), isnan(x2)), _const(_np.nan, x1), out)


def nan_to_num(x: ArrayLike, copy: bool = True, nan: ArrayLike = 0.0,
               posinf: ArrayLike | None = None, neginf: ArrayLike | None = None) -> Array:
    """``np.nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None)``: NaN, +inf and
    -inf replaced (by 0 and the largest finite values by default); derivative 1 at the
    finite entries, 0 at the replaced ones.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.nan_to_num(np.array([np.nan, -np.inf, 1.5]), neginf=-9.0)
    array([ 0. , -9. ,  1.5])
    """
    x = asarray(x)
    if x.dtype.kind not in "fc":
        return x
    info = _np.finfo(x.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    out = where(isnan(x), _const(nan, x), x)
    out = where(equal(x, _np.inf), _const(posinf, x), out)
    return where(equal(x, -_np.inf), _const(neginf, x), out)


def isneginf(x: ArrayLike, out: Any = None) -> Array:
    """``np.isneginf(x, out=None)``: whether each entry is -inf (boolean).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.isneginf(np.array([-np.inf, np.inf, 1.0]))
    array([ True, False, False])
    """
    return _infinity_test("isneginf", equal, x, -_np.inf, out)


def isposinf(x: ArrayLike, out: Any = None) -> Array:
    """``np.isposinf(x, out=None)``: whether each entry is +inf (boolean).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.isposinf(np.array([-np.inf, np.inf, 1.0]))
    array([False,  True, False])
    """
    return _infinity_test("isposinf", equal, x, _np.inf, out)


def _infinity_test(name, test, x, infinity, out):
    """``isposinf``/``isneginf``: NumPy refuses complex values (is ``inf + 1j`` positive
    infinity?), and writes into ``out=`` as its ``logical_and(..., out)`` does."""
    x = operand(x)
    dtype = getattr(x, "dtype", None)
    if dtype is not None and dtype.kind == "c" or isinstance(x, complex):
        raise TypeError(f"This operation is not supported for "
                        f"{dtype or _np.dtype(complex)} values because it would be ambiguous "
                        f"(fnp.{name}): test the real and imaginary parts, "
                        f"fnp.{name}(x.real), fnp.{name}(x.imag)")
    result = test(x, infinity)
    return result if out is None else write_out(name, out, result)


def i0(x: ArrayLike) -> Array:
    """``np.i0(x)``: the modified Bessel function of the first kind, order 0, elementwise
    (derivative ``i1(x)``), as ``i0e(x) * exp(|x|)`` from the primitive
    :func:`funcgrad.primitives.special.i0e` (``funcgrad.scipy.special.i0`` is the same
    function).  Integers give float64, float32 stays float32, a scalar gives a 0-d array;
    complex values raise TypeError, as NumPy.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.i0(np.array([0.0, 1.0]))
    array([1.        , 1.26606588])
    >>> round(float(fg.grad(fnp.i0)(1.0)), 12)  # i1(1)
    0.565159103992
    """
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values; apply it to the real and "
                        "imaginary parts' moduli, or use scipy.special.iv on values")
    if x.dtype.kind != "f":
        x = astype(x, _np.float64)
    out = multiply(_i0e(x), exp(abs(x)))
    if out.dtype != x.dtype:  # (float16 is computed in float32; NumPy's is float16)
        out = astype(out, x.dtype)
    return _np.asarray(out) if isinstance(out, _np.generic) else out  # NumPy's 0-d array
