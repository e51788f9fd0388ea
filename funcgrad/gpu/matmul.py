"""Matrix products on the GPU: batched ``matmul`` (one tiled kernel) and ``einsum`` (a
chain of transposes, reshapes and batched matmuls)."""
from ..kernels._broadcast import broadcast_shapes
from ..kernels.cuda._layout import size_of
from ..primitives import linalg as _la
from .array import as_gpu, backend, broadcast_view, cast, new, view
from .dispatch import abstract
from .reductions import reduce_sum
from .structural import reshape, transpose

__all__ = ["matmul_impls"]


def _matmul(a, b):
    out = abstract(_la.matmul_p, (a, b), {})
    a = as_gpu(a)
    b = as_gpu(b)
    a2 = a if a.ndim > 1 else view(a, (1,) + a.shape, (0,) + a.strides, a.offset)
    b2 = b if b.ndim > 1 else view(b, b.shape + (1,), b.strides + (0,), b.offset)
    batch = broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    M, K = a2.shape[-2:]
    N = b2.shape[-1]
    a_batch = broadcast_view(view(a2, a2.shape[:-2], a2.strides[:-2], a2.offset), batch).strides
    b_batch = broadcast_view(view(b2, b2.shape[:-2], b2.strides[:-2], b2.offset), batch).strides
    tile = backend().config.TILE
    if -(-M // tile) > 65535:
        raise ValueError(f"matmul on the GPU: {M} rows is more than the grid allows "
                         f"({65535 * tile}); split the product")
    buf = backend().matmul.matmul(a2.buf, a2.offset, a2.strides[-2:], b2.buf, b2.offset,
                                  b2.strides[-2:], batch, a_batch, b_batch, M, N, K, out.dtype)
    return new(buf, out.shape, out.dtype)


def _einsum(*operands, subscripts):
    """A contraction as a chain of pairwise batched matmuls (operands' letters are unique
    within each operand: the primitive's wrapper took diagonals and lonely sums first)."""
    out = abstract(_la.einsum_p, operands, {"subscripts": subscripts})
    ins, out_spec = subscripts.split("->")
    specs = ins.split(",")
    arrays = [as_gpu(o) for o in operands]
    while len(arrays) > 1:
        later = set(out_spec) | set("".join(specs[2:]))
        a, sa = _sum_lonely(arrays[0], specs[0], specs[1], later)
        b, sb = _sum_lonely(arrays[1], specs[1], sa, later)
        batch = [c for c in sa if c in sb and c in later]
        contract = [c for c in sa if c in sb and c not in later]
        free_a = [c for c in sa if c not in sb]
        free_b = [c for c in sb if c not in sa]
        size = {c: d for s, x in ((sa, a), (sb, b)) for c, d in zip(s, x.shape)}
        nb, nm, nk, nn = (size_of([size[c] for c in group])
                          for group in (batch, free_a, contract, free_b))
        a3 = reshape(transpose(a, perm=[sa.index(c) for c in batch + free_a + contract]),
                     shape=(nb, nm, nk))
        b3 = reshape(transpose(b, perm=[sb.index(c) for c in batch + contract + free_b]),
                     shape=(nb, nk, nn))
        spec = "".join(batch + free_a + free_b)
        arrays = [reshape(_matmul(a3, b3), shape=tuple(size[c] for c in spec))] + arrays[2:]
        specs = [spec] + specs[2:]
    a, sa = _sum_lonely(arrays[0], specs[0], "", set(out_spec))
    return cast(transpose(a, perm=tuple(sa.index(c) for c in out_spec)), out.dtype)


def _sum_lonely(x, s, other, later):
    """``x`` (letters ``s``) summed over the letters neither ``other`` nor a later operand
    or the output has."""
    lonely = tuple(i for i, c in enumerate(s) if c not in other and c not in later)
    if not lonely:
        return x, s
    return (reduce_sum(x, axes=lonely, keepdims=False),
            "".join(c for i, c in enumerate(s) if i not in lonely))


def matmul_impls():
    return {_la.matmul_p: _matmul, _la.einsum_p: _einsum}
