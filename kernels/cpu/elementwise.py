"""Forward elementwise kernels that Numba computes faster than NumPy: float64 sin and cos.

Measured on 1e6 float64 (``benchmarks/kernels.py``): NumPy's ``sin``/``cos`` call the C
library one element at a time (~8-16 ns each), while NumPy's ``exp``, ``log``, ``tan``,
``sqrt``, ``tanh``... are already SIMD-vectorised, as are all float32 transcendental
functions.  So only float64 ``sin`` and ``cos`` get Numba kernels (``_vmath.sin_core``,
vectorised, 6-12x faster); every other elementwise primitive keeps its NumPy ufunc.

The kernel is a NumPy ufunc with NumPy's own loops for every dtype but float64
(``_lazy.forward_ufunc``), and the primitive's ``impl`` is that ufunc itself
(``install``): no Python runs between the primitive and NumPy's dispatch, so even on 16
elements it costs less than ``np.sin`` (0.25 against 0.41 us).  With more than one
thread allowed, the impl is instead the wrapper below, which sends large arrays to the
multithreaded loop.
"""
import numpy as np

from ._lazy import F64, config, forward_ufunc, run

_NUMPY = {"sin": np.sin, "cos": np.cos}
_ndarray = np.ndarray


def forward(name):
    """The ufunc computing ``name`` ("sin" or "cos"), built on first use.

    NumPy's ufunc if its loop table could not be read (then nothing is faster, but
    nothing is wrong either).
    """
    return forward_ufunc(name, _NUMPY[name]) or _NUMPY[name]


def _threaded(name):
    def kernel(x):
        if (config.threads > 1 and type(x) is _ndarray and x.dtype is F64
                and x.size >= config.parallel_min):
            return run(name, F64, x)
        return forward(name)(x)
    kernel.__name__ = kernel.__qualname__ = name
    kernel.__doc__ = (f"``np.{name}``, with funcgrad's vectorised float64 loop; "
                      f"large arrays multithreaded when ``set_num_threads(n > 1)``.")
    return kernel


sin = _threaded("sin")
cos = _threaded("cos")

_installed = {}  # owner -> kernel name


def install(owner, name):
    """Make ``owner.impl`` (a primitive's) kernel ``name``, chosen and built on first call.

    The first array of at least ``config.ufunc_min`` elements (1 by default) builds the
    kernel; until then (Python scalars, or smaller arrays when ``ufunc_min`` is raised to
    keep Numba out of small scripts) NumPy's ufunc runs.  With one thread, the impl then
    becomes the ufunc itself; otherwise the wrapper above.  ``set_num_threads``
    re-installs, so the choice follows the setting.
    """
    wrapper = globals()[name]
    numpy_ufunc = _NUMPY[name]

    def first_call(x, *args, **params):
        if getattr(x, "size", 0) < config.ufunc_min:
            return numpy_ufunc(x, *args, **params)
        owner.impl = forward(name) if config.threads == 1 else wrapper
        return owner.impl(x, *args, **params)
    owner.impl = first_call
    _installed[owner] = name


def reinstall():
    """Re-choose every installed impl on its next call (the thread setting changed)."""
    for owner, name in list(_installed.items()):
        install(owner, name)


def build():
    """Build the forward ufuncs now (``warmup``)."""
    for name in _NUMPY:
        forward(name)
