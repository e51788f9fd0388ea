"""funcgrad.numpy.ma against NumPy's np.ma: the same values, masks, data under the mask,
dtypes and fill values; derivatives with respect to the data that never see a masked
entry (zero cotangent there, no NaN from a masked log(0) or 0/0)."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad.numpy import ma

X = np.array([[0.0, 1.5, -2.0, 4.0], [3.0, np.nan, 0.5, 2.0], [1.0, 2.5, -1.0, 0.25]])
M = np.array([[1, 0, 0, 0], [0, 1, 1, 0], [0, 0, 1, 0]], bool)  # column 2: fully masked? no
M2 = M.copy()
M2[0, 2] = True  # column 2 fully masked: reductions along axis 0 mask it


def same(ours, theirs, ulps=0):
    """``ours`` is NumPy's ``theirs``: masked, a MaskedArray or a value (to ``ulps`` units
    in the last place: NumPy's and funcgrad's transcendental functions may differ by one)."""
    if theirs is np.ma.masked:
        assert ours is np.ma.masked, ours
        return
    if isinstance(theirs, np.ma.MaskedArray):
        assert isinstance(ours, ma.MaskedArray), type(ours)
        assert (ours.mask is ma.nomask) == (theirs.mask is np.ma.nomask), (ours.mask,
                                                                            theirs.mask)
        np.testing.assert_array_equal(np.asarray(ma.getmaskarray(ours)),
                                      np.ma.getmaskarray(theirs))
        data = np.asarray(ours.data)
        assert data.dtype == theirs.dtype and data.shape == theirs.shape
        if ulps and data.dtype.kind in "fc":
            np.testing.assert_array_max_ulp(data, theirs.data, ulps)
        else:
            np.testing.assert_array_equal(data, theirs.data)
        assert ours.fill_value == theirs.fill_value
        return
    assert not isinstance(ours, ma.MaskedArray), ours
    if isinstance(theirs, np.generic):  # NumPy's scalar, not a 0-d array
        assert isinstance(ours, np.generic), (ours, theirs)
    assert np.result_type(ours) == np.result_type(theirs), (ours, theirs)
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))


def both(data=X, mask=M, **kw):
    return ma.masked_array(data, mask=mask, **kw), np.ma.masked_array(data, mask=mask, **kw)


# --- construction and masks from values ----------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda m: m.masked_array(X, mask=M),
    lambda m: m.masked_array(X),
    lambda m: m.masked_array(X, mask=True),
    lambda m: m.masked_array(X, mask=False),
    lambda m: m.masked_array(X, mask=M, fill_value=-9.0),
    lambda m: m.array([1, 2, 3], mask=[0, 1, 0]),
    lambda m: m.array(np.float32([1, 2]), mask=[1, 0], ndmin=2),
    lambda m: m.array(np.ma.array([1.0, 2.0], mask=[0, 1], fill_value=7.0), mask=[1, 0]),
    lambda m: m.array(np.ma.array([1.0, 2.0], mask=[0, 1]), mask=[1, 0], keep_mask=False),
    lambda m: m.masked_where(X > 1, X),
    lambda m: m.masked_where(X > 1, m.masked_array(X, mask=M)),
    lambda m: m.masked_invalid(np.where(M, np.inf, X)),
    lambda m: m.masked_equal(X, 2.0),
    lambda m: m.masked_not_equal(X, 2.0),
    lambda m: m.masked_greater(X, 1.0),
    lambda m: m.masked_greater_equal(X, 1.0),
    lambda m: m.masked_less(X, 1.0),
    lambda m: m.masked_less_equal(X, 1.0),
    lambda m: m.masked_inside(X, 2.0, 0.0),
    lambda m: m.masked_outside(X, 0.0, 2.0),
    lambda m: m.masked_values(X, 2.5),
    lambda m: m.masked_values(np.array([1, 2, 3]), 2),
    lambda m: m.fix_invalid(X, mask=M, fill_value=-1.0),
])
def test_construction_as_numpy(make):
    same(make(ma), make(np.ma))


def test_masked_all():
    x = ma.masked_all((2, 3), dtype=np.float32)
    assert x.dtype == np.float32 and x.shape == (2, 3) and x.mask.all()
    assert ma.sum(x) is ma.masked


def test_masks_and_data():
    ours, theirs = both()
    assert ma.getmask(ours).dtype == bool and ma.getmask(X) is ma.nomask
    np.testing.assert_array_equal(ma.getmaskarray(ma.masked_array(X)), np.zeros(X.shape, bool))
    np.testing.assert_array_equal(ma.getdata(ours), X)
    assert ma.is_masked(ours) and not ma.is_masked(ma.masked_array(X))
    np.testing.assert_array_equal(ma.filled(ours), theirs.filled())
    np.testing.assert_array_equal(ours.filled(0.5), theirs.filled(0.5))
    np.testing.assert_array_equal(ma.compressed(ours), theirs.compressed())
    assert ma.count(ours) == theirs.count()
    np.testing.assert_array_equal(ma.count(ours, axis=1), theirs.count(axis=1))
    # NumPy's np.ma arrays passed in: their data and mask
    np.testing.assert_array_equal(ma.getmask(theirs), M)
    same(ma.sum(theirs, axis=0), np.ma.sum(theirs, axis=0))


def test_indexing_shapes_and_setitem():
    ours, theirs = both()
    for key in [(0, 0), (0, 1), 1, (slice(None), 2), (X > 1,), ([0, 2],)]:
        same(ours[key], theirs[key])
    same(ours.reshape(4, 3), theirs.reshape(4, 3))
    same(ours.ravel(), theirs.ravel())
    same(ours.T, theirs.T)
    ours[0, 1] = ma.masked
    theirs[0, 1] = np.ma.masked
    ours[1, 1] = 5.0
    theirs[1, 1] = 5.0
    same(ours, theirs)
    assert repr(ours) == repr(theirs) and str(ours) == str(theirs)
    hard, theirs_hard = both(X, M, hard_mask=True)
    hard[0] = 9.0
    theirs_hard[0] = 9.0
    same(hard, theirs_hard)


# --- ufuncs and operators -----------------------------------------------------------------

UNARY = ["exp", "sin", "cos", "tan", "arctan", "arcsinh", "sinh", "cosh", "tanh", "abs",
         "fabs", "negative", "floor", "ceil", "sqrt", "log", "log2", "log10", "arcsin",
         "arccos", "arccosh", "arctanh"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_ufuncs_as_numpy(name):
    ours, theirs = both()
    with np.errstate(all="ignore"):
        expected = getattr(np.ma, name)(theirs)
        same(getattr(ma, name)(ours), expected, ulps=2)
        same(getattr(ma, name)(X[0]), getattr(np.ma, name)(X[0]), ulps=2)


BINARY = ["add", "subtract", "multiply", "arctan2", "hypot", "maximum", "minimum", "equal",
          "less", "greater_equal", "divide", "floor_divide", "remainder", "fmod", "power"]


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufuncs_as_numpy(name):
    ours, theirs = both()
    y = np.array([2.0, 0.0, -1.5, 1e-320])
    ym = np.array([0, 0, 1, 0], bool)
    with np.errstate(all="ignore"):
        same(getattr(ma, name)(ours, ma.masked_array(y, mask=ym)),
             getattr(np.ma, name)(theirs, np.ma.masked_array(y, mask=ym)), ulps=2)
        same(getattr(ma, name)(ours, y), getattr(np.ma, name)(theirs, y), ulps=2)
        same(getattr(ma, name)(X, y), getattr(np.ma, name)(X, y), ulps=2)


def test_operators_as_numpy():
    ours, theirs = both()
    y = np.array([2.0, 0.0, -1.5, 1.0])
    with np.errstate(all="ignore"):
        for op in [lambda a, b: a + b, lambda a, b: b - a, lambda a, b: a * 2, lambda a, b: 2 / a,
                   lambda a, b: a / b, lambda a, b: a ** 0.5, lambda a, b: -a, lambda a, b: a < b,
                   lambda a, b: a == 2.0, lambda a, b: a != b, lambda a, b: a >= 1,
                   lambda a, b: a // b, lambda a, b: abs(a), lambda a, b: np.log(a),
                   lambda a, b: np.expm1(a), lambda a, b: np.arctan2(a, b)]:
            same(op(ours, y), op(theirs, y), ulps=2)
    # a plain array or a traced value on the left defers to the masked array
    same(y + ours, y + theirs)
    out = fg.grad(lambda t: ma.sum(t * ours))(y)
    np.testing.assert_array_equal(out, theirs.filled(0).sum(axis=0))


# --- reductions -----------------------------------------------------------------------------

REDUCTIONS = [
    ("sum", {}), ("prod", {}), ("mean", {}), ("var", {}), ("var", {"ddof": 1}), ("std", {}),
    ("min", {}), ("max", {}), ("ptp", {}), ("argmin", {}), ("argmax", {}), ("median", {}),
    ("average", {}), ("anom", {}), ("cumsum", {}), ("cumprod", {}), ("argsort", {"kind": "stable"}),
    ("sort", {"kind": "stable"}), ("sort", {"endwith": False, "kind": "stable"}),
    ("all", {}), ("any", {}),
]


@pytest.mark.parametrize("name,kw", REDUCTIONS, ids=[f"{n}{k}" for n, k in REDUCTIONS])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_reductions_as_numpy(name, kw, axis):
    data = np.where(np.isnan(X), 7.0, X)
    for mask in (M2, None):
        ours, theirs = both(data, mask if mask is not None else np.ma.nomask)
        with np.errstate(all="ignore"):
            same(getattr(ma, name)(ours, axis=axis, **kw),
                 getattr(np.ma, name)(theirs, axis=axis, **kw))
    if name in ("sum", "mean", "min", "var"):  # the method, and a fully masked scalar
        same(getattr(ours, name)(axis=axis), getattr(theirs, name)(axis=axis))
        empty, theirs_empty = both(data[0], True)
        same(getattr(ma, name)(empty), getattr(np.ma, name)(theirs_empty))


def test_average_weights_and_median_even():
    ours, theirs = both(np.where(np.isnan(X), 7.0, X), M2)
    w = np.array([1.0, 2.0, 0.5, 3.0])
    for axis in (1, None):
        wt = w if axis == 1 else np.broadcast_to(w, X.shape)
        same(ma.average(ours, axis=axis, weights=wt),
             np.ma.average(theirs, axis=axis, weights=wt))
    avg, scl = ma.average(ours, axis=1, weights=w, returned=True)
    tavg, tscl = np.ma.average(theirs, axis=1, weights=w, returned=True)
    same(avg, tavg)
    same(scl, tscl)
    even = ma.masked_array([4.0, 1.0, 9.0, 3.0, 2.0], mask=[0, 0, 1, 0, 0])
    assert ma.median(even) == np.ma.median(np.ma.masked_array(even.data, mask=even.mask))


# --- joining, products, rows and columns ----------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda m, a: m.dot(a, a.T),
    lambda m, a: m.dot(a[0], a[1]),
    lambda m, a: m.dot(a, a.T, strict=True),
    lambda m, a: m.concatenate([a, a[:1]]),
    lambda m, a: m.concatenate([a.data, a.data], axis=1),
    lambda m, a: m.stack([a[0], a[1]], axis=1),
    lambda m, a: m.where(a.data > 1, a, -a),
    lambda m, a: m.where(a.data > 1, m.masked, a),
    lambda m, a: m.clip(a, 0.0, 2.0),
    lambda m, a: m.mask_rows(a),
    lambda m, a: m.mask_cols(a),
    lambda m, a: m.mask_rowcols(a),
    lambda m, a: m.compress_rows(a),
    lambda m, a: m.compress_cols(a),
    lambda m, a: m.compress_rowcols(a),
    lambda m, a: m.apply_along_axis(lambda r: r.sum(), 1, a),
    lambda m, a: m.apply_along_axis(lambda r: r * 2, 0, a),
    lambda m, a: m.round(a * 1.37, 1),
    lambda m, a: m.asarray(a),
    lambda m, a: m.asarray([1.0, 2.0], dtype=np.float32),
    lambda m, a: m.zeros((2, 3)),
    lambda m, a: m.ones(3, dtype=int),
    lambda m, a: m.count_masked(a),
    lambda m, a: m.count_masked(a, axis=1),
    lambda m, a: m.default_fill_value(a),
    lambda m, a: m.minimum_fill_value(m.asarray(np.int32([1]))),
    lambda m, a: m.maximum_fill_value(a),
])
def test_joins_and_rows_as_numpy(call):
    ours, theirs = both(np.where(np.isnan(X), 7.0, X), M)
    same(call(ma, ours), call(np.ma, theirs))


def test_edges_and_comparisons_of_whole_arrays():
    ours, theirs = both()
    for axis in (None, 0, 1):
        o, t = ma.notmasked_edges(ours, axis), np.ma.notmasked_edges(theirs, axis)
        np.testing.assert_equal(o, t)
    np.testing.assert_array_equal(ma.flatnotmasked_edges(ours), np.ma.flatnotmasked_edges(theirs))
    y = X + np.where(M, 5.0, 1e-9)
    assert ma.allclose(ours, y) and ma.allclose(ours, y) == np.ma.allclose(theirs, y)
    assert not ma.allclose(ours, y, masked_equal=False) or not np.ma.allclose(
        theirs, y, masked_equal=False)
    assert ma.allequal(ours, np.where(M, 0.0, X)) == np.ma.allequal(theirs, np.where(M, 0.0, X))
    assert ma.allequal(ours, X, fill_value=False) == np.ma.allequal(theirs, X, fill_value=False)


# --- derivatives ----------------------------------------------------------------------------

def _central(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


@pytest.mark.parametrize("f", [
    lambda m, d: m.sum(m.log(m.masked_array(d, mask=M))),
    lambda m, d: m.mean(m.sqrt(m.masked_less(d, 0.1)) / m.masked_array(d, mask=M)),
    lambda m, d: m.var(m.masked_array(d, mask=M2), axis=0).sum(),
    lambda m, d: m.std(m.masked_array(d, mask=M2)),
    lambda m, d: m.median(m.masked_array(d, mask=M2), axis=1).sum(),
    lambda m, d: m.average(m.masked_array(d, mask=M2), axis=1, weights=d[0] ** 2).sum(),
    lambda m, d: m.max(m.masked_array(d, mask=M2), axis=1).sum(),
    lambda m, d: (m.masked_array(d, mask=M) ** 1.5).sum(),
    lambda m, d: m.dot(m.masked_array(d, mask=M), m.masked_array(d, mask=M).T).sum(),
])
def test_derivatives_match_central_differences_and_skip_masked(f):
    d = np.abs(np.where(np.isnan(X), 7.0, X)) + 0.2
    d[0, 0] = 0.0  # a masked zero: log(0) and 0/0 under the mask
    g = fg.grad(lambda x: f(ma, x))(d)
    assert np.all(np.isfinite(g))
    expected = _central(lambda x: float(f(np.ma, x)), d)
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-7)


def test_masked_entries_get_zero_cotangent_not_nan():
    d = np.array([0.0, 1.0, 0.0, 4.0])
    g = fg.grad(lambda x: ma.sum(ma.log(ma.masked_array(x, mask=[1, 0, 1, 0]))
                                 / ma.masked_array(x, mask=[1, 0, 1, 0])))(d)
    np.testing.assert_allclose(g, [0.0, 1.0, 0.0, (1 - np.log(4.0)) / 16.0], rtol=1e-15)
    g = fg.grad(lambda x: ma.sum(ma.log(x)))(d)  # masked by log's domain
    np.testing.assert_array_equal(g, [0.0, 1.0, 0.0, 0.25])


def test_float32_stays_float32():
    d = np.float32([1.0, 2.0, 4.0])
    x = ma.masked_array(d, mask=[0, 1, 0])
    for out in (ma.log(x), x * 2, x / x, ma.sqrt(x), ma.sum(x, axis=0)):
        assert np.asarray(ma.getdata(out)).dtype == np.float32
    assert fg.grad(lambda t: ma.sum(ma.log(ma.masked_array(t, mask=[0, 1, 0]))))(d).dtype == \
        np.float32
    same(ma.mean(x), np.ma.mean(np.ma.masked_array(d, mask=[0, 1, 0])))


def test_vmap_and_jit_with_masks():
    d = np.abs(np.where(np.isnan(X), 7.0, X)) + 0.5
    rows = fg.vmap(lambda r: ma.mean(ma.masked_greater(r, 2.0)))(d)
    expected = np.ma.mean(np.ma.masked_greater(d, 2.0), axis=1)
    same(rows, expected)
    f = fg.jit(lambda x: ma.sum(ma.log(ma.masked_less(x, 1.0)), axis=0).filled(0.0))
    np.testing.assert_allclose(f(d), np.ma.sum(np.ma.log(np.ma.masked_less(d, 1.0)),
                                               axis=0).filled(0.0))
    with pytest.raises(fg.ConcretizationError, match="compressed"):
        fg.jit(lambda x: ma.masked_less(x, 1.0).compressed())(d)
