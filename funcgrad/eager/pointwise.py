"""PyTorch's elementwise Tensor methods beyond the core set: ``add(other, alpha=)``,
``div(rounding_mode=)``, the comparisons (``eq``, ``gt``...), ``expm1``, ``erf``,
``atan2``, ``fmod``, ``lerp``, ``addcmul``, ``masked_fill``, ``isnan``... and the
in-place ``_`` form of each that PyTorch has.

Each is a thin wrapper over funcgrad.numpy (whose primitives give the value and the
gradient), with PyTorch's arguments and dtypes: functions that are floating in PyTorch
(``exp``, ``erf``, ``atan2``, ``xlogy``...) give integer and bool Tensors the default
float dtype; the comparisons give bool.  Where PyTorch's derivative has a convention of
its own it is kept: ``maximum``/``minimum`` split the gradient between equal operands,
``fmax``/``fmin`` send it to ``self`` at a tie, ``div(rounding_mode=...)`` has a zero
gradient and ``floor_divide``/``heaviside`` raise PyTorch's "not implemented" error in
the backward pass.

>>> import funcgrad as fg
>>> x = fg.tensor([1.0, -2.0], requires_grad=True)
>>> y = x.add(fg.tensor([3.0, 3.0]), alpha=2).mul(x)
>>> y.sum().backward()
>>> y, x.grad
(tensor([  7., -8.], grad_fn=<MulBackward0>), tensor([8., 2.]))
>>> x.detach().eq(1.0), fg.tensor([1, 2]).expm1().dtype
(tensor([ True, False]), dtype('float32'))
"""
from typing import Any, Callable, cast

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from .. import numpy as fnp
from ..core import Tracer
from ..primitives import elementwise as ew
from ..scipy import special as fsp
from .dtypes import default_float
from .inplace import _FALSE
from .named import Named, record_as
from .promotion import result_dtype
from .steps import rounded_quotient as _rounded_quotient
from .tensor import Tensor
from .values import TensorBase

__all__ = ["attach", "NotDifferentiable", "constant"]


class NotDifferentiable(Named):
    """A node whose backward pass raises PyTorch's "derivative ... is not implemented"."""

    def vjp(self, needs, g, out, *args, inner):
        raise RuntimeError(f"the derivative for '{self.name}' is not implemented.")


def constant(named: Named, value: Any, *inputs: Any) -> Any:
    """``value`` (computed without gradients) recorded as ``named``'s node on the Tensors
    ``inputs``: a zero gradient for a :class:`Named`, an error for a NotDifferentiable."""
    def compose(*ts):
        out = value
        for t in ts:
            if isinstance(t, TensorBase) and t._requires_grad:
                if not _fits(t.shape, out.shape):
                    t = fnp.sum(t)  # (a result of another shape, as unique's)
                out = ew.where(_FALSE, t, out)  # exactly ``value``, a zero gradient to t
        return out
    if not isinstance(value, (TensorBase, Tracer)):  # (a traced value: jit's, vmap's)
        value = Tensor(value)
    if value.dtype.kind not in "fc":
        return value
    return record_as(named, compose, *inputs)


def _fits(shape, target):
    try:
        return broadcast_shapes(shape, target) == target
    except ValueError:
        return False


def _float_dtype(*operands):
    dtype = result_dtype(operands) or np.result_type(*[getattr(x, "dtype", x) for x in operands])
    return default_float() if dtype.kind in "biu" else dtype


def _floating(*operands):
    """The operands cast to the dtype a floating PyTorch function computes in."""
    dtype = _float_dtype(*operands)
    return [fnp.astype(x, dtype) if isinstance(x, (TensorBase, np.ndarray))
            and x.dtype != dtype else x for x in operands]


def _overload(other):
    return "1" if isinstance(other, TensorBase) else ""


def _plain(x):
    """``x`` without its derivative (a traced value stays traced: masks follow it)."""
    return x.detach() if isinstance(x, (TensorBase, Tracer)) else x


def _method(name: str, compute: Callable[..., Any], doc: str, floating: bool = False,
            named: Named | None = None) -> Callable[..., Any]:
    def method(self: Any, *args: Any, **kwargs: Any) -> Any:
        if floating:
            self, *args = _floating(self, *args)
        if named is not None:
            return record_as(named, compute, self, *args, **kwargs)
        out = compute(self, *args, **kwargs)
        return Tensor(out) if isinstance(out, (np.ndarray, np.generic)) else out
    method.__name__ = method.__qualname__ = name
    method.__doc__ = doc
    return method


def _rsqrt(t):
    return fnp.reciprocal(fnp.sqrt(t))


def _frac(t):
    return t - fnp.trunc(t)  # trunc's gradient is zero: frac's is one


def _sinc(t):
    # the double-where idiom: sin(pi x)/(pi x) never sees 0, and the gradient there is 0
    zero = t == 0
    safe = ew.where(zero, np.ones((), t.dtype), t) * np.pi
    return ew.where(zero, np.ones((), t.dtype), fnp.sin(safe) / safe)


def _sgn(t):
    if t.dtype.kind != "c":
        tracked = isinstance(t, TensorBase) and t._requires_grad  # (a Tensor's tape)
        return constant(SGN, fnp.sign(t.detach()), t) if tracked else fnp.sign(t)
    a = fnp.abs(t)
    zero = a == 0
    return ew.where(zero, np.zeros((), t.dtype), t / ew.where(zero, np.ones((), a.dtype), a))


SGN = Named("sgn", "SgnBackward0")

# torch name: (funcgrad.numpy function, floating in PyTorch, one-line description, node)
_UNARY = {
    "neg": (fnp.negative, False, "``-self``", None),
    "negative": (fnp.negative, False, "``-self`` (:meth:`neg`)", None),
    "reciprocal": (fnp.reciprocal, True, "``1 / self``", None),
    "rsqrt": (_rsqrt, True, "``1 / sqrt(self)``", Named("rsqrt", "RsqrtBackward0")),
    "square": (fnp.square, False, "``self ** 2``", None),
    "exp2": (fnp.exp2, True, "``2 ** self``", None),
    "expm1": (fnp.expm1, True, "``exp(self) - 1``, accurate near 0", None),
    "log1p": (fnp.log1p, True, "``log(1 + self)``, accurate near 0",
              Named("log1p", "Log1PBackward0")),
    "log2": (fnp.log2, True, "Base-2 logarithm", None),
    "log10": (fnp.log10, True, "Base-10 logarithm", None),
    "tan": (fnp.tan, True, "Tangent", None),
    "sinh": (fnp.sinh, True, "Hyperbolic sine", None),
    "cosh": (fnp.cosh, True, "Hyperbolic cosine", None),
    "asin": (fnp.arcsin, True, "Inverse sine", Named("asin", "AsinBackward0")),
    "acos": (fnp.arccos, True, "Inverse cosine", Named("acos", "AcosBackward0")),
    "atan": (fnp.arctan, True, "Inverse tangent", Named("atan", "AtanBackward0")),
    "asinh": (fnp.arcsinh, True, "Inverse hyperbolic sine", Named("asinh", "AsinhBackward0")),
    "acosh": (fnp.arccosh, True, "Inverse hyperbolic cosine",
              Named("acosh", "AcoshBackward0")),
    "atanh": (fnp.arctanh, True, "Inverse hyperbolic tangent",
              Named("atanh", "AtanhBackward0")),
    "erf": (fsp.erf, True, "The error function", Named("erf", "ErfBackward0")),
    "erfc": (fsp.erfc, True, "``1 - erf(self)``", Named("erfc", "ErfcBackward0")),
    "erfinv": (fsp.erfinv, True, "The inverse error function",
               Named("erfinv", "ErfinvBackward0")),
    "lgamma": (fsp.gammaln, True, "``log|gamma(self)|``", Named("lgamma", "LgammaBackward0")),
    "digamma": (fsp.digamma, True, "The derivative of lgamma",
                Named("digamma", "DigammaBackward0")),
    "i0": (fsp.i0, True, "The modified Bessel function of order 0", Named("i0", "I0Backward0")),
    "sinc": (_sinc, True, "``sin(pi x) / (pi x)`` (1 at 0)", Named("sinc", "SincBackward0")),
    "deg2rad": (fnp.deg2rad, True, "Degrees to radians", Named("deg2rad", "Deg2RadBackward0")),
    "rad2deg": (fnp.rad2deg, True, "Radians to degrees", Named("rad2deg", "Rad2DegBackward0")),
    "frac": (_frac, False, "``self - trunc(self)``", Named("frac", "FracBackward0")),
    "sgn": (_sgn, False, "``self / |self|`` (0 at 0); the sign for real Tensors", None),
    "isnan": (fnp.isnan, False, "Where the elements are NaN", None),
    "isinf": (fnp.isinf, False, "Where the elements are +-inf", None),
    "isposinf": (fnp.isposinf, False, "Where the elements are +inf", None),
    "isneginf": (fnp.isneginf, False, "Where the elements are -inf", None),
    "isfinite": (fnp.isfinite, False, "Where the elements are neither inf nor NaN", None),
    "isreal": (lambda t: fnp.imag(t) == 0 if t.dtype.kind == "c" else fnp.ones_like(
        _plain(t), bool), False, "Where the imaginary part is 0", None),
    "signbit": (fnp.signbit, False, "Where the sign bit is set (-0.0 included)", None),
    "logical_not": (fnp.logical_not, False, "Where the elements are zero", None),
    "bitwise_not": (lambda t: _bitwise_operands("bitwise_not", t) and fnp.invert(t), False,
                    "Bitwise not of integer or bool Tensors", None),
}
ALIASES = {"arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh":
            "acosh", "arctanh": "atanh", "absolute": "abs", "fix": "trunc", "arctan2": "atan2",
            "subtract": "sub", "multiply": "mul", "divide": "div", "greater": "gt", "ger": "outer",
            "greater_equal": "ge", "less": "lt", "less_equal": "le", "not_equal": "ne", "swapdims":
            "transpose", "swapaxes": "transpose", "moveaxis": "movedim"}
_NAMED = {name: Named(name, f"{name[0].upper()}{name[1:]}Backward0")
          for name in ("frac", "fmod", "remainder", "lerp", "xlogy", "logit", "polygamma",
                       "nan_to_num", "clamp_min", "clamp_max", "addcmul", "addcdiv",
                       "copysign", "mvlgamma", "fmax", "fmin", "atan2", "maximum",
                       "minimum")}
# PyTorch numbers the overloads: a Tensor operand (``Backward1``) or a number
_NAMED.update({name + "1": Named(name, f"{name[0].upper()}{name[1:]}Backward1")
               for name in ("fmod", "remainder", "lerp")})
_NAMED["masked_fill"] = Named("masked_fill", "MaskedFillBackward0")
_NAMED["masked_fill1"] = Named("masked_fill", "MaskedFillBackward1")
_NAMED["nan_to_num"] = Named("nan_to_num", "NanToNumBackward0")
_NAMED["clamp_min"] = Named("clamp_min", "ClampMinBackward0")
_NAMED["clamp_max"] = Named("clamp_max", "ClampMaxBackward0")
_DIV_ROUNDED = Named("div", "DivBackward2")
_FLOOR_DIVIDE = NotDifferentiable("floor_divide", "NotImplemented")
_HEAVISIDE = NotDifferentiable("heaviside", "NotImplemented")


# --- binary arithmetic -------------------------------------------------------------------------

def add(self: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``self + alpha * other``."""
    return self + (other if alpha == 1 else other * alpha)


def sub(self: Any, other: Any, *, alpha: Any = 1) -> Any:
    """``self - alpha * other``."""
    return self - (other if alpha == 1 else other * alpha)


def mul(self: Any, other: Any) -> Any:
    """``self * other``."""
    return self * other


def div(self: Any, other: Any, *, rounding_mode: str | None = None) -> Any:
    """``self / other``; ``rounding_mode='trunc'`` or ``'floor'`` rounds the quotient
    (keeping the operands' promoted dtype, with a zero gradient)."""
    if rounding_mode is None:
        return self / other
    if rounding_mode not in ("trunc", "floor"):
        raise ValueError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                         f"but found '{rounding_mode}'")
    return constant(_DIV_ROUNDED, _rounded_quotient(self, other, rounding_mode), self, other)


def true_divide(self: Any, other: Any) -> Any:
    """``self / other`` (true division: integers give the default float dtype)."""
    return self / other


def floor_divide(self: Any, other: Any) -> Any:
    """``self / other`` rounded down (not differentiable, as in PyTorch)."""
    return constant(_FLOOR_DIVIDE, _rounded_quotient(self, other, "floor"), self, other)


def fmod(self: Any, other: Any) -> Any:
    """C's ``fmod``: the remainder with the sign of ``self``."""
    return record_as(_NAMED["fmod" + _overload(other)], fnp.fmod, self, other)


def remainder(self: Any, other: Any) -> Any:
    """Python's ``%``: the remainder with the sign of ``other``."""
    return record_as(_NAMED["remainder" + _overload(other)], fnp.remainder, self, other)


def float_power(self: Any, exponent: Any) -> Any:
    """``self ** exponent`` computed in double precision (float64 or complex128)."""
    dtype = np.complex128 if fnp.iscomplexobj(self) or fnp.iscomplexobj(exponent) \
        else np.float64
    return fnp.power(fnp.astype(self, dtype), fnp.astype(exponent, dtype)
                     if isinstance(exponent, (TensorBase, np.ndarray)) else exponent)


def heaviside(self: Any, values: Any) -> Any:
    """0 below zero, 1 above, ``values`` at zero (not differentiable, as in PyTorch)."""
    value = fnp.heaviside(fnp.asarray(_plain(self)), fnp.asarray(_plain(values)))
    return constant(_HEAVISIDE, fnp.astype(value, result_dtype((self, values))), self, values)


def atan2(self: Any, other: Any) -> Any:
    """The angle of the point ``(other, self)``: ``atan(self / other)`` by quadrant.  Where
    ``self ** 2 + other ** 2`` is 0 (the origin, or both underflow) the gradient is 0, as
    PyTorch's (funcgrad's functional ``arctan2``, as JAX's, has 0 / 0 there)."""
    s, o = _floating(self, other)
    if not _tracked(s, o):
        return record_as(_NAMED["atan2"], fnp.arctan2, s, o)
    a, b = _plain(s), _plain(o)
    origin = a * a + b * b == 0
    if not isinstance(a, Tracer) and not isinstance(b, Tracer) and not origin.any():
        return record_as(_NAMED["atan2"], fnp.arctan2, s, o)
    one = np.ones((), a.dtype)
    angle = fnp.arctan2(a, b)

    def away_from_origin(y, x):  # the double where: arctan2's rule never sees 0 / 0
        safe = fnp.arctan2(ew.where(origin, one, y), ew.where(origin, one, x))
        return ew.where(origin, angle, safe)
    return record_as(_NAMED["atan2"], away_from_origin, s, o)


def hypot(self: Any, other: Any) -> Any:
    """``sqrt(self ** 2 + other ** 2)`` without overflow.  At ``(0, 0)`` the gradient is
    0, the subgradient PyTorch's ``norm`` also gives there (PyTorch's ``hypot`` gives
    0 / 0 = NaN: a deliberate difference)."""
    return fnp.hypot(*_floating(self, other))


def logaddexp(self: Any, other: Any) -> Any:
    """``log(exp(self) + exp(other))``, computed stably."""
    return fnp.logaddexp(*_floating(self, other))


def logaddexp2(self: Any, other: Any) -> Any:
    """``log2(2 ** self + 2 ** other)``, computed stably."""
    return fnp.logaddexp2(*_floating(self, other))


def xlogy(self: Any, other: Any) -> Any:
    """``self * log(other)``, 0 where ``self`` is 0 (unless ``other`` is NaN).  The
    gradient in ``other`` is PyTorch's ``self / other``: NaN at ``(0, 0)``."""
    return record_as(_NAMED["xlogy"], _xlogy, *_floating(self, other))


def _xlogy(x, y):
    # PyTorch's gradient in x where x == 0 is log(y), except 0 where log(y) is not finite
    # (funcgrad.scipy.special.xlogy follows JAX there: -inf at y == 0): log(y) is taken of
    # 1 at those points, which keeps the value 0 and cuts the derivative
    zero_x = fnp.logical_and(fnp.equal(x, 0), fnp.logical_not(fnp.isnan(y)))
    regular = fnp.logical_and(fnp.greater(y, 0), fnp.less(y, np.inf))
    out = x * fnp.log(ew.where(fnp.logical_and(zero_x, fnp.logical_not(regular)),
                               np.ones((), y.dtype), y))  # (its gradient in y at (0, 0): 0)
    # At (0, 0) add x * sqrt(|y|): 0, with the derivative in y 0 / 0 = NaN, PyTorch's
    # x / y there (a 0 * inf in the backward pass, reported as such)
    origin = fnp.logical_and(fnp.equal(x, 0), fnp.equal(y, 0))
    kink = x * fnp.sqrt(fnp.abs(ew.where(origin, y, np.ones((), y.dtype))))
    return ew.where(origin, out + kink, out)


def copysign(self: Any, other: Any) -> Any:
    """``|self|`` with the sign of ``other``."""
    # the sign's gradient is zero (not absent): PyTorch's CopysignBackward0
    return record_as(_NAMED["copysign"], lambda a, b: ew.where(
        _FALSE, b, fnp.copysign(a, _plain(b))) if isinstance(b, TensorBase) else
        fnp.copysign(a, b), *_floating(self, other))


def ldexp(self: Any, other: Any) -> Any:
    """``self * 2 ** other``."""
    a, b = _floating(self, other)
    return a * fnp.exp2(b)


def maximum(self: Any, other: Any) -> Any:
    """The larger of each pair (NaN wins); equal elements share the gradient and, as in
    PyTorch, both operands of a NaN result get it (funcgrad's functional ``maximum``, as
    JAX's, gives them 0).

    >>> import funcgrad as fg
    >>> x = fg.tensor([float("nan"), 1.0, 2.0], requires_grad=True)
    >>> x.maximum(fg.tensor([1.0, 3.0, 2.0])).sum().backward(); x.grad
    tensor([1. , 0. , 0.5])
    """
    return _nan_to_both(_NAMED["maximum"], fnp.maximum, self, other)


def minimum(self: Any, other: Any) -> Any:
    """The smaller of each pair (NaN wins); equal elements share the gradient, and both
    operands of a NaN result get it, as in PyTorch."""
    return _nan_to_both(_NAMED["minimum"], fnp.minimum, self, other)


def _tracked(*operands):
    """Does a derivative flow from one of ``operands`` (a Tensor's, or a transform's)?"""
    return any(isinstance(t, Tracer) or isinstance(t, TensorBase) and t.requires_grad
               for t in operands)


def _nan_to_both(named, pick, self, other):
    if not _tracked(self, other):
        return pick(self, other)
    a, b = _plain(self), _plain(other)
    nan = fnp.isnan(a) | fnp.isnan(b)
    if not isinstance(a, Tracer) and not isinstance(b, Tracer) and not nan.any():
        return pick(self, other)
    zero = np.zeros((), fnp.result_type(a, b))

    def nan_to_both(s, o):
        # s + o is the NaN itself, with the gradient 1 to each operand (pick's rule gives
        # 0); pick never sees the NaNs (its rule would compare them)
        return fnp.where(nan, s + o, pick(fnp.where(nan, zero, s), fnp.where(nan, zero, o)))
    return record_as(named, nan_to_both, self, other)


def fmax(self: Any, other: Any) -> Any:
    """The larger of each pair, ignoring a NaN; at a tie the gradient goes to ``self``."""
    a, b = _plain(self), _plain(other)
    take_self = (a >= b) | fnp.isnan(b)
    return record_as(_NAMED["fmax"], lambda s, o: fnp.where(take_self, s, o), self, other)


def fmin(self: Any, other: Any) -> Any:
    """The smaller of each pair, ignoring a NaN; at a tie the gradient goes to ``self``."""
    a, b = _plain(self), _plain(other)
    take_self = (a <= b) | fnp.isnan(b)
    return record_as(_NAMED["fmin"], lambda s, o: fnp.where(take_self, s, o), self, other)


def clamp_min(self: Any, min: Any) -> Any:  # noqa: A002 - PyTorch's name
    """``max(self, min)``; the gradient is 1 where ``self >= min``."""
    return record_as(_NAMED["clamp_min"], fnp.clip, self, min, None)


def clamp_max(self: Any, max: Any) -> Any:  # noqa: A002 - PyTorch's name
    """``min(self, max)``; the gradient is 1 where ``self <= max``."""
    return record_as(_NAMED["clamp_max"], fnp.clip, self, None, max)


def lerp(self: Any, end: Any, weight: Any) -> Any:
    """``self + weight * (end - self)``."""
    return record_as(_NAMED["lerp" + _overload(weight)], lambda s, e, w: s + w * (e - s), self,
                     end, weight)


def addcmul(self: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``self + value * tensor1 * tensor2``."""
    return record_as(_NAMED["addcmul"], lambda s, a, b: s + value * a * b, self, tensor1,
                     tensor2)


def addcdiv(self: Any, tensor1: Any, tensor2: Any, *, value: Any = 1) -> Any:
    """``self + value * tensor1 / tensor2``."""
    return record_as(_NAMED["addcdiv"], lambda s, a, b: s + value * a / b, self, tensor1,
                     tensor2)


def logit(self: Any, eps: float | None = None) -> Any:
    """``log(p / (1 - p))``, ``p`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given
    (the gradient is then 0 outside)."""
    (p,) = _floating(self)
    # clip's gradient is 1 on [eps, 1 - eps] and 0 outside: PyTorch's rule
    return record_as(_NAMED["logit"], lambda p: _log_odds(p if eps is None else fnp.clip(
        p, eps, 1 - eps)), p)


def _log_odds(p):
    # (not log(p / (1 - p)), whose derivative at p = 0 is inf * 0: NaN where PyTorch has inf)
    return fnp.log(p) - fnp.log1p(-p)


def polygamma(self: Any, n: int) -> Any:
    """The ``n``-th derivative of digamma (PyTorch's method takes ``n`` after ``self``)."""
    (x,) = _floating(self)
    return record_as(_NAMED["polygamma"], lambda t: fsp.polygamma(n, t), x)


def mvlgamma(self: Any, p: int) -> Any:
    """The multivariate log-gamma function of dimension ``p``."""
    (x,) = _floating(self)
    return record_as(_NAMED["mvlgamma"], lambda t: fsp.multigammaln(t, p), x)


def nan_to_num(self: Any, nan: float = 0.0, posinf: float | None = None,
               neginf: float | None = None) -> Any:
    """NaN, +inf and -inf replaced (by 0 and the dtype's largest and smallest values);
    the gradient is 1 at finite elements, 0 at the replaced ones."""
    if self.dtype.kind not in "fc":
        return self.clone()

    def compute(t):
        info = np.finfo(t.dtype)
        out = fnp.where(fnp.isnan(t), np.asarray(nan, t.dtype), t)
        out = fnp.where(fnp.isposinf(t), np.asarray(info.max if posinf is None else posinf,
                                                    t.dtype), out)
        return fnp.where(fnp.isneginf(t), np.asarray(info.min if neginf is None else neginf,
                                                     t.dtype), out)
    return record_as(_NAMED["nan_to_num"], compute, self)


def positive(self: Any) -> Any:
    """``self`` itself (an error for bool Tensors, as in PyTorch)."""
    if self.dtype == bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return self


def _as_dtype(x: Any, dtype: Any) -> Any:
    if isinstance(x, (TensorBase, Tracer)):
        return x if x.dtype == dtype else fnp.astype(cast(Any, x), dtype)
    return np.asarray(x, dtype)  # (a number or an array: a constant)


def where(self: Any, condition: Any, other: Any) -> Any:
    """``self`` where ``condition`` holds, ``other`` elsewhere (PyTorch's promotion: a
    0-d Tensor or a number does not widen a float32 Tensor)."""
    dtype = result_dtype([self, other])
    if dtype is not None:
        self, other = [_as_dtype(x, dtype) for x in (self, other)]
    return fnp.where(condition, self, other)


def masked_fill(self: Any, mask: Any, value: Any) -> Any:
    """``value`` where ``mask`` is True (broadcast to this Tensor), ``self`` elsewhere."""
    named = _NAMED["masked_fill" + _overload(value)]
    if isinstance(value, Tensor):
        if value.ndim:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but "
                               f"got tensor with {value.ndim} dimension(s).")
        value = value.to(self.dtype)
    else:
        value = np.asarray(value, self.dtype)
    mask = fnp.broadcast_to(_plain(mask), self.shape)
    return record_as(named, lambda s, v: fnp.where(mask, v, s), self, value)


def isclose(self: Any, other: Any, rtol: float = 1e-05, atol: float = 1e-08,
            equal_nan: bool = False) -> Any:
    """Where ``|self - other| <= atol + rtol * |other|`` (a bool Tensor)."""
    return fnp.isclose(_plain(self), _plain(other), rtol=rtol, atol=atol, equal_nan=equal_nan)


def _comparison(name: str, compare: Callable[[Any, Any], Any], sign: str) -> Callable[..., Any]:
    return _method(name, compare, f"Where ``self {sign} other`` (a bool Tensor).")


def _logical(name: str, combine: Callable[[Any, Any], Any], doc: str) -> Callable[..., Any]:
    return _method(name, lambda s, o: combine(_plain(s), _plain(o)), doc)


def _bitwise_operands(name: str, *operands: Any) -> bool:
    if any(isinstance(o, (TensorBase, np.ndarray)) and o.dtype.kind not in "biu"
           for o in operands):
        raise RuntimeError(f"\"{name}_cpu\" not implemented for floating types: "
                           f"bitwise operations take integer or bool Tensors")
    return True


def _bitwise(name: str, combine: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def compute(s: Any, o: Any) -> Any:
        _bitwise_operands(name, s, o)
        return combine(_plain(s), _plain(o))
    return _method(name, compute, f"Bitwise {name.split('_')[1]} of integer or bool Tensors.")


_BINARY = [
    _comparison("eq", fnp.equal, "=="), _comparison("ne", fnp.not_equal, "!="),
    _comparison("gt", fnp.greater, ">"), _comparison("ge", fnp.greater_equal, ">="),
    _comparison("lt", fnp.less, "<"), _comparison("le", fnp.less_equal, "<="),
    _logical("logical_and", fnp.logical_and, "Where both are nonzero (a bool Tensor)."),
    _logical("logical_or", fnp.logical_or, "Where either is nonzero (a bool Tensor)."),
    _logical("logical_xor", fnp.logical_xor, "Where exactly one is nonzero (a bool Tensor)."),
    _bitwise("bitwise_and", np.bitwise_and), _bitwise("bitwise_or", np.bitwise_or),
    _bitwise("bitwise_xor", np.bitwise_xor),
]

_FUNCTIONS = [add, sub, mul, div, true_divide, floor_divide, fmod, remainder, float_power,
              heaviside, atan2, hypot, logaddexp, logaddexp2, xlogy, copysign, ldexp,
              maximum, minimum, fmax, fmin, clamp_min, clamp_max, lerp, addcmul, addcdiv,
              logit, polygamma, mvlgamma, nan_to_num, positive, where, masked_fill, isclose]

# PyTorch's in-place forms (``x.exp_()``): the method, its value written into self.
INPLACE = ("abs absolute acos acosh add addcdiv addcmul asin asinh atan atan2 atanh arccos "
           "arccosh arcsin arcsinh arctan arctan2 arctanh ceil clamp_max clamp_min copysign "
           "cos cosh deg2rad digamma div divide eq erf erfc erfinv exp exp2 expm1 fix "
           "float_power floor floor_divide fmod frac ge gt greater greater_equal heaviside "
           "hypot i0 le lerp less less_equal lgamma log log10 log1p log2 logical_and "
           "logical_not logical_or logical_xor logit lt mul multiply mvlgamma ne neg negative "
           "nan_to_num not_equal polygamma pow rad2deg reciprocal relu remainder round rsqrt "
           "sgn sigmoid sign sin sinc sinh sqrt square sub subtract tan tanh true_divide trunc "
           "xlogy ldexp masked_fill bitwise_and bitwise_or bitwise_xor addmm addmv addr addbmm "
           "baddbmm index_add index_copy index_fill scatter scatter_add scatter_reduce tril "
           "triu cumsum cumprod index_put masked_scatter renorm bitwise_not").split()


def inplace_of(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    """``name_``: ``method``'s value written into this Tensor (PyTorch's in-place rules)."""
    def update(self: Any, *args: Any, **kwargs: Any) -> Any:
        return self._inplace(lambda s: method(s, *args, **kwargs))
    update.__name__ = update.__qualname__ = name + "_"
    update.__doc__ = f":meth:`{name}` in place."
    return update


def attach(cls: Any) -> None:
    """Give ``cls`` (the Tensor) the methods of this module."""
    for name, (fn, floating, doc, named) in _UNARY.items():
        setattr(cls, name, _method(name, fn, doc + ".", floating, named))
    for fn in _FUNCTIONS + _BINARY:
        setattr(cls, fn.__name__, fn)


def attach_aliases(cls: Any) -> None:
    """PyTorch's alternative names and in-place forms, once every method is attached."""
    for alias, name in ALIASES.items():
        setattr(cls, alias, getattr(cls, name))
    for name in INPLACE:
        setattr(cls, name + "_", inplace_of(name, getattr(cls, name)))
