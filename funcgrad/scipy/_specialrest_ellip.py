"""The ellipsoidal harmonics of :mod:`funcgrad.scipy.special`: ``ellip_harm``,
``ellip_harm_2`` and ``ellip_normal``, SciPy's values on plain arguments.

No derivative is implemented: the Lame functions' coefficients and eigenvalues stay
inside SciPy, so the derivative in ``s`` has no closed form here.  A traced argument
(under ``grad``, ``jit`` or ``vmap``) raises a ``TypeError`` that says so, rather than a
silent zero.
"""
from typing import Any

from ..core import Tracer as _Tracer

__all__ = ["ellip_harm", "ellip_harm_2", "ellip_normal"]


def _scipys(name: str, *args: Any) -> Any:
    if any(isinstance(a, _Tracer) for a in args):
        raise TypeError(
            f"{name}: SciPy's values only, with no derivative (and no jit/vmap) here: the "
            f"Lame functions' coefficients stay inside SciPy; pass plain arrays, or "
            f"fg.stop_gradient the arguments outside jit")
    import scipy.special  # (here: importing funcgrad never loads SciPy)
    return getattr(scipy.special, name)(*args)


def ellip_harm(h2: Any, k2: Any, n: Any, p: Any, s: Any, signm: int = 1,
               signn: int = 1) -> Any:
    """The ellipsoidal harmonic (Lame function) ``E^p_n(s)`` with parameters ``h2``,
    ``k2``, as ``scipy.special.ellip_harm`` (SciPy's values, on plain arrays; no
    derivative).

    >>> float(ellip_harm(5.0, 8.0, 1, 1, 2.5))
    2.5
    """
    return _scipys("ellip_harm", h2, k2, n, p, s, signm, signn)


def ellip_harm_2(h2: Any, k2: Any, n: Any, p: Any, s: Any) -> Any:
    """The ellipsoidal harmonic of the second kind ``F^p_n(s)``, as
    ``scipy.special.ellip_harm_2`` (SciPy's values, on plain arrays; no derivative).

    >>> round(float(ellip_harm_2(5.0, 8.0, 1, 1, 3.5)), 6)
    0.126306
    """
    return _scipys("ellip_harm_2", h2, k2, n, p, s)


def ellip_normal(h2: Any, k2: Any, n: Any, p: Any) -> Any:
    """The normalization constant of the ellipsoidal harmonic ``E^p_n``, as
    ``scipy.special.ellip_normal`` (SciPy's values, on plain arrays; no derivative).

    >>> round(float(ellip_normal(5.0, 8.0, 1, 1)), 6)
    167.551608
    """
    return _scipys("ellip_normal", h2, k2, n, p)
