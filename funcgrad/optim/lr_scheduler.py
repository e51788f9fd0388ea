"""PyTorch-style learning-rate schedulers for the optimizers of :mod:`.optimizer`
(``torch.optim.lr_scheduler``'s names, constructor arguments and chainable rules).

A scheduler sets ``group["lr"]`` of its optimizer's groups; call ``scheduler.step()``
once per epoch, after ``optimizer.step()``. Each rule is written, as PyTorch writes it,
relative to the current ``lr``, so several schedulers on one optimizer compose.
"""
import math
from typing import Any, Callable, Iterable, Sequence, Union

from .optimizer import Optimizer

__all__ = ["LRScheduler", "StepLR", "MultiStepLR", "ExponentialLR", "CosineAnnealingLR",
           "LambdaLR"]


class LRScheduler:
    """Base class: ``step()``, ``get_last_lr()``, ``last_epoch``, ``base_lrs``,
    ``state_dict()`` / ``load_state_dict()``. Subclasses define ``get_lr()``, the new
    learning rate of each group at ``self.last_epoch``.

    >>> import funcgrad as fg
    >>> opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=1.0)
    >>> sched = fg.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    >>> sched.base_lrs, sched.last_epoch, sched.get_last_lr()
    ([1.0], 0, [1.0])
    """

    def __init__(self, optimizer: Optimizer, last_epoch: int = -1) -> None:
        if not isinstance(optimizer, Optimizer):
            raise TypeError(f"{type(optimizer).__name__} is not an Optimizer (a scheduler "
                            "drives fg.optim.SGD, Adam, ...; the functional optimizers take "
                            "a schedule function as their learning rate instead)")
        self.optimizer = optimizer
        for i, group in enumerate(optimizer.param_groups):
            if last_epoch == -1:
                group.setdefault("initial_lr", group["lr"])
            elif "initial_lr" not in group:
                raise KeyError(f"param 'initial_lr' is not specified in param_groups[{i}] "
                               "when resuming an optimizer")
        self.base_lrs = [group["initial_lr"] for group in optimizer.param_groups]
        self.last_epoch = last_epoch
        # The constructor's step counts the epoch but, as in PyTorch 2.13, keeps the
        # learning rates the optimizer has (a resumed schedule does not move one ahead).
        self._initial = True
        try:
            self.step()
        finally:
            self._initial = False

    def get_lr(self) -> list[float]:
        raise NotImplementedError

    def get_last_lr(self) -> list[float]:
        """The learning rates the last ``step()`` set, one per group."""
        return list(self._last_lr)

    def step(self) -> None:
        """Advance one epoch and set each group's learning rate."""
        self.last_epoch += 1
        for group, lr in zip(self.optimizer.param_groups, self.get_lr()):
            group["lr"] = lr
        self._last_lr = [group["lr"] for group in self.optimizer.param_groups]

    def state_dict(self) -> dict[str, Any]:
        """Everything but the optimizer (and functions, which cannot be saved)."""
        return {k: v for k, v in self.__dict__.items()
                if k != "optimizer" and not callable(v) and k != "lr_lambdas"}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore what :meth:`state_dict` returned."""
        self.__dict__.update(state_dict)

    def _lrs(self) -> list[float]:
        return [group["lr"] for group in self.optimizer.param_groups]


class StepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every ``step_size`` epochs.

    >>> import funcgrad as fg
    >>> opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=1.0)
    >>> sched = fg.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.1)
    >>> lrs = []
    >>> for epoch in range(5):
    ...     lrs.append(round(sched.get_last_lr()[0], 6)); opt.step(); sched.step()
    >>> lrs
    [1.0, 1.0, 0.1, 0.1, 0.01]
    """

    def __init__(self, optimizer: Optimizer, step_size: int, gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        if int(step_size) != step_size or step_size < 1:
            raise ValueError(f"step_size must be a positive integer, got {step_size}")
        self.step_size, self.gamma = int(step_size), gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self.last_epoch == 0 or self.last_epoch % self.step_size != 0:
            return self._lrs()
        return [lr * self.gamma for lr in self._lrs()]


class MultiStepLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` at each epoch listed in ``milestones``.

    >>> import funcgrad as fg
    >>> opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=1.0)
    >>> sched = fg.optim.lr_scheduler.MultiStepLR(opt, milestones=[1, 3], gamma=0.5)
    >>> lrs = []
    >>> for epoch in range(4):
    ...     lrs.append(sched.get_last_lr()[0]); opt.step(); sched.step()
    >>> lrs
    [1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, optimizer: Optimizer, milestones: Iterable[int], gamma: float = 0.1,
                 last_epoch: int = -1) -> None:
        self.milestones = sorted(int(m) for m in milestones)
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        hits = self.milestones.count(self.last_epoch)
        return [lr * self.gamma ** hits for lr in self._lrs()]


class ExponentialLR(LRScheduler):
    """Multiply the learning rate by ``gamma`` every epoch.

    >>> import funcgrad as fg
    >>> opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=1.0)
    >>> sched = fg.optim.lr_scheduler.ExponentialLR(opt, gamma=0.5)
    >>> opt.step(); sched.step(); opt.step(); sched.step(); sched.get_last_lr()
    [0.25]
    """

    def __init__(self, optimizer: Optimizer, gamma: float, last_epoch: int = -1) -> None:
        self.gamma = gamma
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        if self._initial:  # (the constructor's step, epoch 0 of a fresh schedule)
            return self._lrs()
        return [lr * self.gamma for lr in self._lrs()]


class CosineAnnealingLR(LRScheduler):
    """Anneal from the initial learning rate to ``eta_min`` along half a cosine of period
    ``2 * T_max`` epochs (SGDR, Loshchilov and Hutter, without restarts):
    ``eta_min + (base - eta_min) * (1 + cos(pi * epoch / T_max)) / 2``, computed step by
    step as PyTorch does so that it composes with other schedulers.

    >>> import funcgrad as fg
    >>> opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=1.0)
    >>> sched = fg.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=4)
    >>> lrs = []
    >>> for epoch in range(5):
    ...     lrs.append(round(sched.get_last_lr()[0], 4)); opt.step(); sched.step()
    >>> lrs
    [1.0, 0.8536, 0.5, 0.1464, 0.0]
    """

    def __init__(self, optimizer: Optimizer, T_max: int, eta_min: float = 0.0,
                 last_epoch: int = -1) -> None:
        if T_max <= 0:
            raise ValueError(f"T_max must be positive, got {T_max}")
        self.T_max, self.eta_min = T_max, eta_min
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        epoch, t_max, low = self.last_epoch, self.T_max, self.eta_min
        if self._initial:  # (the constructor's step, epoch 0 of a fresh schedule)
            return self._lrs()
        if (epoch - 1 - t_max) % (2 * t_max) == 0:
            # Past the trough the ratio below is 0/0: step up by the cosine's first increment.
            return [lr + (base - low) * (1 - math.cos(math.pi / t_max)) / 2
                    for lr, base in zip(self._lrs(), self.base_lrs)]
        ratio = ((1 + math.cos(math.pi * epoch / t_max))
                 / (1 + math.cos(math.pi * (epoch - 1) / t_max)))
        return [low + ratio * (lr - low) for lr in self._lrs()]


class LambdaLR(LRScheduler):
    """The initial learning rate times ``lr_lambda(epoch)`` (one function, or one per
    group).

    >>> import funcgrad as fg
    >>> opt = fg.optim.SGD([fg.ones(1, requires_grad=True)], lr=2.0)
    >>> sched = fg.optim.lr_scheduler.LambdaLR(opt, lambda epoch: 1 / (1 + epoch))
    >>> opt.step(); sched.step(); sched.get_last_lr()
    [1.0]
    """

    def __init__(self, optimizer: Optimizer,
                 lr_lambda: Union[Callable[[int], float], Sequence[Callable[[int], float]]],
                 last_epoch: int = -1) -> None:
        n = len(optimizer.param_groups)
        if callable(lr_lambda):
            self.lr_lambdas = [lr_lambda] * n
        else:
            if len(lr_lambda) != n:
                raise ValueError(f"Expected {n} lr_lambdas, but got {len(lr_lambda)}")
            self.lr_lambdas = list(lr_lambda)
        super().__init__(optimizer, last_epoch)

    def get_lr(self) -> list[float]:
        return [base * f(self.last_epoch) for base, f in zip(self.base_lrs, self.lr_lambdas)]
