"""PyTorch's Tensor methods that round or sort: ``round``, ``floor``, ``ceil``, ``trunc``,
``sign`` and ``sort``.

PyTorch records the rounding functions (and ``sign``) in the graph with a zero gradient:
``x.round()`` of a Tensor that requires grad requires grad too (``RoundBackward0``), and
a backward through it gives zeros, where funcgrad's NumPy functions treat the result as a
constant.  Each is recorded here as ``where(False, x, step(x))``: the value is exactly
``step(x)`` (inf and NaN included) and the gradient exactly zero.  ``sort`` returns
PyTorch's ``(values, indices)``; the values are gathered at the indices, so the gradient
follows each element to its place.
"""
from collections import namedtuple
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..primitives import elementwise as ew
from .named import Named, record_as

__all__ = ["round", "floor", "ceil", "trunc", "sign", "sort", "attach"]

_FALSE = np.zeros((), bool)
SortResult = namedtuple("sort", ["values", "indices"])  # type: ignore[name-match]


def _zero_gradient(name, step):
    named = Named(name, f"{name.capitalize()}Backward0")

    def record(t):
        return ew.where(_FALSE, t, step(t))
    return named, record


_ROUND, _round = _zero_gradient("round", fnp.round)
_FLOOR, _floor = _zero_gradient("floor", fnp.floor)
_CEIL, _ceil = _zero_gradient("ceil", fnp.ceil)
_TRUNC, _trunc = _zero_gradient("trunc", fnp.trunc)
_SIGN, _sign = _zero_gradient("sign", fnp.sign)
_SORT = Named("sort", "SortBackward0")


def round(self: Any, decimals: int = 0) -> Any:  # noqa: A001 - PyTorch's name
    """Round half to even (``decimals`` places); a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([0.5, 1.5, 2.7], requires_grad=True).round()
    tensor([0., 2., 3.], grad_fn=<RoundBackward0>)
    """
    if decimals:
        return record_as(_ROUND, lambda t: ew.where(_FALSE, t, fnp.round(t, decimals)), self)
    return record_as(_ROUND, _round, self)


def floor(self: Any) -> Any:
    """The largest integer not above each element; a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([-0.5, 1.5]).floor()
    tensor([-1.,  1.])
    """
    return record_as(_FLOOR, _floor, self)


def ceil(self: Any) -> Any:
    """The smallest integer not below each element; a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([-0.5, 1.5]).ceil()
    tensor([-0.,  2.])
    """
    return record_as(_CEIL, _ceil, self)


def trunc(self: Any) -> Any:
    """Each element rounded toward zero; a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([-1.5, 1.5]).trunc()
    tensor([-1.,  1.])
    """
    return record_as(_TRUNC, _trunc, self)


def sign(self: Any) -> Any:
    """-1, 0 or 1 by the sign of each element; a zero gradient, as in PyTorch.

    >>> import funcgrad as fg
    >>> fg.tensor([-2.0, 0.0, 3.0]).sign()
    tensor([-1.,  0.,  1.])
    """
    return record_as(_SIGN, _sign, self)


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


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in (round, floor, ceil, trunc, sign, sort):
        setattr(cls, fn.__name__, fn)
