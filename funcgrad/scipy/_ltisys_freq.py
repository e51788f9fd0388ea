"""Frequency responses of linear time-invariant systems for :mod:`funcgrad.scipy.signal`
(re-exported there): the analog ``freqs``, ``freqs_zpk``, ``findfreqs``, and for systems
``freqresp``, ``bode`` (continuous) and ``dfreqresp``, ``dbode`` (discrete), with SciPy's
signatures and values.

``H(jw)`` is a ratio of polynomials (or of products over the roots) evaluated with
funcgrad operations, so it differentiates in the coefficients, roots and gain and in the
frequencies; the discrete ones go through ``freqz``/``freqz_zpk``.  ``findfreqs``'s
frequencies are whole decades chosen from the roots: a step function of the system, so
they are plain numbers (derivative zero) computed from its values.  ``bode``'s phase is
unwrapped by adding multiples of 360 degrees, which does not change its derivative.

SciPy evaluates a continuous state-space system (and a transfer-function tuple) through
its zeros and poles; here a state-space system goes through ``ss2tf`` and a transfer
function is evaluated as one, which needs no roots (so it traces under ``jit``/``vmap``)
and agrees with SciPy's values to rounding.  Transfer functions are normalised as SciPy's
system objects are (``den[0] == 1``; under ``jit`` only scaled, as leading zeros cannot
be trimmed there), and the discrete response is SciPy's Horner recursion in ``1/z``: the
sign of a zero imaginary part, which decides whether a negative real response has phase
+180 or -180 degrees in ``dbode``, is then SciPy's too.  Systems are tuples or the objects of
:mod:`._ltisys_systems`, read through their attributes (see :mod:`._ltisys_response`).
"""
import numbers
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._ltisys_convert import _system_matrices, ss2tf
from ._signalmore_fir import freqz, freqz_zpk
from ._signalmore_lti import normalize

__all__ = ["findfreqs", "freqs", "freqs_zpk", "freqresp", "bode", "dfreqresp", "dbode"]


def _known(x, name):
    return np.atleast_1d(np.asarray(concrete_values(asarray(x), f"{name} (the frequencies, "
                                                    "chosen from the roots)",
                                                    "Pass worN as frequencies."))) + 0j


def findfreqs(num: ArrayLike, den: ArrayLike, N: int, kind: str = "ba") -> np.ndarray:
    """``N`` logarithmically spaced frequencies that show the interesting part of an analog
    filter's response (``scipy.signal.findfreqs``): from a decade below the lowest to a
    decade above the highest root.  ``kind`` 'ba' (coefficients) or 'zp' (roots).  The
    decades are a step function of the filter: the frequencies carry no derivative.

    >>> import funcgrad.scipy.signal as fss
    >>> fss.findfreqs([1.0, 0.0], [1.0, 8.0, 25.0], N=5)
    array([1.e-02, 1.e-01, 1.e+00, 1.e+01, 1.e+02])
    """
    if kind == "ba":
        ep, tz = (np.roots(_known(c, "findfreqs")) + 0j for c in (den, num))
    elif kind == "zp":
        ep, tz = _known(den, "findfreqs"), _known(num, "findfreqs")
    else:
        raise ValueError("input must be one of {'ba', 'zp'}")
    if ep.shape[0] == 0:
        ep = np.array([-1000.0 + 0j])
    ez = np.concatenate([ep[ep.imag >= 0], tz[(np.abs(tz) < 1e5) & (tz.imag >= 0)]])
    integ = (np.abs(ez) < 1e-10).astype(ez.dtype)
    hfreq = np.round(np.log10(np.max(3 * np.abs(ez.real + integ) + 1.5 * ez.imag)) + 0.5)
    lfreq = np.round(np.log10(0.1 * np.min(np.abs((ez + integ).real) + 2 * ez.imag)) - 0.5)
    return np.logspace(lfreq, hfreq, N)


def _is_count(worN):
    return isinstance(worN, numbers.Integral) and not isinstance(worN, bool)


def _horner(c, s):
    out = fnp.zeros(s.shape, np.result_type(c.dtype, s.dtype))
    for i in range(c.shape[0]):
        out = out * s + c[i]
    return out


def freqs(b: ArrayLike, a: ArrayLike, worN: Any = 200,
          plot: Optional[Callable[..., Any]] = None) -> tuple[Array, Array]:
    """The frequency response ``H(jw) = b(jw) / a(jw)`` of an analog filter
    (``scipy.signal.freqs``): ``(w, h)``, ``worN`` a count (frequencies from
    :func:`findfreqs`) or the frequencies; ``plot(w, h)`` is called if given.
    Differentiable in ``b``, ``a`` and given frequencies.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, h = fss.freqs([1.0], [1.0, 1.0], worN=[0.0, 1.0])
    >>> np.round(h, 6)
    array([1. +0.j , 0.5-0.5j])
    """
    b, a = fnp.atleast_1d(asarray(b)), fnp.atleast_1d(asarray(a))
    if worN is None:
        w: Any = findfreqs(b, a, 200)
    elif _is_count(worN):
        w = findfreqs(b, a, worN)
    else:
        w = fnp.atleast_1d(asarray(worN))
    s = 1j * w
    h = _horner(b, s) / _horner(a, s)
    if plot is not None:
        plot(w, h)
    return w, h


def freqs_zpk(z: ArrayLike, p: ArrayLike, k: ArrayLike, worN: Any = 200
              ) -> tuple[Array, Array]:
    """The frequency response ``k prod(jw - z) / prod(jw - p)`` of an analog filter given
    by its zeros, poles and gain (``scipy.signal.freqs_zpk``): ``(w, h)``, ``worN`` a count
    or the frequencies.  Differentiable in ``z``, ``p``, ``k`` and given frequencies.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, h = fss.freqs_zpk([], [-1.0], 1.0, worN=[0.0, 1.0])
    >>> np.round(h, 6)
    array([1. +0.j , 0.5-0.5j])
    """
    z_: Any = fnp.atleast_1d(asarray(z))
    p_: Any = fnp.atleast_1d(asarray(p))
    k = asarray(k)
    if k.size > 1:
        raise ValueError("k must be a single scalar gain")
    if worN is None:
        w: Any = findfreqs(z_, p_, 200, kind="zp")
    elif _is_count(worN):
        w = findfreqs(z_, p_, worN, kind="zp")
    else:
        w = worN
    w = fnp.atleast_1d(asarray(w))
    s = 1j * w
    num = fnp.prod(s[:, None] - z_[None, :], axis=1)
    den = fnp.prod(s[:, None] - p_[None, :], axis=1)
    return w, fnp.reshape(k, ()) * num / den


def _siso(name, parts):
    """A SISO system's ``('ba', num, den)`` or ``('zpk', z, p, k)``; state space goes to
    the transfer function."""
    if len(parts) == 4:
        A, B, C, D = _system_matrices(*parts)
        if B.shape[1] != 1 or C.shape[0] != 1:
            raise ValueError(f"{name} requires a SISO (single input, single output) system.")
        parts = ss2tf(A, B, C, D)
    if len(parts) == 2:
        num, den = (fnp.atleast_1d(asarray(c)) for c in parts)
        if is_concrete(num) and is_concrete(den):
            num, den = normalize(num, den)  # (as SciPy's systems are: den[0] == 1)
        else:
            # under jit the leading zeros cannot be trimmed; they leave the ratio
            # unchanged, in powers of 1/z as well
            num, den = num / den[0], den / den[0]
        if num.ndim > 1 and num.shape[0] != 1:
            raise ValueError(f"{name} requires a SISO (single input, single output) system.")
        return "ba", fnp.ravel(num), den
    if len(parts) == 3:
        if fnp.atleast_1d(asarray(parts[0])).ndim > 1:
            raise ValueError(f"{name} requires a SISO (single input, single output) system.")
        return ("zpk",) + tuple(parts)
    raise ValueError("`system` needs to be an instance of `lti` or have 2, 3 or 4 "
                     "arguments.")


def _parts(system, name, discrete):
    """The system's arrays as a tuple (and ``dt`` for a discrete one)."""
    if hasattr(system, "_as_ss") and hasattr(system, "dt"):
        if (system.dt is None) == discrete:
            kind = "discrete" if discrete else "continuous"
            raise AttributeError(f"{name} can only be used with {kind}-time systems.")
        if hasattr(system, "num"):
            parts = (system.num, system.den)
        elif hasattr(system, "gain"):
            parts = (system.zeros, system.poles, system.gain)
        else:
            parts = (system.A, system.B, system.C, system.D)
        return parts, system.dt
    system = tuple(system)
    return (system[:-1], system[-1]) if discrete else (system, None)


def freqresp(system: Any, w: Optional[ArrayLike] = None, n: int = 10000
             ) -> tuple[Array, Array]:
    """The frequency response ``(w, H(jw))`` of a continuous-time SISO system
    (``scipy.signal.freqresp``) at the frequencies ``w`` (default: ``n`` from
    :func:`findfreqs`).  Differentiable in the system and ``w``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, H = fss.freqresp(([1.0], [1.0, 1.0]), w=[0.0, 1.0])
    >>> np.round(H, 6)
    array([1. +0.j , 0.5-0.5j])
    """
    parts, _ = _parts(system, "freqresp", False)
    kind, *arrays = _siso("freqresp()", parts)
    worN = w if w is not None else n
    if kind == "ba":
        return freqs(arrays[0], arrays[1], worN=worN)
    return freqs_zpk(arrays[0], arrays[1], arrays[2], worN=worN)


def bode(system: Any, w: Optional[ArrayLike] = None, n: int = 100
         ) -> tuple[Array, Array, Array]:
    """The Bode magnitude (dB) and phase (degrees, unwrapped) of a continuous-time SISO
    system (``scipy.signal.bode``): ``(w, mag, phase)``.  Differentiable in the system
    and ``w``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, mag, phase = fss.bode(([1.0], [1.0, 1.0]), w=[1.0])
    >>> np.round(mag, 6), np.round(phase, 6)
    (array([-3.0103]), array([-45.]))
    """
    w, y = freqresp(system, w=w, n=n)
    mag = 20.0 * fnp.log10(fnp.abs(y))
    phase = fnp.unwrap(fnp.arctan2(fnp.imag(y), fnp.real(y))) * (180.0 / np.pi)
    return w, mag, phase


def dfreqresp(system: Any, w: Optional[ArrayLike] = None, n: int = 10000,
              whole: bool = False) -> tuple[Array, Array]:
    """The frequency response ``(w, H(e^{jw}))`` of a discrete-time SISO system
    (``scipy.signal.dfreqresp``), ``w`` in radians per sample (default ``n`` of them
    over ``[0, pi)``, or ``[0, 2 pi)`` with ``whole``).  Differentiable in the system.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, H = fss.dfreqresp(([1.0], [1.0, -0.5], 1.0), w=[0.0, np.pi])  # 1 / (z - 0.5)
    >>> np.round(H.real, 6)
    array([ 2.      , -0.666667])
    """
    parts, _ = _parts(system, "dfreqresp", True)
    kind, *arrays = _siso("dfreqresp", parts)
    worN = w if w is not None else n
    if kind == "zpk":
        return freqz_zpk(arrays[0], arrays[1], arrays[2], worN=worN, whole=whole)
    num, den = arrays
    # (powers of z to powers of 1/z: the shorter polynomial is padded at the front)
    diff = num.shape[0] - den.shape[0]
    if diff > 0:
        den = fnp.concatenate([np.zeros(diff, den.dtype), den])
    elif diff < 0:
        num = fnp.concatenate([np.zeros(-diff, num.dtype), num])
    if den.shape[0] == 1:
        return freqz(num, den, worN=worN, whole=whole)
    grid: Any = worN
    if _is_count(grid):
        grid = np.linspace(0, 2 * np.pi if whole else np.pi, grid, endpoint=False)
    else:
        grid = 2 * np.pi * fnp.atleast_1d(asarray(grid)) / (2 * np.pi)  # (SciPy's rounding)
    # SciPy's Horner recursion in 1/z, in its order: the signed zero of the imaginary part
    # at w = 0 decides whether a negative real response has phase +180 or -180 degrees
    zm1 = fnp.exp(-1j * grid)
    return grid, _in_inverse_powers(num, zm1) / _in_inverse_powers(den, zm1)


def _in_inverse_powers(c, zm1):
    out = c[-1] + zm1 * 0
    for i in range(2, c.shape[0] + 1):
        out = c[-i] + out * zm1
    return out


def dbode(system: Any, w: Optional[ArrayLike] = None, n: int = 100
          ) -> tuple[Array, Array, Array]:
    """The Bode magnitude (dB) and phase (degrees, unwrapped) of a discrete-time SISO
    system (``scipy.signal.dbode``): ``(w / dt, mag, phase)``.  Differentiable in the
    system.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> w, mag, phase = fss.dbode(([1.0], [1.0, -0.5], 0.1), w=[0.0])
    >>> np.round(mag, 6), phase
    (array([6.0206]), array([0.]))
    """
    w, y = dfreqresp(system, w=w, n=n)
    dt = system.dt if hasattr(system, "_as_ss") and hasattr(system, "dt") else system[-1]
    mag = 20.0 * fnp.log10(fnp.abs(y))
    phase = fnp.rad2deg(fnp.unwrap(fnp.angle(y)))
    return w / dt, mag, phase
