"""Numba's on-disk cache of the kernels follows every kernel file (kernels/_numba_stamp.py).

Numba alone keys a cached function by its own file: a kernel that inlines another
module's function kept its old machine code after only that module changed.  Here a
copy of the kernels package is compiled in one process, and a later process finds the
cache valid, then invalid once another file of the package changed.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import funcgrad.kernels

KERNELS = Path(funcgrad.kernels.__file__).resolve().parent

# recurrence's one cached function, called once; prints Numba's cache hits and misses
PROBE = """
import numpy as np
from fgk_copy.cpu import recurrence
recurrence.all_pole(np.ones((1, 2)), np.ones((1, 3)))
stats = recurrence._rows.stats
print(sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""


def _run(root):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=env,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    hits, misses = map(int, done.stdout.split())
    return hits, misses


def test_a_change_to_another_kernel_file_recompiles_the_cached_kernels(tmp_path):
    copy = tmp_path / "fgk_copy"
    shutil.copytree(KERNELS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert _run(tmp_path) == (0, 1)   # compiled, and written to the copy's cache
    assert _run(tmp_path) == (1, 0)   # the next process loads it
    # a file recurrence does not import changes: before the stamp, still a hit
    with open(copy / "cpu" / "_pairwise.py", "a") as f:
        f.write("\n# changed\n")
    assert _run(tmp_path) == (0, 1)
    assert _run(tmp_path) == (1, 0)
