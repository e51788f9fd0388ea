"""SciPy's legacy multivariate minimizers (``fmin``, ``fmin_powell``, ``fmin_cg``,
``fmin_bfgs``, ``fmin_ncg``, ``fmin_l_bfgs_b``, ``fmin_tnc``): SciPy's signatures and
return tuples, each a call of :func:`funcgrad.scipy.optimize.minimize` with the options
SciPy's own wrapper passes to the same method.

So each inherits ``minimize``'s derivatives: the gradient (and Hessian-vector products)
the method reads are funcgrad's exact ones, and the minimizer is differentiable in
``args`` (and in values ``func`` closes over) by the implicit function theorem at the
optimum, whichever method found it (never through the search: a derivative-free
method's iterates carry none). SciPy's arguments that describe the user's own
derivatives (``fprime``, ``fhess``, ``fhess_p``, ``epsilon``, ``approx_grad``) are
accepted, and not called: the exact derivatives replace them.
"""
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..typing import ArrayLike
from ._minimize import minimize

__all__ = ["fmin", "fmin_powell", "fmin_cg", "fmin_bfgs", "fmin_ncg", "fmin_l_bfgs_b",
           "fmin_tnc"]

_EPSILON = float(np.sqrt(np.finfo(float).eps))


def _minimize(name, method, func, x0, args, options, callback=None, bounds=None):
    """``minimize``'s result for the legacy wrapper ``name``, on a flat ``x0`` as SciPy's."""
    x0 = fnp.asarray(x0)
    if x0.dtype.kind != "f":
        x0 = x0.astype(float)   # (SciPy's wrappers take integers and minimize in floats)

    def objective(x, *values):
        # (SciPy takes a one-element array for the scalar, as x**2 of a 1-D x gives)
        value = fnp.asarray(func(x, *values))
        if value.size != 1:
            raise ValueError(f"{name}: func must return a scalar, got shape {value.shape}")
        return fnp.reshape(value, ())

    return minimize(objective, fnp.ravel(x0), args=args, method=method, callback=callback,
                    bounds=bounds, options=options)


def _fields(res, name, *keys, instead="minimize"):
    """``res[key]`` for each of ``keys``; under vmap/jit (SciPy's objects stay on the
    host) a clear error for those the traced result lacks, pointing to ``instead``."""
    missing = [key for key in keys if key not in res]
    if missing:
        held = {"minimize": "x, fun, success, status, nit and nfev",
                "minimize_scalar": "x, fun, success, nit and nfev"}[instead]
        raise NotImplementedError(
            f"{name}: {', '.join(missing)} cannot come back from a call under vmap or jit "
            f"(SciPy reports them on the host). Leave out full_output/retall there, or "
            f"call funcgrad.scipy.optimize.{instead}: its result holds {held} as arrays")
    return tuple(res[key] for key in keys)


def _legacy(res, name, full, retall, *keys):
    """SciPy's legacy return: ``x``; with ``full`` ``(x, *keys)``; ``allvecs`` last with
    ``retall``."""
    out = _fields(res, name, "x", *keys) if full else (res["x"],)
    if retall:
        out += _fields(res, name, "allvecs")
    return out if len(out) > 1 else out[0]


def fmin(func: Callable[..., Any], x0: ArrayLike, args: Any = (), xtol: float = 1e-4,
         ftol: float = 1e-4, maxiter: Optional[int] = None, maxfun: Optional[int] = None,
         full_output: int = 0, disp: int = 1, retall: int = 0,
         callback: Optional[Callable[..., Any]] = None, initial_simplex: Any = None) -> Any:
    """Minimize ``func(x, *args)`` by the Nelder-Mead simplex, as ``scipy.optimize.fmin``
    (``minimize(method='Nelder-Mead')``).

    SciPy's signature and return: ``xopt``; with ``full_output`` ``(xopt, fopt, iter,
    funcalls, warnflag)``; ``allvecs`` appended with ``retall``. ``x0`` is flattened and
    ``func`` receives a 1-D array, as in SciPy. ``xopt`` is differentiable in ``args`` by
    the implicit function theorem at the minimum (the simplex's moves carry no
    derivative); a derivative asked of a search that did not succeed raises.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fmin
    >>> def f(x):   # SciPy's example
    ...     return x ** 2
    >>> fmin(f, 1, disp=False)
    array([-8.8817842e-16])
    >>> # the minimizer of (x - a)**2 + x**4 moves with a as 2 / (2 + 12 x**2)
    >>> def x_of(a):
    ...     return fmin(lambda x, a: np.sum((x - a) ** 2 + x ** 4), [0.0], args=(a,),
    ...                 xtol=1e-10, ftol=1e-12, disp=False)[0]
    >>> x = x_of(1.0)
    >>> bool(np.isclose(fg.grad(x_of)(1.0), 2 / (2 + 12 * x ** 2)))
    True
    """
    options = {"xatol": xtol, "fatol": ftol, "maxiter": maxiter, "maxfev": maxfun,
               "disp": disp, "return_all": retall, "initial_simplex": initial_simplex}
    res = _minimize("fmin", "Nelder-Mead", func, x0, args, options, callback)
    return _legacy(res, "fmin", full_output, retall, "fun", "nit", "nfev", "status")


def fmin_powell(func: Callable[..., Any], x0: ArrayLike, args: Any = (), xtol: float = 1e-4,
                ftol: float = 1e-4, maxiter: Optional[int] = None,
                maxfun: Optional[int] = None, full_output: int = 0, disp: int = 1,
                retall: int = 0, callback: Optional[Callable[..., Any]] = None,
                direc: Any = None) -> Any:
    """Minimize ``func(x, *args)`` by Powell's conjugate direction method, as
    ``scipy.optimize.fmin_powell`` (``minimize(method='Powell')``).

    SciPy's signature and return: ``xopt``; with ``full_output`` ``(xopt, fopt, direc,
    iter, funcalls, warnflag)``; ``allvecs`` appended with ``retall``. ``xopt`` is
    differentiable in ``args`` by the implicit function theorem at the minimum.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import fmin_powell, rosen
    >>> xopt, fopt, direc, iters, funcalls, warnflag = fmin_powell(
    ...     rosen, [-1.0, 2.0], xtol=1e-8, ftol=1e-12, full_output=True, disp=False)
    >>> np.round(xopt, 6), warnflag
    (array([1., 1.]), 0)
    """
    options = {"xtol": xtol, "ftol": ftol, "maxiter": maxiter, "maxfev": maxfun,
               "disp": disp, "direc": direc, "return_all": retall}
    res = _minimize("fmin_powell", "Powell", func, x0, args, options, callback)
    return _legacy(res, "fmin_powell", full_output, retall, "fun", "direc", "nit", "nfev",
                   "status")


def fmin_cg(f: Callable[..., Any], x0: ArrayLike, fprime: Any = None, args: Any = (),
            gtol: float = 1e-5, norm: float = np.inf, epsilon: Any = _EPSILON,
            maxiter: Optional[int] = None, full_output: int = 0, disp: int = 1,
            retall: int = 0, callback: Optional[Callable[..., Any]] = None,
            c1: float = 1e-4, c2: float = 0.4) -> Any:
    """Minimize ``f(x, *args)`` by nonlinear conjugate gradients (Polak-Ribiere), as
    ``scipy.optimize.fmin_cg`` (``minimize(method='CG')``), with funcgrad's exact gradient
    (``fprime`` and ``epsilon`` are not used).

    SciPy's signature and return: ``xopt``; with ``full_output`` ``(xopt, fopt,
    func_calls, grad_calls, warnflag)``; ``allvecs`` appended with ``retall``. ``xopt`` is
    differentiable in ``args`` by the implicit function theorem at the minimum.

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fmin_cg
    >>> def f(x, *args):   # SciPy's example: a quadratic in u and v
    ...     u, v = x
    ...     a, b, c, d, e, f = args
    ...     return a * u ** 2 + b * u * v + c * v ** 2 + d * u + e * v + f
    >>> args = (2.0, 3.0, 7.0, 8.0, 9.0, 10.0)
    >>> np.round(fmin_cg(f, np.zeros(2), args=args, disp=False), 6)
    array([-1.808511, -0.255319])
    >>> # the minimizer is linear in (d, e): du/dd = -2c / (4ac - b**2)
    >>> du_dargs = fg.grad(lambda args: fmin_cg(f, np.zeros(2), args=tuple(args),
    ...                                         gtol=1e-10, disp=False)[0])(np.array(args))
    >>> round(float(du_dargs[3]), 6), round(-2 * 7.0 / (4 * 2.0 * 7.0 - 3.0 ** 2), 6)
    (-0.297872, -0.297872)
    """
    options = {"gtol": gtol, "norm": norm, "eps": epsilon, "disp": disp, "maxiter": maxiter,
               "return_all": retall, "c1": c1, "c2": c2}
    res = _minimize("fmin_cg", "CG", f, x0, args, options, callback)
    return _legacy(res, "fmin_cg", full_output, retall, "fun", "nfev", "njev", "status")


def fmin_bfgs(f: Callable[..., Any], x0: ArrayLike, fprime: Any = None, args: Any = (),
              gtol: float = 1e-5, norm: float = np.inf, epsilon: Any = _EPSILON,
              maxiter: Optional[int] = None, full_output: int = 0, disp: int = 1,
              retall: int = 0, callback: Optional[Callable[..., Any]] = None,
              xrtol: float = 0, c1: float = 1e-4, c2: float = 0.9,
              hess_inv0: Any = None) -> Any:
    """Minimize ``f(x, *args)`` by BFGS, as ``scipy.optimize.fmin_bfgs``
    (``minimize(method='BFGS')``), with funcgrad's exact gradient (``fprime`` and
    ``epsilon`` are not used).

    SciPy's signature and return: ``xopt``; with ``full_output`` ``(xopt, fopt, gopt,
    Bopt, func_calls, grad_calls, warnflag)``; ``allvecs`` appended with ``retall``.
    ``xopt`` is differentiable in ``args`` by the implicit function theorem at the
    minimum (``Bopt``, BFGS's estimate of the inverse Hessian, carries no derivative).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fmin_bfgs, rosen
    >>> np.round(fmin_bfgs(rosen, np.array([1.3, 0.7, 0.8, 1.9, 1.2]), disp=False), 5)
    array([1., 1., 1., 1., 1.])
    >>> # a weighted mean minimizes sum(w (x - y)**2): its gradient in y is w / sum(w)
    >>> w = np.array([1.0, 2.0, 5.0])
    >>> fg.grad(lambda y: fmin_bfgs(lambda x, y: np.sum(w * (x - y) ** 2), np.zeros(1),
    ...                             args=(y,), disp=False)[0])(np.array([1.0, 2.0, 4.0]))
    array([0.125, 0.25 , 0.625])
    """
    options = {"gtol": gtol, "norm": norm, "eps": epsilon, "disp": disp, "maxiter": maxiter,
               "return_all": retall, "xrtol": xrtol, "c1": c1, "c2": c2,
               "hess_inv0": hess_inv0}
    res = _minimize("fmin_bfgs", "BFGS", f, x0, args, options, callback)
    return _legacy(res, "fmin_bfgs", full_output, retall, "fun", "jac", "hess_inv", "nfev",
                   "njev", "status")


def fmin_ncg(f: Callable[..., Any], x0: ArrayLike, fprime: Any = None, fhess_p: Any = None,
             fhess: Any = None, args: Any = (), avextol: float = 1e-5,
             epsilon: Any = _EPSILON, maxiter: Optional[int] = None, full_output: int = 0,
             disp: int = 1, retall: int = 0, callback: Optional[Callable[..., Any]] = None,
             c1: float = 1e-4, c2: float = 0.9) -> Any:
    """Minimize ``f(x, *args)`` by Newton-CG, as ``scipy.optimize.fmin_ncg``
    (``minimize(method='Newton-CG')``), with funcgrad's exact gradient and Hessian-vector
    products: SciPy requires ``fprime``, funcgrad does not (``fprime``, ``fhess_p``,
    ``fhess`` and ``epsilon`` are accepted and not used).

    SciPy's signature and return: ``xopt``; with ``full_output`` ``(xopt, fopt, fcalls,
    gcalls, hcalls, warnflag)``; ``allvecs`` appended with ``retall``. ``xopt`` is
    differentiable in ``args`` by the implicit function theorem at the minimum.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import fmin_ncg, rosen
    >>> xopt, fopt, fcalls, gcalls, hcalls, warnflag = fmin_ncg(
    ...     rosen, np.array([-1.2, 1.0]), avextol=1e-10, full_output=True, disp=False)
    >>> np.round(xopt, 8), warnflag
    (array([1., 1.]), 0)
    """
    options = {"xtol": avextol, "eps": epsilon, "maxiter": maxiter, "disp": disp,
               "return_all": retall, "c1": c1, "c2": c2}
    res = _minimize("fmin_ncg", "Newton-CG", f, x0, args, options, callback)
    return _legacy(res, "fmin_ncg", full_output, retall, "fun", "nfev", "njev", "nhev",
                   "status")


def _value_of(func, fprime, approx_grad):
    """The objective alone: SciPy's L-BFGS-B and TNC wrappers take a ``func`` that returns
    ``(f, g)`` when neither ``fprime`` nor ``approx_grad`` is given (``g`` is dropped:
    funcgrad's exact gradient replaces it)."""
    if approx_grad or fprime is not None:
        return func
    return lambda x, *args: func(x, *args)[0]


def fmin_l_bfgs_b(func: Callable[..., Any], x0: ArrayLike, fprime: Any = None,
                  args: Any = (), approx_grad: int = 0, bounds: Any = None, m: int = 10,
                  factr: float = 1e7, pgtol: float = 1e-5, epsilon: float = 1e-8,
                  iprint: Optional[int] = None, maxfun: int = 15000, maxiter: int = 15000,
                  disp: Optional[int] = None, callback: Optional[Callable[..., Any]] = None,
                  maxls: int = 20) -> Any:
    """Minimize ``func(x, *args)`` subject to bounds by L-BFGS-B, as
    ``scipy.optimize.fmin_l_bfgs_b`` (``minimize(method='L-BFGS-B')``), with funcgrad's
    exact gradient.

    As in SciPy, ``func`` returns ``(f, g)`` unless ``fprime`` is given or
    ``approx_grad`` is set; funcgrad differentiates ``f`` and uses neither ``g`` nor
    ``fprime`` (so ``f``'s part must be differentiable by funcgrad). ``bounds``: ``(min,
    max)`` pairs, None for no bound. ``iprint`` and ``disp`` (deprecated in SciPy) are
    passed on only when given.

    Returns ``(x, f, d)`` as SciPy: ``d`` holds ``grad``, ``task``, ``funcalls``, ``nit``
    and ``warnflag`` (under vmap or jit only ``funcalls``, ``nit`` and ``warnflag``:
    SciPy's objects stay on the host). ``x`` is differentiable in ``args`` by the implicit
    function theorem, with bounds that hold coordinates there as ``minimize`` treats
    them (those coordinates stay on their bounds).

    >>> import numpy as np, funcgrad as fg
    >>> from funcgrad.scipy.optimize import fmin_l_bfgs_b
    >>> def f(x, y):
    ...     return np.sum((x - y) ** 2)
    >>> x, fx, d = fmin_l_bfgs_b(f, np.zeros(2), args=(np.array([2.0, 3.0]),),
    ...                          approx_grad=True, bounds=[(0, 1), (0, 5)])
    >>> x, d["warnflag"]
    (array([1., 3.]), 0)
    >>> # x[0] is held at its upper bound, x[1] follows y[1]
    >>> def x_of(y):
    ...     return fmin_l_bfgs_b(f, np.zeros(2), args=(y,), approx_grad=True,
    ...                          bounds=[(0, 1), (0, 5)])[0]
    >>> fg.jacobian(x_of)(np.array([2.0, 3.0])) + 0.0   # (+ 0.0: no -0.)
    array([[0., 0.],
           [0., 1.]])
    """
    options = {"maxcor": m, "ftol": factr * np.finfo(float).eps, "gtol": pgtol,
               "eps": epsilon, "maxfun": maxfun, "maxiter": maxiter, "maxls": maxls}
    options.update({k: v for k, v in (("iprint", iprint), ("disp", disp)) if v is not None})
    res = _minimize("fmin_l_bfgs_b", "L-BFGS-B", _value_of(func, fprime, approx_grad), x0,
                    args, options, callback, bounds)
    d = {"grad": res.get("jac"), "task": res.get("message"), "funcalls": res["nfev"],
         "nit": res["nit"], "warnflag": res["status"]}
    return res["x"], res["fun"], {k: v for k, v in d.items() if v is not None}


def fmin_tnc(func: Callable[..., Any], x0: ArrayLike, fprime: Any = None, args: Any = (),
             approx_grad: int = 0, bounds: Any = None, epsilon: float = 1e-8,
             scale: Any = None, offset: Any = None, messages: int = 15, maxCGit: int = -1,
             maxfun: Optional[int] = None, eta: float = -1, stepmx: float = 0,
             accuracy: float = 0, fmin: float = 0, ftol: float = -1, xtol: float = -1,
             pgtol: float = -1, rescale: float = -1, disp: Optional[int] = None,
             callback: Optional[Callable[..., Any]] = None) -> Any:
    """Minimize ``func(x, *args)`` subject to bounds by a truncated Newton method, as
    ``scipy.optimize.fmin_tnc`` (``minimize(method='TNC')``), with funcgrad's exact
    gradient; ``func`` returns ``(f, g)`` unless ``fprime`` or ``approx_grad`` is given,
    as for :func:`fmin_l_bfgs_b`.

    Returns ``(x, nfeval, rc)`` as SciPy. ``x`` is differentiable in ``args`` by the
    implicit function theorem, as :func:`fmin_l_bfgs_b`'s.

    >>> import numpy as np
    >>> from funcgrad.scipy.optimize import fmin_tnc
    >>> x, nfeval, rc = fmin_tnc(lambda x: np.sum((x - [2.0, 3.0]) ** 2), np.zeros(2),
    ...                          approx_grad=True, bounds=[(0, 1), (0, 5)], messages=0)
    >>> np.round(x, 6)
    array([1., 3.])
    """
    # (SciPy's table from messages to TNC's message flags)
    mesg_num = disp if disp is not None else {0: 0, 1: 1, 2: 2, 3: 4, 4: 8, 5: 15}.get(
        messages, 15)
    options = {"eps": epsilon, "scale": scale, "offset": offset, "mesg_num": mesg_num,
               "maxCGit": maxCGit, "maxfun": maxfun, "eta": eta, "stepmx": stepmx,
               "accuracy": accuracy, "minfev": fmin, "ftol": ftol, "xtol": xtol,
               "gtol": pgtol, "rescale": rescale, "disp": False}
    res = _minimize("fmin_tnc", "TNC", _value_of(func, fprime, approx_grad), x0, args,
                    options, callback, bounds)
    return res["x"], res["nfev"], res["status"]
