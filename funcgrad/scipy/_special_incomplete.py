"""The regularized incomplete gamma and beta functions of :mod:`funcgrad.scipy.special`
(re-exported there), SciPy's signatures on :mod:`funcgrad.primitives.incomplete`, whose
rules differentiate them in ``x`` and, once, in their shape parameters."""
from ..numpy._convert import operand as _operand
from ..primitives import incomplete as _inc
from ..typing import Array, ArrayLike

__all__ = ["gammainc", "gammaincc", "betainc", "betaincc"]


def gammainc(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)``.  Differentiable in
    ``x`` (``x**(a-1) exp(-x) / Gamma(a)``) and in ``a > 0`` (by Temme's expansion, its
    series and continued fraction, :mod:`funcgrad.primitives.incomplete`); twice in ``x``
    and once in ``a``.

    >>> import math
    >>> round(float(gammainc(1.0, 1.0)), 15) == round(1 - math.exp(-1), 15)
    True
    >>> import funcgrad as fg
    >>> round(float(fg.grad(gammainc)(1.0, 2.0)), 12)  # dP/da
    -0.220825426212
    """
    return _inc.gammainc(_operand(a), _operand(x))


def gammaincc(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``;
    differentiable as :func:`gammainc` (``dQ/da = -dP/da``).

    >>> import math
    >>> round(float(gammaincc(1.0, 1.0)), 15) == round(math.exp(-1), 15)
    True
    """
    return _inc.gammaincc(_operand(a), _operand(x))


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The regularized incomplete beta function ``I_x(a, b)``.  Differentiable in ``x``
    (``x**(a-1) (1-x)**(b-1) / B(a, b)``) and in ``a`` and ``b`` up to 1e8 (by its
    continued fraction, :mod:`funcgrad.primitives.incomplete`; beyond, the derivative
    raises ``FloatingPointError``).

    >>> float(betainc(1.0, 1.0, 0.25))
    0.25
    >>> import funcgrad as fg
    >>> round(float(fg.grad(betainc)(2.0, 1.0, 0.5)), 10)  # x**a log x
    -0.1732867951
    """
    return _inc.betainc(_operand(a), _operand(b), _operand(x))


def betaincc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The complement ``1 - I_x(a, b)`` of :func:`betainc`, without its cancellation: the
    continued fraction's own value on the side where it gives the complement (never ``1 -
    betainc``, nor ``betainc(b, a, 1 - x)`` of a rounded ``1 - x``).  Differentiable as
    :func:`betainc`.

    >>> float(betaincc(1.0, 1.0, 0.25))
    0.75
    >>> bool(float(betaincc(2.0, 3.0, 1 - 1e-12)) > 0)  # 1 - betainc is 0 there
    True
    """
    return _inc.betaincc(_operand(a), _operand(b), _operand(x))


# (SciPy's signatures, each one primitive: the front of that primitive)
for _front, _prim_fn in ((gammainc, _inc.gammainc), (gammaincc, _inc.gammaincc),
                         (betainc, _inc.betainc), (betaincc, _inc.betaincc)):
    _front.primitive = _prim_fn.primitive
del _front, _prim_fn
# (and the primitives of their derivatives in the shape parameters, reached only here)
for _front, _prim_fns in ((gammainc, (_inc.gammainc, _inc.gammainc_da)),
                          (betainc, (_inc.betainc, _inc.betainc_da, _inc.betainc_db)),
                          (betaincc, (_inc.betaincc, _inc.betainc_da, _inc.betainc_db))):
    _front.primitives = tuple(getattr(f, "primitive") for f in _prim_fns)
del _front, _prim_fns
