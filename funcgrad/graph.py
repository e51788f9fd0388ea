"""Hooks on the values reverse mode saves for the backward pass (``fg.graph``).

Like ``torch.autograd.graph``: :class:`saved_tensors_hooks` lets you decide
how the residuals of a reverse pass are stored (compressed, offloaded to the
host, logged) and :class:`save_on_cpu` moves GPU residuals to host memory.

What is packed: what PyTorch saves -- the values an operation's backward rule
reads, as its primitive declares them (``vjp_reads``); Python-number constants
are part of the operation, not saved values.  ``(a * a).sum()`` packs two
values (``mul`` reads both factors, ``sum`` only shapes) and ``(a * 2.0).sum()``
none.  On the eager Tensor's graph the pack hook receives Tensors -- the input
Tensor itself, or a Tensor showing the output for a rule that reads its output
(``x.exp()``) -- and the node keeps nothing but what the hook returned, so
:class:`save_on_cpu` frees what it promises.  On the functional tape
(``fg.vjp``, ``fg.grad``) the hook receives arrays, and an output is not
packed: it is the traced value itself, which the forward pass keeps using.
Each use of a saved value in the backward pass calls the unpack hook once (a
``vjp_fn`` called twice unpacks twice); ``unpack_hook`` may return a Tensor or
an array.

The hooks are thread-local, apply to operations recorded while they are
registered (the innermost pair wins), and are kept with each operation, so a
backward pass run after the ``with`` block still unpacks correctly.
A ``Function`` on Tensors packs what ``ctx.save_for_backward`` kept, once each, and
unpacks it at each ``ctx.saved_tensors``, as PyTorch.  Other operations with several
outputs (``split``, ``slogdet``) are not yet routed through the hooks: their inputs are
saved as they are.
"""
import threading
from typing import Any, Callable, Literal

import numpy as np

from .core import ShapedArray, Tracer
from .instruments import (OUTPUT, Instrument, as_rule_value, check_unpacked, install,
                          saved_residuals, uninstall)

__all__ = ["saved_tensors_hooks", "save_on_cpu", "disable_saved_tensors_hooks"]


class _Hooks(threading.local):
    def __init__(self):
        self.pairs = []         # the saved_tensors_hooks stack: [(pack, unpack)]
        self.disabled = []      # messages of the active disable_saved_tensors_hooks
        self.in_hook = False    # inside a pack/unpack hook: do not pack recursively


_hooks = _Hooks()


class _SavedHooksInstrument(Instrument):
    """Packs the inputs of every recorded node with the innermost hook pair and unpacks
    them for its backward rule."""

    priority = 90  # after anomaly detection / the profiler have looked at the inputs

    def on_record(self, node):
        hooks = _hooks
        if not hooks.pairs or hooks.in_hook:
            return None
        if hooks.disabled:
            raise RuntimeError(hooks.disabled[-1])
        if getattr((node.params or {}).get("rule"), "packs_own_saved", False) and \
                getattr(node, "show_residual", None) is not None:
            return None  # a Function on Tensors packs what its ctx saved itself
        pack, unpack = hooks.pairs[-1]
        saved = saved_residuals(node)  # what the rule reads, as PyTorch saves it
        packed = []
        hooks.in_hook = True  # operations inside a hook are not packed again
        try:
            for position, value in saved:
                packed.append((position, pack(value), getattr(value, "shape", None)))
        finally:
            hooks.in_hook = False
        # The node keeps only what pack_hook returned: on the eager Tensor's graph the
        # values its rule does not read become shapes, so nothing else holds memory.
        shows_tensors = getattr(node, "show_residual", None) is not None
        kept = {entry[0] for entry in packed}
        args = list(node.args)
        for i, a in enumerate(args):
            if i in kept:
                args[i] = None
            elif shows_tensors:
                args[i] = _shape_of(a)
        node.args = tuple(args)
        if shows_tensors and not node.prim.multiple_results:
            node.value = None if OUTPUT in kept else _shape_of(node.value)
        if not packed:
            return None
        return (unpack, packed)

    def backward(self, node, data, g, args, proceed):
        unpack, entries = data
        args = list(args)
        value = None
        previous, _hooks.in_hook = _hooks.in_hook, True
        try:
            for position, p, shape in entries:
                restored = as_rule_value(node, check_unpacked(unpack(p), shape))
                if position == OUTPUT:
                    value = restored
                else:
                    args[position] = restored
        finally:
            _hooks.in_hook = previous
        return proceed(tuple(args), value)


_INSTRUMENT = _SavedHooksInstrument()


def _shape_of(a):
    """``a``'s shape and dtype without its values (numbers stay as they are)."""
    if isinstance(a, (bool, int, float, complex)) or a is None:
        return a
    return ShapedArray(tuple(a.shape), a.dtype)


class saved_tensors_hooks:
    """Context manager: every value saved for a reverse pass inside it goes through
    ``pack_hook(value) -> packed`` when the operation is recorded and through
    ``unpack_hook(packed) -> value`` when the backward pass uses it.

    ``unpack_hook`` must return a value equal to the one packed (same shape and
    dtype); anything else makes the gradient wrong.  Nested blocks: the innermost
    pair wins.  See the module docstring for what is packed.

    >>> import numpy as np, funcgrad as fg
    >>> packed = []
    >>> def pack(x):
    ...     packed.append(x)
    ...     return x.copy()
    >>> with fg.graph.saved_tensors_hooks(pack, lambda x: x):
    ...     out, vjp_fn = fg.vjp(lambda a, b: a * b, np.ones(2), np.full(2, 3.0))
    >>> len(packed)                      # a and b
    2
    >>> vjp_fn(np.ones(2))               # unpacked when the backward pass needs them
    (array([3., 3.]), array([1., 1.]))
    """

    def __init__(self, pack_hook: Callable[[Any], Any],
                 unpack_hook: Callable[[Any], Any]) -> None:
        for name, hook in (("pack_hook", pack_hook), ("unpack_hook", unpack_hook)):
            if not callable(hook):
                raise TypeError(f"saved_tensors_hooks: {name} must be a function of one "
                                f"value, got {type(hook).__name__}; pass e.g. lambda x: x")
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> "saved_tensors_hooks":
        if _hooks.disabled:
            raise RuntimeError(_hooks.disabled[-1])
        _hooks.pairs.append((self.pack_hook, self.unpack_hook))
        install(_INSTRUMENT)
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        _hooks.pairs.pop()
        if not _hooks.pairs:
            uninstall(_INSTRUMENT)
        return False


# --- save_on_cpu -----------------------------------------------------------------------------

def _device_of(x):
    """The device of a GPU array, or None for host values.

    Duck-typed (funcgrad's ``GpuArray``, numba.cuda and CuPy arrays alike): a value
    is on a GPU when it has a ``device`` attribute that is not the host, or exposes
    ``__cuda_array_interface__``.
    """
    if isinstance(x, (np.ndarray, Tracer)) or np.isscalar(x):
        return None  # host values, and traced values (a higher-order pass saves those)
    device = getattr(x, "device", None)
    if device is not None and str(device).lower() not in ("cpu", "host"):
        return device
    if hasattr(x, "__cuda_array_interface__"):
        return device if device is not None else "cuda"
    return None


def _to_host(x, pin_memory):
    """A host (NumPy) copy of the GPU array ``x``, page-locked if ``pin_memory``."""
    if hasattr(x, "detach"):  # an eager Tensor: its value, outside the graph
        x = x.detach()
    if pin_memory:
        from numba import cuda
        host = cuda.pinned_array(x.shape, dtype=x.dtype)
        if hasattr(x, "copy_to_host"):
            x.copy_to_host(host)
        else:
            np.copyto(host, np.asarray(x))
        return host
    if hasattr(x, "copy_to_host"):  # numba.cuda device arrays
        return x.copy_to_host()
    return np.asarray(x)  # funcgrad GpuArray, CuPy (via __array__)


def _to_device(host, device):
    import funcgrad
    put = getattr(funcgrad, "device_put", None)
    if put is not None:
        return put(host, device)
    from numba import cuda  # a numba.cuda array: its own transfer
    return cuda.to_device(host)


class save_on_cpu(saved_tensors_hooks):
    """Context manager: values saved for the reverse pass that live on a GPU are copied
    to host memory when recorded and back to their device when the backward pass needs
    them, trading transfer time for GPU memory.  Host (NumPy) values are kept as they
    are.  ``pin_memory=True`` copies into page-locked host memory (faster transfers).

    A GPU array is recognised by a ``device`` attribute other than the host (or by
    ``__cuda_array_interface__``), copied to the host with its ``copy_to_host()`` or
    ``np.asarray``, and goes back with ``fg.device_put(host, device)`` (or
    ``numba.cuda.to_device`` where funcgrad has no ``device_put``).

    >>> import numpy as np, funcgrad as fg
    >>> with fg.graph.save_on_cpu():
    ...     fg.grad(lambda x: np.sum(np.sin(x)))(np.zeros(2))
    array([1., 1.])
    """

    def __init__(self, pin_memory: bool = False) -> None:
        self.pin_memory = bool(pin_memory)
        super().__init__(self._pack, self._unpack)

    def _pack(self, x):
        device = _device_of(x)
        if device is None:
            return (None, x)
        return (device, _to_host(x, self.pin_memory))

    @staticmethod
    def _unpack(packed):
        device, value = packed
        return value if device is None else _to_device(value, device)


class disable_saved_tensors_hooks:
    """Context manager forbidding saved-value hooks: registering a
    :class:`saved_tensors_hooks` inside it, or recording an operation while outer
    hooks are registered, raises ``RuntimeError(error_message)``.  For code that
    cannot honour the hooks (e.g. a library whose residuals must stay in place).

    >>> import funcgrad as fg
    >>> with fg.graph.disable_saved_tensors_hooks("my_op does not support hooks"):
    ...     with fg.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    ...         pass
    Traceback (most recent call last):
    ...
    RuntimeError: my_op does not support hooks
    """

    def __init__(self, error_message: str) -> None:
        self.error_message = str(error_message)

    def __enter__(self) -> "disable_saved_tensors_hooks":
        _hooks.disabled.append(self.error_message)
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        _hooks.disabled.pop()
        return False
