"""The adjoint ODE solve behind ``odeint`` and ``solve_ivp``.

``_odeint`` solves ``dy/dt = func(y, t, *args)`` for a 1-d state at the times ``ts`` and is a
``custom_vjp``: its backward integrates the adjoint system backwards in time (Chen et al.
2018), with the same method and tolerances, giving the gradients with respect to ``y0``,
``ts`` and ``args`` in memory independent of the number of steps.  ``odeint`` steps with
JAX's Dormand-Prince and 4th-order interpolation (``Solver.method`` None); ``solve_ivp``
with one of the explicit Runge-Kutta pairs of ``_rk``, landing on every output time.
Either way the derivative is that of the ODE's solution, accurate to the tolerances: the
adaptive step choice is not differentiated (it is not smooth in the inputs).
"""
import functools

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..api import vjp
from ..batched import vmap
from ..callback import pure_callback
from ..core import ShapedArray, Tracer, is_special
from ..forward_mode import jvp
from ..interpreters.forward import JVPTracer
from ..interpreters.reverse import ReverseTracer
from ..custom import custom_vjp
from ..jacobians import jacfwd
from ..lax import stop_gradient, while_loop
from ._bdf import bdf_steps
from ._integrate3_lsoda import lsoda_steps
from ._radau import radau_solve, radau_steps
from ._rk import _combine, solve_landing

# --- Dormand-Prince ------------------------------------------------------------------------

_ALPHA = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)
_BETA = ((1 / 5,), (3 / 40, 9 / 40), (44 / 45, -56 / 15, 32 / 9),
         (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
         (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
         (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84))
_C_SOL = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0)
_C_ERR = (35 / 384 - 1951 / 21600, 0.0, 500 / 1113 - 22642 / 50085, 125 / 192 - 451 / 720,
          -2187 / 6784 + 12231 / 42400, 11 / 84 - 649 / 6300, -1.0 / 60.0)
_C_MID = (6025192743 / 30085553152 / 2, 0.0, 51252292925 / 65400821598 / 2,
          -2691868925 / 45128329728 / 2, 187940372067 / 1594534317056 / 2,
          -1776094331 / 19743644256 / 2, 11237099 / 235043384 / 2)


def _rk_step(f, y0, f0, t0, dt):
    ks = [f0]
    for alpha, beta in zip(_ALPHA, _BETA):
        ks.append(f(y0 + dt * _combine(beta, ks), t0 + dt * alpha))
    y1 = y0 + dt * _combine(_C_SOL, ks)
    return y1, ks[-1], dt * _combine(_C_ERR, ks), ks


def _interp_fit(y0, y1, ks, dt):
    """The quartic through the step (coefficients highest first, in [0, 1])."""
    y_mid = y0 + dt * _combine(_C_MID, ks)
    dy0, dy1 = ks[0], ks[-1]
    a = -2.0 * dt * dy0 + 2.0 * dt * dy1 - 8.0 * y0 - 8.0 * y1 + 16.0 * y_mid
    b = 5.0 * dt * dy0 - 3.0 * dt * dy1 + 18.0 * y0 + 14.0 * y1 - 32.0 * y_mid
    c = -4.0 * dt * dy0 + dt * dy1 - 11.0 * y0 - 5.0 * y1 + 16.0 * y_mid
    return fnp.stack([a, b, c, dt * dy0, y0])


def _initial_step(f, t0, y0, f0, rtol, atol, order=4):
    scale = atol + fnp.abs(y0) * rtol
    d0 = fnp.linalg.norm(y0 / scale)
    d1 = fnp.linalg.norm(f0 / scale)
    h0 = fnp.where(fnp.logical_or(d0 < 1e-5, d1 < 1e-5), 1e-6,
                   0.01 * d0 / fnp.where(d1 == 0, 1.0, d1))
    f1 = f(y0 + h0 * f0, t0 + h0)
    d2 = fnp.linalg.norm((f1 - f0) / scale) / h0
    h1 = fnp.where(fnp.logical_and(d1 <= 1e-15, d2 <= 1e-15), fnp.maximum(1e-6, h0 * 1e-3),
                   (0.01 / fnp.maximum(fnp.maximum(d1, d2), 1e-300)) ** (1.0 / (order + 1.0)))
    return fnp.minimum(100.0 * h0, h1)


def _error_ratio(err, rtol, atol, y0, y1):
    tol = atol + rtol * fnp.maximum(fnp.abs(y0), fnp.abs(y1))
    return fnp.sqrt(fnp.mean(fnp.square(err / tol)))


def _next_step(dt, ratio, safety=0.9, ifactor=10.0, dfactor=0.2, order=5.0):
    dfactor = fnp.where(ratio < 1, 1.0, dfactor)
    safe = fnp.where(ratio == 0, 1.0, ratio)
    factor = fnp.minimum(ifactor, fnp.maximum(safe ** (-1.0 / order) * safety, dfactor))
    return fnp.where(ratio == 0, dt * ifactor, dt * factor)


def _solve(f, y0, ts, rtol, atol, mxstep):
    """``ys[i] = y(ts[i])`` of ``dy/dt = f(y, t)`` for a 1-d state ``y0``."""
    t0 = ts[0]
    f0 = f(y0, t0)
    dt = _initial_step(f, t0, y0, f0, rtol, atol)
    coeff = fnp.stack([y0] * 5)
    state = (y0, f0, t0, dt, t0, coeff)
    ys = [y0]
    for j in range(1, ts.shape[0]):
        target = ts[j]

        def cond(s, target=target):
            i, _, _, t, dt, _, _ = s
            return fnp.logical_and(fnp.logical_and(t < target, i < mxstep), dt > 0)

        def body(s):
            i, y, fy, t, dt, last_t, coeff = s
            y1, f1, err, ks = _rk_step(f, y, fy, t, dt)
            ratio = _error_ratio(err, rtol, atol, y, y1)
            new_coeff = _interp_fit(y, y1, ks, dt)
            new_dt = _next_step(dt, ratio)
            ok = ratio <= 1.0
            return (i + 1.0, fnp.where(ok, y1, y), fnp.where(ok, f1, fy),
                    fnp.where(ok, t + dt, t), new_dt, fnp.where(ok, t, last_t),
                    fnp.where(ok, new_coeff, coeff))

        _, *state = while_loop(cond, body, (fnp.asarray(0.0),) + tuple(state))
        _, _, t, _, last_t, coeff = state
        x = (target - last_t) / fnp.where(t == last_t, 1.0, t - last_t)
        y = coeff[0]
        for c in range(1, 5):
            y = y * x + coeff[c]
        ys.append(fnp.where(t == last_t, state[0], y))
        state = tuple(state)
    return fnp.stack(ys)


# --- flat states and the adjoint ------------------------------------------------------------

class _Flat:
    """Pytrees of float arrays <-> one 1-d vector."""

    def __init__(self, leaves, treedef):
        self.treedef = treedef
        self.shapes = [tuple(x.shape) for x in leaves]
        self.sizes = [int(np.prod(s)) for s in self.shapes]

    def ravel(self, leaves):
        if not leaves:
            return fnp.zeros(0)
        return fnp.concatenate([fnp.reshape(x, (-1,)) for x in leaves])

    def leaves(self, vec, lead=()):
        out, start = [], 0
        for shape, size in zip(self.shapes, self.sizes):
            out.append(fnp.reshape(vec[..., start:start + size], lead + shape))
            start += size
        return out

    def tree(self, vec, lead=()):
        return tree.unflatten(self.treedef, self.leaves(vec, lead))


def _for_adjoint(solver):
    """The solver of an adjoint system: its state is not the solution's, so a
    per-component ``atol`` becomes its smallest entry for every component (the adjoint's
    shape is not the state's: a tuple would not broadcast)."""
    atol = min(solver.atol) if isinstance(solver.atol, tuple) else solver.atol
    return solver._replace(first_step=None, atol=atol)


@functools.partial(custom_vjp, nondiff_argnums=(0, 1))
def _odeint(func, solver, y0, ts, *args):
    """``(ys, info)``: ``ys[i] = y(ts[i])``, and ``info = [nfev, status]`` (status -1 where
    the step size fell below the spacing of the times; those rows of ``ys`` are NaN)."""
    f = lambda y, t: func(y, t, *args)  # noqa: E731
    if solver.method is None:
        ys = _solve(f, y0, ts, solver.rtol, solver.atol, solver.mxstep)
        return ys, fnp.zeros(2, ys.dtype)
    if solver.method.name in _STEPPING:
        return _radau(func, y0, ts, args, solver)
    return solve_landing(f, y0, ts, solver)


# the implicit methods, stepped on concrete values: each one's stepping
_STEPPING = {"Radau": radau_steps, "BDF": bdf_steps, "LSODA": lsoda_steps}


def _radau(func, y0, ts, args, solver):
    """Radau's stepping (``_radau``) on concrete values, its Jacobian by ``jacfwd``: called
    on them where they are, else (under ``jit`` or ``vmap``) as a host callback, one
    solve per example under ``vmap``."""
    values = [stop_gradient(v) for v in (y0, ts, *args)]
    host = _named(functools.partial(_radau_host, func, solver), "stepping", solver)
    if not any(isinstance(v, Tracer) for v in values):
        return tuple(fnp.asarray(v) for v in host(*[np.asarray(v) for v in values]))
    shapes = (ShapedArray((ts.shape[0], y0.shape[0]), y0.dtype), ShapedArray((4,), y0.dtype))
    return tuple(pure_callback(host, shapes, *values, vmap_method="sequential"))


def _named(host, what, solver):
    """``host`` named for pure_callback's error when a derivative of it is asked for (a
    second derivative through a jitted or vmapped first one)."""
    name = solver.method.name
    host.__name__ = (f"solve_ivp's method={name!r} {what}: a derivative of a derivative "
                     f"through {name} is not available; use 'RK45', 'RK23' or 'DOP853' for "
                     f"higher derivatives")
    return host


def _radau_host(func, solver, y0, ts, *args):
    def f(y, t):
        return np.asarray(stop_gradient(func(y, t, *args)))

    def jac(y, t):
        return np.asarray(stop_gradient(jacfwd(lambda yy: func(yy, t, *args))(y)))

    return radau_solve(f, jac, y0, ts, solver, _STEPPING[solver.method.name])


def _odeint_fwd(func, solver, y0, ts, *args):
    ys, info = _odeint(func, solver, y0, ts, *args)
    return (ys, info), (ys, ts, args)


def _odeint_bwd(func, solver, res, cts):
    ys, ts, args = res
    g = cts[0]  # (the step count and status have no derivative)
    if solver.method is not None and solver.method.name in _STEPPING:
        return _radau_adjoint(func, solver, ys, ts, args, g)
    n = ys.shape[-1]
    sizes = [int(np.prod(a.shape)) for a in args]
    adjoint_solver = _for_adjoint(solver)

    def aug(state, t, *args):
        y, y_bar = state[:n], state[n:2 * n]
        y_dot, pullback = vjp(lambda yy, tt, *aa: func(yy, tt, *aa), y, -t, *args)
        cts = pullback(y_bar)
        parts = [-y_dot, cts[0], fnp.reshape(cts[1], (1,))]
        parts += [fnp.reshape(c, (-1,)) for c in cts[2:]]
        return fnp.concatenate(parts)

    y_bar = g[-1]
    t0_bar = fnp.zeros(1, ys.dtype)
    args_bar = fnp.zeros(sum(sizes), ys.dtype)
    ts_bar = []
    for i in range(ts.shape[0] - 1, 0, -1):
        t_bar = fnp.sum(func(ys[i], ts[i], *args) * g[i])
        ts_bar.append(t_bar)
        t0_bar = t0_bar - t_bar
        state = fnp.concatenate([ys[i], y_bar, t0_bar, args_bar])
        out = _odeint(aug, adjoint_solver, state, fnp.stack([-ts[i], -ts[i - 1]]),
                      *args)[0][1]
        y_bar = out[n:2 * n] + g[i - 1]
        t0_bar = out[2 * n:2 * n + 1]
        args_bar = out[2 * n + 1:]
    ts_bar = fnp.concatenate([t0_bar] + [fnp.reshape(t, (1,)) for t in ts_bar[::-1]])
    grads, start = [], 0
    for a, size in zip(args, sizes):
        grads.append(fnp.reshape(args_bar[start:start + size], a.shape))
        start += size
    return (y_bar, ts_bar, *grads)


def _radau_adjoint(func, solver, ys, ts, args, g):
    """The adjoint of a Radau or BDF solve, integrated back by Radau along the forward
    solution's polynomials (its own method's): a stiff problem's state integrated backwards (as the
    explicit methods' adjoint does) grows like its fast modes decay, so it is not.  On
    concrete values, as the forward solve (a host callback under ``jit`` and ``vmap``)."""
    values = (ys, ts, g, *args)
    # (a derivative being taken of the cotangent or residuals: under a transform, or on a
    # create_graph pass of the eager tape)
    if any(isinstance(v, (ReverseTracer, JVPTracer))
           or (is_special(v) and getattr(v, "requires_grad", False)) for v in values):
        raise NotImplementedError(
            f"solve_ivp: a derivative of a derivative through "
            f"method={solver.method.name!r} is not available (its adjoint follows the "
            f"forward solution as a constant); use 'RK45', 'RK23' or 'DOP853' for higher "
            f"derivatives")
    host = _named(functools.partial(_radau_adjoint_host, func, solver), "adjoint", solver)
    if not any(isinstance(v, Tracer) for v in values):
        outs = host(*[np.asarray(v) for v in values])
    else:
        shapes = [ShapedArray(tuple(ys.shape[1:]), ys.dtype), ShapedArray(tuple(ts.shape),
                                                                          ys.dtype)]
        shapes += [ShapedArray(tuple(a.shape), ys.dtype) for a in args]
        outs = pure_callback(host, tuple(shapes), *values, vmap_method="sequential")
    return tuple(fnp.asarray(v) for v in outs)


def _radau_adjoint_host(func, solver, ys, ts, g, *args):
    n, sizes = ys.shape[-1], [int(np.prod(a.shape)) for a in args]

    def f_concrete(y, t):
        return np.asarray(func(y, t, *args))

    def jac(f):  # (of a traceable f)
        return lambda y, t: np.asarray(jacfwd(lambda yy: f(yy, t))(y))

    steps = _STEPPING[solver.method.name](f_concrete, jac(lambda y, t: func(y, t, *args)),
                                          ys[0], ts[0], ts[-1], solver)[0]
    ends = np.array([st.t_new for st in steps])

    def y_at(t):
        k = min(int(np.searchsorted(ends, t, side="left")), len(steps) - 1)
        return steps[k].y_new if t == ends[k] else steps[k].at(t)

    def aug(state, s):  # (s = -t: backwards in time is forwards in s)
        _, pullback = vjp(lambda yy, tt, *aa: func(yy, tt, *aa), y_at(-s), -s, *args)
        out = pullback(state[:n])
        return fnp.concatenate([out[0], fnp.reshape(out[1], (1,))]
                               + [fnp.reshape(c, (-1,)) for c in out[2:]])

    def aug_concrete(state, s):
        return np.asarray(aug(state, s))

    adjoint_solver = _for_adjoint(solver)
    state = np.concatenate([g[-1], np.zeros(1 + sum(sizes), ys.dtype)])
    ts_bar = []
    for i in range(ts.shape[0] - 1, 0, -1):
        t_bar = float(np.sum(f_concrete(ys[i], ts[i]) * g[i]))
        ts_bar.append(t_bar)
        state[n] -= t_bar
        state = radau_solve(aug_concrete, jac(aug), state,
                            np.array([-ts[i], -ts[i - 1]]), adjoint_solver)[0][1]
        state[:n] += g[i - 1]
    ts_bar = np.array([state[n]] + ts_bar[::-1], ys.dtype)
    grads, start = [], n + 1
    for a, size in zip(args, sizes):
        grads.append(np.reshape(state[start:start + size], a.shape).astype(ys.dtype))
        start += size
    return (state[:n], ts_bar, *grads)


def _odeint_jvp(func, solver, primals, tangents):
    """Forward mode: the tangent ``v`` of the solution solves the sensitivity equations
    ``dv/dt = f_y v + f_args dargs`` from ``v(t0) = dy0 - f(y0, t0) dt0`` (moving the start
    time moves the solution back along itself), integrated with the state by the same
    method and tolerances; an output time's tangent adds ``f(y, t) dt``."""
    y0, ts, *args = primals
    dy0, dts, *dargs = tangents
    ys, info = _odeint(func, solver, y0, ts, *args)
    n, m = y0.shape[0], len(args)

    def with_tangent(state, t, *values):
        params, dparams = values[:m], values[m:]
        y_dot, v_dot = jvp(lambda yy, *aa: func(yy, t, *aa), (state[:n], *params),
                           (state[n:], *dparams))
        return fnp.concatenate([y_dot, v_dot])

    # (the tangent's error is controlled with the state's, so the steps differ from the
    # solve above, whose values are returned)
    atol = solver.atol * 2 if isinstance(solver.atol, tuple) else solver.atol
    both = _odeint(with_tangent, solver._replace(first_step=None, atol=atol),
                   fnp.concatenate([y0, dy0 - func(y0, ts[0], *args) * dts[0]]), ts,
                   *args, *dargs)[0]
    slopes = vmap(lambda yy, tt: func(yy, tt, *args))(ys, ts)
    return (ys, info), (both[:, n:] + slopes * dts[:, None], fnp.zeros_like(info))


_odeint.defvjp(_odeint_fwd, _odeint_bwd)
_odeint.defjvp(_odeint_jvp)
