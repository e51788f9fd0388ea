"""The windows of ``funcgrad.scipy.signal.windows`` designed from a criterion:
``chebwin`` (equiripple sidelobes ``at`` dB down, through an FFT), ``taylor`` (``nbar``
terms, sidelobes ``sll`` dB down) and ``dpss`` (the Slepian sequences, eigenvectors of a
tridiagonal matrix), with SciPy's signatures and values, differentiable in ``at``,
``sll`` and ``NW``.  Which branch or sign applies is decided on the values, so
``chebwin`` and ``dpss`` need concrete parameters (not under ``jit``/``vmap``).
"""
import operator
from typing import Any, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values
from ..typing import Array, ArrayLike
from ._banded import eigh_tridiagonal
from ._signalmore_windows import _extend, _length, _ones, _truncate
from ._signal_xp import check_xp_device

__all__ = ["chebwin", "taylor", "dpss"]


def chebwin(M: int, at: ArrayLike, sym: bool = True,
            *, xp: Any = None, device: Any = None) -> Array:
    """The Dolph-Chebyshev window, sidelobes ``at`` dB below the main lobe
    (``scipy.signal.windows.chebwin``): the inverse DFT of a Chebyshev polynomial sampled
    on the unit circle, normalized to a peak of 1; differentiable in ``at`` (which
    branch of the polynomial each sample takes depends on its value, so not under
    ``jit``/``vmap``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.chebwin(5, 50.0), 6)
    array([0.205494, 0.701046, 1.      , 0.701046, 0.205494])
    """
    check_xp_device(xp, device, "chebwin")
    M = _length("chebwin", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    order = M - 1.0
    beta = fnp.cosh(1.0 / order * fnp.arccosh(10 ** (fnp.abs(at) / 20.0)))
    x = beta * np.cos(np.pi * np.arange(M) / M)
    xv = concrete_values(x, "chebwin (which branch of the Chebyshev polynomial each "
                         "sample takes)", "Pass at as a plain number.")
    above, below = xv > 1, xv < -1
    inside = ~(above | below)
    # each branch's argument kept inside its domain where another branch is taken, so
    # that the untaken branch has a finite derivative (zero cotangent, zero contribution)
    x_out = fnp.where(inside, 2.0, fnp.abs(x))
    x_in = fnp.where(inside, x, 0.0)
    outer = fnp.cosh(order * fnp.arccosh(x_out))
    p = fnp.where(above, outer, fnp.where(below, (2 * (M % 2) - 1) * outer,
                                          fnp.cos(order * fnp.arccos(x_in))))
    if M % 2:
        w = fnp.real(fnp.fft.fft(p))
        n = (M + 1) // 2
        w = w[:n]
        w = fnp.concatenate([w[n - 1:0:-1], w])
    else:
        p = p * np.exp(1j * np.pi / M * np.arange(M))
        w = fnp.real(fnp.fft.fft(p))
        n = M // 2 + 1
        w = fnp.concatenate([w[n - 1:0:-1], w[1:n]])
    w = w / fnp.max(w)
    return _truncate(w, trunc)


def taylor(M: int, nbar: int = 4, sll: ArrayLike = 30, norm: bool = True, sym: bool = True
           , *, xp: Any = None, device: Any = None) -> Array:
    """The Taylor window, ``nbar - 1`` cosine terms whose sidelobes lie ``sll`` dB below
    the main lobe, scaled to 1 at the centre if ``norm`` (``scipy.signal.windows.taylor``);
    differentiable in ``sll``.
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.taylor(5), 6)
    array([0.332497, 0.772015, 1.      , 0.772015, 0.332497])
    """
    check_xp_device(xp, device, "taylor")
    M = _length("taylor", M)
    if M <= 1:
        return _ones(M)
    M, trunc = _extend(M, sym)
    A = fnp.arccosh(10 ** (sll / 20)) / np.pi
    s2 = nbar ** 2 / (A ** 2 + (nbar - 0.5) ** 2)
    ma = np.arange(1, nbar, dtype=np.float64)
    m2 = ma * ma
    weights = []
    for mi in range(nbar - 1):
        sign = 1.0 if mi % 2 == 0 else -1.0
        numer = sign * fnp.prod(1 - m2[mi] / s2 / (A ** 2 + (ma - 0.5) ** 2))
        denom = 2 * np.prod(1 - m2[mi] / m2[:mi]) * np.prod(1 - m2[mi] / m2[mi + 1:])
        weights.append(numer / denom)
    Fm = fnp.stack(weights) if weights else np.zeros(0)

    def W(n):
        return 1 + 2 * fnp.tensordot(Fm, np.cos(2 * np.pi * ma[:, None] * (n - M / 2. + 0.5)
                                                / M), axes=1)
    w = W(np.arange(M, dtype=np.float64))
    if norm:
        w = w * (1.0 / W(np.array([(M - 1) / 2]))[0])
    return _truncate(w, trunc)


def dpss(M: int, NW: ArrayLike, Kmax: Optional[int] = None, sym: bool = True,
         norm: Union[int, str, None] = None, return_ratios: bool = False,
         *, xp: Any = None, device: Any = None) -> Any:
    """The discrete prolate spheroidal (Slepian) sequences of length ``M`` and standardized
    half bandwidth ``NW`` (``scipy.signal.windows.dpss``): the eigenvectors of SciPy's
    tridiagonal matrix with the ``Kmax`` largest eigenvalues (one window if ``Kmax`` is
    None), with SciPy's signs and normalizations, and their concentration ratios if
    ``return_ratios``.  Differentiable in ``NW`` (through the eigenvectors; the signs are
    decided on the values, so not under ``jit``/``vmap``).
    ``xp`` (None, ``numpy`` or ``funcgrad.numpy``) and ``device`` (None or 'cpu'):
    SciPy's array-API keywords; the result is a NumPy array on the CPU.

    >>> import numpy as np, funcgrad.scipy.signal.windows as fw
    >>> np.round(fw.dpss(5, 2.0), 6)
    array([0.186542, 0.685394, 1.      , 0.685394, 0.186542])
    """
    check_xp_device(xp, device, "dpss")
    if norm is None:
        norm = "approximate" if Kmax is None else 2
    if norm not in (2, "approximate", "subsample"):
        raise ValueError(f"norm must be one of {(2, 'approximate', 'subsample')}, got {norm}")
    singleton = Kmax is None
    Kmax = 1 if Kmax is None else operator.index(Kmax)
    M = _length("dpss", M)
    if M <= 1:
        if not return_ratios:
            return _ones(M)
        return (_ones(M), 1.0) if singleton else (_ones(M), np.ones(1))
    if not 0 < Kmax <= M:
        raise ValueError("Kmax must be greater than 0 and less than M")
    nw = float(concrete_values(NW, "dpss's check of NW", "Pass NW as a plain number."))
    if nw >= M / 2.:
        raise ValueError("NW must be less than M/2.")
    if nw <= 0:
        raise ValueError("NW must be positive")
    M, trunc = _extend(M, sym)
    W = NW / M
    n = np.arange(M, dtype=np.float64)
    d = ((M - 1 - 2 * n) / 2.) ** 2 * fnp.cos(2 * np.pi * W)
    e = n[1:] * (M - n[1:]) / 2.
    _, vectors = eigh_tridiagonal(d, e, select="i", select_range=(M - Kmax, M - 1))
    windows = fnp.transpose(vectors[:, ::-1])
    values = concrete_values(windows, "dpss (the windows' signs)",
                             "Pass NW as a plain number.")
    # SciPy's signs: even windows sum positive, odd ones start positive
    signs = np.ones(Kmax)
    signs[::2] = np.where(values[::2].sum(axis=1) < 0, -1.0, 1.0)
    thresh = max(1e-7, 1. / M)
    for i, w in enumerate(values[1::2]):
        if w[w * w > thresh][0] < 0:
            signs[2 * i + 1] = -1.0
    windows = windows * signs[:, None]
    ratios: Any = None
    if return_ratios:
        spectrum = fnp.fft.rfft(windows, 2 * M - 1, axis=-1)
        autocorr = fnp.fft.irfft(spectrum * fnp.conj(spectrum), n=2 * M - 1)[:, :M]
        r = 4 * W * fnp.sinc(2 * W * n)
        r = fnp.concatenate([fnp.reshape(2 * W, (1,)), r[1:]])
        ratios = fnp.tensordot(autocorr, r, axes=1)
        if singleton:
            ratios = ratios[0]
    if norm != 2:
        windows = windows / fnp.max(windows)
        if M % 2 == 0:
            if norm == "approximate":
                windows = windows * (M ** 2 / (M ** 2 + NW))
            else:
                s = fnp.fft.rfft(windows[0])
                shift = -(1 - 1. / M) * np.arange(1, M // 2 + 1, dtype=np.float64)
                factor = np.concatenate([[1.0], 2 * np.exp(-1j * np.pi * shift)])
                windows = windows * (M / fnp.sum(fnp.real(s * factor)))
    if trunc:
        windows = windows[:, :-1]
    if singleton:
        windows = windows[0]
    return (windows, ratios) if return_ratios else windows
