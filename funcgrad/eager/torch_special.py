"""PyTorch's ``torch.special`` on Tensors, as ``fg.special``: PyTorch's names
(``bessel_j0``, ``modified_bessel_k1``, ``psi``...) and signatures (``logsumexp(input,
dim, keepdim)``, ``softmax(input, dim)``, ``logit(input, eps)``), Tensors out, with
their gradients.  The functions are funcgrad.scipy.special's (SciPy's names), through
which a Tensor goes as through any NumPy function; an integer or boolean Tensor is
first made one of the default floating dtype, as PyTorch does.  ``xlogy`` and
``xlog1py`` keep PyTorch's gradient in ``input`` where it is 0 (0, where SciPy's JAX
convention gives ``log(other)``).

>>> import funcgrad as fg
>>> x = fg.tensor([0.5, 2.0], requires_grad=True)
>>> fg.special.expit(x)
tensor([0.62245935, 0.8807971 ], grad_fn=<SigmoidBackward0>)
>>> fg.special.logsumexp(x, 0).backward(); x.grad
tensor([0.18242553, 0.8175745 ])
"""
from typing import Any, Callable

from ..scipy import special as _scipy
from . import dtypes as _dtypes
from . import pointwise as _pointwise
from .functions import where as _where
from .tensor import Tensor

# PyTorch's name -> funcgrad.scipy.special's, for the functions of one Tensor
_UNARY = {
    "erf": "erf", "erfc": "erfc", "erfcx": "erfcx", "erfinv": "erfinv", "expit": "expit",
    "gammaln": "gammaln", "digamma": "digamma", "psi": "digamma", "i0": "i0", "i0e": "i0e",
    "i1": "i1", "i1e": "i1e", "ndtr": "ndtr", "ndtri": "ndtri", "log_ndtr": "log_ndtr",
    "entr": "entr", "bessel_j0": "j0", "bessel_j1": "j1", "bessel_y0": "y0",
    "bessel_y1": "y1", "modified_bessel_i0": "i0", "modified_bessel_i1": "i1",
    "modified_bessel_k0": "k0", "modified_bessel_k1": "k1",
    "scaled_modified_bessel_k0": "k0e", "scaled_modified_bessel_k1": "k1e",
}
# ... and those that are the Tensor's methods of the same name
_METHODS = ("exp2", "expm1", "log1p", "sinc")

__all__ = sorted(list(_UNARY) + list(_METHODS) + [
    "xlogy", "xlog1py", "zeta", "gammainc", "gammaincc", "polygamma", "multigammaln", "logit",
    "logsumexp", "softmax", "log_softmax", "round", "spherical_bessel_j0"])


def _floating(name: str, x: Any) -> Any:
    if not isinstance(x, Tensor):
        raise TypeError(f"special.{name}(): argument 'input' must be Tensor, not "
                        f"{type(x).__name__}; make it one first: "
                        f"fg.special.{name}(fg.tensor(...))")
    return x if x.dtype.kind in "fc" else x.to(_dtypes.get_default_dtype())


def _other(x: Any, like: Any) -> Any:
    if isinstance(x, Tensor):
        return x if x.dtype.kind in "fc" else x.to(like.dtype)
    return Tensor(x, dtype=like.dtype)


def _unary(name: str, compute: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def function(input: Any) -> Any:  # noqa: A002 - PyTorch's name
        return compute(_floating(name, input))
    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    function.__doc__ = (f"PyTorch's ``torch.special.{name}(input)``, elementwise.\n\n"
                        f">>> import funcgrad as fg\n"
                        f">>> fg.special.{name}(fg.tensor([0.25, 0.5])).shape\n"
                        f"fg.Size([2])\n")
    return function


globals().update({name: _unary(name, getattr(_scipy, ours)) for name, ours in _UNARY.items()})
globals().update({name: _unary(name, getattr(Tensor, name)) for name in _METHODS})


def xlogy(input: Any, other: Any) -> Any:  # noqa: A002
    """``input * log(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN), as
    :meth:`Tensor.xlogy` (PyTorch's gradients).

    >>> import funcgrad as fg
    >>> fg.special.xlogy(fg.tensor([0.0, 2.0]), fg.tensor([0.0, 1.0]))
    tensor([0., 0.])
    """
    if not isinstance(input, Tensor):
        other = _floating("xlogy", other)
        input = _other(input, other)
    return _pointwise.xlogy(_floating("xlogy", input), other)


def xlog1py(input: Any, other: Any) -> Any:  # noqa: A002
    """``input * log1p(other)``, 0 where ``input`` is 0 (unless ``other`` is NaN); the
    gradient in ``input`` is 0 there, PyTorch's (SciPy's JAX convention: ``log1p(other)``).

    >>> import funcgrad as fg
    >>> fg.special.xlog1py(fg.tensor([0.0, 2.0]), fg.tensor([-1.0, 0.0]))
    tensor([0., 0.])
    """
    if not isinstance(input, Tensor):
        other = _floating("xlog1py", other)
        input = _other(input, other)
    input = _floating("xlog1py", input)
    other = _other(other, input)
    # Where input == 0, xlogy(input, 1 + other) gives the value 0 and PyTorch's gradients
    # (0 in input where other <= -1); elsewhere input * log1p(other) keeps log1p's digits
    # near other == 0.  Each branch sees safe values where it is not taken (the
    # double-where idiom), so its derivative there is 0, not 0 * inf.
    zero = input == 0
    masked = _pointwise.xlogy(_where(zero, input, 0.0), 1 + _where(zero, other, 0.0))
    regular = input * _where(zero, 0.0, other).log1p()
    return _where(zero, masked, regular)


def zeta(input: Any, other: Any) -> Any:  # noqa: A002
    """The Hurwitz zeta function ``zeta(input, other)`` (``other``: the shift ``q``).

    >>> import funcgrad as fg
    >>> fg.special.zeta(fg.tensor([2.0]), fg.tensor([1.0]))
    tensor([1.644934])
    """
    x = _floating("zeta", input) if isinstance(input, Tensor) else input
    return _scipy.zeta(x, _other(other, x) if isinstance(x, Tensor) else other)


def gammainc(input: Any, other: Any) -> Any:  # noqa: A002
    """The regularized lower incomplete gamma function ``P(input, other)``.

    >>> import funcgrad as fg
    >>> fg.special.gammainc(fg.tensor([1.0]), fg.tensor([0.0]))
    tensor([0.])
    """
    a = _floating("gammainc", input)
    return _scipy.gammainc(a, _other(other, a))


def gammaincc(input: Any, other: Any) -> Any:  # noqa: A002
    """The regularized upper incomplete gamma function ``Q(input, other)``.

    >>> import funcgrad as fg
    >>> fg.special.gammaincc(fg.tensor([1.0]), fg.tensor([0.0]))
    tensor([1.])
    """
    a = _floating("gammaincc", input)
    return _scipy.gammaincc(a, _other(other, a))


def polygamma(n: int, input: Any) -> Any:  # noqa: A002
    """The ``n``-th derivative of the digamma function.

    >>> import funcgrad as fg
    >>> fg.special.polygamma(1, fg.tensor([1.0]))
    tensor([1.644934])
    """
    return _scipy.polygamma(n, _floating("polygamma", input))


def multigammaln(input: Any, p: int) -> Any:  # noqa: A002
    """The log of the multivariate gamma function of dimension ``p``.

    >>> import funcgrad as fg
    >>> fg.special.multigammaln(fg.tensor([2.0]), 1)
    tensor([0.])
    """
    return _scipy.multigammaln(_floating("multigammaln", input), p)


def logit(input: Any, eps: float | None = None) -> Any:  # noqa: A002
    """``log(p / (1 - p))``, ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given.

    >>> import funcgrad as fg
    >>> fg.special.logit(fg.tensor([0.5]))
    tensor([0.])
    """
    return _floating("logit", input).logit(eps)


def logsumexp(input: Any, dim: Any, keepdim: bool = False) -> Any:  # noqa: A002
    """``log(sum(exp(input)))`` over ``dim``, computed without overflow.

    >>> import funcgrad as fg
    >>> fg.special.logsumexp(fg.tensor([0.0, 0.0]), 0)
    tensor(0.6931472)
    """
    return _floating("logsumexp", input).logsumexp(dim, keepdim)


def softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:  # noqa: A002
    """``exp(input) / sum(exp(input))`` over ``dim``.

    >>> import funcgrad as fg
    >>> fg.special.softmax(fg.tensor([0.0, 0.0]), 0)
    tensor([0.5, 0.5])
    """
    return _floating("softmax", input).softmax(dim, dtype)


def log_softmax(input: Any, dim: int, *, dtype: Any = None) -> Any:  # noqa: A002
    """``log(softmax(input, dim))``, computed without overflow.

    >>> import funcgrad as fg
    >>> fg.special.log_softmax(fg.tensor([0.0, 0.0]), 0)
    tensor([-0.6931472, -0.6931472])
    """
    return _floating("log_softmax", input).log_softmax(dim, dtype)


def round(input: Any, *, decimals: int = 0) -> Any:  # noqa: A001,A002 - PyTorch's names
    """``input`` rounded half to even, to ``decimals`` places.

    >>> import funcgrad as fg
    >>> fg.special.round(fg.tensor([0.5, 1.25]), decimals=1)
    tensor([0.5, 1.2])
    """
    if not isinstance(input, Tensor):
        _floating("round", input)
    return input.round(decimals=decimals)


def spherical_bessel_j0(input: Any) -> Any:  # noqa: A002
    """The spherical Bessel function of the first kind of order 0: ``sin(x) / x``.

    >>> import funcgrad as fg
    >>> fg.special.spherical_bessel_j0(fg.tensor([0.0]))
    tensor([1.])
    """
    x = _floating("spherical_bessel_j0", input)
    return (x / 3.141592653589793).sinc()
