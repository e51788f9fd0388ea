"""``funcgrad.numpy.polynomial.Polynomial``: NumPy's ``np.polynomial.Polynomial`` whose
coefficients (and domain, window and points) may be traced.

NumPy's class converts its coefficients and the points it is called at with ``np.array``,
which a traced value cannot go through; this one keeps them traced, and computes as
NumPy's does (the same domain-to-window map, then the power series of
:mod:`funcgrad.numpy.power_series`).
"""
import numbers
from typing import Any

import numpy as _np

from ._convert import asarray, concrete_values, is_concrete
from .indexing import where
from .manipulation import stack
from .reductions import max, min
from .ufuncs import add, divide, equal, imag, multiply, negative, real, subtract
from . import power_series as ps
from ..typing import Array, ArrayLike

__all__ = ["Polynomial"]


def _interval(values, what):
    values, = ps._common(what, values, trim=False)
    if values.shape[0] != 2:
        raise ValueError(f"{what} has wrong number of elements.")
    return values


def _map_parameters(old, new):
    """NumPy's ``mapparms``: ``off + scl * x`` maps ``old`` onto ``new``."""
    old_length = subtract(old[1], old[0])
    new_length = subtract(new[1], new[0])
    off = divide(subtract(multiply(old[1], new[0]), multiply(old[0], new[1])), old_length)
    return off, divide(new_length, old_length)


class Polynomial:
    """``np.polynomial.Polynomial(coef, domain=None, window=None, symbol='x')``: the power
    series ``sum_i coef[i] t**i`` in ``t = off + scl x``, the map of ``domain`` onto
    ``window`` (both ``[-1, 1]`` by default), differentiable in the coefficients, the
    points, and the domain and window.

    Supports calling, ``deriv``, ``integ``, ``degree``, ``fit``, and ``+ - * **`` with
    another Polynomial of the same domain and window or with numbers (NumPy's trailing
    zeros dropped: under ``vmap``/``jit`` that needs the values, see
    :mod:`funcgrad.numpy.power_series`).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.numpy.polynomial import Polynomial
    >>> float(Polynomial(np.array([1.0, 2.0, 3.0]))(2.0))
    17.0
    >>> fg.grad(lambda c: Polynomial(c).deriv()(2.0))(np.array([1.0, 2.0, 3.0]))
    array([0., 1., 4.])
    """

    domain = window = _np.array([-1.0, 1.0])
    maxpower = 100
    basis_name = None
    __array_ufunc__ = None  # (x * p: Polynomial.__rmul__, not NumPy's broadcasting)

    def __init__(self, coef: ArrayLike, domain: ArrayLike | None = None,
                 window: ArrayLike | None = None, symbol: str = "x"):
        self.coef, = ps._common("Polynomial", coef, trim=False)
        if domain is not None:
            self.domain = _interval(domain, "Domain")
        if window is not None:
            self.window = _interval(window, "Window")
        if not isinstance(symbol, str) or not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self.symbol = symbol

    def __repr__(self):
        return (f"Polynomial({self.coef!r}, domain={self.domain!r}, window={self.window!r}, "
                f"symbol='{self.symbol}')")

    def mapparms(self) -> tuple[Array, Array]:
        """``(off, scl)``: ``off + scl * x`` maps the domain onto the window.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> [float(v) for v in Polynomial([1.0], domain=[0.0, 2.0]).mapparms()]
        [-1.0, 1.0]
        """
        return _map_parameters(self.domain, self.window)

    def __call__(self, arg: ArrayLike) -> Array:
        off, scl = self.mapparms()
        return ps.polyval(add(off, multiply(scl, asarray(arg))), self.coef)

    def __len__(self):
        return self.coef.shape[0]

    def __iter__(self):
        return iter(self.coef)

    def degree(self) -> int:
        """The degree: one less than the number of coefficients.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([1.0, 7.0, 4.0]).degree()
        2
        """
        return len(self) - 1

    def _new(self, coef):
        return type(self)(coef, self.domain, self.window, self.symbol)

    def deriv(self, m: int = 1) -> "Polynomial":
        """The ``m``-th derivative, on the same domain.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([1.0, 2.0, 3.0]).deriv().coef
        array([2., 6.])
        """
        return self._new(ps.polyder(self.coef, m, self.mapparms()[1]))

    def integ(self, m: int = 1, k: Any = [], lbnd: ArrayLike | None = None  # noqa: B006
              ) -> "Polynomial":
        """The ``m``-th integral, with integration constants ``k`` (the values at
        ``lbnd``, 0 by default), on the same domain.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([2.0, 6.0]).integ(k=1.0).coef
        array([1., 2., 3.])
        """
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else add(off, multiply(scl, lbnd))
        return self._new(ps.polyint(self.coef, m, k, lbnd, divide(1.0, scl)))

    def _coefficients(self, other):
        """``other``'s coefficients when it is a Polynomial on the same domain and window
        (NumPy refuses others), else ``other`` (a number)."""
        if isinstance(other, Polynomial):
            for name in ("domain", "window"):
                a, b = getattr(self, name), getattr(other, name)
                if is_concrete(a) and is_concrete(b) and not _np.array_equal(
                        concrete_values(a, "", ""), concrete_values(b, "", "")):
                    raise TypeError(f"{name.capitalize()}s differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        if isinstance(other, _np.polynomial.polynomial.Polynomial):
            return other.coef
        return other

    def __add__(self, other):
        return self._new(ps.polyadd(self.coef, self._coefficients(other)))

    def __radd__(self, other):
        return self._new(ps.polyadd(other, self.coef))

    def __sub__(self, other):
        return self._new(ps.polysub(self.coef, self._coefficients(other)))

    def __rsub__(self, other):
        return self._new(ps.polysub(other, self.coef))

    def __mul__(self, other):
        return self._new(ps.polymul(self.coef, self._coefficients(other)))

    def __rmul__(self, other):
        return self._new(ps.polymul(other, self.coef))

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: '{type(self)}', "
                            f"'{type(other)}'")
        return self._new(ps.polydiv(self.coef, [other])[0])

    def __pow__(self, other):
        return self._new(ps.polypow(self.coef, other, maxpower=self.maxpower))

    def __neg__(self):
        return self._new(negative(self.coef))

    def __pos__(self):
        return self

    @classmethod
    def fit(cls, x: ArrayLike, y: ArrayLike, deg: Any, domain: Any = None,
            rcond: float | None = None, full: bool = False, w: ArrayLike | None = None,
            window: ArrayLike | None = None, symbol: str = "x") -> "Polynomial":
        """The least-squares fit of degree ``deg`` to the points ``(x, y)``, as NumPy's:
        ``domain`` defaults to ``[min(x), max(x)]`` (widened by one each way if that is a
        point), mapped onto ``window`` before fitting; differentiable in ``x``, ``y`` and
        ``w``.

        >>> import numpy as np
        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> x = np.array([0.0, 1.0, 2.0])
        >>> float(Polynomial.fit(x, 3.0 * x + 1.0, 1)(4.0))
        13.0
        """
        x = asarray(x)
        if domain is None:
            if x.dtype.kind == "c":
                low = add(min(real(x)), multiply(1j, min(imag(x))))
                high = add(max(real(x)), multiply(1j, max(imag(x))))
            else:
                low, high = min(x), max(x)
            point = equal(low, high)
            domain = stack([where(point, subtract(low, 1), low), where(point, add(high, 1), high)])
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        window = cls.window if window is None else _interval(window, "Window")
        off, scl = _map_parameters(_interval(domain, "Domain"), window)
        coef = ps.polyfit(add(off, multiply(scl, x)), y, deg, rcond=rcond, full=full, w=w)
        return cls(coef, domain=domain, window=window, symbol=symbol)
