"""PyTorch's ``torch.autograd.Function``: a custom operation with ``forward``,
``backward(ctx, *grads)`` and optionally ``jvp(ctx, *tangents)``, as a ``custom_call``.

Both of PyTorch's styles work: ``forward(ctx, *args)``, or (PyTorch 2) ``forward(*args)``
plus ``setup_context(ctx, inputs, output)``.  Decisions:

* **Tensors in, Tensors out.**  Applied to eager Tensors (no transform active),
  ``forward`` runs under ``fg.no_grad()`` and sees the Tensors it was given (its own
  results are Tensors too), and ``backward`` receives Tensors, as in PyTorch, so
  Tensor methods (``input.mm(weight.t())``) work.  Under a transform of Tensors (``fg.grad``,
  ``vmap``, ``jit``... of a function given Tensors) the rules see the transform's values
  of the Tensors, which have the Tensor's methods too (:mod:`funcgrad.eager.traced`), so
  ``x.max(0)`` means PyTorch's everywhere; applied to arrays, they see arrays (NumPy's
  methods).  Python numbers and other non-array arguments are passed unchanged.
* **ctx**: ``save_for_backward`` / ``saved_tensors``, ``needs_input_grad``,
  ``mark_non_differentiable`` (those outputs do not require grad; ``backward`` gets
  zeros for them, or None after ``set_materialize_grads(False)``, which also gives None
  for outputs no gradient reached), ``mark_dirty`` and any attribute of your own.
* **mark_dirty** (an input modified in place by ``forward`` and returned): funcgrad's
  Tensors are never written in place, so the input is made to show the output's value
  and its history becomes this Function's node (``apply`` returns the input Tensor
  itself), with PyTorch's error for a leaf that requires grad.  Under a transform,
  values are immutable and the output is simply a new value.
* **vmap**: every Function is vectorised by running its rules under ``fg.vmap``
  (what ``generate_vmap_rule = True`` asks PyTorch for); a ``vmap`` staticmethod is
  accepted and not needed.
* :func:`once_differentiable` runs ``backward`` under ``no_grad`` on Tensors; a
  derivative of its results (``create_graph=True``) raises PyTorch's error.
* **Complex numbers**: ``backward`` follows PyTorch's convention everywhere (on Tensors
  and under funcgrad's transforms): it receives ``grad_output`` and returns
  ``grad_output * conj(f'(z))`` for a holomorphic ``f``, the ``d/dx + i d/dy`` of
  PyTorch's ``.grad``.  funcgrad's reverse mode composes JAX-style VJPs, so the rule is
  called with the conjugate cotangent and its result conjugated.  ``jvp`` needs no
  convention (a tangent is a complex number).
"""
import functools
import sys
import weakref
from typing import Any, Callable, TypeVar, cast

import numpy as np

from ..core import Tracer, _state, stands_for_tensor
from ..errors import FREED_MESSAGE, ShapeMismatchError
from ..instruments import check_unpacked
from ._call import CustomRule, as_operand, custom_call_p, with_entries
from ._reach import on_the_tape, refuse_unreachable_captures
from ._eager import (ONCE_MESSAGE, backward_class, eager_tensor_type, no_grad, present,
                     rebase_dirty, unwrap_output)

__all__ = ["Function", "FunctionCtx", "once_differentiable"]

_F = TypeVar("_F", bound=Callable[..., Any])



# the user's functions of a Function (what they hold is searched for captured values)
_RULES = ("forward", "setup_context", "backward", "vjp", "jvp")


def _unwrapped_method(method: Any) -> Any:
    """The function of a staticmethod or classmethod, anything else as it is."""
    return method.__func__ if isinstance(method, (staticmethod, classmethod)) else method


# forward -> its inspect.Signature (weakly: Functions defined in a loop come and go)
_SIGNATURES: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _bind(cls: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """``args`` and ``kwargs`` as the positional arguments of ``cls.forward`` (its ``ctx``
    left out), with its defaults: PyTorch's binding (always with ``setup_context``, whose
    ``inputs`` then hold the defaults too; with a ``ctx`` forward, for keywords)."""
    forward = cls.forward
    signature = _SIGNATURES.get(forward)
    if signature is None:
        import inspect
        signature = _SIGNATURES[forward] = inspect.signature(forward)
    new_style = cls.setup_context is not Function.setup_context
    if new_style and not kwargs and all(
            p.kind is p.VAR_POSITIONAL for p in list(signature.parameters.values())[len(args):]):
        return args  # (nothing to bind: the common case, without the cost of bind)
    try:
        bound = signature.bind(*args, **kwargs) if new_style else \
            signature.bind(None, *args, **kwargs)
    except TypeError as error:
        raise TypeError(f"{cls.__name__}.apply(): {error}") from None
    bound.apply_defaults()
    return tuple(bound.args if new_style else bound.args[1:])

class FunctionCtx:
    """The ``ctx`` of a :class:`Function`: what ``forward`` (or ``setup_context``) leaves
    for ``backward``.

    >>> ctx = FunctionCtx((True, False))
    >>> ctx.save_for_backward(np.ones(2)); ctx.scale = 3.0
    >>> len(ctx.saved_tensors), ctx.needs_input_grad, ctx.scale
    (1, (True, False), 3.0)
    """

    def __init__(self, needs_input_grad: tuple[bool, ...]) -> None:
        self.needs_input_grad = needs_input_grad
        self._saved: tuple[Any, ...] | None = None
        self.non_differentiable: tuple[int, ...] = ()
        self.dirty_tensors: tuple[int, ...] = ()
        self.materialize_grads = True
        self._packed: list[tuple[Any, ...]] | None = None  # saved_tensors_hooks' packs
        self._saved_forward: tuple[Any, ...] | None = None
        self._in_jvp = False
        self._freed = False
        # on Tensors: (inputs saved, an output saved), what the tape version-checks
        self.saved_flags: tuple[tuple[bool, ...], bool] | None = None

    def save_for_backward(self, *tensors: Any) -> None:
        """Keep ``tensors`` for ``backward`` (read them back as ``ctx.saved_tensors``).

        >>> ctx = FunctionCtx((True,)); ctx.save_for_backward(np.ones(1), None)
        >>> ctx.saved_tensors
        (array([1.]), None)
        """
        self._saved = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        """Keep ``tensors`` for ``jvp``, which reads them back as ``ctx.saved_tensors``.

        >>> ctx = FunctionCtx((True,)); ctx.save_for_forward(np.ones(1))
        >>> ctx._in_jvp = True; ctx.saved_tensors
        (array([1.]),)
        """
        self._saved_forward = tensors

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        """What :meth:`save_for_backward` kept, as a tuple (empty if nothing); in ``jvp``,
        what :meth:`save_for_forward` kept (if it was called)."""
        if self._in_jvp and self._saved_forward is not None:
            return tuple(self._saved_forward)
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        if self._packed is not None:  # unpacked at each access, as PyTorch
            return _unpack_saved(self._packed)
        return () if self._saved is None else tuple(self._saved)

    def _release_saved(self) -> None:
        """Drop what was saved: the backward pass that ran this Function's node without
        ``retain_graph`` is over (reading ``saved_tensors`` then raises, as in PyTorch).

        >>> ctx = FunctionCtx((True,)); ctx.save_for_backward(np.ones(1))
        >>> ctx._release_saved()
        >>> ctx.saved_tensors
        Traceback (most recent call last):
        ...
        RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after they have already been freed)...
        """
        self._saved = self._packed = None
        self._freed = True

    def mark_non_differentiable(self, *outputs: Any) -> None:
        """Declare outputs without a gradient: they do not require grad, and ``backward``
        gets zeros for them (None with ``set_materialize_grads(False)``).

        >>> ctx = FunctionCtx((True,)); out = np.ones(1); ctx.mark_non_differentiable(out)
        >>> ctx.non_differentiable == (id(out),)
        True
        """
        self.non_differentiable = tuple(id(o) for o in outputs)

    def mark_dirty(self, *tensors: Any) -> None:
        """Declare inputs that ``forward`` modified in place (and returns); see the module
        docstring for what funcgrad does with them.

        >>> ctx = FunctionCtx((True,)); x = np.ones(1); ctx.mark_dirty(x)
        >>> ctx.dirty_tensors == (id(x),)
        True
        """
        self.dirty_tensors = tuple(id(t) for t in tensors)

    def set_materialize_grads(self, value: bool) -> None:
        """With ``False``, ``backward`` receives None (not zeros) for outputs that got no
        gradient; handle None there.

        >>> ctx = FunctionCtx((True,)); ctx.set_materialize_grads(False)
        >>> ctx.materialize_grads
        False
        """
        self.materialize_grads = bool(value)


class Function:
    """Custom operations in PyTorch's ``torch.autograd.Function`` style.

    Subclass with static ``forward`` and ``backward(ctx, *grads)`` (one gradient per
    output; return one per input, ``None`` for none), and optionally
    ``jvp(ctx, *tangents)`` for forward mode.  ``forward(ctx, *args)``, or
    ``forward(*args)`` with ``setup_context(ctx, inputs, output)`` (PyTorch 2).  Use it
    through ``MyFn.apply(*args)`` -- never by calling ``forward`` directly, which would
    bypass the rules.  It works under every transform and on the eager Tensor (see the
    module docstring).

    >>> import numpy as np, funcgrad as fg
    >>> class Exp(fg.Function):
    ...     @staticmethod
    ...     def forward(x):
    ...         return np.exp(x)
    ...     @staticmethod
    ...     def setup_context(ctx, inputs, output):
    ...         ctx.save_for_backward(output)
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         result, = ctx.saved_tensors
    ...         return grad_output * result
    >>> float(fg.grad(Exp.apply)(0.0))
    1.0
    >>> x = fg.tensor([0.0, 1.0], requires_grad=True)
    >>> Exp.apply(x).sum().backward(); x.grad.numpy().round(4)
    array([1.    , 2.7183], dtype=float32)
    """

    generate_vmap_rule = False

    @staticmethod
    def forward(*args: Any, **kwargs: Any) -> Any:  # pragma: no cover - user defined
        raise NotImplementedError("a Function subclass must define forward(ctx, *args), or "
                                  "forward(*args) with setup_context(ctx, inputs, output)")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...],  # pragma: no cover - optional
                      output: Any) -> None:
        raise NotImplementedError("setup_context is optional: define it together with a "
                                  "forward(*args) that takes no ctx")

    @staticmethod
    def backward(ctx: Any, *grads: Any, **kwargs: Any) -> Any:  # pragma: no cover
        raise NotImplementedError("a Function subclass must define backward(ctx, *grads)")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run the Function on ``args``, recording it for differentiation.  Keyword
        arguments are bound to ``forward``'s parameters and passed by position, its
        defaults filled in, as PyTorch does (``backward`` returns a gradient for each).

        >>> import funcgrad as fg
        >>> class Scale(fg.Function):
        ...     @staticmethod
        ...     def forward(ctx, x, k=1.0):
        ...         ctx.k = k
        ...         return x * k
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         return g * ctx.k, None
        >>> Scale.apply(fg.tensor([1.0, 2.0]), k=3.0)
        tensor([3., 6.])
        """
        if kwargs or cls.setup_context is not Function.setup_context:
            args = _bind(cls, args, kwargs)
        name = cls.__name__
        array_pos = [i for i, a in enumerate(args) if _is_array_like(a)]
        leaves = [as_operand(args[i]) for i in array_pos]
        # (on the eager tape a Function is PyTorch's: its backward is the derivative, and
        # Tensors it closes over are its own business, as in torch.autograd.Function)
        if not on_the_tape(leaves):
            refuse_unreachable_captures(f"{name}.apply", lambda: [
                (a, f"argument {i}") for i, a in enumerate(args) if i not in array_pos] + [
                (_unwrapped_method(c.__dict__[rule]), f"{name}.{rule}") for c in cls.__mro__
                for rule in _RULES
                if c not in (Function, object) and rule in c.__dict__], leaves)
        Tensor = eager_tensor_type()
        # (rules then see Tensors; under a transform, Tensors are its traced values)
        eager = Tensor is not None and any(isinstance(args[i], Tensor) for i in array_pos)
        # Applied to Tensors, or to a transform's values of Tensors: the rules see Tensors
        # (or values standing for them) under every transform, so that PyTorch's methods
        # in them mean what they mean eagerly
        tensors = Tensor is not None and any(stands_for_tensor(args[i]) for i in array_pos)
        originals = [args[i] for i in array_pos] if eager else None
        # As in PyTorch: True for the floating-point inputs a derivative is being taken
        # with respect to (traced values, Tensors that require grad; conservatively any
        # traced one), False for the rest and for everything under no_grad.
        grad_on = _state.grad_enabled
        needs = tuple(grad_on and i in array_pos and _differentiable(args[i]) and
                      _tracked(args[i]) for i in range(len(args)))
        new_style = cls.setup_context is not Function.setup_context
        holder: dict[str, Any] = {}

        def run_forward(xs):
            ctx = FunctionCtx(needs)
            # Tensors given (forward AD's dual Tensors): Tensors returned, as in PyTorch
            keep = Tensor is not None and any(isinstance(x, Tensor) for x in xs)
            if eager and not any(isinstance(x, Tracer) for x in xs):
                xs = [present(x, originals) for x in xs]
                with no_grad():
                    out = _call_forward(cls, ctx, with_entries(args, array_pos, xs),
                                        new_style)
                ctx.saved_flags = _saved_flags(ctx, xs, out)
            else:
                if tensors:
                    xs = [present(x) for x in xs]
                out = _call_forward(cls, ctx, with_entries(args, array_pos, xs), new_style)
            single = not isinstance(out, tuple)
            outs = [out] if single else list(out)
            holder.setdefault("single", single)
            # which outputs mark_non_differentiable / mark_dirty named (by identity)
            ctx._nondiff = [id(o) in ctx.non_differentiable for o in outs]
            ctx._dirty = [next((k for k, x in enumerate(xs) if x is o and id(o) in
                                ctx.dirty_tensors), None) for o in outs]
            holder["ctx"] = ctx
            ctx._returned = outs
            outs = [as_operand(o if keep else unwrap_output(o)) for o in outs]
            ctx._outs = [(tuple(o.shape), o.dtype) for o in outs]
            return ctx, outs

        def fun(*xs):
            return run_forward(xs)[1]

        def fwd(*xs):
            ctx, outs = run_forward(xs)
            return outs, ctx

        def bwd(ctx, cts, xs=()):
            cts = [None if nd or c is None else c for c, nd in zip(cts, ctx._nondiff)]
            if ctx.materialize_grads:
                cts = [np.zeros(s, d) if c is None else c for c, (s, d) in
                       zip(cts, ctx._outs)]
            # backward is written in PyTorch's complex convention, the conjugate of the
            # JAX-style VJP funcgrad's reverse mode (and so its Tensor tape) composes:
            # vjp(ct) = conj(backward(conj(ct))).  Real values are left alone.
            cts = [_conj_if_complex(c) for c in cts]
            if eager and not any(isinstance(c, Tracer) for c in cts):
                # A create_graph pass hands the inputs as Tensors that require grad and
                # records the backward; any other runs it under no_grad, as PyTorch does
                recorded = any(getattr(x, "requires_grad", False) for x in xs)
                cts = [present(c) for c in cts]
                if not recorded:
                    with no_grad():
                        return _conj_all(_check_grads(name, _backward_of(cls)(ctx, *cts),
                                                      args, array_pos, leaves))
            if tensors:
                cts = [present(c) for c in cts]
            grads = _backward_of(cls)(ctx, *cts)
            return _conj_all(_check_grads(name, grads, args, array_pos, leaves))

        def jvp(primals, tangents):
            ctx, outs = run_forward(primals)
            ctx._in_jvp = True
            touts = cls.jvp(ctx, *with_entries([None] * len(args), array_pos, tangents))
            touts = list(touts) if isinstance(touts, (tuple, list)) else [touts]
            if len(touts) == len(outs):  # non-differentiable outputs have no tangent
                touts = [None if nd else t for t, nd in zip(touts, ctx._nondiff)]
            return outs, touts

        has_jvp = any("jvp" in c.__dict__ for c in cls.__mro__[:-2] if c is not Function)
        rule = CustomRule(f"{name}.apply", fun, jvp=jvp if has_jvp else None, fwd=fwd, bwd=bwd)
        # bwd materialises them, unless the ctx says not to
        rule.raw_cotangents = True  # type: ignore[attr-defined]
        # on Tensors, ctx packs what it saved (saved_tensors_hooks), not the graph's node
        rule.packs_own_saved = eager  # type: ignore[attr-defined]
        rule.tensors = tensors
        if eager:  # the tape records the call as a node of this class (MyExpBackward)
            rule.node_class = backward_class(cls)
        outs = list(custom_call_p.bind(*leaves, rule=rule))
        ctx = holder.get("ctx")
        if eager and ctx is not None:
            for k, o in enumerate(outs):
                r = ctx._returned[k]
                if isinstance(r, (bool, int, float, complex)) and not isinstance(r, np.generic):
                    outs[k] = r  # a Python number returned passes through, as in PyTorch
                elif isinstance(o, Tensor) and ctx._nondiff[k]:
                    outs[k] = o.detach()
                elif ctx._dirty[k] is not None:
                    outs[k] = rebase_dirty(originals[ctx._dirty[k]], o)  # type: ignore[index]
            # Saved outputs are the Tensors apply returns, so that a create_graph pass
            # differentiates through them (MyCube's dx), as in PyTorch
            if ctx._saved:
                ctx._saved = tuple(next((outs[k] for k, r in enumerate(ctx._returned)
                                         if r is s), s) for s in ctx._saved)
                ctx._packed = _pack_saved(ctx._saved, Tensor)
                if ctx._packed is not None:
                    ctx._saved = None
            ctx._returned = None
        return outs[0] if holder.get("single", len(outs) == 1) else tuple(outs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            f"Legacy autograd function with non-static forward method is deprecated: a "
            f"Function is not called as an object; use {type(self).__name__}.apply(...) "
            f"with static forward and backward methods")


def _backward_of(cls):
    """The Function's backward rule: ``backward``, or ``vjp`` (PyTorch's alias)."""
    def own(name):
        return any(name in c.__dict__ for c in cls.__mro__ if c not in (Function, object))
    if own("vjp"):
        if own("backward"):
            raise RuntimeError(f"Implementing both 'backward' and 'vjp' for a custom Function "
                               f"is not allowed ({cls.__name__}): define only one of them")
        return cls.vjp
    return cls.backward


def _saved_flags(ctx, inputs, out):
    """``(inputs saved, an output saved)`` by a Function's forward on Tensors: the
    residuals the tape version-checks and frees (``Primitive.vjp_reads``), as PyTorch
    checks what ``save_for_backward`` kept, not every input.  On Tensors, as in PyTorch,
    only Tensors (or None) may be saved (under transforms, numbers flow as values).
    Tensors kept as attributes of ctx (``ctx.x = x``) count as saved too: PyTorch does not
    check them, and backward would compute with a value changed in place, silently."""
    saved = ctx._saved
    for i, s in enumerate(saved or ()):
        if isinstance(s, (bool, int, float, complex, str, bytes, list, tuple, dict)):
            raise TypeError(
                f"save_for_backward can only save variables, but argument {i} is of type "
                f"{type(s).__name__}: keep other values as attributes of ctx "
                f"(ctx.name = value)")
    saved = [s for s in saved or () if s is not None]
    for name, value in vars(ctx).items():
        if not name.startswith("_"):
            saved.extend(v for v in (value if isinstance(value, (tuple, list)) else (value,))
                         if hasattr(v, "_storage"))
    storages = {id(getattr(s, "_storage", None)) for s in saved}

    def kept(x):
        return any(s is x for s in saved) or (getattr(x, "_storage", None) is not None
                                              and id(x._storage) in storages)
    outs = out if isinstance(out, tuple) else (out,)
    return tuple(kept(x) for x in inputs), any(kept(o) for o in outs)


def _call_forward(cls, ctx, args, new_style):
    if not new_style:
        return cls.forward(ctx, *args)
    out = cls.forward(*args)
    cls.setup_context(ctx, tuple(args), out)
    return out


def _check_grads(name, grads, args, array_pos, leaves):
    """The gradients ``backward`` returned, one per array input, checked."""
    grads = list(grads) if isinstance(grads, (tuple, list)) else [grads]
    if len(grads) > len(args) and all(g is None for g in grads[len(args):]):
        grads = grads[:len(args)]  # PyTorch allows extra Nones (for defaulted arguments)
    if len(grads) != len(args):
        expected = ", ".join(
            f"{tuple(leaves[array_pos.index(i)].shape)}" if i in array_pos
            else f"None (a {type(a).__name__})" for i, a in enumerate(args))
        raise ShapeMismatchError(
            f"function {name}Backward returned an incorrect number of gradients (expected "
            f"{len(args)}, got {len(grads)}): function {name}.backward returned {len(grads)} "
            f"gradient{'s' * (len(grads) != 1)}, but forward took {len(args)} input"
            f"{'s' * (len(args) != 1)}: expected {len(args)}, one per input, with "
            f"shapes {expected} (None for inputs without a gradient)")
    positions = set(array_pos)
    for i, g in enumerate(grads):
        if g is not None and i not in positions:  # it would be dropped silently
            raise RuntimeError(
                f"function {name}Backward returned a gradient different than None at "
                f"position {i + 1}, but the corresponding forward input was not a Variable "
                f"(a {type(args[i]).__name__}); return None for it")
    out = []
    for i, x in zip(array_pos, leaves):
        g = grads[i]
        if g is None:  # no gradient (a leaf's .grad stays None, as in PyTorch)
            out.append(None)
            continue
        g = as_operand(unwrap_output(g, keep_tracked=True))
        if tuple(g.shape) != tuple(x.shape):
            if not _expandable(tuple(x.shape), tuple(g.shape)):
                raise ShapeMismatchError(
                    f"Function {name}Backward returned an invalid gradient at index {i} - got "
                    f"{list(g.shape)} but expected shape compatible with {list(x.shape)}: "
                    f"function {name}.backward returned a gradient of shape {tuple(g.shape)} "
                    f"for input {i}, expected shape {tuple(x.shape)} (the shape of that "
                    f"input); one that input broadcasts to is summed back to it")
            g = _sum_to(g, tuple(x.shape))  # as PyTorch: the input was broadcast
        out.append(g)
    return out


def _expandable(shape, to):
    """Whether ``shape`` broadcasts to ``to``."""
    return len(shape) <= len(to) and all(
        n == m or n == 1 for n, m in zip(shape[::-1], to[::-1]))


def _sum_to(g, shape):
    """``g`` summed over the axes along which ``shape`` was broadcast to ``g.shape``."""
    lead = len(g.shape) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + k for k, n in enumerate(shape)
                                      if n == 1 and g.shape[lead + k] != 1)
    return np.reshape(np.sum(g, axis=axes, keepdims=True), shape)


def once_differentiable(backward: _F) -> _F:
    """Decorate a Function's ``backward`` that cannot itself be differentiated (it uses
    NumPy on the values, say): on Tensors it runs under ``no_grad``, and differentiating
    its results (``create_graph=True``, then a second backward) raises PyTorch's error
    instead of giving a wrong derivative.  Under transforms it runs unchanged.

    >>> import numpy as np, funcgrad as fg
    >>> class Square(fg.Function):
    ...     @staticmethod
    ...     def forward(ctx, x):
    ...         ctx.save_for_backward(x)
    ...         return x * x
    ...     @staticmethod
    ...     @fg.autograd.function.once_differentiable
    ...     def backward(ctx, g):
    ...         x, = ctx.saved_tensors
    ...         return 2 * x * g
    >>> x = fg.tensor([3.0], requires_grad=True)
    >>> Square.apply(x).sum().backward(); x.grad
    tensor([6.])
    """
    @functools.wraps(backward)
    def wrapper(ctx, *grads):
        Tensor = eager_tensor_type()
        if any(isinstance(g, Tracer) for g in grads) or Tensor is None:
            return backward(ctx, *grads)
        with no_grad():
            result = backward(ctx, *grads)
        if not any(isinstance(g, Tensor) and g.requires_grad for g in grads):
            return result
        single = not isinstance(result, tuple)
        wrapped = tuple(_DelayedError.apply(r.detach().requires_grad_())
                        if isinstance(r, Tensor) and r.dtype.kind in "fc" else r
                        for r in ((result,) if single else result))
        return wrapped[0] if single else wrapped
    return cast(_F, wrapper)


class _DelayedError(Function):
    """The identity, whose derivative raises (see :func:`once_differentiable`)."""

    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError(ONCE_MESSAGE)


def _pack_saved(saved, Tensor):
    """``[(unpack_hook, packed)]`` for the Tensors a Function saved, packed now by the
    innermost ``saved_tensors_hooks`` (once each, as PyTorch packs them); None when no
    hooks are active.  Other saved objects are kept as they are (no unpack hook)."""
    graph = sys.modules.get("funcgrad.graph")  # (not imported: it sits above custom)
    hooks = None if graph is None else graph._hooks
    if hooks is None or not hooks.pairs or hooks.in_hook:
        return None
    if hooks.disabled:
        raise RuntimeError(hooks.disabled[-1])
    pack, unpack = hooks.pairs[-1]
    hooks.in_hook = True
    try:
        return [(unpack, pack(s), s.shape) if isinstance(s, Tensor) else (None, s, None)
                for s in saved]
    finally:
        hooks.in_hook = False


def _unpack_saved(packed):
    """The saved values back from their unpack hooks (called at each access)."""
    hooks = sys.modules["funcgrad.graph"]._hooks
    previous, hooks.in_hook = hooks.in_hook, True
    try:
        return tuple(p if unpack is None else check_unpacked(unpack(p), shape)
                     for unpack, p, shape in packed)
    finally:
        hooks.in_hook = previous


def _is_array_like(a):
    # Python numbers stay Python numbers, as PyTorch passes non-Tensor arguments through
    return isinstance(a, (Tracer, np.ndarray)) or type(a).__name__ == "Tensor" or (
        isinstance(a, np.generic) and not isinstance(a, np.bool_))


def _tracked(a):
    return isinstance(a, Tracer) or bool(getattr(a, "requires_grad", False))


def _differentiable(a):
    dtype = getattr(a, "dtype", None)
    return dtype is None or np.dtype(dtype).kind in "fc"


def _conj_if_complex(value):
    if value is None or np.dtype(getattr(value, "dtype", np.float64)).kind != "c":
        return value
    return np.conj(value)  # a traced value or Tensor dispatches to funcgrad's conj


def _conj_all(grads):
    return [_conj_if_complex(g) for g in grads]
