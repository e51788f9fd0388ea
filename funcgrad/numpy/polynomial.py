"""NumPy's polynomial functions on coefficient arrays (highest power first): polyder,
polyint, polyadd, polysub, polymul, polydiv, vander, polyfit, poly and roots.  (``polyval``
lives with the products.)

``numpy.polynomial``'s power series (lowest power first) are here too, under NumPy's
names: ``funcgrad.numpy.polynomial.polynomial.polyval`` (see
:mod:`funcgrad.numpy.power_series`) and ``funcgrad.numpy.polynomial.Polynomial``; the
orthogonal series as ``funcgrad.numpy.polynomial.chebyshev.chebval`` (and ``legendre``,
``hermite``, ``hermite_e``, ``laguerre``: see :mod:`funcgrad.numpy.orthogonal_series`)
and ``funcgrad.numpy.polynomial.Chebyshev`` (``Legendre``, ``Hermite``, ``HermiteE``,
``Laguerre``).
"""
from typing import Any
import numpy as _np

from ..core import DerivativeDroppedError
from ..custom import Function
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ._conversions import carried_derivative, refuse_trimming
from ._convert import asarray, concrete_values, is_concrete
from .constructors import astype
from .linalg import solve
from .manipulation import atleast_1d, broadcast_to, concatenate, reshape, transpose
from .products import matmul, trace
from .reductions import cumprod, sum
from .signal import convolve
from .ufuncs import add, divide, imag, multiply, negative, real, sqrt, subtract
from ..typing import Array, ArrayLike
# NumPy's numpy.polynomial.polynomial (power series, lowest power first), as
# funcgrad.numpy.polynomial.polynomial; this module holds the older np.poly* functions.
from . import power_series
from . import _polynomial_methods

# numpy.polynomial.set_default_printstyle (not in __all__: numpy's top level lacks it)
set_default_printstyle = _polynomial_methods.set_default_printstyle

polynomial = power_series  # (not in __all__: funcgrad.numpy.polynomial is this module)

# numpy.polynomial's orthogonal series (funcgrad.numpy.polynomial.chebyshev...) and the
# classes (Polynomial, Chebyshev...) are made on first use: building them imports
# numpy.polynomial and evaluates each docstring's example with NumPy, half of the time
# `import funcgrad` took beyond `import numpy`.
_SERIES = ("chebyshev", "legendre", "hermite", "hermite_e", "laguerre")
_CLASSES = ("Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre")


def __getattr__(name: str) -> Any:
    if name not in _SERIES and name not in _CLASSES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import _polynomial_class, orthogonal_series
    for series, klass in zip(_SERIES, _CLASSES[1:]):
        family = getattr(orthogonal_series, series)
        setattr(family, klass, getattr(_polynomial_class, klass))
        globals()[series] = family
    for klass in _CLASSES:
        globals()[klass] = getattr(_polynomial_class, klass)
    return globals()[name]


__all__ = ["polyder", "polyint", "polyadd", "polysub", "polymul", "polydiv", "vander",
           "polyfit", "poly", "roots"]


def polyder(p: ArrayLike, m: ArrayLike = 1) -> Array:
    """``np.polyder(p, m=1)``: the coefficients of the ``m``-th derivative of the
    polynomial ``p``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polyder(np.array([1.0, 2.0, 3.0, 4.0]))
    array([3., 4., 3.])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = asarray(p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = multiply(p[:-1], _np.arange(n, 0, -1))
    return p


def polyint(p: ArrayLike, m: ArrayLike = 1, k: Any = None) -> Array:
    """``np.polyint(p, m=1, k=None)``: the coefficients of the ``m``-th antiderivative,
    with integration constants ``k`` (differentiable in ``p`` and ``k``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polyint(np.array([3.0, 2.0, 1.0]), k=5.0)
    array([1., 1., 1., 5.])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = atleast_1d(_np.zeros(m, float) if k is None else asarray(k))
    if k.shape[0] == 1 and m > 1:
        k = broadcast_to(k, (m,))
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = asarray(p)
    for i in range(m):
        p = concatenate([divide(p, _np.arange(p.shape[0], 0, -1)), k[i:i + 1]])
    return p


def _aligned(a1, a2):
    a1, a2 = atleast_1d(asarray(a1)), atleast_1d(asarray(a2))
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = concatenate([_np.zeros(diff, a1.dtype), a1])
    elif diff < 0:
        a2 = concatenate([_np.zeros(-diff, a2.dtype), a2])
    return a1, a2


def polyadd(a1: ArrayLike, a2: ArrayLike) -> Array:
    """``np.polyadd(a1, a2)``: the sum of two polynomials.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polyadd(np.array([1.0, 2.0]), np.array([9.0, 5.0, 4.0]))
    array([9., 6., 6.])
    """
    return add(*_aligned(a1, a2))


def polysub(a1: ArrayLike, a2: ArrayLike) -> Array:
    """``np.polysub(a1, a2)``: the difference of two polynomials.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polysub(np.array([2.0, 10.0, -2.0]), np.array([3.0, 10.0, -4.0]))
    array([-1.,  0.,  2.])
    """
    return subtract(*_aligned(a1, a2))


def _strip(a):
    """NumPy's ``poly1d(a)``: leading zeros removed (all zeros leave one)."""
    a = atleast_1d(asarray(a))
    values = concrete_values(a, "polymul (NumPy drops leading zero coefficients)",
                             "Use fnp.convolve(a1, a2), which keeps them.")
    nonzero = _np.flatnonzero(values)
    start = nonzero[0] if nonzero.size else values.shape[0] - 1
    if start > 0:
        refuse_trimming(a, "polymul (NumPy drops leading zero coefficients)",
                        "Use fnp.convolve(a1, a2), which keeps them.")
    return a[int(start):] if values.shape[0] else a


def polymul(a1: ArrayLike, a2: ArrayLike) -> Array:
    """``np.polymul(a1, a2)``: the product of two polynomials (leading zero coefficients
    dropped, as NumPy; their count depends on values, so under ``vmap``/``jit`` use
    ``fnp.convolve``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polymul(np.array([1.0, 2.0, 3.0]), np.array([9.0, 5.0, 1.0]))
    array([ 9., 23., 38., 17.,  3.])
    """
    return convolve(_strip(a1), _strip(a2))


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Array:  # noqa: N803 - NumPy's name
    """``np.vander(x, N=None, increasing=False)``: the Vandermonde matrix, columns powers
    of ``x`` (decreasing unless ``increasing``), by repeated products as NumPy computes
    them.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.vander(np.array([1.0, 2.0, 3.0]), 3)
    array([[1., 1., 1.],
           [4., 2., 1.],
           [9., 3., 1.]])
    """
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else int(N)
    if n < 0:  # (NumPy's error: its empty((len(x), N)) refuses it)
        raise ValueError(f"negative dimensions are not allowed: vander's N is {n}; pass "
                         f"N >= 0 columns")
    dtype = _np.promote_types(x.dtype, int)
    x = astype(x, dtype)
    columns = [_np.ones((x.shape[0], 1), dtype)] if n > 0 else []
    if n > 1:
        powers = cumprod(broadcast_to(reshape(x, (x.shape[0], 1)), (x.shape[0], n - 1)), axis=1)
        columns.append(powers)
    if not columns:
        return _np.zeros((x.shape[0], 0), dtype)
    v = concatenate(columns, 1) if len(columns) > 1 else columns[0]
    return v if increasing else v[:, ::-1]


def polyfit(x: ArrayLike, y: ArrayLike, deg: int, rcond: ArrayLike | None = None,
            full: bool = False, w: ArrayLike | None = None, cov: bool = False) -> Array:
    """``np.polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False)``: least-squares
    polynomial coefficients (highest power first), differentiable in ``x``, ``y`` and
    ``w``.

    Solved through the normal equations of NumPy's column-scaled Vandermonde matrix, so
    values agree with NumPy's (SVD-based) ones to about ``cond**2 * eps``; a rank-deficient
    fit raises LinAlgError.  ``full=True`` and ``cov=True`` are not supported.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> fnp.polyfit(x, 2.0 * x + 1.0, 1).round(12)
    array([2., 1.])
    """
    if full or cov:
        raise NotImplementedError("polyfit: full=True and cov=True are not supported; fit "
                                  "the coefficients and compute residuals from them")
    order = int(deg) + 1
    if deg < 0:
        raise ValueError("expected deg >= 0")
    x = add(asarray(x), 0.0)
    y = add(asarray(y), 0.0)
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.shape[0] == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = add(asarray(w), 0.0)
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs, rhs = power_series.weighted_rows(lhs, rhs, w)
    scale = sqrt(sum(multiply(lhs, lhs), axis=0))
    lhs = divide(lhs, scale)
    gram = matmul(transpose(lhs), lhs)
    c = solve(gram, matmul(transpose(lhs), rhs))
    return divide(c, scale) if c.ndim == 1 else divide(c, reshape(scale, (order, 1)))




def polydiv(u: ArrayLike, v: ArrayLike) -> tuple[Array, Array]:
    """``np.polydiv(u, v)``: quotient and remainder of the polynomial long division of
    ``u`` by ``v``, differentiable in both.

    As NumPy: the quotient has ``max(len(u) - len(v) + 1, 1)`` coefficients (``v``'s
    leading coefficient is not skipped, even when zero) and the remainder's leading
    entries within 1e-8 of zero are dropped.  Which ones that is depends on the values, so
    under ``vmap``/``jit`` polydiv raises ConcretizationError.  The entries the division
    cancels (the first ``len(u) - len(v) + 1``) have a zero derivative, so dropping them
    loses nothing; a remainder coefficient that is zero now but moves with the input
    carries a derivative: when the remainder is differentiated, dropping it raises
    DerivativeDroppedError naming a rewrite that keeps it (the quotient alone stays
    differentiable).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polydiv(np.array([3.0, 5.0, 2.0]), np.array([2.0, 1.0]))
    (array([1.5 , 1.75]), array([0.25]))
    """
    u = add(atleast_1d(asarray(u)), 0.0)
    v = add(atleast_1d(asarray(v)), 0.0)
    if u.ndim != 1 or v.ndim != 1:
        raise ValueError(f"polydiv: u and v must be 1-d coefficient arrays, got shapes "
                         f"{u.shape} and {v.shape}")
    dtype = _np.result_type(u.dtype, v.dtype)
    u, v = astype(u, dtype), astype(v, dtype)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = divide(1.0, v[0])
    quotient = []
    r = [u[i] for i in range(m + 1)]  # the running remainder, entry by entry
    for k in range(m - n + 1):
        d = multiply(scale, r[k])
        quotient.append(d)
        for j in range(n + 1):
            r[k + j] = subtract(r[k + j], multiply(d, v[j]))
    q = _stack(quotient) if quotient else _np.zeros(1, dtype)
    r = _stack(r)
    values = concrete_values(r, "polydiv's remainder (NumPy drops its leading zeros)",
                             "Call polydiv outside vmap/jit, or divide by hand where the "
                             "lengths are known.")
    start = 0
    while start < values.shape[0] - 1 and _np.allclose(values[start], 0, rtol=1e-14):
        start += 1
    # r[k] - (r[k] / v[0]) v[0]: zero but for rounding, its derivative zero too (dropping
    # it loses nothing); the entries after those are the remainder proper
    cancelled = m - n + 1 if m >= n else 0
    if start > cancelled and carried_derivative(r) is not None:
        return q, _TrimmedRemainder.apply(r, start, cancelled)
    return q, r[start:]


_KEEP_REMAINDER = (
    "polydiv's remainder: NumPy drops its leading entries within 1e-8 of zero, and one "
    "dropped here is zero now but moves with the input (a nonzero derivative), so the "
    "remainder's derivative would be lost silently. Keep every entry: compute the remainder "
    "as (u - fnp.convolve(q, v))[len(u) - len(v) + 1:] from the quotient q (len(v) - 1 "
    "entries).")


class _TrimmedRemainder(Function):
    """``r[start:]``, refusing to differentiate when the remainder is used and a dropped
    entry after the cancelled ones moves with the input: the quotient alone stays
    differentiable (an unused remainder gets no cotangent), and forward mode raises only
    for a nonzero tangent of a dropped entry."""

    @staticmethod
    def forward(ctx, r, start, cancelled):
        ctx.start, ctx.cancelled, ctx.shape, ctx.dtype = start, cancelled, r.shape, r.dtype
        return r[start:]

    @staticmethod
    def backward(ctx, grad_output):
        if not is_concrete(grad_output) or _np.any(
                concrete_values(grad_output, "", "") != 0):
            raise DerivativeDroppedError(_KEEP_REMAINDER)
        return _np.zeros(ctx.shape, ctx.dtype), None, None

    @staticmethod
    def jvp(ctx, r_tangent, *_):
        dropped = r_tangent[ctx.cancelled:ctx.start]
        if not is_concrete(dropped) or _np.any(concrete_values(dropped, "", "") != 0):
            raise DerivativeDroppedError(_KEEP_REMAINDER)
        return r_tangent[ctx.start:]


def _stack(entries):
    from .manipulation import stack
    return stack(entries)


def _real_if_conjugate(a, zeros, what):
    """NumPy's rule: complex coefficients whose roots come in conjugate pairs are real."""
    if a.dtype.kind != "c":
        return a
    z = _np.asarray(concrete_values(zeros, f"{what} (a real or complex result, by the values)",
                                    "Pass real roots, or call it outside vmap/jit."), complex)
    return real(a) if _np.all(_np.sort(z) == _np.sort(z.conjugate())) else a


def poly(seq_of_zeros: ArrayLike) -> Array:
    """``np.poly(seq_of_zeros)``: the coefficients (leading one) of the monic polynomial
    with the given roots, or the characteristic polynomial of a square matrix.

    Differentiable in both: from roots by repeated products with ``(x - r)``; from a
    matrix by the Faddeev-LeVerrier recursion (traces of powers: no eigenvalues, so
    matrices with complex eigenvalues work too, under ``vmap`` as well).  Its values agree
    with NumPy's (through eigenvalues) to rounding; a plain NumPy matrix gets NumPy's.
    Complex roots in conjugate pairs give real coefficients, as NumPy; deciding that
    needs concrete values.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.poly(np.array([1.0, 2.0]))
    array([ 1., -3.,  2.])
    >>> fg.grad(lambda r: fnp.poly(r)[2])(np.array([1.0, 2.0]))
    array([2., 1.])
    """
    a = atleast_1d(asarray(seq_of_zeros))
    sh = a.shape
    if len(sh) == 2 and sh[0] == sh[1] and sh[0] != 0:
        if type(a) is _np.ndarray:
            return _np.poly(a)
        return _characteristic(a)
    if len(sh) != 1:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if a.dtype.kind in "biu":
        a = astype(a, _np.float64)
    if a.shape[0] == 0:
        return 1.0
    coefficients = _np.ones(1, a.dtype)
    for i in range(a.shape[0]):
        coefficients = subtract(concatenate([coefficients, _np.zeros(1, a.dtype)]),
                                multiply(a[i], concatenate([_np.zeros(1, a.dtype),
                                                            coefficients])))
    return _real_if_conjugate(coefficients, a, "poly of complex roots")


def _characteristic(a):
    """Faddeev-LeVerrier: ``M_k = A M_{k-1} + c_{n-k+1} I``, ``c_{n-k} = -tr(A M_k) / k``."""
    if a.dtype.kind in "biu":
        a = astype(a, _np.float64)
    n = a.shape[0]
    eye = _np.eye(n, dtype=a.dtype)
    coefficients = [_np.ones((), a.dtype)]
    m = eye
    for k in range(1, n + 1):
        am = matmul(a, m)
        c = divide(negative(trace(am)), _np.asarray(k, a.real.dtype if a.dtype.kind == "c"
                                                      else a.dtype))
        coefficients.append(c)
        m = add(am, multiply(c, eye))
    out = _stack(coefficients)
    if out.dtype.kind == "c":
        values = concrete_values(a, "poly of a complex matrix (a real or complex result, by "
                                 "the values)", "Call poly outside vmap/jit.")
        return _real_if_conjugate(out, _np.linalg.eigvals(values), "poly")
    return out


def _companion_roots(p):
    values = concrete_values(p, "roots (the eigenvalues of the companion matrix, by NumPy)",
                             "Call fg.vmap/jit around code without roots, or loop over the "
                             "polynomials in Python.")
    return _np.roots(values)


@custom_jvp
def _roots_parts(p):
    """The real and imaginary parts of NumPy's roots (custom rules carry real outputs)."""
    r = _companion_roots(p)
    return _np.ascontiguousarray(r.real), _np.ascontiguousarray(r.imag)


@_roots_parts.defjvp
def _roots_jvp(primals, tangents):
    p, = primals
    dp, = tangents
    re, im = _roots_parts(p)
    # r is built from the traced parts, not NumPy's plain roots: the tangent's own
    # derivative (second order) moves with r.
    r = re
    if _companion_roots(p).dtype.kind == "c":
        r = add(re, multiply(_np.asarray(1j, _np.result_type(re.dtype, 1j)), im))
    # Implicit function theorem: p(r) = 0, so dr = -dp(r) / p'(r) (infinite at a multiple
    # root, where the roots are not differentiable).
    dp_at_r = _np.zeros(r.shape, r.dtype)
    slope = _np.zeros(r.shape, r.dtype)
    n = p.shape[0] - 1
    for i in range(n + 1):
        dp_at_r = add(multiply(dp_at_r, r), dp[i])
        if i < n:
            slope = add(multiply(slope, r), multiply(p[i], float(n - i)))
    dr = negative(divide(dp_at_r, slope))
    return (re, im), (astype(real(dr), re.dtype), astype(imag(dr), im.dtype))


def roots(p: ArrayLike) -> Array:
    """``np.roots(p)``: the roots of the polynomial with coefficients ``p`` (highest power
    first), NumPy's values and order (eigenvalues of the companion matrix; complex where a
    root is).

    Differentiable in ``p``, real or complex, by the implicit function theorem: a simple
    root ``r`` moves by ``dr = -dp(r) / p'(r)`` (infinite at a multiple root).  Leading zero
    coefficients are dropped, as NumPy; their derivatives still count (the finite roots'
    motion, not the root that a nonzero leading coefficient would bring from infinity).  The
    number of roots depends on the values, so roots needs concrete coefficients: under
    ``vmap``/``jit`` it raises ConcretizationError.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.roots(np.array([1.0, -3.0, 2.0]))
    array([2., 1.])
    >>> fg.grad(lambda p: fnp.roots(p)[0])(np.array([1.0, -3.0, 2.0]))
    array([-4., -2., -1.])
    """
    p = atleast_1d(asarray(p))
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    if p.dtype.kind in "biu":
        p = astype(p, _np.float64)
    if type(p) is _np.ndarray:
        return _np.roots(p)
    r = _companion_roots(p)
    if r.shape[0] == 0:
        return r
    re, im = _roots_parts(p)
    if r.dtype.kind != "c":
        return re
    return add(re, multiply(_np.asarray(1j, r.dtype), im))
