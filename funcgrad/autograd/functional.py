"""``fg.autograd.functional``: PyTorch's ``torch.autograd.functional`` -- ``vjp``, ``jvp``,
``jacobian``, ``hessian``, ``vhp``, ``hvp`` with PyTorch's signatures, taking and returning
Tensors, computed on the eager tape (so ``func`` may use Tensor methods).

``inputs`` is a Tensor or a tuple of Tensors; results follow PyTorch's structure (a
tuple where ``inputs`` or the outputs are tuples).  As in PyTorch, ``jvp`` and ``hvp``
use the double-backward trick; ``jacobian`` builds its rows with one backward pass per
output element (``vectorize`` and ``strategy`` are accepted and give the same numbers).
For funcgrad's own transforms on plain arrays, use ``fg.jacobian``, ``fg.vjp``...

>>> import funcgrad as fg
>>> fg.autograd.functional.jacobian(lambda x: x ** 2, fg.tensor([1.0, 2.0]))
tensor([[2., 0.],
        [0., 4.]])
"""
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..eager import Tensor, grad
from ..modes import enable_grad

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]

# one Tensor, or a tuple of them (the results follow the inputs' and outputs' form)
TensorOrTensors = Union[Tensor, tuple[Tensor, ...]]


def _as_tuple(value, what, fn_name):
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for i, v in enumerate(values):
        if not isinstance(v, Tensor):
            raise TypeError(f"The {what} given to {fn_name} must be either a Tensor or a tuple "
                            f"of Tensors but the value at index {i} has type {type(v)}.")
    return is_tuple, values


def _prepare(inputs, create_graph, fn_name):
    is_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    prepared = []
    for x in inputs:
        if create_graph and x.requires_grad:
            prepared.append(x.view_as(x))  # keeps the graph to the caller's inputs
        else:
            prepared.append(x.detach().requires_grad_(x.dtype.kind == "f"))
    return is_tuple, tuple(prepared)


def _outputs(func, inputs, fn_name):
    with enable_grad():
        out = func(*inputs)
    is_tuple, outs = _as_tuple(out, "outputs of the user-provided function", fn_name)
    return is_tuple, outs


def _grads(outputs, inputs, grad_outputs, create_graph, strict, fn_name):
    """Gradients of ``outputs`` (cotangents ``grad_outputs``) for each input: zeros where
    an input is unused (PyTorch's non-strict mode), an error in strict mode."""
    pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
    found = (None,) * len(inputs)
    if pairs:
        found = grad([o for o, _ in pairs], list(inputs), [g for _, g in pairs],
                     retain_graph=True, create_graph=create_graph, allow_unused=True)
    result = []
    for i, (g, x) in enumerate(zip(found, inputs)):
        if g is None:
            if strict:
                raise RuntimeError(f"The output of the user-provided function is independent "
                                   f"of input {i}. This is not allowed in strict mode.")
            g = Tensor(x.detach().numpy() * 0)
        result.append(g if create_graph else g.detach())
    return tuple(result)


def _fill(v, like, fn_name, what):
    if v is None:
        if all(t.numel() == 1 for t in like):
            return tuple(Tensor(t.detach().numpy() * 0 + 1) for t in like)
        raise RuntimeError(f"The vector v can only be None if the {what} of the user-provided "
                           f"function is a single Tensor with a single element.")
    _, v = _as_tuple(v, "v", fn_name)
    if len(v) != len(like) or any(a.shape != b.shape for a, b in zip(v, like)):
        raise RuntimeError(f"{fn_name}: v has shapes {[tuple(a.shape) for a in v]}, expected "
                           f"{[tuple(b.shape) for b in like]} (the shapes of the {what})")
    return v


def _result(values, is_tuple, create_graph):
    values = tuple(v if create_graph else v.detach() for v in values)
    return values if is_tuple else values[0]


def vjp(func: Callable[..., TensorOrTensors], inputs: TensorOrTensors,
        v: Optional[TensorOrTensors] = None, create_graph: bool = False, strict: bool = False
        ) -> tuple[TensorOrTensors, TensorOrTensors]:
    """``(func(*inputs), v^T J)``, PyTorch's ``torch.autograd.functional.vjp``.

    >>> import funcgrad as fg
    >>> out, g = fg.autograd.functional.vjp(lambda x: (x ** 2).sum(), fg.tensor([1.0, 3.0]))
    >>> out, g
    (tensor(10.), tensor([2., 6.]))
    """
    in_tuple, inputs = _prepare(inputs, create_graph, "vjp")
    out_tuple, outs = _outputs(func, inputs, "vjp")
    v = _fill(v, outs, "vjp", "output")
    grads = _grads(outs, inputs, v, create_graph, strict, "vjp")
    return _result(outs, out_tuple, create_graph), _result(grads, in_tuple, create_graph)


def jvp(func: Callable[..., TensorOrTensors], inputs: TensorOrTensors,
        v: Optional[TensorOrTensors] = None, create_graph: bool = False, strict: bool = False
        ) -> tuple[TensorOrTensors, TensorOrTensors]:
    """``(func(*inputs), J v)``, PyTorch's ``torch.autograd.functional.jvp`` (the
    double-backward trick: the VJP is linear in its cotangent ``u``, and ``J v`` is its
    gradient with respect to ``u`` along ``v``).

    >>> import funcgrad as fg
    >>> fg.autograd.functional.jvp(lambda x: x ** 3, fg.tensor([1.0, 2.0]),
    ...                            fg.tensor([1.0, 1.0]))
    (tensor([1., 8.]), tensor([ 3., 12.]))
    """
    in_tuple, inputs = _prepare(inputs, create_graph, "jvp")
    v = _fill(v, inputs, "jvp", "input")
    out_tuple, outs = _outputs(func, inputs, "jvp")
    us = tuple(Tensor(o.detach().numpy() * 0, requires_grad=True) for o in outs)
    g_u = _grads(outs, inputs, us, True, strict, "jvp")
    tracked = [(g, w) for g, w in zip(g_u, v) if g.requires_grad]
    if tracked:
        found = grad([g for g, _ in tracked], list(us), [w for _, w in tracked],
                     create_graph=create_graph, allow_unused=True)
    else:
        found = (None,) * len(us)
    result = tuple(Tensor(u.detach().numpy() * 0) if f is None else f
                   for f, u in zip(found, us))
    return _result(outs, out_tuple, create_graph), _result(result, out_tuple, create_graph)


class StrategyError(ValueError, AssertionError):
    """An unknown ``strategy``: PyTorch asserts (``AssertionError``), funcgrad's own
    API says ``ValueError``; this is both."""


def jacobian(func: Callable[..., TensorOrTensors], inputs: TensorOrTensors,
             create_graph: bool = False, strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode") -> Union[Tensor, tuple[Any, ...]]:
    """The Jacobian of ``func`` at ``inputs``, PyTorch's
    ``torch.autograd.functional.jacobian``: shape ``out.shape + in.shape``; a tuple over
    inputs (and over outputs) where those are tuples.

    >>> import funcgrad as fg
    >>> jx, jy = fg.autograd.functional.jacobian(lambda x, y: x * y, (fg.tensor([1.0, 2.0]),
    ...                                          fg.tensor([3.0, 4.0])))
    >>> jx.tolist(), jy.tolist()
    ([[3.0, 0.0], [0.0, 4.0]], [[1.0, 0.0], [0.0, 2.0]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise StrategyError(f"Expected strategy to be either \"forward-mode\" or "
                            f"\"reverse-mode\", got {strategy!r}.")
    if strict and vectorize:
        raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and "
                           "`vectorized=True` are not supported together. Please either "
                           "set `strict=False` or `vectorize=False`.")
    if strategy == "forward-mode" and not vectorize:
        raise NotImplementedError("computing Jacobian in forward-mode AD requires "
                                  "vectorize=True, as in PyTorch")
    in_tuple, inputs = _prepare(inputs, create_graph, "jacobian")
    out_tuple, outs = _outputs(func, inputs, "jacobian")
    per_output = []
    for o in outs:
        rows: list[list[Tensor]] = [[] for _ in inputs]
        for k in range(o.numel()):
            seed: Any = np.zeros(o.numel(), o.dtype)
            seed[k] = 1
            seed = Tensor(seed.reshape(o.shape))
            for r, g in zip(rows, _grads([o], inputs, [seed], create_graph, strict,
                                         "jacobian")):
                r.append(g.reshape(-1))
        blocks = []
        for r, x in zip(rows, inputs):
            block = fnp.stack(r) if r else Tensor(np.zeros((0, x.numel()), x.dtype))
            blocks.append(block.reshape(tuple(o.shape) + tuple(x.shape)))
        per_output.append(_result(blocks, in_tuple, create_graph))
    return tuple(per_output) if out_tuple else per_output[0]


def hessian(func: Callable[..., Tensor], inputs: TensorOrTensors, create_graph: bool = False,
            strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode") -> Union[Tensor, tuple[Any, ...]]:
    """The Hessian of the one-element-output ``func`` at ``inputs``, PyTorch's
    ``torch.autograd.functional.hessian``: shape ``in.shape + in.shape`` (a tuple of
    tuples for several inputs).

    >>> import funcgrad as fg
    >>> fg.autograd.functional.hessian(lambda x: (x ** 3).sum(), fg.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    in_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def scalar(*xs):
        out = func(*xs)
        _, outs = _as_tuple(out, "outputs of the user-provided function", "hessian")
        if len(outs) != 1 or outs[0].numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should "
                               "contain a single element")
        return outs[0].reshape(())

    def gradient(*xs):
        return jacobian(scalar, xs if in_tuple else xs[0], create_graph=True, strict=strict)

    return jacobian(gradient, inputs if in_tuple else inputs[0], create_graph=create_graph,
                    strict=strict, vectorize=vectorize, strategy=outer_jacobian_strategy)


def _hessian_product(func, inputs, v, create_graph, strict, fn_name):
    in_tuple, inputs = _prepare(inputs, create_graph, fn_name)
    v = _fill(v, inputs, fn_name, "input")
    out_tuple, outs = _outputs(func, inputs, fn_name)
    if out_tuple or outs[0].numel() != 1:
        raise RuntimeError(f"The function given in {fn_name} should return a single "
                           f"Tensor with a single element")
    first = _grads(outs, inputs, [Tensor(outs[0].detach().numpy() * 0 + 1)], True, strict,
                   fn_name)
    second = _grads(first, inputs, v, create_graph, strict, fn_name)
    return _result(outs, False, create_graph), _result(second, in_tuple, create_graph)


def vhp(func: Callable[..., Tensor], inputs: TensorOrTensors,
        v: Optional[TensorOrTensors] = None, create_graph: bool = False, strict: bool = False
        ) -> tuple[Tensor, TensorOrTensors]:
    """``(func(*inputs), v^T H)`` for a one-element-output ``func``, PyTorch's
    ``torch.autograd.functional.vhp``.

    >>> import funcgrad as fg
    >>> fg.autograd.functional.vhp(lambda x: (x ** 3).sum(), fg.tensor([1.0, 2.0]),
    ...                            fg.tensor([1.0, 1.0]))
    (tensor(9.), tensor([ 6., 12.]))
    """
    return _hessian_product(func, inputs, v, create_graph, strict, "vhp")


def hvp(func: Callable[..., Tensor], inputs: TensorOrTensors,
        v: Optional[TensorOrTensors] = None, create_graph: bool = False, strict: bool = False
        ) -> tuple[Tensor, TensorOrTensors]:
    """``(func(*inputs), H v)`` for a one-element-output ``func``, PyTorch's
    ``torch.autograd.functional.hvp`` (equal to :func:`vhp`: a Hessian is symmetric).

    >>> import funcgrad as fg
    >>> fg.autograd.functional.hvp(lambda x: (x ** 3).sum(), fg.tensor([1.0, 2.0]),
    ...                            fg.tensor([1.0, 0.0]))
    (tensor(9.), tensor([6., 0.]))
    """
    return _hessian_product(func, inputs, v, create_graph, strict, "hvp")
