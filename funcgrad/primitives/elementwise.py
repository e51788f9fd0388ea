"""Elementwise primitives (broadcasting, like NumPy ufuncs).

Each is declared on one line by its kernel and, per argument, its *linear
rule* ``lin(g, *args, out)``: ``g`` times the partial derivative of the
output with respect to that argument.  Because an elementwise derivative is
a pointwise product, one function gives both the JVP (applied to a tangent,
then broadcast to the output) and the VJP (applied to a cotangent, then
summed back to the argument's shape): forward and reverse mode cannot
disagree.  ``None`` marks an argument with no derivative (a mask).
"""
import math

import numpy as np
from numpy import ndarray

from ..core import (SHAPES_ONLY, Primitive, ShapedArray, _state, reads_inputs_and_output,
                    reads_the_others)
from ..kernels import cpu
from .structural import fit, moveaxis, reshape, unbroadcast

_EMPTY = {}
LN2 = math.log(2.0)
LN10 = math.log(10.0)


def _abstract_elementwise(impl):
    def abstract_eval(*avals, **params):
        shape = np.broadcast_shapes(*[getattr(a, "shape", ()) for a in avals])
        samples = [np.zeros((), a.dtype) if isinstance(a, ShapedArray) else a for a in avals]
        with np.errstate(all="ignore"):
            dtype = np.result_type(impl(*samples, **params))
        return ShapedArray(shape, dtype)
    return abstract_eval


def elementwise_batch(prim):
    """Batch rule of any elementwise primitive: align batch axes at the front."""
    def batch(args, dims, **params):
        ranks = [len(a.shape) - (d is not None) if hasattr(a, "shape") else 0
                 for a, d in zip(args, dims)]
        rank = max(ranks)
        moved = []
        for a, d, r in zip(args, dims, ranks):
            if d is not None:
                a = moveaxis(a, d, 0)
                if r < rank:
                    a = reshape(a, a.shape[:1] + (1,) * (rank - r) + a.shape[1:])
            moved.append(a)
        return _state.interpreter.process(prim, moved, params), 0
    return batch


def elementwise(name, impl, *lins, differentiable=True, linear=False, **facts):
    """Declare an elementwise primitive from its kernel and linear rules.

    ``linear``: the primitive is linear in its arguments jointly (add, subtract), so
    with every tangent present the output tangent is the primitive applied to them:
    one operation instead of one per argument plus their sum.
    """
    def jvp(primals, tangents, **params):
        out = _state.interpreter.process(prim, primals, params)
        return out, jvp_tangent(primals, tangents, out, **params)

    def jvp_tangent(primals, tangents, out, **params):  # the tangent half of ``jvp``
        if linear and tangents[0] is not None and tangents[1] is not None:
            return fit(_state.interpreter.process(prim, tangents, params), out)
        t_out = None
        for lin, t in zip(lins, tangents):
            if t is None or lin is None:
                continue
            c = lin(t, *primals, out, **params)
            t_out = c if t_out is None else add(t_out, c)
        return None if t_out is None else fit(t_out, out)

    def _vjp_n(needs, g, out, *args, **params):
        cts = []
        for i, (lin, x, need) in enumerate(zip(lins, args, needs)):
            if not need:
                cts.append(None)
            elif (i == 0 and fast_x is not None and type(g) is ndarray and type(x) is ndarray
                  and g.ndim and g.shape == x.shape):  # first order, plain arrays: one pass
                cts.append(_fit_ct(fast_x(g, *args), x))
            else:
                cts.append(_fit_ct(lin(g, *args, out, **params), x))
        return cts

    def _fit_ct(c, x):  # unbroadcast only when broadcasting or promotion happened
        return c if c.shape == x.shape and c.dtype == x.dtype else unbroadcast(c, x)

    fast = getattr(cpu, name + "_vjp", None)
    # Binary/ternary first-order kernels: fast_x(g, x, y, out), fast_y(g, x, y, out) for
    # binary primitives, fast_x(g, *args) for ternary ones (see kernels/cpu/fused.py).
    fast_x = getattr(cpu, name + "_vjp_x", None)
    fast_y = getattr(cpu, name + "_vjp_y", None)
    if len(lins) == 1:
        lin_x, = lins

        def vjp(needs, g, out, x, **params):
            if fast is not None and type(g) is ndarray and type(x) is ndarray and x.ndim:
                return (fast(g, x, out),)  # first order on plain arrays: one fused pass
            return (_fit_ct(lin_x(g, x, out, **params), x),)
    elif len(lins) == 2:
        lin_x, lin_y = lins

        def vjp(needs, g, out, x, y, **params):
            if (type(g) is ndarray and g.ndim and (fast_x is not None or fast_y is not None)
                    and _plain_operand(x) and _plain_operand(y)):
                # first order on plain arrays: one fused pass per same-shape operand
                return (None if not needs[0] else _fit_ct(
                            fast_x(g, x, y, out) if fast_x is not None and type(x) is ndarray
                            and x.shape == g.shape else lin_x(g, x, y, out, **params), x),
                        None if not needs[1] else _fit_ct(
                            fast_y(g, x, y, out) if fast_y is not None and type(y) is ndarray
                            and y.shape == g.shape else lin_y(g, x, y, out, **params), y))
            return (_fit_ct(lin_x(g, x, y, out, **params), x) if needs[0] else None,
                    _fit_ct(lin_y(g, x, y, out, **params), y) if needs[1] else None)
    else:
        vjp = _vjp_n

    prim = Primitive(name, impl, abstract_eval=_abstract_elementwise(impl),
                     jvp=jvp if differentiable else _no_jvp,
                     vjp=vjp if differentiable else _no_vjp,
                     differentiable=differentiable, **facts)
    prim.batch = elementwise_batch(prim)
    if differentiable:
        prim.jvp_tangent = jvp_tangent
    return prim


def _plain_operand(v):
    return type(v) is ndarray or type(v) is float or type(v) is int


def _no_jvp(primals, tangents, **params):  # never called: not differentiable
    raise AssertionError("non-differentiable primitive reached a JVP rule")


def _no_vjp(needs, g, out, *args, **params):
    raise AssertionError("non-differentiable primitive reached a VJP rule")


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


def _scaled(g, c, x):
    """``g * (x * c)`` for a Python number ``c``, with ``c`` applied to ``g`` instead when
    ``g`` is a plain array and ``x`` is traced: then the traced factor enters one product
    rather than two (under forward-over-reverse each is a pass over a batch of tangents).
    Scaling by 2 is exact, so there both orders give the same bits."""
    if type(g) is ndarray and type(x) is not ndarray:
        return (g * c) * x
    return g * (x * c)


# --- unary -----------------------------------------------------------------------

negative_p = elementwise("negative", cpu.negative, lambda g, x, y: negative(g), vjp_reads=SHAPES_ONLY, grad_fn_name="NegBackward0")
abs_p = elementwise("abs", cpu.abs, lambda g, x, y: g * sign(x))
exp_p = elementwise("exp", cpu.exp, lambda g, x, y: g * y, vjp_reads=reads_inputs_and_output)
exp2_p = elementwise("exp2", cpu.exp2, lambda g, x, y: g * y * LN2, vjp_reads=reads_inputs_and_output)
expm1_p = elementwise("expm1", cpu.expm1, lambda g, x, y: g * (y + 1.0), vjp_reads=reads_inputs_and_output)
log_p = elementwise("log", cpu.log, lambda g, x, y: g / x)
log2_p = elementwise("log2", cpu.log2, lambda g, x, y: g / (x * LN2))
log10_p = elementwise("log10", cpu.log10, lambda g, x, y: g / (x * LN10))
log1p_p = elementwise("log1p", cpu.log1p, lambda g, x, y: g / (x + 1.0))
sqrt_p = elementwise("sqrt", cpu.sqrt, lambda g, x, y: g / (y * 2.0), vjp_reads=reads_inputs_and_output)
cbrt_p = elementwise("cbrt", cpu.cbrt, lambda g, x, y: g / (square(y) * 3.0), vjp_reads=reads_inputs_and_output)
square_p = elementwise("square", cpu.square, lambda g, x, y: _scaled(g, 2.0, x), grad_fn_name="PowBackward0")
reciprocal_p = elementwise("reciprocal", cpu.reciprocal, lambda g, x, y: -g * square(y), vjp_reads=reads_inputs_and_output)
sin_p = elementwise("sin", cpu.sin, lambda g, x, y: g * cos(x))
cos_p = elementwise("cos", cpu.cos, lambda g, x, y: -g * sin(x))
# Their impl becomes the kernel ufunc itself on first call (no Python wrapper per call).
cpu.install(sin_p, "sin")
cpu.install(cos_p, "cos")
tan_p = elementwise("tan", cpu.tan, lambda g, x, y: g * (square(y) + 1.0), vjp_reads=reads_inputs_and_output)
arcsin_p = elementwise("arcsin", cpu.arcsin, lambda g, x, y: g / sqrt(1.0 - square(x)))
arccos_p = elementwise("arccos", cpu.arccos, lambda g, x, y: -g / sqrt(1.0 - square(x)))
arctan_p = elementwise("arctan", cpu.arctan, lambda g, x, y: g / (square(x) + 1.0))
sinh_p = elementwise("sinh", cpu.sinh, lambda g, x, y: g * cosh(x))
cosh_p = elementwise("cosh", cpu.cosh, lambda g, x, y: g * sinh(x))
tanh_p = elementwise("tanh", cpu.tanh, lambda g, x, y: g * (1.0 - square(y)), vjp_reads=reads_inputs_and_output)
arcsinh_p = elementwise("arcsinh", cpu.arcsinh, lambda g, x, y: g / sqrt(square(x) + 1.0))
# sqrt(x-1)*sqrt(x+1) keeps precision near x = 1, where x*x - 1 cancels.
arccosh_p = elementwise("arccosh", cpu.arccosh,
                        lambda g, x, y: g / (sqrt(x - 1.0) * sqrt(x + 1.0)))
arctanh_p = elementwise("arctanh", cpu.arctanh, lambda g, x, y: g / (1.0 - square(x)))

# Piecewise constant: derivative zero almost everywhere.
sign_p = elementwise("sign", cpu.sign, None, differentiable=False)
floor_p = elementwise("floor", cpu.floor, None, differentiable=False)
ceil_p = elementwise("ceil", cpu.ceil, None, differentiable=False)
rint_p = elementwise("rint", cpu.rint, None, differentiable=False)
trunc_p = elementwise("trunc", cpu.trunc, None, differentiable=False)

negative, abs, exp, exp2, expm1, log, log2, log10, log1p, sqrt, cbrt, square, reciprocal = map(  # noqa: A001
    _fn1, (negative_p, abs_p, exp_p, exp2_p, expm1_p, log_p, log2_p, log10_p, log1p_p, sqrt_p,
           cbrt_p, square_p, reciprocal_p))
sin, cos, tan, arcsin, arccos, arctan, sinh, cosh, tanh, arcsinh, arccosh, arctanh = map(
    _fn1, (sin_p, cos_p, tan_p, arcsin_p, arccos_p, arctan_p, sinh_p, cosh_p, tanh_p, arcsinh_p,
           arccosh_p, arctanh_p))
sign, floor, ceil, rint, trunc = map(_fn1, (sign_p, floor_p, ceil_p, rint_p, trunc_p))


# --- binary ------------------------------------------------------------------------

def _weight_type(x, y):
    """The operands' scalar type: weights as Python floats would make ``where`` return
    float64 and widen float32 derivatives."""
    return np.result_type(getattr(x, "dtype", x), getattr(y, "dtype", y)).type


def _tie_weight(x, y):
    """1 where x wins, 0 where y wins, 1/2 on ties (each side gets half, as in JAX)."""
    t = _weight_type(x, y)
    return where(equal(x, y), t(0.5), where(greater(x, y), t(1.0), t(0.0)))


def _fmax_weight(x, y):
    # fmax ignores a NaN operand: the other one receives the whole derivative.
    t = _weight_type(x, y)
    return where(isnan(y), t(1.0), where(isnan(x), t(0.0), _tie_weight(x, y)))


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
    safe_x = where(equal(x, 0), 1.0, x)
    return g * (log(safe_x) * out)


def _arctan2_denominator(x, y):
    return square(x) + square(y)


add_p = elementwise("add", cpu.add, lambda g, x, y, out: g, lambda g, x, y, out: g, linear=True, vjp_reads=SHAPES_ONLY)
subtract_p = elementwise("subtract", cpu.subtract,
                         lambda g, x, y, out: g, lambda g, x, y, out: negative(g), linear=True, vjp_reads=SHAPES_ONLY, grad_fn_name="SubBackward0")
multiply_p = elementwise("multiply", cpu.multiply,
                         lambda g, x, y, out: g * y, lambda g, x, y, out: g * x, vjp_reads=reads_the_others, grad_fn_name="MulBackward0")
divide_p = elementwise("divide", cpu.divide,
                       lambda g, x, y, out: g / y, lambda g, x, y, out: -g * out / y, vjp_reads=lambda needs, **params: ((False, True), True), grad_fn_name="DivBackward0")
power_p = elementwise("power", cpu.power, _pow_lin_x, _pow_lin_y, vjp_reads=reads_inputs_and_output, grad_fn_name="PowBackward0")
maximum_p = elementwise("maximum", cpu.maximum,
                        lambda g, x, y, out: g * _tie_weight(x, y),
                        lambda g, x, y, out: g * _tie_weight(y, x))
minimum_p = elementwise("minimum", cpu.minimum,
                        lambda g, x, y, out: g * _tie_weight(y, x),
                        lambda g, x, y, out: g * _tie_weight(x, y))
fmax_p = elementwise("fmax", cpu.fmax,
                     lambda g, x, y, out: g * _fmax_weight(x, y),
                     lambda g, x, y, out: g * _fmax_weight(y, x))
fmin_p = elementwise("fmin", cpu.fmin,
                     lambda g, x, y, out: g * _fmax_weight(y, x),
                     lambda g, x, y, out: g * _fmax_weight(x, y))
arctan2_p = elementwise("arctan2", cpu.arctan2,
                        lambda g, x, y, out: g * y / _arctan2_denominator(x, y),
                        lambda g, x, y, out: -g * x / _arctan2_denominator(x, y))
hypot_p = elementwise("hypot", cpu.hypot,
                      lambda g, x, y, out: g * x / out, lambda g, x, y, out: g * y / out, vjp_reads=reads_inputs_and_output)
logaddexp_p = elementwise("logaddexp", cpu.logaddexp,
                          lambda g, x, y, out: g * exp(x - out),
                          lambda g, x, y, out: g * exp(y - out), vjp_reads=reads_inputs_and_output)
logaddexp2_p = elementwise("logaddexp2", cpu.logaddexp2,
                           lambda g, x, y, out: g * exp2(x - out),
                           lambda g, x, y, out: g * exp2(y - out), vjp_reads=reads_inputs_and_output)
# x mod y = x - floor(x / y) * y
mod_p = elementwise("mod", cpu.mod,
                    lambda g, x, y, out: g, lambda g, x, y, out: -g * floor(x / y))

add, subtract, multiply, divide, power, maximum, minimum, fmax, fmin = map(
    _fn2, (add_p, subtract_p, multiply_p, divide_p, power_p, maximum_p, minimum_p, fmax_p, fmin_p))
arctan2, hypot, logaddexp, logaddexp2, mod = map(
    _fn2, (arctan2_p, hypot_p, logaddexp_p, logaddexp2_p, mod_p))


# --- comparisons and logic: boolean results, no derivative ---------------------------

equal_p = elementwise("equal", cpu.equal, None, None, differentiable=False)
not_equal_p = elementwise("not_equal", cpu.not_equal, None, None, differentiable=False)
less_p = elementwise("less", cpu.less, None, None, differentiable=False)
less_equal_p = elementwise("less_equal", cpu.less_equal, None, None, differentiable=False)
greater_p = elementwise("greater", cpu.greater, None, None, differentiable=False)
greater_equal_p = elementwise("greater_equal", cpu.greater_equal, None, None,
                              differentiable=False)
logical_and_p = elementwise("logical_and", cpu.logical_and, None, None, differentiable=False)
logical_or_p = elementwise("logical_or", cpu.logical_or, None, None, differentiable=False)
logical_xor_p = elementwise("logical_xor", cpu.logical_xor, None, None, differentiable=False)
logical_not_p = elementwise("logical_not", cpu.logical_not, None, differentiable=False)
isnan_p = elementwise("isnan", cpu.isnan, None, differentiable=False)
isinf_p = elementwise("isinf", cpu.isinf, None, differentiable=False)
isfinite_p = elementwise("isfinite", cpu.isfinite, None, differentiable=False)

equal, not_equal, less, less_equal, greater, greater_equal = map(
    _fn2, (equal_p, not_equal_p, less_p, less_equal_p, greater_p, greater_equal_p))
logical_and, logical_or, logical_xor = map(_fn2, (logical_and_p, logical_or_p, logical_xor_p))
logical_not, isnan, isinf, isfinite = map(_fn1, (logical_not_p, isnan_p, isinf_p, isfinite_p))


# --- ternary -------------------------------------------------------------------------

# The untaken branch receives an exact zero cotangent.  A NaN can still come
# from *inside* a branch (sqrt'(x) at x < 0 times that zero): guard the input
# too, the "double where" idiom:  where(x > 0, sqrt(where(x > 0, x, 1)), 0).
where_p = elementwise("where", cpu.where, None,
                      lambda g, c, x, y, out: where(c, g, 0.0),
                      lambda g, c, x, y, out: where(c, 0.0, g))
clip_p = elementwise("clip", cpu.clip,
                     lambda g, x, lo, hi, out: where(logical_and(greater_equal(x, lo),
                                                                 less_equal(x, hi)), g, 0.0),
                     lambda g, x, lo, hi, out: where(less(x, lo), g, 0.0),
                     lambda g, x, lo, hi, out: where(greater(x, hi), g, 0.0), grad_fn_name="ClampBackward1")


def where(cond, x, y):
    """Elementwise ``x if cond else y`` (a funcgrad primitive)."""
    return _state.interpreter.process(where_p, (cond, x, y), _EMPTY)


def clip(x, lo, hi):
    """Elementwise ``min(max(x, lo), hi)`` (a funcgrad primitive)."""
    return _state.interpreter.process(clip_p, (x, lo, hi), _EMPTY)
