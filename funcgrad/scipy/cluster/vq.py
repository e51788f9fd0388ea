"""``funcgrad.scipy.cluster.vq``: ``vq``, each observation's nearest code and its
Euclidean distance (``scipy.cluster.vq.vq``); the distances are differentiable in the
observations and the code book (the codes are integers, without derivative); and
``whiten``, ``kmeans``, ``kmeans2`` in :mod:`._kmeans`."""
from typing import Tuple

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray
from ...typing import Array, ArrayLike

__all__ = ["vq"]


def vq(obs: ArrayLike, code_book: ArrayLike, check_finite: bool = True
       ) -> Tuple[Array, Array]:
    """``(code, dist)``: for each row of ``obs`` (``(M, N)``, or ``(M,)`` of scalars) the
    index of the nearest row of ``code_book`` (``(K, N)`` or ``(K,)``), the first on a tie,
    and the Euclidean distance to it.  ``check_finite`` raises on NaN or infinity in
    plain inputs, as SciPy's.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.cluster.vq as fvq
    >>> book = np.array([[0.0, 0.0], [3.0, 4.0]])
    >>> fvq.vq(np.array([[0.0, 1.0], [3.0, 3.0]]), book)
    (array([0, 1], dtype=int32), array([1., 1.]))
    >>> fg.grad(lambda o: fg.numpy.sum(fvq.vq(o, book)[1]))(np.array([[0.0, 2.0]]))
    array([[0., 1.]])
    """
    obs, code_book = asarray(obs), asarray(code_book)
    if obs.ndim != code_book.ndim or obs.ndim not in (1, 2):
        raise ValueError(f"vq: obs and code_book must both be 1-d (scalar observations) or "
                         f"both 2-d (rows of features); got {obs.ndim}-d and "
                         f"{code_book.ndim}-d")
    if obs.ndim == 2 and obs.shape[1] != code_book.shape[1]:
        raise ValueError(f"vq: obs has {obs.shape[1]} features but code_book has "
                         f"{code_book.shape[1]}; give both the same number of columns")
    if check_finite:
        for name, x in (("obs", obs), ("code_book", code_book)):
            if isinstance(x, np.ndarray) and not np.all(np.isfinite(x)):
                raise ValueError(f"vq: {name} must not contain infs or NaNs (pass "
                                 f"check_finite=False to skip this check)")
    dtype = np.result_type(obs.dtype, code_book.dtype, np.float32)
    if obs.ndim == 1:
        obs, code_book = obs[:, None], code_book[:, None]
    diff = fnp.astype(obs, dtype)[:, None, :] - fnp.astype(code_book, dtype)[None, :, :]
    squared = fnp.sum(diff * diff, axis=-1)
    code = fnp.argmin(squared, axis=1)
    nearest = fnp.take_along_axis(squared, code[:, None], axis=1)[:, 0]
    # (sqrt at a zero distance: the double-where idiom keeps its derivative finite, 0)
    zero = nearest == 0
    dist = fnp.where(zero, 0.0, fnp.sqrt(fnp.where(zero, 1.0, nearest)))
    return fnp.astype(code, np.int32), fnp.astype(dist, dtype)  # (SciPy's codes are int32)

from ._kmeans import kmeans, kmeans2, whiten  # noqa: E402

__all__ += ["whiten", "kmeans", "kmeans2"]
