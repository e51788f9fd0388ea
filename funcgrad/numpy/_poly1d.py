"""``funcgrad.numpy.poly1d``: NumPy's one-variable polynomial class (coefficients highest
power first) whose coefficients and points may be traced.

NumPy's class turns its coefficients into a plain array, which a traced value cannot
become; this one keeps them traced and computes with :mod:`funcgrad.numpy.polynomial`'s
functions.  As NumPy's, it drops leading zero coefficients, which needs their values: a
zero that carries a derivative is refused (dropping it would lose the derivative), and
under ``vmap``/``jit`` the values are not known (use ``fnp.polyval`` there).
"""
import numbers
from typing import Any

import numpy as _np

from ._conversions import refuse_trimming
from ._convert import asarray, concrete_values
from ._shapes import ravel
from .polynomial import poly, polyadd, polyder, polydiv, polyint, polymul, polysub
from .polynomial import roots as _roots
from .products import polyval
from .ufuncs import divide, multiply, negative
from ..typing import Array

__all__ = ["poly1d"]


_TRIM = "poly1d (NumPy drops leading zero coefficients)"
_KEEP = "Use fnp.polyval(c, x) and the fnp.poly* functions on the coefficients, which keep them."


def _strip(c):
    values = concrete_values(c, _TRIM, _KEEP)
    nonzero = _np.flatnonzero(values)
    start = int(nonzero[0]) if nonzero.size else values.shape[0] - 1
    if start > 0:
        refuse_trimming(c, _TRIM, _KEEP)
    return c[start:]


def _is_scalar(x):
    if isinstance(x, (poly1d, _np.poly1d)):
        return False
    return isinstance(x, numbers.Number) or _np.ndim(x) == 0


class poly1d:  # noqa: N801 - NumPy's name
    """``np.poly1d(c_or_r, r=False, variable=None)``: the polynomial with coefficients
    ``c_or_r`` (highest power first), or with roots ``c_or_r`` when ``r=True``;
    differentiable in the coefficients (and roots) and in the points it is called at.

    Supports calling (at points, or at another poly1d: the composition), ``+ - * / **``,
    ``deriv``, ``integ``, ``roots`` (differentiable as :func:`funcgrad.numpy.roots`),
    ``coeffs``, ``order``, ``variable``, indexing by power, and NumPy's repr and str.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> p = fnp.poly1d([1.0, 2.0, 3.0])
    >>> p
    poly1d([1., 2., 3.])
    >>> float(p(2.0)), p.order
    (11.0, 2)
    >>> fg.grad(lambda c: fnp.poly1d(c).deriv()(2.0))(np.array([1.0, 2.0, 3.0]))
    array([4., 1., 0.])
    """

    __hash__ = None
    __array_ufunc__ = None  # (x * p: poly1d.__rmul__, as NumPy's class answers)

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None):
        if isinstance(c_or_r, (poly1d, _np.poly1d)):
            self._variable = c_or_r.variable
            self._coeffs = c_or_r.coeffs if isinstance(c_or_r, poly1d) else \
                _np.array(c_or_r.coeffs)
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c_or_r = asarray(c_or_r)
        if c_or_r.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c_or_r = ravel(c_or_r)
        if c_or_r.shape[0] == 0:
            c_or_r = _np.zeros(1, c_or_r.dtype)
        self._coeffs = _strip(c_or_r)
        self._variable = "x" if variable is None else variable

    # --- what it holds -----------------------------------------------------------------------

    @property
    def coeffs(self) -> Array:
        """The coefficients, highest power first."""
        return self._coeffs

    c = coef = coefficients = coeffs

    @property
    def order(self) -> int:
        """The order (degree) of the polynomial."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def variable(self) -> str:
        """The name of the variable in the printed form."""
        return self._variable

    @property
    def roots(self) -> Array:
        """The roots (complex where they are), differentiable in the coefficients."""
        return _roots(self._coeffs)

    r = roots

    def __len__(self):
        return self.order

    def __iter__(self):
        return iter(self._coeffs)

    def __getitem__(self, power):
        if power > self.order or power < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[self.order - power]

    def __setitem__(self, key, value):
        raise TypeError("funcgrad's poly1d is immutable (its coefficients may be traced): "
                        "build a new one, fnp.poly1d(p.coeffs.at[p.order - k].set(v))")

    def __array__(self, dtype=None, copy=None):
        return _np.asarray(self._coeffs, dtype=dtype)

    def __repr__(self):
        text = repr(self._coeffs)
        if not isinstance(self._coeffs, _np.ndarray):
            return f"poly1d({text})"
        return f"poly1d({text[6:-1]})"

    def __str__(self):
        if not isinstance(self._coeffs, _np.ndarray):
            return repr(self)
        return str(_np.poly1d(self._coeffs, variable=self._variable))

    # --- calculus ----------------------------------------------------------------------------

    def __call__(self, val: Any) -> Any:
        if isinstance(val, (poly1d, _np.poly1d)):
            return poly1d(self._compose(poly1d(val)))
        return polyval(self._coeffs, val)

    def _compose(self, inner):
        # Horner's rule on polynomials: NumPy's polyval given a poly1d does the same
        result = poly1d(self._coeffs[0:1])
        for k in range(1, self.order + 1):
            result = result * inner + poly1d(self._coeffs[k:k + 1])
        return result.coeffs

    def deriv(self, m: int = 1) -> "poly1d":
        """The ``m``-th derivative.

        >>> import funcgrad.numpy as fnp
        >>> fnp.poly1d([1.0, 2.0, 3.0]).deriv()
        poly1d([2., 2.])
        """
        return poly1d(polyder(self._coeffs, m))

    def integ(self, m: int = 1, k: Any = 0) -> "poly1d":
        """The ``m``-th antiderivative, with integration constants ``k``.

        >>> import funcgrad.numpy as fnp
        >>> fnp.poly1d([2.0, 2.0]).integ(k=1.0)
        poly1d([1., 2., 1.])
        """
        return poly1d(polyint(self._coeffs, m=m, k=k))

    # --- arithmetic --------------------------------------------------------------------------

    def __neg__(self):
        return poly1d(negative(self._coeffs))

    def __pos__(self):
        return self

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __mul__(self, other):
        if _is_scalar(other):
            return poly1d(multiply(self._coeffs, other))
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if _is_scalar(other):
            return poly1d(divide(self._coeffs, other))
        q, rest = polydiv(self._coeffs, poly1d(other)._coeffs)
        return poly1d(q), poly1d(rest)

    def __rtruediv__(self, other):
        if _is_scalar(other):
            return poly1d(divide(other, self._coeffs))
        q, rest = polydiv(poly1d(other)._coeffs, self._coeffs)
        return poly1d(q), poly1d(rest)

    def __pow__(self, val):
        if not _is_scalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res: Any = [1]
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __eq__(self, other):
        if not isinstance(other, (poly1d, _np.poly1d)):
            return NotImplemented
        other_coeffs = other.coeffs
        if self._coeffs.shape != _np.shape(other_coeffs):
            return False
        return _np.bool_(_np.all(concrete_values(self._coeffs, "poly1d ==", _KEEP)
                            == concrete_values(asarray(other_coeffs), "poly1d ==", _KEEP)))

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

