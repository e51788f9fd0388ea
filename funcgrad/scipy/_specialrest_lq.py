"""The Legendre functions of the second kind of :mod:`funcgrad.scipy.special`: ``lqn``
(``Q_0..Q_n`` and their derivatives) and ``lqmn`` (``Q_k^j`` for orders ``0..m``, degrees
``0..n``).  Their values are SciPy's (through ``fg.pure_callback``, so under ``jit`` and
``vmap`` too); the derivative of ``Q`` is SciPy's second output ``Q'``, and that of ``Q'``
comes from Legendre's equation ``(1 - z**2) Q'' - 2z Q' + (k(k+1) - j**2/(1 - z**2)) Q = 0``
(DLMF 14.2.1), written with these functions again, so every order follows.  At
``z = +-1`` SciPy's values are its stand-in ``1e300`` for infinity.
"""
import functools
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..custom._decorators import _casting_custom_jvp as _custom_jvp  # (own rules: cast)
from ..typing import Array, ArrayLike

__all__ = ["lqn", "lqmn"]


def _size(name: str, what: str, value: Any) -> int:
    array = np.asarray(value)
    if (isinstance(value, bool) or array.ndim or array.dtype.kind not in "iuf"
            or array != np.floor(array) or array < 0):
        raise ValueError(f"{name}: {what} must be a non-negative integer, got {value!r}")
    return int(array)


def _argument(z: ArrayLike) -> Array:
    z = fnp.asarray(z)
    if z.dtype.kind not in "fc":
        z = fnp.astype(z, np.float64)
    # (SciPy's results: float64 for real z, complex128 for complex z)
    return fnp.astype(z, np.complex128 if z.dtype.kind == "c" else np.float64)


@functools.partial(_custom_jvp, nondiff_argnums=(0, 1))
def _table(m, n, z):
    """``(Q, Q')``: SciPy's ``lqmn(m, n, z)``, shape ``(m + 1, n + 1, *z.shape)``, or with
    ``m=None`` its ``lqn(n, z)`` (another routine, whose values differ in the last
    digits), shape ``(n + 1, *z.shape)``."""
    def scipys(z):
        import scipy.special  # (here: importing funcgrad never loads SciPy)
        q, qd = scipy.special.lqn(n, z) if m is None else scipy.special.lqmn(m, n, z)
        return np.asarray(q, z.dtype), np.asarray(qd, z.dtype)
    orders = () if m is None else (m + 1,)
    like = np.zeros(orders + (n + 1,) + tuple(z.shape), z.dtype)
    return pure_callback(scipys, (like, like), z, vmap_method="sequential")


@_table.defjvp
def _table_jvp(m, n, primals, tangents):
    z, = primals
    t, = tangents
    q, qd = _table(m, n, z)
    k = np.arange(n + 1, dtype=float).reshape((n + 1,) + (1,) * z.ndim)
    w = 1.0 - z * z
    if m is None:
        qdd = (2.0 * z * qd - k * (k + 1.0) * q) / w
    else:
        j = np.arange(m + 1, dtype=float).reshape((m + 1, 1) + (1,) * z.ndim)
        qdd = (2.0 * z * qd - (k * (k + 1.0) - j * j / w) * q) / w
    return (q, qd), (qd * t, qdd * t)


def lqn(n: int, z: ArrayLike) -> tuple[Array, Array]:
    """``(Q, Q')``: the Legendre functions of the second kind ``Q_0(z)..Q_n(z)`` and their
    derivatives, shape ``(n + 1, *z.shape)``, as ``scipy.special.lqn`` (SciPy's values);
    differentiable in ``z`` (real or complex: holomorphic).

    >>> import funcgrad as fg
    >>> q, qd = lqn(1, 0.5)
    >>> round(float(q[0]), 12), round(float(fg.grad(lambda z: lqn(1, z)[0][0])(0.5)), 12)
    (0.549306144334, 1.333333333333)
    """
    return _table(None, _size("lqn", "n", n), _argument(z))


def lqmn(m: int, n: int, z: ArrayLike) -> tuple[Array, Array]:
    """``(Q, Q')``: the associated Legendre functions of the second kind ``Q_k^j(z)`` for
    orders ``j = 0..m`` and degrees ``k = 0..n`` and their derivatives, shape
    ``(m + 1, n + 1, *z.shape)``, as ``scipy.special.lqmn`` (SciPy's values; for
    ``|z| > 1`` its functions without the phase); differentiable in ``z``.

    >>> q, qd = lqmn(1, 1, 0.5)
    >>> q.shape, round(float(q[1, 0]), 12)  # -1 / sqrt(1 - z**2)
    ((2, 2), -1.154700538379)
    """
    m, n = _size("lqmn", "m", m), _size("lqmn", "n", n)
    return _table(m, n, _argument(z))
