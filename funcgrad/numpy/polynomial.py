"""NumPy's polynomial functions on coefficient arrays (highest power first): polyder,
polyint, polyadd, polysub, polymul, vander, polyfit.  (``polyval`` lives with the products.)
"""
import numpy as _np

from ._convert import asarray, concrete_values
from .constructors import astype
from .linalg import solve
from .manipulation import atleast_1d, broadcast_to, concatenate, reshape, transpose
from .products import matmul
from .reductions import cumprod, sum
from .signal import convolve
from .ufuncs import add, divide, multiply, sqrt, subtract

__all__ = ["polyder", "polyint", "polyadd", "polysub", "polymul", "vander", "polyfit"]


def polyder(p, m=1):
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


def polyint(p, m=1, k=None):
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


def polyadd(a1, a2):
    """``np.polyadd(a1, a2)``: the sum of two polynomials.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polyadd(np.array([1.0, 2.0]), np.array([9.0, 5.0, 4.0]))
    array([9., 6., 6.])
    """
    return add(*_aligned(a1, a2))


def polysub(a1, a2):
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
    return a[int(start):] if values.shape[0] else a


def polymul(a1, a2):
    """``np.polymul(a1, a2)``: the product of two polynomials (leading zero coefficients
    dropped, as NumPy; their count depends on values, so under ``vmap``/``jit`` use
    ``fnp.convolve``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.polymul(np.array([1.0, 2.0, 3.0]), np.array([9.0, 5.0, 1.0]))
    array([ 9., 23., 38., 17.,  3.])
    """
    return convolve(_strip(a1), _strip(a2))


def vander(x, N=None, increasing=False):  # noqa: N803 - NumPy's name
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


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
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
        lhs = multiply(lhs, reshape(w, (w.shape[0], 1)))
        rhs = multiply(rhs, w) if rhs.ndim == 1 else multiply(rhs, reshape(w, (w.shape[0], 1)))
    scale = sqrt(sum(multiply(lhs, lhs), axis=0))
    lhs = divide(lhs, scale)
    gram = matmul(transpose(lhs), lhs)
    c = solve(gram, matmul(transpose(lhs), rhs))
    return divide(c, scale) if c.ndim == 1 else divide(c, reshape(scale, (order, 1)))


