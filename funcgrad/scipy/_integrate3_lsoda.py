"""``solve_ivp(method='LSODA')`` and the ``LSODA`` solver object: ODEPACK's LSODA, which
switches between Adams formulas (non-stiff) and BDF (stiff) as it detects stiffness.

The steps are SciPy's own: each one is taken by ``scipy.integrate.LSODA`` (ODEPACK) on
concrete values, with the caller's Jacobian (funcgrad's exact ``jacfwd`` one where the user
gives none).  Porting the Fortran was not an option worth taking: LSODA's stiffness
detection, order and step heuristics are a few thousand lines whose every branch changes
the steps, and a re-implementation would agree with SciPy only to the tolerances, where
running ODEPACK itself gives SciPy's steps, nfev, njev and dense output exactly.  SciPy is
imported on the first LSODA solve only (``import funcgrad`` stays free of it).

The steps carry no derivative; as for Radau and BDF (``_ode_adjoint``), a solve is
differentiated by the adjoint integrated back by Radau along the LSODA solution's
interpolants (reverse mode), and by the sensitivity equations stepped by LSODA with the
state (forward mode).
"""
import functools
from typing import Any, NamedTuple

import numpy as np

from ._ode_implicit import _Implicit
from ._rk import run_stepper


class LsodaMethod(NamedTuple):
    """``Solver.method`` for LSODA (``order`` is unused: ODEPACK picks its first step)."""
    name: str = "LSODA"
    order: int = 1


LSODA_METHOD = LsodaMethod()


class LsodaStep(NamedTuple):
    """An accepted step and its interpolant, the Nordsieck history of the step:
    ``y(t) = sum_j yh[:, j] ((t - t_new) / h) ** j``, as SciPy's ``LsodaDenseOutput``."""
    t_old: float
    t_new: float
    h: float
    y_old: np.ndarray
    y_new: np.ndarray
    yh: np.ndarray  # (n, order + 1)

    def at(self, t):
        x = (t - self.t_new) / self.h
        powers = x ** np.arange(self.yh.shape[1])
        return (self.yh @ powers).astype(self.y_old.dtype)

    def on(self, ts):
        """The interpolant at the 1-d times ``ts``: shape ``(n, len(ts))``."""
        return np.stack([self.at(t) for t in ts], 1)


class LsodaStepper:
    """ODEPACK's LSODA stepping of ``dy/dt = f(y, t)`` from ``t0`` towards ``t1`` (> t0)
    on concrete values, one accepted step per ``step()`` (the interface of
    ``_bdf.BdfStepper``); ``jac(y, t)`` the Jacobian, or an array for a constant one."""

    def __init__(self, f, jac, y0, t0, t1, solver, min_step=0.0):
        from scipy.integrate import LSODA as ScipyLSODA
        self.dtype = y0.dtype
        self.t, self.t1, self.y = float(t0), float(t1), y0
        constant = None if callable(jac) else np.asarray(jac, float)
        atol = np.asarray(solver.atol) if isinstance(solver.atol, tuple) else solver.atol
        self._ode = ScipyLSODA(
            lambda t, y: np.asarray(f(y.astype(self.dtype), t), float), self.t,
            np.asarray(y0, float), self.t1, first_step=solver.first_step,
            min_step=min_step, max_step=solver.max_step, rtol=solver.rtol, atol=atol,
            jac=(lambda t, y: constant) if constant is not None else
            (lambda t, y: np.asarray(jac(y.astype(self.dtype), t), float)))
        self._count()

    def _count(self):
        self.nfev, self.njev, self.nlu = (int(self._ode.nfev), int(self._ode.njev),
                                          int(self._ode.nlu))

    def step(self):
        """The next accepted ``LsodaStep``, or None where ODEPACK failed (an excess of
        work, a step size too small, repeated error or convergence failures)."""
        t_old, y_old = self.t, self.y
        message = self._ode.step()
        self._count()
        if message is not None or self._ode.status == "failed":
            return None
        self.t, self.y = float(self._ode.t), self._ode.y.astype(self.dtype)
        out = self._ode.dense_output()
        if not hasattr(out, "yh"):  # (a step of length 0: a constant)
            return LsodaStep(t_old, self.t, 1.0, y_old, self.y, self.y[:, None])
        return LsodaStep(t_old, self.t, float(out.h), y_old, self.y, np.asarray(out.yh))


def lsoda_steps(f, jac, y0, t0, t1, solver, on_step=None):
    """``(steps, nfev, njev, nlu, failed)`` as ``_radau.radau_steps``, by LSODA."""
    return run_stepper(LsodaStepper(f, jac, y0, t0, t1, solver), on_step)


class LSODA(_Implicit):
    """ODEPACK's LSODA (``scipy.integrate.LSODA``): Adams formulas while the problem is
    non-stiff, BDF once it detects stiffness, advanced by ``step()``.  Its steps are
    SciPy's own (ODEPACK runs each one; SciPy is imported on the first use), so given
    the same ``jac`` the steps, ``nfev``, ``njev``, ``nlu`` and ``dense_output()`` (the
    Nordsieck history of the step) are SciPy's; without ``jac`` the Jacobian is exact
    (``jacfwd``) where SciPy's is finite differences: the same solution to the
    tolerances, and ``nfev`` without the finite differences' evaluations.  ``jac`` may
    also be a constant array.  Concrete values only: for derivatives use
    ``solve_ivp(method='LSODA')`` (a traced value raises NotImplementedError saying so);
    banded Jacobians (``lband``, ``uband``) are not supported.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> solver = fsi.LSODA(lambda t, y: -50.0 * (y - np.cos(t)), 0.0, np.array([0.0]), 1.0)
    >>> while solver.status == "running":
    ...     message = solver.step()
    >>> solver.status, round(float(solver.y[0]), 2)  # close to cos(1) after the transient
    ('finished', 0.56)
    """
    _method = LSODA_METHOD

    def __init__(self, fun: Any, t0: float, y0: Any, t_bound: float,
                 first_step: Any = None, min_step: float = 0.0, max_step: float = np.inf,
                 rtol: float = 1e-3, atol: Any = 1e-6, jac: Any = None, lband: Any = None,
                 uband: Any = None, vectorized: bool = False, **extraneous: Any) -> None:
        if lband is not None or uband is not None:
            raise NotImplementedError("LSODA: banded Jacobians (lband, uband) are not "
                                      "supported; leave them None (the Jacobian is dense)")
        if min_step < 0:
            raise ValueError("`min_step` must be nonnegative.")
        self._stepper_class = functools.partial(LsodaStepper, min_step=float(min_step))
        super().__init__(fun, t0, y0, t_bound, max_step=max_step, rtol=rtol, atol=atol,
                         jac=jac, vectorized=vectorized, first_step=first_step,
                         **extraneous)
