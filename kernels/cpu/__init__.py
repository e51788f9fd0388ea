"""CPU kernels: every piece of CPU arithmetic funcgrad runs goes through here.

Each name is NumPy's own ufunc or routine where that is already as fast as anything
Numba builds (measured: ``benchmarks/kernels.py``), and a dispatching wrapper where a
Numba kernel wins on large float arrays:

* ``elementwise``: float64 ``sin``/``cos`` (vectorised polynomials, ~6x NumPy's);
* ``fused``: the first-order rule kernels ``<name>_vjp``, ``<name>_vjp_x``/``_vjp_y``,
  one pass each where the NumPy expression makes temporaries;
* ``reductions``: ``logsumexp`` and its VJP, the max/min VJP (ties share);
* ``rows``: ``add``/``subtract``/``multiply`` on row-broadcast or strided 2-d float
  arrays (a row loop, ~2x NumPy's iterator there);
* ``scatter``: ``index_add`` (scatter-add, repeated indices accumulate), replacing the
  slow cases of ``np.add.at``.

Numba kernels are declared in ``_lazy`` and built on first use per dtype, cached on disk;
importing this package imports neither Numba nor any kernel.  Elementwise kernels are
NumPy ufuncs with Numba inner loops (``_ufuncs``), used at every size from one element
(one ufunc call costs less than the two or more NumPy calls it replaces); 0-d inputs and
other dtypes take the NumPy expression.  The row, reduction and scatter loops start at
``config.numba_min`` elements.  The wrappers validate shapes, dtypes, layouts and
indices before any compiled loop runs.
"""
import numpy as np

from . import _lazy
from ._lazy import config, get_num_threads, set_num_threads  # noqa: F401

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



# --- Numba-backed kernels -------------------------------------------------------------------
# name of the scalar function in _scalar: number of inputs
_NUMBA_KERNELS = {
    "sin": 1, "cos": 1,
    "abs_vjp": 2, "exp2_vjp": 2, "expm1_vjp": 2, "log2_vjp": 2, "log10_vjp": 2,
    "log1p_vjp": 2, "sqrt_vjp": 2, "cbrt_vjp": 2, "square_vjp": 2, "reciprocal_vjp": 2,
    "sin_vjp": 2, "cos_vjp": 2, "tan_vjp": 2, "arcsin_vjp": 2, "arccos_vjp": 2,
    "arctan_vjp": 2, "tanh_vjp": 2, "arcsinh_vjp": 2, "arccosh_vjp": 2, "arctanh_vjp": 2,
    "tie_vjp": 3, "fmax_tie_vjp": 3, "divide_vjp_y": 3,
    "arctan2_vjp_x": 3, "arctan2_vjp_y": 3, "scaled_ratio": 3, "exp_diff_vjp": 3,
    "exp2_diff_vjp": 3, "mod_vjp_y": 3, "clip_vjp_x": 4,
}
# The vectorised sin/cos kernels: the C-library function that takes over where their
# argument (this input) is out of the vectorised range, and which input that is.
_EXACT = {"sin": ("sin_exact", 0), "cos": ("cos_exact", 0),
          "sin_vjp": ("sin_vjp_exact", 1), "cos_vjp": ("cos_vjp_exact", 1)}
for _name, _nin in _NUMBA_KERNELS.items():
    _exact, _arg = _EXACT.get(_name, (None, 0))
    _lazy.declare(_name, "_scalar", nin=_nin, exact=_exact, checked_arg=_arg)

from .elementwise import cos, forward, install, sin  # noqa: E402,F811,F401
from .fused import (  # noqa: E402,F401
    abs_vjp, arccos_vjp, arccosh_vjp, arcsin_vjp, arcsinh_vjp, arctan2_vjp_x, arctan2_vjp_y,
    arctan_vjp, arctanh_vjp, cbrt_vjp, clip_vjp_x, cos_vjp, cosh_vjp, divide_vjp_y,
    exp2_vjp, exp_vjp, expm1_vjp, fmax_vjp_x, fmax_vjp_y, fmin_vjp_x, fmin_vjp_y,
    hypot_vjp_x, hypot_vjp_y, log10_vjp, log1p_vjp, log2_vjp, log_vjp, logaddexp2_vjp_x,
    logaddexp2_vjp_y, logaddexp_vjp_x, logaddexp_vjp_y, maximum_vjp_x, maximum_vjp_y,
    minimum_vjp_x, minimum_vjp_y, mod_vjp_y, negative_vjp, power_vjp_x, reciprocal_vjp,
    sin_vjp, sinh_vjp, sqrt_vjp, square_vjp, tan_vjp, tanh_vjp)
from .reductions import extremum_vjp, logsumexp, logsumexp_vjp  # noqa: E402,F401
from .scatter import index_add  # noqa: E402,F401
from .rows import add, add_window, multiply, subtract  # noqa: E402,F401
