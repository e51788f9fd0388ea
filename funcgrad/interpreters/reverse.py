"""Reverse mode: a tape of nodes, walked backwards with VJP rules.

While the user's function runs, each primitive applied to one of this
interpreter's tracers is computed by the parent interpreter and recorded as a
:class:`Node` on the tape (creation order is a topological order).  The
backward pass walks the tape from the end, calls each primitive's ``vjp``
rule with the node's residuals (its inputs and output) and accumulates
cotangents per node.  ``None`` is a symbolic zero cotangent: nodes that
receive none are skipped, so absent derivatives cost nothing and
``0 * inf`` never reaches a gradient that does not depend on it.

VJP rules are written with differentiable primitives and run under whatever
interpreter is current when the backward pass runs, so reverse-over-reverse,
forward-over-reverse and ``vmap`` of a ``vjp_fn`` all work.
"""
from ..core import Interpreter, Tracer, _state, concrete
from ..primitives.elementwise import add as add_cotangents

__all__ = ["ReverseInterpreter", "ReverseTracer", "Node", "backward_pass"]


class Node:
    """One recorded operation: residuals for its VJP rule and its inputs' nodes."""

    __slots__ = ("prim", "args", "params", "out", "parents", "needs")

    def __init__(self, prim, args, params, out, parents, needs):
        self.prim = prim
        self.args = args
        self.params = params
        self.out = out
        self.parents = parents  # ((argument index, node), ...)
        self.needs = needs      # per argument: does it want a cotangent?


class Leaf:
    """An input of the differentiated function; collects its gradient."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


class Select:
    """Output ``index`` of a multiple-result node."""

    __slots__ = ("node", "index")

    def __init__(self, node, index):
        self.node = node
        self.index = index


class ReverseTracer(Tracer):
    __slots__ = ("value", "node")

    def __init__(self, trace, value, node):
        self._trace = trace
        self.value = value
        self.node = node

    @property
    def shape(self):
        return self.value.shape

    @property
    def dtype(self):
        return self.value.dtype

    def _concrete(self):
        self._check_alive()
        return concrete(self.value)


class ReverseInterpreter(Interpreter):
    __slots__ = ("tape",)
    transform = "grad/vjp (reverse mode)"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.tape = []

    def new_input(self, value, index):
        return ReverseTracer(self, value, Leaf(index))

    def process(self, prim, args, params):
        vals = list(args)
        parents = []
        needs = [False] * len(args)
        for i, a in enumerate(args):
            if type(a) is ReverseTracer and a._trace is self:
                vals[i] = a.value
                parents.append((i, a.node))
                needs[i] = True
        if not parents:
            return self.parent.process(prim, args, params)
        out = self.parent.process(prim, vals, params)
        if not prim.differentiable or not _state.grad_enabled:
            return out
        node = Node(prim, vals, params, out, parents, needs)
        tape = self.tape
        tape.append(node)
        if prim.multiple_results:
            outs = []
            for k, o in enumerate(out):
                sel = Select(node, k)
                tape.append(sel)
                outs.append(ReverseTracer(self, o, sel))
            return outs
        return ReverseTracer(self, out, node)


def backward_pass(tape, seeds, leaves, free=False):
    """Propagate cotangents from ``seeds`` ({node: cotangent}) back to ``leaves``.

    Returns the cotangent of each leaf (``None`` where it received none).  With
    ``free=True`` residuals are released as soon as their node is processed, so
    memory falls as the pass proceeds (used by ``grad``, which runs it once).
    """
    cts = dict(seeds)
    pop = cts.pop
    for i in range(len(tape) - 1, -1, -1):
        node = tape[i]
        g = pop(node, None)
        if free:
            tape[i] = None
        if g is None:
            continue
        if type(node) is Select:
            parent = node.node
            slots = cts.get(parent)
            if slots is None:
                slots = cts[parent] = [None] * len(parent.out)
            prev = slots[node.index]
            slots[node.index] = g if prev is None else add_cotangents(prev, g)
            continue
        if node.prim.multiple_results:
            g = tuple(g)
        contributions = node.prim.vjp(node.needs, g, node.out, *node.args, **node.params)
        for i, parent in node.parents:
            c = contributions[i]
            if c is None:
                continue
            prev = cts.get(parent)
            cts[parent] = c if prev is None else add_cotangents(prev, c)
    return [cts.get(leaf) for leaf in leaves]
