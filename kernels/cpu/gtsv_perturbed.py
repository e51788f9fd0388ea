"""Tridiagonal systems that may be singular, solved as JAX's CPU ``tridiagonal_solve``
does with ``perturb_singular=True`` (LAPACK's ``?lagtf``/``?lagts`` approach, as
inverse iteration for eigenvectors needs: ``(T - lambda I) x = b`` at an eigenvalue).

Gaussian elimination with partial pivoting, each row compared with the next relative to
the sizes of their entries (``?lagtf``'s scaled test), the forward substitution done as
the rows are eliminated.  In the back substitution a pivot ``p`` of ``U`` smaller than 1
that would make ``r / p`` overflow is moved away from zero by ``eps * max |U|`` (with
``p``'s sign), doubled until the division is safe; a tiny pivot that is safe is scaled
up with its row instead.  A regular, well-scaled system meets neither test: its solution
is the ordinary pivoted one.  Imported (and compiled, then cached) on first use.
"""
import numpy as np
from numba import njit

from .._numba_stamp import install

install()  # (before the cached functions: see .._numba_stamp)

__all__ = ["solve"]

_OPTS = dict(cache=True, error_model="numpy", nogil=True)


@njit(**_OPTS)
def _safe_pivot(perturb, pivot, row, c):
    """``pivot`` moved (or ``pivot`` and ``row`` scaled) so that ``row / pivot`` cannot
    overflow; ``c``: (eps, safemin, bignum, 0, 1) in the real precision."""
    safemin, bignum, one = c[1], c[2], c[4]
    size = abs(pivot)
    if size >= one:
        return pivot
    # (never 0, so that the loop ends; with the pivot's sign, so that it grows)
    perturb = np.copysign(max(abs(perturb), safemin), pivot.real)
    largest = c[3]
    for j in range(row.shape[0]):
        largest = max(largest, abs(row[j]))
    while size < one:
        if size < safemin:
            if size == c[3] or largest * safemin > size:
                pivot = pivot + perturb
                perturb = perturb + perturb
            else:
                pivot = pivot * bignum
                for j in range(row.shape[0]):
                    row[j] = row[j] * bignum
                return pivot
        elif largest > size * bignum:
            pivot = pivot + perturb
            perturb = perturb + perturb
        else:
            return pivot
        size = abs(pivot)
    return pivot


@njit(**_OPTS)
def _one(dl, d, du, b, x, u, row, c):
    """One system: ``x`` (m, n) from the diagonals (m,) and ``b`` (m, n); ``u`` (m, 3)
    and ``row`` (n,) are scratch."""
    m, n = b.shape
    zero = c[3]
    if m == 0:
        return
    if m == 1:
        p = d[0]
        row[:] = b[0]
        p = _safe_pivot(c[0] * abs(p), p, row, c)
        for j in range(n):
            x[0, j] = row[j] / p
        return
    u[:] = 0
    # the rows of U: its diagonal, first and second super-diagonals
    u[0, 0], u[0, 1] = d[0], du[0]
    largest = max(abs(u[0, 0]), abs(u[0, 1]))
    scale1 = abs(u[0, 0]) + abs(u[0, 1])
    x[0] = b[0]
    for k in range(m - 1):
        u[k + 1, 0] = d[k + 1]
        scale2 = abs(dl[k + 1]) + abs(u[k + 1, 0])
        if k < m - 2:
            scale2 += abs(du[k + 1])
        if dl[k + 1] == zero:  # (already eliminated)
            scale1 = scale2
            u[k + 1, 1] = du[k + 1]
            u[k, 2] = 0
            x[k + 1] = b[k + 1]
        else:
            piv1 = zero if u[k, 0] == zero else abs(u[k, 0]) / scale1
            piv2 = abs(dl[k + 1]) / scale2
            if piv2 <= piv1:  # row k stays the pivot row
                scale1 = scale2
                factor = dl[k + 1] / u[k, 0]
                u[k + 1, 0] -= factor * u[k, 1]
                u[k + 1, 1] = du[k + 1]
                u[k, 2] = 0
                for j in range(n):
                    x[k + 1, j] = b[k + 1, j] - factor * x[k, j]
            else:  # rows k and k + 1 exchanged
                factor = u[k, 0] / dl[k + 1]
                above = u[k, 1]
                u[k, 0] = dl[k + 1]
                u[k + 1, 0] = above - factor * d[k + 1]
                u[k, 1] = d[k + 1]
                if k < m - 2:
                    u[k, 2] = du[k + 1]
                    u[k + 1, 1] = -factor * du[k + 1]
                for j in range(n):
                    x[k + 1, j] = x[k, j] - factor * b[k + 1, j]
                    x[k, j] = b[k + 1, j]
                scale1 = abs(u[k + 1, 0]) + abs(u[k + 1, 1])
        if k < m - 2:
            for i in range(3):
                largest = max(largest, abs(u[k, i]))
    largest = max(largest, abs(u[m - 1, 0]))
    perturb = c[0] * largest
    for k in range(m - 1, -1, -1):
        p = u[k, 0]
        for j in range(n):
            r = x[k, j]
            if k + 1 < m:
                r = r - u[k, 1] * x[k + 1, j]
            if k + 2 < m:
                r = r - u[k, 2] * x[k + 2, j]
            row[j] = r
        p = _safe_pivot(perturb, p, row, c)
        inverse = c[4] / p
        for j in range(n):
            x[k, j] = row[j] * inverse


@njit(**_OPTS)
def _all(dl, d, du, b, x, c):
    m, n = b.shape[1], b.shape[2]
    u = np.zeros((m, 3), b.dtype)
    row = np.zeros(n, b.dtype)
    for s in range(b.shape[0]):
        _one(dl[s], d[s], du[s], b[s], x[s], u, row, c)


def solve(dl, d, du, b):
    """``x`` with ``A x = b`` for each tridiagonal ``A`` (JAX's layout: ``dl[..., 0]`` and
    ``du[..., -1]`` unread) of diagonals ``(..., m)`` and ``b`` ``(..., m, n)``, all of one
    dtype (float32/64, complex64/128), tiny pivots perturbed (see the module docstring)."""
    dtype = np.dtype(b.dtype)
    real = np.finfo(dtype).dtype
    info = np.finfo(real)
    # LAPACK's safe minimum (?lamch's): the smallest normal, or 1/max if that is larger
    small = real.type(1) / info.max
    safemin = info.tiny if small < info.tiny else small * (real.type(1) + info.eps)
    c = np.array([info.eps, safemin, real.type(1) / safemin, 0, 1], real)
    batch, (m, n) = b.shape[:-2], b.shape[-2:]
    flat = [np.ascontiguousarray(v, dtype).reshape((-1, m)) for v in (dl, d, du)]
    rhs = np.ascontiguousarray(b, dtype).reshape((-1, m, n))
    x = np.zeros_like(rhs)
    if m and n:
        _all(*flat, rhs, x, c)
    return x.reshape(batch + (m, n))
