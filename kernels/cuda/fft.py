"""Discrete Fourier transforms of rows, any length, on the device.

:func:`dft_rows` transforms ``rows`` rows (strided, any real or complex dtype, read
cropped or zero-padded to the length ``n``) into a new contiguous ``(rows, n)`` complex
array: ``X_k = scale * sum_j x_j exp(sign 2 pi i j k / n)``.

- ``n`` a power of two: Stockham's radix-2 algorithm, one kernel launch per pass
  (``log2 n`` passes between two buffers; each thread computes one butterfly).  Stockham
  reorders as it goes, so no bit-reversal pass.  The twiddle factors come from a table
  computed in float64 on the device (``exp(sign 2 pi i k / n)``, ``k < n / 2``), so a
  complex64 transform is not less accurate for them.
- any other ``n``: Bluestein's algorithm.  With ``jk = (j^2 + k^2 - (k - j)^2) / 2``
  the DFT is a chirp times the convolution of the chirped input with the conjugate
  chirp, ``X_k = c_k sum_j (x_j c_j) conj(c_{k-j})`` for ``c_j = exp(sign pi i j^2 / n)``;
  the convolution is circular of a power-of-two length ``L >= 2n - 1`` by three
  radix-2 transforms.  The chirp's angle is taken from ``j^2 mod 2n`` (exact integers),
  so it stays accurate for large ``j``.

``hermitian=True`` reads the ``n // 2 + 1`` entries of a half spectrum and transforms
the whole hermitian spectrum they stand for (the imaginary parts of the zero and, for
even ``n``, the Nyquist entries are ignored, as NumPy's ``irfft`` does): the inverse of
a real signal's spectrum, real up to rounding.
"""
import math

import numpy as np
from numba import cuda

from ._config import SIM, THREADS, blocks_for

CACHE = not SIM


def _real(dtype):
    return np.dtype(np.float32) if np.dtype(dtype) == np.complex64 else np.dtype(np.float64)


@cuda.jit(cache=CACHE)
def _twiddles(tw, n, sign):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < tw.shape[0]:
        a = sign * 2.0 * math.pi * i / n
        tw[i] = complex(math.cos(a), math.sin(a))
        i += step


@cuda.jit(cache=CACHE)
def _chirp(c, n, sign):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < n:
        a = sign * math.pi * ((i * i) % (2 * n)) / n
        c[i] = complex(math.cos(a), math.sin(a))
        i += step


@cuda.jit(cache=CACHE)
def _stage(x, y, tw, rows, n, s, scale):
    """One radix-2 pass: sub-transforms of length ``n / s`` at stride ``s``."""
    half = n // 2
    m = half // s
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < rows * half:
        row = i // half
        j = i - row * half
        p = j // s
        q = j - p * s
        base = row * n + q
        a = x[base + s * p]
        b = x[base + s * (p + m)]
        y[base + 2 * s * p] = (a + b) * scale
        y[base + 2 * s * p + s] = (a - b) * tw[p * s] * scale
        i += step


@cuda.jit(cache=CACHE)
def _load(x, xoff, sm, sk, m, rows, n, out, width, c, chirp):
    """``out[row, j] = x[row, j] (* c[j])`` for ``j < min(m, n)``, zero up to ``width``."""
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < rows * width:
        row = i // width
        j = i - row * width
        if j < n and j < m:
            v = x[xoff + row * sm + j * sk]
            if chirp:
                out[i] = v * c[j]
            else:
                out[i] = v
        else:
            out[i] = 0
        i += step


@cuda.jit(cache=CACHE)
def _load_hermitian(x, xoff, sm, sk, m, rows, n, out, width, c, chirp):
    """``out[row, k]``: the whole spectrum of length ``n`` that the half spectrum
    ``x[row, :n // 2 + 1]`` stands for (``X_{n-k} = conj(X_k)``, real ``X_0`` and
    ``X_{n/2}``), ``(* c[k])``, zero up to ``width``."""
    h = n // 2 + 1
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < rows * width:
        row = i // width
        k = i - row * width
        v = complex(0.0, 0.0)
        if k < n:
            j = k if k < h else n - k
            if j < m:
                v = complex(x[xoff + row * sm + j * sk])
            if k >= h:
                v = v.conjugate()
            if k == 0 or 2 * k == n:
                v = complex(v.real, 0.0)
            if chirp:
                v = v * c[k]
        out[i] = v
        i += step


@cuda.jit(cache=CACHE)
def _filter(b, c, n, width):
    """The circular convolution kernel: ``conj(c[|d|])`` at ``d mod width``, ``|d| < n``."""
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < width:
        if i < n:
            b[i] = c[i].conjugate()
        elif i > width - n:
            b[i] = c[width - i].conjugate()
        else:
            b[i] = 0
        i += step


@cuda.jit(cache=CACHE)
def _multiply_rows(a, b, rows, width):
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < rows * width:
        a[i] = a[i] * b[i % width]
        i += step


@cuda.jit(cache=CACHE)
def _unload(a, rows, width, n, c, scale, out):
    """``out[row, k] = a[row, k] * c[k] * scale`` for ``k < n``."""
    i = cuda.grid(1)
    step = cuda.gridsize(1)
    while i < rows * n:
        row = i // n
        k = i - row * n
        out[i] = a[row * width + k] * c[k] * scale
        i += step


def _launch(kernel, items, *args):
    kernel[blocks_for(items), THREADS](*args)


def _table(kernel, length, n, sign, dtype):
    table = cuda.device_array(max(length, 1), dtype)
    _launch(kernel, length, table, n, sign)
    return table


def _power_of_two(buf, rows, n, tw, scale, dtype):
    """The radix-2 transform of the contiguous rows of ``buf`` (overwritten); returns
    the buffer that holds the result."""
    scale = _real(dtype).type(scale)
    if n == 1:
        if scale != 1:
            ones = cuda.to_device(np.full(1, scale, dtype))
            _launch(_multiply_rows, rows, buf, ones, rows, 1)
        return buf
    x, y = buf, cuda.device_array(rows * n, dtype)
    one = _real(dtype).type(1)
    s = 1
    while s < n:
        _launch(_stage, rows * (n // 2), x, y, tw, rows, n, s, scale if 2 * s == n else one)
        x, y = y, x
        s *= 2
    return x


def dft_rows(x, xoff, sm, sk, m, rows, n, dtype, inverse=False, scale=1.0, hermitian=False):
    """The DFT of ``rows`` rows of ``x`` (row ``r``, element ``j < m`` at
    ``xoff + r*sm + j*sk``; cropped or zero-padded to ``n``), scaled by ``scale``, as a
    new contiguous complex device array of ``rows * n`` elements of ``dtype``
    (complex64 or complex128).  ``inverse``: the sign ``+`` in the exponent."""
    dtype = np.dtype(dtype)
    sign = 1.0 if inverse else -1.0
    load = _load_hermitian if hermitian else _load
    if rows == 0:
        return cuda.device_array(0, dtype)
    if n & (n - 1) == 0:
        buf = cuda.device_array(rows * n, dtype)
        dummy = cuda.device_array(1, dtype)
        _launch(load, rows * n, x, xoff, sm, sk, m, rows, n, buf, n, dummy, False)
        return _power_of_two(buf, rows, n, _table(_twiddles, n // 2, n, sign, dtype), scale,
                             dtype)
    width = 1 << (2 * n - 2).bit_length()   # the least power of two >= 2n - 1
    c = _table(_chirp, n, n, sign, dtype)
    a = cuda.device_array(rows * width, dtype)
    _launch(load, rows * width, x, xoff, sm, sk, m, rows, n, a, width, c, True)
    b = cuda.device_array(width, dtype)
    _launch(_filter, width, b, c, n, width)
    forward = _table(_twiddles, width // 2, width, -1.0, dtype)
    a = _power_of_two(a, rows, width, forward, 1.0, dtype)
    b = _power_of_two(b, 1, width, forward, 1.0 / width, dtype)  # (the inverse's 1/width)
    _launch(_multiply_rows, rows * width, a, b, rows, width)
    a = _power_of_two(a, rows, width, _table(_twiddles, width // 2, width, 1.0, dtype), 1.0,
                      dtype)
    out = cuda.device_array(rows * n, dtype)
    _launch(_unload, rows * n, a, rows, width, n, c, _real(dtype).type(scale), out)
    return out
