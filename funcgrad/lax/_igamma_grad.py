"""``jax.lax``'s derivatives of the regularized incomplete gamma function in its first
argument: ``igamma_grad_a`` (dP/da) and ``random_gamma_grad`` (the derivative of a gamma
sample in its shape parameter, by implicit differentiation of ``P(a, x) = u``).

As XLA's: the power series of ``P`` for ``x <= max(1, a)``, the continued fraction of
``Q = 1 - P`` otherwise, each carrying its terms' derivatives in ``a`` alongside, iterated
(:func:`~funcgrad.lax.while_loop`) until every entry has converged.  They are written with
``funcgrad.numpy`` operations, so they batch and compile; float32 operands are computed
in float64 and the results rounded back.
"""
import numpy as np

from .. import numpy as fnp
from ._arith import binary
from ._common import FLOAT
from ._math import digamma, lgamma
from ._while import while_loop
from ..typing import Array, ArrayLike

__all__ = ["igamma_grad_a", "random_gamma_grad"]

MAX_STEPS = 2000
BIG = 4503599627370496.0
EPS = np.finfo(np.float64).eps / 2


def _series_grad(a, x):
    """dP/da over ``x^a e^-x / Gamma(a)``, by the power series of P(a, x) (for
    x <= max(1, a)), its terms' derivatives carried alongside: c_n = c_(n-1) x / (a + n)."""
    def step(carry):
        n, r, c, dc, total, dtotal = carry
        r = r + 1.0
        dc = (dc - c / r) * x / r
        c = c * x / r
        return n + 1, r, c, dc, total + c, dtotal + dc

    def going(carry):
        n, _, c, dc, total, dtotal = carry
        return fnp.logical_and(n < MAX_STEPS, fnp.any((fnp.abs(c) > EPS * fnp.abs(total))
                                                      | (fnp.abs(dc) > EPS * fnp.abs(dtotal))))
    one, zero = fnp.ones_like(a), fnp.zeros_like(a)
    *_, total, dtotal = while_loop(going, step, (0, a, one, zero, one, zero))
    return (dtotal + total * (fnp.log(x) - digamma(a) - 1.0 / a)) / a


def _fraction_grad(a, x):
    """dP/da = -dQ/da over ``x^a e^-x / Gamma(a)``, by the continued fraction of Q(a, x)
    (for x > max(1, a)), the convergents' numerators and denominators differentiated
    alongside."""
    y = 1.0 - a
    z = x + y + 1.0
    zero = fnp.zeros_like(z)
    p2, q2, p1, q1 = fnp.ones_like(z), x + zero, x + 1.0 + zero, z * x
    dp2, dq2, dp1, dq1 = zero, zero, zero, -x + zero
    ans, dans = p1 / q1, (dp1 - p1 / q1 * dq1) / q1

    def step(carry):
        n, c, y, z, p2, q2, p1, q1, dp2, dq2, dp1, dq1, ans, dans, _ = carry
        c, y, z = c + 1.0, y + 1.0, z + 2.0
        yc = y * c
        pk, qk = p1 * z - p2 * yc, q1 * z - q2 * yc
        dpk = dp1 * z - p1 - dp2 * yc + p2 * c
        dqk = dq1 * z - q1 - dq2 * yc + q2 * c
        nonzero = qk != 0.0
        safe_q = fnp.where(nonzero, qk, 1.0)
        r = pk / safe_q
        dr = (dpk - r * dqk) / safe_q
        change = fnp.maximum(fnp.abs((ans - r) / r), fnp.abs((dans - dr) / dr))
        change = fnp.where(nonzero, change, 1.0)
        ans, dans = fnp.where(nonzero, r, ans), fnp.where(nonzero, dr, dans)
        scale = fnp.where(fnp.abs(pk) > BIG, 1.0 / BIG, 1.0)
        return (n + 1, c, y, z, p1 * scale, q1 * scale, pk * scale, qk * scale,
                dp1 * scale, dq1 * scale, dpk * scale, dqk * scale, ans, dans,
                fnp.max(change))

    def going(carry):
        return fnp.logical_and(carry[0] < MAX_STEPS, carry[-1] > EPS)
    carry = (0, zero, y, z, p2, q2, p1, q1, dp2, dq2, dp1, dq1, ans, dans, np.float64(1.0))
    *_, ans, dans, _ = while_loop(going, step, carry)
    return -(dans + ans * (fnp.log(x) - digamma(a)))


def _float64_pair(name, a, x):
    a, x = binary(name, a, x, FLOAT)
    dtype = a.dtype
    a, x = (v if v.dtype == np.float64 else fnp.astype(v, np.float64) for v in (a, x))
    a, x = fnp.broadcast_arrays(a, x)
    return a, x, dtype


def _grad_a_over_prefactor(a, x):
    """dP/da divided by ``x^a e^-x / Gamma(a)``: the prefactor stays apart, so that
    ``random_gamma_grad``'s ratio to the density cancels it exactly (no underflow)."""
    use_series = (x <= 1.0) | (x <= a)
    # (each method sees only the entries where it converges)
    series = _series_grad(a, fnp.where(use_series & (x > 0.0), x, 0.5))
    fraction = _fraction_grad(a, fnp.where(use_series, a + 2.0, x))
    return fnp.where(use_series, series, fraction)


def igamma_grad_a(a: ArrayLike, x: ArrayLike) -> Array:
    """The derivative in ``a`` of the regularized lower incomplete gamma function
    ``P(a, x)`` (:func:`igamma`), elementwise (same float dtype; 0 at ``x = 0``).

    >>> from funcgrad import lax
    >>> float(lax.igamma_grad_a(2.0, 1.5))  # doctest: +ELLIPSIS
    -0.31348863782...
    """
    a, x, dtype = _float64_pair("igamma_grad_a", a, x)
    positive = x > 0.0
    safe_x = fnp.where(positive, x, 1.0)
    prefactor = fnp.exp(a * fnp.log(safe_x) - safe_x - lgamma(a))
    out = fnp.where(positive, prefactor * _grad_a_over_prefactor(a, safe_x), 0.0)
    return out if dtype == np.float64 else fnp.astype(out, dtype)


def random_gamma_grad(a: ArrayLike, x: ArrayLike) -> Array:
    """The derivative of a Gamma(``a``, 1) sample ``x`` in its shape ``a`` (JAX's
    reparametrised gamma samples): ``x(a)`` keeps ``P(a, x)`` fixed, so ``dx/da =
    -(dP/da) / (dP/dx)``, the density in the denominator.

    >>> from funcgrad import lax
    >>> float(lax.random_gamma_grad(2.0, 1.5))  # doctest: +ELLIPSIS
    0.9366390678...
    """
    a, x, dtype = _float64_pair("random_gamma_grad", a, x)
    # (the prefactor x^a e^-x / Gamma(a) over the density x^(a-1) e^-x / Gamma(a) is x)
    out = -x * _grad_a_over_prefactor(a, x)
    return out if dtype == np.float64 else fnp.astype(out, dtype)
