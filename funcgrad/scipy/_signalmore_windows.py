"""Window functions for ``funcgrad.scipy.signal.windows``, with SciPy's names,
signatures, defaults and values (the windows designed from a sidelobe level or a
concentration, ``chebwin``, ``taylor`` and ``dpss``, are in
:mod:`._signalmore_windows_design`; ``get_window`` in :mod:`._signalmore_getwindow`).

The length ``M`` decides the shape, so it is a plain integer; the continuous parameters
(kaiser's ``beta``, gaussian's ``std``, tukey's ``alpha``, general_hamming's ``alpha``,
general_cosine's ``a``, general_gaussian's ``p`` and ``sig``, exponential's ``tau`` and
``center``) enter through funcgrad operations, so a window
differentiates in them.  A periodic window (``sym=False``, what ``get_window`` gives by
default, for spectral analysis) is the symmetric window of ``M + 1`` points less its
last, as SciPy's.  Results are float64 for plain parameters.
"""
import operator
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._signal_xp import check_xp_device

__all__ = ["general_cosine", "boxcar", "triang", "parzen", "bohman", "blackman", "nuttall",
           "blackmanharris", "flattop", "bartlett", "hann", "tukey", "barthann",
           "general_hamming", "hamming", "kaiser", "kaiser_bessel_derived", "gaussian",
           "general_gaussian", "cosine", "exponential", "lanczos"]


def _length(name: str, M: Any) -> int:
    if isinstance(M, Tracer):
        raise TypeError(f"{name}: M is a traced value, but the window's length decides its "
                        f"shape; pass M as a plain integer")
    try:
        m = operator.index(M)
    except TypeError:
        if isinstance(M, (float, np.floating)) and float(M).is_integer():
            m = int(M)  # (SciPy accepts an integral float)
        else:
            raise ValueError(f"{name}: window length M must be a non-negative integer, got "
                             f"{M!r}") from None
    if m < 0:
        raise ValueError(f"{name}: window length M must be a non-negative integer, got {m}")
    return m


def _extend(M: int, sym: bool) -> tuple[int, bool]:
    """The symmetric length to compute, and whether to drop its last point."""
    return (M, False) if sym else (M + 1, True)


def _truncate(w, needed):
    return w[:-1] if needed else w


def _ones(M):
    return np.ones(M)


def _centred(M):
    """``n - (M - 1) / 2`` for ``n = 0 .. M-1``: the window's abscissae about its centre."""
    return np.arange(M) - (M - 1.0) / 2.0


def general_cosine(M: int, a: ArrayLike, sym: bool = True) -> Array:
    """The weighted sum of cosines ``w[n] = sum_k a[k] cos(k x_n)``, ``x`` from ``-pi`` to
    ``pi`` (``scipy.signal.windows.general_cosine``); differentiable in ``a``.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.general_cosine(5, [0.5, 0.5])
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    M = _length("general_cosine", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError(f"general_cosine: a must be a 1-d sequence of weights, got shape "
                         f"{a.shape}")
    fac = np.linspace(-np.pi, np.pi, M)
    basis = np.cos(np.arange(a.shape[0])[:, None] * fac[None, :])  # (terms, M)
    w = fnp.tensordot(a, basis, axes=1) if a.shape[0] else np.zeros(M)
    return _truncate(w, trunc)


def boxcar(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The rectangular window, all ones (``scipy.signal.windows.boxcar``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.boxcar(3)
    array([1., 1., 1.])
    """
    check_xp_device(xp, device, "boxcar")
    return _ones(_length("boxcar", M))


def triang(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The triangular window, non-zero at its ends (``scipy.signal.windows.triang``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.triang(4)
    array([0.25, 0.75, 0.75, 0.25])
    """
    check_xp_device(xp, device, "triang")
    M = _length("triang", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = np.arange(1, (M + 1) // 2 + 1)
    if M % 2 == 0:
        half = (2 * n - 1.0) / M
        w = np.r_[half, half[::-1]]
    else:
        half = 2 * n / (M + 1.0)
        w = np.r_[half, half[-2::-1]]
    return _truncate(w, trunc)


def parzen(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The Parzen window, a piecewise cubic (``scipy.signal.windows.parzen``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.parzen(5)
    array([0.016, 0.424, 1.   , 0.424, 0.016])
    """
    check_xp_device(xp, device, "parzen")
    M = _length("parzen", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = np.arange(-(M - 1) / 2.0, (M - 1) / 2.0 + 0.5, 1.0)
    outer = n[n < -(M - 1) / 4.0]
    inner = n[np.abs(n) <= (M - 1) / 4.0]
    w_out = 2 * (1 - np.abs(outer) / (M / 2.0)) ** 3.0
    r = np.abs(inner) / (M / 2.0)
    w_in = 1 - 6 * r ** 2.0 + 6 * r ** 3.0
    return _truncate(np.r_[w_out, w_in, w_out[::-1]], trunc)


def bohman(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The Bohman window, the convolution of two half-cosines
    (``scipy.signal.windows.bohman``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.bohman(3)
    array([0., 1., 0.])
    """
    check_xp_device(xp, device, "bohman")
    M = _length("bohman", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    fac = np.abs(np.linspace(-1, 1, M)[1:-1])
    w = (1 - fac) * np.cos(np.pi * fac) + 1.0 / np.pi * np.sin(np.pi * fac)
    return _truncate(np.r_[0, w, 0], trunc)


def blackman(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The Blackman window, three cosine terms 0.42, 0.50, 0.08
    (``scipy.signal.windows.blackman``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.blackman(5), 6) + 0.0
    array([0.  , 0.34, 1.  , 0.34, 0.  ])
    """
    check_xp_device(xp, device, "blackman")
    return general_cosine(M, [0.42, 0.50, 0.08], sym)


def nuttall(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """Nuttall's minimum 4-term Blackman-Harris window
    (``scipy.signal.windows.nuttall``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.nuttall(3), 7)
    array([3.628e-04, 1.000e+00, 3.628e-04])
    """
    check_xp_device(xp, device, "nuttall")
    return general_cosine(M, [0.3635819, 0.4891775, 0.1365995, 0.0106411], sym)


def blackmanharris(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The minimum 4-term Blackman-Harris window
    (``scipy.signal.windows.blackmanharris``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.blackmanharris(3), 5)
    array([6.e-05, 1.e+00, 6.e-05])
    """
    check_xp_device(xp, device, "blackmanharris")
    return general_cosine(M, [0.35875, 0.48829, 0.14128, 0.01168], sym)


def flattop(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The flat top window, five cosine terms (``scipy.signal.windows.flattop``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.flattop(3), 6)
    array([-4.21e-04,  1.00e+00, -4.21e-04])
    """
    check_xp_device(xp, device, "flattop")
    return general_cosine(M, [0.21557895, 0.41663158, 0.277263158, 0.083578947,
                              0.006947368], sym)


def bartlett(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The Bartlett window, a triangle that is zero at its ends
    (``scipy.signal.windows.bartlett``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.bartlett(5)
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    check_xp_device(xp, device, "bartlett")
    M = _length("bartlett", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = np.arange(0, M)
    w = np.where(np.less_equal(n, (M - 1) / 2.0), 2.0 * n / (M - 1), 2.0 - 2.0 * n / (M - 1))
    return _truncate(w, trunc)


def general_hamming(M: int, alpha: ArrayLike, sym: bool = True,
                    *, xp: Any = None, device: Any = None) -> Array:
    """The generalized Hamming window ``alpha - (1 - alpha) cos(2 pi n / (M - 1))``
    (``scipy.signal.windows.general_hamming``); differentiable in ``alpha``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.general_hamming(3, 0.6)
    array([0.2, 1. , 0.2])
    """
    check_xp_device(xp, device, "general_hamming")
    return general_cosine(M, fnp.stack([asarray(alpha), 1.0 - asarray(alpha)]), sym)


def hann(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The Hann window, a raised cosine (``scipy.signal.windows.hann``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.hann(5)
    array([0. , 0.5, 1. , 0.5, 0. ])
    """
    check_xp_device(xp, device, "hann")
    return general_cosine(M, [0.5, 0.5], sym)


def hamming(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The Hamming window, ``general_hamming`` with ``alpha = 0.54``
    (``scipy.signal.windows.hamming``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.hamming(3)
    array([0.08, 1.  , 0.08])
    """
    check_xp_device(xp, device, "hamming")
    return general_cosine(M, [0.54, 1.0 - 0.54], sym)


def barthann(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The modified Bartlett-Hann window (``scipy.signal.windows.barthann``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.barthann(3)
    array([0., 1., 0.])
    """
    check_xp_device(xp, device, "barthann")
    M = _length("barthann", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    fac = np.abs(np.arange(0, M) / (M - 1.0) - 0.5)
    w = 0.62 - 0.48 * fac + 0.38 * np.cos(2 * np.pi * fac)
    return _truncate(w, trunc)


def tukey(M: int, alpha: ArrayLike = 0.5, sym: bool = True,
          *, xp: Any = None, device: Any = None) -> Array:
    """The Tukey (tapered cosine) window: cosine lobes over a fraction ``alpha`` of the
    window, flat between them (``scipy.signal.windows.tukey``).  Differentiable in
    ``alpha`` (the number of samples in the lobes depends on its value, so it must be
    known: not under ``jit``/``vmap``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import funcgrad.scipy.signal.windows as fw
    >>> fw.tukey(5, 0.5)
    array([0., 1., 1., 1., 0.])
    """
    check_xp_device(xp, device, "tukey")
    M = _length("tukey", M)
    if M <= 1:
        return _ones(M)
    a = float(concrete_values(alpha, "tukey's window (its number of tapered samples)",
                              "Pass alpha as a plain number."))
    if a <= 0:
        return _ones(M) + 0.0 * alpha
    if a >= 1.0:
        return hann(M, sym=sym) + 0.0 * alpha
    M, trunc = _extend(M, sym)
    n = np.arange(0, M)
    width = int(np.floor(a * (M - 1) / 2.0))
    n1, n3 = n[0:width + 1], n[M - width - 1:]
    w1 = 0.5 * (1 + fnp.cos(np.pi * (-1 + 2.0 * n1 / alpha / (M - 1))))
    w3 = 0.5 * (1 + fnp.cos(np.pi * (-2.0 / alpha + 1 + 2.0 * n3 / alpha / (M - 1))))
    w = fnp.concatenate([w1, np.ones(M - 2 * width - 2), w3])
    return _truncate(w, trunc)


def kaiser(M: int, beta: ArrayLike, sym: bool = True,
           *, xp: Any = None, device: Any = None) -> Array:
    """The Kaiser window ``I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) / I0(beta)``
    (``scipy.signal.windows.kaiser``); differentiable in ``beta``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.kaiser(3, 5.0), 6)
    array([0.036711, 1.      , 0.036711])
    """
    check_xp_device(xp, device, "kaiser")
    M = _length("kaiser", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = np.arange(0, M)
    half = (M - 1) / 2.0
    radius = np.sqrt(1 - ((n - half) / half) ** 2.0)
    w = fnp.i0(beta * radius) / fnp.i0(beta)
    return _truncate(w, trunc)


def kaiser_bessel_derived(M: int, beta: ArrayLike, *, sym: bool = True,
                          xp: Any = None, device: Any = None) -> Array:
    """The Kaiser-Bessel derived window of even length ``M``, for MDCT filter banks
    (``scipy.signal.windows.kaiser_bessel_derived``); differentiable in ``beta``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.kaiser_bessel_derived(4, 2.0), 6)
    array([0.483392, 0.875404, 0.875404, 0.483392])
    """
    check_xp_device(xp, device, "kaiser_bessel_derived")
    M = _length("kaiser_bessel_derived", M)
    if not sym:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for symmetric "
                         "shapes")
    if M < 1:
        return np.array([])
    if M % 2:
        raise ValueError("Kaiser-Bessel Derived windows are only defined for even number "
                         "of points")
    kw = kaiser(M // 2 + 1, beta)
    csum = fnp.cumsum(kw)
    half = fnp.sqrt(csum[:-1] / csum[-1])
    return fnp.concatenate([half, half[::-1]])


def gaussian(M: int, std: ArrayLike, sym: bool = True,
             *, xp: Any = None, device: Any = None) -> Array:
    """The Gaussian window ``exp(-n^2 / (2 std^2))``, ``n`` about the centre
    (``scipy.signal.windows.gaussian``); differentiable in ``std``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.gaussian(3, 1.0), 6)
    array([0.606531, 1.      , 0.606531])
    """
    check_xp_device(xp, device, "gaussian")
    M = _length("gaussian", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = _centred(M)
    w = fnp.exp(-n ** 2 / (2 * std * std))
    return _truncate(w, trunc)


def general_gaussian(M: int, p: ArrayLike, sig: ArrayLike, sym: bool = True,
                     *, xp: Any = None, device: Any = None) -> Array:
    """The generalized Gaussian ``exp(-|n / sig|^(2p) / 2)``
    (``scipy.signal.windows.general_gaussian``); differentiable in ``p`` and ``sig``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.general_gaussian(3, 1.5, 1.0), 6)
    array([0.606531, 1.      , 0.606531])
    """
    check_xp_device(xp, device, "general_gaussian")
    M = _length("general_gaussian", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    n = _centred(M)
    # |n| is a constant: its power's derivative in p is |n/sig|^2p log|n/sig|, which at the
    # centre (n = 0) is 0 * -inf; the centre sample is exp(0) = 1 whatever p and sig are
    ratio = fnp.abs(n / sig)
    safe = fnp.where(n == 0, 1.0, ratio)
    w = fnp.where(n == 0, 1.0, fnp.exp(-0.5 * safe ** (2 * p)))
    return _truncate(w, trunc)








def cosine(M: int, sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The cosine (sine) window ``sin(pi (n + 1/2) / M)``
    (``scipy.signal.windows.cosine``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.cosine(3), 6)
    array([0.5, 1. , 0.5])
    """
    check_xp_device(xp, device, "cosine")
    M = _length("cosine", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    return _truncate(np.sin(np.pi / M * (np.arange(0, M) + 0.5)), trunc)


def exponential(M: int, center: Optional[ArrayLike] = None, tau: ArrayLike = 1.0,
                sym: bool = True, *, xp: Any = None, device: Any = None) -> Array:
    """The exponential (Poisson) window ``exp(-|n - center| / tau)``
    (``scipy.signal.windows.exponential``); differentiable in ``tau`` and ``center``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.exponential(3, tau=2.0), 6)
    array([0.606531, 1.      , 0.606531])
    """
    check_xp_device(xp, device, "exponential")
    if sym and center is not None:
        raise ValueError("If sym==True, center must be None.")
    M = _length("exponential", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    if center is None:
        center = (M - 1) / 2
    n = np.arange(0, M)
    w = fnp.exp(-fnp.abs(n - center) / tau)
    return _truncate(w, trunc)


def lanczos(M: int, *, sym: bool = True, xp: Any = None, device: Any = None) -> Array:
    """The Lanczos (sinc) window ``sinc(2n / (M - 1) - 1)``
    (``scipy.signal.windows.lanczos``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.lanczos(5), 6)
    array([0.     , 0.63662, 1.     , 0.63662, 0.     ])
    """
    check_xp_device(xp, device, "lanczos")
    M = _length("lanczos", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)

    def wh(n):
        return np.sinc(2.0 * n / (M - 1) - 1)

    xi = np.arange((M + 1) // 2)
    w = wh(xi)
    w = np.r_[w, w[::-1]] if M % 2 == 0 else np.r_[w, w[-2::-1]]
    return _truncate(w, trunc)
