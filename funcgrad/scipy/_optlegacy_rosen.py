"""SciPy's Rosenbrock test function and its closed-form derivatives, written with
``funcgrad.numpy`` so that each is itself differentiable, batches under ``vmap`` and
traces under ``jit``; float32 stays float32.

``f(x) = sum_i 100 (x[i+1] - x[i]**2)**2 + (1 - x[i])**2``; its minimum is 0 at all ones.
"""
from typing import Any

from .. import numpy as fnp
from ..typing import ArrayLike

__all__ = ["rosen", "rosen_der", "rosen_hess", "rosen_hess_prod"]


def rosen(x: ArrayLike) -> Any:
    """The Rosenbrock function, summed along the first axis (SciPy's convention: an
    ``(n, k)`` array gives ``k`` values).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import rosen, rosen_der
    >>> x = np.array([0.1, 0.7, 0.8, 1.3])
    >>> float(rosen(x))
    101.72
    >>> np.allclose(fg.grad(rosen)(x), rosen_der(x))
    True
    """
    x = fnp.asarray(x)
    head, tail = x[:-1], x[1:]
    return fnp.sum(100.0 * (tail - head ** 2.0) ** 2.0 + (1 - head) ** 2.0, axis=0)


def rosen_der(x: ArrayLike) -> Any:
    """The gradient of :func:`rosen` of a 1-D ``x`` (length 2 or more), in closed form.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import rosen_der
    >>> rosen_der(np.array([1.0, 1.0, 1.0]))
    array([0., 0., 0.])
    >>> rosen_der(np.array([0.0, 0.0]))
    array([-2.,  0.])
    """
    x = _vector(x, "rosen_der")
    head, tail = x[:-1], x[1:]
    # d/dx[i] of the term that starts at i (x[i] as head), and of the one that ends there
    as_head = -400.0 * head * (tail - head ** 2) - 2.0 * (1 - head)
    as_tail = 200.0 * (tail - head ** 2)
    zero = fnp.zeros(1, x.dtype)
    return fnp.concatenate([as_head, zero]) + fnp.concatenate([zero, as_tail])


def rosen_hess(x: ArrayLike) -> Any:
    """The Hessian of :func:`rosen` of a 1-D ``x`` (length 2 or more): a tridiagonal
    ``(n, n)`` matrix, in closed form.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import rosen_hess
    >>> rosen_hess(np.array([1.0, 1.0]))
    array([[ 802., -400.],
           [-400.,  200.]])
    """
    x = _vector(x, "rosen_hess")
    off = -400.0 * x[:-1]
    return fnp.diag(_diagonal(x)) + fnp.diag(off, 1) + fnp.diag(off, -1)


def rosen_hess_prod(x: ArrayLike, p: ArrayLike) -> Any:
    """The product of :func:`rosen_hess` at ``x`` with the vector ``p``, without forming the
    matrix.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import rosen_hess_prod
    >>> rosen_hess_prod(np.array([1.0, 1.0]), np.array([1.0, 0.0]))
    array([ 802., -400.])
    """
    x = _vector(x, "rosen_hess_prod")
    p = fnp.asarray(p)
    if p.shape != x.shape:
        raise ValueError(f"rosen_hess_prod: p has shape {p.shape}, x has shape {x.shape}: "
                         "p must be a vector of x's length")
    zero = fnp.zeros(1, x.dtype)
    off = -400.0 * x[:-1]
    # row i takes off[i - 1] p[i - 1] from below the diagonal and off[i] p[i + 1] above it
    return (_diagonal(x) * p + fnp.concatenate([zero, off * p[:-1]])
            + fnp.concatenate([off * p[1:], zero]))


def _diagonal(x):
    """The Hessian's diagonal: 1200 x[i]**2 - 400 x[i+1] + 2 from the term that starts at
    i, plus 200 from the one that ends there."""
    zero = fnp.zeros(1, x.dtype)
    starts = 1200.0 * x[:-1] ** 2 - 400.0 * x[1:] + 2.0
    return fnp.concatenate([starts, zero]) + fnp.concatenate([zero, fnp.full(
        x.shape[0] - 1, 200.0, x.dtype)])


def _vector(x, name):
    x = fnp.asarray(x)
    if x.ndim != 1 or x.shape[0] < 2:
        raise ValueError(f"{name}: x must be a 1-D array of length 2 or more (the "
                         f"Rosenbrock function couples neighbours), got shape {x.shape}")
    return x
