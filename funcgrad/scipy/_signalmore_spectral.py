"""More spectral analysis for :mod:`funcgrad.scipy.signal` (re-exported there):
``periodogram``, ``spectrogram`` and ``coherence``, with SciPy's parameters, defaults and
scalings, differentiable in the signals.  They are written on the segmenting, windowing
and transforming of :mod:`._signal_spectral` (``welch``/``csd``'s machinery).
"""
from typing import Any, Callable, Optional, Tuple, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._signal_spectral import _overlap, _scale, _segments, _window, csd, welch

__all__ = ["periodogram", "spectrogram", "coherence"]

_Window = Union[str, tuple, ArrayLike]
_Detrend = Union[str, bool, Callable[..., Any]]


def periodogram(x: ArrayLike, fs: float = 1.0, window: Optional[_Window] = "boxcar",
                nfft: Optional[int] = None, detrend: _Detrend = "constant",
                return_onesided: bool = True, scaling: str = "density", axis: int = -1
                ) -> Tuple[np.ndarray, Array]:
    """``(f, Pxx)``: the power spectral density from one segment, the whole signal
    (``scipy.signal.periodogram``): ``welch`` with a single segment, truncated to
    ``nfft`` samples if that is shorter.  Differentiable in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> f, p = fss.periodogram(np.array([1.0, -1.0, 1.0, -1.0]))
    >>> f, p
    (array([0.  , 0.25, 0.5 ]), array([0., 0., 4.]))
    """
    x = asarray(x)
    if x.size == 0:
        return np.empty(x.shape), np.empty(x.shape)
    if window is None:
        window = "boxcar"
    length = x.shape[axis]
    if nfft is None or nfft >= length:
        nperseg = length
    else:  # (a shorter nfft truncates the signal, as SciPy's)
        x = fnp.take(x, np.arange(nfft), axis=axis)
        nperseg, nfft = nfft, None
    if hasattr(window, "size") and not isinstance(window, (str, tuple)):
        if np.size(window) != nperseg:
            raise ValueError("the size of the window must be the same size of the input "
                             "on the specified axis")
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft,
                 detrend=detrend, return_onesided=return_onesided, scaling=scaling,
                 axis=axis)


_MODES = ("psd", "complex", "magnitude", "angle", "phase")


def spectrogram(x: ArrayLike, fs: float = 1.0, window: _Window = ("tukey", .25),
                nperseg: Optional[int] = None, noverlap: Optional[int] = None,
                nfft: Optional[int] = None, detrend: _Detrend = "constant",
                return_onesided: bool = True, scaling: str = "density", axis: int = -1,
                mode: str = "psd") -> Tuple[np.ndarray, np.ndarray, Array]:
    """``(f, t, Sxx)``: the spectrogram of ``x`` (``scipy.signal.spectrogram``): the power
    of overlapping windowed segments (``noverlap`` default ``nperseg // 8``), or with
    ``mode`` 'complex', 'magnitude', 'angle' or 'phase' (unwrapped along frequency) their
    scaled transforms.  ``Sxx``'s last axis is time, ``axis`` becomes frequency.
    Differentiable in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> f, t, s = fss.spectrogram(np.ones(16), nperseg=8)
    >>> s.shape, t
    ((5, 2), array([ 4., 11.]))
    """
    if mode not in _MODES:
        raise ValueError(f"unknown value for mode {mode}, must be one of {list(_MODES)}")
    x = asarray(x)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    x = fnp.moveaxis(x, axis, -1)
    win, nperseg = _window("spectrogram", window, nperseg, x.shape[-1])
    if noverlap is None:
        noverlap = nperseg // 8
    noverlap, nfft = _overlap("spectrogram", nperseg, noverlap, nfft)
    scale = _scale("spectrogram", scaling, win, fs)
    psd = mode == "psd"
    freqs, times, z, onesided = _segments("spectrogram", x, win, nperseg, noverlap, nfft,
                                          detrend, return_onesided,
                                          1.0 if psd else float(np.sqrt(scale)), fs)
    if psd:
        real = fnp.real(z) ** 2 + fnp.imag(z) ** 2 if z.dtype.kind == "c" else z * z
        result = real * scale
        if onesided:
            fold = np.ones(result.shape[-1])
            fold[1:-1 if nfft % 2 == 0 else None] = 2.0
            result = result * fold.astype(np.float32 if result.dtype == np.float32
                                          else np.float64)
    elif mode == "magnitude":
        result = fnp.abs(z)
    elif mode in ("angle", "phase"):
        result = fnp.angle(z)
        if mode == "phase":  # (SciPy's unwraps along frequency)
            result = fnp.unwrap(result, axis=-1)
    else:
        result = z
    result = fnp.swapaxes(result, -1, -2)  # (..., freqs, segments)
    out_axis = axis - 1 if axis < 0 else axis
    return freqs, times, fnp.moveaxis(result, -2, out_axis)


def coherence(x: ArrayLike, y: ArrayLike, fs: float = 1.0, window: _Window = "hann",
              nperseg: Optional[int] = None, noverlap: Optional[int] = None,
              nfft: Optional[int] = None, detrend: _Detrend = "constant", axis: int = -1
              ) -> Tuple[np.ndarray, Array]:
    """``(f, Cxy)``: the magnitude-squared coherence ``|Pxy|^2 / (Pxx Pyy)`` of ``x`` and
    ``y`` by Welch's method (``scipy.signal.coherence``).  Differentiable in both.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.sin(np.arange(64.0))
    >>> f, c = fss.coherence(x, 2 * x, nperseg=16)
    >>> np.allclose(c, 1)
    True
    """
    kw: dict[str, Any] = dict(fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
              detrend=detrend, axis=axis)
    freqs, pxx = welch(x, **kw)
    _, pyy = welch(y, **kw)
    _, pxy = csd(x, y, **kw)
    power = fnp.real(pxy) ** 2 + fnp.imag(pxy) ** 2 if pxy.dtype.kind == "c" else pxy * pxy
    return freqs, power / pxx / pyy
