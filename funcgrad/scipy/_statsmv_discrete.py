"""``multivariate_hypergeom`` and ``dirichlet_multinomial`` of :mod:`funcgrad.scipy.stats`
(re-exported there), with SciPy's signatures, broadcasting and edge values.

``multivariate_hypergeom`` has integer parameters only (``m``, ``n``): its methods give
SciPy's values and draws (the same ``random_state``, the same draws) and nothing to
differentiate.  So has ``random_table`` (the row and column sums), whose draws are SciPy's
own compiled samplers' (imported on the first ``rvs``: Boyett's and Patefield's
algorithms read the generator's raw bits, which no Python rewrite would follow draw for
draw at a useful speed).  ``dirichlet_multinomial``'s ``logpmf``/``pmf``/``mean``/``var``/``cov``
differentiate in ``alpha`` (the counts ``x`` and ``n`` are integers).  SciPy's checks of
``alpha > 0`` and of integer counts raise on concrete values; under ``vmap`` or ``jit``,
where the values are not known, a bad ``alpha`` gives NaN and a bad count ``-inf``.
"""
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike
from . import special as sp
from ._statsmv_common import frozen
from ._statsmv_common import known as _known
from ._statsmv_common import random_state as _random_state

__all__ = ["multivariate_hypergeom", "dirichlet_multinomial", "random_table"]


def _integers(dist: str, name: str, value: Any, at_least_1d: bool = False) -> np.ndarray:
    value = np.asarray(value)
    if value.size == 0:
        value = value.astype(int)
    if value.dtype.kind not in "iu":
        raise TypeError(f"{dist}: {name} must be an array of integers; got dtype "
                        f"{value.dtype} (round and cast with .astype(int))")
    if at_least_1d and value.ndim == 0:
        raise ValueError(f"{dist}: {name} must have at least one dimension (the last one "
                         f"the categories)")
    return value


def _log_choose(a, b):
    return sp.gammaln(a + 1.0) - sp.gammaln(b + 1.0) - sp.gammaln(a - b + 1.0)


class _multivariate_hypergeom:
    """``multivariate_hypergeom.logpmf(x, m, n)``, ``pmf``, ``mean(m, n)``, ``var``,
    ``cov`` and ``rvs(m, n, size=None, random_state=None)``, as SciPy's: ``n`` draws
    without replacement from an urn with ``m[i]`` objects of type ``i``; NaN for bad
    ``m``/``n``, ``-inf`` for impossible counts ``x``.  All arguments are integers, so
    nothing is differentiable; the values are SciPy's.

    >>> import numpy as np
    >>> round(float(multivariate_hypergeom.pmf([1, 2], [3, 4], 3)), 12)  # 3 * 6 / 35
    0.514285714286
    >>> multivariate_hypergeom.mean([3, 4], 3)
    array([1.28571429, 1.71428571])
    """

    name = "multivariate_hypergeom"

    def _parameters(self, m, n):
        m = _integers(self.name, "m", m, at_least_1d=True)
        n = _integers(self.name, "n", n)
        m, n = np.broadcast_arrays(m, n[..., None])
        n = n[..., 0]
        total = m.sum(axis=-1)
        bad = np.any(m < 0, axis=-1) | (n < 0) | (n > total)
        return total, m, n, bad

    def logpmf(self, x: Any, m: Any, n: Any) -> Array:
        """``sum_i log C(m_i, x_i) - log C(M, n)``, ``M = sum m``."""
        total, m, n, bad = self._parameters(m, n)
        x = _integers(self.name, "x", x, at_least_1d=True)
        if x.shape[-1] != m.shape[-1]:
            raise ValueError(f"{self.name}: x has {x.shape[-1]} categories but m has "
                             f"{m.shape[-1]}; give x of shape (..., {m.shape[-1]})")
        x, m, n, total = np.broadcast_arrays(x, m, n[..., None], total[..., None])
        n, total = n[..., 0], total[..., 0]
        bad = bad | np.zeros(n.shape, bool)
        impossible = np.any((x < 0) | (x > m), axis=-1) | (x.sum(axis=-1) != n)
        with np.errstate(invalid="ignore"):
            inside = (x >= 0) & (x <= m)
            ok_n = (n >= 0) & (n <= total)
            out = (np.sum(np.where(inside, np.asarray(_log_choose(
                np.where(inside, m, 0), np.where(inside, x, 0))), 0.0), axis=-1)
                - np.where(ok_n, np.asarray(_log_choose(np.where(ok_n, total, 0),
                                                        np.where(ok_n, n, 0))), 0.0))
        out = np.where(bad, np.nan, np.where(impossible, -np.inf, out))
        return out[()]

    def pmf(self, x: Any, m: Any, n: Any) -> Array:
        """``exp(logpmf)``."""
        return np.exp(self.logpmf(x, m, n))

    def mean(self, m: Any, n: Any) -> Array:
        """``n m / M`` (0 for an empty urn, as SciPy's)."""
        total, m, n, bad = self._parameters(m, n)
        total, n = total[..., None], n[..., None]
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(total == 0, 0.0, n * (m / np.where(total == 0, 1, total)))
        return np.where(bad[..., None], np.nan, out)[()]

    def var(self, m: Any, n: Any) -> Array:
        """``n m/M (M - m)/M (M - n)/(M - 1)``, the covariance's diagonal (0 where ``M``
        is 0 or 1, as SciPy's)."""
        return np.diagonal(self.cov(m, n), axis1=-2, axis2=-1)[()]

    def cov(self, m: Any, n: Any) -> Array:
        """The covariance matrix, ``-n (M - n)/(M - 1) m_i m_j / M^2`` off the diagonal."""
        total, m, n, bad = self._parameters(m, n)
        total, n = total[..., None, None], n[..., None, None]
        small = total <= 1  # (M = 0 or 1: every entry is 0, as SciPy's masked division)
        safe = np.where(small, 2, total)
        out = -n * (safe - n) / (safe - 1) * (m[..., :, None] * m[..., None, :]) / safe ** 2
        diagonal = (n[..., 0] * (safe[..., 0] - n[..., 0]) * m * (safe[..., 0] - m)
                    / (safe[..., 0] - 1) / safe[..., 0] ** 2)
        eye = np.eye(m.shape[-1]) > 0
        out = np.where(eye, diagonal[..., None, :], out)
        out = np.where(small, 0.0, out)
        return np.where(bad[..., None, None], np.nan, out)[()]

    def rvs(self, m: Any, n: Any, size: Any = None,
            random_state: Any = None) -> Array:
        """Draws of shape ``size + (k,)`` (``m``'s shape where ``size`` is None), SciPy's
        for the same ``random_state`` (one hypergeometric draw per category in turn)."""
        total, m, n, _ = self._parameters(m, n)
        rng = _random_state(random_state)
        if isinstance(size, (int, np.integer)):
            size = (int(size),)
        out = np.empty(m.shape if size is None else tuple(size) + (m.shape[-1],), m.dtype)
        rest = total
        for c in range(m.shape[-1] - 1):
            rest = rest - m[..., c]
            none_left = n == 0
            out[..., c] = ~none_left * rng.hypergeometric(m[..., c], rest + none_left,
                                                          n + none_left, size=size)
            n = n - out[..., c]
        out[..., -1] = n
        return out

    def __call__(self, m: Any, n: Any, seed: Any = None) -> frozen:
        """The distribution with ``m`` and ``n`` fixed, as SciPy's
        ``multivariate_hypergeom(m, n, seed)``."""
        self._parameters(m, n)
        return _frozen_counts(self, (m, n), seed)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.{self.name}>"


class _frozen_counts(frozen):
    """A frozen discrete multivariate distribution, whose ``rvs`` defaults to one draw.

    >>> multivariate_hypergeom([3, 4], 3, seed=1).rvs(2).shape
    (2, 2)
    """

    def rvs(self, size: Any = 1, random_state: Any = None) -> Array:
        return super().rvs(size, random_state)


class _dirichlet_multinomial:
    """``dirichlet_multinomial.logpmf(x, alpha, n)``, ``pmf``, ``mean(alpha, n)``,
    ``var`` and ``cov``, as SciPy's: the multinomial with ``n`` trials and Dirichlet
    (``alpha``) probabilities, ``-inf`` where the counts do not sum to ``n``; the last axis
    of ``x`` and ``alpha`` the categories.  Differentiable in ``alpha`` (see
    :mod:`funcgrad.scipy._statsmv_discrete`).

    >>> import numpy as np, funcgrad as fg
    >>> round(float(dirichlet_multinomial.logpmf([1, 2, 3], np.array([3.0, 4.0, 5.0]), 6)), 10)
    -2.4669689491
    >>> g = fg.grad(lambda a: dirichlet_multinomial.logpmf([1, 2, 3], a, 6))(np.ones(3))
    """

    name = "dirichlet_multinomial"

    def _parameters(self, alpha, n, x=None):
        alpha = fnp.asarray(alpha)
        alpha = fnp.asarray(alpha, alpha.dtype if alpha.dtype.kind == "f" else np.float64)
        alpha_values, n_values = _known(alpha), _known(n)
        if alpha_values is not None and np.any(alpha_values <= 0):
            raise ValueError(f"{self.name}: alpha must contain only positive values")
        if n_values is not None and (np.any(n_values < 0)
                                     or np.any(n_values != np.floor(n_values))):
            raise ValueError(f"{self.name}: n must be a non-negative integer, got {n!r}")
        n = fnp.floor(fnp.asarray(n, alpha.dtype))
        if x is not None:
            x = fnp.asarray(x)
            try:
                shape = np.broadcast_shapes(x.shape, alpha.shape)
            except ValueError as e:
                raise ValueError(f"{self.name}: x (shape {tuple(x.shape)}) and alpha (shape "
                                 f"{tuple(alpha.shape)}) must be broadcastable") from e
            x_values = _known(x)
            if x_values is not None and (np.any(x_values < 0)
                                         or np.any(x_values != np.floor(x_values))):
                raise ValueError(f"{self.name}: x must contain only non-negative integers")
            x, alpha = fnp.broadcast_to(fnp.asarray(x, alpha.dtype), shape), \
                fnp.broadcast_to(alpha, shape)
        total = fnp.sum(alpha, axis=-1)
        shape = np.broadcast_shapes(total.shape, n.shape)
        return alpha, fnp.broadcast_to(total, shape), fnp.broadcast_to(n, shape), x

    def logpmf(self, x: ArrayLike, alpha: ArrayLike, n: ArrayLike) -> Array:
        """``log Gamma(A) + log Gamma(n + 1) - log Gamma(n + A) + sum_i (log Gamma(x_i +
        a_i) - log Gamma(a_i) - log Gamma(x_i + 1))``, ``A = sum a``."""
        alpha, total, n, x = self._parameters(alpha, n, x)
        counts = fnp.logical_and(fnp.greater_equal(x, 0), fnp.equal(x, fnp.floor(x)))
        safe_x = fnp.where(counts, x, 0.0)
        positive = fnp.greater(alpha, 0)
        safe_alpha = fnp.where(positive, alpha, 1.0)
        out = (sp.gammaln(total) + sp.gammaln(n + 1.0) - sp.gammaln(n + total)
               + fnp.sum(sp.gammaln(safe_x + safe_alpha) - sp.gammaln(safe_alpha)
                         - sp.gammaln(safe_x + 1.0), axis=-1))
        possible = fnp.logical_and(fnp.all(counts, axis=-1),
                                   fnp.equal(fnp.sum(safe_x, axis=-1), n))
        out = fnp.where(possible, out, -np.inf)
        return fnp.where(fnp.all(positive, axis=-1), out, np.nan)

    def pmf(self, x: ArrayLike, alpha: ArrayLike, n: ArrayLike) -> Array:
        """``exp(logpmf)``."""
        return fnp.exp(self.logpmf(x, alpha, n))

    def mean(self, alpha: ArrayLike, n: ArrayLike) -> Array:
        """``n alpha / A``."""
        alpha, total, trials, _ = self._parameters(alpha, n)
        return trials[..., None] * alpha / total[..., None]

    def var(self, alpha: ArrayLike, n: ArrayLike) -> Array:
        """``n p (1 - p) (n + A)/(1 + A)``, ``p = alpha / A``: the covariance's
        diagonal."""
        alpha, total, trials, _ = self._parameters(alpha, n)
        trials, total = trials[..., None], total[..., None]
        p = alpha / total
        return trials * p * (1.0 - p) * (trials + total) / (1.0 + total)

    def cov(self, alpha: ArrayLike, n: ArrayLike) -> Array:
        """The covariance matrix, ``-n p_i p_j (n + A)/(1 + A)`` off the diagonal."""
        alpha, total, n, _ = self._parameters(alpha, n)
        factor = (n * (n + total) / (1.0 + total))[..., None, None]
        p = alpha / total[..., None]
        eye = np.eye(alpha.shape[-1]) > 0
        # n p_i (1 - p_i) (n + A)/(1 + A) on the diagonal, -n p_i p_j (n + A)/(1 + A) off it
        return factor * fnp.where(eye, (p * (1.0 - p))[..., None, :],
                                  -p[..., :, None] * p[..., None, :])

    def __call__(self, alpha: ArrayLike, n: ArrayLike, seed: Any = None) -> frozen:
        """The distribution with ``alpha`` and ``n`` fixed, as SciPy's
        ``dirichlet_multinomial(alpha, n)``."""
        self._parameters(alpha, n)
        return frozen(self, (alpha, n), seed)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.{self.name}>"


def _log_factorial(v):
    return np.asarray(sp.gammaln(np.asarray(v, float) + 1.0))


class _random_table:
    """``random_table.logpmf(x, row, col)``, ``pmf``, ``mean(row, col)`` and
    ``rvs(row, col, *, size=None, method=None, random_state=None)``, as SciPy's: random
    contingency tables with the given row and column sums (integers, nothing to
    differentiate); the draws are SciPy's own (see :mod:`funcgrad.scipy._statsmv_discrete`).

    >>> import numpy as np
    >>> round(float(random_table.pmf([[1, 0], [0, 1]], [1, 1], [1, 1])), 12)
    0.5
    >>> random_table.mean([1, 3], [2, 2])
    array([[0.5, 0.5],
           [1.5, 1.5]])
    """

    name = "random_table"

    def _parameters(self, row, col):
        sums = []
        for name, given in (("row", row), ("col", col)):
            value = np.array(given, dtype=np.int64, copy=True)
            if value.ndim != 1:
                raise ValueError(f"random_table: {name} must be one-dimensional")
            if np.any(value < 0):
                raise ValueError(f"random_table: each element of {name} must be "
                                 f"non-negative")
            if not np.all(value == np.asarray(given)):
                raise ValueError(f"random_table: each element of {name} must be an integer")
            sums.append(value)
        r, c = sums
        if r.sum() != c.sum():
            raise ValueError(f"random_table: the sums over row ({r.sum()}) and col "
                             f"({c.sum()}) must be equal")
        return r, c, r.sum()

    def logpmf(self, x: ArrayLike, row: ArrayLike, col: ArrayLike) -> Array:
        """``sum log r_i! + sum log c_j! - log n! - sum log x_ij!`` where ``x``'s margins
        are ``row`` and ``col``, ``-inf`` elsewhere."""
        r, c, n = self._parameters(row, col)
        x = np.asarray(x)
        if x.ndim < 2:
            raise ValueError("random_table: x must be at least two-dimensional (tables "
                             "along its last two axes)")
        with np.errstate(invalid="ignore"):
            if x.dtype.kind not in "iu" and not np.all(x.astype(int) == x):
                raise ValueError("random_table: x must contain only integral values")
        if np.any(x < 0):
            raise ValueError("random_table: x must contain only non-negative values")
        rows, cols = np.sum(x, axis=-1), np.sum(x, axis=-2)
        if rows.shape[-1] != len(r) or cols.shape[-1] != len(c):
            raise ValueError(f"random_table: x's tables are {x.shape[-2:]} but row and col "
                             f"describe ({len(r)}, {len(c)})")
        margins = np.all(rows == r, axis=-1) & np.all(cols == c, axis=-1)
        value = (np.sum(_log_factorial(r)) + np.sum(_log_factorial(c)) - _log_factorial(n)
                 - np.sum(_log_factorial(x), axis=(-1, -2)))
        return np.where(margins, value, -np.inf)[()]

    def pmf(self, x: ArrayLike, row: ArrayLike, col: ArrayLike) -> Array:
        """``exp(logpmf)``."""
        return np.exp(self.logpmf(x, row, col))

    def mean(self, row: ArrayLike, col: ArrayLike) -> Array:
        """``outer(row, col) / n``."""
        r, c, n = self._parameters(row, col)
        return np.outer(r, c) / n

    def rvs(self, row: ArrayLike, col: ArrayLike, *, size: Any = None, method: Any = None,
            random_state: Any = None) -> Array:
        """Tables of shape ``size + (len(row), len(col))``: SciPy's draws (its
        ``method``, ``"boyett"`` or ``"patefield"``, chosen as SciPy's where None)."""
        from scipy import stats  # (SciPy's compiled samplers: see the module docstring)
        self._parameters(row, col)
        return stats.random_table.rvs(row, col, size=size, method=method,
                                      random_state=_random_state(random_state))

    def __call__(self, row: ArrayLike, col: ArrayLike, *, seed: Any = None) -> "_frozen_table":
        """The distribution with ``row`` and ``col`` fixed, as SciPy's
        ``random_table(row, col, seed=seed)``."""
        self._parameters(row, col)
        return _frozen_table(self, (row, col), seed)

    def __repr__(self) -> str:
        return "<funcgrad.scipy.stats.random_table>"


class _frozen_table(frozen):
    """A frozen ``random_table``: ``logpmf(x)``, ``pmf(x)``, ``mean()``,
    ``rvs(size=None, method=None, random_state=None)``.

    >>> random_table([1, 1], [1, 1]).mean()
    array([[0.5, 0.5],
           [0.5, 0.5]])
    """

    def rvs(self, size: Any = None, method: Any = None,  # type: ignore[override]
            random_state: Any = None) -> Array:
        rng = self._random_state if random_state is None else random_state
        return self.dist.rvs(*self.args, size=size, method=method, random_state=rng)


multivariate_hypergeom = _multivariate_hypergeom()
dirichlet_multinomial = _dirichlet_multinomial()
random_table = _random_table()
