"""Settings of funcgrad's CPU kernels: threads, how they load, ahead-of-time compilation.

The kernels (``funcgrad.kernels.cpu``) are Numba loops built on first use, per dtype, and
cached on disk; ``import funcgrad`` compiles nothing and does not import Numba.  By
default they load on a background thread while the first calls compute with their NumPy
twins, which give the same bits (see :func:`set_kernel_loading`).  ``warmup``,
``set_num_threads`` and ``get_num_threads`` are re-exported as ``funcgrad.warmup``...;
``python -m funcgrad.warmup`` fills the disk cache with a progress bar.
"""
from typing import Callable, Sequence

import numpy as np

from .kernels.cpu import _config, _lazy
from .primitives._elementwise_kernels import build_kernels
from .typing import DTypeLike

__all__ = ["warmup", "set_num_threads", "get_num_threads", "set_kernel_loading",
           "get_kernel_loading"]


def warmup(dtypes: Sequence[DTypeLike] = ("float64", "float32"),
           parallel: bool | None = None,
           progress: Callable[[str, int, int], object] | None = None) -> float:
    """Compile (or load from the disk cache) the CPU kernels now instead of on first use.

    Useful before timing something, or in a server before the first request; after it,
    every kernel runs compiled from the first call.  ``progress(stage, done, total)``
    (``stage``: ``"generate"``, ``"compile"``, then ``"jit"``: the helpers of ``fg.jit``'s
    kernels) is called as it goes.  Returns the seconds spent: ``fg.warmup()`` takes a
    few seconds with a warm disk cache and minutes with a cold one (``python -m
    funcgrad.warmup`` shows a progress bar), too long for the example below, which builds
    no dtype and shows the check on the names.

    >>> import funcgrad as fg
    >>> fg.warmup(dtypes=()) < 1.0
    True
    >>> fg.warmup(dtypes=("int32",))
    Traceback (most recent call last):
    ...
    ValueError: warmup: no kernels for dtype int32; use float32 or float64
    """
    import time
    dtypes = tuple(dtypes)
    for dt in (np.dtype(d) for d in dtypes):
        # checked before anything compiles: a wrong name should not cost minutes first
        if dt not in (np.float32, np.float64):
            raise ValueError(f"warmup: no kernels for dtype {dt}; use float32 or float64")
    if not dtypes:
        return 0.0
    start = time.perf_counter()
    stage = (lambda name: (lambda done, total: progress(name, done, total))) if progress \
        else (lambda name: None)
    with _lazy.waiting():
        build_kernels(dtypes, progress=stage("generate"))
        _lazy.warmup(dtypes=dtypes, parallel=parallel, progress=stage("compile"))
    from .jit import runtime  # what fg.jit's kernels call (reductions in NumPy's order)
    runtime.warm(dtypes, progress=stage("jit"))
    return time.perf_counter() - start


def set_kernel_loading(mode: str) -> None:
    """How the CPU kernels load: ``"background"`` (the default), ``"wait"`` or ``"numpy"``.

    ``"background"``: the first call that needs a kernel computes with its NumPy twin (the
    same bits, slower) while a background thread imports Numba and loads or compiles the
    kernel, which takes over once ready; an interactive first call does not wait.
    ``"wait"``: build each kernel in the calling thread when first needed (deterministic
    timings: benchmarks, the test suite).  ``"numpy"``: no background thread; twins
    wherever a kernel has one.  The ``FUNCGRAD_KERNELS`` environment variable sets it at
    startup.  Kernels with no NumPy twin are always built when first needed.

    >>> import funcgrad as fg
    >>> from funcgrad.kernels_config import get_kernel_loading, set_kernel_loading
    >>> old = get_kernel_loading()
    >>> set_kernel_loading("wait")
    >>> get_kernel_loading()
    'wait'
    >>> set_kernel_loading(old)
    """
    _config.config.loading = _config._loading_mode(mode)


def get_kernel_loading() -> str:
    """The current kernel loading mode (see :func:`set_kernel_loading`).

    >>> from funcgrad.kernels_config import get_kernel_loading
    >>> get_kernel_loading() in ("background", "wait", "numpy")
    True
    """
    return _config.config.loading


set_num_threads = _config.set_num_threads


def get_num_threads() -> int:
    """The number of threads funcgrad's CPU kernels may use (see ``fg.set_num_threads``).

    >>> import funcgrad as fg
    >>> fg.get_num_threads() >= 1
    True
    """
    return _config.get_num_threads()
