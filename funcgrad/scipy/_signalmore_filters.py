"""Local filters and filter helpers for :mod:`funcgrad.scipy.signal` (re-exported there):
``medfilt``, ``medfilt2d``, ``wiener``, ``lfiltic`` and ``deconvolve``, with SciPy's
signatures and values, differentiable in the signals (and the coefficients).

The local filters gather each sample's neighbourhood from the zero-padded input with a
constant index array per axis; the median is then the middle of the sorted window (its
derivative goes to the sample that is the median, as a rank filter's does), and the
Wiener filter's local mean and variance are window sums.
"""
import math
import warnings
from typing import Any, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._iir import lfilter

__all__ = ["medfilt", "medfilt2d", "wiener", "lfiltic", "deconvolve"]

_Size = Union[int, Sequence[int], None]


def _sizes(name, size, ndim, odd):
    sizes = np.atleast_1d(np.asarray(3 if size is None else size))
    if sizes.shape == (1,) and ndim != 1:
        sizes = np.repeat(sizes, ndim)
    if sizes.ndim != 1 or sizes.shape[0] != ndim or sizes.dtype.kind not in "iu":
        raise ValueError(f"{name}: kernel_size must be an integer or one integer per "
                         f"dimension of the input ({ndim}), got {size!r}")
    if odd and np.any(sizes % 2 != 1):
        raise ValueError("Each element of kernel_size should be odd.")
    if np.any(sizes < 1):
        raise ValueError(f"{name}: kernel_size must be positive, got {size!r}")
    return [int(s) for s in sizes]


def _windows(x, sizes):
    """``x``'s neighbourhoods: shape ``x.shape + sizes``, entry ``[i..., k...]`` the sample
    ``i + k - (m - 1)//2`` along each axis (zero outside), as SciPy's 'same' centring."""
    nd = x.ndim
    pads = [(m - 1 - (m - 1) // 2, (m - 1) // 2) for m in sizes]
    w = fnp.pad(x, pads)
    for d, m in enumerate(sizes):  # axis d -> (n, m); earlier axes are already split
        index = np.arange(x.shape[d])[:, None] + np.arange(m)[None, :]
        w = fnp.take(w, index, axis=2 * d)
    order = tuple(range(0, 2 * nd, 2)) + tuple(range(1, 2 * nd, 2))
    return fnp.transpose(w, order)


def _median_filter(name, x, sizes):
    if any(m > n for m, n in zip(sizes, x.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.",
                      stacklevel=3)
    w = _windows(x, sizes)
    flat = fnp.reshape(w, x.shape + (math.prod(sizes),))
    return fnp.sort(flat, axis=-1)[..., math.prod(sizes) // 2]


def medfilt(volume: ArrayLike, kernel_size: _Size = None) -> Array:
    """The n-dimensional median filter with odd window ``kernel_size`` (3 along each axis
    by default) and zeros past the edges (``scipy.signal.medfilt``).  Differentiable in
    ``volume`` (the derivative goes to the sample that is each median).

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.medfilt(np.array([2.0, 6.0, 5.0, 4.0, 0.0, 3.0, 5.0, 7.0, 9.0, 2.0]))
    array([2., 5., 5., 4., 3., 3., 5., 7., 7., 2.])
    """
    x = fnp.atleast_1d(asarray(volume))
    if not (x.dtype.kind in "iu" or x.dtype in (np.float32, np.float64)):
        raise ValueError(f"dtype={x.dtype} is not supported by medfilt")
    return _median_filter("medfilt", x, _sizes("medfilt", kernel_size, x.ndim, True))


def medfilt2d(input: ArrayLike, kernel_size: Union[int, Sequence[int]] = 3) -> Array:
    """The 2-d median filter with odd window ``kernel_size`` and zeros past the edges
    (``scipy.signal.medfilt2d``).  Differentiable in ``input``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.medfilt2d(np.arange(9.0).reshape(3, 3))
    array([[0., 1., 0.],
           [1., 4., 2.],
           [0., 4., 0.]])
    """
    x = asarray(input)
    if x.ndim != 2:
        raise ValueError(f"medfilt2d: input must be 2-d, got shape {x.shape}; use medfilt "
                         f"for other dimensions")
    if x.dtype.kind not in "iuf":
        raise ValueError(f"medfilt2d: dtype={x.dtype} is not supported")
    return _median_filter("medfilt2d", x, _sizes("medfilt2d", kernel_size, 2, True))


def wiener(im: ArrayLike, mysize: _Size = None, noise: Optional[ArrayLike] = None) -> Array:
    """The adaptive Wiener filter of an n-dimensional array (``scipy.signal.wiener``):
    each sample pulled towards its local mean over a ``mysize`` window in proportion to
    ``noise`` over the local variance (the mean local variance when ``noise`` is None),
    the local mean itself where the variance is below ``noise``.  Differentiable in
    ``im`` and ``noise``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.wiener(np.array([1.0, 2.0, 3.0, 4.0, 5.0]), noise=0.0)
    array([1., 2., 3., 4., 5.])
    """
    x = asarray(im)
    if x.dtype.kind in "biu":
        x = fnp.astype(x, np.float64)
    sizes = _sizes("wiener", mysize, x.ndim, False)
    count = math.prod(sizes)
    axes = tuple(range(x.ndim, 2 * x.ndim))
    local_mean = fnp.sum(_windows(x, sizes), axis=axes) / count
    local_var = fnp.sum(_windows(x * x, sizes), axis=axes) / count - local_mean ** 2
    if noise is None:
        noise = fnp.mean(local_var)
    below = local_var < noise
    # (where the mean is taken, the other branch's division must not poison a derivative)
    safe_var = fnp.where(below, 1.0, local_var)
    filtered = (x - local_mean) * (1 - noise / safe_var) + local_mean
    return fnp.where(below, local_mean, filtered)


def lfiltic(b: ArrayLike, a: ArrayLike, y: ArrayLike, x: Optional[ArrayLike] = None) -> Array:
    """The initial state of ``lfilter`` (its ``zi``) that reproduces the past outputs
    ``y`` and inputs ``x``, most recent first (``scipy.signal.lfiltic``).
    Differentiable in all four.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.lfiltic([1.0, 0.5], [1.0, -0.5], [2.0], [1.0])
    array([1.5])
    """
    b, a, y = fnp.atleast_1d(asarray(b)), fnp.atleast_1d(asarray(a)), asarray(y)
    N, M = a.shape[0] - 1, b.shape[0] - 1
    K = max(M, N)
    parts = [b, a, y] if x is None else [b, a, y, asarray(x)]
    dtype = np.result_type(*[p.dtype for p in parts])
    if dtype.kind in "bui":
        dtype = np.dtype(np.float64)
    if x is None:
        x = np.zeros(M, dtype=dtype)
    x = fnp.astype(fnp.atleast_1d(asarray(x)), dtype)
    if x.shape[0] < M:
        x = fnp.concatenate([x, np.zeros(M - x.shape[0], dtype=dtype)])
    y = fnp.astype(fnp.atleast_1d(y), dtype)
    if y.shape[0] < N:
        y = fnp.concatenate([y, np.zeros(N - y.shape[0], dtype=dtype)])
    terms = []
    for m in range(K):
        term = fnp.zeros((), dtype=dtype)
        if m < M:
            term = term + fnp.sum(b[m + 1:] * x[:M - m])
        if m < N:
            term = term - fnp.sum(a[m + 1:] * y[:N - m])
        terms.append(term)
    zi = fnp.stack(terms) if terms else np.zeros(0, dtype=dtype)
    if float(concrete_values(a[0], "lfiltic's check of a[0]",
                             "Pass a as plain numbers.")) == 0.0:
        raise ValueError("First `a` filter coefficient must be non-zero.")
    # (divided also when a[0] is 1: the value is the same, and the derivative in a[0] is
    # not lost)
    zi = zi / a[0]
    return fnp.astype(zi, dtype)


def deconvolve(signal: ArrayLike, divisor: ArrayLike) -> tuple[Any, Any]:
    """``(quotient, remainder)`` of dividing ``signal`` by ``divisor`` as polynomials
    (``scipy.signal.deconvolve``): ``signal = convolve(divisor, quotient) + remainder``.
    Differentiable in both.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> fss.deconvolve(np.array([0.0, 1.0, 0.5, 0.5]), np.array([1.0, 0.5]))
    (array([0., 1., 0.]), array([0. , 0. , 0. , 0.5]))
    """
    num, den = fnp.atleast_1d(asarray(signal)), fnp.atleast_1d(asarray(divisor))
    N, D = num.shape[0], den.shape[0]
    if D > N:
        return [], num
    impulse = np.zeros(N - D + 1)
    impulse[0] = 1.0
    quotient = lfilter(num, den, impulse)
    return quotient, num - fnp.convolve(den, quotient, mode="full")
