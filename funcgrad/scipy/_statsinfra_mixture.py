"""``Mixture``: SciPy's weighted mixture of distributions of the new infrastructure,
differentiable in the weights and in the components' parameters.  Densities and
probabilities are the weighted sums (in logs, ``logaddexp``); moments the weighted sums of
the components' about the mixture's mean; the inverses a root search differentiated
implicitly (:mod:`._statsinfra_invert`); draws SciPy's (the counts by ``multinomial``,
each component's draws, then ``permuted``, all from the same ``rng``)."""
from typing import Any, List, NoReturn, Optional, Sequence

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete, operand
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike
from ._implicit_root import wants_derivative
from ._statsinfra_dispatch import recentre, scalar
from ._statsinfra_invert import invert
from ._statsinfra_transform import ContinuousDistribution

__all__ = ["Mixture"]


class Mixture:
    """A mixture of scalar ``ContinuousDistribution``\\ s with ``weights`` (equal where
    ``None``), as SciPy's ``Mixture``.

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> X = fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)], weights=[0.25, 0.75])
    >>> float(X.mean()), round(float(fg.grad(lambda w: fst.Mixture(
    ...     [fst.Normal(mu=-1.0), fst.Normal(mu=1.0)], weights=[w, 1 - w]).mean())(0.25)), 12)
    (0.5, -2.0)
    """

    def __init__(self, components: Sequence[Any], *, weights: Optional[ArrayLike] = None
                 ) -> None:
        components = list(components)
        if not components:
            raise ValueError("`components` must contain at least one random variable.")
        for X in components:
            if not isinstance(X, ContinuousDistribution):
                raise ValueError("Each element of `components` must be an instance of "
                                 "`ContinuousDistribution` (funcgrad.scipy.stats').")
            if X._shape != ():
                raise ValueError("All elements of `components` must have scalar shapes.")
        n = len(components)
        dtype = np.result_type(*(X._dtype for X in components))
        if weights is None:
            weights = fnp.asarray(np.full(n, 1 / n, dtype=dtype))
        else:
            weights = fnp.asarray(operand(weights))
            if tuple(weights.shape) != (n,):
                raise ValueError("`components` and `weights` must have the same length.")
            if weights.dtype.kind not in "fc":
                raise ValueError("`weights` must have floating point dtype.")
            if is_concrete(weights):
                plain = concrete_values(weights, "", "")
                if not np.isclose(np.sum(plain), 1.0):
                    raise ValueError("`weights` must sum to 1.0.")
                if not np.all(plain >= 0):
                    raise ValueError("All `weights` must be non-negative.")
        self._components, self._weights = components, weights
        self._shape, self._dtype = (), np.dtype(dtype)
        self.validation_policy = None

    @property
    def components(self) -> List[Any]:
        return list(self._components)

    @property
    def weights(self) -> Array:
        return self._weights

    def _sum(self, method, *args):
        out = 0.0
        for i, X in enumerate(self._components):
            out = out + getattr(X, method)(*args) * self._weights[i]
        return scalar(fnp.asarray(out))

    def _logsum(self, method, *args):
        terms = [getattr(X, method)(*args) + fnp.log(self._weights[i])
                 for i, X in enumerate(self._components)]
        out = terms[0]
        for term in terms[1:]:
            out = fnp.logaddexp(out, term)
        return scalar(fnp.asarray(out))

    def support(self) -> tuple:
        """The smallest interval holding every component's support.

        >>> import funcgrad.scipy.stats as fst
        >>> fst.Mixture([fst.Uniform(a=0.0, b=1.0), fst.Uniform(a=2.0, b=5.0)]).support()
        (np.float64(0.0), np.float64(5.0))
        """
        ends = [X._support_arrays() for X in self._components]
        a, b = ends[0]
        for lo, hi in ends[1:]:
            a, b = fnp.minimum(a, lo), fnp.maximum(b, hi)
        return scalar(a), scalar(b)

    def pdf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The weighted sum of the components' densities.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Uniform(a=0.0, b=1.0)] * 2).pdf(0.5))
        1.0
        """
        return self._sum("pdf", x)

    def logpdf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The log of :meth:`pdf`, from the components' ``logpdf`` (``logaddexp``).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Uniform(a=0.0, b=1.0)] * 2).logpdf(0.5))
        0.0
        """
        return self._logsum("logpdf", x)

    def pmf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The weighted sum of the components' masses (0 for continuous ones), as
        SciPy's.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(), fst.Uniform(a=0.0, b=1.0)]).pmf(0.5))
        0.0
        """
        return self._sum("pmf", x)

    def logpmf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The log of :meth:`pmf`, from the components' ``logpmf`` (``logaddexp``).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(), fst.Uniform(a=0.0, b=1.0)]).logpmf(0.5))
        -inf
        """
        return self._logsum("logpmf", x)

    def cdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
            method: Any = None) -> Array:
        """The weighted sum of the components' CDFs (of their masses between ``x`` and
        ``y`` with two arguments).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).cdf(0.0))
        0.5
        """
        return self._sum("cdf", *((x,) if y is None else (x, y)))

    def ccdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
             method: Any = None) -> Array:
        """The weighted sum of the components' CCDFs.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).ccdf(0.0))
        0.5
        """
        return self._sum("ccdf", *((x,) if y is None else (x, y)))

    def logcdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
               method: Any = None) -> Array:
        """The log of :meth:`cdf`, from the components' logs.

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Mixture([fst.Normal(), fst.Normal()]).logcdf(-40.0)), 3)
        -804.608
        """
        if y is not None:
            return scalar(fnp.log(fnp.asarray(self.cdf(x, y)) + 0j))
        return self._logsum("logcdf", x)

    def logccdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
                method: Any = None) -> Array:
        """The log of :meth:`ccdf`, from the components' logs.

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Mixture([fst.Normal(), fst.Normal()]).logccdf(40.0)), 3)
        -804.608
        """
        if y is not None:
            return scalar(fnp.log(fnp.asarray(self.ccdf(x, y))))
        return self._logsum("logccdf", x)

    def _invert(self, p, increasing, density, sign):
        p = fnp.asarray(operand(p))
        traced = wants_derivative(self._weights) or any(
            wants_derivative(v) for X in self._components for v in X._parameters.values())
        a, b = self.support()
        out = invert(lambda x: sign * increasing(x), density, sign * p, (a, b), traced)
        return scalar(fnp.asarray(out))

    def icdf(self, p: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`cdf`, by a root search (differentiated implicitly).

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).icdf(0.5)), 12)
        0.0
        """
        return self._invert(p, self.cdf, self.pdf, 1.0)

    def iccdf(self, p: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`ccdf`.

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).iccdf(0.5)), 12)
        0.0
        """
        return self._invert(p, self.ccdf, self.pdf, -1.0)

    def ilogcdf(self, logp: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`logcdf`.

        >>> import math, funcgrad.scipy.stats as fst
        >>> round(float(fst.Mixture([fst.Normal()] * 2).ilogcdf(math.log(0.5))), 12)
        0.0
        """
        return self._invert(logp, self.logcdf,
                            lambda x: fnp.exp(self.logpdf(x) - self.logcdf(x)), 1.0)

    def ilogccdf(self, logp: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`logccdf`.

        >>> import math, funcgrad.scipy.stats as fst
        >>> round(float(fst.Mixture([fst.Normal()] * 2).ilogccdf(math.log(0.5))), 12)
        0.0
        """
        return self._invert(logp, self.logccdf,
                            lambda x: fnp.exp(self.logpdf(x) - self.logccdf(x)), -1.0)

    def median(self, *, method: Any = None) -> Array:
        """The median, ``icdf(0.5)``.

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).median()), 12)
        0.0
        """
        return self.icdf(0.5)

    def _not_here(self, what: str) -> NoReturn:
        raise NotImplementedError(f"Mixture.{what}: SciPy integrates or optimizes it "
                                  f"numerically, which funcgrad does not do; use SciPy for "
                                  f"the value without derivatives")

    def entropy(self, *, method: Any = None) -> NoReturn:
        """Not in funcgrad: SciPy integrates it numerically (raises).

        >>> import funcgrad.scipy.stats as fst
        >>> callable(fst.Mixture([fst.Normal()]).entropy)
        True
        """
        self._not_here("entropy")

    def logentropy(self, *, method: Any = None) -> NoReturn:
        """Not in funcgrad: SciPy integrates it numerically (raises).

        >>> import funcgrad.scipy.stats as fst
        >>> callable(fst.Mixture([fst.Normal()]).logentropy)
        True
        """
        self._not_here("logentropy")

    def mode(self, *, method: Any = None) -> NoReturn:
        """Not in funcgrad: SciPy searches for it numerically (raises).

        >>> import funcgrad.scipy.stats as fst
        >>> callable(fst.Mixture([fst.Normal()]).mode)
        True
        """
        self._not_here("mode")

    def moment(self, order: int = 1, kind: str = "raw", *, method: Any = None) -> Array:
        """The moment of the mixture: the weighted sum of the components' moments about
        zero (``'raw'``) or about the mixture's mean (``'central'``), or the central one
        over the standard deviation to the ``order`` (``'standardized'``).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).moment(2, 'central'))
        2.0
        """
        kinds = ("raw", "central", "standardized")
        try:
            n = float(np.asarray(order).item())
        except (ValueError, TypeError):
            n = -1.0
        if not (n >= 0 and n == int(n)):
            raise ValueError("Argument `order` of `Mixture.moment` must be a finite, "
                             "positive integer.")
        if not isinstance(kind, str) or kind.lower() not in kinds:
            raise ValueError(f"Argument `kind` of `Mixture.moment` must be one of "
                             f"{set(kinds)}.")
        n, kind = int(n), kind.lower()
        if kind == "raw":
            return self._sum("moment", n, "raw")
        mean = self._sum("moment", 1, "raw")
        central: Any = 0.0
        for i, X in enumerate(self._components):
            moments = [X.moment(k, "central") for k in range(n + 1)]
            central = central + recentre(n, moments, X.mean(), mean) * self._weights[i]
        if kind == "standardized":
            variance = self.moment(2, "central")
            central = central / variance ** (n / 2)
        return scalar(fnp.asarray(central))

    def mean(self, *, method: Any = None) -> Array:
        """The mean, the weighted sum of the components' means.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=3.0)]).mean())
        1.0
        """
        return self.moment(1, "raw")

    def variance(self, *, method: Any = None) -> Array:
        """The variance, ``moment(2, 'central')``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).variance())
        2.0
        """
        return self.moment(2, "central")

    def standard_deviation(self, *, method: Any = None) -> Array:
        """The square root of :meth:`variance`.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).standard_deviation()) ** 2
        2.0000000000000004
        """
        return scalar(fnp.sqrt(self.variance()))

    def skewness(self, *, method: Any = None) -> Array:
        """``moment(3, 'standardized')``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).skewness())
        0.0
        """
        return self.moment(3, "standardized")

    def kurtosis(self, *, method: Any = None) -> Array:
        """``moment(4, 'standardized')`` (non-excess, as SciPy's ``Mixture``).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Mixture([fst.Normal(mu=-1.0), fst.Normal(mu=1.0)]).kurtosis())
        2.5
        """
        return self.moment(4, "standardized")

    def sample(self, shape: Any = (), *, rng: Any = None, method: Any = None) -> Array:
        """SciPy's draws for the same ``rng``: how many from each component
        (``multinomial``), their draws (differentiable in their parameters), shuffled.

        >>> import numpy as np, funcgrad.scipy.stats as fst
        >>> fst.Mixture([fst.Normal(), fst.Uniform(a=0.0, b=1.0)]).sample((2, 3), rng=1).shape
        (2, 3)
        """
        rng = np.random.default_rng(rng)
        size = int(np.prod(np.atleast_1d(shape)))
        weights = np.asarray(concrete_values(stop_gradient(self._weights), "Mixture.sample",
                                             "Call it outside vmap and jit."))
        counts = rng.multinomial(size, weights)
        draws = [fnp.reshape(fnp.asarray(X.sample(int(k), rng=rng)), (-1,))
                 for k, X in zip(counts, self._components)]
        order = rng.permuted(np.arange(size))  # (the shuffle permuted would make)
        return scalar(fnp.reshape(fnp.concatenate(draws)[order], shape))

    def __repr__(self) -> str:
        return self._text(repr)

    def __str__(self) -> str:
        return self._text(str)

    def _text(self, show):
        with np.printoptions(threshold=10):
            inner = "".join(f"        {show(X)},\n" for X in self._components)
            weights = self._weights
            if is_concrete(weights):
                weights = np.asarray(concrete_values(weights, "", ""))
            return f"Mixture(\n    [\n{inner}    ],\n    weights={show(weights)},\n)"

