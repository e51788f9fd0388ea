"""The Tensor's methods on traced values that stand for Tensors.

A Tensor passed to a transform (``fg.grad``, ``vjp``, ``jvp``, ``vmap``, the Jacobians,
``jit``) is carried by the transform's tracer, and so is every value computed from it.
Tracers have NumPy's methods, and where PyTorch and NumPy disagree the same code would
mean something else under the transform than eagerly, without an error: ``t.max(0)[0]``
is the maxima along dim 0 for a Tensor and the first row's maximum for NumPy;
``t.std()`` divides by ``n - 1`` for a Tensor and by ``n`` for NumPy; ``t.transpose(0,
1)`` swaps two dims for a Tensor and is the identity permutation for NumPy.  So a
traced value that stands for a Tensor (:func:`funcgrad.core.stands_for_tensor`: its
transform's value is a Tensor, or, under ``jit``, it was traced for one) uses the
Tensor's methods, as PyTorch's ``torch.func`` transforms do:

* each method name tracers and Tensors share (``sum``, ``max``, ``std``,
  ``transpose``, ``reshape``, ``sort``...) dispatches on the value: the Tensor's
  method for a Tensor's tracer, NumPy's for an array's;
* the names only Tensors have (``view``, ``unsqueeze``, ``permute``, ``softmax``,
  ``dim()``...) are the tracers' too: on every traced value where
  NumPy's arrays have no attribute of that name (``x.relu()``, ``x.unsqueeze(0)``), only
  on a Tensor's where they have one of another meaning (``x.view(-1)``);
* ``detach()`` (and ``.data``) is ``stop_gradient``: a constant for every derivative,
  still batched under ``vmap``;
* in-place methods (``add_``, ``zero_``...) raise, naming the out-of-place form (traced
  values are immutable), and the eager tape's own (``backward()``, ``register_hook``,
  ``.grad``) raise, saying why.

The methods are the Tensor's own functions (they compute with funcgrad's primitives, so
on a tracer they are traced like any other code): one definition for both.

>>> import numpy as np, funcgrad as fg
>>> x = fg.tensor([[1.0, 5.0, 2.0], [4.0, 0.0, 3.0]])
>>> fg.grad(lambda t: t.max(0)[0].sum())(x)
tensor([[0., 1., 0.],
        [1., 0., 1.]])
>>> fg.jit(lambda t: t.transpose(0, 1).std(0))(x).shape
fg.Size([2])
"""
from typing import Any

import numpy as np

from .. import core
from ..forward_ad import DualTensor
from ..interpreters.batching import BatchTracer
from ..interpreters.forward import JVPTracer
from ..interpreters.graph import GraphTracer
from ..interpreters.reverse import ReverseTracer
from ..numpy.constructors import stop_gradient
from . import (extras, interop, linear, methods, pieces, pointwise, reducing, selecting, shapes,
               steps)
from .dual import dim, numel, size
from .tensor import Tensor

__all__ = ["attach", "TRACED_METHODS"]

TRACER_CLASSES = (ReverseTracer, JVPTracer, BatchTracer, GraphTracer)


def detach(self: Any) -> Any:
    """The value as a constant for every derivative (``stop_gradient``); still batched
    under ``vmap``.

    >>> import funcgrad as fg
    >>> fg.grad(lambda t: (t * t.detach()).sum())(fg.tensor([3.0]))
    tensor([3.])
    """
    return stop_gradient(self)


def numpy(self: Any) -> Any:
    """The value as a NumPy array, where one exists and no derivative would be lost
    (else the transform's error, saying why)."""
    return np.asarray(self)


def _requires_grad(self: Any) -> bool:
    inner = core.innermost_value(self)
    return bool(getattr(inner, "requires_grad", False))


def _device(self: Any) -> Any:
    inner = core.innermost_value(self)
    return inner.device if isinstance(inner, Tensor) else Tensor(np.zeros(0)).device


def contiguous(self: Any, memory_format: Any = None) -> Any:
    """The value itself: a traced value has no memory layout to copy (the transform
    computes on values laid out as its kernels need).

    >>> import funcgrad as fg
    >>> fg.grad(lambda t: t.t().contiguous().sum())(fg.ones(2, 2))
    tensor([[1., 1.],
            [1., 1.]])
    """
    return self


def is_contiguous(self: Any, memory_format: Any = None) -> bool:
    """True: a traced value's elements are as :meth:`contiguous` leaves them."""
    return True


def _is_inference(self: Any) -> bool:
    """False: a traced value is no inference-mode Tensor (it carries derivatives)."""
    return False


def _in_place(name: str) -> Any:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"{name}() on a value traced by {self._trace.transform}: traced values cannot be "
            f"updated in place. Compute a new value and rebind the name (x = x + y rather "
            f"than x.add_(y), x = x.clamp(0) rather than x.clamp_(0)).")
    refuse.__name__ = name
    return refuse


_TAPE_ONLY = ("backward", "register_hook", "retain_grad", "grad", "grad_fn", "is_leaf",
              "register_post_accumulate_grad_hook", "requires_grad_", "retains_grad",
              "output_nr")


def _namespace() -> dict[str, Any]:
    """The Tensor's methods that compute with primitives (and so trace), by name."""
    class Methods:
        pass
    for module in (methods, shapes, steps, pointwise, reducing, selecting, pieces, linear,
                   extras):
        module.attach(Methods)
    for alias, name in pointwise.ALIASES.items():
        setattr(Methods, alias, getattr(Methods, name))
    found = {name: value for name, value in vars(Methods).items() if not name.startswith("__")}
    found.update(detach=detach, numel=numel, dim=dim, ndimension=dim, numpy=numpy,
                 size=property(size, doc=size.__doc__), data=property(detach),
                 requires_grad=property(_requires_grad), device=property(_device),
                 is_inference=_is_inference, contiguous=contiguous,
                 is_contiguous=is_contiguous)
    for name in dir(Tensor):
        if name.endswith("_") and not name.startswith("_"):
            found[name] = _in_place(name)
    found["clamp_"] = found["clip_"] = _in_place("clamp_")
    for name in _TAPE_ONLY:
        found.pop(name, None)
    return found


TRACED_METHODS = _namespace()


def _dispatching(numpy_impl: Any, tensor_impl: Any) -> Any:
    """One attribute of a tracer class: the Tensor's for a tracer of a Tensor, else
    NumPy's."""
    if isinstance(numpy_impl, property) or isinstance(tensor_impl, property):
        def get(self: Any) -> Any:
            return (tensor_impl if self._tensor else numpy_impl).__get__(self, type(self))
        return property(get, doc=getattr(tensor_impl, "__doc__", None))

    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self._tensor:
            return tensor_impl(self, *args, **kwargs)
        return numpy_impl(self, *args, **kwargs)
    method.__name__ = getattr(tensor_impl, "__name__", "method")
    method.__doc__ = getattr(tensor_impl, "__doc__", None)
    return method


def _tensor_only(name: str, impl: Any) -> property:
    """A name only Tensors have (``view``, ``unsqueeze``, ``relu``...), on every tracer: the
    Tensor's for a tracer of a Tensor, and on any tracer where NumPy's arrays have no
    attribute of that name (``x.relu()`` means the same on every traced value); else
    absent (``hasattr`` is False).  A property, not ``__getattr__``: a class with one loses
    CPython's fast attribute loads on every tracer."""
    numpy_has = hasattr(np.ndarray, name)

    def get(self: Any) -> Any:
        if self._tensor or not numpy_has:
            return impl.__get__(self, type(self))
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
    return property(get, doc=getattr(impl, "__doc__", None))


def _tape_only(name: str) -> property:
    """The eager tape's own attributes (``backward``, ``grad``...): absent on a tracer,
    saying why on a Tensor's."""
    def get(self: Any) -> Any:
        if self._tensor:
            raise AttributeError(
                f"{name} belongs to the eager Tensor's tape, which a value traced by "
                f"{self._trace.transform} is not on: the transform computes the derivatives. "
                f"Return the value and let the transform differentiate it, or call {name} "
                f"on the Tensors outside the transform.")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
    return property(get)


def attach() -> None:
    """Give the transforms' tracers the Tensor's methods for the values that stand for
    Tensors (forward_ad's DualTensor keeps its own: :mod:`funcgrad.eager.dual`)."""
    missing = [name for name in TRACED_METHODS if not hasattr(ReverseTracer, name)]
    for cls in TRACER_CLASSES:
        for name, tensor_impl in TRACED_METHODS.items():
            numpy_impl = cls.__dict__.get(name)
            if numpy_impl is None:
                numpy_impl = next((c.__dict__[name] for c in cls.__mro__[1:]
                                   if name in c.__dict__), None)
            if numpy_impl is not None:
                setattr(cls, name, _dispatching(numpy_impl, tensor_impl))
        # PyTorch's indexing: integers select before the advanced indices (t[1, :, [0, 2]]
        # of shape (2, 3, 4) is (3, 2), NumPy's (2, 3)), Tensors in the index are values
        setattr(cls, "__getitem__", _dispatching(getattr(cls, "__getitem__"), interop.getitem))
    for name in missing:
        setattr(core.Tracer, name, _tensor_only(name, TRACED_METHODS[name]))
    for name in _TAPE_ONLY:
        if not hasattr(core.Tracer, name):
            setattr(core.Tracer, name, _tape_only(name))
    assert DualTensor.__mro__[1] is JVPTracer  # (its own methods come first)
