"""The benchmark suite runs: every workload once, at tiny size, for funcgrad only.

This keeps ``benchmarks/`` honest (each workload builds, funcgrad's result passes
the suite's own check against the closed form, the report, JSON and plot are
written) without timing anything that matters: no timing assertion here, and
no jax, torch or autograd needed.
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import suite, workloads as wl  # noqa: E402

FUNCGRAD_EAGER = [wl.FG, wl.FG_NP]


@pytest.fixture(scope="module")
def payload(tmp_path_factory):
    """W1-W6 and W8 for every funcgrad variant, and W7 (fresh processes, the slow part) for
    funcgrad (fnp) only; the two runs' results are merged."""
    out = tmp_path_factory.mktemp("bench")
    common = ["--size", "tiny", "--rounds", "1", "--target-ms", "0.1", "--startup-reps", "1",
              "--out-dir", str(out), "--no-plot"]
    assert suite.main(common + ["--only", "W1,W2,W3,W4,W5,W6,W8", "--libs", "funcgrad",
                                "--name", "smoke"]) == 0
    assert suite.main(common + ["--only", "W7", "--libs", wl.FG, "--name", "smoke-w7"]) == 0
    data = json.loads((out / "smoke.json").read_text())
    data["results"] += json.loads((out / "smoke-w7.json").read_text())["results"]
    data["_out"] = out
    return data


def test_every_workload_ran(payload):
    workloads = {r["workload"] for r in payload["results"]}
    assert workloads == {"W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8"}


def test_funcgrad_results_are_right_and_timed(payload):
    for res in payload["results"]:
        if res["reference_only"] or res["workload"] == "W7":
            continue
        for label in FUNCGRAD_EAGER:
            rec = res["libraries"][label]
            assert rec["status"] == "ok", (res["label"], label, rec)
            assert rec["median_s"] > 0
        jit = res["libraries"][wl.FG_JIT]
        assert jit["status"] in ("ok", "skipped"), (res["label"], jit)


def test_startup_measured(payload):
    rows = {r["key"]: r for r in payload["results"] if r["workload"] == "W7"}
    assert set(rows) == {"W7.import", "W7.first_grad.warm", "W7.first_grad.cold",
                         "W7.w3_first_call.warm", "W7.w3_first_call.cold"}
    for row in rows.values():
        rec = row["libraries"][wl.FG]
        assert rec["status"] == "ok", (row["label"], rec)
        assert rec["median_s"] > 0


def test_report_written(payload):
    md = (payload["_out"] / "smoke.md").read_text()
    assert "| task" in md and "W6 jacrev" in md and "Targets (issue 11)" in md
    assert payload["targets"]  # each target listed, met or not


def test_checks_catch_a_wrong_result():
    """A result off by a little is WRONG, a tiny but right gradient is not."""
    expected = np.array([1e-60, 2e-60, 3.0])
    assert wl.compare(expected * (1 + 1e-12), expected, 1e-9, 1e-12) is None
    assert wl.compare(expected * 1.001, expected, 1e-9, 1e-12) is not None
    assert wl.compare([expected], [expected, expected], 1e-9, 1e-12) is not None
    assert wl.compare({"a": np.zeros(2)}, {"a": np.zeros(3)}, 1e-9, 1e-12) is not None


def test_plot(payload, tmp_path):
    pytest.importorskip("matplotlib")
    from benchmarks import plot

    png, why = plot.plot(payload, tmp_path / "smoke.png")
    assert why is None and png.stat().st_size > 0


def test_checks_catch_a_wrong_dtype():
    x = np.ones(3, np.float32)
    assert wl.compare(x, x.astype(np.float64), 1e-6, 0, np.float32) is None
    assert "dtype" in wl.compare(x.astype(np.float64), x, 1e-6, 0, np.float32)
