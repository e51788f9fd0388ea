"""NumPy's power series, ``numpy.polynomial.polynomial`` (coefficients lowest power
first: ``c[i]`` multiplies ``x**i``), differentiable in the coefficients and in ``x``.

NumPy's own functions there convert their arguments with ``np.array``, which a traced
value cannot go through; call these instead, with the same arguments:
``funcgrad.numpy.polynomial.polynomial.polyval(x, c)`` for
``np.polynomial.polynomial.polyval(x, c)``.  Each computes as NumPy does (Horner's rule,
the same order of operations), so values agree to the last bit.

As NumPy, the arithmetic (polyadd, polysub, polymul, polymulx, polydiv, polypow) drops
trailing zero coefficients of its inputs and results.  How many there are depends on the
values, so under ``vmap``/``jit`` those raise ConcretizationError, naming a rewrite that
keeps them (padding and ``+``, or ``fnp.convolve``); and a dropped zero that carries a
derivative (the series' value moves with it) raises DerivativeDroppedError rather than
lose it.  Evaluation, derivatives, integrals,
Vandermonde matrices and fits keep every coefficient and work under every transform.
"""
from typing import Any

import numpy as _np

from ._conversions import refuse_trimming
from ._convert import asarray, concrete_values
from .constructors import astype
from .manipulation import concatenate, moveaxis, reshape, stack
from .indexing import sort, where
from .reductions import prod, sum
from .signal import convolve
from .ufuncs import add, divide, equal, multiply, negative, real, imag, sqrt, square, subtract
from ..typing import Array, ArrayLike

__all__ = ["polyval", "polyval2d", "polyval3d", "polygrid2d", "polygrid3d",
           "polyvalfromroots", "polyder", "polyint", "polyadd", "polysub", "polymul",
           "polymulx", "polydiv", "polypow", "polyline", "polyfromroots", "polyvander",
           "polyfit", "polydomain", "polyzero", "polyone", "polyx"]

polydomain = _np.array([-1.0, 1.0])
polyzero = _np.array([0])
polyone = _np.array([1])
polyx = _np.array([0, 1])


def _as_float(c):
    """NumPy's rule: integer and boolean coefficients compute in float64."""
    return astype(c, _np.float64) if c.dtype.kind in "biu" else c


def _series(c, name):
    """A 1-d coefficient array, as NumPy's ``as_series`` checks it (not trimmed)."""
    c = asarray(c)
    c = reshape(c, (1,)) if c.ndim == 0 else c
    if c.size == 0:
        raise ValueError(f"{name}: Coefficient array is empty")
    if c.ndim != 1:
        raise ValueError(f"{name}: Coefficient array is not 1-d")
    return c


_KEEP = ("Keep them: pad the shorter coefficient array with zeros and use +/- for "
         "polyadd/polysub, fnp.convolve(c1, c2) for polymul, and polyval/polyder/polyint, "
         "which keep every coefficient.")


def _trimmed(c, name, keep_them=_KEEP):
    """``c`` without its trailing zeros (one kept if all are zero), as NumPy's
    ``trimseq``; the count depends on the values."""
    values = concrete_values(
        c, f"{name} (NumPy drops trailing zero coefficients: how many depends on the values)",
        "Under vmap/jit keep them: pad the shorter coefficient array with zeros and use +/- "
        "for polyadd/polysub, fnp.convolve(c1, c2) for polymul.")
    nonzero = _np.flatnonzero(values != 0)
    keep = int(nonzero[-1]) + 1 if nonzero.size else 1
    if keep < c.shape[0]:
        refuse_trimming(c, f"{name} (NumPy drops trailing zero coefficients)", keep_them)
    return c[:keep]


def _common(name, *cs, trim=True):
    """NumPy's ``as_series``: 1-d, trimmed, in a common inexact dtype."""
    cs = [_series(c, name) for c in cs]
    if trim:
        cs = [_trimmed(c, name) for c in cs]
    dtype = _np.result_type(*[_np.float64 if c.dtype.kind in "biu" else c.dtype for c in cs])
    return [astype(c, dtype) if c.dtype != dtype else c for c in cs]


def _padded(c, n):
    return c if c.shape[0] == n else concatenate([c, _np.zeros(n - c.shape[0], c.dtype)])


def polyval(x: ArrayLike, c: ArrayLike, tensor: bool = True) -> Array:
    """``np.polynomial.polynomial.polyval(x, c, tensor=True)``: ``sum_i c[i] x**i`` by
    Horner's rule; ``c``'s trailing axes hold several polynomials (``tensor``: each
    evaluated at every ``x``, else ``x`` broadcast against them).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> float(P.polyval(2.0, np.array([1.0, 0.0, 3.0])))
    13.0
    >>> fg.grad(lambda c: P.polyval(2.0, c))(np.array([1.0, 0.0, 3.0]))
    array([1., 2., 4.])
    """
    c = _as_float(asarray(c))
    c = reshape(c, (1,)) if c.ndim == 0 else c
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if tensor and hasattr(x, "ndim"):
        c = reshape(c, c.shape + (1,) * x.ndim)
    value = add(c[-1], multiply(x, 0))
    for i in range(2, c.shape[0] + 1):
        value = add(c[-i], multiply(value, x))
    return value


def _same_shape(name, points):
    points = [asarray(p) for p in points]
    if any(p.shape != points[0].shape for p in points[1:]):
        raise ValueError(f"{name}: " + {2: "x, y are incompatible", 3: "x, y, z are "
                                        "incompatible"}[len(points)])
    return points


def polyval2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polyval2d(x, y, c)``: ``sum_ij c[i, j] x**i y**j`` at
    the points ``(x, y)`` (equal shapes).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> float(P.polyval2d(2.0, 3.0, np.array([[1.0, 1.0], [1.0, 1.0]])))
    12.0
    """
    x, y = _same_shape("polyval2d", (x, y))
    return polyval(y, polyval(x, c), tensor=False)


def polyval3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polyval3d(x, y, z, c)``: ``sum_ijk c[i, j, k] x**i y**j
    z**k`` at the points ``(x, y, z)``.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> float(P.polyval3d(1.0, 2.0, 3.0, np.ones((2, 2, 2))))
    24.0
    """
    x, y, z = _same_shape("polyval3d", (x, y, z))
    return polyval(z, polyval(y, polyval(x, c), tensor=False), tensor=False)


def polygrid2d(x: ArrayLike, y: ArrayLike, c: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polygrid2d(x, y, c)``: the 2-d series on the grid
    ``x`` by ``y`` (shape ``c.shape[2:] + x.shape + y.shape``).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polygrid2d(np.array([0.0, 1.0]), np.array([2.0]), np.array([[1.0, 1.0], [1.0, 1.0]]))
    array([[3.],
           [6.]])
    """
    return polyval(y, polyval(x, c))


def polygrid3d(x: ArrayLike, y: ArrayLike, z: ArrayLike, c: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polygrid3d(x, y, z, c)``: the 3-d series on the grid
    ``x`` by ``y`` by ``z``.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polygrid3d(np.array([1.0]), np.array([2.0]), np.array([3.0]), np.ones((2, 2, 2)))
    array([[[24.]]])
    """
    return polyval(z, polyval(y, polyval(x, c)))


def polyvalfromroots(x: ArrayLike, r: ArrayLike, tensor: bool = True) -> Array:
    """``np.polynomial.polynomial.polyvalfromroots(x, r, tensor=True)``: ``prod_i (x -
    r[i])``, differentiable in ``x`` and the roots.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> float(P.polyvalfromroots(3.0, np.array([1.0, 2.0])))
    2.0
    """
    r = _as_float(asarray(r))
    r = reshape(r, (1,)) if r.ndim == 0 else r
    if isinstance(x, (tuple, list)):
        x = asarray(x)
    if hasattr(x, "ndim"):
        if tensor:
            r = reshape(r, r.shape + (1,) * x.ndim)
        elif x.ndim >= r.ndim:
            raise ValueError("polyvalfromroots: x.ndim must be < r.ndim when tensor == False")
    return prod(subtract(x, r), axis=0)


def _count(n, what):
    if int(n) != n:
        raise TypeError(f"{what} must be an integer")
    return int(n)


def polyder(c: ArrayLike, m: int = 1, scl: ArrayLike = 1, axis: int = 0) -> Array:
    """``np.polynomial.polynomial.polyder(c, m=1, scl=1, axis=0)``: the coefficients of
    the ``m``-th derivative, each step multiplied by ``scl`` (differentiable in ``c`` and
    ``scl``).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polyder(np.array([1.0, 2.0, 3.0, 4.0]))
    array([ 2.,  6., 12.])
    """
    c = _as_float(asarray(c))
    c = reshape(c, (1,)) if c.ndim == 0 else c
    cnt = _count(m, "the order of derivation")
    if cnt < 0:
        raise ValueError("The order of derivation must be non-negative")
    axis = _axis(axis, c.ndim)
    if cnt == 0:
        return c
    c = moveaxis(c, axis, 0)
    n = c.shape[0]
    if cnt >= n:
        c = multiply(c[:1], 0)
    else:
        for _ in range(cnt):
            n -= 1
            c = multiply(c, scl)
            c = multiply(c[1:], reshape(_np.arange(1, n + 1), (n,) + (1,) * (c.ndim - 1)))
    return moveaxis(c, 0, axis)


def _axis(axis, ndim):
    axis = _count(axis, "the axis")
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _integration_args(k, m, lbnd, scl, axis, ndim):
    """NumPy's checks of an integration's arguments (the series' ``*int``): the constants
    (padded with zeros to the order), the order, and the axis."""
    if not _np.iterable(k) or hasattr(k, "ndim") and k.ndim == 0:
        k = [k]
    cnt = _count(m, "the order of integration")
    if cnt < 0:
        raise ValueError("The order of integration must be non-negative")
    if len(k) > cnt:
        raise ValueError("Too many integration constants")
    if _np.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if _np.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    return list(k) + [0] * (cnt - len(k)), cnt, _axis(axis, ndim)


def polyint(c: ArrayLike, m: int = 1, k: Any = [], lbnd: ArrayLike = 0,  # noqa: B006 - NumPy's
            scl: ArrayLike = 1, axis: int = 0) -> Array:
    """``np.polynomial.polynomial.polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0)``: the
    coefficients of the ``m``-th integral, with integration constants ``k`` (the value at
    ``lbnd`` of each integral), each step multiplied by ``scl``; differentiable in ``c``,
    ``k``, ``lbnd`` and ``scl``.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polyint(np.array([1.0, 2.0, 3.0]), k=5.0)
    array([5., 1., 1., 1.])
    """
    c = _as_float(asarray(c))
    c = reshape(c, (1,)) if c.ndim == 0 else c
    k, cnt, axis = _integration_args(k, m, lbnd, scl, axis, c.ndim)
    if cnt == 0:
        return c
    c = moveaxis(c, axis, 0)
    for i in range(cnt):
        n = c.shape[0]
        c = multiply(c, scl)
        if n == 1 and _np.all(concrete_values(
                c[0], "polyint of a constant (NumPy's result is shorter when it is zero)",
                "Pass a coefficient array of length 2 or more (append a zero).") == 0):
            c = add(c, k[i])
            continue
        shape = (n,) + (1,) * (c.ndim - 1)
        rest = divide(c[1:], reshape(_np.arange(2, n + 1), (n - 1,) + shape[1:]))
        tmp = concatenate([multiply(c[:1], 0), c[:1], rest])
        constant = add(tmp[:1], subtract(k[i], polyval(lbnd, tmp)))
        c = concatenate([constant, tmp[1:]])
    return moveaxis(c, 0, axis)


def polyadd(c1: ArrayLike, c2: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polyadd(c1, c2)``: the sum (trailing zeros dropped).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polyadd(np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0]))
    array([4., 4., 3.])
    """
    c1, c2 = _common("polyadd", c1, c2)
    n = max(c1.shape[0], c2.shape[0])
    return _trimmed(add(_padded(c1, n), _padded(c2, n)), "polyadd")


def polysub(c1: ArrayLike, c2: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polysub(c1, c2)``: the difference (trailing zeros
    dropped).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polysub(np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 3.0]))
    array([-2.])
    """
    c1, c2 = _common("polysub", c1, c2)
    n = max(c1.shape[0], c2.shape[0])
    if c1.shape[0] > c2.shape[0]:
        return _trimmed(subtract(c1, _padded(c2, n)), "polysub")
    return _trimmed(add(negative(c2), _padded(c1, n)), "polysub")  # (NumPy's order)


def polymul(c1: ArrayLike, c2: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polymul(c1, c2)``: the product (trailing zeros
    dropped).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polymul(np.array([1.0, 2.0]), np.array([3.0, 1.0]))
    array([3., 7., 2.])
    """
    c1, c2 = _common("polymul", c1, c2)
    return _trimmed(convolve(c1, c2), "polymul")


def polymulx(c: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polymulx(c)``: the coefficients of ``x * p(x)``.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polymulx(np.array([1.0, 2.0]))
    array([0., 1., 2.])
    """
    c, = _common("polymulx", c)
    if c.shape[0] == 1 and _np.all(concrete_values(c, "polymulx", "") == 0):
        return c
    return concatenate([multiply(c[:1], 0), c])


def polydiv(c1: ArrayLike, c2: ArrayLike) -> tuple[Array, Array]:
    """``np.polynomial.polynomial.polydiv(c1, c2)``: quotient and remainder (trailing
    zeros dropped), by NumPy's long division.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polydiv(np.array([3.0, 5.0, 2.0]), np.array([1.0, 1.0]))
    (array([3., 2.]), array([0.]))
    """
    c1, c2 = _common("polydiv", c1, c2)
    if concrete_values(c2[-1], "polydiv", "") == 0:
        raise ZeroDivisionError("polydiv: the divisor's last coefficient is zero")
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 < n2:
        return multiply(c1[:1], 0), c1
    if n2 == 1:
        return divide(c1, c2[-1]), multiply(c1[:1], 0)
    scl = c2[-1]
    lower = divide(c2[:-1], scl)
    rest = [c1[i] for i in range(n1)]
    i, j = n1 - n2, n1 - 1
    while i >= 0:
        top = rest[j]
        for t in range(i, j):
            rest[t] = subtract(rest[t], multiply(lower[t - i], top))
        i, j = i - 1, j - 1
    return divide(stack(rest[j + 1:]), scl), _trimmed(
        stack(rest[:j + 1]), "polydiv's remainder",
        "Keep them: compute the remainder as (c1 - fnp.convolve(q, c2))[:len(c2) - 1] from "
        "the quotient q.")


def polypow(c: ArrayLike, pow: int, maxpower: int | None = None) -> Array:  # noqa: A002
    """``np.polynomial.polynomial.polypow(c, pow, maxpower=None)``: ``p(x) ** pow`` by
    repeated products.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polypow(np.array([1.0, 1.0]), 2)
    array([1., 2., 1.])
    """
    c, = _common("polypow", c)
    power = int(pow)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    if power == 0:
        return _np.array([1], c.dtype)
    product = c
    for _ in range(2, power + 1):
        product = convolve(product, c)
    return product


def polyline(off: ArrayLike, scl: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polyline(off, scl)``: the coefficients of ``off + scl
    x`` (one coefficient when ``scl`` is zero).

    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polyline(1.0, -1.0)
    array([ 1., -1.])
    """
    if concrete_values(asarray(scl), "polyline (one coefficient or two, by scl's value)",
                       "Build the coefficients with fnp.stack([off, scl]).") != 0:
        return stack([asarray(off), asarray(scl)])
    return reshape(asarray(off), (1,))


def polyfromroots(roots: ArrayLike) -> Array:
    """``np.polynomial.polynomial.polyfromroots(roots)``: the monic polynomial with the
    given roots (NumPy's products of the sorted roots' factors, pairwise).

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polyfromroots(np.array([2.0, 1.0]))
    array([ 2., -3.,  1.])
    """
    r = asarray(roots)
    if r.size == 0:
        return _np.ones(1)
    r, = _common("polyfromroots", r, trim=False)
    r = sort(r)
    factors = [stack([negative(r[i]), _np.ones((), r.dtype)]) for i in range(r.shape[0])]
    n = len(factors)
    while n > 1:  # (leading coefficients 1: nothing to trim)
        m, odd = divmod(n, 2)
        paired = [convolve(factors[i], factors[i + m]) for i in range(m)]
        if odd:
            paired[0] = convolve(paired[0], factors[-1])
        factors, n = paired, m
    return factors[0]


def polyvander(x: ArrayLike, deg: int) -> Array:
    """``np.polynomial.polynomial.polyvander(x, deg)``: ``V[..., i] = x**i`` for ``i <=
    deg``, by repeated products as NumPy.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> P.polyvander(np.array([2.0, 3.0]), 2)
    array([[1., 2., 4.],
           [1., 3., 9.]])
    """
    degree = _count(deg, "deg")
    if degree < 0:
        raise ValueError("deg must be non-negative")
    x = add(asarray(x), 0.0)
    x = reshape(x, (1,)) if x.ndim == 0 else x
    columns = [add(multiply(x, 0), 1)]
    if degree > 0:
        columns.append(x)
        for _ in range(2, degree + 1):
            columns.append(multiply(columns[-1], x))
    return moveaxis(stack(columns), 0, -1)


def polyfit(x: ArrayLike, y: ArrayLike, deg: Any, rcond: float | None = None,
            full: bool = False, w: ArrayLike | None = None) -> Array:
    """``np.polynomial.polynomial.polyfit(x, y, deg, rcond=None, full=False, w=None)``:
    least-squares coefficients (lowest power first; ``deg`` an int or a list of the powers
    to fit), differentiable in ``x``, ``y`` and ``w``.

    NumPy's method: columns of the (weighted) Vandermonde matrix scaled to unit norm,
    then ``lstsq``.  ``full=True`` is not supported.

    >>> import numpy as np
    >>> from funcgrad.numpy.polynomial import polynomial as P
    >>> x = np.array([0.0, 1.0, 2.0, 3.0])
    >>> P.polyfit(x, 1.0 + 2.0 * x, 1).round(12)
    array([1., 2.])
    """
    return fit_by(polyvander, "polyfit", x, y, deg, rcond, full, w)


def weighted_rows(lhs, rhs, w):
    """The least-squares system ``lhs @ c = rhs`` with its rows scaled by the weights ``w``
    (1-d, one per row), as NumPy's fits scale them (np.polyfit's and numpy.polynomial's)."""
    column = reshape(w, (w.shape[0], 1))
    return multiply(lhs, column), multiply(rhs, w if rhs.ndim == 1 else column)


def fit_by(vander, name, x, y, deg, rcond=None, full=False, w=None):
    """NumPy's least-squares fit (``polynomial.polyutils._fit``) through the pseudo-
    Vandermonde matrix ``vander(x, deg)`` of any basis: columns scaled to unit norm, then
    ``lstsq``; differentiable in ``x``, ``y`` and ``w``."""
    from .linalg import lstsq  # (linalg is built on this package's modules)
    if full:
        raise NotImplementedError(f"{name}: full=True is not supported; compute the "
                                  "residuals from the fitted coefficients")
    x = add(asarray(x), 0.0)
    y = add(asarray(y), 0.0)
    degrees = _np.asarray(deg)
    if degrees.ndim > 1 or degrees.dtype.kind not in "iu" or degrees.size == 0:
        raise TypeError("deg must be an int or non-empty 1-D array of int")
    if degrees.min() < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if degrees.ndim == 0:
        top = int(degrees)
        van = vander(x, top)
    else:
        degrees = _np.sort(degrees)
        top = int(degrees[-1])
        van = vander(x, top)[:, degrees]
    lhs, rhs = van, y
    if w is not None:
        w = add(asarray(w), 0.0)
        if w.ndim != 1:
            raise TypeError("expected 1D vector for w")
        if w.shape[0] != x.shape[0]:
            raise TypeError("expected x and w to have same length")
        lhs, rhs = weighted_rows(lhs, rhs, w)
    if rcond is None:
        rcond = x.shape[0] * _np.finfo(x.dtype).eps
    squares = add(square(real(lhs)), square(imag(lhs))) if lhs.dtype.kind == "c" \
        else square(lhs)
    scl = sqrt(sum(squares, axis=0))
    scl = where(equal(scl, 0), _np.ones((), scl.dtype), scl)
    c = lstsq(divide(lhs, scl), rhs, rcond)[0]
    c = divide(c, scl) if c.ndim == 1 else divide(c, reshape(scl, (-1, 1)))
    if degrees.ndim > 0:  # the powers not fitted get zeros
        rows = [c[list(degrees).index(i)] if i in degrees else
                _np.zeros(c.shape[1:], c.dtype) for i in range(top + 1)]
        c = stack(rows)
    return c
