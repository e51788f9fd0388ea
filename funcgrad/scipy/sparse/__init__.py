"""``funcgrad.scipy.sparse``: ``linalg``'s iterative solvers ``cg``, ``gmres`` and
``bicgstab`` (as ``jax.scipy.sparse``), on dense matrices, functions and objects with a
``matvec`` method; funcgrad has no sparse matrix types.

>>> import numpy as np, funcgrad.scipy.sparse as fsparse
>>> x, info = fsparse.linalg.cg(np.array([[4.0, 1.0], [1.0, 3.0]]), np.array([1.0, 2.0]))
>>> np.round(x, 6), int(info)
(array([0.090909, 0.636364]), 0)
"""
from . import linalg  # noqa: F401

__all__ = ["linalg"]
