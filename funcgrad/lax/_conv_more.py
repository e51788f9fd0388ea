"""``jax.lax``'s convolutions beyond :func:`conv_general_dilated` -- ``conv_transpose``,
``conv_general_dilated_patches``, ``conv_general_dilated_local`` -- and its shape helpers
(``conv_dimension_numbers``, ``ConvDimensionNumbers``, ``padtype_to_pads``,
``conv_shape_tuple``...).

Each convolution is JAX's own composition, written with funcgrad's
:func:`conv_general_dilated` and :func:`dot_general`: a transposed convolution is a
convolution of the input spread apart by the strides; the patches are a grouped
convolution with an identity kernel (so a non-finite entry spreads as in JAX); a local
(unshared) convolution contracts the patches with one kernel per output position.  They
differentiate, batch and compile as those do.
"""
import math
from typing import Any, NamedTuple, Sequence

import numpy as np

from .. import numpy as fnp
from ._common import array, static_ints
from ._linalg import dot_general
from ._windows import conv_general_dilated
from ..typing import Array, ArrayLike, DTypeLike

__all__ = ["ConvDimensionNumbers", "ConvGeneralDilatedDimensionNumbers",
           "conv_dimension_numbers", "conv_general_permutations", "padtype_to_pads",
           "conv_shape_tuple", "conv_general_shape_tuple", "conv_transpose_shape_tuple",
           "reduce_window_shape_tuple", "conv_transpose", "conv_general_dilated_patches",
           "conv_general_dilated_local"]


class ConvDimensionNumbers(NamedTuple):
    """The axes of a convolution's operands, as JAX's: ``lhs_spec`` (batch, feature,
    spatial...), ``rhs_spec`` (output feature, input feature, spatial...), ``out_spec``
    (batch, feature, spatial...), each a tuple of axis numbers.

    >>> from funcgrad import lax
    >>> lax.conv_dimension_numbers((1, 5, 5, 3), (3, 3, 3, 8), ("NHWC", "HWIO", "NHWC"))
    ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2))
    """
    lhs_spec: Sequence[int]
    rhs_spec: Sequence[int]
    out_spec: Sequence[int]


# (JAX's type of the ``dimension_numbers`` argument: layout strings, axis numbers or None)
ConvGeneralDilatedDimensionNumbers = tuple[str, str, str] | ConvDimensionNumbers | None


def conv_general_permutations(dimension_numbers: tuple[str, str, str]) -> tuple[tuple[int, ...],
                                                                               ...]:
    """The axis orders ``(lhs, rhs, out)`` that layout strings such as ``("NHWC", "HWIO",
    "NHWC")`` name: batch (``N``) or output feature (``O``), feature (``C``, ``I``), then
    the spatial axes in the order of the kernel's string.

    >>> from funcgrad import lax
    >>> lax.conv_general_permutations(("NHWC", "HWIO", "NHWC"))
    ((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))
    """
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    pairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, (a, b) in enumerate(pairs):
        spec = dimension_numbers[i]
        if not spec.count(a) == spec.count(b) == 1:
            raise TypeError(f"convolution dimension_numbers[{i}] must contain the characters "
                            f"'{a}' and '{b}' exactly once, got {spec}.")
        if len(spec) != len(set(spec)):
            raise TypeError(f"convolution dimension_numbers[{i}] cannot have duplicate "
                            f"characters, got {spec}.")
    if not (set(lhs_spec) - {"N", "C"} == set(rhs_spec) - {"O", "I"}
            == set(out_spec) - {"N", "C"}):
        raise TypeError(f"convolution dimension_numbers elements must each have the same set "
                        f"of spatial characters, got {dimension_numbers}.")

    def order(spec, pair):
        spatial = [i for i, c in enumerate(spec) if c not in pair]
        if spec is not rhs_spec:
            spatial.sort(key=lambda i: rhs_spec.index(spec[i]))
        return (spec.index(pair[0]), spec.index(pair[1])) + tuple(spatial)
    return tuple(order(spec, pair) for spec, pair in zip(dimension_numbers, pairs))


def conv_dimension_numbers(lhs_shape: Sequence[int], rhs_shape: Sequence[int],
                           dimension_numbers: Any) -> ConvDimensionNumbers:
    """``dimension_numbers`` (None, layout strings or a :class:`ConvDimensionNumbers`) as
    a :class:`ConvDimensionNumbers` for operands of these shapes.

    >>> from funcgrad import lax
    >>> lax.conv_dimension_numbers((1, 3, 5), (2, 3, 2), None)
    ConvDimensionNumbers(lhs_spec=(0, 1, 2), rhs_spec=(0, 1, 2), out_spec=(0, 1, 2))
    """
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return dimension_numbers
    if len(lhs_shape) != len(rhs_shape):
        raise TypeError(f"convolution requires lhs and rhs ndim to be equal, got "
                        f"{len(lhs_shape)} and {len(rhs_shape)}.")
    if dimension_numbers is None:
        default = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(default, default, default)
    if not isinstance(dimension_numbers, (list, tuple)):
        raise TypeError(f"convolution dimension_numbers must be tuple/list or None, got "
                        f"{type(dimension_numbers)}.")
    if len(dimension_numbers) != 3:
        raise TypeError(f"convolution dimension_numbers list/tuple must be length 3, got "
                        f"{len(dimension_numbers)}.")
    if not all(isinstance(spec, str) for spec in dimension_numbers):
        raise TypeError(f"convolution dimension_numbers elements must be strings, got "
                        f"{tuple(map(type, dimension_numbers))}.")
    for i, spec in enumerate(dimension_numbers):
        if len(spec) != len(lhs_shape):
            raise TypeError(f"convolution dimension_numbers[{i}] must have len equal to the "
                            f"ndim of lhs and rhs, got {len(spec)} for lhs and rhs shapes "
                            f"{tuple(lhs_shape)} and {tuple(rhs_shape)}.")
    return ConvDimensionNumbers(*conv_general_permutations(tuple(dimension_numbers)))


def padtype_to_pads(in_shape: Sequence[int], window_shape: Sequence[int],
                    window_strides: Sequence[int], padding: str) -> list[tuple[int, int]]:
    """``(low, high)`` per spatial axis for ``"VALID"``, ``"SAME"`` (the output has
    ``ceil(size / stride)`` entries; an odd padding's extra entry at the end) or
    ``"SAME_LOWER"`` (at the start).

    >>> from funcgrad import lax
    >>> lax.padtype_to_pads((5, 6), (3, 2), (2, 2), "SAME")
    [(1, 1), (0, 0)]
    """
    kind = padding.upper() if isinstance(padding, str) else padding
    if kind not in ("VALID", "SAME", "SAME_LOWER"):
        if isinstance(padding, str):
            raise RuntimeError(f"Unrecognized padding type: expected 'VALID', 'SAME', or "
                               f"'SAME_LOWER', got {padding}.")
        raise TypeError(f"Unknown padding type: {padding}.")
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    pads = []
    for n, w, s in zip(in_shape, window_shape, window_strides):
        total = max((-(-int(n) // int(s)) - 1) * int(s) + int(w) - int(n), 0)
        pads.append((total // 2, total - total // 2) if kind == "SAME"
                    else (total - total // 2, total // 2))
    return pads


def _stride_dim(size, window, stride):
    return max((size - window) // stride + 1, 0)


def conv_shape_tuple(lhs_shape: Sequence[int], rhs_shape: Sequence[int],
                     strides: Sequence[int], pads: Any,
                     batch_group_count: int = 1) -> tuple[int, ...]:
    """The shape of a convolution's result, operands in the default layout (batch,
    feature, spatial...) and ``pads`` a padding string or ``(low, high)`` pairs.

    >>> from funcgrad import lax
    >>> lax.conv_shape_tuple((2, 3, 9), (4, 3, 3), (2,), "SAME")
    (2, 4, 5)
    """
    lhs_shape, rhs_shape = static_ints(lhs_shape, "lhs_shape"), static_ints(rhs_shape,
                                                                            "rhs_shape")
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    if len(pads) != len(lhs_shape) - 2:
        raise TypeError(f"Wrong number of explicit pads for convolution: expected "
                        f"{len(lhs_shape) - 2}, got {len(pads)}.")
    padded = [n + lo + hi for n, (lo, hi) in zip(lhs_shape[2:], pads)]
    if any(p < 0 for p in padded):
        raise ValueError(f"Negative padding is larger than the size of the corresponding "
                         f"dimension: got padding={pads} for lhs_shape[2:]={lhs_shape[2:]}")
    space = tuple(_stride_dim(p, k, s) for p, k, s in zip(padded, rhs_shape[2:], strides))
    batch = lhs_shape[0] // batch_group_count if batch_group_count > 1 else lhs_shape[0]
    return (batch, rhs_shape[0]) + space


def conv_general_shape_tuple(lhs_shape: Sequence[int], rhs_shape: Sequence[int],
                             window_strides: Sequence[int], padding: Any,
                             dimension_numbers: tuple[str, str, str]) -> tuple[int, ...]:
    """:func:`conv_shape_tuple` for operands in the layouts ``dimension_numbers`` (layout
    strings) names; the result in the output's layout.

    >>> from funcgrad import lax
    >>> lax.conv_general_shape_tuple((1, 9, 9, 3), (3, 3, 3, 8), (1, 1), "VALID",
    ...                              ("NHWC", "HWIO", "NHWC"))
    (1, 7, 7, 8)
    """
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    out = conv_shape_tuple(np.take(lhs_shape, lhs_perm), np.take(rhs_shape, rhs_perm),
                           window_strides, padding)
    return tuple(int(n) for n in np.take(out, np.argsort(out_perm)))


def _transpose_padding(k, s, padding):
    """``(low, high)`` padding of the spread-out input of a transposed convolution whose
    forward convolution had ``padding`` (JAX's rule)."""
    if padding == "SAME":
        total = k + s - 2
        low = k - 1 if s > k - 1 else int(np.ceil(total / 2))
    elif padding == "VALID":
        total = k + s - 2 + max(k - s, 0)
        low = k - 1
    elif isinstance(padding, tuple):
        pads = tuple(k - p - 1 for p in padding)
        low, total = pads[0], sum(pads)
    else:
        raise ValueError(f"Invalid padding mode: {padding}")
    return low, total - low


def conv_transpose_shape_tuple(lhs_shape: Sequence[int], rhs_shape: Sequence[int],
                               window_strides: Sequence[int], padding: Any,
                               dimension_numbers: tuple[str, str, str]) -> tuple[int, ...]:
    """The shape of :func:`conv_transpose`'s result, operands in the layouts of
    ``dimension_numbers`` (layout strings).

    >>> from funcgrad import lax
    >>> lax.conv_transpose_shape_tuple((1, 4, 3), (3, 3, 2), (2,), "SAME", ("NHC", "HIO", "NHC"))
    (1, 8, 2)
    """
    lhs_perm, rhs_perm, out_perm = conv_general_permutations(dimension_numbers)
    lhs_t, rhs_t = np.take(lhs_shape, lhs_perm), np.take(rhs_shape, rhs_perm)
    if isinstance(padding, str):
        padding = [_transpose_padding(int(k), int(s), padding)
                   for k, s in zip(rhs_t[2:], window_strides)]
    space = [(int(i) - 1) * int(s) - int(k) + 2 + int(sum(p))
             for i, k, s, p in zip(lhs_t[2:], rhs_t[2:], window_strides, padding)]
    out = (int(lhs_t[0]), int(rhs_t[0])) + tuple(space)
    return tuple(int(n) for n in np.take(out, np.argsort(out_perm)))


def reduce_window_shape_tuple(operand_shape: Sequence[int], window_dimensions: Sequence[int],
                              window_strides: Sequence[int],
                              padding: Sequence[tuple[int, int]],
                              base_dilation: Sequence[int] | None = None,
                              window_dilation: Sequence[int] | None = None) -> tuple[int, ...]:
    """The shape of :func:`reduce_window`'s result (``padding`` as ``(low, high)``
    pairs).

    >>> from funcgrad import lax
    >>> lax.reduce_window_shape_tuple((4, 5), (2, 2), (2, 1), [(0, 0), (1, 0)])
    (2, 5)
    """
    def dilate(shape, dilation):
        if dilation is None:
            return tuple(shape)
        if any(d <= 0 for d in dilation):
            raise TypeError(f"All dilations must be positive, got {dilation}.")
        dilation = (1,) * (len(shape) - len(dilation)) + tuple(dilation)
        return tuple(max(1 + d * (n - 1), 0) if d != 1 else n for n, d in zip(shape, dilation))
    shape = dilate(static_ints(operand_shape, "operand_shape"), base_dilation)
    window = dilate(static_ints(window_dimensions, "window_dimensions"), window_dilation)
    padded = [n + lo + hi for n, (lo, hi) in zip(shape, padding)]
    return tuple(_stride_dim(p, w, s) for p, w, s in zip(padded, window, window_strides))


_TRANSPOSE_LAYOUTS = {2: ("NC", "IO", "NC"), 3: ("NHC", "HIO", "NHC"),
                      4: ("NHWC", "HWIO", "NHWC"), 5: ("NHWDC", "HWDIO", "NHWDC")}


def conv_transpose(lhs: ArrayLike, rhs: ArrayLike, strides: Sequence[int],
                   padding: str | Sequence[tuple[int, int]],
                   rhs_dilation: Sequence[int] | None = None,
                   dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
                   transpose_kernel: bool = False, precision: Any = None,
                   preferred_element_type: DTypeLike | None = None,
                   use_consistent_padding: bool = False) -> Array:
    """The transposed convolution ("deconvolution"), as JAX's: ``lhs`` spread apart by
    ``strides`` and convolved with ``rhs``.  The layouts default to channels-last
    (``("NHWC", "HWIO", "NHWC")`` for rank 4); ``transpose_kernel=True`` flips the
    kernel's spatial axes and swaps its feature axes, giving the gradient of
    :func:`conv_general_dilated`.  ``padding`` is ``"SAME"``, ``"VALID"`` or the
    forward convolution's ``(low, high)`` pairs.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> x, k = np.array([[[1.0], [2.0]]]), np.array([[[1.0]], [[10.0]]])  # NHC, HIO
    >>> lax.conv_transpose(x, k, (2,), "VALID")[0, :, 0]
    array([10.,  1., 20.,  2.])
    >>> lax.conv_transpose(x, k, (2,), "VALID", transpose_kernel=True)[0, :, 0]
    array([ 1., 10.,  2., 20.])
    """
    lhs, rhs = array(lhs), array(rhs)
    if lhs.ndim != rhs.ndim or lhs.ndim < 2:
        raise ValueError(f"conv_transpose: lhs and rhs need one rank, at least 2, got shapes "
                         f"{lhs.shape} and {rhs.shape}")
    if dimension_numbers is None:
        if lhs.ndim not in _TRANSPOSE_LAYOUTS:
            raise ValueError("No 4+ dimensional dimension_number defaults.")
        dimension_numbers = _TRANSPOSE_LAYOUTS[lhs.ndim]
    dn = conv_dimension_numbers(lhs.shape, rhs.shape, dimension_numbers)
    kernel_sizes = [rhs.shape[d] for d in dn.rhs_spec[2:]]
    strides = static_ints(strides, "conv_transpose: strides")
    dilation = (static_ints(rhs_dilation, "conv_transpose: rhs_dilation")
                if rhs_dilation is not None else (1,) * (rhs.ndim - 2))
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        spans = [1 + r * (k - 1) if r != 1 else k for k, r in zip(kernel_sizes, dilation)]
        each = [padding] * len(strides) if isinstance(padding, str) else [
            tuple(p) for p in padding]
        pads = [_transpose_padding(k, s, p) for k, s, p in zip(spans, strides, each)]
    else:
        pads = padding
    if transpose_kernel:
        rhs = fnp.flip(rhs, tuple(dn.rhs_spec[2:]))
        rhs = fnp.swapaxes(rhs, dn.rhs_spec[0], dn.rhs_spec[1])
    return conv_general_dilated(lhs, rhs, (1,) * (lhs.ndim - 2), pads, strides, dilation, dn,
                                precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_patches(lhs: ArrayLike, filter_shape: Sequence[int],
                                 window_strides: Sequence[int],
                                 padding: str | Sequence[tuple[int, int]],
                                 lhs_dilation: Sequence[int] | None = None,
                                 rhs_dilation: Sequence[int] | None = None,
                                 dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
                                 precision: Any = None,
                                 preferred_element_type: DTypeLike | None = None) -> Array:
    """The patches a convolution with a kernel of spatial shape ``filter_shape`` sees: the
    output's feature axis holds, for each input feature ``c`` and window offset ``p``
    (row-major over ``filter_shape``), entry ``c * prod(filter_shape) + p``.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> lax.conv_general_dilated_patches(np.arange(4.0).reshape(1, 1, 4), (2,), (1,), "VALID")
    array([[[0., 1., 2.],
            [1., 2., 3.]]])
    """
    x = array(lhs)
    filter_shape = static_ints(filter_shape, "conv_general_dilated_patches: filter_shape")
    dn = conv_dimension_numbers(x.shape, (1, 1) + filter_shape, dimension_numbers)
    size = math.prod(filter_shape)
    channels = x.shape[dn.lhs_spec[1]]
    # (JAX's construction: each window offset its own output feature, by a grouped
    # convolution with the identity)
    kernel = np.broadcast_to(np.eye(size, dtype=x.dtype), (channels, size, size))
    kernel = np.moveaxis(kernel.reshape((channels * size, 1) + filter_shape), (0, 1),
                         (dn.rhs_spec[0], dn.rhs_spec[1]))
    return conv_general_dilated(x, kernel, window_strides, padding, lhs_dilation,
                                rhs_dilation, dn, feature_group_count=channels,
                                precision=precision,
                                preferred_element_type=preferred_element_type)


def conv_general_dilated_local(lhs: ArrayLike, rhs: ArrayLike, window_strides: Sequence[int],
                               padding: str | Sequence[tuple[int, int]],
                               filter_shape: Sequence[int],
                               lhs_dilation: Sequence[int] | None = None,
                               rhs_dilation: Sequence[int] | None = None,
                               dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
                               precision: Any = None) -> Array:
    """The locally connected ("unshared") convolution: like :func:`conv_general_dilated`
    but with a different kernel at each output position.  ``rhs`` has the kernel's
    layout with the input-feature axis holding ``in_features * prod(filter_shape)``
    entries (as :func:`conv_general_dilated_patches` orders them) and the output's
    spatial sizes in place of the filter's.

    >>> import numpy as np
    >>> from funcgrad import lax
    >>> x = np.arange(4.0).reshape(1, 1, 4)
    >>> w = np.array([[[1.0, 0.0, -1.0], [1.0, 1.0, 1.0]]])  # (out, in * 2, 3 positions)
    >>> lax.conv_general_dilated_local(x, w, (1,), "VALID", (2,))
    array([[[1., 2., 1.]]])
    """
    x, rhs = array(lhs), array(rhs)
    filter_shape = static_ints(filter_shape, "conv_general_dilated_local: filter_shape")
    patches = conv_general_dilated_patches(x, filter_shape, window_strides, padding,
                                           lhs_dilation, rhs_dilation, dimension_numbers)
    _, rhs_spec, out_spec = conv_dimension_numbers(x.shape, (1, 1) + filter_shape,
                                                   dimension_numbers)
    lhs_batch, rhs_batch = list(out_spec[2:]), list(rhs_spec[2:])
    rhs_batch = [rhs_batch[i] for i in sorted(range(len(rhs_batch)),
                                              key=lambda k: lhs_batch[k])]
    dn = (([out_spec[1]], [rhs_spec[1]]), (sorted(lhs_batch), rhs_batch))
    out = dot_general(patches, rhs, dn, precision)
    return fnp.moveaxis(out, (-2, -1), (out_spec[0], out_spec[1]))
