"""``solve_ivp(method='Radau')``: the 3-stage Radau IIA method of order 5 for stiff
problems, with SciPy's simplified Newton iteration (the collocation system decoupled by
the eigenvectors of the Butcher matrix: one real and one complex linear system per
iteration), its error estimate, its predictive (Gustafsson) step-size controller and its
rules for refreshing the Jacobian.  The Jacobian is funcgrad's (``jacfwd``, exact) where
SciPy's default is finite differences, so steps agree with SciPy's given the exact ``jac``
to rounding, and with its default to the tolerances.

The stepping runs on concrete NumPy values (it is not traced): ``_ode_adjoint._odeint``
calls it as the primal of its ``custom_vjp``, whose backward integrates the adjoint system
with Radau too, so derivatives are the adjoint's (accurate to the tolerances).
"""
from typing import NamedTuple

import numpy as np

from ._rk import first_step, run_stepper

_S6 = 6 ** 0.5
_C = np.array([(4 - _S6) / 10, (4 + _S6) / 10, 1.0])  # (the collocation nodes)
_E = np.array([-13 - 7 * _S6, -13 + 7 * _S6, -1.0]) / 3
# The Butcher matrix A = T diag(mu_real, mu_complex, conj) T^-1; its inverse's eigenvalues
_MU_REAL = 3 + 3 ** (2 / 3) - 3 ** (1 / 3)
_MU_COMPLEX = 3 + 0.5 * (3 ** (1 / 3) - 3 ** (2 / 3)) - 0.5j * (3 ** (5 / 6) + 3 ** (7 / 6))
_T = np.array([[0.09443876248897524, -0.14125529502095421, 0.03002919410514742],
               [0.25021312296533332, 0.20412935229379994, -0.38294211275726192],
               [1.0, 1.0, 0.0]])
_TI = np.array([[4.17871859155190428, 0.32768282076106237, 0.52337644549944951],
                [-4.17871859155190428, -0.32768282076106237, 0.47662355450055044],
                [0.50287263494578682, -2.57192694985560522, 0.59603920482822492]])
# the collocation polynomial through the stages: y(t_old + x h) = y_old + Z^T P [x, x^2, x^3]
_P = np.array([[13 / 3 + 7 * _S6 / 3, -23 / 3 - 22 * _S6 / 3, 10 / 3 + 5 * _S6],
               [13 / 3 - 7 * _S6 / 3, -23 / 3 + 22 * _S6 / 3, 10 / 3 - 5 * _S6],
               [1 / 3, -8 / 3, 10 / 3]])
_NEWTON_MAXITER = 6


class RadauMethod(NamedTuple):
    """``Solver.method`` for Radau (``order`` is that of the error estimate)."""
    name: str = "Radau"
    order: int = 3


RADAU = RadauMethod()


def _norm(x):
    return np.linalg.norm(x) / x.size ** 0.5


def _newton(f, t, y, h, z0, scale, tol, inv_real, inv_complex):
    """SciPy's simplified Newton iteration on the collocation system: ``(converged,
    iterations, Z, rate)``, ``Z`` the stage increments ``y(t + c h) - y``."""
    w = _TI @ z0
    z = z0
    rate, dw_norm_old = None, None
    for k in range(_NEWTON_MAXITER):
        fz = np.stack([f(y + z[i], t + _C[i] * h) for i in range(3)])
        if not np.all(np.isfinite(fz)):
            return False, k + 1, z, rate
        dw_real = inv_real @ (fz.T @ _TI[0] - _MU_REAL / h * w[0])
        dw_complex = inv_complex @ (fz.T @ (_TI[1] + 1j * _TI[2])
                                    - _MU_COMPLEX / h * (w[1] + 1j * w[2]))
        dw = np.stack([dw_real, dw_complex.real, dw_complex.imag])
        dw_norm = _norm(dw / scale)
        if dw_norm_old is not None:
            rate = dw_norm / dw_norm_old
            # (diverging, or too slow to converge in the iterations left)
            if rate >= 1 or rate ** (_NEWTON_MAXITER - k) / (1 - rate) * dw_norm > tol:
                return False, k + 1, z, rate
        w = w + dw
        z = _T @ w
        if dw_norm == 0 or rate is not None and rate / (1 - rate) * dw_norm < tol:
            return True, k + 1, z, rate
        dw_norm_old = dw_norm
    return False, _NEWTON_MAXITER, z, rate


def _factor(h_abs, h_abs_old, err, err_old):
    """Gustafsson's predictive controller (Hairer & Wanner II, IV.8), as SciPy's."""
    if err_old is None or h_abs_old is None or err == 0:
        mult = 1.0
    else:
        mult = h_abs / h_abs_old * (err_old / err) ** 0.25
    with np.errstate(divide="ignore"):
        return min(1.0, mult) * err ** -0.25


class Step(NamedTuple):
    t_old: float
    t_new: float  # (not t_old + h, which may differ from it in the last bit)
    h: float
    y_old: np.ndarray
    y_new: np.ndarray
    q: np.ndarray  # (n, 3): y(t_old + x h) = y_old + q [x, x^2, x^3]

    def on(self, ts):
        """The interpolant at the 1-d times ``ts``: shape ``(n, len(ts))``."""
        return np.stack([self.at(t) for t in ts], 1)

    def at(self, t):
        x = (t - self.t_old) / self.h
        return (self.y_old + self.q @ np.array([x, x * x, x * x * x])).astype(
            self.y_old.dtype)


class RadauStepper:
    """SciPy's Radau stepping of ``dy/dt = f(y, t)`` from ``t0`` towards ``t1`` (> t0) on
    concrete values, one accepted step per ``step()``; ``jac(y, t)`` the Jacobian, or an
    array for a constant one (never refreshed, not counted in ``njev``, as SciPy's).  Its
    state between steps (step size, controller history, Jacobian and factorizations, the
    last collocation polynomial) is SciPy's."""

    def __init__(self, f, jac, y0, t0, t1, solver):
        self.f, self.jac, self.t1, self.solver = f, jac, float(t1), solver
        self.dtype = dtype = y0.dtype
        self.atol = np.asarray(solver.atol, dtype) if isinstance(solver.atol, tuple) \
            else solver.atol
        eps = np.finfo(dtype).eps
        self.newton_tol = max(10 * eps / solver.rtol, min(0.03, solver.rtol ** 0.5))
        self.t, self.y = float(t0), y0
        self.fy = np.asarray(f(y0, self.t), dtype)
        self.constant = not callable(jac)
        self.nfev, self.njev, self.nlu = 1, 0 if self.constant else 1, 0
        if solver.first_step is None:
            self.h_abs = float(first_step(f, self.t, y0, self.fy, self.t1 - self.t,
                                          solver._replace(method=RADAU)))
            self.nfev += 1
        else:
            self.h_abs = float(solver.first_step)
        self.jacobian = np.asarray(jac if self.constant else jac(y0, self.t), dtype)
        self.current_jac = True
        self.h_abs_old = self.err_old = None
        self.invs = None
        self.last = None  # (the last accepted Step: its polynomial predicts the stages)

    def step(self):
        """The next accepted ``Step``, or None where the step size fell below the spacing
        of the times (SciPy's failure)."""
        f, jac, solver, dtype = self.f, self.jac, self.solver, self.dtype
        t, y, fy, h_abs = self.t, self.y, self.fy, self.h_abs
        h_abs_start = h_abs  # (SciPy's previous step size: before clipping and rejections)
        atol, rtol = self.atol, solver.rtol
        eye = np.eye(y.shape[0])
        min_step = 10 * abs(np.nextafter(t, np.inf) - t)
        hist = (self.h_abs_old, self.err_old)
        if h_abs > solver.max_step or h_abs < min_step:
            h_abs, hist = min(max(h_abs, min_step), solver.max_step), (None, None)
        rejected = False
        while True:
            if h_abs < min_step:
                self.h_abs = h_abs
                return None
            t_new = min(t + h_abs, self.t1)
            h = t_new - t
            h_abs = h
            # (the previous step's collocation polynomial predicts the stages)
            z0 = np.zeros((3, y.shape[0]), dtype) if self.last is None else \
                np.stack([self.last.at(t + c * h) for c in _C]) - y
            scale = atol + np.abs(y) * rtol
            while True:
                if self.invs is None:
                    self.invs = (np.linalg.inv(_MU_REAL / h * eye - self.jacobian),
                                 np.linalg.inv(_MU_COMPLEX / h * eye - self.jacobian))
                    self.nlu += 2
                converged, iters, z, rate = _newton(f, t, y, h, z0, scale, self.newton_tol,
                                                    *self.invs)
                self.nfev += 3 * iters
                if converged or self.current_jac:
                    break
                self.jacobian = np.asarray(jac(y, t), dtype)
                self.current_jac, self.invs = True, None
                self.njev += 1
            if not converged:
                h_abs, self.invs = 0.5 * h_abs, None
                continue
            y_new = (y + z[-1]).astype(dtype)
            ze = z.T @ _E / h
            error = self.invs[0] @ (fy + ze)
            scale = atol + np.maximum(np.abs(y), np.abs(y_new)) * rtol
            err = _norm(error / scale)
            safety = 0.9 * (2 * _NEWTON_MAXITER + 1) / (2 * _NEWTON_MAXITER + iters)
            if rejected and err > 1:  # (Hairer's improved estimate after a rejection)
                error = self.invs[0] @ (np.asarray(f(y + error, t), dtype) + ze)
                self.nfev += 1
                err = _norm(error / scale)
            if err <= 1:
                break
            h_abs *= max(0.2, safety * _factor(h_abs, hist[0], err, hist[1]))
            self.invs, rejected = None, True
        # (a Newton iteration that converged slowly asks for a fresh Jacobian)
        refresh = not self.constant and iters > 2 and rate > 1e-3
        factor = min(10.0, safety * _factor(h_abs, hist[0], err, hist[1]))
        if not refresh and factor < 1.2:
            factor = 1.0
        else:
            self.invs = None
        f_new = np.asarray(f(y_new, t_new), dtype)
        self.nfev += 1
        if refresh:
            self.jacobian, self.current_jac = np.asarray(jac(y_new, t_new), dtype), True
            self.njev += 1
        elif not self.constant:
            self.current_jac = False
        self.last = Step(t, t_new, h, y, y_new, z.T @ _P)
        self.h_abs_old, self.err_old = h_abs_start, err
        self.h_abs = h_abs * factor
        self.t, self.y, self.fy = t_new, y_new, f_new
        return self.last


def radau_steps(f, jac, y0, t0, t1, solver, on_step=None):
    """``(steps, nfev, njev, nlu, failed)``: SciPy's Radau stepping of ``dy/dt = f(y, t)``
    from ``t0`` to ``t1`` (> t0) on concrete values; ``jac(y, t)`` the Jacobian.
    ``on_step(t_old, y_old, f_old, t, y, piece)`` sees each accepted step (``piece`` its
    interpolant on 1-d times) and ends the stepping by returning True."""
    return run_stepper(RadauStepper(f, jac, y0, t0, t1, solver), on_step, True)


def radau_solve(f, jac, y0, ts, solver, stepping=radau_steps):
    """``(ys, [nfev, status, njev, nlu])`` at the increasing times ``ts``: SciPy's steps from
    ``ts[0]`` to ``ts[-1]`` (Radau's, or those of another ``stepping`` with its
    signature: ``_bdf.bdf_steps``), interpolated (exact at step ends); rows after a
    step-size failure NaN."""
    steps, nfev, njev, nlu, failed = stepping(f, jac, y0, ts[0], ts[-1], solver)
    ends = np.array([s.t_new for s in steps])
    ys = [y0]
    for t in ts[1:]:
        k = int(np.searchsorted(ends, t, side="left"))
        if k == len(steps):
            ys.append(np.full_like(y0, np.nan))
        elif t == ends[k]:
            ys.append(steps[k].y_new)
        else:
            ys.append(steps[k].at(t))
    return np.stack(ys), np.array([nfev, -1.0 if failed else 0.0, njev, nlu], y0.dtype)
