"""``solve_ivp``: SciPy's initial-value solver (its explicit Runge-Kutta methods), its
solution differentiated by ``odeint``'s adjoint (``_ode_adjoint``)."""
import math
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._captured import lift_captures
from ._ode_adjoint import _odeint
from ._rk import METHODS, Solver, step_times

_IMPLICIT = ("Radau", "BDF", "LSODA")
_MESSAGES = {0: "The solver successfully reached the end of the integration interval.",
             -1: "Required step size is less than spacing between numbers."}


class OdeResult(dict):
    """The answer of :func:`solve_ivp`, as SciPy's: a dict whose keys are also attributes
    (``t``, ``y``, ``sol``, ``t_events``, ``y_events``, ``nfev``, ``njev``, ``nlu``,
    ``status``, ``message``, ``success``)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None

    def __repr__(self):
        return "\n".join(f"{k:>8}: {v!r}" for k, v in self.items())


class OdeSolution:
    """``sol(t)``: the solution at any time(s) ``t`` (shape ``(n,)`` for a scalar, ``(n,
    len(t))`` for a 1-d ``t``), as SciPy's ``OdeSolution``.  Each call integrates from
    the start again, to the tolerances of the solve and differentiably (SciPy interpolates
    its steps instead)."""

    def __init__(self, evaluate, t_min, t_max):
        self._evaluate = evaluate
        self.t_min, self.t_max = t_min, t_max

    def __call__(self, t: ArrayLike) -> Array:
        ts = asarray(t)
        if ts.ndim > 1:
            raise ValueError("`t` must be a float or a 1-D array.")
        return self._evaluate(ts)


def _concrete(x, why):
    """``x`` as a NumPy value, for ``why`` (its derivative, if any, is not wanted there)."""
    x = stop_gradient(x)
    if isinstance(x, Tracer):
        raise TypeError(f"solve_ivp: {why} needs concrete values, but they are traced "
                        f"(under jit or vmap)")
    return np.asarray(x)


_NO_T_EVAL = ("solve_ivp without t_eval (the number of output times is the solver's "
              "choice; pass t_eval under jit and vmap)")


def _check(method, events, y0, t_span, max_step, first_step, rtol, atol):
    if method in _IMPLICIT:
        raise NotImplementedError(
            f"solve_ivp: method={method!r} (an implicit method for stiff problems) is not "
            f"available in funcgrad; use 'RK45', 'RK23' or 'DOP853' (with a smaller max_step "
            f"or looser tolerances for a stiff problem), or scipy.integrate.solve_ivp")
    if not isinstance(method, str) or method not in METHODS:
        raise ValueError(f"`method` must be one of {{'RK23', 'RK45', 'DOP853'}}, got "
                         f"{method!r} (OdeSolver classes are SciPy's only)")
    if events is not None:
        raise NotImplementedError("solve_ivp: events are not supported; pass events=None "
                                  "and find the crossing afterwards with dense_output=True "
                                  "and a root finder, or use scipy.integrate.solve_ivp")
    if y0.ndim != 1:
        raise ValueError(f"`y0` must be 1-dimensional, got shape {y0.shape}.")
    if y0.dtype.kind == "c":
        raise NotImplementedError("solve_ivp: complex y0 is not supported; integrate the "
                                  "real and imaginary parts as a real state of twice the size")
    if len(t_span) != 2:
        raise ValueError("`t_span` must be a pair (t0, tf) of floats.")
    if not max_step > 0:
        raise ValueError("`max_step` must be positive.")
    if first_step is not None and not first_step > 0:
        raise ValueError("`first_step` must be positive.")
    ends = [stop_gradient(asarray(t)) for t in t_span]
    if first_step is not None and not any(isinstance(t, Tracer) for t in ends) and \
            first_step > abs(float(np.asarray(ends[1])) - float(np.asarray(ends[0]))):
        raise ValueError("`first_step` exceeds bounds.")
    if not rtol > 0:
        raise ValueError("`rtol` must be positive.")
    if np.any(np.asarray(atol) < 0):
        raise ValueError("`atol` must be positive.")
    if np.ndim(atol) and np.shape(atol) != y0.shape:
        raise ValueError("`atol` has wrong shape.")


def solve_ivp(fun: Callable[..., ArrayLike], t_span: Any, y0: ArrayLike,
              method: str = "RK45", t_eval: Optional[ArrayLike] = None,
              dense_output: bool = False, events: Any = None, vectorized: bool = False,
              args: Optional[tuple] = None, rtol: float = 1e-3, atol: Any = 1e-6,
              max_step: float = math.inf, first_step: Optional[float] = None) -> OdeResult:
    """Solve ``dy/dt = fun(t, y, *args)``, ``y(t_span[0]) = y0``, as
    ``scipy.integrate.solve_ivp`` with its explicit methods 'RK45' (Dormand-Prince),
    'RK23' (Bogacki-Shampine) and 'DOP853', the same error norm and step-size control.
    Returns an ``OdeResult`` with ``t``, ``y`` (shape ``(n, len(t))``), ``success``,
    ``status``, ``message``, ``nfev`` and, with ``dense_output=True``, ``sol``.

    Differentiable (reverse mode) in ``y0``, ``args``, values ``fun`` captures, ``t_eval``
    and the ends of ``t_span``, by ``odeint``'s adjoint method, which integrates the
    adjoint system back with the same method and tolerances: the derivative is that of the
    ODE's solution, accurate to ``rtol``/``atol`` -- the adaptive step choice is not
    differentiated (it is not smooth), and without ``t_eval`` the interior step times are
    constants.  Without ``t_eval`` the times are SciPy's (the same steps); with it each
    step that would pass an output time ends on it (SciPy interpolates), so the values
    agree with SciPy's to the tolerances, and it runs under ``jit`` and ``vmap`` (the ends
    of ``t_span`` concrete).  ``sol(t)`` integrates again from ``t_span[0]``.  Not
    supported: ``events``, and the implicit methods 'Radau', 'BDF', 'LSODA'
    (NotImplementedError).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> sol = fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]),
    ...                     t_eval=[1.0], args=(2.0,), rtol=1e-8, atol=1e-10)
    >>> round(float(sol.y[0, -1]), 7), sol.success  # e^-2
    (0.1353353, True)
    >>> end = lambda k: fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]),
    ...                               args=(k,), rtol=1e-8, atol=1e-10).y[0, -1]
    >>> round(float(fg.grad(end)(2.0)), 6)  # d/dk e^-k = -e^-k
    -0.135335
    """
    if not callable(fun):
        raise TypeError(f"solve_ivp: fun must be callable as fun(t, y, *args), got "
                        f"{type(fun).__name__}")
    if args is not None:
        try:
            args = tuple(args)
        except TypeError as error:
            raise TypeError("Supplied 'args' cannot be unpacked. Please supply `args` as a "
                            "tuple (e.g. `args=(a,)`)") from error
    else:
        args = ()
    y = asarray(y0)
    y = fnp.astype(y, np.float64) if y.dtype.kind in "biu" else y
    _check(method, events, y, t_span, max_step, first_step, rtol, atol)
    dtype = np.result_type(y.dtype, np.float32)
    t0, t1 = (fnp.astype(asarray(t), dtype) for t in t_span)
    arg_vals = [asarray(a) for a in args]
    arg_vals = [fnp.astype(a, dtype) if a.dtype.kind in "biu" else a for a in arg_vals]
    n = y.shape[0]
    # backwards in time (t1 < t0) is forwards in s = -t: dy/ds = -fun(-s, y)
    why = "the direction of integration (the order of t_span's ends)"
    sign = 1.0 if float(_concrete(t1, why)) >= float(_concrete(t0, why)) else -1.0

    def flat_fun(yy, s, *aa):
        yy_in = yy[:, None] if vectorized else yy
        out = fun(sign * s, yy_in, *aa)
        out = fnp.stack([asarray(v) for v in out]) if isinstance(out, (list, tuple)) \
            else asarray(out)
        if int(np.prod(out.shape)) != n:
            raise ValueError(f"solve_ivp: fun(t, y) must return an array of shape ({n},) "
                             f"like y0, got shape {out.shape}")
        return sign * fnp.astype(fnp.reshape(out, (n,)), dtype)

    atol_opt = tuple(np.asarray(atol, float).ravel()) if np.ndim(atol) else float(atol)
    solver = Solver(METHODS[method], float(rtol), atol_opt, math.inf, float(max_step),
                    None if first_step is None else float(first_step))
    y = fnp.astype(y, dtype)
    flat_fun, consts = lift_captures(flat_fun, (y, sign * t0, *arg_vals), "solve_ivp")
    arg_vals = arg_vals + consts
    if t_eval is not None:
        t_out = fnp.astype(asarray(t_eval), dtype)
        if t_out.ndim != 1:
            raise ValueError("`t_eval` must be 1-dimensional.")
        if not any(isinstance(stop_gradient(v), Tracer) for v in (t_out, t0, t1)):
            te, lo, hi = (np.asarray(stop_gradient(v)) for v in (t_out, t0, t1))
            lo, hi = min(lo, hi), max(lo, hi)
            if np.any(te < lo) or np.any(te > hi):
                raise ValueError("Values in `t_eval` are not within `t_span`.")
            if np.any(np.diff(te) * sign < 0):
                raise ValueError("Values in `t_eval` are not properly sorted.")
        s_out = sign * t_out
    else:
        y_c = _concrete(y, _NO_T_EVAL)
        a_c = [_concrete(a, _NO_T_EVAL) for a in arg_vals]
        s0, s1 = sign * _concrete(t0, _NO_T_EVAL), sign * _concrete(t1, _NO_T_EVAL)
        times, nfev, failed = step_times(
            lambda yy, s: np.asarray(stop_gradient(flat_fun(yy, s, *a_c))), y_c, s0, s1,
            solver)
        # the ends stay differentiable; the interior step times are the solver's choice
        ends = [fnp.reshape(sign * t0, (1,))] + (
            [fnp.reshape(sign * t1, (1,))] if times.shape[0] > 1 and times[-1] == s1
            else [])
        s_out = fnp.concatenate([ends[0], fnp.asarray(times[1:len(times) - (len(ends) - 1)],
                                                      dtype)] + ends[1:])
        t_out = sign * s_out
    if t_eval is None:  # (s_out starts at t0)
        ys, info = _odeint(flat_fun, solver, y, s_out, *arg_vals)
        # (the discovery's count and status are SciPy's; those of the solve on its times
        # only differ by rounding)
        info = fnp.asarray([float(nfev), -1.0 if failed else 0.0], dtype)
    else:
        s_all = fnp.concatenate([fnp.reshape(sign * t0, (1,)), s_out])
        ys, info = _odeint(flat_fun, solver, y, s_all, *arg_vals)
        ys = ys[1:]
    ys = fnp.transpose(ys)
    res = OdeResult(t=t_out, y=ys, sol=None, t_events=None, y_events=None, nfev=info[0],
                    njev=0, nlu=0, status=info[1], message=None, success=None)
    info_c = stop_gradient(info)
    if not isinstance(info_c, Tracer):
        status = int(np.asarray(info_c)[1])
        res.update(nfev=int(np.asarray(info_c)[0]), status=status,
                   message=_MESSAGES[status], success=status >= 0)
        if status < 0:  # (as SciPy: only the times reached)
            keep = int(np.sum(np.isfinite(np.asarray(stop_gradient(ys))[0])))
            res.update(t=res.t[:keep], y=res.y[:, :keep])
    else:
        res.update(success=info[1] >= 0)
    if dense_output:
        def evaluate(tq):
            scalar = tq.ndim == 0
            tq = fnp.reshape(fnp.astype(tq, dtype), (-1,))
            tq_c = sign * _concrete(tq, "sol(t) (it sorts t)")
            if np.any(tq_c < sign * float(_concrete(t0, ""))) or np.any(
                    tq_c > sign * float(_concrete(t1, ""))):
                raise ValueError("sol(t): t must lie within t_span (SciPy's OdeSolution "
                                 "extrapolates; funcgrad's integrates, so it stays inside)")
            order = np.argsort(tq_c, kind="stable")
            ts = fnp.concatenate([fnp.reshape(sign * t0, (1,)), sign * tq[order]])
            out = _odeint(flat_fun, solver._replace(first_step=None), y, ts, *arg_vals)[0]
            out = fnp.transpose(out[1:][np.argsort(order)])
            return out[:, 0] if scalar else out
        res["sol"] = OdeSolution(evaluate, *sorted((t_span[0], t_span[1])))
    return res
