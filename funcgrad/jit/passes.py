"""Rewrites of a captured :class:`~funcgrad.interpreters.graph.Graph` before lowering.

Each pass takes a graph and returns a new one (graphs are never mutated: a graph may be
cached and shared by several compiled functions):

* :func:`closure_convert` turns tracers of enclosing transforms that the traced function
  closed over into explicit leading inputs (what ``jit`` and ``fg.lax`` pass on as
  operands, so the enclosing transform sees them); :func:`lift_tensors` does the same
  for eager Tensors it closed over;
* :func:`inline` replaces the equations of primitives that call a function (nested
  ``jit_call``, ``custom_call``: see :func:`register_call`) by the equations of the
  functions they call;
* :func:`simplify_constants` makes constant arrays that hold one repeated value (the
  broadcast seeds of ``grad``) scalars broadcast in place, so kernels neither read them
  nor take them as arguments;
* :func:`cse` merges equations that compute the same thing, :func:`dce` drops equations
  whose results are not used.
"""
import numpy as np

from ..core import ShapedArray, Tracer, _special_classes, aval_of
from ..custom import custom_call_p
from ..interpreters.graph import EFFECTS, Eqn, Graph, Var
from ..primitives.structural import broadcast_to_p
from .trace import trace_flat

__all__ = ["closure_convert", "inline", "register_call", "simplify_constants", "cse", "elide",
           "dce", "optimize", "substitute", "graph_consts", "subgraphs"]

_SCALARS = (bool, int, float, complex)


def _aval(x):
    return x.aval if isinstance(x, Var) else aval_of(x)


def closure_convert(graph):
    """``(graph', tracers)``: every tracer the graph uses as a constant becomes a new
    leading input of ``graph'``; ``tracers`` are their values, in that order."""
    return _lift(graph, lambda x: isinstance(x, Tracer),
                 lambda x: ShapedArray(x.shape, x.dtype, x.weak))


def lift_tensors(graph):
    """``(graph', tensors)``: every eager Tensor the graph uses as a constant (one the
    traced function closed over) becomes a new leading input of ``graph'``.  Passed as
    arguments, they are read when called (an optimiser's in-place step is seen) and
    the call is recorded on their graph, so ``loss.backward()`` reaches them; baked in
    as constants, their gradient was lost and a Tensor that requires grad, which NumPy
    cannot read, made the compilation fail."""
    return _lift(graph, lambda x: type(x) in _special_classes and not isinstance(x, Tracer),
                 aval_of)


def _lift(graph, wanted, aval):
    found = {}

    def lift(x):
        if wanted(x):
            key = id(x)
            if key not in found:
                found[key] = (x, Var(aval(x)))
            return found[key][1]
        return x

    eqns = []
    for eqn in graph.eqns:
        inputs = [lift(x) for x in eqn.inputs]
        eqns.append(eqn if all(a is b for a, b in zip(inputs, eqn.inputs))
                    else Eqn(eqn.prim, inputs, eqn.params, eqn.outvars))
    outvars = [lift(x) for x in graph.outvars]
    if not found:
        return graph, []
    values = [x for x, _ in found.values()]
    new_vars = [v for _, v in found.values()]
    return Graph(new_vars + list(graph.invars), eqns, outvars), values


def substitute(graph, inputs):
    """Copies of ``graph``'s equations with its inputs replaced by ``inputs`` (Vars or
    constants) and fresh output variables: ``(eqns, outputs)``."""
    env = {id(v): x for v, x in zip(graph.invars, inputs)}

    def read(x):
        return env.get(id(x), x) if isinstance(x, Var) else x

    eqns = []
    for eqn in graph.eqns:
        outvars = [Var(v.aval) for v in eqn.outvars]
        for old, new in zip(eqn.outvars, outvars):
            env[id(old)] = new
        eqns.append(Eqn(eqn.prim, [read(x) for x in eqn.inputs], eqn.params, outvars))
    return eqns, [read(x) for x in graph.outvars]


def _custom_call_graph(eqn):
    """The user's function of a ``custom_call`` (its rules matter only to transforms,
    which have run), traced; None where it needs concrete values or closes over a
    tracer of a transform."""
    rule = eqn.params["rule"]
    try:
        graph = trace_flat(lambda *xs: list(rule.fun(*xs)), [_aval(x) for x in eqn.inputs],
                           "jit", range(len(eqn.inputs)) if rule.tensors else ())
    except Exception:  # the user's function needs concrete values: call it
        return None
    if closure_convert(graph)[1]:
        return None
    return graph


# Primitives that call a function of their operands -> the Graph of that function for one
# equation (None: the call stays).
_CALLS = {custom_call_p: _custom_call_graph}


def register_call(prim, graph_of):
    """Let :func:`inline` expand equations of ``prim``: ``graph_of(eqn)`` is the Graph the
    equation calls on its inputs, or None to keep the call.  ``jit_call`` registers itself
    where it is declared (:mod:`funcgrad.jit.api`, which compiles graphs with these
    passes, so this module cannot import it)."""
    _CALLS[prim] = graph_of


def _rewritten(graph, rewrite):
    """``graph`` rebuilt equation by equation: ``rewrite(eqn, inputs)`` (the inputs as
    rewritten so far) returns ``(eqns, outputs)``, the equations that take its place and
    the values its outputs become, or None to keep it."""
    env = {}

    def read(x):
        return env.get(id(x), x) if isinstance(x, Var) else x

    eqns = []
    for eqn in graph.eqns:
        inputs = [read(x) for x in eqn.inputs]
        replaced = rewrite(eqn, inputs)
        if replaced is None:
            eqns.append(Eqn(eqn.prim, inputs, eqn.params, eqn.outvars))
            continue
        new_eqns, outs = replaced
        eqns.extend(new_eqns)
        for v, o in zip(eqn.outvars, outs):
            env[id(v)] = o
    return Graph(list(graph.invars), eqns, [read(x) for x in graph.outvars])


def inline(graph):
    """``graph`` with the equations of calling primitives (:func:`register_call`)
    replaced by the equations of the functions they call, recursively."""
    if not any(e.prim in _CALLS for e in graph.eqns):
        return graph

    def expand_call(eqn, inputs):
        graph_of = _CALLS.get(eqn.prim)
        inner = graph_of(eqn) if graph_of is not None else None
        return None if inner is None else substitute(inline(inner), inputs)

    return _rewritten(graph, expand_call)


# --- constants -------------------------------------------------------------------------

def _uniform_value(c):
    """The one value a constant array repeats (as a NumPy scalar), or None."""
    if c.size == 0 or c.dtype.kind not in "biuf":
        return None
    first = c[(0,) * c.ndim]  # (not c.flat: NumPy's flat iterator stops at 32 dimensions)
    if c.ndim and all(s == 0 for s in c.strides):
        return first
    if c.size > 1 << 20:
        return None
    flat = np.ascontiguousarray(c).reshape(-1).view(np.uint8).reshape(c.size, -1)
    if (flat == flat[0]).all():  # bitwise, so -0.0 and NaN payloads are kept apart
        return first
    return None


def simplify_constants(graph):
    """0-d constant arrays become NumPy scalars; constant arrays that repeat one value
    become that scalar broadcast by a ``broadcast_to`` equation."""
    made = {}
    eqns = []

    def fix(x):
        if type(x) is not np.ndarray:
            return x
        if x.ndim == 0:
            return x[()]
        key = id(x)
        if key in made:
            return made[key]
        value = _uniform_value(x)
        if value is None:
            made[key] = x
            return x
        var = Var(ShapedArray(x.shape, x.dtype))
        eqns.append(Eqn(broadcast_to_p, [value], {"shape": tuple(x.shape)}, [var]))
        made[key] = var
        return var

    for eqn in graph.eqns:
        inputs = [fix(x) for x in eqn.inputs]
        eqns.append(Eqn(eqn.prim, inputs, eqn.params, eqn.outvars))
    outvars = [fix(x) for x in graph.outvars]
    return Graph(list(graph.invars), eqns, outvars)


def graph_consts(graph):
    """The constant arrays a graph's equations use (nested graphs included), by id."""
    found = {}

    def visit(g):
        for eqn in g.eqns:
            for x in eqn.inputs:
                if type(x) is np.ndarray:
                    found.setdefault(id(x), x)
            for sub in subgraphs(eqn):
                visit(sub)
        for x in g.outvars:
            if type(x) is np.ndarray:
                found.setdefault(id(x), x)

    visit(graph)
    return list(found.values())


def subgraphs(eqn):
    """Graphs held in an equation's parameters (control-flow bodies)."""
    out = []
    for value in eqn.params.values():
        if isinstance(value, Graph):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(v for v in value if isinstance(v, Graph))
    return out


# --- common subexpressions and dead code ------------------------------------------------

def _const_key(x):
    if isinstance(x, _SCALARS):
        return (type(x).__name__, repr(x))
    if isinstance(x, np.generic):
        return ("g", x.dtype.str, x.tobytes())
    return ("id", id(x))


def _freeze(value):
    if isinstance(value, (tuple, list)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, np.dtype):
        return ("dtype", value.str)
    if isinstance(value, (np.ndarray, Graph)) or not _hashable(value):
        return ("id", id(value))
    return (type(value).__name__, value)


def _hashable(value):
    try:
        hash(value)
    except TypeError:
        return False
    return True


def cse(graph):
    """Merge equations with the same primitive, inputs and parameters."""
    seen = {}

    def merge(eqn, inputs):
        if eqn.prim in EFFECTS:  # (kept as it is: two prints of one value print twice)
            return None
        key = (eqn.prim,
               tuple(("v", id(x)) if isinstance(x, Var) else _const_key(x) for x in inputs),
               _freeze(eqn.params))
        previous = seen.get(key)
        if previous is not None:
            return [], previous.outvars
        new = seen[key] = Eqn(eqn.prim, inputs, eqn.params, eqn.outvars)
        return [new], eqn.outvars

    return _rewritten(graph, merge)


def elide(graph, prims):
    """``graph`` with each equation of ``prims`` (identities when evaluated, such as
    ``stop_gradient`` once derivatives are taken) replaced by its input, so that
    :func:`cse` sees through them."""
    if not any(e.prim in prims for e in graph.eqns):
        return graph
    return _rewritten(graph, lambda eqn, inputs: ([], inputs[:1]) if eqn.prim in prims
                      else None)


def dce(graph):
    """Drop equations none of whose results are used (every primitive but those of
    ``EFFECTS`` is pure)."""
    live = {id(x) for x in graph.outvars if isinstance(x, Var)}
    kept = []
    for eqn in reversed(graph.eqns):
        if not any(id(v) in live for v in eqn.outvars) and eqn.prim not in EFFECTS:
            continue
        kept.append(eqn)
        for x in eqn.inputs:
            if isinstance(x, Var):
                live.add(id(x))
    kept.reverse()
    return Graph(list(graph.invars), kept, list(graph.outvars))


def optimize(graph):
    """The passes ``jit`` runs before lowering, in order."""
    graph = inline(graph)
    graph = simplify_constants(graph)
    graph = cse(graph)
    return dce(graph)
