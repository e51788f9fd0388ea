"""``cubature``: SciPy's adaptive integration over a box, differentiable.

As ``tanhsinh`` (``_integrate3_elementwise``), the values are SciPy's own:
``scipy.integrate.cubature`` runs on concrete values (its regions, error estimate and
subdivisions are part of the answer).  The custom rule differentiates the integral, in both
modes: in ``args`` and in values ``f`` captures it is the integral of ``f``'s derivative,
by ``cubature`` again (all parameter directions at once: the integrand's Jacobian-vector
products batched by ``vmap``); in a finite limit it is the Leibniz rule for a box,
``dI/db_i`` = the integral of ``f`` over the face ``x_i = b_i`` (``-`` for ``a_i``), a
cubature over the other coordinates (``f(b)`` itself in one dimension), zero at an
infinite limit.  Every piece goes through the same rule, so derivatives nest.
"""
import functools
from typing import Any, Callable, NamedTuple, Optional

import numpy as np

from .. import numpy as fnp
from ..batched import vmap
from ..callback import pure_callback
from ..core import ShapedArray, Tracer, is_special
from ..custom import custom_vjp
from ..forward_mode import jvp
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import ArrayLike
from ._integrate3_elementwise import concrete, lift_pointwise, scipy_function
from ._rich_result import RichResult


class _Memo:
    """Where the outermost primal leaves SciPy's whole result (its regions), for the
    caller to read; one per call."""
    result: Any = None


class Opts(NamedTuple):
    """What ``_rule`` is asked to do (hashable: a nondiff argument)."""
    options: tuple           # SciPy's keyword options, as (name, value) pairs
    out_shape: tuple         # the integrand's value at one point
    fixed_limits: bool       # the limits carry no derivative: skip their faces
    memo: Any = None


def _scipy_options(opts, drop=None):
    options = dict(opts.options)
    if options.get("points") is not None:
        points = [np.asarray(p, float) for p in options["points"]]
        options["points"] = [np.delete(p, drop) for p in points] if drop is not None \
            else points
    return options


@functools.partial(custom_vjp, nondiff_argnums=(0, 1))
def _rule(func, opts, a, b, *params):
    """``(estimate, error, info)``: SciPy's cubature of ``func(x, *params)`` over the box
    ``[a, b]`` (``info``: status 0 converged or 1, subdivisions); a host callback where
    some values are batched (``vmap``, as ``jacfwd`` batches the derivative's)."""
    values = [stop_gradient(v) for v in (a, b, *params)]
    host = functools.partial(_host, func, opts)
    if not any(isinstance(v, Tracer) for v in values):
        return tuple(fnp.asarray(v) for v in host(*[np.asarray(v) for v in values]))
    shapes = (ShapedArray(opts.out_shape, a.dtype), ShapedArray(opts.out_shape, a.dtype),
              ShapedArray((2,), np.dtype(np.float64)))
    return tuple(pure_callback(host, shapes, *values, vmap_method="sequential"))


def _host(func, opts, a, b, *params):
    consts = [concrete(p, "cubature") for p in params]

    def f(x):
        return concrete(func(x, *consts), "cubature")

    res = scipy_function("cubature")(f, a, b, **_scipy_options(opts))
    if opts.memo is not None:
        opts.memo.result = res
    info = np.array([0.0 if res.status == "converged" else 1.0, res.subdivisions])
    return (np.asarray(res.estimate).astype(a.dtype), np.asarray(res.error).astype(a.dtype),
            info)


def _inner(opts, out_shape, drop=None):
    """The options of a derivative's cubature (the same rule and tolerances)."""
    options = tuple((k, v) for k, v in opts.options if k != "points") + (
        ("points", None if dict(opts.options).get("points") is None else tuple(
            tuple(p) for p in _scipy_options(opts, drop)["points"])),)
    return Opts(options, tuple(out_shape), False)


def _face(func, opts, a, b, params, i, end):
    """The integral of ``func`` over the face ``x_i = end`` of the box (``func`` at
    ``end`` in one dimension), zero where ``end`` is infinite."""
    if np.isinf(concrete(end, "cubature")):
        return fnp.zeros(opts.out_shape, a.dtype)
    if a.shape[0] == 1:
        with np.errstate(all="ignore"):
            return asarray(func(fnp.reshape(end, (1, 1)), *params))[0]

    def on_face(y, *rest):
        column = fnp.broadcast_to(rest[-1], (y.shape[0], 1))
        return func(fnp.concatenate([y[:, :i], column, y[:, i:]], axis=1), *rest[:-1])

    keep = [j for j in range(a.shape[0]) if j != i]
    return _rule(on_face, _inner(opts, opts.out_shape, drop=i), a[keep], b[keep], *params,
                 end)[0]


def _directional(func, opts, a, b, params, dparams, batch=None):
    """The integral of ``func``'s derivative in ``params`` along ``dparams`` (with
    ``batch``: along each of the ``batch`` directions stacked on a leading axis of the
    concrete ``dparams``), by cubature again."""
    m = len(params)
    if batch is None:
        def integrand(x, *rest):
            return jvp(lambda *p: asarray(func(x, *p)), rest[:m], rest[m:])[1]
        return _rule(integrand, _inner(opts, opts.out_shape), a, b, *params, *dparams)[0]

    def integrand(x, *p_values):
        def along(*t):
            return jvp(lambda *p: asarray(func(x, *p)), p_values, t)[1]
        return fnp.moveaxis(vmap(along)(*dparams), 0, 1)

    return _rule(integrand, _inner(opts, (batch,) + opts.out_shape), a, b, *params)[0]


def _zero(x):
    return not isinstance(x, Tracer) and not is_special(x) and not np.any(np.asarray(x))


def _rule_jvp(func, opts, primals, tangents):
    a, b, *params = primals
    da, db, *dparams = tangents
    estimate, error, info = _rule(func, opts, a, b, *params)
    tangent = fnp.zeros_like(estimate)
    if not opts.fixed_limits:
        for i in range(a.shape[0]):
            if not _zero(db[i]):
                tangent = tangent + _face(func, opts, a, b, params, i, b[i]) * db[i]
            if not _zero(da[i]):
                tangent = tangent - _face(func, opts, a, b, params, i, a[i]) * da[i]
    floats = [p.dtype.kind in "fc" for p in params]
    dparams = [d if ok else fnp.zeros(p.shape) for p, d, ok in zip(params, dparams, floats)]
    if not all(_zero(d) for d in dparams):
        tangent = tangent + _directional(func, opts, a, b, params, dparams)
    return (estimate, error, info), (tangent, fnp.zeros_like(error), fnp.zeros_like(info))


def _rule_fwd(func, opts, a, b, *params):
    return _rule(func, opts, a, b, *params), (a, b, params)


def _rule_bwd(func, opts, res, cts):
    a, b, params = res
    g = cts[0]  # (the error and the counts have no derivative)
    out_axes = tuple(range(-len(opts.out_shape), 0))
    if opts.fixed_limits:
        grads = [fnp.zeros_like(a), fnp.zeros_like(b)]
    else:
        grads = [-fnp.stack([fnp.sum(g * _face(func, opts, a, b, params, i, a[i]))
                             for i in range(a.shape[0])]),
                 fnp.stack([fnp.sum(g * _face(func, opts, a, b, params, i, b[i]))
                            for i in range(a.shape[0])])]
    sizes = [int(np.prod(p.shape)) if p.dtype.kind in "fc" else 0 for p in params]
    total = sum(sizes)
    if not total:
        return (*grads, *[fnp.zeros(p.shape) for p in params])
    eye, start, basis = np.eye(total), 0, []
    for p, size in zip(params, sizes):  # (one direction per parameter component)
        basis.append(eye[:, start:start + size].reshape((total,) + tuple(p.shape)).astype(
            p.dtype if size else np.float64))
        start += size
    columns = _directional(func, opts, a, b, params, basis, batch=total)
    flat = fnp.sum(columns * g, axis=out_axes) if out_axes else columns * g
    start = 0
    for p, size in zip(params, sizes):
        grads.append(fnp.reshape(flat[start:start + size], p.shape) if size else
                     fnp.zeros(p.shape))
        start += size
    return tuple(grads)


_rule.defvjp(_rule_fwd, _rule_bwd)
_rule.defjvp(_rule_jvp)


def cubature(f: Callable[..., ArrayLike], a: ArrayLike, b: ArrayLike, *, rule: Any = "gk21",
             rtol: float = 1e-8, atol: float = 0, max_subdivisions: int = 10000,
             args: tuple = (), workers: Any = 1, points: Optional[list] = None
             ) -> RichResult:
    """The integral of ``f(x, *args)`` over the box ``[a, b]`` by adaptive cubature, as
    ``scipy.integrate.cubature``: ``x`` has shape ``(npoints, ndim)``, ``f`` returns
    ``(npoints, *output_shape)``; a result with ``estimate``, ``error``, ``status``
    ('converged' or 'not_converged'), ``regions``, ``subdivisions``, ``atol`` and
    ``rtol``.  Limits may be infinite.  The values are SciPy's (its code runs on
    concrete values; SciPy is imported on the first call), so not under ``jit`` or
    ``vmap``; ``regions`` are SciPy's (concrete, without derivatives).

    Differentiable in both modes in ``args`` and in values ``f`` captures (the integral of
    ``f``'s derivative, by cubature again with the same rule and tolerances, so
    differentiable again) and in finite limits (the integral of ``f`` over the box's face
    there: ``f(b)`` in one dimension; zero at an infinite limit): the derivative of the
    integral, accurate to the tolerances.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> def f(x, c):  # e^(-c |x|^2)
    ...     return np.exp(-c * np.sum(x * x, axis=-1))
    >>> res = fsi.cubature(f, [-np.inf, -np.inf], [np.inf, np.inf], args=(2.0,))
    >>> round(float(res.estimate), 12), res.status  # pi / c
    (1.570796326795, 'converged')
    >>> # d/dc (pi / c) = -pi / c^2
    >>> g = fg.grad(lambda c: fsi.cubature(f, [-np.inf, -np.inf], [np.inf, np.inf],
    ...                                    args=(c,)).estimate)
    >>> round(float(g(2.0)), 10)
    -0.7853981634
    """
    if not callable(f):
        raise ValueError("`f` must be callable.")
    a_in, b_in = asarray(a), asarray(b)
    if a_in.ndim != 1 or b_in.ndim != 1 or a_in.shape != b_in.shape:
        raise ValueError(f"cubature: `a` and `b` must be 1-d arrays of the same length (one "
                         f"limit per dimension), got shapes {a_in.shape} and {b_in.shape}")
    dtype = np.result_type(a_in.dtype, b_in.dtype)
    dtype = dtype if dtype.kind == "f" else np.dtype(np.float64)
    a_in, b_in = fnp.astype(a_in, dtype), fnp.astype(b_in, dtype)
    if not isinstance(args, tuple):
        args = (args,)
    user = [asarray(x) for x in args]
    lo, hi = concrete(a_in, "cubature"), concrete(b_in, "cubature")
    with np.errstate(all="ignore"):  # (a point inside the box, to find captures at)
        probe = np.where(np.isfinite(lo) & np.isfinite(hi), 0.5 * (lo + hi),
                         np.where(np.isfinite(lo), lo + 1.0,
                                  np.where(np.isfinite(hi), hi - 1.0, 0.0)))
    probe = probe[None].astype(dtype)
    func, consts, _ = lift_pointwise(lambda x, *u: f(x, *u), probe, user, "cubature",
                                     rows=True)
    with np.errstate(all="ignore"):
        out = concrete(func(probe, *user, *consts), "cubature")
    if out.dtype.kind == "c":  # (SciPy's would drop the imaginary part, with a warning)
        raise TypeError("cubature: f returned complex values, whose imaginary part SciPy's "
                        "cubature discards; integrate the real and imaginary parts as two "
                        "outputs (np.stack([f.real, f.imag], axis=-1))")
    if out.ndim == 0 or out.shape[0] != 1:
        raise ValueError(f"cubature: f(x) must return an array of shape (npoints, "
                         f"*output_shape) for x of shape (npoints, ndim); for one point it "
                         f"returned shape {out.shape}")
    options = (("rule", rule), ("rtol", rtol), ("atol", atol),
               ("max_subdivisions", max_subdivisions), ("workers", workers),
               ("points", None if points is None else
                tuple(tuple(np.asarray(p, float).ravel()) for p in points)))
    fixed = not any(isinstance(x, Tracer) or is_special(x) for x in (a_in, b_in))
    memo = _Memo()
    opts = Opts(options, tuple(out.shape[1:]), fixed, memo)
    estimate, error, info = _rule(func, opts, a_in, b_in, *user, *consts)
    info_c = np.asarray(stop_gradient(info))
    result = memo.result
    return RichResult(estimate=estimate, error=error,
                      status="converged" if info_c[0] == 0 else "not_converged",
                      regions=None if result is None else result.regions,
                      subdivisions=int(info_c[1]),
                      atol=atol if result is None else result.atol,
                      rtol=rtol if result is None else result.rtol)
