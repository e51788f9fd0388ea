"""``funcgrad.numpy.linalg``: NumPy's ``numpy.linalg``, differentiable, stacks of
matrices wherever NumPy takes them.

Here: inv, solve, det, slogdet, cholesky and the norms (norm, matrix_norm, vector_norm,
cond); the factorizations (svd, eigh, eig, qr, pinv, lstsq...) live in
:mod:`._factorizations`, the products (matrix_power, multi_dot, tensorsolve...) in
:mod:`._linalg_products`.  Derivatives at degenerate points (equal singular values or
eigenvalues, rank deficiency) are described in each function's docstring.
"""
from collections import namedtuple
from typing import Any

import numpy as np
from numpy.linalg import LinAlgError  # noqa: F401 - NumPy's exception, re-exported

from ..primitives import decompositions as _dec
from ..primitives import linalg as _la
from . import _factorizations, _linalg_products
from ._convert import asarray, normalize_axis
from ._factorizations import (EighResult, EigResult, LstsqResult, QRResult,  # noqa: F401
                              SVDResult, eig, eigh, eigvals, eigvalsh, lstsq, matrix_rank,
                              pinv, qr, svd, svdvals)
from ._linalg_products import (cross, diagonal, matmul, matrix_power,  # noqa: F401
                               matrix_transpose, multi_dot, outer, tensordot, tensorinv,
                               tensorsolve, trace, vecdot)
from .constructors import astype
from .reductions import max as _max, min as _min, sum as _sum
from .manipulation import expand_dims, moveaxis, ravel, reshape, squeeze
from .ufuncs import abs as _abs, abs_square, conj, not_equal, sqrt
from ..typing import Array, ArrayLike, Axis, PyTree

__all__ = (["inv", "solve", "det", "slogdet", "cholesky", "norm", "matrix_norm",
            "vector_norm", "cond", "LinAlgError"]
           + [n for n in _factorizations.__all__ if not n.endswith("Result")]
           + _linalg_products.__all__)

SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])


def inv(a: ArrayLike) -> Array:
    """Inverse of a square matrix (or a stack of them).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]]))
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return _la.inv(_float(asarray(a)))


def solve(a: ArrayLike, b: ArrayLike) -> Array:
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


def det(a: ArrayLike) -> Array:
    """Determinant; its gradient is ``det(a) * inv(a).T`` (undefined where singular).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.linalg.det)(np.array([[2.0, 0.0], [0.0, 4.0]]))
    array([[4., 0.],
           [0., 2.]])
    """
    return _la.det(_float(asarray(a)))


def slogdet(a: ArrayLike) -> SlogdetResult:
    """``(sign, logabsdet)``, a stable log-determinant; only ``logabsdet`` is differentiable.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> sign, logdet = fnp.linalg.slogdet(np.array([[-2.0, 0.0], [0.0, 4.0]]))
    >>> float(sign), round(float(logdet), 6)
    (-1.0, 2.079442)
    """
    sign, logdet = _la.slogdet(_float(asarray(a)))
    return SlogdetResult(sign, logdet)


def cholesky(a: ArrayLike, upper: bool = False) -> Array:
    """Lower Cholesky factor ``L`` of a Hermitian (real: symmetric) positive-definite
    matrix, ``a == L @ L^H`` (``upper=True``: ``U = L^H``, ``a == U^H @ U``).

    As NumPy's, only the lower (``upper=True``: upper) triangle of ``a`` is read, and the
    real part of its diagonal; the other triangle's entries get a zero derivative.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 2.0]]))
    array([[2., 0.],
           [1., 1.]])
    """
    # As NumPy's, only one triangle is read (the lower one; ``upper=True``: the upper one),
    # and of the diagonal only its real part: the other triangle gets a zero derivative.
    a = _factorizations._matrices("cholesky", a, square=True)
    low = _la.cholesky(_factorizations._mirrored(a, not upper))
    return conj(_la.swap(low)) if upper else low  # (L^H: the conjugate too, if complex)


def norm(x: ArrayLike, ord: Any = None, axis: Axis = None, keepdims: bool = False) -> Array:  # noqa: A002 - NumPy's name
    """Vector and matrix norms as ``np.linalg.norm``, every ``ord``.

    The 2-norm's gradient ``x / norm(x)`` is undefined at ``x = 0`` (NaN, as in JAX).
    The matrix norms ``ord=2, -2, 'nuc'`` go through the singular values (see
    :func:`svdvals`): ``2``/``-2`` are differentiable where the largest/smallest singular
    value is simple, ``'nuc'`` where the matrix has full rank.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> float(fnp.linalg.norm(np.array([3.0, 4.0])))
    5.0
    >>> fg.grad(fnp.linalg.norm)(np.array([3.0, 4.0]))
    array([0.6, 0.8])
    """
    x = _float(asarray(x))
    if axis is None:
        if ord is None or (ord in ("f", "fro") and x.ndim == 2) or (ord == 2 and x.ndim == 1):
            out = sqrt(_sum(abs_square(ravel(x))))
            return reshape(out, (1,) * x.ndim) if keepdims else out
        axes = tuple(range(x.ndim))
    else:  # in the order given: norm(m, 1, axis=(1, 0)) is the 1-norm of m.T, as NumPy
        axes = tuple(int(a) for a in (axis if isinstance(axis, tuple) else (axis,)))
        normalize_axis(axes, x.ndim)  # (bounds and repeats)
        axes = tuple(a % x.ndim for a in axes)
    if len(axes) == 1:
        ax = axes
        a = _abs(x)
        if ord is None or ord == 2:
            out = sqrt(_sum(abs_square(x), axis=ax, keepdims=keepdims))
        elif isinstance(ord, str):
            raise ValueError(f"norm: invalid norm order {ord!r} for vectors; use a number")
        elif ord == np.inf:
            reduce = _max if x.shape[ax[0]] else _sum  # (empty: 0, NumPy's initial=0)
            out = reduce(a, axis=ax, keepdims=keepdims)
        elif ord == -np.inf:
            out = _min(a, axis=ax, keepdims=keepdims)
        elif ord == 0:
            out = _sum(astype(not_equal(x, 0), a.dtype), axis=ax, keepdims=keepdims)
        elif ord == 1:
            out = _sum(a, axis=ax, keepdims=keepdims)
        else:
            out = _sum(a ** float(ord), axis=ax, keepdims=keepdims) ** (1.0 / ord)
        return out
    if len(axes) == 2:
        r, c = axes
        a = _abs(x)
        if ord is None or ord in ("f", "fro"):
            out = sqrt(_sum(abs_square(x), axis=axes))
        elif ord in (1, -1):  # the largest (smallest) column sum, columns along c
            out = (_max if ord == 1 else _min)(_sum(a, axis=r), axis=c - (c > r))
        elif ord in (np.inf, -np.inf):  # the largest (smallest) row sum
            out = (_max if ord == np.inf else _min)(_sum(a, axis=c), axis=r - (r > c))
        elif ord in (2, -2, "nuc"):
            out = _singular_value_norm(x, ord, r, c, False)
        else:
            raise ValueError(f"norm: invalid norm order {ord!r} for matrices; use 'fro', "
                             "'nuc', 1, -1, 2, -2, inf or -inf")
        return expand_dims(out, tuple(sorted(axes))) if keepdims else out
    raise ValueError(f"norm: improper number of axes {axes}: give one (vector) or two (matrix)")


def _float(a):
    if a.dtype.kind in "biu":
        return astype(a, np.float64)
    return a


def _singular_value_norm(x, ord, r, c, keepdims):  # noqa: A002 - NumPy's name
    """The norms made of singular values, of the matrices spanned by axes ``r`` and ``c``."""
    s = _dec.svdvals(_float(moveaxis(x, (r, c), (-2, -1))))
    if ord == 2:
        out = _max(s, axis=-1)
    elif ord == -2:
        out = _min(s, axis=-1)
    else:
        out = _sum(s, axis=-1)
    if keepdims:
        out = expand_dims(out, tuple(sorted((r, c))))
    return out


def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord: str = "fro") -> Array:  # noqa: A002 - NumPy's name
    """Norms of the matrices in the last two axes (``ord`` as :func:`norm`'s).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.linalg.matrix_norm(np.stack([np.eye(2), 3 * np.eye(2)]), ord=2)
    array([1., 3.])
    """
    x = asarray(x)
    if x.ndim < 2:
        # (NumPy's AxisError, a ValueError: the matrix axes -2 and -1 are not there)
        raise np.exceptions.AxisError(f"axis -2 is out of bounds for array of dimension "
                                      f"{x.ndim}: matrix_norm needs a matrix (at least 2-d); "
                                      f"use vector_norm for a vector")
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def vector_norm(x: ArrayLike, /, *, axis: Axis = None, keepdims: bool = False,
                ord: int = 2) -> Array:  # noqa: A002 - NumPy's name
    """Vector norms along ``axis`` (``None``: all of ``x`` flattened; a tuple: those axes
    taken together as one vector).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.linalg.vector_norm(np.array([[3.0, 0.0], [0.0, 4.0]])))
    5.0
    """
    x = _float(asarray(x))
    if axis is None:
        out = norm(ravel(x), ord=ord, axis=0)
        return reshape(out, (1,) * x.ndim) if keepdims else out
    axes = normalize_axis(axis, x.ndim)
    if len(axes) == 1:
        return norm(x, ord=ord, axis=axes[0], keepdims=keepdims)
    rest = [i for i in range(x.ndim) if i not in axes]
    moved = moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim)))
    flat = reshape(moved, tuple(x.shape[i] for i in rest) + (-1,))
    out = norm(flat, ord=ord, axis=-1)
    return expand_dims(out, tuple(sorted(axes))) if keepdims else out


def cond(x: ArrayLike, p: ArrayLike | None = None) -> PyTree:
    """Condition number of (stacked) matrices: ``p`` ``None``/2/-2 from the singular values
    (``s.max() / s.min()``), else ``norm(x, p) * norm(inv(x), p)`` (square matrices).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.linalg.cond(np.array([[2.0, 0.0], [0.0, 0.5]])))
    4.0
    """
    x = _float(asarray(x))
    if x.ndim < 2:
        raise LinAlgError(f"cond: {x.ndim}-dimensional array given. Array must be at least "
                          f"two-dimensional")
    if x.size == 0:
        raise LinAlgError("cond is not defined on empty arrays (NumPy's words)")
    if p is None or p == 2 or p == -2:
        s = _dec.svdvals(x)
        big, small = s[..., 0], s[..., -1]
        if type(s) is np.ndarray:
            with np.errstate(divide="ignore", invalid="ignore"):
                return small / big if p == -2 else big / small
        return small / big if p == -2 else big / small
    _la._check_square("cond", x)
    if type(x) is np.ndarray:
        try:
            _la.inv(x)
        except LinAlgError:  # singular: NumPy's answer, infinity
            return np.linalg.cond(x, p)
    return (norm(x, p, axis=(-2, -1)) * norm(_la.inv(x), p, axis=(-2, -1)))
