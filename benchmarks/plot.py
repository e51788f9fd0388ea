"""Bar chart of a benchmark-suite result: one group of bars per task, log scale.

Top panel: median seconds per call of every library; bottom panel: the same
as a ratio to the fastest peer (1 = as fast as the best of jax, jax.jit,
torch, torch.func, autograd).  Rows without a timed peer (the W4 floors) are
in the top panel only.

    python benchmarks/plot.py [benchmarks/results/suite.json] [out.png]

Needs matplotlib (``pip install matplotlib``, part of the ``bench`` extra);
without it, :func:`plot` returns ``(None, reason)`` and the suite says so.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ORDER = ["funcgrad (fnp)", "funcgrad (np)", "funcgrad.jit", "jax", "jax.jit", "torch",
         "torch.func", "autograd", "reference"]
COLORS = {"funcgrad (fnp)": "#d62728", "funcgrad (np)": "#ff9896",
          "funcgrad.jit": "#8c1d1d", "jax": "#1f77b4", "jax.jit": "#aec7e8",
          "torch": "#ff7f0e", "torch.func": "#ffbb78", "autograd": "#2ca02c",
          "reference": "#7f7f7f"}


def plot(payload: dict[str, Any], path: str | Path) -> tuple[Path | None, str | None]:
    """Write the PNG; ``(path, None)``, or ``(None, why)`` if it cannot."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None, "matplotlib is not installed (pip install matplotlib)"

    results = [r for r in payload["results"]
               if any("median_s" in rec for rec in r["libraries"].values())]
    if not results:
        return None, "nothing was timed"
    libs = [lib for lib in ORDER
            if any("median_s" in r["libraries"].get(lib, {}) for r in results)]
    ratio_rows = [r for r in results if r.get("fastest_peer")]

    fig, axes = plt.subplots(2, 1, figsize=(max(10, 0.8 * len(results) + 3), 10),
                             constrained_layout=True)
    width = 0.85 / len(libs)
    for ax, rows, key, ylabel in (
            (axes[0], results, "median_s", "seconds per call (median)"),
            (axes[1], ratio_rows, "ratio_to_fastest_peer", "time / fastest peer")):
        for j, lib in enumerate(libs):
            xs, ys = [], []
            for i, r in enumerate(rows):
                rec = r["libraries"].get(lib, {})
                if key in rec:
                    xs.append(i + (j - (len(libs) - 1) / 2) * width)
                    ys.append(rec[key])
            ax.bar(xs, ys, width, label=lib, color=COLORS.get(lib))
        ax.set_yscale("log")
        ax.set_ylabel(ylabel)
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels([r["label"] for r in rows], rotation=35, ha="right", fontsize=8)
        ax.grid(axis="y", which="both", alpha=0.3)
    axes[1].axhline(1.0, color="black", linewidth=0.8)
    axes[0].legend(ncol=min(len(libs), 5), fontsize=8)
    m = payload.get("machine", {})
    axes[0].set_title(f"funcgrad benchmark suite, {payload.get('date', '')}, "
                      f"{m.get('cpu_model', '')}, one thread per library")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path, None


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    src = Path(argv[0]) if argv else Path(__file__).parent / "results" / "suite.json"
    out = Path(argv[1]) if len(argv) > 1 else src.with_suffix(".png")
    png, why = plot(json.loads(src.read_text()), out)
    print(f"wrote {png}" if png else f"no plot: {why}", file=sys.stderr)
    return 0 if png else 1


if __name__ == "__main__":
    sys.exit(main())
