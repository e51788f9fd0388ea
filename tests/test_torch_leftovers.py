"""PyTorch's conventions the side-by-side runs of session 15 found funcgrad's Tensor
breaking: negative indices in gather/scatter/index_*, ``Tensor.view(dtype)``, a view
made under ``no_grad`` whose base then changes in place.  Each test states PyTorch's
behaviour (expected values worked out by hand) and runs on funcgrad and, where it is
installed, on torch itself (the ``lib`` fixture)."""
import numpy as np
import pytest

from helpers import leaf, values


def _matrix(lib, requires_grad=False):
    return lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=requires_grad)


# --- negative indices: PyTorch refuses them in gather/scatter/index_* (NumPy would wrap) ------

REFUSING = {
    "gather": lambda lib, x, i: x.gather(1, i.reshape(2, 1).expand(2, 2)),
    "scatter": lambda lib, x, i: x.scatter(1, i.reshape(2, 1), 0.0),
    "scatter_src": lambda lib, x, i: x.scatter(1, i.reshape(2, 1), lib.ones(2, 1)),
    "scatter_add": lambda lib, x, i: x.scatter_add(1, i.reshape(2, 1), lib.ones(2, 1)),
    "scatter_reduce": lambda lib, x, i: x.scatter_reduce(1, i.reshape(2, 1), lib.ones(2, 1),
                                                         "sum"),
    "index_select": lambda lib, x, i: x.index_select(1, i),
    "index_add": lambda lib, x, i: x.index_add(1, i, lib.ones(2, 2)),
}


@pytest.mark.parametrize("name", sorted(REFUSING))
def test_negative_index_is_refused_where_pytorch_refuses_it(lib, name):
    x = _matrix(lib, requires_grad=True)
    with pytest.raises(RuntimeError):
        REFUSING[name](lib, x, lib.tensor([-1, 0]))
    with pytest.raises(RuntimeError):  # past the end, as before
        REFUSING[name](lib, x, lib.tensor([3, 0]))


def test_index_copy_refuses_a_negative_index_with_an_index_error(lib):
    x = _matrix(lib)
    with pytest.raises(IndexError, match="index -1 is out of bounds for dimension 1 with size 3"):
        x.index_copy(1, lib.tensor([-1]), lib.ones(2, 1))


def test_the_error_names_the_index_outside_not_the_largest(lib):
    x = _matrix(lib)
    with pytest.raises(RuntimeError, match="index -4 is out of bounds for dimension 1 "
                                           "with size 3"):
        x.gather(1, lib.tensor([[-4, 1], [0, 1]]))


def test_index_fill_counts_a_negative_index_from_the_end(lib):
    x = _matrix(lib)
    assert values(x.index_fill(1, lib.tensor([-1]), 0.0)).tolist() == [[1, 2, 0], [4, 5, 0]]
    with pytest.raises(IndexError):
        x.index_fill(1, lib.tensor([-4]), 0.0)
    with pytest.raises(IndexError):
        x.index_fill(1, lib.tensor([3]), 0.0)


def test_take_and_take_along_dim_and_indexing_still_wrap(lib):
    x = _matrix(lib)
    assert values(lib.take(x, lib.tensor([-1, 0]))).tolist() == [6, 1]
    assert values(lib.take_along_dim(x, lib.tensor([[-1], [0]]), dim=1)).tolist() == [[3], [4]]
    assert values(x[:, lib.tensor([-1, 0])]).tolist() == [[3, 1], [6, 4]]


def test_gather_with_valid_indices_still_differentiates(lib):
    x = _matrix(lib, requires_grad=True)
    x.gather(1, lib.tensor([[2, 2], [0, 1]])).sum().backward()
    assert values(x.grad).tolist() == [[0, 0, 2], [1, 1, 0]]


# --- Tensor.view(dtype): the bytes reinterpreted, not differentiable --------------------------

def test_view_dtype_reinterprets_the_bytes(lib):
    x = lib.tensor([1.0, -2.0], dtype=lib.float32)
    # IEEE 754: 1.0f is 0x3f800000, -2.0f is 0xc0000000
    assert values(x.view(lib.int32)).tolist() == [0x3F800000, 0xC0000000 - 2 ** 32]
    assert x.view(lib.int16).shape == (4,)  # a smaller element: the last axis grows
    assert x.view(lib.uint8).shape == (8,)
    wide = lib.tensor([[1.0, 2.0]], dtype=lib.float32).view(lib.float64)
    assert wide.shape == (1, 1) and wide.dtype == lib.float64
    assert values(wide.view(lib.float32)).tolist() == [[1.0, 2.0]]


def test_view_dtype_needs_a_last_axis_the_ratio_divides(lib):
    with pytest.raises(RuntimeError, match="must be divisible by 2 to view Float as Double"):
        lib.tensor([1.0, 2.0, 3.0], dtype=lib.float32).view(lib.float64)
    with pytest.raises(RuntimeError, match="cannot be 0"):
        lib.tensor(1.0, dtype=lib.float32).view(lib.int16)


def test_view_dtype_is_not_differentiable(lib):
    x = leaf(lib)
    for dtype in (lib.int32, x.dtype):
        y = x.view(dtype)
        assert not y.requires_grad and y.grad_fn is None
    with lib.no_grad():
        assert not x.view(lib.int32).requires_grad
    with pytest.raises(RuntimeError, match="does not require grad"):
        x.view(x.dtype).sum().backward()


def test_view_dtype_follows_an_in_place_update_of_its_base(lib):
    x = lib.tensor([1.0, 2.0], dtype=lib.float32)
    bits = x.view(lib.int32)
    x.mul_(2.0)  # 2.0f is 0x40000000, 4.0f 0x40800000
    assert values(bits).tolist() == [0x40000000, 0x40800000]


def test_view_dtype_in_place_update_is_refused_in_funcgrad():
    import funcgrad as fg
    x = fg.tensor([1.0, 2.0], dtype=fg.float32)
    with pytest.raises(RuntimeError, match=r"view\(int32\).*clone\(\)"):
        x.view(fg.int32).zero_()  # (PyTorch writes the zeros into x's bytes)
    assert values(x).tolist() == [1.0, 2.0]


def test_view_with_sizes_still_checks_them(lib):
    with pytest.raises(TypeError):
        lib.ones(2, 3).view(2, 3.0)


# --- a view made under no_grad, its base changed in place with gradients on -----------------

def _stale_view(lib):
    x = leaf(lib)
    y = x * 2
    with lib.no_grad():
        v = y[:2]
    y.add_(1)
    return x, y, v


@pytest.mark.parametrize("use", ["multiply", "sum_backward", "clone"])
def test_no_grad_view_of_a_base_changed_in_place_cannot_be_used_with_gradients_on(lib, use):
    # PyTorch: whether gradients should reach y's new graph through v is ambiguous, so
    # it refuses; funcgrad let v pass as a leaf, and the gradient to x was silently lost
    x, y, v = _stale_view(lib)
    with pytest.raises(RuntimeError, match="its base or another view of its base has been "
                                           "modified inplace with grad mode enabled"):
        if use == "multiply":
            v * 2
        elif use == "sum_backward":
            v.sum().backward()
        else:
            v.clone()


def test_no_grad_view_of_a_base_changed_in_place_is_read_freely_under_no_grad(lib):
    x, y, v = _stale_view(lib)
    assert v.requires_grad
    with lib.no_grad():
        # y = 2x + 1 = [3, 5, 7]: v shows the update
        assert values(v * 2).tolist() == [6.0, 10.0]
    assert "Invalid" in repr(v)


def test_no_grad_view_of_a_base_changed_in_place_under_no_grad_is_refused_too(lib):
    # (PyTorch: any in-place change of the base, or of the view itself, after a view was
    # made under no_grad, whatever the grad mode of the change)
    for change in ("base", "view", "leaf"):
        x = leaf(lib)
        y = x if change == "leaf" else x * 2
        with lib.no_grad():
            v = y[:2]
            (v if change == "view" else y).add_(1)
            assert values(v * 2).tolist() == ([4.0, 6.0] if change == "leaf" else [6.0, 10.0])
        with pytest.raises(RuntimeError, match="modified inplace"):
            v * 2


def test_no_grad_view_is_fine_without_an_update(lib):
    x = leaf(lib)
    y = x * 2
    with lib.no_grad():
        v = y[:2]
    (v * 2).sum().backward()
    assert x.grad is None  # (it never reaches x: PyTorch's "view created in no_grad mode")
    np.testing.assert_array_equal(values(v), [2.0, 4.0])


# --- found by the autograd side-by-side run ------------------------------------------------------

def test_function_apply_binds_keyword_arguments_to_forward(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k=1.0, shift=0.0):
            ctx.k = k
            return x * k + shift

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None, None
    x = leaf(lib)
    y = Scale.apply(x, k=3.0)
    assert values(y).tolist() == [3.0, 6.0, 9.0]
    y.sum().backward()
    assert values(x.grad).tolist() == [3.0, 3.0, 3.0]
    assert values(Scale.apply(x, 2.0, shift=1.0)).tolist() == [3.0, 5.0, 7.0]


def test_function_apply_binds_keywords_with_setup_context(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(x, k=1.0):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]  # (the default, or the keyword, bound by position)

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None
    x = leaf(lib)
    Scale.apply(x, k=2.0).sum().backward()
    assert values(x.grad).tolist() == [2.0, 2.0, 2.0]
    assert values(Scale.apply(x)).tolist() == [1.0, 2.0, 3.0]


def test_gradcheck_and_gradgradcheck_take_pytorchs_keywords(lib):
    x = lib.tensor([0.3, -0.5], dtype=lib.float64, requires_grad=True)
    f = lambda t: t.sin() * t  # noqa: E731
    assert lib.autograd.gradcheck(f, (x,), check_batched_forward_grad=False, masked=None)
    assert lib.autograd.gradgradcheck(f, (x,), gen_non_contig_grad_outputs=True,
                                      check_fwd_over_rev=False, check_rev_over_rev=True,
                                      check_grad_dtypes=False, masked=False)


def test_gradgradcheck_check_fwd_over_rev_checks_forward_mode():
    import funcgrad as fg
    x = np.array([0.3, -0.5])
    assert fg.gradgradcheck(lambda v: np.sin(v) * v, (x,), check_fwd_over_rev=True)


def test_numpy_force_detaches(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="requires grad"):
        x.numpy()
    assert x.numpy(force=True).tolist() == [1.0, 2.0]


def test_device_has_type_and_index(lib):
    x = lib.ones(2)
    assert x.device.type == "cpu" and x.device.index is None
    assert x.device == lib.device("cpu")
    assert lib.device("cuda", 1).index == 1 and lib.device("cuda:1").type == "cuda"


def test_slogdet_of_a_complex_matrix_has_a_real_logabsdet(lib):
    A = lib.tensor([[1 + 1j, 2], [0.5j, 3]], dtype=lib.complex128, requires_grad=True)
    # det = 3 + 3j - 1j = 3 + 2j: |det| = sqrt(13)
    for sign, logabsdet in (lib.slogdet(A), lib.linalg.slogdet(A)):
        assert logabsdet.dtype == lib.float64
        assert logabsdet.item() == pytest.approx(0.5 * np.log(13))
        assert sign.item() == pytest.approx((3 + 2j) / np.sqrt(13))
    lib.linalg.slogdet(A).logabsdet.backward()
    # PyTorch's .grad of the real log|det|: (A^-1)^H
    np.testing.assert_allclose(values(A.grad), np.linalg.inv(values(A)).conj().T, rtol=1e-12)
