"""``out=`` on :mod:`funcgrad.scipy.special`'s functions, as SciPy's ufuncs take it.

:func:`with_out` makes a function whose SciPy counterpart is a ufunc a ufunc front
(:mod:`._special_ufunc`: all of NumPy's keywords, the ufunc's attributes and methods); the
rest of this module is ``out=`` alone, for SciPy's Python functions that take it (``zeta``,
``softplus``).  With plain NumPy arrays the result is written into ``out`` (broadcast to its shape, cast
under NumPy's ``same_kind`` rule, as a ufunc's ``out``) and ``out`` is returned; a
two-output function (``sici``, ``fresnel``) takes a pair.  Under ``grad``, ``jit`` or
``vmap`` a result is a traced value, which cannot be written into an array: a
``TypeError`` names the fix (use the returned value), as ``jax.numpy``'s functions do.
"""
import functools
import inspect
from typing import Any, Callable

import numpy as np

from ._special_ufunc import is_scipy_ufunc, ufunc_front

__all__ = ["with_out", "write_out"]


def _plain(value):
    return isinstance(value, (np.ndarray, np.generic, float, int, complex))


def write_out(name: str, result: Any, out: Any) -> Any:
    """``result`` written into ``out`` (an array, or a tuple of one per output) and ``out``
    returned; ``result`` itself when ``out`` is None."""
    if out is None:
        return result
    results = result if isinstance(result, tuple) else (result,)
    outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != len(results):
        raise ValueError(f"{name}: out= needs {len(results)} array(s), one per output; got "
                         f"{len(outs)}")
    for r, o in zip(results, outs):
        if not _plain(r):
            raise TypeError(f"{name}(..., out=...) writes into an array, which a traced "
                            f"value (under grad, jit or vmap) cannot be: use the returned "
                            f"value, y = {name}(...)")
        if not isinstance(o, np.ndarray):
            raise TypeError(f"{name}: out= must be a NumPy array (or a tuple of them), got "
                            f"{type(o).__name__}")
    for r, o in zip(results, outs):
        np.copyto(o, r, casting="same_kind")
    if isinstance(result, tuple):
        return outs
    return outs[0]


def with_out(f: Callable[..., Any]) -> Callable[..., Any]:
    """``f`` taking SciPy's ufunc keyword ``out=`` (see the module docstring); where
    SciPy's function is a ufunc, all of a ufunc (:mod:`._special_ufunc`)."""
    name = f.__name__
    if is_scipy_ufunc(name):
        return ufunc_front(f)

    @functools.wraps(f)
    def g(*args: Any, out: Any = None, **kwargs: Any) -> Any:
        if out is None:
            return f(*args, **kwargs)
        return write_out(name, f(*args, **kwargs), out)
    try:
        signature = inspect.signature(f)
        parameters = list(signature.parameters.values())
        if not any(p.kind == p.VAR_KEYWORD for p in parameters):
            parameters.append(inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY,
                                                default=None))
        g.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    except (TypeError, ValueError):  # (no signature to read: the wrapper's own)
        pass
    return g
