"""The methods of ``numpy.polynomial``'s classes beyond evaluation and calculus: copies,
comparisons, trimming, conversions between bases, construction from roots, roots, and
Chebyshev interpolation, for :class:`funcgrad.numpy.polynomial.Polynomial` and its
sibling bases (a mixin those classes inherit).

Derivatives are in the traced coefficients (and, where NumPy's formula is smooth in them,
in the domain, the window and the points):

- ``convert``, ``cast`` and the other bases' ``fromroots``/``identity`` are linear maps of
  power-series or series coefficients; the map's matrix is NumPy's own conversion of each
  unit coefficient vector, so the result is NumPy's to rounding and its derivative exact.
  A domain or window that carries a derivative there is refused (the map is built from
  their values).
- ``roots`` are NumPy's (eigenvalues of the companion matrix), and move by the implicit
  function theorem, ``dt = -dp(t) / p'(t)`` at each simple root ``t`` of the series in the
  window variable; a multiple (or numerically clustered) root has no derivative, and
  differentiating one raises.
- ``Chebyshev.interpolate`` is NumPy's ``chebinterpolate``: a fixed matrix times the
  function's values at the Chebyshev points, so it is differentiable in those values and
  through them in a traced parameter of the function (``args``) or the domain.
"""
import functools
from typing import TYPE_CHECKING, Any, Callable

import numpy as _np

from ..core import DerivativeDroppedError, Tracer
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ._conversions import carried_derivative, refuse_trimming
from ._convert import asarray, concrete_values
from .constructors import astype
from .manipulation import concatenate, stack
from .products import matmul
from .ranges import linspace as _linspace
from .reductions import max as _max, min as _min
from .ufuncs import add, divide, imag, multiply, negative, power, real, subtract
from . import power_series as ps
from ..typing import Array, ArrayLike

__all__ = ["SeriesMethods", "set_default_printstyle", "chebyshev_interpolate"]

# Roots closer than this (relative to max(1, |t|)) are one multiple root to the
# derivative: NumPy's eigenvalues split a k-fold root by about eps**(1/k) (1.5e-8 for a
# double root, 1.2e-4 for a fourfold one), and the implicit derivative there is infinite.
_CLUSTER = 1e-3


def _traced(*values):
    return any(isinstance(v, Tracer) for v in values)


def _values(x, what):
    return concrete_values(x, what, "Call it outside vmap/jit (it needs the values).")


def _map_parameters(old, new):
    """NumPy's ``mapparms``: ``off + scl * x`` maps ``old`` onto ``new``."""
    old_length = subtract(old[1], old[0])
    off = divide(subtract(multiply(old[1], new[0]), multiply(old[0], new[1])), old_length)
    return off, divide(subtract(new[1], new[0]), old_length)


def _map_domain(x, old, new):
    off, scl = _map_parameters(old, new)
    return add(off, multiply(scl, x))


def _get_domain(x):
    """NumPy's ``polyutils.getdomain``: ``[min, max]`` of the points (of the real and the
    imaginary parts, for complex points)."""
    if x.dtype.kind == "c":
        return stack([add(_min(real(x)), multiply(1j, _min(imag(x)))),
                      add(_max(real(x)), multiply(1j, _max(imag(x))))])
    return stack([_min(x), _max(x)])


def _refuse_moving_interval(what, *intervals):
    for interval in intervals:
        transform = carried_derivative(interval)
        if transform is not None:
            raise DerivativeDroppedError(
                f"{what} is a linear map of the coefficients built from the values of the "
                f"domain and window, but a domain or window here carries a derivative (it "
                f"depends on the input of {transform}), which would be lost. Differentiate "
                f"in the coefficients only (pass the domain and window as plain arrays), or "
                f"evaluate the series at points instead.")


# NumPy's module and function prefix of each basis (Polynomial: the power series itself)
_BASES = {"Polynomial": (None, "poly"), "Chebyshev": ("chebyshev", "cheb"),
          "Legendre": ("legendre", "leg"), "Hermite": ("hermite", "herm"),
          "HermiteE": ("hermite_e", "herme"), "Laguerre": ("laguerre", "lag")}


@functools.lru_cache(maxsize=64)
def _from_power_matrix(class_name: str, n: int) -> _np.ndarray:
    """``M`` (``n`` by ``n``) with ``M @ p``: the coefficients in this basis of the power
    series ``p`` (column ``j``: NumPy's ``poly2cheb``... of ``x**j``)."""
    module, prefix = _BASES[class_name]
    if module is None:
        return _np.eye(n)
    convert = getattr(getattr(_np.polynomial, module), f"poly2{prefix}")
    matrix = _np.zeros((n, n))
    for j in range(n):
        column = convert(_np.eye(j + 1)[j])
        matrix[:len(column), j] = column
    return matrix


def _in_basis(numpy_class, power_coefficients):
    """Power-series coefficients (traced) as coefficients of ``numpy_class``'s basis."""
    n = power_coefficients.shape[0]
    matrix = _from_power_matrix(numpy_class.__name__, n)
    if numpy_class.__name__ == "Polynomial":
        return power_coefficients
    if power_coefficients.dtype.kind == "c":
        matrix = matrix.astype(complex)
    return matmul(matrix, power_coefficients)


def _funcgrad_class(base, kind):
    """funcgrad's class for ``kind`` (one of funcgrad's classes, or NumPy's of that name)."""
    if isinstance(kind, type) and issubclass(kind, SeriesMethods):
        return kind
    pending = [base]
    while pending:
        cls = pending.pop()
        if getattr(cls, "_numpy_class", None) is kind:
            return cls
        pending.extend(cls.__subclasses__())
    raise TypeError(f"kind must be one of numpy.polynomial's series classes (Polynomial, "
                    f"Chebyshev, ...), funcgrad's or NumPy's; got {kind!r}")


# --- roots: NumPy's values, implicit derivatives --------------------------------------------

def _window_roots_values(numpy_class, coef):
    return numpy_class._roots(_values(coef, f"{numpy_class.__name__}.roots (how many roots "
                                              f"there are depends on the values)"))


@functools.partial(custom_jvp, nondiff_argnums=(0,))
def _window_root_parts(numpy_class, coef):
    """Real and imaginary parts of NumPy's roots in the window variable (custom rules
    carry real outputs)."""
    r = _np.asarray(_window_roots_values(numpy_class, coef))
    return _np.ascontiguousarray(r.real), _np.ascontiguousarray(r.imag)


def _series_functions(numpy_class):
    from . import orthogonal_series as series  # (built on power_series only)
    module, prefix = _BASES[numpy_class.__name__]
    if module is None:
        return ps.polyval, ps.polyder
    return getattr(series, f"{prefix}val"), getattr(series, f"{prefix}der")


def _refuse_multiple_roots(numpy_class, t):
    t = _np.asarray(t, complex)
    scale = _np.maximum(1.0, _np.abs(t))
    for i in range(t.shape[0]):
        for j in range(i + 1, t.shape[0]):
            if abs(t[i] - t[j]) <= _CLUSTER * max(scale[i], scale[j]):
                raise ValueError(
                    f"{numpy_class.__name__}.roots: the series has a multiple root (roots "
                    f"{t[i]:.6g} and {t[j]:.6g} in the window variable coincide to "
                    f"{_CLUSTER:g} relative), which has no derivative (it is infinite). "
                    f"Differentiate a symmetric function of the roots instead (the "
                    f"coefficients themselves, or fromroots), or separate the roots.")


@_window_root_parts.defjvp
def _window_root_parts_jvp(numpy_class, primals, tangents):
    coef, = primals
    dcoef, = tangents
    re, im = _window_root_parts(numpy_class, coef)
    values = _window_roots_values(numpy_class, coef)
    _refuse_multiple_roots(numpy_class, values)
    t = re
    if _np.asarray(values).dtype.kind == "c":
        t = add(re, multiply(_np.asarray(1j, _np.result_type(re.dtype, 1j)), im))
    val, der = _series_functions(numpy_class)
    # p(t) = sum_i c_i P_i(t) = 0 at a root: dp(t) + p'(t) dt = 0
    dt = negative(divide(val(t, dcoef), val(t, der(coef))))
    return (re, im), (astype(real(dt), re.dtype), astype(imag(dt), im.dtype))


def _roots(numpy_class, coef):
    values = _np.asarray(_window_roots_values(numpy_class, coef))
    if not isinstance(coef, Tracer) or values.shape[0] == 0:
        return values
    re, im = _window_root_parts(numpy_class, coef)
    if values.dtype.kind != "c":
        return re
    return add(re, multiply(_np.asarray(1j, values.dtype), im))


# --- the mixin -------------------------------------------------------------------------------

class SeriesMethods:
    """The methods numpy.polynomial's classes share beyond evaluation and calculus, for
    funcgrad's series classes (which set ``_numpy_class``, ``domain``, ``window``, ``coef``
    and ``_symbol``).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import Polynomial
    >>> Polynomial.fromroots([1.0, 2.0]).coef
    array([ 2., -3.,  1.])
    """

    _numpy_class: Any
    coef: Any
    domain: Any
    window: Any
    _symbol: str

    if TYPE_CHECKING:  # (the classes' own constructor)
        def __init__(self, coef: ArrayLike, domain: ArrayLike | None = None,
                     window: ArrayLike | None = None, symbol: str = "x") -> None: ...

    @property
    def symbol(self) -> str:
        """The name of the variable, in printing (``'x'`` by default)."""
        return self._symbol

    def _numpy_twin(self):
        """NumPy's instance with these (concrete) values."""
        what = f"{type(self).__name__} printed or compared"
        return self._numpy_class(_values(self.coef, what), _values(self.domain, what),
                                 _values(self.window, what), self._symbol)

    def __str__(self):
        if _traced(self.coef, self.domain, self.window):
            return repr(self)
        return str(self._numpy_twin())  # (NumPy's print style: set_default_printstyle)

    def __format__(self, fmt_str):
        if _traced(self.coef, self.domain, self.window):
            return format(repr(self), fmt_str)
        return format(self._numpy_twin(), fmt_str)

    # --- copies and comparisons ----------------------------------------------------------------

    def copy(self) -> Any:
        """A new series with the same coefficients, domain, window and symbol.

        >>> from funcgrad.numpy.polynomial import Chebyshev
        >>> Chebyshev([1.0, 2.0]).copy().coef
        array([1., 2.])
        """
        return type(self)(self.coef, self.domain, self.window, self._symbol)

    def has_samecoef(self, other: Any) -> bool:
        """Whether ``other`` has the same coefficients (as many, and equal).

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([1.0, 2.0]).has_samecoef(Polynomial([1.0, 2.0, 0.0]))
        False
        """
        if len(self.coef) != len(other.coef):
            return False
        what = "has_samecoef"
        return bool(_np.all(_values(self.coef, what) == _values(other.coef, what)))

    def has_samedomain(self, other: Any) -> bool:
        """Whether ``other`` has the same domain.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([1.0]).has_samedomain(Polynomial([2.0], domain=[0, 1]))
        False
        """
        return bool(_np.all(_values(self.domain, "has_samedomain")
                            == _values(other.domain, "has_samedomain")))

    def has_samewindow(self, other: Any) -> bool:
        """Whether ``other`` has the same window.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([1.0]).has_samewindow(Polynomial([2.0]))
        True
        """
        return bool(_np.all(_values(self.window, "has_samewindow")
                            == _values(other.window, "has_samewindow")))

    def has_sametype(self, other: Any) -> bool:
        """Whether ``other`` is an instance of this series' class.

        >>> from funcgrad.numpy.polynomial import Chebyshev, Legendre
        >>> Chebyshev([1.0]).has_sametype(Legendre([1.0]))
        False
        """
        return isinstance(other, type(self))

    # --- trimming ------------------------------------------------------------------------------

    def trim(self, tol: float = 0) -> Any:
        """The series without its trailing coefficients of absolute value at most
        ``tol`` (one zero kept when all are), as NumPy's ``trimcoef``.

        A dropped coefficient strictly inside ``tol`` has no effect nearby, so its
        derivative is zero; one exactly at ``tol`` (a zero, for ``tol=0``) that carries a
        derivative raises DerivativeDroppedError, since the count would change with it.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([1.0, 2.0, 1e-9, 0.0]).trim(1e-6).coef
        array([1., 2.])
        """
        if tol < 0:
            raise ValueError("tol must be non-negative")
        size = _np.abs(_values(self.coef, f"{type(self).__name__}.trim (how many "
                                          f"coefficients are kept depends on the values)"))
        kept = _np.flatnonzero(size > tol)
        keep = int(kept[-1]) + 1 if kept.size else 0
        if _np.any(size[keep:] == tol):
            refuse_trimming(self.coef, f"{type(self).__name__}.trim",
                            "Trim with a tol above those coefficients' sizes, or use "
                            "truncate(size), which keeps a fixed count.")
        coef = self.coef[:keep] if keep else multiply(self.coef[:1], 0)
        return type(self)(coef, self.domain, self.window, self._symbol)

    def truncate(self, size: int) -> Any:
        """The series with its first ``size`` coefficients only.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([1.0, 2.0, 3.0]).truncate(2).coef
        array([1., 2.])
        """
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        coef = self.coef if isize >= len(self.coef) else self.coef[:isize]
        return type(self)(coef, self.domain, self.window, self._symbol)

    def cutdeg(self, deg: int) -> Any:
        """The series truncated to degree ``deg`` (its first ``deg + 1`` coefficients).

        >>> from funcgrad.numpy.polynomial import Legendre
        >>> Legendre([1.0, 2.0, 3.0]).cutdeg(0).coef
        array([1.])
        """
        return self.truncate(deg + 1)

    # --- points, conversions ---------------------------------------------------------------------

    def linspace(self, n: int = 100, domain: ArrayLike | None = None) -> tuple[Array, Array]:
        """``(x, self(x))`` at ``n`` equally spaced points of ``domain`` (this series'
        domain by default), differentiable in the coefficients and the domain.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([0.0, 1.0, 1.0]).linspace(3)[1]
        array([0., 0., 2.])
        """
        domain = self.domain if domain is None else asarray(domain)
        x = _linspace(domain[0], domain[1], n)
        return x, self(x)

    def convert(self, domain: ArrayLike | None = None, kind: Any = None,
                window: ArrayLike | None = None) -> Any:
        """This series as a series of class ``kind`` (this class by default) on
        ``domain`` and ``window`` (``kind``'s defaults): the same function of ``x``.

        The new coefficients are a linear map of these (built from NumPy's own
        conversion of each unit vector), so they are differentiable in the coefficients;
        the domains and windows must not carry a derivative.

        >>> from funcgrad.numpy.polynomial import Chebyshev, Polynomial
        >>> Chebyshev([1.0, 2.0, 3.0]).convert(kind=Polynomial).coef
        array([-2.,  2.,  6.])
        """
        kind = type(self) if kind is None else _funcgrad_class(SeriesMethods, kind)
        domain = kind.domain if domain is None else asarray(domain)
        window = kind.window if window is None else asarray(window)
        _refuse_moving_interval(f"{type(self).__name__}.convert", self.domain, self.window,
                                domain, window)
        what = f"{type(self).__name__}.convert"
        domain_values, window_values = _values(domain, what), _values(window, what)
        own_domain, own_window = _values(self.domain, what), _values(self.window, what)

        def numpys(coef):
            return self._numpy_class(coef, own_domain, own_window, self._symbol).convert(
                domain_values, kind._numpy_class, window_values)

        values = _values(self.coef, what)
        converted = numpys(values)
        if not isinstance(self.coef, Tracer):
            return kind(converted.coef, converted.domain, converted.window, self._symbol)
        n = values.shape[0]
        columns = [numpys(_np.eye(n)[j]).coef for j in range(n)]
        rows = max(len(c) for c in columns)
        matrix = _np.zeros((rows, n), _np.result_type(*columns))
        for j, column in enumerate(columns):
            matrix[:len(column), j] = column
        coef = matmul(matrix, self.coef)
        kept = len(converted.coef)
        if kept < rows:
            if _np.any(matrix[kept:] != 0):
                refuse_trimming(self.coef, what + " (NumPy drops trailing zero coefficients)",
                                "Convert with a coefficient array whose last entry is not "
                                "zero.")
            coef = coef[:kept]
        return kind(coef, converted.domain, converted.window, self._symbol)

    @classmethod
    def cast(cls, series: Any, domain: ArrayLike | None = None,
             window: ArrayLike | None = None) -> Any:
        """``series`` (of any series class) as a series of this class on ``domain`` and
        ``window`` (this class's defaults), as :meth:`convert`.

        >>> from funcgrad.numpy.polynomial import Polynomial, Legendre
        >>> Legendre.cast(Polynomial([0.0, 0.0, 3.0])).coef
        array([1., 0., 2.])
        """
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        return series.convert(domain, cls, window)

    # --- construction ----------------------------------------------------------------------------

    @classmethod
    def basis(cls, deg: int, domain: ArrayLike | None = None,
              window: ArrayLike | None = None, symbol: str = "x") -> Any:
        """The basis function of degree ``deg`` (coefficients ``[0, ..., 0, 1]``).

        >>> from funcgrad.numpy.polynomial import Hermite
        >>> Hermite.basis(2).coef
        array([0., 0., 1.])
        """
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def identity(cls, domain: ArrayLike | None = None, window: ArrayLike | None = None,
                 symbol: str = "x") -> Any:
        """The series equal to ``x`` on ``domain`` (its coefficients: the line that maps
        the window onto the domain, in this basis), differentiable in the domain and
        window.

        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial.identity([0.0, 2.0]).coef
        array([1., 1.])
        """
        domain = cls.domain if domain is None else asarray(domain)
        window = cls.window if window is None else asarray(window)
        if not _traced(domain, window):
            made = cls._numpy_class.identity(domain, window, symbol)
            return cls(made.coef, made.domain, made.window, symbol)
        off, scl = _map_parameters(window, domain)
        if _values(scl, f"{cls.__name__}.identity (one coefficient or two, by the scale's "
                        f"value)") == 0:
            return cls(stack([off]), domain, window, symbol)
        return cls(_in_basis(cls._numpy_class, stack([off, scl])), domain, window, symbol)

    @classmethod
    def fromroots(cls, roots: ArrayLike, domain: Any = [],  # noqa: B006 - NumPy's default
                  window: ArrayLike | None = None, symbol: str = "x") -> Any:
        """The series whose roots are ``roots`` (leading coefficient one in the power
        basis, on the window variable), differentiable in the roots (and the domain and
        window); ``domain=None`` takes the roots' extent, ``[]`` the class's default.

        >>> import numpy as np, funcgrad as fg
        >>> from funcgrad.numpy.polynomial import Chebyshev
        >>> Chebyshev.fromroots([-0.5, 0.5]).coef
        array([0.25, 0.  , 0.5 ])
        >>> fg.grad(lambda r: Chebyshev.fromroots(r).coef[0])(np.array([-0.5, 0.5]))
        array([ 0.5, -0.5])
        """
        roots, = ps._common(f"{cls.__name__}.fromroots", roots, trim=False)
        if domain is None:
            domain = _get_domain(roots)
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        else:
            domain = asarray(domain)
        window = cls.window if window is None else asarray(window)
        if not _traced(roots, domain, window):
            made = cls._numpy_class.fromroots(roots, domain, window, symbol)
            return cls(made.coef, made.domain, made.window, symbol)
        off, scl = _map_parameters(domain, window)
        power_coef = ps.polyfromroots(add(off, multiply(scl, roots)))
        coef = _in_basis(cls._numpy_class, asarray(power_coef))
        return cls(divide(coef, power(scl, roots.shape[0])), domain, window, symbol)

    # --- roots -----------------------------------------------------------------------------------

    def roots(self) -> Array:
        """The roots, NumPy's values (the companion matrix's eigenvalues, sorted, mapped
        from the window onto the domain), complex where a root is.

        Differentiable in the coefficients, domain and window: a simple root ``t`` of the
        series in the window variable moves by ``-dp(t) / p'(t)``.  A multiple root (roots
        within 1e-3 relative of each other) has no derivative, and differentiating one
        raises ValueError.  How many roots there are depends on the values (NumPy drops
        trailing zero coefficients), so under vmap/jit roots raises ConcretizationError.

        >>> import numpy as np, funcgrad as fg
        >>> from funcgrad.numpy.polynomial import Polynomial
        >>> Polynomial([2.0, -3.0, 1.0]).roots()
        array([1., 2.])
        >>> fg.grad(lambda c: Polynomial(c).roots()[1])(np.array([2.0, -3.0, 1.0]))
        array([-1., -2., -4.])
        """
        t = _roots(self._numpy_class, self.coef)
        if not _traced(t, self.domain, self.window):
            return _np.polynomial.polyutils.mapdomain(t, self.window, self.domain)
        return _map_domain(t, self.window, self.domain)


def chebyshev_interpolate(cls: Any, func: Callable[..., Any], deg: int,
                          domain: ArrayLike | None = None, args: tuple = ()) -> Any:
    """``Chebyshev.interpolate(func, deg, domain=None, args=())``: the Chebyshev series of
    degree ``deg`` that interpolates ``func(x, *args)`` at the Chebyshev points of the first
    kind mapped onto ``domain``, as NumPy's ``chebinterpolate``; differentiable in the
    function's values (a traced ``args`` entry, or a traced domain).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.numpy.polynomial import Chebyshev
    >>> Chebyshev.interpolate(lambda x: x ** 2, 2).coef.round(12) + 0.0
    array([0.5, 0. , 0.5])
    >>> f = lambda a: Chebyshev.interpolate(lambda x, a: np.sin(a * x), 12, args=(a,))(0.5)
    >>> bool(abs(fg.grad(f)(2.0) - 0.5 * np.cos(1.0)) < 1e-8)
    True
    """
    degree = _np.asarray(deg)
    if degree.ndim > 0 or degree.dtype.kind not in "iu" or degree.size == 0:
        raise TypeError("deg must be an int")
    if degree < 0:
        raise ValueError("expected deg >= 0")
    domain = cls.domain if domain is None else asarray(domain)
    order = int(degree) + 1
    chebyshev = _np.polynomial.chebyshev
    points = chebyshev.chebpts1(order)
    values = asarray(func(_map_domain(points, cls.window, domain), *args))
    matrix = chebyshev.chebvander(points, int(degree))
    c = matmul(matrix.T.astype(_np.result_type(matrix, values.dtype)), values)
    c = concatenate([divide(c[:1], order), divide(c[1:], 0.5 * order)])
    return cls(c, domain=domain)


def set_default_printstyle(style: str) -> None:
    """``numpy.polynomial.set_default_printstyle(style)``: print series with ``'unicode'``
    or ``'ascii'`` characters (funcgrad's series print as NumPy's do, so this sets
    NumPy's style).

    >>> from funcgrad.numpy import polynomial
    >>> polynomial.set_default_printstyle("ascii")
    >>> print(polynomial.Polynomial([1.0, 2.0]))
    1.0 + 2.0 x
    >>> polynomial.set_default_printstyle("unicode")
    """
    _np.polynomial.set_default_printstyle(style)
