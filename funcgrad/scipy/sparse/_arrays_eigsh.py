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


def _bordered_host(a, m, n):
    """The callback solving ``[[A - w M, M v], [(M v)^T, 0]] z = rhs``, sparse."""
    idx = np.arange(n)

    def host(data, mdata, w, v, rhs):
        import scipy.sparse as sp
        import scipy.sparse.linalg as sl
        v = np.asarray(v)
        mv = sp.csr_array((np.asarray(mdata), (m._row, m._col)), shape=(n, n)) @ v
        rows = np.concatenate([a._row, m._row, idx, np.full(n, n)])
        cols = np.concatenate([a._col, m._col, np.full(n, n), idx])
        values = np.concatenate([np.asarray(data), -float(w) * np.asarray(mdata), mv, mv])
        bordered = sp.csc_array((values, (rows, cols)), shape=(n + 1, n + 1))
        return sl.spsolve(bordered, np.asarray(rhs)).astype(np.asarray(rhs).dtype)
    return host


def _symmetric_part(a):
    return ((a + a.T) * 0.5).tocsr()


def sparse_eigsh(a, k, which, v0, ncv, maxiter, tol, sigma=None, m=None):
    """``(w, v)``: ``k`` eigenpairs of the real symmetric sparse ``a`` (of ``a v = w m v``
    with ``m``, symmetric positive definite: ``v^T m v = 1``), SciPy's order; ``sigma``
    and ``which`` as SciPy's (shift-invert: SciPy factors ``a - sigma m`` by SuperLU)."""
    # (of the symmetric parts: the same matrices when symmetric, and functions of the
    # data whose every perturbation is symmetric, where the rule below is exact)
    a = _symmetric_part(a)
    n = a.shape[0]
    identity = m is None
    if identity:  # (M = I, a constant: its tangent is zero)
        from ._arrays_formats import ARRAYS
        m = ARRAYS["csr"]((np.ones(n, np.result_type(a.dtype, np.float32)),
                           (np.arange(n), np.arange(n))), shape=(n, n))
    m = _symmetric_part(m)
    dtype = np.result_type(a.dtype, m.dtype, np.float32)
    start = np.random.default_rng(0).standard_normal(n) if v0 is None else np.asarray(v0)
    template = (np.empty(k, dtype), np.empty((n, k), dtype))

    def host(data, mdata):
        import scipy.sparse as sp
        import scipy.sparse.linalg as sl
        matrix = sp.csr_array((np.asarray(data), (a._row, a._col)), shape=(n, n))
        mass = None if identity else sp.csc_array((np.asarray(mdata), (m._row, m._col)),
                                                  shape=(n, n))
        w, v = sl.eigsh(matrix, k=k, M=mass, sigma=sigma, which=which,
                        v0=start.astype(matrix.dtype), ncv=ncv, maxiter=maxiter, tol=tol)
        return w.astype(dtype), v.astype(dtype)

    bordered = _bordered_host(a, m, n)

    @custom_jvp
    def pairs(data, mdata):
        return pure_callback(host, template, data, mdata, vmap_method="sequential")

    @pairs.defjvp
    def pairs_jvp(primals, tangents):
        data, mdata = primals
        ddata, dmdata = tangents
        w, v = pairs(data, mdata)
        matrix, mass = a._like(data), m._like(mdata)
        dav, dmv, mv = a._like(ddata) @ v, m._like(dmdata) @ v, mass @ v
        dw = fnp.sum(v * dav, axis=0) - w * fnp.sum(v * dmv, axis=0)
        columns = []
        for i in range(k):
            wi, vi, mvi = w[i], v[:, i], mv[:, i]

            def matvec(z, wi=wi, mvi=mvi):
                x, mu = z[:n], z[n]
                return fnp.concatenate([matrix @ x - wi * (mass @ x) + mvi * mu,
                                        fnp.reshape(fnp.sum(mvi * x), (1,))])

            def solve(_, rhs, wi=wi, vi=vi):
                return pure_callback(bordered, rhs, data, mdata, wi, vi, rhs,
                                     vmap_method="sequential")
            rhs = fnp.concatenate([-(dav[:, i] - wi * dmv[:, i] - dw[i] * mvi),
                                   fnp.reshape(-0.5 * fnp.sum(vi * dmv[:, i]), (1,))])
            columns.append(custom_linear_solve(matvec, rhs, solve, symmetric=True)[:n])
        return (w, v), (dw, fnp.stack(columns, axis=1))

    return pairs(fnp.astype(a.data, dtype), fnp.astype(m.data, dtype))


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
