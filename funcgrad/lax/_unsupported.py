"""The names of ``jax.lax`` that funcgrad defines only to say why it cannot run them:
ordering tokens and point-to-point sends between devices (funcgrad runs one process on
one device, its effects in program order), XLA's random number generators (whose bits
funcgrad does not reproduce: use ``numpy.random`` or ``fg.rand``).  Each raises ``NotImplementedError`` naming the reason
and what to use instead; :class:`RandomAlgorithm` exists so that code naming it imports.
"""
import enum
from typing import Any, NoReturn

import numpy as np

__all__ = ["RandomAlgorithm", "rng_uniform", "rng_bit_generator", "after_all", "create_token",
           "psend", "precv", "ragged_all_to_all"]


class RandomAlgorithm(enum.IntEnum):
    """XLA's random bit generators, as JAX names them (for :func:`rng_bit_generator`,
    which funcgrad does not implement).

    >>> from funcgrad import lax
    >>> lax.RandomAlgorithm.RNG_PHILOX
    <RandomAlgorithm.RNG_PHILOX: 2>
    """
    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2


def _refuse(name: str, why: str) -> NoReturn:
    raise NotImplementedError(f"lax.{name} is not supported by funcgrad: {why}")


_RANDOM = ("XLA's generator is not reproduced (its bits would not match JAX's). Draw "
           "random numbers outside the function with numpy.random.default_rng (or "
           "fg.rand/fg.randn) and pass them in")
_TOKENS = ("tokens order side effects between devices; funcgrad runs one process whose "
           "effects happen in program order, so drop the token")
_DEVICES = ("it moves values between devices; funcgrad's collectives act along a named "
            "fg.vmap axis: use lax.ppermute or lax.all_to_all there")


def rng_uniform(a: Any, b: Any, shape: Any) -> NoReturn:
    """Not supported: XLA's stateful uniform generator (see the module's note).

    >>> from funcgrad import lax
    >>> lax.rng_uniform(0.0, 1.0, (2,))
    Traceback (most recent call last):
    NotImplementedError: lax.rng_uniform is not supported by funcgrad: ...
    """
    _refuse("rng_uniform", _RANDOM)


def rng_bit_generator(key: Any, shape: Any, dtype: Any = np.uint32,
                      algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT, *,
                      out_sharding: Any = None) -> NoReturn:
    """Not supported: XLA's counter-based bit generator (see the module's note).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.rng_bit_generator(np.zeros(4, np.uint32), (2,))
    Traceback (most recent call last):
    NotImplementedError: lax.rng_bit_generator is not supported by funcgrad: ...
    """
    _refuse("rng_bit_generator", _RANDOM)


def after_all(*operands: Any) -> NoReturn:
    """Not supported: joins ordering tokens (see the module's note).

    >>> from funcgrad import lax
    >>> lax.after_all()
    Traceback (most recent call last):
    NotImplementedError: lax.after_all is not supported by funcgrad: ...
    """
    _refuse("after_all", _TOKENS)


def create_token(_: Any = None) -> NoReturn:
    """Not supported: makes an ordering token (see the module's note).

    >>> from funcgrad import lax
    >>> lax.create_token()
    Traceback (most recent call last):
    NotImplementedError: lax.create_token is not supported by funcgrad: ...
    """
    _refuse("create_token", _TOKENS)


def psend(x: Any, axis_name: Any, perm: Any) -> NoReturn:
    """Not supported: a point-to-point send between devices (see the module's note).

    >>> from funcgrad import lax
    >>> lax.psend(1.0, "i", [(0, 1)])
    Traceback (most recent call last):
    NotImplementedError: lax.psend is not supported by funcgrad: ...
    """
    _refuse("psend", _DEVICES)


def precv(token: Any, out_shape: Any, axis_name: Any, perm: Any) -> NoReturn:
    """Not supported: a point-to-point receive between devices (see the module's note).

    >>> from funcgrad import lax
    >>> lax.precv(None, (2,), "i", [(0, 1)])
    Traceback (most recent call last):
    NotImplementedError: lax.precv is not supported by funcgrad: ...
    """
    _refuse("precv", _DEVICES)


def ragged_all_to_all(operand: Any, output: Any, input_offsets: Any, send_sizes: Any,
                      output_offsets: Any, recv_sizes: Any, *, axis_name: Any,
                      axis_index_groups: Any = None) -> NoReturn:
    """Not supported: an all-to-all of ragged pieces between devices (see the module's
    note).

    >>> from funcgrad import lax
    >>> lax.ragged_all_to_all(None, None, None, None, None, None, axis_name="i")
    Traceback (most recent call last):
    NotImplementedError: lax.ragged_all_to_all is not supported by funcgrad: ...
    """
    _refuse("ragged_all_to_all", _DEVICES)

