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
  float32 arguments take its float64 values, rounded to complex64;
- the Mathieu functions ``mathieu_cem``/``mathieu_sem(m, q, x) = (y, y')`` (``x`` in
  degrees, ``y'`` in radians, as SciPy's) and the modified ``mathieu_modcem1/2``,
  ``mathieu_modsem1/2``: in ``x`` the slope of ``y`` is ``y'`` (times ``pi/180`` for the
  degrees) and that of ``y'`` the Mathieu equation, ``y'' = -(a - 2q cos 2x) y``
  (modified: ``(a - 2q cosh 2x) y``), ``a`` the characteristic value ``mathieu_a(m, q)``
  (``mathieu_b`` for the odd ones; DLMF 28.2.1, 28.20.1).  None in ``m`` (an integer) or
  ``q`` (no closed form): ``NotImplementedError``, and so for ``mathieu_a``/``mathieu_b``.
  SciPy's float32 loops of these functions return NaN: float32 arguments take its float64
  values, rounded.
"""
import math

import numpy as np

from .elementwise import abs as _abs, cos, cosh, equal, exp, less, where
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



# --- Mathieu functions --------------------------------------------------------------------------

_DEGREE = math.pi / 180.0


def _characteristic(name):
    def none(g, *args):
        raise NotImplementedError(
            f"{name}(m, q): no derivative is implemented (m is an integer order; in q there "
            f"is no closed form); fg.stop_gradient(q) marks q as a constant")
    return _call(_declare(name, none, none))


mathieu_a, mathieu_b = _characteristic("mathieu_a"), _characteristic("mathieu_b")


def _float64_loop(name, output):
    """SciPy's ``name`` (output ``output``) through its float64 loop, rounded back to
    float32 for float32 arguments: its float32 loops return NaN everywhere (SciPy
    1.17)."""
    def kernel(*args):
        import scipy.special  # (here: importing funcgrad never loads SciPy)
        args = [np.asarray(a) for a in args]
        single = all(a.dtype == np.float32 for a in args)
        out = getattr(scipy.special, name)(*[a.astype(np.float64) if single else a
                                             for a in args])[output]
        return out.astype(np.float32) if single else out
    kernel.__name__ = kernel.__qualname__ = f"{name}[{output}]"
    return kernel


def _mathieu(name, characteristic, modified):
    """The primitives of ``name``'s two outputs ``(y, y')``."""
    own: dict = {}
    fixed_m = _not_implemented(f"{name}(m, q, x)", "m", "x")
    fixed_q = _not_implemented(f"{name}(m, q, x)", "q", "x")
    scale = 1.0 if modified else _DEGREE

    def slope(g, m, q, x, out):
        return g * (own["yp"](m, q, x) * scale)

    def curvature(g, m, q, x, out):
        a = characteristic(m, q)
        if modified:
            return g * ((a - 2.0 * q * cosh(2.0 * x)) * own["y"](m, q, x))
        return g * (-(a - 2.0 * q * cos(x * (2.0 * _DEGREE))) * own["y"](m, q, x) * _DEGREE)
    own["y"] = _call(_declare(f"{name}_y", fixed_m, fixed_q, slope,
                              kernel=_float64_loop(name, 0)))
    own["yp"] = _call(_declare(f"{name}_yp", fixed_m, fixed_q, curvature,
                               kernel=_float64_loop(name, 1)))
    return own["y"], own["yp"]


mathieu_cem_y, mathieu_cem_yp = _mathieu("mathieu_cem", mathieu_a, False)
mathieu_sem_y, mathieu_sem_yp = _mathieu("mathieu_sem", mathieu_b, False)
mathieu_modcem1_y, mathieu_modcem1_yp = _mathieu("mathieu_modcem1", mathieu_a, True)
mathieu_modcem2_y, mathieu_modcem2_yp = _mathieu("mathieu_modcem2", mathieu_a, True)
mathieu_modsem1_y, mathieu_modsem1_yp = _mathieu("mathieu_modsem1", mathieu_b, True)
mathieu_modsem2_y, mathieu_modsem2_yp = _mathieu("mathieu_modsem2", mathieu_b, True)

__all__ = ["mathieu_a", "mathieu_b"] + [f"mathieu_{f}_{o}" for f in (
    "cem", "sem", "modcem1", "modcem2", "modsem1", "modsem2") for o in ("y", "yp")] + [
    "pbdv_d", "pbdv_dp", "pbvv_v", "pbvv_vp", "pbwa_w", "pbwa_wp", "itairy_apt",
           "itairy_bpt", "itairy_ant", "itairy_bnt", "iti0k0_i", "iti0k0_k", "itj0y0_j",
           "itj0y0_y", "it2i0k0_i", "it2i0k0_k", "it2j0y0_j", "it2j0y0_y", "itstruve0",
           "it2struve0", "itmodstruve0", "wright_bessel", "log_wright_bessel", "besselpoly",
           "modfresnelp_f", "modfresnelp_k", "modfresnelm_f", "modfresnelm_k"]
