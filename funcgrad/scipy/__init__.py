"""``funcgrad.scipy``: SciPy's names, differentiable (``special``, ``stats``, ``linalg``,
``signal``, ``integrate``).

>>> import funcgrad as fg, funcgrad.scipy.special as fsp
>>> float(fg.grad(fsp.expit)(0.0))
0.25

SciPy is not needed: the values come from funcgrad's own kernels.
"""
from . import integrate, linalg, signal, special, stats  # noqa: F401

__all__ = ["special", "stats", "linalg", "signal", "integrate"]
