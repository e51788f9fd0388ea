"""Learning-rate schedules: functions of the step count (optax's names and formulas).

A schedule takes the number of updates made so far (0 for the first) and returns the
learning rate; pass it where a learning rate goes (``fg.optim.adam(schedule)``). They are
written with ``funcgrad.numpy``, so they also run on the traced count inside ``fg.jit``.
"""
from typing import Optional, Sequence

import numpy as np

from .. import numpy as fnp
from .base import Schedule, check_float

__all__ = ["constant_schedule", "linear_schedule", "exponential_decay",
           "cosine_decay_schedule", "piecewise_constant_schedule", "join_schedules",
           "warmup_cosine_decay_schedule"]


def _float_count(count):
    return fnp.astype(fnp.asarray(count), np.float64)


def constant_schedule(value: float) -> Schedule:
    """``value`` at every step.

    >>> import funcgrad as fg
    >>> fg.optim.constant_schedule(0.1)(7)
    0.1
    """
    check_float("value", value)
    return lambda count: value


def linear_schedule(init_value: float, end_value: float, transition_steps: int,
                    transition_begin: int = 0) -> Schedule:
    """From ``init_value`` to ``end_value`` linearly over ``transition_steps`` steps,
    starting at step ``transition_begin``; constant before and after.

    >>> import funcgrad as fg
    >>> s = fg.optim.linear_schedule(1.0, 0.0, transition_steps=4)
    >>> [float(s(c)) for c in (0, 1, 4, 10)]
    [1.0, 0.75, 0.0, 0.0]
    """
    if transition_steps <= 0:
        raise ValueError(f"linear_schedule: transition_steps must be positive, got "
                         f"{transition_steps} (use constant_schedule for a constant)")

    def schedule(count):
        done = fnp.clip(_float_count(count) - transition_begin, 0, transition_steps)
        return init_value + (end_value - init_value) * (done / transition_steps)

    return schedule


def exponential_decay(init_value: float, transition_steps: int, decay_rate: float,
                      transition_begin: int = 0, staircase: bool = False,
                      end_value: Optional[float] = None) -> Schedule:
    """``init_value * decay_rate ** ((count - transition_begin) / transition_steps)``
    (the exponent rounded down with ``staircase``), ``init_value`` before
    ``transition_begin``, never past ``end_value`` when one is given.

    >>> import funcgrad as fg
    >>> s = fg.optim.exponential_decay(1.0, transition_steps=2, decay_rate=0.5, staircase=True)
    >>> [float(s(c)) for c in (0, 1, 2, 5)]
    [1.0, 1.0, 0.5, 0.25]
    """
    if transition_steps <= 0:
        raise ValueError(f"exponential_decay: transition_steps must be positive, got "
                         f"{transition_steps}")
    check_float("decay_rate", decay_rate, 0.0)

    def schedule(count):
        since = _float_count(count) - transition_begin
        exponent = since / transition_steps
        if staircase:
            exponent = fnp.floor(exponent)
        value = init_value * fnp.power(decay_rate, exponent)
        if transition_begin > 0:
            value = fnp.where(since <= 0, init_value, value)
        if end_value is not None:
            value = (fnp.maximum if decay_rate < 1 else fnp.minimum)(value, end_value)
        return value

    return schedule


def cosine_decay_schedule(init_value: float, decay_steps: int, alpha: float = 0.0,
                          exponent: float = 1.0) -> Schedule:
    """Half a cosine from ``init_value`` down to ``alpha * init_value`` over
    ``decay_steps`` steps (Loshchilov and Hutter's SGDR without restarts), then constant.

    >>> import funcgrad as fg
    >>> s = fg.optim.cosine_decay_schedule(1.0, decay_steps=4)
    >>> [round(float(s(c)), 4) for c in (0, 2, 4, 9)]
    [1.0, 0.5, 0.0, 0.0]
    """
    if decay_steps <= 0:
        raise ValueError(f"cosine_decay_schedule: decay_steps must be positive, got "
                         f"{decay_steps}")

    def schedule(count):
        done = fnp.minimum(_float_count(count), decay_steps)
        cosine = 0.5 * (1 + fnp.cos(np.pi * done / decay_steps))
        return init_value * ((1 - alpha) * cosine ** exponent + alpha)

    return schedule


def piecewise_constant_schedule(init_value: float,
                                boundaries_and_scales: Optional[dict[int, float]] = None
                                ) -> Schedule:
    """``init_value``, multiplied by ``scale`` from each step ``boundary`` on
    (``boundaries_and_scales`` is a dict ``{boundary: scale}``).

    >>> import funcgrad as fg
    >>> s = fg.optim.piecewise_constant_schedule(1.0, {2: 0.5, 4: 0.1})
    >>> [float(s(c)) for c in (0, 2, 3, 4)]
    [1.0, 0.5, 0.5, 0.05]
    """
    pieces = sorted((boundaries_and_scales or {}).items())
    for boundary, factor in pieces:
        check_float(f"the scale at step {boundary}", factor, 0.0)

    def schedule(count):
        count = fnp.asarray(count)
        value = fnp.asarray(float(init_value))
        for boundary, factor in pieces:
            value = fnp.where(count < boundary, value, value * factor)
        return value

    return schedule


def join_schedules(schedules: Sequence[Schedule], boundaries: Sequence[int]) -> Schedule:
    """``schedules[i]`` from step ``boundaries[i - 1]`` on, counting from 0 again there.

    >>> import funcgrad as fg
    >>> s = fg.optim.join_schedules([lambda c: 1.0, lambda c: c * 0.1], [3])
    >>> [round(float(s(c)), 2) for c in (2, 3, 5)]
    [1.0, 0.0, 0.2]
    """
    if len(boundaries) != len(schedules) - 1:
        raise ValueError(f"join_schedules: {len(schedules)} schedules need "
                         f"{len(schedules) - 1} boundaries, got {len(boundaries)}")

    def schedule(count):
        count = fnp.asarray(count)
        value = schedules[0](count)
        for boundary, later in zip(boundaries, schedules[1:]):
            value = fnp.where(count < boundary, value, later(count - boundary))
        return value

    return schedule


def warmup_cosine_decay_schedule(init_value: float, peak_value: float, warmup_steps: int,
                                 decay_steps: int, end_value: float = 0.0,
                                 exponent: float = 1.0) -> Schedule:
    """Linear warm-up from ``init_value`` to ``peak_value`` over ``warmup_steps``, then a
    cosine decay to ``end_value`` at step ``decay_steps`` (counted from the start).

    >>> import funcgrad as fg
    >>> s = fg.optim.warmup_cosine_decay_schedule(0.0, 1.0, warmup_steps=2, decay_steps=6)
    >>> [round(float(s(c)), 4) for c in (0, 1, 2, 4, 6)]
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """
    if not 0 < warmup_steps < decay_steps:
        raise ValueError(f"warmup_cosine_decay_schedule: need 0 < warmup_steps < decay_steps, "
                         f"got warmup_steps={warmup_steps}, decay_steps={decay_steps}")
    alpha = 0.0 if peak_value == 0 else end_value / peak_value
    return join_schedules([linear_schedule(init_value, peak_value, warmup_steps),
                           cosine_decay_schedule(peak_value, decay_steps - warmup_steps,
                                                 alpha=alpha, exponent=exponent)],
                          [warmup_steps])
