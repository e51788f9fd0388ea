"""SciPy's associated Legendre functions and all spherical harmonics in
:mod:`funcgrad.scipy.special`: ``assoc_legendre_p``, ``assoc_legendre_p_all`` and
``sph_harm_y_all`` (SciPy 1.15's names and ``diff_n``).

``assoc_legendre_p*`` are the recurrences of the normalized functions written with
``funcgrad.numpy`` (so they are differentiable in ``z``, and run under ``jit``/``vmap``):
the diagonal ``Pbar_k^k = s sqrt((2k+1)/(2k)) w Pbar_{k-1}^{k-1}`` from
``Pbar_0^0 = 1/sqrt(2)``, then up each column
``Pbar_d^k = a (z Pbar_{d-1}^k - b Pbar_{d-2}^k)`` with ``a = sqrt((4d**2 - 1)/(d**2 - k**2))``,
``b = sqrt(((d-1)**2 - k**2)/(4(d-1)**2 - 1))``.  ``branch_cut=2`` (``|z| <= 1``, SciPy's
default) takes ``w = sqrt(1 - z**2)`` and the Condon-Shortley phase ``s = -1``;
``branch_cut=3`` (``|z| > 1``) ``w = sqrt(z + 1) sqrt(z - 1)`` and ``s = +1``.  The
unnormalized functions (``norm=False``) are those times
``sqrt(2/(2n+1) (n+k)!/(n-k)!)`` (from ``lgamma``: no factorial overflows before the
value does); negative orders are ``Pbar_n^-k = s**k Pbar_n^k``.  ``diff_n``'s
derivatives in ``z`` are forward-mode derivatives of the recurrence (infinite at
``z = +-1`` for ``k != 0``, as SciPy's).

``sph_harm_y_all`` is ``sph_legendre_p_all(n, m, theta) exp(i k phi)``; with ``diff_n``
it returns SciPy's tuple: the values, the gradient in ``(theta, phi)`` on a last axis
and, for ``diff_n=2``, the Hessian on two last axes.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike
from ._special_legendre import _degree, _with_derivatives, sph_legendre_p_all

__all__ = ["assoc_legendre_p", "assoc_legendre_p_all", "sph_harm_y_all"]


def _branch(name, branch_cut):
    if branch_cut not in (2, 3):
        raise ValueError(f"{name}: branch_cut must be 2 (|z| <= 1, the default) or 3 "
                         f"(|z| > 1), as SciPy's; got {branch_cut!r}")
    return branch_cut


def _operand(z):
    z = fnp.asarray(z)
    if z.dtype.kind == "c":
        return fnp.astype(z, np.complex128)
    return fnp.astype(z, np.float64)  # (SciPy's results are float64 for any real input)


def _scale(top, order, norm, phase):
    """The factor of each ``(degree, order index)``: ``phase**k`` for negative orders,
    times the unnormalization for ``norm=False``; 0 where ``|k| > degree``."""
    width = 2 * order + 1
    sign = np.zeros((top + 1, width))
    log = np.zeros((top + 1, width))
    for d in range(top + 1):
        for index in range(width):
            k = index if index <= order else index - width
            if abs(k) <= d:
                sign[d, index] = phase ** abs(k) if k < 0 else 1.0
                log[d, index] = 0.5 * (math.log(2.0 / (2 * d + 1)) + math.lgamma(d + k + 1)
                                       - math.lgamma(d - k + 1))
    if norm:
        return sign
    with np.errstate(over="ignore"):  # (inf where the value itself overflows)
        return sign * np.exp(log)


def _table(top, order, z, branch_cut, norm):
    """The table ``(top + 1, 2 order + 1, *z.shape)`` of ``P_d^k(z)`` (order ``k`` at
    index ``k`` mod ``2 order + 1``, SciPy's layout)."""
    # (NaN outside the branch's real domain, as SciPy's, without NumPy's warning)
    with np.errstate(invalid="ignore"):
        if branch_cut == 2:
            w, phase = fnp.sqrt(1.0 - z * z), -1.0
        else:
            w, phase = fnp.sqrt(z + 1.0) * fnp.sqrt(z - 1.0), 1.0
    zero = fnp.zeros_like(z)
    diagonal = fnp.full_like(z, math.sqrt(0.5))
    columns = {}
    for k in range(order + 1):
        if k:
            diagonal = phase * math.sqrt((2 * k + 1) / (2 * k)) * w * diagonal
        column = [zero] * (top + 1)
        if k <= top:
            column[k] = diagonal
            if k + 1 <= top:
                column[k + 1] = math.sqrt(2 * k + 3) * z * diagonal
            for d in range(k + 2, top + 1):
                a = math.sqrt((4 * d * d - 1) / (d * d - k * k))
                b = math.sqrt(((d - 1) ** 2 - k * k) / (4 * (d - 1) ** 2 - 1))
                column[d] = a * (z * column[d - 1] - b * column[d - 2])
        columns[k] = column
    width = 2 * order + 1
    table = fnp.stack([fnp.stack([columns[abs(i if i <= order else i - width)][d]
                                  for i in range(width)]) for d in range(top + 1)])
    scale = _scale(top, order, norm, phase).reshape((top + 1, width) + (1,) * z.ndim)
    with np.errstate(over="ignore"):  # (past float64: inf, where SciPy's is NaN)
        return table * scale


def assoc_legendre_p_all(n: int, m: int, z: ArrayLike, *, branch_cut: int = 2,
                         norm: bool = False, diff_n: int = 0) -> Array:
    """The associated Legendre functions of degrees 0 to ``n`` and orders ``-m`` to ``m``
    at ``z`` (order ``k`` at index ``k`` mod ``2m + 1``) and their first ``diff_n``
    derivatives in ``z``, shape ``(diff_n + 1, n + 1, 2m + 1, *z.shape)``, as
    ``scipy.special.assoc_legendre_p_all``; ``branch_cut`` 2 (``|z| <= 1``, with the
    Condon-Shortley phase) or 3 (``|z| > 1``), ``norm=True`` normalized.  Differentiable
    in ``z``.

    >>> import numpy as np
    >>> np.round(assoc_legendre_p_all(1, 1, 0.5)[0], 6) + 0.0
    array([[ 1.      ,  0.      ,  0.      ],
           [ 0.5     , -0.866025,  0.433013]])
    """
    top = int(_degree("assoc_legendre_p_all", n))
    order = int(_degree("assoc_legendre_p_all", m, "m"))
    if top < 0 or order < 0:
        raise ValueError("assoc_legendre_p_all: n and m must be >= 0")
    _branch("assoc_legendre_p_all", branch_cut)
    z = _operand(z)
    return _with_derivatives(lambda t: _table(top, order, t, branch_cut, bool(norm)), z,
                             diff_n, "assoc_legendre_p_all")


def assoc_legendre_p(n: ArrayLike, m: ArrayLike, z: ArrayLike, *, branch_cut: int = 2,
                     norm: bool = False, diff_n: int = 0) -> Array:
    """The associated Legendre function ``P_n^m(z)`` (0 where ``|m| > n``) and its first
    ``diff_n`` derivatives in ``z``, stacked on a first axis, ``n``, ``m`` and ``z``
    broadcast, as ``scipy.special.assoc_legendre_p`` (``branch_cut`` and ``norm`` as
    :func:`assoc_legendre_p_all`); differentiable in ``z``.

    >>> import funcgrad as fg
    >>> assoc_legendre_p(2, 1, 0.5)  # -3 z sqrt(1 - z**2)
    array([-1.29903811])
    >>> round(float(fg.grad(lambda z: assoc_legendre_p(2, 0, z)[0])(0.5)), 12)  # 3 z
    1.5
    """
    degrees = _degree("assoc_legendre_p", n)
    orders = _degree("assoc_legendre_p", m, "m")
    if np.any(degrees < 0):
        raise ValueError("assoc_legendre_p: n must be >= 0")
    _branch("assoc_legendre_p", branch_cut)
    z = _operand(z)
    shape = np.broadcast_shapes(degrees.shape, orders.shape, tuple(z.shape))
    top = int(degrees.max()) if degrees.size else 0
    order = min(int(np.abs(orders).max()) if orders.size else 0, top)
    degrees, orders = np.broadcast_to(degrees, shape), np.broadcast_to(orders, shape)
    inside = np.abs(orders) <= degrees
    width = 2 * order + 1
    flat = np.where(inside, degrees, 0) * width + np.where(inside, orders, 0) % width

    def value(t):
        table = _table(top, order, fnp.broadcast_to(t, shape), branch_cut, bool(norm))
        rows = fnp.reshape(table, ((top + 1) * width,) + shape)
        picked = fnp.take_along_axis(rows, flat[None], axis=0)[0]
        return fnp.where(inside, picked, 0.0)
    return _with_derivatives(value, z, diff_n, "assoc_legendre_p")


def sph_harm_y_all(n: int, m: int, theta: ArrayLike, phi: ArrayLike, *,
                   diff_n: int = 0) -> "Array | tuple[Array, ...]":
    """The spherical harmonics ``Y_d^k(theta, phi)`` of degrees 0 to ``n`` and orders
    ``-m`` to ``m`` (order ``k`` at index ``k`` mod ``2m + 1``), complex, shape
    ``(n + 1, 2m + 1, *shape)``, as ``scipy.special.sph_harm_y_all`` (polar angle
    ``theta``, azimuth ``phi``).  With ``diff_n=1`` SciPy's tuple ``(Y, dY)``, the
    gradient in ``(theta, phi)`` on a last axis; ``diff_n=2`` adds the Hessian on two
    last axes.  Differentiable in ``theta`` and ``phi``.

    >>> import numpy as np
    >>> y = sph_harm_y_all(1, 1, 0.0, 0.0)
    >>> y.shape, round(float(y[0, 0].real), 12)  # (1 / (2 sqrt(pi)))
    ((2, 3), 0.282094791774)
    """
    top = int(_degree("sph_harm_y_all", n))
    order = int(_degree("sph_harm_y_all", m, "m"))
    if int(diff_n) != diff_n or not 0 <= diff_n <= 2:
        raise ValueError(f"sph_harm_y_all: diff_n must be 0, 1 or 2 (SciPy's), got "
                         f"{diff_n!r}")
    theta, phi = _operand(theta), _operand(phi)
    shape = np.broadcast_shapes(tuple(theta.shape), tuple(phi.shape))
    theta, phi = fnp.broadcast_to(theta, shape), fnp.broadcast_to(phi, shape)
    legendre = sph_legendre_p_all(top, order, theta, diff_n=diff_n)
    width = 2 * order + 1
    k = np.array([i if i <= order else i - width for i in range(width)], dtype=float)
    k = k.reshape((1, width) + (1,) * len(shape))
    turn = fnp.exp(1j * (k * phi))  # (exp(i k phi), broadcast over the degrees)
    ik = 1j * k
    y = legendre[0] * turn
    if diff_n == 0:
        return y
    dy = fnp.stack([legendre[1] * turn, ik * y], axis=-1)
    if diff_n == 1:
        return y, dy
    d_theta_phi = ik * legendre[1] * turn
    hessian = fnp.stack([fnp.stack([legendre[2] * turn, d_theta_phi], axis=-1),
                         fnp.stack([d_theta_phi, ik * ik * y], axis=-1)], axis=-2)
    return y, dy, hessian
