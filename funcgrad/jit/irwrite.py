"""One loop function's statements written as LLVM IR (see :mod:`.irloop`): the small
language of :mod:`.outline`'s loop texts -- local scalars, loads and stores of array
elements, arithmetic, comparisons, ``x if c else y``, the vector maths and some C-library
leaves, ``for`` over ``range``, ``if`` -- in the instructions Numba emits for the same
text, so that results keep their bits: Numba's typing rules for mixed operands, one IEEE
operation per operator, negation as ``-0.0 - x``, branches (not selects) for conditional
expressions, C-contiguous arrays indexed from their shapes.
"""
import ast

import numpy as np
from llvmlite import ir

__all__ = ["Writer", "Array", "element", "single_values", "Unsupported", "F8", "F4", "I8", "B1",
           "VALUE", "MEMORY", "CALLS", "NODES"]

F8, F4, I8, B1 = (np.dtype(t) for t in (np.float64, np.float32, np.int64, np.bool_))
VALUE = {F8: ir.DoubleType(), F4: ir.FloatType(), I8: ir.IntType(64), B1: ir.IntType(1)}
MEMORY = {**VALUE, B1: ir.IntType(8)}  # (Numba stores booleans as bytes)
_VECTOR = {"exp", "log", "log1p", "sin", "cos", "tanh"}
# C-library leaves (funcgrad.kernels.cpu.leaves) as Numba writes them for a float argument:
# an LLVM intrinsic, or the C function (``tanhf`` for float32)
_INTRINSIC = {"sin", "cos", "exp", "exp2", "log", "log10", "sqrt", "floor", "ceil", "trunc",
              "fabs"}
_EXTERN = {"tanh", "log1p", "expm1", "tan", "sinh", "cosh"}
_TESTS = {"isnan", "isfinite", "isinf"}
_HOW = {"call": "define", "declare": "declare", "library": "library"}  # (irmaths.call's)
_CASTS = {"float64": F8, "float32": F4, "int64": I8, "bool_": B1}
_CONSTANTS = {("np", "nan"): np.nan, ("np", "inf"): np.inf, ("math", "inf"): np.inf,
              ("math", "nan"): np.nan, ("math", "pi"): np.pi}
_ARITH = {ast.Add: ("fadd", "add"), ast.Sub: ("fsub", "sub"), ast.Mult: ("fmul", "mul")}
_BITS = {ast.BitAnd: "and_", ast.BitOr: "or_", ast.BitXor: "xor"}
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
            ast.NotEq: "!="}


class Unsupported(Exception):
    """The loop text (or an argument type) is outside what :class:`Writer` handles."""


class Array:
    """An array inside the loop: its data pointer, shape and byte strides (LLVM values),
    its dtype, and whether it is C-contiguous (indexed from its shape, as Numba does for
    'C' arrays: a unit stride LLVM can vectorise).  ``flat_of`` is set for ``np.ravel``
    of a non-contiguous array: one index, unravelled onto that array."""

    __slots__ = ("data", "shape", "strides", "dtype", "contiguous", "flat_of")

    def __init__(self, data, shape, strides, dtype, contiguous, flat_of=None):
        self.data, self.shape, self.strides = data, shape, strides
        self.dtype, self.contiguous, self.flat_of = dtype, contiguous, flat_of


def _common(a, b):
    """The dtype Numba computes ``a op b`` in (arithmetic, comparisons, ``x if c else y``)."""
    if a == b:
        return a
    pair = {a, b}
    if F8 in pair:
        return F8
    if pair == {F4, I8}:
        return F8
    if pair == {I8, B1}:
        return I8
    raise Unsupported(f"{a} with {b}")


class Writer:
    """Writes one loop function's statements with an IRBuilder."""

    def __init__(self, builder, raise_error, maths="inline", values=frozenset()):
        self.b = builder
        self.raise_error = raise_error  # (builder, exception class, message) -> None
        # the vector maths' bodies written into the loop ("inline"), or called as the
        # module's functions (.irmaths), "call" defining them, "declare" only naming them
        # (a check that the loop can be written, where nothing is compiled), or as the
        # functions of .irmaths.library, compiled apart ("library")
        self.maths = maths
        # names held as SSA values, not stack slots (:func:`single_values`)
        self.values = values
        self.env = {}  # name -> ("var", alloca, dtype) | ("val", value, dtype) | Array

    # --- arguments --------------------------------------------------------------------

    def bind(self, params, kinds, flat):
        """Name the loop function's parameters: ``flat`` holds, per argument of kind
        :func:`_kind`, a scalar, or an array's data pointer, shape and strides."""
        flat = list(flat)
        for name, kind in zip(params, kinds):
            if kind[0] == "scalar":
                self.env[name] = ("val", flat.pop(0), kind[1])
                continue
            ndim = kind[2] - (kind[0] == "entry")
            data, sizes = flat[0], flat[1:1 + 2 * ndim]
            del flat[:1 + 2 * ndim]
            self.env[name] = Array(data, sizes[:ndim], sizes[ndim:], kind[1], kind[3] == "C")

    # --- statements -------------------------------------------------------------------

    def statements(self, body):
        for s in body:
            if self.b.block.is_terminated:  # (after a raise)
                return
            self.statement(s)

    def statement(self, s):
        if isinstance(s, ast.Assign) and len(s.targets) == 1:
            target = s.targets[0]
            if isinstance(target, ast.Name):
                self.assign(target.id, self.expr(s.value))
            elif isinstance(target, ast.Subscript):
                arr = self.array(target.value)
                index = self.indices(target.slice)
                if len(index) != len(arr.shape) and arr.flat_of is None:
                    raise Unsupported("store into a view")
                value, dtype = self.scalar(s.value)
                self.b.store(self.to_memory(self.convert(value, dtype, arr.dtype), arr.dtype),
                             element(self.b, arr, index))
            else:
                raise Unsupported("assignment target")
        elif isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name):
            current = self.name(s.target.id)
            if isinstance(current, Array):
                raise Unsupported("augmented assignment of an array")
            self.assign(s.target.id, self.binop(s.op, current, self.scalar(s.value)))
        elif isinstance(s, ast.For):
            self.for_loop(s)
        elif isinstance(s, ast.If):
            cond = self.truth(self.scalar(s.test))
            if s.orelse:
                with self.b.if_else(cond) as (then, otherwise):
                    with then:
                        self.statements(s.body)
                    with otherwise:
                        self.statements(s.orelse)
            else:
                with self.b.if_then(cond):
                    self.statements(s.body)
        elif isinstance(s, ast.Raise):
            self.raise_statement(s)
        elif isinstance(s, ast.Pass) or (isinstance(s, ast.Expr)
                                         and isinstance(s.value, ast.Constant)):
            pass
        else:
            raise Unsupported(type(s).__name__)

    def raise_statement(self, s):
        from . import runtime
        exc = s.exc
        if not (isinstance(exc, ast.Call) and isinstance(exc.func, ast.Attribute)
                and isinstance(exc.func.value, ast.Name) and exc.func.value.id == "_rt"
                and len(exc.args) == 1 and isinstance(exc.args[0], ast.Constant)
                and isinstance(exc.args[0].value, str) and not exc.keywords):
            raise Unsupported("raise")
        cls = getattr(runtime, exc.func.attr, None)
        if not (isinstance(cls, type) and issubclass(cls, Exception)):
            raise Unsupported("raise")
        self.raise_error(self.b, cls, exc.args[0].value)

    def for_loop(self, s):
        from numba.core import cgutils
        it = s.iter
        if not (isinstance(s.target, ast.Name) and isinstance(it, ast.Call)
                and isinstance(it.func, ast.Name) and it.func.id == "range"
                and 1 <= len(it.args) <= 2 and not it.keywords and not s.orelse):
            raise Unsupported("for loop")
        bounds = [self.convert(*self.integer(a), I8) for a in it.args]
        start, stop = bounds if len(bounds) == 2 else (None, bounds[0])
        saved = self.env.get(s.target.id)
        with cgutils.for_range(self.b, stop, start) as loop:
            self.env[s.target.id] = ("val", loop.index, I8)
            self.statements(s.body)
            latch = self.b.block
        if self.maths != "inline" and isinstance(latch.terminator, ir.Branch):
            # Unrolling a loop of calls buys nothing (the calls run one after the other)
            # and multiplies the code LLVM compiles: one vector body per iteration.
            loop_id = ir.values.MDValue(self.b.module, (), str(len(self.b.module.metadata)))
            loop_id.operands = (loop_id, self.b.module.add_metadata(
                [ir.MetaDataString(self.b.module, "llvm.loop.interleave.count"),
                 ir.Constant(ir.IntType(32), 1)]))
            latch.terminator.set_metadata("llvm.loop", loop_id)
        if saved is None:
            self.env.pop(s.target.id, None)
        else:
            self.env[s.target.id] = saved

    def assign(self, name, value):
        from numba.core import cgutils
        if isinstance(value, Array):
            self.env[name] = value
            return
        v, dtype = value
        if name in self.values:
            self.env[name] = ("val", v, dtype)
            return
        slot = self.env.get(name)
        if slot is None:
            slot = self.env[name] = ("var", cgutils.alloca_once(self.b, VALUE[dtype]), dtype)
        if isinstance(slot, Array) or slot[0] != "var" or slot[2] != dtype:
            raise Unsupported(f"{name} changes type")
        self.b.store(v, slot[1])

    # --- expressions ------------------------------------------------------------------

    def name(self, name):
        slot = self.env.get(name)
        if slot is None:
            raise Unsupported(f"name {name}")
        if isinstance(slot, Array):
            return slot
        kind, v, dtype = slot
        return (self.b.load(v), dtype) if kind == "var" else (v, dtype)

    def scalar(self, node):
        value = self.expr(node)
        if isinstance(value, Array):
            raise Unsupported("an array where a scalar is expected")
        return value

    def array(self, node):
        value = self.expr(node)
        if not isinstance(value, Array):
            raise Unsupported("a scalar where an array is expected")
        return value

    def integer(self, node):
        v, dtype = self.scalar(node)
        if dtype != I8:
            raise Unsupported("a non-integer index")
        return v, dtype

    def indices(self, node):
        parts = node.elts if isinstance(node, ast.Tuple) else [node]
        out = []
        for p in parts:
            if isinstance(p, ast.Constant) and type(p.value) is int and p.value < 0:
                raise Unsupported("negative index")  # (Numba wraps it around)
            if isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.USub):
                raise Unsupported("negative index")
            out.append(self.integer(p)[0])
        return out

    def expr(self, node):
        b = self.b
        if isinstance(node, ast.Constant):
            v = node.value
            if type(v) is bool:
                return ir.Constant(VALUE[B1], int(v)), B1
            if type(v) is int and -2 ** 63 <= v < 2 ** 63:
                return ir.Constant(VALUE[I8], v), I8
            if type(v) is float:
                return ir.Constant(VALUE[F8], v), F8
            raise Unsupported(f"constant {v!r}")
        if isinstance(node, ast.Name):
            return self.name(node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id, node.attr) in _CONSTANTS:
            return ir.Constant(VALUE[F8], _CONSTANTS[node.value.id, node.attr]), F8
        if isinstance(node, ast.Subscript):
            if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
                arr = self.array(node.value.value)
                if isinstance(node.slice, ast.Constant) and type(node.slice.value) is int \
                        and 0 <= node.slice.value < len(arr.shape):
                    return arr.shape[node.slice.value], I8
                raise Unsupported("shape index")
            arr = self.array(node.value)
            index = self.indices(node.slice)
            if arr.flat_of is not None or len(index) == len(arr.shape):
                return self.from_memory(b.load(element(self.b, arr, index)), arr.dtype), arr.dtype
            if len(index) > len(arr.shape):
                raise Unsupported("too many indices")
            rest = len(arr.shape) - len(index)
            zero = ir.Constant(VALUE[I8], 0)
            return Array(element(self.b, arr, index + [zero] * rest), arr.shape[len(index):],
                          arr.strides[len(index):], arr.dtype, arr.contiguous)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.scalar(node.left), self.scalar(node.right))
        if isinstance(node, ast.UnaryOp):
            v, dtype = self.scalar(node.operand)
            if isinstance(node.op, ast.UAdd) and dtype != B1:
                return v, dtype
            if isinstance(node.op, ast.USub) and dtype in (F8, F4):
                return b.fsub(ir.Constant(v.type, -0.0), v), dtype
            if isinstance(node.op, ast.USub) and dtype == I8:
                return b.neg(v), dtype
            if isinstance(node.op, ast.Not):
                return b.not_(self.truth((v, dtype))), B1
            raise Unsupported("unary operator")
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.BoolOp):
            if any(isinstance(n, ast.Subscript) for v in node.values[1:] for n in ast.walk(v)):
                raise Unsupported("a load after and/or")  # (Python would not evaluate it)
            values = [self.scalar(v) for v in node.values]
            if any(dtype != B1 for _, dtype in values):
                raise Unsupported("and/or of non-booleans")
            out = values[0][0]
            for v, _ in values[1:]:
                out = b.and_(out, v) if isinstance(node.op, ast.And) else b.or_(out, v)
            return out, B1
        if isinstance(node, ast.IfExp):
            return self.if_expr(node)
        if isinstance(node, ast.Call):
            return self.call(node)
        raise Unsupported(type(node).__name__)

    def binop(self, op, left, right):
        b = self.b
        (x, a), (y, c) = left, right
        if type(op) in _BITS:
            if a != c or a not in (B1, I8):
                raise Unsupported("bit operation")
            return getattr(b, _BITS[type(op)])(x, y), a
        if a == B1 and c == B1:
            raise Unsupported("arithmetic on booleans")
        if isinstance(op, ast.Div):
            dtype = _common(a, c)
            dtype = F8 if dtype == I8 else dtype
            return b.fdiv(self.convert(x, a, dtype), self.convert(y, c, dtype)), dtype
        if type(op) not in _ARITH:
            raise Unsupported(type(op).__name__)
        dtype = _common(a, c)
        fop, iop = _ARITH[type(op)]
        return getattr(b, fop if dtype in (F8, F4) else iop)(
            self.convert(x, a, dtype), self.convert(y, c, dtype)), dtype

    def compare(self, node):
        operands = [node.left] + list(node.comparators)
        if len(operands) > 2 and not all(isinstance(o, (ast.Name, ast.Constant))
                                         for o in operands):
            raise Unsupported("chained comparison")
        values = [self.scalar(o) for o in operands]
        out = None
        for op, (x, a), (y, c) in zip(node.ops, values, values[1:]):
            if type(op) not in _COMPARE:
                raise Unsupported(type(op).__name__)
            dtype = I8 if a == c == B1 else _common(a, c)
            x, y = self.convert(x, a, dtype), self.convert(y, c, dtype)
            sym = _COMPARE[type(op)]
            if dtype in (F8, F4):  # Python's: NaN compares False, != is True
                r = (self.b.fcmp_unordered(sym, x, y) if sym == "!=" else
                     self.b.fcmp_ordered(sym, x, y))
            else:
                r = self.b.icmp_signed(sym, x, y)
            out = r if out is None else self.b.and_(out, r)
        return out, B1

    def if_expr(self, node):
        """``a if c else b``: branches (a load in the branch not taken must not run) and a
        phi, each side converted to the dtype Numba unifies them to."""
        b = self.b
        cond = self.truth(self.scalar(node.test))
        then, otherwise, end = (b.append_basic_block(n) for n in ("ifx.then", "ifx.else",
                                                                  "ifx.end"))
        b.cbranch(cond, then, otherwise)
        b.position_at_end(then)
        x, a = self.scalar(node.body)
        then_end = b.block
        b.position_at_end(otherwise)
        y, c = self.scalar(node.orelse)
        else_end = b.block
        dtype = _common(a, c)
        b.position_at_end(then_end)
        x = self.convert(x, a, dtype)
        b.branch(end)
        b.position_at_end(else_end)
        y = self.convert(y, c, dtype)
        b.branch(end)
        b.position_at_end(end)
        phi = b.phi(VALUE[dtype])
        phi.add_incoming(x, then_end)
        phi.add_incoming(y, else_end)
        return phi, dtype

    def call(self, node):
        from ..kernels.cpu import vbodies, vmath
        from . import irmaths
        b = self.b
        fn = node.func
        if node.keywords or len(node.args) != 1:
            raise Unsupported("call")
        module = fn.value.id if isinstance(fn, ast.Attribute) and isinstance(
            fn.value, ast.Name) else None
        attr = fn.attr if module else None
        if module == "np" and attr == "ravel":
            return self.ravel(self.array(node.args[0]))
        v, dtype = self.scalar(node.args[0])
        if module == "_vm" and (attr in _VECTOR or attr == "trig_bad"):
            if dtype not in (F8, F4):
                raise Unsupported("vector maths of a non-float")
            x = self.convert(v, dtype, F8)
            if self.maths != "inline" and attr != "trig_bad":
                out = irmaths.call(b, attr, x, _HOW[self.maths])
            else:
                m = vmath._Emit(b)
                out = getattr(vbodies, "_" + attr)(m, vmath._V(m, x)).v
            return out, (I8 if attr == "trig_bad" else F8)
        if module == "np" and attr in _CASTS:
            return self.convert(v, dtype, _CASTS[attr]), _CASTS[attr]
        leaf = "fabs" if isinstance(fn, ast.Name) else attr  # (abs(x): the only Name)
        if dtype not in (F8, F4):
            raise Unsupported("C-library leaf of a non-float")
        if leaf in _INTRINSIC:
            f = b.module.declare_intrinsic(f"llvm.{leaf}", [VALUE[dtype]])
            return b.call(f, [v]), dtype
        if leaf in _EXTERN:
            name = leaf + ("f" if dtype == F4 else "")
            f = b.module.globals.get(name) or ir.Function(
                b.module, ir.FunctionType(VALUE[dtype], [VALUE[dtype]]), name)
            return b.call(f, [v]), dtype
        if leaf == "isnan":
            return b.fcmp_unordered("uno", v, v), B1
        if leaf in ("isinf", "isfinite"):
            inf = ir.Constant(v.type, np.inf)
            f = b.module.declare_intrinsic("llvm.fabs", [VALUE[dtype]])
            size = b.call(f, [v])
            return (b.fcmp_ordered("==", size, inf) if leaf == "isinf" else
                    b.fcmp_ordered("!=", size, inf)), B1
        raise Unsupported(f"call of {ast.unparse(fn)}")

    # --- values -----------------------------------------------------------------------

    def truth(self, value):
        v, dtype = value
        if dtype == B1:
            return v
        return self.convert(v, dtype, B1)

    def convert(self, v, src, dst):
        """``v`` of dtype ``src`` as Numba converts it to ``dst``."""
        b = self.b
        if src == dst:
            return v
        if dst == B1:  # nonzero (NaN is True)
            if src in (F8, F4):
                return b.fcmp_unordered("!=", v, ir.Constant(v.type, 0.0))
            return b.icmp_signed("!=", v, ir.Constant(v.type, 0))
        if dst in (F8, F4):
            if src in (F8, F4):
                return b.fpext(v, VALUE[dst]) if dst == F8 else b.fptrunc(v, VALUE[dst])
            return (b.uitofp if src == B1 else b.sitofp)(v, VALUE[dst])
        if dst == I8:
            if src == B1:
                return b.zext(v, VALUE[I8])
            return b.fptosi(v, VALUE[I8])
        raise Unsupported(f"{src} to {dst}")

    def to_memory(self, v, dtype):
        return self.b.zext(v, MEMORY[B1]) if dtype == B1 else v

    def from_memory(self, v, dtype):
        return self.b.icmp_unsigned("!=", v, ir.Constant(MEMORY[B1], 0)) if dtype == B1 \
            else v

    def ravel(self, arr):
        b = self.b
        size = arr.shape[0]
        for d in arr.shape[1:]:
            size = b.mul(size, d)
        if arr.contiguous:
            return Array(arr.data, [size], None, arr.dtype, True)
        return Array(arr.data, [size], None, arr.dtype, False, flat_of=arr)


def single_values(params, body, nodes=None):
    r"""The local names of a loop body that can be written as SSA values instead of stack
    slots: bound by one plain assignment, and read only after it, in the same statement
    list or in a later statement's nested ones (so the value dominates every use).
    ``nodes``: every node of ``body`` (``ast.walk`` of each statement), when known.

    A fused loop's temporaries are all such names; as slots, each was an ``alloca``, a
    store and a load per use that LLVM's SROA turned back into values: a third of the
    IR text, written, printed and parsed for nothing.

    >>> import ast
    >>> body = ast.parse("t = x * 2.0\nacc = 0.0\nfor i in range(3):\n"
    ...                  "    u = t + 1.0\n    acc += u\nw = u\n").body
    >>> sorted(single_values(["x"], body))  # (u is read after its loop; acc, i rebound)
    ['t', 'w']
    """
    if nodes is None:
        nodes = [n for stmt in body for n in ast.walk(stmt)]
    # Where each statement's list ends, in source positions: a name's reads must lie
    # between its assignment's end and that (one pass over the nodes, no scopes walked).
    ends = {}

    def lists(stmts):
        end = (stmts[-1].end_lineno, stmts[-1].end_col_offset)
        for stmt in stmts:
            ends[id(stmt)] = end
            if isinstance(stmt, (ast.For, ast.If)):
                lists(stmt.body)
                if stmt.orelse:
                    lists(stmt.orelse)
    if body:
        lists(body)
    bound, several, span = set(params), set(), {}
    for node in nodes:
        if isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    if t.id in bound:
                        several.add(t.id)
                    bound.add(t.id)
                    span[t.id] = ((node.end_lineno, node.end_col_offset), ends[id(node)])
                else:
                    several.update(n.id for n in ast.walk(t) if isinstance(n, ast.Name)
                                   and isinstance(n.ctx, ast.Store))
        elif isinstance(node, (ast.AugAssign, ast.For)) and isinstance(node.target, ast.Name):
            several.add(node.target.id)
            bound.add(node.target.id)
    candidates = set(span) - several - set(params)
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in candidates and isinstance(
                node.ctx, ast.Load):
            after, end = span[node.id]
            if not after < (node.lineno, node.col_offset) <= end:
                candidates.discard(node.id)
    return frozenset(candidates)


def element(b, arr, index):
    """The pointer to ``arr[index]`` (every axis indexed), written with the builder ``b``."""
    if arr.flat_of is not None:  # C-order unravelling onto the strided array
        src, (rest,) = arr.flat_of, index
        index = []
        for d in reversed(src.shape[1:]):
            index.append(b.srem(rest, d))
            rest = b.sdiv(rest, d)
        index = [rest] + index[::-1]
        arr = src
    if arr.contiguous:
        flat = index[0]
        for i, d in zip(index[1:], arr.shape[1:]):
            flat = b.add(b.mul(flat, d), i)
        return b.gep(arr.data, [flat], inbounds=True)
    offset = ir.Constant(VALUE[I8], 0)
    for i, s in zip(index, arr.strides):
        offset = b.add(offset, b.mul(i, s))
    address = b.add(b.ptrtoint(arr.data, VALUE[I8]), offset)
    return b.inttoptr(address, arr.data.type)


# What the loop texts' statements and calls may be (see irloop._in_language)
NODES = (ast.Assign, ast.AugAssign, ast.For, ast.If, ast.Raise, ast.Pass, ast.Expr,
         ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Tuple, ast.BinOp,
         ast.UnaryOp, ast.Compare, ast.BoolOp, ast.IfExp, ast.Call, ast.Load, ast.Store,
         ast.Add, ast.Sub, ast.Mult, ast.Div, ast.BitAnd, ast.BitOr, ast.BitXor, ast.USub,
         ast.UAdd, ast.Not, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq, ast.And,
         ast.Or)
CALLS = ({("np", "ravel"), ("np", "isnan"), ("math", "isnan"), ("_vm", "trig_bad")}
         | {("np", c) for c in _CASTS} | {("_vm", f) for f in _VECTOR}
         | {("_lf", f) for f in _INTRINSIC | _EXTERN | _TESTS})
