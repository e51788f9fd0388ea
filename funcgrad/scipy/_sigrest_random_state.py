"""SciPy 1.17's legacy ``random_state`` keyword beside ``rng`` (SciPy's
``_transition_to_rng``, without a deprecation warning in 1.17): one or the other; a
``random_state`` is used as ``check_random_state`` takes it, so an int seeds a legacy
``RandomState`` (another stream than ``rng=int``'s ``default_rng``).
"""
import numbers
from typing import Any

import numpy as np


def rng_or_random_state(rng: Any, random_state: Any, name: str, legacy: bool = True) -> Any:
    """The generator a resampling function draws from, given its ``rng`` and its legacy
    ``random_state`` (``legacy=False``: the function seeds ``default_rng`` from either)."""
    if random_state is None:
        return rng
    if rng is not None:
        raise TypeError(f"{name}() got multiple values for argument now known as `rng`. "
                        f"Specify one of `rng` or `random_state`.")
    if not legacy or isinstance(random_state, (np.random.Generator,
                                               np.random.RandomState)):
        return random_state
    if random_state is np.random:
        return np.random.mtrand._rand
    if isinstance(random_state, (numbers.Integral, np.integer)) and not isinstance(
            random_state, bool):
        return np.random.RandomState(int(random_state))
    raise ValueError(f"{name}: random_state={random_state!r} cannot be used to seed a "
                     f"numpy.random.RandomState instance; pass an int, a Generator or a "
                     f"RandomState (or use rng=)")
