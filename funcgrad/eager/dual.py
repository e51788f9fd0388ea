"""The Tensor's methods on forward-AD dual values made from Tensors
(:class:`funcgrad.forward_ad.DualTensor`).

In PyTorch ``make_dual(x, v)`` is a Tensor: code written for Tensors (``y = x.sin().sum(0)``)
runs on it unchanged.  funcgrad's dual value is a traced value of the dual level; when
its primal is a Tensor it gets, here, the Tensor's PyTorch methods (:mod:`.methods`,
:mod:`.shapes`, :mod:`.steps`, which compute with funcgrad's primitives and so carry
the tangent) and the Tensor's attributes that read the primal (``size()``, ``dim()``,
``requires_grad``, ``grad_fn``, ``is_leaf``).  ``detach()`` returns the primal cut
from both graphs, as in PyTorch.  Traced values are immutable: in-place methods
(``add_``, ``clamp_``...) raise, naming the out-of-place form.

>>> import funcgrad as fg, funcgrad.forward_ad as fwAD
>>> with fwAD.dual_level():
...     x = fwAD.make_dual(fg.tensor([[1.0, 2.0]]), fg.tensor([[1.0, 0.0]]))
...     y = x.softmax(dim=1).view(-1)
...     print(x.size(), x.dim(), fwAD.unpack_dual(y).tangent)
(1, 2) 2 tensor([ 0.19661193, -0.1966119 ])
"""
from typing import Any, Callable

import numpy as np

from ..forward_ad import DualTensor, DualLevel
from ..interpreters.forward import JVPTracer
from . import linear, methods, pieces, pointwise, reducing, selecting, shapes, steps
from .tensor import Tensor
from .values import SizeOf

__all__ = ["attach"]


def _primal_tensor(x: Any) -> Any:
    """The Tensor under every level's dual value ``x``."""
    while isinstance(x, JVPTracer):
        x = x.primal
    return x


def detach(self: Any) -> Tensor:
    """The primal as a Tensor cut from the graph, without any tangent (PyTorch's
    ``detach()`` drops forward-mode tangents too)."""
    return _primal_tensor(self).detach()


def size(self: Any) -> SizeOf:
    """The shape, callable as PyTorch's ``size()`` / ``size(dim)`` (see the Tensor's)."""
    return SizeOf(tuple(self.shape))


def numel(self: Any) -> int:
    """The number of elements."""
    return int(size(self))


def dim(self: Any) -> int:
    """The number of axes."""
    return len(self.shape)


def _from_primal(name: str) -> property:
    def get(self: Any) -> Any:
        return getattr(_primal_tensor(self), name)
    return property(get, doc=f"The primal Tensor's ``{name}`` (the eager tape's).")


def _in_place(name: str) -> Callable[..., Any]:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"{name}() on a forward-AD dual value: dual values are traced, and traced values "
            f"cannot be updated in place. Compute a new value and rebind the name "
            f"(x = x + y rather than x.add_(y), x = x.clamp(0) rather than x.clamp_(0)), "
            f"or update the Tensor before make_dual.")
    refuse.__name__ = name
    return refuse


def numpy(self: Any) -> Any:
    """The value as a NumPy array once the level has exited; while the tangent is live
    this raises (it would be dropped silently): use ``x.detach().numpy()``."""
    return np.asarray(self)


def __repr__(self: Any) -> str:
    level = self._trace
    what = "" if isinstance(level, DualLevel) and level.active else " (level exited)"
    return f"dual(primal={self.primal!r}, tangent={self.tangent!r}){what}"


def attach(cls: Any = DualTensor) -> None:
    """Give ``cls`` (forward_ad's DualTensor) the Tensor's methods."""
    for module in (methods, shapes, steps, pointwise, reducing, selecting, pieces, linear):
        module.attach(cls)
    for alias, name in pointwise.ALIASES.items():
        setattr(cls, alias, getattr(cls, name))
    cls.size = property(size, doc=size.__doc__)
    for fn in (detach, numel, dim, numpy, __repr__):
        setattr(cls, fn.__name__, fn)
    cls.data = property(detach, doc="The primal, cut from the graph (as ``detach()``).")
    for name in ("requires_grad", "grad_fn", "is_leaf", "device"):
        setattr(cls, name, _from_primal(name))
    for name in dir(Tensor):
        if name.endswith("_") and not name.startswith("_") and not hasattr(cls, name):
            setattr(cls, name, _in_place(name))
    cls.clamp_ = cls.clip_ = _in_place("clamp_")
