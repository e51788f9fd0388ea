"""CPU kernels: every piece of CPU arithmetic funcgrad runs goes through here.

Today these are NumPy's own ufuncs and routines; Numba kernels replace them
where they are faster (fused rule kernels, reductions, scatter-add).  Inputs
are validated by the primitives before they get here.
"""
import numpy as np

# Elementwise ufuncs: broadcasting, dtype and out= behave like NumPy's.
negative = np.negative
abs = np.abs  # noqa: A001 - the kernel is named after the primitive
sign = np.sign
exp = np.exp
exp2 = np.exp2
expm1 = np.expm1
log = np.log
log2 = np.log2
log10 = np.log10
log1p = np.log1p
sqrt = np.sqrt
cbrt = np.cbrt
square = np.square
reciprocal = np.reciprocal
sin = np.sin
cos = np.cos
tan = np.tan
arcsin = np.arcsin
arccos = np.arccos
arctan = np.arctan
sinh = np.sinh
cosh = np.cosh
tanh = np.tanh
arcsinh = np.arcsinh
arccosh = np.arccosh
arctanh = np.arctanh
floor = np.floor
ceil = np.ceil
rint = np.rint
trunc = np.trunc
add = np.add
subtract = np.subtract
multiply = np.multiply
divide = np.divide
power = np.power
maximum = np.maximum
minimum = np.minimum
fmax = np.fmax
fmin = np.fmin
arctan2 = np.arctan2
hypot = np.hypot
logaddexp = np.logaddexp
logaddexp2 = np.logaddexp2
mod = np.mod
clip = np.clip
where = np.where
equal = np.equal
not_equal = np.not_equal
less = np.less
less_equal = np.less_equal
greater = np.greater
greater_equal = np.greater_equal
logical_and = np.logical_and
logical_or = np.logical_or
logical_xor = np.logical_xor
logical_not = np.logical_not
isnan = np.isnan
isinf = np.isinf
isfinite = np.isfinite


# --- first-order VJP kernels of unary elementwise primitives ---------------------------
# ``<name>_vjp(g, x, y)`` is the cotangent of ``x`` given the cotangent ``g`` of
# ``y = <name>(x)``, for plain arrays of one shape and dtype.  They are the fast path of
# first-order reverse mode; the differentiable rule in funcgrad.primitives is used
# otherwise (and is what these must agree with).  Each computes in place into one
# temporary instead of the rule's several.

def _scaled(g, d):
    return np.multiply(g, d, out=d)


def negative_vjp(g, x, y):
    return np.negative(g)


def abs_vjp(g, x, y):
    return _scaled(g, np.sign(x))


def exp_vjp(g, x, y):
    return np.multiply(g, y)


def exp2_vjp(g, x, y):
    d = np.multiply(g, y)
    return np.multiply(d, 0.6931471805599453, out=d)


def expm1_vjp(g, x, y):
    return _scaled(g, np.add(y, 1.0))


def log_vjp(g, x, y):
    return np.divide(g, x)


def log2_vjp(g, x, y):
    return np.divide(g, np.multiply(x, 0.6931471805599453))


def log10_vjp(g, x, y):
    return np.divide(g, np.multiply(x, 2.302585092994046))


def log1p_vjp(g, x, y):
    d = np.add(x, 1.0)
    return np.divide(g, d, out=d)


def sqrt_vjp(g, x, y):
    d = np.multiply(y, 2.0)
    return np.divide(g, d, out=d)


def cbrt_vjp(g, x, y):
    d = np.square(y)
    np.multiply(d, 3.0, out=d)
    return np.divide(g, d, out=d)


def square_vjp(g, x, y):
    return _scaled(g, np.multiply(x, 2.0))


def reciprocal_vjp(g, x, y):
    d = np.square(y)
    np.negative(d, out=d)
    return _scaled(g, d)


def sin_vjp(g, x, y):
    return _scaled(g, np.cos(x))


def cos_vjp(g, x, y):
    d = np.sin(x)
    np.negative(d, out=d)
    return _scaled(g, d)


def tan_vjp(g, x, y):
    d = np.square(y)
    np.add(d, 1.0, out=d)
    return _scaled(g, d)


def tanh_vjp(g, x, y):
    d = np.square(y)
    np.subtract(1.0, d, out=d)
    return _scaled(g, d)


def sinh_vjp(g, x, y):
    return _scaled(g, np.cosh(x))


def cosh_vjp(g, x, y):
    return _scaled(g, np.sinh(x))


def arctan_vjp(g, x, y):
    d = np.square(x)
    np.add(d, 1.0, out=d)
    return np.divide(g, d, out=d)
