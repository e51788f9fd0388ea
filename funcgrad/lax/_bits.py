"""``jax.lax``'s bitwise operations: and, or, xor, not, the three shifts, population count,
leading zeros (``clz``), the high half of a product (``mulhi``) and bitcasts.  None has a derivative (integer and boolean values carry none).

They are ``funcgrad.numpy``'s bitwise functions (primitives: one compiled loop under
``jit``), with XLA's rules where NumPy's differ: a shift by a negative amount or by the
width of the type or more gives 0 (or -1 for an arithmetic shift of a negative value), a
logical shift reads a signed value's bits as unsigned, and the population count of a
negative value counts its two's complement bits (NumPy's ``bitwise_count`` counts those
of its absolute value).
"""
import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import concrete_values
from ._arith import binary
from ._common import INTEGER, INTEGER_OR_BOOL, accept, array
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "shift_left",
           "shift_right_logical", "shift_right_arithmetic", "population_count",
           "bitcast_convert_type", "clz", "mulhi"]


def _c(value, dtype):
    return np.asarray(value, dtype)


def _width(dtype):
    return np.dtype(dtype).itemsize * 8


def _unsigned(dtype):
    return np.dtype(f"u{np.dtype(dtype).itemsize}")


def _signed(dtype):
    return np.dtype(f"i{np.dtype(dtype).itemsize}")


def _bitwise(name, numpy_function):
    def op(x: ArrayLike, y: ArrayLike) -> Array:
        x, y = binary(name, x, y, INTEGER_OR_BOOL)
        return numpy_function(x, y)
    op.__name__ = op.__qualname__ = name
    return op


bitwise_and = _bitwise("bitwise_and", fnp.bitwise_and)
bitwise_and.__doc__ = """Bitwise ``x & y`` of integers (logical and of booleans).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.bitwise_and(np.array([12, -1]), np.array([10, 6]))
    array([8, 6])
    """
bitwise_or = _bitwise("bitwise_or", fnp.bitwise_or)
bitwise_or.__doc__ = """Bitwise ``x | y`` of integers (logical or of booleans).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.bitwise_or(np.array([12, -8]), np.array([10, 1]))
    array([14, -7])
    """
bitwise_xor = _bitwise("bitwise_xor", fnp.bitwise_xor)
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
    return fnp.invert(accept("bitwise_not", array(x), INTEGER_OR_BOOL))


# --- shifts -----------------------------------------------------------------------------------

def _shift_operands(name, x, y):
    """``(x, y inside [0, width) or 0, inside)``."""
    x, y = binary(name, x, y, INTEGER)
    inside = fnp.logical_and(fnp.greater_equal(y, 0), fnp.less(y, _c(_width(x.dtype), y.dtype)))
    return x, fnp.where(inside, y, _c(0, y.dtype)), inside


def _shift_right(x, s, dtype):
    """NumPy's ``x >> s`` computed in ``dtype`` (same width: the bits reinterpreted)."""
    if x.dtype == dtype:
        return fnp.right_shift(x, s)
    shifted = fnp.right_shift(fnp.astype(x, dtype), fnp.astype(s, dtype))
    return fnp.astype(shifted, x.dtype)


def shift_left(x: ArrayLike, y: ArrayLike) -> Array:
    """``x << y`` (bits shifted out are lost; ``y`` outside ``[0, width)`` gives 0).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.shift_left(np.array([1, 3, -1], np.int32), np.array([3, 40, 1], np.int32))
    array([ 8,  0, -2], dtype=int32)
    """
    x, s, inside = _shift_operands("shift_left", x, y)
    return fnp.where(inside, fnp.left_shift(x, s), _c(0, x.dtype))


def shift_right_arithmetic(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y`` copying the top bit into the vacated bits (also for unsigned ``x``, as
    XLA); ``y`` outside ``[0, width)`` gives -1 or 0 by the top bit.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.shift_right_arithmetic(np.array([-8, 8, -1], np.int32), np.array([1, 40, 31], np.int32))
    array([-4,  0, -1], dtype=int32)
    """
    x, s, inside = _shift_operands("shift_right_arithmetic", x, y)
    signed = _signed(x.dtype)
    fill = _shift_right(x, _c(_width(x.dtype) - 1, x.dtype), signed)  # all ones or zeros
    return fnp.where(inside, _shift_right(x, s, signed), fill)


def shift_right_logical(x: ArrayLike, y: ArrayLike) -> Array:
    """``x >> y`` filling the vacated bits with zeros (a negative ``x`` is read as its
    unsigned bits); ``y`` outside ``[0, width)`` gives 0.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.shift_right_logical(np.array([-8, 8, -1], np.int32), np.array([1, 40, 31], np.int32))
    array([2147483644,          0,          1], dtype=int32)
    """
    x, s, inside = _shift_operands("shift_right_logical", x, y)
    return fnp.where(inside, _shift_right(x, s, _unsigned(x.dtype)), _c(0, x.dtype))


def population_count(x: ArrayLike) -> Array:
    """The number of set bits of each integer (of its two's complement for a negative
    one), in ``x``'s dtype.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.population_count(np.array([-1, 7, 0], np.int32))
    array([32,  3,  0], dtype=int32)
    """
    x = accept("population_count", array(x), INTEGER)
    bits = x if x.dtype.kind == "u" else fnp.astype(x, _unsigned(x.dtype))
    return fnp.astype(fnp.bitwise_count(bits), x.dtype)


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
    v = np.ascontiguousarray(v).reshape(v.shape)  # (ascontiguousarray makes 0-d arrays 1-d)
    old, new = v.dtype.itemsize, dtype.itemsize
    if old == new:
        return v.view(dtype)
    if old > new:
        return v[..., None].view(dtype)
    if not v.ndim or v.shape[-1] != new // old:
        raise ValueError(f"bitcast_convert_type from {v.dtype} to {dtype} needs a last axis "
                         f"of size {new // old}, got shape {v.shape}")
    return v.view(dtype)[..., 0]


def clz(x: ArrayLike) -> Array:
    """The number of leading zero bits of each integer (of its two's complement for a
    negative one; the width for 0), in ``x``'s dtype.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.clz(np.array([0, 1, -1, 255], np.int32))
    array([32, 31,  0, 24], dtype=int32)
    """
    x = accept("clz", array(x), INTEGER)
    unsigned = _unsigned(x.dtype)
    bits = x if x.dtype.kind == "u" else fnp.astype(x, unsigned)
    width = _width(x.dtype)
    count = fnp.zeros_like(bits)
    # binary search for the highest set bit: shift it up while the top half is empty
    step = width // 2
    while step:
        empty = fnp.equal(fnp.right_shift(bits, _c(width - step, unsigned)), _c(0, unsigned))
        count = fnp.where(empty, count + _c(step, unsigned), count)
        bits = fnp.where(empty, fnp.left_shift(bits, _c(step, unsigned)), bits)
        step //= 2
    top_clear = fnp.equal(fnp.right_shift(bits, _c(width - 1, unsigned)), _c(0, unsigned))
    count = fnp.where(top_clear, count + _c(1, unsigned), count)
    return count if count.dtype == x.dtype else fnp.astype(count, x.dtype)


def _high_product_u64(a, b):
    """The high 64 bits of the 128-bit product of uint64 ``a`` and ``b``, by 32-bit
    halves (each partial product fits 64 bits)."""
    u = np.uint64
    low = u(0xFFFFFFFF)
    a0, a1 = fnp.bitwise_and(a, low), fnp.right_shift(a, u(32))
    b0, b1 = fnp.bitwise_and(b, low), fnp.right_shift(b, u(32))
    p00, p01, p10, p11 = a0 * b0, a0 * b1, a1 * b0, a1 * b1
    middle = (fnp.right_shift(p00, u(32)) + fnp.bitwise_and(p01, low)
              + fnp.bitwise_and(p10, low))
    return (p11 + fnp.right_shift(p01, u(32)) + fnp.right_shift(p10, u(32))
            + fnp.right_shift(middle, u(32)))


def mulhi(x: ArrayLike, y: ArrayLike, /) -> Array:
    """The high ``N`` bits of the ``2N``-bit product of ``N``-bit integers ``x`` and
    ``y`` (same dtype; signed or unsigned as the dtype is).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.mulhi(np.array([-7, 2**30], np.int32), np.array([2**30, 12], np.int32))
    array([-2,  3], dtype=int32)
    """
    x, y = binary("mulhi", x, y, INTEGER)
    width = _width(x.dtype)
    if width < 64:
        wide = np.dtype(f"{x.dtype.kind}8")
        product = fnp.astype(x, wide) * fnp.astype(y, wide)
        return fnp.astype(fnp.right_shift(product, _c(width, wide)), x.dtype)
    if x.dtype.kind == "u":
        return _high_product_u64(x, y)
    ux, uy = fnp.astype(x, np.uint64), fnp.astype(y, np.uint64)
    high = _high_product_u64(ux, uy)
    # (the signed product's high half: subtract y where x < 0 and x where y < 0, mod 2**64)
    zero = np.uint64(0)
    high = high - fnp.where(fnp.less(x, _c(0, x.dtype)), uy, zero)
    high = high - fnp.where(fnp.less(y, _c(0, y.dtype)), ux, zero)
    return fnp.astype(high, x.dtype)
