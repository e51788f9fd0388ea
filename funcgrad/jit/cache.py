"""Compiling lowered graphs, with an in-memory and an on-disk cache.

A kernel module's source is loaded by :func:`funcgrad.kernels._source.load_module` from
``<cache dir>/jit/fg_<hash>.py``, named by a hash of its text and of the helpers it calls
(and the Numba and NumPy versions); its kernels are ``@njit(cache=True)``, so Numba keeps
their machine code next to the file and a second process that generates the same source
loads it instead of compiling.  Only a file holding exactly the generated text, in a
folder only this user can write, is ever run.
"""
import hashlib
import os

import numpy as np

from ..kernels._source import load_module

__all__ = ["load_kernels", "make_runner"]


def _runtime_tag():
    import numba  # (imported on the first compilation, never by `import funcgrad`)
    from ..kernels.cpu import leaves, vbodies, vmath
    text = b""
    for path in (os.path.join(os.path.dirname(os.path.abspath(__file__)), "runtime.py"),
                 leaves.__file__, vmath.__file__, vbodies.__file__):  # what they call
        with open(path, "rb") as f:
            text += f.read()
    return hashlib.sha256(text + numba.__version__.encode() + np.__version__.encode()
                          ).hexdigest()[:16]


_TAG = None


def load_kernels(source):
    """The module of kernels that ``source`` defines (from the disk cache when possible;
    see :mod:`funcgrad.kernels._source`)."""
    global _TAG
    if _TAG is None:
        _TAG = _runtime_tag()
    return load_module("jit", source, _TAG)


def make_runner(lowered):
    """The callable ``run(*consts, *inputs)`` of a :class:`~funcgrad.jit.lower.Lowered`."""
    namespace = {"np": np}
    if lowered.kernel_source:
        module = load_kernels(lowered.kernel_source)
        for name in lowered.kernels:
            namespace[name] = getattr(module, name)
    namespace.update(lowered.python_calls)
    exec(compile(lowered.driver_source, "<funcgrad.jit driver>", "exec"), namespace)
    return namespace["run"]
