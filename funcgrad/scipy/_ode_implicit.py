"""SciPy's implicit solver objects on the step API of ``_ode_solvers``: ``Radau`` (the
stepping of ``_radau``, one accepted step per ``step()``).

The implicit stepping runs on concrete NumPy values (Newton iterations and LU
factorizations), so these objects carry no derivative: a traced ``y0``, or a ``fun`` whose
value carries one (it captures a value being differentiated), raises and names
``solve_ivp(method='Radau')``, whose solution is differentiated by the adjoint method.
"""
from typing import Any

import numpy as np

from ..core import Tracer, is_special
from ..jacobians import jacfwd
from ..numpy._convert import asarray
from ._ode_solvers import DenseOutput, OdeSolver, solver_options
from ._radau import RADAU, RadauStepper


def _no_derivative(x, what):
    """``x`` as a NumPy array; refused where it carries a derivative or is traced."""
    if isinstance(x, Tracer) or is_special(x):
        raise NotImplementedError(
            f"{what}: the implicit solver objects step on concrete values and carry no "
            f"derivative, but this value is traced or carries one; differentiate "
            f"solve_ivp(fun, t_span, y0, method='Radau') instead (the adjoint method), or "
            f"use RK45, RK23 or DOP853, whose steps carry derivatives")
    return np.asarray(x)


class _RadauOutput(DenseOutput):
    """A Radau step's collocation polynomial (``_radau.Step``, in ``s = sign * t``)."""

    def __init__(self, t_old, t, step, sign):
        super().__init__(t_old, t)
        self._step, self._sign = step, sign

    def _call_impl(self, t):
        t_c = _no_derivative(t, "Radau.dense_output()(t)")
        if t_c.ndim == 0:
            return self._step.at(self._sign * float(t_c))
        return self._step.on(self._sign * t_c.astype(float))


class Radau(OdeSolver):
    """The implicit Runge-Kutta method Radau IIA of order 5 (``scipy.integrate.Radau``),
    for stiff problems, advanced by ``step()``: SciPy's simplified Newton iteration, error
    estimate, step-size controller and Jacobian refresh.  ``jac`` (a callable
    ``jac(t, y)`` or a constant array) is used as given; without it the Jacobian is exact
    (``jacfwd``) where SciPy's is finite differences: the same solution to the
    tolerances, and ``nfev`` without the finite differences' evaluations.  Given the same
    ``jac``, the steps, ``nfev``, ``njev`` and ``nlu`` are SciPy's.  ``dense_output()``
    is the step's collocation polynomial.  Concrete values only: for derivatives use
    ``solve_ivp(method='Radau')`` (a traced value raises NotImplementedError saying so);
    ``jac_sparsity`` is not supported.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> solver = fsi.Radau(lambda t, y: -50.0 * (y - np.cos(t)), 0.0, np.array([0.0]), 1.0)
    >>> while solver.status == "running":
    ...     message = solver.step()
    >>> solver.status, round(float(solver.y[0]), 3)  # close to cos(1) after the transient
    ('finished', 0.557)
    """

    def __init__(self, fun, t0, y0, t_bound, max_step=np.inf, rtol=1e-3, atol=1e-6,
                 jac=None, jac_sparsity=None, vectorized=False, first_step=None,
                 **extraneous):
        y0 = _no_derivative(asarray(y0), "Radau: y0")
        super().__init__(fun, float(t0), y0, float(t_bound), vectorized)
        if jac_sparsity is not None:
            raise NotImplementedError("Radau: jac_sparsity is not supported (the Jacobian "
                                      "is dense); leave it None")
        solver = solver_options(self, RADAU, max_step, rtol, atol, first_step, extraneous)
        self.max_step, self.rtol, self.atol = max_step, solver.rtol, atol
        sign = self.direction
        self._sign = sign
        self.y = np.asarray(self.y)
        dtype = self.y.dtype

        def f(y, s):
            return sign * _no_derivative(self.fun(sign * s, y), "Radau: fun(t, y)")

        if jac is None:
            def jac_s(y, s):
                return sign * _no_derivative(jacfwd(lambda v: self._evaluate(sign * s, v))(y),
                                             "Radau: the Jacobian")
        elif callable(jac):
            def jac_s(y, s):
                out = _no_derivative(jac(sign * s, y), "Radau: jac(t, y)")
                if out.shape != (self.n, self.n):
                    raise ValueError(f"`jac` is expected to have shape ({self.n}, {self.n}),"
                                     f" but actually has {out.shape}.")
                return sign * out
        else:
            constant = _no_derivative(jac, "Radau: jac")
            if constant.shape != (self.n, self.n):
                raise ValueError(f"`jac` is expected to have shape ({self.n}, {self.n}), "
                                 f"but actually has {constant.shape}.")
            jac_s = sign * constant

        self._stepper = RadauStepper(f, jac_s, self.y.astype(dtype), sign * self.t,
                                     sign * self.t_bound, solver)
        self._count()
        self._last: Any = None

    def _count(self):
        self.njev, self.nlu = self._stepper.njev, self._stepper.nlu

    def _step_impl(self):
        step = self._stepper.step()
        self._count()
        if step is None:
            return False, self.TOO_SMALL_STEP
        self._last = step
        self.t, self.y = self._sign * step.t_new, step.y_new
        return True, None

    def _dense_output_impl(self):
        return _RadauOutput(self.t_old, self.t, self._last, self._sign)
