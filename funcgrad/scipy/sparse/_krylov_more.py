"""The rest of SciPy's square Krylov solvers: ``bicg``, ``cgs`` and ``tfqmr`` with their own
iterations, ``minres``, ``qmr``, ``gcrotmk`` and ``lgmres`` by GMRES's.

Each is a ``fg.lax.custom_linear_solve``, as ``cg`` is (:mod:`._krylov`), so its derivative
is that of the exact solution, never of the iterations.  ``minres``, ``qmr``, ``gcrotmk`` and
``lgmres`` differ from GMRES in how they build and keep the Krylov basis (a three-term
recurrence, a quasi-minimal residual, recycled subspaces), not in the solution they
converge to: funcgrad runs restarted GMRES for them (without restart for ``minres``, whose
iterates are then MINRES's in exact arithmetic), stopped by the same test on the true
residual, so ``x`` agrees with SciPy's to the tolerance and ``info`` counts GMRES cycles.
"""
from typing import Any, Callable, Optional, Tuple

from ... import numpy as fnp
from ...lax import while_loop
from ...typing import Array, ArrayLike
from ._krylov import _dot, _gmres, _norm, _operator, _safe_divide, _solve

__all__ = ["bicg", "cgs", "tfqmr", "minres", "qmr", "gcrotmk", "lgmres"]


def _adjoint_of(matvec, like):
    """``y -> A^H y`` for the linear ``matvec`` (its transpose by ``vjp``, conjugated)."""
    from ...api import vjp
    _, pullback = vjp(matvec, fnp.zeros_like(like))
    return lambda y: fnp.conj(pullback(fnp.conj(y))[0])


def _bicg(matvec, precondition, b, x0, tol, maxiter):
    rmatvec = _adjoint_of(matvec, b)
    r = b - matvec(x0)
    zero = fnp.zeros_like(b)
    one = fnp.ones((), b.dtype)

    def cond(state):
        _, r, *_, k = state
        return fnp.logical_and(_norm(r) > tol, k < maxiter)

    def body(state):
        x, r, r_shadow, p, p_shadow, rho_old, k = state
        # (the shadow system uses M as its own adjoint: exact for the usual symmetric
        # preconditioners, and only the iterations depend on it)
        z, z_shadow = precondition(r), precondition(r_shadow)
        rho = _dot(r_shadow, z)
        beta = _safe_divide(rho, rho_old)
        p = z + beta * p
        p_shadow = z_shadow + fnp.conj(beta) * p_shadow
        q, q_shadow = matvec(p), rmatvec(p_shadow)
        alpha = _safe_divide(rho, _dot(p_shadow, q))
        return (x + alpha * p, r - alpha * q, r_shadow - fnp.conj(alpha) * q_shadow, p,
                p_shadow, rho, k + 1)
    x, r, *_, k = while_loop(cond, body, (x0, r, r, zero, zero, one, 0))
    return x, k, _norm(r)


def _cgs(matvec, precondition, b, x0, tol, maxiter):
    r = b - matvec(x0)
    zero = fnp.zeros_like(b)
    one = fnp.ones((), b.dtype)

    def cond(state):
        _, r, *_, k = state
        return fnp.logical_and(_norm(r) > tol, k < maxiter)

    def body(state):
        x, r, r_shadow, p, q, rho_old, k = state
        rho = _dot(r_shadow, r)
        beta = _safe_divide(rho, rho_old)
        u = r + beta * q
        p = u + beta * (q + beta * p)
        v = matvec(precondition(p))
        alpha = _safe_divide(rho, _dot(r_shadow, v))
        q = u - alpha * v
        u_hat = precondition(u + q)
        return x + alpha * u_hat, r - alpha * matvec(u_hat), r_shadow, p, q, rho, k + 1
    x, r, *_, k = while_loop(cond, body, (x0, r, r, zero, zero, one, 0))
    return x, k, _norm(r)


def _tfqmr(matvec, precondition, b, x0, tol, maxiter):
    # Freund's transpose-free QMR on the right-preconditioned A M y = r0, x = x0 + M y;
    # one loop turn is two of its half steps (one Lanczos step).
    def op(v):
        return matvec(precondition(v))
    r0 = b - matvec(x0)
    zero = fnp.zeros_like(b)
    real_zero = fnp.zeros((), fnp.real(b).dtype)

    def half_step(y, d, w, u, a_u, alpha, theta, eta, tau):
        w = w - alpha * a_u
        d = u + _safe_divide(theta * theta * eta, alpha) * d
        theta = _safe_divide(_norm(w), tau)
        c = 1.0 / fnp.sqrt(1.0 + theta * theta)
        tau = tau * theta * c
        eta = c * c * alpha
        return y + eta * d, d, w, theta, eta, tau

    def cond(state):
        *_, residual, k = state
        return fnp.logical_and(residual > tol, k < maxiter)

    def body(state):
        y, d, w, u, a_u, v, rho, theta, eta, tau, _, k = state
        alpha = _safe_divide(rho, _dot(r0, v))
        y, d, w, theta, eta, tau = half_step(y, d, w, u, a_u, alpha, theta, eta, tau)
        u1 = u - alpha * v
        a_u1 = op(u1)
        y, d, w, theta, eta, tau = half_step(y, d, w, u1, a_u1, alpha, theta, eta, tau)
        rho_new = _dot(r0, w)
        beta = _safe_divide(rho_new, rho)
        u2 = w + beta * u1
        a_u2 = op(u2)
        v = a_u2 + beta * (a_u1 + beta * v)
        residual = _norm(b - matvec(x0 + precondition(y)))
        return y, d, w, u2, a_u2, v, rho_new, theta, eta, tau, residual, k + 1
    a_r0 = op(r0)
    start = (zero, zero, r0, r0, a_r0, a_r0, _dot(r0, r0), real_zero, fnp.zeros_like(
        _dot(r0, r0)), _norm(r0), _norm(r0), 0)
    y, *_, residual, k = while_loop(cond, body, start)
    return x0 + precondition(y), k, residual


def _no_callback(name, callback):
    if callback is not None:
        raise NotImplementedError(f"{name}: callback is not supported (the iterations are a "
                                  f"traced loop); call SciPy's {name} on plain arrays to "
                                  f"watch them")


def bicg(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
         atol: float = 0.0, maxiter: Optional[int] = None, M: Any = None,
         callback: Optional[Callable[..., Any]] = None) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` by biconjugate gradients
    (``scipy.sparse.linalg.bicg``), any nonsingular ``A``; differentiable in ``b`` and ``A``.
    The shadow recurrence needs ``A^H``: funcgrad transposes ``A``'s products itself.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.bicg(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    return _solve("bicg", _bicg, A, b, x0, rtol, atol, maxiter, M, callback, False)


def cgs(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
        atol: float = 0.0, maxiter: Optional[int] = None, M: Any = None,
        callback: Optional[Callable[..., Any]] = None) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` by conjugate gradients squared
    (``scipy.sparse.linalg.cgs``), any nonsingular ``A``; differentiable in ``b`` and ``A``.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.cgs(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    return _solve("cgs", _cgs, A, b, x0, rtol, atol, maxiter, M, callback, False)


def tfqmr(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
          atol: float = 0.0, maxiter: Optional[int] = None, M: Any = None,
          callback: Optional[Callable[..., Any]] = None, show: bool = False
          ) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` by transpose-free QMR (``scipy.sparse.linalg.tfqmr``),
    any nonsingular ``A``; differentiable in ``b`` and ``A``.  ``show`` prints nothing
    (the loop is traced).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.tfqmr(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    return _solve("tfqmr", _tfqmr, A, b, x0, rtol, atol, maxiter, M, callback, False)


def minres(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
           shift: float = 0.0, maxiter: Optional[int] = None, M: Any = None,
           callback: Optional[Callable[..., Any]] = None, show: bool = False,
           check: bool = False) -> Tuple[Array, Array]:
    """``(x, info)`` with ``(A - shift I) x = b`` for a symmetric (Hermitian), possibly
    indefinite ``A`` (``scipy.sparse.linalg.minres``); differentiable in ``b``, ``A`` and
    ``shift``.  The iterations are GMRES's without restart (MINRES's iterates in exact
    arithmetic); ``show`` and ``check`` are accepted and do nothing.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> a = np.array([[1.0, 2.0], [2.0, -1.0]])   # symmetric, indefinite
    >>> x, info = fsl.minres(a, np.array([3.0, 1.0]), rtol=1e-10)
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    _no_callback("minres", callback)
    matvec = _operator("minres", "A", A)
    shifted = matvec if isinstance(shift, (int, float)) and shift == 0 else (
        lambda v: matvec(v) - shift * v)
    n = fnp.shape(b)[0] if fnp.ndim(b) == 1 else 1
    return _solve("minres", _gmres(n), shifted, b, x0, rtol, 0.0, maxiter, M, None, True)


def qmr(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
        atol: float = 0.0, maxiter: Optional[int] = None, M1: Any = None, M2: Any = None,
        callback: Optional[Callable[..., Any]] = None) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` (``scipy.sparse.linalg.qmr``), any nonsingular ``A``;
    differentiable in ``b`` and ``A``.  The iterations are restarted GMRES's (restart 20),
    preconditioned by ``M2 M1`` (SciPy's left and right preconditioners, applied in turn).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.qmr(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    left, right = _operator("qmr", "M1", M1), _operator("qmr", "M2", M2)
    m = None if M1 is None and M2 is None else (lambda v: right(left(v)))
    return _solve("qmr", _gmres(20), A, b, x0, rtol, atol, maxiter, m, callback, False)


def gcrotmk(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
            atol: float = 0.0, maxiter: int = 1000, M: Any = None,
            callback: Optional[Callable[..., Any]] = None, m: int = 20,
            k: Optional[int] = None, CU: Any = None, discard_C: bool = False,
            truncate: str = "oldest") -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` (``scipy.sparse.linalg.gcrotmk``), any nonsingular
    ``A``; differentiable in ``b`` and ``A``.  The iterations are GMRES's restarted every
    ``m`` steps, at most ``maxiter`` cycles; the recycled subspace (``k``, ``CU``,
    ``discard_C``, ``truncate``) is not kept, so ``CU`` must be None.

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.gcrotmk(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    if CU is not None:
        raise NotImplementedError("gcrotmk: CU (a recycled subspace to start from and "
                                  "update) is not supported; pass CU=None")
    if truncate not in ("oldest", "smallest"):
        raise ValueError(f"gcrotmk: truncate must be 'oldest' or 'smallest', got {truncate!r}")
    return _solve("gcrotmk", _gmres(int(m)), A, b, x0, rtol, atol, maxiter, M, callback,
                  False)


def lgmres(A: Any, b: ArrayLike, x0: Optional[ArrayLike] = None, *, rtol: float = 1e-05,
           atol: float = 0.0, maxiter: int = 1000, M: Any = None,
           callback: Optional[Callable[..., Any]] = None, inner_m: int = 30,
           outer_k: int = 3, outer_v: Any = None, store_outer_Av: bool = True,
           prepend_outer_v: bool = False) -> Tuple[Array, Array]:
    """``(x, info)`` with ``A x = b`` (``scipy.sparse.linalg.lgmres``), any nonsingular
    ``A``; differentiable in ``b`` and ``A``.  The iterations are GMRES's restarted every
    ``inner_m`` steps, at most ``maxiter`` cycles, without LGMRES's augmenting vectors
    (``outer_k``, ``store_outer_Av``, ``prepend_outer_v`` change nothing; ``outer_v``
    must be None).

    >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
    >>> x, info = fsl.lgmres(np.array([[2.0, 1.0], [0.0, 3.0]]), np.array([3.0, 3.0]))
    >>> np.round(x, 6), int(info)
    (array([1., 1.]), 0)
    """
    if outer_v is not None:
        raise NotImplementedError("lgmres: outer_v (augmenting vectors kept between calls) "
                                  "is not supported; pass outer_v=None")
    return _solve("lgmres", _gmres(int(inner_m)), A, b, x0, rtol, atol, maxiter, M, callback,
                  False)
