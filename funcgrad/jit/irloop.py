"""Loop functions written as LLVM IR by funcgrad itself, without Numba's front end.

A fused loop function (:mod:`.outline`) is a few dozen lines of a small language: scalar
arithmetic on local names, loads and stores of array elements, calls of the vector maths,
``for`` loops over ``range`` and a check that raises.  Numba's cost for such a function
is per statement (type inference, lowering and its own passes: 0.3-0.5 s for a loop of
twenty statements, where LLVM's work on the result takes milliseconds;
benchmarks/results/amd-2026-12-03-session8.md).  So :func:`loop_intrinsic` reads the
text with :mod:`ast` and returns a Numba *intrinsic*: the kernel that calls it gets the
loop written into its own body as IR, in the instructions Numba would emit for the same
text (one IEEE operation per operator in the same order, negation as ``-0.0 - x``, the
vector maths' own IR from :mod:`funcgrad.kernels.cpu.vbodies`), so results keep their
bits.

Text outside that language (integer division, most C-library leaves, sums, helper
functions, parallel loops) makes :func:`loop_intrinsic` return None, and the loop is a
Numba function as before.  Argument types the writer does not handle, found when a kernel
is typed, make the intrinsic compile the same text with Numba inside that kernel instead.
"""
import ast
import functools
import hashlib
import math
import os
import re

from llvmlite import ir

from .irwrite import (CALLS, I8, MEMORY, NODES, VALUE, Array, Unsupported, Writer, element,
                      single_values)
from .irmaths import ROUTINES
from ..primitives.scalar import parse
from .source import loop_key

__all__ = ["loop_intrinsic", "writes", "parts", "Parts", "kind", "flat_types", "Unsupported",
           "IR_LOOPS"]

# Loop functions written as LLVM IR where their text allows; 0: every loop function
# compiled by Numba (for comparing the two).
IR_LOOPS = os.environ.get("FUNCGRAD_JIT_IR_LOOPS", "1") != "0"

# Loops over at most this many elements call the vector maths as functions of the module
# (.irmaths: LLVM's work on each routine once, not once per call site), where the compile
# time is what the user waits for; larger loops have the bodies inlined, where the calls
# cost run time (1.5x at 16384 float64 elements, 2x at 1e5: each call spills the loop's
# live vectors; within the noise at 64 and 1024).
CALL_MATHS_MAX_ELEMENTS = 1024
_OVER = re.compile(r"# fused: .* over \(([0-9, ]*)\)")


def _elements(source):
    """The most elements a loop of ``source`` runs over, from the ``# fused: ... over
    (shape)`` lines :func:`funcgrad.jit.fusion.emit_loop` writes (None without one)."""
    sizes = [math.prod(int(d) for d in m.split(",") if d.strip())
             for m in _OVER.findall(source)]
    return max(sizes) if sizes else None


def _walk(stmts):
    """Every node of the statements ``stmts``, statement by statement, each in
    :func:`ast.walk`'s order (breadth first), in a list: the same nodes without
    ``ast.walk``'s generators (half the time, for the parse-back of every loop text)."""
    out = []
    for stmt in stmts:
        todo = [stmt]
        for node in todo:  # (appended to while read: breadth first)
            for field in node._fields:
                value = getattr(node, field, None)
                if isinstance(value, ast.AST):
                    todo.append(value)
                elif isinstance(value, list):
                    todo.extend(v for v in value if isinstance(v, ast.AST))
        out += todo
    return out


def _parse(source):
    """``(params, body)`` of the ``loop`` function ``source`` defines, or None when the
    module defines anything else (helpers) or the loop is parallel or returns values."""
    parsed = _parse_nodes(source)
    return None if parsed is None else parsed[:2]


@functools.lru_cache(maxsize=1024)  # (outline asks, then the cache's loader)
def _parse_nodes(source):
    """:func:`_parse`'s ``(params, body)`` and every node of the body (:func:`_walk`)."""
    try:
        tree = parse(source)  # (one thread at a time: see scalar.parse)
    except SyntaxError:
        return None
    fn = None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == "loop" and fn is None:
            fn = node
        elif not isinstance(node, (ast.Import, ast.ImportFrom)):
            return None
    if fn is None or fn.args.vararg or fn.args.kwarg or fn.args.defaults:
        return None
    for deco in fn.decorator_list:
        for kw in getattr(deco, "keywords", ()):
            if kw.arg == "parallel" and getattr(kw.value, "value", False):
                return None
    nodes = _walk(fn.body)
    if any(isinstance(n, (ast.Return, ast.While, ast.Lambda, ast.Yield, ast.Global))
           for n in nodes + _walk(fn.decorator_list)):
        return None
    return [a.arg for a in fn.args.args], fn.body, nodes


def _in_language(nodes):
    """Is every statement and expression of a loop body (``nodes``: all its nodes) one
    :class:`Writer` writes (for some argument types)?  Argument types are checked when a
    kernel is typed."""
    for node in nodes:
        if not isinstance(node, NODES):
            return False
        if isinstance(node, ast.Subscript) and any(  # (Numba wraps them around)
                isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub) or
                isinstance(n, ast.Constant) and type(n.value) is int and n.value < 0
                for n in ast.walk(node.slice)):
            return False
        if isinstance(node, ast.Call):
            fn = node.func
            if isinstance(fn, ast.Name):
                if fn.id not in ("range", "abs"):
                    return False
            elif not (isinstance(fn, ast.Attribute) and isinstance(fn.value, ast.Name)
                      and ((fn.value.id, fn.attr) in CALLS or fn.value.id == "_rt")):
                return False
    return True

def kind(t):
    """How the loop takes an argument of Numba type ``t``: ``("scalar", dtype)``,
    ``("array", dtype, ndim, layout)``, or ``("entry", dtype, ndim, layout)`` for a pair
    ``(stack, k)`` standing for the stack's entry ``stack[k]`` (see
    :class:`funcgrad.jit.outline._Run`)."""
    from numba import types
    from numba.np.numpy_support import as_dtype
    t = types.unliteral(t)
    if isinstance(t, (types.Float, types.Integer, types.Boolean)):
        dtype = as_dtype(t)
        if dtype in VALUE:
            return "scalar", dtype
    entry = (isinstance(t, types.BaseTuple) and len(t) == 2
             and isinstance(t[0], types.Array) and t[0].ndim >= 2
             and isinstance(t[1], types.Integer) and t[1].bitwidth == 64)
    arr = t[0] if entry else t
    if isinstance(arr, types.Array) and arr.ndim > 0:
        dtype = as_dtype(arr.dtype)
        if dtype in MEMORY:
            return "entry" if entry else "array", dtype, arr.ndim, arr.layout
    raise Unsupported(f"argument of type {t}")


def flat_types(kind):
    """The LLVM types the loop function takes one argument of kind :func:`kind` as: a
    scalar, or an array's (an entry's) data pointer, shape and strides."""
    if kind[0] == "scalar":
        return [VALUE[kind[1]]]
    ndim = kind[2] - (kind[0] == "entry")
    return [MEMORY[kind[1]].as_pointer()] + [VALUE[I8]] * (2 * ndim)


def _flatten(builder, kinds, values):
    """The kernel's arguments (Numba's array structs, pairs) as the loop function takes
    them; the pointer to a pair's entry is computed here, in the kernel."""
    out = []
    for kind, v in zip(kinds, values):
        if kind[0] == "scalar":
            out.append(v)
            continue
        struct = v if kind[0] == "array" else builder.extract_value(v, 0)
        ndim = kind[2]
        data = builder.extract_value(struct, 4)
        shape = [builder.extract_value(struct, [5, k]) for k in range(ndim)]
        strides = [builder.extract_value(struct, [6, k]) for k in range(ndim)]
        if kind[0] == "entry":  # (stack, k): the stack's entry k, as the kernel's st[k]
            arr = Array(data, shape, strides, kind[1], kind[3] == "C")
            zero = ir.Constant(VALUE[I8], 0)
            at = [builder.extract_value(v, 1)] + [zero] * (ndim - 1)
            data, shape, strides = (element(builder, arr, at), shape[1:],
                                    strides[1:])
        out += [data] + shape + strides
    return out


def _raises(nodes):
    """The (exception class, message) of each ``raise`` of the loop (``nodes``: all the
    nodes of its body, statement by statement), in order: the loop function returns k
    for the k-th (0: none)."""
    from . import runtime
    out = []
    for node in nodes:
        if isinstance(node, ast.Raise):
            exc = node.exc
            try:
                out.append((getattr(runtime, exc.func.attr), exc.args[0].value))
            except (AttributeError, IndexError):
                raise Unsupported("raise") from None
    return out


def _define(module, name, params, body, kinds, raises, maths="inline", values=frozenset(),
            noalias=False):
    """Define the loop function ``name`` (internal to ``module``): the loop, then
    ``return 0``; a raise returns its number in ``raises`` (:func:`_raises`) plus one.
    ``maths``: how the vector maths are written, ``values``: the names written as SSA
    values (:class:`.irwrite.Writer`); ``noalias``: the arrays' data pointers marked
    ``noalias`` (the caller knows that no array it writes overlaps another argument)."""
    status = ir.IntType(32)
    flat = [t for kind in kinds for t in flat_types(kind)]
    fn = ir.Function(module, ir.FunctionType(status, flat), name)
    fn.linkage = "internal"
    if noalias:
        for arg in fn.args:
            if isinstance(arg.type, ir.PointerType):
                arg.add_attribute("noalias")
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    writer = Writer(builder, lambda b, cls, message: b.ret(
        ir.Constant(status, raises.index((cls, message)) + 1)), maths, values)
    writer.bind(params, kinds, fn.args)
    writer.statements(body)
    if not builder.block.is_terminated:
        builder.ret(ir.Constant(status, 0))
    return fn


def _by_numba(params, numba_types, loop):
    """A function calling the Numba-compiled ``loop`` with these arguments, pairs
    ``(stack, k)`` passed as the entry ``stack[k]`` (the kernel compiles it in)."""
    from numba import types
    args = [f"{p}[0][{p}[1]]" if isinstance(t, types.BaseTuple) else p
            for p, t in zip(params, numba_types)]
    namespace = {"loop": loop}
    exec(f"def by_numba({', '.join(params)}):\n    loop({', '.join(args)})\n", namespace)
    return namespace["by_numba"]


def _written(params, nodes):
    """The parameters of the loop that it stores into (``nodes``: all the nodes of its
    body), or None when it stores into an array under another name (a view), which
    could be any of them."""
    out = set()
    for node in nodes:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Subscript):
                    if not (isinstance(t.value, ast.Name) and t.value.id in params):
                        return None
                    out.add(t.value.id)
    return frozenset(out)


def writes(source):
    """Will :func:`loop_intrinsic` write the loop function ``source`` as IR?"""
    return parts(source) is not None  # (cached: the kernel's loader asks again)


class Parts:
    """What writing the loop function of one text needs: its parameters and statements,
    the ``(exception class, message)`` of each raise, how the vector maths are written,
    which parameters it stores into (``written``: None for any)."""

    __slots__ = ("key", "params", "body", "raises", "maths", "values", "written", "routines")

    def __init__(self, key, params, body, raises, maths, nodes=None):
        self.key, self.params, self.body = key, params, body
        self.raises, self.maths = raises, maths
        if nodes is None:  # (every node of the body, statement by statement)
            nodes = _walk(body)
        self.values = single_values(params, body, nodes)
        self.written = _written(params, nodes)
        # the vector maths it calls as functions (.irmaths), not inlined
        self.routines = frozenset() if maths == "inline" else frozenset(
            n.func.attr for n in nodes
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and isinstance(n.func.value, ast.Name) and n.func.value.id == "_vm"
            and n.func.attr in ROUTINES)

    def define(self, module, name, kinds, noalias=False, library=False):
        """Define the loop function ``name`` in ``module`` for arguments of ``kinds``
        (:func:`kind`), its arrays ``noalias`` if asked, calling the vector maths of
        :func:`funcgrad.jit.irmaths.library` (only declared) if ``library``; raises
        :class:`Unsupported` where the writer cannot."""
        maths = "library" if library and self.maths == "call" else self.maths
        return _define(module, name, self.params, self.body, kinds, self.raises, maths,
                       self.values, noalias)


def parts(source):
    """The :class:`Parts` of the loop function ``source``, or None when its text is outside
    the language :class:`Writer` handles (or IR loops are turned off)."""
    return _parts(source) if IR_LOOPS else None


@functools.lru_cache(maxsize=1024)
def _parts(source):
    parsed = _parse_nodes(source)
    if parsed is None:
        return None
    params, body, nodes = parsed  # (one walk for every question)
    if not _in_language(nodes):
        return None
    try:
        raises = _raises(nodes)
    except Unsupported:
        return None
    elements = _elements(source)
    maths = "call" if elements is not None and elements <= CALL_MATHS_MAX_ELEMENTS \
        else "inline"
    return Parts(loop_key(source), params, body, raises, maths, nodes)


def loop_intrinsic(source, numba_version):
    """A Numba intrinsic that writes the loop function ``source`` into the kernel calling
    it, or None when the text is outside the language :class:`Writer` handles.
    ``numba_version()`` gives the Numba dispatcher of the same text, compiled into the
    kernel for argument types the writer does not handle."""
    loop = parts(source)
    if loop is None:
        return None
    from numba.extending import intrinsic
    params, body, raises, key = loop.params, loop.body, loop.raises, loop.key
    checked = {}  # argument types -> their kinds, or None: compiled by Numba

    def typer(typingctx, argtypes):
        from numba import types
        if argtypes not in checked:
            try:
                kinds = [kind(t) for t in argtypes]
                # (written into a scratch module, the vector maths only declared: raises
                # where the writer cannot)
                _define(ir.Module(), "check", params, body, kinds, raises, "declare")
                checked[argtypes] = kinds
            except Unsupported:
                checked[argtypes] = None
        kinds = checked[argtypes]

        def codegen(context, builder, signature, args):
            if kinds is None:
                return context.compile_internal(builder, _by_numba(params, signature.args,
                                                                   numba_version()),
                                                signature, args)
            # One function per kernel module and argument types, called from each place
            # (a repeated step's first, rolled and last calls): LLVM's work on it once.
            tag = hashlib.sha256(str(argtypes).encode()).hexdigest()[:8]
            name = f"fgloop.{key}.{tag}"
            fn = builder.module.globals.get(name)
            if fn is None:
                fn = loop.define(builder.module, name, kinds)
            status = builder.call(fn, _flatten(builder, kinds, args))
            for code, (cls, message) in enumerate(raises, 1):
                with builder.if_then(builder.icmp_signed(
                        "==", status, ir.Constant(status.type, code)), likely=False):
                    context.call_conv.return_user_exc(builder, cls, (message,))
            return context.get_dummy_value()
        return types.none(*argtypes), codegen

    names = ", ".join(params)
    namespace = {"_typer": typer}
    exec(f"def loop(typingctx, {names}):\n    return _typer(typingctx, ({names},))\n",
         namespace)
    return intrinsic(namespace["loop"])

