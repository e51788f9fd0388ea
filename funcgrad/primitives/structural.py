"""Primitives that move data without arithmetic: reshape, transpose,
broadcast, sum, type conversion, concatenate/split, stop_gradient.

They are linear, so each one's VJP is another of them (its transpose), and
the helpers every other rule leans on live here: :func:`unbroadcast` sums a
cotangent back to an input's shape, :func:`fit` broadcasts a tangent to an
output's shape, :func:`moveaxis` moves a batch axis.
"""
from typing import Any

import numpy as np

from .. import tree
from ..core import SHAPES_ONLY, Primitive, ShapedArray, _state, dtype_of, is_weak

# getattr with a default reads a tracer's shape property once (hasattr would run it twice)
def _shape(x):
    return getattr(x, "shape", ())


def _ndim(x):
    return len(getattr(x, "shape", ()))


# --- reshape -----------------------------------------------------------------

def _reshape_batch(args, dims, *, shape):
    x = moveaxis(args[0], dims[0], 0)
    return reshape(x, (x.shape[0],) + shape), 0


# The implementations below call an ndarray's method (or the ufunc's reduce) directly: the
# np.reshape / np.transpose / np.sum functions are Python wrappers around exactly that
# call, and they run on every bind of these primitives (most rules end with one).
_ndarray = np.ndarray


def _reshape_impl(x, *, shape):
    return x.reshape(shape) if type(x) is _ndarray else np.reshape(x, shape)


reshape_p = Primitive(
    "reshape", _reshape_impl,
    vjp_reads=SHAPES_ONLY, grad_fn_name="ViewBackward0",
    abstract_eval=lambda x, *, shape: ShapedArray(shape, x.dtype),
    jvp=lambda primals, tangents, *, shape: (reshape(primals[0], shape),
                                             reshape(tangents[0], shape)),
    vjp=lambda needs, g, out, x, *, shape: (reshape(g, _shape(x)),),
    batch=_reshape_batch)


def reshape(x, shape):
    """Reshape to ``shape`` (a tuple of non-negative ints, already resolved)."""
    shape = tuple(shape)
    if _shape(x) == shape:
        return x
    return _state.interpreter.process(reshape_p, (x,), {"shape": shape})


# --- transpose ---------------------------------------------------------------

def _transpose_batch(args, dims, *, perm):
    x = moveaxis(args[0], dims[0], 0)
    return transpose(x, (0,) + tuple(p + 1 for p in perm)), 0


def _transpose_impl(x, *, perm):
    return x.transpose(perm) if type(x) is _ndarray else np.transpose(x, perm)


transpose_p = Primitive(
    "transpose", _transpose_impl,
    vjp_reads=SHAPES_ONLY, grad_fn_name="PermuteBackward0",
    abstract_eval=lambda x, *, perm: ShapedArray(tuple(x.shape[p] for p in perm), x.dtype),
    jvp=lambda primals, tangents, *, perm: (transpose(primals[0], perm),
                                            transpose(tangents[0], perm)),
    vjp=lambda needs, g, out, x, *, perm: (transpose(g, tuple(np.argsort(perm))),),
    batch=_transpose_batch)


def transpose(x, perm):
    """Permute axes: output axis ``i`` is input axis ``perm[i]``."""
    perm = tuple(int(p) for p in perm)
    if perm == tuple(range(len(perm))):
        return x
    return _state.interpreter.process(transpose_p, (x,), {"perm": perm})


def moveaxis(x, src, dst):
    """Move axis ``src`` to position ``dst`` (both non-negative)."""
    if src == dst:
        return x
    perm = [i for i in range(_ndim(x)) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


# --- broadcast_to --------------------------------------------------------------

def _broadcast_batch(args, dims, *, shape):
    x = moveaxis(args[0], dims[0], 0)
    rank = x.ndim - 1
    x = reshape(x, (x.shape[0],) + (1,) * (len(shape) - rank) + x.shape[1:])
    return broadcast_to(x, (x.shape[0],) + shape), 0


def _broadcast_impl(x, *, shape):
    """``np.broadcast_to``'s read-only view; a contiguous array (a reduction's cotangent,
    the usual case) gets it from the ndarray constructor, without NumPy's Python-level
    iterator set-up, which costs more than the rest of a small backward step."""
    if isinstance(x, np.generic):  # a reduction's scalar cotangent
        x = np.asarray(x)
    if type(x) is not _ndarray or not x.flags.c_contiguous or x.ndim > len(shape) \
            or x.dtype.hasobject:
        return np.broadcast_to(x, shape)
    lead = len(shape) - x.ndim
    strides = [0] * lead
    for n, d, s in zip(shape[lead:], x.shape, x.strides):
        if d == 1:
            strides.append(0)
        elif d == n:
            strides.append(s)
        else:
            return np.broadcast_to(x, shape)  # (NumPy's error message)
    out = _ndarray(shape, x.dtype, x, 0, strides)
    out.setflags(write=False)  # (a third of the time of setting out.flags.writeable)
    return out


broadcast_to_p = Primitive(
    "broadcast_to", _broadcast_impl,
    vjp_reads=SHAPES_ONLY, grad_fn_name="ExpandBackward0",
    abstract_eval=lambda x, *, shape: ShapedArray(shape, x.dtype),
    jvp=lambda primals, tangents, *, shape: (broadcast_to(primals[0], shape),
                                             broadcast_to(tangents[0], shape)),
    vjp=lambda needs, g, out, x, *, shape: (unbroadcast(g, x),),
    batch=_broadcast_batch)


def broadcast_to(x, shape):
    """Broadcast ``x`` to ``shape`` (NumPy rules; the result is read-only)."""
    shape = tuple(shape)
    if _shape(x) == shape:
        return x
    return _state.interpreter.process(broadcast_to_p, (x,), {"shape": shape})


# --- reduce_sum ----------------------------------------------------------------

def _reduced_shape(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def expand_reduced(g, shape, axes, keepdims):
    """Reshape a reduction's cotangent so it broadcasts against ``shape``."""
    if keepdims:
        return g
    return reshape(g, _reduced_shape(shape, axes, True))


# a first-order cotangent: a plain array, or the NumPy scalar a full reduction gives
_PLAIN_COTANGENTS = frozenset({_ndarray, np.float32, np.float64})


def _sum_vjp(needs, g, out, x, *, axes, keepdims):
    shape = x.shape
    t = type(g)
    if t in _PLAIN_COTANGENTS:
        # First order on plain arrays: the read-only view broadcast_to would give, made
        # directly (a mean's and a row sum's whole backward step).  g's strides along the
        # kept axes, 0 along the summed ones: g's elements, each repeated along them.
        if t is not _ndarray:  # (a sum of everything: a NumPy scalar)
            g = np.asarray(g)
        if g.flags.c_contiguous and g.ndim + (0 if keepdims else len(axes)) == len(shape):
            strides = list(g.strides)
            if keepdims:
                for a in axes:
                    strides[a] = 0
            else:
                for a in axes:  # (ascending: each 0 lands at its axis)
                    strides.insert(a, 0)
            ct = _ndarray(shape, g.dtype, g, 0, strides)
            ct.setflags(write=False)
            return (ct,)
        if not keepdims and len(axes) != len(shape):
            g = g.reshape(_reduced_shape(shape, axes, True))
        return (g if g.shape == shape else _broadcast_impl(g, shape=shape),)
    if not keepdims and len(axes) == len(shape):  # a sum of everything: g is 0-d, and
        return (broadcast_to(g, shape),)          # broadcasts without a reshape first
    return (broadcast_to(expand_reduced(g, shape, axes, keepdims), shape),)


def _sum_batch(args, dims, *, axes, keepdims):
    x = moveaxis(args[0], dims[0], 0)
    return reduce_sum(x, tuple(a + 1 for a in axes), keepdims), 0


def _sum_impl(x, *, axes, keepdims):
    if type(x) is _ndarray:
        return np.add.reduce(x, axes, None, None, keepdims=keepdims)
    return np.sum(x, axis=axes, keepdims=keepdims)


reduce_sum_p = Primitive(
    "reduce_sum", _sum_impl,
    vjp_reads=SHAPES_ONLY, grad_fn_name="SumBackward0",
    abstract_eval=lambda x, *, axes, keepdims: ShapedArray(
        _reduced_shape(x.shape, axes, keepdims), np.sum(np.zeros((), x.dtype)).dtype),
    jvp=lambda primals, tangents, *, axes, keepdims: (
        reduce_sum(primals[0], axes, keepdims), reduce_sum(tangents[0], axes, keepdims)),
    vjp=_sum_vjp, batch=_sum_batch)


def reduce_sum(x, axes, keepdims=False):
    """Sum over ``axes`` (a tuple of non-negative ints)."""
    axes = tuple(sorted(axes))
    if not axes and not keepdims and hasattr(x, "shape"):
        return x
    return _state.interpreter.process(reduce_sum_p, (x,), {"axes": axes, "keepdims": keepdims})


# --- convert_element_type ------------------------------------------------------

def _is_float(dtype):
    """Floating point, real or complex: a dtype that carries derivatives."""
    return np.dtype(dtype).kind in "fc"


def _convert(x, *, dtype, weak=False):
    if weak:  # a Python number again: what Python's own arithmetic on numbers gives
        return np.asarray(x).astype(dtype).item()
    x = np.asarray(x)
    if x.dtype.kind == "c" and np.dtype(dtype).kind != "c":
        # complex to real keeps the real part (NumPy's astype, without its ComplexWarning):
        # the transpose of the real-to-complex embedding, which reverse mode relies on.
        x = x.real
    return x.astype(dtype)


def _convert_jvp(primals, tangents, *, dtype, weak=False):
    cast = as_weak if weak else lambda v: convert_element_type(v, dtype)
    out = cast(primals[0])
    if not _is_float(dtype):
        return out, None
    return out, cast(tangents[0])


def _convert_batch(args, dims, *, dtype, weak=False):
    # a batch of numbers is an array: strongly typed, as np.asarray of a list of them
    return convert_element_type(args[0], dtype), dims[0]


convert_element_type_p = Primitive(
    "convert_element_type", _convert,
    vjp_reads=SHAPES_ONLY, grad_fn_name="ToCopyBackward0",
    abstract_eval=lambda x, *, dtype, weak=False: ShapedArray(x.shape, dtype, weak),
    jvp=_convert_jvp,
    vjp=lambda needs, g, out, x, *, dtype, weak=False: (convert_element_type(g, dtype_of(x)),),
    batch=_convert_batch)


def convert_element_type(x, dtype):
    """Cast to ``dtype``; casting to a non-float type drops the derivative."""
    dtype = np.dtype(dtype)
    if getattr(x, "dtype", None) == dtype and not is_weak(x):
        return x
    if not _is_float(dtype):
        x = stop_gradient(x)
    return convert_element_type_p.bind(x, dtype=dtype)


def strong(x):
    """``x``, a weakly typed value (a Python number passed to a transform: see
    :func:`funcgrad.core.is_weak`), as an array of its dtype: what ``np.asarray`` makes of
    a Python number, which NumPy then promotes like any array.

    >>> strong(2.5)
    array(2.5)
    """
    return convert_element_type_p.bind(x, dtype=dtype_of(x))


def as_weak(x):
    """``x``, a traced 0-d value, weakly typed (:func:`funcgrad.core.is_weak`): what
    Python's operators make of Python numbers (``s * 2.0`` is a Python float again, which
    NumPy then promotes weakly), the opposite of :func:`strong`.  The operators of traced
    values call it when every operand is weak; NumPy's functions do not (``np.sin(2.5)``
    is a strongly typed float64).

    >>> as_weak(np.float64(2.5))
    2.5
    """
    if is_weak(x):
        return x
    return convert_element_type_p.bind(x, dtype=dtype_of(x), weak=True)


# --- stop_gradient -------------------------------------------------------------

stop_gradient_p = Primitive(
    "stop_gradient", lambda x: x,
    abstract_eval=lambda x: x,
    jvp=lambda primals, tangents: (stop_gradient(primals[0]), None),
    vjp=lambda needs, g, out, x: (None,),
    batch=lambda args, dims: (stop_gradient(args[0]), dims[0]),
    differentiable=False)


# --- checkpoint_name: a value named for checkpoint policies ------------------------------

name_p = Primitive(
    "name", lambda x, *, name: x,
    abstract_eval=lambda x, *, name: x,
    jvp=lambda primals, tangents, *, name: (name_p.bind(primals[0], name=name), tangents[0]),
    vjp=lambda needs, g, out, x, *, name: (g,),
    batch=lambda args, dims, *, name: (name_p.bind(args[0], name=name), dims[0]))


def stop_gradient(x: Any) -> Any:
    """``x`` (an array, or a pytree of them: each leaf), treated as a constant by every
    derivative.

    >>> import funcgrad as fg
    >>> fg.grad(lambda x: x * fg.stop_gradient(x))(3.0)
    np.float64(3.0)
    >>> fg.grad(lambda x: x * fg.stop_gradient({"a": x})["a"])(3.0)
    np.float64(3.0)
    """
    if isinstance(x, (list, tuple, dict)):  # a pytree: each leaf
        return tree.tree_map(stop_gradient_p.bind, x)
    return stop_gradient_p.bind(x)


# --- concatenate / split -------------------------------------------------------

def _concat_abstract(*xs, axis):
    shape = list(xs[0].shape)
    shape[axis] = sum(x.shape[axis] for x in xs)
    return ShapedArray(shape, np.result_type(*[x.dtype for x in xs]))


def _concat_jvp(primals, tangents, *, axis):
    out = concatenate(primals, axis)
    pieces = [t if t is not None else zeros_like_value(p, out.dtype)
              for p, t in zip(primals, tangents)]
    return out, concatenate(pieces, axis)


def _concat_vjp(needs, g, out, *xs, axis):
    bounds = np.cumsum([x.shape[axis] for x in xs])[:-1]
    pieces = split(g, tuple(int(b) for b in bounds), axis)
    return [unbroadcast(p, x) if need else None for p, x, need in zip(pieces, xs, needs)]


def _concat_batch(args, dims, *, axis):
    size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    moved = []
    for a, d in zip(args, dims):
        if d is None:
            a = broadcast_to(reshape(a, (1,) + a.shape), (size,) + a.shape)
        else:
            a = moveaxis(a, d, 0)
        moved.append(a)
    return concatenate(moved, axis + 1), 0


concatenate_p = Primitive(
    "concatenate", lambda *xs, axis: np.concatenate(xs, axis=axis),
    vjp_reads=SHAPES_ONLY, grad_fn_name="CatBackward0",
    abstract_eval=_concat_abstract, jvp=_concat_jvp, vjp=_concat_vjp, batch=_concat_batch)


def concatenate(xs, axis):
    """Join arrays (same dtype and shape except along ``axis``) along ``axis``."""
    xs = tuple(xs)
    if len(xs) == 1:
        return xs[0]
    # The batching rule shifts ``axis`` by one: it must not count from the end.
    return concatenate_p.bind(*xs, axis=axis % _ndim(xs[0]))


def _split_abstract(x, *, bounds, axis):
    edges = (0,) + bounds + (x.shape[axis],)
    outs = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        shape = list(x.shape)
        shape[axis] = hi - lo
        outs.append(ShapedArray(shape, x.dtype))
    return outs


def _split_vjp(needs, gs, outs, x, *, bounds, axis):
    pieces = [g if g is not None else zeros_like_value(o, x.dtype) for g, o in zip(gs, outs)]
    return (concatenate(pieces, axis),)


def _split_jvp(primals, tangents, *, bounds, axis):
    return split(primals[0], bounds, axis), split(tangents[0], bounds, axis)


def _split_batch(args, dims, *, bounds, axis):
    x = moveaxis(args[0], dims[0], 0)
    outs = split(x, bounds, axis + 1)
    return outs, [0] * len(outs)


split_p = Primitive(
    "split", lambda x, *, bounds, axis: np.split(x, bounds, axis=axis), vjp_reads=SHAPES_ONLY,
    abstract_eval=_split_abstract, jvp=_split_jvp, vjp=_split_vjp, batch=_split_batch,
    multiple_results=True)


def split(x, bounds, axis):
    """Split ``x`` along ``axis`` at the sorted indices ``bounds``."""
    return split_p.bind(x, bounds=tuple(bounds), axis=axis % _ndim(x))


# --- helpers for rules -----------------------------------------------------------

def zeros_like_value(x, dtype=None):
    """A constant array of zeros shaped like ``x`` (a value, tracer or aval)."""
    return np.zeros(_shape(x), dtype if dtype is not None else x.dtype)


_LEADING = tuple(tuple(range(n)) for n in range(8))


def unbroadcast(g, x):
    """Sum cotangent ``g`` down to the shape of ``x`` and cast it to ``x``'s dtype.

    Every rule of a broadcasting operation ends with this: a value that was
    broadcast in the forward pass receives the sum of its copies' cotangents.
    """
    try:
        shape, dtype = x.shape, x.dtype
    except AttributeError:  # a Python number (weakly typed: an argument of grad/vjp)
        shape, dtype = (), dtype_of(x)
    if type(g) is _ndarray and g.dtype is dtype and len(g.shape) >= len(shape):
        # first order on plain arrays (a bias's gradient): the sum and reshape below by
        # their implementations, without a dispatch each
        gshape = g.shape
        if gshape == shape:
            return g
        lead = len(gshape) - len(shape)
        if 1 in shape:  # (only a length-1 axis of x can have been stretched)
            axes = tuple(range(lead)) + tuple(
                lead + i for i, d in enumerate(shape) if d == 1 and gshape[lead + i] != 1)
        else:  # the leading axes alone (a bias's gradient)
            axes = _LEADING[lead] if lead < len(_LEADING) else tuple(range(lead))
        if axes:
            g = np.add.reduce(g, axes, None, None, keepdims=False)
        return g if g.shape == shape else g.reshape(shape)
    gshape = _shape(g)
    if gshape != shape:
        lead = len(gshape) - len(shape)
        axes = tuple(range(lead)) + tuple(
            lead + i for i, d in enumerate(shape) if d == 1 and gshape[lead + i] != 1)
        g = reduce_sum(g, axes)
        if _shape(g) != shape:
            g = reshape(g, shape)
    if getattr(g, "dtype", None) != dtype:
        g = convert_element_type(g, dtype)
    return g


def fit(t, out):
    """Broadcast tangent ``t`` to the shape and dtype of the output ``out``."""
    shape = _shape(out)
    if _shape(t) != shape:
        t = broadcast_to(t, shape)
    dtype = out.dtype
    if getattr(t, "dtype", None) != dtype:
        t = convert_element_type(t, dtype)
    return t


def to_front(x, d):
    """Move batch axis ``d`` of ``x`` to the front (``None`` stays unbatched)."""
    return x if d is None else moveaxis(x, d, 0)


def linear_tangent(prim):
    """Give ``prim``, linear in its first argument with the others constant (reshape,
    transpose, broadcast_to, reduce_sum, gather), the tangent half of its JVP (see
    ``JVPInterpreter.process_deferred``): the primitive applied to the tangent."""
    def jvp_tangent(primals, tangents, out, **params):
        t = tangents[0]
        if t is None:
            return None
        return _state.interpreter.process(prim, (t,) + tuple(primals[1:]), params)
    prim.jvp_tangent = jvp_tangent


for _p in (reshape_p, transpose_p, broadcast_to_p, reduce_sum_p):
    linear_tangent(_p)
