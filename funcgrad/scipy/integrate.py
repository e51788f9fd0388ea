"""``funcgrad.scipy.integrate``: ``trapezoid``, ``cumulative_trapezoid``, ``simpson``
and ``odeint``, differentiable.

``odeint`` is JAX's ``jax.experimental.ode.odeint``: an adaptive Dormand-Prince (RK45)
solve with 4th-order interpolation at the requested times, each step loop a
``fg.lax.while_loop`` (so it runs under ``vmap`` and ``jit``), and a ``custom_vjp`` whose
backward integrates the adjoint system backwards in time (Chen et al. 2018), giving the
gradients with respect to ``y0``, ``t`` and ``args`` in memory independent of the number
of steps.  Forward mode (``jvp``, ``jacfwd``, ``hessian``) is not defined, as in JAX.
States and ``args`` may be pytrees of float arrays.
"""
import functools
import math

from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..api import vjp
from ..core import is_special
from ..custom import custom_vjp
from ..lax import while_loop
from ..numpy._convert import asarray
from ..numpy.signal import trapezoid as _np_trapezoid
from ..typing import Array, ArrayLike, PyTree

__all__ = ["trapezoid", "cumulative_trapezoid", "simpson", "odeint"]


def trapezoid(y: ArrayLike, x: Optional[ArrayLike] = None, dx: float = 1.0, axis: int = -1
              ) -> Array:
    """The integral of samples ``y`` by the trapezoidal rule, at points ``x`` or spacing
    ``dx`` along ``axis`` (``scipy.integrate.trapezoid``); differentiable in all.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> float(fsi.trapezoid(np.array([1.0, 2.0, 3.0]), np.array([0.0, 1.0, 3.0])))
    6.5
    """
    return _np_trapezoid(y, x=x, dx=dx, axis=axis)


def _samples(name: str, y: ArrayLike, x: Optional[ArrayLike], axis: int
             ) -> tuple[Array, Optional[Array]]:
    """``y`` (and ``x``) as floats with the integration axis last; a 1-d ``x`` broadcast
    along it, as SciPy's."""
    ys = asarray(y)
    ys = fnp.astype(ys, np.float64) if ys.dtype.kind in "biu" else ys
    if ys.ndim == 0:
        raise ValueError(f"{name}: y must have at least one axis")
    ys = fnp.moveaxis(ys, axis, -1)
    if x is None:
        return ys, None
    xs = asarray(x)
    if xs.ndim != 1 and xs.ndim != ys.ndim:
        raise ValueError(f"{name}: if given, shape of x must be 1-D or the same as y")
    if xs.ndim != 1:
        xs = fnp.moveaxis(xs, axis, -1)
    if xs.shape[-1] != ys.shape[-1]:
        raise ValueError(f"{name}: if given, length of x along axis must be the same as y "
                         f"({xs.shape[-1]} and {ys.shape[-1]})")
    return ys, xs


def cumulative_trapezoid(y: ArrayLike, x: Optional[ArrayLike] = None, dx: float = 1.0,
                         axis: int = -1, initial: Optional[float] = None) -> Array:
    """The running integral of ``y`` by the trapezoidal rule along ``axis``
    (``scipy.integrate.cumulative_trapezoid``): one value fewer than ``y``, or as many with
    ``initial=0`` (SciPy accepts only 0 or None).  Differentiable in ``y`` and ``x``.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> fsi.cumulative_trapezoid(np.array([1.0, 2.0, 3.0]), initial=0)
    array([0. , 1.5, 4. ])
    """
    ys, xs = _samples("cumulative_trapezoid", y, x, axis)
    if ys.shape[-1] == 0:
        raise ValueError("cumulative_trapezoid: at least one point is required along axis")
    d = dx if xs is None else fnp.diff(xs, axis=-1)
    res = fnp.cumsum(d * (ys[..., 1:] + ys[..., :-1]) / 2.0, axis=-1)
    if initial is not None:
        if not np.isscalar(initial) or initial != 0:
            raise ValueError("cumulative_trapezoid: initial must be None or 0 (SciPy's rule)")
        res = fnp.concatenate([fnp.zeros(res.shape[:-1] + (1,), res.dtype), res], axis=-1)
    return fnp.moveaxis(res, -1, axis)


def _div(num, den):
    """``num / den``, 0 where ``den == 0`` (SciPy's ``true_divide(..., where=den != 0)``)."""
    if isinstance(den, float):  # (Python numbers stay Python numbers: float32 stays float32)
        return num / den if den else 0.0
    nonzero = den != 0
    return fnp.where(nonzero, num / fnp.where(nonzero, den, 1.0), 0.0)


def _basic_simpson(y, stop, x, dx):
    """Simpson's rule on the point triples ``(0, 1, 2), (2, 3, 4)...`` below ``stop + 2``
    (SciPy's ``_basic_simpson``, irregular spacing included)."""
    y0, y1, y2 = y[..., 0:stop:2], y[..., 1:stop + 1:2], y[..., 2:stop + 2:2]
    if x is None:
        return fnp.sum(y0 + 4.0 * y1 + y2, axis=-1) * (dx / 3.0)
    h = fnp.diff(x, axis=-1)
    h0, h1 = h[..., 0:stop:2], h[..., 1:stop + 1:2]
    hsum, ratio = h0 + h1, _div(h0, h1)
    return fnp.sum(hsum / 6.0 * (y0 * (2.0 - _div(1.0, ratio)) + y1 * (hsum * _div(
        hsum, h0 * h1)) + y2 * (2.0 - ratio)), axis=-1)


def simpson(y: ArrayLike, x: Optional[ArrayLike] = None, *, dx: float = 1.0, axis: int = -1
            ) -> Array:
    """The integral of ``y`` by the composite Simpson's rule along ``axis``
    (``scipy.integrate.simpson``, SciPy >= 1.11): for an even number of points the last
    interval gets Cartwright's correction, as SciPy's.  Differentiable in ``y`` and ``x``.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> float(fsi.simpson(np.arange(5.0) ** 2))  # exact for quadratics
    21.333333333333332
    """
    ys, xs = _samples("simpson", y, x, axis)
    n = ys.shape[-1]
    if n % 2:
        return _basic_simpson(ys, n - 2, xs, dx)
    if n == 2:
        last = dx if xs is None else xs[..., -1] - xs[..., -2]
        return 0.5 * last * (ys[..., -1] + ys[..., -2])
    h0: Any
    h1: Any
    if xs is None:
        h0 = h1 = float(dx) if isinstance(dx, (int, float, np.floating)) else dx
    else:
        h0, h1 = xs[..., -2] - xs[..., -3], xs[..., -1] - xs[..., -2]
    alpha = _div(2.0 * h1 ** 2 + 3.0 * h0 * h1, 6.0 * (h1 + h0))
    beta = _div(h1 ** 2 + 3.0 * h0 * h1, 6.0 * h0)
    eta = _div(h1 ** 3, 6.0 * h0 * (h0 + h1))
    return _basic_simpson(ys, n - 3, xs, dx) + (alpha * ys[..., -1] + beta * ys[..., -2]
                                                - eta * ys[..., -3])  # (SciPy's order)


# --- Dormand-Prince ------------------------------------------------------------------------

_ALPHA = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0)
_BETA = ((1 / 5,), (3 / 40, 9 / 40), (44 / 45, -56 / 15, 32 / 9),
         (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729),
         (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656),
         (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84))
_C_SOL = (35 / 384, 0.0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0.0)
_C_ERR = (35 / 384 - 1951 / 21600, 0.0, 500 / 1113 - 22642 / 50085, 125 / 192 - 451 / 720,
          -2187 / 6784 + 12231 / 42400, 11 / 84 - 649 / 6300, -1.0 / 60.0)
_C_MID = (6025192743 / 30085553152 / 2, 0.0, 51252292925 / 65400821598 / 2,
          -2691868925 / 45128329728 / 2, 187940372067 / 1594534317056 / 2,
          -1776094331 / 19743644256 / 2, 11237099 / 235043384 / 2)


def _combine(coeffs, ks):
    out = None
    for c, k in zip(coeffs, ks):
        if c:
            out = c * k if out is None else out + c * k
    return out


def _rk_step(f, y0, f0, t0, dt):
    ks = [f0]
    for alpha, beta in zip(_ALPHA, _BETA):
        ks.append(f(y0 + dt * _combine(beta, ks), t0 + dt * alpha))
    y1 = y0 + dt * _combine(_C_SOL, ks)
    return y1, ks[-1], dt * _combine(_C_ERR, ks), ks


def _interp_fit(y0, y1, ks, dt):
    """The quartic through the step (coefficients highest first, in [0, 1])."""
    y_mid = y0 + dt * _combine(_C_MID, ks)
    dy0, dy1 = ks[0], ks[-1]
    a = -2.0 * dt * dy0 + 2.0 * dt * dy1 - 8.0 * y0 - 8.0 * y1 + 16.0 * y_mid
    b = 5.0 * dt * dy0 - 3.0 * dt * dy1 + 18.0 * y0 + 14.0 * y1 - 32.0 * y_mid
    c = -4.0 * dt * dy0 + dt * dy1 - 11.0 * y0 - 5.0 * y1 + 16.0 * y_mid
    return fnp.stack([a, b, c, dt * dy0, y0])


def _initial_step(f, t0, y0, f0, rtol, atol, order=4):
    scale = atol + fnp.abs(y0) * rtol
    d0 = fnp.linalg.norm(y0 / scale)
    d1 = fnp.linalg.norm(f0 / scale)
    h0 = fnp.where(fnp.logical_or(d0 < 1e-5, d1 < 1e-5), 1e-6,
                   0.01 * d0 / fnp.where(d1 == 0, 1.0, d1))
    f1 = f(y0 + h0 * f0, t0 + h0)
    d2 = fnp.linalg.norm((f1 - f0) / scale) / h0
    h1 = fnp.where(fnp.logical_and(d1 <= 1e-15, d2 <= 1e-15), fnp.maximum(1e-6, h0 * 1e-3),
                   (0.01 / fnp.maximum(fnp.maximum(d1, d2), 1e-300)) ** (1.0 / (order + 1.0)))
    return fnp.minimum(100.0 * h0, h1)


def _error_ratio(err, rtol, atol, y0, y1):
    tol = atol + rtol * fnp.maximum(fnp.abs(y0), fnp.abs(y1))
    return fnp.sqrt(fnp.mean(fnp.square(err / tol)))


def _next_step(dt, ratio, safety=0.9, ifactor=10.0, dfactor=0.2, order=5.0):
    dfactor = fnp.where(ratio < 1, 1.0, dfactor)
    safe = fnp.where(ratio == 0, 1.0, ratio)
    factor = fnp.minimum(ifactor, fnp.maximum(safe ** (-1.0 / order) * safety, dfactor))
    return fnp.where(ratio == 0, dt * ifactor, dt * factor)


def _solve(f, y0, ts, rtol, atol, mxstep):
    """``ys[i] = y(ts[i])`` of ``dy/dt = f(y, t)`` for a 1-d state ``y0``."""
    t0 = ts[0]
    f0 = f(y0, t0)
    dt = _initial_step(f, t0, y0, f0, rtol, atol)
    coeff = fnp.stack([y0] * 5)
    state = (y0, f0, t0, dt, t0, coeff)
    ys = [y0]
    for j in range(1, ts.shape[0]):
        target = ts[j]

        def cond(s, target=target):
            i, _, _, t, dt, _, _ = s
            return fnp.logical_and(fnp.logical_and(t < target, i < mxstep), dt > 0)

        def body(s):
            i, y, fy, t, dt, last_t, coeff = s
            y1, f1, err, ks = _rk_step(f, y, fy, t, dt)
            ratio = _error_ratio(err, rtol, atol, y, y1)
            new_coeff = _interp_fit(y, y1, ks, dt)
            new_dt = _next_step(dt, ratio)
            ok = ratio <= 1.0
            return (i + 1.0, fnp.where(ok, y1, y), fnp.where(ok, f1, fy),
                    fnp.where(ok, t + dt, t), new_dt, fnp.where(ok, t, last_t),
                    fnp.where(ok, new_coeff, coeff))

        _, *state = while_loop(cond, body, (fnp.asarray(0.0),) + tuple(state))
        _, _, t, _, last_t, coeff = state
        x = (target - last_t) / fnp.where(t == last_t, 1.0, t - last_t)
        y = coeff[0]
        for c in range(1, 5):
            y = y * x + coeff[c]
        ys.append(fnp.where(t == last_t, state[0], y))
        state = tuple(state)
    return fnp.stack(ys)


# --- flat states and the adjoint ------------------------------------------------------------

class _Flat:
    """Pytrees of float arrays <-> one 1-d vector."""

    def __init__(self, leaves, treedef):
        self.treedef = treedef
        self.shapes = [tuple(x.shape) for x in leaves]
        self.sizes = [int(np.prod(s)) for s in self.shapes]

    def ravel(self, leaves):
        if not leaves:
            return fnp.zeros(0)
        return fnp.concatenate([fnp.reshape(x, (-1,)) for x in leaves])

    def leaves(self, vec, lead=()):
        out, start = [], 0
        for shape, size in zip(self.shapes, self.sizes):
            out.append(fnp.reshape(vec[..., start:start + size], lead + shape))
            start += size
        return out

    def tree(self, vec, lead=()):
        return tree.unflatten(self.treedef, self.leaves(vec, lead))


@functools.partial(custom_vjp, nondiff_argnums=(0, 1, 2, 3))
def _odeint(func, rtol, atol, mxstep, y0, ts, *args):
    return _solve(lambda y, t: func(y, t, *args), y0, ts, rtol, atol, mxstep)


def _odeint_fwd(func, rtol, atol, mxstep, y0, ts, *args):
    ys = _odeint(func, rtol, atol, mxstep, y0, ts, *args)
    return ys, (ys, ts, args)


def _odeint_bwd(func, rtol, atol, mxstep, res, g):
    ys, ts, args = res
    n = ys.shape[-1]
    sizes = [int(np.prod(a.shape)) for a in args]

    def aug(state, t, *args):
        y, y_bar = state[:n], state[n:2 * n]
        y_dot, pullback = vjp(lambda yy, tt, *aa: func(yy, tt, *aa), y, -t, *args)
        cts = pullback(y_bar)
        parts = [-y_dot, cts[0], fnp.reshape(cts[1], (1,))]
        parts += [fnp.reshape(c, (-1,)) for c in cts[2:]]
        return fnp.concatenate(parts)

    y_bar = g[-1]
    t0_bar = fnp.zeros(1, ys.dtype)
    args_bar = fnp.zeros(sum(sizes), ys.dtype)
    ts_bar = []
    for i in range(ts.shape[0] - 1, 0, -1):
        t_bar = fnp.sum(func(ys[i], ts[i], *args) * g[i])
        ts_bar.append(t_bar)
        t0_bar = t0_bar - t_bar
        state = fnp.concatenate([ys[i], y_bar, t0_bar, args_bar])
        out = _odeint(aug, rtol, atol, mxstep, state, fnp.stack([-ts[i], -ts[i - 1]]),
                      *args)[1]
        y_bar = out[n:2 * n] + g[i - 1]
        t0_bar = out[2 * n:2 * n + 1]
        args_bar = out[2 * n + 1:]
    ts_bar = fnp.concatenate([t0_bar] + [fnp.reshape(t, (1,)) for t in ts_bar[::-1]])
    grads, start = [], 0
    for a, size in zip(args, sizes):
        grads.append(fnp.reshape(args_bar[start:start + size], a.shape))
        start += size
    return (y_bar, ts_bar, *grads)


_odeint.defvjp(_odeint_fwd, _odeint_bwd)


def odeint(func: Callable[..., PyTree], y0: PyTree, t: ArrayLike, *extra: Any,
           rtol: float = 1.4e-8, atol: float = 1.4e-8, mxstep: float = math.inf,
           args: tuple | None = None, tfirst: bool = False) -> PyTree:
    """Solve ``dy/dt = func(y, t, *args)`` from ``y(t[0]) = y0``; returns ``y`` at every
    time in ``t`` (increasing), stacked on a leading axis, as ``jax.experimental.ode.odeint``
    (``scipy.integrate.odeint`` with the state first in ``func``'s arguments, as SciPy's
    default).  Differentiable in ``y0``, ``t`` and ``args`` by the adjoint method (reverse
    mode only); ``y0`` and ``args`` may be pytrees of float arrays.  ``mxstep`` bounds the
    steps between two output times.  SciPy's keywords: ``args=(a, b)`` is the same as
    passing ``a, b`` after ``t``, and ``tfirst=True`` calls ``func(t, y, *args)``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> f = lambda k: fsi.odeint(lambda y, t, k: -k * y, 1.0, np.array([0.0, 1.0]), k)[1]
    >>> round(float(f(2.0)), 7), round(float(fg.grad(f)(2.0)), 6)  # e^-2, -e^-2
    (0.1353353, -0.135335)
    """
    if not callable(func):
        raise TypeError(f"odeint: func must be callable as func(y, t, *args), got "
                        f"{type(func).__name__}")
    if args is not None:
        if extra:
            raise TypeError("odeint: extra arguments given both after t and as args=; "
                            "pass them one way (odeint(f, y0, t, a, b) or args=(a, b))")
        extra = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    if tfirst:
        state_first = func
        func = lambda y, tt, *rest: state_first(tt, y, *rest)  # noqa: E731
    args = extra
    # (an eager Tensor one leaf, as the transforms take it: it records on its graph)
    leaves, treedef = tree.flatten(y0, is_special)
    leaves = [fnp.astype(asarray(x), np.float64) if asarray(x).dtype.kind in "biu"
              else asarray(x) for x in leaves]
    ts = asarray(t)
    if ts.ndim != 1:
        raise ValueError(f"odeint: t must be a 1-d array of times, got shape {ts.shape}")
    dtype = np.result_type(*[x.dtype for x in leaves], ts.dtype, np.float32)
    ts = fnp.astype(ts, dtype)
    yflat = _Flat(leaves, treedef)
    arg_leaves, arg_tree = tree.flatten(args, is_special)
    arg_leaves = [fnp.astype(asarray(a), dtype) for a in arg_leaves]

    def flat_func(y, tt, *arg_vals):
        user_args = tree.unflatten(arg_tree, list(arg_vals))
        out = func(yflat.tree(y), tt, *user_args)
        out_leaves = tree.flatten(out)[0]
        if len(out_leaves) != len(leaves):
            raise ValueError("odeint: func must return a value with the structure of y0")
        return fnp.astype(yflat.ravel([asarray(x) for x in out_leaves]), dtype)

    y = fnp.astype(yflat.ravel(leaves), dtype)
    ys = _odeint(flat_func, rtol, atol, float(mxstep), y, ts, *arg_leaves)
    return yflat.tree(ys, (ts.shape[0],))
