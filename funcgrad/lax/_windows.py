"""``jax.lax``'s windowed operations: ``reduce_window`` (pooling) and
``conv_general_dilated`` (convolution), as compositions of :func:`pad` and strided slices.

Both read the (padded, dilated) operand through one strided slice per offset inside the
window: the slice at offset ``k`` holds, for every output position, the entry the
window's ``k``-th element sees there.  ``reduce_window`` combines those slices with its
computation (a recognised monoid reduces them stacked); ``conv_general_dilated`` stacks
them into patches and contracts them with the kernel by ``einsum``.  So both
differentiate, batch and compile as slicing and ``einsum`` do.  Padding is ``"VALID"``,
``"SAME"``, ``"SAME_LOWER"`` or ``(low, high)`` pairs, as in JAX; base (``lhs``)
dilation spreads the operand's entries apart, window (``rhs``) dilation the window's.
"""
import itertools
import string
from typing import Any, Callable, Sequence

import numpy as np

from .. import numpy as fnp
from .. import tree
from ._common import NUMBER, accept, array, static_ints
from ._graphs import flatten_operands
from ._reductions import MONOIDS, operands_with_inits
from ._structural import pad, slice as lax_slice
from ..typing import Array, ArrayLike, DTypeLike, PyTree

__all__ = ["reduce_window", "conv_general_dilated", "conv", "conv_with_general_padding"]


def _dilated(size, dilation):
    return 0 if size == 0 else (size - 1) * dilation + 1


def _pads(what, padding, sizes, windows, strides):
    """``(low, high)`` per axis for a padding string or sequence (JAX's rule for "SAME":
    the output has ``ceil(size / stride)`` entries, the extra padding after, or before
    with "SAME_LOWER")."""
    if isinstance(padding, str):
        kind = padding.upper()
        if kind == "VALID":
            return [(0, 0)] * len(sizes)
        if kind not in ("SAME", "SAME_LOWER"):
            raise ValueError(f"{what}: padding must be 'VALID', 'SAME', 'SAME_LOWER' or "
                             f"(low, high) pairs, got {padding!r}")
        pads = []
        for n, w, s in zip(sizes, windows, strides):
            total = max((-(-n // s) - 1) * s + w - n, 0)
            small, large = total // 2, total - total // 2
            pads.append((large, small) if kind == "SAME_LOWER" else (small, large))
        return pads
    pads = [static_ints(p, f"{what}: padding") for p in padding]
    if len(pads) != len(sizes) or any(len(p) != 2 for p in pads):
        raise ValueError(f"{what}: padding needs one (low, high) pair per windowed axis "
                         f"({len(sizes)}), got {padding!r}")
    return pads


def _window_slices(what, x, lead, windows, strides, padding, base_dilation, window_dilation,
                   fill):
    """The operand's axes after the first ``lead`` padded and dilated (with ``fill``), and
    for each offset inside the window (row-major) the strided slice seen there: a list of
    arrays of the output's shape."""
    n = x.ndim - lead
    windows = static_ints(windows, f"{what}: window dimensions")
    strides = static_ints(strides, f"{what}: strides")
    base = static_ints(base_dilation or (1,) * n, f"{what}: base dilation")
    dil = static_ints(window_dilation or (1,) * n, f"{what}: window dilation")
    for name, values in (("window dimensions", windows), ("strides", strides),
                         ("base dilation", base), ("window dilation", dil)):
        if len(values) != n or any(v < 1 for v in values):
            raise ValueError(f"{what}: {name} need one positive int per windowed axis ({n}), "
                             f"got {values}")
    sizes = [_dilated(s, b) for s, b in zip(x.shape[lead:], base)]
    spans = [_dilated(w, d) for w, d in zip(windows, dil)]
    pads = _pads(what, padding, sizes, spans, strides)
    config = [(0, 0, 0)] * lead + [(lo, hi, b - 1) for (lo, hi), b in zip(pads, base)]
    x = pad(x, fill, config)
    outs = [max((size - span) // s + 1, 0)
            for size, span, s in zip(x.shape[lead:], spans, strides)]
    pieces = []
    for offset in itertools.product(*[range(w) for w in windows]):
        starts = [k * d if o else 0 for k, d, o in zip(offset, dil, outs)]
        limits = [a + (o - 1) * s + 1 if o else 0 for a, o, s in zip(starts, outs, strides)]
        pieces.append(lax_slice(x, [0] * lead + starts, list(x.shape[:lead]) + limits,
                                [1] * lead + list(strides)))
    return pieces


def reduce_window(operand: PyTree, init_value: PyTree, computation: Callable[..., Any],
                  window_dimensions: Sequence[int],
                  window_strides: Sequence[int] | None = None,
                  padding: str | Sequence[Sequence[int]] = "VALID",
                  base_dilation: Sequence[int] | None = None,
                  window_dilation: Sequence[int] | None = None) -> PyTree:
    """``computation`` over every window of ``operand`` (an array, or a pytree of arrays of
    one shape with ``init_value`` alike): pooling.  Padded entries are ``init_value``, the
    computation's identity (``-inf`` for a max pool, ``0`` for a sum), which also starts
    each window's reduction.  Strides default to 1 and padding to ``"VALID"``, as JAX's.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> x = np.arange(16.0).reshape(4, 4)
    >>> lax.reduce_window(x, -np.inf, lax.max, (2, 2), (2, 2), "VALID")
    array([[ 5.,  7.],
           [13., 15.]])
    """
    leaves, inits, treedef = operands_with_inits("reduce_window", operand, init_value)
    if window_strides is None:
        window_strides = (1,) * len(static_ints(window_dimensions,
                                                "reduce_window: window_dimensions"))
    pieces = [_window_slices("reduce_window", x, 0, window_dimensions, window_strides,
                             padding, base_dilation, window_dilation, v)
              for x, v in zip(leaves, inits)]
    monoid = MONOIDS.get(computation) if treedef == tree.flatten(0)[1] else None
    if monoid is not None:
        stacked = fnp.stack(pieces[0])
        return computation(inits[0], monoid(stacked, (0,)))

    def combine(a, b):
        out, out_tree = flatten_operands(computation(tree.unflatten(treedef, a),
                                                     tree.unflatten(treedef, b)))
        if out_tree != treedef:
            raise TypeError(f"reduce_window: the computation returned structure {out_tree} "
                            f"for operands of structure {treedef}; they must be the same")
        return [array(o) for o in out]

    total = [fnp.broadcast_to(v, pieces[0][0].shape) for v in inits]
    for k in range(len(pieces[0])):
        total = combine(total, [p[k] for p in pieces])
    return tree.unflatten(treedef, total)


def _permutations(dimension_numbers, rank):
    """``(lhs, rhs, out)`` axis orders taking each operand to (batch or output feature,
    feature, spatial...): from JAX's layout strings (spatial axes ordered as in the kernel's
    string), from three sequences of axis numbers, or None (NCHW-like)."""
    if dimension_numbers is None:
        default = tuple(range(rank))
        return default, default, default
    lhs, rhs, out = dimension_numbers
    if isinstance(lhs, str):
        if not len(lhs) == len(rhs) == len(out) == rank:
            raise ValueError(f"conv_general_dilated: layouts {dimension_numbers} must each "
                             f"name the {rank} axes of the operands")

        def order(spec, first, second):
            spatial = sorted((i for i, c in enumerate(spec) if c not in (first, second)),
                             key=lambda i: rhs.index(spec[i]))
            return (spec.index(first), spec.index(second)) + tuple(spatial)
        try:
            return order(lhs, "N", "C"), order(rhs, "O", "I"), order(out, "N", "C")
        except ValueError:
            raise ValueError(f"conv_general_dilated: layouts {dimension_numbers} must name "
                             f"N and C (lhs, out), O and I (rhs), and the same spatial "
                             f"letters in each") from None
    return tuple(tuple(static_ints(p, "conv_general_dilated: dimension_numbers"))
                 for p in (lhs, rhs, out))


def conv_general_dilated(lhs: ArrayLike, rhs: ArrayLike, window_strides: Sequence[int],
                         padding: str | Sequence[Sequence[int]],
                         lhs_dilation: Sequence[int] | None = None,
                         rhs_dilation: Sequence[int] | None = None,
                         dimension_numbers: Any = None, feature_group_count: int = 1,
                         batch_group_count: int = 1, precision: Any = None,
                         preferred_element_type: DTypeLike | None = None,
                         out_sharding: Any = None) -> Array:
    """The convolution (cross-correlation, as JAX) of ``lhs`` (batch, feature, spatial...)
    with the kernel ``rhs`` (output feature, input feature, spatial...), or the layouts
    ``dimension_numbers`` names (``("NHWC", "HWIO", "NHWC")``...), with strides, padding,
    input (``lhs``) and kernel (``rhs``) dilation and ``feature_group_count`` groups.
    ``batch_group_count`` other than 1 is not supported (NotImplementedError).

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> x, k = np.arange(5.0).reshape(1, 1, 5), np.array([[[1.0, 0.0, -1.0]]])
    >>> lax.conv_general_dilated(x, k, (1,), "VALID")
    array([[[-2., -2., -2.]]])
    """
    what = "conv_general_dilated"
    lhs, rhs = accept(what, array(lhs), NUMBER), accept(what, array(rhs), NUMBER)
    if lhs.ndim != rhs.ndim or lhs.ndim < 2:
        raise ValueError(f"{what}: lhs and rhs need one rank, at least 2, got shapes "
                         f"{lhs.shape} and {rhs.shape}")
    if static_ints([batch_group_count], what)[0] != 1:
        raise NotImplementedError(f"{what}: batch_group_count={batch_group_count} is not "
                                  f"supported; split the batch and convolve each group")
    dtype = (np.result_type(lhs.dtype, rhs.dtype) if preferred_element_type is None
             else np.dtype(preferred_element_type))
    if isinstance(padding, str) and lhs_dilation is not None and any(
            d != 1 for d in static_ints(lhs_dilation, what)):
        raise ValueError(f"{what}: a padding string ({padding!r}) with lhs_dilation (a "
                         f"transposed convolution) is ambiguous, as in JAX; give the "
                         f"(low, high) padding pairs")
    lhs_perm, rhs_perm, out_perm = _permutations(dimension_numbers, lhs.ndim)
    x = fnp.astype(fnp.transpose(lhs, lhs_perm), dtype)
    k = fnp.astype(fnp.transpose(rhs, rhs_perm), dtype)
    groups = static_ints([feature_group_count], what)[0]
    (batch, features), (out_features, in_features) = x.shape[:2], k.shape[:2]
    if groups < 1 or features != groups * in_features or out_features % groups:
        raise ValueError(f"{what}: lhs has {features} features and rhs takes {in_features} "
                         f"per group with {out_features} outputs; with feature_group_count="
                         f"{groups} they must be {groups} * {in_features} and a multiple of "
                         f"{groups}")
    pieces = _window_slices(what, x, 2, k.shape[2:], window_strides, padding, lhs_dilation,
                            rhs_dilation, np.zeros((), dtype))
    spatial = pieces[0].shape[2:]
    patches = fnp.reshape(fnp.stack(pieces, axis=2),
                          (batch, groups, in_features, len(pieces)) + tuple(spatial))
    kernel = fnp.reshape(k, (groups, out_features // groups, in_features, len(pieces)))
    # n batch, g group, c input feature, p window offset, o output feature; then spatial
    axes = "".join(c for c in string.ascii_lowercase if c not in "ngcpo")[:len(spatial)]
    out = fnp.einsum(f"ngcp{axes},gocp->ngo{axes}", patches, kernel)
    out = fnp.reshape(out, (batch, out_features) + tuple(spatial))
    return fnp.transpose(out, tuple(np.argsort(out_perm)))


def conv(lhs: ArrayLike, rhs: ArrayLike, window_strides: Sequence[int],
         padding: str | Sequence[Sequence[int]], precision: Any = None,
         preferred_element_type: DTypeLike | None = None) -> Array:
    """JAX's short form of :func:`conv_general_dilated`: ``lhs`` (batch, feature,
    spatial...) with the kernel ``rhs`` (output feature, input feature, spatial...), no
    dilation, one group.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.conv(np.arange(5.0).reshape(1, 1, 5), np.array([[[1.0, 0.0, -1.0]]]), (1,), "VALID")
    array([[[-2., -2., -2.]]])
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_with_general_padding(lhs: ArrayLike, rhs: ArrayLike, window_strides: Sequence[int],
                              padding: str | Sequence[Sequence[int]],
                              lhs_dilation: Sequence[int] | None,
                              rhs_dilation: Sequence[int] | None, precision: Any = None,
                              preferred_element_type: DTypeLike | None = None) -> Array:
    """JAX's :func:`conv_general_dilated` in the default layouts with one group: padding,
    input (``lhs``) and kernel (``rhs``) dilation.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> x, k = np.arange(5.0).reshape(1, 1, 5), np.array([[[1.0, -1.0]]])
    >>> lax.conv_with_general_padding(x, k, (1,), [(0, 0)], None, (2,))
    array([[[-2., -2., -2.]]])
    """
    return conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation,
                                rhs_dilation, precision=precision,
                                preferred_element_type=preferred_element_type)
