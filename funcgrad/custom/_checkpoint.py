"""``checkpoint``: rematerialisation, as a ``custom_call`` whose reverse pass keeps the
inputs and recomputes the rest; traced values the function captures are found and made
extra inputs (closure conversion).

With a ``policy`` (:mod:`funcgrad.checkpoint_policies`) the forward pass also keeps the
results of the operations the policy calls saveable, and the backward pass's second run
of the function takes them instead of computing them again: the operations run in the
same order both times, and each is checked against the forward's list (primitive and
input shapes), so a saved value only ever stands in for the operation that made it.
Where the second run takes another route (reverse mode records a few primitives by their
own forward rule), it computes everything from there on.  Operations that hold a graph
(``scan``, ``cond``, ``while_loop``, ``jit``, custom rules) are recomputed whole: the
policy sees the primitives of the checkpointed function itself, not inside those."""
import functools
import inspect
import sys
from typing import Any, Callable, TypeVar

import numpy as np

from .. import tree
from ..core import EscapedTracerError, Interpreter, Tracer, aval_of, is_special
from ..interpreters.graph import eval_graph, trace_to_graph
from ..modes import no_grad
from ..primitives.structural import name_p
from ._call import CallSite, CustomRule, _of_float_inputs, as_operand, jvp_of, vjp_of
from ._eager import dual_jvp, eager_tensor_type, present, tape_vjp, unwrap_output

__all__ = ["checkpoint", "checkpoint_name"]

F = TypeVar("F", bound=Callable[..., Any])


def checkpoint(fun: F, *, prevent_cse: bool = True, policy: Callable[..., Any] | None = None,
               static_argnums: int | tuple[int, ...] = (),
               static_argnames: str | tuple[str, ...] = ()) -> F:
    """Rematerialisation: ``checkpoint(f)`` computes the same values and derivatives
    as ``f`` but keeps only its inputs for the reverse pass, recomputing the rest
    during the backward pass (less memory, one more forward of ``f``).

    ``f`` may take integer arguments (indices: not differentiated) and may use traced
    values it captures from the enclosing function (e.g. weights): those are found
    and made extra inputs of the checkpointed call, so derivatives reach them too.
    ``static_argnums`` (as JAX's): arguments passed to ``f`` as they are, not traced,
    so Python control flow may use them (also under ``jit``); ``static_argnames``, the
    same by parameter name.  Other keyword arguments are inputs like the positional ones
    (differentiated, as JAX's).  ``policy`` (one of :mod:`funcgrad.checkpoint_policies`,
    JAX's names; default: save nothing but the inputs) decides which operations' results
    the forward pass keeps for the backward pass rather than computing them again
    (``dots_saveable``: the matrix products; ``save_only_these_names``: the values named
    with :func:`checkpoint_name`); values and derivatives are the same under every
    policy.  ``prevent_cse`` is accepted for JAX's signature (funcgrad merges nothing
    across the two runs).  Called with eager Tensors, ``f`` runs on Tensors both times
    (Tensor methods work, as with ``torch.utils.checkpoint``) and the backward pass is
    the tape's own; a policy then saves nothing (all is recomputed, derivatives the same).

    >>> import numpy as np, funcgrad as fg
    >>> block = fg.checkpoint(lambda x: np.sin(np.sin(x)))
    >>> float(fg.grad(block)(0.0))
    1.0
    >>> power = fg.checkpoint(lambda x, n: x ** n if n > 1 else x, static_argnums=(1,))
    >>> float(fg.jit(fg.grad(power), static_argnums=1)(2.0, 3))
    12.0
    """
    name = getattr(fun, "__name__", "f")
    if policy is not None and not callable(policy):
        raise TypeError(f"checkpoint: policy must be a callable (a JAX checkpoint policy) or "
                        f"None, got {policy!r}")
    static = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    static_names = ((static_argnames,) if isinstance(static_argnames, str)
                    else tuple(static_argnames))
    # a static name passed by position is static there too
    named_positions = _positions_of(fun, static_names)

    @functools.wraps(fun)
    def remat(*args, **kwargs):
        for i in static:
            if not -len(args) <= i < len(args):
                raise ValueError(f"checkpoint: static_argnums has {i}, but {name} was called "
                                 f"with {len(args)} positional arguments")
        static_positions = sorted({i % len(args) for i in static}
                                  | {i for i in named_positions if i < len(args)})
        fixed = {k: kwargs.pop(k) for k in static_names if k in kwargs}
        if kwargs:  # one more input, the dict of them, handed back by name
            site = CallSite(name, args + (kwargs,), static_positions)

            def call(*inputs):
                return fun(*inputs[:-1], **inputs[-1], **fixed)
        elif fixed:
            site = CallSite(name, args, static_positions)

            def call(*inputs):
                return fun(*inputs, **fixed)
        else:
            site = CallSite(name, args, static_positions)
            call = fun

        def checked(*inputs):
            out = call(*inputs)
            _refuse_captured_tensors(name, inputs, out)
            return out
        record = site.flat_fun(checked)

        def flat(*xs):
            return [as_operand(o) for o in record(*xs)]

        tensor_at = _tensor_positions(site.leaves)
        if tensor_at:  # Tensors in: the rule runs the function on Tensors too
            return site.bind(_remat_rule(name, _on_tensors(name, flat, tensor_at),
                                         tape=True))
        try:
            return site.bind(_remat_rule(name, flat, policy=policy))
        except EscapedTracerError as error:
            # The rules run below the calling transform, or later (a graph built by jit
            # stores them): a traced value that ``fun`` captures (rather than receives)
            # is out of reach there.  Find such values (a graph's shape rule has listed
            # them already) and pass them as extra inputs (closure conversion), then try
            # again.
            captured = getattr(error, "captured", None) or _captured_tracers(flat,
                                                                             site.leaves)
            if not captured:
                raise
            n = len(site.leaves)

            def converted(*xs):
                with _Substitute({id(t): c for t, c in zip(captured, xs[n:])}):
                    return flat(*xs[:n])

            return site.bind(_remat_rule(name, converted, guard=False, policy=policy),
                             *captured)

    return remat  # type: ignore[return-value]  # same call signature as fun


def _positions_of(fun, names):
    """The positions of the parameters ``names`` of ``fun`` (those it takes positionally;
    an unknown name raises)."""
    if not names:
        return ()
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):  # (no signature to read: names apply to keywords only)
        return ()
    known = {p.name for p in parameters}
    unknown = [n for n in names if n not in known]
    if unknown and not any(p.kind is p.VAR_KEYWORD for p in parameters):
        raise ValueError(f"checkpoint: static_argnames has {unknown}, which "
                         f"{getattr(fun, '__name__', 'the function')} has no parameter of; "
                         f"name its parameters")
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return tuple(i for i, p in enumerate(parameters) if p.name in names and p.kind in positional)


def checkpoint_name(x: Any, name: str) -> Any:
    """``x`` (a value or pytree) as it is, named for the name-based policies of
    :mod:`funcgrad.checkpoint_policies` (``jax.ad_checkpoint.checkpoint_name``): under
    ``checkpoint(f, policy=save_only_these_names(name))`` the forward pass keeps it for
    the backward pass.  Values and derivatives pass through.

    >>> import numpy as np, funcgrad as fg
    >>> def layer(x):
    ...     h = fg.checkpoint_name(np.sin(x), "hidden")
    ...     return np.sum(h * h)
    >>> policy = fg.checkpoint_policies.save_only_these_names("hidden")
    >>> float(fg.grad(fg.checkpoint(layer, policy=policy))(0.0))
    0.0
    """
    if not isinstance(name, str):
        raise TypeError(f"checkpoint_name: the name must be a string, got "
                        f"{type(name).__name__}; call it as checkpoint_name(x, 'name')")
    return tree.tree_map(lambda leaf: name_p.bind(as_operand(leaf), name=name), x)


def _refuse_captured_tensors(name, xs, outs):
    """A Tensor among the results of values that are not Tensors was captured by the
    function: the rule runs on the arguments' values, so its graph would be cut and its
    derivative lost without a word."""
    values = sys.modules.get("funcgrad.eager.values")  # (no Tensor exists without it)
    if values is None:
        return
    base = values.TensorBase

    def tensors(x):
        return any(isinstance(v, base)
                   for v in tree.flatten(x, is_leaf=lambda v: isinstance(v, base))[0])
    if tensors(outs) and not tensors(xs):
        raise TypeError(_captured_message(name))


def _captured_message(name):
    return (f"checkpoint({name}): the function uses a Tensor it was not given as an "
            f"argument (a weight it captures, say), whose derivative would be lost. Pass it "
            f"as an argument instead: fg.checkpoint(lambda x, w: ...)(x, w).")


def _tensor_positions(leaves):
    """The positions of the eager Tensors among a call's leaves (none under a transform:
    there the leaves are its traced values)."""
    Tensor = eager_tensor_type()
    if Tensor is None:
        return ()
    return tuple(i for i, x in enumerate(leaves) if isinstance(x, Tensor))


def _holds_tensors(xs):
    Tensor = eager_tensor_type()
    return Tensor is not None and any(isinstance(x, Tensor) for x in xs)


def _on_tensors(name, flat, positions):
    """``flat`` for a caller that passed Tensors at ``positions``: the tape hands the rule
    their values, which are shown to the function as Tensors again (so that Tensor
    methods work), and its Tensor results are handed back as values.  Given Tensors (the
    tape's pullback, a create_graph pass) it runs on them as they are.  Its inputs never
    require grad here, so a result that does depends on a Tensor it captured."""
    def run(*xs):
        if not any(isinstance(xs[i], (np.ndarray, np.generic)) for i in positions):
            return flat(*xs)
        shown = list(xs)
        for i in positions:
            shown[i] = present(xs[i])
        outs = flat(*shown)
        if any(getattr(o, "requires_grad", False) for o in outs):
            raise TypeError(_captured_message(name))
        return [as_operand(unwrap_output(o)) for o in outs]
    return run


def _remat_rule(name, flat, guard=True, policy=None, tape=False):
    """The rule of one call; ``tape``: the caller passed Tensors, and the backward pass
    runs ``flat`` on Tensors under the tape (the policy's graph, traced from shapes, does
    not apply: everything is recomputed)."""
    def jvp(primals, tangents):
        if _holds_tensors(primals):  # (the caller's dual Tensors: Tensor methods work)
            found = dual_jvp(flat, primals, tangents)
            if found is not None:
                return found
        return jvp_of(flat, primals, tangents)

    def fwd(*xs):
        graph = None if policy is None or tape else _graph_of(flat, xs)
        if graph is None:
            return flat(*xs), (xs, None, None)  # keep only the inputs
        saver = _Saver(policy)
        with saver:
            outs = eval_graph(graph, *xs)
        return outs, (xs, graph, saver)

    def bwd(residuals, cts):
        xs, graph, saver = residuals
        if tape:
            return tape_vjp(flat, xs, cts)
        if graph is None:
            return vjp_of(flat, xs, cts)  # recompute the forward pass, then pull back
        return _replayed_vjp(lambda *ys: eval_graph(graph, *ys), xs, cts,
                             _Replayer(saver.steps, saver.saved))

    return CustomRule(f"checkpoint({name})", flat, jvp=jvp, fwd=fwd, bwd=bwd, guard=guard)


def _graph_of(flat, xs):
    """``flat`` traced into a graph (so that the policy sees each operation, plain NumPy
    ones included), or None where it cannot be traced with shapes only (Python control
    flow on values, the eager Tensor's methods): then everything is recomputed, as
    without a policy (and the plain run raises whatever error is the function's own)."""
    if any(is_special(x) for x in xs):
        return None
    try:
        return trace_to_graph(flat, [aval_of(x) for x in xs])
    except Exception:  # noqa: BLE001 - (see above: the plain run follows)
        return None


def _step(prim, args):
    """What identifies an operation across the two runs: its primitive and input shapes."""
    return prim, tuple((getattr(a, "shape", ()), str(getattr(a, "dtype", type(a))))
                       for a in args)


def _saveable(policy, prim, args, params):
    if prim.multiple_results:  # (holds a graph or a custom rule: recomputed whole)
        return False
    return bool(policy(prim, *[aval_of(a) for a in args], **params))


class _Saver(Interpreter):
    """Runs the forward pass, listing every operation (:func:`_step`) and keeping the
    results of those the policy calls saveable (a named value's maker's too: the name is
    the identity)."""

    __slots__ = ("policy", "steps", "saved", "made")
    transform = "checkpoint (saving what the policy keeps)"

    def __init__(self, policy):
        super().__init__()
        self.policy, self.steps, self.saved, self.made = policy, [], {}, {}

    def process(self, prim, args, params):
        out = self.parent.process(prim, args, params)
        k = len(self.steps)
        if _saveable(self.policy, prim, args, params):
            self.saved[k] = out
            maker = self.made.get(id(args[0])) if prim is name_p else None
            if maker is not None:
                self.saved[maker] = args[0]
        if not prim.multiple_results:
            self.made[id(out)] = k
        self.steps.append(_step(prim, args))
        return out


class _Replayer(Interpreter):
    """Below the backward pass's reverse-mode run of the function: the operations the
    forward pass saved give their saved results, as long as the operations come in the
    forward's order; from the first that does not, and once the run is ``done``, every
    operation is computed."""

    __slots__ = ("steps", "saved", "position", "done")
    transform = "checkpoint (taking what the forward pass saved)"

    def __init__(self, steps, saved):
        super().__init__()
        self.steps, self.saved = steps, saved
        self.position, self.done = 0, False

    def process(self, prim, args, params):
        if not self.done:
            k = self.position
            if k < len(self.steps) and self.steps[k] == _step(prim, args):
                self.position = k + 1
                if k in self.saved:
                    return self.saved[k]
            else:  # (another route: nothing more is taken)
                self.done = True
        return self.parent.process(prim, args, params)


def _replayed_vjp(flat, xs, cts, replayer):
    """:func:`vjp_of` with ``replayer`` under the recording of the forward pass."""
    from ..api import vjp
    pos, at = _of_float_inputs(flat, xs)
    grads = [None] * len(xs)
    if not pos:
        return grads
    with replayer:
        _, pullback = vjp(at, *[xs[i] for i in pos])
        replayer.done = True  # (the backward pass computes everything)
        for i, g in zip(pos, pullback(list(cts))):
            grads[i] = g
    return grads


class _CaptureProbe(Interpreter):
    """Runs a function once, on top of the current interpreter, to find the traced
    values it uses that it neither received as inputs nor computed: the values it
    captured from its enclosing scope.  Tracers of finished transforms are left out
    (they are genuine escapes, reported as such)."""

    __slots__ = ("known", "keep", "found")
    transform = "checkpoint (finding captured traced values)"

    def __init__(self, inputs):
        super().__init__()
        self.keep = list(inputs)  # keeps every id in `known` alive, hence unique
        self.known = {id(x) for x in inputs}
        self.found = {}

    def process(self, prim, args, params):
        for a in args:
            if isinstance(a, Tracer) and id(a) not in self.known and a._trace.active:
                self.found.setdefault(id(a), a)
        out = self.parent.process(prim, args, params)
        for o in (out if prim.multiple_results else (out,)):
            self.known.add(id(o))
            self.keep.append(o)
        return out


def _captured_tracers(flat, leaves):
    probe = _CaptureProbe(leaves)
    with no_grad(), probe:  # nothing of the probe run is recorded
        flat(*leaves)
    return list(probe.found.values())


class _Substitute(Interpreter):
    """While current, replaces the captured tracers (by identity) in every operation's
    arguments with the values this call received for them, then hands the operation
    on: ``fun`` runs unchanged, its captured values become ordinary inputs."""

    __slots__ = ("mapping",)
    transform = "checkpoint (captured values as inputs)"

    def __init__(self, mapping):
        super().__init__()
        self.mapping = mapping

    def process(self, prim, args, params):
        get = self.mapping.get
        args = tuple(get(id(a), a) if isinstance(a, Tracer) else a for a in args)
        return self.parent.process(prim, args, params)

