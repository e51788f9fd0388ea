"""The table of elementwise operations (no Numba here, so funcgrad.gpu can read it
without importing CUDA).  See :mod:`.elementwise` for how a body becomes a kernel.

Each entry: ``name: (category, body)``.  The category decides the dtype the inputs are
computed in; the body is Python source computing ``r`` from ``x0, x1, ...``, where
``C(v)`` casts a constant to the compute dtype and ``F.<fn>`` is a leaf of
:mod:`._scalar`.  A body may differ for float and integer compute types
(``{"f": ..., "i": ...}``).
"""

_MAXIMUM = "r = x0 if (x0 != x0 or x0 > x1) else x1"   # NaN propagates
_MINIMUM = "r = x0 if (x0 != x0 or x0 < x1) else x1"
_FMAX = "r = x0 if (x1 != x1 or x0 >= x1) else x1"      # NaN ignored
_FMIN = "r = x0 if (x1 != x1 or x0 <= x1) else x1"

# round half to even, from floor (exact for every float; NaN and inf pass through)
_RINT = """f = F.floor(x0)
d = x0 - f
if d > C(0.5):
    r = f + C(1)
elif d < C(0.5):
    r = f
elif F.fmod(f, C(2)) == C(0):
    r = f
else:
    r = f + C(1)"""

# NumPy's npy_logaddexp: exact when x0 == x1 (inf included), log1p for the rest
_LOGADDEXP = """if x0 == x1:
    r = x0 + C(F.LN2)
else:
    t = x0 - x1
    if t > C(0):
        r = x0 + F.log1p(F.exp(-t))
    elif t <= C(0):
        r = x1 + F.log1p(F.exp(t))
    else:
        r = t"""

_LOGADDEXP2 = """if x0 == x1:
    r = x0 + C(1)
else:
    t = x0 - x1
    if t > C(0):
        r = x0 + F.log1p(F.exp2(-t)) * C(F.LOG2E)
    elif t <= C(0):
        r = x1 + F.log1p(F.exp2(t)) * C(F.LOG2E)
    else:
        r = t"""

# Python/NumPy modulo: the result takes the divisor's sign
_MOD_FLOAT = """if x1 == C(0):
    r = F.fmod(x0, x1)
else:
    m = F.fmod(x0, x1)
    if m != C(0):
        if (x1 < C(0)) != (m < C(0)):
            m = m + x1
    else:
        m = F.copysign(C(0), x1)
    r = m"""
_MOD_INT = """if x1 == C(0):
    r = C(0)
else:
    m = x0 % x1
    r = m"""

# integer power by squaring; a negative exponent truncates 1/x**-e (NumPy raises)
_POW_INT = """b = x0
e = x1
r = C(1)
if e < C(0):
    if b == C(1):
        r = C(1)
    elif b == C(-1):
        r = C(1) if e % C(2) == C(0) else C(-1)
    else:
        r = C(0)
else:
    while e > C(0):
        if e % C(2) == C(1):
            r = r * b
        b = b * b
        e = e // C(2)"""

_SIGN = """if x0 > C(0):
    r = C(1)
elif x0 < C(0):
    r = C(-1)
elif x0 == C(0):
    r = C(0)
else:
    r = x0"""

_CLIP = """m = x0 if (x0 != x0 or x0 > x1) else x1
r = m if (m != m or m < x2) else x2"""


def _f(expr):
    return {"f": "r = " + expr}


OPS = {
    # category "arith": computed in the output dtype
    "negative": ("arith", "r = -x0"),
    "abs": ("arith", "r = abs(x0)"),
    "sign": ("arith", _SIGN),
    "square": ("arith", "r = x0 * x0"),
    "reciprocal": ("arith", {"f": "r = C(1) / x0", "i": "r = C(0) if x0 == C(0) else C(1) // x0"}),
    "floor": ("arith", {"f": "r = F.floor(x0)", "i": "r = x0"}),
    "ceil": ("arith", {"f": "r = F.ceil(x0)", "i": "r = x0"}),
    "trunc": ("arith", {"f": "r = F.trunc(x0)", "i": "r = x0"}),
    "rint": ("arith", {"f": _RINT, "i": "r = x0"}),
    "add": ("arith", "r = x0 + x1"),
    "subtract": ("arith", "r = x0 - x1"),
    "multiply": ("arith", "r = x0 * x1"),
    "maximum": ("arith", _MAXIMUM),
    "minimum": ("arith", _MINIMUM),
    "fmax": ("arith", _FMAX),
    "fmin": ("arith", _FMIN),
    "mod": ("arith", {"f": _MOD_FLOAT, "i": _MOD_INT}),
    "power": ("arith", {"f": "r = F.pow(x0, x1)", "i": _POW_INT}),
    "clip": ("arith", _CLIP),
    "cast": ("arith", "r = x0"),
    # category "float": floating point only (integer inputs were promoted by NumPy's rules)
    "exp": ("arith", _f("F.exp(x0)")),
    "exp2": ("arith", _f("F.exp2(x0)")),
    "expm1": ("arith", _f("F.expm1(x0)")),
    "log": ("arith", _f("F.log(x0)")),
    "log2": ("arith", _f("F.log2(x0)")),
    "log10": ("arith", _f("F.log10(x0)")),
    "log1p": ("arith", _f("F.log1p(x0)")),
    "sqrt": ("arith", _f("F.sqrt(x0)")),
    "cbrt": ("arith", _f("F.cbrt(x0)")),
    "sin": ("arith", _f("F.sin(x0)")),
    "cos": ("arith", _f("F.cos(x0)")),
    "tan": ("arith", _f("F.tan(x0)")),
    "arcsin": ("arith", _f("F.asin(x0)")),
    "arccos": ("arith", _f("F.acos(x0)")),
    "arctan": ("arith", _f("F.atan(x0)")),
    "sinh": ("arith", _f("F.sinh(x0)")),
    "cosh": ("arith", _f("F.cosh(x0)")),
    "tanh": ("arith", _f("F.tanh(x0)")),
    "arcsinh": ("arith", _f("F.asinh(x0)")),
    "arccosh": ("arith", _f("F.acosh(x0)")),
    "arctanh": ("arith", _f("F.atanh(x0)")),
    "divide": ("arith", _f("x0 / x1")),
    "arctan2": ("arith", _f("F.atan2(x0, x1)")),
    "hypot": ("arith", _f("F.hypot(x0, x1)")),
    "logaddexp": ("arith", {"f": _LOGADDEXP}),
    "logaddexp2": ("arith", {"f": _LOGADDEXP2}),
    # category "cmp": inputs promoted together, boolean result
    "equal": ("cmp", "r = x0 == x1"),
    "not_equal": ("cmp", "r = x0 != x1"),
    "less": ("cmp", "r = x0 < x1"),
    "less_equal": ("cmp", "r = x0 <= x1"),
    "greater": ("cmp", "r = x0 > x1"),
    "greater_equal": ("cmp", "r = x0 >= x1"),
    # category "logic": inputs as truth values
    "logical_and": ("logic", "r = x0 and x1"),
    "logical_or": ("logic", "r = x0 or x1"),
    "logical_xor": ("logic", "r = x0 != x1"),
    "logical_not": ("logic", "r = not x0"),
    # category "pred": inputs in their own dtype
    "isnan": ("pred", {"f": "r = x0 != x0", "i": "r = False"}),
    "isinf": ("pred", {"f": "r = F.isinf(x0)", "i": "r = False"}),
    "isfinite": ("pred", {"f": "r = F.isfinite(x0)", "i": "r = True"}),
    # where(c, x, y): c as a truth value, x and y in the output dtype
    "where": ("where", "r = x1 if x0 else x2"),
    # fused first-order VJP kernels: (g, x, y) -> cotangent of x
    "negative_vjp": ("arith", "r = -x0"),
    "abs_vjp": ("arith", "r = x0 * (C(1) if x1 > C(0) else (C(-1) if x1 < C(0) else "
                         "(C(0) if x1 == C(0) else x1)))"),
    "exp_vjp": ("arith", "r = x0 * x2"),
    "exp2_vjp": ("arith", "r = x0 * x2 * C(F.LN2)"),
    "expm1_vjp": ("arith", "r = x0 * (x2 + C(1))"),
    "log_vjp": ("arith", "r = x0 / x1"),
    "log2_vjp": ("arith", "r = x0 / (x1 * C(F.LN2))"),
    "log10_vjp": ("arith", "r = x0 / (x1 * C(2.302585092994046))"),
    "log1p_vjp": ("arith", "r = x0 / (x1 + C(1))"),
    "sqrt_vjp": ("arith", "r = x0 / (x2 * C(2))"),
    "cbrt_vjp": ("arith", "r = x0 / (x2 * x2 * C(3))"),
    "square_vjp": ("arith", "r = x0 * (x1 * C(2))"),
    "reciprocal_vjp": ("arith", "r = x0 * -(x2 * x2)"),
    "sin_vjp": ("arith", "r = x0 * F.cos(x1)"),
    "cos_vjp": ("arith", "r = x0 * -F.sin(x1)"),
    "tan_vjp": ("arith", "r = x0 * (x2 * x2 + C(1))"),
    "tanh_vjp": ("arith", "r = x0 * (C(1) - x2 * x2)"),
    "sinh_vjp": ("arith", "r = x0 * F.cosh(x1)"),
    "cosh_vjp": ("arith", "r = x0 * F.sinh(x1)"),
    "arctan_vjp": ("arith", "r = x0 / (x1 * x1 + C(1))"),
}

ARITY = {name: (3 if name.endswith("_vjp") else 1) for name in OPS}
ARITY.update({n: 2 for n in (
    "add", "subtract", "multiply", "divide", "power", "maximum", "minimum", "fmax", "fmin",
    "arctan2", "hypot", "logaddexp", "logaddexp2", "mod", "equal", "not_equal", "less",
    "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor")})
ARITY.update({"where": 3, "clip": 3})

FUSED_VJP = tuple(n[:-4] for n in OPS if n.endswith("_vjp"))

# the names that are funcgrad primitives (the rest are kernels the GPU layer uses itself)
PRIMITIVES = tuple(n for n in OPS if not n.endswith("_vjp") and n != "cast")
