"""The long reliability runs (``make soak``): threads, memory, fuzzing, odd inputs and
kernel safety, with the figures the short CI variants only sample.

What it runs
    The reliability test files and the kernel suite with ``FUNCGRAD_LONG=1``:

    ``tests/test_reliability_threads.py``  8 threads x 1,000 calls of each workload
                                           (grad, jvp, vmap, hessian, the Numba kernels,
                                           the eager Tensor and jit when present)
    ``tests/test_reliability_memory.py``   100,000 calls of grad / hessian /
                                           Tensor.backward / jit(grad): tracemalloc and RSS
    ``tests/test_fuzz.py``                 tens of thousands of random programs, randomised
                                           (not the fixed CI seeds)
    ``tests/test_odd_inputs.py``           1e8-element arrays (about 0.8 GB each; peak
                                           memory is asserted to stay a few times that)
    ``tests/test_kernel_safety.py``        every adversarial index at every entry point
    ``tests/test_kernels.py``              every generated rule kernel in both forms (the
                                           special functions' series compile for seconds,
                                           which `make test` runs only as ufuncs)
    ``tests/test_optim.py``                every fg.optim optimizer compiled under fg.jit
                                           (`make test` compiles one)
    ``tests/test_kernel_loading.py``       every kernel's NumPy twin against its ufunc in
                                           both dtypes (`make test`: the ufuncs already
                                           compiled)
    ``-m soak tests`` (``marked``)         the tests marked ``soak`` in the other files:
                                           the exhaustive fg.jit grids (every shape, axis
                                           or mode compiled) whose representative cases
                                           `make test` runs, more random jit programs, and
                                           the CUDA simulator's (tests/gpu_sim/) rest of
                                           its grids and hypothesis examples

    It takes a long time (an hour or more on a small machine) and several GB of memory.

Run
    make soak
    python benchmarks/soak.py [--only threads|memory|fuzz|odd|kernels|generated|optim|twins
                                      |marked ...]
                              [--fuzz-scale S] [--out PATH] [-- extra pytest args]

Prints a summary of the figures (calls per thread, memory before/after per workload,
programs fuzzed, peak memory of the large arrays, adversarial cases run) and writes them
with the test outcome to ``benchmarks/results/soak.json``.  The exit status is pytest's.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = {
    "threads": "tests/test_reliability_threads.py",
    "memory": "tests/test_reliability_memory.py",
    "fuzz": "tests/test_fuzz.py",
    "odd": "tests/test_odd_inputs.py",
    "kernels": "tests/test_kernel_safety.py",
    "generated": "tests/test_kernels.py",
    "optim": "tests/test_optim.py",
    "twins": "tests/test_kernel_loading.py",
}


def _mib(n):
    return f"{n / 2**20:.2f} MiB"


def summarize(figures):
    lines = []
    for f in figures:
        kind = f.get("test")
        if kind == "threads":
            per = f["calls_per_thread"]
            lines.append(f"threads: {f['threads']} threads, calls per thread and workload "
                         f"{per}, {f['total_calls']} calls in {f['seconds']} s")
        elif kind == "memory":
            lines.append(
                f"memory {f['workload']:>18}: {f['calls']:>7} calls, tracemalloc "
                f"{_mib(f['traced_before'])} -> {_mib(f['traced_after'])}, RSS "
                f"{_mib(f['rss_before'])} -> {_mib(f['rss_after'])}")
        elif kind == "fuzz":
            lines.append("fuzz: " + ", ".join(f"{k} {v}" for k, v in f.items() if k != "test"))
        elif kind == "large":
            lines.append(f"large {f['function']:>18}: {f['elements']:.0e} elements, peak "
                         f"{f['peak_over_input']}x the input ({_mib(f['peak_bytes'])})")
        elif kind == "kernel_safety":
            lines.append(f"kernel safety: {f['entry_points']} entry points, {f['cases']} "
                         f"adversarial cases")
        else:
            lines.append(json.dumps(f))
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    groups = sorted(FILES) + ["marked"]
    parser.add_argument("--only", nargs="+", choices=groups, default=groups)
    parser.add_argument("--fuzz-scale", type=float, default=1.0,
                        help="scale the number of fuzzed programs (default 1)")
    parser.add_argument("--out", default=os.path.join(ROOT, "benchmarks", "results",
                                                      "soak.json"))
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)

    fd, figures_path = tempfile.mkstemp(prefix="funcgrad-soak-", suffix=".jsonl")
    os.close(fd)
    env = dict(os.environ, FUNCGRAD_LONG="1", FUNCGRAD_FIGURES=figures_path,
               FUNCGRAD_FUZZ_SCALE=str(args.fuzz_scale))
    files = [FILES[name] for name in sorted(FILES) if name in args.only]
    pytest = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    commands = [pytest + files + args.pytest_args] if files else []
    if "marked" in args.only:  # (the files above already run theirs)
        commands.append(pytest + ["-m", "soak", "tests"] + [f"--ignore={f}" for f in files]
                        + args.pytest_args)
    start = time.time()
    status = 0
    for command in commands:
        print("$ FUNCGRAD_LONG=1 " + " ".join(command[1:]), flush=True)
        status = subprocess.call(command, cwd=ROOT, env=env) or status
    elapsed = time.time() - start
    with open(figures_path) as fh:
        figures = [json.loads(line) for line in fh if line.strip()]
    os.unlink(figures_path)

    print("\n== soak figures ==")
    print(summarize(figures))
    print(f"pytest exit status {status}, {elapsed / 60:.1f} min")
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "machine": platform.platform(),
              "cpus": os.cpu_count(), "python": platform.python_version(),
              "files": files + (["-m soak tests"] if "marked" in args.only else []),
              "pytest_exit_status": status, "minutes": round(elapsed / 60, 1),
              "figures": figures}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as fh:
        json.dump(result, fh, indent=1)
    print(f"wrote {os.path.relpath(args.out, ROOT)}")
    return status


if __name__ == "__main__":
    sys.exit(main())
