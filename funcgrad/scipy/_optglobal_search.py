"""SciPy's global minimizers (``differential_evolution``, ``basinhopping``, ``brute``,
``dual_annealing``, ``shgo``, ``direct``): SciPy's search on the objective evaluated by
funcgrad, the returned ``x`` differentiable in ``args`` (and in values the objective
closes over) by the implicit function theorem at it, as :func:`.minimize`'s optimum is
(:mod:`._implicit_minimum`).

Which local minimum a global search ends in is a discrete choice that small changes of
``args`` keep (away from ties between minima), so the derivative is that minimum's.  It
holds at a minimum only, and a global search ends near one to its own accuracy: the
point is checked before it is differentiated.  One Newton step ``H^-1 g`` (the gradient
and Hessian in the coordinates no bound holds) measures how far it is from the
stationary point; farther than ``1e-4 (1 + |x|)``, or where ``H`` is not positive
definite (a saddle, or a flat minimum), the derivative would be wrong, and asking for one
raises.  Coordinates a bound holds, the gradient pressing them there, stay on it.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..api import value_and_grad
from ..core import Tracer
from ..jacobians import hessian
from ..tree import ravel
from ._implicit_minimum import check_optimum, differentiable_minimum
from ._implicit_root import prepare, search

__all__ = ["differential_evolution", "basinhopping", "brute", "dual_annealing", "shgo",
           "direct"]

# (what a call under vmap or jit returns: OptimizeResult's array fields)
_TRACED_FIELDS = (("fun", None), ("success", np.bool_), ("nfev", np.int64))
_NEWTON_DISTANCE = 1e-4   # (about what local searches reach: L-BFGS-B stops at a
# projected gradient of 1e-5; the derivative is then as accurate as the optimum)


def _refuse(name, what):
    return NotImplementedError(
        f"{name}: a derivative in args was asked with {what}: the optimum's derivative "
        f"then needs the constraints' multipliers (or is undefined: integer coordinates "
        f"jump), which funcgrad does not implement; the unconstrained rule would be "
        f"silently wrong. Drop them (reparametrize x), or pass fg.stop_gradient(args) if "
        f"no derivative should flow through the result")


def _bound_pairs(bounds):
    """SciPy's bounds (a ``Bounds`` or ``(min, max)`` pairs) as a ``Bounds``-like pair of
    float arrays, and their count."""
    if hasattr(bounds, "lb"):
        lb, ub = np.atleast_1d(np.asarray(bounds.lb, float)), np.atleast_1d(
            np.asarray(bounds.ub, float))
        lb, ub = np.broadcast_arrays(lb, ub)
        return (lb, ub), lb.size
    pairs = [(-np.inf if lo is None else lo, np.inf if hi is None else hi)
             for lo, hi in bounds]
    return (np.asarray([p[0] for p in pairs], float),
            np.asarray([p[1] for p in pairs], float)), len(pairs)


class _Box:
    """``lb``/``ub`` for :func:`check_optimum` without building SciPy's ``Bounds``."""
    def __init__(self, pair):
        self.lb, self.ub = pair


def _global(name, func, x0, args, run, box=None, refuse=None):
    """SciPy's result of ``run(f, f_and_grad, start)`` (``f`` the objective on SciPy's
    flat float ``x`` with the plain ``args`` bound, ``f_and_grad`` its value and gradient;
    ``start`` the flat ``x0``), ``x`` in ``x0``'s dtype, with the derivative in ``args``
    where one is wanted; ``box``: the ``(lb, ub)`` arrays that can hold coordinates at the
    optimum, or None; ``refuse``: what the problem has that refuses a derivative, or
    None."""
    def objective(x, *values):
        value = fnp.asarray(func(x, *values))
        if value.size != 1:
            raise ValueError(f"{name}: func must return a scalar, got shape {value.shape}")
        return fnp.reshape(value, ())

    fun, args, x0, plain_args, wanted = prepare(name, objective, x0, args)
    if wanted and refuse:
        raise _refuse(name, refuse)
    flat0, unravel = ravel(tree.tree_map(lambda leaf: np.zeros(np.shape(leaf), leaf.dtype)
                                         if isinstance(leaf, Tracer) else leaf, x0))
    dtype = flat0.dtype

    def solve(start, values):
        def f(x):
            return float(np.asarray(fun(unravel(np.asarray(x, dtype)), *values)))

        flat_value_and_grad = value_and_grad(lambda x: fun(unravel(x), *values))

        def f_and_grad(x):
            value, gradient = flat_value_and_grad(np.asarray(x, dtype))
            return float(value), np.asarray(gradient, float)

        result = run(f, f_and_grad, np.asarray(ravel(start)[0], float))
        result.x = np.asarray(result.x, dtype).reshape(flat0.shape)
        held = _checked(name, lambda z, *v: fun(unravel(z), *v), result, values,
                        box) if wanted else None
        result.x = unravel(result.x)
        return result, held

    result, held, traced = search(solve, x0, plain_args, _TRACED_FIELDS, unravel)
    if wanted:
        flat_star = ravel(result.x)[0]
        result.x = unravel(differentiable_minimum(fun, flat_star, unravel, args, held, name,
                                                  "func"))
        result.fun = fun(result.x, *args)
    return result


def _checked(name, fun, result, values, box):
    """``(mask, pinned)``: the coordinates bounds hold at SciPy's ``result.x`` and their
    values, after the checks that the point is a minimum the implicit rule holds at."""
    x = np.asarray(result.x)

    def flat(z):
        return fun(z, *values)
    if "success" not in result:
        result.success = True
    held = check_optimum(result, None if box is None else _Box(box),
                         value_and_grad(flat), name)
    mask, pinned = held if held is not None else (np.zeros(x.shape, bool), np.zeros_like(x))
    free = ~mask
    gradient = np.asarray(value_and_grad(flat)(x)[1], float)[free]
    curvature = np.asarray(hessian(flat)(x), float)[np.ix_(free, free)]
    eigenvalues = np.linalg.eigvalsh((curvature + curvature.T) / 2) if free.any() else [1.0]
    if not np.all(np.isfinite(eigenvalues)) or np.min(eigenvalues) <= 1e-12 * max(
            1.0, np.max(np.abs(eigenvalues))):
        raise ValueError(
            f"{name}: a derivative in args was asked, but the Hessian of func at the "
            f"returned x is not positive definite (smallest eigenvalue "
            f"{np.min(eigenvalues):.3g}): x is not an isolated local minimum (a saddle, "
            f"a flat valley, or a point the search stopped at), so the implicit derivative "
            f"does not exist there. Make the minimum unique, or pass "
            f"fg.stop_gradient(args) if no derivative should flow through the result")
    step = np.linalg.solve(curvature, gradient) if free.any() else np.zeros(0)
    distance = float(np.max(np.abs(step), initial=0.0))
    if distance > _NEWTON_DISTANCE * (1.0 + float(np.max(np.abs(x), initial=0.0))):
        raise ValueError(
            f"{name}: a derivative in args was asked, but the returned x is about "
            f"{distance:.2g} (one Newton step) from the local minimum it approximates: the "
            f"implicit derivative holds at the minimum and would be wrong by as much. "
            f"Polish the result (polish=True, a local search, brute's "
            f"finish=scipy.optimize.minimize, or minimize from this x), or pass "
            f"fg.stop_gradient(args) if no derivative should flow through it")
    return mask, pinned.astype(x.dtype)


def _start(bounds):
    """A float start of the bounds' size (where SciPy takes bounds, not ``x0``): the
    centre of each finite interval, 0 elsewhere (only its shape and dtype are read)."""
    (lb, ub), n = _bound_pairs(bounds)
    centre = np.where(np.isfinite(lb) & np.isfinite(ub), (lb + ub) / 2, 0.0)
    return centre.reshape(n)


def _seeded(kwargs, seed):
    if seed is not None:   # (SciPy's legacy name for rng, passed only when given)
        kwargs["seed"] = seed
    return kwargs


def differential_evolution(func: Callable[..., Any], bounds: Any, args: Any = (),
                           strategy: Any = "best1bin", maxiter: int = 1000,
                           popsize: int = 15, tol: float = 0.01, mutation: Any = (0.5, 1),
                           recombination: float = 0.7, rng: Any = None,
                           callback: Optional[Callable[..., Any]] = None, disp: bool = False,
                           polish: Any = True, init: Any = "latinhypercube",
                           atol: float = 0, updating: str = "immediate", workers: Any = 1,
                           constraints: Any = (), x0: Any = None, *, integrality: Any = None,
                           vectorized: bool = False, seed: Any = None) -> Any:
    """Minimize ``func(x, *args)`` over ``bounds`` by differential evolution, with
    ``scipy.optimize.differential_evolution``.

    SciPy's signature and ``OptimizeResult``. ``func`` is evaluated on SciPy's candidates
    one at a time (a 1-D ``x``, also with ``vectorized=True``).

    ``res.x`` is differentiable in ``args`` (and in values ``func`` closes over) by the
    implicit function theorem at the local minimum it found (``polish=True``, SciPy's
    default, brings it there); a coordinate on a bound the gradient presses stays there.
    ``res.fun`` is then ``func(res.x, *args)``. Raised rather than wrong when a derivative
    is asked: a point farther than ``1e-4 (1 + |x|)`` from the minimum (``polish=False``),
    a Hessian that is not positive definite, a coordinate on a bound the gradient does not
    press, and ``constraints`` or ``integrality``. Under ``vmap`` or ``jit`` SciPy runs
    through ``fg.pure_callback`` and the result holds ``x``, ``fun``, ``success`` and
    ``nfev``.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import differential_evolution, rosen
    >>> res = differential_evolution(rosen, [(0, 2)] * 3, rng=1)   # SciPy's example
    >>> np.round(res.x, 6), res.success
    (array([1., 1., 1.]), True)
    >>> # the minimizer of sum((x - a)**2) + 0.1 sum(x**4) moves as 2 / (2 + 1.2 x**2)
    >>> def x0_of(a):
    ...     f = lambda x, a: np.sum((x - a) ** 2) + 0.1 * np.sum(x ** 4)
    ...     return differential_evolution(f, [(-2, 2)] * 2, args=(a,), rng=0).x[0]
    >>> x = x0_of(np.array([0.5, -0.3]))
    >>> g = fg.grad(x0_of)(np.array([0.5, -0.3]))
    >>> bool(np.allclose(g, [2 / (2 + 1.2 * x ** 2), 0.0]))
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    box, _ = _bound_pairs(bounds)

    def run(f, f_and_grad, start):
        def objective(x):   # (vectorized: SciPy's (n, S) population, one value a column)
            x = np.asarray(x)
            return np.array([f(x[:, i]) for i in range(x.shape[1])]) if x.ndim == 2 else f(x)
        return optimize.differential_evolution(
            objective, bounds, strategy=strategy, maxiter=maxiter, popsize=popsize, tol=tol,
            mutation=mutation, recombination=recombination, rng=rng, callback=callback,
            disp=disp, polish=polish, init=init, atol=atol, updating=updating,
            workers=workers, constraints=constraints, x0=x0, integrality=integrality,
            vectorized=vectorized, **_seeded({}, seed))

    refuse = ("constraints" if _given(constraints) else "integrality"
              if integrality is not None and np.any(np.asarray(integrality) != 0) else None)
    return _global("differential_evolution", func, _start(bounds), args, run, box, refuse)


def _given(constraints):
    """Whether SciPy's ``constraints`` argument holds any."""
    if constraints is None:
        return False
    return len(constraints) > 0 if isinstance(constraints, (list, tuple)) else True


def basinhopping(func: Callable[..., Any], x0: Any, niter: int = 100, T: float = 1.0,
                 stepsize: float = 0.5, minimizer_kwargs: Optional[dict[str, Any]] = None,
                 take_step: Any = None, accept_test: Any = None,
                 callback: Optional[Callable[..., Any]] = None, interval: int = 50,
                 disp: bool = False, niter_success: Optional[int] = None, rng: Any = None, *,
                 target_accept_rate: float = 0.5, stepwise_factor: float = 0.9,
                 seed: Any = None) -> Any:
    """Find the global minimum of ``func(x, *args)`` by basin hopping, with
    ``scipy.optimize.basinhopping``; the local minimizer gets funcgrad's exact gradient.

    SciPy's signature and ``OptimizeResult``; ``x0`` may also be a pytree (a dict of
    arrays, say: SciPy steps on its raveled values, ``func`` receives the pytree, and
    ``res.x`` has its structure). ``args`` go in ``minimizer_kwargs["args"]``, as in SciPy; the local minimizer (``minimize``'s ``method``, BFGS by default; also its
    ``bounds``) is given ``jac`` by funcgrad where its method reads one.

    ``res.x`` is differentiable in ``args`` (and in values ``func`` closes over) by the
    implicit function theorem at the local minimum it found; ``res.fun`` is then
    ``func(res.x, *args)``. The same checks as :func:`differential_evolution`'s raise
    where the derivative would be wrong; ``constraints`` in ``minimizer_kwargs`` raise
    when a derivative is asked. Under ``vmap`` or ``jit`` the result holds ``x``, ``fun``,
    ``success`` and ``nfev``.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import basinhopping
    >>> def f(x, a):   # minima about 2 pi / 3 apart, the deepest one near 1.07
    ...     return np.cos(3 * x[0]) + 0.1 * (x[0] - a) ** 2
    >>> res = basinhopping(f, [1.0], minimizer_kwargs={"args": (2.0,)}, niter=50, rng=0)
    >>> np.round(res.x, 6)
    array([1.067924])
    >>> # at the minimum -3 sin(3x) + 0.2 (x - a) = 0: dx/da = 0.2 / (0.2 - 9 cos(3x))
    >>> x = res.x[0]
    >>> g = fg.grad(lambda a: basinhopping(f, [1.0], minimizer_kwargs={"args": (a,)},
    ...                                    niter=50, rng=0).x[0])(2.0)
    >>> bool(np.isclose(g, 0.2 / (0.2 - 9 * np.cos(3 * x))))
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    kwargs = dict(minimizer_kwargs or {})
    args = kwargs.pop("args", ())
    method = kwargs.get("method")
    if kwargs.get("jac") not in (None, True) or callable(method):
        raise ValueError("basinhopping: funcgrad computes the local minimizer's jac from "
                         "func; leave 'jac' out of minimizer_kwargs (a custom method "
                         "callable: call SciPy's basinhopping)")
    kwargs.pop("jac", None)
    bounds = kwargs.get("bounds")
    box = None if bounds is None else _bound_pairs(bounds)[0]
    gradient_free = str(method).lower() in ("nelder-mead", "powell", "cobyla", "cobyqa")

    def run(f, f_and_grad, start):
        local = dict(kwargs)
        objective = f if gradient_free else f_and_grad
        if not gradient_free:
            local["jac"] = True
        return optimize.basinhopping(
            objective, start, niter=niter, T=T, stepsize=stepsize, minimizer_kwargs=local,
            take_step=take_step, accept_test=accept_test, callback=callback,
            interval=interval, disp=disp, niter_success=niter_success, rng=rng,
            target_accept_rate=target_accept_rate, stepwise_factor=stepwise_factor,
            **_seeded({}, seed))

    refuse = "constraints" if _given(kwargs.get("constraints")) else None
    return _global("basinhopping", func, x0, args, run, box, refuse)


def brute(func: Callable[..., Any], ranges: Any, args: Any = (), Ns: int = 20,
          full_output: int = 0, finish: Any = "fmin", disp: bool = False,
          workers: Any = 1) -> Any:
    """Minimize ``func(x, *args)`` over a grid by brute force, with
    ``scipy.optimize.brute``, then polish the best point with ``finish`` (SciPy's
    ``fmin`` by default; ``"fmin"`` stands for it, so that importing funcgrad does not
    load SciPy).

    SciPy's signature and return: ``x0``; with ``full_output`` ``(x0, fval, grid,
    Jout)``.

    ``x0`` is differentiable in ``args`` (and in values ``func`` closes over) by the
    implicit function theorem at the local minimum ``finish`` polished it to; ``fval``
    is then ``func(x0, *args)``. The same checks as :func:`differential_evolution`'s raise
    where the derivative would be wrong: ``fmin``'s default tolerances (``xtol=1e-4``)
    stop too far from the minimum, so pass a closer finish (``scipy.optimize.minimize``;
    SciPy's brute passes ``full_output`` only to a finish that names it, so a
    ``functools.partial`` of ``fmin`` would lose it), and ``finish=None`` leaves a grid
    point. Under ``vmap`` or ``jit`` only ``x0`` comes back (``full_output`` raises).

    >>> import numpy as np, scipy.optimize, funcgrad as fg
    >>> from funcgrad.scipy.optimize import brute
    >>> f = lambda x, a: np.sum((x - a) ** 2) + 0.1 * np.sum(x ** 4)
    >>> finish = scipy.optimize.minimize    # (BFGS: closer to the minimum than fmin)
    >>> x0 = brute(f, ((-2, 2), (-2, 2)), args=(np.array([0.5, -0.3]),), finish=finish)
    >>> np.round(x0, 6)
    array([ 0.478138, -0.294872])
    >>> # x* solves 2 (x - a) + 0.4 x**3 = 0: dx0/da0 = 2 / (2 + 1.2 x0**2)
    >>> g = fg.grad(lambda a: brute(f, ((-2, 2), (-2, 2)), args=(a,), finish=finish)[0])(
    ...     np.array([0.5, -0.3]))
    >>> bool(np.allclose(g, [2 / (2 + 1.2 * x0[0] ** 2), 0.0]))
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    polish = optimize.fmin if isinstance(finish, str) and finish == "fmin" else finish

    def run(f, f_and_grad, start):
        out = optimize.brute(f, ranges, Ns=Ns, full_output=True, finish=polish, disp=disp,
                             workers=workers)
        return optimize.OptimizeResult(x=np.atleast_1d(out[0]), fun=out[1], grid=out[2],
                                       Jout=out[3], success=True, nfev=np.size(out[3]))

    start = np.zeros(len(ranges))
    result = _global("brute", func, start, args, run)
    x = result.x if np.ndim(result.x) else result.x
    if not full_output:
        return x
    if "grid" not in result:
        raise NotImplementedError("brute: full_output under vmap or jit: grid and Jout "
                                  "stay on the host; leave full_output out there")
    return x, result.fun, result.grid, result.Jout


def dual_annealing(func: Callable[..., Any], bounds: Any, args: Any = (), maxiter: int = 1000,
                   minimizer_kwargs: Optional[dict[str, Any]] = None,
                   initial_temp: float = 5230.0, restart_temp_ratio: float = 2e-05,
                   visit: float = 2.62, accept: float = -5.0, maxfun: float = 1e7,
                   rng: Any = None, no_local_search: bool = False,
                   callback: Optional[Callable[..., Any]] = None, x0: Any = None, *,
                   seed: Any = None) -> Any:
    """Find the global minimum of ``func(x, *args)`` over ``bounds`` by dual annealing, with
    ``scipy.optimize.dual_annealing``; its local searches get funcgrad's exact gradient.

    SciPy's signature and ``OptimizeResult``. ``res.x`` is differentiable in ``args`` (and
    in values ``func`` closes over) by the implicit function theorem at the local minimum
    it found; ``res.fun`` is then ``func(res.x, *args)``. The same checks as
    :func:`differential_evolution`'s raise where the derivative would be wrong
    (``no_local_search=True`` leaves a point short of the minimum).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import dual_annealing
    >>> f = lambda x, a: np.sum((x - a) ** 2) + 0.1 * np.sum(x ** 4)
    >>> res = dual_annealing(f, [(-2, 2)] * 2, args=(np.array([0.5, -0.3]),), rng=0)
    >>> np.round(res.x, 6)
    array([ 0.478138, -0.294872])
    >>> g = fg.grad(lambda a: dual_annealing(f, [(-2, 2)] * 2, args=(a,), rng=0).x[0])(
    ...     np.array([0.5, -0.3]))
    >>> bool(np.allclose(g, [2 / (2 + 1.2 * res.x[0] ** 2), 0.0]))
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    box, _ = _bound_pairs(bounds)
    local = dict(minimizer_kwargs or {})
    own_jac = "jac" in local

    def run(f, f_and_grad, start):
        kwargs = dict(local)
        if not own_jac:   # (SciPy's local search, L-BFGS-B, reads the gradient)
            kwargs["jac"] = lambda x: f_and_grad(x)[1]
        return optimize.dual_annealing(
            f, bounds, maxiter=maxiter, minimizer_kwargs=kwargs, initial_temp=initial_temp,
            restart_temp_ratio=restart_temp_ratio, visit=visit, accept=accept, maxfun=maxfun,
            rng=rng, no_local_search=no_local_search, callback=callback, x0=x0,
            **_seeded({}, seed))

    return _global("dual_annealing", func, _start(bounds), args, run, box)


def shgo(func: Callable[..., Any], bounds: Any, args: Any = (), constraints: Any = None,
         n: int = 100, iters: int = 1, callback: Optional[Callable[..., Any]] = None,
         minimizer_kwargs: Optional[dict[str, Any]] = None,
         options: Optional[dict[str, Any]] = None, sampling_method: Any = "simplicial", *,
         workers: Any = 1) -> Any:
    """Find the global minimum of ``func(x, *args)`` over ``bounds`` by simplicial homology
    global optimization, with ``scipy.optimize.shgo``; its local searches get funcgrad's
    exact gradient (``options["jac"]``).

    SciPy's signature and ``OptimizeResult`` (``xl`` and ``funl``: the local minima).
    ``res.x`` is differentiable in ``args`` (and in values ``func`` closes over) by the
    implicit function theorem at the minimum; ``res.fun`` is then ``func(res.x, *args)``;
    the other fields carry no derivative. The same checks as
    :func:`differential_evolution`'s raise where the derivative would be wrong, and
    ``constraints`` raise when a derivative is asked.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import shgo
    >>> f = lambda x, a: np.sum((x - a) ** 2) + 0.1 * np.sum(x ** 4)
    >>> res = shgo(f, [(-2, 2)] * 2, args=(np.array([0.5, -0.3]),))
    >>> np.round(res.x, 6)
    array([ 0.478138, -0.294872])
    >>> g = fg.grad(lambda a: shgo(f, [(-2, 2)] * 2, args=(a,)).x[0])(np.array([0.5, -0.3]))
    >>> bool(np.allclose(g, [2 / (2 + 1.2 * res.x[0] ** 2), 0.0]))
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    box, _ = _bound_pairs(bounds)
    opts = dict(options or {})

    def run(f, f_and_grad, start):
        local_options = dict(opts)
        local_options.setdefault("jac", lambda x: f_and_grad(x)[1])
        return optimize.shgo(f, bounds, constraints=constraints, n=n, iters=iters,
                             callback=callback, minimizer_kwargs=minimizer_kwargs,
                             options=local_options, sampling_method=sampling_method,
                             workers=workers)

    refuse = "constraints" if _given(constraints) else None
    return _global("shgo", func, _start(bounds), args, run, box, refuse)


def direct(func: Callable[..., Any], bounds: Any, *, args: Any = (), eps: float = 1e-4,
           maxfun: Optional[int] = None, maxiter: int = 1000, locally_biased: bool = True,
           f_min: float = -np.inf, f_min_rtol: float = 1e-4, vol_tol: float = 1e-16,
           len_tol: float = 1e-6, callback: Optional[Callable[..., Any]] = None) -> Any:
    """Find the global minimum of ``func(x, *args)`` over ``bounds`` by DIviding RECTangles,
    with ``scipy.optimize.direct``.

    SciPy's signature and ``OptimizeResult``. DIRECT samples the centres of boxes and does
    no local search, so its ``x`` is as close to the minimum as ``len_tol`` makes it:
    ``res.x`` is differentiable in ``args`` (by the implicit function theorem) only where
    it is within ``1e-4 (1 + |x|)`` of the local minimum (one Newton step); farther, a
    derivative raises: polish the result with :func:`minimize` from ``res.x`` and
    differentiate that.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import direct, minimize
    >>> f = lambda x, a: np.sum((x - a) ** 2) + 0.1 * np.sum(x ** 4)
    >>> a = np.array([0.5, -0.3])
    >>> res = direct(f, [(-2, 2)] * 2, args=(a,))
    >>> np.round(res.x, 3)
    array([ 0.478, -0.295])
    >>> # polished, then differentiated
    >>> g = fg.grad(lambda a: minimize(f, res.x, args=(a,)).x[0])(a)
    >>> x = minimize(f, res.x, args=(a,)).x
    >>> bool(np.allclose(g, [2 / (2 + 1.2 * x[0] ** 2), 0.0]))
    True
    """
    import scipy.optimize as optimize   # (here, so that importing funcgrad never loads SciPy)

    box, _ = _bound_pairs(bounds)

    def run(f, f_and_grad, start):
        return optimize.direct(f, bounds, eps=eps, maxfun=maxfun, maxiter=maxiter,
                               locally_biased=locally_biased, f_min=f_min,
                               f_min_rtol=f_min_rtol, vol_tol=vol_tol, len_tol=len_tol,
                               callback=callback)

    return _global("direct", func, _start(bounds), args, run, box)
