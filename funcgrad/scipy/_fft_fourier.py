"""SciPy's discrete Fourier transforms (``scipy.fft.fft`` ... ``ihfftn``) on
:mod:`funcgrad.numpy.fft`, with SciPy's argument checks and dtypes.

SciPy differs from ``numpy.fft`` in what these functions add on top: float16 is computed
as float32 and stays single precision (``rfft(float16) -> complex64``, ``irfft(...) ->
float32``); ``s`` may hold ``-1`` for "the input's length"; repeated axes raise; ``workers``
and ``overwrite_x`` are accepted; ``plan`` raises ``NotImplementedError`` (as SciPy's and
JAX's).  The n-dimensional Hermitian transforms, which NumPy lacks, are the real ones of
the conjugate with the normalization's direction swapped (``hfftn(x) == irfftn(conj(x),
norm=swapped)`` and ``ihfftn(x) == conj(rfftn(x, norm=swapped))``), so they differentiate
as those do.
"""
import operator
from typing import Any, Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy import fft as _npfft
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn"]

_Sizes = Optional[Union[int, Sequence[int]]]
_Axes = Optional[Union[int, Sequence[int]]]
_SWAPPED = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}


def _arguments(name, x, norm, workers, plan):
    """``x`` as SciPy's ``_asfarray`` makes it (float16 to float32, integers and booleans
    to float64), after SciPy's checks of the other arguments."""
    if plan is not None:
        raise NotImplementedError(f"{name}: passing a precomputed plan is not supported "
                                  f"(nor by scipy.fft); call it with plan=None")
    if norm not in _SWAPPED:
        raise ValueError(f'{name}: invalid norm value {norm!r}, should be "backward", '
                         f'"ortho" or "forward"')
    if workers is not None and operator.index(workers) == 0:
        raise ValueError(f"{name}: workers must not be zero (None or a positive count; "
                         f"funcgrad computes on one thread either way)")
    x = asarray(x)
    if x.dtype == np.float16:
        return fnp.astype(x, np.float32)
    if x.dtype.kind not in "fc":
        if x.dtype.kind not in "biu":
            raise TypeError(f"{name}: x must be a numeric array, got dtype {x.dtype}")
        return fnp.astype(x, np.float64)
    if x.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise TypeError(f"{name}: {x.dtype} is not supported; convert x to float64 or "
                        f"complex128")
    return x


def _real(name, x):
    if x.dtype.kind == "c":
        raise TypeError(f"{name}: x must be a real sequence, got {x.dtype}; use fft for a "
                        f"complex signal, or pass x.real")
    return x


def _axis(name, x, axis):
    if x.ndim == 0:
        raise np.exceptions.AxisError(f"{name}: a 0-d array has no axis to transform; "
                                      f"reshape it (x.reshape(1) for one point)")
    axis = operator.index(axis)
    if not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(f"{name}: axis {axis} is out of bounds for an array "
                                      f"of dimension {x.ndim}")
    return axis % x.ndim


def _length(name, n, default):
    n = default if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"{name}: invalid number of data points ({n}) specified; give "
                         f"n >= 1")
    return n


def _ints(name, what, value):
    try:
        return [operator.index(value)] if np.ndim(value) == 0 else [
            operator.index(v) for v in value]
    except TypeError:
        raise TypeError(f"{name}: {what} must be an integer or a sequence of integers, got "
                        f"{value!r}") from None


def _shape_and_axes(name, x, s, axes):
    """SciPy's ``_init_nd_shape_and_axes``: the lengths and (non-negative, distinct) axes
    of an n-dimensional transform; a length ``-1`` is the input's."""
    if axes is not None:
        axes = _ints(name, "axes", axes)
        if any(not -x.ndim <= a < x.ndim for a in axes):
            raise ValueError(f"{name}: axes {axes} exceed the dimensionality of the input "
                             f"({x.ndim})")
        axes = [a % x.ndim for a in axes]
        if len(set(axes)) != len(axes):
            raise ValueError(f"{name}: all axes must be unique, got {axes}")
    if s is not None:
        s = _ints(name, "s", s)
        if axes is None:
            if len(s) > x.ndim:
                raise ValueError(f"{name}: s requires more axes ({len(s)}) than are "
                                 f"present ({x.ndim})")
            axes = list(range(x.ndim - len(s), x.ndim))
        elif len(axes) != len(s):
            raise ValueError(f"{name}: when given, axes and s must have the same length, "
                             f"got {len(axes)} and {len(s)}")
        s = [x.shape[a] if k == -1 else k for k, a in zip(s, axes)]
    else:
        axes = list(range(x.ndim)) if axes is None else axes
        s = [x.shape[a] for a in axes]
    if any(k < 1 for k in s):
        raise ValueError(f"{name}: invalid number of data points ({s}) specified")
    return s, axes


def _halved(name, x, s, axes):
    """The lengths and axes of a transform with a real output (``irfftn``, ``hfftn``):
    without ``s``, the last axis's output length is ``2 (m - 1)``."""
    noshape = s is None
    s, axes = _shape_and_axes(name, x, s, axes)
    if not axes:
        raise ValueError(f"{name}: at least 1 axis must be transformed")
    if noshape:
        s[-1] = 2 * (x.shape[axes[-1]] - 1)
        if s[-1] < 1:
            raise ValueError(f"{name}: invalid number of data points ({s[-1]}) specified; "
                             f"give s, or at least 2 entries along axis {axes[-1]}")
    return s, axes


# --- one axis -------------------------------------------------------------------------------

def fft(x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
        overwrite_x: bool = False, workers: Optional[int] = None, *, plan: Any = None) -> Array:
    """The one-dimensional discrete Fourier transform (``scipy.fft.fft``): ``n`` crops or
    zero-pads ``x`` along ``axis``; float32 and float16 give complex64.  Linear, so
    differentiable to any order (JAX's convention for complex numbers).
    ``overwrite_x`` and ``workers`` are accepted and ignored.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.fft as ffft
    >>> ffft.fft(np.array([1.0, 2.0, 3.0, 4.0]))
    array([10.+0.j, -2.+2.j, -2.+0.j, -2.-2.j])
    >>> fg.grad(lambda x: ffft.fft(x)[1].imag)(np.zeros(4))
    array([ 0., -1.,  0.,  1.])
    """
    x = _arguments("fft", x, norm, workers, plan)
    axis = _axis("fft", x, axis)
    return _npfft.fft(x, _length("fft", n, x.shape[axis]), axis, norm)


def ifft(x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
         overwrite_x: bool = False, workers: Optional[int] = None, *, plan: Any = None) -> Array:
    """The inverse of :func:`fft` (``scipy.fft.ifft``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.ifft(np.array([4.0, 0.0, 0.0, 0.0]))
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    x = _arguments("ifft", x, norm, workers, plan)
    axis = _axis("ifft", x, axis)
    return _npfft.ifft(x, _length("ifft", n, x.shape[axis]), axis, norm)


def rfft(x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
         overwrite_x: bool = False, workers: Optional[int] = None, *, plan: Any = None) -> Array:
    """The DFT of a real signal, its ``n // 2 + 1`` non-negative frequencies
    (``scipy.fft.rfft``); a complex ``x`` raises ``TypeError``.

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.rfft(np.array([1.0, 2.0, 3.0, 4.0]))
    array([10.+0.j, -2.+2.j, -2.+0.j])
    >>> ffft.rfft(np.ones(4, np.float32)).dtype
    dtype('complex64')
    """
    x = _real("rfft", _arguments("rfft", x, norm, workers, plan))
    axis = _axis("rfft", x, axis)
    return _npfft.rfft(x, _length("rfft", n, x.shape[axis]), axis, norm)


def irfft(x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """The real signal of ``n`` points whose :func:`rfft` is the half-spectrum ``x``
    (``scipy.fft.irfft``; ``n`` defaults to ``2 (m - 1)`` for ``m`` entries).  The
    imaginary parts of the zero (and, for even ``n``, the last) frequency are ignored, so
    their derivative is zero.

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.irfft(np.array([10.0, -2 + 2j, -2.0]))
    array([1., 2., 3., 4.])
    """
    x = _arguments("irfft", x, norm, workers, plan)
    axis = _axis("irfft", x, axis)
    return _npfft.irfft(x, _length("irfft", n, 2 * (x.shape[axis] - 1)), axis, norm)


def hfft(x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
         overwrite_x: bool = False, workers: Optional[int] = None, *, plan: Any = None) -> Array:
    """The (real) DFT of a signal with Hermitian symmetry given by its first half
    (``scipy.fft.hfft``; ``n`` defaults to ``2 (m - 1)``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.hfft(np.array([1.0, 2.0, 3.0]))
    array([ 8., -2.,  0., -2.])
    """
    x = _arguments("hfft", x, norm, workers, plan)
    axis = _axis("hfft", x, axis)
    return _npfft.hfft(x, _length("hfft", n, 2 * (x.shape[axis] - 1)), axis, norm)


def ihfft(x: ArrayLike, n: Optional[int] = None, axis: int = -1, norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """The inverse of :func:`hfft` for a real signal (``scipy.fft.ihfft``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.ihfft(np.array([8.0, -2.0, 0.0, -2.0])).real
    array([1., 2., 3.])
    """
    x = _real("ihfft", _arguments("ihfft", x, norm, workers, plan))
    axis = _axis("ihfft", x, axis)
    return _npfft.ihfft(x, _length("ihfft", n, x.shape[axis]), axis, norm)


# --- n dimensions ---------------------------------------------------------------------------

def fftn(x: ArrayLike, s: _Sizes = None, axes: _Axes = None, norm: Optional[str] = None,
         overwrite_x: bool = False, workers: Optional[int] = None, *, plan: Any = None) -> Array:
    """The n-dimensional DFT over ``axes`` (all by default; the last ``len(s)`` when only
    ``s`` is given), ``s`` the lengths (``-1``: the input's) (``scipy.fft.fftn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.fftn(np.ones((2, 2)))
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    a = _arguments("fftn", x, norm, workers, plan)
    s, axes = _shape_and_axes("fftn", a, s, axes)
    return _npfft.fftn(a, s, axes, norm) if axes else a


def ifftn(x: ArrayLike, s: _Sizes = None, axes: _Axes = None, norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """The inverse of :func:`fftn` (``scipy.fft.ifftn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.ifftn(np.array([[4.0, 0.0], [0.0, 0.0]])).real
    array([[1., 1.],
           [1., 1.]])
    """
    a = _arguments("ifftn", x, norm, workers, plan)
    s, axes = _shape_and_axes("ifftn", a, s, axes)
    return _npfft.ifftn(a, s, axes, norm) if axes else a


def rfftn(x: ArrayLike, s: _Sizes = None, axes: _Axes = None, norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """The n-dimensional DFT of a real array, halved along the last of ``axes``
    (``scipy.fft.rfftn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.rfftn(np.ones((2, 4))).shape
    (2, 3)
    """
    x = _real("rfftn", _arguments("rfftn", x, norm, workers, plan))
    s, axes = _shape_and_axes("rfftn", x, s, axes)
    if not axes:
        raise ValueError("rfftn: at least 1 axis must be transformed")
    return _npfft.rfftn(x, s, axes, norm)


def irfftn(x: ArrayLike, s: _Sizes = None, axes: _Axes = None, norm: Optional[str] = None,
           overwrite_x: bool = False, workers: Optional[int] = None, *,
           plan: Any = None) -> Array:
    """The inverse of :func:`rfftn` (``scipy.fft.irfftn``; the last axis's length
    defaults to ``2 (m - 1)``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.irfftn(np.array([[8.0, 0.0, 0.0], [0.0, 0.0, 0.0]]))
    array([[1., 1., 1., 1.],
           [1., 1., 1., 1.]])
    """
    x = _arguments("irfftn", x, norm, workers, plan)
    s, axes = _halved("irfftn", x, s, axes)
    return _npfft.irfftn(x, s, axes, norm)


def hfftn(x: ArrayLike, s: _Sizes = None, axes: _Axes = None, norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """The n-dimensional DFT of a Hermitian-symmetric array given by its half along the
    last of ``axes`` (``scipy.fft.hfftn``); real output.

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.hfftn(np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]))
    array([[1., 1., 1., 1.],
           [1., 1., 1., 1.]])
    """
    x = _arguments("hfftn", x, norm, workers, plan)
    s, axes = _halved("hfftn", x, s, axes)
    return _npfft.irfftn(fnp.conj(x), s, axes, _SWAPPED[norm])


def ihfftn(x: ArrayLike, s: _Sizes = None, axes: _Axes = None, norm: Optional[str] = None,
           overwrite_x: bool = False, workers: Optional[int] = None, *,
           plan: Any = None) -> Array:
    """The inverse of :func:`hfftn` for a real array (``scipy.fft.ihfftn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.ihfftn(np.ones((2, 4))).real
    array([[1., 0., 0.],
           [0., 0., 0.]])
    """
    x = _real("ihfftn", _arguments("ihfftn", x, norm, workers, plan))
    s, axes = _shape_and_axes("ihfftn", x, s, axes)
    if not axes:
        raise ValueError("ihfftn: at least 1 axis must be transformed")
    return fnp.conj(_npfft.rfftn(x, s, axes, _SWAPPED[norm]))


# --- two axes: the n-dimensional ones with axes=(-2, -1) ------------------------------------

def fft2(x: ArrayLike, s: _Sizes = None, axes: _Axes = (-2, -1), norm: Optional[str] = None,
         overwrite_x: bool = False, workers: Optional[int] = None, *, plan: Any = None) -> Array:
    """:func:`fftn` over the last two axes (``scipy.fft.fft2``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.fft2(np.ones((1, 2))).real
    array([[2., 0.]])
    """
    return fftn(x, s, axes, norm, plan=plan, workers=workers)


def ifft2(x: ArrayLike, s: _Sizes = None, axes: _Axes = (-2, -1), norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """:func:`ifftn` over the last two axes (``scipy.fft.ifft2``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.ifft2(np.array([[2.0, 0.0]])).real
    array([[1., 1.]])
    """
    return ifftn(x, s, axes, norm, plan=plan, workers=workers)


def rfft2(x: ArrayLike, s: _Sizes = None, axes: _Axes = (-2, -1), norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """:func:`rfftn` over the last two axes (``scipy.fft.rfft2``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.rfft2(np.ones((1, 2))).real
    array([[2., 0.]])
    """
    return rfftn(x, s, axes, norm, plan=plan, workers=workers)


def irfft2(x: ArrayLike, s: _Sizes = None, axes: _Axes = (-2, -1), norm: Optional[str] = None,
           overwrite_x: bool = False, workers: Optional[int] = None, *,
           plan: Any = None) -> Array:
    """:func:`irfftn` over the last two axes (``scipy.fft.irfft2``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.irfft2(np.array([[2.0, 0.0]]))
    array([[1., 1.]])
    """
    return irfftn(x, s, axes, norm, plan=plan, workers=workers)


def hfft2(x: ArrayLike, s: _Sizes = None, axes: _Axes = (-2, -1), norm: Optional[str] = None,
          overwrite_x: bool = False, workers: Optional[int] = None, *,
          plan: Any = None) -> Array:
    """:func:`hfftn` over the last two axes (``scipy.fft.hfft2``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.hfft2(np.array([[1.0, 0.0]]))
    array([[1., 1.]])
    """
    return hfftn(x, s, axes, norm, plan=plan, workers=workers)


def ihfft2(x: ArrayLike, s: _Sizes = None, axes: _Axes = (-2, -1), norm: Optional[str] = None,
           overwrite_x: bool = False, workers: Optional[int] = None, *,
           plan: Any = None) -> Array:
    """:func:`ihfftn` over the last two axes (``scipy.fft.ihfft2``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.ihfft2(np.ones((1, 2))).real
    array([[1., 0.]])
    """
    return ihfftn(x, s, axes, norm, plan=plan, workers=workers)
