"""``funcgrad.scipy.fft``: SciPy's ``scipy.fft``, differentiable: the discrete Fourier
transforms (``fft`` ... ``ihfftn``, on :mod:`funcgrad.numpy.fft`, with SciPy's signatures
and dtypes), the helpers (``fftfreq``, ``rfftfreq``, ``fftshift``, ``ifftshift``,
``next_fast_len``, ``prev_fast_len``), the fast Hankel transform (``fht``, ``ifht``,
``fhtoffset``) and the discrete cosine and sine transforms (``dct``, ``idct``, ``dctn``,
``idctn``, ``dst``, ``idst``, ``dstn``, ``idstn``), types 1 to 4, every ``norm`` and
``orthogonalize``.

Each cosine or sine transform along an axis is a product with its ``n x n`` matrix (a
constant, built in float64 from the closed-form cosines and sines, and cached by size, type
and norm), so its derivative is the product with the transposed matrix, of any order,
under ``vmap`` and ``jit`` too.  The inverse transforms use the inverse matrix (for ``norm='ortho'`` the
transpose), so ``idct(dct(x, t, norm=m), t, norm=m) == x`` for every type and norm, as
SciPy's.  The cost is ``O(n^2)`` per transformed line rather than FFT-based
``O(n log n)``: meant for the modest lengths of a differentiated model.  float32 stays
float32, complex inputs transform their real and imaginary parts, integers become float64.
"""
import functools
import math
from typing import Optional, Sequence, Union

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..numpy.fft import fftshift, ifftshift
from ..typing import Array, ArrayLike
from ._fft_fourier import (fft, ifft, fft2, ifft2, fftn, ifftn, rfft, irfft, rfft2, irfft2,
                           rfftn, irfftn, hfft, ihfft, hfft2, ihfft2, hfftn, ihfftn)
from ._fft_helpers import (fftfreq, rfftfreq, next_fast_len, prev_fast_len, fht, ifht,
                           fhtoffset)

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2",
           "irfft2", "rfftn", "irfftn", "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn",
           "fftfreq", "rfftfreq", "fftshift", "ifftshift", "next_fast_len", "prev_fast_len",
           "fht", "ifht", "fhtoffset",
           "dct", "idct", "dctn", "idctn", "dst", "idst", "dstn", "idstn"]

_NORMS = (None, "backward", "ortho", "forward")


def _check(name, type, n, norm):  # noqa: A002 - SciPy's name
    if type not in (1, 2, 3, 4):
        raise ValueError(f"{name}: type must be 1, 2, 3 or 4, got {type!r}")
    if norm not in _NORMS:
        raise ValueError(f"{name}: norm must be one of {_NORMS}, got {norm!r}")
    if n < 1 or (type == 1 and n < 2 and name.endswith("ct")):
        raise ValueError(f"{name}: invalid number of data points ({n}) for a type-{type} "
                         f"transform; give at least {2 if type == 1 else 1}")


def _unnormalized(kind, type, n):  # noqa: A002
    """SciPy's transform with ``norm='backward'`` (the plain sums), as an ``(n, n)``
    matrix ``M`` with ``y = M @ x``."""
    k, j = np.arange(n)[:, None], np.arange(n)[None, :]
    if kind == "cos":
        if type == 1:
            m = 2.0 * np.cos(math.pi * k * j / (n - 1))
            m[:, 0] *= 0.5
            m[:, -1] *= 0.5   # x[0] + (-1)^k x[n-1] + 2 sum of the interior
            return m
        if type == 2:
            return 2.0 * np.cos(math.pi * k * (2 * j + 1) / (2 * n))
        if type == 3:
            m = 2.0 * np.cos(math.pi * (2 * k + 1) * j / (2 * n))
            m[:, 0] = 1.0
            return m
        return 2.0 * np.cos(math.pi * (2 * k + 1) * (2 * j + 1) / (4 * n))
    if type == 1:
        return 2.0 * np.sin(math.pi * (k + 1) * (j + 1) / (n + 1))
    if type == 2:
        return 2.0 * np.sin(math.pi * (k + 1) * (2 * j + 1) / (2 * n))
    if type == 3:
        m = 2.0 * np.sin(math.pi * (2 * k + 1) * (j + 1) / (2 * n))
        m[:, -1] = (-1.0) ** np.arange(n)
        return m
    return 2.0 * np.sin(math.pi * (2 * k + 1) * (2 * j + 1) / (4 * n))


@functools.lru_cache(maxsize=128)
def _matrix(kind, type, n, norm, orthogonalize, inverse):  # noqa: A002
    m = _unnormalized(kind, type, n)
    factor = {("cos", 1): 2.0 * (n - 1), ("sin", 1): 2.0 * (n + 1)}.get((kind, type), 2.0 * n)
    if norm == "forward":
        m = m / factor
    elif norm == "ortho":
        m = m / math.sqrt(factor)
    if orthogonalize:
        # SciPy's orthogonalized variants: the end terms rescaled (with norm='ortho', so
        # that M^T M = I; SciPy rescales them under the other norms too)
        if kind == "cos" and type == 1:
            m[:, [0, -1]] *= math.sqrt(2.0)
            m[[0, -1], :] /= math.sqrt(2.0)
        elif type == 2:
            m[0 if kind == "cos" else -1, :] /= math.sqrt(2.0)
        elif type == 3:
            m[:, 0 if kind == "cos" else -1] *= math.sqrt(2.0)
    if inverse:
        m = m.T.copy() if norm == "ortho" and (orthogonalize or type == 4 or (
            kind == "sin" and type == 1)) else np.linalg.inv(m)
    m.setflags(write=False)
    return m


def _float(name, x):
    x = asarray(x)
    if x.dtype.kind in "biu":
        return fnp.astype(x, np.float64)
    if x.dtype.kind not in "fc":
        raise TypeError(f"{name}: x must be a float, complex or integer array, got {x.dtype}")
    return x


def _resize(x, n, axis):
    """SciPy's ``n``: ``x`` cut or zero-padded to length ``n`` along ``axis``."""
    size = x.shape[axis]
    if n == size:
        return x
    if n < size:
        return fnp.take(x, np.arange(n), axis=axis)
    pad = [(0, 0)] * x.ndim
    pad[axis] = (0, n - size)
    return fnp.pad(x, pad)


def _along(name, kind, x, type, n, axis, norm, orthogonalize, inverse):  # noqa: A002
    x = _float(name, x)
    if x.ndim == 0:
        raise ValueError(f"{name}: x must have at least one axis; give a 1-d array")
    axis = axis + x.ndim if axis < 0 else axis
    if not 0 <= axis < x.ndim:
        raise ValueError(f"{name}: axis {axis} is out of range for an array of {x.ndim} axes")
    n = x.shape[axis] if n is None else int(n)
    _check(name, type, n, norm)
    x = _resize(x, n, axis)
    ortho = (norm == "ortho") if orthogonalize is None else bool(orthogonalize)
    m = _matrix(kind, type, n, "backward" if norm is None else norm, ortho, inverse)
    real = np.float32 if x.dtype in (np.float32, np.complex64) else np.float64
    out = fnp.tensordot(x, m.astype(real), axes=([axis], [1]))
    return fnp.moveaxis(out, -1, axis)


def _over_axes(name, kind, x, type, s, axes, norm, orthogonalize, inverse):  # noqa: A002
    x = _float(name, x)
    if axes is None:
        axes = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
    axes = (axes,) if isinstance(axes, (int, np.integer)) else tuple(axes)
    sizes = [None] * len(axes) if s is None else (
        [s] * len(axes) if isinstance(s, (int, np.integer)) else list(s))
    if len(sizes) != len(axes):
        raise ValueError(f"{name}: s and axes must have the same length, got {len(sizes)} "
                         f"and {len(axes)}")
    for ax, n in zip(axes, sizes):
        x = _along(name, kind, x, type, n, ax, norm, orthogonalize, inverse)
    return x


def dct(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
        norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
        orthogonalize: Optional[bool] = None) -> Array:
    """The discrete cosine transform of ``x`` along ``axis`` (``scipy.fft.dct``): types
    1-4, ``norm`` ``'backward'``/``None``, ``'ortho'`` or ``'forward'``, ``n`` to cut or
    zero-pad; differentiable.  (``overwrite_x`` and ``workers`` are accepted and ignored.)

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.fft as ffft
    >>> ffft.dct(np.array([1.0, 2.0, 3.0])).round(8) + 0.0
    array([12.        , -3.46410162,  0.        ])
    >>> fg.grad(lambda x: ffft.dct(x, norm="ortho")[0])(np.ones(4))  # the first row
    array([0.5, 0.5, 0.5, 0.5])
    """
    return _along("dct", "cos", x, type, n, axis, norm, orthogonalize, False)


def idct(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
         orthogonalize: Optional[bool] = None) -> Array:
    """The inverse of :func:`dct` with the same ``type`` and ``norm``
    (``scipy.fft.idct``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.idct(ffft.dct(np.array([1.0, 2.0, 3.0]), type=3), type=3)
    array([1., 2., 3.])
    """
    return _along("idct", "cos", x, type, n, axis, norm, orthogonalize, True)


def dst(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
        norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
        orthogonalize: Optional[bool] = None) -> Array:
    """The discrete sine transform of ``x`` along ``axis`` (``scipy.fft.dst``), types 1-4;
    differentiable.

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.dst(np.array([1.0, 1.0]), type=1).round(8) + 0.0
    array([3.46410162, 0.        ])
    """
    return _along("dst", "sin", x, type, n, axis, norm, orthogonalize, False)


def idst(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
         orthogonalize: Optional[bool] = None) -> Array:
    """The inverse of :func:`dst` with the same ``type`` and ``norm``
    (``scipy.fft.idst``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.idst(ffft.dst(np.array([1.0, 2.0]), norm="ortho"), norm="ortho")
    array([1., 2.])
    """
    return _along("idst", "sin", x, type, n, axis, norm, orthogonalize, True)


_Sizes = Optional[Union[int, Sequence[int]]]
_Axes = Optional[Union[int, Sequence[int]]]


def dctn(x: ArrayLike, type: int = 2, s: _Sizes = None, axes: _Axes = None,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
         *, orthogonalize: Optional[bool] = None) -> Array:
    """The n-dimensional DCT over ``axes`` (all by default; the last ``len(s)`` when only
    ``s`` is given), each of length ``s`` (``scipy.fft.dctn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.dctn(np.ones((2, 2)), norm="ortho").round(12) + 0.0
    array([[2., 0.],
           [0., 0.]])
    """
    return _over_axes("dctn", "cos", x, type, s, axes, norm, orthogonalize, False)


def idctn(x: ArrayLike, type: int = 2, s: _Sizes = None, axes: _Axes = None,  # noqa: A002
          norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
          *, orthogonalize: Optional[bool] = None) -> Array:
    """The inverse of :func:`dctn` (``scipy.fft.idctn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.idctn(ffft.dctn(np.eye(2))).round(12) + 0.0
    array([[1., 0.],
           [0., 1.]])
    """
    return _over_axes("idctn", "cos", x, type, s, axes, norm, orthogonalize, True)


def dstn(x: ArrayLike, type: int = 2, s: _Sizes = None, axes: _Axes = None,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
         *, orthogonalize: Optional[bool] = None) -> Array:
    """The n-dimensional DST over ``axes`` (``scipy.fft.dstn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.dstn(np.ones((1, 1)))
    array([[4.]])
    """
    return _over_axes("dstn", "sin", x, type, s, axes, norm, orthogonalize, False)


def idstn(x: ArrayLike, type: int = 2, s: _Sizes = None, axes: _Axes = None,  # noqa: A002
          norm: Optional[str] = None, overwrite_x: bool = False, workers: Optional[int] = None,
          *, orthogonalize: Optional[bool] = None) -> Array:
    """The inverse of :func:`dstn` (``scipy.fft.idstn``).

    >>> import numpy as np, funcgrad.scipy.fft as ffft
    >>> ffft.idstn(np.array([[4.0]]))
    array([[1.]])
    """
    return _over_axes("idstn", "sin", x, type, s, axes, norm, orthogonalize, True)

# (session 24: the worker and backend controls)
from . import _fft_backend  # noqa: E402
from ._fft_backend import (get_workers, register_backend, set_backend,  # noqa: E402,F401
                           set_global_backend, set_workers, skip_backend)
__all__ += _fft_backend.__all__
