"""PyTorch's type promotion for operations on Tensors.

NumPy and PyTorch agree for a Tensor with a Python number (``float32_tensor * 2.0``
stays float32), but not elsewhere.  PyTorch sorts operands into three tiers --
Tensors with dimensions, 0-d Tensors, and numbers (Python's and NumPy scalars) -- and a
lower tier changes the result only when its category (bool < integer < floating <
complex) is higher: a float32 Tensor times ``np.float64(2)`` or a 0-d float64 Tensor
stays float32, an int64 Tensor times ``1.5`` becomes the default float dtype
(float32), and true division of integers gives the default float dtype.  Between two
categories the higher one's type wins (``int64 * float32 -> float32``; NumPy says
float64).

The root interpreter's handler (:mod:`funcgrad.eager.record`) calls :func:`promote`
for binary elementwise primitives before computing them: operands are cast with the
recorded ``convert_element_type``, so each gradient comes back in its input's dtype.
Only operations with a Tensor operand are concerned; the functional API
(``funcgrad.numpy`` on arrays) keeps NumPy's rules.

>>> import numpy as np, funcgrad as fg
>>> (fg.tensor([1.0]) * np.float64(2)).dtype, (fg.tensor([1, 2]) / fg.tensor([2, 2])).dtype
(dtype('float32'), dtype('float32'))
"""
import numpy as np

from ..core import Tracer, is_weak
from ..errors import ShapeMismatchError
from ..primitives import elementwise as ew
from ..primitives import structural
from .dtypes import default_float
from .values import TensorBase

__all__ = ["promote", "result_dtype", "broadcast_error"]

_CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}
_NUMBERS = (bool, int, float, complex)


def _category(dtype):
    return _CATEGORY.get(dtype.kind, 2)


def _pair(a, b):
    """PyTorch's ``promote_types(a, b)``.

    >>> _pair(np.dtype("int64"), np.dtype("float32"))
    dtype('float32')
    """
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca == cb or (min(ca, cb) == 2 and max(ca, cb) == 3):
        return np.promote_types(a, b)  # NumPy agrees within a category, and float/complex
    return a if ca > cb else b


def _number_dtype(x):
    """The dtype PyTorch gives a number operand (Python's or a NumPy scalar)."""
    if isinstance(x, (bool, np.bool_)):
        return np.dtype(bool)
    if isinstance(x, (int, np.integer)):
        return np.dtype(np.int64)
    if isinstance(x, (float, np.floating)):
        return default_float()
    return np.dtype(np.complex128 if default_float() == np.float64 else np.complex64)


_KIND_NUMBER = {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}


def _tier(x):
    """``(tier, dtype)`` of an operand: 0 with dimensions, 1 a 0-d array, 2 a number (a
    traced value counts as what it stands for); None for a value of another kind (a GPU
    array, left to its own rules)."""
    if isinstance(x, TensorBase):
        v = x._storage.value
        return (0 if v.ndim else 1), np.dtype(v.dtype)
    if isinstance(x, (_NUMBERS, np.generic)):
        return 2, _number_dtype(x)
    if isinstance(x, np.ndarray):
        return (0 if x.ndim else 1), x.dtype
    if isinstance(x, Tracer):
        dtype = np.dtype(x.dtype)
        if is_weak(x):  # a Python number passed to the transform
            return 2, _number_dtype(_KIND_NUMBER.get(dtype.kind, 0.0))
        return (0 if x.ndim else 1), dtype
    return None


def result_dtype(operands):
    """The dtype of a PyTorch operation on ``operands`` (Tensors, arrays, numbers, or
    traced values of them), or None when one of them is none of these.

    >>> import funcgrad as fg
    >>> result_dtype([fg.tensor([1, 2]), fg.tensor(2.5, dtype=fg.float64)])
    dtype('float64')
    """
    tiers = [None, None, None]  # with dimensions, 0-d, numbers
    for x in operands:
        found = _tier(x)
        if found is None:
            return None
        t, dtype = found
        tiers[t] = dtype if tiers[t] is None else _pair(tiers[t], dtype)
    result = None
    for dtype in tiers:
        if dtype is None:
            continue
        if result is None:
            result = dtype
        elif _category(dtype) > _category(result):
            result = _pair(result, dtype)
    return result


def promote(prim, a, b):
    """``(a, b)`` cast to the dtype PyTorch computes ``prim`` in (see the module
    docstring); the operands themselves when nothing needs a cast.  Under ``jit``, whose
    graph holds no values, the graph promotes operands standing for Tensors with it, so
    that the traced function computes in its eager run's dtypes.

    >>> import funcgrad as fg
    >>> a, b = promote(ew.multiply_p, fg.tensor([1, 2]), 1.5)
    >>> a.dtype, b
    (dtype('float32'), 1.5)
    >>> fg.jit(lambda t, a: t - a)(fg.tensor([1.0]), np.array(2.0)).dtype
    dtype('float32')
    """
    result = result_dtype((a, b))
    if result is None:
        return a, b
    if prim is ew.divide_p and _category(result) < 2:
        result = default_float()  # true division of integers
    return _cast(a, result), _cast(b, result)


def _cast(x, dtype):
    if isinstance(x, Tracer):
        if x.dtype == dtype:
            return x
        return structural.convert_element_type_p.bind(x, dtype=dtype)
    if isinstance(x, TensorBase):
        if x._storage.value.dtype == dtype:
            return x
        return structural.convert_element_type_p.bind(x, dtype=dtype)
    if isinstance(x, np.ndarray):
        return x if x.dtype == dtype else x.astype(dtype)
    if isinstance(x, np.generic):
        return x if x.dtype == dtype else dtype.type(x)
    return x  # a Python number: NumPy treats it as weak, as PyTorch does


def broadcast_error(error, values):
    """PyTorch's error for the operands ``values`` of an elementwise operation whose shapes
    do not broadcast, in place of NumPy's ``ValueError`` ``error`` (other errors come back
    as they are).  A :class:`~funcgrad.errors.ShapeMismatchError`: ``except RuntimeError``
    (PyTorch's kind) and ``except ValueError`` (NumPy's) both catch it.

    >>> try:
    ...     np.ones((2, 3)) + np.ones(2)
    ... except ValueError as e:
    ...     broadcast_error(e, (np.ones((2, 3)), np.ones(2)))
    ShapeMismatchError('The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1 (operands could not be broadcast together with shapes (2,3) (2,) )')

    With more operands (``where(cond, a, b)``), PyTorch broadcasts them left to right:
    tensor a is the shape of the operands before the first one that does not fit, b
    that one.
    """
    if "broadcast" not in str(error):
        return error
    shapes = [tuple(np.shape(v)) for v in values]
    a = shapes[0]
    for b in shapes[1:]:
        n = max(len(a), len(b))
        a, b = (1,) * (n - len(a)) + a, (1,) * (n - len(b)) + b
        for i in range(n - 1, -1, -1):  # (PyTorch names the last axis that differs)
            if a[i] != b[i] and a[i] != 1 and b[i] != 1:
                return ShapeMismatchError(
                    f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) "
                    f"at non-singleton dimension {i} ({error})")
        a = tuple(q if p == 1 else p for p, q in zip(a, b))
    return error
