"""``fg.autograd``: PyTorch's ``torch.autograd`` for the eager :class:`~funcgrad.Tensor`.

* :func:`grad` ``(outputs, inputs, grad_outputs=None, retain_graph=None,
  create_graph=False, allow_unused=None, is_grads_batched=False,
  materialize_grads=False)`` returns the
  gradients of ``outputs`` with respect to ``inputs`` as a tuple, without touching
  any ``.grad``;
* :func:`backward` ``(tensors, grad_tensors=None, retain_graph=None,
  create_graph=False, inputs=None)`` accumulates into the leaves' ``.grad``, like
  ``t.backward()``;
* ``Function`` / ``FunctionCtx`` (``fg.autograd.function.once_differentiable``),
  ``gradcheck`` / ``gradgradcheck``, the grad modes, anomaly detection, and the
  submodules ``graph`` (saved-value hooks), ``forward_ad`` and ``functional``
  (``jacobian``, ``hessian``, ``vjp``, ``jvp``, ``hvp``, ``vhp`` with PyTorch's
  signatures, on Tensors) -- the same objects as ``fg.Function``, ``fg.graph``...

Where a name would clash with funcgrad's functional API (``fg.grad``, ``fg.jacobian``,
``fg.vjp``...), PyTorch's meaning lives here only.  Both run the primitives' own VJP
rules over the graph the Tensors recorded; see :mod:`funcgrad.eager` for the design.

>>> import funcgrad as fg
>>> x = fg.tensor(2.0, requires_grad=True)
>>> y = x ** 3
>>> (dy_dx,) = fg.autograd.grad(y, x, create_graph=True)
>>> dy_dx
tensor(12., grad_fn=<MulBackward0>)
>>> fg.autograd.grad(dy_dx, x)
(tensor(12.),)
"""
from .. import forward_ad
from ..anomaly import detect_anomaly, set_detect_anomaly
from ..custom import Function, FunctionCtx
from ..eager import AccumulateGrad, Node, backward, grad
from ..gradcheck import gradcheck, gradgradcheck
from ..modes import enable_grad, inference_mode, no_grad, set_grad_enabled
from . import function, functional, graph

__all__ = ["grad", "backward", "Node", "AccumulateGrad", "Function", "FunctionCtx",
           "gradcheck", "gradgradcheck", "no_grad", "enable_grad", "set_grad_enabled",
           "inference_mode", "detect_anomaly", "set_detect_anomaly", "forward_ad",
           "function", "functional", "graph"]
