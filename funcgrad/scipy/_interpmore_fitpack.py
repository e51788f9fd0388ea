"""FITPACK's operations on a spline ``(t, c, k)``: ``splder``, ``splantider``, ``insert``,
``spalde`` and ``sproot`` (``scipy.interpolate``'s names and tuples).

``splder``/``splantider`` are :class:`BSpline`'s recurrences laid out as FITPACK lays
out its tuples (``c`` padded to ``len(t)``).  ``insert`` is Boehm's knot insertion: the
new coefficients are convex combinations of neighbouring ones, with weights
``(x - t[i]) / (t[i + k] - t[i])``, chosen by masks (not by indexing with the knot
interval), so they differentiate in ``x``, ``t`` and ``c`` and run under ``vmap``.
``sproot``'s roots are found on values (SciPy's FITPACK search) and differentiated by
the implicit function theorem: ``s(r; t, c) = 0`` gives ``dr = -ds / s'(r)``
(:func:`funcgrad.lax.custom_root`, to any order); a root where ``s'(r) = 0`` (a double
root) has no derivative, and the derivative there is infinite or NaN, as the theorem says.
"""
import operator
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..lax import custom_root
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..typing import ArrayLike
from ._bspline import BSpline, count_below
from ._bspline_interp import _tck

__all__ = ["splder", "splantider", "insert", "spalde", "sproot"]


def _padded(c, size):
    """``c`` with zero rows appended up to ``size`` rows (FITPACK's layout)."""
    return fnp.concatenate([c, fnp.zeros((size - c.shape[0],) + tuple(c.shape[1:]),
                                         c.dtype)]) if size > c.shape[0] else c


def _float(a):
    a = asarray(a)
    return fnp.astype(a, np.float64) if a.dtype.kind in "biu" else a


def splder(tck: Any, n: int = 1) -> Any:
    """The spline of the ``n``-th derivative of ``tck`` (``scipy.interpolate.splder``): a
    tuple ``(t[n:-n], c', k - n)`` (``c'`` padded with zeros to ``len(t')``) for a tuple,
    a :class:`BSpline` for a BSpline; ``n < 0`` is :func:`splantider`.  Differentiable in
    ``t`` and ``c``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> tck = fi.splrep(np.arange(6.0), np.arange(6.0) ** 2)
    >>> fi.splev(np.array([1.5, 4.0]), fi.splder(tck))  # 2 x
    array([3., 8.])
    """
    n = operator.index(n)
    if isinstance(tck, BSpline):
        return tck.derivative(n) if n >= 0 else tck.antiderivative(-n)
    if n < 0:
        return splantider(tck, -n)
    t, c, k = tck
    t, c, k = _float(t), _float(c), operator.index(k)
    if n > k:
        raise ValueError(f"splder: Order of derivative (n = {n!r}) must be <= order of "
                         f"spline (k = {k!r})")
    if is_concrete(t) and n:
        knots = concrete_values(t, "", "")
        inner = knots[k + 1:knots.shape[0] - k - 1]
        _, repeats = np.unique(inner, return_counts=True)
        if repeats.size and repeats.max() > k - n + 1:  # (a jump below the n-th derivative)
            raise ValueError(f"splder: The spline has internal repeated knots and is not "
                             f"differentiable {n} times")
    count = t.shape[0] - k - 1
    spline = BSpline(t, c[:count], k).derivative(n)
    return spline.t, _padded(spline.c, spline.t.shape[0]), spline.k


def splantider(tck: Any, n: int = 1) -> Any:
    """The spline of the ``n``-th antiderivative of ``tck``, zero at ``t[0]``
    (``scipy.interpolate.splantider``): a tuple ``(t', c', k + n)`` with one knot more
    at each end (``c'`` padded to ``len(t')`` with its last value, as SciPy's) for a
    tuple, a :class:`BSpline` for a BSpline; ``n < 0`` is :func:`splder`.
    Differentiable in ``t`` and ``c``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> tck = fi.splrep(np.arange(6.0), np.arange(6.0) ** 2)
    >>> fi.splev(np.array([3.0]), fi.splantider(tck))  # x**3 / 3
    array([9.])
    """
    n = operator.index(n)
    if isinstance(tck, BSpline):
        return tck.antiderivative(n) if n >= 0 else tck.derivative(-n)
    if n < 0:
        return splder(tck, -n)
    t, c, k = tck
    t, c, k = _float(t), _float(c), operator.index(k)
    count = t.shape[0] - k - 1
    spline = BSpline(t, c[:count], k).antiderivative(n)
    size = spline.t.shape[0]
    last = spline.c[spline.c.shape[0] - 1:]
    tail = fnp.concatenate([last] * (size - spline.c.shape[0])) if n else last[:0]
    return spline.t, fnp.concatenate([spline.c, tail]), spline.k


def _insert_once(x, t, c, k):
    """Boehm's insertion of the knot ``x`` into ``(t, c[:n], k)``: ``n + 1`` coefficients
    and ``len(t) + 1`` knots."""
    count = c.shape[0]
    # the knot interval t[l] <= x < t[l + 1], l from k to count - 1 (FITPACK's search)
    l = fnp.clip(count_below(t, fnp.reshape(x, (1,)), strict=False)[0] - 1, k, count - 1)
    index = np.arange(count + 1)
    low, high = fnp.take(t, np.minimum(index, t.shape[0] - 1)), \
        fnp.take(t, np.minimum(index + k, t.shape[0] - 1))
    span = high - low
    blended = fnp.logical_and(index > l - k, index <= l)
    safe = fnp.where(blended, span, fnp.ones_like(span))  # (no 0/0 where unused)
    weight = fnp.where(blended, (x - low) / safe, fnp.zeros_like(span))
    weight = fnp.where(index <= l - k, fnp.ones_like(span), weight)
    shape = (count + 1,) + (1,) * (c.ndim - 1)
    weight = fnp.reshape(fnp.astype(weight, c.dtype), shape)
    this = fnp.concatenate([c, fnp.zeros_like(c[:1])])
    before = fnp.concatenate([fnp.zeros_like(c[:1]), c])
    new_c = weight * this + (1 - weight) * before
    j = np.arange(t.shape[0] + 1)
    keep = fnp.take(t, np.minimum(j, t.shape[0] - 1))
    shifted = fnp.take(t, np.maximum(j - 1, 0))
    new_t = fnp.where(j <= l, keep, fnp.where(j == l + 1, fnp.astype(x, t.dtype), shifted))
    return new_t, new_c


def insert(x: ArrayLike, tck: Any, m: int = 1, per: int = 0) -> Any:
    """The same spline with the knot ``x`` inserted ``m`` times
    (``scipy.interpolate.insert``): a tuple ``(t', c', k)`` (``c'`` padded with zeros to
    ``len(t')``), a :class:`BSpline` for a BSpline, or for a curve of :func:`splprep` a
    list of coefficient arrays.  ``x`` must lie in ``[t[k], t[n - k - 1]]``.
    Differentiable in ``x``, ``t`` and ``c``; ``per=1`` raises ``NotImplementedError``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> tck = fi.splrep(np.arange(6.0), np.arange(6.0) ** 2)
    >>> t, c, k = fi.insert(2.5, tck)
    >>> len(t), fi.splev(np.array([2.5]), (t, c, k))
    (11, array([6.25]))
    """
    if per:
        raise NotImplementedError("insert: periodic splines (per=1) are not implemented; "
                                  "pass per=0")
    m = operator.index(m)
    if m < 1:
        raise ValueError(f"insert: m={m} must be at least 1")
    is_bspline = isinstance(tck, BSpline)
    if is_bspline and tck.extrapolate == "periodic":
        raise NotImplementedError("insert: periodic BSplines are not implemented")
    t, c, k = _tck("insert", tck) if not is_bspline else (tck.t, tck.c, tck.k)
    if isinstance(c, list):
        parts = [insert(x, (t, ci, k), m) for ci in c]
        return parts[0][0], [p[1] for p in parts], k
    t, c, x = _float(t), _float(c), _float(x)
    if x.ndim:
        raise ValueError(f"insert: x must be a scalar, got shape {tuple(x.shape)}")
    count = t.shape[0] - k - 1
    if is_concrete(x) and is_concrete(t):
        knots, point = concrete_values(t, "", ""), float(concrete_values(x, "", ""))
        if not knots[k] <= point <= knots[count]:
            raise ValueError(f"insert: Invalid input data: x={point} must lie in "
                             f"[t[k], t[n-k-1]] = [{knots[k]}, {knots[count]}]")
    c = c[:count]
    for _ in range(m):
        t, c = _insert_once(x, t, c, k)
    if is_bspline:
        return BSpline(t, c, k, tck.extrapolate, tck.axis)
    return t, _padded(c, t.shape[0]), k


def spalde(x: ArrayLike, tck: Any) -> Any:
    """All the derivatives of orders ``0`` to ``k`` of the spline ``tck`` at ``x``
    (``scipy.interpolate.spalde``): an array of ``k + 1`` values for one point, a list of
    them for several (and a list per coordinate for a curve of :func:`splprep`).  ``x``
    must lie in ``[t[k], t[n - k - 1]]``.  Differentiable in ``x``, ``t`` and ``c``.

    >>> import numpy as np, funcgrad.scipy.interpolate as fi
    >>> tck = fi.splrep(np.arange(6.0), np.arange(6.0) ** 2)
    >>> fi.spalde(2.0, tck)  # x**2 and its derivatives
    array([4., 4., 2., 0.])
    """
    if isinstance(tck, BSpline):
        raise TypeError("spalde: spalde does not accept BSpline instances; pass "
                        "(spline.t, spline.c, spline.k) or evaluate spline(x, nu)")
    t, c, k = _tck("spalde", tck)
    if isinstance(c, list):
        return [spalde(x, (t, ci, k)) for ci in c]
    t, c, x = _float(t), _float(c), _float(x)
    flat = fnp.reshape(x, (-1,))
    count = t.shape[0] - k - 1
    if is_concrete(flat) and is_concrete(t):
        knots, points = concrete_values(t, "", ""), concrete_values(flat, "", "")
        if np.any((points < knots[k]) | (points > knots[count])):
            raise TypeError("spalde: Invalid input data. t(k)<=x<=t(n-k+1) must hold.")
    spline = BSpline(t, c[:count], k)
    rows = fnp.stack([spline(flat, nu) for nu in range(k + 1)], axis=1)
    if flat.shape[0] == 1:
        return rows[0]
    return [rows[i] for i in range(flat.shape[0])]


def sproot(tck: Any, mest: int = 10) -> Any:
    """The zeros of the cubic spline ``tck`` (``scipy.interpolate.sproot``; a tuple or a
    1-d :class:`BSpline`; a list per coordinate for a curve).  The zeros are SciPy's
    (FITPACK's search on the values); each is differentiated in ``t`` and ``c`` by the
    implicit function theorem, ``dr = -ds(r) / s'(r)``, to any order.  How many zeros
    there are depends on the values, so under ``vmap``/``jit`` it raises.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.interpolate as fi
    >>> x = np.linspace(0.0, 3.0, 7)
    >>> roots = lambda y: fi.sproot(fi.splrep(x, y))
    >>> roots(x - 1.5)
    array([1.5])
    >>> fg.jacobian(roots)(x - 1.5)[0, 3]  # (the spline through 0 at 1.5: a unit step)
    np.float64(-1.0)
    """
    t, c, k = _tck("sproot", tck)
    if k != 3:
        raise ValueError("sproot: sproot works only for cubic (k=3) splines")
    if isinstance(c, list):
        return [sproot((t, ci, k), mest) for ci in c]
    t, c = _float(t), _float(c)
    if t.shape[0] < 8:
        raise TypeError(f"sproot: The number of knots {t.shape[0]}>=8")
    count = t.shape[0] - k - 1
    why = "sproot's zeros (their number depends on the values)"
    fix = "Call sproot outside vmap and jit."
    knots = np.asarray(concrete_values(t, why, fix), np.float64)
    coefficients = np.asarray(concrete_values(c, why, fix), np.float64)
    from scipy.interpolate import sproot as scipy_sproot  # (here: importing funcgrad
    # never loads SciPy)
    padded = np.concatenate([coefficients[:count], np.zeros(t.shape[0] - count)])
    found = np.asarray(scipy_sproot((knots, padded, 3), mest), np.float64)
    if found.size == 0:
        return fnp.zeros((0,), c.dtype) + fnp.sum(c[:0])  # (on c's device, no zeros)
    spline = BSpline(t, c[:count], k)
    guess = found.astype(c.dtype)
    return custom_root(lambda r: spline(r), guess, lambda f, r: r,
                       lambda g, y: y / g(fnp.ones_like(y)))
