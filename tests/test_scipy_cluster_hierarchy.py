"""funcgrad.scipy.cluster.hierarchy: SciPy's linkages; the heights and statistics
differentiate (against central differences of SciPy's own)."""
import numpy as np
import pytest
import scipy.cluster.hierarchy as sh
from scipy.spatial.distance import pdist

import funcgrad as fg
from funcgrad.scipy.cluster import hierarchy as fh

RNG = np.random.default_rng(0)
X = RNG.normal(size=(9, 3))


def _fd(f, x, direction, eps=1e-6):
    return (f(x + eps * direction) - f(x - eps * direction)) / (2 * eps)


@pytest.mark.parametrize("method", ["single", "complete", "average", "weighted", "centroid",
                                    "median", "ward"])
def test_linkage_heights_replay_scipys_merges_and_differentiate(method):
    w = RNG.normal(size=8)
    direction = RNG.normal(size=X.shape)
    out, _ = fg.vjp(getattr(fh, method), X)
    want = sh.linkage(X, method)
    np.testing.assert_allclose(np.asarray(out), want, rtol=1e-14, atol=1e-15)
    g = fg.grad(lambda x: fh.linkage(x, method)[:, 2] @ w)(X)
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(np.sum(np.asarray(g) * direction),
                               _fd(lambda x: sh.linkage(x, method)[:, 2] @ w, X, direction),
                               rtol=1e-6)
    # condensed distances in, and plain arrays: SciPy's own result
    np.testing.assert_array_equal(fh.linkage(pdist(X), method), sh.linkage(pdist(X), method))


def test_cophenet_inconsistent_and_subtree_maxima():
    def stats(x):
        z = fh.linkage(x, "average")
        c, d = fh.cophenet(z, fg.scipy.spatial.distance.pdist(x))
        r = fh.inconsistent(z, 3)
        return c + d.sum() + r.sum() + fh.maxdists(z).sum() + fh.maxinconsts(z, r).sum() \
            + fh.maxRstat(z, r, 1).sum()

    def stats_scipy(x):
        z = sh.linkage(x, "average")
        c, d = sh.cophenet(z, pdist(x))
        r = sh.inconsistent(z, 3)
        return c + d.sum() + r.sum() + sh.maxdists(z).sum() + sh.maxinconsts(z, r).sum() \
            + sh.maxRstat(z, r, 1).sum()
    np.testing.assert_allclose(stats(X), stats_scipy(X), rtol=1e-13)
    direction = RNG.normal(size=X.shape)
    np.testing.assert_allclose(np.sum(np.asarray(fg.grad(stats)(X)) * direction),
                               _fd(stats_scipy, X, direction), rtol=1e-6)
    z = sh.linkage(X, "ward")
    for d in (1, 2, 4):
        np.testing.assert_allclose(fh.inconsistent(z, d), sh.inconsistent(z, d), rtol=1e-13)


def test_orderings_conversions_and_scipys_structural_functions():
    z = sh.linkage(X, "complete")
    np.testing.assert_array_equal(fh.optimal_leaf_ordering(z, pdist(X)),
                                  sh.optimal_leaf_ordering(z, pdist(X)))
    np.testing.assert_array_equal(fh.to_mlab_linkage(z), sh.to_mlab_linkage(z))
    np.testing.assert_array_equal(fh.from_mlab_linkage(sh.to_mlab_linkage(z)), z)
    g = fg.grad(lambda x: fh.optimal_leaf_ordering(fh.linkage(x, "complete"), pdist(X))[:, 2]
                .sum())(X)
    g_plain = fg.grad(lambda x: fh.linkage(x, "complete")[:, 2].sum())(X)
    np.testing.assert_allclose(g, g_plain)
    # SciPy's, on a traced linkage's values
    labels = []
    fg.grad(lambda x: (labels.append(fh.fcluster(fh.linkage(x), 3, "maxclust")),
                       fh.linkage(x)[:, 2].sum())[1])(X)
    np.testing.assert_array_equal(labels[0], sh.fcluster(sh.linkage(X), 3, "maxclust"))
    np.testing.assert_array_equal(fh.leaves_list(z), sh.leaves_list(z))
    assert fh.is_valid_linkage(z) and fh.ClusterNode is sh.ClusterNode


def test_errors():
    with pytest.raises(ValueError, match="invalid method"):
        fh.linkage(X, "nearest")
    with pytest.raises(ValueError, match="Euclidean"):
        fh.linkage(X, "ward", metric="cityblock")
    with pytest.raises(fg.ConcretizationError, match="outside jit"):
        fg.jit(lambda x: fh.linkage(x))(X)
    with pytest.raises(ValueError, match="linkage matrix"):
        fh.maxdists(np.ones((3, 3)))
