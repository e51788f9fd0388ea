"""``funcgrad.scipy.optimize``: SciPy's minimizers (``minimize``), root finders (``root``,
``fsolve``, ``root_scalar``, ``brentq``, ``bisect``, ``newton``) and least squares
(``least_squares``, ``curve_fit``), with the derivatives they need computed by funcgrad,
on unknowns that may be any pytree; each answer is differentiable in ``args`` (and in the
values the function closes over) by the implicit function theorem at that answer
(:mod:`._implicit_root`), never through the search.

SciPy's legacy names (``fmin``, ``fmin_bfgs``... ``fminbound``, ``brent``, ``leastsq``,
``fixed_point``, ``ridder``, ``brenth``, ``toms748``) keep SciPy's signatures and return
tuples and call the solvers above, so their answers are differentiable the same way;
``rosen`` and its derivatives are written with ``funcgrad.numpy``. SciPy's ``Bounds``,
``LinearConstraint``, ``NonlinearConstraint``, ``OptimizeResult``, ``RootResults`` and
``OptimizeWarning`` are re-exported as they are; ``minimize`` warns and ignores bounds or
constraints its method cannot take, as SciPy's.

SciPy is imported only when a solver is called (``import funcgrad`` never imports it);
it must be installed then (``pip install scipy``).
"""
from typing import Any

from ._curve_fit import curve_fit
from ._assignment import linear_sum_assignment, nnls
from ._least_squares import least_squares
from ._minimize_scalar import minimize_scalar
from ._roots import fsolve, root
from ._scalar_roots import bisect, brentq, newton, root_scalar
from ._optlegacy_constraints import SCIPY_CLASSES
from ._minimize import minimize
from ._optlegacy_fmin import (fmin, fmin_bfgs, fmin_cg, fmin_l_bfgs_b, fmin_ncg,
                              fmin_powell, fmin_tnc)
from ._optlegacy_lsq import approx_fprime, check_grad, leastsq
from ._optlegacy_rosen import rosen, rosen_der, rosen_hess, rosen_hess_prod
from ._optlegacy_scalar import (bracket, brent, brenth, fixed_point, fminbound, golden,
                                ridder, toms748)
from ._optglobal_linprog import SCIPY_OBJECTS, linprog
from ._optglobal_lsq import isotonic_regression, lsq_linear
from ._optglobal_constrained import fmin_cobyla, fmin_slsqp, line_search
from ._optglobal_nonlin import (SCIPY_NONLIN, anderson, broyden1, broyden2, diagbroyden,
                                excitingmixing, linearmixing, newton_krylov)
from ._optglobal_search import (basinhopping, brute, differential_evolution, direct,
                                dual_annealing, shgo)
from ._optglobal_milp import milp, quadratic_assignment

__all__ = ["minimize", "minimize_scalar", "nnls", "linear_sum_assignment", "root", "fsolve", "least_squares", "curve_fit", "root_scalar", "brentq",
           "bisect", "newton"]
__all__ += ["rosen", "rosen_der", "rosen_hess", "rosen_hess_prod", "fmin", "fmin_powell",
            "fmin_cg", "fmin_bfgs", "fmin_ncg", "fmin_l_bfgs_b", "fmin_tnc", "fminbound",
            "brent", "golden", "bracket", "fixed_point", "leastsq", "approx_fprime",
            "check_grad", "ridder", "brenth", "toms748"]
__all__ += list(SCIPY_CLASSES)   # (SciPy's Bounds, RootResults...: __getattr__ loads them)
__all__ += ["linprog", "lsq_linear", "isotonic_regression", "line_search", "fmin_slsqp",
            "fmin_cobyla"]
__all__ += ["broyden1", "broyden2", "anderson", "newton_krylov", "diagbroyden",
            "excitingmixing", "linearmixing"]
__all__ += list(SCIPY_NONLIN)   # (SciPy's own, loaded as SCIPY_CLASSES are)
__all__ += ["brute", "differential_evolution", "basinhopping", "dual_annealing", "shgo",
            "direct", "milp", "quadratic_assignment"]
__all__ += list(SCIPY_OBJECTS)   # (SciPy's own, loaded as SCIPY_CLASSES are)


def __getattr__(name: str) -> Any:
    # SciPy's result, constraint and warning types, for isinstance checks, annotations and
    # minimize's arguments (jax.scipy.optimize has its own OptimizeResults; funcgrad
    # returns SciPy's): loaded with SciPy, on first use
    if name in SCIPY_CLASSES or name in SCIPY_OBJECTS or name in SCIPY_NONLIN:
        import scipy.optimize
        return getattr(scipy.optimize, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
