"""CPU kernels: the compiled arithmetic funcgrad runs besides NumPy's own.

An elementwise primitive's eager kernel is NumPy's ufunc wherever NumPy has one; what
this package adds is measured to win (``benchmarks/kernels.py``):

* ``generated``: kernels generated from scalar code (a primitive's scalar definition, a
  captured first-order rule), each a NumPy ufunc with Numba inner loops (``_ufuncs``,
  every size from one element) and a flat, optionally multithreaded loop for large
  contiguous arrays (``_loops``), built on first use per dtype and cached on disk
  (:func:`apply`, :func:`float_ufunc`, :func:`vector_forward`);
* ``vmath``: the vectorisable exp/log/log1p/sin/cos/tanh those kernels and ``fg.jit`` use;
* ``reductions``: ``logsumexp`` and its VJP, the max/min VJP (ties share);
* ``rows``: ``add``/``subtract``/``multiply`` on row-broadcast or strided 2-d float
  arrays (a row loop, ~2x NumPy's iterator there);
* ``scatter``: ``index_add`` (scatter-add, repeated indices accumulate), replacing the
  slow cases of ``np.add.at``; ``ufunc_at``, NumPy's ``ufunc.at`` that also takes
  indexing results of more than 32 dimensions (where NumPy's crashes).

Importing this package imports neither Numba nor any kernel.  The wrappers validate
shapes, dtypes, layouts and indices before any compiled loop runs.
"""
import numpy as np

from . import _lazy
from ._config import config, get_num_threads, on_thread_change, set_num_threads  # noqa: F401
from ._lazy import F32, F64, on_load, waiting, warmup  # noqa: F401

from .reductions import (extremum_vjp, logsumexp, logsumexp_vjp,  # noqa: E402,F401
                         logsumexp_with_softmax)
from .scatter import index_add, ufunc_at  # noqa: E402,F401
from .rows import add, add_window, multiply, subtract  # noqa: E402,F401


def apply(kernel, dtype, size, *args):
    """Generated kernel ``kernel`` (:func:`.generated.scalar_kernel`) on ``args``: arrays of
    ``dtype`` (float32/float64) and Python scalars, the largest of ``size`` elements.
    Small ones go through its ufunc (NumPy's dispatch, ~0.25 us), large ones through its
    flat loop when the layout allows (multithreaded when large enough)."""
    if size < config.numba_min:
        return _lazy.call(kernel, dtype, *args)
    return _lazy.run(kernel, dtype, *args)


def small_kernel(kernel, dtype):
    """The ufunc :func:`apply` gives arrays under ``config.numba_min`` elements, to keep:
    a caller calling ``kernel`` often on small arrays skips the lookup (each lookup costs
    about as much as a small ufunc call).  None while it loads in the background (call
    :func:`apply` meanwhile, and ask again later)."""
    return _lazy.ready_ufunc(kernel, dtype)


forward_twin = _lazy.forward_twin


def float_ufunc(kernels, name):
    """One NumPy ufunc ``name`` with a float32 and a float64 loop (``kernels``: {dtype:
    generated kernel}); NumPy casts other dtypes to one of them, as it does for its own."""
    return _lazy.float_ufunc(kernels, name)


def vector_forward(kernel, numpy_ufunc):
    """``numpy_ufunc`` with its float64 loop replaced by generated ``kernel`` (every other
    dtype keeps NumPy's loop and result type), or ``numpy_ufunc`` itself where its loop
    table cannot be read.  With more than one thread allowed, a wrapper that sends large
    float64 arrays to the multithreaded loop.  None while the kernel loads in the
    background: :func:`forward_twin` computes what it would, meanwhile."""
    ufunc = _lazy.ready_forward_ufunc(kernel, numpy_ufunc)
    if ufunc is None:
        return None
    if config.threads == 1:
        return ufunc
    ndarray = np.ndarray

    def threaded(x, *args, **params):
        if type(x) is ndarray and x.dtype is F64 and x.size >= config.parallel_min and \
                not args and not params:
            return _lazy.run(kernel, F64, x)
        return ufunc(x, *args, **params)
    threaded.__name__ = threaded.__qualname__ = numpy_ufunc.__name__
    return threaded
