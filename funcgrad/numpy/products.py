"""Products and contractions: matmul, dot, tensordot, einsum, trace, cross, polyval.

(``funcgrad.numpy.linalg`` holds NumPy's ``linalg`` namespace: inv, solve, det...)

The products take JAX's keywords too: ``precision`` (accepted and ignored: funcgrad
multiplies in the operands' own precision, as for ``fg.lax.dot``) and
``preferred_element_type`` (the operands are converted to it first, so the product is
computed and returned in that dtype).
"""
import builtins
import inspect
import string
import warnings
from typing import Any, Sequence

import numpy as _np

from ..kernels._broadcast import broadcast_shapes
from ..core import Tracer
from ..errors import ShapeMismatchError
from ..primitives import linalg as _la
from ..primitives import structural as _st
from ._convert import OUT_TYPES, asarray, one_axis, operand, write_out
from ._ufunc_keywords import gufunc_keywords
from ._ufunc_methods import with_core_axes
from .constructors import astype, zeros_like
from .indexing import diagonal
from .reductions import sum
from .manipulation import broadcast_arrays, moveaxis, ravel, reshape, stack
from ._ufunc_wrappers import stands_for
from .ufuncs import conj, multiply
from ..typing import Array, ArrayLike

__all__ = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "einsum", "trace", "cross",
           "polyval"]


def _preferred(dtype, operands):
    """The operands, converted to JAX's ``preferred_element_type`` when one is given."""
    if dtype is None:
        return operands
    return [astype(asarray(x), _np.dtype(dtype)) for x in operands]


@stands_for(_np.matmul)
def matmul(x1: ArrayLike, x2: ArrayLike, **keywords: Any) -> Array:
    """Matrix product with NumPy's rules (1-d promotion, stacks broadcast), NumPy's
    keywords (``out``, ``dtype``, ``casting``, ``order``, ``subok``, ``signature``, ``axes``;
    ``axis`` and ``keepdims`` raise NumPy's TypeError, as matmul's three core dimensions
    differ) and JAX's (``precision``, ``preferred_element_type``).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fnp.matmul(np.ones((2, 3)), np.ones(3))
    array([3., 3.])
    >>> fg.grad(lambda a: fnp.sum(fnp.matmul(a, np.array([1.0, 2.0]))))(np.ones((1, 2)))
    array([[1., 2.]])
    >>> fnp.matmul(np.ones((3, 2)), np.ones((3, 4)), axes=[(1, 0), (0, 1), (0, 1)]).shape
    (2, 4)
    """
    # (a float array, or a tracer that does not stand for a Python number, needs no
    # conversion; each shape is read once: a tracer's is a property)
    a = x1 if (type(x1) is _np.ndarray and x1.dtype.kind in "fc"
               or isinstance(x1, Tracer) and not x1.weak) else asarray(x1)
    b = x2 if (type(x2) is _np.ndarray and x2.dtype.kind in "fc"
               or isinstance(x2, Tracer) and not x2.weak) else asarray(x2)
    if keywords:  # (one test, as the one keyword it had before: the plain call is the hot one)
        return _matmul_with(a, b, **keywords)
    sa, sb = a.shape, b.shape
    if len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0]:  # two matrices that align
        return _la.matmul(a, b)
    if not sa or not sb:
        raise ValueError("matmul: input operand does not have enough dimensions (a scalar "
                         "cannot be matrix-multiplied; use multiply)")
    a2 = sa if len(sa) > 1 else (1,) + sa
    b2 = sb if len(sb) > 1 else sb + (1,)
    if a2[-1] != b2[-2]:
        raise ShapeMismatchError(f"matmul: shapes {sa} and {sb} are not aligned: "
                         f"{a2[-1]} (last axis of the first) != {b2[-2]} (the second's "
                         f"{'first' if len(sb) == 1 else 'second-to-last'} axis)")
    if len(a2) > 2 or len(b2) > 2:  # (NumPy's check of the stacks: Python, a few us)
        broadcast_shapes(a2[:-2], b2[:-2])
    return _la.matmul(a, b)


# NumPy's keywords of np.matmul (a generalized ufunc), JAX's after them: what
# inspect.signature and the docs show (the def takes **keywords, for the hot call's sake)
_P = inspect.Parameter
matmul.__signature__ = inspect.Signature(
    [_P("x1", _P.POSITIONAL_OR_KEYWORD, annotation=ArrayLike),
     _P("x2", _P.POSITIONAL_OR_KEYWORD, annotation=ArrayLike)]
    + [_P(name, _P.KEYWORD_ONLY, default=default, annotation=Any)
       for name, default in (("out", None), ("casting", "same_kind"), ("order", "K"),
                             ("dtype", None), ("subok", True), ("signature", None),
                             ("axes", None), ("precision", None),
                             ("preferred_element_type", None))],
    return_annotation=Array)


def _matmul_with(a, b, out=None, casting="same_kind", order="K", dtype=None, subok=True,
                 signature=None, axes=None, precision=None, preferred_element_type=None,
                 **others):
    """``matmul(a, b)`` with keywords: JAX's (``precision`` accepted and ignored, as the
    module says), then NumPy's, as its generalized ufunc takes them."""
    if others:  # (axis=, keepdims=: NumPy's own TypeError; any other: Python's)
        _np.matmul(_np.empty((1, 1)), _np.empty((1, 1)), **others)
    if preferred_element_type is not None:
        a, b = _preferred(preferred_element_type, [a, b])

    def product(x, y):
        return matmul(x, y) if axes is None else \
            with_core_axes(_np.matmul, matmul, (x, y), axes=axes)

    if (out is None and dtype is None and signature is None and casting == "same_kind"
            and order == "K" and subok is True):
        return product(a, b)
    return gufunc_keywords(_np.matmul, product, a, b, out, dtype, casting, order, subok,
                           signature)


def dot(a: ArrayLike, b: ArrayLike, out: Any = None, *, precision: Any = None,
        preferred_element_type: Any = None) -> Array:
    """``np.dot``: a product for scalars, matmul up to 2-d, a tensordot beyond.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.dot(np.array([1.0, 2.0]), np.array([3.0, 4.0])))
    11.0
    """
    if out is not None:  # (NumPy's rule: the result's dtype, C order)
        result = dot(a, b, precision=precision, preferred_element_type=preferred_element_type)
        if type(out) in OUT_TYPES and (out.dtype != _np.result_type(result)
                                       or not out.flags.c_contiguous):
            raise ValueError("output array is not acceptable (must have the right datatype, "
                             "number of dimensions, and be a C-Array)")
        return write_out("dot", out, result)
    a, b = _preferred(preferred_element_type, [asarray(a), asarray(b)])
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if b.ndim <= 2:
        return matmul(a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 2]))


def vdot(a: ArrayLike, b: ArrayLike, *, precision: Any = None,
         preferred_element_type: Any = None) -> Array:
    """The dot product of ``a`` and ``b`` flattened, conjugating ``a`` (as ``np.vdot``).

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> float(fnp.vdot(np.ones((2, 2)), np.full((2, 2), 2.0)))
    8.0
    >>> complex(fnp.vdot(np.array([1j]), np.array([1j])))
    (1+0j)
    """
    if preferred_element_type is not None:
        a, b = _preferred(preferred_element_type, [a, b])
    a = operand(a)
    if getattr(a, "dtype", None) is not None and a.dtype.kind == "c":
        a = conj(a)
    return _boolean_if_both(sum(multiply(ravel(a), ravel(b))), a, b)


def _boolean_if_both(result, *operands):
    """NumPy's sums of products of booleans are booleans (any of the ands): ``result``,
    summed as integers, as bool when every operand is."""
    if all(_np.result_type(getattr(o, "dtype", o)) == _np.bool_ for o in operands):
        return astype(result, _np.bool_)
    return result


def inner(a: ArrayLike, b: ArrayLike, *, precision: Any = None,
          preferred_element_type: Any = None) -> Array:
    """Sum of products over the last axes of ``a`` and ``b``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.inner(np.ones((2, 3)), np.arange(3.0))
    array([3., 3.])
    """
    a, b = _preferred(preferred_element_type, [asarray(a), asarray(b)])
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    return tensordot(a, b, axes=([a.ndim - 1], [b.ndim - 1]))


def outer(a: ArrayLike, b: ArrayLike, out: Any = None) -> Array:
    """``a[i] * b[j]`` for the flattened ``a`` and ``b``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.outer(np.array([1.0, 2.0]), np.array([1.0, 10.0]))
    array([[ 1., 10.],
           [ 2., 20.]])
    """
    if out is not None:
        return write_out("outer", out, outer(a, b))
    a, b = ravel(a), ravel(b)
    return multiply(reshape(a, (a.shape[0], 1)), reshape(b, (1, b.shape[0])))


def _axis_list(axes):
    return [axes] if isinstance(axes, (int, _np.integer)) else list(axes)


def tensordot(a: ArrayLike, b: ArrayLike,
              axes: int | Sequence[int] | Sequence[Sequence[int]] = 2, *,
              precision: Any = None, preferred_element_type: Any = None) -> Array:
    """Contract ``a``'s and ``b``'s ``axes`` (as ``np.tensordot``), through one matmul.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.tensordot(np.ones((2, 3, 4)), np.ones((4, 3)), axes=([1, 2], [1, 0]))
    array([12., 12.])
    """
    a, b = _preferred(preferred_element_type, [asarray(a), asarray(b)])
    if isinstance(axes, (int, _np.integer)):
        axes_a = list(range(a.ndim - axes, a.ndim))
        axes_b = list(range(axes))
    else:
        axes_a, axes_b = map(_axis_list, axes)
    axes_a = [one_axis(ax, a.ndim) for ax in axes_a]  # (AxisError: NumPy's IndexError kind)
    axes_b = [one_axis(ax, b.ndim) for ax in axes_b]
    for i, j in zip(axes_a, axes_b):
        if a.shape[i] != b.shape[j]:
            raise ValueError(f"tensordot: shape mismatch for sum: axis {i} of {a.shape} vs "
                             f"axis {j} of {b.shape}")
    free_a = [i for i in range(a.ndim) if i not in axes_a]
    free_b = [j for j in range(b.ndim) if j not in axes_b]
    m = int(_np.prod([a.shape[i] for i in free_a], dtype=_np.int64))
    k = int(_np.prod([a.shape[i] for i in axes_a], dtype=_np.int64))
    n = int(_np.prod([b.shape[j] for j in free_b], dtype=_np.int64))
    a2 = _st.reshape(_st.transpose(a, free_a + axes_a), (m, k))
    b2 = _st.reshape(_st.transpose(b, axes_b + free_b), (k, n))
    out_shape = tuple(a.shape[i] for i in free_a) + tuple(b.shape[j] for j in free_b)
    return _st.reshape(_la.matmul(a2, b2), out_shape)


def einsum(subscripts: str, *operands: ArrayLike, out: Any = None, optimize: Any = None,
           precision: Any = None, preferred_element_type: Any = None) -> Array:
    """Einstein summation (``...`` broadcasting and implicit output supported), also in
    NumPy's interleaved form ``einsum(a, [0, 1], b, [1], [0])``.  (``optimize`` is
    accepted; the contraction is done pairwise in the order given.)

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.einsum("ij,j->i", np.ones((2, 3)), np.arange(3.0))
    array([3., 3.])
    >>> fnp.einsum(np.ones((2, 3)), [0, 1], np.arange(3.0), [1], [0])
    array([3., 3.])
    """
    if out is not None:  # (NumPy's einsum casts into out safely only)
        return write_out("einsum", out, einsum(subscripts, *operands, optimize=optimize,
                                               precision=precision,
                                               preferred_element_type=preferred_element_type),
                         "safe")
    if not isinstance(subscripts, str):
        subscripts, operands = _sublist_form((subscripts,) + operands)
    ops = _preferred(preferred_element_type, [asarray(o) for o in operands])
    subscripts = subscripts.replace(" ", "")
    if "->" not in subscripts:
        letters = subscripts.replace(",", "").replace(".", "")
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
        subscripts += "->" + ("..." if "..." in subscripts else "") + out
    if "..." in subscripts:
        subscripts = _expand_ellipsis(subscripts, ops)
    return _boolean_if_both(_la.einsum(subscripts, *ops), *ops)


def _sublist_form(args):
    """NumPy's ``einsum(op0, sublist0, op1, sublist1, ..., [sublistout])`` as a subscripts
    string and the operands (axis labels are integers below 52, or Ellipsis)."""
    def letters(sub):
        out = []
        for s in sub:
            if s is Ellipsis:
                out.append("...")
            elif isinstance(s, (int, _np.integer)) and 0 <= s < 52:
                out.append(string.ascii_letters[s])
            else:
                raise ValueError(f"einsum: subscripts in the sublist form must be integers in "
                                 f"[0, 52) or Ellipsis, got {s!r}")
        return "".join(out)
    ops, subs = list(args[0::2]), list(args[1::2])
    out = None
    if len(ops) > len(subs):  # an odd count: the last one is the output sublist
        out = ops.pop()
    text = ",".join(letters(s) for s in subs)
    if out is not None:
        text += "->" + letters(out)
    return text, ops


def _expand_ellipsis(subscripts, ops):
    ins, out = subscripts.split("->")
    ins = ins.split(",")
    free = [c for c in string.ascii_letters if c not in subscripts]
    n_ell = builtins.max(op.ndim - len(s.replace("...", "")) for s, op in zip(ins, ops)
                         if "..." in s)
    ell = "".join(free[:n_ell])
    new_ins = []
    for s, op in zip(ins, ops):
        if "..." in s:
            k = op.ndim - len(s.replace("...", ""))
            s = s.replace("...", ell[n_ell - k:])
        new_ins.append(s)
    return ",".join(new_ins) + "->" + out.replace("...", ell)


def trace(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1,
          dtype: Any = None, out: Any = None) -> Array:
    """Sum of the ``offset``-th diagonal (computed in ``dtype``, when given).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> fg.grad(fnp.trace)(np.ones((2, 2)))
    array([[1., 0.],
           [0., 1.]])
    """
    if out is not None:
        return write_out("trace", out, trace(a, offset, axis1, axis2, dtype), "unsafe")
    return sum(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def cross(a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1,
          axis: int | None = None) -> Array:
    """Cross product of 3-vectors (or 2-vectors, NumPy's deprecated form) lying along
    ``axisa`` of ``a`` and ``axisb`` of ``b``; the products lie along ``axisc`` (``axis``
    sets all three), as ``np.cross``.

    >>> import numpy as np, funcgrad.numpy as fnp
    >>> fnp.cross(np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0]))
    array([0., 0., 1.])
    >>> fnp.cross(np.eye(3)[:, :2], np.ones(3), axisa=0)
    array([[ 0., -1.,  1.],
           [ 1.,  0., -1.]])
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = asarray(a), asarray(b)
    a = moveaxis(a, one_axis(axisa, a.ndim), -1)
    b = moveaxis(b, one_axis(axisb, b.ndim), -1)
    n, m = a.shape[-1], b.shape[-1]
    if n not in (2, 3) or m not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n"
                         "(dimension must be 2 or 3)")
    if n == 2 or m == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of "
                      "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
                      DeprecationWarning, stacklevel=2)
    # a 2-vector is a 3-vector whose third component is zero
    a0, a1, a2 = a[..., 0], a[..., 1], (a[..., 2] if n == 3 else None)
    b0, b1, b2 = b[..., 0], b[..., 1], (b[..., 2] if m == 3 else None)
    z = a0 * b1 - a1 * b0
    if n == 2 and m == 2:  # only the z component exists: one number per pair
        return z
    if n == 2:
        x, y = a1 * b2, -(a0 * b2)
    elif m == 2:
        x, y = -(a2 * b1), a2 * b0
    else:
        x, y = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    out = stack(broadcast_arrays(x, y, z), axis=-1)
    return moveaxis(out, -1, one_axis(axisc, out.ndim))


def polyval(p: ArrayLike, x: ArrayLike) -> Array:
    """Evaluate the polynomial with coefficients ``p`` (highest first) at ``x`` (Horner).

    >>> import numpy as np, funcgrad as fg, funcgrad.numpy as fnp
    >>> p = np.array([1.0, 0.0, -2.0])
    >>> float(fnp.polyval(p, 3.0)), float(fg.grad(lambda x: fnp.polyval(p, x))(3.0))
    (7.0, 6.0)
    """
    p = asarray(p)
    x = asarray(x)  # (a Python float is float64 here, as in NumPy's)
    y = zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y
