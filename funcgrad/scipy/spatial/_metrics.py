"""The distances between two vectors of ``scipy.spatial.distance`` (``euclidean(u, v)``
...), on the row formulas of :mod:`._rows`; their derivatives at the points where a
metric is not smooth are described there (PyTorch's ``cdist`` convention: the zero
subgradient, never NaN)."""
import math
from typing import Optional

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values, is_concrete
from ...typing import Array, ArrayLike
from . import _rows

__all__ = ["braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine",
           "dice", "euclidean", "hamming", "jaccard", "jensenshannon", "mahalanobis",
           "minkowski", "rogerstanimoto", "russellrao", "seuclidean", "sokalsneath",
           "sqeuclidean", "yule"]


def vector(name, u, what="u"):
    """SciPy's ``_validate_vector``: a 1-d array (integers and booleans are kept for the
    boolean metrics; the caller converts)."""
    u = asarray(u)
    if u.ndim != 1:
        raise ValueError(f"{name}: input vector {what} should be 1-D, got shape {u.shape}")
    if u.dtype.kind not in "biuf":
        raise TypeError(f"{name}: {what} must be a real numeric or boolean vector, got "
                        f"dtype {u.dtype}")
    return u


def floating(u, dtype=None):
    """``u`` as a float array: float32 and float64 stay, the rest becomes float64."""
    if dtype is not None or u.dtype.kind != "f" or u.dtype == np.float16:
        return fnp.astype(u, np.float64 if dtype is None else dtype)
    return u


def weights(name, w, n):
    """``w`` as SciPy checks it: 1-d, of ``n`` entries, not negative (checked when its
    values are known, not under ``jit``/``vmap``)."""
    if w is None:
        return None
    w = floating(vector(name, w, "w"), np.float64)
    if w.shape[0] != n:
        raise ValueError(f"{name}: w has {w.shape[0]} entries; it should have one per "
                         f"coordinate ({n})")
    if is_concrete(w) and np.any(concrete_values(w, "", "") < 0):
        raise ValueError(f"{name}: input weights should be all non-negative")
    return w


def _pair(name, u, v, w=None, dtype=None):
    u, v = vector(name, u), vector(name, v, "v")
    if u.shape != v.shape:
        raise ValueError(f"{name}: u and v must have the same length, got {u.shape[0]} and "
                         f"{v.shape[0]}")
    return floating(u, dtype), floating(v, dtype), weights(name, w, u.shape[0])


def _booleans(name, u, v, w):
    u, v = vector(name, u), vector(name, v, "v")
    if u.shape != v.shape:
        raise ValueError(f"{name}: u and v must have the same length, got {u.shape[0]} and "
                         f"{v.shape[0]}")
    return u, v, weights(name, w, u.shape[0])


def check_p(name, p):
    if not isinstance(p, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}: p must be a number, got {type(p).__name__}")
    if not p > 0:
        raise ValueError(f"{name}: p must be greater than 0, got {p}")
    return float(p)


def euclidean(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """``sqrt(sum(w (u - v)^2))`` (``scipy.spatial.distance.euclidean``); gradient zero
    where ``u == v`` (PyTorch's ``cdist``), never NaN.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.spatial.distance as fd
    >>> float(fd.euclidean([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]))
    1.4142135623730951
    >>> fg.grad(fd.euclidean)(np.ones(2), np.ones(2))
    array([0., 0.])
    """
    # (float64 for float32 points too, as SciPy's, whose 2-norm is a Python float)
    return _rows.euclidean(*_pair("euclidean", u, v, w, np.float64))


def sqeuclidean(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """``sum(w (u - v)^2)`` (``scipy.spatial.distance.sqeuclidean``).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.sqeuclidean([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]))
    2.0
    """
    return _rows.sqeuclidean(*_pair("sqeuclidean", u, v, w))


def cityblock(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """``sum(w |u - v|)`` (``scipy.spatial.distance.cityblock``); the derivative of
    ``|u_i - v_i|`` is 0 where they are equal.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.cityblock([1.0, 0.0, 0.0], [0.0, 2.0, 0.0], w=[1.0, 0.5, 1.0]))
    2.0
    """
    return _rows.cityblock(*_pair("cityblock", u, v, w))


def chebyshev(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """``max |u_i - v_i|`` over the coordinates with ``w_i > 0``
    (``scipy.spatial.distance.chebyshev``); tied maxima share the gradient equally.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.chebyshev([1.0, 0.0, 0.0], [0.0, 3.0, 0.0]))
    3.0
    """
    return _rows.chebyshev(*_pair("chebyshev", u, v, w))


def minkowski(u: ArrayLike, v: ArrayLike, p: float = 2, w: Optional[ArrayLike] = None
              ) -> Array:
    """``(sum(w |u - v|^p))^(1/p)`` (``scipy.spatial.distance.minkowski``), ``p > 0``
    (``np.inf``: :func:`chebyshev`); the zero subgradient where a coordinate difference or
    the distance is zero.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.minkowski([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 1))
    2.0
    >>> round(float(fd.minkowski([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 3)), 12)
    1.259921049895
    """
    p = check_p("minkowski", p)
    u, v, w = _pair("minkowski", u, v, w, np.float64 if p == 2 else None)
    return _rows.minkowski(u, v, p, w)


def seuclidean(u: ArrayLike, v: ArrayLike, V: ArrayLike) -> Array:  # noqa: N803
    """The Euclidean distance with each coordinate divided by its variance ``V``
    (``scipy.spatial.distance.seuclidean``); differentiable in ``V`` too.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.seuclidean([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.1, 0.1, 0.1]))
    4.47213595499958
    """
    u, v, _ = _pair("seuclidean", u, v, dtype=np.float64)
    V = floating(vector("seuclidean", V, "V"), np.float64)
    if V.shape != u.shape:
        raise TypeError("seuclidean: V must be a 1-D array of the same dimension as u and v")
    return _rows.seuclidean(u, v, V)


def mahalanobis(u: ArrayLike, v: ArrayLike, VI: ArrayLike) -> Array:  # noqa: N803
    """``sqrt((u - v) VI (u - v)^T)`` with ``VI`` the inverse covariance
    (``scipy.spatial.distance.mahalanobis``); gradient zero where ``u == v``.

    >>> import numpy as np, funcgrad.scipy.spatial.distance as fd
    >>> iv = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.5], [0.5, 0.5, 1.0]])
    >>> float(fd.mahalanobis([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], iv))
    1.0
    """
    u, v, _ = _pair("mahalanobis", u, v)
    VI = fnp.atleast_2d(floating(asarray(VI)))
    if VI.shape != (u.shape[0], u.shape[0]):
        raise ValueError(f"mahalanobis: VI must be ({u.shape[0]}, {u.shape[0]}), got "
                         f"{VI.shape}")
    return _rows.mahalanobis(u, v, VI)


def correlation(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None,
                centered: bool = True) -> Array:
    """One minus the (weighted) correlation of ``u`` and ``v``
    (``scipy.spatial.distance.correlation``); ``centered=False`` is :func:`cosine`.  NaN
    for a constant vector, as SciPy's.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.correlation([1.0, 2.0, 3.0], [3.0, 2.0, 1.0]))
    2.0
    """
    u, v, w = _pair("correlation", u, v, w)
    return _rows.correlation(u, v, w, centered=bool(centered))


def cosine(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """One minus the cosine of the angle between ``u`` and ``v``
    (``scipy.spatial.distance.cosine``); NaN for a zero vector, as SciPy's.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.cosine([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]))
    1.0
    """
    return _rows.cosine(*_pair("cosine", u, v, w))


def braycurtis(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """``sum(w |u - v|) / sum(w |u + v|)`` (``scipy.spatial.distance.braycurtis``).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.braycurtis([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]))
    1.0
    """
    return _rows.braycurtis(*_pair("braycurtis", u, v, w, np.float64))


def canberra(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """``sum(w |u - v| / (|u| + |v|))``, a coordinate where both are 0 adding nothing
    (``scipy.spatial.distance.canberra``).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.canberra([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]))
    2.0
    """
    return _rows.canberra(*_pair("canberra", u, v, w, np.float64))


def jensenshannon(p: ArrayLike, q: ArrayLike, base: Optional[float] = None, *,
                  axis: int = 0, keepdims: bool = False) -> Array:
    """The Jensen-Shannon distance of the probability vectors ``p`` and ``q`` (each
    normalized to sum 1) along ``axis`` (``scipy.spatial.distance.jensenshannon``);
    gradient zero where ``p == q``, and a zero probability adds nothing (the zero
    subgradient of ``x log x`` at 0).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.jensenshannon([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 2.0))
    1.0
    """
    p, q = floating(asarray(p)), floating(asarray(q))
    if base is not None and not base > 0:
        raise ValueError(f"jensenshannon: base must be positive, got {base}")
    return _rows.jensenshannon(p, q, base, axis, keepdims)


def hamming(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """The (weighted) fraction of coordinates where ``u`` and ``v`` differ
    (``scipy.spatial.distance.hamming``): piecewise constant in ``u`` and ``v``
    (derivative zero), smooth in ``w``.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.hamming([1, 0, 0], [0, 1, 0]))
    0.6666666666666666
    """
    u, v, w = _booleans("hamming", u, v, w)
    return _rows.hamming(u, v, w)


def jaccard(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """The Jaccard-Needham dissimilarity of the nonzero patterns of ``u`` and ``v``
    (``scipy.spatial.distance.jaccard``); 0 when both are all zero.  A value: derivative
    zero in ``u`` and ``v``.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.jaccard([1, 0, 0], [0, 1, 0]))
    1.0
    """
    u, v, w = _booleans("jaccard", u, v, w)
    return _rows.jaccard(u, v, w)


def dice(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """The Dice dissimilarity ``(c_TF + c_FT) / (2 c_TT + c_FT + c_TF)`` of boolean
    vectors (``scipy.spatial.distance.dice``); numbers count as SciPy counts them (``u v``,
    ``(1 - u) v``, ...), so the result is a rational function of non-boolean inputs.

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.dice([1, 0, 0], [1, 1, 0]))
    0.3333333333333333
    """
    return _rows.dice(*_booleans("dice", u, v, w))


def rogerstanimoto(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """The Rogers-Tanimoto dissimilarity ``2 (c_TF + c_FT) / (c_TT + c_FF + 2 (c_TF +
    c_FT))`` (``scipy.spatial.distance.rogerstanimoto``).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.rogerstanimoto([1, 0, 0], [0, 1, 0]))
    0.8
    """
    return _rows.rogerstanimoto(*_booleans("rogerstanimoto", u, v, w))


def russellrao(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """The Russell-Rao dissimilarity ``(n - c_TT) / n``
    (``scipy.spatial.distance.russellrao``).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.russellrao([1, 0, 0], [1, 1, 0]))
    0.6666666666666666
    """
    return _rows.russellrao(*_booleans("russellrao", u, v, w))


def sokalsneath(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """The Sokal-Sneath dissimilarity ``2 (c_TF + c_FT) / (c_TT + 2 (c_TF + c_FT))``
    (``scipy.spatial.distance.sokalsneath``); raises for two all-false vectors, as
    SciPy's (``pdist`` gives NaN there).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.sokalsneath([1, 0, 0], [0, 1, 0]))
    1.0
    """
    u, v, w = _booleans("sokalsneath", u, v, w)
    out = _rows.sokalsneath(u, v, w)
    if is_concrete(out) and math.isnan(float(concrete_values(out, "", ""))):
        raise ValueError("sokalsneath: the Sokal-Sneath dissimilarity is not defined for "
                         "vectors that are entirely false")
    return out


def yule(u: ArrayLike, v: ArrayLike, w: Optional[ArrayLike] = None) -> Array:
    """The Yule dissimilarity ``2 c_TF c_FT / (c_TT c_FF + c_TF c_FT)``, 0 when ``c_TF
    c_FT == 0`` (``scipy.spatial.distance.yule``).

    >>> import funcgrad.scipy.spatial.distance as fd
    >>> float(fd.yule([1, 0, 0], [0, 1, 0]))
    2.0
    """
    return _rows.yule(*_booleans("yule", u, v, w))
