"""Resampling for :mod:`funcgrad.scipy.signal` (re-exported there): ``upfirdn``,
``resample_poly``, ``resample`` and ``decimate``, with SciPy's signatures and values,
differentiable in the signal (and ``upfirdn`` in the filter).

``upfirdn`` computes only the kept outputs: output ``j`` is ``sum_k h[k] u[j down - k]``
with ``u`` the signal with ``up - 1`` zeros after each sample, gathered by one constant
index array from the zero-padded ``u`` and summed by one ``tensordot`` (the polyphase
sum of SciPy's, in another order: equal to rounding).  ``resample`` is SciPy's Fourier
method: the spectrum cut or zero-padded to the new length (its unpaired Nyquist bin split
or united as SciPy does) by a constant selection matrix, and transformed back.
``decimate`` filters with ``firwin``/``resample_poly`` or with SciPy's Chebyshev I
sections and ``sosfiltfilt``/``sosfilt``.
"""
import math
import operator
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._iir import sosfilt, sosfiltfilt
from ._iir_design import cheby1
from ._signalmore_fir import firwin
from ._signalmore_getwindow import get_window

__all__ = ["upfirdn", "resample_poly", "resample", "decimate"]


def _factor(label, value):
    try:
        if value != int(value):
            raise ValueError(f"{label} must be an integer")
    except TypeError:
        raise ValueError(f"{label} must be an integer, got {value!r}") from None
    return int(value)


def _float_signal(x):
    x = asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def upfirdn(h: ArrayLike, x: ArrayLike, up: int = 1, down: int = 1, axis: int = -1,
            mode: str = "constant", cval: float = 0) -> Array:
    """Upsample ``x`` by ``up`` (zeros between samples), filter it with the FIR ``h`` and
    keep every ``down``-th sample (``scipy.signal.upfirdn``), along ``axis``.  Only SciPy's
    default extension, zeros (``mode='constant'``, ``cval=0``), is implemented.
    Differentiable in ``h`` and ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.upfirdn([1.0, 1.0], np.array([1.0, 2.0, 3.0]), up=2)
    array([1., 1., 2., 2., 3., 3.])
    """
    h, x = asarray(h), asarray(x)
    if h.ndim != 1 or h.shape[0] == 0:
        raise ValueError("h must be 1-D with non-zero length")
    if mode != "constant" or cval != 0:
        raise NotImplementedError(f"upfirdn: only mode='constant' with cval=0 (zeros past "
                                  f"the ends, SciPy's default) is implemented, got "
                                  f"mode={mode!r}, cval={cval!r}")
    up, down = _factor("up", up), _factor("down", down)
    if up < 1 or down < 1:
        raise ValueError("Both up and down must be >= 1")
    if x.ndim == 0:
        raise ValueError("upfirdn: x must be at least 1-d")
    dtype = np.result_type(h.dtype, x.dtype, np.float32)
    h, x = fnp.astype(h, dtype), fnp.astype(fnp.moveaxis(x, axis, -1), dtype)
    n, taps = x.shape[-1], h.shape[0]
    spread = (n - 1) * up + 1
    if up > 1:  # (each sample followed by up - 1 zeros, the trailing ones cut)
        zeros = fnp.zeros(x.shape + (up - 1,), dtype=dtype)
        x = fnp.reshape(fnp.concatenate([x[..., None], zeros], axis=-1),
                        x.shape[:-1] + (n * up,))[..., :spread]
    out_len = -(-((n - 1) * up + taps) // down)
    padded = fnp.pad(x, [(0, 0)] * (x.ndim - 1) + [(taps - 1, taps - 1)])
    index = (np.arange(out_len)[:, None] * down + (taps - 1)) - np.arange(taps)[None, :]
    y = fnp.tensordot(fnp.take(padded, index, axis=-1), h, axes=1)
    return fnp.moveaxis(y, -1, axis)


def resample_poly(x: ArrayLike, up: int, down: int, axis: int = 0,
                  window: Union[str, tuple, ArrayLike] = ("kaiser", 5.0),
                  padtype: str = "constant", cval: Optional[float] = None) -> Array:
    """Resample ``x`` along ``axis`` by the rational factor ``up / down`` with a polyphase
    FIR filter (``scipy.signal.resample_poly``): by default a Kaiser-windowed ``firwin``
    low-pass at the lower Nyquist, or the taps ``window``.  ``padtype`` 'constant' (zeros)
    or 'mean', 'median', 'minimum', 'maximum' (that value removed before filtering and
    added back).  Differentiable in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.resample_poly(np.ones(6), 1, 2, padtype="mean")
    array([1., 1., 1.])
    """
    up, down = _factor("up", up), _factor("down", down)
    if up < 1 or down < 1:
        raise ValueError("up and down must be >= 1")
    if cval is not None and padtype != "constant":
        raise ValueError(f"cval has no effect when padtype is {padtype!r}")
    x = asarray(x)
    g = math.gcd(up, down)
    up, down = up // g, down // g
    if up == down == 1:
        return x
    axis = axis % x.ndim
    n_in = x.shape[axis]
    n_out = -(-(n_in * up) // down)
    if isinstance(window, (str, tuple)):
        half_len = 10 * max(up, down)
        h = firwin(2 * half_len + 1, 1.0 / max(up, down), window=window)
        if x.dtype.kind in "fc":
            h = fnp.astype(h, x.dtype)
    else:
        h = asarray(window)
        if h.ndim > 1:
            raise ValueError("window must be 1-D")
        half_len = (h.shape[0] - 1) // 2
    h = h * up
    pre = down - half_len % down
    pre_remove = (half_len + pre) // down
    post = 0
    while -(-((n_in - 1) * up + h.shape[0] + pre + post) // down) < n_out + pre_remove:
        post += 1
    h = fnp.concatenate([np.zeros(pre, dtype=h.dtype), h, np.zeros(post, dtype=h.dtype)])
    backgrounds: dict[str, Callable[..., Any]] = {
        "mean": fnp.mean, "median": fnp.median, "minimum": fnp.min, "maximum": fnp.max}
    if padtype in backgrounds:
        background = backgrounds[padtype](x, axis=axis, keepdims=True)
        x = x - background
    elif padtype == "constant":
        if cval not in (None, 0):
            raise NotImplementedError("resample_poly: padtype='constant' with a non-zero "
                                      "cval is not implemented; subtract cval first and "
                                      "add it back, or use padtype='mean'")
    else:
        raise NotImplementedError(f"resample_poly: padtype {padtype!r} is not implemented; "
                                  f"use 'constant', 'mean', 'median', 'minimum' or "
                                  f"'maximum'")
    y = upfirdn(h, x, up, down, axis=axis)
    keep = [slice(None)] * x.ndim
    keep[axis] = slice(pre_remove, pre_remove + n_out)
    y = y[tuple(keep)]
    return y + background if padtype in backgrounds else y


def _selection(n_x, num):
    """The matrix that takes a two-sided spectrum of ``n_x`` bins to ``num`` bins as
    SciPy's ``resample``: the bins up to Nyquist and the negative ones kept, the unpaired
    bin at ``m/2`` (``m = min(n_x, num)`` even) united with its pair or split in two."""
    m = min(n_x, num)
    m2 = m // 2 + 1
    S = np.zeros((num, n_x))
    S[np.arange(min(m2, num)), np.arange(min(m2, num))] = 1.0
    if m2 < m:
        k = m - m2
        S[num - k + np.arange(k), n_x - k + np.arange(k)] = 1.0
    if m % 2 == 0:
        if num < n_x:
            S[num - m // 2, n_x - m // 2] += 1.0
        elif n_x < num:
            S[m // 2, m // 2] = 0.5
            S[num - m // 2, m // 2] = 0.5
    return S


def resample(x: ArrayLike, num: int, t: Optional[ArrayLike] = None, axis: int = 0,
             window: Any = None, domain: str = "time") -> Any:
    """Resample ``x`` to ``num`` samples along ``axis`` by the Fourier method
    (``scipy.signal.resample``): its spectrum cut or zero-padded, optionally weighted by
    ``window`` (a name, a tuple, an array of the ``n`` bins, or a function of
    ``fftfreq(n)``), and transformed back; with ``t``, also the new sample times.
    ``domain='freq'`` takes ``x`` as a spectrum already.  Differentiable in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> np.round(fss.resample(np.array([0.0, 1.0, 0.0, -1.0]), 8), 6) + 0.0
    array([ 0.      ,  0.707107,  1.      ,  0.707107,  0.      , -0.707107,
           -1.      , -0.707107])
    """
    if domain not in ("time", "freq"):
        raise ValueError(f"Parameter domain={domain!r} not in ('time', 'freq')!")
    num = operator.index(num)
    if num < 1:
        raise ValueError(f"resample: num must be a positive integer, got {num}")
    x = _float_signal(x)
    x = fnp.moveaxis(x, axis, -1)
    n_x = x.shape[-1]
    s_fac = n_x / num
    m = min(num, n_x)
    m2 = m // 2 + 1
    if window is None:
        W = None
    elif callable(window):
        W = np.asarray(window(np.fft.fftfreq(n_x)), dtype=np.float64)
    elif hasattr(window, "shape"):
        W = np.array(window, dtype=np.float64)
        if W.shape != (n_x,):
            raise ValueError(f"window.shape={W.shape} != ({n_x},), i.e., window length is "
                             f"not equal to number of frequency bins!")
    else:
        W = np.fft.fftshift(np.asarray(get_window(window, n_x), dtype=np.float64))
    if domain == "time" and x.dtype.kind != "c":
        X = fnp.fft.rfft(x)
        n_X = X.shape[-1]
        scale = np.ones(m2)
        if W is not None:  # (the window folded onto the one-sided bins)
            W = W.copy()
            W[1:n_X] += W[-n_X + 1:][::-1] if n_X > 1 else 0.0
            W[1:n_X] /= 2
            scale = W[:m2]
        if m % 2 == 0 and num != n_x:
            scale = scale.copy()
            scale[m // 2] *= 2 if num < n_x else 0.5
        X = X[..., :m2] * (scale / s_fac).astype(_real(X.dtype))
        x_r = fnp.fft.irfft(X, n=num)
    else:
        X = fnp.fft.fft(x) if domain == "time" else x
        if W is not None:
            X = X * W.astype(_real(X.dtype))
        S = (_selection(n_x, num) / s_fac).astype(_real(X.dtype))
        x_r = fnp.fft.ifft(fnp.tensordot(X, S.T, axes=1), n=num)
    x_r = fnp.moveaxis(x_r, -1, axis)
    if t is not None:
        t = asarray(t)
        return x_r, t[0] + (t[1] - t[0]) * s_fac * np.arange(num)
    return x_r


def _real(dtype):
    return np.float32 if np.dtype(dtype) in (np.float32, np.complex64) else np.float64


def decimate(x: ArrayLike, q: int, n: Optional[int] = None, ftype: str = "iir",
             axis: int = -1, zero_phase: bool = True) -> Array:
    """Keep every ``q``-th sample of ``x`` along ``axis`` after an anti-aliasing low-pass
    (``scipy.signal.decimate``): a Chebyshev I filter of order ``n`` (default 8), run
    forwards and backwards if ``zero_phase``, or an FIR filter of ``n + 1`` taps
    (default ``20 q + 1``) for ``ftype='fir'``.  Differentiable in ``x``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> x = np.cos(2 * np.pi * 0.02 * np.arange(80))
    >>> y = fss.decimate(x, 4)
    >>> y.shape, bool(np.abs(y[3:-3] - x[::4][3:-3]).max() < 0.01)
    ((20,), True)
    """
    x = asarray(x)
    q = operator.index(q)
    if n is not None:
        n = operator.index(n)
    result_type = x.dtype if x.dtype.kind in "fc" and x.dtype != np.float16 else np.float64
    x = fnp.astype(x, result_type)
    axis = axis % x.ndim
    keep = [slice(None)] * x.ndim
    if ftype == "fir":
        taps = firwin((20 * q if n is None else n) + 1, 1.0 / q, window="hamming")
        taps = fnp.astype(taps, result_type)
        if zero_phase:
            return resample_poly(x, 1, q, axis=axis, window=taps)
        n_out = -(-x.shape[axis] // q)
        keep[axis] = slice(None, n_out)
        return upfirdn(taps, x, up=1, down=q, axis=axis)[tuple(keep)]
    if ftype != "iir":
        raise ValueError(f"invalid ftype {ftype!r}: use 'iir' or 'fir' (SciPy's dlti "
                         f"systems are not supported)")
    sos = fnp.astype(cheby1(8 if n is None else n, 0.05, 0.8 / q, output="sos"),
                     result_type)
    y: Any = sosfiltfilt(sos, x, axis=axis) if zero_phase else sosfilt(sos, x, axis=axis)
    keep[axis] = slice(None, None, q)
    return y[tuple(keep)]
