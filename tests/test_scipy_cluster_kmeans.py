"""funcgrad.scipy.cluster.vq's whiten, kmeans and kmeans2 against SciPy: the same
clusters from the same seeds, the code books and distortions equal to SciPy's values, and
their derivatives (the assignment held fixed) against central differences of SciPy's
values; the errors where a derivative is not defined."""
import warnings

import numpy as np
import pytest

sv = pytest.importorskip("scipy.cluster.vq")

import funcgrad as fg  # noqa: E402
import funcgrad.scipy.cluster.vq as fvq  # noqa: E402

RNG = np.random.default_rng(5)
OBS = np.concatenate([RNG.normal(size=(8, 2)), RNG.normal(size=(8, 2)) + 6,
                      RNG.normal(size=(8, 2)) + [0, 9]])
EPS = 1e-6


def close(got, want, rtol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)


def check_derivatives(ours, scipys, x, rtol=1e-6):
    """JVP and the VJP's dot product against central differences of SciPy's values (the
    step is small enough to keep SciPy's clusters)."""
    direction = RNG.standard_normal(x.shape)
    want = (np.asarray(scipys(x + EPS * direction)) - np.asarray(scipys(x - EPS * direction))
            ) / (2 * EPS)
    _, tangent = fg.jvp(ours, (x,), (direction,))
    close(tangent, want, rtol)
    out, pullback = fg.vjp(ours, x)
    weights = RNG.standard_normal(np.shape(out))
    close(np.sum(pullback(weights)[0] * direction), np.sum(weights * want), rtol)


CASES = {
    "whiten": (fvq.whiten, sv.whiten),
    "kmeans book": (lambda o: fvq.kmeans(o, 3, rng=np.random.default_rng(1))[0],
                    lambda o: sv.kmeans(o, 3, rng=np.random.default_rng(1))[0]),
    "kmeans distortion": (lambda o: fvq.kmeans(o, 3, rng=np.random.default_rng(1))[1],
                          lambda o: sv.kmeans(o, 3, rng=np.random.default_rng(1))[1]),
    "kmeans from a guess": (lambda o: fvq.kmeans(o, OBS[[0, 9, 17]])[0],
                            lambda o: sv.kmeans(o, OBS[[0, 9, 17]])[0]),
    "kmeans 1-d": (lambda o: fvq.kmeans(o[:, 1], 2, rng=np.random.default_rng(3))[0],
                   lambda o: sv.kmeans(o[:, 1], 2, rng=np.random.default_rng(3))[0]),
    "kmeans2 random": (lambda o: fvq.kmeans2(o, 3, rng=np.random.default_rng(2))[0],
                       lambda o: sv.kmeans2(o, 3, rng=np.random.default_rng(2))[0]),
    "kmeans2 ++": (lambda o: fvq.kmeans2(o, 3, minit="++", rng=np.random.default_rng(2))[0],
                   lambda o: sv.kmeans2(o, 3, minit="++", rng=np.random.default_rng(2))[0]),
    "kmeans2 points": (
        lambda o: fvq.kmeans2(o, 3, minit="points", rng=np.random.default_rng(4))[0],
        lambda o: sv.kmeans2(o, 3, minit="points", rng=np.random.default_rng(4))[0]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_values_and_derivatives_match_scipy(name):
    ours, theirs = CASES[name]
    close(ours(OBS), theirs(OBS), 1e-12)
    check_derivatives(ours, theirs, OBS)


def test_kmeans2_labels_and_matrix_start_are_scipys():
    for minit in ("random", "points", "++"):
        got = fvq.kmeans2(OBS, 3, minit=minit, rng=np.random.default_rng(7))
        want = sv.kmeans2(OBS, 3, minit=minit, rng=np.random.default_rng(7))
        np.testing.assert_array_equal(got[1], want[1])
        close(got[0], want[0])
    guess = OBS[[0, 9, 17]]
    centroid = fg.vjp(lambda o: fvq.kmeans2(o, guess, minit="matrix")[0], OBS)[0]
    close(centroid, sv.kmeans2(OBS, guess, minit="matrix")[0])
    # a guess moves no code locally: the assignment it leads to is locally constant
    close(fg.grad(lambda g: fvq.kmeans(OBS, g)[0].sum())(guess), np.zeros_like(guess), 0)


def test_whiten_zero_column_and_float32():
    obs = np.column_stack([OBS[:, 0], np.ones(len(OBS))])
    with pytest.warns(RuntimeWarning, match="standard deviation zero"):
        close(fvq.whiten(obs), sv.whiten(obs))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        grad = fg.grad(lambda o: fvq.whiten(o).sum())(obs)
    assert np.all(np.isfinite(grad))
    assert fvq.whiten(OBS.astype(np.float32)).dtype == np.float32


def test_errors_where_no_derivative_is_defined():
    with pytest.raises(ValueError, match="infs or NaNs"):
        fvq.whiten(np.array([[np.nan, 1.0], [2.0, 3.0]]))
    with pytest.raises(ValueError, match="cluster is empty"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (SciPy's warning about the empty cluster)
        far = np.array([[0.0, 0.0], [0.1, 0.0], [100.0, 100.0]])
        fg.grad(lambda o: fvq.kmeans2(o, far, minit="matrix", iter=1)[0].sum())(
            OBS[:4] * 0.01)
