"""``funcgrad.scipy.special``: special functions with SciPy's names and signatures,
differentiable.

The elementwise ones are funcgrad primitives (:mod:`funcgrad.primitives.elementwise`,
:mod:`funcgrad.primitives.special`) whose CPU kernels, GPU kernels and ``jit`` loops are
generated from their scalar definitions: no SciPy is needed.  The rest are written with
them (``betaln`` = ``gammaln(a) + gammaln(b) - gammaln(a + b)``...), so every derivative,
of any order, comes from the primitives' rules.  Plain ``scipy.special`` ufuncs
(``scipy.special.gammaln(x)``) reach these functions on traced values by themselves.

Derivatives that are not implemented raise ``NotImplementedError`` when asked for:
``zeta`` in ``x``, the second derivatives of ``gammainc``/``gammaincc``/``betainc`` in
their shapes (the first are :mod:`funcgrad.primitives.incomplete`'s),
``polygamma`` in ``n`` (an integer order), ``expn``, ``smirnov`` and ``smirnovi`` in
``n``, the Bessel functions
(``jv``, ``yv``, ``iv``, ``ive``, ``kv``) in ``v`` (``kve``'s, for real ``z > 0``, is
:mod:`funcgrad.primitives.special_bessel_order`'s quadrature), the Struve functions in ``v``,
the spherical Bessel functions in ``n``, ``lambertw`` in ``k``, ``hyp1f1``
in ``a`` and ``b``, ``hyp2f1`` in ``a``, ``b`` and ``c``.

``erfcx``, ``dawsn``, ``exp1``, ``expi``, ``expn``, ``spence``, ``loggamma``,
``gammasgn``, ``sici``, ``fresnel``, ``wofz``, ``sph_harm_y``, ``jv`` (and ``bessel_jn``,
JAX's name: ``J_k`` for ``k = 0..v`` stacked; ``j0``, ``j1``, ``jn`` take jv's values,
which differ from SciPy's j0 and j1 in the last digits), ``yv`` (likewise ``y0``, ``y1``,
``yn``), ``iv``, ``ive``, ``kv``, ``kve``,
``k0``, ``k1``, ``k0e``, ``k1e``, ``poch``, ``boxcox``, ``boxcox1p``, ``owens_t``,
``hyp1f1``, ``hyp2f1``, the inverses ``inv_boxcox``, ``inv_boxcox1p``, ``gammaincinv``,
``gammainccinv``, ``betaincinv`` and ``ndtri_exp``, ``erfi``, the complete elliptic
integrals ``ellipk``, ``ellipe`` and ``ellipkm1``, ``kolmogorov``, ``kolmogi``, ``smirnov``
and ``smirnovi`` (:mod:`._special_inverse`), ``lambertw``,
``struve``, ``modstruve`` and ``spherical_jn``, ``spherical_yn``, ``spherical_in``,
``spherical_kn`` (:mod:`._special_orders`), and ``erf``
and ``erfc`` of complex arguments are the exception:
they take their values from SciPy's ufuncs (imported on the first call: :mod:`funcgrad.primitives.special_scipy`), so they need
SciPy, run on the CPU only (``jit`` calls SciPy for them) and are SciPy's values bit for
bit.  ``factorial``, ``comb`` and ``bernoulli`` are SciPy's integer functions, with no
derivative (:mod:`._special_more`).  ``expm1``, ``log1p``, ``exp2``, ``exp10``, ``cbrt``,
``cosm1``, ``exprel``, ``softplus``, ``huber`` and ``pseudo_huber`` are the elementary
functions SciPy keeps here (:mod:`._special_elementary`); SciPy's distribution functions
``chdtr``, ``gdtr``, ``pdtr``, ``bdtr``, ``nbdtr``, ``stdtr``, ``fdtr`` (and their
complements) and ``binom`` are compositions of the incomplete gamma and beta functions
(:mod:`._special_cdtr`), their inverses (``chdtri``...) of ``gammaincinv`` and
``betaincinv`` (:mod:`._special_cdtri`); the orthogonal polynomials ``eval_*``
(:mod:`._special_polys`) and Carlson's ``ellipr*`` (:mod:`._special_carlson`) are
funcgrad.numpy code; ``rgamma``, ``betaln`` and ``beta``, with SciPy's values at the poles
of Gamma, are in :mod:`._special_gamma`.  The functions that are ufuncs in SciPy are ufuncs here too
(:mod:`._special_ufunc`): NumPy's keywords ``out=``, ``where=``, ``casting=``, ``order=``,
``dtype=`` (SciPy's loops; differentiable through the cast), ``subok=``, ``signature=``
(``out=`` takes plain arrays only: a traced result raises a ``TypeError``), SciPy's
``nin``, ``nout``, ``types``... and the methods ``outer``, ``reduce``, ``accumulate``,
``reduceat`` (differentiable) and ``at``.
"""
import functools
import math
from typing import Any, Callable, Literal, Optional, Union, overload

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete, operand as _operand
from ..primitives import elementwise as _ew
from ..primitives import special as _sp
from ..primitives import special_scipy as _ss
from ..primitives.zeta import _ORDERS as _zeta_orders
from ..primitives.structural import stop_gradient as _stop_gradient
from ..core import Tracer as _Tracer
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..typing import Array, ArrayLike, Axis
from . import _special_more as _more
from ._special_more import (bernoulli, bessel_jn, boxcox, boxcox1p, comb, dawsn,  # noqa: F401
                            erfcx, exp1, expi, expn, factorial, fresnel, gammasgn, hyp0f1, hyp1f1,
                            hyp2f1, iv, ive, j0, j1, jn, jv, k0, k0e, k1, k1e, kn, kv, kve,
                            loggamma, owens_t, poch, sici, spence, sph_harm_y, wofz, y0, y1,
                            yn, yv)
from . import _special_inverse as _inverse
from ._special_inverse import (betaincinv, ellipe, ellipk, ellipkm1, erfi,  # noqa: F401
                               gammainccinv, gammaincinv, inv_boxcox, inv_boxcox1p, kolmogi,
                               kolmogorov, ndtri_exp, smirnov, smirnovi)
from . import _special_elementary as _elementary
from ._special_gamma import beta, betaln, rgamma  # noqa: F401
from ._special_incomplete import betainc, betaincc, gammainc, gammaincc  # noqa: F401
from ._special_real import reject_complex as _reject_complex
from ._special_zeta import riemann_zeta_below_one
from . import _special_cdtr as _cdtr
from ._special_cdtr import (bdtr, bdtrc, binom, chdtr, chdtrc, fdtr, fdtrc,  # noqa: F401
                            gdtr, gdtrc, nbdtr, nbdtrc, pdtr, pdtrc, stdtr)
from ._special_out import with_out as _with_out, write_out
from . import _special_orders as _orders
from . import _special_carlson as _carlson, _special_cdtri as _cdtri
from . import _special_polys as _polys
from ._special_cdtri import bdtri, chdtri, fdtri, gdtrix, nbdtri, pdtri, stdtrit  # noqa: F401
from ._special_carlson import (agm, ellipeinc, ellipkinc, elliprc, elliprd,  # noqa: F401
                               elliprf, elliprg, elliprj)
from ._special_polys import (eval_chebyc, eval_chebys, eval_chebyt, eval_chebyu,  # noqa: F401
                             eval_gegenbauer, eval_genlaguerre, eval_hermite,
                             eval_hermitenorm, eval_jacobi, eval_laguerre, eval_legendre,
                             eval_sh_chebyt, eval_sh_chebyu, eval_sh_jacobi, eval_sh_legendre,
                             lpmv)
from ._special_orders import (lambertw, modstruve, spherical_in, spherical_jn,  # noqa: F401
                              spherical_kn, spherical_yn, struve)
from ._special_elementary import (cbrt, cosm1, exp10, exp2, expm1, exprel, huber,  # noqa: F401
                                  log1p, pseudo_huber, softplus)
from . import _specialmore_bessel as _bessel_more, _specialmore_elementary as _elementary_more
from . import _specialmore_integer as _integer_more, _specialmore_roots as _roots
from ._specialmore_bessel import (h1vp, h2vp, hankel1, hankel1e, hankel2, hankel2e,  # noqa: F401
                                  ivp, jve, jvp, kvp, yve, yvp)
from ._specialmore_elementary import (cosdg, cotdg, diric, ellipj, hyperu,  # noqa: F401
                                      powm1, radian, shichi, sindg, tandg, tklmbda,
                                      voigt_profile, wrightomega, zetac)
from ._specialmore_integer import euler, factorial2, factorialk, perm, stirling2  # noqa: F401
from ._special_airy import airy, airye  # noqa: F401
from ._special_entropy import entr, kl_div, rel_entr, xlog1py, xlogy  # noqa: F401
from . import _special_noncentral as _noncentral, _special_noncentral_inv as _noncentral_inv
from ._special_noncentral import chndtr, ncfdtr, nctdtr  # noqa: F401
from ._special_noncentral_inv import (chndtridf, chndtrinc, chndtrix, ncfdtri,  # noqa: F401
                                      ncfdtridfd, ncfdtridfn, ncfdtrinc, nctdtridf,
                                      nctdtrinc, nctdtrit)
from ._special_legendre import (legendre_p, legendre_p_all, sph_legendre_p,  # noqa: F401
                                sph_legendre_p_all)
from ._specialmore_roots import (c_roots, cg_roots, h_roots, he_roots, j_roots,  # noqa: F401
                                 js_roots, l_roots, la_roots, p_roots, ps_roots,
                                 roots_chebyc, roots_chebys, roots_chebyt, roots_chebyu,
                                 roots_gegenbauer, roots_genlaguerre, roots_hermite,
                                 roots_hermitenorm, roots_jacobi, roots_laguerre,
                                 roots_legendre, roots_sh_chebyt, roots_sh_chebyu,
                                 roots_sh_jacobi, roots_sh_legendre, s_roots, t_roots,
                                 ts_roots, u_roots, us_roots)

__all__ = ["erf", "erfc", "erfinv", "erfcinv", "expit", "logit", "log_expit", "gammaln",
           "gamma", "rgamma", "digamma", "psi", "polygamma", "multigammaln", "beta", "betaln",
           "betainc", "betaincc", "gammainc", "gammaincc", "xlogy", "xlog1py", "entr", "rel_entr",
           "kl_div", "logsumexp", "softmax", "log_softmax", "i0", "i0e", "i1", "i1e", "ndtr",
           "ndtri", "log_ndtr", "zeta", "sinc"] + _more.__all__ + _elementary.__all__ + (
               _inverse.__all__ + _orders.__all__ + _cdtr.__all__ + _polys.__all__
               + _carlson.__all__ + _cdtri.__all__
               + _bessel_more.UFUNCS + _elementary_more.UFUNCS)

_INF = math.inf


def _primitive_front(prim_fn: Any, doc: str) -> Callable[[ArrayLike], Array]:
    def f(x: ArrayLike) -> Array:
        return prim_fn(_operand(x))
    f.__name__ = f.__qualname__ = prim_fn.__name__
    f.__doc__ = doc
    f.primitive = prim_fn.primitive  # type: ignore[attr-defined]
    return f


def _real_only(front: Any, hint: str) -> Callable[[ArrayLike], Array]:
    """``front``, with a clear ``TypeError`` for complex arguments (which SciPy's function
    does not take either)."""
    def f(x: ArrayLike) -> Array:
        x = _operand(x)
        _reject_complex(front.__name__, hint, x)
        return front(x)
    f.__name__ = f.__qualname__ = front.__name__
    f.__doc__ = front.__doc__
    f.primitive = front.primitive  # type: ignore[attr-defined]
    return f


def _complex_twin(front: Any, twin: Any) -> Callable[[ArrayLike], Array]:
    """``front`` for real arguments, ``twin`` (SciPy's values) for complex ones."""
    def f(x: ArrayLike) -> Array:
        x = _operand(x)
        dtype = x.dtype if hasattr(x, "dtype") else np.result_type(x)
        if dtype.kind == "c":
            return twin(x)
        return front(x)
    f.__name__ = f.__qualname__ = front.__name__
    f.__doc__ = front.__doc__
    f.primitive = front.primitive  # type: ignore[attr-defined]
    f.primitives = (front.primitive, twin.primitive)  # type: ignore[attr-defined]
    return f


erf = _complex_twin(_primitive_front(_ew.erf, """The error function, ``2/sqrt(pi) *
    integral of exp(-t**2) from 0 to x``; of a complex ``x`` too (SciPy's values; the
    derivative is holomorphic: ``fg.grad(erf, holomorphic=True)``).

    >>> import numpy as np, funcgrad as fg
    >>> float(fg.grad(erf)(0.0))  # 2 / sqrt(pi)
    1.1283791670955126
    >>> complex(fg.grad(erf, holomorphic=True)(0j))
    (1.1283791670955126+0j)
    """), _ss.erf_complex)
erfc = _complex_twin(_primitive_front(_ew.erfc, """The complementary error function,
    ``1 - erf(x)`` (accurate where erf(x) is near 1); of a complex ``x`` too (SciPy's
    values).

    >>> float(erfc(0.0)), complex(erfc(1j)).real
    (1.0, 1.0)
    """), _ss.erfc_complex)
expit = _real_only(_primitive_front(_ew.expit, """The logistic sigmoid ``1 / (1 + exp(-x))``
    (``scipy.special.expit``), without overflow for large ``|x|``.  Real arguments only,
    as SciPy's.

    >>> import funcgrad as fg
    >>> float(fg.grad(expit)(0.0))
    0.25
    """), "for complex x, 1 / (1 + fnp.exp(-x)) (funcgrad.numpy) is holomorphic")
erfinv = _real_only(_primitive_front(_sp.erfinv, """The inverse of ``erf`` on (-1, 1);
    derivative ``sqrt(pi)/2 * exp(erfinv(y)**2)``.  Real arguments only (``TypeError`` for
    complex ones, as SciPy's).

    >>> round(float(erfinv(erf(0.3))), 15)
    0.3
    """), "pass a real array")
erfcinv = _real_only(_primitive_front(_sp.erfcinv, """The inverse of ``erfc`` on (0, 2);
    real arguments only.

    >>> float(erfcinv(1.0))
    0.0
    """), "pass a real array")
gammaln = _real_only(_primitive_front(_sp.gammaln, """``log|Gamma(x)|``; derivative
    ``digamma(x)``.  Real arguments only, as SciPy's: ``loggamma`` is its complex
    counterpart.

    >>> import funcgrad as fg
    >>> float(gammaln(5.0)) == math.log(24.0), round(float(fg.grad(gammaln)(1.0)), 14)
    (True, -0.57721566490153)
    """), "use loggamma(z), the principal branch of log Gamma(z) for complex z")
gamma = _complex_twin(_primitive_front(_sp.gamma, """The gamma function; derivative
    ``gamma(x) * digamma(x)``.  Of a complex ``x`` too (SciPy's values; the derivative is
    holomorphic: ``fg.grad(gamma, holomorphic=True)``).

    >>> import funcgrad as fg
    >>> float(gamma(5.0)), round(complex(fg.grad(gamma, holomorphic=True)(1 + 0j)).real, 12)
    (24.0, -0.577215664902)
    """), _ss.gamma_complex)
digamma = _complex_twin(_primitive_front(_sp.digamma, """The digamma function
    ``d/dx log Gamma(x)``; derivative ``polygamma(1, x)``.  (Scalar series: reflection,
    recurrence, asymptotic.)  Of a complex ``x`` too: SciPy's values, the holomorphic
    derivative ``psi'(z)`` by the same three steps written with primitives.

    >>> round(float(digamma(1.0)), 14)  # minus Euler's constant
    -0.57721566490153
    """), _ss.digamma_complex)
psi = digamma


i0e = _real_only(_primitive_front(_sp.i0e, """The exponentially scaled modified Bessel
    function of order 0, ``exp(-|x|) * i0(x)``; real arguments only, as SciPy's.

    >>> float(i0e(0.0))
    1.0
    """), "ive(0, z) takes complex z")
i1e = _real_only(_primitive_front(_sp.i1e, """The exponentially scaled modified Bessel
    function of order 1, ``exp(-|x|) * i1(x)``; real arguments only, as SciPy's.

    >>> import funcgrad as fg
    >>> float(fg.grad(i1e)(0.0))
    0.5
    """), "ive(1, z) takes complex z")
log_ndtr = _complex_twin(_primitive_front(_sp.log_ndtr, """``log(ndtr(x))``, accurate far
    in both tails.  Of a complex ``x`` too (SciPy's values; the holomorphic derivative
    ``exp(-x**2/2 - log_ndtr(x)) / sqrt(2 pi)``).

    >>> import funcgrad as fg
    >>> float(log_ndtr(-40.0)) < -800, float(fg.grad(log_ndtr)(-40.0)) > 40
    (True, True)
    """), _ss.log_ndtr_complex)


def i0(x: ArrayLike) -> Array:
    """The modified Bessel function of the first kind, order 0; derivative ``i1(x)``.
    Real arguments only, as SciPy's (``iv(0, z)`` takes complex ones).

    >>> float(i0(0.0))
    1.0
    """
    x = _operand(x)
    _reject_complex("i0", "iv(0, z) takes complex z", x)
    return i0e(x) * fnp.exp(fnp.abs(x))


def i1(x: ArrayLike) -> Array:
    """The modified Bessel function of the first kind, order 1; real arguments only, as
    SciPy's (``iv(1, z)`` takes complex ones).

    >>> import funcgrad as fg
    >>> float(fg.grad(i1)(0.0))
    0.5
    """
    x = _operand(x)
    _reject_complex("i1", "iv(1, z) takes complex z", x)
    return i1e(x) * fnp.exp(fnp.abs(x))


def ndtr(x: ArrayLike) -> Array:
    """The standard normal CDF, ``(1 + erf(x/sqrt(2))) / 2`` (``erfc(-x/sqrt 2)/2``); of a
    complex ``x`` too, holomorphic as ``erfc``.

    >>> float(ndtr(0.0))
    0.5
    """
    return erfc(_operand(x) * -math.sqrt(0.5)) * 0.5


def ndtri(p: ArrayLike) -> Array:
    """The inverse of ``ndtr`` on (0, 1); real arguments only, as SciPy's.

    >>> float(ndtri(0.5))
    0.0
    """
    p = _operand(p)
    dtype = p.dtype if hasattr(p, "dtype") else np.result_type(p)
    if dtype.kind == "c":
        raise TypeError(f"ndtri: complex input (dtype {dtype}) is not supported, as in "
                        f"scipy.special; pass a real array")
    return erfcinv(_operand(p) * 2.0) * -math.sqrt(2.0) + 0.0  # (+ 0.0: ndtri(0.5) is +0)


def logit(p: ArrayLike) -> Array:
    """``log(p / (1 - p))``, the inverse of ``expit``.

    >>> float(logit(0.5))
    0.0
    """
    p = _operand(p)
    return fnp.log(p) - fnp.log1p(-p)


def log_expit(x: ArrayLike) -> Array:
    """``log(expit(x))`` without overflow or underflow: ``-logaddexp(0, -x)``.  Real
    arguments only, as SciPy's.

    >>> round(float(log_expit(-800.0)))
    -800
    """
    x = _operand(x)
    _reject_complex("log_expit", "for complex x, -fnp.log1p(fnp.exp(-x)) (funcgrad.numpy)", x)
    return -fnp.logaddexp(0.0, -x)


def _polygamma_factor(n):
    n = np.asarray(n)
    if not np.issubdtype(n.dtype, np.number) or np.any(n != np.floor(n)) or np.any(n < 0):
        raise ValueError(f"polygamma(n, x): n must be a non-negative integer order, got {n!r}")
    return ((-1.0) ** (n + 1)) * np.exp(_np_gammaln(n + 1.0))


def _np_gammaln(v):
    return np.vectorize(math.lgamma, otypes=[float])(v)


def polygamma(n: ArrayLike, x: ArrayLike) -> Array:
    """``polygamma(n, x)``, the ``n``-th derivative of ``digamma``:
    ``(-1)**(n+1) n! zeta(n + 1, x)`` for ``n >= 1``.  ``n`` is a plain integer (or array
    of them): it has no derivative.

    >>> import funcgrad as fg
    >>> round(float(polygamma(1, 1.0)), 14) == round(math.pi ** 2 / 6, 14)
    True
    """
    if isinstance(n, _Tracer):
        raise NotImplementedError("polygamma(n, x): n is an integer order and has no "
                                  "derivative; pass it as a plain int or NumPy array")
    x = _operand(x)
    factor = _polygamma_factor(n)
    if np.all(np.asarray(n) == 0):
        return digamma(x) + np.zeros(np.shape(n))
    higher = zeta(np.asarray(n) + 1.0, x) * factor
    if np.any(np.asarray(n) == 0):
        return fnp.where(np.asarray(n) == 0, digamma(x), higher)
    return higher


def zeta(x: ArrayLike, q: Optional[ArrayLike] = None, out: Optional[np.ndarray] = None
         ) -> Array:
    """The Hurwitz zeta function ``sum over k >= 0 of (k + q)**-x`` (for ``x > 1``), or
    Riemann's with ``q=None``, with SciPy's continuation to ``x < 1``
    (:mod:`._special_zeta`).  Differentiable in ``q`` (``-x zeta(x + 1, q)``) and in ``x``
    (``-sum log(k + q) (k + q)**-x``, :mod:`funcgrad.primitives.zeta`; up to the fourth
    derivative in ``x``).  ``out=`` as SciPy's ufuncs (:mod:`._special_out`).

    >>> round(float(zeta(2.0)), 14) == round(math.pi ** 2 / 6, 14)
    True
    >>> float(zeta(0.0)), float(zeta(-2.0)), round(float(zeta(-1.0)), 15)
    (-0.5, 0.0, -0.083333333333333)
    """
    x = _operand(x)
    if q is not None:
        return write_out("zeta", _sp.zeta(x, _operand(q)), out)
    if is_concrete(x) and not np.any(np.less(concrete_values(x, "", ""), 1.0)):
        return write_out("zeta", _sp.zeta(x, 1.0), out)
    # (the double where: the Hurwitz sum's derivative below 1 is NaN, and 0 * NaN is NaN)
    below = fnp.less(x, 1.0)
    value = fnp.where(below, riemann_zeta_below_one(x), _sp.zeta(fnp.where(below, 2.0, x), 1.0))
    return write_out("zeta", value, out)


def multigammaln(a: ArrayLike, d: int) -> Array:
    """The multivariate log-gamma ``log Gamma_d(a)``:
    ``d(d-1)/4 log(pi) + sum_j gammaln(a - j/2)`` for ``j < d`` (``d`` a plain int).

    >>> float(multigammaln(3.0, 1)) == math.log(2.0)
    True
    """
    if not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"multigammaln(a, d): d must be a positive int, got {d!r}")
    a = _operand(a)
    total: Any = d * (d - 1) / 4.0 * math.log(math.pi)
    for j in range(d):
        total = total + gammaln(a - j / 2.0)
    return total


# (SciPy's signatures, each one primitive: the front of that primitive)
zeta.primitive = _sp.zeta.primitive  # type: ignore[attr-defined]
# (and the primitives of its derivatives in the exponent, reached only through it)
zeta.primitives = (_sp.zeta.primitive,) + tuple(  # type: ignore[attr-defined]
    _zeta_orders[m].primitive for m in sorted(_zeta_orders))




@overload
def logsumexp(a: ArrayLike, axis: Axis = ..., b: Optional[ArrayLike] = ...,
              keepdims: bool = ..., return_sign: Literal[False] = ...) -> Array: ...
@overload
def logsumexp(a: ArrayLike, axis: Axis = ..., b: Optional[ArrayLike] = ...,
              keepdims: bool = ..., *, return_sign: Literal[True]) -> tuple[Array, Array]: ...


def logsumexp(a: ArrayLike, axis: Axis = None, b: Optional[ArrayLike] = None,
              keepdims: bool = False, return_sign: bool = False
              ) -> Union[Array, tuple[Array, Array]]:
    """``log(sum(b * exp(a), axis))`` without overflow (``scipy.special.logsumexp``).

    With ``return_sign=True``, returns ``(log|s|, sign(s))`` (weights ``b`` may be
    negative).  The shift by the maximum carries no derivative (it cancels).

    >>> import numpy as np, funcgrad as fg
    >>> float(logsumexp(np.array([1000.0, 1000.0]))) == 1000 + math.log(2)
    True
    >>> fg.grad(logsumexp)(np.zeros(2))  # softmax
    array([0.5, 0.5])
    """
    a = fnp.asarray(a)
    if a.size == 0:  # (an empty sum: log 0 = -inf, as SciPy's; max has no identity)
        shift: Any = 0.0
    else:
        shift = _stop_gradient(fnp.max(a, axis=axis, keepdims=True))
        shift = fnp.where(fnp.isfinite(shift), shift, 0.0)
    e = fnp.exp(a - shift)
    if b is not None:
        e = e * _operand(b)
    s = fnp.sum(e, axis=axis, keepdims=True)
    if return_sign:
        sign = fnp.sign(s)
        s = fnp.abs(s)
    out = fnp.log(s) + shift
    if not keepdims:
        out = fnp.squeeze(out, axis=axis) if axis is not None else fnp.reshape(out, ())
        if return_sign:
            sign = fnp.squeeze(sign, axis=axis) if axis is not None else fnp.reshape(sign, ())
    return (out, sign) if return_sign else out


def softmax(x: ArrayLike, axis: Axis = None) -> Array:
    """``exp(x) / sum(exp(x), axis)`` (over all elements with ``axis=None``, as SciPy).

    >>> import numpy as np
    >>> softmax(np.array([0.0, 0.0]))
    array([0.5, 0.5])
    """
    x = fnp.asarray(x)
    return fnp.exp(x - logsumexp(x, axis=axis, keepdims=True))


def log_softmax(x: ArrayLike, axis: Axis = None) -> Array:
    """``x - logsumexp(x, axis)``.

    >>> import numpy as np
    >>> float(log_softmax(np.array([0.0, 0.0]))[0]) == -math.log(2)
    True
    """
    x = fnp.asarray(x)
    return x - logsumexp(x, axis=axis, keepdims=True)


def sinc(x: ArrayLike) -> Array:
    """``sin(pi x) / (pi x)`` (``scipy.special.sinc`` is ``numpy.sinc``).

    >>> float(sinc(0.0))
    1.0
    """
    return fnp.sinc(x)


# SciPy's ufuncs (and softplus, which passes its keywords to one) take out=
# (see _special_out); an alias (psi) stays the same function as its original
_UFUNCS = __all__[:]
for _name in ("polygamma", "multigammaln", "logsumexp", "softmax", "log_softmax", "zeta",
              "sinc", "factorial", "comb", "bernoulli", "bessel_jn", "lambertw",
              "spherical_jn", "spherical_yn", "spherical_in", "spherical_kn", "sph_harm_y"):
    _UFUNCS.remove(_name)
_wrapped: dict = {}
for _name in _UFUNCS:
    _f = globals()[_name]
    globals()[_name] = _wrapped.setdefault(id(_f), _with_out(_f))
del _name, _f, _wrapped
# (not ufuncs in SciPy either: no out=)
__all__ += ([n for n in _bessel_more.__all__ + _elementary_more.__all__
             if n not in _bessel_more.UFUNCS + _elementary_more.UFUNCS]
            + _integer_more.__all__ + _roots.__all__ + ["airy", "airye", "legendre_p",
                                                        "legendre_p_all", "sph_legendre_p",
                                                        "sph_legendre_p_all"])


airy, airye = _with_out(airy), _with_out(airye)  # (SciPy's ufuncs too, of four outputs)

# the noncentral distribution functions and their inverses (SciPy ufuncs: out= as above)
for _name in _noncentral.__all__ + _noncentral_inv.__all__:
    globals()[_name] = _with_out(globals()[_name])
del _name
__all__ += _noncentral.__all__ + _noncentral_inv.__all__


def __getattr__(name: str) -> Any:
    # (SciPy's round, kept out of this module's globals, where it would hide the builtin
    # round that the examples here call)
    if name == "round":
        return _elementary_more.round
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# (session 23: the rest of scipy.special, from its own private modules)
from . import (_specialrest_cdflib as _rest_cdflib,  # noqa: E402
               _specialrest_cylinder as _rest_cylinder, _specialrest_ellip as _rest_ellip,
               _specialrest_errors as _rest_errors, _specialrest_integrals as _rest_integrals,
               _specialrest_kelvin as _rest_kelvin, _specialrest_legendre as _rest_legendre,
               _specialrest_lmbda as _rest_lmbda, _specialrest_lq as _rest_lq,
               _specialrest_mathieu as _rest_mathieu, _specialrest_orthopoly as _rest_orthopoly,
               _specialrest_riccati as _rest_riccati, _specialrest_zeros as _rest_zeros)
from ._specialrest_cdflib import (bdtrik, bdtrin, betainccinv, btdtria,  # noqa: E402,F401
                                  btdtrib, chdtriv, fdtridfd, gdtria, gdtrib, nbdtrik,
                                  nbdtrin, nrdtrimn, nrdtrisd, pdtrik, stdtridf)
from ._specialrest_cylinder import (pbdn_seq, pbdv, pbdv_seq, pbvv, pbvv_seq,  # noqa: E402,F401
                                    pbwa)
from ._specialrest_ellip import ellip_harm, ellip_harm_2, ellip_normal  # noqa: E402,F401
from ._specialrest_integrals import (assoc_laguerre, besselpoly, it2i0k0,  # noqa: E402,F401
                                     it2j0y0, it2struve0, itairy, iti0k0, itj0y0,
                                     itmodstruve0, itstruve0, log_wright_bessel,
                                     modfresnelm, modfresnelp, wright_bessel)
from ._specialrest_kelvin import (bei, beip, ber, berp, kei, keip, kelvin, ker,  # noqa: E402,F401
                                  kerp)
from ._specialrest_legendre import (assoc_legendre_p, assoc_legendre_p_all,  # noqa: E402,F401
                                    sph_harm_y_all)
from ._specialrest_lmbda import lmbda  # noqa: E402,F401
from ._specialrest_lq import lqmn, lqn  # noqa: E402,F401
from ._specialrest_mathieu import (mathieu_a, mathieu_b, mathieu_cem,  # noqa: E402,F401
                                   mathieu_even_coef, mathieu_modcem1, mathieu_modcem2,
                                   mathieu_modsem1, mathieu_modsem2, mathieu_odd_coef,
                                   mathieu_sem)
from ._specialrest_riccati import riccati_jn, riccati_yn  # noqa: E402,F401
from ._specialrest_zeros import (ai_zeros, bei_zeros, beip_zeros, ber_zeros,  # noqa: E402,F401
                                 berp_zeros, bi_zeros, erf_zeros, fresnel_zeros,
                                 fresnelc_zeros, fresnels_zeros, jn_zeros, jnjnp_zeros,
                                 jnp_zeros, jnyn_zeros, kei_zeros, keip_zeros, kelvin_zeros,
                                 ker_zeros, kerp_zeros, y0_zeros, y1_zeros, y1p_zeros,
                                 yn_zeros, ynp_zeros)
__all__ += (_rest_kelvin.__all__ + _rest_legendre.__all__ + _rest_riccati.__all__
            + _rest_lq.__all__ + _rest_cylinder.__all__ + _rest_integrals.__all__
            + _rest_lmbda.__all__ + _rest_ellip.__all__ + _rest_zeros.__all__
            + _rest_orthopoly.NAMES + _rest_cdflib.__all__ + _rest_errors.NAMES
            + _rest_mathieu.__all__)
_getattr_before_rest = __getattr__


def __getattr__(name: str) -> Any:  # type: ignore[no-redef]  # noqa: F811
    # (SciPy's errstate, seterr, geterr, error classes and orthogonal polynomial objects:
    # looked up on first use, so that importing this module does not import SciPy)
    if name in _rest_errors.NAMES or name in _rest_orthopoly.NAMES:
        return _rest_errors.scipys(name)
    return _getattr_before_rest(name)

# (session 24: the spheroidal wave functions)
from . import _special_spheroidal as _spheroidal  # noqa: E402
from ._special_spheroidal import (obl_ang1, obl_ang1_cv, obl_cv, obl_cv_seq,  # noqa: E402,F401
                                  obl_rad1, obl_rad1_cv, obl_rad2, obl_rad2_cv, pro_ang1,
                                  pro_ang1_cv, pro_cv, pro_cv_seq, pro_rad1, pro_rad1_cv,
                                  pro_rad2, pro_rad2_cv)
__all__ += _spheroidal.__all__
