"""More spectral analysis for :mod:`funcgrad.scipy.signal` (re-exported there):
``check_COLA`` and ``check_NOLA`` (conditions on a window, plain NumPy), the
Lomb-Scargle periodogram ``lombscargle`` (SciPy 1.15's signature) and the amplitude
envelope ``envelope``, with SciPy's values.

``lombscargle`` is written with funcgrad operations, so it differentiates in the sample
times, the values, the frequencies and the weights; SciPy's floor of the denominators at
``epsneg`` (where a frequency sees no variation) is a ``maximum``, whose derivative is
zero there.  ``envelope`` is an FFT, a band selected by constant masks and an inverse FFT
(linear), then the magnitude: it differentiates in the signal wherever the envelope is
not zero (``squared=True`` everywhere).
"""
from typing import Any, Optional, Tuple, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._signalmore_getwindow import get_window
from ._signalmore_resample import resample

__all__ = ["check_COLA", "check_NOLA", "lombscargle", "envelope"]


def _window_sums(name, window, nperseg, noverlap, power):
    """The sums of the window's (``power``-th powers of) values over the samples that the
    hopped windows put on top of each other, one per position of a hop."""
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError(f"{name}: nperseg must be a positive integer, got {nperseg}")
    if noverlap >= nperseg:
        raise ValueError(f"{name}: noverlap must be less than nperseg, got {noverlap} >= "
                         f"{nperseg}")
    if name == "check_NOLA" and noverlap < 0:
        raise ValueError(f"{name}: noverlap must be a nonnegative integer, got {noverlap}")
    noverlap = int(noverlap)
    if isinstance(window, str) or type(window) is tuple:
        win = np.asarray(get_window(window, nperseg))
    else:
        win = np.asarray(window)
        if win.ndim != 1:
            raise ValueError(f"{name}: window must be 1-D, got shape {win.shape}")
        if win.shape[0] != nperseg:
            raise ValueError(f"{name}: window must have length of nperseg ({nperseg}), got "
                             f"{win.shape[0]}")
    step = nperseg - noverlap
    values = win ** power
    sums = sum(values[i * step:(i + 1) * step] for i in range(nperseg // step))
    if nperseg % step:
        sums[:nperseg % step] += values[-(nperseg % step):]
    return sums


def check_COLA(window: Any, nperseg: int, noverlap: int, tol: float = 1e-10) -> bool:  # noqa: N802
    """Whether the window, hopped by ``nperseg - noverlap``, adds up to a constant (the
    constant overlap-add condition; ``scipy.signal.check_COLA``).  ``window`` is a name
    or tuple for :func:`get_window`, or an array.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.check_COLA("hann", 8, 4), fss.check_COLA("hann", 8, 3)
    (np.True_, np.False_)
    """
    sums = _window_sums("check_COLA", window, nperseg, noverlap, 1)
    return np.max(np.abs(sums - np.median(sums))) < tol


def check_NOLA(window: Any, nperseg: int, noverlap: int, tol: float = 1e-10) -> bool:  # noqa: N802
    """Whether the squared window, hopped by ``nperseg - noverlap``, is nowhere zero (the
    nonzero overlap-add condition that ``istft`` needs; ``scipy.signal.check_NOLA``).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.check_NOLA("hann", 8, 4), fss.check_NOLA(np.array([1.0, 0.0]), 2, 0)
    (np.True_, np.False_)
    """
    sums = _window_sums("check_NOLA", window, nperseg, noverlap, 2)
    return np.min(sums) > tol


def _dot(weights, values):
    """``sum_j weights[j] values[j, :]``: a weighted sum over the samples."""
    return fnp.sum(weights[:, None] * values, axis=0)


def lombscargle(x: ArrayLike, y: ArrayLike, freqs: ArrayLike, precenter: bool = False,
                normalize: Union[bool, str] = False, *, weights: Optional[ArrayLike] = None,
                floating_mean: bool = False) -> Array:
    """The Lomb-Scargle periodogram of the values ``y`` sampled at the (unevenly spaced)
    times ``x``, at the angular frequencies ``freqs`` (``scipy.signal.lombscargle``, SciPy
    1.15's signature): ``normalize`` False/'power', True/'normalize' (by the weighted
    power of ``y``) or 'amplitude' (the complex amplitudes); optional ``weights`` and a
    ``floating_mean`` fitted per frequency.  Differentiable in ``x``, ``y``, ``freqs``
    and ``weights``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.signal as fss
    >>> t = np.array([0.0, 0.7, 1.9, 3.1, 4.0, 5.3])
    >>> fss.lombscargle(t, np.sin(2.0 * t), np.array([2.0, 1.5])).round(6)
    array([1.591365, 0.744148])
    >>> fg.grad(lambda w: fss.lombscargle(t, np.sin(2.0 * t), w)[1])(np.array([2.0, 1.5]))
    array([0.        , 2.03137114])
    """
    if isinstance(normalize, (bool, np.bool_)):
        normalize = "normalize" if normalize else "power"
    if normalize not in ("power", "normalize", "amplitude"):
        raise ValueError(f"lombscargle: normalize must be False (or 'power'), True (or "
                         f"'normalize'), or 'amplitude', got {normalize!r}")
    x, y, freqs = asarray(x), asarray(y), asarray(freqs)
    for label, v in (("x", x), ("y", y), ("freqs", freqs)):
        if v.dtype.kind not in "biuf":
            raise TypeError(f"lombscargle: {label} must be real, got dtype {v.dtype}")
    dtype = np.result_type(x.dtype, y.dtype, freqs.dtype, np.float32)
    if dtype not in (np.float32, np.float64):
        dtype = np.dtype(np.float64)
    weights = fnp.ones(y.shape, dtype) if weights is None else asarray(weights)
    if not (x.ndim == 1 and x.size > 0 and x.shape == y.shape == weights.shape):
        raise ValueError(f"lombscargle: x, y and weights must be 1-D arrays of equal non-zero "
                         f"length, got shapes {x.shape}, {y.shape} and {weights.shape}")
    if not (freqs.ndim == 1 and freqs.size > 0):
        raise ValueError(f"lombscargle: freqs must be a 1-D array of non-zero length, got "
                         f"shape {freqs.shape}")
    x, y, freqs, weights = (fnp.astype(v, dtype) for v in (x, y, freqs, weights))
    # (under jit or vmap the weights' values are not known: they are not checked then)
    plain = concrete_values(weights, "", "") if is_concrete(weights) else None
    if plain is not None and not (np.all(plain >= 0) and np.sum(plain) > 0):
        raise ValueError("lombscargle: weights must have only non-negative entries which "
                         "sum to a positive value")
    weights = weights / fnp.sum(weights)
    if precenter:
        y = y - fnp.mean(y)
    phase = x[:, None] * freqs[None, :]
    cos, sin = fnp.cos(phase), fnp.sin(phase)
    mean_y = fnp.sum(weights * y)
    cc = _dot(weights, cos * cos)
    ss = 1.0 - cc
    cs = _dot(weights, cos * sin)
    if floating_mean:
        c, s = _dot(weights, cos), _dot(weights, sin)
        cc, ss, cs = cc - c * c, ss - s * s, cs - c * s
    # the time offset tau that makes the sine and cosine terms orthogonal
    tau = 0.5 * fnp.arctan2(2.0 * cs, cc - ss)
    shifted = phase - tau[None, :]
    cos, sin = fnp.cos(shifted), fnp.sin(shifted)
    yc, ys = _dot(weights * y, cos), _dot(weights * y, sin)
    cc = _dot(weights, cos * cos)
    ss = 1.0 - cc
    if floating_mean:
        c, s = _dot(weights, cos), _dot(weights, sin)
        yc, ys, cc, ss = yc - mean_y * c, ys - mean_y * s, cc - c * c, ss - s * s
    tiny = np.finfo(dtype).epsneg
    cc, ss = fnp.maximum(cc, tiny), fnp.maximum(ss, tiny)
    a, b = yc / cc, ys / ss
    if normalize == "amplitude":
        return (a + 1j * b) * fnp.exp(1j * tau)
    pgram = 2.0 * (a * yc + b * ys)
    if normalize == "power":
        return pgram * (x.shape[0] / 4.0)
    power = fnp.sum(weights * y * y)
    if floating_mean:
        power = power - mean_y * mean_y
    return pgram * (0.5 / power)


def _band(name, bp_in, n):
    if len(bp_in) != 2 or not all(isinstance(b, (int, np.integer)) or b is None
                                  for b in bp_in):
        raise ValueError(f"{name}: bp_in={bp_in!r} isn't a 2-tuple of type (int | None, "
                         f"int | None)")
    band = slice(-(n // 2) if bp_in[0] is None else int(bp_in[0]),
                 (n + 1) // 2 if bp_in[1] is None else int(bp_in[1]))
    if not -n // 2 <= band.start < band.stop <= (n + 1) // 2:
        raise ValueError(f"{name}: -n//2 <= bp_in[0] < bp_in[1] <= (n+1)//2 does not hold "
                         f"for n=z.shape[axis]={n} and bp_in={bp_in!r}")
    return band


def envelope(z: ArrayLike, bp_in: Tuple[Optional[int], Optional[int]] = (1, None), *,
             n_out: Optional[int] = None, squared: bool = False,
             residual: Optional[str] = "lowpass", axis: int = -1) -> Array:
    """The amplitude envelope of ``z`` along ``axis``: the magnitude of its analytic
    signal restricted to the frequency bins ``bp_in`` (``scipy.signal.envelope``),
    resampled to ``n_out`` samples, squared if ``squared``; with ``residual`` 'lowpass'
    or 'all' also what the band left out, stacked in front (shape ``(2, ...)``).
    Differentiable in ``z`` where the envelope is not zero.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t = np.arange(16) / 16
    >>> z = (1 + 0.5 * np.cos(2 * np.pi * t)) * np.cos(2 * np.pi * 4 * t)
    >>> fss.envelope(z, (2, 8), residual=None)[:4].round(6)
    array([1.5     , 1.46194 , 1.353553, 1.191342])
    """
    name = "envelope"
    z = asarray(z)
    if z.dtype.kind not in "biufc":
        raise TypeError(f"{name}: z must be a numeric array, got dtype {z.dtype}")
    if not -z.ndim <= axis < z.ndim:
        raise ValueError(f"{name}: invalid axis={axis} for z.shape={z.shape}")
    n = z.shape[axis]
    if not n > 0:
        raise ValueError(f"{name}: z.shape[axis] not > 0 for z.shape={z.shape}, axis={axis}")
    band = _band(name, bp_in, n)
    if not ((isinstance(n_out, (int, np.integer)) and n_out > 0) or n_out is None):
        raise ValueError(f"{name}: n_out={n_out!r} is not a positive integer or None")
    if residual not in ("lowpass", "all", None):
        raise ValueError(f"{name}: residual={residual!r} not in ['lowpass', 'all', None]")
    n_out = n if n_out is None else int(n_out)
    scale = n_out / n
    if z.dtype.kind in "biu":
        z = fnp.astype(z, np.float64)
    z = fnp.moveaxis(z, axis, -1)
    complex_input = z.dtype.kind == "c"
    real_dtype = np.float32 if z.dtype in (np.float32, np.complex64) else np.float64
    if complex_input:
        spectrum = fnp.fft.fft(z, axis=-1)
    else:  # (the analytic signal: positive frequencies doubled, negative ones zero)
        half = fnp.fft.rfft(z, axis=-1)
        spectrum = fnp.pad(half, [(0, 0)] * (z.ndim - 1) + [(0, n - half.shape[-1])])
        doubling = np.ones(n)
        if band.start > 0:
            doubling[band] *= 2
        elif band.stop > 0:
            doubling[1:band.stop] *= 2
        spectrum = spectrum * doubling.astype(real_dtype)
    straddles = band.start <= 0 < band.stop
    if not straddles:
        baseband = fnp.fft.ifft(spectrum[..., band], n_out, axis=-1) * scale
    else:
        centred = fnp.fft.fftshift(spectrum, axes=-1)[..., band.start + n // 2:
                                                      band.stop + n // 2]
        baseband = fnp.fft.ifft(centred, n_out, axis=-1) * scale
    env = (fnp.real(baseband) ** 2 + fnp.imag(baseband) ** 2 if squared
           else fnp.abs(baseband))
    env = fnp.moveaxis(env, -1, axis)
    if residual is None:
        return env
    keep = np.ones(n)  # (the bins outside the band, and for 'lowpass' below it)
    if not straddles:
        keep[band] = 0
    else:
        keep[:band.stop], keep[band.start:] = 0, 0
    if residual == "lowpass":
        if band.stop > 0:
            keep[band.stop:(n + 1) // 2] = 0
        else:
            keep[band.start:], keep[0:(n + 1) // 2] = 0, 0
    rest = spectrum * keep.astype(real_dtype)
    if complex_input:
        left = resample(rest, n_out, axis=-1, domain="freq")
    else:
        if n_out != n and (m := min(n, n_out)) % 2 == 0:
            fix = np.ones(n)
            fix[m // 2] = 2 if n_out < n else 0.5
            rest = rest * fix.astype(real_dtype)
        left = scale * fnp.fft.irfft(rest, n_out, axis=-1)
    return fnp.stack([env, fnp.moveaxis(left, -1, axis)], axis=0)
