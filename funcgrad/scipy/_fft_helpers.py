"""``scipy.fft``'s helpers: the sample frequencies, the fast lengths of pocketfft, and
the fast Hankel transform (FFTLog).

``fht``/``ifht`` are linear in the array: a real FFT, a product with constant
coefficients (from ``dln``, ``mu``, ``offset`` and ``bias``, which must be plain numbers)
and an inverse real FFT, so they differentiate in the array, to any order.
"""
import math
import operator
import warnings
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy import fft as _npfft
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["fftfreq", "rfftfreq", "next_fast_len", "prev_fast_len", "fht", "ifht",
           "fhtoffset"]

# pocketfft's fast factors: complex transforms are fast for 11-smooth lengths, real ones
# for 5-smooth lengths
_FACTORS = {False: (11, 7, 5, 3), True: (5, 3)}
_LARGEST = (1 << 63) - 1


def fftfreq(n: int, d: ArrayLike = 1.0, *, xp: Any = None, device: Any = None) -> Array:
    """The sample frequencies of an ``n``-point DFT with sample spacing ``d``
    (``scipy.fft.fftfreq``), differentiable in ``d``.  ``xp`` and ``device`` are accepted
    for SciPy's signature; the result is a funcgrad/NumPy array.

    >>> import funcgrad.scipy.fft as ffft
    >>> ffft.fftfreq(5, 2.0)
    array([ 0. ,  0.1,  0.2, -0.2, -0.1])
    """
    return _npfft.fftfreq(operator.index(n), d)


def rfftfreq(n: int, d: ArrayLike = 1.0, *, xp: Any = None, device: Any = None) -> Array:
    """The sample frequencies of :func:`rfft` (``scipy.fft.rfftfreq``), differentiable in
    ``d``.

    >>> import funcgrad.scipy.fft as ffft
    >>> ffft.rfftfreq(5, 2.0)
    array([0. , 0.1, 0.2])
    """
    return _npfft.rfftfreq(operator.index(n), d)


def _target(name, target):
    target = operator.index(target)
    if target < 0:
        raise ValueError(f"{name}: target length must be positive, got {target}")
    return target


def _smooth(real, bound):
    """Every product of the odd fast factors up to ``bound`` (the caller adds the powers
    of two)."""
    products = [1]
    for p in _FACTORS[bool(real)]:
        products = [q * p ** k for q in products for k in range(bound.bit_length())
                    if q * p ** k <= bound]
    return products


def next_fast_len(target: int, real: bool = False) -> int:
    """The smallest length ``>= target`` that SciPy's FFT (pocketfft) computes fastest:
    a product of 2, 3, 5, 7 and 11, or of 2, 3 and 5 with ``real=True``
    (``scipy.fft.next_fast_len``).  ``next_fast_len(0) == 0``.

    >>> import funcgrad.scipy.fft as ffft
    >>> ffft.next_fast_len(13), ffft.next_fast_len(13, real=True)
    (14, 15)
    """
    target = _target("next_fast_len", target)
    if target <= 6:  # (every length up to 6 is a product of 2, 3 and 5)
        return target
    # (for each odd fast q, the least q 2^k >= target; a power of two lies in [target,
    # 2 target))
    best = min(q << (-(-target // q) - 1).bit_length() for q in _smooth(real, 2 * target))
    if best > _LARGEST:
        raise ValueError(f"next_fast_len: target length is too large to perform an FFT: "
                         f"{target}")
    return best


def prev_fast_len(target: int, real: bool = False) -> int:
    """The largest length ``<= target`` that SciPy's FFT computes fastest (the counterpart
    of :func:`next_fast_len`; ``scipy.fft.prev_fast_len``).

    >>> import funcgrad.scipy.fft as ffft
    >>> ffft.prev_fast_len(13), ffft.prev_fast_len(97, real=True)
    (12, 96)
    """
    target = _target("prev_fast_len", target)
    if target <= 6:
        return target
    best = 0
    for q in _smooth(real, target):
        best = max(best, q << ((target // q).bit_length() - 1))  # the most q 2^k <= target
    return best


def _fht_coefficients(name, n, dln, mu, offset, bias, inverse):
    """The FFTLog coefficients ``u_m = (k r)^(-i 2 pi m/(n dln)) U_mu(bias + i 2 pi m/(n
    dln))``, ``U_mu(x) = 2^x Gamma((mu + 1 + x)/2) / Gamma((mu + 1 - x)/2)``, for
    ``m = 0 .. n // 2``, computed through log-gamma (the ratio of gammas overflows)."""
    from scipy.special import loggamma, poch  # (here: importing funcgrad never loads SciPy)
    y = np.linspace(0.0, math.pi * (n // 2) / (n * dln), n // 2 + 1)
    upper = loggamma((mu + 1 + bias) / 2 + 1j * y)
    lower = loggamma((mu + 1 - bias) / 2 + 1j * y)
    u = np.exp(upper.real - lower.real + math.log(2.0) * bias
               + 1j * (upper.imag + lower.imag + 2 * y * (math.log(2.0) - offset)))
    if n % 2 == 0:
        u[-1] = u[-1].real  # (the Nyquist coefficient multiplies a real entry)
    if not np.isfinite(u[0]):  # a pole of a gamma: its ratio is a Pochhammer symbol
        u[0] = 2.0 ** bias * poch((mu + 1 - bias) / 2, bias)
    if np.isinf(u[0]) and not inverse:
        warnings.warn(f"{name}: singular transform; consider changing the bias",
                      RuntimeWarning, stacklevel=3)
        u[0] = 0.0
    elif u[0] == 0 and inverse:
        warnings.warn(f"{name}: singular inverse transform; consider changing the bias",
                      RuntimeWarning, stacklevel=3)
        u[0] = np.inf
    return u


def _numbers(name, **values):
    out = []
    for key, v in values.items():
        if not isinstance(v, (int, float, np.integer, np.floating)):
            raise TypeError(f"{name}: {key} must be a real number (fht differentiates in "
                            f"the array only), got {type(v).__name__}")
        out.append(float(v))
    return out


def _hankel(name, a, dln, mu, offset, bias, inverse):
    dln, mu, offset, bias = _numbers(name, dln=dln, mu=mu, offset=offset, bias=bias)
    a = asarray(a)
    if a.ndim == 0 or a.dtype.kind not in "biuf":
        raise TypeError(f"{name}: the array must be real with at least one axis, got "
                        f"shape {a.shape} and dtype {a.dtype}")
    a = fnp.astype(a, np.float64) if a.dtype.kind != "f" or a.dtype == np.float16 else a
    n, real = a.shape[-1], a.dtype  # (float32 stays single precision, as SciPy's)
    # the power-law bias (r / r_c)^(-bias) of the input, undone on the output
    ramp = (np.arange(n) - (n - 1) / 2) * dln
    if bias != 0:
        a = a * (np.exp(bias * (ramp + offset)) if inverse else np.exp(-bias * ramp)).astype(
            real)
    u = _fht_coefficients(name, n, dln, mu, offset, bias, inverse)
    u = (1 / np.conj(u) if inverse else u).astype(np.result_type(real, np.complex64))
    out = fnp.flip(_npfft.irfft(_npfft.rfft(a, axis=-1) * u, n, axis=-1), axis=-1)
    if bias != 0:
        out = out * (np.exp(bias * ramp) if inverse else np.exp(-bias * (ramp + offset))).astype(
            real)
    return out


def fht(a: ArrayLike, dln: float, mu: float, offset: float = 0.0, bias: float = 0.0) -> Array:
    """The fast Hankel transform (FFTLog) of ``a``, sampled on a logarithmic grid of
    spacing ``dln``, of order ``mu`` (``scipy.fft.fht``); linear in ``a``, so
    differentiable in it (the other arguments are plain numbers).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.fft as ffft
    >>> r = np.logspace(-2, 2, 8)
    >>> ffft.fht(r * np.exp(-r ** 2 / 2), np.log(r[1] / r[0]), 0.5).shape
    (8,)
    >>> float(fg.grad(lambda a: ffft.fht(a, 0.1, 0.0)[0])(np.ones(4))[3]) != 0.0
    True
    """
    return _hankel("fht", a, dln, mu, offset, bias, False)


def ifht(A: ArrayLike, dln: float, mu: float, offset: float = 0.0,  # noqa: N803 - SciPy's
         bias: float = 0.0) -> Array:
    """The inverse of :func:`fht` (``scipy.fft.ifht``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> a = np.array([1.0, 2.0, 0.5, 0.25])
    >>> np.allclose(ffft.ifht(ffft.fht(a, 0.3, 1.0), 0.3, 1.0), a)
    True
    """
    return _hankel("ifht", A, dln, mu, offset, bias, True)


def fhtoffset(dln: float, mu: float, initial: float = 0.0, bias: float = 0.0) -> float:
    """The offset nearest ``initial`` that satisfies FFTLog's low-ringing condition for
    ``fht(..., dln, mu, bias=bias)`` (``scipy.fft.fhtoffset``; a plain number, computed by
    SciPy).

    >>> import funcgrad.scipy.fft as ffft
    >>> round(ffft.fhtoffset(0.1, 2.0, initial=0.5), 12)
    0.545458147768
    """
    import scipy.fft  # (here: importing funcgrad never loads SciPy)
    dln, mu, initial, bias = _numbers("fhtoffset", dln=dln, mu=mu, initial=initial,
                                      bias=bias)
    return float(scipy.fft.fhtoffset(dln, mu, initial=initial, bias=bias))
