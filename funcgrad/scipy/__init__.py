"""``funcgrad.scipy``: SciPy's names, differentiable (``special``, ``stats``, ``linalg``,
``signal``, ``integrate``, ``fft``, ``fftpack``, ``ndimage``, ``cluster``, ``interpolate``,
``sparse.linalg``, ``spatial.transform``, ``differentiate``), and ``optimize.minimize`` with funcgrad's
derivatives.

>>> import funcgrad as fg, funcgrad.scipy.special as fsp
>>> float(fg.grad(fsp.expit)(0.0))
0.25

SciPy is not needed: the values come from funcgrad's own kernels. (``optimize`` is the
exception: it calls SciPy's minimizers, so it needs SciPy, and loads on first use.)
"""
from . import (cluster, fft, fftpack, integrate, interpolate, linalg, ndimage,  # noqa: F401
               signal, sparse, spatial, special, stats)
from . import differentiate  # noqa: F401

__all__ = ["special", "stats", "linalg", "signal", "integrate", "fft", "fftpack", "ndimage",
           "cluster", "interpolate", "sparse", "spatial", "optimize",
           "differentiate"]


def __getattr__(name):
    if name == "optimize":   # (it calls SciPy: loaded on first use, as funcgrad's _LAZY)
        import importlib
        return importlib.import_module(".optimize", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
