"""Forward mode: tracers are dual numbers ``(primal, tangent)``.

Each primitive's ``jvp`` rule maps primals and tangents to the output primal
and tangent.  A ``None`` tangent is a symbolic zero: an operation whose
inputs all carry zero tangents is just computed by the parent, and its result
is a constant to this interpreter.

Deferred tangents.  Under forward-over-reverse (``hessian``, ``jacfwd(jacrev(f))``)
the forward pass of ``f`` runs on dual numbers whose values the reverse pass keeps
as residuals, but only some of their tangents are ever read: a VJP rule that
multiplies by a residual reads its tangent, while the tangent of ``f``'s own output
(and of everything only it depends on) is never needed, as only the gradient's
tangent is.  A ``JVPInterpreter(defer=True)`` therefore computes, for operations
recorded by a reverse-mode child (``process_deferred``), the primal at once and the
tangent only when something reads it (``_Deferred``): each batched tangent pass
nobody reads is skipped.  Only primitives with a ``jvp_tangent(primals, tangents,
out, **params)`` rule (the tangent half of their ``jvp``) defer; reading a
deferred tangent computes it, with its inputs' first (iteratively, in creation
order), under the interpreter and the gradient mode that were current when the
operation ran, so the result is the one eager evaluation gives.
"""
from ..core import (Interpreter, Tracer, _special_classes, _state, concrete, dtype_of, is_weak,
                    run_under)

__all__ = ["JVPInterpreter", "JVPTracer"]


class _Deferred:
    """The tangent of one operation, not yet computed."""

    __slots__ = ("interp", "prim", "primals", "tangents", "params", "out", "off_tag",
                 "done", "result")

    def __init__(self, interp, prim, primals, tangents, params, out, off_tag):
        self.interp = interp
        self.prim = prim
        self.primals = primals
        self.tangents = tangents
        self.params = params
        self.out = out
        self.off_tag = off_tag
        self.done = False
        self.result = None


def _compute(d):
    tangents = [t.result if type(t) is _Deferred else t for t in d.tangents]
    state = _state
    restore = state.recording != 1 or state.grad_off_tag != d.off_tag
    if restore:  # compute under the gradient mode the operation ran in (see above)
        saved = (state._grad_enabled, state.grad_off_tag, state.recording, state._inference)
        state._grad_enabled, state.grad_off_tag, state.recording, state._inference = (
            True, d.off_tag, 1, False)
    try:
        d.result = run_under(d.interp.parent, d.prim.jvp_tangent, d.primals, tangents, d.out,
                             **d.params)
    finally:
        if restore:
            state._grad_enabled, state.grad_off_tag, state.recording, state._inference = saved
    d.done = True
    d.primals = d.tangents = d.out = d.params = None  # release the residuals


def force(d):
    """The tangent ``d`` stands for, computing it (and the deferred tangents it needs,
    deepest first, without recursion) on first use."""
    if not d.done:
        stack = [d]
        while stack:
            top = stack[-1]
            if top.done:
                stack.pop()
                continue
            pending = [t for t in top.tangents if type(t) is _Deferred and not t.done]
            if pending:
                stack.extend(pending)
                continue
            stack.pop()
            _compute(top)
    return d.result


class JVPTracer(Tracer):
    __slots__ = ("primal", "_tangent")

    def __init__(self, trace, primal, tangent):
        self._trace = trace
        self.primal = primal
        self._tangent = tangent

    @property
    def tangent(self):
        t = self._tangent
        if type(t) is _Deferred:
            t = self._tangent = force(t)
        return t

    @tangent.setter
    def tangent(self, value):
        self._tangent = value

    # A Python number passed as an argument stays one (weakly typed, see core.is_weak).
    @property
    def shape(self):
        try:
            return self.primal.shape
        except AttributeError:  # (a Python number)
            return ()

    @property
    def dtype(self):
        try:
            return self.primal.dtype
        except AttributeError:
            return dtype_of(self.primal)

    @property
    def weak(self):
        return is_weak(self.primal)

    def _carried(self):
        return self.primal

    def _concrete(self):
        self._check_alive()
        return concrete(self.primal)


class JVPInterpreter(Interpreter):
    __slots__ = ("defer",)
    transform = "jvp (forward mode)"

    def __init__(self, parent=None, defer=False):
        super().__init__(parent)
        self.defer = defer

    def process(self, prim, args, params):
        if len(args) == 1:  # the common case, unrolled: one argument, one of ours or none
            a, = args
            if type(a) is not JVPTracer or a._trace is not self:
                return self.parent.process(prim, args, params)
            t = a._tangent
            if type(t) is _Deferred:
                t = a._tangent = force(t)
            primals, tangents, own = [a.primal], [t], True
        else:
            primals = list(args)
            tangents = [None] * len(args)
            own = False
            for i, a in enumerate(args):
                if type(a) is JVPTracer and a._trace is self:
                    primals[i] = a.primal
                    t = a._tangent
                    if type(t) is _Deferred:
                        t = a._tangent = force(t)
                    tangents[i] = t
                    own = True
        if not own or not prim.differentiable:
            return self.parent.process(prim, primals, params)
        out, tangent_out = run_under(self.parent, prim.jvp, primals, tangents, **params)
        if prim.multiple_results:
            return [o if t is None else JVPTracer(self, o, t) for o, t in zip(out, tangent_out)]
        if tangent_out is None:
            return out
        return JVPTracer(self, out, tangent_out)

    def process_deferred(self, prim, args, params):
        """``process`` for an operation a reverse-mode child records: with ``defer``,
        the tangent is computed when first read (see the module docstring)."""
        state = _state
        if (not self.defer or prim.jvp_tangent is None or prim.multiple_results
                or state.recording != 1 or state._inference):
            return self.process(prim, args, params)
        primals = list(args)
        tangents = [None] * len(args)
        own = False
        plain = True  # no tracer or device array among the primals
        for i, a in enumerate(args):
            if type(a) is JVPTracer and a._trace is self:
                t = tangents[i] = a._tangent
                primals[i] = a = a.primal
                if t is not None:
                    own = True
            if type(a) in _special_classes:
                plain = False
        parent = self.parent
        if not own or not prim.differentiable:
            return parent.process(prim, primals, params)
        if plain:  # no interpreter owns a plain value: each would hand it down to the root
            out = prim.impl(*primals, **params)
        else:
            out = run_under(parent, parent.process, prim, primals, params)
        return JVPTracer(self, out, _Deferred(self, prim, primals, tangents, params, out,
                                              state.grad_off_tag))

    def lift(self, value, tangent):
        return JVPTracer(self, value, tangent)
