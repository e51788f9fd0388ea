"""Elementwise primitives of the spheroidal wave functions, values from SciPy (as
:mod:`.special_scipy`: SciPy imported on the first call, no GPU kernel, ``jit`` calls
SciPy), one per output: ``pro_ang1(m, n, c, x) = (S, S')`` and ``pro_rad1``, ``pro_rad2``,
``obl_ang1``, ``obl_rad1``, ``obl_rad2``, their ``*_cv`` twins (the characteristic value
as an argument), and the characteristic values ``pro_cv``, ``obl_cv``.

In ``x`` the slope of ``S`` is ``S'`` and that of ``S'`` comes from the spheroidal wave
equation ``((1 - x**2) S')' + (lambda - c**2 x**2 - m**2/(1 - x**2)) S = 0`` (DLMF 30.2.1;
the oblate angular functions with ``c**2 -> -c**2``; the oblate radial ones, whose ``x``
is the ``xi`` of ``i xi``, satisfy ``((1 + x**2) S')' = (lambda - c**2 x**2 -
m**2/(1 + x**2)) S``), ``lambda`` the characteristic value, so every order follows.
None in ``m``, ``n`` (integers), ``c`` (no closed form) or ``cv`` (a characteristic value,
not a free parameter): ``NotImplementedError``.

SciPy's routines (Zhang and Jin's) need guarding (SciPy 1.17):

- their float32 loops never return: float32 arguments take the float64 loop, rounded;
- a NaN or infinite ``c`` never returns either, and a negative ``c`` gives the functions
  of ``c = 0`` with characteristic values that do not match them: NaN for those ``c``;
- from about ``c + (n - m)/2 = 104`` on, their work arrays overflow and the process
  aborts (``free(): invalid size``): NaN beyond :data:`LARGEST` (checked on a grid of
  ``n - m`` up to 198, ``c`` up to 100, ``x`` up to ``1e4``).
"""
import numpy as np

from .special_scipy import _call, _declare

# c + (n - m)/2 at most this (the first crash found is at 104: a margin)
LARGEST = 80.0

_OWN: dict = {}


def _kernel(name, output=None):
    """SciPy's ``name`` (output ``output``) on the float64 loop, NaN where its routines
    would hang or crash (see the module docstring)."""
    def kernel(*args):
        import scipy.special  # (here: importing funcgrad never loads SciPy)
        args = np.broadcast_arrays(*[np.asarray(a) for a in args])
        single = all(a.dtype == np.float32 for a in args)
        m, n, c = (a.astype(np.float64) for a in args[:3])
        with np.errstate(invalid="ignore"):
            bad = ~(np.isfinite(c) & (c >= 0) & ~(c + (n - m) * 0.5 > LARGEST))
        safe = [np.where(bad, 0.0, m), np.where(bad, 0.0, n), np.where(bad, 0.0, c)]
        safe += [a.astype(np.float64) for a in args[3:]]
        out = getattr(scipy.special, name)(*safe)
        out = np.where(bad, np.nan, out if output is None else out[output])
        return out.astype(np.float32) if single else out
    kernel.__name__ = kernel.__qualname__ = name if output is None else f"{name}[{output}]"
    return kernel


def _none(name, argument, why):
    fix = "" if name.endswith("cv(m, n, c)") else "differentiate with respect to x only; "
    def lin(g, *args):
        raise NotImplementedError(
            f"{name}: the derivative with respect to {argument} is not implemented ({why}); "
            f"{fix}fg.stop_gradient({argument}) marks {argument} as a constant")
    return lin


def _integer(name, argument):
    return _none(name, argument, f"{argument} is an integer order")


def _characteristic(name):
    signature = f"{name}(m, n, c)"
    return _call(_declare(name, _integer(signature, "m"), _integer(signature, "n"),
                          _none(signature, "c", "no closed form"), kernel=_kernel(name)))


pro_cv = _characteristic("pro_cv")
obl_cv = _characteristic("obl_cv")


def _curvature(kind, prolate, lam, m, c, x, s, sp):
    """``S''`` from the spheroidal wave equation."""
    if kind == "rad" and not prolate:
        w = 1.0 + x * x
        return ((lam - c * c * x * x - m * m / w) * s - 2.0 * x * sp) / w
    w = 1.0 - x * x
    cc = c * c if prolate else -(c * c)
    return (2.0 * x * sp - (lam - cc * x * x - m * m / w) * s) / w


def _family(name):
    """The primitives of ``name``'s and ``name_cv``'s two outputs ``(S, S')``."""
    prolate, kind = name.startswith("pro"), name[4:7]
    characteristic = pro_cv if prolate else obl_cv
    own: dict = {}
    plain = f"{name}(m, n, c, x)"
    fixed = [_integer(plain, "m"), _integer(plain, "n"), _none(plain, "c", "no closed form")]

    def slope(g, m, n, c, x, out):
        return g * own["sp"](m, n, c, x)

    def curvature(g, m, n, c, x, out):
        lam = characteristic(m, n, c)
        return g * _curvature(kind, prolate, lam, m, c, x, own["s"](m, n, c, x),
                              own["sp"](m, n, c, x))
    own["s"] = _call(_declare(f"{name}_s", *fixed, slope, kernel=_kernel(name, 0)))
    own["sp"] = _call(_declare(f"{name}_sp", *fixed, curvature, kernel=_kernel(name, 1)))

    with_cv = f"{name}_cv(m, n, c, cv, x)"
    fixed_cv = [_integer(with_cv, "m"), _integer(with_cv, "n"),
                _none(with_cv, "c", "no closed form"),
                _none(with_cv, "cv", f"cv must be the characteristic value "
                                     f"{characteristic.__name__}(m, n, c), not a free "
                                     f"parameter")]

    def slope_cv(g, m, n, c, cv, x, out):
        return g * own["cv_sp"](m, n, c, cv, x)

    def curvature_cv(g, m, n, c, cv, x, out):
        return g * _curvature(kind, prolate, cv, m, c, x, own["cv_s"](m, n, c, cv, x),
                              own["cv_sp"](m, n, c, cv, x))
    own["cv_s"] = _call(_declare(f"{name}_cv_s", *fixed_cv, slope_cv,
                                 kernel=_kernel(f"{name}_cv", 0)))
    own["cv_sp"] = _call(_declare(f"{name}_cv_sp", *fixed_cv, curvature_cv,
                                  kernel=_kernel(f"{name}_cv", 1)))
    return own["s"], own["sp"], own["cv_s"], own["cv_sp"]


pro_ang1_s, pro_ang1_sp, pro_ang1_cv_s, pro_ang1_cv_sp = _family("pro_ang1")
pro_rad1_s, pro_rad1_sp, pro_rad1_cv_s, pro_rad1_cv_sp = _family("pro_rad1")
pro_rad2_s, pro_rad2_sp, pro_rad2_cv_s, pro_rad2_cv_sp = _family("pro_rad2")
obl_ang1_s, obl_ang1_sp, obl_ang1_cv_s, obl_ang1_cv_sp = _family("obl_ang1")
obl_rad1_s, obl_rad1_sp, obl_rad1_cv_s, obl_rad1_cv_sp = _family("obl_rad1")
obl_rad2_s, obl_rad2_sp, obl_rad2_cv_s, obl_rad2_cv_sp = _family("obl_rad2")

NAMES = tuple(f"{k}_{f}" for k in ("pro", "obl") for f in ("ang1", "rad1", "rad2"))
__all__ = ["pro_cv", "obl_cv"] + [f"{f}{v}_{o}" for f in NAMES for v in ("", "_cv")
                                  for o in ("s", "sp")]
