"""``funcgrad.scipy.special``: special functions with SciPy's names, differentiable.

Each is a funcgrad primitive (declared in :mod:`funcgrad.primitives.elementwise`), so it
works on plain arrays, inside every transform, under ``jit`` and on GPU arrays.
"""
from ..numpy._convert import operand as _operand
from ..primitives import elementwise as _ew

__all__ = ["erf", "erfc", "expit"]


def erf(x):
    """The error function, ``2/sqrt(pi) * integral of exp(-t**2) from 0 to x``.

    >>> import numpy as np, funcgrad as fg
    >>> float(fg.grad(erf)(0.0))  # 2 / sqrt(pi)
    1.1283791670955126
    """
    return _ew.erf(_operand(x))


def erfc(x):
    """The complementary error function, ``1 - erf(x)`` (accurate where erf(x) is near 1).

    >>> float(erfc(0.0))
    1.0
    """
    return _ew.erfc(_operand(x))


def expit(x):
    """The logistic sigmoid ``1 / (1 + exp(-x))`` (``scipy.special.expit``), without
    overflow for large ``|x|``.

    >>> import funcgrad as fg
    >>> float(fg.grad(expit)(0.0))
    0.25
    """
    return _ew.expit(_operand(x))


# What each function binds (the registry test checks every elementwise primitive has a
# front function, here or in funcgrad.numpy).
erf.primitive, erfc.primitive, expit.primitive = _ew.erf_p, _ew.erfc_p, _ew.expit_p
