"""Compiling lowered graphs, with an in-memory and an on-disk cache.

A kernel module's source is loaded by :func:`funcgrad.kernels._source.load_module` from
``<cache dir>/jit/fg_<hash>.py``, named by a hash of its text and of the helpers it calls
(and the Numba and NumPy versions); its kernels are ``@njit(cache=True)``, so Numba keeps
their machine code next to the file and a second process that generates the same source
loads it instead of compiling.  Only a file holding exactly the generated text, in a
folder only this user can write, is ever run.
"""

import numpy as np

from ..kernels._source import load_module
from .runtime_digest import runtime_tag
from .source import loop_key

__all__ = ["load_kernels", "load_loop", "loop", "make_runner"]


def load_kernels(source):
    """The module of kernels that ``source`` defines (from the disk cache when possible;
    see :mod:`funcgrad.kernels._source`)."""
    return load_module("jit", source, runtime_tag())


_loops: dict = {}  # loop_key(source) -> the loop function (see funcgrad.jit.outline)


def load_loop(source):
    """Load the module of one loop function (see :mod:`funcgrad.jit.outline`), so that
    kernel modules can bind it by its key (:func:`loop`)."""
    key = loop_key(source)
    if key not in _loops:
        from .irloop import loop_intrinsic  # (None: Numba compiles the loop)
        written = loop_intrinsic(source, lambda: load_kernels(source).loop)
        _loops[key] = written if written is not None else load_kernels(source).loop
    return _loops[key]


def loop(key):
    """The loop function :func:`load_loop` loaded under ``key`` (a kernel module binds
    its loops by key when it is loaded)."""
    try:
        return _loops[key]
    except KeyError:
        raise RuntimeError(f"funcgrad.jit: the loop function {key} was not loaded before "
                           f"the kernel module that calls it") from None


def _first_form(value):
    """The form of an argument a kernel is compiled for on its first call: a 0-d array
    as its scalar, an unaligned array as an aligned copy, anything else as it is."""
    if type(value) is not np.ndarray:
        return value
    if value.ndim == 0:
        return value[()]
    return value if value.flags.aligned else np.array(value, order="C")


def _fitted(value, numba_type):
    """``value`` in a form the kernel's compiled argument type ``numba_type`` accepts: an
    array of another layout or writeability is copied only when that type needs it."""
    if type(value) is not np.ndarray:
        return value
    if value.ndim == 0:
        return value[()]
    layout = getattr(numba_type, "layout", None)
    flags = value.flags
    if (layout is None or flags.aligned and (flags.writeable or not numba_type.mutable)
            and (layout == "A" or layout == "C" and flags.c_contiguous
                 or layout == "F" and flags.f_contiguous)):
        return value
    return np.array(value, order="F" if layout == "F" else "C")


def _call_fitted(kernel, signature, args):
    return kernel.overloads[signature].entry_point(
        *[_fitted(a, t) for a, t in zip(args, signature)])


def _scalar_fits(value, numba_type, as_dtype):
    """Can a compiled version whose argument is the scalar type ``numba_type`` take the
    scalar ``value`` unchanged?  Numba converts a scalar to the compiled type as
    ``int()``/``float()`` would: a float32 or float passed where an int64 or a bool was
    compiled (the same kernel text, from another graph) was truncated, silently."""
    from numba.core.errors import NumbaNotImplementedError
    try:
        compiled = as_dtype(numba_type)
    except NumbaNotImplementedError:  # (not a NumPy scalar type: as before)
        return True
    return np.can_cast(np.asarray(value).dtype, compiled, "safe")


def _version_for(kernel, args):
    """The compiled signature of ``kernel`` that ``args`` fit (each array of the dtype and
    number of dimensions it was compiled for, each scalar of a type it converts to
    exactly), or None."""
    from numba.np.numpy_support import as_dtype
    for signature in kernel.signatures:
        for a, t in zip(args, signature):
            if type(a) is np.ndarray and a.ndim:
                if getattr(t, "ndim", None) != a.ndim or as_dtype(t.dtype) != a.dtype:
                    break
            elif isinstance(a, (np.ndarray, np.generic, bool, int, float, complex)) and \
                    not _scalar_fits(a, t, as_dtype):
                break
        else:
            return signature
    return None


def compile_once(kernel):
    """Make the Numba dispatcher ``kernel`` compile once, for the arguments of its first
    call, and fit later arguments to that version; returns it.

    Numba compiles a function once per argument *type*, and the type of an array says
    more than jit's signature (shape and dtype): its layout (C, F or strided), whether
    it is read-only, and a 0-d array is not a scalar.  So the same jitted call compiled
    its kernels again -- seconds -- when, say, an optimiser's step count came back as a
    NumPy scalar after being a 0-d array, or a transposed array came in.  Numba calls
    ``_compile_for_args`` when no compiled version matches the arguments' types.  The
    first time, the kernel compiles for the arguments as they are (0-d arrays as
    scalars): the views a graph passes between its compiled segments (``x[:, :4]``, a
    transpose) keep their layout, fixed by the graph, so they are not copied on every
    call.  After that, an argument of another form (the caller's transposed or read-only
    array) is passed to the compiled version as it is where that version accepts it, and
    copied where it does not: the usual case costs nothing more, and no call compiles
    again.  Arrays of another dtype or number of dimensions (two graphs whose kernels have
    the same text, such as a float32 and a float64 reshape) compile a version of their own.
    """
    if getattr(kernel, "_funcgrad_compile_once", False):
        return kernel
    compile_for_args = kernel._compile_for_args

    def compile_for_first_args(*args, **kwargs):
        if kwargs:
            return compile_for_args(*args, **kwargs)
        signature = _version_for(kernel, args) if kernel.signatures else None
        if signature is None:
            first = [_first_form(a) for a in args]
            if all(f is a for f, a in zip(first, args)):
                return compile_for_args(*args)
            compile_for_args(*first)
            signature = _version_for(kernel, args)
        # (Numba calls what this returns with the original arguments)
        return lambda *args: _call_fitted(kernel, signature, args)

    kernel._compile_for_args = compile_for_first_args
    kernel._funcgrad_compile_once = True
    return kernel


def make_runner(lowered):
    """The callable ``run(*consts, *inputs)`` of a :class:`~funcgrad.jit.lower.Lowered`."""
    namespace = {"np": np}
    for source in lowered.loop_sources:
        load_loop(source)
    if lowered.kernel_source:
        from .irkernelcall import plan
        source = lowered.kernel_source
        module = load_kernels(source)
        for name in lowered.kernels:
            written = plan(source, name, lowered.loop_sources)
            if written is None:
                namespace[name] = compile_once(getattr(module, name))
            else:  # (the Numba kernel for what the IR one does not take)
                namespace[name] = written.function(
                    name, lambda name=name: compile_once(getattr(module, name)))
    namespace.update(lowered.python_calls)
    exec(compile(lowered.driver_source, "<funcgrad.jit driver>", "exec"), namespace)
    return namespace["run"]
