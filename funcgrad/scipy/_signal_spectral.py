"""Spectral analysis for :mod:`funcgrad.scipy.signal` (re-exported there): ``stft``,
``istft``, ``csd`` and ``welch``, with SciPy's parameters, defaults and scalings,
differentiable in the signals.

The signal is cut into segments of ``nperseg`` samples, ``nperseg - noverlap`` apart
(gathered by a constant index array), each detrended, windowed and Fourier transformed
(``funcgrad.numpy.fft``); ``csd``/``welch`` average ``conj(X) Y`` over the segments
('mean', or 'median' with SciPy's bias correction), ``istft`` adds the windowed inverse
transforms back in place (a scatter-add) and divides by the summed squared window.  The
window is a constant: 'hann', 'hamming' and 'boxcar' are built here (SciPy's periodic
forms), any other name or tuple is :func:`funcgrad.scipy.signal.get_window`'s, and an
array is used as given.
"""
import math
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._detrend import detrend as _detrend
from ._signalmore_getwindow import get_window

__all__ = ["stft", "istft", "csd", "welch"]

_Window = Union[str, tuple, ArrayLike]


def _window(name, window, nperseg, length):
    """``(window array, nperseg)`` as SciPy's ``_triage_segments``."""
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        if length is not None and nperseg > length:
            nperseg = length  # (SciPy warns and uses the whole signal)
        kind = window[0] if isinstance(window, tuple) and len(window) == 1 else window
        k = np.arange(nperseg)
        if kind in ("hann", "hann_periodic", "hanning", "han"):
            win = 0.5 - 0.5 * np.cos(2 * math.pi * k / nperseg)
        elif kind in ("hamming", "hamm", "ham"):
            win = 0.54 - 0.46 * np.cos(2 * math.pi * k / nperseg)
        elif kind in ("boxcar", "box", "ones", "rect", "rectangular"):
            win = np.ones(nperseg)
        else:
            win = get_window(window, nperseg)
        return np.asarray(win, dtype=np.float64), int(nperseg)
    win = np.asarray(window, dtype=np.float64)
    if win.ndim != 1:
        raise ValueError(f"{name}: window must be 1-d, got shape {win.shape}")
    if nperseg is not None and nperseg != win.shape[0]:
        raise ValueError(f"{name}: the window has {win.shape[0]} samples but nperseg is "
                         f"{nperseg}; give one of them, or make them agree")
    return win, win.shape[0]


def _overlap(name, nperseg, noverlap, nfft):
    if nperseg < 1:
        raise ValueError(f"{name}: nperseg must be a positive integer, got {nperseg}")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError(f"{name}: noverlap ({noverlap}) must be less than nperseg "
                         f"({nperseg})")
    nfft = nperseg if nfft is None else int(nfft)
    if nfft < nperseg:
        raise ValueError(f"{name}: nfft ({nfft}) must be at least nperseg ({nperseg})")
    return noverlap, nfft


def _extend(x, n, boundary):
    """SciPy's boundary extensions by ``n`` samples at both ends of the last axis."""
    if boundary in (None, False) or n == 0:
        return x
    pad = [(0, 0)] * (x.ndim - 1) + [(n, n)]
    if boundary == "zeros":
        return fnp.pad(x, pad)
    if boundary == "constant":
        return fnp.pad(x, pad, mode="edge")
    if boundary == "even":
        return fnp.pad(x, pad, mode="reflect")
    if boundary == "odd":  # (the reflection turned about the end sample)
        even = fnp.pad(x, pad, mode="reflect")
        left, right = x[..., :1], x[..., -1:]
        length = x.shape[-1]
        return fnp.concatenate([2 * left - even[..., :n], x,
                                2 * right - even[..., n + length:]], axis=-1)
    raise ValueError(f"unknown boundary {boundary!r}: use 'even', 'odd', 'constant', "
                     f"'zeros' or None")


def _detrended(segments, detrend):
    if detrend is False or detrend is None:
        return segments
    if callable(detrend):
        return detrend(segments)
    if detrend not in ("constant", "linear"):
        raise ValueError(f"detrend must be 'constant', 'linear', False or a function, got "
                         f"{detrend!r}")
    return _detrend(segments, axis=-1, type=detrend)


def _segments(name, x, win, nperseg, noverlap, nfft, detrend, onesided, scale, fs,
              boundary=None, padded=False):
    """The windowed, transformed segments of ``x`` along its last axis: ``(freqs,
    times, result)`` with ``result`` of shape ``(..., segments, freqs)``, and whether
    it is one-sided."""
    if boundary is not None:
        x = _extend(x, nperseg // 2, boundary)
    step = nperseg - noverlap
    if padded:  # (zeros so that the last segment ends at the end)
        extra = (-(x.shape[-1] - nperseg) % step) % nperseg
        if extra:
            x = fnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, extra)])
    count = (x.shape[-1] - noverlap) // step if x.shape[-1] >= nperseg else 0
    index = np.arange(count)[:, None] * step + np.arange(nperseg)[None, :]
    segments = fnp.take(x, index, axis=-1)  # (..., count, nperseg)
    segments = _detrended(segments, detrend)
    windowed = segments * win.astype(np.float32 if x.dtype in (np.float32, np.complex64)
                                     else np.float64)
    complex_input = x.dtype.kind == "c"
    onesided = onesided and not complex_input
    spectrum = (fnp.fft.rfft(windowed, n=nfft, axis=-1) if onesided
                else fnp.fft.fft(windowed, n=nfft, axis=-1))
    freqs = (np.fft.rfftfreq(nfft, 1 / fs) if onesided else np.fft.fftfreq(nfft, 1 / fs))
    times = np.arange(nperseg / 2, x.shape[-1] - nperseg / 2 + 1, step) / fs
    if boundary is not None:
        times = times - (nperseg / 2) / fs
    return freqs, times, spectrum * scale, onesided


def _scale(name, scaling, win, fs):
    if scaling == "density":
        return 1.0 / (fs * float(np.sum(win * win)))
    if scaling == "spectrum":
        return 1.0 / float(np.sum(win)) ** 2
    raise ValueError(f"{name}: scaling must be 'density' or 'spectrum', got {scaling!r}")


def _median_bias(n):
    """SciPy's correction of the median of ``n`` chi-squared(2) periodogram values."""
    ii = 2 * np.arange(1, (n - 1) // 2 + 1)
    return 1 + np.sum(1.0 / (ii + 1) - 1.0 / ii)


def csd(x: ArrayLike, y: ArrayLike, fs: float = 1.0, window: _Window = "hann",
        nperseg: Optional[int] = None, noverlap: Optional[int] = None,
        nfft: Optional[int] = None, detrend: Union[str, bool, Callable[..., Any]] = "constant",
        return_onesided: bool = True, scaling: str = "density", axis: int = -1,
        average: str = "mean") -> Tuple[np.ndarray, Array]:
    """``(f, Pxy)``: the cross spectral density of ``x`` and ``y`` by Welch's method
    (``scipy.signal.csd``): segments of ``nperseg`` samples overlapping by ``noverlap``
    (half by default), detrended, windowed, ``conj(X) Y`` averaged.  Differentiable.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> f, p = fss.csd(np.array([1.0, 2.0, 0.0, -1.0]), np.array([0.0, 1.0, 1.0, 0.0]))
    >>> f
    array([0.  , 0.25, 0.5 ])
    """
    if average not in ("mean", "median"):
        raise ValueError(f"csd: average must be 'mean' or 'median', got {average!r}")
    x, y = asarray(x), asarray(y)
    x, y = (fnp.astype(v, np.float64) if v.dtype.kind in "biu" else v for v in (x, y))
    x, y = fnp.moveaxis(x, axis, -1), fnp.moveaxis(y, axis, -1)
    if x.shape[-1] != y.shape[-1]:  # (the shorter one padded with zeros, as SciPy)
        n = max(x.shape[-1], y.shape[-1])
        x, y = (fnp.pad(v, [(0, 0)] * (v.ndim - 1) + [(0, n - v.shape[-1])]) for v in (x, y))
    win, nperseg = _window("csd", window, nperseg, x.shape[-1])
    noverlap, nfft = _overlap("csd", nperseg, noverlap, nfft)
    scale = _scale("csd", scaling, win, fs)
    freqs, _, fx, onesided = _segments("csd", x, win, nperseg, noverlap, nfft, detrend,
                                       return_onesided and y.dtype.kind != "c", 1.0, fs)
    if y is x:
        fy = fx
    else:
        _, _, fy, _ = _segments("csd", y, win, nperseg, noverlap, nfft, detrend, onesided,
                                1.0, fs)
    pxy = fnp.conj(fx) * fy * scale
    if onesided:  # (the negative frequencies folded onto the positive ones)
        last = -1 if nfft % 2 == 0 else None
        fold = np.ones(pxy.shape[-1], np.float32 if pxy.dtype in (np.float32, np.complex64)
                       else np.float64)
        fold[1:last] = 2.0
        pxy = pxy * fold
    count = pxy.shape[-2]
    if count > 1 and average == "median":
        med = fnp.median(fnp.real(pxy), axis=-2)
        if pxy.dtype.kind == "c":
            med = med + 1j * fnp.median(fnp.imag(pxy), axis=-2)
        pxy = med / float(_median_bias(count))  # (a Python float: float32 stays float32)
    else:
        pxy = fnp.mean(pxy, axis=-2)
    return freqs, fnp.moveaxis(pxy, -1, axis)


def welch(x: ArrayLike, fs: float = 1.0, window: _Window = "hann",
          nperseg: Optional[int] = None, noverlap: Optional[int] = None,
          nfft: Optional[int] = None, detrend: Union[str, bool, Callable[..., Any]] = "constant",
          return_onesided: bool = True, scaling: str = "density", axis: int = -1,
          average: str = "mean") -> Tuple[np.ndarray, Array]:
    """``(f, Pxx)``: the power spectral density by Welch's method
    (``scipy.signal.welch``), the real part of ``csd(x, x)``.  Differentiable.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.signal as fss
    >>> x = np.sin(np.arange(64) * 0.8)
    >>> f, p = fss.welch(x, nperseg=16)
    >>> round(float(f[int(np.argmax(p))]), 4)  # (0.8 / 2 pi = 0.127 cycles per sample)
    0.125
    >>> g = fg.grad(lambda v: fss.welch(v, nperseg=16)[1][2])(x)
    """
    x = asarray(x)
    freqs, pxx = csd(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                     scaling, axis, average)
    return freqs, fnp.real(pxx) if pxx.dtype.kind == "c" else pxx


def stft(x: ArrayLike, fs: float = 1.0, window: _Window = "hann", nperseg: int = 256,
         noverlap: Optional[int] = None, nfft: Optional[int] = None,
         detrend: Union[str, bool, Callable[..., Any]] = False, return_onesided: bool = True,
         boundary: Optional[str] = "zeros", padded: bool = True, axis: int = -1,
         scaling: str = "spectrum") -> Tuple[np.ndarray, np.ndarray, Array]:
    """``(f, t, Zxx)``: the short-time Fourier transform (``scipy.signal.stft``): the
    signal extended by ``boundary`` and ``padded``, segments windowed and transformed;
    ``Zxx``'s last axis is time, ``axis`` becomes frequency.  Differentiable.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> f, t, z = fss.stft(np.ones(8), nperseg=4)
    >>> z.shape, t
    ((3, 5), array([0., 2., 4., 6., 8.]))
    """
    if scaling == "psd":
        scaling = "density"
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    x = fnp.moveaxis(x, axis, -1)
    win, nperseg = _window("stft", window, nperseg, x.shape[-1])
    noverlap, nfft = _overlap("stft", nperseg, noverlap, nfft)
    scale = math.sqrt(_scale("stft", scaling, win, fs))
    freqs, times, z, _ = _segments("stft", x, win, nperseg, noverlap, nfft, detrend,
                                   return_onesided, scale, fs, boundary, padded)
    z = fnp.swapaxes(z, -1, -2)  # (..., freqs, segments)
    out_axis = axis - 1 if axis < 0 else axis
    return freqs, times, fnp.moveaxis(z, -2, out_axis)


def istft(Zxx: ArrayLike, fs: float = 1.0, window: _Window = "hann",
          nperseg: Optional[int] = None, noverlap: Optional[int] = None,
          nfft: Optional[int] = None, input_onesided: bool = True, boundary: bool = True,
          time_axis: int = -1, freq_axis: int = -2, scaling: str = "spectrum"
          ) -> Tuple[np.ndarray, Array]:
    """``(t, x)``: the inverse of :func:`stft` with the same parameters
    (``scipy.signal.istft``): each segment's inverse transform windowed and added in
    place, divided by the summed squared window.  Differentiable.  ``t`` holds the times
    of ``x``'s samples (SciPy's ``t`` counts the first axis of a many-dimensional ``x``).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.arange(8.0)
    >>> t, back = fss.istft(fss.stft(x, nperseg=4)[2], nperseg=4)
    >>> np.allclose(back, x)
    True
    """
    if scaling == "psd":
        scaling = "density"
    z = asarray(Zxx)
    if z.ndim < 2:
        raise ValueError("istft: Zxx must have at least two axes (frequency and time)")
    time_axis, freq_axis = time_axis % z.ndim, freq_axis % z.ndim
    if time_axis == freq_axis:
        raise ValueError("istft: time_axis and freq_axis must be different axes")
    z = fnp.moveaxis(z, (freq_axis, time_axis), (-2, -1))
    n_default = 2 * (z.shape[-2] - 1) if input_onesided else z.shape[-2]
    nperseg = n_default if nperseg is None else int(nperseg)
    if nperseg < 1:
        raise ValueError(f"istft: nperseg must be a positive integer, got {nperseg}")
    nfft = n_default if nfft is None else int(nfft)
    if nfft < nperseg:
        raise ValueError(f"istft: nfft ({nfft}) must be at least nperseg ({nperseg})")
    win, _ = _window("istft", window, nperseg, None)
    noverlap, _ = _overlap("istft", nperseg, noverlap, nfft)
    step = nperseg - noverlap
    count = z.shape[-1]
    segments = (fnp.fft.irfft(z, n=nfft, axis=-2) if input_onesided
                else fnp.fft.ifft(z, n=nfft, axis=-2))[..., :nperseg, :]
    factor = (float(np.sum(win)) if scaling == "spectrum"
              else math.sqrt(fs * float(np.sum(win * win))))
    real = np.float32 if segments.dtype in (np.float32, np.complex64) else np.float64
    segments = fnp.swapaxes(segments, -1, -2) * (win * factor).astype(real)
    length = nperseg + (count - 1) * step
    index = (np.arange(count)[:, None] * step + np.arange(nperseg)[None, :]).reshape(-1)
    flat = fnp.reshape(segments, segments.shape[:-2] + (count * nperseg,))
    x = fnp.at(fnp.zeros(segments.shape[:-2] + (length,), segments.dtype))[..., index].add(
        flat)
    norm = np.zeros(length)
    np.add.at(norm, index, np.tile(win * win, count))
    if boundary:
        half = nperseg // 2
        x, norm = x[..., half:length - half], norm[half:length - half]
    x = x / np.where(norm > 1e-10, norm, 1.0).astype(real)
    if input_onesided and x.dtype.kind == "c":
        x = fnp.real(x)
    times = np.arange(x.shape[-1]) / float(fs)
    if x.ndim > 1 and time_axis != z.ndim - 1:  # (SciPy puts time where time_axis was)
        x = fnp.moveaxis(x, -1, time_axis - 1 if freq_axis < time_axis else time_axis)
    return times, x
