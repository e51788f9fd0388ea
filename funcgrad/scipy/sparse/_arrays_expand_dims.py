"""``expand_dims``: SciPy's new axis of length 1 on a sparse array.  funcgrad's sparse
arrays are 2-d, so the one case it has is a 1-d sparse array (SciPy's) made 2-d: a row
(``axis=0``) or a column (``axis=1``) ``coo_array``."""
from typing import Any

import numpy as np

from ._arrays_formats import coo_array

__all__ = ["expand_dims"]


def expand_dims(A: Any, /, *, axis: int = 0) -> Any:
    """``A`` with a new axis of length 1 at ``axis``, as a ``coo_array``
    (``scipy.sparse.expand_dims``); ``A`` a 1-d sparse array (SciPy's: funcgrad's sparse
    arrays are 2-d, and a 3-d result has no funcgrad type, so a 2-d ``A`` raises
    NotImplementedError).

    >>> import numpy as np, scipy.sparse as sp, funcgrad.scipy.sparse as fsparse
    >>> v = sp.coo_array(np.array([1.0, 0.0, 2.0]))
    >>> B = fsparse.expand_dims(v, axis=1); B.shape, B.toarray().ravel()
    ((3, 1), array([1., 0., 2.]))
    """
    shape = getattr(A, "shape", None)
    if shape is None or not (getattr(type(A), "_funcgrad_sparse", False) or
                             type(A).__module__.startswith("scipy.sparse")):
        raise TypeError(f"expand_dims: A must be a sparse array, got {type(A).__name__}; "
                        f"for a dense array use np.expand_dims")
    ndim = len(shape)
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or \
            not -ndim - 1 <= axis <= ndim:
        raise ValueError(f"Invalid axis {axis!r}: expand_dims takes an integer in "
                         f"[{-ndim - 1}, {ndim}] for a {ndim}-d array")
    if ndim != 1:
        raise NotImplementedError(
            f"expand_dims of a {ndim}-d sparse array is {ndim + 1}-d, which funcgrad's "
            f"sparse arrays (2-d) cannot be; use SciPy's expand_dims on a SciPy array, or "
            f"reshape to 2-d")
    coo = A.tocoo()
    index = np.asarray(coo.coords[0], np.intp)
    zeros = np.zeros(len(index), np.intp)
    row, col, new = (zeros, index, (1, shape[0])) if int(axis) % 2 == 0 else \
        (index, zeros, (shape[0], 1))
    return coo_array._make(np.array(coo.data), row, col, new)
