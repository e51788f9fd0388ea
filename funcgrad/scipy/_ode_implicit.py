"""SciPy's implicit solver objects on the step API of ``_ode_solvers``: ``Radau`` and
``BDF`` (the stepping of ``_radau`` and ``_bdf``, one accepted step per ``step()``).

The implicit stepping runs on concrete NumPy values (Newton iterations and LU
factorizations), so these objects carry no derivative: a traced ``y0``, or a ``fun`` whose
value carries one (it captures a value being differentiated), raises and names
``solve_ivp(method='Radau')`` (or 'BDF'), whose solution is differentiated by the adjoint
method.
"""
from typing import Any

import numpy as np

from ..core import Tracer, is_special
from ..jacobians import jacfwd
from ..numpy._convert import asarray
from ._ode_solvers import DenseOutput, OdeSolver, solver_options
from ._bdf import BDF_METHOD, BdfStepper
from ._radau import RADAU, RadauStepper


def _no_derivative(x, what):
    """``x`` as a NumPy array; refused where it carries a derivative or is traced."""
    if isinstance(x, Tracer) or is_special(x):
        raise NotImplementedError(
            f"{what}: the implicit solver objects step on concrete values and carry no "
            f"derivative, but this value is traced or carries one; differentiate "
            f"solve_ivp(fun, t_span, y0, method='Radau', 'BDF' or 'LSODA') instead (the "
            f"adjoint method), or "
            f"use RK45, RK23 or DOP853, whose steps carry derivatives")
    return np.asarray(x)


class _StepOutput(DenseOutput):
    """An implicit step's polynomial (``_radau.Step``, ``_bdf.BdfStep``), in
    ``s = sign * t``."""

    def __init__(self, t_old, t, step, sign):
        super().__init__(t_old, t)
        self._step, self._sign = step, sign

    def _call_impl(self, t):
        t_c = _no_derivative(t, "dense_output()(t) of an implicit solver")
        if t_c.ndim == 0:
            return self._step.at(self._sign * float(t_c))
        return self._step.on(self._sign * t_c.astype(float))


class _Implicit(OdeSolver):
    _stepper_class: Any = None
    _method: Any = None

    """An implicit method of ``_radau`` or ``_bdf`` behind SciPy's step API."""

    def __init__(self, fun, t0, y0, t_bound, max_step=np.inf, rtol=1e-3, atol=1e-6,
                 jac=None, jac_sparsity=None, vectorized=False, first_step=None,
                 **extraneous):
        name = type(self).__name__
        y0 = _no_derivative(asarray(y0), f"{name}: y0")
        super().__init__(fun, float(t0), y0, float(t_bound), vectorized)
        if jac_sparsity is not None:
            raise NotImplementedError(f"{name}: jac_sparsity is not supported (the "
                                      f"Jacobian is dense); leave it None")
        solver = solver_options(self, self._method, max_step, rtol, atol, first_step, extraneous)
        self.max_step, self.rtol, self.atol = max_step, solver.rtol, atol
        sign = self.direction
        self._sign = sign
        self.y = np.asarray(self.y)
        dtype = self.y.dtype

        def f(y, s):
            return sign * _no_derivative(self.fun(sign * s, y), f"{name}: fun(t, y)")

        if jac is None:
            def jac_s(y, s):
                return sign * _no_derivative(jacfwd(lambda v: self._evaluate(sign * s, v))(y),
                                             f"{name}: the Jacobian")
        elif callable(jac):
            def jac_s(y, s):
                out = _no_derivative(jac(sign * s, y), f"{name}: jac(t, y)")
                if out.shape != (self.n, self.n):
                    raise ValueError(f"`jac` is expected to have shape ({self.n}, {self.n}),"
                                     f" but actually has {out.shape}.")
                return sign * out
        else:
            constant = _no_derivative(jac, f"{name}: jac")
            if constant.shape != (self.n, self.n):
                raise ValueError(f"`jac` is expected to have shape ({self.n}, {self.n}), "
                                 f"but actually has {constant.shape}.")
            jac_s = sign * constant

        self._stepper = self._stepper_class(f, jac_s, self.y.astype(dtype), sign * self.t,
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
        return _StepOutput(self.t_old, self.t, self._last, self._sign)


class Radau(_Implicit):
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
    _stepper_class, _method = RadauStepper, RADAU


class BDF(_Implicit):
    """The implicit backward differentiation formulas of variable order 1 to 5 in their
    NDF form (``scipy.integrate.BDF``), for stiff problems, advanced by ``step()``:
    SciPy's quasi-constant step size on the backward differences, simplified Newton
    iteration, error estimate and order selection.  ``jac`` (a callable ``jac(t, y)`` or
    a constant array) is used as given; without it the Jacobian is exact (``jacfwd``)
    where SciPy's is finite differences: the same solution to the tolerances, and
    ``nfev`` without the finite differences' evaluations.  Given the same ``jac``, the
    steps, ``nfev``, ``njev`` and ``nlu`` are SciPy's (to rounding).  ``dense_output()``
    is SciPy's interpolating polynomial of the step.  Concrete values only: for
    derivatives use ``solve_ivp(method='BDF')`` (a traced value raises
    NotImplementedError saying so); ``jac_sparsity`` is not supported.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> solver = fsi.BDF(lambda t, y: -50.0 * (y - np.cos(t)), 0.0, np.array([0.0]), 1.0)
    >>> while solver.status == "running":
    ...     message = solver.step()
    >>> solver.status, round(float(solver.y[0]), 2)  # close to cos(1) after the transient
    ('finished', 0.56)
    """
    _stepper_class, _method = BdfStepper, BDF_METHOD
