"""SciPy's Legendre functions of the first kind in :mod:`funcgrad.scipy.special`:
``legendre_p``, ``legendre_p_all``, ``sph_legendre_p`` and ``sph_legendre_p_all``.

Each is its three-term recurrence in degree written with ``funcgrad.numpy``, so it is
differentiable (and runs under ``jit``/``vmap``) in ``z`` or ``theta``; ``diff_n``'s
derivatives, which SciPy returns stacked on a first axis, are forward-mode derivatives of
that recurrence.  The degree ``n`` and order ``m`` are integers.  The spherical ones are
normalized, with the Condon-Shortley phase, as SciPy's: ``P_n^m(cos theta)`` times
``sqrt((2n + 1)/(4 pi) (n - m)!/(n + m)!)``, from the recurrence on that normalization
(no factorials).
"""
import math

import numpy as np

from .. import numpy as fnp
from ..forward_mode import jvp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["legendre_p", "legendre_p_all", "sph_legendre_p", "sph_legendre_p_all"]


def _degree(name, n, what="n"):
    value = np.asarray(n)
    if value.dtype.kind not in "biu" and not (value.dtype.kind == "f"
                                                and np.all(value == np.floor(value))):
        raise TypeError(f"{name}: {what} must be an integer (or integers), got {n!r}")
    return value.astype(np.int64)


def _floats(x):
    x = asarray(x)
    return fnp.astype(x, np.float64)  # (SciPy's results are float64 for any real input)


def _with_derivatives(table, x, diff_n, name):
    """``table(x)`` and its first ``diff_n`` derivatives in ``x`` (elementwise), stacked."""
    if int(diff_n) != diff_n or not 0 <= diff_n <= 2:
        raise ValueError(f"{name}: diff_n must be 0, 1 or 2 (SciPy's), got {diff_n!r}")
    ones = fnp.ones_like(x)
    if diff_n == 0:
        return fnp.stack([table(x)])
    if diff_n == 1:
        value, slope = jvp(table, (x,), (ones,))
        return fnp.stack([value, slope])

    def first(t):
        return jvp(table, (t,), (fnp.ones_like(t),))

    (value, slope), (_, curvature) = jvp(first, (x,), (ones,))
    return fnp.stack([value, slope, curvature])


def _legendre_table(top, z):
    """``P_0(z)`` to ``P_top(z)`` stacked (Bonnet's recurrence)."""
    rows = [fnp.ones_like(z), z]
    for k in range(1, top):
        rows.append(((2 * k + 1) * z * rows[k] - k * rows[k - 1]) / (k + 1))
    return fnp.stack(rows[:top + 1])


def legendre_p_all(n: int, z: ArrayLike, *, diff_n: int = 0) -> Array:
    """The Legendre polynomials ``P_0`` to ``P_n`` at ``z`` and their first ``diff_n``
    derivatives, shape ``(diff_n + 1, n + 1, *z.shape)``, as
    ``scipy.special.legendre_p_all``; differentiable in ``z``.

    >>> legendre_p_all(2, 0.5)[0]
    array([ 1.   ,  0.5  , -0.125])
    """
    top = int(_degree("legendre_p_all", n))
    if top < 0:
        raise ValueError(f"legendre_p_all: n must be >= 0, got {n}")
    z = _floats(z)
    return _with_derivatives(lambda t: _legendre_table(top, t), z, diff_n, "legendre_p_all")


def legendre_p(n: ArrayLike, z: ArrayLike, *, diff_n: int = 0) -> Array:
    """The Legendre polynomial ``P_n(z)`` (and its first ``diff_n`` derivatives, stacked
    on a first axis of ``diff_n + 1``), ``n`` and ``z`` broadcast, as
    ``scipy.special.legendre_p``; differentiable in ``z``.

    >>> import funcgrad as fg
    >>> legendre_p(2, 0.5)
    array([-0.125])
    >>> float(fg.grad(lambda z: legendre_p(3, z)[0])(0.5))  # (15 z^2 - 3) / 2
    0.375
    """
    degrees = _degree("legendre_p", n)
    if np.any(degrees < 0):
        raise ValueError("legendre_p: n must be >= 0")
    z = _floats(z)
    shape = np.broadcast_shapes(degrees.shape, tuple(z.shape))
    top = int(degrees.max()) if degrees.size else 0

    def table(t):
        rows = _legendre_table(top, fnp.broadcast_to(t, shape))
        index = np.broadcast_to(degrees, shape)[None]
        return fnp.take_along_axis(rows, index, axis=0)[0]
    return _with_derivatives(table, z, diff_n, "legendre_p")


def _spherical_table(top, order, theta):
    """``Y_n^k(theta, 0)`` for ``n <= top``, ``-order <= k <= order`` (index ``k`` mod
    ``2 order + 1``, SciPy's layout), stacked ``(top + 1, 2 order + 1, ...)``."""
    c, s = fnp.cos(theta), fnp.sin(theta)
    zero = fnp.zeros_like(theta)
    columns = {}
    diagonal = fnp.full_like(theta, 0.5 / math.sqrt(math.pi))  # (Y_0^0)
    for k in range(order + 1):
        if k:
            diagonal = -math.sqrt((2 * k + 1) / (2 * k)) * s * diagonal
        column = [zero] * (top + 1)
        if k <= top:
            column[k] = diagonal
            if k + 1 <= top:
                column[k + 1] = math.sqrt(2 * k + 3) * c * diagonal
            for d in range(k + 2, top + 1):
                a = math.sqrt((4 * d * d - 1) / (d * d - k * k))
                b = math.sqrt(((d - 1) ** 2 - k * k) / (4 * (d - 1) ** 2 - 1))
                column[d] = a * (c * column[d - 1] - b * column[d - 2])
        columns[k] = column
    width = 2 * order + 1
    layout = []
    for index in range(width):
        k = index if index <= order else index - width
        sign = -1.0 if k < 0 and k % 2 else 1.0
        layout.append([sign * v for v in columns[abs(k)]])
    return fnp.stack([fnp.stack([layout[i][d] for i in range(width)]) for d in range(top + 1)])


def sph_legendre_p_all(n: int, m: int, theta: ArrayLike, *, diff_n: int = 0) -> Array:
    """The spherical Legendre functions of degrees 0 to ``n`` and orders ``-m`` to ``m`` at
    the polar angle ``theta`` (order ``k`` at index ``k`` mod ``2m + 1``) and their first
    ``diff_n`` derivatives in ``theta``, shape ``(diff_n + 1, n + 1, 2m + 1,
    *theta.shape)``, as ``scipy.special.sph_legendre_p_all``; differentiable in ``theta``.

    >>> import numpy as np
    >>> np.round(sph_legendre_p_all(1, 1, 0.0)[0], 6) + 0.0  # (at the pole: order 0 only)
    array([[0.282095, 0.      , 0.      ],
           [0.488603, 0.      , 0.      ]])
    """
    top, order = int(_degree("sph_legendre_p_all", n)), int(_degree("sph_legendre_p_all",
                                                                     m, "m"))
    if top < 0 or order < 0:
        raise ValueError("sph_legendre_p_all: n and m must be >= 0")
    theta = _floats(theta)
    return _with_derivatives(lambda t: _spherical_table(top, order, t), theta, diff_n,
                             "sph_legendre_p_all")


def sph_legendre_p(n: ArrayLike, m: ArrayLike, theta: ArrayLike, *, diff_n: int = 0) -> Array:
    """The spherical Legendre function of degree ``n`` and order ``m`` at the polar angle
    ``theta`` (``Y_n^m(theta, 0)``, 0 where ``|m| > n``) and its first ``diff_n``
    derivatives, stacked on a first axis, ``n``, ``m`` and ``theta`` broadcast, as
    ``scipy.special.sph_legendre_p``; differentiable in ``theta``.

    >>> import numpy as np
    >>> np.round(sph_legendre_p(1, 0, 0.0), 6)  # sqrt(3 / (4 pi))
    array([0.488603])
    """
    degrees, orders = _degree("sph_legendre_p", n), _degree("sph_legendre_p", m, "m")
    if np.any(degrees < 0):
        raise ValueError("sph_legendre_p: n must be >= 0")
    theta = _floats(theta)
    shape = np.broadcast_shapes(degrees.shape, orders.shape, tuple(theta.shape))
    top = int(degrees.max()) if degrees.size else 0
    order = min(int(np.abs(orders).max()) if orders.size else 0, top)
    degrees, orders = np.broadcast_to(degrees, shape), np.broadcast_to(orders, shape)
    inside = np.abs(orders) <= degrees
    flat = (np.where(inside, degrees, 0) * (2 * order + 1)
            + np.where(inside, orders, 0) % (2 * order + 1))

    def value(t):
        table = _spherical_table(top, order, fnp.broadcast_to(t, shape))
        rows = fnp.reshape(table, ((top + 1) * (2 * order + 1),) + shape)
        picked = fnp.take_along_axis(rows, flat[None], axis=0)[0]
        return fnp.where(inside, picked, 0.0)
    return _with_derivatives(value, theta, diff_n, "sph_legendre_p")
