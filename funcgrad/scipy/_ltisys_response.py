"""Time responses of linear time-invariant systems for :mod:`funcgrad.scipy.signal`
(re-exported there): ``lsim``, ``step``, ``impulse`` (continuous time) and ``dlsim``,
``dstep``, ``dimpulse`` (discrete time), with SciPy's signatures and values.

``lsim`` is SciPy's exact discretisation: with the input held between samples
(``interp=False``) or linear between them (``interp=True``), the state after one step is
read off the matrix exponential of an augmented matrix (SciPy's blocks, through
``funcgrad.scipy.linalg.expm``), and the recursion ``x[i] = x[i-1] Ad + U[i-1] Bd0 +
U[i] Bd1`` runs as one ``funcgrad.lax.scan``.  So the outputs differentiate in the
system's matrices (or coefficients, roots and gain), in ``U``, ``X0`` and in the times
``T``; they trace under ``jit``/``vmap`` when the time grid is known (its spacing is
checked on its values).  The default time grid of ``step``/``impulse`` (seven time
constants of the slowest mode, SciPy's rule) is computed with funcgrad operations from the
eigenvalues of ``A``, so it moves with ``A`` and the derivative of the response includes
that motion; pass ``T`` for responses at fixed times.

``dlsim`` runs ``x[i+1] = A x[i] + B u[i]`` the same way; given ``t``, the input is first
interpolated linearly onto the system's sampling grid, as SciPy's.  Its number of output
samples and that grid are chosen from ``t`` and ``dt``, so those must be plain numbers
(a traced ``t`` or ``dt`` raises ``TypeError`` rather than losing its derivative).

The systems are tuples (``(num, den)``, ``(z, p, k)``, ``(A, B, C, D)``, with ``dt``
appended for the discrete ones) or the ``lti``/``dlti`` objects of :mod:`._ltisys_systems`
(read through their ``dt`` and ``_as_ss``, so this module does not import that one, which
imports this one for the objects' methods).  Float32 systems and inputs give float32
results.
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..lax import scan
from ..numpy._convert import asarray, concrete_values
from ..typing import Array, ArrayLike
from ._ltisys_convert import _system_matrices, tf2ss, zpk2ss
from ._matfuncs import expm

__all__ = ["lsim", "step", "impulse", "dlsim", "dstep", "dimpulse"]


def _parts(parts, kind):
    if len(parts) == 2:
        return _system_matrices(*tf2ss(*parts))
    if len(parts) == 3:
        return _system_matrices(*zpk2ss(*parts))
    if len(parts) == 4:
        return _system_matrices(*parts)
    raise ValueError(f"`system` needs to be an instance of `{kind}` or have 2, 3 or 4 "
                     f"arguments.")


def _continuous(system, name):
    """``(A, B, C, D)`` of a continuous-time system (an ``lti`` or a tuple)."""
    if hasattr(system, "_as_ss") and hasattr(system, "dt"):
        if system.dt is not None:
            raise AttributeError(f"{name} can only be used with continuous-time systems.")
        ss = system._as_ss()
        return _system_matrices(ss.A, ss.B, ss.C, ss.D)
    return _parts(tuple(system), "lti")


def _discrete(system, name):
    """``(A, B, C, D, dt)`` of a discrete-time system (a ``dlti`` or a tuple ending with
    ``dt``), and whether it was given in state-space form."""
    if hasattr(system, "_as_ss") and hasattr(system, "dt"):
        if system.dt is None:
            raise AttributeError(f"{name} can only be used with discrete-time dlti systems.")
        ss = system._as_ss()
        return _system_matrices(ss.A, ss.B, ss.C, ss.D) + (system.dt,), hasattr(system, "A")
    system = tuple(system)
    return _parts(system[:-1], "dlti") + (system[-1],), len(system) == 5


def _float_dtype(*arrays):
    dtype = np.result_type(*(a.dtype for a in arrays))
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _cast(x, dtype):
    return fnp.astype(x, dtype) if x.dtype != dtype else x


def _run(x0, Ad, forcing):
    """The states ``x[0] = x0``, ``x[i] = x[i-1] @ Ad + forcing[i-1]`` (rows)."""
    if forcing.shape[0] == 0:
        return x0[None, :]

    def advance(x, f):
        x = x @ Ad + f
        return x, x
    _, xs = scan(advance, x0, forcing)
    return fnp.concatenate([x0[None, :], xs], axis=0)


def _no_input(U):
    if U is None:
        return True
    U = asarray(U)  # (only plain arrays: zeros that carry a derivative are an input)
    return type(U) is np.ndarray and not np.any(U)


def lsim(system: Any, U: Optional[ArrayLike], T: ArrayLike, X0: Optional[ArrayLike] = None,
         interp: bool = True) -> tuple[Array, Array, Array]:
    """The response ``(T, yout, xout)`` of a continuous-time system to the input ``U``
    sampled at the equally spaced times ``T`` (``scipy.signal.lsim``), from the state
    ``X0``; ``interp`` says whether ``U`` is linear (True) or held (False) between
    samples.  Differentiable in the system, ``U``, ``X0`` and ``T`` (see the module
    docstring).

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.signal as fss
    >>> t = np.linspace(0.0, 2.0, 5)
    >>> _, y, _ = fss.lsim(([1.0], [1.0, 1.0]), np.ones(5), t)
    >>> np.round(y, 6)  # 1 - exp(-t)
    array([0.      , 0.393469, 0.632121, 0.77687 , 0.864665])
    >>> pole = lambda a: fss.lsim(([1.0], [1.0, a]), np.ones(5), t)[1][-1]
    >>> round(float(fg.grad(pole)(1.0)), 6)  # d/da (1 - exp(-2a)) / a
    -0.593994
    """
    A, B, C, D = _continuous(system, "lsim")
    times_out: Any = fnp.atleast_1d(asarray(T))
    U_: Any = U
    if times_out.ndim != 1:
        raise ValueError("T must be a rank-1 array.")
    times = concrete_values(times_out, "lsim (the check that T is equally spaced)",
                            "Pass T as plain numbers.")
    n_states, n_inputs, n_steps = A.shape[0], B.shape[1], times_out.shape[0]
    no_input = _no_input(U_)
    arrays = [A, B, C, D] + ([] if X0 is None else [asarray(X0)]) + (
        [] if no_input else [asarray(U_)])
    dtype = _float_dtype(*arrays)
    A, B, C, D = (_cast(M, dtype) for M in (A, B, C, D))
    T_ = _cast(times_out, dtype)  # (float64 times do not promote a float32 system)
    x0 = np.zeros(n_states, dtype) if X0 is None else _cast(fnp.ravel(asarray(X0)), dtype)
    if x0.shape[0] != n_states:
        raise ValueError(f"X0 must have one entry per state ({n_states}), got {x0.shape[0]}")
    if times[0] < 0:
        raise ValueError("Initial time must be nonnegative")
    if times[0] > 0:
        x0 = x0 @ expm(fnp.transpose(A) * T_[0])
    if not no_input:
        U_ = _cast(fnp.atleast_1d(asarray(U_)), dtype)
        if U_.ndim == 1:
            U_ = U_[:, None]
        if U_.shape[0] != n_steps:
            raise ValueError("U must have the same number of rows as elements in T.")
        if U_.shape[1] != n_inputs:
            raise ValueError("System does not define that many inputs.")
    if n_steps == 1:
        xout = x0[None, :]
        yout = fnp.squeeze(xout @ fnp.transpose(C))
        if not no_input:
            yout = yout + fnp.squeeze(U_ @ fnp.transpose(D))
        return times_out, yout, fnp.squeeze(xout)
    dt = T_[1] - T_[0]
    if not np.allclose(np.diff(times), times[1] - times[0]):
        raise ValueError("Time steps are not equally spaced.")
    if no_input:
        xout = _run(x0, expm(fnp.transpose(A) * dt), np.zeros((n_steps - 1, n_states), dtype))
        return times_out, fnp.squeeze(xout @ fnp.transpose(C)), fnp.squeeze(xout)
    n, m = n_states, n_inputs
    if not interp:
        M = fnp.concatenate([fnp.concatenate([A * dt, B * dt], axis=1),
                             np.zeros((m, n + m), dtype)], axis=0)
        expMT = expm(fnp.transpose(M))
        forcing = U_[:-1] @ expMT[n:, :n]
    else:
        # the third block column integrates the input's slope over the step
        M = fnp.concatenate([fnp.concatenate([A * dt, B * dt, np.zeros((n, m), dtype)], axis=1),
                             np.concatenate([np.zeros((m, n + m), dtype), np.eye(m, dtype=dtype)],
                                            axis=1),
                             np.zeros((m, n + 2 * m), dtype)], axis=0)
        expMT = expm(fnp.transpose(M))
        Bd1 = expMT[n + m:, :n]
        Bd0 = expMT[n:n + m, :n] - Bd1
        forcing = U_[:-1] @ Bd0 + U_[1:] @ Bd1
    xout = _run(x0, expMT[:n, :n], forcing)
    yout = fnp.squeeze(xout @ fnp.transpose(C)) + fnp.squeeze(U_ @ fnp.transpose(D))
    return times_out, yout, fnp.squeeze(xout)


def _default_response_times(A, n):
    """SciPy's grid: ``n`` times over seven time constants of the slowest mode (1 when a
    mode does not decay)."""
    rates = fnp.abs(fnp.real(fnp.linalg.eigvals(A)))
    slowest = fnp.min(rates)
    if float(concrete_values(slowest, "the default response times",
                             "Pass T as plain numbers.")) == 0.0:
        slowest = fnp.ones((), A.dtype)
    return (7.0 / slowest) * (np.arange(n, dtype=A.dtype) / max(n - 1, 1))


def impulse(system: Any, X0: Optional[ArrayLike] = None, T: Optional[ArrayLike] = None,
            N: Optional[int] = None) -> tuple[Array, Array]:
    """The impulse response ``(T, yout)`` of a continuous-time system
    (``scipy.signal.impulse``), from the state ``X0`` (added to the impulse's ``B``), at
    the times ``T`` (default: ``N`` = 100 times chosen from the poles).  Differentiable
    in the system, ``X0`` and ``T``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t, y = fss.impulse(([1.0], [1.0, 2.0]), T=[0.0, 0.5, 1.0])
    >>> np.round(y, 6)  # exp(-2 t)
    array([1.      , 0.367879, 0.135335])
    """
    A, B, C, D = _continuous(system, "impulse")
    # (SciPy adds X0 to B before squeezing, which broadcasts a column B against X0 and
    # fails; the initial state the impulse leaves is B's column plus X0)
    X = fnp.squeeze(B) if X0 is None else fnp.squeeze(B) + fnp.ravel(asarray(X0))
    T_: Any = _default_response_times(A, 100 if N is None else N) if T is None else asarray(T)
    _, h, _ = lsim((A, B, C, D), 0.0, T_, X, interp=False)
    return T_, h


def step(system: Any, X0: Optional[ArrayLike] = None, T: Optional[ArrayLike] = None,
         N: Optional[int] = None) -> tuple[Array, Array]:
    """The step response ``(T, yout)`` of a continuous-time system
    (``scipy.signal.step``), from the state ``X0``, at the times ``T`` (default: ``N`` =
    100 times chosen from the poles).  Differentiable in the system, ``X0`` and ``T``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t, y = fss.step(([2.0], [1.0, 2.0]), T=[0.0, 0.5, 1.0])
    >>> np.round(y, 6)  # 1 - exp(-2 t)
    array([0.      , 0.632121, 0.864665])
    """
    A, B, C, D = _continuous(system, "step")
    T_: Any = _default_response_times(A, 100 if N is None else N) if T is None else asarray(T)
    U = np.ones(T_.shape, _float_dtype(A))
    _, y, _ = lsim((A, B, C, D), U, T_, X0=X0, interp=False)
    return T_, y


def _sampling(name, dt, t):
    """``dt`` as a float and ``t`` as plain numbers: they set the number of samples and
    the grid the input is interpolated onto, a choice made on their values, so a
    derivative in them would be dropped; refuse it rather than drop it."""
    for label, value in (("dt", dt), ("t", t)):
        if value is not None and type(asarray(value)) is not np.ndarray:
            raise TypeError(f"{name}: {label} carries a derivative, but it sets the number "
                            f"of samples and the time grid, chosen from its values; pass "
                            f"{label} as plain numbers")
    return float(np.asarray(dt)), (None if t is None else np.asarray(t, float))


def _onto_grid(u, t, tout):
    """``u`` (rows at the times ``t``) linear between them, extended by its end pieces, at
    ``tout`` (SciPy's ``make_interp_spline(t, u, k=1)(tout)``): a fixed weight matrix."""
    idx = np.clip(np.searchsorted(t, tout, side="right") - 1, 0, len(t) - 2)
    frac = (tout - t[idx]) / (t[idx + 1] - t[idx])
    weights = np.zeros((len(tout), len(t)))
    weights[np.arange(len(tout)), idx] = 1.0 - frac
    weights[np.arange(len(tout)), idx + 1] += frac
    return weights.astype(u.dtype) @ u


def dlsim(system: Any, u: ArrayLike, t: Optional[ArrayLike] = None,
          x0: Optional[ArrayLike] = None) -> tuple[Array, ...]:
    """The response of a discrete-time system to the input ``u`` (``scipy.signal.dlsim``):
    ``(tout, yout)``, and ``xout`` too for a state-space system; ``t`` (optional) are
    ``u``'s times, interpolated onto the system's ``dt``.  Differentiable in the system,
    ``u`` and ``x0``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t, y = fss.dlsim(([1.0], [1.0, -0.5], 1.0), [1.0, 0.0, 0.0, 0.0])
    >>> y.ravel()
    array([0.  , 1.  , 0.5 , 0.25])
    """
    if hasattr(system, "dt") and system.dt is None:
        raise AttributeError("dlsim can only be used with discrete-time dlti systems.")
    (A, B, C, D, dt), state_space = _discrete(system, "dlsim")
    inputs: Any = fnp.atleast_1d(asarray(u))
    if inputs.ndim == 1:
        inputs = inputs[:, None]
    step_, t = _sampling("dlsim", dt, t)
    if t is None:
        out_samples = inputs.shape[0]
        stoptime = (out_samples - 1) * step_
    else:
        stoptime = t[-1]
        out_samples = int(np.floor(stoptime / step_)) + 1
    arrays = [A, B, C, D, inputs] + ([] if x0 is None else [asarray(x0)])
    dtype = _float_dtype(*arrays)
    A, B, C, D, inputs = (_cast(M, dtype) for M in (A, B, C, D, inputs))
    if inputs.shape[1] != B.shape[1]:
        raise ValueError(f"u must have one column per input ({B.shape[1]}), got "
                         f"{inputs.shape[1]}")
    tout = np.linspace(0.0, stoptime, num=out_samples)
    state = np.zeros(A.shape[1], dtype) if x0 is None else _cast(fnp.ravel(asarray(x0)), dtype)
    u_dt = inputs if t is None else _onto_grid(inputs, t, tout)
    if u_dt.shape[0] < out_samples:
        raise ValueError(f"u has {u_dt.shape[0]} samples, fewer than the {out_samples} "
                         f"the times ask for")
    xout = _run(state, fnp.transpose(A), u_dt[:out_samples - 1] @ fnp.transpose(B))
    yout = xout @ fnp.transpose(C) + u_dt[:out_samples] @ fnp.transpose(D)
    return (tout, yout, xout) if state_space else (tout, yout)


def _unit_responses(name, system, x0, t, n, impulse_):
    if hasattr(system, "dt") and system.dt is None:
        raise AttributeError(f"{name} can only be used with discrete-time dlti systems.")
    (A, B, C, D, dt), _ = _discrete(system, name)
    n = 100 if n is None else n
    step_, t = _sampling(name, dt, t)
    t = np.linspace(0, n * step_, n, endpoint=False) if t is None else t
    outputs = []
    tout = t
    for i in range(B.shape[1]):
        u = np.zeros((t.shape[0], B.shape[1]))
        if impulse_:
            u[0, i] = 1.0
        else:
            u[:, i] = 1.0
        tout, y = dlsim((A, B, C, D, dt), u, t=t, x0=x0)[:2]
        outputs.append(y)
    return tout, tuple(outputs)


def dimpulse(system: Any, x0: Optional[ArrayLike] = None, t: Optional[ArrayLike] = None,
             n: Optional[int] = None) -> tuple[Array, tuple[Array, ...]]:
    """The impulse response of a discrete-time system (``scipy.signal.dimpulse``):
    ``(tout, (yout for each input,))`` over ``n`` samples (default 100) or the times
    ``t``.  Differentiable in the system and ``x0``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t, (y,) = fss.dimpulse(([1.0], [1.0, -0.5], 1.0), n=4)
    >>> y.ravel()
    array([0.  , 1.  , 0.5 , 0.25])
    """
    return _unit_responses("dimpulse", system, x0, t, n, True)


def dstep(system: Any, x0: Optional[ArrayLike] = None, t: Optional[ArrayLike] = None,
          n: Optional[int] = None) -> tuple[Array, tuple[Array, ...]]:
    """The step response of a discrete-time system (``scipy.signal.dstep``):
    ``(tout, (yout for each input,))`` over ``n`` samples (default 100) or the times
    ``t``.  Differentiable in the system and ``x0``.

    >>> import numpy as np, funcgrad.scipy.signal as fss
    >>> t, (y,) = fss.dstep(([1.0], [1.0, -0.5], 1.0), n=4)
    >>> y.ravel()
    array([0.  , 1.  , 1.5 , 1.75])
    """
    return _unit_responses("dstep", system, x0, t, n, False)
