"""Quadrature rules given as numbers: ``lebedev_rule`` (SciPy's tables)."""
import numpy as np

from ..core import Tracer, is_special


def lebedev_rule(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(x, w)``: the points (shape ``(3, m)``, on the unit sphere) and weights of the
    Lebedev rule of order ``n`` on the sphere (``scipy.integrate.lebedev_rule``, whose
    values these are; SciPy imported on the first call).  ``sum(w * f(*x))`` integrates
    ``f`` over the sphere's surface, differentiably in what ``f`` depends on; the rule
    itself is numbers (a traced ``n`` is refused).

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> x, w = fsi.lebedev_rule(7)
    >>> round(float(np.sum(w * x[2] ** 2)), 12), round(4 * np.pi / 3, 12)  # z^2 over S^2
    (4.188790204786, 4.188790204786)
    """
    if isinstance(n, Tracer) or is_special(n):
        raise TypeError("lebedev_rule: the order n is traced, but the rule is a table of "
                        "numbers chosen by a concrete order; pass a Python int")
    from scipy.integrate import lebedev_rule as scipy_lebedev_rule
    return scipy_lebedev_rule(n)
