"""``numpy.fft`` on GPU arrays: the primitives of :mod:`funcgrad.primitives.fft` (``fft``,
``rfft``, ``irfft``) on the device, any length, batched over the other axes.

The transformed axis is viewed as rows (:func:`.reductions.rows_layout`, a copy only
where the strides cannot be walked that way) and handed to
:func:`funcgrad.kernels.cuda.fft.dft_rows`: Stockham radix-2 passes for powers of two,
Bluestein's chirp convolution for every other length.  ``n`` crops or zero-pads as NumPy
does, ``norm`` scales as NumPy does; float32/complex64 stay single precision.

- ``rfft`` is the complex transform of the real rows, viewed to its first ``n // 2 + 1``
  entries (the full spectrum is computed: half the work of a real-input algorithm is
  not saved yet);
- ``irfft`` transforms the whole hermitian spectrum its half stands for and keeps the
  real part (NumPy's: the imaginary parts of the zero and Nyquist entries are ignored).

Every ``numpy.fft`` function (``fft2``, ``rfftn``, ``hfft``...) is built from these, and
so are their derivatives (the rules of :mod:`funcgrad.primitives.fft` are transforms
too): nothing goes through the host.

>>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp        # doctest: +SKIP
>>> x = fg.device_put(np.array([1.0, 2.0, 0.0, -1.0, 0.5]))          # doctest: +SKIP
>>> np.allclose(np.asarray(fnp.fft.fft(x)), np.fft.fft(np.asarray(x)))   # doctest: +SKIP
True
"""
import math

from ..primitives import fft as _fft
from .array import backend, cast, new, view
from .dispatch import abstract
from .reductions import rows_layout
from .structural import transpose

__all__ = ["fft_impls"]


def _scale(norm, n, inverse):
    """NumPy's normalisation: ``backward`` divides the inverse by ``n``, ``forward`` the
    forward transform, ``ortho`` both by ``sqrt(n)``."""
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    if (norm == "forward") != bool(inverse):
        return 1.0 / n
    return 1.0


def _check(n):
    if n < 1:
        raise ValueError(f"Invalid number of FFT data points ({n}) specified.")


def _to_axis(buf, rows_shape, length, row_stride, axis, dtype):
    """Rows of ``length`` entries, ``row_stride`` apart in ``buf``, as an array whose axis
    ``axis`` holds them (the others in ``rows_shape``): a view, no copy."""
    shape = tuple(rows_shape) + (length,)
    strides, step = [], row_stride
    for d in reversed(rows_shape):
        strides.append(step)
        step *= max(d, 1)
    rows = view(new(buf, (buf.size,), dtype), shape, tuple(reversed(strides)) + (1,), 0)
    perm = list(range(len(rows_shape)))
    perm.insert(axis, len(rows_shape))
    return transpose(rows, perm=perm)


def _run(x, axis, n, dtype, inverse, scale, hermitian=False):
    """``dft_rows`` of ``x`` along ``axis``: a contiguous (rows, n) buffer."""
    xr, rows, m, sm, sk = rows_layout(x, (axis,))
    return backend().fft.dft_rows(xr.buf, xr.offset, sm, sk, m, rows, n, dtype, inverse,
                                  scale, hermitian)


def _kept(x, axis):
    return [d for i, d in enumerate(x.shape) if i != axis]


def _dft(x, *, n, axis, norm, inverse):
    _check(n)
    out = abstract(_fft.fft_p, (x,), {"n": n, "axis": axis, "norm": norm, "inverse": inverse})
    buf = _run(x, axis, n, out.dtype, inverse, _scale(norm, n, inverse))
    return _to_axis(buf, _kept(x, axis), n, n, axis, out.dtype)


def _rfft(x, *, n, axis, norm):
    _check(n)
    if x.dtype.kind == "c":
        raise TypeError("rfft of a complex array: rfft takes real input (use fft, or take "
                        "the real part first with fnp.real)")
    out = abstract(_fft.rfft_p, (x,), {"n": n, "axis": axis, "norm": norm})
    buf = _run(x, axis, n, out.dtype, False, _scale(norm, n, False))
    return _to_axis(buf, _kept(x, axis), n // 2 + 1, n, axis, out.dtype)


def _irfft(x, *, n, axis, norm):
    _check(n)
    out = abstract(_fft.irfft_p, (x,), {"n": n, "axis": axis, "norm": norm})
    spectrum = _fft.complex_dtype(out.dtype)
    buf = _run(x, axis, n, spectrum, True, _scale(norm, n, True), hermitian=True)
    kept = _kept(x, axis)
    real = cast(new(buf, tuple(kept) + (n,), spectrum), out.dtype)  # (real up to rounding)
    return _to_axis(real.buf, kept, n, n, axis, out.dtype)


def fft_impls():
    """``{primitive: GPU implementation}`` for the transforms.

    >>> sorted(p.name for p in fft_impls())
    ['fft', 'irfft', 'rfft']
    """
    return {_fft.fft_p: _dft, _fft.rfft_p: _rfft, _fft.irfft_p: _irfft}
