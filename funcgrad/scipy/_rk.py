"""The explicit Runge-Kutta pairs of ``scipy.integrate.solve_ivp``: RK23 (Bogacki-Shampine),
RK45 (Dormand-Prince) and DOP853 (Hairer's 8(5,3)), with SciPy's error norm, step-size
controller and first-step rule.

One attempted step (``attempt``) serves two drivers: ``solve_landing``, a
``fg.lax.while_loop`` per output time (so it runs under ``jit`` and ``vmap``), which
shortens the step that would pass an output time so as to land on it -- no interpolant is
needed, at the cost of a step per output time -- and ``step_times``, a Python loop on
concrete values that records where SciPy's own stepping (``t_eval=None``) puts its points.
"""
import math
from typing import Any, NamedTuple, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..lax import stop_gradient, while_loop


class Tableau(NamedTuple):
    name: str
    c: tuple        # nodes of the stages after the first (which is at 0)
    a: tuple        # their rows of the Butcher matrix
    b: tuple        # the weights of the propagated solution
    e: tuple        # error weights over the stages then f(t + h, y_new)
    e3: Optional[tuple]  # DOP853's second (3rd-order) error estimate
    order: int      # of the error estimate: steps scale by error ** (-1 / (order + 1))


_RK23 = Tableau("RK23", (1 / 2, 3 / 4), ((1 / 2,), (0.0, 3 / 4)), (2 / 9, 1 / 3, 4 / 9),
                (5 / 72, -1 / 12, -1 / 9, 1 / 8), None, 2)

_RK45 = Tableau(
    "RK45", (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0),
    ((1 / 5,), (3 / 40, 9 / 40), (44 / 45, -56 / 15, 32 / 9),
     (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
     (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656)),
    (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84),
    (-71 / 57600, 0.0, 71 / 16695, -71 / 1920, 17253 / 339200, -22 / 525, 1 / 40), None, 4)

# Hairer's DOP853 coefficients (Hairer, Norsett & Wanner, "Solving ODEs I"; the values
# SciPy's dop853_coefficients holds), the 12 stages of a step
_DOP853 = Tableau(
    "DOP853",
    (0.05260015195876773, 0.0789002279381516, 0.1183503419072274, 0.2816496580927726,
     1 / 3, 0.25, 0.3076923076923077, 0.6512820512820513, 0.6, 0.8571428571428571, 1.0),
    ((0.05260015195876773,),
     (0.0197250569845379, 0.0591751709536137),
     (0.02958758547680685, 0.0, 0.08876275643042054),
     (0.2413651341592667, 0.0, -0.8845494793282861, 0.924834003261792),
     (0.037037037037037035, 0.0, 0.0, 0.17082860872947386, 0.12546768756682242),
     (0.037109375, 0.0, 0.0, 0.17025221101954405, 0.06021653898045596, -0.017578125),
     (0.03709200011850479, 0.0, 0.0, 0.17038392571223998, 0.10726203044637328,
      -0.015319437748624402, 0.008273789163814023),
     (0.6241109587160757, 0.0, 0.0, -3.3608926294469414, -0.868219346841726,
      27.59209969944671, 20.154067550477894, -43.48988418106996),
     (0.47766253643826434, 0.0, 0.0, -2.4881146199716677, -0.590290826836843,
      21.230051448181193, 15.279233632882423, -33.28821096898486, -0.020331201708508627),
     (-0.9371424300859873, 0.0, 0.0, 5.186372428844064, 1.0914373489967295,
      -8.149787010746927, -18.52006565999696, 22.739487099350505, 2.4936055526796523,
      -3.0467644718982196),
     (2.273310147516538, 0.0, 0.0, -10.53449546673725, -2.0008720582248625,
      -17.9589318631188, 27.94888452941996, -2.8589982771350235, -8.87285693353063,
      12.360567175794303, 0.6433927460157636)),
    (0.054293734116568765, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003,
     -5.801203960010585, 0.3111643669578199, -0.1521609496625161, 0.20136540080403034,
     0.04471061572777259),
    (0.01312004499419488, 0.0, 0.0, 0.0, 0.0, -1.2251564463762044, -0.4957589496572502,
     1.6643771824549864, -0.35032884874997366, 0.3341791187130175, 0.08192320648511571,
     -0.022355307863886294, 0.0),
    (-0.18980075407240762, 0.0, 0.0, 0.0, 0.0, 4.450312892752409, 1.8915178993145003,
     -5.801203960010585, -0.4226823213237919, -0.1521609496625161, 0.20136540080403034,
     0.02265179219836082, 0.0),
    7)

METHODS = {"RK23": _RK23, "RK45": _RK45, "DOP853": _DOP853}


class Solver(NamedTuple):
    """What ``_odeint`` is asked to do (hashable: it is a nondiff argument).  ``method``
    None is odeint's Dormand-Prince with interpolation; ``atol`` a float or a tuple, one
    per state component."""
    method: Any  # a Tableau, _radau.RADAU, or None
    rtol: float
    atol: object
    mxstep: float
    max_step: float = math.inf
    first_step: Optional[float] = None


def _combine(coeffs, ks):
    out = None
    for c, k in zip(coeffs, ks):
        if c:
            out = c * k if out is None else out + c * k
    return out


def _dot(coeffs, ks):
    """``sum_i coeffs[i] ks[i]`` as SciPy's ``np.dot(K.T, coeffs)``: the same rounding, so
    that the error estimates, whose rounding matters at tight tolerances (1e-16 of the
    stages against 1e-10 of the solution), choose the same steps."""
    stacked = fnp.transpose(fnp.stack(list(ks[:len(coeffs)])))
    return fnp.matmul(stacked, np.asarray(coeffs, stacked.dtype))


def _rms(x):
    # (0 for a zero step -- as a loop differentiated through runs past its end -- with a
    # zero derivative, not sqrt's infinite one times 0)
    # (SciPy's ``norm(x) / sqrt(n)``, rounding included: see ``_dot``)
    ss = fnp.dot(x, x)
    return fnp.where(ss > 0, fnp.sqrt(fnp.where(ss > 0, ss, 1.0)), 0.0) / x.shape[-1] ** 0.5


def _power(x, p):
    # (SciPy raises a scalar: libm's pow, which differs in the last bit from NumPy's array
    # pow now and then -- enough to move a step, see ``_dot``)
    if isinstance(x, Tracer) or np.ndim(x):
        return x ** p
    return np.asarray(float(x) ** p, np.result_type(x))


def _atol(solver, dtype):
    return np.asarray(solver.atol, dtype) if isinstance(solver.atol, tuple) else solver.atol


def first_step(f, t0, y0, f0, span, solver):
    """SciPy's ``select_initial_step``: a step whose Euler error is about the tolerance,
    no longer than ``span`` (the whole interval) or ``max_step``; one evaluation of ``f``."""
    scale = _atol(solver, y0.dtype) + fnp.abs(y0) * solver.rtol
    d0, d1 = _rms(y0 / scale), _rms(f0 / scale)
    h0 = fnp.where(fnp.logical_or(d0 < 1e-5, d1 < 1e-5), 1e-6,
                   0.01 * d0 / fnp.where(d1 == 0, 1.0, d1))
    h0 = fnp.minimum(h0, fnp.where(span > 0, span, 1.0))  # (no step is taken on span 0)
    f1 = f(y0 + h0 * f0, t0 + h0)
    d2 = _rms((f1 - f0) / scale) / h0
    small = fnp.logical_and(d1 <= 1e-15, d2 <= 1e-15)
    h1 = fnp.where(small, fnp.maximum(1e-6, h0 * 1e-3), (0.01 / fnp.where(
        small, 1.0, fnp.maximum(d1, d2))) ** (1.0 / (solver.method.order + 1)))
    return fnp.minimum(fnp.minimum(100.0 * h0, h1), fnp.minimum(span, solver.max_step))


def _error_norm(tab, ks, h, y, y1, solver):
    scale = _atol(solver, y.dtype) + solver.rtol * fnp.maximum(fnp.abs(y), fnp.abs(y1))
    if tab.e3 is None:
        return _rms(_dot(tab.e, ks) * h / scale)
    # DOP853 blends its 5th- and 3rd-order estimates (Hairer's dop853.f, as SciPy)
    err5 = fnp.sum(fnp.square(_dot(tab.e, ks) / scale))
    err3 = fnp.sum(fnp.square(_dot(tab.e3, ks) / scale))
    denom = err5 + 0.01 * err3
    return fnp.where(denom == 0, 0.0, fnp.abs(h) * err5 / fnp.sqrt(
        fnp.where(denom == 0, 1.0, denom) * y.shape[-1]))


def stages(f, tab, t, y, fy, h):
    """``(y1, ks)``: one step of ``h`` from ``(t, y)`` (``fy = f(y, t)``); ``ks`` the stage
    derivatives, then ``f(y1, t + h)`` (the first stage of the next step)."""
    ks = [fy]
    for c, row in zip(tab.c, tab.a):
        ks.append(f(y + _dot(row, ks) * h, t + c * h))
    y1 = y + h * _dot(tab.b, ks)
    ks.append(f(y1, t + h))
    return y1, ks


def attempt(f, solver, t, y, fy, h_abs, rejected, target):
    """One try at a step from ``(t, y)`` towards ``target``: ``(accepted, t, y, f(t, y),
    next h_abs, rejected, too_small)`` after it.  A step that would pass ``target`` is
    shortened to end on it exactly."""
    tab = solver.method
    # The step size is a choice, not a function to differentiate: its derivative through the
    # controller is not small where a step is a sliver (a near miss of ``target`` followed
    # by a step of 1e-12), and the times it moves shift the solution by the local error
    # times that derivative -- O(1) wrong against the ODE's sensitivity when the loops are
    # differentiated through.  Held constant, a derivative through the steps is that of the
    # Runge-Kutta map at fixed times, accurate to the tolerances (the adjoint's, too).
    h_abs = fnp.minimum(stop_gradient(h_abs), solver.max_step)
    spacing = 10.0 * np.finfo(y.dtype).eps
    too_small = h_abs < spacing * fnp.abs(t)
    # (a step ending within rounding of ``target`` ends on it: the next would be too small)
    lands = t + h_abs >= target - spacing * fnp.abs(target)
    # (SciPy steps by ``(t + h) - t``, h rounded to the times' spacing)
    h = fnp.where(lands, target - t, (t + h_abs) - t)
    y1, ks = stages(f, tab, t, y, fy, h)
    f1 = ks[-1]
    ratio = _error_norm(tab, ks, h, y, y1, solver)
    ok = fnp.logical_and(ratio < 1.0, fnp.logical_not(too_small))
    scaled = 0.9 * _power(fnp.where(ratio == 0, 1.0, ratio), -1.0 / (tab.order + 1))
    grow = fnp.where(ratio == 0, 10.0, fnp.minimum(10.0, scaled))
    grow = fnp.where(rejected, fnp.minimum(1.0, grow), grow)
    factor = fnp.where(ok, grow, fnp.maximum(0.2, scaled))
    t1 = fnp.where(lands, target, t + h)
    return (ok, fnp.where(ok, t1, t), fnp.where(ok, y1, y), fnp.where(ok, f1, fy),
            fnp.abs(h) * factor, fnp.logical_not(ok), too_small)


def _evals_per_step(solver):
    return float(len(solver.method.b))


def solve_landing(f, y0, ts, solver):
    """``(ys, [nfev, status])`` of ``dy/dt = f(y, t)`` at the increasing times ``ts``,
    stepping onto each; rows after a step-size failure (status -1) are NaN."""
    t0 = ts[0]
    f0 = f(y0, t0)
    if solver.first_step is None:
        h = first_step(f, t0, y0, f0, ts[-1] - t0, solver)
        nfev = 2.0
    else:
        h = fnp.asarray(solver.first_step, y0.dtype)
        nfev = 1.0
    state = (fnp.asarray(0.0, y0.dtype), y0, f0, t0, h, fnp.asarray(False),
             fnp.asarray(False))  # (steps, y, f(t, y), t, h, rejected, failed)
    ys = [y0]
    for j in range(1, ts.shape[0]):
        target = ts[j]

        def cond(s, target=target):
            return fnp.logical_and(s[3] < target, fnp.logical_not(s[6]))

        def body(s, target=target):
            steps, y, fy, t, h, rejected, _ = s
            _, t, y, fy, h, rejected, small = attempt(f, solver, t, y, fy, h, rejected,
                                                      target)
            return steps + 1.0, y, fy, t, h, rejected, small

        state = while_loop(cond, body, state)
        ys.append(fnp.where(state[6], np.nan, state[1]))
    info = fnp.stack([nfev + state[0] * _evals_per_step(solver),
                      -fnp.where(state[6], 1.0, 0.0)])
    return fnp.stack(ys), fnp.astype(info, y0.dtype)


def step_times(f, y0, t0, t1, solver, on_step=None):
    """``(times, nfev, failed)``: the times SciPy's stepping from ``t0`` to ``t1`` (> t0)
    accepts, ``t0`` and, unless the step size failed, ``t1`` included; ``f`` and the
    values are concrete.  ``on_step(t_old, y_old, f_old, t, y)``, if given, sees each
    accepted step and ends the stepping after it by returning True (a terminal event)."""
    f0 = f(y0, t0)
    nfev = 1
    if solver.first_step is None:
        h = first_step(f, t0, y0, f0, t1 - t0, solver)
        nfev += 1
    else:
        h = solver.first_step
    times, t, y, fy, rejected = [t0], t0, y0, f0, False
    while t < t1:
        t_old, y_old, f_old = t, y, fy
        ok, t, y, fy, h, rejected, small = attempt(f, solver, t, y, fy, h, rejected, t1)
        if bool(small):
            break
        nfev += len(solver.method.b)
        if bool(ok):
            times.append(t)
            if on_step is not None and on_step(t_old, y_old, f_old, t, y):
                break
    times = np.asarray(times, dtype=np.result_type(y0.dtype, np.float32))
    return times, nfev, bool(small) if t < t1 else False


def run_stepper(stepper, on_step=None, with_f_old=False):
    """``(steps, nfev, njev, nlu, failed)``: an implicit solver's stepper (Radau's, BDF's,
    LSODA's) stepped to its end; ``on_step(t_old, y_old, f_old, t, y, piece)`` sees each
    accepted step (``f_old`` the slope at its start where ``with_f_old``, else None: the
    step's own interpolant does without it) and ends the stepping by returning True."""
    steps = []
    while stepper.t < stepper.t1:
        f_old = stepper.fy if with_f_old else None
        step = stepper.step()
        if step is None:
            return steps, stepper.nfev, stepper.njev, stepper.nlu, True
        steps.append(step)
        if on_step is not None and on_step(step.t_old, step.y_old, f_old, step.t_new,
                                           step.y_new, step.on):
            break
    return steps, stepper.nfev, stepper.njev, stepper.nlu, False
