"""``solve_ivp(method='BDF')``: SciPy's variable-order (1 to 5) backward differentiation
formulas for stiff problems, in their NDF form (Shampine and Reichelt's ``kappa``), with a
quasi-constant step size: the solution is held as its backward differences ``D``, which
are rescaled when the step changes; a simplified Newton iteration solves each step's
implicit equation, and after ``order + 1`` equal steps the order moves to whichever of
``order - 1``, ``order``, ``order + 1`` allows the longest step.

As ``_radau``: concrete NumPy values, forwards in time (the caller maps a backwards
integration to ``s = -t``), the exact Jacobian from the caller; the matrix of the Newton
iteration is inverted once per factorization (SciPy's ``lu_factor``), which rounds
differently in the last bits only.  ``_ode_adjoint`` differentiates a BDF solve by the
adjoint integrated back with Radau (the derivative of the ODE's solution, to the
tolerances, whichever stiff method stepped it).
"""
from typing import NamedTuple

import numpy as np

from ._rk import first_step, run_stepper

_MAX_ORDER = 5
_NEWTON_MAXITER = 4
_KAPPA = np.array([0.0, -0.1850, -1 / 9, -0.0823, -0.0415, 0.0])
_GAMMA = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, _MAX_ORDER + 1))])
_ALPHA = (1.0 - _KAPPA) * _GAMMA
_ERROR_CONST = _KAPPA * _GAMMA + 1.0 / np.arange(1, _MAX_ORDER + 2)


class BdfMethod(NamedTuple):
    """``Solver.method`` for BDF (``order`` is that of SciPy's first-step rule)."""
    name: str = "BDF"
    order: int = 1


BDF_METHOD = BdfMethod()


def _norm(x):
    return np.linalg.norm(x) / x.size ** 0.5


def _rescale(order, factor):
    """The matrix taking the differences of the interpolating polynomial on steps of
    ``h`` to those on steps of ``factor * h`` (Shampine and Reichelt)."""
    i = np.arange(1, order + 1)[:, None]
    j = np.arange(1, order + 1)
    m = np.zeros((order + 1, order + 1))
    m[1:, 1:] = (i - 1 - factor * j) / i
    m[0] = 1
    return np.cumprod(m, axis=0)


def _change_d(d, order, factor):
    ru = _rescale(order, factor).dot(_rescale(order, 1))
    d[:order + 1] = np.dot(ru.T, d[:order + 1])


class BdfStep(NamedTuple):
    """An accepted step and the interpolating polynomial SciPy's dense output gives it."""
    t_old: float
    t_new: float
    h: float      # (the step size at the end of the step, after any change of order)
    y_old: np.ndarray
    y_new: np.ndarray
    order: int
    d: np.ndarray  # (order + 1, n): the differences

    def at(self, t):
        x = (t - (self.t_new - self.h * np.arange(self.order))) / (
            self.h * (1 + np.arange(self.order)))
        return (np.dot(self.d[1:].T, np.cumprod(x)) + self.d[0]).astype(self.y_old.dtype)

    def on(self, ts):
        """The interpolant at the 1-d times ``ts``: shape ``(n, len(ts))``."""
        return np.stack([self.at(t) for t in ts], 1)


class BdfStepper:
    """SciPy's BDF stepping of ``dy/dt = f(y, t)`` from ``t0`` towards ``t1`` (> t0) on
    concrete values, one accepted step per ``step()``; ``jac(y, t)`` the Jacobian, or an
    array for a constant one (never refreshed, not counted in ``njev``, as SciPy's)."""

    def __init__(self, f, jac, y0, t0, t1, solver):
        self.f, self.jac, self.t1, self.solver = f, jac, float(t1), solver
        self.dtype = dtype = y0.dtype
        self.atol = np.asarray(solver.atol, dtype) if isinstance(solver.atol, tuple) \
            else solver.atol
        self.newton_tol = max(10 * np.finfo(dtype).eps / solver.rtol,
                              min(0.03, solver.rtol ** 0.5))
        self.t, self.y = float(t0), y0
        fy = np.asarray(f(y0, self.t), dtype)
        self.nfev, self.nlu = 1, 0
        if solver.first_step is None:
            self.h_abs = float(first_step(f, self.t, y0, fy, self.t1 - self.t,
                                          solver._replace(method=BDF_METHOD)))
            self.nfev += 1
        else:
            self.h_abs = float(solver.first_step)
        self.constant = not callable(jac)
        self.njev = 0 if self.constant else 1
        self.jacobian = np.asarray(jac if self.constant else jac(y0, self.t), dtype)
        self.d = np.zeros((_MAX_ORDER + 3, y0.shape[0]), dtype)
        self.d[0], self.d[1] = y0, fy * self.h_abs
        self.order, self.n_equal_steps, self.inverse = 1, 0, None
        self.eye = np.eye(y0.shape[0], dtype=dtype)

    def _newton(self, t_new, y_predict, c, psi, scale):
        """SciPy's simplified Newton iteration on a step's implicit equation:
        ``(converged, iterations, y_new, d)``, ``d`` the correction to the prediction."""
        d = 0
        y = y_predict.copy()
        dy_norm_old = None
        converged = False
        for k in range(_NEWTON_MAXITER):
            fy = np.asarray(self.f(y, t_new), self.dtype)
            self.nfev += 1
            if not np.all(np.isfinite(fy)):
                break
            dy = self.inverse @ (c * fy - psi - d)
            dy_norm = _norm(dy / scale)
            rate = None if dy_norm_old is None else dy_norm / dy_norm_old
            # (diverging, or too slow to converge in the iterations left)
            if rate is not None and (rate >= 1 or rate ** (_NEWTON_MAXITER - k)
                                     / (1 - rate) * dy_norm > self.newton_tol):
                break
            y = y + dy
            d = d + dy
            if dy_norm == 0 or rate is not None and rate / (1 - rate) * dy_norm < \
                    self.newton_tol:
                converged = True
                break
            dy_norm_old = dy_norm
        return converged, k + 1, y, d

    def step(self):
        """The next accepted ``BdfStep``, or None where the step size fell below the
        spacing of the times (SciPy's failure)."""
        t, d, solver = self.t, self.d, self.solver
        min_step = 10 * abs(np.nextafter(t, np.inf) - t)
        if self.h_abs > solver.max_step:
            h_abs = solver.max_step
            _change_d(d, self.order, solver.max_step / self.h_abs)
            self.n_equal_steps = 0
        elif self.h_abs < min_step:
            h_abs = min_step
            _change_d(d, self.order, min_step / self.h_abs)
            self.n_equal_steps = 0
        else:
            h_abs = self.h_abs
        order, rtol, atol = self.order, solver.rtol, self.atol
        current_jac = self.constant
        while True:
            if h_abs < min_step:
                return None
            t_new = t + h_abs
            if t_new > self.t1:  # (the last step ends on t1: the differences rescaled)
                t_new = self.t1
                _change_d(d, order, abs(t_new - t) / h_abs)
                self.n_equal_steps = 0
                self.inverse = None
            h = t_new - t
            h_abs = abs(h)
            y_predict = np.sum(d[:order + 1], axis=0)
            scale = atol + rtol * np.abs(y_predict)
            psi = np.dot(d[1:order + 1].T, _GAMMA[1:order + 1]) / _ALPHA[order]
            c = h / _ALPHA[order]
            while True:
                if self.inverse is None:
                    self.inverse = np.linalg.inv(self.eye - c * self.jacobian).astype(
                        self.dtype)
                    self.nlu += 1
                converged, iters, y_new, correction = self._newton(t_new, y_predict, c, psi,
                                                                   scale)
                if converged or current_jac:
                    break
                self.jacobian = np.asarray(self.jac(y_predict, t_new), self.dtype)
                self.njev += 1
                self.inverse, current_jac = None, True
            if not converged:
                h_abs *= 0.5
                _change_d(d, order, 0.5)
                self.n_equal_steps, self.inverse = 0, None
                continue
            safety = 0.9 * (2 * _NEWTON_MAXITER + 1) / (2 * _NEWTON_MAXITER + iters)
            scale = atol + rtol * np.abs(y_new)
            error_norm = _norm(_ERROR_CONST[order] * correction / scale)
            if error_norm <= 1:
                break
            factor = max(0.2, safety * error_norm ** (-1 / (order + 1)))
            h_abs *= factor
            _change_d(d, order, factor)
            self.n_equal_steps = 0  # (the factorization is kept: Newton converged)
        self.n_equal_steps += 1
        y_old, y_new = self.y, y_new.astype(self.dtype)
        self.t, self.y, self.h_abs = t_new, y_new, h_abs
        # the differences of the new polynomial: correction = D^{order+1} y_new
        d[order + 2] = correction - d[order + 1]
        d[order + 1] = correction
        for i in reversed(range(order + 1)):
            d[i] += d[i + 1]
        if self.n_equal_steps >= order + 1:
            # (after order + 1 equal steps: the order whose error allows the longest step)
            error_m = _norm(_ERROR_CONST[order - 1] * d[order] / scale) if order > 1 \
                else np.inf
            error_p = _norm(_ERROR_CONST[order + 1] * d[order + 2] / scale) \
                if order < _MAX_ORDER else np.inf
            with np.errstate(divide="ignore"):
                factors = np.array([error_m, error_norm, error_p]) ** (
                    -1 / np.arange(order, order + 3))
            order += int(np.argmax(factors)) - 1
            self.order = order
            factor = min(10.0, safety * np.max(factors))
            self.h_abs *= factor
            _change_d(d, order, factor)
            self.n_equal_steps, self.inverse = 0, None
        return BdfStep(t, t_new, self.h_abs, y_old, y_new, self.order,
                       d[:self.order + 1].copy())


def bdf_steps(f, jac, y0, t0, t1, solver, on_step=None):
    """``(steps, nfev, njev, nlu, failed)`` as ``_radau.radau_steps``, by BDF."""
    return run_stepper(BdfStepper(f, jac, y0, t0, t1, solver), on_step)
