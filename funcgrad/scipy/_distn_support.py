"""The ends of a univariate distribution's standardized support where they depend on its shape
parameters (SciPy's ``_get_support`` overrides): ``genpareto``'s ``-1/c`` for ``c < 0``,
``truncnorm``'s ``a`` and ``b``, ``binom``'s ``n``...

Each is written with funcgrad operations, so an end that moves smoothly with a shape
parameter carries its derivative (``d(-1/c)/dc = 1/c**2``).  An end that moves with an
integer count (``binom``'s ``n``, ``hypergeom``'s ``M``, ``n``, ``N``) has none: SciPy's
support is NaN between the integers, so asking for the derivative there raises, and a count
that is not an integer gives NaN, as SciPy's.  An infinite end is a constant (its
derivative is 0, never ``inf * 0``).
"""
import math
from typing import Any, Callable, Dict, Sequence, Tuple

import numpy as np

from .. import numpy as fnp
from ._implicit_root import wants_derivative

__all__ = ["SHAPED_SUPPORTS", "shaped_support"]

_INF = math.inf
_XMIN = float(np.finfo(float).tiny)  # (SciPy's genextreme keeps 1/c finite with it)


def _reciprocal_where(mask, c, otherwise):
    """``1 / c`` where ``mask``, else ``otherwise`` (double where: no ``1/0`` slope)."""
    return fnp.where(mask, 1.0 / fnp.where(mask, c, 1.0), otherwise)


def _genextreme(c):
    positive, negative = fnp.greater(c, 0), fnp.less(c, 0)
    return (_reciprocal_where(negative, fnp.minimum(c, -_XMIN), -_INF),
            _reciprocal_where(positive, fnp.maximum(c, _XMIN), _INF))


def _genpareto(c):
    negative = fnp.less(c, 0)
    return 0.0 * c, -_reciprocal_where(negative, c, -_INF)


def _tukeylambda(lam):
    b = _reciprocal_where(fnp.greater(lam, 0), lam, _INF)
    return -b, b


def _kappa4(h, k):
    """SciPy's six cases of ``(h > 0, h <= 0) x (k > 0, k = 0, k < 0)``.  ``(1 - h**-k)/k``
    tends to ``log h`` as ``k -> 0``: at ``k = 0`` its Taylor series in ``k`` keeps the
    derivatives in ``k`` (``-log(h)**2 / 2``...) that SciPy's neighbouring values have."""
    h_positive, k_zero = fnp.greater(h, 0), fnp.equal(k, 0)
    safe_h = fnp.where(h_positive, h, 1.0)
    safe_k = fnp.where(k_zero, 1.0, k)
    log_h = fnp.log(safe_h)
    power_end = (1.0 - fnp.power(safe_h, -safe_k)) / safe_k
    series = log_h * (1.0 - k * log_h / 2.0 + (k * log_h) ** 2 / 6.0
                      - (k * log_h) ** 3 / 24.0)
    left_h_positive = fnp.where(k_zero, series, power_end)
    left_h_negative = fnp.where(fnp.less(k, 0), 1.0 / safe_k, -_INF)
    a = fnp.where(h_positive, left_h_positive, left_h_negative)
    b = _reciprocal_where(fnp.greater(k, 0), k, _INF)
    return a, b


def _hypergeom(M, n, N):
    return fnp.maximum(N - (M - n), 0.0), fnp.minimum(n, N)


# name -> (the shape parameters (by position) that are integer counts the ends depend on,
# the standardized ends as a function of the shape parameters)
SHAPED_SUPPORTS: Dict[str, Tuple[Sequence[int], Callable[..., Any]]] = {
    "genextreme": ((), _genextreme),
    "genhalflogistic": ((), lambda c: (0.0 * c, 1.0 / c)),
    "genpareto": ((), _genpareto),
    "kappa4": ((), _kappa4),
    "loguniform": ((), lambda a, b: (a, b)),
    "reciprocal": ((), lambda a, b: (a, b)),
    "truncexpon": ((), lambda b: (0.0 * b, b)),
    "truncnorm": ((), lambda a, b: (a, b)),
    "truncpareto": ((), lambda b, c: (1.0 + 0.0 * c, c)),
    "truncweibull_min": ((), lambda c, a, b: (a, b)),
    "tukeylambda": ((), _tukeylambda),
    "bernoulli": ((), lambda p: (0.0 * p, 1.0 + 0.0 * p)),
    "poisson_binom": ((), lambda p: (0.0, float(p.shape[-1]))),
    "binom": ((0,), lambda n, p: (0.0 * n, n)),
    "betabinom": ((0,), lambda n, a, b: (0.0 * n, n)),
    "boltzmann": ((1,), lambda lambda_, N: (0.0 * N, N - 1.0)),
    "hypergeom": ((0, 1, 2), _hypergeom),
    "nchypergeom_fisher": ((0, 1, 2), lambda M, n, N, odds: _hypergeom(M, n, N)),
    "nhypergeom": ((1,), lambda M, n, r: (0.0 * n, n)),
    "irwinhall": ((0,), lambda n: (0.0 * n, n)),
    "kstwo": ((0,), lambda n: (0.5 / n, 1.0 + 0.0 * n)),
    "randint": ((0, 1), lambda low, high: (low, high - 1.0)),
    "zipfian": ((1,), lambda a, n: (1.0 + 0.0 * n, fnp.floor(n))),
}


def shaped_support(name: str, names: Sequence[str], shape: Sequence[Any]) -> Tuple[Any, Any]:
    """``(a, b)``, the standardized support of the family ``name`` (a key of
    ``SHAPED_SUPPORTS``) at the shape parameters ``shape`` (called ``names``): NaN where a
    count is not an integer; a count that carries a derivative raises (the ends jump from
    integer to integer, and SciPy's are NaN between)."""
    counts, ends = SHAPED_SUPPORTS[name]
    for i in counts:
        if wants_derivative(shape[i]):
            raise ValueError(
                f"{name}: the support's ends move with the integer count {names[i]} in "
                f"whole steps, so they have no derivative in it (SciPy's support is NaN "
                f"between the integers). Pass {names[i]} as a plain number, or "
                f"fg.stop_gradient({names[i]})")
    a, b = ends(*shape)
    integral: Any = True
    for i in counts:
        whole = fnp.equal(shape[i], fnp.floor(shape[i]))
        integral = whole if integral is True else fnp.logical_and(integral, whole)
    if integral is not True:
        a, b = fnp.where(integral, a, math.nan), fnp.where(integral, b, math.nan)
    return a, b
