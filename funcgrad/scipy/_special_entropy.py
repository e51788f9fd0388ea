"""The information-theory functions of :mod:`funcgrad.scipy.special` (re-exported there):
``xlogy``, ``xlog1py``, ``entr``, ``rel_entr`` and ``kl_div``, SciPy's values with the
derivatives JAX gives at the poles (below)."""
import functools
import math

import numpy as np

from .. import numpy as fnp
from ..custom._decorators import _casting_custom_jvp as custom_jvp  # (own rules: cast)
from ..numpy._convert import operand as _operand
from ..primitives.structural import stop_gradient as _stop_gradient
from ..typing import Array, ArrayLike

__all__ = ["xlogy", "xlog1py", "entr", "rel_entr", "kl_div"]

_INF = math.inf


# The derivatives of xlogy(x, y) = x log(y) and xlog1py(x, y) = x log1p(y) where x == 0,
# decided as JAX's jax.scipy.special (the functional API follows JAX; PyTorch's
# torch.xlogy gives 0 instead): d/dx is log(y) (log1p(y)) everywhere -- -inf at y == 0
# (y == -1), NaN for y < 0 (y < -1) -- which is also the true partial derivative, since
# xlogy(h, 0) = h log(0) for h != 0.  d/dy is x / y (x / (1 + y)), exactly 0 where
# x == 0: xlogy(0, y) = 0 for every y (JAX's x / y gives NaN there at y == 0).  The
# values there stay 0: log(y) is replaced by log(1) = 0, and _zero_at_pole restores the
# x-derivative that the replacement cut.

@functools.partial(custom_jvp, nondiff_argnums=(2, 3))
def _zero_at_pole(x, y, log, pole):
    """``x * 0`` (0, with ``x``'s sign) whose derivative in ``x`` is ``log(y)`` (and 0 in
    ``y``); ``log(y)`` is -inf at ``y == pole`` and NaN below it.  The slope is computed
    only when differentiating, without NumPy's log warnings: a value never needs it."""
    return x * 0.0


@_zero_at_pole.defjvp
def _zero_at_pole_jvp(log, pole, primals, tangents):
    x, y = primals
    above = fnp.greater(y, pole)
    slope = fnp.where(above, log(fnp.where(above, y, pole + 1.0)),
                      fnp.where(fnp.equal(y, pole), -_INF, np.nan))
    return _zero_at_pole(x, y, log, pole), tangents[0] * slope


def _x_log(x, y, log, pole):
    """``x * log(y)``, 0 where ``x == 0`` (unless ``y`` is NaN), with the derivatives
    decided above; ``log`` is -inf at ``pole``."""
    x, y = _operand(x), _operand(y)
    zero_x = fnp.logical_and(fnp.equal(x, 0), fnp.logical_not(fnp.isnan(y)))
    regular = fnp.logical_and(fnp.greater(y, pole), fnp.less(y, _INF))
    replaced = fnp.logical_and(zero_x, fnp.logical_not(regular))
    safe_y = fnp.where(replaced, pole + 1.0, y)  # (log(pole + 1) == 0)
    # (the other branch's y, where this one is not taken: a slope of 0 there, so that
    # its zero cotangent stays 0 and is not 0 * inf)
    pole_y = fnp.where(replaced, _stop_gradient(y), pole + 1.0)
    # (x at the shape of the result, as the slope: a tangent has its output's shape)
    x_out = fnp.broadcast_to(x, pole_y.shape)
    return fnp.where(replaced, _zero_at_pole(x_out, pole_y, log, pole), x * log(safe_y))


def xlogy(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log(y)``, 0 where ``x == 0`` (unless ``y`` is NaN).  Derivatives as JAX's:
    ``d/dx = log(y)`` also where ``x == 0`` (``-inf`` at ``y == 0``); ``d/dy = x / y``,
    0 where ``x == 0``.

    >>> import funcgrad as fg
    >>> float(xlogy(0.0, 0.0))
    0.0
    >>> float(fg.grad(xlogy)(0.0, 0.0)), float(fg.grad(xlogy, 1)(0.0, 0.0))
    (-inf, 0.0)
    """
    return _x_log(x, y, fnp.log, 0.0)


def xlog1py(x: ArrayLike, y: ArrayLike) -> Array:
    """``x * log1p(y)``, 0 where ``x == 0`` (unless ``y`` is NaN).  Derivatives as JAX's:
    ``d/dx = log1p(y)`` also where ``x == 0`` (``-inf`` at ``y == -1``);
    ``d/dy = x / (1 + y)``, 0 where ``x == 0``.

    >>> import funcgrad as fg
    >>> float(xlog1py(0.0, -1.0))
    0.0
    >>> float(fg.grad(xlog1py)(0.0, -1.0))
    -inf
    """
    return _x_log(x, y, fnp.log1p, -1.0)


def entr(x: ArrayLike) -> Array:
    """Elementwise entropy ``-x log(x)`` (0 at 0, ``-inf`` for ``x < 0``).

    >>> round(float(entr(0.5)), 6), float(entr(0.0))
    (0.346574, 0.0)
    """
    x = _operand(x)
    return fnp.where(fnp.less(x, 0), -_INF, 0.0 - xlogy(x, x))  # (0 - : entr(0) is +0)


def _near_ratio(sx, sy):
    """``(near, d)``: where ``x`` is within a factor 1.5 of ``y``, ``d = (x - y) / y``
    (``x - y`` exact there), 0 elsewhere (the double-where idiom)."""
    near = fnp.less(fnp.abs(sx - sy), sy * 0.5)
    return near, fnp.where(near, (sx - sy) / sy, 0.0)


def _log1p_minus(d):
    """``log1p(d) - d``, by its series ``-d**2/2 + d**3/3 - ...`` for ``|d| < 0.01``
    (where the difference cancels; the first omitted term is below 1e-17 of it)."""
    small = fnp.less(fnp.abs(d), 0.01)
    ds = fnp.where(small, d, 0.0)
    series = 0.0
    for k in range(10, 1, -1):
        series = (series + (-1.0) ** (k + 1) / k) * ds
    series = series * ds
    dl = fnp.where(small, 0.5, d)
    return fnp.where(small, series, fnp.log1p(dl) - dl)


def rel_entr(x: ArrayLike, y: ArrayLike) -> Array:
    """``x log(x / y)`` for ``x, y > 0``; 0 where ``x == 0, y >= 0``; ``inf`` elsewhere
    (NaN for NaN).  Where ``x`` is near ``y`` it is ``x log1p((x - y) / y)``: the
    rounding of ``x / y`` would be most of a small result.

    >>> float(rel_entr(1.0, 1.0))
    0.0
    """
    x, y = _operand(x), _operand(y)
    both = fnp.logical_and(fnp.greater(x, 0), fnp.greater(y, 0))
    sx, sy = fnp.where(both, x, 1.0), fnp.where(both, y, 1.0)
    zero = fnp.logical_and(fnp.equal(x, 0), fnp.greater_equal(y, 0))
    near, d = _near_ratio(sx, sy)
    ratio = fnp.where(near, 1.0, sx / sy)
    # (x / y past the float range, 1e300 / 1e-300: log x - log y, as SciPy's value)
    extreme = fnp.logical_or(fnp.isinf(ratio), fnp.less(ratio, np.finfo(ratio.dtype).tiny))
    logs = fnp.log(fnp.where(extreme, sx, 1.0)) - fnp.log(fnp.where(extreme, sy, 1.0))
    value = sx * fnp.where(near, fnp.log1p(d), fnp.where(extreme, logs, fnp.log(
        fnp.where(extreme, 1.0, ratio))))
    # (NaN in, NaN out, as SciPy's: not the inf of the other invalid arguments)
    nan = fnp.logical_or(fnp.isnan(x), fnp.isnan(y))
    edge = fnp.where(zero, 0.0, fnp.where(nan, math.nan, _INF)).astype(value.dtype)
    return fnp.where(both, value, edge)


def kl_div(x: ArrayLike, y: ArrayLike) -> Array:
    """``x log(x / y) - x + y`` for ``x, y > 0``; ``y`` where ``x == 0, y >= 0``; ``inf``
    elsewhere.  Where ``x`` is near ``y`` it is ``y d**2 + x (log1p(d) - d)`` with
    ``d = (x - y) / y``, the same sum without its cancellation.

    >>> float(kl_div(1.0, 1.0))
    0.0
    """
    x, y = _operand(x), _operand(y)
    zero = fnp.logical_and(fnp.equal(x, 0), fnp.greater_equal(y, 0))
    both = fnp.logical_and(fnp.greater(x, 0), fnp.greater(y, 0))
    sx, sy = fnp.where(both, x, 1.0), fnp.where(both, y, 1.0)
    near, d = _near_ratio(sx, sy)
    close = sy * d * d + sx * _log1p_minus(d)
    rel = rel_entr(x, y)  # (its inf or NaN outside x, y > 0: not inf - x + y, NaN at -inf)
    out = fnp.where(zero, y, fnp.where(both, rel - x + y, rel))
    return fnp.where(fnp.logical_and(both, near), close.astype(out.dtype), out)
