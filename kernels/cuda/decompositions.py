"""CUDA kernels for the matrix decompositions of stacks of small matrices, one thread per
matrix (a grid-stride loop over the stack): correctness first, and no shared memory or
barriers, so every launch size computes the same result.

``eigh_kernel``  cyclic Jacobi on the symmetric matrix read from one triangle (as LAPACK
                 reads it); eigenvalues ascending, eigenvectors as columns.
``svd_kernel``   one-sided Jacobi (Hestenes) on a tall matrix (m >= n): singular values
                 descending, U completed to an orthonormal basis by Gram-Schmidt against
                 the identity's columns where a singular value is zero or ``full_matrices``
                 asks for more columns, and V's rows (Vh).
``qr_kernel``    Householder QR with LAPACK's reflectors (dlarfg): ``r_kk = -sign(a_kk) *
                 ||x||``, and no reflection where the column below the diagonal is zero, so
                 Q and R equal NumPy's up to rounding.
``pinv_kernel``  ``V diag(1/s) U.T`` from the SVD, dropping ``s <= rcond * s_max``; one thread
                 per element of the result.

These kernels know nothing of GpuArray or tracing: they take contiguous device buffers
that the host made for them, plus sizes, and scalars ``one``, ``eps`` of the matrices'
dtype (a Python number would make Numba compute float32 matrices in float64).
Importing this module imports numba.cuda: funcgrad.gpu.decompositions imports it on first
use, never at ``import funcgrad``.
"""
from numba import cuda

from . import _scalar as F
from ._config import SIM, THREADS, blocks_for

CACHE = not SIM
MAX_SWEEPS = 30  # Jacobi converges quadratically: small matrices need 5-10 sweeps


@cuda.jit(cache=CACHE)
def eigh_kernel(a, v, w, n, B, lower, vectors, one, eps):
    b = cuda.grid(1)
    step = cuda.gridsize(1)
    zero = one - one
    while b < B:
        base = b * n * n
        for i in range(n):  # the symmetric matrix LAPACK sees: one triangle, mirrored
            for j in range(i):
                if lower:
                    a[base + j * n + i] = a[base + i * n + j]
                else:
                    a[base + i * n + j] = a[base + j * n + i]
        norm2 = zero
        for t in range(n * n):
            norm2 += a[base + t] * a[base + t]
        if vectors:
            for t in range(n * n):
                v[base + t] = one if t // n == t % n else zero
        # rotate while an off-diagonal entry exceeds eps * ||A||_F (rounding level)
        tol = eps * F.sqrt(norm2)
        for _ in range(MAX_SWEEPS):
            rotated = False
            for p in range(n - 1):
                for q in range(p + 1, n):
                    apq = a[base + p * n + q]
                    if not abs(apq) > tol:
                        continue
                    app = a[base + p * n + p]
                    aqq = a[base + q * n + q]
                    # the rotation that zeroes a_pq: t = tan(phi), the smaller root of
                    # t^2 + 2 theta t - 1 = 0 with theta = d / (2 a_pq), written without
                    # dividing by a_pq (which may be tiny next to the gap d)
                    d = aqq - app
                    t = abs(apq + apq) / (abs(d) + F.hypot(d, apq + apq))
                    if t == zero:  # (underflow: a_pq is negligible next to the gap)
                        continue
                    rotated = True
                    if (d < zero and apq > zero) or (d > zero and apq < zero):
                        t = -t
                    c = one / F.sqrt(t * t + one)
                    s = t * c
                    for k in range(n):
                        if k != p and k != q:
                            akp = a[base + k * n + p]
                            akq = a[base + k * n + q]
                            new_p = c * akp - s * akq
                            new_q = s * akp + c * akq
                            a[base + k * n + p] = new_p
                            a[base + p * n + k] = new_p
                            a[base + k * n + q] = new_q
                            a[base + q * n + k] = new_q
                    a[base + p * n + p] = app - t * apq
                    a[base + q * n + q] = aqq + t * apq
                    a[base + p * n + q] = zero
                    a[base + q * n + p] = zero
                    if vectors:
                        for k in range(n):
                            vkp = v[base + k * n + p]
                            vkq = v[base + k * n + q]
                            v[base + k * n + p] = c * vkp - s * vkq
                            v[base + k * n + q] = s * vkp + c * vkq
            if not rotated:
                break
        for i in range(n):  # ascending, as LAPACK returns them (selection sort)
            best = i
            for j in range(i + 1, n):
                if a[base + j * n + j] < a[base + best * n + best]:
                    best = j
            if best != i:
                tmp = a[base + i * n + i]
                a[base + i * n + i] = a[base + best * n + best]
                a[base + best * n + best] = tmp
                if vectors:
                    for k in range(n):
                        tmp = v[base + k * n + i]
                        v[base + k * n + i] = v[base + k * n + best]
                        v[base + k * n + best] = tmp
            w[b * n + i] = a[base + i * n + i]
        b += step


@cuda.jit(cache=CACHE)
def svd_kernel(g, s, u, vt, m, n, ku, B, vectors, one, eps):
    b = cuda.grid(1)
    step = cuda.gridsize(1)
    zero = one - one
    # columns count as orthogonal when |cos(angle)| <= m * eps (LAPACK's dgesvj: sqrt(m) eps)
    tol = eps * m
    while b < B:
        gb = b * m * n
        vb = b * n * n
        sb = b * n
        ub = b * m * ku
        if vectors:
            for t in range(n * n):
                vt[vb + t] = one if t // n == t % n else zero
        for _ in range(MAX_SWEEPS):
            rotated = False
            for p in range(n - 1):
                for q in range(p + 1, n):
                    alpha = zero
                    beta = zero
                    gamma = zero
                    for i in range(m):
                        x = g[gb + i * n + p]
                        y = g[gb + i * n + q]
                        alpha += x * x
                        beta += y * y
                        gamma += x * y
                    if not abs(gamma) > tol * F.sqrt(alpha) * F.sqrt(beta):
                        continue
                    # the rotation that diagonalizes [[alpha, gamma], [gamma, beta]] (as in
                    # eigh_kernel, with d = beta - alpha)
                    d = beta - alpha
                    t = abs(gamma + gamma) / (abs(d) + F.hypot(d, gamma + gamma))
                    if t == zero:  # (underflow: gamma is negligible next to the gap)
                        continue
                    rotated = True
                    if (d < zero and gamma > zero) or (d > zero and gamma < zero):
                        t = -t
                    c = one / F.sqrt(t * t + one)
                    sn = t * c
                    for i in range(m):
                        x = g[gb + i * n + p]
                        y = g[gb + i * n + q]
                        g[gb + i * n + p] = c * x - sn * y
                        g[gb + i * n + q] = sn * x + c * y
                    if vectors:  # V's columns are Vh's rows
                        for k in range(n):
                            x = vt[vb + p * n + k]
                            y = vt[vb + q * n + k]
                            vt[vb + p * n + k] = c * x - sn * y
                            vt[vb + q * n + k] = sn * x + c * y
            if not rotated:
                break
        for j in range(n):
            acc = zero
            for i in range(m):
                acc += g[gb + i * n + j] * g[gb + i * n + j]
            s[sb + j] = F.sqrt(acc)
        for j in range(n):  # descending (selection sort), columns of G and rows of Vh along
            best = j
            for i in range(j + 1, n):
                if s[sb + i] > s[sb + best]:
                    best = i
            if best != j:
                tmp = s[sb + j]
                s[sb + j] = s[sb + best]
                s[sb + best] = tmp
                for i in range(m):
                    tmp = g[gb + i * n + j]
                    g[gb + i * n + j] = g[gb + i * n + best]
                    g[gb + i * n + best] = tmp
                if vectors:
                    for k in range(n):
                        tmp = vt[vb + j * n + k]
                        vt[vb + j * n + k] = vt[vb + best * n + k]
                        vt[vb + best * n + k] = tmp
        if vectors:
            rank = 0
            for j in range(n):  # U's columns for singular values above rounding level
                sj = s[sb + j]
                if sj > s[sb] * eps:
                    rank = j + 1
                    for i in range(m):
                        u[ub + i * ku + j] = g[gb + i * n + j] / sj
            _complete_columns(u, ub, m, ku, rank, one)
        b += step


@cuda.jit(device=True)
def _complete_columns(u, ub, m, ku, start, one):
    """Columns ``start..ku-1`` of the (m, ku) block at ``ub``: an orthonormal basis of the
    complement of columns ``0..start-1`` (orthonormal already), by Gram-Schmidt (twice) of
    the identity column least covered by the columns so far (``1 - sum_j u_ij^2`` largest:
    at least ``1/m``, as the complement has dimension ``m - c`` >= 1)."""
    zero = one - one
    for c in range(start, ku):
        best = 0
        best_cover = one + one
        for i in range(m):
            cover = zero
            for j in range(c):
                cover += u[ub + i * ku + j] * u[ub + i * ku + j]
            if cover < best_cover:
                best_cover = cover
                best = i
        for i in range(m):
            u[ub + i * ku + c] = one if i == best else zero
        for _ in range(2):
            for j in range(c):
                d = zero
                for i in range(m):
                    d += u[ub + i * ku + j] * u[ub + i * ku + c]
                for i in range(m):
                    u[ub + i * ku + c] -= d * u[ub + i * ku + j]
        nrm = zero
        for i in range(m):
            nrm += u[ub + i * ku + c] * u[ub + i * ku + c]
        nrm = F.sqrt(nrm)
        for i in range(m):
            u[ub + i * ku + c] = u[ub + i * ku + c] / nrm


@cuda.jit(cache=CACHE)
def qr_kernel(a, tau, q, r, m, n, kq, B, one):
    b = cuda.grid(1)
    step = cuda.gridsize(1)
    zero = one - one
    K = min(m, n)
    while b < B:
        ab = b * m * n
        tb = b * K
        for k in range(K):
            alpha = a[ab + k * n + k]
            xnorm2 = zero
            for i in range(k + 1, m):
                xnorm2 += a[ab + i * n + k] * a[ab + i * n + k]
            if xnorm2 == zero:  # dlarfg: H = I, the diagonal entry keeps its sign
                tau[tb + k] = zero
                continue
            beta = -F.copysign(F.hypot(alpha, F.sqrt(xnorm2)), alpha)
            tk = (beta - alpha) / beta
            scale = one / (alpha - beta)
            for i in range(k + 1, m):  # v = [1, x / (alpha - beta)], stored below the diagonal
                a[ab + i * n + k] = a[ab + i * n + k] * scale
            a[ab + k * n + k] = beta
            tau[tb + k] = tk
            for j in range(k + 1, n):  # A[k:, j] -= tau * v * (v . A[k:, j])
                wj = a[ab + k * n + j]
                for i in range(k + 1, m):
                    wj += a[ab + i * n + k] * a[ab + i * n + j]
                wj = wj * tk
                a[ab + k * n + j] -= wj
                for i in range(k + 1, m):
                    a[ab + i * n + j] -= a[ab + i * n + k] * wj
        rb = b * kq * n
        for i in range(kq):
            for j in range(n):
                r[rb + i * n + j] = a[ab + i * n + j] if j >= i else zero
        qb = b * m * kq
        for t in range(m * kq):
            q[qb + t] = one if t // kq == t % kq else zero
        for k in range(K - 1, -1, -1):  # Q = H_0 ... H_(K-1) [I; 0], applied right to left
            tk = tau[tb + k]
            if tk == zero:
                continue
            for j in range(k, kq):  # (columns before k are still e_j: H_k leaves them)
                wj = q[qb + k * kq + j]
                for i in range(k + 1, m):
                    wj += a[ab + i * n + k] * q[qb + i * kq + j]
                wj = wj * tk
                q[qb + k * kq + j] -= wj
                for i in range(k + 1, m):
                    q[qb + i * kq + j] -= a[ab + i * n + k] * wj
        b += step


@cuda.jit(cache=CACHE)
def pinv_kernel(u, s, vt, out, m, n, B, transposed, rcond):
    # u (B, m, n), s (B, n) descending, vt (B, n, n) of a tall matrix G = u diag(s) vt;
    # out[b] = pinv(G) (n, m), or its transpose when ``transposed``
    idx = cuda.grid(1)
    step = cuda.gridsize(1)
    while idx < B * n * m:
        b = idx // (n * m)
        i = idx % (n * m) // m
        j = idx % m
        cutoff = rcond * s[b * n]
        acc = s[b * n] - s[b * n]
        for l in range(n):
            sl = s[b * n + l]
            if sl > cutoff:
                acc += vt[b * n * n + l * n + i] * u[b * m * n + j * n + l] / sl
        out[b * n * m + (j * n + i if transposed else i * m + j)] = acc
        idx += step


def launch_per_matrix(kernel, B, *args):
    """Run ``kernel`` with one thread per matrix of the stack of ``B``."""
    kernel[blocks_for(B), THREADS](*args)


def launch_per_element(kernel, size, *args):
    """Run ``kernel`` with one thread per element of a result of ``size`` elements."""
    kernel[blocks_for(size), THREADS](*args)
