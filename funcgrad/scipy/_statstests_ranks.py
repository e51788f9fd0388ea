"""Rank tests of :mod:`funcgrad.scipy.stats` (re-exported there), with SciPy's names,
signatures and results: ``kendalltau`` (tau-b and tau-c), ``mannwhitneyu`` and
``wilcoxon``, with SciPy's exact null distributions for small samples without ties and
its normal approximations otherwise.

Their statistics count orderings (concordant pairs, rank sums): step functions of the
data, whose derivative is zero almost everywhere (undefined at ties); so are the
p-values.  They are computed from the values (on traced data under ``grad`` too, where
the result is a constant, so gradients through them are zero, on purpose), but not under
``vmap``/``jit``, where the values are not known (a ``ConcretizationError`` says so), as
``rankdata``.  The exact distributions are counted with Python integers.
"""
import math
from collections import namedtuple
from typing import Any, Optional

import numpy as np

from ..numpy._convert import concrete_values
from . import special as sp
from ._correlation import SignificanceResult, _check_alternative
from ._stats_functions import rankdata
from ._stats_summary import check_nan_policy

__all__ = ["kendalltau", "mannwhitneyu", "wilcoxon"]

MannwhitneyuResult = namedtuple("MannwhitneyuResult", ["statistic", "pvalue"])
MannwhitneyuResult.__doc__ = """:func:`mannwhitneyu`'s result, a named tuple as SciPy's."""


class WilcoxonResult(namedtuple("WilcoxonResult", ["statistic", "pvalue"])):
    """:func:`wilcoxon`'s result, as SciPy's: ``statistic, pvalue``, and ``.zstatistic``
    when ``method='asymptotic'`` was asked for.

    >>> import numpy as np
    >>> res = wilcoxon(np.arange(1.0, 21.0) - 5.5, method="asymptotic")
    >>> res.zstatistic < 0
    np.True_
    """

    zstatistic: Any


_FIX = "call it outside vmap/jit: its derivative is zero, so nothing is lost by passing values"


def _values(a, name):
    values = np.asarray(concrete_values(a, name, f"{name} counts orderings of the values; "
                                                 f"{_FIX}"))
    if values.dtype.kind not in "biuf":
        raise TypeError(f"{name}: the data must be real numbers, got dtype {values.dtype}")
    return values


def _float_type(*arrays):
    return np.result_type(*[a.dtype for a in arrays], np.float32) if all(
        a.dtype.kind == "f" for a in arrays) else np.float64


def _lines(name, x, y, axis):
    """``x`` and ``y`` (values) with ``axis`` last, broadcast against each other before it
    (``axis=None``: flattened)."""
    if axis is None:
        return x.reshape(1, -1), y.reshape(1, -1), ()
    x, y = np.moveaxis(np.atleast_1d(x), axis, -1), np.moveaxis(np.atleast_1d(y), axis, -1)
    try:
        lead = np.broadcast_shapes(x.shape[:-1], y.shape[:-1])
    except ValueError:
        raise ValueError(f"{name}: x and y must broadcast against each other apart from the "
                         f"axis, got shapes {x.shape} and {y.shape} (axis last)") from None
    x = np.broadcast_to(x, lead + x.shape[-1:]).reshape(-1, x.shape[-1])
    y = np.broadcast_to(y, lead + y.shape[-1:]).reshape(-1, y.shape[-1])
    return x, y, lead


def _shaped(values, lead, dtype, keepdims, ndim, axis):
    out = np.asarray(values, dtype).reshape(lead)
    if keepdims:
        out = (out.reshape((1,) * ndim) if axis is None
               else np.expand_dims(out, axis if axis >= 0 else ndim + axis))
    return out[()] if out.ndim == 0 else out


def _missing(name, nan_policy, *lines):
    missing = any(np.isnan(v).any() for v in lines if v.dtype.kind == "f")
    if missing and nan_policy == "raise":
        raise ValueError(f"{name}: the input contains NaN (nan_policy='raise')")
    return missing


def _normal_tails(z, alternative):
    if alternative == "less":
        return float(sp.ndtr(z))
    if alternative == "greater":
        return float(sp.ndtr(-z))
    return float(2.0 * sp.ndtr(-abs(z)))


# --- kendalltau -------------------------------------------------------------------------------

def _tie_sums(values):
    """``(tied pairs, sum t(t-1)(t-2), sum t(t-1)(2t+5))`` over the groups of ``t`` equal
    values (SciPy's tie terms)."""
    _, t = np.unique(values, return_counts=True)
    t = t[t > 1].astype(np.int64)
    return (int((t * (t - 1) // 2).sum()), int((t * (t - 1) * (t - 2)).sum()),
            int((t * (t - 1) * (2 * t + 5)).sum()))


def _inversions(r):
    """How many pairs ``i < j`` have ``r[i] > r[j]``, for ranks ``0 <= r < n``: a bottom-up
    merge sort, each level vectorized (blocks kept apart by an offset per block)."""
    n = r.size
    current, total, width = r.astype(np.int64), 0, 1
    place = np.arange(n)
    while width < n:
        block = place // (2 * width)
        right = place % (2 * width) >= width
        key = current + block * (n + 1)
        left_keys = key[~right]  # (each half is sorted, and the offsets order the blocks)
        left_per_block = np.bincount(block[~right], minlength=int(block[-1]) + 1)
        before = np.concatenate([[0], np.cumsum(left_per_block)])
        rb = block[right]
        not_above = np.searchsorted(left_keys, key[right], side="right") - before[rb]
        total += int((left_per_block[rb] - not_above).sum())
        current = np.sort(key) % (n + 1)
        width *= 2
    return total


def _pair_counts(x, y):
    """``(concordant minus discordant, discordant)`` pairs: the discordant ones are the
    inversions of ``y``'s ranks in the order of ``(x, y)`` (where ``x`` ties, ``y`` is
    ascending: no inversion), O(n log^2 n)."""
    order = np.lexsort((y, x))
    ranks = np.unique(y, return_inverse=True)[1].reshape(-1)[order]
    discordant = _inversions(ranks)
    tot = x.size * (x.size - 1) // 2
    _, joint = np.unique(np.stack([x, y], axis=1), axis=0, return_counts=True)
    joint = joint.astype(np.int64)
    both = int((joint * (joint - 1) // 2).sum())
    balance = tot - _tie_sums(x)[0] - _tie_sums(y)[0] + both - 2 * discordant
    return balance, discordant


def _inversion_counts(n, c):
    """How many permutations of ``n`` have each number ``0..c`` of inversions."""
    counts = [1] + [0] * c
    for j in range(2, n + 1):  # (the j-th element adds 0..j-1 inversions)
        prefix = [0]
        for v in counts:
            prefix.append(prefix[-1] + v)
        counts = [prefix[k + 1] - prefix[max(k - j + 1, 0)] for k in range(c + 1)]
    return counts


def _kendall_exact(n, concordant, alternative):
    """The exact p-value of ``concordant`` pairs among ``n`` untied values (SciPy's
    ``_kendall_p_exact``)."""
    tot = n * (n - 1) // 2
    right_tail = concordant >= tot - concordant
    c = min(concordant, tot - concordant)
    if n <= 2:
        prob, mass = 1.0, (1.0 if n == 1 else 0.5)
    elif 4 * c == n * (n - 1) and alternative == "two-sided":
        prob, mass = 1.0, 0.0
    else:
        counts = _inversion_counts(n, c)
        total = math.factorial(n)
        prob = 2 * sum(counts) / total
        mass = counts[-1] / total
    if alternative != "two-sided":
        prob = prob / 2 if right_tail == (alternative == "greater") else 1 - prob / 2 + mass
    return min(max(prob, 0.0), 1.0)


def _kendall_line(x, y, method, variant, alternative):
    n = x.size
    tot = n * (n - 1) // 2
    xtie, x0, x1 = _tie_sums(x)
    ytie, y0, y1 = _tie_sums(y)
    if n == 0 or xtie == tot or ytie == tot:
        return math.nan, math.nan
    balance, discordant = _pair_counts(x, y)
    if variant == "b":
        tau = balance / math.sqrt(tot - xtie) / math.sqrt(tot - ytie)
    else:
        classes = min(np.unique(x).size, np.unique(y).size)
        tau = 2 * balance / (n * n * (classes - 1) / classes)
    tau = min(1.0, max(-1.0, tau))
    ties = xtie != 0 or ytie != 0
    if method == "exact" and ties:
        raise ValueError("kendalltau: ties found, so method='exact' cannot be used; use "
                         "'asymptotic' or 'auto'")
    if method == "auto":
        exact = not ties and (n <= 33 or min(discordant, tot - discordant) <= 1)
        method = "exact" if exact else "asymptotic"
    if method == "exact":
        return tau, _kendall_exact(n, tot - discordant, alternative)
    m = n * (n - 1.0)
    var = ((m * (2 * n + 5) - x1 - y1) / 18.0 + 2.0 * xtie * ytie / m
           + x0 * y0 / (9.0 * m * (n - 2)))
    return tau, _normal_tails(balance / math.sqrt(var), alternative)


def kendalltau(x: Any, y: Any, *, nan_policy: str = "propagate", method: str = "auto",
               variant: str = "b", alternative: str = "two-sided",
               axis: Optional[int] = None, keepdims: bool = False) -> SignificanceResult:
    """Kendall's tau (``variant`` 'b', adjusted for ties, or 'c') of ``x`` and ``y``
    (flattened, or along ``axis``) and the p-value of no association: exact for at most
    33 values without ties (``method='auto'``), else the normal approximation with SciPy's
    tie terms, as ``scipy.stats.kendalltau``.  The statistic counts concordant pairs, a step
    function: its derivative is zero (and the p-value's), so gradients through it are 0.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([12.0, 2, 1, 12, 2]), np.array([1.0, 4, 7, 1, 0])
    >>> res = kendalltau(x, y)
    >>> round(float(res.statistic), 12), round(float(res.pvalue), 12)
    (-0.471404520791, 0.282745459933)
    >>> fg.grad(lambda v: kendalltau(v, y).statistic)(x)
    array([0., 0., 0., 0., 0.])
    """
    _check_alternative("kendalltau", alternative)
    check_nan_policy("kendalltau", nan_policy)
    if variant not in ("b", "c"):
        raise ValueError(f"kendalltau: variant must be 'b' or 'c', got {variant!r}")
    if method not in ("auto", "exact", "asymptotic"):
        raise ValueError(f"kendalltau: method must be 'auto', 'exact' or 'asymptotic', got "
                         f"{method!r}")
    xv, yv = _values(x, "kendalltau"), _values(y, "kendalltau")
    if axis is None and xv.size != yv.size:
        raise ValueError(f"kendalltau: x and y must have as many values, got {xv.size} and "
                         f"{yv.size}")
    ndim = max(xv.ndim, yv.ndim)
    xs, ys, lead = _lines("kendalltau", xv, yv, axis)
    taus, ps = [], []
    for xl, yl in zip(xs, ys):
        if _missing("kendalltau", nan_policy, xl, yl):
            tau, p = math.nan, math.nan
        else:
            tau, p = _kendall_line(xl, yl, method, variant, alternative)
        taus.append(tau)
        ps.append(p)
    return SignificanceResult(_shaped(taus, lead, np.float64, keepdims, ndim, axis),
                              _shaped(ps, lead, np.float64, keepdims, ndim, axis))


# --- mannwhitneyu -----------------------------------------------------------------------------

def _mwu_counts(n1, n2):
    """How many arrangements of ``n1 + n2`` values give each U in ``0..n1 n2``: the
    coefficients of the Gaussian binomial ``[n1 + n2, n1]_q``."""
    counts = [1] + [0] * (n1 * n2)
    for i in range(1, n1 + 1):
        for k in range(len(counts) - 1, n2 + i - 1, -1):  # (times 1 - q**(n2 + i))
            counts[k] -= counts[k - n2 - i]
        for k in range(i, len(counts)):  # (divided by 1 - q**i)
            counts[k] += counts[k - i]
    return counts


def mannwhitneyu(x: Any, y: Any, use_continuity: bool = True,
                 alternative: str = "two-sided", axis: int = 0, method: str = "auto", *,
                 nan_policy: str = "propagate", keepdims: bool = False) -> MannwhitneyuResult:
    """The Mann-Whitney U test of two independent samples along ``axis``: ``U`` of ``x``
    and its p-value, exact (no ties, and a sample of at most 8: ``method='auto'``) or by
    the normal approximation with the tie correction (and ``use_continuity``), as
    ``scipy.stats.mannwhitneyu`` (``method`` a ``PermutationMethod`` is not available).
    ``U`` counts orderings: its derivative is zero.

    >>> import numpy as np
    >>> res = mannwhitneyu(np.array([19.0, 22, 16, 29, 24]), np.array([20.0, 11, 17, 12]))
    >>> float(res.statistic), round(float(res.pvalue), 12)
    (17.0, 0.111111111111)
    """
    _check_alternative("mannwhitneyu", alternative)
    check_nan_policy("mannwhitneyu", nan_policy)
    if method not in ("auto", "exact", "asymptotic"):
        raise NotImplementedError(f"mannwhitneyu: method must be 'auto', 'exact' or "
                                  f"'asymptotic' (SciPy's PermutationMethod is not "
                                  f"available), got {method!r}")
    xv, yv = _values(x, "mannwhitneyu"), _values(y, "mannwhitneyu")
    if xv.size == 0 or yv.size == 0:
        raise ValueError("mannwhitneyu: x and y must not be empty")
    dtype = _float_type(xv, yv)
    ndim = max(xv.ndim, yv.ndim, 1)
    xs, ys, lead = _lines("mannwhitneyu", xv, yv, axis)
    n1, n2 = xs.shape[-1], ys.shape[-1]
    us, ps = [], []
    for xl, yl in zip(xs, ys):
        if _missing("mannwhitneyu", nan_policy, xl, yl):
            us.append(math.nan)
            ps.append(math.nan)
            continue
        both = np.concatenate([xl, yl]).astype(np.float64)
        u1 = float(rankdata(both)[:n1].sum()) - n1 * (n1 + 1) / 2.0
        u2 = n1 * n2 - u1
        u, factor = {"greater": (u1, 1), "less": (u2, 1)}.get(alternative,
                                                                  (max(u1, u2), 2))
        _, t = np.unique(both, return_counts=True)
        chosen = method
        if chosen == "auto":
            chosen = "asymptotic" if (n1 > 8 and n2 > 8) or (t > 1).any() else "exact"
        if chosen == "exact":
            counts = _mwu_counts(min(n1, n2), max(n1, n2))
            k = int(u)
            p = sum(counts[k:]) / math.comb(n1 + n2, n1) if k <= n1 * n2 else 0.0
        else:
            n = n1 + n2
            t = t.astype(np.float64)
            s = math.sqrt(n1 * n2 / 12.0 * ((n + 1) - float((t ** 3 - t).sum()) / (n * (n - 1))))
            numerator = u - n1 * n2 / 2.0 - (0.5 if use_continuity else 0.0)
            p = float(sp.ndtr(-numerator / s)) if s > 0 else math.nan
        us.append(u1)
        ps.append(min(max(p * factor, 0.0), 1.0))
    return MannwhitneyuResult(_shaped(us, lead, dtype, keepdims, ndim, axis),
                              _shaped(ps, lead, dtype, keepdims, ndim, axis))


# --- wilcoxon ---------------------------------------------------------------------------------

def _signed_rank_counts(n):
    """How many subsets of ``1..n`` have each sum ``0..n(n+1)/2``."""
    counts = [1] + [0] * (n * (n + 1) // 2)
    for i in range(1, n + 1):
        for k in range(i * (i + 1) // 2, i - 1, -1):
            counts[k] += counts[k - i]
    return counts


def _wilcoxon_line(d, zero_method, correction, alternative, method):
    """``(statistic, p-value, z)`` of the differences ``d`` (SciPy's
    ``_wilcoxon_statistic`` and p-values)."""
    zeros = d == 0
    kept = d[~zeros] if zero_method == "wilcox" else d
    count = kept.size
    ranks = rankdata(np.abs(kept)) if count else np.zeros(0)
    r_plus = float(ranks[kept > 0].sum())
    r_minus = float(ranks[kept < 0].sum())
    if zero_method == "zsplit":
        half = float(ranks[kept == 0].sum()) / 2.0
        r_plus, r_minus = r_plus + half, r_minus + half
    mean = count * (count + 1.0) * 0.25
    se = count * (count + 1.0) * (2.0 * count + 1.0)
    _, t = np.unique(np.abs(kept), return_counts=True)
    if zero_method == "pratt" and zeros.any():
        n_zero = float(zeros.sum())
        mean -= n_zero * (n_zero + 1.0) * 0.25
        se -= n_zero * (n_zero + 1.0) * (2.0 * n_zero + 1.0)
        t = t[1:]  # (the zeros' group is no tie to correct for)
    t = t.astype(np.float64)
    se = math.sqrt((se - float((t ** 3 - t).sum()) / 2.0) / 24.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = float(np.float64(r_plus - mean) / se)
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    if method == "asymptotic":
        if correction:
            sign = {"greater": 1.0, "less": -1.0}.get(alternative, float(np.sign(z)))
            z -= sign * 0.5 / se
        p = _normal_tails(z, alternative)
        return statistic, p, (-abs(z) if alternative == "two-sided" else z)
    counts = _signed_rank_counts(count)
    total = 2 ** count
    cdf = sum(counts[:math.ceil(r_plus) + 1]) / total
    sf = sum(counts[math.floor(r_plus):]) / total
    p = {"less": cdf, "greater": sf}.get(alternative, min(1.0, 2.0 * min(sf, cdf)))
    return statistic, p, math.nan


def wilcoxon(x: Any, y: Optional[Any] = None, zero_method: str = "wilcox",
             correction: bool = False, alternative: str = "two-sided", method: str = "auto",
             *, axis: int = 0, nan_policy: str = "propagate",
             keepdims: bool = False) -> WilcoxonResult:
    """The Wilcoxon signed-rank test of the differences ``x - y`` (or ``x``) along
    ``axis``: the rank sum (the smaller of the two for a two-sided test) and its p-value,
    exact (at most 50 differences, no ties or zeros: ``method='auto'``) or by the normal
    approximation (``correction``: the continuity correction), with SciPy's
    ``zero_method`` ('wilcox', 'pratt', 'zsplit'), as ``scipy.stats.wilcoxon``.  Where
    SciPy's ``'auto'`` would run a permutation test (ties or zeros among at most 13
    differences) funcgrad raises, naming the methods it has.  A rank sum: its derivative
    is zero.

    >>> import numpy as np
    >>> d = np.array([6.0, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75])
    >>> res = wilcoxon(d)
    >>> float(res.statistic), round(float(res.pvalue), 12)
    (24.0, 0.041259765625)
    """
    _check_alternative("wilcoxon", alternative)
    check_nan_policy("wilcoxon", nan_policy)
    if zero_method not in ("wilcox", "pratt", "zsplit"):
        raise ValueError(f"wilcoxon: zero_method must be 'wilcox', 'pratt' or 'zsplit', got "
                         f"{zero_method!r}")
    if method not in ("auto", "exact", "asymptotic"):
        raise NotImplementedError(f"wilcoxon: method must be 'auto', 'exact' or "
                                  f"'asymptotic' (SciPy's PermutationMethod is not "
                                  f"available), got {method!r}")
    xv = _values(x, "wilcoxon")
    if y is not None:
        yv = _values(y, "wilcoxon")
        if np.ndim(xv) and np.ndim(yv) and xv.shape[axis] != yv.shape[axis]:
            raise ValueError(f"wilcoxon: x and y must have the same length along axis "
                             f"{axis}, got {xv.shape[axis]} and {yv.shape[axis]}")
        dtype = _float_type(xv, yv)
        d = xv.astype(dtype) - yv.astype(dtype)
    else:
        dtype = _float_type(xv)
        d = xv.astype(dtype)
    ndim = max(d.ndim, 1)
    lines = np.moveaxis(np.atleast_1d(d), axis, -1)
    lead = lines.shape[:-1]
    lines = lines.reshape(-1, lines.shape[-1]).astype(np.float64)
    chosen = method
    if chosen == "auto":  # (SciPy decides once, for every slice)
        if lines.shape[-1] > 50:
            chosen = "asymptotic"
        else:
            finite = lines[~np.isnan(lines).any(axis=-1)]
            tied = any(np.unique(np.abs(v)).size < v.size for v in finite)
            if not tied and not (lines == 0).any():
                chosen = "exact"
            elif lines.shape[-1] <= 13:
                raise NotImplementedError(
                    "wilcoxon: with ties or zeros among at most 13 differences SciPy's "
                    "method='auto' runs a permutation test, which funcgrad does not "
                    "implement; pass method='asymptotic' (the normal approximation) or "
                    "'exact' (the null distribution without ties)")
            else:
                chosen = "asymptotic"
    stats, ps, zs = [], [], []
    for line in lines:
        if _missing("wilcoxon", nan_policy, line) or line.size == 0:
            stats.append(math.nan)
            ps.append(math.nan)
            zs.append(math.nan)
            continue
        s, p, z = _wilcoxon_line(line, zero_method, correction, alternative, chosen)
        stats.append(s)
        ps.append(p)
        zs.append(z)
    res = WilcoxonResult(_shaped(stats, lead, dtype, keepdims, ndim, axis),
                         _shaped(ps, lead, dtype, keepdims, ndim, axis))
    if method == "asymptotic":
        res.zstatistic = _shaped(zs, lead, dtype, keepdims, ndim, axis)
    return res
