"""Compiling lowered graphs, with an in-memory and an on-disk cache.

A kernel module's source is written to ``<cache dir>/fg_<hash>.py``, named by a hash of
its text (and of the helpers it calls, and the Numba and NumPy versions), then imported; its kernels
are ``@njit(cache=True)``, so Numba keeps their machine code next to the file and a
second process that generates the same source loads it instead of compiling.

The cache directory is ``$FUNCGRAD_CACHE_DIR`` if set (an empty value turns the disk
cache off), else ``$XDG_CACHE_HOME/funcgrad`` or ``~/.cache/funcgrad``.  Files are
written once, atomically, and never rewritten (Numba checks the file's time stamp).
"""
import hashlib
import importlib.util
import os
import sys
import tempfile
import threading
import types

import numpy as np

__all__ = ["cache_dir", "load_kernels", "make_runner"]

_modules = {}  # source hash -> module, in this process
_lock = threading.Lock()


def cache_dir():
    """The directory of the on-disk cache, or None when it is turned off."""
    path = os.environ.get("FUNCGRAD_CACHE_DIR")
    if path is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
        path = os.path.join(base, "funcgrad")
    return path or None


def _runtime_tag():
    import numba  # (imported on the first compilation, never by `import funcgrad`)
    here = os.path.dirname(os.path.abspath(__file__))
    text = b""
    for helper in ("runtime.py", "vmath.py"):  # what the generated kernels call
        with open(os.path.join(here, helper), "rb") as f:
            text += f.read()
    return hashlib.sha256(text + numba.__version__.encode() + np.__version__.encode()
                          ).hexdigest()[:16]


_TAG = None


def _key(source):
    global _TAG
    if _TAG is None:
        _TAG = _runtime_tag()
    return hashlib.sha256((_TAG + "\n" + source).encode()).hexdigest()[:32]


def _write_once(path, text):
    if os.path.exists(path):
        return
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _import_file(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def load_kernels(source):
    """The module of kernels that ``source`` defines (imported from the disk cache when
    possible, else executed in memory without Numba's cache)."""
    key = _key(source)
    module = _modules.get(key)
    if module is not None:
        return module
    with _lock:
        module = _modules.get(key)
        if module is not None:
            return module
        name = f"funcgrad_jit_{key}"
        directory = cache_dir()
        module = None
        if directory is not None:
            path = os.path.join(directory, f"fg_{key}.py")
            try:
                _write_once(path, source)
                module = _import_file(name, path)
            except OSError:
                module = None  # not writable: compile in memory
        if module is None:
            module = types.ModuleType(name)
            exec(compile(source.replace("cache=True", "cache=False"), f"<{name}>", "exec"),
                 module.__dict__)
        _modules[key] = module
        return module


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
