"""The functional optimizer interface (optax's): a gradient transformation is a pair of
pure functions ``init(params) -> state`` and ``update(updates, state, params=None) ->
(updates, state)`` over pytrees; ``chain`` composes them and ``apply_updates`` adds the
result to the parameters.

Everything here is written with operations that work on NumPy arrays and on traced
values alike, so ``fg.jit(opt.update)`` compiles a whole optimizer step.
"""
from typing import Any, Callable, NamedTuple, Union

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..typing import Array, ArrayLike, PyTree

__all__ = ["GradientTransformation", "EmptyState", "identity", "chain", "apply_updates"]

# a schedule maps the step count to a value (optax's ``Schedule``); where a number or a
# schedule is accepted, the number is the constant schedule
Schedule = Callable[[ArrayLike], Union[float, Array]]
ScalarOrSchedule = Union[float, Schedule]


class GradientTransformation(NamedTuple):
    """An optimizer, as two pure functions (optax's ``GradientTransformation``).

    ``init(params)`` returns the state (a pytree); ``update(updates, state, params=None)``
    turns gradients into updates and returns ``(updates, new_state)``.

    >>> import numpy as np, funcgrad as fg
    >>> double = fg.optim.GradientTransformation(
    ...     lambda params: (), lambda updates, state, params=None: (updates * 2, state))
    >>> double.update(np.float64(1.5), double.init(None))
    (np.float64(3.0), ())
    """

    init: Callable[[PyTree], PyTree]
    update: Callable[..., tuple[PyTree, PyTree]]


class EmptyState(NamedTuple):
    """The state of a transformation that keeps none."""


def identity() -> GradientTransformation:
    """The transformation that returns its updates unchanged.

    >>> import funcgrad as fg
    >>> fg.optim.identity().update([1.0], fg.optim.EmptyState())
    ([1.0], EmptyState())
    """
    return GradientTransformation(lambda params: EmptyState(),
                                  lambda updates, state, params=None: (updates, state))


def chain(*transforms: GradientTransformation) -> GradientTransformation:
    """Apply ``transforms`` one after the other; the state is the tuple of their states.

    >>> import numpy as np, funcgrad as fg
    >>> opt = fg.optim.chain(fg.optim.clip_by_global_norm(1.0), fg.optim.sgd(0.1))
    >>> updates, state = opt.update({"w": np.array([3.0, 4.0])}, opt.init(None))
    >>> updates["w"]
    array([-0.06, -0.08])
    """
    for i, t in enumerate(transforms):
        if not isinstance(t, GradientTransformation):
            raise TypeError(f"chain: argument {i} is a {type(t).__name__}, not a "
                            "GradientTransformation (build one with fg.optim.sgd(...), "
                            "fg.optim.scale(...) and the like)")

    def init(params):
        return tuple(t.init(params) for t in transforms)

    def update(updates, state, params=None):
        if not isinstance(state, tuple) or len(state) != len(transforms):
            raise ValueError(f"chain.update: expected the state made by this chain's init "
                             f"(a tuple of {len(transforms)} states), got "
                             f"{type(state).__name__}")
        new_state = []
        for t, s in zip(transforms, state):
            updates, s = t.update(updates, s, params)
            new_state.append(s)
        return updates, tuple(new_state)

    return GradientTransformation(init, update)


def apply_updates(params: PyTree, updates: PyTree) -> PyTree:
    """``params + updates``, leaf by leaf, each result in its parameter's dtype.

    >>> import numpy as np, funcgrad as fg
    >>> fg.optim.apply_updates({"w": np.ones(2, np.float32)}, {"w": np.array([0.5, -0.5])})
    {'w': array([1.5, 0.5], dtype=float32)}
    """
    return map_leaves(lambda p, u: cast(p + u, leaf_dtype(p)), params, updates,
                      what="apply_updates(params, updates)")


# ---- helpers the transformations share ------------------------------------------------

def leaf_dtype(x):
    """The dtype of a leaf (a NumPy array, a traced value or a Python number)."""
    dtype = getattr(x, "dtype", None)
    return np.dtype(dtype) if dtype is not None else np.asarray(x).dtype


def cast(x, dtype):
    """``x`` in ``dtype`` (a no-op when it is already)."""
    return x if leaf_dtype(x) == dtype else fnp.astype(x, dtype)


def map_leaves(f, first, *rest, what="update"):
    """``tree_map`` whose structure error names the call that received the trees."""
    try:
        return tree.tree_map(f, first, *rest)
    except ValueError as e:
        if "structures differ" not in str(e):
            raise
        raise ValueError(f"{what}: the pytrees do not have the same structure ({e}); "
                         "gradients, state and params must all mirror the params passed "
                         "to init") from None


def zeros_like_tree(params):
    return tree.tree_map(lambda p: fnp.zeros_like(p), params)


def abs_sq(g):
    """``|g|**2`` (real for complex ``g``)."""
    if leaf_dtype(g).kind == "c":
        return fnp.real(g) ** 2 + fnp.imag(g) ** 2
    return g * g


def check_float(name, value, low=None, high=None, *, open_high=False):
    """A hyperparameter given as a Python number is checked when the optimizer is built."""
    if callable(value) or hasattr(value, "shape"):
        return
    if not isinstance(value, (int, float, np.number)) or isinstance(value, bool):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if (low is not None and value < low) or (high is not None and (
            value >= high if open_high else value > high)):
        bounds = f"[{low}, {high}{')' if open_high else ']'}" if high is not None \
            else f">= {low}"
        raise ValueError(f"invalid {name}: {value} (it must be {bounds})")


def need_params(params, name):
    if params is None:
        raise ValueError(f"{name} needs the current parameters: call "
                         "update(grads, state, params)")
