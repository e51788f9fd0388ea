"""PyTorch's dims of a 0-d Tensor: dim 0 or -1 names its one element, as a dim of length
1 would, and the results are 0-d (``t.sum(0)``, ``t.max(0)``, ``t.sort(-1)``,
``t.cumsum(0)`` of a 0-d ``t``); any other dim is out of range (IndexError).  NumPy, whose
functions the methods call, has no axis on a 0-d array, so :func:`scalar_dims` runs a
method on the one-element 1-d view with dim 0 and makes its Tensor results 0-d again.

The methods that cut a Tensor along a dim (``unbind``, ``narrow``, ``select``, ``chunk``,
``split``, ``diff``...) and ``roll`` along a dim have no meaning on a 0-d Tensor in
PyTorch: they raise its error (:func:`no_dims`, :func:`needs_dims`)."""
import functools
import inspect
from typing import Any, Callable, TypeVar, cast

import numpy as np

from .values import axis_index

__all__ = ["scalar_dims", "no_dims", "needs_dims"]

F = TypeVar("F", bound=Callable[..., Any])


def scalar_dims(method: F) -> F:
    """Decorate a Tensor method that takes ``dim`` (or NumPy's ``axis``) with PyTorch's
    meaning of a dim of a 0-d Tensor; on other Tensors it is the method itself.

    >>> import funcgrad as fg
    >>> fg.tensor(2.5).cumsum(0)
    tensor(2.5)
    """
    signature = inspect.signature(method)

    @functools.wraps(method)
    def on_scalar(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self.ndim:
            return method(self, *args, **kwargs)
        bound = signature.bind(self, *args, **kwargs)
        bound.apply_defaults()  # (topk's and kthvalue's dim=-1)
        name = next((n for n in ("dim", "axis") if _is_dims(bound.arguments.get(n))), None)
        if name is None:  # no dim (all elements), or max(other): not a dim
            return method(self, *args, **kwargs)
        dims = bound.arguments[name]
        for d in (dims if isinstance(dims, (tuple, list)) else (dims,)):
            axis_index(d, 0)  # PyTorch's IndexError for any dim but 0 and -1
        bound.arguments[name] = type(dims)(0 for _ in dims) if isinstance(dims, (tuple, list)) \
            else 0
        one = self.reshape(1)
        return _scalar(method(one, *bound.args[1:], **bound.kwargs))
    return cast(F, on_scalar)  # (the method's own signature, for type checkers)


def _is_dims(value):
    if isinstance(value, (tuple, list)):
        return len(value) > 0 and all(isinstance(d, (int, np.integer)) for d in value)
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _scalar(out):
    """The method's results on the one-element view, each one-element Tensor 0-d."""
    if isinstance(out, tuple):  # (values, indices) and PyTorch's other named pairs
        parts = [_scalar(o) for o in out]
        return type(out)(*parts) if hasattr(out, "_fields") else type(out)(parts)
    if getattr(out, "shape", None) == (1,):
        return out.reshape(())
    return out


# (added to PyTorch's words: the way out)
_FIX = "; t.reshape(1) is the 1-d tensor of its one element"


def no_dims(dim: object) -> IndexError:
    """PyTorch's error for ``dim`` of a 0-d Tensor where the method needs a real dim
    (``unbind``, ``roll`` with dims), to raise.

    >>> str(no_dims(0)).split(";")[0]
    'Dimension specified as 0 but tensor has no dimensions'
    """
    return IndexError(f"Dimension specified as {dim} but tensor has no dimensions{_FIX}")


def needs_dims(self: Any, error: type[Exception], message: str) -> None:
    """Raise ``error(message)``, PyTorch's for a 0-d ``self`` (``narrow``, ``select``,
    ``chunk``, ``split``, ``diff``...), if ``self`` is 0-d.

    >>> import funcgrad as fg
    >>> needs_dims(fg.tensor([1.0]), RuntimeError, "split expects a dim")  # 1-d: no error
    """
    if not self.ndim:
        raise error(message.rstrip(".") + _FIX)
