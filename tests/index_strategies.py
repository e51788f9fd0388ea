"""Hypothesis strategies for NumPy index expressions (shared by the indexing property
tests, the GPU tests and the fuzzer's program generator).

:func:`index_expressions` draws every form NumPy accepts, mixed freely: basic slices with
any start/stop/step (negative, past the ends, ``None``), ``None`` anywhere (leading, in the
middle, trailing, several), at most one ``...`` anywhere, integers (negative too), integer
arrays (broadcastable shapes, repeats allowed), integer lists and tuples inside the index
tuple (``x[(0, 1), (2, 2)]``, which NumPy reads as lists), boolean masks over one or
more axes, and the bare non-tuple forms.  Indices are in bounds by construction; index
arrays may fail to broadcast together, in which case NumPy raises ``IndexError`` and so
must funcgrad -- the tests compare with NumPy either way.
"""
import numpy as np
from hypothesis import strategies as st


def shapes(min_dims=0, max_dims=4):
    """Array shapes of rank ``min_dims``..``max_dims``, sides 0-4 (0 now and then)."""
    side = st.sampled_from([1, 2, 3, 4, 2, 3, 0])
    return st.lists(side, min_size=min_dims, max_size=max_dims).map(tuple)


@st.composite
def _slice(draw, side):
    bound = st.none() | st.integers(-side - 2, side + 2)
    step = st.none() | st.sampled_from([1, 2, 3, -1, -2, -3])
    return slice(draw(bound), draw(bound), draw(step))


@st.composite
def _int_array(draw, side, shape):
    values = draw(st.lists(st.integers(-side, side - 1), min_size=int(np.prod(shape)),
                           max_size=int(np.prod(shape))))
    return np.array(values, dtype=draw(st.sampled_from([np.intp, np.int32, np.uint8]))
                    if all(v >= 0 for v in values) else np.intp).reshape(shape)


@st.composite
def _entries(draw, shape, axes, array_shape, advanced):
    """Index entries consuming exactly ``axes`` (consecutive axes of ``shape``)."""
    entries, k = [], 0
    while k < len(axes):
        side = shape[axes[k]]
        kinds = ["slice", "slice"]
        if side > 0:
            kinds += ["int"]
            if advanced:
                kinds += ["array", "list", "tuple"]
        if advanced:
            kinds += ["mask"]
        kind = draw(st.sampled_from(kinds))
        width = 1
        if kind == "slice":
            entries.append(draw(_slice(side)))
        elif kind == "int":
            entries.append(draw(st.integers(-side, side - 1)))
        elif kind == "array":
            entries.append(draw(_int_array(side, draw(st.sampled_from(
                [array_shape, array_shape[1:], (1,) + array_shape[1:]])))))
        elif kind in ("list", "tuple"):
            values = draw(_int_array(side, (draw(st.integers(1, 3)),))).tolist()
            entries.append(values if kind == "list" else tuple(values))
        else:  # a boolean mask over this axis and maybe the next ones
            width = draw(st.integers(1, len(axes) - k))
            mshape = tuple(shape[a] for a in axes[k:k + width])
            mask = draw(st.lists(st.booleans(), min_size=int(np.prod(mshape)),
                                 max_size=int(np.prod(mshape))))
            entries.append(np.array(mask, bool).reshape(mshape))
        k += width
    return entries


@st.composite
def index_expressions(draw, shape, advanced=True):
    """An index for an array of ``shape``: a tuple, or a bare entry / list / array."""
    ndim = len(shape)
    n_consumed = draw(st.integers(0, ndim))  # axes named explicitly; '...' or the end
    ellipsis_at = draw(st.none() | st.integers(0, n_consumed))  # takes the rest
    array_shape = draw(st.sampled_from([(), (2,), (1,), (3,), (2, 2), (0,)]))
    if ellipsis_at is None:
        entries = draw(_entries(shape, list(range(n_consumed)), array_shape, advanced))
    else:
        n_after = n_consumed - ellipsis_at
        entries = (draw(_entries(shape, list(range(ellipsis_at)), array_shape, advanced))
                   + [Ellipsis]
                   + draw(_entries(shape, list(range(ndim - n_after, ndim)), array_shape,
                                   advanced)))
    for _ in range(draw(st.integers(0, 2))):  # new axes anywhere, trailing included
        entries.insert(draw(st.integers(0, len(entries))), None)
    if len(entries) == 1 and not isinstance(entries[0], tuple) and draw(st.booleans()):
        return entries[0]  # the bare form: x[i], x[1:3], x[None], x[mask], x[[0, 1]]
    return tuple(entries)


def numpy_result(x, idx):
    """``(value, None)`` for NumPy's ``x[idx]``, or ``(None, exception type)``."""
    try:
        return x[idx], None
    except (IndexError, ValueError) as e:
        return None, type(e)


def index_text(idx):
    """``idx`` as it would be written between brackets (for failure messages)."""
    if not isinstance(idx, tuple):
        idx = (idx,)
    parts = []
    for k in idx:
        if k is Ellipsis:
            parts.append("...")
        elif isinstance(k, slice):
            parts.append(":".join("" if v is None else str(v)
                                  for v in (k.start, k.stop, k.step)).rstrip(":") or ":")
        elif isinstance(k, np.ndarray):
            parts.append(f"np.array({k.tolist()})")
        else:
            parts.append(repr(k))
    return ", ".join(parts)
