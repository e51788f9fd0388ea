"""SciPy's legacy constrained minimizers ``fmin_slsqp`` and ``fmin_cobyla`` (SciPy's
signatures and returns, each a call of :func:`funcgrad.scipy.optimize.minimize` with
SciPy's options, the gradients funcgrad's), and ``line_search`` (SciPy's Wolfe line search
with funcgrad's gradient).

The minimizer's derivative in ``args``: where no constraint is active at the solution
(every inequality clearly positive, no equality), the constraints do not hold it there
under small changes, so it moves as the unconstrained minimum does (the implicit function
theorem on the gradient, :mod:`._implicit_minimum`; bounds that hold coordinates by the
box's KKT rule).  An active constraint would need its multiplier in the KKT system,
which is not implemented: asking for a derivative there raises.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..api import grad, value_and_grad
from ..callback import pure_callback
from ..core import Tracer, is_special
from ..numpy._convert import concrete_values, is_concrete
from ..typing import ArrayLike
from ._implicit_minimum import check_optimum, differentiable_minimum
from ._implicit_root import plain, prepare, refuse_failed, wants_derivative
from ._minimize import minimize
from ._optlegacy_fmin import _fields

__all__ = ["fmin_slsqp", "fmin_cobyla", "line_search"]

_EPSILON = float(np.sqrt(np.finfo(float).eps))


def _scalar(name, func):
    def objective(x, *values):
        # (SciPy takes a one-element array for the scalar, as x**2 of a 1-D x gives)
        value = fnp.asarray(func(x, *values))
        if value.size != 1:
            raise ValueError(f"{name}: func must return a scalar, got shape {value.shape}")
        return fnp.reshape(value, ())
    return objective


def _constrained(name, method, func, x0, args, constraints, bounds, options, callback,
                 margin, tol=None):
    """``(result, x)``: ``minimize``'s result for the legacy wrapper ``name`` on a flat
    ``x0``, and its ``x`` with the derivative the implicit rule gives where the
    ``constraints`` (SciPy's dicts, each taking ``args`` of its own) are all inactive:
    inequalities above ``margin`` at the solution."""
    x0 = fnp.asarray(x0)
    if x0.dtype.kind != "f":
        x0 = x0.astype(float)   # (SciPy's wrappers take integers and minimize in floats)
    if not isinstance(args, tuple):
        args = (args,)
    fun, all_args, flat0, plain_args, wanted = prepare(name, _scalar(name, func),
                                                       fnp.ravel(x0), args)
    plain_constraints = [dict(c, args=tuple(plain(a, name) for a in c.get("args", ())))
                         for c in constraints]
    if any(wants_derivative(leaf) for c in constraints
           for leaf in tree.leaves(c.get("args", ()), is_special)) and not wanted:
        wanted = True
    result = minimize(fun, flat0, args=plain_args, method=method, bounds=bounds,
                      constraints=plain_constraints, tol=tol, callback=callback,
                      options=options)
    if not wanted:
        return result, result.x

    def verify(x, success, *leaves):
        """The coordinates bounds hold at ``x`` (mask, bounds' values), after the checks
        that the implicit rule gives its derivative; on concrete values."""
        values = tree.unflatten(arg_tree, list(leaves))
        if not success:
            raise refuse_failed(name, result.get("message", "success is False"))
        for constraint in plain_constraints:
            value = np.asarray(constraint["fun"](x, *constraint["args"]), float)
            if constraint["type"] == "eq" or np.any(value <= margin):
                raise NotImplementedError(
                    f"{name}: a derivative in args was asked, and a constraint is active at "
                    f"the solution ({'an equality' if constraint['type'] == 'eq' else 'an inequality within ' + format(margin, '.3g') + ' of zero'}"
                    f"): the solution's derivative then needs the constraints' multipliers "
                    f"in the KKT system, which funcgrad does not implement (the "
                    f"unconstrained rule would be silently wrong). Reparametrize x so the "
                    f"constraint holds by construction, or pass fg.stop_gradient(args) if "
                    f"no derivative should flow through the solution")
        import scipy.optimize as optimize
        at = optimize.OptimizeResult(x=x, success=True)
        mask, pinned = check_optimum(at, bounds, value_and_grad(
            lambda z: fun(z, *values)), name) or (np.zeros(x.shape, bool), np.zeros_like(x))
        return mask, np.asarray(pinned, x.dtype)

    leaves, arg_tree = tree.flatten(plain_args, is_special)
    x_plain = result.x
    if is_concrete(x_plain) and not any(isinstance(v, Tracer) for v in leaves):
        held = verify(np.asarray(concrete_values(x_plain, name, "")), bool(result.success),
                      *leaves)
    else:
        held = pure_callback(lambda x, s, *v: verify(np.asarray(x), bool(s), *v),
                             (np.zeros(x_plain.shape, bool), np.zeros(x_plain.shape,
                                                                     x_plain.dtype)),
                             x_plain, result.success, *leaves, vmap_method="sequential")
    return result, differentiable_minimum(fun, x_plain, lambda z: z, all_args, held, name)


def fmin_slsqp(func: Callable[..., Any], x0: ArrayLike, eqcons: Any = (),
               f_eqcons: Optional[Callable[..., Any]] = None, ieqcons: Any = (),
               f_ieqcons: Optional[Callable[..., Any]] = None, bounds: Any = (),
               fprime: Any = None, fprime_eqcons: Any = None, fprime_ieqcons: Any = None,
               args: Any = (), iter: int = 100, acc: float = 1e-6, iprint: int = 1,
               disp: Any = None, full_output: int = 0, epsilon: float = _EPSILON,
               callback: Optional[Callable[..., Any]] = None) -> Any:
    """Minimize ``func(x, *args)`` under constraints by Sequential Least SQuares
    Programming, as ``scipy.optimize.fmin_slsqp`` (``minimize(method='SLSQP')``), with
    funcgrad's exact gradients of ``func`` and of the constraints (``fprime``,
    ``fprime_eqcons``, ``fprime_ieqcons`` and ``epsilon`` are not used).

    SciPy's signature and return: ``x``; with ``full_output`` ``(x, fx, its, imode,
    smode)``. ``eqcons``/``ieqcons``: functions ``c(x, *args)`` that must be zero / at
    least zero; ``f_eqcons``/``f_ieqcons``: one function returning an array of them;
    ``bounds``: ``(min, max)`` pairs. ``iprint`` (or ``disp``) nonzero prints SciPy's
    summary.

    ``x`` is differentiable in ``args`` (and in values ``func`` closes over) where no
    constraint is active at the solution: it moves there as the unconstrained minimum
    does (implicit function theorem; coordinates held by ``bounds`` stay). With an
    equality, or an inequality within ``10 * acc`` of zero there, a derivative raises
    (the multipliers' KKT rule is not implemented), as does one asked of a search that
    did not succeed.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fmin_slsqp
    >>> f = lambda x: (x[0] - 1) ** 2 + (x[1] - 2.5) ** 2
    >>> x = fmin_slsqp(f, [2.0, 0.0], ieqcons=[lambda x: 2.0 - x[0] - x[1]], iprint=0)
    >>> np.round(x, 6)                       # the constraint x0 + x1 <= 2 is active
    array([0.25, 1.75])
    >>> # the optimum of (x - a)**2 on x <= 3 is a while a < 3
    >>> float(fg.grad(lambda a: fmin_slsqp(lambda x, a: np.sum((x - a) ** 2), [0.0],
    ...                                    ieqcons=[lambda x, a: 3.0 - x[0]], args=(a,),
    ...                                    iprint=0)[0])(1.0))
    1.0
    """
    constraints = [{"type": "eq", "fun": c, "args": args} for c in eqcons]
    constraints += [{"type": "ineq", "fun": c, "args": args} for c in ieqcons]
    if f_eqcons:
        constraints.append({"type": "eq", "fun": f_eqcons, "args": args})
    if f_ieqcons:
        constraints.append({"type": "ineq", "fun": f_ieqcons, "args": args})
    options = {"maxiter": iter, "ftol": acc, "eps": epsilon,
               "disp": iprint != 0 if disp is None else bool(disp)}
    result, x = _constrained("fmin_slsqp", "SLSQP", func, x0,
                             args if isinstance(args, tuple) else (args,), constraints,
                             list(bounds) or None, options, callback,
                             margin=max(10 * acc, 1e-8))
    if not full_output:
        return x
    return (x,) + _fields(result, "fmin_slsqp", "fun", "nit", "status", "message")


def fmin_cobyla(func: Callable[..., Any], x0: ArrayLike, cons: Any, args: Any = (),
                consargs: Any = None, rhobeg: float = 1.0, rhoend: float = 1e-4,
                maxfun: int = 1000, disp: Any = None, catol: float = 2e-4, *,
                callback: Optional[Callable[..., Any]] = None) -> Any:
    """Minimize ``func(x, *args)`` under inequality constraints by Constrained
    Optimization BY Linear Approximation, as ``scipy.optimize.fmin_cobyla``
    (``minimize(method='COBYLA')``, derivative-free).

    SciPy's signature and return: ``x``. ``cons``: a function or a sequence of functions
    ``c(x, *consargs)`` that must be at least zero (``consargs`` defaults to ``args``).

    ``x`` is differentiable in ``args`` where no constraint is active at the solution
    (every ``c`` above ``10 * max(rhoend, catol)`` there): it moves as the unconstrained
    minimum does, by the implicit function theorem at COBYLA's ``x``, which is accurate to
    about ``rhoend`` (make ``rhoend`` small for an accurate derivative). An active
    constraint raises when a derivative is asked (the multipliers' KKT rule is not
    implemented), as does a search that did not succeed.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fmin_cobyla
    >>> def objective(x):   # SciPy's example: x0 * x1 on the upper half of the unit disk
    ...     return x[0] * x[1]
    >>> cons = [lambda x: 1 - (x[0] ** 2 + x[1] ** 2), lambda x: x[1]]
    >>> np.round(fmin_cobyla(objective, [0.0, 0.1], cons, rhoend=1e-7), 4)
    array([-0.7071,  0.7071])
    >>> # the minimizer of (x - a)**2 inside x <= 3 is a, where the constraint is slack
    >>> round(float(fg.grad(lambda a: fmin_cobyla(
    ...     lambda x, a: np.sum((x - a) ** 2), [0.0], [lambda x, a: 3.0 - x[0]],
    ...     args=(a,), rhoend=1e-8)[0])(1.0)), 6)
    1.0
    """
    if callable(cons):
        cons = [cons]
    if not all(callable(c) for c in cons):
        raise TypeError("cons must be a sequence of callable functions or a single "
                        "callable function.")
    if not isinstance(args, tuple):
        args = (args,)
    consargs = args if consargs is None else (
        consargs if isinstance(consargs, tuple) else (consargs,))
    constraints = [{"type": "ineq", "fun": c, "args": consargs} for c in cons]
    options = {"rhobeg": rhobeg, "maxiter": maxfun, "disp": bool(disp), "catol": catol}
    _, x = _constrained("fmin_cobyla", "COBYLA", func, x0, args, constraints, None, options,
                        callback, margin=10 * max(rhoend, catol), tol=rhoend)
    return x


def line_search(f: Callable[..., Any], myfprime: Optional[Callable[..., Any]], xk: ArrayLike,
                pk: ArrayLike, gfk: Any = None, old_fval: Any = None, old_old_fval: Any = None,
                args: Any = (), c1: float = 1e-4, c2: float = 0.9, amax: Any = None,
                extra_condition: Optional[Callable[..., Any]] = None,
                maxiter: int = 10) -> Any:
    """A step ``alpha`` along ``pk`` from ``xk`` that meets the strong Wolfe conditions, by
    ``scipy.optimize.line_search``, with ``myfprime`` the gradient of ``f`` by funcgrad
    (``fg.grad(f)``) where it is None.

    SciPy's signature and return: ``(alpha, fc, gc, new_fval, old_fval, new_slope)``
    (``alpha``, ``new_fval`` and ``new_slope`` None where the search does not converge,
    with SciPy's ``LineSearchWarning``).

    The step is any point that meets the Wolfe conditions, found by bracketing and
    interpolation: it has no derivative. Inputs that carry one (``xk``, ``pk``, ``args``...
    traced by ``grad``/``jvp``...) raise; so do calls under ``vmap`` or ``jit`` (the search
    needs values).

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import line_search
    >>> def f(x):   # SciPy's example
    ...     return x[0] ** 2 + x[1] ** 2
    >>> alpha, fc, gc, new_fval, old_fval, new_slope = line_search(
    ...     f, None, np.array([1.8, 1.7]), np.array([-1.0, -1.0]))
    >>> alpha, fc, gc
    (1.0, 2, 1)
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    if not isinstance(args, tuple):
        args = (args,)
    inputs = (xk, pk, gfk, old_fval, old_old_fval, args)
    if any(wants_derivative(leaf) for leaf in tree.leaves(inputs, is_special)):
        raise ValueError(
            "line_search: an input carries a derivative, but the Wolfe step is any point "
            "that meets the Wolfe conditions (found by bracketing and interpolation), so it "
            "has none. Pass fg.stop_gradient(...) of the inputs")
    fix = "Call it outside vmap and jit: the search needs values"
    start, direction, gradient0 = (None if v is None else np.asarray(
        concrete_values(fnp.asarray(v), "line_search", fix), float) for v in (xk, pk, gfk))
    fval, old_old = (None if v is None else float(
        concrete_values(fnp.asarray(v), "line_search", fix)) for v in (old_fval, old_old_fval))
    if myfprime is None:
        gradient = grad(lambda x, *a: fnp.reshape(fnp.asarray(f(x, *a)), ()))

        def myfprime(x, *a):
            return np.asarray(gradient(np.asarray(x, float), *a), float)

    def value(x, *a):
        return float(np.asarray(f(x, *a)))

    return optimize.line_search(value, myfprime, start, direction, gfk=gradient0,
                                old_fval=fval, old_old_fval=old_old, args=args, c1=c1, c2=c2,
                                amax=amax, extra_condition=extra_condition, maxiter=maxiter)
