"""wasserstein_distance (SciPy's values; derivatives against central differences of
SciPy's), ranksums and tiecorrect (SciPy's values; zero slopes)."""
import numpy as np
import pytest
import scipy.stats as ss

import funcgrad as fg
import funcgrad.scipy.stats as fst

RNG = np.random.default_rng(3)
U, V = RNG.normal(size=7), RNG.normal(1.0, 2.0, size=5)
UW, VW = RNG.uniform(0.5, 2.0, size=7), RNG.uniform(0.5, 2.0, size=5)


@pytest.mark.parametrize("weighted", [False, True])
def test_wasserstein_distance_is_scipys_and_differentiates(weighted):
    w = (UW, VW) if weighted else (None, None)
    np.testing.assert_allclose(fst.wasserstein_distance(U, V, *w),
                               ss.wasserstein_distance(U, V, *w), rtol=1e-13)
    grads = fg.grad(fst.wasserstein_distance, argnums=(0, 1) + ((2, 3) if weighted else ()))(
        U, V, *w)
    args = [U, V, *w] if weighted else [U, V]
    for k, g in enumerate(grads):
        d = RNG.normal(size=args[k].shape)
        plus = [a + 1e-6 * d if i == k else a for i, a in enumerate(args)]
        minus = [a - 1e-6 * d if i == k else a for i, a in enumerate(args)]
        fd = (ss.wasserstein_distance(*plus) - ss.wasserstein_distance(*minus)) / 2e-6
        np.testing.assert_allclose(np.sum(np.asarray(g) * d), fd, rtol=1e-6, atol=1e-10)
    # energy_distance shares the CDF pieces: still SciPy's
    np.testing.assert_allclose(fst.energy_distance(U, V, *w), ss.energy_distance(U, V, *w),
                               rtol=1e-13)


def test_ranksums_and_tiecorrect_are_scipys_with_zero_slopes():
    for alternative in ("two-sided", "less", "greater"):
        ours, theirs = fst.ranksums(U, V, alternative), ss.ranksums(U, V, alternative)
        assert ours.statistic == theirs.statistic and ours.pvalue == theirs.pvalue
    g = fg.grad(lambda u: fst.ranksums(u, V).statistic)(U)
    assert np.all(np.asarray(g) == 0)
    ranks = ss.rankdata(np.round(np.concatenate([U, V])))
    assert fst.tiecorrect(ranks) == ss.tiecorrect(ranks)
