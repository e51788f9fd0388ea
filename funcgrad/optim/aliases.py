"""The common optimizers as chains of gradient transformations (optax's names, defaults
and update rules). ``learning_rate`` is a number or a schedule (a function of the count).
"""
from typing import Callable, Optional, Union

from ..typing import PyTree
from .base import GradientTransformation, ScalarOrSchedule, chain, identity
from .transforms import (add_decayed_weights, scale_by_adam, scale_by_learning_rate,
                         scale_by_rms, scale_by_rss, scale_by_stddev, trace)

__all__ = ["sgd", "adam", "adamw", "rmsprop", "adagrad"]


def sgd(learning_rate: ScalarOrSchedule, momentum: Optional[float] = None,
        nesterov: bool = False) -> GradientTransformation:
    """Stochastic gradient descent: ``-lr * g``, or with momentum ``t = g + momentum * t``,
    ``-lr * t`` (Nesterov: ``-lr * (g + momentum * t)``).

    >>> import numpy as np, funcgrad as fg
    >>> opt = fg.optim.sgd(0.1, momentum=0.9)
    >>> params = {"w": np.array([1.0, -2.0])}
    >>> state = opt.init(params)
    >>> for _ in range(2):
    ...     grads = fg.grad(lambda p: np.sum(p["w"] ** 2))(params)
    ...     updates, state = opt.update(grads, state, params)
    ...     params = fg.optim.apply_updates(params, updates)
    >>> params["w"]
    array([ 0.46, -0.92])
    """
    if nesterov and not momentum:
        raise ValueError("sgd: nesterov=True needs a momentum (e.g. momentum=0.9)")
    return chain(trace(momentum, nesterov) if momentum is not None else identity(),
                 scale_by_learning_rate(learning_rate))


def adam(learning_rate: ScalarOrSchedule, b1: float = 0.9, b2: float = 0.999,
         eps: float = 1e-8, eps_root: float = 0.0) -> GradientTransformation:
    """Adam (Kingma and Ba, 2014): ``-lr * m_hat / (sqrt(v_hat + eps_root) + eps)``.

    >>> import numpy as np, funcgrad as fg
    >>> params = np.array([1.0, -3.0], np.float32)
    >>> opt = fg.optim.adam(0.1)
    >>> updates, state = opt.update(np.array([4.0, -1.0], np.float32), opt.init(params))
    >>> updates                                     # the first step is -lr * sign(g)
    array([-0.1,  0.1], dtype=float32)
    """
    return chain(scale_by_adam(b1, b2, eps, eps_root), scale_by_learning_rate(learning_rate))


def adamw(learning_rate: ScalarOrSchedule, b1: float = 0.9, b2: float = 0.999,
          eps: float = 1e-8, eps_root: float = 0.0, weight_decay: float = 1e-4,
          mask: Union[PyTree, Callable[[PyTree], PyTree], None] = None
          ) -> GradientTransformation:
    """Adam with decoupled weight decay (Loshchilov and Hutter, 2019):
    ``-lr * (adam direction + weight_decay * params)``. ``mask`` (a pytree of bools, or
    a function of the params returning one) picks the leaves that decay.

    >>> import numpy as np, funcgrad as fg
    >>> params = np.array([2.0])
    >>> opt = fg.optim.adamw(0.1, weight_decay=0.5)
    >>> opt.update(np.array([3.0]), opt.init(params), params)[0]    # -0.1 * (1 + 0.5 * 2)
    array([-0.2])
    """
    return chain(scale_by_adam(b1, b2, eps, eps_root), add_decayed_weights(weight_decay, mask),
                 scale_by_learning_rate(learning_rate))


def rmsprop(learning_rate: ScalarOrSchedule, decay: float = 0.9, eps: float = 1e-8,
            initial_scale: float = 0.0, eps_in_sqrt: bool = True, centered: bool = False,
            momentum: Optional[float] = None, nesterov: bool = False
            ) -> GradientTransformation:
    """RMSProp: ``-lr * g / sqrt(nu + eps)``, ``nu`` a moving average of ``g**2`` (of its
    variance with ``centered``); then momentum on the scaled update if ``momentum`` is set.
    ``eps_in_sqrt=False`` gives PyTorch's ``g / (sqrt(nu) + eps)``.

    >>> import numpy as np, funcgrad as fg
    >>> opt = fg.optim.rmsprop(0.01, decay=0.75, eps=0.0)
    >>> opt.update(np.array([3.0]), opt.init(np.zeros(1)))[0]      # -0.01 * 3 / sqrt(0.25 * 9)
    array([-0.02])
    """
    scaling = (scale_by_stddev if centered else scale_by_rms)(decay, eps, initial_scale,
                                                               eps_in_sqrt)
    if nesterov and not momentum:
        raise ValueError("rmsprop: nesterov=True needs a momentum (e.g. momentum=0.9)")
    return chain(scaling, scale_by_learning_rate(learning_rate),
                 trace(momentum, nesterov) if momentum is not None else identity())


def adagrad(learning_rate: ScalarOrSchedule, initial_accumulator_value: float = 0.1,
            eps: float = 1e-7) -> GradientTransformation:
    """Adagrad (Duchi et al., 2011): ``-lr * g / sqrt(s + eps)``, ``s`` the running sum of
    ``g**2`` started at ``initial_accumulator_value``.

    >>> import numpy as np, funcgrad as fg
    >>> opt = fg.optim.adagrad(0.5, initial_accumulator_value=0.0, eps=0.0)
    >>> opt.update(np.array([2.0]), opt.init(np.zeros(1)))[0]      # -0.5 * 2 / sqrt(4)
    array([-0.5])
    """
    return chain(scale_by_rss(initial_accumulator_value, eps),
                 scale_by_learning_rate(learning_rate))
