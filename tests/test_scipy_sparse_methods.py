"""The sparse arrays' methods against SciPy's: each method on each format and family
(values, result class and format, dtype), derivatives against central differences of
SciPy's own methods, the tie conventions of max/min, the in-place methods under grad,
and the errors where funcgrad cannot follow SciPy (1-d and n-d sparse results)."""
import warnings

import numpy as np
import pytest
import scipy.linalg as sla
import scipy.sparse as ss
import scipy.sparse.linalg as ssl

import funcgrad as fg
import funcgrad.scipy.linalg as fla
import funcgrad.scipy.sparse as fs

pytestmark = pytest.mark.filterwarnings("ignore::scipy.sparse.SparseEfficiencyWarning")

FORMATS = ["coo", "csr", "csc", "dia", "bsr", "dok", "lil"]
DENSE = np.array([[0.0, 2.0, -1.0, 0.0], [3.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 5.0]])
EXTREMA = ("coo", "csr", "csc", "bsr")  # (SciPy's formats with max/min/argmax)


def _pair(fmt, family, dense=DENSE):
    return getattr(ss, f"{fmt}_{family}")(dense), getattr(fs, f"{fmt}_{family}")(dense)


def _same(ours, theirs):
    if ss.issparse(theirs):
        assert type(ours).__name__ == type(theirs).__name__
        assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
        np.testing.assert_allclose(ours.toarray(), theirs.toarray())
    elif isinstance(theirs, str):
        assert ours == theirs
    elif isinstance(theirs, tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            _same(a, b)
    else:
        theirs = np.asarray(theirs)  # (np.matrix -> funcgrad's 2-d ndarray)
        ours = np.asarray(ours)
        assert ours.shape == theirs.shape, (ours, theirs)
        if theirs.dtype.kind in "iu":  # (index widths: SciPy's vary with the route)
            assert ours.dtype.kind in "iu"
        else:
            assert ours.dtype == theirs.dtype, (ours, theirs)
        np.testing.assert_allclose(ours, theirs)


# each: (name, call, formats it applies to or None for all)
CALLS = [
    ("reshape", lambda A: A.reshape((2, 6)), None),
    ("reshape F", lambda A: A.reshape(6, 2, order="F"), None),
    ("real", lambda A: A.real, None),
    ("imag", lambda A: A.imag, None),
    ("conj", lambda A: A.conj(), None),
    ("maximum sparse", lambda A: A.maximum(type(A)(-DENSE)), None),
    ("maximum dense", lambda A: A.maximum(0.5 * DENSE), None),
    ("maximum -0.5", lambda A: A.maximum(-0.5), None),
    ("minimum 0.5", lambda A: A.minimum(0.5), None),
    ("minimum -0.5", lambda A: A.minimum(-0.5), None),
    ("maximum 0.5", lambda A: A.maximum(0.5), None),
    ("count_nonzero", lambda A: A.count_nonzero(), None),
    ("count_nonzero axis", lambda A: A.count_nonzero(axis=0), ("coo", "csr", "csc", "lil")),
    ("nonzero", lambda A: A.nonzero(), None),
    ("mean", lambda A: A.mean(), None),
    ("mean 0", lambda A: A.mean(axis=0), None),
    ("mean 1", lambda A: A.mean(axis=1), None),
    ("trace", lambda A: A.trace(1), None),
    ("size", lambda A: A.size, None),
    ("diagonal", lambda A: A.diagonal(-1), None),
    ("power", lambda A: A.power(2), None),
    ("multiply dense", lambda A: A.multiply(DENSE + 1), None),
    ("multiply sparse", lambda A: A.multiply(type(A)(DENSE)), None),
    ("multiply scalar", lambda A: A.multiply(2.0), None),
    ("astype", lambda A: A.astype(np.float32), None),
    ("dot", lambda A: A.dot(np.arange(4.0)), None),
    ("todia", lambda A: A.todia(), None),
    ("todok", lambda A: A.todok(), None),
    ("tolil", lambda A: A.tolil(), None),
    ("tobsr", lambda A: A.tobsr((1, 2)), None),
    ("max", lambda A: A.max(), EXTREMA),
    ("min explicit", lambda A: A.min(explicit=True), EXTREMA),
    ("max explicit", lambda A: A.max(explicit=True), EXTREMA),
    ("nanmin", lambda A: A.nanmin(), EXTREMA),
    ("argmax", lambda A: A.argmax(), EXTREMA),
    ("argmin", lambda A: A.argmin(), EXTREMA),
    ("argmax 0", lambda A: A.argmax(axis=0), EXTREMA),
    ("argmin 1 explicit", lambda A: A.argmin(axis=1, explicit=True), EXTREMA),
]


def _in_place(method):
    def call(A):
        B = A.copy()
        method(B)
        return B
    return call


IN_PLACE = [
    ("resize", _in_place(lambda A: A.resize((2, 5))), None),
    ("resize grow", _in_place(lambda A: A.resize(4, 5)), None),
    ("setdiag", _in_place(lambda A: A.setdiag(7.0)), ("coo", "csr", "csc", "dia", "dok",
                                                     "lil")),
    ("setdiag k", _in_place(lambda A: A.setdiag([7.0, 0.0], k=1)), ("coo", "csr", "csc",
                                                                    "dia", "dok", "lil")),
]

MATRIX_CALLS = [
    ("getrow", lambda A: A.getrow(-1), None),
    ("getcol", lambda A: A.getcol(1), None),
    ("getH", lambda A: A.getH(), None),
    ("get_shape", lambda A: A.get_shape(), None),
    ("getformat", lambda A: A.getformat(), None),
    ("getmaxprint", lambda A: A.getmaxprint(), None),
    ("getnnz", lambda A: A.getnnz(), None),
    ("getnnz 0", lambda A: A.getnnz(axis=0), ("coo", "csr", "csc", "lil")),
    ("set_shape", _in_place(lambda A: A.set_shape((4, 3))), None),
    ("shape=", _in_place(lambda A: setattr(A, "shape", (6, 2))), None),
    ("max 0", lambda A: A.max(axis=0), EXTREMA),
    ("nanmax 1", lambda A: A.nanmax(axis=1), EXTREMA),
    ("min 1 explicit", lambda A: A.min(axis=1, explicit=True), EXTREMA),
]


def _applying(calls, fmt):
    return [(name, call) for name, call, fmts in calls if fmts is None or fmt in fmts]


@pytest.mark.parametrize("family", ["array", "matrix"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_methods_match_scipy(fmt, family):
    calls = _applying(CALLS + IN_PLACE + (MATRIX_CALLS if family == "matrix" else []), fmt)
    for name, call in calls:
        theirs, ours = _pair(fmt, family)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = call(theirs)
        try:
            _same(call(ours), expected)
        except AssertionError as e:
            raise AssertionError(f"{fmt}_{family}.{name}: {e}") from None


def test_every_scipy_method_is_there():
    for fmt in FORMATS:
        for family in ("array", "matrix"):
            name = f"{fmt}_{family}"
            missing = {n for n in dir(getattr(ss, name)) if n[0] != "_"} - \
                {n for n in dir(getattr(fs, name)) if n[0] != "_"}
            assert not missing, (name, missing)
    assert not {n for n in dir(ss.spmatrix) if n[0] != "_"} - set(dir(fs.spmatrix))


def test_complex_real_imag_conj():
    dense = DENSE * (1 + 2j)
    for fmt in FORMATS:
        theirs, ours = _pair(fmt, "array", dense)
        _same(ours.real, theirs.real)
        _same(ours.imag, theirs.imag)
        _same(ours.conj(), theirs.conj())


def test_tensordot_matches_scipy():
    rng = np.random.default_rng(0)
    theirs, ours = ss.coo_array(DENSE), fs.coo_array(DENSE)
    for other, axes in [(rng.normal(size=(4, 2)), 1), (rng.normal(size=(3, 4)), 2),
                        (rng.normal(size=4), 1), (rng.normal(size=(2, 3)), ([0], [1])),
                        (rng.normal(size=(2, 4, 3)), ([0, 1], [2, 1]))]:
        np.testing.assert_allclose(ours.tensordot(other, axes), theirs.tensordot(other, axes))
    other = rng.normal(size=(4, 2))
    _same(ours.tensordot(fs.coo_array(other), 1), theirs.tensordot(ss.coo_array(other), 1))
    with pytest.raises(AttributeError, match="tocoo"):
        fs.csr_array(DENSE).tensordot(other)


def test_dok_dictionary_methods():
    theirs, ours = _pair("dok", "array")
    assert ours.pop((0, 1)) == theirs.pop((0, 1))
    assert ours.pop((0, 0), -1.0) == -1.0
    with pytest.raises(KeyError):
        ours.pop((0, 0))
    assert ours.popitem()[0] == tuple(int(i) for i in theirs.popitem()[0])
    assert ours.setdefault((1, 1), 4.0) == theirs.setdefault((1, 1), 4.0)
    ours.update({(2, 2): 6.0})
    assert ours[2, 2] == 6.0
    with pytest.raises(IndexError):
        ours.update({(5, 0): 1.0})
    np.testing.assert_allclose(ours.toarray(), theirs.toarray() + np.diag([0, 0, 6.0, 0])[:3])
    with pytest.raises(TypeError, match="default"):
        ours.setdefault((0, 3))
    made, expected = fs.dok_array.fromkeys([(0, 1), (2, 3)], 2.5), \
        ss.dok_array.fromkeys([(0, 1), (2, 3)], 2.5)
    assert made.shape == expected.shape and made.dtype == expected.dtype
    np.testing.assert_allclose(made.toarray(), expected.toarray())
    assert fs.dok_array.fromkeys([(1, 1)]).dtype == ss.dok_array.fromkeys([(1, 1)]).dtype
    ours.clear()
    assert ours.nnz == 0 and ours.shape == (3, 4)


def test_lil_getrowview_shares_the_row():
    theirs, ours = _pair("lil", "array")
    for A in (theirs, ours):
        view = A.getrowview(1)
        view[0, 2] = 4.0
    np.testing.assert_allclose(ours.toarray(), theirs.toarray())
    assert type(fs.lil_matrix(DENSE).getrow(0)).__name__ == "csr_matrix"


def test_bsr_tidying_and_checks():
    data = np.arange(1.0, 4.0).reshape(3, 1, 1)
    args = ((data, [2, 0, 2], [0, 3]), )
    theirs, ours = ss.bsr_array(*args, shape=(1, 3)), fs.bsr_array(*args, shape=(1, 3))
    assert ours.has_sorted_indices == theirs.has_sorted_indices
    assert ours.has_canonical_format == theirs.has_canonical_format
    _same(ours.sorted_indices(), theirs.sorted_indices())
    ours.sum_duplicates()
    theirs.sum_duplicates()
    np.testing.assert_array_equal(ours.indices, theirs.indices)
    np.testing.assert_allclose(ours.data, theirs.data)
    assert ours.has_canonical_format
    zeros = fs.bsr_array((np.array([[[0.0]], [[2.0]]]), [0, 1], [0, 2]))
    zeros.eliminate_zeros()
    assert zeros.nnz == 1
    for A in (ours, fs.csr_array(DENSE), fs.csc_array(DENSE)):
        assert A.prune() is None and A.check_format() is None
    with pytest.raises(AttributeError):
        fs.coo_array(DENSE).prune()
    with pytest.raises(TypeError, match="derivatives"):
        fg.grad(lambda A: (A.eliminate_zeros(), A.sum())[1])(fs.bsr_array(DENSE))


def test_asfptype_follows_scipy():
    for dtype in (np.int8, np.int32, np.float32, np.complex64, bool):
        dense = DENSE.astype(dtype)
        assert fs.csr_matrix(dense).asfptype().dtype == ss.csr_matrix(dense).asfptype().dtype


def test_one_dimensional_results_raise():
    A = fs.csr_array(DENSE)
    with pytest.raises(NotImplementedError, match="1-d sparse array"):
        A.max(axis=0)
    with pytest.raises(NotImplementedError, match="2-d"):
        A.reshape((12,))
    with pytest.raises(ValueError, match="length in"):
        fs.csr_matrix(DENSE).reshape((12,))
    with pytest.raises(NotImplementedError, match="2-d"):
        fs.expand_dims(A)
    with pytest.raises(ValueError, match="zero-size"):
        fs.csr_array((0, 3)).max()


def test_expand_dims_of_a_scipy_vector():
    v = ss.coo_array(np.array([1.0, 0.0, 2.0]))
    for axis in (0, 1, -1, -2):
        _same(fs.expand_dims(v, axis=axis), ss.expand_dims(v, axis=axis))


# --- derivatives: central differences of SciPy's own methods --------------------------------

def _check_gradient(fmt, family, ours_fn, theirs_fn, dense=DENSE, eps=1e-6):
    """grad of ``ours_fn(A)`` in A.data equals central differences of ``theirs_fn`` of
    SciPy's array with the same stored values (both built from ``dense``)."""
    ours = getattr(fs, f"{fmt}_{family}")(dense)
    theirs = getattr(ss, f"{fmt}_{family}")(dense)
    base = np.array(theirs.data, float)
    assert np.allclose(np.asarray(ours.data).ravel(), base.ravel())
    grad = np.asarray(fg.grad(ours_fn)(ours).data).ravel()
    for p in range(base.size):
        step = np.zeros(base.size)
        step[p] = eps
        values = []
        for sign in (1, -1):
            theirs.data = (base.ravel() + sign * step).reshape(base.shape)
            values.append(float(theirs_fn(theirs)))
        theirs.data = base
        assert abs(grad[p] - (values[0] - values[1]) / (2 * eps)) < 1e-6, (p, grad)


def _dense(x):
    return np.asarray(x.toarray() if hasattr(x, "toarray") else x)


WEIGHTS = np.random.default_rng(3).normal(size=(3, 4))


@pytest.mark.parametrize("fmt", EXTREMA)
def test_max_min_derivatives(fmt):
    _check_gradient(fmt, "array", lambda A: A.max(), lambda A: A.max())
    _check_gradient(fmt, "array", lambda A: A.min(explicit=True), lambda A: A.min(
        explicit=True))
    _check_gradient(fmt, "matrix", lambda A: (A.max(axis=0).toarray() * WEIGHTS[:1]).sum(),
                    lambda A: (A.max(axis=0).toarray() * WEIGHTS[:1]).sum())


def test_max_ties_and_implicit_zeros():
    # a stored zero tied with implicit zeros: half, as a central difference of SciPy's
    grad = fg.grad(lambda A: A.max())(fs.coo_array((np.array([0.0, -1.0]), (np.array(
        [0, 1]), np.array([0, 1]))), shape=(2, 2)))
    np.testing.assert_allclose(grad.data, [0.5, 0.0])
    # two stored values tied: they share it
    grad = fg.grad(lambda A: A.max())(fs.csr_array(np.array([[2.0, 2.0], [1.0, 0.0]])))
    np.testing.assert_allclose(grad.data, [0.5, 0.5, 0.0])
    # the maximum is an implicit zero: no derivative reaches a stored value
    grad = fg.grad(lambda A: A.max())(fs.csr_array(np.array([[-2.0, 0.0], [-1.0, 0.0]])))
    np.testing.assert_allclose(grad.data, [0.0, 0.0])
    # nanmax skips NaN entries: no derivative there
    grad = fg.grad(lambda A: A.nanmax())(fs.csr_array(np.array([[np.nan, 3.0]])))
    np.testing.assert_allclose(grad.data, [0.0, 1.0])


def _weighted(A):
    """A fixed linear functional of the dense array (funcgrad's or SciPy's)."""
    shape = A.shape
    return (A.toarray() * np.cos(np.arange(shape[0] * shape[1])).reshape(shape)).sum()


def _resized(A):
    A = A.copy()
    A.resize((2, 3))
    return _weighted(A)


def _diag_set(A):
    A = A.copy()
    A.setdiag(A.diagonal(1)[:2] * 3.0)
    return _weighted(A)


@pytest.mark.parametrize("fmt", ["csr", "coo", "dia", "bsr"])
def test_structure_changes_keep_derivatives(fmt):
    for fn in (_resized, _diag_set, lambda A: _weighted(A.reshape((2, 6))),
               lambda A: A.mean() + A.trace(1), lambda A: _weighted(A.conj().getH())):
        # (SciPy's BSR setdiag fails, an AttributeError: its CSR form's instead)
        theirs = (lambda A: _diag_set(A.tocsr())) if fn is _diag_set and fmt == "bsr" else fn
        _check_gradient(fmt, "matrix", fn, theirs)
    _check_gradient(fmt, "array", lambda A: _weighted(A.maximum(0.5 * fs.csr_array(DENSE))),
                    lambda A: _weighted(A.maximum(0.5 * ss.csr_array(DENSE))))
    _check_gradient(fmt, "array", lambda A: _weighted(A.minimum(-0.5)),
                    lambda A: _weighted(A.minimum(-0.5)))


@pytest.mark.parametrize("fmt", ["dok", "lil"])
def test_builders_keep_derivatives(fmt):
    # DOK and LIL hold their values entry by entry: their gradient, as CSR, equals CSR's
    for fn in (_resized, _diag_set, lambda A: _weighted(A.reshape((2, 6))),
               lambda A: A.mean() + A.trace(1) + _weighted(A.power(2))):
        grad = fg.grad(fn)(getattr(fs, f"{fmt}_array")(DENSE)).tocsr()
        expected = fg.grad(fn)(fs.csr_array(DENSE))
        np.testing.assert_allclose(grad.toarray(), expected.toarray())


def test_setdiag_values_differentiate():
    def f(v):
        A = fs.csr_array(DENSE)
        A.setdiag(v, k=1)
        return (A.toarray() * WEIGHTS).sum()
    v = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(fg.grad(f)(v), [WEIGHTS[0, 1], WEIGHTS[1, 2], WEIGHTS[2, 3]])


def test_tensordot_derivative():
    other = np.random.default_rng(1).normal(size=(4, 2))
    _check_gradient("coo", "array", lambda A: (A.tensordot(other, 1) * WEIGHTS[:, :2]).sum(),
                    lambda A: (A.tensordot(other, 1) * WEIGHTS[:, :2]).sum())


def test_funm_multiply_krylov_values_and_derivatives():
    rng = np.random.default_rng(2)
    n = 5
    dense = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.4) + np.eye(n)
    b, u = rng.normal(size=n), rng.normal(size=n)
    for m in (None, 2):
        expected = ssl.funm_multiply_krylov(sla.expm, ss.csr_array(dense), b, t=0.3,
                                            restart_every_m=m)
        got = fs.linalg.funm_multiply_krylov(fla.expm, fs.csr_array(dense), b, t=0.3,
                                             restart_every_m=m)
        np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
    _check_gradient("csr", "array", lambda A: fs.linalg.funm_multiply_krylov(
        fla.expm, A, b, t=0.3) @ u, lambda A: ssl.funm_multiply_krylov(sla.expm, A, b, t=0.3)
        @ u, dense=dense)
    gb = fg.grad(lambda b: fs.linalg.funm_multiply_krylov(fla.expm, fs.csr_array(dense), b,
                                                          t=0.3) @ u)(b)
    np.testing.assert_allclose(gb, sla.expm(0.3 * dense).T @ u, rtol=1e-8)
    herm = dense + dense.T
    np.testing.assert_allclose(
        fs.linalg.funm_multiply_krylov(fla.expm, herm, b, assume_a="her", t=0.1),
        ssl.funm_multiply_krylov(sla.expm, herm, b, assume_a="her", t=0.1), rtol=1e-10)
    # an invariant Krylov space (b an eigenvector): the exact value, a refused derivative
    np.testing.assert_allclose(fs.linalg.funm_multiply_krylov(fla.expm, np.eye(3),
                                                              np.array([1.0, 0, 0])),
                               [np.e, 0, 0])
    with pytest.raises(NotImplementedError, match="invariant"):
        fg.grad(lambda a: fs.linalg.funm_multiply_krylov(fla.expm, a, np.array(
            [1.0, 0, 0]))[0])(np.eye(3))
