"""Sequences, waveforms and small filter designs for :mod:`funcgrad.scipy.signal`
(re-exported there): ``max_len_seq``, ``vectorstrength``, ``sweep_poly``, ``gammatone``
and ``iircomb``, with SciPy's signatures and values.

``vectorstrength`` differentiates in the event times and the periods, ``sweep_poly`` in
the times, the polynomial's coefficients and ``phi``, ``gammatone`` in the centre
frequency (both types: the IIR coefficients are closed forms in it), ``iircomb`` in the
quality factor ``Q`` (its frequency ``w0`` must divide ``fs`` exactly, so it only takes
isolated values: it is a plain number).  ``max_len_seq`` is an integer sequence, computed
by SciPy.
"""
import math
import operator
import warnings
from typing import Any, Optional, Tuple

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike

__all__ = ["max_len_seq", "vectorstrength", "sweep_poly", "gammatone", "iircomb"]


def max_len_seq(nbits: int, state: Optional[ArrayLike] = None, length: Optional[int] = None,
                taps: Optional[ArrayLike] = None) -> Tuple[np.ndarray, np.ndarray]:
    """A maximum length sequence of ``nbits`` bits (``scipy.signal.max_len_seq``), from
    a linear feedback shift register: ``(seq, state)``, ``seq`` of 0s and 1s (int8) and
    the register's final state.  Computed by SciPy (integers: no derivative).

    >>> import funcgrad.scipy.signal as fss
    >>> fss.max_len_seq(3)[0]
    array([1, 1, 1, 0, 1, 0, 0], dtype=int8)
    """
    import scipy.signal  # (here: importing funcgrad never loads SciPy)
    if state is not None:
        state = concrete_values(asarray(state), "max_len_seq's state", "Pass a plain array.")
    return scipy.signal.max_len_seq(nbits, state, length, taps)


def vectorstrength(events: ArrayLike, period: ArrayLike) -> Tuple[Array, Array]:
    """The vector strength and phase of the ``events`` (times) for each ``period``
    (``scipy.signal.vectorstrength``): the length and angle of the mean of
    ``exp(2 pi i events / period)``.  Differentiable in ``events`` and ``period``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> strength, phase = fss.vectorstrength(np.array([0.0, 1.0, 2.0, 3.25]), 1.0)
    >>> round(float(strength), 12), round(float(phase), 12)
    (0.790569415042, 0.321750554397)
    """
    events, period = asarray(events), asarray(period)
    if period.dtype.kind in "biu":
        period = fnp.astype(period, np.float64)
    if events.ndim > 1:
        raise ValueError(f"vectorstrength: events cannot have dimensions more than 1, got "
                         f"shape {events.shape}")
    if period.ndim > 1:
        raise ValueError(f"vectorstrength: period cannot have dimensions more than 1, got "
                         f"shape {period.shape}")
    values = concrete_values(period, "vectorstrength's check of the periods",
                             "Pass the periods as a plain array.")
    if np.any(values <= 0):
        raise ValueError("vectorstrength: periods must be positive")
    scalar = period.ndim == 0
    times = fnp.reshape(fnp.astype(events, period.dtype), (-1,))
    periods = fnp.reshape(period, (-1,))
    turns = times[None, :] / periods[:, None]
    # (the mean of the unit vectors, by its real and imaginary parts)
    x = fnp.mean(fnp.cos(2 * np.pi * turns), axis=1)
    y = fnp.mean(fnp.sin(2 * np.pi * turns), axis=1)
    strength, phase = fnp.sqrt(x * x + y * y), fnp.arctan2(y, x)
    return (strength[0], phase[0]) if scalar else (strength, phase)


def sweep_poly(t: ArrayLike, poly: Any, phi: ArrayLike = 0) -> Array:
    """A cosine whose frequency at time ``t`` is the polynomial ``poly(t)`` (coefficients,
    highest power first, or a ``numpy.poly1d``) (``scipy.signal.sweep_poly``):
    ``cos(2 pi integral(poly)(t) + phi)``, ``phi`` in degrees.  Differentiable in ``t``,
    the coefficients and ``phi``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.sweep_poly(np.array([0.0, 0.25, 0.5]), [2.0, 1.0]).round(6) + 0.0
    array([ 1.      , -0.382683,  0.      ])
    """
    if isinstance(poly, np.poly1d):
        poly = poly.coeffs
    coeffs = fnp.atleast_1d(asarray(poly))
    degree = coeffs.shape[0]
    t = asarray(t)
    # the integral's coefficients c_k / (k + 1) for the powers k + 1, its constant zero
    powers = np.arange(degree, 0, -1, dtype=np.float64)
    integral = coeffs / powers
    value = fnp.zeros_like(t * 1.0) if degree == 0 else integral[0] * fnp.ones_like(t * 1.0)
    for k in range(1, degree):
        value = value * t + integral[k]
    value = value * t
    return fnp.cos(2 * np.pi * value + phi * (np.pi / 180))


def _traced(name, **values):
    for label, value in values.items():
        if isinstance(value, Tracer):
            raise TypeError(f"{name}: {label} is a traced value, but it has no derivative "
                            f"here; pass it as a plain number")


def _positive_fs(name, fs):
    if isinstance(fs, Tracer) or np.ndim(fs) != 0 or not np.isfinite(fs) or fs <= 0:
        raise ValueError(f"{name}: sampling frequency fs must be a single positive finite "
                         f"number, got {fs!r}")
    return float(fs)


def _erb(freq):
    """The equivalent rectangular bandwidth of the ear at ``freq`` Hz (Glasberg and
    Moore)."""
    return freq / 9.26449 + 24.7


def gammatone(freq: ArrayLike, ftype: str, order: Optional[int] = None,
              numtaps: Optional[int] = None, fs: Optional[float] = None, *, xp: Any = None,
              device: Any = None) -> Tuple[Array, Array]:
    """The gammatone filter of centre frequency ``freq`` (``scipy.signal.gammatone``):
    ``ftype`` 'fir' (``numtaps`` taps of order ``order``, default 4) or 'iir' (the
    8th-order filter of Slaney's approximation).  ``(b, a)``, differentiable in ``freq``.
    ``xp`` and ``device`` are accepted for SciPy's signature.

    >>> import funcgrad.scipy.signal as fss
    >>> b, a = fss.gammatone(440.0, "iir", fs=16000.0)
    >>> b.shape, a.shape, round(float(a[1]), 6)
    ((5,), (9,), -7.656462)
    """
    name = "gammatone"
    fs = _positive_fs(name, 2 if fs is None else fs)
    freq = asarray(freq)
    value = float(concrete_values(freq, "gammatone's check of freq", "Pass a plain number."))
    if not 0 < value < fs / 2:
        raise ValueError(f"{name}: the frequency must be between 0 and {fs / 2} (Nyquist), "
                         f"but given {value}")
    ftype = ftype.lower()
    if ftype not in ("fir", "iir"):
        raise ValueError(f"{name}: ftype must be either fir or iir, got {ftype!r}")
    freq = fnp.astype(freq, np.float64)
    if ftype == "fir":
        order = operator.index(4 if order is None else order)
        numtaps = operator.index(max(int(fs * 0.015), 15) if numtaps is None else numtaps)
        if not 0 < order <= 24:
            raise ValueError(f"{name}: invalid order {order}: order must be > 0 and <= 24")
        t = np.arange(numtaps, dtype=np.float64) / fs
        bw = 1.019 * _erb(freq)
        b = t ** (order - 1) * fnp.exp(-2 * np.pi * bw * t) * fnp.cos(2 * np.pi * freq * t)
        scale = 2 * (2 * np.pi * bw) ** order / math.factorial(order - 1) / fs
        return b * scale, np.array([1.0])
    if order is not None:
        warnings.warn("order is not used for IIR gammatone filter.", stacklevel=2)
    if numtaps is not None:
        warnings.warn("numtaps is not used for IIR gammatone filter.", stacklevel=2)
    T = 1.0 / fs  # noqa: N806
    bw = 2 * np.pi * 1.019 * _erb(freq)
    fr = 2 * np.pi * freq * T
    decay = fnp.exp(-bw * T)  # (the poles' radius)
    g1 = -2 * fnp.exp(2j * fr) * T
    g2 = 2 * decay * fnp.exp(1j * fr) * T
    g3 = math.sqrt(3 + 2 ** 1.5) * fnp.sin(fr)
    g4 = math.sqrt(3 - 2 ** 1.5) * fnp.sin(fr)
    g5 = fnp.exp(2j * fr)
    cos = fnp.cos(fr)
    gain = ((g1 + g2 * (cos - g4)) * (g1 + g2 * (cos + g4)) * (g1 + g2 * (cos - g3))
            * (g1 + g2 * (cos + g3))
            / (-2 * decay ** 2 - 2 * g5 + 2 * (1 + g5) * decay) ** 4)
    gain = fnp.abs(gain)
    b = fnp.stack([T ** 4 * fnp.cos(k * fr) * decay ** k * c for k, c in
                   enumerate((1, -4, 6, -4, 1))]) / gain
    c1, c2, c3 = fnp.cos(fr), fnp.cos(2 * fr), fnp.cos(3 * fr)
    middle = [-8 * c1, 4 * (4 + 3 * c2), -8 * (6 * c1 + c3),
              2 * (18 + 16 * c2 + fnp.cos(4 * fr)), -8 * (6 * c1 + c3), 4 * (4 + 3 * c2),
              -8 * c1]
    a = fnp.stack([fnp.ones_like(fr)] + [m * decay ** (k + 1) for k, m in enumerate(middle)]
                  + [decay ** 8])
    return b, a


def iircomb(w0: float, Q: ArrayLike, ftype: str = "notch", fs: float = 2.0, *,  # noqa: N803
            pass_zero: bool = False, xp: Any = None, device: Any = None
            ) -> Tuple[Array, Array]:
    """The IIR comb filter ('notch' or 'peak') with teeth at multiples of ``w0``, which
    must divide ``fs``, and quality factor ``Q`` (``scipy.signal.iircomb``); ``pass_zero``
    puts a peak (or not a notch) at zero frequency.  ``(b, a)``, differentiable in ``Q``.

    >>> import funcgrad.scipy.signal as fss
    >>> b, a = fss.iircomb(1.0, 30.0, fs=4.0)
    >>> b.round(6), a.round(6)
    (array([ 0.950202,  0.      ,  0.      ,  0.      , -0.950202]), array([ 1.      ,  0.      ,  0.      ,  0.      , -0.900404]))
    """
    name = "iircomb"
    _traced(name, w0=w0)
    w0 = float(w0)
    fs = _positive_fs(name, fs)
    Q = asarray(Q)  # noqa: N806
    ftype = ftype.lower()
    if not 0 < w0 < fs / 2:
        raise ValueError(f"{name}: w0 must be between 0 and {fs / 2} (Nyquist), but given "
                         f"{w0}")
    if ftype not in ("notch", "peak"):
        raise ValueError(f"{name}: ftype must be either notch or peak, got {ftype!r}")
    teeth = round(fs / w0)
    if abs(w0 - fs / teeth) / fs > 1e-14:
        raise ValueError(f"{name}: fs must be divisible by w0 (fs / w0 = {fs / w0})")
    w_delta = 2 * np.pi * w0 / fs / fnp.astype(Q, np.float64)
    beta = fnp.tan(teeth * w_delta / 4)
    dc, peak = (1, 0) if ftype == "notch" else (0, 1)
    sign = -1.0 if (ftype == "peak") == bool(pass_zero) else 1.0
    zeros = fnp.zeros(teeth - 1)
    b = fnp.concatenate([fnp.reshape((dc + peak * beta) / (1 + beta), (1,)), zeros,
                         fnp.reshape(sign * (dc - peak * beta) / (1 + beta), (1,))])
    a = fnp.concatenate([np.ones(1), zeros,
                         fnp.reshape(sign * (1 - beta) / (1 + beta), (1,))])
    return b, a
