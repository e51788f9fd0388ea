"""Applying a Python function over an array: ``apply_along_axis``, ``apply_over_axes`` and
``vectorize``, through ``fg.vmap`` (as JAX does).

The function is called *once*, on traced slices, not once per slice as NumPy does: it
must be written with ``funcgrad.numpy`` (or plain NumPy) operations, without Python
``if``/``for`` on the slice's values (those raise ConcretizationError under vmap).  In
exchange it differentiates, and runs under ``jit`` and an outer ``vmap``.
"""
import re
from typing import Any, Callable

import numpy as _np

from ..batched import vmap
from ._convert import asarray, normalize_axis
from .constructors import astype
from .manipulation import broadcast_to, expand_dims, moveaxis, transpose
from ..typing import Array, ArrayLike, Axis

__all__ = ["apply_along_axis", "apply_over_axes", "vectorize"]


def _vmapped(fn, depth):
    for _ in range(depth):
        fn = vmap(fn)
    return fn


def apply_along_axis(func1d: Callable[..., Any], axis: Axis, arr: ArrayLike, *args: ArrayLike,
                     **kwargs: Any) -> Array:
    """``np.apply_along_axis(func1d, axis, arr, *args, **kwargs)``: ``func1d`` on every 1-d
    slice along ``axis``; its result's axes take ``axis``'s place.  Runs ``func1d`` once
    under ``fg.vmap`` (see the module's notes).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.apply_along_axis(lambda r: r[0] * r[-1], 1, np.arange(6.0).reshape(2, 3))
    array([ 0., 15.])
    """
    arr = asarray(arr)
    axis = normalize_axis(axis, arr.ndim)[0]
    moved = moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if 0 in outer:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    res = asarray(_vmapped(lambda row: asarray(func1d(row, *args, **kwargs)),
                           len(outer))(moved))
    k = len(outer)
    order = list(range(axis)) + list(range(k, res.ndim)) + list(range(axis, k))
    return transpose(res, order)


def apply_over_axes(func: Callable[..., Any], a: ArrayLike, axes: Axis) -> Array:
    """``np.apply_over_axes(func, a, axes)``: ``a = func(a, axis)`` for each axis in turn,
    keeping the number of dimensions (a reduced axis is put back with length 1).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.apply_over_axes(fnp.sum, np.ones((2, 3)), [0, 1])
    array([[6.]])
    """
    val = asarray(a)
    n = val.ndim
    for axis in _np.atleast_1d(axes):
        axis = int(axis) + n if axis < 0 else int(axis)
        res = asarray(func(val, axis))
        if res.ndim == val.ndim:
            val = res
        elif res.ndim == val.ndim - 1:
            val = expand_dims(res, axis)
        else:
            raise ValueError("function is not returning an array of the correct shape")
    return val


_DIMS = r"\(\s*(?:\w+(?:\s*,\s*\w+)*)?\s*\)"
_SIGNATURE = re.compile(rf"^{_DIMS}(?:\s*,\s*{_DIMS})*\s*->\s*{_DIMS}(?:\s*,\s*{_DIMS})*$")


def _parse_signature(signature):
    if not _SIGNATURE.match(signature):
        raise ValueError(f"not a valid gufunc signature: {signature!r} (e.g. '(n),(n)->()')")
    ins, outs = signature.split("->")
    parse = lambda side: [tuple(d.strip() for d in grp.split(",") if d.strip())  # noqa: E731
                          for grp in re.findall(r"\(([^)]*)\)", side)]
    return parse(ins), parse(outs)


class vectorize:  # noqa: N801 - NumPy's name
    """``np.vectorize(pyfunc, otypes=None, doc=None, excluded=None, cache=False,
    signature=None)``, through ``fg.vmap``: ``pyfunc`` is called once on traced values, so
    it must be traceable (funcgrad/NumPy operations, no Python branching on values), and in
    exchange it differentiates and runs under ``jit``.

    Without ``signature`` ``pyfunc`` sees scalars; with a gufunc ``signature`` such as
    ``'(n),(n)->()'`` it sees the core dimensions, and the other (loop) dimensions of all
    arguments broadcast.  ``excluded`` (positions or keyword names) are passed as they are;
    ``otypes`` casts the outputs to those dtypes; ``cache`` has no effect (pyfunc is
    called once anyway).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> dist = fnp.vectorize(lambda a, b: fnp.sqrt(fnp.sum((a - b) ** 2)),
    ...                      signature="(n),(n)->()")
    >>> dist(np.zeros((2, 3)), np.ones(3))
    array([1.73205081, 1.73205081])
    """

    def __init__(self, pyfunc, otypes=None, doc=None, excluded=None, cache=False,
                 signature=None):
        self.pyfunc = pyfunc
        self.otypes = otypes if otypes is None or not isinstance(otypes, str) else list(otypes)
        self.excluded = set(excluded or ())
        self.signature = signature
        self._core = _parse_signature(signature) if signature is not None else None
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    def __call__(self, *args, **kwargs):
        fixed_kw = {k: v for k, v in kwargs.items() if k in self.excluded}
        free_kw = [k for k in kwargs if k not in self.excluded]
        free_pos = [i for i in range(len(args)) if i not in self.excluded]
        arrays = [asarray(args[i]) for i in free_pos] + [asarray(kwargs[k]) for k in free_kw]
        if self._core is None:
            core_in = [()] * len(arrays)
        else:
            core_in = self._core[0]
            if len(core_in) != len(arrays):
                raise TypeError(f"vectorize: signature {self.signature!r} takes "
                                f"{len(core_in)} array arguments, got {len(arrays)}")
        loops = []
        for x, dims in zip(arrays, core_in):
            if x.ndim < len(dims):
                raise ValueError(f"vectorize: an input has {x.ndim} dimension(s), fewer than "
                                 f"its core dimensions {dims} in {self.signature!r}")
            loops.append(x.shape[:x.ndim - len(dims)])
        loop = _np.broadcast_shapes(*loops) if loops else ()
        arrays = [broadcast_to(x, loop + x.shape[x.ndim - len(d):])
                  for x, d in zip(arrays, core_in)]

        def core(*values):
            call_args = list(args)
            for i, v in zip(free_pos, values):
                call_args[i] = v
            kw = dict(fixed_kw)
            kw.update(zip(free_kw, values[len(free_pos):]))
            return self.pyfunc(*call_args, **kw)

        out = _vmapped(core, len(loop))(*arrays)
        if self.otypes:
            if isinstance(out, tuple):
                out = tuple(astype(o, t) for o, t in zip(out, self.otypes))
            else:
                out = astype(asarray(out), self.otypes[0])
        return out
