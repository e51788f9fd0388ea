"""``funcgrad.scipy.optimize.root`` and ``fsolve``: SciPy's solvers of ``fun(x) = 0``, the
Jacobian they use computed by funcgrad, the root differentiable in ``args`` by the
implicit function theorem (:mod:`._implicit_root`): ``dx* = -J^-1 (d fun / d args)``,
``J`` the Jacobian of ``fun`` in ``x`` at the root.
"""
import warnings
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..core import Tracer
from ..jacobians import jacfwd
from ..tree import ravel
from ..typing import ArrayLike, PyTree
from ._implicit_root import (differentiable_root, prepare, refuse_failed, search,
                             users_jacobian)

__all__ = ["root", "fsolve"]

# the methods of scipy.optimize.root that read jac; the others build their own
# approximations from values of fun
_JAC_METHODS = {"hybr", "lm"}
# (what a traced call returns: OptimizeResult's array fields)
_TRACED_FIELDS = (("success", np.bool_), ("status", np.int64), ("nfev", np.int64))


def root(fun: Callable[..., Any], x0: PyTree, args: Any = (), method: str = "hybr",
         jac: Any = None, tol: Optional[float] = None,
         callback: Optional[Callable[..., Any]] = None,
         options: Optional[dict[str, Any]] = None) -> Any:
    """Solve ``fun(x, *args) = 0`` with ``scipy.optimize.root``, the Jacobian by funcgrad.

    SciPy's signature and result (``x``, ``success``, ``status``, ``message``, ``fun``,
    ``nfev``, and what the method adds: ``njev``, ``fjac``...). ``x0`` may be a pytree
    (a dict of arrays, say): it is raveled for SciPy (:func:`funcgrad.tree.ravel`),
    ``fun`` receives the pytree and may return any pytree of as many values, and ``res.x``
    has the structure and dtypes of ``x0`` (SciPy's ``hybr`` would flatten it). funcgrad
    computes the Jacobian for the methods that read one (``hybr``, ``lm``: ``fg.jacfwd``)
    where ``jac`` is left out; your own ``jac(x, *args)`` (x shaped as ``x0``, a 2-D
    array back) steers SciPy's search as in SciPy, and the root's derivative is
    funcgrad's either way. The other methods (``broyden1``, ``krylov``, ``df-sane``...)
    work from values of ``fun`` alone. ``callback(x, f)`` receives the pytree.

    **Differentiable in args.** When ``args`` (a pytree of arrays) carries a derivative
    (traced by ``grad``/``vjp``/``jvp``..., or eager Tensors that require grad), or when
    ``fun`` closes over such values, ``res.x`` is differentiable in them by the implicit
    function theorem at the root: ``dx*/dargs = -J^-1 d fun/d args`` with ``J`` the
    Jacobian of ``fun`` in ``x`` there, solved densely, to any order, whichever method
    found the root; ``res.fun`` is then ``fun(res.x, *args)``. ``x0`` gets no derivative
    (a traced ``x0`` is fine, its derivative is zero). Raised rather than wrong: a search
    that did not succeed (SciPy's message), a singular ``J`` (a root that is not isolated),
    and ``lm`` on more equations than unknowns (a least-squares point, not a root: use
    :func:`least_squares`).

    Under ``vmap`` or ``jit`` (``args`` or ``x0`` traced), SciPy is called through
    ``fg.pure_callback`` (once per example under ``vmap``), and the result holds ``x``,
    ``success``, ``status`` and ``nfev`` as arrays.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import root
    >>> def fun(x):   # SciPy's example: a nonlinear system of two equations
    ...     return [x[0] + 0.5 * (x[0] - x[1]) ** 3 - 1.0,
    ...             0.5 * (x[1] - x[0]) ** 3 + x[1]]
    >>> sol = root(fun, np.array([0.0, 0.0]), method="hybr")
    >>> sol.success, np.round(sol.x, 8)
    (True, array([0.8411639, 0.1588361]))
    >>> # the root of x**3 + a x - 1 moves with a as -x / (3 x**2 + a)
    >>> def x_of(a):
    ...     return root(lambda x, a: x ** 3 + a * x - 1.0, np.array([1.0]), args=(a,)).x[0]
    >>> x = x_of(2.0)
    >>> bool(np.isclose(fg.grad(x_of)(2.0), -x / (3 * x ** 2 + 2.0)))
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    if jac is True:
        raise ValueError("root: jac=True (fun returning its Jacobian too) is not supported: "
                         "pass the Jacobian as a function jac(x, *args), or leave jac out and "
                         "funcgrad computes it from fun")
    return _root("root", optimize, fun, x0, args, method, tol, callback, options, jac=jac)


def _root(name, optimize, fun, x0, args, method, tol, callback, options, check=None,
          jac=None):
    """``root``'s result; ``check(result)``, where given, is called on SciPy's result (on
    the host, under vmap/jit) before anything else reads it."""
    users = args if isinstance(args, tuple) else (args,)
    fun, args, x0, plain_args, wanted = prepare(name, fun, x0, args)
    flat0, unravel = ravel(tree.tree_map(lambda x: np.zeros(np.shape(x), x.dtype)
                                         if isinstance(x, Tracer) else x, x0))
    own = users_jacobian(jac, users, unravel, flat0.dtype)

    def residual(flat, values):
        return ravel(fun(unravel(flat), *values))[0]

    def solve(start, values):
        result = _call_scipy(optimize, lambda x: residual(x, values), ravel(start)[0], method,
                             tol, _wrap_callback(callback, unravel, flat0.dtype), options,
                             None if own is None else lambda x: own(x, values))
        if check is not None:
            check(result)
        if wanted and not result.success:
            raise refuse_failed(name, result.message)
        result.x = unravel(result.x)
        return result, None

    result, _, traced = search(solve, x0, plain_args, _TRACED_FIELDS, unravel)
    if not traced and not wanted:
        return result
    if wanted:
        x_star = ravel(result.x)[0]
        size = ravel(fun(result.x, *args))[0].shape[0]
        if size != x_star.shape[0]:
            raise ValueError(
                f"{name}: fun returns {size} values for {x_star.shape[0]} unknowns: the "
                f"derivative of a root needs as many equations as unknowns (lm finds a "
                f"least-squares point of an overdetermined system, not a root). Use "
                f"least_squares, whose solution is differentiable")
        result.x = unravel(differentiable_root(
            lambda x: residual(x, args), x_star, lambda what: (
                f"{name}: the Jacobian of fun in x at the root {what}, so the root's "
                f"derivative in args (-J^-1 times d fun / d args, by the implicit function "
                f"theorem) does not exist: the root is not isolated (a multiple root, or fun "
                f"constant along some direction of x). Make the root simple (reformulate "
                f"fun), or pass fg.stop_gradient(args) if no derivative should flow through "
                f"the root")))
        result.fun = fun(result.x, *args)
    return result


def _call_scipy(optimize, residual, flat0, method, tol, callback, options, own=None):
    """SciPy's root of the flat ``residual`` (``x`` in ``flat0``'s dtype), with the user's
    Jacobian ``own`` where given, else funcgrad's."""
    dtype = flat0.dtype

    def values(x):
        return np.asarray(residual(np.asarray(x, dtype)), dtype=float)

    kwargs = {}
    if own is not None:
        kwargs["jac"] = own
    elif str(method).lower() in _JAC_METHODS:
        jacobian = jacfwd(residual)
        kwargs["jac"] = lambda x: np.atleast_2d(np.asarray(jacobian(np.asarray(x, dtype)),
                                                           dtype=float))
    result = optimize.root(values, np.asarray(flat0, dtype=float), method=method, tol=tol,
                           callback=callback, options=options, **kwargs)
    result.x = np.asarray(result.x, dtype).ravel()
    return result


def _wrap_callback(callback, unravel, dtype):
    if callback is None:
        return None
    return lambda x, f: callback(unravel(np.asarray(x, dtype).ravel()), f)


def fsolve(func: Callable[..., Any], x0: ArrayLike, args: Any = (), fprime: Any = None,
           full_output: int = 0, col_deriv: int = 0, xtol: float = 1.49012e-08,
           maxfev: int = 0, band: Any = None, epsfcn: Optional[float] = None,
           factor: float = 100, diag: Any = None) -> Any:
    """Find a root of ``func(x, *args)`` with ``scipy.optimize.fsolve`` (MINPACK's hybrj),
    the Jacobian your ``fprime(x, *args)`` as in SciPy, or by funcgrad where left out.

    SciPy's signature and return: ``x`` (1-D: ``x0`` is flattened, and ``func`` receives a
    1-D array), or with ``full_output`` the tuple ``(x, infodict, ier, mesg)``, ``infodict``
    holding ``nfev``, ``njev``, ``fjac``, ``r``, ``qtf`` and ``fvec``. As SciPy does, a
    search that stops short warns (``RuntimeWarning``) and improper input raises
    ``TypeError`` unless ``full_output`` is set. ``band`` and ``epsfcn`` steer SciPy's
    finite differences, which funcgrad's Jacobian replaces: they have no effect.

    ``x`` is differentiable in ``args`` (and in values ``func`` closes over) by the
    implicit function theorem, as :func:`root`'s is; a derivative asked of a search that
    did not converge raises instead of warning. Under ``vmap`` or ``jit`` the plain ``x``
    is returned (``full_output`` needs SciPy's objects and raises there).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fsolve
    >>> def func(x):   # SciPy's example
    ...     return [x[0] * np.cos(x[1]) - 4, x[1] * x[0] - x[1] - 5]
    >>> root = fsolve(func, [1.0, 1.0])
    >>> np.round(root, 8), np.isclose(func(root), [0.0, 0.0])
    (array([6.50409711, 0.90841421]), array([ True,  True]))
    >>> # x = sqrt(c) solves x**2 = c: dx/dc = 1 / (2 sqrt(c))
    >>> round(float(fg.grad(lambda c: fsolve(lambda x, c: x ** 2 - c, 1.0, args=(c,))[0])(4.0)),
    ...       12)
    0.25
    """
    import scipy.optimize as optimize

    if fprime is not None and not callable(fprime):
        raise ValueError(f"fsolve: fprime={fprime!r} is not supported: pass the Jacobian as a "
                         f"function fprime(x, *args), or leave it out and funcgrad computes "
                         f"it from func")
    x0 = fnp.asarray(x0)
    if x0.dtype.kind != "f":
        x0 = x0.astype(float)   # (SciPy's fsolve takes integers and solves in floats)
    x0 = fnp.ravel(x0)
    options = {"col_deriv": col_deriv, "xtol": xtol, "maxfev": maxfev, "band": band,
               "eps": epsfcn, "factor": factor, "diag": diag}

    def check(result):
        # (SciPy's fsolve: status 1 converged; 0 and unknown codes are improper input)
        if full_output or result.status == 1:
            return
        if result.status in (2, 3, 4, 5):
            warnings.warn(result.message, RuntimeWarning, stacklevel=4)
        else:
            raise TypeError(result.message)

    result = _root("fsolve", optimize, func, x0, args, "hybr", None, None, options, check,
                   jac=fprime)
    if not full_output:
        return result.x
    if "message" not in result:
        raise NotImplementedError(
            "fsolve: full_output=True under vmap or jit: infodict and mesg are SciPy's "
            "objects, which a traced call cannot return. Call "
            "funcgrad.scipy.optimize.root(func, x0, args) instead: its result holds x, "
            "success, status and nfev as arrays")
    info = {k: result[k] for k in ("nfev", "njev", "fjac", "r", "qtf") if k in result}
    info["fvec"] = result.fun
    return result.x, info, result.status, result.message
