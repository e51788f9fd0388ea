"""Applying a Python function over an array: ``apply_along_axis``, ``apply_over_axes``,
``vectorize`` and ``frompyfunc``, through ``fg.vmap`` (as JAX does).

The function is called *once*, on traced slices, not once per slice as NumPy does: it
must be written with ``funcgrad.numpy`` (or plain NumPy) operations, without Python
``if``/``for`` on the slice's values (those raise ConcretizationError under vmap).  In
exchange it differentiates, and runs under ``jit`` and an outer ``vmap``.
"""
import re
from typing import Any, Callable

import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from ..batched import vmap
from ._convert import asarray, normalize_axis
from .constructors import astype
from .manipulation import broadcast_to, expand_dims, moveaxis, transpose
from ..typing import Array, ArrayLike, Axis

__all__ = ["apply_along_axis", "apply_over_axes", "vectorize", "frompyfunc"]


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
        loop = broadcast_shapes(*loops) if loops else ()
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


class _PythonUfunc:
    """What :func:`frompyfunc` returns: ``func`` over broadcast arrays, with the ufunc
    methods that make sense for it (``outer``, and ``reduce`` for two inputs)."""

    def __init__(self, func, nin, nout, identity):
        self.func, self.nin, self.nout, self.identity = func, nin, nout, identity
        self.nargs = nin + nout
        self.__name__ = getattr(func, "__name__", "frompyfunc")
        self._vectorized = vectorize(func)

    def __repr__(self):
        return f"<funcgrad.numpy.frompyfunc {self.__name__} (nin={self.nin}, nout={self.nout})>"

    def __call__(self, *args):
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}: takes {self.nin} array argument(s) (nin), "
                            f"got {len(args)}")
        out = self._vectorized(*args)
        if self.nout > 1 and not (isinstance(out, tuple) and len(out) == self.nout):
            raise ValueError(f"{self.__name__}: nout={self.nout}, but the function returned "
                             f"{type(out).__name__} rather than a tuple of {self.nout}")
        return out

    def outer(self, a, b):
        """``f.outer(a, b)``: ``f`` on every pair, ``a``'s axes first (two inputs)."""
        a, b = asarray(a), asarray(b)
        return self(a.reshape(a.shape + (1,) * b.ndim), b)

    def reduce(self, a, axis=0):
        """``f.reduce(a, axis=0)``: ``f`` folded along one axis, left to right (two inputs,
        one output; an empty axis gives ``identity``)."""
        if self.nin != 2 or self.nout != 1:
            raise ValueError("reduce only supported for functions of two inputs and one output")
        a = moveaxis(asarray(a), normalize_axis(axis, asarray(a).ndim)[0], 0)
        if a.shape[0] == 0:
            if self.identity is None:
                raise ValueError(f"zero-size array to reduction {self.__name__}, which has no "
                                 f"identity (pass identity= to frompyfunc)")
            return broadcast_to(asarray(self.identity), a.shape[1:])
        out = a[0]
        for k in range(1, a.shape[0]):
            out = self(out, a[k])
        return out


def frompyfunc(func: Callable[..., Any], /, nin: int, nout: int, *,
               identity: Any = None) -> Any:
    """``np.frompyfunc(func, nin, nout, identity=None)``: ``func`` of ``nin`` scalars (and
    ``nout`` results) applied over broadcast arrays, with ``.outer`` and ``.reduce``.

    As in ``jax.numpy``, it goes through :class:`vectorize` (``func`` is called once, on
    traced values, and differentiates), and the results have ``func``'s dtypes rather than
    NumPy's ``object``.

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> hyp = fnp.frompyfunc(lambda a, b: fnp.sqrt(a * a + b * b), 2, 1)
    >>> hyp(np.array([3.0, 5.0]), 4.0)
    array([5.        , 6.40312424])
    >>> float(hyp.reduce(np.array([3.0, 4.0, 12.0])))
    13.0
    >>> round(float(fg.grad(lambda x: hyp(x, 4.0))(3.0)), 12)
    0.6
    """
    if nin < 1 or nout < 1:
        raise ValueError(f"frompyfunc: nin and nout must be at least 1, got {nin} and {nout}")
    return _PythonUfunc(func, nin, nout, identity)
