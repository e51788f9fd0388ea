"""``funcgrad.scipy.optimize.least_squares``: SciPy's nonlinear least squares, the Jacobian
of the residuals computed by funcgrad, the solution differentiable in ``args`` by the
implicit function theorem on the gradient of the cost (:mod:`._implicit_minimum`):
``J^T r = 0`` for the plain loss, the KKT conditions of a box where bounds hold
coordinates.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..api import value_and_grad
from ..core import Tracer
from ..jacobians import jacfwd, jacrev
from ..tree import ravel
from ..typing import PyTree
from ._implicit_minimum import check_optimum, differentiable_minimum
from ._implicit_root import prepare, search, users_jacobian

__all__ = ["least_squares"]

# scipy.optimize.least_squares's jac strings: the finite differences funcgrad's exact
# Jacobian replaces
_DIFFERENCES = {"2-point", "3-point", "cs"}
# (what a traced call returns: OptimizeResult's array fields)
_TRACED_FIELDS = (("cost", None), ("optimality", None), ("success", np.bool_), ("status", np.int64),
                  ("nfev", np.int64), ("njev", np.int64))


def _soft_l1(z):
    return 2.0 * (fnp.sqrt(1.0 + z) - 1.0)


def _huber(z):
    # (the square root of max(z, 1): its branch, never taken below 1, gets no infinite
    # derivative at z = 0 to multiply by zero)
    return fnp.where(z <= 1.0, z, 2.0 * fnp.sqrt(fnp.maximum(z, 1.0)) - 1.0)


# rho(z) of SciPy's losses, z the squared residual over f_scale**2
_LOSSES = {"linear": lambda z: z, "soft_l1": _soft_l1, "huber": _huber,
           "cauchy": fnp.log1p, "arctan": fnp.arctan}


def least_squares(fun: Callable[..., Any], x0: PyTree, jac: Any = "2-point",
                  bounds: Any = (-np.inf, np.inf), method: str = "trf", ftol: float = 1e-8,
                  xtol: float = 1e-8, gtol: float = 1e-8, x_scale: Any = None,
                  loss: Any = "linear", f_scale: float = 1.0, diff_step: Any = None,
                  tr_solver: Optional[str] = None, tr_options: Optional[dict] = None,
                  jac_sparsity: Any = None, max_nfev: Optional[int] = None, verbose: int = 0,
                  args: Any = (), kwargs: Optional[dict] = None,
                  callback: Optional[Callable[..., Any]] = None, workers: Any = None) -> Any:
    """Minimize ``0.5 * sum(rho(fun(x, *args, **kwargs) ** 2))`` with
    ``scipy.optimize.least_squares``, the Jacobian of ``fun`` by funcgrad.

    SciPy's signature and result: ``x``, ``cost``, ``fun``, ``jac``, ``grad``,
    ``optimality``, ``active_mask``, ``nfev``, ``njev``, ``status``, ``message``,
    ``success``. funcgrad computes the exact Jacobian (``fg.jacfwd``, or ``fg.jacrev``
    for more unknowns than residuals) in place of SciPy's finite differences: ``jac`` may
    stay one of SciPy's strings (``diff_step`` and ``jac_sparsity``, which steer those
    differences, are then moot: ``jac_sparsity`` is refused); your own ``jac(x, *args,
    **kwargs)`` steers SciPy's search as in SciPy (the solution's derivative is funcgrad's).
    ``x0`` may be a pytree: it is raveled for SciPy, ``fun`` receives the pytree, ``res.x``
    has the structure and dtypes of ``x0`` (a scalar ``x0`` gives a 1-element ``x``, as
    SciPy's does), and ``bounds`` are SciPy's ``(lb, ub)`` or ``Bounds`` over the raveled
    ``x``.

    **Differentiable in args.** When ``args`` or ``kwargs`` (pytrees of arrays) carry a
    derivative (traced by ``grad``/``vjp``/``jvp``..., or eager Tensors that require
    grad), or ``fun`` closes over such values, ``res.x`` is differentiable in them by the
    implicit function theorem on the stationarity of the cost (``J^T r = 0`` for
    ``loss='linear'``), with its full Hessian (``J^T J`` plus the residuals' curvature),
    to any order, any method; coordinates bounds hold there stay on them (the KKT rule of
    a box, as :func:`minimize` applies). ``res.fun`` and ``res.cost`` are then computed
    again at the differentiable ``x``, and with ``loss='linear'`` also ``res.jac`` and
    ``res.grad``; a robust loss's ``jac`` and ``grad`` (SciPy's rescaled ones) carry no
    derivative. Raised rather than wrong: a search that did not succeed, a singular
    Hessian (a solution that is not isolated), a coordinate on a bound the gradient does
    not press on, and a callable ``loss`` (funcgrad differentiates SciPy's named losses
    only). ``x0`` gets no derivative.

    Under ``vmap`` or ``jit`` (``args`` or ``x0`` traced), SciPy is called through
    ``fg.pure_callback`` (once per example under ``vmap``), and the result holds ``x``,
    ``fun``, ``cost``, ``optimality``, ``success``, ``status``, ``nfev`` and ``njev``.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import least_squares
    >>> def fun_rosenbrock(x):   # SciPy's example (np.stack: np.array would drop derivatives)
    ...     return np.stack([10 * (x[1] - x[0] ** 2), (1 - x[0])])
    >>> res = least_squares(fun_rosenbrock, np.array([2.0, 2.0]))
    >>> res.x, float(res.cost), bool(res.optimality < 1e-8)
    (array([1., 1.]), 0.0, True)
    >>> # a line fitted to y: the slope is linear in y, its gradient the regression weights
    >>> t = np.array([0.0, 1.0, 2.0, 3.0])
    >>> def slope(y):
    ...     return least_squares(lambda p, y: p[0] + p[1] * t - y, np.zeros(2), args=(y,)).x[1]
    >>> np.round(fg.grad(slope)(np.array([1.0, 3.0, 2.0, 5.0])), 8)
    array([-0.3, -0.1,  0.1,  0.3])
    """
    return _least_squares(fun, x0, jac, bounds, method, ftol, xtol, gtol, x_scale, loss,
                          f_scale, diff_step, tr_solver, tr_options, jac_sparsity, max_nfev,
                          verbose, args, kwargs, callback, workers)


def _least_squares(fun, x0, jac, bounds, method, ftol, xtol, gtol, x_scale, loss, f_scale,
                   diff_step, tr_solver, tr_options, jac_sparsity, max_nfev, verbose, args,
                   kwargs, callback, workers, check=None, name="least_squares"):
    """``least_squares``'s result; ``check(result)``, where given, is called on SciPy's
    result (on the host, under vmap/jit) before anything else reads it."""
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    if not callable(jac) and jac not in _DIFFERENCES:
        raise ValueError(f"{name}: jac={jac!r} is not one of SciPy's: pass a function "
                         f"jac(x, *args, **kwargs), or leave jac as it is ('2-point') and "
                         f"funcgrad computes the exact Jacobian")
    if jac_sparsity is not None:
        raise ValueError(f"{name}: jac_sparsity groups SciPy's finite differences, which "
                         f"funcgrad's exact (dense) Jacobian replaces; leave it out")
    if not isinstance(args, tuple):
        args = (args,)
    keywords = dict(kwargs or {})
    user_fun = fun

    def with_keywords(x, *values):
        return user_fun(x, *values[:-1], **values[-1])

    if not isinstance(x0, (dict, list, tuple)) and fnp.shape(x0) == ():
        x0 = fnp.atleast_1d(x0)   # (SciPy's least_squares takes a scalar as one unknown)
    users = (*args, keywords)
    fun, args, x0, plain_args, wanted = prepare(name, with_keywords, x0, users)
    if wanted and callable(loss):
        raise NotImplementedError(
            f"{name}: args carry a derivative, but loss is a callable: funcgrad "
            f"differentiates the cost of SciPy's named losses only ('linear', 'soft_l1', "
            f"'huber', 'cauchy', 'arctan'). Write the loss into fun (return "
            f"sqrt(rho(f**2)) as residuals), or pass fg.stop_gradient(args) if no "
            f"derivative should flow through the result")
    flat0, unravel = ravel(tree.tree_map(lambda x: np.zeros(np.shape(x), x.dtype)
                                         if isinstance(x, Tracer) else x, x0))
    own = users_jacobian(jac, users, unravel, flat0.dtype, keywords=True)
    options = dict(method=method, ftol=ftol, xtol=xtol, gtol=gtol, loss=loss, f_scale=f_scale,
                   diff_step=diff_step, tr_solver=tr_solver, max_nfev=max_nfev,
                   verbose=verbose)
    # (left to SciPy's defaults when not given: older SciPys lack callback and workers,
    # and want x_scale and tr_options as a value and a dict)
    options.update({k: v for k, v in (("x_scale", x_scale), ("tr_options", tr_options),
                                      ("callback", callback), ("workers", workers))
                    if v is not None})

    def residual(flat, values):
        return ravel(fun(unravel(flat), *values))[0]

    def cost(flat, values):
        if loss == "linear":
            return 0.5 * fnp.sum(residual(flat, values) ** 2)
        z = (residual(flat, values) / f_scale) ** 2
        return 0.5 * f_scale ** 2 * fnp.sum(_LOSSES[loss](z))

    def solve(start, values):
        result, flat_bounds = _call_scipy(
            optimize, lambda x: residual(x, values), ravel(start)[0], bounds, options,
            None if own is None else lambda x: own(x, values))
        if check is not None:
            check(result)
        held = None
        if wanted:
            held = check_optimum(result, flat_bounds,
                                 value_and_grad(lambda x: cost(x, values)), name)
        result.x = unravel(result.x)
        return result, held

    result, held, traced = search(solve, x0, plain_args, _TRACED_FIELDS, unravel)
    if not wanted:
        if traced:   # (SciPy's fun stays on the host)
            result.fun = residual(ravel(result.x)[0], plain_args)
        return result
    flat_x = differentiable_minimum(lambda x, *values: cost(ravel(x)[0], values),
                                    ravel(result.x)[0], unravel, args, held, name,
                                    "the cost")
    result.x = unravel(flat_x)
    result.fun = residual(flat_x, args)
    result.cost = cost(flat_x, args)
    if loss == "linear":
        result.jac = _jacobian(lambda x: residual(x, args), flat_x)
        result.grad = result.jac.T @ result.fun
    return result


def _jacobian(residual, flat_x):
    """The Jacobian of ``residual`` at ``flat_x``, by the cheaper mode for its shape."""
    m = residual(flat_x).shape[0]
    return (jacfwd if flat_x.shape[0] <= m else jacrev)(residual)(flat_x)


def _call_scipy(optimize, residual, flat0, bounds, options, own=None):
    """SciPy's result (``x`` flat, in ``flat0``'s dtype) and its bounds as ``Bounds``; the
    user's Jacobian ``own`` steers the search where given, else funcgrad's."""
    dtype = flat0.dtype

    def values(x):
        return np.asarray(residual(np.asarray(x, dtype)), dtype=float)

    def jacobian(x):
        return np.atleast_2d(np.asarray(_jacobian(residual, np.asarray(x, dtype)),
                                        dtype=float))

    lower, upper = (bounds.lb, bounds.ub) if isinstance(bounds, optimize.Bounds) else bounds
    # (SciPy broadcasts a pair's scalars, but wants a Bounds' arrays shaped as x)
    bounds = optimize.Bounds(*[np.broadcast_to(np.asarray(b, dtype=float), flat0.shape).copy()
                               for b in (lower, upper)])
    result = optimize.least_squares(values, np.asarray(flat0, dtype=float), jac=own or jacobian,
                                    bounds=bounds, **options)
    result.x = np.asarray(result.x, dtype)
    return result, (bounds if np.any(np.isfinite(bounds.lb) | np.isfinite(bounds.ub))
                    else None)
