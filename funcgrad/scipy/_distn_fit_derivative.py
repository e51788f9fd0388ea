"""The derivatives of a distribution's fitted parameters (``rv_continuous.fit``, whose values
SciPy computes) in the data and in the parameters held fixed.

Where SciPy's fit is an explicit formula of the data (``norm``: the mean and the standard
deviation; ``expon``, ``uniform``: the data's minimum and maximum; ``laplace``: the median
and the mean absolute deviation from it), the derivative is that formula's: the likelihood
is not stationary at the minimum or maximum of the data (it is cut off there), and not
twice differentiable at the median, so the implicit function theorem does not apply.

Elsewhere SciPy's fit minimizes the negative log-likelihood (or, ``method='MM'``, the
squared relative error of the first moments) over the free parameters ``theta``; at a
minimum its gradient is zero for every nearby data, so ``H dtheta = -(d2 f / dtheta
ddata) ddata`` (:mod:`._implicit_minimum`).  That holds at a stationary point only: the
Newton step ``H^-1 g`` at SciPy's answer must be below 1e-6 of each parameter (or of its
standard error ``sqrt(H^-1)_ii``), ``H`` positive definite, and no uncensored value on the
edge of the support (where the likelihood is cut off); else the derivative raises.
"""
import math
from typing import Any, Callable, Dict

import numpy as np

from .. import numpy as fnp
from ..api import grad
from ..jacobians import jacobian
from ..numpy._convert import asarray, concrete_values
from ..primitives.structural import stop_gradient
from ._implicit_minimum import differentiable_minimum
from ._implicit_root import wants_derivative

__all__ = ["neg_log_likelihood", "wanted", "fitted_parameters"]

# SciPy's fit of these families is an explicit formula: theta = (loc, scale)
_Formula = Callable[[Any, Dict[int, Any]], tuple]


def _norm(x, fixed):
    loc = fixed.get(0, fnp.mean(x))
    return loc, fixed.get(1, fnp.sqrt(fnp.mean((x - loc) ** 2)))


def _expon(x, fixed):
    loc = fixed.get(0, fnp.min(x))
    return loc, fixed.get(1, fnp.mean(x) - loc)


def _uniform(x, fixed):
    if 1 in fixed:  # (the support centred on the data's range)
        return fnp.min(x) - 0.5 * (fixed[1] - (fnp.max(x) - fnp.min(x))), fixed[1]
    loc = fixed.get(0, fnp.min(x))
    return loc, fnp.max(x) - loc


def _laplace(x, fixed):
    loc = fixed.get(0, fnp.median(x))
    return loc, fixed.get(1, fnp.sum(fnp.abs(x - loc)) / x.shape[0])


_FORMULAS: Dict[str, _Formula] = {"norm": _norm, "expon": _expon, "uniform": _uniform,
                                  "laplace": _laplace}


def neg_log_likelihood(dist: Any, shapes: list, loc: Any, scale: Any, data: Any,
                       censored: bool, discrete: bool) -> Any:
    """``-sum(logpdf(data))`` (``logpmf`` where ``discrete``) along the first axis;
    censored ``data`` (``(uncensored, left, right, interval)``) adds ``-logcdf`` of the
    left-censored, ``-logsf`` of the right-censored and ``-log(cdf(high) - cdf(low))`` of
    the interval-censored values (the difference of ``sf`` where ``cdf(low) > 1/2``, as
    SciPy's ``_delta_cdf``)."""
    if discrete:
        return -fnp.sum(dist.logpmf(data, *shapes, loc=loc), axis=0)
    kw = {"loc": loc, "scale": scale}
    if not censored:
        return -fnp.sum(dist.logpdf(data, *shapes, **kw), axis=0)
    uncensored, left, right, interval = data
    terms = []
    if uncensored.shape[0]:
        terms.append(fnp.sum(dist.logpdf(uncensored, *shapes, **kw)))
    if left.shape[0]:
        terms.append(fnp.sum(dist.logcdf(left, *shapes, **kw)))
    if right.shape[0]:
        terms.append(fnp.sum(dist.logsf(right, *shapes, **kw)))
    if interval.shape[0]:
        low, high = interval[:, 0], interval[:, 1]
        cdf_low = dist.cdf(low, *shapes, **kw)
        upper = fnp.greater(cdf_low, 0.5)
        delta = fnp.where(upper, dist.sf(low, *shapes, **kw) - dist.sf(high, *shapes, **kw),
                          dist.cdf(high, *shapes, **kw) - cdf_low)
        terms.append(fnp.sum(fnp.log(delta)))
    return -sum(terms) if terms else fnp.asarray(0.0)


def wanted(data: Any, censored: bool, fixed: dict) -> bool:
    """Whether the data (its arrays, if ``censored``) or a fixed parameter carries a
    derivative."""
    leaves = list(data) if censored else [data]
    return any(wants_derivative(v) for v in leaves + list(fixed.values()))


def _values(x: Any) -> np.ndarray:
    return np.asarray(concrete_values(stop_gradient(asarray(x)), "fit's derivative",
                                      "call fit outside jit and vmap"), dtype=float)


def fitted_parameters(dist: Any, theirs: Any, best: tuple, fixed: dict, data: Any,
                      censored: bool, method: str) -> tuple:
    """SciPy's fitted ``best`` (shapes, loc, scale) with the derivatives in ``data`` (an
    array, or the arrays of censored data) and in the ``fixed`` parameters' values
    (``{index: value}``) the module docstring describes; fixed parameters as given."""
    name = f"{dist.name}.fit"
    formula = _FORMULAS.get(dist.name)
    if formula is not None and method == "mle" and not censored:
        return _by_formula(name, formula, best, fixed, data)
    n = len(best)
    free = [i for i in range(n) if i not in fixed]
    held = tuple(fixed.get(i) for i in range(n))

    def theta_of(z, held):
        slots = iter(range(len(free)))
        return [z[next(slots)] if held[i] is None else held[i] for i in range(n)]

    if method == "mm":
        objective = _moment_error(dist, len(free))
        what = "the moment error"
    else:
        def objective(theta, data):
            return neg_log_likelihood(dist, theta[:-2], theta[-2], theta[-1], data, censored,
                                      False)
        what = "the negative log-likelihood"
        _check_support(name, theirs, best, data[0] if censored else data)

    def fun(z, data, held):
        return objective(theta_of(z, held), data)

    x_star = np.asarray([best[i] for i in free], dtype=float)
    plain_data = tuple(_values(v) for v in data) if censored else _values(data)
    plain_held = tuple(None if v is None else _values(v) for v in held)
    _check_stationary(name, what, lambda z: fun(z, plain_data, plain_held), x_star)
    found = differentiable_minimum(fun, x_star, lambda z: z, (data, held), name=name,
                                   objective=what)
    params = list(best)
    for j, i in enumerate(free):
        params[i] = found[j]
    for i, value in fixed.items():
        params[i] = value
    return tuple(params)


def _by_formula(name, formula, best, fixed, data):
    """``best`` carrying the derivatives of SciPy's explicit ``formula``, after a check
    that the formula gives SciPy's values."""
    found = formula(data, fixed)
    for got, want in zip(found, best):
        got, want = float(_values(got)), float(want)
        if not math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12 * max(1.0, abs(want))):
            raise NotImplementedError(
                f"{name}: SciPy's fit gave {want}, its explicit formula {got}: the derivative "
                f"of the formula would not be the derivative of SciPy's answer. Pass "
                f"fg.stop_gradient(data) if no derivative should flow through the fit")
    params = []
    for i, (value, want) in enumerate(zip(found, best)):
        if i in fixed:
            params.append(fixed[i])
        else:  # (SciPy's value exactly, the formula's derivative)
            params.append(want + (value - stop_gradient(value)))
    return tuple(params)


def _moment_error(dist, k):
    """SciPy's ``_moment_error`` of the first ``k`` raw moments, for ``k <= 2`` (from the
    distribution's mean and variance)."""
    if k > 2:
        raise NotImplementedError(
            f"{dist.name}.fit: the derivative of a method-of-moments fit of {k} free "
            f"parameters needs the distribution's moments beyond the second, which are not "
            f"written here; fix all but two parameters (f0=..., floc=..., fscale=...), fit "
            f"with method='MLE', or pass fg.stop_gradient(data)")

    def objective(theta, data):
        *shapes, loc, scale = theta
        mean = dist.mean(*shapes, loc=loc, scale=scale)
        moments = [mean, dist.var(*shapes, loc=loc, scale=scale) + mean * mean][:k]
        total = 0.0
        for p, moment in enumerate(moments, start=1):
            observed = fnp.mean(data ** p)
            total = total + ((observed - moment) / fnp.maximum(fnp.abs(observed), 1e-8)) ** 2
        return total
    return objective


def _check_support(name, theirs, best, x):
    """Refuse an optimum that puts an uncensored value on the edge of the support (or
    outside it): the likelihood is cut off there, not stationary."""
    *shapes, loc, scale = best
    low, high = theirs._get_support(*shapes)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (_values(x) - loc) / scale
    if not np.all((low < z) & (z < high)):
        raise NotImplementedError(
            f"{name}: the fitted parameters {tuple(map(float, best))} put a data value on the "
            f"edge of the distribution's support (loc or scale at the data's extreme), where "
            f"the likelihood is cut off rather than stationary, so the implicit function "
            f"theorem gives no derivative; fix loc (floc=...) or the parameter at the edge, "
            f"or pass fg.stop_gradient(data)")


def _check_stationary(name, what, fun, x_star):
    """Refuse a point that is not a strict local minimum of ``fun`` to 1e-6 (the module
    docstring)."""
    gradient = lambda z: grad(fun)(z)  # noqa: E731
    g = np.asarray(gradient(x_star), dtype=float)
    h = np.asarray(jacobian(gradient)(x_star), dtype=float)
    problem = None
    if not (np.all(np.isfinite(g)) and np.all(np.isfinite(h))):
        problem = f"its gradient or Hessian there is not finite (gradient {g})"
    else:
        # (the Hessian scaled to a unit diagonal: its conditioning says, whatever the
        # parameters' units, whether some combination of them is left undetermined, as
        # lomax's c and scale running off together to the exponential limit)
        d = np.sqrt(np.abs(np.diag(h)))
        try:
            np.linalg.cholesky(0.5 * (h + h.T))
            correlation = h / np.outer(d, d)
            condition = np.linalg.cond(correlation)
            step = np.linalg.solve(h, g)
            spread = np.sqrt(np.abs(np.diag(np.linalg.inv(h))))
        except np.linalg.LinAlgError:
            problem = "its Hessian there is not positive definite (not a strict minimum)"
        else:
            if not condition < 1e10:
                problem = (f"its Hessian there is nearly singular (condition number "
                           f"{condition:.3g} at a unit diagonal): some combination of the "
                           f"parameters is left undetermined")
            elif not np.all(np.abs(step) <= 1e-6 * np.maximum(np.abs(x_star), spread)):
                problem = (f"it is not a stationary point: the Newton step to the minimum is "
                           f"{step}, not below 1e-6 of the parameters")
    if problem is not None:
        raise NotImplementedError(
            f"{name}: SciPy's answer {x_star} (the free parameters) is no isolated minimum "
            f"of {what}: {problem}; the implicit function theorem gives no reliable "
            f"derivative there. Fit more tightly (optimizer= a minimizer with smaller "
            f"tolerances: SciPy's default fmin stops near 1e-4), fix the parameters that "
            f"run to a bound or off to infinity, or pass fg.stop_gradient(data)")
