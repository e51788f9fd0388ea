"""SciPy's constraint, bounds, warning and result classes that ``funcgrad.scipy.optimize``
hands out (SciPy's own, loaded with SciPy on first use: ``minimize`` passes them to SciPy
as they are), and the check that ``minimize`` does not let SciPy drop them.

SciPy's ``minimize`` warns and then ignores bounds or constraints that the chosen method
cannot take; funcgrad does the same, and drops them before its derivative rule reads
them.
"""

__all__ = ["SCIPY_CLASSES", "drop_ignored"]

# (looked up on scipy.optimize by name, on first use)
SCIPY_CLASSES = ("OptimizeResult", "Bounds", "LinearConstraint", "NonlinearConstraint",
                 "OptimizeWarning", "RootResults")

# scipy.optimize.minimize's methods (lower case, as SciPy compares them) that read bounds,
# and those that read constraints
_TAKE_BOUNDS = ("nelder-mead", "powell", "l-bfgs-b", "tnc", "slsqp", "trust-constr",
                "cobyla", "cobyqa")
_TAKE_CONSTRAINTS = ("slsqp", "trust-constr", "cobyla", "cobyqa")


def drop_ignored(method, bounds, constraints):
    """``(bounds, constraints)`` as ``method`` (lower case; ``"custom"`` for a callable)
    uses them: those it cannot take are dropped with SciPy's warning, before SciPy sees
    them, so that the derivative at the optimum does not count on bounds the search
    ignored."""
    import warnings
    if method == "custom":
        return bounds, constraints
    if constraints and method not in _TAKE_CONSTRAINTS:
        warnings.warn(f"Method {method} cannot handle constraints (ignored: the result is "
                      f"the unconstrained optimum; {', '.join(map(repr, _TAKE_CONSTRAINTS))} "
                      f"take them).", RuntimeWarning, stacklevel=4)
        constraints = ()
    if bounds is not None and method not in _TAKE_BOUNDS:
        warnings.warn(f"Method {method} cannot handle bounds (ignored: the result is the "
                      f"unbounded optimum; {', '.join(map(repr, _TAKE_BOUNDS))} take "
                      f"them).", RuntimeWarning, stacklevel=4)
        bounds = None
    return bounds, constraints
