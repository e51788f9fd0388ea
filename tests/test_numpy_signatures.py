"""``funcgrad.numpy`` takes NumPy's calls: every function NumPy also has accepts NumPy's
positional order and keyword names (a listed few differ on purpose, each with its
reason), and calls written with NumPy's arguments give NumPy's values.  Expected values
come from NumPy itself."""
import inspect

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

P = inspect.Parameter

# Where funcgrad.numpy's signature differs from NumPy's on purpose.
DELIBERATE = {
    # jax.numpy's default: a cast to the same dtype returns the array itself (copy=False)
    ("astype", "copy"): "JAX's default",
    # NumPy < 2.1 called it newshape; both names are taken (shape= too), in that position
    ("reshape", "shape"): "newshape kept for NumPy 1 code",
    # None means 1 in both (np.arange(0, 5, None) is np.arange(0, 5))
    ("arange", "step"): "None means 1",
    # accepted and ignored: the contraction is pairwise in the order given
    ("einsum", "optimize"): "accepted, ignored",
}

# NumPy's ufunc keywords (out=, where=, casting=, order=, dtype=, subok=, signature=) are
# left out of funcgrad's elementwise functions, as jax.numpy does: they are the hottest
# calls of the eager tier, and np.<ufunc>(traced, ..., dtype=...) reaches funcgrad through
# __array_ufunc__ with them.  fix is NumPy's trunc with out=.
UFUNC_LIKE = {"fix"}


def _params(f):
    try:
        return list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        return None


def _pairs():
    for ours_ns, theirs_ns, prefix in [(fnp, np, ""), (fnp.linalg, np.linalg, "linalg."),
                                       (fnp.fft, np.fft, "fft."), (fnp.emath, np.emath, "emath.")]:
        for name in sorted(ours_ns.__all__):
            ours, theirs = getattr(ours_ns, name), getattr(theirs_ns, name, None)
            if theirs is None or ours is theirs or not callable(ours) or inspect.isclass(theirs) \
                    or inspect.ismodule(ours) or isinstance(theirs, np.ufunc) or name in UFUNC_LIKE:
                continue
            yield prefix + name, ours, theirs


def _differences(name, ours, theirs):
    """How a NumPy call could fail on ``ours``: positions and keywords it lacks."""
    pn, pf = _params(theirs), _params(ours)
    if pn is None or pf is None:
        return []
    by_name = {p.name: p for p in pf}
    var_kw = any(p.kind == P.VAR_KEYWORD for p in pf)
    var_pos = any(p.kind == P.VAR_POSITIONAL for p in pf)
    npos = [p for p in pn if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    fpos = [p.name for p in pf if p.kind in (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)]
    found = []
    for i, p in enumerate(npos):
        if i >= len(fpos):
            if not var_pos:
                found.append(f"position {i} ({p.name}) missing")
        elif fpos[i] != p.name and p.kind != P.POSITIONAL_ONLY \
                and (name, p.name) not in DELIBERATE:
            found.append(f"position {i} is {fpos[i]}, NumPy's is {p.name}")
    for p in pn:
        if p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD, P.POSITIONAL_ONLY) \
                or (name, p.name) in DELIBERATE:
            continue
        q = by_name.get(p.name)
        if q is None:
            if not var_kw:
                found.append(f"keyword {p.name} missing")
        elif q.kind == P.POSITIONAL_ONLY:
            found.append(f"{p.name} is positional-only")
        elif p.default is not P.empty and q.default is P.empty:
            found.append(f"{p.name} is required")
        elif p.default is not P.empty and p.default is not np._NoValue:
            try:
                same = p.default is q.default or bool(p.default == q.default)
            except (TypeError, ValueError):
                same = False
            if not same:
                found.append(f"{p.name} defaults to {q.default!r}, NumPy's to {p.default!r}")
    return found


def test_every_function_numpy_also_has_takes_numpys_arguments():
    gaps = {name: d for name, ours, theirs in _pairs() if (d := _differences(name, ours, theirs))}
    assert not gaps, gaps


def test_the_deliberate_differences_still_exist():
    # (a difference fixed later should leave the list, so the list stays true)
    for (name, parameter), _ in DELIBERATE.items():
        ours, theirs = getattr(fnp, name), getattr(np, name)
        pn = {p.name: p for p in _params(theirs)}
        pf = {p.name: p for p in _params(ours)}
        assert parameter in pn
        assert parameter not in pf or pf[parameter].default != pn[parameter].default \
            or list(pf).index(parameter) != list(pn).index(parameter), (name, parameter)


# --- calls with NumPy's arguments give NumPy's values -------------------------------------------

X = np.arange(6.0).reshape(2, 3)


@pytest.mark.parametrize("name", ["zeros_like", "ones_like", "empty_like"])
def test_like_constructors_take_numpys_order_subok_shape_and_jaxs_shape(name):
    ours, theirs = getattr(fnp, name), getattr(np, name)
    for args in [(X, np.float32, "F", True, (3, 2)), (X, None, "C"), (X.T, None, "K"),
                 (X, int, "A", False)]:
        got, want = ours(*args), theirs(*args)
        assert got.shape == want.shape and got.dtype == want.dtype
        assert got.flags.f_contiguous == want.flags.f_contiguous, args
        if name != "empty_like":
            np.testing.assert_array_equal(got, want)
    got = ours(X, None, (4,))  # jax.numpy's third positional
    assert got.shape == (4,) and got.dtype == X.dtype
    traced = fg.jit(lambda v: theirs(v, np.float32, "F", True, (3,)) + 1.0)(X)  # plain NumPy
    assert traced.shape == (3,) and traced.dtype == np.float32


def test_full_like_takes_numpys_positions_and_jaxs_shape():
    got, want = fnp.full_like(X, 2.5, None, "F", True, (2, 2)), np.full_like(X, 2.5, None, "F",
                                                                             True, (2, 2))
    np.testing.assert_array_equal(got, want)
    assert got.flags.f_contiguous
    np.testing.assert_array_equal(fnp.full_like(X, 1.0, np.float32, (3,)), np.ones(3, np.float32))
    assert float(fg.grad(lambda g: fnp.sum(fnp.full_like(X, g, None, "C", True, (2,))))(1.0)) == 2.0


def test_array_and_asarray_take_numpys_keywords():
    nested = [[1.0, 2.0], [3.0, 4.0]]
    for kwargs in [dict(subok=True), dict(ndmax=2), dict(like=np.empty(0)),
                   dict(copy=True, order="F", subok=False, ndmin=3, ndmax=3)]:
        got, want = fnp.array(nested, **kwargs), np.array(nested, **kwargs)
        assert got.shape == want.shape and got.flags.f_contiguous == want.flags.f_contiguous
        np.testing.assert_array_equal(got, want)
    with pytest.raises(TypeError, match="ndmax=1 .*object array"):
        fnp.array(nested, ndmax=1)
    for name in ("asarray", "asanyarray", "ascontiguousarray", "asfortranarray"):
        got, want = getattr(fnp, name)(X.T, like=np.empty(0)), getattr(np, name)(X.T, like=np.empty(0))
        assert got.flags.c_contiguous == want.flags.c_contiguous
        np.testing.assert_array_equal(got, want)
    g = fg.grad(lambda v: fnp.sum(fnp.asarray(v, like=np.empty(0)) * 2.0))(X)
    np.testing.assert_array_equal(g, np.full_like(X, 2.0))


def test_broadcasting_takes_subok():
    np.testing.assert_array_equal(fnp.broadcast_to(X[0], (2, 3), True),
                                  np.broadcast_to(X[0], (2, 3), True))
    for got, want in zip(fnp.broadcast_arrays(X, X[0], subok=True),
                         np.broadcast_arrays(X, X[0], subok=True)):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call", [
    lambda m, out: m.clip(X, 1.0, 4.0, out),
    lambda m, out: m.clip(X, min=1.0, max=4.0, out=out),
    lambda m, out: m.cumulative_sum(X, axis=1, out=out),
    lambda m, out: m.cumulative_prod(X[0] + 1, out=out, include_initial=True),
    lambda m, out: m.einsum("ij,kj->ik", X, X, out=out),
    lambda m, out: m.fft.fft(X, None, -1, None, out),
    lambda m, out: m.fft.rfftn(X, None, None, "ortho", out),
    lambda m, out: m.fft.irfft2(X, None, (-2, -1), "forward", out=out),
])
def test_out_in_numpys_place_gives_numpys_value_and_writes_a_plain_array(call):
    want = call(np, None)
    np.testing.assert_allclose(call(fnp, None), want, rtol=1e-13, atol=1e-12)
    out = np.empty_like(want)
    assert call(fnp, out) is out
    np.testing.assert_allclose(out, want, rtol=1e-13, atol=1e-12)


def test_positional_orders_numpy_code_relies_on():
    a, w = np.array([0.1, 0.4, 0.45, 0.9]), np.array([1.0, 2.0, 3.0, 4.0])
    for got, want in zip(fnp.histogram(a, 3, (0.0, 1.0), True, w),
                         np.histogram(a, 3, (0.0, 1.0), True, w)):
        np.testing.assert_allclose(got, want, rtol=1e-15)
    np.testing.assert_array_equal(fnp.arange(1, 7, None), np.arange(1, 7, None))
    np.testing.assert_array_equal(fnp.reshape(X, (3, 2), "F"), np.reshape(X, (3, 2), "F"))
    np.testing.assert_array_equal(fnp.reshape(X, shape=(3, 2)), np.reshape(X, shape=(3, 2)))
    x = np.array([1.5, -2.0])
    assert fnp.astype(x, np.float64) is x and np.astype(x, np.float64) is not x  # (JAX's copy)
