"""``import funcgrad`` compiles nothing (DESIGN.md principle 8): Numba is imported lazily,
on the first kernel that needs it, never by the import itself."""
import os
import subprocess
import sys

import pytest

CHECK = """
import sys
import {module}
loaded = sorted(m for m in sys.modules if m == "numba" or m.startswith("numba."))
print("numba modules:", loaded)
raise SystemExit(1 if loaded else 0)
"""


@pytest.mark.parametrize("module", ["funcgrad", "funcgrad.numpy",
                                    # (the twins compute while Numba loads: none of it)
                                    "funcgrad.kernels.cpu._twins"])
def test_import_does_not_import_numba(module):
    proc = subprocess.run([sys.executable, "-c", CHECK.format(module=module)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


SMALL_GRAD = """
import os, sys
import numpy as np
import funcgrad as fg, funcgrad.numpy as fnp
x = np.linspace(-1.0, 1.0, 16)
g = fg.grad(lambda v: fnp.sum(fnp.sin(v) * fnp.cos(v) + fnp.tanh(v) / (1 + v * v)))(x)
t = np.tanh(x)
assert np.allclose(g, np.cos(2 * x) + (1 - t * t) / (1 + x * x) - 2 * x * t / (1 + x * x) ** 2)
print("numba" in sys.modules)
"""


@pytest.mark.parametrize("ufunc_min, loads_numba", [("4096", False), ("1", True)])
def test_small_arrays_load_numba_only_when_ufunc_min_allows(ufunc_min, loads_numba):
    """By default the first kernel a small array needs loads Numba (the kernel ufuncs beat
    NumPy's expressions from then on); FUNCGRAD_UFUNC_MIN above the sizes keeps a script of
    small arrays on NumPy, with Numba never imported."""
    env = {**os.environ, "FUNCGRAD_UFUNC_MIN": ufunc_min}
    proc = subprocess.run([sys.executable, "-c", SMALL_GRAD], capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split()[-1] == str(loads_numba)


SERIES_ON_FIRST_USE = """
import sys
import numpy as np
import funcgrad, funcgrad.numpy as fnp
late = ["numpy.polynomial", "funcgrad.numpy.orthogonal_series", "funcgrad.numpy._polynomial_class"]
assert not [m for m in late if m in sys.modules], [m for m in late if m in sys.modules]
from funcgrad.numpy.polynomial import chebyshev, Chebyshev
assert chebyshev.Chebyshev is Chebyshev and fnp.polynomial.Polynomial.__name__ == "Polynomial"
c = np.array([1.0, -2.0, 0.5])
assert chebyshev.chebval(0.3, c) == np.polynomial.chebyshev.chebval(0.3, c)
"""


def test_orthogonal_series_and_classes_load_on_first_use():
    """numpy.polynomial's twins (and numpy.polynomial itself) are not part of
    ``import funcgrad``'s time; naming one loads them."""
    proc = subprocess.run([sys.executable, "-c", SERIES_ON_FIRST_USE], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
