"""The suite's issue-21 targets (benchmarks/targets.py), judged on made-up measurements.

Nothing is timed here: these check which ratios the report states and how it pairs the
round-robin samples.  tests/test_bench_smoke.py runs the suite itself.
"""
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import targets as tg, workloads as wl  # noqa: E402


def _result(key, workload, label=None, reference_only=False, **samples):
    libs = {name: {"status": "ok", "samples_s": list(s),
                   "median_s": sorted(s)[len(s) // 2]} for name, s in samples.items()}
    return {"key": key, "workload": workload, "label": label or key,
            "reference_only": reference_only, "libraries": libs}


def _by_target(results):
    return {t["target"]: t for t in tg.overhead_targets(results)}


def test_a_ratio_within_a_task_is_the_median_of_per_round_ratios():
    # The machine slows down from round 3 on (torch's third loop already slow, funcgrad's
    # not yet): four rounds of five say 0.4, while the two medians (1.0 and 10.0) say 0.1.
    fg = [1.0, 1.0, 1.0, 4.0, 4.0]
    torch = [2.5, 2.5, 10.0, 10.0, 10.0]
    got = _by_target([_result("W1.grad", "W1", **{wl.FG: fg, wl.TORCH: torch})])
    (t,) = got.values()
    assert t["ratio"] == pytest.approx(0.4)
    assert t["met"] is True and "at most 0.4x" in t["target"]


def test_w3_eager_is_judged_against_the_hand_written_numpy():
    res = _result("W3.value_and_grad", "W3", **{wl.FG: [1.2, 1.2, 1.2], wl.REF: [1.0] * 3})
    (t,) = _by_target([res]).values()
    assert t["ratio"] == pytest.approx(1.2) and t["met"] is False
    assert wl.REF in t["measured"]


def test_every_jit_row_against_jax_jit_and_w3_against_its_gemms():
    w3 = _result("W3.value_and_grad", "W3", **{wl.FG_JIT: [1.05] * 3,
                                                  wl.JAX_JIT: [1.5] * 3})
    floor = _result("W3.floor.gemm", "W3", reference_only=True, **{wl.REF: [1.0] * 3})
    w6 = _result("W6.jacrev", "W6", **{wl.FG_JIT: [2.0] * 3, wl.JAX_JIT: [1.0] * 3})
    got = _by_target([w3, floor, w6])
    jit_rows = {k: v for k, v in got.items() if "at or below" in k}
    assert sorted(v["met"] for v in jit_rows.values()) == [False, True]
    gemms = [v for k, v in got.items() if "GEMMs" in k]
    assert len(gemms) == 1 and gemms[0]["ratio"] == pytest.approx(1.05)
    assert gemms[0]["met"] is True


def test_a_side_not_measured_leaves_the_target_unjudged():
    res = _result("W2.grad", "W2", **{wl.FG: [1.0, 1.0]})  # torch missing
    (t,) = _by_target([res]).values()
    assert t["met"] is None and t.get("ratio") is None
    uneven = _result("W2.grad", "W2", **{wl.FG: [1.0, 1.0], wl.TORCH: [3.0]})
    (t,) = _by_target([uneven]).values()
    assert t["met"] is None
