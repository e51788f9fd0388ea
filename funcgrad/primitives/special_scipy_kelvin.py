"""The Kelvin functions as elementwise primitives whose values are SciPy's ufuncs (as
:mod:`.special_scipy`: SciPy imported on the first call, no GPU kernel, ``jit`` calls
SciPy): ``ber``, ``bei``, ``ker``, ``kei`` and their derivatives ``berp``, ``beip``,
``kerp``, ``keip``.

``ber' = berp`` and so on; the derivatives' own derivatives come from the Kelvin equation:
``w = ber + i bei`` (and ``ker + i kei``) solves ``x**2 w'' + x w' - i x**2 w = 0``
(DLMF 10.61), so

    ber'' = -berp/x - bei,   bei'' = -beip/x + ber,
    ker'' = -kerp/x - kei,   kei'' = -keip/x + ker.

At ``x = 0`` those take their limits: ``berp/x -> 0`` and ``beip/x -> 1/2`` (the series
``berp = -x**3/16 + ...``, ``beip = x/2 - ...``), so ``ber''(0) = 0`` and
``bei''(0) = 1/2``; ``ker''`` and ``kei''`` grow like ``1/x**2`` and ``-log(x)/2`` there:
``+inf`` at 0.  ``ber``/``bei`` are even and their derivatives odd, for negative ``x``
too (SciPy's values); ``ker``/``kei`` are NaN for ``x < 0``, and so are their slopes.
"""
import math

from .elementwise import equal, where
from .special_scipy import _call, _declare

_OWN: dict = {}


def _slope(derivative):
    def lin(g, x, out):
        return g * _OWN[derivative](x)
    return lin


def _curvature(slope, other, sign, at_zero):
    """``d/dx slope(x) = -slope(x)/x + sign * other(x)``, ``at_zero`` at ``x = 0`` (the
    double where: no 0/0 there)."""
    def lin(g, x, out):
        zero = equal(x, 0.0)
        safe = where(zero, 1.0, x)
        value = -_OWN[slope](safe) / safe + _OWN[other](safe) * sign
        return g * where(zero, at_zero, value)
    return lin


_RULES = {
    "ber": _slope("berp"), "bei": _slope("beip"), "ker": _slope("kerp"),
    "kei": _slope("keip"),
    "berp": _curvature("berp", "bei", -1.0, 0.0),
    "beip": _curvature("beip", "ber", 1.0, 0.5),
    "kerp": _curvature("kerp", "kei", -1.0, math.inf),
    "keip": _curvature("keip", "ker", 1.0, math.inf),
}
for _name, _lin in _RULES.items():
    _OWN[_name] = _call(_declare(_name, _lin))
ber, bei, ker, kei, berp, beip, kerp, keip = (_OWN[n] for n in _RULES)
del _name, _lin

__all__ = ["ber", "bei", "ker", "kei", "berp", "beip", "kerp", "keip"]
