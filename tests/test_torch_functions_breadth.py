"""PyTorch's functions and Tensor methods that funcgrad lacked before session 14
(``cdist``, ``var_mean``, ``searchsorted``, ``*_scatter``, ``histc``, ``complex``...):
values, dtypes, gradients and error kinds.  Each test runs on funcgrad and, where it is
installed, on torch itself (the ``lib`` fixture), so the expectation is PyTorch's.
Expected numbers are worked out by hand in the comments."""
import numpy as np
import pytest

from helpers import values


def dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def test_cdist_values_and_the_zero_gradient_at_zero_distance(lib):
    a = lib.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)
    d = lib.cdist(a, a)
    assert values(d).tolist() == [[0.0, 5.0], [5.0, 0.0]]
    d.sum().backward()
    # d(a0, a1) = 5 appears twice; its gradient is -(a1 - a0)/5 = (-0.6, -0.8) for a0,
    # twice; the zero distances contribute 0 (not NaN)
    np.testing.assert_allclose(values(a.grad), [[-1.2, -1.6], [1.2, 1.6]], rtol=1e-6)
    assert values(lib.cdist(a, a[:1], p=1)).tolist() == [[0.0], [7.0]]
    assert values(lib.cdist(a, a[:1], p=float("inf"))).tolist() == [[0.0], [4.0]]


def test_var_mean_and_std_mean(lib):
    x = lib.tensor([[1.0, 3.0], [2.0, 6.0]])
    var, mean = lib.var_mean(x, 1)
    assert values(var).tolist() == [2.0, 8.0] and values(mean).tolist() == [2.0, 4.0]
    var, mean = lib.var_mean(x, dim=0, correction=0)
    assert values(var).tolist() == [0.25, 2.25] and values(mean).tolist() == [1.5, 4.5]
    std, mean = lib.std_mean(x)  # mean 3, squares 4 + 0 + 1 + 9 = 14, / 3
    np.testing.assert_allclose(values(std), np.sqrt(14 / 3), rtol=1e-6)


def test_searchsorted_and_bucketize(lib):
    edges = lib.tensor([1.0, 2.0, 3.0])
    x = lib.tensor([2.0, 0.5, 3.5])
    assert values(lib.searchsorted(edges, x)).tolist() == [1, 0, 3]
    assert values(lib.searchsorted(edges, x, right=True)).tolist() == [2, 0, 3]
    assert dtype_name(lib.searchsorted(edges, x)) == "int64"
    assert dtype_name(lib.searchsorted(edges, x, out_int32=True)) == "int32"
    assert values(lib.bucketize(x, edges)).tolist() == [1, 0, 3]
    rows = lib.tensor([[1.0, 2.0], [10.0, 20.0]])
    assert values(lib.searchsorted(rows, lib.tensor([[1.5], [25.0]]))).tolist() == [[1], [2]]


def test_trapezoid_rules(lib):
    y = lib.tensor([1.0, 2.0, 4.0], requires_grad=True)
    assert float(lib.trapezoid(y)) == 4.5  # (1 + 2) / 2 + (2 + 4) / 2
    assert float(lib.trapz(y, dx=2.0)) == 9.0
    assert values(lib.cumulative_trapezoid(y)).tolist() == [1.5, 4.5]
    lib.trapezoid(y).backward()
    assert values(y.grad).tolist() == [0.5, 1.0, 0.5]


def test_block_diag_cartesian_prod_combinations(lib):
    out = lib.block_diag(lib.tensor([[1.0]]), lib.tensor([2.0, 3.0]))
    assert values(out).tolist() == [[1.0, 0.0, 0.0], [0.0, 2.0, 3.0]]
    assert values(lib.cartesian_prod(lib.tensor([1, 2]), lib.tensor([3]))).tolist() == \
        [[1, 3], [2, 3]]
    assert values(lib.combinations(lib.tensor([1, 2, 3]))).tolist() == [[1, 2], [1, 3], [2, 3]]
    assert values(lib.combinations(lib.tensor([1, 2]), with_replacement=True)).tolist() == \
        [[1, 1], [1, 2], [2, 2]]


def test_scatter_copies_and_their_gradients(lib):
    x = lib.zeros(2, 3, requires_grad=True)
    src = lib.ones(2, 2, requires_grad=True)
    out = lib.slice_scatter(x, src, dim=1, start=1)
    assert values(out).tolist() == [[0.0, 1.0, 1.0], [0.0, 1.0, 1.0]]
    (out * lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    assert values(x.grad).tolist() == [[1.0, 0.0, 0.0], [4.0, 0.0, 0.0]]
    assert values(src.grad).tolist() == [[2.0, 3.0], [5.0, 6.0]]
    sq = lib.zeros(2, 2)
    assert values(sq.select_scatter(lib.ones(2), 0, 1)).tolist() == [[0.0, 0.0], [1.0, 1.0]]
    assert values(sq.diagonal_scatter(lib.ones(1), 1)).tolist() == [[0.0, 1.0], [0.0, 0.0]]


def test_complex_numbers(lib):
    re, im = lib.tensor([1.0]), lib.tensor([2.0])
    z = lib.complex(re, im)
    assert dtype_name(z) == "complex64" and values(z).tolist() == [1 + 2j]
    assert values(lib.view_as_real(z)).tolist() == [[1.0, 2.0]]
    assert values(lib.view_as_complex(lib.tensor([[1.0, 2.0]]))).tolist() == [1 + 2j]
    assert values(lib.real(z)).tolist() == [1.0] and values(lib.imag(z)).tolist() == [2.0]
    np.testing.assert_allclose(values(lib.polar(lib.tensor([2.0]), lib.tensor([np.pi / 2]))),
                               [2j], atol=1e-6)
    with pytest.raises(RuntimeError):
        lib.imag(re)


def test_counting(lib):
    assert values(lib.tensor([1.0, 2.0, 1.0]).histc(bins=4, min=0, max=3)).tolist() == \
        [0.0, 2.0, 1.0, 0.0]
    assert values(lib.bincount(lib.tensor([0, 1, 1, 3]))).tolist() == [1, 2, 0, 1]
    counts = lib.bincount(lib.tensor([0, 2]), weights=lib.tensor([0.5, 1.5]))
    assert dtype_name(counts) == "float32" and values(counts).tolist() == [0.5, 0.0, 1.5]


def test_dtype_shorthands_and_questions(lib):
    x = lib.tensor([1.5, -2.5])
    assert dtype_name(x.byte()) == "uint8" and dtype_name(x.short()) == "int16"
    assert dtype_name(x.char()) == "int8" and dtype_name(x.cfloat()) == "complex64"
    assert dtype_name(x.cdouble()) == "complex128"
    assert str(lib.promote_types(lib.float32, lib.int64)).endswith("float32")
    assert str(lib.result_type(lib.tensor([1, 2]), 1.0)).endswith("float32")
    assert lib.can_cast(lib.float64, lib.float32) and not lib.can_cast(lib.float32, lib.int32)
    assert not x.is_conj() and not x.is_neg() and x.resolve_conj() is x


def test_small_elementwise_additions(lib):
    x = lib.tensor([-1.0, 0.25, 0.75], requires_grad=True)
    assert values(x.hardshrink()).tolist() == [-1.0, 0.0, 0.75]
    assert values(lib.rsub(x, 1.0)).tolist() == [2.0, 0.75, 0.25]
    assert values(lib.prelu(x, lib.tensor([0.5]))).tolist() == [-0.5, 0.25, 0.75]
    mantissa, exponent = lib.frexp(lib.tensor([8.0, 0.75], requires_grad=True))
    assert values(mantissa).tolist() == [0.5, 0.75] and values(exponent).tolist() == [4, 0]
    assert dtype_name(exponent) == "int32"
    assert values(lib.gcd(lib.tensor([4, 6]), lib.tensor([6, 9]))).tolist() == [2, 3]
    assert values(lib.pow(2.0, lib.tensor([3.0]))).tolist() == [8.0]
    lib.nextafter(x, lib.zeros(3)).sum().backward()
    assert values(x.grad).tolist() == [1.0, 1.0, 1.0]  # PyTorch's: the step is constant


def test_atleast_and_dstack(lib):
    x = lib.tensor([1.0, 2.0])
    assert lib.atleast_1d(x) is x
    assert tuple(lib.atleast_2d(x).shape) == (1, 2)
    assert tuple(lib.atleast_3d(x).shape) == (1, 2, 1)
    assert tuple(lib.dstack([x, x]).shape) == (1, 2, 2)


@pytest.mark.parametrize("bad", [
    lambda lib, a: lib.cat([a, a[:, :2]]),
    lambda lib, a: lib.stack([a, a[:1]]),
    lambda lib, a: a.reshape(5, -1),
    lambda lib, a: a @ a,
])
def test_shape_errors_are_runtime_errors(lib, bad):
    with pytest.raises(RuntimeError):
        bad(lib, lib.ones(2, 3))


def test_functional_jacobian_refuses_strict_with_vectorize_and_unknown_strategies(lib):
    jacobian = lib.autograd.functional.jacobian
    x = lib.tensor([1.0, 2.0])
    with pytest.raises(RuntimeError, match="`strict=True` and `vectorized=True` are not "
                                           "supported together"):
        jacobian(lambda t: t * 2, x, strict=True, vectorize=True)
    with pytest.raises(AssertionError, match="Expected strategy to be either"):
        jacobian(lambda t: t * 2, x, strategy="sideways")


def test_gather_past_the_end_is_a_runtime_error(lib):
    with pytest.raises(RuntimeError, match="out of bounds"):
        lib.ones(2, 3).gather(1, lib.tensor([[5]]))


def test_mean_of_an_integer_tensor_is_an_error_and_of_a_float_one_not(lib):
    with pytest.raises(RuntimeError, match="could not infer output dtype"):
        lib.tensor([1, 2]).mean()
    assert float(lib.tensor([1, 2]).float().mean()) == 1.5
    assert float(lib.tensor([1, 2]).mean(dtype=lib.float64)) == 1.5
