"""The last of np.ma's names and MaskedArray's methods in funcgrad.numpy.ma, against
NumPy's np.ma: the same values, masks, data under the mask and fill values; derivatives
with respect to the data (and to put/filled values) against central differences of np.ma's
own results; the byte, memory and structured-record helpers work on concrete data and
refuse traced data, naming why."""
import pickle
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import ConcretizationError
from funcgrad.numpy import ma

from test_numpy_ma import same

X = np.array([[0.5, 1.5, -2.0, 4.0], [3.0, 2.0, 0.5, -1.0]])
M = np.array([[1, 0, 0, 0], [0, 1, 0, 0]], bool)
Z = np.array([1.0 + 2.0j, -1.0 + 0.5j, 3.0 - 1.0j])
MZ = np.array([0, 1, 0], bool)


def test_module_and_method_names_cover_numpys():
    names = {n for n in dir(np.ma) if n[0] != "_"} - {"core", "extras", "test"}
    assert names <= {n for n in dir(ma) if n[0] != "_"}
    assert ({n for n in dir(np.ma.MaskedArray) if n[0] != "_"}
            <= {n for n in dir(ma.MaskedArray) if n[0] != "_"})
    assert ma.masked_array is ma.MaskedArray
    assert ma.masked_print_option is np.ma.masked_print_option and ma.mvoid is np.ma.mvoid
    x = ma.masked_array([1.0, 2.0], [0, 1], float, False, True, 0, 5.0)  # NumPy's order
    assert x.fill_value == 5.0 and x.mask.tolist() == [False, True]


def _a(m):  # (a copy of the mask: NumPy's put/putmask write into the one they are given)
    return m.masked_array(X.copy(), mask=M.copy(), fill_value=7.0)


def _z(m):
    return m.masked_array(Z, mask=MZ)


def _ch(m):
    return [m.masked_array([1.0, 2.0, 3.0], mask=[1, 0, 0]), np.array([4.0, 5.0, 6.0])]


def _idx(m):
    return m.masked_array([0, 1, 1], mask=[0, 0, 1])


def _put(m, i, v, **kw):
    a = _a(m)
    m.put(a, i, v, **kw)
    return a


def _putmask(m, where, v, hard=False):
    a = m.masked_array(X.copy(), mask=M.copy(), hard_mask=hard)
    m.putmask(a, where, v)
    return a


def _inplace(m, method, *args):
    a = _a(m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        getattr(a, method)(*args)
    return a


@pytest.mark.parametrize("f", [
    lambda m: m.angle(_z(m)),
    lambda m: m.angle(_z(m), deg=True),
    lambda m: m.choose(_idx(m), _ch(m)),
    lambda m: m.choose([0, 1, 1], _ch(m), mode="clip"),
    lambda m: m.compress_nd(_a(m)),
    lambda m: m.compress_nd(_a(m), axis=0),
    lambda m: m.compress_nd(_a(m), axis=1),
    lambda m: m.apply_over_axes(m.sum, _a(m), [0, 1]),
    lambda m: m.apply_over_axes(m.mean, _a(m), 1),
    lambda m: m.indices((2, 3)),
    lambda m: m.fromfunction(lambda i, j: i * 2.0 + j, (2, 3)),
    lambda m: m.frombuffer(X.tobytes()),
    lambda m: m.fromflex(np.ma.masked_array(X, mask=M.copy()).toflex()),
    lambda m: m.masked_object(X, 2.0),
    lambda m: m.masked_object(_a(m), 0.5),
    lambda m: m.mr_[_a(m)[0], 1.0, 0:3],
    lambda m: m.flatten_mask(M),
    lambda m: _put(m, [1, 6, 1], [9.0, 8.0]),
    lambda m: _put(m, [9, -1], m.masked_array([9.0, 8.0], mask=[1, 0]), mode="wrap"),
    lambda m: _put(m, [0, 1], 5.0),
    lambda m: _putmask(m, X > 1.0, 10.0 * X),
    lambda m: _putmask(m, X > 1.0, m.masked_array(10.0 * X, mask=~M.copy())),
    lambda m: _putmask(m, X > 1.0, m.masked_array(10.0 * X, mask=~M.copy()), hard=True),
    # methods
    lambda m: _z(m).real, lambda m: _z(m).imag, lambda m: _z(m).get_real(),
    lambda m: _z(m).get_imag(), lambda m: _z(m).conj(), lambda m: _z(m).conjugate(),
    lambda m: _a(m).real,
    lambda m: _idx(m).choose([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
    lambda m: _a(m).compress([True, False], axis=0),
    lambda m: _a(m).take([0, 5]), lambda m: _a(m).take([1, 0], axis=1),
    lambda m: _a(m).repeat(2, axis=0),
    lambda m: _a(m).mT, lambda m: _a(m).view(), lambda m: _a(m).view(fill_value=3.0),
    lambda m: _a(m).flat[1:6], lambda m: _a(m).flat[0], lambda m: _a(m).flat[2],
    lambda m: _inplace(m, "fill", 2.5),
    lambda m: _inplace(m, "partition", 1),
    lambda m: _inplace(m, "put", [0, 3], [1.0, 2.0]),
    lambda m: _inplace(m, "set_fill_value", 3.0),
    lambda m: _inplace(m, "shrink_mask"),
    lambda m: _inplace(m, "unshare_mask"),
    lambda m: m.masked_array(X, mask=np.zeros_like(M)).shrink_mask(),
    lambda m: _a(m).argpartition(1),
    lambda m: _a(m)[0].searchsorted(1.0),
    lambda m: _a(m).nonzero()[1],
    lambda m: _a(m).byteswap(),
    lambda m: _a(m).view(np.int64),
    lambda m: _a(m).view(np.ndarray),
    lambda m: _a(m).toflex(), lambda m: _a(m).torecords(),
    lambda m: _a(m).tobytes(), lambda m: _a(m).getfield(np.float64),
    lambda m: _a(m).item(1), lambda m: _a(m).item((1, 2)), lambda m: _a(m)[0, :1].item(),
    lambda m: _a(m).get_fill_value(), lambda m: _a(m).recordmask,
    lambda m: (_a(m).itemsize, _a(m).nbytes, _a(m).strides, _a(m).iscontiguous()),
    lambda m: (_a(m).device, _a(m).baseclass, _a(m).to_device("cpu").shape),
], ids=lambda f: None)
def test_values_masks_and_data_as_numpy(f):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ours, theirs = f(ma), f(np.ma)
    if isinstance(theirs, tuple):
        assert ours == theirs
        return
    if isinstance(theirs, bytes) or theirs is None:
        assert ours == theirs
        return
    if isinstance(theirs, np.ndarray) and theirs.dtype.names:
        np.testing.assert_array_equal(ours, theirs)
        assert ours.dtype == theirs.dtype
        return
    if isinstance(theirs, (float, int)) and not isinstance(theirs, np.generic):
        assert type(ours) is type(theirs) and ours == theirs
        return
    same(ours, theirs)


def test_list_results_ids_flat_iteration_and_pickles_as_numpy():
    a, b = _a(ma), _a(np.ma)
    assert list(ma.ndenumerate(a)) == list(np.ma.ndenumerate(b))
    assert [(i, v is ma.masked) for i, v in ma.ndenumerate(a, compressed=False)] == \
        [(i, v is np.ma.masked) for i, v in np.ma.ndenumerate(b, compressed=False)]
    assert [v is ma.masked or float(v) for v in a.flat] == \
        [v is np.ma.masked or float(v) for v in b.flat]
    same(MaskedArrayFrom(pickle.loads(a.dumps())), b)
    a, b = ma.masked_array(X, mask=M.copy()), np.ma.masked_array(X, mask=M.copy())
    assert ma.ids(a)[0] == X.ctypes.data == a.ids()[0] == b.ids()[0]
    assert ma.masked_array(X).ids()[1] == id(ma.nomask)
    assert a.base is X and b.base is X
    assert a.sharedmask is False and isinstance(a.ctypes.data, int) and a.flags.c_contiguous
    c, d = _a(ma), _a(np.ma)
    c.flat[[0, 3]] = ma.masked_array([9.0, 8.0], mask=[0, 1])
    d.flat[[0, 3]] = np.ma.masked_array([9.0, 8.0], mask=[0, 1])
    same(c, d)
    with pytest.raises(ValueError, match="does not own its data"):
        a.resize((8,))
    with pytest.raises(ValueError, match="ndim < 2"):
        a[0].mT
    with pytest.raises(NotImplementedError, match="directive"):
        ma.mr_["0,2", a]


def MaskedArrayFrom(x):  # noqa: N802 - a NumPy masked array as funcgrad's
    return ma.masked_array(x.data, mask=x.mask, fill_value=x.fill_value)


def _central(f, x, eps=1e-6):
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        e = np.zeros_like(x)
        e[i] = eps
        g[i] = (f(x + e) - f(x - e)) / (2 * eps)
    return g


W = np.sin(np.arange(1.0, 41.0))  # (weights for up to 40 entries)


def _sum(m, r):
    """A masked result's weighted sum of unmasked entries (a scalar for grad)."""
    if not isinstance(r, (ma.MaskedArray, np.ma.MaskedArray)):
        return (r * W.ravel()[:np.size(r)].reshape(np.shape(r))).sum()
    return (m.masked_array(r.filled(0.0)) * W.ravel()[:r.size].reshape(r.shape)).sum()


@pytest.mark.filterwarnings("ignore:Warning. 'partition' will ignore")
@pytest.mark.parametrize("f", [
    lambda m, d: m.choose(_idx(m), [m.masked_array(d[0, :3], mask=[1, 0, 0]), d[1, :3]]),
    lambda m, d: m.compress_nd(m.masked_array(d, mask=M.copy()), axis=1),
    lambda m, d: m.apply_over_axes(m.sum, m.masked_array(d, mask=M.copy()), 1),
    lambda m, d: m.mr_[m.masked_array(d[0], mask=M[0]), d[1, 0]],
    lambda m, d: m.angle(m.masked_array(d[0] + 1j * d[1], mask=M[0])),
    lambda m, d: _putv(m, d),
    lambda m, d: _putmaskv(m, d),
    lambda m, d: m.masked_array(d[0] + 2j * d[1], mask=M[0]).imag,
    lambda m, d: m.masked_array(d[0] + 2j * d[1], mask=M[0]).conj().real,
    lambda m, d: m.masked_array(d, mask=M.copy()).mT,
    lambda m, d: m.masked_array(d, mask=M.copy()).flat[2:7],
    lambda m, d: _partitioned(m, d),
    lambda m, d: m.masked_array(d, mask=M.copy()).take([1, 4, 6]),
    lambda m, d: m.masked_array(d, mask=M.copy()).compress([False, True], axis=0),
    lambda m, d: m.masked_array(d, mask=M.copy()).repeat(2),
    lambda m, d: m.masked_array(d, mask=M.copy()).view(),
    lambda m, d: _filled_with(m, d[0, 1]),
])
def test_derivatives_match_central_differences(f):
    g = fg.grad(lambda x: _sum(ma, f(ma, x)))(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        expected = _central(lambda x: float(_sum(np.ma, f(np.ma, x))), X)
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-7)
    assert np.any(g != 0.0)


def _putv(m, d):
    a = m.masked_array(np.ones((2, 4)), mask=M.copy())
    m.put(a, [1, 2, 5], d[1, :3] * d[0, :3])
    return a


def _putmaskv(m, d):
    a = m.masked_array(d, mask=M.copy())
    m.putmask(a, X > 1.0, m.masked_array(3.0 * d, mask=~M.copy()))
    return a


def _partitioned(m, d):
    a = m.masked_array(d, mask=M.copy())
    a.partition(1)
    return a


def _filled_with(m, v):
    a = m.masked_array(np.zeros((2, 4)), mask=M.copy())
    a.fill(v)
    return a


def test_item_is_the_explicit_drop_and_ndenumerate_carries_derivatives():
    g = fg.grad(lambda x: sum(v for _, v in ma.ndenumerate(ma.masked_array(x, mask=M.copy()))))(X)
    np.testing.assert_array_equal(g, (~M).astype(float))
    assert fg.grad(lambda x: x * ma.masked_array(x[None]).item())(2.0) == 2.0


@pytest.mark.parametrize("call, match", [
    (lambda a: a.tobytes(), "bytes"), (lambda a: a.byteswap(), "bytes"),
    (lambda a: a.toflex(), "structured records"), (lambda a: a.ctypes, "memory"),
    (lambda a: a.flags, "memory"), (lambda a: a.ids(), "memory"),
    (lambda a: a.dumps(), "bytes"), (lambda a: a.view(np.int64), "bytes"),
    (lambda a: ma.flatten_structured_array(a), "structured"),
])
def test_byte_memory_and_record_helpers_refuse_traced_data(call, match):
    with pytest.raises(TypeError, match=f"traced.*{match}.*no derivative"):
        fg.grad(lambda x: fnp.sum(call(ma.masked_array(x, mask=M.copy())).data))(X)


@pytest.mark.filterwarnings("ignore:Warning. 'argpartition' will ignore")
def test_position_results_need_values_under_jit():
    with pytest.raises(ConcretizationError, match="argpartition"):
        fg.jit(lambda x: ma.masked_array(x).argpartition(1).data)(X[0])
    with pytest.raises(ConcretizationError, match="searchsorted"):
        fg.jit(lambda x: ma.masked_array(x).searchsorted(1.0))(X[0])
    # under grad the values are known: positions, no derivative lost
    fg.grad(lambda x: fnp.sum(x[ma.masked_array(x).argpartition(1).data]))(X[0])
