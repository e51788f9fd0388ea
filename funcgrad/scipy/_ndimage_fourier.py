"""Fourier-domain filters of ``funcgrad.scipy.ndimage``: ``fourier_gaussian``,
``fourier_uniform``, ``fourier_ellipsoid`` and ``fourier_shift`` multiply a discrete
Fourier transform by the transform of a Gaussian, a box, an ellipsoid or a shift,
differentiable in the transform and in ``sigma``/``size``/``shift``.

Along each axis the sample ``k`` of ``fftfreq`` order (``0, 1, ..., -1``) has
frequency ``k / N``; ``n >= 0`` says the input is a real transform (``rfft``) along
``axis`` of a signal of length ``n``, whose samples are ``k = 0, 1, ...`` with frequency
``k / n``.  SciPy zeroes Gaussian factors below ``exp(-50)``; here they are computed
(about 2e-22 at most apart).  Real inputs give real results (float32 kept, integers as
float64) except ``fourier_shift``'s, which are complex (complex64 only from complex64).
"""
import numbers
from typing import Any, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..core import internal
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from . import special
from ._ndimage_filters import _per_axis

__all__ = ["fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift"]

Parameter = Union[float, Sequence[float], ArrayLike]


def _transform(name, input, output, n, axis):
    if output is not None:
        raise TypeError(f"{name}(..., output=...) would write into an array, but funcgrad's "
                        f"results are new arrays: use the returned value")
    x = asarray(input)
    if x.dtype.kind not in "fc":
        x = fnp.astype(x, np.float64)
    if x.ndim == 0:
        raise RuntimeError(f"{name}: input must have at least one dimension")
    if not isinstance(axis, numbers.Integral) or not -x.ndim <= axis < x.ndim:
        raise ValueError(f"{name}: axis {axis!r} is out of range for an input of {x.ndim} "
                         f"dimensions")
    if not isinstance(n, numbers.Integral):
        raise TypeError(f"{name}: n must be an integer (-1 for a complex transform), got "
                        f"{n!r}")
    return x, int(axis) % x.ndim


def _frequencies(x, n, axis):
    """Per axis: the sample numbers ``k`` (shaped to broadcast along that axis) and the
    length they divide (``n`` along a real transform's axis)."""
    out = []
    for d, size in enumerate(x.shape):
        real = d == axis and n >= 0
        k = np.arange(size, dtype=np.float64)
        if not real:
            k = np.where(k < (size + 1) // 2, k, k - size)
        shape = [1] * x.ndim
        shape[d] = size
        out.append((k.reshape(shape), float(n if real else size)))
    return out


def _real_dtype(x):
    return np.float32 if x.dtype in (np.float32, np.complex64) else np.float64


def _times(x, factor):
    return x * fnp.astype(factor, _real_dtype(x))


def _sinc(arg, zero):
    """``sin(arg) / arg``, 1 where ``zero``: a double ``where``, so that the untaken
    branch's 0/0 never reaches a derivative."""
    safe = fnp.where(zero, 1.0, arg)
    return fnp.where(zero, 1.0, fnp.sin(safe) / safe)


@internal  # (frequency tables follow the data to its device)
def fourier_gaussian(input: ArrayLike, sigma: Parameter, n: int = -1, axis: int = -1,
                     output: None = None) -> Array:
    """``input``, a discrete Fourier transform, times the transform of a Gaussian of
    standard deviation ``sigma`` (one value or one per axis): ``exp(-2 pi^2 sigma^2
    f^2)`` at frequency ``f`` (``scipy.ndimage.fourier_gaussian``; ``n``: see the module).
    Differentiable in ``input`` and ``sigma``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> spectrum = np.fft.fft(np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0]))
    >>> np.round(np.fft.ifft(fnd.fourier_gaussian(spectrum, 1.0)).real, 4)
    array([0.053 , 0.2432, 0.3977, 0.2432, 0.053 , 0.01  ])
    """
    x, axis = _transform("fourier_gaussian", input, output, n, axis)
    factor: Any = 1.0
    for (k, length), s in zip(_frequencies(x, n, axis),
                              _per_axis("fourier_gaussian", "sigma", sigma, x.ndim)):
        factor = factor * fnp.exp(-2.0 * (s * np.pi / length) ** 2 * k ** 2)
    return _times(x, factor)


@internal  # (frequency tables follow the data to its device)
def fourier_uniform(input: ArrayLike, size: Parameter, n: int = -1, axis: int = -1,
                    output: None = None) -> Array:
    """``input``, a discrete Fourier transform, times the transform of a box of width
    ``size`` (one value or one per axis): ``sin(pi size f) / (pi size f)`` at frequency
    ``f``, and 0 off the zero frequency where ``size <= 0``, as SciPy's
    (``scipy.ndimage.fourier_uniform``).  Differentiable in ``input`` and ``size``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> np.round(fnd.fourier_uniform(np.ones(6), 2.0), 4)
    array([1.    , 0.827 , 0.4135, 0.    , 0.4135, 0.827 ])
    """
    x, axis = _transform("fourier_uniform", input, output, n, axis)
    factor: Any = 1.0
    for (k, length), s in zip(_frequencies(x, n, axis),
                              _per_axis("fourier_uniform", "size", size, x.ndim)):
        at_zero, no_box = k == 0, s <= 0
        sinc = _sinc(np.pi * s / length * k, fnp.logical_or(at_zero, no_box))
        factor = factor * fnp.where(at_zero, 1.0, fnp.where(no_box, 0.0, sinc))
    return _times(x, factor)


@internal  # (frequency tables follow the data to its device)
def fourier_ellipsoid(input: ArrayLike, size: Parameter, n: int = -1, axis: int = -1,
                      output: None = None) -> Array:
    """``input``, a discrete Fourier transform of 1, 2 or 3 dimensions, times the
    transform of a solid ellipsoid of diameters ``size`` (one value or one per axis),
    as ``scipy.ndimage.fourier_ellipsoid``: with ``r = pi * |size * f|``, ``sin(r) / r``
    in 1-d, ``2 J1(r) / r`` in 2-d, ``3 (sin r - r cos r) / r^3`` in 3-d (1 at
    ``r = 0``).  Differentiable in ``input`` and ``size``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> np.round(fnd.fourier_ellipsoid(np.ones((1, 6)), 2.0), 4)
    array([[1.    , 0.869 , 0.5432, 0.1812, 0.5432, 0.869 ]])
    """
    x, axis = _transform("fourier_ellipsoid", input, output, n, axis)
    if x.ndim > 3:
        raise NotImplementedError(f"fourier_ellipsoid: only 1-d, 2-d and 3-d inputs are "
                                  f"supported, got {x.ndim} dimensions")
    if x.size == 0:
        return x
    r2: Any = 0.0
    for (k, length), s in zip(_frequencies(x, n, axis),
                              _per_axis("fourier_ellipsoid", "size", size, x.ndim)):
        r2 = r2 + (np.pi * s / length * k) ** 2
    r2 = r2 + np.zeros(x.shape)
    zero = r2 == 0
    r = fnp.sqrt(fnp.where(zero, 1.0, r2))
    if x.ndim == 1:
        factor = fnp.sin(r) / r
    elif x.ndim == 2:
        factor = 2.0 * special.j1(r) / r
    else:
        factor = 3.0 * (fnp.sin(r) - r * fnp.cos(r)) / r ** 3
    return _times(x, fnp.where(zero, 1.0, factor))


@internal  # (frequency tables follow the data to its device)
def fourier_shift(input: ArrayLike, shift: Parameter, n: int = -1, axis: int = -1,
                  output: None = None) -> Array:
    """``input``, a discrete Fourier transform, times ``exp(-2 pi i shift f)``: the
    transform of the signal shifted (circularly) by ``shift`` samples (one value or one
    per axis), as ``scipy.ndimage.fourier_shift``.  Differentiable in ``input`` and
    ``shift``.

    >>> import numpy as np, funcgrad.scipy.ndimage as fnd
    >>> spectrum = np.fft.fft(np.array([1.0, 2.0, 3.0, 4.0]))
    >>> np.round(np.fft.ifft(fnd.fourier_shift(spectrum, 1)).real, 10)
    array([4., 1., 2., 3.])
    """
    x, axis = _transform("fourier_shift", input, output, n, axis)
    phase: Any = 0.0
    for (k, length), s in zip(_frequencies(x, n, axis),
                              _per_axis("fourier_shift", "shift", shift, x.ndim)):
        phase = phase + (-2.0 * np.pi * s / length) * k
    real = _real_dtype(x) if x.dtype == np.complex64 else np.float64
    phase = fnp.astype(phase + np.zeros(x.shape), real)
    if x.dtype.kind != "c":
        x = fnp.astype(x, np.complex128)
    return x * (fnp.cos(phase) + 1j * fnp.sin(phase))
