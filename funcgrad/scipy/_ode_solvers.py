"""SciPy's step-by-step ODE solver objects: ``OdeSolver`` with ``step()``, ``status``,
``t``, ``y`` and ``dense_output()``, the explicit Runge-Kutta pairs ``RK23``, ``RK45`` and
``DOP853`` on it, ``DenseOutput`` and ``OdeSolution`` (SciPy's constructor).

A step is ``_rk.attempt`` (SciPy's pair, error norm and controller, which ``solve_ivp``
uses too) repeated until accepted; its stages are kept for the step's interpolant
(``_dense``).  Backwards integration steps forwards in ``s = -t``, as ``solve_ivp``.

Differentiation: the steps run on whatever values they are given, so under ``grad`` or
``jvp`` (concrete values flow there) ``solver.y`` carries the derivative of the
Runge-Kutta map at the step times taken -- the step sizes are a choice and held constant,
as in ``solve_ivp`` -- which is the derivative of the ODE's solution to the tolerances.
The accept/reject decision needs concrete values: under ``jit`` or ``vmap`` ``step()``
raises, naming ``solve_ivp(t_eval=...)``, which runs there.
"""
import math
import warnings
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..typing import ArrayLike
from ._dense import _A_EXTRA, _C_EXTRA, _D, _P, Segment, _sparse
from ._rk import METHODS, Solver, _combine, attempt, first_step

_TOO_SMALL = "Required step size is less than spacing between numbers."


def _concrete(x, what):
    """``x`` as a NumPy value (the step choice is not differentiated)."""
    x = stop_gradient(x)
    if isinstance(x, Tracer):
        raise TypeError(f"{what}: the step size is chosen on concrete values, but they are "
                        f"traced (under jit or vmap); call solve_ivp with t_eval there, which "
                        f"runs under both")
    return np.asarray(x)


class OdeSolver:
    """The base of SciPy's ODE solver objects (``scipy.integrate.OdeSolver``): a solver
    of ``dy/dt = fun(t, y)`` from ``y(t0) = y0`` towards ``t_bound``, advanced one step at
    a time by ``step()``, which returns None or, on failure, a message.  Attributes as
    SciPy's: ``n``, ``status`` ('running', 'finished' or 'failed'), ``t_bound``,
    ``direction``, ``t``, ``y``, ``t_old``, ``step_size``, ``nfev``, ``njev``, ``nlu``;
    ``dense_output()`` is the interpolant of the last step.  Subclasses implement
    ``_step_impl`` and ``_dense_output_impl`` as SciPy's.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> solver = fsi.RK45(lambda t, y: -y, 0.0, np.array([1.0]), 1.0)
    >>> isinstance(solver, fsi.OdeSolver), solver.status
    (True, 'running')
    """
    TOO_SMALL_STEP = _TOO_SMALL

    def __init__(self, fun: Callable, t0: float, y0: ArrayLike, t_bound: float,
                 vectorized: bool, support_complex: bool = False):
        if not callable(fun):
            raise TypeError(f"{type(self).__name__}: fun must be callable as fun(t, y), got "
                            f"{type(fun).__name__}")
        y = asarray(y0)
        if y.ndim != 1:
            raise ValueError(f"`y0` must be 1-dimensional, got shape {y.shape}.")
        if y.dtype.kind == "c":
            raise NotImplementedError(
                f"{type(self).__name__}: complex y0 is not supported; integrate the real "
                f"and imaginary parts as a real state of twice the size (complex_ode's way)")
        if y.dtype.kind not in "f":
            y = fnp.astype(y, np.float64)
        self.t_old: Any = None
        self.t = t0
        self.y = y
        self.t_bound = t_bound
        self.vectorized = vectorized
        self.n = y.shape[0]
        self.direction = 1.0 if t_bound >= t0 else -1.0
        self.status = "running"
        self.nfev = self.njev = self.nlu = 0
        self._user_fun, self._dtype = fun, y.dtype

    def fun(self, t, y):
        """The right-hand side, counted in ``nfev`` (SciPy's ``fun`` attribute)."""
        self.nfev += 1
        return self._evaluate(t, y)

    def _evaluate(self, t, y):
        out = self._user_fun(t, y[:, None] if self.vectorized else y)
        out = fnp.stack([asarray(v) for v in out]) if isinstance(out, (list, tuple)) \
            else asarray(out)
        if int(np.prod(out.shape)) != self.n:
            raise ValueError(f"{type(self).__name__}: fun(t, y) must return an array of "
                             f"shape ({self.n},) like y0, got shape {out.shape}")
        return fnp.astype(fnp.reshape(out, (self.n,)), self._dtype)

    @property
    def step_size(self):
        return None if self.t_old is None else abs(self.t - self.t_old)

    def step(self) -> Optional[str]:
        """Advance one step; None, or SciPy's message when the step size failed (``status``
        then 'failed').  Stepping a finished or failed solver raises RuntimeError."""
        if self.status != "running":
            raise RuntimeError("Attempt to step on a failed or finished solver.")
        if self.n == 0 or self.t == self.t_bound:
            self.t_old, self.t, self.status = self.t, self.t_bound, "finished"
            return None
        t = self.t
        success, message = self._step_impl()
        if not success:
            self.status = "failed"
            return message
        self.t_old = t
        if self.direction * (self.t - self.t_bound) >= 0:
            self.status = "finished"
        return None

    def dense_output(self) -> "DenseOutput":
        """The interpolant of the last step (a :class:`DenseOutput`)."""
        if self.t_old is None:
            raise RuntimeError("Dense output is available after a successful step was "
                               "made.")
        if self.n == 0 or self.t == self.t_old:
            return ConstantDenseOutput(self.t_old, self.t, self.y)
        return self._dense_output_impl()

    def _step_impl(self):
        raise NotImplementedError

    def _dense_output_impl(self):
        raise NotImplementedError


class DenseOutput:
    """The interpolant of one step between ``t_old`` and ``t``
    (``scipy.integrate.DenseOutput``): ``out(t)`` has shape ``(n,)`` for a number, ``(n, len(t))`` for a 1-d
    array; ``t_min`` and ``t_max`` its ends.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> solver = fsi.RK45(lambda t, y: -y, 0.0, np.array([1.0]), 1.0)
    >>> solver.step()
    >>> out = solver.dense_output()
    >>> isinstance(out, fsi.DenseOutput), bool(out(0.0)[0] == 1.0)
    (True, True)
    """

    def __init__(self, t_old, t):
        self.t_old, self.t = t_old, t
        self.t_min, self.t_max = min(t, t_old), max(t, t_old)

    def __call__(self, t):
        ts = asarray(t)
        if ts.ndim > 1:
            raise ValueError("`t` must be a float or a 1-D array.")
        return self._call_impl(ts)

    def _call_impl(self, t):
        raise NotImplementedError


class ConstantDenseOutput(DenseOutput):
    """A constant: the interpolant of a step of length 0."""

    def __init__(self, t_old, t, value):
        super().__init__(t_old, t)
        self.value = value

    def _call_impl(self, t):
        if t.ndim == 0:
            return self.value
        return fnp.broadcast_to(self.value[:, None], (self.value.shape[0], t.shape[0]))


class _SegmentOutput(DenseOutput):
    """A Runge-Kutta step's interpolant (``_dense.Segment``, in ``s = sign * t``)."""

    def __init__(self, t_old, t, segment, sign):
        super().__init__(t_old, t)
        self._segment, self._sign = segment, sign

    def _call_impl(self, t):
        dtype = self._segment.y_old.dtype
        s = self._sign * fnp.reshape(fnp.astype(t, dtype), (-1,))
        out = self._segment(s)
        return out[:, 0] if t.ndim == 0 else out


def solver_options(solver, method, max_step, rtol, atol, first_step, extraneous):
    """The checked options of a solver object (SciPy's checks and warnings) as a
    ``_rk.Solver``."""
    if extraneous:
        warnings.warn(f"The following arguments have no effect for a chosen solver: "
                      f"{', '.join(f'`{x}`' for x in extraneous)}.", stacklevel=3)
    if not max_step > 0:
        raise ValueError("`max_step` must be positive.")
    if rtol < 100 * np.finfo(float).eps:
        warnings.warn(f"At least one element of `rtol` is too small. Setting "
                      f"`rtol = np.maximum(rtol, {100 * np.finfo(float).eps})`.",
                      stacklevel=3)
        rtol = 100 * np.finfo(float).eps
    if np.any(np.asarray(atol) < 0):
        raise ValueError("`atol` must be positive.")
    if np.ndim(atol) and np.shape(atol) != (solver.n,):
        raise ValueError("`atol` has wrong shape.")
    if first_step is not None and not first_step > 0:
        raise ValueError("`first_step` must be positive.")
    if first_step is not None and first_step > abs(solver.t_bound - solver.t):
        raise ValueError("`first_step` exceeds bounds.")
    atol_opt = tuple(np.asarray(atol, float).ravel()) if np.ndim(atol) else float(atol)
    return Solver(method, float(rtol), atol_opt, math.inf, float(max_step),
                  None if first_step is None else float(first_step))


class RungeKutta(OdeSolver):
    """An explicit Runge-Kutta pair of ``_rk`` behind SciPy's step API."""
    _name = ""

    def __init__(self, fun, t0, y0, t_bound, max_step=np.inf, rtol=1e-3, atol=1e-6,
                 vectorized=False, first_step=None, **extraneous):
        super().__init__(fun, float(t0), y0, float(t_bound), vectorized)
        self._solver = solver_options(self, METHODS[self._name], max_step, rtol, atol,
                                      first_step, extraneous)
        rtol = self._solver.rtol
        self.max_step, self.rtol, self.atol = max_step, rtol, atol
        sign = self.direction
        self._sign = sign
        # (in s = sign * t the integration runs forwards: dy/ds = sign * fun(sign * s, y))
        self._s = np.asarray(sign * self.t, self._dtype)  # (float32 stays float32)
        self.f = self._f(self.y, self._s)
        if first_step is None:
            span = sign * (self.t_bound - self.t)
            self.h_abs = first_step_of(self, span)
        else:
            self.h_abs = float(first_step)
        self._last: Any = None  # (s_old, y_old, f_old, h, ks) of the last step

    def _f(self, y, s):
        return self._sign * self.fun(self._sign * s, y)

    def _step_impl(self):
        s_bound = np.asarray(self._sign * self.t_bound, self._dtype)
        rejected = False
        y_old, f_old, s_old = self.y, self.f, self._s
        while True:
            calls = []

            def recorded(y, s):
                calls.append(self._f(y, s))
                return calls[-1]

            ok, s, y, fy, h_abs, rejected, small = attempt(
                recorded, self._solver, s_old, y_old, f_old,
                np.asarray(self.h_abs, self._dtype), rejected, s_bound)
            if bool(_concrete(small, type(self).__name__)):
                return False, _TOO_SMALL
            self.h_abs = float(_concrete(h_abs, type(self).__name__))  # (a choice: constant)
            if bool(_concrete(ok, type(self).__name__)):
                break
        self._last = (s_old, y_old, f_old, s - s_old, [f_old] + calls)
        self._s, self.y, self.f = s, y, fy
        self.t = self._sign * float(_concrete(s, type(self).__name__))
        return True, None

    def _dense_output_impl(self):
        s_old, y_old, f_old, h, ks = self._last
        tab = self._solver.method
        if tab.name != "DOP853":
            coeffs = [_combine(col, ks) for col in zip(*_P[tab.name])]
        else:  # (three more stages, as SciPy's, counted in nfev as SciPy's)
            ks = list(ks)
            for c, row in zip(_C_EXTRA, _A_EXTRA):
                ks.append(self._f(y_old + h * _sparse(row, ks), s_old + c * h))
            dy = self.y - y_old
            coeffs = [dy, h * f_old - dy, 2.0 * dy - h * (ks[12] + f_old)]
            coeffs += [h * _sparse(row, ks) for row in _D]
        return _SegmentOutput(self.t_old, self.t, Segment(tab.name, s_old, h, y_old, coeffs),
                              self._sign)


def first_step_of(solver, span):
    """SciPy's initial step for ``solver`` (one evaluation of ``fun``), a float."""
    h = first_step(solver._f, solver._s, solver.y, solver.f, span, solver._solver)
    return float(_concrete(h, type(solver).__name__))


_RK_DOC = """{summary} (``scipy.integrate.{name}``), advanced
    by ``step()`` with SciPy's error norm, step-size controller and first step: its steps
    are SciPy's (to rounding); ``dense_output()`` is SciPy's {interp} interpolant of the
    last step{extra}.

    Differentiable: under ``grad``/``jvp`` the state carries the derivative of the
    Runge-Kutta map at the steps taken (step sizes held constant), the derivative of the
    ODE's solution to the tolerances, in ``y0`` and in values ``fun`` captures.  The
    accept/reject choice needs concrete values: not under ``jit``/``vmap`` (use
    ``solve_ivp`` with ``t_eval`` there).

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> solver = fsi.{name}(lambda t, y: -y, 0.0, np.array([1.0]), 1.0, rtol=1e-8,
    ...                     atol=1e-10)
    >>> while solver.status == "running":
    ...     message = solver.step()
    >>> solver.status, round(float(solver.y[0]), 7)  # e^-1
    ('finished', 0.3678794)
    """


def _butcher(name, width):
    """SciPy's class attributes of the pair ``name``: ``A`` (``n_stages x width``),
    ``B``, ``C`` (the first node, 0, included), ``E``, ``P`` (the dense output; both
    ``NotImplemented`` for DOP853, as SciPy's), ``order``, ``error_estimator_order``,
    ``n_stages``, then DOP853's ``E3``, ``E5``, ``A_EXTRA``, ``C_EXTRA`` and ``D``."""
    tab = METHODS[name]
    n = len(tab.b)
    a = np.zeros((n, width))
    for i, row in enumerate(tab.a, start=1):
        a[i, :len(row)] = row
    head = (a, np.array(tab.b), np.array((0.0,) + tuple(tab.c)))
    orders = (tab.order + 1, tab.order, n)
    if tab.e3 is None:
        return head + (np.array(tab.e), np.array(_P[name])) + orders

    def table(rows, size):  # (the sparse rows of _dense as dense arrays)
        out = np.zeros((len(rows), size))
        for i, row in enumerate(rows):
            for j, value in row.items():
                out[i, j] = value
        return out
    return (head + (NotImplemented, NotImplemented) + orders
            + (np.array(tab.e3), np.array(tab.e), table(_A_EXTRA, n + 4),
               np.array(_C_EXTRA), table(_D, n + 4)))


class RK23(RungeKutta):
    __doc__ = _RK_DOC.format(summary="The Bogacki-Shampine pair of order 3(2)", name="RK23",
                             interp="cubic Hermite", extra="")
    _name = "RK23"
    # SciPy's class attributes: the tableau, the dense output's P, orders and stage count
    (A, B, C, E, P, order, error_estimator_order, n_stages) = _butcher("RK23", 3)


class RK45(RungeKutta):
    __doc__ = _RK_DOC.format(summary="The Dormand-Prince pair of order 5(4)", name="RK45",
                             interp="quartic", extra="")
    _name = "RK45"
    (A, B, C, E, P, order, error_estimator_order, n_stages) = _butcher("RK45", 5)


class DOP853(RungeKutta):
    __doc__ = _RK_DOC.format(summary="Hairer's explicit Runge-Kutta method of order 8",
                             name="DOP853", interp="7th-order",
                             extra=" (three more evaluations of ``fun``, counted in "
                                   "``nfev``, as SciPy's)")
    _name = "DOP853"
    (A, B, C, E, P, order, error_estimator_order, n_stages, E3, E5, A_EXTRA, C_EXTRA,
     D) = _butcher("DOP853", 12)


class OdeSolution:
    """A piecewise interpolant made of steps' :class:`DenseOutput` objects
    (``scipy.integrate.OdeSolution``): ``ts`` the step ends (increasing or decreasing),
    ``interpolants`` one per step; ``sol(t)`` chooses the step holding ``t`` as SciPy's
    (``alt_segment`` takes the other segment at a shared end) and extrapolates outside.
    Differentiable as the interpolants are.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> solver = fsi.RK45(lambda t, y: -y, 0.0, np.array([1.0]), 1.0, rtol=1e-8)
    >>> ts, pieces = [0.0], []
    >>> while solver.status == "running":
    ...     message = solver.step()
    ...     ts.append(solver.t); pieces.append(solver.dense_output())
    >>> sol = fsi.OdeSolution(ts, pieces)
    >>> round(float(sol(0.5)[0]), 6)  # e^-0.5
    0.606531
    """

    def __init__(self, ts, interpolants, alt_segment=False):
        ts = np.asarray(stop_gradient(asarray(ts)), float)
        d = np.diff(ts)
        if not ((ts.size == 2 and ts[0] == ts[-1]) or np.all(d > 0) or np.all(d < 0)):
            raise ValueError("`ts` must be strictly increasing or decreasing.")
        self.n_segments = len(interpolants)
        if ts.shape != (self.n_segments + 1,):
            raise ValueError("Numbers of time stamps and interpolants don't match.")
        self.ts, self.interpolants = ts, interpolants
        if ts[-1] >= ts[0]:
            self.t_min, self.t_max, self.ascending = ts[0], ts[-1], True
            self.side = "right" if alt_segment else "left"
            self.ts_sorted = ts
        else:
            self.t_min, self.t_max, self.ascending = ts[-1], ts[0], False
            self.side = "left" if alt_segment else "right"
            self.ts_sorted = ts[::-1]

    def _segment(self, t):
        k = int(np.searchsorted(self.ts_sorted, t, side=self.side))
        k = min(max(k - 1, 0), self.n_segments - 1)
        return k if self.ascending else self.n_segments - 1 - k

    def __call__(self, t):
        ts = asarray(t)
        if ts.ndim == 0:
            return self.interpolants[self._segment(float(np.asarray(stop_gradient(ts))))](ts)
        if ts.ndim > 1:
            raise ValueError("`t` must be a float or a 1-D array.")
        t_c = np.asarray(stop_gradient(ts), float)
        which = np.array([self._segment(v) for v in t_c], int)
        parts, order = [], []
        for k in np.unique(which):
            idx = np.nonzero(which == k)[0]
            parts.append(self.interpolants[k](ts[idx]))
            order.append(idx)
        if not parts:
            return fnp.zeros((0, 0))
        return fnp.concatenate(parts, axis=1)[:, np.argsort(np.concatenate(order))]


class ODEintWarning(Warning):
    """SciPy's ``scipy.integrate.ODEintWarning`` (LSODA's odeint did not converge), for
    code that filters or catches it; funcgrad's :func:`odeint` (JAX's adaptive
    Dormand-Prince) never issues it."""
