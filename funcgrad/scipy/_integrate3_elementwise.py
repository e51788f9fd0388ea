"""``tanhsinh`` and ``nsum``: SciPy's elementwise integral and series, differentiable.

The values are SciPy's own: ``scipy.integrate.tanhsinh`` and ``scipy.integrate.nsum`` run
on concrete values (SciPy is imported on the first call).  Both are adaptive schemes whose
every field (the error estimate, ``nfev``, ``maxlevel``, the status codes) is part of the
answer: running SciPy's code gives them exactly, where a port would agree only to its
tolerance.  The cost is that they need concrete limits (not under ``jit``), as ``quad``
does; batched values elsewhere (``vmap`` over ``args``, ``jacfwd``'s batched tangents) go
to SciPy one example at a time, as a host callback.

``_rule`` differentiates the integral (or the sum), not the scheme, in both modes: for
``tanhsinh`` the Leibniz rule, ``d/db = f(b)``, ``d/da = -f(a)`` (zero at an infinite
limit), and for both the derivative in ``args`` and in values ``f`` captures is the
integral (the sum) of the integrand's derivative, computed by the same SciPy function and
the same tolerances, through ``_rule`` again, so derivatives of derivatives work.  With
``log=True`` the value is ``log I``, whose derivative is ``dI / I``: the derivative's
integrand is ``exp(log f - log I) d(log f)``, integrated without logs.
"""
import functools
from typing import Any, NamedTuple

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..core import ShapedArray, Tracer, is_special
from ..batched import vmap
from ..custom import custom_vjp
from ..forward_mode import jvp
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ._captured import lift_captures


class Opts(NamedTuple):
    """What ``_rule`` is asked to do (hashable: a nondiff argument).  ``n_user``: how
    many of the parameters are SciPy's elementwise ``args`` (the rest are values the
    integrand captures, passed to it whole)."""
    kind: str                # "tanhsinh" or "nsum"
    n_user: int
    log: bool
    options: tuple           # SciPy's keyword options, as (name, value) pairs
    callback: Any = None
    dtype: Any = None        # the value's (a complex integrand's is complex), else a's


def concrete(x, name):
    """``x`` as a NumPy array (its derivative is the custom rule's business)."""
    x = stop_gradient(x)
    if isinstance(x, Tracer):
        raise TypeError(f"{name} needs concrete values (SciPy's adaptive scheme runs on "
                        f"them), but they are traced (under jit, or vmap over the limits); "
                        f"call {name} outside jit and vmap")
    return np.asarray(x)


def scipy_function(name):
    """``scipy.integrate.<name>``, or an ImportError that says which SciPy it needs."""
    try:
        import scipy
        import scipy.integrate as si
    except ImportError as error:
        raise ImportError(f"{name} runs SciPy's scipy.integrate.{name} on concrete values: "
                          f"install SciPy (>= 1.15)") from error
    method = getattr(si, name, None)
    if method is None:
        raise ImportError(f"{name} runs SciPy's scipy.integrate.{name}, new in SciPy 1.15; "
                          f"SciPy {scipy.__version__} is installed: upgrade it")
    return method


def lift_pointwise(f, x, user, name, rows=False):
    """``(func, consts, dtype)``: ``_captured.lift_captures``'s answer and the integrand's
    dtype, for an integrand SciPy calls on
    arrays of points whose shape changes from call to call.  ``closure_convert`` fixes
    the shapes it traced at, so the captured values are lifted on one point (``x``'s
    first element, or first row with ``rows``) and the converted function is mapped over
    the points by ``vmap``, which SciPy's contract allows: elementwise ``f`` (``user``
    args broadcast with ``x``), or ``f`` of rows (``user`` args whole)."""
    if rows:
        one = (x[:1],) + tuple(user)
    else:
        one = tuple(fnp.reshape(v, (-1,))[0] for v in (x, *user)) if np.size(x) else \
            (x, *user)
    with np.errstate(all="ignore"):
        dtype = asarray(stop_gradient(f(*[stop_gradient(v) for v in one]))).dtype
    func, consts = lift_captures(f, one, name)
    if not consts:
        return f, [], dtype
    n = len(user)

    def pointwise(x, *rest):
        u, cs = rest[:n], rest[n:]
        if rows:
            def row(xi):
                return asarray(func(xi[None], *u, *cs))[0]
            return vmap(row)(asarray(x))
        shape = np.broadcast_shapes(*[np.shape(v) for v in (x, *u)])
        flat = [fnp.reshape(fnp.broadcast_to(asarray(v), shape), (-1,)) for v in (x, *u)]
        out = vmap(lambda *vs: asarray(func(*vs, *cs)))(*flat)
        return fnp.reshape(out, shape)

    return pointwise, consts, dtype


def _scipy_result(func, opts, a, b, params):
    """SciPy's answer on concrete values: ``(value, error, info)``, ``info`` the status,
    ``nfev`` and (tanhsinh) ``maxlevel`` stacked on a leading axis."""
    method = scipy_function(opts.kind)
    user = [concrete(p, opts.kind) for p in params[:opts.n_user]]
    consts = [concrete(p, opts.kind) for p in params[opts.n_user:]]

    def f(x, *u):
        return concrete(func(x, *u, *consts), opts.kind)

    extra = {"callback": opts.callback} if opts.callback is not None else {}
    options = dict(opts.options)
    if "step" in options:  # (kept as nested tuples: the options are hashed)
        options["step"] = np.asarray(options["step"], concrete(a, opts.kind).dtype)
    if options.get("tolerances") is not None:
        options["tolerances"] = dict(options["tolerances"])
    res = method(f, concrete(a, opts.kind), concrete(b, opts.kind), args=tuple(user),
                 log=opts.log, **options, **extra)
    value = res.integral if opts.kind == "tanhsinh" else res.sum
    value = np.asarray(value)
    fields = [res.status, res.nfev] + ([res.maxlevel] if opts.kind == "tanhsinh" else [])
    info = np.stack([np.asarray(v, float) for v in fields])
    return value, np.asarray(res.error), info


@functools.partial(custom_vjp, nondiff_argnums=(0, 1))
def _rule(func, opts, a, b, *params):
    """``(value, error, info)``: SciPy's integral (``nsum``: sum) of ``func(x, *params)``
    over ``[a, b]`` (in ``a``'s dtype, or complex for a complex integrand).  On concrete
    values where they are; where some are
    batched (``vmap``, as ``jacfwd`` batches the derivative's parameters) as a host
    callback, one SciPy call per example."""
    values = [stop_gradient(v) for v in (a, b, *params)]
    host = functools.partial(_host, func, opts)
    if not any(isinstance(v, Tracer) for v in values):
        return tuple(fnp.asarray(v) for v in host(*[np.asarray(v) for v in values]))
    rows = 3 if opts.kind == "tanhsinh" else 2
    dtype = np.result_type(a.dtype, opts.dtype or a.dtype)
    shapes = (ShapedArray(tuple(a.shape), dtype),
              ShapedArray(tuple(a.shape), np.finfo(dtype).dtype),
              ShapedArray((rows,) + tuple(a.shape), np.dtype(np.float64)))
    return tuple(pure_callback(host, shapes, *values, vmap_method="sequential"))


def _host(func, opts, a, b, *params):
    value, error, info = _scipy_result(func, opts, a, b, params)
    dtype = np.result_type(a.dtype, opts.dtype or a.dtype)  # (the error: its real type)
    return value.astype(dtype), error.real.astype(np.finfo(dtype).dtype), info


def _endpoint(func, opts, x, params, value):
    """The Leibniz term at the limit ``x``: ``func(x)`` (``log``: ``exp(func(x) - log
    I)``), zero where ``x`` is infinite."""
    infinite = np.isinf(concrete(x, opts.kind))
    safe = fnp.where(infinite, 0.0, x) if np.any(infinite) else x
    with np.errstate(all="ignore"):  # (an integrable singularity there: infinite, rightly)
        out = asarray(func(safe, *params))
        if opts.log:
            _refuse_complex(out, opts)
            out = fnp.exp(out - value)
    return fnp.where(infinite, 0.0, out) if np.any(infinite) else out


def _refuse_complex(out, opts):
    if asarray(out).dtype.kind == "c":
        raise NotImplementedError(
            f"{opts.kind}(log=True): the derivative of the log of an integral whose "
            f"integrand is negative somewhere (a complex log f) is not supported; "
            f"differentiate the integral without log=True")


def _unlogged(opts):
    """The options for the derivative's integral, which runs without logs: with
    ``log=True`` SciPy reads ``rtol``/``atol`` as logs of the tolerances, and the derivative
    (``dI / I``) keeps ``exp(rtol)`` as its relative tolerance.  The absolute one bounds
    ``I``'s error, not ``dI / I``'s (whose scale is ``1 / I``, elementwise): it is dropped
    (SciPy's default 0), leaving the relative tolerance, the stricter one, to decide."""
    def unlog(key, value):
        if key == "atol":
            return None
        return float(np.exp(value)) if key == "rtol" and value is not None else value
    options = []
    for key, value in opts.options:
        if key == "tolerances" and value is not None:  # (nsum's, as sorted pairs)
            value = tuple((k, unlog(k, v)) for k, v in value)
        options.append((key, unlog(key, value)))
    return tuple(options)


def _derivative_integral(func, opts, a, b, params, dparams, value):
    """The integral (the sum) of the derivative of ``func`` in ``params`` along
    ``dparams``, by the same SciPy scheme, itself differentiable (``_rule``)."""
    n, m = opts.n_user, len(params) - opts.n_user
    user, consts = list(params[:n]), list(params[n:])
    duser, dconsts = list(dparams[:n]), list(dparams[n:])

    def integrand(x, *rest):
        u, du = rest[:n], rest[n:2 * n]
        c = rest[2 * n] if opts.log else None
        k = 2 * n + int(opts.log)
        cs, dcs = rest[k:k + m], rest[k + m:]
        with np.errstate(all="ignore"):
            out, tangent = jvp(lambda *p: asarray(func(x, *p)), (*u, *cs), (*du, *dcs))
        if opts.log:
            _refuse_complex(out, opts)
            return fnp.exp(out - c) * tangent
        return tangent

    extra = [value] if opts.log else []
    inner = opts._replace(n_user=2 * n + len(extra), log=False, callback=None,
                          options=_unlogged(opts) if opts.log else opts.options)
    return _rule(integrand, inner, a, b, *user, *duser, *extra, *consts, *dconsts)[0]


def _zero(x):
    return not isinstance(x, Tracer) and not is_special(x) and not np.any(np.asarray(x))


def _float_zeros(x):
    return fnp.zeros(x.shape, x.dtype if x.dtype.kind in "fc" else np.float64)


def _rule_jvp(func, opts, primals, tangents):
    a, b, *params = primals
    da, db, *dparams = tangents
    value, error, info = _rule(func, opts, a, b, *params)
    tangent = fnp.zeros_like(value)
    if opts.kind == "tanhsinh":
        if not _zero(db):
            tangent = tangent + _endpoint(func, opts, b, params, value) * db
        if not _zero(da):
            tangent = tangent - _endpoint(func, opts, a, params, value) * da
    dparams = [d if p.dtype.kind in "fc" else _float_zeros(p) for p, d in zip(params, dparams)]
    if not all(_zero(d) for d in dparams):
        tangent = tangent + _derivative_integral(func, opts, a, b, params, dparams, value)
    return (value, error, info), (tangent, fnp.zeros_like(error), fnp.zeros_like(info))


def _rule_fwd(func, opts, a, b, *params):
    out = _rule(func, opts, a, b, *params)
    return out, (a, b, params, out[0])


def _rule_bwd(func, opts, res, cts):
    a, b, params, value = res
    g = cts[0]  # (the error and the counts have no derivative)
    if value.dtype.kind == "c":
        raise NotImplementedError(
            f"{opts.kind}: reverse mode through a complex integrand is not supported; "
            f"integrate its real and imaginary parts separately (or use forward mode, "
            f"jvp/jacfwd)")
    if opts.kind == "tanhsinh":
        # (a, b and the elementwise args come broadcast to the result's shape)
        grads = [-g * _endpoint(func, opts, a, params, value),
                 g * _endpoint(func, opts, b, params, value)]
    else:  # (nsum refuses derivatives in a, b and step before it gets here)
        grads = [fnp.zeros_like(a), fnp.zeros_like(b)]
    zeros = [_float_zeros(p) for p in params]
    for i, p in enumerate(params):
        if p.dtype.kind not in "fc":
            grads.append(zeros[i])
        elif i < opts.n_user:  # (elementwise: all of p's components in one integral)
            direction = zeros[:i] + [fnp.ones_like(p)] + zeros[i + 1:]
            grads.append(g * _derivative_integral(func, opts, a, b, params, direction, value))
        else:  # (captured: any shape, one integral per component)
            columns = []
            for j in range(int(np.prod(p.shape))):
                unit = fnp.reshape(fnp.asarray(np.arange(p.size) == j, p.dtype), p.shape)
                direction = zeros[:i] + [unit] + zeros[i + 1:]
                columns.append(fnp.sum(g * _derivative_integral(func, opts, a, b, params,
                                                                  direction, value)))
            grads.append(fnp.reshape(fnp.stack(columns), p.shape) if columns else zeros[i])
    return tuple(grads)


_rule.defvjp(_rule_fwd, _rule_bwd)
_rule.defjvp(_rule_jvp)
