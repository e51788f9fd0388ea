"""Bits of integer arrays: ``packbits`` and ``unpackbits``, as NumPy and ``jax.numpy``
have them.

Plain arrays go to NumPy's own functions.  Traced ones (an integer or boolean array under
``vmap`` or ``jit``) are packed with shifts, masks and sums, as ``jax.numpy`` does, so the
result stays traced.  Bits carry no derivative: the outputs are integers.

>>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
>>> fg.vmap(fnp.packbits)(np.array([[1, 0, 1], [0, 0, 1]], np.uint8))
array([[160],
       [ 32]], dtype=uint8)
"""
from typing import Optional

import numpy as _np

from ._convert import one_axis
from .constructors import astype, zeros
from .manipulation import concatenate, moveaxis, ravel, reshape
from .reductions import sum as _sum
from .ufuncs import bitwise_and, not_equal, right_shift
from ..core import Tracer
from ..typing import Array, ArrayLike

__all__ = ["packbits", "unpackbits"]


def _traced(a):
    return isinstance(a, Tracer)


def _weights(bitorder, name):
    if bitorder not in ("big", "little"):
        raise ValueError(f"{name}: bitorder must be 'big' or 'little', got {bitorder!r}")
    # (big: the first element is the most significant bit, as NumPy's default)
    return _np.array([128, 64, 32, 16, 8, 4, 2, 1], _np.uint8)[::1 if bitorder == "big" else -1]


def packbits(a: ArrayLike, axis: Optional[int] = None, bitorder: str = "big") -> Array:
    """``np.packbits(a, axis=None, bitorder='big')``: the truth of each element of an
    integer or boolean array as one bit, eight to a ``uint8`` along ``axis`` (flattened when
    None), the last byte padded with zero bits.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.packbits(np.array([1, 0, 1, 1, 0, 0, 0, 0, 1], bool))
    array([176, 128], dtype=uint8)
    >>> fnp.packbits(np.array([1, 0, 1]), bitorder="little")
    array([5], dtype=uint8)
    """
    weights = _weights(bitorder, "packbits")
    if not _traced(a):
        return _np.packbits(a, axis=axis, bitorder=bitorder)
    if a.dtype.kind not in "biu":
        raise TypeError(f"packbits: expected an input array of integer or boolean data type, "
                        f"got {a.dtype}")
    if axis is None or a.ndim == 0:  # (NumPy ravels a 0-d array, whatever the axis)
        a, axis = ravel(a), (0 if axis is None else axis)
    axis = one_axis(axis, a.ndim)
    bits = moveaxis(astype(not_equal(a, 0), _np.uint8), axis, -1)
    pad = -bits.shape[-1] % 8
    if pad:
        bits = concatenate([bits, zeros(bits.shape[:-1] + (pad,), _np.uint8)], axis=-1)
    bytes_ = reshape(bits, bits.shape[:-1] + (bits.shape[-1] // 8, 8))
    return moveaxis(_sum(bytes_ * weights, axis=-1, dtype=_np.uint8), -1, axis)


def unpackbits(a: ArrayLike, axis: Optional[int] = None, count: Optional[int] = None,
               bitorder: str = "big") -> Array:
    """``np.unpackbits(a, axis=None, count=None, bitorder='big')``: each ``uint8`` of ``a``
    as eight 0/1 ``uint8`` elements along ``axis`` (flattened when None); ``count`` keeps
    that many bits (padding with zeros beyond the data; a negative one drops bits from the
    end).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.unpackbits(np.array([176], np.uint8))
    array([1, 0, 1, 1, 0, 0, 0, 0], dtype=uint8)
    >>> fnp.unpackbits(np.array([5], np.uint8), count=3, bitorder="little")
    array([1, 0, 1], dtype=uint8)
    """
    weights = _weights(bitorder, "unpackbits")
    if not _traced(a):
        return _np.unpackbits(a, axis=axis, count=count, bitorder=bitorder)
    if a.dtype != _np.uint8:
        raise TypeError(f"unpackbits: expected an input array of unsigned byte data type "
                        f"(uint8), got {a.dtype}")
    if axis is None or a.ndim == 0:  # (NumPy ravels a 0-d array, whatever the axis)
        a, axis = ravel(a), (0 if axis is None else axis)
    axis = one_axis(axis, a.ndim)
    moved = moveaxis(a, axis, -1)
    shifts = _np.log2(weights).astype(_np.uint8)  # (each bit's place in its byte)
    bits = bitwise_and(right_shift(moved[..., None], shifts), _np.uint8(1))
    n = moved.shape[-1] * 8
    bits = reshape(bits, moved.shape[:-1] + (n,))
    if count is not None:
        keep = count if count >= 0 else n + count
        if keep < 0:
            raise ValueError(f"unpackbits: -count ({-count}) larger than the number of "
                             f"bits ({n})")
        if keep > n:
            bits = concatenate([bits, zeros(bits.shape[:-1] + (keep - n,), _np.uint8)], axis=-1)
        else:
            bits = bits[..., :keep]
    return moveaxis(bits, -1, axis)
