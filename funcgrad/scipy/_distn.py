"""The machinery of :mod:`funcgrad.scipy.stats`' distributions: SciPy's argument
convention (shape parameters, then ``loc`` and ``scale``, positionally or by keyword),
NaN for invalid parameters, the methods from a distribution's standardized functions
(``rv_continuous``, ``rv_discrete``) and frozen distributions (``rv_frozen``)."""
import functools
import math
from typing import Any, Callable, Dict, NoReturn, cast

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete, operand as _operand
from ..typing import Array, ArrayLike
from ._statsmv_covariance import Covariance
from ._distn_counts import refuse_count_derivatives, refuse_outcome_derivative
from ._distn_draws import DistnDraws, FrozenDraws
from ._distn_fit import DistnFit
from ._distn_moments import DistnMoments, FrozenMoments

__all__ = ["rv_continuous", "rv_discrete", "rv_frozen"]

_INF = math.inf


def _split(name, shapes, args, kwds, defaults):
    """SciPy's argument convention: shape parameters, then ``loc`` (and ``scale``),
    positionally or by keyword."""
    names = list(shapes) + list(defaults)
    if len(args) > len(names):
        raise TypeError(f"{name} takes at most {len(names)} parameters ({', '.join(names)}); "
                        f"got {len(args)}")
    values = dict(zip(names, args))
    for k, v in kwds.items():
        if k not in names:
            raise TypeError(f"{name}: unknown parameter {k!r}; its parameters are "
                            f"{', '.join(names)}")
        if k in values:
            raise TypeError(f"{name}: parameter {k!r} given twice")
        values[k] = v
    missing = [s for s in shapes if s not in values]
    if missing:
        raise TypeError(f"{name} needs the shape parameter(s) {', '.join(missing)}")
    return ([_operand(values[s]) for s in shapes],
            [_operand(values.get(k, d)) for k, d in defaults.items()])


def _all(*conditions):
    ok = True
    for c in conditions:
        ok = c if ok is True else fnp.logical_and(ok, c)
    return ok


def _checked(ok):
    """``None`` where the parameters are known to be valid everywhere, else the mask."""
    if ok is True or (is_concrete(ok) and bool(np.all(concrete_values(ok, "", "")))):
        return None
    return ok


def _nan_where_nan(out, x):
    """NaN where ``x`` is NaN, as SciPy's methods (a support test such as ``x >= 0`` alone
    would give a density of 0 or a CDF of 1 there).  Concrete ``x`` without NaN: no work."""
    if is_concrete(x) and not np.isnan(concrete_values(x, "", "")).any():
        return out
    return fnp.where(fnp.isnan(x), math.nan, out)


def _log_of_either(small, other_method, args, kwds):
    """``log(small)`` accurately everywhere: ``log1p(-other)`` where ``small > 1/2``
    (``small = 1 - other`` rounds to 1 there: SciPy's logcdf and logsf keep the tail
    ``-other``).  The double-where idiom: neither branch sees the other's inputs, so
    no ``-1/0`` slope leaks into a derivative."""
    big = fnp.greater(small, 0.5)
    rest = other_method(*args, **kwds)
    return fnp.where(big, fnp.log1p(-fnp.where(big, rest, 0.5)),
                     fnp.log(fnp.where(big, 0.5, small)))


def _typed(out, *inputs):
    """``out`` in NumPy 2's type of ``inputs`` (Python numbers weak): float32 stays float32
    where a float64 constant (``gammaln(2.5)``, ``log(df * pi)``...) would widen it."""
    if not hasattr(out, "dtype"):  # (every input a Python number: norm.logpdf(1.3, 0.7, 2.0))
        out = fnp.asarray(out)
    dtype = np.result_type(*[v.dtype if hasattr(v, "dtype") else v for v in inputs], 1.0)
    return fnp.astype(out, dtype) if out.dtype != dtype and dtype.kind == "f" else out


# every distribution by its SciPy name, for the functions that take one (kstest's
# cdf="norm"); each is made once, when its module is imported
DISTRIBUTIONS: Dict[str, "rv_continuous"] = {}


# SciPy's methods give a NumPy scalar, not a 0-d array, for one value (``output[()]``), and
# tuples of them (stats, interval, support, fit): every method below and in the mixins,
# and a subclass's own, returns as SciPy's.
_SCALAR_METHODS = ("logpdf", "pdf", "logpmf", "pmf", "cdf", "logcdf", "sf", "logsf", "ppf",
                   "isf", "entropy", "mean", "var", "std", "median", "stats", "moment",
                   "expect", "interval", "support", "nnlf")


def _as_scipys(out):
    if type(out) is np.ndarray and out.ndim == 0:
        return out[()]
    if type(out) is tuple:
        return tuple(map(_as_scipys, out))
    return out


def _scalars_as_scipys(cls):
    """``cls``'s methods of _SCALAR_METHODS (its own or inherited) returning as SciPy's."""
    for name in _SCALAR_METHODS:
        method = getattr(cls, name, None)
        if callable(method) and not getattr(method, "_as_scipys", False):
            @functools.wraps(method)
            def scalar_method(*args, _method=method, **kwds):
                return _as_scipys(_method(*args, **kwds))
            scalar_method._as_scipys = True
            setattr(cls, name, scalar_method)
    return cls


class rv_continuous(DistnDraws, DistnMoments, DistnFit):
    """A continuous distribution from its standardized functions of ``z = (x - loc) /
    scale`` (``_logpdf``, ``_cdf``... with the shape parameters after ``z``)."""

    shapes = ()
    _defaults = {"loc": 0.0, "scale": 1.0}  # (SciPy's loc and scale, after the shapes)
    # the standardized functions each distribution is given (annotations only: a missing
    # one is absent, which the methods below check with getattr)
    _logpdf: Callable[..., Any]
    _cdf: Callable[..., Any]
    _sf: Callable[..., Any]
    _ppf: Callable[..., Any]
    _isf: Callable[..., Any]
    _entropy: Callable[..., Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _scalars_as_scipys(cls)

    def __init__(self, name: str, **methods: Any) -> None:
        self.name = name
        self.__dict__.update(methods)
        DISTRIBUTIONS[name] = self

    # SciPy's _argcheck: every shape parameter positive (distributions override it)
    def _valid(self, *shape):
        return _all(*[fnp.greater(s, 0) for s in shape])

    def _args(self, args, kwds):
        shape, (loc, scale) = _split(self.name, self.shapes, args, kwds, self._defaults)
        shape = refuse_count_derivatives(self.name, self.shapes, shape)
        ok = _checked(_all(self._valid(*shape), fnp.greater(scale, 0)))
        if ok is None:  # (valid: the common case)
            return shape, (loc, scale), None
        # invalid parameters give NaN, as SciPy's; the computation sees valid stand-ins
        # (the double-where idiom: no NaN from it in the derivatives of valid entries)
        return [fnp.where(ok, s, 1.0) for s in shape], (loc, fnp.where(ok, scale, 1.0)), ok

    def _out(self, out, ok, *inputs):
        if ok is not None:
            out = fnp.where(ok, out, math.nan)
        return _typed(out, *inputs)

    def logpdf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """``log pdf(x)``: ``_logpdf((x - loc) / scale) - log(scale)``."""
        shape, (loc, scale), ok = self._args(args, kwds)
        # (a Python scale stays a Python float: float32 x stays float32)
        log_scale = math.log(scale) if isinstance(scale, (int, float)) else fnp.log(scale)
        x = _operand(x)
        out = _nan_where_nan(self._logpdf((x - loc) / scale, *shape) - log_scale, x)
        return self._out(out, ok, x, *shape, loc, scale)

    def pdf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The probability density, ``exp(logpdf)``."""
        return fnp.exp(self.logpdf(x, *args, **kwds))

    def _standard(self, method, x, args, kwds):
        shape, (loc, scale), ok = self._args(args, kwds)
        fn = getattr(self, method, None)
        if fn is None:
            raise NotImplementedError(f"funcgrad.scipy.stats.{self.name}.{method[1:]} is not "
                                      f"implemented")
        x = _operand(x)
        return self._out(_nan_where_nan(fn((x - loc) / scale, *shape), x), ok, x, *shape,
                         loc, scale)

    def cdf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The cumulative distribution function."""
        return self._standard("_cdf", x, args, kwds)

    def logcdf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """``log cdf(x)``."""
        if getattr(self, "_logcdf", None) is None:
            if getattr(self, "_sf", None) is None:
                return fnp.log(self.cdf(x, *args, **kwds))
            return _log_of_either(self.cdf(x, *args, **kwds), self.sf, (x,) + args, kwds)
        return self._standard("_logcdf", x, args, kwds)

    def sf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The survival function ``1 - cdf(x)``."""
        return self._standard("_sf", x, args, kwds)

    def logsf(self, x: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """``log sf(x)``."""
        if getattr(self, "_logsf", None) is None:
            if getattr(self, "_cdf", None) is None:
                return fnp.log(self.sf(x, *args, **kwds))
            return _log_of_either(self.sf(x, *args, **kwds), self.cdf, (x,) + args, kwds)
        return self._standard("_logsf", x, args, kwds)

    def ppf(self, q: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The quantile function, the inverse of ``cdf``."""
        shape, (loc, scale), ok = self._args(args, kwds)
        if getattr(self, "_ppf", None) is None:
            raise NotImplementedError(f"funcgrad.scipy.stats.{self.name}.ppf is not "
                                      f"implemented")
        q = _operand(q)
        inside = fnp.logical_and(fnp.greater_equal(q, 0), fnp.less_equal(q, 1))
        out = fnp.where(inside, loc + scale * self._ppf(q, *shape), math.nan)  # (as SciPy)
        return self._out(out, ok, q, *shape, loc, scale)

    def entropy(self, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The differential (or, discrete, Shannon) entropy in nats: the standardized
        distribution's, plus ``log(scale)``."""
        own = getattr(self, "_entropy", None)
        if own is None:  # (SciPy's generic integral or sum, or its closed form)
            from ._distn_entropy import standard_entropy
            own = functools.partial(standard_entropy, self)
        shape, (loc, scale), ok = self._args(args, kwds)
        log_scale = math.log(scale) if isinstance(scale, (int, float)) else fnp.log(scale)
        return self._out(fnp.asarray(own(*shape) + log_scale), ok, *shape, scale)

    def _moment(self, which, args, kwds):
        own = getattr(self, which, None)
        if own is None:
            raise NotImplementedError(f"funcgrad.scipy.stats.{self.name}.{which[1:]} is not "
                                      f"implemented")
        shape, (loc, scale), ok = self._args(args, kwds)
        return own(*shape), shape, loc, scale, ok

    def mean(self, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The mean, ``loc + scale * mean`` of the standardized distribution (``inf`` or
        ``nan`` where it diverges or is undefined, as SciPy's).

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> float(fst.gamma.mean(2.5, loc=1.0, scale=2.0)), float(fg.grad(fst.beta.mean)(1.0, 1.0))
        (6.0, 0.25)
        """
        if getattr(self, "_mean", None) is None:  # (the family's moments, as stats gives)
            return cast(Array, self.stats(*args, **dict(kwds, moments="m")))
        m, shape, loc, scale, ok = self._moment("_mean", args, kwds)
        return self._out(fnp.asarray(loc + m * scale), ok, *shape, loc, scale)

    def var(self, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The variance, ``scale**2`` times the standardized distribution's.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.norm.var(scale=3.0)), float(fst.poisson.var(4.0))
        (9.0, 4.0)
        """
        if getattr(self, "_var", None) is None:  # (the family's moments, as stats gives)
            return cast(Array, self.stats(*args, **dict(kwds, moments="v")))
        v, shape, loc, scale, ok = self._moment("_var", args, kwds)
        return self._out(fnp.asarray(v * (scale * scale)), ok, *shape, loc, scale)

    def std(self, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The standard deviation, ``sqrt(var)``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.expon.std(scale=2.0))
        2.0
        """
        return fnp.sqrt(self.var(*args, **kwds))

    def median(self, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The median, ``ppf(0.5)``.

        >>> import math, funcgrad.scipy.stats as fst
        >>> float(fst.expon.median()) == math.log(2.0)
        True
        """
        return self.ppf(0.5, *args, **kwds)

    def isf(self, q: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The inverse survival function, ``ppf(1 - q)`` (from the upper tail directly
        where the distribution has its own, as SciPy's ``norm``: ``-ndtri(q)``)."""
        own = getattr(self, "_isf", None)
        if own is None:
            if getattr(self, "_ppf", None) is None:
                raise NotImplementedError(f"funcgrad.scipy.stats.{self.name}.isf is not "
                                          f"implemented (it has no ppf)")
            q = _operand(q)
            return self.ppf(1.0 - q, *args, **kwds)
        shape, (loc, scale), ok = self._args(args, kwds)
        q = _operand(q)
        inside = fnp.logical_and(fnp.greater_equal(q, 0), fnp.less_equal(q, 1))
        out = fnp.where(inside, loc + scale * own(q, *shape), math.nan)
        return self._out(out, ok, q, *shape, loc, scale)

    def __call__(self, *args: ArrayLike, **kwds: ArrayLike) -> "rv_frozen":
        """The distribution with its parameters fixed, as SciPy's ``norm(loc, scale)``."""
        _split(self.name, self.shapes, args, kwds, self._defaults)  # (checked now, as SciPy)
        return rv_frozen(self, args, kwds)

    def __repr__(self) -> str:
        return f"<funcgrad.scipy.stats.{self.name}>"


class rv_frozen(FrozenDraws, FrozenMoments):
    """A distribution with its parameters fixed (``norm(0.0, 2.0)``,
    ``multivariate_normal(mean, cov)``), as SciPy's frozen distributions: the methods take
    ``x`` alone.  Differentiable in ``x`` and in the frozen parameters.

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> float(fg.grad(lambda m: fst.norm(m, 2.0).logpdf(1.0))(0.0))
    0.25
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _scalars_as_scipys(cls)

    def __init__(self, dist: Any, args: tuple, kwds: dict) -> None:
        self.dist, self.args, self.kwds = dist, args, kwds

    def _method(self, name, x):
        method = getattr(self.dist, name, None)
        if method is None:
            raise AttributeError(f"{self.dist!r} has no method {name}")
        return method(x, *self.args, **self.kwds)

    def logpdf(self, x: ArrayLike) -> Array:
        """``log pdf(x)``."""
        return self._method("logpdf", x)

    def pdf(self, x: ArrayLike) -> Array:
        """The probability density."""
        return self._method("pdf", x)

    def logpmf(self, k: ArrayLike) -> Array:
        """``log pmf(k)`` (a discrete distribution)."""
        return self._method("logpmf", k)

    def pmf(self, k: ArrayLike) -> Array:
        """The probability mass function (a discrete distribution)."""
        return self._method("pmf", k)

    def cdf(self, x: ArrayLike) -> Array:
        """The cumulative distribution function."""
        return self._method("cdf", x)

    def logcdf(self, x: ArrayLike) -> Array:
        """``log cdf(x)``."""
        return self._method("logcdf", x)

    def sf(self, x: ArrayLike) -> Array:
        """The survival function ``1 - cdf(x)``."""
        return self._method("sf", x)

    def logsf(self, x: ArrayLike) -> Array:
        """``log sf(x)``."""
        return self._method("logsf", x)

    def ppf(self, q: ArrayLike) -> Array:
        """The quantile function."""
        return self._method("ppf", q)

    def isf(self, q: ArrayLike) -> Array:
        """The inverse survival function."""
        return self._method("isf", q)

    def _summary(self, name):
        method = getattr(self.dist, name, None)
        if method is None:
            raise AttributeError(f"{self.dist!r} has no method {name}")
        return method(*self.args, **self.kwds)

    def entropy(self) -> Array:
        """The entropy of the distribution."""
        return self._summary("entropy")

    def mean(self) -> Array:
        """The mean of the distribution."""
        return self._summary("mean")

    def var(self) -> Array:
        """The variance of the distribution."""
        return self._summary("var")

    def std(self) -> Array:
        """The standard deviation of the distribution."""
        return self._summary("std")

    def median(self) -> Array:
        """The median of the distribution."""
        return self._summary("median")

    def __repr__(self) -> str:
        return f"<frozen {self.dist!r}>"


def _multivariate_parameters(dist, vector, matrix, matrix_name):
    """``(vector or None, matrix as (..., d, d), d)`` by SciPy's ``_process_parameters``
    of a multivariate distribution ``dist``: the size ``d`` from ``vector`` (its last
    axis), else from ``matrix``; a scalar ``matrix`` times the identity, a 1-d one the
    diagonal.  ``dist`` and ``matrix_name`` name the distribution and the matrix in the
    error.  A :class:`~funcgrad.scipy.stats.Covariance` gives its dense matrix."""
    if isinstance(matrix, Covariance):
        matrix = matrix.covariance
    matrix = fnp.asarray(matrix)
    vector = None if vector is None else fnp.asarray(vector)
    sized = matrix if vector is None else vector
    d = sized.shape[-1] if sized.ndim else 1
    if matrix.ndim == 0:
        matrix = matrix * np.eye(d)
    elif matrix.ndim == 1:  # the diagonal, as SciPy
        matrix = matrix * np.eye(matrix.shape[0])
    if matrix.shape[-2:] != (d, d):
        raise ValueError(f"{dist}: {matrix_name} has shape {tuple(matrix.shape)} for {d} "
                         f"variables; give a ({d}, {d}) matrix, its diagonal or a scalar")
    return vector, matrix, d


def _support(mask, value, outside=-_INF):
    return fnp.where(mask, value, outside)


def _positive(z):
    """``(z > 0, z where positive else 1)``: the double-where idiom's safe input."""
    inside = fnp.greater(z, 0)
    return inside, fnp.where(inside, z, 1.0)


_scalars_as_scipys(rv_continuous)
_scalars_as_scipys(rv_frozen)


class rv_discrete(rv_continuous):
    """A discrete distribution: ``logpmf(k, *shapes, loc=0)`` and ``pmf``, ``cdf``, ``sf``
    (``k`` a plain or traced array of integers; differentiable in the shapes)."""

    _defaults = {"loc": 0.0}

    def _args(self, args, kwds):
        shape, (loc,) = _split(self.name, self.shapes, args, kwds, self._defaults)
        shape = refuse_count_derivatives(self.name, self.shapes, shape)
        ok = _checked(self._valid(*shape))
        if ok is None:
            return shape, (loc, 1.0), None
        return [fnp.where(ok, s, 1.0) for s in shape], (loc, 1.0), ok

    def logpmf(self, k: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """``log pmf(k)`` (no derivative in ``k`` or ``loc``: the pmf jumps at whole ``k``)."""
        shape, (loc, _), ok = self._args(args, kwds)
        fn = getattr(self, "_logpmf", None)
        if fn is None:
            raise NotImplementedError(f"funcgrad.scipy.stats.{self.name}.logpmf is not "
                                      f"implemented")
        k = _operand(k)
        z = refuse_outcome_derivative(self.name, k - loc)
        return self._out(_nan_where_nan(fn(z, *shape), k), ok, k, *shape, loc, 1.0)

    def pmf(self, k: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The probability mass function, ``exp(logpmf)``."""
        return fnp.exp(self.logpmf(k, *args, **kwds))

    def logpdf(self, *args: ArrayLike, **kwds: ArrayLike) -> NoReturn:
        raise AttributeError(f"{self.name} is discrete: use logpmf, as in SciPy")

    # the support [a, b] of the standardized distribution, (0, inf) where not given (b =
    # inf: unbounded, the quantiles search up to a bound from the variance)
    _bounded = False
    _bounds: Callable[..., Any]

    def _quantile(self, q, args, kwds, upper):
        from ._discrete_quantiles import quantile
        shape, (loc, _), ok = self._args(args, kwds)
        if getattr(self, "_isf" if upper else "_ppf", None) is None and getattr(
                self, "_sf" if upper else "_cdf", None) is None:
            raise NotImplementedError(f"funcgrad.scipy.stats.{self.name}."
                                      f"{'isf' if upper else 'ppf'} is not implemented")
        return quantile(self, _operand(q), shape, loc, ok, upper)

    def ppf(self, q: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The quantile function: the least ``k`` with ``cdf(k) >= q``, as SciPy's (``a - 1``
        at ``q = 0``, ``a`` the support's left end; float64; derivative 0, a step function).

        >>> import funcgrad.scipy.stats as fst
        >>> fst.poisson.ppf([0.0, 0.5, 1.0], 3.5)
        array([-1.,  3., inf])
        """
        return self._quantile(q, args, kwds, False)

    def isf(self, q: ArrayLike, *args: ArrayLike, **kwds: ArrayLike) -> Array:
        """The inverse survival function: the least ``k`` with ``sf(k) <= q``, as SciPy's
        (``a - 1`` at ``q = 1``; float64; derivative 0).

        >>> import funcgrad.scipy.stats as fst
        >>> fst.binom.isf([0.0, 0.5, 1.0], 10, 0.3)
        array([10.,  3., -1.])
        """
        return self._quantile(q, args, kwds, True)
