"""Dispatch: the table of GPU implementations, and placing each operation's operands.

:class:`~funcgrad.gpu.array.GpuArray` is registered with the root interpreter
(:func:`funcgrad.core.register_special_type`), so every primitive that meets one is
handed to :func:`dispatch`, which looks the primitive up in :data:`IMPLS` (primitive
-> GPU implementation) and calls it.  Transforms need nothing of their own: their
rules are written with primitives, and those dispatch here on the GPU arrays they
receive.  Shapes and dtypes of results come from each primitive's ``abstract_eval``
(:func:`abstract`), so they match the CPU exactly.

**Mixing devices.**  An operation on a GPU array and a NumPy array raises
:class:`DeviceMismatchError`, like PyTorch, when the NumPy array is the user's data,
and copies it to the device when it is a constant funcgrad made for its own use.
Python scalars, NumPy scalars and 0-d arrays mix freely (they travel as kernel
arguments), and so do the integer index arrays of ``x[idx]`` and ``x.at[idx]``.

Which is which follows from *whose code runs*, which funcgrad knows, rather than from
the array: a thread-local mode (``core._state.internal``) is on while funcgrad's own
code runs.  It is set

- by :func:`funcgrad.core.run_under`, through which every interpreter runs a rule (JVP,
  batching, ``reverse_fwd``) and jit and control flow evaluate their graphs;
- around the backward pass, which runs the VJP rules
  (:func:`funcgrad.interpreters.reverse.backward_pass`);
- by the few ``funcgrad.numpy`` functions that build NumPy constants next to their
  operands (``triu``'s mask, ``diag``'s zeros), marked :func:`funcgrad.core.internal`.

The zeros, ones, ``eye`` and ``arange`` made there are moved to the device here, so
rules stay device-agnostic (no GPU code, no edits) at the cost of one host-to-device
copy of each constant when it is used.  Everywhere else the user's code runs: the
function being transformed, at the top level or under ``grad``/``vjp`` (reverse mode
computes the user's operations as they come), with its operators, ``funcgrad.numpy``
and plain ``numpy`` calls, its closures, globals and attributes, and the arrays it
builds itself; a NumPy array there is refused.  Tangents and cotangents the user hands
to a transform are checked where they enter (``fg.jvp``, ``linearize``'s and ``vjp``'s
returned functions, in funcgrad/api.py), and funcgrad's own seeds (a Jacobian's basis)
are made on their inputs' device.

Why a mode and not the call stack (the previous design walked ``sys._getframe`` and
guessed from the arguments of the outermost funcgrad frame whether an array was the
user's): the mode is a fact, not a guess, so an array the user reached through an
attribute, say, is refused instead of silently moved; it costs one more value swapped
per rule (``run_under`` got no slower, measured) instead of a frame walk per mixed
operation; and it names in one place what funcgrad's own code is.  Its blind spot is
deliberate: what runs inside a rule is funcgrad's, so under ``jvp``, ``vmap`` and
``jacfwd``/``hessian`` (where the user's operation is computed by its rule), inside
``jit`` and control flow (the graph keeps the array as a constant) and in the body of a
custom rule, a NumPy array is moved to the device rather than refused: the result is
right, at the price of a copy, as JAX does everywhere.
"""
import numpy as np

from .. import devices
from ..core import REGISTRY, ShapedArray, _special_classes, _state, register_special_type
from ..primitives import indexing as _ix
from .array import GpuArray, broadcast_view, upload

__all__ = ["IMPLS", "DeviceMismatchError", "dispatch", "register_kernels",
           "missing_gpu_primitives", "abstract", "aval"]


class DeviceMismatchError(RuntimeError):
    """One operation was given arrays on different devices."""


IMPLS: dict = {}
"""GPU implementation of each primitive (keyed by the primitive): ``impl(*args,
**params)`` on GpuArrays (and Python/NumPy scalars where the primitive is elementwise).

Entries made with :func:`register_kernels` run kernels, and get their operands placed
on the device first.  Primitives that evaluate other primitives (``jit_call``, ``cond``,
``scan``, ``while_loop``, ``custom_call``) register themselves in
:data:`funcgrad.devices.GPU`; the inner primitives place their own operands, so these get
theirs as they are."""

_KERNELS: set = set()      # primitives whose implementation runs kernels on placed operands
_ELEMENTWISE: set = set()  # ... of which: elementwise (scalars stay kernel arguments)
# operands from this position on are index arrays, which may stay on the host
_INDEX_OPERANDS = {_ix.gather_p: 1, _ix.scatter_p: 2}
_SCALARS = (bool, int, float, complex)
_COMPLEX: set = set()      # ... of which: non-elementwise ones that take complex operands


def register_kernels(impls, elementwise=False, takes_complex=()):
    """Add kernel-based implementations (``{primitive: impl}``) to :data:`IMPLS`;
    ``takes_complex``: those of them that compute complex operands (the others refuse
    them: :func:`dispatch`).  Elementwise ones decide per primitive, by their kernel's
    complex definition (:mod:`.complex_code`)."""
    IMPLS.update(impls)
    _KERNELS.update(impls)
    _COMPLEX.update(takes_complex)
    if elementwise:
        _ELEMENTWISE.update(impls)


def missing_gpu_primitives():
    """Names of registered primitives that have no GPU implementation (should be empty).

    >>> missing_gpu_primitives()
    []
    """
    return sorted(name for name, prim in REGISTRY.items()
                  if prim not in IMPLS and prim not in devices.GPU)


def dispatch(prim, args, params):
    """``prim`` on ``args`` when one of them is a GpuArray (else ``NotImplemented``)."""
    on_gpu = has_complex = False
    for a in args:
        t = type(a)
        if t is GpuArray:
            on_gpu = True
            has_complex = has_complex or a.dtype.kind == "c"
        elif t in _special_classes:
            return NotImplemented  # a tracer (escaped) or another special type's operation
    if not on_gpu:
        return NotImplemented
    impl = IMPLS.get(prim) or devices.GPU.get(prim)
    if impl is None:
        raise NotImplementedError(
            f"the primitive {prim.name!r} has no GPU implementation yet, so it cannot run on "
            f"GpuArrays. Copy its operands to the host with fg.device_get(x) for this step, or "
            f"add an entry to funcgrad.gpu.IMPLS.")
    if prim not in _KERNELS:
        return impl(*args, **params)
    if has_complex and prim not in _COMPLEX and prim not in _ELEMENTWISE:
        _refuse_complex(prim)
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


def _refuse_complex(prim):
    raise TypeError(
        f"{prim.name} on a complex GPU array: this operation has no GPU kernel for complex "
        f"numbers. Copy the operands to the host for this step (fg.device_get(x)), where "
        f"NumPy computes it, and back with fg.device_put.")


def _place(prim, value, elementwise):
    """A non-GPU operand of a GPU operation: a scalar stays, a constant of funcgrad's own
    code moves, the user's data raises (see the module docstring)."""
    if not elementwise and prim not in _COMPLEX and np.iscomplexobj(value):
        _refuse_complex(prim)
    if isinstance(value, np.generic):
        return value if elementwise else upload(np.asarray(value))
    if not isinstance(value, np.ndarray):
        value = np.asarray(value)
    if value.ndim == 0:
        return value[()] if elementwise else upload(value)
    if not _state.internal:
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
