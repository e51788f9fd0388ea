"""``python -m funcgrad.demo`` (what ``make demo`` runs) exits cleanly, quickly, and every
finite-difference check it prints is small."""
import re
import subprocess
import sys

DIFF = re.compile(r"max abs difference[^:\n]*:\s*([-+0-9.eEinfa]+)")


def test_demo_runs_and_its_derivatives_match_finite_differences():
    proc = subprocess.run([sys.executable, "-m", "funcgrad.demo"], capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr.strip() == "", proc.stderr
    out = proc.stdout
    diffs = [float(d) for d in DIFF.findall(out)]
    # tanh loss (dW, dx), grad(grad(sin)), jacfwd, jacrev, Rosenbrock Hessian, vmap(grad).
    assert len(diffs) == 7, out
    for name in ("grad(grad(sin))", "jacfwd", "jacrev", "hessian", "vmap"):
        assert name in out, f"the demo no longer shows {name}"
    assert all(d == d for d in diffs), out      # no NaN
    # The Hessian's entries are ~1e3 and its second differences carry ~1e-5 of rounding;
    # everything else agrees to ~1e-8.
    assert max(diffs) < 1e-4, out
    assert sorted(diffs)[-2] < 1e-6, out
