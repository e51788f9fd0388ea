"""The core of SciPy 1.15+'s distribution infrastructure (``scipy.stats.Normal(mu=...,
sigma=...)`` and its kin), with parameters and arguments that may be traced.

A family declares its parameterizations and support and gives whichever formulas it has,
under SciPy's names (``_logpdf_formula(x, **params)``, ``_icdf_formula``,
``_moment_central_formula(order, **params)``...); each public method takes the formula
for its quantity or derives it from another one (``pdf = exp(logpdf)``, ``cdf = 1 - ccdf``,
``icdf(p) = iccdf(1 - p)``, a central moment from raw ones...), so one set of formulas
serves every method, and every derivative comes from the primitives under them.  Where
SciPy falls back on quadrature or a root search and no formula leads to the quantity, the
method raises ``NotImplementedError`` naming the formula that is missing: a value is
never approximated silently.

Arguments outside the support give SciPy's values (``pdf`` 0, ``cdf`` 0 or 1...) from a
point inside it (the double-where idiom: no NaN from the formula reaches a derivative);
invalid parameters give NaN.
"""
import math
from typing import Any, Dict, Optional, Tuple

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import concrete_values, is_concrete, operand
from ..primitives.structural import stop_gradient
from ..typing import Array, ArrayLike
from ._statsinfra_dispatch import FormulaDispatch, scalar as _scalar
from ._statsinfra_policies import PolicyAttributes

_INF = math.inf
_LOG_HALF = math.log(0.5)


def _known_false(mask):
    """Whether ``mask`` is known (concrete) to be False everywhere: the work it would
    select can be skipped."""
    if mask is False or mask is None:
        return True
    return is_concrete(mask) and not bool(np.any(concrete_values(mask, "", "")))




def _where(mask, value, out):
    """``where(mask, value, out)``, skipped where ``mask`` is known to select nothing."""
    return out if _known_false(mask) else fnp.where(mask, value, out)


class _Domain:
    """An interval whose ends are numbers, names of parameters (``Uniform``'s ``x`` lies
    in ``[a, b]``) or functions of the parameters; ``inclusive`` says which ends belong."""

    def __init__(self, endpoints=(-_INF, _INF), inclusive=(False, False)):
        self.endpoints, self.inclusive = tuple(endpoints), tuple(inclusive)

    def bounds(self, params):
        def end(e):
            if isinstance(e, str):
                return params[e]
            return e(**params) if callable(e) else e
        return end(self.endpoints[0]), end(self.endpoints[1])

    def contains(self, value, params):
        lo, hi = self.bounds(params)
        above = (fnp.greater_equal if self.inclusive[0] else fnp.greater)(value, lo)
        below = (fnp.less_equal if self.inclusive[1] else fnp.less)(value, hi)
        return fnp.logical_and(above, below)


def as_domain(spec):
    """A :class:`_Domain` from ``(lo, hi)``, ``{'endpoints': ..., 'inclusive': ...}`` (the
    form ``make_distribution``'s protocol uses) or SciPy's ``_RealInterval`` or
    ``_RealParameter`` (a family written against SciPy's private classes)."""
    if isinstance(spec, _Domain):
        return spec
    spec = getattr(spec, "domain", spec)
    if isinstance(spec, dict):
        return _Domain(spec.get("endpoints", (-_INF, _INF)),
                       spec.get("inclusive", (False, False)))
    if hasattr(spec, "endpoints"):
        return _Domain(spec.endpoints, getattr(spec, "inclusive", (False, False)))
    return _Domain(spec)


def as_parameterizations(specs):
    """``[{name: _Domain}]`` from a family's ``_parameterizations``: dicts of domains, or
    SciPy's ``_Parameterization`` objects (their ``parameters`` dict)."""
    out = []
    for spec in specs:
        spec = getattr(spec, "parameters", spec)
        if not isinstance(spec, dict):  # a list of SciPy's _RealParameter
            spec = {p.name: p for p in spec}
        out.append({name: as_domain(d) for name, d in spec.items()})
    return out


class UnivariateDistribution(PolicyAttributes, FormulaDispatch):
    """What every distribution of the new infrastructure shares: parameters by keyword,
    broadcast together (attributes of the instance), NaN where invalid; the public
    methods, each from the family's formulas; moments of every kind; sampling."""

    _parameterizations: Any = ()
    _variable: Any = _Domain()

    def __init__(self, *, tol: Any = None, validation_policy: Optional[str] = None,
                 cache_policy: Optional[str] = None, **parameters: ArrayLike) -> None:
        # (tolerances and policies steer SciPy's numerical fallbacks and caches, which
        # funcgrad does not have: they are kept as attributes, as SciPy's)
        self.tol, self.validation_policy, self.cache_policy = tol, validation_policy, \
            cache_policy
        parameters = {k: v for k, v in sorted(parameters.items()) if v is not None}
        self._original_parameters = parameters
        self._set_parameters(parameters)

    def _set_parameters(self, parameters):
        name = type(self).__name__
        self._support_domain = as_domain(self._variable)
        self._shape: Tuple[int, ...] = ()
        self._dtype = np.dtype(np.float64)
        self._invalid = None
        families = as_parameterizations(self._parameterizations)
        if not families:
            if parameters:
                raise ValueError(f"The `{name}` distribution family does not accept "
                                 f"parameters, but parameters `{set(parameters)}` were "
                                 f"provided.")
            self._parameters = self._process_parameters()
            return
        domains = next((f for f in families if set(f) == set(parameters)), None)
        if domains is None:
            given = "{" + ", ".join(parameters) + "}"
            raise ValueError(
                f"The `{name}` distribution family requires parameters, but none were "
                f"provided." if not parameters else
                f"The provided parameters `{given}` do not match a supported "
                f"parameterization of the `{name}` distribution family; its "
                f"parameterizations are " + " or ".join(
                    "{" + ", ".join(f) + "}" for f in families) + ".")
        values = {}
        for key, value in parameters.items():
            value = fnp.asarray(operand(value))
            if value.dtype.kind in "iub":
                value = fnp.astype(value, np.float64)
            elif value.dtype.kind != "f":
                raise TypeError(f"Parameter `{key}` must be of real dtype; got "
                                f"{value.dtype}.")
            values[key] = value
        # (what repr shows, as SciPy's: the values made real arrays, NaN where invalid,
        # where they came in one shape; as given where they were broadcast)
        shapes = {tuple(v.shape) for v in values.values()}
        self._original_parameters = ({k: _scalar(v) for k, v in values.items()}
                                     if len(shapes) == 1 else dict(parameters))
        try:
            shape = np.broadcast_shapes(*[v.shape for v in values.values()])
        except ValueError:
            raise ValueError(f"The parameters `{set(values)}` provided to the `{name}` "
                             f"distribution family cannot be broadcast to the same "
                             f"shape: their shapes are "
                             f"{[tuple(v.shape) for v in values.values()]}.") from None
        dtype = np.result_type(*[v.dtype for v in values.values()])
        values = {k: fnp.broadcast_to(fnp.astype(v, dtype) if v.dtype != dtype else v,
                                      shape) if v.shape != shape or v.dtype != dtype else v
                  for k, v in values.items()}
        valid = True
        for key, domain in domains.items():
            inside = domain.contains(values[key], values)
            valid = inside if valid is True else fnp.logical_and(valid, inside)
        extra = self._parameter_validity(**values)
        if extra is not True:
            valid = extra if valid is True else fnp.logical_and(valid, extra)
        invalid = fnp.logical_not(valid)
        if not _known_false(invalid):
            self._invalid = invalid
            values = {k: fnp.where(invalid, math.nan, v) for k, v in values.items()}
            if len(shapes) == 1:
                self._original_parameters = dict(values)
        self._shape, self._dtype = tuple(shape), np.dtype(dtype)
        self._parameters = self._process_parameters(**values)

    def _process_parameters(self, **params: Any) -> Dict[str, Any]:
        return params

    def _parameter_validity(self, **params):
        """A mask of valid parameters beyond their domains (``True``: no more checks);
        what ``make_distribution`` uses for a classic distribution's ``_argcheck``."""
        return True

    def __getattr__(self, name: str) -> Any:
        # the parameters are attributes, as SciPy's (X.mu, X.sigma)
        parameters = self.__dict__.get("_parameters")
        if parameters is not None and name in parameters:
            return _scalar(parameters[name])
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # ----- the output conventions -------------------------------------------------

    def _typed(self, out, dtype=None):
        out = fnp.asarray(out)
        dtype = np.result_type(out.dtype, dtype or self._dtype)
        if out.dtype != dtype:
            out = fnp.astype(out, dtype)
        if tuple(out.shape) != self._shape and dtype.kind != "c" or \
                len(out.shape) < len(self._shape):
            out = fnp.broadcast_to(out, np.broadcast_shapes(out.shape, self._shape))
        return out

    def _property(self, out):
        if out is None:
            raise NotImplementedError(self._missing())
        out = self._typed(out)
        return _scalar(_where(self._invalid, math.nan, out))

    def _missing(self, what="this quantity", formulas=()):
        hint = (" (it needs one of " + ", ".join(f"_{f}_formula" for f in formulas) + ")"
                if formulas else "")
        return (f"`{type(self).__name__}` has no formula for {what}{hint}, and funcgrad does "
                f"not approximate it by quadrature or a root search: give the formula, or "
                f"use SciPy for a value without derivatives.")

    def _argument(self, x, method):
        x = fnp.asarray(operand(x))
        if x.dtype.kind not in "fiub":
            raise TypeError(f"{type(self).__name__}.{method}: the argument must be real; got "
                            f"{x.dtype}")
        dtype = np.result_type(x.dtype, self._dtype)
        if x.dtype != dtype:
            x = fnp.astype(x, dtype)
        try:
            shape = np.broadcast_shapes(x.shape, self._shape)
        except ValueError:
            raise ValueError(f"The argument provided to `{type(self).__name__}.{method}` "
                             f"(shape {tuple(x.shape)}) cannot be broadcast to the shape of "
                             f"the distribution parameters, {self._shape}.") from None
        return (x if tuple(x.shape) == shape else fnp.broadcast_to(x, shape)), dtype

    def _inside_point(self):
        """A point inside the support, for arguments outside it (no derivative: the
        results there are constants)."""
        a, b = (stop_gradient(fnp.asarray(e)) for e in self._support_arrays())
        fa, fb = fnp.isfinite(a), fnp.isfinite(b)
        return fnp.where(fa & fb, 0.5 * (fnp.where(fa, a, 0.0) + fnp.where(fb, b, 0.0)),
                         fnp.where(fa, a + 1.0, fnp.where(fb, b - 1.0, 0.0)))

    # arguments outside the support (or the probabilities' range): (value below, above)
    _discrete = False
    _OUTSIDE = {"logpdf": (-_INF, -_INF), "pdf": (0.0, 0.0), "logcdf": (-_INF, 0.0),
                "logpmf": (-_INF, -_INF), "pmf": (0.0, 0.0),
                "cdf": (0.0, 1.0), "logccdf": (0.0, -_INF), "ccdf": (1.0, 0.0)}
    _PROBABILITY = {"icdf": (0.0, 1.0), "iccdf": (0.0, 1.0), "ilogcdf": (-_INF, 0.0),
                    "ilogccdf": (-_INF, 0.0)}

    def _masked(self, method, x):
        """``method`` (a name of ``_OUTSIDE`` or ``_PROBABILITY``) at ``x``, with SciPy's
        values outside its domain, unscalared."""
        x, dtype = self._argument(x, method)
        dispatch = getattr(self, f"_{method}_dispatch")
        inverse = method in self._PROBABILITY
        if inverse:
            low, high = self._PROBABILITY[method]
            below, above = fnp.less(x, low), fnp.greater(x, high)
            at_low, at_high = fnp.equal(x, low), fnp.equal(x, high)
            outside = below | above | at_low | at_high
            inside = _LOG_HALF if method.startswith("ilog") else 0.5
        else:
            low, high = self._support_arrays()
            strict = method in ("pdf", "logpdf", "pmf", "logpmf")
            inc_low, inc_high = self._support_domain.inclusive
            # (a discrete CDF keeps its value at the support's left end: the mass there)
            keep_low = self._discrete and not strict
            below = fnp.less(x, low) if (strict and inc_low) or keep_low else \
                fnp.less_equal(x, low)
            above = fnp.greater(x, high) if strict and inc_high else \
                fnp.greater_equal(x, high)
            if self._discrete and strict:  # (no mass between the integers)
                below = below | fnp.not_equal(x, fnp.floor(x))
            outside = below | above
        if _known_false(outside):
            out = fnp.asarray(dispatch(x, **self._parameters))
        else:
            safe = fnp.where(outside, inside if inverse else self._inside_point(), x)
            out = fnp.asarray(dispatch(safe, **self._parameters))
            if inverse:
                a, b = self._support_arrays()
                first, last = (b, a) if method.endswith("ccdf") else (a, b)
                out = fnp.where(below | above, math.nan,
                                fnp.where(at_low, first, fnp.where(at_high, last, out)))
            else:
                value_below, value_above = self._OUTSIDE[method]
                out = fnp.where(below, value_below, fnp.where(above, value_above, out))
        if method in ("cdf", "ccdf"):  # (rounding: a probability stays in [0, 1])
            out = fnp.where(out > 1.0, 1.0, fnp.where(out < 0.0, 0.0, out))
        elif method in ("logcdf", "logccdf"):
            out = fnp.where(out > 0.0, 0.0, out)
        out = self._typed(out, dtype)
        return _where(self._invalid, math.nan, out)

    # ----- the public methods -----------------------------------------------------

    def support(self) -> Tuple[Array, Array]:
        """The support's ends ``(a, b)``, broadcast to the parameters' shape (NaN where
        the parameters are invalid).

        >>> import funcgrad.scipy.stats as fst
        >>> fst.Uniform(a=1.0, b=3.0).support()
        (np.float64(1.0), np.float64(3.0))
        """
        return tuple(_scalar(e) for e in self._support_arrays())

    def _support_arrays(self):
        a, b = self._support(**self._parameters)
        a, b = self._typed(a), self._typed(b)
        return _where(self._invalid, math.nan, a), _where(self._invalid, math.nan, b)

    def _support(self, **params):
        return self._support_domain.bounds(params)

    def logpdf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The logarithm of the probability density function at ``x``.

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> float(fg.grad(lambda mu: fst.Normal(mu=mu, sigma=2.0).logpdf(1.0))(0.0))
        0.25
        """
        return _scalar(self._masked("logpdf", x))

    def pdf(self, x: ArrayLike, /, *, method: Any = None) -> Array:
        """The probability density function at ``x``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Uniform(a=0.0, b=4.0).pdf(1.0))
        0.25
        """
        return _scalar(self._masked("pdf", x))

    def cdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
            method: Any = None) -> Array:
        """The cumulative distribution function at ``x``; with ``y``, the probability
        of the interval between ``x`` and ``y``.

        >>> import funcgrad.scipy.stats as fst
        >>> X = fst.Uniform(a=0.0, b=4.0)
        >>> float(X.cdf(1.0)), float(X.cdf(1.0, 3.0))
        (0.25, 0.5)
        """
        return _scalar(self._masked("cdf", x)) if y is None else self._two("cdf", x, y)

    def logcdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
               method: Any = None) -> Array:
        """The logarithm of :meth:`cdf` (complex for two arguments, as SciPy's:
        ``pi*1j`` is added where ``y < x``).

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Normal().logcdf(-40.0)), 3)
        -804.608
        """
        return _scalar(self._masked("logcdf", x)) if y is None else self._two("logcdf", x, y)

    def ccdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
             method: Any = None) -> Array:
        """The complementary cumulative distribution function ``1 - cdf``; with ``y``,
        the probability outside the interval between ``x`` and ``y``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Uniform(a=0.0, b=4.0).ccdf(1.0))
        0.75
        """
        return _scalar(self._masked("ccdf", x)) if y is None else self._two("ccdf", x, y)

    def logccdf(self, x: ArrayLike, y: Optional[ArrayLike] = None, /, *,
                method: Any = None) -> Array:
        """The logarithm of :meth:`ccdf`.

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.Normal().logccdf(40.0)), 3)
        -804.608
        """
        return _scalar(self._masked("logccdf", x)) if y is None else \
            self._two("logccdf", x, y)

    def icdf(self, p: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`cdf` (the quantile function).

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> float(fg.grad(lambda s: fst.Normal(mu=0.0, sigma=s).icdf(0.5))(1.0))
        0.0
        """
        return _scalar(self._masked("icdf", p))

    def iccdf(self, p: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`ccdf`.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Uniform(a=0.0, b=4.0).iccdf(0.25))
        3.0
        """
        return _scalar(self._masked("iccdf", p))

    def ilogcdf(self, logp: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`logcdf`.

        >>> import math, funcgrad.scipy.stats as fst
        >>> float(fst.Uniform(a=0.0, b=4.0).ilogcdf(math.log(0.25)))
        1.0
        """
        return _scalar(self._masked("ilogcdf", logp))

    def ilogccdf(self, logp: ArrayLike, /, *, method: Any = None) -> Array:
        """The inverse of :meth:`logccdf`.

        >>> import math, funcgrad.scipy.stats as fst
        >>> float(fst.Uniform(a=0.0, b=4.0).ilogccdf(math.log(0.25)))
        3.0
        """
        return _scalar(self._masked("ilogccdf", logp))

    def entropy(self, *, method: Any = None) -> Array:
        """The differential entropy in nats.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Logistic().entropy())
        2.0
        """
        return self._property(self._entropy_dispatch(**self._parameters))

    def logentropy(self, *, method: Any = None) -> Array:
        """The logarithm of :meth:`entropy`, complex as SciPy's (``pi*1j`` where the
        entropy is negative).

        >>> import funcgrad.scipy.stats as fst
        >>> complex(fst.Uniform(a=0.0, b=0.5).logentropy()).imag == 3.141592653589793
        True
        """
        out = self._logentropy_dispatch(**self._parameters)
        out = fnp.asarray(out)
        out = fnp.astype(out, np.result_type(out.dtype, np.complex64, self._dtype))
        return self._property(out)

    def median(self, *, method: Any = None) -> Array:
        """The median.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Uniform(a=1.0, b=4.0).median())
        2.5
        """
        return self._property(self._median_dispatch(**self._parameters))

    def mode(self, *, method: Any = None) -> Array:
        """The mode (from the family's formula: funcgrad does not search for it).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal(mu=2.0, sigma=3.0).mode())
        2.0
        """
        return self._property(self._mode_dispatch(**self._parameters))

    def mean(self, *, method: Any = None) -> Array:
        """The mean, ``moment(1, 'raw')``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Uniform(a=1.0, b=4.0).mean())
        2.5
        """
        return self.moment(1, "raw")

    def variance(self, *, method: Any = None) -> Array:
        """The variance, ``moment(2, 'central')``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal(mu=1.0, sigma=3.0).variance())
        9.0
        """
        return self.moment(2, "central")

    def standard_deviation(self, *, method: Any = None) -> Array:
        """The standard deviation, the square root of :meth:`variance`.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal(mu=1.0, sigma=3.0).standard_deviation())
        3.0
        """
        return _scalar(fnp.sqrt(self.variance()))

    def skewness(self, *, method: Any = None) -> Array:
        """The skewness, ``moment(3, 'standardized')``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal().skewness())
        0.0
        """
        return self.moment(3, "standardized")

    def kurtosis(self, *, method: Any = None, convention: str = "non-excess") -> Array:
        """The kurtosis, ``moment(4, 'standardized')``; less 3 with
        ``convention='excess'``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal().kurtosis()), float(fst.Normal().kurtosis(convention='excess'))
        (3.0, 0.0)
        """
        conventions = {"non-excess", "excess"}
        if not isinstance(convention, str) or convention.lower() not in conventions:
            raise ValueError(f"Parameter `convention` of `{type(self).__name__}.kurtosis` "
                             f"must be one of {conventions}.")
        k = self.moment(4, "standardized")
        return _scalar(k - 3.0) if convention.lower() == "excess" else k

    def moment(self, order: int = 1, kind: str = "raw", *, method: Any = None) -> Array:
        """The moment of integer ``order`` about zero (``kind='raw'``), about the mean
        (``'central'``) or of the standardized variable (``'standardized'``).

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.Normal(mu=1.0, sigma=2.0).moment(2))
        5.0
        """
        kinds = ("raw", "central", "standardized")
        name = type(self).__name__
        try:
            n = float(np.asarray(order).item())
        except (ValueError, TypeError):
            n = -1.0
        if not (n >= 0 and n == int(n)):
            raise ValueError(f"Argument `order` of `{name}.moment` must be a finite, "
                             f"positive integer.")
        if not isinstance(kind, str) or kind.lower() not in kinds:
            raise ValueError(f"Argument `kind` of `{name}.moment` must be one of "
                             f"{set(kinds)}.")
        kind, n = kind.lower(), int(n)
        out = getattr(self, f"_moment_{kind}")(n, "all", **self._parameters)
        if out is None:
            raise NotImplementedError(self._missing(
                f"the {kind} moment of order {n}",
                ("moment_raw", "moment_central", "moment_standardized")))
        return self._property(out)

    def sample(self, shape: Any = (), *, method: Any = None, rng: Any = None) -> Array:
        """Random draws of shape ``shape + (the parameters' shape)``: SciPy's for the same
        ``rng``, and differentiable in the parameters (by the inverse CDF where the
        family has no sampler of its own).

        >>> import numpy as np, funcgrad.scipy.stats as fst
        >>> x = fst.Normal(mu=1.0, sigma=2.0).sample(3, rng=np.random.default_rng(0))
        >>> x.shape
        (3,)
        """
        shape = (shape,) if not np.iterable(shape) else tuple(shape)
        full_shape = tuple(int(s) for s in shape) + self._shape
        rng = np.random.default_rng(rng)
        out = fnp.asarray(self._sample_dispatch(full_shape, rng=rng, **self._parameters))
        if out.dtype != self._dtype:
            out = fnp.astype(out, self._dtype)
        out = _where(self._invalid, math.nan, out)
        return _scalar(out)

    def plot(self, x: str = "x", y: Optional[str] = None, *, t: Any = None,
             ax: Any = None) -> Any:
        """Plot ``y`` (``'pdf'`` by default; any method of one argument) against ``x``
        with matplotlib, from ``icdf(0.001)`` to ``icdf(0.999)`` unless ``t = (min,
        max)``; one line per distribution of a batch; returns the axes.  Needs matplotlib; plotted values carry no derivatives.

        >>> import funcgrad.scipy.stats as fst
        >>> callable(fst.Normal().plot)
        True
        """
        try:
            import matplotlib.pyplot as plt
        except ImportError as e:
            raise ModuleNotFoundError("plot needs matplotlib: pip install matplotlib") from e
        if x != "x":
            raise NotImplementedError("funcgrad's plot draws a function of x (x='x'); plot "
                                      "other pairs with matplotlib directly")
        y = "pdf" if y is None else y
        if t is None:  # (one grid for every distribution of a batch)
            t = (np.min(stop_gradient(self.icdf(0.001))), np.max(stop_gradient(
                self.icdf(0.999))))
        start, stop = (float(np.asarray(stop_gradient(v))) for v in t)
        grid = np.linspace(start, stop, 200)
        values = np.asarray(stop_gradient(getattr(self, y)(
            grid.reshape((-1,) + (1,) * len(self._shape)))))
        ax = plt.gca() if ax is None else ax
        ax.plot(grid, values.reshape(len(grid), -1))
        ax.set_xlabel("x")
        ax.set_ylabel(y)
        ax.set_title(str(self))
        return ax

    def __repr__(self) -> str:
        with np.printoptions(threshold=10):
            inner = ", ".join(f"{k}={v!r}" for k, v in self._original_parameters.items())
        return f"{type(self).__name__}({inner})"

    def __str__(self) -> str:
        with np.printoptions(threshold=10):
            inner = ", ".join(f"{k}={v!s}" for k, v in self._original_parameters.items())
        return f"{type(self).__name__}({inner})"
