"""A gradient function writes its backward walk down once per structure of tape and runs
that on the next tapes (funcgrad.interpreters.walk_programs): always the walk's bits, the
walk itself wherever the structure differs, and nothing of the walk's behaviour lost
(warnings naming the node, anomaly detection, threads, memory)."""
import gc
import threading
import warnings
import weakref

import numpy as np
import pytest

import funcgrad as fg
import funcgrad.numpy as fnp
from funcgrad.interpreters import walk_programs
from funcgrad.interpreters.reverse import ReverseInterpreter


@pytest.fixture
def writes(monkeypatch):
    """The programs written during the test (each ``_written`` that gave one)."""
    written = []
    original = walk_programs._written

    def counted(*args):
        got = original(*args)
        if got is not None:
            written.append(got[0])
        return got
    monkeypatch.setattr(walk_programs, "_written", counted)
    return written


def _walked(f, x):
    """The walk's gradient: the first gradient of a new function walks."""
    return fg.grad(lambda v: f(v))(x)


def _same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _w1(x):
    return fnp.sum(fnp.sin(x) * fnp.cos(x) + fnp.exp(-x * x) + fnp.log1p(x * x)
                   + fnp.tanh(x) / (1 + x * x))


FUNCTIONS = {
    "elementwise, a value read many times": _w1,
    "Python numbers and a chain": lambda x: fnp.sum(fnp.sin(x) * 0.5 + x * 0.9 - 2 * x / 3.0),
    "a square, a difference, a negation": lambda x: fnp.sum((x - fnp.cos(x)) ** 2 - (-x)),
    "axes, keepdims, a mean": lambda x: fnp.sum(
        fnp.mean(fnp.tanh(x.reshape(3, 4)), axis=0, keepdims=True)
        * fnp.sum((x * x).reshape(4, 3), axis=1).reshape(1, 4)),
    "reshape, transpose, matmul": lambda x: fnp.sum(fnp.tanh(x.reshape(4, 3).T @ x.reshape(4, 3))),
    "max with ties, logsumexp": lambda x: fnp.max(fnp.round(x)) + fnp.sum(
        fnp.logsumexp(x.reshape(3, 4), axis=1)),
    "an array constant broadcast": lambda x: fnp.sum(fnp.sqrt(x * x + 1) * np.arange(12.0)),
    "a constant of more axes: cotangents summed back": lambda x: fnp.sum(
        (np.arange(24.0).reshape(2, 12) * x - x * np.ones((3, 1, 12))) ** 2),
    "cumulative sums and products": lambda x: fnp.sum(fnp.cumsum(x) * fnp.cumprod(fnp.cos(x))),
    "a concatenation": lambda x: fnp.sum(fnp.sin(fnp.concatenate([x, x * 2.0])) ** 2),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_written_walks_give_the_walks_bits(writes, name, dtype):
    f = FUNCTIONS[name]
    g = fg.grad(f)
    vg = fg.value_and_grad(f)
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.normal(size=12).astype(dtype)
        want = _walked(f, x)
        got = g(x)
        assert _same_bits(got, want), name
        value, got = vg(x)
        assert _same_bits(got, want) and value == f(x)
    assert len(writes) == 1, "grad(f) and value_and_grad(f) share one program of f"


def test_a_dict_of_parameters_gets_one_cotangent_each(writes):
    def loss(p):
        h = fnp.tanh(p["w"] * p["x"] + p["b"])
        return fnp.sum(h * h) + fnp.sum(p["b"] ** 2)

    g = fg.grad(loss)
    rng = np.random.default_rng(1)
    for _ in range(4):
        p = {k: rng.normal(size=5) for k in "bwx"}
        want = _walked(loss, p)
        got = g(p)
        assert sorted(got) == ["b", "w", "x"]
        assert all(_same_bits(got[k], want[k]) for k in want)
    assert len(writes) == 1


def test_a_dict_of_other_keys_is_another_structure():
    def loss(p):
        return sum(fnp.sum(fnp.sin(v) * v) for v in p.values())

    g = fg.grad(loss)
    rng = np.random.default_rng(2)
    for keys in ["abc", "abc", "abc", "ab", "abcd", "abc", "b", "ab"]:
        p = {k: rng.normal(size=3) for k in keys}
        got, want = g(p), _walked(loss, p)
        assert list(got) == list(keys) and all(_same_bits(got[k], want[k]) for k in keys)


def test_another_structure_walks_and_each_gets_its_program(writes):
    def f(x):  # (which branch: the tape's structure)
        return fnp.sum(fnp.sin(x) if x[0] > 0 else fnp.cos(x) * x)

    g = fg.grad(f)
    for k in range(8):
        x = np.linspace(-1.0, 1.0, 5) * (1 if k % 2 else -1)
        got = g(x)
        want = np.cos(x) if x[0] > 0 else np.cos(x) - x * np.sin(x)
        np.testing.assert_allclose(got, want, rtol=1e-15)
        assert _same_bits(got, _walked(f, x))
    assert len(writes) == 2


@pytest.mark.parametrize("constants", [
    (2, 2.5), (2.5, np.float64(2.5)), (2.0, np.array(2.0)), (np.array([1.0, 2.0, 3.0]), 2.0),
    (np.array([1.0, 2.0, 3.0]), np.array([1.0, 2.0, 3.0], np.float32)),
])
def test_a_constant_of_another_kind_is_another_structure(constants):
    box = {}

    def f(x):
        return fnp.sum(fnp.sin(x) * box["c"] + x ** 2 / box["c"])

    g = fg.grad(f)
    x = np.array([0.5, 1.5, -2.0])
    for c in constants * 3:
        box["c"] = c
        assert _same_bits(g(x), _walked(f, x))


def test_another_shape_or_dtype_of_the_input_is_another_structure():
    g = fg.grad(_w1)
    for x in [np.ones(3), np.ones(3), np.ones(4), np.ones(3, np.float32), np.ones((2, 2)),
              np.ones(4), np.ones(3, np.float32)]:
        got = g(x)
        assert _same_bits(got, _walked(_w1, x))


def test_a_rules_warning_names_its_node_under_a_program():
    f = fg.grad(lambda x: fnp.sum(fnp.sqrt(x)))
    for _ in range(3):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = f(np.array([0.0, 1.0]))
        assert [str(w.message) for w in seen] == [
            "divide by zero encountered in the backward of SqrtBackward0"]
        assert seen[0].filename == __file__
        assert got.tolist() == [np.inf, 0.5]
    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        f(np.array([0.0, 1.0]))


def test_anomaly_detection_and_hooks_see_every_node_of_a_written_structure():
    def f(x):
        return fnp.sum(fnp.sqrt(x) * x)

    g = fg.grad(f)
    x = np.array([1.0, 4.0])
    for _ in range(3):
        g(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with fg.detect_anomaly(), pytest.raises(RuntimeError, match="returned nan values"):
            g(np.array([-1.0, 4.0]))
    packed = []

    def pack(v):
        packed.append(v)
        return v
    with fg.autograd.graph.saved_tensors_hooks(pack, lambda v: v):
        assert _same_bits(g(x), _walked(f, x))
    assert packed, "the hooks saw the saved values"


def test_large_arrays_keep_the_walk_and_nothing_is_written(writes):
    x = np.linspace(0.0, 1.0, 1 << 16)
    g = fg.grad(_w1)
    for _ in range(3):
        assert _same_bits(g(x), _walked(_w1, x))
    assert writes == []


def test_a_program_runs_under_an_outer_transform_never():
    # Inner gradients of an outer one's tracers: values are tracers, the walk's only.
    f = fg.grad(lambda y: fnp.sum(fg.grad(lambda x: fnp.sum(fnp.sin(x * y)))(np.ones(2))))
    for _ in range(3):
        np.testing.assert_allclose(f(np.array([0.3, 0.7])),
                                   np.cos([0.3, 0.7]) - np.array([0.3, 0.7]) * np.sin([0.3, 0.7]),
                                   rtol=1e-14)


def test_threads_share_a_gradient_function():
    g = fg.grad(_w1)
    xs = [np.linspace(-1.0, 1.0, 16) * (k + 1) for k in range(8)]
    want = [_walked(_w1, x) for x in xs]
    errors = []

    def run(k):
        try:
            for _ in range(50):
                if not _same_bits(g(xs[k]), want[k]):
                    errors.append(k)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
    threads = [threading.Thread(target=run, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_programs_keep_no_users_value_alive():
    g = fg.grad(lambda x: fnp.sum(fnp.sin(x) * np.arange(3.0)))
    x = np.array([1.0, 2.0, 3.0])
    for _ in range(3):
        out = g(x)
    refs = [weakref.ref(x), weakref.ref(out)]
    del x, out
    gc.collect()
    assert [r() for r in refs] == [None, None]


def test_programs_directly():
    programs, x = walk_programs.WalkPrograms(), np.array([1.0, 2.0])
    got = []
    for _ in range(3):
        interp = ReverseInterpreter()
        t = interp.new_input(x)
        with interp:
            y = fnp.sum(fnp.sin(t) * t)
        got.append(programs.backward(interp, interp.tape, (t,), y, np.array(1.0)))
    assert got[0] is walk_programs.MISS  # (a function's first tape: walked)
    assert _same_bits(got[1][0], got[2][0])
    assert _same_bits(got[1][0], np.cos(x) * x + np.sin(x))
    # a tape of another structure: MISS, whatever the program
    interp = ReverseInterpreter()
    t = interp.new_input(x)
    with interp:
        y = fnp.sum(fnp.cos(t) * t)
    assert programs.kept[0](interp.tape, (t,), y, np.array(1.0)) is walk_programs.MISS


def test_a_long_tape_is_written_once_its_walks_have_paid_for_the_writing(writes):
    def f(x):  # 4 * 150 + 1 nodes: written at the twelfth tape of this length
        for _ in range(150):
            x = fnp.sin(x) * 0.5 + x * 0.9
        return fnp.sum(x)

    g = fg.grad(f)
    x = np.linspace(-1.0, 1.0, 4)
    want = _walked(f, x)
    for k in range(1, 14):
        assert _same_bits(g(x), want)
        assert len(writes) == (1 if k >= 12 else 0), k


def test_a_gradient_taken_inline_in_a_loop_writes_its_walk_too(writes):
    x = np.linspace(-1.0, 1.0, 6)
    want = _walked(_w1, x)
    for _ in range(4):
        assert _same_bits(fg.grad(_w1)(x), want)
        assert _same_bits(fg.value_and_grad(_w1)(x)[1], want)
    assert len(writes) == 1
    # (the programs do not keep their function alive, and go with it)
    f = lambda v: fnp.sum(v * v)  # noqa: E731
    for _ in range(3):
        fg.grad(f)(x)
    ref, count = weakref.ref(f), len(walk_programs._BY_FUNCTION)
    del f
    gc.collect()
    assert ref() is None and len(walk_programs._BY_FUNCTION) == count - 1
