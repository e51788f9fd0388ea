"""Functions of whole axes, as ``jax.nn`` defines them: ``softmax``, ``log_softmax``,
``logsumexp``, ``logmeanexp``, ``standardize`` and ``one_hot``.

``where=`` masks (JAX's argument) take elements out of a reduction: masked-out entries
never reach ``exp`` of a large number, and receive a zero derivative.  The shift by the
maximum that keeps ``exp`` from overflowing carries no derivative (it cancels), as in
JAX; ``softmax`` has JAX's custom derivative ``y * (t - sum(y * t))``, which is also
what keeps the derivative of a row masked out entirely at zero, not NaN.
"""
import operator

import numpy as np

from .. import numpy as fnp
from ..custom import custom_vjp
from ..numpy._convert import normalize_axis
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike, Axis, DTypeLike
from ._activations import inexact

__all__ = ["softmax", "log_softmax", "logsumexp", "logmeanexp", "standardize", "one_hot"]

_INF = float("inf")


def _mask(where):
    """A ``where=`` argument as a boolean array, or None."""
    if where is None:
        return None
    where = fnp.asarray(where)
    return where if where.dtype.kind == "b" else where != 0


def _masked_sum(x, axes, where):
    return fnp.sum(x if where is None else fnp.where(where, x, 0), axis=axes, keepdims=True)


def _masked_max(x, axes, where):
    return fnp.max(x if where is None else fnp.where(where, x, -_INF), axis=axes,
                   keepdims=True)


def _count(x, axes, where):
    """How many elements a reduction over ``axes`` takes in (per output element)."""
    if where is None:
        n = 1
        for ax in axes:
            n *= x.shape[ax]
        return n
    return fnp.sum(fnp.broadcast_to(where, x.shape), axis=axes, keepdims=True)


def _squeezed(x, axes, keepdims):
    return x if keepdims else fnp.squeeze(x, axis=axes)


# --- softmax: JAX's derivative, as a custom rule -----------------------------------------------

def _softmax_value(x, axes, where):
    if where is None:
        unnormalized = fnp.exp(x - fnp.max(x, axis=axes, keepdims=True))
        return unnormalized / fnp.sum(unnormalized, axis=axes, keepdims=True)
    unnormalized = fnp.exp(fnp.where(where, x, -_INF) - _masked_max(x, axes, where))
    return fnp.where(where, unnormalized / _masked_sum(unnormalized, axes, where), 0.0)


def _softmax_tangent(y, t, axes):
    return y * (t - fnp.sum(y * t, axis=axes, keepdims=True))


_softmax = custom_vjp(_softmax_value, nondiff_argnums=(1,))
_softmax.__name__ = "softmax"  # (its node in an eager Tensor's graph, and its errors)


def _softmax_fwd(x, axes, where):
    y = _softmax_value(x, axes, where)
    return y, y


def _softmax_bwd(axes, y, g):
    # (softmax is self-adjoint: the VJP has the JVP's formula)
    return _softmax_tangent(y, g, axes), None


def _softmax_jvp(axes, primals, tangents):
    x, where = primals
    y = _softmax_value(x, axes, where)
    return y, _softmax_tangent(y, tangents[0], axes)


_softmax.defvjp(_softmax_fwd, _softmax_bwd)
_softmax.defjvp(_softmax_jvp)


def softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``exp(x) / sum(exp(x))`` along ``axis`` (an int, a tuple, or None for all axes):
    along it the result sums to 1.  ``where``: the elements taken in; the others come
    out 0.

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.softmax(np.array([0.0, 0.0, 1000.0]))
    array([0., 0., 1.])
    >>> nn.softmax(np.array([1.0, 1.0, 5.0]), where=np.array([True, True, False]))
    array([0.5, 0.5, 0. ])
    """
    x = inexact(x)
    return _softmax(x, normalize_axis(axis, x.ndim), _mask(where))


def log_softmax(x: ArrayLike, axis: Axis = -1, where: ArrayLike | None = None) -> Array:
    """``x - logsumexp(x)`` along ``axis``, without overflow; masked-out elements
    (``where``) come out ``-inf``.

    >>> import numpy as np, funcgrad as fg, funcgrad.nn as nn
    >>> nn.log_softmax(np.array([0.0, 1000.0]))
    array([-1000.,     0.])
    >>> fg.grad(lambda x: nn.log_softmax(x)[0])(np.array([0.0, 0.0]))
    array([ 0.5, -0.5])
    """
    x = inexact(x)
    axes = normalize_axis(axis, x.ndim)
    where = _mask(where)
    safe = x if where is None else fnp.where(where, x, -_INF)
    shifted = safe - stop_gradient(_masked_max(x, axes, where))
    result = shifted - fnp.log(_masked_sum(fnp.exp(shifted), axes, where))
    return result if where is None else fnp.where(where, result, -_INF)


def logsumexp(a: ArrayLike, axis: Axis = None, b: ArrayLike | None = None,
              keepdims: bool = False, return_sign: bool = False,
              where: ArrayLike | None = None) -> Array | tuple[Array, Array]:
    """``log(sum(b * exp(a)))`` over ``axis`` without overflow (JAX's
    ``jax.nn.logsumexp``, SciPy's signature plus ``where``).  Weights ``b`` may be
    negative: a negative sum gives NaN, or with ``return_sign=True`` the pair
    ``(log|sum|, sign(sum))``.  The derivative (softmax) stays finite for entries of
    any size.

    >>> import numpy as np, funcgrad as fg, funcgrad.nn as nn
    >>> float(nn.logsumexp(np.array([1000.0, 1000.0]))) == 1000.0 + float(np.log(2.0))
    True
    >>> fg.grad(nn.logsumexp)(np.array([-1000.0, 1000.0]))
    array([0., 1.])
    >>> nn.logsumexp(np.array([0.0, 0.0]), b=np.array([1.0, -2.0]), return_sign=True)
    (array(0.), array(-1.))
    """
    a = inexact(a)
    axes = normalize_axis(axis, a.ndim)
    where = _mask(where)
    if b is None and where is None and not return_sign and a.dtype.kind == "f":
        return fnp.logsumexp(a, axis=axes, keepdims=keepdims)  # one fused primitive
    if where is not None:
        a = fnp.where(where, a, 0.0)
    if b is not None:
        b = fnp.asarray(b)
        a = fnp.where(b != 0, a, -_INF)  # (log 0: the term drops out, whatever a is)
    real = a.real if a.dtype.kind == "c" else a
    top = _masked_max(real, axes, where)
    top = stop_gradient(fnp.where(fnp.isfinite(top), top, 0.0))
    terms = fnp.exp(a - top)
    if b is not None:
        terms = terms * b
    total = _masked_sum(terms, axes, where)
    sign = fnp.sign(total)
    if return_sign or total.dtype.kind != "c":
        total = fnp.abs(total)
    out = _squeezed(fnp.log(total) + top, axes, keepdims)
    sign = _squeezed(sign, axes, keepdims)
    if return_sign:
        return out, sign
    if b is not None and out.dtype.kind != "c":
        out = fnp.where(sign < 0, np.nan, out)
    return out


def logmeanexp(x: ArrayLike, axis: Axis = None, where: ArrayLike | None = None,
               keepdims: bool = False) -> Array:
    """``log(mean(exp(x)))`` over ``axis`` = ``logsumexp(x) - log(n)``, ``n`` the number of
    elements taken in.

    >>> import numpy as np, funcgrad.nn as nn
    >>> float(nn.logmeanexp(np.array([1000.0, 1000.0])))
    1000.0
    """
    x = inexact(x)
    axes = normalize_axis(axis, x.ndim)
    where = _mask(where)
    lse = logsumexp(x, axis=axes, keepdims=True, where=where)
    count = fnp.astype(fnp.asarray(_count(x, axes, where)), lse.dtype)
    return _squeezed(lse - fnp.log(count), axes, keepdims)


def standardize(x: ArrayLike, axis: Axis = -1, mean: ArrayLike | None = None,
                variance: ArrayLike | None = None, epsilon: ArrayLike = 1e-5,
                where: ArrayLike | None = None, *, algorithm: str = "fast") -> Array:
    """``(x - mean) / sqrt(variance + epsilon)`` along ``axis`` (mean and variance of
    ``x`` over the elements ``where`` selects, unless given).  ``algorithm="fast"``
    (JAX's default) takes the variance as ``mean(x**2) - mean**2`` clipped at 0,
    ``"stable"`` as ``mean((x - mean)**2)``.

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.standardize(np.array([1.0, 3.0]), epsilon=0.0)
    array([-1.,  1.])
    """
    if algorithm not in ("fast", "stable"):
        raise ValueError(f"standardize: unknown algorithm {algorithm!r}; use 'fast' "
                         f"(mean(x**2) - mean**2) or 'stable' (mean((x - mean)**2))")
    x = inexact(x)
    axes = normalize_axis(axis, x.ndim)
    where = _mask(where)

    def average(v):
        return _masked_sum(v, axes, where) / _count(v, axes, where)

    if mean is None:
        mean = average(x)
    if variance is None:
        if algorithm == "stable":
            variance = average(fnp.square(x - mean))
        else:
            # (one pass; rounding can make it slightly negative, hence the clip)
            variance = fnp.maximum(average(fnp.square(x)) - fnp.square(mean), 0.0)
    return (x - mean) / fnp.sqrt(variance + epsilon)


def one_hot(x: ArrayLike, num_classes: int, *, dtype: DTypeLike | None = None,
            axis: int | str = -1) -> Array:
    """Indices ``x`` as one-hot vectors of length ``num_classes``, along a new axis
    ``axis`` of the result; indices outside ``[0, num_classes)`` give all zeros.  An
    ``axis`` that names a vmap axis (``fg.vmap(..., axis_name=...)``) of size
    ``num_classes`` puts the classes along it: each example gets ``x == its index``.
    ``dtype`` defaults to float64 (JAX's default float with 64-bit types).  Not
    differentiable (its input is indices).

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.one_hot(np.array([0, 2, 5]), 3)
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 0., 0.]])
    """
    try:
        num_classes = operator.index(num_classes)
    except TypeError:
        raise TypeError(f"one_hot: num_classes must be a Python int (it sets the shape of "
                        f"the result), got {type(num_classes).__name__}") from None
    x = fnp.asarray(x)
    if isinstance(axis, str):  # a vmap axis name: the position along it is the class
        from ..lax import _collectives
        return _collectives.one_hot_along(x, num_classes, axis,
                                          np.float64 if dtype is None else dtype)
    position = normalize_axis(axis, x.ndim + 1)[0]
    shape = [1] * x.ndim
    shape.insert(position, num_classes)
    classes = np.arange(num_classes).reshape(shape)
    hot = fnp.expand_dims(x, position) == classes
    return fnp.astype(hot, np.float64 if dtype is None else dtype)
