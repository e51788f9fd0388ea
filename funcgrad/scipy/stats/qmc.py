"""``funcgrad.scipy.stats.qmc``: quasi-Monte Carlo (SciPy's ``scipy.stats.qmc``).

The samplers (``Sobol``, ``Halton``, ``LatinHypercube``, ``PoissonDisk``,
``MultinomialQMC``, the base ``QMCEngine``) are SciPy's own classes: their points depend
on no parameter one could differentiate.  What here takes parameters or a sample is
funcgrad code, so it differentiates: ``scale`` in the sample and the bounds, the
discrepancies (``discrepancy``, ``update_discrepancy``, ``geometric_discrepancy``) in the
sample's points (to tune a design by gradient descent), and ``MultivariateNormalQMC`` in
its ``mean`` and ``cov`` (or ``cov_root``): its points are SciPy's standard normal QMC
points, correlated by funcgrad (the reparameterization a QMC estimate of an expectation
needs to be differentiated).

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.scipy.stats import qmc
>>> space = np.array([[0.1, 0.4], [0.3, 0.9], [0.6, 0.2], [0.8, 0.7]])
>>> round(float(qmc.discrepancy(space)), 6)
0.022674
>>> fg.grad(qmc.discrepancy)(space).shape
(4, 2)
"""
from typing import Any, Optional

import numpy as np

from ... import numpy as fnp
from ...numpy._convert import asarray, concrete_values
from ...typing import Array, ArrayLike

__all__ = ["scale", "discrepancy", "update_discrepancy", "geometric_discrepancy",
           "MultivariateNormalQMC"]
SCIPY_ENGINES = ("QMCEngine", "Sobol", "Halton", "LatinHypercube", "PoissonDisk",
                 "MultinomialQMC")
__all__ += list(SCIPY_ENGINES)  # (SciPy's samplers: __getattr__ loads them)


def __getattr__(name: str) -> Any:
    # (SciPy's samplers, loaded with SciPy on first use: import funcgrad never imports it)
    if name in SCIPY_ENGINES:
        from scipy.stats import qmc
        return getattr(qmc, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _checked(name, x, ndim, what):
    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    if x.ndim != ndim:
        raise ValueError(f"{name}: {what} must be a {ndim}-d array; got shape {x.shape}")
    values = concrete_values(x, f"{name}'s check that {what} lies in the unit hypercube",
                             f"call {name} outside jit and vmap")
    if values.size and (values.max() > 1.0 or values.min() < 0.0):
        raise ValueError(f"{name}: {what} is not in the unit hypercube [0, 1]^d: scale it "
                         f"there first (qmc.scale(x, l_bounds, u_bounds, reverse=True))")
    return x


def scale(sample: ArrayLike, l_bounds: ArrayLike, u_bounds: ArrayLike,
          *, reverse: bool = False) -> Array:
    """The sample from the unit hypercube to the box ``[l_bounds, u_bounds]``
    (``scipy.stats.qmc.scale``; ``reverse``: back), differentiable in the sample and the
    bounds.

    >>> import numpy as np
    >>> scale(np.array([[0.5, 0.75]]), [-2, 0], [6, 5])
    array([[2.  , 3.75]])
    """
    sample = asarray(sample)
    if sample.ndim != 2:
        raise ValueError(f"scale: the sample must be a 2-d (n, d) array; got shape "
                         f"{sample.shape}")
    d = sample.shape[1]
    try:
        lower = fnp.broadcast_to(asarray(l_bounds), (d,))
        upper = fnp.broadcast_to(asarray(u_bounds), (d,))
    except ValueError as e:
        raise ValueError("scale: 'l_bounds' and 'u_bounds' must be broadcastable and respect "
                         "the sample dimension") from e
    lo, hi = (concrete_values(b, "scale's bounds", "call scale outside jit and vmap")
              for b in (lower, upper))
    if not np.all(lo < hi):
        raise ValueError("scale: bounds are not consistent: each l_bounds must be below its "
                         "u_bounds")
    values = concrete_values(sample, "scale's check of the sample",
                             "call scale outside jit and vmap")
    if not reverse:
        if values.size and (values.max() > 1.0 or values.min() < 0.0):
            raise ValueError("scale: the sample is not in the unit hypercube [0, 1]^d")
        return sample * (upper - lower) + lower
    if not (np.all(values >= lo) and np.all(values <= hi)):
        raise ValueError("scale: the sample is out of the bounds")
    return (sample - lower) / (upper - lower)


def _pairs(x):
    """``|x_i - x_j|`` for every pair of rows, ``(n, n, d)``."""
    return fnp.abs(x[:, None, :] - x[None, :, :])


def discrepancy(sample: ArrayLike, *, iterative: bool = False, method: str = "CD",
                workers: int = 1) -> Array:
    """The discrepancy of a sample in the unit hypercube (``scipy.stats.qmc.discrepancy``:
    ``"CD"`` centered, ``"WD"`` wrap-around, ``"MD"`` mixture, ``"L2-star"``), lower for
    a more uniform sample; differentiable in the points.  ``iterative=True`` counts one
    more point, for :func:`update_discrepancy`; ``workers`` is accepted (funcgrad
    computes all pairs at once).

    >>> import numpy as np
    >>> space = np.array([[0.1, 0.4], [0.3, 0.9], [0.6, 0.2], [0.8, 0.7]])
    >>> round(float(discrepancy(space, method="WD")), 6)
    0.038247
    """
    x = _checked("discrepancy", sample, 2, "the sample")
    n, d = x.shape
    if iterative:
        n += 1
    if method == "CD":
        c = fnp.abs(x - 0.5)
        one = fnp.prod(1 + 0.5 * c - 0.5 * c ** 2, axis=1).sum()
        two = fnp.prod(1 + 0.5 * c[:, None, :] + 0.5 * c[None, :, :] - 0.5 * _pairs(x),
                       axis=2).sum()
        return (13 / 12) ** d - 2 / n * one + two / n ** 2
    if method == "WD":
        p = _pairs(x)
        return -(4 / 3) ** d + fnp.prod(1.5 - p * (1 - p), axis=2).sum() / n ** 2
    if method == "MD":
        c = fnp.abs(x - 0.5)
        p = _pairs(x)
        one = fnp.prod(5 / 3 - 0.25 * c - 0.25 * c ** 2, axis=1).sum()
        two = fnp.prod(15 / 8 - 0.25 * c[:, None, :] - 0.25 * c[None, :, :] - 0.75 * p
                       + 0.5 * p ** 2, axis=2).sum()
        return (19 / 12) ** d - 2 / n * one + two / n ** 2
    if method == "L2-star":
        one = fnp.prod(1 - x ** 2, axis=1).sum()
        two = fnp.prod(1 - fnp.maximum(x[:, None, :], x[None, :, :]), axis=2).sum()
        return fnp.sqrt(3.0 ** -d - 2.0 ** (1 - d) / n * one + two / n ** 2)
    raise ValueError(f"discrepancy: {method!r} is not a valid method; it must be one of "
                     f"'CD', 'WD', 'MD', 'L2-star'")


def update_discrepancy(x_new: ArrayLike, sample: ArrayLike, initial_disc: Any) -> Array:
    """The centered discrepancy of ``sample`` with ``x_new`` added, from that of
    ``sample`` (computed with ``iterative=True``) (``scipy.stats.qmc.update_discrepancy``);
    differentiable in all three.

    >>> import numpy as np
    >>> space = np.array([[0.1, 0.4], [0.3, 0.9], [0.6, 0.2], [0.8, 0.7]])
    >>> disc = discrepancy(space[:-1], iterative=True)
    >>> round(float(update_discrepancy(space[-1], space[:-1], disc)), 6)
    0.022674
    """
    x = _checked("update_discrepancy", sample, 2, "the sample")
    new = _checked("update_discrepancy", x_new, 1, "x_new")
    if new.shape[0] != x.shape[1]:
        raise ValueError("update_discrepancy: x_new and sample must be broadcastable (x_new "
                         "has one entry for each of the sample's columns)")
    n = x.shape[0] + 1
    c_new = fnp.abs(new - 0.5)
    c = fnp.abs(x - 0.5)
    one = -2 / n * fnp.prod(1 + 0.5 * c_new - 0.5 * c_new ** 2)
    two = 2 / n ** 2 * fnp.prod(1 + 0.5 * c_new + 0.5 * c - 0.5 * fnp.abs(new - x),
                                axis=1).sum()
    three = fnp.prod(1 + c_new) / n ** 2
    return initial_disc + one + two + three


def geometric_discrepancy(sample: ArrayLike, method: str = "mindist",
                          metric: str = "euclidean") -> Array:
    """A geometric measure of a sample's spread (``scipy.stats.qmc.geometric_discrepancy``):
    ``"mindist"`` the smallest distance between two distinct points, ``"mst"`` the mean
    edge of their minimum spanning tree; higher is more spread.  Differentiable in the
    points (through the pair or the tree SciPy's choice selects).

    >>> import numpy as np
    >>> space = np.array([[0.1, 0.4], [0.3, 0.9], [0.6, 0.2], [0.8, 0.7]])
    >>> round(float(geometric_discrepancy(space)), 6)
    0.538516
    """
    import warnings

    from ..spatial.distance import pdist, squareform
    x = _checked("geometric_discrepancy", sample, 2, "the sample")
    if x.shape[0] < 2:
        raise ValueError("geometric_discrepancy: the sample must contain at least two points")
    distances = pdist(x, metric=metric)
    values = concrete_values(distances, "geometric_discrepancy's distances",
                             "call geometric_discrepancy outside jit and vmap")
    if np.any(values == 0.0):
        warnings.warn("Sample contains duplicate points.", stacklevel=2)
    if method == "mindist":
        return fnp.min(distances[np.nonzero(values)[0]])
    if method == "mst":
        from ..sparse.csgraph import minimum_spanning_tree
        tree = minimum_spanning_tree(squareform(distances))
        edges = np.nonzero(concrete_values(tree, "geometric_discrepancy's tree",
                                           "call geometric_discrepancy outside jit"))
        return fnp.mean(tree[edges])
    raise ValueError(f"geometric_discrepancy: {method!r} is not a valid method; it must be "
                     f"one of 'mindist', 'mst'")


class MultivariateNormalQMC:
    """QMC points of a multivariate normal (``scipy.stats.qmc.MultivariateNormalQMC``):
    SciPy's standard normal QMC points (the same ``engine``, ``inv_transform`` and
    ``rng``, or its legacy name ``seed``), times the covariance's root, plus the mean,
    computed by funcgrad, so the points differentiate in ``mean`` and ``cov`` (or
    ``cov_root``).

    >>> import numpy as np, funcgrad as fg
    >>> def estimate(mean):
    ...     points = MultivariateNormalQMC(mean, np.eye(2), rng=0).random(64)
    ...     return (points ** 2).sum(axis=1).mean()
    >>> fg.grad(estimate)(np.array([1.0, 2.0])).round(2)   # d/dm E|X|^2 = 2 m
    array([2., 4.])
    """

    def __init__(self, mean: ArrayLike, cov: Optional[ArrayLike] = None, *,
                 cov_root: Optional[ArrayLike] = None, inv_transform: bool = True,
                 engine: Any = None, rng: Any = None, seed: Any = None) -> None:
        from scipy.stats import qmc
        if seed is not None and rng is not None:  # (seed: SciPy's legacy name of rng)
            raise TypeError("MultivariateNormalQMC() got multiple values for argument now "
                            "known as `rng`. Specify one of `rng` or `seed`.")
        mean = fnp.atleast_1d(asarray(mean))
        d = mean.shape[0]
        root = None
        if cov is not None:
            cov = fnp.atleast_2d(asarray(cov))
            if cov.shape[0] != d:
                raise ValueError("MultivariateNormalQMC: dimension mismatch between mean "
                                 "and covariance")
            c = concrete_values(cov, "MultivariateNormalQMC's check of the covariance",
                                "create the sampler outside jit and vmap")
            if not np.allclose(c, c.T):
                raise ValueError("MultivariateNormalQMC: the covariance matrix is not "
                                 "symmetric")
            try:
                np.linalg.cholesky(c)
                root = fnp.linalg.cholesky(cov).T
            except np.linalg.LinAlgError:
                eigval, eigvec = fnp.linalg.eigh(cov)
                if not np.all(concrete_values(eigval, "the covariance's eigenvalues",
                                              "outside jit") >= -1.0e-8):
                    raise ValueError("MultivariateNormalQMC: the covariance matrix is not "
                                     "positive semi-definite") from None
                root = (eigvec * fnp.sqrt(fnp.clip(eigval, 0.0, None))).T
        elif cov_root is not None:
            root = fnp.atleast_2d(asarray(cov_root))
            if root.shape[0] != d:
                raise ValueError("MultivariateNormalQMC: dimension mismatch between mean "
                                 "and covariance root")
        # (SciPy's sampler of standard normal points: its engine, transform and seeding)
        self._standard = qmc.MultivariateNormalQMC(np.zeros(d), inv_transform=inv_transform,
                                                   engine=engine,
                                                   **({"rng": rng} if seed is None
                                                      else {"seed": seed}))
        self.engine = self._standard.engine
        self._mean, self._root, self._d = mean, root, d

    @property
    def d(self) -> int:
        """The dimension of the points."""
        return self._d

    def random(self, n: int = 1) -> Array:
        """``n`` points, ``(n, d)``, differentiable in the mean and covariance.

        >>> MultivariateNormalQMC([0.0, 0.0], rng=1).random(4).shape
        (4, 2)
        """
        base = self._standard.random(n)
        out = base if self._root is None else base @ self._root
        return out + self._mean
