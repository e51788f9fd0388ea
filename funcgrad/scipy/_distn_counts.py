"""The shape parameters of SciPy's univariate families that are integer counts (``binom``'s
``n``, ``hypergeom``'s ``M``, ``n``, ``N``, ``randint``'s ``low`` and ``high``...), and
the outcome ``k`` of a discrete family's ``pmf``: none has a derivative.

SciPy's values are NaN between whole counts and its ``pmf`` is 0 between whole outcomes, so
the slope of the analytic continuation that the formulas (``gammaln``, ``betaln``) would give
is no derivative of SciPy's function: differentiating in them raises (the house rule: no
derivative is ever wrong silently).  ``cdf`` and ``sf`` keep their derivative 0 in ``k``
(step functions, as ``ppf``'s), and their values are untouched.
"""
from typing import Any, Dict, List, Sequence, Tuple

from ._linalg_tools import no_derivative

__all__ = ["INTEGER_COUNTS", "refuse_count_derivatives", "refuse_outcome_derivative"]

# family -> its shape parameters that SciPy's _argcheck requires to be whole numbers (the
# families that refuse them on their own, irwinhall and the noncentral hypergeometrics,
# and those whose special functions refuse them, ksone and kstwo, are not listed)
INTEGER_COUNTS: Dict[str, Tuple[str, ...]] = {
    "binom": ("n",),
    "betabinom": ("n",),
    "betanbinom": ("n",),
    "boltzmann": ("N",),
    "hypergeom": ("M", "n", "N"),
    "nhypergeom": ("M", "n", "r"),
    "randint": ("low", "high"),
    "zipfian": ("n",),
}


def refuse_count_derivatives(name: str, names: Sequence[str], shape: List[Any]) -> List[Any]:
    """``shape`` (the family ``name``'s shape parameters, called ``names``) with each
    integer count refusing a derivative (a ``ValueError`` that names it)."""
    counts = INTEGER_COUNTS.get(name)
    if not counts:
        return shape
    return [no_derivative(s, f"{name}: the integer count {n} has no derivative (SciPy's "
                             f"values are NaN between whole numbers). Pass {n} as a plain "
                             f"number, or fg.stop_gradient({n})")
            if n in counts else s for n, s in zip(names, shape)]


def refuse_outcome_derivative(name: str, z: Any) -> Any:
    """``z = k - loc``, a discrete family's outcome, refusing a derivative: its ``pmf`` is
    0 between whole outcomes and jumps at them."""
    return no_derivative(z, f"{name}.pmf/logpmf: the outcome k (and loc) has no derivative "
                            f"(the pmf is 0 between whole numbers and jumps at them). Pass "
                            f"k and loc as plain numbers, or fg.stop_gradient(k)")
