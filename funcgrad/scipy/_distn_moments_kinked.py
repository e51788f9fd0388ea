"""The moments of ``ksone(n)`` and ``kstwo(n)``, the one- and two-sided Kolmogorov-Smirnov
statistics of ``n`` samples, whose distribution functions are piecewise polynomials: their
densities have kinks, at the multiples of ``1/n`` (``ksone``, Birnbaum and Tingey's sum
gains a term there) and of ``1/(2n)`` (``kstwo``).  A quadrature across a kink converges
slowly (the generic rule of :mod:`._distn_moments_rules` stopped at ~1e-5), so here the
integral is split at them and each piece, a smooth polynomial, takes a 12-point
Gauss-Legendre rule.

The integrand is the survival function, not the density (one order smoother at each kink,
and SciPy's ``kstwo.sf`` is some five times cheaper than its ``pdf``; ``ksone``'s is
SciPy's ``smirnov``, as funcgrad's own): for ``X >= a``,
``E[g(X)] = g(a) + int_a^1 g'(x) sf(x) dx``, with ``g(x) = (x - m)**j`` about the mean
``m`` (found first, from ``g(x) = x``), so the central moments need no cancellation.

The kink at ``i/n`` leaves the distribution function ``i - 1`` times differentiable, so
only the first ones matter: the first 40 are piece ends, the rest of the range up to
where the Dvoretzky-Kiefer-Wolfowitz-Massart bound ``sf(x) <= 2 exp(-2 n x**2)`` is below
1e-20 is cut into at most 24 more pieces (the tail beyond adds below 1e-19).

``n`` is an integer count: the moments have no derivative in it (it raises); they are
plain numbers here, so ``loc`` and ``scale`` carry the derivatives
(:mod:`._distn_moments`).  ``n`` must be a plain value (not under ``jit`` or ``vmap``).
"""
import math

import numpy as np

from ..numpy._convert import concrete_values
from ._implicit_root import wants_derivative

__all__ = ["KINKED", "kinked_sums"]

# name -> (the spacing of the kinks, the left end of the support), each of n
KINKED = {
    "ksone": (lambda n: 1.0 / n, lambda n: 0.0),
    "kstwo": (lambda n: 0.5 / n, lambda n: 0.5 / n),
}

_SPLIT_KINKS, _MORE_PIECES = 40, 24
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(12)
_TAIL = 1e-20


def _pieces(n, spacing, a):
    """The ends of the pieces of ``[a, top]`` for one ``n``."""
    top = min(1.0, math.sqrt(math.log(2.0 / _TAIL) / (2.0 * n)))
    first = math.floor(a / spacing) + 1
    kinks = [k * spacing for k in range(first, first + _SPLIT_KINKS) if a < k * spacing < top]
    ends = [a] + kinks
    if ends[-1] < top:
        count = int(min(_MORE_PIECES, math.ceil((top - ends[-1]) / spacing)))
        ends += list(np.linspace(ends[-1], top, count + 1)[1:])
    return np.asarray(ends)


def _one(dist, n, order):
    """``(m, [1, E[X - m], ..., E[(X - m)**order]])`` for one plain ``n``."""
    spacing, left = KINKED[dist.name]
    a = left(n)
    ends = _pieces(n, spacing(n), a)
    half = 0.5 * np.diff(ends)[:, None]
    x = (ends[:-1, None] + half * (1.0 + _NODES)).ravel()
    w = (half * _WEIGHTS).ravel()
    with np.errstate(all="ignore"):
        if dist.name == "ksone":  # (SciPy's smirnov: the same values, ~100x faster here)
            from scipy.special import smirnov
            sf = smirnov(n, x)
        else:
            sf = np.asarray(concrete_values(dist._sf(x, float(n)), "", ""), float)
    m = a + float(np.sum(w * sf))
    sums = [1.0] + [(a - m) ** j + j * float(np.sum(w * (x - m) ** (j - 1) * sf))
                    for j in range(1, order + 1)]
    return m, sums


def kinked_sums(dist, shape, order):
    """``(m, [M_0 ... M_order])``, ``M_j = E[(X - m)**j]`` of ``dist`` (a key of
    ``KINKED``) at the shape ``shape = [n]``, as plain arrays (see the module
    docstring)."""
    (n,) = shape
    if wants_derivative(n):
        raise ValueError(f"{dist.name}: n is an integer count (the number of samples), so its "
                         f"moments have no derivative in it; pass n as a plain number, or "
                         f"fg.stop_gradient(n)")
    plain = np.asarray(concrete_values(
        n, f"{dist.name}'s moments (a quadrature split where its density has kinks, at "
        f"multiples of 1/n)", "call stats, mean, var or moment outside jit and vmap"), float)
    m = np.full(plain.shape, math.nan)
    sums = [np.full(plain.shape, math.nan) for _ in range(order + 1)]
    for index in np.ndindex(plain.shape):
        value = float(plain[index])
        if not (value >= 1.0 and value == math.floor(value)):  # (NaN as SciPy's, later)
            continue
        m[index], one = _one(dist, value, order)
        for s, v in zip(sums, one):
            s[index] = v
    return m, sums
