"""fg.profiler: primitives and backward rules, the table, the Chrome trace, NVTX ranges."""
import json
import re
import sys
import types

import numpy as np
import pytest

import funcgrad as fg
from funcgrad import core

X = np.array([0.1, 0.2, 0.3])


def loss(x):
    return np.sum(np.sin(x) * x)


def run_loop(n=4):
    for _ in range(n):
        fg.grad(loss)(X)


def counts(prof):
    return {e.key: e.count for e in prof.key_averages()}


def test_records_primitives_and_backward_rules_of_a_known_loop():
    with fg.profiler.profile() as prof:
        run_loop(4)
    c = counts(prof)
    assert c["sin"] == 4 and c["sin_backward"] == 4
    assert c["multiply_backward"] == 4 and c["reduce_sum_backward"] == 4
    assert c["multiply"] >= 4 and c["reduce_sum"] >= 4
    for e in prof.key_averages():
        assert e.cpu_time_total >= e.self_cpu_time_total >= 0


def test_table_shows_the_op_names_and_call_counts():
    with fg.profiler.profile() as prof:
        run_loop(4)
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=20)
    header = table.splitlines()[1]
    for column in ("Name", "Self CPU %", "Self CPU", "CPU total", "CPU time avg", "# of Calls"):
        assert column in header
    rows = {line.split()[0]: line.split()[-1] for line in table.splitlines()[3:-2]}
    assert rows["sin"] == "4" and rows["sin_backward"] == "4"
    assert rows["multiply_backward"] == "4"
    assert re.search(r"Self CPU time total: [\d.]+(us|ms|s)$", table)
    assert len(prof.key_averages().table(row_limit=2).splitlines()) == 2 + 5
    with pytest.raises(ValueError, match="use one of self_cpu_time_total"):
        prof.key_averages().table(sort_by="cuda_time")


def test_chrome_trace_is_valid_json_with_the_events(tmp_path):
    with fg.profiler.profile(record_shapes=True) as prof:
        run_loop(2)
    path = tmp_path / "trace.json"
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    events = trace["traceEvents"]
    complete = [e for e in events if e["ph"] == "X"]
    names = [e["name"] for e in complete]
    assert names.count("sin") == 2 and names.count("sin_backward") == 2
    for e in complete:
        assert isinstance(e["ts"], float) and e["dur"] >= 0 and e["pid"] and e["tid"]
    sin = next(e for e in complete if e["name"] == "sin")
    assert sin["args"]["Input Dims"] == [[3]]
    # each backward rule has an arrow from the forward operation with its sequence number
    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    finishes = {e["id"]: e for e in events if e["ph"] == "f"}
    assert starts and set(starts) == set(finishes)
    backward = next(e for e in complete if e["name"] == "sin_backward")
    seq = backward["args"]["Sequence number"]
    forward = next(e for e in complete if e["name"] == "sin" and
                   e["args"]["Sequence number"] == seq)
    assert starts[seq]["ts"] == forward["ts"] and finishes[seq]["ts"] == backward["ts"]


def test_shapes_memory_and_stack():
    with fg.profiler.profile(record_shapes=True, profile_memory=True, with_stack=True) as prof:
        run_loop(2)
        fg.grad(loss)(np.ones(5))
    by_shape = {(e.key, str(e.input_shapes)): e for e in
                prof.key_averages(group_by_input_shape=True)}
    assert by_shape[("sin", "[[3]]")].count == 2 and by_shape[("sin", "[[5]]")].count == 1
    sin = next(e for e in prof.key_averages() if e.key == "sin")
    assert sin.cpu_memory_usage == (2 * 3 + 5) * 8  # bytes of the results
    assert "CPU Mem" in prof.key_averages().table()
    stacks = [e.stack for e in prof.events() if e.name == "sin"]
    assert all(any(__file__ in frame and "loss" in frame for frame in s) for s in stacks)
    grouped = prof.key_averages(group_by_stack_n=1)
    assert "Source Location" in grouped.table()
    with pytest.raises(ValueError, match="record_shapes=True"):
        fg.profiler.profile().key_averages(group_by_input_shape=True)


def test_nothing_is_replaced_when_not_profiling():
    assert core._state.interpreter is core.ROOT and core._state.instruments == ()
    with fg.profiler.profile(enabled=False) as prof:
        assert core._state.interpreter is core.ROOT and core._state.instruments == ()
        run_loop(1)
    assert prof.events() == []
    with fg.profiler.profile():
        assert core._state.interpreter is not core.ROOT
    assert core._state.interpreter is core.ROOT and core._state.instruments == ()


def test_nested_profiles_and_record_function():
    with fg.profiler.profile() as outer:
        run_loop(1)
        with fg.profiler.profile() as inner:
            with fg.profiler.record_function("my_block"):
                run_loop(1)
    assert counts(outer)["sin"] == 2 and counts(inner)["sin"] == 1
    block = next(e for e in inner.key_averages() if e.key == "my_block")
    assert block.count == 1 and block.cpu_time_total >= block.self_cpu_time_total
    assert core._state.interpreter is core.ROOT


def test_results_unchanged_while_profiling():
    expected = fg.grad(loss)(X)
    with fg.profiler.profile():
        np.testing.assert_array_equal(fg.grad(loss)(X), expected)
        h = fg.hessian(loss)(X)
    np.testing.assert_allclose(h, fg.hessian(loss)(X))


def test_profiling_inside_a_transform_warns():
    def f(x):
        with pytest.warns(RuntimeWarning, match="started inside a transform"):
            with fg.profiler.profile():
                pass
        return np.sum(x)
    fg.grad(f)(X)


def test_emit_nvtx_marks_forward_and_backward_ranges_with_seq(monkeypatch):
    ranges, depth = [], []
    fake = types.ModuleType("nvtx")
    fake.push_range = lambda message: (ranges.append(message), depth.append(1))
    fake.pop_range = lambda: depth.pop()
    monkeypatch.setitem(sys.modules, "nvtx", fake)
    with fg.profiler.emit_nvtx():
        fg.grad(loss)(X)
    assert depth == [] and core._state.interpreter is core.ROOT
    forward = [m for m in ranges if m.startswith("sin, seq = ")]
    backward = [m for m in ranges if m.startswith("sin_backward, stashed seq = ")]
    assert len(forward) == 1 and len(backward) == 1
    assert forward[0].split("= ")[1] == backward[0].split("= ")[1]


def test_emit_nvtx_without_the_package_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "nvtx", None)
    with pytest.raises(ImportError, match="pip install nvtx"):
        with fg.profiler.emit_nvtx():
            pass
    assert core._state.interpreter is core.ROOT


def test_all_tools_at_once_keep_results_and_clean_up():
    packed = []
    expected = fg.grad(loss)(X)
    with fg.detect_anomaly(), fg.profiler.profile() as prof, \
            fg.graph.saved_tensors_hooks(lambda x: (packed.append(1), x)[1], lambda x: x):
        got = fg.grad(loss)(X)
    np.testing.assert_array_equal(got, expected)
    # sin, multiply (2); the sum's rule reads only shapes (packs nothing, as in PyTorch)
    assert counts(prof)["sin_backward"] == 1 and len(packed) == 3
    assert core._state.interpreter is core.ROOT and core._state.instruments == ()
