"""The univariate distributions' ``rvs`` under ``vmap`` and ``jit``: SciPy's draws made when
the traced function runs, through :func:`funcgrad.pure_callback`, with the same pathwise
derivative as the eager draws of :mod:`._distn_draws`.

Under ``vmap`` or ``jit`` a parameter has no single concrete value when ``rvs`` is called,
so SciPy cannot draw then.  The draw is a host call instead, run on each concrete value
of the parameters whenever the traced code runs: under ``jit`` at every call of the
compiled function (a fresh draw each time, from the random state as it is then), under
``vmap`` once per example, in the batch's order (``"sequential"``), so that ``vmap(f)(xs)``
equals ``[f(x) for x in xs]`` stacked, the random state consumed as that loop consumes it.

The derivative is the eager one, written with traced operations: the host call returns
SciPy's draws ``x`` and the standardized draws ``z0`` behind them (drawn again from a copy
of the random state, as eagerly); ``z(theta)`` is the root of ``cdf(z; theta) - u`` with
``u = cdf(z0; theta)`` held fixed (:func:`funcgrad.lax.custom_root`), and the result is
``x + (loc - sg(loc)) + (scale * z - sg(scale) * z0)``, each added term 0 in value.  Under
``jit`` nothing says yet whether a later transform will differentiate the compiled
function, so every traced parameter of a continuous family is taken to move: the graph
always holds the derivative's terms (one ``cdf`` per draw more), and the host call checks
what the eager draws check before giving a derivative (``scale > 0``, parameters that
funcgrad's family accepts), raising there rather than later.  A family whose ``cdf``
cannot be traced (``norminvgauss``, ``geninvgauss``, ``kstwo``) draws under ``jit`` and
``vmap`` all the same; differentiating its draws in a shape parameter raises, naming why.
"""
import copy
import functools
from typing import Any, Callable, Dict, List, Optional

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..core import Tracer, is_special
from ..custom._decorators import _casting_custom_jvp as custom_jvp
from ..lax import custom_root, stop_gradient
from ..numpy._convert import is_concrete, operand
from ._implicit_root import wants_derivative

__all__ = ["is_traced", "may_carry_derivative", "traced_rvs"]


def is_traced(value: Any) -> bool:
    """Whether ``value`` (a parameter of ``rvs``) has no single concrete value now: a batch
    under ``vmap``, an abstract value under ``jit``."""
    if not isinstance(value, (list, tuple)):
        return (isinstance(value, Tracer) or is_special(value)) and not is_concrete(value)
    return any(is_traced(v) for v in value)


def may_carry_derivative(value: Any) -> bool:
    """Whether ``value`` carries a derivative now, or may later: under ``vmap`` the batch
    tracer's values are looked into (``grad(vmap(f))`` differentiates them); a ``jit``
    tracer holds no value, and the compiled function may be differentiated."""
    while isinstance(value, Tracer) or is_special(value):
        if wants_derivative(value):
            return True
        inner = value._carried() if isinstance(value, Tracer) else None
        if inner is None:
            return isinstance(value, Tracer)
        value = inner
    return False


@functools.partial(custom_jvp, nondiff_argnums=(2,))
def _no_shape_derivative(z0: Any, shape: tuple, message: str) -> Any:
    """``z0`` itself; differentiating it in ``shape`` raises ``NotImplementedError(message)``."""
    return z0


@_no_shape_derivative.defjvp
def _no_shape_derivative_jvp(message, primals, tangents):
    raise NotImplementedError(message)


def _draw_shape(name: str, named: Dict[str, Any], shapes: Any, size: Any) -> tuple:
    if size is not None:
        return tuple(int(n) for n in np.atleast_1d(np.asarray(size, dtype=np.int64)))
    trials = name == "poisson_binom"  # (its p holds the trials along its last axis)
    sizes = [np.shape(v) if not hasattr(v, "shape") else tuple(v.shape)
             for v in named.values()]
    sizes = [s[:-1] if trials and k in shapes else s for k, s in zip(named, sizes)]
    return tuple(np.broadcast_shapes(*sizes))


def _host_draws(dist: Any, twin: Any, names: List[str], size: Any,
                state: Callable[[], Any], derivative: bool,
                checked: bool) -> Callable[..., Any]:
    """The host function: SciPy's draws at the parameters' values (``names``' order), and,
    with ``derivative``, the standardized draws behind them."""
    n = len(dist.shapes)

    def draw(*values):
        *values, ok = values if checked else (*values, None)
        shapes, placement = values[:n], dict(zip(names[n:], values[n:]))
        rng = state()
        if derivative:
            if np.any(np.asarray(placement.get("scale", 1.0)) == 0):
                raise ValueError(f"{dist.name}.rvs: with scale = 0 the draws are loc, taken "
                                 f"without SciPy's random stream, and have no derivative in "
                                 f"the shape parameters or scale (under jit the draws always "
                                 f"hold their derivative's terms); pass scale > 0")
            if ok is not None and not np.all(ok):
                raise ValueError(f"{dist.name}.rvs: SciPy drew at parameters that funcgrad's "
                                 f"{dist.name} treats as invalid, where its cdf gives no "
                                 f"derivative (under jit the draws always hold their "
                                 f"derivative's terms); check the parameters")
        # (a copy of the random state before the draws: the standardized draws are drawn
        # again from it, the caller's state left where SciPy's call leaves it)
        spare = copy.deepcopy(rng) if derivative else None
        draws = twin.rvs(*shapes, size=size, random_state=rng, **placement)
        if not derivative:
            return np.asarray(draws)
        standard = twin.rvs(*shapes, loc=np.zeros(np.shape(placement["loc"])),
                            scale=np.ones(np.shape(placement["scale"])), size=size,
                            random_state=spare)
        return np.asarray(draws), np.asarray(standard, dtype=float)
    draw.__name__ = f"{dist.name}.rvs"
    return draw


def traced_rvs(dist: Any, twin: Any, named: Dict[str, Any], shape: List[Any], loc: Any,
               scale: Any, ok: Optional[Any], size: Any, state: Callable[[], Any]) -> Any:
    """``dist.rvs`` where a parameter is traced (see the module docstring): ``named`` the
    parameters as given, by name (loc and scale with their defaults); ``shape``, ``loc``,
    ``scale`` and ``ok`` as ``dist._args`` gives them; ``state()`` the random state to
    draw from, looked up when the draw is made."""
    discrete = "scale" not in dist._defaults
    names = list(dist.shapes) + (["loc"] if discrete else ["loc", "scale"])
    moving = (any(may_carry_derivative(s) for s in shape)
              or any(may_carry_derivative(v) for v in vars(dist).values()))
    derivative = not discrete and (
        moving or may_carry_derivative(loc) or may_carry_derivative(scale))
    values = [stop_gradient(operand(named[k])) for k in names]
    checked = derivative and ok is not None
    if checked:
        values.append(ok)
    out_shape = _draw_shape(dist.name, {k: named[k] for k in names}, dist.shapes, size)
    dtype = np.dtype(np.int64 if discrete else np.float64)
    host = _host_draws(dist, twin, names, size, state, derivative, checked)
    declared: Any = np.empty(out_shape, dtype)
    if derivative:
        declared = (declared, np.empty(out_shape, np.float64))
    drawn = pure_callback(host, declared, *values, vmap_method="sequential")
    if not derivative:
        return drawn
    x, z0 = drawn
    finite = fnp.isfinite(z0)
    z0 = fnp.where(finite, z0, 0.0)
    z = z0
    if moving:
        try:
            u = stop_gradient(dist.cdf(z0, *shape))
            z = custom_root(lambda z: dist.cdf(z, *shape) - u, z0, lambda f, guess: z0,
                            lambda linear, rhs: rhs / linear(fnp.ones_like(rhs)))
        except TypeError as e:  # (ConcretizationError too: a cdf on concrete values only)
            z = _no_shape_derivative(z0, tuple(shape), (
                f"{dist.name}.rvs: the draws' derivative in the shape parameters is that of "
                f"the root z of {dist.name}.cdf(z) = u, which funcgrad traces without "
                f"concrete values, and {dist.name}.cdf cannot run so ({e}). Differentiate "
                f"in loc and scale only, passing the shape parameters through "
                f"fg.stop_gradient"))
    out = x
    if may_carry_derivative(loc):
        out = out + (loc - stop_gradient(loc))
    out = out + (scale * z - stop_gradient(scale) * z0)
    # (an overflowed draw: a constant, as eagerly)
    return fnp.where(finite, out, x)
