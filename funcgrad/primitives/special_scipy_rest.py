"""More elementwise primitives whose values are SciPy's ufuncs (as :mod:`.special_scipy`:
SciPy imported on the first call, no GPU kernel, ``jit`` calls SciPy), one per output of
a multi-output ufunc, with linear rules written with differentiable primitives:

- the parabolic cylinder functions ``pbdv(v, x) = (D_v, D_v')``, ``pbvv(v, x) =
  (V_v, V_v')`` and ``pbwa(a, x) = (W, W')`` in ``x``: the function's slope is the
  second output, whose own slope is Weber's equation (DLMF 12.2.2, 12.14.1):
  ``D'' = (x**2/4 - v - 1/2) D`` (``V`` likewise: SciPy's ``V_v`` is ``V(-v - 1/2, x)``)
  and ``W'' = (a - x**2/4) W``.  None in the order ``v`` or ``a``;
- the integrals of Airy, Bessel and Struve functions (``itairy``, ``iti0k0``, ``itj0y0``,
  ``it2i0k0``, ``it2j0y0``, ``itstruve0``, ``it2struve0``, ``itmodstruve0``): the slope
  is the integrand, ``Ai(x)``, ``I0(x)``, ``(I0(x) - 1)/x`` (its Taylor series near 0,
  where that difference cancels), ``-K0(x)/x`` for ``integral from x to inf``...;
- ``wright_bessel(a, b, x) = sum x**k / (k! Gamma(a k + b))`` in ``x``:
  ``wright_bessel(a, a + b, x)`` (term by term); ``log_wright_bessel``: the exponential
  of the difference of the two logarithms; none in ``a`` or ``b``;
- ``besselpoly(a, l, v) = integral of x**l J_v(2 a x) from 0 to 1`` in ``a``:
  ``besselpoly(a, l + 1, v - 1) - besselpoly(a, l + 1, v + 1)`` (``J_v'`` under the
  integral); none in ``l`` or ``v``;
- the modified Fresnel integrals ``F+-(x) = integral of exp(+-i t**2) from x to inf``
  and ``K+-(x) = F+-(x) exp(-+i (x**2 + pi/4)) / sqrt(pi)`` (``modfresnelp``,
  ``modfresnelm``): ``-exp(+-i x**2)`` and ``-exp(-+i pi/4)/sqrt(pi) -+ 2i x K+-``.
  SciPy's ``F+-`` of a negative ``x`` has a wrong imaginary part (its ``K+-`` is right:
  checked against quadrature), so there the imaginary part of ``F+-`` is taken from
  ``K+-`` by that relation; and its float32 loop returns NaN from ``x ~ 2.7`` on, so
  float32 arguments take its float64 values, rounded to complex64.
"""
import math

import numpy as np

from .elementwise import abs as _abs, equal, exp, less, where
from .special import i0e
from .special_scipy import _call, _declare, _not_implemented, _scipy, jv, k0, yv
from .special_scipy_extra import airy_ai, airy_bi
from .special_scipy_more import modstruve, struve

_OWN: dict = {}


def _weber(name, function, derivative, curvature):
    """The primitives of ``name``'s two outputs: ``function' = derivative`` and
    ``derivative' = curvature(v, x) * function``."""
    order = "a" if name == "pbwa" else "v"
    fixed = _not_implemented(f"{name}({order}, x)", order, "x")
    _OWN[function] = _call(_declare(function, fixed,
                                    lambda g, v, x, out: g * _OWN[derivative](v, x),
                                    kernel=_scipy(name, 0)))
    _OWN[derivative] = _call(_declare(
        derivative, fixed, lambda g, v, x, out: g * (curvature(v, x) * _OWN[function](v, x)),
        kernel=_scipy(name, 1)))
    return _OWN[function], _OWN[derivative]


def _cylinder(v, x):
    return x * x * 0.25 - v - 0.5


pbdv_d, pbdv_dp = _weber("pbdv", "pbdv_d", "pbdv_dp", _cylinder)
pbvv_v, pbvv_vp = _weber("pbvv", "pbvv_v", "pbvv_vp", _cylinder)
pbwa_w, pbwa_wp = _weber("pbwa", "pbwa_w", "pbwa_wp", lambda a, x: a - x * x * 0.25)



# --- integrals: the slope is the integrand ------------------------------------------------------

def _i0(x):
    return i0e(x) * exp(_abs(x))


def _zero(x):
    """Order 0 in ``x``'s dtype (a Python 0.0 would be a float64 operand: float32 kept)."""
    return np.zeros((), getattr(x, "dtype", np.float64))


# (1 - J0(x))/x = x/4 - x**3/64 + x**5/2304 - x**7/147456 + ... and (I0(x) - 1)/x the same
# with every sign +: below |x| = 0.05 four terms (the first omitted one below 1e-20 of the
# sum), where 1 - J0 would lose up to half the digits
_SMALL = 0.05


def _quotient(x, difference, sign):
    small = less(_abs(x), _SMALL)
    safe = where(small, 1.0, x)
    u = x * x
    series = x * (0.25 + u * (sign / 64.0 + u * (1 / 2304.0 + u * (sign / 147456.0))))
    return where(small, series, difference(safe) / safe)


def _integral(name, index, slope):
    kernel = _scipy(name, index) if index is not None else _scipy(name)
    return _call(_declare(name if index is None else f"{name}_{index}",
                          lambda g, x, out: g * slope(x), kernel=kernel))


itairy_apt = _integral("itairy", 0, airy_ai)
itairy_bpt = _integral("itairy", 1, airy_bi)
itairy_ant = _integral("itairy", 2, lambda x: airy_ai(-x))
itairy_bnt = _integral("itairy", 3, lambda x: airy_bi(-x))
iti0k0_i = _integral("iti0k0", 0, _i0)
iti0k0_k = _integral("iti0k0", 1, k0)
itj0y0_j = _integral("itj0y0", 0, lambda x: jv(_zero(x), x))
itj0y0_y = _integral("itj0y0", 1, lambda x: yv(_zero(x), x))
it2i0k0_i = _integral("it2i0k0", 0, lambda x: _quotient(x, lambda s: _i0(s) - 1.0, 1.0))
it2i0k0_k = _integral("it2i0k0", 1, lambda x: -k0(x) / x)
it2j0y0_j = _integral("it2j0y0", 0, lambda x: _quotient(x, lambda s: 1.0 - jv(_zero(s), s), -1.0))
it2j0y0_y = _integral("it2j0y0", 1, lambda x: -yv(_zero(x), x) / x)
itstruve0 = _integral("itstruve0", None, lambda x: struve(_zero(x), x))
itmodstruve0 = _integral("itmodstruve0", None, lambda x: modstruve(_zero(x), x))


def _it2struve0_slope(x):
    """``-H0(x)/x``: ``-2/pi`` at 0 (``H0(x) ~ 2x/pi``)."""
    zero = equal(x, 0.0)
    safe = where(zero, 1.0, x)
    return where(zero, -2.0 / math.pi, -struve(_zero(safe), safe) / safe)


it2struve0 = _integral("it2struve0", None, _it2struve0_slope)


# --- Wright's generalized Bessel function, besselpoly ---------------------------------------------

def _wright_lin_x(g, a, b, x, out):
    return g * wright_bessel(a, a + b, x)


def _log_wright_lin_x(g, a, b, x, out):
    return g * exp(log_wright_bessel(a, a + b, x) - out)


def _besselpoly_lin_a(g, a, lmb, nu, out):
    return g * (besselpoly(a, lmb + 1.0, nu - 1.0) - besselpoly(a, lmb + 1.0, nu + 1.0))


wright_bessel = _call(_declare("wright_bessel",
                               _not_implemented("wright_bessel(a, b, x)", "a", "x"),
                               _not_implemented("wright_bessel(a, b, x)", "b", "x"),
                               _wright_lin_x))
log_wright_bessel = _call(_declare("log_wright_bessel",
                                   _not_implemented("log_wright_bessel(a, b, x)", "a", "x"),
                                   _not_implemented("log_wright_bessel(a, b, x)", "b", "x"),
                                   _log_wright_lin_x))
besselpoly = _call(_declare("besselpoly", _besselpoly_lin_a,
                            _not_implemented("besselpoly(a, lmb, nu)", "lmb", "a"),
                            _not_implemented("besselpoly(a, lmb, nu)", "nu", "a")))


# --- modified Fresnel integrals ----------------------------------------------------------------

_ROOT_PI = math.sqrt(math.pi)


def _modfresnel_kernel(name, sign, output):
    def kernel(x):
        import scipy.special  # (here: importing funcgrad never loads SciPy)
        # (SciPy's float32 loop returns NaN from x ~ 2.7 on: its float64 loop, cast)
        x = np.asarray(x)
        single = x.dtype == np.float32
        f, k = getattr(scipy.special, name)(x.astype(np.float64) if single else x)
        if single:
            f, k = f.astype(np.complex64), k.astype(np.complex64)
        if output == 1:
            return k
        # (SciPy's F of x < 0 has a wrong imaginary part; K is right: F from K)
        with np.errstate(invalid="ignore"):
            from_k = k * (np.exp(sign * 1j * (np.square(x) + math.pi / 4)) * _ROOT_PI)
        return np.where(np.less(x, 0), (f.real + 1j * from_k.imag).astype(f.dtype), f)
    kernel.__name__ = kernel.__qualname__ = f"{name}[{output}]"
    return kernel


def _modfresnel(name, sign):
    """``(F, K)`` of ``modfresnelp`` (``sign = +1``) or ``modfresnelm`` (``-1``)."""
    phase = complex(math.cos(math.pi / 4), -sign * math.sin(math.pi / 4)) / _ROOT_PI
    f = _call(_declare(f"{name}_f", lambda g, x, out: g * -exp(1j * sign * x * x),
                       kernel=_modfresnel_kernel(name, sign, 0)))
    own: list = []
    k = _call(_declare(f"{name}_k",
                       lambda g, x, out: g * (-phase - 2j * sign * x * own[0](x)),
                       kernel=_modfresnel_kernel(name, sign, 1)))
    own.append(k)
    return f, k


modfresnelp_f, modfresnelp_k = _modfresnel("modfresnelp", 1.0)
modfresnelm_f, modfresnelm_k = _modfresnel("modfresnelm", -1.0)

__all__ = ["pbdv_d", "pbdv_dp", "pbvv_v", "pbvv_vp", "pbwa_w", "pbwa_wp", "itairy_apt",
           "itairy_bpt", "itairy_ant", "itairy_bnt", "iti0k0_i", "iti0k0_k", "itj0y0_j",
           "itj0y0_y", "it2i0k0_i", "it2i0k0_k", "it2j0y0_j", "it2j0y0_y", "itstruve0",
           "it2struve0", "itmodstruve0", "wright_bessel", "log_wright_bessel", "besselpoly",
           "modfresnelp_f", "modfresnelp_k", "modfresnelm_f", "modfresnelm_k"]
