"""Forward-mode dual numbers in PyTorch's style (``torch.autograd.forward_ad``).

>>> import numpy as np, funcgrad as fg
>>> import funcgrad.forward_ad as fwAD
>>> with fwAD.dual_level():
...     x = fwAD.make_dual(np.array([0.0, 1.0]), np.array([1.0, 1.0]))
...     y = np.sin(x)
...     tangent = fwAD.unpack_dual(y).tangent
>>> np.allclose(tangent, np.cos([0.0, 1.0]))
True

A dual value made from an eager ``fg.Tensor`` is a :class:`DualTensor`: as PyTorch's
dual tensor is a Tensor, it has the Tensor's methods (``x.sin()``, ``x.sum(dim=0)``,
``x.softmax(-1)``, ``x.view(2, 1)``, ``x.size()``...), with PyTorch's semantics, and its
primal and tangent unpack as Tensors.  One made from NumPy arrays behaves as an array.

A dual level is the same JVP interpreter that :func:`funcgrad.jvp` uses, made
current for a ``with`` block.  Levels nest (the innermost is used by
``make_dual``/``unpack_dual``).  When a level exits its tangents are dropped:
dual values made inside it behave as their primals afterwards.
"""
import sys
from collections import namedtuple
from typing import Any

from .core import _state, register_special_type
from .errors import ShapeMismatchError
from .interpreters.forward import JVPInterpreter, JVPTracer
from .numpy._convert import asarray
from .typing import Array, ArrayLike

__all__ = ["dual_level", "make_dual", "unpack_dual", "UnpackedDualTensor", "enter_dual_level",
           "exit_dual_level", "DualLevel", "DualTensor"]

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = """What :func:`unpack_dual` returns: ``(primal, tangent)``.

>>> import numpy as np, funcgrad.forward_ad as fwAD
>>> fwAD.UnpackedDualTensor(np.float64(1.0), None)
UnpackedDualTensor(primal=np.float64(1.0), tangent=None)
"""


class DualLevel(JVPInterpreter):
    """A forward-AD level: what ``with dual_level() as level`` and ``enter_dual_level()``
    give, to name in ``make_dual(..., level=level)`` and ``exit_dual_level(level)``.

    >>> import numpy as np, funcgrad.forward_ad as fwAD
    >>> with fwAD.dual_level() as level:
    ...     x = fwAD.make_dual(np.array(1.0), np.array(2.0), level=level)
    ...     print(fwAD.unpack_dual(x * x, level=level).tangent)
    4.0
    """

    __slots__ = ()
    transform = "forward_ad.dual_level"
    outlives = True  # leaving the level drops tangents; the primals stay usable

    def process(self, prim, args, params):
        # A result of an operation on a DualTensor of this level is one too.
        for a in args:
            if type(a) is DualTensor and a._trace is self:
                break
        else:
            return JVPInterpreter.process(self, prim, args, params)
        args = [JVPTracer(self, a.primal, a._tangent)
                if type(a) is DualTensor and a._trace is self else a for a in args]
        out = JVPInterpreter.process(self, prim, args, params)
        if prim.multiple_results:
            return [_as_dual_tensor(self, o) for o in out]
        return _as_dual_tensor(self, out)


def _as_dual_tensor(level, x):
    if type(x) is JVPTracer and x._trace is level:
        return DualTensor(level, x.primal, x._tangent)
    return x


class DualTensor(JVPTracer):
    """A dual value whose primal is an eager ``fg.Tensor`` (what :func:`make_dual`
    makes of one): as in PyTorch, where a dual tensor is a Tensor, it has the Tensor's
    methods -- ``funcgrad.eager`` attaches them -- and results computed from it are
    DualTensors too.  ``isinstance(x, fg.Tensor)`` is False: it is a traced value.
    Methods that would drop the tangent silently (``tolist()``, ``numpy()``) raise;
    ``detach()`` drops it on purpose, as in PyTorch.

    >>> import funcgrad as fg, funcgrad.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(fg.tensor([0.0, 1.0]), fg.tensor([1.0, 2.0]))
    ...     y = x.exp().sum(dim=0)
    ...     print(type(x).__name__, fwAD.unpack_dual(y))
    DualTensor UnpackedDualTensor(primal=tensor(3.718282), tangent=tensor(6.436564))
    """

    __slots__ = ()


class dual_level:
    """Context manager: a forward-AD level within which dual values propagate tangents.

    >>> import numpy as np, funcgrad.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(np.array(2.0), np.array(1.0)) ** 3
    ...     print(fwAD.unpack_dual(y).tangent)
    12.0
    """

    def __enter__(self) -> "DualLevel":
        self.level = enter_dual_level()
        return self.level

    def __exit__(self, *exc: object) -> None:
        exit_dual_level(self.level)


def enter_dual_level() -> DualLevel:
    """Start a new (innermost) dual level and return it (``dual_level`` without ``with``).

    >>> import numpy as np, funcgrad.forward_ad as fwAD
    >>> level = fwAD.enter_dual_level()
    >>> x = fwAD.make_dual(np.array(0.0), np.array(1.0))
    >>> fwAD.unpack_dual(np.exp(x)).tangent
    np.float64(1.0)
    >>> fwAD.exit_dual_level(level)
    """
    level = DualLevel()
    level.__enter__()
    return level


def exit_dual_level(level: DualLevel | None = None) -> None:
    """End ``level`` (the innermost one by default); levels end innermost first.

    >>> import funcgrad.forward_ad as fwAD
    >>> outer = fwAD.enter_dual_level()
    >>> inner = fwAD.enter_dual_level()
    >>> fwAD.exit_dual_level(outer)
    Traceback (most recent call last):
    ...
    RuntimeError: exit_dual_level: levels must be exited innermost first ...
    >>> fwAD.exit_dual_level(inner); fwAD.exit_dual_level(outer)
    """
    level = level if level is not None else _innermost(required=True)
    if _state.interpreter is not level:
        raise RuntimeError("exit_dual_level: levels must be exited innermost first (and from "
                           "the thread that entered them)")
    level.__exit__(None, None, None)


def _innermost(required=False):
    interp = _state.interpreter
    while interp is not None:
        if isinstance(interp, DualLevel):
            return interp
        interp = interp.parent
    if required:
        raise RuntimeError("make_dual/unpack_dual need an active forward-AD level: use them "
                           "inside `with fg.forward_ad.dual_level():`")
    return None


def make_dual(tensor: ArrayLike, tangent: ArrayLike, *, level: DualLevel | None = None
              ) -> Array:
    """A dual value with primal ``tensor`` and tangent ``tangent`` (same shape); only
    inside a :class:`dual_level`.

    >>> import numpy as np, funcgrad.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     x = fwAD.make_dual(np.array([0.0, 1.0]), np.array([1.0, 0.0]))
    ...     print(fwAD.unpack_dual(np.sin(x) * 2.0).tangent)
    [2. 0.]
    """
    # a tracer stands for an Array (funcgrad.typing); the checks run untyped below
    return _make_dual(tensor, tangent, level)


def _make_dual(tensor, tangent, level):
    level = level if level is not None else _innermost(required=True)
    for what, value in (("primal", tensor), ("tangent", tangent)):
        if isinstance(value, JVPTracer) and value._trace is level:
            # as in PyTorch: a value has at most one tangent per level (nest levels instead)
            raise RuntimeError(
                f"make_dual: the {what} is already a dual value of this forward-AD level; "
                f"a value has one tangent per level. Use unpack_dual(x).primal to start from "
                f"its primal, or a nested dual_level() for a second perturbation.")
    primal = asarray(tensor)
    tangent = asarray(tangent)
    if tuple(tangent.shape) != tuple(primal.shape):
        raise ShapeMismatchError(f"make_dual: the tangent has shape {tuple(tangent.shape)} but "
                                 f"the primal has shape {tuple(primal.shape)}; they must be "
                                 f"equal")
    if primal.dtype.kind not in "fc":
        raise TypeError(f"make_dual: expected a floating-point primal, got dtype {primal.dtype}")
    if tangent.dtype.kind == "c" and primal.dtype.kind != "c":
        raise TypeError(f"make_dual: the tangent is complex ({tangent.dtype}) but the primal is "
                        f"real ({primal.dtype}); pass a real tangent or a complex primal")
    if tangent.dtype != primal.dtype:
        from .numpy import astype
        tangent = astype(tangent, primal.dtype)
    if _is_tensor(tensor) or _is_tensor(tangent):
        return DualTensor(level, primal, tangent)
    return JVPTracer(level, primal, tangent)


def _is_tensor(x):
    """Whether ``x`` is an eager Tensor, or a dual value made from one."""
    values = sys.modules.get("funcgrad.eager.values")  # (no Tensor exists without it)
    return type(x) is DualTensor or (values is not None and isinstance(x, values.TensorBase))


def unpack_dual(tensor: Any, *, level: DualLevel | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of a dual value; ``tangent`` is None for a plain value.

    >>> import numpy as np, funcgrad.forward_ad as fwAD
    >>> with fwAD.dual_level():
    ...     primal, tangent = fwAD.unpack_dual(fwAD.make_dual(np.array(3.0), np.array(1.0)))
    ...     print(primal, tangent, fwAD.unpack_dual(np.array(3.0)).tangent)
    3.0 1.0 None
    """
    level = level if level is not None else _innermost()
    if isinstance(tensor, JVPTracer) and tensor._trace is level and level is not None:
        return UnpackedDualTensor(tensor.primal, tensor.tangent)
    return UnpackedDualTensor(_primal_of(tensor), None)


def _drop_tangents(prim, args, params):
    """At the root: dual values of a finished level act as their primals."""
    if not any(isinstance(a, JVPTracer) and isinstance(a._trace, DualLevel)
               and not a._trace.active for a in args):
        return NotImplemented
    args = [_primal_of(a) for a in args]
    return _state.interpreter.process(prim, args, params)


def _primal_of(a):
    while isinstance(a, JVPTracer) and isinstance(a._trace, DualLevel) and not a._trace.active:
        a = a.primal
    return a


register_special_type(JVPTracer, _drop_tangents)
register_special_type(DualTensor, _drop_tangents)
