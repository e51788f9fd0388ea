"""More FIR filter design for :mod:`funcgrad.scipy.signal` (re-exported there): the
least-squares design ``firls``, the Parks-McClellan design ``remez`` and
``minimum_phase``, with SciPy's signatures and values.

``firls`` minimises the weighted squared error to piecewise-linear gains: its normal
equations ``Q a = b`` have entries that are smooth in the band edges, gains and weights
(sums of ``sinc`` and ``cos`` terms), built here with funcgrad operations and solved by
``funcgrad.numpy.linalg.solve``, so the taps differentiate in ``bands``, ``desired`` and
``weight``.  ``remez`` is SciPy's exchange algorithm, whose result moves with the
extremal frequencies it finds iteratively; it has no derivative here, and a traced
argument raises ``TypeError``.  ``minimum_phase`` is a composition of FFTs, ``log``,
``exp`` and ``abs`` (cepstral folding, or the discrete Hilbert transform of the
magnitude), differentiable in the filter.
"""
import math
import operator
import warnings
from typing import Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._signalmore_fir import _fs

__all__ = ["firls", "remez", "minimum_phase"]


def _odd_taps(name, numtaps):
    try:
        numtaps = operator.index(numtaps)
    except TypeError:
        raise ValueError(f"{name}: numtaps must be an odd integer >= 1, got "
                         f"{numtaps!r}") from None
    if numtaps % 2 == 0 or numtaps < 1:
        raise ValueError(f"{name}: numtaps must be odd and >= 1, got {numtaps}")
    return numtaps


def _firls_checks(bands, desired, weight):
    """SciPy's checks of the bands (relative to Nyquist, in pairs), gains and weights."""
    bands, desired = bands.reshape(-1), desired.reshape(-1)
    if len(bands) % 2:
        raise ValueError("firls: bands must contain frequency pairs")
    if (bands < 0).any() or (bands > 1).any():
        raise ValueError("firls: bands must be between 0 and 1 relative to Nyquist (fs/2)")
    bands = bands.reshape(-1, 2)
    if bands.size != desired.size:
        raise ValueError(f"firls: desired must have one entry per frequency, got "
                         f"{desired.size} gains for {bands.size} frequencies")
    if (np.diff(bands) <= 0).any() or (np.diff(bands[:, 0]) < 0).any():
        raise ValueError("firls: bands must be monotonically nondecreasing and have width "
                         "> 0")
    if (bands[:-1, 1] > bands[1:, 0]).any():
        raise ValueError("firls: bands must not overlap")
    if (desired < 0).any():
        raise ValueError("firls: desired must be non-negative")
    if weight is not None:
        if weight.size != len(bands):
            raise ValueError(f"firls: weight must be the same size as the number of band "
                             f"pairs ({len(bands)}), got {weight.size}")
        if (weight < 0).any():
            raise ValueError("firls: weight must be non-negative")


def firls(numtaps: int, bands: ArrayLike, desired: ArrayLike, *,
          weight: Optional[ArrayLike] = None, fs: Optional[float] = None) -> Array:
    """The linear-phase FIR filter of ``numtaps`` (odd) taps whose response is closest,
    in weighted least squares, to the gains ``desired`` (linear within each band) on the
    band edges ``bands`` (pairs, in the units of ``fs``, default 2)
    (``scipy.signal.firls``).  Differentiable in ``bands``, ``desired`` and ``weight``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> import funcgrad.scipy.signal as fss
    >>> fss.firls(5, [0.0, 0.3, 0.5, 1.0], [1.0, 1.0, 0.0, 0.0]).round(6)
    array([0.094179, 0.287428, 0.383045, 0.287428, 0.094179])
    >>> g = fg.grad(lambda e: fss.firls(5, fnp.stack([0.0, e, 0.5, 1.0]), [1, 1, 0, 0])[2])
    >>> round(float(g(0.3)), 6)
    0.568357
    """
    numtaps = _odd_taps("firls", numtaps)
    nyq = 0.5 * _fs("firls", fs, 2.0)
    bands, desired = asarray(bands), asarray(desired)
    weight = None if weight is None else asarray(weight)
    plain = [None if v is None else concrete_values(
        v, "firls's checks of its bands, gains and weights",
        "Pass bands, desired and weight as arrays with known values.") for v in
        (bands, desired, weight)]
    _firls_checks(plain[0] / nyq, plain[1], plain[2])
    dtype = np.float64
    edge = fnp.reshape(fnp.astype(bands, dtype), (-1, 2)) / nyq
    gain = fnp.reshape(fnp.astype(desired, dtype), (-1, 2))
    weights = (fnp.ones(edge.shape[0], dtype) if weight is None else
               fnp.reshape(fnp.astype(weight, dtype), (-1,)))
    half = (numtaps - 1) // 2
    n = np.arange(numtaps, dtype=dtype)[:, None, None]
    # Q[i, j] = q[|i - j|] + q[i + j], q[k] = sum over bands of w (f sinc(f k)) at the edges
    edges = fnp.sinc(edge * n) * edge
    q = fnp.sum((edges[:, :, 1] - edges[:, :, 0]) * weights, axis=1)
    i, j = np.arange(half + 1)[:, None], np.arange(half + 1)[None, :]
    gram = fnp.take(q, np.abs(i - j)) + fnp.take(q, i + j)
    # b[k] = sum over bands of w times the integral of the linear gain D(f) cos(pi k f)
    n = n[:half + 1]
    slope = (gain[:, 1:] - gain[:, :1]) / (edge[:, 1:] - edge[:, :1])
    offset = gain[:, :1] - edge[:, :1] * slope
    first = (n == 0).astype(dtype)
    safe_n = np.where(n == 0, 1.0, n)
    b = (edge * (slope * edge + offset) * fnp.sinc(edge * n)
         - first * (slope * edge * edge / 2.0)
         + (1 - first) * slope * fnp.cos(n * np.pi * edge) / (np.pi * safe_n) ** 2)
    rhs = fnp.sum((b[:, :, 1] - b[:, :, 0]) * weights, axis=1)
    # (a numerically singular system is solved in least squares, as SciPy falls back to
    # when its solver warns; under jit the condition is not known: solved directly)
    if is_concrete(gram) and 1 / np.linalg.cond(concrete_values(gram, "", ""), 1) < np.finfo(
            dtype).eps:
        taps = fnp.linalg.lstsq(gram, rhs, rcond=None)[0]
    else:
        taps = fnp.linalg.solve(gram, rhs)
    return fnp.concatenate([taps[:0:-1], 2 * taps[:1], taps[1:]])


def remez(numtaps: int, bands: ArrayLike, desired: ArrayLike, *,
          weight: Optional[ArrayLike] = None, type: str = "bandpass",  # noqa: A002
          maxiter: int = 25, grid_density: int = 16, fs: Optional[float] = None) -> Array:
    """The minimax (equiripple) FIR filter of ``numtaps`` taps by the Remez exchange
    algorithm (``scipy.signal.remez``), computed by SciPy: ``bands`` edges in the units
    of ``fs`` (default 1), one gain per band in ``desired``, ``type`` 'bandpass',
    'differentiator' or 'hilbert'.  No derivative: a traced argument raises TypeError.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.remez(5, [0.0, 0.1, 0.2, 0.5], [1.0, 0.0]).round(6)
    array([0.172251, 0.272647, 0.281298, 0.272647, 0.172251])
    """
    for label, value in (("numtaps", numtaps), ("bands", bands), ("desired", desired),
                         ("weight", weight), ("fs", fs)):
        parts = value if isinstance(value, (list, tuple)) else (value,)
        if any(isinstance(v, Tracer) for v in parts):
            raise TypeError(f"remez: {label} is a traced value, but the Remez exchange "
                            f"algorithm (SciPy's) has no derivative here; pass plain "
                            f"values, or design with firls, which differentiates")
    import scipy.signal  # (here: importing funcgrad never loads SciPy)
    return scipy.signal.remez(numtaps, bands, desired, weight=weight, type=type,
                              maxiter=maxiter, grid_density=grid_density, fs=fs)


def _hilbert_of_log(magnitude):
    """The minimum-phase sequence with the given magnitude response, through the
    discrete Hilbert transform of its logarithm (the 'hilbert' method)."""
    n = magnitude.shape[0]
    sign = np.zeros(n)
    sign[1:n // 2] = 1
    sign[n // 2 + 1:] = -1
    phase = fnp.fft.fft(sign * fnp.fft.ifft(fnp.log(magnitude)))
    return fnp.real(fnp.fft.ifft(magnitude * fnp.exp(phase)))


def minimum_phase(h: ArrayLike, method: str = "homomorphic", n_fft: Optional[int] = None, *,
                  half: bool = True) -> Array:
    """The minimum-phase version of the linear-phase FIR filter ``h``
    (``scipy.signal.minimum_phase``): ``method`` 'homomorphic' (cepstral folding; with
    ``half=False`` the full magnitude response) or 'hilbert'.  Differentiable in ``h``.
    The 'hilbert' method floors the response at its minimum, which a linear-phase
    filter reaches at two mirrored frequencies: which of them is floored depends on the
    FFT's rounding, and its result with it (as SciPy's, to about ``1e-2``).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.minimum_phase(np.array([0.25, 0.5, 1.0, 0.5, 0.25])).round(4)
    array([0.85  , 0.437 , 0.2941])
    """
    h = asarray(h)
    if h.dtype.kind == "c":
        raise ValueError("minimum_phase: complex filters are not supported")
    if h.ndim != 1 or h.shape[0] <= 2:
        raise ValueError(f"minimum_phase: h must be 1-D and at least 2 samples long, got "
                         f"shape {h.shape}")
    if h.dtype.kind != "f":
        h = fnp.astype(h, np.float64)
    length, n_half = h.shape[0], h.shape[0] // 2
    values = concrete_values(h, "minimum_phase's symmetry check", "Pass a plain array.")
    if not np.any(values[::-1][:n_half] - values[:n_half]
                  <= 1e-8 + 1e-6 * np.abs(values[:n_half])):
        warnings.warn("h does not appear to be symmetric, conversion may fail",
                      RuntimeWarning, stacklevel=2)
    if not isinstance(method, str) or method not in ("homomorphic", "hilbert"):
        raise ValueError(f'minimum_phase: method must be "homomorphic" or "hilbert", got '
                         f'{method!r}')
    if method == "hilbert" and not half:
        raise ValueError("minimum_phase: half=False is only supported when "
                         "method='homomorphic'")
    if n_fft is None:
        n_fft = 2 ** int(math.ceil(math.log2(2 * (length - 1) / 0.01)))
    n_fft = int(n_fft)
    if n_fft < length:
        raise ValueError(f"minimum_phase: n_fft must be at least len(h)=={length}")
    if method == "hilbert":
        w = np.arange(n_fft, dtype=np.float64) * (2 * np.pi / n_fft * n_half)
        response = fnp.real(fnp.fft.fft(h, n_fft) * np.exp(1j * w))
        dp, ds = fnp.max(response) - 1, -fnp.min(response)
        scale = 4.0 / (fnp.sqrt(1 + dp + ds) + fnp.sqrt(1 - dp + ds)) ** 2
        magnitude = fnp.sqrt((response + ds) * scale) + 1e-10
        out = _hilbert_of_log(magnitude)
    else:
        magnitude = fnp.abs(fnp.fft.fft(h, n_fft))
        floor = fnp.min(fnp.where(magnitude > 0, magnitude, np.inf))
        cepstrum = fnp.real(fnp.fft.ifft(fnp.log(magnitude + 1e-7 * floor)
                                         * (0.5 if half else 1.0)))
        fold = np.zeros(n_fft)  # (the causal part of the cepstrum, doubled)
        fold[0] = 1
        fold[1:n_fft // 2] = 2
        if n_fft % 2:
            fold[n_fft // 2] = 1
        out = fnp.real(fnp.fft.ifft(fnp.exp(fnp.fft.fft(cepstrum * fold))))
    n_out = n_half + length % 2 if half else length
    return fnp.astype(out[:n_out], h.dtype) if h.dtype == np.float32 else out[:n_out]
