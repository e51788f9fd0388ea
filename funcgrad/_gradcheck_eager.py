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
            pairs = [(o, c) for o, c in zip(outs, cts)
                     if isinstance(o, Tensor) and o.requires_grad]
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
