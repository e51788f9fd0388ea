"""Integrals and series of :mod:`funcgrad.scipy.special` whose values are SciPy's
(:mod:`funcgrad.primitives.special_scipy_rest`; real arguments, as SciPy's): the
integrals ``itairy``, ``iti0k0``, ``itj0y0``, ``it2i0k0``, ``it2j0y0``, ``itstruve0``,
``it2struve0``, ``itmodstruve0`` (derivative in ``x``: the integrand), the modified
Fresnel integrals ``modfresnelp``, ``modfresnelm``, Wright's ``wright_bessel`` and
``log_wright_bessel`` and ``besselpoly``; and ``assoc_laguerre``, SciPy's other name for
``eval_genlaguerre``.  Each ufunc takes SciPy's keyword ``out=``."""
from typing import Any

from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_rest as _rest
from ..typing import Array, ArrayLike
from ._special_out import with_out as _with_out
from ._special_polys import eval_genlaguerre
from ._special_real import reject_complex as _reject_complex

__all__ = ["itairy", "iti0k0", "itj0y0", "it2i0k0", "it2j0y0", "itstruve0", "it2struve0",
           "itmodstruve0", "modfresnelp", "modfresnelm", "wright_bessel",
           "log_wright_bessel", "besselpoly", "assoc_laguerre"]

_REAL = "pass real arrays, as to SciPy's function"


def _real(name: str, *args: ArrayLike) -> list:
    values = [_operand(a) for a in args]
    _reject_complex(name, _REAL, *values)
    return values


@_with_out
def itairy(x: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """``(Apt, Bpt, Ant, Bnt)``: the integrals from 0 to ``x`` of ``Ai(t)``, ``Bi(t)``,
    ``Ai(-t)`` and ``Bi(-t)``, as ``scipy.special.itairy`` (SciPy's values, good to about
    1e-8); derivatives ``Ai(x)``, ``Bi(x)``, ``Ai(-x)``, ``Bi(-x)``.

    >>> import funcgrad as fg
    >>> round(float(fg.grad(lambda x: itairy(x)[0])(0.0)), 12)  # Ai(0)
    0.355028053888
    """
    x, = _real("itairy", x)
    return _rest.itairy_apt(x), _rest.itairy_bpt(x), _rest.itairy_ant(x), _rest.itairy_bnt(x)


@_with_out
def iti0k0(x: ArrayLike) -> tuple[Array, Array]:
    """``(integral of I0, integral of K0)`` from 0 to ``x``, as ``scipy.special.iti0k0``;
    derivatives ``i0(x)`` and ``k0(x)``.

    >>> import funcgrad as fg
    >>> float(fg.grad(lambda x: iti0k0(x)[0])(0.0))
    1.0
    """
    x, = _real("iti0k0", x)
    return _rest.iti0k0_i(x), _rest.iti0k0_k(x)


@_with_out
def itj0y0(x: ArrayLike) -> tuple[Array, Array]:
    """``(integral of J0, integral of Y0)`` from 0 to ``x``, as ``scipy.special.itj0y0``;
    derivatives ``j0(x)`` and ``y0(x)``.

    >>> import funcgrad as fg
    >>> float(fg.grad(lambda x: itj0y0(x)[0])(0.0))
    1.0
    """
    x, = _real("itj0y0", x)
    return _rest.itj0y0_j(x), _rest.itj0y0_y(x)


@_with_out
def it2i0k0(x: ArrayLike) -> tuple[Array, Array]:
    """``(integral of (I0(t) - 1)/t from 0 to x, integral of K0(t)/t from x to inf)``, as
    ``scipy.special.it2i0k0``; derivatives ``(i0(x) - 1)/x`` and ``-k0(x)/x``.

    >>> import funcgrad as fg
    >>> float(fg.grad(lambda x: it2i0k0(x)[0])(0.0))
    0.0
    """
    x, = _real("it2i0k0", x)
    return _rest.it2i0k0_i(x), _rest.it2i0k0_k(x)


@_with_out
def it2j0y0(x: ArrayLike) -> tuple[Array, Array]:
    """``(integral of (1 - J0(t))/t from 0 to x, integral of Y0(t)/t from x to inf)``, as
    ``scipy.special.it2j0y0``; derivatives ``(1 - j0(x))/x`` and ``-y0(x)/x``.

    >>> import funcgrad as fg
    >>> round(float(fg.grad(lambda x: it2j0y0(x)[0])(1.0)), 12)  # 1 - J0(1)
    0.234802313442
    """
    x, = _real("it2j0y0", x)
    return _rest.it2j0y0_j(x), _rest.it2j0y0_y(x)


def _single(name: str, prim: Any, doc: str) -> Any:
    def f(x: ArrayLike) -> Array:
        x, = _real(name, x)
        return prim(x)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    f.primitive = prim.primitive  # type: ignore[attr-defined]
    return _with_out(f)


itstruve0 = _single("itstruve0", _rest.itstruve0, """The integral of the Struve function
    ``H0`` from 0 to ``x``, as ``scipy.special.itstruve0``; derivative ``struve(0, x)``.

    >>> float(itstruve0(0.0))
    0.0
    """)
it2struve0 = _single("it2struve0", _rest.it2struve0, """The integral of ``H0(t)/t`` from
    ``x`` to infinity, as ``scipy.special.it2struve0``; derivative ``-struve(0, x)/x``
    (``-2/pi`` at 0).

    >>> import funcgrad as fg
    >>> round(float(it2struve0(0.0)), 12), round(float(fg.grad(it2struve0)(0.0)), 12)
    (1.570796326795, -0.636619772368)
    """)
itmodstruve0 = _single("itmodstruve0", _rest.itmodstruve0, """The integral of the
    modified Struve function ``L0`` from 0 to ``x``, as ``scipy.special.itmodstruve0``;
    derivative ``modstruve(0, x)``.

    >>> float(itmodstruve0(0.0))
    0.0
    """)


@_with_out
def modfresnelp(x: ArrayLike) -> tuple[Array, Array]:
    """``(F+, K+)``: the modified Fresnel integral ``F+(x) = integral of exp(i t**2) from x
    to inf`` and ``K+(x) = F+(x) exp(-i (x**2 + pi/4)) / sqrt(pi)``, complex, as
    ``scipy.special.modfresnelp`` (SciPy's values, except the imaginary part of ``F+``
    for ``x < 0``, wrong in SciPy, which comes from ``K+`` here); differentiable in a real
    ``x``: ``-exp(i x**2)`` and ``-exp(-i pi/4)/sqrt(pi) - 2i x K+``.

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> round(float(fg.grad(lambda x: fnp.real(modfresnelp(x)[0]))(0.0)), 12)  # -cos(0)
    -1.0
    """
    x, = _real("modfresnelp", x)
    return _rest.modfresnelp_f(x), _rest.modfresnelp_k(x)


@_with_out
def modfresnelm(x: ArrayLike) -> tuple[Array, Array]:
    """``(F-, K-)``: ``F-(x) = integral of exp(-i t**2) from x to inf`` and
    ``K-(x) = F-(x) exp(i (x**2 + pi/4)) / sqrt(pi)``, complex, as
    ``scipy.special.modfresnelm`` (SciPy's values, except the imaginary part of ``F-``
    for ``x < 0``, as :func:`modfresnelp`); derivatives ``-exp(-i x**2)`` and
    ``-exp(i pi/4)/sqrt(pi) + 2i x K-``.

    >>> f, k = modfresnelm(0.0)
    >>> round(complex(k).real, 12)
    0.5
    """
    x, = _real("modfresnelm", x)
    return _rest.modfresnelm_f(x), _rest.modfresnelm_k(x)


@_with_out
def wright_bessel(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """Wright's generalized Bessel function ``sum over k of x**k / (k! Gamma(a k + b))``
    (``a, b, x >= 0``), as ``scipy.special.wright_bessel``; derivative in ``x``:
    ``wright_bessel(a, a + b, x)``.  In ``a`` and ``b`` it raises ``NotImplementedError``.

    >>> import math, funcgrad as fg
    >>> round(float(wright_bessel(0.0, 1.0, 1.0)), 12) == round(math.e, 12)  # exp(x)
    True
    >>> round(float(fg.grad(wright_bessel, 2)(0.0, 1.0, 1.0)), 12) == round(math.e, 12)
    True
    """
    return _rest.wright_bessel(*_real("wright_bessel", a, b, x))


@_with_out
def log_wright_bessel(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The logarithm of :func:`wright_bessel`, without its overflow, as
    ``scipy.special.log_wright_bessel``; derivative in ``x``:
    ``exp(log_wright_bessel(a, a + b, x) - log_wright_bessel(a, b, x))``.

    >>> import funcgrad as fg
    >>> round(float(fg.grad(log_wright_bessel, 2)(0.0, 1.0, 3.0)), 12)  # log(exp(x))' = 1
    1.0
    """
    return _rest.log_wright_bessel(*_real("log_wright_bessel", a, b, x))


@_with_out
def besselpoly(a: ArrayLike, lmb: ArrayLike, nu: ArrayLike) -> Array:
    """``integral of x**lmb J_nu(2 a x) from 0 to 1``, as ``scipy.special.besselpoly``;
    derivative in ``a``: ``besselpoly(a, lmb + 1, nu - 1) - besselpoly(a, lmb + 1,
    nu + 1)``.  In ``lmb`` and ``nu`` it raises ``NotImplementedError``.

    >>> import funcgrad as fg
    >>> float(besselpoly(0.0, 1.0, 0.0)), float(fg.grad(besselpoly)(0.0, 1.0, 1.0))
    (0.5, 0.3333333333333333)
    """
    return _rest.besselpoly(*_real("besselpoly", a, lmb, nu))


def assoc_laguerre(x: ArrayLike, n: ArrayLike, k: ArrayLike = 0.0) -> Array:
    """The generalized Laguerre polynomial ``L_n^(k)(x)``, as
    ``scipy.special.assoc_laguerre`` (SciPy's other name for ``eval_genlaguerre(n, k, x)``,
    which this is); differentiable in ``x``.

    >>> import funcgrad as fg
    >>> float(assoc_laguerre(0.5, 1, 2.0)), float(fg.grad(assoc_laguerre)(0.5, 1, 2.0))
    (2.5, -1.0)
    """
    return eval_genlaguerre(n, k, x)


# (the primitives each front binds: one per output)
for _front, _parts in ((itairy, ("itairy_apt", "itairy_bpt", "itairy_ant", "itairy_bnt")),
                       (iti0k0, ("iti0k0_i", "iti0k0_k")), (itj0y0, ("itj0y0_j", "itj0y0_y")),
                       (it2i0k0, ("it2i0k0_i", "it2i0k0_k")),
                       (it2j0y0, ("it2j0y0_j", "it2j0y0_y")),
                       (modfresnelp, ("modfresnelp_f", "modfresnelp_k")),
                       (modfresnelm, ("modfresnelm_f", "modfresnelm_k")),
                       (wright_bessel, ("wright_bessel",)),
                       (log_wright_bessel, ("log_wright_bessel",)),
                       (besselpoly, ("besselpoly",))):
    _front.primitives = tuple(getattr(_rest, p).primitive  # type: ignore[attr-defined]
                              for p in _parts)
del _front, _parts
