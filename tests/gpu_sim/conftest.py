"""GPU tests: run under Numba's CUDA simulator (or on a real GPU), in their own process.

Numba reads ``NUMBA_ENABLE_CUDASIM`` once, when it is first imported, and the rest of
the suite imports Numba for the CPU kernels; so these tests are collected only in a
process started with the variable set (``tests/test_gpu.py`` starts one), or with
``FUNCGRAD_GPU_TESTS=device`` to run the same tests on a real GPU
(``benchmarks/gpu.py`` does).  Elsewhere this folder is skipped at collection.
"""
import os
import sys

import numpy as np
import pytest

_ENABLED = (os.environ.get("NUMBA_ENABLE_CUDASIM") == "1"
            or os.environ.get("FUNCGRAD_GPU_TESTS") == "device")

if not _ENABLED:
    collect_ignore_glob = ["test_*.py"]
elif os.environ.get("NUMBA_ENABLE_CUDASIM") == "1":
    # The simulator runs a block's threads as Python threads while the launching thread
    # polls them; at CPython's default 5 ms switch interval most of a launch is spent
    # waiting for the GIL to change hands (a long-running kernel, smirnov_derivative's,
    # ran 7x faster at 0.1 ms).
    sys.setswitchinterval(1e-4)


def rtol_for(dtype):
    return 2e-5 if np.dtype(dtype) in (np.float32, np.float16) else 1e-10


def assert_same(got, want, rtol=None, atol=None):
    """``got`` (GpuArray, or a list of them) equals ``want`` (the CPU result): shape,
    dtype and values (NaN where NaN)."""
    from funcgrad.gpu import GpuArray
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for g, w in zip(got, want):
            assert_same(g, w, rtol, atol)
        return
    assert isinstance(got, GpuArray), type(got)
    want = np.asarray(want)
    host = np.asarray(got)
    assert host.shape == want.shape, (host.shape, want.shape)
    assert host.dtype == want.dtype, (host.dtype, want.dtype)
    if want.dtype.kind in "biu":
        np.testing.assert_array_equal(host, want)
    else:
        tol = rtol_for(want.dtype) if rtol is None else rtol
        np.testing.assert_allclose(host, want, rtol=tol, atol=tol if atol is None else atol,
                                   equal_nan=True)


@pytest.fixture(autouse=True)
def _quiet_numpy():
    with np.errstate(all="ignore"):
        yield
