"""GPU arrays (funcgrad.gpu, kernels/cuda), tested without a GPU.

The kernel and transform tests live in ``tests/gpu_sim/`` and run under Numba's CUDA
simulator in a child process (``cuda_simulator.py``): the kernels' half here, the rest
in ``test_gpu_transforms.py``.  Here also: the behaviour without any CUDA.
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cuda_simulator import KERNEL_FILES, run_under_simulator

ROOT = Path(__file__).resolve().parent.parent


def _run(code, env_extra=None, timeout=120):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=ROOT)


def test_gpu_kernels_under_the_cuda_simulator():
    run_under_simulator(*KERNEL_FILES)


def test_device_put_without_a_gpu_says_why():
    proc = _run("""
import numpy as np, funcgrad as fg
from funcgrad.gpu import CudaUnavailableError
try:
    fg.device_put(np.ones(3), "cuda")
except CudaUnavailableError as e:
    print("MESSAGE:", e)
else:
    print("GPU-PRESENT")
""")
    assert proc.returncode == 0, proc.stderr
    if "GPU-PRESENT" in proc.stdout:
        pytest.skip("this machine has a usable CUDA GPU")
    message = proc.stdout
    assert "no usable CUDA GPU" in message
    assert "numba-cuda" in message and "NUMBA_ENABLE_CUDASIM" in message


def test_device_put_without_numba_cuda_says_what_to_install():
    proc = _run("""
import sys, numpy as np
class Block:
    def find_spec(self, name, path=None, target=None):
        if name == "numba.cuda" or name.startswith("numba.cuda."):
            raise ImportError("No module named 'numba.cuda' (blocked for this test)")
sys.meta_path.insert(0, Block())
import funcgrad as fg
print(fg.numpy.sum(np.ones(3)))             # the CPU works without CUDA
try:
    fg.device_put(np.ones(3), "cuda")
except fg.gpu.CudaUnavailableError as e:
    print("MESSAGE:", e)
""")
    assert proc.returncode == 0, proc.stderr
    assert "3.0" in proc.stdout
    assert "pip install 'funcgrad[cuda]'" in proc.stdout and "numba-cuda" in proc.stdout


def test_importing_funcgrad_imports_no_cuda():
    proc = _run("""
import sys, funcgrad
bad = [m for m in sys.modules if m.startswith("numba") or m.startswith("funcgrad.kernels.cuda.")
       and not m.endswith("_layout")]
print(bad)
raise SystemExit(1 if bad else 0)
""")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_cuda_kernels_compile_for_a_real_gpu():
    """The simulator runs kernels as Python; Numba's CUDA compiler is stricter.  Where
    NVVM is installed (no GPU needed), compile one kernel of each family to PTX
    (``python -m funcgrad.gpu_ptx`` compiles all of them)."""
    import importlib.util
    if importlib.util.find_spec("numba_cuda") is None:
        pytest.skip("the PTX check needs the maintained numba-cuda package (the `cuda` extra: "
                    "pip install -e '.[cuda]') and NVVM")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    proc = subprocess.run([sys.executable, "-m", "funcgrad.gpu_ptx", "--smoke"],
                          capture_output=True, text=True, timeout=240, env=env, cwd=ROOT)
    if proc.returncode == 77:
        pytest.skip(proc.stdout.strip())
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]


def test_funcgrad_marks_its_own_code_for_the_device_check():
    """The mode behind DeviceMismatchError (funcgrad/gpu/dispatch.py), without a GPU: on
    in the rules funcgrad runs, off in the user's function, restored after errors, and
    per thread."""
    import threading

    import numpy as np

    import funcgrad as fg
    import funcgrad.numpy as fnp
    from funcgrad.core import _state, internal

    seen = {}

    def record(where):
        seen[where] = _state.internal

    @fg.custom_vjp
    def f(x):
        record("custom primal")
        return fnp.sin(x)

    def fwd(x):
        record("custom forward rule")
        return fnp.sin(x), fnp.cos(x)

    def bwd(cos_x, g):
        record("custom backward rule")
        return (g * cos_x,)
    f.defvjp(fwd, bwd)

    def user(x):
        record("user function")
        return fnp.sum(f(x))
    x = np.linspace(0.0, 1.0, 3)
    fg.grad(user)(x)
    f(x)
    assert seen == {"user function": False, "custom forward rule": True,
                    "custom backward rule": True, "custom primal": False}

    @internal
    def failing():
        raise ValueError("inside")
    try:
        failing()
    except ValueError:
        pass
    assert not _state.internal

    others = []

    @internal
    def look_from_another_thread():
        thread = threading.Thread(target=lambda: others.append(_state.internal))
        thread.start()
        thread.join()
        return _state.internal
    assert look_from_another_thread() and others == [False]
