"""``import funcgrad`` compiles nothing (DESIGN.md principle 8): Numba is imported lazily,
on the first kernel that needs it, never by the import itself."""
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


@pytest.mark.parametrize("module", ["funcgrad", "funcgrad.numpy"])
def test_import_does_not_import_numba(module):
    proc = subprocess.run([sys.executable, "-c", CHECK.format(module=module)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
