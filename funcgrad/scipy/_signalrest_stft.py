"""SciPy's newer short-time Fourier transform for :mod:`funcgrad.scipy.signal`
(re-exported there): the class ``ShortTimeFFT``.

The windows (``win``, ``dual_win``), the hop, the sampling frequency and the FFT settings
are plain NumPy values fixed when the transform is made; which slices exist (``p_min``,
``k_max(n)``, borders, times and frequencies) is integer bookkeeping on them, in the base
class of :mod:`._signalrest_stft_layout`.  ``stft`` gathers all slices with one constant index array, multiplies them by the
conjugate window and transforms them (``funcgrad.numpy.fft``); ``istft`` transforms back,
multiplies by the dual window and adds the slices in place (one scatter-add).  Both are
linear, so they differentiate exactly in the signal and in the STFT values; a traced
window raises ``TypeError``.  float32 signals stay single precision (complex64 STFTs),
where SciPy computes in double precision.
"""
import math
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._detrend import detrend as _detrend
from ._signalrest_stft_layout import _canonical_dual, _hop, _Layout, _window

__all__ = ["ShortTimeFFT"]

_PADDINGS = {"zeros": {"mode": "constant"}, "edge": {"mode": "edge"},
             "even": {"mode": "reflect", "reflect_type": "even"},
             "odd": {"mode": "reflect", "reflect_type": "odd"}}


class ShortTimeFFT(_Layout):
    """The short-time Fourier transform of SciPy's newer interface
    (``scipy.signal.ShortTimeFFT``): window ``win`` (a plain 1-d array) moved by ``hop``
    samples, sampling frequency ``fs``, ``fft_mode`` 'onesided' (default), 'twosided',
    'centered' or 'onesided2X', FFT length ``mfft``, optional ``dual_win``, ``scale_to``
    ('magnitude' or 'psd') and ``phase_shift``.

    :meth:`stft`, :meth:`stft_detrend`, :meth:`spectrogram` and :meth:`istft` take and
    give funcgrad arrays and differentiate in the signal (the STFT is linear in it, the
    spectrogram quadratic); the properties and slice bookkeeping are SciPy's.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> import funcgrad.scipy.signal as fss
    >>> SFT = fss.ShortTimeFFT(np.hanning(8), hop=2, fs=1.0)
    >>> x = np.sin(np.arange(16.0))
    >>> S = SFT.stft(x)
    >>> S.shape, SFT.f_pts, SFT.p_min, SFT.p_max(16)
    ((5, 11), 5, -1, 10)
    >>> np.allclose(SFT.istft(S, k1=16), x)
    True
    >>> fg.grad(lambda x: fnp.sum(SFT.spectrogram(x)))(x).shape
    (16,)
    """

    def __init__(self, win: ArrayLike, hop: int, fs: float, *, fft_mode: str = "onesided",
                 mfft: Optional[int] = None, dual_win: Optional[ArrayLike] = None,
                 scale_to: Optional[str] = None, phase_shift: Optional[int] = 0) -> None:
        window = _window("ShortTimeFFT", "win", win)
        if not (window.ndim == 1 and window.size > 0):
            raise ValueError(f"ShortTimeFFT: win must be 1-d and not empty, got shape "
                             f"{window.shape}")
        if not np.all(np.isfinite(window)):
            raise ValueError("ShortTimeFFT: win must have finite entries")
        self._hop = _hop("ShortTimeFFT", hop)
        window.setflags(write=False)
        self._win = window
        self._scaling: Optional[str] = None
        self._fft_mode = "onesided"
        self.fs = fs
        self.mfft = len(window) if mfft is None else mfft
        dual = None
        if dual_win is not None:
            dual = _window("ShortTimeFFT", "dual_win", dual_win)
            if dual.shape != window.shape:
                raise ValueError(f"ShortTimeFFT: dual_win.shape={dual.shape} must equal "
                                 f"win.shape={window.shape}")
            if not np.all(np.isfinite(dual)):
                raise ValueError("ShortTimeFFT: dual_win must be a finite array")
            dual.setflags(write=False)
        self._dual_win = dual
        if scale_to is not None:
            self.scale_to(scale_to)
        self.fft_mode, self.phase_shift = fft_mode, phase_shift

    # --- other constructors ----------------------------------------------------------------

    @classmethod
    def from_dual(cls, dual_win: ArrayLike, hop: int, fs: float, *, fft_mode: str = "onesided",
                  mfft: Optional[int] = None, scale_to: Optional[str] = None,
                  phase_shift: Optional[int] = 0) -> "ShortTimeFFT":
        """The transform whose dual window is ``dual_win`` (its window the canonical dual
        of that; ``ShortTimeFFT.from_dual``).

        >>> import numpy as np, funcgrad.scipy.signal as fss
        >>> fss.ShortTimeFFT.from_dual(np.ones(4), 2, 1.0).win
        array([0.5, 0.5, 0.5, 0.5])
        """
        dual = _window("ShortTimeFFT.from_dual", "dual_win", dual_win)
        win = _canonical_dual(dual, _hop("ShortTimeFFT.from_dual", hop))
        return cls(win, hop, fs, fft_mode=fft_mode, mfft=mfft, dual_win=dual,
                   scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_window(cls, win_param: Any, fs: float, nperseg: int, noverlap: int, *,
                    symmetric_win: bool = False, fft_mode: str = "onesided",
                    mfft: Optional[int] = None, scale_to: Optional[str] = None,
                    phase_shift: Optional[int] = 0) -> "ShortTimeFFT":
        """The transform of the window :func:`get_window` makes from ``win_param`` and
        ``nperseg`` (periodic unless ``symmetric_win``), hop ``nperseg - noverlap``
        (``ShortTimeFFT.from_window``).

        >>> import funcgrad.scipy.signal as fss
        >>> fss.ShortTimeFFT.from_window("hann", 1.0, 4, 2).win
        array([0. , 0.5, 1. , 0.5])
        """
        from ._signalmore_getwindow import get_window
        win = np.asarray(get_window(win_param, nperseg, fftbins=not symmetric_win))
        return cls(win, nperseg - noverlap, fs, fft_mode=fft_mode, mfft=mfft,
                   scale_to=scale_to, phase_shift=phase_shift)

    @classmethod
    def from_win_equals_dual(cls, desired_win: ArrayLike, hop: int, fs: float, *,
                             fft_mode: str = "onesided", mfft: Optional[int] = None,
                             scale_to: Optional[str] = None,
                             phase_shift: Optional[int] = 0) -> "ShortTimeFFT":
        """The transform whose window is its own dual, closest to ``desired_win``
        (``ShortTimeFFT.from_win_equals_dual``; ``scale_to`` may also be 'unitary').

        >>> import numpy as np, funcgrad.scipy.signal as fss
        >>> SFT = fss.ShortTimeFFT.from_win_equals_dual(np.ones(4), 2, 1.0)
        >>> np.allclose(SFT.win, SFT.dual_win)
        True
        """
        name = "ShortTimeFFT.from_win_equals_dual"
        desired = _window(name, "desired_win", desired_win)
        if not (desired.ndim == 1 and desired.size > 0):
            raise ValueError(f"{name}: desired_win must be 1-d and not empty, got shape "
                             f"{desired.shape}")
        if desired.dtype.kind in "biu":
            raise ValueError(f"{name}: desired_win must not be of integer type (got "
                             f"{desired.dtype}); cast it to float or complex")
        if not np.all(np.isfinite(desired)):
            raise ValueError(f"{name}: desired_win must have finite entries")
        hop = _hop(name, hop, len(desired))
        if scale_to not in ("magnitude", "psd", "unitary", None):
            raise ValueError(f"{name}: scale_to={scale_to!r} not in ['magnitude', 'psd', "
                             f"'unitary', None]")
        mfft = len(desired) if mfft is None else mfft
        unit = math.sqrt(mfft) if scale_to == "unitary" else 1
        win = desired.copy()
        tiny = np.finfo(win.dtype).resolution * max(win)
        for m in range(hop):  # (each residue class of samples normalised to unit energy)
            norm = np.linalg.norm(desired[m::hop])
            if not norm > tiny:
                raise ValueError(f"{name}: desired_win has no valid STFT dual window for "
                                 f"hop={hop}")
            win[m::hop] /= norm
        made = cls(win / unit, hop, fs, fft_mode=fft_mode, mfft=mfft, dual_win=win * unit,
                   phase_shift=phase_shift,
                   scale_to=None if scale_to == "unitary" else scale_to)
        if scale_to == "unitary":
            made._scaling = scale_to
        return made

    # --- the transforms -----------------------------------------------------------------------

    def _shift(self):
        return (self.phase_shift + self.m_num_mid) % self.m_num

    def _doubling(self, dtype):
        """The factors of 'onesided2X' on the one-sided spectrum (1 at zero and at the
        Nyquist frequency of an even ``mfft``)."""
        fac = np.full(self.f_pts, math.sqrt(2) if self.scaling == "psd" else 2.0)
        fac[0] = 1.0
        if self.mfft % 2 == 0:
            fac[-1] = 1.0
        return fac.astype(dtype)

    def _fft(self, x, real_dtype):
        if self.phase_shift is not None:
            if x.shape[-1] < self.mfft:
                x = fnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, self.mfft - x.shape[-1])])
            x = fnp.roll(x, -self._shift(), axis=-1)
        if self.fft_mode == "twosided":
            return fnp.fft.fft(x, self.mfft, axis=-1)
        if self.fft_mode == "centered":
            return fnp.fft.fftshift(fnp.fft.fft(x, self.mfft, axis=-1), axes=-1)
        spectrum = fnp.fft.rfft(x, self.mfft, axis=-1)
        if self.fft_mode == "onesided2X":
            spectrum = spectrum * self._doubling(real_dtype)
        return spectrum

    def _ifft(self, spectrum, real_dtype):
        if self.fft_mode == "twosided":
            x = fnp.fft.ifft(spectrum, self.mfft, axis=-1)
        elif self.fft_mode == "centered":
            x = fnp.fft.ifft(fnp.fft.ifftshift(spectrum, axes=-1), self.mfft, axis=-1)
        else:
            if self.fft_mode == "onesided2X":
                spectrum = spectrum / self._doubling(real_dtype)
            x = fnp.fft.irfft(spectrum, self.mfft, axis=-1)
        if self.phase_shift is not None:
            x = fnp.roll(x, self._shift(), axis=-1)
        return x[..., :self.m_num]

    def stft(self, x: ArrayLike, p0: Optional[int] = None, p1: Optional[int] = None, *,
             k_offset: int = 0, padding: str = "zeros", axis: int = -1) -> Array:
        """The STFT of ``x`` along ``axis``, slices ``p0`` to ``p1 - 1`` (all by default), the
        signal extended past its ends by ``padding`` ('zeros', 'edge', 'even', 'odd'):
        frequencies replace ``axis`` and the slices are the last axis.  Linear in ``x``.

        >>> import numpy as np, funcgrad.scipy.signal as fss
        >>> SFT = fss.ShortTimeFFT(np.ones(2), hop=2, fs=1.0, fft_mode="twosided")
        >>> SFT.stft(np.array([1.0, 2.0, 3.0, 4.0]))
        array([[ 1.+0.j,  5.+0.j,  4.+0.j],
               [ 1.+0.j,  1.+0.j, -4.+0.j]])
        """
        return self.stft_detrend(x, None, p0, p1, k_offset=k_offset, padding=padding,
                                 axis=axis)

    def stft_detrend(self, x: ArrayLike, detr: Union[None, str, Callable[[Any], Any]],
                     p0: Optional[int] = None, p1: Optional[int] = None, *,
                     k_offset: int = 0, padding: str = "zeros", axis: int = -1) -> Array:
        """:meth:`stft` with each slice detrended first (``detr`` 'constant', 'linear', a
        function of one slice, or None).

        >>> import numpy as np, funcgrad.scipy.signal as fss
        >>> SFT = fss.ShortTimeFFT(np.ones(4), hop=4, fs=1.0)
        >>> np.abs(SFT.stft_detrend(np.arange(8.0), "constant", p0=1, p1=2)[0]).round(12)
        array([0.])
        """
        x = asarray(x)
        if x.dtype.kind not in "biufc":
            raise TypeError(f"ShortTimeFFT.stft: x must be a numeric array, got dtype "
                            f"{x.dtype}")
        if x.ndim == 0:
            raise ValueError("ShortTimeFFT.stft: x must have at least one axis")
        if self.onesided_fft and x.dtype.kind == "c":
            raise ValueError(f"Complex-valued x not allowed for fft_mode={self.fft_mode!r}: "
                             f"set fft_mode to 'twosided' or 'centered'")
        if padding not in _PADDINGS:
            raise ValueError(f"padding={padding!r} not in {tuple(_PADDINGS)}")
        if isinstance(detr, str):
            if detr not in ("linear", "constant"):
                raise ValueError(f"detr={detr!r} must be 'linear', 'constant', a function "
                                 f"or None")
        elif not (detr is None or callable(detr)):
            raise ValueError(f"detr={detr!r} is not a str, function or None")
        if not -x.ndim <= axis < x.ndim:
            raise np.exceptions.AxisError(f"ShortTimeFFT.stft: axis {axis} is out of bounds "
                                          f"for an array of dimension {x.ndim}")
        n = x.shape[axis]
        if not n >= self.m_num - self.m_num_mid:
            raise ValueError(f"the length {n} of axis {axis} of x must be >= ceil(m_num/2) "
                             f"= {self.m_num - self.m_num_mid}")
        if x.dtype.kind in "biu":
            x = fnp.astype(x, np.float64)
        single = x.dtype in (np.float16, np.float32, np.complex64)
        real_dtype = np.float32 if single else np.float64
        if x.dtype == np.float16:
            x = fnp.astype(x, np.float32)
        ndim = x.ndim
        x = fnp.moveaxis(x, axis, -1)
        p0, p1 = self.p_range(n, p0, p1)
        # the samples the slices cover, padded past the signal's ends
        first = p0 * self.hop - self.m_num_mid + k_offset
        stop = first + (p1 - p0) * self.hop + self.m_num
        inside = x[..., max(first, 0):min(stop, n)]
        pads = [(0, 0)] * (ndim - 1) + [(-min(first, 0), max(stop - n, 0))]
        covered = fnp.pad(inside, pads, **_PADDINGS[padding])
        index = np.arange(p1 - p0)[:, None] * self.hop + np.arange(self.m_num)[None, :]
        slices = fnp.take(covered, index, axis=-1)  # (..., slices, m_num)
        if isinstance(detr, str):
            slices = _detrend(slices, axis=-1, type=detr)
        elif detr is not None:  # (a function of one slice, as SciPy calls it)
            slices = fnp.stack([detr(slices[..., p, :]) for p in range(p1 - p0)], axis=-2)
        win = np.conj(self.win).astype(np.complex64 if single else np.complex128) \
            if np.iscomplexobj(self.win) else self.win.astype(real_dtype)
        spectra = fnp.swapaxes(self._fft(slices * win, real_dtype), -1, -2)
        if ndim > 1:
            return fnp.moveaxis(spectra, -2, axis if axis >= 0 else axis - 1)
        return spectra

    def spectrogram(self, x: ArrayLike, y: Optional[ArrayLike] = None,
                    detr: Union[None, str, Callable[[Any], Any]] = None, *,
                    p0: Optional[int] = None, p1: Optional[int] = None, k_offset: int = 0,
                    padding: str = "zeros", axis: int = -1) -> Array:
        """``|S_x|^2`` of the STFT ``S_x`` of ``x``, or the cross-spectrogram ``S_x
        conj(S_y)`` with ``y``.

        >>> import numpy as np, funcgrad.scipy.signal as fss
        >>> SFT = fss.ShortTimeFFT(np.ones(2), hop=2, fs=1.0)
        >>> SFT.spectrogram(np.array([1.0, 2.0, 3.0, 4.0]))
        array([[ 1., 25., 16.],
               [ 1.,  1., 16.]])
        """
        sx = self.stft_detrend(x, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        if y is None or y is x:
            return fnp.real(sx) ** 2 + fnp.imag(sx) ** 2
        sy = self.stft_detrend(y, detr, p0, p1, k_offset=k_offset, padding=padding, axis=axis)
        return sx * fnp.conj(sy)

    def istft(self, S: ArrayLike, k0: int = 0, k1: Optional[int] = None, *,  # noqa: N803
              f_axis: int = -2, t_axis: int = -1) -> Array:
        """The signal samples ``k0`` to ``k1 - 1`` whose STFT is ``S`` (frequencies along
        ``f_axis``, slices along ``t_axis``): each slice transformed back, multiplied by
        the dual window and added in place.  Linear in ``S``.

        >>> import numpy as np, funcgrad.scipy.signal as fss
        >>> SFT = fss.ShortTimeFFT(np.hanning(6), hop=2, fs=1.0)
        >>> x = np.arange(10.0)
        >>> np.allclose(SFT.istft(SFT.stft(x), k1=10), x)
        True
        """
        S = asarray(S)
        if S.ndim < 2:
            raise ValueError(f"ShortTimeFFT.istft: S must have a frequency and a time axis, "
                             f"got shape {S.shape}")
        if f_axis == t_axis:
            raise ValueError(f"f_axis={f_axis} may not be equal to t_axis={t_axis}")
        for label, ax in (("f_axis", f_axis), ("t_axis", t_axis)):
            if not -S.ndim <= ax < S.ndim:
                raise np.exceptions.AxisError(f"ShortTimeFFT.istft: {label}={ax} is out of "
                                              f"bounds for S of dimension {S.ndim}")
        if S.shape[f_axis] != self.f_pts:
            raise ValueError(f"S.shape[f_axis]={S.shape[f_axis]} must be equal to "
                             f"f_pts={self.f_pts} (S.shape={S.shape})")
        half = self.m_num - self.m_num_mid
        if not S.shape[t_axis] >= (needed := self.p_num(half)):
            raise ValueError(f"S.shape[t_axis]={S.shape[t_axis]} needs to have at least "
                             f"{needed} slices (S.shape={S.shape})")
        t_axis, f_axis = t_axis % S.ndim, f_axis % S.ndim
        S = fnp.moveaxis(S, (f_axis, t_axis), (-2, -1))
        q_max = S.shape[-1] + self.p_min
        k_max = (q_max - 1) * self.hop + half
        k1 = k_max if k1 is None else k1
        if not self.k_min <= k0 < k1 <= k_max:
            raise ValueError(f"k_min={self.k_min} <= k0={k0} < k1={k1} <= k_max={k_max} "
                             f"is false")
        if not k1 - k0 >= half:
            raise ValueError(f"k1 - k0 = {k1 - k0} has to be at least half the window "
                             f"length {half}")
        q0 = k0 // self.hop + (self.p_min if k0 >= 0 else 0)
        q1 = min(self.p_max(k1), q_max)
        length = (self.nearest_k_p(k1, left=False) - self.nearest_k_p(k0) + half)
        if S.dtype.kind in "biuf":
            S = fnp.astype(S, np.complex128 if S.dtype.kind != "f" or S.dtype == np.float64
                           else np.complex64)
        real_dtype = np.float32 if S.dtype == np.complex64 else np.float64
        # (a negative column counts from the end, as SciPy's indexing does)
        columns = np.arange(q0, q1) - self.p_min
        columns = np.where(columns < 0, columns + S.shape[-1], columns)
        spectra = fnp.swapaxes(fnp.take(S, columns, axis=-1), -1, -2)  # (..., q, f)
        dual = self.dual_win
        dual = dual.astype(real_dtype if dual.dtype.kind != "c" else np.result_type(
            real_dtype, np.complex64))
        pieces = self._ifft(spectra, real_dtype) * dual  # (..., q, m_num)
        if self.onesided_fft:
            pieces = fnp.real(pieces) if pieces.dtype.kind == "c" else pieces
        elif pieces.dtype.kind != "c":
            pieces = fnp.astype(pieces, np.result_type(real_dtype, np.complex64))
        where = (np.arange(q0, q1)[:, None] * self.hop - self.m_num_mid - k0
                 + np.arange(self.m_num)[None, :])
        keep = (where >= 0) & (where < length)
        flat = fnp.reshape(pieces, pieces.shape[:-2] + (-1,))[..., np.flatnonzero(keep)]
        x = fnp.at(fnp.zeros(pieces.shape[:-2] + (length,), pieces.dtype))[
            ..., where[keep]].add(flat)
        x = x[..., :k1 - k0]
        if x.ndim > 1:
            x = fnp.moveaxis(x, -1, f_axis if f_axis < x.ndim else t_axis)
        return x
