"""``fg.optim``: optimizers, in both of the styles users know.

**Functional (optax's API)**: an optimizer is a pair of pure functions over pytrees,
``init(params) -> state`` and ``update(grads, state, params=None) -> (updates, state)``;
``apply_updates(params, updates)`` takes the step. They run on traced values, so a whole
training step compiles under ``fg.jit``. ``sgd``, ``adam``, ``adamw``, ``rmsprop``,
``adagrad`` are chains of the transformations in :mod:`.transforms`; ``chain`` builds
more (``chain(clip_by_global_norm(1.0), adam(1e-3))``); a learning rate may be a
schedule from :mod:`.schedules`.

>>> import numpy as np, funcgrad as fg
>>> def loss(p):
...     return np.sum((p["w"] - 3.0) ** 2) + p["b"] ** 2
>>> params = {"w": np.zeros(2, np.float32), "b": np.float32(1.0)}
>>> opt = fg.optim.adam(0.1)
>>> state = opt.init(params)
>>> for _ in range(200):
...     grads = fg.grad(loss)(params)
...     updates, state = opt.update(grads, state, params)
...     params = fg.optim.apply_updates(params, updates)
>>> print(np.round(params["w"], 2), params["w"].dtype)
[3. 3.] float32

**Torch-style**: ``SGD``, ``Adam``, ``AdamW``, ``RMSprop``, ``Adagrad`` over ``fg.Tensor``
parameters (``step``, ``zero_grad``, parameter groups, ``state_dict``), and schedulers in
``fg.optim.lr_scheduler`` (``StepLR``, ``MultiStepLR``, ``ExponentialLR``,
``CosineAnnealingLR``, ``LambdaLR``).

>>> w = fg.Tensor([0.0, 0.0], requires_grad=True)
>>> opt = fg.optim.SGD([w], lr=0.1, momentum=0.5)
>>> for _ in range(50):
...     opt.zero_grad()
...     ((w - 1.0) ** 2).sum().backward()
...     opt.step()
>>> print(w.detach().numpy().round(4))
[1. 1.]
"""
from . import lr_scheduler  # noqa: F401
from .aliases import adagrad, adam, adamw, rmsprop, sgd
from .base import EmptyState, GradientTransformation, apply_updates, chain, identity
from .optimizer import SGD, Adagrad, Adam, AdamW, Optimizer, RMSprop
from .schedules import (constant_schedule, cosine_decay_schedule, exponential_decay,
                        join_schedules, linear_schedule, piecewise_constant_schedule,
                        warmup_cosine_decay_schedule)
from .transforms import (add_decayed_weights, clip_by_global_norm, scale, scale_by_adam,
                         scale_by_learning_rate, scale_by_rms, scale_by_rss, scale_by_schedule,
                         scale_by_stddev, trace)

__all__ = [
    # functional (optax-style)
    "sgd", "adam", "adamw", "rmsprop", "adagrad", "chain", "apply_updates",
    "GradientTransformation", "EmptyState", "identity",
    "scale", "scale_by_learning_rate", "scale_by_schedule", "trace", "scale_by_adam",
    "scale_by_rms", "scale_by_stddev", "scale_by_rss", "add_decayed_weights",
    "clip_by_global_norm",
    "constant_schedule", "linear_schedule", "exponential_decay", "cosine_decay_schedule",
    "piecewise_constant_schedule", "join_schedules", "warmup_cosine_decay_schedule",
    # torch-style
    "Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler",
]
