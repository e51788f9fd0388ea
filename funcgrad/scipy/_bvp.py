"""``solve_bvp``: SciPy's boundary value solver -- 4th-order collocation (the cubic C1
spline through the nodes satisfies the ODE at the nodes and the interval midpoints:
Lobatto IIIA), a damped Newton iteration on the collocation system with SciPy's
affine-invariant line search and Jacobian reuse, and SciPy's mesh refinement on the
residuals' rms estimate by a 5-point Lobatto rule.

The search runs on concrete values, its Jacobian exact (``jacfwd``; SciPy's default is
finite differences, so the iterates differ in the last digits and the answer agrees to
the tolerance).  The answer is differentiated by the implicit function theorem on the
collocation system at the final mesh (``_implicit_root.differentiable_root``): in the
values ``fun`` and ``bc`` capture and in the ends of the interval (the final mesh
scales with them); the initial guess gets no derivative.
"""
import warnings
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..jacobians import jacfwd
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ._implicit_root import differentiable_root
from ._ivp import OdeResult
from ._ppoly import PPoly

_MESSAGES = {
    0: "The algorithm converged to the desired accuracy.",
    1: "The maximum number of mesh nodes is exceeded.",
    2: "A singular Jacobian encountered when solving the collocation system.",
    3: "The solver was unable to satisfy boundary conditions tolerance on iteration 10."}


def _concrete(x):
    x = stop_gradient(x)
    if isinstance(x, Tracer):
        raise TypeError("solve_bvp: the Newton search and the mesh refinement need concrete "
                        "values, but they are traced (under jit or vmap); call solve_bvp "
                        "outside those transforms")
    return np.asarray(x)


class _System:
    """The collocation system of ``fun`` and ``bc`` on the mesh ``x`` (SciPy's)."""

    def __init__(self, fun, bc, n, k, dtype):
        self.fun, self.bc, self.n, self.k, self.dtype = fun, bc, n, k, dtype

    def f(self, x, y, p):
        out = asarray(self.fun(x, y, p) if self.k else self.fun(x, y))
        return fnp.astype(out, self.dtype) if out.dtype != self.dtype else out

    def b(self, ya, yb, p):
        out = asarray(self.bc(ya, yb, p) if self.k else self.bc(ya, yb))
        return fnp.astype(out, self.dtype) if out.dtype != self.dtype else out

    def collocation(self, x, y, p):
        """``(residuals, f, f_middle)``: the residuals of the collocation conditions,
        shape ``(n, m - 1)``, ``f`` at the nodes and at the midpoints."""
        h = x[1:] - x[:-1]
        f = self.f(x, y, p)
        y_middle = 0.5 * (y[:, 1:] + y[:, :-1]) - 0.125 * h * (f[:, 1:] - f[:, :-1])
        f_middle = self.f(x[:-1] + 0.5 * h, y_middle, p)
        res = y[:, 1:] - y[:, :-1] - h / 6 * (f[:, :-1] + f[:, 1:] + 4 * f_middle)
        return res, f, f_middle

    def residual(self, x, flat):
        """The whole system, collocation then boundary conditions, at the flat unknowns
        ``[y in column order, p]``."""
        m = x.shape[0]
        y = fnp.transpose(fnp.reshape(flat[:self.n * m], (m, self.n)))
        p = flat[self.n * m:]
        res = self.collocation(x, y, p)[0]
        return fnp.concatenate([fnp.reshape(fnp.transpose(res), (-1,)),
                                fnp.reshape(self.b(y[:, 0], y[:, -1], p), (-1,))])


def _flat(y, p):
    return np.concatenate([y.T.ravel(), p])


def _newton(system, x, y, p, tol, bc_tol):
    """SciPy's damped Newton iteration on the collocation system (concrete values):
    ``(y, p, singular)``."""
    n, m = y.shape
    h = np.diff(x)
    tol_r = 2 / 3 * h * 5e-2 * tol

    def evaluate(y, p):
        res, _, f_middle = (_concrete(v) for v in system.collocation(x, y, p))
        bc_res = _concrete(system.b(y[:, 0], y[:, -1], p))
        return np.concatenate([res.T.ravel(), bc_res]), res, f_middle, bc_res

    def jacobian(y, p):
        return _concrete(jacfwd(lambda v: system.residual(x, v))(_flat(y, p)))

    res = evaluate(y, p)[0]
    njev, recompute, singular = 0, True, False
    for _ in range(8):
        if recompute:
            jac = jacobian(y, p)
            njev += 1
            try:  # (inverted once, then each trial's solve is a product, as SciPy's LU)
                inverse = np.linalg.inv(jac)
            except np.linalg.LinAlgError:
                inverse = None
            if inverse is None or not np.all(np.isfinite(inverse)):
                singular = True
                break
            step = inverse @ res
            cost = np.dot(step, step)
        y_step = step[:m * n].reshape((m, n)).T
        p_step = step[m * n:]
        alpha = 1.0
        for trial in range(5):
            y_new, p_new = y - alpha * y_step, p - alpha * p_step
            res, col_res, f_middle, bc_res = evaluate(y_new, p_new)
            step_new = inverse @ res
            cost_new = np.dot(step_new, step_new)
            if cost_new < (1 - 2 * alpha * 0.2) * cost:
                break
            if trial < 4:
                alpha *= 0.5
        y, p = y_new, p_new
        if njev == 4:
            break
        if np.all(np.abs(col_res) < tol_r * (1 + np.abs(f_middle))) and \
                np.all(np.abs(bc_res) < bc_tol):
            break
        if alpha == 1:  # (a full step: the Jacobian is good enough to keep)
            step, cost, recompute = step_new, cost_new, False
        else:
            recompute = True
    return y, p, singular


def _spline(y, yp, x):
    """SciPy's cubic C1 spline through the nodes with the slopes ``yp`` (a ``PPoly``)."""
    h = x[1:] - x[:-1]
    slope = (y[:, 1:] - y[:, :-1]) / h
    t = (yp[:, :-1] + yp[:, 1:] - 2 * slope) / h
    c = fnp.stack([t / h, (slope - yp[:, :-1]) / h - t, yp[:, :-1], y[:, :-1]])
    return PPoly(fnp.moveaxis(c, 1, 0), x, extrapolate=True, axis=1)


def _rms_residuals(system, sol, x, p, col_res, f_middle):
    """SciPy's estimate of each interval's rms relative residual (concrete values)."""
    h = np.diff(x)
    x_middle = x[:-1] + 0.5 * h
    s = 0.5 * h * (3 / 7) ** 0.5
    parts = [1.5 * col_res / h / (1 + np.abs(f_middle))]
    for xi in (x_middle + s, x_middle - s):
        fi = _concrete(system.f(xi, _concrete(sol(xi)), p))
        parts.append((_concrete(sol(xi, 1)) - fi) / (1 + np.abs(fi)))
    r_middle, r1, r2 = (np.sum(r * r, axis=0) for r in parts)
    return (0.5 * (32 / 45 * r_middle + 49 / 90 * (r1 + r2))) ** 0.5


def solve_bvp(fun: Callable, bc: Callable, x: Any, y: Any, p: Any = None, S: Any = None,
              fun_jac: Optional[Callable] = None, bc_jac: Optional[Callable] = None,
              tol: float = 1e-3, max_nodes: int = 1000, verbose: int = 0,
              bc_tol: Optional[float] = None) -> OdeResult:
    """Solve the boundary value problem ``dy/dx = fun(x, y[, p])``, ``bc(y(a), y(b)[,
    p]) = 0`` (``scipy.integrate.solve_bvp``): SciPy's 4th-order collocation, damped
    Newton iteration and mesh refinement from the mesh ``x`` and guess ``y`` (shape
    ``(n, len(x))``), with unknown parameters ``p``.  ``fun`` is vectorized as SciPy's
    (``x`` of shape ``(m,)``, ``y`` of shape ``(n, m)``).  Returns SciPy's result:
    ``sol`` (the cubic C1 spline, a ``PPoly``), ``p``, ``x``, ``y``, ``yp``,
    ``rms_residuals``, ``niter``, ``status``, ``message``, ``success``.

    Differentiable: ``y``, ``p``, ``yp`` and ``sol`` by the implicit function theorem on
    the collocation system at the final mesh, in the values ``fun`` and ``bc`` capture
    and in the interval's ends ``x[0]``, ``x[-1]`` (the guess gets none) -- the
    derivative of the discrete solution, which approximates the BVP's to the tolerance.
    The Jacobian is exact (``jacfwd``) where SciPy's default is finite differences, so
    the answer agrees with SciPy's to ``tol`` (``fun_jac``/``bc_jac`` are not needed and
    are not called).  Not supported: ``S`` (a singular term) and complex ``y``
    (NotImplementedError); ``verbose`` prints nothing; concrete values only (not under
    ``jit``/``vmap``).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> import funcgrad.scipy.integrate as fsi
    >>> def y_half(k):  # y'' = -k^2 y, y(0) = 0, y(1) = 1: y = sin(k x) / sin(k)
    ...     fun = lambda x, y: fnp.stack([y[1], -k ** 2 * y[0]])
    ...     bc = lambda ya, yb: fnp.stack([ya[0], yb[0] - 1.0])
    ...     x = np.linspace(0.0, 1.0, 5)
    ...     res = fsi.solve_bvp(fun, bc, x, np.zeros((2, 5)), tol=1e-8)
    ...     return res.sol(0.5)[0]
    >>> round(float(y_half(1.0)), 6), round(float(np.sin(0.5) / np.sin(1.0)), 6)
    (0.569747, 0.569747)
    >>> k = 1.0  # d/dk sin(k/2) / sin(k)
    >>> exact = (0.5 * np.cos(k / 2) * np.sin(k) - np.sin(k / 2) * np.cos(k)) / np.sin(k) ** 2
    >>> round(float(fg.grad(y_half)(k)), 5), round(float(exact), 5)
    (0.15563, 0.15563)
    """
    if S is not None:
        raise NotImplementedError("solve_bvp: the singular term S is not supported; "
                                  "call scipy.integrate.solve_bvp for it")
    if verbose not in (0, 1, 2):
        raise ValueError("`verbose` must be in [0, 1, 2].")
    xs = asarray(x)
    x_c = _concrete(xs).astype(np.result_type(_concrete(xs).dtype, np.float32))
    if x_c.ndim != 1:
        raise ValueError("`x` must be 1 dimensional.")
    if np.any(np.diff(x_c) <= 0):
        raise ValueError("`x` must be strictly increasing.")
    y_c = _concrete(asarray(y))
    if y_c.dtype.kind == "c":
        raise NotImplementedError("solve_bvp: complex y is not supported; solve for the "
                                  "real and imaginary parts as a real system")
    dtype = np.result_type(y_c.dtype, x_c.dtype, np.float32)
    y_c, x_c = y_c.astype(dtype), x_c.astype(dtype)
    if y_c.ndim != 2:
        raise ValueError("`y` must be 2 dimensional.")
    if y_c.shape[1] != x_c.shape[0]:
        raise ValueError(f"`y` is expected to have {x_c.shape[0]} columns, but actually has "
                         f"{y_c.shape[1]}.")
    p_c = np.array([], dtype) if p is None else _concrete(asarray(p)).astype(dtype)
    if p_c.ndim != 1:
        raise ValueError("`p` must be 1 dimensional.")
    if tol < 100 * np.finfo(float).eps:
        warnings.warn(f"`tol` is too low, setting to {100 * np.finfo(float).eps:.2e}",
                      stacklevel=2)
        tol = 100 * np.finfo(float).eps
    bc_tol = tol if bc_tol is None else bc_tol
    n, k = y_c.shape[0], p_c.shape[0]
    system = _System(fun, bc, n, k, dtype)
    f0 = _concrete(system.f(x_c, y_c, p_c))
    if f0.shape != y_c.shape:
        raise ValueError(f"`fun` return is expected to have shape {y_c.shape}, but actually "
                         f"has {f0.shape}.")
    bc0 = _concrete(system.b(y_c[:, 0], y_c[:, -1], p_c))
    if bc0.shape != (n + k,):
        raise ValueError(f"`bc` return is expected to have shape {(n + k,)}, but actually "
                         f"has {bc0.shape}.")

    iteration, status = 0, 0
    while True:
        y_c, p_c, singular = _newton(system, x_c, y_c, p_c, tol, bc_tol)
        iteration += 1
        col_res, f_c, f_middle = (_concrete(v) for v in system.collocation(x_c, y_c, p_c))
        max_bc_res = np.max(np.abs(_concrete(system.b(y_c[:, 0], y_c[:, -1], p_c))))
        sol_c = _spline(y_c, f_c, x_c)
        rms = _rms_residuals(system, sol_c, x_c, p_c, col_res, f_middle)
        if singular:
            status = 2
            break
        insert_1 = np.nonzero((rms > tol) & (rms < 100 * tol))[0]
        insert_2 = np.nonzero(rms >= 100 * tol)[0]
        added = insert_1.shape[0] + 2 * insert_2.shape[0]
        if x_c.shape[0] + added > max_nodes:
            status = 1
            break
        if added > 0:
            x_c = np.sort(np.concatenate([
                x_c, 0.5 * (x_c[insert_1] + x_c[insert_1 + 1]),
                (2 * x_c[insert_2] + x_c[insert_2 + 1]) / 3,
                (x_c[insert_2] + 2 * x_c[insert_2 + 1]) / 3])).astype(dtype)
            y_c = _concrete(sol_c(x_c)).astype(dtype)
        elif max_bc_res <= bc_tol:
            break
        elif iteration >= 10:
            status = 3
            break

    # the answer again, differentiated: the final mesh scaled with the interval's ends
    a, b = xs[0], xs[-1]
    unit = (x_c - x_c[0]) / (x_c[-1] - x_c[0])
    mesh = a + (b - a) * fnp.asarray(unit, dtype) if any(
        isinstance(v, Tracer) for v in (a, b)) else x_c
    m = x_c.shape[0]

    def explain(what):
        return (f"solve_bvp: the Jacobian of the collocation system at the answer {what}: "
                f"the solution is not isolated, so it has no derivative")

    flat = differentiable_root(lambda v: system.residual(mesh, v), _flat(y_c, p_c), explain)
    y_out = fnp.transpose(fnp.reshape(flat[:n * m], (m, n)))
    p_out = flat[n * m:]
    yp = system.f(mesh, y_out, p_out)
    return OdeResult(sol=_spline(y_out, yp, mesh), p=p_out if k else None, x=mesh, y=y_out,
                     yp=yp, rms_residuals=rms, niter=iteration, status=status,
                     message=_MESSAGES[status], success=status == 0)
