"""``tridiagonal_solve``: ``x`` with ``A x = b`` for tridiagonal ``A``, in ``O(m)`` per
system and right-hand side (LAPACK's ``?gtsv``: Gaussian elimination with partial
pivoting, the routine JAX's CPU kernel calls).

``A`` is given by its three diagonals in JAX's layout, each ``(..., m)``: ``dl[i] =
A[i, i - 1]`` (``dl[..., 0]`` unused), ``d[i] = A[i, i]``, ``du[i] = A[i, i + 1]``
(``du[..., -1]`` unused); ``b`` is ``(..., m, n)``, all of one batch shape and dtype.
The rules are ``solve``'s, with the tridiagonal product in place of ``A @ x``:
``dx = A^-1 (db - dA x)``, and the transpose solves ``A^T``, the tridiagonal matrix of
diagonals ``(du shifted down, d, dl shifted up)``.  Complex numbers follow the linear
transpose (no conjugation), as ``solve``'s rules and JAX's.

``perturb_singular=True`` (JAX's parameter) solves by
:mod:`funcgrad.kernels.cpu.gtsv_perturbed` instead, JAX's CPU algorithm: tiny pivots are
perturbed where dividing by them would overflow, so a singular ``A`` (``T - lambda I``
in inverse iteration) gives a finite ``x`` instead of an error.  Its rules are the same,
each solve perturbed alike, as JAX's: exact where no pivot was perturbed (every regular,
well-scaled ``A``); where one was, ``A`` has no inverse to differentiate, and the
derivative is the perturbed matrix's.
"""
import numpy as np

from ..core import Primitive, ShapedArray, reads_inputs_and_output
from ..kernels.cpu import gtsv
from .elementwise import negative
from .structural import broadcast_to, concatenate, moveaxis, reduce_sum, reshape, split

__all__ = ["tridiagonal_solve", "tridiagonal_solve_p", "tridiagonal_product"]

_LAPACK_DTYPES = tuple(np.dtype(t) for t in (np.float32, np.float64, np.complex64,
                                             np.complex128))


def _impl(dl, d, du, b, *, perturb_singular=False):
    dtype = np.result_type(dl, d, du, b)
    compute = dtype if dtype in _LAPACK_DTYPES else np.result_type(dtype, np.float32)
    dl, d, du, b = (np.asarray(v, compute) for v in (dl, d, du, b))
    if perturb_singular:
        from ..kernels.cpu import gtsv_perturbed  # (imports Numba)
        return gtsv_perturbed.solve(dl, d, du, b).astype(dtype, copy=False)
    if gtsv.available():
        x, singular = gtsv.gtsv(dl, d, du, b)
    else:  # (no LAPACK reachable: the dense system, O(m^3))
        m = d.shape[-1]
        a = sum(v[..., :, None] * np.eye(m, k=k, dtype=compute)
                for k, v in ((0, d), (1, du), (-1, dl)))
        try:
            x, singular = np.linalg.solve(a, b), False
        except np.linalg.LinAlgError:
            x, singular = None, True
    if np.any(singular):
        at = "" if np.ndim(singular) == 0 else (
            f" at batch index {tuple(int(i) for i in np.argwhere(singular)[0])}")
        raise np.linalg.LinAlgError(
            f"tridiagonal_solve: the tridiagonal matrix{at} is singular (a zero pivot in "
            f"LAPACK's gtsv), so A x = b has no unique solution (JAX returns NaNs there; "
            f"funcgrad raises). Perturb the diagonal d if the matrix is only nearly "
            f"singular.")
    return x.astype(dtype, copy=False)


def _abstract(dl, d, du, b, **params):
    return ShapedArray(b.shape, np.result_type(dl.dtype, d.dtype, du.dtype, b.dtype))


def _shift(v, axis, down):
    """``v`` moved one place along ``axis``, a zero entering: ``down`` gives ``v[i - 1]`` at
    ``i`` (zero at 0), else ``v[i + 1]`` at ``i`` (zero at the end)."""
    m = v.shape[axis]
    if m == 0:
        return v
    shape = list(v.shape)
    shape[axis] = 1
    zero = np.zeros(shape, v.dtype)
    if down:
        return concatenate([zero, split(v, (m - 1,), axis)[0]], axis)
    return concatenate([split(v, (1,), axis)[1], zero], axis)


def tridiagonal_product(dl, d, du, x):
    """``A @ x`` for the tridiagonal ``A`` of ``(dl, d, du)`` (JAX's layout, see the module
    docstring) and ``x`` of shape ``(..., m, n)``."""
    rows = x.ndim - 2
    col = lambda v: reshape(v, v.shape + (1,))  # noqa: E731
    return (col(d) * x + col(dl) * _shift(x, rows, down=True)
            + col(du) * _shift(x, rows, down=False))


def _jvp(primals, tangents, *, perturb_singular):
    dl, d, du, b = primals
    tdl, td, tdu, tb = tangents
    x = tridiagonal_solve(dl, d, du, b, perturb_singular)
    rhs = tb
    if not (tdl is None and td is None and tdu is None):
        zero = np.zeros(d.shape, x.dtype)
        ax = tridiagonal_product(*(zero if t is None else t for t in (tdl, td, tdu)), x)
        rhs = negative(ax) if rhs is None else rhs - ax
    if rhs is None:
        return x, None
    return x, tridiagonal_solve(dl, d, du, rhs, perturb_singular)


def _vjp(needs, g, x, dl, d, du, b, *, perturb_singular):
    # gb = A^-T g; then, as solve's -gb x^T read on the three diagonals: the cotangent of
    # A[i, j] is -sum_n gb[i, n] x[j, n]
    vec = d.ndim - 1
    gb = tridiagonal_solve(_shift(du, vec, down=True), d, _shift(dl, vec, down=False), g,
                           perturb_singular)
    rows, cols = x.ndim - 2, x.ndim - 1
    g_dl = g_d = g_du = None
    if needs[0]:
        g_dl = negative(reduce_sum(gb * _shift(x, rows, down=True), (cols,)))
    if needs[1]:
        g_d = negative(reduce_sum(gb * x, (cols,)))
    if needs[2]:
        g_du = negative(reduce_sum(gb * _shift(x, rows, down=False), (cols,)))
    return g_dl, g_d, g_du, (gb if needs[3] else None)


def _batch(args, dims, *, perturb_singular):
    dl, d, du, b = args
    ddl, dd, ddu, db = dims
    if ddl is None and dd is None and ddu is None:
        # only b is batched: its batch becomes more right-hand sides of one solve
        b = moveaxis(b, db, b.ndim - 1)
        shape = b.shape
        x = tridiagonal_solve(dl, d, du, reshape(b, shape[:-2] + (shape[-2] * shape[-1],)),
                              perturb_singular)
        return reshape(x, shape), len(shape) - 1
    size = next(a.shape[i] for a, i in zip(args, dims) if i is not None)
    front = [broadcast_to(a, (size,) + a.shape) if i is None else moveaxis(a, i, 0)
             for a, i in zip(args, dims)]
    return tridiagonal_solve(*front, perturb_singular=perturb_singular), 0


tridiagonal_solve_p = Primitive("tridiagonal_solve", _impl, abstract_eval=_abstract,
                                jvp=_jvp, vjp=_vjp, batch=_batch,
                                vjp_reads=reads_inputs_and_output)


def tridiagonal_solve(dl, d, du, b, perturb_singular=False):
    """``x`` with ``A @ x = b``, ``A`` the tridiagonal matrix of ``(dl, d, du)`` (JAX's
    layout), ``b`` of shape ``(..., m, n)``; the four share their batch shape and dtype.
    ``perturb_singular``: tiny pivots perturbed, as JAX's (see the module docstring)."""
    return tridiagonal_solve_p.bind(dl, d, du, b, perturb_singular=bool(perturb_singular))
