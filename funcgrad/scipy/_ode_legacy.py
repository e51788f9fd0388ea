"""SciPy's object interface to ODE solvers, ``ode`` and ``complex_ode``, on
``solve_ivp``'s methods: each ``integrate(t)`` is a ``solve_ivp`` from the current
``(t, y)`` to ``t``, so its value is differentiated as ``solve_ivp``'s (the adjoint
method) in the initial value and in ``f_params``.

SciPy's integrators are Fortran codes; their names map to the nearest method here:
'dopri5' is RK45 (the same Dormand-Prince pair), 'dop853' is DOP853, 'vode' and 'zvode'
are BDF with ``method='bdf'`` and RK45 with their default 'adams' (a non-stiff method for
a non-stiff one), 'lsoda' is LSODA (ODEPACK's, as ``solve_ivp``'s: SciPy's ``ode`` drives
the same code through another wrapper).  The values agree with SciPy's to the tolerances,
not to the bit, except for the Runge-Kutta pairs.
"""
import warnings
from typing import Any, Callable, Optional

import numpy as np

from .. import numpy as fnp
from ..core import Tracer
from ..lax import stop_gradient
from ..numpy._convert import asarray
from ._ivp import solve_ivp

# SciPy's integrator names: (method, default rtol, default atol, code on success)
_NAMES = {"dopri5": ("RK45", 1e-6, 1e-12, 1), "dop853": ("DOP853", 1e-6, 1e-12, 1),
          "vode": (None, 1e-6, 1e-12, 2), "zvode": (None, 1e-6, 1e-12, 2),
          "lsoda": ("LSODA", 1e-6, 1e-12, 2)}
_IGNORED = ("with_jacobian", "lband", "uband", "order", "nsteps", "min_step", "ixpr",
            "max_order_ns", "max_order_s", "max_hnil", "safety", "ifactor", "dfactor",
            "beta", "verbosity")


class ode:
    """A generic interface to ODE solvers (``scipy.integrate.ode``): ``dy/dt = f(t, y,
    *f_params)``, stepped to each requested time by ``integrate(t)``.  SciPy's methods:
    ``set_integrator(name, **params)`` (``rtol``, ``atol``, ``max_step``,
    ``first_step``; 'vode' also ``method``; options of the Fortran codes, such as
    ``nsteps``, have no effect), ``set_initial_value(y, t=0.0)``, ``set_f_params``,
    ``set_jac_params``, ``set_solout`` ('dopri5' and 'dop853'), ``successful()``,
    ``get_return_code()``, and the attributes ``t`` and ``y``.

    Each ``integrate(t)`` is :func:`solve_ivp` from the current point to ``t``, with the
    method the name maps to ('dopri5' RK45, 'dop853' DOP853, 'vode' BDF with
    ``method='bdf'`` else RK45, 'lsoda' LSODA: the values agree with SciPy's to the
    tolerances); so ``y`` is differentiable in the initial value and in ``f_params``, as
    ``solve_ivp``'s.  ``jac`` is not needed (the implicit methods' Jacobian is exact) and
    is not called; ``integrate(t, step=True)`` raises NotImplementedError (step the
    solver objects, ``RK45(...).step()``, instead).

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> r = fsi.ode(lambda t, y, k: -k * y).set_integrator("dopri5")
    >>> r = r.set_initial_value(np.array([1.0]), 0.0).set_f_params(2.0)
    >>> round(float(r.integrate(1.0)[0]), 6), r.successful(), r.t  # e^-2
    (0.135335, True, 1.0)
    """

    def __init__(self, f: Callable, jac: Optional[Callable] = None):
        if not callable(f):
            raise TypeError(f"ode: f must be callable as f(t, y, *f_params), got "
                            f"{type(f).__name__}")
        self.f, self.jac = f, jac
        self.f_params: tuple = ()
        self.jac_params: tuple = ()
        self.t: Any = 0.0
        self._y: Any = None
        self._integrator: Any = None
        self._solout: Any = None
        self._code = 0
        self.stiff = 0

    @property
    def y(self):
        return self._y

    def set_initial_value(self, y, t=0.0):
        """Set the initial condition ``y(t) = y``; returns ``self``."""
        y = asarray(y)
        self._y = fnp.reshape(y, (1,)) if y.ndim == 0 else y
        if self._y.ndim != 1:
            raise ValueError(f"ode: y must be a number or 1-dimensional, got shape "
                             f"{self._y.shape}")
        if self._integrator is None:
            self.set_integrator("")
        self.t = t
        self._check_kind()
        return self

    def set_integrator(self, name, **integrator_params):
        """Choose the integrator by SciPy's name ('' the first: 'vode'); returns
        ``self``.  An unknown name warns, as SciPy's."""
        key = name or "vode"
        if key not in _NAMES:
            warnings.warn(f"No integrator name match with {name!r} or is not available.",
                          stacklevel=2)
            return self
        params = dict(integrator_params)
        method, rtol, atol, ok = _NAMES[key]
        if method is None:
            vode_method = params.pop("method", "adams")
            if vode_method not in ("adams", "bdf"):
                raise ValueError(f"Unknown integration method {vode_method}")
            method = "BDF" if vode_method == "bdf" else "RK45"
        for option in _IGNORED:
            params.pop(option, None)
        options = {"rtol": params.pop("rtol", rtol), "atol": params.pop("atol", atol)}
        if params.get("max_step", 0.0):
            options["max_step"] = params.pop("max_step")
        if params.get("first_step", 0.0):
            options["first_step"] = params.pop("first_step")
        params.pop("max_step", None)
        params.pop("first_step", None)
        if params:
            raise TypeError(f"ode.set_integrator({name!r}): unexpected options "
                            f"{sorted(params)}")
        self._integrator = (key, method, options, ok)
        self._check_kind()
        return self

    def _check_kind(self):
        if self._y is not None and self._integrator is not None and \
                self._integrator[0] != "zvode" and self._y.dtype.kind == "c" and \
                not isinstance(self, complex_ode):
            raise ValueError("ode: a complex y needs the 'zvode' integrator, or complex_ode")

    def _complex(self):
        return isinstance(self, complex_ode) or self._y.dtype.kind == "c"

    def set_f_params(self, *args):
        """Extra arguments of ``f``; returns ``self``."""
        self.f_params = args
        return self

    def set_jac_params(self, *args):
        """Extra arguments of ``jac`` (kept for SciPy's interface; ``jac`` is not
        called); returns ``self``."""
        self.jac_params = args
        return self

    def set_solout(self, solout):
        """``solout(t, y)`` at the start and after every accepted step ('dopri5' and
        'dop853', whose steps here are RK45's and DOP853's); returning -1 stops the
        integration there (return code 2).  Returns ``self``."""
        if self._integrator is None or self._integrator[0] not in ("dopri5", "dop853"):
            raise ValueError("selected integrator does not support solout, choose another "
                             "one")
        self._solout = solout
        return self

    def _rhs(self):
        """``f`` on the real state: the real and imaginary parts interleaved, as SciPy's
        complex_ode, where ``y`` is complex."""
        user = self.f
        if not self._complex():
            return user

        def real_rhs(t, y, *args):
            fz = asarray(user(t, y[::2] + 1j * y[1::2], *args))
            fz = fz + 0j if fz.dtype.kind != "c" else fz
            return fnp.reshape(fnp.stack([fnp.real(fz), fnp.imag(fz)], axis=-1), (-1,))

        return real_rhs

    def _wrap_y(self, y):
        if not self._complex():
            return y
        y = y + 0j if y.dtype.kind != "c" else y
        return fnp.reshape(fnp.stack([fnp.real(y), fnp.imag(y)], axis=-1), (-1,))

    def _unwrap_y(self, y):
        return y[::2] + 1j * y[1::2] if self._complex() else y

    def integrate(self, t, step=False, relax=False):
        """``y(t)``: integrate from the current point to ``t``, which becomes the current
        point; returns ``y``."""
        if step:
            raise NotImplementedError("ode.integrate(step=True): single internal steps are "
                                      "the solver objects' (fsi.RK45(...).step()); "
                                      "integrate to a time instead")
        if self._y is None:
            raise ValueError("ode: set_initial_value(y, t) first")
        key, method, options, ok = self._integrator
        f = self._rhs()
        t0 = self.t
        y0 = self._wrap_y(self._y)
        if self._solout is None:
            res = solve_ivp(f, (t0, t), y0, method=method, t_eval=[t], args=self.f_params,
                            **options)
        else:
            res = solve_ivp(f, (t0, t), y0, method=method, args=self.f_params, **options)
        status = stop_gradient(res.status)  # (under jit: not known, taken as success)
        if not isinstance(status, Tracer) and int(np.asarray(status)) < 0:
            self._code = -3
            warnings.warn(f"{key}: {res.message}", UserWarning, stacklevel=2)
            return self._y
        ys, ts = res.y, res.t
        self._code = ok
        if self._solout is not None:
            for k in range(ts.shape[0]):  # (the start first, as Hairer's codes call it)
                y_k = self._unwrap_y(ys[:, k])
                t_k = float(np.asarray(stop_gradient(ts[k])))
                if self._solout(t_k, y_k) == -1:
                    self._y, self.t, self._code = y_k, t_k, 2
                    return self._y
        self._y, self.t = self._unwrap_y(ys[:, -1]), t
        return self._y

    def successful(self):
        """Whether the last integration succeeded."""
        return self._code > 0

    def get_return_code(self):
        """SciPy's return code of the last integration: 1 (dopri5, dop853) or 2 (vode,
        lsoda) on success, 2 when ``solout`` stopped it, -3 when the step size became
        too small."""
        return self._code


class complex_ode(ode):
    """``ode`` for a complex ``y`` (``scipy.integrate.complex_ode``): ``f(t, y)`` complex,
    integrated as the real system of its real and imaginary parts (interleaved, as
    SciPy's), with any of ``ode``'s integrators; ``y`` comes back complex.
    Differentiable as ``ode``.

    >>> import numpy as np, funcgrad.scipy.integrate as fsi
    >>> r = fsi.complex_ode(lambda t, y: 1j * y).set_integrator("dopri5", rtol=1e-10)
    >>> r = r.set_initial_value(np.array([1.0 + 0.0j]), 0.0)
    >>> y = r.integrate(np.pi / 2)  # e^(i pi/2) = i
    >>> round(float(y[0].real), 6) + 0.0, round(float(y[0].imag), 6)
    (0.0, 1.0)
    """

    def set_integrator(self, name, **integrator_params):
        """As ``ode``'s; 'zvode' is refused, as SciPy's ('vode' takes its place)."""
        if name == "zvode":
            raise ValueError("zvode must be used with ode, not complex_ode")
        return super().set_integrator(name, **integrator_params)

