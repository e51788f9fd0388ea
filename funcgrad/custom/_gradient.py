"""``custom_gradient`` (JAX's ``jax.custom_gradient``): a function that returns its value
and its own VJP, as a ``custom_vjp`` whose residual is that VJP."""
import functools
from typing import Any, Callable

from ._decorators import custom_vjp

__all__ = ["custom_gradient"]


def custom_gradient(fun: Callable[..., Any]) -> Callable[..., Any]:
    """Decorator for ``fun(*args) -> (value, vjp_fn)``, where ``vjp_fn(cotangent)``
    returns one cotangent per argument (a tuple, or the cotangent itself for a function
    of one argument): the decorated function returns ``value``, and reverse mode
    (``grad``, ``vjp``) uses ``vjp_fn``.  As in JAX, forward mode (``jvp``, ``jacfwd``)
    is not available; use ``fg.custom_jvp`` for it.

    >>> import numpy as np, funcgrad as fg
    >>> @fg.custom_gradient
    ... def log1pexp(x):
    ...     value = np.log1p(np.exp(x))
    ...     return value, lambda g: g * (1.0 - 1.0 / (1.0 + np.exp(x)))
    >>> float(fg.grad(log1pexp)(0.0))
    0.5
    """
    name = getattr(fun, "__name__", "f")

    @functools.wraps(fun)
    def value(*args):
        return _pair(fun(*args), name)[0]

    def fwd(*args):
        return _pair(fun(*args), name)  # (the residual is the VJP itself)

    def bwd(vjp_fn, cotangent):
        cts = vjp_fn(cotangent)
        return cts if isinstance(cts, (tuple, list)) else (cts,)

    wrapped = custom_vjp(value)
    wrapped.defvjp(fwd, bwd)
    return wrapped


def _pair(result, name):
    if not (isinstance(result, tuple) and len(result) == 2 and callable(result[1])):
        raise TypeError(f"custom_gradient: {name} must return a pair (value, vjp_fn), "
                        f"vjp_fn taking the output's cotangent; it returned "
                        f"{type(result).__name__}")
    return result
