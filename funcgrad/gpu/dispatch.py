"""Dispatch: the table of GPU implementations, and placing each operation's operands.

:class:`~funcgrad.gpu.array.GpuArray` is registered with the root interpreter
(:func:`funcgrad.core.register_special_type`), so every primitive that meets one is
handed to :func:`dispatch`, which looks the primitive up in :data:`IMPLS` (primitive
-> GPU implementation) and calls it.  Transforms need nothing of their own: their
rules are written with primitives, and those dispatch here on the GPU arrays they
receive.  Shapes and dtypes of results come from each primitive's ``abstract_eval``
(:func:`abstract`), so they match the CPU exactly.

**Mixing devices.**  One operation on a GPU array and a CPU array raises
:class:`DeviceMismatchError`, like PyTorch, when the CPU array is *user data*:
an argument of the funcgrad or NumPy function the user's own code called.
Python scalars, NumPy scalars and 0-d arrays mix freely (they travel as kernel
arguments), and so do integer index arrays in ``x[idx]`` / ``x.at[idx]``.
NumPy arrays that funcgrad itself makes *inside* an operation (the zeros, ones,
``eye`` and ``arange`` that derivative rules build, a Jacobian's basis of
seeds, masks made by ``fnp.triu``) are constants, not user data: the dispatch
copies them to the device.  This keeps the derivative rules device-agnostic
(they need no GPU code and no edits), at the cost of a host-to-device copy of
each such constant when it is used.  The test for "user data" looks at the
arguments of the outermost funcgrad frame below the user's code (by identity,
through lists, tuples, dicts and tracers); it is a heuristic documented here,
not a guarantee: an array the user built and passed in a way funcgrad cannot
see (an attribute of an object, say) is moved rather than refused.
"""
import os
import sys

import numpy as np

from ..core import REGISTRY, ShapedArray, Tracer, _special_classes, register_special_type
from ..primitives import indexing as _ix
from .array import GpuArray, broadcast_view, upload

__all__ = ["IMPLS", "DeviceMismatchError", "dispatch", "register_kernels",
           "missing_gpu_primitives", "abstract", "aval"]


class DeviceMismatchError(RuntimeError):
    """One operation was given arrays on different devices."""


IMPLS = {}
"""GPU implementation of each primitive (keyed by the primitive): ``impl(*args,
**params)`` on GpuArrays (and Python/NumPy scalars where the primitive is elementwise).

Entries made with :func:`register_kernels` run kernels, and get their operands placed
on the device first.  Entries added directly (``funcgrad.jit.derive.register_device_impls``:
``jit_call``, ``cond``, ``scan``, ``while_loop``; ``custom_call``) evaluate other
primitives, which place their own operands, so they get theirs as they are."""

_KERNELS = set()      # primitives whose implementation runs kernels on placed operands
_ELEMENTWISE = set()  # ... of which: elementwise (scalars stay kernel arguments)
# operands from this position on are index arrays, which may stay on the host
_INDEX_OPERANDS = {_ix.gather_p: 1, _ix.scatter_p: 2}
_SCALARS = (bool, int, float)


def register_kernels(impls, elementwise=False):
    """Add kernel-based implementations (``{primitive: impl}``) to :data:`IMPLS`."""
    IMPLS.update(impls)
    _KERNELS.update(impls)
    if elementwise:
        _ELEMENTWISE.update(impls)


def missing_gpu_primitives():
    """Names of registered primitives that have no GPU implementation (should be empty).

    >>> missing_gpu_primitives()      # doctest: +SKIP
    []
    """
    return sorted(name for name, prim in REGISTRY.items() if prim not in IMPLS)


def dispatch(prim, args, params):
    """``prim`` on ``args`` when one of them is a GpuArray (else ``NotImplemented``)."""
    on_gpu = False
    for a in args:
        t = type(a)
        if t is GpuArray:
            on_gpu = True
        elif t in _special_classes:
            return NotImplemented  # a tracer (escaped) or another special type's operation
    if not on_gpu:
        return NotImplemented
    impl = IMPLS.get(prim)
    if impl is None:
        raise NotImplementedError(
            f"the primitive {prim.name!r} has no GPU implementation yet, so it cannot run on "
            f"GpuArrays. Copy its operands to the host with fg.device_get(x) for this step, or "
            f"add an entry to funcgrad.gpu.IMPLS.")
    first_index = _INDEX_OPERANDS.get(prim, len(args))
    elementwise = prim in _ELEMENTWISE
    placed = None
    for i, a in enumerate(args):
        t = type(a)
        if t is GpuArray or t in _SCALARS or i >= first_index:
            continue
        if placed is None:
            placed = list(args)
        placed[i] = _place(prim, a, elementwise)
    return impl(*(args if placed is None else placed), **params)


def _place(prim, value, elementwise):
    """A non-GPU operand of a GPU operation: a scalar stays, a constant moves, user data raises."""
    if isinstance(value, complex) or np.iscomplexobj(value):
        raise TypeError(f"{prim.name}: complex numbers are not supported on the GPU")
    if isinstance(value, np.generic):
        return value if elementwise else upload(np.asarray(value))
    if not isinstance(value, np.ndarray):
        value = np.asarray(value)
    if value.ndim == 0:
        return value[()] if elementwise else upload(value)
    if _user_supplied(value):
        raise DeviceMismatchError(
            f"{prim.name}: one operation got a GPU array and a NumPy array (shape "
            f"{value.shape}, dtype {value.dtype}) that lives on the CPU. funcgrad does not move "
            f"your data between devices behind your back: copy it first with "
            f"fg.device_put(a, 'cuda') (or bring the GPU array back with fg.device_get(x)). "
            f"Python scalars, NumPy scalars and 0-d arrays may be mixed with GPU arrays freely.")
    return _upload_constant(value)


def _upload_constant(value):
    """A NumPy constant on the device; a broadcast view (zero strides) travels compact and
    is broadcast again there, so a rule's ``broadcast_to`` of a scalar costs one element,
    not a full-size copy."""
    if 0 in value.strides and value.size > 1:
        compact = value[tuple(slice(0, 1) if s == 0 else slice(None) for s in value.strides)]
        return broadcast_view(upload(compact), value.shape)
    return upload(value)


def _package_dirs():
    from .. import kernels
    return (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,
            os.path.dirname(os.path.abspath(kernels.__file__)) + os.sep)


_INTERNAL = _package_dirs()
_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08


def _user_supplied(array):
    """Is ``array`` the user's data, as opposed to a constant funcgrad made?

    Walks the stack outwards in alternating segments of funcgrad frames and user
    frames.  Where user code calls into funcgrad (the *entry* frame), an array that is
    not among the entry's arguments was made by funcgrad inside that call: a constant.
    One that is came from the user's code; if that code is itself a callback funcgrad
    called (a function being transformed, a custom rule) and received the array as an
    argument, funcgrad handed it over, and the search goes on where funcgrad got it.
    """
    frame = sys._getframe(2)
    while True:
        entry = None
        while frame is not None and frame.f_code.co_filename.startswith(_INTERNAL):
            entry = frame
            frame = frame.f_back
        if frame is None or entry is None or not _in_arguments(entry, array):
            return False
        callback = None
        while frame is not None and not frame.f_code.co_filename.startswith(_INTERNAL):
            callback = frame
            frame = frame.f_back
        if frame is None or not _in_arguments(callback, array):
            return True


def _in_arguments(frame, array):
    code = frame.f_code
    n = code.co_argcount + code.co_kwonlyargcount
    n += bool(code.co_flags & _CO_VARARGS) + bool(code.co_flags & _CO_VARKEYWORDS)
    f_locals = frame.f_locals
    return any(_holds(f_locals.get(name), array, 4) for name in code.co_varnames[:n])


def _holds(value, array, depth):
    if value is array or (isinstance(value, np.ndarray) and array.base is value):
        return True
    if isinstance(value, Tracer):
        from ..core import concrete
        try:
            return _holds(concrete(value), array, depth)
        except Exception:  # noqa: BLE001 - an abstract tracer holds no user array
            return False
    if depth and isinstance(value, (list, tuple)):
        return any(_holds(v, array, depth - 1) for v in value[:256])
    if depth and isinstance(value, dict):
        return any(_holds(v, array, depth - 1) for v in list(value.values())[:256])
    return False


register_special_type(GpuArray, dispatch)


# --- shapes and dtypes of results ----------------------------------------------------------------

def aval(x):
    """The abstract value of an operand (GpuArray, NumPy array) or the scalar itself."""
    if isinstance(x, (GpuArray, np.ndarray)):
        return ShapedArray(x.shape, x.dtype)
    return x


def abstract(prim, args, params):
    """``prim``'s result shape(s) and dtype(s) for ``args``, from its ``abstract_eval``."""
    return prim.abstract_eval(*[aval(a) for a in args], **params)
