"""More elementwise primitives whose values are SciPy's ufuncs (as :mod:`.special_scipy`:
SciPy imported on the first call, no GPU kernel, ``jit`` calls SciPy), one per output of
a multi-output ufunc, with linear rules written with differentiable primitives:

- the parabolic cylinder functions ``pbdv(v, x) = (D_v, D_v')``, ``pbvv(v, x) =
  (V_v, V_v')`` and ``pbwa(a, x) = (W, W')`` in ``x``: the function's slope is the
  second output, whose own slope is Weber's equation (DLMF 12.2.2, 12.14.1):
  ``D'' = (x**2/4 - v - 1/2) D`` (``V`` likewise: SciPy's ``V_v`` is ``V(-v - 1/2, x)``)
  and ``W'' = (a - x**2/4) W``.  None in the order ``v`` or ``a``.
"""
from .special_scipy import _call, _declare, _not_implemented, _scipy

_OWN: dict = {}


def _weber(name, function, derivative, curvature):
    """The primitives of ``name``'s two outputs: ``function' = derivative`` and
    ``derivative' = curvature(v, x) * function``."""
    order = "a" if name == "pbwa" else "v"
    fixed = _not_implemented(f"{name}({order}, x)", order, "x")
    _OWN[function] = _call(_declare(function, fixed,
                                    lambda g, v, x, out: g * _OWN[derivative](v, x),
                                    kernel=_scipy(name, 0)))
    _OWN[derivative] = _call(_declare(
        derivative, fixed, lambda g, v, x, out: g * (curvature(v, x) * _OWN[function](v, x)),
        kernel=_scipy(name, 1)))
    return _OWN[function], _OWN[derivative]


def _cylinder(v, x):
    return x * x * 0.25 - v - 0.5


pbdv_d, pbdv_dp = _weber("pbdv", "pbdv_d", "pbdv_dp", _cylinder)
pbvv_v, pbvv_vp = _weber("pbvv", "pbvv_v", "pbvv_vp", _cylinder)
pbwa_w, pbwa_wp = _weber("pbwa", "pbwa_w", "pbwa_wp", lambda a, x: a - x * x * 0.25)

__all__ = ["pbdv_d", "pbdv_dp", "pbvv_v", "pbvv_vp", "pbwa_w", "pbwa_wp"]
