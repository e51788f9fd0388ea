"""Fused loops compiled as functions of their own, once per structure.

Numba's compile time grows faster than linearly with the size of one function: typing,
SSA reconstruction, lowering and LLVM's passes all work on the whole function, and one
kernel of a 3,200-operation chain took minutes.  So a large kernel (more than
:data:`OUTLINE_MIN_EQNS` equations) does not write its fused loops into its own body: it
calls each loop as a separate ``@njit`` function, and each such function is bounded in size
(:data:`funcgrad.jit.fusion.MAX_FUSED_EQNS`, and ``MAX_OUTLINED_MATH`` vector-maths calls
when steps repeat: see :mod:`funcgrad.jit.lower`).

A loop function's text names everything locally (parameters ``p0, p1...`` in order of first
use, then fresh names), so loops of the same structure -- the steps of a chain, a repeated
layer, its backward pass -- have exactly the same text.  Each distinct text is a module of
its own (:func:`funcgrad.jit.cache.load_loop`, named by a hash of the text), compiled once
per process, kept on disk by Numba, and shared by every kernel and every jitted function
that calls it.  The kernel calls it as a global (``_loop0 = _rt_loop("<hash>")``).

What crosses between the kernel and its loop functions is kept small, because the
kernel's compile time grows with every array it passes (Numba passes an array as a
struct, with reference counting, and LLVM optimises and compiles each call site):

* a loop function writes all its array results of one dtype as the rows of one 2-d array
  (``pk[row, i]``), which the caller allocates and passes; a later loop function reads
  them in place (``p[row, i]``), and other statements see the row (``st[k, row]``);
* consecutive calls of one loop function fill the entries ``[k]`` of one *stack* per
  output, ``(calls, rows, size)``; when their arguments are entries of stacks whose index
  moves by a constant step from call to call (a chain's steps: each reads what the one
  before wrote), they are written as one ``for`` loop (:class:`_Run`), so the kernel does
  not grow with the number of steps.

Values are stored and loaded unchanged, so the results have the bits of the same loops
written into one kernel (tests/test_jit.py).
"""
import os

import numpy as np

from ..interpreters.graph import Var
from .fusion import BAND_MIN_SIZE, emit_loop
from .irloop import writes
from .source import HEADER, KERNEL_OPTIONS, Function, Names, loop_key, shape_text

__all__ = ["OUTLINE_MIN_EQNS", "call_loop", "loop_header"]

# Kernels with more equations than this call their fused loops (below it, one function
# compiles faster than several: Numba's fixed cost per function is ~0.1 s).
OUTLINE_MIN_EQNS = int(os.environ.get("FUNCGRAD_JIT_OUTLINE_MIN_EQNS", 64))


def call_loop(block, eqns):
    """Write the fused group ``eqns`` as a loop function and, into ``block``, the call
    that binds its results (the values the rest of the kernel needs)."""
    names = block.fn.names
    fn = Function(Names(names.writer.vector_math, names.exact_trig), {})
    fn.pack = True
    sub = type(block)(fn, {}, 1)
    inside = {id(v) for e in eqns for v in e.outvars}
    args, params = [], []  # what the caller passes, and the loop function's parameters
    packs = {}  # the caller's packed arrays passed -> their parameters
    # The group's structure, which alone decides the loop function's text (see _Written):
    # per input, where it comes from, in the terms of the loop function's own names.
    at = {id(v): (j, k) for j, e in enumerate(eqns) for k, v in enumerate(e.outvars)}
    key = []
    for e in eqns:
        key.append(e.prim)
        key.append(_frozen(e.params))
        key.append((len(e.inputs), tuple(_aval(v.aval) for v in e.outvars)))
        for x in e.inputs:
            if isinstance(x, Var):
                if id(x) in inside:
                    key.append(at[id(x)])
                    continue
                if id(x) in sub.env:  # (read before: its parameter's name says which)
                    key.append((sub.env[id(x)], _aval(x.aval)))
                    continue
                if id(x) in block.uniform:
                    sub.uniform[id(x)] = block.uniform[id(x)]
                packed = block.fn.packed.get(id(x))
                if packed is not None:  # one parameter per packed array, read by row
                    if packed[0] not in packs:
                        args.append(packed[0])
                        params.append(fn.names.fresh("p"))
                        packs[packed[0]] = params[-1]
                    fn.packed[id(x)] = (packs[packed[0]], packed[1])
                    sub.env[id(x)] = _row(packs[packed[0]], packed[1], x.aval.shape)
                    key.append((sub.env[id(x)], _aval(x.aval), sub.uniform.get(id(x))))
                    continue
                args.append(block.env[id(x)])
                params.append(fn.names.fresh("p"))
                sub.env[id(x)] = params[-1]
                key.append((params[-1], _aval(x.aval), sub.uniform.get(id(x))))
            elif type(x) is np.ndarray:
                if id(x) not in fn.consts:
                    args.append(block.fn.const(x))
                    params.append(fn.names.fresh("p"))
                    fn.consts[id(x)] = params[-1]
                # (a large 2-d constant may be a band, written from its values: see
                # fusion.band; such groups are not shared)
                key.append(None if x.ndim == 2 and x.size >= BAND_MIN_SIZE else
                           (fn.consts[id(x)], x.shape, x.dtype.str))
            else:
                key.append(_frozen(x))
    unit = id(eqns)
    sub.outputs = {id(v) for e in eqns for v in e.outvars
                   if id(v) in block.outputs or block.uses.get(id(v), set()) - {unit}}
    key.append(tuple(sorted(at[i] for i in sub.outputs)))
    key = None if any(k is None for k in key) else tuple(key)
    written = names.groups.get(key) if key is not None else None
    if written is None:
        written = _Written(sub, eqns, params, at)
        if key is not None:
            names.groups[key] = written
    names.trig_checked |= written.trig_checked
    if not written.results:  # nothing is used: the loop is not needed
        return
    name = names.loop(written.source)
    block.fn.loop_calls += 1
    returns = [names.fresh() for _ in range(written.returned)]
    run = block.fn.pending
    if run is None or not run.extends(name, block.indent, written.shapes):
        block.fn.flush()
        run = block.fn.pending = _Run(name, block.indent, written.shapes, names,
                                      written.writes)
    where = run.add(args, returns)  # the caller's (stack, index) of each packed output
    for (j, k), packed, packed_row in written.results:
        v = eqns[j].outvars[k]
        if packed is None:
            block.env[id(v)] = returns[packed_row]
        else:
            pack, row = packed
            block.fn.packed[id(v)] = (where[pack], row)
            block.env[id(v)] = _row(where[pack], row, v.aval.shape)


class _Written:
    """The loop function of a fused group, as written for the first group of its
    structure: a chain's 25 groups of one step are 5 distinct loops, each written once
    (the key :func:`call_loop` makes holds everything the text is made from: primitives,
    parameters, dtypes and shapes, literals, and which input is which parameter).

    ``results``: per result, its ``(equation, output)`` position in the group, its
    ``(packed output, row)`` or None, and for a returned scalar which of the returned
    values it is."""

    __slots__ = ("source", "shapes", "results", "returned", "trig_checked", "writes")

    def __init__(self, sub, eqns, params, at):
        fn = sub.fn
        emit_loop(sub, eqns)
        self.trig_checked = fn.names.trig_checked
        results = [v for e in eqns for v in e.outvars if id(v) in sub.env]
        # Called from kernels only: no wrappers for calls from Python or C (~20% of its
        # time).
        opts = KERNEL_OPTIONS + ", no_cpython_wrapper=True, no_cfunc_wrapper=True" + (
            ", parallel=True" if fn.parallel else "")
        # The packed arrays it writes are parameters (the caller allocates them, see
        # _Run); the other results (sums: scalars) are returned.
        texts = [sub.env[id(v)] for v in results if id(v) not in fn.packed]
        self.source = "\n".join(HEADER) + fn.names.writer.helper_source() + "\n" + "\n".join(
            [f"@njit({opts})",
             f"def loop({', '.join(params + [o[0] for o in fn.pack_outputs])}):"]
            + fn.lines + ([f"    return ({', '.join(texts)},)"] if texts else []) + [""])
        self.shapes = [o[1:] for o in fn.pack_outputs]  # (dtype, rows, size) of each
        self.returned = len(texts)
        pack_index = {o[0]: n for n, o in enumerate(fn.pack_outputs)}
        returned = {t: n for n, t in enumerate(texts)}  # (a text returned twice: the last)
        self.results = []
        for v in results:
            packed = fn.packed.get(id(v))
            self.results.append((at[id(v)], None if packed is None
                                 else (pack_index[packed[0]], packed[1]),
                                 returned.get(sub.env[id(v)])))
        self.writes = writes(self.source) if results else False


def _aval(aval):
    return aval.shape, aval.dtype.str, aval.weak


def _frozen(value):
    """A hashable stand-in for a parameter or literal, equal only for values written the
    same (a float by its repr: 0.0 and -0.0 differ); None where it cannot tell."""
    if value is None or isinstance(value, (bool, int, str, np.dtype)):
        return type(value), value
    if isinstance(value, (float, complex, np.generic)):
        return type(value), repr(value)
    if isinstance(value, (tuple, list)):
        items = tuple(_frozen(v) for v in value)
        return None if any(i is None for i in items) else (type(value), items)
    if isinstance(value, dict):
        items = tuple((k, _frozen(v)) for k, v in sorted(value.items()))
        return None if any(i[1] is None for i in items) else (dict, items)
    return None


# Runs of at least this many calls of one loop function, whose arguments step through
# the outputs of earlier calls, become a loop (see _Run).
ROLL_MIN_CALLS = 3


class _Run:
    """Consecutive calls of one loop function, written out when something else follows
    (:meth:`funcgrad.jit.source.Function.flush`).

    Each packed output of the loop function is a *stack* the caller allocates once for
    the run: an array ``(calls, rows, size)`` whose ``[k]`` the ``k``-th call fills.  A
    chain of repeated steps calls one loop function many times, each call reading what
    an earlier one wrote: stack entries whose index moves by a constant step from call to
    call.  Such calls are written as one ``for`` loop instead of one statement each, so
    the kernel's own size (and Numba's and LLVM's time on it) does not grow with the
    number of steps.
    """

    def __init__(self, loop, indent, shapes, names, pairs=False):
        self.loop, self.indent, self.shapes = loop, indent, shapes
        self.names = names
        # Pass a stack's entry k as the pair (stack, k) (a loop written as IR takes it so:
        # Numba's indexing st[k] costs it far more to type and lower than a tuple)
        self.pairs = pairs
        self.stacks = [names.fresh("st") for _ in shapes]
        self.calls = []  # (args, returns); an argument is a text or a (stack, index)

    def extends(self, loop, indent, shapes):
        """Can a call of ``loop`` at ``indent`` join the run?"""
        return loop == self.loop and indent == self.indent and shapes == self.shapes

    def add(self, args, returns):
        """Add a call; returns where its packed outputs will be: ``(stack, index)``."""
        k = len(self.calls)
        self.calls.append((list(args), returns))
        return [(stack, k) for stack in self.stacks]

    def write(self, fn):
        """Emit the run into ``fn``: the stacks, then the calls, rolled where they can."""
        for stack, (dtype, rows, size) in zip(self.stacks, self.shapes):
            fn.emit(self.indent, f"{stack} = np.empty(({len(self.calls)}, {rows}, {size}), "
                                 f"np.{dtype})")
        k = 0
        while k < len(self.calls):
            end, steps = self._roll(k)
            if end - k >= ROLL_MIN_CALLS:
                i = self.names.fresh("r")
                fn.emit(self.indent, f"for {i} in range({k}, {end}):")
                fn.emit(self.indent + 1, self._call(self.calls[k][0], k, i, steps))
                k = end
            else:
                args, returns = self.calls[k]
                call = self._call(args, k, None, None)
                fn.emit(self.indent, f"{', '.join(returns)}, = {call}" if returns else call)
                k += 1

    def _roll(self, k):
        """``(end, steps)``: calls ``k..end-1`` have the same arguments but for stack
        indices moving by ``steps[j]`` per call (argument ``j``); none return values."""
        first, returns = self.calls[k]
        if returns or k + 1 >= len(self.calls):
            return k + 1, None
        second = self.calls[k + 1][0]
        steps = []
        for a, b in zip(first, second):
            if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0]:
                steps.append(b[1] - a[1])
            elif a == b:
                steps.append(None)
            else:
                return k + 1, None
        end = k + 1
        while end < len(self.calls):
            args, returns = self.calls[end]
            if returns or any(a != b if s is None else
                              not isinstance(b, tuple) or b != (a[0], a[1] + s * (end - k))
                              for a, b, s in zip(first, args, steps)):
                break
            end += 1
        return end, steps

    def _call(self, args, k, i, steps):
        """The text of call ``k`` (or, with the loop variable ``i``, of the calls the
        loop makes, arguments moving by ``steps``)."""
        texts = []
        entry = "({}, {})" if self.pairs else "{}[{}]"
        for j, a in enumerate(args):
            if not isinstance(a, tuple):
                texts.append(a)
            elif i is None or steps[j] is None:
                texts.append(entry.format(*a))
            else:  # index a[1] at call k, moving by steps[j] per call
                base, step = a[1] - steps[j] * k, steps[j]
                index = i if step == 1 else f"{step} * {i}" if step else ""
                index = f"{base} + {index}" if base and index else index or str(base)
                texts.append(entry.format(a[0], index))
        texts += [entry.format(stack, k if i is None else i) for stack in self.stacks]
        return f"{self.loop}({', '.join(texts)})"


def _row(where, row, shape):
    """Source text of the array held as row ``row`` of a packed array: a parameter's
    name, or ``(stack, index)``: an entry of a run's stack."""
    text = f"{where}[{row}]" if isinstance(where, str) else f"{where[0]}[{where[1]}, {row}]"
    return text if len(shape) == 1 else f"{text}.reshape({shape_text(shape)})"


def loop_header(loops):
    """The lines of a kernel module that bind its loop functions (``loops``: source ->
    name), after the module's imports."""
    if not loops:
        return []
    lines = ["from funcgrad.jit.cache import loop as _rt_loop"]
    lines += [f"{name} = _rt_loop({loop_key(source)!r})" for source, name in loops.items()]
    return lines + [""]
