"""funcgrad.scipy.special's functions whose SciPy counterparts are ufuncs are ufuncs too:
SciPy's attributes (``nin``, ``nout``, ``nargs``, ``ntypes``, ``types``, ``identity``,
``signature``, ``__name__``), ``inspect.signature`` (inputs by position, then NumPy's
keywords), NumPy's keywords with NumPy's meaning (one ``out=``/``where=`` call each, values
against SciPy's same call), and the methods where NumPy allows them.  Derivatives through
``dtype=``, ``outer``, ``reduce`` and ``accumulate`` against central differences of SciPy's
own functions; ``out=``/``where=`` on traced values raise, as funcgrad.numpy's do."""
import inspect
import warnings

import numpy as np
import pytest

scipy_special = pytest.importorskip("scipy.special")

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
import funcgrad.scipy.special as fsp  # noqa: E402
from funcgrad.scipy._special_ufunc_table import UFUNCS  # noqa: E402

NAMES = sorted(n for n in dir(scipy_special)
               if isinstance(getattr(scipy_special, n), np.ufunc))
KEYWORDS = ["out", "where", "casting", "order", "dtype", "subok", "signature"]


def test_every_scipy_ufunc_has_a_front_and_a_table_entry():
    assert len(NAMES) > 200
    assert sorted(UFUNCS) == NAMES  # (the table is SciPy's list, no more, no less)


@pytest.mark.parametrize("name", NAMES)
def test_attributes_and_signature_are_scipys(name):
    ours, theirs = getattr(fsp, name), getattr(scipy_special, name)
    for attribute in ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature",
                      "__name__"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    parameters = list(inspect.signature(ours).parameters.values())
    assert [p.kind for p in parameters[:theirs.nin]] == [inspect.Parameter.POSITIONAL_ONLY] * \
        theirs.nin
    assert [p.name for p in parameters[theirs.nin:]] == KEYWORDS
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[theirs.nin:])
    for method in ("outer", "reduce", "accumulate", "reduceat", "at"):
        assert callable(getattr(ours, method))


# inputs in each function's domain where the generic ones (0.3, 0.7; 1, 2 for integer
# loops) are not
SPECIAL_INPUTS = {
    "lpmv": (1, np.array([0.3, 0.7]), np.array([0.3, 0.7])),
    "ncfdtridfd": (np.array([2.0, 3.0]), np.array([0.3, 0.7]), np.array([0.5, 1.5]),
                   np.array([1.0, 2.0])),
    "nctdtridf": (np.array([0.6, 0.8]), np.array([0.0, 0.5]), np.array([1.0, 1.5])),
}


def inputs(name):
    if name in SPECIAL_INPUTS:
        return SPECIAL_INPUTS[name]
    ufunc = getattr(scipy_special, name)
    return tuple(np.array([1, 2]) if {t[i] for t in ufunc.types} <= set("ilq")
                 else np.array([0.3, 0.7]) for i in range(ufunc.nin))


@pytest.mark.parametrize("name", NAMES)
def test_out_and_where_keep_outs_values_where_the_mask_is_false(name):
    theirs = getattr(scipy_special, name)
    args = inputs(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = theirs(*args)
        expected = expected if isinstance(expected, tuple) else (expected,)
        mask = np.array([True, False])
        outs = tuple(np.full(np.shape(e), -7, np.asarray(e).dtype) for e in expected)
        scipys_outs = tuple(o.copy() for o in outs)
        theirs(*args, out=scipys_outs, where=mask)
        out = outs if len(outs) > 1 else outs[0]
        returned = getattr(fsp, name)(*args, out=out, where=mask)
    # (the out= arrays themselves, as NumPy returns them)
    assert all(r is o for r, o in zip(returned, outs)) if len(outs) > 1 else returned is out
    for o, s in zip(outs, scipys_outs):
        assert o.dtype == s.dtype
        np.testing.assert_allclose(o, s, rtol=1e-5, atol=1e-300, equal_nan=True)
        assert o[1] == -7


def test_dtype_picks_scipys_loop():
    x = np.array([0.5, 1.5, 2.5])
    for dtype in (np.float32, np.float64):
        ours, theirs = fsp.gammaln(x, dtype=dtype), scipy_special.gammaln(x, dtype=dtype)
        assert ours.dtype == theirs.dtype == dtype
        np.testing.assert_allclose(ours, theirs, rtol=1e-6)
    ours = fsp.jv(1.5, x, dtype=np.complex128)  # (the dD->D loop)
    assert ours.dtype == np.complex128
    np.testing.assert_allclose(ours, scipy_special.jv(1.5, x, dtype=np.complex128),
                               rtol=1e-12)
    si, ci = fsp.sici(x.astype(np.float32))
    assert si.dtype == ci.dtype == np.float32
    with pytest.raises(TypeError):  # (no complex loop: NumPy's UFuncTypeError, as SciPy's)
        scipy_special.gammaln(x + 1j)
    with pytest.raises(TypeError):
        fsp.gammaln(x, dtype=np.complex128)
    with pytest.raises(TypeError):  # casting='no' refuses float64 -> float32
        fsp.gammaln(x, dtype=np.float32, casting="no")
    with pytest.raises(TypeError):  # same_kind refuses writing float into an int out=
        fsp.gammaln(x, out=np.zeros(3, np.int64))
    y = np.zeros(3, np.int64)
    fsp.gammaln(x, out=y, casting="unsafe")
    np.testing.assert_array_equal(y, scipy_special.gammaln(x).astype(np.int64))


def test_outputs_by_position_as_numpys():
    x = np.array([0.5, 2.0])
    y = np.zeros(2)
    assert fsp.gammaln(x, y) is y
    np.testing.assert_allclose(y, scipy_special.gammaln(x), rtol=1e-14)
    si, ci = np.zeros(2), np.zeros(2)
    assert all(r is o for r, o in zip(fsp.sici(x, si, ci), (si, ci)))
    np.testing.assert_allclose((si, ci), scipy_special.sici(x), rtol=1e-14)
    with pytest.raises(TypeError, match="both a positional and keyword"):
        fsp.gammaln(x, y, out=y)
    with pytest.raises(TypeError, match="positional arguments"):
        fsp.beta(x)


def central(f, x, h=1e-6):
    return (f(x + h) - f(x - h)) / (2 * h)


A = np.array([0.6, 1.3, 2.2])
B = np.array([1.7, 0.9])


def test_derivatives_through_dtype_match_scipys():
    # dtype=float64 on float32 inputs: computed in SciPy's float64 loop, derivative through
    # the cast
    x32 = A.astype(np.float32)
    for name in ("gammaln", "erf", "ndtr", "expit"):
        value, slope = fg.jvp(lambda t: getattr(fsp, name)(t, dtype=np.float64), (x32,),
                              (np.ones(3, np.float32),))
        assert value.dtype == np.float64
        expected = central(getattr(scipy_special, name), A)
        np.testing.assert_allclose(slope, expected, rtol=1e-6)
    grad = fg.grad(lambda a: fnp.sum(fsp.betainc(a, 2.0, 0.4, dtype=np.float64)))(A)
    expected = central(lambda a: scipy_special.betainc(a, 2.0, 0.4), A)
    np.testing.assert_allclose(grad, expected, rtol=1e-6)
    si_slope = fg.grad(lambda x: fnp.sum(fsp.sici(x, dtype=np.float64)[0]))(A)
    np.testing.assert_allclose(si_slope, central(lambda x: scipy_special.sici(x)[0], A),
                               rtol=1e-7)


def test_derivatives_through_outer_reduce_accumulate_match_scipys():
    ga, gb = fg.grad(lambda a, b: fnp.sum(fsp.beta.outer(a, b)), (0, 1))(A, B)
    np.testing.assert_allclose(fsp.beta.outer(A, B), scipy_special.beta.outer(A, B),
                               rtol=1e-13)
    np.testing.assert_allclose(
        ga, central(lambda a: scipy_special.beta.outer(a, B).sum(axis=1), A), rtol=1e-6)
    np.testing.assert_allclose(
        gb, central(lambda b: scipy_special.beta.outer(A, b).sum(axis=0), B), rtol=1e-6)
    np.testing.assert_allclose(fsp.xlogy.reduce(A), scipy_special.xlogy.reduce(A),
                               rtol=1e-13)
    g = fg.grad(lambda a: fsp.xlogy.reduce(a))(A)
    steps = np.eye(3) * 1e-6
    expected = [(scipy_special.xlogy.reduce(A + s) - scipy_special.xlogy.reduce(A - s)) / 2e-6
                for s in steps]
    np.testing.assert_allclose(g, expected, rtol=1e-6)
    np.testing.assert_allclose(fsp.agm.accumulate(A), scipy_special.agm.accumulate(A),
                               rtol=1e-13)
    g = fg.grad(lambda a: fnp.sum(fsp.agm.accumulate(a)))(A)
    expected = [(scipy_special.agm.accumulate(A + s).sum()
                 - scipy_special.agm.accumulate(A - s).sum()) / 2e-6 for s in steps]
    np.testing.assert_allclose(g, expected, rtol=1e-6)
    np.testing.assert_allclose(fsp.beta.reduceat(A, [0, 2]),
                               scipy_special.beta.reduceat(A, [0, 2]), rtol=1e-13)


def test_scipys_own_ufunc_methods_differentiate_on_traced_values():
    # (plain scipy.special code: beta.outer of a traced array reaches funcgrad's beta)
    g = fg.grad(lambda a: np.sum(scipy_special.beta.outer(a, B)))(A)
    np.testing.assert_allclose(
        g, central(lambda a: scipy_special.beta.outer(a, B).sum(axis=1), A), rtol=1e-6)


def test_scipys_own_ufuncs_with_keywords_on_traced_values():
    # (plain scipy.special code with NumPy's keywords: dtype= differentiates, out= raises
    # naming the call the user wrote)
    g = fg.grad(lambda a: np.sum(scipy_special.gammaln(a, dtype=np.float64)))(A)
    np.testing.assert_allclose(g, central(scipy_special.gammaln, A), rtol=1e-6)
    with pytest.raises(TypeError, match=r"y = scipy\.special\.gammaln\(\.\.\.\)"):
        fg.grad(lambda a: np.sum(scipy_special.gammaln(a, out=np.zeros(3))))(A)


def test_methods_only_where_numpy_allows_them():
    for method, args in (("outer", (A, A)), ("reduce", (A,)), ("accumulate", (A,))):
        with pytest.raises(ValueError):
            getattr(scipy_special.gammaln, method)(*args)
        with pytest.raises(ValueError):
            getattr(fsp.gammaln, method)(*args)
    assert float(fsp.agm.reduce(np.zeros(0))) == scipy_special.agm.reduce(np.zeros(0)) == 0.0
    with pytest.raises(ValueError, match="no identity"):
        fsp.beta.reduce(np.zeros(0))
    a, b = A.copy(), A.copy()
    scipy_special.gammaln.at(a, [0, 2])
    fsp.gammaln.at(b, [0, 2])
    np.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match="immutable"):
        fg.grad(lambda x: fnp.sum(fsp.gammaln.at(x, [0])))(A)


def test_out_and_where_on_traced_values_raise_naming_the_fix():
    with pytest.raises(TypeError, match=r"y = funcgrad\.scipy\.special\.gammaln\(\.\.\.\)"):
        fg.grad(lambda x: fnp.sum(fsp.gammaln(x, out=np.zeros(3))))(A)
    with pytest.raises(TypeError, match="fnp.where"):
        fg.grad(lambda x: fnp.sum(fsp.gammaln(x, out=np.zeros(3), where=A > 1)))(A)
    with pytest.raises(TypeError, match="uninitialised"):
        fsp.gammaln(A, where=A > 1)
    with pytest.raises(TypeError, match="plain NumPy arrays"):
        fsp.sici(A, out=(np.zeros(3), np.zeros(3).view(np.matrix)))


def test_without_scipy_out_alone_still_writes_and_the_loops_raise(monkeypatch):
    import funcgrad.scipy._special_ufunc as fronts
    monkeypatch.setattr(fronts, "scipy_ufunc", lambda name: None)  # (as if not installed)
    y = np.zeros(3)
    assert fsp.gammaln(A, out=y) is y
    np.testing.assert_allclose(y, scipy_special.gammaln(A), rtol=1e-14)
    si, ci = np.zeros(3), np.zeros(3)
    assert all(r is o for r, o in zip(fsp.sici(A, out=(si, ci)), (si, ci)))
    np.testing.assert_allclose((si, ci), scipy_special.sici(A), rtol=1e-14)
    with pytest.raises(ImportError, match="pip install scipy"):
        fsp.gammaln(A, dtype=np.float32)
