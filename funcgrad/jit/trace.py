"""Abstract tracing for ``jit`` and ``fg.lax``: a function of flat arrays to a Graph.

Like :func:`funcgrad.interpreters.graph.trace_to_graph`, with the interpreter named after
the transform that traces, so that the error for a value-dependent Python ``if`` names
it ("jit traces with abstract values ... at File ..., line N").
"""
from ..interpreters.graph import Graph, GraphInterpreter, GraphTracer

__all__ = ["trace_flat"]


class _NamedGraphInterpreter(GraphInterpreter):
    __slots__ = ("transform",)

    def __init__(self, transform):
        super().__init__()
        self.transform = transform


def trace_flat(fun, in_avals, transform="jit", tensors=()):
    """Trace ``fun(*tracers) -> list`` on abstract inputs ``in_avals`` into a Graph;
    the inputs at the positions in ``tensors`` stand for eager Tensors (and so have
    their methods and promotion: see :func:`funcgrad.core.stands_for_tensor`).

    Outputs that are not this trace's tracers (constants, or tracers of an enclosing
    transform) stay in ``outvars`` as they are; see :func:`passes.closure_convert`.
    """
    interp = _NamedGraphInterpreter(transform)
    with interp:
        tracers = [interp.new_input(a, i in tensors) for i, a in enumerate(in_avals)]
        outs = list(fun(*tracers))
    outvars = [o.graph_var if type(o) is GraphTracer and o._trace is interp else o for o in outs]
    return Graph([t.graph_var for t in tracers], interp.eqns, outvars)
