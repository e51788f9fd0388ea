"""The linear time-invariant system classes of :mod:`funcgrad.scipy.signal` (re-exported
there): ``lti``, ``dlti``, ``TransferFunction``, ``ZerosPolesGain`` and ``StateSpace``,
with SciPy's construction rules, attributes, conversions and methods.

As in SciPy, ``lti(*system)`` and ``dlti(*system, dt=...)`` build the representation that
the number of arrays names (2: transfer function, 3: zeros, poles and gain, 4: state
space), and each representation has a continuous class (also an ``lti``) and a discrete
one (also a ``dlti``; ``dt`` is not None), chosen by ``dt``.  The arrays are kept as
given after SciPy's normalisation (``normalize`` for a transfer function,
``abcd_normalize`` for state space), so they may be funcgrad tracers: a function that
builds a system from traced arrays and reads a response, a conversion or an attribute
differentiates through it.  The conversions ``to_tf``, ``to_zpk`` and ``to_ss`` and the
methods (``step``, ``impulse``, ``output``, ``bode``, ``freqresp``, ``to_discrete``) are
the module functions of :mod:`._ltisys_convert`, :mod:`._ltisys_response` and
:mod:`._ltisys_freq`; ``to_zpk`` finds roots, so it needs concrete values (not under
``jit``/``vmap``), as does ``TransferFunction``'s normalisation.
"""
from typing import Any, Optional

import numpy as np

from .. import numpy as fnp
from ..numpy._convert import asarray
from ._ltisys_convert import (abcd_normalize, cont2discrete, ss2tf, ss2zpk, tf2ss,
                              zpk2ss)
from ._ltisys_freq import bode, dbode, dfreqresp, freqresp
from ._ltisys_response import dimpulse, dlsim, dstep, impulse, lsim, step
from ._signalmore_lti import normalize, tf2zpk, zpk2tf

__all__ = ["lti", "dlti", "TransferFunction", "ZerosPolesGain", "StateSpace"]


class LinearTimeInvariant:
    """What the three representations share: ``dt``, ``inputs``, ``outputs``, the zeros
    and poles, and the conversions between forms."""

    def __new__(cls, *system, **kwargs):
        if cls is LinearTimeInvariant:
            raise NotImplementedError("The LinearTimeInvariant class is not meant to be "
                                      "used directly, use `lti` or `dlti` instead.")
        return super().__new__(cls)

    def __init__(self):
        super().__init__()
        self.inputs: Optional[int] = None
        self.outputs: Optional[int] = None
        self._dt: Any = None

    @property
    def dt(self) -> Any:
        """The sampling time of a discrete system; None for a continuous one."""
        return self._dt

    @property
    def _dt_dict(self):
        return {} if self.dt is None else {"dt": self.dt}

    @property
    def zeros(self) -> Any:
        """The zeros of the system."""
        return self.to_zpk().zeros

    @property
    def poles(self) -> Any:
        """The poles of the system."""
        return self.to_zpk().poles

    def to_tf(self) -> "TransferFunction":
        """This system as a :class:`TransferFunction`."""
        raise NotImplementedError

    def to_zpk(self) -> "ZerosPolesGain":
        """This system as a :class:`ZerosPolesGain`."""
        raise NotImplementedError

    def to_ss(self) -> "StateSpace":
        """This system as a :class:`StateSpace`."""
        raise NotImplementedError

    def _as_ss(self):
        return self if isinstance(self, StateSpace) else self.to_ss()

    def _as_zpk(self):
        return self if isinstance(self, ZerosPolesGain) else self.to_zpk()

    def _as_tf(self):
        return self if isinstance(self, TransferFunction) else self.to_tf()


class lti(LinearTimeInvariant):
    """A continuous-time linear time-invariant system (``scipy.signal.lti``):
    ``lti(num, den)``, ``lti(z, p, k)`` or ``lti(A, B, C, D)`` builds a
    :class:`TransferFunction`, :class:`ZerosPolesGain` or :class:`StateSpace`.  The
    arrays may be traced: responses and conversions differentiate in them.

    >>> import numpy as np, funcgrad as fg, funcgrad.scipy.signal as fss
    >>> system = fss.lti([1.0], [1.0, 1.0])
    >>> type(system).__name__, system.poles
    ('TransferFunctionContinuous', array([-1.]))
    >>> t, y = system.step(T=[0.0, 1.0])
    >>> np.round(y, 6)
    array([0.      , 0.632121])
    >>> settle = lambda a: fss.lti([1.0], [1.0, a]).step(T=[0.0, 1.0])[1][1]
    >>> round(float(fg.grad(settle)(1.0)), 6)  # d/da (1 - exp(-a)) / a
    -0.264241
    """

    def __new__(cls, *system):
        if cls is lti:
            kinds = {2: TransferFunctionContinuous, 3: ZerosPolesGainContinuous,
                     4: StateSpaceContinuous}
            if len(system) not in kinds:
                raise ValueError("`system` needs to be an instance of `lti` or have 2, 3 "
                                 "or 4 arguments.")
            kind = kinds[len(system)]
            return kind.__new__(kind, *system)
        return super().__new__(cls)

    def __init__(self, *system):
        super().__init__(*system)

    def impulse(self, X0=None, T=None, N=None):
        """The impulse response: :func:`funcgrad.scipy.signal.impulse` of this system."""
        return impulse(self, X0=X0, T=T, N=N)

    def step(self, X0=None, T=None, N=None):
        """The step response: :func:`funcgrad.scipy.signal.step` of this system."""
        return step(self, X0=X0, T=T, N=N)

    def output(self, U, T, X0=None):
        """The response to ``U``: :func:`funcgrad.scipy.signal.lsim` of this system."""
        return lsim(self, U, T, X0=X0)

    def bode(self, w=None, n=100):
        """The Bode plot's data: :func:`funcgrad.scipy.signal.bode` of this system."""
        return bode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000):
        """The frequency response: :func:`funcgrad.scipy.signal.freqresp` of this system."""
        return freqresp(self, w=w, n=n)

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised system (:func:`funcgrad.scipy.signal.cont2discrete`), in the
        same representation, with ``dt``."""
        raise NotImplementedError("to_discrete is not implemented for this system class.")


class dlti(LinearTimeInvariant):
    """A discrete-time linear time-invariant system (``scipy.signal.dlti``):
    ``dlti(num, den, dt=...)``, ``dlti(z, p, k, dt=...)`` or ``dlti(A, B, C, D, dt=...)``
    (``dt`` the sampling time, default True: unspecified).  The arrays may be traced.

    >>> import funcgrad.scipy.signal as fss
    >>> system = fss.dlti([1.0], [1.0, -0.5], dt=0.1)
    >>> t, (y,) = system.impulse(n=3)
    >>> t, y.ravel()
    (array([0. , 0.1, 0.2]), array([0. , 1. , 0.5]))
    """

    def __new__(cls, *system, **kwargs):
        if cls is dlti:
            kinds = {2: TransferFunctionDiscrete, 3: ZerosPolesGainDiscrete,
                     4: StateSpaceDiscrete}
            if len(system) not in kinds:
                raise ValueError("`system` needs to be an instance of `dlti` or have 2, 3 "
                                 "or 4 arguments.")
            kind = kinds[len(system)]
            return kind.__new__(kind, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        dt = kwargs.pop("dt", True)
        super().__init__(*system, **kwargs)
        self.dt = dt

    @property
    def dt(self) -> Any:
        """The sampling time (True when unspecified)."""
        return self._dt

    @dt.setter
    def dt(self, dt):
        self._dt = dt

    def impulse(self, x0=None, t=None, n=None):
        """The impulse response: :func:`funcgrad.scipy.signal.dimpulse` of this system."""
        return dimpulse(self, x0=x0, t=t, n=n)

    def step(self, x0=None, t=None, n=None):
        """The step response: :func:`funcgrad.scipy.signal.dstep` of this system."""
        return dstep(self, x0=x0, t=t, n=n)

    def output(self, u, t, x0=None):
        """The response to ``u``: :func:`funcgrad.scipy.signal.dlsim` of this system."""
        return dlsim(self, u, t, x0=x0)

    def bode(self, w=None, n=100):
        """The Bode plot's data: :func:`funcgrad.scipy.signal.dbode` of this system."""
        return dbode(self, w=w, n=n)

    def freqresp(self, w=None, n=10000, whole=False):
        """The frequency response: :func:`funcgrad.scipy.signal.dfreqresp` of this
        system."""
        return dfreqresp(self, w=w, n=n, whole=whole)


def _pick(continuous, discrete, kwargs):
    return continuous if kwargs.get("dt") is None else discrete


class TransferFunction(LinearTimeInvariant):
    """A linear time-invariant system as the transfer function ``num / den``
    (``scipy.signal.TransferFunction``), continuous, or discrete with ``dt=``;
    ``num`` and ``den`` are normalised (``den[0] == 1``).  ``TransferFunction(system)``
    converts another representation.

    >>> import funcgrad.scipy.signal as fss
    >>> H = fss.TransferFunction([2.0, 2.0], [2.0, 3.0, 1.0])
    >>> H.num, H.den
    (array([1., 1.]), array([1. , 1.5, 0.5]))
    >>> H.to_ss().A
    array([[-1.5, -0.5],
           [ 1. ,  0. ]])
    """

    def __new__(cls, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_tf()
        if cls is TransferFunction:
            kind = _pick(TransferFunctionContinuous, TransferFunctionDiscrete, kwargs)
            return kind.__new__(kind, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._num: Any = None
        self._den: Any = None
        self.num, self.den = normalize(*system)

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.num!r},\n{self.den!r},\n"
                f"dt: {self.dt!r}\n)")

    @property
    def num(self) -> Any:
        """The numerator (2-d: one row per output)."""
        return self._num

    @num.setter
    def num(self, num):
        self._num = fnp.atleast_1d(asarray(num))
        if self._num.ndim > 1:
            self.outputs, self.inputs = self._num.shape
        else:
            self.outputs, self.inputs = 1, 1

    @property
    def den(self) -> Any:
        """The denominator."""
        return self._den

    @den.setter
    def den(self, den):
        self._den = fnp.atleast_1d(asarray(den))

    def to_tf(self):
        """A copy of this system."""
        return TransferFunction(self.num, self.den, **self._dt_dict)

    def to_zpk(self):
        """This system as :class:`ZerosPolesGain`."""
        return ZerosPolesGain(*tf2zpk(self.num, self.den), **self._dt_dict)

    def to_ss(self):
        """This system as :class:`StateSpace` (the controller canonical form)."""
        return StateSpace(*tf2ss(self.num, self.den), **self._dt_dict)


class TransferFunctionContinuous(TransferFunction, lti):
    """A continuous-time transfer function (see :class:`TransferFunction`)."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised transfer function (``cont2discrete``), with ``dt``."""
        return TransferFunction(*cont2discrete((self.num, self.den), dt, method=method,
                                               alpha=alpha)[:-1], dt=dt)


class TransferFunctionDiscrete(TransferFunction, dlti):
    """A discrete-time transfer function (see :class:`TransferFunction`)."""


class ZerosPolesGain(LinearTimeInvariant):
    """A linear time-invariant system by its zeros, poles and gain
    (``scipy.signal.ZerosPolesGain``), continuous, or discrete with ``dt=``.
    ``ZerosPolesGain(system)`` converts another representation.

    >>> import funcgrad.scipy.signal as fss
    >>> H = fss.ZerosPolesGain([-1.0], [-2.0, -3.0], 2.0)
    >>> H.to_tf().den
    array([1., 5., 6.])
    """

    def __new__(cls, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_zpk()
        if cls is ZerosPolesGain:
            kind = _pick(ZerosPolesGainContinuous, ZerosPolesGainDiscrete, kwargs)
            return kind.__new__(kind, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._zeros: Any = None
        self._poles: Any = None
        self._gain: Any = None
        self.zeros, self.poles, self.gain = system

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.zeros!r},\n{self.poles!r},\n"
                f"{self.gain!r},\ndt: {self.dt!r}\n)")

    @property
    def zeros(self) -> Any:
        """The zeros."""
        return self._zeros

    @zeros.setter
    def zeros(self, zeros):
        self._zeros = fnp.atleast_1d(asarray(zeros))
        if self._zeros.ndim > 1:
            self.outputs, self.inputs = self._zeros.shape
        else:
            self.outputs, self.inputs = 1, 1

    @property
    def poles(self) -> Any:
        """The poles."""
        return self._poles

    @poles.setter
    def poles(self, poles):
        self._poles = fnp.atleast_1d(asarray(poles))

    @property
    def gain(self) -> Any:
        """The gain."""
        return self._gain

    @gain.setter
    def gain(self, gain):
        self._gain = gain

    def to_tf(self):
        """This system as :class:`TransferFunction`."""
        return TransferFunction(*zpk2tf(self.zeros, self.poles, self.gain),
                                **self._dt_dict)

    def to_zpk(self):
        """A copy of this system."""
        return ZerosPolesGain(self.zeros, self.poles, self.gain, **self._dt_dict)

    def to_ss(self):
        """This system as :class:`StateSpace`."""
        return StateSpace(*zpk2ss(self.zeros, self.poles, self.gain), **self._dt_dict)


class ZerosPolesGainContinuous(ZerosPolesGain, lti):
    """A continuous-time zeros-poles-gain system (see :class:`ZerosPolesGain`)."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised system (``cont2discrete``), with ``dt``."""
        return ZerosPolesGain(*cont2discrete((self.zeros, self.poles, self.gain), dt,
                                             method=method, alpha=alpha)[:-1], dt=dt)


class ZerosPolesGainDiscrete(ZerosPolesGain, dlti):
    """A discrete-time zeros-poles-gain system (see :class:`ZerosPolesGain`)."""


def _common(a, b, c, d):
    dtype = np.result_type(a.dtype, b.dtype, c.dtype, d.dtype)
    return tuple(fnp.astype(m, dtype) if m.dtype != dtype else m for m in (a, b, c, d))


class StateSpace(LinearTimeInvariant):
    """A linear time-invariant system in state-space form ``x' = A x + B u``,
    ``y = C x + D u`` (``scipy.signal.StateSpace``), continuous, or discrete with
    ``dt=``; ``StateSpace(system)`` converts another representation.  Systems combine as
    SciPy's: ``*`` in series, ``+`` in parallel, and with matrices or scalars.

    >>> import funcgrad.scipy.signal as fss
    >>> S = fss.StateSpace([[-1.0]], [[1.0]], [[1.0]], [[0.0]])
    >>> (2.0 * S).C, (S + S).A
    (array([[2.]]), array([[-1.,  0.],
           [ 0., -1.]]))
    """

    __array_priority__ = 100.0  # (NumPy arrays defer to these operators)
    __array_ufunc__ = None

    def __new__(cls, *system, **kwargs):
        if len(system) == 1 and isinstance(system[0], LinearTimeInvariant):
            return system[0].to_ss()
        if cls is StateSpace:
            kind = _pick(StateSpaceContinuous, StateSpaceDiscrete, kwargs)
            return kind.__new__(kind, *system, **kwargs)
        return super().__new__(cls)

    def __init__(self, *system, **kwargs):
        if isinstance(system[0], LinearTimeInvariant):
            return
        super().__init__(**kwargs)
        self._A: Any = None
        self._B: Any = None
        self._C: Any = None
        self._D: Any = None
        self.A, self.B, self.C, self.D = abcd_normalize(*system)

    def __repr__(self):
        return (f"{self.__class__.__name__}(\n{self.A!r},\n{self.B!r},\n{self.C!r},\n"
                f"{self.D!r},\ndt: {self.dt!r}\n)")

    def _operand(self, other):
        return isinstance(other, (StateSpace, np.ndarray, float, complex, np.number, int)) \
            or hasattr(other, "shape")  # (a traced array)

    def __mul__(self, other):
        if not self._operand(other):
            return NotImplemented
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                return NotImplemented
            if self.dt != other.dt:
                raise TypeError("Cannot multiply systems with different `dt`.")
            n1, n2 = self.A.shape[0], other.A.shape[0]
            a = fnp.concatenate([fnp.concatenate([self.A, self.B @ other.C], axis=1),
                                 fnp.concatenate([np.zeros((n2, n1), self.A.dtype), other.A],
                                                 axis=1)], axis=0)
            b = fnp.concatenate([self.B @ other.D, other.B], axis=0)
            c = fnp.concatenate([self.C, self.D @ other.C], axis=1)
            d = self.D @ other.D
        else:
            a, b, c, d = self.A, fnp.dot(self.B, other), self.C, fnp.dot(self.D, other)
        return StateSpace(*_common(a, b, c, d), **self._dt_dict)

    def __rmul__(self, other):
        if not self._operand(other) or isinstance(other, StateSpace):
            return NotImplemented
        a, b, c, d = self.A, self.B, fnp.dot(other, self.C), fnp.dot(other, self.D)
        return StateSpace(*_common(a, b, c, d), **self._dt_dict)

    def __neg__(self):
        return StateSpace(self.A, self.B, -self.C, -self.D, **self._dt_dict)

    def __add__(self, other):
        if not self._operand(other):
            return NotImplemented
        if isinstance(other, StateSpace):
            if type(other) is not type(self):
                raise TypeError(f"Cannot add {type(self)} and {type(other)}")
            if self.dt != other.dt:
                raise TypeError("Cannot add systems with different `dt`.")
            n1, n2 = self.A.shape[0], other.A.shape[0]
            a = fnp.concatenate([
                fnp.concatenate([self.A, np.zeros((n1, n2), self.A.dtype)], axis=1),
                fnp.concatenate([np.zeros((n2, n1), other.A.dtype), other.A], axis=1)],
                axis=0)
            b = fnp.concatenate([self.B, other.B], axis=0)
            c = fnp.concatenate([self.C, other.C], axis=1)
            d = self.D + other.D
        else:
            other = fnp.atleast_2d(asarray(other))
            if tuple(self.D.shape) != tuple(other.shape):
                raise ValueError(f"Cannot add systems with incompatible dimensions "
                                 f"({tuple(self.D.shape)} and {tuple(other.shape)})")
            a, b, c, d = self.A, self.B, self.C, self.D + other
        return StateSpace(*_common(a, b, c, d), **self._dt_dict)

    def __sub__(self, other):
        if not self._operand(other):
            return NotImplemented
        return self.__add__(-other)

    def __radd__(self, other):
        if not self._operand(other):
            return NotImplemented
        return self.__add__(other)

    def __rsub__(self, other):
        if not self._operand(other):
            return NotImplemented
        return (-self).__add__(other)

    def __truediv__(self, other):
        if not self._operand(other) or isinstance(other, StateSpace):
            return NotImplemented
        if getattr(other, "ndim", 0) > 0:
            raise ValueError("Cannot divide StateSpace by non-scalar numpy arrays")
        return self.__mul__(1 / other)

    @property
    def A(self) -> Any:
        """The state matrix."""
        return self._A

    @A.setter
    def A(self, A):
        self._A = fnp.atleast_2d(asarray(A))

    @property
    def B(self) -> Any:
        """The input matrix."""
        return self._B

    @B.setter
    def B(self, B):
        self._B = fnp.atleast_2d(asarray(B))
        self.inputs = self._B.shape[-1]

    @property
    def C(self) -> Any:
        """The output matrix."""
        return self._C

    @C.setter
    def C(self, C):
        self._C = fnp.atleast_2d(asarray(C))
        self.outputs = self._C.shape[0]

    @property
    def D(self) -> Any:
        """The feedthrough matrix."""
        return self._D

    @D.setter
    def D(self, D):
        self._D = fnp.atleast_2d(asarray(D))

    def to_tf(self, **kwargs):
        """This system as :class:`TransferFunction` (``input=`` picks the input)."""
        return TransferFunction(*ss2tf(self.A, self.B, self.C, self.D, **kwargs),
                                **self._dt_dict)

    def to_zpk(self, **kwargs):
        """This system as :class:`ZerosPolesGain` (``input=`` picks the input)."""
        return ZerosPolesGain(*ss2zpk(self.A, self.B, self.C, self.D, **kwargs),
                              **self._dt_dict)

    def to_ss(self):
        """A copy of this system."""
        return StateSpace(self.A, self.B, self.C, self.D, **self._dt_dict)


class StateSpaceContinuous(StateSpace, lti):
    """A continuous-time state-space system (see :class:`StateSpace`)."""

    def to_discrete(self, dt, method="zoh", alpha=None):
        """The discretised system (``cont2discrete``), with ``dt``."""
        return StateSpace(*cont2discrete((self.A, self.B, self.C, self.D), dt,
                                         method=method, alpha=alpha)[:-1], dt=dt)


class StateSpaceDiscrete(StateSpace, dlti):
    """A discrete-time state-space system (see :class:`StateSpace`)."""
