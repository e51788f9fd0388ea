"""The arithmetic of hierarchical clustering, on a merge order SciPy found.

Which clusters merge, and when, is decided by comparing distances: SciPy's ``linkage``
does that on the values.  Each merge's height is then a function of the pairwise
distances (the Lance-Williams update of the linkage method), so replaying SciPy's merges
with the traced distances gives heights that differentiate exactly wherever the merge
order does not change.  The statistics of a linkage (cophenetic distances, inconsistency,
the largest height below each link) are gathers and reductions of those heights over the
tree's structure, which is concrete.
"""
import numpy as np

from ... import numpy as fnp

__all__ = ["replay_heights", "descendant_links", "pair_links", "with_heights"]


def _update(method, da, db, dab, na, nb, ni, others):
    """The distance from the merged cluster to each other cluster ``i`` (vectors over
    ``i``; only the entries of ``others`` are used), as SciPy's linkage methods define
    it."""
    if method == "single":
        return fnp.minimum(da, db)
    if method == "complete":
        return fnp.maximum(da, db)
    if method == "average":
        return (na * da + nb * db) / (na + nb)
    if method == "weighted":
        return 0.5 * (da + db)
    if method == "centroid":
        square = ((na * da * da + nb * db * db) - na * nb * dab * dab / (na + nb)) / (na + nb)
    elif method == "median":
        square = 0.5 * (da * da + db * db) - 0.25 * dab * dab
    elif method == "ward":
        t = 1.0 / (na + nb + ni)
        square = (ni + na) * t * da * da + (ni + nb) * t * db * db - ni * t * dab * dab
    else:
        raise ValueError(f"linkage: invalid method {method!r}")
    # (the unused entries' square may be negative: their root's slope would be NaN)
    return fnp.sqrt(fnp.where(others, square, 1.0))


def replay_heights(square, links, method):
    """The merge heights of ``links`` (SciPy's ``Z``, concrete) computed again from the
    traced ``(n, n)`` distance matrix ``square``: one Lance-Williams update per merge,
    the merged cluster taking the slot of its first part."""
    n = links.shape[0] + 1
    slot = list(range(n)) + [0] * (n - 1)
    sizes = np.ones(n)
    active = np.ones(n, dtype=bool)
    index = np.arange(n)
    d = square
    heights = []
    for k, row in enumerate(links):
        a, b = slot[int(row[0])], slot[int(row[1])]
        dab = d[a, b]
        heights.append(dab)
        others = active & (index != a) & (index != b)
        # (stale rows of merged clusters never enter a formula: no NaN from a square
        # root of theirs reaches a derivative)
        da = fnp.where(others, d[a], 1.0)
        db = fnp.where(others, d[b], 1.0)
        new = fnp.where(others, _update(method, da, db, dab, sizes[a], sizes[b], sizes, others),
                        0.0)
        at_a = index == a
        d = fnp.where(at_a[:, None], new[None, :], fnp.where(at_a[None, :], new[:, None], d))
        active[b] = False
        sizes[a] += sizes[b]
        slot[n + k] = a
    return fnp.stack(heights)


def with_heights(links, heights):
    """``Z`` with its height column replaced by the traced ``heights``."""
    z = np.asarray(links, dtype=np.float64)
    return fnp.stack([z[:, 0], z[:, 1], heights, z[:, 3]], axis=1)


def _members(links):
    """The original observations under each cluster id (lists)."""
    n = links.shape[0] + 1
    members = [[i] for i in range(n)]
    for row in links:
        members.append(members[int(row[0])] + members[int(row[1])])
    return members


def pair_links(links):
    """For each pair ``i < j`` of observations (condensed order), the link that first
    joins them."""
    n = links.shape[0] + 1
    members = _members(links)
    out = np.empty(n * (n - 1) // 2, dtype=np.intp)
    for k, row in enumerate(links):
        i, j = np.ix_(members[int(row[0])], members[int(row[1])])
        lo, hi = np.minimum(i, j), np.maximum(i, j)
        out[n * lo - lo * (lo + 1) // 2 + (hi - lo - 1)] = k
    return out


def descendant_links(links, depth=None):
    """``(m, m)`` booleans: ``[k, l]`` when link ``l`` lies in link ``k``'s subtree (``k``
    itself included), within ``depth`` levels (``None``: all of them)."""
    n = links.shape[0] + 1
    m = links.shape[0]
    mask = np.zeros((m, m), dtype=bool)
    for k in range(m):
        level, frontier = 1, [k]
        while frontier and (depth is None or level <= depth):
            mask[k, frontier] = True
            frontier = [int(links[f, c]) - n for f in frontier for c in (0, 1)
                        if links[f, c] >= n]
            level += 1
    return mask
