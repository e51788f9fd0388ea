"""``scipy.linalg``'s structured matrices built from vectors (re-exported by
``funcgrad.scipy.linalg``): ``toeplitz``, ``hankel``, ``circulant`` and ``khatri_rao``.
Each entry is one of the inputs' entries, picked by an index table (``take``), so the
derivative flows back to the entries each was taken from."""
from typing import Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike

__all__ = ["toeplitz", "hankel", "circulant", "khatri_rao"]


def _vector(name, v, batch):
    v = asarray(v)
    if v.ndim == 0:
        v = fnp.reshape(v, (1,))
    if v.ndim > 1 and not batch:
        raise ValueError(f"{name}: expected 1-d arguments, got shape {v.shape}; ravel them "
                         f"first (SciPy ravels them, and will treat them as a batch from "
                         f"SciPy 1.19)")
    return v


def toeplitz(c: ArrayLike, r: Optional[ArrayLike] = None) -> Array:
    """The Toeplitz matrix with first column ``c`` and first row ``r`` (``r[0]`` ignored;
    ``r = conj(c)`` by default), as ``scipy.linalg.toeplitz``; arrays of more dimensions
    are batches of vectors (SciPy's convention from 1.17).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.toeplitz(np.array([1.0, 2.0, 3.0]), np.array([9.0, 4.0]))
    array([[1., 4.],
           [2., 1.],
           [3., 2.]])
    """
    c = _vector("toeplitz", c, True)
    r = fnp.conj(c) if r is None else _vector("toeplitz", r, True)
    n, m = c.shape[-1], r.shape[-1]
    batch = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    c, r = fnp.broadcast_to(c, batch + (n,)), fnp.broadcast_to(r, batch + (m,))
    # entry (i, j) is c[i - j] below the diagonal, r[j - i] above: one table of
    # values [r[m-1], ..., r[1], c[0], ..., c[n-1]], indexed by m - 1 + i - j
    values = fnp.concatenate([fnp.flip(r[..., 1:], axis=-1), c], axis=-1)
    index = (m - 1) + np.arange(n)[:, None] - np.arange(m)[None, :]
    return fnp.take(values, index, axis=-1)


def hankel(c: ArrayLike, r: Optional[ArrayLike] = None) -> Array:
    """The Hankel matrix with first column ``c`` and last row ``r`` (``r[0]`` ignored;
    zeros by default), as ``scipy.linalg.hankel``: entry ``(i, j)`` is ``c[i + j]``, then
    ``r[i + j - n + 1]``.

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.hankel(np.array([1.0, 2.0, 3.0]), np.array([3.0, 4.0]))
    array([[1., 2.],
           [2., 3.],
           [3., 4.]])
    """
    c = _vector("hankel", c, False)
    r = fnp.zeros_like(c) if r is None else _vector("hankel", r, False)
    n, m = c.shape[0], r.shape[0]
    values = fnp.concatenate([c, r[1:]])
    return fnp.take(values, np.arange(n)[:, None] + np.arange(m)[None, :])


def circulant(c: ArrayLike) -> Array:
    """The circulant matrix with first column ``c``: entry ``(i, j)`` is
    ``c[(i - j) mod n]`` (``scipy.linalg.circulant``; more dimensions: a batch).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.circulant(np.array([1.0, 2.0, 3.0]))
    array([[1., 3., 2.],
           [2., 1., 3.],
           [3., 2., 1.]])
    """
    c = _vector("circulant", c, True)
    n = c.shape[-1]
    return fnp.take(c, (np.arange(n)[:, None] - np.arange(n)[None, :]) % n, axis=-1)


def khatri_rao(a: ArrayLike, b: ArrayLike) -> Array:
    """The column-wise Kronecker product of ``a`` (n, k) and ``b`` (m, k), an (n m, k)
    matrix (``scipy.linalg.khatri_rao``).

    >>> import numpy as np, funcgrad.scipy.linalg as fsl
    >>> fsl.khatri_rao(np.array([[1.0, 2.0]]), np.array([[3.0, 4.0], [5.0, 6.0]]))
    array([[ 3.,  8.],
           [ 5., 12.]])
    """
    a, b = asarray(a), asarray(b)
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"khatri_rao: a and b must be 2-d, got shapes {a.shape} and "
                         f"{b.shape}")
    if a.shape[1] != b.shape[1]:
        raise ValueError(f"khatri_rao: a and b must have the same number of columns, got "
                         f"{a.shape[1]} and {b.shape[1]}")
    return fnp.reshape(a[:, None, :] * b[None, :, :], (-1, a.shape[1]))
