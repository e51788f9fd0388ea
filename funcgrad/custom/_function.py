"""PyTorch's ``torch.autograd.Function``: a custom operation with ``forward(ctx, ...)``,
``backward(ctx, *grads)`` and optionally ``jvp(ctx, *tangents)``, as a ``custom_call``."""
import numpy as np

from ..core import Tracer, _state
from ._call import CustomRule, as_operand, custom_call_p, with_entries

__all__ = ["Function", "FunctionCtx"]


class FunctionCtx:
    """The ``ctx`` of a :class:`Function`: saves values for ``backward``."""

    def __init__(self, needs_input_grad):
        self.needs_input_grad = needs_input_grad
        self._saved = None
        self.non_differentiable = ()

    def save_for_backward(self, *values):
        """Keep ``values`` for ``backward`` (read them back as ``ctx.saved_tensors``)."""
        self._saved = values

    @property
    def saved_tensors(self):
        if self._saved is None:
            return ()
        return self._saved

    def mark_non_differentiable(self, *outputs):
        """Declare outputs that have no gradient (their cotangents are ignored)."""
        self.non_differentiable = tuple(id(o) for o in outputs)


class Function:
    """Custom operations in PyTorch's ``torch.autograd.Function`` style.

    Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grads)``
    (one gradient per output; return one per input, ``None`` for none), and
    optionally ``jvp(ctx, *tangents)`` for forward mode.  Use it through
    ``MyFn.apply(*args)`` — never by calling ``forward`` directly, which would
    bypass the rules.  It works under every transform and on the eager Tensor.

    >>> import numpy as np, funcgrad as fg
    >>> class Exp(fg.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         result = np.exp(x)
    ...         ctx.save_for_backward(result)
    ...         return result
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         result, = ctx.saved_tensors
    ...         return grad_output * result
    >>> float(fg.grad(Exp.apply)(0.0))
    1.0
    """

    @staticmethod
    def forward(ctx, *args):  # pragma: no cover - user defined
        raise NotImplementedError("a Function subclass must define forward(ctx, *args)")

    @staticmethod
    def backward(ctx, *grads):  # pragma: no cover - user defined
        raise NotImplementedError("a Function subclass must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args):
        name = cls.__name__
        array_pos = [i for i, a in enumerate(args) if _is_array_like(a)]
        leaves = [as_operand(args[i]) for i in array_pos]
        # As in PyTorch: True for the floating-point inputs a derivative is being taken
        # with respect to (traced values, Tensors that require grad; conservatively any
        # traced one), False for the rest and for everything under no_grad.
        grad_on = _state.grad_enabled
        needs = tuple(grad_on and i in array_pos and _differentiable(args[i]) and
                      _tracked(args[i]) for i in range(len(args)))
        holder = {}

        def run_forward(xs):
            ctx = FunctionCtx(needs)
            out = cls.forward(ctx, *with_entries(args, array_pos, xs))
            single = not isinstance(out, tuple)
            outs = [out] if single else list(out)
            holder.setdefault("single", single)
            # which outputs mark_non_differentiable named (by identity, before conversion)
            ctx._nondiff = [id(o) in ctx.non_differentiable for o in outs]
            return ctx, [as_operand(o) for o in outs]

        def fun(*xs):
            return run_forward(xs)[1]

        def fwd(*xs):
            ctx, outs = run_forward(xs)
            return outs, ctx

        def bwd(ctx, cts):
            cts = [c if not nd else np.zeros_like(c) for c, nd in
                   zip(cts, getattr(ctx, "_nondiff", [False] * len(cts)))]
            grads = cls.backward(ctx, *cts)
            grads = list(grads) if isinstance(grads, (tuple, list)) else [grads]
            if len(grads) != len(args):
                expected = ", ".join(
                    f"{tuple(leaves[array_pos.index(i)].shape)}" if i in array_pos
                    else f"None (a {type(a).__name__})" for i, a in enumerate(args))
                raise ValueError(
                    f"function {name}.backward returned {len(grads)} gradient"
                    f"{'s' * (len(grads) != 1)}, but forward took {len(args)} input"
                    f"{'s' * (len(args) != 1)}: expected {len(args)}, one per input, with "
                    f"shapes {expected} (None for inputs without a gradient)")
            out = []
            for i, x in zip(array_pos, leaves):
                g = grads[i]
                if g is None:
                    out.append(np.zeros(x.shape, x.dtype))
                    continue
                g = as_operand(g)
                if tuple(g.shape) != tuple(x.shape):
                    raise ValueError(
                        f"function {name}.backward returned a gradient of shape "
                        f"{tuple(g.shape)} for input {i}, expected shape {tuple(x.shape)} "
                        f"(the shape of that input)")
                out.append(g)
            return out

        jvp = None
        if "jvp" in cls.__dict__ or any("jvp" in c.__dict__ for c in cls.__mro__[1:-2]
                                        if c is not Function):
            def jvp(primals, tangents):
                ctx, outs = run_forward(primals)
                touts = cls.jvp(ctx, *with_entries([None] * len(args), array_pos, tangents))
                touts = list(touts) if isinstance(touts, (tuple, list)) else [touts]
                if len(touts) == len(outs):  # non-differentiable outputs have no tangent
                    touts = [None if nd else t for t, nd in zip(touts, ctx._nondiff)]
                return outs, touts

        rule = CustomRule(f"{name}.apply", fun, jvp=jvp, fwd=fwd, bwd=bwd)
        outs = custom_call_p.bind(*leaves, rule=rule)
        return outs[0] if holder.get("single", len(outs) == 1) else tuple(outs)


def _is_array_like(a):
    return isinstance(a, (Tracer, np.ndarray, np.generic, float)) and not isinstance(a, bool) or \
        type(a).__name__ == "Tensor"


def _tracked(a):
    return isinstance(a, Tracer) or bool(getattr(a, "requires_grad", False))


def _differentiable(a):
    dtype = getattr(a, "dtype", None)
    return dtype is None or np.dtype(dtype).kind == "f" if not isinstance(a, float) else True
