"""Graph capture: record primitives applied to abstract values into an IR.

A :class:`Graph` lists its inputs, equations ``outs = primitive[params] ins``
and outputs, like a jaxpr.  Operations that involve none of the capturing
interpreter's tracers are computed right away by its parent, so constants
fold and only the computation that depends on the inputs is recorded (this is
also what lets :func:`funcgrad.linearize` keep just the linear part).
"""
import contextlib
import threading

import numpy as np

from ..core import (TENSOR_PROMOTION, ConcretizationError, Interpreter, Tracer, aval_of,
                    stands_for_tensor, user_frame_summary)

__all__ = ["Graph", "GraphInterpreter", "GraphTracer", "Var", "eval_graph", "EFFECTS",
           "without_effects", "muted_effects", "effects_muted"]

EFFECTS: set = set()
"""Primitives whose equations run for their effect (``debug.callback``'s, which has no
result): the graph passes keep them where nothing reads a result, never merge two, and
run them in place (every other primitive is pure)."""


_muting = threading.local()


def effects_muted():
    """Is this thread running a graph for another reason than the call's (compiled code
    run once to compile its kernels), whose effects must not happen?"""
    return getattr(_muting, "on", False)


@contextlib.contextmanager
def muted_effects():
    """Within: the effects of :data:`EFFECTS`' equations do not happen (on this thread)."""
    previous = effects_muted()
    _muting.on = True
    try:
        yield
    finally:
        _muting.on = previous


def without_effects(graph):
    """``graph`` without its equations of :data:`EFFECTS`: for a graph that recomputes
    what an earlier run has done (the forward step a backward pass evaluates again),
    whose effects happened then."""
    if not any(e.prim in EFFECTS for e in graph.eqns):
        return graph
    return Graph(list(graph.invars), [e for e in graph.eqns if e.prim not in EFFECTS],
                 list(graph.outvars))


class Var:
    """A value in a graph, known by its abstract value."""

    __slots__ = ("aval",)

    def __init__(self, aval):
        self.aval = aval


class Eqn:
    __slots__ = ("prim", "inputs", "params", "outvars")

    def __init__(self, prim, inputs, params, outvars):
        self.prim = prim
        self.inputs = inputs
        self.params = params
        self.outvars = outvars


class GraphTracer(Tracer):
    # ``_tensor``: it stands for an eager Tensor (core.stands_for_tensor), which the
    # graph, holding no values, cannot tell otherwise: an input made for a Tensor, or a
    # result computed from one.
    __slots__ = ("aval", "graph_var", "_tensor")

    def __init__(self, trace, var, tensor=False):
        self._trace = trace
        self.graph_var = var
        self.aval = var.aval
        self._tensor = tensor

    @property
    def shape(self):
        return self.aval.shape

    @property
    def dtype(self):
        return self.aval.dtype

    @property
    def weak(self):
        return self.aval.weak

    def _concrete(self):
        self._check_alive()
        raise ConcretizationError(
            f"{self._trace.transform} traces with abstract values ({self.aval.str_short()}), "
            f"but a concrete value was needed (a Python `if`/`while` on it, float(), int(), "
            f"bool(), .item() or a NumPy conversion) at\n  {user_frame_summary()}\n"
            "Mark the argument static (jit(f, static_argnums=...)), or use a traced "
            "alternative: fg.numpy.where, fg.lax.cond, fg.lax.fori_loop, fg.lax.while_loop.")


class GraphInterpreter(Interpreter):
    __slots__ = ("eqns",)
    transform = "make_graph"
    eager = False

    def __init__(self, parent=None):
        super().__init__(parent)
        self.eqns = []

    def new_input(self, aval, tensor=False):
        """A tracer for an input of abstract value ``aval``; ``tensor``: it stands for an
        eager Tensor (see :func:`~funcgrad.core.stands_for_tensor`)."""
        return GraphTracer(self, Var(aval), tensor)

    def process(self, prim, args, params):
        own = tensor = False
        inputs = list(args)
        avals = list(args)
        for i, a in enumerate(args):
            if type(a) is GraphTracer and a._trace is self:
                inputs[i] = a.graph_var
                avals[i] = a.aval
                own = True
                tensor = tensor or a._tensor
            elif not isinstance(a, (bool, int, float, complex)):
                avals[i] = aval_of(a)
                tensor = tensor or stands_for_tensor(a)  # (a Tensor closed over)
        if not own:
            return self.parent.process(prim, args, params)
        if tensor and prim.elementwise is not None and len(args) == 2 and TENSOR_PROMOTION:
            cast = TENSOR_PROMOTION[0](prim, *args)  # (PyTorch's dtype, as eagerly)
            if cast[0] is not args[0] or cast[1] is not args[1]:
                return self.process(prim, cast, params)
        out_aval = prim.abstract_eval(*avals, **params)
        if prim.multiple_results:
            outvars = [Var(a) for a in out_aval]
            self.eqns.append(Eqn(prim, inputs, params, outvars))
            return [GraphTracer(self, v, tensor) for v in outvars]
        var = Var(out_aval)
        self.eqns.append(Eqn(prim, inputs, params, [var]))
        return GraphTracer(self, var, tensor)


class Graph:
    """A captured computation: ``invars``, ``eqns`` and ``outvars``.

    ``str(graph)`` is a readable listing; in a notebook it renders as a picture.
    Outputs that are constants (do not depend on the inputs) appear as values.

    >>> import numpy as np, funcgrad as fg
    >>> graph = fg.make_graph(lambda x, y: np.tanh(x) @ y)(np.ones(2), np.ones(2))
    >>> [str(eqn.prim) for eqn in graph.eqns], len(graph.invars)
    (['tanh', 'matmul'], 2)
    """

    def __init__(self, invars, eqns, outvars):
        self.invars = invars
        self.eqns = eqns
        self.outvars = outvars

    def __call__(self, *args):
        return eval_graph(self, *args)

    def _names(self):
        names = {}
        for v in self.invars:
            names[id(v)] = _name(len(names))
        for eqn in self.eqns:
            for v in eqn.outvars:
                names[id(v)] = _name(len(names))
        return names

    def __str__(self):
        names = self._names()
        consts = {}

        def show(x):
            if isinstance(x, Var):
                return names.get(id(x), "?")
            if isinstance(x, (bool, int, float, complex)) or np.ndim(x) == 0:
                return repr(x.item() if hasattr(x, "item") else x)
            key = id(x)
            if key not in consts:
                consts[key] = (f"c{len(consts)}", x)
            return consts[key][0]

        lines = []
        for eqn in self.eqns:
            outs = " ".join(f"{names[id(v)]}:{v.aval.str_short()}" for v in eqn.outvars)
            params = ", ".join(f"{k}={_show_param(v)}" for k, v in eqn.params.items())
            ins = " ".join(show(x) for x in eqn.inputs)
            target = f"{outs} = " if outs else ""  # (none: an equation for its effect)
            lines.append(f"    {target}{eqn.prim.name}{'[' + params + ']' if params else ''} "
                         f"{ins}")
        outs = ", ".join(show(v) for v in self.outvars)
        ins = ", ".join(f"{names[id(v)]}:{v.aval.str_short()}" for v in self.invars)
        head = "{ lambda "
        if consts:
            head += ", ".join(f"{n}:{aval_of(c).str_short()}" for n, c in consts.values())
        head += f" ; {ins}. let"
        return "\n".join([head] + lines + [f"  in ({outs}) }}"])

    __repr__ = __str__

    @staticmethod
    def show_param(value):
        """A parameter as a listing shows it."""
        return _show_param(value)

    # --- pictures (owned by the tools: implemented in funcgrad/graphviz.py) ----------------

    def to_dot(self, name="funcgrad"):
        """Graphviz DOT text of this graph (see :func:`funcgrad.graphviz.to_dot`).

        >>> import numpy as np, funcgrad as fg
        >>> fg.make_graph(np.sin)(np.ones(2)).to_dot().splitlines()[-3:]
        ['  in0 -> e0;', '  e0 -> out0;', '}']
        """
        from ..graphviz import to_dot
        return to_dot(self, name)

    def to_svg(self, engine="auto"):
        """An SVG picture: Graphviz if installed, else a built-in layout
        (see :func:`funcgrad.graphviz.to_svg`).

        >>> import numpy as np, funcgrad as fg
        >>> svg = fg.make_graph(np.sin)(np.ones(2)).to_svg(engine="python")
        >>> svg.startswith("<svg") or svg.startswith("<?xml")
        True
        """
        from ..graphviz import to_svg
        return to_svg(self, engine)

    def _repr_svg_(self):
        from ..graphviz import repr_svg
        return repr_svg(self)

    def _repr_html_(self):
        from ..graphviz import repr_html
        return repr_html(self)


def _name(i):
    letters = "abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        s = letters[i % 26] + s
        i = i // 26 - 1
        if i < 0:
            return s


def _show_param(v):
    if isinstance(v, np.dtype):
        return v.name
    if isinstance(v, Graph):
        return "{...}"
    return repr(v)


def eval_graph(graph, *args):
    """Run ``graph`` on ``args`` by binding each equation (differentiable)."""
    if len(args) != len(graph.invars):
        raise TypeError(f"the graph takes {len(graph.invars)} inputs, got {len(args)}")
    env = {id(v): a for v, a in zip(graph.invars, args)}

    def read(x):
        return env[id(x)] if isinstance(x, Var) else x

    for eqn in graph.eqns:
        out = eqn.prim.bind(*[read(x) for x in eqn.inputs], **eqn.params)
        if eqn.prim.multiple_results:
            for v, o in zip(eqn.outvars, out):
                env[id(v)] = o
        else:
            env[id(eqn.outvars[0])] = out
    return [read(v) for v in graph.outvars]


def trace_to_graph(fun, in_avals, tensors=()):
    """Trace ``fun(*tracers)`` (flat list in, flat list out) into a Graph; the inputs at
    the positions in ``tensors`` stand for eager Tensors (see
    :func:`~funcgrad.core.stands_for_tensor`)."""
    interp = GraphInterpreter()
    with interp:
        tracers = [interp.new_input(a, i in tensors) for i, a in enumerate(in_avals)]
        outs = fun(*tracers)
    outvars = [o.graph_var if type(o) is GraphTracer and o._trace is interp else o for o in outs]
    return Graph([t.graph_var for t in tracers], interp.eqns, outvars)
