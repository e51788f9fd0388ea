"""PyTorch's functions on Tensors at funcgrad's top level: ``fg.cat``, ``fg.stack``,
``fg.where``, ``fg.einsum``, ``fg.exp``, ``fg.softmax``... where the factories
(``fg.tensor``, ``fg.zeros``) already are, as ``torch.cat`` sits next to
``torch.tensor``.

PyTorch's function of a method's name is that method with the Tensor first
(``torch.clamp(x, 0, 1)`` is ``x.clamp(0, 1)``), so each of those here calls the
Tensor's method: one definition, the same gradient and ``grad_fn``.  The names are
listed below, explicitly, rather than copied from the Tensor class, so that a method
never becomes a function by accident.  The functions of several Tensors (``cat``,
``stack``, ``where``, ``einsum``, ``broadcast_tensors``, ``meshgrid``, ``tensordot``)
are written here, with PyTorch's arguments and type promotion.

As in PyTorch, the input must be a Tensor (inside a transform, a traced value is one):
``fg.exp(2.0)`` raises and says to write ``fg.exp(fg.tensor(2.0))``.  The names that
would shadow Python's builtins (``abs``, ``all``, ``any``, ``max``, ``min``, ``pow``,
``round``, ``sum``) are reached as ``fg.max`` but left out of ``from funcgrad import *``.

>>> import funcgrad as fg
>>> x = fg.tensor([1.0, 2.0], requires_grad=True)
>>> y = fg.cat([x, fg.exp(x)]) * 2
>>> fg.sum(y).backward()
>>> y.grad_fn, x.grad.numpy().round(3)
(<MulBackward0>, array([ 7.437, 16.778], dtype=float32))
"""
from typing import Any, Callable, Sequence

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from .. import numpy as fnp
from ..core import Tracer
from . import more_functions
from .promotion import result_dtype
from .tensor import Tensor
from .values import TensorBase

# PyTorch's functions that are its Tensor methods with the Tensor first, with the
# arguments their examples call them with (x is a 2 x 2 float Tensor).
_METHODS = {
    # elementwise
    "abs": "", "absolute": "", "acos": "", "acosh": "", "asin": "", "asinh": "",
    "atan": "", "atanh": "", "arccos": "", "arcsin": "", "arctan": "", "ceil": "",
    "clamp": "0.3, 0.8", "clip": "0.3, 0.8", "clamp_min": "0.3", "clamp_max": "0.8",
    "cos": "", "cosh": "", "deg2rad": "", "digamma": "", "erf": "", "erfc": "",
    "erfinv": "", "exp": "", "exp2": "", "expm1": "", "fix": "", "floor": "", "frac": "",
    "lgamma": "", "log": "", "log10": "", "log1p": "", "log2": "", "logit": "", "neg": "",
    "negative": "", "positive": "", "rad2deg": "", "reciprocal": "", "relu": "",
    "round": "", "rsqrt": "", "sgn": "", "sigmoid": "", "sign": "", "signbit": "",
    "sin": "", "sinc": "", "sinh": "", "sqrt": "", "square": "", "tan": "", "tanh": "",
    "trunc": "", "nan_to_num": "", "isfinite": "", "isinf": "", "isnan": "",
    "isneginf": "", "isposinf": "", "isreal": "", "conj": "", "clone": "", "detach": "",
    "add": "x, alpha=2", "sub": "1.0", "subtract": "1.0", "mul": "x", "multiply": "x",
    "div": "2.0", "divide": "2.0", "true_divide": "2.0", "pow": "2", "float_power": "2",
    "atan2": "x.t()", "arctan2": "x.t()", "hypot": "x.t()", "fmod": "0.3",
    "remainder": "0.3", "maximum": "x.t()", "minimum": "x.t()", "fmax": "x.t()",
    "fmin": "x.t()", "copysign": "-1.0", "xlogy": "x", "lerp": "x.t(), 0.25",
    "logaddexp": "x", "logaddexp2": "x", "addcmul": "x, x", "addcdiv": "x, x",
    "eq": "x.t()", "ne": "x.t()", "lt": "x.t()", "le": "x.t()", "gt": "x.t()",
    "ge": "x.t()", "isclose": "x.t()", "logical_and": "x", "logical_or": "x",
    "logical_xor": "x", "logical_not": "", "masked_fill": "x > 0.6, 0.0",
    # reductions and scans
    "sum": "", "mean": "0", "prod": "1", "std": "", "var": "", "nansum": "",
    "nanmean": "", "max": "", "min": "", "amax": "0", "amin": "0", "aminmax": "",
    "argmax": "", "argmin": "", "all": "", "any": "", "median": "", "nanmedian": "",
    "mode": "0", "kthvalue": "1, 0", "topk": "1", "sort": "", "argsort": "", "msort": "",
    "logsumexp": "1", "cumsum": "0", "cumprod": "1", "cummax": "0", "cummin": "0",
    "logcumsumexp": "0", "count_nonzero": "", "norm": "", "dist": "x.t()",
    "quantile": "0.5", "nanquantile": "0.5", "softmax": "1", "log_softmax": "1",
    "numel": "", "unique": "",
    # shapes and selection
    "reshape": "(4,)", "flatten": "", "ravel": "", "squeeze": "", "unsqueeze": "0",
    "transpose": "0, 1", "swapaxes": "0, 1", "swapdims": "0, 1", "permute": "(1, 0)",
    "movedim": "0, 1", "moveaxis": "0, 1", "t": "", "flip": "(0,)", "fliplr": "",
    "flipud": "", "roll": "1", "rot90": "", "narrow": "1, 0, 1", "select": "0, 1",
    "split": "1", "chunk": "2", "unbind": "", "tensor_split": "2", "hsplit": "2",
    "vsplit": "2", "gather": "1, fg.tensor([[1], [0]])",
    "take_along_dim": "fg.tensor([[1], [0]]), 1", "index_select": "0, fg.tensor([1])",
    "masked_select": "x > 0.6", "take": "fg.tensor([0, 3])", "nonzero": "",
    "argwhere": "", "tril": "", "triu": "", "diag": "", "diagonal": "",
    "diag_embed": "", "diagflat": "", "trace": "", "broadcast_to": "(3, 2, 2)",
    "tile": "(2,)", "repeat_interleave": "2", "diff": "", "scatter": "1, "
    "fg.tensor([[1], [0]]), 5.0", "scatter_add": "1, fg.tensor([[1], [0]]), x",
    "index_add": "0, fg.tensor([1, 0]), x", "index_fill": "0, fg.tensor([1]), 5.0",
    # linear algebra
    "matmul": "x", "mm": "x", "mv": "x[0]", "dot": "x[1]", "vdot": "x[1]",
    "inner": "x", "outer": "x[1]", "ger": "x[1]", "kron": "x", "det": "",
    "logdet": "", "slogdet": "", "inverse": "", "pinverse": "", "matrix_power": "2",
    "matrix_exp": "", "cholesky": "", "cross": "fg.tensor([[1.0, 0, 0], [0, 1, 0]])",
    "addmm": "x, x", "addmv": "x, x[0]", "addr": "x[0], x[1]", "bmm": "x[None]",
    "baddbmm": "x[None], x[None]", "addbmm": "x[None], x[None]", "cov": "",
    "corrcoef": "",
    # descriptions
    "is_complex": "", "is_floating_point": "", "is_nonzero": "",
    # funcgrad.eager.extras and others
    "floor_divide": "0.3", "heaviside": "x.t()", "angle": "", "unflatten": "1, (1, 2)",
    "index_copy": "0, fg.tensor([1, 0]), x", "masked_scatter": "x > 0.6, x",
    "slice_scatter": "x[:, :1], 1, 1", "select_scatter": "x[0], 0, 1",
    "diagonal_scatter": "x[0]", "narrow_copy": "1, 0, 1", "histc": "bins=4",
    "bincount": "", "conj_physical": "", "resolve_conj": "", "resolve_neg": "",
    "is_conj": "", "is_neg": "", "hardshrink": "", "nextafter": "x.t()", "frexp": "",
    "gcd": "fg.tensor([6, 9])", "lcm": "fg.tensor([6, 9])",
}
# the inputs of the examples that need another one than x
_INPUT = {"dot": "x[0]", "vdot": "x[0]", "outer": "x[0]", "ger": "x[0]",
          "cross": "fg.tensor([[0.0, 0, 1], [1, 0, 0]])", "bmm": "x[None]",
          "baddbmm": "x[None]", "is_nonzero": "x[0, 0]", "addmv": "x[0]",
          "cholesky": "x @ x.t() + fg.eye(2)", "logdet": "x + fg.eye(2)",
          "inverse": "x + fg.eye(2)", "bincount": "fg.tensor([0, 1, 1])",
          "gcd": "fg.tensor([4, 6])", "lcm": "fg.tensor([4, 6])"}
# Python's builtins: reachable as fg.max, but `from funcgrad import *` keeps the builtins
SHADOWING = frozenset({"abs", "all", "any", "complex", "max", "min", "pow", "round",
                       "sum"})


def _tensor_input(name, value):
    if isinstance(value, (TensorBase, Tracer)):
        return value
    raise TypeError(f"{name}(): argument 'input' must be Tensor, not "
                    f"{type(value).__name__}. Make it one first: "
                    f"fg.{name}(fg.tensor(...)).")


def _method_function(name: str) -> Callable[..., Any]:
    def function(input: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: A002
        return getattr(Tensor, name)(_tensor_input(name, input), *args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__module__ = __name__
    args = _METHODS[name]
    call = f"{_INPUT.get(name, 'x')}{', ' if args else ''}{args}"
    subject = _INPUT.get(name, "x")
    method_call = f"{f'({subject})' if ' ' in subject else subject}.{name}({args})"
    function.__doc__ = (
        f"PyTorch's ``torch.{name}(input, ...)``: ``input.{name}(...)``, the method "
        f":meth:`Tensor.{name}` with the Tensor first (its gradient and ``grad_fn``).\n\n"
        f">>> import numpy as np, funcgrad as fg\n"
        f">>> x = fg.tensor([[0.5, 0.25], [0.9, 0.75]])\n"
        f">>> np.array_equal(fg.{name}({call}), {method_call}, equal_nan=True)\n"
        f"True\n")
    return function


globals().update({name: _method_function(name) for name in _METHODS})
_tensor_pow = globals()["pow"]


def pow(input: Any, exponent: Any) -> Any:  # noqa: A001 - PyTorch's name
    """PyTorch's ``torch.pow(input, exponent)``: ``input.pow(exponent)``, or, with a
    number first, ``input ** exponent`` (``torch.pow(2.0, x)``).

    >>> import funcgrad as fg
    >>> fg.pow(fg.tensor([2.0]), 3), fg.pow(2.0, fg.tensor([3.0]))
    (tensor([8.]), tensor([8.]))
    """
    if isinstance(exponent, (TensorBase, Tracer)) and \
            not isinstance(input, (TensorBase, Tracer)):
        return input ** exponent
    return _tensor_pow(input, exponent)




def _promoted(tensors, what):
    tensors = list(tensors)
    if not tensors:
        raise ValueError(f"{what}() expects a non-empty sequence of Tensors")
    dtype = result_dtype(tuple(tensors))
    if dtype is None:
        return tensors
    return [fnp.astype(t, dtype) if t.dtype != dtype else t for t in tensors]


def cat(tensors: Sequence[Any], dim: int = 0, *, axis: int | None = None) -> Any:
    """The Tensors joined along the existing dimension ``dim``, in PyTorch's promoted
    dtype (``CatBackward0``); ``concat`` and ``concatenate`` are other names of it.

    >>> import funcgrad as fg
    >>> fg.cat([fg.tensor([[1.0, 2.0]]), fg.tensor([[3, 4]])], dim=0)
    tensor([[1., 2.],
            [3., 4.]])
    """
    tensors = _promoted(tensors, "cat")
    return fnp.concatenate(tensors, axis=dim if axis is None else axis)


concat = concatenate = cat


def stack(tensors: Sequence[Any], dim: int = 0) -> Any:
    """The Tensors (all of one shape) joined along a new dimension ``dim``.

    >>> import funcgrad as fg
    >>> fg.stack([fg.tensor([1.0, 2.0]), fg.tensor([3.0, 4.0])], dim=1)
    tensor([[1., 3.],
            [2., 4.]])
    """
    return fnp.stack(_promoted(tensors, "stack"), axis=dim)


def hstack(tensors: Sequence[Any]) -> Any:
    """The Tensors joined column-wise (along dim 0 for 1-d Tensors, else dim 1).

    >>> import funcgrad as fg
    >>> fg.hstack([fg.tensor([1.0]), fg.tensor([2.0, 3.0])])
    tensor([1., 2., 3.])
    """
    return fnp.hstack(_promoted(tensors, "hstack"))


def vstack(tensors: Sequence[Any]) -> Any:
    """The Tensors joined row-wise (1-d Tensors become rows).

    >>> import funcgrad as fg
    >>> fg.vstack([fg.tensor([1.0, 2.0]), fg.tensor([3.0, 4.0])])
    tensor([[1., 2.],
            [3., 4.]])
    """
    return fnp.vstack(_promoted(tensors, "vstack"))


def where(condition: Any, input: Any = None, other: Any = None) -> Any:  # noqa: A002
    """``input`` where ``condition`` holds, else ``other`` (a Tensor or a number); the
    gradient goes to the side chosen.  With the condition alone, the indices where it
    holds (a tuple of int64 Tensors, one per dimension), as ``nonzero(as_tuple=True)``.

    >>> import funcgrad as fg
    >>> x = fg.tensor([-1.0, 2.0], requires_grad=True)
    >>> y = fg.where(x > 0, x, 0.0); y
    tensor([0., 2.], grad_fn=<WhereBackward0>)
    >>> fg.where(fg.tensor([True, False]))
    (tensor([0]),)
    """
    if input is None and other is None:
        return tuple(Tensor(np.asarray(i, np.int64))
                     for i in np.nonzero(np.asarray(condition)))
    if input is None or other is None:
        raise TypeError("where() takes the condition alone, or the condition, input and "
                        "other: fg.where(condition, input, other)")
    if not isinstance(input, (TensorBase, Tracer)):
        if not isinstance(other, (TensorBase, Tracer)):
            raise TypeError("where(): input or other must be a Tensor; make one with "
                            "fg.tensor(...)")
        dtype = result_dtype((input, other))
        input = Tensor(np.asarray(input, dtype)) if dtype is not None else input
    return getattr(Tensor, "where")(input, condition, other)


def einsum(equation: str, *operands: Any) -> Any:
    """The sum of products of ``operands`` over the indices ``equation`` names
    (``"ij,jk->ik"``: a matrix product); the operands may also come as one list.

    >>> import funcgrad as fg
    >>> a = fg.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> fg.einsum("ij,j->i", a, fg.tensor([1.0, 1.0])), fg.einsum("ii", [a])
    (tensor([3., 7.]), tensor(5.))
    """
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    return fnp.einsum(equation, *_promoted(operands, "einsum"))


def tensordot(a: Any, b: Any, dims: Any = 2) -> Any:
    """Contraction of the last ``dims`` dimensions of ``a`` with the first of ``b`` (or of
    the dimension lists ``dims = ([a's], [b's])``).

    >>> import funcgrad as fg
    >>> fg.tensordot(fg.tensor([[1.0, 2.0]]), fg.tensor([[3.0], [4.0]]), dims=([1], [0]))
    tensor([[11.]])
    """
    a, b = _promoted((a, b), "tensordot")
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    return fnp.tensordot(a, b, axes=dims)


def broadcast_tensors(*tensors: Any) -> tuple[Any, ...]:
    """The Tensors broadcast to their common shape.

    >>> import funcgrad as fg
    >>> fg.broadcast_tensors(fg.tensor([1.0, 2.0]), fg.tensor([[3.0], [4.0]]))[0]
    tensor([[1., 2.],
            [1., 2.]])
    """
    shape = broadcast_shapes(*(t.shape for t in tensors))
    return tuple(getattr(Tensor, "broadcast_to")(t, shape) for t in tensors)


def meshgrid(*tensors: Any, indexing: str = "ij") -> tuple[Any, ...]:
    """Coordinate grids of 1-d Tensors; ``indexing="ij"`` (matrix, PyTorch's default)
    or ``"xy"`` (Cartesian).

    >>> import funcgrad as fg
    >>> fg.meshgrid(fg.tensor([1.0, 2.0]), fg.tensor([3.0, 4.0, 5.0]))[1]
    tensor([[3., 4., 5.],
            [3., 4., 5.]])
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing not in ("ij", "xy"):
        raise ValueError(f"meshgrid: indexing must be 'ij' or 'xy', not {indexing!r}")
    return tuple(fnp.meshgrid(*tensors, indexing=indexing))


globals().update({name: getattr(more_functions, name) for name in more_functions.__all__})

__all__ = sorted(set(_METHODS) - SHADOWING) + [
    "cat", "concat", "concatenate", "stack", "hstack", "vstack", "where", "einsum",
    "tensordot", "broadcast_tensors", "meshgrid"] + \
    [name for name in more_functions.__all__ if name not in SHADOWING]
FUNCTIONS = tuple(sorted(set(_METHODS) | set(__all__) | set(more_functions.__all__)))
