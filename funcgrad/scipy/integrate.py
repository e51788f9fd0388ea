"""``funcgrad.scipy.integrate``: ``trapezoid``, ``cumulative_trapezoid``, ``simpson``,
``cumulative_simpson``, ``odeint``, ``solve_ivp``, ``quad``, ``quad_vec``, ``fixed_quad``,
``nquad``, ``dblquad`` and ``tplquad`` (nested ``quad``, ``_nquad``), differentiable;
``newton_cotes``' weights.

``odeint`` is JAX's ``jax.experimental.ode.odeint``: an adaptive Dormand-Prince (RK45)
solve with 4th-order interpolation at the requested times, each step loop a
``fg.lax.while_loop`` (so it runs under ``vmap`` and ``jit``), and a ``custom_vjp`` whose
backward integrates the adjoint system backwards in time (Chen et al. 2018), giving the
gradients with respect to ``y0``, ``t`` and ``args`` in memory independent of the number
of steps.  Forward mode (``jvp``, ``jacfwd``, ``hessian``), which JAX's lacks, integrates
the sensitivity equations with the state (``_ode_adjoint``).
States and ``args`` may be pytrees of float arrays.  ``solve_ivp`` (``_ivp``) steps with
SciPy's explicit Runge-Kutta pairs (``_rk``) and is differentiated by the same adjoint
(``_ode_adjoint``); its dense output and events (``_dense``) are SciPy's interpolants of
those steps, taken again on the differentiated values; its implicit 'Radau' (``_radau``)
steps on concrete values (a host callback under ``jit`` and ``vmap``) and is
differentiated by the adjoint along its forward solution;
``quad`` and ``quad_vec`` (``_quadrature``) are adaptive
Gauss-Kronrod with a ``custom_vjp`` of their own.
"""
import math

from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ..numpy.signal import trapezoid as _np_trapezoid
from ..typing import Array, ArrayLike, PyTree
from ._array_like import numbers_as_array
from ._captured import lift_captures
from ._ivp import solve_ivp
from ._nquad import dblquad, nquad, tplquad
from ._ode_adjoint import _Flat, _odeint
from ._odeint_scipy import scipy_odeint, uses_scipy
from ._quadrature import IntegrationWarning, fixed_quad, quad, quad_vec
from ._rk import Solver
from ._ode_implicit import BDF, Radau
from ._ode_legacy import complex_ode, ode
from ._bvp import solve_bvp
from ._integratemore_rules import lebedev_rule
from ._ode_solvers import (DOP853, RK23, RK45, DenseOutput, OdeSolution, OdeSolver,
                           ODEintWarning)
from ._integrate3_lsoda import LSODA
from ._integrate3_tanhsinh import nsum, tanhsinh
from ._integrate3_cubature import cubature
from ._integrate3_qmc import qmc_quad

__all__ = ["trapezoid", "cumulative_trapezoid", "simpson", "romb", "odeint", "solve_ivp", "quad",
           "quad_vec", "fixed_quad", "IntegrationWarning", "cumulative_simpson", "newton_cotes",
           "nquad", "dblquad", "tplquad",
           "OdeSolver", "DenseOutput", "OdeSolution", "RK23", "RK45", "DOP853", "ODEintWarning",
           "Radau", "BDF", "ode", "complex_ode",
           "solve_bvp", "lebedev_rule",
           "LSODA", "tanhsinh", "nsum", "cubature", "qmc_quad"]


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




def _simpson_first_halves(y, d, equal):
    """The integral over the first interval of each point triple ``(k, k+1, k+2)`` by the
    parabola through the three (Cartwright's formulas, as SciPy's); ``d`` the spacings."""
    y1, y2, y3 = y[..., :-2], y[..., 1:-1], y[..., 2:]
    h1 = d[..., :-1]
    if equal:
        return h1 / 3.0 * (1.25 * y1 + 2.0 * y2 - 0.25 * y3)
    h2 = d[..., 1:]
    r31 = h1 / (h1 + h2)
    r = r31 * (h1 / h2)
    return h1 / 6.0 * ((3.0 - r31) * y1 + (3.0 + r + r31) * y2 - r * y3)


def cumulative_simpson(y: ArrayLike, *, x: Optional[ArrayLike] = None, dx: ArrayLike = 1.0,
                       axis: int = -1, initial: Optional[ArrayLike] = None) -> Array:
    """The running integral of ``y`` by Simpson's rule along ``axis``
    (``scipy.integrate.cumulative_simpson``): each interval integrated by the parabola
    through it and a neighbouring point (the last one by the one before), then summed;
    with fewer than three points, the trapezoidal rule.  ``dx`` is a number or has
    ``y``'s shape with one point along ``axis``; ``initial`` (the same shapes) is added to
    every value and put first, as SciPy's.  Differentiable in ``y``, ``x``, ``dx`` and
    ``initial``; float32 stays float32.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> x = np.linspace(0.0, 2.0, 5)
    >>> fsi.cumulative_simpson(x ** 2, x=x, initial=0.0)  # x^3 / 3
    array([0.        , 0.04166667, 0.33333333, 1.125     , 2.66666667])
    """
    ys, xs = _samples("cumulative_simpson", y, x, axis)
    n = ys.shape[-1]
    if xs is not None:
        d = fnp.diff(fnp.broadcast_to(xs, ys.shape), axis=-1)
        concrete = stop_gradient(d)
        if not isinstance(concrete, Tracer) and np.any(np.asarray(concrete) <= 0):
            raise ValueError("cumulative_simpson: x must be strictly increasing")
    else:
        d = asarray(dx)
        if d.ndim:
            if d.ndim != ys.ndim or fnp.moveaxis(d, axis, -1).shape != ys.shape[:-1] + (1,):
                raise ValueError("cumulative_simpson: dx must be a number or have y's shape "
                                 "with one point along axis")
            d = fnp.moveaxis(d, axis, -1)
        d = fnp.broadcast_to(d, ys.shape[:-1] + (max(n - 1, 0),))
    if n < 3:
        parts = d * (ys[..., 1:] + ys[..., :-1]) / 2.0
    else:
        first = _simpson_first_halves(ys, d, xs is None)
        second = fnp.flip(_simpson_first_halves(fnp.flip(ys, -1), fnp.flip(d, -1), xs is None),
                          -1)
        # interval k from the triple starting at k (even k) or at k - 1 (odd k); the last
        # interval from the triple ending with it
        evens, odds = first[..., ::2], second[..., ::2]
        m = odds.shape[-1]
        pairs = fnp.reshape(fnp.stack([evens[..., :m], odds], axis=-1), ys.shape[:-1] + (2 * m,))
        parts = fnp.concatenate([pairs, evens[..., m:]], axis=-1)[..., :n - 2]
        parts = fnp.concatenate([parts, second[..., -1:]], axis=-1)
    res = fnp.cumsum(parts, axis=-1)
    if initial is not None:
        start = asarray(initial)
        if start.ndim:
            if start.ndim != ys.ndim or fnp.moveaxis(start, axis, -1).shape != \
                    ys.shape[:-1] + (1,):
                raise ValueError("cumulative_simpson: initial must be a number or have y's "
                                 "shape with one point along axis")
            start = fnp.moveaxis(start, axis, -1)
        start = fnp.broadcast_to(start, ys.shape[:-1] + (1,))
        res = fnp.concatenate([start, res + start], axis=-1)
    return fnp.moveaxis(res, -1, axis)


def newton_cotes(rn: Any, equal: int = 0) -> tuple[np.ndarray, float]:
    """``(weights, error_coefficient)`` of the closed Newton-Cotes rule of order ``rn``
    (equally spaced samples) or on the sample positions ``rn`` (first 0, last the
    order), as ``scipy.integrate.newton_cotes``, whose values these are (SciPy imported
    on the first call).  Numbers about a rule: no derivative in the positions (traced
    positions are refused).

    >>> import funcgrad.scipy.integrate as fsi
    >>> weights, error = fsi.newton_cotes(2)  # Simpson's rule: 1/3, 4/3, 1/3
    >>> weights * 3
    array([1., 4., 1.])
    """
    if not isinstance(rn, int):
        if isinstance(rn, Tracer) or is_special(rn):
            raise TypeError("newton_cotes: the sample positions are traced (under jit, vmap "
                            "or a derivative), but the weights come from concrete positions "
                            "only, with no derivative in them: pass concrete positions "
                            "(fg.stop_gradient)")
        rn = np.asarray(rn)
    from scipy.integrate import newton_cotes as scipy_newton_cotes
    return scipy_newton_cotes(rn, equal)


def romb(y: ArrayLike, dx: float = 1.0, axis: int = -1, show: bool = False) -> Array:
    """Romberg integration of ``2**k + 1`` equally spaced samples along ``axis``
    (``scipy.integrate.romb``): the trapezoid rule on 1, 2, 4, ... intervals, each halving
    extrapolated by Richardson's rule. Differentiable in ``y`` and ``dx``.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> float(fsi.romb(np.arange(5.0) ** 4))   # exact for quartics on 5 points
    204.8
    """
    if show:
        raise NotImplementedError("romb: show=True (SciPy's printed table) is not supported; "
                                  "call scipy.integrate.romb on plain values to see it")
    ys = fnp.moveaxis(asarray(y), axis, -1)
    intervals = ys.shape[-1] - 1
    if intervals < 1 or intervals & (intervals - 1):
        raise ValueError("Number of samples must be one plus a non-negative power of 2.")
    h = intervals * dx
    rows = [[(ys[..., 0] + ys[..., -1]) * (h / 2.0)]]
    stride = intervals
    while stride > 1:   # halve the intervals: the new midpoints, then extrapolate
        midpoints = fnp.sum(ys[..., stride // 2::stride], axis=-1)
        row = [0.5 * (rows[-1][0] + h * midpoints)]
        for j, previous in enumerate(rows[-1], start=1):
            row.append(row[-1] + (row[-1] - previous) / ((1 << (2 * j)) - 1))
        rows.append(row)
        h = h / 2.0
        stride //= 2
    return rows[-1][-1]


def odeint(func: Callable[..., PyTree], y0: PyTree, t: ArrayLike, *extra: Any,
           args: tuple | None = None, Dfun: Optional[Callable[..., Any]] = None,
           col_deriv: int = 0, full_output: int = 0, ml: Optional[int] = None,
           mu: Optional[int] = None, rtol: Optional[ArrayLike] = None,
           atol: Optional[ArrayLike] = None, tcrit: Optional[ArrayLike] = None,
           h0: float = 0.0, hmax: float = 0.0, hmin: float = 0.0, ixpr: int = 0,
           mxstep: float = math.inf, mxhnil: int = 0, mxordn: int = 12, mxords: int = 5,
           printmessg: int = 0, tfirst: bool = False) -> Any:
    """Solve ``dy/dt = func(y, t, *args)`` from ``y(t[0]) = y0``; returns ``y`` at every
    time in ``t`` (increasing), stacked on a leading axis, as ``jax.experimental.ode.odeint``
    (``scipy.integrate.odeint`` with the state first in ``func``'s arguments, as SciPy's
    default).  Differentiable in ``y0``, ``t`` and ``args``: by the adjoint method in
    reverse mode, by the sensitivity equations in forward mode; ``y0`` and ``args`` may be
    pytrees of float arrays.  ``mxstep`` bounds the
    steps between two output times.  SciPy's keywords: ``args=(a, b)`` is the same as
    passing ``a, b`` after ``t``, and ``tfirst=True`` calls ``func(t, y, *args)``.
    ``rtol`` and ``atol`` default (None) to 1.4e-8, JAX's, for Dormand-Prince.

    SciPy's LSODA keywords -- ``Dfun`` (the Jacobian ``Dfun(y, t, *args)`` of the
    raveled state, ``col_deriv`` its orientation, ``ml``/``mu`` its bands), ``full_output``,
    ``tcrit``, ``h0``, ``hmax``, ``hmin``, ``ixpr``, ``mxhnil``, ``mxordn``, ``mxords``,
    ``printmessg`` -- mean what they mean in ``scipy.integrate.odeint``: where any is
    given, the values are SciPy's odeint run (ODEPACK's LSODA) with all of them and
    ``rtol``, ``atol`` (None: SciPy's 1.49012e-8) and ``mxstep`` (inf: SciPy's 0, i.e.
    500), and ``full_output=True`` returns ``(y, infodict)`` with that run's infodict
    (``hu``, ``tcur``, ``tolsf``, ``tsw``, ``nst``, ``nfe``, ``nje``, ``nqu``, ``imxer``,
    ``lenrw``, ``leniw``, ``mused``, ``message``; not available under ``jit``/``vmap``).
    Their derivative, which step control does not change, is taken through the
    Dormand-Prince solve above (``Dfun`` is used by LSODA only: the derivative
    differentiates ``func``).

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
    leaves, treedef = tree.flatten(numbers_as_array(y0), is_special)
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
        if len(out_leaves) != len(yflat.shapes):
            raise ValueError("odeint: func must return a value with the structure of y0")
        return fnp.astype(yflat.ravel([asarray(x) for x in out_leaves]), dtype)

    y = fnp.astype(yflat.ravel(leaves), dtype)
    options = {"Dfun": Dfun, "col_deriv": col_deriv, "full_output": full_output, "ml": ml,
               "mu": mu, "tcrit": tcrit, "h0": h0, "hmax": hmax, "hmin": hmin,
               "ixpr": ixpr, "mxhnil": mxhnil, "mxordn": mxordn, "mxords": mxords,
               "printmessg": printmessg}
    if uses_scipy(options):
        flat_func, consts = lift_captures(flat_func, (y, ts[0], *arg_leaves), "odeint")
        ys, info = scipy_odeint(
            flat_func, y, ts, arg_leaves, consts,
            lambda values: tree.unflatten(arg_tree, values), rtol, atol, mxstep, tfirst,
            options)
        out = yflat.tree(ys, (ts.shape[0],))
        return (out, info) if full_output else out
    tols: Any = (1.4e-8 if rtol is None else rtol, 1.4e-8 if atol is None else atol)
    solver = Solver(None, tols[0], tols[1], float(mxstep))
    # (values func captures reach the adjoint as arguments: the custom_vjp refuses them)
    flat_func, consts = lift_captures(flat_func, (y, ts[0], *arg_leaves), "odeint")
    ys = _odeint(flat_func, solver, y, ts, *arg_leaves, *consts)[0]
    return yflat.tree(ys, (ts.shape[0],))
