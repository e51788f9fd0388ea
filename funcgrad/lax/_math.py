"""``jax.lax``'s elementwise mathematical functions: exponentials and logarithms, roots,
trigonometric and hyperbolic functions, the error and gamma functions (and the
incomplete gamma and beta, zeta, polygamma and scaled Bessel functions), ``atan2``,
``nextafter`` and ``is_finite``.

Each is the ``funcgrad.numpy`` function (or the primitive behind
``funcgrad.scipy.special``'s) of the same meaning, after JAX's dtype check: lax takes no
integer operand here (cast first).  The ``accuracy`` keyword JAX accepts on some of them
is accepted and ignored (NumPy's accuracy is what funcgrad computes); its types
:class:`AccuracyMode` and :class:`Tolerance` are here.  ``reduce_precision`` rounds to a
narrower floating-point format.
"""
import dataclasses
import enum
import functools
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..primitives import elementwise as _ew
from ..primitives import incomplete as _inc, special as _sp
from ._arith import binary
from ._common import FLOAT, INEXACT, accept, array
from ..typing import Array, ArrayLike

__all__ = ["exp", "exp2", "expm1", "log", "log1p", "sqrt", "rsqrt", "cbrt", "sin", "cos",
           "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
           "logistic", "erf", "erfc", "erf_inv", "lgamma", "digamma", "is_finite", "atan2",
           "nextafter", "bessel_i0e", "bessel_i1e", "igamma", "igammac", "zeta", "polygamma",
           "betainc", "reduce_precision", "AccuracyMode", "Tolerance"]


class AccuracyMode(enum.Enum):
    """JAX's accuracy request for a transcendental function (``lax.exp(x,
    accuracy=...)``): accepted and ignored, as funcgrad computes NumPy's values.

    >>> from funcgrad import lax
    >>> float(lax.exp(0.0, accuracy=lax.AccuracyMode.HIGHEST))
    1.0
    """
    HIGHEST = 1
    DEFAULT = 2


@dataclasses.dataclass(frozen=True)
class Tolerance:
    """JAX's accuracy tolerance for a transcendental function (absolute, relative, and
    units in the last place; at least one set): accepted and ignored, as
    :class:`AccuracyMode`.

    >>> from funcgrad import lax
    >>> lax.Tolerance(rtol=1e-6)
    Tolerance(atol=0.0, rtol=1e-06, ulps=0)
    """
    atol: float = 0.0
    rtol: float = 0.0
    ulps: int = 0

    def __post_init__(self) -> None:
        if self.atol < 0.0 or self.rtol < 0.0 or self.ulps < 0:
            raise ValueError("Tolerances must be non-negative.")
        if self.atol == 0.0 and self.rtol == 0.0 and self.ulps == 0:
            raise ValueError("At least one of atol, rtol, or ulps must be set.")


def _unary(name, compute, kinds, reference, example="np.array([0.25, 0.5])"):
    """The lax function ``name``: ``compute`` after the dtype check; ``reference`` is the
    NumPy or SciPy expression its docstring's example compares with."""
    def op(x: ArrayLike, *, accuracy: Any = None) -> Array:
        return compute(accept(name, array(x), kinds))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"""Elementwise ``{reference}`` ({kinds[1]} operands), differentiable.

    >>> import numpy as np, scipy.special
    >>> from funcgrad import lax
    >>> x = {example}
    >>> bool(np.allclose(lax.{name}(x), {reference}(x)))
    True
    """
    return op


def _rsqrt(x):
    return fnp.reciprocal(fnp.sqrt(x))


exp = _unary("exp", fnp.exp, INEXACT, "np.exp")
exp2 = _unary("exp2", fnp.exp2, INEXACT, "np.exp2")
expm1 = _unary("expm1", fnp.expm1, INEXACT, "np.expm1")
log = _unary("log", fnp.log, INEXACT, "np.log")
log1p = _unary("log1p", fnp.log1p, INEXACT, "np.log1p")
sqrt = _unary("sqrt", fnp.sqrt, INEXACT, "np.sqrt")
rsqrt = _unary("rsqrt", _rsqrt, INEXACT, "1 / np.sqrt")
cbrt = _unary("cbrt", fnp.cbrt, FLOAT, "np.cbrt")
sin = _unary("sin", fnp.sin, INEXACT, "np.sin")
cos = _unary("cos", fnp.cos, INEXACT, "np.cos")
tan = _unary("tan", fnp.tan, INEXACT, "np.tan")
asin = _unary("asin", fnp.arcsin, INEXACT, "np.arcsin")
acos = _unary("acos", fnp.arccos, INEXACT, "np.arccos")
atan = _unary("atan", fnp.arctan, INEXACT, "np.arctan")
sinh = _unary("sinh", fnp.sinh, INEXACT, "np.sinh")
cosh = _unary("cosh", fnp.cosh, INEXACT, "np.cosh")
tanh = _unary("tanh", fnp.tanh, INEXACT, "np.tanh")
asinh = _unary("asinh", fnp.arcsinh, INEXACT, "np.arcsinh")
acosh = _unary("acosh", fnp.arccosh, INEXACT, "np.arccosh", "np.array([1.25, 2.0])")
atanh = _unary("atanh", fnp.arctanh, INEXACT, "np.arctanh")
logistic = _unary("logistic", _ew.logistic, INEXACT, "scipy.special.expit")
erf = _unary("erf", _ew.erf, FLOAT, "scipy.special.erf")
erfc = _unary("erfc", _ew.erfc, FLOAT, "scipy.special.erfc")
erf_inv = _unary("erf_inv", _sp.erfinv, FLOAT, "scipy.special.erfinv")
lgamma = _unary("lgamma", _sp.gammaln, FLOAT, "scipy.special.gammaln")
digamma = _unary("digamma", _sp.digamma, FLOAT, "scipy.special.digamma")
bessel_i0e = _unary("bessel_i0e", _sp.i0e, FLOAT, "scipy.special.i0e")
bessel_i1e = _unary("bessel_i1e", _sp.i1e, FLOAT, "scipy.special.i1e")


def is_finite(x: ArrayLike) -> Array:
    """Whether each entry is neither infinite nor NaN (floating-point ``x``; boolean).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.is_finite(np.array([1.0, np.inf, np.nan]))
    array([ True, False, False])
    """
    return fnp.isfinite(accept("is_finite", array(x), FLOAT))


def atan2(x: ArrayLike, y: ArrayLike) -> Array:
    """The angle of the point ``(y, x)``: ``arctan(x / y)`` in the right quadrant (lax's
    argument names: ``x`` is the ordinate).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.atan2(np.array([1.0, 1.0]), np.array([1.0, -1.0]))
    array([0.78539816, 2.35619449])
    """
    return fnp.arctan2(*binary("atan2", x, y, FLOAT, "arctan2"))


def nextafter(x1: ArrayLike, x2: ArrayLike) -> Array:
    """The next float after ``x1`` towards ``x2``.  Its derivative is 1 in ``x1`` and 0 in
    ``x2`` everywhere (it moves ``x1`` by a step that is piecewise constant), also at
    ``x1 == 0`` and ``x1 == x2``, where the value's formula changes but not its slope.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> bool(lax.nextafter(np.float32(1.0), np.float32(2.0)) == 1 + np.finfo(np.float32).eps)
    True
    """
    return fnp.nextafter(*binary("nextafter", x1, x2, FLOAT, "nextafter"))


def igamma(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)`` (SciPy's ``gammainc``);
    differentiable in ``x``.

    >>> import numpy as np, scipy.special
    >>> from funcgrad import lax
    >>> bool(np.isclose(lax.igamma(2.0, 1.5), scipy.special.gammainc(2.0, 1.5)))
    True
    """
    return _inc.gammainc(*binary("igamma", a, x, FLOAT))


def igammac(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)`` (SciPy's
    ``gammaincc``); differentiable in ``x``.

    >>> import numpy as np, scipy.special
    >>> from funcgrad import lax
    >>> bool(np.isclose(lax.igammac(2.0, 1.5), scipy.special.gammaincc(2.0, 1.5)))
    True
    """
    return _inc.gammaincc(*binary("igammac", a, x, FLOAT))


def zeta(x: ArrayLike, q: ArrayLike) -> Array:
    """The Hurwitz zeta function ``sum((n + q) ** -x for n >= 0)``; differentiable in ``q``.

    >>> import numpy as np, scipy.special
    >>> from funcgrad import lax
    >>> bool(np.isclose(lax.zeta(3.0, 1.5), scipy.special.zeta(3.0, 1.5)))
    True
    """
    return _sp.zeta(*binary("zeta", x, q, FLOAT))


def polygamma(m: ArrayLike, x: ArrayLike) -> Array:
    """The ``m``-th derivative of the digamma function, for integer-valued ``m >= 0`` given
    in ``x``'s float dtype (NaN elsewhere); differentiable in ``x``:
    ``(-1) ** (m + 1) * m! * zeta(m + 1, x)`` for ``m >= 1``.

    >>> import numpy as np, scipy.special
    >>> from funcgrad import lax
    >>> bool(np.isclose(lax.polygamma(1.0, 2.5), scipy.special.polygamma(1, 2.5)))
    True
    """
    m, x = binary("polygamma", m, x, FLOAT)
    valid = fnp.logical_and(m >= 0, fnp.equal(m, fnp.floor(m)))
    order = fnp.where(fnp.logical_and(valid, m > 0), m, fnp.ones_like(m))  # zeta(1) is a pole
    sign = fnp.where(fnp.equal(fnp.mod(order, 2), 0), -1.0, 1.0).astype(x.dtype)
    higher = sign * _sp.gamma(order + 1) * _sp.zeta(order + 1, x)
    out = fnp.where(m == 0, _sp.digamma(x), higher)
    return fnp.where(valid, out, fnp.full_like(out, np.nan))


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The regularized incomplete beta function ``I_x(a, b)`` (SciPy's ``betainc``);
    differentiable in ``x``.

    >>> import numpy as np, scipy.special
    >>> from funcgrad import lax
    >>> bool(np.isclose(lax.betainc(2.0, 3.0, 0.4), scipy.special.betainc(2.0, 3.0, 0.4)))
    True
    """
    a, b = binary("betainc", a, b, FLOAT)
    a, x = binary("betainc", a, x, FLOAT)
    return _inc.betainc(a, b, x)


def _round_to_format(x, exponent_bits, mantissa_bits):
    """``x`` rounded (to nearest, ties to even) to a format with these bits, as XLA's
    ``ReducePrecision``: too large becomes an infinity, below its smallest normal number
    a zero of ``x``'s sign, NaN stays NaN.  Written with exact arithmetic (``frexp``,
    ``ldexp``, ``rint``), so it runs under every transform; a narrower ``x`` is rounded
    in float64, which holds it and its rounded value exactly."""
    info = np.finfo(x.dtype)
    source_mantissa, source_exponent = info.nmant, info.nexp
    wide = x if x.dtype == np.float64 else fnp.astype(x, np.float64)
    out = wide
    if mantissa_bits < source_mantissa:
        _, exponent = fnp.frexp(wide)
        # the spacing of the narrower format's numbers near x (that of the source's
        # subnormals below its smallest normal), as a power of two
        scale = fnp.maximum(exponent - 1, info.minexp) - mantissa_bits
        rounded = fnp.ldexp(fnp.rint(fnp.ldexp(wide, -scale)), scale)
        # (copysign: a zero keeps x's sign, whatever rint does with -0.4)
        out = fnp.where(fnp.isfinite(wide), fnp.copysign(rounded, wide), wide)
    if exponent_bits < source_exponent:
        bias = 2 ** (exponent_bits - 1) - 1
        magnitude = fnp.abs(out)
        big = fnp.greater_equal(magnitude, 2.0 ** (bias + 1)) & ~fnp.isnan(out)
        small = fnp.less(magnitude, 2.0 ** (1 - bias))
        out = fnp.where(big, fnp.copysign(np.inf, wide),
                        fnp.where(small, fnp.copysign(0.0, wide), out))
    return out if out.dtype == x.dtype else fnp.astype(out, x.dtype)


@functools.partial(custom_jvp, nondiff_argnums=(1, 2))
def _reduce_precision(x, exponent_bits, mantissa_bits):
    return _round_to_format(x, exponent_bits, mantissa_bits)


@_reduce_precision.defjvp
def _reduce_precision_jvp(exponent_bits, mantissa_bits, primals, tangents):
    # The derivative passes through unchanged (a straight-through estimator), as JAX's
    # does up to rounding: JAX declares the operation linear and rounds the tangent too;
    # a rounded tangent would not be linear in it, which reverse mode needs here.
    (x,), (tx,) = primals, tangents
    return _reduce_precision(x, exponent_bits, mantissa_bits), tx


def reduce_precision(operand: float | ArrayLike, exponent_bits: int,
                     mantissa_bits: int) -> Array:
    """``operand`` rounded to the floating-point format with ``exponent_bits`` and
    ``mantissa_bits`` (ties to even; too large to an infinity; below the format's
    smallest normal number to zero), kept in its own dtype: e.g. (8, 7) is bfloat16,
    (5, 10) float16.  Its derivative is 1 (the tangent passes through; JAX's also rounds
    the tangent to the format, which changes only a tangent the format cannot hold).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.reduce_precision(np.array([1.1, 70000.0, 1e-9]), 5, 10)  # float16's format
    array([1.09960938,        inf, 0.        ])
    """
    from ._common import static_int
    x = accept("reduce_precision", array(operand), FLOAT)
    exponent_bits = static_int(exponent_bits, "reduce_precision: exponent_bits")
    mantissa_bits = static_int(mantissa_bits, "reduce_precision: mantissa_bits")
    if exponent_bits < 1 or mantissa_bits < 0:
        raise ValueError(f"reduce_precision: exponent_bits must be >= 1 and mantissa_bits "
                         f">= 0, got {exponent_bits} and {mantissa_bits}")
    info = np.finfo(x.dtype)
    if exponent_bits >= info.nexp and mantissa_bits >= info.nmant:
        return x
    return _reduce_precision(x, exponent_bits, mantissa_bits)
