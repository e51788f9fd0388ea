"""Gradient transformations, the building blocks the optimizers in :mod:`.aliases` chain
(optax's names and update rules).

Second moments use ``|g|**2``, so complex parameters work (optax's rule; the torch-style
classes of :mod:`funcgrad.optim.optimizer` follow torch.optim instead, which updates a complex
parameter's real and imaginary parts as separate coordinates).
Every state leaf has its parameter's dtype: float32 parameters keep float32 state and
float32 updates; the step count is a 0-d int32 array.
"""
from typing import Any, Callable, NamedTuple, Union

import numpy as np

from .. import numpy as fnp
from .. import tree
from ..typing import PyTree
from .base import (EmptyState, GradientTransformation, ScalarOrSchedule, Schedule, abs_sq,
                   cast, check_float, leaf_dtype, map_leaves, need_params, zeros_like_tree)

__all__ = ["scale", "scale_by_learning_rate", "scale_by_schedule", "trace", "scale_by_adam",
           "scale_by_rms", "scale_by_stddev", "scale_by_rss", "add_decayed_weights",
           "clip_by_global_norm", "TraceState", "ScaleByAdamState", "ScaleByRmsState",
           "ScaleByRStdDevState", "ScaleByRssState", "ScaleByScheduleState"]


def _count():
    return np.zeros((), np.int32)


def _bias_corrected(moment, decay, count):
    # 1 - decay**count is formed in float64 and only then cast: in float32 (or lower)
    # decay**count rounds to 1 for small counts of decay close to 1, dividing by zero.
    correction = 1 - decay ** count
    return tree.tree_map(lambda m: m / cast(correction, leaf_dtype(m)), moment)


def scale(step_size: float) -> GradientTransformation:
    """Multiply the updates by ``step_size``.

    >>> import numpy as np, funcgrad as fg
    >>> fg.optim.scale(-0.5).update(np.array([2.0]), fg.optim.EmptyState())[0]
    array([-1.])
    """
    check_float("step_size", step_size)
    return GradientTransformation(
        lambda params: EmptyState(),
        lambda updates, state, params=None: (
            tree.tree_map(lambda g: g * step_size, updates), state))


class ScaleByScheduleState(NamedTuple):
    count: Any


def scale_by_schedule(step_size_fn: Schedule) -> GradientTransformation:
    """Multiply the updates by ``step_size_fn(count)``, ``count`` being the number of
    updates made before this one (0 for the first).

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.scale_by_schedule(lambda count: 0.5 ** count)
    >>> state = t.init(None)
    >>> for _ in range(3):
    ...     u, state = t.update(np.array([1.0]), state)
    >>> u
    array([0.25])
    """
    if not callable(step_size_fn):
        raise TypeError("scale_by_schedule takes a function of the step count (for a "
                        "constant, use fg.optim.scale)")

    def update(updates, state, params=None):
        step_size = step_size_fn(state.count)
        updates = tree.tree_map(lambda g: g * cast(step_size, leaf_dtype(g)), updates)
        return updates, ScaleByScheduleState(state.count + 1)

    return GradientTransformation(lambda params: ScaleByScheduleState(_count()), update)


def scale_by_learning_rate(learning_rate: ScalarOrSchedule, *, flip_sign: bool = True
                           ) -> GradientTransformation:
    """Multiply by ``-learning_rate`` (a number or a schedule, a function of the count).

    >>> import numpy as np, funcgrad as fg
    >>> fg.optim.scale_by_learning_rate(0.1).update(np.array([2.0]), None)[0]
    array([-0.2])
    """
    sign = -1 if flip_sign else 1
    if callable(learning_rate):
        return scale_by_schedule(lambda count: sign * learning_rate(count))
    check_float("learning_rate", learning_rate)
    return scale(sign * learning_rate)


class TraceState(NamedTuple):
    trace: Any


def trace(decay: float, nesterov: bool = False) -> GradientTransformation:
    """Momentum: ``t = g + decay * t``; the update is ``t`` (or ``g + decay * t`` with
    Nesterov's momentum).

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.trace(0.9)
    >>> state = t.init(np.zeros(1))
    >>> u, state = t.update(np.ones(1), state)
    >>> t.update(np.ones(1), state)[0]
    array([1.9])
    """
    check_float("momentum", decay, 0.0)

    def update(updates, state, params=None):
        new_trace = map_leaves(lambda g, t: g + decay * t, updates, state.trace,
                               what="trace.update")
        if nesterov:
            updates = tree.tree_map(lambda g, t: g + decay * t, updates, new_trace)
        else:
            updates = new_trace
        return updates, TraceState(new_trace)

    return GradientTransformation(lambda params: TraceState(zeros_like_tree(params)), update)


class ScaleByAdamState(NamedTuple):
    count: Any
    mu: Any
    nu: Any


def scale_by_adam(b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8, eps_root: float = 0.0
                  ) -> GradientTransformation:
    """Adam's direction (Kingma and Ba, 2014): ``m_hat / (sqrt(v_hat + eps_root) + eps)``
    with bias-corrected moving averages ``m`` of ``g`` and ``v`` of ``|g|**2``.

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.scale_by_adam()
    >>> u, state = t.update(np.array([0.5, -2.0]), t.init(np.zeros(2)))
    >>> u.round(6)                                       # the first step is ~sign(g)
    array([ 1., -1.])
    """
    for name, value in (("b1", b1), ("b2", b2)):
        check_float(name, value, 0.0, 1.0, open_high=True)
    check_float("eps", eps, 0.0)

    def init(params):
        return ScaleByAdamState(_count(), zeros_like_tree(params), zeros_like_tree(params))

    def update(updates, state, params=None):
        mu = map_leaves(lambda g, m: (1 - b1) * g + b1 * m, updates, state.mu,
                        what="scale_by_adam.update")
        nu = tree.tree_map(lambda g, v: (1 - b2) * abs_sq(g) + b2 * v, updates, state.nu)
        count = state.count + 1
        mu_hat = _bias_corrected(mu, b1, count)
        nu_hat = _bias_corrected(nu, b2, count)
        updates = tree.tree_map(lambda m, v: m / (fnp.sqrt(v + eps_root) + eps), mu_hat, nu_hat)
        return updates, ScaleByAdamState(count, mu, nu)

    return GradientTransformation(init, update)


class ScaleByRmsState(NamedTuple):
    nu: Any


def _rms_divide(g, nu, eps, eps_in_sqrt):
    return g / fnp.sqrt(nu + eps) if eps_in_sqrt else g / (fnp.sqrt(nu) + eps)


def scale_by_rms(decay: float = 0.9, eps: float = 1e-8, initial_scale: float = 0.0,
                 eps_in_sqrt: bool = True) -> GradientTransformation:
    """RMSProp's scaling (Hinton): ``g / sqrt(nu + eps)`` with ``nu`` a moving average of
    ``|g|**2`` (``g / (sqrt(nu) + eps)`` with ``eps_in_sqrt=False``, PyTorch's placement).

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.scale_by_rms(decay=0.75, eps=0.0)
    >>> t.update(np.array([3.0]), t.init(np.zeros(1)))[0]     # 3 / sqrt(0.25 * 9)
    array([2.])
    """
    check_float("decay", decay, 0.0, 1.0)
    check_float("eps", eps, 0.0)

    def init(params):
        return ScaleByRmsState(tree.tree_map(lambda p: fnp.full_like(p, initial_scale), params))

    def update(updates, state, params=None):
        nu = map_leaves(lambda g, n: (1 - decay) * abs_sq(g) + decay * n, updates, state.nu,
                        what="scale_by_rms.update")
        updates = tree.tree_map(lambda g, n: _rms_divide(g, n, eps, eps_in_sqrt), updates, nu)
        return updates, ScaleByRmsState(nu)

    return GradientTransformation(init, update)


class ScaleByRStdDevState(NamedTuple):
    mu: Any
    nu: Any


def scale_by_stddev(decay: float = 0.9, eps: float = 1e-8, initial_scale: float = 0.0,
                    eps_in_sqrt: bool = True) -> GradientTransformation:
    """Centered RMSProp: like :func:`scale_by_rms`, dividing by the moving standard
    deviation ``sqrt(nu - |mu|**2)`` instead of the root mean square.

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.scale_by_stddev(decay=0.5, eps=0.0)
    >>> t.update(np.array([2.0]), t.init(np.zeros(1)))[0]   # mu = 1, nu = 2: 2 / sqrt(2 - 1)
    array([2.])
    """
    check_float("decay", decay, 0.0, 1.0)
    check_float("eps", eps, 0.0)

    def init(params):
        return ScaleByRStdDevState(zeros_like_tree(params), tree.tree_map(
            lambda p: fnp.full_like(p, initial_scale), params))

    def update(updates, state, params=None):
        mu = map_leaves(lambda g, m: (1 - decay) * g + decay * m, updates, state.mu,
                        what="scale_by_stddev.update")
        nu = tree.tree_map(lambda g, n: (1 - decay) * abs_sq(g) + decay * n, updates, state.nu)
        updates = tree.tree_map(lambda g, m, n: _rms_divide(g, n - abs_sq(m), eps, eps_in_sqrt),
                                updates, mu, nu)
        return updates, ScaleByRStdDevState(mu, nu)

    return GradientTransformation(init, update)


class ScaleByRssState(NamedTuple):
    sum_of_squares: Any


def scale_by_rss(initial_accumulator_value: float = 0.1, eps: float = 1e-7
                 ) -> GradientTransformation:
    """Adagrad's scaling (Duchi et al., 2011): ``g / sqrt(s + eps)`` with ``s`` the sum of
    all ``|g|**2`` so far (plus the initial value); 0 where ``s`` is 0.

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.scale_by_rss(initial_accumulator_value=0.0, eps=0.0)
    >>> t.update(np.array([-2.0, 0.0]), t.init(np.zeros(2)))[0]
    array([-1.,  0.])
    """
    check_float("initial_accumulator_value", initial_accumulator_value, 0.0)
    check_float("eps", eps, 0.0)

    def init(params):
        return ScaleByRssState(tree.tree_map(
            lambda p: fnp.full_like(p, initial_accumulator_value), params))

    def scaled(g, s):
        # The inner where keeps 1/sqrt(0) (an inf) out of the outer one's untaken branch.
        positive = s > 0
        return fnp.where(positive, g / fnp.sqrt(fnp.where(positive, s, 1) + eps), 0)

    def update(updates, state, params=None):
        total = map_leaves(lambda g, s: abs_sq(g) + s, updates, state.sum_of_squares,
                           what="scale_by_rss.update")
        updates = tree.tree_map(lambda g, s: cast(scaled(g, s), leaf_dtype(g)), updates, total)
        return updates, ScaleByRssState(total)

    return GradientTransformation(init, update)


def _mask_tree(mask, params):
    if mask is None:
        return tree.tree_map(lambda p: True, params)
    return mask(params) if callable(mask) else mask


def add_decayed_weights(weight_decay: float = 0.0,
                        mask: Union[PyTree, Callable[[PyTree], PyTree], None] = None
                        ) -> GradientTransformation:
    """Add ``weight_decay * params`` to the updates (decoupled weight decay, as in AdamW).

    ``mask`` (a pytree of bools like the params, or a function of the params returning
    one) limits the decay to the leaves marked True.

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.add_decayed_weights(0.1, mask={"w": True, "b": False})
    >>> p = {"w": np.array([2.0]), "b": np.array([2.0])}
    >>> t.update({"w": np.array([1.0]), "b": np.array([1.0])}, t.init(p), p)[0]
    {'b': array([1.]), 'w': array([1.2])}
    """
    check_float("weight_decay", weight_decay, 0.0)

    def update(updates, state, params=None):
        need_params(params, "add_decayed_weights (and adamw)")
        decide = _mask_tree(mask, params)
        updates = map_leaves(lambda g, p, on: g + weight_decay * p if on else g,
                             updates, params, decide, what="add_decayed_weights.update")
        return updates, state

    return GradientTransformation(lambda params: EmptyState(), update)


def clip_by_global_norm(max_norm: float) -> GradientTransformation:
    """Scale all updates by ``min(1, max_norm / ||g||)``, ``||g||`` the 2-norm of every
    leaf together.

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.optim.clip_by_global_norm(1.0)
    >>> t.update([np.array([3.0]), np.array([4.0])], t.init(None))[0]
    [array([0.6]), array([0.8])]
    """
    check_float("max_norm", max_norm, 0.0)

    def update(updates, state, params=None):
        leaves = tree.leaves(updates)
        if not leaves:
            return updates, state
        norm = fnp.sqrt(sum(fnp.sum(abs_sq(g)) for g in leaves))
        # Dividing by max(norm, max_norm) leaves small gradients untouched (factor 1).
        factor = max_norm / fnp.maximum(norm, max_norm)
        return tree.tree_map(lambda g: g * cast(factor, np.finfo(leaf_dtype(g)).dtype),
                             updates), state

    return GradientTransformation(lambda params: EmptyState(), update)
