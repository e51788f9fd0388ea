"""funcgrad keeps freed array memory for the next call (funcgrad/_malloc.py): a repeated
gradient on large arrays stops page-faulting its memory back in on every call, on the
main thread and on a thread started later (which glibc would give an arena of its own)."""
import json
import subprocess
import sys
import textwrap

import pytest

_CHILD = textwrap.dedent("""
    import json, resource, sys, threading
    import numpy as np, funcgrad as fg
    f = lambda x: np.sum(np.exp(np.sin(x)) * np.cos(x) ** 2 + np.sqrt(1 + x * x))
    g = fg.grad(f)
    x = np.linspace(-3, 3, 1_000_000)
    faults = []

    def measure():
        g(x)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(5):
            g(x)
        faults.append((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 5)

    if sys.argv[1] == "thread":
        worker = threading.Thread(target=measure)
        worker.start()
        worker.join()
    else:
        measure()
    print(json.dumps({"faults_per_call": faults[0],
                      "tuned": fg._malloc.keep_freed_memory()}))
""")


def _faults(env_keep, where="main"):
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("MALLOC_")}
    env.pop("GLIBC_TUNABLES", None)
    if env_keep is not None:
        env["FUNCGRAD_MALLOC_KEEP"] = env_keep
    out = subprocess.run([sys.executable, "-c", _CHILD, where], capture_output=True, text=True,
                         env=env, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a glibc setting (Linux)")
@pytest.mark.parametrize("where", ["main", "thread"])
def test_a_repeated_large_gradient_reuses_its_memory(where):
    default = _faults(None, where)
    if not default["tuned"]:
        pytest.skip("not glibc: the allocator is left as it is")
    off = _faults("0", where)
    # An 8 MB array is 2048 pages: without the setting each call faults in its ~20 arrays.
    assert off["faults_per_call"] > 2000, off
    assert default["faults_per_call"] < 500, default
