"""The chirp z-transform for :mod:`funcgrad.scipy.signal` (re-exported there): ``czt``,
``zoom_fft``, ``czt_points`` and the reusable transforms ``CZT`` and ``ZoomFFT``, with
SciPy's signatures and values.

The transform ``X[k] = sum_j x[j] a^-j w^(j k)`` is computed as SciPy's, by Bluestein's
algorithm: with ``j k = (j^2 + k^2 - (k - j)^2) / 2`` it is a convolution of the chirped
signal ``x[j] a^-j w^(j^2/2)`` with the chirp ``w^(-l^2/2)``, done by FFT.  The chirps
depend only on ``n``, ``m``, ``w`` and ``a`` (plain numbers, fixed when the transform is
made), so the transform is linear in ``x`` and differentiates exactly in it, to any order.
A traced ``w``, ``a`` or frequency range raises ``TypeError``: the chirps are computed in
NumPy.  float32 and complex64 signals give complex64 (SciPy gives complex128).
"""
import cmath
import math
import numbers
from typing import Any, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._fft_helpers import next_fast_len

__all__ = ["czt", "zoom_fft", "czt_points", "CZT", "ZoomFFT"]


def _sizes(name, n, m):
    """SciPy's checks of the signal and output lengths; ``m`` defaults to ``n``."""
    if not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"{name}: invalid number of CZT data points ({n}) specified; n "
                         f"must be a positive integer")
    if m is None:
        return int(n), int(n)
    if not isinstance(m, numbers.Integral) or m < 1:
        raise ValueError(f"{name}: invalid number of CZT output points ({m}) specified; m "
                         f"must be a positive integer")
    return int(n), int(m)


def _plain(name, **values):
    for label, value in values.items():
        parts = value if isinstance(value, (list, tuple)) else (value,)
        if any(isinstance(v, Tracer) for v in parts):
            raise TypeError(f"{name}: {label} is a traced value, but the chirps of the "
                            f"transform are computed once in NumPy, so it has no "
                            f"derivative in {label}; pass {label} as a plain number (the "
                            f"transform differentiates in the signal x)")


class CZT:
    """A chirp z-transform of ``n``-point signals at ``m`` points ``a w^-k`` of a spiral in
    the z-plane (``scipy.signal.CZT``): ``CZT(n, m, w, a)(x, axis=-1)``.

    The defaults (``m = n``, ``w = exp(-2 pi i / m)``, ``a = 1``) make it the DFT.  The
    transform is linear in ``x`` and differentiates in it; ``w`` and ``a`` are plain
    numbers.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t = fss.CZT(4)
    >>> np.round(t(np.array([1.0, 2.0, 3.0, 4.0])), 10)
    array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    >>> np.round(t.points(), 10)
    array([ 1.+0.j,  0.+1.j, -1.+0.j, -0.-1.j])
    """

    def __init__(self, n: int, m: Optional[int] = None, w: Optional[complex] = None,
                 a: complex = 1 + 0j) -> None:
        n, m = _sizes(type(self).__name__, n, m)
        _plain(type(self).__name__, w=w, a=a)
        k = np.arange(max(m, n), dtype=np.int64)
        if w is None:
            # (k^2 mod 2m keeps the phase exact for large k)
            w = cmath.exp(-2j * math.pi / m)
            wk2 = np.exp(-(1j * math.pi * ((k ** 2) % (2 * m))) / m)
        else:
            wk2 = np.asarray(w) ** (k.astype(np.float64) ** 2 / 2.0)
        a = 1.0 * a
        self.w, self.a = w, a
        self.m, self.n = m, n
        self._chirps(np.asarray(a) ** -k[:n].astype(np.float64) * wk2[:n], wk2)

    def _chirps(self, pre: np.ndarray, wk2: np.ndarray) -> None:
        """The constants of Bluestein's algorithm: the chirp that multiplies the signal,
        the transform of the convolving chirp, and the chirp of the output."""
        n, m = self.n, self.m
        self._nfft = next_fast_len(n + m - 1)
        self._pre = pre
        self._kernel = np.fft.fft(1 / np.concatenate([wk2[n - 1:0:-1], wk2[:m]]),
                                  self._nfft)
        self._post = wk2[:m]

    def __call__(self, x: ArrayLike, *, axis: int = -1) -> Array:
        """The transform of ``x`` along ``axis`` (whose length must be ``n``): an array of
        ``x``'s shape with that axis ``m`` long."""
        name = type(self).__name__
        x = asarray(x)
        if x.dtype.kind not in "biufc":
            raise TypeError(f"{name}: x must be a numeric array, got dtype {x.dtype}")
        if x.ndim == 0:
            raise ValueError(f"{name}: x must have at least one axis, got a 0-d array")
        if not -x.ndim <= axis < x.ndim:
            raise np.exceptions.AxisError(f"{name}: axis {axis} is out of bounds for an "
                                          f"array of dimension {x.ndim}")
        if x.shape[axis] != self.n:
            raise ValueError(f"{name} defined for length {self.n}, not {x.shape[axis]}; "
                             f"make a transform for this length")
        single = x.dtype in (np.float32, np.complex64, np.float16)
        cdtype = np.complex64 if single else np.complex128
        x = fnp.moveaxis(fnp.astype(x, cdtype), axis, -1)
        spectrum = fnp.fft.fft(x * self._pre.astype(cdtype), self._nfft, axis=-1)
        y = fnp.fft.ifft(spectrum * self._kernel.astype(cdtype), axis=-1)
        y = y[..., self.n - 1:self.n + self.m - 1] * self._post.astype(cdtype)
        return fnp.moveaxis(y, -1, axis)

    def points(self) -> np.ndarray:
        """The points of the z-plane at which the transform is computed
        (:func:`czt_points` of its ``m``, ``w`` and ``a``)."""
        return np.asarray(czt_points(self.m, self.w, self.a))


class ZoomFFT(CZT):
    """The DFT of ``n``-point signals at ``m`` frequencies from ``f1`` to ``f2`` (``fn =
    [f1, f2]``, or ``fn = f2`` from 0) for a sampling frequency ``fs``
    (``scipy.signal.ZoomFFT``); ``endpoint=True`` includes ``f2``.  A :class:`CZT` on the
    unit circle, linear in the signal; ``fn`` and ``fs`` are plain numbers.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t = fss.ZoomFFT(4, [0.0, 1.0], m=2)      # frequencies 0 and 0.5 (fs = 2)
    >>> np.round(t(np.array([1.0, 2.0, 3.0, 4.0])), 10)
    array([10.+0.j, -2.+2.j])
    """

    def __init__(self, n: int, fn: Union[float, Sequence[float]], m: Optional[int] = None,
                 *, fs: float = 2, endpoint: bool = False) -> None:
        n, m = _sizes("ZoomFFT", n, m)
        _plain("ZoomFFT", fn=fn, fs=fs)
        if np.size(fn) == 2:
            f1, f2 = np.ravel(np.asarray(fn)).tolist()
        elif np.size(fn) == 1:
            f1, f2 = 0.0, fn
        else:
            raise ValueError("ZoomFFT: fn must be a scalar or 2-length sequence")
        self.f1, self.f2, self.fs = f1, f2, fs
        if endpoint:
            if m == 1:
                raise ValueError("ZoomFFT: endpoint=True needs m >= 2 (the step is (f2 - "
                                 "f1) / (m - 1))")
            scale = ((f2 - f1) * m) / (fs * (m - 1))
        else:
            scale = (f2 - f1) / fs
        k = np.arange(max(m, n), dtype=np.float64)
        wk2 = np.exp(-(1j * math.pi * scale * k ** 2) / m)
        self.w = cmath.exp(-2j * math.pi / m * scale)
        self.a = cmath.exp(2j * math.pi * f1 / fs)
        self.m, self.n = m, n
        self._chirps(np.exp(-2j * math.pi * f1 / fs * k[:n]) * wk2[:n], wk2)


def czt(x: ArrayLike, m: Optional[int] = None, w: Optional[complex] = None,
        a: complex = 1 + 0j, *, axis: int = -1) -> Array:
    """The chirp z-transform of ``x`` along ``axis`` at the ``m`` points ``a w^-k``
    (``scipy.signal.czt``); the defaults give the DFT (and ``czt(x, m)`` for ``m > n``
    equals ``fft(x, m)``).  Linear in ``x``, so differentiable in it.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.signal as fss
    >>> x = np.array([1.0, 0.5, 0.25])
    >>> np.round(fss.czt(x, m=1, a=2.0).real, 12)     # the z-transform at z = 2
    array([1.3125])
    >>> float(fg.grad(lambda x: fss.czt(x, m=1, a=2.0)[0].real)(x)[2])
    0.25
    """
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("czt: x must have at least one axis, got a 0-d array")
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(f"czt: axis {axis} is out of bounds for an array of "
                                      f"dimension {x.ndim}")
    return CZT(x.shape[axis], m=m, w=w, a=a)(x, axis=axis)


def zoom_fft(x: ArrayLike, fn: Union[float, Sequence[float]], m: Optional[int] = None, *,
             fs: float = 2, endpoint: bool = False, axis: int = -1) -> Array:
    """The DFT of ``x`` along ``axis`` at ``m`` frequencies from ``f1`` to ``f2`` only
    (``scipy.signal.zoom_fft``; ``fn = [f1, f2]`` or ``f2``, sampling frequency ``fs``).
    Linear in ``x``, so differentiable in it.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.cos(np.pi * np.arange(8) / 2)           # a quarter of the sampling rate
    >>> np.abs(fss.zoom_fft(x, [0.25, 0.75], m=3, endpoint=True, fs=2.0)).round(6)
    array([0., 4., 0.])
    """
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("zoom_fft: x must have at least one axis, got a 0-d array")
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(f"zoom_fft: axis {axis} is out of bounds for an "
                                      f"array of dimension {x.ndim}")
    return ZoomFFT(x.shape[axis], fn, m=m, fs=fs, endpoint=endpoint)(x, axis=axis)


def czt_points(m: int, w: Optional[Any] = None, a: Any = 1 + 0j) -> Array:
    """The ``m`` points ``a w^-k`` of the z-plane at which :func:`czt` computes the
    transform (``scipy.signal.czt_points``; by default ``m`` points around the unit
    circle).  Differentiable in ``a`` and ``w``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.czt_points(4), 12) + 0.0
    array([ 1.+0.j,  0.+1.j, -1.+0.j,  0.-1.j])
    >>> fss.czt_points(3, 0.5, 2.0)
    array([2., 4., 8.])
    """
    _, m = _sizes("czt_points", 1, m)
    k = np.arange(m)
    a = 1.0 * a
    if w is None:
        return a * np.exp(2j * math.pi * k / m)
    return a * fnp.power(1.0 * w, -k.astype(np.float64))
