"""Complex element code of the GPU kernels: for each elementwise primitive that NumPy
defines on complex numbers, how one complex element is computed.

Why here and not in the declarations of :mod:`funcgrad.primitives.elementwise`: there
a definition for complex dtypes would also be compiled by ``jit``'s fused CPU loops
(:func:`funcgrad.primitives.scalar.body_for` hands a ``"c"`` body to every backend),
while the CPU computes complex arrays with NumPy's own ufuncs, whose numbers these
definitions follow: the formulas of NumPy's complex loops (Smith's division,
``expm1``, ``log1p``, ``log2``, ``exp2``) and the leaves ``F.c_<name>`` of
:mod:`funcgrad.kernels.cuda._scalar` (``cmath`` on the device, NumPy in the simulator).

A definition reads the inputs ``x0, x1...`` in the complex compute dtype; ``C(v)``
is the real constant ``v`` in the matching precision, ``F.<name>`` a real leaf applied
to a part (``x0.real``), ``complex(re, im)`` builds a result.  A primitive missing
here raises a TypeError on complex GPU arrays (:func:`complex_body`) naming the way
out, never a wrong number: ``sign``, ``maximum``, ``minimum``, ``fmax``, ``fmin``,
``clip`` and the ordering comparisons (NumPy orders complex numbers
lexicographically), and the functions NumPy does not define on complex numbers.
"""
import numpy as np

from ..primitives import elementwise as ew
from ..primitives import scalar as sc

__all__ = ["DEFINITIONS", "complex_body", "complex_emitter"]


def _divide(a, b):
    """``a / b`` (element expressions) by Smith's algorithm, as NumPy divides."""
    return f"a = {a}\nb = {b}\n" + sc.smith_division("a", "b")


def _leaf(name):
    return f"r = F.c_{name}(x0)"


# z ** w = exp(w log z) (NumPy computes small integer powers by products instead: the
# same to rounding), with NumPy's values where the logarithm is undefined: z ** 0 = 1,
# and 0 ** w = 0 where Re(w) > 0, NaN otherwise.
_POWER = """a = x0
b = x1
if b.real == C(0) and b.imag == C(0):
    r = complex(C(1), C(0))
elif a.real == C(0) and a.imag == C(0):
    if b.real > C(0):
        r = complex(C(0), C(0))
    else:
        r = complex(C(F.NAN), C(F.NAN))
else:
    r = F.c_exp(b * F.c_log(a))"""

# Re(e^z - 1) = expm1(x) cos(y) - 2 sin(y/2)**2 keeps the digits that e^x cos y - 1
# would cancel near z = 0
_EXPM1 = """h = F.sin(x0.imag * C(0.5))
r = complex(F.expm1(x0.real) * F.cos(x0.imag) - C(2) * h * h, F.exp(x0.real) * F.sin(x0.imag))"""

_LOG1P = """t = x0 + C(1)
r = complex(F.log(F.hypot(t.real, t.imag)), F.atan2(t.imag, t.real))"""

DEFINITIONS = {
    ew.negative_p: "r = -x0",
    ew.abs_p: "r = abs(x0)",
    ew.square_p: "r = x0 * x0",
    ew.reciprocal_p: _divide("complex(C(1), C(0))", "x0"),
    ew.exp_p: _leaf("exp"),
    ew.exp2_p: "r = F.c_exp(x0 * C(F.LN2))",
    ew.expm1_p: _EXPM1,
    ew.log_p: _leaf("log"),
    ew.log2_p: "r = F.c_log(x0) * C(F.LOG2E)",
    ew.log10_p: _leaf("log10"),
    ew.log1p_p: _LOG1P,
    ew.sqrt_p: _leaf("sqrt"),
    ew.sin_p: _leaf("sin"),
    ew.cos_p: _leaf("cos"),
    ew.tan_p: _leaf("tan"),
    ew.arcsin_p: _leaf("asin"),
    ew.arccos_p: _leaf("acos"),
    ew.arctan_p: _leaf("atan"),
    ew.sinh_p: _leaf("sinh"),
    ew.cosh_p: _leaf("cosh"),
    ew.tanh_p: _leaf("tanh"),
    ew.arcsinh_p: _leaf("asinh"),
    ew.arccosh_p: _leaf("acosh"),
    ew.arctanh_p: _leaf("atanh"),
    ew.real_p: "r = x0.real",
    ew.imag_p: "r = x0.imag",
    ew.conj_p: "r = x0.conjugate()",
    ew.add_p: "r = x0 + x1",
    ew.subtract_p: "r = x0 - x1",
    ew.multiply_p: "r = x0 * x1",
    ew.divide_p: _divide("x0", "x1"),
    ew.power_p: _POWER,
    ew.equal_p: "r = x0 == x1",
    ew.not_equal_p: "r = x0 != x1",
    ew.isnan_p: "r = x0.real != x0.real or x0.imag != x0.imag",
    ew.isinf_p: "r = F.isinf(x0.real) or F.isinf(x0.imag)",
    ew.isfinite_p: "r = F.isfinite(x0.real) and F.isfinite(x0.imag)",
    ew.where_p: "r = x1 if x0 else x2",
}
"""Primitive -> its scalar definition for a complex compute dtype."""


def complex_body(prim):
    """``prim``'s complex definition, or a TypeError naming the way out.

    >>> complex_body(ew.multiply_p)
    'r = x0 * x1'
    """
    body = DEFINITIONS.get(prim)
    if body is None:
        raise TypeError(
            f"{prim.name} on complex GPU arrays: there is no GPU kernel for it on complex "
            f"numbers (NumPy orders complex numbers lexicographically, or does not define "
            f"{prim.name} on them). Copy the operands to the host for this step "
            f"(fg.device_get(x)), where NumPy computes it, and back with fg.device_put.")
    return body


def _real_literal(value, dtype):
    """A constant of a complex computation is real, in the matching precision
    (complex64 * float32 stays complex64)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        dtype = np.dtype(np.float32 if dtype == np.complex64 else np.float64)
    return sc.literal(value, dtype)


def complex_emitter():
    """A writer of complex CUDA scalar code (leaves ``F.<name>`` of kernels/cuda/_scalar.py).

    >>> complex_emitter().statements("r = x0 * C(2)", ["z"], "r", np.dtype(np.complex64))
    ['r = z * np.float32(2.0)']
    """
    return sc.Emitter(lambda name, dtype: f"F.{name}", _real_literal, sc.cast)
