"""Saved-value hooks (fg.graph): pack when recorded, unpack when the backward uses them."""
import numpy as np
import pytest

import funcgrad as fg
from funcgrad import core


class Counter:
    def __init__(self):
        self.packed, self.unpacked = [], []

    @staticmethod
    def _snapshot(x):  # traced values (second order) are kept as they are
        return x.copy() if isinstance(x, np.ndarray) else x

    def pack(self, x):
        self.packed.append(self._snapshot(x))
        return ("packed", x)

    def unpack(self, p):
        assert p[0] == "packed"
        self.unpacked.append(self._snapshot(p[1]))
        return p[1]


def test_seed_example_a_times_b_packs_two_values_and_unpacks_them():
    a, b = np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])
    hooks = Counter()
    with fg.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
        out, vjp_fn = fg.vjp(lambda a, b: a * b, a, b)
    # the inputs of the multiplication are saved (not its output): a and b
    assert len(hooks.packed) == 2 and hooks.unpacked == []
    np.testing.assert_array_equal(hooks.packed[0], a)
    np.testing.assert_array_equal(hooks.packed[1], b)
    ga, gb = vjp_fn(np.ones(3))  # after the with block: the hooks stay with the operation
    assert len(hooks.unpacked) == 2
    np.testing.assert_array_equal(hooks.unpacked[0], a)
    np.testing.assert_array_equal(hooks.unpacked[1], b)
    np.testing.assert_array_equal(out, a * b)
    np.testing.assert_array_equal(ga, b)
    np.testing.assert_array_equal(gb, a)
    vjp_fn(np.ones(3))  # each backward pass unpacks again
    assert len(hooks.unpacked) == 4 and len(hooks.packed) == 2


def test_the_backward_uses_what_unpack_returns():
    with fg.graph.saved_tensors_hooks(lambda x: x, lambda x: 10 * x):
        g = fg.grad(lambda x: np.sum(np.sin(x)))(np.array([0.0, 0.1]))
    np.testing.assert_allclose(g, np.cos([0.0, 1.0]))  # cos evaluated at the unpacked 10 x


def test_gradients_are_unchanged_by_identity_hooks():
    f = lambda x, y: np.sum(np.tanh(x @ y) * np.exp(x[:, :1]))  # noqa: E731
    x, y = np.random.default_rng(0).standard_normal((2, 3, 3))
    expected = fg.grad(f, argnums=(0, 1))(x, y)
    hooks = Counter()
    with fg.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
        got = fg.grad(f, argnums=(0, 1))(x, y)
    for e, g in zip(expected, got):
        np.testing.assert_array_equal(e, g)
    assert hooks.packed and len(hooks.unpacked) <= len(hooks.packed)


def test_python_number_constants_are_not_packed():
    hooks = Counter()
    with fg.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
        fg.grad(lambda x: np.sum(x * 2.0))(np.ones(2))
    # x * 2.0's rule reads only 2.0 (a number, not a saved value) and the sum's rule
    # only shapes: nothing is packed, as in PyTorch
    assert len(hooks.packed) == 0


def test_innermost_pair_wins():
    outer, inner = Counter(), Counter()
    with fg.graph.saved_tensors_hooks(outer.pack, outer.unpack):
        with fg.graph.saved_tensors_hooks(inner.pack, inner.unpack):
            fg.vjp(lambda a, b: a * b, np.ones(2), np.ones(2))
        assert len(inner.packed) == 2 and outer.packed == []
        fg.vjp(lambda a: np.sin(a), np.ones(2))
        assert len(outer.packed) == 1
    assert core._state.instruments == ()


def test_hooks_compose_with_second_order():
    hooks = Counter()
    f = lambda x: np.sum(np.sin(x) * x)  # noqa: E731
    x = np.array([0.3, 0.7])
    with fg.graph.saved_tensors_hooks(hooks.pack, hooks.unpack):
        h = fg.grad(lambda x: np.sum(fg.grad(f)(x)))(x)
    np.testing.assert_allclose(h, fg.grad(lambda x: np.sum(fg.grad(f)(x)))(x))
    assert hooks.packed


def test_save_on_cpu_keeps_host_arrays_as_they_are():
    x = np.array([0.5, 1.5])
    with fg.graph.save_on_cpu():
        g = fg.grad(lambda x: np.sum(np.exp(x) * x))(x)
    np.testing.assert_allclose(g, np.exp(x) * (1 + x))


class FakeGpuArray:
    """Stands in for a GPU array (like fg.GpuArray): .device, and np.asarray copies it."""

    def __init__(self, host):
        self.host, self.device = host, "cuda:0"

    def __array__(self, dtype=None, copy=None):
        return self.host.copy()


class FakeNumbaDeviceArray(FakeGpuArray):
    """Like a numba.cuda device array: copy_to_host()."""

    def __array__(self, dtype=None, copy=None):
        raise AssertionError("numba device arrays are copied with copy_to_host")

    def copy_to_host(self):
        return self.host.copy()


def test_save_on_cpu_moves_device_values_to_host_and_back(monkeypatch):
    moved_back = []

    def device_put(host, device):
        moved_back.append(device)
        return FakeGpuArray(host)

    monkeypatch.setattr(fg, "device_put", device_put, raising=False)
    hooks = fg.graph.save_on_cpu()
    for kind in (FakeGpuArray, FakeNumbaDeviceArray):
        device_value = kind(np.array([1.0, 2.0]))
        packed = hooks.pack_hook(device_value)
        assert packed[0] == "cuda:0" and isinstance(packed[1], np.ndarray)
        restored = hooks.unpack_hook(packed)
        assert isinstance(restored, FakeGpuArray) and moved_back[-1] == "cuda:0"
        np.testing.assert_array_equal(restored.host, [1.0, 2.0])
    assert hooks.pack_hook(np.ones(2))[0] is None  # host arrays stay as they are


def test_disable_saved_tensors_hooks():
    with fg.graph.disable_saved_tensors_hooks("hooks are off for this op: use plain grad"):
        with pytest.raises(RuntimeError, match="hooks are off for this op"):
            with fg.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
                pass
        fg.grad(lambda x: np.sum(x * x))(np.ones(2))  # no hooks: fine
    with fg.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
        with fg.graph.disable_saved_tensors_hooks("not supported here"):
            with pytest.raises(RuntimeError, match="not supported here"):
                fg.grad(lambda x: np.sum(x * x))(np.ones(2))
    assert core._state.instruments == ()


def test_hooks_must_be_callables():
    with pytest.raises(TypeError, match="pack_hook must be a function"):
        fg.graph.saved_tensors_hooks(None, lambda x: x)
