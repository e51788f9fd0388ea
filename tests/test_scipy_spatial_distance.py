"""funcgrad.scipy.spatial.distance and scipy.spatial's distance functions against SciPy:
every metric's values through pdist, cdist and the one-pair functions (names, aliases,
weights, SciPy's defaults of V and VI, callables), SciPy's dtypes, squareform; derivatives
against central differences in both modes, second order, vmap and jit; the zero
subgradient where a distance is zero (PyTorch's cdist), never NaN; the errors."""
import warnings

import numpy as np
import pytest

sd = pytest.importorskip("scipy.spatial.distance")
import scipy.spatial as ss  # noqa: E402

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.spatial as fsp  # noqa: E402
import funcgrad.scipy.spatial.distance as fd  # noqa: E402
from helpers import (check_dot_product, check_jvp_fd, check_second_order,  # noqa: E402
                     check_vmap)

RNG = np.random.default_rng(2026)
BOOLEAN = {"dice", "rogerstanimoto", "russellrao", "sokalsneath", "yule", "hamming", "jaccard"}
METRICS = ["braycurtis", "canberra", "chebyshev", "cityblock", "correlation", "cosine", "dice",
           "euclidean", "hamming", "jaccard", "jensenshannon", "mahalanobis", "minkowski",
           "rogerstanimoto", "russellrao", "seuclidean", "sokalsneath", "sqeuclidean", "yule"]


def close(got, want, rtol=1e-13):
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, equal_nan=True)


def points(metric, m, n=4):
    if metric in BOOLEAN:
        return RNG.random((m, n)) > 0.5
    if metric == "jensenshannon":
        return RNG.random((m, n))
    return RNG.standard_normal((m, n))


def keyword_cases(metric):
    w = RNG.random(4) + 0.1
    cases = [{}]
    if metric not in ("mahalanobis", "seuclidean", "jensenshannon"):
        cases.append({"w": w})
    cases += {"minkowski": [{"p": 1}, {"p": 3.5, "w": w}, {"p": 0.5}, {"p": np.inf, "w": w}],
              "seuclidean": [{"V": w}], "mahalanobis": [{"VI": np.eye(4) + 0.1}]}.get(
                  metric, [])
    return cases


def test_scipy_lists_the_metrics_tested_here():
    assert sorted(sd._METRICS_NAMES) == METRICS
    assert set(METRICS) <= set(fd.__all__)


@pytest.mark.parametrize("metric", METRICS)
def test_pdist_and_cdist_match_scipy(metric):
    xa, xb = points(metric, 7), points(metric, 3)
    for kw in keyword_cases(metric):
        close(fd.pdist(xa, metric, **kw), sd.pdist(xa, metric, **kw))
        close(fd.cdist(xa, xb, metric, **kw), sd.cdist(xa, xb, metric, **kw))
        assert fd.pdist(xa, metric, **kw).dtype == np.float64


@pytest.mark.parametrize("metric", METRICS)
def test_one_pair_functions_match_scipy(metric):
    x = points(metric, 4)
    w = RNG.random(4) + 0.1
    ours, theirs = getattr(fd, metric), getattr(sd, metric)
    extra = {"seuclidean": (w,), "mahalanobis": (np.eye(4) + 0.1,)}.get(metric, ())
    for u, v in [(x[0], x[1]), (x[2], x[3]), (x[1], x[1])]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (correlation of two equal rows: 0/0 in SciPy)
            close(ours(u, v, *extra), theirs(u, v, *extra))
            if metric not in ("seuclidean", "mahalanobis", "jensenshannon"):
                close(ours(u, v, w=w), theirs(u, v, w=w))
    if metric in BOOLEAN:  # numbers are counted as SciPy counts them (u v, (1 - u) v, ...)
        u, v = RNG.standard_normal(5), RNG.standard_normal(5) * (RNG.random(5) > 0.5)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            close(ours(u, v), theirs(u, v))
            close(ours(u.astype(int), v.astype(int)), theirs(u.astype(int), v.astype(int)))


def test_docstring_examples_match_scipy():
    x = np.array([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])
    close(fd.pdist(x, "cityblock"), sd.pdist(x, "cityblock"))
    iv = np.array([[1.0, 0.5, 0.5], [0.5, 1.0, 0.5], [0.5, 0.5, 1.0]])
    close(fd.mahalanobis([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], iv),
          sd.mahalanobis([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], iv))
    close(fd.minkowski([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 3),
          sd.minkowski([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 3))
    close(fd.jensenshannon([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 2.0),
          sd.jensenshannon([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], 2.0))
    close(fd.dice([1, 0, 0], [1, 1, 0]), sd.dice([1, 0, 0], [1, 1, 0]))
    close(fd.seuclidean([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.1, 0.1, 0.1]),
          sd.seuclidean([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.1, 0.1, 0.1]))


def test_aliases_callables_and_out():
    x, xb = RNG.standard_normal((5, 3)), RNG.standard_normal((2, 3))
    for alias in ("euclid", "e", "sqe", "cb", "cheb", "cos", "co", "pnorm", "mahal", "se",
                  "js", "matching", "jacc", "EUCLIDEAN"):
        data = np.abs(x) if alias == "js" else x
        close(fd.pdist(data, alias), sd.pdist(data, alias))

    def l1(u, v, scale=1.0):
        return scale * np.sum(np.abs(u - v))

    close(fd.pdist(x, l1, scale=2.0), sd.pdist(x, l1, scale=2.0))
    close(fd.cdist(x, xb, l1), sd.cdist(x, xb, l1))
    out = np.empty(10)
    assert fd.pdist(x, out=out) is out
    close(out, sd.pdist(x))
    close(fd.pdist(x[:1]), sd.pdist(x[:1]))  # one point: no pairs
    close(fd.cdist(x, xb[:0]), sd.cdist(x, xb[:0]))


def test_dtypes_are_scipys():
    u, v = RNG.standard_normal(4).astype(np.float32), RNG.standard_normal(4).astype(np.float32)
    for name in ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "cosine", "correlation",
                 "braycurtis", "canberra", "hamming", "jaccard", "dice", "yule"]:
        want = np.asarray(getattr(sd, name)(u, v)).dtype
        assert np.asarray(getattr(fd, name)(u, v)).dtype == want, name
    assert np.asarray(fd.minkowski(u, v, 3)).dtype == np.float32  # (SciPy's norm keeps it)
    assert fd.pdist(np.ones((3, 2), np.float32)).dtype == np.float64
    assert fd.squareform(np.ones(3, np.float32)).dtype == np.float32


def test_squareform_round_trips_and_checks():
    y = sd.pdist(RNG.standard_normal((5, 2)))
    close(fd.squareform(y), sd.squareform(y))
    close(fd.squareform(sd.squareform(y)), y)
    close(fd.squareform(np.zeros(0)), sd.squareform(np.zeros(0)))
    close(fd.squareform(np.zeros((1, 1))), sd.squareform(np.zeros((1, 1))))
    g = fg.grad(lambda y: fnp.sum(fd.squareform(y) * np.arange(25.0).reshape(5, 5)))(y)
    i, j = np.triu_indices(5, 1)
    close(g, 5.0 * i + j + 5.0 * j + i)  # (each entry sits at (i, j) and (j, i))
    with pytest.raises(ValueError, match="binomial"):
        fd.squareform(np.ones(4))
    with pytest.raises(ValueError, match="symmetric"):
        fd.squareform(np.array([[0.0, 1.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="diagonal"):
        fd.squareform(np.eye(2))
    with pytest.raises(ValueError, match="tovector"):
        fd.squareform(y, force="tovector")
    assert fd.is_valid_y(y) and not fd.is_valid_y(np.ones(4))
    assert fd.num_obs_y(y) == 5 and fd.num_obs_dm(sd.squareform(y)) == 5


# --- derivatives -----------------------------------------------------------------------------

SMOOTH = [("euclidean", {}), ("sqeuclidean", {"w": np.array([0.5, 1.0, 2.0, 0.3])}),
          ("minkowski", {"p": 3.0}), ("minkowski", {"p": 1.5, "w": np.array([1.0, 2.0, 1, 1])}),
          ("seuclidean", {}), ("mahalanobis", {}), ("cosine", {}), ("correlation", {}),
          ("cityblock", {}), ("chebyshev", {}), ("braycurtis", {}), ("canberra", {}),
          ("jensenshannon", {})]


@pytest.mark.parametrize("metric, kw", SMOOTH)
def test_pdist_and_cdist_derivatives_match_finite_differences(metric, kw):
    # generic points (no coordinate differences or distances of zero), where every one of
    # these metrics is smooth
    x = RNG.random((6, 4)) + 0.5 if metric == "jensenshannon" else RNG.standard_normal((6, 4))
    xb = x[:5] + 0.3 * RNG.standard_normal((5, 4))

    def pairwise(x):
        return fd.pdist(x, metric, **kw)

    def cross(a, b):
        return fd.cdist(a, b, metric, **kw)

    check_jvp_fd(pairwise, [x], RNG)
    check_dot_product(cross, [x, xb], RNG)
    check_second_order(pairwise, [x], RNG)
    check_vmap(lambda a: fd.cdist(a[None, :], xb, metric, **kw), [x], [0], RNG)
    close(fg.jit(fg.grad(lambda a: fnp.sum(pairwise(a))))(x),
          fg.grad(lambda a: fnp.sum(pairwise(a)))(x), 1e-12)


def test_weights_variance_and_inverse_covariance_are_differentiable():
    u, v = RNG.standard_normal(4), RNG.standard_normal(4)
    w = RNG.random(4) + 0.2
    for f in (lambda w: fd.euclidean(u, v, w), lambda w: fd.minkowski(u, v, 3.0, w),
              lambda w: fd.cosine(u, v, w), lambda w: fd.hamming(u > 0, v > 0, w),
              lambda w: fd.dice(u > 0, v > 0, w), lambda w: fd.seuclidean(u, v, w)):
        check_jvp_fd(f, [w], RNG)
    vi = np.eye(4) + 0.2
    check_jvp_fd(lambda vi: fd.mahalanobis(u, v, vi), [vi], RNG)


def test_boolean_metrics_are_values_with_zero_derivative_in_the_points():
    x = RNG.standard_normal((5, 4))
    for metric in ("hamming", "jaccard", "dice", "yule"):
        g = fg.grad(lambda x: fnp.sum(fd.pdist(x, metric)))(x)
        assert np.all(g == 0), metric


@pytest.mark.parametrize("metric, kw", [("euclidean", {}), ("minkowski", {"p": 3.0}),
                                        ("minkowski", {"p": 0.5}), ("cityblock", {}),
                                        ("chebyshev", {}), ("seuclidean", {"V": np.ones(3)}),
                                        ("mahalanobis", {"VI": np.eye(3) + 0.1}),
                                        ("canberra", {}), ("sqeuclidean", {})])
def test_zero_distance_has_the_zero_subgradient(metric, kw):
    # (PyTorch's cdist convention: a point at distance zero from itself, or from a
    # coincident point, gets gradient 0, never NaN; old main had no pdist at all)
    x = np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [0.0, -1.0, 2.0]])
    g = fg.grad(lambda x: fnp.sum(fd.cdist(x, x, metric, **kw)))(x)
    assert np.all(np.isfinite(g))
    d = fg.grad(lambda x: fnp.sum(fd.pdist(x[:2], metric, **kw)))(x)
    close(d, np.zeros_like(x))
    h = fg.hessian(lambda x: fnp.sum(fd.pdist(x, metric, **kw)))(x)
    assert np.all(np.isfinite(h))


def test_one_pair_gradients_where_not_smooth():
    assert np.all(fg.grad(fd.euclidean)(np.ones(3), np.ones(3)) == 0)
    close(fg.grad(fd.cityblock)(np.array([1.0, 2.0]), np.array([1.0, 0.0])), [0.0, 1.0])
    # tied maxima share the gradient equally, as max does
    close(fg.grad(fd.chebyshev)(np.array([1.0, -1.0]), np.zeros(2)), [0.5, -0.5])
    p = np.array([0.2, 0.3, 0.5])
    assert np.all(fg.grad(lambda p: fd.jensenshannon(p, p.copy()))(p) == 0)
    g = fg.grad(lambda p: fd.jensenshannon(p, np.array([0.0, 0.5, 0.5])))(p)
    assert np.all(np.isfinite(g))
    check_jvp_fd(lambda p: fd.jensenshannon(p, np.array([0.1, 0.5, 0.4]), 2.0), [p], RNG)


def test_cdist_under_jit_and_vmap_of_grad():
    x, y = RNG.standard_normal((4, 3)), RNG.standard_normal((2, 3))
    close(fg.jit(fd.cdist)(x, y), sd.cdist(x, y))
    close(fg.jit(lambda a: fd.pdist(a, "cosine"))(x), sd.pdist(x, "cosine"))
    g = fg.vmap(fg.grad(lambda u, v: fd.euclidean(u, v)), in_axes=(0, None))(x, y[0])
    close(g, (x - y[0]) / sd.cdist(x, y[:1]))


def test_errors_name_the_problem():
    x = np.ones((3, 2))
    with pytest.raises(ValueError, match="unknown distance metric"):
        fd.pdist(x, "euclidian")
    with pytest.raises(ValueError, match="2-dimensional"):
        fd.pdist(np.ones(3))
    with pytest.raises(ValueError, match="same number of columns"):
        fd.cdist(x, np.ones((2, 3)))
    with pytest.raises(TypeError, match="unexpected keyword"):
        fd.pdist(x, "euclidean", p=3)
    with pytest.raises(ValueError, match="p must be greater than 0"):
        fd.minkowski(np.ones(2), np.ones(2), 0)
    with pytest.raises(ValueError, match="non-negative"):
        fd.euclidean(np.ones(2), np.ones(2), w=[1.0, -1.0])
    with pytest.raises(ValueError, match="too small"):
        fd.pdist(np.eye(2), "mahalanobis")  # (2 points in 2 dimensions)
    with pytest.raises(ValueError, match="1-D"):
        fd.euclidean(np.ones((2, 2)), np.ones(2))
    with pytest.raises(ValueError, match="same length"):
        fd.euclidean(np.ones(3), np.ones(2))
    with pytest.raises(ValueError, match="entirely false"):
        fd.sokalsneath([False, False], [False, False])
    with pytest.raises(TypeError, match="traced"):
        fg.grad(lambda x: fnp.sum(fd.pdist(x, out=np.empty(3))))(x)


# --- scipy.spatial's distance functions ---------------------------------------------------------

def test_spatial_functions_match_scipy():
    x, y = RNG.standard_normal((5, 3)), RNG.standard_normal((4, 3))
    for p in (1, 2, 3, np.inf, 0.5):
        close(fsp.minkowski_distance(x, x[::-1], p), ss.minkowski_distance(x, x[::-1], p))
        close(fsp.minkowski_distance_p(x, x[::-1], p), ss.minkowski_distance_p(x, x[::-1], p))
        close(fsp.distance_matrix(x, y, p), ss.distance_matrix(x, y, p))
        close(fsp.distance_matrix(x, y, p, threshold=10), ss.distance_matrix(x, y, p,
                                                                             threshold=10))
    a = RNG.standard_normal((6, 2))
    b = a @ np.array([[0.6, -0.8], [0.8, 0.6]]) * 2.0 + 1.0 + 0.1 * RNG.standard_normal((6, 2))
    for got, want in zip(fsp.procrustes(a, b), ss.procrustes(a, b)):
        close(got, want, 1e-12)
    start, end = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.6, 0.8])
    for t in (0.3, np.linspace(0, 1, 5), []):
        close(fsp.geometric_slerp(start, end, t), ss.geometric_slerp(start, end, t))
    close(fsp.geometric_slerp(start, start, 0.3), ss.geometric_slerp(start, start, 0.3))


def test_spatial_functions_differentiate():
    x, y = RNG.standard_normal((4, 3)), RNG.standard_normal((3, 3))
    check_jvp_fd(lambda x, y: fsp.distance_matrix(x, y, 3.0), [x, y], RNG)
    check_dot_product(lambda x: fsp.minkowski_distance(x, y[0], 1.5), [x], RNG)
    assert np.all(fg.grad(lambda x: fsp.minkowski_distance(x, x.copy()).sum())(x) == 0)
    a = RNG.standard_normal((6, 2))
    b = a @ np.array([[0.6, -0.8], [0.8, 0.6]]) + 0.3 * RNG.standard_normal((6, 2))
    check_jvp_fd(lambda b: fsp.procrustes(a, b)[2], [b], RNG)
    start, end = np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.6, 0.8])
    check_jvp_fd(lambda t: fsp.geometric_slerp(start, end, t), [np.array([0.2, 0.7])], RNG)
    with pytest.raises(ValueError, match="unit n-sphere"):
        fsp.geometric_slerp(start, 2 * end, 0.5)
    with pytest.raises(ValueError, match="same shape"):
        fsp.procrustes(a, b[:3])


def test_directed_hausdorff_matches_scipy_and_differentiates():
    u, v = RNG.standard_normal((7, 2)), RNG.standard_normal((5, 2))
    d, i, j = fd.directed_hausdorff(u, v)
    want = sd.directed_hausdorff(u, v)
    close(d, want[0])
    assert (int(i), int(j)) == want[1:]
    g = fg.grad(lambda u: fd.directed_hausdorff(u, v)[0])(u)
    expected = np.zeros_like(u)
    expected[i] = (u[i] - v[j]) / want[0]
    close(g, expected)
