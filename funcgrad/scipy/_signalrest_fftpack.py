"""The rest of ``scipy.fftpack`` for :mod:`funcgrad.scipy.fftpack` (re-exported there):
the pseudo-differential operators ``diff``, ``tilbert``, ``itilbert``, ``hilbert``,
``ihilbert``, ``cs_diff``, ``sc_diff``, ``ss_diff``, ``cc_diff`` and ``shift``; the real
transforms ``rfft``/``irfft`` in fftpack's packed layout; and the helpers ``fftfreq``,
``rfftfreq``, ``fftshift``, ``ifftshift`` and ``next_fast_len``.

Each operator multiplies the Fourier coefficients ``X[k]`` of a periodic sequence by a
function ``m(k)`` of the integer frequency (``m(-k) = conj(m(k))``, so a real sequence
stays real), done as ``irfft(m * rfft(x))``: the Nyquist coefficient of an even length
is real, so it is multiplied by ``Re m`` (zero for the odd operators, as fftpack's).  A
complex sequence is transformed as its real and imaginary parts.  The multipliers are
written with funcgrad operations, so the results differentiate in ``x`` (linearly) and
in ``h``, ``a``, ``b`` and ``period``.

fftpack's ``rfft`` packs the ``n // 2 + 1`` coefficients of a real sequence into ``n``
reals, ``[Re X0, Re X1, Im X1, Re X2, Im X2, ...]`` (an even ``n`` ends with the real
Nyquist coefficient); ``irfft`` reads that layout.
"""
import math
import operator
from typing import Any, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy import fft as _npfft
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._fft_helpers import next_fast_len as _next_fast_len

__all__ = ["diff", "tilbert", "itilbert", "hilbert", "ihilbert", "cs_diff", "sc_diff",
           "ss_diff", "cc_diff", "shift", "rfft", "irfft", "fftfreq", "rfftfreq",
           "fftshift", "ifftshift", "next_fast_len"]


def _sequence(name, x):
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError(f"fftpack.{name}: x must be a 1-d sequence (as fftpack's), got shape "
                         f"{x.shape}; apply it along an axis with funcgrad.vmap")
    if x.dtype.kind not in "biufc":
        raise TypeError(f"fftpack.{name}: x must be numeric, got dtype {x.dtype}")
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    return x


def _multiplied(x, multiplier, nyquist=None):
    """``x`` with its Fourier coefficients multiplied by ``multiplier(k)`` (``k`` the
    non-negative integer frequencies), the Nyquist one of an even length by
    ``nyquist(k)`` when given (else by the real part of ``multiplier``)."""
    n = x.shape[0]
    if x.dtype.kind == "c":
        return (_multiplied(fnp.real(x), multiplier, nyquist)
                + 1j * _multiplied(fnp.imag(x), multiplier, nyquist))
    k = np.arange(n // 2 + 1, dtype=np.float64)
    m = multiplier(k)
    if nyquist is not None and n % 2 == 0:
        m = fnp.where(k == n // 2, nyquist(k), m)
    single = x.dtype == np.float32
    if single and getattr(m, "dtype", None) is not None:
        m = fnp.astype(m, np.complex64 if m.dtype.kind == "c" else np.float32)
    return _npfft.irfft(_npfft.rfft(x) * m, n)


def _scale(value, period):
    """A length in samples of a ``period``-periodic sequence, in radians per sample."""
    return value if period is None else value * 2 * math.pi / period


def _odd(kernel):
    """``i kernel(k)`` for ``k > 0`` and 0 at ``k = 0`` (``kernel`` evaluated at 1 there,
    so that its derivative stays finite)."""
    def multiplier(k):
        positive = k > 0
        return fnp.where(positive, 1j * kernel(np.where(positive, k, 1.0)), 0.0)
    return multiplier


def diff(x: ArrayLike, order: int = 1, period: Optional[float] = None) -> Array:
    """The ``order``-th derivative (or integral, for a negative order) of the periodic
    sequence ``x`` of ``period`` (default ``2 pi``), spectrally
    (``scipy.fftpack.diff``): ``X[k] (i 2 pi k / period)^order``, the mean and (for an
    even length) the Nyquist coefficient removed.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.diff(np.sin(t)), np.cos(t))
    True
    """
    seq = _sequence("diff", x)
    order = operator.index(order)
    if order == 0:
        return seq
    c = 1.0 if period is None else 2 * math.pi / period

    def multiplier(k):
        positive = k > 0
        return fnp.where(positive, (1j * c * np.where(positive, k, 1.0)) ** order, 0.0)
    # (fftpack drops the Nyquist coefficient of an even length, for every order)
    return _multiplied(seq, multiplier, lambda k: 0.0)


def tilbert(x: ArrayLike, h: ArrayLike, period: Optional[float] = None) -> Array:
    """The h-Tilbert transform of the periodic sequence ``x``
    (``scipy.fftpack.tilbert``): ``X[k] i coth(2 pi h k / period)``, ``X[0]`` dropped.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.tilbert(np.sin(t), 1.0), np.cos(t) / np.tanh(1.0))
    True
    """
    x = _sequence("tilbert", x)
    h = _scale(h, period)
    return _multiplied(x, _odd(lambda k: 1.0 / fnp.tanh(h * k)))


def itilbert(x: ArrayLike, h: ArrayLike, period: Optional[float] = None) -> Array:
    """The inverse h-Tilbert transform (``scipy.fftpack.itilbert``): ``X[k] (-i) tanh(2
    pi h k / period)``, ``X[0]`` dropped.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.itilbert(fp.tilbert(np.sin(t), 0.5), 0.5), np.sin(t))
    True
    """
    x = _sequence("itilbert", x)
    h = _scale(h, period)
    return _multiplied(x, _odd(lambda k: -fnp.tanh(h * k)))


def hilbert(x: ArrayLike) -> Array:
    """The Hilbert transform of the periodic sequence ``x`` (``scipy.fftpack.hilbert``):
    ``X[k] i sign(k)``, ``X[0]`` dropped (not ``scipy.signal.hilbert``'s analytic
    signal).

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.hilbert(np.sin(t)), np.cos(t))
    True
    """
    return _multiplied(_sequence("hilbert", x), _odd(lambda k: np.ones_like(k)))


def ihilbert(x: ArrayLike) -> Array:
    """The inverse Hilbert transform, ``-hilbert(x)`` (``scipy.fftpack.ihilbert``).

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.ihilbert(np.cos(t)), np.sin(t))
    True
    """
    return -hilbert(x)


def cs_diff(x: ArrayLike, a: ArrayLike, b: ArrayLike, period: Optional[float] = None) -> Array:
    """The (a, b)-cosh/sinh pseudo-derivative (``scipy.fftpack.cs_diff``): ``X[k] (-i)
    cosh(a k') / sinh(b k')``, ``k' = 2 pi k / period``, ``X[0]`` dropped.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.cs_diff(np.sin(t), 0.5, 1.0), -np.cosh(0.5) / np.sinh(1.0) * np.cos(t))
    True
    """
    x = _sequence("cs_diff", x)
    a, b = _scale(a, period), _scale(b, period)
    return _multiplied(x, _odd(lambda k: -fnp.cosh(a * k) / fnp.sinh(b * k)))


def sc_diff(x: ArrayLike, a: ArrayLike, b: ArrayLike, period: Optional[float] = None) -> Array:
    """The (a, b)-sinh/cosh pseudo-derivative (``scipy.fftpack.sc_diff``): ``X[k] i
    sinh(a k') / cosh(b k')``, ``X[0]`` dropped.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.sc_diff(np.sin(t), 0.5, 1.0), np.sinh(0.5) / np.cosh(1.0) * np.cos(t))
    True
    """
    x = _sequence("sc_diff", x)
    a, b = _scale(a, period), _scale(b, period)
    return _multiplied(x, _odd(lambda k: fnp.sinh(a * k) / fnp.cosh(b * k)))


def ss_diff(x: ArrayLike, a: ArrayLike, b: ArrayLike, period: Optional[float] = None) -> Array:
    """The (a, b)-sinh/sinh pseudo-derivative (``scipy.fftpack.ss_diff``): ``X[k]
    sinh(a k') / sinh(b k')``, ``X[0] a / b``.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> fp.ss_diff(np.ones(4), 1.0, 2.0)
    array([0.5, 0.5, 0.5, 0.5])
    """
    x = _sequence("ss_diff", x)
    a, b = _scale(a, period), _scale(b, period)

    def multiplier(k):
        positive = k > 0
        safe = np.where(positive, k, 1.0)
        return fnp.where(positive, fnp.sinh(a * safe) / fnp.sinh(b * safe), a / b)
    return _multiplied(x, multiplier)


def cc_diff(x: ArrayLike, a: ArrayLike, b: ArrayLike, period: Optional[float] = None) -> Array:
    """The (a, b)-cosh/cosh pseudo-derivative (``scipy.fftpack.cc_diff``): ``X[k]
    cosh(a k') / cosh(b k')``.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> fp.cc_diff(np.ones(4), 1.0, 2.0)
    array([1., 1., 1., 1.])
    """
    x = _sequence("cc_diff", x)
    a, b = _scale(a, period), _scale(b, period)
    return _multiplied(x, lambda k: fnp.cosh(a * k) / fnp.cosh(b * k))


def shift(x: ArrayLike, a: ArrayLike, period: Optional[float] = None) -> Array:
    """The periodic sequence ``x`` shifted by ``a`` (``x(t + a)``, the period ``2 pi`` by
    default) by the Fourier shift theorem (``scipy.fftpack.shift``): ``X[k] exp(i a
    k')`` (at the Nyquist frequency of an even length, ``cos + sin`` of the phase, as
    fftpack).  Differentiable in ``x`` and in ``a``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.fftpack as fp
    >>> t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> np.allclose(fp.shift(np.sin(t), 0.3), np.sin(t + 0.3))
    True
    >>> round(float(fg.grad(lambda a: fp.shift(np.sin(t), a)[0])(0.3)), 12)   # cos(0.3)
    0.955336489126
    """
    x = _sequence("shift", x)
    a = _scale(a, period)
    # (at the Nyquist frequency of an even length fftpack multiplies the one real
    # coefficient by cos + sin of the phase: kept, for SciPy's values)
    return _multiplied(x, lambda k: fnp.exp(1j * (a * k)),
                       lambda k: fnp.cos(a * k) + fnp.sin(a * k))


# --- fftpack's real transforms ----------------------------------------------------------------

def _real_input(name, x, n, axis):
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"fftpack.{name}: x must be real, got {x.dtype}; use fftpack.fft")
    if x.dtype.kind not in "biuf":
        raise TypeError(f"fftpack.{name}: x must be numeric, got dtype {x.dtype}")
    if x.dtype.kind != "f" or x.dtype == np.float16:
        x = fnp.astype(x, np.float64 if x.dtype.kind != "f" else np.float32)
    if x.ndim == 0:
        raise ValueError(f"fftpack.{name}: x must have at least one axis")
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"fftpack.{name}: axis {axis} is out of bounds for an array of "
                         f"dimension {x.ndim}")
    n = x.shape[axis] if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"fftpack.{name}: invalid number of data points ({n}) specified")
    x = fnp.moveaxis(x, axis, -1)
    if x.shape[-1] > n:
        x = x[..., :n]
    elif x.shape[-1] < n:
        x = fnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(0, n - x.shape[-1])])
    return x, n, axis


def rfft(x: ArrayLike, n: Optional[int] = None, axis: int = -1,
         overwrite_x: bool = False) -> Array:
    """The DFT of a real sequence in fftpack's packed real layout
    (``scipy.fftpack.rfft``): ``[Re X0, Re X1, Im X1, Re X2, Im X2, ...]``, ``n`` reals
    (not ``numpy.fft.rfft``'s complex half-spectrum).  Linear, differentiable.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> fp.rfft(np.array([1.0, 2.0, 3.0, 4.0]))
    array([10., -2.,  2., -2.])
    """
    x, n, axis = _real_input("rfft", x, n, axis)
    half = _npfft.rfft(x, n, axis=-1)
    pairs = fnp.stack([fnp.real(half), fnp.imag(half)], axis=-1)
    packed = fnp.reshape(pairs, pairs.shape[:-2] + (-1,))
    packed = fnp.concatenate([packed[..., :1], packed[..., 2:n + 1]], axis=-1)
    return fnp.moveaxis(packed, -1, axis)


def irfft(x: ArrayLike, n: Optional[int] = None, axis: int = -1,
          overwrite_x: bool = False) -> Array:
    """The real sequence whose :func:`rfft` (fftpack's packed layout) is ``x``
    (``scipy.fftpack.irfft``), ``x`` cut or zero-padded to ``n``.  Linear,
    differentiable.

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> fp.irfft(np.array([10.0, -2.0, 2.0, -2.0]))
    array([1., 2., 3., 4.])
    """
    packed, n, axis = _real_input("irfft", x, n, axis)
    rest = packed[..., 1:]
    if n % 2 == 0:  # (the Nyquist coefficient has no imaginary part stored)
        rest = fnp.pad(rest, [(0, 0)] * (packed.ndim - 1) + [(0, 1)])
    pairs = fnp.reshape(rest, rest.shape[:-1] + (-1, 2))
    half = fnp.concatenate([packed[..., :1] + 0j, pairs[..., 0] + 1j * pairs[..., 1]], axis=-1)
    return fnp.moveaxis(_npfft.irfft(half, n, axis=-1), -1, axis)


# --- helpers -----------------------------------------------------------------------------------

def fftfreq(n: int, d: ArrayLike = 1.0, device: Any = None) -> Array:
    """The sample frequencies of an ``n``-point DFT with spacing ``d``
    (``scipy.fftpack.fftfreq``), differentiable in ``d``.

    >>> import funcgrad.scipy.fftpack as fp
    >>> fp.fftfreq(4, 0.5)
    array([ 0. ,  0.5, -1. , -0.5])
    """
    return _npfft.fftfreq(operator.index(n), d)


def rfftfreq(n: int, d: ArrayLike = 1.0) -> Array:
    """The frequencies of fftpack's packed :func:`rfft` entries, each repeated for its
    real and imaginary part (``scipy.fftpack.rfftfreq``: ``[0, 1, 1, 2, 2, ...] / (n
    d)``, not ``numpy.fft.rfftfreq``), differentiable in ``d``.

    >>> import funcgrad.scipy.fftpack as fp
    >>> fp.rfftfreq(5, 0.5)
    array([0. , 0.4, 0.4, 0.8, 0.8])
    """
    n = operator.index(n)
    if n < 0:
        raise ValueError(f"fftpack.rfftfreq: n = {n} is not valid; n must be a nonnegative "
                         f"integer")
    return (np.arange(1, n + 1, dtype=int) // 2 / float(n)) / d


def fftshift(x: ArrayLike, axes: Optional[Union[int, Sequence[int]]] = None) -> Array:
    """The zero frequency moved to the middle (``scipy.fftpack.fftshift``).

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> fp.fftshift(np.array([0.0, 1.0, 2.0, -2.0, -1.0]))
    array([-2., -1.,  0.,  1.,  2.])
    """
    return _npfft.fftshift(x, axes)


def ifftshift(x: ArrayLike, axes: Optional[Union[int, Sequence[int]]] = None) -> Array:
    """The inverse of :func:`fftshift` (``scipy.fftpack.ifftshift``).

    >>> import numpy as np, funcgrad.scipy.fftpack as fp
    >>> fp.ifftshift(np.array([-2.0, -1.0, 0.0, 1.0, 2.0]))
    array([ 0.,  1.,  2., -2., -1.])
    """
    return _npfft.ifftshift(x, axes)


def next_fast_len(target: int) -> int:
    """The smallest length ``>= target`` that is a product of 2, 3 and 5, fast for
    fftpack (``scipy.fftpack.next_fast_len``).

    >>> import funcgrad.scipy.fftpack as fp
    >>> fp.next_fast_len(13), fp.next_fast_len(7)
    (15, 8)
    """
    target = operator.index(target)
    if target < 1:
        raise ValueError(f"fftpack.next_fast_len: target must be a positive integer, got "
                         f"{target}")
    return _next_fast_len(target, real=True)
