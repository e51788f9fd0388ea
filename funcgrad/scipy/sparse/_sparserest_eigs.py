"""``eigs`` of a square sparse matrix without densifying it: the pairs are SciPy's ARPACK's
(called on the concrete values through ``fg.pure_callback``, with a fixed start vector so
that repeated calls agree), and the derivative is a custom JVP.

An eigenvalue's tangent is ``u^H dA v / (u^H v)`` with ``u`` the left eigenvector (the null
vector of ``(A - w I)^H``, found on the host by two steps of inverse iteration with SciPy's
SuperLU, shifted by a relative ``1e-10`` so the factorization exists).  An eigenvector's
tangent solves the bordered system ``[[A - w I, v], [v^H, 0]] [dv; mu] = [-(dA v - dw v);
0]``, nonsingular where ``w`` is simple; it is the derivative under the gauge
``v^H dv = 0``: ARPACK's unit vectors keep ``|v| = 1`` too, and for a real eigenvalue of a
real matrix (real vectors) the two agree, while a complex vector's phase is ARPACK's
choice, so there only what does not depend on the phase (``v v^H``, ``|v_i|``) has
SciPy's derivative -- as for the dense ``eig``.  ``u`` is an output of the same custom
JVP (with its own bordered system in ``A^H``), so the rule is differentiable again and
second derivatives are exact.  The bordered systems are solved sparse (SciPy's
``spsolve``) inside ``custom_linear_solve``, transposed for reverse mode."""
import numpy as np

from ... import numpy as fnp
from ...callback import pure_callback
from ...custom import custom_jvp
from ...lax import custom_linear_solve

__all__ = ["sparse_eigs"]


def _host_matrix(a, data, adjoint):
    import scipy.sparse as sp
    matrix = sp.csr_array((np.asarray(data), (a._row, a._col)), shape=a.shape)
    return matrix.conj().T.tocsr() if adjoint else matrix


def _bordered(a, adjoint, transposed):
    """The callback solving ``K z = rhs`` (``K^T`` when ``transposed``) with ``K = [[B -
    s I, x], [x^H, 0]]``, ``B`` the matrix or (``adjoint``) its conjugate transpose."""
    n = a.shape[0]
    idx = np.arange(n)

    def host(data, shift, x, rhs):
        import scipy.sparse as sp
        import scipy.sparse.linalg as sl
        x, rhs = np.asarray(x), np.asarray(rhs)
        b = _host_matrix(a, data, adjoint).tocoo()
        rows = np.concatenate([b.row, idx, idx, np.full(n, n)])
        cols = np.concatenate([b.col, idx, np.full(n, n), idx])
        values = np.concatenate([b.data, np.full(n, -complex(shift)), x, np.conj(x)])
        k = sp.csc_array((values.astype(rhs.dtype), (rows, cols)), shape=(n + 1, n + 1))
        return sl.spsolve(k.T.tocsc() if transposed else k, rhs).astype(rhs.dtype)
    return host


def _left_vectors(matrix, w, v):
    """The unit null vectors of ``(A - w_i I)^H``, by inverse iteration from ``v_i``."""
    import scipy.sparse as sp
    import scipy.sparse.linalg as sl
    n = matrix.shape[0]
    adjoint = matrix.conj().T.astype(v.dtype)
    u = np.empty_like(v)
    for i, wi in enumerate(w):
        shift = np.conj(wi) + 1e-10 * max(1.0, abs(wi))
        lu = sl.splu((adjoint - shift * sp.eye(n, dtype=v.dtype)).tocsc())
        x = v[:, i]
        for _ in range(2):
            x = lu.solve(x)
            x = x / np.linalg.norm(x)
        u[:, i] = x
    return u


def sparse_eigs(a, k, which, sigma, v0, ncv, maxiter, tol):
    """``(w, v)``: ``k`` eigenpairs of the square sparse ``a``, SciPy's order."""
    a = a.tocsr()
    n = a.shape[0]
    dtype = np.result_type(a.dtype, np.float32)
    cdtype = np.result_type(dtype, np.complex64)
    start = np.random.default_rng(0).standard_normal(n) if v0 is None else np.asarray(v0)
    template = (np.empty(k, cdtype), np.empty((n, k), cdtype), np.empty((n, k), cdtype))

    def host(data):
        import scipy.sparse.linalg as sl
        matrix = _host_matrix(a, data, False)
        w, v = sl.eigs(matrix, k=k, sigma=sigma, which=which,
                       v0=start.astype(matrix.dtype), ncv=ncv, maxiter=maxiter, tol=tol)
        v = v.astype(cdtype)
        return w.astype(cdtype), v, _left_vectors(matrix, w, v)

    def bordered_solve(data, matvec, shift, x, rhs, adjoint):
        def solver(transposed):
            def solve(_, r):
                return pure_callback(_bordered(a, adjoint, transposed), r, data, shift, x, r,
                                     vmap_method="sequential")
            return solve
        return custom_linear_solve(matvec, rhs, solver(False), solver(True))[:n]

    @custom_jvp
    def triples(data):
        return pure_callback(host, template, data, vmap_method="sequential")

    @triples.defjvp
    def triples_jvp(primals, tangents):
        data, = primals
        ddata, = tangents
        w, v, u = triples(data)
        matrix, tangent = a._like(data), a._like(ddata)
        adjoint = matrix.conj().T
        dav = tangent @ v
        dahu = tangent.conj().T @ u
        dw = fnp.sum(fnp.conj(u) * dav, axis=0) / fnp.sum(fnp.conj(u) * v, axis=0)
        dvs, dus = [], []
        zero = fnp.zeros(1, cdtype)
        for i in range(k):
            wi, vi, ui = w[i], v[:, i], u[:, i]

            def right(z, wi=wi, vi=vi):
                x, mu = z[:n], z[n]
                return fnp.concatenate([matrix @ x - wi * x + vi * mu,
                                        fnp.reshape(fnp.sum(fnp.conj(vi) * x), (1,))])

            def left(z, wi=wi, ui=ui):
                x, mu = z[:n], z[n]
                return fnp.concatenate([adjoint @ x - fnp.conj(wi) * x + ui * mu,
                                        fnp.reshape(fnp.sum(fnp.conj(ui) * x), (1,))])
            dvs.append(bordered_solve(data, right, wi, vi, fnp.concatenate(
                [-(dav[:, i] - dw[i] * vi), zero]), False))
            dus.append(bordered_solve(data, left, fnp.conj(wi), ui, fnp.concatenate(
                [-(dahu[:, i] - fnp.conj(dw[i]) * ui), zero]), True))
        return (w, v, u), (dw, fnp.stack(dvs, axis=1), fnp.stack(dus, axis=1))

    w, v, _ = triples(fnp.astype(a.data, dtype))
    return w, v
