"""``vmap``: vectorise a function over an axis of its arguments (the batching transform's
public function; the interpreter is :mod:`funcgrad.interpreters.batching`)."""
from typing import Any, Callable, Hashable

import numpy as np

from . import tree
from .api import _plain
from .core import Tracer, is_special, user_code
from .errors import ArgumentMismatchError
from .dtypes import float0
from .interpreters.batching import BatchInterpreter, BatchTracer
from .numpy._convert import asarray
from .primitives import structural as st
from .transformed import Transformed
from .typing import Axes, PyTree

__all__ = ["vmap"]


def _axes_for_leaves(axes, args, what):
    """Broadcast an in_axes/out_axes prefix tree over ``args``: one axis per leaf."""
    if axes is None or isinstance(axes, (int, np.integer)):
        return [axes] * len(tree.leaves(args))
    out = []
    # (a list of axes matches a tuple of values and the other way round: only the entries
    # count; JAX asks for the same kind of sequence)
    if isinstance(axes, (tuple, list)) and isinstance(args, (tuple, list)):
        if len(axes) != len(args):
            raise ValueError(f"vmap: {what} has {len(axes)} entries but there are {len(args)} "
                             f"values to match")
        for a, x in zip(axes, args):
            out += _axes_for_leaves(a, x, what)
        return out
    if isinstance(axes, dict) and isinstance(args, dict):
        if set(axes) != set(args):
            raise ValueError(f"vmap: {what} keys {sorted(axes)} differ from {sorted(args)}")
        for k in tree._sorted_keys(args):
            out += _axes_for_leaves(axes[k], args[k], what)
        return out
    raise ArgumentMismatchError(f"vmap: {what}={axes!r} does not match the structure of the "
                                f"values "
                     f"({tree.flatten(args)[1]}); use an int, None, or a matching tree of them")


def vmap(fun: Callable[..., Any], in_axes: Axes = 0, out_axes: Axes = 0,
         axis_name: Hashable | None = None, axis_size: int | None = None,
         spmd_axis_name: Hashable | tuple[Hashable, ...] | None = None
         ) -> Callable[..., PyTree]:
    """Vectorise ``fun`` over an axis: ``vmap(f)(xs)`` equals stacking ``f(x)`` for each
    ``x`` in ``xs``, computed in one batched pass.

    ``in_axes``/``out_axes``: an int, ``None`` (not batched) or a tree of them matching
    the arguments/outputs, as in JAX.  Keyword arguments are always batched along
    axis 0 (as in JAX).  ``axis_name`` names the batch axis for the collectives of
    :mod:`funcgrad.lax` (``psum``, ``pmean``, ``pmax``, ``pmin``, ``axis_index``), which
    combine the examples of the batch (under ``grad`` too, as JAX's).  ``axis_size``
    gives the batch size when no argument is batched (all ``in_axes`` None).
    ``spmd_axis_name`` is accepted for JAX's signature and changes nothing: it names a
    device mesh axis to shard the batch over, and funcgrad runs one process on one device.

    >>> import numpy as np, funcgrad as fg
    >>> fg.vmap(lambda x: x @ x)(np.arange(6.0).reshape(3, 2))
    array([ 1., 13., 41.])
    """
    def vmapped(*args, **kwargs):
        axes = in_axes
        if isinstance(axes, list):
            axes = tuple(axes)
        if isinstance(axes, tuple) and len(axes) != len(args):
            raise ValueError(f"vmap: in_axes has {len(axes)} entries but the function was "
                             f"called with {len(args)} positional arguments")
        # Keyword arguments are always batched along axis 0, as in JAX; a Tensor stays a
        # leaf, so the batched computation records on its graph.
        leaves, treedef = tree.flatten((args, kwargs), is_special)
        n_pos = len(tree.flatten(args, is_special)[0])
        leaf_axes = _axes_for_leaves(axes, args, "in_axes") + [0] * (len(leaves) - n_pos)
        sizes = {}
        prepared = []
        for i, (x, ax) in enumerate(zip(leaves, leaf_axes)):
            if ax is None:
                prepared.append((x, None))
                continue
            x = x if isinstance(x, Tracer) else asarray(x)
            if x.ndim == 0 and i >= n_pos:
                raise ValueError("vmap: a keyword argument has a 0-d (scalar) leaf, but keyword "
                                 "arguments are always batched along axis 0 (as in JAX); pass "
                                 "it positionally with in_axes None, or close over it")
            if x.ndim == 0:
                raise ValueError(f"vmap: in_axes={ax} was given for a 0-d (scalar) argument "
                                 f"(leaf {i}); use None for arguments that are not batched")
            if not -x.ndim <= ax < x.ndim:
                raise ValueError(f"vmap: in_axes={ax} is out of range for an argument of shape "
                                 f"{x.shape} (leaf {i})")
            ax = ax % x.ndim
            sizes.setdefault(x.shape[ax], []).append(i)
            prepared.append((x, ax))
        if axis_size is not None:
            sizes.setdefault(axis_size, [])
        if not sizes:
            raise ValueError("vmap needs at least one batched argument (in_axes are all None) "
                             "or axis_size=")
        if len(sizes) > 1:
            detail = ", ".join(f"size {s} for leaves {ls}" for s, ls in sizes.items())
            raise ValueError(f"vmap got inconsistent sizes for the batched axis: {detail}. All "
                             f"batched arguments must have the same length along their axis.")
        size = next(iter(sizes))
        interp = BatchInterpreter(size, axis_name=axis_name)
        with interp:
            tracers = [BatchTracer(interp, x, ax) if ax is not None else x
                       for x, ax in prepared]
            args, kwargs = tree.unflatten(treedef, tracers)
            with user_code():
                out = fun(*args, **kwargs)
        # a Tensor output is one leaf (core.is_special), kept on its graph
        out_leaves, out_tree = tree.flatten(out, is_special)
        out_leaf_axes = _axes_for_leaves(out_axes, out, "out_axes")
        results = []
        for i, (o, ax) in enumerate(zip(out_leaves, out_leaf_axes)):
            if type(o) is BatchTracer and o._trace is interp:
                if ax is None:
                    raise ValueError("vmap: out_axes=None for an output that depends on the "
                                     "batched inputs; give it an axis")
                value, d = o.value, o.batch_dim
                ax = _out_axis(ax, value.ndim, i)
                results.append(_plain(st.moveaxis(value, d, ax)))
            elif getattr(o, "dtype", None) == float0:
                # the derivative of an integer (from grad(allow_int=True), jvp, vjp):
                # it stores nothing and takes no arithmetic, so it is stacked directly
                if ax is not None:
                    ax = _out_axis(ax, o.ndim + 1, i)
                    o = np.zeros(o.shape[:ax] + (size,) + o.shape[ax:], float0)
                results.append(o)
            else:
                o = o if isinstance(o, Tracer) or is_special(o) else asarray(o)
                if ax is None:
                    results.append(_plain(o))
                    continue
                ax = _out_axis(ax, o.ndim + 1, i)
                b = st.reshape(o, o.shape[:ax] + (1,) + o.shape[ax:])
                results.append(st.broadcast_to(b, o.shape[:ax] + (size,) + o.shape[ax:]))
        return tree.unflatten(out_tree, results)

    return Transformed(vmapped, vmap, fun, dict(in_axes=in_axes, out_axes=out_axes,
                                                axis_name=axis_name, axis_size=axis_size,
                                                spmd_axis_name=spmd_axis_name))


def _out_axis(ax, ndim, leaf):
    """``ax`` of an output with ``ndim`` axes (the batch axis included), non-negative."""
    if not -ndim <= ax < ndim:
        raise ValueError(f"vmap: out_axes={ax} is out of range for output leaf {leaf}, which "
                         f"has {ndim} axes with the batch axis; use an axis from {-ndim} to "
                         f"{ndim - 1}")
    return ax % ndim
