"""More decompositions of ``funcgrad.scipy.linalg``: ``eigvals``, ``polar``,
``orthogonal_procrustes``, ``rq``, ``hessenberg``, ``cdf2rdf``, composed of
differentiable funcgrad operations.

* ``polar``: SciPy's values (``u = W Vh`` from the SVD).  Its derivative is a rule of
  its own (a JVP): with ``X = u^H da``, ``u^H du = Omega`` solves ``Omega p + p Omega =
  X - X^H`` (divided by ``s_i + s_j`` in ``p``'s eigenbasis), ``dp`` is the Hermitian
  rest, and the part of ``du`` outside ``u``'s range is ``(da - u X) p^-1``.  Through the
  SVD's own derivative it would be wrong where singular values tie (``u`` is unique there;
  the SVD's vectors are not).  Wide matrices (``side='right'``) and tall ones
  (``side='left'``) take the rule of the other side.  Rank-deficient matrices, where
  ``u`` is not unique, raise when differentiated.
* ``rq``: the QR factorization of ``a`` flipped and transposed, flipped back: LAPACK's
  reflectors in the same order, so SciPy's signs; derivatives are ``qr``'s.
* ``hessenberg``: LAPACK's unblocked Householder reduction (``gehd2``, ``larfg``'s
  reflector signs) written with funcgrad operations.  Where a column is already reduced
  (LAPACK's identity reflector) the reduction jumps under perturbation, and a derivative
  there raises.
* ``cdf2rdf``: indexing and a constant complex matrix; the pairing of conjugate
  eigenvalues is read from the values (not under ``vmap``/``jit``).
"""
import functools
from typing import Any, Literal, Optional, Union, cast

import numpy as np

from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import Array, ArrayLike
from ._linalg_tools import adjoint, as_float, no_derivative, over_batch
from ._spectral import eig

__all__ = ["eigvals", "polar", "orthogonal_procrustes", "rq", "hessenberg", "cdf2rdf"]



def eigvals(a: ArrayLike, b: Optional[ArrayLike] = None, overwrite_a: bool = False,
            check_finite: bool = True, homogeneous_eigvals: bool = False) -> Array:
    """The eigenvalues of ``a`` (of the pencil ``(a, b)`` with ``b``), complex, in SciPy's
    order: ``eig(a, b, right=False)`` (``scipy.linalg.eigvals``), derivatives included;
    stacks too.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> fsl.eigvals(np.array([[2.0, 1.0], [0.0, 3.0]]))
    array([2.+0.j, 3.+0.j])
    >>> fg.grad(lambda a: fsl.eigvals(a).real[1])(np.array([[2.0, 1.0], [0.0, 3.0]]))
    array([[0., 0.],
           [1., 1.]])
    """
    return cast(Array, eig(a, b, left=False, right=False,
                           homogeneous_eigvals=homogeneous_eigvals))


# --- the polar decomposition ------------------------------------------------------------------

def _tall_tangents(a, da, name):
    """``(u, p, du, dp)`` of the right polar decomposition of a tall (m >= n), full-rank
    ``a`` along ``da`` (see the module docstring)."""
    w, s, vh = fnp.linalg.svd(a, full_matrices=False)
    if is_concrete(s) and s.shape[0]:
        values = concrete_values(s, name, "")
        if not values[-1] > max(a.shape) * np.finfo(values.dtype).eps * values[0]:
            raise ValueError(
                f"{name}: the matrix is rank-deficient (a zero singular value), where the "
                f"unitary polar factor is not unique and has no derivative; differentiate "
                f"at a full-rank matrix, or call scipy.linalg.{name} on values")
    v = adjoint(vh)
    u = w @ vh
    p = (v * s[None, :]) @ vh
    x = adjoint(u) @ da
    omega = v @ ((vh @ (x - adjoint(x)) @ v) / (s[:, None] + s[None, :])) @ vh
    dp = 0.5 * (x + adjoint(x) - omega @ p + p @ omega)
    du = u @ omega + (da - u @ x) @ ((v / s[None, :]) @ vh)
    return u, p, du, dp


def _polar_values(a, side):
    w, s, vh = fnp.linalg.svd(a, full_matrices=False)
    u = w @ vh
    if side == "right":
        return u, (adjoint(vh) * s[None, :]) @ vh
    return u, (w * s[None, :]) @ adjoint(w)


@functools.partial(custom_jvp, nondiff_argnums=(1, 2))
def _polar(a, side, name):
    return _polar_values(a, side)


@_polar.defjvp
def _polar_jvp(side, name, primals, tangents):
    (a,), (da,) = primals, tangents
    m, n = a.shape
    if (side == "right") == (m >= n):  # the rule's own case: a = u p with p (n, n) definite
        if m >= n:
            _, _, du, dp = _tall_tangents(a, da, name)
        else:  # left, wide: a^H = u^H p is that case
            _, _, du, dp = _tall_tangents(adjoint(a), adjoint(da), name)
            du = adjoint(du)
    elif side == "right":  # wide: a = P u with the left rule, p = u^H P u
        u, big, du, dbig = _tall_tangents(adjoint(a), adjoint(da), name)
        u, du = adjoint(u), adjoint(du)
        dp = adjoint(du) @ big @ u + adjoint(u) @ dbig @ u + adjoint(u) @ big @ du
    else:  # left, tall: a = u p_r with the right rule, p = u p_r u^H
        u, small, du, dsmall = _tall_tangents(a, da, name)
        dp = du @ small @ adjoint(u) + u @ dsmall @ adjoint(u) + u @ small @ adjoint(du)
    return _polar(a, side, name), (du, dp)


@over_batch(("a", 2))
def polar(a: ArrayLike, side: Literal["right", "left"] = "right") -> tuple[Array, Array]:
    """The polar decomposition (``scipy.linalg.polar``): ``a = u @ p`` (``side='right'``)
    or ``a = p @ u`` (``'left'``), ``u`` with orthonormal columns (or rows) and ``p``
    Hermitian positive semi-definite; SciPy's values, from the SVD.  Differentiable where
    ``a`` has full rank, also where its singular values tie (see the module docstring);
    stacks too.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> u, p = fsl.polar(np.array([[0.0, 2.0], [1.0, 0.0]]))
    >>> u, p
    (array([[0., 1.],
           [1., 0.]]), array([[1., 0.],
           [0., 2.]]))
    >>> fg.grad(lambda a: fsl.polar(a)[0][0, 1])(np.eye(2))  # du = (da - da^T) / 2 at I
    array([[ 0. ,  0.5],
           [-0.5,  0. ]])
    """
    if side not in ("right", "left"):
        raise ValueError(f"polar: side must be either 'right' or 'left', got {side!r}")
    a = as_float(a)
    if a.ndim != 2:
        raise ValueError(f"polar: a must be a 2-d array, got shape {a.shape}")
    u, p = _polar(a, side, "polar")
    return u, p


@over_batch(("A", 2), ("B", 2))
def orthogonal_procrustes(A: ArrayLike, B: ArrayLike, check_finite: bool = True
                          ) -> tuple[Array, Array]:
    """``(R, scale)``: the unitary ``R`` nearest to mapping ``A`` onto ``B`` (minimizing
    ``|A @ R - B|_F``) and the sum of the singular values of ``A^H B``
    (``scipy.linalg.orthogonal_procrustes``).  ``R`` is the unitary polar factor of
    ``A^H B``, with :func:`polar`'s derivative; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> a = np.array([[1.0, 0.0], [0.0, 2.0]])
    >>> r, scale = fsl.orthogonal_procrustes(a, a[:, ::-1])
    >>> r, float(scale)
    (array([[0., 1.],
           [1., 0.]]), 5.0)
    """
    a, b = as_float(A), as_float(B)
    if a.ndim != 2:
        raise ValueError(f"orthogonal_procrustes: expected 2-d arrays, got shape {a.shape}")
    if a.shape != b.shape:
        raise ValueError(f"orthogonal_procrustes: the shapes of A and B differ ({a.shape} "
                         f"vs {b.shape})")
    m = fnp.swapaxes(fnp.swapaxes(b, 0, 1) @ fnp.conj(a), 0, 1)  # A^H B, as SciPy forms it
    scale = fnp.sum(fnp.linalg.svd(m, compute_uv=False))
    return _polar(m, "right", "orthogonal_procrustes")[0], scale


# --- RQ ----------------------------------------------------------------------------------------

def _flip(x):
    return fnp.swapaxes(x, -1, -2)[..., ::-1, ::-1]


@over_batch(("a", 2))
def rq(a: ArrayLike, overwrite_a: bool = False, lwork: Any = None,
       mode: Literal["full", "r", "economic"] = "full", check_finite: bool = True
       ) -> Union[Array, tuple[Array, Array]]:
    """``R, Q`` with ``a == R @ Q`` (``scipy.linalg.rq``): ``R`` (M, N) upper trapezoidal
    and ``Q`` (N, N) unitary (``mode='full'``), ``R`` (M, K) and ``Q`` (K, N) with ``K =
    min(M, N)`` (``'economic'``), or ``R`` alone (``'r'``); SciPy's values and signs.
    Derivatives are ``qr``'s (of the flipped matrix; see the module docstring).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> r, q = fsl.rq(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> np.round(r @ q, 12)
    array([[1., 2.],
           [3., 4.]])
    """
    if mode not in ("full", "r", "economic"):
        raise ValueError(f"rq: mode must be one of 'full', 'r', 'economic', got {mode!r}")
    a = as_float(a)
    if a.ndim != 2:
        raise ValueError(f"rq: expected a matrix, got shape {a.shape}")
    m, n = a.shape
    if a.size == 0:
        k = min(m, n)
        r_shape, q = ((m, k), np.empty((k, n), a.dtype)) if mode == "economic" else (
            (m, n), np.eye(n, dtype=a.dtype))
        r = np.empty(r_shape, a.dtype)
        return r if mode == "r" else (r, q)
    q1, r1 = fnp.linalg.qr(_flip(a), mode="reduced" if mode == "economic" else "complete")
    r, q = _flip(r1), _flip(q1)
    return r if mode == "r" else (r, q)


# --- Hessenberg --------------------------------------------------------------------------------

def _reflector(alpha, x):
    """LAPACK's ``larfg``: ``(beta, tau, v, identity)`` with ``(I - tau [1; v] [1; v]^H)^H
    [alpha; x] = [beta; 0]``, ``beta`` real of the opposite sign to ``Re alpha``;
    ``identity``: LAPACK's ``tau = 0`` case (``x == 0`` and ``alpha`` real)."""
    size2 = fnp.sum(fnp.real(x * fnp.conj(x)))
    identity = size2 == 0
    if alpha.dtype.kind == "c":
        identity = identity & (fnp.imag(alpha) == 0)
    size2 = fnp.where(identity, 1.0, size2)  # (no 0/0 in the branch not taken)
    re = fnp.real(alpha)
    norm = fnp.sqrt(re * re + fnp.imag(alpha) ** 2 + size2) if alpha.dtype.kind == "c" \
        else fnp.sqrt(re * re + size2)
    beta = fnp.where(re >= 0, -norm, norm)
    tau = (beta - alpha) / beta
    v = x * (1.0 / (alpha - beta))
    zero = fnp.zeros((), alpha.dtype)
    return (fnp.where(identity, re, beta), fnp.where(identity, zero, tau),
            fnp.where(identity, zero, v), identity)


@over_batch(("a", 2))
def hessenberg(a: ArrayLike, calc_q: bool = False, overwrite_a: bool = False,
               check_finite: bool = True) -> Union[Array, tuple[Array, Array]]:
    """The upper Hessenberg form ``H = Q^H a Q`` (zeros below the first subdiagonal) by
    Householder reflections, LAPACK's (``scipy.linalg.hessenberg``); ``calc_q=True`` also
    returns the unitary ``Q``.  Differentiable (see the module docstring); stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> h = fsl.hessenberg(np.array([[2.0, 1.0, 1.0], [1.0, 3.0, 1.0], [1.0, 1.0, 4.0]]))
    >>> float(h[2, 0]), round(float(np.trace(h)), 12)
    (0.0, 9.0)
    """
    a = asarray(a)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError(f"hessenberg: expected a square matrix, got shape {a.shape}")
    n = a.shape[0]
    if n <= 2:  # already Hessenberg (SciPy returns it as given)
        return (a, np.eye(n)) if calc_q else a
    x = as_float(a)
    rows = np.arange(n)
    q = fnp.astype(fnp.asarray(np.eye(n)), x.dtype) if calc_q else None
    jumps = []
    # (n - 1 reflectors, as LAPACK: the last, of a 1-vector, makes a complex matrix's last
    # subdiagonal entry real; for a real one it is the identity)
    for i in range(n - 1 if x.dtype.kind == "c" else n - 2):
        beta, tau, tail, identity = _reflector(x[i + 1, i], x[i + 2:, i])
        jumps.append(identity)
        v = fnp.concatenate([fnp.zeros((i + 1,), x.dtype), fnp.ones((1,), x.dtype), tail])
        vh = fnp.conj(v)
        x = x - tau * (x @ v)[:, None] * vh[None, :]  # a H
        x = x - fnp.conj(tau) * v[:, None] * (vh @ x)[None, :]  # H^H a H
        below = rows > i + 1
        x = fnp.concatenate([x[:, :i], fnp.where(below, 0.0, fnp.where(
            rows == i + 1, fnp.astype(beta, x.dtype), x[:, i]))[:, None], x[:, i + 1:]], axis=1)
        if calc_q:
            q = q - tau * (q @ v)[:, None] * vh[None, :]
    h = fnp.triu(x, -1)
    if is_concrete(h) and np.any(concrete_values(fnp.stack(jumps), "hessenberg", "")):
        message = ("hessenberg: a column is already reduced (zero below the subdiagonal), "
                   "where the Householder reduction jumps under a perturbation (its "
                   "reflector flips a sign), so the Hessenberg form has no derivative there")
        h = no_derivative(h, message)
        q = None if q is None else no_derivative(q, message)
    return (h, cast(Array, q)) if calc_q else h


# --- cdf2rdf -----------------------------------------------------------------------------------

def cdf2rdf(w: ArrayLike, v: ArrayLike) -> tuple[Array, Array]:
    """The real block-diagonal form of a real matrix's complex diagonal form
    (``scipy.linalg.cdf2rdf``): from ``eig``'s ``w, v`` (conjugate pairs adjacent) the real
    ``wr``, with 2 x 2 blocks ``[[a, b], [-b, a]]`` for ``a +- bi``, and ``vr`` with
    ``a @ vr == vr @ wr``.  Differentiable in ``w`` and ``v``; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> wr, vr = fsl.cdf2rdf(np.array([1 + 2j, 1 - 2j]), np.eye(2) + 0j)
    >>> wr
    array([[ 1.,  2.],
           [-2.,  1.]])
    """
    w, v = asarray(w), asarray(v)
    if w.ndim < 1:
        raise ValueError("cdf2rdf: expected w to be at least 1-d")
    if v.ndim < 2:
        raise ValueError("cdf2rdf: expected v to be at least 2-d")
    if v.ndim != w.ndim + 1:
        raise ValueError(f"cdf2rdf: v must have exactly one dimension more than w, got "
                         f"shapes {w.shape} and {v.shape}")
    n = w.shape[-1]
    if v.shape[-2] != v.shape[-1]:
        raise ValueError(f"cdf2rdf: v must be a square matrix or a stack of them, got "
                         f"shape {v.shape}")
    if v.shape[-1] != n:
        raise ValueError(f"cdf2rdf: expected as many eigenvalues ({n}) as eigenvectors "
                         f"({v.shape[-1]})")
    pairs = np.imag(concrete_values(w, "cdf2rdf (which eigenvalues pair up)", "")) != 0
    if np.any(pairs.sum(axis=-1) % 2):
        raise ValueError("cdf2rdf: expected the complex eigenvalues in complex-conjugate "
                         "pairs")
    if w.ndim > 1:
        outs = [_cdf2rdf(w[i], v[i], pairs[i]) for i in np.ndindex(*w.shape[:-1])]
        wr, vr = (fnp.reshape(fnp.stack(parts), w.shape[:-1] + (n, n)) for parts in zip(*outs))
        return wr, vr
    return _cdf2rdf(w, v, pairs)


def _cdf2rdf(w, v, pairs):
    n = w.shape[0]
    first = np.flatnonzero(pairs)[0::2]  # each pair's first index j, its conjugate k = j + 1
    second = np.flatnonzero(pairs)[1::2]
    table = np.full((n, n), 2 * n)  # (values: real(w), then imag(w), then 0)
    table[np.arange(n), np.arange(n)] = np.arange(n)
    table[first, second] = n + first
    table[second, first] = n + second
    real = fnp.real(w)
    values = fnp.concatenate([real, fnp.imag(w), fnp.zeros((1,), real.dtype)])
    wr = fnp.take(values, table, axis=-1)
    u = np.eye(n, dtype=np.complex128)  # (SciPy's, in double precision)
    u[first, first] = 0.5j
    u[first, second] = 0.5
    u[second, first] = -0.5j
    u[second, second] = 0.5
    return wr, fnp.real(v @ u)
