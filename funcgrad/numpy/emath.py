"""``np.emath`` (``numpy.lib.scimath``): square roots, logarithms, powers and inverse
sines whose result turns complex where the real one would be NaN.

Whether the result is real or complex depends on the *values* (``np.emath.sqrt`` of a
real array is complex when any entry is negative), as NumPy decides: from the concrete
values, so it works under ``grad``, ``jvp`` and ``vjp``.  Under ``vmap`` and ``jit`` the
values are a batch or not known yet, so a real input raises ConcretizationError naming
the rewrite (``np.sqrt(x + 0j)`` for a complex result, ``np.sqrt(x)`` for a real one);
a complex input needs no values (its result is always complex) and works everywhere.
"""
import numpy as _np

from ._convert import asarray, concrete_values
from .constructors import astype
from . import ufuncs
from ..typing import Array, ArrayLike

__all__ = ["sqrt", "log", "log2", "log10", "logn", "power", "arccos", "arcsin", "arctanh"]

# NumPy's rule for the complex type a real input becomes: the small types go to complex64
_TO_COMPLEX64 = frozenset(_np.dtype(t) for t in ("float32", "int8", "int16", "uint8",
                                                  "uint16", "complex64"))


def _complex_dtype(dtype):
    return _np.complex64 if dtype in _TO_COMPLEX64 else _np.complex128


def _by_values(x, name, condition, outside, rewrite):
    """``x``, made complex when any real entry is ``outside`` (NumPy's ``_fix_real_*``)."""
    x = asarray(x)
    if x.dtype.kind == "c":
        return x
    values = concrete_values(
        x, f"np.emath.{name} (its result is complex when any entry is {condition}, real "
           f"otherwise)",
        f"Say which you want: {rewrite} for the complex result, or the same call of np "
        f"instead of np.emath for the real one (NaN where x is {condition}).")
    return astype(x, _complex_dtype(x.dtype)) if _np.any(outside(values)) else x


def _negative(values):
    return values < 0


def _beyond_one(values):
    return abs(values) > 1


def _below_zero(x, name):
    return _by_values(x, name, "negative", _negative, f"np.{name}(x + 0j)")


def sqrt(x: ArrayLike) -> Array:
    """``np.emath.sqrt(x)``: the square root, complex where a real ``x`` is negative.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.emath.sqrt(np.array([-4.0, 4.0]))
    array([0.+2.j, 2.+0.j])
    >>> fg.grad(lambda x: fnp.emath.sqrt(x).imag)(-4.0)
    np.float64(-0.25)
    """
    return ufuncs.sqrt(_below_zero(x, "sqrt"))


def log(x: ArrayLike) -> Array:
    """``np.emath.log(x)``: the natural logarithm, complex where a real ``x`` is negative.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.emath.log(np.array([-1.0, 1.0]))
    array([0.+3.14159265j, 0.+0.j        ])
    """
    return ufuncs.log(_below_zero(x, "log"))


def log2(x: ArrayLike) -> Array:
    """``np.emath.log2(x)``: the base-2 logarithm, complex where a real ``x`` is negative.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.emath.log2(np.array([4.0, 8.0]))
    array([2., 3.])
    """
    return ufuncs.log2(_below_zero(x, "log2"))


def log10(x: ArrayLike) -> Array:
    """``np.emath.log10(x)``: the base-10 logarithm, complex where a real ``x`` is
    negative.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.emath.log10(np.array([-100.0]))
    array([2.+1.36437635j])
    """
    return ufuncs.log10(_below_zero(x, "log10"))


def logn(n: ArrayLike, x: ArrayLike) -> Array:
    """``np.emath.logn(n, x)``: the base-``n`` logarithm ``log(x) / log(n)``, complex where
    a real ``x`` or ``n`` is negative.

    >>> import funcgrad.numpy as fnp
    >>> float(fnp.emath.logn(2.0, 8.0))
    3.0
    """
    x = _by_values(x, "logn", "negative", _negative, "np.log(x + 0j) / np.log(n + 0j)")
    n = _by_values(n, "logn", "negative", _negative, "np.log(x + 0j) / np.log(n + 0j)")
    return ufuncs.divide(ufuncs.log(x), ufuncs.log(n))


def power(x: ArrayLike, p: ArrayLike) -> Array:
    """``np.emath.power(x, p)``: ``x ** p``, complex where a real ``x`` is negative (and a
    negative integer power computes in floating point).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.emath.power(np.array([-4.0]), 0.5)
    array([1.2246468e-16+2.j])
    """
    x = _by_values(x, "power", "negative", _negative, "np.power(x + 0j, p)")
    p = asarray(p)
    if p.dtype.kind in "iu" and _np.any(concrete_values(
            p, "np.emath.power with integer powers (negative ones compute in floating point)",
            "Pass the powers as floating-point numbers (p.astype(float)).") < 0):
        p = ufuncs.multiply(p, 1.0)
    return ufuncs.power(x, p)


def arccos(x: ArrayLike) -> Array:
    """``np.emath.arccos(x)``: the inverse cosine, complex where a real ``|x| > 1``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.emath.arccos(np.array([1.0, 2.0]))
    array([0.-0.j        , 0.-1.3169579j])
    """
    return ufuncs.arccos(_by_values(x, "arccos", "beyond [-1, 1]", _beyond_one,
                                    "np.arccos(x + 0j)"))


def arcsin(x: ArrayLike) -> Array:
    """``np.emath.arcsin(x)``: the inverse sine, complex where a real ``|x| > 1``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.emath.arcsin(np.array([0.0]))
    array([0.])
    """
    return ufuncs.arcsin(_by_values(x, "arcsin", "beyond [-1, 1]", _beyond_one,
                                    "np.arcsin(x + 0j)"))


def arctanh(x: ArrayLike) -> Array:
    """``np.emath.arctanh(x)``: the inverse hyperbolic tangent, complex where a real
    ``|x| > 1``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.emath.arctanh(np.array([0.5]))
    array([0.54930614])
    """
    return ufuncs.arctanh(_by_values(x, "arctanh", "beyond [-1, 1]", _beyond_one,
                                     "np.arctanh(x + 0j)"))
