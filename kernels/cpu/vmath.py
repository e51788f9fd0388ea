"""Vectorisable ``exp``, ``log``, ``log1p``, ``sin``, ``cos`` and ``tanh``: funcgrad's one
vector-maths library, used by the eager CPU kernels and by ``fg.jit`` alike, so both give
the same bits.

This Numba build has no SVML, so ``np.sin`` inside an ``@njit`` loop is a call to the C
library per element, and a loop holding one is never vectorised.  These functions are
straight-line float64 arithmetic (polynomials, ``rint``, bit manipulation through an
LLVM bitcast, selects instead of branches) that LLVM turns into SIMD code.  float32
values are computed in float64 and rounded once, so they are correctly rounded in
nearly all cases.

The algorithms are fdlibm's (FreeBSD ``e_exp.c``, ``e_log.c``, ``k_sin.c``, ``k_cos.c``,
the medium-size branch of ``e_rem_pio2.c``) and Cephes' ``tanh``; each is within 1 ulp
of the exact result.  Measured against NumPy's own (SIMD) functions on a million
random arguments per range (``tests/test_jit.py::test_vector_math_accuracy``), the
largest difference is 1 ulp for exp, log, sin, cos and 2 ulp for tanh and log1p; NumPy's
functions are themselves ~1 ulp from exact.

``sin``/``cos`` reduce their argument with a three-part Cody-Waite reduction, accurate for
``|x| <= 2**19 * pi / 2``; :func:`trig_bad` flags larger (and non-finite) arguments, and the
generated loop then recomputes with the C library (see :mod:`funcgrad.jit.fusion` and
:mod:`.generated`; ``fg.jit`` first compiles its loops without that pass and switches to
a version with it when a call needs it).
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from .vbodies import (TRIG_BOUND, _cos, _exp, _log, _log1p, _sin, _tanh,  # noqa: F401
                      _trig_bad)
from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

__all__ = ["exp", "log", "log1p", "sin", "cos", "tanh", "trig_bad", "sin_checked",
           "cos_checked", "TRIG_BOUND"]

# Each function is an intrinsic: its LLVM IR (straight-line, selects instead of branches)
# is written into the calling kernel directly, so nothing depends on an inliner's budget
# and a loop of 200 sin calls stays one vectorisable basic block.  The functions below
# are written once, in Python, against the small expression builder :class:`_Emit`.

_DBL = ir.DoubleType()
_I64 = ir.IntType(64)


class _V:
    """An LLVM value (double, i64 or i1) with Python operators emitting instructions."""

    __slots__ = ("m", "v")

    def __init__(self, m, v):
        self.m, self.v = m, v

    @property
    def is_float(self):
        t = self.v.type  # (of lanes: their element's)
        return isinstance(getattr(t, "element", t), ir.DoubleType)

    def _lift(self, o):
        if isinstance(o, _V):
            return o
        return self.m.f(o) if self.is_float else self.m.i(o)

    def _bin(self, o, fop, iop, swap=False):
        o = self._lift(o)
        a, b = (o, self) if swap else (self, o)
        op = fop if self.is_float else iop
        return _V(self.m, getattr(self.m.b, op)(a.v, b.v))

    def __add__(self, o): return self._bin(o, "fadd", "add")
    def __radd__(self, o): return self._bin(o, "fadd", "add", True)
    def __sub__(self, o): return self._bin(o, "fsub", "sub")
    def __rsub__(self, o): return self._bin(o, "fsub", "sub", True)
    def __mul__(self, o): return self._bin(o, "fmul", "mul")
    def __rmul__(self, o): return self._bin(o, "fmul", "mul", True)
    def __truediv__(self, o): return self._bin(o, "fdiv", "sdiv")
    def __rtruediv__(self, o): return self._bin(o, "fdiv", "sdiv", True)
    def __lshift__(self, o): return self._bin(o, None, "shl")
    def __rshift__(self, o): return self._bin(o, None, "ashr")
    def __and__(self, o): return self._bin(o, None, "and_")
    def __or__(self, o): return self._bin(o, None, "or_")
    def __xor__(self, o): return self._bin(o, None, "xor")

    def __neg__(self):
        return _V(self.m, self.m.b.fneg(self.v)) if self.is_float else 0 - self

    def _cmp(self, o, op):
        o = self._lift(o)
        b = self.m.b
        if self.is_float:  # Python semantics: comparisons with NaN are False, != is True
            v = b.fcmp_unordered(op, self.v, o.v) if op == "!=" else \
                b.fcmp_ordered(op, self.v, o.v)
        else:
            v = b.icmp_signed(op, self.v, o.v)
        return _V(self.m, v)

    def __lt__(self, o): return self._cmp(o, "<")
    def __le__(self, o): return self._cmp(o, "<=")
    def __gt__(self, o): return self._cmp(o, ">")
    def __ge__(self, o): return self._cmp(o, ">=")
    def __eq__(self, o): return self._cmp(o, "==")
    def __ne__(self, o): return self._cmp(o, "!=")
    __hash__ = None


class _Emit:
    """Builds values with an IRBuilder: constants, selects, casts, LLVM intrinsics; with
    ``lanes``, on vectors of that many float64/i64 lanes, constants splat (the vector
    variants of :mod:`funcgrad.jit.irmaths`: lane for lane the scalar's instructions)."""

    def __init__(self, builder, lanes=None):
        self.b, self.n = builder, lanes
        self.dbl = _DBL if lanes is None else ir.VectorType(_DBL, lanes)
        self.i64 = _I64 if lanes is None else ir.VectorType(_I64, lanes)

    def _constant(self, ty, c):
        return _V(self, ir.Constant(ty, c if self.n is None else [c] * self.n))

    def f(self, c):
        return self._constant(self.dbl, float(c))

    def i(self, c):
        return self._constant(self.i64, int(c))

    def sel(self, cond, a, b):
        a = a if isinstance(a, _V) else (self.f(a) if isinstance(b, _V) and b.is_float
                                         or isinstance(a, float) else self.i(a))
        b = b if isinstance(b, _V) else (self.f(b) if a.is_float else self.i(b))
        return _V(self, self.b.select(cond.v, a.v, b.v))

    def _call(self, name, x):
        module = self.b.module
        if self.n is None:
            fn = module.declare_intrinsic(name, [_DBL])
        else:  # (llvmlite's declare_intrinsic names no vector overloads)
            full = f"{name}.v{self.n}f64"
            fn = module.globals.get(full) or ir.Function(
                module, ir.FunctionType(self.dbl, [self.dbl]), full)
        return _V(self, self.b.call(fn, [x.v]))

    def rint(self, x):
        return self._call("llvm.rint", x)

    def fabs(self, x):
        return self._call("llvm.fabs", x)

    def clamp(self, x, lo, hi):  # NaN stays NaN
        x = self.sel(x < lo, lo, x)
        return self.sel(x > hi, hi, x)

    def to_int(self, x):
        return _V(self, self.b.fptosi(x.v, self.i64))

    def to_float(self, n):
        return _V(self, self.b.sitofp(n.v, self.dbl))

    def bits(self, x):
        return _V(self, self.b.bitcast(x.v, self.i64))

    def from_bits(self, n):
        return _V(self, self.b.bitcast(n.v, self.dbl))


def _float_intrinsic(body, result=types.float64):
    """A Numba intrinsic ``f(float64) -> result`` whose IR ``body(emit, x)`` writes
    (a float32 argument is widened first; the result stays float64)."""
    @intrinsic
    def fn(typingctx, x):
        if x not in (types.float64, types.float32):
            return None

        def codegen(context, builder, signature, args):
            m = _Emit(builder)
            v = args[0] if x == types.float64 else builder.fpext(args[0], _DBL)
            return body(m, _V(m, v)).v
        return result(x), codegen
    fn.__doc__ = body.__doc__
    fn.__name__ = body.__name__.lstrip("_")
    return fn


# The bodies live in .vbodies (NumPy only), which the kernels' NumPy twins run too.
exp = _float_intrinsic(_exp)
log = _float_intrinsic(_log)
log1p = _float_intrinsic(_log1p)
sin = _float_intrinsic(_sin)
cos = _float_intrinsic(_cos)
tanh = _float_intrinsic(_tanh)
trig_bad = _float_intrinsic(_trig_bad, types.int64)


@njit(error_model="numpy", cache=True)
def sin_checked(x):
    """``sin`` of any argument (branches: for scalars outside loops)."""
    return sin(x) if abs(x) <= TRIG_BOUND else np.sin(x)


@njit(error_model="numpy", cache=True)
def cos_checked(x):
    return cos(x) if abs(x) <= TRIG_BOUND else np.cos(x)
