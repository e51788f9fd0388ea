"""Issue 28's first tranche of NumPy functions (statistics, nan*, signal and calculus,
polynomials, building and rearranging, floating point, traced bounds for constructors),
each against NumPy itself:

* forward values, shapes and dtypes equal NumPy's (NaN and empty inputs included);
* the gradient of ``sum(w * f(x))`` equals central differences of *NumPy's* function,
  both through ``funcgrad.numpy`` and through the plain ``np.X`` call on traced values;
* ``vmap`` over ``x`` equals stacking NumPy's results;
* float32 in gives NumPy's float32-input dtype out, and float32 gradients.

Each case is ``(id, name, x, build)``: ``build(x)`` makes the call's arguments, ``x`` the
differentiated input.  Inputs are fixed and away from kinks (ties, bin edges, sample points).
"""
import itertools
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad import ConcretizationError

from helpers import assert_close, check_value

R = np.random.default_rng(28)
X = R.uniform(0.2, 1.0, (3, 5))
X2 = R.uniform(0.2, 1.0, (3, 5))
V = R.uniform(0.2, 1.0, 6)
V3 = R.uniform(0.2, 1.0, 3)
W5 = R.uniform(0.5, 2.0, 5)
W3 = R.uniform(0.5, 2.0, 3)
XN = X.copy()
XN[0, 1] = XN[2, 3] = np.nan
XP, FP = np.array([0.0, 0.4, 1.1, 1.5]), np.array([1.0, -0.5, 2.0, 0.3])
XQ = np.array([-0.3, 0.13, 0.71, 1.27, 1.9])
PH = np.cumsum(R.uniform(0.5, 3.0, 8))
P4, Q2 = np.array([1.5, -2.0, 0.5, 3.0]), np.array([2.0, 0.7])
IDX = np.array([0, 3, 3, 1, 5, 0])
SCALAR = np.array(2.0)
MASK5 = np.array([True, False, True, True, False])


def case(id_, name, x, build, np_route=True, vmap=True, rtol=1e-10):
    return pytest.param(name, x, build, np_route, vmap, rtol, id=id_)


CASES = [
    # statistics
    case("average", "average", X, lambda x: ((x,), dict(axis=1, weights=W5))),
    case("average-weights-returned", "average", W3,
         lambda w: ((X,), dict(axis=0, weights=w, returned=True))),
    case("median-axis", "median", X, lambda x: ((x,), dict(axis=1))),
    case("median-even", "median", V, lambda x: ((x,), {})),
    case("quantile", "quantile", X, lambda x: ((x, 0.3), dict(axis=0))),
    case("quantile-q", "quantile", np.array([0.37, 0.81]), lambda q: ((V, q), {})),
    *[case(f"quantile-{m}", "quantile", V, lambda x, m=m: ((x, [0.1, 0.55, 0.95]),
                                                           dict(method=m)))
      for m in ("lower", "higher", "nearest", "midpoint", "hazen", "weibull", "inverted_cdf",
                "averaged_inverted_cdf", "closest_observation")],
    case("quantile-weights", "quantile", X, lambda x: ((x, [0.2, 0.5, 0.9]), dict(
        axis=1, weights=W5, method="inverted_cdf"))),
    case("percentile-weights-2d", "percentile", X, lambda x: ((x, 35.0), dict(
        axis=0, weights=X2, method="inverted_cdf", keepdims=True))),
    case("percentile", "percentile", X, lambda x: ((x, [20, 80]), dict(axis=1, keepdims=True))),
    case("ptp", "ptp", X, lambda x: ((x,), dict(axis=0))),
    case("cov", "cov", X, lambda x: ((x,), {})),
    case("cov-y-aweights", "cov", V, lambda x: ((x, V[::-1]), dict(aweights=V3.repeat(2)))),
    case("cov-aweights", "cov", W5, lambda w: ((X,), dict(aweights=w, ddof=1))),
    case("corrcoef", "corrcoef", X, lambda x: ((x,), {})),
    case("bincount-weights", "bincount", V, lambda w: ((IDX,), dict(weights=w, minlength=8))),
    case("count_nonzero", "count_nonzero", X, lambda x: ((np.floor(x * 2.0),), dict(axis=0))),
    case("histogram-weights", "histogram", X2, lambda w: ((X,), dict(bins=4, weights=w))),
    case("histogram-density", "histogram", X, lambda x: ((x,), dict(bins=4, density=True))),
    case("histogram_bin_edges", "histogram_bin_edges", X, lambda x: ((x,), dict(bins=5))),
    # nan*
    *[case(name, name, XN, lambda x, name=name: ((x,), dict(axis=1)))
      for name in ("nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin",
                   "nanargmax", "nanargmin", "nancumsum", "nancumprod", "nanmedian")],
    case("nanquantile", "nanquantile", XN, lambda x: ((x, [0.25, 0.6]), dict(axis=1))),
    case("nanpercentile", "nanpercentile", XN, lambda x: ((x, 40), {})),
    case("nanquantile-weights", "nanquantile", XN, lambda x: ((x, [0.3, 0.7]), dict(
        axis=1, weights=X2, method="inverted_cdf"))),  # (NumPy's nan* take a's shape only)
    case("nanquantile-closest", "nanquantile", XN, lambda x: ((x, [0.3, 0.7]), dict(
        axis=1, method="closest_observation"))),
    case("nanvar-ddof", "nanvar", XN, lambda x: ((x,), dict(axis=0, ddof=1))),
    # NumPy's where= and initial= (a mask of constants, one computed from x, broadcast ones)
    case("sum-where-initial", "sum", X, lambda x: ((x,), dict(axis=1, where=MASK5, initial=0.5))),
    case("prod-where-initial", "prod", X, lambda x: ((x,), dict(axis=0, where=X2 > 0.5,
                                                                initial=1.5))),
    case("mean-where", "mean", X, lambda x: ((x,), dict(axis=1, where=MASK5, keepdims=True))),
    case("mean-where-of-x", "mean", X, lambda x: ((x,), dict(where=x > 0.5))),
    case("var-where-ddof", "var", X, lambda x: ((x,), dict(axis=1, where=MASK5, ddof=1))),
    case("std-where", "std", X, lambda x: ((x,), dict(axis=0, where=X2 > 0.4))),
    case("max-where-initial", "max", X, lambda x: ((x,), dict(axis=1, where=MASK5, initial=0.9))),
    case("min-initial", "min", X, lambda x: ((x,), dict(axis=0, initial=0.3))),
    case("amax-where-of-x", "amax", X, lambda x: ((x,), dict(where=x < 0.7, initial=0.0))),
    case("amin-where", "amin", X, lambda x: ((x,), dict(axis=1, where=MASK5, initial=2.0))),
    case("nansum-where-initial", "nansum", XN,
         lambda x: ((x,), dict(axis=1, where=MASK5, initial=0.25))),
    case("nanprod-where", "nanprod", XN, lambda x: ((x,), dict(axis=0, where=X2 > 0.5))),
    case("nanmean-where", "nanmean", XN, lambda x: ((x,), dict(axis=1, where=MASK5))),
    case("nanvar-where-ddof", "nanvar", XN, lambda x: ((x,), dict(axis=1, where=MASK5, ddof=1))),
    case("nanstd-where", "nanstd", XN, lambda x: ((x,), dict(axis=0, where=X2 > 0.4))),
    case("nanmax-where-initial", "nanmax", XN,
         lambda x: ((x,), dict(axis=1, where=MASK5, initial=0.3))),
    case("nanmin-initial", "nanmin", XN, lambda x: ((x,), dict(axis=0, initial=0.5))),
    # signal and calculus
    *[case(f"convolve-{mode}-{i}", "convolve", (V, V3)[i],
           lambda x, mode=mode, i=i: (((x, V3) if i == 0 else (V, x)), dict(mode=mode)))
      for mode in ("full", "same", "valid") for i in (0, 1)],
    *[case(f"correlate-{mode}", "correlate", V3, lambda x, mode=mode: ((V, x), dict(mode=mode)))
      for mode in ("full", "same", "valid")],
    case("correlate-short-first", "correlate", V3, lambda x: ((x, V), dict(mode="same"))),
    *[case(f"interp-{i}", "interp", (XQ, XP, FP)[i],
           lambda x, i=i: (tuple(x if j == i else a for j, a in enumerate((XQ, XP, FP))), {}))
      for i in range(3)],
    case("interp-left-right", "interp", XQ, lambda x: ((x, XP, FP), dict(left=-1.0, right=4.0))),
    case("interp-period", "interp", XQ, lambda x: ((x, XP, FP), dict(period=1.7))),
    case("gradient", "gradient", X, lambda x: ((x,), {})),
    case("gradient-coords", "gradient", V,
         lambda c: ((np.sin(3 * np.cumsum(V)), np.cumsum(c)), dict(edge_order=2))),
    case("gradient-values-spacing", "gradient", X, lambda x: ((x, 0.5, np.cumsum(W5)), {})),
    case("trapezoid", "trapezoid", X, lambda x: ((x,), dict(dx=0.3))),
    case("trapezoid-x", "trapezoid", W5, lambda x: ((X, np.cumsum(x)), {})),
    case("ediff1d", "ediff1d", X, lambda x: ((x,), dict(to_begin=-1.0, to_end=[2.0, 3.0]))),
    case("cumulative_sum", "cumulative_sum", X,
         lambda x: ((x,), dict(axis=1, include_initial=True))),
    case("cumulative_prod", "cumulative_prod", X, lambda x: ((x,), dict(axis=0))),
    case("unwrap", "unwrap", PH, lambda x: ((x,), {})),
    # polynomials
    case("polyder", "polyder", P4, lambda p: ((p, 2), {})),
    case("polyint", "polyint", P4, lambda p: ((p, 2, [1.0, -2.0]), {})),
    case("polyadd", "polyadd", Q2, lambda q: ((P4, q), {})),
    case("polysub", "polysub", P4, lambda p: ((Q2, p), {})),
    case("polymul", "polymul", P4, lambda p: ((p, Q2), {}), vmap=False),
    case("vander", "vander", V, lambda x: ((x, 4), {})),
    case("polyfit-y", "polyfit", V, lambda y: ((np.arange(6.0), y, 2), {}), rtol=1e-8),
    case("polyfit-x", "polyfit", V, lambda x: ((x, np.sin(np.arange(6.0)), 1), {}), rtol=1e-8),
    # building and rearranging
    case("append", "append", X2, lambda x: ((X, x), dict(axis=0))),
    case("insert-many", "insert", X, lambda x: ((x, [1, 3], X2[:, :2]), dict(axis=1))),
    case("insert-values", "insert", V3, lambda v: ((X, 2, v), dict(axis=1))),
    case("delete", "delete", X, lambda x: ((x, [0, 2]), dict(axis=1))),
    case("block", "block", X, lambda x: (([[x, X2[:, :2]], [X2[:1], x[:1, :2]]],), {})),
    case("kron", "kron", X, lambda x: ((x, np.array([[1.0, 2.0], [-1.0, 0.5]])), {})),
    case("kron-1d", "kron", V3, lambda x: ((x, V), {})),
    case("rot90", "rot90", X, lambda x: ((x, 3), {})),
    case("rollaxis", "rollaxis", X.reshape(3, 5, 1), lambda x: ((x, 2, 0), {})),
    case("resize", "resize", X, lambda x: ((x, (4, 4)), {})),
    case("select", "select", X, lambda x: (([x < 0.5, x > 0.8], [x ** 2, -x], 0.1), {})),
    case("piecewise", "piecewise", V,
         lambda x: ((x, [x < 0.5, x >= 0.5], [lambda t: t ** 2, lambda t: 1.0 - t]), {})),
    case("choose", "choose", X, lambda x: ((np.array([0, 1, 1, 0, 1]), [x, 2.0 * X2]), {})),
    case("compress", "compress", X, lambda x: (([True, False, True], x, 0), {})),
    case("extract", "extract", X, lambda x: ((X2 > 0.5, x), {})),
    case("diagflat", "diagflat", V3, lambda x: ((x, 1), {})),
    case("matvec", "matvec", X, lambda x: ((x, W5), {})),
    case("vecmat", "vecmat", X, lambda x: ((W3, x), {})),
    case("vecdot", "vecdot", X, lambda x: ((x, X2), {})),
    # floating point
    case("copysign", "copysign", X, lambda x: ((x, X2 - 0.6), {})),
    case("fmod", "fmod", X, lambda x: ((3.0 * x - 1.5, 0.7), {})),
    case("fmod-x2", "fmod", X2, lambda y: ((3.0 * X - 1.5, y), {})),
    case("divmod", "divmod", X, lambda x: ((4.0 * x - 2.0, 0.3), {})),
    case("modf", "modf", X, lambda x: ((5.0 * x - 2.5,), {})),
    case("frexp", "frexp", X, lambda x: ((20.0 * x - 10.0,), {})),
    case("ldexp", "ldexp", X, lambda x: ((x, np.arange(-7, 8).reshape(3, 5)), {})),
    case("nextafter", "nextafter", X, lambda x: ((x, X2), {})),
    case("spacing", "spacing", X, lambda x: ((x - 0.6,), {})),
    case("signbit", "signbit", X, lambda x: ((x - 0.6,), {})),
    case("nan_to_num", "nan_to_num", XN,
         lambda x: ((np.where(X2 > 0.8, np.inf, np.where(X2 < 0.3, -np.inf, x)),),
                    dict(posinf=9.0, neginf=-9.0))),
    case("isposinf", "isposinf", X, lambda x: ((x * np.array([1, np.inf, 1, 1, 1]),), {})),
    case("isneginf", "isneginf", X, lambda x: ((-x * np.array([1, np.inf, 1, 1, 1]),), {})),
    # constructors with traced values
    case("linspace", "linspace", SCALAR, lambda b: ((0.5, b, 5), {})),
    case("linspace-arrays", "linspace", V3, lambda b: ((W3, b, 4), dict(axis=1))),
    case("logspace", "logspace", SCALAR, lambda b: ((b, 0.5, 4), {})),
    case("geomspace", "geomspace", SCALAR, lambda b: ((b, 9.0, 4), {})),
    case("full", "full", SCALAR, lambda g: (((2, 3), g), {}), np_route=False),
    case("full_like", "full_like", SCALAR, lambda g: ((X, g), {}), np_route=False),
    case("arange", "arange", SCALAR, lambda s: ((s + 0.1, 4.0, 0.5), {}), np_route=False,
         vmap=False),
]


def _float_leaves(out):
    return [np.asarray(o) for o in fg.tree.leaves(out) if np.asarray(o).dtype.kind == "f"]


def _call(module, name, build, x):
    args, kwargs = build(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(module, name)(*args, **kwargs)


@pytest.mark.parametrize("name, x, build, np_route, vmap, rtol", CASES)
def test_forward_values_equal_numpy(name, x, build, np_route, vmap, rtol):
    check_value(lambda v: _call(fnp, name, build, v), lambda v: _call(np, name, build, v), [x],
                rtol=rtol)


@pytest.mark.parametrize("name, x, build, np_route, vmap, rtol", CASES)
def test_gradient_equals_central_differences_of_numpy(name, x, build, np_route, vmap, rtol):
    reference = _float_leaves(_call(np, name, build, x))
    if not reference:  # integer or boolean results: piecewise constant, derivative zero
        def through_integers(v):
            leaves = fg.tree.leaves(_call(fnp, name, build, v))
            return sum(fnp.sum(fnp.astype(o, np.float64)) for o in leaves) + 0.0 * fnp.sum(v)
        np.testing.assert_array_equal(fg.grad(through_integers)(x), np.zeros(x.shape))
        return
    weights = [R.standard_normal(o.shape) for o in reference]

    def scalar_numpy(v):
        return sum(np.sum(np.nan_to_num(o) * w) for o, w in
                   zip(_float_leaves(_call(np, name, build, v)), weights))

    fd = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        step = np.zeros(x.shape)
        step[i] = 1e-6
        fd[i] = (scalar_numpy(x + step) - scalar_numpy(x - step)) / 2e-6
    routes = [fnp] + ([np] if np_route else [])
    for module in routes:
        def scalar(v):
            total = 0.0
            for o, w in zip(fg.tree.leaves(_call(module, name, build, v)), weights * 2):
                if o.dtype.kind == "f":
                    total = total + fnp.sum(fnp.where(fnp.isnan(o), 0.0, o) * w)
            return total
        grad = np.asarray(fg.grad(scalar)(x))
        assert_close(grad, fd, 1e-5, what=f"{module.__name__}.{name}: gradient vs central "
                                            f"differences of numpy.{name}")


@pytest.mark.parametrize("name, x, build, np_route, vmap, rtol", CASES)
def test_vmap_equals_stacked_numpy(name, x, build, np_route, vmap, rtol):
    if not vmap:
        with pytest.raises(ConcretizationError, match="vmap or jit"):
            fg.vmap(lambda v: _call(fnp, name, build, v))(np.stack([x, x]))
        return
    xs = np.stack([x, 0.9 * x + 0.05])
    got = fg.tree.leaves(fg.vmap(lambda v: _call(fnp, name, build, v))(xs))
    members = [fg.tree.leaves(_call(np, name, build, v)) for v in xs]
    assert len(got) == len(members[0])
    for j, g in enumerate(got):
        want = np.stack([np.asarray(m[j]) for m in members])
        assert np.asarray(g).dtype == want.dtype, f"vmap output {j}: dtype"
        assert_close(g, want, rtol, 1e-13, what=f"vmap output {j}", equal_nan=True)


@pytest.mark.parametrize("name, x, build, np_route, vmap, rtol", CASES)
def test_float32_in_gives_numpy_dtypes_and_float32_gradients(name, x, build, np_route, vmap,
                                                            rtol):
    x32 = x.astype(np.float32)
    got = fg.tree.leaves(_call(fnp, name, build, x32))
    want = fg.tree.leaves(_call(np, name, build, x32))
    assert [np.asarray(g).dtype for g in got] == [np.asarray(w).dtype for w in want]
    if not _float_leaves(want):
        return

    def scalar(v):
        total = 0.0
        for o in fg.tree.leaves(_call(fnp, name, build, v)):
            if o.dtype.kind == "f":
                total = total + fnp.sum(fnp.where(fnp.isnan(o), 0.0, o))
        return total
    assert np.asarray(fg.grad(scalar)(x32)).dtype == np.float32


# --- NaN, empty and 0-d inputs ----------------------------------------------------------------

EDGE_INPUTS = [
    ("median", (np.zeros((0, 3)),), dict(axis=0)),
    ("median", (np.array([1.0, np.nan, 2.0]),), {}),
    ("median", (np.array(3.0),), {}),
    ("quantile", (np.array([[1.0, np.nan], [2.0, 3.0]]), 0.5), dict(axis=1)),
    ("quantile", (np.array(3.0), [0.0, 1.0]), {}),
    ("nanmedian", (np.array([[np.nan, np.nan], [1.0, np.nan]]),), dict(axis=1)),
    ("nanquantile", (np.array([[np.nan, np.nan], [1.0, 4.0]]), 0.25), dict(axis=1)),
    ("nanmean", (np.array([np.nan, np.nan]),), {}),
    ("nanmax", (np.array([[np.nan, np.nan], [1.0, np.nan]]),), dict(axis=1)),
    ("nanvar", (np.array([1.0, np.nan]),), dict(ddof=1)),
    ("nansum", (np.zeros((0, 2)),), dict(axis=0)),
    ("count_nonzero", (np.zeros(0),), {}),
    ("histogram", (np.array([np.nan, 1.0, 2.0]),), dict(bins=2, range=(0.0, 3.0))),
    ("histogram", (np.ones(4),), {}),
    ("bincount", (np.zeros(0, int),), {}),
    ("interp", (np.array([np.nan, 0.5]), [0.0, 1.0], [1.0, 3.0]), {}),
    ("interp", (0.5, [1.0], [3.0]), {}),
    ("cumulative_sum", (np.zeros(0),), dict(include_initial=True)),
    ("trapezoid", (np.zeros(0),), {}),
    ("ediff1d", (np.array(1.0),), {}),
    ("nan_to_num", (np.array([np.nan, np.inf, -np.inf, 1.0], np.float32),), {}),
    ("copysign", (np.array([np.nan, np.inf, 0.0]), np.array([-0.0, -1.0, -np.inf])), {}),
    ("fmod", (np.array([np.inf, 1.0, 2.0, -0.0]), np.array([1.0, 0.0, np.inf, 3.0])), {}),
    ("divmod", (np.array([np.inf, 1.0, 2.0, -7.0]), np.array([1.0, 0.0, -np.inf, 2.0])), {}),
    ("modf", (np.array([np.inf, -np.inf, np.nan, -0.0]),), {}),
    ("frexp", (np.array([0.0, -0.0, np.inf, np.nan, 1e-310, 2.0 ** 1000]),), {}),
    ("spacing", (np.array([0.0, 1e-310, np.inf, np.nan, -1.0, 2.0 ** 1000]),), {}),
    ("spacing", (np.array([-0.0, -5e-324, -0.0], np.float32),), {}),
    ("nextafter", (np.array([0.0, 0.0, 1.0, np.inf, 2.0 ** -1022, 1.0]),
                   np.array([1.0, -1.0, 0.0, 0.0, 0.0, 1.0])), {}),
    ("nextafter", (np.array([-5e-324, 5e-324, -0.0]), np.array([1.0, -1.0, -0.0])), {}),
    ("ldexp", (np.array([1.0, 3.0, 5e-324]), np.array([1100, -1080, 1000])), {}),
    ("signbit", (np.array([-0.0, 0.0, -np.inf, np.nan]),), {}),
    ("resize", (np.zeros(0), (2, 2)), {}),
    ("polyder", (np.array([3.0]), 2), {}),
    ("geomspace", (np.array(-1.0), -1000.0, 4), {}),
    # where= and initial=: empty selections, empty axes, integer and boolean arrays
    ("amax", (np.zeros((0, 3)),), dict(axis=0, initial=1.0)),
    ("min", (np.zeros((2, 0)),), dict(axis=1, initial=-1.0, keepdims=True)),
    ("max", (np.array([1, 2, 3]),), dict(initial=2.5)),
    ("max", (np.array([4, 2, 3], np.int8),), dict(where=[False, True, True], initial=-5)),
    ("min", (np.array([True, False]),), dict(where=[True, False], initial=True)),
    ("sum", (np.array([1, 2, 3], np.int8),), dict(initial=1)),
    ("sum", (np.array([True, False, True]),), dict(where=[True, True, False])),
    ("prod", (np.array([2.0, 3.0], np.float32),), dict(where=[False, False], initial=4.0)),
    ("mean", (np.array([[1.0, 2.0], [3.0, 5.0]]),), dict(axis=0, where=[[True, False]] * 2)),
    ("mean", (np.array([1, 2, 4]),), dict(where=[True, False, True])),
    ("var", (np.array([1.0, 2.0, 4.0]),), dict(where=[True, False, True], ddof=2)),
    ("std", (np.array([1.0, 2.0], np.float32),), dict(where=[True, False])),
    ("nanmean", (np.array([np.nan, 2.0, 4.0]),), dict(where=[True, True, False])),
    ("nanmax", (np.array([np.nan, np.nan]),), dict(initial=0.0)),
    ("nanvar", (np.array([[np.nan, 2.0, 4.0], [1.0, 2.0, 4.0]]),),
     dict(axis=1, where=[True, True, False])),
]


@pytest.mark.parametrize("name, args, kwargs", EDGE_INPUTS,
                         ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(EDGE_INPUTS)])
def test_nan_empty_and_0d_inputs_match_numpy(name, args, kwargs):
    def run(module):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return getattr(module, name)(*args, **kwargs)
    got, want = fg.tree.leaves(run(fnp)), fg.tree.leaves(run(np))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.shape, g.dtype) == (w.shape, w.dtype)
        np.testing.assert_allclose(g, w, rtol=1e-12, atol=0, equal_nan=True)  # (infs too)
        if w.dtype.kind == "f":  # -0.0 too (a NaN's sign means nothing)
            np.testing.assert_array_equal(np.signbit(g)[~np.isnan(w)], np.signbit(w)[~np.isnan(w)])


@pytest.mark.filterwarnings("ignore:Degrees of freedom")  # (NumPy's, for the all-NaN row)
def test_nan_functions_give_zero_gradient_at_nans_and_all_nan_slices():
    grad = fg.grad(lambda x: fnp.sum(fnp.nan_to_num(fnp.nanstd(x, axis=1))))(
        np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan]]))
    np.testing.assert_array_equal(grad, [[-0.5, 0.0, 0.5], [0.0, 0.0, 0.0]])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_nextafter_derivative_is_one_in_x1_and_zero_in_x2_at_zero_and_at_ties(dtype):
    # nextafter(x1, x2) is x1 moved by at most one ulp: slope 1 in x1, 0 in x2, everywhere
    x1 = np.array([0.0, 0.0, -0.0, 1.0, 1.0, -2.0, 5e-45, 3.0], dtype)
    x2 = np.array([2.0, -1.0, 1.0, 1.0, 2.0, -2.0, -1.0, 3.0], dtype)
    f = lambda a, b: fnp.sum(fnp.nextafter(a, b))
    g1, g2 = fg.grad(f, argnums=(0, 1))(x1, x2)
    assert g1.dtype == g2.dtype == dtype
    np.testing.assert_array_equal(g1, np.ones_like(x1))
    np.testing.assert_array_equal(g2, np.zeros_like(x2))
    _, t = fg.jvp(lambda a, b: fnp.nextafter(a, b), (x1, x2), (np.full_like(x1, 0.5), x2))
    np.testing.assert_array_equal(t, np.full_like(x1, 0.5))
    np.testing.assert_array_equal(fg.vmap(fg.grad(lambda a: fnp.nextafter(a, 2.0)))(x1), 1.0)
    np.testing.assert_array_equal(fg.grad(lambda a: fnp.nextafter(a, 2.0))(dtype(0.0)), 1.0)


def test_median_ties_send_the_derivative_to_the_element_the_stable_sort_ranks_there():
    np.testing.assert_array_equal(fg.grad(fnp.median)(np.array([1.0, 1.0, 5.0])), [0, 1, 0])
    np.testing.assert_array_equal(fg.grad(fnp.median)(np.array([5.0, 1.0, 1.0])), [0, 0, 1])


def test_sort_and_argsort_descending_keep_ties_in_their_original_order():
    # JAX's descending=True: the largest first; ties (and NaNs, first) as a stable sort
    a = np.array([[1.0, 3.0, 3.0, 0.0, 3.0], [2.0, 2.0, 5.0, -1.0, 2.0]])
    np.testing.assert_array_equal(fnp.argsort(a, descending=True), [[1, 2, 4, 0, 3],
                                                                    [2, 0, 1, 4, 3]])
    np.testing.assert_array_equal(fnp.argsort(a, axis=0, descending=True),
                                  [[1, 0, 1, 0, 0], [0, 1, 0, 1, 1]])
    np.testing.assert_array_equal(fnp.sort(a, descending=True), -np.sort(-a))
    np.testing.assert_array_equal(fnp.sort(a, axis=None, descending=True), -np.sort(-a.ravel()))
    np.testing.assert_array_equal(fnp.argsort(np.array([1.0, np.nan, 3.0, 3.0]),
                                              descending=True), [1, 2, 3, 0])
    # each element's derivative follows it: d/da sum(sorted * [4, 3, 2, 1, 0])
    g = fg.grad(lambda v: fnp.sum(fnp.sort(v, descending=True) * np.arange(4.0, -1.0, -1.0)))(
        np.array([0.5, 2.0, -1.0, 7.0, 1.0]))
    np.testing.assert_array_equal(g, [1.0, 3.0, 0.0, 4.0, 2.0])
    np.testing.assert_array_equal(fg.vmap(lambda r: fnp.argsort(r, descending=True))(a),
                                  fnp.argsort(a, descending=True))


# --- where= and initial= of the reductions -------------------------------------------------------

def _central_differences(f, x, eps=1e-6):
    fd = np.zeros(x.shape)
    for i in np.ndindex(x.shape):
        step = np.zeros(x.shape)
        step[i] = eps
        fd[i] = (f(x + step) - f(x - step)) / (2 * eps)
    return fd


@pytest.mark.parametrize("name, initial, want", [("max", 3.0, [0.5, 0.0, 0.0]),
                                                 ("min", 1.0, [0.0, 0.5, 0.0])])
def test_a_tie_with_initial_shares_the_derivative_as_central_differences_do(name, initial, want):
    x = np.array([3.0, 1.0, 2.0])
    for module in (fnp, np):  # (np.max on a traced value reaches fnp.max)
        grad = fg.grad(lambda v: getattr(module, name)(v, initial=initial))(x)
        np.testing.assert_array_equal(grad, want)
    fd = _central_differences(lambda v: getattr(np, name)(v, initial=initial), x)
    np.testing.assert_allclose(fd, want, atol=1e-9)
    # initial itself is differentiable where it is a traced value: the other half
    assert fg.grad(lambda i: fnp.max(x, initial=i) if name == "max" else fnp.min(x, initial=i))(
        initial) == 0.5


_A = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 0.5]])


@pytest.mark.parametrize("name, axis, s, derivative", [
    ("sum", None, 2.5, 1.0), ("sum", 1, 2.5, 2.0),  # (one initial per row: d/ds sums them)
    ("prod", None, 2.5, np.prod(_A)), ("prod", 0, 2.5, np.sum(np.prod(_A, axis=0))),
    ("max", None, 7.0, 1.0), ("max", None, 2.5, 0.0), ("max", 1, 3.5, 1.0),
    ("min", None, 0.25, 1.0), ("min", 1, 0.25, 2.0)])
def test_a_traced_initial_of_a_plain_array_differentiates_in_the_initial(name, axis, s,
                                                                          derivative):
    f = lambda i: fnp.sum(getattr(fnp, name)(_A, axis=axis, initial=i))
    want = np.sum(getattr(np, name)(_A, axis=axis, initial=s))
    value, g = fg.value_and_grad(f)(s)
    assert value == want and g == derivative
    assert fg.jvp(f, (s,), (1.0,))[1] == derivative
    assert fg.jit(f, wait=True)(s) == want
    np.testing.assert_array_equal(fg.vmap(f)(np.array([s, s + 10.0])),
                                  [want, np.sum(getattr(np, name)(_A, axis=axis,
                                                                  initial=s + 10.0))])


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("transform", ["grad", "jit", "vmap"])
def test_numpys_own_reduction_with_a_traced_initial_names_funcgrad_numpy(name, transform):
    """NumPy dispatches a reduction on its array (and where=), never on initial=: with a
    plain array it converts a traced initial itself, which cannot work; the error names
    funcgrad.numpy's function, which does (NumPy chains it under its ValueError under jit
    and vmap)."""
    f = lambda s: getattr(np, name)(_A, initial=s)
    call = {"grad": lambda: fg.grad(f)(2.5), "jit": lambda: fg.jit(f)(2.5),
            "vmap": lambda: fg.vmap(f)(np.ones(2))}[transform]
    with pytest.raises((TypeError, ValueError)) as info:
        call()
    messages = str(info.value) + str(info.value.__cause__)
    assert f"funcgrad.numpy.{name}(a, initial=s)" in messages


def _selecting(v):
    """Plain NumPy calls with where= and initial= (masks of the values and of constants)."""
    return (np.sum(np.sin(v), where=v > 0.5, initial=1.0) + np.max(v, where=v < 0.7, initial=-1.0)
            + np.mean(v ** 2, axis=1, where=MASK5).sum() + np.std(v, where=MASK5)
            + np.prod(v, axis=0, where=X2 > 0.5).sum() + np.nanvar(v, where=v > 0.4)
            + v.min(axis=1, where=MASK5, initial=2.0).sum() + v.sum(where=MASK5, initial=0.5))


def test_where_and_initial_under_grad_jvp_jit_and_vmap_equal_numpy_and_differences():
    value, grad = fg.value_and_grad(_selecting)(X)
    assert_close(value, _selecting(X), 1e-12, what="value")
    assert_close(grad, _central_differences(_selecting, X), 1e-6, what="gradient vs differences")
    assert_close(fg.jit(_selecting, wait=True)(X), value, 1e-12, what="jit value")
    assert_close(fg.jit(fg.grad(_selecting), wait=True)(X), grad, 1e-12, what="jit gradient")
    _, tangent = fg.jvp(_selecting, (X,), (X2,))
    assert_close(tangent, np.sum(grad * X2), 1e-10, what="jvp")
    xs = np.stack([X, 0.9 * X + 0.05, X2])
    assert_close(fg.vmap(_selecting)(xs), [_selecting(v) for v in xs], 1e-12, what="vmap")
    assert_close(fg.vmap(fg.grad(_selecting))(xs), [fg.grad(_selecting)(v) for v in xs], 1e-12,
                 what="vmap of grad")


def test_a_batched_mask_selects_per_member_also_when_only_the_mask_is_traced():
    masks = np.stack([MASK5, ~MASK5, np.ones(5, bool)])
    for f in (lambda m: np.sum(X, axis=1, where=m), lambda m: np.mean(X, axis=1, where=m),
              lambda m: np.max(X, axis=1, where=m, initial=0.0), lambda m: fnp.var(X, where=m)):
        got = fg.vmap(f)(masks)
        want = np.stack([f(m) for m in masks])
        assert got.dtype == want.dtype
        assert_close(got, want, 1e-12, what="vmap over the mask")


def test_left_out_infs_and_nans_and_empty_selections_give_zero_derivatives():
    bad = np.array([1.0, np.inf, 3.0, np.nan])
    keep = np.array([True, False, True, False])
    for f in (lambda v: fnp.var(v, where=keep), lambda v: fnp.std(v, where=keep),
              lambda v: fnp.mean(v, where=keep), lambda v: fnp.sum(v, where=keep),
              lambda v: fnp.max(v, where=keep, initial=0.0), lambda v: fnp.prod(v, where=keep)):
        grad = fg.grad(f)(bad)
        np.testing.assert_array_equal(grad[~keep], 0.0)
        np.testing.assert_array_equal(grad[keep], fg.grad(lambda v: f(fnp.concatenate(
            [v[:1], [0.0], v[1:], [0.0]])))(bad[keep]))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (nothing to warn about: no 0 / 0 in either pass)
        value, grad = fg.value_and_grad(lambda v: fnp.mean(v, where=np.zeros(4, bool)))(bad)
    assert np.isnan(value) and np.all(grad == 0.0)


def test_float32_stays_float32_with_a_python_initial_and_a_traced_mask():
    x = X.astype(np.float32)
    fs = (lambda v: fnp.max(v, initial=0.95), lambda v: fnp.sum(v, where=v > 0.5, initial=1.0),
          lambda v: fnp.mean(v, where=v > 0.5), lambda v: fnp.nanstd(v, where=v > 0.5))
    for f in fs:
        assert f(x).dtype == np.float32
        assert fg.grad(f)(x).dtype == np.float32
    assert fg.jit(lambda v: fnp.stack([f(v) for f in fs]), wait=True)(x).dtype == np.float32


@pytest.mark.parametrize("call, error, match", [
    (lambda: fnp.max(X, where=MASK5), ValueError, "specify 'initial'"),
    (lambda: np.min(fg.stop_gradient(X) * 1.0, where=MASK5), ValueError, "specify 'initial'"),
    (lambda: fg.grad(lambda v: np.amax(v, where=v > 0.5))(X), ValueError, "specify 'initial'"),
    (lambda: fnp.nanmax(XN, where=MASK5), ValueError, "'fmax' does not have an identity"),
    (lambda: fnp.sum(X, where=MASK5.astype(int)), TypeError, "boolean mask"),
    (lambda: fnp.sum(X, where=np.ones((2, 5), bool)), ValueError, "does not broadcast"),
    (lambda: fnp.max(X, initial=[1.0, 2.0]), ValueError, "initial= must be a scalar"),
    (lambda: fnp.max(np.zeros((0, 2)), axis=0), ValueError, "initial="),
], ids=["max-no-initial", "min-np-no-initial", "amax-traced-no-initial", "nanmax-no-initial",
        "integer-mask", "mask-shape", "array-initial", "empty-no-initial"])
def test_bad_where_and_initial_raise_as_numpy_naming_the_fix(call, error, match):
    with pytest.raises(error, match=match):
        call()


# --- values that decide shapes: clear errors under vmap and jit ---------------------------------

@pytest.mark.parametrize("fn", [
    lambda m: fnp.extract(m > 0.5, m),
    lambda m: fnp.compress(m > 0.5, m),
    lambda m: fnp.delete(m, fnp.astype(m > 0.5, bool)),
    lambda m: fnp.bincount(fnp.astype(m * 3, np.intp)),
    lambda m: fnp.arange(0.0, m[0]),
    lambda m: fnp.histogram(m, bins="auto")[0],
], ids=["extract", "compress", "delete", "bincount", "arange", "histogram-auto"])
def test_value_dependent_shapes_raise_concretization_error(fn):
    m = np.array([[0.2, 0.7, 0.9], [0.6, 0.1, 0.8]])
    for transform in (fg.vmap, fg.jit):
        with pytest.raises(ConcretizationError, match="depends on the values"):
            transform(fn)(m)


def test_bincount_with_jaxs_length_takes_traced_indices():
    # length= fixes the result's length (JAX's argument): values from it up are not counted,
    # negative ones count in the first bin, and vmap/jit may trace x
    x = np.array([-1, -1, 1, 3, 10])
    np.testing.assert_array_equal(fnp.bincount(x, length=5), [2, 1, 0, 1, 0])
    np.testing.assert_array_equal(fnp.bincount(np.array([0, 2, 2]), length=5),
                                  np.bincount(np.array([0, 2, 2]), minlength=5))
    np.testing.assert_array_equal(fnp.bincount(x, np.arange(5.0), length=4), [1.0, 2.0, 0.0, 3.0])
    np.testing.assert_array_equal(fg.jit(lambda v: fnp.bincount(v, length=5))(x), [2, 1, 0, 1, 0])
    np.testing.assert_array_equal(fg.vmap(lambda v: fnp.bincount(v, length=4))(
        np.array([[0, 1], [3, 3]])), [[1, 1, 0, 0], [0, 0, 0, 2]])
    g = fg.grad(lambda w: fnp.bincount(np.array([0, 2, 2, 7]), w, length=3)[2])(np.ones(4))
    np.testing.assert_array_equal(g, [0.0, 1.0, 1.0, 0.0])
    with pytest.raises(TypeError, match="length must be a non-negative int"):
        fnp.bincount(x, length=-1)


# --- clear errors --------------------------------------------------------------------------------

@pytest.mark.parametrize("call, error, match", [
    (lambda: fnp.quantile(X, 1.5), ValueError, "range"),
    (lambda: fnp.percentile(X, 150), ValueError, "range"),
    (lambda: fnp.quantile(X, 0.5, method="lerp"), ValueError, "not a valid method"),
    (lambda: fnp.quantile(np.zeros(0), 0.5), IndexError, "empty"),
    (lambda: fnp.average(X, weights=W3), TypeError, "axis must be specified"),
    (lambda: fnp.average(X, axis=1, weights=np.zeros(5)), ZeroDivisionError, "sum to zero"),
    (lambda: fnp.bincount(np.array([1.5])), TypeError, "integers"),
    (lambda: fnp.convolve(np.zeros(0), V), ValueError, "empty"),
    (lambda: fnp.correlate(V, V, mode="middle"), ValueError, "mode"),
    (lambda: fnp.interp(XQ, XP, FP[:2]), ValueError, "same length"),
    (lambda: fnp.cumulative_sum(X), ValueError, "axis"),
    (lambda: fnp.ldexp(V, 2.5), TypeError, "integers"),
    (lambda: fnp.polyfit(V, V, 1, full=True), NotImplementedError, "full=True"),
    (lambda: fnp.block((X, X)), TypeError, "tuple"),
    (lambda: fnp.insert(V, np.array([True, False]), 1.0), IndexError, "boolean"),
    (lambda: fnp.piecewise(V, [V > 0.5, V < 0.3, V < 0.2], [1.0]), ValueError, "functions"),
    (lambda: fnp.gradient(np.ones(1)), ValueError, "too small"),
], ids=["quantile-range", "percentile-range", "quantile-method", "quantile-empty",
        "average-axis", "average-zero-weights", "bincount-float", "convolve-empty",
        "correlate-mode", "interp-lengths", "cumulative_sum-axis", "ldexp-float",
        "polyfit-full", "block-tuple", "insert-bool", "piecewise-count", "gradient-short"])
def test_bad_calls_raise_errors_that_name_the_problem(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_sinc_derivatives_at_zero_are_the_series():
    """sinc(x) = 1 - (pi x)^2 / 6 + (pi x)^4 / 120 - ...: sinc''(0) = -pi^2 / 3 and
    sinc''''(0) = pi^4 / 5, with the guarded division's values elsewhere."""
    d2 = fg.grad(fg.grad(np.sinc))
    d4 = fg.grad(fg.grad(d2))
    assert d2(0.0) == pytest.approx(-np.pi ** 2 / 3, rel=1e-14)
    assert d4(0.0) == pytest.approx(np.pi ** 4 / 5, rel=1e-13)
    x = np.array([0.0, 0.3, -1.7], np.float32)
    assert np.sinc(fg.numpy.asarray(x)).dtype == np.float32
    np.testing.assert_array_equal(fg.jvp(np.sinc, (x,), (np.ones_like(x),))[0], np.sinc(x))


def test_heaviside_keeps_float32_and_hypot_has_a_zero_derivative_at_its_kink():
    x = np.array([-1.0, 0.0, 2.0], np.float32)
    value, tangent = fg.jvp(lambda v: np.heaviside(v, 0.5), (x,), (np.ones_like(x),))
    assert value.dtype == tangent.dtype == np.float32
    np.testing.assert_array_equal(value, [0.0, 0.5, 1.0])
    gx, gy = fg.grad(lambda a, b: np.sum(np.hypot(a, b)), argnums=(0, 1))(
        np.array([0.0, 3.0]), np.array([0.0, 4.0]))
    np.testing.assert_array_equal(gx, [0.0, 0.6])  # (0, 0): 0, as abs at 0
    np.testing.assert_array_equal(gy, [0.0, 0.8])


def test_ravel_in_fortran_order_and_a_clear_refusal_of_memory_orders():
    x = np.arange(6.0).reshape(2, 3)
    for f in (lambda a: np.ravel(a, order="F"), lambda a: a.ravel("F")):
        np.testing.assert_array_equal(fg.jacrev(f)(x)[np.arange(6), :, :].reshape(6, 6),
                                      np.eye(6)[np.ravel(np.arange(6).reshape(2, 3), "F")])
        np.testing.assert_array_equal(f(fnp.asarray(x)), np.ravel(x, order="F"))
    with pytest.raises(ValueError, match="order='C' or order='F'"):
        fg.grad(lambda a: np.sum(np.ravel(a, order="K")))(x)


# --- audit regressions: values NumPy gives, derivatives at kinks as jax.numpy -----------------

def test_interp_keeps_complex_fp_and_infinite_fp_values_as_numpy():
    xq = np.array([-1.0, 0.0, 0.5, 2.0, 3.0, 4.0])
    fp = np.array([1.0 + 2.0j, 2.0j, 3.0 - 1.0j])
    got = fnp.interp(xq, [0.0, 1.0, 3.0], fp, left=5j)
    assert got.dtype == np.complex128
    np.testing.assert_array_equal(got, [5j, 1 + 2j, 0.5 + 2j, 1.5 + 0.5j, 3 - 1j, 3 - 1j])
    # NumPy's fallbacks for NaN slopes: from the other end, then the equal ends' value
    for fp in ([0.0, np.inf, 1.0], [np.inf, np.inf, 1.0], [-np.inf, np.inf, 0.0]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.interp(np.linspace(0.0, 2.0, 5), [0.0, 1.0, 2.0], fp)
            got = fnp.interp(np.linspace(0.0, 2.0, 5), [0.0, 1.0, 2.0], np.array(fp))
        np.testing.assert_array_equal(got, want)


def test_interp_derivative_at_sample_points_is_the_slope_to_the_right():
    """As jax.numpy.interp: at a sample point the segment to its right, at the last one the
    last segment's slope (before: 0, as if interp were flat there)."""
    xp, fp = np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0])
    d = fg.elementwise_grad(lambda x: fnp.interp(x, xp, fp))
    np.testing.assert_array_equal(d(np.array([0.0, 1.0, 3.0, -1.0, 4.0])), [2, 0.5, 0.5, 0, 0])
    periodic = fg.elementwise_grad(lambda x: fnp.interp(x, xp, fp, period=4.0))
    np.testing.assert_array_equal(periodic(np.array([3.0, 4.0, 5.0])), [-3.0, 2.0, 0.5])
    wrt_fp = fg.jacobian(lambda f: fnp.interp(np.array([1.0, 3.0]), xp, f))(fp)
    np.testing.assert_array_equal(wrt_fp, [[0, 1, 0], [0, 0, 1]])
    wrt_xp = fg.grad(lambda p: fnp.interp(3.0, p, fp))(xp)  # moving xp[2] right lowers f(3)
    np.testing.assert_array_equal(wrt_xp, [0.0, 0.0, -0.5])


def test_interp_gradients_stay_finite_at_infinite_x_and_repeated_sample_points():
    xp, fp = np.array([0.0, 1.0, 3.0]), np.array([0.0, 2.0, 3.0])
    wrt_fp = fg.jacobian(lambda f: fnp.interp(np.array([-np.inf, np.inf]), xp, f))(fp)
    np.testing.assert_array_equal(wrt_fp, [[1, 0, 0], [0, 0, 1]])
    d = fg.elementwise_grad(lambda x: fnp.interp(x, [0.0, 1.0, 2.0, 2.0], [0.0, 1.0, 3.0, 7.0]))
    np.testing.assert_array_equal(d(np.array([1.5, 2.0, 3.0])), [2.0, 0.0, 0.0])


@pytest.mark.parametrize("xp", [[-np.inf, 0.0, 1.0], [0.0, 1.0, np.inf], [-np.inf, 0.0, np.inf],
                                [-np.inf, np.inf], [-np.inf, -np.inf, 0.0], [0.0, np.inf, np.inf]],
                         ids=["-inf", "inf", "both", "only-infinite", "repeated-inf",
                              "repeated+inf"])
def test_interp_with_infinite_sample_points_gives_numpys_values(xp):
    # at x == xp[j] == +-inf NumPy gives fp[j] (before: inf - inf made NaN); a NaN x gives NaN
    xq = np.array([-np.inf, -1e308, -1.0, 0.0, 0.5, 1.0, 2.0, 1e308, np.inf, np.nan])
    for fp in itertools.product([0.0, -2.0, np.inf], repeat=len(xp)):
        for kw in ({}, {"left": 7.0, "right": 8.0}):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                want = np.interp(xq, xp, fp, **kw)
                got = fnp.interp(xq, np.array(xp), np.array(fp), **kw)
                jitted = fg.jit(lambda x, p, f: fnp.interp(x, p, f, **kw))(xq, np.array(xp),
                                                                           np.array(fp))
            np.testing.assert_array_equal(got, want, err_msg=f"fp={fp} {kw}")
            np.testing.assert_array_equal(jitted, want, err_msg=f"fp={fp} {kw}")


def test_interp_derivatives_with_infinite_sample_points_are_the_finite_limits():
    # beyond the last finite sample point the value is that point's fp: derivative 1 there,
    # 0 elsewhere, with no NaN from the 0 * inf of the side NumPy does not take
    xp, fp = np.array([-np.inf, 0.0, 1.0, np.inf]), np.array([1.0, 2.0, 4.0, 5.0])
    xq = np.array([-np.inf, -3.0, 0.0, 0.5, 3.0, np.inf])
    np.testing.assert_array_equal(fg.jacrev(lambda f: fnp.interp(xq, xp, f))(fp),
                                  [[1, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0.5, 0.5, 0],
                                   [0, 0, 1, 0], [0, 0, 0, 1]])
    np.testing.assert_array_equal(fg.jacfwd(lambda f: fnp.interp(xq, xp, f))(fp),
                                  fg.jacrev(lambda f: fnp.interp(xq, xp, f))(fp))
    np.testing.assert_array_equal(fg.elementwise_grad(lambda x: fnp.interp(x, xp, fp))(xq),
                                  [0, 0, 2, 2, 0, 0])


def test_diff_prepend_append_booleans_and_bad_orders_as_numpy():
    a = np.array([[1.0, 4.0, 9.0], [2.0, 3.0, 7.0]])
    for kwargs in (dict(prepend=0.5), dict(append=a[:, :2], n=2), dict(axis=0, prepend=a[:1]),
                   dict(prepend=1.0, append=[[5.0], [6.0]])):
        got, want = fnp.diff(a, **kwargs), np.diff(a, **kwargs)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    flags = np.array([True, False, False, True])
    assert fnp.diff(flags).dtype == np.bool_
    np.testing.assert_array_equal(fnp.diff(flags), [True, False, True])
    # sum(w * diff(x, prepend=x0 ** 2)) = w0 (x0 - x0 ** 2) + w1 (x1 - x0) + w2 (x2 - x1)
    w = np.array([1.0, 2.0, 3.0])
    grad = fg.grad(lambda x: np.sum(w * np.diff(x, prepend=x[:1] ** 2)))(np.array([3.0, 1.0, 2.0]))
    np.testing.assert_array_equal(grad, [1.0 * (1.0 - 2.0 * 3.0) - 2.0, 2.0 - 3.0, 3.0])
    with pytest.raises(ValueError, match="non-negative"):
        fnp.diff(a, n=-1)
    with pytest.raises(ValueError, match="at least one dimensional"):
        fnp.diff(np.array(1.0))


def test_discrete_quantile_methods_keep_integer_dtypes_and_booleans_refuse_interpolation():
    ints = np.arange(7, dtype=np.int8)
    for method, want in (("lower", [1, 3]), ("higher", [2, 3]), ("nearest", [2, 3])):
        for f in (fnp.quantile, fnp.nanquantile):
            got = f(ints, [0.3, 0.5], method=method)
            assert got.dtype == np.int8, (f.__name__, method)
            np.testing.assert_array_equal(got, want)
    assert fnp.percentile(np.arange(5), 30, method="lower").dtype == np.int64
    assert fnp.quantile(np.arange(5), 0.3, method="midpoint").dtype == np.float64
    assert fnp.quantile(np.array([True, False, True]), 0.3, method="higher") == np.True_
    with pytest.raises(TypeError, match="booleans"):
        fnp.quantile(np.array([True, False]), 0.3)


def test_complex_covariance_correlation_and_correlate_conjugate_as_numpy():
    x = np.array([[1.0, 2.0, 4.0], [0.0, 1.0, 3.0]]) + 1j * np.array([[1.0, -1.0, 2.0],
                                                                      [2.0, 0.0, 1.0]])
    # by hand: the rows less their means, d0 = [-4+1j, -1-2j, 5+1j] / 3 and
    # d1 = [-4+5j, -1-1j, 5-4j] / 3; cov[i, j] = sum(d_i * conj(d_j)) / 2
    want = np.array([[14 / 3, 10 / 3 + 5j / 3], [10 / 3 - 5j / 3, 10 / 3]])
    np.testing.assert_allclose(fnp.cov(x), want, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(fnp.corrcoef(x), want / np.sqrt(np.outer([14 / 3, 10 / 3],
                                                                         [14 / 3, 10 / 3])),
                               rtol=1e-14, atol=1e-15)
    a, v = np.array([1.0 + 1j, 2.0, -1j]), np.array([1j, 1.0])
    np.testing.assert_allclose(fnp.correlate(a, v, "full"), [1 + 1j, 3 - 1j, -3j, -1],
                               atol=1e-15)  # c[k] = sum a[n + k] conj(v[n])
    np.testing.assert_allclose(fnp.correlate(v, a, "full"), [-1, 3j, 3 + 1j, 1 - 1j],
                               atol=1e-15)  # NumPy's swap: reversed and conjugated
    assert fnp.cov(np.ones((2, 3)), dtype=np.float32).dtype == np.float32


def test_polyval_at_a_python_float_is_float64_as_numpy():
    p = np.array([1.0, 2.0, 3.0], np.float32)
    got = fnp.polyval(p, 2.0)  # NumPy makes x an array: float64, not a weak Python scalar
    assert got.dtype == np.float64 and float(got) == 11.0
    assert fnp.polyval(p, np.float32(2.0)).dtype == np.float32


def test_roll_broadcasts_shift_and_axis_and_adds_shifts_of_one_axis_as_numpy():
    a = np.arange(24.0).reshape(2, 3, 4)
    for shift, axis, total in (((2, 3), 1, {1: 5}), (1, (0, 2), {0: 1, 2: 1}),
                               ((1, 2), None, {None: 3}), ((1, -4), (-1, 2), {2: -3})):
        want = a
        for ax, s in total.items():  # np.roll with one shift per axis, which was right
            want = np.roll(want, s, ax)
        np.testing.assert_array_equal(fnp.roll(a, shift, axis), want)
    grad = fg.grad(lambda x: fnp.roll(x, (1, 1), 0)[0])(np.array([1.0, 2.0, 3.0]))
    np.testing.assert_array_equal(grad, [0.0, 1.0, 0.0])  # out[0] = x[-2]
    with pytest.raises(ValueError, match="different lengths"):
        fnp.roll(a, (1, 2, 3), (0, 1))


def test_clip_with_a_min_above_a_max_differentiates_its_value_a_max():
    """np.clip(x, lo, hi) is minimum(maximum(x, lo), hi): hi wherever lo > hi."""
    x, lo, hi = np.array([0.0, 2.0, 5.0]), np.array([3.0, 3.0, 3.0]), np.array([1.0, 1.0, 1.0])
    np.testing.assert_array_equal(fnp.clip(x, lo, hi), [1.0, 1.0, 1.0])
    gx, glo, ghi = fg.grad(lambda *a: fnp.sum(fnp.clip(*a)), argnums=(0, 1, 2))(x, lo, hi)
    np.testing.assert_array_equal(gx, [0, 0, 0])
    np.testing.assert_array_equal(glo, [0, 0, 0])  # (was [1, 0, 0])
    np.testing.assert_array_equal(ghi, [1, 1, 1])  # (was [0, 1, 1])
    _, tangent = fg.jvp(lambda l, h: fnp.clip(x, l, h), (lo, hi), (np.ones(3), 2 * np.ones(3)))
    np.testing.assert_array_equal(tangent, [2.0, 2.0, 2.0])


def test_round_keeps_integer_dtypes_and_rounds_them_to_negative_decimals_as_numpy():
    ints = np.array([1250, 1351, -1250, 15], np.int16)
    for decimals, want in ((0, ints), (2, ints), (-1, [1250, 1350, -1250, 20]),
                           (-2, [1200, 1400, -1200, 0])):
        got = fnp.round(ints, decimals)
        assert got.dtype == np.int16, decimals
        np.testing.assert_array_equal(got, want)
    assert fnp.round(np.array([3, 4], np.int8)).dtype == np.int8  # (was float16)


def test_histogram_refuses_estimated_bins_for_weighted_data_as_numpy():
    with pytest.raises(TypeError, match="weighted data"):
        fnp.histogram(X.ravel(), bins="auto", weights=X2.ravel())


def test_take_modes_and_var_std_mean_and_correction_keywords_as_numpy():
    a = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(fnp.take(a, [-4, 3, 7], mode="wrap"), [3.0, 1.0, 2.0])
    np.testing.assert_array_equal(fnp.take(a, [-4, 3, 1], mode="clip"), [1.0, 3.0, 2.0])
    grad = fg.grad(lambda x: fnp.sum(fnp.take(x, [-1, 5, 1], mode="clip")))(a)
    np.testing.assert_array_equal(grad, [1.0, 1.0, 1.0])
    with pytest.raises(IndexError, match="out of bounds"):
        fnp.take(a, [3])
    x = np.array([[1.0, 3.0, 8.0], [2.0, 2.0, 5.0]])
    m = np.array([[4.0], [3.0]])  # a given mean: sum((x - m) ** 2) / (n - ddof)
    np.testing.assert_array_equal(fnp.var(x, axis=1, keepdims=True, mean=m), [[26 / 3], [6 / 3]])
    np.testing.assert_array_equal(fnp.std(x, axis=1, keepdims=True, mean=m, correction=1),
                                  np.sqrt([[26 / 2], [6 / 2]]))
    with pytest.raises(ValueError, match="simultaneously"):
        fnp.var(x, ddof=1, correction=1)


def test_take_with_jaxs_fill_mode_reads_fill_value_out_of_bounds():
    a = np.array([1.0, 2.0, 3.0])
    got = fnp.take(a, np.array([-1, 5, -4]), mode="fill")  # -1 counts from the end
    np.testing.assert_array_equal(got, [3.0, np.nan, np.nan])
    np.testing.assert_array_equal(fnp.take(a, np.array([-1, 5]), mode="fill", fill_value=7.0),
                                  [3.0, 7.0])
    m = np.arange(6.0).reshape(2, 3)
    np.testing.assert_array_equal(fnp.take(m, np.array([0, 3]), axis=1, mode="fill",
                                           fill_value=-1.0), [[0.0, -1.0], [3.0, -1.0]])
    assert fnp.take(np.arange(3), np.array([5]), mode="fill")[0] == np.iinfo(np.int64).min
    grad = fg.grad(lambda x: fnp.sum(fnp.take(x, np.array([0, 0, 7]), mode="fill",
                                              fill_value=0.0)))(a)
    np.testing.assert_array_equal(grad, [2.0, 0.0, 0.0])
    got = fg.vmap(lambda i: fnp.take(a, i, mode="fill", fill_value=-1.0))(np.array([0, 9]))
    np.testing.assert_array_equal(got, [1.0, -1.0])


# --- dtype= of sums, products and their scans: computed in that dtype, as NumPy ------------
# (int8: 100 + 100 wraps to -56; float32 of a float64 input rounds every partial sum)

_ACCUMULATING = ["sum", "prod", "mean", "cumsum", "cumprod", "nansum", "nanprod", "nancumsum",
                 "nancumprod", "cumulative_sum", "cumulative_prod"]
_INTEGER_DTYPES = [None, np.int8, np.uint8, np.bool_, np.float32]
_ACCUMULATED = [  # (input, the dtype= values it is cast to without NumPy warning)
    (np.array([[100, 100, 27], [-3, 90, 120]], np.int8), _INTEGER_DTYPES),
    (np.array([[200, 100, 3], [7, 250, 9]], np.uint8), _INTEGER_DTYPES + [np.int16]),
    (np.array([[True, False, True], [True, True, False]]), _INTEGER_DTYPES),
    (np.array([[1.7, -2.6, 3.1], [100.3, 0.25, -1.5]]), _INTEGER_DTYPES + [np.float64]),
    (np.array([[2.0 ** 24, 1.0, 1.0], [0.1, 0.7, 1e-9]]), [None, np.float32, np.float16]),
    (np.array([[0.1 + 2.0 ** 24 * 1j, 1j, 0.3 + 1j]]), [None, np.complex64]),
]
_ACCUMULATING_CASES = [
    pytest.param(name, x, dtype, id=f"{name}-{x.dtype}-{dtype and np.dtype(dtype)}")
    for x, dtypes in _ACCUMULATED for dtype in dtypes for name in _ACCUMULATING]


def _equal_to_numpy(got, want, ulps=0):
    got = np.asarray(got)
    assert got.dtype == want.dtype, f"dtype {got.dtype}, NumPy's {want.dtype}"
    if ulps and want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=ulps * np.finfo(want.dtype).eps)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("name, x, dtype", _ACCUMULATING_CASES)
def test_accumulating_reductions_compute_in_their_dtype_as_numpy(name, x, dtype):
    ours, numpys = getattr(fnp, name), getattr(np, name)
    # a traced cumprod is a log-depth scan: its products round in another order than NumPy's
    ulps = 4 if name.endswith(("cumprod", "cumulative_prod")) else 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # (NumPy's mean of a float16 sum)
        want = numpys(x, axis=1, dtype=dtype)
        rows = np.stack([numpys(r, axis=0, dtype=dtype) for r in x])
        _equal_to_numpy(ours(x, axis=1, dtype=dtype), want)
        _equal_to_numpy(fg.jit(lambda v: ours(v, axis=1, dtype=dtype), wait=True)(x), want,
                        ulps)
        _equal_to_numpy(fg.vmap(lambda r: ours(r, axis=0, dtype=dtype))(x), rows, ulps)
        if not name.startswith(("nan", "cumulative")):  # the ndarray method, traced
            method = fg.jit(lambda v: getattr(v, name)(axis=1, dtype=dtype), wait=True)
            _equal_to_numpy(method(x), want, ulps)


@pytest.mark.parametrize("ufunc, method", [(np.add, "reduce"), (np.multiply, "reduce"),
                                           (np.add, "accumulate"),
                                           (np.multiply, "accumulate")])
@pytest.mark.parametrize("dtype", [None, np.int8, np.uint8])
def test_ufunc_reduce_and_accumulate_of_traced_values_compute_in_their_dtype(ufunc, method,
                                                                            dtype):
    x = np.array([[100, 100, 27], [-3, 90, 120]], np.int8)
    want = getattr(ufunc, method)(x, axis=1, dtype=dtype)
    call = fg.jit(lambda v: getattr(ufunc, method)(v, axis=1, dtype=dtype), wait=True)
    _equal_to_numpy(call(x), want)


def test_float32_dtype_of_a_float64_input_differentiates_its_float32_computation():
    x = np.array([2.0 ** 24, 1.0, 1.0, 0.1])  # float32 loses the ones: NumPy's sum too
    w = np.array([0.5, 2.0, -1.0, 3.0])
    cases = [  # (function, NumPy's value, its exact gradient)
        (lambda v: fnp.sum(v, dtype=np.float32), np.sum(x, dtype=np.float32), np.ones(4)),
        (lambda v: fnp.mean(v, dtype=np.float32), np.mean(x, dtype=np.float32),
         np.full(4, 0.25)),
        (lambda v: fnp.prod(v, dtype=np.float32), np.prod(x, dtype=np.float32),
         np.prod(x) / x),
        (lambda v: fnp.sum(w * fnp.cumsum(v, dtype=np.float32)),
         np.sum(w * np.cumsum(x, dtype=np.float32)), np.cumsum(w[::-1])[::-1]),
    ]
    for f, want, gradient in cases:
        value, g = fg.value_and_grad(f)(x)
        _equal_to_numpy(value, want)
        assert g.dtype == np.float64
        np.testing.assert_allclose(g, gradient, rtol=1e-6)


# --- var and std (and their nan versions) with a dtype= that is not a real float ----------
# NumPy sums in that dtype twice, truncating each squared deviation for an integer dtype:
# np.var([1.3, 2.7, 4.1, 0.5], dtype=int) is 2 (the float variance is 1.8875, and the
# variance of the truncated input 2.1875)

_SPREAD_INPUTS = [
    (np.array([[1.3, -2.7, 4.1], [0.5, 3.9, -1.2]]), [np.int64, np.int8, np.bool_,
                                                        np.complex128]),
    (np.array([[3, -7, 4], [5, 9, -2]]), [np.int64, np.int32, np.complex128]),
    (np.array([[200, 100, 3], [5, 9, 250]], np.uint8), [np.uint8, np.int8, np.int64]),
]


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd", "nanmean"])
@pytest.mark.parametrize("x, dtype", [pytest.param(x, d, id=f"{x.dtype}-{np.dtype(d)}")
                                      for x, ds in _SPREAD_INPUTS for d in ds])
@pytest.mark.parametrize("axis", [None, 1])
def test_variances_with_an_integer_or_complex_dtype_compute_as_numpy(name, x, dtype, axis):
    ours, numpys = getattr(fnp, name), getattr(np, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (NumPy's casts of the float deviations)
        try:
            want = numpys(x, axis=axis, dtype=dtype)
        except TypeError:  # (an inexact input to nan*, an array of integer roots)
            for call in (lambda: ours(x, axis=axis, dtype=dtype),
                         lambda: fg.jit(lambda v: ours(v, axis=axis, dtype=dtype))(x)):
                with pytest.raises(TypeError, match="dtype"):
                    call()
            return
        _equal_to_numpy(ours(x, axis=axis, dtype=dtype), np.asarray(want), ulps=4)
        _equal_to_numpy(fg.jit(lambda v: ours(v, axis=axis, dtype=dtype))(x),
                        np.asarray(want), ulps=4)


def test_an_integer_variance_has_zero_derivative_and_grad_refuses_its_integer_output():
    x = np.array([1.3, 2.7, 4.1, 0.5])
    value, g = fg.value_and_grad(lambda v: fnp.var(v, dtype=np.int64).astype(float))(x)
    assert value == 2.0 and np.array_equal(g, np.zeros(4))  # piecewise constant in x
    with pytest.raises(TypeError, match="int64"):
        fg.grad(lambda v: fnp.std(v, dtype=np.int64))(x)


@pytest.mark.parametrize("name, kwargs, message", [
    ("nanvar", dict(axis=1), "Degrees of freedom <= 0 for slice."),
    ("nanstd", dict(axis=1, ddof=1), "Degrees of freedom <= 0 for slice."),
    ("nanstd", dict(axis=0), "Degrees of freedom <= 0 for slice."),
    ("nanmean", dict(axis=1), "Mean of empty slice")])
def test_an_all_nan_slice_warns_as_numpy_and_nothing_else(name, kwargs, message):
    x = np.array([[np.nan, np.nan], [1.0, np.nan]])
    with warnings.catch_warnings(record=True) as numpys:
        warnings.simplefilter("always")
        want = getattr(np, name)(x, **kwargs)
    assert [(w.category, str(w.message)) for w in numpys] == [(RuntimeWarning, message)]

    def loss(v):
        return np.sum(np.nan_to_num(getattr(np, name)(v, **kwargs)))
    with warnings.catch_warnings(record=True) as ours:  # (the backward pass is quiet too)
        warnings.simplefilter("always")
        fg.grad(loss)(x)
        got = fg.vjp(lambda v: getattr(np, name)(v, **kwargs), x)[0]
    assert [(w.category, str(w.message)) for w in ours] == [(RuntimeWarning, message)] * 2
    np.testing.assert_array_equal(got, want)
    with warnings.catch_warnings():  # jit: the values are not known when it traces, so
        warnings.simplefilter("error")  # the NaN comes without a warning, and no other one
        np.testing.assert_array_equal(fg.jit(lambda v: getattr(np, name)(v, **kwargs))(x), want)


_STEP_METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation"]


@pytest.mark.parametrize("method", _STEP_METHODS)
def test_step_quantile_methods_equal_numpy_at_and_between_the_steps(method):
    rows = np.array([[4.0, 1.0, 3.0, 2.0, 7.0, 5.0], [2.0, np.nan, 1.0, 9.0, 3.0, 3.0]])
    q = np.concatenate([np.arange(13) / 12, [0.01, 0.37, 0.99]])  # k / n: at the steps
    for f in ("quantile", "nanquantile"):
        want = getattr(np, f)(rows, q, axis=1, method=method)
        np.testing.assert_array_equal(getattr(fnp, f)(rows, q, axis=1, method=method), want)
        np.testing.assert_array_equal(
            fg.jit(lambda r: getattr(np, f)(r, q, axis=1, method=method))(rows), want)
    ints = np.array([5, 1, 4, 2, 3], np.int16)  # a picked element keeps its dtype
    got, want = fnp.quantile(ints, q, method=method), np.quantile(ints, q, method=method)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_weighted_quantiles_equal_numpy_and_send_the_derivative_to_the_element_picked():
    x = np.array([[0.3, 0.1, 0.9, 0.5, 0.7], [2.0, 1.0, 1.0, 3.0, np.nan]])
    weights = [np.array([0.0, 0.0, 1.0, 2.0, 0.5]),  # leading zero weights never picked
               np.array([[1.0, 2.0, 0.0, 1.0, 3.0], [2.0, 1.0, 3.0, 0.0, 1.0]]),
               np.array([1, 3, 2, 1, 1])]
    q = np.array([0.0, 0.1, 0.25, 0.5, 0.6, 0.75, 1.0])
    for w in weights:
        for f in ("quantile", "nanquantile", "percentile", "nanpercentile"):
            qq = q * 100 if "per" in f else q
            wf = np.broadcast_to(w, x.shape) if "nan" in f else w  # (NumPy's nan* need it)

            def run(a):
                return getattr(np, f)(a, qq, axis=1, weights=wf, method="inverted_cdf")
            want = run(x)
            np.testing.assert_array_equal(getattr(fnp, f)(x, qq, axis=1, weights=wf,
                                                          method="inverted_cdf"), want)
            np.testing.assert_array_equal(fg.jit(run)(x), want)
    w = weights[0]
    grad = fg.grad(lambda a: np.quantile(a, 0.7, weights=w, method="inverted_cdf"))(x[0])
    # sorted: 0.1 (w 0), 0.3 (0), 0.5 (2), 0.7 (0.5), 0.9 (1): the share reaches 0.7 at 0.7
    np.testing.assert_array_equal(grad, [0.0, 0.0, 0.0, 0.0, 1.0])
    # the weights pick the element: a step function of them, zero derivative
    np.testing.assert_array_equal(
        fg.grad(lambda v: fnp.quantile(x[0], 0.7, weights=v, method="inverted_cdf"))(w),
        np.zeros(5))


@pytest.mark.parametrize("call, error, match", [
    (lambda w: np.quantile(X, 0.5, axis=1, weights=w), ValueError, "inverted_cdf"),
    (lambda w: np.quantile(X, 0.5, axis=1, weights=-w, method="inverted_cdf"), ValueError,
     "non-negative"),
    (lambda w: np.quantile(X, 0.5, axis=1, weights=0 * w, method="inverted_cdf"), ValueError,
     "all zero"),
    (lambda w: np.quantile(X, 0.5, weights=w, method="inverted_cdf"), TypeError,
     "Axis must be specified"),
    (lambda w: np.quantile(X, 0.5, axis=0, weights=w, method="inverted_cdf"), ValueError,
     "consistent"),
])
@pytest.mark.filterwarnings("ignore:invalid value encountered in divide")  # (zero weights)
def test_bad_quantile_weights_raise_as_numpy(call, error, match):
    with pytest.raises(error, match=match):
        call(W5)  # (NumPy's own refusal)
    with pytest.raises(error, match=match):
        fg.grad(lambda w: np.sum(call(w)))(W5)
