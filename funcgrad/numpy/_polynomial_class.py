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
from ._polynomial_methods import SeriesMethods, chebyshev_interpolate
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


class Polynomial(SeriesMethods):
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
    # the basis: its series functions (subclasses for the other bases set their own), and
    # NumPy's class, whose instances combine with these
    _val = staticmethod(ps.polyval)
    _der = staticmethod(ps.polyder)
    _int = staticmethod(ps.polyint)
    _fit = staticmethod(ps.fit_by)
    _vander = staticmethod(ps.polyvander)
    _mul = staticmethod(ps.polymul)  # (None: products of two series are not supported)
    _numpy_class = _np.polynomial.Polynomial
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
        self._symbol = symbol

    def __repr__(self):
        return (f"{type(self).__name__}({self.coef!r}, domain={self.domain!r}, window={self.window!r}, "
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
        return self._val(add(off, multiply(scl, asarray(arg))), self.coef)

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
        return self._new(self._der(self.coef, m, self.mapparms()[1]))

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
        return self._new(self._int(self.coef, m, k, lbnd, divide(1.0, scl)))

    def _coefficients(self, other):
        """``other``'s coefficients when it is a Polynomial on the same domain and window
        (NumPy refuses others), else ``other`` (a number)."""
        if isinstance(other, Polynomial):
            if type(other) is not type(self):
                raise TypeError(f"Polynomial types differ: {type(self).__name__} and "
                                f"{type(other).__name__}")
            for name in ("domain", "window"):
                a, b = getattr(self, name), getattr(other, name)
                if is_concrete(a) and is_concrete(b) and not _np.array_equal(
                        concrete_values(a, "", ""), concrete_values(b, "", "")):
                    raise TypeError(f"{name.capitalize()}s differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        if isinstance(other, self._numpy_class):
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

    def _product(self, a, b):
        if self._mul is None and _np.ndim(a) != 0 and _np.ndim(b) != 0:
            raise NotImplementedError(
                f"{type(self).__name__} * {type(self).__name__} (a product of two series in "
                f"this basis) is not supported on traced coefficients. Multiply by numbers, "
                f"or multiply the values the series take (p(x) * q(x)).")
        return self._new((self._mul or ps.polymul)(a, b))

    def __mul__(self, other):
        return self._product(self.coef, self._coefficients(other))

    def __rmul__(self, other):
        return self._product(other, self.coef)

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: '{type(self)}', "
                            f"'{type(other)}'")
        return self._new(ps.polydiv(self.coef, [other])[0])

    def __pow__(self, other):
        if self._mul is None and other not in (0, 1):
            raise NotImplementedError(f"{type(self).__name__} ** {other} is not supported on "
                                      f"traced coefficients: evaluate and take the power of "
                                      f"the values.")
        if self._mul is None:
            return self._new(self.coef if other == 1 else _np.ones(1, self.coef.dtype))
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
        coef = cls._fit(cls._vander, f"{cls.__name__}.fit", add(off, multiply(scl, x)), y, deg,
                        rcond=rcond, full=full, w=w)
        return cls(coef, domain=domain, window=window, symbol=symbol)


def _basis_class(name, numpy_class, prefix, module):
    """A subclass of :class:`Polynomial` for another basis: its series functions from
    :mod:`funcgrad.numpy.orthogonal_series`, NumPy's default domain and window."""
    from . import orthogonal_series as series  # (it builds on power_series only)
    numbers_of = {"domain": numpy_class.domain, "window": numpy_class.window}
    doc = (f"``np.polynomial.{name}(coef, domain=None, window=None, symbol='x')``: the "
           f"{name} series ``sum_i coef[i] P_i(t)`` in ``t = off + scl x`` (the map of "
           f"``domain`` onto ``window``, ``{list(numpy_class.domain)}`` and "
           f"``{list(numpy_class.window)}`` by default), differentiable in the coefficients, "
           f"the points, the domain and the window.\n\n    Calling, ``deriv``, ``integ``, "
           f"``degree``, ``fit``, ``+ -`` and products with numbers work as NumPy's; a "
           f"product of two series raises NotImplementedError.\n\n"
           f"    >>> import numpy as np\n"
           f"    >>> from funcgrad.numpy.polynomial import {name}\n"
           f"    >>> float({name}(np.array([1.0, 2.0, 3.0]))(0.5))\n"
           f"    {float(numpy_class([1.0, 2.0, 3.0])(0.5))!r}\n")
    attributes = {
        "__doc__": doc, "__module__": __name__, "basis_name": numpy_class.basis_name,
        "_val": staticmethod(getattr(series, f"{prefix}val")),
        "_der": staticmethod(getattr(series, f"{prefix}der")),
        "_int": staticmethod(getattr(series, f"{prefix}int")),
        "_vander": staticmethod(getattr(series, f"{prefix}vander")),
        "_mul": None, "_numpy_class": numpy_class,
        **{k: _np.array(v, float) for k, v in numbers_of.items()}}
    if name == "Chebyshev":
        attributes["interpolate"] = classmethod(chebyshev_interpolate)
    return type(name, (Polynomial,), attributes)


_BASES = [("Chebyshev", "cheb", "chebyshev"), ("Legendre", "leg", "legendre"),
          ("Hermite", "herm", "hermite"), ("HermiteE", "herme", "hermite_e"),
          ("Laguerre", "lag", "laguerre")]
Chebyshev, Legendre, Hermite, HermiteE, Laguerre = (
    _basis_class(name, getattr(_np.polynomial, name), prefix, module)
    for name, prefix, module in _BASES)
__all__ += [name for name, _, _ in _BASES]
