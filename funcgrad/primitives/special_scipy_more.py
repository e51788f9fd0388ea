"""More elementwise primitives whose values are SciPy's own ufuncs (as
:mod:`.special_scipy`: SciPy imported on the first call, no GPU kernel, ``jit`` calls
SciPy), with linear rules written with differentiable primitives:

- the inverses, by the inverse function theorem (``dx/dy = 1 / (dy/dx)`` at the result):
  ``inv_boxcox(y, l)``/``inv_boxcox1p``: ``u**(1 - l)`` in ``y`` and
  ``-u**(1 - l) d/dl boxcox(u, l)`` in ``l`` (``u = x`` or ``1 + x``);
  ``gammaincinv(a, y)``: ``1 / (x**(a-1) exp(-x) / Gamma(a))`` (``gammainccinv``: minus
  that); ``betaincinv(a, b, y)``: ``B(a, b) / (x**(a-1) (1-x)**(b-1))``;
  ``ndtri_exp(y)``: ``exp(y) / phi(x)``; in the shapes, ``dx/da = -(dP/da) / (dP/dx)``
  at the result (:mod:`.incomplete`'s ``gammainc_da``, ``betainc_da``, ``betainc_db``:
  ``P(a, x) = y`` and ``Q(a, x) = y`` give the same ``-gammainc_da / density``);
- ``erfi' = 2/sqrt(pi) exp(x**2)``;
- ``kolmogorov(y) = 2 sum (-1)**(k-1) exp(-2 k**2 y**2)``: its slope ``-8y sum (-1)**(k-1)
  k**2 exp(-2 k**2 y**2)`` from ``y = 0.6`` (12 terms), below it that of the theta form
  ``1 - sqrt(2 pi)/y sum exp(-(2k-1)**2 pi**2 / (8 y**2))`` (5 terms; 0 at ``y <= 0``);
  ``kolmogi``, its inverse: one over that slope at the result;
- the complete elliptic integrals (parameter ``m``, SciPy's convention):
  ``K'(m) = (E - (1 - m) K) / (2 m (1 - m))``, ``E'(m) = (E - K) / (2m)`` (their Taylor
  series near ``m = 0``, where those differences cancel), ``ellipkm1(p) = K(1 - p)``;
- ``lambertw(z, k, tol)``: ``W' = exp(-W) / (1 + W)`` (``W / (z (1 + W))`` without its
  0/0 at ``z = 0``); none in the integer branch ``k`` or ``tol``;
- the Struve functions in ``x``: ``H_v' = (H_{v-1} - H_{v+1}) / 2 + c`` and ``L_v' =
  (L_{v-1} + L_{v+1}) / 2 + c``, ``c = (x/2)**v / (2 sqrt(pi) Gamma(v + 3/2))``
  (DLMF 11.4.23-24, 11.4.26-27); none in ``v``;
- the spherical Bessel functions ``f_n(z)`` (``spherical_jn``, ``_yn``, ``_in``, ``_kn``)
  and their derivatives (SciPy's ``derivative=True`` values, ``*_d``): ``f_n' = *_d``
  and ``(*_d)' = (n f_{n-1}' -+ (n + 1) f_{n+1}') / (2n + 1)`` (DLMF 10.51.2, 10.51.5;
  ``-(n k_{n-1}' + (n + 1) k_{n+1}') / (2n + 1)``); none in the integer order ``n``.
"""
import math

from .elementwise import (abs as _abs, equal, exp, floor, less, less_equal, log, log1p,
                          logical_and, power, square, where)  # noqa: F401
from .incomplete import (_betainc_density, _gammainc_density, betainc_da, betainc_db,
                         gammainc_da)
from .special import gamma
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
def _gammaincinv_lin_a(g, a, y, x):
    return g * (-gammainc_da(a, x) / _gammainc_density(a, x))


gammaincinv_p = _declare("gammaincinv", _gammaincinv_lin_a,
                         lambda g, a, y, x: g / _gammainc_density(a, x))
gammainccinv_p = _declare("gammainccinv", _gammaincinv_lin_a,
                          lambda g, a, y, x: -g / _gammainc_density(a, x))
betaincinv_p = _declare(
    "betaincinv", lambda g, a, b, y, x: g * (-betainc_da(a, b, x) / _betainc_density(a, b, x)),
    lambda g, a, b, y, x: g * (-betainc_db(a, b, x) / _betainc_density(a, b, x)),
    lambda g, a, b, y, x: g / _betainc_density(a, b, x))
ndtri_exp_p = _declare("ndtri_exp",
                       lambda g, y, x: g * (exp(y + square(x) * 0.5) * _SQRT_2PI))
kolmogorov_p = _declare("kolmogorov", lambda g, y, out: g * kolmogorov_slope(y))
kolmogi_p = _declare("kolmogi", lambda g, p, y: g / kolmogorov_slope(y))
erfi_p = _declare("erfi", lambda g, x, y: g * (exp(square(x)) * (2.0 / math.sqrt(math.pi))))
def kolmogorov_slope(y):
    """``d/dy kolmogorov(y)`` (written with primitives: its own derivatives follow)."""
    far = less_equal(0.6, y)
    yf = where(far, y, 1.0)
    alternating = 0.0
    for k in range(12, 0, -1):
        alternating = alternating + (-1.0) ** (k - 1) * k * k * exp(square(yf) * (-2.0 * k * k))
    near = logical_and(less(0.0, y), less(y, 0.6))
    yn = where(near, y, 0.5)
    theta = 0.0
    for k in range(5, 0, -1):
        a = (2 * k - 1) ** 2 * math.pi ** 2 / 8.0
        theta = theta + exp(-a / square(yn)) * (1.0 / square(yn) - 2.0 * a / square(square(yn)))
    return where(far, yf * alternating * -8.0, where(near, theta * _SQRT_2PI, 0.0))


ellipk_p = _declare("ellipk", _ellipk_lin)
ellipe_p = _declare("ellipe", _ellipe_lin)
ellipkm1_p = _declare("ellipkm1", _ellipkm1_lin)



def _lambertw_lin_z(g, z, k, tol, w):
    return g * (exp(-w) / (w + 1.0))


def _struve_term(v, x):
    """``(x/2)**v / (2 sqrt(pi) Gamma(v + 3/2))``: 0 at the poles of Gamma (``v = -3/2,
    -5/2, ...``; for every ``x``, so its derivative in ``x`` is 0 there too)."""
    u = v + 1.5
    pole = logical_and(less_equal(u, 0.0), equal(u, floor(u)))
    safe_v = where(pole, 0.0, v)
    return where(pole, 0.0, power(x * 0.5, safe_v) / (gamma(safe_v + 1.5)
                                                      * (2.0 * math.sqrt(math.pi))))


def _struve_lin_x(g, v, x, out):
    return g * ((struve(v - 1.0, x) - struve(v + 1.0, x)) * 0.5 + _struve_term(v, x))


def _modstruve_lin_x(g, v, x, out):
    return g * ((modstruve(v - 1.0, x) + modstruve(v + 1.0, x)) * 0.5 + _struve_term(v, x))


def _spherical_kernel(name, derivative):
    def kernel(n, z):
        import scipy.special  # (first call: importing funcgrad never loads SciPy)
        return getattr(scipy.special, name)(n, z, derivative)
    kernel.__name__ = kernel.__qualname__ = name + ("_d" if derivative else "")
    return kernel


def _spherical(name, sign_low, sign_high):
    """``(f, f')``: the primitives of ``name(n, z)`` and of its ``derivative=True``, whose
    derivative is ``(sign_low n f_{n-1}' + sign_high (n + 1) f_{n+1}') / (2n + 1)``
    (``f_{n-1}'`` taken at ``n = 0`` only to be multiplied by 0)."""
    derivative = []

    def d_lin(g, n, z, out):
        d, = derivative
        lower = d(where(equal(n, 0), 0, n - 1), z)
        return g * ((lower * (n * sign_low) + d(n + 1, z) * ((n + 1) * sign_high))
                    / (n * 2 + 1))
    d = _call(_declare(name + "_d", _not_implemented(f"{name}(n, z, derivative=True)", "n",
                                                     "z"),
                       d_lin, kernel=_spherical_kernel(name, True)))
    derivative.append(d)
    f = _call(_declare(name, _not_implemented(f"{name}(n, z)", "n", "z"),
                       lambda g, n, z, out: g * d(n, z), kernel=_spherical_kernel(name, False)))
    return f, d


(spherical_jn, spherical_jn_d), (spherical_yn, spherical_yn_d), (spherical_in, spherical_in_d), (
    spherical_kn, spherical_kn_d) = (_spherical("spherical_jn", 1, -1),
                                     _spherical("spherical_yn", 1, -1),
                                     _spherical("spherical_in", 1, 1),
                                     _spherical("spherical_kn", -1, -1))

lambertw_p = _declare("lambertw", _lambertw_lin_z,
                      _not_implemented("lambertw(z, k, tol)", "k", "z"),
                      _not_implemented("lambertw(z, k, tol)", "tol", "z"))
struve_p = _declare("struve", _not_implemented("struve(v, x)", "v", "x"), _struve_lin_x)
modstruve_p = _declare("modstruve", _not_implemented("modstruve(v, x)", "v", "x"),
                       _modstruve_lin_x)
lambertw, struve, modstruve = map(_call, (lambertw_p, struve_p, modstruve_p))

(inv_boxcox, inv_boxcox1p, gammaincinv, gammainccinv, betaincinv, ndtri_exp, erfi, ellipk,
 ellipe, ellipkm1, kolmogorov, kolmogi) = map(_call, (
    inv_boxcox_p, inv_boxcox1p_p, gammaincinv_p, gammainccinv_p, betaincinv_p, ndtri_exp_p,
    erfi_p, ellipk_p, ellipe_p, ellipkm1_p, kolmogorov_p, kolmogi_p))
__all__ = ["inv_boxcox", "inv_boxcox1p", "gammaincinv", "gammainccinv", "betaincinv",
           "ndtri_exp", "erfi", "ellipk", "ellipe", "ellipkm1", "kolmogorov", "kolmogi",
           "lambertw", "struve",
           "modstruve", "spherical_jn", "spherical_jn_d", "spherical_yn", "spherical_yn_d",
           "spherical_in", "spherical_in_d", "spherical_kn", "spherical_kn_d"]
