"""``odeint`` with SciPy's LSODA options (``Dfun``, ``col_deriv``, ``full_output``, ``ml``,
``mu``, ``tcrit``, ``h0``, ``hmax``, ``hmin``, ``ixpr``, ``mxhnil``, ``mxordn``, ``mxords``,
``printmessg``): the values are ``scipy.integrate.odeint``'s own run with every option
passed through, and ``full_output``'s infodict is that run's.

funcgrad's ``odeint`` otherwise steps with Dormand-Prince (``_ode_adjoint``); those
options are ODEPACK LSODA's step, order and Jacobian controls, which have no meaning for
Dormand-Prince, so the only honest way to honour them (and to report ``nst``, ``nje``,
``mused``, ...) is to run LSODA.  The derivative does not depend on step control: it is
that of the ODE's solution, taken (as ``odeint``'s default) through the Dormand-Prince
solve's adjoint in reverse mode and its sensitivity equations in forward mode, at the same
tolerances; it is added as ``d - stop_gradient(d)`` (zero in value), so the value stays
exactly SciPy's while every transform sees the derivative.  The Dormand-Prince solve runs
only when something is being differentiated or traced.
"""
import functools
import math

import numpy as np

from .. import numpy as fnp
from ..callback import pure_callback
from ..core import ShapedArray, Tracer, is_special
from ..lax import stop_gradient
from ._ode_adjoint import _odeint
from ._rk import Solver

# SciPy's odeint keywords (beyond rtol, atol, mxstep, args and tfirst) and their defaults
SCIPY_ONLY = {"Dfun": None, "col_deriv": 0, "full_output": 0, "ml": None, "mu": None,
              "tcrit": None, "h0": 0.0, "hmax": 0.0, "hmin": 0.0, "ixpr": 0, "mxhnil": 0,
              "mxordn": 12, "mxords": 5, "printmessg": 0}

# SciPy's default rtol and atol (``None`` in its signature): sqrt of double precision's eps
_SCIPY_TOL = 1.49012e-8


def uses_scipy(options):
    """Whether any SciPy-only option differs from its default (``None`` or equal)."""
    for name, default in SCIPY_ONLY.items():
        value = options[name]
        if value is None and default is None:
            continue
        if value is None or default is None:
            return True
        if not isinstance(value, (int, float, np.number)) or value != default:
            return True
    return False


def _tol_scalar(tol):
    """A scalar tolerance for the Dormand-Prince derivative solve (SciPy takes arrays)."""
    return _SCIPY_TOL if tol is None else float(np.min(np.asarray(tol, float)))


def scipy_odeint(flat_func, y, ts, arg_leaves, consts, user_args, rtol, atol, mxstep,
                 tfirst, options):
    """``(ys, infodict or None)``: ``ys`` (``(len(ts), n)``) from SciPy's odeint of
    ``flat_func`` with ``options``, plus the derivative of funcgrad's solve where one is
    being taken.  ``user_args(values)`` rebuilds the caller's ``args`` for ``Dfun``."""
    if options["Dfun"] is not None and not callable(options["Dfun"]):
        raise TypeError(f"odeint: Dfun must be callable as Dfun(y, t, *args) (or "
                        f"Dfun(t, y, *args) with tfirst=True), got "
                        f"{type(options['Dfun']).__name__}")
    inputs = (y, ts, *arg_leaves, *consts)
    values = [stop_gradient(v) for v in inputs]
    steps = 0 if mxstep == math.inf else int(mxstep)  # (0: SciPy's default, 500)
    host = functools.partial(_host, flat_func, len(arg_leaves), user_args, rtol, atol,
                             steps, tfirst, options)
    if not any(isinstance(v, Tracer) or is_special(v) for v in values):
        ys, info = host(*[np.asarray(v) for v in values])
        ys = fnp.asarray(ys)
    else:
        if options["full_output"]:
            raise TypeError("odeint: full_output=True needs concrete values (its infodict "
                            "holds a message and step counts of one run): call it outside "
                            "jit and vmap, or leave full_output off there")
        info = None
        shape = ShapedArray((ts.shape[0], y.shape[0]), y.dtype)
        ys = pure_callback(lambda *v: host(*v)[0], shape, *values,
                           vmap_method="sequential")
    if any(isinstance(v, Tracer) or is_special(v) for v in inputs):
        solver = Solver(None, _tol_scalar(rtol), _tol_scalar(atol), math.inf)
        ys_d = _odeint(flat_func, solver, y, ts, *arg_leaves, *consts)[0]
        ys = ys + (ys_d - stop_gradient(ys_d))
    return ys, info


def _host(flat_func, n_args, user_args, rtol, atol, mxstep, tfirst, options, y, ts,
          *values):
    from scipy.integrate import odeint as scipy_odeint_fn
    dtype = y.dtype
    arg_vals = values[:n_args]

    def f(yy, tt):
        return np.asarray(stop_gradient(flat_func(yy.astype(dtype), tt, *values)),
                          float)

    given, extra = options["Dfun"], tuple(user_args(list(arg_vals)))

    def jacobian(yy, tt):  # (SciPy's Dfun call, on the caller's args)
        out = given(tt, yy, *extra) if tfirst else given(yy, tt, *extra)
        return np.asarray(out, float)
    dfun = None if given is None else jacobian
    kwargs = {k: v for k, v in options.items() if k != "Dfun"}
    out = scipy_odeint_fn(f, np.asarray(y, float), np.asarray(ts, float), Dfun=dfun,
                          rtol=rtol, atol=atol, mxstep=mxstep, **kwargs)
    if options["full_output"]:
        return out[0].astype(dtype), out[1]
    return out.astype(dtype), None
