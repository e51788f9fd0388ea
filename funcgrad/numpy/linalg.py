"""``funcgrad.numpy.linalg``: differentiable ``inv``, ``solve``, ``det``,
``slogdet``, ``cholesky`` and ``norm`` (stacks of matrices supported)."""
from collections import namedtuple

import numpy as np

from ..primitives import linalg as _la
from ._convert import asarray, normalize_axis
from .constructors import astype
from .reductions import max as _max, min as _min, sum as _sum
from .manipulation import ravel, squeeze
from .ufuncs import abs as _abs, abs_square, not_equal, sqrt

__all__ = ["inv", "solve", "det", "slogdet", "cholesky", "norm"]

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])


def inv(a):
    """Inverse of a square matrix (or a stack of them).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return _la.inv(_float(asarray(a)))


def solve(a, b):
    """``x`` with ``a @ x == b``; ``b`` is one vector only when it is 1-d (NumPy 2).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([1.0, 1.0]))
    array([0.5 , 0.25])
    """
    a, b = _float(asarray(a)), _float(asarray(b))
    _la._check_square("solve", a)
    rows = b.shape[0] if b.ndim == 1 else b.shape[-2]
    if rows != a.shape[-1]:
        raise ValueError(f"solve: a has shape {a.shape} but b has shape {b.shape}: b needs "
                         f"{a.shape[-1]} rows")
    return _la.solve(a, b)


def det(a):
    """Determinant; its gradient is ``det(a) * inv(a).T`` (undefined where singular).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.linalg.det)(np.array([[2.0, 0.0], [0.0, 4.0]]))
    array([[4., 0.],
           [0., 2.]])
    """
    return _la.det(_float(asarray(a)))


def slogdet(a):
    """``(sign, logabsdet)``, a stable log-determinant; only ``logabsdet`` is differentiable.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> sign, logdet = fnp.linalg.slogdet(np.array([[-2.0, 0.0], [0.0, 4.0]]))
    >>> float(sign), round(float(logdet), 6)
    (-1.0, 2.079442)
    """
    sign, logdet = _la.slogdet(_float(asarray(a)))
    return SlogdetResult(sign, logdet)


def cholesky(a, upper=False):
    """Lower Cholesky factor of a symmetric positive-definite matrix (``upper=True``: its
    transpose).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 2.0]]))
    array([[2., 0.],
           [1., 1.]])
    """
    low = _la.cholesky(_float(asarray(a)))
    return _la.swap(low) if upper else low


def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - NumPy's name
    """Vector and matrix norms as ``np.linalg.norm`` (matrix 2/nuc norms excepted).

    The 2-norm's gradient ``x / norm(x)`` is undefined at ``x = 0`` (NaN, as in JAX).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.linalg.norm(np.array([3.0, 4.0])))
    5.0
    >>> fg.grad(fnp.linalg.norm)(np.array([3.0, 4.0]))
    array([0.6, 0.8])
    """
    x = asarray(x)
    if axis is None:
        if ord is None:
            return sqrt(_sum(abs_square(ravel(x))))
        axes = tuple(range(x.ndim))
    else:
        axes = normalize_axis(axis, x.ndim)
    if len(axes) == 1:
        ax = axes
        a = _abs(x)
        if ord is None or ord == 2:
            out = sqrt(_sum(abs_square(x), axis=ax, keepdims=keepdims))
        elif ord == np.inf:
            out = _max(a, axis=ax, keepdims=keepdims)
        elif ord == -np.inf:
            out = _min(a, axis=ax, keepdims=keepdims)
        elif ord == 0:
            out = _sum(astype(not_equal(x, 0), x.dtype), axis=ax, keepdims=keepdims)
        elif ord == 1:
            out = _sum(a, axis=ax, keepdims=keepdims)
        else:
            out = _sum(a ** float(ord), axis=ax, keepdims=keepdims) ** (1.0 / ord)
        return out
    if len(axes) == 2:
        r, c = axes
        a = _abs(x)
        if ord is None or ord == "fro":
            out = sqrt(_sum(abs_square(x), axis=axes, keepdims=keepdims))
        elif ord in (1, -1):
            s = _sum(a, axis=r, keepdims=True)
            out = (_max if ord == 1 else _min)(s, axis=c, keepdims=True)
            out = out if keepdims else squeeze(out, axis=axes)
        elif ord in (np.inf, -np.inf):
            s = _sum(a, axis=c, keepdims=True)
            out = (_max if ord == np.inf else _min)(s, axis=r, keepdims=True)
            out = out if keepdims else squeeze(out, axis=axes)
        else:
            raise NotImplementedError(
                f"norm: the matrix norm ord={ord!r} needs singular values, which funcgrad does "
                "not differentiate yet; use ord='fro', 1, -1, inf or -inf")
        return out
    raise ValueError(f"norm: improper number of axes {axes}: give one (vector) or two (matrix)")


def _float(a):
    if a.dtype.kind in "biu":
        return astype(a, np.float64)
    return a
