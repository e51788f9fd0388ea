"""SciPy's constraint, bounds, warning and result classes that ``funcgrad.scipy.optimize``
hands out (SciPy's own, loaded with SciPy on first use: ``minimize`` passes them to SciPy
as they are), and the check that ``minimize`` does not let SciPy drop them.

SciPy's ``minimize`` warns and then ignores bounds or constraints that the chosen method
cannot take, and returns the unconstrained optimum as if it were the answer: funcgrad
raises instead, naming the methods that take them.
"""

__all__ = ["SCIPY_CLASSES", "refuse_ignored"]

# (looked up on scipy.optimize by name, on first use)
SCIPY_CLASSES = ("OptimizeResult", "Bounds", "LinearConstraint", "NonlinearConstraint",
                 "OptimizeWarning", "RootResults")

# scipy.optimize.minimize's methods (lower case, as SciPy compares them) that read bounds,
# and those that read constraints
_TAKE_BOUNDS = ("nelder-mead", "powell", "l-bfgs-b", "tnc", "slsqp", "trust-constr",
                "cobyla", "cobyqa")
_TAKE_CONSTRAINTS = ("slsqp", "trust-constr", "cobyla", "cobyqa")


def refuse_ignored(method, bounds, constraints):
    """Raise where ``method`` (lower case; ``"custom"`` for a callable) would ignore the
    ``bounds`` or ``constraints`` it is given."""
    if method == "custom":
        return
    if constraints and method not in _TAKE_CONSTRAINTS:
        raise ValueError(
            f"minimize: method {method!r} cannot handle constraints (SciPy would ignore "
            f"them, with a warning, and return the unconstrained optimum). Use one of "
            f"{', '.join(map(repr, _TAKE_CONSTRAINTS))} ('slsqp' is SciPy's choice when "
            f"method is left out), or drop the constraints")
    if bounds is not None and method not in _TAKE_BOUNDS:
        raise ValueError(
            f"minimize: method {method!r} cannot handle bounds (SciPy would ignore them, "
            f"with a warning, and return the unbounded optimum). Use one of "
            f"{', '.join(map(repr, _TAKE_BOUNDS))} ('l-bfgs-b' is SciPy's choice when "
            f"method is left out), or drop the bounds")
