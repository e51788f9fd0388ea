"""The CPU's floating-point status flags, read by compiled loops and reported as NumPy does.

NumPy reports a ufunc's floating-point errors (``divide by zero encountered in log``)
from the status flags its loop left (C's ``fetestexcept``).  A loop of funcgrad's own that
NumPy does not run (the flat elementwise driver of :mod:`._loops`) clears the flags,
reads them at its end and returns them; :func:`report` then raises, warns or calls as the
caller's ``np.errstate`` says, so a large array's kernel reports what a small array's
ufunc does.  The flags' values are the C library's, per architecture; elsewhere the
mask is 0 and nothing is read.
"""
import platform
import warnings

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

# C's FE_* values -> (NumPy's name of the error, its errstate key, NumPy's FPE flag)
_INVALID = ("invalid value", "invalid", 8)
_DIVIDE = ("divide by zero", "divide", 1)
_OVERFLOW = ("overflow", "over", 2)
_UNDERFLOW = ("underflow", "under", 4)
_FE = {"x86_64": {1: _INVALID, 4: _DIVIDE, 8: _OVERFLOW, 16: _UNDERFLOW},
       "aarch64": {1: _INVALID, 2: _DIVIDE, 4: _OVERFLOW, 8: _UNDERFLOW}}
_FE["AMD64"], _FE["arm64"] = _FE["x86_64"], _FE["aarch64"]
FLAGS = _FE.get(platform.machine(), {})
MASK = sum(FLAGS)


def _libm(name):
    @intrinsic
    def call(typingctx):
        def codegen(context, builder, signature, args):
            i32 = ir.IntType(32)
            fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i32, [i32]),
                                                name)
            return builder.call(fn, [ir.Constant(i32, MASK)])
        return types.int32(), codegen
    return call


clear = _libm("feclearexcept")  # (compiled code only: clear(), then the loop, then read())
read = _libm("fetestexcept")


def kinds(flags):
    """NumPy's names of the errors in ``flags`` (what :data:`read` gave)."""
    return [kind for bit, (kind, _, _) in FLAGS.items() if flags & bit]


_ORDER = ("divide by zero", "overflow", "underflow", "invalid value")  # (NumPy's)
_MODE_KEY = {kind: key for kind, key, _ in (_DIVIDE, _OVERFLOW, _UNDERFLOW, _INVALID)}
_FPE = {kind: flag for kind, _, flag in (_DIVIDE, _OVERFLOW, _UNDERFLOW, _INVALID)}


def report(errors, display):
    """Report the floating-point errors named in ``errors`` ("divide by zero",
    "overflow", "underflow", "invalid value") as NumPy reports a ufunc's named
    ``display``: once per kind, in NumPy's order, under the caller's ``np.errstate``
    (warn, raise, call, print, log, ignore).

    >>> import numpy as np
    >>> with np.errstate(divide="raise"):
    ...     report(["divide by zero"], "a kernel")
    Traceback (most recent call last):
    FloatingPointError: divide by zero encountered in a kernel
    """
    modes = np.geterr()
    for kind in _ORDER:
        if kind not in errors:
            continue
        mode = modes[_MODE_KEY[kind]]
        message = f"{kind} encountered in {display}"
        if mode == "ignore":
            continue
        if mode == "raise":
            raise FloatingPointError(message)
        if mode == "call":
            np.geterrcall()(kind, _FPE[kind])
        elif mode == "log":
            np.geterrcall().write(f"Warning: {message}\n")
        elif mode == "print":
            print(f"Warning: {message}")
        else:
            warnings.warn(message, RuntimeWarning, stacklevel=4)
