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
import sys
import sysconfig

from numpy import add as _np_add
from numpy import ndarray

from .. import instruments
from ..core import ROOT, Interpreter, Tracer, _special_classes, _state, concrete, run_under
from ..primitives.elementwise import add as _add
from .forward import JVPInterpreter


def add_cotangents(a, b):
    """Sum two cotangents of one value (plain arrays skip the dispatch)."""
    if type(a) is ndarray and type(b) is ndarray:
        return a + b
    return _add(a, b)


# Accumulating a cotangent in place (``prev += c``) saves an 8n-byte allocation and a pass
# when ``prev`` is an array only the backward pass can see.  CPython counts every
# reference, so ``getrefcount(prev) == 3`` (the cotangent table, the local ``prev`` and
# the argument of getrefcount) proves that nothing else (a user, a saved residual, a
# view, another table entry) holds it; owning its memory proves no view shares it.  This
# is NumPy's own test for reusing temporaries.  Builds that count references differently
# (PyPy, free-threading, 3.14's borrowed stack references) keep the out-of-place sum.
_INPLACE = (sys.implementation.name == "cpython" and sys.version_info < (3, 14)
            and not sysconfig.get_config_var("Py_GIL_DISABLED"))
_getrefcount = sys.getrefcount


def _refs_in(contributions, prev, i):
    """References to ``prev`` in this rule's results (``x * x`` gives both cotangents to
    one node, so the first is already the table's entry when the second is added), or
    -1 when one is still to be read: then it must not change."""
    n = 0
    for j, o in enumerate(contributions):
        if o is prev:
            if j > i:
                return -1
            n += 1
    return n


def _sole_array(prev, c):
    """True when ``prev += c`` may run in place (see ``_INPLACE``); ``prev`` is passed
    on, so the caller's count is one more than the table's and local's."""
    return (type(c) is ndarray and prev.shape == c.shape and prev.dtype == c.dtype
            and prev.flags.owndata and prev.flags.writeable)

__all__ = ["ReverseInterpreter", "ReverseTracer", "backward_pass"]


class Node:
    """A recorded operation with several outputs; its outputs are :data:`SELECT` tracers."""

    __slots__ = ("prim", "args", "params", "value", "parents", "needs", "meta")

    def __init__(self, prim, args, params, value, parents, needs):
        self.prim = prim
        self.args = args
        self.params = params
        self.value = value
        self.parents = parents
        self.needs = needs
        self.meta = None


SELECT = object()  # the "primitive" of output k of a multiple-result Node

class ReverseTracer(Tracer):
    """A value and, being its own tape node, what produced it.

    ``prim`` is None for an input; otherwise ``args``/``params``/``value`` are the
    residuals the VJP rule needs and ``parents`` pairs argument positions with the
    tracers (nodes) they came from.
    """

    __slots__ = ("value", "prim", "args", "params", "parents", "needs", "meta")

    def __init__(self, trace, value, prim=None, args=(), params=None, parents=(), needs=()):
        self._trace = trace
        self.value = value
        self.prim = prim
        self.args = args
        self.params = params
        self.parents = parents
        self.needs = needs
        self.meta = None  # what debugging tools keep with the node (funcgrad.instruments)

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

    def new_input(self, value):
        return ReverseTracer(self, value)

    def process(self, prim, args, params):
        # One- and two-argument primitives are nearly all of them: unrolled for speed.
        n = len(args)
        if n == 2:
            a, b = args
            own_a = type(a) is ReverseTracer and a._trace is self
            own_b = type(b) is ReverseTracer and b._trace is self
            if own_a:
                a = a.value
                if own_b:
                    b = b.value
                    parents, needs = ((0, args[0]), (1, args[1])), _BOTH
                else:
                    parents, needs = ((0, args[0]),), _FIRST
            elif own_b:
                b = b.value
                parents, needs = ((1, args[1]),), _SECOND
            else:
                return self.parent.process(prim, args, params)
            vals = (a, b)
            plain = type(a) not in _special_classes and type(b) not in _special_classes
        elif n == 1:
            a, = args
            if type(a) is not ReverseTracer or a._trace is not self:
                return self.parent.process(prim, args, params)
            vals = (a.value,)
            parents, needs = ((0, a),), _FIRST1
            plain = type(vals[0]) not in _special_classes
        else:
            vals, parents, needs, plain = self._unwrap(args)
            if not parents:
                return self.parent.process(prim, args, params)
        if prim.multiple_results:
            return self._process_multiple(prim, vals, params, parents, needs)
        parent = self.parent
        if plain and parent is ROOT:  # the root would only re-check the arguments
            out = prim.impl(*vals, **params) if params else prim.impl(*vals)
        elif type(parent) is JVPInterpreter:  # forward-over-reverse: tangents on demand
            out = parent.process_deferred(prim, vals, params)
        else:
            out = parent.process(prim, vals, params)
        recording = _state.recording
        if not prim.differentiable or (recording == 0 and self.tag < _state.grad_off_tag):
            return out
        if not params:
            params = None
        tracer = ReverseTracer(self, out, prim, vals, params, parents, needs)
        if recording == 2:
            instruments.record(tracer)
        self.tape.append(tracer)
        return tracer

    def _process_multiple(self, prim, vals, params, parents, needs):
        """Several outputs, each a SELECT tracer of one Node.  A primitive with a
        ``reverse_fwd`` (custom rules, checkpoint) computes its outputs and the
        residuals its VJP needs in one call, which are kept in the node's params."""
        recording = _state.recording
        if not prim.differentiable or (recording == 0 and self.tag < _state.grad_off_tag):
            return self.parent.process(prim, vals, params)
        reverse_fwd = prim.reverse_fwd
        if reverse_fwd is not None:
            out, residuals = run_under(self.parent, reverse_fwd, vals, params)
            params = dict(params, residuals=residuals)
        else:
            out = self.parent.process(prim, vals, params)
        node = Node(prim, vals, params, out, parents, needs)
        if recording == 2:
            instruments.record(node)
        self.tape.append(node)
        outs = []
        for k, o in enumerate(out):
            sel = ReverseTracer(self, o, SELECT, (k,), None, ((0, node),))
            self.tape.append(sel)
            outs.append(sel)
        return outs

    def _unwrap(self, args):
        vals = list(args)
        parents = []
        plain = True
        for i, a in enumerate(args):
            if type(a) is ReverseTracer and a._trace is self:
                vals[i] = a = a.value
                parents.append((i, args[i]))
            if type(a) in _special_classes:
                plain = False
        owned = {i for i, _ in parents}
        return vals, parents, tuple(i in owned for i in range(len(args))), plain


_FIRST1 = (True,)
_FIRST, _SECOND, _BOTH = (True, False), (False, True), (True, True)


def run_vjp(node, g, value, args):
    """Call ``node``'s VJP rule on cotangent ``g`` with residuals ``value``/``args``."""
    params = node.params or {}
    return node.prim.vjp(node.needs, g, value, *args, **params)


def backward_pass(tape, seeds, inputs, free=False):
    """Propagate cotangents from ``seeds`` ([(node, cotangent)]) back to ``inputs``.

    Returns the cotangent of each input (``None`` where it received none).  With
    ``free=True`` the tape is consumed: each node's residuals are released as
    soon as it is processed, so memory falls as the pass proceeds (``grad`` runs
    its pass once).
    """
    # ``vjp_into`` shortcuts are for eager evaluation: a program being recorded for a
    # compiler keeps the plain rules (a padded cotangent and a sum fuse into its loops).
    interp = _state.interpreter
    into_ok = True
    while interp is not None:
        if not interp.eager:
            into_ok = False
            break
        interp = interp.parent
    cts = {}
    for node, ct in seeds:
        key = id(node)
        cts[key] = ct if key not in cts else add_cotangents(cts[key], ct)
    pop = cts.pop
    get = cts.get
    remaining = len(tape)
    while remaining:
        remaining -= 1
        node = tape.pop() if free else tape[remaining]
        g = pop(id(node), None)
        if g is None:
            continue
        prim = node.prim
        if prim is SELECT:
            parent = node.parents[0][1]
            slots = get(id(parent))
            if slots is None:
                slots = cts[id(parent)] = [None] * len(parent.value)
            k = node.args[0]
            slots[k] = g if slots[k] is None else add_cotangents(slots[k], g)
            continue
        if prim.multiple_results:
            g = tuple(g)
        params = node.params
        parents = node.parents
        if into_ok and len(parents) == 1 and node.meta is None:
            # A rule with ``vjp_into`` adds its contribution straight into the parent's
            # cotangent so far (gather: one scatter-add instead of a padded copy plus a
            # sum), in place when the backward pass holds the only reference to it.
            i, parent = parents[0]
            key = id(parent)
            prev = get(key)
            if prev is not None and i == 0:
                into = prim.vjp_into
                if into is not None:
                    contributions = c = None  # the previous node's, if they hold prev
                    owned = (_INPLACE and type(prev) is ndarray and _getrefcount(prev) == 3
                             and prev.flags.owndata and prev.flags.writeable)
                    cts[key] = into(prev, owned, g, node.value, *node.args, **(params or {}))
                    continue
        if node.meta is not None:  # a debugging tool watches this node: it runs the rule
            contributions = instruments.backward(node, g, run_vjp)
        elif params is None:
            contributions = prim.vjp(node.needs, g, node.value, *node.args)
        else:
            contributions = prim.vjp(node.needs, g, node.value, *node.args, **params)
        for i, parent in parents:
            c = contributions[i]
            if c is None:
                continue
            key = id(parent)
            prev = get(key)
            if prev is None:
                cts[key] = c
            elif (_INPLACE and type(prev) is ndarray and c is not prev
                  and _getrefcount(prev) == 3 + _refs_in(contributions, prev, i)
                  and _sole_array(prev, c)):
                _np_add(prev, c, out=prev)
            else:
                cts[key] = add_cotangents(prev, c)
    return [cts.get(id(x)) for x in inputs]

