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
is invertible nor the derivative exists, and derivatives refuse where the values are
known (:func:`check_reflectors`).
"""
import numpy as np

from ..core import known_value
from .elementwise import conj
from .indexing import index
from .products import matmul, swap
from .solves import solve
from .structural import concatenate

__all__ = ["check_reflectors", "complement_tangent", "complement_cotangent"]


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


def check_reflectors(a):
    """Refuse, saying why, where one of LAPACK's reflectors of ``a`` is the identity
    (values known here only: not under jit/vmap, not on a GPU).

    The test reads LAPACK's own tau: ``np.linalg.qr(mode="raw")`` runs the same geqrf on
    the same converted input as the forward, so ``tau_i == 0`` is exactly its ``H_i = I``
    (one more geqrf).  ``|det M|`` from Q is not exact: it is 0 or at least 1, but the
    rounding in Q is multiplied by the other ``|tau_i|`` (each up to 2), and at nearly
    triangular matrices with one exactly zero subdiagonal entry it came out above 1 at
    30 x 30 float32 (7.2) and 60 x 60 float64 (14).
    """
    value = known_value(a)
    if type(value) is not np.ndarray or value.size == 0:
        return
    if np.any(np.linalg.qr(value, mode="raw")[1] == 0):
        raise np.linalg.LinAlgError(
            "qr: the derivative of Q's extra columns (mode='complete' with M > N) does not "
            "exist here: a Householder reflector is the identity, and LAPACK's Q jumps at "
            "this matrix. When LAPACK reduces some column, its part below the diagonal is "
            "already exactly zero (as in any upper-triangular matrix) and, in a complex "
            "matrix, its diagonal entry real; any perturbation of those zeros (or of that "
            "imaginary part) flips the sign of R's diagonal entry and of Q's column there. "
            "Differentiate at a nearby matrix (e.g. add small random values below the "
            "diagonal), or use mode='reduced' where a function of Q1 and R that does not "
            "depend on those signs is what you differentiate.")


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
