"""Per-element maths used by the generated kernels, as ``F.<name>(x)``.

On a GPU these are Python's ``math`` functions, which Numba lowers to CUDA's
libdevice (``expf`` for float32, ``exp`` for float64...).  In the simulator the
kernels run as Python, where ``math.log(-1.0)`` raises and ``math.exp(1000.0)``
overflows with an exception; NumPy's ufuncs on NumPy scalars give IEEE results
instead (nan, inf), as the device does.  Composite definitions (logaddexp, mod, rint,
pow on integers...) are written once, in each primitive's scalar definition, in terms
of these leaves, so the simulator tests the same logic the device runs.  (Constants
such as ``F.LN2`` never reach a kernel: funcgrad writes them as literals.)

Complex leaves are named ``c_<name>`` (``F.c_exp(z)``): on a GPU Numba's ``cmath``
functions, in the simulator NumPy's ufuncs on complex scalars, which the CPU's complex
arrays compute with (so the simulator gives the CPU's values, and IEEE ones at
singularities where ``cmath`` raises).
"""
import ctypes
import ctypes.util
import functools
import math
import threading

from ._config import SIM

if SIM:  # the CPU's leaves: NumPy's ufuncs on scalars
    from ..cpu.leaves import (acos, acosh, asin, asinh, atan, atan2, atanh, cbrt,  # noqa: F401
                              ceil, copysign, cos, cosh, exp, expm1, floor, fmod, hypot,
                              isfinite, isinf, log, log1p, log2, log10, pow, sin, sinh, sqrt,
                              tan, tanh, trunc)
    import numpy as _np

    # (the CPU's exp2 leaf is a Numba function, returning Python floats: NumPy's keeps
    # float32 scalars float32, with the same bits)
    exp2 = _np.exp2
    c_exp, c_log, c_log10, c_sqrt = _np.exp, _np.log, _np.log10, _np.sqrt
    c_sin, c_cos, c_tan = _np.sin, _np.cos, _np.tan
    c_sinh, c_cosh, c_tanh = _np.sinh, _np.cosh, _np.tanh
    c_asin, c_acos, c_atan = _np.arcsin, _np.arccos, _np.arctan
    c_asinh, c_acosh, c_atanh = _np.arcsinh, _np.arccosh, _np.arctanh
else:  # numba-cuda lowers these to libdevice; floor/ceil/trunc return floats on CUDA
    from numba import cuda as _cuda

    exp, exp2, expm1 = math.exp, math.exp2, math.expm1
    log, log2, log10, log1p = math.log, math.log2, math.log10, math.log1p
    sqrt = math.sqrt
    sin, cos, tan = math.sin, math.cos, math.tan
    asin, acos, atan = math.asin, math.acos, math.atan
    sinh, cosh, tanh = math.sinh, math.cosh, math.tanh
    asinh, acosh, atanh = math.asinh, math.acosh, math.atanh
    floor, ceil, trunc = math.floor, math.ceil, math.trunc
    pow, fmod, atan2 = math.pow, math.fmod, math.atan2  # noqa: A001
    hypot, copysign = math.hypot, math.copysign
    isinf, isfinite = math.isinf, math.isfinite

    import cmath as _cmath

    c_exp, c_log, c_log10, c_sqrt = _cmath.exp, _cmath.log, _cmath.log10, _cmath.sqrt
    c_sin, c_cos, c_tan = _cmath.sin, _cmath.cos, _cmath.tan
    c_sinh, c_cosh, c_tanh = _cmath.sinh, _cmath.cosh, _cmath.tanh
    c_asin, c_acos, c_atan = _cmath.asin, _cmath.acos, _cmath.atan
    c_asinh, c_acosh, c_atanh = _cmath.asinh, _cmath.acosh, _cmath.atanh

    @_cuda.jit(device=True, inline=True)
    def cbrt(x):
        # (libdevice's cbrt is reached through the cuda module, which a kernel's
        # ``F.<name>`` lookup cannot see: wrap it in a device function)
        return _cuda.cbrt(x)


def __getattr__(name):
    """Any other leaf is Python's ``math`` function of that name (``erf``, ``lgamma``...):
    on a GPU, libdevice's.  In the simulator, the C library's function of that name
    (``gamma`` is C's ``tgamma``): IEEE values at poles and outside the domain, as the
    device gives, where Python's ``math`` raises "math domain error".  Each is looked up
    once and kept as a module attribute: the simulator's threads ask for it at every
    call, all at once."""
    try:
        fn = getattr(math, name)
    except AttributeError:
        raise AttributeError(f"no scalar leaf {name!r}: add it to {__name__}") from None
    with _LOOKUP_LOCK:
        return globals().setdefault(name, _c_library(name, fn) if SIM else fn)


_LOOKUP_LOCK = threading.Lock()


@functools.lru_cache(maxsize=1)
def _libm():
    return ctypes.CDLL(ctypes.util.find_library("m"))


def _arity(fn):
    """The number of arguments of a ``math`` builtin, read from its text signature
    (``"($module, x, y, /)"``).  Not ``inspect.signature``: that parses the text with
    ``ast``, which CPython 3.11 cannot do in two threads at once (its conversion keeps
    one recursion counter for all threads)."""
    params = (fn.__text_signature__ or "").strip("()").split(",")
    return sum(p.strip() not in ("", "$module", "/") for p in params)


def _c_library(name, fn):
    try:
        c_fn = getattr(_libm(), {"gamma": "tgamma"}.get(name, name))
        n_args = _arity(fn)
    except (OSError, AttributeError, TypeError):
        return fn  # no C library at hand: Python's (raises at poles)
    c_fn.restype = ctypes.c_double
    c_fn.argtypes = [ctypes.c_double] * n_args
    return c_fn
