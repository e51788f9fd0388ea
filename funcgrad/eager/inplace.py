"""In-place updates of a Tensor: ``t += 1``, ``t.add_(x)``, ``t[i] = v``, ``t.zero_()``.

Values are never written in place.  An update computes a new array, makes the
Tensor -- and every Tensor sharing its storage (``.data``, ``.detach()``) -- show
it, and bumps the storage's version counter, so a node that saved the old value
raises PyTorch's "modified by an inplace operation" error instead of computing
with it.  When gradients are on, the update is recorded like any operation and the
Tensor's ``grad_fn`` becomes the update's node (PyTorch's rules: a leaf that
requires grad cannot be updated in place).
"""
from typing import Any, TypeVar

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, _state
from ..numpy._convert import asarray
from ..primitives import elementwise as ew
from .graph import Storage
from . import views
from .interop import is_advanced_key, torch_index_steps, unwrap_index
from .values import TensorBase

__all__ = ["InPlaceUpdates", "add_into_grad"]

# each in-place method returns the Tensor it updated
_T = TypeVar("_T", bound="InPlaceUpdates")

LEAF_INPLACE_MESSAGE = ("a leaf Variable that requires grad is being used in an in-place "
                        "operation.")

_new = object.__new__
_FALSE = np.zeros((), bool)


class InPlaceUpdates(TensorBase):
    """The in-place methods of a Tensor (see the module docstring)."""

    __slots__ = ()

    def _inplace(self, compute):
        """Replace this Tensor's value by ``compute(self)``, recording the update when
        gradients are on (PyTorch's rules for leaves and version counters)."""
        if self._inference and not _state.inference:
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed. "
                "You can make a clone to get a normal tensor before doing inplace update.")
        grad_on = _state.grad_enabled
        if grad_on:
            views.check_leaf(self)  # (first: a view made under no_grad may look like a leaf)
            if self._requires_grad and self.grad_fn is None:
                raise RuntimeError(LEAF_INPLACE_MESSAGE)
        source = self
        if grad_on:
            # The update's own node must save the old value under a storage of its own,
            # so that the version bump below invalidates only earlier savers of self.
            source = _new(type(self))
            source._storage = Storage(self._storage.value)
            source._requires_grad = self._requires_grad
            source.grad_fn, source._output_nr = self.grad_fn, self._output_nr
            source._grad = source._accumulator = None
            source._inference = self._inference
        out = compute(source)
        if grad_on and self._storage.base is not None:
            views.check_leaf(self, out)
        _adopt(self, out)
        storage = self._storage
        if storage.base is not None:  # a view: the update reaches its root, and its views
            views.write_back(self, _adopt)
        elif storage.views:
            views.refresh(storage)
        return self

    def __iadd__(self, other):
        return self._inplace(lambda s: s + other)

    def __isub__(self, other):
        return self._inplace(lambda s: s - other)

    def __imul__(self, other):
        return self._inplace(lambda s: s * other)

    def __itruediv__(self, other):
        return self._inplace(lambda s: s / other)

    def __ipow__(self, other):
        return self._inplace(lambda s: s ** other)

    def add_(self: _T, other: Any, alpha: Any = 1) -> _T:
        """In place ``self += alpha * other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).add_(fg.Tensor([2.0]), alpha=3)
        tensor([7.])
        """
        return self._inplace(lambda s: s + (other if alpha == 1 else other * alpha))

    def sub_(self: _T, other: Any, alpha: Any = 1) -> _T:
        """In place ``self -= alpha * other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0]).sub_(2.0)
        tensor([-1.])
        """
        return self._inplace(lambda s: s - (other if alpha == 1 else other * alpha))

    def mul_(self: _T, other: Any) -> _T:
        """In place ``self *= other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([2.0]).mul_(3.0)
        tensor([6.])
        """
        return self._inplace(lambda s: s * other)

    def div_(self: _T, other: Any) -> _T:
        """In place ``self /= other``.

        >>> import funcgrad as fg
        >>> fg.Tensor([3.0]).div_(2.0)
        tensor([1.5])
        """
        return self._inplace(lambda s: s / other)

    def fill_(self: _T, value: Any) -> _T:
        """Set every element to ``value``, in place.

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0, 2.0]).fill_(5.0)
        tensor([5., 5.])
        """
        return self._inplace(lambda s: ew.where(_FALSE, s, _as_dtype(value, s.dtype)))

    def zero_(self: _T) -> _T:
        """Set every element to zero, in place (``w.grad.zero_()``).

        >>> import funcgrad as fg
        >>> fg.Tensor([1.0, 2.0]).zero_()
        tensor([0., 0.])
        """
        return self.fill_(0)

    def copy_(self: _T, src: Any) -> _T:
        """Copy ``src`` (broadcast to this shape) into this Tensor, in place; the
        gradient flows to ``src``.

        >>> import funcgrad as fg
        >>> fg.zeros(2).copy_(fg.Tensor([1.0, 2.0]))
        tensor([1., 2.])
        """
        src = src if isinstance(src, (TensorBase, Tracer)) else asarray(src)
        return self._inplace(lambda s: ew.where(_FALSE, s, fnp.broadcast_to(src, s.shape)))

    def __setitem__(self, key, value):
        key = unwrap_index(key)
        steps = torch_index_steps(key)

        def compute(s):
            if steps is not None:  # integers before advanced indices, as in __getitem__
                first, second = steps
                return s.at[first].set(s[first].at[second].set(value))
            return s.at[key].set(value)
        self._inplace(compute)
        if self._storage.base is None and not is_advanced_key(key):
            views.name_copy_slices(self)


def _adopt(self, out):
    """Make the Tensor ``self`` show ``out`` (its shape; cast to its dtype), bump its
    version counter, and give it ``out``'s place in the graph when ``out`` requires grad."""
    if isinstance(out, TensorBase):
        value, tracked = out._storage.value, out._requires_grad
    else:
        value, tracked = out, False
    shape = tuple(value.shape)
    if shape != self.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the "
                           f"broadcast shape {list(shape)}")
    if value.dtype != self.dtype:
        if not np.can_cast(value.dtype, self.dtype, "same_kind"):
            raise RuntimeError(f"result type {np.dtype(value.dtype).name} can't be cast "
                               f"to the desired output type {self.dtype.name}")
        out = out.astype(self.dtype)
        value = out._storage.value if isinstance(out, TensorBase) else out
    storage = self._storage
    storage.value = value
    storage.version += 1
    if tracked:
        node, nr = out.grad_fn, out._output_nr
        self.grad_fn, self._output_nr, self._requires_grad = node, nr, True
        versions = node._versions
        if versions is not None:  # the node's output is now this Tensor's storage
            for i, entry in enumerate(versions):
                if entry[0] is out._storage:
                    versions[i] = (storage, storage.version, node, nr)


def _as_dtype(value, dtype):
    if isinstance(value, (TensorBase, Tracer)):
        return value
    return np.asarray(value, dtype)


def add_into_grad(leaf, g):
    """``leaf.grad += g`` in place, as PyTorch's AccumulateGrad does outside
    ``create_graph`` (a Tensor the user holds as ``.grad``, or set as ``.grad``, shows the
    sum); returns False where it does not apply and ``.grad`` gets a new Tensor instead:
    a non-leaf's retained grad (PyTorch replaces it too), a ``.grad`` that requires grad.

    >>> import funcgrad as fg
    >>> x = fg.tensor([1.0, 2.0], requires_grad=True)
    >>> (x * 2).sum().backward(); g = x.grad
    >>> (x * 3).sum().backward(); g
    tensor([5., 5.])
    """
    old = leaf._grad
    if old is None or leaf.grad_fn is not None or old._requires_grad:
        return False
    value = ew.add(old._storage.value, g)
    if value.dtype != old.dtype or tuple(value.shape) != tuple(old.shape):
        return False
    storage = old._storage
    storage.value = value
    storage.version += 1
    return True
