"""Arrays in and out of Python: printing (``array2string``, ``array_repr``,
``array_str``), files (``save``, ``savez``, ``savez_compressed``, ``savetxt``) and
``fromiter``.

Plain arrays get NumPy's own functions.  A traced array prints its value where one is
known (under ``grad``) and its description otherwise (under ``vmap`` and ``jit``, as
``repr`` does).  It cannot be saved: a file written from inside a transform would hold
a batch, or nothing yet, or lose the derivative; save the result the transform returns
(or pass the value out with ``has_aux=True``).  NumPy's readers (``np.load``,
``np.loadtxt``, ``np.frombuffer``...) make constant arrays and are re-exported as they are.

>>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
>>> fg.grad(lambda x: print(fnp.array_str(x)) or fnp.sum(x))(np.array([1.0, 2.5]))
[1.  2.5]
array([1., 1.])
"""
import os
from typing import Any, Iterable, Optional

import numpy as _np

from ._convert import asarray, stack
from ..core import Tracer, known_value
from ..typing import Array, DTypeLike

__all__ = ["array2string", "array_repr", "array_str", "save", "savez", "savez_compressed",
           "savetxt", "fromiter", "fromfile"]


def _traced(x):
    # (only tracers: the eager Tensor and GPU arrays meet NumPy's own function, which their
    # __array_function__ handles as for any NumPy function)
    return isinstance(x, Tracer)


def _known_value(x):
    """``x``'s value as a plain array, or None where it has none yet (vmap, jit)."""
    value = known_value(x)
    if value is None:
        return None
    detach = getattr(value, "detach", None)  # (the eager Tensor)
    return _np.asarray(detach() if detach is not None else value)


def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """``np.array2string(a, ...)`` (every NumPy argument): the text of ``a``'s values; a
    traced array without values yet (vmap, jit) gives its description, as ``str``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.array2string(np.array([1.0, 2.0]), precision=2, separator=", ")
    '[1., 2.]'
    >>> fg.jit(lambda x: print(fnp.array2string(x)) or x)(np.ones(2))  # doctest: +ELLIPSIS
    GraphTracer<f64[2]> of <...jit>
    array([1., 1.])
    """
    if _traced(a):
        value = _known_value(a)
        if value is None:
            return str(a)
        a = value
    return _np.array2string(a, *args, **kwargs)


def array_repr(arr: Any, max_line_width: Optional[int] = None, precision: Optional[int] = None,
               suppress_small: Optional[bool] = None) -> str:
    """``np.array_repr(arr, max_line_width=None, precision=None, suppress_small=None)``;
    a traced array gives ``repr(arr)``, which names its transform.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.array_repr(np.array([0.5, 1.0]))
    'array([0.5, 1. ])'
    """
    if _traced(arr):
        return repr(arr)
    return _np.array_repr(arr, max_line_width, precision, suppress_small)


def array_str(a: Any, max_line_width: Optional[int] = None, precision: Optional[int] = None,
              suppress_small: Optional[bool] = None) -> str:
    """``np.array_str(a, max_line_width=None, precision=None, suppress_small=None)``: a
    traced array's values where known, else its description.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.array_str(np.array([0.5, 1.0]), precision=1)
    '[0.5 1. ]'
    """
    if _traced(a):
        value = _known_value(a)
        if value is None:
            return str(a)
        a = value
    return _np.array_str(a, max_line_width, precision, suppress_small)


def _refuse_traced(name, values):
    for v in values:
        if _traced(v):
            raise TypeError(
                f"numpy.{name} of an array traced by funcgrad is not supported: a file written "
                f"inside a transform would hold a batch (vmap), nothing yet (jit), or a value "
                f"whose derivative is lost. Save the value the transformed function returns (pass "
                f"it out with has_aux=True), or call {name} outside the transform.")


def save(file: Any, arr: Any, allow_pickle: bool = True) -> None:
    """``np.save(file, arr, allow_pickle=True)``: a plain array to a ``.npy`` file (a
    traced one raises a ``TypeError`` naming the fix).

    >>> import io, numpy as np, funcgrad.numpy as fnp
    >>> buffer = io.BytesIO()
    >>> fnp.save(buffer, np.arange(3.0)); _ = buffer.seek(0)
    >>> fnp.load(buffer)
    array([0., 1., 2.])
    """
    _refuse_traced("save", [arr])
    _np.save(file, arr, allow_pickle=allow_pickle)


def savez(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """``np.savez(file, *args, allow_pickle=True, **kwds)``: plain arrays to an ``.npz``
    file (a traced one raises a ``TypeError``).

    >>> import io, numpy as np, funcgrad.numpy as fnp
    >>> buffer = io.BytesIO()
    >>> fnp.savez(buffer, w=np.ones(2)); _ = buffer.seek(0)
    >>> fnp.load(buffer)["w"]
    array([1., 1.])
    """
    _refuse_traced("savez", [*args, *kwds.values()])
    _np.savez(file, *args, allow_pickle=allow_pickle, **kwds)


def savez_compressed(file: Any, *args: Any, allow_pickle: bool = True, **kwds: Any) -> None:
    """``np.savez_compressed(file, *args, allow_pickle=True, **kwds)``: as :func:`savez`,
    compressed.

    >>> import io, numpy as np, funcgrad.numpy as fnp
    >>> buffer = io.BytesIO()
    >>> fnp.savez_compressed(buffer, np.zeros(2)); _ = buffer.seek(0)
    >>> fnp.load(buffer)["arr_0"]
    array([0., 0.])
    """
    _refuse_traced("savez_compressed", [*args, *kwds.values()])
    _np.savez_compressed(file, *args, allow_pickle=allow_pickle, **kwds)


def savetxt(fname: Any, X: Any, *args: Any, **kwargs: Any) -> None:  # noqa: N803 - NumPy's
    """``np.savetxt(fname, X, ...)`` (every NumPy argument): a plain 1-d or 2-d array as
    text (a traced one raises a ``TypeError``).

    >>> import io, numpy as np, funcgrad.numpy as fnp
    >>> buffer = io.StringIO()
    >>> fnp.savetxt(buffer, np.array([[1.0, 2.0]]), fmt="%.1f")
    >>> buffer.getvalue()
    '1.0 2.0\\n'
    """
    _refuse_traced("savetxt", [X])
    _np.savetxt(fname, X, *args, **kwargs)


def fromiter(iter: Iterable[Any], dtype: DTypeLike, count: int = -1, *,  # noqa: A002
             like: Any = None) -> Array:
    """``np.fromiter(iter, dtype, count=-1)``: a 1-d array of the first ``count`` items
    (all when -1).  Items that are traced values (or rows of them, for a subarray
    ``dtype``) are stacked, keeping their derivatives.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.fromiter((k * k for k in range(4)), float)
    array([0., 1., 4., 9.])
    >>> float(fg.grad(lambda x: fnp.sum(fnp.fromiter((x * k for k in range(3)), float)))(1.0))
    3.0
    """
    items = list(iter) if count < 0 else [v for _, v in zip(range(count), iter)]
    if 0 <= count != len(items):
        raise ValueError(f"iterator too short: Expected {count} but iterator had only "
                         f"{len(items)} items.")
    if not any(_traced(v) for v in items):
        return _np.fromiter(items, dtype, len(items), like=like)
    dt = _np.dtype(dtype)
    shape = dt.shape  # (a subarray dtype such as "(2,)f8": each item is a row)
    return stack([asarray(v, dt.base).reshape(shape) for v in items])


def fromfile(file: Any, dtype: DTypeLike = None, count: int = -1, sep: str = "",
             offset: int = 0, *, like: Any = None) -> Any:
    """``np.fromfile(file, dtype=None, count=-1, sep="", offset=0)`` (float64 by default): a constant array read
    from a file name or an open file.  Anything else (an array, traced or not) raises a
    ``TypeError`` naming the fix, where NumPy's own raises an ``AttributeError``.

    >>> import os, tempfile, numpy as np, funcgrad.numpy as fnp
    >>> path = os.path.join(tempfile.mkdtemp(), "x.bin")
    >>> np.arange(3.0).tofile(path)
    >>> fnp.fromfile(path)
    array([0., 1., 2.])
    """
    if not isinstance(file, (str, bytes, os.PathLike)) and not hasattr(file, "fileno"):
        raise TypeError(f"numpy.fromfile reads a file name or an open file, not a "
                        f"{type(file).__name__}; for an array's values use fnp.asarray(a) "
                        f"(or np.frombuffer for bytes)")
    return _np.fromfile(file, float if dtype is None else dtype, count, sep, offset)
