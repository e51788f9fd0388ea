"""``funcgrad.scipy.signal``: n-dimensional ``convolve``, ``correlate`` and
``fftconvolve`` with SciPy's semantics, differentiable in both inputs, and ``convolve2d``
and ``correlate2d`` with SciPy's boundaries (``in1`` extended past its edges as
``boundary`` says, by ``in2``'s size less one on each side: the 'valid' convolution of
that is the 'full' result); ``detrend`` (:mod:`.._detrend`); ``welch``, ``csd``,
``stft`` and ``istft`` (:mod:`.._signal_spectral`); the IIR filters ``lfilter``,
``filtfilt``, ``sosfilt``, ``sosfiltfilt``, their steady states ``lfilter_zi`` and
``sosfilt_zi`` (:mod:`.._iir`), and the design functions ``iirfilter``, ``butter``,
``cheby1``, ``cheby2``, ``ellip`` and ``bessel``, differentiable in ``Wn``
(:mod:`.._iir_design`), with the order selection ``buttord``, ``cheb1ord``, ``cheb2ord``,
``ellipord`` and the complete ``iirdesign`` (:mod:`.._iir_order`); Savitzky-Golay ``savgol_coeffs`` and ``savgol_filter``
(:mod:`.._savgol`); the window functions of :mod:`.windows` and ``get_window``
(:mod:`.._signalmore_getwindow`), FIR design and frequency responses ``firwin``,
``firwin2``, ``kaiserord``, ``freqz``, ``freqz_sos``, ``freqz_zpk``, ``group_delay`` and
the analytic signals ``hilbert``, ``hilbert2`` (:mod:`.._signalmore_fir`), and the
waveforms ``chirp``, ``sawtooth``, ``square``, ``gausspulse`` with ``unit_impulse`` and
``correlation_lags`` (:mod:`.._signalmore_waveforms`); resampling ``upfirdn``,
``resample_poly``, ``resample``, ``decimate`` (:mod:`.._signalmore_resample`) and the
spectra ``periodogram``, ``spectrogram``, ``coherence`` (:mod:`.._signalmore_spectral`);
``medfilt``, ``medfilt2d``, ``wiener``, ``lfiltic``, ``deconvolve``
(:mod:`.._signalmore_filters`); ``find_peaks``, ``peak_prominences``, ``peak_widths``
and ``argrelextrema``/``argrelmax``/``argrelmin`` (:mod:`.._signalmore_peaks`: the
positions are integers, the heights, prominences and widths differentiate); the
conversions ``tf2zpk``, ``zpk2tf``, ``tf2sos``, ``sos2tf``, ``zpk2sos``, ``sos2zpk``,
``normalize``, the transformations ``bilinear``, ``lp2lp``, ``lp2hp``, ``lp2bp``,
``lp2bs`` and the ``_zpk``
forms, and ``iirnotch``, ``iirpeak`` (:mod:`.._signalmore_lti`).

``convolve``/``correlate`` compute directly whatever ``method`` says ('auto', 'direct';
'fft' goes to :func:`fftconvolve`): the larger input is padded, its windows gathered
along each axis, and one ``tensordot`` with the flipped smaller input sums them, so the
values are exact sums of products as SciPy's direct method.  ``fftconvolve`` goes
through ``funcgrad.numpy.fft`` (``rfftn`` for real inputs).  ``'same'`` is the centre of
the full result with ``in1``'s shape, ``'valid'`` the part computed without zero
padding (SciPy's centering).  ``correlate(in1, in2)`` is ``convolve(in1,
flip(conj(in2)))``, as SciPy's (no swapping of the inputs, unlike ``np.correlate``).
"""
from typing import Any, Optional, Sequence, Union

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...typing import Array, ArrayLike
from .._detrend import detrend  # noqa: F401
from .._iir import (filtfilt, lfilter, lfilter_zi, sosfilt, sosfilt_zi,  # noqa: F401
                   sosfiltfilt)
from .._iir_design import bessel, butter, cheby1, cheby2, ellip, iirfilter  # noqa: F401
from .._iir_order import buttord, cheb1ord, cheb2ord, ellipord, iirdesign  # noqa: F401
from .._savgol import savgol_coeffs, savgol_filter  # noqa: F401
from .._signal_spectral import csd, istft, stft, welch  # noqa: F401
from .._signalmore_fir import (firwin, firwin2, freqz, freqz_sos, freqz_zpk,  # noqa: F401
                               group_delay, hilbert, hilbert2, kaiser_atten, kaiser_beta,
                               kaiserord, sosfreqz)
from .._signalmore_filters import (deconvolve, lfiltic, medfilt, medfilt2d,  # noqa: F401
                                   wiener)
from .._signalmore_lti import (bilinear, bilinear_zpk, iirnotch, iirpeak,  # noqa: F401
                               lp2bp, lp2bp_zpk, lp2bs, lp2bs_zpk, lp2hp, lp2hp_zpk, lp2lp,
                               lp2lp_zpk, normalize, sos2tf, sos2zpk, tf2sos, tf2zpk,
                               zpk2sos, zpk2tf)
from .._signalmore_peaks import (argrelextrema, argrelmax, argrelmin,  # noqa: F401
                                 find_peaks, peak_prominences, peak_widths)
from .._signalmore_resample import decimate, resample, resample_poly, upfirdn  # noqa: F401
from .._signalmore_spectral import coherence, periodogram, spectrogram  # noqa: F401
from .._signalmore_waveforms import (chirp, correlation_lags, gausspulse,  # noqa: F401
                                     sawtooth, square, unit_impulse)
from .._signalmore_getwindow import get_window  # noqa: F401
from .._signalrest_czt import CZT, ZoomFFT, czt, czt_points, zoom_fft  # noqa: F401
from .._signalrest_stft import ShortTimeFFT  # noqa: F401
from .._signalrest_stft_layout import closest_STFT_dual_window  # noqa: F401
from .._signalrest_spectral import check_COLA, check_NOLA, envelope, lombscargle  # noqa: F401
from .._signalrest_conv import choose_conv_method, oaconvolve  # noqa: F401
from .._signalrest_fir import firls, minimum_phase, remez  # noqa: F401
from .._signalrest_misc import (gammatone, iircomb, max_len_seq, sweep_poly,  # noqa: F401
                                vectorstrength)
from .._signalrest_splines import (cspline1d, cspline2d, gauss_spline,  # noqa: F401
                                   order_filter, qspline1d, qspline2d, sepfir2d,
                                   spline_filter, symiirorder1, symiirorder2)
from .._signalrest_spline_eval import cspline1d_eval, qspline1d_eval  # noqa: F401
from .._signalrest_design import band_stop_obj, find_peaks_cwt, firwin_2d  # noqa: F401
from .._ltisys_design import (besselap, buttap, cheb1ap, cheb2ap, ellipap,  # noqa: F401
                              place_poles)
from .._ltisys_residue import (invres, invresz, residue, residuez,  # noqa: F401
                               unique_roots)
from .._ltisys_convert import (abcd_normalize, cont2discrete, ss2tf, ss2zpk,  # noqa: F401
                               tf2ss, zpk2ss)
from .._ltisys_freq import (bode, dbode, dfreqresp, findfreqs, freqresp,  # noqa: F401
                            freqs, freqs_zpk)
from .._ltisys_response import dimpulse, dlsim, dstep, impulse, lsim, step  # noqa: F401
from .._ltisys_systems import (StateSpace, TransferFunction, ZerosPolesGain,  # noqa: F401
                               dlti, lti)
from . import windows  # noqa: F401

__all__ = ["convolve", "correlate", "fftconvolve", "convolve2d", "correlate2d", "detrend",
           "stft", "istft", "csd", "welch", "lfilter", "lfilter_zi", "filtfilt", "sosfilt",
           "sosfilt_zi", "sosfiltfilt", "iirfilter", "butter", "cheby1", "cheby2", "ellip",
           "bessel", "savgol_coeffs", "savgol_filter", "buttord", "cheb1ord", "cheb2ord",
           "ellipord", "iirdesign",
           "windows", "get_window", "hilbert", "hilbert2", "firwin", "firwin2", "kaiser_beta",
           "kaiser_atten", "kaiserord", "freqz", "freqz_sos", "sosfreqz", "freqz_zpk",
           "group_delay", "chirp", "sawtooth", "square", "gausspulse", "unit_impulse",
           "correlation_lags", "upfirdn", "resample_poly", "resample", "decimate",
           "periodogram", "spectrogram", "coherence", "medfilt", "medfilt2d", "wiener",
           "lfiltic", "deconvolve", "find_peaks", "peak_prominences", "peak_widths",
           "argrelextrema", "argrelmax", "argrelmin", "normalize", "tf2zpk", "zpk2tf",
           "tf2sos", "sos2tf", "zpk2sos", "sos2zpk", "bilinear", "bilinear_zpk", "lp2lp",
           "lp2hp", "lp2lp_zpk", "lp2hp_zpk", "lp2bp_zpk", "lp2bs_zpk", "iirnotch",
           "iirpeak", "lp2bp", "lp2bs",
           "czt", "zoom_fft", "czt_points", "CZT", "ZoomFFT",
           "ShortTimeFFT", "closest_STFT_dual_window", "check_COLA", "check_NOLA",
           "lombscargle", "envelope", "oaconvolve", "choose_conv_method",
           "firls", "remez", "minimum_phase", "max_len_seq", "vectorstrength", "sweep_poly",
           "gammatone", "iircomb", "cspline1d", "qspline1d", "cspline2d", "qspline2d",
           "spline_filter", "gauss_spline", "symiirorder1", "symiirorder2", "sepfir2d",
           "order_filter", "cspline1d_eval", "qspline1d_eval", "find_peaks_cwt", "firwin_2d",
           "band_stop_obj",
           "tf2ss", "ss2tf", "zpk2ss", "ss2zpk", "abcd_normalize", "cont2discrete", "lti",
           "dlti", "StateSpace", "TransferFunction", "ZerosPolesGain", "lsim", "step",
           "impulse", "dlsim", "dstep", "dimpulse", "freqresp", "dfreqresp", "bode", "dbode",
           "freqs", "freqs_zpk", "findfreqs", "residue", "residuez", "invres", "invresz",
           "unique_roots", "place_poles", "buttap", "cheb1ap", "cheb2ap", "ellipap",
           "besselap", "BadCoefficients"]  # (SciPy's warning: __getattr__ loads it)

_MODES = ("full", "same", "valid")


def _inputs(name: str, in1: ArrayLike, in2: ArrayLike, mode: str) -> tuple[Array, Array]:
    if mode not in _MODES:
        raise ValueError(f"{name}: mode must be one of {_MODES}, got {mode!r}")
    in1, in2 = asarray(in1), asarray(in2)
    if in1.ndim != in2.ndim:
        raise ValueError(f"{name}: in1 and in2 should have the same dimensionality, got "
                         f"shapes {in1.shape} and {in2.shape}")
    if in1.size == 0 or in2.size == 0:
        raise ValueError(f"{name}: in1 and in2 must not be empty")
    dtype = np.result_type(in1.dtype, in2.dtype, np.float64 if in1.dtype.kind in "biu"
                           and in2.dtype.kind in "biu" else in1.dtype)
    if mode == "valid":
        s1, s2 = in1.shape, in2.shape
        if not (all(a >= b for a, b in zip(s1, s2)) or all(b >= a for a, b in zip(s1, s2))):
            raise ValueError(f"{name}: for 'valid' mode, one must be at least as large as "
                             f"the other in every dimension (shapes {s1} and {s2})")
    return fnp.astype(in1, dtype), fnp.astype(in2, dtype)


def _shape_out(mode, s1, s2):
    if mode == "full":
        return tuple(a + b - 1 for a, b in zip(s1, s2))
    if mode == "same":
        return tuple(s1)
    return tuple(max(a, b) - min(a, b) + 1 for a, b in zip(s1, s2))


def _centered(full, shape):
    start = [(f - s) // 2 for f, s in zip(full.shape, shape)]
    return full[tuple(slice(b, b + s) for b, s in zip(start, shape))]


def _full_direct(x, k):
    """The full n-d convolution of ``x`` with the (smaller) kernel ``k``."""
    nd = x.ndim
    padded = fnp.pad(x, [(m - 1, m - 1) for m in k.shape])
    windows = padded
    for d, m in enumerate(k.shape):  # axis d -> (output length, m) at the end
        length = x.shape[d] + m - 1
        idx = np.arange(length)[:, None] + np.arange(m)[None, :]
        windows = fnp.take(windows, idx, axis=2 * d)  # earlier axes are already split
    # windows axes: (L0, m0, L1, m1, ...); contract the m's with the flipped kernel
    flipped = fnp.flip(k, axis=tuple(range(nd))) if nd else k
    out_axes = tuple(range(0, 2 * nd, 2))
    win_axes = tuple(range(1, 2 * nd, 2))
    windows = fnp.transpose(windows, out_axes + win_axes)
    return fnp.tensordot(windows, flipped, axes=nd)


def convolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto") -> Array:
    """The n-dimensional convolution of ``in1`` and ``in2`` (``scipy.signal.convolve``),
    ``mode`` 'full', 'same' (``in1``'s shape, centred) or 'valid'; differentiable in both.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.convolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    if method not in ("auto", "direct", "fft"):
        raise ValueError(f"convolve: method must be 'auto', 'direct' or 'fft', got "
                         f"{method!r}")
    if method == "fft":
        return fftconvolve(in1, in2, mode)
    in1, in2 = _inputs("convolve", in1, in2, mode)
    if in1.ndim == 0:
        return in1 * in2
    x, k = (in1, in2) if in1.size >= in2.size else (in2, in1)
    full = _full_direct(x, k)
    return _centered(full, _shape_out(mode, in1.shape, in2.shape))


def correlate(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto"
              ) -> Array:
    """The n-dimensional cross-correlation ``z[k] = sum_l in1[l] * conj(in2[l - k + N-1])``
    (``scipy.signal.correlate``): ``convolve(in1, flip(conj(in2)), mode)``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.correlate(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5]))
    array([0.5, 2. , 3.5, 3. , 0. ])
    """
    in1, in2 = asarray(in1), asarray(in2)
    rev = fnp.flip(fnp.conj(in2) if in2.dtype.kind == "c" else in2,
                   axis=tuple(range(in2.ndim))) if in2.ndim else in2
    if mode not in _MODES:
        raise ValueError(f"correlate: mode must be one of {_MODES}, got {mode!r}")
    return convolve(in1, rev, mode, method)


def fftconvolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full",
                axes: Optional[Union[int, Sequence[int]]] = None) -> Array:
    """The convolution of ``in1`` and ``in2`` through the FFT (``scipy.signal.fftconvolve``)
    over ``axes`` (default all; the other axes must match or be 1, and broadcast); values
    to FFT rounding (relative to the largest output), differentiable in both.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.fftconvolve(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 0.5])), 12) + 0.0
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    in1, in2 = _inputs("fftconvolve", in1, in2, "full" if mode != "valid" else mode)
    if mode not in _MODES:
        raise ValueError(f"fftconvolve: mode must be one of {_MODES}, got {mode!r}")
    nd = in1.ndim
    if nd == 0:
        return in1 * in2
    if axes is None:
        axes = tuple(range(nd))
    else:
        axes = tuple(sorted({a % nd for a in np.atleast_1d(axes).tolist()}))
    for d in range(nd):
        if d not in axes and in1.shape[d] != in2.shape[d] and 1 not in (in1.shape[d],
                                                                           in2.shape[d]):
            raise ValueError(f"fftconvolve: incompatible shapes for in1 {in1.shape} and in2 "
                             f"{in2.shape} along axis {d}, which is not convolved")
    s = [in1.shape[a] + in2.shape[a] - 1 for a in axes]
    if in1.dtype.kind == "c":
        full = fnp.fft.ifftn(fnp.fft.fftn(in1, s, axes) * fnp.fft.fftn(in2, s, axes), s, axes)
    else:
        full = fnp.fft.irfftn(fnp.fft.rfftn(in1, s, axes) * fnp.fft.rfftn(in2, s, axes), s,
                              axes)
        full = fnp.astype(full, in1.dtype)
    shape = list(full.shape)
    for a in axes:
        shape[a] = _shape_out(mode, (in1.shape[a],), (in2.shape[a],))[0]
    return _centered(full, shape)


# --- 2-d, with SciPy's boundary conditions ----------------------------------------------

_BOUNDARIES = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
               "symm": "symmetric", "symmetric": "symmetric"}


def _two_d(name, in1, in2, mode, boundary):
    in1, in2 = asarray(in1), asarray(in2)
    if in1.ndim != 2 or in2.ndim != 2:
        raise ValueError(f"{name}: in1 and in2 should be 2-d arrays, got {in1.ndim}-d and "
                         f"{in2.ndim}-d; for other dimensions use convolve/correlate")
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"{name}: mode must be 'full', 'same' or 'valid', got {mode!r}")
    if boundary not in _BOUNDARIES:
        raise ValueError(f"{name}: boundary must be 'fill', 'wrap' or 'symm', got "
                         f"{boundary!r}")
    return in1, in2


def _convolve2d(in1, in2, mode, boundary, fillvalue, flipped=False):
    if mode == "valid":
        return convolve(in1, in2, mode)
    pads = [(m - 1, m - 1) for m in in2.shape]
    if _BOUNDARIES[boundary] == "constant":
        # (in1 - fillvalue padded with zeros, plus fillvalue: a traced fillvalue keeps its
        # derivative)
        extended = fnp.pad(in1 - fillvalue, pads) + fillvalue
    else:
        extended = fnp.pad(in1, pads, mode=_BOUNDARIES[boundary])
    full = convolve(extended, in2, "valid")
    if mode == "full":
        return full
    # 'same': the centre, rounded down for a convolution and up for a correlation (whose
    # kernel was turned), as SciPy's
    start = [(m - 1 + flipped) // 2 for m in in2.shape]
    return full[start[0]:start[0] + in1.shape[0], start[1]:start[1] + in1.shape[1]]


def convolve2d(in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill",
               fillvalue: Union[float, ArrayLike] = 0) -> Array:
    """The 2-d convolution of ``in1`` and ``in2`` (``scipy.signal.convolve2d``), ``in1``
    extended past its edges as ``boundary`` says ('fill' with ``fillvalue``, 'wrap',
    'symm'); ``mode`` 'full', 'same' or 'valid'.  Differentiable in both.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.convolve2d(np.array([[1.0, 2.0], [3.0, 4.0]]), np.ones((2, 2)), boundary="wrap")
    array([[10., 10., 10.],
           [10., 10., 10.],
           [10., 10., 10.]])
    """
    in1, in2 = _two_d("convolve2d", in1, in2, mode, boundary)
    return _convolve2d(in1, in2, mode, boundary, fillvalue)


def correlate2d(in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill",
                fillvalue: Union[float, ArrayLike] = 0) -> Array:
    """The 2-d cross-correlation of ``in1`` and ``in2`` (``scipy.signal.correlate2d``):
    ``convolve2d`` with ``in2`` turned half a turn and conjugated.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.correlate2d(np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[1.0, 0.0]]))
    array([[0., 1., 2.],
           [0., 3., 4.]])
    """
    in1, in2 = _two_d("correlate2d", in1, in2, mode, boundary)
    rev = fnp.flip(fnp.conj(in2) if in2.dtype.kind == "c" else in2, axis=(0, 1))
    return _convolve2d(in1, rev, mode, boundary, fillvalue, flipped=True)


def __getattr__(name: str) -> Any:
    # SciPy's warning class, which normalize and the conversions warn with: loaded with
    # SciPy, on first use (importing funcgrad never loads SciPy)
    if name == "BadCoefficients":
        from scipy.signal import BadCoefficients
        return BadCoefficients
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
