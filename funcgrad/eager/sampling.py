"""PyTorch's random in-place fills: ``uniform_``, ``normal_``, ``bernoulli_``,
``exponential_``, ``random_``, ``geometric_``, ``cauchy_``, ``log_normal_``.

Each draws from this thread's generator (``fg.manual_seed`` seeds it), or from the
``generator=`` given (a NumPy ``Generator``), and replaces the Tensor's elements as
``fill_`` does: through the in-place machinery, so a view passes the new elements to its
base, the version counter moves, and the gradient to the old value is zero (PyTorch's).
The numbers are NumPy's, not PyTorch's: the same seed gives other draws than
``torch.manual_seed``, from the same distributions.

>>> import funcgrad as fg
>>> _ = fg.manual_seed(0)
>>> w = fg.empty(2, 3).uniform_(-1.0, 1.0)
>>> bool(((w >= -1) & (w < 1)).all()), fg.zeros(4).bernoulli_(1.0)
(True, tensor([1., 1., 1., 1.]))
"""
from typing import Any

import numpy as np

from ..primitives import elementwise as ew
from .factories import _random
from .inplace import _FALSE

__all__ = ["attach"]


def _rng(generator):
    return generator if generator is not None else _random.generator


def _floating(self, name):
    if self.dtype.kind not in "fc":
        raise RuntimeError(f"{name} is not implemented for a Tensor of dtype {self.dtype} "
                           f"(PyTorch's message: \"{name}\" not implemented for "
                           f"'{self.dtype}'); fill a floating Tensor, then convert it "
                           f"with .to(dtype)")


def _fill(self, sample):
    """The elements replaced by ``sample`` (an array of this shape), in place."""
    value = np.asarray(sample).astype(self.dtype, copy=False)
    return self._inplace(lambda s: ew.where(_FALSE, s, value))


def uniform_(self: Any, from_: float = 0.0, to: float = 1.0, *, generator: Any = None,
             **kwargs: Any) -> Any:
    """Uniform numbers in ``[from, to)``, in place (``from`` may be passed by name).

    >>> import funcgrad as fg
    >>> _ = fg.manual_seed(0); x = fg.empty(3).uniform_(2.0, 3.0)
    >>> bool(((x >= 2) & (x < 3)).all())
    True
    """
    from_ = kwargs.pop("from", from_)
    if kwargs:
        raise TypeError(f"uniform_() got unexpected arguments {sorted(kwargs)}")
    _floating(self, "uniform_")
    if not from_ <= to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={from_} > to={to}")
    return _fill(self, _rng(generator).uniform(from_, to, tuple(self.shape)))


def normal_(self: Any, mean: float = 0.0, std: float = 1.0, *,
            generator: Any = None) -> Any:
    """Normal numbers of mean ``mean`` and standard deviation ``std``, in place.

    >>> import funcgrad as fg
    >>> _ = fg.manual_seed(0); x = fg.empty(10000).normal_(5.0, 0.5)
    >>> round(x.mean().item(), 1), round(x.std().item(), 1)
    (5.0, 0.5)
    """
    _floating(self, "normal_")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    return _fill(self, _rng(generator).normal(mean, std, tuple(self.shape)))


def bernoulli_(self: Any, p: Any = 0.5, *, generator: Any = None) -> Any:
    """1 with probability ``p`` (a number, or a Tensor broadcast to this shape), else 0,
    in place.

    >>> import funcgrad as fg
    >>> fg.ones(3).bernoulli_(fg.tensor([0.0, 1.0, 0.0]))
    tensor([0., 1., 0.])
    """
    prob = np.asarray(p.detach() if hasattr(p, "detach") else p, np.float64)
    if prob.size and not ((prob >= 0) & (prob <= 1)).all():
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p}")
    draw = _rng(generator).random(tuple(self.shape)) < np.broadcast_to(prob, self.shape)
    return _fill(self, draw)


def exponential_(self: Any, lambd: float = 1.0, *, generator: Any = None) -> Any:
    """Exponential numbers of rate ``lambd`` (mean ``1 / lambd``), in place.

    >>> import funcgrad as fg
    >>> _ = fg.manual_seed(0); x = fg.empty(10000).exponential_(4.0)
    >>> round(x.mean().item(), 2)
    0.25
    """
    _floating(self, "exponential_")
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={lambd}")
    return _fill(self, _rng(generator).exponential(1.0 / lambd, tuple(self.shape)))


def geometric_(self: Any, p: float, *, generator: Any = None) -> Any:
    """The number of trials up to the first success of probability ``p`` (1, 2, ...),
    in place.

    >>> import funcgrad as fg
    >>> fg.zeros(2).geometric_(1.0)
    tensor([1., 1.])
    """
    if not 0 < p <= 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1], but got p={p}")
    return _fill(self, _rng(generator).geometric(p, tuple(self.shape)))


def cauchy_(self: Any, median: float = 0.0, sigma: float = 1.0, *,
            generator: Any = None) -> Any:
    """Cauchy numbers centred on ``median`` with half-width ``sigma``, in place.

    >>> import funcgrad as fg
    >>> _ = fg.manual_seed(0); x = fg.empty(10001).cauchy_(3.0, 0.1)
    >>> round(x.median().item(), 1)
    3.0
    """
    _floating(self, "cauchy_")
    return _fill(self, median + sigma * _rng(generator).standard_cauchy(tuple(self.shape)))


def log_normal_(self: Any, mean: float = 1.0, std: float = 2.0, *,
                generator: Any = None) -> Any:
    """``exp`` of normal numbers of mean ``mean`` and standard deviation ``std``, in place.

    >>> import funcgrad as fg
    >>> _ = fg.manual_seed(0); x = fg.empty(10000).log_normal_(0.0, 0.25)
    >>> round(x.log().mean().item(), 1)
    0.0
    """
    _floating(self, "log_normal_")
    if not std > 0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={std}")
    return _fill(self, _rng(generator).lognormal(mean, std, tuple(self.shape)))


def _integer_limit(dtype):
    """The largest integer ``random_()`` draws for ``dtype``: PyTorch's, 2 ** mantissa
    bits for floats (every integer up to it is exact), the type's maximum for integers."""
    if dtype.kind == "f":
        return 2 ** (np.finfo(dtype).nmant + 1)
    if dtype.kind == "b":
        return 1
    return int(np.iinfo(dtype).max)


def random_(self: Any, from_: int | None = None, to: int | None = None, *,
            generator: Any = None) -> Any:
    """Integers, in place: ``random_()`` from 0 to the dtype's largest exact integer,
    ``random_(to)`` in ``[0, to)``, ``random_(from, to)`` in ``[from, to)``.

    >>> import funcgrad as fg
    >>> _ = fg.manual_seed(0); x = fg.empty(100).random_(3, 5)
    >>> sorted(set(x.tolist()))
    [3.0, 4.0]
    """
    if self.dtype.kind == "c":
        raise RuntimeError("random_ is not implemented for complex Tensors; fill the real "
                           "and imaginary parts of a real Tensor, then combine them")
    if to is None:
        low, high = 0, (from_ if from_ is not None else _integer_limit(self.dtype) + 1)
    else:
        low, high = (from_ or 0), to
    if not low < high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                           f"from={low} >= to={high}")
    return _fill(self, _rng(generator).integers(low, high, tuple(self.shape)))


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for fn in (uniform_, normal_, bernoulli_, exponential_, geometric_, cauchy_,
               log_normal_, random_):
        setattr(cls, fn.__name__, fn)
