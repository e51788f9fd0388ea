"""More elementwise primitives whose values are SciPy's own ufuncs (as
:mod:`.special_scipy`: SciPy imported on the first call, no GPU kernel, ``jit`` calls
SciPy), with linear rules written with differentiable primitives:

- the inverses, by the inverse function theorem (``dx/dy = 1 / (dy/dx)`` at the result):
  ``inv_boxcox(y, l)``/``inv_boxcox1p``: ``u**(1 - l)`` in ``y`` and
  ``-u**(1 - l) d/dl boxcox(u, l)`` in ``l`` (``u = x`` or ``1 + x``);
  ``gammaincinv(a, y)``: ``1 / (x**(a-1) exp(-x) / Gamma(a))`` (``gammainccinv``: minus
  that); ``betaincinv(a, b, y)``: ``B(a, b) / (x**(a-1) (1-x)**(b-1))``;
  ``ndtri_exp(y)``: ``exp(y) / phi(x)``; their derivatives in ``a`` and ``b`` raise
  ``NotImplementedError``, as ``gammainc``'s and ``betainc``'s do;
- ``erfi' = 2/sqrt(pi) exp(x**2)``;
- the complete elliptic integrals (parameter ``m``, SciPy's convention):
  ``K'(m) = (E - (1 - m) K) / (2 m (1 - m))``, ``E'(m) = (E - K) / (2m)`` (their Taylor
  series near ``m = 0``, where those differences cancel), ``ellipkm1(p) = K(1 - p)``.
"""
import math

from .elementwise import abs as _abs, exp, less, log, log1p, square, where
from .special import _betainc_density, _gammainc_density
from .special_scipy import _boxcox_dl, _call, _declare, _not_implemented

_SQRT_2PI = math.sqrt(2 * math.pi)


def _inv_boxcox(lg):
    def lin_y(g, y, l, x):
        return g * exp((1.0 - l) * lg(x))

    def lin_l(g, y, l, x):
        u_log = lg(x)
        return g * -(exp((1.0 - l) * u_log) * _boxcox_dl(u_log, l, y))
    return lin_y, lin_l


# K(m) = pi/2 sum c_n m**n with c_n = ((2n-1)!! / (2n)!!)**2, E(m) = pi/2 sum -c_n/(2n-1) m**n:
# their derivatives' first terms, for |m| < _SERIES_BELOW (the closed forms lose
# ~eps/|m| there; the first omitted term is below 1e-16 of the sum)
_SERIES_BELOW = 5e-3
_C = [1.0]
for _n in range(1, 9):
    _C.append(_C[-1] * ((2 * _n - 1) / (2 * _n)) ** 2)
_DK = [n * _C[n] * math.pi / 2 for n in range(1, 9)]
_DE = [-n * _C[n] / (2 * n - 1) * math.pi / 2 for n in range(1, 9)]
del _n


def _series(coefficients, m):
    total = coefficients[-1]
    for c in reversed(coefficients[:-1]):
        total = total * m + c
    return total


def _near_zero(m):
    small = less(_abs(m), _SERIES_BELOW)
    return small, where(small, 0.5, m)  # (the closed forms' safe stand-in)


def _ellipk_lin(g, m, k):
    small, s = _near_zero(m)
    closed = (ellipe(s) - (1.0 - s) * ellipk(s)) / (s * (1.0 - s) * 2.0)
    return g * where(small, _series(_DK, m), closed)


def _ellipe_lin(g, m, e):
    small, s = _near_zero(m)
    closed = (ellipe(s) - ellipk(s)) / (s * 2.0)
    return g * where(small, _series(_DE, m), closed)


def _ellipkm1_lin(g, p, k):
    """``-K'(1 - p) = -(E(1 - p) - p K(1 - p)) / (2 p (1 - p))``, written in ``p`` (which
    ``1 - m`` would round near ``m = 1``, where ellipkm1 is used); the series near
    ``p = 1``."""
    m = 1.0 - p
    small = less(_abs(m), _SERIES_BELOW)
    s = where(small, 0.5, p)
    closed = (ellipe(1.0 - s) - s * ellipkm1(s)) / (s * (1.0 - s) * 2.0)
    return g * -where(small, _series(_DK, m), closed)


inv_boxcox_p = _declare("inv_boxcox", *_inv_boxcox(log))
inv_boxcox1p_p = _declare("inv_boxcox1p", *_inv_boxcox(log1p))
gammaincinv_p = _declare("gammaincinv", _not_implemented("gammaincinv(a, y)", "a", "y"),
                         lambda g, a, y, x: g / _gammainc_density(a, x))
gammainccinv_p = _declare("gammainccinv", _not_implemented("gammainccinv(a, y)", "a", "y"),
                          lambda g, a, y, x: -g / _gammainc_density(a, x))
betaincinv_p = _declare("betaincinv", _not_implemented("betaincinv(a, b, y)", "a", "y"),
                        _not_implemented("betaincinv(a, b, y)", "b", "y"),
                        lambda g, a, b, y, x: g / _betainc_density(a, b, x))
ndtri_exp_p = _declare("ndtri_exp",
                       lambda g, y, x: g * (exp(y + square(x) * 0.5) * _SQRT_2PI))
erfi_p = _declare("erfi", lambda g, x, y: g * (exp(square(x)) * (2.0 / math.sqrt(math.pi))))
ellipk_p = _declare("ellipk", _ellipk_lin)
ellipe_p = _declare("ellipe", _ellipe_lin)
ellipkm1_p = _declare("ellipkm1", _ellipkm1_lin)

(inv_boxcox, inv_boxcox1p, gammaincinv, gammainccinv, betaincinv, ndtri_exp, erfi, ellipk,
 ellipe, ellipkm1) = map(_call, (inv_boxcox_p, inv_boxcox1p_p, gammaincinv_p, gammainccinv_p,
                                 betaincinv_p, ndtri_exp_p, erfi_p, ellipk_p, ellipe_p,
                                 ellipkm1_p))
__all__ = ["inv_boxcox", "inv_boxcox1p", "gammaincinv", "gammainccinv", "betaincinv",
           "ndtri_exp", "erfi", "ellipk", "ellipe", "ellipkm1"]
