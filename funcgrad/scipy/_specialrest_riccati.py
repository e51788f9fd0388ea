"""The Riccati-Bessel functions of :mod:`funcgrad.scipy.special`: ``riccati_jn`` and
``riccati_yn``, ``x j_k(x)`` and ``x y_k(x)`` for ``k = 0..n`` with their derivatives
``j_k + x j_k'`` (``y_k + x y_k'``), written with the spherical Bessel functions (SciPy's
values, :mod:`._special_orders`), so they differentiate in ``x`` at every order.  Their
values agree with SciPy's ``riccati_jn``/``riccati_yn`` (its own recurrence) to a few
units in the last place; at ``x = 0`` ``riccati_yn`` returns SciPy's values there
(``-1`` and ``-1e300`` for the function, ``0`` and ``1e300`` for the derivative)."""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike
from ._special_orders import spherical_jn, spherical_yn

__all__ = ["riccati_jn", "riccati_yn"]


def _arguments(name: str, n: Any, x: ArrayLike) -> tuple[np.ndarray, Array]:
    if not (np.ndim(n) == 0 and np.ndim(x) == 0):
        raise ValueError(f"{name}(n, x): n and x must be scalars, as SciPy's (n an int >= 0, "
                         f"x a float); for arrays of x use fg.vmap")
    if not (isinstance(n, (int, np.integer)) or (np.asarray(n).dtype.kind == "f"
                                                 and float(n) == int(n))) or int(n) < 0:
        raise ValueError(f"{name}(n, x): n must be a non-negative integer, got {n!r}")
    x = fnp.asarray(x)
    if x.dtype.kind == "c":
        raise TypeError(f"{name}(n, x): complex x is not supported, as in scipy.special; "
                        f"pass a real x")
    return np.arange(int(n) + 1), fnp.astype(x, np.float64)


def riccati_jn(n: int, x: ArrayLike) -> tuple[Array, Array]:
    """``(S, S')``: the Riccati-Bessel functions ``S_k(x) = x j_k(x)`` of the first kind
    for ``k = 0..n`` and their derivatives, two arrays of ``n + 1``, as
    ``scipy.special.riccati_jn`` (``n`` and ``x`` scalars); differentiable in ``x``.

    >>> import funcgrad as fg, funcgrad.numpy as fnp
    >>> s, ds = riccati_jn(1, 1.0)
    >>> round(float(s[0]), 12), round(float(ds[0]), 12)  # sin(1), cos(1)
    (0.841470984808, 0.540302305868)
    >>> round(float(fg.grad(lambda x: riccati_jn(1, x)[0][0])(1.0)), 12)
    0.540302305868
    """
    k, x = _arguments("riccati_jn", n, x)
    j = spherical_jn(k, x)
    return x * j, j + x * spherical_jn(k, x, derivative=True)


def riccati_yn(n: int, x: ArrayLike) -> tuple[Array, Array]:
    """``(C, C')``: the Riccati-Bessel functions ``C_k(x) = x y_k(x)`` of the second kind
    for ``k = 0..n`` and their derivatives, as ``scipy.special.riccati_yn``;
    differentiable in ``x``.

    >>> c, dc = riccati_yn(1, 1.0)
    >>> round(float(c[0]), 12), round(float(dc[0]), 12)  # -cos(1), sin(1)
    (-0.540302305868, 0.841470984808)
    """
    k, x = _arguments("riccati_yn", n, x)
    zero = fnp.equal(x, 0.0)
    safe = fnp.where(zero, 1.0, x)  # (the double where: y_k(0) is -inf)
    y = spherical_yn(k, safe)
    value = safe * y
    slope = y + safe * spherical_yn(k, safe, derivative=True)
    # (SciPy's values at 0: x y_0(x) = -cos(x) is -1, the others its stand-in for -inf)
    at_zero = np.where(k == 0, -1.0, -1e300), np.where(k == 0, 0.0, 1e300)
    return fnp.where(zero, at_zero[0], value), fnp.where(zero, at_zero[1], slope)
