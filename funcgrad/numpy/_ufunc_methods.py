"""NumPy's ufunc methods on traced values, for every two-input ufunc funcgrad.numpy has:
``np.hypot.outer(a, b)``, ``np.logaddexp.reduce(x)``, ``np.maximum.accumulate(x)``,
``np.add.reduceat(x, indices)``; and
the ``axes=``/``axis=``/``keepdims=`` of generalized ufuncs (``np.vecdot(a, b, axis=0)``).

(``np.add`` and ``np.multiply`` reduce and accumulate through ``sum``, ``prod``, ``cumsum``
and ``cumprod``, which also take ``dtype=``, ``where=`` and ``initial=``.)
"""
import numpy as np

from ..kernels import cpu
from . import manipulation
from ._convert import (OUT_TYPES, asarray, concrete_values, normalize_axis, one_axis,
                       reduction_axes)
from .constructors import astype, full, ones_like, zeros_like
from .reductions import cumprod, cumsum, prod, sum

# Associative and commutative: any grouping and order of the elements gives NumPy's answer
# up to rounding (NumPy itself adds pairwise), so a reduction or a scan takes log2(n)
# steps instead of n.  The others are folded from the left, as NumPy does.
_REORDERABLE = frozenset({np.add, np.multiply, np.maximum, np.minimum, np.fmax, np.fmin,
                          np.logaddexp, np.logaddexp2, np.hypot, np.logical_and,
                          np.logical_or, np.logical_xor, np.bitwise_and, np.bitwise_or,
                          np.bitwise_xor, np.gcd, np.lcm})


def _binary(ufunc, method):
    if ufunc.nin != 2:
        raise ValueError(f"{method} only supported for binary functions (numpy."
                         f"{ufunc.__name__} takes {ufunc.nin} input)")
    if ufunc.nout != 1 and method != "outer":
        raise ValueError(f"{method} only supported for functions returning a single value "
                         f"(numpy.{ufunc.__name__} gives {ufunc.nout})")


def _in_loop_dtype(ufunc, a):
    """``a`` cast to the dtype NumPy reduces it in (bool for logical_xor of floats, float16
    for logaddexp of int8): as ``ufunc.resolve_dtypes(..., reduction=True)`` says."""
    dtype = ufunc.resolve_dtypes((None, a.dtype, None), reduction=True)[1]
    return a if a.dtype == dtype else astype(a, dtype)


def outer(ufunc, fn, a, b):
    """``ufunc.outer(a, b)``: ``fn`` of every element of ``a`` with every element of ``b``,
    shape ``a.shape + b.shape``."""
    _binary(ufunc, "outer")  # (divmod's pair of results is fine)
    a, b = asarray(a), asarray(b)
    return fn(manipulation.reshape(a, a.shape + (1,) * b.ndim), b)


def reduce(ufunc, fn, a, axis=0, keepdims=False):
    """``ufunc.reduce(a, axis, keepdims)``: ``fn`` applied between the elements along
    ``axis`` (a tuple of axes, or None for all, where the ufunc is reorderable)."""
    _binary(ufunc, "reduce")
    a = _in_loop_dtype(ufunc, asarray(a))
    axes = reduction_axes(axis, a.ndim)
    if len(axes) > 1 and ufunc not in _REORDERABLE:
        raise ValueError(f"reduction operation '{ufunc.__name__}' is not reorderable, so at "
                         f"most one axis may be specified")
    rest = tuple(d for d in range(a.ndim) if d not in axes)
    kept = tuple(a.shape[d] for d in rest)
    n = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    x = manipulation.reshape(manipulation.transpose(a, axes + rest), (n,) + kept)
    if n == 0:
        if ufunc.identity is None:
            raise ValueError(f"zero-size array to reduction operation {ufunc.__name__} which "
                             f"has no identity")
        out = full(kept, ufunc.identity, dtype=a.dtype)
    elif ufunc is np.subtract:  # x0 - x1 - x2 ... = x0 - (x1 + x2 + ...)
        out = fn(x[0], sum(x[1:], axis=0))
    elif ufunc is np.divide:
        out = fn(x[0], prod(x[1:], axis=0))
    elif ufunc in _REORDERABLE:  # pairwise, log2(n) levels
        while x.shape[0] > 1:
            even = x.shape[0] // 2 * 2
            paired = fn(x[0:even:2], x[1:even:2])
            x = manipulation.concatenate([paired, x[even:]], 0) if even < x.shape[0] else paired
        out = x[0]
    else:
        out = x[0]
        for i in range(1, n):
            out = fn(out, x[i])
    if keepdims:
        out = manipulation.reshape(out, tuple(1 if d in axes else a.shape[d]
                                              for d in range(a.ndim)))
    return out


def accumulate(ufunc, fn, a, axis=0):
    """``ufunc.accumulate(a, axis)``: the running ``fn`` along ``axis`` (``out[i]`` is the
    reduction of ``a[:i + 1]``)."""
    _binary(ufunc, "accumulate")
    a = _in_loop_dtype(ufunc, asarray(a))
    if a.ndim == 0:
        raise TypeError("accumulate: cannot accumulate on a scalar (a 0-d array)")
    axis = one_axis(axis, a.ndim)
    x = manipulation.moveaxis(a, axis, 0)
    n = x.shape[0]
    if n == 0:
        return a
    if ufunc is np.subtract:  # x0 - (x1 + ... + xi)
        out = fn(x[0], cumsum(manipulation.concatenate([zeros_like(x[:1]), x[1:]], 0), 0))
    elif ufunc is np.divide:
        out = fn(x[0], cumprod(manipulation.concatenate([ones_like(x[:1]), x[1:]], 0), 0))
    elif ufunc in _REORDERABLE:  # Hillis-Steele: after the step of shift s, out[i] covers
        out, shift = x, 1        # the 2s elements up to i
        while shift < n:
            out = manipulation.concatenate([out[:shift], fn(out[:-shift], out[shift:])], 0)
            shift *= 2
    else:
        parts = [x[0]]
        for i in range(1, n):
            parts.append(fn(parts[-1], x[i]))
        out = manipulation.stack(parts, 0)
    return manipulation.moveaxis(out, 0, axis)


def reduceat(ufunc, fn, a, indices, axis=0, reduce_slice=None):
    """``ufunc.reduceat(a, indices, axis)``: the reductions of the slices of ``a`` between
    consecutive ``indices`` (where an index is not below the next one, ``a[index]`` alone;
    the last slice runs to the end).  ``reduce_slice(x, axis)``: the reduction to use
    (sum, prod, max, min), else :func:`reduce`'s."""
    _binary(ufunc, "reduceat")
    a = asarray(a)
    axis = one_axis(axis, a.ndim)
    starts = concrete_values(indices, "reduceat (which slices it reduces)",
                             "Pass the indices as a plain list or NumPy array.")
    if starts.ndim != 1 or starts.dtype.kind not in "iu":
        raise TypeError("reduceat: indices must be a 1-d sequence of integers")
    n = a.shape[axis]
    for i in starts:
        if not 0 <= i < n:
            raise IndexError(f"index {int(i)} out-of-bounds in {ufunc.__name__}.reduceat "
                             f"[0, {n})")
    x = manipulation.moveaxis(a, axis, 0)
    parts = []
    for k, start in enumerate(starts.tolist()):
        stop = starts[k + 1] if k + 1 < len(starts) else n
        if stop <= start:
            parts.append(x[start])
        elif reduce_slice is not None:
            parts.append(reduce_slice(x[start:stop], 0))
        else:
            parts.append(reduce(ufunc, fn, x[start:stop], 0))
    if not parts:
        return manipulation.moveaxis(x[:0], 0, axis)
    return manipulation.moveaxis(manipulation.stack(parts, 0), 0, axis)


def with_core_axes(ufunc, fn, inputs, axes=None, axis=None, keepdims=False):
    """A generalized ufunc (signature ``(n),(n)->()`` and the like) whose core dimensions
    sit where ``axes``/``axis`` say: moved last for ``fn``, the output's moved back."""
    ins, out = ufunc.signature.replace(" ", "").split("->")
    core = [len(part.split(",")) if part else 0 for part in ins[1:-1].split("),(")]
    optional = [part.count("?") for part in ins[1:-1].split("),(")]
    inputs = [asarray(x) for x in inputs]
    # (a matmul operand of one dimension has no optional core dimension)
    core = [c - o if x.ndim < c else c for c, o, x in zip(core, optional, inputs)]
    if axis is not None:
        if axes is not None:
            raise TypeError("cannot specify both 'axis' and 'axes'")
        if any(c != 1 for c in core) or out != "()":
            raise TypeError(f"'axis' argument is only allowed for generalized ufuncs with one "
                            f"core dimension of the inputs and none of the output, not "
                            f"{ufunc.__name__}; pass axes=")
        axes = [(axis,)] * len(inputs)
    if axes is None:
        axes = [tuple(range(-c, 0)) for c in core]
    elif len(axes) != len(inputs) + 1 and (len(axes) != len(inputs) or out != "()"):
        raise ValueError(f"axes should be a list with an entry for all {len(inputs) + 1} "
                         f"inputs and outputs; entries for outputs can only be omitted if "
                         f"none of them has core axes.")
    axes = [(a,) if isinstance(a, (int, np.integer)) else tuple(a) for a in axes]
    moved = [manipulation.moveaxis(x, a, tuple(range(-len(a), 0))) if a else x
             for x, a in zip(inputs, axes)]
    result = fn(*moved)
    if len(axes) > len(inputs) and axes[-1]:
        k = len(axes[-1])
        result = manipulation.moveaxis(result, tuple(range(-k, 0)), axes[-1])
    if keepdims:  # (only outputs without core dimensions: NumPy refuses the others)
        result = manipulation.expand_dims(result, normalize_axis(axes[0][0], inputs[0].ndim))
    return result


# --- the methods on funcgrad.numpy's own functions: fnp.add.reduce(x), fnp.multiply.outer ---

_NO_VALUE = np._NoValue  # (NumPy's marker of an argument not given: initial=None is a value)


def attach(table, dispatch):
    """Give each elementwise function of ``table`` (NumPy ufunc -> funcgrad.numpy function)
    its ufunc's attributes (``nin``, ``nout``, ``nargs``, ``identity``, ``ntypes``,
    ``types``, ``signature``) and methods (``reduce``, ``accumulate``, ``reduceat``,
    ``outer``, ``at``), which ``dispatch(None, ufunc, method, *inputs, **kwargs)`` (the
    traced values' ``__array_ufunc__``) computes, differentiably."""
    for ufunc, fn in table.items():
        if ufunc.signature is not None or getattr(fn, "numpy_ufuncs", (None,))[0] is not ufunc:
            continue  # (a generalized ufunc, or an alias: np.true_divide is np.divide's fn)
        for name in ("nin", "nout", "nargs", "ntypes", "types", "identity", "signature"):
            setattr(fn, name, getattr(ufunc, name))
        fn.reduce, fn.accumulate, fn.reduceat, fn.outer, fn.at = methods_of(ufunc, dispatch)


def methods_of(ufunc, dispatch, label=None):
    """``ufunc``'s methods ``reduce``, ``accumulate``, ``reduceat``, ``outer`` and ``at``,
    computed by ``dispatch`` (see :func:`attach`); ``label``: the function the errors name
    (``funcgrad.numpy.<name>`` by default; funcgrad.scipy.special's functions are SciPy's
    ufuncs)."""
    label = label or f"funcgrad.numpy.{ufunc.__name__}"

    def reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE,
               where=True):
        kwargs = _given(axis=(axis, 0), dtype=(dtype, None), keepdims=(keepdims, False),
                        initial=(initial, _NO_VALUE), where=(where, True))
        return _into(out, dispatch(None, ufunc, "reduce", array, **kwargs), label, "reduce")

    def accumulate(array, axis=0, dtype=None, out=None):
        kwargs = _given(axis=(axis, 0), dtype=(dtype, None))
        return _into(out, dispatch(None, ufunc, "accumulate", array, **kwargs), label,
                     "accumulate")

    def reduceat(array, indices, axis=0, dtype=None, out=None):
        kwargs = _given(axis=(axis, 0), dtype=(dtype, None))
        return _into(out, dispatch(None, ufunc, "reduceat", array, indices, **kwargs), label,
                     "reduceat")

    def outer(A, B, /, **kwargs):
        out = kwargs.pop("out", None)
        return _into(out, dispatch(None, ufunc, "outer", A, B, **kwargs), label, "outer")

    def at(a, indices, b=None, /):
        if type(a) is np.ndarray and not _traced(indices) and not _traced(b):
            # (a plain array is NumPy's to write into, unbuffered, as NumPy does)
            return cpu.ufunc_at(ufunc, a, indices, b)
        return dispatch(None, ufunc, "at", a, indices, *(() if b is None else (b,)))

    for method, doc in ((reduce, "``np.{0}.reduce``: the elements along ``axis`` combined "
                                 "by {0} (sum for add), differentiably."),
                        (accumulate, "``np.{0}.accumulate``: the running {0} along ``axis``."),
                        (reduceat, "``np.{0}.reduceat``: {0} over the slices between "
                                   "``indices``."),
                        (outer, "``np.{0}.outer``: {0} of every element of ``A`` with every "
                                "element of ``B``."),
                        (at, "``np.{0}.at``: in place on a plain NumPy array (as NumPy); a "
                             "traced array is immutable: use ``a.at[indices]``.")):
        method.__name__ = method.__qualname__ = method.__name__
        method.__doc__ = doc.format(ufunc.__name__)
    return reduce, accumulate, reduceat, outer, at


def _given(**keywords):
    """The keywords given a value other than their default."""
    return {k: v for k, (v, default) in keywords.items()
            if not (v is default or (type(v) is type(default) and v == default
                                     and not isinstance(v, np.ndarray)))}


def _traced(x):
    return x is not None and not isinstance(x, (np.ndarray, np.generic, int, float, complex,
                                                bool, list, tuple, slice))


def _into(out, result, label, method):
    """``out=`` of a ufunc method: ``result`` written into a plain array, which is returned."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is None:
        return result
    if type(out) not in OUT_TYPES:
        raise TypeError(f"{label}.{method}(..., out=y) writes into y, which must be a plain "
                        f"NumPy array (or memmap); traced arrays are immutable: use the returned value, "
                        f"y = {label}.{method}(...)")
    if not isinstance(result, (np.ndarray, np.generic)):
        raise TypeError(f"{label}.{method}(..., out=y) would write a traced value into the "
                        f"plain array y, which drops its derivative; use the returned value: "
                        f"y = {label}.{method}(...)")
    if np.shape(result) != out.shape:
        raise ValueError(f"output parameter for {method} operand has shape {out.shape}, "
                         f"expected {np.shape(result)}")
    np.copyto(out, result, casting="same_kind")
    return out
