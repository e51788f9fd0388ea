"""Integrals over several variables, ``nquad``, ``dblquad`` and ``tplquad``: nested
adaptive :func:`~funcgrad.scipy.integrate.quad` calls, each inner integral a point of the
integrand of the one around it, as SciPy's.

Derivatives come from ``quad``'s own rule at every level (the integral of the
integrand's derivative, and the integrand at a limit that moves).  For that rule to see
every value being differentiated, none may stay captured inside a nested integrand:
the user's function and each range function have theirs made explicit arguments once,
at the start (``lift_captures``), and every level passes the whole set on as ``args``.
"""
import math
from typing import Any, Callable, Sequence

import numpy as np

from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..typing import ArrayLike
from ._captured import lift_captures
from ._quadrature import quad

__all__ = ["nquad", "dblquad", "tplquad"]

_QUAD_OPTIONS = ("epsabs", "epsrel", "limit", "points", "weight", "wvar", "wopts")


def _inside(lo, hi):
    """A finite point of ``[lo, hi]`` (concrete floats, either end infinite)."""
    if math.isinf(lo) and math.isinf(hi):
        return 0.0
    if math.isinf(lo):
        return hi - 1.0
    if math.isinf(hi):
        return lo + 1.0
    return 0.5 * (lo + hi)


def _pair(bounds, level):
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise ValueError(f"nquad: ranges[{level}] must be a pair (lower, upper) or a callable "
                         f"returning one, got {bounds!r}") from None
    return lo, hi


def _level_options(opts, level, n):
    if opts is None:
        return {}
    if isinstance(opts, dict) or callable(opts):
        return opts
    if len(opts) != n:
        raise ValueError(f"nquad: opts must be one dict (or callable) for every level or a "
                         f"list of {n}, got a list of {len(opts)}")
    return opts[level]


def _checked(options):
    unknown = set(options) - set(_QUAD_OPTIONS)
    if unknown:
        raise TypeError(f"nquad: opts hold keywords quad does not take: "
                        f"{sorted(unknown)}; it takes {', '.join(_QUAD_OPTIONS)}")
    return options


def nquad(func: Callable[..., ArrayLike], ranges: Sequence[Any], args: Any = None,
          opts: Any = None, full_output: bool = False) -> tuple[Any, Any]:
    """``(value, abserr)``: the integral of ``func(x0, x1, ..., *args)`` over ``ranges``,
    as ``scipy.integrate.nquad``: ``ranges[0]`` is the innermost variable ``x0``; a range
    is a pair ``(lower, upper)`` or a callable of the variables outside it and ``args``
    (``ranges[0](x1, ..., *args)``) returning one; ``opts`` (a dict, or a list with one
    for each level, or callables taking the same arguments as the ranges) holds
    :func:`quad`'s keywords ``epsabs``, ``epsrel``, ``limit``, ``points``, ``weight``,
    ``wvar``.  ``abserr`` is the largest of every integral's, as SciPy's.  Differentiable (reverse mode)
    in ``args``, in values ``func`` and the ranges capture and in the limits, by
    ``quad``'s rule at every level.  ``func`` is called on concrete floats, one point at
    a time; no ``jit``/``vmap`` (see :func:`quad`).  Not supported: ``full_output``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.integrate as fsi
    >>> value, err = fsi.nquad(lambda x, y: x * y, [[0.0, 1.0], [0.0, 2.0]])  # 1/2 * 2
    >>> round(float(value), 12)
    1.0
    >>> g = fg.grad(lambda s: fsi.nquad(lambda x, y: np.exp(-s * x * y),
    ...                                 [[0.0, 1.0], [0.0, 1.0]])[0])
    >>> round(float(g(1.0)), 8)  # minus the integral of x y exp(-x y)
    -0.16447904
    """
    if not callable(func):
        raise TypeError(f"nquad: func must be callable as func(x0, x1, ..., *args), got "
                        f"{type(func).__name__}")
    if full_output:
        raise NotImplementedError("nquad: full_output is not supported; pass "
                                  "full_output=False")
    n = len(ranges)
    if n < 1:
        raise ValueError("nquad: ranges must name at least one variable's range")
    args = () if args is None else tuple(args) if isinstance(args, (tuple, list)) else (args,)
    concrete_args = [stop_gradient(a) for a in args]

    # Outermost first: each callable range, then func, has its captures lifted, traced
    # at a point inside the ranges outside it; a pair's limits join the arguments too.
    # (The nested integrands hold only these plain facts: a traced value they held would
    # be out of the reach of quad's rule.)
    plans: list = [None] * n  # per level: (converted range or None, start, size)
    extras: list = []
    point: tuple = ()  # (x_{level}, ..., x_{n-1}) at the probe
    for level in reversed(range(n)):
        bounds = ranges[level]
        if callable(bounds):
            converted, consts = lift_captures(
                lambda *v, r=bounds, lv=level: _pair(r(*v), lv), point + args, "nquad")
            plans[level] = (converted, len(extras), len(consts))
            extras += consts
            lo, hi = _pair(bounds(*point, *concrete_args), level)
        else:
            lo, hi = _pair(bounds, level)
            plans[level] = (None, len(extras), 2)
            extras += [lo, hi]
        point = (_inside(float(stop_gradient(lo)), float(stop_gradient(hi))),) + point
    func_lifted, func_consts = lift_captures(func, point + args, "nquad")
    func_start, func_size = len(extras), len(func_consts)
    extras += func_consts
    count = len(args)
    del ranges, func_consts  # (see above)
    # Only the traced values are quad's arguments: its rule integrates a derivative for
    # each argument at every level, nested (a tplquad's cost grows as its cube).
    values = (*args, *extras)
    live = [i for i, v in enumerate(values) if isinstance(v, Tracer) or is_special(v)]
    fixed = [stop_gradient(v) for v in values]
    worst = [0.0]  # (SciPy's abserr: the largest of every integral's)
    # (fixed options checked once; a callable's at each of its calls)
    levels = [_level_options(opts, level, n) for level in range(n)]
    levels = [o if callable(o) else _checked(o) for o in levels]

    def whole(given):
        params = list(fixed)
        for i, v in zip(live, given):
            params[i] = v
        return params

    def user(params):
        return params[:count]

    def captured(params, start, size):
        return params[count + start:count + start + size]

    def integral(level, outer, given):
        """The integral over ``x_level`` at ``outer`` = ``(x_{level+1}, ...)``, the traced
        values ``given``."""
        params = whole(given)
        converted, start, size = plans[level]
        if converted is None:
            lo, hi = captured(params, start, size)
        else:
            lo, hi = converted(*outer, *user(params), *captured(params, start, size))
        options = levels[level]
        if callable(options):
            options = _checked(options(*outer, *user(params)))
        if options.get("points") is not None:  # (those inside this range, as SciPy's)
            ends = sorted(float(stop_gradient(v)) for v in (lo, hi))
            inside = [v for v in np.atleast_1d(options["points"]) if ends[0] <= v <= ends[1]]
            options = dict(options, points=inside or None)
        if level == 0:
            def inner(x, *p):
                q = whole(p)
                return func_lifted(x, *outer, *user(q), *captured(q, func_start, func_size))
        else:
            def inner(x, *p):
                return integral(level - 1, (x,) + outer, p)[0]
        value, abserr = quad(inner, lo, hi, args=tuple(given), **options)
        worst[0] = max(worst[0], float(stop_gradient(abserr)))
        return value, worst[0]

    return integral(n - 1, (), tuple(values[i] for i in live))


def _limit(bound, *at):
    return bound(*at) if callable(bound) else bound


def dblquad(func: Callable[..., ArrayLike], a: ArrayLike, b: ArrayLike, gfun: Any, hfun: Any,
            args: Any = (), epsabs: float = 1.49e-8, epsrel: float = 1.49e-8
            ) -> tuple[Any, Any]:
    """``(value, abserr)``: the integral of ``func(y, x, *args)`` for ``x`` in ``[a, b]``
    and ``y`` from ``gfun(x)`` to ``hfun(x)`` (callables or numbers), as
    ``scipy.integrate.dblquad``; differentiable as :func:`nquad`.

    >>> import funcgrad.scipy.integrate as fsi
    >>> value, err = fsi.dblquad(lambda y, x: x * y, 0.0, 1.0, 0.0, lambda x: x)
    >>> round(float(value), 12)  # the integral of x^3 / 2 over [0, 1]
    0.125
    """
    def y_range(x, *rest):
        return _limit(gfun, x), _limit(hfun, x)
    return nquad(func, [y_range, (a, b)], args=args,
                 opts={"epsabs": epsabs, "epsrel": epsrel})


def tplquad(func: Callable[..., ArrayLike], a: ArrayLike, b: ArrayLike, gfun: Any, hfun: Any,
            qfun: Any, rfun: Any, args: Any = (), epsabs: float = 1.49e-8,
            epsrel: float = 1.49e-8) -> tuple[Any, Any]:
    """``(value, abserr)``: the integral of ``func(z, y, x, *args)`` for ``x`` in ``[a,
    b]``, ``y`` from ``gfun(x)`` to ``hfun(x)`` and ``z`` from ``qfun(x, y)`` to
    ``rfun(x, y)`` (callables or numbers), as ``scipy.integrate.tplquad``;
    differentiable as :func:`nquad`.

    >>> import funcgrad.scipy.integrate as fsi
    >>> value, err = fsi.tplquad(lambda z, y, x: 1.0, 0.0, 1.0, 0.0, lambda x: 1 - x,
    ...                          0.0, lambda x, y: 1 - x - y)
    >>> round(float(value), 12)  # the volume of the unit simplex
    0.166666666667
    """
    def z_range(y, x, *rest):
        return _limit(qfun, x, y), _limit(rfun, x, y)

    def y_range(x, *rest):
        return _limit(gfun, x), _limit(hfun, x)
    return nquad(func, [z_range, y_range, (a, b)], args=args,
                 opts={"epsabs": epsabs, "epsrel": epsrel})
