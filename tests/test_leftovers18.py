"""Session 18's leftovers from the hostile-input fuzz: overflow in jitted cumprod, interp
with infinite knots, arrays of 33-64 dimensions, NumPy's and PyTorch's errors for bad
arguments, and PyTorch's dim 0 / -1 on 0-d tensors."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

# --- cumprod: NumPy's sequential product, overflow included -----------------------------------

OVERFLOWING = [
    np.array([1e200, 1e200, 1e-200, 1e-200]),  # a reassociated scan: inf * 0 = NaN last
    np.array([1e200, -1e200] * 8),
    np.array([1e200, 1e200, 0.0, 1e-200, 5.0]),
    np.array([1e-200, 1e-200, 1e200, 1e200, -3.0]),  # underflow to 0 first
]


@pytest.mark.parametrize("x", OVERFLOWING, ids=["inf-then-small", "alternating", "zero",
                                                "underflow"])
def test_cumprod_gives_numpys_inf_nan_and_zero_under_every_transform(x):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = np.cumprod(x)
        np.testing.assert_array_equal(fg.jit(fnp.cumprod)(x), want)
        np.testing.assert_array_equal(fg.jit(lambda a: np.cumprod(a))(x), want)
        np.testing.assert_array_equal(fg.jvp(fnp.cumprod, (x,), (np.ones_like(x),))[0], want)
        np.testing.assert_array_equal(fg.vmap(fnp.cumprod)(np.stack([x, x])), [want, want])
        rows = np.stack([x, x[::-1]], axis=1)
        np.testing.assert_array_equal(fg.jit(lambda a: fnp.cumprod(a, axis=0))(rows),
                                      np.cumprod(rows, axis=0))


def test_cumprod_derivatives_stay_exact_with_zeros():
    x = np.array([2.0, 0.0, 3.0, -1.5, 0.5])
    others = np.array([[np.prod(np.delete(x[:i + 1], j)) if j <= i else 0.0
                        for j in range(5)] for i in range(5)])
    np.testing.assert_array_equal(fg.jacfwd(fnp.cumprod)(x), others)
    np.testing.assert_array_equal(fg.jacrev(fnp.cumprod)(x), others)
    np.testing.assert_array_equal(fg.jit(fg.jacrev(fnp.cumprod))(x), others)


# --- arrays of 33 to 64 dimensions (NumPy 2 allows 64; np.broadcast_shapes stops at 32) -----

def _many_dims(ndim):
    a = np.linspace(0.5, 1.5, 2).reshape((1,) * (ndim - 1) + (2,))
    b = np.linspace(-1.0, 2.0, 3).reshape((1,) * (ndim - 2) + (3, 1))
    return a, b


@pytest.mark.parametrize("ndim", [33, 40, 64])
def test_arrays_of_up_to_64_dimensions_compute_what_numpy_computes(ndim):
    a, b = _many_dims(ndim)
    full = b.shape[:-1] + (2,)
    cases = [
        (lambda m: m.add(a, b), a + b),
        (lambda m: m.where(a > 1.0, a, b), np.where(a > 1.0, a, b)),
        (lambda m: m.broadcast_to(a, full), np.broadcast_to(a, full)),
        (lambda m: m.mean(a, where=a > 1.0), np.mean(a, where=a > 1.0)),
        (lambda m: m.clip(a, b, 1.2), np.clip(a, b, 1.2)),
        (lambda m: m.tile(a, 2), np.tile(a, 2)),
        (lambda m: m.repeat(b, 2, axis=-2), np.repeat(b, 2, axis=-2)),
        (lambda m: m.asarray(b)[..., np.array([0, 2, 2]), :], b[..., [0, 2, 2], :]),
    ]
    for f, want in cases:
        got = f(fnp)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    # (NumPy's broadcast_shapes and broadcast_arrays refuse more than 32 dimensions)
    assert fnp.broadcast_shapes(a.shape, b.shape) == (a + b).shape
    np.testing.assert_array_equal(fnp.broadcast_arrays(a, b)[1], b + 0 * a)
    # shapes that do not fit: NumPy's message, as np.broadcast_shapes words it below 33
    wrong = (1,) * (ndim - 1) + (3,)
    with pytest.raises(ValueError, match=r"shape mismatch: objects cannot be broadcast to a "
                                         r"single shape.  Mismatch is between arg 0 with "
                                         r"shape \(1, .*2\) and arg 1 with shape \(1, .*3\)\."):
        fnp.broadcast_shapes(a.shape, wrong)
    for f in (fg.grad(lambda x: fnp.sum(x * np.ones(wrong))),
              fg.jit(lambda x: x * np.ones(wrong))):
        with pytest.raises(ValueError, match=r"broadcast"):
            f(a)


@pytest.mark.parametrize("ndim", [33, 64])
def test_transforms_of_arrays_of_up_to_64_dimensions(ndim):
    a, b = _many_dims(ndim)
    want = np.cos(a) * np.sum(b, axis=-2, keepdims=True)
    f = lambda x: fnp.sum(fnp.sin(x) * b)  # noqa: E731
    np.testing.assert_allclose(fg.grad(f)(a), want, rtol=1e-14)
    np.testing.assert_allclose(fg.jit(fg.grad(f))(a), want, rtol=1e-14)
    np.testing.assert_allclose(fg.jit(lambda x: fnp.sin(x) * b)(a), np.sin(a) * b, rtol=1e-14)
    np.testing.assert_allclose(fg.vmap(lambda x: x * b[0])(a), a * b[0])
    picked = fg.grad(lambda x: fnp.sum(x[..., np.array([0, 2, 2]), :]))(b)  # scatter-add
    np.testing.assert_array_equal(picked.reshape(3), [1.0, 0.0, 2.0])
    t = fg.Tensor(a, requires_grad=True)
    (t * fg.Tensor(b)).sum().backward()
    summed = np.broadcast_to(b.sum(axis=-2, keepdims=True), a.shape)
    np.testing.assert_array_equal(np.asarray(t.grad), summed)


def test_ufunc_at_with_more_than_32_dimensions_does_not_crash_the_interpreter():
    # NumPy's own ufunc.at segfaults there: run in a child so the old code fails, not aborts
    code = """
import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
out = np.zeros(3)
fnp.add.at(out, np.zeros((1,) * 33, int), np.ones((1,) * 33))
rows = (Ellipsis, np.array([0, 2, 2]), slice(None))
deep = np.ones((1,) * 31 + (3, 1))
fnp.multiply.at(deep, rows, 2.0)
top = fnp.at(np.zeros((1,) * 31 + (3, 1)))[rows].max(np.array([1.0, 5.0, 2.0])[:, None])
g = fg.grad(lambda x: fnp.sum(fnp.at(x)[rows].add(x[rows] ** 2)))(deep)
print(out.tolist(), deep.ravel().tolist(), top.ravel().tolist(), g.ravel().tolist())
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split("\n")[0] == ("[1.0, 0.0, 0.0] [2.0, 1.0, 4.0] [1.0, 0.0, 5.0] "
                                          "[5.0, 1.0, 17.0]")


# --- bad arguments: what NumPy and PyTorch raise (or return) ----------------------------------

def test_histogram_with_no_bin_edges_returns_numpys_empty_histogram():
    x = np.arange(6.0)
    for kwargs in ({}, {"weights": x}, {"density": True}):
        pairs = zip(fnp.histogram(x, bins=[], **kwargs), np.histogram(x, bins=[], **kwargs))
        for got, want in pairs:
            assert got.shape == (0,) and got.dtype == want.dtype


@pytest.mark.parametrize("n", [5, 6])
@pytest.mark.parametrize("sections", [2, 2.5, 3.0, -1, 0, [4, 2], np.int64(3)])
def test_split_and_array_split_of_a_count_as_numpy(n, sections):
    x = np.arange(float(n))
    for name in ("split", "array_split"):
        try:
            want = [list(p) for p in getattr(np, name)(x, sections)]
        except Exception as error:  # noqa: BLE001 - NumPy's exception type is the spec
            with pytest.raises(type(error)) as raised:
                getattr(fnp, name)(x, sections)
            if isinstance(error, ValueError):  # (NumPy's ZeroDivisionError names no split)
                assert str(error).split(".")[0] in str(raised.value)
        else:
            assert [list(p) for p in getattr(fnp, name)(x, sections)] == want


def test_vander_with_negative_columns_raises_numpys_value_error():
    with pytest.raises(ValueError, match="negative dimensions are not allowed.*N >= 0"):
        fnp.vander(np.arange(3.0), -1)
    assert fnp.vander(np.arange(3.0), 0).shape == (3, 0)


def test_tensor_unfold_checks_size_and_step_as_pytorch():
    t = fg.tensor(np.arange(6.0))
    for args, message in [((0, -1, 1), "size is -1 but must be >= 0"),
                          ((0, -1, -1), "size is -1 but must be >= 0"),
                          ((0, 2, -1), "step is -1 but must be > 0"),
                          ((0, 7, -1), "maximum size for tensor at dimension 0 is 6 but "
                                       "size is 7")]:
        with pytest.raises(RuntimeError, match=message):
            t.unfold(*args)
    assert t.unfold(0, 0, 1).shape == (7, 0)
    scalar = fg.tensor(2.0)
    assert scalar.unfold(0, 0, 1).shape == (0,) and scalar.unfold(0, 1, 1).tolist() == [2.0]
    with pytest.raises(RuntimeError, match="size is -1 but must be >= 0"):
        scalar.unfold(0, -1, 1)


_X23 = np.ones((2, 3))


@pytest.mark.parametrize("call", [
    lambda m: m.average(_X23, axis=3), lambda m: m.average(_X23, axis=(0, 3)),
    lambda m: m.average(_X23, axis=3, weights=np.ones(3)), lambda m: m.average(_X23, axis=(0, 0)),
    lambda m: m.moveaxis(_X23, 3, 0), lambda m: m.moveaxis(_X23, 0, -3),
    lambda m: m.moveaxis(_X23, [0, 0], [0, 1]), lambda m: m.moveaxis(_X23, [0, 1], [1, 1]),
    lambda m: m.moveaxis(_X23, [0, 1], [1]),
    lambda m: m.swapaxes(_X23, 3, 0), lambda m: m.swapaxes(_X23, 0, -3),
], ids=["average", "average-tuple", "average-weights", "average-repeated", "moveaxis-source",
        "moveaxis-destination", "moveaxis-repeated-source", "moveaxis-repeated-destination",
        "moveaxis-lengths", "swapaxes-axis1", "swapaxes-axis2"])
def test_axis_errors_carry_numpys_argument_prefixes(call):
    with pytest.raises(Exception) as numpy_raised:
        call(np)
    with pytest.raises(type(numpy_raised.value)) as raised:
        call(fnp)
    assert str(raised.value) == str(numpy_raised.value)
    assert getattr(raised.value, "axis", None) == getattr(numpy_raised.value, "axis", None)


# --- PyTorch's dims of a 0-d Tensor: 0 and -1 name its one element ----------------------------

_ON_SCALAR = {  # method: call with a dim
    "sum": lambda t, d: t.sum(d), "sum-keepdim": lambda t, d: t.sum(d, True),
    "mean": lambda t, d: t.mean(d), "prod": lambda t, d: t.prod(d),
    "max": lambda t, d: t.max(d), "min": lambda t, d: t.min(d), "amax": lambda t, d: t.amax(d),
    "amin": lambda t, d: t.amin(d), "aminmax": lambda t, d: t.aminmax(dim=d),
    "argmax": lambda t, d: t.argmax(d), "argmin": lambda t, d: t.argmin(d),
    "std": lambda t, d: t.std(d), "var": lambda t, d: t.var(d, correction=0),
    "sort": lambda t, d: t.sort(d), "argsort": lambda t, d: t.argsort(d),
    "cumsum": lambda t, d: t.cumsum(d), "cumprod": lambda t, d: t.cumprod(d),
    "cummax": lambda t, d: t.cummax(d), "cummin": lambda t, d: t.cummin(d),
    "logcumsumexp": lambda t, d: t.logcumsumexp(d), "logsumexp": lambda t, d: t.logsumexp(d),
    "softmax": lambda t, d: t.softmax(d), "log_softmax": lambda t, d: t.log_softmax(d),
    "median": lambda t, d: t.median(d), "nanmedian": lambda t, d: t.nanmedian(d),
    "mode": lambda t, d: t.mode(d), "kthvalue": lambda t, d: t.kthvalue(1, d),
    "topk": lambda t, d: t.topk(1, d), "quantile": lambda t, d: t.quantile(0.5, d),
    "nansum": lambda t, d: t.nansum(d), "nanmean": lambda t, d: t.nanmean(d),
    "norm": lambda t, d: t.norm(dim=d), "all": lambda t, d: t.all(d),
    "any": lambda t, d: t.any(d), "count_nonzero": lambda t, d: t.count_nonzero(d),
}


def _parts(out):
    return list(out) if isinstance(out, tuple) else [out]


@pytest.mark.parametrize("name", sorted(_ON_SCALAR))
def test_dims_of_a_0d_tensor_as_pytorch(name):
    torch = pytest.importorskip("torch")
    call = _ON_SCALAR[name]
    for dim in (0, -1):
        x = fg.tensor(2.5, requires_grad=True)
        want_x = torch.tensor(2.5, requires_grad=True)
        got, want = _parts(call(x, dim)), _parts(call(want_x, dim))
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert g.shape == tuple(w.shape) == ()
            assert str(g.dtype).split(".")[-1] == str(w.dtype).split(".")[-1]
            np.testing.assert_allclose(g.detach().numpy(), w.detach().numpy(), rtol=1e-6)
        if want[0].requires_grad:
            got[0].backward()
            want[0].backward()
            np.testing.assert_allclose(x.grad.numpy(), want_x.grad.numpy(), rtol=1e-6)
    for dim in (1, -2):
        with pytest.raises(IndexError, match=rf"Dimension out of range \(expected to be in "
                                             rf"range of \[-1, 0\], but got {dim}\)"):
            call(fg.tensor(2.5), dim)


def test_scans_of_a_0d_tensor_stay_0d_without_torch():
    x = fg.tensor(2.5, requires_grad=True)
    y = x.cumsum(0)
    assert y.shape == () and y.item() == 2.5
    values, indices = x.sort(-1)
    assert values.shape == indices.shape == () and indices.item() == 0
    (y * 3.0).backward()
    assert x.grad.item() == 3.0
    assert fg.tensor(np.arange(3.0)).cumsum(0).shape == (3,)  # (other ranks untouched)
