"""The classical orthogonal polynomials of :mod:`funcgrad.scipy.special` (re-exported there):
``eval_legendre``, ``eval_chebyt``/``u``/``c``/``s``, ``eval_jacobi``, ``eval_gegenbauer``,
``eval_genlaguerre``, ``eval_laguerre``, ``eval_hermite``, ``eval_hermitenorm`` and the
shifted ``eval_sh_*``, with SciPy's signatures, values and dtypes.

An integer degree ``n`` runs the three-term recurrence in the degree, written with
:mod:`funcgrad.numpy` operations: every transform (and a GPU array) works, and the
derivatives in ``x`` and in the real parameters (``alpha``, ``beta``, ``p``, ``q``) are
those of the polynomial itself, of any order.  A degree that is not an integer takes
SciPy's hypergeometric form (``hyp2f1``, or ``hyp1f1`` for Laguerre), as SciPy does;
its derivative in ``x`` is ``hyp2f1``'s in ``z`` (the parameters' raise
``NotImplementedError``: ``hyp2f1`` has none in ``a``, ``b``, ``c``).  The recurrence takes
a few array operations per degree (``hyp2f1`` loses all accuracy at degrees in the
thousands, so it is no way out): a degree above ``_MAX_DEGREE`` raises ``ValueError``.

The degree selects the polynomial and has no derivative: it is a plain number or array (a
traced ``n`` raises).  Negative degrees follow SciPy: ``P_{-n-1}`` for Legendre,
``T_{|n|}``, ``-U_{-n-2}`` (0 at ``n = -1``), 0 for Gegenbauer and Laguerre, SciPy's
hypergeometric form for Jacobi (0 on [-1, 1]), NaN for Hermite.  An integer ``n`` (a
Python ``int`` too) gives float64 (SciPy's ``long`` loop); a float ``n`` keeps float32
where the other arguments are float32.  Values are computed in float64 and rounded, as
SciPy's float32 loops.
"""
import math
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..core import Tracer as _Tracer
from ..numpy._convert import operand as _operand
from ..numpy.constructors import _on_device_of
from ..typing import Array, ArrayLike
from ._special_cdtr import binom
from ._special_gamma import rgamma
from ._special_more import hyp1f1, hyp2f1

__all__ = ["eval_legendre", "eval_chebyt", "eval_chebyu", "eval_chebyc", "eval_chebys",
           "eval_jacobi", "eval_gegenbauer", "eval_genlaguerre", "eval_laguerre",
           "eval_hermite", "eval_hermitenorm", "eval_sh_legendre", "eval_sh_chebyt",
           "eval_sh_chebyu", "eval_sh_jacobi", "lpmv"]

# (the recurrence costs a few array operations per degree: seconds at this degree)
_MAX_DEGREE = 10 ** 5


class _Degree:
    """A concrete degree array: ``integer`` (the recurrence's entries: integral and
    finite) and whether ``n`` had an integer dtype."""

    def __init__(self, name: str, n: Any, integers_only: bool = False):
        if isinstance(n, _Tracer):
            raise NotImplementedError(
                f"{name}: the degree n selects the polynomial and has no derivative, and "
                f"its value decides the recurrence's length; pass n as a plain int or NumPy "
                f"array (not a traced value: fg.stop_gradient does not make it concrete "
                f"under vmap or jit; use static_argnums there)")
        self.int_dtype = isinstance(n, (int, np.integer)) or (
            isinstance(n, np.ndarray) and n.dtype.kind in "iub")
        values = np.asarray(n)
        if values.dtype.kind not in "iubf":
            raise TypeError(f"{name}: the degree n must be real, got dtype {values.dtype}")
        if integers_only and not self.int_dtype:
            raise TypeError(f"{name}: the degree n must have an integer type, as in SciPy "
                            f"(whose {name} has no floating-point loop); got "
                            f"{values.dtype}: pass n.astype(int)")
        self.values = values.astype(np.float64)
        with np.errstate(invalid="ignore"):
            self.integer = np.isfinite(self.values) & (self.values == np.floor(self.values))
        if np.any(np.abs(self.values[self.integer]) > _MAX_DEGREE):
            raise ValueError(f"{name}: degree above {_MAX_DEGREE}: funcgrad's recurrence "
                             f"takes a few array operations per degree; evaluate such "
                             f"degrees with scipy.special.{name} on values")
        self.scalar = self.values.ndim == 0


def _dtype_of(v: Any) -> Any:
    return v.dtype if hasattr(v, "dtype") else v  # (Python numbers stay weak)


def _out_dtype(degree: _Degree, n: Any, *args: Any) -> np.dtype:
    """SciPy's loop's: float64 for an integer degree (its ``long`` loop), else the joined
    type (float32 kept, Python numbers weak), complex where ``x`` is."""
    kinds = [_dtype_of(a) for a in args]
    if degree.int_dtype:
        kinds.append(np.float64)
    elif not isinstance(n, float):
        kinds.append(degree.values.dtype if not hasattr(n, "dtype") else n.dtype)
    else:
        kinds.append(n)
    dtype = np.dtype(np.result_type(*kinds))
    return dtype if dtype.kind in "fc" and dtype != np.float16 else np.dtype(np.float64)


def _recurrence(n: np.ndarray, first: Callable, step: Callable, x: Any) -> Any:
    """``p_n(x)`` for the integer degrees ``n >= 0`` (an array): ``p_0 = 1``,
    ``p_1 = first(x)``, ``p_{k+1} = step(k, p_{k-1}, p_k)``; entries of ``n`` at other
    degrees (those the caller replaces) read ``p_0``."""
    top = int(n.max()) if n.size else 0
    previous = fnp.ones_like(x)
    if top == 0:
        return previous
    current = first(x)
    scalar = n.ndim == 0
    out = current if scalar else _where(n == 1, current, previous)
    for k in range(1, top):
        previous, current = current, step(k, previous, current)
        if not scalar:
            out = _where(n == k + 1, current, out)
    return current if scalar else out


def _evaluate(name: str, n: Any, x: Any, params: tuple, recurrence: Callable,
              formula: Callable | None, integers_only: bool = False) -> Array:
    """The driver shared by the families: ``recurrence(m, x, *params)`` at integer degrees
    (``m`` an integer array, the caller's symmetries applied by it), ``formula(n, x,
    *params)`` at the others."""
    degree = _Degree(name, n, integers_only)
    x = _operand(x)
    params = tuple(_operand(p) for p in params)
    for p in params:
        if np.dtype(p.dtype if hasattr(p, "dtype") else type(p)).kind == "c":
            raise TypeError(f"{name}: the parameters are real (as in SciPy); got {p!r}")
    dtype = _out_dtype(degree, n, x, *params)
    shape = np.broadcast_shapes(degree.values.shape, np.shape(x), *map(np.shape, params))
    x = fnp.astype(x, np.complex128 if dtype.kind == "c" else np.float64)
    params = tuple(fnp.astype(p, np.float64) for p in params)
    integer = degree.integer
    value: Any = None
    if integer.any():
        m = np.where(integer, degree.values, 0.0).astype(np.int64)
        value = recurrence(m, x, *params)
    if not integer.all():
        assert formula is not None  # (Hermite's degrees are integers: checked above)
        general = formula(np.where(integer, 0.5, degree.values), x, *params)
        value = general if value is None else _where(integer, value, general)
    return fnp.astype(fnp.broadcast_to(value, shape), dtype)


def _where(mask: np.ndarray, a: Any, b: Any) -> Any:
    """``fnp.where`` of a mask made from the degrees (a NumPy array), moved to the device
    of the values (a GPU array's)."""
    return fnp.where(_on_device_of(b if isinstance(a, (int, float)) else a, mask), a, b)


def _half(x: Any) -> Any:
    return (1.0 - x) * 0.5


# --- the recurrences ---------------------------------------------------------------------

def _legendre_rec(m, x):
    m = np.where(m < 0, -m - 1, m)
    return _recurrence(m, lambda x: x, lambda k, p0, p1: ((2 * k + 1) * x * p1 - k * p0)
                       / (k + 1), x)


def _chebyt_rec(m, x):
    return _recurrence(np.abs(m), lambda x: x, lambda k, p0, p1: 2.0 * x * p1 - p0, x)


def _chebyu_rec(m, x):
    mirrored = m < -1
    u = _recurrence(np.where(mirrored, -m - 2, np.maximum(m, 0)), lambda x: 2.0 * x,
                    lambda k, p0, p1: 2.0 * x * p1 - p0, x)
    if (m < 0).any():
        u = _where(m == -1, 0.0, _where(mirrored, -u, u))
    return u


def _zero_below(m, value):
    """0 at the negative degrees (SciPy's Jacobi, Gegenbauer, Laguerre)."""
    return _where(m < 0, 0.0, value) if (m < 0).any() else value


def _jacobi_rec(m, x, alpha, beta):
    ab = alpha + beta

    def step(k, p0, p1):
        s = 2 * k + ab
        return (((s + 1.0) * (alpha * alpha - beta * beta) + s * (s + 1.0) * (s + 2.0) * x)
                * p1 - 2.0 * (k + alpha) * (k + beta) * (s + 2.0) * p0) / (
                    2.0 * (k + 1) * (k + ab + 1.0) * s)
    value = _recurrence(np.maximum(m, 0), lambda x: (alpha + 1.0) + (ab + 2.0) * (
        x - 1.0) * 0.5, step, x)
    if (m < 0).any():  # (SciPy's form there: 0 for |x| <= 1, NaN beyond, as SciPy's)
        with np.errstate(invalid="ignore"):
            below = _jacobi_form(np.minimum(m, -1.0), x, alpha, beta)
        value = _where(m < 0, below, value)
    return value


def _nan_in(x, alpha, value):
    """NaN where ``x`` or ``alpha`` is (SciPy's, even at degree 0)."""
    return fnp.where(fnp.logical_or(fnp.isnan(x), fnp.isnan(alpha)), math.nan, value)


def _gegenbauer_rec(m, x, alpha):
    return _nan_in(x, alpha, _zero_below(m, _recurrence(
        np.maximum(m, 0), lambda x: 2.0 * alpha * x,
        lambda k, p0, p1: (2.0 * (k + alpha) * x * p1 - (k + 2.0 * alpha - 1.0) * p0)
        / (k + 1), x)))


def _genlaguerre_rec(m, x, alpha):
    value = _zero_below(m, _recurrence(
        np.maximum(m, 0), lambda x: 1.0 + alpha - x,
        lambda k, p0, p1: ((2 * k + 1 + alpha - x) * p1 - (k + alpha) * p0) / (k + 1), x))
    return _nan_in(x, alpha, fnp.where(alpha <= -1.0, math.nan, value))  # (alpha > -1)


def _hermitenorm_rec(m, x):
    value = _recurrence(np.maximum(m, 0), lambda x: x,
                        lambda k, p0, p1: x * p1 - k * p0, x)
    return _where(m < 0, math.nan, value) if (m < 0).any() else value


def _hermite_rec(m, x):
    value = _recurrence(np.maximum(m, 0), lambda x: 2.0 * x,
                        lambda k, p0, p1: 2.0 * (x * p1 - k * p0), x)
    return _where(m < 0, math.nan, value) if (m < 0).any() else value


# --- SciPy's forms for the other degrees -------------------------------------------------

def _legendre_form(n, x):
    return hyp2f1(-n, n + 1.0, 1.0, _half(x))


def _chebyt_form(n, x):
    return hyp2f1(-n, n, 0.5, _half(x))


def _chebyu_form(n, x):
    return (n + 1.0) * hyp2f1(-n, n + 2.0, 1.5, _half(x))


def _jacobi_form(n, x, alpha, beta):
    return binom(n + alpha, n) * hyp2f1(-n, n + alpha + beta + 1.0, alpha + 1.0, _half(x))


def _gegenbauer_form(n, x, alpha):
    # (Gamma(n + 2 alpha) / (Gamma(n + 1) Gamma(2 alpha)) is binom(n + 2 alpha - 1, n))
    return binom(n + 2.0 * alpha - 1.0, n) * hyp2f1(-n, n + 2.0 * alpha, alpha + 0.5,
                                                     _half(x))


def _genlaguerre_form(n, x, alpha):
    value = binom(n + alpha, n) * hyp1f1(-n, alpha + 1.0, x)
    return fnp.where(alpha <= -1.0, math.nan, value)


# --- the public functions ----------------------------------------------------------------

def eval_legendre(n: ArrayLike, x: ArrayLike) -> Array:
    """The Legendre polynomial ``P_n(x)`` (``scipy.special.eval_legendre``):
    ``(k + 1) P_{k+1} = (2k + 1) x P_k - k P_{k-1}``; ``P_{-n-1} = P_n``.  A degree that
    is not an integer gives ``2F1(-n, n + 1; 1; (1 - x)/2)``.  Differentiable in ``x``.

    >>> import funcgrad as fg
    >>> float(eval_legendre(2, 0.5)), float(fg.grad(eval_legendre, 1)(2, 0.5))  # (3x^2-1)/2
    (-0.125, 1.5)
    """
    return _evaluate("eval_legendre", n, x, (), _legendre_rec, _legendre_form)


def eval_chebyt(n: ArrayLike, x: ArrayLike) -> Array:
    """The Chebyshev polynomial of the first kind ``T_n(x)`` (``cos(n arccos x)`` on
    [-1, 1]); ``T_{-n} = T_n``.  Not an integer ``n``: ``2F1(-n, n; 1/2; (1 - x)/2)``.

    >>> import funcgrad as fg
    >>> float(eval_chebyt(3, 0.5)), float(fg.grad(eval_chebyt, 1)(3, 0.5))  # 4x^3 - 3x
    (-1.0, 0.0)
    """
    return _evaluate("eval_chebyt", n, x, (), _chebyt_rec, _chebyt_form)


def eval_chebyu(n: ArrayLike, x: ArrayLike) -> Array:
    """The Chebyshev polynomial of the second kind ``U_n(x)``; ``U_{-1} = 0``,
    ``U_{-n} = -U_{n-2}``.  Not an integer ``n``: ``(n + 1) 2F1(-n, n + 2; 3/2;
    (1 - x)/2)``.

    >>> import funcgrad as fg
    >>> float(eval_chebyu(2, 0.5)), float(fg.grad(eval_chebyu, 1)(2, 0.5))  # 4x^2 - 1
    (0.0, 4.0)
    """
    return _evaluate("eval_chebyu", n, x, (), _chebyu_rec, _chebyu_form)


def eval_chebyc(n: ArrayLike, x: ArrayLike) -> Array:
    """The Chebyshev polynomial ``C_n(x) = 2 T_n(x/2)`` on [-2, 2].

    >>> float(eval_chebyc(2, 1.0))  # x^2 - 2
    -1.0
    """
    return 2.0 * eval_chebyt(n, _operand(x) * 0.5)


def eval_chebys(n: ArrayLike, x: ArrayLike) -> Array:
    """The Chebyshev polynomial ``S_n(x) = U_n(x/2)`` on [-2, 2].

    >>> float(eval_chebys(2, 1.0))  # x^2 - 1
    0.0
    """
    return eval_chebyu(n, _operand(x) * 0.5)


def eval_jacobi(n: ArrayLike, alpha: ArrayLike, beta: ArrayLike, x: ArrayLike) -> Array:
    """The Jacobi polynomial ``P_n^(alpha, beta)(x)`` (0 for a negative integer ``n``, as
    SciPy's).  Not an integer ``n``: ``binom(n + alpha, n) 2F1(-n, n + alpha + beta + 1;
    alpha + 1; (1 - x)/2)``.  Differentiable in ``x``, ``alpha`` and ``beta`` (the
    recurrence's coefficients are smooth in them).

    >>> import funcgrad as fg
    >>> float(eval_jacobi(1, 1.0, 1.0, 0.5)), float(fg.grad(eval_jacobi, 1)(1, 1.0, 1.0, 0.5))
    (1.0, 0.75)
    """
    return _evaluate("eval_jacobi", n, x, (alpha, beta), _jacobi_rec, _jacobi_form)


def eval_sh_jacobi(n: ArrayLike, p: ArrayLike, q: ArrayLike, x: ArrayLike) -> Array:
    """The shifted Jacobi polynomial ``G_n^(p, q)(x) = P_n^(p-q, q-1)(2x - 1) /
    binom(2n + p - 1, n)`` on [0, 1].

    >>> round(float(eval_sh_jacobi(2, 3.0, 2.0, 0.25)), 15)
    0.0125
    """
    p, q = _operand(p), _operand(q)
    value = eval_jacobi(n, p - q, q - 1.0, 2.0 * _operand(x) - 1.0)  # (checks n)
    degree = np.asarray(n, dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):  # (NaN at negative n, as SciPy's)
        return fnp.astype(value / binom(2.0 * degree + p - 1.0, degree), value.dtype)


def eval_gegenbauer(n: ArrayLike, alpha: ArrayLike, x: ArrayLike) -> Array:
    """The Gegenbauer (ultraspherical) polynomial ``C_n^(alpha)(x)`` (0 for a negative
    integer ``n``; 0 for ``alpha = 0``, ``n >= 1``, as SciPy's).  Not an integer ``n``:
    ``binom(n + 2 alpha - 1, n) 2F1(-n, n + 2 alpha; alpha + 1/2; (1 - x)/2)``.
    Differentiable in ``x`` and ``alpha``.

    >>> import funcgrad as fg
    >>> float(eval_gegenbauer(1, 1.5, 0.5)), float(fg.grad(eval_gegenbauer, 1)(1, 1.5, 0.5))
    (1.5, 1.0)
    """
    return _evaluate("eval_gegenbauer", n, x, (alpha,), _gegenbauer_rec, _gegenbauer_form)


def eval_genlaguerre(n: ArrayLike, alpha: ArrayLike, x: ArrayLike) -> Array:
    """The generalised Laguerre polynomial ``L_n^(alpha)(x)``, for ``alpha > -1`` (NaN
    otherwise, as SciPy's; 0 for a negative integer ``n``).  Not an integer ``n``:
    ``binom(n + alpha, n) 1F1(-n; alpha + 1; x)``.  Differentiable in ``x`` and
    ``alpha``.

    >>> import funcgrad as fg
    >>> float(eval_genlaguerre(1, 0.5, 1.0)), float(fg.grad(eval_genlaguerre, 2)(1, 0.5, 1.0))
    (0.5, -1.0)
    """
    return _evaluate("eval_genlaguerre", n, x, (alpha,), _genlaguerre_rec, _genlaguerre_form)


def eval_laguerre(n: ArrayLike, x: ArrayLike) -> Array:
    """The Laguerre polynomial ``L_n(x) = L_n^(0)(x)``.

    >>> float(eval_laguerre(2, 1.0))  # (x^2 - 4x + 2) / 2
    -0.5
    """
    return eval_genlaguerre(n, 0.0, x)


def eval_hermite(n: ArrayLike, x: ArrayLike) -> Array:
    """The physicists' Hermite polynomial ``H_n(x)``: ``H_{k+1} = 2x H_k - 2k H_{k-1}``.
    ``n`` is an integer (a float one raises ``TypeError``, as in SciPy; NaN for a negative
    one).

    >>> import funcgrad as fg
    >>> float(eval_hermite(2, 1.0)), float(fg.grad(eval_hermite, 1)(2, 1.0))  # 4x^2 - 2
    (2.0, 8.0)
    """
    return _evaluate("eval_hermite", n, x, (), _hermite_rec, None, integers_only=True)


def eval_hermitenorm(n: ArrayLike, x: ArrayLike) -> Array:
    """The probabilists' Hermite polynomial ``He_n(x)``: ``He_{k+1} = x He_k - k He_{k-1}``
    (integer ``n`` only, as :func:`eval_hermite`).

    >>> float(eval_hermitenorm(2, 3.0))  # x^2 - 1
    8.0
    """
    return _evaluate("eval_hermitenorm", n, x, (), _hermitenorm_rec, None,
                     integers_only=True)


def eval_sh_legendre(n: ArrayLike, x: ArrayLike) -> Array:
    """The shifted Legendre polynomial ``P_n(2x - 1)`` on [0, 1].

    >>> float(eval_sh_legendre(1, 0.25))
    -0.5
    """
    return eval_legendre(n, 2.0 * _operand(x) - 1.0)


def eval_sh_chebyt(n: ArrayLike, x: ArrayLike) -> Array:
    """The shifted Chebyshev polynomial ``T_n(2x - 1)`` on [0, 1].

    >>> float(eval_sh_chebyt(2, 0.5))
    -1.0
    """
    return eval_chebyt(n, 2.0 * _operand(x) - 1.0)


def eval_sh_chebyu(n: ArrayLike, x: ArrayLike) -> Array:
    """The shifted Chebyshev polynomial ``U_n(2x - 1)`` on [0, 1].

    >>> float(eval_sh_chebyu(2, 1.0))
    3.0
    """
    return eval_chebyu(n, 2.0 * _operand(x) - 1.0)


def _sin_power(x: Any, m: int) -> Any:
    """``(1 - x**2)**(m/2)``: an integer power times one square root for odd ``m`` (whose
    slope at ``|x| = 1`` is infinite, as the function's), none for even ``m``."""
    w = (1.0 - x) * (1.0 + x)
    return w ** (m // 2) * (fnp.sqrt(w) if m % 2 else 1.0)


def lpmv(m: ArrayLike, v: ArrayLike, x: ArrayLike) -> Array:
    """The associated Legendre function ``P_v^m(x)`` of integer order ``m`` on
    ``[-1, 1]``, with the Condon-Shortley phase ``(-1)**m`` (``scipy.special.lpmv``).
    An integer degree runs the recurrence in the degree from ``P_m^m = (-1)**m
    (2m-1)!! (1 - x**2)**(m/2)``; another ``(-1)**m Gamma(v+m+1) / (2**m m!
    Gamma(v-m+1)) (1 - x**2)**(m/2) 2F1(m - v, m + v + 1; m + 1; (1 - x)/2)``.
    A negative order is Ferrers' ``((1 - x)/(1 + x))**(m/2) 2F1(v + 1, -v; 1 + m;
    (1 - x)/2) / m!`` (``(-1)**m (v-m)!/(v+m)! P_v^m``, as SciPy's); ``P_{-v-1} = P_v``.
    NaN for ``|x| > 1`` (``m != 0``) or a non-integer ``m``, as SciPy's, and at ``x = -1``
    for a non-integer degree (SciPy: the infinite limit's sign); a negative order below
    the degree is Ferrers' finite value (SciPy: NaN).  ``m`` broadcasts with ``v`` and
    ``x`` as in SciPy's ufunc (a plain number or array: it selects the function and has
    no derivative); differentiable in ``x``.

    >>> import funcgrad as fg
    >>> round(float(lpmv(1, 2, 0.5)), 15), round(float(fg.grad(lpmv, 2)(0, 2, 0.5)), 15)
    (-1.299038105676658, 1.5)
    >>> [round(float(p), 12) for p in lpmv([0, 1, 2], 2, 0.5)]  # one value per order
    [-0.125, -1.299038105677, 2.25]
    """
    if isinstance(m, _Tracer):
        raise NotImplementedError(
            "lpmv: the order m is an integer that selects the function and has no "
            "derivative; pass m as a plain number or NumPy array (fg.stop_gradient does "
            "not make it concrete under vmap or jit: use static_argnums there)")
    orders = np.asarray(m)
    if orders.dtype.kind not in "iubf":
        raise TypeError(f"lpmv: the order m must be real, got dtype {orders.dtype}")
    degree = _Degree("lpmv", v)
    x = _operand(x)
    # (SciPy's loops are fff->f and ddd->d: integers join as any other number)
    dtype = np.dtype(np.result_type(*(_dtype_of(np.asarray(a) if isinstance(
        a, (list, tuple)) else a) for a in (m, v, x))))
    dtype = dtype if dtype in (np.float32, np.complex64, np.complex128) else np.dtype(
        np.float64)
    if dtype.kind == "c":
        raise TypeError("lpmv: complex x is not supported, as in scipy.special")
    x = fnp.astype(x, np.float64)
    shape = np.broadcast_shapes(orders.shape, degree.values.shape, np.shape(x))
    orders = orders.astype(np.float64)
    with np.errstate(invalid="ignore"):
        integral = np.isfinite(orders) & (orders == np.floor(orders))
    if np.any(np.abs(orders[integral]) > _MAX_DEGREE):
        raise ValueError(f"lpmv: order above {_MAX_DEGREE}: funcgrad's recurrence takes a "
                         f"few array operations per order; evaluate such orders with "
                         f"scipy.special.lpmv on values")
    if not integral.any():  # (a non-integer order: NaN, as SciPy's)
        return fnp.astype(fnp.broadcast_to(x * math.nan, shape), dtype)
    # (each order is its own recurrence: one pass per distinct order, kept where m has
    # it; the other entries' NaN is a constant, so that it reaches no one's cotangent)
    value: Any = math.nan
    for order in np.unique(orders[integral]):
        with np.errstate(over="ignore", invalid="ignore"):  # (past m ~ 150: inf, NaN)
            here = _lpmv_one_order(float(order), degree, x)
        value = here if integral.all() and orders.ndim == 0 else _where(
            orders == order, here, value)
    return fnp.astype(fnp.broadcast_to(value, shape), dtype)


def _lpmv_one_order(order: float, degree: _Degree, x: Any) -> Any:
    """``P_v^m(x)`` in float64 for one integer ``order`` (see :func:`lpmv`)."""
    mu = abs(int(order))
    outside = fnp.greater(fnp.abs(x), 1.0)
    if mu:  # (P_v^m is NaN beyond [-1, 1]: computed at 0 there, no sqrt of a negative)
        x = fnp.where(outside, 0.0, x)
    values = np.where(degree.values < 0, -degree.values - 1.0, degree.values)
    integer = degree.integer & (order >= 0)
    # ((2m - 1)!! as a float: inf past m ~ 150, where SciPy's value is not finite either)
    start = (-1.0) ** mu * math.prod(map(float, range(1, 2 * mu, 2))) * _sin_power(x, mu)
    value: Any = None
    if integer.any():
        levels = np.where(integer, values, mu).astype(np.int64)
        # (l - m + 1) P_{l+1}^m = (2l + 1) x P_l^m - (l + m) P_{l-1}^m, from P_m^m
        previous, current = start * 0.0, start
        out = _where(levels == mu, current, previous) if levels.ndim else None
        for level in range(mu, int(levels.max()) if levels.size else mu):
            previous, current = current, ((2 * level + 1) * x * current - (level + mu)
                                          * previous) / (level - mu + 1)
            if levels.ndim:
                out = _where(levels == level + 1, current, out)
        value = out if levels.ndim else current
        value = _where(levels < mu, 0.0, value) if (levels < mu).any() else value
    if not integer.all():
        nu = np.where(integer, 0.5, values)
        if order >= 0:
            general = ((-1.0) ** mu / (2.0 ** mu * math.factorial(mu)) * _gamma_ratio(nu, mu)
                       * _sin_power(x, mu) * hyp2f1(mu - nu, mu + nu + 1.0, mu + 1.0,
                                                    _half(x)))
        else:  # (SciPy's negative order is Ferrers' P_v^-m, DLMF 14.3.1: no phase)
            ratio = (1.0 - x) / (1.0 + x)
            general = (ratio ** (mu // 2) * (fnp.sqrt(ratio) if mu % 2 else 1.0)
                       * hyp2f1(nu + 1.0, -nu, mu + 1.0, _half(x)) / math.factorial(mu))
        # (beyond -1 the series diverges: NaN, as SciPy's)
        general = fnp.where(fnp.less(x, -1.0), math.nan, general)
        value = general if value is None else _where(integer, value, general)
    if mu:  # (P_v beyond [-1, 1] is SciPy's value too)
        value = fnp.where(outside, math.nan, value)
    return value


def _gamma_ratio(nu: np.ndarray, mu: int) -> Any:
    """``Gamma(nu + mu + 1) / Gamma(nu - mu + 1)`` (a constant: ``nu`` and ``mu`` are
    concrete), 0 where the denominator has a pole."""
    return np.asarray(rgamma(nu - mu + 1.0)) / np.asarray(rgamma(nu + mu + 1.0))
