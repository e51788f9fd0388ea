"""The second-order sweep on plain arrays, written down once per shape of recording.

:func:`sweep` walks a recording (:mod:`funcgrad.second_order`) backwards carrying
(cotangent, tangent of the cotangent) pairs, with every rule derived from the
primitives' declarations: an elementwise node by its captured pair rule
(:mod:`funcgrad.pair_rules`), any other node whose VJP reads no residual that carries a
tangent by that VJP applied to the cotangent and, being linear in it, to its tangent.
How a tangent is stored is the sweep's one parameter (its *algebra*): :class:`Dense`,
one tangent of the input's shape, is the hvp (:func:`lean_sweep`; a node it does not
derive raises :class:`NotLean`); the Hessian's basis as a band of diagonals is the other
(:mod:`funcgrad.hessian_bands`).

Deciding all of that costs more Python per node than the arithmetic of a small array.
But it depends only on the recording's *shape*: its primitives and their parameters,
which arguments are traced, the Python numbers among them, the shapes and dtypes.  So the
first sweep of a shape runs its steps and writes each one down (:class:`_Writer`) as a
line of a straight-line function, which the next recordings of that shape run instead
(:class:`Programs`): the same calls on the new values, without the decisions.  A value
the steps did not produce or read from the recording cannot be written down: the
program is then not kept (a sweep with constants baked in would be wrong on new values).
"""
import operator
import threading
from collections import OrderedDict

import numpy as np
from numpy import ndarray

from .core import SHAPES_ONLY
from .pair_rules import pair_graph, signature, tangent_graph
from .primitives.structural import unbroadcast

__all__ = ["NotLean", "NotSweepable", "sweep", "Dense", "lean_sweep", "Programs", "structure_key"]


class NotLean(Exception):
    """A node the lean sweep does not derive (the caller's generic sweep does)."""


class NotSweepable(Exception):
    """A recording no sweep covers (the caller replays it under the composition)."""


# --- running the steps now, or running them and writing them down ------------------------

class _Eager:
    __slots__ = ()

    @staticmethod
    def call(fn, *args):
        return fn(*args)

    @staticmethod
    def calls(fn, *args):  # (several results)
        return fn(*args)

    @staticmethod
    def source(value, expr):
        return value


_EAGER = _Eager()
_CONSTANT_TYPES = (int, float, bool, str, tuple, type(None), np.dtype)


def _is_constant(value):
    """Is ``value`` the same for every recording of one shape: a function of funcgrad's
    (a rule, a kernel), or numbers, names, dtypes, shapes and parameters made of them?"""
    t = type(value)
    if t is tuple:
        return all(_is_constant(v) for v in value)
    if t is dict:
        return all(_is_constant(v) for v in value.values())
    return t in _CONSTANT_TYPES or (t is not ndarray and callable(value))


class _Unwritable(Exception):
    """A value that is neither a step's result, nor read from the recording, nor a
    constant of the recording's shape."""


class _Writer:
    """Runs each step and writes it down as a line of a Python function."""

    def __init__(self):
        self.names = {}    # id(value) -> the name holding it
        self.alive = []    # (every value named: ids stay unique while writing)
        self.scope = {}
        self.lines = []

    def _constant(self, value):
        name = f"k{len(self.scope)}"
        self.scope[name] = value
        return name

    def _name(self, value):
        name = self.names.get(id(value))
        if name is not None:
            return name
        if not _is_constant(value):
            raise _Unwritable
        return self._constant(value)

    def _bind(self, value, name):
        self.names[id(value)] = name
        self.alive.append(value)

    def source(self, value, expr):
        if type(value) in _NUMBER_TYPES:  # (a Python number: part of the shape's key)
            return value
        name = f"s{len(self.lines)}"
        self.lines.append(f"{name} = {expr}")
        self._bind(value, name)
        return value

    def call(self, fn, *args):
        text = ", ".join(self._name(a) for a in args)
        fname = self._name(fn)
        out = fn(*args)
        name = f"v{len(self.lines)}"
        self.lines.append(f"{name} = {fname}({text})")
        self._bind(out, name)
        return out

    def calls(self, fn, *args):
        text = ", ".join(self._name(a) for a in args)
        fname = self._name(fn)
        outs = fn(*args)
        name = f"r{len(self.lines)}"
        self.lines.append(f"{name} = {fname}({text})")
        self.alive.append(outs)
        for k, o in enumerate(outs):
            if o is not None and id(o) not in self.names:
                self._bind(o, f"{name}[{k}]")
        return outs

    def program(self, result):
        """The function ``program(t, seed)`` of the lines written (``t``: the tape)."""
        body = [f"    {line}" for line in self.lines]
        body.append(f"    return {'None' if result is None else self._name(result)}")
        source = "def program(t, seed):\n" + "\n".join(body)
        exec(source, self.scope)  # (names and constants' keys only: see above)
        return self.scope["program"]


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
            contributions = _elementwise_pairs(ops, algebra, node, args_of(node), value(node),
                                               ct, dct, tangent)
        else:
            contributions = _linear_pairs(ops, algebra, node, args_of(node), value(node), ct,
                                          dct, tangent)
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
        present = tuple(t is not None for t in ts)
        t = ops.call(_tangent_of, rule, rule_params(node), present, out, len(args), *args,
                     *[t for t in ts if t is not None])
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
    seed = np.empty((), value.dtype)
    seed.fill(1)
    return seed


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


def _tangent_of(rule, params, present, out, n, *flat):
    """A declared tangent rule on the arguments ``flat[:n]`` and the tangents present
    (a step's positional call)."""
    given = iter(flat[n:])
    return rule(list(flat[:n]), [next(given) if p else None for p in present], out, **params)


# --- programs, one per shape of recording -------------------------------------------------

def structure_key(tape, x, out, seed):
    """What a sweep's decisions depend on.  A traced argument is its node's position in
    the tape (-1: the input), a Python number its type and value (1 and 1.0 are equal keys
    otherwise), anything else its type, shape and dtype; parameters as the primitive's
    bind wrote them (another order of the same ones only misses the cache).  May be
    unhashable (parameters that are): the caller checks."""
    index = {id(x): -1}
    parts = [_describe(seed), _describe(x.value)]
    append = parts.append
    for j, node in enumerate(tape):
        index[id(node)] = j
        desc = tuple([(type(a), a) if type(a) in _NUMBER_TYPES else _describe(a)
                      if parent is None else index[id(parent)]
                      for a, parent in zip(node.args, node.parents)])
        params = node.params
        if params:
            params = tuple([item for item in params.items() if item[0] != "residuals"])
        append((node.prim, params, node.needs, desc, _describe(node.value)))
    append(index.get(id(out)))
    return tuple(parts)


_NUMBER_TYPES = (int, float, bool, complex)


def _describe(v):
    try:
        return type(v), v.shape, v.dtype
    except AttributeError:
        return type(v), None, None


class Programs:
    """Sweep programs by the shape of their recording (a bounded cache: the newest
    ``size``), and the shapes the sweep does not cover.  ``run(tape, x, out, seed,
    ops)``: the sweep (:func:`lean_sweep`, or the Hessian's band sweep); ``refusals``:
    the exceptions by which it says a shape is not its own (kept as that shape's answer)."""

    def __init__(self, size=64, run=None, refusals=(NotLean,)):
        self.size = size
        self.kept = OrderedDict()
        self.lock = threading.Lock()
        self.run = lean_sweep if run is None else run
        self.refusals = refusals

    def sweep(self, tape, x, out, seed, sweepable):
        """The sweep ``run``, by the recording's program once one is written.
        ``sweepable()``: does any sweep cover the recording (asked once per shape)?"""
        key = structure_key(tape, x, out, seed)
        try:
            with self.lock:
                program = self.kept.get(key)
                if program is not None:
                    self.kept.move_to_end(key)
        except TypeError:  # (parameters that are not hashable: no program to keep)
            if not sweepable():
                raise NotSweepable from None
            return self.run(tape, x, out, seed, _EAGER)
        if program is not None:
            if type(program) is type:  # (a refusal, or NotSweepable)
                raise program
            return program(tape, seed)
        result = None
        if not sweepable():
            program = NotSweepable
        else:
            writer = _Writer()
            try:
                result = self.run(tape, x, out, seed, writer)
                program = writer.program(result)
            except self.refusals as refusal:
                program = type(refusal)
            except _Unwritable:
                program, result = None, self.run(tape, x, out, seed, _EAGER)
        if program is not None:
            with self.lock:
                self.kept[key] = program
                while len(self.kept) > self.size:
                    self.kept.popitem(last=False)
        if type(program) is type:
            raise program
        return result


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
