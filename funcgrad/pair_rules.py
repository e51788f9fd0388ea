"""Second-order rules of elementwise primitives, derived from their declarations.

Forward-over-reverse needs, for a node ``out = p(*args)``, the pair (cotangent of each
argument, its tangent): the VJP rule applied to the cotangent and differentiated forward
along the tangents of the cotangent and of the residuals it reads.  For an elementwise
primitive the VJP rule of argument ``i`` is its declared linear rule
``lin_i(g, *args, out)`` (:mod:`funcgrad.primitives._elementwise`), so its pair rule is
the JVP of that rule.  Here the project's own forward mode computes that JVP once, on
0-d values, while graph capture records it (:func:`pair_graph`): the result is a graph of
elementwise equations (the rule's operations and, from each one's declared linear rules,
their tangents) that runs on arrays of any shape by NumPy's broadcasting.  The tangent of
a forward value is derived the same way from the primitive itself (:func:`tangent_graph`).

Each graph is cached per primitive, argument, dtypes and the Python numbers among the
operands (a rule may branch on them: ``x ** 2``'s is ``g * (2 * x)``), and runs its
equations' implementations directly (:func:`run`, compiled to one Python function of
straight-line calls): a few NumPy calls per node.  The equations are the operations the
general route runs under forward mode, in the same order, so the results are its bits;
where a rule chooses its association by the type of an operand (``_scaled``: a plain
cotangent is scaled first), the captured one takes the traced branch and the results
agree to an ulp or two.
"""
from .core import ROOT, ShapedArray, run_under
from .interpreters.forward import JVPInterpreter, JVPTracer
from .interpreters.graph import Var, trace_to_graph
from .primitives.structural import convert_element_type_p

__all__ = ["pair_graph", "tangent_graph", "run", "signature"]

_CACHE: dict = {}
_NUMBERS = (int, float)


def signature(values):
    """How a rule's operands enter a captured graph: a Python number as itself (the rule
    may branch on it), anything else as a 0-d value of its dtype; None where an operand
    is neither (a capture would not stand for it)."""
    sig = []
    for v in values:
        t = type(v)
        if t is float or t is int:
            sig.append((t, v))
        else:
            dtype = getattr(v, "dtype", None)
            if dtype is None or dtype.kind not in "fiub":
                return None
            sig.append(dtype)
    return tuple(sig)


class Captured:
    """A captured rule, compiled: ``fn(*inputs)`` takes, in order, each array operand and,
    where it has one, its tangent, and returns the list of wanted outputs; ``eqns``: the
    equations it runs (the rule's live ones), each by its implementation."""

    __slots__ = ("eqns", "fn")

    def __init__(self, graph, wanted):
        outvars = [graph.outvars[k] for k in wanted]
        self.eqns = _live(graph.eqns, outvars)
        self.fn = _compile(graph.invars, self.eqns, outvars)


def _compile(invars, eqns, outvars):
    """The equations as one Python function of straight-line calls (a dictionary of
    values per equation would cost about as much as the call itself on small arrays)."""
    names, scope = {}, {}

    def ref(x):
        if type(x) is Var:
            return names[id(x)]
        name = f"c{len(scope)}"
        scope[name] = x
        return name

    for k, v in enumerate(invars):
        names[id(v)] = f"i{k}"
    lines = [f"def rule({', '.join(names[id(v)] for v in invars)}):"]
    for k, eqn in enumerate(eqns):
        impl = f"p{k}"
        scope[impl] = eqn.prim.impl
        args = ", ".join(ref(x) for x in eqn.inputs)
        if eqn.params:
            scope[f"k{k}"] = eqn.params
            args += f", **k{k}"
        names[id(eqn.outvars[0])] = f"v{k}"
        lines.append(f"    v{k} = {impl}({args})")
    lines.append(f"    return [{', '.join(ref(v) for v in outvars)}]")
    exec("\n".join(lines), scope)  # (text built above from names and constants' keys only)
    return scope["rule"]


def _live(eqns, outvars):
    """The equations the outputs depend on, in order (the rest is dead code here: the
    primal half of a tangent rule)."""
    need = {id(v) for v in outvars if type(v) is Var}
    kept = []
    for eqn in reversed(eqns):
        if any(id(v) in need for v in eqn.outvars):
            kept.append(eqn)
            need.update(id(x) for x in eqn.inputs if type(x) is Var)
    kept.reverse()
    return kept


def _capture(fn, sig, has_tangent, wanted):
    avals = []
    for s, t in zip(sig, has_tangent):
        if type(s) is tuple:
            continue
        avals.append(ShapedArray((), s))
        if t:
            avals.append(ShapedArray((), s))

    def traced(*ins):
        it = iter(ins)
        interp = JVPInterpreter()  # (its parent: the graph capture, which records both)
        operands = []
        for s, t in zip(sig, has_tangent):
            if type(s) is tuple:
                operands.append(s[1])
                continue
            v = next(it)
            operands.append(JVPTracer(interp, v, next(it)) if t else v)
        with interp:
            r = fn(*operands)
        if type(r) is JVPTracer and r._trace is interp:
            return [r.primal, r.tangent]
        return [r, None]

    try:
        graph = run_under(ROOT, trace_to_graph, traced, avals)
    except Exception:  # (a rule that cannot run on 0-d values: the general route's)
        return None
    if any(v is None for k, v in enumerate(graph.outvars) if k in wanted):
        return None
    for eqn in graph.eqns:
        if (eqn.prim.elementwise is None and eqn.prim is not convert_element_type_p) \
                or eqn.prim.multiple_results:
            return None  # (an equation that would not broadcast on arrays)
    return Captured(graph, wanted)


def pair_graph(prim, i, sig, has_tangent, params):
    """The pair rule of argument ``i`` of elementwise ``prim``: a graph of ``(g, *args,
    out)`` (and the tangents ``has_tangent`` marks) returning (cotangent, its tangent);
    None where the rule cannot be captured (the caller takes the general route).

    >>> import numpy as np
    >>> from funcgrad.primitives.elementwise import sin_p
    >>> f64 = np.dtype(np.float64)
    >>> rule = pair_graph(sin_p, 0, (f64, f64, f64), (True, True, False), {})
    >>> [str(e.prim) for e in rule.eqns]
    ['cos', 'negative', 'sin', 'multiply', 'multiply', 'multiply', 'multiply', 'add']
    """
    key = ("pair", prim, i, sig, has_tangent, tuple(sorted(params.items())))
    try:
        return _CACHE[key]
    except KeyError:
        pass
    except TypeError:  # (parameters that are not hashable)
        return None
    lin = prim.elementwise.lins[i]
    rule = None if lin is None else _capture(
        (lambda *ops: lin(*ops, **params)) if params else lin, sig, has_tangent, (0, 1))
    _CACHE[key] = rule
    return rule


def tangent_graph(prim, sig, has_tangent, params):
    """The tangent of elementwise ``prim``'s output: a graph of its arguments (and the
    tangents ``has_tangent`` marks) returning the output's tangent, from its declared JVP.

    >>> import numpy as np
    >>> from funcgrad.primitives.elementwise import multiply_p
    >>> f64 = np.dtype(np.float64)
    >>> rule = tangent_graph(multiply_p, (f64, f64), (True, True), {})
    >>> [str(e.prim) for e in rule.eqns]
    ['multiply', 'multiply', 'add']
    """
    key = ("tangent", prim, sig, has_tangent, tuple(sorted(params.items())))
    try:
        return _CACHE[key]
    except KeyError:
        pass
    except TypeError:
        return None

    def apply(*args):
        return prim.bind(*args, **params)

    rule = _capture(apply, sig, has_tangent, (1,))
    _CACHE[key] = rule
    return rule


def run(rule, inputs):
    """Evaluate a captured rule on arrays (its equations' implementations, in order).

    >>> import numpy as np
    >>> from funcgrad.primitives.elementwise import multiply_p
    >>> f64 = np.dtype(np.float64)
    >>> rule = tangent_graph(multiply_p, (f64, f64), (True, False), {})
    >>> run(rule, [np.array([2.0]), np.array([1.0]), np.array([3.0])])
    [array([3.])]
    """
    return rule.fn(*inputs)
