"""Tensors meeting NumPy functions that funcgrad does not implement.

Operators, methods and the NumPy functions funcgrad differentiates reach Tensors through
:mod:`funcgrad.numpy` like any array.  The others (``np.savetxt``, ``np.array2string``...)
still work on Tensors that need no gradient: they run on read-only views of the values.
On a Tensor that requires grad they raise, since the derivative would be dropped; only
questions about dtypes and memory (``np.result_type``, ``np.shares_memory``...) are
answered for it, having no derivative to drop.
"""
import numpy as np

from ..core import Tracer
from ..numpy import _methods, queries
from ..primitives import index_spec, indexing
from .values import TensorBase, read_only

__all__ = ["array_ufunc", "array_function", "unwrap_index", "torch_index_steps", "getitem",
           "check_assigned_grad"]


def array_ufunc(self, ufunc, method, *inputs, **kwargs):
    """``Tensor.__array_ufunc__``: funcgrad's operation where there is one, else NumPy's
    on plain values when no derivative is dropped.

    >>> import numpy as np, funcgrad as fg
    >>> np.hypot.reduce(fg.Tensor([3.0, 4.0]), initial=0.0)  # no derivative to drop: NumPy's
    np.float32(5.0)
    """
    out = kwargs.get("out")
    if out is not None and _contains_tensor(out):
        raise TypeError(f"numpy.{ufunc.__name__}(..., out=tensor) would write into a Tensor; "
                        f"use the returned value, or an in-place method (t.add_(x), "
                        f"t.mul_(x), t[...] = v), which keeps the version counter right")
    try:
        return _methods._array_ufunc(self, ufunc, method, *inputs, **kwargs)
    except TypeError:
        # Not a funcgrad operation: NumPy may compute it on plain values, as long as no
        # derivative is dropped on the way.
        if _differentiable_inside(inputs):
            _raise_not_differentiable(f"numpy.{ufunc.__name__}"
                                      + ("" if method == "__call__" else f".{method}"), inputs)
            raise
    return getattr(ufunc, method)(*_plain_values(inputs), **_plain_values(kwargs))


def array_function(self, func, types, args, kwargs):
    """``Tensor.__array_function__``: as :func:`array_ufunc`, for NumPy functions.
    Questions about dtypes and memory (``np.result_type``, ``np.can_cast``,
    ``np.shares_memory``...: :data:`funcgrad.numpy.queries.ANSWERS`) carry no derivative,
    so they are answered for any Tensor.

    >>> import numpy as np, funcgrad as fg
    >>> t = fg.Tensor([1.0, 2.0], requires_grad=True)
    >>> np.result_type(t, np.float32), np.shares_memory(t, t[1:])
    (dtype('float32'), True)
    >>> np.array2string(t)
    Traceback (most recent call last):
    ...
    TypeError: numpy.array2string is not supported on a Tensor that requires grad: ...
    """
    if func in _methods._function_table():
        return _methods._array_function(self, func, types, args, kwargs)
    if func in queries.ANSWERS:
        # NumPy answers from the values' dtypes and buffers.  Not queries' "only a value
        # shares memory with itself": a Tensor is mutable (t.add_(1)), and two Tensors can
        # share one buffer, so whether a write shows through the other is a real question.
        return func(*_plain_values(args), **_plain_values(kwargs))
    if _differentiable_inside(args) or _differentiable_inside(kwargs):
        _raise_not_differentiable(f"numpy.{getattr(func, '__name__', func)}", (args, kwargs))
        return _methods._array_function(self, func, types, args, kwargs)  # its clear error
    return func(*_plain_values(args), **_plain_values(kwargs))


def unwrap_index(key):
    """An index with each Tensor in it replaced by its value (indices carry no
    derivative).

    >>> import funcgrad as fg
    >>> unwrap_index((fg.Tensor([0]), slice(None)))
    (array([0]), slice(None, None, None))
    """
    if isinstance(key, TensorBase):
        return key._storage.value
    if isinstance(key, tuple):
        return tuple(k._storage.value if isinstance(k, TensorBase) else k for k in key)
    return key


def torch_index_steps(key):
    """``(first, second)`` when PyTorch's indexing differs from NumPy's for ``key``
    (already unwrapped), else None: ``x[key]`` is then ``x[first][second]``.

    PyTorch applies integer indices first, as selections, and only then the advanced ones
    (integer lists and arrays, masks), where NumPy counts an integer as one more advanced
    index: ``x[1, :, [0, 2]]`` of shape (2, 3, 4) is (3, 2) in PyTorch and (2, 3) in
    NumPy, whose advanced axes, separated by the slice, go first.

    >>> torch_index_steps((1, slice(None), [0, 2]))
    ((1, slice(None, None, None), slice(None, None, None)), (slice(None, None, None), [0, 2]))
    >>> torch_index_steps((1, slice(None))) is None
    True
    """
    if not isinstance(key, tuple) or not any(map(index_spec._is_int_like, key)) \
            or not any(map(_is_advanced, key)):
        return None
    first, second = [], []
    for k in key:
        if index_spec._is_int_like(k):
            first.append(k)
        elif _is_advanced(k):
            mask = np.asarray(k) if isinstance(k, list) else k
            first.extend([slice(None)] * (mask.ndim if mask.dtype == bool else 1))
            second.append(k)
        elif k is Ellipsis:
            first.append(k)
            second.append(k)
        else:  # a slice, or None (its new axis exists after the first step)
            first.append(k)
            second.append(slice(None))
    return tuple(first), tuple(second)


def getitem(t, key):
    """``t[key]`` (``Tensor.__getitem__``), integers applied before advanced indices, as
    PyTorch does (see :func:`torch_index_steps`).

    >>> import numpy as np, funcgrad as fg
    >>> getitem(fg.Tensor(np.arange(24.0).reshape(2, 3, 4)), (1, slice(None), [0, 2])).shape
    fg.Size([3, 2])
    """
    key = unwrap_index(key)
    steps = torch_index_steps(key)
    if steps is not None:
        return indexing.index(indexing.index(t, steps[0]), steps[1])
    return indexing.index(t, key)


def check_assigned_grad(value, t):
    """Refuse ``t.grad = value`` (a Tensor) of another shape or dtype, as PyTorch does (the
    next backward pass would add into it).

    >>> import numpy as np, funcgrad as fg
    >>> check_assigned_grad(fg.Tensor(np.ones(2)), fg.Tensor(np.ones(2, np.float32)))
    Traceback (most recent call last):
    ...
    RuntimeError: attempting to assign a gradient with dtype float64 to a tensor with dtype float32. ...
    """
    if value.shape != t.shape:
        raise RuntimeError(f"assigned grad has data of a different size: "
                           f"{value.shape} instead of {t.shape}")
    if value.dtype != t.dtype:
        raise RuntimeError(f"attempting to assign a gradient with dtype {value.dtype} to a "
                           f"tensor with dtype {t.dtype}. Please ensure that the gradient "
                           f"and the tensor have the same dtype, e.g. "
                           f"grad.to({t.dtype.name}).")


def _is_advanced(k):
    # (a traced index array too: an index computed from the values under a transform)
    return isinstance(k, list) or (isinstance(k, (np.ndarray, Tracer)) and k.ndim > 0)


def is_advanced_key(key):
    """Whether the (unwrapped) index ``key`` holds an advanced index (a list, an array,
    a mask), where ``t[key] = v`` is PyTorch's ``index_put_`` rather than a write into a
    view (``CopySlices``).

    >>> is_advanced_key((0, slice(1, None))), is_advanced_key((0, [1, 2]))
    (False, True)
    """
    return any(map(_is_advanced, key)) if isinstance(key, tuple) else _is_advanced(key)


def _plain_values(x):
    """``x`` with every Tensor replaced by a read-only view of its value."""
    if isinstance(x, TensorBase):
        return read_only(x._storage.value)
    if isinstance(x, (list, tuple)):
        return type(x)(_plain_values(e) for e in x)
    if isinstance(x, dict):
        return {k: _plain_values(v) for k, v in x.items()}
    return x


def _differentiable_inside(x):
    if isinstance(x, TensorBase):
        return x._requires_grad
    if isinstance(x, (list, tuple)):
        return any(_differentiable_inside(e) for e in x)
    if isinstance(x, dict):
        return any(_differentiable_inside(v) for v in x.values())
    return isinstance(x, Tracer)


def _raise_not_differentiable(what, args):
    if _requires_grad_inside(args):
        raise TypeError(f"{what} is not supported on a Tensor that requires grad: funcgrad "
                        f"has no derivative for it. Write the computation with the functions "
                        f"in funcgrad.numpy (see funcgrad.numpy.__all__), or call it on "
                        f"t.detach() if no gradient should flow through it.")


def _requires_grad_inside(x):
    if isinstance(x, TensorBase):
        return x._requires_grad
    if isinstance(x, (list, tuple)):
        return any(_requires_grad_inside(e) for e in x)
    if isinstance(x, dict):
        return any(_requires_grad_inside(v) for v in x.values())
    return False


def _contains_tensor(x):
    if isinstance(x, TensorBase):
        return True
    return isinstance(x, (list, tuple)) and any(_contains_tensor(e) for e in x)
