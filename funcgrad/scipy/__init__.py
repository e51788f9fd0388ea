"""``funcgrad.scipy``: SciPy's names, differentiable (``special``, ``stats``, ``linalg``,
``signal``, ``integrate``, ``fft``, ``fftpack``, ``ndimage``, ``cluster``, ``interpolate``,
``sparse``, ``spatial``, ``differentiate``, ``optimize``).

>>> import funcgrad as fg, funcgrad.scipy.special as fsp
>>> float(fg.grad(fsp.expit)(0.0))
0.25

``import funcgrad`` and ``import funcgrad.scipy`` load no SciPy.  Much of it computes
with funcgrad's own kernels; where SciPy's search, decomposition or reference value is
used (knot placement, minimizers, Qhull, ODEPACK, most of ``stats``' tests and
``special``'s rarer functions), SciPy is imported on the first such call, so those need
it installed (``pip install funcgrad[scipy]``).  ``optimize`` loads on first use.
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
