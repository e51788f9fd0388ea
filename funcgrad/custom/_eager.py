"""What a :class:`~funcgrad.Function` needs from the eager Tensor, found without
importing it (the Tensor sits above this layer): the class, and values shown as
Tensors to PyTorch-style rules.  With no Tensor module loaded no Tensor exists, and
these do nothing.
"""
import sys

import numpy as np

from ..modes import no_grad

__all__ = ["eager_tensor_type", "present", "unwrap_output", "rebase_dirty", "no_grad",
           "ONCE_MESSAGE"]

ONCE_MESSAGE = ("trying to differentiate twice a function that was marked with "
                "@once_differentiable")


def eager_tensor_type():
    """The eager ``Tensor`` class, or None while :mod:`funcgrad.eager` is not loaded.

    >>> import funcgrad as fg
    >>> eager_tensor_type() is fg.Tensor
    True
    """
    module = sys.modules.get("funcgrad.eager.tensor")
    return None if module is None else module.Tensor


def present(value, originals=()):
    """``value`` as a PyTorch-style rule sees it: the Tensor among ``originals`` whose
    value it is, else a new Tensor showing it (arrays only; anything else unchanged).

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.tensor([1.0]); v = t.detach().numpy()
    >>> present(t._storage.value, [t]) is t, present(np.ones(1))
    (True, tensor([1.], dtype=float64))
    """
    if not isinstance(value, (np.ndarray, np.generic)):
        return value
    for t in originals:
        if getattr(t, "_storage", None) is not None and t._storage.value is value:
            return t
    return sys.modules["funcgrad.eager.tensor"].make(value, False)


def unwrap_output(value, keep_tracked=False):
    """A rule's result as an operand: a Tensor's value (a Tensor that requires grad is
    kept with ``keep_tracked``, so a create_graph pass records through it).

    >>> import funcgrad as fg
    >>> unwrap_output(fg.tensor([2.0]))
    array([2.], dtype=float32)
    """
    Tensor = eager_tensor_type()
    if Tensor is None or not isinstance(value, Tensor):
        return value
    if keep_tracked and value.requires_grad:
        return value
    return value._storage.value


def rebase_dirty(original, output):
    """Make the input Tensor ``original`` (modified in place by a Function's forward,
    ``ctx.mark_dirty``) show ``output`` and take its history; returns ``original``.

    >>> import funcgrad as fg
    >>> x = fg.tensor([1.0]); y = fg.tensor([3.0], requires_grad=True) * 2
    >>> rebase_dirty(x, y) is x, x, x.grad_fn is y.grad_fn
    (True, tensor([6.], grad_fn=<MulBackward0>), True)
    """
    original._inplace(lambda source: output)
    node, storage = original.grad_fn, original._storage
    versions = getattr(node, "_versions", None)
    if versions is not None:  # the node read this input before the change it declared
        for i, entry in enumerate(versions):
            if entry[0] is storage:
                versions[i] = (storage, storage.version) + tuple(entry[2:])
    return original
