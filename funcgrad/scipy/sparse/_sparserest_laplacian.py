"""``LaplacianNd``: SciPy's grid Laplacian as a funcgrad ``LinearOperator``.  The matrix,
its eigenvalues and its eigenvectors are SciPy's own (``scipy.sparse.linalg.LaplacianNd``,
made when the operator is; importing funcgrad loads no SciPy), so their order -- SciPy
sorts the eigenvalues, and the eigenvectors of a repeated one follow that sort -- is
SciPy's.  The operator has no parameter to differentiate; its products are sparse
products with SciPy's matrix, differentiable in the vector, so it serves funcgrad's
solvers and transforms."""
from typing import Any, Optional, Tuple

import numpy as np

from ._arrays_core import coerce
from ._linop import LinearOperator

__all__ = ["LaplacianNd"]


class LaplacianNd(LinearOperator):
    """The Laplacian of an N-dimensional grid (``scipy.sparse.linalg.LaplacianNd``):
    ``grid_shape`` the grid's sizes, ``boundary_conditions`` ``'neumann'``,
    ``'dirichlet'`` or ``'periodic'``, ``dtype`` the matrix's (``int8`` by default, as
    SciPy's).  A symmetric ``LinearOperator`` of shape ``(prod(grid_shape),) * 2`` whose
    products are differentiable in the vector; ``toarray``, ``tosparse``,
    ``eigenvalues`` and ``eigenvectors`` give SciPy's values.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse.linalg as fsl
    >>> lap = fsl.LaplacianNd((3,), boundary_conditions="dirichlet")
    >>> lap @ np.array([1.0, 2.0, 3.0])
    array([ 0.,  0., -4.])
    >>> fg.grad(lambda x: x @ (lap @ x))(np.array([1.0, 2.0, 3.0]))  # 2 L x
    array([ 0.,  0., -8.])
    """

    def __init__(self, grid_shape: Tuple[int, ...], *, boundary_conditions: str = "neumann",
                 dtype: Any = np.int8) -> None:
        import scipy.sparse.linalg as sl
        self._scipy = sl.LaplacianNd(grid_shape, boundary_conditions=boundary_conditions,
                                     dtype=dtype)
        self.grid_shape = self._scipy.grid_shape
        self.boundary_conditions = self._scipy.boundary_conditions
        self._laplacian = coerce(self._scipy.tosparse())
        n = int(self._scipy.shape[0])
        super().__init__(self._scipy.dtype, (n, n))

    def _matvec(self, x):
        return self._laplacian @ x

    def _matmat(self, X):
        return self._laplacian @ X

    def _rmatvec(self, x):  # (symmetric)
        return self._laplacian @ x

    def _rmatmat(self, X):
        return self._laplacian @ X

    def _adjoint(self):
        return self

    def _transpose(self):
        return self

    def toarray(self) -> Any:
        """The matrix as a dense array (SciPy's, of the operator's dtype).

        >>> import funcgrad.scipy.sparse.linalg as fsl
        >>> fsl.LaplacianNd((2,)).toarray()
        array([[-1,  1],
               [ 1, -1]], dtype=int8)
        """
        return self._scipy.toarray()

    def tosparse(self) -> Any:
        """The matrix as funcgrad's sparse array (SciPy's format and values).

        >>> import funcgrad.scipy.sparse.linalg as fsl
        >>> fsl.LaplacianNd((3,), boundary_conditions="periodic").tosparse().toarray()
        array([[-2,  1,  1],
               [ 1, -2,  1],
               [ 1,  1, -2]], dtype=int8)
        """
        return coerce(self._scipy.tosparse())

    def eigenvalues(self, m: Optional[int] = None) -> Any:
        """The ``m`` largest eigenvalues (all with ``m=None``), ascending, SciPy's
        closed-form values.

        >>> import funcgrad.scipy.sparse.linalg as fsl
        >>> fsl.LaplacianNd((3,), boundary_conditions="periodic").eigenvalues()
        array([-3., -3.,  0.])
        """
        return self._scipy.eigenvalues(m)

    def eigenvectors(self, m: Optional[int] = None) -> Any:
        """The unit eigenvectors of the ``m`` largest eigenvalues (all with ``m=None``),
        as columns in :meth:`eigenvalues`' order, SciPy's closed-form values.

        >>> import numpy as np, funcgrad.scipy.sparse.linalg as fsl
        >>> np.round(fsl.LaplacianNd((2,)).eigenvectors(), 6)
        array([[ 0.707107,  0.707107],
               [-0.707107,  0.707107]])
        """
        return self._scipy.eigenvectors(m)
