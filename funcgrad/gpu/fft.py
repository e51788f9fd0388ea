"""``numpy.fft`` on GPU arrays: refused, clearly.  GPU arrays hold real numbers only
(complex dtypes are not supported on the GPU yet), and every transform makes or reads a
complex spectrum, so the primitives of :mod:`funcgrad.primitives.fft` say so and name the
way out (a copy to the host) rather than moving data behind the user's back."""
from ..primitives import fft as _fft

__all__ = ["fft_impls"]


def _refuse(prim):
    def impl(x, **params):
        raise TypeError(
            f"numpy.fft ({prim.name}) on a GPU array: GPU arrays hold real numbers only, and a "
            f"Fourier transform makes or reads complex ones. Copy the array to the host first "
            f"(fg.device_get(x)); the transform and its derivatives then run on the CPU.")
    return impl


def fft_impls():
    """``{primitive: GPU implementation}`` for the transforms (each raises, see above)."""
    return {prim: _refuse(prim) for prim in (_fft.fft_p, _fft.rfft_p, _fft.irfft_p)}
