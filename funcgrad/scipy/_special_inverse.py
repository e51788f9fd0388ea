"""More of ``funcgrad.scipy.special`` (re-exported there): inverse functions
(``inv_boxcox``, ``gammaincinv``, ``betaincinv``, ``ndtri_exp``...), ``erfi`` and the
complete elliptic integrals, whose values are SciPy's ufuncs
(:mod:`funcgrad.primitives.special_scipy_more`, :mod:`funcgrad.primitives.smirnov`: SciPy
imported on the first call) and
whose derivatives follow from the inverse function theorem or in closed form."""
from typing import Any, Optional

from ..numpy._convert import operand as _operand
from ..primitives import smirnov as _smp
from ..primitives import special_scipy_more as _sm
from ..typing import Array, ArrayLike
from ._special_more import _front as _front_in
from ._special_real import reject_complex as _reject_complex

_FRONTS_NEED = (_operand, Array, ArrayLike, _reject_complex)  # (the compiled fronts' names: see _front)


def _front(prim_fn: Any, params: str, doc: str, real: Optional[str] = None) -> Any:
    return _front_in(prim_fn, params, doc, globals(), "_sm", real)


__all__ = ["inv_boxcox", "inv_boxcox1p", "gammaincinv", "gammainccinv", "betaincinv",
           "ndtri_exp", "erfi", "ellipk", "ellipe", "ellipkm1", "kolmogorov", "kolmogi",
           "smirnov", "smirnovi"]

inv_boxcox = _front(_sm.inv_boxcox, "y, lmbda", """The inverse of the Box-Cox transform,
    ``(1 + lmbda y)**(1/lmbda)`` (``exp(y)`` at ``lmbda = 0``); differentiable in ``y``
    (``x**(1 - lmbda)``) and in ``lmbda`` (by the inverse function theorem on ``boxcox``).

    >>> import math, funcgrad as fg
    >>> float(inv_boxcox(2.0, 0.5)), float(fg.grad(inv_boxcox, 1)(1.0, 0.0)) == -math.e / 2
    (4.0, True)
    """)
inv_boxcox1p = _front(_sm.inv_boxcox1p, "y, lmbda", """The inverse of ``boxcox1p``,
    ``(1 + lmbda y)**(1/lmbda) - 1`` (``expm1(y)`` at ``lmbda = 0``); differentiable in
    ``y`` and ``lmbda``.

    >>> import funcgrad as fg
    >>> float(inv_boxcox1p(2.0, 0.5)), float(fg.grad(inv_boxcox1p)(0.0, 0.0))
    (3.0, 1.0)
    """)
gammaincinv = _front(_sm.gammaincinv, "a, y", """The inverse of ``gammainc`` in ``x``:
    ``gammainc(a, gammaincinv(a, y)) == y``.  Derivative in ``y``:
    ``Gamma(a) x**(1-a) exp(x)``; in ``a``: ``-(dP/da) / (dP/dx)`` at the result (as
    ``gammainc``'s, for ``a <= 1e6``).

    >>> import math, funcgrad as fg
    >>> round(float(gammaincinv(1.0, 0.5)), 12) == round(math.log(2.0), 12)
    True
    >>> round(float(fg.grad(gammaincinv, 1)(1.0, 0.5)), 12)  # -log(1 - y): 1 / (1 - y)
    2.0
    """)
gammainccinv = _front(_sm.gammainccinv, "a, y", """The inverse of ``gammaincc`` in ``x``;
    derivative in ``y``: ``-Gamma(a) x**(1-a) exp(x)``; in ``a`` as :func:`gammaincinv`.

    >>> import funcgrad as fg
    >>> round(float(fg.grad(gammainccinv, 1)(1.0, 0.5)), 12)  # -log(y): -1 / y
    -2.0
    """)
betaincinv = _front(_sm.betaincinv, "a, b, y", """The inverse of ``betainc`` in ``x``;
    derivative in ``y``: ``B(a, b) x**(1-a) (1-x)**(1-b)``; in ``a`` and ``b``:
    ``-(dI/da) / (dI/dx)`` at the result.

    >>> import funcgrad as fg
    >>> float(betaincinv(1.0, 1.0, 0.25)), float(fg.grad(betaincinv, 2)(1.0, 1.0, 0.25))
    (0.25, 1.0)
    """)
ndtri_exp = _front(_sm.ndtri_exp, "y", """``ndtri(exp(y))``, accurate for very negative
    ``y`` (log-probabilities); derivative ``exp(y) / phi(x)``.

    >>> import funcgrad as fg
    >>> float(ndtri_exp(-800.0)) < -39, float(fg.grad(ndtri_exp)(-800.0)) > 0
    (True, True)
    """, real="pass a real array")
erfi = _front(_sm.erfi, "x", """The imaginary error function ``-i erf(i x)``; derivative
    ``2/sqrt(pi) exp(x**2)``.

    >>> import funcgrad as fg
    >>> float(erfi(0.0)), round(float(fg.grad(erfi)(0.0)), 12)
    (0.0, 1.128379167096)
    """)
ellipk = _front(_sm.ellipk, "m", """The complete elliptic integral of the first kind
    ``K(m)`` (parameter ``m = k**2``, SciPy's convention); derivative
    ``(E(m) - (1 - m) K(m)) / (2 m (1 - m))`` (``pi/8`` at ``m = 0``).

    >>> import math, funcgrad as fg
    >>> float(ellipk(0.0)) == math.pi / 2, float(fg.grad(ellipk)(0.0)) == math.pi / 8
    (True, True)
    """)
ellipe = _front(_sm.ellipe, "m", """The complete elliptic integral of the second kind
    ``E(m)``; derivative ``(E(m) - K(m)) / (2m)`` (``-pi/8`` at ``m = 0``).

    >>> import math, funcgrad as fg
    >>> float(ellipe(1.0)), float(fg.grad(ellipe)(0.0)) == -math.pi / 8
    (1.0, True)
    """)
ellipkm1 = _front(_sm.ellipkm1, "p", """``K(1 - p)``, accurate for small ``p`` (``m`` near
    1); derivative ``-K'(1 - p)``.

    >>> import funcgrad as fg
    >>> float(fg.grad(ellipkm1)(1.0)) == -float(fg.grad(ellipk)(0.0))
    True
    """)
kolmogorov = _front(_sm.kolmogorov, "y", """The complementary CDF of Kolmogorov's limiting
    distribution, ``P(sqrt(n) D_n > y)`` as ``n -> inf``: ``2 sum (-1)**(k-1) exp(-2 k**2
    y**2)``; differentiable (its series' slope; the theta form's for small ``y``).

    >>> import funcgrad as fg
    >>> round(float(kolmogorov(1.0)), 12), round(float(fg.grad(kolmogorov)(1.0)), 12)
    (0.269999671677, -1.071948558357)
    """, real="pass a real array")
kolmogi = _front(_sm.kolmogi, "p", """The inverse of ``kolmogorov``: ``kolmogorov(kolmogi(p))
    == p``; derivative one over ``kolmogorov``'s slope at the result.

    >>> round(float(kolmogi(kolmogorov(0.8))), 14)
    0.8
    """, real="pass a real array")
smirnov = _front_in(_smp.smirnov, "n, d", """The one-sided Kolmogorov-Smirnov survival
    function ``P(D+_n > d)``, ``D+_n`` the largest amount by which the theoretical CDF
    exceeds the empirical one of ``n`` samples: SciPy's values (NaN for ``n < 1`` or ``d``
    outside ``[0, 1]``).  Differentiable in ``d`` (the exact finite sum's derivatives, of
    every order: ``-smirnov'`` is ``ksone``'s density); in the integer ``n`` it raises
    ``NotImplementedError``.

    >>> import funcgrad as fg
    >>> float(smirnov(5, 0.3)), round(float(fg.grad(smirnov, 1)(5, 0.3)), 12)
    (0.34282, -2.286)
    """, globals(), "_smp", "pass a real array")
smirnovi = _front_in(_smp.smirnovi, "n, p", """The inverse of ``smirnov`` in ``d``:
    ``smirnov(n, smirnovi(n, p)) == p``; derivative in ``p`` one over ``smirnov``'s slope
    at the result (none in ``n``).

    >>> import funcgrad as fg
    >>> d = smirnovi(5, 0.34282)
    >>> round(float(d), 12), round(float(fg.grad(smirnovi, 1)(5, 0.34282)), 6)
    (0.3, -0.437445)
    """, globals(), "_smp", "pass a real array")
# (the slope's own primitive, and the complements stats.ksone takes its cdf and ppf from:
# SciPy's private _smirnovc/_smirnovci, fronted here with the functions they serve)
smirnov.primitives = (_smp.smirnov_p, _smp.smirnov_derivative_p, _smp.smirnovc_p)
smirnovi.primitives = (_smp.smirnovi_p, _smp.smirnovci_p)
