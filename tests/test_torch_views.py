"""PyTorch's view conventions on the eager Tensor (session 14): a view method that changes
nothing still returns a new Tensor, a view with a node of its own; a view made under
``no_grad`` of a Tensor that requires grad requires grad too, is cut from the graph, and
refuses in-place updates while gradients are on.  Each test runs on funcgrad and, where
it is installed, on torch itself (the ``lib`` fixture), so the expectation is PyTorch's.
Expected numbers are worked out by hand in the comments."""
import pytest

from helpers import leaf, values


# --- views that change nothing ---------------------------------------------------------------

# (view method, PyTorch's grad_fn name) on a Tensor of shape (3,)
IDENTITY_VIEWS = {
    "getitem_slice": (lambda x: x[:], "SliceBackward0"),
    "getitem_ellipsis": (lambda x: x[...], "AliasBackward0"),
    "view": (lambda x: x.view(3), "ViewBackward0"),
    "reshape": (lambda x: x.reshape(-1), "ViewBackward0"),
    "expand": (lambda x: x.expand(3), "ExpandBackward0"),
    "expand_as": (lambda x: x.expand_as(x), "ExpandBackward0"),
    "permute": (lambda x: x.permute(0), "PermuteBackward0"),
    "movedim": (lambda x: x.movedim(0, 0), "PermuteBackward0"),
    "transpose": (lambda x: x.transpose(0, 0), "TransposeBackward0"),
    "t": (lambda x: x.t(), "TBackward0"),
    "squeeze": (lambda x: x.squeeze(), "SqueezeBackward0"),
    "narrow": (lambda x: x.narrow(0, 0, 3), "SliceBackward0"),
    "unflatten": (lambda x: x.unflatten(0, (3,)), "ViewBackward0"),
    "ravel": (lambda x: x.ravel(), "ViewBackward0"),
}


@pytest.mark.parametrize("name", sorted(IDENTITY_VIEWS))
def test_a_view_that_changes_nothing_is_a_new_view_with_a_node(lib, name):
    make, node = IDENTITY_VIEWS[name]
    x = leaf(lib)
    y = make(x)
    assert y is not x and y._base is x and y._is_view()
    assert not y.is_leaf and y.grad_fn.name() == node
    (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert values(x.grad).tolist() == [1.0, 2.0, 3.0]


@pytest.mark.parametrize("name", sorted(IDENTITY_VIEWS))
def test_a_view_that_changes_nothing_of_a_plain_tensor_is_a_new_leaf_view(lib, name):
    x = lib.tensor([1.0, 2.0, 3.0])
    y = IDENTITY_VIEWS[name][0](x)
    assert y is not x and y._base is x and y.is_leaf and not y.requires_grad
    y.mul_(2)  # shares x's elements
    assert values(x).tolist() == [2.0, 4.0, 6.0]
    x.add_(1)
    assert values(y).tolist() == [3.0, 5.0, 7.0] and y._version == x._version


def test_flatten_of_a_vector_and_contiguous_return_the_tensor_itself(lib):
    x = leaf(lib)
    assert x.flatten() is x and x.contiguous() is x


def test_an_update_of_an_identity_view_of_a_non_leaf_reaches_its_gradient(lib):
    x = leaf(lib)
    z = x * 1
    y = z[:]
    y.mul_(2)
    (z * lib.tensor([1.0, 2.0, 3.0])).sum().backward()  # z = 2x: the gradient is 2w
    assert values(x.grad).tolist() == [2.0, 4.0, 6.0]


def test_an_update_of_the_base_reaches_an_identity_view_and_its_gradient(lib):
    x = leaf(lib)
    z = x * 1
    y = z.expand(3)
    z.mul_(3)
    (y * lib.tensor([1.0, 2.0, 3.0])).sum().backward()  # y = 3x: the gradient is 3w
    assert values(x.grad).tolist() == [3.0, 6.0, 9.0]


def test_an_identity_view_of_a_leaf_that_requires_grad_refuses_in_place_updates(lib):
    x = leaf(lib)
    with pytest.raises(RuntimeError, match="view of a leaf Variable"):
        x[:].mul_(2)


# --- views made under no_grad ----------------------------------------------------------------

NO_GRAD_MESSAGE = "A view was created in no_grad mode and is being modified inplace"


@pytest.mark.parametrize("make", [lambda x: x[1:], lambda x: x.view(3), lambda x: x.t(),
                                  lambda x: x.expand(3), lambda x: x.split(1)[0]])
def test_a_view_made_under_no_grad_of_a_leaf_requires_grad_as_a_leaf(lib, make):
    x = leaf(lib)
    with lib.no_grad():
        v = make(x)
    assert v.requires_grad and v.is_leaf and v.grad_fn is None and v._base is x


def test_a_view_made_under_no_grad_of_a_non_leaf_requires_grad_as_a_leaf(lib):
    z = leaf(lib) * 2
    with lib.no_grad():
        w = z[1:]
    assert w.requires_grad and w.is_leaf and w.grad_fn is None


def test_operations_on_a_no_grad_view_are_recorded_but_no_gradient_reaches_anything(lib):
    x = leaf(lib)
    with lib.no_grad():
        v = x[1:]
    y = (v * v).sum()
    assert y.requires_grad and y.grad_fn is not None
    y.backward()
    assert x.grad is None and v.grad is None
    c = v.clone()
    assert c.requires_grad and not c.is_leaf
    assert not v.detach().requires_grad


def test_a_no_grad_view_updated_in_place_with_gradients_on_is_an_error(lib):
    x = leaf(lib)
    with lib.no_grad():
        v = x[1:]
    with pytest.raises(RuntimeError, match=NO_GRAD_MESSAGE):
        v.mul_(2)
    with lib.no_grad():
        pieces = x.split(1)
    with pytest.raises(RuntimeError, match=NO_GRAD_MESSAGE):
        pieces[0].add_(1)


def test_a_view_of_a_no_grad_view_updated_in_place_names_the_view_of_a_view(lib):
    x = leaf(lib)
    with lib.no_grad():
        v = x[1:]
    u = v[1:]
    assert u.requires_grad and not u.is_leaf and u._base is x
    with pytest.raises(RuntimeError, match="Output 0 of Slice is a view of a view which was "
                                           "created in no_grad mode"):
        u.mul_(2)


def test_a_no_grad_view_of_a_plain_tensor_refuses_an_update_that_would_be_recorded(lib):
    a = lib.tensor([1.0, 2.0])
    with lib.no_grad():
        b = a[1:]
    assert not b.requires_grad
    b.mul_(2)  # nothing to record: allowed
    assert values(a).tolist() == [1.0, 4.0]
    w = leaf(lib, (1.0, 3.0))
    with pytest.raises(RuntimeError, match=NO_GRAD_MESSAGE):
        b.mul_(w[1:])


def test_a_no_grad_view_may_be_updated_under_no_grad_and_the_leaf_stays_a_leaf(lib):
    x = leaf(lib)
    with lib.no_grad():
        v = x[1:]
        v.mul_(2)
    assert values(x).tolist() == [1.0, 4.0, 6.0]
    (x * 2).sum().backward()
    assert x.is_leaf and values(x.grad).tolist() == [2.0, 2.0, 2.0]


def test_a_no_grad_view_of_a_non_leaf_refuses_in_place_updates(lib):
    z = leaf(lib) * 1
    with lib.no_grad():
        w = z[1:]
    with pytest.raises(RuntimeError, match=NO_GRAD_MESSAGE):
        w.mul_(2)
