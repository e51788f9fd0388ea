"""The distance metrics of ``scipy.spatial.distance`` between rows: each formula takes
``u`` and ``v`` of shape ``(..., n)`` (broadcasting) and reduces the last axis, so the
one-pair functions, ``pdist`` and ``cdist`` share it.

Derivatives at the points where a metric is not differentiable follow PyTorch's
``cdist``: the zero subgradient.  A distance that is zero (``u == v``) has gradient zero
(the square root is guarded by a double ``where``, so no ``0 * inf`` reaches the
gradient), ``|u_i - v_i|`` has derivative ``sign(u_i - v_i)``, ``0`` where they are equal,
and ``chebyshev``'s maximum shares its gradient equally among tied coordinates (as
``max`` does).  The boolean metrics count matches: piecewise constant in ``u`` and ``v``,
whose derivative is zero (JAX's convention for ``round`` and ``sign``), and smooth in the
weights ``w``.
"""
import math
from typing import Any, Callable

import numpy as np

from ... import numpy as fnp

__all__ = []


def sqrt0(q):
    """``sqrt(q)``, with the zero subgradient at ``q == 0`` (NaN for a negative ``q``, as
    SciPy's)."""
    positive = q > 0
    root = fnp.sqrt(fnp.where(positive, q, 1.0))
    return fnp.where(positive, root, fnp.astype(fnp.where(q < 0, np.nan, 0.0), root.dtype))


def power0(a, p):
    """``a ** p`` for ``a >= 0``, zero with the zero subgradient at ``a == 0`` (for
    ``p < 1`` the derivative there is infinite)."""
    positive = a > 0
    return fnp.where(positive, fnp.where(positive, a, 1.0) ** p, 0.0)


def _weighted(terms, w):
    return fnp.sum(terms if w is None else terms * w, axis=-1)


def _safe_ratio(num, den):
    """``num / den``, and 0 where ``den == 0``."""
    nonzero = den != 0
    return fnp.where(nonzero, num / fnp.where(nonzero, den, 1.0), 0.0)


def sqeuclidean(u, v, w=None):
    d = u - v
    return _weighted(d * d, w)


def euclidean(u, v, w=None):
    return sqrt0(sqeuclidean(u, v, w))


def cityblock(u, v, w=None):
    return _weighted(fnp.abs(u - v), w)


def chebyshev(u, v, w=None):
    d = fnp.abs(u - v)
    return fnp.max(d if w is None else d * (w > 0), axis=-1)


def minkowski(u, v, p=2.0, w=None):
    if p == 2:
        return euclidean(u, v, w)
    if p == 1:
        return cityblock(u, v, w)
    if p == math.inf:
        return chebyshev(u, v, w)
    s = _weighted(power0(fnp.abs(u - v), p), w)
    return power0(s, 1.0 / p)


def seuclidean(u, v, V):  # noqa: N803 - SciPy's name
    return euclidean(u, v, 1.0 / V)


def mahalanobis(u, v, VI):  # noqa: N803
    d = u - v
    return sqrt0(fnp.sum(fnp.matmul(d, VI) * d, axis=-1))


def correlation(u, v, w=None, centered=True):
    if w is not None:
        w = w / fnp.sum(w)
    if centered:
        if w is None:
            u = u - fnp.mean(u, axis=-1, keepdims=True)
            v = v - fnp.mean(v, axis=-1, keepdims=True)
        else:
            u = u - fnp.sum(u * w, axis=-1, keepdims=True)
            v = v - fnp.sum(v * w, axis=-1, keepdims=True)
    uv, uu, vv = _weighted(u * v, w), _weighted(u * u, w), _weighted(v * v, w)
    # (a zero vector makes 0/0: NaN, as SciPy's; the clip keeps rounding in [0, 2])
    return fnp.clip(1.0 - uv / fnp.sqrt(uu * vv), 0.0, 2.0)


def cosine(u, v, w=None):
    return correlation(u, v, w, centered=False)


def braycurtis(u, v, w=None):
    return _weighted(fnp.abs(u - v), w) / _weighted(fnp.abs(u + v), w)


def canberra(u, v, w=None):
    # (a coordinate where u and v are both 0 adds nothing: SciPy's nansum of 0/0)
    return _weighted(_safe_ratio(fnp.abs(u - v), fnp.abs(u) + fnp.abs(v)), w)


def _rel_entr(x, y):
    positive = (x > 0) & (y > 0)
    safe_x, safe_y = fnp.where(positive, x, 1.0), fnp.where(positive, y, 1.0)
    return fnp.where(positive, safe_x * fnp.log(safe_x / safe_y),
                     fnp.where((x == 0) & (y >= 0), 0.0, np.inf))


def jensenshannon(p, q, base=None, axis=-1, keepdims=False):
    p = p / fnp.sum(p, axis=axis, keepdims=True)
    q = q / fnp.sum(q, axis=axis, keepdims=True)
    m = (p + q) / 2.0
    js = fnp.sum(_rel_entr(p, m) + _rel_entr(q, m), axis=axis, keepdims=keepdims)
    if base is not None:
        js = js / math.log(base)
    return sqrt0(js / 2.0)


# --- counts of matches ------------------------------------------------------------------------

def _as_number(x):
    return fnp.astype(x, np.float64)  # (SciPy's result_type(int, x.dtype): float32 too)


def _indicator(condition):
    return fnp.astype(condition, np.float64)


def hamming(u, v, w=None):
    unequal = _indicator(u != v)
    if w is None:
        return fnp.mean(unequal, axis=-1)
    return fnp.sum(unequal * w, axis=-1) / fnp.sum(w)


def jaccard(u, v, w=None):
    nonzero_u, nonzero_v = u != 0, v != 0
    unequal = _weighted(_indicator(nonzero_u ^ nonzero_v), w)
    nonzero = _weighted(_indicator(nonzero_u | nonzero_v), w)
    return _safe_ratio(unequal, nonzero)


def _counts(u, v, w):
    """SciPy's ``(nff, nft, ntf, ntt)``: ``u`` and ``v`` as numbers (booleans as 0/1), the
    weighted sums of ``(1-u)(1-v)``, ``(1-u) v``, ``u (1-v)`` and ``u v``."""
    u, v = _as_number(u), _as_number(v)
    not_u, not_v = 1.0 - u, 1.0 - v
    if w is not None:
        not_u, u = w * not_u, w * u
    return (fnp.sum(not_u * not_v, axis=-1), fnp.sum(not_u * v, axis=-1),
            fnp.sum(u * not_v, axis=-1), fnp.sum(u * v, axis=-1))


def dice(u, v, w=None):
    _, nft, ntf, ntt = _counts(u, v, w)
    return (ntf + nft) / (2.0 * ntt + ntf + nft)


def rogerstanimoto(u, v, w=None):
    nff, nft, ntf, ntt = _counts(u, v, w)
    return 2.0 * (ntf + nft) / (ntt + nff + 2.0 * (ntf + nft))


def russellrao(u, v, w=None):
    ntt = _counts(u, v, w)[3]
    n = u.shape[-1] if w is None else fnp.sum(w)
    return (n - ntt) / n


def sokalsneath(u, v, w=None):
    _, nft, ntf, ntt = _counts(u, v, w)
    den = ntt + 2.0 * (ntf + nft)  # (0 for two all-false vectors: NaN, as SciPy's pdist)
    return fnp.where(den != 0, _safe_ratio(2.0 * (ntf + nft), den), np.nan)


def yule(u, v, w=None):
    nff, nft, ntf, ntt = _counts(u, v, w)
    half_r = ntf * nft
    return _safe_ratio(2.0 * half_r, ntt * nff + half_r)


# canonical name: (formula, SciPy's other names, how pdist/cdist take the input)
# ("double": as float64; "bool": as booleans; "either": booleans stay, the rest float64)
METRICS: dict[str, tuple[Callable[..., Any], tuple[str, ...], str]] = {
    "braycurtis": (braycurtis, (), "double"),
    "canberra": (canberra, (), "double"),
    "chebyshev": (chebyshev, ("chebychev", "cheby", "cheb", "ch"), "double"),
    "cityblock": (cityblock, ("cblock", "cb", "c"), "double"),
    "correlation": (correlation, ("co",), "double"),
    "cosine": (cosine, ("cos",), "double"),
    "dice": (dice, (), "bool"),
    "euclidean": (euclidean, ("euclid", "eu", "e"), "double"),
    "hamming": (hamming, ("matching", "hamm", "ha", "h"), "either"),
    "jaccard": (jaccard, ("jacc", "ja", "j"), "either"),
    "jensenshannon": (jensenshannon, ("js",), "double"),
    "mahalanobis": (mahalanobis, ("mahal", "mah"), "double"),
    "minkowski": (minkowski, ("mi", "m", "pnorm"), "double"),
    "rogerstanimoto": (rogerstanimoto, (), "bool"),
    "russellrao": (russellrao, (), "bool"),
    "seuclidean": (seuclidean, ("se", "s"), "double"),
    "sokalsneath": (sokalsneath, (), "bool"),
    "sqeuclidean": (sqeuclidean, ("sqe", "sqeuclid"), "double"),
    "yule": (yule, (), "bool"),
}
ALIASES = {alias: name for name, (_, aliases, _) in METRICS.items()
           for alias in (name,) + aliases}
