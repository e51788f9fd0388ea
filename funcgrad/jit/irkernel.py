"""Kernels made only of IR loops, allocations and repeats, written whole as LLVM IR and
compiled with llvmlite, without Numba's front end.

An outlined kernel (:mod:`.outline`) of a long elementwise chain is a list of
``np.empty`` stacks, scalar constants, calls of loop functions (each written as IR by
:mod:`.irloop`) and ``for`` loops repeating such calls, then ``return st[i, j].copy()``.
Numba's typing and lowering of that glue, its wrapper and ``np.empty``'s overload, and
its two optimisation pipelines over the result, were most of the cold compile time left
at 200 operations (benchmarks/results/jit_compile.md).  Here :func:`read` reads such a
kernel's text; on its first call :class:`.irkernelcall.Kernel` writes one LLVM function holding
the loops and the calls, runs one O2 pipeline with the loop vectoriser over it (no
fast-math flags anywhere, so the instructions, and the bits, are those of the Numba path)
and adds the machine code to Numba's own engine.  The object code is kept in the jit
cache folder, so a later process loads it instead of compiling.

The stacks live in one byte buffer NumPy allocates per call (a result that fills its
stack is allocated alone and returned as it is); the compiled function is a CPython
builtin of the arrays (``METH_FASTCALL``), checks their number of dimensions, shape,
C-contiguity and alignment itself (NumPy's ``PyArrayObject`` fields, whose offsets are
checked on import), runs without the GIL and returns a status: 0, a raise of a loop
(``TrigRangeError``, raised by the Python caller), or -1 for arguments it was not
compiled for, which are then copied or go to the Numba kernel of the same text.  Any
text outside this small language is compiled by Numba as before.
"""
import ast
import ctypes
import hashlib
import os
import sys

import numpy as np
from llvmlite import ir

from .irloop import Unsupported, flat_types, parts
from .irmaths import keep_variants
from .irwrite import MEMORY, VALUE
from ..primitives.scalar import parse
from .source import loop_key

__all__ = ["read", "write", "raised_codes", "Unsupported", "IR_KERNELS"]

# Kernels written whole as IR where their text allows; 0: compiled by Numba (comparisons).
IR_KERNELS = os.environ.get("FUNCGRAD_JIT_IR_KERNELS", "1") != "0"

_I64, _I32, _I8P = ir.IntType(64), ir.IntType(32), ir.IntType(8).as_pointer()
_DTYPES = {"float64", "float32", "int64", "bool_"}
_ALIGN = 64  # (each stack starts on a cache line of the buffer)
_TINY_TRIP_COUNT = 16  # (LLVM's TinyTripCountVectorThreshold)


def _array_fields():
    """The byte offsets of ``data``, ``nd``, ``dimensions``, ``strides`` and ``flags`` in
    NumPy's ``PyArrayObject`` (its public struct, unchanged since NumPy 1.7), checked
    against an array here; None if they do not match (then Numba compiles every kernel)."""
    offsets = {"data": 16, "nd": 24, "dimensions": 32, "strides": 40, "flags": 64}
    a = np.zeros((3, 5))
    base = id(a)
    read = ctypes.c_void_p.from_address
    try:
        ok = (read(base + offsets["data"]).value == a.ctypes.data
              and ctypes.c_int.from_address(base + offsets["nd"]).value == 2
              and (ctypes.c_int64 * 2).from_address(
                  read(base + offsets["dimensions"]).value)[:] == [3, 5]
              and (ctypes.c_int64 * 2).from_address(
                  read(base + offsets["strides"]).value)[:] == [40, 8]
              and ctypes.c_int.from_address(base + offsets["flags"]).value
              == a.flags.num)
    except (ValueError, OSError):  # pragma: no cover - another Python's object layout
        ok = False
    cpython = sys.implementation.name == "cpython"  # (the builtin is made by its C API)
    return offsets if ok and cpython and ctypes.sizeof(ctypes.c_void_p) == 8 else None


_FIELDS = _array_fields()
_C_ALIGNED = 0x1 | 0x100  # NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED


class _Stack:
    __slots__ = ("name", "shape", "dtype", "where", "offset")

    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, shape, dtype
        self.where, self.offset = "buffer", 0  # or ("result", k): allocated alone


class _Text:
    """A kernel's statements read from its text: raises :class:`Unsupported` at anything
    outside the language (then Numba compiles the kernel)."""

    def __init__(self, fn, loops):
        self.params = [a.arg for a in fn.args.args]
        if fn.args.vararg or fn.args.kwarg or fn.args.defaults or fn.args.kwonlyargs:
            raise Unsupported("arguments")
        self.loops = loops  # the kernel's name for a loop -> its irloop.Parts
        self.stacks = {}
        self.scalars = {}  # name -> (value, dtype)
        self.body = self.block(fn.body[:-1], {})
        ret = fn.body[-1] if fn.body else None
        if not isinstance(ret, ast.Return) or ret.value is None:
            raise Unsupported("no return")
        self.single = not isinstance(ret.value, ast.Tuple)
        self.results = [self.result(e) for e in
                        ([ret.value] if self.single else ret.value.elts)]
        # A result that is its stack's only entry is allocated alone and returned as it is
        # (Numba's copy of it, without the copy); the other stacks share one buffer.
        self.alone = []  # those stacks, in the order the function takes them
        returned = [stack for stack, _, _ in self.results]
        for stack in returned:
            if stack.shape[0] * stack.shape[1] == 1 and returned.count(stack) == 1:
                stack.where = ("result", len(self.alone))
                self.alone.append(stack)
        self.nbytes = 0
        for stack in self.stacks.values():
            if stack.where == "buffer":
                stack.offset = self.nbytes
                size = int(np.prod(stack.shape)) * stack.dtype.itemsize
                self.nbytes += -(-size // _ALIGN) * _ALIGN

    def block(self, stmts, ranges):
        out = []
        for s in stmts:
            if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(
                    s.targets[0], ast.Name):
                self.assign(s.targets[0].id, s.value)
            elif isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
                out.append(self.call(s.value, ranges))
            elif (isinstance(s, ast.For) and isinstance(s.target, ast.Name) and not s.orelse
                  and isinstance(s.iter, ast.Call) and _named(s.iter.func) == "range"
                  and len(s.iter.args) == 2 and not s.iter.keywords):
                lo, hi = (_integer(a) for a in s.iter.args)
                inner = dict(ranges)
                inner[s.target.id] = (lo, hi)
                out.append(("for", s.target.id, lo, hi, self.block(s.body, inner)))
            else:
                raise Unsupported("statement")
        return out

    def assign(self, name, value):
        if name in self.stacks or name in self.scalars or name in self.params:
            raise Unsupported("a name assigned twice")
        if isinstance(value, ast.Constant) and type(value.value) in (float, int, bool):
            dtype = {float: "float64", int: "int64", bool: "bool_"}[type(value.value)]
            self.scalars[name] = (value.value, np.dtype(dtype))
            return
        if not (isinstance(value, ast.Call) and _named(value.func) == "np.empty"
                and len(value.args) == 2 and not value.keywords
                and isinstance(value.args[0], ast.Tuple)):
            raise Unsupported("assignment")
        dtype = _named(value.args[1])
        if dtype is None or not dtype.startswith("np.") or dtype[3:] not in _DTYPES:
            raise Unsupported("dtype")
        shape = tuple(_integer(d) for d in value.args[0].elts)
        if len(shape) < 3 or min(shape) < 1:
            raise Unsupported("stack shape")
        self.stacks[name] = _Stack(name, shape, np.dtype(dtype[3:]))

    def call(self, node, ranges):
        loop = self.loops.get(_named(node.func))
        if loop is None or node.keywords or len(node.args) != len(loop.params):
            raise Unsupported("call")
        args = []
        for a in node.args:
            if isinstance(a, ast.Name) and a.id in self.scalars:
                args.append(("scalar", a.id))
            elif isinstance(a, ast.Name) and a.id in self.params:
                args.append(("param", a.id))
            elif isinstance(a, ast.Name) and a.id in self.stacks:
                args.append(("stack", a.id))
            elif (isinstance(a, ast.Tuple) and len(a.elts) == 2
                  and isinstance(a.elts[0], ast.Name) and a.elts[0].id in self.stacks):
                stack = self.stacks[a.elts[0].id]
                index = a.elts[1]
                _check_index(index, ranges, stack.shape[0])
                args.append(("entry", stack.name, index))
            else:
                raise Unsupported("loop argument")
        return ("call", loop, args)

    def result(self, node):
        # st[i, j].copy()
        if not (isinstance(node, ast.Call) and not node.args and not node.keywords
                and isinstance(node.func, ast.Attribute) and node.func.attr == "copy"
                and isinstance(node.func.value, ast.Subscript)):
            raise Unsupported("result")
        sub = node.func.value
        stack = self.stacks.get(_named(sub.value))
        index = sub.slice
        if stack is None or not isinstance(index, ast.Tuple) or len(index.elts) != 2:
            raise Unsupported("result")
        i, j = (_integer(e) for e in index.elts)
        if not (0 <= i < stack.shape[0] and 0 <= j < stack.shape[1]):
            raise Unsupported("result index")
        return stack, i, j


def _named(node):
    """``a`` or ``a.b`` as text, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    return None


def _integer(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_integer(node.operand)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    raise Unsupported("not an integer")


def _value(node, env):
    """An index expression (integers, the repeats' counters, ``+ - *``) at ``env``."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_value(node.operand, env)
    if isinstance(node, ast.BinOp) and type(node.op) in _INDEX_OPS:
        return _INDEX_OPS[type(node.op)](_value(node.left, env), _value(node.right, env))
    raise Unsupported("index")


_INDEX_OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
              ast.Mult: lambda a, b: a * b}


def _check_index(node, ranges, size):
    """An entry index in bounds at every iteration of the repeats around it: it must be
    affine in their counters (a product has a constant side), so its extremes are at the
    corners of their ranges."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.BinOp) and isinstance(sub.op, ast.Mult) and all(
                any(isinstance(n, ast.Name) for n in ast.walk(side))
                for side in (sub.left, sub.right)):
            raise Unsupported("index not affine")
    corners = [{}]
    for name, (lo, hi) in ranges.items():
        if hi <= lo:
            return  # (never runs)
        corners = [dict(c, **{name: v}) for c in corners for v in (lo, hi - 1)]
    for env in corners:
        if not 0 <= _value(node, env) < size:
            raise Unsupported("index out of bounds")


def read(kernel_source, name, loop_sources):
    """``(statements, key)`` of the function ``name`` of a kernel module's text (``key``:
    a hash of the texts), or None when the function is anything but stacks, constants,
    calls of IR loops and repeats."""
    if not IR_KERNELS or _FIELDS is None:
        return None
    try:
        tree = parse(kernel_source)  # (one thread at a time: see scalar.parse)
    except SyntaxError:
        return None
    by_key = {loop_key(s): s for s in loop_sources}
    loops, fn = {}, None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            fn = node
        elif (isinstance(node, ast.Assign) and len(node.targets) == 1
              and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
              and _named(node.value.func) == "_rt_loop" and node.value.args
              and isinstance(node.value.args[0], ast.Constant)):
            source = by_key.get(node.value.args[0].value)
            written = parts(source) if source is not None else None
            if written is not None:
                loops[node.targets[0].id] = written
    if fn is None or any(_named(d.func if isinstance(d, ast.Call) else d) != "njit"
                         for d in fn.decorator_list):
        return None
    for deco in fn.decorator_list:
        if isinstance(deco, ast.Call) and any(
                k.arg == "parallel" and getattr(k.value, "value", False)
                for k in deco.keywords):
            return None
    try:
        text = _Text(fn, loops)
    except Unsupported:
        return None
    return text, hashlib.sha256(
        (name + "\n" + kernel_source + "".join(loop_sources)).encode()).hexdigest()[:24]


def write(text, fname, arrays):
    """The LLVM module of the kernel ``text`` for the argument arrays ``arrays`` (their
    dtypes and shapes), defining ``fname``, a CPython ``METH_FASTCALL`` function of the
    arrays, the buffer and the results allocated alone, which returns the status as a
    Python int (:func:`_entry`).  Raises :class:`Unsupported` where the loop writer
    cannot."""
    module = ir.Module(name=fname)
    n_objects = len(text.params) + 1 + len(text.alone)
    fn = ir.Function(module, ir.FunctionType(_I32, [_I8P] * n_objects), fname + ".body")
    fn.linkage = "internal"
    _entry(module, fname, fn)
    entry = fn.append_basic_block("entry")
    b = ir.IRBuilder(entry)
    top = ir.IRBuilder(entry)
    top.position_at_start(entry)
    slots = {}

    def opaque(value):
        # A dimension under 16 reaches the loops as a value LLVM cannot see, as in
        # Numba's kernel (read from its array structs): with such a trip count known, the
        # vectoriser declined the loop (LLVM's tiny-trip-count threshold) and left it
        # calling the scalar routines (2x the run time of an 8-element chain).  Larger
        # ones stay constants: known trip counts spare the vectoriser's runtime checks
        # and remainders (a third of the LLVM time of the 200-operation chain).
        if value >= _TINY_TRIP_COUNT:
            return ir.Constant(_I64, value)
        if value not in slots:  # (an empty asm returning its operand: opaque to LLVM)
            slots[value] = top.asm(ir.FunctionType(_I64, [_I64]), "", "=r,0",
                                   [ir.Constant(_I64, value)], False)
        return slots[value]
    bad = fn.append_basic_block("argument_unfit")
    params = {}
    for k, (pname, a) in enumerate(zip(text.params, arrays)):
        params[pname] = _checked_data(b, fn, fn.args[k], a, bad)
    buffer = _data(b, fn.args[len(text.params)])
    stacks = {}
    for stack in text.stacks.values():
        if stack.where == "buffer":
            data = b.gep(buffer, [ir.Constant(_I64, stack.offset)], inbounds=True)
        else:
            data = _data(b, fn.args[len(text.params) + 1 + stack.where[1]])
        stacks[stack.name] = b.bitcast(data, MEMORY[stack.dtype].as_pointer())
    defined = {}
    codes = raised_codes(text)  # (exception class, message) of each status from 1

    def arguments(loop, args, counters):
        kinds, flat = [], []
        for arg in args:
            if arg[0] == "scalar":
                value, dtype = text.scalars[arg[1]]
                kinds.append(("scalar", dtype))
                flat.append(ir.Constant(VALUE[dtype], value))
            elif arg[0] == "param":
                a = arrays[text.params.index(arg[1])]
                kinds.append(("array", a.dtype, a.ndim, "C"))
                flat += [params[arg[1]]] + _sizes(a.shape, a.dtype.itemsize, opaque)
            else:
                stack = text.stacks[arg[1]]
                shape = stack.shape
                data = stacks[stack.name]
                if arg[0] == "entry":
                    row = ir.Constant(_I64, int(np.prod(shape[1:])))
                    data = b.gep(data, [b.mul(_index(b, arg[2], counters), row)],
                                 inbounds=True)
                    kinds.append(("entry", stack.dtype, len(shape), "C"))
                    shape = shape[1:]
                else:
                    kinds.append(("array", stack.dtype, len(shape), "C"))
                flat += [data] + _sizes(shape, stack.dtype.itemsize, opaque)
        return kinds, flat

    def statements(body, counters):
        for stmt in body:
            if stmt[0] == "call":
                _, loop, args = stmt
                kinds, flat = arguments(loop, args, counters)
                noalias = _disjoint(loop, args, counters)
                tag = (loop.key, tuple(kinds), noalias)
                callee = defined.get(tag)
                if callee is None:
                    callee = defined[tag] = loop.define(
                        module, f"fgloop.{loop.key}.{len(defined)}", kinds, noalias,
                        library=True)
                if flat_types_of(kinds) != [a.type for a in flat]:  # pragma: no cover
                    raise Unsupported("argument types")
                status = b.call(callee, flat)
                for code, raised in enumerate(loop.raises, 1):
                    with b.if_then(b.icmp_signed("==", status, ir.Constant(_I32, code)),
                                   likely=False):
                        b.ret(ir.Constant(_I32, codes.index(raised) + 1))
            else:
                _, counter, lo, hi, inner = stmt
                _repeat(b, counter, lo, hi, counters,
                        lambda c: statements(inner, c))

    statements(text.body, {})
    keep_variants(module)
    b.ret(ir.Constant(_I32, 0))
    b.position_at_end(bad)
    b.ret(ir.Constant(_I32, -1))
    return module


def _disjoint(loop, args, counters):
    """Does no array the loop stores into overlap another of its array arguments, at
    every iteration of the repeats around the call?  Then its data pointers are
    ``noalias``, and LLVM vectorises it without checking for overlap at run time and
    keeping a scalar copy of the loop for when they do (a third of the machine code of
    the 200-operation chain's gradient).

    Arguments are disjoint when they are: two stacks (distinct parts of the buffer, or
    distinct arrays); an input and a stack (the stacks are allocated per call); two
    entries of a stack whose indices differ by a nonzero constant (``(st1, r - 1)`` and
    ``(st1, r)``).  Two inputs may be one array, and an entry's index is compared only
    when both are affine in the same counters.

    >>> import ast
    >>> class Loop: params, written = ["p0", "pk1"], frozenset({"pk1"})
    >>> e = lambda text: ast.parse(text, mode="eval").body
    >>> _disjoint(Loop, [("entry", "st1", e("r - 1")), ("entry", "st1", e("r"))], {"r": 0})
    True
    >>> _disjoint(Loop, [("entry", "st1", e("r")), ("entry", "st1", e("r"))], {"r": 0})
    False
    """
    if loop.written is None:
        return False
    arrays = [(name in loop.written, arg) for name, arg in zip(loop.params, args)
              if arg[0] != "scalar"]
    names = list(counters)
    for k, (written, a) in enumerate(arrays):
        for other_written, b in arrays[k + 1:]:
            if (written or other_written) and _overlap(a, b, names):
                return False
    return True


def _overlap(a, b, names):
    """May the array arguments ``a`` and ``b`` (:meth:`_Text.call`'s entries) overlap?"""
    if a[0] == "param" or b[0] == "param":
        return a[0] == b[0]  # (the caller may pass one array twice)
    if a[1] != b[1]:
        return False  # (different stacks)
    if a[0] != "entry" or b[0] != "entry":
        return True  # (a whole stack and a part of it)
    # affine indices: their difference is constant when it does not move with any counter
    zero = dict.fromkeys(names, 0)
    at = [zero] + [dict(zero, **{n: 1}) for n in names]
    differences = {_value(a[2], env) - _value(b[2], env) for env in at}
    return len(differences) != 1 or 0 in differences


def _entry(module, fname, body):
    """``PyObject *fname(PyObject *self, PyObject *const *args, Py_ssize_t n)``: runs
    ``body`` on the ``n`` objects without the GIL (as Numba's ``nogil`` kernels) and
    returns its status as an int (-1 for a wrong ``n``).  A builtin function's call costs
    ~0.1 us where a ctypes call cost ~1 us."""
    n = len(body.args)
    fn = ir.Function(module, ir.FunctionType(_I8P, [_I8P, _I8P.as_pointer(), _I64]), fname)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    as_int = ir.Function(module, ir.FunctionType(_I8P, [_I64]), "PyLong_FromLong")
    save = ir.Function(module, ir.FunctionType(_I8P, []), "PyEval_SaveThread")
    restore = ir.Function(module, ir.FunctionType(ir.VoidType(), [_I8P]),
                          "PyEval_RestoreThread")
    with b.if_else(b.icmp_signed("==", fn.args[2], ir.Constant(_I64, n))) as (right, wrong):
        with right:
            objects = [b.load(b.gep(fn.args[1], [ir.Constant(_I64, k)], inbounds=True))
                       for k in range(n)]
            state = b.call(save, [])
            status = b.call(body, objects)
            b.call(restore, [state])
            b.ret(b.call(as_int, [b.sext(status, _I64)]))
        with wrong:
            b.ret(b.call(as_int, [ir.Constant(_I64, -1)]))
    b.unreachable()


def raised_codes(text):
    """The ``(exception class, message)`` the kernel's status ``k`` stands for, k-1 in this
    list: each distinct raise of its loops, in the order they are called."""
    codes = []

    def walk(body):
        for stmt in body:
            if stmt[0] == "call":
                codes.extend(r for r in stmt[1].raises if r not in codes)
            else:
                walk(stmt[4])
    walk(text.body)
    return codes


def flat_types_of(kinds):
    return [t for kind in kinds for t in flat_types(kind)]


def _sizes(shape, itemsize, opaque):
    """An array's shape and byte strides (C order) as the loop function takes them."""
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return [opaque(d) for d in shape] + [ir.Constant(_I64, s) for s in reversed(strides)]


def _data(b, obj):
    """The data pointer of the NumPy array ``obj`` (a PyObject pointer)."""
    field = b.gep(obj, [ir.Constant(_I64, _FIELDS["data"])], inbounds=True)
    return b.load(b.bitcast(field, _I8P.as_pointer()))


def _checked_data(b, fn, obj, a, bad):
    """The data pointer of ``obj`` after checking that it has ``a``'s number of dimensions
    and shape, C strides and alignment (else the function returns -1)."""
    def field(name, ty):
        at = b.gep(obj, [ir.Constant(_I64, _FIELDS[name])], inbounds=True)
        return b.load(b.bitcast(at, ty.as_pointer()))
    ok = b.icmp_signed("==", field("nd", _I32), ir.Constant(_I32, a.ndim))
    flags = field("flags", _I32)
    ok = b.and_(ok, b.icmp_signed("==", b.and_(flags, ir.Constant(_I32, _C_ALIGNED)),
                                  ir.Constant(_I32, _C_ALIGNED)))
    dims = field("dimensions", _I64.as_pointer())
    for k, d in enumerate(a.shape):
        size = b.load(b.gep(dims, [ir.Constant(_I64, k)], inbounds=True))
        ok = b.and_(ok, b.icmp_signed("==", size, ir.Constant(_I64, d)))
    next_block = fn.append_basic_block("argument_fits")
    b.cbranch(ok, next_block, bad)
    b.position_at_end(next_block)
    # (C-contiguous with this shape: the strides are the C ones, as Numba's 'C' arrays)
    return b.bitcast(_data(b, obj), MEMORY[a.dtype].as_pointer())


def _index(b, node, counters):
    if isinstance(node, ast.Constant):
        return ir.Constant(_I64, node.value)
    if isinstance(node, ast.Name):
        return counters[node.id]
    if isinstance(node, ast.UnaryOp):
        return b.sub(ir.Constant(_I64, 0), _index(b, node.operand, counters))
    op = {ast.Add: b.add, ast.Sub: b.sub, ast.Mult: b.mul}[type(node.op)]
    return op(_index(b, node.left, counters), _index(b, node.right, counters))


def _repeat(b, counter, lo, hi, counters, body):
    """``for counter in range(lo, hi): body`` (``body(counters)`` writes the statements)."""
    fn = b.function
    before = b.block
    head = fn.append_basic_block(f"{counter}.head")
    loop = fn.append_basic_block(f"{counter}.body")
    after = fn.append_basic_block(f"{counter}.after")
    b.branch(head)
    b.position_at_end(head)
    r = b.phi(_I64, counter)
    r.add_incoming(ir.Constant(_I64, lo), before)
    b.cbranch(b.icmp_signed("<", r, ir.Constant(_I64, hi)), loop, after)
    b.position_at_end(loop)
    body(dict(counters, **{counter: r}))
    r.add_incoming(b.add(r, ir.Constant(_I64, 1)), b.block)
    b.branch(head)
    b.position_at_end(after)
