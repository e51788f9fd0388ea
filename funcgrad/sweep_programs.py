"""Second-order sweeps written down once per shape of recording.

A sweep (:func:`funcgrad.lean_sweep.sweep`) decides, node by node, which rule derives
each pair and how its tangents are stored: more Python per node than the arithmetic of
a small array.  But that depends only on the recording's *shape*: its primitives and
their parameters, which arguments are traced, the Python numbers among them, the shapes
and dtypes.  So the first sweep of a shape runs its steps and writes each one down
(:class:`_Writer`) as a line of a straight-line function, which the next recordings of
that shape run instead (:class:`Programs`): the same calls on the new values, without
the decisions.  A value the steps did not produce or read from the recording cannot be
written down: the program is then not kept (a sweep with constants baked in would be
wrong on new values).
"""
import itertools
import threading

import numpy as np
from numpy import ndarray

__all__ = ["NotSweepable", "Programs", "structure_key", "is_constant"]


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


def is_constant(value):
    """Is ``value`` the same for every recording of one shape: a function of funcgrad's
    (a rule, a kernel), or numbers, names, dtypes, shapes and parameters made of them?

    >>> import numpy as np
    >>> is_constant({"axes": (0, 1), "keepdims": False}), is_constant(np.ones(2))
    (True, False)
    """
    t = type(value)
    if t is tuple:
        return all(is_constant(v) for v in value)
    if t is dict:
        return all(is_constant(v) for v in value.values())
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
        if not is_constant(value):
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

    def _write(self, prefix, fn, args):
        """Run ``fn(*args)`` and write the line; its result and the name it has there.
        (Names are checked before the call: an unwritable one stops it from running.)"""
        text = ", ".join(self._name(a) for a in args)
        fname = self._name(fn)
        out = fn(*args)
        name = f"{prefix}{len(self.lines)}"
        self.lines.append(f"{name} = {fname}({text})")
        return out, name

    def call(self, fn, *args):
        out, name = self._write("v", fn, args)
        self._bind(out, name)
        return out

    def calls(self, fn, *args):
        outs, name = self._write("r", fn, args)
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


# --- programs, one per shape of recording -------------------------------------------------

def structure_key(tape, x, out, seed):
    """What a sweep's decisions depend on.  A traced argument is its node's position in
    the tape (-1: the input), a Python number its type and value (1 and 1.0 are equal keys
    otherwise), anything else its type, shape and dtype; parameters as the primitive's
    bind wrote them (another order of the same ones only misses the cache).  May be
    unhashable (parameters that are): the caller checks.

    One flat tuple: each node's primitive, parameters, ``needs`` and output's type,
    shape and dtype, then its arguments.  Each node's part opens with its primitive (or
    the ``SELECT`` marker), which no argument's description is, so two recordings of
    other shapes cannot spell the same tuple; a tuple per node cost as much again to
    build and to hash (results/session13-hvp13.md)."""
    index = {id(x): -1}
    parts = [_describe(seed), _describe(x.value), None]
    append, extend = parts.append, parts.extend
    j = 0
    for node in tape:
        index[id(node)] = j
        j += 1
        params = node.params
        if params:
            params = tuple([item for item in params.items() if item[0] != "residuals"]) \
                if "residuals" in params else tuple(params.items())
        value = node.value
        try:
            shape, dtype = value.shape, value.dtype
        except AttributeError:  # (a Python number)
            shape = dtype = None
        extend((node.prim, params, node.needs, type(value), shape, dtype))
        for a, parent in zip(node.args, node.parents):
            if parent is not None:
                append(index[id(parent)])
            elif type(a) in _NUMBER_TYPES:
                append((type(a), a))
            else:
                append(_describe(a))
    parts[2] = index.get(id(out))
    return tuple(parts)


_NUMBER_TYPES = (int, float, bool, complex)


def _last_use(item):
    return item[1][1]


def _describe(v):
    try:
        return type(v), v.shape, v.dtype
    except AttributeError:
        return type(v), None, None


class Programs:
    """Sweep programs by the shape of their recording (a bounded cache: the newest
    ``size``), and the shapes the sweep does not cover.  ``run(tape, x, out, seed,
    ops)``: the sweep (:func:`funcgrad.lean_sweep.lean_sweep`, or the Hessian's band
    sweep); ``refusals``: the exceptions by which it says a shape is not its own (kept as
    that shape's answer)."""

    def __init__(self, run, refusals, size=64):
        self.size = size
        self.kept = {}  # key -> [program, its last use]
        self.uses = itertools.count()
        self.lock = threading.Lock()
        self.run = run
        self.refusals = refusals

    def sweep(self, tape, x, out, seed, sweepable):
        """The sweep ``run``, by the recording's program once one is written.
        ``sweepable()``: does any sweep cover the recording (asked once per shape)?"""
        key = structure_key(tape, x, out, seed)
        try:
            entry = self.kept.get(key)  # (one step under the GIL: no lock to read)
        except TypeError:  # (parameters that are not hashable: no program to keep)
            if not sweepable():
                raise NotSweepable from None
            return self.run(tape, x, out, seed, _EAGER)
        program = None
        if entry is not None:
            # Its use is stamped, not the key moved to the end of an ordered dict: that
            # hashed the key a second time (a tenth of its cost).
            program = entry[0]
            entry[1] = next(self.uses)
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
                self.kept[key] = [program, next(self.uses)]
                while len(self.kept) > self.size:  # (the least recently used goes)
                    del self.kept[min(self.kept.items(), key=_last_use)[0]]
        if type(program) is type:
            raise program
        return result
