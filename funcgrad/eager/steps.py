"""PyTorch's Tensor methods that round or sort: ``round``, ``floor``, ``ceil``, ``trunc``,
``sign``, ``angle`` (a step for real Tensors), ``sort`` and ``argsort``.

PyTorch records the rounding functions (and ``sign``) in the graph with a zero gradient:
``x.round()`` of a Tensor that requires grad requires grad too (``RoundBackward0``), and
a backward through it gives zeros, where funcgrad's NumPy functions treat the result as a
constant.  Each is recorded here as ``where(False, x, step(x))``: the value is exactly
``step(x)`` (inf and NaN included) and the gradient exactly zero.  ``sort`` returns
PyTorch's ``(values, indices)``; the values are gathered at the indices, so the gradient
follows each element to its place.
"""
from collections import namedtuple
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy.constructors import stop_gradient
from ..primitives import elementwise as ew
from .dtypes import default_float
from .inplace import _FALSE
from .indices import checked, is_traced
from .named import Named, record_as
from .promotion import result_dtype
from .scalar_dims import scalar_dims
from .values import TensorBase

__all__ = ["round", "floor", "ceil", "trunc", "sign", "angle", "sort", "argsort", "attach",
           "rounded_quotient"]

SortResult = namedtuple("sort", ["values", "indices"])  # type: ignore[name-match]


def _nonzero(divisor):
    if np.any(divisor == 0):
        raise ZeroDivisionError("ZeroDivisionError: integer division by zero")
    return divisor


def _without_derivative(x: Any) -> Any:
    value: Any = x  # (not narrowed: a traced value takes any funcgrad.numpy function)
    if isinstance(x, Tracer):
        return stop_gradient(value)
    return np.asarray(value.detach().numpy() if isinstance(x, TensorBase) else value)


def rounded_quotient(a: Any, b: Any, mode: str) -> Any:
    """``a / b`` rounded down (``mode="floor"``) or towards zero (``"trunc"``) in PyTorch's
    result dtype, without a derivative; an integer division by zero raises (where the
    divisor is traced, when its values are known).

    >>> import funcgrad as fg
    >>> rounded_quotient(fg.tensor([7, -7]), 2, "trunc")
    array([ 3, -3])
    """
    dtype = result_dtype((a, b))
    a, b = _without_derivative(a), _without_derivative(b)
    if dtype.kind in "biu":
        b = checked(b, _nonzero) if is_traced(b) else _nonzero(b)
        q = fnp.floor_divide(a, b)
        if mode == "trunc":  # floor and trunc differ where the exact quotient is negative
            q = q + ((q < 0) & (q * b != a))
        return fnp.astype(q, dtype)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = fnp.astype(a, dtype) / fnp.astype(b, dtype)
    return fnp.astype(fnp.trunc(q) if mode == "trunc" else fnp.floor(q), dtype)


def _recorded(named, step, self, *args):
    """``step(self, *args)`` recorded as the node ``named`` with a zero gradient."""
    return record_as(named, lambda t: ew.where(_FALSE, t, step(t, *args)), self)


def _zero_gradient_method(name: str, step: Callable[[Any], Any], doc: str
                          ) -> Callable[[Any], Any]:
    """The Tensor method ``name``: ``step`` of the Tensor, recorded with a zero gradient
    as ``<Name>Backward0``."""
    named = Named(name, f"{name.capitalize()}Backward0")

    def method(self: Any) -> Any:
        return _recorded(named, step, self)
    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc
    return method


_ROUND = Named("round", "RoundBackward0")
_SORT = Named("sort", "SortBackward0")
_ANGLE = Named("angle", "AngleBackward0")


def round(self: Any, decimals: int = 0) -> Any:  # noqa: A001 - PyTorch's name
    """Round half to even (``decimals`` places); a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([0.5, 1.5, 2.7], requires_grad=True).round()
    tensor([0., 2., 3.], grad_fn=<RoundBackward0>)
    """
    return _recorded(_ROUND, fnp.round, self, decimals)


floor: Callable[[Any], Any] = _zero_gradient_method("floor", fnp.floor, """\
    The largest integer not above each element; a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([-0.5, 1.5]).floor()
    tensor([-1.,  1.])
    """)
ceil: Callable[[Any], Any] = _zero_gradient_method("ceil", fnp.ceil, """\
    The smallest integer not below each element; a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([-0.5, 1.5]).ceil()
    tensor([-0.,  2.])
    """)
trunc: Callable[[Any], Any] = _zero_gradient_method("trunc", fnp.trunc, """\
    Each element rounded toward zero; a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([-1.5, 1.5]).trunc()
    tensor([-1.,  1.])
    """)
_sign = _zero_gradient_method("sign", fnp.sign, "")


def sign(self: Any) -> Any:
    """-1, 0 or 1 by the sign of each element; a zero gradient, as in PyTorch (which
    refuses complex Tensors here: their sign is :meth:`sgn`, ``z / |z|``).

    >>> import funcgrad as fg
    >>> fg.tensor([-2.0, 0.0, 3.0]).sign()
    tensor([-1.,  0.,  1.])
    """
    if self.dtype.kind == "c":
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support "
                                  "complex numbers. Please use .sgn() instead.")
    return _sign(self)


def angle(self: Any) -> Any:
    """The argument of each element, ``atan2(imag, real)``, in radians.  A real Tensor's
    is 0 or pi (0 at -0.0, as in PyTorch) with a zero gradient; a complex Tensor's
    gradient is 0 at 0, as PyTorch's (``AngleBackward0``).

    >>> import funcgrad as fg
    >>> x = fg.tensor([-2.0, -0.0, 3.0], requires_grad=True)
    >>> y = x.angle()
    >>> y
    tensor([3.1415927, 0.       , 0.       ], grad_fn=<AngleBackward0>)
    >>> y.sum().backward(); x.grad
    tensor([0., 0., 0.])
    """
    if self.dtype.kind not in "fc":  # an integer Tensor's angle has the default float dtype
        self = self.to(default_float())
    if self.dtype.kind == "c":
        return record_as(_ANGLE, fnp.angle, self)
    return _recorded(_ANGLE, _real_angle, self)


def _real_angle(t):
    return fnp.angle(t + np.zeros((), t.dtype))  # -0.0 + 0.0 is +0.0, whose angle is 0


@scalar_dims
def sort(self: Any, dim: int = -1, descending: bool = False, stable: bool = False) -> Any:
    """``(values, indices)`` sorted along ``dim``, ascending unless ``descending`` (NaN
    last, first when descending; equal elements keep their order, whatever ``stable``);
    the gradient of each value goes back to the element it came from.

    >>> import funcgrad as fg
    >>> fg.tensor([3.0, 1.0, 2.0], requires_grad=True).sort(descending=True)
    sort(values=tensor([3., 2., 1.], grad_fn=<SortBackward0>), indices=tensor([0, 2, 1]))
    """
    plain = self.detach()
    if descending:  # ascending on the reversed axis, reversed back: ties keep their order
        last = plain.shape[dim] - 1
        indices = fnp.flip(last - fnp.argsort(fnp.flip(plain, axis=dim), axis=dim,
                                              kind="stable"), axis=dim)
    else:
        indices = fnp.argsort(plain, axis=dim, kind="stable")
    values = record_as(_SORT, lambda t: fnp.take_along_axis(t, indices, axis=dim), self)
    return SortResult(values, indices)


@scalar_dims
def argsort(self: Any, dim: int = -1, descending: bool = False, stable: bool = False, *,
            axis: int | None = None, kind: str | None = None) -> Any:
    """The indices that sort along ``dim`` (NumPy's ``axis=`` too), as :meth:`sort`'s;
    ``x.argsort(1, True)`` sorts descending, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([3.0, 1.0, 2.0]).argsort(descending=True)
    tensor([0, 2, 1])
    """
    return sort(self.detach(), dim if axis is None else axis, descending).indices


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in (round, floor, ceil, trunc, sign, angle, sort, argsort):
        setattr(cls, fn.__name__, fn)
