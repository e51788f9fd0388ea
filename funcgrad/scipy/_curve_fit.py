"""``funcgrad.scipy.optimize.curve_fit``: SciPy's curve fitting on funcgrad's
:func:`least_squares`, so that the fitted parameters (and their covariance) are
differentiable in the data by the implicit function theorem.
"""
import inspect
import warnings
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..lax import stop_gradient
from ..numpy._convert import concrete_values, is_concrete
from ..typing import ArrayLike
from ._implicit_root import checked_matrix, wants_derivative
from ._least_squares import _DIFFERENCES, _jacobian, _least_squares

__all__ = ["curve_fit"]


def _float_array(value, check_finite, what):
    """``value`` as a float64 array (SciPy fits in float64), checked finite where its
    values are known."""
    value = fnp.asarray(value, dtype=np.float64)
    fixed = stop_gradient(value)
    if check_finite and is_concrete(fixed) and not np.all(np.isfinite(
            concrete_values(fixed, "curve_fit", ""))):
        raise ValueError(f"curve_fit: {what} must not contain infs or NaNs (or pass "
                         f"check_finite=False)")
    return value


def _feasible_start(lower, upper):
    """SciPy's default ``p0``: ones, moved inside the bounds."""
    p0 = np.ones_like(lower)
    both = np.isfinite(lower) & np.isfinite(upper)
    p0[both] = 0.5 * (lower[both] + upper[both])
    only_lower = np.isfinite(lower) & ~np.isfinite(upper)
    p0[only_lower] = lower[only_lower] + 1
    only_upper = ~np.isfinite(lower) & np.isfinite(upper)
    p0[only_upper] = upper[only_upper] - 1
    return p0


def curve_fit(f: Callable[..., Any], xdata: Any, ydata: ArrayLike, p0: Any = None,
              sigma: Any = None, absolute_sigma: bool = False,
              check_finite: Optional[bool] = None, bounds: Any = (-np.inf, np.inf),
              method: Optional[str] = None, jac: Any = None, *, full_output: bool = False,
              nan_policy: Optional[str] = None, **kwargs: Any) -> Any:
    """Fit ``ydata = f(xdata, *params) + eps`` by nonlinear least squares, as
    ``scipy.optimize.curve_fit`` does, on funcgrad's :func:`least_squares`.

    SciPy's signature and return: ``(popt, pcov)``, or with ``full_output`` ``(popt,
    pcov, infodict, mesg, ier)``. ``method`` is ``'lm'`` (the default without bounds),
    ``'trf'`` or ``'dogbox'``; each runs ``scipy.optimize.least_squares``, and ``kwargs``
    go to it (``maxfev`` is read as ``max_nfev``, as SciPy does for trf). Its Jacobian is
    funcgrad's exact one of the residuals where ``jac`` is left out or one of SciPy's
    finite-difference strings (``'2-point'``, ``'3-point'``, ``'cs'``; not with ``'lm'``,
    as in SciPy); your own ``jac(xdata, *params)``, the Jacobian of ``f`` in the
    parameters, shape ``(len(ydata), len(p0))``, steers the search as in SciPy (whitened
    by ``sigma`` as the residuals are; ``pcov`` then comes from it), while the derivatives
    of ``popt`` and ``pcov`` stay funcgrad's. ``pcov`` is SciPy's:
    the inverse of ``J^T J`` from the singular values of ``J`` (those below SciPy's
    threshold dropped), scaled by the residual variance unless ``absolute_sigma``;
    ``sigma`` is a 1-D array of errors or a 2-D covariance (its Cholesky factor whitens
    the residuals). ``ydata`` and ``xdata`` (when an array) are fitted in float64, as SciPy
    does; ``nan_policy`` takes None or ``'raise'`` (SciPy's ``'omit'`` is not
    implemented).

    **Differentiable in the data.** When ``ydata``, ``xdata``, ``sigma`` or values ``f``
    closes over carry a derivative (``grad``/``jvp``/``vjp``..., eager Tensors that
    require grad), ``popt`` is differentiable in them by the implicit function theorem on
    the fit's stationarity (:func:`least_squares`), to any order, under ``vmap`` and
    ``jit`` too; ``pcov`` is then ``inv(J^T J)`` (times the variance) at the differentiable
    ``popt``, and carries its derivative. Raised rather than wrong: a fit that did not
    converge (SciPy's ``RuntimeError``), a singular Hessian of the cost, and a ``J`` of
    deficient rank (SciPy's pseudo-inverse drops directions: no derivative).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import curve_fit
    >>> def func(x, a, b, c):   # SciPy's model
    ...     return a * np.exp(-b * x) + c
    >>> xdata = np.linspace(0, 4, 50)
    >>> ydata = func(xdata, 2.5, 1.3, 0.5) + 0.05 * np.sin(7 * xdata)
    >>> popt, pcov = curve_fit(func, xdata, ydata)
    >>> np.round(popt, 4), pcov.shape
    (array([2.5237, 1.3273, 0.5083]), (3, 3))
    >>> # the fitted decay rate's sensitivity to each data point
    >>> g = fg.grad(lambda y: curve_fit(func, xdata, y)[0][1])(ydata)
    >>> g.shape, bool(np.isclose(g.sum(), 0.0, atol=1e-9))   # (c absorbs a constant shift)
    ((50,), True)
    >>> # your own Jacobian of func in (a, b, c) steers the search, as in SciPy
    >>> def jac(x, a, b, c):
    ...     return np.stack([np.exp(-b * x), -a * x * np.exp(-b * x), np.ones_like(x)], axis=1)
    >>> popt_jac, _ = curve_fit(func, xdata, ydata, jac=jac)
    >>> bool(np.allclose(popt_jac, popt))
    True
    """
    if nan_policy not in (None, "raise"):
        raise NotImplementedError(f"curve_fit: nan_policy={nan_policy!r} is not implemented "
                                  f"by funcgrad (None and 'raise' are); drop the NaN "
                                  f"points from xdata and ydata first")
    if "args" in kwargs:
        raise ValueError("'args' is not a supported keyword argument.")
    import scipy.optimize as optimize

    if p0 is None:
        names = [p for p in inspect.signature(f).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if len(names) < 2:
            raise ValueError("Unable to determine number of fit parameters.")
        n = len(names) - 1
    else:
        p0 = fnp.atleast_1d(fnp.asarray(p0, dtype=np.float64))
        n = p0.shape[0]
    if isinstance(bounds, optimize.Bounds):
        lower, upper = bounds.lb, bounds.ub
    else:
        lower, upper = bounds
    lower, upper = (np.broadcast_to(np.asarray(b, dtype=float), (n,)) for b in (lower, upper))
    if p0 is None:
        p0 = _feasible_start(lower, upper)
    bounded = bool(np.any(np.isfinite(lower) | np.isfinite(upper)))
    method = method or ("trf" if bounded else "lm")
    if method == "lm" and bounded:
        raise ValueError("Method 'lm' only works for unconstrained problems. Use 'trf' or "
                         "'dogbox' instead.")
    if jac is not None and not callable(jac):
        if method == "lm":   # (SciPy's leastsq calls jac: a string raises TypeError there)
            raise TypeError(f"curve_fit: method='lm' takes jac as a function jac(xdata, "
                            f"*params) only, not {jac!r}; leave jac out (funcgrad computes "
                            f"the exact Jacobian), or use method='trf' or 'dogbox'")
        if jac not in _DIFFERENCES:
            raise ValueError(f"curve_fit: jac={jac!r} is not one of SciPy's: pass a function "
                             f"jac(xdata, *params) returning the Jacobian of f in the "
                             f"parameters, shape (len(ydata), len(p0)), or one of "
                             f"{sorted(_DIFFERENCES)}, or leave jac out")
    check = check_finite if check_finite is not None else nan_policy is None
    ydata = _float_array(ydata, check or nan_policy == "raise", "ydata")
    if isinstance(xdata, (list, tuple, np.ndarray, Tracer)) or is_special(xdata):
        xdata = _float_array(xdata, check or nan_policy == "raise", "xdata")
    if ydata.size == 0:
        raise ValueError("`ydata` must not be empty!")
    m = ydata.size
    if method == "lm" and m != 1 and n > m:
        raise TypeError(f"The number of func parameters={n} must not exceed the number of "
                        f"data points={m}")
    if sigma is not None:
        sigma = fnp.asarray(sigma, dtype=np.float64)
        if not (sigma.size == 1 or sigma.shape == (m,) or sigma.shape == (m, m)):
            raise ValueError("`sigma` has incorrect shape.")

    def residual(p, x, y, s):
        r = fnp.ravel(f(x, *[p[i] for i in range(n)]) - y)
        if s is None:
            return r
        if s.ndim == 2:   # a covariance C = L L^T: L^-1 r has identity covariance
            from .linalg import cholesky, solve_triangular
            return solve_triangular(cholesky(s, lower=True), r, lower=True)
        return r / s

    if sigma is not None and sigma.ndim == 2:
        fixed = stop_gradient(sigma)
        if is_concrete(fixed) and np.any(np.linalg.eigvalsh(
                concrete_values(fixed, "curve_fit", "")) <= 0):
            raise ValueError("`sigma` must be positive definite.")
    if "max_nfev" not in kwargs:
        kwargs["max_nfev"] = kwargs.pop("maxfev", None)

    def converged(result):
        if not result.success:
            raise RuntimeError("Optimal parameters not found: " + result.message)

    data = (xdata, ydata, sigma)
    loss = kwargs.get("loss", "linear")
    own = _whitened_jacobian(jac, m, n) if callable(jac) else "2-point"
    res = _least_squares(residual, p0, own, (lower, upper), method,
                         kwargs.pop("ftol", 1e-8), kwargs.pop("xtol", 1e-8),
                         kwargs.pop("gtol", 1e-8), kwargs.pop("x_scale", None),
                         kwargs.pop("loss", "linear"), kwargs.pop("f_scale", 1.0),
                         kwargs.pop("diff_step", None), kwargs.pop("tr_solver", None),
                         kwargs.pop("tr_options", None), None, kwargs.pop("max_nfev"),
                         kwargs.pop("verbose", 0), data, None, kwargs.pop("callback", None),
                         kwargs.pop("workers", None), converged, "curve_fit")
    if kwargs:
        raise TypeError(f"curve_fit: unexpected keyword arguments {sorted(kwargs)} (kwargs "
                        f"go to least_squares)")
    popt = res.x
    if loss != "linear" and wants_derivative(popt):
        raise NotImplementedError(
            f"curve_fit: the data carry a derivative, but with loss={loss!r} pcov comes from "
            f"SciPy's rescaled Jacobian, which funcgrad does not differentiate. Call "
            f"funcgrad.scipy.optimize.least_squares on the residuals (its x is "
            f"differentiable with every loss), or fit with the default loss")
    jacobian = res.get("jac")
    if jacobian is None:   # (vmap, jit: SciPy's Jacobian stays on the host)
        jacobian = _jacobian(lambda p: residual(p, *data), popt)
    pcov = _covariance(jacobian)
    cost = 2 * res.cost   # (the sum of squares: SciPy's cost is half of it)
    if not absolute_sigma:
        if m > n:
            pcov = pcov * (cost / (m - n))
        else:
            pcov = pcov * np.inf
    fixed = stop_gradient(pcov)
    if is_concrete(fixed) and not np.all(np.isfinite(concrete_values(fixed, "curve_fit", ""))):
        pcov = np.full((n, n), np.inf)
        warnings.warn("Covariance of the parameters could not be estimated",
                      category=optimize.OptimizeWarning, stacklevel=2)
    if not full_output:
        return popt, pcov
    if "message" not in res:
        raise NotImplementedError(
            "curve_fit: full_output=True under vmap or jit: mesg is SciPy's string, which a "
            "traced call cannot return. Call funcgrad.scipy.optimize.least_squares on the "
            "residuals instead: its result holds x, fun, cost, success, status and nfev")
    return popt, pcov, {"nfev": res.nfev, "fvec": res.fun}, res.message, res.status


def _whitened_jacobian(jac, m, n):
    """The Jacobian of curve_fit's residuals from the user's ``jac(xdata, *params)`` (the
    model's, ``(m, n)``), whitened as SciPy whitens it: divided by ``sigma``, or solved
    with the Cholesky factor of a 2-D ``sigma``. Called by the search alone, on plain
    values: the fit's derivative is funcgrad's."""
    def jacobian(p, x, y, sigma):
        got = np.atleast_2d(np.asarray(jac(x, *p), dtype=float))
        if got.shape != (m, n):
            raise ValueError(f"curve_fit: jac(xdata, *params) returned shape {got.shape}; it "
                             f"must be the Jacobian of f in the parameters, shape "
                             f"(len(ydata), len(p0)) = {(m, n)} (one row per data point)")
        if sigma is None:
            return got
        sigma = np.asarray(sigma)
        if sigma.ndim == 2:
            from scipy.linalg import cholesky, solve_triangular
            return solve_triangular(cholesky(sigma, lower=True), got, lower=True)
        # (a scalar sigma too, which SciPy's own 2-D branch would refuse)
        return (1.0 / sigma).reshape(-1, 1) * got
    return jacobian


def _covariance(jacobian):
    """``inv(J^T J)`` as SciPy computes it (singular values of ``J`` below ``eps * max(m,
    n) * s_max`` dropped); differentiable where ``J`` carries a derivative, which needs
    every direction kept."""
    fixed = stop_gradient(jacobian)
    if not is_concrete(fixed):   # (vmap, jit: the full-rank formula, checked at run time)
        return fnp.linalg.inv(checked_matrix(jacobian.T @ jacobian, _deficient))
    plain = concrete_values(fixed, "curve_fit", "")
    _, s, vt = np.linalg.svd(plain, full_matrices=False)
    kept = s > np.finfo(float).eps * max(plain.shape) * s[0]
    if not wants_derivative(jacobian):
        return (vt[kept].T / s[kept] ** 2) @ vt[kept]
    if not kept.all():
        raise ValueError(_deficient("has deficient rank"))
    return fnp.linalg.inv(jacobian.T @ jacobian)


def _deficient(what):
    return (f"curve_fit: J^T J, J the Jacobian of the model in the parameters at popt, "
            f"{what}, so pcov (SciPy's pseudo-inverse, which drops the flat directions) has "
            f"no derivative, and under vmap/jit no full-rank value. Fit fewer parameters, or "
            f"pass fg.stop_gradient of the data if no derivative should flow through pcov")
