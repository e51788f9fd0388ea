"""Indexing: gather (``x[idx]``), scatter-add (its VJP) and scatter (``.at[].set``).

An index is normalised once, in :func:`normalize_index`, into a static
*spec* (a tuple of ``("s", start, stop, step)`` slices, ``("i", k)`` integers,
``("n",)`` new axes, ``("a",)`` placeholders, and ``("e",)`` for an empty ``...``
between index arrays, which NumPy reads as separating them) plus the integer index arrays
that fill the placeholders, passed as operands so they can be traced (by
``vmap`` or ``jit``).  Integers are bounds-checked here, in Python; index
arrays are checked by NumPy's own indexing, which raises IndexError.
Repeated indices accumulate in scatter-add, so ``grad`` of ``x[[0, 0]]``
counts both uses.
"""
import functools
import numbers

import numpy as np

from ..core import ROOT, Primitive, ShapedArray, Tracer, _state, concrete
from ..kernels import cpu
from . import elementwise as ew
from .structural import (broadcast_to, broadcast_to_p, linear_tangent, moveaxis, reshape,
                         transpose, unbroadcast)



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
            np.broadcast_shapes(*[np.shape(a) for a in arrays])
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
            idx.append(next(it))
    return tuple(idx)


def _basic_shape(spec):
    """The shape of ``x[index]`` for a spec without index arrays (no dummy indexing)."""
    return tuple(len(range(*e[1:])) if e[0] == "s" else 1 for e in spec if e[0] != "i")


def _is_basic(spec):
    return all(e[0] != "a" for e in spec)


def _adjacent(spec):
    pos = [i for i, e in enumerate(spec) if e[0] == "a"]
    return not pos or pos[-1] - pos[0] == len(pos) - 1


# --- gather ---------------------------------------------------------------------------

def _gather_impl(x, *arrays, spec):
    return np.asarray(x)[_build(spec, arrays)]


def _gather_abstract(x, *arrays, spec):
    dummy = np.broadcast_to(np.zeros((), np.int8), x.shape)
    fake = [np.zeros(a.shape, np.intp) for a in arrays]
    return ShapedArray(dummy[_build(spec, fake)].shape, x.dtype)


def _gather_jvp(primals, tangents, *, spec):
    x, *arrays = primals
    return gather(x, arrays, spec), gather(tangents[0], arrays, spec)


def _gather_vjp(needs, g, out, x, *arrays, spec):
    # A broadcast zero: the scatter allocates the result once instead of copying zeros.
    # (broadcast_to's own view, without np.broadcast_to's Python-level set-up)
    zeros = broadcast_to_p.impl(np.zeros((), g.dtype), shape=tuple(x.shape))
    return (_scatter_add_at_root(zeros, g, arrays, spec),) + (None,) * len(arrays)


def _scatter_add_at_root(operand, updates, arrays, spec):
    """``scatter_add``; at the root on plain arrays, its implementation called as the root
    interpreter would call it, without ``bind`` (a slice's VJP on plain arrays, as in the
    second-order sweep: the dispatch cost more than the pad of 100 elements)."""
    if _state.interpreter is ROOT and type(operand) is np.ndarray and type(updates) is np.ndarray \
            and not arrays:
        return _scatter_impl(operand, updates, spec=spec, mode="add")
    return scatter_add(operand, updates, arrays, spec)


def _gather_vjp_into(prev, owned, g, out, x, *arrays, spec):
    """The VJP of ``x[index]`` added to ``prev``, ``x``'s cotangent so far (reverse mode's
    ``vjp_into``): one scatter-add into it, where ``prev + scatter_add(zeros, g)`` would
    pad ``g`` to ``x``'s shape and then add two arrays of that shape.  ``owned``: only
    the backward pass holds ``prev`` (a plain array), so a basic index adds in place."""
    if (owned and not arrays and type(g) is np.ndarray and g.dtype == prev.dtype
            and g.shape == _basic_shape(spec)):
        idx = _build(spec, ())
        view = prev[idx]
        if type(view) is np.ndarray:
            view += g
        else:  # an integer index of every axis: one element, not a view
            prev[idx] = view + g
        return prev
    return _scatter_add_at_root(prev, g, arrays, spec)


def _batch_index(x, xdim, arrays, adims, spec, size):
    """Rewrite an index for a batched operand; returns (x, arrays, spec, perm, out_dim).

    ``perm`` reorders NumPy's result axes into batch-first order (or None).
    """
    if xdim is not None:
        x = moveaxis(x, xdim, 0)
    elif type(x) is np.ndarray:  # a constant (a zero to pad into): no interpreter needed
        x = np.broadcast_to(x, (size,) + x.shape)
    else:
        x = broadcast_to(reshape(x, (1,) + x.shape), (size,) + x.shape)
    if all(d is None for d in adims):
        new_spec = (("s", 0, size, 1),) + spec
        if arrays and not _adjacent(spec):
            rank = len(np.broadcast_shapes(*[a.shape for a in arrays]))
            return x, list(arrays), new_spec, None, rank
        return x, list(arrays), new_spec, None, 0
    ranks = [a.ndim - (d is not None) for a, d in zip(arrays, adims)]
    rank = max(ranks)
    new_arrays = [np.arange(size).reshape((size,) + (1,) * rank)]
    for a, d, r in zip(arrays, adims, ranks):
        if d is not None:
            a = moveaxis(a, d, 0)
            a = reshape(a, a.shape[:1] + (1,) * (rank - r) + a.shape[1:])
        new_arrays.append(a)
    new_spec = (("a",),) + spec
    first = next(i for i, e in enumerate(spec) if e[0] == "a")
    perm = None
    if _adjacent(spec) and first > 0:
        n_before = sum(1 for e in spec[:first] if e[0] in "sn")
        n_total = len(_gather_abstract(ShapedArray((size,) + x.shape[1:], x.dtype),
                                       *[ShapedArray(np.shape(a), np.intp) for a in new_arrays],
                                       spec=new_spec).shape)
        perm = ((0,) + tuple(range(rank + 1, rank + 1 + n_before)) + tuple(range(1, rank + 1))
                + tuple(range(rank + 1 + n_before, n_total)))
    return x, new_arrays, new_spec, perm, 0


def _gather_batch(args, dims, *, spec):
    (x, *arrays), (xdim, *adims) = args, dims
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    x, arrays, new_spec, perm, out_dim = _batch_index(x, xdim, arrays, adims, spec, size)
    out = gather(x, arrays, new_spec)
    if perm is not None:
        out = transpose(out, perm)
    return out, out_dim


def _gather_reads(needs, **params):  # the operand's shape, and the index arrays
    return (False,) + (True,) * (len(needs) - 1), False


def _gather_grad_fn_name(node):
    """PyTorch's name of an indexing node: IndexBackward0 with an index array, else that
    of the last step that does something (an integer selects, None unsqueezes, a slice
    that is not the whole axis slices), AliasBackward0 if none does."""
    spec = node.params["spec"]
    if any(entry[0] == "a" for entry in spec):
        return "IndexBackward0"
    shape, axis, name = node.args[0].shape, 0, "AliasBackward0"
    for entry in spec:
        kind = entry[0]
        if kind == "i":
            name = "SelectBackward0"
        elif kind == "n":
            name = "UnsqueezeBackward0"
        elif kind == "s" and entry[1:] != (0, shape[axis], 1):
            name = "SliceBackward0"
        axis += kind in "is"
    return name


gather_p = Primitive("gather", _gather_impl, abstract_eval=_gather_abstract, jvp=_gather_jvp,
                     vjp=_gather_vjp, batch=_gather_batch, vjp_into=_gather_vjp_into,
                     vjp_reads=_gather_reads, grad_fn_name=_gather_grad_fn_name)
linear_tangent(gather_p)


def gather(x, arrays, spec):
    """``x[index]`` for a normalised ``spec`` and its index ``arrays``."""
    return gather_p.bind(x, *arrays, spec=spec)


def index(x, idx):
    """``x[idx]`` with NumPy's basic and advanced indexing."""
    spec, arrays = normalize_index(idx, x.shape)
    if _is_identity(spec, x.shape):
        return x
    return gather(x, arrays, spec)


def _is_identity(spec, shape):
    """Does ``spec`` select all of an array of ``shape`` unchanged?  Every entry must be a
    full unit-step slice of its axis: a new axis (``None``) or an integer changes the shape,
    so the spec must be exactly as long as the shape (``zip`` alone would stop early)."""
    return len(spec) == len(shape) and all(
        e[0] == "s" and e[1] == 0 and e[2] == d and e[3] == 1 for e, d in zip(spec, shape))


# --- scatter-add and scatter ----------------------------------------------------------------

def _scatter_impl(operand, updates, *arrays, spec, mode):
    dtype = np.result_type(operand, updates)
    idx = _build(spec, arrays)
    if isinstance(operand, np.ndarray) and operand.ndim and not any(operand.strides):
        fill = operand.flat[0] if operand.size else 0  # a broadcast constant
        if fill == 0 and (mode == "set" or _is_basic(spec)):
            # A pad (the VJP of a slice): fresh zeros and one copy of the updates,
            # instead of a fill pass and a read-modify-write pass.
            out = np.zeros(operand.shape, dtype)
            out[idx] = updates
            return out
        out = np.full(operand.shape, fill, dtype)
    else:
        if (mode == "add" and len(spec) == 2 and not arrays and spec[0][0] == "s"
                and spec[1][0] == "s" and spec[0][3] == 1 and spec[1][3] == 1
                and getattr(updates, "shape", None) == _basic_shape(spec)):
            # A slice's cotangent added into an accumulated one: one pass, no copy first.
            out = cpu.add_window(operand, updates, spec[0][1], spec[1][1])
            if out is not None:
                return out
        out = np.array(operand, copy=True, dtype=dtype)
    if mode == "set":
        out[idx] = updates  # repeated indices: the last write wins (NumPy's order)
    elif mode == "add":
        if _is_basic(spec):
            out[idx] += updates  # basic indexing cannot repeat an element
        else:
            cpu.index_add(out, idx, updates)  # repeated indices accumulate
    elif _is_basic(spec):
        out[idx] = _COMBINE[mode](out[idx], updates)
    else:
        _COMBINE[mode].at(out, idx, updates)  # every update applies, repeats included
    return out


# Modes besides "set" and "add": how an update combines with what is there.
_COMBINE = {"multiply": np.multiply, "min": np.minimum, "max": np.maximum}
MODES = ("set", "add") + tuple(_COMBINE)


def _scatter_abstract(operand, updates, *arrays, spec, mode):
    return ShapedArray(operand.shape, np.result_type(operand.dtype, updates.dtype)
                       if hasattr(updates, "dtype") else operand.dtype)


def _region_shape(operand, arrays, spec):
    """The shape of ``operand[index]``: what the updates are broadcast to."""
    return _gather_abstract(ShapedArray(np.shape(operand), np.float64),
                            *[ShapedArray(np.shape(a), np.intp) for a in arrays],
                            spec=spec).shape


def _last_writes(operand, arrays, spec):
    """Boolean, shaped like the index region: which of its elements is the one a
    ``set`` keeps where indices repeat (NumPy keeps the last write).  Each element writes
    its own position number; reading the numbers back shows who won."""
    shape = _region_shape(operand, arrays, spec)
    ids = np.arange(int(np.prod(shape)), dtype=np.intp).reshape(shape)
    start = np.broadcast_to(np.intp(-1), np.shape(operand))
    return ew.equal(gather(scatter(start, ids, arrays, spec, "set"), arrays, spec), ids)


def repeats(shape, spec, arrays):
    """Does the index reach some element of an array of ``shape`` more than once?  (Only
    index arrays can repeat; traced ones count as repeating: their values are unknown.)"""
    if _is_basic(spec):
        return False
    if any(isinstance(a, Tracer) for a in arrays):
        return True
    positions = np.arange(int(np.prod(shape))).reshape(shape)[_build(spec, arrays)]
    return np.unique(positions).size != positions.size


def _distinct(operand, arrays, spec, mode):
    """Raise unless the index reaches each element of ``operand`` at most once (the
    derivative of ``multiply`` is only written for that case)."""
    if repeats(np.shape(operand), spec, arrays):
        traced = any(isinstance(a, Tracer) for a in arrays)
        raise ValueError(
            f"x.at[idx].{mode}(v) has a derivative only where the indices are distinct"
            + (", and these index arrays are traced, so their values cannot be checked. "
               "Pass them as constants (closed over, not arguments)." if traced else
               ", and this index reaches an element more than once. Combine the updates of "
               "each position first (np.unique, then a product), then apply them with "
               "distinct indices."))


def _zero_tangent(t, like):
    """A symbolic-zero tangent made explicit: a broadcast zero costs no memory."""
    if t is not None:
        return t
    return np.broadcast_to(np.zeros((), like.dtype), np.shape(like))


def _extremum_masks(operand, updates, arrays, spec, out):
    """Where ``operand`` and where each update attains the ``min``/``max`` result, and
    ``1 / count`` of the tied values there: tied values share the derivative equally
    (as ``maximum`` does); a NaN holds it where it made the result NaN."""
    dtype = out.dtype
    region = _region_shape(operand, arrays, spec)
    on_x = ew.logical_or(ew.equal(operand, out), ew.isnan(operand))
    u = broadcast_to(updates, region) if np.shape(updates) != region else updates
    on_u = ew.logical_or(ew.equal(u, gather(out, arrays, spec)), ew.isnan(u))
    zeros = np.broadcast_to(np.zeros((), dtype), out.shape)
    count = ew.add(ew.where(on_x, dtype.type(1), dtype.type(0)),
                   scatter(zeros, ew.where(on_u, dtype.type(1), dtype.type(0)), arrays,
                           spec, "add"))
    return on_x, on_u, count


def _scatter_jvp(primals, tangents, *, spec, mode):
    operand, updates, *arrays = primals
    t_op, t_up = tangents[0], tangents[1]
    out = scatter(operand, updates, arrays, spec, mode)
    if t_op is None and t_up is None:
        return out, None
    if mode in ("set", "add"):
        t_op = _zero_tangent(t_op, out)  # batching keeps a broadcast zero one; scatter pads it
        if t_up is None:
            t_up = np.zeros((), out.dtype)
        return out, scatter(t_op, t_up, arrays, spec, mode)
    if mode == "multiply":  # distinct indices: out = x.at[idx].set(x[idx] * v)
        _distinct(operand, arrays, spec, mode)
        t_op = _zero_tangent(t_op, out)
        t_region = ew.multiply(gather(t_op, arrays, spec), updates)
        if t_up is not None:
            t_region = ew.add(t_region, ew.multiply(gather(operand, arrays, spec), t_up))
        return out, scatter(t_op, t_region, arrays, spec, "set")
    on_x, on_u, count = _extremum_masks(operand, updates, arrays, spec, out)
    zero = out.dtype.type(0)
    t = np.broadcast_to(zero, out.shape) if t_op is None else ew.where(on_x, t_op, zero)
    if t_up is not None:
        t = scatter(t, ew.where(on_u, t_up, zero), arrays, spec, "add")
    return out, ew.divide(t, count)


def _scatter_vjp(needs, g, out, operand, updates, *arrays, spec, mode):
    g_op = g_up = None
    if mode in ("set", "add"):
        if needs[0]:
            g_op = g if mode == "add" else scatter(g, np.zeros((), g.dtype), arrays, spec, "set")
            g_op = unbroadcast(g_op, operand)
        if needs[1]:
            g_up = gather(g, arrays, spec)
            if mode == "set" and arrays:  # an overwritten update has no effect
                g_up = ew.where(_last_writes(operand, arrays, spec), g_up, g.dtype.type(0))
            g_up = unbroadcast(g_up, updates)
    elif mode == "multiply":
        _distinct(operand, arrays, spec, mode)
        g_region = gather(g, arrays, spec)
        if needs[0]:
            g_op = unbroadcast(scatter(g, ew.multiply(g_region, updates), arrays, spec,
                                       "set"), operand)
        if needs[1]:
            g_up = unbroadcast(ew.multiply(g_region, gather(operand, arrays, spec)), updates)
    else:
        on_x, on_u, count = _extremum_masks(operand, updates, arrays, spec, out)
        g = ew.divide(g, count)
        zero = g.dtype.type(0)
        if needs[0]:
            g_op = unbroadcast(ew.where(on_x, g, zero), operand)
        if needs[1]:
            g_up = unbroadcast(ew.where(on_u, gather(g, arrays, spec), zero), updates)
    return (g_op, g_up) + (None,) * len(arrays)


def _scatter_batch(args, dims, *, spec, mode):
    (operand, updates, *arrays), (odim, udim, *adims) = args, dims
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    operand, arrays, new_spec, perm, out_dim = _batch_index(
        operand, odim, arrays, adims, spec, size)
    # Lay the updates out as NumPy expects them for the batched index.
    per_example = _basic_shape(spec) if len(args) == 2 else _gather_abstract(
        ShapedArray(operand.shape[1:], operand.dtype),
        *[ShapedArray(np.shape(a)[1:] if d is not None else np.shape(a), np.intp)
          for a, d in zip(args[2:], adims)], spec=spec).shape
    if udim is None:
        if not hasattr(updates, "shape"):  # a Python scalar: keep it weakly typed
            updates = np.asarray(updates, np.result_type(operand.dtype, updates))
        updates = broadcast_to(updates, per_example)
        updates = broadcast_to(reshape(updates, (1,) + updates.shape),
                               (size,) + updates.shape)
    else:
        updates = moveaxis(updates, udim, 0)
        updates = broadcast_to(reshape(updates, updates.shape[:1] + (1,) * (
            len(per_example) - updates.ndim + 1) + updates.shape[1:]), (size,) + per_example)
    if perm is not None:
        updates = transpose(updates, tuple(np.argsort(perm)))
    elif out_dim:
        updates = moveaxis(updates, 0, out_dim)
    return scatter(operand, updates, arrays, new_spec, mode), 0


def _scatter_reads(needs, *, spec, mode):
    """set/add read the index arrays only; the others read the operand, the updates
    and the output too."""
    if mode in ("set", "add"):
        return (False, False) + (True,) * (len(needs) - 2), False
    return None, True


scatter_p = Primitive("scatter", _scatter_impl, abstract_eval=_scatter_abstract,
                      jvp=_scatter_jvp, vjp=_scatter_vjp, batch=_scatter_batch,
                      vjp_reads=_scatter_reads, grad_fn_name="IndexPutBackward0")


def scatter(operand, updates, arrays, spec, mode):
    """A copy of ``operand`` with ``updates`` written (``mode="set"``; where indices
    repeat, the last write wins) or combined with what is there (``"add"``,
    ``"multiply"``, ``"min"``, ``"max"``; repeated indices combine every update) at the
    index ``spec``."""
    return scatter_p.bind(operand, updates, *arrays, spec=spec, mode=mode)


def scatter_add(operand, updates, arrays, spec):
    return scatter(operand, updates, arrays, spec, "add")


# --- argsort: integer result, no derivative --------------------------------------------

argsort_p = Primitive(
    "argsort", lambda x, *, axis: np.argsort(x, axis=axis, kind="stable"),
    abstract_eval=lambda x, *, axis: ShapedArray(x.shape, np.intp),
    batch=lambda args, dims, *, axis: (argsort(moveaxis(args[0], dims[0], 0), axis + 1), 0),
    differentiable=False)


def argsort(x, axis):
    """Indices that sort ``x`` along ``axis`` (stable)."""
    return argsort_p.bind(x, axis=axis)


def take_along_axis(x, indices, axis):
    """``np.take_along_axis``: pick ``x``'s entries along ``axis`` at ``indices``."""
    nd = x.ndim
    arrays = []
    for i in range(nd):
        if i == axis:
            arrays.append(indices)
        else:
            shape = [1] * nd
            shape[i] = indices.shape[i] if indices.shape[i] != 1 else 1
            arrays.append(np.arange(x.shape[i] if indices.shape[i] != 1 else 1).reshape(shape))
    return gather(x, arrays, (("a",),) * nd)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """``np.diagonal``: the diagonal over ``axis1``/``axis2`` moved to the last axis."""
    nd = x.ndim
    axis1, axis2 = axis1 % nd, axis2 % nd
    rest = [i for i in range(nd) if i not in (axis1, axis2)]
    xt = transpose(x, rest + [axis1, axis2])
    n1, n2 = x.shape[axis1], x.shape[axis2]
    if offset >= 0:
        k = max(0, min(n1, n2 - offset))
        rows, cols = np.arange(k), np.arange(k) + offset
    else:
        k = max(0, min(n1 + offset, n2))
        rows, cols = np.arange(k) - offset, np.arange(k)
    spec = tuple(("s", 0, d, 1) for d in xt.shape[:-2]) + (("a",), ("a",))
    return gather(xt, [rows, cols], spec)
