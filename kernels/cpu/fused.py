"""Fused first-order rule kernels: one pass where the NumPy expression makes temporaries.

``<name>_vjp(g, x, y)`` is the cotangent of ``x`` for a unary primitive ``y = <name>(x)``;
``<name>_vjp_x(g, x, y, out)`` / ``<name>_vjp_y(g, x, y, out)`` those of a binary one.
They are the first-order fast path of reverse mode (``funcgrad.primitives.elementwise``
calls them on plain arrays only); the differentiable rules next to each primitive are the
ground truth, used for higher order, and these compute the same expression.

Dispatch (see ``_lazy``): float32/float64 arrays of one dtype (at least 1-d, at least
``config.ufunc_min`` elements) run the Numba kernel, through its ufunc when small, its
flat loop when large; anything else (0-d arrays, other or mixed dtypes) runs the NumPy
expression below it, with at most one temporary.  Rules that need NumPy's own ``sinh``, ``cosh``, ``exp`` or ``log``
(vectorised by NumPy, called one element at a time by Numba) stay NumPy-only.
"""
import numpy as np

from ._lazy import F32, F64, config, run, ufunc

LN2 = 0.6931471805599453
LN10 = 2.302585092994046


def _float_dtype(*arrays):
    """The shared float32/float64 dtype of ``arrays``, or None (then NumPy does it)."""
    dt = arrays[0].dtype
    if dt is not F64 and dt is not F32:
        return None
    for a in arrays[1:]:
        if a.dtype is not dt:
            return None
    return dt


def _kernel(name):
    """``call(dt, n, *args)``: kernel ``name`` on ``args`` (``n`` elements), through its
    ufunc when small (kept here per dtype: one call less per use) or ``run`` when large."""
    built = {}

    def call(dt, n, *args):
        if n < config.numba_min:
            u = built.get(dt)
            if u is None:
                u = built[dt] = ufunc(name, dt)
            return u(*args)
        return run(name, dt, *args)
    return call


def _unary(name, uses_output, numpy_rule):
    """A rule kernel ``f(g, x, y)`` computing ``name`` on ``(g, y)`` or ``(g, x)``."""
    call = _kernel(name)

    def kernel(g, x, y):
        v = y if uses_output else x
        if v.ndim and v.size >= config.ufunc_min:
            dt = v.dtype
            if (dt is F64 or dt is F32) and g.dtype is dt:
                return call(dt, v.size, g, v)
        if not x.ndim:
            return _numpy_0d(numpy_rule, g, x, y)
        return numpy_rule(g, x, y)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = numpy_rule.__doc__
    return kernel


def _scaled(g, d):
    return np.multiply(g, d, out=d)


def _numpy_0d(numpy_rule, g, x, y):
    """The NumPy forms compute in place into a temporary; for 0-d inputs (whose ufunc
    results are scalars) they run on 1-element arrays instead."""
    one = (1,)
    return numpy_rule(np.reshape(g, one), np.reshape(x, one), np.reshape(y, one)).reshape(())


# --- unary: NumPy forms (the small-array path; one temporary each) --------------------------------

def negative_vjp(g, x, y):
    """-g"""
    return np.negative(g)


def exp_vjp(g, x, y):
    """g * y"""
    return np.multiply(g, y)


def log_vjp(g, x, y):
    """g / x"""
    return np.divide(g, x)


def _abs(g, x, y):
    """g * sign(x)"""
    return _scaled(g, np.sign(x))


def _exp2(g, x, y):
    """g * y * ln 2"""
    d = np.multiply(g, y)
    return np.multiply(d, LN2, out=d)


def _expm1(g, x, y):
    """g * (y + 1)"""
    return _scaled(g, np.add(y, 1.0))


def _log2(g, x, y):
    """g / (x ln 2)"""
    d = np.multiply(x, LN2)
    return np.divide(g, d, out=d)


def _log10(g, x, y):
    """g / (x ln 10)"""
    d = np.multiply(x, LN10)
    return np.divide(g, d, out=d)


def _log1p(g, x, y):
    """g / (x + 1)"""
    d = np.add(x, 1.0)
    return np.divide(g, d, out=d)


def _sqrt(g, x, y):
    """g / (2 y)"""
    d = np.multiply(y, 2.0)
    return np.divide(g, d, out=d)


def _cbrt(g, x, y):
    """g / (3 y^2)"""
    d = np.square(y)
    np.multiply(d, 3.0, out=d)
    return np.divide(g, d, out=d)


def _square(g, x, y):
    """g * 2x"""
    return _scaled(g, np.multiply(x, 2.0))


def _reciprocal(g, x, y):
    """-g y^2"""
    d = np.square(y)
    np.negative(d, out=d)
    return _scaled(g, d)


def _sin(g, x, y):
    """g cos(x)"""
    return _scaled(g, np.cos(x))


def _cos(g, x, y):
    """-g sin(x)"""
    d = np.sin(x)
    np.negative(d, out=d)
    return _scaled(g, d)


def _tan(g, x, y):
    """g (1 + y^2)"""
    d = np.square(y)
    np.add(d, 1.0, out=d)
    return _scaled(g, d)


def _arcsin(g, x, y):
    """g / sqrt(1 - x^2)"""
    d = np.square(x)
    np.subtract(1.0, d, out=d)
    np.sqrt(d, out=d)
    return np.divide(g, d, out=d)


def _arccos(g, x, y):
    """-g / sqrt(1 - x^2)"""
    d = np.square(x)
    np.subtract(1.0, d, out=d)
    np.sqrt(d, out=d)
    np.divide(g, d, out=d)
    return np.negative(d, out=d)


def _arctan(g, x, y):
    """g / (1 + x^2)"""
    d = np.square(x)
    np.add(d, 1.0, out=d)
    return np.divide(g, d, out=d)


def sinh_vjp(g, x, y):
    """g cosh(x)"""
    return _scaled(g, np.cosh(x))


def cosh_vjp(g, x, y):
    """g sinh(x)"""
    return _scaled(g, np.sinh(x))


def _tanh(g, x, y):
    """g (1 - y^2)"""
    d = np.square(y)
    np.subtract(1.0, d, out=d)
    return _scaled(g, d)


def _arcsinh(g, x, y):
    """g / sqrt(x^2 + 1)"""
    d = np.square(x)
    np.add(d, 1.0, out=d)
    np.sqrt(d, out=d)
    return np.divide(g, d, out=d)


def _arccosh(g, x, y):
    """g / (sqrt(x - 1) sqrt(x + 1))"""
    d = np.subtract(x, 1.0)
    np.sqrt(d, out=d)
    e = np.add(x, 1.0)
    np.sqrt(e, out=e)
    np.multiply(d, e, out=d)
    return np.divide(g, d, out=d)


def _arctanh(g, x, y):
    """g / (1 - x^2)"""
    d = np.square(x)
    np.subtract(1.0, d, out=d)
    return np.divide(g, d, out=d)


abs_vjp = _unary("abs_vjp", False, _abs)
exp2_vjp = _unary("exp2_vjp", True, _exp2)
expm1_vjp = _unary("expm1_vjp", True, _expm1)
log2_vjp = _unary("log2_vjp", False, _log2)
log10_vjp = _unary("log10_vjp", False, _log10)
log1p_vjp = _unary("log1p_vjp", False, _log1p)
sqrt_vjp = _unary("sqrt_vjp", True, _sqrt)
cbrt_vjp = _unary("cbrt_vjp", True, _cbrt)
square_vjp = _unary("square_vjp", False, _square)
reciprocal_vjp = _unary("reciprocal_vjp", True, _reciprocal)
tan_vjp = _unary("tan_vjp", True, _tan)
arcsin_vjp = _unary("arcsin_vjp", False, _arcsin)
arccos_vjp = _unary("arccos_vjp", False, _arccos)
arctan_vjp = _unary("arctan_vjp", False, _arctan)
tanh_vjp = _unary("tanh_vjp", True, _tanh)
arcsinh_vjp = _unary("arcsinh_vjp", False, _arcsinh)
arccosh_vjp = _unary("arccosh_vjp", False, _arccosh)
arctanh_vjp = _unary("arctanh_vjp", False, _arctanh)


sin_vjp = _unary("sin_vjp", False, _sin)
cos_vjp = _unary("cos_vjp", False, _cos)


# --- binary: x- and y-cotangents -------------------------------------------------------------------
# Called only with ``g`` and the differentiated operand plain arrays of one shape; the other
# operand may be an array (any broadcastable shape) or a Python scalar.

def _binary_dtype(g, a, b):
    """Shared float dtype of g, a (arrays of one shape) and b (array or scalar), or None."""
    dt = a.dtype
    if (dt is not F64 and dt is not F32) or g.dtype is not dt or not g.ndim \
            or g.size < config.ufunc_min:
        return None
    if type(b) is np.ndarray:
        return dt if b.dtype is dt else None
    return dt if type(b) in (float, int) else None


def _as(dt, b):
    return b if type(b) is np.ndarray else dt.type(b)


_TIE, _FMAX_TIE, _SQUARE, _DIVIDE_Y, _MOD_Y, _CLIP_X = map(_kernel, (
    "tie_vjp", "fmax_tie_vjp", "square_vjp", "divide_vjp_y", "mod_vjp_y", "clip_vjp_x"))
_ARCTAN2_X, _ARCTAN2_Y = _kernel("arctan2_vjp_x"), _kernel("arctan2_vjp_y")


def _tie_numpy(a, b):
    w = np.where(np.greater(a, b), 1.0, 0.0)
    w[np.equal(a, b)] = 0.5
    return w


def _tie_rule(name_numba, first_is_x):
    on_x = name_numba.endswith("_x")

    def kernel(g, x, y, out):
        a, b = (x, y) if first_is_x else (y, x)
        dt = _binary_dtype(g, x, y) if on_x else _binary_dtype(g, y, x)
        if dt is not None:
            return _TIE(dt, g.size, g, _as(dt, a), _as(dt, b))
        return np.multiply(g, _tie_numpy(a, b))
    kernel.__name__ = kernel.__qualname__ = name_numba
    return kernel


# d max(x, y)/dx = [x wins over y]; d min(x, y)/dx = [y wins over x]: "wins" means larger
maximum_vjp_x = _tie_rule("maximum_vjp_x", True)
maximum_vjp_y = _tie_rule("maximum_vjp_y", False)
minimum_vjp_x = _tie_rule("minimum_vjp_x", False)
minimum_vjp_y = _tie_rule("minimum_vjp_y", True)


def _fmax_numpy(a, b):
    return np.where(np.isnan(b), 1.0, np.where(np.isnan(a), 0.0, _tie_numpy(a, b)))


def _fmax_rule(name, first_is_x):
    on_x = name.endswith("_x")

    def kernel(g, x, y, out):
        a, b = (x, y) if first_is_x else (y, x)
        dt = _binary_dtype(g, x, y) if on_x else _binary_dtype(g, y, x)
        if dt is not None:
            return _FMAX_TIE(dt, g.size, g, _as(dt, a), _as(dt, b))
        return np.multiply(g, _fmax_numpy(a, b))
    kernel.__name__ = kernel.__qualname__ = name
    return kernel


fmax_vjp_x = _fmax_rule("fmax_vjp_x", True)
fmax_vjp_y = _fmax_rule("fmax_vjp_y", False)
fmin_vjp_x = _fmax_rule("fmin_vjp_x", False)
fmin_vjp_y = _fmax_rule("fmin_vjp_y", True)


def divide_vjp_y(g, x, y, out):
    """-g * out / y"""
    dt = _binary_dtype(g, y, out)
    if dt is not None and type(out) is np.ndarray and out.shape == y.shape:
        return _DIVIDE_Y(dt, g.size, g, out, y)
    d = np.negative(g)
    np.multiply(d, out, out=d)
    return np.divide(d, y, out=d)


def power_vjp_x(g, x, y, out):
    """g * y * x**(y - 1), 0 where y == 0."""
    dt = _binary_dtype(g, x, y)
    if dt is not None:
        if type(y) is not np.ndarray and y == 2:
            return _SQUARE(dt, g.size, g, x)
        # Other exponents: Numba's pow is the C library's, one element at a time (~20 ns);
        # NumPy's power is vectorised, so it stays faster despite the temporaries.
    if type(y) is not np.ndarray:
        if y == 0:
            return np.multiply(g, 0.0)
        if y == 1:
            return g
        if y == 2:
            return _scaled(g, np.multiply(x, 2.0))
        d = np.power(x, y - 1)
        np.multiply(d, float(y), out=d)
        return _scaled(g, d)
    return np.multiply(g, np.where(np.equal(y, 0), 0.0, y * np.power(x, y - 1.0)))


def arctan2_vjp_x(g, x, y, out):
    """g * y / (x^2 + y^2)"""
    dt = _binary_dtype(g, x, y)
    if dt is not None:
        return _ARCTAN2_X(dt, g.size, g, x, _as(dt, y))
    return np.multiply(g, y) / (np.square(x) + np.square(y))


def arctan2_vjp_y(g, x, y, out):
    """-g * x / (x^2 + y^2)"""
    dt = _binary_dtype(g, y, x)
    if dt is not None:
        return _ARCTAN2_Y(dt, g.size, g, _as(dt, x), y)
    return np.multiply(np.negative(g), x) / (np.square(x) + np.square(y))


def _ratio_rule(name, first_is_x, numba_name, numpy_rule):
    call = _kernel(numba_name)

    def kernel(g, x, y, out):
        a = x if first_is_x else y
        dt = _binary_dtype(g, a, out)
        if dt is not None and type(out) is np.ndarray and out.shape == a.shape:
            return call(dt, g.size, g, a, out)
        return numpy_rule(g, a, out)
    kernel.__name__ = kernel.__qualname__ = name
    return kernel


def _hypot_numpy(g, a, out):
    return np.divide(np.multiply(g, a), out)


def _logaddexp_numpy(g, a, out):
    return np.multiply(g, np.exp(np.subtract(a, out)))


def _logaddexp2_numpy(g, a, out):
    return np.multiply(g, np.exp2(np.subtract(a, out)))


hypot_vjp_x = _ratio_rule("hypot_vjp_x", True, "scaled_ratio", _hypot_numpy)
hypot_vjp_y = _ratio_rule("hypot_vjp_y", False, "scaled_ratio", _hypot_numpy)
logaddexp_vjp_x = _ratio_rule("logaddexp_vjp_x", True, "exp_diff_vjp", _logaddexp_numpy)
logaddexp_vjp_y = _ratio_rule("logaddexp_vjp_y", False, "exp_diff_vjp", _logaddexp_numpy)
logaddexp2_vjp_x = _ratio_rule("logaddexp2_vjp_x", True, "exp2_diff_vjp", _logaddexp2_numpy)
logaddexp2_vjp_y = _ratio_rule("logaddexp2_vjp_y", False, "exp2_diff_vjp", _logaddexp2_numpy)


def mod_vjp_y(g, x, y, out):
    """-g * floor(x / y)"""
    dt = _binary_dtype(g, y, x)
    if dt is not None:
        return _MOD_Y(dt, g.size, g, _as(dt, x), y)
    return np.multiply(np.negative(g), np.floor(np.divide(x, y)))


def clip_vjp_x(g, x, lo, hi):
    """g where lo <= x <= hi, else 0."""
    if x.ndim and x.size >= config.ufunc_min and type(g) is np.ndarray:
        dt = _float_dtype(g, x)
        if (dt is not None and type(lo) in (np.ndarray, float, int)
                and type(hi) in (np.ndarray, float, int)
                and (type(lo) is not np.ndarray or lo.dtype is dt)
                and (type(hi) is not np.ndarray or hi.dtype is dt)):
            return _CLIP_X(dt, g.size, g, x, _as(dt, lo), _as(dt, hi))
    return np.where(np.logical_and(np.greater_equal(x, lo), np.less_equal(x, hi)), g, 0.0)
