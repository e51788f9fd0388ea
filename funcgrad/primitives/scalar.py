"""Scalar code: how one element of an elementwise primitive is computed, as source text.

Every elementwise primitive declares its *scalar definition* once (see
:mod:`funcgrad.primitives.elementwise`): Python statements that compute ``r`` from the
inputs ``x0, x1, ...``, where ``C(v)`` is the constant ``v`` in the compute dtype (so a
float32 kernel never computes in float64 by accident) and ``F.<leaf>(...)`` is a leaf of
the scalar maths library (``exp``, ``sin``, ``floor``, ``fmod``...; the constants
``F.LN2``, ``F.LOG2E``).  A definition may differ by the kind of the compute dtype
(``{"f": ..., "i": ...}`` for floats and integers; ``"b"`` for booleans).

Each backend turns definitions into code with :class:`Emitter`, choosing what a leaf is
(the CPU kernels and ``jit``: Numba-callable functions, vectorised where
:mod:`funcgrad.kernels.cpu.vmath` has one; the GPU: CUDA's libdevice) and how a constant
is written.  A *linear rule* (``g * cos(x)``) is captured once as a graph of elementwise
primitives (:func:`capture`) and emitted the same way, so the fused first-order kernels
of every backend are generated from the one rule that forward and reverse mode use.
"""
import ast
import functools
import math
import re
import threading

import numpy as np

from ..core import ROOT, ShapedArray, run_under

__all__ = ["Emitter", "body_for", "capture", "literal", "cast", "leaves_of", "eqn_compute",
           "LEAF_CONSTANTS", "smith_division"]

LEAF_CONSTANTS = {"LN2": math.log(2.0), "LOG2E": 1.0 / math.log(2.0), "LN10": math.log(10.0),
                  "INF": math.inf, "NAN": math.nan}


_PARSE_LOCK = threading.Lock()


def parse(source, mode="exec"):
    """``ast.parse``, one thread at a time: CPython 3.11's conversion of a syntax tree to
    Python objects keeps its recursion depth in state the threads share, and two threads
    parsing at once fail with "AST constructor recursion depth mismatch"."""
    with _PARSE_LOCK:
        return ast.parse(source, mode=mode)


def kind_of(dtype):
    """The key of a scalar definition for computing in ``dtype``: "f", "i", "b" or "c"."""
    k = np.dtype(dtype).kind
    return k if k in "fbc" else "i"


def body_for(definition, dtype):
    """The statements of ``definition`` for computing in ``dtype``, or None if it has none
    for that kind of dtype.  Complex dtypes compute with NumPy's ufuncs (their rules hold
    conjugations the scalar code does not express), so only a definition that names "c"
    has a body for them.  (GPU arrays compute complex elements in generated kernels too,
    from definitions of their own: :mod:`funcgrad.gpu.complex_code`.)"""
    if isinstance(definition, str):
        return None if np.dtype(dtype).kind == "c" else definition
    return definition.get(kind_of(dtype))


@functools.lru_cache(maxsize=1024)  # (asked per equation: 40% of jit's lowering time)
def leaves_of(body):
    """The names of the leaves ``F.<name>(...)`` that ``body`` calls (a frozenset)."""
    return frozenset(node.func.attr for node in ast.walk(parse(body))
                     if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                     and isinstance(node.func.value, ast.Name) and node.func.value.id == "F")


def eqn_compute(eqn):
    """``(operand dtypes, body dtype)`` of an elementwise equation of a graph: the dtype
    each input is read in, and the one its definition computes in (whose kind picks the
    definition, and which its constants ``C(...)`` take)."""
    decl = eqn.prim.elementwise
    computes = decl.compute_dtypes([x.aval if hasattr(x, "aval") else x for x in eqn.inputs],
                                   eqn.outvars[0].aval.dtype)
    return computes, (computes[-1] if decl.compute == "select" else computes[0])


def needs_cast(compute, out):
    """Must a definition computed in ``compute`` be converted to give ``out``?  Boolean
    results are booleans already; float64 arithmetic stays float64; anything narrower
    (float32, whose leaves may compute in float64) is rounded after each operation."""
    out = np.dtype(out)
    if out.kind == "b":
        return False
    return out != compute or out != np.float64


def literal(value, dtype):
    """Source text of ``value`` converted to ``dtype`` as NumPy converts it (valid in
    Numba code, CPU and CUDA alike)."""
    dtype = np.dtype(dtype)
    with np.errstate(all="ignore"):
        v = dtype.type(value)
    if dtype.kind == "b":
        return "True" if v else "False"
    if dtype.kind == "c":  # (parts in the matching precision: complex64 stays complex64)
        part = np.float32 if dtype == np.complex64 else np.float64
        return f"complex({literal(v.real, part)}, {literal(v.imag, part)})"
    if dtype.kind == "f":
        f = float(v)
        if f != f:
            text = "np.nan"
        elif f in (math.inf, -math.inf):
            text = "np.inf" if f > 0 else "(-np.inf)"
        else:
            text = repr(f)
            if text.startswith("-"):
                text = f"({text})"
        return text if dtype == np.float64 else f"np.{dtype.name}({text})"
    text = str(int(v))
    if text.startswith("-"):
        text = f"({text})"
    return text if dtype == np.int64 else f"np.{dtype.name}({text})"


def cast(expr, dtype):
    """``expr`` converted to ``dtype`` (as NumPy's ``astype``; bool: nonzero)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return f"({expr} != 0)"
    return f"np.{dtype.name}({expr})"


class _Rewrite(ast.NodeTransformer):
    """Substitutes inputs, renames locals, writes constants and leaves for a backend."""

    def __init__(self, emitter, args, target, dtype, locals_):
        self.e, self.args, self.target, self.dtype, self.locals = (
            emitter, args, target, dtype, locals_)

    def visit_Name(self, node):
        name = node.id
        if name == "r":
            return ast.copy_location(ast.Name(self.target, node.ctx), node)
        if len(name) > 1 and name[0] == "x" and name[1:].isdigit():
            return ast.copy_location(parse(self.args[int(name[1:])], mode="eval").body,
                                     node)
        if name in self.locals:
            return ast.copy_location(ast.Name(self.locals[name], node.ctx), node)
        return node

    def visit_Call(self, node):
        f = node.func
        if isinstance(f, ast.Name) and f.id == "C":
            value = eval(compile(ast.Expression(node.args[0]), "<C>", "eval"),  # noqa: S307
                         {"F": _Constants})
            return parse(self.e.literal(value, self.dtype), mode="eval").body
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "F":
            node.args = [self.visit(a) for a in node.args]
            node.func = parse(self.e.leaf(f.attr, self.dtype), mode="eval").body
            return node
        return self.generic_visit(node)

    def visit_Attribute(self, node):
        if isinstance(node.value, ast.Name) and node.value.id == "F":
            return parse(self.e.literal(LEAF_CONSTANTS[node.attr], self.dtype),
                             mode="eval").body
        return self.generic_visit(node)


class _Constants:
    """``F.<constant>`` inside ``C(...)``."""
    LN2, LOG2E, LN10 = LEAF_CONSTANTS["LN2"], LEAF_CONSTANTS["LOG2E"], LEAF_CONSTANTS["LN10"]
    INF, NAN = math.inf, math.nan


def _assigned(tree):
    """The names ``tree`` assigns, in the order of a walk of it: a fixed order (a set's
    would vary with string hashing between processes), so that the locals are renamed
    alike and the generated source, hence its disk cache entry, is the same each time."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.setdefault(node.id)
    return list(names)


_PLACEHOLDER = re.compile(r"__a(\d+)__")
_NAME_OR_NUMBER = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|[0-9][0-9.]*(e[+-]?[0-9]+)?")


def _operand(text):
    """An operand's source as it can stand in any expression."""
    if _NAME_OR_NUMBER.fullmatch(text) or (text.startswith("(") and _balanced_outer(text)):
        return text
    return f"({text})"


def _balanced_outer(text):
    """Does the parenthesis opening ``text`` close at its end (``(a + b)``, not
    ``(a) + (b)``)?"""
    depth = 0
    for k, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return k == len(text) - 1
    return False


class Emitter:
    """Writes scalar definitions as code for one backend.

    ``leaf(name, dtype)``: the source of the function ``F.<name>`` computing in
    ``dtype``; ``literal(value, dtype)``: the source of a constant; ``cast(expr, dtype)``:
    ``expr`` rounded to ``dtype`` (each operation of a float32 computation is rounded to
    float32, as NumPy computes it).
    """

    def __init__(self, leaf, literal, cast):
        self.leaf, self.literal, self.cast = leaf, literal, cast
        self._count = 0
        self._templates = {}  # (body, operands, dtype) -> expression(), placeholders in

    def fresh(self, prefix="s"):
        self._count += 1
        return f"_{prefix}{self._count}"

    def statements(self, body, args, target, dtype):
        """Lines computing ``target`` from the source expressions ``args`` in ``dtype``
        (locals named afresh from 1: the same definition always gives the same text, so
        generated kernels hit their disk cache)."""
        self._count = 0
        return self._statements(body, args, target, dtype)

    def _statements(self, body, args, target, dtype):
        tree = parse(body)
        locals_ = {n: self.fresh() for n in _assigned(tree) if n != "r"}
        tree = ast.fix_missing_locations(_Rewrite(self, args, target, dtype, locals_).visit(tree))
        return ast.unparse(tree).splitlines()

    def expression(self, body, args, dtype):
        """The source expression of a one-line definition ``r = <expr>``, else None."""
        key = (body, len(args), np.dtype(dtype))
        template = self._templates.get(key, False)
        if template is False:  # written once, with placeholders for the operands
            template = self._templates[key] = self._expression(
                body, [f"__a{k}__" for k in range(len(args))], dtype)
        if template is None:
            return None
        # (an operand that is not a name or a number is parenthesised: the same value)
        return _PLACEHOLDER.sub(lambda m: _operand(args[int(m.group(1))]), template)

    def _expression(self, body, args, dtype):
        tree = parse(body)
        if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Assign):
            return None
        stmt = tree.body[0]
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) \
                or stmt.targets[0].id != "r":
            return None
        expr = ast.Expression(stmt.value)
        expr = ast.fix_missing_locations(_Rewrite(self, args, "r", dtype, {}).visit(expr))
        return ast.unparse(expr)

    def graph(self, graph, args, dtype):
        """Lines computing a captured graph of elementwise equations (see :func:`capture`)
        from the source expressions ``args`` of its inputs; returns ``(lines, result)``
        where ``result`` is the expression of its one output."""
        self._count = 0
        env = {id(v): a for v, a in zip(graph.invars, args)}
        lines = []

        def read(x, compute):
            if id(x) in env:
                src, src_dtype = env[id(x)], getattr(getattr(x, "aval", None), "dtype", None)
                return src if src_dtype is None or src_dtype == compute else \
                    self.cast(src, compute)
            return self.literal(x, compute)  # a constant of the rule

        for eqn in graph.eqns:
            out = eqn.outvars[0]
            decl = eqn.prim.elementwise
            if decl is None:  # an identity on scalars (broadcast_to, a cast)
                src = eqn.inputs[0]
                name = self.fresh("t")
                lines.append(f"{name} = {self.cast(read(src, out.aval.dtype), out.aval.dtype)}")
                env[id(out)] = name
                continue
            computes, compute = eqn_compute(eqn)
            operands = [read(x, c) for x, c in zip(eqn.inputs, computes)]
            name = self.fresh("t")
            body = body_for(decl.scalar, compute)
            if needs_cast(compute, out.aval.dtype):  # (a new name: Numba types each once)
                raw = self.fresh("u")
                lines += self._statements(body, operands, raw, compute)
                lines.append(f"{name} = {self.cast(raw, out.aval.dtype)}")
            else:
                lines += self._statements(body, operands, name, compute)
            env[id(out)] = name
        out = graph.outvars[0]
        result = env[id(out)] if id(out) in env else self.literal(out, dtype)
        return lines, result


def capture(rule, n, dtype):
    """Trace ``rule(*scalars)`` on ``n`` 0-d values of ``dtype`` into a graph (computed by
    the root interpreter, whatever transform is running now)."""
    from ..interpreters.graph import trace_to_graph
    aval = ShapedArray((), dtype)
    return run_under(ROOT, trace_to_graph, lambda *xs: [rule(*xs)], [aval] * n)


def smith_division(a, b):
    """The complex element code of ``r = a / b`` (``a`` and ``b`` names of complex values)
    by Smith's algorithm, as NumPy's complex loop divides: no overflow of ``|b|**2``, and
    ``z / 0`` is inf or NaN where Numba's own division would raise.  The GPU kernels and
    the jit's fused complex loops both compute it this way."""
    return f"""br = abs({b}.real)
bi = abs({b}.imag)
if br >= bi:
    if br == C(0) and bi == C(0):
        r = complex({a}.real / br, {a}.imag / br)
    else:
        rat = {b}.imag / {b}.real
        scl = C(1) / ({b}.real + {b}.imag * rat)
        r = complex(({a}.real + {a}.imag * rat) * scl, ({a}.imag - {a}.real * rat) * scl)
else:
    rat = {b}.real / {b}.imag
    scl = C(1) / ({b}.imag + {b}.real * rat)
    r = complex(({a}.real * rat + {a}.imag) * scl, ({a}.imag * rat - {a}.real) * scl)"""
