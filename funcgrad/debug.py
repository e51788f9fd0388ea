"""``jax.debug``'s ``print`` and ``callback``: look at the values inside a transformed
function without changing what it computes.

Under ``grad``, ``jvp``, ``vjp``, ``jacfwd``... funcgrad's values are concrete, so the
callback runs at once on the primal values (what the function computes; no derivative
flows into or out of it).  Under ``vmap`` it runs once per example, in order, on that
example's values (JAX's rule).  While a function is traced with abstract values (``jit``,
``make_graph``, the bodies of ``lax.scan``/``cond``/``while_loop``) there are no values
to show, and funcgrad's compiled code keeps no operation without a result.  So ``jit``
of a function that calls them runs it as Python instead, on every call's values (as
under ``fg.disable_jit()``; a warning says so, once); elsewhere they raise, naming what to
do instead.

>>> import numpy as np, funcgrad as fg
>>> def f(x):
...     fg.debug.print("x = {}", x)
...     return np.sum(x ** 2)
>>> fg.grad(f)(np.array([1.0, 2.0]))
x = [1. 2.]
array([2., 4.])
"""
import builtins
import sys
from typing import Any, Callable

import numpy as np

from . import tree
from .core import Tracer, is_special
from .interpreters.batching import BatchTracer
from .interpreters.forward import JVPTracer
from .interpreters.reverse import ReverseTracer

__all__ = ["callback", "print", "CallbackNeedsValues"]


class CallbackNeedsValues(TypeError):
    """``debug.callback`` / ``debug.print`` reached while a function is traced with
    abstract values (``jit`` catches it and runs the function as Python instead)."""


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
    abstract = next((x for x in leaves if isinstance(x, Tracer)), None)
    if abstract is not None:
        raise CallbackNeedsValues(
            f"debug.callback / debug.print inside {abstract._trace.transform}: it traces "
            f"with abstract values (shapes only), so there is no value to show, and funcgrad "
            f"keeps no operation without a result to run later. Return the values you want "
            f"to see (from a lax.scan body, as part of its outputs) and look at them "
            f"outside; fg.jit of a function that calls it runs that function as Python.")
    args, kwargs = tree.unflatten(treedef, [_host(x) for x in leaves])
    fn(*args, **kwargs)


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
