"""The inverses of SciPy's distribution functions in :mod:`funcgrad.scipy.special`
(re-exported there): ``chdtri``, ``gdtrix``, ``pdtri``, ``stdtrit``, ``fdtri``,
``bdtri``, ``nbdtri``.

Each inverts its CDF (:mod:`._special_cdtr`) through ``gammaincinv``/``gammainccinv``/
``betaincinv`` (SciPy's values, :mod:`._special_inverse`), whose derivatives are the
implicit function theorem's: ``dx/dp = 1 / pdf`` and, in a shape ``a``,
``-(dF/da) / pdf``.  So every derivative here is theirs, through the change of
variables, in the probability and in the continuous shapes alike.  The counts ``k`` (and
``n`` of ``bdtri``) are floored as SciPy's: piecewise constant, derivative 0.  Where the
beta quantile ``w`` would be above 1/2 (its probability above ``betainc(a, b, 1/2)``),
``1 - w`` is the other tail's quantile, as in Cephes: ``w / (1 - w)`` and ``1 - w`` keep
their digits.  Values are computed in float64 (float32
rounded at the end where every argument is float32, as SciPy's ``f`` loops).
"""
import math
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import operand as _operand
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import Array, ArrayLike
from ._special_incomplete import betainc
from ._special_inverse import betaincinv, gammainccinv, gammaincinv

__all__ = ["chdtri", "gdtrix", "pdtri", "stdtrit", "fdtri", "bdtri", "nbdtri"]

_NAN = math.nan


def _prepare(*args: Any) -> tuple:
    """The arguments in float64 and the result's dtype (float32 where all are)."""
    args = tuple(_operand(a) for a in args)
    for a in args:
        dtype = a.dtype if hasattr(a, "dtype") else np.result_type(a)
        if dtype.kind == "c":
            raise TypeError("complex input is not supported, as in scipy.special; pass a "
                            "real array")
    dtypes = [a.dtype for a in args if hasattr(a, "dtype")]
    single = bool(dtypes) and all(d == np.float32 for d in dtypes)
    return tuple(fnp.astype(a, np.float64) for a in args), np.dtype(
        np.float32 if single else np.float64)


def _probability(p: Any) -> Any:
    """Outside [0, 1] (or NaN): NaN, SciPy's domain error."""
    return fnp.logical_not(fnp.logical_and(fnp.greater_equal(p, 0.0), fnp.less_equal(p, 1.0)))


def _beta_quantile(a: Any, b: Any, p: Any) -> tuple:
    """``(w, 1 - w)`` for ``w = betaincinv(a, b, p)``, each to its own relative accuracy:
    above the median of ``w = 1/2`` the complement is ``betaincinv(b, a, 1 - p)``."""
    upper = fnp.greater(p, betainc(a, b, 0.5))
    w = betaincinv(a, b, fnp.where(upper, 0.25 * betainc(a, b, 0.5), p))
    v = betaincinv(b, a, fnp.where(upper, 1.0 - p, 0.25 * betainc(b, a, 0.5)))
    return fnp.where(upper, 1.0 - v, w), fnp.where(upper, v, 1.0 - w)


def _count(k: Any) -> Any:
    return _stop_gradient(fnp.floor(k))


def chdtri(v: ArrayLike, p: ArrayLike) -> Array:
    """The inverse of ``chdtrc(v, x)`` (the chi-square survival function) in ``x``:
    ``2 gammainccinv(v/2, p)``.  Differentiable in ``p`` and ``v``.

    >>> import funcgrad as fg
    >>> round(float(chdtri(2.0, 0.5)), 12), round(float(fg.grad(chdtri, 1)(2.0, 0.5)), 12)
    (1.38629436112, -4.0)
    """
    (v, p), dtype = _prepare(v, p)
    return fnp.astype(gammainccinv(v * 0.5, p) * 2.0, dtype)


def gdtrix(a: ArrayLike, b: ArrayLike, p: ArrayLike) -> Array:
    """The inverse of ``gdtr(a, b, x)`` (the gamma CDF, rate ``a``, shape ``b``) in ``x``:
    ``gammaincinv(b, p) / a``.  Differentiable in all three.

    >>> round(float(gdtrix(2.0, 1.0, 0.5)), 15)  # log(2) / 2
    0.346573590279973
    """
    (a, b, p), dtype = _prepare(a, b, p)
    return fnp.astype(gammaincinv(b, p) / a, dtype)


def pdtri(k: ArrayLike, y: ArrayLike) -> Array:
    """The inverse of ``pdtr(k, m)`` (the Poisson CDF) in the mean ``m``:
    ``gammainccinv(floor(k) + 1, y)`` (NaN for ``k < 0``).  Differentiable in ``y``.

    >>> import math
    >>> round(float(pdtri(0, math.exp(-1.5))), 14)
    1.5
    """
    (k, y), dtype = _prepare(k, y)
    count = _count(k)
    bad = fnp.logical_or(fnp.less(count, 0.0), _probability(y))
    value = gammainccinv(fnp.where(bad, 1.0, count + 1.0), fnp.where(bad, 0.5, y))
    return fnp.astype(fnp.where(bad, _NAN, value), dtype)


def stdtrit(df: ArrayLike, p: ArrayLike) -> Array:
    """The inverse of ``stdtr(df, t)`` (Student's t CDF) in ``t``: with ``q = min(p,
    1 - p)``, ``t**2 = df (1 - x) / x`` for ``x = betaincinv(df/2, 1/2, 2q)``, negative
    below ``p = 1/2`` (``-inf`` at ``p = 0``, where SciPy gives ``inf``).
    Differentiable in ``p`` and ``df``.

    >>> import funcgrad as fg
    >>> float(stdtrit(3.0, 0.5)), round(float(stdtrit(1.0, 0.75)), 14)  # Cauchy: tan(pi/4)
    (0.0, 1.0)
    """
    (df, p), dtype = _prepare(df, p)
    lower = fnp.less(p, 0.5)
    q2 = fnp.where(lower, p, 1.0 - p) * 2.0
    bad = fnp.logical_or(_probability(p), fnp.logical_not(fnp.greater(df, 0.0)))
    half = fnp.where(bad, 1.0, df) * 0.5
    x, y = _beta_quantile(half, 0.5, fnp.where(bad, 0.25, q2))
    t = fnp.sqrt(y / x * (half * 2.0))
    return fnp.astype(fnp.where(bad, _NAN, fnp.where(lower, -t, t)), dtype)


def fdtri(dfn: ArrayLike, dfd: ArrayLike, p: ArrayLike) -> Array:
    """The inverse of ``fdtr(dfn, dfd, x)`` (the F CDF) in ``x``: ``dfd w / (dfn (1 -
    w))`` for ``w = betaincinv(dfn/2, dfd/2, p)`` (``1 - w`` from the other tail's
    inverse above the median of ``w``).  Differentiable in all three.

    >>> round(float(fdtri(2.0, 2.0, 0.5)), 14)  # the median of F(2, 2)
    1.0
    """
    (dfn, dfd, p), dtype = _prepare(dfn, dfd, p)
    bad = fnp.logical_or(_probability(p), fnp.logical_not(fnp.logical_and(
        fnp.greater(dfn, 0.0), fnp.greater(dfd, 0.0))))
    a, b = fnp.where(bad, 1.0, dfn) * 0.5, fnp.where(bad, 1.0, dfd) * 0.5
    w, v = _beta_quantile(a, b, fnp.where(bad, 0.5, p))
    value = b * w / (a * v)
    return fnp.astype(fnp.where(bad, _NAN, value), dtype)


def bdtri(k: ArrayLike, n: ArrayLike, y: ArrayLike) -> Array:
    """The inverse of ``bdtr(k, n, p)`` (the binomial CDF) in ``p``: ``1 -
    betaincinv(n - k, k + 1, y)`` (the complement's own quantile where it is below 1/2);
    ``k`` and ``n`` floored, NaN unless ``0 <= k < n``.  Differentiable in ``y``.

    >>> round(float(bdtri(0, 1, 0.25)), 15)  # bdtr(0, 1, p) = 1 - p
    0.75
    """
    (k, n, y), dtype = _prepare(k, n, y)
    kf, nf = _count(k), _count(n)
    bad = fnp.logical_or(fnp.logical_or(fnp.less(kf, 0.0), fnp.greater_equal(kf, nf)),
                         _probability(y))
    a, b = fnp.where(bad, 1.0, nf - kf), fnp.where(bad, 1.0, kf + 1.0)
    complement = _beta_quantile(a, b, fnp.where(bad, 0.5, y))[1]
    return fnp.astype(fnp.where(bad, _NAN, complement), dtype)


def nbdtri(k: ArrayLike, n: ArrayLike, y: ArrayLike) -> Array:
    """The inverse of ``nbdtr(k, n, p)`` (the negative binomial CDF) in ``p``:
    ``betaincinv(n, floor(k) + 1, y)`` (``n`` floored; NaN for ``k < 0`` or ``n <= 0``).
    Differentiable in ``y``.

    >>> round(float(nbdtri(0, 1, 0.25)), 15)  # nbdtr(0, 1, p) = p
    0.25
    """
    (k, n, y), dtype = _prepare(k, n, y)
    kf, nf = _count(k), _count(n)
    bad = fnp.logical_or(fnp.logical_or(fnp.less(kf, 0.0), fnp.less_equal(nf, 0.0)),
                         _probability(y))
    value = betaincinv(fnp.where(bad, 1.0, nf), fnp.where(bad, 1.0, kf + 1.0),
                       fnp.where(bad, 0.5, y))
    return fnp.astype(fnp.where(bad, _NAN, value), dtype)
