"""What a :class:`~funcgrad.Function` and ``checkpoint`` need from the eager Tensor,
found without importing it (the Tensor sits above this layer): the class, values shown
as Tensors to PyTorch-style rules, and the tape's own pullback.  With no Tensor module loaded no Tensor exists, and
these do nothing.
"""
import sys

import numpy as np

from ..modes import enable_grad, no_grad

__all__ = ["eager_tensor_type", "present", "unwrap_output", "rebase_dirty", "tape_vjp",
           "dual_jvp", "backward_class", "no_grad", "ONCE_MESSAGE"]

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


def backward_class(function):
    """The class of the node a call of the :class:`~funcgrad.Function` subclass
    ``function`` records on the eager tape, as PyTorch names it: ``MyExpBackward`` for
    ``MyExp``, made once per subclass (``MyExp._backward_cls``, PyTorch's attribute).

    >>> import funcgrad as fg
    >>> class Twice(fg.Function):
    ...     @staticmethod
    ...     def forward(ctx, x): return x * 2
    ...     @staticmethod
    ...     def backward(ctx, g): return g * 2
    >>> y = Twice.apply(fg.tensor([1.0], requires_grad=True))
    >>> type(y.grad_fn).__name__, type(y.grad_fn) is backward_class(Twice)
    ('TwiceBackward', True)
    """
    node_class = function.__dict__.get("_backward_cls")
    if node_class is None:  # (own __dict__: a subclass of MyExp gets a class of its own)
        node_class = sys.modules["funcgrad.eager.graph"].node_type(function.__name__ +
                                                                     "Backward")
        function._backward_cls = node_class
    return node_class


def tape_vjp(fn, xs, cts):
    """Cotangents for the flat inputs ``xs`` of ``fn`` (a function written with Tensor
    methods: flat list in, flat list out) by the eager tape itself: ``fn`` runs again on
    Tensors that require grad and ``fg.autograd.grad`` pulls ``cts`` back, as PyTorch's
    checkpoint does.  Inputs that are already Tensors requiring grad (a create_graph
    pass) are kept, so the pass records through them; the gradients are then Tensors on
    that graph, else plain arrays.  None for inputs neither float nor complex, or that
    no output depends on.

    >>> import numpy as np, funcgrad as fg
    >>> tape_vjp(lambda v: [(v * v).sum()], [np.array([1.0, 2.0])], [np.array(1.0)])
    [array([2., 4.])]
    """
    Tensor = eager_tensor_type()
    grads_of = sys.modules["funcgrad.eager.grads"].grad
    create = any(isinstance(v, Tensor) and v.requires_grad for v in list(xs) + list(cts))
    ins, pos = [], []
    for i, x in enumerate(xs):
        if isinstance(x, Tensor) and x.requires_grad:
            ins.append(x)
        else:
            value = unwrap_output(x)
            ins.append(present(value))
            if np.dtype(getattr(value, "dtype", np.float64)).kind in "fc":
                ins[-1] = ins[-1].detach().requires_grad_(True)
        if ins[-1].requires_grad:
            pos.append(i)
    grads = [None] * len(xs)
    with enable_grad():
        outs = list(fn(*ins))
    tracked = [k for k, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
    if not pos or not tracked:
        return grads
    found = grads_of([outs[k] for k in tracked], [ins[i] for i in pos],
                     [present(cts[k]) for k in tracked], create_graph=create,
                     allow_unused=True)
    for i, g in zip(pos, found):
        grads[i] = g if create or g is None else g._storage.value
    return grads


def dual_jvp(fn, primals, tangents):
    """``(outs, tangent_outs)`` of ``fn`` (flat list in, flat list out) at Tensor
    ``primals``, by forward-AD dual values of a level of its own: those are Tensors with
    a tangent (PyTorch's ``make_dual``), so ``fn`` may call Tensor methods.  None while
    :mod:`funcgrad.forward_ad` is not loaded (then no dual Tensor exists either).

    >>> import numpy as np, funcgrad as fg
    >>> import funcgrad.forward_ad
    >>> outs, touts = dual_jvp(lambda v: [v.sin()], [fg.tensor([0.0])], [np.ones(1)])
    >>> touts
    [tensor([1.])]
    """
    forward_ad = sys.modules.get("funcgrad.forward_ad")
    if forward_ad is None:
        return None
    with forward_ad.dual_level():
        duals = [forward_ad.make_dual(p, t) if t is not None and
                 np.dtype(getattr(p, "dtype", np.float64)).kind in "fc" else p
                 for p, t in zip(primals, tangents)]
        unpacked = [forward_ad.unpack_dual(o) for o in fn(*duals)]
    return [u.primal for u in unpacked], [u.tangent for u in unpacked]
