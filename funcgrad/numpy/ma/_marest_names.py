"""The last of ``np.ma``'s module names for :mod:`funcgrad.numpy.ma`: ``angle``, ``choose``,
``put``/``putmask`` (in place, as funcgrad's masked arrays allow: their data and mask are
rebound), ``compress_nd``, ``apply_over_axes``, ``ndenumerate``, ``mr_``, the
constructors ``indices``/``fromfunction``/``frombuffer``, ``masked_object``, and the
structured-array and memory helpers.

The data may be traced, and derivatives flow with respect to it: into the chosen or put
values, the kept slices, an applied function's result.  The helpers about bytes, memory
addresses and structured dtypes (``frombuffer``, ``fromflex``, ``flatten_structured_array``,
``ids``...) have no derivative: they work on concrete data and refuse traced data with an
error that says why.
"""
from typing import Any, Callable, Iterator

import numpy as _np

from ...core import Tracer
from ...primitives.structural import stop_gradient
from ..complexfuncs import angle as _angle
from ..building import choose as _choose
from ..indexing import at, take
from ..manipulation import reshape
from ..searching import where
from .._shapes import broadcast_to, ravel
from ._core import (MaskedArray, _concrete_mask, _full_mask, _known, filled, getdata,
                    getmask, getmaskarray, make_mask, mask_or, masked, nomask)
from ._extras import asarray as _ma_asarray, concatenate as _ma_concatenate
from ._marest_shapes import expand_dims as _ma_expand_dims
from ._ufuncs import _Unary

__all__ = ["angle", "apply_over_axes", "choose", "compress_nd", "flatten_mask",
           "flatten_structured_array", "frombuffer", "fromflex", "fromfunction", "ids",
           "indices", "make_mask_descr", "masked_object", "masked_print_option", "mr_",
           "mvoid", "ndenumerate", "put", "putmask", "refuse_traced"]

# NumPy's own objects: a print option (funcgrad's masked arrays print through NumPy's),
# the masked record scalar type, and a dtype function
masked_print_option = _np.ma.masked_print_option
mvoid = _np.ma.mvoid
make_mask_descr = _np.ma.make_mask_descr


def refuse_traced(x, what, why):
    """``x``'s values as a NumPy array for ``what``, which has no derivative (``why``):
    data that is traced (inside grad, jvp, vmap or jit) is refused."""
    if isinstance(x, Tracer):
        raise TypeError(f"funcgrad.numpy.ma: {what} needs concrete data, but the data here is "
                        f"traced (inside a transform): {why}, so it has no derivative. Call "
                        f"it outside the transform, or on fg.stop_gradient(x) / "
                        f"x.filled(...) values you do not differentiate.")
    return _np.asarray(x)


class _ComplexToReal(_Unary):
    """A unary masked operation from complex data to real results: NumPy cannot copy the
    complex input under the mask into the real result, so its masked entries hold the
    function of the data there (here without a derivative)."""

    def _call(self, a, *args, **kwargs):
        out = super()._call(a, *args, **kwargs)
        d = getdata(a)
        if isinstance(out, MaskedArray) and out._mask is not nomask and \
                _np.dtype(d.dtype).kind == "c" and out.dtype.kind != "c":
            out._data = where(out._mask, stop_gradient(self.fn(d, *args, **kwargs)),
                              out._data)
        return out


angle = _ComplexToReal(_angle, name="angle")
angle.__doc__ = """``np.ma.angle(z, deg=False)``: the argument of each complex entry
    (radians, or degrees if ``deg``), masked where ``z`` is; differentiable in the data.

    >>> from funcgrad.numpy import ma
    >>> ma.angle(ma.masked_array([1j, -1.0], mask=[0, 1]))
    masked_array(data=[1.5707963267948966, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """


def _as_masked(a):
    return a if isinstance(a, MaskedArray) else MaskedArray(a)


def choose(indices: Any, choices: Any, out: None = None, mode: str = "raise") -> MaskedArray:
    """``np.ma.choose(indices, choices, out=None, mode='raise')``: entry ``i`` from
    ``choices[indices[i]]``, masked where the chosen entry or the index is; the chosen
    data are the choices filled with their fill values, as NumPy's.  Differentiable in the
    choices.

    >>> from funcgrad.numpy import ma
    >>> ma.choose([1, 0], [ma.masked_array([1.0, 2.0], mask=[0, 1]), [3.0, 4.0]])
    masked_array(data=[3.0, --],
                 mask=[False,  True],
           fill_value=1e+20)
    """
    if out is not None:
        raise TypeError("ma.choose: out= is not supported (funcgrad's arrays are not "
                        "written in place); use the returned array")
    c = _known(filled(indices, 0))
    masks = [True if x is masked else _known(getmask(x)) for x in choices]
    data = [_np.ones(()) if x is masked else filled(x) for x in choices]
    if any(isinstance(m, Tracer) for m in masks) or isinstance(c, Tracer):
        chosen_mask = _choose(c, [_full_mask(make_mask(m, shrink=False), _np.shape(c))
                                  if m is not True else _np.ones(_np.shape(c), bool)
                                  for m in masks], mode=mode)
    else:
        chosen_mask = _np.choose(c, masks, mode=mode)
    mask = make_mask(mask_or(chosen_mask, getmask(indices)), shrink=True)
    return MaskedArray(_choose(c, data, mode=mode), mask=mask)


def _flat_positions(indices, size, mode):
    """NumPy's ``put`` indices (flat), after ``mode`` ('raise', 'wrap' or 'clip')."""
    idx = _np.asarray(refuse_traced(indices, "put's indices", "they are positions"),
                      _np.intp).ravel()
    if mode == "wrap":
        return idx % size if size else idx
    if mode == "clip":
        return _np.clip(idx, 0, size - 1)
    if mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    bad = (idx < -size) | (idx >= size)
    if bad.any():
        raise IndexError(f"index {int(idx[bad][0])} is out of bounds for axis 0 with size "
                         f"{size}")
    return idx % size if size else idx


def _last_of_each(idx):
    """The positions in ``idx`` of each index's last occurrence (NumPy's put: the last
    write wins)."""
    _, first_reversed = _np.unique(idx[::-1], return_index=True)
    return _np.sort(len(idx) - 1 - first_reversed)


def put(a: Any, indices: Any, values: Any, mode: str = "raise") -> None:
    """``np.ma.put(a, indices, values, mode='raise')``: set the flat entries ``indices`` of
    ``a`` to ``values`` (repeated as needed), in place; they become unmasked unless
    ``values`` masks them, and with a hard mask masked entries keep their data.

    funcgrad's masked array is changed by rebinding its data and mask (the arrays it was
    made from are not written), so the put values' derivatives flow into it.

    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    >>> ma.put(x, [1, 2], [9.0, 8.0])
    >>> x
    masked_array(data=[1., 9., 8.],
                 mask=False,
           fill_value=1e+20)
    """
    if not isinstance(a, MaskedArray):
        if isinstance(values, Tracer) or isinstance(getdata(values), Tracer):
            raise TypeError("ma.put: a NumPy array cannot hold traced values; make it a "
                            "funcgrad masked array first (x = ma.masked_array(x))")
        return _np.ma.put(a, indices, values, mode=mode)
    n = a.size
    idx = _flat_positions(indices, n, mode)
    if idx.size == 0:
        return None
    value_data = ravel(getdata(values))
    value_mask = getmask(values)
    # (NumPy repeats the values over the indices)
    value_data = take(value_data, _np.resize(_np.arange(value_data.shape[0]), idx.size))
    if value_mask is not nomask:
        value_mask = _np.resize(_np.ravel(_concrete_mask(value_mask, "put")), idx.size)
    keep = _np.ones(idx.size, bool)
    if a._hardmask and a._mask is not nomask:
        keep = ~_np.ravel(_concrete_mask(a._mask, "put"))[idx]
    last = _last_of_each(idx)
    last = last[keep[last]]
    flat = at(ravel(a._data))[idx[last]].set(take(value_data, last))
    a._data = reshape(flat, a.shape)
    if a._mask is nomask and value_mask is nomask:
        return None
    m = _np.array(_np.ravel(_concrete_mask(getmaskarray(a), "put")))
    m[idx[last]] = False if value_mask is nomask else value_mask[last]
    a._mask = make_mask(m.reshape(a.shape), shrink=True)
    return None


def putmask(a: Any, mask: Any, values: Any) -> None:
    """``np.ma.putmask(a, mask, values)``: where ``mask``, set ``a``'s data to ``values``
    (broadcast to ``a``'s shape), and its mask to the values' mask (with a hard mask, a
    masked entry stays masked); in place, by rebinding funcgrad's masked array's data
    and mask, so the values' derivatives flow into it.

    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([1.0, 2.0, 3.0], mask=[0, 1, 0])
    >>> ma.putmask(x, [True, True, False], ma.masked_array([7.0, 8.0, 9.0], mask=[1, 0, 0]))
    >>> x
    masked_array(data=[--, 8.0, 3.0],
                 mask=[ True, False, False],
           fill_value=1e+20)
    """
    if not isinstance(a, MaskedArray):
        if isinstance(getdata(values), Tracer):
            raise TypeError("ma.putmask: a NumPy array cannot hold traced values; make it a "
                            "funcgrad masked array first (x = ma.masked_array(x))")
        return _np.ma.putmask(a, mask, values)
    where_ = _np.broadcast_to(_np.asarray(_known(mask), bool), a.shape)
    value_data, value_mask = getdata(values), getmask(values)
    if a._mask is nomask:
        if value_mask is not nomask:
            m = _np.zeros(a.shape, bool)
            _np.copyto(m, _concrete_mask(value_mask, "putmask"), where=where_)
            a._mask = m
    elif a._hardmask:
        if value_mask is not nomask:
            m = _np.array(_concrete_mask(a._mask, "putmask"))
            _np.copyto(m, _concrete_mask(value_mask, "putmask"), where=where_)
            a._mask = m | _concrete_mask(a._mask, "putmask")
    else:
        m = _np.array(_full_mask(_concrete_mask(a._mask, "putmask"), a.shape))
        _np.copyto(m, _full_mask(_concrete_mask(value_mask, "putmask"), _np.shape(
            value_data)) if value_mask is not nomask else False, where=where_)
        a._mask = m
    value_data = broadcast_to(value_data, a.shape) if isinstance(value_data, Tracer) else \
        _np.broadcast_to(_np.asarray(value_data, a.dtype), a.shape)
    a._data = where(where_, value_data, a._data)
    return None


def compress_nd(x: Any, axis: Any = None) -> Any:
    """``np.ma.compress_nd(x, axis=None)``: the data without every slice (along each of
    ``axis``, all axes by default) that holds a masked entry; differentiable in the kept
    data (needs the mask's values).

    >>> from funcgrad.numpy import ma
    >>> ma.compress_nd(ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]]), 0)
    array([[3., 4.]])
    """
    x = _ma_asarray(x)
    m = x._mask
    data = x._data
    if m is nomask:
        return data
    m = _concrete_mask(m, "compress_nd")
    if not m.any():
        return data
    if m.all():
        return _np.array([])
    axes = tuple(range(x.ndim)) if axis is None else _axes(axis, x.ndim)
    for ax in axes:
        others = tuple(i for i in range(x.ndim) if i != ax)
        keep = _np.flatnonzero(~m.any(axis=others))
        data = take(data, keep, axis=ax)
    return data


def _axes(axis, ndim):
    axes = (axis,) if _np.ndim(axis) == 0 else tuple(axis)
    out = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise _np.exceptions.AxisError(ax, ndim)
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError("repeated axis")
    return tuple(out)


def apply_over_axes(func: Callable[..., Any], a: Any, axes: Any) -> Any:
    """``np.ma.apply_over_axes(func, a, axes)``: ``func(a, axis)`` repeatedly, for each
    axis in turn, each result's dimension kept (re-expanded if ``func`` removed it);
    differentiable as ``func`` is.

    >>> from funcgrad.numpy import ma
    >>> x = ma.masked_array([[1.0, 2.0], [3.0, 4.0]], mask=[[0, 1], [0, 0]])
    >>> ma.apply_over_axes(ma.sum, x, [0, 1])
    masked_array(data=[[8.0]],
                 mask=[[False]],
           fill_value=1e+20)
    """
    val = _ma_asarray(a)
    n = _np.ndim(getdata(a))
    for axis in ((axes,) if _np.ndim(axes) == 0 else axes):
        axis = axis + n if axis < 0 else axis
        res = func(val, axis)
        if _np.ndim(getdata(res)) == val.ndim:
            val = res
        else:
            res = _ma_expand_dims(res, axis)
            if _np.ndim(getdata(res)) != val.ndim:
                raise ValueError("function is not returning an array of the correct shape")
            val = res
    return val


def ndenumerate(a: Any, compressed: bool = True) -> Iterator[tuple]:
    """``np.ma.ndenumerate(a, compressed=True)``: ``(index, value)`` pairs, skipping the
    masked entries (or giving ``masked`` for them when not ``compressed``); the values
    carry the data's derivatives.

    >>> from funcgrad.numpy import ma
    >>> [(i, float(v)) for i, v in ma.ndenumerate(ma.masked_array([1.0, 2.0], mask=[1, 0]))]
    [((1,), 2.0)]
    """
    a = _ma_asarray(a)
    m = _np.broadcast_to(_concrete_mask(getmaskarray(a), "ndenumerate"), a.shape)
    for index in _np.ndindex(a.shape):
        if not m[index]:
            yield index, a._data[index]
        elif not compressed:
            yield index, masked


def masked_object(x: Any, value: Any, copy: bool = True, shrink: bool = True) -> MaskedArray:
    """``np.ma.masked_object(x, value, copy=True, shrink=True)``: ``x`` masked where its
    data equal ``value`` exactly, with ``value`` as the fill value (NumPy meant it for
    object arrays; for floats it is ``masked_values`` without the tolerance).

    >>> from funcgrad.numpy import ma
    >>> ma.masked_object([1.0, 2.0, 1.0], 1.0).mask
    array([ True, False,  True])
    """
    data = getdata(x)
    condition = _known(data == value) if not isinstance(data, Tracer) else data == value
    mask = mask_or(getmask(x), make_mask(condition, shrink=shrink))
    return MaskedArray(x, mask=mask, copy=copy, fill_value=value)


def _made(data, fill_value, hardmask):
    return MaskedArray(data, fill_value=fill_value, hard_mask=hardmask)


def indices(dimensions: Any, dtype: Any = int, sparse: bool = False, *,
            fill_value: Any = None, hardmask: bool = False) -> Any:
    """``np.ma.indices``: NumPy's index grids (``np.indices``) as masked arrays, nothing
    masked.

    >>> from funcgrad.numpy import ma
    >>> ma.indices((2,)).filled()
    array([[0, 1]])
    """
    grids = _np.indices(dimensions, dtype, sparse)
    if sparse:
        return tuple(_made(g, fill_value, hardmask) for g in grids)
    return _made(grids, fill_value, hardmask)


def fromfunction(function: Callable[..., Any], shape: Any, *, dtype: Any = float,
                 fill_value: Any = None, hardmask: bool = False, **kwargs: Any) -> Any:
    """``np.ma.fromfunction(function, shape, dtype=float, **kwargs)``: ``function`` of the
    index grids (as ``np.fromfunction``), as a masked array with nothing masked;
    differentiable in whatever traced values ``function`` uses.

    >>> from funcgrad.numpy import ma
    >>> ma.fromfunction(lambda i, j: i + j, (2, 2)).filled()
    array([[0., 1.],
           [1., 2.]])
    """
    grids = _np.indices(shape, dtype=dtype)
    return _made(function(*grids, **kwargs), fill_value, hardmask)


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0, *,
               like: Any = None, fill_value: Any = None, hardmask: bool = False) -> Any:
    """``np.ma.frombuffer``: the bytes of ``buffer`` read as an array (``np.frombuffer``),
    nothing masked; bytes have no derivative.

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> ma.frombuffer(np.array([1.5, 2.5]).tobytes()).filled()
    array([1.5, 2.5])
    """
    return _made(_np.frombuffer(buffer, dtype, count, offset), fill_value, hardmask)


def fromflex(fxarray: Any) -> MaskedArray:
    """``np.ma.fromflex(fxarray)``: the masked array held by a structured array with
    ``_data`` and ``_mask`` fields (as :meth:`MaskedArray.toflex` makes); a structured
    array has no derivative.

    >>> from funcgrad.numpy import ma
    >>> ma.fromflex(ma.masked_array([1.0, 2.0], mask=[0, 1]).toflex()).mask
    array([False,  True])
    """
    return MaskedArray(fxarray["_data"], mask=fxarray["_mask"])


def flatten_mask(mask: Any) -> Any:
    """``np.ma.flatten_mask(mask)``: a (structured) mask flattened to one boolean per
    field and entry, as NumPy's; a mask has no derivative.

    >>> from funcgrad.numpy import ma
    >>> ma.flatten_mask([[True, False]])
    array([ True, False])
    """
    return _np.ma.flatten_mask(refuse_traced(_known(mask), "flatten_mask",
                                             "a mask computed from traced data"))


def flatten_structured_array(a: Any) -> Any:
    """``np.ma.flatten_structured_array(a)``: a structured array's fields side by side as
    one array (a masked array for a masked input), as NumPy's; concrete data only
    (funcgrad's traced data is never structured).

    >>> import numpy as np
    >>> from funcgrad.numpy import ma
    >>> ma.flatten_structured_array(np.array([(1, 2.0)], dtype="i4,f8"))
    array([[1., 2.]])
    """
    if isinstance(a, MaskedArray):
        data = refuse_traced(a._data, "flatten_structured_array", "it rearranges bytes of "
                             "structured records")
        out = _np.ma.flatten_structured_array(_np.ma.MaskedArray(data, mask=_known(a._mask)))
        return MaskedArray(out)
    return _np.ma.flatten_structured_array(refuse_traced(
        a, "flatten_structured_array", "it rearranges bytes of structured records"))


def ids(a: Any) -> tuple:
    """``np.ma.ids(a)``: the memory addresses of ``a``'s data and mask (``id(nomask)``
    for no mask); an address has no derivative, and traced data has none.

    >>> from funcgrad.numpy import ma
    >>> len(ma.ids(ma.masked_array([1.0, 2.0], mask=[0, 1])))
    2
    """
    return _as_masked(a).ids()


class _MaskedConcatenator:
    """``np.ma.mr_``: ``mr_[a, b, 0:3, 5.0]`` joins masked arrays, arrays, numbers and
    slices (as ``np.r_`` makes them) along the first axis, masks kept; differentiable in
    the data.

    >>> from funcgrad.numpy import ma
    >>> ma.mr_[ma.masked_array([1.0, 2.0], mask=[0, 1]), 0:2]
    masked_array(data=[1.0, --, 0.0, 1.0],
                 mask=[False,  True, False, False],
           fill_value=1e+20)
    """

    def __getitem__(self, key):
        items = key if isinstance(key, tuple) else (key,)
        if items and isinstance(items[0], str):
            raise NotImplementedError(
                "funcgrad.numpy.ma.mr_ with a directive string (mr_['r', ...], "
                "mr_['0,2', ...]) is not supported; join with ma.concatenate(..., axis) and "
                "ma.atleast_1d/expand_dims instead")
        pieces = []
        for item in items:
            if isinstance(item, slice):
                pieces.append(MaskedArray(_np.r_[item]))
            elif _np.ndim(getdata(item)) == 0:
                value = getdata(item)
                piece = MaskedArray(reshape(value, (1,)) if isinstance(value, Tracer)
                                    else _np.array([value]))
                if item is masked:
                    piece = MaskedArray(_np.array([0.0]), mask=[True])
                pieces.append(piece)
            else:
                pieces.append(_as_masked(item))
        out = _ma_concatenate(pieces, axis=0)
        out._fill_value = None
        return out

    def __len__(self):
        return 0


mr_ = _MaskedConcatenator()
