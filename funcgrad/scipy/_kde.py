"""``gaussian_kde`` of :mod:`funcgrad.scipy.stats` (re-exported there): SciPy's
Gaussian kernel density estimate, differentiable in the data set, the weights, the
points it is evaluated at and a scalar bandwidth factor.

The kernel covariance is the data's weighted covariance (SciPy's: ``np.cov`` with
``aweights``) times ``factor**2``; densities are sums of Gaussians through its Cholesky
factor, ``logpdf`` a ``logsumexp`` (no underflow far from the data).  ``resample`` draws
the same distribution as SciPy's (a data point by weight plus kernel noise) from NumPy's
``default_rng(seed)``, not SciPy's stream of numbers, and is differentiable in the data
(the reparameterization ``x_i + L z``).
"""
import math
from typing import Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..lax import stop_gradient
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from . import special as sp

__all__ = ["gaussian_kde"]

_LOG_2PI = math.log(2 * math.pi)


def _points(name, points, d):
    points = fnp.atleast_2d(asarray(points))
    if points.shape[0] != d:
        if points.shape[0] == 1 and points.shape[1] == d:  # (one point given as a row)
            return fnp.reshape(points, (d, 1))
        raise ValueError(f"gaussian_kde.{name}: points have dimension {points.shape[0]}, "
                         f"the data set {d}; give an array of shape ({d}, m)")
    return points


class gaussian_kde:
    """A Gaussian kernel density estimate of ``dataset`` (``(d, n)``: ``n`` points in
    ``d`` dimensions, or ``(n,)`` in one), as ``scipy.stats.gaussian_kde``: ``bw_method``
    'scott' (default), 'silverman', a number (the factor) or a function of the estimate;
    ``weights`` one per point.  Differentiable in ``dataset``, ``weights``, the points
    evaluated and a numeric ``bw_method``.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.stats as fst
    >>> kde = fst.gaussian_kde(np.array([0.0, 1.0, 3.0]))
    >>> round(float(kde(1.0)[0]), 6)
    0.214895
    >>> g = fg.grad(lambda x: fst.gaussian_kde(x).logpdf(1.0)[0])(np.array([0.0, 1.0, 3.0]))
    """

    def __init__(self, dataset: ArrayLike, bw_method: Union[None, str, float, Callable[
            ["gaussian_kde"], Any]] = None, weights: Optional[ArrayLike] = None) -> None:
        data = fnp.atleast_2d(asarray(dataset))
        if data.dtype.kind in "biu":
            data = fnp.astype(data, np.float64)
        self.dataset = data
        self.d, self.n = data.shape
        if self.n <= 1:
            raise ValueError("gaussian_kde: the data set needs more than one point")
        if weights is not None:
            w = fnp.ravel(asarray(weights))
            if w.ndim != 1 or w.shape[0] != self.n:
                raise ValueError(f"gaussian_kde: weights must be one per point ({self.n}), "
                                 f"got shape {tuple(w.shape)}")
            self._weights = w / fnp.sum(w)
        else:
            self._weights = fnp.astype(fnp.ones(self.n) / self.n, data.dtype)
        if self.d > self.n and weights is None:
            raise ValueError(f"gaussian_kde: {self.n} points in {self.d} dimensions give a "
                             f"singular covariance; give more points than dimensions")
        self.set_bandwidth(bw_method)

    @property
    def weights(self) -> Array:
        """The weights of the points, normalized to sum to 1."""
        return self._weights

    @property
    def neff(self) -> Array:
        """The effective number of points, ``1 / sum(weights ** 2)`` (differentiable in
        the weights)."""
        return 1.0 / fnp.sum(self._weights ** 2)

    @property
    def inv_cov(self) -> Array:
        """The inverse of the kernel covariance (differentiable)."""
        return self._inv_cov

    def covariance_factor(self) -> Array:
        """The bandwidth factor of the rule in force: Scott's unless ``set_bandwidth``
        (or ``bw_method``) named another.

        >>> import numpy as np, funcgrad.scipy.stats as fst
        >>> kde = fst.gaussian_kde(np.array([0.0, 1.0, 3.0]), bw_method=0.5)
        >>> kde.covariance_factor()
        0.5
        """
        return self._factor_rule()

    def marginal(self, dimensions: Any) -> "gaussian_kde":
        """The estimate of the variables ``dimensions`` only (indices, negative from the
        end): their rows of the data, the same weights and bandwidth factor, as SciPy's
        ``marginal``; differentiable as the original.

        >>> import numpy as np, funcgrad.scipy.stats as fst
        >>> data = np.array([[0.0, 1.0, 3.0, 2.0], [1.0, 0.0, 2.0, 5.0]])
        >>> fst.gaussian_kde(data).marginal(1).dataset
        array([[1., 0., 2., 5.]])
        """
        dims = np.atleast_1d(np.asarray(dimensions))
        if not np.issubdtype(dims.dtype, np.integer):
            raise ValueError("Elements of `dimensions` must be integers - the indices of the "
                             "marginal variables being retained.")
        original = dims.copy()
        dims = np.where(dims < 0, self.d + dims, dims)
        if len(np.unique(dims)) != len(dims):
            raise ValueError("All elements of `dimensions` must be unique.")
        invalid = (dims < 0) | (dims >= self.d)
        if np.any(invalid):
            raise ValueError(f"Dimensions {original[invalid]} are invalid for a distribution "
                             f"in {self.d} dimensions.")
        factor: Any = self.covariance_factor()  # (SciPy passes the number on)
        return gaussian_kde(fnp.take(self.dataset, dims, axis=0), bw_method=factor,
                            weights=self._weights)

    def integrate_box(self, low_bounds: ArrayLike, high_bounds: ArrayLike,
                      maxpts: Optional[int] = None, *, rng: Any = None) -> Array:
        """The probability of the box ``[low_bounds, high_bounds]``.  In one dimension it
        is exact (normal CDFs) and differentiable in everything; in more, SciPy's value
        (Genz's randomized integration, ``maxpts`` and ``rng`` passed on), and its
        derivative is refused: it would be the derivative of a random estimate.

        >>> import numpy as np, funcgrad.scipy.stats as fst
        >>> kde = fst.gaussian_kde(np.array([0.0, 1.0, 3.0]))
        >>> round(float(kde.integrate_box(-np.inf, np.inf)), 12)
        1.0
        """
        if self.d == 1:
            low = fnp.reshape(asarray(low_bounds), ())
            high = fnp.reshape(asarray(high_bounds), ())
            return self.integrate_box_1d(low, high)
        import scipy.stats
        values = [self.dataset, self._weights, self.covariance, asarray(low_bounds),
                  asarray(high_bounds)]
        if any(isinstance(v, Tracer) for v in values):
            raise NotImplementedError(
                "gaussian_kde.integrate_box: in more than one dimension the box's probability "
                "is SciPy's randomized estimate, which has no derivative here; differentiate "
                "integrate_box_1d of a marginal, integrate_gaussian, or pass "
                "fg.stop_gradient of the inputs")
        fix = "call integrate_box outside jit/vmap"
        data, weights, cov, low, high = (
            concrete_values(stop_gradient(v), "gaussian_kde.integrate_box", fix)
            for v in values)
        cdf = scipy.stats.multivariate_normal.cdf(high - data.T, lower_limit=low - data.T,
                                                  cov=cov, maxpts=maxpts, rng=rng)
        return fnp.asarray(np.dot(cdf, weights))

    def scotts_factor(self) -> Array:
        """Scott's factor, ``neff ** (-1 / (d + 4))``."""
        return self.neff ** (-1.0 / (self.d + 4))

    def silverman_factor(self) -> Array:
        """Silverman's factor, ``(neff (d + 2) / 4) ** (-1 / (d + 4))``."""
        return (self.neff * (self.d + 2.0) / 4.0) ** (-1.0 / (self.d + 4))

    def set_bandwidth(self, bw_method: Any = None) -> None:
        """The bandwidth rule, as the constructor's ``bw_method``; recomputes the kernel."""
        rule: Callable[[], Any]
        if bw_method is None or (isinstance(bw_method, str) and bw_method == "scott"):
            rule = self.scotts_factor
        elif isinstance(bw_method, str) and bw_method == "silverman":
            rule = self.silverman_factor
        elif callable(bw_method):
            rule = lambda: bw_method(self)  # noqa: E731
        elif isinstance(bw_method, str):
            raise ValueError("gaussian_kde: bw_method must be 'scott', 'silverman', a number "
                             f"or a callable, got {bw_method!r}")
        else:
            rule = lambda: bw_method  # noqa: E731
        self._factor_rule = rule
        self._compute_covariance()

    def _compute_covariance(self):
        self.factor = self.covariance_factor()
        mean = fnp.sum(self.dataset * self._weights, axis=1, keepdims=True)
        centred = self.dataset - mean
        # np.cov with aweights (normalized), bias=False: divided by 1 - sum(w^2)
        data_cov = (centred * self._weights) @ fnp.transpose(centred) / (
            1.0 - fnp.sum(self._weights ** 2))
        self._data_covariance = data_cov
        self.covariance = data_cov * self.factor ** 2
        self.cho_cov = fnp.linalg.cholesky(self.covariance)
        self._inv_cov = fnp.linalg.inv(self.covariance)
        self.log_det = 2.0 * fnp.sum(fnp.log(fnp.diagonal(self.cho_cov)))

    def _log_kernel(self, points, centres, chol, log_det):
        """``log N(points_j; centres_i, L L^T)`` as an ``(n, m)`` array."""
        diff = points[:, None, :] - centres[:, :, None]       # (d, n, m)
        flat = fnp.reshape(diff, (self.d, -1))
        z = fnp.linalg.solve(chol, flat)  # (L^-1 diff: the Mahalanobis distance's square root)
        maha = fnp.reshape(fnp.sum(z * z, axis=0), diff.shape[1:])
        return -0.5 * (maha + log_det + self.d * _LOG_2PI)

    def logpdf(self, x: ArrayLike) -> Array:
        """The log density at the points ``x`` (``(d, m)``), a ``logsumexp`` over the
        kernels: accurate far from the data, where ``pdf`` underflows."""
        points = _points("logpdf", x, self.d)
        log_k = self._log_kernel(points, self.dataset, self.cho_cov, self.log_det)
        return sp.logsumexp(log_k, axis=0, b=self._weights[:, None])

    def evaluate(self, points: ArrayLike) -> Array:
        """The density at ``points`` (``(d, m)``; a ``(m,)`` array in one dimension)."""
        return fnp.exp(self.logpdf(points))

    __call__ = evaluate
    pdf = evaluate

    def integrate_gaussian(self, mean: ArrayLike, cov: ArrayLike) -> Array:
        """The integral of the density times the Gaussian ``N(mean, cov)``:
        ``sum_i w_i N(mean; x_i, cov + kernel covariance)``."""
        mean = fnp.reshape(asarray(mean), (self.d, 1))
        cov = fnp.reshape(asarray(cov), (self.d, self.d))
        total = self.covariance + cov
        chol = fnp.linalg.cholesky(total)
        log_det = 2.0 * fnp.sum(fnp.log(fnp.diagonal(chol)))
        log_k = self._log_kernel(mean, self.dataset, chol, log_det)[:, 0]
        return fnp.sum(self._weights * fnp.exp(log_k))

    def integrate_box_1d(self, low: ArrayLike, high: ArrayLike) -> Array:
        """The probability of ``[low, high]`` (one dimension only)."""
        if self.d != 1:
            raise ValueError("gaussian_kde.integrate_box_1d: the data set must be "
                             "one-dimensional; use integrate_gaussian for more dimensions")
        std = fnp.sqrt(self.covariance[0, 0])
        data = self.dataset[0]
        return fnp.sum(self._weights * (sp.ndtr((high - data) / std)
                                        - sp.ndtr((low - data) / std)))

    def integrate_kde(self, other: "gaussian_kde") -> Array:
        """The integral of the product of this density and ``other``'s."""
        if other.d != self.d:
            raise ValueError(f"gaussian_kde.integrate_kde: other has dimension {other.d}, "
                             f"this one {self.d}; they must match")
        total = self.covariance + other.covariance
        chol = fnp.linalg.cholesky(total)
        log_det = 2.0 * fnp.sum(fnp.log(fnp.diagonal(chol)))
        log_k = self._log_kernel(other.dataset, self.dataset, chol, log_det)
        return fnp.sum(self._weights[:, None] * other.weights[None, :] * fnp.exp(log_k))

    def resample(self, size: Optional[int] = None, seed: Any = None) -> Array:
        """``size`` points (default ``n``) drawn from the estimate, shape ``(d, size)``:
        a data point chosen by weight plus ``L z`` for a standard normal ``z``
        (``np.random.default_rng(seed)``'s numbers, not SciPy's)."""
        size = self.n if size is None else int(size)
        rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
        # (which point is drawn is a step function of the weights: no derivative in them)
        p = np.asarray(concrete_values(self._weights, "gaussian_kde.resample",
                                       "draw outside vmap/jit"), dtype=np.float64)
        index = rng.choice(self.n, size=size, p=p / p.sum())
        z = rng.standard_normal((self.d, size))
        return fnp.take(self.dataset, index, axis=1) + self.cho_cov @ fnp.astype(
            z, self.cho_cov.dtype)
