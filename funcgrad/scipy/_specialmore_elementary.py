"""Small elementary functions of ``funcgrad.scipy.special`` (re-exported there): SciPy's
values where SciPy's kernel is what users rely on (``powm1``, the trigonometric functions
in degrees, exact at multiples of 45; ``shichi``, ``hyperu``, ``ellipj``, ``wrightomega``,
``tklmbda``: :mod:`funcgrad.primitives.special_scipy_extra`), and funcgrad.numpy
compositions where the maths is short (``round``, ``radian``, ``zetac``, ``diric``,
``voigt_profile``), whose derivatives come from their parts."""
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..core import Tracer as _Tracer
from ..custom._decorators import _casting_custom_jvp as _custom_jvp  # (own rules: cast)
from ..numpy._convert import concrete_values, is_concrete, operand as _operand
from ..primitives import special as _sp
from ..primitives import special_scipy_extra as _sx
from ..typing import Array, ArrayLike
from ._special_carlson import elliprd
from ._special_more import _front, wofz
from ._special_out import with_out as _with_out
from ._special_real import reject_complex as _reject_complex
from ._special_zeta import riemann_zeta_below_one

_FRONTS_NEED = (_operand, _reject_complex, Array, ArrayLike)  # (the compiled fronts' names)
_REAL = "pass a real array, as to SciPy's function"

# (SciPy's ufuncs: funcgrad.scipy.special gives them out=; round has its own, diric is a
# Python function)
UFUNCS = ["powm1", "sindg", "cosdg", "tandg", "cotdg", "radian", "zetac",
          "voigt_profile", "shichi", "hyperu", "ellipj", "wrightomega", "tklmbda"]
__all__ = UFUNCS + ["round", "diric"]

powm1 = _front(_sx.powm1, "x, y", """``x**y - 1``, accurate where ``x**y`` is near 1
    (SciPy's values); derivatives ``y x**(y - 1)`` in ``x`` and ``x**y log(x)`` in ``y``.

    >>> import funcgrad as fg
    >>> float(powm1(1.0 + 1e-10, 2.0)) > 0, float(fg.grad(powm1, 1)(1.0, 3.0))
    (True, 0.0)
    """, home=globals(), module="_sx", real=_REAL)
sindg = _front(_sx.sindg, "x", """The sine of ``x`` in degrees (SciPy's: exact at
    multiples of 90); derivative ``pi/180 cosdg(x)``.

    >>> import funcgrad as fg
    >>> float(sindg(180.0)) == 0.0, float(fg.grad(sindg)(0.0)) == 3.141592653589793 / 180
    (True, True)
    """, home=globals(), module="_sx", real=_REAL)
cosdg = _front(_sx.cosdg, "x", """The cosine of ``x`` in degrees (exact at multiples of
    90); derivative ``-pi/180 sindg(x)``.

    >>> float(cosdg(90.0)) == 0.0, float(cosdg(180.0))
    (True, -1.0)
    """, home=globals(), module="_sx", real=_REAL)
tandg = _front(_sx.tandg, "x", """The tangent of ``x`` in degrees (exact at multiples of
    45); derivative ``pi/180 (1 + tandg(x)**2)``.

    >>> import funcgrad as fg
    >>> float(tandg(45.0)), float(fg.grad(tandg)(45.0)) == 2 * 3.141592653589793 / 180
    (1.0, True)
    """, home=globals(), module="_sx", real=_REAL)
cotdg = _front(_sx.cotdg, "x", """The cotangent of ``x`` in degrees (exact at multiples of
    45); derivative ``-pi/180 (1 + cotdg(x)**2)``.

    >>> float(cotdg(45.0)), float(cotdg(90.0))
    (1.0, 0.0)
    """, home=globals(), module="_sx", real=_REAL)
hyperu = _front(_sx.hyperu, "a, b, x", """Tricomi's confluent hypergeometric function
    ``U(a, b, x)`` (SciPy's values); derivative in ``x``: ``-a U(a + 1, b + 1, x)``.  In
    ``a`` and ``b`` it raises ``NotImplementedError`` (no closed form).

    >>> import funcgrad as fg
    >>> float(hyperu(1.0, 1.0, 0.0)) == float("inf"), float(fg.grad(hyperu, 2)(1.0, 1.0, 1.0)) < 0
    (True, True)
    """, home=globals(), module="_sx", real=_REAL)
wrightomega = _front(_sx.wrightomega, "z", """The Wright omega function, the solution
    ``w`` of ``w + log(w) = z`` (real or complex, SciPy's values); holomorphic, derivative
    ``w / (1 + w)``.

    >>> import funcgrad as fg
    >>> float(wrightomega(1.0)), float(fg.grad(wrightomega)(1.0))
    (1.0, 0.5)
    """, home=globals(), module="_sx")
tklmbda = _front(_sx.tklmbda, "x, lmbda", """The Tukey-lambda distribution's CDF at ``x``
    with shape ``lmbda`` (SciPy's values), differentiable in both: in ``x`` the density
    ``1 / (F**(lmbda-1) + (1-F)**(lmbda-1))``, in ``lmbda`` ``-(dQ/dlmbda) / Q'(F)`` of
    the quantile ``Q(F) = (F**lmbda - (1-F)**lmbda) / lmbda`` (0 outside the support).

    >>> import funcgrad as fg
    >>> float(tklmbda(0.0, 0.5)), float(fg.grad(tklmbda)(0.0, 0.0))  # logistic at 0
    (0.5, 0.25)
    """, home=globals(), module="_sx", real=_REAL)


def shichi(x: ArrayLike) -> tuple[Array, Array]:
    """The hyperbolic sine and cosine integrals ``(Shi(x), Chi(x))`` (SciPy's values);
    derivatives ``sinh(x)/x`` (1 at 0) and ``cosh(x)/x``.

    >>> import funcgrad as fg
    >>> float(shichi(0.0)[0]), float(fg.grad(lambda x: shichi(x)[0])(0.0))
    (0.0, 1.0)
    """
    x = _operand(x)
    return _sx.shichi_shi(x), _sx.shichi_chi(x)


@_custom_jvp
def _ellipj(u: Any, m: Any) -> tuple:
    return (_sx.ellipj_sn(u, m), _sx.ellipj_cn(u, m), _sx.ellipj_dn(u, m),
            _sx.ellipj_ph(u, m))


# am(u|m) = u - m u**3/3! + m(4 + m) u**5/5! - m(16 + 44m + m**2) u**7/7! + ...: its
# derivative in m, below |u| = _SMALL_U (where the closed form's sn cn - dn (u - D) cancels
# as ~eps/u**2; the series' first omitted term is below 1e-13 of the sum there)
_SMALL_U = 1e-2


def _incomplete_d(phi: Any, m: Any) -> Any:
    """``D(phi|m) = integral of sin(t)**2 / sqrt(1 - m sin(t)**2) from 0 to phi``
    (DLMF 19.2.6): ``sin(psi)**3 R_D(cos(psi)**2, 1 - m sin(psi)**2, 1) / 3`` on
    ``|psi| <= pi/2`` and ``2j`` times the complete ``R_D(0, 1 - m, 1) / 3`` per period
    ``pi`` (``phi = psi + j pi``)."""
    j = fnp.rint(phi / math.pi)
    psi = phi - j * math.pi
    s = fnp.sin(psi)
    part = s * s * s * elliprd(fnp.square(fnp.cos(psi)), 1.0 - m * fnp.square(s), 1.0) / 3.0
    periods = fnp.not_equal(j, 0.0)
    complete = elliprd(0.0, fnp.where(periods, 1.0 - m, 1.0), 1.0) / 3.0
    return part + fnp.where(periods, complete * (j * 2.0), 0.0)


@_custom_jvp
def _second_order_unknown(m: Any) -> Any:
    """0, whose derivative is NaN at ``m >= 1`` (0 below): added to the first-order limit
    of ``d am/dm`` at ``m = 1``, whose own derivative in ``m`` (the next term of the
    expansion about ``m = 1``) is not implemented, so that a second derivative in ``m``
    there is NaN rather than the limit's 0 (a rule linear in the tangent, so that
    reverse mode transposes it)."""
    return fnp.zeros_like(m)


@_second_order_unknown.defjvp
def _second_order_unknown_jvp(primals: tuple, tangents: tuple) -> tuple:
    (m,), (dm,) = primals, tangents
    return fnp.zeros_like(m), dm * fnp.where(fnp.greater_equal(m, 1.0), math.nan, 0.0)


@_ellipj.defjvp
def _ellipj_jvp(primals: tuple, tangents: tuple) -> tuple:
    """In ``u``: ``cn dn``, ``-sn dn``, ``-m sn cn``, ``dn``.  In ``m`` (DLMF 22.16.1
    and 19.4.1 at fixed ``u = F(am|m)``): ``d am/dm = (sn cn - dn (u - D(am|m))) /
    (2 (1 - m))``, then ``cn``, ``-sn`` times it and ``-(sn**2 + 2m sn cn d am/dm) /
    (2 dn)``."""
    u, m = primals
    du, dm = tangents
    sn, cn, dn, ph = _ellipj(u, m)
    small = fnp.less(fnp.abs(u), _SMALL_U)
    u2 = fnp.square(u)
    series = u * u2 * (-1.0 / 6.0 + u2 * ((4.0 + 2.0 * m) / 120.0
                                          - u2 * (16.0 + 88.0 * m + 3.0 * m * m) / 5040.0))
    # at m = 1 (am = gd(u)) the closed form is 0/0: its limit -(sinh u - u sech u)/4
    # (DLMF 22.10.ii), finite, so that a zero tangent of m gives no 0 * inf there
    one = fnp.greater_equal(m, 1.0)
    limit = -(fnp.sinh(u) - u / fnp.cosh(u)) / 4.0 + _second_order_unknown(m)
    # (the double where: no cancelling closed form, nor its derivatives, where unused)
    uc = fnp.where(small, 1.0, u)
    mc = fnp.where(one, 0.5, m)
    snc, cnc, dnc, phc = _ellipj(uc, mc)
    closed = (snc * cnc - dnc * (uc - _incomplete_d(phc, mc))) / ((1.0 - mc) * 2.0)
    dph_dm = fnp.where(small, series, fnp.where(one, limit, closed))
    return (sn, cn, dn, ph), (
        cn * (dn * du + dph_dm * dm), -(sn * (dn * du + dph_dm * dm)),
        -(m * sn * cn * du) - (sn * sn + m * 2.0 * sn * cn * dph_dm) / (dn * 2.0) * dm,
        dn * du + dph_dm * dm)


def ellipj(u: ArrayLike, m: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """The Jacobi elliptic functions ``(sn, cn, dn, ph)`` of ``u`` with parameter ``m``
    (``ph`` the amplitude; SciPy's values and order).  Derivatives in ``u``: ``cn dn``,
    ``-sn dn``, ``-m sn cn``, ``dn``; in ``m``: through the amplitude's ``(sn cn - dn (u
    - D(ph|m))) / (2(1 - m))`` with Carlson's ``R_D`` (``D``: DLMF 19.2.6), of every order
    for ``0 <= m < 1``.  That form cancels as ``m -> 1`` (about ``1e-16 / (1 - m)``
    relative); at ``m = 1`` the first derivative is its limit ``-(sinh u - u sech u)/4``,
    and higher ones in ``m`` there are not known: NaN (the next term of the expansion
    about ``m = 1`` is not implemented).

    >>> import math, funcgrad as fg
    >>> sn, cn, dn, ph = ellipj(0.3, 0.0)  # m = 0: sin, cos, 1, u
    >>> abs(float(sn) - math.sin(0.3)) < 1e-15, float(dn), float(ph)
    (True, 1.0, 0.3)
    >>> float(fg.grad(lambda u: ellipj(u, 0.5)[0])(0.0))
    1.0
    >>> d = fg.grad(lambda m: ellipj(1.0, m)[3])(0.0)  # -(u - sin(u) cos(u)) / 4 at m = 0
    >>> abs(float(d) + (1.0 - math.sin(1.0) * math.cos(1.0)) / 4) < 1e-15
    True
    """
    u, m = _operand(u), _operand(m)
    _reject_complex("ellipj", _REAL, u, m)
    return _ellipj(u, m)


# (one primitive per output)
shichi.primitives = (_sx.shichi_shi.primitive,  # type: ignore[attr-defined]
                     _sx.shichi_chi.primitive)
ellipj.primitives = tuple(getattr(_sx, "ellipj_" + p).primitive  # type: ignore[attr-defined]
                          for p in ("sn", "cn", "dn", "ph"))


def round(x: ArrayLike) -> Array:  # noqa: A001 (SciPy's name)
    """``x`` rounded to the nearest integer, halves to the even one (SciPy's ``round``,
    NumPy's ``rint``); piecewise constant: derivative 0.

    >>> float(round(2.5)), float(round(-0.7))
    (2.0, -1.0)
    """
    return fnp.rint(x)


round = _with_out(round)  # noqa: A001 (a ufunc in SciPy: out= as the others')


_ARC_SECOND = math.pi / 648000.0


def radian(d: ArrayLike, m: ArrayLike, s: ArrayLike) -> Array:
    """The angle of ``d`` degrees, ``m`` arc minutes and ``s`` arc seconds in radians
    (linear in each).

    >>> abs(float(radian(90.0, 0.0, 0.0)) - math.pi / 2) < 1e-15
    True
    """
    d, m, s = _operand(d), _operand(m), _operand(s)
    return ((d * 60.0 + m) * 60.0 + s) * _ARC_SECOND


def zetac(x: ArrayLike) -> Array:
    """Riemann's zeta function minus 1, accurate where ``zeta(x)`` is near 1 (large ``x``):
    the Hurwitz ``zeta(x, 2)`` for ``x >= 1`` (``2**-x`` beyond 100), SciPy's continuation
    below; differentiable in ``x`` as ``zeta`` is.

    >>> float(zetac(200.0)) == 2.0 ** -200, float(zetac(0.0))
    (True, -1.5)
    """
    x = _operand(x)
    # (beyond x = 100, 2**-x is the sum to rounding: zeta's float32 kernel is NaN once
    # q**-x leaves float32's range, from x ~ 150)
    far = fnp.less(100.0, x)
    # (the double where, below 1 too: there the Hurwitz sum and its derivative are NaN)
    inside = fnp.logical_or(far, fnp.less(x, 1.0))
    value = fnp.where(far, fnp.exp2(-x), _sp.zeta(fnp.where(inside, 2.0, x), 2.0))
    if not (is_concrete(x) and not np.any(np.less(concrete_values(x, "", ""), 1.0))):
        below = fnp.less(x, 1.0)
        value = fnp.where(below, riemann_zeta_below_one(fnp.where(below, x, 0.0)) - 1.0,
                          value)
    return value


def diric(x: ArrayLike, n: int) -> Array:
    """The periodic sinc (Dirichlet) function ``sin(n x/2) / (n sin(x/2))`` of a positive
    integer ``n`` (NaN elsewhere, as SciPy's); at ``x = 2 pi k`` its limit
    ``(-1)**(k(n-1))``, and near there its Taylor series, so that the derivative in ``x``
    is right everywhere.

    >>> import funcgrad as fg
    >>> float(diric(0.0, 3)), float(fg.grad(diric)(0.0, 3)), float(diric(2 * math.pi, 2))
    (1.0, 0.0, -1.0)
    """
    if isinstance(n, _Tracer):
        raise TypeError("diric(x, n): n is a positive integer and has no derivative (nor a "
                        "traced value under vmap or jit); pass a plain int or array")
    n_values = np.asarray(n)
    if n_values.dtype.kind not in "iuf":
        raise TypeError(f"diric(x, n): n must be a positive integer, got {n!r}")
    if n_values.ndim == 0 and (n_values <= 0 or n_values != np.floor(n_values)):
        raise ValueError(f"diric(x, n): n must be a positive integer, got {n!r}")
    x = fnp.asarray(_operand(x))
    if x.dtype.kind not in "fc":
        x = fnp.astype(x, np.float64)
    x = x + np.zeros(n_values.shape, x.dtype)  # (n's shape too, as SciPy's)
    _reject_complex("diric", _REAL, x)
    bad = (n_values <= 0) | (n_values != np.floor(n_values))
    nf = np.where(bad, 1.0, n_values).astype(x.dtype)
    # (SciPy's threshold on |sin(x/2)| below which it takes the limit; there the Taylor
    # series 1 - (n**2 - 1) t**2 / 24 in t = x - 2 pi k is exact to rounding)
    small = 1e-7 if np.finfo(x.dtype).eps < 1e-15 else 1e-3
    half = x * 0.5
    denominator = fnp.sin(half)
    near = fnp.less(fnp.abs(denominator), small)
    k = fnp.rint(half / math.pi)
    parity = fnp.mod(k * (nf - 1.0), 2.0)
    t = x - k * (2.0 * math.pi)
    limit = (1.0 - parity * 2.0) * (1.0 - (nf * nf - 1.0) * fnp.square(t) / 24.0)
    safe = fnp.where(near, 1.0, denominator)
    value = fnp.where(near, limit, fnp.sin(half * nf) / (safe * nf))
    return fnp.where(bad, np.nan, value) if bad.any() else value


_SQRT2 = math.sqrt(2.0)
_SQRT_2PI = math.sqrt(2.0 * math.pi)


def voigt_profile(x: ArrayLike, sigma: ArrayLike, gamma: ArrayLike) -> Array:
    """The Voigt profile, the convolution of a normal density of deviation ``sigma`` and a
    Cauchy one of half-width ``gamma``: ``Re w(z) / (sigma sqrt(2 pi))`` with
    ``z = (x + i gamma) / (sigma sqrt 2)`` and ``w`` the Faddeeva function (``wofz``), the
    Cauchy density where ``sigma = 0``; differentiable in all three (through ``wofz``'s
    derivative).

    >>> import funcgrad as fg
    >>> abs(float(voigt_profile(0.0, 1.0, 0.0)) * math.sqrt(2 * math.pi) - 1.0) < 1e-15
    True
    >>> d = float(fg.grad(voigt_profile)(1.0, 1.0, 0.0))  # the normal density's slope
    >>> abs(d * math.sqrt(2 * math.pi * math.e) + 1.0) < 1e-15
    True
    """
    x, sigma, gamma = _operand(x), _operand(sigma), _operand(gamma)
    _reject_complex("voigt_profile", _REAL, x, sigma, gamma)
    cauchy = fnp.equal(sigma, 0.0)
    s = fnp.where(cauchy, 1.0, sigma)
    z = (x + gamma * 1j) / (s * _SQRT2)
    normal_side = fnp.real(wofz(z)) / (s * _SQRT_2PI)
    # (sigma = gamma = 0: the point mass, inf at x = 0 as SciPy's; safe stand-ins there)
    point = cauchy & fnp.equal(gamma, 0.0)
    g = fnp.where(cauchy & ~point, gamma, 1.0)
    cauchy_side = g / ((fnp.square(x) + fnp.square(g)) * math.pi)
    value = fnp.where(cauchy, fnp.where(point, fnp.where(fnp.equal(x, 0.0), np.inf, 0.0),
                                        cauchy_side), normal_side)
    dtype = np.result_type(*(getattr(v, "dtype", np.float64) for v in (x, sigma, gamma)))
    return fnp.astype(value, dtype) if value.dtype != dtype else value

