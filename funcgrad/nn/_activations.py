"""Elementwise activation functions, as ``jax.nn`` defines them.

Each is a few ``funcgrad.numpy`` operations, so every transform differentiates it; where
a formula would lose precision or give NaN derivatives the choice of operations avoids
it (``softplus`` as ``logaddexp``, the double-``where`` idiom in ``elu`` and
``log1mexp``).  Kinks get JAX's one-sided derivatives: ``relu'(0) = 0``, ``relu6'`` is
zero at 0 and 6, ``leaky_relu'(0) = 1``, ``hard_tanh'(±1) = 1``.

Integer inputs are promoted to float64 where the function is not piecewise linear, as
``jax.nn`` does with 64-bit types enabled; float32 stays float32.
"""
import math

import numpy as np

from .. import numpy as fnp
from ..primitives import elementwise as _ew
from ..typing import Array, ArrayLike

__all__ = ["identity", "relu", "relu6", "sigmoid", "log_sigmoid", "softplus", "soft_sign",
           "silu", "swish", "mish", "gelu", "elu", "celu", "selu", "leaky_relu", "hard_tanh",
           "hard_sigmoid", "hard_silu", "hard_swish", "glu", "sparse_plus", "sparse_sigmoid",
           "squareplus", "log1mexp", "tanh"]


def inexact(x: ArrayLike) -> Array:
    """``x`` as an array of floats (integers and booleans as float64; float32 stays)."""
    x = fnp.asarray(x)
    return fnp.astype(x, np.float64) if x.dtype.kind in "biu" else x


def identity(x: ArrayLike) -> Array:
    """``x`` itself (as an array).

    >>> import funcgrad.nn as nn
    >>> nn.identity([1.0, 2.0])
    array([1., 2.])
    """
    return fnp.asarray(x)


def relu(x: ArrayLike) -> Array:
    """``max(x, 0)``, with derivative 0 at 0 (JAX's choice; NaN passes through).

    >>> import numpy as np, funcgrad as fg, funcgrad.nn as nn
    >>> nn.relu(np.array([-1.0, 0.0, 2.0]))
    array([0., 0., 2.])
    >>> fg.grad(lambda x: nn.relu(x).sum())(np.array([-1.0, 0.0, 2.0]))
    array([0., 0., 1.])
    """
    x = fnp.asarray(x)
    # (x <= 0 is False for NaN, so NaN stays NaN, as max(NaN, 0) does)
    return fnp.where(x <= 0, 0, x)


def relu6(x: ArrayLike) -> Array:
    """``min(max(x, 0), 6)``; derivative 1 on (0, 6) only (0 at both kinks, as JAX).

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.relu6(np.array([-1.0, 3.0, 7.0]))
    array([0., 3., 6.])
    """
    x = fnp.asarray(x)
    return fnp.where(x <= 0, 0, fnp.where(x >= 6, 6, x))


def sigmoid(x: ArrayLike) -> Array:
    """The logistic function ``1 / (1 + exp(-x))``, without overflow for large real ``|x|``
    (complex ``x`` too, as ``jax.nn.sigmoid``).

    >>> import funcgrad as fg, funcgrad.nn as nn
    >>> float(nn.sigmoid(0.0)), float(fg.grad(nn.sigmoid)(0.0))
    (0.5, 0.25)
    """
    return _ew.logistic(inexact(x))


def softplus(x: ArrayLike) -> Array:
    """``log(1 + exp(x))``, as ``logaddexp(x, 0)``: exact for large ``|x|``, and its
    derivative (``sigmoid``) too.

    >>> import funcgrad as fg, funcgrad.nn as nn
    >>> float(nn.softplus(1000.0)), float(fg.grad(nn.softplus)(-1000.0))
    (1000.0, 0.0)
    """
    return fnp.logaddexp(inexact(x), 0.0)


def log_sigmoid(x: ArrayLike) -> Array:
    """``log(sigmoid(x)) = -softplus(-x)``, finite for large negative ``x``.

    >>> import funcgrad as fg, funcgrad.nn as nn
    >>> float(nn.log_sigmoid(-1000.0)), float(fg.grad(nn.log_sigmoid)(-1000.0))
    (-1000.0, 1.0)
    """
    return -softplus(-inexact(x))


def soft_sign(x: ArrayLike) -> Array:
    """``x / (|x| + 1)``.

    >>> import funcgrad.nn as nn
    >>> float(nn.soft_sign(1.0))
    0.5
    """
    x = inexact(x)
    return x / (fnp.abs(x) + 1)


def silu(x: ArrayLike) -> Array:
    """The SiLU (or swish) ``x * sigmoid(x)``.

    >>> import funcgrad as fg, funcgrad.nn as nn
    >>> float(nn.silu(0.0)), float(fg.grad(nn.silu)(0.0))
    (0.0, 0.5)
    """
    x = inexact(x)
    return x * sigmoid(x)


swish = silu


def mish(x: ArrayLike) -> Array:
    """``x * tanh(softplus(x))``.

    >>> import funcgrad.nn as nn
    >>> float(nn.mish(0.0))
    0.0
    """
    x = inexact(x)
    return x * fnp.tanh(softplus(x))


_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_SQRT_HALF = math.sqrt(0.5)


def gelu(x: ArrayLike, approximate: bool = True) -> Array:
    """The Gaussian error linear unit ``x * Phi(x)``: with ``approximate=True`` (JAX's
    default) its tanh form ``x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3)))``, else the
    exact ``x/2 erfc(-x / sqrt(2))``.

    >>> import funcgrad.nn as nn
    >>> round(float(nn.gelu(1.0, approximate=False)), 6), round(float(nn.gelu(1.0)), 6)
    (0.841345, 0.841192)
    """
    x = inexact(x)
    if approximate:
        return x * (0.5 * (1.0 + fnp.tanh(_SQRT_2_OVER_PI * (x + 0.044715 * x ** 3))))
    return 0.5 * x * _ew.erfc(-x * _SQRT_HALF)


def elu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """``x`` for ``x > 0``, ``alpha * (exp(x) - 1)`` otherwise.

    >>> import funcgrad as fg, funcgrad.nn as nn
    >>> round(float(nn.elu(-1.0)), 6), float(fg.grad(nn.elu)(1000.0))
    (-0.632121, 1.0)
    """
    x = inexact(x)
    positive = x > 0
    # (the double where: expm1 never sees the large positive x whose branch is unused,
    # so no inf times a zero cotangent reaches the gradient)
    return fnp.where(positive, x, alpha * fnp.expm1(fnp.where(positive, 0.0, x)))


def celu(x: ArrayLike, alpha: ArrayLike = 1.0) -> Array:
    """The continuously differentiable ELU ``max(x, 0) + alpha * expm1(min(x, 0) / alpha)``.

    >>> import funcgrad.nn as nn
    >>> round(float(nn.celu(-1.0, alpha=2.0)), 6)
    -0.786939
    """
    x = inexact(x)
    return fnp.maximum(x, 0.0) + alpha * fnp.expm1(fnp.minimum(x, 0.0) / alpha)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(x: ArrayLike) -> Array:
    """The scaled ELU ``scale * elu(x, alpha)`` with the self-normalising constants
    ``alpha = 1.67326...``, ``scale = 1.05070...``.

    >>> import funcgrad.nn as nn
    >>> round(float(nn.selu(1.0)), 6)
    1.050701
    """
    return _SELU_SCALE * elu(x, _SELU_ALPHA)


def leaky_relu(x: ArrayLike, negative_slope: ArrayLike = 1e-2) -> Array:
    """``x`` for ``x >= 0``, ``negative_slope * x`` otherwise (derivative 1 at 0).

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.leaky_relu(np.array([-2.0, 3.0]), negative_slope=0.5)
    array([-1.,  3.])
    """
    x = inexact(x)
    return fnp.where(x >= 0, x, negative_slope * x)


def hard_tanh(x: ArrayLike) -> Array:
    """``x`` clipped to ``[-1, 1]`` (derivative 1 at the ends, as JAX).

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.hard_tanh(np.array([-2.0, 0.5, 2.0]))
    array([-1. ,  0.5,  1. ])
    """
    x = inexact(x)
    return fnp.where(x > 1, 1.0, fnp.where(x < -1, -1.0, x))


def hard_sigmoid(x: ArrayLike) -> Array:
    """``relu6(x + 3) / 6``.

    >>> import funcgrad.nn as nn
    >>> float(nn.hard_sigmoid(0.0))
    0.5
    """
    return relu6(inexact(x) + 3.0) / 6.0


def hard_silu(x: ArrayLike) -> Array:
    """The hard SiLU (or hard swish) ``x * hard_sigmoid(x)``.

    >>> import funcgrad.nn as nn
    >>> float(nn.hard_silu(3.0))
    3.0
    """
    x = inexact(x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


def glu(x: ArrayLike, axis: int = -1) -> Array:
    """The gated linear unit: ``x`` split in two halves ``a, b`` along ``axis``, then
    ``a * sigmoid(b)``.

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.glu(np.array([2.0, 4.0, 0.0, 0.0]))
    array([1., 2.])
    """
    x = inexact(x)
    size = x.shape[axis]
    if size % 2:
        raise ValueError(f"glu: the size of axis {axis} must be even to split it in two "
                         f"halves, but it is {size} (input shape {tuple(x.shape)}); pad "
                         f"it or pick another axis")
    a, b = fnp.split(x, 2, axis=axis)
    return a * sigmoid(b)


def sparse_plus(x: ArrayLike) -> Array:
    """0 for ``x <= -1``, ``x`` for ``x >= 1``, ``(x + 1)**2 / 4`` between.

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.sparse_plus(np.array([-2.0, 0.0, 2.0]))
    array([0.  , 0.25, 2.  ])
    """
    x = inexact(x)
    return fnp.where(x <= -1.0, 0.0, fnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


def sparse_sigmoid(x: ArrayLike) -> Array:
    """``clip(x + 1, 0, 2) / 2``, the derivative of :func:`sparse_plus`.

    >>> import numpy as np, funcgrad.nn as nn
    >>> nn.sparse_sigmoid(np.array([-2.0, 0.0, 2.0]))
    array([0. , 0.5, 1. ])
    """
    return 0.5 * fnp.clip(inexact(x) + 1.0, 0.0, 2.0)


def squareplus(x: ArrayLike, b: ArrayLike = 4) -> Array:
    """``(x + sqrt(x**2 + b)) / 2``, a smooth ReLU.

    >>> import funcgrad.nn as nn
    >>> float(nn.squareplus(0.0))
    1.0
    """
    x = inexact(x)
    return (x + fnp.sqrt(fnp.square(x) + b)) / 2


_LOG_2 = math.log(2.0)


def log1mexp(x: ArrayLike) -> Array:
    """``log(1 - exp(-x))`` for ``x >= 0``, accurate near 0 and for large ``x`` (the
    ``expm1`` form below ``log 2``, the ``log1p`` form above).

    >>> import funcgrad.nn as nn
    >>> round(float(nn.log1mexp(1e-10)), 6)
    -23.025851
    """
    x = inexact(x)
    small = x < _LOG_2
    # (each form evaluated only where it is used, at a harmless point elsewhere, so that
    # log(0) at x = 0 of the unused form puts no NaN into the derivative)
    near = fnp.log(-fnp.expm1(-fnp.where(small, x, 1.0)))
    far = fnp.log1p(-fnp.exp(-fnp.where(small, 1.0, x)))
    return fnp.where(small, near, far)


def tanh(x: ArrayLike) -> Array:
    """The hyperbolic tangent (``jax.nn.tanh`` is ``jax.numpy.tanh``).

    >>> import funcgrad.nn as nn
    >>> float(nn.tanh(0.0))
    0.0
    """
    return fnp.tanh(x)
