"""Traced values turned into Python numbers, NumPy arrays, text: never a silent loss.

A value that carries a derivative (it depends on an input of ``grad``, ``jvp``,
``vjp``... and is floating-point) refuses to become a plain number or array, because the
number would have no derivative and every result computed from it would be silently
wrong: ``float()``, ``complex()`` (and so ``math.sin(x)``, ``out[i] = x`` into a NumPy
array, ``np.asarray(x)``) and ``tolist()`` raise a ``TypeError`` that names the rewrite.
What carries no derivative keeps working: integer and boolean values, the concrete values
that Python ``if``/``while`` compare, and functions whose derivative is zero almost
everywhere (``int()``, ``round()``, ``math.floor()``, ``math.ceil()``).  Dropping a
derivative on purpose is explicit: ``fg.stop_gradient(x)``, or ``x.item()`` (PyTorch's
meaning).  Printing and f-strings show the value.
"""
import math
import sys

import numpy as np

from ..core import ConcretizationError, DerivativeDroppedError, concrete
from ..interpreters.forward import JVPTracer
from ..interpreters.reverse import ReverseTracer
from ._numpy_calls import numpy_call, numpy_fix
from ._scipy_calls import scipy_call, scipy_fix

__all__ = ["DROPS_DERIVATIVE", "carried_derivative", "derivative_dropped", "refuse_trimming",
           "attach_conversions"]

_DROPS = ("{what} would drop the derivative this value carries (it depends on the input of "
          "{transform}), silently: every result computed from it would be wrong.")
_ADVICE = (
    "use NumPy's functions, not math's (np.sin(x), not math.sin(x)); build arrays from "
    "traced values with np.stack([...]) or fnp.array([...]) rather than filling a "
    "preallocated NumPy array (out[i] = v), or update a traced array with "
    "x = x.at[i].set(v). To drop the derivative on purpose, say so: fg.stop_gradient(x), "
    "or x.item().")
DROPS_DERIVATIVE = _DROPS + " Keep it traced instead: " + _ADVICE


def carried_derivative(x):
    """The transform whose derivative ``x`` carries (a name), or None."""
    while True:
        t = type(x)
        if t is ReverseTracer:
            if x._trace.active and x.dtype.kind in "fc":
                return x._trace.transform
            x = x.value
        elif isinstance(x, JVPTracer):  # (forward_ad's DualTensor too)
            if x._trace.active and x._tangent is not None and x.dtype.kind in "fc":
                return x._trace.transform
            x = x.primal
        else:
            return None


def derivative_dropped(what, becomes, transform):
    """The error for a conversion (``what``: "float()") that would turn a value carrying
    ``transform``'s derivative into ``becomes`` ("a Python float").  Inside SciPy's code
    (or NumPy's that converts first: numpy.polynomial, np.vectorize) it names the function
    the user called and funcgrad's replacement for it."""
    call = scipy_call()
    if call is None:
        numpys = numpy_call()  # (numpy.polynomial, np.vectorize: they convert first)
        if numpys is not None:
            return DerivativeDroppedError(
                _DROPS.format(what=f"{numpys.function} converts its input to {becomes}, which",
                              transform=transform) + " " + numpy_fix(numpys)
                + " To drop the derivative on purpose, say so: fg.stop_gradient(x).")
        return DerivativeDroppedError(DROPS_DERIVATIVE.format(what=what, transform=transform))
    return DerivativeDroppedError(
        _DROPS.format(what=f"{call.function} converts its input to {becomes}, which",
                      transform=transform)
        + " " + scipy_fix(call) + " In your own code, keep values traced: " + _ADVICE)


def refuse_trimming(x, what, fix):
    """Raise when ``what`` (NumPy's rule) drops zero entries of ``x`` that carry a
    derivative: a polynomial's value moves with a coefficient that is zero now, so dropping
    it would lose that derivative silently.  ``fix`` names a call that keeps them."""
    transform = carried_derivative(x)
    if transform is not None:
        raise DerivativeDroppedError(
            f"{what} drops coefficients that are zero now, but they carry a derivative (they "
            f"depend on the input of {transform}); dropping them would lose it silently. "
            f"{fix}")


def _refuse(x, what, becomes):
    transform = carried_derivative(x)
    if transform is not None:
        raise derivative_dropped(what, becomes, transform)


def _float(self):
    try:
        _refuse(self, "float()", "a Python float")
        return float(concrete(self))
    except TypeError as e:  # (a derivative dropped; no concrete value under jit or vmap)
        _explain_initial(self, e)
        raise


def _complex(self):
    try:
        _refuse(self, "complex()", "a Python complex number")
        return complex(concrete(self))
    except TypeError as e:
        _explain_initial(self, e)
        raise


# NumPy's reductions hand themselves to funcgrad (__array_function__, __array_ufunc__) only
# when the array, out= or where= is traced: a traced initial= of a plain array is converted
# by NumPy's own code, from one of these frames.
_REDUCING_FRAMES = {(f"numpy.{core}.{module}", function)
                    for core in ("_core", "core")  # (NumPy 2's name, NumPy 1's)
                    for module, function in (("fromnumeric", "_wrapreduction"),
                                             ("_methods", "_sum"), ("_methods", "_prod"),
                                             ("_methods", "_amax"), ("_methods", "_amin"))}
_COMBINE = {"sum": "np.sum(a) + s", "prod": "np.prod(a) * s",
            "max": "np.maximum(np.max(a), s)", "min": "np.minimum(np.min(a), s)"}


def _explain_initial(value, error):
    """Raise, in place of ``error``, one that names the fix when ``value`` is the traced
    ``initial=`` of a NumPy reduction of a plain array (nothing otherwise)."""
    frame = sys._getframe(2)  # (the caller of __float__/__complex__)
    key = (frame.f_globals.get("__name__", ""), frame.f_code.co_name)
    if key not in _REDUCING_FRAMES:
        return
    local = frame.f_locals
    initial = local.get("kwargs", {}).get("initial") if key[1] == "_wrapreduction" else (
        local.get("initial"))
    name = local.get("method") if key[1] == "_wrapreduction" else key[1].lstrip("_a")
    del frame, local
    if initial is not value:
        return
    raise type(error)(
        f"np.{name}(a, initial=s) with a plain NumPy array a and a traced s: NumPy hands a "
        f"reduction to funcgrad only when the array (or where=) is traced, so it converts s "
        f"to a number itself, which would drop its derivative (or, under jit or vmap, needs a "
        f"value it does not have). Use funcgrad.numpy.{name}(a, initial=s), which "
        f"differentiates in s, or combine afterwards: {_COMBINE.get(name, 'np.' + name)}."
    ) from error


def _tolist(self):
    _refuse(self, ".tolist()", "a Python list")
    return np.asarray(concrete(self)).tolist()


def _item(self, *args):
    """The value as a Python number, deliberately without its derivative (as PyTorch's
    ``.item()``)."""
    return np.asarray(concrete(self)).item(*args)


def _piecewise_constant(fn):
    """``int()``-like conversions: their derivative is zero almost everywhere, so the
    derivative they drop is zero and nothing is lost."""
    def method(self, *args):
        return fn(np.asarray(concrete(self))[()], *args)
    method.__name__ = fn.__name__
    return method


def _str(self):
    try:
        return str(np.asarray(concrete(self)))
    except ConcretizationError:
        return repr(self)


def _format(self, spec):
    try:
        value = np.asarray(concrete(self))
    except ConcretizationError:
        return format(repr(self), spec)
    return format(value[()] if value.ndim == 0 else value, spec)


def _hash(self):
    raise TypeError(f"unhashable type: '{type(self).__name__}': a traced value is an array "
                    f"whose value changes with every call; do not use it as a dict key or "
                    f"cache on it (key on its .shape, or cache the function with fg.jit)")


def _copy(self):
    return self  # traced values are immutable: a copy is the value itself, on the tape


def _deepcopy(self, memo):
    return self


def _reduce(self):
    raise TypeError(f"a traced value ({type(self).__name__}) cannot be pickled: it exists only "
                    f"while its transform runs. Return it from the function and pickle the "
                    f"result.")


def attach_conversions(cls):
    """Give tracer class ``cls`` the conversions above."""
    cls.__float__ = _float
    cls.__complex__ = _complex
    cls.tolist = _tolist
    cls.item = _item
    cls.__round__ = _piecewise_constant(round)
    cls.__floor__ = _piecewise_constant(math.floor)
    cls.__ceil__ = _piecewise_constant(math.ceil)
    cls.__trunc__ = _piecewise_constant(math.trunc)
    cls.__str__ = _str
    cls.__format__ = _format
    cls.__hash__ = _hash
    cls.__copy__ = _copy
    cls.__deepcopy__ = _deepcopy
    cls.__reduce__ = _reduce
    cls.__reduce_ex__ = lambda self, protocol: _reduce(self)
