"""What every solver of ``funcgrad.scipy.optimize`` shares: SciPy's search on plain values,
its answer differentiated by the implicit function theorem, never through the search.

A solver's answer ``x*(theta)`` is the root of some ``F(x, theta)``: the function itself
for ``root``, ``fsolve``, ``brentq``...; the gradient of the objective for ``minimize``
and ``least_squares`` (the KKT conditions where bounds hold coordinates).  ``F(x*(theta),
theta) = 0`` for every ``theta`` nearby, so ``J dx* = -(dF/dtheta) dtheta`` with ``J`` the
Jacobian of ``F`` in ``x`` at ``x*``; ``lax.custom_root`` differentiates the root so,
forward mode by that solve, reverse mode by its transpose, to any order, under every
transform.  The start ``x0`` gets no derivative: the answer does not depend on where the
search began.

The linear solve is dense: ``J`` assembled from ``n`` Jacobian-vector products (one
batched pass of ``vmap``) and factorized (``fnp.linalg.solve``).  It is exact, where an
iterative solve would stop at a tolerance and add that error to the derivative; it needs
no symmetry or definiteness; and it costs what SciPy's own methods pay already (hybr and
BFGS keep dense ``n x n`` matrices).  A singular ``J`` (the answer is not isolated) has no
derivative to give, and raises.

SciPy runs on concrete values.  Under ``vmap`` or ``jit`` it is called through
``pure_callback`` (one call per example under ``vmap``), as funcgrad calls other host code.
"""
import numpy as np

from .. import numpy as fnp
from .. import tree
from ..batched import vmap
from ..callback import pure_callback
from ..core import Tracer, is_special
from ..lax import custom_root, stop_gradient
from ._array_like import numbers_as_array
from ..numpy._conversions import carried_derivative
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..tree import ravel
from ._captured import lift_captures

__all__ = ["wants_derivative", "plain", "prepare", "is_traced", "refuse_failed",
           "differentiable_root", "checked_matrix", "solve_traced"]


def wants_derivative(leaf):
    """Whether ``leaf`` of ``args`` carries a derivative: a value that depends on the input
    of ``grad``/``jvp``/``vjp``..., or an eager Tensor that requires grad."""
    if isinstance(leaf, Tracer):
        return carried_derivative(leaf) is not None
    return is_special(leaf) and bool(getattr(leaf, "requires_grad", False))


def plain(leaf, name="minimize"):
    """``leaf`` without its derivative: a NumPy array where it has one concrete value,
    else (under ``vmap``/``jit``) a tracer of those transforms; other leaves as given."""
    if not (isinstance(leaf, Tracer) or is_special(leaf)):
        return leaf
    leaf = stop_gradient(leaf)
    if is_concrete(leaf):
        return concrete_values(leaf, name, "")
    return leaf


def prepare(name, fun, x0, args):
    """``(fun, args, x0, plain_args, wanted)`` for a solver called as ``fun(x, *args)``:
    ``x0``'s leaves checked to be real floating point and stripped of derivatives; the
    traced values ``fun`` closes over appended to ``args`` (``fun`` then takes them
    too); ``plain_args`` those args without derivatives; ``wanted`` whether any carries
    one.  A list or tuple of numbers (SciPy's array_like ``x0``) is an array, as SciPy makes
    it (integers as floats); other structures stay pytrees."""
    x0 = numbers_as_array(x0)
    leaves = tree.leaves(x0, is_special)
    for i, leaf in enumerate(leaves):
        # (a tracer's own dtype: np.asarray would refuse one that carries a derivative)
        leaf_dtype = np.dtype(leaf.dtype) if hasattr(leaf, "dtype") else np.asarray(leaf).dtype
        if leaf_dtype.kind != "f":
            where = f" (leaf {i} of x0)" if len(leaves) > 1 else ""
            # an integer leaf beside float ones would be cast back to integers by unravel,
            # and so silently never move
            raise TypeError(f"{name}: x0 must hold real floating-point values, got dtype "
                            f"{leaf_dtype}{where}: write 1.0 rather than 1; SciPy's solvers "
                            "do not take complex unknowns: split them into real and "
                            "imaginary parts")
    if not isinstance(args, tuple):
        args = (args,)
    x0 = tree.tree_map(lambda leaf: plain(leaf, name), x0, is_leaf=is_special)
    fun, captured = lift_captures(fun, (x0, *args), name)
    args = (*args, *captured)
    arg_leaves, arg_tree = tree.flatten(args, is_special)
    wanted = any(wants_derivative(leaf) for leaf in arg_leaves)
    plain_args = tree.unflatten(arg_tree, [plain(leaf, name) for leaf in arg_leaves])
    return fun, args, x0, plain_args, wanted


def users_jacobian(jac, args, unravel, dtype, keywords=False):
    """The user's own derivative ``jac(x, *args)`` (``**kwargs`` too with ``keywords``: then
    ``args``' last item), as SciPy calls it, for the search alone (the solution's derivative
    is funcgrad's): a function of SciPy's flat float64 ``x`` and the solver's plain
    ``values`` (``args`` and the captured values :func:`prepare` appended: left out here).
    None where ``jac`` is not a function."""
    if not callable(jac):
        return None
    n = len(args) - bool(keywords)

    def call(x, values):
        x = unravel(np.asarray(x, dtype).ravel())
        kwargs = values[n] if keywords else {}
        return np.atleast_2d(np.asarray(jac(x, *values[:n], **kwargs), dtype=float))
    return call


def is_traced(*values):
    """Whether any leaf of ``values`` is a tracer (of ``vmap``/``jit`` once ``plain``)."""
    return any(isinstance(x, Tracer) for x in tree.leaves(values, is_special))


def refuse_failed(name, message):
    """The error for a derivative asked of a search that did not succeed."""
    return ValueError(
        f"{name}: a derivative in args was requested, but the solver did not converge "
        f"({message}): the implicit derivative holds at a solution only, and here would "
        f"be silently wrong. Tighten the search (its tolerances, maxiter or maxfev, "
        f"another start or method), or pass fg.stop_gradient(args) if no derivative "
        f"should flow through the result")


def differentiable_root(residual, x_star, explain):
    """``x_star`` (a flat root of ``residual``, which maps flat ``x`` to a flat array of
    its size) with the derivatives the implicit function theorem gives it in the values
    ``residual`` closes over.  ``explain(what)``: the message of the error raised where
    the Jacobian at the root ``what`` ("is singular (condition number ...)", "is not
    finite")."""
    def same_dtype(x):
        # (float32 unknowns beside float64 args: the root's equations in the root's dtype)
        out = residual(x)
        return out if out.dtype == x.dtype else out.astype(x.dtype)

    return custom_root(same_dtype, x_star, lambda _, guess: x_star,
                       lambda jvp, rhs: _dense_solve(jvp, rhs, explain))


def _dense_solve(jvp, rhs, explain):
    """``J^-1 rhs`` for the linear ``jvp(v) = J v``: ``J`` built column by column."""
    n = rhs.shape[0]
    columns = vmap(jvp)(fnp.eye(n, dtype=rhs.dtype))   # row i: J e_i, column i of J
    return fnp.linalg.solve(checked_matrix(fnp.transpose(columns), explain), rhs)


def checked_matrix(matrix, explain):
    """``matrix``, after a check that it can be solved with (at run time under vmap/jit)."""
    fixed = stop_gradient(matrix)
    check = lambda m: _check_matrix(m, explain)  # noqa: E731
    if is_concrete(fixed):
        check(concrete_values(fixed, "the implicit derivative", ""))
        return matrix
    ok = pure_callback(check, np.ones((), matrix.dtype), fixed, vmap_method="sequential")
    return matrix * ok  # (times one: the same values)


def _check_matrix(matrix, explain):
    matrix = np.asarray(matrix)
    finite = bool(np.all(np.isfinite(matrix)))
    cond = np.linalg.cond(matrix) if finite and matrix.size else 1.0
    if not finite or not cond * np.finfo(matrix.dtype).eps < 1:
        raise ValueError(explain("is not finite" if not finite
                                 else f"is singular (condition number {cond:.3g})"))
    return np.ones((), matrix.dtype)


def search(solve, x0, args, fields, unravel):
    """``(result, held, traced)``: ``solve(x0, args)`` (SciPy's result, and the coordinates
    bounds hold or None) called directly on concrete values, or under ``vmap``/``jit``
    through :func:`solve_traced` (then an ``OptimizeResult`` of ``x`` and the array
    ``fields``); ``traced`` says which."""
    if not is_traced(x0, args):
        result, held = solve(x0, args)
        return result, held, False
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)
    flat_x, got, held = solve_traced(solve, x0, args, fields)
    return optimize.OptimizeResult(x=unravel(flat_x), **got), held, True


def solve_traced(solve, x0, args, fields):
    """``(flat x, fields, held)`` of ``solve(x0, args)`` (SciPy's result on concrete values,
    and the coordinates bounds hold, or None) called through ``pure_callback``:
    ``fields`` a dict of the result's array fields named in ``fields`` (``(name,
    dtype)`` pairs, dtype None for x's), the inputs traced by ``vmap``/``jit`` reaching it
    as arrays, the others as they are."""
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
            for name, dtype in fields] + [mask, np.asarray(pinned, flat0.dtype)]

    declared = ([flat0] + [np.zeros((), flat0.dtype if dtype is None else dtype)
                           for _, dtype in fields] + [np.zeros(flat0.shape, bool), flat0])
    outs = pure_callback(host, declared, *[leaves[i] for i in traced],
                         vmap_method="sequential")
    values = dict(zip([name for name, _ in fields], outs[1:-2]))
    return outs[0], values, (outs[-2], outs[-1])


def _shaped(leaf):
    """An array of ``leaf``'s shape and dtype (a tracer's, without its values)."""
    if isinstance(leaf, Tracer):
        return np.zeros(leaf.shape, leaf.dtype)
    return asarray(leaf)
