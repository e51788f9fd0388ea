"""``fori_loop``: a counted loop, as a ``scan`` when its bounds are Python ints (every
transform works, reverse mode inside ``jit`` included) and a ``while_loop`` otherwise."""
import numbers
from typing import Any, Callable

import numpy as np

from .. import tree
from ._graphs import aval, check_carry, flatten_operands, operand, promoting_weak_carry
from ._scan import scan
from ._while import while_loop
from ..typing import ArrayLike, PyTree

__all__ = ["fori_loop"]


def _static_int(x):
    if isinstance(x, (numbers.Integral, np.integer)) and not isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, np.ndarray) and x.ndim == 0 and x.dtype.kind in "iu":
        return int(x)
    return None


def fori_loop(lower: ArrayLike, upper: ArrayLike, body_fun: Callable[..., Any],
              init_val: PyTree, *, unroll: int | bool | None = None) -> PyTree:
    """``for i in range(lower, upper): val = body_fun(i, val)``; returns ``val``.

    With Python-int bounds this is a :func:`scan` (every transform, reverse mode
    included, inside and outside ``jit``); with traced bounds a :func:`while_loop`.  The
    index ``i`` is an int64 scalar (like any int64 array it promotes float32 to float64:
    cast it, ``i.astype(x.dtype)``, when mixing).  ``unroll`` is handed to that scan (a
    hint that changes no result); as in JAX, traced bounds take none.

    >>> import numpy as np, funcgrad as fg
    >>> float(fg.grad(lambda x: fg.lax.fori_loop(0, 3, lambda i, v: v * x, 1.0))(2.0))
    12.0
    """
    lo, hi = _static_int(lower), _static_int(upper)
    raw_leaves, init_tree = flatten_operands(init_val)
    if lo is None or hi is None:
        if unroll is not None and unroll is not False and unroll != 1:
            # a while_loop has no trip count to unroll by
            raise ValueError(f"fori_loop: unroll={unroll!r} needs loop bounds known before "
                             "the loop runs (Python ints); with traced bounds leave unroll "
                             "out, or pass the bounds as static arguments of fg.jit")
        from ..primitives.structural import convert_element_type
        lower = convert_element_type(operand(lower), np.int64)
        upper = convert_element_type(operand(upper), np.int64)

    def loop(init_leaves, weak):
        init_avals = [aval(x) for x in init_leaves]
        init = tree.unflatten(init_tree, init_leaves)

        def checked_body(i, val):
            out = body_fun(i, val)
            check_carry("fori_loop", init_tree, init_avals, out, weak)
            return out

        if lo is not None and hi is not None:
            def step(carry, _):
                i, val = carry
                return (i + 1, checked_body(i, val)), None
            (_, val), _ = scan(step, (np.int64(lo), init), None, length=max(hi - lo, 0),
                               unroll=1 if unroll is None else unroll)
            return val

        def cond_fun(carry):
            return carry[0] < carry[1]

        def body(carry):
            i, stop, val = carry
            return i + 1, stop, checked_body(i, val)

        return while_loop(cond_fun, body, (lower, upper, init))[2]

    # (a Python-number carry leaf takes the dtype the body gives it, as in scan)
    return promoting_weak_carry(raw_leaves, loop)
