"""Waveforms and small helpers for :mod:`funcgrad.scipy.signal` (re-exported there):
``chirp``, ``sawtooth``, ``square``, ``gausspulse``, ``unit_impulse`` and
``correlation_lags``, with SciPy's signatures and values.

The waveforms are written with funcgrad operations, so they differentiate in the times
and in their continuous parameters (a chirp's ``f0``, ``f1``, ``t1`` and ``phi``, a
sawtooth's ``width``, a pulse's ``fc`` and ``bw``).  Two of SciPy's formulas divide by a
quantity that vanishes in a limit they treat as a separate case (a logarithmic chirp with
``f0 == f1``, a hyperbolic one likewise); here they are written as ``expm1(x)/x`` and
``log|1+x|/x`` with their series near ``x = 0``, so the value is SciPy's and the
derivative is continuous through the limit instead of that of the constant-frequency
case.  ``square`` is piecewise constant: its derivative is zero (where it exists).
"""
from typing import Any, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike

__all__ = ["chirp", "sawtooth", "square", "gausspulse", "unit_impulse", "correlation_lags"]

_SMALL = 1e-8  # below it, two terms of a series are exact to rounding


def _exprel(x):
    """``expm1(x) / x``, 1 at 0, with a derivative through 0."""
    near = fnp.abs(x) < _SMALL
    safe = fnp.where(near, 1.0, x)
    return fnp.where(near, 1.0 + 0.5 * x, fnp.expm1(safe) / safe)


def _logrel(x):
    """``log|1 + x| / x``, 1 at 0, with a derivative through 0."""
    near = fnp.abs(x) < _SMALL
    safe = fnp.where(near, 1.0, x)
    return fnp.where(near, 1.0 - 0.5 * x, fnp.log(fnp.abs(1.0 + safe)) / safe)


def _scalar(name, label, value):
    return float(concrete_values(value, f"{name}'s check of {label}",
                                 f"Pass {label} as a plain number."))


def _known(*values):
    """The values as floats when all are known now, else None (under ``vmap``/``jit`` a
    chirp skips its checks: a bad frequency then gives NaN, not a wrong number)."""
    if not all(is_concrete(v) for v in values):
        return None
    return [float(np.asarray(concrete_values(v, "", ""))) for v in values]


def _chirp_phase(t, f0, t1, f1, method, vertex_zero):
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return 2 * np.pi * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return 2 * np.pi * (f0 * t + beta * t ** 3 / 3)
        return 2 * np.pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        known = _known(f0, f1)
        if known is not None and known[0] * known[1] <= 0.0:
            raise ValueError("For a logarithmic chirp, f0 and f1 must be nonzero and have "
                             "the same sign.")
        # SciPy's t1 / log(f1/f0) * f0 * ((f1/f0)^(t/t1) - 1)
        return 2 * np.pi * f0 * t * _exprel(t / t1 * fnp.log(f1 / f0))
    if method in ("hyperbolic", "hyp"):
        known = _known(f0, f1)
        if known is not None and 0.0 in known:
            raise ValueError("For a hyperbolic chirp, f0 and f1 must be nonzero.")
        # SciPy's -sing f0 log|1 - t/sing|, sing = -f1 t1 / (f0 - f1)
        return 2 * np.pi * f0 * t * _logrel(t * (f0 - f1) / (f1 * t1))
    raise ValueError(f"method must be 'linear', 'quadratic', 'logarithmic', or "
                     f"'hyperbolic', but a value of {method!r} was given.")


def chirp(t: ArrayLike, f0: ArrayLike, t1: ArrayLike, f1: ArrayLike, method: str = "linear",
          phi: ArrayLike = 0, vertex_zero: bool = True, *, complex: bool = False) -> Array:
    """A frequency-swept cosine (``scipy.signal.chirp``): frequency ``f0`` at time 0 and
    ``f1`` at ``t1``, swept as ``method`` says ('linear', 'quadratic', 'logarithmic',
    'hyperbolic'), phase offset ``phi`` degrees; ``complex=True`` gives
    ``exp(j phase)``.  Differentiable in ``t``, ``f0``, ``t1``, ``f1`` and ``phi``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.chirp(np.array([0.0, 0.25, 0.5]), f0=1.0, t1=1.0, f1=3.0), 6) + 0.0
    array([ 1.      , -0.382683,  0.      ])
    """
    t = asarray(t)
    if t.dtype.kind in "biu":
        t = fnp.astype(t, np.float64)
    phase = _chirp_phase(t, f0, t1, f1, method, vertex_zero) + phi * (np.pi / 180)
    return fnp.exp(1j * phase) if complex else fnp.cos(phase)


def _periodic_inputs(t, w):
    t, w = asarray(t), asarray(w)
    t = fnp.astype(t, np.float64) if t.dtype != np.float64 else t
    w = fnp.astype(w, np.float64) if w.dtype != np.float64 else w
    shape = np.broadcast_shapes(t.shape, w.shape)
    t, w = fnp.broadcast_to(t, shape), fnp.broadcast_to(w, shape)
    invalid = (w > 1) | (w < 0)
    tmod = fnp.mod(t, 2 * np.pi)
    rising = ~invalid & (tmod < w * 2 * np.pi)
    return t, w, invalid, tmod, rising


def sawtooth(t: ArrayLike, width: ArrayLike = 1) -> Array:
    """A sawtooth wave of period ``2 pi`` (``scipy.signal.sawtooth``): from -1 up to 1 over
    the fraction ``width`` of the period, back down to -1 over the rest (NaN where
    ``width`` is outside [0, 1]).  Differentiable in ``t`` and ``width`` (between the
    corners).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.sawtooth(np.array([0.0, np.pi / 2, np.pi]), width=0.5)
    array([-1.,  0.,  1.])
    """
    t, w, invalid, tmod, rising = _periodic_inputs(t, width)
    falling = ~invalid & ~rising
    # each branch's denominator kept away from 0 where it is not taken (a zero
    # cotangent there must give a zero, not NaN, contribution)
    w_up = fnp.where(rising, w, 1.0)
    w_down = fnp.where(falling, w, 0.0)
    up = tmod / (np.pi * w_up) - 1
    down = (np.pi * (w_down + 1) - tmod) / (np.pi * (1 - w_down))
    return fnp.where(invalid, np.nan, fnp.where(rising, up, down))


def square(t: ArrayLike, duty: ArrayLike = 0.5) -> Array:
    """A square wave of period ``2 pi`` (``scipy.signal.square``): 1 over the fraction
    ``duty`` of the period, -1 over the rest (NaN where ``duty`` is outside [0, 1]).
    Piecewise constant: its derivative is zero where it exists.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.square(np.array([0.0, 1.0, 4.0]))
    array([ 1.,  1., -1.])
    """
    t, w, invalid, tmod, rising = _periodic_inputs(t, duty)
    flat = 0.0 * tmod + 0.0 * w  # (zero, carrying the inputs' derivatives: zero)
    return fnp.where(invalid, np.nan, fnp.where(rising, 1.0, -1.0)) + flat


def gausspulse(t: Union[ArrayLike, str], fc: ArrayLike = 1000, bw: ArrayLike = 0.5,
               bwr: float = -6, tpr: float = -60, retquad: bool = False,
               retenv: bool = False) -> Any:
    """A Gaussian-modulated sinusoid (``scipy.signal.gausspulse``): centre frequency
    ``fc``, fractional bandwidth ``bw`` measured ``bwr`` dB down; its in-phase part, and
    the quadrature part and envelope if ``retquad``/``retenv``.  ``t='cutoff'`` gives the
    time at which the envelope falls ``tpr`` dB.  Differentiable in ``t``, ``fc`` and
    ``bw``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.gausspulse(np.array([-1e-3, 0.0, 1e-3]), fc=500.0), 6)
    array([-0.799918,  1.      , -0.799918])
    """
    if _scalar("gausspulse", "fc", fc) < 0:
        raise ValueError(f"Center frequency (fc={float(np.asarray(fc)):.2f}) must be >=0.")
    if _scalar("gausspulse", "bw", bw) <= 0:
        raise ValueError(f"Fractional bandwidth (bw={float(np.asarray(bw)):.2f}) must be "
                         f"> 0.")
    if bwr >= 0:
        raise ValueError(f"Reference level for bandwidth (bwr={bwr:.2f}) must be < 0 dB")
    ref = pow(10.0, bwr / 20.0)
    a = -(np.pi * fc * bw) ** 2 / (4.0 * np.log(ref))
    if isinstance(t, str):
        if t != "cutoff":
            raise ValueError("If `t` is a string, it must be 'cutoff'")
        if tpr >= 0:
            raise ValueError("Reference level for time cutoff must be < 0 dB")
        return fnp.sqrt(-np.log(pow(10.0, tpr / 20.0)) / a)
    t = asarray(t)
    envelope = fnp.exp(-a * t * t)
    in_phase = envelope * fnp.cos(2 * np.pi * fc * t)
    if not retquad:
        return (in_phase, envelope) if retenv else in_phase
    quadrature = envelope * fnp.sin(2 * np.pi * fc * t)
    return (in_phase, quadrature, envelope) if retenv else (in_phase, quadrature)


def unit_impulse(shape: Union[int, Sequence[int]], idx: Any = None, dtype: Any = float
                 ) -> np.ndarray:
    """An array of zeros with a single 1 at ``idx`` (default the first sample, 'mid' the
    centre) (``scipy.signal.unit_impulse``).

    >>> import funcgrad.scipy.signal as fss
    >>> fss.unit_impulse(5, "mid")
    array([0., 0., 1., 0., 0.])
    """
    out = np.zeros(shape, dtype)
    dims = np.atleast_1d(shape)
    if idx is None:
        idx = (0,) * len(dims)
    elif isinstance(idx, str):
        if idx != "mid":
            raise ValueError(f"unit_impulse: idx must be an index, a tuple of indices or "
                             f"'mid', got {idx!r}")
        idx = tuple(dims // 2)
    elif not hasattr(idx, "__iter__"):
        idx = (idx,) * len(dims)
    out[tuple(idx)] = 1
    return out


def correlation_lags(in1_len: int, in2_len: int, mode: str = "full") -> np.ndarray:
    """The lag of each sample of ``correlate`` of 1-d inputs of lengths ``in1_len`` and
    ``in2_len`` in ``mode`` (``scipy.signal.correlation_lags``).

    >>> import funcgrad.scipy.signal as fss
    >>> fss.correlation_lags(3, 2)
    array([-1,  0,  1,  2])
    """
    lags = np.arange(-in2_len + 1, in1_len)
    if mode == "full":
        return lags
    if mode == "same":
        mid, bound = lags.size // 2, in1_len // 2
        return lags[mid - bound:mid + bound + in1_len % 2]
    if mode == "valid":
        bound = in1_len - in2_len
        return np.arange(bound + 1) if bound >= 0 else np.arange(bound, 1)
    raise ValueError(f"Mode {mode} is invalid")
