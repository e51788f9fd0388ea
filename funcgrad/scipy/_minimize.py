"""``minimize``: SciPy's ``scipy.optimize.minimize`` with the derivatives its method reads
computed by funcgrad, on unknowns that may be any pytree; the answer is differentiable
in ``args`` (and in values the function captures) by the implicit function theorem at
the optimum (:mod:`._implicit_minimum`).  Re-exported by :mod:`.optimize`."""
import inspect
import math
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import tree
from ..tree import ravel
from ..api import value_and_grad
from ..core import Tracer
from ..jacobians import hessian, hvp, jacrev
from ..typing import ArrayLike, PyTree
from ._implicit_minimum import check_optimum, differentiable_minimum
from ._implicit_root import prepare, search

from ._optlegacy_constraints import drop_ignored

__all__ = ["minimize"]

# What each of scipy.optimize.minimize's methods reads (lower-case names, as SciPy
# compares them): nothing, the gradient only, or also Hessian-vector products or the
# Hessian. A Hessian-vector product costs about two gradients, a Hessian n of them, so
# methods that accept either get hessp.
_NO_DERIVATIVES = {"nelder-mead", "powell", "cobyla", "cobyqa"}
_HESSP = {"newton-cg", "trust-ncg", "trust-krylov", "trust-constr"}
_HESS = {"dogleg", "trust-exact"}


def _default_method(bounds, constraints):
    # SciPy's own choice when method is None.
    if constraints:
        return "slsqp"
    return "l-bfgs-b" if bounds is not None else "bfgs"


def _reject_own(name, value, optimize):
    if value is None or value is True:
        return False
    if name != "jac" and isinstance(value, optimize.HessianUpdateStrategy):
        return True   # a quasi-Newton approximation (trust-constr): SciPy keeps it
    raise ValueError(f"minimize: funcgrad computes {name} from fun by automatic "
                     f"differentiation; leave {name} out (or None). To supply your own "
                     f"{name}, call scipy.optimize.minimize directly on a flat x "
                     "(fg.tree.ravel gives one)")


def _flat_bound(bound, treedef, shapes):
    """A bound given as a pytree like x0 (leaves broadcast to each leaf's shape), as a
    flat array; a scalar or an already flat bound is returned as it is."""
    if isinstance(bound, np.ndarray) and bound.dtype == object and bound.size == 1:
        bound = bound.item()      # (Bounds wraps what it was given in a 1-element array)
    if bound is None or np.ndim(bound) == 0 and not isinstance(bound, (dict, list, tuple)):
        return bound
    leaves, bound_def = tree.flatten(bound)
    if bound_def != treedef:
        return np.asarray(bound, dtype=float)
    return np.concatenate([_leaf_bound(b, s) for b, s in zip(leaves, shapes)]
                          or [np.zeros(0)])


def _leaf_bound(bound, shape):
    """One leaf's bound, flat: broadcast to the leaf's shape, or already flat."""
    bound = np.asarray(bound, dtype=float)
    if bound.ndim == 1 and bound.shape != tuple(shape) and bound.size == math.prod(shape):
        return bound
    return np.broadcast_to(bound, shape).ravel()


def _flat_keep(keep, total):
    """``Bounds.keep_feasible`` (which SciPy broadcast to the bounds' shapes) for the
    flat bounds: raveled when it has one entry per element, else one value."""
    keep = np.asarray(keep, dtype=bool)
    if keep.size == total:
        return keep.ravel()
    return bool(keep.ravel()[0]) if keep.size and keep.all() == keep.any() else keep


def _wrap_constraint(constraint, unravel, to_dtype, with_jac):
    if not isinstance(constraint, dict):
        return constraint     # NonlinearConstraint, LinearConstraint: on the raveled x
    if "jac" in constraint and constraint["jac"] is not None:
        raise ValueError("minimize: funcgrad computes a constraint's jac; leave 'jac' out")
    fun, args = constraint["fun"], tuple(constraint.get("args", ()))

    def flat_fun(x):
        return fun(unravel(x), *args)

    wrapped = {"type": constraint["type"],
               "fun": lambda x: np.asarray(flat_fun(to_dtype(x)), dtype=float)}
    if with_jac:
        jac = jacrev(flat_fun)
        wrapped["jac"] = lambda x: np.atleast_2d(np.asarray(jac(to_dtype(x)), dtype=float))
    return wrapped


def _wrap_callback(callback, unravel, to_dtype):
    if callback is None:
        return None
    try:
        new_style = "intermediate_result" in inspect.signature(callback).parameters
    except (TypeError, ValueError):
        new_style = False
    def with_result(intermediate_result):
        intermediate_result.x = unravel(to_dtype(intermediate_result.x))
        return callback(intermediate_result=intermediate_result)

    def with_x(xk, *rest):
        return callback(unravel(to_dtype(xk)), *rest)

    return with_result if new_style else with_x


def minimize(fun: Callable[..., ArrayLike], x0: PyTree, args: Any = (),
             method: Union[str, Callable[..., Any], None] = None, jac: Any = None,
             hess: Any = None, hessp: Any = None, bounds: Any = None, constraints: Any = (),
             tol: Optional[float] = None, callback: Optional[Callable[..., Any]] = None,
             options: Optional[dict[str, Any]] = None) -> Any:
    """Minimize ``fun(x, *args)`` with ``scipy.optimize.minimize``, derivatives by funcgrad.

    SciPy's signature and result. ``x0`` may be a pytree (a dict of arrays, say): it is
    raveled for SciPy (:func:`funcgrad.tree.ravel`), and ``fun`` always receives the
    pytree. funcgrad supplies what the method uses: ``jac`` (``value_and_grad``, one pass
    for value and gradient) for every gradient method, ``hessp`` (``hvp``) for Newton-CG,
    trust-ncg, trust-krylov and trust-constr, ``hess`` (``hessian``) for trust-exact and
    dogleg; so leave ``jac``, ``hess`` and ``hessp`` out (trust-constr also takes a
    ``scipy.optimize.HessianUpdateStrategy`` as ``hess``).

    ``bounds``: a ``scipy.optimize.Bounds`` whose ``lb`` and ``ub`` are scalars, flat
    arrays or pytrees like ``x0`` (each leaf a scalar or an array of the leaf's shape),
    or SciPy's sequence of ``(min, max)`` pairs in raveled order. ``constraints`` given
    as dicts get their functions called on the pytree and their ``jac`` from funcgrad;
    constraint objects act on the raveled ``x``. ``callback(x)`` receives the pytree.

    Returns SciPy's ``OptimizeResult``, with ``x`` (and ``jac`` where present) in the
    structure and dtypes of ``x0``; ``hess_inv`` stays a matrix over the raveled ``x``.

    **Differentiable in args.** When ``args`` (a pytree of arrays) carries a derivative
    (traced by ``grad``/``vjp``/``jvp``/``jacfwd``..., or eager Tensors that require
    grad), or when ``fun`` closes over such values, ``res.x`` is differentiable in them
    by the implicit function theorem at the optimum, as jaxopt does: ``dx*/dargs =
    -H^-1 d2f/(dx dargs)``, ``H`` the Hessian of ``fun`` in ``x`` at ``x*``, solved
    densely (``n`` Hessian-vector products; exact, where conjugate gradients would add
    their tolerance to the derivative), to any order. The search itself runs on plain
    values and is never differentiated; ``x0`` gets no derivative (the optimum does not
    depend on the start; a traced ``x0`` is fine, its derivative is zero). ``res.fun`` is
    ``fun(res.x, *args)``: its first derivative is ``d fun / d args`` at ``x*`` (the
    envelope theorem; ``x*`` moves at zero gradient), its second includes the optimum's
    motion. The other fields carry no derivative. ``bounds`` that hold coordinates at the
    optimum give the KKT rule of a box: those coordinates stay on their bounds (derivative
    zero), the free ones move as the problem restricted to them. Raised rather than
    wrong: a search that did not succeed, a singular ``H`` (a minimum that is not
    isolated), a coordinate on a bound the gradient does not press on (one-sided
    derivatives only), and ``constraints`` (their KKT rule is not implemented). Only
    ``args``, values ``fun`` captures and ``x0`` may be traced: bounds, constraints and
    options take plain values.

    Under ``vmap`` or ``jit`` (``args`` or ``x0`` traced), SciPy is called through
    ``fg.pure_callback`` (once per example under ``vmap``), and the result holds ``x``,
    ``fun``, ``success``, ``status``, ``nit`` and ``nfev`` as arrays (``message``,
    ``jac`` and ``hess_inv`` need SciPy's objects and are left out).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import minimize
    >>> def rosen(p):
    ...     return 100 * (p["y"] - p["x"] ** 2) ** 2 + (1 - p["x"]) ** 2
    >>> res = minimize(rosen, {"x": -1.0, "y": 2.0}, method="trust-ncg")
    >>> res.success, {k: round(float(v), 4) for k, v in res.x.items()}
    (True, {'x': 1.0, 'y': 1.0})
    >>> # the minimizer of sum((x - t)**2 * w) is x* = t: dx*/dt is the identity
    >>> def argmin_sum(t):
    ...     return minimize(lambda x, t: np.sum((x - t) ** 2 * [1.0, 3.0]), np.zeros(2),
    ...                     args=(t,)).x.sum()
    >>> np.round(fg.grad(argmin_sum)(np.array([1.0, 2.0])), 6)
    array([1., 1.])
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    fun, args, x0, plain_args, wanted = prepare("minimize", fun, x0, args)
    if wanted and constraints:
        raise NotImplementedError(
            "minimize: args carry a derivative, but the optimum of a constrained problem "
            "needs the KKT conditions to be differentiated, which funcgrad does not "
            "implement (the unconstrained implicit rule would be silently wrong there). "
            "Drop the constraints (reparametrize x, or add a penalty to fun), or pass "
            "fg.stop_gradient(args) if no derivative should flow through the result")

    def solve(start, values):
        """SciPy's result, and (a derivative wanted) the coordinates bounds hold there."""
        result, flat_bounds = _minimize(optimize, fun, start, values, method, jac, hess,
                                        hessp, bounds, constraints, tol, callback, options)
        held = None
        if wanted:
            held = check_optimum(result, flat_bounds,
                                 value_and_grad(lambda x: fun(unravel(x), *values)))
        result.x = unravel(result.x)
        return result, held

    flat0, unravel = ravel(tree.tree_map(lambda x: np.zeros(np.shape(x), x.dtype)
                                         if isinstance(x, Tracer) else x, x0))
    result, held, traced = search(solve, x0, plain_args, _TRACED_FIELDS, unravel)
    if not traced:
        if np.shape(result.get("jac")) == flat0.shape:
            result.jac = unravel(np.asarray(result.jac, flat0.dtype))
        if not wanted:
            return result
    if wanted:
        flat_star = ravel(result.x)[0]
        result.x = unravel(differentiable_minimum(fun, flat_star, unravel, args, held))
        result.fun = fun(result.x, *args)
    return result


# (what a traced call returns: OptimizeResult's array fields; message and hess_inv stay
# with SciPy, and jac is the zero gradient of an unconstrained optimum)
_TRACED_FIELDS = (("fun", None), ("success", np.bool_), ("status", np.int64),
                  ("nit", np.int64), ("nfev", np.int64))


def _minimize(optimize, fun, x0, args, method, jac, hess, hessp, bounds, constraints, tol,
              callback, options):
    """SciPy's result (``x`` flat, float) on plain values, and the bounds it was given."""
    flat0, unravel = ravel(x0)
    dtype = flat0.dtype
    if callable(method):
        name = "custom"
    else:
        name = (method or _default_method(bounds, constraints)).lower()
    bounds, constraints = drop_ignored(name, bounds, constraints)
    own_hess = _reject_own("hess", hess, optimize)
    _reject_own("hessp", hessp, optimize)
    _reject_own("jac", jac, optimize)

    def to_dtype(x):
        return np.asarray(x, dtype=dtype)

    def flat_fun(x):
        return fun(unravel(x), *args)

    def value_only(x):
        return float(flat_fun(to_dtype(x)))

    flat_value_and_grad = value_and_grad(flat_fun)

    def fun_and_jac(x):
        value, grad = flat_value_and_grad(to_dtype(x))
        return float(value), np.asarray(grad, dtype=float)

    def hessp_fn(x, p):
        (product,) = hvp(flat_fun, (to_dtype(x),), (to_dtype(p),))[1]
        return np.asarray(product, dtype=float)

    flat_hessian = hessian(flat_fun)

    def hess_fn(x):
        return np.asarray(flat_hessian(to_dtype(x)), dtype=float)

    kwargs: dict[str, Any] = {}
    if name in _NO_DERIVATIVES:
        objective = value_only
    else:
        objective, kwargs["jac"] = fun_and_jac, True
        if own_hess:
            kwargs["hess"] = hess
        elif name in _HESSP:
            kwargs["hessp"] = hessp_fn
        elif name in _HESS:
            kwargs["hess"] = hess_fn
    if bounds is not None:
        leaves, treedef = tree.flatten(x0)
        shapes = [np.shape(leaf) for leaf in leaves]
        if isinstance(bounds, optimize.Bounds):
            bounds = optimize.Bounds(_flat_bound(bounds.lb, treedef, shapes),
                                     _flat_bound(bounds.ub, treedef, shapes),
                                     keep_feasible=_flat_keep(bounds.keep_feasible,
                                                              sum(map(math.prod, shapes))))
    if isinstance(constraints, dict):
        constraints = [constraints]
    constraints = [_wrap_constraint(c, unravel, to_dtype, name not in _NO_DERIVATIVES)
                   for c in constraints]

    result = optimize.minimize(
        objective, np.asarray(flat0, dtype=float), method=method, bounds=bounds,
        constraints=constraints, tol=tol, callback=_wrap_callback(callback, unravel, to_dtype),
        options=options, **kwargs)
    result.x = to_dtype(result.x)
    return result, bounds
