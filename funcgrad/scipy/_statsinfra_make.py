"""``make_distribution``: a family of the new infrastructure from a classic distribution
(funcgrad's ``gamma``, or SciPy's ``scipy.stats.gamma`` where funcgrad has that twin) or
from a class that follows SciPy 1.16's protocol (``__make_distribution_version__``,
``parameters``, ``support``, ``pdf``/``cdf``/... methods).

A classic distribution's methods become the family's formulas (funcgrad's, so every
derivative is theirs); its support and its sampler are SciPy's twin's (so ``support()``
and ``sample(rng=...)`` give SciPy's values).  A draw from a sampler of SciPy's own
(``gamma``'s ``standard_gamma``...) is differentiated implicitly: ``u = cdf(x; theta)``
holds the draw's uniform fixed, so ``dx/dtheta = -(dcdf/dtheta) / pdf`` (the implicit
reparameterization gradient), to any order through ``custom_root``.
"""
import importlib
from typing import Any

import numpy as np

from .. import numpy as fnp
from ..lax import custom_root
from ..numpy._convert import concrete_values
from ._distn import DISTRIBUTIONS, rv_continuous, rv_discrete
from ._implicit_root import wants_derivative
from ._statsinfra_transform import ContinuousDistribution

__all__ = ["make_distribution"]

_INF = np.inf


def _scipy_stats(what):
    try:
        import scipy.stats as stats
    except ImportError as e:  # (funcgrad itself never imports SciPy)
        raise ImportError(f"make_distribution({what}) takes the support and sampler from "
                          f"SciPy's twin distribution: pip install scipy") from e
    return stats


def _concrete(value, what):
    return np.asarray(concrete_values(fnp.asarray(value), what,
                                      "Call it outside vmap and jit."))


def make_distribution(dist: Any) -> type:
    """A ``ContinuousDistribution`` subclass from ``dist``: funcgrad's classic
    distribution (``funcgrad.scipy.stats.gamma``), SciPy's (``scipy.stats.gamma``, made
    from funcgrad's twin of it), or an object of SciPy 1.16's ``make_distribution``
    protocol (whose methods may use NumPy on traced values).  Instances take the shape
    parameters by keyword, as SciPy's; every method is differentiable in them and in ``x``.

    >>> import funcgrad as fg, funcgrad.scipy.stats as fst
    >>> Gamma = fst.make_distribution(fst.gamma)
    >>> X = Gamma(a=2.5)
    >>> X, float(X.mean()), float(fg.grad(lambda a: Gamma(a=a).cdf(1.0))(2.5)) < 0
    (Gamma(a=np.float64(2.5)), 2.5, True)
    """
    if isinstance(dist, rv_discrete):
        raise NotImplementedError(f"make_distribution({dist.name}): discrete families "
                                  f"(DiscreteDistribution) are not in funcgrad yet; use "
                                  f"funcgrad.scipy.stats.{dist.name} directly")
    if isinstance(dist, rv_continuous):
        return _from_classic(dist, dist.name)
    if type(dist).__module__.startswith("scipy.stats") and hasattr(dist, "_shape_info"):
        twin = DISTRIBUTIONS.get(dist.name)
        if twin is None or isinstance(twin, rv_discrete):
            raise NotImplementedError(
                f"make_distribution(scipy.stats.{dist.name}): funcgrad has no continuous "
                f"twin of it, so its methods would have no derivatives; use SciPy's "
                f"make_distribution for values alone")
        return _from_classic(twin, dist.name)
    if getattr(dist, "__make_distribution_version__", "0.0.0") >= "1.16.0":
        return _from_protocol(dist)
    raise ValueError("The argument must be an instance of `rv_continuous`, `rv_discrete`, "
                     "or an instance of a class with attribute "
                     "`__make_distribution_version__ >= 1.16`.")


def _from_classic(dist, name):
    stats = _scipy_stats(name)
    scipy_dist = getattr(stats, name)
    shapes = tuple(dist.shapes)
    # (SciPy's names of its families: norm is Normal, expon Exponential...)
    scipy_names = getattr(importlib.import_module("scipy.stats._distribution_infrastructure"),
                          "_distribution_names", {})
    title = scipy_names.get(name, name.capitalize())
    own = lambda m: getattr(type(scipy_dist), m, None) is not getattr(  # noqa: E731
        stats.rv_continuous, m, None)

    def args(params):
        return [params[s] for s in shapes]

    namespace = {
        "__doc__": f"SciPy's ``{name}`` as a family of the new infrastructure "
                   f"(``make_distribution``).",
        "__module__": __name__,
        "_parameterizations": [{s: (-_INF, _INF) for s in shapes}] if shapes else [],
        "_parameter_validity": lambda self, **p: dist._valid(*args(p)) if shapes else True,
        "_logpdf_formula": lambda self, x, **p: dist.logpdf(x, *args(p)),
    }
    namespace["_variable"] = {"endpoints": (scipy_dist.a, scipy_dist.b),
                              "inclusive": (True, True)}
    if own("_get_support"):
        namespace["_support"] = lambda self, **p: _scipy_support(scipy_dist, shapes, p)
    for classic, method, public in [("_cdf", "_cdf_formula", "cdf"),
                                    ("_sf", "_ccdf_formula", "sf"),
                                    ("_logcdf", "_logcdf_formula", "logcdf"),
                                    ("_logsf", "_logccdf_formula", "logsf"),
                                    ("_ppf", "_icdf_formula", "ppf"),
                                    ("_isf", "_iccdf_formula", "isf")]:
        if getattr(dist, classic, None) is not None:
            namespace[method] = (lambda public: lambda self, x, **p: getattr(dist, public)(
                x, *args(p)))(public)
    if getattr(dist, "_entropy", None) is not None:
        namespace["_entropy_formula"] = lambda self, **p: dist.entropy(*args(p))
    means = getattr(dist, "_mean", None) is not None
    variances = getattr(dist, "_var", None) is not None
    if means:
        namespace["_moment_raw_formula"] = (
            lambda self, order, **p: dist.mean(*args(p)) if order == 1 else None)
    if variances:
        namespace["_moment_central_formula"] = (
            lambda self, order, **p: dist.var(*args(p)) if order == 2 else None)
    if own("_rvs"):
        namespace["_sample_formula"] = lambda self, full_shape, *, rng, **p: _implicit_draws(
            self, scipy_dist, shapes, full_shape, rng, p)
    return type(title, (ContinuousDistribution,), namespace)


def _scipy_support(scipy_dist, shapes, params):
    """The support from SciPy's ``_get_support``, which depends on the shape parameters:
    its ends carry no derivative, so asking for them with traced parameters raises."""
    if any(wants_derivative(params[s]) for s in shapes):
        raise NotImplementedError(
            f"the support of {scipy_dist.name} depends on its parameters, and funcgrad "
            f"takes it from SciPy, without derivatives: call support() on parameters that "
            f"carry none (fg.stop_gradient)")
    values = [_concrete(params[s], f"{scipy_dist.name}'s support") for s in shapes]
    with np.errstate(invalid="ignore"):
        a, b = scipy_dist._get_support(*values)
    return np.asarray(a, dtype=float), np.asarray(b, dtype=float)


def _implicit_draws(X, scipy_dist, shapes, full_shape, rng, params):
    """SciPy's draws (its own sampler, same ``rng``), with the derivative of the inverse
    CDF at each draw's uniform: the root of ``cdf(x; theta) = u`` (``u`` held fixed)."""
    values = {s: np.broadcast_to(_concrete(params[s], "sample"), X._shape) for s in shapes}
    draws = np.asarray(scipy_dist._rvs(**values, size=full_shape, random_state=rng),
                       dtype=X._dtype)
    if not any(wants_derivative(params[s]) for s in shapes):
        return draws
    u = np.asarray(fnp.asarray(X._cdf_dispatch(draws, **values)))

    def residual(x):
        return X._cdf_dispatch(x, **params) - u

    def tangent_solve(linear, rhs):  # (elementwise: the Jacobian is diagonal)
        return rhs / linear(fnp.ones_like(rhs))

    return custom_root(residual, draws, lambda f, guess: draws, tangent_solve)


def _from_protocol(dist):
    """SciPy 1.16's protocol: ``parameters`` (a dict or tuple of dicts of domains),
    ``support``, optional ``process_parameters`` and the methods by their public names."""
    parameters = dist.parameters if isinstance(dist.parameters, tuple) else (dist.parameters,)
    namespace = {
        "__doc__": f"``{type(dist).__name__}`` as a family of the new infrastructure "
                   f"(``make_distribution``).",
        "__module__": __name__,
        "_parameterizations": [{k: _domain(v) for k, v in p.items()} for p in parameters],
        "_variable": _domain(dist.support),
    }
    for method in ("sample", "logentropy", "entropy", "median", "mode", "logpdf", "pdf",
                   "logcdf", "cdf", "logccdf", "ccdf", "ilogcdf", "icdf", "ilogccdf",
                   "iccdf"):
        if hasattr(dist, method):
            namespace[f"_{method}_formula"] = (lambda f: lambda self, *a, **k: f(*a, **k))(
                getattr(dist, method))
    if hasattr(dist, "moment"):
        for kind in ("raw", "central", "standardized"):
            namespace[f"_moment_{kind}_formula"] = (
                lambda kind: lambda self, order, **p: dist.moment(order, kind=kind, **p))(kind)
    if hasattr(dist, "process_parameters"):
        namespace["_process_parameters"] = lambda self, **p: dist.process_parameters(**p)
    return type(type(dist).__name__, (ContinuousDistribution,), namespace)


def _domain(info):
    """The protocol's domain: ``(lo, hi)`` or a dict with ``endpoints``, ``inclusive``
    (and ``typical``, which only SciPy's tests use)."""
    if isinstance(info, dict):
        return {k: v for k, v in info.items() if k != "typical"}
    return {"endpoints": tuple(info)}
