"""The derivative of the extra columns of LAPACK's complete QR (``m > n``).

``numpy.linalg.qr(a, 'complete')`` returns ``Q = H_1 H_2 ... H_n`` (``geqrf`` + ``orgqr``)
with ``H_i = I - tau_i v_i v_i^H`` and ``v_i`` zero above row ``i``, ``v_i[i] = 1``.  Its
columns past the ``n``-th, ``Q2 = Q[:, n:]``, complete ``Q1 = Q[:, :n]`` to a unitary
matrix; of all such completions LAPACK's is the one fixed by the reflectors, and it is a
smooth function of ``a`` (where no reflector is the identity, see below).

The product has the compact WY form ``Q = I - V T V^H`` (``V`` the m x n unit lower
trapezoidal matrix of the ``v_i``, ``T`` upper triangular with diagonal ``tau_i``), so
``Q - I`` maps everything into the span of ``V``, which is the span of ``Q1 - E1``
(``E1`` the first ``n`` columns of the identity) when ``T`` is invertible.  Hence ``Q2 - E2
= (Q1 - E1) X`` for some ``X``, and ``Q1^H Q2 = 0`` fixes it:

    Q2 = E2 - (Q1 - E1) W,    W = M^-1 Q21^H,    M = I - Q11^H

(``Q11``, ``Q21``: the first ``n`` and the remaining rows of ``Q1``; ``E2`` the last
``m - n`` columns of the identity).  So ``Q2`` is a function of ``Q1`` alone, and its
derivative follows from ``dQ1`` (whose rule is QR's usual one):

    dQ2 = -dQ1 W - (Q1 - E1) M^-1 (dQ11^H W + dQ21^H).

``det M = conj(prod tau_i)``, and LAPACK's ``larfg`` gives ``|tau_i| >= Re tau_i >= 1``
unless the column below the diagonal is already exactly zero, where it takes ``tau_i = 0``
(``H_i = I``) and its output jumps (nearby, ``tau_i`` is close to 2): there neither ``M``
is invertible nor the derivative exists, and first derivatives refuse where the values
are known (``_check_reflectors`` in :mod:`.decompositions`, which reads LAPACK's tau).
"""
import numpy as np

from .elementwise import conj
from .indexing import index
from .products import matmul, swap
from .solves import solve
from .structural import concatenate

__all__ = ["complement_tangent", "complement_cotangent"]


def _adj(x):
    return conj(swap(x)) if np.dtype(x.dtype).kind == "c" else swap(x)


def _rows(x, start, stop):
    return index(x, (Ellipsis, slice(start, stop), slice(None)))


def _parts(q1):
    """``(M, W, P)`` of the module docstring for ``q1`` (m x n), ``P = (Q1 - E1) M^-1``."""
    m, n = q1.shape[-2:]
    mat = np.eye(n, dtype=q1.dtype) - _adj(_rows(q1, 0, n))
    w = solve(mat, _adj(_rows(q1, n, m)))
    shifted = q1 - np.eye(m, n, dtype=q1.dtype)
    return mat, w, _adj(solve(_adj(mat), _adj(shifted)))


def complement_tangent(q1, dq1):
    """``dQ2``, the tangent of LAPACK's extra columns, from ``Q1`` and its tangent."""
    m, n = q1.shape[-2:]
    _, w, p = _parts(q1)
    turned = matmul(_adj(_rows(dq1, 0, n)), w) + _adj(_rows(dq1, n, m))
    return -(matmul(dq1, w) + matmul(p, turned))


def complement_cotangent(q1, g2):
    """The Hermitian adjoint of :func:`complement_tangent` in ``dq1``, under the real
    pairing ``Re tr(g^H dq)``: ``-g2 W^H - [W; I] g2^H P``."""
    _, w, p = _parts(q1)
    h = matmul(_adj(g2), p)
    return -(matmul(g2, _adj(w)) + concatenate([matmul(w, h), h], h.ndim - 2))
