"""``svds(A, which='SM')`` of a real sparse ``A`` without densifying it, by SciPy's own
route: the ``k`` smallest eigenpairs of the Gram matrix ``G = A^T A`` (``A A^T`` when ``A``
is wide), a sparse product, by ARPACK (:func:`._arrays_eigsh.sparse_eigsh`, whose
eigenvector derivatives come from sparse bordered solves), then the small dense SVD of
``A V`` (``m x k``), which gives the singular values accurately (not as square roots of
``G``'s eigenvalues) and the other side's vectors.  Each step is differentiable, so the
derivatives reach ``A.data`` (where the chosen singular values are simple and nonzero)."""

from ... import numpy as fnp
from .. import linalg as _sla
from ._arrays_eigsh import sparse_eigsh

__all__ = ["sparse_svds_smallest"]


def sparse_svds_smallest(a, k, ncv, tol, maxiter):
    """``(u, s, vh)``, ``s`` ascending: the ``k`` smallest singular triplets of ``a``."""
    wide = a.shape[0] < a.shape[1]
    x = a.T.tocsr() if wide else a.tocsr()  # (tall: the Gram matrix is the smaller one)
    gram = (x.T @ x).tocsr()
    _, v = sparse_eigsh(gram, k, "SM", None, ncv, maxiter, None if tol is None else tol ** 2)
    u, s, vh = _sla.svd(x @ v, full_matrices=False)
    u, s, vh = u[:, ::-1], s[::-1], fnp.matmul(vh[::-1], fnp.transpose(v))
    if wide:  # (A = X^T = (vh^T) s (u^T))
        return fnp.transpose(vh), s, fnp.transpose(u)
    return u, s, vh
