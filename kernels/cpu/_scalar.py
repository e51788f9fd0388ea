"""Scalar definitions of funcgrad's elementwise Numba kernels (imported only when one is
first built; see ``_lazy``).  Each is compiled on demand, per dtype, into the inner loop
of a NumPy ufunc (``_ufuncs``) and into a flat (optionally parallel) loop (``_loops``).

Rule kernels compute exactly the expression of the primitive's differentiable rule in
``funcgrad/primitives`` (same operations in the same order, so in float64 the results are
bitwise equal to the NumPy expression except where a vectorised ``sin``/``cos``/``exp``
from ``_vmath`` replaces the C library's, which is within 2 ulp).  The kernel name says
which argument's cotangent it gives: ``tanh_vjp(g, y)`` is ``g * d tanh / dx`` written
with the output ``y``.
"""
import math

import numpy as np
from numba.extending import register_jitable

from ._vmath import cos_core, exp_v, sin_core

LN2 = math.log(2.0)
LN10 = math.log(10.0)


# --- forward values ---------------------------------------------------------------------------

def sin(x):
    return sin_core(x)


def cos(x):
    return cos_core(x)


# The C library's, for the arguments the vectorised forms cannot reduce (|x| > 1e8, inf,
# NaN): exact everywhere, one element at a time (see ``_ufuncs.inner_loop``).

def sin_exact(x):
    return math.sin(x)


def cos_exact(x):
    return math.cos(x)


def sin_vjp_exact(g, x):
    return g * math.cos(x)


def cos_vjp_exact(g, x):
    return g * -math.sin(x)


# --- first-order VJPs of unary primitives: g times the derivative ------------------------------

def abs_vjp(g, x):
    # g * sign(x); sign(nan) is nan, sign(0) is 0
    s = 1.0 if x > 0 else (-1.0 if x < 0 else (x if x != x else 0.0))
    return g * s


def exp2_vjp(g, y):
    return g * y * LN2


def expm1_vjp(g, y):
    return g * (y + 1.0)


def log2_vjp(g, x):
    return g / (x * LN2)


def log10_vjp(g, x):
    return g / (x * LN10)


def log1p_vjp(g, x):
    return g / (x + 1.0)


def sqrt_vjp(g, y):
    return g / (y * 2.0)


def cbrt_vjp(g, y):
    return g / (y * y * 3.0)


def square_vjp(g, x):
    return g * (x * 2.0)


def reciprocal_vjp(g, y):
    return g * -(y * y)


def sin_vjp(g, x):
    return g * cos_core(x)


def cos_vjp(g, x):
    return g * -sin_core(x)


def tan_vjp(g, y):
    return g * (y * y + 1.0)


def arcsin_vjp(g, x):
    return g / math.sqrt(1.0 - x * x)


def arccos_vjp(g, x):
    return -g / math.sqrt(1.0 - x * x)


def arctan_vjp(g, x):
    return g / (x * x + 1.0)


def tanh_vjp(g, y):
    return g * (1.0 - y * y)


def arcsinh_vjp(g, x):
    return g / math.sqrt(x * x + 1.0)


def arccosh_vjp(g, x):
    return g / (math.sqrt(x - 1.0) * math.sqrt(x + 1.0))


def arctanh_vjp(g, x):
    return g / (1.0 - x * x)


# --- first-order VJPs of binary primitives --------------------------------------------------------

@register_jitable
def _tie(a, b):
    # 1 where a wins, 0 where b wins, 1/2 on ties (NaN: 0)
    return 0.5 if a == b else (1.0 if a > b else 0.0)


@register_jitable
def _fmax_tie(a, b):
    # fmax ignores a NaN operand: the other one receives the whole derivative
    return 1.0 if b != b else (0.0 if a != a else _tie(a, b))


def tie_vjp(g, a, b):
    """g * [a wins over b] (maximum: (g, x, y) for x, (g, y, x) for y; minimum swapped)."""
    return g * _tie(a, b)


def fmax_tie_vjp(g, a, b):
    return g * _fmax_tie(a, b)


def divide_vjp_y(g, out, y):
    return -g * out / y


def arctan2_vjp_x(g, x, y):
    return g * y / (x * x + y * y)


def arctan2_vjp_y(g, x, y):
    return -g * x / (x * x + y * y)


def scaled_ratio(g, a, b):
    """g * a / b (hypot: a = x or y, b = out)."""
    return g * a / b


def exp_diff_vjp(g, a, b):
    """g * exp(a - b) (logaddexp: a = x or y, b = out)."""
    return g * exp_v(a - b)


def exp2_diff_vjp(g, a, b):
    """g * 2**(a - b) (logaddexp2)."""
    return g * exp_v((a - b) * LN2)


def mod_vjp_y(g, x, y):
    return -g * np.floor(x / y)


def clip_vjp_x(g, x, lo, hi):
    return g if (x >= lo and x <= hi) else 0.0
