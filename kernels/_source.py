"""Generated kernel modules: written once to a private cache folder, and only what was
written is ever run.

funcgrad generates Python source for its kernels (the fused rule kernels of
``kernels.cpu.generated``, the CUDA kernels of ``kernels.cuda``, the modules of
``funcgrad.jit``) and imports it from a file, so that Numba's on-disk cache
(``cache=True``) keeps their machine code: a later process that generates the same source
compiles nothing.  The file is named by a hash of its text (and of ``tag``: the versions
and helper files it depends on).

Safety: a file in the cache is executed only if its content is byte for byte the source
that names it (a truncated, stale or tampered file is rewritten first, never run), and
only from a folder this user owns that no one else can write (Numba's own cache files
sit next to the sources, and loading them runs code too).  Otherwise, or when the folder
cannot be written, the module is compiled in memory, without Numba's disk cache, and one
warning says why.

The folder is ``$FUNCGRAD_CACHE_DIR`` (an empty value turns the disk cache off), else
``$XDG_CACHE_HOME/funcgrad`` or ``~/.cache/funcgrad``; each kind of kernel has a
subfolder.
"""
import os
import stat
import sys
import threading
import types
import warnings

__all__ = ["cache_dir", "load_module", "source_key"]

_modules = {}  # (kind, key) -> module, in this process
_lock = threading.Lock()
_warned = set()


def cache_dir(kind):
    """The cache folder of ``kind`` ("jit", "cpu", "cuda"), or None when turned off."""
    path = os.environ.get("FUNCGRAD_CACHE_DIR")
    if path is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
        path = os.path.join(base, "funcgrad")
    return os.path.join(path, kind) if path else None


def source_key(source, tag=""):
    """The hash naming the module of ``source`` (with its dependencies' ``tag``)."""
    import hashlib  # (here: it loads OpenSSL, which `import funcgrad` need not wait for)
    return hashlib.sha256((tag + "\n" + source).encode()).hexdigest()[:32]


def _private(path):
    """Why ``path`` (an existing file or folder) must not be trusted, or None."""
    st = os.stat(path)
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"{path} belongs to another user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return f"{path} can be written by other users"
    return None


def _folder(kind):
    """The cache folder, created private if needed; None (with a warning) if unusable."""
    directory = cache_dir(kind)
    if directory is None:
        return None
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        for path in (os.path.dirname(directory), directory):
            reason = _private(path)
            if reason is not None:
                _warn(kind, f"{reason}: funcgrad will not run code from it")
                return None
        return directory
    except OSError as e:
        _warn(kind, f"{directory} cannot be used ({e})")
        return None


def _warn(kind, reason):
    if kind not in _warned:
        _warned.add(kind)
        warnings.warn(f"funcgrad: compiling {kind} kernels in memory, without a disk cache: "
                      f"{reason}. Set FUNCGRAD_CACHE_DIR to a folder only you can write "
                      f"(or to an empty string to turn the disk cache off and silence this).",
                      RuntimeWarning, stacklevel=3)


def _write(path, source):
    """Write ``source`` to ``path`` atomically (a concurrent writer writes the same text)."""
    import tempfile  # only here: it imports shutil, random, bz2, lzma (ms at start-up)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(source)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _verified(path, source):
    """``path`` holds exactly ``source`` and only this user can write it (rewritten if
    not); False when that cannot be made so."""
    try:
        with open(path, encoding="utf-8") as f:
            ok = f.read() == source and _private(path) is None
    except (OSError, UnicodeDecodeError):
        ok = False
    if not ok:
        _write(path, source)
        with open(path, encoding="utf-8") as f:
            ok = f.read() == source and _private(path) is None
    return ok


def load_module(kind, source, tag=""):
    """The module that ``source`` defines, loaded once per process.

    From the cache folder of ``kind`` when it is usable (then ``@njit(cache=True)``
    kernels in it keep their machine code on disk); else compiled in memory with
    ``cache=True`` turned off.  The source that runs is always ``source`` itself.
    """
    key = source_key(source, tag)
    module = _modules.get((kind, key))
    if module is not None:
        return module
    with _lock:
        module = _modules.get((kind, key))
        if module is not None:
            return module
        name = f"funcgrad_{kind}_{key}"
        directory = _folder(kind)
        path = None
        if directory is not None:
            try:
                path = os.path.join(directory, f"fg_{key}.py")
                if not _verified(path, source):
                    _warn(kind, f"{path} could not be written as generated")
                    path = None
            except OSError as e:
                _warn(kind, f"{directory} cannot be written ({e})")
                path = None
        module = types.ModuleType(name)
        if path is None:
            text, filename = source.replace("cache=True", "cache=False"), f"<{name}>"
        else:
            # The text checked above, not the file re-read: nothing swapped in between runs.
            text, filename = source, path
            module.__file__ = path
        sys.modules[name] = module  # functions pickle by reference (Numba's cache keys)
        try:
            exec(compile(text, filename, "exec"), module.__dict__)  # noqa: S102
        except BaseException:
            sys.modules.pop(name, None)
            raise
        _modules[(kind, key)] = module
        return module
