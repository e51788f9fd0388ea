"""Elementwise primitives whose values are SciPy's own ufuncs (as :mod:`.special_scipy`:
SciPy imported on the first call, no GPU kernel, ``jit`` calls SciPy), with linear rules
written with differentiable primitives, so derivatives of every order follow:

- the scaled Bessel functions ``jve = jv exp(-|Im z|)`` and ``yve`` of a real ``z``
  (where they are ``jv`` and ``yv``): ``(f(v - 1, z) - f(v + 1, z)) / 2``; of a complex
  ``z`` they are not holomorphic (no complex derivative: it raises, as ``ive``'s);
- the Hankel functions ``H1 = J + iY``, ``H2 = J - iY`` (complex, holomorphic):
  ``(H(v - 1, z) - H(v + 1, z)) / 2``; the scaled ``hankel1e = H1 exp(-iz)`` and
  ``hankel2e = H2 exp(iz)`` add ``-i hankel1e`` and ``+i hankel2e``;
- ``powm1(x, y) = x**y - 1``: ``y x**(y - 1)`` and ``x**y log(x)`` (0 at ``x = 0``);
- the trigonometric functions of degrees ``sindg``, ``cosdg``, ``tandg``, ``cotdg``
  (exact at multiples of 45 degrees): ``pi/180`` times ``cosdg``, ``-sindg``,
  ``1 + tandg**2``, ``-(1 + cotdg**2)``;
- the hyperbolic sine and cosine integrals ``shichi``: ``sinh(x)/x`` (1 at 0),
  ``cosh(x)/x`` (one primitive per output);
- Tricomi's ``hyperu(a, b, x)`` in ``x``: ``-a U(a + 1, b + 1, x)`` (DLMF 13.3.22);
- the Jacobi elliptic functions ``ellipj(u, m)`` (one primitive per output: ``sn``,
  ``cn``, ``dn``, ``ph`` = am) in ``u``: ``cn dn``, ``-sn dn``, ``-m sn cn``, ``dn``;
- the Wright omega function: ``w / (1 + w)`` (holomorphic);
- the Tukey-lambda CDF ``tklmbda(x, l)``, the inverse in ``F`` of the quantile
  ``Q(F) = (F**l - (1 - F)**l) / l``: ``1 / Q'(F)``, ``Q'(F) = F**(l-1) + (1-F)**(l-1)``,
  in ``x``, and ``-(dQ/dl) / Q'(F)`` in ``l``, with ``dQ/dl`` the Box-Cox derivative
  of each power (0 outside the support, where ``F`` is 0 or 1).

The orders ``v`` and the Jacobi parameter ``m``, and ``hyperu``'s ``a`` and ``b``, have no
derivative here: asking for one raises ``NotImplementedError`` naming the argument
(``funcgrad.scipy.special.ellipj`` gives the one in ``m``, with Carlson's ``R_D``, which this
layer does not have).
"""
import math

from .elementwise import (cosh, equal, less, log, logical_and, maximum, power, sinh, sqrt,
                          square, where)
from .special_scipy import _boxcox_dl, _call, _declare, _not_implemented, _scipy

_DEGREE = math.pi / 180.0


def _is_complex(z):
    dtype = getattr(z, "dtype", None)
    return isinstance(z, complex) if dtype is None else dtype.kind == "c"


def _scaled_real_lin(name, own):
    def lin(g, v, z, out):
        if _is_complex(z):
            raise NotImplementedError(
                f"{name}(v, z) = {name[:-1]}(v, z) exp(-|Im z|) is not holomorphic in a "
                f"complex z, so it has no complex derivative: differentiate "
                f"{name[:-1]}(v, z) * exp(-abs(imag(z))) written out, or pass a real z")
        f = own[0]
        return g * ((f(v - 1.0, z) - f(v + 1.0, z)) * 0.5)
    return lin


def _hankel_lin(own, shift):
    """``(H(v - 1, z) - H(v + 1, z)) / 2 + shift H(v, z)`` (``shift``: the scaling
    factor's logarithmic derivative, ``-i``, ``+i`` or 0)."""
    def lin(g, v, z, out):
        f = own[0]
        slope = (f(v - 1.0, z) - f(v + 1.0, z)) * 0.5
        return g * (slope + out * shift if shift else slope)
    return lin


def _bessel_family(name, shift=None):
    own = []
    lin = _scaled_real_lin(name, own) if shift is None else _hankel_lin(own, shift)
    prim = _declare(name, _not_implemented(f"{name}(v, z)", "v", "z"), lin)
    f = _call(prim)
    own.append(f)
    return prim, f


(jve_p, jve), (yve_p, yve) = _bessel_family("jve"), _bessel_family("yve")
(hankel1_p, hankel1), (hankel2_p, hankel2) = (_bessel_family("hankel1", 0),
                                              _bessel_family("hankel2", 0))
(hankel1e_p, hankel1e), (hankel2e_p, hankel2e) = (_bessel_family("hankel1e", -1j),
                                                  _bessel_family("hankel2e", 1j))


def _powm1_lin_x(g, x, y, out):
    return g * (y * power(x, y - 1.0))


def _powm1_lin_y(g, x, y, out):
    # (x = 0: x**y is 0 for y > 0, flat in y; log(0) times it was 0 * -inf)
    zero = equal(x, 0.0)
    return g * where(zero, 0.0, (out + 1.0) * log(where(zero, 1.0, x)))


powm1_p = _declare("powm1", _powm1_lin_x, _powm1_lin_y)
powm1 = _call(powm1_p)

_trig: dict = {}


def _degrees(name, slope):
    prim = _declare(name, lambda g, x, out: g * (slope(x, out) * _DEGREE))
    _trig[name] = _call(prim)
    return prim


sindg_p = _degrees("sindg", lambda x, out: _trig["cosdg"](x))
cosdg_p = _degrees("cosdg", lambda x, out: -_trig["sindg"](x))
tandg_p = _degrees("tandg", lambda x, out: square(out) + 1.0)
cotdg_p = _degrees("cotdg", lambda x, out: -(square(out) + 1.0))
sindg, cosdg, tandg, cotdg = (_trig[n] for n in ("sindg", "cosdg", "tandg", "cotdg"))


def _shi_lin(g, x, out):
    zero = equal(x, 0.0)
    safe = where(zero, 1.0, x)
    return g * where(zero, 1.0, sinh(safe) / safe)


shichi_shi_p = _declare("shichi_shi", _shi_lin, kernel=_scipy("shichi", 0))
shichi_chi_p = _declare("shichi_chi", lambda g, x, out: g * (cosh(x) / x),
                        kernel=_scipy("shichi", 1))
shichi_shi, shichi_chi = _call(shichi_shi_p), _call(shichi_chi_p)

_hyperu: list = []
hyperu_p = _declare("hyperu", _not_implemented("hyperu(a, b, x)", "a", "x"),
                    _not_implemented("hyperu(a, b, x)", "b", "x"),
                    lambda g, a, b, x, out: g * -(_hyperu[0](a + 1.0, b + 1.0, x) * a))
hyperu = _call(hyperu_p)
_hyperu.append(hyperu)

_jacobi: dict = {}


def _ellipj(part, index, slope):
    name = f"ellipj_{part}"
    prim = _declare(name, lambda g, u, m, out: g * slope(u, m),
                    _not_implemented(f"ellipj(u, m) ({part})", "m", "u"),
                    kernel=_scipy("ellipj", index))
    _jacobi[part] = _call(prim)
    return prim


ellipj_sn_p = _ellipj("sn", 0, lambda u, m: _jacobi["cn"](u, m) * _jacobi["dn"](u, m))
ellipj_cn_p = _ellipj("cn", 1, lambda u, m: -(_jacobi["sn"](u, m) * _jacobi["dn"](u, m)))
ellipj_dn_p = _ellipj("dn", 2, lambda u, m: -(_jacobi["sn"](u, m) * _jacobi["cn"](u, m) * m))
ellipj_ph_p = _ellipj("ph", 3, lambda u, m: _jacobi["dn"](u, m))
ellipj_sn, ellipj_cn, ellipj_dn, ellipj_ph = (_jacobi[p] for p in ("sn", "cn", "dn", "ph"))

wrightomega_p = _declare("wrightomega", lambda g, z, w: g * (w / (w + 1.0)))
wrightomega = _call(wrightomega_p)


def _tklmbda_parts(x, l, F):
    """``(inside, F there, 1 / Q'(F))``: the CDF's slope in ``x``, 0 where ``F`` is 0
    or 1 (outside the support for ``l > 0``, or underflowed)."""
    inside = logical_and(less(0.0, F), less(F, 1.0))
    f = where(inside, F, 0.5)
    return inside, f, where(inside, 1.0 / (power(f, l - 1.0) + power(1.0 - f, l - 1.0)), 0.0)


def _tklmbda_lin_x(g, x, l, F):
    return g * _tklmbda_parts(x, l, F)[2]


def _tklmbda_lin_l(g, x, l, F):
    inside, f, density = _tklmbda_parts(x, l, F)
    dq_dl = _boxcox_dl(log(f), l, None) - _boxcox_dl(log(1.0 - f), l, None)
    return g * where(inside, -(dq_dl * density), 0.0)


tklmbda_p = _declare("tklmbda", _tklmbda_lin_x, _tklmbda_lin_l)
tklmbda = _call(tklmbda_p)

# --- Airy functions: Ai, Ai', Bi, Bi' (Ai'' = x Ai), and their scaled forms ----------------
# airye: Ai and Ai' times exp(zeta), Bi and Bi' times exp(-|zeta|), zeta = 2/3 x**1.5 (real
# for x >= 0; for x < 0 SciPy's scaled Ai is NaN and its scaled Bi is Bi): the scale's
# slope is +-sqrt(x) times the function, 0 for x < 0.
def _airy(name, index, lin, scaled=False):
    return _declare(name, lin, kernel=_scipy("airye" if scaled else "airy", index))


def _root(x):
    return sqrt(maximum(x, 0.0))


airy_ai_p = _airy("airy_ai", 0, lambda g, x, out: g * airy_aip(x))
airy_aip_p = _airy("airy_aip", 1, lambda g, x, out: g * (x * airy_ai(x)))
airy_bi_p = _airy("airy_bi", 2, lambda g, x, out: g * airy_bip(x))
airy_bip_p = _airy("airy_bip", 3, lambda g, x, out: g * (x * airy_bi(x)))
airy_ai, airy_aip, airy_bi, airy_bip = (_call(p) for p in (airy_ai_p, airy_aip_p, airy_bi_p,
                                                            airy_bip_p))
airye_ai_p = _airy("airye_ai", 0, lambda g, x, out: g * (airye_aip(x) + _root(x) * out), True)
airye_aip_p = _airy("airye_aip", 1, lambda g, x, out: g * (x * airye_ai(x) + _root(x) * out),
                    True)
airye_bi_p = _airy("airye_bi", 2, lambda g, x, out: g * (airye_bip(x) - _root(x) * out), True)
airye_bip_p = _airy("airye_bip", 3, lambda g, x, out: g * (x * airye_bi(x) - _root(x) * out),
                    True)
airye_ai, airye_aip, airye_bi, airye_bip = (_call(p) for p in (
    airye_ai_p, airye_aip_p, airye_bi_p, airye_bip_p))

__all__ = ["jve", "yve", "hankel1", "hankel1e", "hankel2", "hankel2e", "powm1", "sindg",
           "cosdg", "tandg", "cotdg", "shichi_shi", "shichi_chi", "hyperu", "ellipj_sn",
           "ellipj_cn", "ellipj_dn", "ellipj_ph", "wrightomega", "tklmbda", "airy_ai",
           "airy_aip", "airy_bi", "airy_bip", "airye_ai", "airye_aip", "airye_bi", "airye_bip"]

