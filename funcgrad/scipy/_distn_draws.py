"""The univariate distributions' methods for drawing and describing a distribution: ``rvs``
(differentiable draws), ``support``, ``interval``, ``freeze`` and SciPy's attributes.

Mixed into :class:`funcgrad.scipy._distn.rv_continuous` (so also ``rv_discrete``) and
:class:`funcgrad.scipy._distn.rv_frozen`; kept here so that ``_distn`` holds the densities
and their direct relatives.

**Draws.**  ``rvs`` calls SciPy's own ``rvs`` of the same name on the parameters' values,
so with the same ``random_state`` the draws are SciPy's, to the last bit.  Where a
parameter carries a derivative, the draws carry the *pathwise* one of the coupling that
holds each draw's quantile ``u = cdf(x; theta)`` fixed (the implicit reparameterization
gradient): ``dx/dtheta = -(dcdf/dtheta)(x; theta) / pdf(x; theta)``, and for ``loc`` and
``scale`` 1 and ``z = (x - loc) / scale``.  It is one rule for every family, written with
the family's own differentiable ``cdf`` through :func:`funcgrad.lax.custom_root` (the
standardized draw is the root of ``cdf(z; theta) - u``), so it holds to every order and
in every mode, and reaches what a distribution holds besides its parameters
(``rv_histogram``'s heights and edges).

Where SciPy draws by inverting the CDF or by a monotone map of one variate (``norm``,
``lognorm``, ``weibull_min``, ``genpareto``, ``truncnorm``, ``rv_histogram``...) this is
also the derivative of SciPy's draws with the seed fixed.  Where SciPy's sampler uses
rejection or several variates (``gamma``, ``beta``, ``t``, ``chi2``, ``vonmises``...) the
draws at a nearby ``theta`` are another coupling, and their finite differences are not
this derivative, though both are unbiased for the gradient of an expectation.  Draws of
a discrete family are SciPy's integers, whose derivative is 0 (funcgrad's convention for
integer results, as a discrete ``ppf``'s).

**Support.**  ``support`` places the standardized ends ``(a, b)`` at ``a * scale + loc``;
ends that move with a shape parameter come from :mod:`._distn_support`, with their
derivatives; infinite ends are constants.  ``a``, ``b``, ``badvalue``, ``xtol``,
``moment_type``, ``inc`` and ``moment_tol`` are SciPy's values for the family, read from
its SciPy twin.  ``shapes`` stays funcgrad's tuple of names (every family's machinery
reads it): SciPy's comma-separated string is ``", ".join(dist.shapes)``.
"""
import copy
import math
import numbers
from typing import Any, Callable, Dict, Optional, Tuple

import numpy as np

from .. import numpy as fnp
from ..core import Tracer, is_special
from ..errors import ConcretizationError
from ..lax import custom_root, stop_gradient
from ..numpy._convert import concrete_values, is_concrete, operand
from ..typing import Array, ArrayLike
from ._distn_rvs_traced import is_traced, traced_rvs
from ._distn_support import SHAPED_SUPPORTS, shaped_support
from ._implicit_root import wants_derivative

__all__ = ["DistnDraws", "FrozenDraws", "check_random_state"]

_CONCRETE_FIX = ("Draw outside vmap and jit: SciPy's random stream needs one concrete value "
                 "of each parameter.")


def check_random_state(seed: Any) -> Any:
    """A NumPy random state from SciPy's ``random_state`` argument: the global
    ``RandomState`` for None, a new one seeded with an integer, a ``Generator`` or
    ``RandomState`` as given (SciPy's ``check_random_state``).

    >>> import numpy as np
    >>> check_random_state(None) is np.random.mtrand._rand, type(check_random_state(3))
    (True, <class 'numpy.random.mtrand.RandomState'>)
    """
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, (numbers.Integral, np.integer)):
        return np.random.RandomState(int(seed))
    if isinstance(seed, (np.random.RandomState, np.random.Generator)):
        return seed
    raise ValueError(f"random_state={seed!r} cannot be used to seed a numpy.random.RandomState "
                     f"instance: give None, an integer, a numpy.random.Generator or a "
                     f"RandomState")


def _scipy_stats(name):
    try:
        import scipy.stats as stats
    except ImportError as e:  # (funcgrad itself never imports SciPy)
        raise ImportError(f"{name}: draws and SciPy's constants come from SciPy's twin "
                          f"distribution: pip install scipy") from e
    return stats


class _Scipys:
    """A constant of SciPy's distribution object (``a``, ``xtol``...): its twin's value,
    looked up when asked (a non-data descriptor: ``rv_histogram`` sets its own ``a``)."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, dist, owner=None):
        if dist is None:
            return self
        twin = dist._scipy_twin()
        if not hasattr(twin, self.name):
            raise AttributeError(f"{dist.name} has no attribute {self.name!r} (SciPy's "
                                 f"{dist.name} has none)")
        return getattr(twin, self.name)


def _plain(value):
    """``value`` for SciPy: numbers and NumPy arrays as given, the rest concrete."""
    if isinstance(value, (numbers.Number, np.ndarray, np.generic)):
        return value
    if isinstance(value, Tracer) or is_special(value):
        value = stop_gradient(value)
    return concrete_values(fnp.asarray(value), "rvs", _CONCRETE_FIX)


def _named(dist, args, kwds):
    """The parameters as given (funcgrad's parsing checked them), by name, with the
    defaults of ``loc`` and ``scale``: before any invalid value is replaced."""
    values = dict(dist._defaults)
    values.update(zip(list(dist.shapes) + list(dist._defaults), args))
    values.update(kwds)
    return values


def _shape(value):
    return tuple(value.shape) if hasattr(value, "shape") else np.shape(value)


def _placed(end, loc, scale):
    """``end * scale + loc``, an infinite (or NaN) end as it is: a constant, with no
    ``inf * 0`` in its derivative."""
    if isinstance(end, (int, float)):
        return end if not math.isfinite(end) else end * scale + loc
    end = fnp.asarray(end)
    finite = fnp.isfinite(end)
    return fnp.where(finite, fnp.where(finite, end, 0.0) * scale + loc, end)


def _pathwise(dist, draws, standard, shape, loc, scale, moving):
    """SciPy's ``draws`` (values unchanged) with their pathwise derivative, from the
    standardized draws ``standard`` behind them; ``moving``: whether the shape parameters
    (or the distribution's own arrays) carry a derivative."""
    z0 = np.asarray(standard, dtype=float)
    finite = np.isfinite(z0)
    z0 = np.where(finite, z0, 0.0)
    z = z0
    if moving:
        # u = cdf(z0): the quantile each draw keeps; z(theta) is the root of cdf(z) - u
        u = concrete_values(stop_gradient(dist.cdf(z0, *shape)), "rvs", _CONCRETE_FIX)
        try:
            z = custom_root(lambda z: dist.cdf(z, *shape) - u, z0, lambda f, guess: z0,
                            lambda linear, rhs: rhs / linear(fnp.ones_like(rhs)))
        except TypeError as e:  # (ConcretizationError too)
            raise NotImplementedError(
                f"{dist.name}.rvs: the draws' derivative in the shape parameters is that of "
                f"the root z of {dist.name}.cdf(z) = u, which funcgrad traces without "
                f"concrete values, and {dist.name}.cdf cannot run so ({e}). Differentiate "
                f"in loc and scale only, passing the shape parameters through "
                f"fg.stop_gradient") from e
    x = np.asarray(draws, dtype=float)
    out = fnp.asarray(x)
    # each term is 0 in value (x stays SciPy's draws exactly) and carries a derivative
    # (SciPy's circular families wrap loc + scale * z into a period: a shift by a constant)
    if wants_derivative(loc):
        out = out + (loc - stop_gradient(loc))
    if moving or wants_derivative(scale):
        out = out + (scale * z - stop_gradient(scale) * z0)
    if not finite.all():  # (an overflowed draw: a constant, as the support's infinite ends)
        out = fnp.where(finite, out, x)
    return out


class DistnDraws:
    """Methods of ``rv_continuous`` and ``rv_discrete`` (see the module docstring)."""

    # what rv_continuous gives (annotations only)
    name: str
    shapes: Tuple[str, ...]
    _defaults: Dict[str, float]
    _args: Callable[..., Any]
    _out: Callable[..., Any]
    cdf: Callable[..., Any]
    ppf: Callable[..., Any]
    entropy: Callable[..., Any]
    __call__: Callable[..., Any]

    # SciPy's constants of the family (looked up on its SciPy twin)
    a = _Scipys()
    b = _Scipys()
    badvalue = _Scipys()
    xtol = _Scipys()
    moment_type = _Scipys()
    inc = _Scipys()
    moment_tol = _Scipys()

    def _scipy_twin(self) -> Any:
        """SciPy's distribution of the same name (an ``rv_histogram`` makes its own)."""
        stats = _scipy_stats(self.name)
        twin = getattr(stats, self.name, None)
        if not isinstance(twin, (stats.rv_continuous, stats.rv_discrete)):
            raise NotImplementedError(f"{self.name}: SciPy has no distribution of this name, "
                                      f"whose draws and constants funcgrad would give")
        return twin

    @property
    def _is_discrete(self) -> bool:
        return "scale" not in self._defaults  # (a discrete family has loc alone)

    @property
    def numargs(self) -> int:
        """The number of shape parameters, as SciPy's ``numargs``.

        >>> import funcgrad.scipy.stats as fst
        >>> fst.norm.numargs, fst.gamma.numargs, fst.hypergeom.numargs
        (0, 1, 3)
        """
        return len(self.shapes)

    @property
    def random_state(self) -> Any:
        """The random state ``rvs`` draws from when given none, as SciPy's: NumPy's global
        ``RandomState`` unless set (to None, an integer seed, a ``Generator`` or a
        ``RandomState``).

        >>> import numpy as np, funcgrad.scipy.stats as fst
        >>> fst.norm.random_state is np.random.mtrand._rand
        True
        """
        state = self.__dict__.get("_random_state")
        return np.random.mtrand._rand if state is None else state

    @random_state.setter
    def random_state(self, seed: Any) -> None:
        self.__dict__["_random_state"] = check_random_state(seed)

    def freeze(self, *args: ArrayLike, **kwds: ArrayLike) -> Any:
        """The distribution with its parameters fixed, the same as calling it.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.gamma.freeze(2.0, scale=3.0).mean())
        6.0
        """
        return self(*args, **kwds)

    def _standard_support(self, shape):
        """The standardized support's ends ``(a, b)`` at the shape parameters ``shape``."""
        own = self.__dict__
        if "a" in own and "b" in own:  # (rv_histogram: its first and last edges)
            return own["a"], own["b"]
        if self.name in SHAPED_SUPPORTS:
            return shaped_support(self.name, self.shapes, shape)
        twin, stats = self._scipy_twin(), _scipy_stats(self.name)
        base = stats.rv_discrete if isinstance(twin, stats.rv_discrete) else stats.rv_continuous
        if type(twin)._get_support is not base._get_support:
            # (a family whose ends move, not yet in _distn_support: SciPy's values, and no
            # derivative)
            if any(wants_derivative(s) for s in shape):
                raise NotImplementedError(
                    f"{self.name}.support: the ends depend on the shape parameters and "
                    f"funcgrad takes them from SciPy, without derivatives; pass the "
                    f"shape parameters through fg.stop_gradient")
            with np.errstate(invalid="ignore", divide="ignore"):
                ends = twin._get_support(*[_plain(s) for s in shape])
            return tuple(np.asarray(e, dtype=float) for e in ends)
        return float(twin.a), float(twin.b)

    def support(self, *args: ArrayLike, **kwds: ArrayLike) -> Tuple[Array, Array]:
        """The support's ends ``(a * scale + loc, b * scale + loc)``, NaN where the
        parameters are invalid, as SciPy's; differentiable where an end moves with a
        parameter (``genpareto``'s ``-1/c`` for ``c < 0``, ``truncnorm``'s ``a``...).

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> [float(e) for e in fst.genpareto.support(-0.5, loc=1.0, scale=2.0)]
        [1.0, 5.0]
        >>> float(fg.grad(lambda c: fst.genpareto.support(c)[1])(-0.5))  # d(-1/c)/dc
        4.0
        """
        shape, (loc, scale), ok = self._args(args, kwds)
        a, b = self._standard_support(shape)
        trials = self.name == "poisson_binom"
        # (poisson_binom's p holds the trials along its last axis)
        full = np.broadcast_shapes(*[_shape(s)[:-1] if trials else _shape(s) for s in shape],
                                   _shape(loc), _shape(scale))
        ends = [fnp.broadcast_to(fnp.asarray(_placed(e, loc, scale)), full) for e in (a, b)]
        return (self._out(ends[0], ok, *shape, loc, scale),
                self._out(ends[1], ok, *shape, loc, scale))

    def interval(self, confidence: ArrayLike, *args: ArrayLike,
                 **kwds: ArrayLike) -> Tuple[Array, Array]:
        """The interval around the median holding probability ``confidence``:
        ``ppf((1 - confidence) / 2)`` and ``ppf((1 + confidence) / 2)``, as SciPy's;
        differentiable in ``confidence`` and the parameters (through ``ppf``).

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> [round(float(e), 6) for e in fst.norm.interval(0.95, loc=1.0)]
        [-0.959964, 2.959964]
        >>> round(float(fg.grad(lambda s: fst.norm.interval(0.95, scale=s)[1])(2.0)), 6)
        1.959964
        """
        if confidence is None:
            raise TypeError("interval needs confidence, the probability inside the "
                            "interval, in [0, 1]")
        alpha = operand(confidence)
        if is_concrete(alpha):
            value = concrete_values(stop_gradient(alpha), "interval", "")
            if np.any((value > 1) | (value < 0)):
                raise ValueError("alpha must be between 0 and 1 inclusive")
        return (self.ppf((1.0 - alpha) / 2, *args, **kwds),
                self.ppf((1.0 + alpha) / 2, *args, **kwds))

    def vecentropy(self, *args: ArrayLike) -> Array:
        """The entropy of the standardized distribution (``loc = 0``, ``scale = 1``) at
        the shape parameters ``args``, as SciPy's ``vecentropy``.

        >>> import funcgrad.scipy.stats as fst
        >>> round(float(fst.expon.vecentropy()), 12)
        1.0
        """
        return self.entropy(*args)

    def rvs(self, *args: ArrayLike, size: Any = None, random_state: Any = None,
            **kwds: ArrayLike) -> Any:
        """Random draws, SciPy's own for the same ``random_state`` (the distribution's,
        NumPy's global ``RandomState`` unless set, when None), with their pathwise
        derivative in the parameters: each draw's quantile ``cdf(x)`` held fixed (see the
        module docstring; a discrete family's integers have derivative 0).

        Under ``vmap`` and ``jit`` (a traced parameter) the draws are SciPy's too, made
        when the traced code runs (:mod:`._distn_rvs_traced`): ``vmap`` draws example by
        example in the batch's order, equal to stacking the eager draws of a loop over
        the examples; a ``jit``-compiled function draws afresh at each call, from the
        random state as it then is (an integer seed: the same draws each call).  A draw
        whose parameters are all constants of the traced function is made once, when it
        is traced, as any constant.  Their derivatives are the eager ones; under ``jit``
        the draws always hold their derivative's terms, so ``scale = 0`` and parameters
        funcgrad's family rejects raise ValueError when drawn there.

        >>> import numpy as np, funcgrad as fg, funcgrad.scipy.stats as fst
        >>> x = fst.weibull_min.rvs(1.5, size=3, random_state=0)
        >>> import scipy.stats
        >>> bool(np.all(x == scipy.stats.weibull_min.rvs(1.5, size=3, random_state=0)))
        True
        >>> dx = fg.jacfwd(lambda c: fst.weibull_min.rvs(c, size=3, random_state=0))(1.5)
        >>> bool(np.allclose(dx, -np.log(x) * x / 1.5))  # x = E**(1/c), E exponential
        True
        """
        shape, (loc, scale), ok = self._args(args, kwds)
        if any(is_traced(v) for v in (*args, *kwds.values(), *vars(self).values())):
            return self._traced_rvs(args, kwds, shape, loc, scale, ok, size, random_state)
        state = check_random_state(self.random_state if random_state is None else random_state)
        moving = (any(wants_derivative(s) for s in shape)
                  or any(wants_derivative(v) for v in vars(self).values()))
        wanted = not self._is_discrete and (
            moving or wants_derivative(loc) or wants_derivative(scale))
        # (a copy of the random state before the draws: the standardized draws behind them,
        # for the derivative, are drawn again from it, the caller's state untouched)
        spare = copy.deepcopy(state) if wanted else None
        twin = self._scipy_twin()
        draws = twin.rvs(*[_plain(v) for v in args], size=size, random_state=state,
                         **{k: _plain(v) for k, v in kwds.items()})
        if not wanted:
            return draws
        loc_value, scale_value = _plain(loc), _plain(scale)
        if np.any(np.asarray(_plain(_named(self, args, kwds)["scale"])) == 0):
            raise ValueError(f"{self.name}.rvs: with scale = 0 the draws are loc, taken "
                             f"without SciPy's random stream, and have no derivative in the "
                             f"shape parameters or scale; pass scale > 0")
        if ok is not None:
            raise ValueError(f"{self.name}.rvs: SciPy drew at parameters that funcgrad's "
                             f"{self.name} treats as invalid, where its cdf gives no "
                             f"derivative; check the parameters")
        standard = twin.rvs(*[_plain(s) for s in shape], loc=np.zeros(np.shape(loc_value)),
                            scale=np.ones(np.shape(scale_value)), size=size,
                            random_state=spare)
        return _pathwise(self, draws, standard, shape, loc, scale, moving)

    def _traced_rvs(self, args, kwds, shape, loc, scale, ok, size, random_state):
        """``rvs`` under ``vmap``/``jit``: SciPy's draws when the traced code runs."""
        check_random_state(random_state)  # (a bad seed fails now, as eagerly)
        try:
            twin = self._scipy_twin()
        except ConcretizationError as e:  # (rv_histogram's traced heights or edges)
            raise ConcretizationError(
                f"{self.name}.rvs under vmap or jit: SciPy's twin distribution, which draws, "
                f"is built from this distribution's own arrays, and they are traced here. "
                f"Build the distribution outside vmap and jit, or draw outside them") from e

        def state():
            return check_random_state(self.random_state if random_state is None
                                      else random_state)
        return traced_rvs(self, twin, _named(self, args, kwds), shape, loc, scale, ok,
                          size, state)


class FrozenDraws:
    """Methods of ``rv_frozen`` (see the module docstring)."""

    # what rv_frozen gives (annotations only)
    dist: Any
    args: tuple
    kwds: dict

    def _shapes(self):
        values = _named(self.dist, self.args, self.kwds)
        return [operand(values[s]) for s in self.dist.shapes]

    def _ends(self):
        standard = getattr(self.dist, "_standard_support", None)
        if standard is None:
            raise AttributeError(f"{self.dist!r} has no support ends a, b")
        return standard(self._shapes())

    @property
    def a(self) -> Any:
        """The standardized support's left end at the frozen shape parameters (without
        ``loc`` and ``scale``), as SciPy's frozen ``a``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.truncnorm(-1.0, 2.0, loc=5.0).a)
        -1.0
        """
        return self._ends()[0]

    @property
    def b(self) -> Any:
        """The standardized support's right end at the frozen shape parameters, as SciPy's
        frozen ``b``.

        >>> import funcgrad.scipy.stats as fst
        >>> float(fst.genpareto(-0.25).b)
        4.0
        """
        return self._ends()[1]

    @property
    def random_state(self) -> Any:
        """The random state ``rvs`` draws from when given none: NumPy's global
        ``RandomState`` unless set, as SciPy's frozen distributions (each its own).

        >>> import funcgrad.scipy.stats as fst
        >>> frozen = fst.norm(1.0)
        >>> frozen.random_state = 7
        >>> float(frozen.rvs()) == float(fst.norm(1.0).rvs(random_state=7))
        True
        """
        state = self.__dict__.get("_random_state")
        return np.random.mtrand._rand if state is None else state

    @random_state.setter
    def random_state(self, seed: Any) -> None:
        self.__dict__["_random_state"] = check_random_state(seed)

    def support(self) -> Tuple[Array, Array]:
        """The support's ends, with ``loc`` and ``scale``.

        >>> import funcgrad.scipy.stats as fst
        >>> [float(e) for e in fst.uniform(2.0, 3.0).support()]
        [2.0, 5.0]
        """
        return self.dist.support(*self.args, **self.kwds)

    def interval(self, confidence: Optional[ArrayLike] = None) -> Tuple[Array, Array]:
        """The interval around the median holding probability ``confidence``.

        >>> import funcgrad.scipy.stats as fst
        >>> [float(e) for e in fst.uniform(0.0, 4.0).interval(0.5)]
        [1.0, 3.0]
        """
        return self.dist.interval(confidence, *self.args, **self.kwds)

    def rvs(self, size: Any = None, random_state: Any = None) -> Any:
        """Random draws (SciPy's for the same ``random_state``; this frozen
        distribution's own when None), differentiable in the frozen parameters.

        >>> import funcgrad as fg, funcgrad.scipy.stats as fst
        >>> float(fg.grad(lambda s: fst.norm(0.0, s).rvs(random_state=1))(2.0))
        1.6243453636632417
        """
        state = self.random_state if random_state is None else random_state
        return self.dist.rvs(*self.args, size=size, random_state=state,
                             **self.kwds)
