"""Reductions along axes: max, min, prod, logsumexp, argmax/argmin, cumsum, cumprod.

(``reduce_sum`` lives with the structural primitives: it is every other
rule's transpose of broadcasting.)  ``axes`` is a sorted tuple of
non-negative ints; ``keepdims`` keeps reduced axes with length 1.
"""
import numpy as np

from ..core import SHAPES_ONLY, Primitive, ShapedArray, _state, reads_inputs_and_output
from ..kernels import cpu
from .elementwise import (divide_p, equal, equal_p, exp, exp_p, isfinite, isfinite_p,
                          multiply_p, where, where_p)
from .structural import (_reduced_shape, broadcast_to, concatenate, convert_element_type,
                         convert_element_type_p, expand_reduced, moveaxis, reduce_sum,
                         reduce_sum_p, reshape, stop_gradient, transpose)



def _reduce_abstract(kernel):
    def abstract_eval(x, *, axes, keepdims):
        dtype = kernel(np.zeros((1,), x.dtype), axis=0).dtype
        return ShapedArray(_reduced_shape(x.shape, axes, keepdims), dtype)
    return abstract_eval


def _reduce_batch(fn):
    def batch(args, dims, *, axes, keepdims):
        x = moveaxis(args[0], dims[0], 0)
        return fn(x, tuple(a + 1 for a in axes), keepdims), 0
    return batch


def _check_nonempty(name, x, axes):
    shape = x.shape
    if 0 in shape and any(shape[a] == 0 for a in axes):  # (no generator unless one is 0)
        raise ValueError(f"{name} of an empty axis has no identity: the reduced axes "
                         f"{axes} of shape {x.shape} include a zero-length one. Pass "
                         f"`initial=` (NumPy) or reduce a non-empty array.")


# --- max / min ---------------------------------------------------------------------

def _extremum(name, kernel, ufunc, grad_fn_name):
    def impl(x, *, axes, keepdims):
        _check_nonempty(name, x, axes)
        if type(x) is np.ndarray:  # np.max's own call, without its Python wrapper
            return ufunc.reduce(x, axes, None, None, keepdims=keepdims)
        return kernel(x, axis=axes, keepdims=keepdims)

    def weights(x, out, axes, keepdims):
        # Ties share the derivative equally (as in JAX and PyTorch).
        hit = equal(x, expand_reduced(out, x.shape, axes, keepdims))
        hit = convert_element_type(hit, x.dtype)
        return hit / reduce_sum(hit, axes, keepdims=True)

    def jvp(primals, tangents, *, axes, keepdims):
        x, = primals
        out = fn(x, axes, keepdims)
        return out, reduce_sum(tangents[0] * weights(x, out, axes, keepdims), axes, keepdims)

    def vjp(needs, g, out, x, *, axes, keepdims):
        if _plain(g, out, x):  # first order on plain arrays: one fused kernel (or None)
            ct = cpu.extremum_vjp(g, x, out, axes, keepdims)
            if ct is not None:
                return (ct,)
            if type(g) is np.ndarray and type(out) is np.ndarray:
                return (_plain_extremum_vjp(g, out, x, axes, keepdims),)
        return (expand_reduced(g, x.shape, axes, keepdims) * weights(x, out, axes, keepdims),)

    prim = Primitive(name, impl, abstract_eval=_reduce_abstract(kernel), jvp=jvp, vjp=vjp,
                     vjp_reads=reads_inputs_and_output, grad_fn_name=grad_fn_name)

    def fn(x, axes, keepdims=False):
        return _state.interpreter.process(prim, (x,), {"axes": tuple(sorted(axes)),
                                                       "keepdims": keepdims})
    prim.batch = _reduce_batch(fn)
    fn.__name__ = name
    return prim, fn


def _plain_extremum_vjp(g, out, x, axes, keepdims):
    """The rule above on plain arrays (an array too small for the fused kernel), through
    the primitives' implementations: the same operations, so the same bits, without the
    six dispatches that cost more than a softmax's row maxima's arithmetic."""
    if not keepdims:
        shape = _reduced_shape(x.shape, axes, True)
        g, out = g.reshape(shape), out.reshape(shape)
    hit = convert_element_type_p.impl(equal_p.impl(x, out), dtype=x.dtype)
    weights = divide_p.impl(hit, reduce_sum_p.impl(hit, axes=axes, keepdims=True))
    return multiply_p.impl(g, weights)


reduce_max_p, reduce_max = _extremum("reduce_max", np.max, np.maximum, "MaxBackward1")
reduce_min_p, reduce_min = _extremum("reduce_min", np.min, np.minimum, "MinBackward1")


# --- prod ----------------------------------------------------------------------------

def _flatten_axes(x, axes):
    """Move ``axes`` last and merge them into one; returns (array, kept shape)."""
    keep = [i for i in range(x.ndim) if i not in axes]
    xt = transpose(x, keep + list(axes))
    kept_shape = tuple(x.shape[i] for i in keep)
    n = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
    return reshape(xt, kept_shape + (n,)), keep


def _prod_vjp(needs, g, out, x, *, axes, keepdims):
    # d prod / d x_i = product of all the others = (exclusive cumprod from the left)
    # * (exclusive cumprod from the right): exact when some x_i are zero, unlike out / x.
    flat, keep = _flatten_axes(x, axes)
    n = flat.shape[-1]
    if n == 0:  # an empty product is the constant 1: nothing to differentiate
        return (np.zeros(x.shape, np.result_type(g.dtype, x.dtype)),)
    ones = np.ones(flat.shape[:-1] + (1,), x.dtype)
    last = flat.ndim - 1
    left = cumprod(concatenate([ones, flat[..., :n - 1]], -1), last)
    right = _flip(cumprod(concatenate([ones, _flip(flat, last)[..., :n - 1]], -1), last), last)
    others = left * right
    kept_shape = tuple(x.shape[i] for i in keep)
    others = reshape(others, kept_shape + tuple(x.shape[a] for a in axes))
    inverse = np.argsort(keep + list(axes))
    others = transpose(others, tuple(inverse))
    return (expand_reduced(g, x.shape, axes, keepdims) * others,)


def _flip(x, axis):
    """``x`` reversed along ``axis`` (non-negative): a view of a plain array."""
    return x[tuple(slice(None, None, -1) if i == axis else slice(None) for i in range(x.ndim))]


def _prod_jvp(primals, tangents, *, axes, keepdims):
    x, = primals
    out = reduce_prod(x, axes, keepdims)
    g_like = np.ones(_reduced_shape(x.shape, axes, keepdims), out.dtype)
    partials, = _prod_vjp((True,), g_like, out, x, axes=axes, keepdims=keepdims)
    return out, reduce_sum(tangents[0] * partials, axes, keepdims)


reduce_prod_p = Primitive(
    "reduce_prod", lambda x, *, axes, keepdims: np.prod(x, axis=axes, keepdims=keepdims),
    grad_fn_name="ProdBackward0",
    abstract_eval=_reduce_abstract(np.prod), jvp=_prod_jvp, vjp=_prod_vjp)


def reduce_prod(x, axes, keepdims=False):
    return reduce_prod_p.bind(x, axes=tuple(sorted(axes)), keepdims=keepdims)


reduce_prod_p.batch = _reduce_batch(reduce_prod)


# --- logsumexp -------------------------------------------------------------------------

def _logsumexp_impl(x, *, axes, keepdims):
    _check_nonempty("logsumexp", x, axes)
    return cpu.logsumexp(x, axes, keepdims)


def _softmax(x, axes):
    """``exp(x - m) / sum(exp(x - m))`` over ``axes``, ``m`` the maximum (a constant: the
    softmax does not depend on it; 0 where it is not finite).  Not ``exp(x - out)``: the
    logsumexp ``out`` is rounded, and in float32 that rounding would show in every weight
    (0.5000008 for two equal entries of 100, instead of 0.5)."""
    m = stop_gradient(reduce_max(x, axes, keepdims=True))
    e = exp(x - where(isfinite(m), m, 0.0))
    return e / reduce_sum(e, axes, keepdims=True)


def _logsumexp_jvp(primals, tangents, *, axes, keepdims):
    x, = primals
    out = logsumexp(x, axes, keepdims)
    return out, reduce_sum(tangents[0] * _softmax(x, axes), axes, keepdims)


def _logsumexp_reverse_fwd(args, params):
    """The output and, computed NumPy's way, the softmax's pieces for the VJP."""
    x, = args
    _check_nonempty("logsumexp", x, params["axes"])
    return cpu.logsumexp_with_softmax(x, params["axes"], params["keepdims"])


logsumexp_p = Primitive(
    "logsumexp", _logsumexp_impl, vjp_reads=reads_inputs_and_output,
    abstract_eval=lambda x, *, axes, keepdims: ShapedArray(
        _reduced_shape(x.shape, axes, keepdims), np.result_type(x.dtype, np.float16)),
    jvp=_logsumexp_jvp, reverse_fwd=_logsumexp_reverse_fwd,
    vjp=lambda needs, g, out, x, *, axes, keepdims, residuals=None: (
        _logsumexp_vjp(g, out, x, axes, keepdims, residuals),))


def _logsumexp_vjp(g, out, x, axes, keepdims, residuals=None):
    if residuals is not None and type(g) is np.ndarray and type(x) is np.ndarray:
        # The forward's exp(x - shift) and its sum: what _plain_softmax_vjp recomputes.
        # (Not when x is a Tensor on the graph -- create_graph=True -- whose rule must
        # be recorded: constants from the forward pass would drop the second derivative.)
        e, s = residuals
        if not keepdims:
            g = g.reshape(s.shape)  # (s, a sum with keepdims, has the shape g needs)
        return g * (e / s)
    if _plain(g, out, x):  # first order on plain arrays: one fused kernel (or None)
        ct = cpu.logsumexp_vjp(g, x, out, axes, keepdims)
        if ct is not None:
            return ct
        if type(g) is np.ndarray and type(out) is np.ndarray:
            return _plain_softmax_vjp(g, x, axes, keepdims)
    return expand_reduced(g, x.shape, axes, keepdims) * _softmax(x, axes)


def _plain_softmax_vjp(g, x, axes, keepdims):
    """The rule below on plain arrays, through the primitives' kernels without their
    dispatch: the same operations, so the same bits (a small softmax is a few
    microseconds of arithmetic, and the rule's eight dispatches cost as much again)."""
    m = reduce_max_p.impl(x, axes=axes, keepdims=True)
    e = exp_p.impl(x - where_p.impl(isfinite_p.impl(m), m, 0.0))
    softmax = e / reduce_sum_p.impl(e, axes=axes, keepdims=True)
    if not keepdims:
        g = g.reshape(_reduced_shape(x.shape, axes, True))
    return g * softmax


def _plain(g, out, x):
    """True when a first-order fused kernel may run: no tracers, x a NumPy array."""
    return type(x) is np.ndarray and type(g) in _PLAIN and type(out) in _PLAIN


_PLAIN = {np.ndarray, np.float64, np.float32, float}


def logsumexp(x, axes, keepdims=False):
    """``log(sum(exp(x)))`` over ``axes``, computed without overflow."""
    return logsumexp_p.bind(x, axes=tuple(sorted(axes)), keepdims=keepdims)


logsumexp_p.batch = _reduce_batch(logsumexp)


# --- argmax / argmin: integer results, no derivative --------------------------------------

def _arg_batch(fn):
    def batch(args, dims, *, axis, keepdims):
        x = moveaxis(args[0], dims[0], 0)
        return fn(x, axis + 1, keepdims), 0
    return batch


def _arg(name, kernel):
    def impl(x, *, axis, keepdims):
        _check_nonempty(name, x, (axis,))
        return kernel(x, axis=axis, keepdims=keepdims)

    prim = Primitive(
        name, impl,
        abstract_eval=lambda x, *, axis, keepdims: ShapedArray(
            _reduced_shape(x.shape, (axis,), keepdims), np.intp),
        differentiable=False)

    def fn(x, axis, keepdims=False):
        return prim.bind(x, axis=axis, keepdims=keepdims)
    prim.batch = _arg_batch(fn)
    prim.jvp = prim.vjp = None
    return prim, fn


argmax_p, argmax = _arg("argmax", np.argmax)
argmin_p, argmin = _arg("argmin", np.argmin)


# --- cumsum ---------------------------------------------------------------------------------

def _reverse_cumsum(g, axis):
    return _flip(cumsum(_flip(g, axis), axis), axis)


cumsum_p = Primitive(
    "cumsum", lambda x, *, axis: np.cumsum(x, axis=axis), vjp_reads=SHAPES_ONLY,
    abstract_eval=lambda x, *, axis: ShapedArray(x.shape, np.cumsum(np.zeros(1, x.dtype)).dtype),
    jvp=lambda primals, tangents, *, axis: (cumsum(primals[0], axis), cumsum(tangents[0], axis)),
    vjp=lambda needs, g, out, x, *, axis: (_reverse_cumsum(g, axis),),
    batch=lambda args, dims, *, axis: (cumsum(moveaxis(args[0], dims[0], 0), axis + 1), 0))


def cumsum(x, axis):
    """Cumulative sum along ``axis`` (non-negative)."""
    return cumsum_p.bind(x, axis=axis)



# --- cumprod --------------------------------------------------------------------------------
# The value is NumPy's sequential product, so overflow gives the inf, -inf, 0 or NaN that
# NumPy gives ([1e200, 1e200, 1e-200, 1e-200] -> [1e200, inf, inf, inf]; a reassociated
# scan makes the last (1e200 * 1e200) * (1e-200 * 1e-200) = inf * 0 = NaN).  The derivative
# runs through a log-depth (Hillis-Steele) scan, y[i] *= y[i - step] for step = 1, 2, 4, ...,
# written with differentiable products, so it stays exact where some x are zero (unlike
# out / x) and differentiates again.

def _along(x, axis, start, stop):
    return x[(slice(None),) * axis + (slice(start, stop),)]


def _scan_windows(x, axis):
    """The partial products of each step of the log-depth scan, and the step lengths."""
    n, step, windows = x.shape[axis], 1, []
    while step < n:
        windows.append((x, step))
        x = concatenate([_along(x, axis, 0, step),
                         _along(x, axis, step, n) * _along(x, axis, 0, n - step)], axis)
        step *= 2
    return windows


def _cumprod_jvp(primals, tangents, *, axis):
    x, = primals
    t, = tangents
    n = x.shape[axis]
    for y, step in _scan_windows(x, axis):  # product rule of y[i] * y[i - step]
        t = concatenate([_along(t, axis, 0, step),
                         _along(t, axis, step, n) * _along(y, axis, 0, n - step)
                         + _along(y, axis, step, n) * _along(t, axis, 0, n - step)], axis)
    return cumprod(x, axis), t


def _cumprod_vjp(needs, g, out, x, *, axis):
    n = x.shape[axis]
    for y, step in reversed(_scan_windows(x, axis)):  # the transpose of each JVP step
        late = _along(g, axis, step, n)
        g = (concatenate([_along(g, axis, 0, step), late * _along(y, axis, 0, n - step)], axis)
             + concatenate([late * _along(y, axis, step, n),
                            np.zeros(_along(g, axis, 0, step).shape, g.dtype)], axis))
    return (g,)


cumprod_p = Primitive(
    "cumprod", lambda x, *, axis: np.cumprod(x, axis=axis),
    abstract_eval=lambda x, *, axis: ShapedArray(x.shape, np.cumprod(np.zeros(1, x.dtype)).dtype),
    jvp=_cumprod_jvp, vjp=_cumprod_vjp,
    batch=lambda args, dims, *, axis: (cumprod(moveaxis(args[0], dims[0], 0), axis + 1), 0))


def cumprod(x, axis):
    """Cumulative product along ``axis`` (non-negative), as NumPy computes it."""
    return cumprod_p.bind(x, axis=axis)


__all__ = ["reduce_max", "reduce_min", "reduce_prod", "logsumexp", "argmax", "argmin",
           "cumsum", "cumprod", "broadcast_to", "where"]
