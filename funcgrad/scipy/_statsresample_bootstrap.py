"""``bootstrap`` of :mod:`funcgrad.scipy.stats` (re-exported there), with SciPy's signature,
result and random draws, and the pieces the resampling tests share
(:mod:`._statsresample_tests`): the samples' standard form, the statistic made vectorized
with :func:`funcgrad.vmap`, SciPy's generator conventions and its linear quantile.

The resamples are drawn as SciPy draws them (``rng.integers(0, n, (batch, n))`` for each
batch and sample in turn, from ``np.random.default_rng(rng)``), so that the same ``rng``
gives SciPy's bootstrap distribution.  The indices are constants: each resampled
statistic, and so the bootstrap distribution, the standard error and the confidence
bounds, is differentiable in the data through the statistic.  A percentile or basic bound
is a linear interpolation between two order statistics of the bootstrap distribution, so
its derivative is theirs (exact wherever no two resampled values tie).  A BCa bound's
levels move with the data through the jackknife's acceleration (differentiable); its bias
correction is a count of resampled values below the observed one, a step function of the
data whose derivative is 0.
"""
import inspect
import math
import warnings
from collections import namedtuple
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..batched import vmap
from ..numpy._convert import asarray
from ..typing import Array, ArrayLike
from . import special as sp
from ._statsresample_quantile import sorted_quantiles, values_of
from ._sigrest_random_state import rng_or_random_state

__all__ = ["bootstrap", "BootstrapResult", "ConfidenceInterval"]

ConfidenceInterval = namedtuple("ConfidenceInterval", ["low", "high"])
ConfidenceInterval.__doc__ = """A confidence interval ``(low, high)``, as SciPy's."""


@dataclass
class BootstrapResult:
    """:func:`bootstrap`'s result, as SciPy's: ``confidence_interval`` (a
    :class:`ConfidenceInterval`), ``bootstrap_distribution`` (the statistic of each
    resample, along the last axis) and ``standard_error`` (its standard deviation,
    ``ddof=1``).

    >>> import numpy as np
    >>> res = bootstrap((np.array([1.0, 2.0, 4.0]),), np.mean, n_resamples=9, rng=0)
    >>> res.bootstrap_distribution.shape
    (9,)
    """
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: Array
    standard_error: Array


def generator(rng: Any) -> Any:
    """SciPy's ``rng`` argument as a NumPy generator: a ``Generator`` as it is, else
    ``np.random.default_rng(rng)`` (``None``, an int, a ``SeedSequence``); a legacy
    ``RandomState`` is used as it is, as SciPy's ``random_state`` was."""
    if isinstance(rng, (np.random.Generator, np.random.RandomState)):
        return rng
    return np.random.default_rng(rng)


def integers(rng: Any, high: int, size: tuple) -> np.ndarray:
    """``size`` draws from ``0 .. high - 1`` (SciPy's ``rng_integers``)."""
    if isinstance(rng, np.random.Generator):
        return rng.integers(0, high, size=size)
    return rng.randint(0, high, size=size)


def vectorize(name: str, statistic: Callable, vectorized: Optional[bool]) -> Callable:
    """``statistic`` as a function of samples whose last axis holds the observations
    (``stat(*samples, axis=-1)``).  A statistic that is not vectorized (``vectorized`` is
    False, or None and it takes no ``axis``) is mapped over the other axes with
    :func:`funcgrad.vmap`; its own output axes come first, as SciPy's."""
    if not callable(statistic):
        raise TypeError(f"{name}: statistic must be callable, got {type(statistic).__name__}")
    if vectorized not in (True, False, None):
        raise ValueError(f"{name}: vectorized must be True, False or None, got {vectorized!r}")
    if vectorized is None:
        try:
            vectorized = "axis" in inspect.signature(statistic).parameters
        except (TypeError, ValueError) as error:
            raise ValueError(f"{name}: the signature of {statistic!r} cannot be read; pass "
                             f"vectorized=True or False") from error
    if vectorized:
        return statistic

    def mapped(*samples, axis=-1):
        lead = np.broadcast_shapes(*(s.shape[:-1] for s in samples))
        flat = [fnp.reshape(fnp.broadcast_to(s, lead + s.shape[-1:]), (-1,) + s.shape[-1:])
                for s in samples]
        out = asarray(vmap(lambda *one: asarray(statistic(*one)))(*flat))
        out = fnp.reshape(out, lead + out.shape[1:])
        # (the statistic's own axes first, as SciPy's apply_along_axis puts them)
        return fnp.transpose(out, tuple(range(len(lead), out.ndim)) + tuple(range(len(lead))))
    return mapped


def standard_samples(name: str, data: Any, axis: Any, least: int) -> list:
    """The samples of ``data`` as arrays with the observations on the last axis and the
    other axes broadcast (SciPy's ``_broadcast_arrays`` along ``axis``), each with at
    least ``least`` observations."""
    if isinstance(axis, bool) or int(axis) != axis:
        raise ValueError(f"{name}: axis must be an integer, got {axis!r}")
    axis = int(axis)
    try:
        samples = [asarray(s) for s in data]
    except TypeError as error:
        raise ValueError(f"{name}: data must be a sequence of samples (a tuple of "
                         f"arrays), got {type(data).__name__}") from error
    if not samples:
        raise ValueError(f"{name}: data must contain at least one sample")
    ndim = max(max(s.ndim for s in samples), 1)
    moved = []
    for s in samples:
        if s.dtype.kind not in "biuf":
            raise TypeError(f"{name}: each sample must be real numbers, got {s.dtype}")
        s = fnp.reshape(s, (1,) * (ndim - s.ndim) + s.shape)
        if not -ndim <= axis < ndim:
            raise ValueError(f"{name}: axis {axis} is out of range for samples of "
                             f"{ndim} dimensions")
        s = fnp.moveaxis(s, axis, -1)
        if s.shape[-1] < least:
            raise ValueError(f"{name}: each sample in data must contain {least} or more "
                             f"observations along axis; one has {s.shape[-1]}")
        moved.append(s)
    try:
        lead = np.broadcast_shapes(*(s.shape[:-1] for s in moved))
    except ValueError as error:
        raise ValueError(f"{name}: the samples' shapes {[tuple(s.shape) for s in samples]} "
                         f"do not broadcast (except along axis)") from error
    return [fnp.broadcast_to(s, lead + s.shape[-1:]) for s in moved]


def check_count(name: str, what: str, value: Any, zero: bool = False) -> int:
    """``value`` as a positive (or with ``zero``, non-negative) int."""
    if isinstance(value, bool) or int(value) != value or int(value) < (0 if zero else 1):
        kind = "non-negative" if zero else "positive"
        raise ValueError(f"{name}: {what} must be a {kind} integer, got {value!r}")
    return int(value)


def check_alternative(name: str, alternative: str) -> str:
    alternative = str(alternative).lower()
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(f"{name}: alternative must be 'two-sided', 'less' or 'greater', "
                         f"got {alternative!r}")
    return alternative


def quantile_linear(values: Any, p: Any) -> Array:
    """The ``p`` quantiles of each row of ``values`` (last axis) by the 'linear' method,
    ``p`` of shape ``values.shape[:-1] + (k,)``, NaN where a row holds one (SciPy's
    ``quantile`` with ``nan_policy='propagate'``).  Differentiable in ``values`` and ``p``."""
    values = asarray(values)
    out = sorted_quantiles(fnp.sort(values, axis=-1), p, values.shape[-1], "linear")
    nan = np.any(np.isnan(values_of(values)), axis=-1, keepdims=True)
    return fnp.where(nan, math.nan, out) if np.any(nan) else out


def _bca_levels(data, statistic, alpha, theta_b, batch):
    """SciPy's BCa levels (Efron and Tibshirani, 14.3 and 15.4): the bias correction
    ``z0`` from the share of resampled values below the observed one, the acceleration
    from the jackknife of each sample."""
    theta = statistic(*data, axis=-1)
    observed = values_of(theta)[..., None]
    resampled = values_of(theta_b)
    share = ((np.count_nonzero(resampled < observed, axis=-1)
              + np.count_nonzero(resampled <= observed, axis=-1)) / (2 * resampled.shape[-1]))
    z0 = sp.ndtri(share.astype(resampled.dtype))
    nums, dens = 0.0, 0.0
    for j, sample in enumerate(data):
        n = sample.shape[-1]
        step = batch or n
        thetas = []
        for start in range(0, n, step):
            rows = np.arange(start, min(start + step, n))
            keep = np.arange(n)[None, :] != rows[:, None]
            leave_one_out = np.broadcast_to(np.arange(n), keep.shape)[keep]
            samples = [fnp.expand_dims(s, -2) for s in data]
            samples[j] = fnp.take(sample, leave_one_out.reshape(len(rows), n - 1), axis=-1)
            lead = np.broadcast_shapes(*(s.shape[:-1] for s in samples))
            samples = [fnp.broadcast_to(s, lead + s.shape[-1:]) for s in samples]
            thetas.append(statistic(*samples, axis=-1))
        theta_i = fnp.concatenate(thetas, axis=-1)
        u = (n - 1.0) * (fnp.mean(theta_i, axis=-1, keepdims=True) - theta_i)
        nums = nums + fnp.sum(u ** 3, axis=-1) / float(n) ** 3
        dens = dens + fnp.sum(u ** 2, axis=-1) / float(n) ** 2
    acceleration = nums / dens ** 1.5 / 6.0
    z_alpha = float(sp.ndtri(alpha))
    levels = []
    for z in (z_alpha, -z_alpha):
        shifted = z0 + z
        levels.append(sp.ndtr(z0 + shifted / (1.0 - acceleration * shifted)))
    return levels


def bootstrap(data: Sequence[ArrayLike], statistic: Callable[..., Any], *,
              n_resamples: int = 9999, batch: Optional[int] = None,
              vectorized: Optional[bool] = None, paired: bool = False, axis: int = 0,
              confidence_level: float = 0.95, alternative: str = "two-sided",
              method: str = "BCa", bootstrap_result: Optional[Any] = None,
              rng: Any = None,
              random_state: Any = None) -> BootstrapResult:
    """A bootstrap confidence interval of ``statistic``, as ``scipy.stats.bootstrap``
    (SciPy's signature, methods ``'percentile'``, ``'basic'`` and ``'BCa'``, and its
    draws: the same ``rng`` seed gives SciPy's bootstrap distribution and interval).

    ``data`` is a sequence of samples; ``statistic(*samples)`` returns the statistic,
    or with ``axis`` (``vectorized``) computes it along that axis; otherwise it is mapped
    over the resamples with :func:`funcgrad.vmap`, so it must be written in
    ``funcgrad.numpy`` or plain NumPy functions (no Python branches on the values).  The
    interval, the distribution and the standard error are differentiable in the data.
    ``random_state`` is SciPy's legacy keyword beside ``rng`` (give one): an int seeds a
    ``numpy.random.RandomState``, as SciPy 1.17 does.

    >>> import numpy as np, funcgrad as fg
    >>> x = np.array([1.0, 2.0, 4.0, 7.0, 8.0])
    >>> res = bootstrap((x,), np.mean, n_resamples=99, method="percentile", rng=0)
    >>> res.bootstrap_distribution.shape
    (99,)
    >>> g = fg.grad(lambda x: bootstrap((x,), np.mean, n_resamples=99, rng=0,
    ...                                 method="basic").confidence_interval.low)(x)
    >>> g.shape
    (5,)
    """
    rng = rng_or_random_state(rng, random_state, "bootstrap")
    name = "bootstrap"
    stat: Callable[..., Any] = vectorize(name, statistic, vectorized)
    samples = standard_samples(name, data, axis, 2)
    if paired not in (True, False):
        raise ValueError(f"{name}: paired must be True or False, got {paired!r}")
    if paired:
        n = samples[0].shape[-1]
        if any(s.shape[-1] != n for s in samples):
            raise ValueError(f"{name}: when paired is True, all samples must have the same "
                             f"length along axis; got {[s.shape[-1] for s in samples]}")
        unpaired, observed_samples = stat, samples

        def of_indices(i, axis=-1):
            return unpaired(*(fnp.take(s, i, axis=-1) for s in observed_samples), axis=axis)
        stat, samples = of_indices, [np.arange(n)]
    confidence_level = float(confidence_level)
    alternative = check_alternative(name, alternative)
    n_resamples = check_count(name, "n_resamples", n_resamples, zero=True)
    if batch is not None:
        batch = check_count(name, "batch", batch)
    method = str(method).lower()
    if method not in ("percentile", "basic", "bca"):
        raise ValueError(f"{name}: method must be 'percentile', 'basic' or 'BCa', got "
                         f"{method!r}")
    if bootstrap_result is not None and not hasattr(bootstrap_result,
                                                    "bootstrap_distribution"):
        raise ValueError(f"{name}: bootstrap_result must have the attribute "
                         f"bootstrap_distribution (a BootstrapResult)")
    if n_resamples == 0 and (bootstrap_result is None
                             or np.size(bootstrap_result.bootstrap_distribution) == 0):
        raise ValueError(f"{name}: either bootstrap_result.bootstrap_distribution.size or "
                         f"n_resamples must be positive")
    rng = generator(rng)

    pieces = ([] if bootstrap_result is None
              else [asarray(bootstrap_result.bootstrap_distribution)])
    step = batch or n_resamples or 1
    for start in range(0, n_resamples, step):
        count = min(step, n_resamples - start)
        resamples = [fnp.take(s, integers(rng, s.shape[-1], (count, s.shape[-1])), axis=-1)
                     for s in samples]
        pieces.append(asarray(stat(*resamples, axis=-1)))
    theta_b = fnp.concatenate(pieces, axis=-1)

    alpha = (1.0 - confidence_level) / (2 if alternative == "two-sided" else 1)
    if method == "bca":
        levels = _bca_levels(samples, stat, alpha, theta_b, batch)
        levels = [fnp.astype(level, theta_b.dtype) for level in levels]
    else:
        levels = [np.full(theta_b.shape[:-1], a, theta_b.dtype) for a in (alpha, 1.0 - alpha)]
    ci = quantile_linear(theta_b, fnp.stack(levels, axis=-1))
    if np.any(np.isnan(values_of(ci))):
        warnings.warn("bootstrap: the BCa confidence interval cannot be calculated. This "
                      "problem is known to occur when the distribution is degenerate or the "
                      "statistic is np.min.", RuntimeWarning, stacklevel=2)
    low, high = ci[..., 0], ci[..., 1]
    if method == "basic":
        theta = stat(*samples, axis=-1)
        low, high = 2.0 * theta - high, 2.0 * theta - low
    if alternative == "less":
        low = fnp.full(low.shape, -math.inf, low.dtype)
    elif alternative == "greater":
        high = fnp.full(high.shape, math.inf, high.dtype)
    standard_error = fnp.std(theta_b, axis=-1, ddof=1)
    return BootstrapResult(ConfidenceInterval(low, high), theta_b, standard_error)
