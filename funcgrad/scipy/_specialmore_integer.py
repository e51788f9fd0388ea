"""SciPy's integer (combinatorial) functions ``factorial2``, ``factorialk``, ``perm``,
``stirling2`` and ``euler`` for ``funcgrad.scipy.special`` (re-exported there): SciPy's
values and options (``exact=``), no derivative.  A traced argument (under ``grad``,
``jit`` or ``vmap``) raises ``TypeError`` naming a differentiable continuation where one
exists."""
from typing import Any

import numpy as np

from ..typing import ArrayLike
from ._special_more import _integers_only

__all__ = ["factorial2", "factorialk", "perm", "stirling2", "euler"]


def _scipy() -> Any:
    import scipy.special  # (here, so that importing funcgrad never loads SciPy)
    return scipy.special


def factorial2(n: ArrayLike, exact: bool = False, extend: str = "zero") -> Any:
    """The double factorial ``n!! = n (n - 2) (n - 4) ...`` (``scipy.special.factorial2``,
    SciPy's values and options).

    >>> factorial2(7, exact=True), round(float(factorial2(7)), 9)
    (105, 105.0)
    """
    _integers_only("factorial2(n)", (n,), "2**(n/2) gamma(n/2 + 1) sqrt(2/pi) for odd n")
    return _scipy().factorial2(n, exact=exact, extend=extend)


def factorialk(n: ArrayLike, k: int, exact: bool = False, extend: str = "zero") -> Any:
    """The multifactorial ``n (n - k) (n - 2k) ...`` (``scipy.special.factorialk``).

    >>> factorialk(10, 3, exact=True), round(float(factorialk(10, 3)), 9)
    (280, 280.0)
    """
    _integers_only("factorialk(n, k)", (n, k), "a product written with funcgrad.numpy")
    return _scipy().factorialk(n, k, exact=exact, extend=extend)


def perm(N: ArrayLike, k: ArrayLike, exact: bool = False) -> Any:
    """The number of ordered arrangements of ``k`` of ``N`` things, ``N! / (N - k)!``
    (``scipy.special.perm``).

    >>> float(perm(5, 2)), perm(5, 2, exact=True)
    (20.0, 20)
    """
    _integers_only("perm(N, k)", (N, k), "exp(gammaln(N + 1) - gammaln(N - k + 1))")
    return _scipy().perm(N, k, exact=exact)


def stirling2(N: ArrayLike, K: ArrayLike, *, exact: bool = False) -> Any:
    """Stirling numbers of the second kind: the ways to partition ``N`` things into ``K``
    non-empty sets (``scipy.special.stirling2``).

    >>> float(stirling2(4, 2)), stirling2(4, 2, exact=True)
    (7.0, 7)
    """
    _integers_only("stirling2(N, K)", (N, K), "a constant table")
    return _scipy().stirling2(N, K, exact=exact)


def euler(n: int) -> np.ndarray:
    """The Euler numbers ``E_0`` to ``E_n`` (``scipy.special.euler``), a float64 array.

    >>> euler(4)
    array([ 1.,  0., -1.,  0.,  5.])
    """
    _integers_only("euler(n)", (n,), "a constant table")
    return _scipy().euler(n)
