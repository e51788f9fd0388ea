"""An index, normalised once into a static spec that gather and scatter share.

:func:`normalize_index` turns ``x[idx]``'s index into a *spec* (a tuple of
``("s", start, stop, step)`` slices, ``("i", k)`` integers, ``("n",)`` new axes,
``("a",)`` placeholders, and ``("e",)`` for an empty ``...`` between index arrays, which
NumPy reads as separating them) plus the integer index arrays that fill the placeholders;
:func:`_build` turns a spec back into a NumPy index.  Integers are bounds-checked here, in
Python; index arrays are checked by NumPy's own indexing, which raises IndexError.
"""
import functools
import numbers

import numpy as np

from ..kernels._broadcast import broadcast_shapes
from ..core import Tracer, concrete


# --- normalising an index ----------------------------------------------------------

def _is_int_like(k):
    return isinstance(k, (numbers.Integral, np.integer)) and not isinstance(k, (bool, np.bool_))


def normalize_index(idx, shape):
    """``(spec, arrays)`` for ``x[idx]`` with ``x.shape == shape``."""
    if type(idx) is slice and shape:
        # One slice of the first axis (x[1:], x[:-1]: stencils, Rosenbrock) is the
        # commonest index; its spec without the general walk below, which cost a tenth
        # of an hvp of Rosenbrock at n = 100.
        start, stop, step = idx.indices(shape[0])
        if not len(range(start, stop, step)):
            start, stop, step = 0, 0, 1  # (an empty slice, as the walk writes it)
        return (("s", start, stop, step),) + tuple(("s", 0, d, 1) for d in shape[1:]), ()
    if not isinstance(idx, tuple):
        idx = (idx,)
    entries = []
    mask_lengths = {}  # id(index array from a mask) -> (mask axis length, mask shape)
    for k in idx:
        if isinstance(k, (bool, np.bool_)):
            raise IndexError("a 0-d boolean index (True/False) is not supported; index with a "
                             "boolean mask array, or use None to add an axis")
        if isinstance(k, (list, tuple)):  # (a tuple inside the index tuple is a list to NumPy)
            k = np.asarray(k)
            if k.dtype == object:
                raise IndexError(f"index list {idx!r} is ragged; use equal-length lists")
            if k.size == 0:
                k = k.astype(np.intp)
        if isinstance(k, Tracer) and k.dtype.kind == "b":
            k = concrete(k)  # a mask's true count decides the result shape
        if isinstance(k, np.ndarray) and k.dtype.kind == "b":
            if k.ndim == 0:
                raise IndexError("a 0-d boolean index is not supported; use a boolean mask "
                                 "array")
            for j, part in enumerate(np.nonzero(k)):
                mask_lengths[id(part)] = (k.shape[j], k.shape)
                entries.append(part)
            continue
        entries.append(k)
    consumed = sum(1 for k in entries if k is not None and k is not Ellipsis)
    if sum(1 for k in entries if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if consumed > len(shape):
        raise IndexError(f"too many indices for array: array is {len(shape)}-dimensional, "
                         f"but {consumed} were indexed")
    spec, arrays = [], []
    axis = 0
    for k in entries:
        if k is Ellipsis:
            if len(shape) == consumed:
                spec.append(("e",))  # kept below only where it separates index arrays
            for _ in range(len(shape) - consumed):
                spec.append(("s", 0, shape[axis], 1))
                axis += 1
        elif k is None:
            spec.append(("n",))
        elif isinstance(k, slice):
            start, stop, step = k.indices(shape[axis])
            if not len(range(start, stop, step)):
                start, stop, step = 0, 0, 1  # (an empty reversed slice may start at -1)
            spec.append(("s", start, stop, step))
            axis += 1
        elif _is_int_like(k):
            k = int(k)
            if not -shape[axis] <= k < shape[axis]:
                raise IndexError(f"index {k} is out of bounds for axis {axis} with size "
                                 f"{shape[axis]}")
            spec.append(("i", k % shape[axis]))
            axis += 1
        elif hasattr(k, "dtype") and hasattr(k, "shape"):
            if k.dtype.kind not in "iu":
                raise IndexError(f"arrays used as indices must be of integer or boolean type, "
                                 f"got {k.dtype}")
            if id(k) in mask_lengths and mask_lengths[id(k)][0] != shape[axis]:
                length, mshape = mask_lengths[id(k)]
                raise IndexError(f"boolean index did not match indexed array along axis {axis}; "
                                 f"size of axis is {shape[axis]} but size of corresponding "
                                 f"boolean axis is {length} (mask shape {mshape})")
            if not isinstance(k, Tracer):
                k = np.asarray(k)
                if k.size and (k.min() < -shape[axis] or k.max() >= shape[axis]):
                    bad = k[(k < -shape[axis]) | (k >= shape[axis])].flat[0]
                    raise IndexError(f"index {bad} is out of bounds for axis {axis} with size "
                                     f"{shape[axis]}")
            spec.append(("a",))
            arrays.append(k)
            axis += 1
        else:
            raise IndexError(f"only integers, slices (:), ellipsis (...), None, and integer or "
                             f"boolean arrays are valid indices; got {type(k).__name__}")
    while axis < len(shape):
        spec.append(("s", 0, shape[axis], 1))
        axis += 1
    if arrays:  # with arrays present, NumPy treats integers as 0-d index arrays
        try:
            broadcast_shapes(*[np.shape(a) for a in arrays])
        except ValueError:
            raise IndexError(
                "shape mismatch: indexing arrays could not be broadcast together with shapes "
                + " ".join(str(tuple(np.shape(a))) for a in arrays)) from None
        out, it = [], iter(arrays)
        arrays = []
        for e in spec:
            if e[0] == "i":
                out.append(("a",))
                arrays.append(np.intp(e[1]))
            elif e[0] == "a":
                out.append(e)
                arrays.append(next(it))
            else:
                out.append(e)
        spec = out
    if ("e",) in spec:
        # NumPy counts even an empty '...' as separating index arrays, which moves the
        # broadcast index axes to the front: x[:, i, ..., j] is not x[:, i, j].
        at = spec.index(("e",))
        between = any(e[0] == "a" for e in spec[:at]) and any(e[0] == "a" for e in spec[at:])
        if not between:
            del spec[at]
    return tuple(spec), arrays


def _build(spec, arrays):
    """The NumPy index of a normalised ``spec`` with its index ``arrays``."""
    if not arrays:  # a basic index (slices, integers, new axes) depends on the spec alone
        return _basic_index(spec)
    return _index_of(spec, arrays)


@functools.lru_cache(maxsize=256)
def _basic_index(spec):
    # Built once per spec: every gather and scatter of x[1:] would build the same tuple.
    return _index_of(spec, ())


def _index_of(spec, arrays):
    it = iter(arrays)
    idx = []
    for e in spec:
        kind = e[0]
        if kind == "s":
            start, stop, step = e[1:]
            if step < 0 and stop < 0:
                stop = None
            idx.append(slice(start, stop, step))
        elif kind == "i":
            idx.append(e[1])
        elif kind == "n":
            idx.append(None)
        elif kind == "e":
            idx.append(Ellipsis)
        else:
            idx.append(_in_intp(next(it)))
    return tuple(idx)


_INTP_MAX = int(np.iinfo(np.intp).max)


def _in_intp(a):
    """Index array ``a``, unless it is unsigned and holds a value beyond intp: NumPy casts
    it to intp unchecked, so 2**64 - 1 would read as -1, the last element.  A concrete index
    was bounds-checked by :func:`normalize_index`; a traced one (jit, vmap) is checked
    only here, on its values."""
    dtype = getattr(a, "dtype", None)
    if dtype is not None and dtype.kind == "u" and dtype.itemsize >= 8 and np.size(a):
        top = int(np.max(a))
        if top > _INTP_MAX:
            raise IndexError(f"index {top} (in a {dtype} index array) is out of bounds: an "
                             f"index must be below 2**63 (NumPy would read it as "
                             f"{top - 2**64})")
    return a


def _basic_shape(spec):
    """The shape of ``x[index]`` for a spec without index arrays (no dummy indexing)."""
    return tuple(len(range(*e[1:])) if e[0] == "s" else 1 for e in spec if e[0] != "i")


def _is_basic(spec):
    return all(e[0] != "a" for e in spec)


def _adjacent(spec):
    pos = [i for i, e in enumerate(spec) if e[0] == "a"]
    return not pos or pos[-1] - pos[0] == len(pos) - 1
