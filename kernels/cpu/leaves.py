"""The scalar maths of generated CPU kernels, ``F.<leaf>`` in a scalar definition.

Each leaf is a function Numba compiles in nopython mode; these are the C library's
(``np.exp`` on a scalar in Numba is libm's ``exp``), exact for every argument.  Where
:mod:`.vmath` has a vectorisable twin (``exp``, ``log``, ``log1p``, ``sin``, ``cos``,
``tanh``) a kernel uses it inside loops (see ``VECTOR``), and ``sin``/``cos`` fall back to
these leaves for arguments beyond ``vmath.TRIG_BOUND``.  The names are those of
:mod:`funcgrad.kernels.cuda._scalar`, the GPU's leaves, so one definition serves both.
"""
import math

import numpy as np

__all__ = ["VECTOR", "LN2", "LOG2E"]

LN2 = math.log(2.0)
LOG2E = 1.0 / LN2

exp, expm1 = np.exp, np.expm1  # (exp2: below, typed)
log, log2, log10, log1p = np.log, np.log2, np.log10, np.log1p
sqrt, cbrt = np.sqrt, np.cbrt
sin, cos, tan = np.sin, np.cos, np.tan
asin, acos, atan = np.arcsin, np.arccos, np.arctan
sinh, cosh, tanh = np.sinh, np.cosh, np.tanh
asinh, acosh, atanh = np.arcsinh, np.arccosh, np.arctanh
floor, ceil, trunc = np.floor, np.ceil, np.trunc
pow, fmod, atan2 = np.power, np.fmod, np.arctan2  # noqa: A001
hypot, copysign = np.hypot, np.copysign
isinf, isfinite = np.isinf, np.isfinite


def _typed_exp2():
    """``exp2`` as ``llvm.exp2.f32``/``llvm.exp2.f64`` (the C library's ``exp2f``/``exp2``).

    Numba 0.68 lowers ``np.exp2`` of a float to an intrinsic declared as plain
    ``llvm.exp2``, without the type suffix: the first call in a module declares it for its
    type, and a call on the other float type then fails to compile ("Type of #1 arg
    mismatch: float != double").  A fused kernel mixing both (``frexp`` of float32 then
    ``ldexp``, whose exponents are float64) fell back to eager.  This leaf declares the
    intrinsic per type, which is what Numba compiles for one type alone: NumPy's bits for
    every float32 (all 2**32 checked against ``np.exp2``; rounding ``exp2`` of the float64
    instead differs at 168364 of them) and for float64.  Built on first use (it imports
    Numba); callable from Python too (the CUDA simulator's leaves)."""
    from llvmlite import ir
    from numba import njit, types
    from numba.extending import intrinsic

    from .._numba_stamp import install
    install()

    @intrinsic
    def llvm_exp2(typingctx, x):
        if not isinstance(x, types.Float):
            return None

        def codegen(context, builder, signature, args):
            t = args[0].type
            f = builder.module.declare_intrinsic("llvm.exp2", [t], ir.FunctionType(t, [t]))
            return builder.call(f, args)
        return x(x), codegen

    @njit(cache=True, error_model="numpy", nogil=True)
    def exp2(x):
        return llvm_exp2(x)
    return exp2


def __getattr__(name):
    """Any other leaf is Python's ``math`` function of that name (``erf``, ``gamma``...),
    which Numba compiles to the C library's: a new primitive needs no edit here unless
    its function is missing from ``math``."""
    if name == "exp2":
        globals()["exp2"] = leaf = _typed_exp2()
        return leaf
    try:
        return getattr(math, name)
    except AttributeError:
        raise AttributeError(f"no scalar leaf {name!r}: add it to {__name__}") from None

VECTOR = frozenset({"exp", "log", "log1p", "sin", "cos", "tanh"})
"""Leaves with a vectorisable twin in :mod:`.vmath` (the others are one C-library call per
element, which stops LLVM from vectorising a loop)."""
CHECKED = frozenset({"sin", "cos"})
"""Vectorised leaves that hold only for ``|x| <= vmath.TRIG_BOUND``."""
# Leaves that are SIMD instructions or selects in any loop (no library call at all).
INLINE = frozenset({"sqrt", "floor", "ceil", "trunc", "copysign", "isinf", "isfinite"})
