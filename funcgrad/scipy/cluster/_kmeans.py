"""``whiten``, ``kmeans`` and ``kmeans2`` (``scipy.cluster.vq``'s).

k-means is SciPy's own, run on the data's values with SciPy's seeds (``rng``), so the
clusters found are SciPy's.  What is returned is then recomputed with the assignment held
fixed: each centroid is the mean of its cluster's points, differentiable in the data (the
assignment, integers, has no derivative; it is locally constant, so an initial guess gets
derivative zero).  ``kmeans2``'s centroids are exactly the means under the labels it
returns; ``kmeans``'s code book is the means under the assignment to it, which is SciPy's
book once its iterations have settled (when they stopped at ``thresh`` one update short
of that and the data carries a derivative, this raises rather than differentiate a
different book).  Not under ``vmap``/``jit``: the clusters depend on the values.
"""
import warnings
from typing import Any, Tuple

import numpy as np

from ... import numpy as fnp
from ...lax import stop_gradient
from ...numpy._convert import asarray, concrete_values
from ...typing import Array, ArrayLike

__all__ = ["whiten", "kmeans", "kmeans2"]


def plain_values(x, what):
    """``x``'s values, its derivative left aside (for the clustering, which has none)."""
    return concrete_values(stop_gradient(asarray(x)), what,
                           "call it outside vmap/jit (the clusters depend on the values)")


def _check_finite(name, x, check_finite):
    if check_finite and isinstance(x, np.ndarray) and not np.all(np.isfinite(x)):
        raise ValueError(f"{name}: array must not contain infs or NaNs (pass "
                         f"check_finite=False to skip this check)")


def whiten(obs: ArrayLike, check_finite: Any = None) -> Array:
    """Each column of ``obs`` divided by its standard deviation
    (``scipy.cluster.vq.whiten``); a column of zero deviation is left as it is, with
    SciPy's warning.  Differentiable (zero derivative through a constant column's
    deviation, never NaN).

    >>> import numpy as np, funcgrad.scipy.cluster.vq as fvq
    >>> fvq.whiten(np.array([[1.0, 2.0], [3.0, 6.0]]))
    array([[1., 1.],
           [3., 3.]])
    """
    obs = asarray(obs)
    if obs.dtype.kind not in "fc":
        obs = fnp.astype(obs, np.float64)
    check = True if check_finite is None else check_finite
    _check_finite("whiten", obs, check)
    centred = obs - fnp.mean(obs, axis=0)
    variance = fnp.mean(fnp.real(centred * fnp.conj(centred)), axis=0)
    zero = variance == 0
    std = fnp.where(zero, 1.0, fnp.sqrt(fnp.where(zero, 1.0, variance)))
    if check and bool(np.any(plain_values(zero, "whiten"))):
        warnings.warn("Some columns have standard deviation zero. The values of these "
                      "columns will not change.", RuntimeWarning, stacklevel=2)
    return obs / fnp.astype(std, obs.dtype)


def _as_rows(x):
    return x if x.ndim == 2 else fnp.reshape(x, (-1, 1))


def _means(data, labels, k):
    """``(means, counts)``: the mean of the rows of ``data`` with each label ``0..k-1``."""
    onehot = (labels[None, :] == np.arange(k)[:, None]).astype(np.float64)
    counts = onehot.sum(axis=1)
    sums = fnp.astype(onehot, data.dtype) @ data
    return sums / np.maximum(counts, 1)[:, None].astype(np.float64), counts


def _nearest(data, book):
    """``vq``'s labels on plain values."""
    import scipy.cluster.vq
    return scipy.cluster.vq.vq(data, book, check_finite=False)[0]


def kmeans(obs: ArrayLike, k_or_guess: Any, iter: int = 20, thresh: float = 1e-05,
           check_finite: bool = True, *, rng: Any = None, seed: Any = None
           ) -> Tuple[Array, Array]:
    """``(codebook, distortion)``: SciPy's k-means (``scipy.cluster.vq.kmeans``, the best
    of ``iter`` runs from ``k`` random observations, or from the initial ``k_or_guess``
    book), each code the mean of the observations nearest it, ``distortion`` their mean
    distance to it; both differentiable in ``obs`` with the assignment fixed (see the
    module's notes).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.cluster.vq as fvq
    >>> obs = np.array([[0.0, 0.0], [0.0, 1.0], [4.0, 4.0], [5.0, 4.0]])
    >>> book, distortion = fvq.kmeans(obs, obs[[0, 2]])
    >>> book, float(distortion)
    (array([[0. , 0.5],
           [4.5, 4. ]]), 0.5)
    >>> fg.grad(lambda o: fvq.kmeans(o, obs[[0, 2]])[0][0, 1])(obs)[:, 1]
    array([0.5, 0.5, 0. , 0. ])
    """
    import scipy.cluster.vq

    obs = asarray(obs)
    if obs.dtype.kind not in "fc":
        obs = fnp.astype(obs, np.float64)
    _check_finite("kmeans", obs, check_finite)
    values = plain_values(obs, "kmeans")
    guess = k_or_guess if np.size(k_or_guess) == 1 else plain_values(k_or_guess, "kmeans")
    options = {} if seed is None else {"seed": seed}
    book, _ = scipy.cluster.vq.kmeans(values, guess, iter=iter, thresh=thresh,
                                      check_finite=check_finite, rng=rng, **options)
    rows = _as_rows(obs)
    labels = _nearest(_as_rows(values), _as_rows(book))
    means, counts = _means(rows, labels, book.shape[0])
    settled = bool(np.all(counts > 0)) and np.allclose(
        plain_values(means, "kmeans"), _as_rows(book), rtol=1e-12, atol=1e-12)
    if not settled:
        if not isinstance(obs, np.ndarray):
            raise ValueError("kmeans: the iterations stopped (at thresh) before the "
                             "assignment settled, so the code book is not the mean of its "
                             "nearest observations and its derivative is undefined; pass a "
                             "smaller thresh")
        means = _as_rows(book)
    distance = fnp.linalg.norm(rows - fnp.take(means, labels, axis=0), axis=1)
    distortion = fnp.mean(distance)
    return (means if book.ndim == 2 else fnp.reshape(means, (-1,))), distortion


def kmeans2(data: ArrayLike, k: Any, iter: int = 10, thresh: float = 1e-05,
            minit: str = "random", missing: str = "warn", check_finite: bool = True, *,
            rng: Any = None, seed: Any = None) -> Tuple[Array, Array]:
    """``(centroid, label)``: SciPy's k-means (``scipy.cluster.vq.kmeans2``: ``iter``
    rounds from ``minit``'s start, ``'random'``, ``'points'``, ``'++'`` or ``'matrix'``),
    its labels, and each centroid the mean of the points labelled with it, differentiable
    in ``data`` with the labels fixed.  A cluster left empty keeps a centroid from an
    earlier round, which has no derivative of that kind: asked for one, this raises.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.cluster.vq as fvq
    >>> data = np.array([[0.0, 0.0], [0.0, 1.0], [4.0, 4.0], [5.0, 4.0]])
    >>> centroid, label = fvq.kmeans2(data, data[[0, 2]], minit="matrix")
    >>> centroid, label
    (array([[0. , 0.5],
           [4.5, 4. ]]), array([0, 0, 1, 1], dtype=int32))
    """
    import scipy.cluster.vq

    data = asarray(data)
    if data.dtype.kind not in "fc":
        data = fnp.astype(data, np.float64)
    values = plain_values(data, "kmeans2")
    start = k if np.size(k) == 1 else plain_values(k, "kmeans2")
    options = {} if seed is None else {"seed": seed}
    centroid, label = scipy.cluster.vq.kmeans2(values, start, iter=iter, thresh=thresh,
                                               minit=minit, missing=missing,
                                               check_finite=check_finite, rng=rng,
                                               **options)
    if isinstance(data, np.ndarray):
        return centroid, label
    means, counts = _means(_as_rows(data), np.asarray(label), centroid.shape[0])
    if np.any(counts == 0):
        raise ValueError("kmeans2: a cluster is empty, and the centroid it keeps from an "
                         "earlier round has no derivative with the labels fixed; ask for "
                         "fewer clusters or another start (rng, minit)")
    return (means if centroid.ndim == 2 else fnp.reshape(means, (-1,))), label
