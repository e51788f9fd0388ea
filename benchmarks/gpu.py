"""The prepared real-GPU check for funcgrad's CUDA backend (issue 4).

One script, sized to fit a short lease on one GPU (under 10 minutes on an H200 with 16
cores), that writes what it has whenever it stops:

1. **preflight**: versions, the device, one trivial kernel compiled and run (a broken CUDA
   set-up ends the run at once, so that a lease is not spent waiting);
2. **correctness on the device** (``benchmarks/gpu_checks.py``): every GPU implementation
   (every primitive of the registry, through ``funcgrad.gpu.IMPLS``) against the CPU on
   small and multi-block sizes; the fused VJP kernels; the warp-shuffle reduction against
   its shared-memory twin (the simulator can only run the twin); grad / jacobian / hessian /
   vmap of whole functions.  Compiling the kernels is most of the time, so ``--jobs N``
   deals the checks out to N processes, and ``--tests`` runs ``tests/gpu_sim`` (the
   simulator suite) on the device beside them, with pytest-xdist workers;
3. **timings** (CUDA events, medians), alone on the machine: elementwise, fused-rule,
   reduction and matmul kernels at 1e6 and 1e8 elements, each with the achieved memory
   bandwidth as a fraction of the device's peak (and of a plain device-to-device copy); and
   ``grad`` of W4 (``sum(exp(sin x) cos^2 x + sqrt(1 + x^2))``) on the GPU against
   funcgrad's CPU path.

Results go to ``<out>/gpu.json``, ``<out>/gpu.md`` and (with ``--tests``)
``<out>/gpu_tests.log`` (``--out``, default ``benchmarks/results``), rewritten after each
phase; ``--deadline S`` stops waiting for the parallel checks S seconds after the start,
less the time the timings need, and records the checks that did not finish.  On the lent
machine (numba-cuda is installed there)::

    pip install -q --no-deps --no-build-isolation -e . && PYTHONUNBUFFERED=1 \\
        python benchmarks/gpu.py --jobs 10 --tests --test-workers 5 --deadline 480 --out $OUT

Other modes:

``--dry-run``       the whole script on the CUDA simulator with tiny sizes (no GPU; checks
                    the script itself)
``--skip-cpu-1e8``  skip the slowest CPU reference (W4 grad on 1e8 elements)
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

if "--dry-run" in sys.argv:  # must precede the first import of Numba
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from numba import cuda  # noqa: E402 - a global: the simulator swaps module globals in kernels

import funcgrad as fg  # noqa: E402
import funcgrad.numpy as fnp  # noqa: E402
from benchmarks import gpu_checks  # noqa: E402
from benchmarks.gpu_checks import compare, impl, log  # noqa: E402

RESULTS = gpu_checks.RESULTS
RESULTS["timings"] = []
TIMINGS_SECONDS = 150
"""What the timings phase is given at the end of a run with a deadline."""


# --- timing -------------------------------------------------------------------------------------

def gpu_time(fn, repeat=10, warmup=None):
    """Median seconds of ``fn()`` on the device (CUDA events around each call)."""
    from numba import cuda
    for _ in range(2 if warmup is None and repeat > 1 else (warmup or 0)):
        fn()
    cuda.synchronize()
    times = []
    from funcgrad.kernels.cuda import _config
    for _ in range(repeat):
        if _config.SIM:  # the simulator's events record no time
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
            continue
        start, stop = cuda.event(), cuda.event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3)
    return float(np.median(times))


def wall_time(fn, repeat=3, warmup=1):
    for _ in range(warmup if repeat > 1 else 0):
        fn()
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return float(np.median(times))


def peak_bandwidth():
    """(theoretical bytes/s from the memory clock and bus, or None; device info)."""
    from numba import cuda
    from funcgrad.kernels.cuda import _config
    if _config.SIM:
        return None, {"device": "CUDA simulator"}
    dev = cuda.get_current_device()
    info = {"device": dev.name.decode() if isinstance(dev.name, bytes) else str(dev.name),
            "compute_capability": list(dev.compute_capability),
            "multiprocessors": dev.MULTIPROCESSOR_COUNT}
    try:
        clock_khz = dev.MEMORY_CLOCK_RATE
        bus_bits = dev.GLOBAL_MEMORY_BUS_WIDTH
        peak = 2 * clock_khz * 1e3 * bus_bits / 8
        info["memory_clock_khz"], info["bus_bits"] = clock_khz, bus_bits
    except Exception:  # noqa: BLE001 - attribute names differ across versions
        peak = None
    if not peak or peak < 1e11:
        peak = 4.8e12 if "H200" in info["device"] else None  # the H200's data-sheet figure
    return peak, info


def record(name, n, seconds, bytes_moved=None, flops=None, peak=None, copy_bw=None, **extra):
    row = {"name": name, "n": n, "ms": seconds * 1e3}
    if bytes_moved:
        bw = bytes_moved / seconds
        row["GB/s"] = bw / 1e9
        if peak:
            row["of_peak"] = bw / peak
        if copy_bw:
            row["of_copy"] = bw / copy_bw
    if flops:
        row["TFLOP/s"] = flops / seconds / 1e12
    row.update(extra)
    RESULTS["timings"].append(row)
    log("  " + "  ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                         for k, v in row.items()))


def timings(sizes, skip_cpu_big, dry):
    from numba import cuda
    from funcgrad.gpu import fused_vjp
    from funcgrad.primitives.elementwise import tanh_p
    peak, info = peak_bandwidth()
    RESULTS["device"] = info
    RESULTS["peak_bandwidth_GBps"] = peak / 1e9 if peak else None
    rng = np.random.default_rng(1)
    repeat = 1 if dry else 10
    for n in sizes:
        n = int(n)
        log(f"\n== n = {n:.0e}")
        x64 = fg.device_put(np.linspace(-3.0, 3.0, n))
        x32 = fg.device_put(np.linspace(-3.0, 3.0, n, dtype=np.float32))
        y64 = fg.device_put(rng.standard_normal(n))
        # the practical peak: a device-to-device copy
        dst = cuda.device_array(n, np.float64)
        copy_s = gpu_time(lambda: dst.copy_to_device(x64.buf), repeat)
        copy_bw = 2 * 8 * n / copy_s
        record("device copy (cuda memcpy D2D) f64", n, copy_s, 16 * n, peak=peak)
        for label, fn, nbytes in [
            ("copy kernel (cast) f64", lambda: impl("convert_element_type")(
                x64, dtype=np.float32), 12 * n),
            ("add f64", lambda: impl("add")(x64, y64), 24 * n),
            ("multiply scalar f32", lambda: impl("multiply")(x32, 2.0), 8 * n),
            ("exp f32", lambda: impl("exp")(x32), 8 * n),
            ("exp f64", lambda: impl("exp")(x64), 16 * n),
            ("tanh f32", lambda: impl("tanh")(x32), 8 * n),
            ("add broadcast (n/1000,1000)+(1000,) f64",
             lambda: impl("add")(impl("reshape")(x64, shape=(n // 1000, 1000)),
                                  x64[:1000]), 16 * n),
        ]:
            record(label, n, gpu_time(fn, repeat), nbytes, peak=peak, copy_bw=copy_bw)
        # fused rule kernel vs the rule's unfused primitives
        t64 = impl("tanh")(x64)
        record("tanh VJP fused f64 (g, y -> g*(1-y^2))", n,
               gpu_time(lambda: fused_vjp(tanh_p, 0, y64, [x64], t64), repeat), 24 * n, peak=peak,
               copy_bw=copy_bw)
        record("tanh VJP unfused f64 (square, subtract, multiply)", n, gpu_time(
            lambda: impl("multiply")(y64, impl("subtract")(1.0, impl("square")(t64))),
            repeat), 24 * n, peak=peak, copy_bw=copy_bw, note="bytes of the fused kernel")
        # reductions
        m = impl("reshape")(x64, shape=(n // 1000, 1000))
        for label, fn, nbytes in [
            ("sum all f64", lambda: impl("reduce_sum")(x64, axes=(0,), keepdims=False), 8 * n),
            ("sum all f32", lambda: impl("reduce_sum")(x32, axes=(0,), keepdims=False), 4 * n),
            ("max all f64", lambda: impl("reduce_max")(x64, axes=(0,), keepdims=False), 8 * n),
            ("sum rows (n/1000,1000) axis 1", lambda: impl("reduce_sum")(
                m, axes=(1,), keepdims=False), 8 * n),
            ("sum cols (n/1000,1000) axis 0", lambda: impl("reduce_sum")(
                m, axes=(0,), keepdims=False), 8 * n),
            ("logsumexp rows axis 1", lambda: impl("logsumexp")(
                m, axes=(1,), keepdims=False), 16 * n),
            ("cumsum f64", lambda: impl("cumsum")(x64, axis=0), 16 * n),
        ]:
            record(label, n, gpu_time(fn, repeat), nbytes, peak=peak, copy_bw=copy_bw)
        from funcgrad.kernels.cuda import reduce as R
        if not R.SIM:
            for shuffle in (True, False):
                record(f"sum all f64 tree, shuffle={shuffle}", n, gpu_time(
                    lambda: R.rows("sum", x64.buf, 0, 1, n, n, 1, np.float64, shuffle=shuffle),
                    repeat), 8 * n, peak=peak, copy_bw=copy_bw)
        # W4 grad: GPU against funcgrad's CPU path
        xs = np.linspace(-3.0, 3.0, n)
        xg = fg.device_put(xs)

        def w4(x):
            return fnp.sum(fnp.exp(fnp.sin(x)) * fnp.cos(x) ** 2 + fnp.sqrt(1 + x * x))
        grad = fg.grad(w4)
        g_gpu = wall_time(lambda: grad(xg), repeat=repeat)
        d2h = wall_time(lambda: np.asarray(xg), repeat=repeat)
        record("W4 grad on GPU (wall, result copied to host by fg.grad)", n, g_gpu)
        record("W4 grad on GPU minus the copy back (device time)", n, max(g_gpu - d2h, 1e-9),
               d2h_ms=d2h * 1e3)
        if not (skip_cpu_big and n >= 1e8):
            g_cpu = wall_time(lambda: grad(xs), repeat=1 if n >= 1e8 else repeat)
            record("W4 grad on CPU (funcgrad, NumPy path)", n, g_cpu, speedup_gpu=g_cpu / g_gpu)
        got = np.asarray(grad(xg))
        s, c = np.sin(xs), np.cos(xs)
        want = np.exp(s) * c * (c * c - 2 * s) + xs / np.sqrt(1 + xs * xs)
        compare(f"W4 grad on GPU, n={n:.0e}", fg.device_put(got), want, 1e-9, 1e-9)
        del x64, x32, y64, dst, m, xg, t64
    # matmul
    for size in ([8] if dry else [1024, 4096]):
        for dtype in (np.float32, np.float64):
            a = fg.device_put(rng.standard_normal((size, size)).astype(dtype))
            b = fg.device_put(rng.standard_normal((size, size)).astype(dtype))
            t = gpu_time(lambda: impl("matmul")(a, b), 3 if size > 2000 else repeat)
            ha, hb = np.asarray(a), np.asarray(b)
            t_cpu = wall_time(lambda: ha @ hb, repeat=1 if size > 2000 else 3)
            record(f"matmul {size}^3 {np.dtype(dtype).name}", size, t, flops=2 * size ** 3,
                   cpu_blas_ms=t_cpu * 1e3)
    nb, edge = (2, 8) if dry else (64, 128)
    bmm = [fg.device_put(rng.standard_normal((nb, edge, edge)).astype(np.float32))
           for _ in range(2)]
    record(f"batched matmul {nb}x{edge}^3 f32", nb, gpu_time(lambda: impl("matmul")(*bmm),
                                                             repeat), flops=2 * nb * edge ** 3)


# --- main --------------------------------------------------------------------------------------

def versions():
    out = {"python": platform.python_version(), "numpy": np.__version__}
    for name in ("numba", "numba_cuda"):
        try:
            mod = __import__(name)
            out[name] = getattr(mod, "__version__", "?")
        except ImportError:
            out[name] = None
    try:
        smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                              "--format=csv,noheader"], capture_output=True, text=True,
                             timeout=20)
        out["nvidia-smi"] = smi.stdout.strip()
    except Exception:  # noqa: BLE001
        out["nvidia-smi"] = None
    return out


def markdown():
    lines = ["# funcgrad GPU check", "", f"device: {RESULTS.get('device')}",
             f"peak bandwidth (GB/s): {RESULTS.get('peak_bandwidth_GBps')}", ""]
    checks = RESULTS["checks"]
    bad = [c for c in checks if not c["ok"]]
    lines.append(f"correctness: {len(checks) - len(bad)} of {len(checks)} checks passed")
    lines += [f"- FAILED {c['check']}: {c['detail']}" for c in bad]
    lines += ["", "| kernel | n | ms | GB/s | of peak | of copy | TFLOP/s | other |",
              "|---|---|---|---|---|---|---|---|"]
    for r in RESULTS["timings"]:
        other = ", ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                          for k, v in r.items()
                          if k not in ("name", "n", "ms", "GB/s", "of_peak", "of_copy",
                                       "TFLOP/s"))

        def f(key, fmt="{:.3g}"):
            return fmt.format(r[key]) if key in r else ""
        lines.append(f"| {r['name']} | {r['n']:.0e} | {f('ms')} | {f('GB/s', '{:.0f}')} | "
                     f"{f('of_peak', '{:.0%}')} | {f('of_copy', '{:.0%}')} | {f('TFLOP/s')} | "
                     f"{other} |")
    if RESULTS["errors"]:
        lines += ["", "errors:"] + [f"- {e['phase']}: {e['error']}" for e in RESULTS["errors"]]
    return "\n".join(lines) + "\n"



# --- running -----------------------------------------------------------------------------------

def preflight():
    """The device, and one trivial kernel compiled and run: a broken CUDA set-up stops the run
    here, in seconds."""
    from funcgrad.kernels.cuda import _config
    if not _config.SIM:
        dev = cuda.get_current_device()
        log("device:", dev.name, dev.compute_capability)

    @cuda.jit
    def fill(a):
        i = cuda.grid(1)
        if i < a.size:
            a[i] = i

    d = cuda.device_array(64, np.float64)
    fill[1, 64](d)
    assert np.array_equal(d.copy_to_host(), np.arange(64.0)), "a trivial kernel computed wrong"
    x = fg.device_put(np.linspace(0, 1, 10))
    compare("preflight: exp of a device array", impl("exp")(x), np.exp(np.linspace(0, 1, 10)),
            1e-12, 1e-12)


def shard_main(args):
    """One of the ``--jobs`` processes: its share of the checks, the results file rewritten
    after each task (so a process stopped at the deadline keeps what it did)."""
    i, n = map(int, args.shard.split("/"))
    selected = gpu_checks.tasks()[i::n]
    path = Path(args.out) / f"shard-{i}.json"
    done = []

    def save(label):
        done.append(label)
        path.write_text(json.dumps({"checks": RESULTS["checks"], "done": done}, default=str))
    (Path(args.out) / f"shard-{i}.tasks").write_text(json.dumps([label for label, _ in selected]))
    gpu_checks.run(selected, args.big, save)
    return 0


def parallel_correctness(args, out, deadline):
    """Deal the checks out to ``--jobs`` processes (and ``tests/gpu_sim`` to pytest-xdist
    workers beside them); wait until they finish or ``deadline`` (perf_counter seconds)."""
    work = Path(tempfile.mkdtemp(prefix="funcgrad-gpu-"))
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", NUMBA_NUM_THREADS="1")
    procs = []
    for i in range(args.jobs):
        cmd = [sys.executable, __file__, "--shard", f"{i}/{args.jobs}", "--out", str(work),
               "--big", str(args.big)] + (["--dry-run"] if args.dry_run else [])
        log_file = open(work / f"shard-{i}.log", "w")
        procs.append((f"checks {i}/{args.jobs}",
                      subprocess.Popen(cmd, stdout=log_file, stderr=subprocess.STDOUT, env=env,
                                       cwd=ROOT), work / f"shard-{i}.log"))
    if args.tests:
        test_env = dict(env, FUNCGRAD_GPU_TESTS="device")
        test_env.pop("NUMBA_ENABLE_CUDASIM", None)
        if args.dry_run:
            test_env["NUMBA_ENABLE_CUDASIM"] = "1"
        cmd = [sys.executable, "-m", "pytest", "-v", "-rfE", "-p", "no:cacheprovider",
               "--timeout", "300", str(ROOT / "tests" / "gpu_sim")] + (
            ["-n", str(args.test_workers)] if args.test_workers > 1 else []) + (
            args.test_args.split() if args.test_args else [])
        log_path = out / "gpu_tests.log"
        procs.append(("tests/gpu_sim on the device", subprocess.Popen(
            cmd, stdout=open(log_path, "w"), stderr=subprocess.STDOUT, env=test_env, cwd=ROOT),
            log_path))
    while any(p.poll() is None for _, p, _ in procs) and time.perf_counter() < deadline:
        time.sleep(1)
    for label, p, log_path in procs:
        if p.poll() is None:
            p.kill()
            p.wait()
            RESULTS["errors"].append({"phase": label, "error": "stopped at the deadline"})
        elif p.returncode and not label.startswith("tests"):
            RESULTS["errors"].append({"phase": label, "error": f"exit {p.returncode}: " +
                                      log_path.read_text()[-800:]})
    for i in range(args.jobs):
        path, planned = work / f"shard-{i}.json", work / f"shard-{i}.tasks"
        got = json.loads(path.read_text()) if path.exists() else {"checks": [], "done": []}
        RESULTS["checks"].extend(got["checks"])
        todo = json.loads(planned.read_text()) if planned.exists() else []
        for label in todo[len(got["done"]):]:
            RESULTS["checks"].append({"check": label, "ok": False,
                                      "detail": "did not run (stopped at the deadline)"})
    if args.tests:
        text = (out / "gpu_tests.log").read_text()
        tail = text.strip().splitlines()[-1] if text.strip() else "no output"
        RESULTS["checks"].append({"check": "tests/gpu_sim on the device",
                                  "ok": procs[-1][1].returncode == 0, "detail": tail})


def write(out, start):
    RESULTS["seconds"] = time.perf_counter() - start
    (out / "gpu.json").write_text(json.dumps(RESULTS, indent=1, default=str))
    (out / "gpu.md").write_text(markdown())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results"))
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--tests", action="store_true", help="run tests/gpu_sim on the device")
    parser.add_argument("--test-workers", type=int, default=1)
    parser.add_argument("--test-args", default="", help="more pytest arguments for --tests")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the checks")
    parser.add_argument("--deadline", type=float, default=0,
                        help="seconds from the start by which everything is written")
    parser.add_argument("--skip-cpu-1e8", action="store_true")
    parser.add_argument("--sizes", default=None, help="comma-separated element counts")
    parser.add_argument("--skip-correctness", action="store_true")
    parser.add_argument("--skip-timings", action="store_true")
    parser.add_argument("--shard", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--big", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.big = args.big or (64 if args.dry_run else 4096)  # multi-block sizes on a real GPU
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.shard:
        return shard_main(args)
    start = time.perf_counter()
    RESULTS["versions"] = versions()
    log("versions:", RESULTS["versions"])
    sizes = [float(s) for s in args.sizes.split(",")] if args.sizes else (
        [1e3] if args.dry_run else [1e6, 1e8])
    try:
        preflight()
    except Exception as e:  # noqa: BLE001 - nothing else can work: say why and stop
        traceback.print_exc()
        RESULTS["errors"].append({"phase": "preflight", "error": f"{type(e).__name__}: {e}"})
        write(out, start)
        return 2
    end = start + args.deadline if args.deadline else float("inf")
    phases = []
    if not args.skip_correctness:
        if args.jobs > 1 or args.tests:
            phases.append(("correctness", lambda: parallel_correctness(
                args, out, end - (0 if args.skip_timings else TIMINGS_SECONDS))))
        else:
            phases.append(("correctness", lambda: gpu_checks.run(gpu_checks.tasks(), args.big)))
    if not args.skip_timings:
        phases.append(("timings", lambda: timings(sizes, args.skip_cpu_1e8, args.dry_run)))
    for phase, fn in phases:
        log(f"\n=== {phase} ({time.perf_counter() - start:.0f}s)")
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - record, and go on to the next phase
            traceback.print_exc()
            RESULTS["errors"].append({"phase": phase, "error": f"{type(e).__name__}: {e}"})
        write(out, start)
    log("\n" + markdown())
    bad = [c for c in RESULTS["checks"] if not c["ok"]]
    return 1 if bad or RESULTS["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
