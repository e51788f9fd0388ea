"""Floors for W4: hand-fused Numba loops of the closed-form gradient.

``fused_grad(x, vectorised=False)`` returns a zero-argument callable computing
the gradient of ``sum(exp(sin x) cos^2 x + sqrt(1 + x^2))``,
``exp(sin x) cos x (cos^2 x - 2 sin x) + x / sqrt(1 + x^2)``, in one pass over
``x``: one read of ``x``, one write of the gradient, and sin, cos, exp and
sqrt evaluated once per element.  A library doing the same arithmetic
elementwise cannot beat it by much, so it is W4's compute floor.  (The value
is left out: a running sum in strict IEEE order would stop LLVM from
vectorising the loop, and ``grad`` does not return it.)

* ``vectorised=False``: ``math.sin/cos/exp``, i.e. calls into the C library,
  one element at a time (such a loop cannot be SIMD-vectorised);
* ``vectorised=True``: funcgrad's own vectorisable ``sin``, ``cos`` and ``exp``
  (``funcgrad.kernels.cpu.vmath``, LLVM intrinsics written into the loop), so LLVM
  vectorises the loop.  :class:`ImportError` if funcgrad has no such module.

Numba is imported on first use.  The kernels are not cached on disk: Numba's
cache records the defining module's name, and this file is imported both as
``_floors`` (``python benchmarks/suite.py``) and as ``benchmarks._floors``
(tests), so a cache written by one fails to load in the other
(``ModuleNotFoundError: No module named '_floors'``).  Compiling takes about a
second.
"""
from __future__ import annotations

import functools

import numpy as np


@functools.cache
def _kernel(vectorised: bool):
    import math

    from numba import njit

    if vectorised:
        from funcgrad.kernels.cpu.vmath import cos, exp, sin
        options = {"error_model": "numpy", "fastmath": {"contract"}}
    else:
        sin, cos, exp = math.sin, math.cos, math.exp
        options = {"error_model": "numpy"}

    @njit(**options)
    def fused(x, g):
        for i in range(x.size):
            xi = x[i]
            s = sin(xi)
            c = cos(xi)
            g[i] = exp(s) * c * (c * c - 2.0 * s) + xi / math.sqrt(1.0 + xi * xi)

    return fused


def fused_grad(x: np.ndarray, vectorised: bool = False):
    kernel = _kernel(vectorised)
    x = np.ascontiguousarray(x, dtype=np.float64)
    g = np.empty_like(x)

    def run():
        kernel(x, g)
        return g

    return run
