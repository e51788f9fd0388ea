"""First-order backward walks written down once per structure of tape.

The backward walk (:func:`funcgrad.interpreters.backprop.backpropagate`) decides, node by
node, which rule runs, where its contributions go and whether a sum may be made in place:
about 165 bytecodes a node, more than the arithmetic of a small array.  Those decisions
depend only on the tape's *structure*: its primitives and parameters, which node feeds
which, the kinds, shapes and dtypes of the constants and the inputs.  So a gradient
function (``grad``, ``value_and_grad``) that has walked a structure before writes the walk
down once as a straight-line Python function (:func:`_write`) and runs that on the next
tapes of the structure: the same rules, called on the same operands in the same order,
the same sums in the same order, so the same bits.

A program opens with its guards, which check the new tape node by node (primitive,
parents by identity, parameters, the kinds of the constants, the inputs' shapes and
dtypes); any difference sends the tape to the walk (``MISS``).  Shapes and dtypes of
every value follow from those, which is why only primitives whose outputs' shapes and
dtypes are functions of their inputs' and parameters are written down (elementwise ones
and the structural ones of :data:`_SHAPED`).  Programs are kept for small tapes only
(:data:`_MAX_NODES`, :data:`_MAX_BYTES`): they free nothing until they end, where the walk
frees each node's values as it passes (large arrays' memory), and large arrays' walks
cost little beside their arithmetic.
"""
import threading
import weakref

import numpy as np
from numpy import ndarray

from ..core import ROOT, _state
from ..primitives.elementwise import add as _add
from ..primitives.linear_rules import identity, negated, times_first, times_second
from ..primitives.products import matmul_p
from ..primitives.reductions import (cumprod_p, cumsum_p, logsumexp_p, reduce_max_p, reduce_min_p,
                                     reduce_prod_p)
from ..primitives.structural import (broadcast_to_p, concatenate_p, convert_element_type_p,
                                     reduce_sum_p, reshape_p, transpose_p)
from ..sweep_programs import is_constant
from .backprop import NODE_CODES, PROGRAM_FILE, SELECT, reported

__all__ = ["MISS", "WalkPrograms", "programs_of"]

MISS = object()
"""What a program returns for a tape of another structure (then the walk runs)."""

# structural primitives whose output's shape and dtype follow from their input's and
# their parameters (an elementwise primitive's always do)
_SHAPED = frozenset({reduce_sum_p, reduce_max_p, reduce_min_p, reduce_prod_p, logsumexp_p,
                     cumsum_p, cumprod_p, broadcast_to_p, reshape_p, transpose_p,
                     convert_element_type_p, concatenate_p, matmul_p})
_MAX_NODES = 2000     # a longer tape's source takes long to compile
_NODES_A_WALK = 50    # (see WalkPrograms.backward)
_MAX_BYTES = 1 << 20  # every value of the tape together
_KEPT = 4             # programs a gradient function keeps (the newest)
_WRITES = 16          # programs it writes at most (a function whose structure never repeats)
_CONSTANTS = (float, int, bool, complex)


class WalkPrograms:
    """The programs of one gradient function.  :meth:`backward` gives the inputs'
    cotangents from a tape, or :data:`MISS` (then the caller walks).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> from funcgrad.interpreters.reverse import ReverseInterpreter
    >>> programs, x = WalkPrograms(), np.array([1.0, 2.0])
    >>> for _ in range(3):
    ...     interp = ReverseInterpreter()
    ...     t = interp.new_input(x)
    ...     with interp:
    ...         y = fnp.sum(fnp.sin(t) * t)
    ...     got = programs.backward(interp, interp.tape, (t,), y, np.array(1.0))
    >>> got[0] - (np.cos(x) * x + np.sin(x))
    array([0., 0.])
    >>> len(programs.kept)
    1
    """

    __slots__ = ("kept", "walked", "written", "lock")

    def __init__(self):
        self.kept = ()     # (the newest first; replaced whole, never mutated)
        self.walked = {}   # length of a tape walked -> how many were
        self.written = 0
        self.lock = threading.Lock()

    def backward(self, interp, tape, inputs, out, seed):
        """The cotangents of ``inputs`` (a tuple, None where none reached it) of the tape
        ``tape`` recorded by ``interp`` seeded at ``out`` with ``seed``, or :data:`MISS`."""
        if interp.parent is not ROOT or _state.instruments:
            return MISS  # (values of an outer transform, or rules watched: the walk's)
        for program in self.kept:
            got = _run(program, tape, inputs, out, seed)
            if got is not MISS:
                return got
        # Writing costs about forty walks of the tape (compiling its source): a tape is
        # written once the function has walked as many tapes of its length as it has
        # fifty nodes (at least two: a gradient taken once writes nothing).
        n = len(tape)
        walked = self.walked
        if len(walked) > _KEPT * 4:  # (lengths that never repeat: counted afresh)
            walked.clear()
        count = walked[n] = walked.get(n, 0) + 1
        if count < max(2, n // _NODES_A_WALK) or self.written >= _WRITES or n > _MAX_NODES:
            return MISS
        with self.lock:
            self.written += 1
        written = _written(tape, inputs, out, seed)
        if written is None:
            return MISS
        program, got = written
        with self.lock:
            self.kept = (program,) + self.kept[:_KEPT - 1]
        return got


_BY_FUNCTION: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_BY_FUNCTION_LOCK = threading.Lock()


def programs_of(fun):
    """The programs of the gradient functions of ``fun``: one :class:`WalkPrograms` for
    every ``grad(fun)`` and ``value_and_grad(fun)`` made while ``fun`` lives, so that a
    gradient taken inline in a loop (``fg.grad(loss)(params)``) writes its walk too (the
    guards make sharing them safe: a program runs only on a tape of its structure).

    >>> f = lambda x: x * x
    >>> programs_of(f) is programs_of(f), programs_of(f) is programs_of(lambda x: x)
    (True, False)
    """
    try:
        with _BY_FUNCTION_LOCK:
            programs = _BY_FUNCTION.get(fun)
            if programs is None:
                programs = _BY_FUNCTION[fun] = WalkPrograms()
        return programs
    except TypeError:  # (not weakly referable, or unhashable: its own)
        return WalkPrograms()


def _call(program, tape, inputs, out, seed):
    return program(tape, inputs, out, seed)


# (under the walk's own error state and as funcgrad's code, as the walk)
_run = reported(_call)


# --- writing a program --------------------------------------------------------------------

def _writable(tape, inputs, out):
    """Whether every node the walk from ``out`` would reach is one a program covers (see
    the module's docstring); the others (``x[0] > 0``'s) it never reads."""
    nbytes = 0
    inputs = {id(x) for x in inputs}
    on_tape = {id(node) for node in tape}
    if id(out) not in on_tape:
        return False
    reached = {id(out)}
    for node in reversed(tape):
        if id(node) not in reached:
            continue
        reached.update(id(p) for p in node.parents if p is not None)
        prim = node.prim
        if prim is SELECT or prim.multiple_results or node.meta is not None:
            return False
        if prim.elementwise is None and prim not in _SHAPED:
            return False
        params = node.params
        if params is None:
            if prim.vjp_plain is None and prim.vjp_into is not None:
                return False
        elif prim.vjp_into is not None or not all(
                is_constant(v) for k, v in params.items() if k != "residuals"):
            return False  # (residuals: the forward's values for the rule, read then)
        value = node.value
        if type(value) is ndarray:
            nbytes += value.nbytes
        elif not isinstance(value, np.generic):
            return False
        for a, parent in zip(node.args, node.parents):
            if parent is None:
                if type(a) not in _CONSTANTS and type(a) is not ndarray \
                        and not isinstance(a, np.generic):
                    return False
            elif id(parent) not in on_tape and id(parent) not in inputs:
                return False
    return nbytes <= _MAX_BYTES


def _same_params(params, want):
    """Whether a node's parameters are ``want`` (pairs) and its residuals."""
    if params is None or len(params) != len(want) + 1 or "residuals" not in params:
        return False
    for key, v in want:
        if params.get(key, MISS) != v:
            return False
    return True


class _Writer:
    """The walk of a tape, run now and written down as it goes."""

    def __init__(self, tape, inputs):
        self.scope = {"MISS": MISS, "ADD": _add, "np_add": np.add, "same": _same_params,
                      "ndarray": ndarray}
        self.stepped = {}  # slot -> node: the nodes whose rules ran (guarded)
        self.body = []
        self.slot = {id(node): k for k, node in enumerate(tape)}
        self.leaf = {id(x): j for j, x in enumerate(inputs)}
        self.cts = {}     # id(node or input) -> its cotangent so far
        self.owned = set()

    def constant(self, value):
        name = f"k{len(self.scope)}"
        self.scope[name] = value
        return name

    def name(self, node):
        """The name of a node's (or an input's) cotangent in the program."""
        k = self.slot.get(id(node))
        return f"g{k}" if k is not None else f"L{self.leaf[id(node)]}"

    def guard(self, k, node):
        """The lines checking that node ``k`` of a new tape is this one's twin (after the
        lines of the nodes before it: its parents are named ``n<slot>`` where guarded)."""
        conds = [f"n{k}.prim is not {self.constant(node.prim)}", f"n{k}.meta is not None"]
        params = node.params
        if params is not None and "residuals" in params:
            want = tuple((key, v) for key, v in params.items() if key != "residuals")
            conds.append(f"not same(n{k}.params, {self.constant(want)})")
        elif params is not None:  # (a value of another kind: an error, caught: a MISS)
            conds.append(f"n{k}.params != {self.constant(dict(params))}")
        else:
            conds.append(f"n{k}.params is not None")
        for i, (a, parent) in enumerate(zip(node.args, node.parents)):
            if parent is not None:
                k_parent = self.slot.get(id(parent))
                source = f"X{self.leaf[id(parent)]}" if k_parent is None else \
                    f"n{k_parent}" if k_parent in self.stepped else f"t[{k_parent}]"
                conds.append(f"p[{i}] is not {source}")
            elif type(a) is ndarray:
                conds.append(f"p[{i}] is not None or type(a[{i}]) is not ndarray or "
                             f"a[{i}].shape != {a.shape!r}"
                             f" or a[{i}].dtype is not {self.constant(a.dtype)}")
            else:
                conds.append(f"p[{i}] is not None or type(a[{i}]) is not "
                             f"{self.constant(type(a))}")
        return [f"    n{k} = t[{k}]", f"    p, a = n{k}.parents, n{k}.args",
                f"    if len(p) != {len(node.parents)} or " + " or ".join(conds)
                + ": return MISS"]

    def add(self, parent, c, expr):
        """``parent``'s cotangent plus the contribution ``c`` (``expr`` in the program), as
        the walk adds it: the first stored, a sum the walk owns made in place."""
        key = id(parent)
        name = self.name(parent)
        prev = self.cts.get(key)
        if prev is None:
            self.cts[key] = c
            self.owned.discard(key)
            self.body.append(f"    {name} = {expr}")
        elif type(c) is ndarray and type(prev) is ndarray:
            if key in self.owned and prev.shape == c.shape and prev.dtype == c.dtype:
                np.add(prev, c, out=prev)
                self.body.append(f"    np_add({name}, {expr}, out={name})")
            else:
                total = self.cts[key] = prev + c
                if type(total) is ndarray:
                    self.owned.add(key)
                else:
                    self.owned.discard(key)
                self.body.append(f"    {name} = {name} + {expr}")
        else:
            self.cts[key] = _add(prev, c)
            self.owned.discard(key)
            self.body.append(f"    {name} = ADD({name}, {expr})")

    def step(self, k, node, g):
        """Node ``k``'s rule on its cotangent ``g``, and its contributions added."""
        self.stepped[k] = node
        prim, args, parents = node.prim, node.args, node.parents
        gname = f"g{k}"
        vjp = prim.vjp_plain if node.params is None else None
        if vjp is not None and len(args) == 1:
            parent = parents[0]
            prev = self.cts.get(id(parent))
            decl = prim.elementwise
            if prev is not None and decl is not None:
                total = decl.summed_vjp(prev, g, args[0], node.value)
                if total is not None:
                    name = self.name(parent)
                    self.cts[id(parent)] = total
                    self.owned.add(id(parent))
                    self.body.append(f"    node = n{k}")
                    kernel = self.kernel(decl.small_summed(g),
                                         (prev, g, args[0], node.value), total,
                                         (name, gname, "node.args[0]", "node.value"))
                    if kernel is not None:
                        self.body.append(f"    {name} = {kernel}")
                        return
                    self.body.append(
                        f"    {name} = {self.constant(decl.summed_vjp)}({name}, {gname}, "
                        f"node.args[0], node.value)")
                    self.body.append(f"    if {name} is None: return MISS")
                    return
        rule = vjp or prim.vjp  # (the walk's: vjp_plain where it has one and no parameters)
        contributions = rule(node.needs, g, node.value, *args, **(node.params or {}))
        listed = ", ".join(f"node.args[{i}]" for i in range(len(args)))
        keywords = ", **node.params" if node.params else ""
        call = f"{self.constant(rule)}(node.needs, {gname}, node.value, {listed}{keywords})"
        decl = prim.elementwise if vjp is not None else None
        exprs = []
        for i, parent in enumerate(parents):
            c = None if parent is None else contributions[i]
            if c is None:
                exprs.append(None)
            elif i and c is contributions[0] and parents[0] is not None:
                # (x * x: one product given twice; a sum's: its cotangent, twice)
                exprs.append(exprs[0] if exprs[0].isidentifier() else "c0")
            else:
                exprs.append(_inline(decl, i, c, g, gname, args) or self.rule_kernel(
                    decl, i, c, g, gname, args, node.value) or f"r[{i}]")
        lines = []
        if any(e is not None and e.startswith("r[") for e in exprs):
            lines.append(f"    r = {call}")
        if "c0" in exprs:
            lines.append(f"    c0 = {exprs[0]}")
            exprs[0] = "c0"
        if any(e is not None and "node" in e for e in exprs) or lines:
            self.body.append(f"    node = n{k}")
        self.body += lines
        for i, parent in enumerate(parents):
            if parent is None:
                continue
            if exprs[i] is None:  # (a rule that sends none here now must send none then)
                if contributions[i] is None and lines:
                    self.body.append(f"    if r[{i}] is not None: return MISS")
                continue
            self.add(parent, contributions[i], exprs[i])

    def kernel(self, route, operands, result, names):
        """The call of ``route`` (``(ufunc, reads)``: the kernel a rule called, reading
        the positions ``reads`` of ``operands``, named ``names`` in the program), where it
        gives ``result``'s bits here; None otherwise (the rule is called)."""
        if route is None:
            return None
        ufunc, reads = route
        with np.errstate(all="ignore"):  # (the rule reported its warnings already)
            again = ufunc(*[operands[j] for j in reads])
        if not _same_bits(again, result):
            return None
        return f"{self.constant(ufunc)}({', '.join(names[j] for j in reads)})"

    def rule_kernel(self, decl, i, c, g, gname, args, out):
        """Argument ``i``'s contribution ``c`` as its rule's kernel's call, where the rule
        called one and returned its result as it is (no unbroadcasting here)."""
        if decl is None or type(c) is not ndarray or type(args[i]) is not ndarray or \
                c.shape != args[i].shape or c.dtype != args[i].dtype:
            return None
        names = (gname, *[f"node.args[{j}]" for j in range(len(args))], "node.value")
        return self.kernel(decl.small_rule(i, g, args, out), (g, *args, out), c, names)

    def program(self, inputs, out_slot):
        lines = ["def backward_program(t, inputs, out, seed):",
                 f"    if len(t) <= {out_slot} or t[{out_slot}] is not out "
                 f"or len(inputs) != {len(inputs)}: return MISS"]
        lines.append("    " + ", ".join(f"X{j}" for j in range(len(inputs)))
                     + ", = inputs")
        for j, x in enumerate(inputs):
            if type(x.value) is ndarray:
                lines.append(f"    v = X{j}.value")
                lines.append(f"    if type(v) is not ndarray or v.shape != {x.value.shape!r}"
                             f" or v.dtype is not {self.constant(x.value.dtype)}: return MISS")
            else:
                lines.append(f"    if type(X{j}.value) is not "
                             f"{self.constant(type(x.value))}: return MISS")
        # (a comparison that raises, parameters holding an array now: not this structure)
        lines.append("    try:")
        for k in sorted(self.stepped):
            lines += ["    " + line for line in self.guard(k, self.stepped[k])]
        lines.append("    except (TypeError, ValueError): return MISS")
        lines.append(f"    g{out_slot} = seed")
        lines += self.body
        lines.append("    return (" + "".join(
            f"{self.name(x) if id(x) in self.cts else 'None'}, " for x in inputs) + ")")
        code = compile("\n".join(lines) + "\n", PROGRAM_FILE, "exec")
        exec(code, self.scope)  # (names and constants of funcgrad's only: see above)
        # (out of its own globals: no function -> globals -> function cycle to collect)
        return self.scope.pop("backward_program")


def _inline(decl, i, c, g, gname, args):
    """Argument ``i``'s contribution ``c`` of an elementwise rule as an expression of the
    cotangent, where the rule computes it so (``Elementwise``'s ``vjp_plain``): a sum's
    passes ``g`` on, a product's is ``g`` times the other factor, a difference's ``-g``;
    each checked here to give ``c``'s bits, dtype and shape (no unbroadcasting, no
    cast).  None: the rule's call gives it."""
    if decl is None or type(c) is not ndarray:
        return None
    lin = decl.lins[i]
    if lin is identity:
        return gname if c is g else None
    with np.errstate(all="ignore"):  # (the rule reported its warnings already)
        if len(args) == 2 and (lin is times_second and i == 0
                               or lin is times_first and i == 1):
            expr, again = f"{gname} * node.args[{1 - i}]", g * args[1 - i]
        elif lin is negated and len(args) == 2:
            expr, again = f"-{gname}", -g
        else:
            return None
    return expr if _same_bits(again, c) else None


def _same_bits(again, result):
    """Whether a shortcut's value ``again`` is the rule's ``result``: an array of its
    dtype and shape, bit for bit (no unbroadcasting or cast skipped)."""
    return type(again) is ndarray and again.dtype == result.dtype and \
        again.shape == result.shape and again.tobytes() == result.tobytes()


def _write(tape, inputs, out, seed):
    """``(program, the inputs' cotangents)``: the walk of ``tape`` run now and written
    down; None (nothing run) where the tape has a node no program covers."""
    if not _writable(tape, inputs, out):
        return None
    writer = _Writer(tape, inputs)
    out_slot = writer.slot[id(out)]
    writer.cts[id(out)] = seed
    for k in range(len(tape) - 1, -1, -1):
        node = tape[k]
        g = writer.cts.pop(id(node), None)
        if g is None:
            continue
        writer.step(k, node, g)
    program = writer.program(inputs, out_slot)
    return program, tuple(writer.cts.get(id(x)) for x in inputs)


_written = reported(_write)  # (the rules run now: as the walk's and the programs')
NODE_CODES.add(_Writer.step.__code__)
