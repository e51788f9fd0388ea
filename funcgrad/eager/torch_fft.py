"""PyTorch's ``torch.fft`` on Tensors, as ``fg.fft``: PyTorch's signatures (``n=``,
``s=``, ``dim=``, ``norm=``), Tensors out (a float32 Tensor's transform is complex64),
with their gradients.  The transforms are funcgrad.numpy's ``fft`` (NumPy's ``axis=`` /
``axes=``), through which a Tensor goes as through any NumPy function; PyTorch's
``hfft2``/``hfftn``/``ihfft2``/``ihfftn``, which NumPy lacks, are ``irfftn`` of the
conjugate and the conjugate of ``rfftn`` with the normalisation swapped.

>>> import funcgrad as fg
>>> x = fg.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
>>> fg.fft.rfft(x)
tensor([10.+0.j, -2.+2.j, -2.+0.j], grad_fn=<...>)
>>> fg.fft.fft(x, norm="ortho").abs().sum().backward(); x.grad
tensor([-0.70710677,  0.29289323,  0.70710677,  1.7071068 ])
"""
from typing import Any, Callable, Sequence

import numpy as np

from .. import numpy as fnp
from . import dtypes as _dtypes
from .tensor import Tensor

_ONE_DIM = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
_TWO_DIM = ("fft2", "ifft2", "rfft2", "irfft2")
_N_DIM = ("fftn", "ifftn", "rfftn", "irfftn")

__all__ = list(_ONE_DIM + _TWO_DIM + _N_DIM) + [
    "hfft2", "hfftn", "ihfft2", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_NORMS = (None, "backward", "ortho", "forward")


def _input(name: str, x: Any, norm: Any) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"fft.{name}(): argument 'input' must be Tensor, not "
                        f"{type(x).__name__}; make it one first: fg.fft.{name}(fg.tensor(...))")
    if norm not in _NORMS:
        raise ValueError(f"Invalid normalization mode: {norm}")
    if x.dtype.kind not in "fc":  # (PyTorch transforms integers in the default dtype)
        x = x.to(_dtypes.get_default_dtype())
    return x


def _one(name: str) -> Callable[..., Any]:
    numpy_fft = getattr(fnp.fft, name)

    def transform(input: Any, n: int | None = None, dim: int = -1,  # noqa: A002
                  norm: str | None = None) -> Any:
        return numpy_fft(_input(name, input, norm), n=n, axis=dim, norm=norm)
    return _named(transform, name, "n=None, dim=-1, norm=None")


def _many(name: str, default_dim: Any) -> Callable[..., Any]:
    numpy_fft = getattr(fnp.fft, name)

    def transform(input: Any, s: Sequence[int] | None = None,  # noqa: A002
                  dim: Any = default_dim, norm: str | None = None) -> Any:
        x = _input(name, input, norm)
        axes = _axes(x, s, dim)
        return numpy_fft(x, s=None if s is None else tuple(s), axes=axes, norm=norm)
    return _named(transform, name, f"s=None, dim={default_dim}, norm=None")


def _axes(x, s, dim):
    if dim is None:  # all dimensions, or the last len(s)
        return None if s is None else tuple(range(x.ndim - len(s), x.ndim))
    return (dim,) if isinstance(dim, int) else tuple(dim)


def _named(transform, name, signature):
    transform.__name__ = transform.__qualname__ = name
    transform.__module__ = __name__
    kind = "inverse " if name.startswith("i") else ""
    transform.__doc__ = (
        f"PyTorch's ``torch.fft.{name}(input, {signature})``: the {kind}discrete Fourier "
        f"transform, as NumPy's ``numpy.fft.{name}`` with ``dim`` for its axes.\n\n"
        f">>> import funcgrad as fg\n"
        f">>> fg.fft.{name}(fg.ones(2, 4)).shape[0]\n"
        f"2\n")
    return transform


globals().update({name: _one(name) for name in _ONE_DIM})
globals().update({name: _many(name, (-2, -1)) for name in _TWO_DIM})
globals().update({name: _many(name, None) for name in _N_DIM})

_SWAPPED = {None: "forward", "backward": "forward", "forward": "backward", "ortho": "ortho"}


def hfftn(input: Any, s: Sequence[int] | None = None, dim: Any = None,  # noqa: A002
          norm: str | None = None) -> Any:
    """The n-dimensional transform of a Hermitian-symmetric signal given by its half
    (the last of ``dim``): real output, ``irfftn`` of the conjugate.

    >>> import funcgrad as fg
    >>> fg.fft.hfftn(fg.tensor([[1.0, 0.0], [0.0, 0.0]]))
    tensor([[1., 1.],
            [1., 1.]])
    """
    x = _input("hfftn", input, norm)
    return fnp.fft.irfftn(x.conj(), s=None if s is None else tuple(s), axes=_axes(x, s, dim),
                          norm=_SWAPPED[norm])


def hfft2(input: Any, s: Sequence[int] | None = None, dim: Any = (-2, -1),  # noqa: A002
          norm: str | None = None) -> Any:
    """:func:`hfftn` over two dimensions.

    >>> import funcgrad as fg
    >>> fg.fft.hfft2(fg.tensor([[1.0, 0.0], [0.0, 0.0]])).shape
    fg.Size([2, 2])
    """
    return hfftn(input, s, dim, norm)


def ihfftn(input: Any, s: Sequence[int] | None = None, dim: Any = None,  # noqa: A002
           norm: str | None = None) -> Any:
    """The inverse of :func:`hfftn`: of a real signal, the half of its inverse transform
    (the last of ``dim``), the conjugate of ``rfftn``.

    >>> import funcgrad as fg
    >>> fg.fft.ihfftn(fg.ones(2, 2))
    tensor([[1.-0.j, 0.-0.j],
            [0.-0.j, 0.-0.j]])
    """
    x = _input("ihfftn", input, norm)
    return fnp.fft.rfftn(x, s=None if s is None else tuple(s), axes=_axes(x, s, dim),
                         norm=_SWAPPED[norm]).conj()


def ihfft2(input: Any, s: Sequence[int] | None = None, dim: Any = (-2, -1),  # noqa: A002
           norm: str | None = None) -> Any:
    """:func:`ihfftn` over two dimensions.

    >>> import funcgrad as fg
    >>> fg.fft.ihfft2(fg.ones(2, 2)).shape
    fg.Size([2, 2])
    """
    return ihfftn(input, s, dim, norm)


def _frequencies(values: Any, dtype: Any, requires_grad: bool) -> Any:
    return Tensor(values, dtype=_dtypes.get_default_dtype() if dtype is None else dtype,
                  requires_grad=requires_grad)


def fftfreq(n: int, d: float = 1.0, *, dtype: Any = None, device: Any = None,
            requires_grad: bool = False, **kwargs: Any) -> Any:
    """The sample frequencies of an ``n``-point transform with spacing ``d`` (a Tensor of
    the default dtype).

    >>> import funcgrad as fg
    >>> fg.fft.fftfreq(4)
    tensor([ 0.  ,  0.25, -0.5 , -0.25])
    """
    return _frequencies(np.fft.fftfreq(n, d), dtype, requires_grad)


def rfftfreq(n: int, d: float = 1.0, *, dtype: Any = None, device: Any = None,
             requires_grad: bool = False, **kwargs: Any) -> Any:
    """The sample frequencies of :func:`rfft` of ``n`` points with spacing ``d``.

    >>> import funcgrad as fg
    >>> fg.fft.rfftfreq(4)
    tensor([0.  , 0.25, 0.5 ])
    """
    return _frequencies(np.fft.rfftfreq(n, d), dtype, requires_grad)


def fftshift(input: Any, dim: Any = None) -> Any:  # noqa: A002
    """``input`` rolled so that the zero frequency is in the middle of ``dim`` (all
    dimensions by default).

    >>> import funcgrad as fg
    >>> fg.fft.fftshift(fg.fft.fftfreq(4))
    tensor([-0.5 , -0.25,  0.  ,  0.25])
    """
    return fnp.fft.fftshift(input, axes=dim)


def ifftshift(input: Any, dim: Any = None) -> Any:  # noqa: A002
    """The inverse of :func:`fftshift`.

    >>> import funcgrad as fg
    >>> fg.fft.ifftshift(fg.tensor([-0.5, -0.25, 0.0, 0.25]))
    tensor([ 0.  ,  0.25, -0.5 , -0.25])
    """
    return fnp.fft.ifftshift(input, axes=dim)
