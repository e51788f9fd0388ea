"""Discrete Fourier transforms along one axis: ``fft`` (complex to complex, forward or
inverse), ``rfft`` (real to half-spectrum) and ``irfft`` (half-spectrum to real).
Every ``numpy.fft`` function is a composition of these (:mod:`funcgrad.numpy.fft`).

Each is linear, so its JVP is the primitive applied to the tangent.  Reverse mode uses
JAX's convention, the transpose for the real pairing ``Re(sum(a * b))``:

- a DFT matrix is symmetric, so the transpose of ``fft`` (of ``ifft``) is ``fft`` (``ifft``)
  with the same ``norm``; a length ``n`` that cropped or padded the input crops or pads
  the cotangent back (the transpose of a crop is a zero pad, and of a pad a crop);
- ``rfft`` is ``fft`` of the real input, kept to its first ``n // 2 + 1`` entries: its
  transpose pads the cotangent to ``n``, takes ``fft`` and keeps the real part;
- ``irfft`` is ``Re(sum_j c_j X_j e^{+2 pi i jk/n}) * scale`` with ``c_j = 2`` for the
  entries that stand for a conjugate pair and 1 for ``j = 0`` and ``n / 2``: its
  transpose is ``c * ifft(cotangent)`` (same ``norm``), cropped to the half-spectrum.

The computation is NumPy's pocketfft (float32/complex64 stay single precision).  The
transposes are written with these primitives and structural ones, so every order of
derivative works.
"""
import numpy as np

from ..core import SHAPES_ONLY, Primitive, ShapedArray, _state
from .structural import concatenate, convert_element_type, moveaxis, split

__all__ = ["fft_p", "rfft_p", "irfft_p", "fft", "rfft", "irfft", "complex_dtype",
           "real_dtype"]


def complex_dtype(dtype):
    """The complex dtype of ``dtype``'s precision (complex64 for float16, float32 and
    complex64: NumPy computes float16 in single precision)."""
    dtype = np.dtype(dtype)
    return np.dtype(np.complex64) if dtype in (np.float16, np.float32, np.complex64) else (
        np.dtype(np.complex128))


def real_dtype(dtype):
    """The real dtype of ``dtype``'s precision."""
    return np.dtype(np.float32) if complex_dtype(dtype) == np.complex64 else np.dtype(
        np.float64)


def _with_length(shape, axis, n):
    shape = list(shape)
    shape[axis] = n
    return tuple(shape)


def resize(x, axis, n):
    """``x`` cropped or zero-padded to length ``n`` along ``axis`` (what ``numpy.fft`` does
    with its ``n``), with differentiable primitives."""
    m = x.shape[axis]
    if m == n:
        return x
    if m > n:
        return split(x, (n,), axis)[0]
    pad = np.zeros(_with_length(x.shape, axis, n - m), x.dtype)
    return concatenate([x, pad], axis)


def _batch(prim):
    def batch(args, dims, **params):
        x = moveaxis(args[0], dims[0], 0)
        return _state.interpreter.process(prim, (x,), dict(params, axis=params["axis"] + 1)), 0
    return batch


def _linear_jvp(prim):
    def jvp(primals, tangents, **params):
        out = _state.interpreter.process(prim, primals, params)
        t = tangents[0]
        return out, None if t is None else _state.interpreter.process(prim, (t,), params)
    return jvp


# --- fft / ifft ---------------------------------------------------------------------------

def _fft_impl(x, *, n, axis, norm, inverse):
    return (np.fft.ifft if inverse else np.fft.fft)(x, n, axis, norm)


def _fft_vjp(needs, g, out, x, *, n, axis, norm, inverse):
    return (resize(fft(g, n, axis, norm, inverse), axis, x.shape[axis]),)


fft_p = Primitive(
    "fft", _fft_impl, vjp=_fft_vjp, vjp_reads=SHAPES_ONLY,
    abstract_eval=lambda x, *, n, axis, norm, inverse: ShapedArray(
        _with_length(x.shape, axis, n), complex_dtype(x.dtype)),
    grad_fn_name="FftC2CBackward0")
fft_p.jvp = _linear_jvp(fft_p)
fft_p.batch = _batch(fft_p)


def fft(x, n, axis, norm, inverse=False):
    """The (inverse, with ``inverse=True``) DFT of complex ``x`` along ``axis``, length
    ``n`` (``norm``: "backward", "ortho" or "forward", as NumPy's)."""
    return fft_p.bind(x, n=int(n), axis=axis % x.ndim, norm=norm, inverse=bool(inverse))


# --- rfft ---------------------------------------------------------------------------------

def _rfft_impl(x, *, n, axis, norm):
    return np.fft.rfft(x, n, axis, norm)


def _rfft_vjp(needs, g, out, x, *, n, axis, norm):
    full = fft(resize(g, axis, n), n, axis, norm)
    return (resize(convert_element_type(full, x.dtype), axis, x.shape[axis]),)


rfft_p = Primitive(
    "rfft", _rfft_impl, vjp=_rfft_vjp, vjp_reads=SHAPES_ONLY,
    abstract_eval=lambda x, *, n, axis, norm: ShapedArray(
        _with_length(x.shape, axis, n // 2 + 1), complex_dtype(x.dtype)),
    grad_fn_name="FftR2CBackward0")
rfft_p.jvp = _linear_jvp(rfft_p)
rfft_p.batch = _batch(rfft_p)


def rfft(x, n, axis, norm):
    """The DFT of real ``x`` along ``axis``, length ``n``: its ``n // 2 + 1`` entries."""
    return rfft_p.bind(x, n=int(n), axis=axis % x.ndim, norm=norm)


# --- irfft --------------------------------------------------------------------------------

def _irfft_impl(x, *, n, axis, norm):
    return np.fft.irfft(x, n, axis, norm)


def _pair_weights(n, ndim, axis, dtype):
    """``c_j``: 1 for the zero frequency and (n even) the Nyquist one, 2 for the others."""
    m = n // 2 + 1
    c = np.full(m, 2.0, real_dtype(dtype))
    c[0] = 1.0
    if n % 2 == 0:
        c[-1] = 1.0
    shape = [1] * ndim
    shape[axis] = m
    return c.reshape(shape)


def _irfft_vjp(needs, g, out, x, *, n, axis, norm):
    spectrum = fft(convert_element_type(g, complex_dtype(g.dtype)), n, axis, norm, inverse=True)
    half = resize(spectrum, axis, n // 2 + 1) * _pair_weights(n, g.ndim, axis, g.dtype)
    return (resize(half, axis, x.shape[axis]),)


irfft_p = Primitive(
    "irfft", _irfft_impl, vjp=_irfft_vjp, vjp_reads=SHAPES_ONLY,
    abstract_eval=lambda x, *, n, axis, norm: ShapedArray(
        _with_length(x.shape, axis, n), real_dtype(x.dtype)),
    grad_fn_name="FftC2RBackward0")
irfft_p.jvp = _linear_jvp(irfft_p)
irfft_p.batch = _batch(irfft_p)


def irfft(x, n, axis, norm):
    """The real signal of length ``n`` whose half-spectrum along ``axis`` is ``x``."""
    return irfft_p.bind(x, n=int(n), axis=axis % x.ndim, norm=norm)
