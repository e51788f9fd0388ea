"""``funcgrad.scipy.sparse``: SciPy's ``scipy.sparse`` -- sparse arrays and matrices
(``coo_array``, ``csr_array``, ``csc_array`` and the ``*_matrix`` spellings) whose stored
values ``data`` may be traced while the index structure stays concrete; the constructors
(``eye``, ``diags``, ``kron``, ``hstack``/``vstack``/``block_array``, ``tril``/``triu``,
``random``...) and SciPy's ``.npz`` files; ``linalg``, SciPy's ``scipy.sparse.linalg``
(the iterative solvers, ``LinearOperator``, ``spsolve``, ``expm_multiply``, ``eigsh``,
``svds``...); and ``csgraph``, SciPy's graph routines, differentiable in the edge weights.

A sparse array is a pytree whose leaf is ``data``: ``fg.grad`` with respect to one
returns a sparse array of the same structure (as JAX's ``BCOO``), and ``jit``/``vmap``
take them.  Products with dense and sparse operands, sums and elementwise operations are
gathers and segment sums over the stored entries, never densified (only ``toarray``
densifies); ``spsolve`` and the Krylov solvers take them (and SciPy's sparse matrices) as
sparse operators, and ``eigsh``/``svds`` by ARPACK.  ``dia_array`` and ``bsr_array``
keep SciPy's DIA and BSR layouts; ``dok_array`` and ``lil_array`` build entry by entry.

>>> import numpy as np, funcgrad as fg, funcgrad.scipy.sparse as fsparse
>>> A = fsparse.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(3, 3), format="csr")
>>> x, info = fsparse.linalg.cg(-A, np.array([1.0, 2.0, 3.0]))
>>> np.round(x, 6), int(info)
(array([2.5, 4. , 3.5]), 0)
>>> g = fg.grad(lambda A: fsparse.linalg.spsolve(A, np.ones(3)).sum())(A)
>>> type(g).__name__, g.nnz == A.nnz
('csr_matrix', True)
"""
from . import csgraph, linalg  # noqa: F401

__all__ = ["linalg", "csgraph"]

from ._arrays_formats import (coo_array, coo_matrix, csc_array, csc_matrix,  # noqa: E402
                              csr_array, csr_matrix, issparse, isspmatrix, isspmatrix_coo,
                              isspmatrix_csc, isspmatrix_csr, sparray, spmatrix)

__all__ += ["coo_array", "csr_array", "csc_array", "coo_matrix", "csr_matrix", "csc_matrix",
            "sparray", "spmatrix", "issparse", "isspmatrix", "isspmatrix_coo",
            "isspmatrix_csr", "isspmatrix_csc"]
from ._arrays_construct import (block_array, block_diag, bmat, diags, diags_array,  # noqa: E402
                                eye, eye_array, find, hstack, identity, kron, kronsum,
                                permute_dims, spdiags, swapaxes, tril, triu, vstack)
from ._arrays_io import (SparseEfficiencyWarning, SparseWarning, get_index_dtype,  # noqa: E402
                         load_npz, rand, random, random_array, safely_cast_index_arrays,
                         save_npz)

__all__ += ["eye", "eye_array", "identity", "diags", "diags_array", "spdiags", "kron",
            "kronsum", "hstack", "vstack", "bmat", "block_array", "block_diag", "tril",
            "triu", "find", "random", "random_array", "rand", "save_npz", "load_npz",
            "swapaxes", "permute_dims", "get_index_dtype", "safely_cast_index_arrays",
            "SparseWarning", "SparseEfficiencyWarning"]
from ._arrays_dia import dia_array, dia_matrix  # noqa: E402
from ._arrays_formats import isspmatrix_dia  # noqa: E402

__all__ += ["dia_array", "dia_matrix", "isspmatrix_dia"]
from ._arrays_dok import dok_array, dok_matrix  # noqa: E402
from ._arrays_formats import isspmatrix_dok  # noqa: E402

__all__ += ["dok_array", "dok_matrix", "isspmatrix_dok"]
from ._arrays_lil import lil_array, lil_matrix  # noqa: E402
from ._arrays_formats import isspmatrix_lil  # noqa: E402

__all__ += ["lil_array", "lil_matrix", "isspmatrix_lil"]
from ._arrays_bsr import bsr_array, bsr_matrix  # noqa: E402
from ._arrays_formats import isspmatrix_bsr  # noqa: E402

__all__ += ["bsr_array", "bsr_matrix", "isspmatrix_bsr"]
from ._arrays_expand_dims import expand_dims  # noqa: E402

__all__ += ["expand_dims"]
