"""``custom_linear_solve`` and ``custom_root``: solutions differentiated implicitly, as JAX
documents, never through the solver's iterations.

For ``x = solve(matvec, b)`` with ``matvec(x) = A x``: ``dx = A^-1 (db - dA x)``, a solve
of the same system (forward mode), and the cotangent ``lambda = A^-T g`` by
``transpose_solve`` of the transposed map (reverse mode), from which ``b`` gets
``lambda`` and the values ``matvec`` closes over get ``-(dA x)^T lambda``.  For a root
``f(x*, theta) = 0`` found by ``solve``: ``dx* = -(df/dx)^-1 (df/dtheta) dtheta``, by
the user's ``tangent_solve`` of the linearised ``f``; reverse mode transposes that
(``tangent_solve`` must be linear in its right-hand side, as a linear solve is).  The
solvers' own derivatives are never used: what they close over gets none (a solver that
is exact depends on them only through ``matvec`` / ``f``).

Each is a ``custom_call`` (:mod:`funcgrad.custom`) whose rules evaluate the user's
functions traced into graphs (:mod:`._graphs`); the traced values those functions close
over are passed in as inputs, so the rules work under every transform, ``jit`` and
``vmap`` included.
"""
from typing import Any, Callable

from .. import tree
from ..custom._call import CustomRule, custom_call_p, jvp_of, vjp_of
from ..interpreters.graph import eval_graph
from ..jit.derive import out_aval, zeros
from ..jit.trace import trace_flat
from ._graphs import aval, flatten_operands, operand, trace_pytree
from ..typing import PyTree

__all__ = ["custom_linear_solve", "custom_root"]


def _trace(what, fun, in_tree, avals, values=()):
    """``fun`` of a pytree of ``in_tree`` traced on ``avals``: ``(graph, consts, out_tree)``,
    the graph taking the closed-over ``consts`` first, then the leaves."""
    return trace_pytree(lambda *xs: fun(tree.unflatten(in_tree, list(xs))), avals, what,
                        values)


def _check_like(what, out_tree, in_tree, graph, avals):
    """The graph's first outputs have the tree and abstract values of its inputs."""
    outs = [out_aval(v) for v in graph.outvars[:len(avals)]]
    if out_tree != in_tree or outs != list(avals):
        raise TypeError(f"{what} must return a value of the structure, shapes and dtypes of "
                        f"its input ({in_tree}: {[a.str_short() for a in avals]}), got "
                        f"{out_tree}: {[a.str_short() for a in outs]}")


def _split(values, sizes):
    out, start = [], 0
    for n in sizes:
        out.append(list(values[start:start + n]))
        start += n
    return out


def _zeros_where_none(values, like):
    return [zeros(aval(operand(x))) if v is None else v for v, x in zip(values, like)]


# --- custom_linear_solve ------------------------------------------------------------------------

class _System:
    """A linear system's four graphs, each taking the matvec's closed-over values first:
    ``matvec``/``vecmat`` (those, then a vector), ``solve``/``transpose_solve`` (their own
    closed-over values, then the right-hand side).  ``transposed()`` swaps the roles."""

    def __init__(self, matvec, vecmat, solve, transpose_solve):
        self.matvec, self.vecmat = matvec, vecmat
        self.solve, self.transpose_solve = solve, transpose_solve

    def transposed(self):
        return _System(self.vecmat, self.matvec, self.transpose_solve, self.solve)


def _bind_solve(system, consts, b):
    """``custom_call`` of the system's solve: ``(x leaves, aux leaves)``."""
    mv, s, t = consts
    outs = custom_call_p.bind(*mv, *s, *t, *b, rule=_solve_rule(system, consts, len(b)))
    return list(outs[:len(b)]), list(outs[len(b):])


def _solve_rule(system, consts, n):
    sizes = [len(c) for c in consts] + [n]

    def fun(*flat):
        mv, s, t, b = _split(flat, sizes)
        return eval_graph(system.solve, *s, *b)

    def jvp(primals, tangents):
        mv, s, t, b = _split(primals, sizes)
        dmv, _, _, db = _split(tangents, sizes)
        x, aux = _bind_solve(system, (mv, s, t), b)
        # A dx = db - dA x: the same solve, of the right-hand side's tangent
        dax = jvp_of(lambda *c: eval_graph(system.matvec, *c, *x), mv, dmv)[1]
        rhs = [d if a is None else d - a for d, a in zip(db, dax)]
        dx, _ = _bind_solve(system, (mv, s, t), rhs)
        return x + aux, dx + [None] * len(aux)

    def fwd(*flat):
        mv, s, t, b = _split(flat, sizes)
        x, aux = _bind_solve(system, (mv, s, t), b)
        return x + aux, (mv, s, t, x)

    def bwd(residuals, cts):
        mv, s, t, x = residuals
        if system.transpose_solve is None:
            raise TypeError("custom_linear_solve: reverse-mode differentiation (grad, vjp) "
                            "needs transpose_solve, a solver of the transposed system, or "
                            "symmetric=True when the matrix is symmetric")
        # lambda = A^-T g; b gets lambda, what matvec closes over gets -(dA x)^T lambda
        lam, _ = _bind_solve(system.transposed(), (mv, t, s), _zeros_where_none(cts[:n], x))
        mv_cts = vjp_of(lambda *c: eval_graph(system.matvec, *c, *x), mv, lam)
        mv_cts = [None if c is None else -c for c in mv_cts]
        return mv_cts + [None] * (len(s) + len(t)) + lam

    return CustomRule("custom_linear_solve", fun, jvp=jvp, fwd=fwd, bwd=bwd)


def _transpose_graph(matvec, n_consts, avals):
    """The graph of ``u -> A^T u`` (the VJP of the linear ``matvec``), taking ``matvec``'s
    closed-over values first, as ``matvec``'s graph does."""
    from ..api import vjp
    const_avals = [v.aval for v in matvec.invars[:n_consts]]

    def vecmat(*args):
        consts, u = args[:n_consts], args[n_consts:]
        _, pullback = vjp(lambda *v: list(eval_graph(matvec, *consts, *v)),
                          *[zeros(a) for a in avals])
        return list(pullback(list(u)))
    return trace_flat(vecmat, const_avals + list(avals), "lax.custom_linear_solve")


def _trace_solver(what, solver, problem, in_tree, avals, has_aux, aux_trees, values=()):
    """``solver(problem, start)`` traced as a function of ``start``'s leaves: ``(graph,
    consts)``, its outputs the solution's leaves, then (``has_aux``) the aux leaves, whose
    tree is appended to ``aux_trees``."""
    def run(*xs):
        out = solver(problem, tree.unflatten(in_tree, list(xs)))
        aux_leaves = []
        if has_aux:
            out, aux = out
            aux_leaves, aux_tree = tree.flatten(aux)
            aux_trees.append(aux_tree)
        out_leaves, out_tree = tree.flatten(out)
        if out_tree != in_tree:
            raise TypeError(f"{what} returned structure {out_tree}, but its input has "
                            f"structure {in_tree}; they must be the same")
        return list(out_leaves) + list(aux_leaves)

    graph, consts, _ = trace_pytree(run, avals, "lax." + what.replace(": ", " "), values)
    _check_like(what, in_tree, in_tree, graph, avals)
    return graph, consts


def custom_linear_solve(matvec: Callable[..., Any], b: PyTree,
                        solve: Callable[..., Any],
                        transpose_solve: Callable[..., Any] | None = None,
                        symmetric: bool = False, has_aux: bool = False) -> PyTree:
    """``x = solve(matvec, b)`` for the linear map ``matvec`` (``x`` and ``b`` pytrees of
    one structure), differentiated implicitly: derivatives reach ``b`` and the values
    ``matvec`` closes over through ``A^-1`` (another ``solve``), and in reverse mode through
    ``transpose_solve(vecmat, g)`` (``solve`` itself with ``symmetric=True``), never
    through the solver's iterations.  With ``has_aux``, ``solve`` returns ``(x, aux)`` and
    so does this (``aux`` without derivative).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad import lax
    >>> def x_of(a, b):
    ...     return lax.custom_linear_solve(lambda v: a * v, b, lambda mv, r: r / a,
    ...                                    symmetric=True)
    >>> float(x_of(2.0, 3.0)), float(fg.grad(x_of)(2.0, 3.0))  # b / a and -b / a**2
    (1.5, -0.75)
    """
    b_leaves, b_tree = flatten_operands(b)
    b_leaves = [operand(x) for x in b_leaves]
    avals = [aval(x) for x in b_leaves]
    mv_graph, mv_consts, mv_tree = _trace("custom_linear_solve: matvec", matvec, b_tree, avals,
                                          b_leaves)
    _check_like("custom_linear_solve: matvec", mv_tree, b_tree, mv_graph, avals)
    n_mv = len(mv_consts)

    def matvec_fn(v):  # (evaluated while the solvers are traced: mv_consts are captured)
        leaves = tree.flatten(v)[0]
        return tree.unflatten(b_tree, list(eval_graph(mv_graph, *mv_consts, *leaves)))

    vecmat_graph = _transpose_graph(mv_graph, n_mv, avals)

    def vecmat_fn(u):
        leaves = tree.flatten(u)[0]
        return tree.unflatten(b_tree, list(eval_graph(vecmat_graph, *mv_consts, *leaves)))

    aux_trees = []
    s_graph, s_consts = _trace_solver("custom_linear_solve: solve", solve, matvec_fn, b_tree,
                                      avals, has_aux, aux_trees, b_leaves)
    if symmetric:
        t_graph, t_consts = s_graph, s_consts
    elif transpose_solve is not None:
        t_graph, t_consts = _trace_solver("custom_linear_solve: transpose_solve",
                                          transpose_solve, vecmat_fn, b_tree, avals, has_aux,
                                          [], b_leaves)
    else:
        t_graph, t_consts = None, []
    system = _System(mv_graph, vecmat_graph, s_graph, t_graph)
    x, aux = _bind_solve(system, (mv_consts, s_consts, t_consts), b_leaves)
    x = tree.unflatten(b_tree, x)
    return (x, tree.unflatten(aux_trees[0], aux)) if has_aux else x


# --- custom_root --------------------------------------------------------------------------------

def _root_rule(f_graph, s_graph, tangent_solve, sizes, guess_tree, n_out):
    def fun(*flat):
        fc, sc, guess = _split(flat, sizes)
        return eval_graph(s_graph, *sc, *guess)

    def jvp(primals, tangents):
        fc, sc, guess = _split(primals, sizes)
        dfc = _split(tangents, sizes)[0]
        outs = custom_call_p.bind(*primals, rule=rule)
        x = list(outs[:n_out])
        # f(x*, theta) = 0: (df/dx) dx = -(df/dtheta) dtheta
        dfx = jvp_of(lambda *c: eval_graph(f_graph, *c, *x), fc, dfc)[1]
        rhs = [None if d is None else -d for d in dfx]
        rhs = _zeros_where_none(rhs, x)

        def linearised(v):
            leaves = tree.flatten(v)[0]
            out = jvp_of(lambda *xs: eval_graph(f_graph, *fc, *xs), x, leaves)[1]
            return tree.unflatten(guess_tree, _zeros_where_none(out, x))
        dx = tangent_solve(linearised, tree.unflatten(guess_tree, rhs))
        return list(outs), list(tree.flatten(dx)[0]) + [None] * (len(outs) - n_out)

    rule = CustomRule("custom_root", fun, jvp=jvp)
    return rule


def custom_root(f: Callable[..., Any], initial_guess: PyTree, solve: Callable[..., Any],
                tangent_solve: Callable[..., Any], has_aux: bool = False) -> PyTree:
    """The root ``x`` of ``f(x) = 0`` that ``solve(f, initial_guess)`` finds, differentiated
    implicitly with respect to the values ``f`` closes over: ``dx = -(df/dx)^-1 (df/dtheta)
    dtheta``, where ``tangent_solve(g, y)`` solves the linear ``g(dx) = y`` (``g`` is ``f``
    linearised at the root).  The solver's iterations are not differentiated, and the
    initial guess gets no derivative.  With ``has_aux``, ``solve`` returns ``(x, aux)``.

    >>> import funcgrad as fg
    >>> from funcgrad import lax
    >>> def newton(f, x):
    ...     for _ in range(30):
    ...         x = x - f(x) / fg.grad(f)(x)
    ...     return x
    >>> def sqrt(a):
    ...     return lax.custom_root(lambda x: x * x - a, 1.0, newton, lambda g, y: y / g(1.0))
    >>> round(float(sqrt(2.0)), 12), round(float(fg.grad(sqrt)(2.0)), 12)  # 1 / (2 sqrt 2)
    (1.414213562373, 0.353553390593)
    """
    leaves, guess_tree = flatten_operands(initial_guess)
    leaves = [operand(x) for x in leaves]
    avals = [aval(x) for x in leaves]
    f_graph, f_consts, f_tree = _trace("custom_root: f", f, guess_tree, avals, leaves)
    _check_like("custom_root: f", f_tree, guess_tree, f_graph, avals)

    def f_fn(x):
        out = eval_graph(f_graph, *f_consts, *tree.flatten(x)[0])
        return tree.unflatten(guess_tree, list(out))

    aux_trees = []
    s_graph, s_consts = _trace_solver("custom_root: solve", solve, f_fn, guess_tree, avals,
                                      has_aux, aux_trees, leaves)
    sizes = [len(f_consts), len(s_consts), len(leaves)]
    rule = _root_rule(f_graph, s_graph, tangent_solve, sizes, guess_tree, len(leaves))
    outs = custom_call_p.bind(*f_consts, *s_consts, *leaves, rule=rule)
    x = tree.unflatten(guess_tree, list(outs[:len(leaves)]))
    return (x, tree.unflatten(aux_trees[0], list(outs[len(leaves):]))) if has_aux else x
