"""``funcgrad.scipy.sparse``: ``linalg``, SciPy's ``scipy.sparse.linalg`` -- the iterative
solvers (``cg``, ``gmres``, ``bicgstab`` as ``jax.scipy.sparse``, and ``bicg``, ``cgs``,
``minres``, ``lsqr``...), ``LinearOperator``, ``expm_multiply``, ``eigsh``, ``svds``... --
on dense matrices, functions and linear operators; and ``csgraph``, SciPy's graph routines
(shortest paths, spanning trees, Laplacians), differentiable in the edge weights.  funcgrad
has no sparse matrix types (SciPy's sparse matrices are densified).

>>> import numpy as np, funcgrad.scipy.sparse as fsparse
>>> x, info = fsparse.linalg.cg(np.array([[4.0, 1.0], [1.0, 3.0]]), np.array([1.0, 2.0]))
>>> np.round(x, 6), int(info)
(array([0.090909, 0.636364]), 0)
"""
from . import csgraph, linalg  # noqa: F401

__all__ = ["linalg", "csgraph"]
