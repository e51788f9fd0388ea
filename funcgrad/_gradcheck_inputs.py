"""What ``gradcheck`` and ``gradgradcheck`` check in: the inputs as float64 (complex128)
copies, with the positions to differentiate chosen by PyTorch's rule for Tensors and by
dtype for plain values, and the outputs' float leaves in the same precision.

>>> import numpy as np
>>> from funcgrad._gradcheck_inputs import _prepare_inputs
>>> values, diff, tensors = _prepare_inputs((np.ones(2, np.float32), 3), "gradcheck")
>>> values[0].dtype, diff, tensors
(dtype('float64'), [0], set())
"""
import sys
import warnings

import numpy as np

from . import tree


def _tensor_class():
    module = sys.modules.get("funcgrad.eager")
    return None if module is None else module.Tensor


def _prepare_inputs(inputs, who):
    """``(values, diff, tensors)``: the inputs as float64 arrays where differentiated, the
    positions differentiated, and the positions that were ``fg.Tensor``s (``f`` gets
    Tensors there again).  With any Tensor that requires grad among the inputs, exactly
    those are differentiated (PyTorch's rule); else every floating-point input."""
    if not isinstance(inputs, (tuple, list)):
        inputs = (inputs,)
    Tensor = _tensor_class()
    tensors = {k for k, x in enumerate(inputs) if Tensor is not None and isinstance(x, Tensor)}
    wanted = {k for k in tensors if inputs[k].requires_grad}
    if wanted:
        prepared, diff = [], []
        for k, x in enumerate(inputs):
            if k in tensors:
                value = x.detach().numpy()
                if k in wanted:
                    if value.dtype.kind not in "fc":
                        raise TypeError(f"{who}: input {k} requires grad but is neither "
                                        f"floating-point nor complex ({value.dtype})")
                    if value.dtype not in (np.float64, np.complex128):
                        warnings.warn(
                            f"Input #{k} requires gradient and is not a double precision "
                            f"floating point or complex. This check will likely fail if all "
                            f"the inputs are not of double precision floating point or "
                            f"complex.", UserWarning, stacklevel=3)
                    value = np.array(value, dtype=_checked_dtype(value))
                    diff.append(k)
                x = value
            prepared.append(x)
        return prepared, diff, tensors
    if tensors:  # PyTorch's idiom without a Tensor to check: nothing would be checked
        raise ValueError(f"{who} expects at least one input tensor to require gradient, but "
                         f"none of them have requires_grad=True; create the inputs to check "
                         f"with requires_grad=True (e.g. fg.tensor(x, requires_grad=True))")
    prepared, diff = _prepare_plain(inputs, who)
    return prepared, diff, tensors


def _prepare_plain(inputs, who):
    prepared, diff = [], []
    for k, x in enumerate(inputs):
        if isinstance(x, (bool, np.bool_)) or x is None:
            prepared.append(x)
            continue
        if isinstance(x, (int, float, np.number)) or hasattr(x, "__array__") or \
                isinstance(x, (list, tuple)):
            arr = np.asarray(x)
            if arr.dtype.kind in "fc" or isinstance(x, float):
                # float64/complex128 copies: finite differences need the precision, and we
                # perturb them in place
                prepared.append(np.array(arr, dtype=_checked_dtype(arr)))
                diff.append(k)
                continue
        prepared.append(x)  # integers, masks, other objects: passed through, not checked
    if not diff:
        raise ValueError(f"{who}: no floating-point or complex input to differentiate; pass "
                         f"the inputs as float (or complex) arrays, e.g. "
                         f"{who}(f, (np.array([1.0, 2.0]),))")
    return prepared, diff


def _checked_dtype(a):
    """float64, or complex128 for a complex array: the precision gradcheck checks in."""
    return np.complex128 if np.asarray(a).dtype.kind == "c" else np.float64


def _float_leaves(out):
    """Output leaves as float64 (complex128) arrays, None for leaves that are neither
    floating-point nor complex, and the tree."""
    leaves, treedef = tree.flatten(out)
    arrays = []
    for leaf in leaves:
        a = np.asarray(leaf)
        arrays.append(a.astype(_checked_dtype(a)) if a.dtype.kind in "fc" else None)
    return arrays, treedef, leaves
