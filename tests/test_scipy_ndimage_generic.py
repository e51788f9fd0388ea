"""generic_filter, generic_filter1d, labeled_comprehension, the distance transforms and
the label geometry of funcgrad.scipy.ndimage, against SciPy's values and central
differences of SciPy's values."""
import numpy as np
import pytest
import scipy.ndimage as snd

import funcgrad as fg
import funcgrad.numpy as fnp
import funcgrad.scipy.ndimage as fnd

RNG = np.random.default_rng(7)
X = RNG.normal(size=(5, 6))
WEIGHTS = RNG.normal(size=9)


def _range(w):
    return w.max() - w.min()


def _second_smallest(w):  # (converts its window: vmap cannot trace it, one call a window)
    return float(np.sort(np.asarray(w))[1])


def _weighted(w, scale, *, shift=0.0):
    return np.sum(WEIGHTS[:w.shape[0]] * w * w) * scale + shift


CASES = [
    (np.sum, dict(size=3), (), None),
    (_range, dict(size=(2, 3), mode="nearest"), (), None),
    (np.median, dict(footprint=np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]])), (), None),
    (_second_smallest, dict(size=3, mode="wrap", origin=(0, -1)), (), None),
    (_weighted, dict(size=3, mode="constant", cval=0.5), (1.5,), {"shift": 2.0}),
    (np.mean, dict(size=4, axes=1, mode="mirror"), (), None),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_generic_filter_equals_scipys(case):
    function, kw, extra, keywords = CASES[case]
    want = snd.generic_filter(X, function, extra_arguments=extra, extra_keywords=keywords,
                              **kw)
    got = fnd.generic_filter(X, function, extra_arguments=extra, extra_keywords=keywords,
                             **kw)
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-14)
    # the input's dtype, as SciPy's (integers cut toward zero)
    for x in (X.astype(np.float32), np.round(X * 3).astype(np.int64)):
        got = fnd.generic_filter(x, function, extra_arguments=extra,
                                 extra_keywords=keywords, **kw)
        want = snd.generic_filter(x, function, extra_arguments=extra,
                                  extra_keywords=keywords, **kw)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_generic_filter_derivative_is_central_differences_of_scipys():
    kw = dict(size=3, mode="constant", cval=0.5, extra_arguments=(1.5,))
    v = RNG.normal(size=X.shape)
    got = fg.grad(lambda x: fnp.sum(v * fnd.generic_filter(x, _weighted, **kw)))(X)
    h = 1e-6
    fd = [np.sum(v * (snd.generic_filter(X + h * e, _weighted, **kw)
                      - snd.generic_filter(X - h * e, _weighted, **kw))) / (2 * h)
          for e in np.eye(X.size).reshape((-1,) + X.shape)]
    np.testing.assert_allclose(got.ravel(), fd, rtol=1e-6, atol=1e-8)
    # cval too, and under jit the same values
    gc = fg.grad(lambda c: fnp.sum(fnd.generic_filter(X, np.sum, size=3, mode="constant",
                                                      cval=c)))(0.5)
    fdc = (np.sum(snd.generic_filter(X, np.sum, size=3, mode="constant", cval=0.5 + h))
           - np.sum(snd.generic_filter(X, np.sum, size=3, mode="constant", cval=0.5 - h))) \
        / (2 * h)
    np.testing.assert_allclose(gc, fdc, rtol=1e-7)
    jitted = fg.jit(lambda x: fnd.generic_filter(x, _range, size=(2, 3), mode="nearest"))
    np.testing.assert_array_equal(jitted(X), fnd.generic_filter(X, _range, size=(2, 3),
                                                                mode="nearest"))


def test_generic_filter1d_is_scipys_and_refuses_a_derivative():
    def diff(line_in, line_out, scale):
        line_out[...] = scale * (line_in[2:] - line_in[:-2])

    want = snd.generic_filter1d(X, diff, 3, axis=0, mode="nearest", extra_arguments=(2.0,))
    got = fnd.generic_filter1d(X, diff, 3, axis=0, mode="nearest", extra_arguments=(2.0,))
    np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError, match="in place.*generic_filter"):
        fg.grad(lambda x: fnd.generic_filter1d(x, diff, 3, extra_arguments=(1.0,)).sum())(X)


def test_labeled_comprehension_equals_scipys_and_differentiates():
    labels = RNG.integers(0, 4, size=X.shape)
    for index in ([1, 2, 5, 3], 2, None):
        for func, positions in ((np.mean, False), (lambda v, p: np.sum(v * p), True)):
            want = snd.labeled_comprehension(X, labels, index, func, float, -1.0, positions)
            got = fnd.labeled_comprehension(X, labels, index, func, float, -1.0, positions)
            np.testing.assert_allclose(got, want, rtol=1e-14)
    np.testing.assert_allclose(fnd.labeled_comprehension(X, None, None, np.max, float, 0),
                               snd.labeled_comprehension(X, None, None, np.max, float, 0))
    counts = fnd.labeled_comprehension(X, labels, [1, 2], len, np.int64, 0)
    assert counts.dtype == np.int64
    np.testing.assert_array_equal(counts, [np.sum(labels == 1), np.sum(labels == 2)])
    got = fg.grad(lambda x: fnp.sum(fnd.labeled_comprehension(
        x, labels, [1, 3], lambda v: np.sum(v ** 2), float, 0.0)))(X)
    np.testing.assert_allclose(got, np.where((labels == 1) | (labels == 3), 2 * X, 0.0))
    with pytest.raises(ValueError, match="index without defined labels"):
        fnd.labeled_comprehension(X, None, 1, np.sum, float, 0)


MASK = (RNG.uniform(size=(6, 7)) > 0.25).astype(int)


def test_distance_transforms_are_scipys():
    np.testing.assert_array_equal(fnd.distance_transform_edt(MASK),
                                  snd.distance_transform_edt(MASK))
    d, i = fnd.distance_transform_edt(MASK, sampling=(0.5, 2.0), return_indices=True)
    dw, iw = snd.distance_transform_edt(MASK, sampling=(0.5, 2.0), return_indices=True)
    np.testing.assert_array_equal(d, dw)
    np.testing.assert_array_equal(i, iw)
    for metric in ("euclidean", "taxicab", "chessboard"):
        np.testing.assert_array_equal(fnd.distance_transform_bf(MASK, metric=metric),
                                      snd.distance_transform_bf(MASK, metric=metric))
    for metric in ("chessboard", "taxicab", np.ones((3, 3))):
        np.testing.assert_array_equal(fnd.distance_transform_cdt(MASK, metric=metric),
                                      snd.distance_transform_cdt(MASK, metric=metric))
    with pytest.raises(TypeError, match="new arrays"):
        fnd.distance_transform_edt(MASK, distances=np.zeros(MASK.shape))


@pytest.mark.parametrize("transform", ["edt", "bf"])
def test_euclidean_distance_differentiates_in_sampling(transform):
    scipys = getattr(snd, f"distance_transform_{transform}")
    ours = getattr(fnd, f"distance_transform_{transform}")
    s, h = np.array([0.7, 1.3]), 1e-6
    v = RNG.normal(size=MASK.shape)
    got = fg.grad(lambda s: fnp.sum(v * ours(MASK, sampling=s)))(s)
    fd = [np.sum(v * (scipys(MASK, sampling=s + h * e) - scipys(MASK, sampling=s - h * e)))
          / (2 * h) for e in np.eye(2)]
    np.testing.assert_allclose(got, fd, rtol=1e-6)
    traced_value, _ = fg.vjp(lambda s: ours(MASK, sampling=s), s)  # (computed from s)
    np.testing.assert_allclose(traced_value, scipys(MASK, sampling=s), rtol=1e-14)


def test_label_geometry_is_scipys():
    labels, _ = snd.label(MASK)
    assert fnd.find_objects(labels) == snd.find_objects(labels)
    assert fnd.find_objects(labels, max_label=2) == snd.find_objects(labels, max_label=2)
    ours, scipys = fnd.value_indices(labels, ignore_value=0), snd.value_indices(
        labels, ignore_value=0)
    assert ours.keys() == scipys.keys()
    for k in ours:
        for a, b in zip(ours[k], scipys[k]):
            np.testing.assert_array_equal(a, b)
    image = (RNG.uniform(size=(6, 7)) * 200).astype(np.uint8)
    markers = np.zeros((6, 7), np.int16)
    markers[0, 0], markers[5, 6] = 1, 2
    np.testing.assert_array_equal(fnd.watershed_ift(image, markers),
                                  snd.watershed_ift(image, markers))
    with pytest.raises(fg.ConcretizationError, match="find_objects"):
        fg.jit(fnd.find_objects)(labels)
