"""Complex elements in the jit's fused loops, with the bits of the eager primitives.

Inside a fused loop a complex value is a Numba complex scalar (complex64 or complex128,
loaded and stored as NumPy's); each definition below computes one element from the parts
``x0.real``, ``x0.imag`` with one IEEE operation per operator and builds the result with
``complex(re, im)``, in the precision of the parts (complex64 stays complex64).  A real
operand beside a complex one is read as ``complex(x, 0)``, as NumPy casts it before its
complex loop runs (``0 * inf`` and the signs of zeros come out as NumPy's).

Which formula gives NumPy's bits depends on the loop NumPy's build runs on this CPU, not
on the textbook: on x86-64 with FMA (NumPy 2.x, its X86_V3 loops) the product is
``(fma(ar, br, -(ai*bi)), fma(ar, bi, ai*br))`` and ``|z|`` is
``big * sqrt(fma(q, q, 1))`` with ``q = small / big`` (not the C library's ``hypot``),
whatever the strides; a build without FMA would round each product.  So a primitive lists
candidate definitions, and :func:`body` keeps, per complex dtype, the first whose
evaluation in Python (the same text, on NumPy scalars, with an exactly rounded ``fma``)
equals the primitive's own impl on probe values: contiguous, strided, broadcast and 0-d
operands, a real operand beside a complex one, zeros, infinities and NaNs.  A primitive with no
matching candidate stays out of the loops, and NumPy computes it between kernels: never a
different number.  Primitives not listed (``exp``, ``sqrt``, comparisons...) stay out too.

The leaves a definition may call: ``F.fma`` (``llvm.fma``, :func:`.runtime.fma`) and
``F.sqrt``; ``C(v)`` is the real constant ``v`` in the precision of the parts.
"""
import functools
from fractions import Fraction

import numpy as np

from ..interpreters.graph import Var
from ..primitives import elementwise as ew
from ..primitives import scalar as sc
from ..primitives.structural import broadcast_to_p, convert_element_type_p, stop_gradient_p

__all__ = ["is_complex", "supports", "computation_dtypes", "body", "emitter", "CANDIDATES"]

_C64, _C128 = np.dtype(np.complex64), np.dtype(np.complex128)
_REAL = {_C64: np.dtype(np.float32), _C128: np.dtype(np.float64)}
# dtypes a complex loop reads and writes (integers and booleans stay with NumPy)
_DTYPES = frozenset({_C64, _C128, np.dtype(np.float32), np.dtype(np.float64)})
_IDENTITY = frozenset({broadcast_to_p, stop_gradient_p})

_PRODUCT_FMA = ("r = complex(F.fma(x0.real, x1.real, -(x0.imag * x1.imag)), "
                "F.fma(x0.real, x1.imag, x0.imag * x1.real))")
_PRODUCT = ("r = complex(x0.real * x1.real - x0.imag * x1.imag, "
            "x0.real * x1.imag + x0.imag * x1.real)")

# |z| as NumPy's SIMD loop computes it: an infinite part wins over a NaN, then a NaN part
# gives NaN; otherwise the larger part times sqrt(1 + q^2), q = smaller / larger (q = 0
# when the larger part is 0).
_ABS_SCALED = """a = abs(x0.real)
b = abs(x0.imag)
big = a if a >= b else b
small = b if a >= b else a
q = small / big if big != C(0) else C(0)
r = C(F.INF) if a == C(F.INF) or b == C(F.INF) else (C(F.NAN) if a != a or b != b else {root} * big)"""

# Smith's division, as NumPy's complex loop writes it (the GPU kernels' too).
_DIVIDE = sc.smith_division("x0", "x1")

CANDIDATES = {
    ew.add_p: ["r = complex(x0.real + x1.real, x0.imag + x1.imag)"],
    ew.subtract_p: ["r = complex(x0.real - x1.real, x0.imag - x1.imag)"],
    ew.multiply_p: [_PRODUCT_FMA, _PRODUCT],
    ew.square_p: [_PRODUCT_FMA.replace("x1", "x0"), _PRODUCT.replace("x1", "x0")],
    ew.divide_p: [_DIVIDE],
    ew.negative_p: ["r = complex(-x0.real, -x0.imag)"],
    ew.conj_p: ["r = complex(x0.real, -x0.imag)"],
    ew.real_p: ["r = x0.real"],
    ew.imag_p: ["r = x0.imag"],
    ew.abs_p: [_ABS_SCALED.format(root="F.sqrt(F.fma(q, q, C(1)))"),
               _ABS_SCALED.format(root="F.sqrt(q * q + C(1))")],
    ew.where_p: ["r = x1 if x0 else x2"],
}
"""Primitive -> its candidate definitions on complex elements, the likeliest first."""


def is_complex(eqn):
    """Does ``eqn`` read or write a complex value?"""
    if eqn.outvars and eqn.outvars[0].aval.dtype.kind == "c":
        return True
    for x in eqn.inputs:
        dtype = x.aval.dtype if isinstance(x, Var) else np.asarray(x).dtype
        if dtype.kind == "c":
            return True
    return False


def _operand_ok(x):
    if isinstance(x, Var):
        return x.aval.dtype in _DTYPES
    if isinstance(x, (bool, int, float, complex)):
        return True
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype in _DTYPES
    return False


def computation_dtypes(eqn):
    """Per operand, the dtype the loop reads it in (as for real equations: None, as it
    is).  Complex arithmetic reads every operand in the complex dtype NumPy casts them to:
    the result's, or for ``abs``/``real``/``imag`` the operand's own."""
    out = eqn.outvars[0].aval.dtype
    if eqn.prim in _IDENTITY:
        return [None]
    if eqn.prim is convert_element_type_p:
        return [out]
    if eqn.prim is ew.where_p:
        return [np.dtype(np.bool_), out, out]
    if out.kind == "c":
        return [out] * len(eqn.inputs)
    return [eqn.inputs[0].aval.dtype]


def supports(eqn):
    """Can a fused loop compute the complex equation ``eqn`` with the impl's bits?"""
    out = eqn.outvars[0].aval.dtype
    if eqn.prim in _IDENTITY:
        return isinstance(eqn.inputs[0], Var) and eqn.inputs[0].aval.dtype == out and \
            out.kind == "c"
    if eqn.prim is convert_element_type_p:
        x = eqn.inputs[0]
        return isinstance(x, Var) and x.aval.dtype in _DTYPES and out in _DTYPES
    if eqn.prim not in CANDIDATES or out not in _DTYPES:
        return False
    if eqn.prim is ew.where_p:
        cond = eqn.inputs[0]
        if not (isinstance(cond, Var) and cond.aval.dtype.kind == "b") or out.kind != "c":
            return False
        inputs = eqn.inputs[1:]
    else:
        inputs = eqn.inputs
    if not all(_operand_ok(x) for x in inputs):
        return False
    comp = computation_dtypes(eqn)[-1]
    if comp.kind != "c" or (out.kind != "c" and eqn.prim not in (ew.abs_p, ew.real_p,
                                                                  ew.imag_p)):
        return False
    return body(eqn.prim, comp) is not None


@functools.lru_cache(maxsize=None)
def body(prim, dtype):
    """The definition of ``prim`` on elements of the complex ``dtype``: its first candidate
    that matches its impl on this machine (see the module's docstring), or None.  Each is
    checked when first needed (about 40 ms a primitive).

    >>> body(ew.conj_p, np.complex64)
    'r = complex(x0.real, -x0.imag)'
    >>> body(ew.exp_p, np.complex128) is None  # (NumPy computes it between kernels)
    True
    """
    dtype = np.dtype(dtype)
    return next((text for text in CANDIDATES.get(prim, ()) if _matches(prim, text, dtype)),
                None)


def _literal(value, dtype):
    """A constant of a complex definition is real, in the precision of the parts."""
    return sc.literal(value, _REAL.get(np.dtype(dtype), dtype))


def emitter():
    """A writer of complex definitions as Numba source (``F.fma``: the runtime's fma)."""
    leaves = {"fma": "_rt.fma", "sqrt": "_lf.sqrt"}
    return sc.Emitter(lambda name, dtype: leaves[name], _literal, sc.cast)


# --- which candidate gives the impl's bits -----------------------------------------------

def _round32(q):
    """The float32 nearest the rational ``q`` (ties to even)."""
    with np.errstate(over="ignore"):
        f = np.float32(float(q))
    if not np.isfinite(f):
        return f
    best = None
    for c in (np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))):
        if np.isfinite(c):
            key = (abs(Fraction(float(c)) - q), int(np.array(c).view(np.int32)) & 1)
            if best is None or key < best[0]:
                best = (key, c)
    return best[1]


def _fma(a, b, c):
    """``a * b + c`` rounded once, in the precision of ``a`` (NumPy scalars)."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return a * b + c  # (the exact product is infinite or NaN: no rounding to differ)
    if not np.isfinite(c):
        return c  # (a finite exact product, even one a float would overflow on)
    exact = Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c))
    if exact == 0:  # (the sign of an exact zero: IEEE's, as the unfused operations give)
        return a * b + c
    if a.dtype == np.float32:
        return _round32(exact)
    try:
        return a.dtype.type(float(exact))
    except OverflowError:
        return a * b + c  # (beyond the largest double either way: an infinity)


class _Leaves:
    INF, NAN = np.inf, np.nan
    fma = staticmethod(_fma)
    sqrt = staticmethod(np.sqrt)


def _evaluate(code, real, operands):
    """``r`` of a definition run as Python on NumPy scalars (parts of ``real``)."""
    space = {"C": real.type, "F": _Leaves, "complex": complex, "abs": abs}
    for k, x in enumerate(operands):
        space[f"x{k}"] = x
    exec(code, space)  # noqa: S102 - the definitions of this module
    return space["r"]


def _probe_values(dtype):
    rng = np.random.default_rng(20261203)
    n = 32
    scale = 10.0 ** rng.integers(-6, 7, size=(2, n))
    parts = rng.standard_normal((2, n)) * scale
    special = [0.0, -0.0, -2.5, np.inf, -np.inf, np.nan, 3e30]
    re = np.concatenate([parts[0], np.repeat(special, len(special))])
    im = np.concatenate([parts[1], np.tile(special, len(special))])
    z = np.empty(re.size, dtype)
    z.real, z.imag = re, im  # (re + 1j * im would make NaNs of the infinities)
    w = np.roll(z, 7)[::-1].copy()
    return z, w, z.real.copy()


def _same(got, want):
    """Bit for bit, NaNs equal whatever their sign or payload."""
    got, want = np.ascontiguousarray(got), np.ascontiguousarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    gv = got.view(got.real.dtype) if got.dtype.kind == "c" else got
    wv = want.view(want.real.dtype) if want.dtype.kind == "c" else want
    nan = np.isnan(gv)
    return bool(np.array_equal(nan, np.isnan(wv)) and gv[~nan].tobytes() == wv[~nan].tobytes())


def _layouts(arrays):
    """The operands as they are (contiguous or broadcast), then as strided views."""
    yield arrays
    strided = []
    for a in arrays:
        s = np.empty(a.shape[0] * 2, a.dtype)
        s[::2] = a
        strided.append(s[::2])
    yield strided


def _matches(prim, text, dtype):
    real = _REAL[dtype]
    code = compile(text, f"<{prim.name}>", "exec")
    z, w, x = _probe_values(dtype)
    if prim in (ew.add_p, ew.subtract_p, ew.multiply_p, ew.divide_p):
        # (NumPy's SIMD loops have paths of their own for an operand of stride 0)
        cases = [(z, w), (z, x.astype(real)), (x.astype(real), w),
                 (z, np.broadcast_to(w[3:4], w.shape)), (np.broadcast_to(z[5:6], z.shape), w)]
    elif prim is ew.where_p:
        cases = [(np.arange(z.size) % 3 == 0, z, w)]
    else:
        cases = [(z,)]
    with np.errstate(all="ignore"):
        for args in cases:
            lifted = [a if a.dtype.kind == "b" else a.astype(dtype) for a in args]
            want = [_evaluate(code, real, [a[i] if a.dtype.kind == "b" else dtype.type(a[i])
                                           for a in lifted]) for i in range(z.size)]
            out_dtype = real if prim in (ew.abs_p, ew.real_p, ew.imag_p) else dtype
            want = np.array(want).astype(out_dtype)
            for operands in _layouts(list(args)):
                if not _same(prim.impl(*operands), want):
                    return False
            got = [prim.impl(*[np.asarray(a[i]) for a in args]) for i in range(0, z.size, 5)]
            if not _same(np.array(got), want[::5]):
                return False
    return True

