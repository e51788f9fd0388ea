"""``jax.lax``'s bitwise operations: and, or, xor, not, the three shifts, population count
and bitcasts.  None has a derivative (integer and boolean values carry none).

funcgrad has no bitwise primitives, so on traced integers (under ``jit`` or ``vmap``) the
operations are arithmetic: bit ``k`` of ``x`` is ``(x // 2**k) % 2`` (floor division is
an arithmetic shift, also for negative ``x``), the sign bit of a signed type is
``x < 0``, and the result is the sum of its bits times their weights (the sign bit's
weight is the type's minimum, two's complement).  Where the values are known (plain
arrays, and under ``grad``, whose values flow) NumPy computes them in one step.  A shift
by a negative amount or by the width of the type or more gives 0 (or -1 for an arithmetic
shift of a negative value), as in XLA.
"""
import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import concrete_values
from ._arith import binary
from ._common import INTEGER, INTEGER_OR_BOOL, accept, all_concrete, array, values
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "shift_left",
           "shift_right_logical", "shift_right_arithmetic", "population_count",
           "bitcast_convert_type"]


def _c(value, dtype):
    return np.asarray(value, dtype)


def _width(dtype):
    return np.dtype(dtype).itemsize * 8


def bits_of(x):
    """The bits of integer ``x``, least significant first, each 0 or 1 in ``x``'s dtype."""
    dtype, n = x.dtype, _width(x.dtype)
    signed = dtype.kind == "i"
    bits = [fnp.mod(fnp.floor_divide(x, _c(2 ** k, dtype)), _c(2, dtype))
            for k in range(n - 1 if signed else n)]
    if signed:
        bits.append(fnp.astype(fnp.less(x, 0), dtype))
    return bits


def from_bits(bits, dtype):
    """The integer of ``dtype`` whose bits are ``bits`` (0/1 arrays, least significant
    first); no partial sum overflows (the sign bit's negative weight comes last)."""
    total = None
    for k, b in enumerate(bits):
        weight = np.iinfo(dtype).min if (dtype.kind == "i" and k == len(bits) - 1) else 2 ** k
        term = fnp.multiply(b, _c(weight, dtype))
        total = term if total is None else fnp.add(total, term)
    return total


def _bitwise(name, numpy_ufunc, logical, combine):
    def op(x: ArrayLike, y: ArrayLike) -> Array:
        x, y = binary(name, x, y, INTEGER_OR_BOOL)
        if x.dtype.kind == "b":
            return logical(x, y)
        if all_concrete((x, y)):
            return numpy_ufunc(values(x), values(y))
        return from_bits([combine(a, b) for a, b in zip(bits_of(x), bits_of(y))], x.dtype)
    op.__name__ = op.__qualname__ = name
    return op


def _xor_bits(a, b):
    return fnp.subtract(fnp.add(a, b), fnp.multiply(fnp.multiply(a, b), _c(2, a.dtype)))


def _or_bits(a, b):
    return fnp.subtract(fnp.add(a, b), fnp.multiply(a, b))


bitwise_and = _bitwise("bitwise_and", np.bitwise_and, fnp.logical_and, fnp.multiply)
bitwise_and.__doc__ = """Bitwise ``x & y`` of integers (logical and of booleans).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.bitwise_and(np.array([12, -1]), np.array([10, 6]))
    array([8, 6])
    """
bitwise_or = _bitwise("bitwise_or", np.bitwise_or, fnp.logical_or, _or_bits)
bitwise_or.__doc__ = """Bitwise ``x | y`` of integers (logical or of booleans).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.bitwise_or(np.array([12, -8]), np.array([10, 1]))
    array([14, -7])
    """
bitwise_xor = _bitwise("bitwise_xor", np.bitwise_xor, fnp.logical_xor, _xor_bits)
bitwise_xor.__doc__ = """Bitwise ``x ^ y`` of integers (exclusive or of booleans).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.bitwise_xor(np.array([12, -1]), np.array([10, 1]))
    array([ 6, -2])
    """


def bitwise_not(x: ArrayLike) -> Array:
    """Bitwise ``~x`` of integers (logical not of booleans).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.bitwise_not(np.array([0, 5, -1])), lax.bitwise_not(np.array([5], np.uint8))
    (array([-1, -6,  0]), array([250], dtype=uint8))
    """
    x = accept("bitwise_not", array(x), INTEGER_OR_BOOL)
    if x.dtype.kind == "b":
        return fnp.logical_not(x)
    if x.dtype.kind == "u":
        return fnp.subtract(_c(np.iinfo(x.dtype).max, x.dtype), x)
    return fnp.subtract(fnp.negative(x), _c(1, x.dtype))  # two's complement: ~x = -x - 1


# --- shifts -----------------------------------------------------------------------------------

def _power_of_two(s, dtype, below):
    """``2 ** s`` in ``dtype`` for ``0 <= s <= below`` (``below`` small enough to fit)."""
    return fnp.power(_c(2, dtype), fnp.minimum(s, _c(below, dtype)))


def _floor_shift(x, s):
    """``floor(x / 2**s)`` for ``0 <= s < width``, never forming ``2**(width-1)`` in a
    signed type (it does not fit): the last halving is a second division."""
    n = _width(x.dtype)
    if x.dtype.kind == "u":
        return fnp.floor_divide(x, _power_of_two(s, x.dtype, n - 1))
    q = fnp.floor_divide(x, _power_of_two(s, x.dtype, n - 2))
    return fnp.where(fnp.equal(s, n - 1), fnp.floor_divide(q, _c(2, x.dtype)), q)


def _shift_operands(name, x, y):
    x, y = binary(name, x, y, INTEGER)
    n = _width(x.dtype)
    inside = fnp.logical_and(fnp.greater_equal(y, 0), fnp.less(y, _c(n, y.dtype)))
    return x, fnp.where(inside, y, _c(0, y.dtype)), inside, n


def shift_left(x: ArrayLike, y: ArrayLike) -> Array:
    """``x << y`` (bits shifted out are lost; ``y`` outside ``[0, width)`` gives 0).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.shift_left(np.array([1, 3, -1], np.int32), np.array([3, 40, 1], np.int32))
    array([ 8,  0, -2], dtype=int32)
    """
    x, s, inside, n = _shift_operands("shift_left", x, y)
    shifted = fnp.multiply(x, _power_of_two(s, x.dtype, n - 2))
    shifted = fnp.where(fnp.equal(s, n - 1), fnp.multiply(shifted, _c(2, x.dtype)), shifted)
    return fnp.where(inside, shifted, _c(0, x.dtype))


def shift_right_arithmetic(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y`` copying the top bit into the vacated bits (also for unsigned ``x``, as
    XLA); ``y`` outside ``[0, width)`` gives -1 or 0 by the top bit.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.shift_right_arithmetic(np.array([-8, 8, -1], np.int32), np.array([1, 40, 31], np.int32))
    array([-4,  0, -1], dtype=int32)
    """
    x, s, inside, n = _shift_operands("shift_right_arithmetic", x, y)
    if x.dtype.kind == "i":
        fill = fnp.where(fnp.less(x, 0), _c(-1, x.dtype), _c(0, x.dtype))
        return fnp.where(inside, _floor_shift(x, s), fill)
    top = fnp.greater_equal(x, _c(2 ** (n - 1), x.dtype))
    largest = _c(np.iinfo(x.dtype).max, x.dtype)
    # the vacated high bits, all ones: 2**n - 2**(n-s) = max - max // 2**s
    high = fnp.subtract(largest, _floor_shift(largest, s))
    shifted = fnp.add(_floor_shift(x, s), fnp.where(top, high, _c(0, x.dtype)))
    return fnp.where(inside, shifted, fnp.where(top, largest, _c(0, x.dtype)))


def shift_right_logical(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y`` filling the vacated bits with zeros (a negative ``x`` is read as its
    unsigned bits); ``y`` outside ``[0, width)`` gives 0.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.shift_right_logical(np.array([-8, 8, -1], np.int32), np.array([1, 40, 31], np.int32))
    array([2147483644,          0,          1], dtype=int32)
    """
    x, s, inside, n = _shift_operands("shift_right_logical", x, y)
    shifted = _floor_shift(x, s)
    if x.dtype.kind == "i":
        # x < 0 reads as u + 2**(n-1) with u = x - min >= 0; for s >= 1 that shifts to
        # u // 2**s + 2**(n-1-s), no term of which overflows
        low = fnp.subtract(x, _c(np.iinfo(x.dtype).min, x.dtype))
        negative = fnp.add(_floor_shift(low, s), fnp.power(
            _c(2, x.dtype), fnp.subtract(_c(n - 1, x.dtype), fnp.maximum(s, _c(1, x.dtype)))))
        negative = fnp.where(fnp.equal(s, 0), x, negative)
        shifted = fnp.where(fnp.less(x, 0), negative, shifted)
    return fnp.where(inside, shifted, _c(0, x.dtype))


def population_count(x: ArrayLike) -> Array:
    """The number of set bits of each integer (of its two's complement for a negative
    one), in ``x``'s dtype.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.population_count(np.array([-1, 7, 0], np.int32))
    array([32,  3,  0], dtype=int32)
    """
    x = accept("population_count", array(x), INTEGER)
    if all_concrete((x,)):
        v = values(x)
        bits = np.unpackbits(np.ascontiguousarray(v).view(np.uint8).reshape(v.shape + (-1,)),
                             axis=-1)
        return bits.sum(axis=-1).astype(x.dtype)
    total = None
    for b in bits_of(x):
        total = b if total is None else fnp.add(total, b)
    return total


def bitcast_convert_type(operand: ArrayLike, new_dtype: DTypeLike) -> Array:
    """``operand``'s bytes read as ``new_dtype`` (JAX's shapes: a wider type consumes a
    last axis of ``width ratio`` entries, a narrower one adds it).  It needs the values,
    so it works outside ``jit``/``vmap`` only (a ConcretizationError says so inside); it
    has no derivative, so a bitcast between different inexact dtypes of a value being
    differentiated raises (a bitcast to the same dtype is the identity).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.bitcast_convert_type(np.array([1.0], np.float32), np.int32)
    array([1065353216], dtype=int32)
    """
    x = array(operand)
    dtype = np.dtype(new_dtype)
    if x.dtype == dtype:
        return x
    if isinstance(x, Tracer) and x.dtype.kind in "fc" and dtype.kind in "fc":
        raise TypeError(f"bitcast_convert_type from {x.dtype} to {dtype} has no derivative, "
                        f"and its input is being differentiated; apply fg.stop_gradient to it "
                        f"first if the derivative is meant to be dropped")
    v = concrete_values(x, "bitcast_convert_type", "Bitcast outside the transform, or use "
                        "arithmetic (lax.shift_right_logical, lax.bitwise_and...) instead.")
    v = np.ascontiguousarray(v)
    old, new = v.dtype.itemsize, dtype.itemsize
    if old == new:
        return v.view(dtype)
    if old > new:
        return v[..., None].view(dtype)
    if not v.ndim or v.shape[-1] != new // old:
        raise ValueError(f"bitcast_convert_type from {v.dtype} to {dtype} needs a last axis "
                         f"of size {new // old}, got shape {v.shape}")
    return v.view(dtype)[..., 0]
