"""``jax.lax.fft``: XLA's discrete Fourier transform over the trailing axes (``FFT``,
``IFFT``, ``RFFT``, ``IRFFT``), as ``funcgrad.numpy.fft``'s n-dimensional transforms
(differentiable, complex64 kept for float32 input).
"""
import enum
from typing import Sequence

import numpy as np

from .. import numpy as fnp
from ._common import array, static_ints
from ..typing import Array, ArrayLike

__all__ = ["FftType", "fft"]


class FftType(enum.IntEnum):
    """The kind of :func:`fft` (JAX's and XLA's names): complex to complex forward
    (``FFT``) and inverse (``IFFT``), real to half-spectrum (``RFFT``) and back
    (``IRFFT``).

    >>> from funcgrad import lax
    >>> lax.FftType.RFFT
    <FftType.RFFT: 2>
    """
    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


def _fft_type(fft_type):
    if isinstance(fft_type, FftType):
        return fft_type
    if isinstance(fft_type, str):
        try:
            return FftType[fft_type.upper()]
        except KeyError:
            raise ValueError(f"Unknown FFT type '{fft_type}': use 'fft', 'ifft', 'rfft' or "
                             f"'irfft' (or a lax.FftType)") from None
    raise TypeError(f"Unknown FFT type value '{fft_type}'")


def fft(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Array:
    """The discrete Fourier transform of ``x`` over its last ``len(fft_lengths)`` axes.
    ``FFT``/``IFFT`` take complex input (real and integer input is converted) with those
    axes of sizes ``fft_lengths``; ``RFFT`` takes real input and keeps
    ``fft_lengths[-1] // 2 + 1`` entries of the last axis; ``IRFFT`` returns real output
    of sizes ``fft_lengths`` from such a half spectrum.  ``IFFT`` and ``IRFFT`` divide by
    the number of points, as NumPy's inverses.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.fft(np.array([1.0, 2.0, 3.0, 4.0]), "fft", (4,))
    array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    >>> lax.fft(np.array([1.0, 2.0, 3.0, 4.0]), lax.FftType.RFFT, (4,))
    array([10.+0.j, -2.+2.j, -2.+0.j])
    """
    kind = _fft_type(fft_type)
    x = array(x)
    lengths = static_ints(fft_lengths, "fft: fft_lengths")
    if kind == FftType.RFFT:
        if x.dtype.kind == "c":
            raise ValueError("only real valued inputs supported for rfft")
        if x.dtype.kind != "f":
            x = fnp.astype(x, np.float64)
    elif x.dtype.kind != "c":
        x = fnp.astype(x, np.complex64 if x.dtype == np.float32 else np.complex128)
    if not lengths:
        return x
    k = len(lengths)
    if k > x.ndim:
        raise ValueError(f"FFT input shape {x.shape} must have at least as many input "
                         f"dimensions as fft_lengths {lengths}.")
    axes = tuple(range(x.ndim - k, x.ndim))
    trailing = tuple(x.shape[-k:])
    if kind == FftType.IRFFT:
        if trailing[:-1] != lengths[:-1]:
            raise ValueError(f"IRFFT input shape {x.shape} minor dimensions must be equal to "
                             f"all except the last fft_length, got fft_lengths={lengths}")
        return fnp.fft.irfftn(x, s=lengths, axes=axes)
    if trailing != lengths:
        raise ValueError(f"{kind.name} input shape {x.shape} minor dimensions must be equal "
                         f"to fft_lengths {lengths}")
    if kind == FftType.RFFT:
        return fnp.fft.rfftn(x, axes=axes)
    return (fnp.fft.fftn if kind == FftType.FFT else fnp.fft.ifftn)(x, axes=axes)
