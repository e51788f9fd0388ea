"""``pure_callback``: a host NumPy function called from traced code (JAX's
``jax.pure_callback``), as the primitive ``pure_callback``.

The callback runs on concrete NumPy arrays whenever the primitive is evaluated: eagerly,
inside ``jit`` (its compiled code calls back into Python), and under ``vmap`` as
``vmap_method`` says.  funcgrad cannot see inside it, so it has no derivative: every
differentiating transform raises, naming the fix (give the derivative with
``fg.custom_jvp``/``fg.custom_vjp``, or ``fg.stop_gradient`` the arguments).
"""
import sys
from typing import Any, Callable

import numpy as np

from . import tree
from .core import Primitive, ShapedArray, is_special
from .devices import register_gpu

__all__ = ["pure_callback", "pure_callback_p"]

VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all",
                "legacy_vectorized")


class _HostFunction:
    """The user's callback on flat leaves: rebuilds the arguments, calls it on NumPy
    arrays, and checks its results against the declared shapes and dtypes."""

    def __init__(self, callback, in_tree, out_tree):
        self.callback, self.in_tree, self.out_tree = callback, in_tree, out_tree
        self.__name__ = getattr(callback, "__name__", "callback")

    def __repr__(self):
        return self.__name__

    def __call__(self, leaves, result_avals):
        args, kwargs = tree.unflatten(self.in_tree, [np.asarray(x) for x in leaves])
        result = self.callback(*args, **kwargs)
        outs, out_tree = tree.flatten(result)
        if out_tree != self.out_tree:
            raise TypeError(f"pure_callback: {self.__name__} returned a result of structure "
                            f"{out_tree}, but result_shape_dtypes declares {self.out_tree}")
        checked = []
        for k, (out, aval) in enumerate(zip(outs, result_avals)):
            out = np.asarray(out)
            if out.shape != aval.shape:
                raise ValueError(f"pure_callback: {self.__name__} returned shape {out.shape} "
                                 f"for result {k}, but result_shape_dtypes declares "
                                 f"{aval.shape}")
            if out.dtype != aval.dtype:
                if not np.can_cast(out.dtype, aval.dtype, "same_kind"):
                    raise TypeError(f"pure_callback: {self.__name__} returned dtype "
                                    f"{out.dtype} for result {k}, but result_shape_dtypes "
                                    f"declares {aval.dtype}; return that dtype")
                out = out.astype(aval.dtype)
            checked.append(out)
        return checked


def _impl(*args, callback, result_avals, vmap_method):
    return callback(args, result_avals)


def _abstract_eval(*avals, callback, result_avals, vmap_method):
    return list(result_avals)


def _no_derivative(callback):
    return TypeError(
        f"pure_callback({callback.__name__}) cannot be differentiated: funcgrad cannot see "
        f"inside a host callback. Wrap the function that calls it in fg.custom_jvp or "
        f"fg.custom_vjp and give its derivative there, or pass fg.stop_gradient(x) (a "
        f"Tensor's x.detach()) to the callback if no derivative should flow through it.")


def _jvp(primals, tangents, *, callback, result_avals, vmap_method):
    if any(t is not None for t in tangents):
        raise _no_derivative(callback)
    outs = pure_callback_p.bind(*primals, callback=callback, result_avals=result_avals,
                                vmap_method=vmap_method)
    return outs, [None] * len(outs)


def _reverse_fwd(vals, params):
    # (reverse mode records an operation on traced inputs: refuse it now, where the user's
    # code calls the callback, rather than later in the backward pass)
    raise _no_derivative(params["callback"])


def _vjp(needs, cts, outs, *args, callback, result_avals, vmap_method, residuals=None):
    raise _no_derivative(callback)


def _batch(args, dims, *, callback, result_avals, vmap_method):
    from .primitives.structural import broadcast_to, moveaxis, reshape
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    if vmap_method is None:
        raise NotImplementedError(
            f"vmap of pure_callback({callback.__name__}) needs vmap_method: 'sequential' "
            f"(one call per example), 'expand_dims' (one call; unbatched arguments get a "
            f"leading axis of size 1), 'broadcast_all' (one call; every argument batched) "
            f"or 'legacy_vectorized' (one call; unbatched arguments as they are)")
    front = [a if d is None else moveaxis(a, d, 0) for a, d in zip(args, dims)]
    if vmap_method in ("sequential", "sequential_unrolled"):
        from .numpy._convert import stack
        per_example = [pure_callback_p.bind(
            *[a if d is None else a[i] for a, d in zip(front, dims)], callback=callback,
            result_avals=result_avals, vmap_method=vmap_method) for i in range(size)]
        outs = [stack([example[k] for example in per_example]) if size else
                np.zeros((0,) + aval.shape, aval.dtype) for k, aval in enumerate(result_avals)]
        return outs, [0] * len(outs)
    if vmap_method == "expand_dims":
        front = [reshape(a, (1,) + tuple(a.shape)) if d is None else a
                 for a, d in zip(front, dims)]
    elif vmap_method == "broadcast_all":
        front = [broadcast_to(a, (size,) + tuple(a.shape)) if d is None else a
                 for a, d in zip(front, dims)]
    batched = tuple(ShapedArray((size,) + aval.shape, aval.dtype) for aval in result_avals)
    outs = pure_callback_p.bind(*front, callback=callback, result_avals=batched,
                                vmap_method=vmap_method)
    return outs, [0] * len(outs)


pure_callback_p = Primitive("pure_callback", _impl, abstract_eval=_abstract_eval, jvp=_jvp,
                            vjp=_vjp, batch=_batch, reverse_fwd=_reverse_fwd,
                            multiple_results=True)


def _on_gpu(*args, **params):
    """On GPU arrays: the callback runs on host copies; its results go to their device."""
    gpu = sys.modules["funcgrad.gpu"]
    device = next(a.device for a in args if isinstance(a, gpu.GpuArray))
    outs = _impl(*[gpu.device_get(a) if isinstance(a, gpu.GpuArray) else a for a in args],
                 **params)
    return [gpu.device_put(o, device) for o in outs]


register_gpu({pure_callback_p: _on_gpu})


def _declared(leaf):
    if isinstance(leaf, (bool, int, float, complex)):  # a number: its NumPy array's
        leaf = np.asarray(leaf)
    shape, dtype = getattr(leaf, "shape", None), getattr(leaf, "dtype", None)
    if shape is None or dtype is None:
        raise TypeError(f"pure_callback: result_shape_dtypes must be a pytree of objects "
                        f"with .shape and .dtype (arrays, jax.ShapeDtypeStruct), got "
                        f"{type(leaf).__name__}")
    return ShapedArray(tuple(shape), np.dtype(dtype))


def pure_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args: Any,
                  sharding: Any = None, vmap_method: str | None = None,
                  **kwargs: Any) -> Any:
    """Call the host function ``callback(*args, **kwargs)`` on NumPy arrays from inside
    any transform (JAX's ``jax.pure_callback``).  ``result_shape_dtypes``: a pytree of
    objects with ``.shape`` and ``.dtype`` (arrays, ``jax.ShapeDtypeStruct``) that the
    results must match.  The callback must be pure: it may run several times, or not at
    all when nothing uses its results.

    Under ``jit`` the compiled code calls it; under ``vmap`` ``vmap_method`` says how:
    ``"sequential"`` calls it once per example, ``"expand_dims"`` once with a leading
    axis of size 1 on unbatched arguments, ``"broadcast_all"`` once with every argument
    batched, ``"legacy_vectorized"`` once with unbatched arguments as they are; without
    it ``vmap`` raises.  It has no derivative: ``grad``/``jvp`` through it raise (define
    one with ``fg.custom_jvp``/``fg.custom_vjp``), and so does a call on an eager Tensor
    that requires grad (its results would be cut off its graph); on other Tensors the
    results are Tensors.  ``sharding`` is accepted for JAX's signature and ignored.

    >>> import numpy as np, scipy.special, funcgrad as fg
    >>> def j0(x):
    ...     return fg.pure_callback(scipy.special.j0, x, x, vmap_method="expand_dims")
    >>> fg.jit(j0)(np.array([0.0, 1.0]))
    array([1.        , 0.76519769])
    >>> fg.vmap(j0)(np.zeros((2, 1)))
    array([[1.],
           [1.]])
    """
    del sharding
    if vmap_method is not None and vmap_method not in VMAP_METHODS:
        raise ValueError(f"pure_callback: vmap_method must be one of {VMAP_METHODS} or "
                         f"None, got {vmap_method!r}")
    if not callable(callback):
        raise TypeError(f"pure_callback: callback must be callable, got "
                        f"{type(callback).__name__}")
    declared, out_tree = tree.flatten(result_shape_dtypes,
                                      lambda x: hasattr(x, "shape") and hasattr(x, "dtype"))
    result_avals = tuple(_declared(leaf) for leaf in declared)
    # (a Tensor stays one leaf, so the call reaches its graph, which refuses to record
    # it when a gradient is wanted; flattened to its value, the gradient was lost)
    leaves, in_tree = tree.flatten((args, kwargs), is_special)
    from .numpy._convert import asarray
    host = _HostFunction(callback, in_tree, out_tree)
    outs = pure_callback_p.bind(*[asarray(x) for x in leaves], callback=host,
                                result_avals=result_avals, vmap_method=vmap_method)
    return tree.unflatten(out_tree, list(outs))
