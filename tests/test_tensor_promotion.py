"""PyTorch's type promotion for Tensor operations (funcgrad.eager.promotion).

Expected dtypes are PyTorch's, written out; the last test compares with torch when it
is installed.
"""
import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp

F32, F64, I64 = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.int64)


def _cases(mod):
    f = mod.tensor([1.0, 2.0])
    i = mod.tensor([1, 2])
    d = mod.tensor([1.0, 2.0], dtype=mod.float64)
    return [
        ("f32 * python float", lambda: f * 2.5),
        ("f32 * np.float64", lambda: f * np.float64(2)),
        ("np.float64 * f32", lambda: np.float64(2) * f),
        ("f32 * 0-d f64", lambda: f * mod.tensor(2.0, dtype=mod.float64)),
        ("i64 * python float", lambda: i * 1.5),
        ("i64 / i64", lambda: i / i),
        ("i64 / python int", lambda: i / 2),
        ("i64 * f32", lambda: i * f),
        ("f32 * f64", lambda: f * d),
        ("i64 * 0-d f64", lambda: i * mod.tensor(2.5, dtype=mod.float64)),
        ("0-d f32 * 0-d f64", lambda: mod.tensor(1.0) * mod.tensor(2.0, dtype=mod.float64)),
        ("bool + int", lambda: mod.tensor([True]) + 1),
        ("bool * float", lambda: mod.tensor([True]) * 1.5),
        ("i64 * np.float32", lambda: i * np.float32(2)),
        ("i32 * np.int64", lambda: mod.tensor([1], dtype=mod.int32) * np.int64(2)),
        ("i64 ** 2.0", lambda: i ** 2.0),
        ("2 ** i64", lambda: 2 ** i),
        ("f32 - 0-d i64", lambda: f - mod.tensor(3)),
    ]


EXPECTED = {
    "f32 * python float": F32, "f32 * np.float64": F32, "np.float64 * f32": F32,
    "f32 * 0-d f64": F32, "i64 * python float": F32, "i64 / i64": F32,
    "i64 / python int": F32, "i64 * f32": F32, "f32 * f64": F64, "i64 * 0-d f64": F64,
    "0-d f32 * 0-d f64": F64, "bool + int": I64, "bool * float": F32,
    "i64 * np.float32": F32, "i32 * np.int64": np.dtype(np.int32), "i64 ** 2.0": F32,
    "2 ** i64": I64, "f32 - 0-d i64": F32,
}


@pytest.mark.parametrize("name, op", _cases(fg), ids=[n for n, _ in _cases(fg)])
def test_result_dtype_is_torch_s(name, op):
    assert op().dtype == EXPECTED[name]


def test_values_are_computed_in_the_promoted_dtype():
    i = fg.tensor([1, 3])
    assert (i / 2).tolist() == [0.5, 1.5]
    assert (i * 1.5).tolist() == [1.5, 4.5]


def test_gradients_come_back_in_each_input_s_dtype():
    x = fg.tensor([1.0, 2.0], requires_grad=True)
    w = fg.tensor(3.0, dtype=fg.float64, requires_grad=True)
    y = (x * w).sum()
    assert y.dtype == F32
    y.backward()
    assert x.grad.dtype == F32 and x.grad.tolist() == [3.0, 3.0]
    assert w.grad.dtype == F64 and w.grad.item() == 3.0
    a = fg.tensor([1.0], requires_grad=True)
    b = fg.tensor([2.0], dtype=fg.float64, requires_grad=True)
    (a * b).sum().backward()
    assert (a * b).dtype == F64
    assert a.grad.dtype == F32 and b.grad.dtype == F64
    assert a.grad.tolist() == [2.0] and b.grad.tolist() == [1.0]


def test_default_dtype_is_followed():
    previous = fg.get_default_dtype()
    fg.set_default_dtype(fg.float64)
    try:
        assert (fg.tensor([1, 2]) / 2).dtype == F64
    finally:
        fg.set_default_dtype(previous)


def test_functional_api_keeps_numpy_rules():
    assert fnp.multiply(np.ones(2, np.float32), np.float64(2)).dtype == F64
    assert fnp.divide(np.array([1, 2]), 2).dtype == F64


def test_same_as_torch():
    torch = pytest.importorskip("torch")
    ours = {n: op().dtype for n, op in _cases(fg)}
    theirs = {n: np.dtype(str(op().dtype).replace("torch.", "")) for n, op in _cases(torch)}
    assert ours == theirs
