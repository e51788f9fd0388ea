"""Elementwise primitives (broadcasting, like NumPy ufuncs), each one declaration.

A declaration (see :mod:`._elementwise` for what is derived from it) names the primitive,
its eager CPU kernel (NumPy's ufunc; ``None`` generates one), its *scalar definition*
(:mod:`.scalar`: statements computing ``r`` from ``x0, x1, ...`` with constants ``C(v)``
and leaves ``F.<name>``, from which the GPU kernels, ``jit``'s fused loops and the fused
CPU kernels are generated) and, per argument, its *linear rule* ``lin(g, *args, out)``
(``g`` times the partial derivative; ``None``: no derivative, a mask).  Adding a primitive
is adding a declaration here and a line in the property-test table
(``tests/test_primitives.py``); see README "Adding a primitive".
"""
import math

import numpy as np
from numpy import ndarray

from ..core import SHAPES_ONLY, _state
from ..kernels import cpu
from ._elementwise import elementwise, identity, negated, times_first, times_second

_EMPTY: dict = {}
LN2 = math.log(2.0)
LN10 = math.log(10.0)
TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


# The functions below bind through the interpreter directly, not ``prim.bind(x)``: no
# varargs and no keyword dict, ~450 fewer instructions a call (callgrind), on the path of
# every operator and rule.
def _fn1(prim):
    def f(x):
        return _state.interpreter.process(prim, (x,), _EMPTY)
    f.primitive = prim
    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"Elementwise ``{prim.name}`` (a funcgrad primitive)."
    return f


def _fn2(prim):
    def f(x, y):
        return _state.interpreter.process(prim, (x, y), _EMPTY)
    f.primitive = prim
    f.__name__ = f.__qualname__ = prim.name
    f.__doc__ = f"Elementwise ``{prim.name}`` with NumPy broadcasting (a funcgrad primitive)."
    return f


def _f(expr):
    """A definition for floating-point computation only (integers were promoted first)."""
    return {"f": "r = " + expr}


def _scaled(g, c, x):
    """``g * (x * c)`` for a Python number ``c``, with ``c`` applied to ``g`` instead when
    ``g`` is a plain array and ``x`` is traced: then the traced factor enters one product
    rather than two (under forward-over-reverse each is a pass over a batch of tangents).
    Scaling by 2 is exact, so there both orders give the same bits."""
    if type(g) is ndarray and type(x) is not ndarray:
        return (g * c) * x
    return g * (x * c)


# --- unary -------------------------------------------------------------------------------

_SIGN = """if x0 > C(0):
    r = C(1)
elif x0 < C(0):
    r = C(-1)
elif x0 == C(0):
    r = C(0)
else:
    r = x0"""

negative_p = elementwise("negative", np.negative, "r = -x0", lambda g, x, y: negative(g),
                         vjp_reads=SHAPES_ONLY, grad_fn_name="NegBackward0")
def _nonzero(d):
    """``d`` with its zeros replaced by ones (a guarded denominator or logarithm)."""
    return where(equal(d, 0), 1.0, d)


def _abs_lin(g, x, y):
    if getattr(x, "dtype", None) is not None and x.dtype.kind == "c":
        # d|z| = Re(conj(z) dz) / |z|: the factor conj(z) / |z| (0 at 0), written with
        # differentiable primitives (sign(z) = z / |z| is not piecewise constant here).
        # g / |z| first: in reverse mode g and |z| are real, so that division is a real
        # pass (fused under jit) and one complex product is left; conj(z) / |z| would be
        # NumPy's complex-by-real division, a pass twice as slow as the product (W8).
        return conj(x) * (g / _nonzero(y))
    return g * sign(x)


abs_p = elementwise("abs", np.abs, "r = abs(x0)", _abs_lin)
exp_p = elementwise("exp", np.exp, _f("F.exp(x0)"), lambda g, x, y: g * y)
exp2_p = elementwise("exp2", np.exp2, _f("F.exp2(x0)"), lambda g, x, y: g * y * LN2)
expm1_p = elementwise("expm1", np.expm1, _f("F.expm1(x0)"), lambda g, x, y: g * (y + 1.0))
log_p = elementwise("log", np.log, _f("F.log(x0)"), lambda g, x, y: g / x)
log2_p = elementwise("log2", np.log2, _f("F.log2(x0)"), lambda g, x, y: g / (x * LN2))
log10_p = elementwise("log10", np.log10, _f("F.log10(x0)"), lambda g, x, y: g / (x * LN10))
log1p_p = elementwise("log1p", np.log1p, _f("F.log1p(x0)"), lambda g, x, y: g / (x + 1.0))
sqrt_p = elementwise("sqrt", np.sqrt, _f("F.sqrt(x0)"), lambda g, x, y: g / (y * 2.0))
cbrt_p = elementwise("cbrt", np.cbrt, _f("F.cbrt(x0)"), lambda g, x, y: g / (square(y) * 3.0))
square_p = elementwise("square", np.square, "r = x0 * x0", lambda g, x, y: _scaled(g, 2.0, x),
                       grad_fn_name="PowBackward0")
reciprocal_p = elementwise("reciprocal", np.reciprocal,
                           {"f": "r = C(1) / x0", "i": "r = C(0) if x0 == C(0) else C(1) // x0"},
                           lambda g, x, y: -g * square(y))
# NumPy's sin/cos call the C library element by element; the vectorised ones (kernels/cpu/
# vmath.py) are 6-13x faster on float64 (python benchmarks/kernels.py).
sin_p = elementwise("sin", np.sin, _f("F.sin(x0)"), lambda g, x, y: g * cos(x),
                    vector_forward=True)
cos_p = elementwise("cos", np.cos, _f("F.cos(x0)"), lambda g, x, y: -g * sin(x),
                    vector_forward=True)
tan_p = elementwise("tan", np.tan, _f("F.tan(x0)"), lambda g, x, y: g * (square(y) + 1.0))
# -(x*x - 1), not 1 - x*x: on the branch cuts (real |z| > 1, the imaginary part a signed
# zero, as np.emath makes) this zero imaginary part has the sign of -2 Re(z) Im(z), the
# side the value is on, so the derivative's square root is taken on that side too
# (1 - x*x gives +0 either way: on one side the derivative's imaginary part is negated).
arcsin_p = elementwise("arcsin", np.arcsin, _f("F.asin(x0)"),
                       lambda g, x, y: g / sqrt(-(square(x) - 1.0)))
arccos_p = elementwise("arccos", np.arccos, _f("F.acos(x0)"),
                       lambda g, x, y: -g / sqrt(-(square(x) - 1.0)))
arctan_p = elementwise("arctan", np.arctan, _f("F.atan(x0)"),
                       lambda g, x, y: g / (square(x) + 1.0))
sinh_p = elementwise("sinh", np.sinh, _f("F.sinh(x0)"), lambda g, x, y: g * cosh(x))
cosh_p = elementwise("cosh", np.cosh, _f("F.cosh(x0)"), lambda g, x, y: g * sinh(x))
tanh_p = elementwise("tanh", np.tanh, _f("F.tanh(x0)"), lambda g, x, y: g * (1.0 - square(y)))
arcsinh_p = elementwise("arcsinh", np.arcsinh, _f("F.asinh(x0)"),
                        lambda g, x, y: g / sqrt(square(x) + 1.0))
# sqrt(x-1)*sqrt(x+1) keeps precision near x = 1, where x*x - 1 cancels.
arccosh_p = elementwise("arccosh", np.arccosh, _f("F.acosh(x0)"),
                        lambda g, x, y: g / (sqrt(x - 1.0) * sqrt(x + 1.0)))
arctanh_p = elementwise("arctanh", np.arctanh, _f("F.atanh(x0)"),
                        lambda g, x, y: g / (1.0 - square(x)))
# The error function and the logistic sigmoid: NumPy has no ufunc, so the CPU kernel is
# generated from the definition (None).  expit is 1 / (1 + e**-x), written so that e**x
# never overflows (scipy.special.expit's values).
erf_p = elementwise("erf", None, _f("F.erf(x0)"),
                    lambda g, x, y: g * (exp(negative(square(x))) * TWO_OVER_SQRT_PI))
erfc_p = elementwise("erfc", None, _f("F.erfc(x0)"),
                     lambda g, x, y: g * (exp(negative(square(x))) * -TWO_OVER_SQRT_PI))
expit_p = elementwise("expit", None, {"f": """if x0 >= C(0):
    r = C(1) / (C(1) + F.exp(-x0))
else:
    e = F.exp(x0)
    r = e / (C(1) + e)"""}, lambda g, x, y: g * (y * (1.0 - y)), grad_fn_name="SigmoidBackward0")

# Piecewise constant: derivative zero almost everywhere.
# Round half to even, from floor (exact for every float; NaN and inf pass through); the
# sign copied from x0, so that -0.4 rounds to -0.0 as NumPy's (floor gives -1, then +0.0).
_RINT = """f = F.floor(x0)
d = x0 - f
if d > C(0.5):
    r = f + C(1)
elif d < C(0.5):
    r = f
elif F.fmod(f, C(2)) == C(0):
    r = f
else:
    r = f + C(1)
r = F.copysign(r, x0)"""
sign_p = elementwise("sign", np.sign, _SIGN, None, differentiable=False)
floor_p = elementwise("floor", np.floor, {"f": "r = F.floor(x0)", "i": "r = x0"}, None,
                      differentiable=False)
ceil_p = elementwise("ceil", np.ceil, {"f": "r = F.ceil(x0)", "i": "r = x0"}, None,
                     differentiable=False)
rint_p = elementwise("rint", np.rint, {"f": _RINT, "i": "r = x0"}, None, differentiable=False)
trunc_p = elementwise("trunc", np.trunc, {"f": "r = F.trunc(x0)", "i": "r = x0"}, None,
                      differentiable=False)

negative, abs, exp, exp2, expm1, log, log2, log10, log1p, sqrt, cbrt, square, reciprocal = map(  # noqa: A001
    _fn1, (negative_p, abs_p, exp_p, exp2_p, expm1_p, log_p, log2_p, log10_p, log1p_p, sqrt_p,
           cbrt_p, square_p, reciprocal_p))
sin, cos, tan, arcsin, arccos, arctan, sinh, cosh, tanh, arcsinh, arccosh, arctanh = map(
    _fn1, (sin_p, cos_p, tan_p, arcsin_p, arccos_p, arctan_p, sinh_p, cosh_p, tanh_p, arcsinh_p,
           arccosh_p, arctanh_p))
erf, erfc, expit = map(_fn1, (erf_p, erfc_p, expit_p))


def logistic(x):
    """``1 / (1 + exp(-x))`` for real or complex ``x`` (JAX's ``lax.logistic``, PyTorch's
    ``sigmoid``): the real kernel ``expit`` has no complex loop, and for complex ``x`` the
    same analytic function written with exp keeps a holomorphic derivative."""
    if getattr(x, "dtype", None) is not None and x.dtype.kind == "c":
        return reciprocal(add(exp(negative(x)), 1.0))
    return expit(x)
sign, floor, ceil, rint, trunc = map(_fn1, (sign_p, floor_p, ceil_p, rint_p, trunc_p))


# --- complex numbers ---------------------------------------------------------------------
# Every rule here is ``g`` times a factor, and the result is fitted to the destination's
# dtype, which takes the real part where that is real: so one rule gives the JVP (the
# R-linear map t -> Re(w t) or w t) and JAX's VJP (its transpose for the real pairing
# Re(sum(a * b))).  conj is the one rule that is not a product: conj is its own transpose.
# On real arrays the three are the identity, zero and the identity (their scalar
# definitions, for the real dtypes the generated kernels compute in).

def _real(x):
    x = np.asarray(x)
    return x.real.copy() if x.dtype.kind == "c" else x.copy()


def _imag(x):
    x = np.asarray(x)
    return x.imag.copy() if x.dtype.kind == "c" else np.zeros_like(x)


def _imag_lin(g, x, y):
    if getattr(x, "dtype", None) is not None and x.dtype.kind == "c":
        return g * -1j  # Im(t) = Re(-1j * t)
    return g * 0.0


real_p = elementwise("real", _real, "r = x0", identity, vjp_reads=SHAPES_ONLY,
                     grad_fn_name="RealBackward0")
imag_p = elementwise("imag", _imag, "r = C(0)", _imag_lin, vjp_reads=SHAPES_ONLY,
                     grad_fn_name="ImagBackward0")
conj_p = elementwise("conj", np.conjugate, "r = x0", lambda g, x, y: conj(g),
                     vjp_reads=SHAPES_ONLY, grad_fn_name="ConjBackward0")
real, imag, conj = map(_fn1, (real_p, imag_p, conj_p))


# --- binary ------------------------------------------------------------------------

def _weight_type(x, y):
    """The operands' scalar type: weights as Python floats would make ``where`` return
    float64 and widen float32 derivatives."""
    return np.result_type(getattr(x, "dtype", x), getattr(y, "dtype", y)).type


def _tie_weight(x, y):
    """1 where x wins, 0 where y wins, 1/2 on ties (each side gets half, as in JAX); 0
    where either is NaN."""
    t = _weight_type(x, y)
    # A NaN never reaches `greater`: a fused kernel's vectorised `>` raises the invalid
    # flag on one (NumPy's comparisons are quiet), which would warn in the backward pass.
    nan = logical_or(isnan(x), isnan(y))
    return where(equal(x, y), t(0.5),
                 where(greater(where(nan, t(0.0), x), where(nan, t(0.0), y)), t(1.0), t(0.0)))


def _first_weight(x, y, wins):
    """x's share of the derivative of fmax/fmin(x, y), ``wins`` where neither is NaN: a
    NaN operand is ignored, the other receives the whole derivative, and where both are
    NaN the result is x (x takes it all: one derivative, not two)."""
    t = _weight_type(x, y)
    return where(isnan(y), t(1.0), where(isnan(x), t(0.0), wins))


def _second_weight(x, y, wins):
    """y's share (see :func:`_first_weight`)."""
    t = _weight_type(x, y)
    return where(isnan(y), t(0.0), where(isnan(x), t(1.0), wins))


def _pow_lin_x(g, x, y, out):
    if isinstance(y, (int, float)) and not isinstance(y, bool):
        if y == 0:
            return g * 0.0
        if y == 1:
            return g
        if y == 2:
            return _scaled(g, 2.0, x)
        return _scaled(g, float(y), power(x, y - 1))
    # y * x**(y-1), with 0 where y == 0 (x**-1 would be inf at x == 0).
    return g * where(equal(y, 0), 0.0, y * power(x, y - 1.0))


def _pow_lin_y(g, x, y, out):
    # log(x) * x**y, with log(0) replaced by 0: the y-derivative at x == 0 is 0.
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        # A Python base stays a Python float (where() would make a float64 scalar).
        log_x = 0.0 if x == 0 else math.log(x) if x > 0 else math.nan
        return g * (log_x * out)
    return g * (log(_nonzero(x)) * out)


def _arctan2_denominator(x, y):
    return square(x) + square(y)


# NaN propagates (maximum/minimum) or is ignored (fmax/fmin); on ties the second operand
# is returned, as NumPy's SIMD loops do.
_MAXIMUM = "r = x0 if (x0 != x0 or x0 > x1) else x1"
_MINIMUM = "r = x0 if (x0 != x0 or x0 < x1) else x1"
_FMAX = "r = x0 if (x1 != x1 or x0 > x1) else x1"
_FMIN = "r = x0 if (x1 != x1 or x0 < x1) else x1"

# NumPy's npy_logaddexp: exact when x0 == x1 (inf included), log1p for the rest.
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
# Python's and NumPy's modulo: the result takes the divisor's sign (a zero result too).
_MOD = {"f": """if x1 == C(0):
    r = F.fmod(x0, x1)
else:
    m = F.fmod(x0, x1)
    if m != C(0):
        if (x1 < C(0)) != (m < C(0)):
            m = m + x1
    else:
        m = F.copysign(C(0), x1)
    r = m""", "i": """if x1 == C(0):
    r = C(0)
else:
    r = x0 % x1"""}
# Integer power by squaring; NumPy raises for a negative exponent, which a kernel cannot:
# it truncates 1/x**-e (only the GPU computes integer powers with it).
_POWER = {"f": "r = F.pow(x0, x1)", "i": """b = x0
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
        e = e // C(2)"""}

add_p = elementwise("add", cpu.add, "r = x0 + x1", identity, identity, linear=True,
                    vjp_reads=SHAPES_ONLY)
subtract_p = elementwise("subtract", cpu.subtract, "r = x0 - x1", identity, negated,
                         linear=True, vjp_reads=SHAPES_ONLY, grad_fn_name="SubBackward0")
multiply_p = elementwise("multiply", cpu.multiply, "r = x0 * x1", times_second, times_first,
                         grad_fn_name="MulBackward0")
# The divisor's rule recomputes x / y (the output's very bits) instead of reading the
# output, so that it reads only the inputs, as PyTorch's DivBackward0 saves them: the
# output of a division may then be updated in place before a backward pass.
divide_p = elementwise("divide", np.divide, _f("x0 / x1"), lambda g, x, y, out: g / y,
                       lambda g, x, y, out: -g * (x / y) / y, grad_fn_name="DivBackward0")
def _pow_grad_fn_name(node):
    """PyTorch's: PowBackward0 for a number exponent, 2 for a number base, else 1."""
    base, exponent = node.args
    return ("PowBackward0" if isinstance(exponent, (int, float)) else
            "PowBackward2" if isinstance(base, (int, float)) else "PowBackward1")


power_p = elementwise("power", np.power, _POWER, _pow_lin_x, _pow_lin_y,
                      grad_fn_name=_pow_grad_fn_name, saved_names={1: "exponent"})
maximum_p = elementwise("maximum", np.maximum, _MAXIMUM,
                        lambda g, x, y, out: g * _tie_weight(x, y),
                        lambda g, x, y, out: g * _tie_weight(y, x))
minimum_p = elementwise("minimum", np.minimum, _MINIMUM,
                        lambda g, x, y, out: g * _tie_weight(y, x),
                        lambda g, x, y, out: g * _tie_weight(x, y))
fmax_p = elementwise("fmax", np.fmax, _FMAX,
                     lambda g, x, y, out: g * _first_weight(x, y, _tie_weight(x, y)),
                     lambda g, x, y, out: g * _second_weight(x, y, _tie_weight(y, x)))
fmin_p = elementwise("fmin", np.fmin, _FMIN,
                     lambda g, x, y, out: g * _first_weight(x, y, _tie_weight(y, x)),
                     lambda g, x, y, out: g * _second_weight(x, y, _tie_weight(x, y)))
arctan2_p = elementwise("arctan2", np.arctan2, _f("F.atan2(x0, x1)"),
                        lambda g, x, y, out: g * y / _arctan2_denominator(x, y),
                        lambda g, x, y, out: -g * x / _arctan2_denominator(x, y))
# At (0, 0), where hypot has a kink, the derivative is 0 (as abs's at 0), not 0 / 0.
hypot_p = elementwise("hypot", np.hypot, _f("F.hypot(x0, x1)"),
                      lambda g, x, y, out: g * x / _nonzero(out),
                      lambda g, x, y, out: g * y / _nonzero(out))
logaddexp_p = elementwise("logaddexp", np.logaddexp, {"f": _LOGADDEXP},
                          lambda g, x, y, out: g * exp(x - out),
                          lambda g, x, y, out: g * exp(y - out))
logaddexp2_p = elementwise("logaddexp2", np.logaddexp2, {"f": _LOGADDEXP2},
                           lambda g, x, y, out: g * exp2(x - out),
                           lambda g, x, y, out: g * exp2(y - out))
# x mod y = x - floor(x / y) * y
mod_p = elementwise("mod", np.mod, _MOD,
                    identity, lambda g, x, y, out: -g * floor(x / y))
# NumPy's floor division: from the remainder, not floor(x0 / x1), whose rounding can cross
# an integer (1.0 // 0.1 is 9.0); integers stay integers.  Piecewise constant.
_FLOOR_DIVIDE = {"f": """if x1 == C(0):
    r = x0 / x1
else:
    m = F.fmod(x0, x1)
    d = (x0 - m) / x1
    if m != C(0):
        if (x1 < C(0)) != (m < C(0)):
            d = d - C(1)
    if d != C(0):
        q = F.floor(d)
        if d - q > C(0.5):
            q = q + C(1)
        r = q
    else:
        r = F.copysign(C(0), x0 / x1)""", "i": """if x1 == C(0):
    r = C(0)
else:
    r = x0 // x1"""}
floor_divide_p = elementwise("floor_divide", np.floor_divide, _FLOOR_DIVIDE, None, None,
                             differentiable=False)

add, subtract, multiply, divide, power, maximum, minimum, fmax, fmin = map(
    _fn2, (add_p, subtract_p, multiply_p, divide_p, power_p, maximum_p, minimum_p, fmax_p, fmin_p))
arctan2, hypot, logaddexp, logaddexp2, mod = map(
    _fn2, (arctan2_p, hypot_p, logaddexp_p, logaddexp2_p, mod_p))


# --- comparisons and logic: boolean results, no derivative ---------------------------

def _predicate(name, numpy_ufunc, float_test, other_kinds):
    return elementwise(name, numpy_ufunc, {"f": "r = " + float_test, "i": "r = " + other_kinds,
                                           "b": "r = " + other_kinds},
                       None, compute="predicate", differentiable=False)


def _comparison(name, numpy_ufunc, operator):
    return elementwise(name, numpy_ufunc, f"r = x0 {operator} x1", None, None,
                       compute="compare", differentiable=False)


def _logical(name, numpy_ufunc, definition, arity=2):
    return elementwise(name, numpy_ufunc, definition, *[None] * arity, compute="logic",
                       differentiable=False)


equal_p = _comparison("equal", np.equal, "==")
not_equal_p = _comparison("not_equal", np.not_equal, "!=")
less_p = _comparison("less", np.less, "<")
less_equal_p = _comparison("less_equal", np.less_equal, "<=")
greater_p = _comparison("greater", np.greater, ">")
greater_equal_p = _comparison("greater_equal", np.greater_equal, ">=")
logical_and_p = _logical("logical_and", np.logical_and, "r = x0 and x1")
logical_or_p = _logical("logical_or", np.logical_or, "r = x0 or x1")
logical_xor_p = _logical("logical_xor", np.logical_xor, "r = x0 != x1")
logical_not_p = _logical("logical_not", np.logical_not, "r = not x0", arity=1)
isnan_p = _predicate("isnan", np.isnan, "x0 != x0", "False")
isinf_p = _predicate("isinf", np.isinf, "F.isinf(x0)", "False")
isfinite_p = _predicate("isfinite", np.isfinite, "F.isfinite(x0)", "True")

equal, not_equal, less, less_equal, greater, greater_equal = map(
    _fn2, (equal_p, not_equal_p, less_p, less_equal_p, greater_p, greater_equal_p))
logical_and, logical_or, logical_xor = map(_fn2, (logical_and_p, logical_or_p, logical_xor_p))
logical_not, isnan, isinf, isfinite = map(_fn1, (logical_not_p, isnan_p, isinf_p, isfinite_p))


# --- bits and integers: integer or boolean results, no derivative ---------------------
# Integer and boolean operands only: NumPy has no float loops, so there is no float
# definition, and a float operand raises a TypeError naming the cast.  The generated
# kernels compute narrow integers in 64 bits (Numba's promotion, as C's) and round the
# result to the output dtype, as NumPy's loops do.

def _integer(name, numpy_ufunc, definition, arity=2):
    prim = elementwise(name, numpy_ufunc, definition, *[None] * arity, differentiable=False)
    # NumPy's TypeError for a float operand names its loops, not the fix
    prim.impl = _naming_the_fix(name, prim.impl)
    prim.abstract_eval = _naming_the_fix(name, prim.abstract_eval)
    return prim


def _naming_the_fix(name, compute):
    def checked(*args, **params):
        try:
            return compute(*args, **params)
        except TypeError:
            given = ", ".join(str(getattr(a, "dtype", type(a).__name__)) for a in args)
            raise TypeError(f"{name} takes integer or boolean arrays (it works on their "
                            f"bits: no derivative), not {given}; cast first "
                            f"(x.astype(np.int64)), or make a mask with a comparison "
                            f"(x > 0)") from None
    return checked


# NumPy shifts by a count outside [0, 64) to all zeros, or all ones for a negative x0 >>
# (C's shift would be undefined there); counts in [width, 64) of narrower integers
# overflow the 64-bit computation the same way.  (~C(0) is all ones: C(-1) has no
# unsigned value.)
_LEFT_SHIFT = {"i": """if x1 < C(0) or x1 >= C(64):
    r = C(0)
else:
    r = x0 << x1"""}
_RIGHT_SHIFT = {"i": """if x1 < C(0) or x1 >= C(64):
    r = ~C(0) if x0 < C(0) else C(0)
else:
    r = x0 >> x1"""}
# Euclid's algorithm with Python's (floored) remainder: |a % b| < |b|, so it ends for
# every sign; the sign goes at the end.  NumPy's lcm is |x0| / gcd * |x1|, overflowing
# (in the operands' dtype) as that product does.
_EUCLID = """a = x0
b = x1
while b != C(0):
    t = a % b
    a = b
    b = t
"""
_GCD = {"i": _EUCLID + "r = abs(a)"}
_LCM = {"i": _EUCLID + """if a == C(0):
    r = C(0)
else:
    r = abs(x0 // a) * abs(x1)"""}

bitwise_and_p = _integer("bitwise_and", np.bitwise_and, {"i": "r = x0 & x1", "b": "r = x0 & x1"})
bitwise_or_p = _integer("bitwise_or", np.bitwise_or, {"i": "r = x0 | x1", "b": "r = x0 | x1"})
bitwise_xor_p = _integer("bitwise_xor", np.bitwise_xor, {"i": "r = x0 ^ x1", "b": "r = x0 != x1"})
invert_p = _integer("invert", np.invert, {"i": "r = ~x0", "b": "r = not x0"}, arity=1)
left_shift_p = _integer("left_shift", np.left_shift, _LEFT_SHIFT)
right_shift_p = _integer("right_shift", np.right_shift, _RIGHT_SHIFT)
gcd_p = _integer("gcd", np.gcd, _GCD)
lcm_p = _integer("lcm", np.lcm, _LCM)

bitwise_and, bitwise_or, bitwise_xor, left_shift, right_shift, gcd, lcm = map(
    _fn2, (bitwise_and_p, bitwise_or_p, bitwise_xor_p, left_shift_p, right_shift_p, gcd_p, lcm_p))
invert = _fn1(invert_p)


# --- ternary -------------------------------------------------------------------------

# The untaken branch receives an exact zero cotangent.  A NaN can still come
# from *inside* a branch (sqrt'(x) at x < 0 times that zero): guard the input
# too, the "double where" idiom:  where(x > 0, sqrt(where(x > 0, x, 1)), 0).
where_p = elementwise("where", np.where, "r = x1 if x0 else x2", None,
                      lambda g, c, x, y, out: where(c, g, 0.0),
                      lambda g, c, x, y, out: where(c, 0.0, g), compute="select")
# np.clip: minimum(maximum(x, lo), hi), NaN propagating
clip_p = elementwise("clip", np.clip, """m = x0 if (x0 != x0 or x0 > x1) else x1
r = m if (m != m or m < x2) else x2""",
                     lambda g, x, lo, hi, out: where(logical_and(greater_equal(x, lo),
                                                                 less_equal(x, hi)), g, 0.0),
                     # lo above hi: the value is hi everywhere, so hi takes the derivative
                     lambda g, x, lo, hi, out: where(logical_and(less(x, lo), less_equal(lo, hi)),
                                                     g, 0.0),
                     lambda g, x, lo, hi, out: where(logical_or(greater(x, hi), greater(lo, hi)),
                                                     g, 0.0),
                     grad_fn_name="ClampBackward1")


def where(cond, x, y):
    """Elementwise ``x if cond else y`` (a funcgrad primitive)."""
    return _state.interpreter.process(where_p, (cond, x, y), _EMPTY)


def clip(x, lo, hi):
    """Elementwise ``min(max(x, lo), hi)`` (a funcgrad primitive)."""
    return _state.interpreter.process(clip_p, (x, lo, hi), _EMPTY)
