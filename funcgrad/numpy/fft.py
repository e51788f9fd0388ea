"""``funcgrad.numpy.fft``: NumPy's ``numpy.fft``, differentiable (and ``np.fft.fft(traced)``
lands here).  Every function is a composition of three one-axis primitives
(:mod:`funcgrad.primitives.fft`), in the order NumPy's own n-dimensional functions
apply them; ``n``/``s``, ``axis``/``axes`` and ``norm`` mean what they mean in NumPy.

Derivatives follow JAX's convention for complex numbers (README "Complex numbers"): the
transpose of a DFT is a DFT.

>>> import numpy as np, funcgrad as fg
>>> x = np.array([1.0, 2.0, 0.5, -1.0])
>>> fg.grad(lambda x: np.sum(np.abs(np.fft.fft(x)) ** 2))(x) / (2 * len(x))   # Parseval
array([ 1. ,  2. ,  0.5, -1. ])
"""
import operator
from typing import Any, Sequence
import numpy as _np

from ..primitives import fft as _fft
from ..primitives import structural as _st
from ._convert import asarray, write_out
from .manipulation import roll
from .ufuncs import conj, divide
from ..typing import Array, ArrayLike, Axis

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "fftn", "ifftn", "rfftn", "irfftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]

_NORMS = ("backward", "ortho", "forward")
_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _norm(norm):
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f'Invalid norm value {norm!r}; should be "backward", "ortho" or '
                         f'"forward".')
    return norm


def _as_complex(a):
    a = asarray(a)
    dtype = _fft.complex_dtype(a.dtype)
    return a if a.dtype == dtype else _st.convert_element_type(a, dtype)


def _is_half(a):
    """Whether ``a`` is float16: NumPy computes it in single precision, and the real result
    of its one-dimensional irfft and hfft is float16 again (of the n-dimensional, float32)."""
    return getattr(a, "dtype", None) == _np.float16


def _as_real(a, name):
    a = asarray(a)
    if a.dtype.kind == "c":  # (NumPy 1 dropped the imaginary part, with a ComplexWarning)
        raise TypeError(f"fft.{name} takes a real array, as NumPy 2's, and got {a.dtype}: "
                        f"use fnp.fft.fft for a complex signal, or pass a.real")
    dtype = _fft.real_dtype(a.dtype)
    return a if a.dtype == dtype else _st.convert_element_type(a, dtype)


def _zero_d(axis):
    # (NumPy's IndexError or AxisError, by path; an AxisError is both, and a ValueError)
    return _np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 0: "
                                    f"a 0-d array has no axis to transform; reshape it (x.reshape(1) "
                                    f"for one point)")


def _length(a, n, axis, hermitian=False):
    if a.ndim == 0:
        raise _zero_d(operator.index(axis))  # (a TypeError first for axis=None, as NumPy's)
    if n is None:  # (a Hermitian signal of m entries is the half of one of 2 (m - 1))
        n = 2 * (a.shape[axis] - 1) if hermitian else a.shape[axis]
    n = int(n)
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")
    return n


def fft(a: ArrayLike, n: int | None = None, axis: Axis = -1, norm: str | None = None,
        out: Any = None) -> Array:
    """The one-dimensional DFT (``np.fft.fft``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.fft(np.array([1.0, 0.0, 0.0, 0.0]))
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    if out is not None:
        return write_out("fft.fft", out, fft(a, n, axis, norm))
    a = _as_complex(a)
    return _fft.fft(a, _length(a, n, axis), axis, _norm(norm))


def ifft(a: ArrayLike, n: int | None = None, axis: Axis = -1, norm: str | None = None,
         out: Any = None) -> Array:
    """The one-dimensional inverse DFT (``np.fft.ifft``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.ifft(np.array([4.0, 0.0, 0.0, 0.0]))
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    if out is not None:
        return write_out("fft.ifft", out, ifft(a, n, axis, norm))
    a = _as_complex(a)
    return _fft.fft(a, _length(a, n, axis), axis, _norm(norm), inverse=True)


def rfft(a: ArrayLike, n: int | None = None, axis: Axis = -1, norm: str | None = None,
         out: Any = None) -> Array:
    """The DFT of a real signal, its ``n // 2 + 1`` non-negative frequencies (``np.fft.rfft``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.rfft(np.array([1.0, 1.0, 1.0, 1.0]))
    array([4.+0.j, 0.+0.j, 0.+0.j])
    """
    if out is not None:
        return write_out("fft.rfft", out, rfft(a, n, axis, norm))
    a = _as_real(a, "rfft")
    return _fft.rfft(a, _length(a, n, axis), axis, _norm(norm))


def irfft(a: ArrayLike, n: int | None = None, axis: Axis = -1, norm: str | None = None,
          out: Any = None) -> Array:
    """The real signal of a half-spectrum (``np.fft.irfft``; ``n`` defaults to
    ``2 * (m - 1)`` for ``m`` input entries).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.irfft(np.array([4.0, 0.0, 0.0]))
    array([1., 1., 1., 1.])
    """
    if out is not None:
        return write_out("fft.irfft", out, irfft(a, n, axis, norm))
    a, half = _as_complex(a), _is_half(a)
    out = _fft.irfft(a, _length(a, n, axis, hermitian=True), axis, _norm(norm))
    return _st.convert_element_type(out, _np.float16) if half else out


def hfft(a: ArrayLike, n: int | None = None, axis: Axis = -1, norm: str | None = None,
         out: Any = None) -> Array:
    """The DFT of a signal with Hermitian symmetry, given by its first half (``np.fft.hfft``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.hfft(np.array([1.0, 0.0, 0.0]))
    array([1., 1., 1., 1.])
    """
    if out is not None:
        return write_out("fft.hfft", out, hfft(a, n, axis, norm))
    a, half = _as_complex(a), _is_half(a)
    n = _length(a, n, axis, hermitian=True)
    out = _fft.irfft(conj(a), n, axis, _SWAPPED[_norm(norm)])
    return _st.convert_element_type(out, _np.float16) if half else out


def ihfft(a: ArrayLike, n: int | None = None, axis: Axis = -1, norm: str | None = None,
          out: Any = None) -> Array:
    """The inverse of :func:`hfft` (``np.fft.ihfft``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.ihfft(np.array([1.0, 1.0, 1.0, 1.0]))
    array([1.-0.j, 0.-0.j, 0.-0.j])
    """
    if out is not None:
        return write_out("fft.ihfft", out, ihfft(a, n, axis, norm))
    a = _as_real(a, "ihfft")
    return conj(_fft.rfft(a, _length(a, n, axis), axis, _SWAPPED[_norm(norm)]))


# --- n dimensions ------------------------------------------------------------------------------

def _cook(a, s, axes, inverse_real=False):
    """NumPy's ``_cook_nd_args``: the lengths and axes of an n-dimensional transform."""
    if a.ndim == 0:
        raise _zero_d(-1 if axes is None else _np.ravel(axes)[0] if _np.size(axes) else -1)
    if axes is not None:
        axes = [int(ax) for ax in ([axes] if _np.ndim(axes) == 0 else axes)]
    if s is None:
        shapeless = True
        if axes is None:
            axes = list(range(-a.ndim, 0))
        s = [a.shape[ax] for ax in axes]
    else:
        shapeless = False
        s = list(s)
        if axes is None:
            axes = list(range(-len(s), 0))
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    s = [a.shape[ax] if k is None else int(k) for k, ax in zip(s, axes)]
    if inverse_real and shapeless:
        s[-1] = (a.shape[axes[-1]] - 1) * 2
    for k in s:
        if k < 1:
            raise ValueError(f"Invalid number of FFT data points ({k}) specified.")
    return s, axes


def fftn(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = None,
         norm: str | None = None, out: Any = None) -> Array:
    """The n-dimensional DFT (``np.fft.fftn``; all axes by default).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.fftn(np.ones((2, 2)))
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    if out is not None:
        return write_out("fft.fftn", out, fftn(a, s, axes, norm))
    a = _as_complex(a)
    s, axes = _cook(a, s, axes)
    for k in reversed(range(len(axes))):
        a = _fft.fft(a, s[k], axes[k], _norm(norm))
    return a


def ifftn(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = None,
          norm: str | None = None, out: Any = None) -> Array:
    """The n-dimensional inverse DFT (``np.fft.ifftn``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.ifftn(np.array([[4.0, 0.0], [0.0, 0.0]])).real
    array([[1., 1.],
           [1., 1.]])
    """
    if out is not None:
        return write_out("fft.ifftn", out, ifftn(a, s, axes, norm))
    a = _as_complex(a)
    s, axes = _cook(a, s, axes)
    for k in reversed(range(len(axes))):
        a = _fft.fft(a, s[k], axes[k], _norm(norm), inverse=True)
    return a


def rfftn(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = None,
          norm: str | None = None, out: Any = None) -> Array:
    """The n-dimensional DFT of a real array, halved along the last axis (``np.fft.rfftn``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.rfftn(np.ones((2, 2)))
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    if out is not None:
        return write_out("fft.rfftn", out, rfftn(a, s, axes, norm))
    a = _as_real(a, "rfftn")
    s, axes = _cook(a, s, axes)
    a = _fft.rfft(a, s[-1], axes[-1], _norm(norm))
    for k in range(len(axes) - 1):
        a = _fft.fft(a, s[k], axes[k], _norm(norm))
    return a


def irfftn(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = None,
           norm: str | None = None, out: Any = None) -> Array:
    """The inverse of :func:`rfftn` (``np.fft.irfftn``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.irfftn(np.array([[4.0, 0.0], [0.0, 0.0]]))
    array([[1., 1.],
           [1., 1.]])
    """
    if out is not None:
        return write_out("fft.irfftn", out, irfftn(a, s, axes, norm))
    a = _as_complex(a)
    s, axes = _cook(a, s, axes, inverse_real=True)
    for k in range(len(axes) - 1):
        a = _fft.fft(a, s[k], axes[k], _norm(norm), inverse=True)
    return _fft.irfft(a, s[-1], axes[-1], _norm(norm))


def fft2(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = (-2, -1),
         norm: str | None = None, out: Any = None) -> Array:
    """The DFT over the last two axes (``np.fft.fft2``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.fft2(np.ones((1, 2))).real
    array([[2., 0.]])
    """
    if out is not None:
        return write_out("fft.fft2", out, fft2(a, s, axes, norm))
    return fftn(a, s, axes, norm)


def ifft2(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = (-2, -1),
          norm: str | None = None, out: Any = None) -> Array:
    """The inverse DFT over the last two axes (``np.fft.ifft2``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.ifft2(np.array([[2.0, 0.0]])).real
    array([[1., 1.]])
    """
    if out is not None:
        return write_out("fft.ifft2", out, ifft2(a, s, axes, norm))
    return ifftn(a, s, axes, norm)


def rfft2(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = (-2, -1),
          norm: str | None = None, out: Any = None) -> Array:
    """:func:`rfftn` over the last two axes (``np.fft.rfft2``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.rfft2(np.ones((1, 2))).real
    array([[2., 0.]])
    """
    if out is not None:
        return write_out("fft.rfft2", out, rfft2(a, s, axes, norm))
    return rfftn(a, s, axes, norm)


def irfft2(a: ArrayLike, s: int | Sequence[int] | None = None, axes: Axis = (-2, -1),
           norm: str | None = None, out: Any = None) -> Array:
    """:func:`irfftn` over the last two axes (``np.fft.irfft2``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.irfft2(np.array([[2.0, 0.0]]))
    array([[1., 1.]])
    """
    if out is not None:
        return write_out("fft.irfft2", out, irfft2(a, s, axes, norm))
    return irfftn(a, s, axes, norm)


# --- helpers -----------------------------------------------------------------------------------

def _shifted(x, axes, sign):
    x = asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
    elif _np.ndim(axes) == 0:
        axes = (int(axes),)
    shifts = [sign * (x.shape[ax] // 2) for ax in axes]
    return roll(x, shifts, tuple(axes)) if axes else x


def fftshift(x: ArrayLike, axes: Axis = None) -> Array:
    """Move the zero frequency to the middle (``np.fft.fftshift``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.fftshift(np.array([0.0, 1.0, 2.0, -2.0, -1.0]))
    array([-2., -1.,  0.,  1.,  2.])
    """
    return _shifted(x, axes, 1)


def ifftshift(x: ArrayLike, axes: Axis = None) -> Array:
    """The inverse of :func:`fftshift` (``np.fft.ifftshift``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.fft.ifftshift(np.array([-2.0, -1.0, 0.0, 1.0, 2.0]))
    array([ 0.,  1.,  2., -2., -1.])
    """
    return _shifted(x, axes, -1)


def fftfreq(n: int, d: ArrayLike = 1.0, device: Any = None) -> Array:
    """The sample frequencies of an ``n``-point DFT with spacing ``d`` (differentiable in
    ``d``).

    >>> import funcgrad.numpy as fnp
    >>> fnp.fft.fftfreq(4, 0.5)
    array([ 0. ,  0.5, -1. , -0.5])
    """
    return divide(_np.fft.fftfreq(n), d)


def rfftfreq(n: int, d: ArrayLike = 1.0, device: Any = None) -> Array:
    """The sample frequencies of :func:`rfft` (differentiable in ``d``).

    >>> import funcgrad.numpy as fnp
    >>> fnp.fft.rfftfreq(4, 0.5)
    array([0. , 0.5, 1. ])
    """
    return divide(_np.fft.rfftfreq(n), d)
