"""The univariate distributions' methods for a distribution's moments: ``moment``, ``stats``
and ``expect``.

Mixed into :class:`funcgrad.scipy._distn.rv_continuous` (so also ``rv_discrete``) and
:class:`funcgrad.scipy._distn.rv_frozen`; kept here so that ``_distn`` holds the densities
and their direct relatives.

The standardized distribution's statistics come as SciPy's do: a family's closed forms
(:mod:`._distn_moments_closed`, and the means and variances each family states), then its
raw moments where it states them (SciPy's ``_munp``), else numerically
(:mod:`._distn_moments_rules`: a quadrature of the density or a sum of the masses, as
differentiable as the density).  ``loc`` and ``scale`` enter as SciPy's: ``loc + scale m``,
``scale**2 v``, and the binomial expansion of ``E[(loc + scale X)**n]``.  A statistic that
does not exist is SciPy's ``inf`` or ``nan``, and its derivative is NaN (not a number that
would look like one).  ``expect`` is in :mod:`._distn_moments_expect`.
"""
import inspect
import math
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

import numpy as np

from .. import numpy as fnp
from ..typing import Array, ArrayLike

_LETTERS = "mvsk"


def _tables():
    from . import _distn_moments_closed
    return _distn_moments_closed


def _power_means(dist):
    """The raw moments a family computes itself (``rv_histogram``'s), or None."""
    own = getattr(dist, "_power_mean", None)
    return None if own is None else (lambda n, *shape: own(n))


def _munp_of(dist):
    return _tables().MUNP.get(dist.name) or _power_means(dist)


def _generic(dist, shape):
    """``(mean, var, skew, kurt)`` numerically, NaN from the order where the moments of a
    heavy-tailed family diverge (its ``TAIL``)."""
    from ._distn_moments_rules import central
    mean, (c2, c3, c4) = central(dist, shape)
    out = [mean, c2, c3 / c2 ** 1.5, c4 / (c2 * c2) - 3.0]
    tail = _tables().TAIL.get(dist.name)
    if tail is not None:
        bound = tail(*shape)
        out = [fnp.where(fnp.greater(bound, order), v, math.nan) for order, v in
               enumerate(out, start=1)]
    return out


def _from_munp(munp, shape, mu, mu2, g1, g2, wanted):
    """SciPy's ``rv_generic.stats``: the statistics ``wanted`` that ``_stats`` left as None,
    from the raw moments ``munp(n, *shape)`` (a divergent mean makes the variance inf)."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if mu is None and ("m" in wanted or len(wanted.strip("m"))):
            mu = munp(1, *shape)
        if mu2 is None and wanted.strip("m"):
            mu2 = fnp.where(fnp.isinf(mu), math.inf, munp(2, *shape) - mu * mu)
        mu3 = None
        if "s" in wanted and g1 is None:
            mu3 = (-mu * mu - 3.0 * mu2) * mu + munp(3, *shape)
            g1 = mu3 / mu2 ** 1.5
        if "k" in wanted and g2 is None:
            if mu3 is None:
                mu3 = g1 * mu2 ** 1.5 if g1 is not None else (
                    (-mu * mu - 3.0 * mu2) * mu + munp(3, *shape))
            mu4 = ((-mu * mu - 6.0 * mu2) * mu - 4.0 * mu3) * mu + munp(4, *shape)
            g2 = mu4 / (mu2 * mu2) - 3.0
    return mu, mu2, g1, g2


def standard_stats(dist, shape, wanted):
    """``[mean, var, skew, kurt]`` of ``dist``'s standardized distribution at the shapes
    ``shape``; entries not in ``wanted`` may be None."""
    own = _tables().STATS.get(dist.name)
    mu, mu2, g1, g2 = own(*shape) if own is not None else (None,) * 4
    munp = _munp_of(dist)
    if mu is None and getattr(dist, "_mean", None) is not None:
        mu = dist._mean(*shape)
    if mu2 is None and getattr(dist, "_var", None) is not None:
        mu2 = dist._var(*shape)
    missing = [c for c, v in zip(_LETTERS, (mu, mu2, g1, g2)) if v is None and c in wanted]
    if missing and munp is not None:
        mu, mu2, g1, g2 = _from_munp(munp, shape, mu, mu2, g1, g2, wanted)
    elif missing:
        generic = _generic(dist, shape)
        mu, mu2, g1, g2 = [g if v is None else v for v, g in zip((mu, mu2, g1, g2), generic)]
    return [mu, mu2, g1, g2]


def _beyond_tail(dist, shape, k):
    """``E[X**k]`` where it diverges: ``inf`` for an even order or a support bounded below
    by 0, else ``nan`` (both tails diverge, with opposite signs)."""
    from ._distn_moments_rules import support
    a, _ = support(dist, shape)
    return fnp.where(fnp.logical_or(k % 2 == 0, fnp.greater_equal(a, 0)), math.inf, math.nan)


def standard_raw(dist, shape, n):
    """``[E[X**0], ..., E[X**n]]`` of ``dist``'s standardized distribution, as SciPy's
    ``moment``: an order up to 4 from the statistics where the family's closed forms give
    all it needs, else from the raw moments (its own, else numerical)."""
    munp = _munp_of(dist)
    if n > 4:  # (SciPy's: every order from the raw moments then)
        if munp is not None:
            return [1.0] + [munp(k, *shape) for k in range(1, n + 1)]
        from ._distn_moments_rules import raw
        tail = _tables().TAIL.get(dist.name)
        out = raw(dist, shape, n)
        if tail is not None:
            bound = tail(*shape)
            out = out[:1] + [fnp.where(fnp.greater(bound, k), v, _beyond_tail(dist, shape, k))
                             for k, v in enumerate(out[1:], start=1)]
        return out
    own = _tables().STATS.get(dist.name)
    stated = own(*shape) if own is not None else (None,) * 4
    out = [1.0]
    stats = None
    for k in range(1, n + 1):
        if munp is not None and any(v is None for v in stated[:k]):
            out.append(munp(k, *shape))
            continue
        if stats is None:
            stats = standard_stats(dist, shape, _LETTERS[:n])
        mu, mu2, g1, g2 = stats
        with np.errstate(invalid="ignore", over="ignore"):
            if k == 1:
                out.append(mu)
            elif k == 2:
                out.append(mu2 + mu * mu)
            elif k == 3:
                out.append(g1 * mu2 ** 1.5 + 3.0 * mu * mu2 + mu ** 3)
            else:
                out.append((g2 + 3.0) * mu2 * mu2 + 4.0 * mu * g1 * mu2 ** 1.5
                           + 6.0 * mu * mu * mu2 + mu ** 4)
    return out


def _nan_slope_where_undefined(out, inputs):
    """``out``, whose derivative in each of ``inputs`` is NaN where ``out`` is not finite
    (a moment that does not exist has no derivative, not a zero one)."""
    from ._special_gamma import _undefined_slope
    traced = [x for x in inputs if not isinstance(x, (int, float, np.ndarray, np.generic))]
    if not traced:
        return out
    flag = fnp.where(fnp.isfinite(out), 0.0, 1.0)
    for x in traced:
        out = out + _undefined_slope(x + 0.0 * flag, flag)
    return out


def _check_order(order):
    n = order
    if not isinstance(n, (int, float, np.integer, np.floating)) or math.floor(n) != n:
        raise ValueError(f"Moment must be an integer (got order={order!r}); give an integer "
                         f"order >= 0")
    if n < 0:
        raise ValueError(f"Moment must be positive (got order={order!r}); give an integer "
                         f"order >= 0")
    return int(n)


class DistnMoments:
    """Methods of ``rv_continuous`` and ``rv_discrete`` (see the module docstring)."""

    name: str
    shapes: tuple
    _defaults: dict

    if TYPE_CHECKING:  # (the distribution's own, in _distn)
        def _args(self, args: Any, kwds: Any) -> Any: ...

        def _out(self, out: Any, ok: Any, *inputs: Any) -> Any: ...

    def stats(self, *args: ArrayLike, **kwds: Any) -> Union[Array, tuple]:
        """The mean (``m``), variance (``v``), skewness (``s``) and excess kurtosis (``k``)
        that ``moments`` names, as SciPy's: one array for one letter, else a tuple.

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> [float(v) for v in fst.gamma.stats(2.0, scale=3.0, moments="mvsk")]
        [6.0, 18.0, 1.414213562373095, 3.0]
        >>> round(float(fg.grad(lambda a: fst.gamma.stats(a, moments="s"))(2.0)), 10)
        -0.3535533906
        """
        moments = kwds.pop("moments", "mv")
        if not isinstance(moments, str) or set(moments) - set(_LETTERS):
            raise ValueError(f"{self.name}.stats: moments={moments!r}; give a string of the "
                             f"letters 'mvsk' (mean, variance, skew, kurtosis)")
        shape, (loc, scale), ok = self._args(args, kwds)
        values = standard_stats(self, shape, moments)
        out = []
        for letter in moments:
            v = values[_LETTERS.index(letter)]
            v = {"m": lambda: loc + v * scale, "v": lambda: v * (scale * scale)}.get(
                letter, lambda: v + 0.0 * (loc + scale))()
            v = _nan_slope_where_undefined(fnp.asarray(v), list(shape) + [loc, scale])
            out.append(self._out(v, ok, *shape, loc, scale))
        return out[0] if len(out) == 1 else tuple(out)

    def moment(self, order: int, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The non-central moment ``E[X**order]`` (an integer ``order >= 0``), as SciPy's:
        ``E[(loc + scale Y)**n]`` expanded by the binomial theorem.

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> float(fst.norm.moment(2, loc=1.0, scale=2.0)), float(fst.expon.moment(3))
        (5.0, 6.0)
        >>> float(fg.grad(lambda s: fst.norm.moment(4, scale=s))(2.0))  # 3 * 4 s**3
        96.0
        """
        n = _check_order(order)
        shape, (loc, scale), ok = self._args(args, kwds)
        raw = standard_raw(self, shape, n)
        if isinstance(loc, (int, float)) and loc == 0:
            value = scale ** n * raw[n]
        else:
            with np.errstate(invalid="ignore"):
                expanded = sum(math.comb(n, k) * loc ** (n - k) * scale ** k * raw[k]
                               for k in range(n + 1))
            # (at loc = 0 the expansion's 0 * inf would be NaN where a moment diverges)
            value = fnp.where(fnp.equal(loc, 0), scale ** n * raw[n], expanded)
        value = _nan_slope_where_undefined(fnp.asarray(value * 1.0), list(shape) + [loc, scale])
        return self._out(value, ok, *shape, loc, scale)

    def expect(self, func: Optional[Callable[[Any], Any]] = None, args: tuple = (),
               *rest: Any, **kwds: Any) -> Array:
        """The expectation of ``func(x)`` (``x`` itself by default) over ``[lb, ub]`` (the
        support by default), divided by the mass of ``[lb, ub]`` if ``conditional``, as
        SciPy's: ``expect(func, args, loc, scale, lb, ub, conditional, epsabs=, epsrel=,
        limit=)`` (continuous) or ``expect(func, args, loc, lb, ub, conditional, maxcount,
        tolerance, chunksize)`` (discrete).

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> round(float(fst.expon.expect(lambda x: x * x, scale=2.0)), 10)
        8.0
        >>> round(float(fg.grad(lambda s: fst.expon.expect(lambda x: x * x, scale=s))(2.0)), 8)
        8.0
        >>> round(float(fst.poisson.expect(lambda k: k * k, (2.0,), lb=1, conditional=True)), 10)
        6.9391058565
        """
        from ._distn_moments_expect import expect_continuous, expect_discrete
        discrete = getattr(self, "_logpmf", None) is not None
        try:
            bound = inspect.signature(_discrete if discrete else _continuous).bind(
                func, args, *rest, **kwds)
        except TypeError as e:
            raise TypeError(f"{self.name}.expect: {e}; its signature is {self.name}.expect"
                            f"{inspect.signature(_discrete if discrete else _continuous)}"
                            ) from None
        bound.apply_defaults()
        given = dict(bound.arguments)
        options = given.pop("kwds", {})
        unknown = set(options) - {"epsabs", "epsrel", "limit"}
        if unknown:
            raise TypeError(f"{self.name}.expect: unknown argument(s) {sorted(unknown)}; the "
                            f"integration takes epsabs, epsrel and limit, as quad")
        if discrete:
            return expect_discrete(self, **given)
        return expect_continuous(self, **given, **options)


def _continuous(func=None, args=(), loc=0, scale=1, lb=None, ub=None, conditional=False,
                **kwds):
    """SciPy's ``rv_continuous.expect`` signature (``kwds``: the integration's options)."""


def _discrete(func=None, args=(), loc=0, lb=None, ub=None, conditional=False, maxcount=1000,
              tolerance=1e-10, chunksize=32):
    """SciPy's ``rv_discrete.expect`` signature."""


class FrozenMoments:
    """Methods of ``rv_frozen`` (see the module docstring)."""

    dist: Any
    args: tuple
    kwds: dict

    def stats(self, moments: str = "mv") -> Union[Array, tuple]:
        """The statistics ``moments`` names (letters of ``'mvsk'``), as ``dist.stats``.

        >>> import funcgrad.scipy.stats as fst
        >>> [float(v) for v in fst.norm(1.0, 2.0).stats(moments="mvsk")]
        [1.0, 4.0, 0.0, 0.0]
        """
        return self.dist.stats(*self.args, moments=moments, **self.kwds)

    def moment(self, order: int) -> Array:
        """The non-central moment of order ``order``, as ``dist.moment``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.poisson(2.0).moment(2))
        6.0
        """
        return self.dist.moment(order, *self.args, **self.kwds)

    def expect(self, func: Optional[Callable[[Any], Any]] = None,
               lb: Optional[ArrayLike] = None, ub: Optional[ArrayLike] = None,
               conditional: bool = False, **kwds: Any) -> Array:
        """The expectation of ``func`` under the frozen distribution, as ``dist.expect``.

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.norm(1.0, 2.0).expect(lambda x: x * x)), 10)
        5.0
        """
        # (SciPy's convention: the shapes, then loc and scale, positionally or by keyword;
        # checked when the distribution was frozen)
        names = tuple(self.dist.shapes) + tuple(self.dist._defaults)
        given = dict(zip(names, self.args), **self.kwds)
        shape = [given[s] for s in self.dist.shapes]
        where = {k: given.get(k, v) for k, v in self.dist._defaults.items()}
        if getattr(self.dist, "_logpmf", None) is not None:
            return self.dist.expect(func, tuple(shape), where["loc"], lb=lb, ub=ub,
                                    conditional=conditional, **kwds)
        return self.dist.expect(func, tuple(shape), where["loc"], where["scale"], lb, ub,
                                conditional, **kwds)
