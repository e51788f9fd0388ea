"""``funcgrad.numpy.ma``: NumPy's masked arrays, with data that may be traced.

A :class:`MaskedArray` holds data (a NumPy array, or a traced one inside a transform) and
a boolean mask; arithmetic, the ufuncs here and the reductions leave the masked entries
out, as ``np.ma``'s do, with NumPy's values, masks and fill values.  Derivatives are with
respect to the data, and masked entries get zero cotangent: a masked ``log(0)`` or
``0 / 0`` never puts a NaN into a gradient.  NumPy's own ``np.ma`` arrays passed in keep
their data and mask, and ``masked``/``nomask`` are NumPy's.

>>> import numpy as np, funcgrad as fg
>>> from funcgrad.numpy import ma
>>> def f(x):
...     y = ma.log(ma.masked_less(x, 0.5))      # x < 0.5 masked: log(0) never seen
...     return ma.mean(y)
>>> fg.grad(f)(np.array([0.0, 1.0, 2.0]))
array([0.  , 0.5 , 0.25])

Under ``vmap`` and ``jit`` a mask computed from traced data is itself traced; functions
whose result's shape depends on the mask (``compressed``, ``compress_rows``, ``median``)
then ask for a mask built outside the transform.
"""
from ._core import (MaskError, MaskType, MaskedArray, array, compressed, count, filled,
                    getdata, getmask, getmaskarray, is_masked, make_mask, mask_or, masked,
                    masked_array, nomask)
from ._masking import (fix_invalid, masked_equal, masked_greater, masked_greater_equal,
                       masked_inside, masked_invalid, masked_less, masked_less_equal,
                       masked_not_equal, masked_outside, masked_values, masked_where)
from ._ufuncs import (abs, absolute, add, arccos, arccosh, arcsin, arcsinh, arctan,
                      arctan2, arctanh, bitwise_and, bitwise_or, bitwise_xor, ceil,
                      conjugate, cos, cosh, divide, equal, exp, fabs, floor, floor_divide,
                      fmod, greater, greater_equal, hypot, less, less_equal, log, log10,
                      log2, logical_and, logical_not, logical_or, logical_xor, mod, multiply, negative, not_equal, power, remainder, sin,
                      sinh, sqrt, subtract, tan, tanh, true_divide)
from ._reductions import (all, anom, anomalies, any, argmax, argmin, argsort, average, cumprod,
                          cumsum, max, mean, median, min, prod, product, ptp, sort, std,
                          sum, var)
from ._extras import (allclose, allequal, apply_along_axis, clip, compress_cols,
                      compress_rowcols, compress_rows, concatenate, dot, flatnotmasked_edges,
                      isMA, isMaskedArray, isarray, mask_cols, mask_rowcols, mask_rows,
                      masked_all, maximum, minimum, notmasked_edges, stack, where)
from ._extras import (around, asanyarray, asarray, count_masked, default_fill_value,
                      maximum_fill_value, minimum_fill_value, ones, round, round_, zeros)
from ._marest_shapes import (append, atleast_1d, atleast_2d, atleast_3d, clump_masked,
                             clump_unmasked, column_stack, diff, dstack, ediff1d, empty_like,
                             expand_dims, flatnotmasked_contiguous, harden_mask, hstack,
                             masked_all_like, ndim, notmasked_contiguous, ones_like, ravel,
                             reshape, row_stack, shape, size, soften_mask, squeeze, swapaxes,
                             transpose, vstack, zeros_like)
from ._marest_products import (convolve, corrcoef, correlate, cov, diag, diagonal, inner,
                               innerproduct, outer, outerproduct, polyfit, trace, vander)
from ._marest_misc import (MAError, alltrue, amax, amin, arange, bool_,
                           common_fill_value, compress, empty, identity, is_mask,
                           make_mask_none, masked_singleton, nonzero, repeat, set_fill_value,
                           sometrue, take)
from ._marest_misc import copy, diagflat, hsplit, left_shift, resize, right_shift
from ._marest_sets import in1d, intersect1d, isin, setdiff1d, setxor1d, union1d, unique
from ._methods import attach_methods
from ._marest_names import (angle, apply_over_axes, choose, compress_nd, flatten_mask,
                            flatten_structured_array, frombuffer, fromflex, fromfunction,
                            ids, indices, make_mask_descr, masked_object,
                            masked_print_option, mr_, mvoid, ndenumerate, put, putmask)
from ._marest_arraymethods import attach_array_methods

__all__ = [
    # the array and its parts
    "MaskedArray", "masked_array", "array", "masked", "nomask", "MaskError", "MaskType",
    "getmask", "getmaskarray", "getdata", "is_masked", "make_mask", "mask_or",
    "isMaskedArray", "isMA", "isarray", "filled", "compressed", "count", "fix_invalid",
    "masked_all", "asarray", "asanyarray", "zeros", "ones", "count_masked",
    "default_fill_value", "minimum_fill_value", "maximum_fill_value",
    # making masks from values
    "masked_where", "masked_invalid", "masked_equal", "masked_not_equal", "masked_greater",
    "masked_greater_equal", "masked_less", "masked_less_equal", "masked_inside",
    "masked_outside", "masked_values",
    # ufuncs
    "abs", "absolute", "add", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2",
    "arctanh", "bitwise_and", "bitwise_or", "bitwise_xor", "ceil", "conjugate", "cos",
    "cosh", "divide", "equal", "exp", "fabs", "floor", "floor_divide", "fmod", "greater",
    "greater_equal", "hypot", "less", "less_equal", "log", "log10", "log2", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "mod", "multiply",
    "negative", "not_equal", "power", "remainder", "sin", "sinh", "sqrt", "subtract", "tan",
    "tanh", "true_divide",
    # reductions, sorting, statistics
    "sum", "prod", "product", "cumsum", "cumprod", "mean", "var", "std", "min", "max", "ptp",
    "argmin", "argmax", "argsort", "sort", "average", "median", "anom", "anomalies", "all",
    "any", "round", "round_", "around",
    # joining, selecting, products, rows and columns
    "concatenate", "stack", "where", "clip", "dot", "allequal", "allclose", "mask_rowcols",
    "mask_rows", "mask_cols", "compress_rowcols", "compress_rows", "compress_cols",
    "notmasked_edges", "flatnotmasked_edges", "apply_along_axis",
    # joining, differences, arrays like another, shapes, runs (session 24, marest)
    "hstack", "vstack", "row_stack", "column_stack", "dstack", "append", "atleast_1d",
    "atleast_2d", "atleast_3d", "diff", "ediff1d", "zeros_like", "ones_like", "empty_like",
    "masked_all_like", "harden_mask", "soften_mask", "squeeze", "expand_dims", "swapaxes",
    "ravel", "reshape", "transpose", "shape", "size", "ndim", "clump_masked",
    "clump_unmasked", "flatnotmasked_contiguous", "notmasked_contiguous",
    # covariance, products, convolution, fits, diagonals (session 24, marest)
    "cov", "corrcoef", "outer", "outerproduct", "inner", "innerproduct", "convolve",
    "correlate", "vander", "polyfit", "diag", "diagonal", "trace",
    # selection, aliases, fill values, constructors (session 24, marest)
    "amin", "amax", "alltrue", "sometrue", "MAError", "bool_", "masked_singleton",
    "is_mask", "make_mask_none", "take", "repeat", "compress", "nonzero", "set_fill_value",
    "common_fill_value", "identity", "arange", "empty",
    # set functions (session 24, marest)
    "unique", "intersect1d", "union1d", "setdiff1d", "setxor1d", "in1d", "isin",
    "diagflat", "hsplit", "resize", "copy", "left_shift", "right_shift",
    # the last module names: angle, choose, put, constructors, structured helpers (session 25)
    "angle", "apply_over_axes", "choose", "compress_nd", "flatten_mask",
    "flatten_structured_array", "frombuffer", "fromflex", "fromfunction", "ids", "indices",
    "make_mask_descr", "masked_object", "masked_print_option", "mr_", "mvoid", "ndenumerate",
    "put", "putmask",
]

attach_methods(MaskedArray, {name: globals()[name] for name in __all__})
attach_array_methods(MaskedArray)
