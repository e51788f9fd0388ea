"""``power`` of :mod:`funcgrad.scipy.stats` (re-exported there): the simulated power of
a hypothesis test under an alternative, as ``scipy.stats.power`` (SciPy 1.15).

The loop is SciPy's, drawing from the caller's ``rvs`` in SciPy's order (per combination
of sample sizes and keyword values, batch by batch), so the same generators give SciPy's
samples and SciPy's values.  The p-values are whatever ``test`` returns: with a funcgrad
test (``funcgrad.scipy.stats.ttest_ind``...) differentiable in what the test or ``rvs``
close over.  The power itself, the fraction of p-values below ``significance``, is a
step function of everything: its derivative is zero almost everywhere, and funcgrad
returns that zero.  The keyword values ``kwargs`` are read as values (they pick the
alternative the samples are drawn from; a traced one raises, since the samples would move
with it in a way the caller's ``rvs`` decide).
"""
import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..numpy._convert import asarray, concrete_values

__all__ = ["power"]


@dataclass
class PowerResult:
    """:func:`power`'s result, as SciPy's: ``power`` (the fraction of simulated p-values
    below each significance level) and ``pvalues``.

    >>> import numpy as np
    >>> res = power(lambda x: 0.001 if x[0] > 0 else 0.5, lambda size: np.ones(size), 3,
    ...             n_resamples=4, vectorized=False)
    >>> float(res.power)
    1.0
    """

    power: Any
    pvalues: Any


def _ignoring_extra_keywords(fun):
    """``fun`` called with only the keywords its signature names (SciPy's rule)."""
    try:
        keys = set(inspect.signature(fun).parameters)
    except ValueError:  # (NumPy Generator methods have no signature)
        keys = {"size"}

    def wrapped(*args, **kwargs):
        return fun(*args, **{k: v for k, v in kwargs.items() if k in keys})
    return wrapped


def _pvalue(result):
    return asarray(getattr(result, "pvalue", result))


def power(test: Any, rvs: Any, n_observations: Any, *, significance: Any = 0.01,
          vectorized: Optional[bool] = None, n_resamples: int = 10000,
          batch: Optional[int] = None, kwargs: Optional[dict] = None) -> PowerResult:
    """The power of ``test`` (a callable of the samples returning a p-value, or a result
    with ``.pvalue``) at ``significance`` when its samples are drawn by ``rvs`` (one
    callable ``rvs(size=...)`` per sample, with ``n_observations`` values each; arrays of
    sizes and of ``kwargs`` values broadcast together and each combination is simulated),
    from ``n_resamples`` simulated tests, as ``scipy.stats.power``: SciPy's values for the
    same random generators.  ``pvalues`` are differentiable where ``test`` is; the power
    is a step function (zero derivative).

    >>> import numpy as np
    >>> import funcgrad.scipy.stats as fst
    >>> rng = np.random.default_rng(0)
    >>> rvs = lambda size: rng.normal(loc=0.5, size=size)
    >>> res = power(fst.ttest_1samp, rvs, np.array([10, 20]), n_resamples=200,
    ...             kwargs={"popmean": np.array([0.0])})
    >>> res.power.shape, res.pvalues.shape
    ((2,), (2, 200))
    """
    if vectorized not in (True, False, None):
        raise ValueError(f"power: vectorized must be True, False or None, got {vectorized!r}")
    if not isinstance(rvs, Sequence):
        rvs, n_observations = (rvs,), (n_observations,)
    if not all(callable(r) for r in rvs):
        raise TypeError("power: rvs must be a callable or a sequence of callables")
    if len(rvs) != len(n_observations):
        raise ValueError("power: with a sequence of rvs, n_observations must have one entry "
                         "per callable")
    kwargs = {} if kwargs is None else kwargs
    if not isinstance(kwargs, dict):
        raise TypeError("power: kwargs must be a dict of keywords to arrays")
    for key, value in kwargs.items():
        if isinstance(value, Tracer):
            raise TypeError(f"power: no derivative in kwargs[{key!r}] (it picks the "
                            f"distribution rvs draws from); pass its values, or "
                            f"fg.stop_gradient(...)")
    significance = np.asarray(concrete_values(
        asarray(significance), "power (the fraction of p-values below significance)",
        "call it outside vmap/jit"))
    if significance.dtype.kind != "f" or significance.min() < 0 or significance.max() > 1:
        raise ValueError("power: significance must hold floats between 0 and 1")
    if not callable(test):
        raise TypeError("power: test must be a callable")
    if vectorized is None:
        vectorized = "axis" in inspect.signature(test).parameters
    n_resamples_ = int(n_resamples)
    if n_resamples_ != n_resamples or n_resamples_ <= 0:
        raise ValueError(f"power: n_resamples must be a positive integer, got {n_resamples}")
    if batch is not None and (int(batch) != batch or int(batch) <= 0):
        raise ValueError(f"power: batch must be a positive integer or None, got {batch}")
    draws = [_ignoring_extra_keywords(r) for r in rvs]
    run = _ignoring_extra_keywords(test)

    # (every combination of sizes and keyword values, one row each, as SciPy's)
    values = [np.asarray(v) for v in n_observations] + [np.asarray(v)
                                                        for v in kwargs.values()]
    table = np.stack(np.broadcast_arrays(*values))
    shape = table.shape[1:]
    table = table[None, :] if table.ndim == 1 else table.reshape(table.shape[0], -1).T
    sizes = table[:, :len(rvs)].astype(np.result_type(*[np.asarray(n)
                                                        for n in n_observations]))
    settings, keys = table[:, len(rvs):], list(kwargs)
    step = batch or n_resamples_
    pvalues = []
    for sizes_i, settings_i in zip(sizes, settings):
        keywords = dict(zip(keys, settings_i))
        batches = []
        for start in range(0, n_resamples_, step):
            count = min(step, n_resamples_ - start)
            samples = [draw(size=(count, int(n)), **keywords) for draw, n in zip(draws, sizes_i)]
            if vectorized:
                batches.append(_pvalue(run(*samples, **keywords, axis=-1)))
            else:
                batches.append(fnp.stack([_pvalue(run(*[s[j] for s in samples], **keywords))
                                          for j in range(count)], axis=-1))
        pvalues.append(fnp.concatenate(batches, axis=-1))
    pvalues_all = fnp.stack(pvalues)
    pvalues_all = fnp.reshape(pvalues_all, shape + pvalues_all.shape[1:-1] + (-1,))
    plain = np.asarray(concrete_values(fnp.stop_gradient(pvalues_all), "power",
                                       "call it outside vmap/jit"))
    level = significance.reshape(significance.shape + (1,) * plain.ndim)
    dtype = np.result_type(significance.dtype, plain.dtype)
    powers = np.mean((plain < level).astype(dtype), axis=-1)
    return PowerResult(power=powers, pvalues=pvalues_all)
