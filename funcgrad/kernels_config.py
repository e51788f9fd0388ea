"""Settings of funcgrad's CPU kernels: threads and ahead-of-time compilation.

The kernels (``funcgrad.kernels.cpu``) are Numba loops built on first use, per dtype, and
cached on disk; ``import funcgrad`` compiles nothing and does not import Numba.  These
functions are re-exported as ``funcgrad.warmup``, ``funcgrad.set_num_threads`` and
``funcgrad.get_num_threads``.
"""
from typing import Sequence

import numpy as np

from .kernels.cpu import _lazy
from .primitives._elementwise import build_kernels
from .typing import DTypeLike

__all__ = ["warmup", "set_num_threads", "get_num_threads"]


def warmup(dtypes: Sequence[DTypeLike] = ("float64", "float32"),
           parallel: bool | None = None) -> float:
    """Compile (or load from the disk cache) the CPU kernels now instead of on first use.

    Useful before timing something, or in a server before the first request.  Returns
    the seconds spent: ``fg.warmup()`` takes a few seconds with a warm disk cache and
    minutes with a cold one (see the README's "Kernels"), too long for the example below,
    which builds no dtype and shows the check on the names.

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
    build_kernels(dtypes)
    return time.perf_counter() - start + _lazy.warmup(dtypes=dtypes, parallel=parallel)


set_num_threads = _lazy.set_num_threads


def get_num_threads() -> int:
    """The number of threads funcgrad's CPU kernels may use (see ``fg.set_num_threads``).

    >>> import funcgrad as fg
    >>> fg.get_num_threads() >= 1
    True
    """
    return _lazy.get_num_threads()
