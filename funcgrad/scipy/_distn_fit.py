"""The univariate distributions' methods for fitting a distribution to data: ``fit``, ``nnlf``,
``fit_loc_scale`` (and censored data, :class:`._distn_censored.CensoredData`).

Mixed into :class:`funcgrad.scipy._distn.rv_continuous` (so also ``rv_discrete``, which has
``nnlf`` but, as SciPy's, no ``fit`` or ``fit_loc_scale``; a frozen distribution has none of
them); kept here so that ``_distn`` holds the densities and their direct relatives.

``fit`` gives SciPy's values (SciPy's own ``fit``, run on the values of the data and of the
arguments), and derivatives in the data and in traced fixed parameters from
:mod:`._distn_fit_derivative`.  ``nnlf`` and ``fit_loc_scale`` are written with the
distribution's own functions, so they differentiate as those do.
"""
import math
from typing import Any, Callable

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray, concrete_values, is_concrete
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike
from ._distn_censored import as_censored, parts, to_scipy
from ._distn_fit_derivative import fitted_parameters, neg_log_likelihood, wanted


def _is_discrete(cls: type) -> bool:
    return any("logpmf" in vars(c) for c in cls.__mro__)


class _ContinuousOnly:
    """A method of SciPy's continuous distributions that its discrete ones lack: reading it
    from a discrete distribution raises ``AttributeError`` (so ``hasattr`` says False), as
    SciPy's ``poisson.fit`` does."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self._method = method
        self.__name__, self.__qualname__ = method.__name__, method.__qualname__
        self.__doc__, self.__wrapped__ = method.__doc__, method

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        cls = owner if owner is not None else type(obj)
        if _is_discrete(cls):
            raise AttributeError(
                f"{getattr(obj, 'name', cls.__name__)} is a discrete distribution, which has "
                f"no {self._method.__name__} (neither has SciPy's): fit one with "
                f"funcgrad.scipy.stats.fit(dist, data, bounds)")
        return self._method if obj is None else self._method.__get__(obj, owner)


def _scipy_twin(dist: Any) -> Any:
    """SciPy's distribution of ``dist``'s name."""
    import scipy.stats  # (here: importing funcgrad never loads SciPy)
    theirs = getattr(scipy.stats, dist.name, None)
    if theirs is None:
        raise NotImplementedError(f"{dist.name}: SciPy has no distribution of this name, so "
                                  f"its fit (which funcgrad's follows) is not available")
    return theirs


def _plain(value: Any, what: str) -> Any:
    """``value`` without its derivative (SciPy's fit runs on values); Python numbers and
    other objects as given."""
    if isinstance(value, (int, float, str)) or value is None or callable(value):
        return value
    return concrete_values(stop_gradient(asarray(value)), what,
                           "call fit outside jit and vmap")


def _theta(theta: Any, n: int, name: str) -> list:
    """``theta``'s entries (shapes, loc and, continuous, scale) as a list."""
    if hasattr(theta, "shape") and len(theta.shape) != 1:
        raise ValueError(f"{name}.nnlf: theta must be a sequence of the shapes, loc and scale, "
                         f"got shape {tuple(theta.shape)}")
    entries = [theta[i] for i in range(len(theta))]
    if len(entries) != n:
        raise ValueError(f"{name}.nnlf: theta must hold {n} parameters (the shape "
                         f"parameters, loc{'' if n == 0 else ' and scale'}), got "
                         f"{len(entries)}")
    return entries


def _fixed(shapes: tuple, kwds: dict) -> dict:
    """``{index in theta: the value it is fixed at}`` by SciPy's keywords: ``f0``... ,
    ``fa``/``fix_a`` by a shape's name, ``floc``, ``fscale``."""
    fixed = {}
    for j, s in enumerate(shapes):
        for key in (f"f{j}", f"f{s}", f"fix_{s}"):
            if kwds.get(key) is not None:
                fixed[j] = kwds[key]
    n = len(shapes)
    for j, key in ((n, "floc"), (n + 1, "fscale")):
        if kwds.get(key) is not None:
            fixed[j] = kwds[key]
    return fixed


class DistnFit:
    """Methods of ``rv_continuous`` and ``rv_discrete`` (see the module docstring)."""

    name: str
    shapes: tuple
    # (rv_continuous's: the methods below are written with them)
    _valid: Callable[..., Any]
    mean: Callable[..., Any]
    var: Callable[..., Any]

    def nnlf(self, theta: Any, x: Any) -> Array:
        """The negative log-likelihood of the data ``x`` at the parameters ``theta`` (the
        shapes, ``loc`` and, continuous, ``scale``), as SciPy's ``nnlf``: ``-sum(logpdf(x,
        *theta), axis=0)``, ``inf`` where ``theta`` is invalid or a value lies outside the
        support (a constant there: its derivative is 0).  Differentiable in ``theta`` and
        ``x``.  ``x`` may also be :class:`~funcgrad.scipy.stats.CensoredData` (which
        SciPy's ``nnlf`` does not take): the censored values add ``-logcdf``, ``-logsf`` or
        ``-log(cdf(high) - cdf(low))``, the terms SciPy's ``fit`` minimizes.

        >>> import numpy as np, funcgrad as fg
        >>> from funcgrad.scipy.stats import norm
        >>> x = np.array([0.5, 1.5, 2.0])
        >>> round(float(norm.nnlf((1.0, 2.0), x)), 6), fg.grad(norm.nnlf)((1.0, 2.0), x)
        (5.023757, (np.float64(-0.25), np.float64(1.3125)))
        >>> float(norm.nnlf((1.0, -2.0), x))
        inf
        """
        discrete = _is_discrete(type(self))
        n = len(self.shapes) + (1 if discrete else 2)
        entries = _theta(theta, n, self.name)
        shapes, loc = entries[:len(self.shapes)], entries[len(self.shapes)]
        scale = 1.0 if discrete else entries[-1]
        censored = as_censored(x)
        if censored is not None:
            if discrete:
                raise TypeError(f"{self.name}.nnlf: censored data are fitted by continuous "
                                f"distributions only (as SciPy's)")
            data: Any = parts(censored)
        else:
            data = asarray(x)
            if data.ndim == 0:
                raise TypeError(f"{self.name}.nnlf: x must be a sequence of observations "
                                f"(len() of a 0-d array is undefined, as in SciPy); pass "
                                f"[x]")
        value = neg_log_likelihood(self, shapes, loc, scale, data, censored is not None,
                                   discrete)
        leaves = list(entries) + (list(data) if censored is not None else [data])
        if all(is_concrete(v) for v in leaves):
            return value if self._inside(shapes, loc, scale, data, censored is not None) \
                else fnp.asarray(math.inf)  # (SciPy's: one inf, whatever x's shape)
        # (under vmap or jit: SciPy's checks on values are not available; invalid
        # parameters and NaN, which SciPy's support test refuses, give inf)
        ok = self._valid(*shapes)
        if not discrete:
            ok = fnp.logical_and(ok, fnp.greater(scale, 0))
        ok = fnp.logical_and(ok, fnp.logical_not(fnp.isnan(value)))
        return fnp.where(ok, value, math.inf)

    def _inside(self, shapes, loc, scale, data, censored):
        """SciPy's test in ``nnlf``: valid parameters and every (uncensored) value in the
        closed support."""
        theirs = _scipy_twin(self)
        values = lambda v: _plain(v, f"{self.name}.nnlf")  # noqa: E731
        shapes = [np.asarray(values(s)) for s in shapes]
        loc, scale = values(loc), values(scale)
        if not np.all(theirs._argcheck(*shapes)) or not np.all(np.asarray(scale) > 0):
            return False
        x = values(data[0] if censored else data)
        with np.errstate(invalid="ignore", divide="ignore"):
            return bool(np.all(theirs._support_mask((np.asarray(x) - loc) / scale, *shapes)))

    @_ContinuousOnly
    def fit_loc_scale(self, data: ArrayLike, *args: ArrayLike) -> tuple:
        """SciPy's moment estimates of ``loc`` and ``scale`` for the shapes ``args``: the
        scale that matches the data's variance, the loc that then matches its mean
        (``0`` and ``1`` where those are not finite and positive), as
        ``rv_continuous.fit_loc_scale``.  Differentiable in the data and the shapes.

        >>> import numpy as np, funcgrad as fg
        >>> from funcgrad.scipy.stats import expon
        >>> x = np.array([1.0, 2.0, 4.0])
        >>> [round(float(v), 6) for v in expon.fit_loc_scale(x)]
        [1.086114, 1.247219]
        >>> np.round(fg.grad(lambda x: expon.fit_loc_scale(x)[1])(x), 6)
        array([-0.356348, -0.089087,  0.445435])
        """
        mu, mu2 = self.mean(*args), self.var(*args)
        x = asarray(data)
        mean, var = fnp.mean(x), fnp.var(x)
        # SciPy computes S = sqrt(var / mu2) and L = mean - S mu, then takes L = 0 where it
        # is not finite and S = 1 where it is not finite and positive.  S is 0 (so L =
        # mean) where mu2 is inf or the data do not vary.  The double-where idiom: every
        # branch computed on safe stand-ins, so no NaN from an untaken one reaches a
        # derivative.
        and_ = fnp.logical_and
        mu_ok = fnp.isfinite(mu)
        mu2_ok = and_(fnp.isfinite(mu2), fnp.greater(mu2, 0))
        var_ok = and_(fnp.isfinite(var), fnp.greater(var, 0))
        full = and_(mu2_ok, var_ok)
        s = fnp.sqrt(fnp.where(var_ok, var, 1.0) / fnp.where(mu2_ok, mu2, 1.0))
        zero = and_(mu_ok, fnp.logical_or(and_(fnp.isposinf(mu2), fnp.isfinite(var)),
                                          and_(fnp.equal(var, 0), mu2_ok)))
        lhat = fnp.where(and_(full, mu_ok), mean - s * fnp.where(mu_ok, mu, 0.0),
                         fnp.where(zero, fnp.where(zero, mean, 0.0), 0.0))
        return lhat, fnp.where(full, s, 1.0)

    @_ContinuousOnly
    def fit(self, data: Any, *args: Any, **kwds: Any) -> tuple:
        """Estimates of the shapes, ``loc`` and ``scale`` from ``data`` (an array, or
        :class:`~funcgrad.scipy.stats.CensoredData`), as SciPy's ``rv_continuous.fit``:
        maximum likelihood (``method='MLE'``) or the method of moments (``'MM'``);
        parameters fixed by ``f0``... ``fa``/``fix_a`` (by a shape's name), ``floc``,
        ``fscale``; starting guesses as positional shapes and ``loc=``, ``scale=``;
        ``optimizer=`` (SciPy's ``fmin`` by default).

        The values are SciPy's (its ``fit`` runs on the values).  Their derivatives in
        the data and in traced fixed parameters: of SciPy's explicit formulas where it
        uses them (``norm``, ``expon``, ``uniform``, ``laplace``), else by the implicit
        function theorem at SciPy's optimum (a stationary point of the negative
        log-likelihood, or of the moment error, in the free parameters).  Where the
        optimum is not one (the optimizer stopped short of it, or a data value sits on
        the edge of the support), the derivative raises and says what to change.  The
        starting guesses carry no derivative (the optimum does not depend on them).
        Under ``jit`` and ``vmap`` it raises: SciPy fits values.

        >>> import numpy as np, funcgrad as fg
        >>> from funcgrad.scipy.stats import expon, lognorm
        >>> x = np.array([1.0, 2.0, 4.0])
        >>> expon.fit(x)
        (1.0, 1.3333333333333335)
        >>> np.round(fg.jacobian(lambda x: fg.numpy.stack(expon.fit(x)))(x), 6)
        array([[ 1.      ,  0.      ,  0.      ],
               [-0.666667,  0.333333,  0.333333]])
        >>> np.round(fg.grad(lambda x: lognorm.fit(x, floc=0.0)[0])(x), 6)
        array([-0.408248,  0.      ,  0.102062])
        """
        theirs = _scipy_twin(self)
        what = f"{self.name}.fit"
        censored = as_censored(data)
        if censored is not None and censored.num_censored() == 0:
            data, censored = parts(censored)[0], None  # (as SciPy: an array)
        if censored is not None:
            plain_data: Any = to_scipy(censored)
            data = parts(censored)
        else:
            data = fnp.ravel(asarray(data))
            plain_data = _plain(data, what)
        plain_args = tuple(_plain(a, what) for a in args)
        plain_kwds = {k: v if k in ("optimizer", "method") else _plain(v, what)
                      for k, v in kwds.items()}
        best = theirs.fit(plain_data, *plain_args, **plain_kwds)
        fixed = _fixed(self.shapes, kwds)
        if not wanted(data, censored is not None, fixed):
            return best
        method = str(kwds.get("method", "mle")).lower()
        return fitted_parameters(self, theirs, tuple(best), fixed, data, censored is not None,
                                 method)
