"""The Tensor's lean path (eager.record.process1/process2): the operations it takes give
the dtype, the bits and the gradients of the general path (PyTorch's promotion, the
general recorder), and every other operation still goes the general way."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad.eager import record
from funcgrad.primitives import elementwise as ew

BINARY = {"add": (ew.add_p, lambda a, b: a + b), "sub": (ew.subtract_p, lambda a, b: a - b),
          "mul": (ew.multiply_p, lambda a, b: a * b),
          "div": (ew.divide_p, lambda a, b: a / b), "pow": (ew.power_p, lambda a, b: a ** b)}
UNARY = {"exp": ew.exp_p, "log": ew.log_p, "sin": ew.sin_p, "cos": ew.cos_p,
         "tanh": ew.tanh_p, "sqrt": ew.sqrt_p}


def leaf(dtype, shape=(5,), seed=0):
    r = np.random.default_rng(seed)
    value = r.uniform(0.5, 1.5, shape)
    if np.dtype(dtype).kind == "c":
        value = value + 0.25j * r.uniform(0.5, 1.5, shape)
    return fg.Tensor(value.astype(dtype), requires_grad=True)


def general(prim, *args):
    """The operation through the general path (promotion, the general recorder)."""
    return record._process(prim, args, {})


@pytest.fixture
def general_calls(monkeypatch):
    """The operations that reached the general path during the test."""
    calls = []
    inner = record._process

    def spy(prim, args, params):
        calls.append(prim)
        return inner(prim, args, params)
    monkeypatch.setattr(record, "_process", spy)
    return calls


def same(a, b):
    """Same dtype, shape and bytes."""
    a, b = np.asarray(a._storage.value), np.asarray(b._storage.value)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def backward_both(lean_out, general_out, leaves_lean, leaves_general):
    seed = np.linspace(0.5, 2.0, int(np.prod(lean_out.shape))).reshape(lean_out.shape)
    lean_out.backward(fg.Tensor(seed.astype(lean_out.dtype)))
    general_out.backward(fg.Tensor(seed.astype(general_out.dtype)))
    for x, y in zip(leaves_lean, leaves_general):
        same(x.grad, y.grad)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("other", ["tensor", "float", "int", "tensor-0d", "reflected"])
def test_lean_binary_operations_match_the_general_path(dtype, op, other, general_calls):
    prim, fn = BINARY[op]
    a1, a2 = leaf(dtype), leaf(dtype)
    if other == "tensor":
        b1, b2 = leaf(dtype, seed=1), leaf(dtype, seed=1)
        lean, ref = fn(a1, b1), general(prim, a2, b2)
        leaves = ([a1, b1], [a2, b2])
    elif other == "tensor-0d":
        b1, b2 = leaf(dtype, (), seed=1), leaf(dtype, (), seed=1)
        lean, ref = fn(a1, b1), general(prim, a2, b2)
        leaves = ([a1, b1], [a2, b2])
    elif other == "reflected":
        lean, ref = fn(1.5, a1), general(prim, 1.5, a2)
        leaves = ([a1], [a2])
    else:
        number = 2.5 if other == "float" else 3
        lean, ref = fn(a1, number), general(prim, a2, number)
        leaves = ([a1], [a2])
    assert general_calls == [prim]  # the general reference only: the operator went lean
    assert lean.dtype == np.dtype(dtype)  # PyTorch: a number keeps a floating Tensor's dtype
    same(lean, ref)
    assert lean.grad_fn.name() == ref.grad_fn.name()
    assert lean.grad_fn.needs == ref.grad_fn.needs
    assert lean.grad_fn._saves == ref.grad_fn._saves
    backward_both(lean, ref, *leaves)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_lean_methods_match_the_general_path(dtype, name, general_calls):
    prim = UNARY[name]
    a1, a2 = leaf(dtype), leaf(dtype)
    lean, ref = getattr(a1, name)(), general(prim, a2)
    assert general_calls == [prim]
    assert lean.dtype == np.dtype(dtype)
    same(lean, ref)
    assert lean.grad_fn.name() == ref.grad_fn.name()
    backward_both(lean, ref, [a1], [a2])


def test_a_chain_of_lean_operations_gives_the_general_paths_gradient_bit_for_bit(
        general_calls):
    for dtype in (np.float64, np.float32):
        x1, x2 = leaf(dtype, (8,)), leaf(dtype, (8,))
        y1, y2 = x1, x2
        for _ in range(20):
            y1 = y1.sin() * 0.5 + y1 * 0.9
            y2 = general(ew.add_p, general(ew.multiply_p, general(ew.sin_p, y2), 0.5),
                         general(ew.multiply_p, y2, 0.9))
        y1.sum().backward()
        y2.sum().backward()
        same(x1.grad, x2.grad)
    elementwise = [prim for prim in general_calls if prim.name != "reduce_sum"]
    assert set(elementwise) == {ew.add_p, ew.multiply_p, ew.sin_p}
    assert len(elementwise) == 2 * 4 * 20  # the references', none of the lean chain's


class Sub(fg.Tensor):
    pass


@pytest.mark.parametrize("case", [
    "int tensor * float", "float32 * float64 tensor", "float64 * float32 tensor",
    "tensor * bool", "tensor * numpy scalar", "tensor * array", "subclass",
    "int tensor method", "complex * float32 tensor"])
def test_other_operations_go_the_general_way(case, general_calls):
    f32 = leaf(np.float32)
    if case == "int tensor * float":
        out = fg.tensor([1, 2]) * 1.5
        assert out.dtype == np.float32  # PyTorch: the default float dtype
    elif case == "float32 * float64 tensor":
        out = f32 * leaf(np.float64)
        assert out.dtype == np.float64
    elif case == "float64 * float32 tensor":
        out = leaf(np.float64) * f32
        assert out.dtype == np.float64
    elif case == "tensor * bool":
        out = f32 * True
        assert out.dtype == np.float32
    elif case == "tensor * numpy scalar":
        out = f32 * np.float64(2.0)
        assert out.dtype == np.float32  # a number's tier: the Tensor's dtype stays
    elif case == "tensor * array":
        out = f32 * np.ones(5)
        assert out.dtype == np.float64  # an array with dimensions: a Tensor's tier
    elif case == "subclass":
        out = Sub(np.ones(3, np.float32), requires_grad=True) * 2.0
        assert type(out) is fg.Tensor
    elif case == "int tensor method":
        out = fg.tensor([1, 2]).exp()
        assert out.dtype == np.float32
    else:
        out = leaf(np.complex64) * f32
        assert out.dtype == np.complex64
    assert general_calls, "expected the general path"


@pytest.mark.filterwarnings("ignore:Anomaly Detection")
def test_instruments_and_no_grad_see_lean_operations_as_before():
    x = leaf(np.float64)
    with fg.no_grad():
        y = x * 2.0
    assert y.grad_fn is None and not y.requires_grad
    assert (x * 2.0).grad_fn.meta is None
    with fg.detect_anomaly():  # an instrument: the general recorder keeps the trace
        z = x.log() * 2.0
    assert z.grad_fn.meta is not None and z.grad_fn.parents[0].meta is not None
    with pytest.raises(RuntimeError, match="nan"):
        with fg.detect_anomaly():
            (x * 1.0).sum().backward(fg.tensor(np.nan, dtype=fg.float64))


def test_lean_nodes_check_in_place_changes_and_free_their_values():
    x = leaf(np.float64)
    y = x * 1.0
    z = y.sin()  # saves y
    y.add_(1.0)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()
    w = (x.exp() * x).sum()  # exp reads its output, multiply the other operand
    w.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        w.backward()
    v = (x * 2.0 + 1.0).sum()  # saved numbers only: a second pass is fine, as in PyTorch
    v.backward()
    v.backward()


def test_inference_tensors_are_refused_by_lean_nodes_that_save_them():
    with fg.inference_mode():
        c = fg.Tensor(np.ones(5))
    x = leaf(np.float64)
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved"):
        x * c
    assert (x + c).requires_grad  # add saves shapes only
