"""The spheroidal wave functions of :mod:`funcgrad.scipy.special`: ``pro_ang1``,
``pro_rad1``, ``pro_rad2``, ``obl_ang1``, ``obl_rad1``, ``obl_rad2`` (each ``(s, sp)``, the
function and its ``x``-derivative), their ``*_cv`` twins, the characteristic values
``pro_cv``, ``obl_cv`` and the sequences ``pro_cv_seq``, ``obl_cv_seq``.  SciPy's values;
differentiable in ``x`` at every order (the slope of ``sp`` from the spheroidal wave
equation: :mod:`funcgrad.primitives.special_scipy_spheroidal`); in ``m``, ``n``, ``c`` and
``cv`` asking for a derivative raises ``NotImplementedError``.  Where SciPy's routines
would hang or abort the process (a NaN, infinite or negative ``c``; ``c + (n - m)/2``
beyond 80) the values are NaN.

SciPy's second kinds ``pro_rad2``, ``obl_rad2`` lose accuracy where ``c x`` is small (below
about 2): there its ``sp`` can differ from the slope of its ``s`` (``obl_rad2(1, 2, 1.5,
1.5)``: ``sp = -14.1``, the slope of ``s`` 0.31), and the derivative given here is its
``sp``, so it inherits that error.
"""
from typing import Any

import numpy as np

from ..core import Tracer as _Tracer
from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_spheroidal as _sph
from ..typing import Array, ArrayLike
from ._special_out import with_out as _with_out
from ._special_real import reject_complex as _reject_complex

__all__ = ["pro_ang1", "pro_rad1", "pro_rad2", "obl_ang1", "obl_rad1", "obl_rad2",
           "pro_ang1_cv", "pro_rad1_cv", "pro_rad2_cv", "obl_ang1_cv", "obl_rad1_cv",
           "obl_rad2_cv", "pro_cv", "obl_cv", "pro_cv_seq", "obl_cv_seq"]

_REAL = "pass real arrays, as to SciPy's function"


def _real(name: str, *args: ArrayLike) -> list:
    values = [_operand(a) for a in args]
    _reject_complex(name, _REAL, *values)
    return values


@_with_out
def pro_cv(m: ArrayLike, n: ArrayLike, c: ArrayLike) -> Array:
    """The characteristic value ``lambda_mn(c)`` of the prolate spheroidal wave functions,
    as ``scipy.special.pro_cv`` (SciPy's values; no derivative in ``m``, ``n`` or ``c``).

    >>> float(pro_cv(1, 2, 0.0))  # (n (n + 1) at c = 0)
    6.0
    """
    return _sph.pro_cv(*_real("pro_cv", m, n, c))


@_with_out
def obl_cv(m: ArrayLike, n: ArrayLike, c: ArrayLike) -> Array:
    """The characteristic value ``lambda_mn(-ic)`` of the oblate spheroidal wave
    functions, as ``scipy.special.obl_cv`` (SciPy's values; no derivative in ``m``,
    ``n`` or ``c``).

    >>> float(obl_cv(0, 3, 0.0))
    12.0
    """
    return _sph.obl_cv(*_real("obl_cv", m, n, c))


# (the primitives these front, as every special function's: tests/test_numpy_front.py)
pro_cv.primitive = _sph.pro_cv.primitive  # type: ignore[attr-defined]
obl_cv.primitive = _sph.obl_cv.primitive  # type: ignore[attr-defined]


_KINDS = {"pro_ang1": "the prolate angular function of the first kind, ``|x| < 1``",
          "pro_rad1": "the prolate radial function of the first kind, ``x > 1``",
          "pro_rad2": "the prolate radial function of the second kind, ``x > 1``",
          "obl_ang1": "the oblate angular function of the first kind, ``|x| < 1``",
          "obl_rad1": "the oblate radial function of the first kind, ``x >= 0``",
          "obl_rad2": "the oblate radial function of the second kind, ``x >= 0``"}
_CAVEAT = {n: """
    SciPy's values lose accuracy where ``c x`` is below about 2 (its ``sp`` is then not
    always the slope of its ``s``; the derivative here is its ``sp``).""" for n in
           ("pro_rad2", "obl_rad2")}
_POINT = {"ang1": "0.3", "rad1": "1.5", "rad2": "1.5"}


def _function(name: str) -> Any:
    s_prim, sp_prim = getattr(_sph, f"{name}_s"), getattr(_sph, f"{name}_sp")

    def f(m: ArrayLike, n: ArrayLike, c: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
        args = _real(name, m, n, c, x)
        return s_prim(*args), sp_prim(*args)
    x0 = _POINT[name[4:]]
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"""``(s, sp)``: {_KINDS[name]}, and its derivative in ``x``, as
    ``scipy.special.{name}(m, n, c, x)`` (SciPy's values); differentiable in ``x`` at
    every order (from the spheroidal wave equation), not in ``m``, ``n`` or
    ``c``.{_CAVEAT.get(name, "")}

    >>> import funcgrad as fg
    >>> s, sp = {name}(1, 2, 1.5, {x0})
    >>> abs(float(fg.grad(lambda x: {name}(1, 2, 1.5, x)[0])({x0})) - float(sp)) < 1e-14
    True
    """
    f.primitives = (s_prim.primitive, sp_prim.primitive)  # type: ignore[attr-defined]
    return _with_out(f)


def _function_cv(name: str) -> Any:
    s_prim, sp_prim = getattr(_sph, f"{name}_cv_s"), getattr(_sph, f"{name}_cv_sp")
    characteristic = "pro_cv" if name.startswith("pro") else "obl_cv"

    def f(m: ArrayLike, n: ArrayLike, c: ArrayLike, cv: ArrayLike,
          x: ArrayLike) -> tuple[Array, Array]:
        args = _real(f"{name}_cv", m, n, c, cv, x)
        return s_prim(*args), sp_prim(*args)
    x0 = _POINT[name[4:]]
    f.__name__ = f.__qualname__ = f"{name}_cv"
    f.__doc__ = f"""``(s, sp)``: {_KINDS[name]}, and its derivative in ``x``, for a
    precomputed characteristic value ``cv = {characteristic}(m, n, c)``, as
    ``scipy.special.{name}_cv(m, n, c, cv, x)`` (SciPy's values); differentiable in ``x``
    at every order, not in ``m``, ``n``, ``c`` or ``cv``.

    >>> cv = {characteristic}(1, 2, 1.5)
    >>> s, sp = {name}_cv(1, 2, 1.5, cv, {x0})
    >>> bool(s == {name}(1, 2, 1.5, {x0})[0])
    True
    """
    f.primitives = (s_prim.primitive, sp_prim.primitive)  # type: ignore[attr-defined]
    return _with_out(f)


pro_ang1, pro_rad1, pro_rad2 = (_function(n) for n in ("pro_ang1", "pro_rad1", "pro_rad2"))
obl_ang1, obl_rad1, obl_rad2 = (_function(n) for n in ("obl_ang1", "obl_rad1", "obl_rad2"))
pro_ang1_cv, pro_rad1_cv, pro_rad2_cv = (_function_cv(n)
                                         for n in ("pro_ang1", "pro_rad1", "pro_rad2"))
obl_ang1_cv, obl_rad1_cv, obl_rad2_cv = (_function_cv(n)
                                         for n in ("obl_ang1", "obl_rad1", "obl_rad2"))


def _sequence(name: str, m: Any, n: Any, c: Any) -> np.ndarray:
    if any(isinstance(a, _Tracer) for a in (m, n, c)):
        raise TypeError(f"{name}(m, n, c): SciPy's characteristic values, with no "
                        f"derivative here; pass plain numbers (pro_cv/obl_cv are "
                        f"elementwise, but not differentiable in c either)")
    c = float(c)
    if not (np.isfinite(c) and c >= 0):
        raise ValueError(f"{name}(m, n, c): c must be a finite number >= 0, got {c}")
    if c + (float(n) - float(m)) / 2 > _sph.LARGEST:
        raise ValueError(f"{name}(m, n, c): c + (n - m)/2 must be at most {_sph.LARGEST:g} "
                         f"(SciPy's routine overruns its work arrays beyond about 104 and "
                         f"aborts the process)")
    import scipy.special  # (here: importing funcgrad never loads SciPy)
    return getattr(scipy.special, name)(m, n, c)


def pro_cv_seq(m: int, n: int, c: float) -> np.ndarray:
    """The characteristic values of the prolate spheroidal wave functions of order ``m``
    and degrees ``m..n``, as ``scipy.special.pro_cv_seq`` (SciPy's values, a plain array;
    no derivative).

    >>> pro_cv_seq(0, 3, 0.0)
    array([ 0.,  2.,  6., 12.])
    """
    return _sequence("pro_cv_seq", m, n, c)


def obl_cv_seq(m: int, n: int, c: float) -> np.ndarray:
    """The characteristic values of the oblate spheroidal wave functions of order ``m``
    and degrees ``m..n``, as ``scipy.special.obl_cv_seq`` (SciPy's values, a plain array;
    no derivative).

    >>> obl_cv_seq(1, 2, 0.0)
    array([2., 6.])
    """
    return _sequence("obl_cv_seq", m, n, c)
