"""Forward mode: tracers are dual numbers ``(primal, tangent)``.

Each primitive's ``jvp`` rule maps primals and tangents to the output primal
and tangent.  A ``None`` tangent is a symbolic zero: an operation whose
inputs all carry zero tangents is just computed by the parent, and its result
is a constant to this interpreter.
"""
from ..core import Interpreter, Tracer, _state, concrete

__all__ = ["JVPInterpreter", "JVPTracer"]


class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")

    def __init__(self, trace, primal, tangent):
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def shape(self):
        return self.primal.shape

    @property
    def dtype(self):
        return self.primal.dtype

    def _concrete(self):
        self._check_alive()
        return concrete(self.primal)


class JVPInterpreter(Interpreter):
    __slots__ = ()
    transform = "jvp (forward mode)"

    def process(self, prim, args, params):
        primals = list(args)
        tangents = [None] * len(args)
        own = False
        for i, a in enumerate(args):
            if type(a) is JVPTracer and a._trace is self:
                primals[i] = a.primal
                tangents[i] = a.tangent
                own = True
        if not own or not prim.differentiable:
            return self.parent.process(prim, primals, params)
        state = _state
        prev, state.interpreter = state.interpreter, self.parent
        try:
            out, tangent_out = prim.jvp(primals, tangents, **params)
        finally:
            state.interpreter = prev
        if prim.multiple_results:
            return [o if t is None else JVPTracer(self, o, t) for o, t in zip(out, tangent_out)]
        if tangent_out is None:
            return out
        return JVPTracer(self, out, tangent_out)

    def lift(self, value, tangent):
        return JVPTracer(self, value, tangent)
