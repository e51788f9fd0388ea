"""Keeping custom rules away from traced values they were not given.

A custom rule runs below the transform that called it, so a traced value it captured
from the enclosing function (or received in a nondiff_argnums / non-array argument) is
out of reach there: handed on, it would reach an interpreter that does not own it and be
taken for a constant -- an error at best, a silently wrong value under vmap.  This module
turns that into an error that names the rule and the rewrite.
"""
import contextlib

from ..core import EscapedTracerError, Interpreter, Tracer, aval_of

__all__ = ["CapturedTracerError", "guarded", "explain_rule_errors", "StagedCaptures"]


def _ids_down_from(interp):
    """The ids of ``interp`` and of the interpreters below it, down to the root."""
    ids = set()
    while interp is not None:
        ids.add(id(interp))
        interp = interp.parent
    return ids


class CapturedTracerError(EscapedTracerError):
    """A custom rule used a traced value it captured instead of receiving.  ``captured``
    lists those values where they are known (see :class:`StagedCaptures`)."""

    captured: list = []


class _Guard(Interpreter):
    """Current while a user's rule function runs.

    The rule runs below the transform that called it (its parent interpreter and
    those under it: the *chain*).  A tracer of a transform that is still active but
    not in that chain can only have been captured from the enclosing scope (or
    smuggled in through a nondiff/non-array argument); the guard raises
    :class:`CapturedTracerError` for it, which ``checkpoint`` answers by making the
    captured values explicit inputs.
    """

    __slots__ = ("chain", "name")
    transform = "a custom rule"

    def __init__(self, name):
        super().__init__()
        self.chain = _ids_down_from(self.parent)
        self.name = name

    def process(self, prim, args, params):
        chain = self.chain
        for a in args:
            if isinstance(a, Tracer) and id(a._trace) not in chain and a._trace.active:
                raise CapturedTracerError(
                    f"{self.name} used a value traced by an enclosing {a._trace.transform} "
                    f"(interpreter #{a._trace.tag}) that it was not given as an argument: a "
                    f"variable captured from the enclosing function, or a traced value passed "
                    f"in a nondiff_argnums / non-array argument. Custom rules (custom_jvp, "
                    f"custom_vjp, Function) run outside the transforms that called them, so "
                    f"such a value is out of reach there. Pass it as a regular (array) "
                    f"argument, or fg.stop_gradient it if no derivative should flow through "
                    f"it. (fg.checkpoint handles captured values by itself.)")
        return self.parent.process(prim, args, params)


class StagedCaptures(Interpreter):
    """Current while a custom rule is traced into a graph of its own (``custom_call``'s
    shape rule, under ``jit`` or ``make_graph``), just above that graph's interpreter.

    The graph being built around the call stores the rule and runs it later, on other
    values; a tracer of that graph (or of any interpreter below it) which the rule
    captured would then be used after its transform returned.  Such tracers can only
    have been captured (the rule's inputs are the inner graph's own), so each is
    collected and replaced, for this trace only, by a new input of the inner graph:
    nothing is recorded into the outer graph, and :meth:`check` then raises
    :class:`CapturedTracerError` listing them (``fg.checkpoint`` makes them inputs).
    """

    __slots__ = ("graph", "outside", "found", "name")
    transform = "a custom rule (finding captured traced values)"

    def __init__(self, graph, name):
        super().__init__()
        self.graph = graph
        self.name = name
        self.outside = _ids_down_from(graph.parent)
        self.found = {}

    def process(self, prim, args, params):
        outside = self.outside
        if any(isinstance(a, Tracer) and id(a._trace) in outside and a._trace.active
               for a in args):
            args = tuple(self._stand_in(a) for a in args)
        return self.parent.process(prim, args, params)

    def _stand_in(self, a):
        if not (isinstance(a, Tracer) and id(a._trace) in self.outside and a._trace.active):
            return a
        entry = self.found.get(id(a))
        if entry is None:
            entry = self.found[id(a)] = (a, self.graph.new_input(aval_of(a)))
        return entry[1]

    def check(self):
        """Raise :class:`CapturedTracerError` if the rule used captured tracers."""
        if self.found:
            first = next(iter(self.found.values()))[0]
            error = CapturedTracerError(
                f"{self.name} used a value traced by the enclosing {first._trace.transform} "
                f"(interpreter #{first._trace.tag}) that it was not given as an argument: a "
                f"variable captured from the enclosing function, or a traced value passed in "
                f"a nondiff_argnums / non-array argument. The function is staged into a "
                f"graph that runs later, when that value no longer exists. Pass it as a "
                f"regular (array) argument, or fg.stop_gradient it if no derivative should "
                f"flow through it. (fg.checkpoint handles captured values by itself.)")
            error.captured = [t for t, _ in self.found.values()]
            raise error


def guarded(fn, name):
    """``fn`` running under a :class:`_Guard` named ``name`` (None stays None)."""
    if fn is None:
        return None

    def run(*args):
        with _Guard(name):
            return fn(*args)
    return run


_EXPLAINED = "_funcgrad_custom_rule_note"


@contextlib.contextmanager
def explain_rule_errors(name, args=()):
    """Explain an EscapedTracerError raised while the custom rule ``name`` runs on
    ``args``: a traced value the rule used without receiving it cannot be seen there and
    reaches the root as an "escaped" tracer."""
    try:
        yield
    except EscapedTracerError as e:
        if isinstance(e, CapturedTracerError) or getattr(e, _EXPLAINED, False) or any(
                isinstance(a, Tracer) and not a._trace.active and not a._trace.outlives
                for a in args):
            raise  # already explained, or a genuinely escaped argument
        err = EscapedTracerError(
            f"{e}\n\nThis happened while running the custom rule of {name}. Custom rules "
            f"(custom_jvp, custom_vjp, Function) run outside the transforms that called them, "
            f"so a traced value they use without receiving it as a differentiable argument -- "
            f"a variable captured from the enclosing function, or a traced value passed in a "
            f"nondiff_argnums / non-array argument -- is out of reach there. Pass such values "
            f"as regular (array) arguments, or fg.stop_gradient them if no derivative should "
            f"flow through them. (fg.checkpoint handles captured values by itself.)")
        setattr(err, _EXPLAINED, True)
        raise err from None
