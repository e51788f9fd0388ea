"""NumPy's functions about an array's memory: writes into it (``putmask``, ``copyto``),
requests for a layout (``require``), and the finite-values check of
``asarray_chkfinite``.

On plain NumPy arrays they are NumPy's own: ``putmask`` and ``copyto`` write into their
first argument and return None.  Arrays traced by funcgrad are immutable, so a write into
one raises a ``TypeError`` that names the functional rewrite (``fnp.where``,
``x.at[i].set``); a traced *value* written into a plain array is converted first, which
raises where that would drop a derivative.

>>> import numpy as np, funcgrad.numpy as fnp
>>> a = np.arange(4.0)
>>> fnp.putmask(a, a > 1, -1.0)
>>> a
array([ 0.,  1., -1., -1.])
"""
from typing import Any, Optional

import numpy as _np

from ._convert import asarray, concrete_values
from ..core import Tracer
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["putmask", "copyto", "require", "asarray_chkfinite"]


def _traced(x):
    # (only tracers: the eager Tensor and GPU arrays meet NumPy's own function, which their
    # __array_function__ handles as for any NumPy function)
    return isinstance(x, Tracer)


def _plain(x):
    # (np.asarray of a traced value raises when that would drop its derivative, and under
    # vmap or jit, with the rewrite in its message; a plain NumPy call with it would come
    # back here through __array_function__)
    return _np.asarray(x) if _traced(x) else x


def putmask(a: Any, mask: ArrayLike, values: ArrayLike) -> None:
    """``np.putmask(a, mask, values)``: writes ``values`` (repeated over ``a``'s flat
    positions) into a plain NumPy array ``a`` where ``mask`` holds; returns None.

    A traced ``a`` cannot be written into: use ``a = fnp.where(mask, fnp.resize(values,
    a.shape), a)``, which is the same result as a new, differentiable array.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> a = np.zeros(4)
    >>> fnp.putmask(a, np.array([True, False, True, False]), [1.0, 2.0])
    >>> a
    array([1., 0., 1., 0.])
    >>> fg.grad(lambda x: fnp.sum(fnp.where(x > 1, fnp.resize(3.0 * x, x.shape), x)))(
    ...     np.array([0.5, 2.0]))
    array([1., 3.])
    """
    if _traced(a):
        raise TypeError("putmask writes into its first argument, and arrays traced by "
                        "funcgrad are immutable. Make the new array instead: a = "
                        "fnp.where(mask, fnp.resize(values, a.shape), a) (or a = "
                        "a.at[mask].set(v) with one value per True).")
    return _np.putmask(a, _plain(mask), _plain(values))


def copyto(dst: Any, src: ArrayLike, casting: str = "same_kind", where: ArrayLike = True) -> None:
    """``np.copyto(dst, src, casting='same_kind', where=True)``: writes ``src``
    (broadcast) into a plain NumPy array ``dst`` where ``where`` holds; returns None.

    A traced ``dst`` cannot be written into: use ``dst = fnp.where(where,
    fnp.broadcast_to(src, dst.shape).astype(dst.dtype), dst)``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> dst = np.zeros((2, 2))
    >>> fnp.copyto(dst, [1.0, 2.0], where=np.array([[True, False], [False, True]]))
    >>> dst
    array([[1., 0.],
           [0., 2.]])
    """
    if _traced(dst):
        raise TypeError("copyto writes into dst, and arrays traced by funcgrad are immutable. "
                        "Make the new array instead: dst = fnp.where(where, "
                        "fnp.broadcast_to(src, dst.shape).astype(dst.dtype), dst) (or dst = "
                        "dst.at[index].set(src)).")
    return _np.copyto(dst, _plain(src), casting=casting, where=_plain(where))


# NumPy's names of the requirements, by their letter
_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
                 "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W",
                 "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a: ArrayLike, dtype: Optional[DTypeLike] = None, requirements: Any = None, *,
            like: Any = None) -> Array:
    """``np.require(a, dtype=None, requirements=None)``: ``a`` as an array of ``dtype``
    that meets ``requirements`` (``'C'``, ``'F'``, ``'A'``, ``'W'``, ``'O'``, ``'E'`` or
    their long names).

    Plain values get NumPy's answer.  A traced array has no memory to lay out, so
    ``'C'``, ``'F'``, ``'A'``, ``'O'`` and ``'E'`` hold as it is (cast to ``dtype``, its
    derivative kept); ``'W'`` (writeable) cannot: traced arrays are immutable.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.require(np.ones((2, 2)).T, np.float32, "C").flags.c_contiguous
    True
    >>> fg.grad(lambda x: fnp.sum(fnp.require(x, None, ["C", "A"]) ** 2))(np.ones(2))
    array([2., 2.])
    """
    if not _traced(a):
        return _np.require(a, dtype, requirements, like=like)
    letters = set()
    for r in requirements or ():  # (a string is its letters, as NumPy reads it)
        letter = _REQUIREMENTS.get(str(r).upper())
        if letter is None:
            raise KeyError(f"require: unknown requirement {r!r}; expected one of "
                           f"{sorted(_REQUIREMENTS)}")
        letters.add(letter)
    if {"C", "F"} <= letters:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    if "W" in letters:
        raise TypeError("require(..., 'W'): arrays traced by funcgrad are immutable, so never "
                        "writeable. Drop 'W' and write functionally: x = x.at[i].set(v).")
    return asarray(a, dtype)


def asarray_chkfinite(a: ArrayLike, dtype: Optional[DTypeLike] = None,
                      order: Optional[str] = None) -> Array:
    """``np.asarray_chkfinite(a, dtype=None, order=None)``: ``a`` as an array, or a
    ``ValueError`` if it holds an inf or a NaN.

    A traced ``a`` keeps its derivative; its values are read to check them, which under
    ``vmap`` and ``jit`` (values not known) raises :class:`~funcgrad.ConcretizationError`.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(lambda x: fnp.sum(fnp.asarray_chkfinite(x) ** 2))(np.array([1.0, 2.0]))
    array([2., 4.])
    >>> fnp.asarray_chkfinite([1.0, np.inf])
    Traceback (most recent call last):
    ...
    ValueError: array must not contain infs or NaNs
    """
    if not _traced(a):
        return _np.asarray_chkfinite(a, dtype, order)
    a = asarray(a, dtype)
    if a.dtype.kind in "fc":
        values = concrete_values(a, "asarray_chkfinite (whether every value is finite)",
                                 "Check where values are known (outside jit), or mask them: "
                                 "fnp.where(fnp.isfinite(x), x, fallback).")
        if not _np.isfinite(values).all():
            raise ValueError("array must not contain infs or NaNs")
    return a
