"""The Mathieu functions of :mod:`funcgrad.scipy.special`: the characteristic values
``mathieu_a``, ``mathieu_b``, the functions ``mathieu_cem``, ``mathieu_sem`` (``x`` in
degrees, as SciPy's), the modified ``mathieu_modcem1/2``, ``mathieu_modsem1/2``, and the
Fourier coefficients ``mathieu_even_coef``, ``mathieu_odd_coef``.  SciPy's values;
differentiable in ``x`` at every order (the second output's slope from the Mathieu
equation: :mod:`funcgrad.primitives.special_scipy_rest`).  In the order ``m`` and the
parameter ``q`` there is no derivative: asking raises ``NotImplementedError``.
"""
from typing import Any

import numpy as np

from ..core import Tracer as _Tracer
from ..numpy._convert import operand as _operand
from ..primitives import special_scipy_rest as _rest
from ..typing import Array, ArrayLike
from ._special_out import with_out as _with_out
from ._special_real import reject_complex as _reject_complex

__all__ = ["mathieu_a", "mathieu_b", "mathieu_cem", "mathieu_sem", "mathieu_modcem1",
           "mathieu_modcem2", "mathieu_modsem1", "mathieu_modsem2", "mathieu_even_coef",
           "mathieu_odd_coef"]

_REAL = "pass real arrays, as to SciPy's function"


def _real(name: str, *args: ArrayLike) -> list:
    values = [_operand(a) for a in args]
    _reject_complex(name, _REAL, *values)
    return values


@_with_out
def mathieu_a(m: ArrayLike, q: ArrayLike) -> Array:
    """The characteristic value ``a_m(q)`` of the even Mathieu functions, as
    ``scipy.special.mathieu_a`` (SciPy's values; no derivative in ``m`` or ``q``).

    >>> float(mathieu_a(1, 0.0))  # (m**2 at q = 0)
    1.0
    """
    return _rest.mathieu_a(*_real("mathieu_a", m, q))


@_with_out
def mathieu_b(m: ArrayLike, q: ArrayLike) -> Array:
    """The characteristic value ``b_m(q)`` of the odd Mathieu functions, as
    ``scipy.special.mathieu_b`` (SciPy's values; no derivative in ``m`` or ``q``).

    >>> float(mathieu_b(2, 0.0))
    4.0
    """
    return _rest.mathieu_b(*_real("mathieu_b", m, q))


def _pair(name: str, m: ArrayLike, q: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
    m, q, x = _real(name, m, q, x)
    return (getattr(_rest, f"{name}_y")(m, q, x), getattr(_rest, f"{name}_yp")(m, q, x))


@_with_out
def mathieu_cem(m: ArrayLike, q: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
    """``(ce_m(x, q), ce_m'(x, q))``: the even Mathieu function and its derivative, ``x``
    in degrees (the derivative per radian), as ``scipy.special.mathieu_cem``; in ``x``
    differentiable at every order (``y'' = -(a - 2q cos 2x) y``).

    >>> import funcgrad as fg
    >>> y, yp = mathieu_cem(1, 0.0, 60.0)  # (cos(x) at q = 0)
    >>> round(float(y), 12)
    0.5
    >>> round(float(fg.grad(lambda x: mathieu_cem(1, 0.0, x)[0])(90.0)), 12)  # -pi/180
    -0.01745329252
    """
    return _pair("mathieu_cem", m, q, x)


@_with_out
def mathieu_sem(m: ArrayLike, q: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
    """``(se_m(x, q), se_m'(x, q))``: the odd Mathieu function and its derivative, ``x``
    in degrees, as ``scipy.special.mathieu_sem``; differentiable in ``x``.

    >>> y, yp = mathieu_sem(1, 0.0, 30.0)  # (sin(x) at q = 0)
    >>> round(float(y), 12)
    0.5
    """
    return _pair("mathieu_sem", m, q, x)


def _modified(name: str, kind: str) -> Any:
    def f(m: ArrayLike, q: ArrayLike, x: ArrayLike) -> tuple[Array, Array]:
        return _pair(name, m, q, x)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"""``(y, y')``: the modified Mathieu function {kind} and its derivative,
    as ``scipy.special.{name}`` (SciPy's values); differentiable in ``x`` at every order
    (``y'' = (a - 2q cosh 2x) y``), not in ``m`` or ``q``.

    >>> import funcgrad as fg
    >>> y, yp = {name}(2, 1.5, 0.7)
    >>> abs(float(fg.grad(lambda x: {name}(2, 1.5, x)[0])(0.7)) - float(yp)) < 1e-15
    True
    """
    return _with_out(f)


mathieu_modcem1 = _modified("mathieu_modcem1", "``Mc1_m(x, q)`` (even, first kind)")
mathieu_modcem2 = _modified("mathieu_modcem2", "``Mc2_m(x, q)`` (even, second kind)")
mathieu_modsem1 = _modified("mathieu_modsem1", "``Ms1_m(x, q)`` (odd, first kind)")
mathieu_modsem2 = _modified("mathieu_modsem2", "``Ms2_m(x, q)`` (odd, second kind)")


def _coefficients(name: str, m: Any, q: Any) -> np.ndarray:
    if isinstance(m, _Tracer) or isinstance(q, _Tracer):
        raise TypeError(f"{name}(m, q): SciPy's Fourier coefficients, with no derivative "
                        f"here; pass plain numbers")
    import scipy.special  # (here: importing funcgrad never loads SciPy)
    return getattr(scipy.special, name)(m, q)


def mathieu_even_coef(m: int, q: float) -> np.ndarray:
    """The Fourier coefficients of the even Mathieu function ``ce_m(x, q)``, as
    ``scipy.special.mathieu_even_coef`` (SciPy's values, a plain array; no derivative).

    >>> mathieu_even_coef(2, 1.5)[:2].round(6)
    array([0.28636 , 0.906191])
    """
    return _coefficients("mathieu_even_coef", m, q)


def mathieu_odd_coef(m: int, q: float) -> np.ndarray:
    """The Fourier coefficients of the odd Mathieu function ``se_m(x, q)``, as
    ``scipy.special.mathieu_odd_coef`` (SciPy's values, a plain array; no derivative).

    >>> mathieu_odd_coef(2, 1.5).shape[0] > 0
    True
    """
    return _coefficients("mathieu_odd_coef", m, q)


# (the primitives each front binds: one per output)
mathieu_a.primitive = _rest.mathieu_a.primitive  # type: ignore[attr-defined]
mathieu_b.primitive = _rest.mathieu_b.primitive  # type: ignore[attr-defined]
for _front in (mathieu_cem, mathieu_sem, mathieu_modcem1, mathieu_modcem2, mathieu_modsem1,
               mathieu_modsem2):
    _front.primitives = tuple(
        getattr(_rest, f"{_front.__name__}_{o}").primitive for o in ("y", "yp"))
del _front
