"""``closure_convert``: a function's captured traced values made explicit arguments
(JAX's ``jax.closure_convert``), for custom rules that must not capture them."""
from typing import Any, Callable

import numpy as np

from . import tree
from .capture import tensor_positions
from .core import ShapedArray, Tracer
from .interpreters.graph import eval_graph
from .jit.passes import closure_convert as _lift_captured
from .jit.trace import trace_flat
from .numpy._convert import asarray

__all__ = ["closure_convert"]


def closure_convert(fun: Callable[..., Any], *example_args: Any
                    ) -> tuple[Callable[..., Any], list[Any]]:
    """``(converted, consts)``: ``converted(*args, *consts)`` equals ``fun(*args)``, and
    ``consts`` are the traced values of enclosing transforms that ``fun`` captures
    (weights a closure uses under ``grad``, say).  ``fun`` is traced abstractly on
    arguments shaped like ``example_args``, as ``jit`` traces.  Pass ``consts`` on as
    explicit arguments of a ``custom_vjp`` function, whose rules may not capture traced
    values, and derivatives reach them.

    >>> import numpy as np, funcgrad as fg
    >>> def outer(w):
    ...     f, consts = fg.closure_convert(lambda x: w * x, 1.0)
    ...     return f(2.0, *consts), len(consts)
    >>> outer(3.0)
    (np.float64(6.0), 0)
    >>> float(fg.grad(lambda w: outer(w)[0])(3.0))
    2.0
    """
    leaves, in_tree = tree.flatten(example_args)
    avals = [ShapedArray(x.shape, x.dtype) for x in
             (x if isinstance(x, Tracer) else asarray(x) for x in leaves)]
    out_trees = []

    def flat_fun(*xs):
        out_leaves, out_tree = tree.flatten(fun(*tree.unflatten(in_tree, list(xs))))
        out_trees.append(out_tree)
        return out_leaves

    graph, consts = _lift_captured(trace_flat(flat_fun, avals, "closure_convert",
                                              tensor_positions(example_args)))
    n_consts = len(consts)

    def converted(*args: Any) -> Any:
        args, extra = args[:len(args) - n_consts], args[len(args) - n_consts:]
        arg_leaves, arg_tree = tree.flatten(args)
        if arg_tree != in_tree:
            raise TypeError(f"closure_convert: the converted function was traced for "
                            f"arguments of structure {in_tree} (then {n_consts} "
                            f"constants), but was called with {arg_tree}")
        for k, (leaf, aval) in enumerate(zip(arg_leaves, avals)):
            shape = tuple(getattr(leaf, "shape", np.shape(leaf)))
            if shape != aval.shape:
                # (the graph holds the traced shapes: run on others, its reshapes and
                # broadcasts would give wrong answers, not errors)
                raise TypeError(f"closure_convert: the converted function was traced for "
                                f"argument {k} of shape {aval.shape}, but was called with "
                                f"shape {shape}; convert it again with example arguments "
                                f"of the new shape")
        return tree.unflatten(out_trees[0], eval_graph(graph, *extra, *arg_leaves))

    return converted, list(consts)
