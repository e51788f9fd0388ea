"""Gauss quadrature nodes and weights (``scipy.special.roots_*`` and SciPy's short
aliases ``p_roots``...), re-exported by ``funcgrad.scipy.special``.

The degree ``n`` is an integer, so the families with no other parameter (Legendre,
Chebyshev, Laguerre, Hermite and their shifted forms) have nothing to differentiate: they
return SciPy's arrays.  Jacobi, generalised Laguerre and Gegenbauer (and shifted Jacobi)
have continuous parameters.  Given plain numbers they return SciPy's values too; given a
traced parameter (under ``grad``, ``jvp``, ``vmap``, ``jit``) they are computed by
Golub-Welsch, the eigen-decomposition of the symmetric tridiagonal Jacobi matrix of the
three-term recurrence, with ``funcgrad.numpy.linalg.eigh``, so the nodes and weights
differentiate in those parameters at every order (the eigenvalues of a Jacobi matrix are
simple, and a weight ``mu0 v[0]**2`` does not see an eigenvector's sign).  The two routes
agree to rounding (SciPy polishes its nodes with a Newton step).
"""
import math
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..core import Tracer as _Tracer
from ..numpy._convert import concrete_values, is_concrete
from ..primitives import special as _sp

__all__ = ["roots_legendre", "roots_chebyt", "roots_chebyu", "roots_chebyc", "roots_chebys",
           "roots_jacobi", "roots_laguerre", "roots_genlaguerre", "roots_hermite",
           "roots_hermitenorm", "roots_gegenbauer", "roots_sh_legendre", "roots_sh_chebyt",
           "roots_sh_chebyu", "roots_sh_jacobi", "p_roots", "t_roots", "u_roots", "c_roots",
           "s_roots", "j_roots", "l_roots", "la_roots", "h_roots", "he_roots", "cg_roots",
           "ps_roots", "ts_roots", "us_roots", "js_roots"]


def _degree(function: str, n: Any) -> int:
    if isinstance(n, _Tracer):
        raise TypeError(f"{function}: the number of nodes n is an integer and has no "
                        f"derivative; pass a plain int")
    m = int(n)
    if n < 1 or n != m:
        raise ValueError(f"{function}: n must be a positive integer, got {n!r}")
    return m


def _scipy_roots(name: str) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        import scipy.special  # (here, so that importing funcgrad never loads SciPy)
        return getattr(scipy.special, name)(*args, mu=True)
    return call


def _integer_family(name: str, doc: str) -> Callable[..., Any]:
    scipy_roots = _scipy_roots(name)

    def roots(n: int, mu: bool = False) -> Any:
        x, w, m = scipy_roots(_degree(name, n))
        return (x, w, m) if mu else (x, w)
    roots.__name__ = roots.__qualname__ = name
    roots.__doc__ = doc
    return roots


roots_legendre = _integer_family("roots_legendre", """Gauss-Legendre nodes and weights:
    ``sum(w * f(x))`` integrates ``f`` over ``[-1, 1]``, exactly for polynomials of degree
    ``2n - 1``; with ``mu=True`` also the integral of the weight, 2.  SciPy's values (``n``
    is an integer: nothing to differentiate; a function of the nodes differentiates as
    usual).

    >>> x, w = roots_legendre(3)
    >>> round(float((w * x ** 4).sum()), 12)  # 2/5
    0.4
    """)
roots_chebyt = _integer_family("roots_chebyt", """Gauss-Chebyshev (first kind) nodes and
    weights for the weight ``1/sqrt(1 - x**2)`` on ``[-1, 1]`` (``mu``: pi).

    >>> x, w, mu = roots_chebyt(4, mu=True)
    >>> round(mu, 12) == round(float(w.sum()), 12) == round(3.141592653589793, 12)
    True
    """)
roots_chebyu = _integer_family("roots_chebyu", """Gauss-Chebyshev (second kind) nodes and
    weights for the weight ``sqrt(1 - x**2)`` on ``[-1, 1]`` (``mu``: pi/2).

    >>> x, w = roots_chebyu(3)
    >>> round(float(w.sum()), 12) == round(3.141592653589793 / 2, 12)
    True
    """)
roots_chebyc = _integer_family("roots_chebyc", """Nodes and weights for the weight
    ``1/sqrt(1 - x**2/4)`` on ``[-2, 2]`` (Chebyshev C).

    >>> x, w = roots_chebyc(2)
    >>> round(float(w.sum()), 12) == round(2 * 3.141592653589793, 12)
    True
    """)
roots_chebys = _integer_family("roots_chebys", """Nodes and weights for the weight
    ``sqrt(1 - x**2/4)`` on ``[-2, 2]`` (Chebyshev S).

    >>> x, w = roots_chebys(2)
    >>> round(float(w.sum()), 12) == round(3.141592653589793, 12)
    True
    """)
roots_laguerre = _integer_family("roots_laguerre", """Gauss-Laguerre nodes and weights for
    the weight ``exp(-x)`` on ``[0, inf)`` (``mu``: 1).

    >>> x, w = roots_laguerre(3)
    >>> round(float((w * x ** 2).sum()), 12)  # Gamma(3)
    2.0
    """)
roots_hermite = _integer_family("roots_hermite", """Gauss-Hermite (physicists') nodes and
    weights for the weight ``exp(-x**2)`` on the real line (``mu``: sqrt(pi)).

    >>> x, w = roots_hermite(3)
    >>> round(float((w * x ** 2).sum()) / 3.141592653589793 ** 0.5, 12)
    0.5
    """)
roots_hermitenorm = _integer_family("roots_hermitenorm", """Gauss-Hermite (probabilists')
    nodes and weights for the weight ``exp(-x**2/2)`` (``mu``: sqrt(2 pi)): ``E f(Z)`` of
    a standard normal ``Z`` is ``sum(w * f(x)) / sqrt(2 pi)``.

    >>> x, w = roots_hermitenorm(3)
    >>> round(float((w * x ** 2).sum()) / (2 * 3.141592653589793) ** 0.5, 12)
    1.0
    """)
roots_sh_legendre = _integer_family("roots_sh_legendre", """Shifted Gauss-Legendre nodes
    and weights on ``[0, 1]`` (weight 1, ``mu``: 1).

    >>> x, w = roots_sh_legendre(2)
    >>> round(float((w * x ** 3).sum()), 12)
    0.25
    """)
roots_sh_chebyt = _integer_family("roots_sh_chebyt", """Shifted Chebyshev (first kind) nodes
    and weights for the weight ``1/sqrt(x - x**2)`` on ``[0, 1]`` (``mu``: pi).

    >>> x, w = roots_sh_chebyt(3)
    >>> round(float(w.sum()), 12) == round(3.141592653589793, 12)
    True
    """)
roots_sh_chebyu = _integer_family("roots_sh_chebyu", """Shifted Chebyshev (second kind)
    nodes and weights for the weight ``sqrt(x - x**2)`` on ``[0, 1]`` (``mu``: pi/8).

    >>> x, w = roots_sh_chebyu(3)
    >>> round(float(w.sum()), 12) == round(3.141592653589793 / 8, 12)
    True
    """)


# --- the families with continuous parameters -------------------------------------------------

def _traced(*values: Any) -> bool:
    return any(isinstance(v, _Tracer) for v in values)


def _check(function: str, ok: Callable[..., bool], message: str, *values: Any) -> None:
    """SciPy's domain check, where the values are known (under vmap and jit they are
    not: outside the domain the nodes are then NaN, as eigh's of a NaN matrix)."""
    if all(is_concrete(v) for v in values):
        plain = [concrete_values(v, function, "") for v in values]
        if not ok(*plain):
            raise ValueError(f"{function}: {message}")


def _golub_welsch(diagonal: Any, off_squared: Any, mu0: Any) -> tuple[Any, Any]:
    """Nodes and weights of the Jacobi matrix with ``diagonal`` and squared off-diagonal
    ``off_squared`` (``n - 1`` entries), the weight's integral ``mu0``."""
    n = diagonal.shape[0]
    matrix = fnp.diag(diagonal)
    if n > 1:
        off = fnp.sqrt(off_squared)
        matrix = matrix + fnp.diag(off, 1) + fnp.diag(off, -1)
    nodes, vectors = fnp.linalg.eigh(matrix)
    return nodes, fnp.square(vectors[0]) * mu0


def _float(x: Any) -> Any:
    return fnp.astype(fnp.asarray(x), np.float64)


def _jacobi_traced(n: int, a: Any, b: Any) -> tuple[Any, Any, Any]:
    a, b = _float(a), _float(b)
    s = a + b
    k = np.arange(1.0, n)  # (the rows after the first)
    t = 2.0 * k + s
    # (the first entries alone: their general forms are 0/0 where a + b = 0 or -1)
    diagonal = fnp.concatenate([fnp.reshape((b - a) / (s + 2.0), (1,)),
                                (b * b - a * a) / (t * (t + 2.0))])
    first = 4.0 * (a + 1.0) * (b + 1.0) / (fnp.square(s + 2.0) * (s + 3.0))
    j = k[1:]
    u = 2.0 * j + s
    rest = 4.0 * j * (j + a) * (j + b) * (j + s) / (fnp.square(u) * (u + 1.0) * (u - 1.0))
    off_squared = fnp.concatenate([fnp.reshape(first, (1,)), rest])[:n - 1]
    mu0 = fnp.exp((s + 1.0) * math.log(2.0) + _sp.gammaln(a + 1.0) + _sp.gammaln(b + 1.0)
                  - _sp.gammaln(s + 2.0))
    x, w = _golub_welsch(diagonal, off_squared, mu0)
    return x, w, mu0


def _jacobi_ok(a: Any, b: Any) -> bool:
    return bool(np.all(a > -1) and np.all(b > -1))


def roots_jacobi(n: int, alpha: Any, beta: Any, mu: bool = False) -> Any:
    """Gauss-Jacobi nodes and weights for the weight ``(1 - x)**alpha (1 + x)**beta`` on
    ``[-1, 1]`` (``alpha, beta > -1``; ``mu``: its integral).  Differentiable in
    ``alpha`` and ``beta`` (Golub-Welsch with ``eigh`` on traced parameters; SciPy's
    values on plain ones).

    >>> import math, funcgrad as fg
    >>> d = fg.grad(lambda a: roots_jacobi(3, a, 0.0)[1].sum())(0.0)  # mu0 = 2**(a+1)/(a+1)
    >>> round(float(d), 12) == round(2 * (math.log(2) - 1), 12)
    True
    """
    m = _degree("roots_jacobi", n)
    _check("roots_jacobi", _jacobi_ok, "alpha and beta must be greater than -1", alpha, beta)
    if _traced(alpha, beta):
        x, w, m0 = _jacobi_traced(m, alpha, beta)
    else:
        x, w, m0 = _scipy_roots("roots_jacobi")(m, alpha, beta)
    return (x, w, m0) if mu else (x, w)


def roots_sh_jacobi(n: int, p1: Any, q1: Any, mu: bool = False) -> Any:
    """Shifted Gauss-Jacobi nodes and weights on ``[0, 1]`` for the weight
    ``(1 - x)**(p1 - q1) x**(q1 - 1)`` (``p1 - q1 > -1``, ``q1 > 0``): Jacobi's with
    ``alpha = p1 - q1``, ``beta = q1 - 1``, mapped to ``[0, 1]``.  Differentiable in
    ``p1`` and ``q1``.

    >>> x, w = roots_sh_jacobi(2, 1.0, 1.0)  # the weight 1: shifted Legendre
    >>> round(float(w.sum()), 12)
    1.0
    """
    m = _degree("roots_sh_jacobi", n)
    _check("roots_sh_jacobi", lambda p, q: bool(np.all(p - q > -1) and np.all(q > 0)),
           "(p - q) must be greater than -1, and q must be greater than 0", p1, q1)
    if not _traced(p1, q1):
        x, w, m0 = _scipy_roots("roots_sh_jacobi")(m, p1, q1)
        return (x, w, m0) if mu else (x, w)
    p1, q1 = _float(p1), _float(q1)
    x, w, m0 = _jacobi_traced(m, p1 - q1, q1 - 1.0)
    scale = fnp.exp(p1 * -math.log(2.0))
    x, w, m0 = (x + 1.0) * 0.5, w * scale, m0 * scale
    return (x, w, m0) if mu else (x, w)


def roots_genlaguerre(n: int, alpha: Any, mu: bool = False) -> Any:
    """Generalised Gauss-Laguerre nodes and weights for the weight ``x**alpha exp(-x)`` on
    ``[0, inf)`` (``alpha > -1``; ``mu``: ``Gamma(alpha + 1)``).  Differentiable in
    ``alpha``.

    >>> import math, funcgrad as fg
    >>> d = fg.grad(lambda a: roots_genlaguerre(2, a)[0].sum())(0.5)  # sum of nodes 2(2+a)
    >>> round(float(d), 10)
    2.0
    """
    m = _degree("roots_genlaguerre", n)
    _check("roots_genlaguerre", lambda a: bool(np.all(a > -1)),
           "alpha must be greater than -1", alpha)
    if not _traced(alpha):
        x, w, m0 = _scipy_roots("roots_genlaguerre")(m, alpha)
        return (x, w, m0) if mu else (x, w)
    a = _float(alpha)
    k = np.arange(float(m))
    mu0 = fnp.exp(_sp.gammaln(a + 1.0))
    x, w = _golub_welsch(2.0 * k + a + 1.0, k[1:] * (k[1:] + a), mu0)
    return (x, w, mu0) if mu else (x, w)


def roots_gegenbauer(n: int, alpha: Any, mu: bool = False) -> Any:
    """Gauss-Gegenbauer nodes and weights for the weight ``(1 - x**2)**(alpha - 1/2)`` on
    ``[-1, 1]`` (``alpha > -1/2``; ``mu``: ``sqrt(pi) Gamma(alpha + 1/2) / Gamma(alpha +
    1)``).  Differentiable in ``alpha`` (Jacobi's with ``alpha - 1/2`` twice).

    >>> x, w = roots_gegenbauer(2, 1.0)  # the weight sqrt(1 - x**2): Chebyshev U's nodes
    >>> [round(float(v), 12) for v in x]
    [-0.5, 0.5]
    """
    m = _degree("roots_gegenbauer", n)
    _check("roots_gegenbauer", lambda a: bool(np.all(a >= -0.5)),
           "alpha must be greater than -0.5", alpha)
    if not _traced(alpha):
        x, w, m0 = _scipy_roots("roots_gegenbauer")(m, alpha)
        return (x, w, m0) if mu else (x, w)
    half = _float(alpha) - 0.5
    x, w, m0 = _jacobi_traced(m, half, half)
    return (x, w, m0) if mu else (x, w)


# SciPy's short names
p_roots, t_roots, u_roots, c_roots, s_roots = (roots_legendre, roots_chebyt, roots_chebyu,
                                               roots_chebyc, roots_chebys)
j_roots, l_roots, la_roots, h_roots, he_roots = (roots_jacobi, roots_laguerre,
                                                 roots_genlaguerre, roots_hermite,
                                                 roots_hermitenorm)
cg_roots, ps_roots, ts_roots, us_roots, js_roots = (roots_gegenbauer, roots_sh_legendre,
                                                    roots_sh_chebyt, roots_sh_chebyu,
                                                    roots_sh_jacobi)
