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
