"""``fg.autograd``: PyTorch's ``torch.autograd`` functions for the eager :class:`~funcgrad.Tensor`.

* :func:`grad` ``(outputs, inputs, grad_outputs=None, retain_graph=None,
  create_graph=False, allow_unused=None, materialize_grads=False)`` returns the
  gradients of ``outputs`` with respect to ``inputs`` as a tuple, without touching
  any ``.grad``;
* :func:`backward` ``(tensors, grad_tensors=None, retain_graph=None,
  create_graph=False, inputs=None)`` accumulates into the leaves' ``.grad``, like
  ``t.backward()``.

Both run the primitives' own VJP rules over the graph the Tensors recorded; see
:mod:`funcgrad.eager` for the design.

>>> import funcgrad as fg
>>> x = fg.Tensor(2.0, requires_grad=True)
>>> y = x ** 3
>>> (dy_dx,) = fg.autograd.grad(y, x, create_graph=True)
>>> dy_dx
tensor(12., grad_fn=<MulBackward0>)
>>> fg.autograd.grad(dy_dx, x)
(tensor(12.),)
"""
from .eager import AccumulateGrad, Node, backward, grad

__all__ = ["grad", "backward", "Node", "AccumulateGrad"]
