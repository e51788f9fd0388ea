"""``funcgrad.scipy.spatial.distance``: SciPy's ``scipy.spatial.distance``, differentiable:
``pdist``, ``cdist`` and ``squareform``, the distances between two vectors (``euclidean``,
``minkowski``, ``mahalanobis``, ``cosine``, ``jensenshannon``, ... and the boolean
dissimilarities), ``directed_hausdorff`` and the checks ``is_valid_dm``/``is_valid_y``.

Every metric is written with funcgrad.numpy operations over the rows' last axis, so
``grad``, ``jvp``, ``vmap``, ``jit``, second derivatives and GPU arrays work through
``pdist`` and ``cdist`` (which form the pairwise differences, ``O(m_A m_B n)`` memory).
Where a metric is not differentiable the derivative is PyTorch ``cdist``'s: the zero
subgradient.  A zero Euclidean, Minkowski or Mahalanobis distance has gradient zero,
never NaN; ``|u_i - v_i|`` has derivative 0 where ``u_i == v_i``; ``chebyshev``'s maximum
shares its gradient among ties.  The boolean metrics are piecewise constant in the points
(derivative zero) and smooth in the weights ``w``.

>>> import numpy as np, funcgrad as fg, funcgrad.scipy.spatial.distance as fd
>>> x = np.array([[0.0, 0.0], [3.0, 4.0], [0.0, 0.0]])
>>> fd.pdist(x)
array([5., 0., 5.])
>>> fg.grad(lambda x: fd.pdist(x).sum())(x)   # the coincident pair contributes 0
array([[-0.6, -0.8],
       [ 1.2,  1.6],
       [-0.6, -0.8]])
"""
from typing import Any, Callable, Optional, Union

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete, write_out
from ...typing import Array, ArrayLike
from . import _rows
from ._metrics import (braycurtis, canberra, chebyshev, cityblock, correlation, cosine,
                       dice, euclidean, hamming, jaccard, jensenshannon, mahalanobis,
                       minkowski, rogerstanimoto, russellrao, seuclidean, sokalsneath,
                       sqeuclidean, yule, check_p, weights)

__all__ = ["pdist", "cdist", "squareform", "directed_hausdorff", "is_valid_dm", "is_valid_y",
           "num_obs_dm", "num_obs_y",
           "braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine",
           "dice", "euclidean", "hamming", "jaccard", "jensenshannon", "mahalanobis",
           "minkowski", "rogerstanimoto", "russellrao", "seuclidean", "sokalsneath",
           "sqeuclidean", "yule"]

_Metric = Union[str, Callable[..., Any]]
_WEIGHTED = {"braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine",
             "dice", "euclidean", "hamming", "jaccard", "minkowski", "rogerstanimoto",
             "russellrao", "sokalsneath", "sqeuclidean", "yule"}


def _canonical(name, metric):
    if not isinstance(metric, str):
        raise TypeError(f"{name}: metric must be a string or a callable, got "
                        f"{type(metric).__name__}")
    canonical = _rows.ALIASES.get(metric.lower())
    if canonical is None:
        raise ValueError(f"{name}: unknown distance metric {metric!r}; use one of "
                         f"{sorted(_rows.METRICS)} or a callable f(u, v)")
    return canonical


def _points(name, X, what):
    X = asarray(X)
    if X.ndim != 2:
        raise ValueError(f"{name}: {what} must be a 2-dimensional array (one point per row), "
                         f"got shape {X.shape}")
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name}: {what} must be real numbers or booleans, got {X.dtype}")
    return X


def _typed(X, kind):
    """The points as SciPy's ``pdist``/``cdist`` give them to a metric: float64, or
    booleans for the boolean metrics (values only: their derivative is zero anyway)."""
    if kind == "bool" or (kind == "either" and X.dtype == np.bool_):
        return X if X.dtype == np.bool_ else X != 0
    return fnp.astype(X, np.float64)


def _parameters(name, metric, n, stacked, kwargs):
    """The keyword arguments of ``metric`` for ``pdist``/``cdist``, with SciPy's defaults:
    ``seuclidean``'s ``V`` is the points' variance and ``mahalanobis``'s ``VI`` the inverse
    of their covariance (both differentiable in the points, as the value depends on
    them)."""
    kwargs = dict(kwargs)
    allowed = {"w"} if metric in _WEIGHTED else set()
    allowed |= {"minkowski": {"p"}, "seuclidean": {"V"}, "mahalanobis": {"VI"}}.get(metric,
                                                                                    set())
    unknown = sorted(set(kwargs) - allowed)
    if unknown:
        raise TypeError(f"{name}: metric {metric!r} got unexpected keyword argument(s) "
                        f"{unknown}; it takes {sorted(allowed) or 'none'}")
    if "w" in kwargs:
        kwargs["w"] = weights(name, kwargs["w"], n)
    if metric == "minkowski":
        kwargs["p"] = check_p(name, kwargs.get("p", 2.0))
    if metric == "seuclidean":
        V = kwargs.get("V")  # noqa: N806 - SciPy's name
        if V is None:
            V = fnp.var(stacked(), axis=0, ddof=1)  # noqa: N806
        V = fnp.astype(asarray(V), np.float64)  # noqa: N806
        if V.ndim != 1 or V.shape[0] != n:
            raise ValueError(f"{name}: the variance vector V must be one-dimensional with "
                             f"one entry per coordinate ({n}), got shape {V.shape}")
        kwargs["V"] = V
    if metric == "mahalanobis":
        VI = kwargs.get("VI")  # noqa: N806
        if VI is None:
            points = stacked()
            if points.shape[0] <= n:
                raise ValueError(f"{name}: the number of observations ({points.shape[0]}) "
                                 f"is too small; the covariance matrix is singular. For "
                                 f"observations with {n} dimensions, at least {n + 1} "
                                 f"observations are required (or give VI)")
            VI = fnp.swapaxes(fnp.linalg.inv(fnp.atleast_2d(fnp.cov(points.T))), 0, 1)  # noqa
        VI = fnp.astype(fnp.atleast_2d(asarray(VI)), np.float64)  # noqa: N806
        if VI.shape != (n, n):
            raise ValueError(f"{name}: VI must be ({n}, {n}), got {VI.shape}")
        kwargs["VI"] = VI
    return kwargs


def _finish(name, result, out):
    return result if out is None else write_out(name, out, result)


def pdist(X: ArrayLike, metric: _Metric = "euclidean", *, out: Any = None,  # noqa: N803
          **kwargs: Any) -> Array:
    """The condensed distance matrix of the rows of ``X`` (``scipy.spatial.distance.pdist``):
    the distances of the pairs ``i < j`` in the order ``(0, 1), (0, 2), ..., (m-2, m-1)``;
    :func:`squareform` makes it square.  ``metric`` is a name (SciPy's names and aliases)
    or a callable ``f(u, v, **kwargs)`` called on each pair of rows; ``kwargs`` are the
    metric's (``w``, ``p``, ``V``, ``VI``).  Float64 out, as SciPy's.

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> x = np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])
    >>> fd.pdist(x, "cityblock")
    array([ 7., 14.,  7.])
    """
    X = _points("pdist", X, "X")  # noqa: N806
    m, n = X.shape
    i, j = np.triu_indices(m, 1)
    if callable(metric):
        values = [fnp.astype(asarray(metric(X[a], X[b], **kwargs)), np.float64)
                  for a, b in zip(i, j)]
        result = fnp.stack(values) if values else fnp.zeros((0,))
        return _finish("pdist", result, out)
    name = _canonical("pdist", metric)
    formula, _, kind = _rows.METRICS[name]
    typed = _typed(X, kind)
    params = _parameters("pdist", name, n, lambda: fnp.astype(X, np.float64), kwargs)
    result = formula(fnp.take(typed, i, axis=0), fnp.take(typed, j, axis=0), **params)
    return _finish("pdist", fnp.astype(result, np.float64), out)


def cdist(XA: ArrayLike, XB: ArrayLike, metric: _Metric = "euclidean", *,  # noqa: N803
          out: Any = None, **kwargs: Any) -> Array:
    """The distances between each row of ``XA`` and each row of ``XB``, an ``(m_A, m_B)``
    array (``scipy.spatial.distance.cdist``); ``metric`` and ``kwargs`` as in
    :func:`pdist` (``seuclidean``'s and ``mahalanobis``'s defaults come from both sets of
    points).  Gradient zero at a zero distance (PyTorch's ``cdist``).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.spatial.distance as fd
    >>> a, b = np.array([[0.0, 0.0], [1.0, 1.0]]), np.array([[3.0, 4.0]])
    >>> fd.cdist(a, b)
    array([[5.        ],
           [3.60555128]])
    >>> fg.grad(lambda b: fd.cdist(b, b).sum())(b)
    array([[0., 0.]])
    """
    XA = _points("cdist", XA, "XA")  # noqa: N806
    XB = _points("cdist", XB, "XB")  # noqa: N806
    if XA.shape[1] != XB.shape[1]:
        raise ValueError(f"cdist: XA and XB must have the same number of columns (feature "
                         f"dimension), got {XA.shape[1]} and {XB.shape[1]}")
    (ma, n), mb = XA.shape, XB.shape[0]
    if callable(metric):
        rows = [[fnp.astype(asarray(metric(XA[a], XB[b], **kwargs)), np.float64)
                 for b in range(mb)] for a in range(ma)]
        result = fnp.stack([fnp.stack(r) for r in rows]) if ma and mb else fnp.zeros((ma, mb))
        return _finish("cdist", result, out)
    name = _canonical("cdist", metric)
    formula, _, kind = _rows.METRICS[name]
    params = _parameters("cdist", name, n, lambda: fnp.astype(
        fnp.concatenate([XA, XB]), np.float64), kwargs)
    result = formula(_typed(XA, kind)[:, None, :], _typed(XB, kind)[None, :, :], **params)
    return _finish("cdist", fnp.astype(result, np.float64), out)


# --- condensed and square forms ---------------------------------------------------------------

def _pairs_of(k):
    """``n`` with ``n (n - 1) / 2 == k``, or None."""
    n = int(np.ceil(np.sqrt(2 * k)))
    return n if n * (n - 1) // 2 == k else None


def squareform(X: ArrayLike, force: str = "no", checks: bool = True) -> Array:  # noqa: N803
    """A condensed distance vector as the square symmetric matrix, or a square distance
    matrix as the condensed vector (``scipy.spatial.distance.squareform``); ``force``
    ``'tomatrix'``/``'tovector'`` insists on one direction; ``checks`` validates a matrix
    (symmetric, zero diagonal) when its values are known.  Linear: differentiable.

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> fd.squareform(np.array([1.0, 2.0, 3.0]))
    array([[0., 1., 2.],
           [1., 0., 3.],
           [2., 3., 0.]])
    >>> fd.squareform(fd.squareform(np.array([1.0, 2.0, 3.0])))
    array([1., 2., 3.])
    """
    X = asarray(X)  # noqa: N806
    force = force.lower()
    if force == "tomatrix" and X.ndim != 1:
        raise ValueError("squareform: forcing 'tomatrix' but the input X is not a distance "
                         "vector")
    if force == "tovector" and X.ndim != 2:
        raise ValueError("squareform: forcing 'tovector' but the input X is not a distance "
                         "matrix")
    if X.ndim == 1:
        n = _pairs_of(X.shape[0])
        if n is None:
            raise ValueError(f"squareform: incompatible vector size {X.shape[0]}; it must be "
                             f"a binomial coefficient n choose 2 for some integer n >= 2")
        if X.shape[0] == 0:
            return fnp.zeros((1, 1), X.dtype)
        index = np.full((n, n), X.shape[0])  # (the diagonal reads the appended zero)
        i, j = np.triu_indices(n, 1)
        index[i, j] = index[j, i] = np.arange(X.shape[0])
        return fnp.take(fnp.concatenate([X, fnp.zeros((1,), X.dtype)]), index)
    if X.ndim == 2:
        if X.shape[0] != X.shape[1]:
            raise ValueError(f"squareform: the matrix argument must be square, got shape "
                             f"{X.shape}")
        if checks:
            is_valid_dm(X, throw=True, name="X")
        i, j = np.triu_indices(X.shape[0], 1)
        return X[i, j]
    raise ValueError(f"squareform: the first argument must be a one or two dimensional "
                     f"array, got {X.ndim} dimensions")


def is_valid_dm(D: ArrayLike, tol: float = 0.0, throw: bool = False,  # noqa: N803
                name: Optional[str] = "D", warning: bool = False) -> bool:
    """Whether ``D`` is a valid distance matrix: square, symmetric and with a zero diagonal
    (within ``tol``) (``scipy.spatial.distance.is_valid_dm``).  Needs the values: under
    ``jit``/``vmap`` only the shape is checked.

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> fd.is_valid_dm(np.array([[0.0, 1.0], [1.0, 0.0]])), fd.is_valid_dm(np.eye(2))
    (True, False)
    """
    D = asarray(D)  # noqa: N806
    what = f"Distance matrix {name!r}" if name else "Distance matrix"
    problem = None
    if D.ndim != 2:
        problem = f"{what} must have shape=2 (i.e. be two-dimensional)."
    elif D.shape[0] != D.shape[1]:
        problem = f"{what} must be square."
    elif is_concrete(D):
        d = concrete_values(D, "", "")
        if not (np.all(np.abs(d - d.T) <= tol) if tol else np.all(d == d.T)):
            problem = f"{what} must be symmetric" + (f" within tolerance {tol:5.5f}." if tol
                                                     else ".")
        elif not (np.all(np.abs(np.diag(d)) <= tol) if tol else np.all(np.diag(d) == 0)):
            problem = f"{what} diagonal must be " + (
                f"close to zero within tolerance {tol:5.5f}." if tol else "zero.")
    return _verdict(problem, throw, warning)


def _verdict(problem, throw, warning):
    """SciPy's is_valid_* answer: True without a ``problem``; else raised (``throw``),
    warned (``warning``) and False."""
    if problem is not None:
        if throw:
            raise ValueError(problem)
        if warning:
            import warnings
            warnings.warn(problem, stacklevel=3)
    return problem is None


def is_valid_y(y: ArrayLike, warning: bool = False, throw: bool = False,
               name: Optional[str] = None) -> bool:
    """Whether ``y`` is a valid condensed distance vector: one-dimensional, of length ``n
    choose 2`` (``scipy.spatial.distance.is_valid_y``).

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> fd.is_valid_y(np.ones(3)), fd.is_valid_y(np.ones(4))
    (True, False)
    """
    y = asarray(y)
    what = f"Condensed distance matrix {name!r}" if name else "Condensed distance matrix"
    problem = None
    if y.ndim != 1:
        problem = f"{what} must have shape=1 (i.e. be one-dimensional)."
    elif _pairs_of(y.shape[0]) is None:
        problem = (f"Length n of condensed distance matrix {name + ' ' if name else ''}must "
                   f"be a binomial coefficient, i.e. there must be a k such that (k \\choose "
                   f"2)=n)!")
    return _verdict(problem, throw, warning)


def num_obs_dm(d: ArrayLike) -> int:
    """The number of points of a square distance matrix
    (``scipy.spatial.distance.num_obs_dm``).

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> fd.num_obs_dm(np.zeros((4, 4)))
    4
    """
    d = asarray(d)
    is_valid_dm(d, tol=np.inf, throw=True, name="d")
    return d.shape[0]


def num_obs_y(Y: ArrayLike) -> int:  # noqa: N803
    """The number of points of a condensed distance vector
    (``scipy.spatial.distance.num_obs_y``).

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> fd.num_obs_y(np.zeros(6))
    4
    """
    Y = asarray(Y)  # noqa: N806
    is_valid_y(Y, throw=True, name="Y")
    k = Y.shape[0]
    if k == 0:
        raise ValueError("num_obs_y: the number of observations cannot be determined on an "
                         "empty distance matrix")
    return _pairs_of(k)


def directed_hausdorff(u: ArrayLike, v: ArrayLike, rng: Any = 0, *, seed: Any = None
                       ) -> tuple[Array, Any, Any]:
    """``(d, i, j)``: the directed Hausdorff distance ``d = max_i min_j |u_i - v_j|`` from
    the points ``u`` to the points ``v``, and the indices of the pair that realizes it
    (``scipy.spatial.distance.directed_hausdorff``).  Computed from all the distances
    (SciPy's early break is a speed-up: same value), so ``rng``/``seed`` change nothing;
    the minimum and maximum share their gradient among ties.

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> u = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]])
    >>> v = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, 0.0], [0.0, -4.0]])
    >>> d, i, j = fd.directed_hausdorff(v, u)
    >>> float(d), int(i), int(j)
    (3.0, 3, 3)
    """
    u = _points("directed_hausdorff", u, "u")
    v = _points("directed_hausdorff", v, "v")
    if u.shape[1] != v.shape[1]:
        raise ValueError(f"directed_hausdorff: u and v need to have the same number of "
                         f"columns, got {u.shape[1]} and {v.shape[1]}")
    distances = cdist(u, v)
    nearest = fnp.min(distances, axis=1)
    i = fnp.argmax(nearest)
    return fnp.max(nearest), i, fnp.argmin(distances[i])
