"""The Airy functions of :mod:`funcgrad.scipy.special`: ``airy`` and ``airye`` (SciPy's
values; real arguments), differentiable at every order through ``Ai'' = x Ai``
(:mod:`funcgrad.primitives.special_scipy_extra`)."""
from .. import numpy as fnp  # noqa: F401 (the examples' namespace)
from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_extra as _sx
from ..typing import Array, ArrayLike
from ._special_real import reject_complex as _reject_complex

__all__ = ["airy", "airye"]

_REAL = "pass a real array, as to SciPy's function with real input"


def airy(z: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """The Airy functions and their derivatives ``(Ai, Ai', Bi, Bi')`` at real ``z``, as
    ``scipy.special.airy`` (SciPy's values); differentiable at every order
    (``Ai'' = z Ai``, ``Bi'' = z Bi``).

    >>> import funcgrad as fg
    >>> ai, aip, bi, bip = airy(0.0)
    >>> round(float(ai), 12), round(float(fg.grad(lambda z: airy(z)[0])(0.0)), 12)
    (0.355028053888, -0.258819403793)
    """
    z = _operand(z)
    _reject_complex("airy", _REAL, z)
    return _sx.airy_ai(z), _sx.airy_aip(z), _sx.airy_bi(z), _sx.airy_bip(z)


def airye(z: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """The exponentially scaled Airy functions ``(eAi, eAi', eBi, eBi')`` at real ``z``,
    as ``scipy.special.airye``: ``Ai`` and ``Ai'`` times ``exp(2/3 z**1.5)``, ``Bi`` and
    ``Bi'`` times ``exp(-2/3 z**1.5)`` for ``z >= 0``; for ``z < 0`` the scaled ``Ai``
    is NaN and the scaled ``Bi`` is ``Bi`` (SciPy's values).  Differentiable: the
    scale's slope is ``+-sqrt(z)`` times the function.

    >>> import funcgrad as fg
    >>> round(float(airye(2.0)[0]), 12)
    0.230164918653
    """
    z = _operand(z)
    _reject_complex("airye", _REAL, z)
    return _sx.airye_ai(z), _sx.airye_aip(z), _sx.airye_bi(z), _sx.airye_bip(z)


# (one primitive per output)
airy.primitives = tuple(getattr(_sx, "airy_" + p).primitive  # type: ignore[attr-defined]
                        for p in ("ai", "aip", "bi", "bip"))
airye.primitives = tuple(getattr(_sx, "airye_" + p).primitive  # type: ignore[attr-defined]
                         for p in ("ai", "aip", "bi", "bip"))
