"""Indexing: gather (``x[idx]``), scatter-add (its VJP) and scatter (``.at[].set``).

An index is normalised once (:mod:`.index_spec`) into a static spec plus the integer index
arrays that fill its placeholders, passed as operands so they can be traced (by ``vmap`` or
``jit``).  Repeated indices accumulate in scatter-add, so ``grad`` of ``x[[0, 0]]`` counts
both uses.
"""
import numpy as np

from ..kernels._broadcast import broadcast_shapes
from ..core import ROOT, Primitive, ShapedArray, Tracer, _state
from ..kernels import cpu
from . import elementwise as ew
from .structural import (broadcast_to, broadcast_to_p, linear_tangent, moveaxis, reshape,
                         transpose, unbroadcast)
from .index_spec import _adjacent, _basic_shape, _build, _is_basic, normalize_index


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
    if not arrays and type(g) is np.ndarray and _state.interpreter is ROOT and x.ndim:
        # A slice's VJP on a plain array at the root (a backward step; the second-order
        # sweep's): the pad _scatter_impl makes of the broadcast zero below, without its
        # dtype promotion, the zero's fill read back and the index checks, which cost
        # five times the pad of 100 elements (results/session13-hvp13.md).
        pad = np.zeros(x.shape, g.dtype)
        pad[_build(spec, ())] = g
        return (pad,)
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
    if (not arrays and type(prev) is np.ndarray and prev.ndim == 1 and prev.strides[0]
            and type(g) is np.ndarray and g.dtype == prev.dtype and _state.interpreter is ROOT):
        # A vector at the root (a backward step; the second-order sweep's): into prev, or
        # into _scatter_impl's copy of it, without its dispatch and checks (half of this
        # step on 100 elements; results/session13-hvp13.md).  The same operations.
        total = prev if owned else np.array(prev, copy=True)
        idx = _build(spec, ())
        view = total[idx]
        if type(view) is np.ndarray:
            view += g
        else:  # an integer index: one element, not a view
            total[idx] = view + g
        return total
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
            rank = len(broadcast_shapes(*[a.shape for a in arrays]))
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
        fill = operand[(0,) * operand.ndim] if operand.size else 0  # a broadcast constant
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
        cpu.ufunc_at(_COMBINE[mode], out, idx, updates)  # every update applies, repeats too
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
