"""FIR design and frequency responses for :mod:`funcgrad.scipy.signal` (re-exported
there): ``firwin``, ``firwin2``, ``kaiser_beta``, ``kaiser_atten``, ``kaiserord``,
``freqz``, ``freqz_sos`` (and its older name ``sosfreqz``), ``freqz_zpk``,
``group_delay``, ``hilbert`` and ``hilbert2``, with SciPy's signatures and values.

``firwin`` is the windowed sum of sincs of SciPy, written with funcgrad operations so
the taps differentiate in the cutoffs (and in the window's parameters); which band ends
at 0 or at Nyquist is decided by ``pass_zero`` and the number of cutoffs, not by their
values, so the derivative is the one of the formula.  ``firwin2`` interpolates the gains
onto a uniform grid (a fixed linear map: differentiable in ``gain``, the frequencies
are plain numbers) and takes an inverse real FFT.  The responses evaluate the
polynomials on the unit circle (``freqz`` through the FFT where SciPy does), so they
differentiate in the coefficients, roots and gain.
"""
import operator
from typing import Any, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._signalmore_getwindow import get_window

__all__ = ["kaiser_beta", "kaiser_atten", "kaiserord", "firwin", "firwin2", "freqz",
           "freqz_sos", "sosfreqz", "freqz_zpk", "group_delay", "hilbert", "hilbert2"]

_PASS_ZERO = {"lowpass": True, "bandstop": True, "highpass": False, "bandpass": False}


def kaiser_beta(a: ArrayLike) -> Any:
    """The Kaiser window's ``beta`` for a stop-band attenuation of ``a`` dB
    (``scipy.signal.kaiser_beta``, Kaiser's empirical formula); differentiable in ``a``.

    >>> import funcgrad.scipy.signal as fss
    >>> round(float(fss.kaiser_beta(65.0)), 6)
    6.20426
    """
    av = float(concrete_values(a, "kaiser_beta (which piece of Kaiser's formula applies)",
                               "Pass a as a plain number."))
    if av > 50:
        return 0.1102 * (a - 8.7)
    if av > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0 * a


def kaiser_atten(numtaps: int, width: ArrayLike) -> Any:
    """The attenuation in dB of a Kaiser FIR filter of ``numtaps`` taps and transition
    width ``width`` (a fraction of Nyquist): ``2.285 (numtaps - 1) pi width + 7.95``
    (``scipy.signal.kaiser_atten``).

    >>> import funcgrad.scipy.signal as fss
    >>> round(float(fss.kaiser_atten(211, 0.0375)), 4)
    64.481
    """
    return 2.285 * (numtaps - 1) * np.pi * width + 7.95


def kaiserord(ripple: float, width: float) -> tuple[int, Any]:
    """The number of taps and the ``beta`` of a Kaiser-window FIR filter with
    ``ripple`` dB of ripple and a transition of ``width`` (a fraction of Nyquist)
    (``scipy.signal.kaiserord``).

    >>> import funcgrad.scipy.signal as fss
    >>> n, beta = fss.kaiserord(65.0, 0.05)
    >>> n, round(float(beta), 6)
    (160, 6.20426)
    """
    A = abs(ripple)
    if A < 8:
        raise ValueError(f"Requested maximum ripple attenuation {A:f} is too small for the "
                         f"Kaiser formula.")
    beta = kaiser_beta(A)
    numtaps = (A - 7.95) / 2.285 / (np.pi * width) + 1
    return int(np.ceil(concrete_values(numtaps, "kaiserord's number of taps",
                                       "Pass ripple and width as plain numbers."))), beta


def _fs(name, fs, default):
    if fs is None:
        return default
    if isinstance(fs, Tracer) or np.ndim(fs) != 0 or not np.isfinite(fs) or fs <= 0:
        raise ValueError(f"{name}: sampling frequency fs must be a single positive finite "
                         f"number, got {fs!r}")
    return float(fs)


def _numtaps(name, numtaps):
    try:
        n = operator.index(numtaps)
    except TypeError:
        raise ValueError(f"{name}: numtaps must be a positive integer, got "
                         f"{numtaps!r}") from None
    if n < 1:
        raise ValueError(f"{name}: numtaps must be at least 1, got {n}")
    return n


def firwin(numtaps: int, cutoff: ArrayLike, *, width: Optional[float] = None,
           window: Union[str, tuple, float] = "hamming", pass_zero: Union[bool, str] = True,
           scale: bool = True, fs: Optional[float] = None) -> Array:
    """A linear-phase FIR filter of ``numtaps`` taps by the window method
    (``scipy.signal.firwin``): pass bands between the ``cutoff`` frequencies (in the
    units of ``fs``, default 2 so that Nyquist is 1), the first band passing DC if
    ``pass_zero``, windowed by ``window`` (or a Kaiser window for the transition
    ``width``) and scaled to unit gain at the centre of the first pass band.
    Differentiable in ``cutoff`` (and the window's parameters).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.firwin(5, 0.5), 6) + 0.0
    array([0.      , 0.203712, 0.592575, 0.203712, 0.      ])
    """
    numtaps = _numtaps("firwin", numtaps)
    nyq = 0.5 * _fs("firwin", fs, 2.0)
    cutoff = asarray(cutoff)
    if cutoff.ndim > 1:
        raise ValueError("The cutoff argument must be at most one-dimensional.")
    cutoff = fnp.reshape(cutoff, (-1,)) / nyq
    if cutoff.shape[0] == 0:
        raise ValueError("At least one cutoff frequency must be given.")
    values = concrete_values(cutoff, "firwin's check of the cutoffs",
                             "Pass cutoff as plain numbers.")
    if values.min() <= 0 or values.max() >= 1:
        raise ValueError("Invalid cutoff frequency: frequencies must be greater than 0 and "
                         "less than fs/2.")
    if np.any(np.diff(values) <= 0):
        raise ValueError("Invalid cutoff frequencies: the frequencies must be strictly "
                         "increasing.")
    if width is not None:
        window = ("kaiser", kaiser_beta(kaiser_atten(numtaps, float(width) / nyq)))
    if isinstance(pass_zero, str):
        if pass_zero not in _PASS_ZERO:
            raise ValueError(f"pass_zero must be True, False, 'bandpass', 'lowpass', "
                             f"'highpass', or 'bandstop', got {pass_zero}")
        if pass_zero in ("lowpass", "highpass") and cutoff.shape[0] != 1:
            raise ValueError(f"cutoff must have one element if pass_zero=={pass_zero!r}, "
                             f"got {cutoff.shape}")
        if pass_zero in ("bandpass", "bandstop") and cutoff.shape[0] < 2:
            raise ValueError(f"cutoff must have at least two elements if "
                             f"pass_zero=={pass_zero!r}, got {cutoff.shape}")
        pass_zero = _PASS_ZERO[pass_zero]
    elif not isinstance(pass_zero, (bool, np.bool_)):
        raise ValueError(f"pass_zero must be True, False, 'bandpass', 'lowpass', "
                         f"'highpass', or 'bandstop', got {pass_zero}")
    pass_zero = bool(pass_zero)
    pass_nyquist = bool(cutoff.shape[0] & 1) ^ pass_zero
    if pass_nyquist and numtaps % 2 == 0:
        raise ValueError("A filter with an even number of coefficients must have zero "
                         "response at the Nyquist frequency.")
    edges = fnp.concatenate([np.zeros(int(pass_zero)), cutoff, np.ones(int(pass_nyquist))])
    m = np.arange(0, numtaps) - 0.5 * (numtaps - 1)
    h: Any = 0.0
    for j in range(0, edges.shape[0], 2):
        left, right = edges[j], edges[j + 1]
        h = h + right * fnp.sinc(right * m) - left * fnp.sinc(left * m)
    h = h * get_window(window, numtaps, fftbins=False)
    if scale:
        if pass_zero:
            middle = 0.0  # (the first band starts at DC)
        elif cutoff.shape[0] == 1:
            middle = 1.0  # (a high-pass: its band ends at Nyquist)
        else:
            middle = 0.5 * (edges[0] + edges[1])
        h = h / fnp.sum(h * fnp.cos(np.pi * m * middle))
    return h


def firwin2(numtaps: int, freq: ArrayLike, gain: ArrayLike, *, nfreqs: Optional[int] = None,
            window: Union[str, tuple, float, None] = "hamming", antisymmetric: bool = False,
            fs: Optional[float] = None) -> Array:
    """An FIR filter of ``numtaps`` taps whose gain is ``gain`` at the frequencies
    ``freq`` (from 0 to ``fs/2``, linear between them), by the frequency sampling method
    (``scipy.signal.firwin2``).  Differentiable in ``gain`` (the frequencies decide the
    interpolation, and are plain numbers).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.firwin2(5, [0.0, 0.5, 1.0], [1.0, 1.0, 0.0]), 6)
    array([-0.008536,  0.110844,  0.75    ,  0.110844, -0.008536])
    """
    numtaps = _numtaps("firwin2", numtaps)
    nyq = 0.5 * _fs("firwin2", fs, 2.0)
    if isinstance(freq, Tracer):
        raise TypeError("firwin2: freq is a traced value, but the frequencies decide the "
                        "interpolation grid; pass them as plain numbers (gain is "
                        "differentiable)")
    nodes: Any = np.asarray(freq, dtype=np.float64)
    gain = asarray(gain)
    if nodes.ndim != 1 or gain.ndim != 1 or nodes.shape[0] != gain.shape[0]:
        raise ValueError("freq and gain must be of same length.")
    if nfreqs is not None and numtaps >= nfreqs:
        raise ValueError(f"ntaps must be less than nfreqs, but firwin2 was called with "
                         f"ntaps={numtaps} and nfreqs={nfreqs}")
    if nodes[0] != 0 or nodes[-1] != nyq:
        raise ValueError("freq must start with 0 and end with fs/2.")
    d = np.diff(nodes)
    if (d < 0).any():
        raise ValueError("The values in freq must be nondecreasing.")
    if ((d[:-1] + d[1:]) == 0).any():
        raise ValueError("A value in freq must not occur more than twice.")
    if nodes[1] == 0:
        raise ValueError("Value 0 must not be repeated in freq")
    if nodes[-2] == nyq:
        raise ValueError("Value fs/2 must not be repeated in freq")
    ftype = (3 if numtaps % 2 else 4) if antisymmetric else (1 if numtaps % 2 else 2)
    ends = concrete_values(gain[np.array([0, -1])], "firwin2's check of the end gains",
                           "Pass gain as plain numbers.")
    if ftype == 2 and ends[1] != 0.0:
        raise ValueError("A Type II filter must have zero gain at the Nyquist frequency.")
    if ftype == 3 and (ends[0] != 0.0 or ends[1] != 0.0):
        raise ValueError("A Type III filter must have zero gain at zero and Nyquist "
                         "frequencies.")
    if ftype == 4 and ends[0] != 0.0:
        raise ValueError("A Type IV filter must have zero gain at zero frequency.")
    if nfreqs is None:
        nfreqs = 1 + 2 ** int(np.ceil(np.log2(numtaps)))
    if (d == 0).any():  # (a step: its two points moved apart by a rounding, as SciPy's)
        nodes = nodes.copy()
        eps = np.finfo(float).eps * nyq
        for k in range(len(nodes) - 1):
            if nodes[k] == nodes[k + 1]:
                nodes[k] = nodes[k] - eps
                nodes[k + 1] = nodes[k + 1] + eps
        if (np.diff(nodes) <= 0).any():
            raise ValueError(f"freq cannot contain numbers that are too close (within eps "
                             f"* (fs/2): {eps}) to a repeated value")
    x = np.linspace(0.0, nyq, nfreqs)
    # the linear interpolation is linear in the gains: its matrix, column j the
    # interpolant of the j-th unit vector
    interp = np.stack([np.interp(x, nodes, e) for e in np.eye(nodes.shape[0])], axis=1)
    fx = fnp.tensordot(interp, gain, axes=1)
    shift = np.exp(-(numtaps - 1) / 2. * 1.j * np.pi * x / nyq)
    if ftype > 2:
        shift = shift * 1j
    out = fnp.fft.irfft(fx * shift)[:numtaps]
    if window is not None:
        out = out * get_window(window, numtaps, fftbins=False)
    if ftype == 3:
        out = out * (np.arange(numtaps) != numtaps // 2)
    return out


def _grid(name, worN, whole, fs, include_nyquist=False):
    """The angular frequencies of a response (radians per sample), and whether they are
    SciPy's FFT grid of ``N`` points (``n_fft``), else None."""
    fs = _fs(name, fs, 2 * np.pi)
    if worN is None:
        worN = 512
    if isinstance(worN, (int, np.integer)) and not isinstance(worN, bool):
        N = int(worN)
        if N < 0:
            raise ValueError(f"worN must be nonnegative, got {N}")
        last = 2 * np.pi if whole else np.pi
        w = np.linspace(0, last, N, endpoint=include_nyquist and not whole)
        n_fft = N if whole else (2 * (N - 1) if include_nyquist else 2 * N)
        return w, fs, n_fft
    if isinstance(worN, Tracer):
        raise TypeError(f"{name}: worN is a traced value; the frequencies are plain numbers "
                        f"(the response differentiates in the filter)")
    return 2 * np.pi * np.atleast_1d(np.asarray(worN, dtype=np.float64)) / fs, fs, None


def _powers(w, n, sign=-1):
    """``exp(sign j w k)`` for ``k = 0 .. n-1``: row i evaluates a polynomial in
    ``z^sign`` at ``z = exp(j w_i)`` by a product with its coefficients."""
    return np.exp(sign * 1j * w[:, None] * np.arange(n)[None, :])


def freqz(b: ArrayLike, a: ArrayLike = 1, worN: Any = 512, whole: bool = False,
          plot: Any = None, fs: float = 2 * np.pi, include_nyquist: bool = False
          ) -> tuple[Array, Array]:
    """The frequency response ``H(e^{jw}) = B(e^{-jw}) / A(e^{-jw})`` of a digital filter
    (``scipy.signal.freqz``): ``(w, h)``, ``w`` in the units of ``fs`` (radians per
    sample by default), ``worN`` frequencies (a count, or the frequencies themselves).
    Differentiable in ``b`` and ``a``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, h = fss.freqz([0.5, 0.5], worN=3)
    >>> np.round(np.abs(h), 6)
    array([1.      , 0.866025, 0.5     ])
    """
    if plot is not None:
        raise ValueError("freqz: plot is not supported; plot (w, h) yourself")
    b, a = fnp.atleast_1d(asarray(b)), fnp.atleast_1d(asarray(a))
    if b.ndim != 1 or a.ndim != 1:
        raise ValueError(f"freqz: b and a must be 1-d coefficient sequences (got shapes "
                         f"{b.shape} and {a.shape}); for several filters, vmap over them")
    w, fs, n_fft = _grid("freqz", worN, whole, fs, include_nyquist)
    if n_fft is not None and a.shape[0] == 1 and n_fft >= b.shape[0] and n_fft > 0:
        N = w.shape[0]
        if b.dtype.kind != "c" and a.dtype.kind != "c":
            h = fnp.fft.rfft(b, n=n_fft)[:N]
            if whole:
                stop = -1 if n_fft % 2 == 1 else -2
                h = fnp.concatenate([h, fnp.conj(h[stop:0:-1])])
        else:
            h = fnp.fft.fft(b, n=n_fft)[:N]
        h = h / a
    else:
        h = (fnp.tensordot(_powers(w, b.shape[0]), b, axes=1)
             / fnp.tensordot(_powers(w, a.shape[0]), a, axes=1))
    return w * (fs / (2 * np.pi)), h


def freqz_sos(sos: ArrayLike, worN: Any = 512, whole: bool = False, fs: float = 2 * np.pi
              ) -> tuple[Array, Array]:
    """The frequency response of second-order sections (``scipy.signal.freqz_sos``):
    the product of the sections' ``freqz``.  Differentiable in ``sos``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, h = fss.freqz_sos([[0.5, 0.5, 0.0, 1.0, 0.0, 0.0]], worN=3)
    >>> np.round(np.abs(h), 6)
    array([1.      , 0.866025, 0.5     ])
    """
    sos = asarray(sos)
    if sos.ndim != 2 or sos.shape[1] != 6:
        raise ValueError("sos array must be shape (n_sections, 6)")
    if sos.shape[0] == 0:
        raise ValueError("Cannot compute frequencies with no sections")
    leading = concrete_values(sos[:, 3], "freqz_sos's check of the sections",
                              "Pass the sections as plain numbers.")
    if not np.all(leading == 1):
        raise ValueError("sos[:, 3] should be all ones (normalize each section by its a0)")
    h: Any = 1.0
    for row in range(sos.shape[0]):
        w, section = freqz(sos[row, :3], sos[row, 3:], worN=worN, whole=whole, fs=fs)
        h = h * section
    return w, h


def sosfreqz(sos: ArrayLike, worN: Any = 512, whole: bool = False, fs: float = 2 * np.pi
             ) -> tuple[Array, Array]:
    """The older name of :func:`freqz_sos` (``scipy.signal.sosfreqz``).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, h = fss.sosfreqz([[0.5, 0.5, 0.0, 1.0, 0.0, 0.0]], worN=2)
    >>> np.round(np.abs(h), 6)
    array([1.      , 0.707107])
    """
    return freqz_sos(sos, worN=worN, whole=whole, fs=fs)


def _vector(x: ArrayLike) -> Any:
    return fnp.atleast_1d(asarray(x))


def freqz_zpk(z: ArrayLike, p: ArrayLike, k: ArrayLike, worN: Any = 512, whole: bool = False,
              fs: float = 2 * np.pi) -> tuple[Array, Array]:
    """The frequency response of a filter given by its zeros, poles and gain
    (``scipy.signal.freqz_zpk``): ``k prod(e^{jw} - z) / prod(e^{jw} - p)``.
    Differentiable in ``z``, ``p`` and ``k``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, h = fss.freqz_zpk([-1.0], [0.0], 0.5, worN=3)
    >>> np.round(np.abs(h), 6)
    array([1.      , 0.866025, 0.5     ])
    """
    zeros, poles = _vector(z), _vector(p)
    if zeros.ndim != 1 or poles.ndim != 1:
        raise ValueError(f"freqz_zpk: z and p must be 1-d (got shapes {zeros.shape} and "
                         f"{poles.shape})")
    w, fs, _ = _grid("freqz_zpk", worN, whole, fs)
    unit = np.exp(1j * w)[:, None]
    h = (k * fnp.prod(unit - zeros[None, :], axis=1)
         / fnp.prod(unit - poles[None, :], axis=1))
    return w * (fs / (2 * np.pi)), h


def _horner(c, z):
    """``sum_k c[k] z^k`` by Horner's rule from the highest power (``np.polyval``'s order,
    so that near a zero of the response the rounding is SciPy's)."""
    total = 0.0
    for k in range(c.shape[0] - 1, -1, -1):
        total = total * z + c[k]
    return total


def group_delay(system: Sequence[ArrayLike], w: Any = 512, whole: bool = False,
                fs: float = 2 * np.pi) -> tuple[Array, Array]:
    """The group delay ``-d(phase)/dw`` of the filter ``system = (b, a)`` in samples
    (``scipy.signal.group_delay``): ``(w, gd)``.  Where the response is zero the delay
    is undefined: it is set to 0 there, with a warning, as SciPy's.  Differentiable in
    ``b`` and ``a``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, gd = fss.group_delay(([1.0, 2.0, 1.0], [1.0]), w=3)
    >>> np.round(gd, 6)
    array([1., 1., 1.])
    """
    import warnings

    w, fs, _ = _grid("group_delay", w, whole, fs)
    b, a = (fnp.atleast_1d(asarray(c)) for c in system)
    c = fnp.convolve(b, fnp.conj(a[::-1]) if a.dtype.kind == "c" else a[::-1])
    cr = c * np.arange(c.shape[0])
    z = np.exp(-1j * w)
    num, den = _horner(cr, z), _horner(c, z)
    # (which frequencies are singular is a decision on the values: not under jit/vmap)
    num_values, den_values = (concrete_values(v, "group_delay's check for zeros of the "
                                              "response", "Pass plain coefficients.")
                              for v in (num, den))
    with np.errstate(divide="ignore", invalid="ignore"):
        singular = ~np.isfinite(num_values / den_values)
    if singular.any():
        warnings.warn(f"The group delay is singular at frequencies "
                      f"[{', '.join(f'{v:.3f}' for v in w[singular])}], setting to 0",
                      stacklevel=2)
        den = fnp.where(singular, 1.0, den)
    elif (np.abs(den_values) < 10 * np.finfo(np.float64).eps).any():
        warnings.warn("The filter's denominator is extremely small at some frequencies: "
                      "the group delay there is inaccurate", stacklevel=2)
    gd = fnp.where(singular, 0.0, fnp.real(num / den) - a.shape[0] + 1)
    return w * (fs / (2 * np.pi)), gd


def _real_dtype(x):
    """The multiplier's dtype: float32 keeps the transform in complex64."""
    return np.float32 if x.dtype == np.float32 else np.float64


def _real_input(x):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise ValueError("x must be real.")
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    return x


def hilbert(x: ArrayLike, N: Optional[int] = None, axis: int = -1) -> Array:
    """The analytic signal ``x + j H(x)`` of the real signal ``x`` along ``axis``,
    through the FFT (``scipy.signal.hilbert``): the negative frequencies zeroed and the
    positive ones doubled, over ``N`` points (default ``x``'s length).  Differentiable in
    ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.hilbert(np.array([1.0, 0.0, -1.0, 0.0])), 6)
    array([ 1.+0.j,  0.+1.j, -1.+0.j,  0.-1.j])
    """
    x = _real_input(x)
    if N is None:
        N = x.shape[axis]
    if N <= 0:
        raise ValueError("N must be positive.")
    h = np.zeros(N, dtype=_real_dtype(x))
    h[0] = 1.0
    if N % 2 == 0:
        h[N // 2] = 1.0
    h[1:(N + 1) // 2] = 2.0
    shape = [1] * x.ndim
    shape[axis] = N
    return fnp.fft.ifft(fnp.fft.fft(x, N, axis=axis) * h.reshape(shape), axis=axis)


def hilbert2(x: ArrayLike, N: Union[int, tuple[int, int], None] = None,
             axes: tuple[int, int] = (-2, -1)) -> Array:
    """The 2-d analytic signal of the real ``x`` over ``axes`` (``scipy.signal.hilbert2``):
    its 2-d spectrum kept in the first quadrant of positive frequencies (doubled along
    each axis), over ``N`` points per axis.  Differentiable in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.hilbert2(np.array([[1.0, 0.0], [0.0, 0.0]])), 6)
    array([[0.25+0.j, 0.25+0.j],
           [0.25+0.j, 0.25+0.j]])
    """
    x = _real_input(x)
    if x.ndim < 2:
        x = fnp.reshape(x, (1,) * (2 - x.ndim) + x.shape)
    if len(axes) != 2:
        raise ValueError("axes must be a tuple of length 2")
    axes = (axes[0] % x.ndim, axes[1] % x.ndim)
    if axes[0] == axes[1]:
        raise ValueError("axes must contain 2 distinct axes")
    if N is None:
        N = (x.shape[axes[0]], x.shape[axes[1]])
    elif isinstance(N, (int, np.integer)):
        if N <= 0:
            raise ValueError("N must be positive.")
        N = (int(N), int(N))
    elif len(N) != 2 or np.any(np.asarray(N) <= 0):
        raise ValueError("When given as a tuple, N must hold exactly two positive integers")
    h: Any = 1.0
    for ax, n in zip(axes, N):
        k = (n + 1) // 2
        factor = np.zeros(n, dtype=_real_dtype(x))
        factor[0] = 1.0
        factor[1:k] = 2.0
        shape = [1] * x.ndim
        shape[ax] = n
        h = h * factor.reshape(shape)
    return fnp.fft.ifft2(fnp.fft.fft2(x, N, axes=axes) * h, axes=axes)
