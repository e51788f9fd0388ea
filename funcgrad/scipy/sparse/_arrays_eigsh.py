"""``eigsh`` of a real symmetric sparse matrix without densifying it: the pairs are
SciPy's ARPACK's (called on the concrete values through ``fg.pure_callback``, with a fixed
start vector so that repeated calls agree, signs included), and the derivative is a custom
JVP.  An eigenvalue's tangent is ``v^T dA v`` (the sparse tangent matrix, read at the
stored entries); an eigenvector's is the solution ``x`` of the bordered system
``[[A - w I, v], [v^T, 0]] [x; mu] = [-(dA v - dw v); 0]``, nonsingular where ``w`` is a
simple eigenvalue, solved sparse by SciPy's SuperLU inside ``custom_linear_solve`` (so
reverse mode transposes it, and second derivatives differentiate the bordered system's
products).  The pairs are those of the symmetric part ``(A + A^T) / 2``, the matrix
itself when it is symmetric: each stored entry ``(i, j)`` of an eigenvalue's gradient is
then ``v_i v_j`` (the dense route's is ``eigh``'s, of the lower triangle; the two agree
along symmetric directions)."""
import numpy as np

from ... import numpy as fnp
from ...callback import pure_callback
from ...custom import custom_jvp
from ...lax import custom_linear_solve

__all__ = ["sparse_eigsh", "sparse_svds"]


def _bordered_host(row, col, n):
    def host(data, w, v, rhs):
        import scipy.sparse as sp
        import scipy.sparse.linalg as sl
        v = np.asarray(v)
        idx = np.arange(n)
        rows = np.concatenate([row, idx, idx, np.full(n, n)])
        cols = np.concatenate([col, idx, np.full(n, n), idx])
        values = np.concatenate([np.asarray(data), np.full(n, -float(w)), v, v])
        bordered = sp.csc_array((values, (rows, cols)), shape=(n + 1, n + 1))
        return sl.spsolve(bordered, np.asarray(rhs)).astype(np.asarray(rhs).dtype)
    return host


def sparse_eigsh(a, k, which, v0, ncv, maxiter, tol):
    """``(w, v)``: ``k`` eigenpairs of the real symmetric sparse ``a`` (ascending)."""
    # (of the symmetric part: the same matrix for a symmetric ``a``, and a function of
    # ``a.data`` whose every perturbation is symmetric, where the rule below is exact)
    a = ((a + a.T) * 0.5).tocsr()
    n = a.shape[0]
    row, col = a._row, a._col
    dtype = np.result_type(a.dtype, np.float32)
    start = np.random.default_rng(0).standard_normal(n) if v0 is None else np.asarray(v0)
    template = (np.empty(k, dtype), np.empty((n, k), dtype))

    def host(data):
        import scipy.sparse as sp
        import scipy.sparse.linalg as sl
        matrix = sp.csr_array((np.asarray(data), (row, col)), shape=(n, n))
        w, v = sl.eigsh(matrix, k=k, which=which, v0=start.astype(matrix.dtype), ncv=ncv,
                        maxiter=maxiter, tol=tol)
        return w.astype(dtype), v.astype(dtype)

    bordered = _bordered_host(row, col, n)

    @custom_jvp
    def pairs(data):
        return pure_callback(host, template, data, vmap_method="sequential")

    @pairs.defjvp
    def pairs_jvp(primals, tangents):
        data, = primals
        ddata, = tangents
        w, v = pairs(data)
        matrix = a._like(data)
        dav = a._like(ddata) @ v
        dw = fnp.sum(v * dav, axis=0)
        columns = []
        for i in range(k):
            wi, vi = w[i], v[:, i]

            def matvec(z, wi=wi, vi=vi):
                x, mu = z[:n], z[n]
                return fnp.concatenate([matrix @ x - wi * x + vi * mu,
                                        fnp.reshape(fnp.sum(vi * x), (1,))])

            def solve(_, rhs, wi=wi, vi=vi):
                return pure_callback(bordered, rhs, data, wi, vi, rhs,
                                     vmap_method="sequential")
            rhs = fnp.concatenate([-(dav[:, i] - dw[i] * vi), fnp.zeros(1, dtype)])
            columns.append(custom_linear_solve(matvec, rhs, solve, symmetric=True)[:n])
        return (w, v), (dw, fnp.stack(columns, axis=1))

    return pairs(fnp.astype(a.data, dtype))


def sparse_svds(a, k, ncv, tol, maxiter):
    """``(u, s, vh)``: the ``k`` largest singular triplets of the real sparse ``a``, as the
    largest eigenpairs of ``[[0, a], [a^T, 0]]`` (eigenvalue ``s``, eigenvector
    ``[u; v] / sqrt(2)``), so their derivatives are :func:`sparse_eigsh`'s."""
    m, n = a.shape
    coo = a.tocoo()
    augmented = coo._make(fnp.concatenate([coo.data, coo.data]),
                          np.concatenate([coo._row, coo._col + m]),
                          np.concatenate([coo._col + m, coo._row]), (m + n, m + n))
    s, vectors = sparse_eigsh(augmented, k, "LA", None, ncv, maxiter, tol)
    return vectors[:m] * np.sqrt(2.0), s, fnp.transpose(vectors[m:] * np.sqrt(2.0))
