"""``jax.checkpoint_policies``' names: what a checkpointed function may save for the
reverse pass instead of recomputing it.

A policy is called as ``policy(primitive, *avals, **params)`` for each operation inside
``fg.checkpoint(f, policy=...)`` and answers whether its output may be saved: the forward
pass keeps those results, and the backward pass's second run of ``f`` takes them instead
of computing them again (everything else is recomputed; without a policy only the
inputs are kept, as :func:`nothing_saveable`).  Values and derivatives are the same under
every policy; memory and time differ.  Operations holding a graph (``scan``, ``cond``,
``jit``...) are recomputed whole, and a function that cannot be traced with shapes only
(Python control flow on values) is recomputed whole too.

>>> import numpy as np, funcgrad as fg
>>> block = fg.checkpoint(lambda x: np.sin(x) @ x, policy=fg.checkpoint_policies.dots_saveable)
>>> fg.grad(block)(np.zeros(2))     # sin(x) + x cos(x)
array([0., 0.])
"""
from typing import Any, Callable

from .primitives.linalg import einsum_p, matmul_p

__all__ = ["everything_saveable", "nothing_saveable", "dots_saveable", "checkpoint_dots",
           "dots_with_no_batch_dims_saveable", "checkpoint_dots_with_no_batch_dims",
           "save_only_these_names", "save_any_names_but_these",
           "save_anything_except_these_names", "save_from_both_policies",
           "offload_dot_with_no_batch_dims", "save_and_offload_only_these_names"]

Policy = Callable[..., Any]


def everything_saveable(*_: Any, **__: Any) -> bool:
    """Save every intermediate value (no recomputation).

    >>> everything_saveable(None)
    True
    """
    return True


def nothing_saveable(*_: Any, **__: Any) -> bool:
    """Save nothing but the inputs; recompute the rest (the default).

    >>> nothing_saveable(None)
    False
    """
    return False


def dots_saveable(prim: Any, *avals: Any, **params: Any) -> bool:
    """Save the results of matrix products (``@``, ``einsum``), recompute the rest:
    products cost the most to recompute and elementwise operations the least.

    >>> from funcgrad.primitives.linalg import matmul_p
    >>> from funcgrad.primitives.elementwise import sin_p
    >>> dots_saveable(matmul_p), dots_saveable(sin_p)
    (True, False)
    """
    return prim is matmul_p or prim is einsum_p


checkpoint_dots = dots_saveable  # (JAX's older name)


def dots_with_no_batch_dims_saveable(prim: Any, *avals: Any, **params: Any) -> bool:
    """As :func:`dots_saveable`, for matrix products of operands with at most two axes
    (no stack of matrices).

    >>> from funcgrad.core import ShapedArray
    >>> from funcgrad.primitives.linalg import matmul_p
    >>> import numpy as np
    >>> mat, stack = ShapedArray((3, 3), np.float64), ShapedArray((2, 3, 3), np.float64)
    >>> (dots_with_no_batch_dims_saveable(matmul_p, mat, mat),
    ...  dots_with_no_batch_dims_saveable(matmul_p, stack, stack))
    (True, False)
    """
    return prim is matmul_p and all(len(getattr(a, "shape", ())) <= 2 for a in avals)


checkpoint_dots_with_no_batch_dims = dots_with_no_batch_dims_saveable  # (older name)


def _named(params: dict[str, Any]) -> Any:
    """The name :func:`funcgrad.checkpoint_name` gave a value (None when unnamed)."""
    return params.get("name")


def save_only_these_names(*names_which_can_be_saved: str) -> Policy:
    """A policy saving only the values named with :func:`funcgrad.checkpoint_name`
    under one of these names.

    >>> policy = save_only_these_names("hidden")
    >>> policy(None, name="hidden"), policy(None, name="other"), policy(None)
    (True, False, False)
    """
    names = frozenset(names_which_can_be_saved)

    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        return _named(params) in names
    return policy


def save_any_names_but_these(*names_not_to_save: str) -> Policy:
    """A policy saving the values named with :func:`funcgrad.checkpoint_name`, except
    under these names.

    >>> policy = save_any_names_but_these("big")
    >>> policy(None, name="small"), policy(None, name="big"), policy(None)
    (True, False, False)
    """
    names = frozenset(names_not_to_save)

    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        name = _named(params)
        return name is not None and name not in names
    return policy


def save_anything_except_these_names(*names_not_to_save: str) -> Policy:
    """A policy saving every value except those named with
    :func:`funcgrad.checkpoint_name` under these names.

    >>> policy = save_anything_except_these_names("big")
    >>> policy(None, name="small"), policy(None, name="big"), policy(None)
    (True, False, True)
    """
    names = frozenset(names_not_to_save)

    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        return _named(params) not in names
    return policy


def save_from_both_policies(policy_1: Policy, policy_2: Policy) -> Policy:
    """A policy saving what either policy saves.

    >>> both = save_from_both_policies(dots_saveable, save_only_these_names("h"))
    >>> both(None, name="h"), both(None, name="g")
    (True, False)
    """
    def policy(prim: Any, *avals: Any, **params: Any) -> bool:
        return bool(policy_1(prim, *avals, **params) or policy_2(prim, *avals, **params))
    return policy


def offload_dot_with_no_batch_dims(offload_src: str, offload_dst: str) -> Policy:
    """JAX's policy moving products' results to host memory; funcgrad keeps arrays where
    they are, so it saves them as :func:`dots_with_no_batch_dims_saveable` would.

    >>> offload_dot_with_no_batch_dims("device", "pinned_host")(None)
    False
    """
    return dots_with_no_batch_dims_saveable


def save_and_offload_only_these_names(*, names_which_can_be_saved: Any,
                                      names_which_can_be_offloaded: Any, offload_src: str,
                                      offload_dst: str) -> Policy:
    """JAX's policy saving some named values and moving others to host memory; funcgrad
    keeps arrays where they are, so it saves both kinds.

    >>> policy = save_and_offload_only_these_names(
    ...     names_which_can_be_saved=["a"], names_which_can_be_offloaded=["b"],
    ...     offload_src="device", offload_dst="pinned_host")
    >>> policy(None, name="a"), policy(None, name="b"), policy(None, name="c")
    (True, True, False)
    """
    return save_only_these_names(*names_which_can_be_saved, *names_which_can_be_offloaded)
