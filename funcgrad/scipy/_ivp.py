"""``solve_ivp``: SciPy's initial-value solver (its explicit Runge-Kutta methods), its
solution differentiated by ``odeint``'s adjoint (``_ode_adjoint``)."""
import math
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..api import grad
from ..core import Tracer, is_special
from ..jacobians import jacfwd
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import ArrayLike
from ._captured import lift_captures
from ._ode_adjoint import _odeint
from ._dense import (EventLog, OdeSolution, RadauSolution, event_time, prepare_events,
                     radau_event_time, replay)
from ._ode_solvers import OdeSolver
from ._bdf import BDF_METHOD, bdf_steps
from ._radau import RADAU, radau_steps
from ._integrate3_lsoda import LSODA_METHOD, lsoda_steps
from ._rk import METHODS, Solver, step_times
from ._rich_result import RichResult

_METHODS = {**METHODS, "Radau": RADAU, "BDF": BDF_METHOD, "LSODA": LSODA_METHOD}
# (stepped on concrete values)
_STIFF = {"Radau": radau_steps, "BDF": bdf_steps, "LSODA": lsoda_steps}
_MESSAGES = {0: "The solver successfully reached the end of the integration interval.",
             -1: "Required step size is less than spacing between numbers.",
             1: "A termination event occurred."}


class OdeResult(RichResult):
    """The answer of :func:`solve_ivp`, as SciPy's: a dict whose keys are also attributes
    (``t``, ``y``, ``sol``, ``t_events``, ``y_events``, ``nfev``, ``njev``, ``nlu``,
    ``status``, ``message``, ``success``)."""


def _concrete(x, why):
    """``x`` as a NumPy value, for ``why`` (its derivative, if any, is not wanted there)."""
    x = stop_gradient(x)
    if isinstance(x, Tracer):
        raise TypeError(f"solve_ivp: {why} needs concrete values, but they are traced "
                        f"(under jit or vmap)")
    return np.asarray(x)


_NO_T_EVAL = ("solve_ivp without t_eval (the number of output times is the solver's "
              "choice; pass t_eval under jit and vmap)")
_NEEDS_STEPS = ("solve_ivp with dense_output=True or events (the steps and the events are "
                "found on concrete values; under jit and vmap pass t_eval, with "
                "dense_output=False and events=None)")


def _method_name(method):
    """A method named by its solver class (funcgrad's or SciPy's of the same name) as its
    name; a user's own ``OdeSolver`` subclass is refused (its steps are not ours to
    differentiate)."""
    if not isinstance(method, type):
        return method
    name = method.__name__
    known = name in _METHODS
    if known and (issubclass(method, OdeSolver) or
                  str(method.__module__).startswith("scipy.integrate")):
        return name
    raise NotImplementedError(
        f"solve_ivp: method={name} (an OdeSolver class of your own) is not supported: "
        f"funcgrad differentiates its own steppers only; pass one of 'RK23', 'RK45', "
        f"'DOP853', 'Radau', 'BDF', 'LSODA' (or their classes), or step the class yourself")


def _check(method, y0, t_span, max_step, first_step, rtol, atol):
    if not isinstance(method, str) or method not in _METHODS:
        raise ValueError(f"`method` must be one of {{'RK23', 'RK45', 'DOP853', 'Radau', "
                         f"'BDF', 'LSODA'}}, got {method!r}")
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


def _radau_event(event, s_root, y_root, sign, flat_fun, solver, y, s0, arg_vals, a_c,
                 n_user):
    """An event time on a Radau solve (``_dense.radau_event_time``): the event function at
    the root, on the solution there by the adjoint-backed solve, and its concrete slope in
    time (its derivatives in ``t`` and ``y`` along ``dy/ds``)."""
    # (values the event function captures become arguments, so that the rule reaches them)
    lifted, consts = lift_captures(
        lambda t, yy, *user: event(t, yy, *user),
        (fnp.asarray(sign * s_root, y.dtype), y, *arg_vals[:n_user]), "solve_ivp")
    n_vals = len(arg_vals)

    def residual(y0, start, *rest):
        vals, captured = rest[:n_vals], rest[n_vals:]
        at_root = _odeint(flat_fun, solver._replace(first_step=None), y0,
                          fnp.stack([start, fnp.asarray(s_root, y0.dtype)]), *vals)[0][1]
        return fnp.reshape(asarray(lifted(sign * s_root, at_root, *vals[:n_user],
                                          *captured)), ())

    captured_c = [stop_gradient(c) for c in consts]
    g_t, g_y = grad(lambda t, yy: fnp.reshape(asarray(lifted(t, yy, *a_c[:n_user],
                                                             *captured_c)), ()),
                    argnums=(0, 1))(sign * s_root, y_root)
    slope = float(sign * g_t + np.dot(g_y, np.asarray(stop_gradient(
        flat_fun(y_root, s_root, *a_c)))))
    return radau_event_time(residual, s_root, slope, y, fnp.reshape(s0, ()), *arg_vals,
                            *consts)


def solve_ivp(fun: Callable[..., ArrayLike], t_span: Any, y0: ArrayLike,
              method: Any = "RK45", t_eval: Optional[ArrayLike] = None,
              dense_output: bool = False, events: Any = None, vectorized: bool = False,
              args: Optional[tuple] = None, rtol: float = 1e-3, atol: Any = 1e-6,
              max_step: float = math.inf, first_step: Optional[float] = None) -> OdeResult:
    """Solve ``dy/dt = fun(t, y, *args)``, ``y(t_span[0]) = y0``, as
    ``scipy.integrate.solve_ivp`` with its explicit methods 'RK45' (Dormand-Prince),
    'RK23' (Bogacki-Shampine) and 'DOP853' and its implicit 'Radau' and 'BDF', the same
    error norm and step-size control.
    Returns an ``OdeResult`` with ``t``, ``y`` (shape ``(n, len(t))``), ``success``,
    ``status``, ``message``, ``nfev``, with ``dense_output=True`` ``sol`` and with
    ``events`` ``t_events`` and ``y_events``.

    Differentiable in ``y0``, ``args``, values ``fun`` captures, ``t_eval`` and the ends of
    ``t_span``: in reverse mode by ``odeint``'s adjoint method, which integrates the
    adjoint system back with the same method and tolerances, in forward mode (``jvp``,
    ``jacfwd``, ``hessian``) by integrating the sensitivity equations with the state.  The
    derivative is that of the ODE's solution, accurate to ``rtol``/``atol`` -- the
    adaptive step choice is not differentiated (it is not smooth), and without ``t_eval``
    the interior step times are constants.  Without ``t_eval`` the times are SciPy's (the
    same steps, to rounding); with it each step that would pass an output time ends on it
    (SciPy interpolates), so the values agree with SciPy's to the tolerances, and it runs
    under ``jit`` and ``vmap`` (the ends of ``t_span`` concrete).

    ``sol(t)`` is SciPy's interpolant of each step (RK23's cubic, RK45's quartic,
    DOP853's 7th-order) on SciPy's steps, extrapolating outside them as SciPy's; it is
    differentiated as the interpolant of the steps taken again at the same times on the
    differentiated values (accurate to the tolerances, in ``t`` too).  ``events``:
    functions ``event(t, y, *args)`` with SciPy's ``terminal`` (True or a count) and
    ``direction`` attributes; a root is found on the step's interpolant, a terminal event
    ends ``t``, ``y`` and ``sol`` at its time (status 1), and event times are
    differentiated by the implicit function theorem, ``dt_e = -(dg/dp) / (dg/dt along the
    solution)`` (``y_events`` then by the chain rule).  ``dense_output`` and ``events``
    need concrete values (not under ``jit`` or ``vmap``).

    ``method='Radau'`` (implicit, order 5, for stiff problems) steps as SciPy's Radau with
    the exact Jacobian by ``jacfwd`` (SciPy's default is finite differences: the same
    answer to the tolerances; given the exact ``jac``, SciPy's steps), on concrete values:
    under ``jit`` and ``vmap`` (with ``t_eval``) as a host callback, one solve per example
    under ``vmap``.  With ``t_eval`` it interpolates as SciPy's, and its ``sol`` is SciPy's
    collocation polynomials, on which events are found.  Its gradients (``sol``'s and the
    event times' included, the latter by the implicit function theorem on the adjoint's
    solution) are the adjoint's, integrated back by Radau along the forward solution, and
    its forward mode the sensitivity equations': first order only, a second derivative
    raises NotImplementedError.  ``method='BDF'`` (implicit, variable order 1 to 5) is
    the same in every respect but its steps, SciPy's BDF (``_bdf``), and its adjoint,
    integrated back by Radau; so is ``method='LSODA'`` (ODEPACK's Adams/BDF switching),
    whose steps are SciPy's own (``_integrate3_lsoda``: ODEPACK runs them).  ``method``
    may be given as its class (funcgrad's ``RK45``... or SciPy's of the same name); an
    ``OdeSolver`` subclass of one's own raises NotImplementedError.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> sol = fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]),
    ...                     t_eval=[1.0], args=(2.0,), rtol=1e-8, atol=1e-10)
    >>> round(float(sol.y[0, -1]), 7), sol.success  # e^-2
    (0.1353353, True)
    >>> end = lambda k: fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]),
    ...                               args=(k,), rtol=1e-8, atol=1e-10).y[0, -1]
    >>> round(float(fg.grad(end)(2.0)), 6)  # d/dk e^-k = -e^-k
    -0.135335
    >>> round(float(fg.jvp(end, (2.0,), (1.0,))[1]), 6)  # forward mode: the same
    -0.135335
    >>> def half(t, y, k):  # y = e^(-k t) falls to 0.5 at t = log(2) / k
    ...     return y[0] - 0.5
    >>> half.terminal = True
    >>> first = lambda k: fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 5.0), np.array([1.0]),
    ...                                 args=(k,), events=half, rtol=1e-8,
    ...                                 atol=1e-10).t_events[0][0]
    >>> round(float(first(2.0)), 7), round(float(fg.grad(first)(2.0)), 6)  # -log(2) / k^2
    (0.3465736, -0.173287)
    >>> stiff = lambda k: fsi.solve_ivp(lambda t, y, k: -k * y, (0.0, 1.0), np.array([1.0]),
    ...                                 method="Radau", args=(k,), t_eval=[1.0],
    ...                                 rtol=1e-10, atol=1e-14).y[0, 0]
    >>> k = 20.0  # y(1) = e^-k, dy(1)/dk = -e^-k
    >>> round(float(stiff(k) / np.exp(-k)), 6), round(float(fg.grad(stiff)(k) / -np.exp(-k)), 6)
    (1.0, 1.0)
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
    method = _method_name(method)
    y = asarray(y0)
    y = fnp.astype(y, np.float64) if y.dtype.kind in "biu" else y
    _check(method, y, t_span, max_step, first_step, rtol, atol)
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
    solver = Solver(_METHODS[method], float(rtol), atol_opt, math.inf, float(max_step),
                    None if first_step is None else float(first_step))
    y = fnp.astype(y, dtype)
    flat_fun, consts = lift_captures(flat_fun, (y, sign * t0, *arg_vals), "solve_ivp")
    arg_vals = arg_vals + consts
    s_eval: Any = None
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
        s_eval = sign * t_out
    status: Any = None
    counts: list = []
    steps: Any = None
    log: Any = None
    if t_eval is None or dense_output or events is not None:
        why = _NO_T_EVAL if t_eval is None else _NEEDS_STEPS
        y_c = _concrete(y, why)
        a_c = [_concrete(a, why) for a in arg_vals]
        s0, s1 = sign * _concrete(t0, why), sign * _concrete(t1, why)

        def f_c(yy, s):
            return np.asarray(stop_gradient(flat_fun(yy, s, *a_c)))

        if events is not None:
            prepared = prepare_events(events)

            def g_c(i, t, yy):
                value = prepared[0][i](t, yy, *a_c[:len(args)])
                return float(np.asarray(stop_gradient(asarray(value))).reshape(()))

            log = EventLog(prepared, g_c, f_c, solver.method, y_c, s0, sign, dense_output)
        if method in _STIFF:
            def jac_c(yy, s):
                return np.asarray(stop_gradient(jacfwd(lambda v: flat_fun(v, s, *a_c))(yy)))

            taken, nfev, *counts, failed = _STIFF[method](f_c, jac_c, y_c, s0, s1, solver,
                                                          log)
            times = np.asarray([s0] + [st.t_new for st in taken], dtype)
        else:
            times, nfev, failed = step_times(f_c, y_c, s0, s1, solver, log)
        if log is not None:
            nfev += log.extra_nfev
        elif dense_output and method == "DOP853":
            nfev += 3 * (len(times) - 1)
        status = -1 if failed else 1 if log is not None and log.terminal is not None else 0
        # the ends stay differentiable; the interior step times are the solver's choice
        steps = [fnp.reshape(sign * t0, ())] + [fnp.asarray(v, dtype) for v in times[1:]]
        if status == 0 and len(times) > 1 and times[-1] == s1:
            steps[-1] = fnp.reshape(sign * t1, ())
    segments = t_found = radau_sol = None
    if method not in _STIFF and (dense_output or (log is not None and log.found)):
        segments = replay(lambda yy, s: flat_fun(yy, s, *arg_vals), solver.method, y, steps)
    if log is not None:
        user_args = arg_vals[:len(args)]
        if method in _STIFF:
            t_found = [_radau_event(prepared[0][e], s_root, taken[k].at(s_root), sign,
                                    flat_fun, solver, y, sign * t0, arg_vals, a_c, len(args))
                       for e, s_root, k in log.found]
        else:
            t_found = [event_time(lambda s, yy, e=e: prepared[0][e](sign * s, yy, *user_args),
                                  segments[k], s_root, dtype) for e, s_root, k in log.found]
    if status == 1:  # (a terminal event: the solution ends at its time, SciPy's sol(t_e))
        steps = steps[:-1] + [t_found[-1]]
    if method in _STIFF and (dense_output or log is not None):
        differentiated = any(isinstance(v, Tracer) or is_special(v) for v in (y, t0, *arg_vals))

        def adjoint(s_sorted):  # (the solution at later times, by the adjoint-backed solve)
            times = fnp.concatenate([fnp.reshape(sign * t0, (1,)), s_sorted])
            return _odeint(flat_fun, solver._replace(first_step=None), y, times,
                           *arg_vals)[0][1:]

        radau_sol = RadauSolution(sign * fnp.stack(steps), taken, sign, adjoint,
                                  differentiated)

    def solution_at(k, s):  # (on the interpolant of step k)
        if radau_sol is not None:
            return radau_sol(sign * s)
        return segments[k](fnp.reshape(s, (1,)))[:, 0]

    if t_eval is None:
        s_out = fnp.stack(steps)
        last = [solution_at(len(steps) - 2, steps[-1])] if status == 1 else []
        known = len(steps) - len(last)
        ys = _odeint(flat_fun, solver, y, s_out[:known], *arg_vals)[0] if known > 1 else \
            fnp.reshape(y, (1, n))
        ys = fnp.concatenate([ys, fnp.stack(last)]) if last else ys
        info = fnp.asarray([float(nfev), float(status)] + [float(c) for c in counts], dtype)
    else:
        if status == 1:  # (the times of t_eval up to the terminal event)
            s_eval = s_eval[:int(np.sum(np.asarray(stop_gradient(s_eval)) <= float(
                np.asarray(stop_gradient(steps[-1])))))]
        s_all = fnp.concatenate([fnp.reshape(sign * t0, (1,)), s_eval])
        if s_eval.shape[0]:
            ys, info = _odeint(flat_fun, solver, y, s_all, *arg_vals)
            ys = ys[1:]
        else:
            ys, info = fnp.zeros((0, n), dtype), fnp.zeros(2, dtype)
        if status is not None:
            info = fnp.concatenate([info[:1], fnp.asarray([float(status)], dtype), info[2:]])
        s_out = s_eval
    t_out = sign * s_out
    ys = fnp.transpose(ys)
    res = OdeResult(t=t_out, y=ys, sol=None, t_events=None, y_events=None, nfev=info[0],
                    njev=0, nlu=0, status=info[1], message=None, success=None)
    info_c = stop_gradient(info)
    if not isinstance(info_c, Tracer):
        status = int(np.asarray(info_c)[1])
        if np.asarray(info_c).shape[0] > 2:  # (Radau's Jacobians and factorizations)
            res.update(njev=int(np.asarray(info_c)[2]), nlu=int(np.asarray(info_c)[3]))
        res.update(nfev=int(np.asarray(info_c)[0]), status=status,
                   message=_MESSAGES[status], success=status >= 0)
        if status < 0:  # (as SciPy: only the times reached)
            keep = int(np.sum(np.isfinite(np.asarray(stop_gradient(ys))[0])))
            res.update(t=res.t[:keep], y=res.y[:, :keep])
    else:
        res.update(success=info[1] >= 0)
    if log is not None:
        per_event = [[i for i, found in enumerate(log.found) if found[0] == e]
                     for e in range(len(prepared[0]))]
        res.update(
            t_events=[sign * fnp.stack([t_found[i] for i in idx]) if idx else np.array([])
                      for idx in per_event],
            y_events=[fnp.stack([solution_at(log.found[i][2], t_found[i]) for i in idx])
                      if idx else np.array([]) for idx in per_event])
    if dense_output and method in _STIFF:
        res["sol"] = radau_sol
    elif dense_output:
        res["sol"] = OdeSolution(sign * fnp.stack(steps), segments, sign)
    return res
