"""``checkpoint``: rematerialisation, as a ``custom_call`` whose reverse pass keeps only
the inputs and recomputes the rest; traced values the function captures are found and
made extra inputs (closure conversion)."""
import functools
import inspect
import sys
from typing import Any, Callable, TypeVar

from .. import tree
from ..core import EscapedTracerError, Interpreter, Tracer
from ..modes import no_grad
from ._call import CallSite, CustomRule, as_operand, jvp_of, vjp_of

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
    (differentiated, as JAX's).  ``policy`` (one of
    :mod:`funcgrad.checkpoint_policies`, JAX's names) and ``prevent_cse`` are accepted for
    JAX's signature and change nothing: funcgrad always saves only the inputs (JAX's
    ``nothing_saveable``); values and derivatives are the same under every policy.

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

        try:
            return site.bind(_remat_rule(name, flat))
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

            return site.bind(_remat_rule(name, converted, guard=False), *captured)

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
    :mod:`funcgrad.checkpoint_policies` (``jax.ad_checkpoint.checkpoint_name``).  funcgrad's
    :func:`checkpoint` saves only its inputs under every policy, so the name changes
    nothing: values and derivatives pass through.

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
    return x


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
        raise TypeError(f"checkpoint({name}): the function uses a Tensor it was not given as "
                        f"an argument (a weight it captures, say), whose derivative would be "
                        f"lost. Pass it as an argument instead: "
                        f"fg.checkpoint(lambda x, w: ...)(x, w).")


def _remat_rule(name, flat, guard=True):
    def jvp(primals, tangents):
        return jvp_of(flat, primals, tangents)

    def fwd(*xs):
        return flat(*xs), xs  # keep only the inputs

    def bwd(xs, cts):
        return vjp_of(flat, xs, cts)  # recompute the forward pass, then pull back

    return CustomRule(f"checkpoint({name})", flat, jvp=jvp, fwd=fwd, bwd=bwd, guard=guard)


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

