"""``permutation_test`` and ``monte_carlo_test`` of :mod:`funcgrad.scipy.stats`
(re-exported there), with SciPy's signatures, results and random draws (the same ``rng``
gives SciPy's null distribution), and SciPy's ``PermutationMethod``, ``BootstrapMethod``
and ``MonteCarloMethod`` (re-exported as they are, loaded with SciPy on first use).

The observed statistic and the null distribution of a permutation test are the statistic
of the data and of its rearrangements (constant index arrays): differentiable in the data.
A p-value counts the null values at least as extreme as the observed one, a step function
of the data: its derivative is 0.  A Monte Carlo test's null distribution comes from
``rvs``, not from the data.
"""
import math
from dataclasses import dataclass
from itertools import accumulate, combinations, permutations, product
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from ._statsresample_bootstrap import (check_alternative, check_count, generator,
                                       standard_samples, vectorize)
from ._statsresample_quantile import values_of
from ._sigrest_random_state import rng_or_random_state

__all__ = ["permutation_test", "monte_carlo_test"]

# (public names of funcgrad.scipy.stats, SciPy's classes for the ``method=`` of its tests,
# served by __getattr__ below)
SCIPY_CLASSES = ["PermutationMethod", "BootstrapMethod", "MonteCarloMethod"]


def __getattr__(name: str) -> Any:
    # (imported into funcgrad.scipy.stats as its module __getattr__: SciPy's classes
    # themselves, loaded when first asked for, so that importing funcgrad never loads SciPy)
    if name in SCIPY_CLASSES:
        import scipy.stats
        return getattr(scipy.stats, name)
    raise AttributeError(f"module 'funcgrad.scipy.stats' has no attribute {name!r}")


@dataclass
class PermutationTestResult:
    """:func:`permutation_test`'s result, as SciPy's: ``statistic``, ``pvalue`` and
    ``null_distribution`` (the statistic of each rearrangement, along the first axis).

    >>> import numpy as np
    >>> res = permutation_test((np.array([1.0, 2.0]), np.array([3.0, 4.0])),
    ...                        lambda x, y: np.mean(x) - np.mean(y))
    >>> float(res.statistic), float(res.pvalue), res.null_distribution.shape
    (-2.0, 0.3333333333333333, (6,))
    """
    statistic: Array
    pvalue: Array
    null_distribution: Array


@dataclass
class MonteCarloTestResult:
    """:func:`monte_carlo_test`'s result, as SciPy's: ``statistic``, ``pvalue`` and
    ``null_distribution`` (the statistic of each sample drawn from ``rvs``).

    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> res = monte_carlo_test(np.array([0.1, -0.3, 0.2]), rng.normal, np.mean,
    ...                        n_resamples=9)
    >>> res.null_distribution.shape
    (9,)
    """
    statistic: Array
    pvalue: Array
    null_distribution: Array


def _pvalue(alternative, null, observed, adjustment, count, dtype):
    """SciPy's p-values: the share of ``null`` (first axis) at least as extreme as
    ``observed``, ties within 100 eps of it counted (values that are equal in theory)."""
    null, observed = values_of(null), values_of(observed)
    eps = np.finfo(observed.dtype).eps * 100 if observed.dtype.kind == "f" else 0
    gamma = np.abs(eps * observed)
    less = ((np.count_nonzero(null <= observed + gamma, axis=0) + adjustment)
            .astype(dtype) / (count + adjustment))
    greater = ((np.count_nonzero(null >= observed - gamma, axis=0) + adjustment)
               .astype(dtype) / (count + adjustment))
    p = {"less": less, "greater": greater,
         "two-sided": np.minimum(less, greater) * 2}[alternative]
    return np.clip(p, 0.0, 1.0).astype(dtype)[()]


def _batches(items, size):
    items = iter(items)
    while True:
        chunk = [item for _, item in zip(range(size), items)]
        if not chunk:
            return
        yield chunk


def _partitions(sizes):
    """Every split of ``0 .. sum(sizes) - 1`` into groups of ``sizes``, each group's indices
    increasing, concatenated (SciPy's order: the first group's combinations outermost)."""
    def split(rest, sizes):
        if not sizes:
            yield [rest]
            return
        for first in combinations(rest, sizes[0]):
            chosen = set(first)
            for tail in split([i for i in rest if i not in chosen], sizes[1:]):
                yield [list(first)] + tail
    for groups in split(list(range(sum(sizes))), list(sizes)):
        yield np.concatenate(groups).astype(int)


def _null_independent(data, statistic, n_resamples, batch, rng):
    sizes = [s.shape[-1] for s in data]
    edges = list(accumulate(sizes, initial=0))
    n_max = math.prod(math.comb(n, k) for n, k in zip(edges[1:], edges[:-1]))
    if n_resamples >= n_max:
        exact, n_resamples, orders = True, n_max, _partitions(sizes)
    else:
        exact = False
        orders = (rng.permutation(edges[-1]) for _ in range(int(n_resamples)))
    pooled = fnp.concatenate(data, axis=-1)
    null = []
    for chunk in _batches(orders, batch or int(n_resamples)):
        moved = fnp.moveaxis(fnp.take(pooled, np.asarray(chunk), axis=-1), -2, 0)
        null.append(statistic(*(moved[..., i:j] for i, j in zip(edges[:-1], edges[1:])),
                              axis=-1))
    return fnp.concatenate(null, axis=0), n_resamples, exact


def _random_pairings(n_resamples, n_samples, n, batch, rng):
    batch = min(batch, n_resamples)
    for start in range(0, n_resamples, batch):
        count = min(batch, n_resamples - start)
        if hasattr(rng, "permuted"):
            # (a full batch each time, cut after: SciPy's draws do not depend on the cut)
            yield rng.permuted(np.tile(np.arange(n), (batch, n_samples, 1)), axis=-1)[:count]
        else:
            yield np.argsort(rng.random(size=(count, n_samples, n)), axis=-1)


def _null_pairings(data, statistic, n_resamples, batch, rng):
    n_samples, n = len(data), data[0].shape[-1]
    n_max = math.factorial(n) ** n_samples
    if n_resamples >= n_max:
        exact, n_resamples = True, n_max
        orders = (np.asarray(chunk) for chunk in _batches(
            product(*(permutations(range(n)) for _ in range(n_samples))),
            batch or int(n_resamples)))
    else:
        exact = False
        orders = _random_pairings(int(n_resamples), n_samples, n, batch or int(n_resamples),
                                  rng)
    null = []
    for chunk in orders:
        null.append(statistic(*(fnp.moveaxis(fnp.take(s, chunk[:, i], axis=-1), -2, 0)
                                for i, s in enumerate(data)), axis=-1))
    return fnp.concatenate(null, axis=0), n_resamples, exact


def _null_samples(data, statistic, n_resamples, batch, rng):
    """Paired samples: the roles of samples and observations swapped, then the pairings'
    rearrangements (one sample: its signs flipped, as its pairing with its negative)."""
    one = len(data) == 1
    stacked = fnp.stack([data[0], -data[0]] if one else data, axis=0)
    stacked = fnp.swapaxes(stacked, 0, -1)

    def swapped(*observations, axis):
        back = fnp.swapaxes(fnp.stack(observations, axis=0), 0, -1)
        back = back[:1] if one else back
        return statistic(*(back[i] for i in range(back.shape[0])), axis=axis)
    return _null_pairings([stacked[i] for i in range(stacked.shape[0])], swapped,
                          n_resamples, batch, rng)


def permutation_test(data: Sequence[ArrayLike], statistic: Callable[..., Any], *,
                     permutation_type: str = "independent", vectorized: Optional[bool] = None,
                     n_resamples: float = 9999, batch: Optional[int] = None,
                     alternative: str = "two-sided", axis: int = 0,
                     rng: Any = None,
                     random_state: Any = None) -> PermutationTestResult:
    """A permutation test of ``statistic`` on ``data``, as ``scipy.stats.permutation_test``
    (SciPy's signature and draws: the same ``rng`` seed gives SciPy's null distribution;
    every rearrangement when there are at most ``n_resamples``, an exact test).

    ``permutation_type``: ``'independent'`` (observations assigned to samples),
    ``'samples'`` (paired observations swapped between samples; one sample: signs flipped)
    or ``'pairings'`` (each sample reordered).  A statistic without ``axis`` is mapped with
    :func:`funcgrad.vmap`.  ``statistic`` and ``null_distribution`` are differentiable in
    the data; the p-value is a count (derivative 0).
    ``random_state`` is SciPy's legacy keyword beside ``rng`` (give one): an int seeds a
    ``numpy.random.RandomState``, as SciPy 1.17 does.

    >>> import numpy as np, funcgrad as fg
    >>> x, y = np.array([1.0, 2.0, 3.0]), np.array([4.0, 6.0])
    >>> diff = lambda x, y, axis: np.mean(x, axis=axis) - np.mean(y, axis=axis)
    >>> res = permutation_test((x, y), diff)
    >>> float(res.statistic), float(res.pvalue)
    (-3.0, 0.2)
    >>> fg.grad(lambda x: permutation_test((x, y), diff).statistic)(x)
    array([0.33333333, 0.33333333, 0.33333333])
    """
    rng = rng_or_random_state(rng, random_state, "permutation_test")
    name = "permutation_test"
    kinds = ("independent", "samples", "pairings")
    permutation_type = str(permutation_type).lower()
    if permutation_type not in kinds:
        raise ValueError(f"{name}: permutation_type must be one of {kinds}, got "
                         f"{permutation_type!r}")
    statistic = vectorize(name, statistic, vectorized)
    try:
        count = len(data)
    except TypeError as error:
        raise TypeError(f"{name}: data must be a tuple containing at least two "
                        f"samples") from error
    if count < 2 and permutation_type == "independent":
        raise ValueError(f"{name}: data must be a tuple containing at least two samples "
                         f"(permutation_type='independent'); got {count}")
    samples = standard_samples(name, data, axis, 2)
    if permutation_type != "independent" and len({s.shape[-1] for s in samples}) > 1:
        raise ValueError(f"{name}: with permutation_type={permutation_type!r} all samples "
                         f"must have the same number of observations along axis")
    if not (isinstance(n_resamples, (int, float, np.integer, np.floating))
            and (math.isinf(n_resamples) or int(n_resamples) == n_resamples)
            and n_resamples > 0):
        raise ValueError(f"{name}: n_resamples must be a positive integer (or inf), got "
                         f"{n_resamples!r}")
    if batch is not None:
        batch = check_count(name, "batch", batch)
    alternative = check_alternative(name, alternative)
    rng = generator(rng)
    dtype = np.result_type(*(s.dtype for s in samples), np.float16)
    dtype = dtype if dtype.kind == "f" else np.dtype(np.float64)

    observed = asarray(statistic(*samples, axis=-1))
    null_of = {"independent": _null_independent, "pairings": _null_pairings,
               "samples": _null_samples}[permutation_type]
    null, n_resamples, exact = null_of(samples, statistic, n_resamples, batch, rng)
    pvalue = _pvalue(alternative, null, observed, 0 if exact else 1, n_resamples, dtype)
    return PermutationTestResult(observed, pvalue, null)


def monte_carlo_test(data: Any, rvs: Any, statistic: Callable[..., Any], *,
                     vectorized: Optional[bool] = None, n_resamples: int = 9999,
                     batch: Optional[int] = None, alternative: str = "two-sided",
                     axis: int = 0) -> MonteCarloTestResult:
    """A Monte Carlo test of whether ``data`` is drawn from the distribution ``rvs``
    samples, as ``scipy.stats.monte_carlo_test``: ``rvs(size=(batch, n))`` draws the
    null samples (a sequence of ``rvs``, one per sample, with ``data`` a sequence), and
    the p-value is the share of their statistics at least as extreme as the data's.
    A statistic without ``axis`` is mapped with :func:`funcgrad.vmap`; ``statistic`` is
    differentiable in the data.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([0.3, -1.2, 0.8, 1.5])
    >>> rvs = np.random.default_rng(0).normal
    >>> res = monte_carlo_test(x, rvs, np.mean, n_resamples=99)
    >>> round(float(res.statistic), 12), res.null_distribution.shape
    (0.35, (99,))
    """
    name = "monte_carlo_test"
    if not isinstance(rvs, Sequence):
        rvs, data = (rvs,), (data,)
    if any(not callable(r) for r in rvs):
        raise TypeError(f"{name}: rvs must be callable or a sequence of callables")
    try:
        count = len(data)
    except TypeError as error:
        raise ValueError(f"{name}: if rvs is a sequence, len(rvs) must equal "
                         f"len(data)") from error
    if count != len(rvs):
        raise ValueError(f"{name}: if rvs is a sequence, len(rvs) must equal len(data) "
                         f"({len(rvs)} and {count})")
    statistic = vectorize(name, statistic, vectorized)
    samples = standard_samples(name, [fnp.reshape(asarray(s), (1,)) if np.ndim(s) == 0
                                      else s for s in data], axis, 0)
    n_resamples = check_count(name, "n_resamples", n_resamples)
    if batch is not None:
        batch = check_count(name, "batch", batch)
    alternative = check_alternative(name, alternative)
    dtype = np.result_type(*(s.dtype for s in samples), np.float16)
    dtype = dtype if dtype.kind == "f" else np.dtype(np.float64)

    observed = asarray(statistic(*samples, axis=-1))
    step = batch or n_resamples
    pieces = []
    for start in range(0, n_resamples, step):
        size = min(step, n_resamples - start)
        drawn = [r(size=(size, s.shape[-1])) for r, s in zip(rvs, samples)]
        pieces.append(asarray(statistic(*drawn, axis=-1)))
    null = fnp.reshape(fnp.concatenate(pieces, axis=0), (-1,) + (1,) * observed.ndim)
    pvalue = _pvalue(alternative, null, observed, 1, n_resamples, dtype)
    return MonteCarloTestResult(observed, pvalue, null)
