"""``fg.autograd.grad``: :func:`funcgrad.eager.tensor.grad` with PyTorch's
``is_grads_batched``.

With ``is_grads_batched=True`` the first dimension of every ``grad_outputs`` entry is a
batch of cotangents: the result for each input is the stack of the gradients for each
batch element, ``(B, *input.shape)``.  PyTorch computes them with ``vmap``; here each
batch element is one backward pass over the same graph (kept until the last), which
gives the same values and, with ``create_graph=True``, the same differentiable stack.
"""
from typing import Any, Sequence

import numpy as np

from .. import numpy as fnp
from .tensor import Tensor, grad as _grad
from . import walk

__all__ = ["grad"]

_BATCHED_SHAPE = (
    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as "
    "the batch dimension. The sizes of the remaining dimensions are expected to match the "
    "shape of corresponding output, but a mismatch was detected: grad_output[{k}] has a "
    "shape of {got} and output[{k}] has a shape of {want}. If you only want some tensors "
    "in `grad_output` to be considered batched, consider using vmap.")


def grad(outputs: "Tensor | Sequence[Tensor]", inputs: "Tensor | Sequence[Tensor]",
         grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, allow_unused: bool | None = None,
         is_grads_batched: bool = False,
         materialize_grads: bool = False) -> "tuple[Tensor | None, ...]":
    """Gradients of ``outputs`` with respect to ``inputs``, returned as a tuple; no
    ``.grad`` is touched (``torch.autograd.grad``).  ``grad_outputs``: the cotangents
    (default: 1 for a single-element output); ``allow_unused``: None for an input the
    outputs do not depend on (zeros with ``materialize_grads``); ``is_grads_batched``:
    the first dimension of each ``grad_outputs`` entry is a batch of cotangents, and
    each gradient gets that dimension in front.

    >>> import funcgrad as fg
    >>> x = fg.tensor([1.0, 2.0, 3.0], requires_grad=True)
    >>> grad(x ** 2, x, fg.ones(3))
    (tensor([2., 4., 6.]),)
    >>> grad(x ** 2, x, fg.eye(3), is_grads_batched=True)   # the Jacobian's rows
    (tensor([[2., 0., 0.],
            [0., 4., 0.],
            [0., 0., 6.]]),)
    """
    if isinstance(inputs, (tuple, list)) and not inputs:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty: name the Tensors "
                           "to differentiate with respect to")
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when "
                         "materialize_grads=True, but got: allow_unused=False. Leave "
                         "allow_unused out (it follows materialize_grads)")
    if not is_grads_batched:
        if not materialize_grads:
            return _grad(outputs, inputs, grad_outputs, retain_graph, create_graph,
                         allow_unused, False)
        found = _grad(outputs, inputs, grad_outputs, retain_graph, create_graph, True, False)
        return tuple(_zeros(t, create_graph) if g is None else g
                     for g, t in zip(found, walk.tensor_list(inputs, "inputs")))
    outs = walk.tensor_list(outputs, "outputs")
    if grad_outputs is None:
        raise RuntimeError("grad can be implicitly created only for scalar outputs; with "
                           "is_grads_batched=True pass grad_outputs with a leading batch "
                           "dimension (e.g. fg.eye(n) for the rows of a Jacobian)")
    gos = list(grad_outputs) if isinstance(grad_outputs, (tuple, list)) else [grad_outputs]
    if len(gos) != len(outs):
        raise RuntimeError(f"grad_outputs has {len(gos)} entries but outputs has "
                           f"{len(outs)}; give one batch of cotangents per output")
    gos = [g if isinstance(g, Tensor) else Tensor(np.asarray(g)) for g in gos]
    for k, (o, g) in enumerate(zip(outs, gos)):
        if g.ndim == 0 or tuple(g.shape[1:]) != tuple(o.shape):
            raise RuntimeError(_BATCHED_SHAPE.format(k=k, got=tuple(g.shape[1:]),
                                                     want=tuple(o.shape)))
    sizes = {int(g.shape[0]) for g in gos}
    if len(sizes) != 1:
        raise RuntimeError(f"is_grads_batched=True: the grad_outputs have different batch "
                           f"sizes {sorted(sizes)}; give every entry the same first "
                           f"dimension")
    (size,) = sizes
    if retain_graph is None:
        retain_graph = create_graph
    if allow_unused is None:
        allow_unused = materialize_grads
    rows = []
    for b in range(size):
        rows.append(_grad(outs, inputs, [g[b] for g in gos],
                          retain_graph if b == size - 1 else True, create_graph,
                          allow_unused, False))
    ins = walk.tensor_list(inputs, "inputs")
    results = []
    for i, t in enumerate(ins):
        column: list[Any] = [row[i] for row in rows]
        if all(c is None for c in column):  # unused: PyTorch's None, or zeros like t
            results.append(_zeros(t, create_graph) if materialize_grads else None)
            continue
        if size == 0:
            results.append(Tensor(np.zeros((0,) + tuple(t.shape), t.dtype)))
            continue
        results.append(fnp.stack(column) if create_graph else
                       Tensor(np.stack([c.numpy() for c in column])))
    return tuple(results)


def _zeros(t, create_graph):
    """The gradient ``materialize_grads`` gives an unused input: zeros of its shape and
    dtype, a leaf that requires grad under ``create_graph`` (as PyTorch's)."""
    return Tensor(np.zeros(t.shape, t.dtype), requires_grad=create_graph)
