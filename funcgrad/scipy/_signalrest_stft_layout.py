"""The settings and slice bookkeeping of :class:`~funcgrad.scipy.signal.ShortTimeFFT`
(its base class here), and the dual windows (``closest_STFT_dual_window``, re-exported by
:mod:`funcgrad.scipy.signal`).

Everything here is plain NumPy and integers, with SciPy's conventions: slice ``p`` is
centred on sample ``p * hop``; the first and last slices are those that still touch the
signal where the window is not zero; a dual window ``d`` of ``w`` for hop ``h``
satisfies ``sum_k conj(w[n + k h]) d[n + k h] = 1``, and the canonical one (of least
energy) is ``w / sum_k |w[n + k h]|^2``.
"""
from typing import Optional, Tuple, Union

import numpy as np

from ..core import Tracer
from ..typing import ArrayLike

__all__ = ["closest_STFT_dual_window"]

_FFT_MODES = ("twosided", "centered", "onesided", "onesided2X")

def _window(name, label, win):
    if isinstance(win, Tracer):
        raise TypeError(f"{name}: {label} is a traced value, but the window of a "
                        f"ShortTimeFFT is a fixed NumPy array (its dual window and "
                        f"scalings are computed in NumPy), so it has no derivative; pass a "
                        f"plain array (the transforms differentiate in the signal)")
    win = np.array(win)  # (a copy: the transform's window must not change under it)
    if win.dtype.kind not in "biufc":
        raise TypeError(f"{name}: {label} must be a numeric array, got dtype {win.dtype}")
    return win


def _hop(name, hop, upper=None):
    if not isinstance(hop, (int, np.integer)) or isinstance(hop, bool) or hop < 1 or (
            upper is not None and hop > upper):
        bound = "" if upper is None else f" and at most the window length {upper}"
        raise ValueError(f"{name}: hop={hop!r} must be an integer >= 1{bound}")
    return int(hop)


def _overlap_add(values, hop):
    """``sum_k values[n + k hop]`` over every shift ``k`` (positive and negative) that
    stays inside the window: how much the hopped copies of ``values`` overlap at ``n``."""
    total = values.copy()
    for shift in range(hop, len(values), hop):
        total[shift:] += values[:-shift]
        total[:-shift] += values[shift:]
    return total


def _canonical_dual(win, hop):
    """The dual window of least energy: ``win / sum_k |win[n + k hop]|^2``."""
    if hop > len(win):
        raise ValueError(f"hop={hop} is larger than the window length {len(win)}: the "
                         f"STFT is not invertible")
    if win.dtype.kind in "biu":
        raise ValueError(f"the window must not be of integer type (got {win.dtype}): the "
                         f"STFT is not invertible; cast it to float")
    overlap = _overlap_add(win.real ** 2 + win.imag ** 2, hop)
    if not np.all(overlap >= np.finfo(win.dtype).resolution * max(overlap)):
        raise ValueError("Short-time Fourier Transform not invertible: the hopped windows "
                         "leave samples uncovered; use a smaller hop or a wider window")
    return win / overlap


def closest_STFT_dual_window(win: ArrayLike, hop: int, desired_dual: Optional[ArrayLike] = None,
                             *, scaled: bool = True) -> Tuple[np.ndarray, Union[float, complex]]:
    """The dual window of ``win`` for hop ``hop`` closest (least squares) to
    ``desired_dual`` (ones by default), or to ``alpha * desired_dual`` with the best scale
    ``alpha`` when ``scaled`` (``scipy.signal.closest_STFT_dual_window``): ``(dual,
    alpha)``.  A design function on plain arrays (no derivative).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> dual, alpha = fss.closest_STFT_dual_window(np.ones(4), 2)
    >>> dual, alpha
    (array([0.5, 0.5, 0.5, 0.5]), np.float64(0.5))
    """
    name = "closest_STFT_dual_window"
    window = _window(name, "win", win)
    desired = np.ones_like(window) if desired_dual is None else _window(
        name, "desired_dual", desired_dual)
    if not (window.ndim == 1 and window.shape == desired.shape):
        raise ValueError(f"{name}: win and desired_dual must be 1-d arrays of equal length, "
                         f"got shapes {window.shape} and {desired.shape}")
    for label, w in (("win", window), ("desired_dual", desired)):
        if not np.all(np.isfinite(w)):
            raise ValueError(f"{name}: {label} must have finite entries")
    hop = _hop(name, hop, len(window))
    dual = _canonical_dual(window, hop)
    # the projection of desired_dual onto the duals' direction
    projected = dual * _overlap_add(window.conjugate() * desired, hop)
    if not scaled:
        return dual + desired - projected, 1.0
    numerator = projected.conjugate() @ dual
    denominator = projected.real @ projected.real + projected.imag @ projected.imag
    if not (abs(numerator) > 0 and denominator > np.finfo(dual.dtype).resolution):
        raise ValueError(f"{name}: the scale of the closest dual window is numerically "
                         f"unstable; pass scaled=False")
    alpha = numerator / denominator
    return dual + alpha * (desired - projected), alpha


class _Layout:
    """The window, hop, sampling and FFT settings of a short-time Fourier transform, and
    which slices, times and frequencies it has (no transforms: see ShortTimeFFT)."""

    _win: np.ndarray
    _dual_win: Optional[np.ndarray]
    _hop: int
    _fs: float
    _mfft: int
    _scaling: Optional[str]
    _fft_mode: str
    _phase_shift: Optional[int]

    # --- settings ----------------------------------------------------------------------------

    @property
    def win(self) -> np.ndarray:
        """The window (read-only)."""
        return self._win

    @property
    def hop(self) -> int:
        """The step, in samples, between neighbouring slices."""
        return self._hop

    @property
    def T(self) -> float:  # noqa: N802 - SciPy's name
        """The sampling interval ``1 / fs``."""
        return 1 / self._fs

    @T.setter
    def T(self, value: float) -> None:  # noqa: N802
        if not value > 0:
            raise ValueError(f"Sampling interval T={value} must be positive")
        self._fs = 1 / value

    @property
    def fs(self) -> float:
        """The sampling frequency."""
        return self._fs

    @fs.setter
    def fs(self, value: float) -> None:
        if isinstance(value, Tracer):
            raise TypeError("ShortTimeFFT: fs is a traced value; pass a plain number (the "
                            "transforms differentiate in the signal)")
        if not value > 0:
            raise ValueError(f"Sampling frequency fs={value} must be positive")
        self._fs = value

    @property
    def fft_mode(self) -> str:
        """'twosided', 'centered', 'onesided' or 'onesided2X' (one-sided, non-zero
        frequencies doubled in magnitude or power)."""
        return self._fft_mode

    @fft_mode.setter
    def fft_mode(self, mode: str) -> None:
        if mode not in _FFT_MODES:
            raise ValueError(f"fft_mode={mode!r} not in {_FFT_MODES}")
        if mode in ("onesided", "onesided2X") and np.iscomplexobj(self.win):
            raise ValueError(f"One-sided spectra (fft_mode={mode!r}) are not allowed for "
                             f"complex-valued windows; use 'twosided' or 'centered'")
        if mode == "onesided2X" and self.scaling is None:
            raise ValueError(f"fft_mode={mode!r} needs a scaling: call scale_to('psd') or "
                             f"scale_to('magnitude') first")
        self._fft_mode = mode

    @property
    def mfft(self) -> int:
        """The length of the FFT (at least the window length)."""
        return self._mfft

    @mfft.setter
    def mfft(self, n: int) -> None:
        if not n >= self.m_num:
            raise ValueError(f"mfft={n} needs to be at least the window length "
                             f"m_num={self.m_num}")
        self._mfft = int(n)

    @property
    def scaling(self) -> Optional[str]:
        """'magnitude', 'psd', 'unitary' or None: what the window is scaled to."""
        return self._scaling

    def scale_to(self, scaling: str) -> None:
        """Scale the window (and the dual window inversely) so the STFT values are
        magnitudes ('magnitude') or a power spectral density ('psd').

        >>> import numpy as np, funcgrad.scipy.signal as fss
        >>> SFT = fss.ShortTimeFFT(np.ones(4), 2, 1.0)
        >>> SFT.scale_to("magnitude"); SFT.win
        array([0.25, 0.25, 0.25, 0.25])
        """
        if scaling not in ("magnitude", "psd"):
            raise ValueError(f"scaling={scaling!r} not in ['magnitude', 'psd']")
        if self._scaling == scaling:
            return
        factor = self.fac_psd if scaling == "psd" else self.fac_magnitude
        self._win = self._win * factor
        self._win.setflags(write=False)
        if self._dual_win is not None:
            self._dual_win = self._dual_win / factor
            self._dual_win.setflags(write=False)
        self._scaling = scaling

    @property
    def phase_shift(self) -> Optional[int]:
        """The shift, in samples, of the phase origin of each slice (0: its middle; None:
        its start)."""
        return self._phase_shift

    @phase_shift.setter
    def phase_shift(self, value: Optional[int]) -> None:
        if value is not None:
            if not isinstance(value, (int, np.integer)):
                raise ValueError(f"phase_shift={value} is in samples: it must be an int or "
                                 f"None")
            if not -self.mfft < value < self.mfft:
                raise ValueError(f"-mfft < phase_shift < mfft does not hold for "
                                 f"mfft={self.mfft}, phase_shift={value}")
        self._phase_shift = value

    @property
    def dual_win(self) -> np.ndarray:
        """The dual window (the canonical one unless given): what :meth:`istft`
        multiplies the inverse transforms by."""
        if self._dual_win is None:
            self._dual_win = _canonical_dual(self.win, self.hop)
            self._dual_win.setflags(write=False)
        return self._dual_win

    @property
    def invertible(self) -> bool:
        """Whether the STFT can be inverted (a dual window exists)."""
        try:
            return len(self.dual_win) > 0
        except ValueError:
            return False

    @property
    def fac_magnitude(self) -> float:
        """The factor that scales the window to magnitude spectra: ``1 / |sum(win)|``."""
        return 1 if self.scaling == "magnitude" else 1 / abs(sum(self.win))

    @property
    def fac_psd(self) -> float:
        """The factor that scales the window to a power spectral density."""
        if self.scaling == "psd":
            return 1
        return 1 / np.sqrt(sum(self.win.real ** 2 + self.win.imag ** 2) / self.T)

    # --- slices, times and frequencies -------------------------------------------------------

    @property
    def m_num(self) -> int:
        """The window length."""
        return len(self.win)

    @property
    def m_num_mid(self) -> int:
        """The centre index of the window, ``m_num // 2``."""
        return self.m_num // 2

    def _power(self):
        return self.win.real ** 2 + self.win.imag ** 2

    @property
    def _pre_padding(self) -> Tuple[int, int]:
        """``(k_min, p_min)``: the first sample and slice index, going left from slice 0
        until the next slice would see only zeros of the window over the signal."""
        power, start = self._power(), -self.m_num_mid
        for p, k in enumerate(range(start, start - self.m_num - 1, -self.hop)):
            following = k - self.hop
            if following + self.m_num <= 0 or np.all(power[following:] == 0):
                return k, -p
        raise RuntimeError("ShortTimeFFT: no first slice found (please report this)")

    @property
    def k_min(self) -> int:
        """The smallest sample index the STFT's slices touch (<= 0)."""
        return self._pre_padding[0]

    @property
    def p_min(self) -> int:
        """The index of the first slice (<= 0)."""
        return self._pre_padding[1]

    def _post_padding(self, n: int) -> Tuple[int, int]:
        """``(k_max, p_max)`` for a signal of ``n`` samples."""
        self._check_length(n)
        power, q_start = self._power(), n // self.hop
        for q, k in enumerate(range(q_start * self.hop - self.m_num_mid, n + self.m_num,
                                    self.hop), start=q_start):
            following = k + self.hop
            if following >= n or np.all(power[:n - following] == 0):
                return k + self.m_num, q + 1
        raise RuntimeError("ShortTimeFFT: no last slice found (please report this)")

    def _check_length(self, n):
        if not n >= self.m_num - self.m_num_mid:
            raise ValueError(f"n={n} must be >= ceil(m_num/2) = "
                             f"{self.m_num - self.m_num_mid}")

    def k_max(self, n: int) -> int:
        """The first sample index past the last slice, for ``n`` samples."""
        return self._post_padding(n)[0]

    def p_max(self, n: int) -> int:
        """The index past the last slice, for ``n`` samples."""
        return self._post_padding(n)[1]

    def p_num(self, n: int) -> int:
        """The number of slices, for ``n`` samples."""
        return self.p_max(n) - self.p_min

    @property
    def lower_border_end(self) -> Tuple[int, int]:
        """``(k, p)``: the first sample and slice not touched by the left border."""
        first = int(np.flatnonzero(self._power())[0])
        start = -self.m_num_mid + first
        for q, k in enumerate(range(start, self.hop + 1, self.hop)):
            if k + self.hop >= 0:
                return k + self.m_num, q + 1
        return 0, max(self.p_min, 0)

    def upper_border_begin(self, n: int) -> Tuple[int, int]:
        """``(k, p)``: the first sample and slice touched by the right border, for ``n``
        samples."""
        self._check_length(n)
        power = self._power()
        for q in range(n // self.hop + 1, max((n - self.m_num) // self.hop - 1, -1), -1):
            k = q * self.hop + (self.m_num - self.m_num_mid)
            if k <= n or np.all(power[n - k:] == 0):
                return (q + 1) * self.hop - self.m_num_mid, q + 1
        raise RuntimeError("ShortTimeFFT: no upper border found (please report this)")

    @property
    def delta_t(self) -> float:
        """The time between neighbouring slices, ``hop * T``."""
        return self.T * self.hop

    def p_range(self, n: int, p0: Optional[int] = None, p1: Optional[int] = None
                ) -> Tuple[int, int]:
        """``(p0, p1)`` with the defaults filled in (``p_min``, ``p_max(n)``), checked."""
        p_max = self.p_max(n)
        first = self.p_min if p0 is None else p0
        last = p_max if p1 is None else p1
        if not self.p_min <= first < last <= p_max:
            raise ValueError(f"Invalid p0={p0}, p1={p1}: p_min={self.p_min} <= p0 < p1 <= "
                             f"p_max={p_max} does not hold for signal length n={n}")
        return first, last

    def t(self, n: int, p0: Optional[int] = None, p1: Optional[int] = None,
          k_offset: int = 0) -> np.ndarray:
        """The times of the slices ``p0`` to ``p1 - 1``, for ``n`` samples."""
        if not (isinstance(n, (int, np.integer)) and n > 0):
            raise ValueError(f"n={n!r} is not a positive integer")
        p0, p1 = self.p_range(n, p0, p1)
        return np.arange(p0, p1) * self.delta_t + k_offset * self.T

    def nearest_k_p(self, k: int, left: bool = True) -> int:
        """The sample index nearest ``k`` (to its left, or right) that is a multiple of
        ``hop``."""
        q, rest = divmod(k, self.hop)
        if rest == 0:
            return k
        return q * self.hop if left else (q + 1) * self.hop

    @property
    def delta_f(self) -> float:
        """The spacing of the frequencies, ``1 / (mfft T)``."""
        return 1 / (self.mfft * self.T)

    @property
    def f_pts(self) -> int:
        """The number of frequencies."""
        return self.mfft // 2 + 1 if self.onesided_fft else self.mfft

    @property
    def onesided_fft(self) -> bool:
        """Whether the FFT is one-sided ('onesided' or 'onesided2X')."""
        return self.fft_mode in ("onesided", "onesided2X")

    @property
    def f(self) -> np.ndarray:
        """The frequencies of the STFT's rows."""
        if self.onesided_fft:
            return np.fft.rfftfreq(self.mfft, self.T)
        freqs = np.fft.fftfreq(self.mfft, self.T)
        return np.fft.fftshift(freqs) if self.fft_mode == "centered" else freqs

    def extent(self, n: int, axes_seq: str = "tf", center_bins: bool = False
               ) -> Tuple[float, float, float, float]:
        """The time and frequency limits of the STFT of ``n`` samples, for plotting
        (``(t0, t1, f0, f1)``, or ``(f0, f1, t0, t1)`` when ``axes_seq='ft'``)."""
        if axes_seq not in ("tf", "ft"):
            raise ValueError(f"axes_seq={axes_seq!r} not in ['tf', 'ft']")
        if self.onesided_fft:
            q0, q1 = 0, self.f_pts
        elif self.fft_mode == "centered":
            q0, q1 = -(self.mfft // 2), self.mfft // 2 + self.mfft % 2
        else:
            raise ValueError(f"fft_mode={self.fft_mode!r} must be 'centered', 'onesided' or "
                             f"'onesided2X' for an extent")
        p0, p1 = self.p_min, self.p_max(n)
        half = 0.5 if center_bins else 0.0
        t0, t1 = self.delta_t * (p0 - half), self.delta_t * (p1 - half)
        f0, f1 = self.delta_f * (q0 - half), self.delta_f * (q1 - half)
        return (t0, t1, f0, f1) if axes_seq == "tf" else (f0, f1, t0, t1)
