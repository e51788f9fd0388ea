"""Run some of ``tests/gpu_sim/`` in a child process under Numba's CUDA simulator.

The simulator must be switched on (``NUMBA_ENABLE_CUDASIM=1``) before Numba is first
imported, and the test processes import Numba for the CPU kernels, hence the child.  The
files are split between two test modules (``test_gpu.py``, ``test_gpu_transforms.py``)
so that the suite's two workers can run the halves side by side.

The child inherits ``tests/conftest.py``: its tests marked ``soak`` (the rest of a grid
whose representative cases run here) are deselected as in the parent, and
``run_under_simulator(..., soak=True)`` (a ``soak`` test of ``test_gpu_transforms.py``,
run by ``make soak``) runs only them.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SIM_TESTS = ROOT / "tests" / "gpu_sim"
# The two halves (about the same time each): test_gpu.py runs the first, and
# test_gpu_transforms.py the second and checks that together they hold every file.
KERNEL_FILES = ("test_kernels.py",)
OTHER_FILES = ("test_transforms.py", "test_decompositions.py", "test_fft.py",
               "test_complex.py", "test_graph_primitives.py", "test_scipy_spatial_fft.py",
               "test_special_polys_gpu.py")


def run_under_simulator(*files, soak=False):
    """Run ``tests/gpu_sim/<file>`` for each of ``files``; fail with the child's output.
    With ``soak``, run only their tests marked ``soak`` (tests/conftest.py)."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONWARNINGS="ignore")
    probe = subprocess.run([sys.executable, "-c", "from numba import cuda"], env=env,
                           capture_output=True, text=True, timeout=120)
    if probe.returncode:
        pytest.skip("Numba's CUDA simulator is not importable here (newer Numba ships no "
                    "numba.cuda): pip install numba-cuda. " + probe.stderr[-300:])
    # (the soak run: one parent test for all of them, under its 1800 s limit)
    select, limit = (["-m", "soak"], 1700) if soak else ([], 280)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout=250",
         *select, *(str(SIM_TESTS / f) for f in files)],
        capture_output=True, text=True, timeout=limit, env=env, cwd=ROOT)
    summary = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    print(f"{', '.join(files)} under the CUDA simulator: {summary}")
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert " passed" in summary and "failed" not in summary
