"""Forward elementwise kernels that Numba computes faster than NumPy.

Measured on 1e6 float64 (``benchmarks/kernels.py``): NumPy's ``sin``/``cos`` call the C
library one element at a time (~8 ns each), while NumPy's ``exp``, ``log``, ``tan``,
``sqrt``, ``tanh``... are already SIMD-vectorised, as are all float32 transcendental
functions.  So only float64 ``sin`` and ``cos`` get Numba kernels (``_vmath.sin_core``,
vectorised, ~6x faster); every other elementwise primitive keeps its NumPy ufunc.
"""
import numpy as np

from ._lazy import F64, config, run_checked

_np_sin = np.sin
_np_cos = np.cos
_ndarray = np.ndarray


def fix_sincos(out, numpy_version):
    """Return ``out`` (from ``run_checked``), or ``numpy_version()`` when it is None.

    The vectorised sin/cos give NaN for arguments they cannot reduce accurately (|x| >
    1e8, inf, NaN); the kernel counts NaN results in its own pass, and if there is any the
    whole result is recomputed by NumPy, which is exact everywhere.  NaN inputs therefore
    cost the NumPy time.
    """
    return numpy_version() if out is None else out


# The size test comes first: a small array then costs one attribute read and a comparison
# on top of NumPy's own call (numpy scalars have a size too; Python numbers do not).

def sin(x):
    """``np.sin``, vectorised for large float64 arrays."""
    try:
        if x.size < config.numba_min or type(x) is not _ndarray or x.dtype is not F64:
            return _np_sin(x)
    except AttributeError:
        return _np_sin(x)
    return fix_sincos(run_checked("sin", F64, x), lambda: _np_sin(x))


def cos(x):
    """``np.cos``, vectorised for large float64 arrays."""
    try:
        if x.size < config.numba_min or type(x) is not _ndarray or x.dtype is not F64:
            return _np_cos(x)
    except AttributeError:
        return _np_cos(x)
    return fix_sincos(run_checked("cos", F64, x), lambda: _np_cos(x))
