"""``fit`` of :mod:`funcgrad.scipy.stats` (re-exported there): SciPy's ``scipy.stats.fit``
(its signature, bounds, guesses and optimizer, run by SciPy itself on the data's values),
with the fitted parameters differentiable in the data.

A maximum-likelihood fit is a minimum of the negative log-likelihood ``-sum(logpdf)``
(``logpmf``) written with funcgrad's distribution of the same name, so each free
parameter's derivative in the data comes from the implicit function theorem at SciPy's
optimum (:mod:`._implicit_minimum`).  A parameter fixed by its bounds, or held on one of
them at the optimum, does not move; an integer one (``binom``'s ``n``) does not either.
The maximum spacing fit (``method='mse'``) gives SciPy's values; asking it for a derivative
raises (its objective is not written here).
"""
import math
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..api import grad
from ..jacobians import jacobian
from ..core import Tracer
from ..numpy._convert import asarray
from ._distn import DISTRIBUTIONS
from ._implicit_minimum import differentiable_minimum
from ._statsresample_quantile import values_of

__all__ = ["fit"]


class FitResult:
    """:func:`fit`'s result, as SciPy's: ``params`` (a named tuple of the shapes, ``loc``
    and, for a continuous distribution, ``scale``; differentiable in the data),
    ``success``, ``message``, ``discrete``, ``nllf(params=None, data=None)`` and
    ``plot(...)`` (SciPy's, on the values).

    >>> import numpy as np
    >>> from funcgrad.scipy.stats import norm
    >>> res = fit(norm, np.array([1.0, 2.0, 4.0]), bounds={"loc": (0, 5), "scale": (0.1, 5)})
    >>> res.params._fields
    ('loc', 'scale')
    """

    def __init__(self, dist: Any, data: Any, scipy_result: Any, params: tuple) -> None:
        self._dist, self._data, self._scipy = dist, data, scipy_result
        self.discrete = scipy_result.discrete
        self.params = type(scipy_result.params)(*params)
        self.success, self.message = scipy_result.success, scipy_result.message

    def nllf(self, params: Optional[tuple] = None, data: Any = None) -> Any:
        """The negative log-likelihood of ``data`` (the fitted data by default) at
        ``params`` (the fitted ones by default); differentiable in both."""
        params = self.params if params is None else params
        data = self._data if data is None else data
        return _nllf(self._dist, self.discrete, params, data)

    def plot(self, ax: Any = None, *, plot_type: str = "hist") -> Any:
        """SciPy's plot of the fit (on the values; needs matplotlib)."""
        return self._scipy.plot(ax, plot_type=plot_type)

    def __repr__(self) -> str:
        return (f"  params: {self.params}\n success: {self.success}\n message: "
                f"{self.message!r}")


def _nllf(dist, discrete, params, data):
    *shapes, loc = params[:len(params) - (0 if discrete else 1)]
    if discrete:
        return -fnp.sum(dist.logpmf(data, *shapes, loc=loc))
    return -fnp.sum(dist.logpdf(data, *shapes, loc=loc, scale=params[-1]))


def _distributions(dist):
    """``(funcgrad's distribution, SciPy's)`` for ``dist`` (either), matched by name."""
    import scipy.stats  # (here: importing funcgrad never loads SciPy)
    name = getattr(dist, "name", None)
    ours = DISTRIBUTIONS.get(name) if isinstance(name, str) else None
    theirs = getattr(scipy.stats, name, None) if isinstance(name, str) else None
    if str(type(dist).__module__).startswith("scipy"):
        theirs = dist
    elif ours is None or dist is not ours:
        ours = dist if hasattr(dist, "logpdf") or hasattr(dist, "logpmf") else ours
    if theirs is None or ours is None:
        raise ValueError(f"fit: dist must be a distribution of funcgrad.scipy.stats (or "
                         f"SciPy's of the same name), got {dist!r}")
    return ours, theirs


def fitted(dist: Any, discrete: bool, best: np.ndarray, free: np.ndarray, held: np.ndarray,
           data: Any) -> tuple:
    """The parameters ``best`` (a minimum of the negative log-likelihood of ``data``) with
    the derivatives the implicit function theorem gives the ``free`` ones in ``data``,
    those ``held`` on a bound staying there; the others constant."""
    params = [best[i] for i in range(len(best))]
    if not np.any(free):
        return tuple(params)
    slots = np.flatnonzero(free)

    def nllf(moving, x):
        trial = [fnp.asarray(v) for v in best]
        for slot, i in enumerate(slots):
            trial[i] = moving[slot]
        return _nllf(dist, discrete, trial, x)
    _check_stationary(nllf, best[free], held[free], data)
    found = differentiable_minimum(nllf, best[free], lambda z: z, (data,),
                                   held=(held[free], best[free]) if np.any(held[free])
                                   else None, name="fit",
                                   objective="the negative log-likelihood")
    for slot, i in enumerate(slots):
        params[i] = found[slot]
    return tuple(params)


def _check_stationary(nllf, best, held, data):
    """Refuse a derivative at a point the optimizer left short of the minimum: the
    implicit function theorem holds at a stationary point only, and SciPy's fits stop at
    their tolerance (``rv_continuous.fit``'s ``fmin``: about 1e-4).  The Newton step
    ``H^-1 g`` to the minimum (in the coordinates not held) must be below 1e-6 of each."""
    plain = values_of(data)
    moving = np.flatnonzero(~held)
    if moving.size == 0:
        return

    def gradient(z):
        return grad(lambda t: nllf(t, plain))(z)
    g = np.asarray(gradient(best))[moving]
    h = np.asarray(jacobian(gradient)(best))[np.ix_(moving, moving)]
    with np.errstate(all="ignore"):
        step = np.linalg.solve(h, g) if np.all(np.isfinite(h)) else np.full(g.shape, np.inf)
    if not np.all(np.abs(step) <= 1e-6 * np.maximum(np.abs(best[moving]), 1.0)):
        raise NotImplementedError(
            f"fit: the fitted parameters {best} are not a stationary point of the negative "
            f"log-likelihood to 1e-6 (the Newton step to it is {step}), so the implicit "
            f"function theorem gives no reliable derivative there; fit more tightly (an "
            f"optimizer with a smaller tolerance), or pass fg.stop_gradient(data)")


def fit(dist: Any, data: Any, bounds: Any = None, *, guess: Any = None, method: str = "mle",
        optimizer: Optional[Callable[..., Any]] = None) -> FitResult:
    """Fit ``dist`` to ``data`` by maximum likelihood (``'mle'``) or maximum spacing
    (``'mse'``), as ``scipy.stats.fit``: SciPy's ``bounds`` (a dict or a sequence, every
    shape bounded), ``guess`` and ``optimizer`` (``differential_evolution`` by default:
    random unless it is given a seed), run by SciPy.  The fitted ``params`` are
    differentiable in ``data`` (``'mle'``) by the implicit function theorem at the
    optimum; parameters fixed or held by their bounds, and integer ones, do not move.

    >>> import numpy as np, funcgrad as fg
    >>> from scipy.optimize import differential_evolution
    >>> from funcgrad.scipy.stats import norm
    >>> seeded = lambda fun, **kw: differential_evolution(fun, rng=1, **kw)
    >>> x = np.array([1.0, 2.0, 4.0, 5.0])
    >>> fitted = lambda x: fit(norm, x, {"loc": (-10, 10), "scale": (0.01, 10)},
    ...                        optimizer=seeded).params.loc
    >>> round(float(fitted(x)), 6), np.round(fg.grad(fitted)(x), 6)
    (3.0, array([0.25, 0.25, 0.25, 0.25]))
    """
    import scipy.optimize
    import scipy.stats
    ours, theirs = _distributions(dist)
    data = asarray(data)
    values = values_of(data)
    if optimizer is None:
        optimizer = scipy.optimize.differential_evolution
    searched = {}

    def recording(fun, **kwds):  # (SciPy's validated bounds and integrality, kept)
        searched.update(kwds)
        return optimizer(fun, **kwds)
    result = scipy.stats.fit(theirs, values, bounds, guess=guess, method=method,
                             optimizer=recording)
    best = np.asarray(result.params, float)
    if not isinstance(data, Tracer):
        return FitResult(ours, data, result, tuple(best))
    if str(method).lower() != "mle":
        raise NotImplementedError("fit: the derivative of a maximum spacing fit "
                                  "(method='mse') is not available; fit with method='mle', "
                                  "or pass fg.stop_gradient(data)")
    box = np.asarray(searched["bounds"], float)
    integer = np.asarray(searched.get("integrality", np.zeros(len(best), bool)), bool)
    free = (box[:, 0] < box[:, 1]) & ~integer
    scale = np.maximum(np.abs(best), 1.0) * math.sqrt(np.finfo(float).eps)
    held = (best - box[:, 0] <= scale) | (box[:, 1] - best <= scale)
    params = fitted(ours, result.discrete, best, free, held, data)
    return FitResult(ours, data, result, tuple(params))
