"""The rest of funcgrad.numpy.ma against NumPy's np.ma (joining, differences, arrays like
another, shapes, runs, covariance and correlation, products, convolution, polynomial fits,
diagonals): the same values, masks, data under the mask and dtypes; derivatives with
respect to the data against central differences of np.ma's own values, never a NaN from a
masked entry."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad.numpy import ma

from test_numpy_ma import same

X = np.array([[0.0, 1.5, -2.0, 4.0], [3.0, np.nan, 0.5, 2.0], [1.0, 2.5, -1.0, 0.25]])
M = np.array([[1, 0, 0, 0], [0, 1, 1, 0], [0, 0, 1, 0]], bool)
Y = np.array([[1.0, 2.0, 4.0, 3.0], [0.0, 1.0, 5.0, 2.0], [2.0, 0.5, 1.0, 1.0]])
MY = np.array([[0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]], bool)


def _args(m):
    A = m.masked_array(X, mask=M)
    return A, A[0], m.masked_array(Y, mask=MY)


@pytest.mark.parametrize("f", [
    lambda m, A, A1, C: m.hstack([A, A]),
    lambda m, A, A1, C: m.hstack([X, X]),  # a full False mask, not nomask, as NumPy's
    lambda m, A, A1, C: m.vstack([A1, X[1]]),
    lambda m, A, A1, C: m.row_stack([A1, A1]),
    lambda m, A, A1, C: m.column_stack([A1, X[1]]),
    lambda m, A, A1, C: m.dstack([A, X]),
    lambda m, A, A1, C: m.append(A, A1),
    lambda m, A, A1, C: m.append(A, A1[None], axis=0),
    lambda m, A, A1, C: m.atleast_1d(2.0),
    lambda m, A, A1, C: m.atleast_2d(A1),
    lambda m, A, A1, C: m.atleast_3d(A),
    lambda m, A, A1, C: m.diff(A),
    lambda m, A, A1, C: m.diff(A, 2, axis=0),
    lambda m, A, A1, C: m.diff(A, prepend=0.0, append=A[:, :1]),
    lambda m, A, A1, C: m.ediff1d(A, to_end=[9.0], to_begin=A1[:2]),
    lambda m, A, A1, C: m.ediff1d(A1),
    lambda m, A, A1, C: m.zeros_like(A),
    lambda m, A, A1, C: m.ones_like(A, dtype=np.float32),
    lambda m, A, A1, C: m.zeros_like(X),
    lambda m, A, A1, C: m.masked_all_like(A).mask,
    lambda m, A, A1, C: m.squeeze(A[None]),
    lambda m, A, A1, C: A[None].squeeze(0),
    lambda m, A, A1, C: m.expand_dims(A, 1),
    lambda m, A, A1, C: m.swapaxes(A, 0, 1),
    lambda m, A, A1, C: m.ravel(A),
    lambda m, A, A1, C: m.reshape(A, (4, 3)),
    lambda m, A, A1, C: m.transpose(A),
    lambda m, A, A1, C: m.outer(A1, C[2]),
    lambda m, A, A1, C: m.outer(Y[0], Y[2]),
    lambda m, A, A1, C: m.outerproduct(A1, C[2]),
    lambda m, A, A1, C: m.inner(A1, C[2]),
    lambda m, A, A1, C: m.innerproduct(C, C),
    lambda m, A, A1, C: m.convolve(C[0], C[2][:2]),
    lambda m, A, A1, C: m.convolve(A1, C[2][:2], propagate_mask=False),
    lambda m, A, A1, C: m.correlate(C[0], C[2][:2]),
    lambda m, A, A1, C: m.correlate(A1, C[2], mode="same", propagate_mask=False),
    lambda m, A, A1, C: m.diag(A),
    lambda m, A, A1, C: m.diag(A1, 1),
    lambda m, A, A1, C: m.diagonal(A, 1),
    lambda m, A, A1, C: A.diagonal(),
    lambda m, A, A1, C: m.trace(A),
    lambda m, A, A1, C: m.trace(Y),
])
def test_values_masks_and_data_as_numpy(f):
    same(f(ma, *_args(ma)), f(np.ma, *_args(np.ma)))


@pytest.mark.parametrize("f", [
    lambda m, A, A1, C: m.cov(C),
    lambda m, A, A1, C: m.cov(C, rowvar=False),
    lambda m, A, A1, C: m.cov(C[0], C[1]),
    lambda m, A, A1, C: m.cov(C[:2], Y[1:], ddof=0),
    lambda m, A, A1, C: m.cov(C[0]),
    lambda m, A, A1, C: m.cov(C[:, :2]),  # fewer than two observations: masked
    lambda m, A, A1, C: m.corrcoef(C),
    lambda m, A, A1, C: m.corrcoef(C, rowvar=False),
    lambda m, A, A1, C: m.corrcoef(C[0]),
    lambda m, A, A1, C: m.vander(C[0]),
    lambda m, A, A1, C: m.vander(C[2], 3),
    lambda m, A, A1, C: m.polyfit(C[0], C[1], 1),
    lambda m, A, A1, C: m.polyfit(Y[1], C.T[:, :2], 1),
    lambda m, A, A1, C: m.polyfit(Y[1], Y[0], 2, w=C[2]),
])
def test_statistics_as_numpy(f):
    ours, theirs = f(ma, *_args(ma)), f(np.ma, *_args(np.ma))
    if theirs is np.ma.masked:
        assert ours is ma.masked
        return
    assert type(ours) is (ma.MaskedArray if isinstance(theirs, np.ma.MaskedArray)
                          else np.ndarray)
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_array_equal(ma.getmaskarray(ours), np.ma.getmaskarray(theirs))
    # data under the mask too (NumPy's inf/nan from a zero count)
    np.testing.assert_allclose(np.asarray(ma.getdata(ours)), np.ma.getdata(theirs),
                               rtol=1e-12, atol=1e-14)


def test_runs_of_masked_entries():
    a = ma.masked_array(X, mask=M)
    b = np.ma.masked_array(X, mask=M)
    assert ma.clump_masked(a.ravel()) == np.ma.clump_masked(b.ravel())
    assert ma.clump_unmasked(a.ravel()) == np.ma.clump_unmasked(b.ravel())
    assert ma.flatnotmasked_contiguous(a) == np.ma.flatnotmasked_contiguous(b)
    assert ma.notmasked_contiguous(a, 0) == np.ma.notmasked_contiguous(b, 0)
    assert (ma.shape(a), ma.size(a, 1), ma.ndim(a)) == (np.ma.shape(b), np.ma.size(b, 1),
                                                        np.ma.ndim(b))


def test_hard_and_soft_masks():
    x = ma.masked_array([1.0, 2.0], mask=[0, 1])
    assert ma.harden_mask(x) is x and x.hardmask
    x[1] = 5.0
    assert x.mask.tolist() == [False, True] and x.data.tolist() == [1.0, 2.0]
    x.soften_mask()
    x[1] = 5.0
    assert x.mask.tolist() == [False, False] and x.data.tolist() == [1.0, 5.0]
    with pytest.raises(TypeError, match="masked_array"):
        ma.harden_mask(np.ones(2))


def _central(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


W = np.array([0.3, -1.2, 0.7, 2.0])


@pytest.mark.parametrize("f", [
    lambda m, d: (m.diff(m.masked_array(d, mask=MY), axis=0) ** 2).sum(),
    lambda m, d: m.ediff1d(m.masked_array(d, mask=MY), to_begin=[1.0]).sum(),
    lambda m, d: (m.hstack([m.masked_array(d, mask=MY), m.masked_array(2 * d, mask=MY)]) ** 2).sum(),
    lambda m, d: (m.cov(m.masked_array(d, mask=MY)) * W[:3]).sum(),
    lambda m, d: (m.cov(m.masked_array(d, mask=MY), rowvar=False) * W).sum(),
    lambda m, d: (m.corrcoef(m.masked_array(d, mask=MY)) * W[:3]).sum(),
    lambda m, d: (m.convolve(m.masked_array(d[0], mask=MY[0]), d[2, :2]) * W[0]).sum(),
    lambda m, d: (m.correlate(m.masked_array(d[0], mask=MY[0]), d[1],
                              mode="same", propagate_mask=False) * W).sum(),
    lambda m, d: (m.outer(m.masked_array(d[0], mask=MY[0]), d[1]) * W).sum(),
    lambda m, d: (m.vander(m.masked_array(d[0], mask=MY[0])) * W).sum(),
    lambda m, d: (m.polyfit(m.masked_array(d[1], mask=MY[0]), d[0], 1) * W[:2]).sum(),
    lambda m, d: m.trace(m.masked_array(d, mask=MY)),
])
def test_derivatives_match_central_differences(f):
    d = Y.copy()
    d[0, 2] = np.nan  # under the mask: must not reach a derivative
    g = fg.grad(lambda x: f(ma, x))(d)
    assert np.all(np.isfinite(g))
    assert np.all(g[0, 2] == 0.0)
    dd = np.where(np.isnan(d), 4.0, d)
    expected = _central(lambda x: float(f(np.ma, x)), dd)
    np.testing.assert_allclose(np.where(np.isnan(d), 0.0, g), expected, rtol=1e-6, atol=1e-7)
    assert np.any(g != 0.0)


def test_float32_kept_where_numpy_keeps_it():
    x = ma.masked_array(np.float32([1.0, 2.0, 4.0]), mask=[0, 1, 0])
    for r in (ma.diff(x), ma.hstack([x, x]), ma.outer(x, x), ma.convolve(x, x),
              ma.zeros_like(x), ma.diag(x)):
        assert r.dtype == np.float32
    # NumPy's vander promotes with its integer powers, and its cov works in float64
    assert ma.vander(x).dtype == np.ma.vander(np.ma.masked_array(x.data, mask=x.mask)).dtype
    assert ma.cov(x).dtype == np.float64


def test_vmap_and_jit():
    d = np.array([[1.0, 3.0, 2.0, 5.0], [0.5, 4.0, 1.0, 1.5]])
    rows = fg.vmap(lambda r: ma.diff(ma.masked_greater(r, 3.5)).filled(0.0))(d)
    expected = [np.ma.diff(np.ma.masked_greater(r, 3.5)).filled(0.0) for r in d]
    np.testing.assert_array_equal(rows, expected)
    f = fg.jit(lambda x: ma.cov(ma.masked_less(x, 1.0)).filled(-1.0))
    np.testing.assert_allclose(f(d), np.ma.cov(np.ma.masked_less(d, 1.0)).filled(-1.0),
                               rtol=1e-12)


def test_shape_needing_functions_ask_for_a_known_mask():
    with pytest.raises(fg.ConcretizationError if hasattr(fg, "ConcretizationError")
                       else Exception, match="polyfit"):
        fg.jit(lambda x: ma.polyfit(ma.masked_less(x, 1.0), x, 1))(np.arange(4.0))


@pytest.mark.parametrize("f", [
    lambda m, A: m.amin(A, axis=0),
    lambda m, A: m.amax(A, axis=1),
    lambda m, A: m.amin(A),
    lambda m, A: m.alltrue(A),
    lambda m, A: m.sometrue(A, axis=1),
    lambda m, A: m.take(A, [0, 5, 6]),
    lambda m, A: m.take(A, 5),  # a masked entry: ma.masked
    lambda m, A: m.take(A, [1, 0], axis=1),
    lambda m, A: m.repeat(A, 2, axis=1),
    lambda m, A: m.compress([True, False, True], A, axis=0),
    lambda m, A: m.identity(3, dtype=np.float32),
    lambda m, A: m.arange(1, 7, 2),
    lambda m, A: m.arange(4.0),
    lambda m, A: m.make_mask_none((2, 2)),
    lambda m, A: m.nonzero(A)[1],
    lambda m, A: m.common_fill_value(A, A),
    lambda m, A: m.empty((2, 3), dtype=np.float32).mask,
])
def test_selection_aliases_and_constructors_as_numpy(f):
    same(f(ma, ma.masked_array(X, mask=M)), f(np.ma, np.ma.masked_array(X, mask=M)))


def test_numpy_objects_and_fill_values():
    assert ma.MAError is np.ma.MAError and ma.bool_ is np.bool_
    assert ma.masked_singleton is np.ma.masked
    assert ma.is_mask(np.array([True])) and not ma.is_mask([True])
    x = ma.masked_array([1.0, 2.0], mask=[0, 1])
    ma.set_fill_value(x, -3.0)
    assert x.fill_value == -3.0 and x.filled().tolist() == [1.0, -3.0]
    assert ma.common_fill_value(x, ma.masked_array([1.0])) is None


def test_selection_derivatives():
    d = np.where(np.isnan(X), 4.0, X)
    g = fg.grad(lambda x: (ma.take(ma.masked_array(x, mask=M), [1, 5, 6]).filled(0.0) ** 2
                           ).sum() + ma.amax(ma.masked_array(x, mask=M)))(d)
    expected = np.zeros_like(d)
    expected[0, 1] = 2 * d[0, 1]  # index 5 is masked, 6 is X[1, 2]: masked
    expected[0, 3] = 1.0  # the largest unmasked entry
    np.testing.assert_array_equal(g, expected)


S1 = np.array([3.0, 1.0, 3.0, 7.0, np.nan, 2.0])
SM1 = np.array([0, 0, 0, 1, 0, 1], bool)
S2 = np.array([2.0, 3.0, 5.0, 9.0])
SM2 = np.array([0, 0, 1, 0], bool)


@pytest.mark.parametrize("f", [
    lambda m, a, b: m.unique(a),
    lambda m, a, b: m.unique(a, return_index=True, return_inverse=True),
    lambda m, a, b: m.unique(S2),
    lambda m, a, b: m.intersect1d(a, b),
    lambda m, a, b: m.union1d(a, b),
    lambda m, a, b: m.setdiff1d(a, b),
    lambda m, a, b: m.setxor1d(a, b),
    lambda m, a, b: m.setxor1d(S1[:3], S2),
    lambda m, a, b: m.in1d(a, b),
    lambda m, a, b: m.in1d(a, b, invert=True),
    lambda m, a, b: m.isin(a.reshape(2, 3), b),
])
def test_set_functions_as_numpy(f):
    ours = f(ma, ma.masked_array(S1, mask=SM1), ma.masked_array(S2, mask=SM2))
    theirs = f(np.ma, np.ma.masked_array(S1, mask=SM1), np.ma.masked_array(S2, mask=SM2))
    if isinstance(theirs, tuple):
        same(ours[0], theirs[0])
        for o, t in zip(ours[1:], theirs[1:]):
            np.testing.assert_array_equal(o, t)
    else:
        same(ours, theirs)


def test_set_values_carry_the_first_equal_entrys_derivative():
    def f(a, b):
        x = ma.masked_array(a, mask=SM1)
        y = ma.masked_array(b, mask=SM2)
        return (ma.union1d(x, y).filled(0.0) * np.arange(1.0, 7.0)).sum() + \
            ma.intersect1d(x, y).filled(0.0).sum()
    a, b = np.where(np.isnan(S1), 4.0, S1), S2
    ga, gb = fg.grad(f, argnums=(0, 1))(a, b)
    # union: 1, 2 (b's: a's 2 is masked), 3 (a[0]), 4 (a[4]), 9 (b[3]), then one masked;
    # intersection: 3, from a[0] (the first equal unmasked entry), then one masked
    np.testing.assert_array_equal(ga, [3.0 + 1.0, 1.0, 0.0, 0.0, 4.0, 0.0])
    np.testing.assert_array_equal(gb, [2.0, 0.0, 0.0, 5.0])
    with pytest.raises(fg.ConcretizationError):
        fg.jit(lambda v: ma.unique(ma.masked_array(v)).filled(0.0))(a)


@pytest.mark.parametrize("f", [
    lambda m, A: m.diagflat(A[0]),
    lambda m, A: m.diagflat(A[1], -1),
    lambda m, A: m.hsplit(A, 2),
    lambda m, A: m.resize(A, (2, 7)),
    lambda m, A: m.resize(m.masked_array(X), (5,)),
    lambda m, A: m.copy(A),
    lambda m, A: m.left_shift(m.masked_array([1, 2, 3], mask=[0, 1, 0]), 2),
    lambda m, A: m.right_shift(m.masked_array([8, 2, 5]), 1),
])
def test_more_shapes_as_numpy(f):
    same(f(ma, ma.masked_array(X, mask=M)), f(np.ma, np.ma.masked_array(X, mask=M)))


def test_diagflat_and_resize_derivatives():
    d = np.where(np.isnan(X), 4.0, X)
    g = fg.grad(lambda x: (ma.diagflat(ma.masked_array(x, mask=M)[0]).filled(0.0) ** 2).sum()
                + ma.resize(ma.masked_array(x, mask=M), (13,)).filled(0.0).sum())(d)
    expected = np.where(M, 0.0, 1.0)
    expected[0, 0] += 1.0  # resize to 13 takes x[0, 0] twice (masked: zero anyway)
    expected[0] += np.where(M[0], 0.0, 2 * d[0])
    expected[0, 0] = 0.0
    np.testing.assert_array_equal(g, expected)
