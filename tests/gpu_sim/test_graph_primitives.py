"""The graph-holding primitives (``jit_call``, ``cond``, ``scan``, ``while_loop``) on GPU
arrays: their GPU implementation evaluates their graphs, each operation on the device."""
import numpy as np

import funcgrad as fg
from funcgrad import lax
from funcgrad.gpu import GpuArray

X = np.linspace(-1.0, 1.2, 6)


def gpu(x):
    return fg.device_put(x, "cuda")


def close(got, want):
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-9, atol=1e-12)


def test_graph_primitives_have_gpu_implementations():
    from funcgrad import devices
    assert {fg.jit.jit_call_p, lax.cond_p, lax.scan_p, lax.while_loop_p} <= set(devices.GPU)


def test_jit_call_on_gpu_arrays():
    f = fg.jit(lambda x: np.sin(x) * x + 1.0)
    out = f(gpu(X))
    assert isinstance(out, GpuArray)
    close(out, np.sin(X) * X + 1.0)


def test_cond_scan_while_on_gpu_arrays():
    x = gpu(X)
    close(lax.cond(True, lambda v: v * 2.0, lambda v: -v, x), X * 2.0)
    close(lax.fori_loop(0, 3, lambda i, v: v * 0.5 + 1.0, x), ((X * 0.5 + 1) * 0.5 + 1) * 0.5 + 1)
    carry, ys = lax.scan(lambda c, v: (c + v, c * v), gpu(np.zeros(())), x)
    close(carry, X.sum())
    close(ys, np.concatenate([[0.0], np.cumsum(X)[:-1]]) * X)
    close(lax.while_loop(lambda v: v[0] < 3.0, lambda v: v + 1.0, x), X + np.ceil(3.0 - X[0]))


def test_platform_dependent_takes_the_cuda_branch_for_gpu_arrays():
    # (the operations of a GPU array run on the GPU: JAX's execution platform "cuda")
    branches = dict(cpu=lambda v: v * 2.0, cuda=lambda v: v * 3.0)
    out = lax.platform_dependent(gpu(X), **branches)
    assert isinstance(out, GpuArray)
    close(out, X * 3.0)
    close(lax.platform_dependent(X, **branches), X * 2.0)
    close(lax.platform_dependent(gpu(X), (gpu(X),), cpu=lambda a, b: a + b[0],
                                 default=lambda a, b: a * b[0]), X * X)
