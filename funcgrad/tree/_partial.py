"""``Partial``: ``functools.partial`` as a pytree (``jax.tree_util.Partial``), so a
function with some arguments bound can be passed to and returned from transforms."""
import functools
from typing import Any, Callable

from ._nodes import register

__all__ = ["Partial"]


class Partial(functools.partial):
    """``functools.partial`` whose bound arguments are the pytree's children and whose
    function is part of its structure: transforms see through it (the arguments are
    traced, differentiated, batched), and it can cross ``jit`` as an argument or result.

    A Partial of a Partial is merged into one (``functools.partial``'s own rule), so the
    bound arguments of both are children.  JAX's ``Partial`` keeps the inner one whole as
    part of the structure instead (one child fewer), where its arrays are neither traced
    nor differentiated; funcgrad's choice lets every bound array carry a derivative.

    >>> import numpy as np, funcgrad as fg
    >>> scale = fg.tree.Partial(np.multiply, 3.0)
    >>> scale(2.0), fg.tree.flatten(scale)[0]
    (np.float64(6.0), [3.0])
    >>> fg.grad(lambda s: s(2.0))(scale)      # d(3.0 * 2.0) / d(the bound 3.0)
    Partial(<ufunc 'multiply'>, np.float64(2.0))
    """


def _unflatten(func: Callable[..., Any], children: Any) -> Partial:
    args, keywords = children
    return Partial(func, *args, **keywords)


register(Partial, lambda p: ((p.args, p.keywords), p.func), _unflatten)
