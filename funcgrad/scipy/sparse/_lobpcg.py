"""``scipy.sparse.linalg.lobpcg``'s results from the dense symmetric eigendecomposition
(as funcgrad's ``eigsh``): what LOBPCG iterates to, exactly, and differentiable as
``funcgrad.scipy.linalg.eigh`` where the chosen eigenvalues are simple."""
from typing import Any, Optional, Tuple

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...typing import Array
from .. import linalg as _sla
from ._dense_ops import _dense

__all__ = ["lobpcg"]


def lobpcg(A: Any, X: Any, B: Any = None, M: Any = None, Y: Any = None,
           tol: Optional[float] = None, maxiter: Optional[int] = None, largest: bool = True,
           verbosityLevel: int = 0, retLambdaHistory: bool = False,
           retResidualNormsHistory: bool = False, restartControl: int = 20
           ) -> Tuple[Array, Array]:
    """The ``k = X.shape[1]`` largest (``largest=True``, descending) or smallest
    (ascending) eigenvalues of the symmetric ``A``, or of ``A x = w B x``, and their
    eigenvectors (``scipy.sparse.linalg.lobpcg``).  ``A`` may be dense, sparse (funcgrad's
    or SciPy's) or a ``LinearOperator``; the pairs come from the dense eigendecomposition,
    exactly what LOBPCG converges to, so ``X``, the preconditioner ``M``, ``tol`` and
    ``maxiter`` change nothing.  Differentiable in ``A`` (each stored entry ``(i, j)`` of
    an eigenvalue's derivative is ``v_i conj(v_j)``: A is read whole, as by its products)
    and ``B``, where the chosen eigenvalues are simple.
    Constraints ``Y`` and the histories are not provided.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
    >>> A = fsparse.diags_array(np.arange(1.0, 6.0))
    >>> w, v = fsparse.linalg.lobpcg(A, np.ones((5, 2)))
    >>> w
    array([5., 4.])
    >>> fg.grad(lambda A: fsparse.linalg.lobpcg(A, np.ones((5, 1)))[0][0])(A).toarray()[4]
    array([0., 0., 0., 0., 1.])
    """
    if Y is not None:
        raise NotImplementedError("lobpcg: constraints Y are not provided; project them out "
                                  "of A yourself, or use funcgrad.scipy.linalg.eigh")
    if retLambdaHistory or retResidualNormsHistory:
        raise NotImplementedError("lobpcg: the iteration histories are not provided (the "
                                  "pairs are computed directly, without iterations)")
    x = asarray(X)
    a = _dense("lobpcg", A)
    n = a.shape[0]
    if x.ndim != 2 or x.shape[0] != n:
        raise ValueError(f"lobpcg: X must have shape ({n}, k), got {tuple(x.shape)}")
    k = x.shape[1]
    if not 0 < k <= n:
        raise ValueError(f"lobpcg: X must have between 1 and {n} columns, got {k}")
    # (the Hermitian part: LOBPCG reads A through its products, every stored entry, so each
    # entry's derivative is v_i conj(v_j), not eigh's of one triangle)
    a = (a + fnp.conj(fnp.transpose(a))) / 2
    w, v = _sla.eigh(a) if B is None else _sla.eigh(a, _dense("lobpcg", B))
    if largest:
        return w[::-1][:k], v[:, ::-1][:, :k]
    return w[:k], v[:, :k]
