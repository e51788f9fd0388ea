"""Matrix equations of ``funcgrad.scipy.linalg``: the Lyapunov equations
(``solve_continuous_lyapunov`` = ``solve_lyapunov``, ``solve_discrete_lyapunov``) and the
algebraic Riccati equations (``solve_continuous_are``, ``solve_discrete_are``).

* The Lyapunov equations are linear: ``A X + X A^H = Q`` is :func:`solve_sylvester`
  with ``B = A^H``; ``A X A^H - X + Q = 0`` is SciPy's ``direct`` Kronecker system (or,
  with ``method='bilinear'``, SciPy's transformation to a continuous one), so both
  differentiate through ``solve`` (small matrices: the systems have ``n^2`` unknowns).
* The Riccati solutions are SciPy's values (its Schur method on the Hamiltonian pencil:
  they need SciPy and known values, not ``vmap``/``jit``).  Their derivative comes from
  the equation (the implicit function theorem): differentiating the residual gives the
  Lyapunov-like equation ``Ac^H dX E + E^H dX Ac = -rest`` (continuous) or ``Ac^H dX Ac
  - E^H dX E = -rest`` (discrete) with the closed-loop ``Ac = A - B K``, solved as a
  Kronecker system; the rule is written with funcgrad operations, so it differentiates
  again.  ``Q`` and ``R`` are Hermitian (SciPy checks it), so their tangents count
  through their Hermitian parts, and their gradients are Hermitian.
"""
import functools
from typing import Optional

import numpy as np

from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import concrete_values
from ..primitives import linalg as _la
from ..typing import Array, ArrayLike
from ._linalg_tools import adjoint, as_float, over_batch
from ._matfuncs import solve_sylvester

__all__ = ["solve_continuous_lyapunov", "solve_lyapunov", "solve_discrete_lyapunov",
           "solve_continuous_are", "solve_discrete_are"]



def _square_pair(name, a, q):
    a, q = as_float(a), as_float(q)
    a = fnp.reshape(a, (1, 1)) if a.ndim < 2 else a
    q = fnp.reshape(q, (1, 1)) if q.ndim < 2 else q
    for label, x in (("a", a), ("q", q)):
        if x.ndim != 2 or x.shape[0] != x.shape[1]:
            raise ValueError(f"{name}: matrix {label} should be square, got shape {x.shape}")
    if a.shape != q.shape:
        raise ValueError(f"{name}: matrices a and q should have the same shape, got "
                         f"{a.shape} and {q.shape}")
    dtype = np.result_type(a.dtype, q.dtype)
    return fnp.astype(a, dtype), fnp.astype(q, dtype)


@over_batch(("a", 2), ("q", 2))
def solve_continuous_lyapunov(a: ArrayLike, q: ArrayLike) -> Array:
    """``X`` with ``a @ X + X @ a^H == q`` (``scipy.linalg.solve_continuous_lyapunov``, also
    ``solve_lyapunov``): :func:`solve_sylvester` with ``b = a^H``, differentiable in ``a``
    and ``q``; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_continuous_lyapunov(np.diag([-1.0, -2.0]), -np.eye(2))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    a, q = _square_pair("solve_continuous_lyapunov", a, q)
    if a.shape[0] == 0:
        return np.empty(a.shape, a.dtype)
    return solve_sylvester(a, adjoint(a), q)


solve_lyapunov = solve_continuous_lyapunov


@over_batch(("a", 2), ("q", 2))
def solve_discrete_lyapunov(a: ArrayLike, q: ArrayLike, method: Optional[str] = None) -> Array:
    """``X`` with ``a @ X @ a^H - X + q == 0`` (``scipy.linalg.solve_discrete_lyapunov``):
    ``method`` 'direct' (the Kronecker system, SciPy's default below n = 10) or
    'bilinear' (a continuous Lyapunov equation, the default from n = 10); differentiable
    in ``a`` and ``q``; stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_discrete_lyapunov(np.diag([0.5, 0.0]), np.eye(2))
    array([[1.33333333, 0.        ],
           [0.        , 1.        ]])
    """
    a, q = as_float(a), as_float(q)
    n = a.shape[0] if a.ndim else 1
    method = ("bilinear" if n >= 10 else "direct") if method is None else method
    if method.lower() not in ("direct", "bilinear"):
        raise ValueError(f"solve_discrete_lyapunov: unknown solver {method!r}; use 'direct' "
                         f"or 'bilinear'")
    a, q = _square_pair("solve_discrete_lyapunov", a, q)
    # (SciPy's identity matrices are float64: float32 problems come out float64 too)
    a, q = (fnp.astype(x, np.result_type(x.dtype, np.float64)) for x in (a, q))
    eye = np.eye(n)
    if method.lower() == "direct":
        lhs = np.eye(n * n) - fnp.kron(a, fnp.conj(a))
        return fnp.reshape(_la.solve(fnp.astype(lhs, a.dtype), fnp.reshape(q, (n * n,))),
                           (n, n))
    ah = adjoint(a)
    ahi_inv = _la.inv(ah + eye)
    b = (ah - eye) @ ahi_inv
    c = 2 * ((_la.inv(a + eye) @ q) @ ahi_inv)
    return solve_continuous_lyapunov(adjoint(b), -c)


# --- the algebraic Riccati equations -------------------------------------------------------------

def _kron_solve(terms, rhs):
    """``dX`` with ``sum_k L_k @ dX @ R_k == rhs`` (row-major Kronecker form)."""
    n = rhs.shape[0]
    big = sum(fnp.kron(left, fnp.swapaxes(right, 0, 1)) for left, right in terms)
    return fnp.reshape(_la.solve(big, fnp.reshape(rhs, (n * n,))), (n, n))


def _hermitian_part(t):
    # SciPy takes Q and R Hermitian (and refuses others), so the solution is a function of
    # their Hermitian parts: a skew tangent moves nothing, and gradients come out Hermitian
    return 0.5 * (t + adjoint(t))


def _scipy_are(kind, balanced, has_e, has_s, a, b, q, r, e, s):
    import scipy.linalg  # (here, so that importing funcgrad never loads SciPy)
    fix = "Riccati solutions are SciPy's, computed from known values: call it outside vmap/jit."
    values = [concrete_values(x, f"solve_{kind}_are", fix) for x in (a, b, q, r, e, s)]
    solver = (scipy.linalg.solve_continuous_are if kind == "continuous"
              else scipy.linalg.solve_discrete_are)
    return solver(*values[:4], e=values[4] if has_e else None,
                  s=values[5] if has_s else None, balanced=balanced)


@functools.partial(custom_jvp, nondiff_argnums=(0, 1, 2))
def _care(balanced, has_e, has_s, a, b, q, r, e, s):
    return _scipy_are("continuous", balanced, has_e, has_s, a, b, q, r, e, s)


@_care.defjvp
def _care_jvp(balanced, has_e, has_s, primals, tangents):
    a, b, q, r, e, s = primals
    da, db, dq, dr, de, ds = tangents
    dq, dr = _hermitian_part(dq), _hermitian_part(dr)
    x = _care(balanced, has_e, has_s, a, b, q, r, e, s)
    k = _la.solve(r, adjoint(b) @ x @ e + adjoint(s))  # R^-1 (B^H X E + S^H)
    ac = a - b @ k
    rest = (adjoint(da) @ x @ e + adjoint(a) @ x @ de + adjoint(de) @ x @ a
            + adjoint(e) @ x @ da - (adjoint(de) @ x @ b + adjoint(e) @ x @ db + ds) @ k
            - adjoint(k) @ (adjoint(db) @ x @ e + adjoint(b) @ x @ de + adjoint(ds))
            + adjoint(k) @ dr @ k + dq)
    return x, _kron_solve([(adjoint(ac), e), (adjoint(e), ac)], -rest)


@functools.partial(custom_jvp, nondiff_argnums=(0, 1, 2))
def _dare(balanced, has_e, has_s, a, b, q, r, e, s):
    return _scipy_are("discrete", balanced, has_e, has_s, a, b, q, r, e, s)


@_dare.defjvp
def _dare_jvp(balanced, has_e, has_s, primals, tangents):
    a, b, q, r, e, s = primals
    da, db, dq, dr, de, ds = tangents
    dq, dr = _hermitian_part(dq), _hermitian_part(dr)
    x = _dare(balanced, has_e, has_s, a, b, q, r, e, s)
    k = _la.solve(r + adjoint(b) @ x @ b, adjoint(b) @ x @ a + adjoint(s))  # G^-1 (B^H X A + S^H)
    ac = a - b @ k
    rest = (adjoint(da) @ x @ a + adjoint(a) @ x @ da - adjoint(de) @ x @ e - adjoint(e) @ x @ de
            - (adjoint(da) @ x @ b + adjoint(a) @ x @ db + ds) @ k
            - adjoint(k) @ (adjoint(db) @ x @ a + adjoint(b) @ x @ da + adjoint(ds))
            + adjoint(k) @ (dr + adjoint(db) @ x @ b + adjoint(b) @ x @ db) @ k + dq)
    return x, _kron_solve([(adjoint(ac), ac), (-adjoint(e), e)], -rest)


def _atleast_2d(x):
    x = as_float(x)
    return fnp.reshape(x, (1, -1)) if x.ndim < 2 else x


def _are_arguments(a, b, q, r, e, s):
    """The six matrices in one dtype (SciPy's: float64 or complex128), ``E = I`` and ``S =
    0`` where not given (SciPy checks the shapes when it solves)."""
    a, b, q, r = (_atleast_2d(x) for x in (a, b, q, r))
    given = [_atleast_2d(x) for x in (e, s) if x is not None]
    dtype = np.result_type(*[x.dtype for x in [a, b, q, r] + given], np.float64)
    e = np.eye(a.shape[-1]) if e is None else _atleast_2d(e)
    s = np.zeros((a.shape[-1], b.shape[-1])) if s is None else _atleast_2d(s)
    return [fnp.astype(x, dtype) for x in (a, b, q, r, e, s)]


@over_batch(("a", 2), ("b", 2), ("q", 2), ("r", 2), ("e", 2), ("s", 2))
def solve_continuous_are(a: ArrayLike, b: ArrayLike, q: ArrayLike, r: ArrayLike,
                         e: Optional[ArrayLike] = None, s: Optional[ArrayLike] = None,
                         balanced: bool = True) -> Array:
    """The stabilizing solution ``X`` of the continuous algebraic Riccati equation ``A^H X E
    + E^H X A - (E^H X B + S) R^-1 (B^H X E + S^H) + Q = 0`` (``E = I``, ``S = 0`` by
    default), SciPy's values (``scipy.linalg.solve_continuous_are``), differentiable in
    all six matrices (see the module docstring); stacks too.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.linalg as fsl
    >>> fsl.solve_continuous_are(np.array([[0.0]]), np.array([[1.0]]), np.array([[4.0]]),
    ...                          np.array([[1.0]]))  # X^2 = 4
    array([[2.]])
    >>> fg.grad(lambda q: fsl.solve_continuous_are(np.zeros((1, 1)), np.ones((1, 1)), q,
    ...                                            np.ones((1, 1)))[0, 0])(np.array([[4.0]]))
    array([[0.25]])
    """
    args = _are_arguments(a, b, q, r, e, s)
    return _care(bool(balanced), e is not None, s is not None, *args)


@over_batch(("a", 2), ("b", 2), ("q", 2), ("r", 2), ("e", 2), ("s", 2))
def solve_discrete_are(a: ArrayLike, b: ArrayLike, q: ArrayLike, r: ArrayLike,
                       e: Optional[ArrayLike] = None, s: Optional[ArrayLike] = None,
                       balanced: bool = True) -> Array:
    """The stabilizing solution ``X`` of the discrete algebraic Riccati equation ``A^H X A
    - E^H X E - (A^H X B + S) (R + B^H X B)^-1 (B^H X A + S^H) + Q = 0`` (``E = I``, ``S =
    0`` by default), SciPy's values (``scipy.linalg.solve_discrete_are``), differentiable in
    all six matrices (see the module docstring); stacks too.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> x = fsl.solve_discrete_are(np.array([[2.0]]), np.array([[1.0]]), np.array([[1.0]]),
    ...                            np.array([[1.0]]))
    >>> round(float(x[0, 0]), 12)  # x^2 - 4x - 1 = 0
    4.2360679775
    """
    args = _are_arguments(a, b, q, r, e, s)
    return _dare(bool(balanced), e is not None, s is not None, *args)
