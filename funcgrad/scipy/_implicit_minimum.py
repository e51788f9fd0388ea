"""The derivative of a minimizer in the parameters of its objective, for
``funcgrad.scipy.optimize.minimize``: the implicit function theorem at the optimum, never
the minimizer's iterations.

At an unconstrained minimum ``x*(theta)`` of ``f(x, theta)`` the gradient in ``x`` is zero
for every ``theta`` nearby: ``grad_x f(x*(theta), theta) = 0``.  Differentiated in
``theta``, that identity gives ``H dx* = -(d2f / dx dtheta) dtheta`` with ``H`` the Hessian
of ``f`` in ``x`` at ``x*``.  So ``x*`` is the root of ``grad_x f(., theta)``, and
``lax.custom_root`` differentiates it so: forward mode by that solve, reverse mode by its
transpose, to any order, under every transform.  The root is the point SciPy found, a
constant of the solve: the start ``x0`` gets no derivative (the optimum does not depend
on where the search began).

Bounds: a coordinate a bound holds at the optimum, the gradient pressing it there (its
KKT multiplier clearly above zero), stays on it while ``theta`` moves a little, so the
root solved is ``x_i - bound_i`` in those coordinates and the gradient in the others (the
KKT conditions of a box); a coordinate on its bound with no such pressure has one-sided
derivatives only, and raises.  General constraints are refused (their KKT system, with
the multipliers, is not implemented).

The linear solve is dense: ``H`` assembled from ``n`` Hessian-vector products (one
batched pass of ``vmap``) and factorized (``fnp.linalg.solve``).  It is exact, where
conjugate gradients would stop at a tolerance and add that error to the derivative; it
needs no positive definiteness; and it costs what SciPy's own quasi-Newton methods pay
already (BFGS keeps a dense ``n x n`` inverse Hessian).  A singular ``H`` (the minimum is
not isolated: ``f`` is flat along some direction of ``x``) has no derivative to give, and
raises.  Problems too large for a dense ``n x n`` matrix would want a matrix-free solve
(conjugate gradients on ``hvp``); that is not implemented.

SciPy runs on concrete values.  Under ``vmap`` or ``jit`` it is called through
``pure_callback`` (one call per example under ``vmap``), as funcgrad calls other host code.
"""
import math

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..api import grad
from ..batched import vmap
from ..callback import pure_callback
from ..core import Tracer, is_special
from ..lax import custom_root, stop_gradient
from ..numpy._conversions import carried_derivative
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..tree import ravel

__all__ = ["wants_derivative", "plain", "differentiable_minimum", "check_optimum",
           "solve_traced"]


def wants_derivative(leaf):
    """Whether ``leaf`` of ``args`` carries a derivative: a value that depends on the input
    of ``grad``/``jvp``/``vjp``..., or an eager Tensor that requires grad."""
    if isinstance(leaf, Tracer):
        return carried_derivative(leaf) is not None
    return is_special(leaf) and bool(getattr(leaf, "requires_grad", False))


def plain(leaf):
    """``leaf`` without its derivative: a NumPy array where it has one concrete value,
    else (under ``vmap``/``jit``) a tracer of those transforms; other leaves as given."""
    if not (isinstance(leaf, Tracer) or is_special(leaf)):
        return leaf
    leaf = stop_gradient(leaf)
    if is_concrete(leaf):
        return concrete_values(leaf, "minimize", "")
    return leaf


def differentiable_minimum(fun, x_star, unravel, args, held=None):
    """``x_star`` (the flat minimizer of ``fun(unravel(x), *args)``) with the derivatives
    the implicit function theorem gives it in ``args`` (and in values ``fun`` closes
    over).  ``held``: ``(mask, pinned)``, the coordinates bounds hold at ``x_star`` and
    their bounds' values, or None."""
    def stationarity(x):
        gradient = grad(lambda z: fun(unravel(z), *args))(x)
        if held is None:
            return gradient
        # the KKT conditions of a box: zero gradient in the free coordinates, the held
        # ones on their (constant) bounds, so their derivative is zero
        mask, pinned = held
        return fnp.where(mask, x - pinned, gradient)

    return custom_root(stationarity, x_star, lambda _, guess: x_star, _dense_solve)


def _dense_solve(hvp, rhs):
    """``H^-1 rhs`` for the linear ``hvp(v) = H v``: ``H`` built column by column."""
    n = rhs.shape[0]
    columns = vmap(hvp)(fnp.eye(n, dtype=rhs.dtype))   # row i: H e_i, column i of H
    # (not symmetric where bounds hold coordinates: their rows are the identity's)
    hessian = _checked(fnp.transpose(columns))
    return fnp.linalg.solve(hessian, rhs)


def _checked(hessian):
    """``hessian``, after a check that it can be solved with (at run time under vmap/jit)."""
    fixed = stop_gradient(hessian)
    if is_concrete(fixed):
        _check_hessian(concrete_values(fixed, "minimize", ""))
        return hessian
    ok = pure_callback(_check_hessian, np.ones((), hessian.dtype), fixed,
                       vmap_method="sequential")
    return hessian * ok  # (times one: the same values)


def _check_hessian(hessian):
    hessian = np.asarray(hessian)
    finite = bool(np.all(np.isfinite(hessian)))
    cond = np.linalg.cond(hessian) if finite and hessian.size else 1.0
    if not finite or not cond * np.finfo(hessian.dtype).eps < 1:
        what = "is not finite" if not finite else f"is singular (condition number {cond:.3g})"
        raise ValueError(
            f"minimize: the Hessian of fun in x at the optimum {what}, so the optimum's "
            f"derivative in args (H^-1 times the mixed derivative, by the implicit function "
            f"theorem) does not exist: the minimum is not isolated (fun is flat along some "
            f"direction of x) or fun is not twice differentiable there. Make the minimum "
            f"unique (a small ridge term eps * sum(x**2) in fun, say), or pass "
            f"fg.stop_gradient(args) if no derivative should flow through the optimum")
    return np.ones((), hessian.dtype)


def check_optimum(result, bounds, value_and_gradient):
    """Raise where ``result`` (SciPy's, on the flat x) has no derivative the implicit rule
    gives; else ``(held, pinned)``: the mask of the coordinates a bound holds at the
    optimum and those bounds' values (None without ``bounds``).
    ``value_and_gradient``: of the objective, on the flat x."""
    if not result.success:
        raise ValueError(
            f"minimize: a derivative in args was requested, but the minimizer did not "
            f"converge ({result.message}): the implicit derivative holds at an optimum "
            f"only, and here would be silently wrong. Tighten the search (options "
            f"maxiter, tol, another method), or pass fg.stop_gradient(args) if no "
            f"derivative should flow through the result")
    if bounds is None:
        return None
    x = np.asarray(result.x)
    lower, upper = _bound_arrays(bounds, x.size)
    eps = np.finfo(float).eps
    # (interior-point methods, trust-constr's, stop near a bound rather than on it)
    near = lambda b: np.isfinite(b) & (np.abs(x - b) <= math.sqrt(eps)  # noqa: E731
                                       * np.maximum(1.0, np.abs(b)))
    at_lower = near(lower)
    at_upper = near(upper) & ~at_lower
    held = at_lower | at_upper
    if not held.any():
        return held, np.zeros_like(x)
    value, gradient = (np.asarray(v, dtype=float) for v in value_and_gradient(x))
    # A held coordinate stays on its bound while theta moves a little only when the
    # gradient presses it there (strict complementarity: a multiplier clearly above
    # zero); one that is zero to the search's accuracy (the gradient left on the free
    # coordinates) could leave the bound either way: no derivative, only one-sided ones.
    push = np.where(at_lower, gradient, -gradient)
    noise = np.max(np.abs(gradient[~held]), initial=0.0)
    weak = np.flatnonzero(held & (push <= max(math.sqrt(eps) * max(1.0, abs(float(value))),
                                               1e3 * noise)))
    if weak.size:
        raise ValueError(
            f"minimize: the optimum lies on a bound (raveled x index "
            f"{', '.join(map(str, weak[:8].tolist()))}{'...' if weak.size > 8 else ''}) "
            f"where the gradient does not press against it (its multiplier is zero to the "
            f"search's accuracy): the optimum there moves off the bound for some changes of "
            f"args and stays for others, so it has one-sided derivatives only. Move the "
            f"bound, tighten tol if the gradient should press on it, or pass "
            f"fg.stop_gradient(args) if no derivative should flow through the result")
    pinned = np.where(at_lower, lower, np.where(at_upper, upper, 0.0))
    return held, pinned.astype(x.dtype)


def _bound_arrays(bounds, n):
    """``(lower, upper)`` float arrays of length ``n`` from a ``Bounds`` or SciPy's
    sequence of ``(min, max)`` pairs (None: no bound)."""
    if hasattr(bounds, "lb"):
        return (np.broadcast_to(np.asarray(bounds.lb, dtype=float), (n,)),
                np.broadcast_to(np.asarray(bounds.ub, dtype=float), (n,)))
    pairs = [(-np.inf if lo is None else lo, np.inf if hi is None else hi)
             for lo, hi in bounds]
    return (np.asarray([lo for lo, _ in pairs], dtype=float),
            np.asarray([hi for _, hi in pairs], dtype=float))


# (what a traced call returns: OptimizeResult's array fields; message and hess_inv stay
# with SciPy, and jac is the zero gradient of an unconstrained optimum)
_TRACED_FIELDS = (("fun", None), ("success", np.bool_), ("status", np.int64),
                  ("nit", np.int64), ("nfev", np.int64))


def solve_traced(solve, x0, args):
    """``(flat x, fields, held)`` of ``solve(x0, args)`` (SciPy's result on concrete values,
    and the coordinates bounds hold) called through ``pure_callback``: ``fields`` a dict of
    OptimizeResult's array fields, the inputs traced by ``vmap``/``jit`` reaching it as
    arrays, the others as they are."""
    x0_leaves, x0_tree = tree.flatten(x0)
    arg_leaves, arg_tree = tree.flatten(args, is_special)
    leaves = x0_leaves + arg_leaves
    traced = [i for i, leaf in enumerate(leaves) if isinstance(leaf, Tracer)]
    flat0, _ = ravel(tree.unflatten(x0_tree, [_shaped(x) for x in x0_leaves]))

    def host(*values):
        filled = list(leaves)
        for i, value in zip(traced, values):
            filled[i] = value
        start = tree.unflatten(x0_tree, filled[:len(x0_leaves)])
        result, held = solve(start, tree.unflatten(arg_tree, filled[len(x0_leaves):]))
        mask, pinned = held if held is not None else (np.zeros(flat0.shape, bool), flat0 * 0)
        return [np.asarray(ravel(result.x)[0], flat0.dtype)] + [
            np.asarray(result.get(name, -1), flat0.dtype if dtype is None else dtype)
            for name, dtype in _TRACED_FIELDS] + [mask, np.asarray(pinned, flat0.dtype)]

    declared = ([flat0] + [np.zeros((), flat0.dtype if dtype is None else dtype)
                           for _, dtype in _TRACED_FIELDS] + [np.zeros(flat0.shape, bool), flat0])
    outs = pure_callback(host, declared, *[leaves[i] for i in traced],
                         vmap_method="sequential")
    fields = dict(zip([name for name, _ in _TRACED_FIELDS], outs[1:-2]))
    return outs[0], fields, (outs[-2], outs[-1])


def _shaped(leaf):
    """An array of ``leaf``'s shape and dtype (a tracer's, without its values)."""
    if isinstance(leaf, Tracer):
        return np.zeros(leaf.shape, leaf.dtype)
    return asarray(leaf)
