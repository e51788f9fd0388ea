"""The eager Tensor's side of :mod:`funcgrad.gradcheck`: backward passes run on the
Tensor tape, as PyTorch computes them, so the function checked may use any Tensor method
or ``Function``.

:func:`eager_vjp` gives ``gradcheck`` its reverse-mode Jacobian rows;
:func:`eager_backward` is the function ``gradgradcheck`` differentiates: the backward
pass of ``f`` recorded with ``create_graph=True``, as ``torch.autograd.gradgradcheck``
differentiates it.
"""
import numpy as np

from . import tree

__all__ = ["eager_vjp", "eager_backward"]


def _flat(out):
    """The leaves of an output of Tensors, tuples and lists, in flattening order."""
    if isinstance(out, (tuple, list)):
        return [leaf for o in out for leaf in _flat(o)]
    return [] if out is None else [out]


def eager_vjp(eager, args, diff):
    """``vjp(g, *x0)`` computed on the eager tape: ``eager`` runs ``f`` with float64
    (complex128) Tensors that require grad at the positions ``diff`` and returns its
    Tensor outputs; the cotangents go through ``fg.autograd.grad``.  For real values this
    is what :func:`funcgrad.vjp` gives; for complex ones it is PyTorch's convention (the
    conjugate of JAX's for a real loss), which the caller accounts for."""
    from .eager import Tensor, grad

    def vjp(g, *x0):
        full = list(args)
        leaves = [Tensor(x, requires_grad=True) for x in x0]
        for k, t in zip(diff, leaves):
            full[k] = t
        out = eager(*full)
        outs = _flat(out)

        def vjp_fn(cotangents):
            cts = tree.leaves(cotangents)
            # an output whose cotangent is zero is left out, so that it gets no gradient
            # (None in a Function's backward without materialized grads), as PyTorch's
            # gradcheck differentiates one output at a time
            pairs = [(o, c) for o, c in zip(outs, cts)
                     if isinstance(o, Tensor) and o.requires_grad and np.any(c != 0)]
            found = [None] * len(leaves)
            if pairs:
                found = grad([o for o, _ in pairs], leaves,
                             [Tensor(np.asarray(c, o.dtype)) for o, c in pairs],
                             retain_graph=True, allow_unused=True)
            return tuple(np.zeros(x.shape, x.dtype) if f is None else f.numpy()
                         for f, x in zip(found, x0))
        return out, vjp_fn
    return vjp


def eager_backward(eager, args, diff, float_pos):
    """``(backward, plain)``: ``backward(*diff_values, *cotangents)`` is the tuple of the
    gradients of ``eager``'s (``f`` on Tensors) outputs ``float_pos`` (positions among the
    output leaves) with respect to its inputs ``diff``, recorded (``create_graph=True``)
    where its arguments are Tensors that require grad; ``plain`` is the same on arrays,
    returning arrays (what central differences evaluate).

    >>> import numpy as np, funcgrad as fg
    >>> backward, plain = eager_backward(lambda x: x.sin(), [np.zeros(1)], [0], [0])
    >>> plain(np.array([0.0]), np.array([2.0]))   # 2 * cos(0)
    (array([2.]),)
    """
    from .eager import Tensor, grad

    n_diff = len(diff)

    def backward(*values):
        full = list(args)
        leaves = []
        for k, v in zip(diff, values[:n_diff]):
            if not (isinstance(v, Tensor) and v.requires_grad):
                v = Tensor(np.asarray(v), requires_grad=True)
            full[k] = v
            leaves.append(v)
        outs = _flat(eager(*full))
        pairs = []
        for j, ct in zip(float_pos, values[n_diff:]):
            o = outs[j]
            if isinstance(o, Tensor) and o.requires_grad:
                pairs.append((o, ct if isinstance(ct, Tensor) else
                              Tensor(np.asarray(ct, o.dtype))))
        found = [None] * n_diff
        if pairs:
            found = grad([o for o, _ in pairs], leaves, [c for _, c in pairs],
                         create_graph=True, allow_unused=True)
        return tuple(Tensor(np.zeros(t.shape, t.dtype)) if g is None else g
                     for g, t in zip(found, leaves))

    def plain(*values):
        return tuple(g.detach().numpy() for g in backward(*values))
    plain.eager = backward
    return backward, plain


def undefined_grad_failure(eager, args, diff):
    """PyTorch's ``check_undefined_grad`` on the Tensor tape: for each differentiable
    output of ``eager`` (``f`` on Tensors), a backward pass in which that output gets no
    gradient (a ``Function`` with ``set_materialize_grads(False)`` receives None for it)
    and the others get zeros must run and give zero (or no) gradients.  funcgrad never
    runs a backward with no gradient at all, so a single output needs no check.  Returns
    the failure's message, or None.

    >>> import numpy as np
    >>> undefined_grad_failure(lambda x: (x * 2, x * 3), [np.ones(2)], [0]) is None
    True
    """
    from .eager import Tensor, grad

    full = list(args)
    leaves = []
    for k in diff:
        full[k] = Tensor(np.array(args[k]), requires_grad=True)
        leaves.append(full[k])
    outs = [o for o in _flat(eager(*full)) if isinstance(o, Tensor) and o.requires_grad]
    if len(outs) < 2:
        return None
    for k in range(len(outs)):
        others = outs[:k] + outs[k + 1:]
        zeros = [Tensor(np.zeros(o.shape, o.dtype)) for o in others]
        try:
            found = grad(others, leaves, zeros, retain_graph=True, allow_unused=True)
        except Exception as e:  # noqa: BLE001  (reported with its type and message)
            return (f"Expected backward function to handle undefined output grads: with no "
                    f"gradient for output {k} (None in a Function's backward after "
                    f"ctx.set_materialize_grads(False)) it raised {type(e).__name__}: {e}. "
                    f"Treat None as zeros there, or pass check_undefined_grad=False")
        if any(g is not None and np.any(g.detach().numpy() != 0) for g in found):
            return (f"Expected all input grads to be undefined or zero when all output "
                    f"grads are undefined or zero (output {k} had none, the others zeros); "
                    f"check the backward's handling of None, or pass "
                    f"check_undefined_grad=False")
    return None
