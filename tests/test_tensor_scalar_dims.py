"""PyTorch's meaning of a dim of a 0-d Tensor in the methods that flip, roll, cut, move or
pick along a dim: dims 0 and -1 name the one element where PyTorch allows it (``flip``,
``movedim``, ``transpose``, ``index_select``, ``gather``, ``topk``...), and PyTorch's error,
class and words, where it does not (``unbind``, ``narrow``, ``select``, ``chunk``,
``split``, ``diff``, ``roll`` along a dim...).

``FACTS`` states PyTorch 2.13's behaviour; ``test_the_facts_are_pytorchs`` checks them
against torch where it is installed, and every other test checks funcgrad against them
without it."""
import re

import numpy as np
import pytest

import funcgrad as fg

_RANGE = r"Dimension out of range \(expected to be in range of \[-1, 0\], but got {}\)"
_NO_DIMS = "Dimension specified as {} but tensor has no dimensions"


def _long(lib, values):
    return lib.tensor(values, dtype=lib.int64)


# name: (call on a 0-d Tensor of 2.5 and the library, what PyTorch does), where what it does
# is ("value", shape, value, gradient of the sum of the first result) or
# ("raises", exception class, regular expression its message starts with).
FACTS = {
    # the one element along dim 0 or -1: a copy (or a view) of it, 0-d
    "flip(0)": (lambda t, lib: t.flip(0), ("value", (), 2.5, 1.0)),
    "flip(-1)": (lambda t, lib: t.flip(-1), ("value", (), 2.5, 1.0)),
    "flip(())": (lambda t, lib: t.flip(()), ("value", (), 2.5, 1.0)),
    "flip(1)": (lambda t, lib: t.flip(1), ("raises", IndexError, _RANGE.format(1))),
    "flip(0, -1)": (lambda t, lib: t.flip(0, -1),
                    ("raises", RuntimeError, "dim 0 appears multiple times in the list of dims")),
    "roll(1)": (lambda t, lib: t.roll(1), ("value", (), 2.5, 1.0)),
    "movedim(0, 0)": (lambda t, lib: t.movedim(0, 0), ("value", (), 2.5, 1.0)),
    "movedim(-1, 0)": (lambda t, lib: t.movedim(-1, 0), ("value", (), 2.5, 1.0)),
    "movedim((), ())": (lambda t, lib: t.movedim((), ()), ("value", (), 2.5, 1.0)),
    "moveaxis(0, -1)": (lambda t, lib: t.moveaxis(0, -1), ("value", (), 2.5, 1.0)),
    "movedim(0, 1)": (lambda t, lib: t.movedim(0, 1), ("raises", IndexError, _RANGE.format(1))),
    "movedim((0, -1), (0, -1))": (
        lambda t, lib: t.movedim((0, -1), (0, -1)),
        ("raises", RuntimeError, re.escape("movedim: repeated dim in `source` ([0, -1])"))),
    "movedim((0,), (0, -1))": (
        lambda t, lib: t.movedim((0,), (0, -1)),
        ("raises", RuntimeError, "movedim: Invalid source or destination dims")),
    "transpose(0, -1)": (lambda t, lib: t.transpose(0, -1), ("value", (), 2.5, 1.0)),
    "transpose(0, 1)": (lambda t, lib: t.transpose(0, 1),
                        ("raises", IndexError, _RANGE.format(1))),
    "index_select(0, [0])": (lambda t, lib: t.index_select(0, _long(lib, [0])),
                             ("value", (), 2.5, 1.0)),
    "index_select(-1, 0-d 0)": (lambda t, lib: t.index_select(-1, _long(lib, 0)),
                                ("value", (), 2.5, 1.0)),
    "index_select(0, [0, 0])": (
        lambda t, lib: t.index_select(0, _long(lib, [0, 0])),
        ("raises", RuntimeError,
         re.escape("index_select(): Index to scalar can have only 1 value, got 2 value(s)"))),
    "index_select(0, [1])": (lambda t, lib: t.index_select(0, _long(lib, [1])),
                             ("raises", IndexError, "index out of range in self")),
    "index_select(0, [[0]])": (
        lambda t, lib: t.index_select(0, _long(lib, [[0]])),
        ("raises", IndexError, re.escape("index_select(): Index is supposed to be a vector"))),
    "index_select(1, 0-d 0)": (lambda t, lib: t.index_select(1, _long(lib, 0)),
                               ("raises", IndexError, _RANGE.format(1))),
    "gather(0, 0-d 0)": (lambda t, lib: t.gather(0, _long(lib, 0)), ("value", (), 2.5, 1.0)),
    "gather(-1, [0, 0])": (lambda t, lib: t.gather(-1, _long(lib, [0, 0])),
                           ("value", (2,), [2.5, 2.5], 2.0)),
    "gather(0, [])": (lambda t, lib: t.gather(0, _long(lib, [])), ("value", (0,), [], 0.0)),
    "gather(0, 0-d 1)": (lambda t, lib: t.gather(0, _long(lib, 1)),
                         ("raises", RuntimeError,
                          "index 1 is out of bounds for dimension 0 with size 1")),
    "gather(0, [[0]])": (lambda t, lib: t.gather(0, _long(lib, [[0]])),
                         ("raises", RuntimeError, "Index tensor must have the same number of "
                                                  "dimensions as input tensor")),
    "gather(1, 0-d 0)": (lambda t, lib: t.gather(1, _long(lib, 0)),
                         ("raises", IndexError, _RANGE.format(1))),
    "topk(0)": (lambda t, lib: t.topk(0), ("value", (), 2.5, 1.0)),  # (k=0 too: PyTorch's)
    "topk(1, 0)": (lambda t, lib: t.topk(1, 0), ("value", (), 2.5, 1.0)),
    "topk(2)": (lambda t, lib: t.topk(2),
                ("raises", RuntimeError, "selected index k out of range")),
    "topk(0, 1)": (lambda t, lib: t.topk(0, 1), ("raises", IndexError, _RANGE.format(1))),
    "sort(0)": (lambda t, lib: t.sort(0), ("value", (), 2.5, 1.0)),
    "cumsum(-1)": (lambda t, lib: t.cumsum(-1), ("value", (), 2.5, 1.0)),
    "tile(2)": (lambda t, lib: t.tile(2), ("value", (2,), [2.5, 2.5], 2.0)),
    "repeat(2, 3)": (lambda t, lib: t.repeat(2, 3), ("value", (2, 3), [[2.5] * 3] * 2, 6.0)),
    # no dim of a 0-d Tensor to cut, shift or take along
    "roll(1, 0)": (lambda t, lib: t.roll(1, 0), ("raises", IndexError, _NO_DIMS.format(0))),
    "roll(1, -1)": (lambda t, lib: t.roll(1, -1), ("raises", IndexError, _NO_DIMS.format(-1))),
    "roll(1, 5)": (lambda t, lib: t.roll(1, 5), ("raises", IndexError, _NO_DIMS.format(5))),
    "roll((1, 2), 0)": (lambda t, lib: t.roll((1, 2), 0),
                        ("raises", RuntimeError,
                         "shifts and dimensions must align. shifts: 2, dims:1")),
    "unbind()": (lambda t, lib: t.unbind(), ("raises", IndexError, _NO_DIMS.format(0))),
    "unbind(-1)": (lambda t, lib: t.unbind(-1), ("raises", IndexError, _NO_DIMS.format(0))),
    "unbind(1)": (lambda t, lib: t.unbind(1), ("raises", IndexError, _RANGE.format(1))),
    "narrow(0, 0, 1)": (lambda t, lib: t.narrow(0, 0, 1),
                        ("raises", RuntimeError,
                         re.escape("narrow() cannot be applied to a 0-dim tensor"))),
    "narrow(-1, 0, 0)": (lambda t, lib: t.narrow(-1, 0, 0),
                         ("raises", RuntimeError,
                          re.escape("narrow() cannot be applied to a 0-dim tensor"))),
    "select(0, 0)": (lambda t, lib: t.select(0, 0),
                     ("raises", IndexError,
                      re.escape("select() cannot be applied to a 0-dim tensor"))),
    "select(-1, 0)": (lambda t, lib: t.select(-1, 0),
                      ("raises", IndexError,
                       re.escape("select() cannot be applied to a 0-dim tensor"))),
    "chunk(1)": (lambda t, lib: t.chunk(1),
                 ("raises", RuntimeError, "chunk expects at least a 1-dimensional tensor")),
    "chunk(2, -1)": (lambda t, lib: t.chunk(2, -1),
                     ("raises", RuntimeError, "chunk expects at least a 1-dimensional tensor")),
    "split(1)": (lambda t, lib: t.split(1),
                 ("raises", RuntimeError, "split expects at least a 1-dimensional tensor")),
    "split([1], -1)": (lambda t, lib: t.split([1], -1),
                       ("raises", RuntimeError, "split expects at least a 1-dimensional tensor")),
    "split_with_sizes([1])": (lambda t, lib: t.split_with_sizes([1]),
                              ("raises", RuntimeError,
                               "split expects at least a 1-dimensional tensor")),
    "tensor_split(1)": (lambda t, lib: t.tensor_split(1),
                        ("raises", RuntimeError,
                         "tensor_split expected at least a 1-dimensional tensor, but got a "
                         "tensor with 0 dims")),
    "diff()": (lambda t, lib: t.diff(),
               ("raises", RuntimeError, "diff expects input to be at least one-dimensional")),
    "diff(dim=0)": (lambda t, lib: t.diff(dim=0),
                    ("raises", RuntimeError,
                     "diff expects input to be at least one-dimensional")),
    "diff(prepend=...)": (lambda t, lib: t.diff(prepend=lib.tensor(1.0)),
                          ("raises", RuntimeError,
                           "diff expects input to be at least one-dimensional")),
    "take_along_dim(0-d 0, 0)": (lambda t, lib: t.take_along_dim(_long(lib, 0), 0),
                                 ("raises", IndexError, _NO_DIMS.format(0))),
    # swapaxes and swapdims are transpose
    "swapaxes(0, -1)": (lambda t, lib: t.swapaxes(0, -1), ("value", (), 2.5, 1.0)),
    "swapdims(-1, 0)": (lambda t, lib: t.swapdims(-1, 0), ("value", (), 2.5, 1.0)),
    "swapaxes(1, 0)": (lambda t, lib: t.swapaxes(1, 0), ("raises", IndexError, _RANGE.format(1))),
    # repeat_interleave: all elements (no dim) only
    "repeat_interleave(3)": (lambda t, lib: t.repeat_interleave(3),
                             ("value", (3,), [2.5] * 3, 3.0)),
    "repeat_interleave([3])": (lambda t, lib: t.repeat_interleave(_long(lib, [3])),
                               ("value", (3,), [2.5] * 3, 3.0)),
    "repeat_interleave(3, 0)": (lambda t, lib: t.repeat_interleave(3, 0),
                                ("raises", IndexError, _RANGE.format(1))),
    "repeat_interleave(3, -1)": (lambda t, lib: t.repeat_interleave(3, -1),
                                 ("raises", IndexError, _RANGE.format(1))),
    "repeat_interleave(3, -2)": (lambda t, lib: t.repeat_interleave(3, -2),
                                 ("raises", IndexError, _RANGE.format(-2))),
    "repeat_interleave(0-d 3, 0)": (lambda t, lib: t.repeat_interleave(_long(lib, 3), 0),
                                    ("raises", IndexError, _NO_DIMS.format(0))),
    # the scatter and index_* family: a 0-d self, index or src is 1-d of one element
    "scatter(0, 0-d 0, 0-d 5)": (lambda t, lib: t.scatter(0, _long(lib, 0), lib.tensor(5.0)),
                                 ("value", (), 5.0, 0.0)),
    "scatter(0, [0, 0], [5, 6])": (
        lambda t, lib: t.scatter(0, _long(lib, [0, 0]), lib.tensor([5.0, 6.0])),
        ("value", (), 6.0, 0.0)),
    "scatter(-1, 0-d 0, value=7)": (lambda t, lib: t.scatter(-1, _long(lib, 0), value=7.0),
                                    ("value", (), 7.0, 0.0)),
    "scatter(1, 0-d 0, 0-d 5)": (lambda t, lib: t.scatter(1, _long(lib, 0), lib.tensor(5.0)),
                                 ("raises", IndexError, _RANGE.format(1))),
    "scatter(0, 0-d 1, 0-d 5)": (lambda t, lib: t.scatter(0, _long(lib, 1), lib.tensor(5.0)),
                                 ("raises", RuntimeError,
                                  "index 1 is out of bounds for dimension 0 with size 1")),
    "scatter(0, [[0]], [[5]])": (
        lambda t, lib: t.scatter(0, _long(lib, [[0]]), lib.tensor([[5.0]])),
        ("raises", RuntimeError,
         "Index tensor must have the same number of dimensions as self tensor")),
    "scatter_add(0, 0-d 0, 0-d 5)": (
        lambda t, lib: t.scatter_add(0, _long(lib, 0), lib.tensor(5.0)), ("value", (), 7.5, 1.0)),
    "scatter_add(-1, [0, 0], [5, 1])": (
        lambda t, lib: t.scatter_add(-1, _long(lib, [0, 0]), lib.tensor([5.0, 1.0])),
        ("value", (), 8.5, 1.0)),
    "scatter_add(0, [0, 0], 0-d 5)": (
        lambda t, lib: t.scatter_add(0, _long(lib, [0, 0]), lib.tensor(5.0)),
        ("raises", RuntimeError, re.escape(
            "Expected index [2] to be no larger than self [] apart from dimension 0 and to be "
            "no larger size than src []"))),
    "scatter_reduce(0, 0-d 0, 0-d 5, amax)": (
        lambda t, lib: t.scatter_reduce(0, _long(lib, 0), lib.tensor(5.0), "amax"),
        ("value", (), 5.0, 0.0)),
    "scatter_reduce(0, 0-d 0, 0-d 5, mean)": (
        lambda t, lib: t.scatter_reduce(0, _long(lib, 0), lib.tensor(5.0), "mean"),
        ("value", (), 3.75, 0.5)),
    "scatter_reduce(0, 0-d 0, 0-d 5, prod)": (
        lambda t, lib: t.scatter_reduce(0, _long(lib, 0), lib.tensor(5.0), "prod"),
        ("value", (), 12.5, 5.0)),
    "scatter_reduce(0, [0, 0], [5, 7], prod, include_self=False)": (
        lambda t, lib: t.scatter_reduce(0, _long(lib, [0, 0]), lib.tensor([5.0, 7.0]), "prod",
                                        include_self=False),
        ("value", (), 35.0, 0.0)),
    "index_add(0, 0-d 0, 0-d 5)": (
        lambda t, lib: t.index_add(0, _long(lib, 0), lib.tensor(5.0)), ("value", (), 7.5, 1.0)),
    "index_add(-1, [0], 0-d 5, alpha=3)": (
        lambda t, lib: t.index_add(-1, _long(lib, [0]), lib.tensor(5.0), alpha=3),
        ("value", (), 17.5, 1.0)),
    "index_add(0, [0], [5])": (
        lambda t, lib: t.index_add(0, _long(lib, [0]), lib.tensor([5.0])),
        ("raises", RuntimeError, re.escape(
            "source tensor shape must match self tensor shape, excluding the specified "
            "dimension. Got self.shape = [] source.shape = [1]"))),
    "index_add(1, 0-d 0, 0-d 5)": (
        lambda t, lib: t.index_add(1, _long(lib, 0), lib.tensor(5.0)),
        ("raises", IndexError, _RANGE.format(1))),
    "index_copy(0, 0-d 0, 0-d 5)": (
        lambda t, lib: t.index_copy(0, _long(lib, 0), lib.tensor(5.0)), ("value", (), 5.0, 0.0)),
    "index_copy(0, [0], [5])": (
        lambda t, lib: t.index_copy(0, _long(lib, [0]), lib.tensor([5.0])),
        ("value", (), 5.0, 0.0)),
    "index_copy(0, [0, 0], 0-d 5)": (
        lambda t, lib: t.index_copy(0, _long(lib, [0, 0]), lib.tensor(5.0)),
        ("raises", IndexError, re.escape(
            "index_copy_(): When source is scalar, index should have one element (got 2)"))),
    "index_copy(0, 0-d -1, 0-d 5)": (
        lambda t, lib: t.index_copy(0, _long(lib, -1), lib.tensor(5.0)),
        ("raises", IndexError, re.escape(
            "index_copy_(): index -1 is out of bounds for dimension 0 with size 1"))),
    "index_fill(0, 0-d -1, 5)": (lambda t, lib: t.index_fill(0, _long(lib, -1), 5.0),
                                 ("value", (), 5.0, 0.0)),
    "index_fill(-1, [0, 0], 5)": (lambda t, lib: t.index_fill(-1, _long(lib, [0, 0]), 5.0),
                                  ("value", (), 5.0, 0.0)),
    "index_fill(0, [-2], 5)": (lambda t, lib: t.index_fill(0, _long(lib, [-2]), 5.0),
                               ("raises", IndexError,
                                "index -2 is out of bounds for dimension 0 with size 1")),
    "index_fill(1, 0-d 0, 5)": (lambda t, lib: t.index_fill(1, _long(lib, 0), 5.0),
                                ("raises", IndexError, _RANGE.format(1))),
    "unflatten(0, (1,))": (lambda t, lib: t.unflatten(0, (1,)),
                           ("raises", RuntimeError, "unflatten got an unexpected error:\\s*"
                                                    + _NO_DIMS.format(0))),
}


def _check(name, lib):
    """Run ``FACTS[name]`` with ``lib`` (funcgrad or torch) and assert what it states."""
    call, (kind, *fact) = FACTS[name]
    t = lib.tensor(2.5, requires_grad=True)
    if kind == "raises":
        error, message = fact
        with pytest.raises(error) as raised:
            call(t, lib)
        assert re.match(message, str(raised.value)), str(raised.value)
        return
    shape, value, gradient = fact
    out = call(t, lib)
    first = out[0] if isinstance(out, tuple) else out
    assert tuple(first.shape) == shape
    np.testing.assert_array_equal(first.detach().numpy(), np.array(value, dtype=np.float32))
    first.sum().backward()
    assert float(t.grad) == gradient


@pytest.mark.parametrize("name", sorted(FACTS))
def test_a_0d_tensor_method_follows_pytorch(name):
    _check(name, fg)


@pytest.mark.parametrize("name", sorted(FACTS))
def test_the_facts_are_pytorchs(name):
    torch = pytest.importorskip("torch")
    _check(name, torch)


def test_0d_results_are_copies_where_pytorch_copies():
    # flip and index_select copy: an in-place update of the result leaves the input alone
    for method in (lambda t: t.flip(0), lambda t: t.index_select(0, fg.tensor([0]))):
        x = fg.tensor(2.5)
        y = method(x)
        y.add_(1.0)
        assert x.item() == 2.5 and y.item() == 3.5


def test_the_errors_say_how_to_make_a_0d_tensor_1d():
    with pytest.raises(RuntimeError, match=r"t\.reshape\(1\)"):
        fg.tensor(2.5).split(1)
    assert fg.tensor(2.5).reshape(1).split(1)[0].shape == (1,)


def test_other_ranks_keep_their_values():
    x = fg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    np.testing.assert_array_equal(x.flip(0, 1).detach().numpy(), [[4.0, 3.0], [2.0, 1.0]])
    np.testing.assert_array_equal(x.index_select(1, fg.tensor([1, 1])).detach().numpy(),
                                  [[2.0, 2.0], [4.0, 4.0]])
    np.testing.assert_array_equal(x.gather(1, fg.tensor([[1], [0]])).detach().numpy(),
                                  [[2.0], [3.0]])
    assert [p.shape for p in x.unbind(1)] == [(2,), (2,)]
    assert x.topk(1).values.shape == (2, 1)
    assert x.movedim(0, 1).shape == x.transpose(0, -1).shape == (2, 2)


def test_a_repeated_flip_dim_and_a_matrix_of_indices_raise_pytorchs_errors_on_every_rank():
    x = fg.tensor([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(RuntimeError, match="dim 1 appears multiple times in the list of dims"):
        x.flip(1, -1)
    with pytest.raises(IndexError, match="Index is supposed to be a vector"):
        x.index_select(0, fg.tensor([[0]]))
