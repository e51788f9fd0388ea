"""Structural operations on the GPU: reshape, transpose, broadcast, cast, concatenate, split.

All but casting and concatenation are views of their operand's buffer (a reshape of a
strided view copies it to contiguous first).
"""
from ..kernels._broadcast import broadcast_shapes
from ..kernels.cuda._layout import contiguous_strides, size_of
from ..primitives import structural as _st
from .array import GpuArray, as_gpu, backend, broadcast_view, cast, contiguous, run_cast, view
from .dispatch import abstract

__all__ = ["reshape", "transpose", "structural_impls"]


def reshape(x, *, shape):
    shape = tuple(shape)
    if size_of(shape) != x.size:
        raise ValueError(f"cannot reshape array of size {x.size} into shape {shape}")
    x = contiguous(x)
    return view(x, shape, contiguous_strides(shape), x.offset)


def transpose(x, *, perm):
    return view(x, tuple(x.shape[p] for p in perm), tuple(x.strides[p] for p in perm), x.offset)


def _broadcast_to(x, *, shape):
    broadcast_shapes(x.shape, tuple(shape))  # raises NumPy's error where they do not fit
    return broadcast_view(x, shape)


def _concatenate(*xs, axis):
    out_aval = abstract(_st.concatenate_p, xs, {"axis": axis})
    xs = [as_gpu(x) for x in xs]
    cuda = backend().cuda
    out = GpuArray(cuda.device_array(size_of(out_aval.shape), out_aval.dtype), out_aval.shape,
                   out_aval.dtype)
    start = 0
    for x in xs:
        if x.size:
            target = view(out, x.shape, out.strides, out.offset + start * out.strides[axis])
            run_cast([x], x.shape, out_aval.dtype, out=target)
        start += x.shape[axis]
    return out


def _split(x, *, bounds, axis):
    edges = (0,) + tuple(bounds) + (x.shape[axis],)
    outs = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        shape = list(x.shape)
        shape[axis] = hi - lo
        outs.append(view(x, tuple(shape), x.strides, x.offset + lo * x.strides[axis]))
    return outs


def structural_impls():
    return {
        _st.reshape_p: reshape,
        _st.transpose_p: transpose,
        _st.broadcast_to_p: _broadcast_to,
        _st.convert_element_type_p: cast,
        _st.stop_gradient_p: lambda x: x,
        _st.name_p: lambda x, *, name: x,
        _st.concatenate_p: _concatenate,
        _st.split_p: _split,
    }
