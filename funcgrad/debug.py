"""``jax.debug``'s ``print`` and ``callback``: look at the values inside a transformed
function without changing what it computes.

Under ``grad``, ``jvp``, ``vjp``, ``jacfwd``... funcgrad's values are concrete, so the
callback runs at once on the primal values (what the function computes; no derivative
flows into or out of it).  Under ``vmap`` it runs once per example, in order, on that
example's values (JAX's rule).  While a function is traced with abstract values (``jit``,
``make_graph``, the bodies of ``lax.scan``/``cond``/``while_loop``) it becomes the
equation ``debug_callback`` of the graph, a primitive with no result that the graph
passes keep (it has an effect), run each time the graph runs: once per iteration of a
loop body, on that iteration's values, compiled under ``jit`` too (the compiled code
calls back into Python), as JAX's.

>>> import numpy as np, funcgrad as fg
>>> def f(x):
...     fg.debug.print("x = {}", x)
...     return np.sum(x ** 2)
>>> fg.grad(f)(np.array([1.0, 2.0]))
x = [1. 2.]
array([2., 4.])
>>> _ = fg.lax.scan(lambda c, x: (fg.debug.print("c = {}", c), (c + x, c))[1], 0.0,
...                 np.arange(3.0))
c = 0.0
c = 0.0
c = 1.0
"""
import builtins
import sys
from typing import Any, Callable

import numpy as np

from . import tree
from .core import Primitive, Tracer, is_special
from .devices import register_gpu
from .interpreters.batching import BatchTracer
from .interpreters.graph import EFFECTS, effects_muted
from .interpreters.forward import JVPTracer
from .interpreters.reverse import ReverseTracer

__all__ = ["callback", "print", "CallbackNeedsValues", "debug_callback_p"]


class CallbackNeedsValues(TypeError):
    """Kept for code that catches it: ``debug.callback`` / ``debug.print`` inside a traced
    function no longer raise (they become a graph equation)."""


def callback(callback: Callable[..., Any], *args: Any, ordered: bool = False,
             partitioned: bool = False, **kwargs: Any) -> None:
    """Call ``callback(*args, **kwargs)`` on the values of ``args`` (pytrees; NumPy
    arrays at the leaves), for its side effect; returns None.  Under ``vmap`` it is
    called once per example.  ``ordered`` and ``partitioned`` are accepted for JAX's
    signature: funcgrad runs callbacks in program order, on one device.

    >>> import numpy as np, funcgrad as fg
    >>> seen = []
    >>> _ = fg.vmap(lambda x: fg.debug.callback(seen.append, x) or x * 2)(np.arange(3.0))
    >>> seen
    [array(0.), array(1.), array(2.)]
    """
    if not callable(callback):
        raise TypeError(f"debug.callback: the first argument must be a function to call, "
                        f"got {type(callback).__name__}")
    leaves, treedef = tree.flatten((args, kwargs), is_special)
    _run(callback, leaves, treedef)


def print(fmt: str, *args: Any, ordered: bool = False, **kwargs: Any) -> None:
    """Print ``fmt.format(*args, **kwargs)`` with the values of the arguments (JAX's
    ``jax.debug.print``): under ``grad`` the primal values, under ``vmap`` one line per
    example.

    >>> import numpy as np, funcgrad as fg
    >>> _ = fg.vmap(lambda x: fg.debug.print("example {i}: {v}", i=0, v=x))(np.ones(2))
    example 0: 1.0
    example 0: 1.0
    """
    if not isinstance(fmt, str):
        raise TypeError(f"debug.print: the first argument is the format string "
                        f"(str.format's), got {type(fmt).__name__}; write "
                        f"fg.debug.print('{{}}', x)")

    def show(*values: Any, **named: Any) -> None:
        builtins.print(fmt.format(*values, **named))

    callback(show, *args, ordered=ordered, **kwargs)


def _peel(x):
    """``x`` without the differentiating transforms' tracers: their primal value."""
    while True:
        if isinstance(x, JVPTracer):
            x = x.primal
        elif isinstance(x, ReverseTracer):
            x = x.value
        else:
            return x


def _run(fn, leaves, treedef):
    leaves = [_peel(x) for x in leaves]
    batched = next((x for x in leaves if isinstance(x, BatchTracer)), None)
    if batched is not None:
        # one call per example of one vmap (nested vmaps: the rest in the calls below)
        interp = batched._trace
        for k in range(interp.axis_size):
            _run(fn, [_example(x, k) if isinstance(x, BatchTracer) and x._trace is interp
                      else x for x in leaves], treedef)
        return
    if any(isinstance(x, Tracer) for x in leaves):
        # traced with shapes only (jit, make_graph, a loop body): an equation of the graph,
        # run whenever the graph runs, on the values of that run
        debug_callback_p.bind(*leaves, callback=fn, in_tree=treedef)
        return
    _call(leaves, callback=fn, in_tree=treedef)


def _call(leaves, *, callback, in_tree):
    if effects_muted():  # (compiled code run once to compile it, not called)
        return []
    args, kwargs = tree.unflatten(in_tree, [_host(x) for x in leaves])
    callback(*args, **kwargs)
    return []


def _batch(args, dims, *, callback, in_tree):
    """Once per example, in order (as JAX's), each on that example's values."""
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    for k in range(size):
        debug_callback_p.bind(*[a if d is None else a[(slice(None),) * d + (k,)]
                                for a, d in zip(args, dims)], callback=callback,
                              in_tree=in_tree)
    return [], []


# No result and no derivative: the differentiating interpreters hand it the primal values.
debug_callback_p = Primitive(
    "debug_callback", lambda *leaves, **params: _call(leaves, **params),
    abstract_eval=lambda *avals, **params: [], batch=_batch, multiple_results=True,
    differentiable=False)
EFFECTS.add(debug_callback_p)
register_gpu({debug_callback_p: debug_callback_p.impl})  # (_host brings the values over)


def _example(x, k):
    """Example ``k`` of the batched value ``x`` (its batch axis taken out)."""
    value = _peel(x.value)
    index = (slice(None),) * x.batch_dim + (k,)
    return value[index]


def _host(x):
    """A leaf as the callback gets it: a NumPy array for numbers and arrays (JAX hands
    callbacks arrays, Python numbers included), anything else as it is."""
    gpu = sys.modules.get("funcgrad.gpu")
    if gpu is not None and isinstance(x, gpu.GpuArray):
        return gpu.device_get(x)
    if is_special(x) and hasattr(x, "detach"):  # an eager Tensor: its value
        return np.asarray(x.detach().numpy())
    if isinstance(x, (np.ndarray, np.generic, int, float, complex)):
        return np.asarray(x)
    return x
