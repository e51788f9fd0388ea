"""``funcgrad.scipy.fftpack``: SciPy's legacy ``scipy.fftpack`` names, differentiable: the
cosine and sine transforms (``dct``, ``idct``, ``dst``, ``idst`` and their ``n``-dimensional
forms) and the complex Fourier transforms (``fft``, ``ifft``, ``fft2``, ``ifft2``,
``fftn``, ``ifftn``).

They are :mod:`funcgrad.scipy.fft`'s and :mod:`funcgrad.numpy.fft`'s transforms under
fftpack's conventions, which differ from ``scipy.fft``'s in two places: with ``norm=None``
the inverse cosine and sine transforms are not scaled (fftpack's ``idct(dct(x))`` is
``2 n x`` for type 2, where ``scipy.fft``'s is ``x``), and the ``n``-dimensional ones
name their sizes ``shape`` rather than ``s``.  ``overwrite_x`` is accepted and ignored
(funcgrad's results are new arrays).  fftpack's ``rfft``/``irfft`` (its packed real
layout), the pseudo-differential operators (``diff``, ``tilbert``, ``hilbert``, ``shift``,
...) and the helpers are in :mod:`.._signalrest_fftpack`.

>>> import numpy as np, funcgrad as fg, funcgrad.scipy.fftpack as fp
>>> fp.idct(fp.dct(np.array([1.0, 2.0, 3.0]))).round(12) + 0.0   # 2 n x, as SciPy's
array([ 6., 12., 18.])
>>> fg.grad(lambda x: fp.dct(x)[0])(np.zeros(3))                  # 2 cos(0)
array([2., 2., 2.])
"""
from typing import Optional, Sequence, Union

from ..numpy import fft as _np_fft
from ..typing import Array, ArrayLike
from . import fft as _fft
from ._signalrest_fftpack import (cc_diff, cs_diff, diff, fftfreq, fftshift,  # noqa: F401
                                  hilbert, ifftshift, ihilbert, irfft, itilbert,
                                  next_fast_len, rfft, rfftfreq, sc_diff, shift, ss_diff,
                                  tilbert)

__all__ = ["dct", "idct", "dctn", "idctn", "dst", "idst", "dstn", "idstn",
           "fft", "ifft", "fft2", "ifft2", "fftn", "ifftn",
           "diff", "tilbert", "itilbert", "hilbert", "ihilbert", "cs_diff", "sc_diff",
           "ss_diff", "cc_diff", "shift", "rfft", "irfft", "fftfreq", "rfftfreq", "fftshift",
           "ifftshift", "next_fast_len"]

_Sizes = Optional[Union[int, Sequence[int]]]
_Axes = Optional[Union[int, Sequence[int]]]


def _norm(name: str, norm: Optional[str], inverse: bool) -> Optional[str]:
    """``scipy.fft``'s ``norm`` for fftpack's: an unscaled inverse is ``'forward'`` there."""
    if norm not in (None, "ortho"):
        raise ValueError(f"fftpack.{name}: norm must be None or 'ortho' (fftpack's), got "
                         f"{norm!r}; funcgrad.scipy.fft.{name} takes 'backward' and 'forward'")
    if norm is None:
        return "forward" if inverse else "backward"
    return norm


def dct(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
        norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """The discrete cosine transform (``scipy.fftpack.dct``), types 1-4.

    >>> import numpy as np
    >>> dct(np.array([1.0, 2.0, 3.0])).round(8) + 0.0
    array([12.        , -3.46410162,  0.        ])
    """
    return _fft.dct(x, type, n, axis, _norm("dct", norm, False))


def idct(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """fftpack's inverse cosine transform: with ``norm=None`` the DCT of the inverse type,
    unscaled (``scipy.fftpack.idct``).

    >>> import numpy as np
    >>> idct(np.array([1.0, 0.0]))
    array([1., 1.])
    """
    return _fft.idct(x, type, n, axis, _norm("idct", norm, True))


def dst(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
        norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """The discrete sine transform (``scipy.fftpack.dst``), types 1-4.

    >>> import numpy as np
    >>> dst(np.array([1.0]))
    array([2.])
    """
    return _fft.dst(x, type, n, axis, _norm("dst", norm, False))


def idst(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """fftpack's inverse sine transform, unscaled with ``norm=None``
    (``scipy.fftpack.idst``).

    >>> import numpy as np
    >>> idst(np.array([1.0]))
    array([1.])
    """
    return _fft.idst(x, type, n, axis, _norm("idst", norm, True))


def dctn(x: ArrayLike, type: int = 2, shape: _Sizes = None, axes: _Axes = None,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """The n-dimensional DCT over ``axes`` (``scipy.fftpack.dctn``).

    >>> import numpy as np
    >>> dctn(np.ones((1, 1)))
    array([[4.]])
    """
    return _fft.dctn(x, type, shape, axes, _norm("dctn", norm, False))


def idctn(x: ArrayLike, type: int = 2, shape: _Sizes = None, axes: _Axes = None,  # noqa: A002
          norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """The n-dimensional inverse DCT, unscaled with ``norm=None`` (``scipy.fftpack.idctn``).

    >>> import numpy as np
    >>> idctn(np.array([[1.0, 0.0]]))
    array([[1., 1.]])
    """
    return _fft.idctn(x, type, shape, axes, _norm("idctn", norm, True))


def dstn(x: ArrayLike, type: int = 2, shape: _Sizes = None, axes: _Axes = None,  # noqa: A002
         norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """The n-dimensional DST over ``axes`` (``scipy.fftpack.dstn``).

    >>> import numpy as np
    >>> dstn(np.ones((1, 1)))
    array([[4.]])
    """
    return _fft.dstn(x, type, shape, axes, _norm("dstn", norm, False))


def idstn(x: ArrayLike, type: int = 2, shape: _Sizes = None, axes: _Axes = None,  # noqa: A002
          norm: Optional[str] = None, overwrite_x: bool = False) -> Array:
    """The n-dimensional inverse DST, unscaled with ``norm=None`` (``scipy.fftpack.idstn``).

    >>> import numpy as np
    >>> idstn(np.array([[1.0]]))
    array([[1.]])
    """
    return _fft.idstn(x, type, shape, axes, _norm("idstn", norm, True))


def fft(x: ArrayLike, n: Optional[int] = None, axis: int = -1,
        overwrite_x: bool = False) -> Array:
    """The discrete Fourier transform along ``axis`` (``scipy.fftpack.fft``).

    >>> import numpy as np
    >>> fft(np.array([1.0, 1.0]))
    array([2.+0.j, 0.+0.j])
    """
    return _np_fft.fft(x, n, axis)


def ifft(x: ArrayLike, n: Optional[int] = None, axis: int = -1,
         overwrite_x: bool = False) -> Array:
    """The inverse discrete Fourier transform, scaled by ``1/n`` (``scipy.fftpack.ifft``).

    >>> import numpy as np
    >>> ifft(np.array([2.0, 0.0]))
    array([1.+0.j, 1.+0.j])
    """
    return _np_fft.ifft(x, n, axis)


def fftn(x: ArrayLike, shape: _Sizes = None, axes: _Axes = None,
         overwrite_x: bool = False) -> Array:
    """The n-dimensional discrete Fourier transform (``scipy.fftpack.fftn``).

    >>> import numpy as np
    >>> fftn(np.ones((1, 2)))
    array([[2.+0.j, 0.+0.j]])
    """
    return _np_fft.fftn(x, shape, axes)


def ifftn(x: ArrayLike, shape: _Sizes = None, axes: _Axes = None,
          overwrite_x: bool = False) -> Array:
    """The n-dimensional inverse discrete Fourier transform (``scipy.fftpack.ifftn``).

    >>> import numpy as np
    >>> ifftn(np.array([[2.0, 0.0]]))
    array([[1.+0.j, 1.+0.j]])
    """
    return _np_fft.ifftn(x, shape, axes)


def fft2(x: ArrayLike, shape: _Sizes = None, axes: Sequence[int] = (-2, -1),
         overwrite_x: bool = False) -> Array:
    """The 2-dimensional discrete Fourier transform (``scipy.fftpack.fft2``).

    >>> import numpy as np
    >>> fft2(np.ones((1, 2)))
    array([[2.+0.j, 0.+0.j]])
    """
    return _np_fft.fftn(x, shape, axes)


def ifft2(x: ArrayLike, shape: _Sizes = None, axes: Sequence[int] = (-2, -1),
          overwrite_x: bool = False) -> Array:
    """The 2-dimensional inverse discrete Fourier transform (``scipy.fftpack.ifft2``).

    >>> import numpy as np
    >>> ifft2(np.array([[2.0, 0.0]]))
    array([[1.+0.j, 1.+0.j]])
    """
    return _np_fft.ifftn(x, shape, axes)
