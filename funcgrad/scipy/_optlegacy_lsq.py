"""SciPy's legacy least squares ``leastsq`` (MINPACK's Levenberg-Marquardt, its Jacobian
computed by funcgrad, the solution differentiable by the implicit function theorem as
``least_squares``'s: :func:`._implicit_minimum.differentiable_minimum` on the cost), and
the finite-difference helpers ``approx_fprime`` and ``check_grad``.
"""
import warnings
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..api import value_and_grad
from ..core import Tracer, is_special
from ..jacobians import jacfwd
from ..lax import stop_gradient
from ..tree import leaves, ravel
from ..typing import ArrayLike
from ._implicit_minimum import check_optimum, differentiable_minimum
from ._implicit_root import prepare, search, users_jacobian, wants_derivative

__all__ = ["leastsq", "approx_fprime", "check_grad"]

_EPSILON = float(np.sqrt(np.finfo(float).eps))
# (what a traced call returns besides x: MINPACK's exit code)
_TRACED_FIELDS = (("ier", np.int64),)


def leastsq(func: Callable[..., Any], x0: ArrayLike, args: Any = (), Dfun: Any = None,
            full_output: bool = False, col_deriv: bool = False, ftol: float = 1.49012e-08,
            xtol: float = 1.49012e-08, gtol: float = 0.0, maxfev: int = 0,
            epsfcn: Optional[float] = None, factor: float = 100, diag: Any = None) -> Any:
    """Minimize ``sum(func(x, *args) ** 2)`` by ``scipy.optimize.leastsq`` (MINPACK's
    Levenberg-Marquardt), the Jacobian your ``Dfun(x, *args)`` as in SciPy (rows, or
    columns with ``col_deriv``), or funcgrad's exact one where left out (MINPACK's
    ``lmder`` then runs where SciPy would difference with ``lmdif``: ``epsfcn`` has no
    effect).

    SciPy's signature and return: ``(x, ier)``, or with ``full_output`` ``(x, cov_x,
    infodict, mesg, ier)`` (``infodict``: ``nfev``, ``fvec``, ``fjac``, ``ipvt``,
    ``qtf``; ``cov_x`` None where the Jacobian is rank deficient). ``x0`` is flattened and
    ``func`` receives a 1-D array; ``x`` keeps ``x0``'s floating dtype. As in SciPy, an
    ``ier`` of 5 to 8 warns (``RuntimeWarning``) and improper input raises
    (``TypeError``) unless ``full_output`` is set.

    ``x`` is differentiable in ``args`` (and in values ``func`` closes over) by the
    implicit function theorem on the stationarity of the cost, with its full Hessian, as
    :func:`least_squares`'s; ``cov_x`` and ``infodict`` carry no derivative. A derivative
    asked of a search that did not succeed (``ier`` not in 1 to 4), or of a solution that
    is not isolated, raises. Under ``vmap`` or ``jit`` ``(x, ier)`` comes back as arrays
    (``full_output`` needs SciPy's objects and raises there).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import leastsq
    >>> def func(x):   # SciPy's example
    ...     return 2 * (x - 3) ** 2 + 1
    >>> x, ier = leastsq(func, 0.0)
    >>> np.round(x, 6), ier in (1, 2, 3, 4)   # (SciPy's differences stop at 2.9963)
    (array([3.]), True)
    >>> # a line through y: the fitted slope is linear in y, its gradient the weights
    >>> t = np.array([0.0, 1.0, 2.0, 3.0])
    >>> slope = lambda y: leastsq(lambda p, y: p[0] + p[1] * t - y, np.zeros(2), args=(y,))[0][1]
    >>> np.round(fg.grad(slope)(np.array([1.0, 3.0, 2.0, 5.0])), 8)
    array([-0.3, -0.1,  0.1,  0.3])
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    x0 = fnp.asarray(x0)
    if x0.dtype.kind != "f":
        x0 = x0.astype(float)   # (SciPy's leastsq takes integers and solves in floats)
    x0 = fnp.ravel(x0)
    users = args if isinstance(args, tuple) else (args,)
    fun, args, x0, plain_args, wanted = prepare("leastsq", func, x0, users)
    dtype = x0.dtype
    own = users_jacobian(Dfun, users, lambda x: x, dtype)

    def residual(x, values):
        return ravel(fun(x, *values))[0]

    def cost(x, values):
        return 0.5 * fnp.sum(residual(x, values) ** 2)

    def solve(start, values):
        def plain_residual(x):
            return np.asarray(residual(np.asarray(x, dtype), values), dtype=float)

        if own is not None:
            jac, layout = (lambda x: own(x, values)), col_deriv
        else:
            jacobian = jacfwd(lambda x: residual(x, values))
            jac, layout = (lambda x: np.atleast_2d(np.asarray(
                jacobian(np.asarray(x, dtype)), dtype=float))), False
        x, cov_x, info, mesg, ier = optimize.leastsq(
            plain_residual, np.asarray(start, dtype=float), Dfun=jac, full_output=True,
            col_deriv=layout, ftol=ftol, xtol=xtol, gtol=gtol, maxfev=maxfev,
            epsfcn=epsfcn, factor=factor, diag=diag)
        if not full_output and ier in (5, 6, 7, 8):
            warnings.warn(mesg, RuntimeWarning, stacklevel=4)
        elif not full_output and ier not in (1, 2, 3, 4):
            raise TypeError(mesg)
        result = optimize.OptimizeResult(x=np.asarray(x, dtype), cov_x=cov_x, infodict=info,
                                         message=mesg, ier=ier, success=ier in (1, 2, 3, 4))
        if wanted:
            check_optimum(result, None, value_and_grad(lambda x: cost(x, values)), "leastsq")
        return result, None

    result, _, traced = search(solve, x0, plain_args, _TRACED_FIELDS, lambda x: x)
    x = result.x
    if wanted:
        x = differentiable_minimum(lambda z, *values: cost(z, values), x, lambda z: z, args,
                                   None, "leastsq", "the cost")
    if not full_output:
        return x, result.ier
    if traced:
        raise NotImplementedError(
            "leastsq: full_output=True under vmap or jit: cov_x, infodict and mesg are "
            "SciPy's objects, which a traced call cannot return. Leave full_output out "
            "(x and ier come back as arrays), or call least_squares, whose result holds "
            "x, cost, fun and status as arrays")
    return x, result.cov_x, result.infodict, result.message, result.ier


def approx_fprime(xk: ArrayLike, f: Callable[..., Any], epsilon: Any = _EPSILON,
                  *args: Any) -> Any:
    """The forward-difference derivative of ``f(xk, *args)`` (a scalar or a 1-D array) in
    the 1-D ``xk``, as ``scipy.optimize.approx_fprime``: ``(f(xk + h_i e_i) - f(xk)) /
    h_i`` with SciPy's steps ``h_i`` (``epsilon``, a scalar or one per element; SciPy's
    relative step where ``epsilon`` is lost in ``xk[i]``), the values SciPy gives, in
    float64 (``xk`` is converted, as SciPy does).

    Shape ``(n,)`` for a scalar ``f`` (or one with one value), else ``(m, n)``. Written
    with funcgrad's operations, so that it is itself differentiable (the derivative of
    the difference quotient, the steps held fixed), batches under ``vmap`` and traces
    under ``jit``. For the exact derivative use ``fg.grad`` or ``fg.jacobian``.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import approx_fprime
    >>> def func(x, c0, c1):   # SciPy's example
    ...     return c0 * x[0] ** 2 + c1 * x[1] ** 2
    >>> x = np.ones(2)
    >>> eps = np.sqrt(np.finfo(float).eps)
    >>> approx_fprime(x, func, [eps, np.sqrt(200) * eps], 1, 200)
    array([  2.        , 400.00004208])
    >>> fg.grad(func)(x, 1.0, 200.0)   # funcgrad's exact gradient
    array([  2., 400.])
    """
    xk = fnp.asarray(xk, dtype=np.float64)
    f0 = fnp.atleast_1d(fnp.asarray(f(xk, *args)))
    x0 = fnp.atleast_1d(xk)
    if x0.ndim > 1 or f0.ndim > 1:
        which, shape = ("xk", xk.shape) if x0.ndim > 1 else ("f(xk)", f0.shape)
        raise ValueError(f"approx_fprime: {which} has shape {shape}; it must be a scalar "
                         f"or 1-D (ravel it, and reshape inside f)")
    n = x0.shape[0]
    fixed = stop_gradient(x0)   # (the steps are constants of the difference quotient)
    eps = np.finfo(np.float64).eps
    if f0.dtype.kind in "fc" and f0.dtype.itemsize < 8:
        eps = np.finfo(f0.dtype).eps   # (SciPy's step for a lower-precision f)
    step = fnp.broadcast_to(fnp.asarray(epsilon, dtype=np.float64), x0.shape)
    # a step lost in x0 (x0 huge) falls back to a relative one, as SciPy's
    step = fnp.where((fixed + step) - fixed == 0,
                     np.sqrt(eps) * fnp.where(fixed >= 0, 1.0, -1.0)
                     * fnp.maximum(1.0, fnp.abs(fixed)), step)
    rows = []
    for i in range(n):
        unit = np.arange(n) == i
        taken = (fixed[i] + step[i]) - fixed[i]   # (the step as it is represented)
        rows.append((fnp.atleast_1d(f(x0 + fnp.where(unit, step, 0.0), *args)) - f0) / taken)
    jacobian_t = fnp.stack(rows).astype(np.float64)
    if f0.shape[0] == 1:
        return fnp.ravel(jacobian_t)
    return fnp.transpose(jacobian_t)


def check_grad(func: Callable[..., Any], grad: Callable[..., Any], x0: ArrayLike,
               *args: Any, epsilon: Any = _EPSILON, direction: str = "all",
               rng: Any = None, seed: Any = None) -> float:
    """The 2-norm of ``grad(x0, *args)`` minus the forward-difference gradient of ``func``
    at ``x0``, by ``scipy.optimize.check_grad`` (SciPy's signature: ``direction='random'``
    compares along one random direction, drawn from ``rng``; ``seed``, SciPy's older name
    for it, is passed on only when given).

    A check of values: ``x0`` and ``args`` must be concrete (outside ``grad``, ``vmap``
    and ``jit``). With funcgrad, ``grad`` can be ``fg.grad(func)``; the answer is then the
    finite difference's own error, about ``sqrt(eps)`` times the curvature.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import check_grad
    >>> def func(x):   # SciPy's example
    ...     return x[0] ** 2 - 0.5 * x[1] ** 3
    >>> bool(check_grad(func, fg.grad(func), [1.5, -1.5]) < 1e-6)
    True
    >>> bool(check_grad(func, lambda x: np.array([2 * x[0], 0.0]), [1.5, -1.5]) > 3)
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    if any(isinstance(leaf, Tracer) or wants_derivative(leaf)
           for leaf in leaves((x0, args), is_special)):
        raise TypeError("check_grad: x0 and args must be concrete values (it compares "
                        "numbers; it has no derivative, batch or trace): call it outside "
                        "grad, vmap and jit, on plain arrays")
    keywords = {k: v for k, v in (("rng", rng), ("seed", seed)) if v is not None}
    return optimize.check_grad(func, grad, x0, *args, epsilon=epsilon, direction=direction,
                               **keywords)
