"""The second-order sweep on plain arrays: (cotangent, tangent) pairs backwards.

:func:`sweep` walks a recording (:mod:`funcgrad.second_order`) backwards carrying
(cotangent, tangent of the cotangent) pairs, with every rule derived from the
primitives' declarations: an elementwise node by its captured pair rule
(:mod:`funcgrad.pair_rules`), any other node whose VJP reads no residual that carries a
tangent by that VJP applied to the cotangent and, being linear in it, to its tangent.
How a tangent is stored is the sweep's one parameter (its *algebra*): :class:`Dense`,
one tangent of the input's shape, is the hvp (:func:`lean_sweep`; a node it does not
derive raises :class:`NotLean`); the Hessian's basis as a band of diagonals is the other
(:mod:`funcgrad.hessian_bands`).  The sweep's first run of each shape of recording is
written down as a program (:mod:`funcgrad.sweep_programs`).
"""
import operator

import numpy as np
from numpy import ndarray

from .core import SHAPES_ONLY
from .pair_rules import pair_graph, signature, tangent_graph
from .primitives.structural import unbroadcast
from .sweep_programs import _EAGER

__all__ = ["NotLean", "sweep", "Dense", "lean_sweep"]


class NotLean(Exception):
    """A node the lean sweep does not derive (the caller's generic sweep does)."""


# --- the sweep ----------------------------------------------------------------------------

def sweep(tape, x, out, seed, algebra, ops=_EAGER):
    """The backward walk over the recording ``tape`` (input tracer ``x``, scalar output
    tracer ``out``) carrying (cotangent, tangent of the cotangent) pairs, the tangents
    stored as ``algebra`` says (:class:`Dense`: one tangent; the Hessian's band:
    :mod:`funcgrad.hessian_bands`); ``algebra.finish`` makes the answer of ``x``'s
    tangent (None: zero).

    >>> import numpy as np
    >>> from funcgrad.second_order import record
    >>> rec = record(lambda y: np.sum(y ** 3), np.array([1.0, 2.0]), {})
    >>> sweep(rec.tape, rec.x, rec.out, np.array([1.0, 0.0]), DENSE)
    array([6., 0.])
    """
    index = {id(node): j for j, node in enumerate(tape)}
    seed = ops.source(seed, "seed")
    tangents = {id(x): algebra.seed(ops, seed)}
    values = {}

    def value(node):  # a node's output, read from the recording once
        key = id(node)
        if key not in values:
            values[key] = ops.source(node.value, f"t[{index[key]}].value")
        return values[key]

    def args_of(node):
        j = index[id(node)]
        return [value(p) if p is not None and p is not x else
                ops.source(a, f"t[{j}].args[{k}]")
                for k, (a, p) in enumerate(zip(node.args, node.parents))]

    def tangent(node):
        return forward_tangent(node, tangents, lambda top, ts: _forward_tangent(
            ops, algebra, top, args_of(top), value(top), ts))

    pairs = {id(out): (ops.call(seed_cotangent, value(out)), None)}
    # Cotangents and tangents this sweep computed and no one else holds: those it may add
    # into in place (the backward engine's rule, funcgrad.interpreters.backprop).
    owned = set()
    for node in reversed(tape):
        pair = pairs.pop(id(node), None)
        if pair is None:
            continue
        ct, dct = pair
        prim = node.prim
        parents = node.parents  # (the first argument alone sends a cotangent)
        if prim.vjp_into is not None and parents[0] is not None \
                and all(p is None for p in parents[1:]) and id(parents[0]) in pairs:
            _add_into_parent(ops, algebra, node, args_of(node), value(node), ct, dct,
                             tangent, pairs, owned)
            continue
        if prim.elementwise is not None:
            contributions = _elementwise_pairs(ops, algebra, node, args_of(node),
                                               value(node), ct, dct, tangent)
        else:
            contributions = _linear_pairs(ops, algebra, node, args_of(node), value(node),
                                          ct, dct, tangent)
        for parent, (c, d) in zip(node.parents, contributions):
            if c is None or parent is None:
                continue
            key = id(parent)
            prev = pairs.get(key)
            if prev is not None:
                c = _sum(ops, owned, (key, 0), prev[0], c)
                d = prev[1] if d is None else d if prev[1] is None else \
                    algebra.sum(ops, owned, (key, 1), prev[1], d)
            pairs[key] = (c, d)
    pair = pairs.get(id(x))
    return algebra.finish(ops, None if pair is None else pair[1], seed)


class Dense:
    """The hvp's tangent: one array of the input's shape (the product with one vector).
    The hooks :func:`sweep` calls where the storage of a tangent matters; another storage
    (the Hessian's band) is another class with the same methods."""

    __slots__ = ()
    refusal = NotLean  # (what a node the storage does not derive raises)

    @staticmethod
    def seed(ops, seed):
        """The input's tangent: the given vector."""
        return seed

    @staticmethod
    def prepare(ops, ts, out):
        """An elementwise rule's tangents as its inputs, and what :meth:`fit` needs."""
        return _shape(out), ts

    @staticmethod
    def fit(ops, d, out_shape, arg):
        """A pair rule's tangent summed down to argument ``arg``'s shape and dtype."""
        if _shape(d) != _shape(arg) or getattr(d, "dtype", None) != arg.dtype:
            d = ops.call(_fit_tangent, d, out_shape, arg)
        return d

    @staticmethod
    def fit_output(ops, t, out_shape, out):
        """A forward rule's tangent broadcast to its output's shape."""
        if _shape(t) != out_shape:
            t = ops.call(np.broadcast_to, t, out_shape)
        return t

    @staticmethod
    def other_tangent(ops, node, args, out, ts):
        """A non-elementwise node's tangent (its declared tangent rule)."""
        prim = node.prim
        rule = prim.jvp_tangent or _from_jvp(prim)
        if len(args) == 1:  # (a slice's, a reshape's, a sum's: one call, no packing)
            t = ops.call(_tangent_of_one, rule, rule_params(node), out, args[0], ts[0])
        else:
            present = tuple(t is not None for t in ts)
            t = ops.call(_tangent_of, rule, rule_params(node), present, out, len(args),
                         *args, *[t for t in ts if t is not None])
        return Dense.fit_output(ops, t, _shape(out), out)

    @staticmethod
    def linear_tangents(ops, node, args, out, vjp, dct):
        """A linear node's VJP applied to the tangent ``dct`` (a fixed linear map)."""
        return ops.calls(vjp, node.needs, dct, out, *args)

    @staticmethod
    def add_into(ops, owned, key, node, args, out, into, prev, dct):
        """A ``vjp_into`` node's tangent ``dct`` added into its argument's (``prev``)."""
        if prev is None:
            owned.discard((key, 1))
            return ops.calls(_keywords(node.prim.vjp, rule_params(node)), node.needs, dct,
                             out, *args)[0]
        return _into(ops, owned, (key, 1), into, prev, dct, out, args)

    @staticmethod
    def sum(ops, owned, slot, prev, d):
        """Two tangents of one node added."""
        return _sum(ops, owned, slot, prev, d)

    @staticmethod
    def finish(ops, d, seed):
        """The sweep's answer from the input's tangent (None: zero)."""
        return d


DENSE = Dense()


def lean_sweep(tape, x, out, seed, ops=_EAGER):
    """``x``'s tangent of its cotangent (None: zero) from the recording ``tape`` (input
    tracer ``x``, scalar output tracer ``out``), ``seed`` being x's tangent: the hvp.

    >>> import numpy as np
    >>> from funcgrad.second_order import record
    >>> rec = record(lambda y: np.sum(y ** 3), np.array([1.0, 2.0]), {})
    >>> lean_sweep(rec.tape, rec.x, rec.out, np.array([0.0, 1.0]))
    array([ 0., 12.])
    """
    return sweep(tape, x, out, seed, DENSE, ops)


def _sum(ops, owned, slot, prev, c):
    """``prev + c``, into ``prev`` where the sweep owns it."""
    if type(prev) is ndarray and type(c) is ndarray and prev.shape == c.shape \
            and prev.dtype == c.dtype:
        if slot in owned:
            return ops.call(_add_in_place, prev, c)
        total = ops.call(operator.add, prev, c)
        owned.add(slot)
        return total
    owned.discard(slot)
    return ops.call(operator.add, prev, c)


def _add_in_place(prev, c):
    np.add(prev, c, out=prev)
    return prev


def _add_into_parent(ops, algebra, node, args, out, ct, dct, tangent, pairs, owned):
    """A linear node whose VJP adds into its argument's pair so far (``vjp_into``: a
    slice's cotangent scatter-added, instead of padded and summed)."""
    _check_linear(algebra, node, tangent)
    key = id(node.parents[0])
    prev_c, prev_d = pairs[key]
    into = _keywords(node.prim.vjp_into, rule_params(node))
    c = _into(ops, owned, (key, 0), into, prev_c, ct, out, args)
    d = prev_d if dct is None else \
        algebra.add_into(ops, owned, key, node, args, out, into, prev_d, dct)
    pairs[key] = (c, d)
def _into(ops, owned, slot, into, prev, g, out, args):
    total = ops.call(into, prev, slot in owned, g, out, *args)
    if total is not prev:  # (a new array, which only this sweep holds)
        if type(total) is ndarray:
            owned.add(slot)
        else:
            owned.discard(slot)
    return total


def seed_cotangent(value):
    """A one of the output's dtype, 0-d (what value_and_grad seeds)."""
    return np.array(1, value.dtype)


def rule_params(node):
    """A node's parameters for its rules: without the residuals the root's reverse mode
    kept (plain values that would carry no tangent: the rule recomputes them)."""
    params = node.params
    if not params:
        return {}
    if "residuals" in params:
        return {k: v for k, v in params.items() if k != "residuals"}
    return params


def reads(prim, needs, params):
    """``(inputs read or None for all, output read)`` of a VJP rule."""
    facts = prim.vjp_reads
    if facts is None:
        return None, False
    if facts is SHAPES_ONLY:
        return (False,) * len(needs), False
    return facts(needs, **params)


def _shape(v):
    try:
        return v.shape
    except AttributeError:  # (a Python number)
        return ()


def _operand_tangents(node, tangent, reads_inputs):
    return [tangent(p) if p is not None and (reads_inputs is None or reads_inputs[k])
            else None for k, p in enumerate(node.parents)]


def _keywords(fn, params):
    """``fn`` with ``params`` bound, a positional function (a step's call)."""
    if not params:
        return fn
    return lambda *args: fn(*args, **params)


def _elementwise_pairs(ops, algebra, node, args, out, ct, dct, tangent):
    prim = node.prim
    params = rule_params(node)
    reads_inputs, reads_output = reads(prim, node.needs, params)
    ts = [dct] + _operand_tangents(node, tangent, reads_inputs) + [
        tangent(node) if reads_output else None]
    if all(t is None for t in ts):  # the plain rule: no tangent reaches it
        cs = ops.calls(_keywords(prim.vjp, params), node.needs, ct, out, *args)
        return [(c, None) for c in cs[:len(node.parents)]]
    operands = (ct, *args, out)
    sig = signature(operands)
    if sig is None:
        raise algebra.refusal
    has_tangent = tuple(t is not None for t in ts)
    fit, ts = algebra.prepare(ops, ts, out)
    inputs = _rule_inputs(sig, operands, ts)
    result = []
    for i, parent in enumerate(node.parents):
        if parent is None:
            result.append((None, None))
            continue
        rule = pair_graph(prim, i, sig, has_tangent, params)
        if rule is None:
            raise algebra.refusal
        c, d = ops.calls(rule.fn, *inputs)
        arg = args[i]
        if _shape(c) != _shape(arg) or c.dtype != arg.dtype:
            c = ops.call(unbroadcast, c, arg)
        result.append((c, algebra.fit(ops, d, fit, arg)))
    return result


def _rule_inputs(sig, operands, tangents):
    """A captured rule's inputs: each array operand, then its tangent where it has one
    (NumPy aligns shapes from the right, as the rule's broadcasting did)."""
    inputs = []
    for s, v, t in zip(sig, operands, tangents):
        if type(s) is tuple:  # (a Python number: a constant of the rule)
            continue
        inputs.append(v)
        if t is not None:
            inputs.append(t)
    return inputs


def _fit_tangent(d, out_shape, arg):
    """A tangent of a cotangent summed down to argument ``arg``'s shape and dtype, as
    unbroadcast sums the cotangent itself."""
    if _shape(d) != out_shape:
        d = np.broadcast_to(d, out_shape)
    return unbroadcast(d, arg)


def _check_linear(algebra, node, tangent):
    """Raise ``algebra.refusal`` unless the node's VJP reads no residual carrying a
    tangent (then, at this point, it is a fixed linear map of the cotangent)."""
    reads_inputs, reads_output = reads(node.prim, node.needs, rule_params(node))
    if any(t is not None for t in _operand_tangents(node, tangent, reads_inputs)) or (
            reads_output and tangent(node) is not None):
        raise algebra.refusal


def _linear_pairs(ops, algebra, node, args, out, ct, dct, tangent):
    """A rule that reads no residual carrying a tangent is, at this point, a fixed linear
    map of the cotangent: its pair is that map applied to both."""
    _check_linear(algebra, node, tangent)
    vjp = _keywords(node.prim.vjp, rule_params(node))
    cs = ops.calls(vjp, node.needs, ct, out, *args)
    ds = [None] * len(args) if dct is None else \
        algebra.linear_tangents(ops, node, args, out, vjp, dct)
    return list(zip(cs, ds))[:len(node.parents)]


def _forward_tangent(ops, algebra, node, args, out, ts):
    """The tangent of ``node``'s output from its inputs' (its declared JVP)."""
    prim = node.prim
    if prim.elementwise is None:
        return algebra.other_tangent(ops, node, args, out, ts)
    sig = signature(args)
    rule = None if sig is None else tangent_graph(
        prim, sig, tuple(t is not None for t in ts), rule_params(node))
    if rule is None:
        raise algebra.refusal
    fit, ts = algebra.prepare(ops, ts, out)
    t, = ops.calls(rule.fn, *_rule_inputs(sig, args, ts))
    return algebra.fit_output(ops, t, fit, out)


def _from_jvp(prim):
    def tangent_half(primals, tangents, out, **params):
        return prim.jvp(primals, tangents, **params)[1]
    return tangent_half


def _tangent_of_one(rule, params, out, x, t):
    """A declared tangent rule of one argument (``t``: its tangent, not None)."""
    return rule([x], [t], out, **params)


def _tangent_of(rule, params, present, out, n, *flat):
    """A declared tangent rule on the arguments ``flat[:n]`` and the tangents present
    (a step's positional call)."""
    given = iter(flat[n:])
    return rule(list(flat[:n]), [next(given) if p else None for p in present], out, **params)


def forward_tangent(node, tangents, rule):
    """The tangent of ``node``'s output, filling ``tangents`` (by ``id``; None: zero) for
    it and the parents it needs: ``rule(top, ts)`` gives a node's tangent from its
    arguments' (``ts``, not all None).  Creation order is a topological order: an iterative
    walk over the pending parents computes each tangent once, deepest first (no recursion
    limit)."""
    key = id(node)
    if key in tangents:
        return tangents[key]
    stack = [node]
    while stack:
        top = stack[-1]
        if id(top) in tangents:
            stack.pop()
            continue
        pending = [p for p in top.parents if p is not None and id(p) not in tangents]
        if pending:
            stack.extend(pending)
            continue
        stack.pop()
        ts = [None] * len(top.args)
        for i, p in enumerate(top.parents):
            if p is not None:
                ts[i] = tangents[id(p)]
        tangents[id(top)] = None if all(t is None for t in ts) else rule(top, ts)
    return tangents[key]
