"""``funcgrad.scipy.optimize.minimize_scalar``: SciPy's scalar minimizers (Brent's method,
golden section, bounded), the minimizer differentiable in ``args`` by the implicit function
theorem on ``f'(x) = 0`` (:func:`._scalar_roots._solve`): ``dx*/dargs = -f_x,args / f_xx``.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..api import grad
from ._scalar_roots import _solve

__all__ = ["minimize_scalar"]

_METHODS = ("brent", "golden", "bounded")


def minimize_scalar(fun: Callable[..., Any], bracket: Any = None, bounds: Any = None,
                    args: Any = (), method: Optional[str] = None, tol: Optional[float] = None,
                    options: Optional[dict] = None) -> Any:
    """Minimize the scalar function ``fun(x, *args)`` of one variable with
    ``scipy.optimize.minimize_scalar`` (SciPy's signature, methods and ``OptimizeResult``:
    ``x``, ``fun``, ``nit``, ``nfev``, ``success``, ``message``).

    ``res.x`` is differentiable in ``args`` (and in values ``fun`` closes over) by the
    implicit function theorem at the minimum, ``dx*/dargs = -(d2f/dx dargs) / (d2f/dx2)``,
    to any order, under ``vmap`` and ``jit`` too; ``res.fun`` is ``fun(res.x, *args)``
    (its first derivative the envelope theorem's). With ``method='bounded'`` a minimum on
    a bound stays there (derivative zero: the KKT rule). A search that did not succeed,
    or a flat minimum (``d2f/dx2 = 0``), raises when a derivative is asked.

    >>> import funcgrad as fg
    >>> from funcgrad.scipy.optimize import minimize_scalar
    >>> res = minimize_scalar(lambda x: (x - 2) * x * (x + 2) ** 2)   # SciPy's example
    >>> round(float(res.x), 6), res.success
    (1.280776, True)
    >>> # the minimizer of cosh(x) - a x is asinh(a): d/da = 1 / sqrt(1 + a**2)
    >>> def x_of(a):
    ...     return minimize_scalar(lambda x, a: fg.numpy.cosh(x) - a * x, args=(a,)).x
    >>> round(float(fg.grad(x_of)(0.75)), 6)
    0.8
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    if callable(method):
        raise NotImplementedError("minimize_scalar: a custom method (a callable) is not "
                                  "supported; use 'brent', 'golden' or 'bounded'")
    name = (method or ("bounded" if bounds is not None else "brent")).lower()
    if name not in _METHODS:
        raise ValueError(f"Unknown solver {method}")
    if name == "bounded" and bounds is None:
        raise ValueError("The `bounds` parameter is mandatory for method `bounded`.")

    def run(g, start, ends, values):
        scipy_bracket, scipy_bounds = ends
        res = optimize.minimize_scalar(
            lambda x: np.asarray(g(np.asarray(x, start.dtype)), dtype=float)[()],
            bracket=scipy_bracket, bounds=scipy_bounds if name == "bounded" else None,
            method=name, tol=tol, options=options)
        return res.x, {"converged": bool(res.success), "flag": str(res.message),
                       "iterations": int(res.get("nit", -1)),
                       "function_calls": int(res.nfev), "results": res}

    def stationary(f):
        derivative = grad(f)
        if name != "bounded":
            return derivative
        lo, hi = (float(b) for b in bounds)
        # x = clip(x - f'(x)): f'(x) = 0 inside, the bound itself where f' presses on it
        return lambda x, *a: x - fnp.clip(x - derivative(x, *a), lo, hi)

    ends = (None if bracket is None else tuple(bracket),
            None if bounds is None else tuple(bounds))
    x, found = _solve("minimize_scalar", fun, fnp.asarray(0.0), ends, args, run, stationary)
    args = args if isinstance(args, tuple) else (args,)
    results = found.get("results")
    if results is None:   # (vmap, jit: the array fields)
        return optimize.OptimizeResult(x=x, fun=fun(x, *args), success=found["converged"],
                                       nit=found["iterations"], nfev=found["function_calls"])
    results.x = x
    results.fun = fun(x, *args)
    return results
